"""Bridges: Soul as the referee core sees it: options (rulings where tables differ), set-up, who acts, actions,
views.  The referee is also the game master: it plays the five bosses in the neutral phase (bosses.py)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine import Ctx, Game, GameFacts, Option, Pending, Rejection
from bot.engine.pace import PACE, timer

from . import bot, position, render, view
from .actions import ap_left_to_spend, apply_action, legal_actions, receiving, timeout
from .data import catalogue
from .migrations import MIGRATIONS
from .setup import STACK_KEYS, setup


class Bridges(Game):
    name = "bridges"
    min_seats = 1
    max_seats = 12
    options = (
        Option("classes", "choice", "choose", choices=("choose", "random")),               # BR-2
        Option("duplicates", "choice", "free", choices=("free", "even")),                  # BR-2
        Option("phase_end", "choice", "spend", choices=("spend", "explicit", "auto")),     # BR-1
        Option("zero_ap", "choice", "end", choices=("end", "wait", "referee")),            # BR-1
        Option("bomb_timing", "choice", "next_round", choices=("next_round", "neutral")),  # BR-13
        Option("casserole", "choice", "retaliates", choices=("retaliates", "counter_only")),  # BR-9
        Option("tie_break", "choice", "acted", choices=("acted", "moved")),                # BR-11
        Option("boss_order", "choice", "islands", choices=("islands", "list")),            # BR-23
        Option("master_camp", "choice", "free", choices=("free", "pay")),                  # BR-20
        Option("arm_trade", "choice", "bank", choices=("bank", "owned")),                  # BR-21
        Option("phase_seconds", "int", 0, min=0, max=7 * 24 * 3600),                       # BR-33
        PACE,                                                                               # BR-34
    )
    rules_version = 4
    migrations = MIGRATIONS
    stack_keys = STACK_KEYS
    optional_state_keys = frozenset({"pending_stack"})  # a stack kept while the classes are chosen
    max_actions = 4000
    #: the players win or lose together against the bosses (a tournament scores every seat alike; R-5: statistics
    #: only).  The conformance suite plays 1-6 seats (the engine takes 1-12; 7-12 are covered by the game's tests);
    #: a playout is a few hundred actions with a look-ahead bot: 24 took about 40 s, so 12 (every one checked in
    #: depth, each seat count twice) keep CI within its budget
    facts = GameFacts(cooperative=True, rating="none", listed=5, demo_seats=2, conformance_seats=tuple(range(1, 7)),
                      conformance_playouts=12, pictures=True)
    #: the referee ends a phase by itself (forced_action): at 0 AP under ``zero_ap: referee`` (and a seat left at
    #: 0 AP by an upgrade from it), or when End is all
    auto_actions = frozenset({"end"})

    def correspond(self, options: dict[str, Any], given: frozenset[str], clock: float | None) -> None:
        """BR-34: a phase's seconds give way to the table's clock."""
        timer(self.name, options, given, "phase_seconds", clock)

    def milestone(self, event: Mapping[str, Any]) -> str | None:
        """None: a round's end is no post of its own (issue 35: a 20-line board in the thread every round, 31 posts
        in a game).  The board stands after the step that ends the round, so the live message, edited at that
        step, is that board, with the bosses' turn and the new round in its last lines."""
        return None

    def picture(self, view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str) -> Any | None:
        from . import picture  # the drawing library is loaded only where a picture is drawn

        draw = {"table": picture.table}.get(kind)
        return draw(view, locale, names) if draw is not None else None

    def setup(self, state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
        catalogue()
        setup(state, ctx, stack)

    def to_act(self, state: dict[str, Any]) -> list[Pending]:
        if state["outcome"] is not None:
            return []
        seconds = state["options"]["phase_seconds"]
        deadline = state["opened"] + seconds if seconds else None
        if state["phase"] == "choose":
            return [Pending(s, "choice", deadline, "bridges.prompt.choose")
                    for s, c in enumerate(state["chars"]) if not c["cls"]]
        auto = state["options"]["zero_ap"] != "wait" or state["options"]["phase_end"] == "auto"
        prompt = "bridges.prompt.actions_auto" if auto else "bridges.prompt.actions"
        return [Pending(s, "turn", deadline, prompt) for s, c in enumerate(state["chars"]) if not c["done"]]

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

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

    def judge_table(self, state: dict[str, Any]) -> dict[str, Any]:
        return view.judge_table(state)

    def bot_action(self, state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
        return bot.choose(self, state, seat, rng)

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any], locale: str,
                        names: Sequence[str] = ()) -> str:
        return render.describe_action(state, seat, action, locale, names)

    def render_view(self, view_: Mapping[str, Any], locale: str, names: Sequence[str], *,
                    full: bool = False) -> str:
        return render.render_view(view_, locale, names, full=full)

    def render_event(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        return render.render_event(event, locale, names)

    def render_event_detail(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        return render.render_event(event, locale, names, detail=True)

    def choice_group(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        """One menu per kind of decision (i18n keys bridges.group.<name>)."""
        return _GROUPS.get(action.get("type"), "other")

    def forced_action(self, state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Under ``zero_ap: referee`` (rules version 3's ``end``, BR-1) a seat whose AP are spent has its phase
        ended by the referee at once, as a forced move (recorded under the user ``auto``, when the table's
        ``auto_forced`` setting is on); under ``zero_ap: end`` the engine ends it in the action that spends the
        last AP, and the forced move is left only for a seat an upgrade found at 0 AP with its phase open (not
        while it may put on an item it has just received: that moment is its choice, BR-4); and, as in every
        game, a seat whose only choice is End.  The game is open: a forced End tells nobody anything."""
        zero_ap = state["options"]["zero_ap"]
        if (state["phase"] == "actions" and zero_ap != "wait" and state["chars"][seat]["ap"] == 0 and END in legal
                and not (zero_ap == "end" and receiving(state, seat))):
            return dict(END)
        return super().forced_action(state, seat, legal)

    def confirm(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> bool:
        """Ending one's phase while something could still be done with its AP gives them up for the round
        (BR-1): asked twice.  With nothing left to spend them on, nothing is given up: no question."""
        return action.get("type") == "end" and ap_left_to_spend(state, seat)

    def out_of_turn(self, state: dict[str, Any], seat: int, action: Any) -> Rejection:
        return super().out_of_turn(state, seat, action)


END = {"type": "end"}

#: the menu of each action type (an action may lack one: a malformed action falls in "other")
_GROUPS: dict[str | None, str] = {
    "choose": "choose", "end": "end", "attack": "fight", "mark": "fight", "trap": "fight",
    "move": "move", "spring": "move", "launch": "move", "push": "move",
    "buy": "shop", "blueprints": "shop", "camp": "shop", "dismantle": "shop",
    "equip": "gear", "unequip": "gear", "guard": "gear",
    "use": "items", "bomb": "items", "launch_item": "items", "charge": "items", "build": "items"
}


GAME = Bridges()
