"""Settings: config.yaml (untracked; see config.example.yaml) overlaid by environment variables.

The Discord token comes from DISCORD_TOKEN (preferred) or the untracked config file, and never appears in
a repr, a log line or an error message."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import yaml

from bot.i18n import LOCALES

DEFAULT_CONFIG = Path("config.yaml")

#: This release of the project.  Every table records the release it was started under (and its game's rules
#: version, ``Game.rules_version``): raise it when a release is cut (docs/operations.md, "Upgrading a running
#: bot").  A constant, not ``git describe``, so that a copy installed from a tarball without ``.git`` records
#: the same name.
RELEASE = "2026.11.27"


def release() -> str:
    """The release this code is (what a table started now records)."""
    return RELEASE


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class TableLimits:
    """How many open (lobby or active) tables one person may have created, and one server may hold;
    None = no limit.  Checked by the referee inside the transaction that creates a table."""

    per_user: int | None = None
    per_server: int | None = None


@dataclass(frozen=True)
class WebSettings:
    """The public pages (bot/web/, docs/web.md): ``python -m bot web`` always serves them; ``python -m bot run``
    serves them beside the Discord bot when ``enabled``.  ``base_url``: where the public reaches them (the
    Discord posts link there); None = no links.  ``replay_cache``: the replay step views kept in memory
    (bot/web/replay_cache.py)."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8080
    base_url: str | None = None
    replay_cache: int = 1024


@dataclass(frozen=True)
class BackupSettings:
    """The backups ``python -m bot run`` takes by itself (bot/storage/backup.py, docs/operations.md "Backups of
    a season"): one every ``every_hours`` into ``folder`` (None: ``<database>-backups/`` beside it; may be
    another disk or a mounted remote), keeping the newest of each of the last ``keep_daily`` days and of the
    last ``keep_weekly`` weeks.  ``every_hours`` None: no scheduled backups."""

    folder: Path | None = None
    every_hours: float | None = 6.0
    keep_daily: int = 7
    keep_weekly: int = 4


