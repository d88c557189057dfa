"""Start-up: intents, command sync (global or to a development server), and ``run_bot``'s answers to a
missing or refused token, which never shows up in a log."""
import asyncio
import logging
import os
import signal

from bot.client import EXIT_BAD_TOKEN, EXIT_NO_TOKEN, EXIT_OK, RedactSecret, run_bot
from bot.config import Settings
from tests.discord.fake_discord import PRIVILEGED_INTENTS
from tests.discord.harness import Harness

COMMANDS = {"game", "table", "play", "mod", "settings"}


async def test_login_asks_for_no_privileged_intent_and_syncs_every_command_globally(harness):
    fake = harness.fake
    assert fake.identify["intents"] & PRIVILEGED_INTENTS == 0
    assert {c["name"] for c in fake.commands} == COMMANDS and fake.guild_commands == []
    game = next(c for c in fake.commands if c["name"] == "game")
    assert {o["name"] for o in game["options"]} == {"new", "start", "cancel", "list"}
    assert game.get("contexts") == [0] or game.get("dm_permission") is False  # server only


async def test_commands_sync_to_the_development_server_when_one_is_configured(fake, error_log, tmp_path):
    h = Harness(fake, tmp_path / "judge.db")
    h.settings = Settings(database=h.db, token=fake.token, dev_guild=int(fake.guild_id))
    await h.start_bot()
    try:
        assert {c["name"] for c in fake.guild_commands} == COMMANDS and fake.commands == []
    finally:
        await h.stop_bot()


async def test_without_a_token_the_bot_says_how_to_give_one(capsys, tmp_path):
    code = await run_bot(Settings(database=tmp_path / "judge.db", token=None))
    assert code == EXIT_NO_TOKEN
    assert "DISCORD_TOKEN" in capsys.readouterr().err


async def test_a_refused_token_exits_with_its_own_code_and_never_reaches_the_logs(fake, error_log, caplog, capsys,
                                                                                tmp_path):
    secret = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret.token"
    with caplog.at_level(logging.DEBUG):
        code = await run_bot(Settings(database=tmp_path / "judge.db", token=secret))
    assert code == EXIT_BAD_TOKEN
    assert any("refused the token" in r.getMessage() for r in error_log.records)
    error_log.records.clear()
    captured = capsys.readouterr()
    assert secret not in caplog.text and secret not in captured.err and secret not in captured.out


async def test_the_token_is_redacted_from_any_log_line():
    secret = "abc.def.ghi"
    record = logging.LogRecord("discord.http", logging.DEBUG, __file__, 1, "sent %s to %s", (secret, "x"), None)
    RedactSecret(secret).filter(record)
    assert record.getMessage() == "sent [token] to x"


async def test_run_bot_serves_until_sigterm(fake, error_log, tmp_path):
    task = asyncio.create_task(run_bot(Settings(database=tmp_path / "judge.db", token=fake.token),
                                       guild_ready_timeout=0.05))
    await asyncio.wait_for(fake.ready.wait(), 5)
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 5) == EXIT_OK
