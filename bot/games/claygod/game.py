"""Clay God: Cards as the referee core sees it: options (house rules), set-up, who acts, actions, views."""
from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

from bot.engine import Ctx, Game, GameFacts, Option, Pending
from bot.engine.pace import PACE, choice, refuse

from . import bot, position, render, view
from .actions import apply_action, forfeit, legal_actions
from .cards import catalogue
from .migrations import MIGRATIONS
from .setup import STACK_KEYS, setup
from .state import awaited_seat
from .turns import clock_ran_out, deadline, expired_live_clocks

_KIND = {"roll": "turn", "action": "turn"}


class ClayGod(Game):
    name = "claygod"
    min_seats = 2
    max_seats = 2
    # The first value is the rule book's text; the others are readings some tables prefer (docs/rulings).
    options = (
        Option("maximum", "choice", "start", choices=("start", "win_line")),           # CG-4
        Option("win_needs", "choice", "either", choices=("either", "both")),            # CG-34
        Option("count_turns", "choice", "round", choices=("round", "every")),           # CG-6
        Option("frozen_defeat", "choice", "any", choices=("any", "lasting")),           # CG-13
        Option("frozen_combos", "bool", False),                                          # CG-14
        Option("thrown_combos", "bool", False),                                          # CG-14
        Option("flush_order", "choice", "any", choices=("any", "colours")),             # CG-15
        Option("flush_draw", "choice", "five", choices=("five", "hand_size")),          # CG-15
        Option("discard_draw", "choice", "always", choices=("always", "to_hand_size")),  # CG-20
        Option("lost_place", "choice", "card", choices=("card", "hand")),               # CG-20
        Option("prince_skip", "choice", "caster", choices=("caster", "enemy")),         # CG-22
        Option("clock_mode", "choice", "live", choices=("live", "turns")),              # CG-25
        Option("clock_turns", "int", 15, min=1, max=100),                                # CG-25
        Option("turn_clock", "choice", "live", choices=("live", "async", "off")),       # CG-26
        Option("async_turn_hours", "int", 24, min=1, max=168),                           # CG-26
        Option("two_cards", "choice", "together", choices=("together", "in_order")),    # CG-28
        PACE,                                                                            # CG-36
    )
    rules_version = 3
    migrations = MIGRATIONS
    stack_keys = STACK_KEYS
    #: random playouts in the conformance suite: 1,000 took 160 s (the longest single test), 200 keep CI within
    #: its budget with both cores busy on a slow day; ``pytest --playouts N`` soaks
    facts = GameFacts(rating="duel", listed=1, conformance_playouts=200, pictures=True)
    max_actions = 3000
    #: the roll that opens every turn: everyone knows it is the only move
    auto_actions = frozenset({"roll"})
    #: the menus of a turn (the issue of a flat list of 18-32 choices): what to play, to discard, to
    #: freeze or thaw, to restore, and the attacks and combos
    GROUPS = {"play": "play", "play_two": "play", "play_table": "play", "discard": "discard",
              "freeze": "freeze", "freeze_all": "freeze", "combo_freeze": "freeze", "thaw": "thaw",
              "attack": "attack", "combo": "attack", "restore_health": "restore", "restore_sphere": "restore",
              "give": "give", "swap_give": "give", "flush_discard": "flush", "flush_done": "flush"}

    def choice_group(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        return cast("str", self.GROUPS.get(action["type"], action["type"]))

    def picture(self, view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str) -> Any | None:
        from . import picture  # the drawing library is loaded only where a picture is drawn

        draw = {"table": picture.table, "hand": picture.hand}.get(kind)
        return draw(view, locale, names) if draw is not None else None

    def setup(self, state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
        catalogue()
        setup(state, ctx, stack)

    def correspond(self, options: dict[str, Any], given: frozenset[str], clock: float | None) -> None:
        """CG-36: rule 8's ten seconds become the table's clock (``off``: the clock already times every decision,
        and a term from the turn's start would cut a later decision below it) or, without a clock,
        ``async_turn_hours``; the Clock's five minutes become ``clock_turns`` of the owner's turns."""
        choice(self.name, options, given, "turn_clock", "live", "off" if clock else "async")
        if clock is not None and options["turn_clock"] == "async":
            raise refuse(self.name, "turn_clock", "async", "under_clock", clock=clock)
        choice(self.name, options, given, "clock_mode", "live", "turns")

    def to_act(self, state: dict[str, Any]) -> list[Pending]:
        if state["outcome"] is not None:
            return []
        stage = state["turn"]["stage"]
        return [Pending(awaited_seat(state), _KIND.get(stage, "choice"), deadline(state),
                        f"claygod.prompt.{stage}")]

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
        if self._clock_struck(state, ctx):
            return
        if self._turn_clock_ran_out(state, ctx):
            # Rule 8: the decision came after its time; it is lost as if the timeout had come first (CG-26).
            forfeit(state, seat, ctx)
            return
        apply_action(state, seat, action, ctx)

    def _timeout(self, state: dict[str, Any], seat: int, ctx: Ctx) -> None:
        if not self._clock_struck(state, ctx):
            forfeit(state, seat, ctx)

    @staticmethod
    def _turn_clock_ran_out(state: dict[str, Any], ctx: Ctx) -> bool:
        """Rule 8's time is up for the decision awaited now (a live Clock that ran out is struck before)."""
        due = deadline(state)
        return due is not None and ctx.now >= due

    @staticmethod
    def _clock_struck(state: dict[str, Any], ctx: Ctx) -> bool:
        """A live Clock that ran out ends the game before anything else happens (ruling CG-25)."""
        owners = expired_live_clocks(state, ctx.now)
        if owners:
            clock_ran_out(state, owners, ctx)
        return bool(owners)

    def _view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return view.build(state, seat)

    def unseen_variant(self, state: dict[str, Any], seat: int | None, rng: Any) -> dict[str, Any]:
        return view.unseen_variant(state, seat, rng)

    def check_invariants(self, state: dict[str, Any]) -> None:
        view.check_invariants(state)

    def check_position(self, state: dict[str, Any], template: dict[str, Any]) -> None:
        position.check(state, template)

    def bot_action(self, state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
        return bot.choose(state, seat, rng)

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any], locale: str,
                        names: Sequence[str] = ()) -> str:
        return render.describe_action(state, seat, action, locale)

    def render_view(self, view_: Mapping[str, Any], locale: str, names: Sequence[str], *,
                    full: bool = False) -> str:
        return render.render_view(view_, locale, names, full=full)

    def render_event(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        return render.render_event(event, locale, names)


GAME = ClayGod()
