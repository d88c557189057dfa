"""The Discord bot: a ``commands.Bot`` that receives its settings, the record and the game registry.

``setup_hook`` loads the cogs, registers the restart-proof components, syncs the slash commands (to the
development server named in the settings, else globally) and starts three kinds of background work:

- the delivery worker, which drains the outbox into threads and DMs (bot/discord/delivery.py);
- the deadline clock, which calls ``Referee.tick`` every second;
- bot players: after every accepted action the table's bot seats get to move, in the background, never
  inside the 3 seconds an interaction has for its first response.

Interactions Discord would never send (crafted ones) are refused with a short private answer, never left
unanswered nor logged as errors: a click no component handles (``on_interaction``), options of a shape or a
number Discord never sends (``JudgeTree``), a command the bot does not have (``on_app_command_error``).

``run_bot`` is what ``python -m bot run`` calls.  Only non-privileged intents are requested (slash commands
and components need no message content), and the token never reaches a log line.
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from typing import Any, Iterable, Mapping

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.components import DYNAMIC_ITEMS, handled, lobby_view
from bot.discord.delivery import DiscordDeliverer
from bot.discord.grips import Grips
from bot.discord.interactions import say
from bot.discord.locale import JudgeTranslator, reply_locale
from bot.discord.render import lobby_text
from bot.discord.threads import finished_tags, starter
from bot.discord.tournaments import TournamentDesk
from bot.engine import Game, all_games
from bot.i18n import t
from bot.process import gc_policy
from bot.process.config import Settings
from bot.process.metrics import count_rate_limits
from bot.referee.delivery import DeliveryWorker
from bot.referee.service import Referee
from bot.referee.steps import SYSTEM
from bot.storage.backup import BackupSchedule
from bot.storage.db import Busy, DatabaseError, explain, set_busy_timeout
from bot.web.monitor import Monitor, serve as serve_monitor
from bot.storage.store import Store, TableRow

log = logging.getLogger("judge.discord")

EXTENSIONS = ("cogs.lobby", "cogs.play", "cogs.moderation", "cogs.disputes", "cogs.tournament", "cogs.organise",
              "cogs.attendance", "cogs.ratings", "cogs.whatif", "cogs.rules", "cogs.replay", "cogs.status")
EXIT_OK, EXIT_NO_TOKEN, EXIT_BAD_TOKEN, EXIT_FAILED = 0, 2, 3, 1
#: the tournaments are looked at every this many clock ticks (each look reads every open table of every running
#: tournament: once in ten seconds is plenty for rounds that last days)
TOURNAMENT_TICKS = 10
#: seconds a stopping bot gives the delivery worker to finish the message in hand (a systemd stop waits 30)
STOP_GRACE = 15.0
#: seconds archiving a finished table's thread may take before the bot moves on without it
THREAD_EDIT_TIMEOUT = 10.0
#: Discord's range for integer and number options (docs: "Any integer between -2^53 and 2^53")
DISCORD_INT = 2 ** 53
#: what Discord sends as the value of each option type (3 string ... 11 attachment); ids may be strings
_VALUE_TYPES: dict[int, tuple[type, ...]] = {3: (str,), 4: (int,), 5: (bool,), 6: (str, int), 7: (str, int),
                                             8: (str, int), 9: (str, int), 10: (int, float), 11: (str, int)}


def _malformed(options: Any, *, depth: int = 0) -> str | None:
    """What is wrong with a command's options as Discord would never send them, or None: ``"range"`` for a
    number beyond Discord's range, ``"shape"`` for anything else (unknown types, values of the wrong type,
    more than two levels of subcommands)."""
    if not isinstance(options, list) or depth > 2:
        return "shape"
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("name"), str):
            return "shape"
        kind, value = option.get("type"), option.get("value")
        if kind in (1, 2):
            wrong = _malformed(option.get("options") or [], depth=depth + 1)
            if wrong:
                return wrong
        elif option.get("focused"):  # what is being typed, sent as text whatever the option's type
            if not isinstance(value, str):
                return "shape"
        elif kind == 4 and isinstance(value, float) and abs(value) > DISCORD_INT:
            return "range"  # an integer beyond 64 bits: discord.py parses with orjson, which reads it as a float
        elif kind not in _VALUE_TYPES or isinstance(value, bool) != (kind == 5) \
                or not isinstance(value, _VALUE_TYPES[kind]):
            return "shape"
        elif kind in (4, 10) and isinstance(value, (int, float)) and abs(value) > DISCORD_INT:
            return "range"
    return None


def _focused(options: list[dict[str, Any]]) -> int:
    """How many options are marked as being typed (``_malformed`` checked the shape)."""
    return sum(_focused(o.get("options") or []) if o.get("type") in (1, 2) else bool(o.get("focused"))
               for o in options)


class JudgeTree(app_commands.CommandTree["JudgeBot"]):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Refuse a command Discord could not have sent (crafted): options of the wrong shape, or a number
        SQLite cannot hold, never reach a command; an autocomplete for one gets no suggestions."""
        # one of discord.py's TypedDicts, read as plain JSON: a crafted one may be anything
        data: dict[str, Any] = dict(interaction.data) if isinstance(interaction.data, dict) else {}
        wrong = "shape" if not isinstance(data.get("name"), str) else _malformed(data.get("options") or [])
        if wrong is None and interaction.type is discord.InteractionType.autocomplete \
                and _focused(data.get("options") or []) != 1:
            wrong = "shape"  # an autocomplete is for exactly one option being typed
        if wrong is None and not self._as_declared(data):
            wrong = "shape"
        if wrong is None:
            return True
        log.info("refused a malformed command interaction (%s) from user %s", wrong, interaction.user.id)
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
                key = "discord.reject.bad_option" if wrong == "range" else "discord.reject.bad_value"
                await say(interaction, t(key, await self.client.locale_for(interaction)))
        except discord.HTTPException:
            pass
        return False

    def _as_declared(self, data: dict[str, Any]) -> bool:
        """Whether every option of the command is one it declares, of the declared type (discord.py hands a
        value of another type to the callback as it is).  An unknown command or subcommand passes here:
        discord.py refuses it itself (CommandNotFound, see ``on_app_command_error``)."""
        node: Any = self.get_command(data["name"])
        options = data.get("options") or []
        while isinstance(node, app_commands.Group):
            if len(options) != 1 or options[0].get("type") not in (1, 2):
                return True
            node, options = node.get_command(options[0]["name"]), options[0].get("options") or []
        if not isinstance(node, app_commands.Command):
            return True
        declared = {p.display_name: p.type.value for p in node.parameters}
        return all(declared.get(o["name"]) == o.get("type") for o in options)


class JudgeBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store, *, referee: Referee | None = None,
                 games: Mapping[str, Game] | None = None, extensions: Iterable[str] = EXTENSIONS,
                 tick_seconds: float = 1.0, delivery_idle: float = 5.0, delivery_settle: float = 1.0,
                 **options: Any):
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; nothing privileged
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), tree_cls=JudgeTree, **options)
        self.settings = settings
        self.store = store
        # the per-user and per-server limits on open tables come from the settings (config ``limits``)
        self.referee = referee or Referee(store, limits=settings.table_limits)
        self.games: Mapping[str, Game] = games if games is not None else all_games()
        self.extension_names = tuple(extensions)
        self.tick_seconds = tick_seconds
        self.grips = Grips()  # the players' latest DM clicks: their tokens redraw control messages
        self.deliverer = DiscordDeliverer(self)
        self.delivery = DeliveryWorker(store, self.deliverer, self.referee.changed, idle=delivery_idle,
                                       settle=delivery_settle)
        self.tournaments = TournamentDesk(self)
        self._clock: asyncio.Task[None] | None = None
        self._bot_runs: dict[int, asyncio.Task[None]] = {}
        self._bots_again: set[int] = set()
        self._guild_locales: dict[str, str | None] = {}

    # ------------------------------------------------------------------ life cycle
    async def setup_hook(self) -> None:
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(JudgeTranslator())
        for name in self.extension_names:
            try:
                await self.load_extension(name)
            except Exception:
                log.exception("extension %s failed to load", name)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d slash commands (%s)", len(synced),
                 f"server {self.settings.dev_guild}" if self.settings.dev_guild else "globally")
        await self._close_threadless_lobbies()
        self.delivery.start()
        self.referee.changed.set()  # deliver whatever a previous run left in the outbox
        self._clock = asyncio.create_task(self._run_clock(), name="judge-clock")
        for table_id in await self.store.active_with_bots():
            self.schedule_bots(table_id)

    async def _close_threadless_lobbies(self) -> None:
        """A Discord lobby without a thread was being opened when a previous run stopped (``/game new``
        creates the table, then its lobby message and thread): nobody was told it exists and nothing can
        find it, yet it would count against its creator's and its server's open tables for good.  Cancel
        it.  Safe only here, before any interaction is handled: one bot process per database.  A tournament's
        table is left alone: the director opens its thread and starts it (bot/discord/tournaments.py)."""
        for table in await self.store.find_tables(status=["lobby"], limit=100_000):
            if table.origin == "discord" and table.thread_id is None and not table.creator.startswith("tournament:"):
                await self.referee.cancel(table.id, SYSTEM, moderator=True, reason="no thread")
                log.warning("cancelled table %s: a previous run stopped before its thread was opened", table.id)

    def gateway_connected(self) -> bool:
        """Whether Discord's gateway is connected now (for /healthz and /metrics)."""
        ws = self.ws
        return self.is_ready() and not self.is_closed() and ws is not None and ws.open

    async def close(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            await asyncio.gather(self._clock, return_exceptions=True)
        runs = list(self._bot_runs.values())
        for task in runs:
            task.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        # the message in hand is finished before the connection closes (SIGTERM: no half-sent message)
        await self.delivery.stop(grace=STOP_GRACE)
        await super().close()

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s) to %d servers", self.user, self.user.id if self.user else "?",
                 len(self.guilds))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click that no component will handle (a custom_id of no known form, numbers out of range, or not
        on the message it claims to come from) gets a short private refusal instead of Discord's "This
        interaction failed"."""
        # every component of this bot is one of DYNAMIC_ITEMS: what they do not handle, nothing does
        if interaction.type is not discord.InteractionType.component or handled(interaction):
            return
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await say(interaction, t("discord.reject.unknown_component", await self.locale_for(interaction)))
        except discord.HTTPException:
            pass

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """A failed command is a bug: log it for the operator and give the user a short, private answer."""
        if isinstance(error, app_commands.CheckFailure):
            text = t("discord.forbidden", await self.locale_for(interaction))
        elif isinstance(error, app_commands.CommandNotFound):
            # a command this bot does not have (crafted, or synced by an older version): not a bug here
            log.info("unknown command from user %s: %s", interaction.user.id, error)
            text = t("discord.reject.unknown_command", await self.locale_for(interaction))
        elif isinstance(error, (app_commands.CommandSignatureMismatch, app_commands.TransformerError)):
            # options that do not fit the command (a required one missing, a value that cannot be read)
            log.info("a command from user %s did not fit its signature: %s", interaction.user.id, error)
            text = t("discord.reject.bad_value", await self.locale_for(interaction))
        elif isinstance(original := getattr(error, "original", None), Busy):
            # another process held the file past the busy timeout: the write recorded nothing, said in one line
            log.warning("a command waited for the database past the busy timeout: %s", original)
            text = original.message(await self.locale_for(interaction))
        elif isinstance(original, DatabaseError):
            # the machine, not the bot: a full disk, a file another process holds too long; the failed
            # transaction wrote nothing, so the player can simply try again
            log.error("the database refused a command: %s", original)
            locale = await self.locale_for(interaction)
            text = t("discord.storage_unavailable", locale, reason=explain(original, locale))
        else:
            log.error("command %s failed", interaction.command.qualified_name if interaction.command else "?",
                      exc_info=error)
            text = t("discord.internal", await self.locale_for(interaction))
        try:
            await say(interaction, text)
        except discord.HTTPException:
            pass

    # ------------------------------------------------------------------ background work
    async def _run_clock(self) -> None:
        """Deadlines: apply the timeouts that are due, then let bot seats answer; then the tournaments: results
        from finished tables, the next rounds, round deadlines."""
        ticks = 0
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                for accepted in await self.referee.tick():
                    self.schedule_bots(accepted.table_id)
            except Busy:  # another process held the file past the busy timeout: the next tick looks again
                log.warning("deadline clock waited for the database past the busy timeout; next tick")
            except Exception:
                log.exception("deadline clock failed")
            ticks += 1
            if ticks % TOURNAMENT_TICKS:
                continue
            try:
                await self.tournaments.tick()
            except Busy:
                log.warning("tournament clock waited for the database past the busy timeout; next tick")
            except Exception:
                log.exception("tournament clock failed")

    def schedule_bots(self, table_id: int) -> None:
        """Let the table's bot seats move, in the background; one run per table at a time (a request
        during a run makes it go round once more)."""
        running = self._bot_runs.get(table_id)
        if running is not None and not running.done():
            self._bots_again.add(table_id)
            return
        self._bot_runs[table_id] = asyncio.create_task(self._drive_bots(table_id), name=f"judge-bots-{table_id}")

    async def _drive_bots(self, table_id: int) -> None:
        try:
            while True:
                self._bots_again.discard(table_id)
                await self.referee.drive_bots(table_id)
                if table_id not in self._bots_again:
                    break
        except Busy:  # the table's next step (or the clock) drives its bots again
            log.warning("bot players of table %s waited for the database past the busy timeout", table_id)
        except Exception:
            log.exception("bot players failed on table %s", table_id)
        finally:
            self._bot_runs.pop(table_id, None)

    async def wait_for_bots(self) -> None:
        """Until no bot run is in progress (tests wait on it before looking at the outbox)."""
        while self._bot_runs:
            await asyncio.gather(*list(self._bot_runs.values()), return_exceptions=True)

    # ------------------------------------------------------------------ languages
    async def guild_locale(self, guild_id: int | str | None) -> str | None:
        """The server's language override (``/settings language``), cached."""
        if guild_id is None:
            return None
        key = str(guild_id)
        if key not in self._guild_locales:
            self._guild_locales[key] = (await self.store.guild(key))["locale"]
        return self._guild_locales[key]

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        await self.store.set_guild(str(guild_id), locale=locale)
        self._guild_locales[str(guild_id)] = locale

    async def locale_for(self, interaction: discord.Interaction) -> str:
        return reply_locale(interaction.locale, await self.guild_locale(interaction.guild_id), self.settings.locale)

    async def table_locale(self, table: TableRow) -> str:
        """The language of a table's public messages: the server's override, else the table's own."""
        return await self.guild_locale(table.guild_id) or table.locale or self.settings.locale

    # ------------------------------------------------------------------ the lobby message
    async def refresh_lobby(self, table_id: int, interaction: discord.Interaction | None = None) -> None:
        """Redraw a table's lobby message (players, options, state); its buttons go once the table starts.
        The lobby message is the one the table's thread was started from, so it has the thread's id."""
        table = await self.store.get_table(table_id)
        if table is None or table.channel_id is None or table.thread_id is None:
            return
        seats = await self.store.seats(table_id)
        locale = await self.table_locale(table)
        content = lobby_text(self.games[table.game], table, seats, locale)
        view = lobby_view(table.id, locale) if table.status == "lobby" else None
        try:
            if interaction is not None:
                await interaction.edit_original_response(content=content, view=view)
            else:
                await starter(self, table.channel_id, table.thread_id).edit(content=content, view=view)
        except discord.HTTPException as exc:  # the message was deleted: the table itself is unaffected
            log.warning("cannot update the lobby message of table %s: %s", table_id, exc.status)

    async def archive_thread(self, table_id: int) -> None:
        """Archive the thread of a finished or cancelled table: it leaves the channel's list of active
        threads and stays readable; a later post (a moderator's rollback or ruling) reopens it.  It is not
        locked: locking needs Manage Threads, which the invite does not ask for (docs/discord.md), while the
        bot may archive a thread it started.  Never raises: the table is over whatever Discord says."""
        table = await self.store.get_table(table_id)
        if table is None or table.thread_id is None or table.status not in ("finished", "cancelled"):
            return

        thread_id = table.thread_id  # narrowed to a str here, where the closure below cannot see it

        async def archive() -> None:
            thread = await self.fetch_channel(int(thread_id))  # fresh: a post may just have reopened it
            if isinstance(thread, discord.Thread) and not thread.archived:
                tags = finished_tags(thread, self.games[table.game])  # a forum post says so by its tags
                if tags is not None:
                    await thread.edit(archived=True, applied_tags=tags)
                else:
                    await thread.edit(archived=True)

        try:
            await asyncio.wait_for(archive(), THREAD_EDIT_TIMEOUT)
        except Exception as exc:  # deleted thread, missing access, Discord down
            log.warning("could not archive the thread of table %s: %s %s", table_id, type(exc).__name__,
                        getattr(exc, "status", ""))


