"""The built-in bot player: plays a best of three like a careful human, not a card dump.

Every move is tried on a private copy of the table: only the card's own effects (never the turn flow), with
a fixed random source instead of the table's, so the outcome depends only on what the seat can see.  That
gives the move's score swing and the cards it brings back to the hand.  A card held is worth what it may do
in a later round (``reserve``); a move is rated by what it gains now minus the reserve it spends, the more
so the more later rounds matter.  On top of that rating, the round plan:

- the opponent has passed: pass once winning (a spy or a Decoy that keeps the lead first: a free card);
  otherwise win with the cheapest card that does it, or with the fewest cards, but only if the round is
  worth them (one that decides the game always is), else take the free cards and pass;
- the opponent plays on: spies first in a round I may lose; ahead in such a round, pass once the opponent
  needs a card more than I to come back; behind, chase while it costs at most two cards and half the hand,
  else give the round up; in a round I must win never pass while behind, and keep a lead with the cheapest
  cards, or a card that changes nothing, rather than leaving him the rest of the round;
- no unit into weather it can avoid, scorch and leaders only when the board makes them pay, weak cards
  swapped at the exchange, a strong built deck and a leader that pays in most games.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast

from bot.engine import Ctx, Reject, clone
from bot.engine.rng import rng_state

from .actions import apply_turn, legal_actions
from .cards import catalogue
from .choices import apply_choice, choice_actions, settle
from .leaders import activate, usable_leaders
from .rules import check_spec, perk, play_card
from .scoring import scores
from .state import opp

#: what a card is worth kept in the hand for a later round, in points, by special effect or added by ability
#: keyed by a card's effect (None for a plain unit, which is valued by its strength instead)
EFFECT_RESERVE: dict[str | None, int] = {"scorch": 7, "horn": 7, "decoy": 5, "faction_card": 9, "clear": 3, "mardroeme": 3,
                  "frost": 3, "fog": 3, "rain": 3, "storm": 4}
ABILITY_RESERVE = {"spy": -3, "medic": 3, "horn": 3, "scorch_row": 2, "scorch": 2, "avenger": 3, "mardroeme": 2,
                   "morale_boost": 1, "tight_bond": 1}
#: a random card drawn from the deck (a spy's reward), in points
DRAW_VALUE = 6
#: a card whose reserve is at most this is cheap enough to buy a round the opponent left
CHEAP = 3
#: what an opponent's card is expected to add to his score, in points
ENEMY_CARD = 7
#: the one-use leader of the standard game is kept unless it pays at least this much (HardGwent: 3 a game)
LEADER_RESERVE = {"standard": 5, "hardgwent": 2}
#: leaders whose effect the swing does not show
LEADER_BONUS: dict[str | None, int] = {"reveal_hand": 1, "white_flame": 0, "discards_to_decks": -2}


def reserve(card_id: str) -> float:
    c = catalogue().card(card_id)
    if not c.is_unit:
        return EFFECT_RESERVE.get(c.effect, 3)
    value = c.strength + (2 if c.is_hero else 0) + sum(ABILITY_RESERVE.get(a, 0) for a in c.abilities)
    return max(value, 1)


def _held(card_id: str) -> float:
    """A card back in the hand: a spy is worth the card it will draw again."""
    return max(reserve(card_id), DRAW_VALUE) if catalogue().card(card_id).has("spy") else reserve(card_id)


def default_action(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """What happens when a seat's time runs out: pass a turn, skip optional choices, keep the dealt hand,
    take the preset deck (ruling GW-19)."""
    legal = legal_actions(state, seat)
    for wanted in ({"type": "pass"}, {"type": "skip"}, {"type": "mulligan_done"}, {"type": "deck_done"},
                   {"type": "deck_preset"}, {"type": "first", "seat": seat}):
        if wanted in legal:
            return wanted
    if state["phase"] == "setup" and state["setup"][seat]["step"] == "leader":
        preset = catalogue().presets[state["setup"][seat]["faction"]]["leader"]
        return {"type": "leader_pick", "leader": preset}
    return legal[0]


def choose(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The bot's action for ``seat``.  Reads only what that seat may see (hands and decks of the other
    seat, the order of its own deck and the table's RNG never influence it); ``rng`` breaks set-up ties."""
    legal = legal_actions(state, seat)
    phase = state["phase"]
    if phase == "setup":
        return _setup(state, seat, legal, rng)
    if phase == "mulligan":
        return _mulligan(state, seat, legal)
    if phase == "first":
        return {"type": "first", "seat": opp(seat)}  # going second is the stronger position
    if phase == "keep":
        return max(legal, key=lambda a: (_strength(state, a["card"]), reserve(_cid(state, a["card"]))))
    if state["stack"]:
        return _choice(state, seat, legal)
    return _turn(state, seat, legal)


