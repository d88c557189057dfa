"""The built-in bot player: cheap heuristics by team interest, deciding only from its own seat's view (its
role, the roles it has seen, its hand and the public table) and the legal list.

It mutates known enemies and cures known allies, passes a Curse Mark away, answers harmful attacks with
Mirror / Amulet, tests unknown players' blood, and declares the end once it can tell the whole other
team and every one of them is mutated (late in a long game it also risks a well-founded guess)."""
from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence, cast

from bot.engine.contract import Action

from .cards import catalogue, kind
from .rules import target_condition

View = Mapping[str, Any]

#: how much a card is worth holding, before the situation is considered
_HOLD = {"mirror": 6, "amulet": 6, "bite": 5, "curse_mark": 5, "vaccine": 4, "candle": 3, "blood_test": 4,
         "eclipse": 4, "time_loop": 4, "voodoo": 3, "chains": 3, "tranquilizer": 3, "keys": 2, "thief": 2,
         "confession": 2, "leshy": 2, "hunter": 1, "pandora": 1}
#: rounds after which a bot dares to declare on a guess: when the mutated suspects are exactly as many as
#: the enemies it has not identified, and (later) on any choice among them, so that bot games end.  A bot
#: whose team has a leader (who sees every role) leaves the guessing to it for longer.
_GUESS_AFTER_ROUNDS = {False: 12, True: 20}
_ANY_GUESS_AFTER_ROUNDS = {False: 30, True: 40}


class Knowledge:
    """What the seat knows of the teams, from its view only."""

    def __init__(self, view: View):
        cat = catalogue()
        self.view = view
        self.me = view["seat"]
        players = view["players"]
        self.team = cat.team(players[self.me]["role"])
        self.allies = {s for s, p in enumerate(players) if p["role"] and cat.team(p["role"]) == self.team}
        self.enemies = {s for s, p in enumerate(players) if p["role"] and cat.team(p["role"]) != self.team}
        self.unknown = {s for s in range(view["seats"]) if s not in self.allies | self.enemies}
        self.enemy_size = sum(n for r, n in view["composition"].items() if cat.team(r) != self.team)
        self.led = any(n and cat.team(r) == self.team and cat.is_leader(r) for r, n in view["composition"].items())
        left = self.enemy_size - len(self.enemies)
        self.p_enemy = left / len(self.unknown) if self.unknown else 0.0

    def enemy_chance(self, seat: int) -> float:
        if seat in self.enemies:
            return 1.0
        if seat in self.allies:
            return 0.0
        return self.p_enemy

    def determined_enemies(self) -> set[int] | None:
        """The whole other team, if the seat can tell it: every enemy seen, or every ally seen."""
        if len(self.enemies) == self.enemy_size:
            return set(self.enemies)
        if len(self.enemies) + len(self.unknown) == self.enemy_size:
            return self.enemies | self.unknown
        return None

    def dna(self, seat: int) -> str:
        return cast("str", self.view["players"][seat]["dna"])


def choose(view: View, legal: Sequence[Action], rng: random.Random) -> Action:
    step = view["step"]
    know = Knowledge(view) if view["players"][view["seat"]]["role"] else None
    chooser = _STEPS.get(step["kind"])
    action = chooser(view, legal, know, rng) if chooser and know else None
    if action and action.get("type") == "play" and "target" in action:
        # A targeted card may be played in one action instead of two (card, then target).
        return action if {"type": "play", "card": action["card"]} in legal else rng.choice(list(legal))
    return action if action is not None and action in legal else rng.choice(list(legal))


# ------------------------------------------------------------------------------------------ own turn
def _turn(view: View, legal: Sequence[Action], know: Knowledge, rng: random.Random) -> Action | None:
    step = view["step"]
    if step.get("card"):
        target, _ = _best_target(view, know, step["card"], [a["seat"] for a in legal if a["type"] == "target"])
        return {"type": "target", "seat": target} if target is not None else {"type": "cancel"}
    if {"type": "declare"} in legal and _declaration(view, know) is not None:
        return {"type": "declare"}
    best, best_score = None, 0.5
    for action in legal:
        if action["type"] == "play":
            target, score = _play_choice(view, know, action["card"])
            if score > best_score:
                best, best_score = dict(action), score
                if target is not None and rng.random() < 0.5:
                    best["target"] = target
    if best:
        return best
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return {"type": "pass"}
    hand = view["hand"]
    if {"type": "pass"} in legal and len(hand) >= 4 and min(_hold(view, know, c) for c in hand) >= 3:
        return {"type": "pass"}
    return min(discards, key=lambda a: (_hold(view, know, a["card"]), rng.random()))