@dataclass(frozen=True)
class MonitorSettings:
    """``/healthz`` and ``/metrics`` (bot/web/monitor.py): served when ``enabled``, on a listener of their own at
    ``host:port`` (localhost by default, whatever the public pages listen on), or on the public pages' listener
    when both name the same address and port."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 9187


#: how long a write waits for another process's transaction on the same file before it answers "busy, nothing
#: recorded" (config ``database.busy_timeout``, JUDGE_BUSY_TIMEOUT, the terminal's --busy-timeout), in seconds
BUSY_TIMEOUT = 5.0
BUSY_TIMEOUT_MAX = 600.0


@dataclass(frozen=True)
class Settings:
    database: Path = Path("judge.db")
    busy_timeout: float = BUSY_TIMEOUT
    locale: str = "ru"
    token: str | None = field(default=None, repr=False)
    dev_guild: int | None = None
    moderator_role: str | None = None
    log_level: str = "INFO"
    table_limits: TableLimits = TableLimits(per_user=5, per_server=50)
    web: WebSettings = WebSettings()
    backups: BackupSettings = BackupSettings()
    monitoring: MonitorSettings = MonitorSettings()

    @property
    def has_token(self) -> bool:
        return bool(self.token)


def load_settings(path: str | Path | None = None, env: Mapping[str, str] = os.environ) -> Settings:
    """Read ``path`` (default ./config.yaml if it exists) and apply JUDGE_DB, JUDGE_BUSY_TIMEOUT, JUDGE_LOCALE,
    DISCORD_TOKEN, JUDGE_DEV_GUILD from the environment."""
    raw: dict[str, Any] = {}
    file = Path(path) if path else DEFAULT_CONFIG
    if path and not file.exists():
        raise ConfigError(f"config file {file} not found")
    if file.exists():
        try:
            if file.stat().st_size > 1_000_000:
                raise ConfigError(f"{file}: larger than 1 MB, not a settings file")
            raw = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{file}: not valid YAML: {str(exc).splitlines()[0]}") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{file}: not a text file (not UTF-8)") from None
        except RecursionError:
            raise ConfigError(f"{file}: nested too deeply") from None
        except OSError as exc:
            raise ConfigError(f"{file}: cannot be read ({exc.strerror or exc})") from None
        if not isinstance(raw, dict):
            raise ConfigError(f"{file}: expected a mapping at the top level")
    discord_cfg = raw.get("discord") or {}
    if not isinstance(discord_cfg, dict):
        raise ConfigError(f"{file}: 'discord' must be a mapping")
    unknown = set(raw) - {"database", "locale", "discord", "log_level", "moderator_role", "limits", "web",
                        "backups", "monitoring"}
    if unknown:
        raise ConfigError(f"{file}: unknown settings {sorted(unknown)}")
    locale = env.get("JUDGE_LOCALE") or raw.get("locale") or "ru"
    if locale not in LOCALES:
        raise ConfigError(f"locale must be one of {', '.join(LOCALES)}, not {locale!r}")
    guild = env.get("JUDGE_DEV_GUILD") or discord_cfg.get("dev_guild")
    try:
        dev_guild = int(guild) if guild not in (None, "") else None
    except (TypeError, ValueError):
        raise ConfigError("discord.dev_guild must be a server id (a number)") from None
    database_cfg = raw.get("database")
    busy_timeout: Any = BUSY_TIMEOUT
    if isinstance(database_cfg, dict):  # database: {file: judge.db, busy_timeout: 5}
        if set(database_cfg) - {"file", "busy_timeout"}:
            raise ConfigError("database takes a file name, or file and busy_timeout")
        busy_timeout = database_cfg.get("busy_timeout", BUSY_TIMEOUT)
        database_cfg = database_cfg.get("file")
    database = env.get("JUDGE_DB") or database_cfg or "judge.db"
    if not isinstance(database, str) or not database.strip():
        raise ConfigError("database must be a file name")
    busy_timeout = busy_timeout_of(env["JUDGE_BUSY_TIMEOUT"], "JUDGE_BUSY_TIMEOUT") if env.get("JUDGE_BUSY_TIMEOUT") \
        else busy_timeout_of(busy_timeout, "database.busy_timeout")
    token = env.get("DISCORD_TOKEN") or discord_cfg.get("token") or None
    if token is not None and not isinstance(token, str):
        # a token is text; YAML reads an unquoted number as a number (never a real token): said here, once
        raise ConfigError("discord.token must be the bot's token as text (in quotes), not a number or a list")
    return Settings(
        database=Path(database),
        busy_timeout=busy_timeout,
        locale=locale,
        token=token,
        dev_guild=dev_guild,
        moderator_role=_role(raw.get("moderator_role")),
        log_level=str(raw.get("log_level") or "INFO").upper(),
        table_limits=_limits(raw.get("limits")),
        web=_web(raw.get("web")),
        backups=_backups(raw.get("backups")),
        monitoring=_monitoring(raw.get("monitoring")),
    )


def busy_timeout_of(raw: Any, name: str) -> float:
    """A busy timeout in seconds (a number, or its text from the environment or the command line), from 0 to
    ``BUSY_TIMEOUT_MAX``; anything else is a ConfigError naming ``name``."""
    try:
        value = float(raw) if not isinstance(raw, bool) else None
    except (TypeError, ValueError):
        value = None
    if value is None or not 0 <= value <= BUSY_TIMEOUT_MAX:  # also NaN
        raise ConfigError(f"{name} must be a number of seconds from 0 to {BUSY_TIMEOUT_MAX:g}")
    return value


def _role(raw: Any) -> str | None:
    """``moderator_role``: one role, by id (a number, as YAML reads an unquoted id) or by name."""
    if raw is None or raw == "":
        return None
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        raise ConfigError("moderator_role takes one role, its id or its name (a server's own roles: /settings"
                          " moderator-role), not a list")
    return str(raw).strip() or None


def _web(raw: Any) -> WebSettings:
    """``web: {enabled: false, host: 127.0.0.1, port: 8080, base_url: null, replay_cache: 1024}``."""
    if raw is None:
        return WebSettings()
    if not isinstance(raw, dict) or set(raw) - {"enabled", "host", "port", "base_url", "replay_cache"}:
        raise ConfigError("web takes enabled, host, port, base_url and replay_cache")
    replay_cache = raw.get("replay_cache", WebSettings.replay_cache)
    if isinstance(replay_cache, bool) or not isinstance(replay_cache, int) or not 1 <= replay_cache <= 1_000_000:
        raise ConfigError("web.replay_cache must be a number of step views (1-1000000)")
    enabled, host = raw.get("enabled", False), raw.get("host", "127.0.0.1")
    port, base_url = raw.get("port", 8080), raw.get("base_url")
    if not isinstance(enabled, bool):
        raise ConfigError("web.enabled must be true or false")
    if not isinstance(host, str) or not host.strip():
        raise ConfigError("web.host must be a host name or address")
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ConfigError("web.port must be a port number (1-65535)")
    if base_url is not None and (not isinstance(base_url, str)
                                 or not base_url.startswith(("http://", "https://")) or len(base_url) > 200):
        raise ConfigError("web.base_url must be an http:// or https:// address, or null")
    return WebSettings(enabled=enabled, host=host.strip(), port=port,
                       base_url=base_url.rstrip("/") if base_url else None, replay_cache=replay_cache)


def _backups(raw: Any) -> BackupSettings:
    """``backups: {folder: null, every_hours: 6, keep_daily: 7, keep_weekly: 4}``; every_hours null: none taken."""
    if raw is None:
        return BackupSettings()
    if not isinstance(raw, dict) or set(raw) - {"folder", "every_hours", "keep_daily", "keep_weekly"}:
        raise ConfigError("backups takes folder, every_hours, keep_daily and keep_weekly")
    default = BackupSettings()
    folder, every = raw.get("folder"), raw.get("every_hours", default.every_hours)
    if folder is not None and (not isinstance(folder, str) or not folder.strip()):
        raise ConfigError("backups.folder must be a folder's path, or null (beside the database)")
    if every is not None and (isinstance(every, bool) or not isinstance(every, (int, float))
                              or not 0.05 <= every <= 24 * 7):
        raise ConfigError("backups.every_hours must be a number of hours from 0.05 to 168, or null (none)")
    keeps = {}
    for key in ("keep_daily", "keep_weekly"):
        value = raw.get(key, getattr(default, key))
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
            raise ConfigError(f"backups.{key} must be a whole number from 0 to 1000")
        keeps[key] = value
    if every is not None and not keeps["keep_daily"] and not keeps["keep_weekly"]:
        raise ConfigError("backups must keep some: keep_daily or keep_weekly above 0")
    return BackupSettings(folder=Path(folder) if folder else None,
                          every_hours=float(every) if every is not None else None, **keeps)


def _monitoring(raw: Any) -> MonitorSettings:
    """``monitoring: {enabled: false, host: 127.0.0.1, port: 9187}``."""
    if raw is None:
        return MonitorSettings()
    if not isinstance(raw, dict) or set(raw) - {"enabled", "host", "port"}:
        raise ConfigError("monitoring takes enabled, host and port")
    enabled, host, port = raw.get("enabled", False), raw.get("host", "127.0.0.1"), raw.get("port", 9187)
    if not isinstance(enabled, bool):
        raise ConfigError("monitoring.enabled must be true or false")
    if not isinstance(host, str) or not host.strip():
        raise ConfigError("monitoring.host must be a host name or address")
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ConfigError("monitoring.port must be a port number (1-65535)")
    return MonitorSettings(enabled=enabled, host=host.strip(), port=port)


def _limits(raw: Any) -> TableLimits:
    """``limits: {tables_per_user: 5, tables_per_server: 50}``; null lifts a limit."""
    default = TableLimits(per_user=5, per_server=50)
    if raw is None:
        return default
    if not isinstance(raw, dict) or set(raw) - {"tables_per_user", "tables_per_server"}:
        raise ConfigError("limits takes tables_per_user and tables_per_server")
    values = {}
    for key, field_name in (("tables_per_user", "per_user"), ("tables_per_server", "per_server")):
        value = raw.get(key, getattr(default, field_name))
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000):
            raise ConfigError(f"limits.{key} must be a whole number from 1 to 10000, or null")
        values[field_name] = value
    return TableLimits(**values)