# ------------------------------------------------------------------------------------------ before the first turn
def _setup(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    step = state["setup"][seat]["step"]
    if step == "deck":  # built one card at a time towards a fixed list, then finished
        st = state["setup"][seat]
        target = dream_deck(st["faction"], state["options"])
        for cid, n in target.items():
            if st["deck"].get(cid, 0) < n:
                return {"type": "deck_add", "card": cid}
        for cid, n in st["deck"].items():
            if n > target.get(cid, 0):
                return {"type": "deck_remove", "card": cid}
        return {"type": "deck_done"} if {"type": "deck_done"} in legal else {"type": "deck_preset"}
    if step == "leader":  # a leader that pays in most games: a horn, the White Flame, a row scorch...
        return min(legal, key=lambda a: (_leader_rank(a["leader"]), a["leader"]))
    return rng.choice(legal)


#: the special cards a built deck takes, in this order (the faction card, then the ones that pay in any hand)
DECK_SPECIALS = (("faction_card", 1), ("scorch", 2), ("horn", 2), ("decoy", 2), ("clear", 1))


def dream_deck(faction: str, options: dict[str, Any]) -> dict[str, int]:
    """A strong legal deck: the fewest units the rules allow, strongest first (heroes, spies and medics
    included by their worth), and the special cards that pay in any hand; no weather that hurts both."""
    cat = catalogue()
    pool = cat.deck_pool(faction, options)
    rules = cat.variants["standard"]
    units = sorted((cid for cid in pool if cat.card(cid).is_unit and not cat.card(cid).musters),
                   key=lambda cid: (-reserve(cid), cid))
    deck: dict[str, int] = {}
    for cid in units:
        while deck.get(cid, 0) < pool[cid] and sum(deck.values()) < rules["min_units"]:
            deck[cid] = deck.get(cid, 0) + 1
    for effect, wanted in DECK_SPECIALS:
        for cid in pool:
            c = cat.card(cid)
            if not c.is_unit and c.effect == effect:
                deck[cid] = min(wanted, pool[cid])
    return deck


LEADER_PREFERENCE = ("leader_horn", "white_flame", "row_scorch", "take_from_discard", "extra_card",
                     "half_weather", "weather", "discards_to_decks", "agile_moves", "reveal_hand")


def _leader_rank(lid: str) -> int:
    """Lower is better; Eredin's weather of choice ranks with the row scorches."""
    rule = catalogue().leaders[lid].rule("standard") or {}
    ability = rule.get("ability")
    rank = LEADER_PREFERENCE.index(ability) if ability in LEADER_PREFERENCE else len(LEADER_PREFERENCE)
    return 2 if ability == "weather" and rule.get("kind") == "choice" else rank


def _hand_worth(state: dict[str, Any], uids: list[str]) -> dict[str, float]:
    """What each hand card is worth at the exchange: a second card of one muster group in the hand is only
    its strength (the group comes from the deck, the hand stays: forum rule), a second weather card of a
    kind or a second Clear Weather is nearly dead."""
    seen: set[str | None] = set()
    out = {}
    for uid in sorted(uids, key=lambda u: -reserve(_cid(state, u))):
        c = catalogue().card(_cid(state, uid))
        value = reserve(c.id)
        if c.musters or (not c.is_unit and c.effect in ("frost", "fog", "rain", "storm", "clear")):
            key = c.musters or c.effect
            value = value + (2 if key not in seen and c.musters else 0) - (4 if key in seen else 0)
            seen.add(key)
        out[uid] = value
    return out


def _mulligan(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    hand = state["hand"][seat]
    takes = [a for a in legal if a["type"] == "mulligan_take"]
    if takes:
        given = state["mull"][seat]["give"]
        rest = [u for u in hand if u != given]
        return max(takes, key=lambda a: _hand_worth(state, rest + [a["card"]])[a["card"]])
    swaps = [a for a in legal if a["type"] in ("mulligan_give", "mulligan_redraw")]
    if not swaps:
        return {"type": "mulligan_done"}
    worth = _hand_worth(state, hand)
    worst = min(swaps, key=lambda a: (worth[a["card"]], a["card"]))
    low = worth[worst["card"]]
    if worst["type"] == "mulligan_give":
        rest = [u for u in hand if u != worst["card"]]
        best = max((_hand_worth(state, rest + [u])[u] for u in state["cand"][seat]), default=low)
    else:  # a redraw brings an unknown card of the deck: its average
        pool = state["deck"][seat] + state["aside"][seat]
        best = sum(reserve(_cid(state, u)) for u in pool) / len(pool) if pool else low
    return worst if low + 1 < best else {"type": "mulligan_done"}


# ------------------------------------------------------------------------------------------ trying a move
@dataclass
class Tried:
    action: dict[str, Any]
    swing: int       # my score minus the opponent's, change in tenths
    gain: float      # points of the cards it brings to the hand (a spy's draw, a decoyed unit)
    kept: float      # the part of ``gain`` that is known cards taken back (worth their reserve, later)
    spend: float     # points of reserve it uses up (the card, the leader)
    draws: int       # cards it brings to the hand


def _cid(state: dict[str, Any], uid: str) -> str:
    return cast("str", state["cards"][uid]["id"])


def _strength(state: dict[str, Any], uid: str) -> int:
    return catalogue().card(_cid(state, uid)).strength


def _sim_ctx(copy: dict[str, Any]) -> Ctx:
    # The copy gets a fixed random source: the table's RNG is hidden and must not steer the bot.
    copy["rng"] = rng_state("gwent-bot")
    return Ctx(copy, 0.0)


def _resolve(copy: dict[str, Any], seat: int, ctx: Ctx) -> None:
    """Answer the copy's own sub-decisions (a medic's revival, a summon) the cheap way."""
    for _ in range(8):
        settle(copy)
        if not copy["stack"] or copy["stack"][-1]["seat"] != seat:
            return
        options = choice_actions(copy, copy["stack"][-1])
        apply_choice(copy, seat, max(options, key=lambda a: _static(copy, seat, a)), ctx)


def _static(state: dict[str, Any], seat: int, action: dict[str, Any]) -> float:
    """A quick rating of a sub-decision without trying it: a spy sent over, a medic, then strength."""
    if action["type"] == "skip":
        return -50
    c = catalogue().card(_cid(state, action["card"]))
    if action["type"] in ("discard", "reveal"):
        return -reserve(c.id)
    value = float(c.strength if c.is_unit else reserve(c.id))
    if c.has("spy"):
        value += 20 if action.get("side", "enemy") == "enemy" else -20
    if c.has("medic"):
        value += 8
    if action.get("row") and c.rows and action["row"] != c.rows[0]:
        value -= 0.5
    return value


def _try(state: dict[str, Any], seat: int, action: dict[str, Any], before: list[int] | None = None) -> Tried | None:
    before = before or scores(state)
    copy = clone(state)
    ctx = _sim_ctx(copy)
    hand_before = set(copy["hand"][seat])
    spend = 0.0
    try:
        if action["type"] == "play":
            uid = action["card"]
            spend = reserve(_cid(copy, uid))
            play_card(copy, seat, uid, check_spec(copy, seat, uid, action), ctx, source="hand")
            hand_before.discard(uid)
        elif action["type"] == "leader":
            spec = {k: action[k] for k in ("weather", "row", "pile", "idle") if action.get(k) not in (None, False)}
            activate(copy, seat, action["leader"], spec, ctx)
            rule = catalogue().leaders[action["leader"]].rule(state["variant"]) or {}
            spend = LEADER_RESERVE[state["variant"]] - LEADER_BONUS.get(rule.get("ability"), 0)
        elif action["type"] == "move":
            apply_turn(copy, seat, action, ctx)
        elif action["type"] in ("revive", "summon", "take", "discard", "reveal"):
            apply_choice(copy, seat, action, ctx)
        else:
            return None
        _resolve(copy, seat, ctx)
    except Reject:
        return None
    after = scores(copy)
    swing = (after[seat] - before[seat]) - (after[opp(seat)] - before[opp(seat)])
    new = [u for u in copy["hand"][seat] if u not in hand_before]
    draws = sum(d["n"] for d in copy["draws_due"] if d["seat"] == seat)
    gain = sum(_held(_cid(copy, u)) for u in new) + DRAW_VALUE * draws
    return Tried(action, swing, gain, gain - DRAW_VALUE * draws, spend, len(new) + draws)


def _choice(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A sub-decision of the bot's own move: try each answer and keep the one worth most."""
    kind = state["stack"][-1]["kind"]
    if kind in ("reveal", "discard"):  # show the Emperor, or throw away, what matters least
        return max(legal, key=lambda a: _static(state, seat, a))
    best, best_value = None, None
    for action in legal:
        if action["type"] == "skip":
            continue
        tried = _try(state, seat, action)
        if tried is None:
            continue
        value = tried.swing / 10 + tried.gain
        if kind == "take":
            value += reserve(_cid(state, action["card"]))
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best or legal[0]


# ------------------------------------------------------------------------------------------ a turn
@dataclass
class Plan:
    lead: int          # my score minus the opponent's, tenths
    mine: int          # my hand
    theirs: int        # the opponent's hand
    must_win: bool     # losing this round loses the game
    wins_game: bool    # winning this round wins the game
    done: bool         # the opponent has passed (or has nothing left to play)
    tie_wins: bool     # a tie is my round (Nilfgaard)
    thrift: float      # how much the reserve of a card counts (1: an early round, low: the last one)

    @property
    def winning(self) -> bool:
        return self.lead > 0 or (self.lead == 0 and self.tie_wins)

    def target(self) -> int:
        """The swing (tenths) that makes the round mine."""
        return -self.lead + (0 if self.tie_wins else 1)


def _plan(state: dict[str, Any], seat: int) -> Plan:
    me, them = state["players"][seat], state["players"][opp(seat)]
    score = scores(state)
    must_win, wins_game = me["gems"] == 1, them["gems"] == 1
    tie_wins = perk(state, seat, "nilfgaard")
    mine, theirs = len(state["hand"][seat]), len(state["hand"][opp(seat)])
    done = them["passed"] or (theirs == 0 and not usable_leaders(state, opp(seat)))
    thrift = 0.3 if must_win and wins_game else 0.8 if not must_win and not wins_game else 0.6
    return Plan(score[seat] - score[opp(seat)], mine, theirs, must_win, wins_game, done, tie_wins, thrift)


def _rate(plan: Plan, t: Tried) -> float:
    """Points now, plus cards gained, minus the reserve spent; what is kept for later counts as much as the
    later rounds do (a card a Decoy takes back is worth little in the last round)."""
    return t.swing / 10 + t.gain - (1 - plan.thrift) * t.kept - plan.thrift * t.spend


def _turn(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    plan = _plan(state, seat)
    moves = [t for t in (_try(state, seat, a) for a in legal if a["type"] == "move") if t]
    good_moves = [t for t in moves if t.swing > 0]
    if good_moves:  # Hope of the Aen Seidhe: a free move out of the weather comes before anything else
        return max(good_moves, key=lambda t: t.swing).action
    if plan.done:
        return _after_their_pass(state, seat, legal, plan)
    final = plan.must_win and plan.wins_game
    if not final and plan.winning:
        # Ahead in a round that is not the last: let the opponent spend cards to come back (a spy that
        # keeps the lead is a free card first).
        if plan.must_win:
            safe = plan.lead >= 10 * ENEMY_CARD * (plan.theirs + 1)  # his whole hand could not catch up
        else:  # a thin lead with no more cards than the opponent: one cheap card takes the round from me
            safe = (plan.lead >= 10 * ENEMY_CARD or plan.mine > plan.theirs + 1
                    or plan.mine <= catalogue().variants[state["variant"]]["hand"] // 2)
        if safe:
            return _freebie(plan, _options(state, seat, legal, cards_only=True)) or {"type": "pass"}
    tried = _options(state, seat, legal)
    if not plan.must_win:  # a round I may lose: spies first, their points for the opponent matter least now
        spies = [t for t in tried if t.draws > 0 and t.gain - t.spend > 0 and t.swing < 0]
        if spies:
            return max(spies, key=lambda t: (t.swing, t.gain - t.spend)).action
    if plan.winning and not plan.must_win:  # a thin lead in a round I may lose: add only what pays
        return _best(plan, tried, wait_ok=True)
    if plan.winning:
        # A lead in a round I must win (the last one among them) that the opponent could still beat: keep it
        # with the cheapest cards, the strong ones answer what he plays next; never pass while he plays on.
        cheap = [t for t in tried if t.swing > 0 or _rate(plan, t) > 0]
        if cheap:
            return min(cheap, key=lambda t: (t.spend - t.gain, -t.swing)).action
        calm = [t for t in tried if t.swing >= 0]
        if calm:
            return max(calm, key=lambda t: (_rate(plan, t), -t.spend)).action
        return {"type": "pass"}
    if plan.must_win:
        return _best(plan, tried, wait_ok=False)
    # Behind (or level) in a round I may lose: chase only while it is cheap in cards.
    need, reachable = _cards_needed(state, seat, plan, tried)
    floor = 0 if plan.wins_game else catalogue().variants[state["variant"]]["hand"] // 2
    if not reachable or need >= 3 or plan.mine - need < floor:
        return _give_up(plan, tried)
    winners = [t for t in tried if t.swing >= plan.target()]
    if winners:  # take the lead, by a margin that costs the opponent more than one card if possible
        return max(winners, key=lambda t: _rate(plan, t) + (3 if plan.lead + t.swing >= 10 * ENEMY_CARD else 0)).action
    return _best(plan, tried, wait_ok=False)


def _options(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], cards_only: bool = False) -> list[Tried]:
    """Every move tried once (a Decoy once per kind of unit it may take back); ``cards_only``: only the
    moves that may bring cards to the hand (spies, medics, decoys, leaders that draw or take)."""
    out, seen, before = [], set(), scores(state)
    for action in legal:
        if action["type"] in ("pass", "move") or action.get("idle"):
            continue
        if "target" in action:
            key = (action["card"], _cid(state, action["target"]))
            if key in seen:
                continue
            seen.add(key)
        if cards_only and not _may_bring_cards(state, action):
            continue
        t = _try(state, seat, action, before)
        if t is not None:
            out.append(t)
    return out


CARD_LEADERS = ("draw", "take_from_discard", "revive", "exchange_for_deck_card")


def _may_bring_cards(state: dict[str, Any], action: dict[str, Any]) -> bool:
    if action["type"] == "leader":
        rule = catalogue().leaders[action["leader"]].rule(state["variant"]) or {}
        return rule.get("ability") in CARD_LEADERS
    c = catalogue().card(_cid(state, action["card"]))
    return c.has("spy") or c.has("medic") or c.effect in ("decoy", "faction_card")


def _best(plan: Plan, tried: list[Tried], wait_ok: bool) -> dict[str, Any]:
    """The move rated best among those that gain points or cards.  When none pays (``wait_ok``: I lead, so
    nothing must be forced) or none gains at all, a move that changes nothing (weather already in force,
    an idle Decoy) keeps the round open while the opponent still plays: better than a pass that leaves him
    the rest of the round, and it keeps a scorch or a horn for the moment it pays."""
    useful = [t for t in tried if t.swing > 0 or _rate(plan, t) > 0]
    if useful:
        top = max(useful, key=lambda t: _rate(plan, t))
        if not wait_ok or _rate(plan, top) > 0:
            return top.action
    if not plan.done:
        cap = 99 if plan.must_win else 5
        free = [t for t in tried if t.swing == 0 and t.draws == 0 and t.action["type"] == "play" and t.spend <= cap]
        if free:
            return min(free, key=lambda t: t.spend).action
    return {"type": "pass"}


def _cards_needed(state: dict[str, Any], seat: int, plan: Plan, tried: list[Tried]) -> tuple[int, bool]:
    """How many hand cards (best swings first, one per copy held) would make the round mine."""
    best_by_card: dict[str, int] = {}
    for t in tried:
        if t.action["type"] == "play":
            key = _cid(state, t.action["card"])
            best_by_card[key] = max(best_by_card.get(key, 0), t.swing)
    swings = []
    for uid in state["hand"][seat]:
        swings.append(best_by_card.get(_cid(state, uid), 0))
    swings.sort(reverse=True)
    need, total = plan.target(), 0
    if need <= 0:
        return 0, True
    for n, s in enumerate(swings, 1):
        if s <= 0:
            break
        total += s
        if total >= need:
            return n, True
    return len(swings), False


def _give_up(plan: Plan, tried: list[Tried]) -> dict[str, Any]:
    """Leave a round: first take any free cards a spy still gives, then pass."""
    return _freebie(plan, tried) or {"type": "pass"}


def _freebie(plan: Plan, tried: list[Tried]) -> dict[str, Any] | None:
    """A spy (or a medic bringing one back) when the round's result no longer matters or stays the same."""
    free = [t for t in tried if t.draws > 0 and t.gain - t.spend > 0
            and (not plan.winning or plan.lead + t.swing > 0 or (plan.tie_wins and plan.lead + t.swing == 0))]
    if free:
        return max(free, key=lambda t: (t.gain - t.spend, t.swing)).action
    return None


def _after_their_pass(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], plan: Plan) -> dict[str, Any]:
    if plan.winning:
        if not (plan.must_win and plan.wins_game):
            free = _freebie(plan, _options(state, seat, legal, cards_only=True))
            if free:
                return free
        return {"type": "pass"}
    tried = _options(state, seat, legal)
    need, reachable = _cards_needed(state, seat, plan, tried)
    # Losing this round loses the game: try even what the estimate calls hopeless (it misses combos).
    winners = [t for t in tried if t.swing >= plan.target()]
    cheap_win = any(t.spend - t.gain <= CHEAP for t in winners)  # a round for a card hardly worth keeping
    worth = plan.must_win or (reachable and (plan.wins_game or plan.mine - need >= plan.theirs or cheap_win))
    if not worth:
        return _give_up(plan, tried)
    if winners:  # just enough: the cheapest card that wins
        return min(winners, key=lambda t: (t.spend - t.gain, -t.swing)).action
    useful = [t for t in tried if t.swing > 0]
    if not useful:
        return _give_up(plan, tried)
    return max(useful, key=lambda t: t.swing / 10 - 0.3 * (t.spend - t.gain)).action
