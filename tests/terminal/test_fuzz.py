"""Seeded fuzzing of the two doors into the record: the command line and the referee service.

Random argument lists (from a grammar of the real commands with hostile values) go to ``python -m bot``'s
``main``; random actions (mutations of legal ones, wrong seats, users and versions) go to the referee.
Whatever comes in: no traceback, no hang, an exit code of 0, 1 or 2, no engine crash (an INTERNAL refusal),
and afterwards every table in the database still verifies from its record.  (Scenario files have their own
fuzzer in tests/terminal/test_malformed_scenarios.py.)"""
from __future__ import annotations

import asyncio
import os
import random
import time

import pytest

from bot.engine import Code, Rejection, all_games
from bot.referee.record import verify_table
from bot.referee.service import Accepted, Referee
from bot.storage.store import Store
from bot.terminal.cli import main
from tests.support.tables import Clock

NUMBERS = ["1", "2", "3", "0", "-1", "2", "9223372036854775807", "9223372036854775808", "1e9", "0x10", "", " 1",
           "١", "999999999999999999999999999999"]
TEXTS = ["ann", "", " ", "\x1b[31mred\x1b[0m", "a\nb", "\u202eevil", "x" * 3000, "Дмитро", "\x00", "{", "--help"]
GAMES = ["claygod", "gwent", "bloodwood", "toy", "nope", "", "CLAYGOD"]
OPTION_PAIRS = ["x=1", "=", "mulligans=-1", "variant=hard", "variant=[1,2]", "a=b=c", "variant: {", "timer=1e99",
                "x" * 300 + "=1", "variant=" + "[" * 500]


def random_argv(rnd: random.Random) -> list[str]:
    def number() -> str:
        return rnd.choice(NUMBERS)

    def text() -> str:
        return rnd.choice(TEXTS)

    command = rnd.choice(["demo", "table", "table", "table", "replay", "export", "verify", "mod", "scenario"])
    argv = ["--locale", rnd.choice(["en", "ru", "uk"])]
    if command == "demo":
        argv += ["demo", "--game", rnd.choice(GAMES[:4] + GAMES[4:5])]
        if rnd.random() < 0.5:
            argv += ["--seats", number()]
        if rnd.random() < 0.3:
            argv += ["--option", rnd.choice(OPTION_PAIRS)]
        if rnd.random() < 0.2:
            argv += ["--games", rnd.choice(["0", "-5", "x"])]
    elif command == "table":
        verb = rnd.choice(["new", "list", "join", "leave", "bot", "start", "cancel", "status", "hand", "actions",
                           "act", "act", "act", "log"])
        argv += ["table", verb]
        if verb == "new":
            argv += ["--game", rnd.choice(GAMES)]
            if rnd.random() < 0.3:
                argv += ["--option", rnd.choice(OPTION_PAIRS)]
        elif verb != "list":
            argv.append(number())
        if verb == "act":
            argv.append(rnd.choice(["1", "2", "7", "0", "pass", '{"type": "pass"}', '{"type": "play", "card": [[]]}',
                                    '{"type": "timeout"}', "{" * 50, text()]))
            if rnd.random() < 0.3:
                argv += ["--version", number()]
        if rnd.random() < 0.7:
            argv += ["--user", rnd.choice(["ann", "bob", "cat", text()])]
        if verb == "start" and rnd.random() < 0.3:
            argv += ["--seed", text()]
        if verb in ("start", "cancel", "log") and rnd.random() < 0.3:
            argv.append("--moderator")
        if verb == "cancel" and rnd.random() < 0.5:
            argv += ["--reason", text()]
    elif command == "replay":
        argv += ["replay", number()]
        if rnd.random() < 0.5:
            argv += ["--seat", number()]
        if rnd.random() < 0.3:
            argv.append("--moderator")
    elif command == "export":
        argv += ["export", number()] + (["--out", rnd.choice(["/nonexistent/x.json", "/dev/full", ""])]
                                        if rnd.random() < 0.3 else [])
    elif command == "verify":
        argv += ["verify"] + rnd.choice([[number()], [number(), "--moderator"], ["--file", "/nonexistent"], []])
    elif command == "mod":
        verb = rnd.choice(["rollback", "ruling", "cancel", "failures"])
        argv += ["mod", verb, number()]
        if verb == "rollback":
            argv += ["--to", number()] + (["--reopen"] if rnd.random() < 0.3 else [])
        if rnd.random() < 0.6:
            argv += ["--reason", text()]
    else:
        argv += ["scenario", rnd.choice(["/nonexistent.yaml", "/dev/null", "/etc/hostname", "/"])]
    if rnd.random() < 0.05:  # a stray argument anywhere
        argv.insert(rnd.randrange(len(argv) + 1), text())
    return argv


