"""The process's metrics for the operator (``/metrics``, bot/web/monitor.py), through prometheus_client.

Counted where things happen: the referee's ``act`` (how many, how long, accepted or refused), the delivery
worker (messages delivered, failures), Discord's rate limits (every 429 discord.py waits out: it logs each one on
``discord.http``, which is where they are counted, as discord.py has no event for them).  What the record knows
(open tables, the outbox, deadlines, the last backup) is read from it at each scrape (``Figures``).

Nothing here names a player, a seat's user or a table's content: labels are games, states and outcomes.
"""
from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

#: act() answers within these seconds: a click is answered in well under a second, a busy database up to its
#: busy timeout (5 s by default)
ACT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
CONTENT_TYPE = CONTENT_TYPE_LATEST
_RATE_LIMITED = re.compile(r"responded with 429\. Retrying in ([0-9.]+) seconds")


@dataclass
class Figures:
    """What the record says at one moment (``Store.operations_figures``)."""

    open_tables: dict[tuple[str, str], int] = field(default_factory=dict)   # (game, state) → tables
    outbox_pending: int = 0
    outbox_oldest_age: float = 0.0
    outbox_failed: int = 0
    deadlines_next_hour: int = 0
    last_backup_age: float | None = None
    last_backup_bytes: int | None = None


class Metrics:
    """One registry of the process's metrics (tests make their own; the bot uses ``METRICS``)."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry(auto_describe=True)
        self.started = time.time()
        self.actions = Counter("judge_actions", "Actions judged by the referee (act), by game and result",
                               ["game", "result"], registry=r)
        self.act_seconds = Histogram("judge_act_seconds", "Time the referee's act() took, lock wait included",
                                     buckets=ACT_BUCKETS, registry=r)
        self.delivered = Counter("judge_delivered_messages", "Outbox messages delivered", registry=r)
        self.delivery_failures = Counter("judge_delivery_failures", "Outbox delivery attempts that failed",
                                         ["kind"], registry=r)
        self.rate_limit_waits = Counter("judge_discord_rate_limit_waits",
                                        "Discord answers 429 that discord.py waited out", registry=r)
        self.rate_limit_seconds = Counter("judge_discord_rate_limit_wait_seconds",
                                          "Seconds discord.py waited on Discord's rate limits", registry=r)
        self.backups = Counter("judge_backups", "Backups the bot took by itself, by result", ["result"], registry=r)
        self.open_tables = Gauge("judge_open_tables", "Open tables by game and state (lobby, active, paused,"
                                 " frozen)", ["game", "state"], registry=r)
        self.outbox_pending = Gauge("judge_outbox_pending", "Outbox messages not yet delivered", registry=r)
        self.outbox_oldest = Gauge("judge_outbox_oldest_pending_seconds",
                                   "Age of the oldest undelivered outbox message (0: none)", registry=r)
        self.outbox_failed = Gauge("judge_outbox_failed", "Outbox messages that failed for good", registry=r)
        self.deadlines = Gauge("judge_deadlines_next_hour", "Running tables with a deadline due within the hour"
                               " (overdue ones included)", registry=r)
        self.backup_age = Gauge("judge_last_backup_age_seconds", "Age of the newest backup (-1: none)", registry=r)
        self.backup_bytes = Gauge("judge_last_backup_bytes", "Size of the newest backup (0: none)", registry=r)
        self.gateway = Gauge("judge_discord_gateway_connected", "1 while the Discord gateway is connected",
                             registry=r)
        self.uptime = Gauge("judge_uptime_seconds", "Seconds since the process started", registry=r)
        self.uptime.set_function(lambda: time.time() - self.started)

    def acted(self, game: str, accepted: bool, seconds: float) -> None:
        self.actions.labels(game=game, result="accepted" if accepted else "refused").inc()
        self.act_seconds.observe(seconds)

    def rate_limited(self, seconds: float) -> None:
        self.rate_limit_waits.inc()
        self.rate_limit_seconds.inc(seconds)

    def show(self, figures: Figures, *, gateway: bool | None = None) -> None:
        """Set the gauges read from the record (states no longer seen drop to nothing, not a stale number)."""
        self.open_tables.clear()
        for (game, state), count in sorted(figures.open_tables.items()):
            self.open_tables.labels(game=game, state=state).set(count)
        self.outbox_pending.set(figures.outbox_pending)
        self.outbox_oldest.set(figures.outbox_oldest_age)
        self.outbox_failed.set(figures.outbox_failed)
        self.deadlines.set(figures.deadlines_next_hour)
        self.backup_age.set(figures.last_backup_age if figures.last_backup_age is not None else -1)
        self.backup_bytes.set(figures.last_backup_bytes or 0)
        if gateway is not None:
            self.gateway.set(1 if gateway else 0)

    def text(self) -> bytes:
        return generate_latest(self.registry)


METRICS = Metrics()


class RateLimitCounter(logging.Handler):
    """Counts discord.py's rate-limit waits from its log (``discord.http``: "… responded with 429. Retrying in
    N seconds."), the one place it reports them."""

    def __init__(self, metrics: Metrics = METRICS):
        super().__init__(level=logging.WARNING)
        self.metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        try:
            found = _RATE_LIMITED.search(record.getMessage())
        except Exception:  # a record whose arguments do not format: not ours to count
            return
        if found:
            self.metrics.rate_limited(float(found.group(1)))


def count_rate_limits(metrics: Metrics = METRICS) -> RateLimitCounter:
    """Attach the counter to discord.py's HTTP logger (remove it with ``logging.getLogger("discord.http")
    .removeHandler``)."""
    handler = RateLimitCounter(metrics)
    logger = logging.getLogger("discord.http")
    logger.addHandler(handler)
    if logger.getEffectiveLevel() > logging.WARNING:
        logger.setLevel(logging.WARNING)
    return handler
