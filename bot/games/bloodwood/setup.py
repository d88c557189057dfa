"""Preparing the table (§1): decks, the deal, the role cards (by lot or by the host under the winner's
rule), the leaders' look at every role, and the first player."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from bot.engine import Code, Ctx, Reject

from .cards import TEAMS, catalogue, rule
from .flow import open_step, start_turn
from .state import State, give, new_state_keys

HOST = 0  # the first seat: the table's creator (BW-29)


def composition(seats: int, leaders: bool, larger: str) -> dict[str, int]:
    """The role cards for ``seats`` players (§1.4, BW-2): equal teams, each led by Dracula / The Alpha; with
    an odd count the larger team (``larger``) has no leader; the leaderless variant only with an even
    count (BW-3)."""
    cat = catalogue()
    counts: dict[str, int] = {}
    for team in TEAMS:
        size = (seats + 1) // 2 if (seats % 2 and team == larger) else seats // 2
        led = leaders if seats % 2 == 0 else team != larger
        counts[cat.role_of(team, False)] = size - led
        counts[cat.role_of(team, True)] = int(led)
    return counts


def role_cards(counts: Mapping[str, int]) -> list[str]:
    return [role for role, n in counts.items() for _ in range(n)]


def setup(state: State, ctx: Ctx, stack: Mapping[str, Any]) -> None:
    seats = state["seats"]
    decks = {deck: _deck(ctx, stack, deck) for deck in ("day", "night")}
    state.update(new_state_keys(seats, decks))
    for deck in ("day", "night"):
        ctx.emit("deck_order", to=(), deck=deck, order=list(decks[deck]))
    counts = _composition(state, ctx, stack)
    state["composition"] = counts
    ctx.emit("composition", counts={r: n for r, n in counts.items() if n})
    _deal_cards(state, ctx)
    options = state["options"]
    if "roles" in stack:
        deal_roles(state, ctx, list(stack["roles"]), how="stacked")
    elif options["role_deal"] == "host":
        open_step(state, ctx, "assign", seat=HOST, roles=[])
        ctx.emit("host_assigns", seat=HOST)
        return
    else:
        roles = role_cards(counts)
        ctx.rng.shuffle(roles, "bloodwood.roles")
        deal_roles(state, ctx, roles, how="lot")
    choose_first(state, ctx)


def _deck(ctx: Ctx, stack: Mapping[str, Any], deck: str) -> list[str]:
    """The deck's order: shuffled under its tag; a stacked ``<deck>_deck`` gives the top cards (all 68, or
    just the first few: the rest of the deck follows them, shuffled)."""
    cards = catalogue().deck_list(deck)
    key = f"{deck}_deck"
    if key not in stack:
        ctx.rng.shuffle(cards, f"bloodwood.{deck}_deck")
        return cards
    top = stack[key]
    if not isinstance(top, list):
        raise Reject("bloodwood.reject.bad_stack", code=Code.BAD_SETUP, key=key)
    rest = Counter(cards)
    for card in map(str, top):
        if card not in rest:
            raise Reject("bloodwood.reject.stack_unknown_card", code=Code.BAD_SETUP, key=key, card=card)
        if rest[card] == 0:
            raise Reject("bloodwood.reject.stack_too_many", code=Code.BAD_SETUP, key=key, card=card,
                         copies=Counter(cards)[card])
        rest[card] -= 1
    tail = list(rest.elements())
    if tail:
        ctx.rng.shuffle(tail, f"bloodwood.{deck}_deck")
    return [str(card) for card in top] + tail


def _composition(state: State, ctx: Ctx, stack: Mapping[str, Any]) -> dict[str, int]:
    seats, leaders = state["seats"], state["options"]["leaders"]
    if "roles" in stack:
        roles = stack["roles"]
        valid = [composition(seats, leaders, larger) for larger in TEAMS]
        if not isinstance(roles, list) or not any(Counter(map(str, roles)) == Counter(role_cards(c)) for c in valid):
            raise Reject("bloodwood.reject.stack_roles", code=Code.BAD_SETUP, seats=seats,
                         roles=" / ".join(", ".join(f"{n} {r}" for r, n in c.items() if n) for c in valid))
        return next(c for c in valid if Counter(roles) == Counter(role_cards(c)))
    larger = ctx.rng.choice(list(TEAMS), "bloodwood.larger_team") if seats % 2 else TEAMS[0]
    return composition(seats, leaders, larger)


def _deal_cards(state: State, ctx: Ctx) -> None:
    """2 day + 2 night cards each (§1.7): seat 1 takes the top two of each deck, seat 2 the next two, …"""
    for deck, count in (("day", rule("deal_day")), ("night", rule("deal_night"))):
        for seat in range(state["seats"]):
            for _ in range(count):
                give(state, seat, state["decks"][deck].pop(0))
    for seat in range(state["seats"]):
        ctx.emit("dealt", to=[seat], seat=seat, cards=list(state["hands"][seat]))
    ctx.emit("cards_dealt", day=rule("deal_day"), night=rule("deal_night"))


def deal_roles(state: State, ctx: Ctx, roles: list[str], how: str) -> None:
    """Each seat learns its role by a private message; then each leader privately sees every role (the
    eyes-closed step of §1.6, done by DM)."""
    state["roles"] = roles
    ctx.emit("roles_dealt", how=how)
    for seat, role in enumerate(roles):
        ctx.emit("role", to=[seat], seat=seat, role=role)
    leaders = [s for s, role in enumerate(roles) if catalogue().is_leader(role)]
    for seat in leaders:
        ctx.emit("leader_sight", to=[seat], seat=seat, roles=list(roles))
    if leaders:
        ctx.emit("leaders_looked", count=len(leaders))


def assign_role(state: State, ctx: Ctx, role: str) -> None:
    step = state["step"]
    step["roles"].append(role)
    if len(step["roles"]) == state["seats"]:
        state["assigner"] = step["seat"]
        deal_roles(state, ctx, step["roles"], how="host")
        # Under the winner's rule the same player also picks the first player (§9.3).
        open_step(state, ctx, "first", seat=HOST)


def unassigned(state: State) -> list[str]:
    """The role cards the host has not given out yet, one entry per card."""
    left = Counter(role_cards(state["composition"]))
    left.subtract(state["step"]["roles"])
    return sorted(left.elements())


def choose_first(state: State, ctx: Ctx) -> None:
    if state["options"]["first_player"] == "host":
        open_step(state, ctx, "first", seat=HOST)
    else:
        begin(state, ctx, ctx.rng.randint(0, state["seats"] - 1, "bloodwood.first"), how="lot")


def begin(state: State, ctx: Ctx, first: int, how: str) -> None:
    ctx.emit("first_player", seat=first, how=how)
    ctx.emit("phase", phase=state["phase"])
    start_turn(state, ctx, first)
