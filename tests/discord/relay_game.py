"""A test game with what the toy lacks: many choices (more than 25, so the Discord layer must page them)
and an out-of-turn window owed by a seat that is not the active one.

"Relay": in turn, a seat picks a number from 1..choices; then the seat *before* it reacts (allow or
double) before the next seat picks.  Each seat also holds a secret number dealt privately at the start.
Registered only for the tests that use it (see the ``relay`` fixture), so it never joins other suites.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine import Ctx, Game, Option, Pending, Reject, State


class Relay(Game):
    name = "relay"
    min_seats = 2
    max_seats = 3
    options = (Option("choices", "int", 40, min=2, max=200), Option("rounds", "int", 1, min=1, max=5))

    def setup(self, state: State, ctx: Ctx, stack: Mapping[str, Any]) -> None:
        n = state["seats"]
        state.update(turn=0, picks=[], reaction=None, total=0,
                     secrets=[ctx.rng.randint(1000, 9999, "relay.secret") for _ in range(n)])
        for seat in range(n):
            ctx.emit("secret", to=(seat,), seat=seat, value=state["secrets"][seat])

    def to_act(self, state: State) -> list[Pending]:
        if state["outcome"] is not None:
            return []
        if state["reaction"] is not None:
            return [Pending(state["reaction"], "reaction", prompt="relay.prompt.react")]
        return [Pending(state["turn"], "turn", prompt="relay.prompt.pick")]

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if state["outcome"] is not None:
            return []
        if state["reaction"] is not None:
            return [{"type": "allow"}, {"type": "double"}] if seat == state["reaction"] else []
        if seat != state["turn"]:
            return []
        return [{"type": "pick", "n": i} for i in range(1, state["options"]["choices"] + 1)]

    def _apply(self, state: State, seat: int, action: dict, ctx: Ctx) -> None:
        if action not in self.legal_actions(state, seat):
            raise Reject("core.reject.illegal")
        n = state["seats"]
        if action["type"] == "pick":
            state["picks"].append(action["n"])
            state["total"] += action["n"]
            state["reaction"] = (seat - 1) % n
            ctx.emit("picked", seat=seat, n=action["n"])
            return
        if action["type"] == "double":
            state["total"] += state["picks"][-1]
        ctx.emit("reacted", seat=seat, how=action["type"])
        state["reaction"] = None
        state["turn"] = (state["turn"] + 1) % n
        if len(state["picks"]) >= n * state["options"]["rounds"]:
            state["outcome"] = {"winners": [0] if state["total"] % 2 else [1], "reason": "relay.end",
                                "params": {}, "scores": {"total": state["total"]}}

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"picks": list(state["picks"]), "total": state["total"], "turn": state["turn"],
                "secret": state["secrets"][seat] if seat is not None else None}

    def unseen_variant(self, state: State, seat: int | None, rng: Any) -> State:
        raise NotImplementedError

    def render_view(self, view: Mapping[str, Any], locale: str, names: Sequence[str], *, full: bool = False) -> str:
        return f"picks={view['picks']} total={view['total']} secret={view['secret']}"

    def describe_action(self, state: State, seat: int, action: dict, locale: str, names=()) -> str:
        return f"pick {action['n']}" if action["type"] == "pick" else action["type"]

    def render_event(self, event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
        d = event["data"]
        if event["kind"] == "secret":
            return f"secret number {d['value']}"
        if event["kind"] == "picked":
            return f"{names[d['seat']]} picked {d['n']}"
        if event["kind"] == "reacted":
            return f"{names[d['seat']]} chose {d['how']}"
        return None


RELAY = Relay()
