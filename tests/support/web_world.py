"""A database for the public pages' tests (tests/web/): every game played by bot players (one table
of each to the end, one left in play), players with hostile names, and tournaments of bot players in each
format (a Swiss one still running), built once per test module."""
from __future__ import annotations

import asyncio
from pathlib import Path

from bot.referee.service import Referee
from bot.storage.store import Store
from bot.web.sample import bot_tournament

SEATS = {"claygod": 2, "gwent": 2, "bloodwood": 5, "bridges": 2, "raiders": 3}
HOSTILE = ["<script>alert('x')</script>", "\"'><img src=x onerror=alert(1)>", "\u202eevil\u202c مرحبا بالعالم",
           "Ж" * 300, "{{ 7*7 }} &amp; </pre>"]
#: a short game in few actions, to leave a table in play
IN_PLAY_ACTIONS = 6


async def _table(referee: Referee, game: str, names: list[str], *, finish: bool, guild_id: str | None) -> int:
    table = await referee.create_table(game, creator="cli:web-test", creator_name="web-test", origin="demo",
                                       join=False, guild_id=guild_id, title="<b>title</b>" if finish else None)
    for name in names[:SEATS[game]]:
        await referee.add_bot(table.id, name=name)
    await referee.start(table.id, "cli:web-test")
    await referee.drive_bots(table.id, limit=10_000 if finish else IN_PLAY_ACTIONS)
    return table.id


async def build(path: Path, *, hostile: bool = True, tournament_game: str = "toy", only_swiss: bool = False,
                games: tuple[str, ...] = tuple(SEATS)) -> dict[str, object]:
    """The world in the database ``path``; returns what the tests look for: table ids per game and state,
    the tournaments by format."""
    store = await Store.open(path)
    referee = Referee(store)
    world: dict[str, object] = {"finished": {}, "active": {}, "tournaments": {}}
    try:
        names = HOSTILE + ["Аня", "Борис", "Віра", "Glen", "Дана", "Егор", "Жанна"] if hostile else \
            ["Аня", "Борис", "Віра", "Glen", "Дана", "Егор", "Жанна"]
        for game in games:
            world["finished"][game] = await _table(referee, game, names, finish=True, guild_id=None)
            world["active"][game] = await _table(referee, game, names[2:] + names, finish=False,
                                                 guild_id="123456789012345678")
        world["tournaments"]["swiss"] = await bot_tournament(
            referee, "claygod", "swiss", 4, title=HOSTILE[0] if hostile else "Swiss", names=names, rounds_to_play=2)
        if only_swiss:
            return world
        # the other formats with the tests' quick toy game (three cards each): their pages, not their games
        world["tournaments"]["round_robin"] = await bot_tournament(referee, tournament_game, "round_robin", 4,
                                                                    title="RR", names=names[5:])
        world["tournaments"]["elimination"] = await bot_tournament(referee, tournament_game, "elimination", 5,
                                                                    title="Cup", names=names)
        world["tournaments"]["double_elimination"] = await bot_tournament(referee, tournament_game,
                                                                           "double_elimination", 4, title="Double")
        world["tournaments"]["multiseat"] = await bot_tournament(referee, tournament_game, "multiseat", 6,
                                                                  title="Three", settings={"rounds": 2, "table_size": 3})
    finally:
        await store.close()
    return world


def build_sync(path: Path, **kw) -> dict[str, object]:
    return asyncio.run(build(path, **kw))
