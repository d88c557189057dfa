"""What a long name costs: the time to read and render one table's public page (bot/web/pages.py), its board as
Discord shows it (bot/discord/render.py ``board_texts``) and its picture (bot/render/picture), when every seat's
name in the record is 32, 1,000 or 10,000 characters long.

The names are written straight into the database, past the referee (which cuts a name to 32 characters when it
takes it), as a record written by a release that did not cut names holds them.  Each game is played a few moves
by its bots first, so the log and the board have something to say.  Prints, per game and name length, the
median wall-clock ms of each render over ``--runs`` runs.  docs/performance.md ("Long names") has the figures
before and after names were cut where they are read back and wrapping became linear.

    .venv/bin/python benchmarks/long_names.py [--runs 5] [--games claygod,bridges] [--lengths 32,1000,10000]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord.render import board_texts  # noqa: E402
from bot.engine import get_game  # noqa: E402
from bot.referee.service import Referee  # noqa: E402
from bot.render.picture import picture  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.web import pages, public  # noqa: E402

SEATS = {"claygod": 2, "gwent": 2, "bloodwood": 5, "bridges": 2, "raiders": 3}
MOVES = 12


async def table_with_names(store: Store, game: str, length: int) -> int:
    referee = Referee(store)
    table = await referee.create_table(game, creator="cli:bench", creator_name="bench", origin="demo", join=False)
    for _ in range(SEATS[game]):
        await referee.add_bot(table.id)
    async with store.transaction() as db:  # the database lets seats change only in the lobby
        for seat in range(SEATS[game]):
            name = (f"Игрок{seat} " + "Ж" * length)[:length]
            await db.execute("UPDATE seats SET name = ? WHERE table_id = ? AND seat = ?", (name, table.id, seat))
    await referee.start(table.id, "cli:bench")
    await referee.drive_bots(table.id, limit=MOVES)
    return table.id


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:8.1f}"


async def measure(store: Store, table_id: int, runs: int) -> tuple[list[float], list[float], list[float]]:
    web, discord, png = [], [], []
    for _ in range(runs):
        started = time.perf_counter()
        shown = await public.load_table(store, table_id)
        pages.table_page(pages.Page("en"), shown)
        web.append(time.perf_counter() - started)

        started = time.perf_counter()
        row, seats = await store.get_table(table_id), await store.seats(table_id)
        game = get_game(row.game)
        board_texts(game, seats, game.view(await store.state(table_id), None), "ru", "head")
        discord.append(time.perf_counter() - started)

        started = time.perf_counter()
        picture(game.view(await store.state(table_id), None), "ru", [s.name for s in seats])
        png.append(time.perf_counter() - started)
    return web, discord, png


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", default=",".join(SEATS))
    parser.add_argument("--lengths", default="32,1000,10000")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    lengths = [int(n) for n in args.lengths.split(",") if n]
    print(f"median ms over {args.runs} runs: a table's public page (read + render), its board for Discord, "
          f"its picture")
    print(f"{'game':<10} {'name':>6} {'page':>8} {'discord':>8} {'picture':>8}")
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "names.db")
        try:
            for game in games:
                for length in lengths:
                    table_id = await table_with_names(store, game, length)
                    web, discord, png = await measure(store, table_id, args.runs)
                    print(f"{game:<10} {length:>6} {median_ms(web)} {median_ms(discord)} {median_ms(png)}",
                          flush=True)
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
