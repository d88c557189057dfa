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


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Settings:
    database: Path = Path("judge.db")
    locale: str = "ru"
    token: str | None = field(default=None, repr=False)
    dev_guild: int | None = None
    moderator_role: str | None = None
    log_level: str = "INFO"

    @property
    def has_token(self) -> bool:
        return bool(self.token)


def load_settings(path: str | Path | None = None, env: Mapping[str, str] = os.environ) -> Settings:
    """Read ``path`` (default ./config.yaml if it exists) and apply JUDGE_DB, JUDGE_LOCALE, DISCORD_TOKEN,
    JUDGE_DEV_GUILD from the environment."""
    raw: dict[str, Any] = {}
    file = Path(path) if path else DEFAULT_CONFIG
    if path and not file.exists():
        raise ConfigError(f"config file {file} not found")
    if file.exists():
        try:
            raw = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{file}: not valid YAML: {exc}") from None
        if not isinstance(raw, dict):
            raise ConfigError(f"{file}: expected a mapping at the top level")
    discord_cfg = raw.get("discord") or {}
    unknown = set(raw) - {"database", "locale", "discord", "log_level", "moderator_role"}
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
    return Settings(
        database=Path(env.get("JUDGE_DB") or raw.get("database") or "judge.db"),
        locale=locale,
        token=(env.get("DISCORD_TOKEN") or discord_cfg.get("token") or None),
        dev_guild=dev_guild,
        moderator_role=raw.get("moderator_role"),
        log_level=str(raw.get("log_level") or "INFO").upper(),
    )
