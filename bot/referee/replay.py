"""A stored table's history step by step, as one viewer may read it: the one replay of the terminal
(``python -m bot replay N [--seat S] [--moderator]``) and of Discord (``/table replay``).

A *step* is one entry of the log (bot/referee/moves.py): the deal, a move, a rollback, an upgrade, and — in a
seat's or a moderator's replay only — a secret step (a private event and nothing public).  Which events a
replay holds is ``Referee.history``'s rule: the public ones, a seat's own besides, or (a moderator) all.  The
lines of a step are the same text at the terminal and in Discord, so that one can be checked against the other;
the raw actions and the table versions (they name hidden cards, and count the secret steps) only for a
moderator.  Who may ask for which replay is the front end's check, made before ``load``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from bot.engine import Game, get_game
from bot.i18n import t
from bot.referee.moves import Entry, Moves
from bot.referee.service import Referee
from bot.render.text import render_event
from bot.storage.store import ActionRow, TableRow

INDENT = "    "


@dataclass
class Replay:
    table: TableRow
    game: Game
    names: list[str]                 # the seats' names as typed (the terminal's, and a code block's in Discord)
    entries: list[Entry]
    actions: dict[int, ActionRow]
    moderator: bool

    def header(self, locale: str) -> str:
        return (f"{t(f'{self.game.name}.title', locale)} — #{self.table.id} ({self.table.status}); "
                f"{', '.join(self.names)}")

    def lines(self, entry: Entry, locale: str) -> list[str]:
        """The step line (its number, who acted) and its events, one a line, each indented."""
        a = self.actions.get(entry.version)
        who = t("notice.referee", locale) if a and a.seat < 0 else self.names[a.seat] if a else "—"
        step = f"{entry.number}. {who}" if entry.kind == "move" else f"• {who}"
        if entry.undone:
            step += f"  {t('records.term.undone', locale)}"
        if self.moderator:
            step = f"[{entry.version}] {step}: {json.dumps(a.action, ensure_ascii=False)}" if a \
                else f"[{entry.version}] {step}"
        lines = [step]
        for e in entry.events:
            if e["kind"] == "rollback":  # named by the move it returned to, as the table heard it
                e = {**e, "data": {**e["data"], "move": entry.number}}
            text = render_event(self.game, e, locale, self.names, detail=True)
            if text:
                lines.append(f"{INDENT}{text}" + ("" if e["to"] is None else "  🔒"))
        return lines

    def step_of_move(self, number: int) -> int | None:
        """The index of the step that made move ``number`` (0: the deal): the move still in play where a
        rollback undid an earlier one of that number; None when there is no such move."""
        if number == 0:
            return 0 if self.entries else None
        found = [i for i, e in enumerate(self.entries) if e.kind == "move" and e.number == number]
        live = [i for i in found if not self.entries[i].undone]
        return (live or found)[-1] if found else None

    @property
    def latest_move(self) -> int:
        return max((e.number or 0 for e in self.entries if e.kind == "move"), default=0)


async def load(referee: Referee, table: TableRow, *, seat: int | None, moderator: bool) -> Replay:
    """The replay of a started table as ``seat`` (None: the public) reads it, or a moderator (everything)."""
    store = referee.store
    events = await referee.history(table.id, seat=seat, moderator=moderator)
    actions = {a.version: a for a in await store.actions(table.id)}
    names = [s.name for s in await store.seats(table.id)]
    # moves numbered from the public events alone (bot/referee/moves.py)
    return Replay(table, get_game(table.game), names, Moves(events).entries, actions, moderator)


def started(table: TableRow) -> bool:
    """Whether the table has a record to replay: dealt (a lobby has none; nor a table cancelled before its deal)."""
    return table.status != "lobby" and not (table.status == "cancelled" and table.seed is None)
