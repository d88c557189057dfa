"""The interpreter of the effect vocabulary used by cards.yaml and combos.yaml.

A Resolution applies one list of effects for a caster and collects every change of health, sphere and
their maxima into a single public "stats" event, so the log shows one line per card with exact values
(``from`` → ``to``).  Effects that change something else (turns, dice, hand size, ongoing spells) emit their
own public event.  Nothing here is hidden: every card effect is public.

Every effect that reads a number (Спасение's "if your health is below 5", "up to the maximum", Суд Соломона)
reads it as it stood when the play began, its Moment, and changes the number by the difference: two cards
played at once (§4) thus both read the same numbers and their changes add up (ruling CG-28).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, cast

from bot.engine import Ctx

from .cards import COLOURS, catalogue, rules
from .dice import freeze
from .state import opponent, player

PANDORA = "pandoras_box"
PANDORA_TAG = "claygod.pandora"


NUMBERS = ("health", "sphere", "max_health", "max_sphere")


class Moment:
    """The numbers as they stood when a play began, and the spells the play has added since."""

    def __init__(self, state: dict[str, Any]):
        self.numbers = [{k: p[k] for k in NUMBERS} for p in state["players"]]
        self.new_effects: list[dict[str, Any]] = []


class Resolution:
    def __init__(self, state: dict[str, Any], caster: int, ctx: Ctx, cause: Mapping[str, Any],
                 moment: Moment | None = None):
        self.state, self.caster, self.ctx, self.cause = state, caster, ctx, dict(cause)
        self.moment = moment or Moment(state)
        self.changes: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ plumbing
    def run(self, effects: Iterable[Mapping[str, Any]]) -> None:
        for effect in effects:
            getattr(self, "_" + effect["do"])(effect)

    def finish(self) -> None:
        if self.changes:
            self.ctx.emit("stats", seat=self.caster, cause=self.cause, changes=self.changes)

    def targets(self, who: str) -> list[int]:
        enemy = opponent(self.caster)
        return {"self": [self.caster], "enemy": [enemy], "both": [self.caster, enemy]}[who]

    def set_stat(self, seat: int, stat: str, value: int, why: str | None = None) -> None:
        p = player(self.state, seat)
        if p[stat] == value:
            return
        change = {"seat": seat, "stat": stat, "from": p[stat], "to": value}
        if why:
            change["why"] = why
        p[stat] = value
        self.changes.append(change)

    def add(self, seat: int, stat: str, by: int, why: str | None = None) -> None:
        self.set_stat(seat, stat, player(self.state, seat)[stat] + by, why)

    def before(self, seat: int, stat: str) -> int:
        return cast("int", self.moment.numbers[seat][stat])

    def become(self, seat: int, stat: str, value: int) -> None:
        """What the effect makes of the number it read at the Moment, applied as a change."""
        self.add(seat, stat, value - self.before(seat, stat))

    def _effect(self, seat: int, kind: str, **data: Any) -> None:
        entry = {"kind": kind, "card": self.cause.get("card"), "caster": self.caster, **data}
        player(self.state, seat)["effects"].append(entry)
        self.moment.new_effects.append(entry)
        self.ctx.emit("effect_added", seat=seat, effect=entry)

    # ------------------------------------------------------------------ health and sphere
    def _change(self, e: Mapping[str, Any]) -> None:
        for seat in self.targets(e["who"]):
            self.add(seat, e["stat"], e["by"])

    def _change_if_below(self, e: Mapping[str, Any]) -> None:
        for seat in self.targets(e["who"]):
            below = self.before(seat, e["stat"]) < e["below"]
            self.add(seat, e["stat"], e["by"] if below else e["else_by"])

    def _set(self, e: Mapping[str, Any]) -> None:
        for seat in self.targets(e["who"]):
            self.become(seat, e["stat"], e["to"])

    def _raise_to_max(self, e: Mapping[str, Any]) -> None:
        """"До максимума": up to the seat's maximum, never down (ruling CG-4)."""
        for seat in self.targets(e["who"]):
            stat = e["stat"]
            self.become(seat, stat, max(self.before(seat, stat), self.before(seat, "max_" + stat)))

    def _raise_max(self, e: Mapping[str, Any]) -> None:
        for seat in self.targets(e["who"]):
            self.add(seat, "max_" + e["stat"], e["by"])

    def _swap_spheres(self, e: Mapping[str, Any]) -> None:
        a, b = self.caster, opponent(self.caster)
        sa, sb = self.before(a, "sphere"), self.before(b, "sphere")
        self.become(a, "sphere", sb)
        self.become(b, "sphere", sa)

    def _solomon(self, e: Mapping[str, Any]) -> None:
        """Both healths and both spheres are pooled and halved; an odd point goes to the caster (CG-23)."""
        a, b = self.caster, opponent(self.caster)
        for stat in ("health", "sphere"):
            total = self.before(a, stat) + self.before(b, stat)
            self.become(a, stat, total - total // 2)
            self.become(b, stat, total // 2)

    # ------------------------------------------------------------------ ongoing spells and turns
    def _each_turn(self, e: Mapping[str, Any]) -> None:
        for seat in self.targets(e["who"]):
            self._effect(seat, "each_turn", stat=e["stat"], by=e["by"], turns_left=None)

    def _lift_curses(self, e: Mapping[str, Any]) -> None:
        """Снятие проклятия: every spell draining the caster's health each turn ends (ruling CG-8); a curse
        cast by the same play (the other of two cards) came after nothing and stays."""
        p = player(self.state, self.caster)
        fresh = self.moment.new_effects
        lifted = [x for x in p["effects"] if x["kind"] == "each_turn" and x["stat"] == "health" and x["by"] < 0
                  and not any(x is y for y in fresh)]
        p["effects"] = [x for x in p["effects"] if x not in lifted]
        self.ctx.emit("curses_lifted", seat=self.caster, cards=[x["card"] for x in lifted], ruling="CG-8")

    def _extra_turns(self, e: Mapping[str, Any]) -> None:
        p = player(self.state, self.caster)
        p["extra_turns"] += e["n"]
        self.ctx.emit("extra_turns", seat=self.caster, n=e["n"], total=p["extra_turns"])

    def _skip_turns(self, e: Mapping[str, Any]) -> None:
        who = e["who"]
        ruling: dict[str, Any] = {}
        if e.get("house_rule"):  # a table option may name the other player (ruling CG-22)
            who = "enemy" if self.state["options"][e["house_rule"]] == "enemy" else "self"
            ruling = {"ruling": "CG-22"}
        for seat in self.targets(who):
            p = player(self.state, seat)
            p["skip_turns"] += e["n"]
            self.ctx.emit("skip_turns", seat=seat, n=e["n"], total=p["skip_turns"], **ruling)

    def _lose_place(self, e: Mapping[str, Any]) -> None:
        """Жертва «место этой карты теперь всегда будет свободно», Знамя «на место знамени уже не поставишь
        воина»: the place the card was played from stays empty for good — the table place for a card turned up
        from the table (option ``lost_place: hand``: always a hand place), else one place in the hand (CG-20)."""
        p = player(self.state, self.caster)
        if self.cause.get("source") == "table" and self.state["options"]["lost_place"] == "card":
            p["table_place"] = False
            self.ctx.emit("table_place_lost", seat=self.caster, ruling="CG-20")
            return
        before = p["hand_size"]
        p["hand_size"] = max(rules()["min_hand_size"], before - 1)
        self.ctx.emit("hand_size", seat=self.caster, before=before, after=p["hand_size"])

    def _clock(self, e: Mapping[str, Any]) -> None:
        """Часы: a term of its own; an earlier Clock still running keeps its own, earlier end (CG-25, CG-33)."""
        options = self.state["options"]
        if options["clock_mode"] == "live":
            self._effect(self.caster, "clock", turns_left=None,
                         deadline=self.ctx.now + rules()["clock_live_seconds"])
        else:
            self._effect(self.caster, "clock", turns_left=options["clock_turns"])

    def _pandora(self, e: Mapping[str, Any]) -> None:
        """Ящик Пандоры: the effect of a card drawn at random from the whole catalogue (ruling CG-24)."""
        choices = [c for c in catalogue().cards if c != PANDORA]
        card = self.ctx.rng.choice(choices, PANDORA_TAG)
        self.ctx.emit("pandora", seat=self.caster, card=card, ruling="CG-24")
        cause = {"card": card, "via": PANDORA, "source": self.cause.get("source")}
        resolve(self.state, self.caster, catalogue().card(card).effects, self.ctx, cause, self.moment)

    # ------------------------------------------------------------------ dice
    def _maximise(self, e: Mapping[str, Any]) -> None:
        die = player(self.state, self.caster)["dice"][e["colour"]]
        die["value"] = 6
        self._effect(self.caster, "maximise", colour=e["colour"], turns_left=e["turns"])

    def _max_and_freeze(self, e: Mapping[str, Any]) -> None:
        p = player(self.state, self.caster)
        for colour in e["colours"]:
            p["dice"][colour]["value"] = 6
            freeze(p["dice"][colour], "pyramid")
        self.ctx.emit("max_frozen", seat=self.caster, colours=list(e["colours"]))

    def _freeze_all_dice(self, e: Mapping[str, Any]) -> None:
        """Снежинка: every rolled die of both players (ruling CG-30)."""
        for seat in (0, 1):
            for colour in COLOURS:
                die = player(self.state, seat)["dice"][colour]
                if die["value"] is not None:
                    freeze(die, "snowflake", turns=e["turns"])
        self.ctx.emit("snow", seat=self.caster, turns=e["turns"], ruling="CG-30")

    # ------------------------------------------------------------------ combination steps owed this turn
    def _freeze_one_each(self, e: Mapping[str, Any]) -> None:
        steps = self.state["turn"]["steps"]
        steps += [{"kind": "freeze_own", "rolls": e["rolls"]}, {"kind": "freeze_enemy", "rolls": e["rolls"]}]

    def _free_cast(self, e: Mapping[str, Any]) -> None:
        self.state["turn"]["free_cast"] = True
        self.ctx.emit("free_cast", seat=self.caster)

    def _redraw(self, e: Mapping[str, Any]) -> None:
        self.state["turn"]["steps"].append({"kind": "flush", "up_to": e["up_to"]})

    def _swap_card(self, e: Mapping[str, Any]) -> None:
        self.state["turn"]["steps"].append({"kind": "swap"})


def resolve(state: dict[str, Any], caster: int, effects: Iterable[Mapping[str, Any]], ctx: Ctx, cause: Mapping[str, Any],
            moment: Moment | None = None) -> None:
    res = Resolution(state, caster, ctx, cause, moment)
    res.run(effects)
    res.finish()