async def _verify_all(db) -> list[str]:
    store = await Store.open(db)
    problems = []
    try:
        for table in await store.find_tables(limit=10_000):
            if table.status in ("active", "finished") or (table.status == "cancelled" and table.seed):
                report = await verify_table(store, table.id, moderator=True)
                problems += [f"table {table.id}: {p}" for p in report.problems]
    finally:
        await store.close()
    return problems


def test_random_command_lines(tmp_path, capsys):
    db = tmp_path / "fuzz.db"
    rnd = random.Random(20261124)
    seen_codes = set()
    # a few real tables first, so that the random numbers hit lobbies, running and finished games
    for argv in (["demo", "--game", "toy"], ["table", "new", "--game", "toy", "--user", "ann"],
                 ["table", "join", "2", "--user", "bob"], ["table", "start", "2", "--user", "ann"],
                 ["table", "new", "--game", "claygod", "--user", "ann"]):
        assert main(["--db", str(db), *argv]) == 0
    capsys.readouterr()
    for _case in range(300 if os.environ.get("JUDGE_CONFORMANCE_GAMES") else 1000):  # fewer on CI's other Pythons
        argv = ["--db", str(db), *random_argv(rnd)]
        started = time.monotonic()
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse refusing the arguments (or --help)
            code = exc.code
        out, err = capsys.readouterr()
        assert "Traceback" not in err + out, (argv, err)
        assert code in (0, 1, 2), (argv, code, err)
        assert time.monotonic() - started < 20, argv
        if code:
            assert err.strip(), (argv, out, "refused without a word")
        seen_codes.add(code)
    assert seen_codes == {0, 1, 2}
    assert asyncio.run(_verify_all(db)) == []


# ---------------------------------------------------------------------------------------------- the referee
WEIRD = [None, True, -1, 0, 1, 2**70, -(2**70), 3.5, "", "x" * 40, [], [1], {}, {"a": 1}, "0", [[[]]]]


def mutate(action: dict, rnd: random.Random) -> object:
    roll = rnd.random()
    if roll < 0.05:
        return rnd.choice(WEIRD)
    action = dict(action)
    fields = [k for k in action if k != "type"]
    if roll < 0.35 and fields:
        action[rnd.choice(fields)] = rnd.choice(WEIRD)
    elif roll < 0.5 and fields:
        del action[rnd.choice(fields)]
    elif roll < 0.65:
        action[rnd.choice(["card", "cards", "target", "seat", "row", "die", "x"])] = rnd.choice(WEIRD)
    elif roll < 0.8:
        action["type"] = rnd.choice(["play", "pass", "timeout", "rollback", "declare", "attack", "x", ""])
    return action


@pytest.mark.parametrize("name", sorted(set(all_games()) - {"toy"}))
async def test_random_actions_through_the_referee(tmp_path, name):
    game = all_games()[name]
    store = await Store.open(tmp_path / "fuzz.db")
    clock = Clock()
    referee = Referee(store, clock=clock)
    rnd = random.Random(name)
    internal = []
    try:
        for table_no in range(3):
            seats = rnd.randint(game.min_seats, min(game.max_seats, 6))
            users = [f"u:{n}" for n in range(seats)]
            table = await referee.create_table(name, creator=users[0], creator_name="P0", origin="terminal")
            for n, user in enumerate(users[1:], 1):
                assert isinstance(await referee.join(table.id, user, f"P{n}"), int)
            assert isinstance(await referee.start(table.id, users[0], seed=f"fuzz{table_no}"), Accepted)
            for _ in range(150):
                current = await store.get_table(table.id)
                if current.status != "active":
                    break
                state = await store.state(table.id)
                pending = [p.seat for p in game.to_act(state)] or [0]
                seat = rnd.choice(pending)
                for _ in range(4):  # hostile attempts
                    who = rnd.choice(users + ["u:stranger", "system"])
                    legal = game.choices(state, seat) or [{"type": "pass"}]
                    result = await referee.act(table.id, who, mutate(rnd.choice(legal), rnd),
                                               expected_version=rnd.choice([None, current.version,
                                                                            current.version - 1, 2**62]),
                                               seat=rnd.choice([None, seat, rnd.randrange(-2, seats + 2)]))
                    if isinstance(result, Rejection) and result.code == Code.INTERNAL:
                        internal.append(result)
                    current = await store.get_table(table.id)
                    if current.status != "active":
                        break
                    state = await store.state(table.id)
                if current.status != "active":
                    break
                clock.t += rnd.choice([0, 1, 60, 3600])
                await referee.tick()
                state = await store.state(table.id)
                pending = [p.seat for p in game.to_act(state)]
                if pending and (await store.get_table(table.id)).status == "active":
                    seat = pending[0]
                    action = game.bot_action(state, seat, rnd)
                    await referee.act(table.id, users[seat], action, seat=seat)
        assert internal == [], "an engine crashed on an input instead of refusing it"
    finally:
        await store.close()
    assert await _verify_all(tmp_path / "fuzz.db") == []
