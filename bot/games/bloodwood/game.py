"""The Bloodwood engine as the referee core sees it: options, set-up, whose decision it is, actions, views."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine import Ctx, Game, GameFacts, Option, Pending, Rejection
from bot.engine.pace import PACE, timer, window

from . import bot, position, rating, render, view
from .actions import anytime_actions, apply_action, legal_actions, out_of_turn, timeout
from .flow import deadline, pending
from .migrations import MIGRATIONS
from .setup import setup


class Bloodwood(Game):
    name = "bloodwood"
    min_seats = 5
    max_seats = 12
    options = (
        Option("leaders", "bool", True),
        Option("first_player", "choice", "random", choices=("random", "host")),
        Option("role_deal", "choice", "random", choices=("random", "host")),
        Option("turn_seconds", "int", 0, min=0, max=7 * 24 * 3600),
        Option("counter_seconds", "int", 120, min=0, max=7 * 24 * 3600),
        Option("extra_turn_specials", "choice", "none", choices=("none", "other")),
        Option("mirror", "choice", "self", choices=("self", "reverse")),
        Option("reshuffle", "choice", "empty", choices=("empty", "draw")),
        Option("asleep_may_declare", "bool", True),
        PACE,                                                                            # BW-32
    )
    rules_version = 3
    #: how long a correspondence table's counter window stays open unless the table says (BW-32)
    CORRESPONDENCE_COUNTER = 6 * 3600
    migrations = MIGRATIONS
    stack_keys = ("day_deck", "night_deck", "roles")
    max_actions = 3000
    #: single choices whose taking tells nobody anything, every hand's size and every deck's being public
    #: (BW-5): a pass with an empty hand, a draw from the only deck left, a steal of the only kind of back a
    #: hand shows, and a discard or gift of a hand's last card (``forced_action``)
    auto_actions = frozenset({"pass", "draw", "steal", "discard", "give"})
    #: a seat may let every counter window of a turn go by at once: the referee answers each with "allow"
    window_passes = frozenset({"allow"})

    def milestone(self, event: Mapping[str, Any]) -> str | None:
        """A day's end: night falls once every player has had a day turn (flow.flip_phase)."""
        return "after" if event["kind"] == "phase" and (event.get("data") or {}).get("phase") == "night" else None

    def forced_action(self, state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        action = super().forced_action(state, seat, legal)
        if action is not None and action["type"] in ("discard", "give") and len(state["hands"][seat]) > 1:
            return None  # several cards all of one kind: taking it at once would tell the table so
        return action

    def confirm(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> bool:
        """The declaration of the end cannot be withdrawn (§4, BW-25): asked twice."""
        return action.get("type") == "declare"

    #: a playout is long (hundreds of actions, up to 12 seats): 150 playouts took about 45 s, most of it in the
    #: 26 whose every state is checked in depth (views of every seat, replay); 75 keep CI within its budget
    #: (every seat count and option set still played; ``pytest --playouts N`` soaks).  Rated team against team,
    #: each player on the team of their role as the game ends (R-3)
    facts = GameFacts(rating="hook", listed=4, conformance_playouts=75, pictures=True)

    def rated_sides(self, options: Mapping[str, Any], seats: int,
                    outcome: Mapping[str, Any]) -> tuple[list[list[int]], list[int]]:
        return rating.rated_sides(options, seats, outcome)

    def picture(self, view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str) -> Any | None:
        from . import picture  # the drawing library is loaded only where a picture is drawn

        draw = {"table": picture.table, "hand": picture.hand}.get(kind)
        return draw(view, locale, names) if draw is not None else None


    def correspond(self, options: dict[str, Any], given: frozenset[str], clock: float | None) -> None:
        """BW-32: the slowness rule's seconds give way to the table's clock; the two-minute counter window is
        open ``CORRESPONDENCE_COUNTER`` seconds and still closes by itself."""
        timer(self.name, options, given, "turn_seconds", clock)
        window(self.name, options, given, "counter_seconds", self.CORRESPONDENCE_COUNTER)

    def setup(self, state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
        setup(state, ctx, stack)

    def turn_key(self, state: dict[str, Any]) -> Any:
        return state.get("turn_no")

    def to_act(self, state: dict[str, Any]) -> list[Pending]:
        if state["outcome"] is not None:
            return []
        due = deadline(state)
        # a counter window is about its target, who is the seat it asks (the attack is public)
        return [Pending(seat, kind, due, f"bloodwood.prompt.{prompt}",
                        *(((seat,), state["step"]["opened"]) if kind == "reaction" else ()))
                for seat, kind, prompt in pending(state)]

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def anytime_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return anytime_actions(state, seat)

    def out_of_turn(self, state: dict[str, Any], seat: int, action: Any) -> Rejection:
        return out_of_turn(state, seat, action)

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
        apply_action(state, seat, action, ctx)

    def _timeout(self, state: dict[str, Any], seat: int, ctx: Ctx) -> None:
        timeout(state, seat, ctx)

    def _view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return view.build(state, seat)

    def unseen_variant(self, state: dict[str, Any], seat: int | None, rng: Any) -> dict[str, Any]:
        return view.unseen_variant(state, seat, rng)

    def check_invariants(self, state: dict[str, Any]) -> None:
        view.check_invariants(state)

    def check_position(self, state: dict[str, Any], template: dict[str, Any]) -> None:
        position.check(state, template)

    def bot_action(self, state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
        return bot.choose(self.view(state, seat), self.legal_actions(state, seat), rng)

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any], locale: str,
                        names: Sequence[str] = ()) -> str:
        return render.describe_action(self.view(state, seat), action, locale, names)

    def render_view(self, view_: Mapping[str, Any], locale: str, names: Sequence[str], *,
                    full: bool = False) -> str:
        return render.render_view(view_, locale, names, full=full)

    def render_event(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        return render.render_event(event, locale, names)


GAME = Bloodwood()
