"""Raiders (Рейдеры) as the referee core sees it: options (the book's variants and dispute modes, rulings where
tables differ), set-up, who acts, actions, views."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence, cast

from bot.engine import Ctx, Game, GameFacts, Option, Pending, Rejection
from bot.engine.pace import PACE, window

from . import bot, position, rating, render, view
from .actions import apply_action, legal_actions, moderate, out_of_turn, owing, timeout, upholding, window_about
from .cards import forget_files, set_names, use_file
from .migrations import MIGRATIONS
from .setup import STACK_KEYS, setup

_PROMPT = {"turn": "raiders.prompt.turn", "reaction": "raiders.prompt.window"}


class Raiders(Game):
    name = "raiders"
    min_seats = 2
    max_seats = 6
    _rest = (
        Option("sets", "choice", "auto", choices=("auto", "one", "two")),               # «Варианты игры»
        Option("short_target", "bool", False),                                          # «Варианты игры», RD-21
        Option("pairs", "bool", False),                                                 # «пара на пару»
        Option("disputes", "choice", "rollback", choices=("rollback", "void")),         # «Разрешение споров»
        Option("window_seconds", "int", 0, min=0, max=7 * 24 * 3600),                   # RD-17
        PACE,                                                                            # RD-25
    )
    rules_version = 2
    #: how long a correspondence table's window stays open unless the table says (RD-25)
    CORRESPONDENCE_WINDOW = 2 * 3600
    migrations = MIGRATIONS
    stack_keys = STACK_KEYS
    #: six players answer every window: a long six-seat game is about 3000 actions
    max_actions = 8000
    #: every playout here is checked in depth (each view of each seat after every action): a six-seat game takes
    #: several seconds, so 12 (each seat count twice, the options in turn) take about half a minute
    facts = GameFacts(rating="hook", listed=3, demo_seats=3, conformance_playouts=12, pictures=True, deck_files=True)
    #: a seat may pass every window of a turn at once: the referee answers each with this pass
    window_passes = frozenset({"pass"})
    #: the end of a turn with an empty hand and the discard of a hand's last card: hand sizes are public, so
    #: taking them at once tells nobody anything (an "end" with cards in hand would tell that none can be used)
    auto_actions = frozenset({"end", "discard"})

    def milestone(self, event: Mapping[str, Any]) -> str | None:
        """A capture that succeeded: the property changes hands."""
        return "after" if event["kind"] == "captured" else None

    @property
    def options(self) -> tuple[Option, ...]:  # type: ignore[override]  # a class attribute elsewhere; here the deck files known at run time
        """The deck's choices are the shipped sets, and any deck file a scenario of this process brought."""
        return (Option("deck", "choice", "house", choices=set_names()), *self._rest)

    def rated_sides(self, options: Mapping[str, Any], seats: int,
                    outcome: Mapping[str, Any]) -> tuple[list[list[int]], list[int]]:
        """R-2: the winning side first, the others by their бабки; the pairs are sides."""
        return rating.rated_sides(options, seats, outcome)

    def cite_text(self, cite: str, locale: str) -> str | None:
        return render.cite_text(cite, locale) if cite in render.BOOK_SECTIONS else None

    def picture(self, view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str) -> Any | None:
        from . import picture  # the drawing library is loaded only where a picture is drawn

        draw = {"table": picture.table, "hand": picture.hand}.get(kind)
        return draw(view, locale, names) if draw is not None else None

    def use_deck_file(self, path: Path) -> dict[str, Any]:
        """A scenario's own deck file (``deck_file``): validated and loaded (CatalogError lists every mistake);
        returns the table options that choose it."""
        return {"deck": use_file(path)}

    def forget_deck_files(self) -> None:
        forget_files()

    def out_of_turn(self, state: dict[str, Any], seat: int, action: Any) -> Rejection:
        return out_of_turn(state, seat, action)

    def forced_action(self, state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        action = super().forced_action(state, seat, legal)
        held = len(state["players"][seat]["hand"])
        if action is not None and held > (0 if action["type"] == "end" else 1):
            return None
        return action

    def correspond(self, options: dict[str, Any], given: frozenset[str], clock: float | None) -> None:
        """RD-25: a window (and a vote) closes by itself after ``CORRESPONDENCE_WINDOW`` seconds, everyone who has
        not answered passing."""
        window(self.name, options, given, "window_seconds", self.CORRESPONDENCE_WINDOW)

    def setup(self, state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
        setup(state, ctx, stack)

    def turn_key(self, state: dict[str, Any]) -> Any:
        return state["turn"]["number"]

    def to_act(self, state: dict[str, Any]) -> list[Pending]:
        w = state["window"]
        seconds = state["options"]["window_seconds"]
        deadline = w["since"] + seconds if seconds and w and not w["owe"] else None
        found = []
        about = window_about(state) if w else ()
        for seat, kind in owing(state):
            prompt = _PROMPT.get(kind) or ("raiders.prompt.vote" if w["vote"] else f"raiders.prompt.{w['owe']['what']}")
            window = kind == "reaction"
            found.append(Pending(seat, kind, deadline if kind != "turn" else None, prompt,
                                 about if window else (), w["since"] if window else None))
        return found

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
        apply_action(state, seat, action, ctx)

    def _timeout(self, state: dict[str, Any], seat: int, ctx: Ctx) -> None:
        timeout(state, seat, ctx)

    def upholding(self, state: dict[str, Any], disputed: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
        return upholding(state, list(disputed))

    def _moderate(self, state: dict[str, Any], action: dict[str, Any], ctx: Ctx) -> None:
        moderate(state, action, ctx)

    def _view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return view.build(state, seat)

    def unseen_variant(self, state: dict[str, Any], seat: int | None, rng: Any) -> dict[str, Any]:
        return view.unseen_variant(state, seat, rng)

    def check_invariants(self, state: dict[str, Any]) -> None:
        view.check_invariants(state)

    def check_position(self, state: dict[str, Any], template: dict[str, Any]) -> None:
        position.check(state, template)

    def judge_table(self, state: dict[str, Any]) -> dict[str, Any]:
        return view.judge_table(state)

    def bot_action(self, state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
        return bot.choose(state, seat, rng)

    def choice_group(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        """One menu per kind of decision; the pass is always a button of its own (one click)."""
        if action["type"] == "state":
            return "state_" + ("krutizna" if action["effect"]["do"] == "krutizna" else "other")
        return cast("str", action["type"])

    def confirm(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> bool:
        """Ending the turn with the capture attempt unused gives it up."""
        return action["type"] == "end" and not state["turn"]["captured"]

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any], locale: str,
                        names: Sequence[str] = ()) -> str:
        return render.describe_action(state, seat, action, locale, names)

    def render_view(self, view_: Mapping[str, Any], locale: str, names: Sequence[str], *,
                    full: bool = False) -> str:
        return render.render_view(view_, locale, names, full=full)

    def render_event(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        return render.render_event(event, locale, names)


GAME = Raiders()
