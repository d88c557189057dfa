"""The Bloodwood table state and the small operations every rule uses: moving cards, drawing, teams.

The game's own keys (besides the framework's):

    roles        the role id of every seat, or None while the host assigns them (secret)
    composition  how many of each role card are in the game (public, BW-4)
    assigner     the seat that assigned the roles (winner's rule), or None
    dna          per seat "pure" | "mutated" | "forever" (public)
    curse        per seat None or {"left": turns to get rid of it, "since": turn number it arrived in}
    chains, sleep   per seat bool: Chains / a Tranquilizer lying in front of the player (public)
    hands        per seat, the card ids held, sorted (secret; the day/night backs are public, BW-5)
    decks        {"day": [...], "night": [...]}, the top card first (secret)
    discard      the face-up discard pile, the oldest first (public, BW-6)
    in_flight    the night card waiting for its target's answer: {"card", "player", "target"} or None
    phase, direction, phase_turns   "day"/"night", +1 clockwise / -1, turns taken in the current phase
    turn         {"seat", "no", "extra"}: whose turn, its number, and the special card that gave an extra turn
    turn_no      how many turns have begun (a skipped turn is a turn)
    step         the decision owed now (see flow.py), or None once the game is over
    known        [viewer, subject] pairs: who has seen whose role through Blood Test / Confession (public)
    confessed    per seat, the players it has confessed to
"""
from __future__ import annotations

from typing import Any, cast

from bot.engine import Ctx
from bot.engine.contract import State as State  # noqa: PLC0414 -- an explicit re-export

from .cards import catalogue, rule


def back(cid: str) -> str:
    """The deck a card belongs to, which is also the back everyone sees."""
    return catalogue().backs[cid]


def hand_backs(state: State, seat: int) -> dict[str, int]:
    """How many day-back and night-back cards a hand holds (public, BW-5)."""
    backs = catalogue().backs
    night = sum(backs[c] == "night" for c in state["hands"][seat])
    return {"day": len(state["hands"][seat]) - night, "night": night}


def public_player(state: State, seat: int) -> dict[str, Any]:
    """What everyone can see of a player: DNA, the marks in front of him, his hand's backs, whom he has
    confessed to.  The same facts decide which cards may target him (rules.target_condition)."""
    curse = state["curse"][seat]
    return {"dna": state["dna"][seat], "curse": curse["left"] if curse else None, "chains": state["chains"][seat],
            "asleep": state["sleep"][seat], "hand": hand_backs(state, seat),
            "confessed_to": list(state["confessed"][seat])}


def available(state: State, deck: str) -> int:
    """How many cards ``deck`` can still give: its own and, once it runs out, its discarded cards."""
    backs = catalogue().backs
    return len(state["decks"][deck]) + sum(backs[c] == deck for c in state["discard"])


def take(state: State, seat: int, cid: str) -> None:
    state["hands"][seat].remove(cid)


def give(state: State, seat: int, cid: str) -> None:
    hand = state["hands"][seat]
    hand.append(cid)
    hand.sort()


def to_discard(state: State, cid: str) -> None:
    state["discard"].append(cid)


def decks_to_draw(state: State) -> list[str]:
    return [d for d in ("day", "night") if available(state, d)]


def draw(state: State, ctx: Ctx, seat: int, deck: str) -> None:
    """One card from the top of ``deck`` into the seat's hand (the table sees only the deck).  The deck
    is rebuilt from the discard the moment its last card is drawn (§1.1); with the table option
    ``reshuffle: draw``, or when there was nothing to rebuild it with then, at the next draw (BW-6)."""
    if not state["decks"][deck]:
        reshuffle(state, ctx, deck, rule="BW-6")
    cid = state["decks"][deck].pop(0)
    give(state, seat, cid)
    ctx.emit("draw", seat=seat, deck=deck)
    ctx.emit("drew", to=[seat], seat=seat, card=cid)
    if not state["decks"][deck] and state["options"]["reshuffle"] == "empty":
        reshuffle(state, ctx, deck, rule="§1.1")


