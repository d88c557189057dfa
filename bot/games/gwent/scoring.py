"""Strength of every unit on the board: a pure function of the board, recomputed, never accumulated.

Order of the rule book: weather -> tight bond -> morale boost -> horn, then the Treacherous (standard) doubles
spies.  Heroes are immune to all of it.  Strengths are kept in tenths of a point: King Bran halves the
strength under weather and the HardGwent Treacherous halves a non-leader horn, and the rule book rounds the
result up to tenths at the very end (§7, ruling GW-12).
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

from .cards import ROWS, WEATHER_ROWS, catalogue
from .leaders_passive import passive


def weather_rows(state: dict[str, Any]) -> set[str]:
    rows: set[str] = set()
    for entry in state["weather"]:
        rows.update(WEATHER_ROWS[entry["kind"]])
    return rows


def strengths(state: dict[str, Any]) -> dict[str, int]:
    """uid -> current strength in tenths, for every unit on the board."""
    cat = catalogue()
    hardgwent = state["variant"] == "hardgwent"
    bad = weather_rows(state)
    spies_doubled = any(passive(state, s, "double_spies") for s in (0, 1))
    options = state["options"]
    out: dict[str, int] = {}
    for side in (0, 1):
        bran = passive(state, side, "half_weather") or state["round_fx"]["bran"][side]
        hope = hardgwent and state["round_fx"]["hope"][side]
        for row in ROWS:
            uids = state["rows"][side][row]
            cards = [cat.card(state["cards"][u]["id"]) for u in uids]
            bonds = Counter(c.id for c in cards if c.has("tight_bond"))
            boosters = [c.has("morale_boost") or (hope and c.agile and not c.is_hero) for c in cards]
            boost = sum(boosters)
            bards = sum(1 for c in cards if c.has("horn"))
            slot = state["slots"][side][row]
            crach = slot["horn_crach"]
            # §7: the HardGwent Treacherous halves the non-leader horn; Crach an Craite's horn is a leader's,
            # spared unless the table says otherwise (GW-28)
            halved = row in state["weak_horn"][side] and (options["treacherous_crach"] or not crach)
            for uid, c, is_booster in zip(uids, cards, boosters):
                if c.is_hero:
                    out[uid] = c.strength * 10
                    continue
                # a whole number until something halves it (Bran, the HardGwent Treacherous): exact either way,
                # and the bot scores thousands of boards a decision, where Fraction arithmetic was most of its time
                value: int | Fraction = c.strength
                if row in bad:
                    hit = min(value, 1)
                    if not bran:
                        value = hit
                    else:  # §7: the unit loses only 50 % (GW-12: the option keeps plain weather's floor)
                        half = Fraction(value, 2)
                        value = max(hit, half) if options["bran_weather_floor"] else half
                if c.has("tight_bond"):
                    value *= bonds[c.id]
                value += boost - (1 if is_booster else 0)
                card_horn = slot["horn"] is not None or bards - (1 if c.has("horn") else 0) > 0
                if hardgwent:
                    # a standard horn (card, bard or Crach's) adds x1; the other leaders' horns add to it (§7)
                    horns = int(card_horn or crach)
                    horn: int | Fraction = Fraction(horns, 2) if halved else horns
                    value *= 1 + horn + slot["leader_horn"]
                elif card_horn or crach or slot["leader_horn"]:
                    value *= 2
                if spies_doubled and c.has("spy"):
                    value *= 2
                out[uid] = math.ceil(value * 10)
    return out


def row_totals(state: dict[str, Any], values: dict[str, int] | None = None) -> list[dict[str, int]]:
    values = strengths(state) if values is None else values
    return [{row: sum(values[u] for u in state["rows"][s][row]) for row in ROWS} for s in (0, 1)]


def scores(state: dict[str, Any], values: dict[str, int] | None = None) -> list[int]:
    return [sum(r.values()) for r in row_totals(state, values)]


def points(tenths: int) -> str:
    """Tenths as the rule book writes them: 12 or 12.5."""
    return str(tenths // 10) if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}"