def _play_choice(view: View, know: Knowledge, cid: str) -> tuple[int | None, float]:
    """The best target of a card (None for untargeted cards) and how good playing it is."""
    what = kind(cid)
    if catalogue().cards[cid].target == "none":
        return None, _UNTARGETED[what](view, know) if what in _UNTARGETED else 0.0
    candidates = [s for s in range(view["seats"]) if _may_target(view, know, cid, s)]
    return _best_target(view, know, cid, candidates)


def _may_target(view: View, know: Knowledge, cid: str, seat: int) -> bool:
    c = catalogue().cards[cid]
    if seat == know.me and c.target != "any":
        return False
    return target_condition(c.kind, view["players"][seat], view["seats"]) is None


def _best_target(view: View, know: Knowledge, cid: str, seats: Sequence[int]) -> tuple[int | None, float]:
    scored = [(_target_score(view, know, kind(cid), s), -s, s) for s in seats]
    if not scored:
        return None, 0.0
    score, _, seat = max(scored)
    return seat, score


def _target_score(view: View, know: Knowledge, what: str, seat: int) -> float:
    p = view["players"][seat]
    enemy = know.enemy_chance(seat)
    friend = 1.0 - enemy
    me = know.me
    cursed_me = view["players"][me]["curse"] is not None
    if what == "bite":
        harm = 1.0 if p["dna"] == "pure" else -1.0  # a bite mutates the pure and cures the mutated
        score = 10 * harm * (enemy - friend)
        if cursed_me:
            score += 12 * (enemy - friend) + 6
        if p["curse"]:
            score -= 10
        return score
    if what == "curse_mark":
        return 11 * (enemy - friend)
    if what in ("chains", "tranquilizer"):
        return 3 * (enemy - friend)
    if what == "voodoo":
        return cast("float", (2 * (enemy - friend) + sum(p["hand"].values())) / 2)
    if what == "vaccine":
        return 9 * (friend - enemy) if p["dna"] == "mutated" else -1.0
    if what == "candle":
        return 12 if seat == me else 9 * (friend - enemy)
    if what == "keys":
        return 4 if seat == me else 3 * (friend - enemy)
    if what == "blood_test":
        return 5.0 if seat in know.unknown else 0.0
    if what == "confession":
        return 1.0 if seat == me and know.unknown else 0.0
    if what == "thief":
        return 1 + enemy
    if what == "pandora":
        return 1.0 if seat == me and not view["hand"] else 0.0
    return 0.0


_UNTARGETED: dict[str, Callable[[View, Knowledge], float]] = {
    "eclipse": lambda view, know: 4.0,
    "time_loop": lambda view, know: 4.0,
    "leshy": lambda view, know: sum(sum(p["hand"].values()) for p in view["players"]) / view["seats"] - 1,
    "hunter": lambda view, know: 1.0 if len(view["hand"]) <= 2 else 0.0,
}


def _hold(view: View, know: Knowledge, cid: str) -> float:
    """How much a card is worth keeping for this seat now."""
    what = kind(cid)
    me = view["players"][know.me]
    value = _HOLD[what]
    if what == "candle" and me["curse"]:
        value += 6
    if what == "keys" and me["chains"]:
        value += 4
    if what == "vaccine" and me["dna"] == "mutated":
        value += 4
    return value


