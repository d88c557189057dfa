"""Building Gwent tables in a chosen position: fixed factions and leaders, mulligans done, then cards moved
by hand into hands and rows (without triggering anything), so each test states exactly what it checks."""
from __future__ import annotations

from bot.engine import Ctx
from bot.games.gwent import GAME
from bot.games.gwent.cards import catalogue
from bot.games.gwent.scoring import scores, strengths
from bot.games.gwent.setup import deal
from bot.games.gwent.state import locate, relocate
from tests.support.engine import acting

NAMES = ["Аня", "Боб"]


def table(a="northern_realms", b="nilfgaard", variant="standard", leaders=(None, None), first=0, seed="t",
          empty_hands=True, filler=True, **options):
    """A table in its first turn with seat ``first`` to play.  Hands are emptied unless told otherwise; then
    each seat gets one Decoy as a filler, so that a round does not end because a hand ran out."""
    opts = {"variant": variant, "faction_a": a, "faction_b": b, "end_when_ahead": False, **options}
    if variant == "standard":
        opts.setdefault("deck", "build")
    state = GAME.initial_state(2, seed=seed, options=opts, now=1000.0,
                               stack={"rolls": {"gwent.first": [first]}}).state
    for seat in (0, 1):
        if state["phase"] == "setup" and state["setup"][seat]["step"] == "leader":
            leader = leaders[seat] or catalogue().presets[state["setup"][seat]["faction"]]["leader"]
            state = act(state, seat, type="leader_pick", leader=leader)
    if state["phase"] == "setup":
        # Standard tables get every card of the faction pool, so any card can be put where a test needs it.
        for st in state["setup"]:
            st["deck"], st["step"] = catalogue().deck_pool(st["faction"], opts), "ready"
        deal(state, Ctx(state, 1000.0))
    for seat in (0, 1):
        if state["phase"] == "mulligan" and not state["mull"][seat]["done"]:
            state = act(state, seat, type="mulligan_done")
    if state["phase"] == "first":
        state = act(state, state["chooser"], type="first", seat=first)
    if empty_hands:
        for seat in (0, 1):
            for uid in list(state["hand"][seat]):
                relocate(state, uid, ["deck", seat])
            if filler:
                give(state, seat, "decoy")
    return state


apply, act, reject = acting(GAME, now=2000.0)


def find(state, seat, card_id, zones=("deck", "aside", "hand", "discard")):
    """A uid of ``card_id`` owned by ``seat`` lying in one of ``zones``."""
    for uid, info in sorted(state["cards"].items(), key=lambda kv: kv[0]):
        if info["id"] == card_id and info["owner"] == seat:
            zone = locate(state, uid)
            if zone and zone[0] in zones:
                return uid
    raise AssertionError(f"no free {card_id} of seat {seat}")


def give(state, seat, *card_ids):
    """Put cards from the seat's deck into its hand; returns their uids."""
    uids = []
    for cid in card_ids:
        uid = find(state, seat, cid, zones=("deck", "aside"))
        relocate(state, uid, ["hand", seat])
        uids.append(uid)
    return uids[0] if len(uids) == 1 else uids


def place(state, side, card_id, row=None, owner=None):
    """Put a unit straight onto a row (no ability triggers); ``owner`` defaults to the side."""
    owner = side if owner is None else owner
    uid = find(state, owner, card_id, zones=("deck", "aside", "hand"))
    relocate(state, uid, ["row", side, row or catalogue().card(card_id).rows[0]])
    return uid


def discard(state, seat, card_id):
    uid = find(state, seat, card_id, zones=("deck", "aside", "hand"))
    relocate(state, uid, ["discard", seat])
    return uid


def strength(state, uid):
    return strengths(state)[uid]


def score(state, seat):
    return scores(state)[seat]


def kinds(events):
    return [e["kind"] for e in events]


def event(events, kind):
    return next(e for e in events if e["kind"] == kind)
