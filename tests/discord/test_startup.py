"""Start-up: intents, command sync (global or to a development server), and ``run_bot``'s answers to a
missing or refused token, which never shows up in a log."""
import asyncio
import gc
import logging
import os
import signal
import socket

import discord.http
import pytest

from bot.discord.client import EXIT_BAD_TOKEN, EXIT_FAILED, EXIT_NO_TOKEN, EXIT_OK, RedactSecret, run_bot
from bot.i18n import t
from bot.process import gc_policy
from bot.process.config import Settings
from tests.discord.fake_discord import PRIVILEGED_INTENTS
from tests.discord.harness import Harness

COMMANDS = {"game", "table", "play", "mod", "settings", "dispute", "disputes", "rulings", "tournament", "organise", "pairing", "pause",
            "resume", "profile", "leaderboard", "my-profile", "whatif", "rules", "judge"}


@pytest.fixture(autouse=True)
def collector_as_it_was():
    """run_bot sets the serving process's garbage collection (bot/process/gc_policy.py): the test process gets its
    own back afterwards."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


async def test_login_asks_for_no_privileged_intent_and_syncs_every_command_globally(harness):
    fake = harness.fake
    assert fake.identify["intents"] & PRIVILEGED_INTENTS == 0
    assert {c["name"] for c in fake.commands} == COMMANDS and fake.guild_commands == []
    game = next(c for c in fake.commands if c["name"] == "game")
    assert {o["name"] for o in game["options"]} == {"new", "start", "cancel", "list", "vacation"}
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
    await run_bot(Settings(database=tmp_path / "judge.db", token=None, locale="uk"))
    assert capsys.readouterr().err.strip() == t("discord.startup.no_token", "uk")


async def test_a_refused_token_exits_with_its_own_code_and_never_reaches_the_logs(fake, error_log, caplog, capsys,
                                                                                tmp_path):
    secret = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret.token"
    with caplog.at_level(logging.DEBUG):
        code = await run_bot(Settings(database=tmp_path / "judge.db", token=secret))
    assert code == EXIT_BAD_TOKEN
    assert [r.getMessage() for r in error_log.records] == [t("discord.startup.bad_token", "ru")]
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
    # a serving process collects garbage less often, and never walks what start-up built again
    assert gc.get_threshold() == gc_policy.THRESHOLDS and gc.get_freeze_count() > 0
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 5) == EXIT_OK


async def test_run_bot_serves_the_public_pages_when_the_config_enables_them(fake, error_log, tmp_path):
    import aiohttp

    from bot.process.config import WebSettings

    port = closed_port()
    task = asyncio.create_task(run_bot(Settings(database=tmp_path / "judge.db", token=fake.token, locale="uk",
                                                web=WebSettings(enabled=True, port=port)), guild_ready_timeout=0.05))
    await asyncio.wait_for(fake.ready.wait(), 5)
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/") as r:
            assert r.status == 200 and "Сервери" in await r.text()
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 5) == EXIT_OK
    with pytest.raises(aiohttp.ClientConnectionError):  # stopped with the bot
        async with aiohttp.ClientSession() as session:
            await session.get(f"http://127.0.0.1:{port}/")


# ---------------------------------------------------------------------------------------------- no network
SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4.network.secret"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


async def unreachable_start(tmp_path, caplog, capsys, error_log, locale="ru"):
    """run_bot against a Discord it cannot reach: the exit code, and the one line the operator got."""
    with caplog.at_level(logging.DEBUG):
        code = await asyncio.wait_for(run_bot(Settings(database=tmp_path / "judge.db", token=SECRET,
                                                       locale=locale)), 10)
    records = list(error_log.records)
    error_log.records.clear()
    captured = capsys.readouterr()
    assert SECRET not in caplog.text + captured.err + captured.out
    assert not any(r.exc_info for r in caplog.records), "a traceback was logged"
    assert "Traceback" not in caplog.text + captured.err
    assert len(records) == 1
    return code, records[0].getMessage()


async def test_a_closed_port_at_start_up_is_a_clear_message_and_exit_code_1(monkeypatch, tmp_path, caplog, capsys,
                                                                          error_log):
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    code, message = await unreachable_start(tmp_path, caplog, capsys, error_log)
    assert code == EXIT_FAILED
    assert message.startswith("Не удаётся связаться с Discord") and "ClientConnectorError" in message


async def test_a_dns_failure_at_start_up_is_a_clear_message_and_exit_code_1(monkeypatch, tmp_path, caplog, capsys,
                                                                          error_log):
    real = socket.getaddrinfo

    def no_dns(host, *args, **kwargs):
        if host == "discord.invalid":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)  # the machine's resolver, as when offline
    monkeypatch.setattr(discord.http.Route, "BASE", "https://discord.invalid/api/v10")
    code, message = await unreachable_start(tmp_path, caplog, capsys, error_log, locale="en")
    assert code == EXIT_FAILED
    assert message.startswith("Cannot reach Discord") and "ClientConnectorDNSError" in message


@pytest.mark.parametrize("failure, locale, start", [
    (asyncio.TimeoutError(), "uk", "Не вдається зв'язатися з Discord"),
    (OSError(101, "Network is unreachable"), "ru", "Не удаётся связаться с Discord"),
])
async def test_a_timeout_or_os_error_at_login_is_a_clear_message_and_exit_code_1(monkeypatch, tmp_path, caplog,
                                                                                 capsys, error_log, failure,
                                                                                 locale, start):
    async def fail(self, token):
        raise failure

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", fail)
    code, message = await unreachable_start(tmp_path, caplog, capsys, error_log, locale=locale)
    assert code == EXIT_FAILED and message.startswith(start) and type(failure).__name__ in message


async def test_a_whole_run_at_debug_level_never_logs_the_token(fake, error_log, caplog, tmp_path):
    """Login, IDENTIFY (which carries the token), command sync, a slash command, shutdown: all logged at
    DEBUG, and the token in none of it."""
    with caplog.at_level(logging.DEBUG):
        task = asyncio.create_task(run_bot(Settings(database=tmp_path / "judge.db", token=fake.token),
                                           guild_ready_timeout=0.05))
        await asyncio.wait_for(fake.ready.wait(), 5)
        user = fake.add_user("Late")
        await (await fake.slash(user, "game list")).answer()
        os.kill(os.getpid(), signal.SIGTERM)
        assert await asyncio.wait_for(task, 5) == EXIT_OK
    assert fake.identify["token"] == fake.token and len(caplog.records) > 10
    assert fake.token not in caplog.text


async def test_a_start_up_request_discord_refuses_is_a_clear_message_and_exit_code_1(fake, tmp_path, caplog,
                                                                                     capsys, error_log):
    fake.fail("PUT", r"/applications/\d+/commands$", 400, code=50035)  # the command sync refused
    with caplog.at_level(logging.DEBUG):
        code = await asyncio.wait_for(run_bot(Settings(database=tmp_path / "judge.db", token=fake.token,
                                                       locale="en"), guild_ready_timeout=0.05), 10)
    records = [r.getMessage() for r in error_log.records]
    error_log.records.clear()
    assert code == EXIT_FAILED
    assert len(records) == 1
    assert records[0].startswith("Discord refused a start-up request (HTTP 400, code 50035); the bot stopped.")
    assert "CommandSyncFailure" in records[0]
    assert not any(r.exc_info for r in caplog.records) and fake.token not in caplog.text + capsys.readouterr().err
