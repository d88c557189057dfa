"""The terminal front end's building blocks: printing outbox messages, reading typed actions, the
interactive play loop and the demo.  Everything goes through the referee service, exactly like Discord."""
from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from bot.engine import Code, Rejection, get_game
from bot.i18n import t
from bot.referee.delivery import Skip, drain
from bot.referee.record import verify_table
from bot.referee.service import Accepted, Referee
from bot.referee.steps import END
from bot.referee.typed import parse_typed
from bot.render.picture import picture
from bot.ratings.render import own_rating_line, rating_line
from bot.render.text import outcome_line, render_event, render_message
from bot.storage.rows import known
from bot.storage.store import OutboxRow, SeatRow, TableRow
from bot.terminal.common import refusal_text


@dataclass
class TerminalDeliverer:
    """Prints the messages a given terminal user may see: table messages, and private messages of the
    seats that user holds.  Other private messages are not for this screen and are marked skipped."""

    out: TextIO
    user_id: str
    locale: str
    quiet_kinds: set[str] = field(default_factory=set)
    boards: bool = True   # False when the caller shows the board itself (the play loop, before each menu)
    origins: tuple[str, ...] | None = ("terminal", "demo")
    store: Any = None     # given: a rated table's end also prints each player's rating change

    async def deliver(self, table: TableRow, seats: list[SeatRow], message: OutboxRow) -> str | None:
        names = [s.name for s in seats]
        if message.target == "seat":
            owner = seats[known(message.seat, "the seat of a seat's message")]
            if owner.user_id != self.user_id:
                raise Skip("not this terminal's seat")
            header = t("core.term.private", self.locale, name=owner.name)
        else:
            header = None
        if message.kind in self.quiet_kinds:
            return None
        game = get_game(table.game)
        text = render_message(game, message.kind, message.payload, names=names, locale=self.locale,
                              table_id=table.id, board=self._board(message))
        if message.kind == "finish" and self.store is not None:
            text += await rating_line(self.store, table, names, self.locale)
        # the seat's own end notice: its change
        if message.kind == END and text and self.store is not None and message.seat is not None:
            own = await own_rating_line(self.store, table, message.seat, self.locale)
            text += f"\n{own}" if own else ""
        if text:
            if header:
                self.out.write(header + "\n")
            self.out.write(text + "\n\n")
            self.out.flush()
        return None

    def _board(self, message: OutboxRow) -> bool:
        if message.kind == "finish":
            return True
        return self.boards and (message.target == "seat" or message.kind != "update")


def action_menu(game: Any, state: dict[str, Any], seat: int, actions: list[dict[str, Any]], locale: str,
                names: Sequence[str]) -> str:
    return "\n".join(f"  {i}. {game.describe_action(state, seat, a, locale, names)}"
                     for i, a in enumerate(actions, 1))


async def play_loop(referee: Referee, table_id: int, user_id: str, locale: str, *,
                    read: Callable[[str], str] = input, out: TextIO = sys.stdout) -> str:
    """Play at the terminal until the game ends or the player quits ("finished" / "quit" / "eof")."""
    store = referee.store
    printer = TerminalDeliverer(out, user_id, locale, boards=False, store=store)
    table = await store.known_table(table_id)
    game = get_game(table.game)
    while True:
        await referee.tick()
        await referee.drive_bots(table_id)
        await drain(store, printer, only=[table_id])
        table = await store.known_table(table_id)
        if table.status != "active":
            return "finished"
        legal = await referee.legal(table_id, user_id)
        if isinstance(legal, Rejection):
            out.write("✗ " + refusal_text(legal, locale, table.game) + "\n")
            return "refused"
        seat, version, actions = legal
        if not actions:  # someone else (a human at another terminal, or a live clock) must act first
            await asyncio.sleep(0.5)
            continue
        seats = await store.seats(table_id)
        names = [s.name for s in seats]
        state = await store.known_state(table_id)
        out.write(game.render_view(game.view(state, seat), locale, names) + "\n")
        out.write(t("core.term.your_move", locale, name=names[seat]) + "\n")
        out.write(action_menu(game, state, seat, actions, locale, names) + "\n")
        out.flush()
        try:
            line = await asyncio.to_thread(read, "> ")
        except EOFError:
            out.write("\n" + t("core.term.saved", locale, table=table_id) + "\n")
            return "eof"
        line = line.strip()
        if not line:
            continue
        if line in (":q", ":quit", "quit", "выход", "вихід"):
            out.write(t("core.term.saved", locale, table=table_id) + "\n")
            return "quit"
        if line in (":log", ":history"):
            for e in await referee.history(table_id, seat=seat):
                text = render_event(game, e, locale, names)
                if text:
                    out.write(f"  [{e['version']}] {text}\n")
            continue
        if line in (":help", "?"):
            out.write(t("core.term.help", locale) + "\n")
            continue
        action = parse_typed(game, state, seat, line, names)
        if isinstance(action, Rejection):
            out.write("✗ " + refusal_text(action, locale, table.game) + "\n")
            continue
        result = await referee.act(table_id, user_id, action, expected_version=version, seat=seat)
        if isinstance(result, Rejection):
            out.write("✗ " + refusal_text(result, locale, table.game) + "\n")


#: a demo's lobby lives for the milliseconds between its creation and its start; one older than this was left
#: by a demo that was killed (another demo running beside on the same file never has one this old)
DEMO_LOBBY_STALE = 600.0
DEMO = "cli:demo"