# ---------------------------------------------------------------------------------------------- running
class RedactSecret(logging.Filter):
    """Replaces a secret (the token) in every log record that passes a handler."""

    def __init__(self, secret: str):
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.secret and self.secret in message:
            record.msg, record.args = message.replace(self.secret, "[token]"), None
        return True


def _guard_logs(secret: str) -> RedactSecret:
    redactor = RedactSecret(secret)
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in root.handlers:
        handler.addFilter(redactor)
    return redactor


#: what reaching Discord at start-up can fail with: no network, DNS, a refused or timed-out connection,
#: a gateway that cannot be found, Discord's own outage (5xx after discord.py's retries)
UNREACHABLE = (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.GatewayNotFound,
               discord.DiscordServerError)


def _reason(exc: BaseException, secret: str) -> str:
    """A one-line cause for the operator: the error's class and text, without the token."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if secret:
        text = text.replace(secret, "[token]")
    return f"{type(exc).__name__}: {text}"[:300]


async def run_bot(settings: Settings, **bot_options: Any) -> int:
    """Run until stopped (Ctrl-C or SIGTERM).  Exit codes: 0 stopped normally, 2 no token configured,
    3 Discord refused the token, 1 other failure (Discord unreachable or refusing at start-up, privileged
    intents)."""
    locale, token = settings.locale, settings.token
    if not settings.has_token or token is None:  # has_token: a token that is not empty
        sys.stderr.write(t("discord.startup.no_token", locale) + "\n")
        return EXIT_NO_TOKEN
    redactor = _guard_logs(token)
    set_busy_timeout(settings.busy_timeout)
    from bot.referee.drill import BotRunning, hold_run_lock
    try:  # one bot per database; held until the process ends, it also tells `restore` the bot is running
        run_lock = hold_run_lock(settings.database)
    except BotRunning:
        log.error(t("ops.run.running", locale, db=str(settings.database)))
        return EXIT_FAILED
    except OSError as exc:  # the database's folder is missing or not writable: opening it says so below
        log.debug("no run lock beside %s: %s", settings.database, exc)
        run_lock = None
    try:
        return await _run_with_lock(settings, token, bot_options, redactor)
    finally:
        if run_lock is not None:
            os.close(run_lock)


async def _run_with_lock(settings: Settings, token: str, bot_options: dict[str, Any], redactor: RedactSecret
                         ) -> int:
    locale = settings.locale
    from bot.referee.upgrade import open_store  # opening the database brings its tables to this release's rules
    store = await open_store(settings.database)
    bot = JudgeBot(settings, store, **bot_options)
    monitor = Monitor(store, backup_folder=settings.backups.folder, gateway=bot.gateway_connected,
                      delivery=bot.delivery.stuck) if settings.monitoring.enabled else None
    shared = monitor is not None and settings.web.enabled and \
        (settings.monitoring.host, settings.monitoring.port) == (settings.web.host, settings.web.port)
    pages = watch = schedule = None
    rate_limits = count_rate_limits()
    try:
        if settings.web.enabled:  # the public pages beside the bot, on the same loop and database (docs/web.md)
            from bot.web.app import start as serve_pages
            where = (settings.web.host, settings.web.port)
            pages = await serve_pages(store, *where, locale=locale, monitor=monitor if shared else None,
                                    base_url=settings.web.base_url, replay_cache=settings.web.replay_cache)
        if monitor is not None and not shared:
            where = (settings.monitoring.host, settings.monitoring.port)
            watch = await serve_monitor(monitor, *where)
    except OSError as exc:
        log.error("cannot listen on %s:%s: %s", *where, exc.strerror or exc)
        for runner in (pages, watch):
            if runner is not None:
                await runner.cleanup()
        logging.getLogger("discord.http").removeHandler(rate_limits)
        await store.close()
        return EXIT_FAILED
    gc_policy.for_serving()
    if settings.backups.every_hours:
        schedule = BackupSchedule(settings.database, settings.backups.folder, settings.backups.every_hours * 3600,
                                  keep_daily=settings.backups.keep_daily, keep_weekly=settings.backups.keep_weekly)
        schedule.start()
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    except (NotImplementedError, RuntimeError):  # not on the main thread, or not supported here
        pass
    try:
        async with bot:
            await bot.start(token)
        return EXIT_OK
    except discord.LoginFailure:
        log.error(t("discord.startup.bad_token", locale))
        return EXIT_BAD_TOKEN
    except discord.PrivilegedIntentsRequired:
        log.error(t("discord.startup.intents", locale))
        return EXIT_FAILED
    except UNREACHABLE as exc:
        # once connected, discord.py reconnects by itself; this is the first contact failing, where a
        # traceback would only hide the cause
        log.error(t("discord.startup.unreachable", locale, reason=_reason(exc, token)))
        return EXIT_FAILED
    except discord.HTTPException as exc:  # e.g. the command sync refused: a clear line, not a traceback
        log.error(t("discord.startup.refused", locale, status=exc.status, code=exc.code,
                    reason=_reason(exc, token)))
        return EXIT_FAILED
    finally:
        try:
            loop.remove_signal_handler(signal.SIGTERM)
        except (NotImplementedError, RuntimeError):
            pass
        if schedule is not None:
            await schedule.stop()
        for runner in (pages, watch):
            if runner is not None:
                await runner.cleanup()
        logging.getLogger("discord.http").removeHandler(rate_limits)
        await store.close()
        for handler in logging.getLogger().handlers:
            handler.removeFilter(redactor)
