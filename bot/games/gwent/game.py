"""The Gwent engine as the referee core sees it: options, set-up, whose decision it is, actions, views."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine import Code, Ctx, Game, GameFacts, Option, Pending, Reject
from bot.engine.pace import PACE, timer

from . import bot, position, render, table, view
from .actions import apply_action, legal_actions
from .cards import FACTIONS, catalogue
from .migrations import MIGRATIONS
from .scoring import scores
from .setup import begin
from .state import empty_rows, empty_slots

FACTION_CHOICES = ("choose", "random", *FACTIONS)


class Gwent(Game):
    name = "gwent"
    min_seats = 2
    max_seats = 2
    options = (
        Option("variant", "choice", "standard", choices=("standard", "hardgwent")),
        Option("faction_a", "choice", "choose", choices=FACTION_CHOICES),
        Option("faction_b", "choice", "choose", choices=FACTION_CHOICES),
        Option("deck", "choice", "preset", choices=("preset", "build")),
        Option("mulligan", "choice", "exchange", choices=("exchange", "redraw")),
        Option("end_when_ahead", "bool", True),
        Option("emperor_reveal", "choice", "opponent_choice", choices=("opponent_choice", "random")),
        Option("emperor_shown_to", "choice", "thread", choices=("thread", "owner")),
        Option("empty_hand_take", "choice", "autopass", choices=("autopass", "play_pass", "play")),
        Option("treacherous_crach", "bool", False),
        Option("scorch_spares_zero", "bool", False),
        Option("bran_weather_floor", "bool", False),
        Option("cow", "bool", False),
        Option("turn_seconds", "int", 0, min=0, max=7 * 24 * 3600),
        PACE,                                                                            # GW-35
    )
    rules_version = 3
    facts = GameFacts(rating="duel", listed=2, pictures=True)
    migrations = MIGRATIONS
    stack_keys = ("decks",)
    max_actions = 600
    #: the mulligan's second half when a single distinct card can be taken: private to its player, and the
    #: public sees nothing of the mulligan's steps, so taking it at once tells nobody anything
    auto_actions = frozenset({"mulligan_take"})

    def correspond(self, options: dict[str, Any], given: frozenset[str], clock: float | None) -> None:
        """GW-35: the decision's seconds give way to the table's clock."""
        timer(self.name, options, given, "turn_seconds", clock)

    def milestone(self, event: Mapping[str, Any]) -> str | None:
        """A round's end: the field as it stood at the end (the same step clears it for the next round)."""
        return "before" if event["kind"] == "round_end" else None

    def confirm(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> bool:
        """A pass ends the player's round for good (no card may follow it in that round): asked twice when it
        gives the round up — always in HardGwent, as before; in the standard game when the player holds cards
        and does not lead (a pass while leading is the usual way to keep cards for later, and asking there
        would cost a click in most rounds).  A confirmation of the interface; the rule is unchanged."""
        if action.get("type") != "pass":
            return False
        if state["options"]["variant"] == "hardgwent":
            return True
        score = scores(state)
        return bool(state["hand"][seat]) and score[seat] <= score[1 - seat]

    # ------------------------------------------------------------------ set-up
    def check_options(self, options: dict[str, Any]) -> None:
        if options["variant"] == "hardgwent" and options["deck"] == "build":
            # Rule book, HardGwent 2: the player must play the whole deck.
            raise Reject("gwent.reject.hardgwent_no_build", code=Code.BAD_OPTIONS, rule="§8")

    def picture(self, view: Mapping[str, Any], locale: str, names: Sequence[str], kind: str) -> Any | None:
        from . import picture  # the drawing library is loaded only where a picture is drawn

        draw = {"table": picture.table, "hand": picture.hand}.get(kind)
        return draw(view, locale, names) if draw is not None else None

    def setup(self, state: dict[str, Any], ctx: Ctx, stack: Mapping[str, Any]) -> None:
        catalogue()
        hardgwent = state["options"]["variant"] == "hardgwent"
        state.update({
            "variant": state["options"]["variant"], "phase": "setup",
            "players": [{"faction": None, "leaders": [], "leaders_used": [], "leader_round": False, "gems": 2,
                         "passed": False} for _ in (0, 1)],
            "setup": [], "cards": {}, "deck": [[], []], "aside": [[], []], "cand": [[], []], "hand": [[], []],
            "discard": [[], []], "rows": [empty_rows(), empty_rows()], "slots": [empty_slots(), empty_slots()],
            "weather": [], "weak_horn": [[], []],
            "round_fx": {"bran": [False, False], "hope": [False, False], "blocked": [False, False]},
            "no_summon": [], "round": 0, "starters": [], "turn": None, "turn_no": 0, "turn_in_round": 0,
            "stack": [], "draws_due": [], "revealed": [[], []], "mull": [None, None], "results": [],
            "keeper": None, "chooser": None, "next_token": 0, "since": [ctx.now, ctx.now],
            "journal": {"cur": [], "at": None, "last": None} if hardgwent else None,
        })
        begin(state, ctx, stack)

    # ------------------------------------------------------------------ who acts
    def to_act(self, state: dict[str, Any]) -> list[Pending]:
        if state["outcome"] is not None:
            return []
        return [Pending(seat, kind, self._deadline(state, seat), f"gwent.prompt.{prompt}")
                for seat, kind, prompt in _pending(state)]

    def _deadline(self, state: dict[str, Any], seat: int) -> float | None:
        secs = state["options"]["turn_seconds"]
        return state["since"][seat] + secs if secs else None

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any], ctx: Ctx) -> None:
        before = {s: prompt for s, _, prompt in _pending(state)}
        apply_action(state, seat, action, ctx)
        self._restart_clocks(state, before, seat, ctx)

    def _timeout(self, state: dict[str, Any], seat: int, ctx: Ctx) -> None:
        before = {s: prompt for s, _, prompt in _pending(state)}
        action = bot.default_action(state, seat)
        ctx.emit("timed_out", seat=seat)
        apply_action(state, seat, action, ctx)
        self._restart_clocks(state, before, seat, ctx)

    def judge_table(self, state: dict[str, Any]) -> dict[str, Any]:
        return table.build(state)

    def _restart_clocks(self, state: dict[str, Any], before: dict[int, str], actor: int, ctx: Ctx) -> None:
        """A seat's clock starts when it is asked something new, or after it acted in public.  After a private
        step (an exchange of a mulligan, a card shown to the Emperor) the actor keeps its clock: the deadline
        is public, and restarting it would tell the table when and how often the seat acted."""
        public = any(e["to"] is None for e in ctx.events)
        for seat, _, prompt in _pending(state):
            if before.get(seat) != prompt or (seat == actor and public):
                state["since"][seat] = ctx.now

    # ------------------------------------------------------------------ views
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


def _pending(state: dict[str, Any]) -> list[tuple[int, str, str]]:
    """(seat, kind, prompt) for every decision owed now."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "setup":
        return [(s, "choice", st["step"]) for s, st in enumerate(state["setup"]) if st["step"] != "ready"]
    if phase == "mulligan":
        return [(s, "choice", "mulligan") for s in (0, 1) if not state["mull"][s]["done"]]
    if phase == "first":
        return [(state["chooser"], "choice", "first")]
    if phase == "keep":
        return [(state["keeper"], "choice", "keep")]
    if state["stack"]:
        top = state["stack"][-1]
        return [(top["seat"], "choice", top["kind"])]
    turn = state["turn"]
    # HardGwent's double move: the player is told that this turn takes two cards.
    prompt = "second_card" if turn["played"] else "two_cards" if turn["need"] == 2 else "turn"
    return [(turn["seat"], "turn", prompt)]


GAME = Gwent()