async def abandon_demo_lobbies(referee: Referee) -> list[int]:
    """Cancel the lobbies killed demos left behind (docs/operations.md), each logged as abandoned; their
    numbers.  A demo's table that had started is a stored game like any other and stays."""
    now = referee.now()
    stale = [row.id for row in await referee.store.find_tables(status=["lobby"], limit=10_000)
             if row.origin == "demo" and row.creator == DEMO and row.created_at < now - DEMO_LOBBY_STALE]
    for table_id in stale:
        await referee.cancel(table_id, DEMO, moderator=True, reason="abandoned: its demo was stopped before it began")
    return stale


@dataclass
class DemoResult:
    table_id: int
    game: str
    actions: int
    finished: bool
    verified: bool
    summary: str


async def run_demo_table(referee: Referee, game_name: str, *, seats: int, locale: str, out: TextIO,
                         verbose: bool = False, options: dict[str, Any] | None = None,
                         pictures: Path | None = None) -> DemoResult:
    """One complete table of bot players, stored like any other, then verified from the record; its final
    picture (the public's view) written into ``pictures`` when given."""
    store = referee.store
    game = get_game(game_name)
    table = await referee.create_table(game_name, creator="cli:demo", creator_name="demo", options=options,
                                       origin="demo", join=False, locale=locale)
    if isinstance(table, Rejection):
        raise RuntimeError(table.message("en"))
    for i in range(seats):
        await referee.add_bot(table.id, name=t("core.term.bot_name", locale, n=i + 1))
    started = await referee.start(table.id, "cli:demo")
    if not isinstance(started, Accepted):
        raise RuntimeError(started.message("en"))
    printer = TerminalDeliverer(out, "cli:demo", locale,
                                quiet_kinds=set() if verbose else {"update", "private", "start"})
    while True:
        await referee.drive_bots(table.id, limit=200)
        await drain(store, printer, limit=1000, only=[table.id])
        row = await store.known_table(table.id)
        if row.status != "active":
            break
        if not await referee.tick():  # only a live clock could be holding a bot table up
            await asyncio.sleep(0.01)
    row = await store.known_table(table.id)
    report = await verify_table(store, table.id)
    names = [s.name for s in await store.seats(table.id)]
    result = outcome_line(game, row.outcome, locale, names) if row.outcome else row.status
    summary = t("core.term.demo_summary", locale, table=table.id, game=t(f"{game.name}.title", locale),
                n=row.version, result=result,
                check="✓" if report.ok else "✗ " + "; ".join(report.problems))
    out.write(summary + "\n")
    png = picture(game.view(await store.known_state(table.id), None), locale, names) if pictures else None
    if pictures is not None and png is not None:
        path = pictures / f"table{table.id}-{game_name}-{locale}.png"
        pictures.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        out.write(t("picture.demo.written", locale, file=str(path)) + "\n")
    return DemoResult(table.id, game_name, row.version, row.status == "finished", report.ok, summary)


#: the two terminal users of the demo's rated table: people, not ``bot:`` seats, so the table is rated
DEMO_PLAYERS = ("cli:demo-player-1", "cli:demo-player-2")


async def run_rated_demo_table(referee: Referee, *, locale: str, out: TextIO, game_name: str = "claygod",
                               limit: int = 5000) -> DemoResult:
    """A rated table of two human terminal users whose moves the bots' policy chooses (issue 37): each demo
    plays one more, so a newcomer sees the ratings move; the end prints each player's change."""
    import random

    store = referee.store
    game = get_game(game_name)
    table = await referee.create_table(game_name, creator=DEMO, creator_name="demo", origin="demo", join=False,
                                       locale=locale)
    if isinstance(table, Rejection):
        raise RuntimeError(table.message("en"))
    for n, user in enumerate(DEMO_PLAYERS, 1):
        seated = await referee.join(table.id, user, t("core.term.demo_player", locale, n=n))
        if isinstance(seated, Rejection):
            raise RuntimeError(seated.message("en"))
    started = await referee.start(table.id, DEMO)
    if not isinstance(started, Accepted):
        raise RuntimeError(started.message("en"))
    printer = TerminalDeliverer(out, DEMO, locale, quiet_kinds={"update", "private", "start"}, store=store)
    seats = await store.seats(table.id)
    version, finished = started.version, started.finished
    for _ in range(limit):
        if finished:
            break
        state = await store.known_state(table.id)
        due = game.to_act(state)
        if not due:  # a referee step (a clock) is due, not a player's move
            await referee.tick()
            row = await store.known_table(table.id)
            version, finished = row.version, row.status != "active"
            continue
        seat = due[0].seat
        # the bots' choice, seeded from the table and version as drive_bots seeds it: reproducible
        action = game.bot_action(state, seat, random.Random(f"{table.id}:{version}:{seat}"))
        done = await referee.act(table.id, seats[seat].user_id, action, expected_version=version, seat=seat)
        if isinstance(done, Rejection):
            if done.code != Code.STALE:
                raise RuntimeError(done.message("en"))
            row = await store.known_table(table.id)  # the referee's own forced moves followed: read where it is
            version, finished = row.version, row.status != "active"
            continue
        version, finished = done.version, done.finished
    await drain(store, printer, limit=10_000, only=[table.id])  # once: the quiet kinds are most of them
    row = await store.known_table(table.id)
    report = await verify_table(store, table.id)
    names = [s.name for s in seats]
    result = outcome_line(game, row.outcome, locale, names) if row.outcome else row.status
    summary = t("core.term.demo_summary", locale, table=table.id, game=t(f"{game.name}.title", locale),
                n=row.version, result=result, check="✓" if report.ok else "✗ " + "; ".join(report.problems))
    out.write(summary + "\n")
    return DemoResult(table.id, game_name, row.version, row.status == "finished", report.ok, summary)