def _declaration(view: View, know: Knowledge) -> set[int] | None:
    """The players to name: the whole other team when the seat can tell it and all of them are mutated;
    late in a long game, a guess among the mutated players not known to be allies."""
    enemies = know.determined_enemies()
    if enemies is not None:
        return enemies if all(know.dna(s) != "pure" for s in enemies) else None
    rounds = (view["turn"]["no"] if view["turn"] else 0) / view["seats"]
    if rounds < _GUESS_AFTER_ROUNDS[know.led] or any(know.dna(s) == "pure" for s in know.enemies):
        return None
    suspects = [s for s in sorted(know.unknown) if know.dna(s) != "pure"]
    missing = know.enemy_size - len(know.enemies)
    if len(suspects) == missing or (len(suspects) > missing and rounds >= _ANY_GUESS_AFTER_ROUNDS[know.led]):
        return know.enemies | set(suspects[:missing])
    return None


# ------------------------------------------------------------------------------------------ other steps
def _declare(view: View, legal: Sequence[Action], know: Knowledge, rng: random.Random) -> Action | None:
    wanted = _declaration(view, know) or know.enemies or {next(iter(know.unknown), know.me)}
    named = set(view["step"].get("named") or [])
    for seat in sorted(named - wanted):
        return {"type": "unname", "seat": seat}
    for seat in sorted(wanted - named):
        return {"type": "name", "seat": seat}
    return {"type": "confirm"}


def _counter(view: View, legal: Sequence[Action], know: Knowledge, rng: random.Random) -> Action | None:
    counters = [a for a in legal if a["type"] == "counter"]
    if not counters:
        return {"type": "allow"}
    flight = view["in_flight"]
    attacker, what = flight["player"], kind(flight["card"])
    me = view["players"][know.me]
    harmless = what == "bite" and me["dna"] == "mutated" and not view["players"][attacker]["curse"]
    if harmless:
        return {"type": "allow"}
    mirror = {"type": "counter", "card": "mirror"}
    amulet = {"type": "counter", "card": "amulet"}
    if attacker in know.allies and amulet in counters:
        return amulet
    return mirror if mirror in counters else amulet


def _keep(view: View, legal: Sequence[Action], know: Knowledge, rng: random.Random) -> Action | None:
    kept = list(view["step"]["kept"])
    pool = list(view["hand"])
    for cid in kept:
        pool.remove(cid)
    if pool and len(kept) < 4:
        best = max(pool, key=lambda c: (_hold(view, know, c), c))
        return {"type": "keep", "card": best}
    return {"type": "done"}


def _least_valued(view: View, legal: Sequence[Action], know: Knowledge, rng: random.Random) -> Action | None:
    return min(legal, key=lambda a: (_hold(view, know, a["card"]), rng.random()))


def _give(view: View, legal: Sequence[Action], know: Knowledge, rng: random.Random) -> Action | None:
    if view["step"]["seat"] in know.allies:
        return max(legal, key=lambda a: (_hold(view, know, a["card"]), rng.random()))
    return _least_valued(view, legal, know, rng)


def _show(view: View, legal: Sequence[Action], know: Knowledge, rng: random.Random) -> Action | None:
    allies = [a for a in legal if a["seat"] in know.allies]
    return rng.choice(allies or list(legal))


def _draw(view: View, legal: Sequence[Action], know: Knowledge, rng: random.Random) -> Action | None:
    """Aim for three cards of the coming phase: a player's next turn falls in the other phase, unless an
    Eclipse or Time Loop intervenes."""
    if {"type": "declare"} in legal and _declaration(view, know) is not None:
        return {"type": "declare"}  # e.g. the last enemy was just bitten (BW-25)
    coming = "night" if view["phase"] == "day" else "day"
    other = view["phase"]
    have = sum(catalogue().backs[c] == coming for c in view["hand"])
    left = view["step"]["left"]
    wanted = min(left, max(0, 3 - have))
    split = {"type": "draw_all", coming: wanted, other: left - wanted}
    if split in legal:
        return split
    single = {"type": "draw", "deck": coming if wanted else other}
    return single if single in legal else None


_STEPS: dict[str, Callable[[View, Sequence[Action], Knowledge, random.Random], Action | None]] = {
    "turn": _turn, "declare": _declare, "counter": _counter, "keep": _keep, "give": _give,
    "leshy": _least_valued, "trim": _least_valued, "confess": _show, "draw": _draw,
}
