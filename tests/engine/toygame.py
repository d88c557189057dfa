"""A game defined only in the tests, declaring every fact the layers above the engines read (GameFacts): rated as a
duel, two demo seats, a picture of its own.  No file of bot/ or cogs/ names it; ``registered_card_duel`` puts it in
the registry, with its strings in the catalogue, for one test and takes both out after.

"Card duel": the rules of the core's toy game (tests/support/toy.py) at two seats: three hidden cards each from
1..12, in turn each plays one face up, the higher card takes the trick, most tricks of three wins.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Mapping, Sequence

from bot.engine import GameFacts
from bot.engine.registry import registered
from bot.i18n import catalogue
from tests.support.toy import Toy

NAME = "cardduel"
#: what the front ends read of the game in the catalogue: its name, its events, its outcome
STRINGS: dict[str, dict[str, str]] = {
    f"{NAME}.title": {"ru": "Дуэль карт", "uk": "Дуель карт", "en": "Card duel"},
    f"{NAME}.event.played": {"ru": "{who} кладёт {card}.", "uk": "{who} кладе {card}.", "en": "{who}: {card}."},
    f"{NAME}.event.trick": {"ru": "Взятка: {who}.", "uk": "Взятка: {who}.", "en": "Trick: {who}."},
    "toy.win": {"ru": "Больше взяток.", "uk": "Більше взяток.", "en": "More tricks."},
}


class CardDuel(Toy):
    name = NAME
    max_seats = 2
    facts = GameFacts(rating="duel", listed=900, demo_seats=2, conformance_playouts=20, pictures=True)

    def picture(self, view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str) -> Any | None:
        from bot.engine.canvas import GOLD, Canvas

        if kind == "hand":  # the seat's own cards alone, none for the public
            if not view.get("hand"):
                return None
            canvas = Canvas()
            canvas.text(8, 8, " ".join(map(str, view["hand"])), size=18, colour=GOLD)
            return canvas
        canvas = Canvas()
        for seat, name in enumerate(names):
            card = view["table"][seat]
            canvas.text(8, 8 + 24 * seat, f"{name}: {view['tricks'][seat]} · {'—' if card is None else card}", size=16)
        if view.get("hand"):
            canvas.text(8, 8 + 24 * len(names), " ".join(map(str, view["hand"])), size=16, colour=GOLD)
        return canvas

    def render_event(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        from bot.i18n import t

        data = event["data"]
        if event["kind"] == "played":
            return t(f"{NAME}.event.played", locale, who=names[data["seat"]], card=data["card"])
        if event["kind"] == "trick":
            return t(f"{NAME}.event.trick", locale, who=names[data["seat"]])
        return None


CARD_DUEL = CardDuel()


@contextmanager
def registered_card_duel() -> Iterator[CardDuel]:
    """The game and its strings registered while the block runs; the registry and the catalogue as they were after."""
    strings = catalogue()
    added = [key for key in STRINGS if key not in strings]
    strings.update({key: STRINGS[key] for key in added})
    try:
        with registered(CARD_DUEL) as game:
            yield game
    finally:
        for key in added:
            strings.pop(key, None)