def reshuffle(state: State, ctx: Ctx, deck: str, rule: str) -> None:
    """Rebuild the empty ``deck`` from the discarded cards of its back, shuffled; the other back's cards
    stay in the pile (BW-6).  Nothing happens while none of them has been discarded."""
    cards = [c for c in state["discard"] if back(c) == deck]
    if not cards:
        return
    state["discard"] = [c for c in state["discard"] if back(c) != deck]
    ctx.rng.shuffle(cards, f"bloodwood.{deck}_reshuffle")
    state["decks"][deck] = cards
    ctx.emit("reshuffled", deck=deck, count=len(cards), rule=rule)
    ctx.emit("deck_order", to=(), deck=deck, order=list(state["decks"][deck]))


def team_of(state: State, seat: int) -> str:
    return catalogue().team(state["roles"][seat])


def team_seats(state: State, team: str) -> list[int]:
    return [s for s in range(state["seats"]) if team_of(state, s) == team]


def is_leader(state: State, seat: int) -> bool:
    return state["roles"] is not None and catalogue().is_leader(state["roles"][seat])


def known_roles(state: State, viewer: int | None) -> set[int]:
    """The seats whose role ``viewer`` (None = the public) may see: its own, those shown to it by Blood Test
    or Confession, everyone's for a leader (§1.6) or the host who assigned them, all once the game is over."""
    seats = state["seats"]
    if state["roles"] is None:
        return set()
    if state["outcome"] is not None:
        return set(range(seats))
    if viewer is None:
        return set()
    if viewer == state["assigner"] or is_leader(state, viewer):
        return set(range(seats))
    return {viewer} | {subject for v, subject in state["known"] if v == viewer}


def is_pure(state: State, seat: int) -> bool:
    return bool(state["dna"][seat] == "pure")


def others(state: State, seat: int) -> list[int]:
    return [s for s in range(state["seats"]) if s != seat]


def next_seat(state: State, seat: int) -> int:
    return cast("int", (seat + state["direction"]) % state["seats"])


def fresh_curse(state: State) -> dict[str, int]:
    return {"left": rule("curse_turns"), "since": state["turn_no"]}


def mark_cards(state: State) -> list[str]:
    """The cards lying in front of players as marks (Curse Mark, Chains, Tranquilizer)."""
    cards = []
    for seat in range(state["seats"]):
        if state["curse"][seat]:
            cards.append("curse_mark")
        if state["chains"][seat]:
            cards.append("chains")
        if state["sleep"][seat]:
            cards.append("tranquilizer")
    return cards


def all_cards(state: State) -> list[str]:
    """Every card of both decks wherever it is: decks, hands, discard, marks, the card in flight."""
    cards = [*state["decks"]["day"], *state["decks"]["night"], *state["discard"], *mark_cards(state)]
    for hand in state["hands"]:
        cards += hand
    if state["in_flight"]:
        cards.append(state["in_flight"]["card"])
    return cards


def turn_seat(state: State) -> int | None:
    return state["turn"]["seat"] if state["turn"] else None


def running_turn_seat(state: State) -> int:
    """The seat whose turn it is, where a turn is known to be running (its play, draws, trim and end)."""
    seat = turn_seat(state)
    if seat is None:
        raise ValueError("no turn is running")
    return seat


def new_state_keys(seats: int, decks: dict[str, list[str]]) -> dict[str, Any]:
    return {
        "roles": None, "composition": {}, "assigner": None,
        "dna": ["pure"] * seats, "curse": [None] * seats, "chains": [False] * seats, "sleep": [False] * seats,
        "hands": [[] for _ in range(seats)], "decks": decks, "discard": [], "in_flight": None,
        "phase": "day", "direction": 1, "phase_turns": 0, "turn": None, "turn_no": 0, "step": None,
        "known": [], "confessed": [[] for _ in range(seats)],
    }
