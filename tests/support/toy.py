"""A tiny hidden-hand game used to test the core without depending on a real game's rules.

"High card": every seat is dealt three cards from 1..12 (hidden); in turn each plays one face up; after
everyone has played, the highest card takes the trick; three tricks; most tricks wins (ties share).
Option ``turn_seconds`` gives each turn a live deadline; on timeout the lowest card is played for the seat.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine import Code, Ctx, Game, Option, Pending, Reject, State


class Toy(Game):
    name = "toy"
    min_seats = 2
    max_seats = 4
    options = (Option("turn_seconds", "int", 0, min=0, max=3600), Option("tricks", "int", 3, min=1, max=3))
    stack_keys = ("deck",)
    max_actions = 100

    def setup(self, state: State, ctx: Ctx, stack: Mapping[str, Any]) -> None:
        deck = stack.get("deck") or list(range(1, 13))
        if not isinstance(deck, list) or sorted(map(repr, deck)) != sorted(map(repr, range(1, 13))):
            raise Reject("core.reject.bad_stack", code=Code.BAD_SETUP, key="deck")
        if "deck" not in stack:
            ctx.rng.shuffle(deck, "toy.deck")
        ctx.emit("shuffled", to=(), order=list(deck))
        n = state["seats"]
        state["hands"] = [sorted(deck[i * 3:(i + 1) * 3]) for i in range(n)]
        state["deck"] = deck[n * 3:]
        state["table"] = [None] * n
        state["tricks"] = [0] * n
        state["turn"] = ctx.rng.randint(0, n - 1, "toy.first")
        state["leader"] = state["turn"]
        state["since"] = ctx.now
        ctx.emit("first", seat=state["turn"])
        for seat in range(n):
            ctx.emit("dealt", to=(seat,), seat=seat, cards=state["hands"][seat])

    def to_act(self, state: State) -> list[Pending]:
        if state["outcome"] is not None:
            return []
        secs = state["options"]["turn_seconds"]
        return [Pending(state["turn"], deadline=state["since"] + secs if secs else None)]

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if seat != state["turn"] or state["outcome"] is not None:
            return []
        return [{"type": "play", "card": c} for c in state["hands"][seat]]

    def _apply(self, state: State, seat: int, action: dict, ctx: Ctx) -> None:
        if action["type"] != "play":
            raise Reject("core.reject.malformed")
        card = action.get("card")
        if card not in state["hands"][seat]:
            raise Reject("core.reject.illegal", rule="toy §1")
        self._play(state, seat, card, ctx)

    def _timeout(self, state: State, seat: int, ctx: Ctx) -> None:
        ctx.emit("timed_out", seat=seat)
        self._play(state, seat, min(state["hands"][seat]), ctx)

    def _play(self, state: State, seat: int, card: int, ctx: Ctx) -> None:
        state["hands"][seat].remove(card)
        state["table"][seat] = card
        ctx.emit("played", seat=seat, card=card)
        n = state["seats"]
        state["since"] = ctx.now
        if all(c is not None for c in state["table"]):
            winner = max(range(n), key=lambda s: state["table"][s])
            state["tricks"][winner] += 1
            ctx.emit("trick", seat=winner)
            state["table"] = [None] * n
            state["turn"] = state["leader"] = winner
            if sum(state["tricks"]) >= state["options"]["tricks"]:
                best = max(state["tricks"])
                state["outcome"] = {"winners": [s for s in range(n) if state["tricks"][s] == best],
                                    "reason": "toy.win", "params": {}, "scores": {"tricks": state["tricks"]}}
        else:
            state["turn"] = (seat + 1) % n

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in state["hands"]],
            "table": list(state["table"]), "tricks": list(state["tricks"]), "turn": state["turn"],
        }

    def unseen_variant(self, state: State, seat: int | None, rng: Any) -> State:
        from bot.engine import clone

        new = clone(state)
        pool = list(new["deck"])
        others = [s for s in range(new["seats"]) if s != seat]
        for s in others:
            pool += new["hands"][s]
        rng.shuffle(pool)
        for s in others:
            k = len(new["hands"][s])
            new["hands"][s], pool = sorted(pool[:k]), pool[k:]
        new["deck"] = pool
        return new

    def check_invariants(self, state: State) -> None:
        cards = list(state["deck"]) + [c for h in state["hands"] for c in h]
        cards += [c for c in state["table"] if c is not None]
        played = sum(state["tricks"]) * state["seats"]
        assert len(cards) + played == 12, "cards were created or lost"

    def render_view(self, view: Mapping[str, Any], locale: str, names: Sequence[str], *, full: bool = False) -> str:
        owed = ", ".join(names[p["seat"]] for p in view.get("to_act") or [])
        return f"table={view['table']} tricks={view['tricks']} hand={view['hand']}" + (f"\nto act: {owed}" if owed else "")

    def describe_action(self, state: State, seat: int, action: dict, locale: str, names=()) -> str:
        return f"play {action['card']}"


TOY = Toy()
