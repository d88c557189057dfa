"""What may be played on one's own turn, and on whom.  Each check returns the rejection that explains a
refusal (or None), so that the legal lists and the refusals can never disagree."""
from __future__ import annotations

from typing import Any, Mapping

from bot.engine import Reject

from .cards import ATTACKS, SPECIALS, card, name
from .state import State, hand_backs, others, public_player, turn_seat


def play_problem(state: State, seat: int, cid: str) -> Reject | None:
    """Why ``seat`` may not play ``cid`` now (ignoring targets), or None."""
    c = card(cid)
    if cid not in state["hands"][seat]:
        return Reject("bloodwood.reject.not_in_hand", rule="§2", card=name(cid))
    if c.phase == "never":
        return Reject("bloodwood.reject.counter_only", rule=c.rule, card=name(cid))
    if c.phase not in ("any", state["phase"]):
        return Reject(f"bloodwood.reject.only_{c.phase}", rule=c.rule, card=name(cid))
    if c.phase == "night" and state["chains"][seat]:
        return Reject("bloodwood.reject.chained", rule="§6.3", card=name(cid))
    extra = state["turn"]["extra"]
    if c.kind in SPECIALS and extra == c.kind:
        return Reject("bloodwood.reject.two_in_a_row", rule=c.rule, card=name(cid))
    if c.kind in SPECIALS and extra and state["options"]["extra_turn_specials"] == "none":
        # The other special card: «дві такі карти» read as "two special cards" (BW-10).
        return Reject("bloodwood.reject.two_in_a_row", rule="BW-10", card=name(cid))
    if c.target != "none" and not legal_targets(state, seat, cid):
        return Reject("bloodwood.reject.no_target", rule=c.rule, card=name(cid))
    return None


def target_problem(state: State, seat: int, cid: str, target: int) -> Reject | None:
    """Why ``cid`` may not be played by ``seat`` on ``target``, or None (the card itself is playable)."""
    c = card(cid)
    if target == seat and c.target != "any":
        # Bite's own text forbids it (§6.1); for the other cards the book is silent (BW-14).
        return Reject("bloodwood.reject.not_on_self", rule=c.rule if c.kind == "bite" else "BW-14", card=name(cid))
    reason = _target_state_problem(state, c.kind, target)
    if reason:
        # A Thief on an empty hand is refused by a ruling; the other conditions are the cards' own texts.
        cite = "BW-15" if reason == "empty_hand" else c.rule
        return Reject(f"bloodwood.reject.target_{reason}", rule=cite, card=name(cid))
    return None


def _target_state_problem(state: State, kind: str, target: int) -> str | None:
    return target_condition(kind, public_player(state, target), state["seats"])


def target_condition(kind: str, player: Mapping[str, Any], seats: int) -> str | None:
    """The condition of a player (his public facts, state.public_player) that keeps a card from acting on
    him, or None (BW-15).  Also used for reflected cards, and by the bot on its view."""
    if kind in ("bite", "vaccine", "curse_mark") and player["dna"] == "forever":
        return "forever"
    if kind == "curse_mark" and player["curse"]:
        return "cursed"
    if kind == "chains" and player["chains"]:
        return "chained"
    if kind == "tranquilizer" and player["asleep"]:
        return "asleep"
    if kind == "candle" and not player["curse"]:
        return "not_cursed"
    if kind == "keys" and not player["chains"]:
        return "not_chained"
    if kind == "thief" and not (player["hand"]["day"] or player["hand"]["night"]):
        return "empty_hand"
    if kind == "confession" and len(player["confessed_to"]) >= seats - 1:
        return "confessed_to_all"  # never twice to the same player (§7.7), so everyone has seen it
    return None


def attack_has_effect(state: State, kind: str, target: int) -> bool:
    """Whether a night attack still does something to ``target`` (a reflected card may not, BW-18)."""
    return _target_state_problem(state, kind, target) is None


def legal_targets(state: State, seat: int, cid: str) -> list[int]:
    candidates = range(state["seats"]) if card(cid).target == "any" else others(state, seat)
    return [t for t in candidates if _target_state_problem(state, card(cid).kind, t) is None]


def playable(state: State, seat: int) -> list[str]:
    """The distinct cards ``seat`` may play now, in hand order."""
    return [cid for cid in dict.fromkeys(state["hands"][seat]) if play_problem(state, seat, cid) is None]


def confession_recipients(state: State, seat: int) -> list[int]:
    """Whom ``seat`` may still show its role to under Confession: never the same player twice (§7.7)."""
    return [s for s in others(state, seat) if s not in state["confessed"][seat]]


def counter_window_opens(state: State, target: int) -> bool:
    """Whether the target of a night attack is asked if it counters.  Decided on public facts only, so
    that opening (or not) says nothing about the target's hand (BW-17): a tranquilized player cannot
    defend (§6.4); a player whose hand shows no day back (Amulet) and no usable night back (Mirror, which
    Chains forbid) cannot hold a counter he may use."""
    if state["sleep"][target]:
        return False
    backs = hand_backs(state, target)
    return backs["day"] > 0 or (backs["night"] > 0 and not state["chains"][target])


def counter_refusal(state: State, seat: int, cid: str) -> Reject:
    """Why Mirror / Amulet cannot answer anything now, in the book's words (§6.8, §7.8): the window is
    another player's (no protecting others), the card being resolved is The Leshy or The Hunter (they
    attack nobody in particular) or a day card played on this seat; otherwise there is no attack to answer.
    Decided on public facts only: the step and whose it is."""
    c, step = card(cid), state["step"]
    kind = step["kind"] if step else None
    hunter = kind == "give" or (kind == "keep" and step["source"] == "hunter")
    day_card_on_seat = (
        (kind == "thief_back" and step["target"] == seat)
        or (kind == "confess" and step["seat"] == seat)
        or (kind == "draw" and step["seat"] == seat and seat != turn_seat(state))  # Pandora's Box on him
    )
    if kind == "counter":
        return Reject("bloodwood.reject.counter_not_for_others", rule=c.rule, card=name(cid))
    if kind == "leshy" or hunter:
        return Reject("bloodwood.reject.counter_not_leshy_hunter", rule=c.rule, card=name(cid),
                      attack=name("leshy" if kind == "leshy" else "hunter"))
    if day_card_on_seat:
        return Reject("bloodwood.reject.counter_not_day", rule=c.rule, card=name(cid))
    return Reject("bloodwood.reject.counter_only", rule=c.rule, card=name(cid))


def counters_held(state: State, seat: int) -> list[str]:
    """The counter cards ``seat`` may use now (Chains forbid the night card Mirror, BW-16)."""
    held = []
    if "mirror" in state["hands"][seat] and not state["chains"][seat]:
        held.append("mirror")
    if "amulet" in state["hands"][seat]:
        held.append("amulet")
    return held


def is_attack(cid: str) -> bool:
    return card(cid).kind in ATTACKS
