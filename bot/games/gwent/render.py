"""Text for humans: action labels, the table board, one line per event.  Only what the view or the event
already allows the reader to see is ever written."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.i18n import t

from .cards import catalogue
from .scoring import points
from .state import locate

LIMIT = 1800
ROW_ORDER_TOP = ("siege", "ranged", "melee")  # the opponent's half, seen from across the table
ROW_ORDER_BOTTOM = ("melee", "ranged", "siege")


def cname(card_id: str, locale: str) -> str:
    return catalogue().card(card_id).name(locale)


def lname(leader_id: str, locale: str, short: bool = False) -> str:
    name = catalogue().leaders[leader_id].name(locale)
    return name.split(": ", 1)[-1] if short else name


def _row(row: str, locale: str) -> str:
    return t(f"gwent.row.{row}", locale)


def _names(ids: Sequence[str], locale: str) -> str:
    return ", ".join(cname(c, locale) for c in ids)


def _counted(ids: Sequence[str], locale: str) -> str:
    """Card names with a count for copies, in the order the cards first appear."""
    counts: dict[str, int] = {}
    for cid in ids:
        counts[cid] = counts.get(cid, 0) + 1
    return ", ".join(cname(c, locale) + (f"×{n}" if n > 1 else "") for c, n in counts.items())


# ------------------------------------------------------------------------------------------ actions
def describe_action(state: dict, seat: int, action: dict, locale: str) -> str:
    return _describe(state, seat, action, locale)[:80]


def _describe(state: dict, seat: int, action: dict, locale: str) -> str:
    kind = action["type"]
    uid = action.get("card")
    cid = state["cards"][uid]["id"] if isinstance(uid, str) and uid in state["cards"] else uid
    if kind == "faction":
        return t("gwent.act.faction", locale, faction=t(f"gwent.faction.{action['faction']}", locale))
    if kind == "leader_pick":
        return t("gwent.act.leader_pick", locale, leader=lname(action["leader"], locale, short=True))
    if kind in ("deck_add", "deck_remove"):
        c = catalogue().card(cid)
        strength = f" ({c.strength})" if c.is_unit else ""
        return t(f"gwent.act.{kind}", locale, card=cname(cid, locale) + strength)
    if kind in ("deck_preset", "deck_done", "mulligan_done", "pass", "skip"):
        return t(f"gwent.act.{kind}", locale)
    if kind == "first":
        return t("gwent.act.first_me" if action["seat"] == seat else "gwent.act.first_other", locale)
    if kind in ("play", "revive", "summon"):
        return t(f"gwent.act.{kind}", locale, card=_card_with_spec(state, action, cid, locale))
    if kind == "leader":
        text = t("gwent.act.leader", locale, leader=lname(action["leader"], locale, short=True))
        if action.get("idle"):
            return text + " — " + t("gwent.act.idle", locale)
        extra = action.get("weather") or action.get("row") or action.get("pile")
        if action.get("weather"):
            return text + " — " + t(f"gwent.weather.{action['weather']}", locale)
        if action.get("row"):
            return text + " — " + _row(action["row"], locale)
        if extra:
            return text + " — " + t(f"gwent.pile.{extra}", locale)
        return text
    if kind == "move":
        row = locate(state, uid)[2]
        return t("gwent.act.move", locale, card=cname(cid, locale),
                 row=_row("ranged" if row == "melee" else "melee", locale))
    if kind == "keep":
        return t("gwent.act.keep", locale, card=cname(cid, locale), row=_row(locate(state, uid)[2], locale))
    return t(f"gwent.act.{kind}", locale, card=cname(cid, locale) if cid in catalogue().cards else str(cid))


def _card_with_spec(state: dict, action: dict, cid: str, locale: str) -> str:
    c = catalogue().card(cid)
    text = cname(cid, locale) + (f" ({c.strength})" if c.is_unit else "")
    if action.get("target"):
        target = action["target"]
        # A target may be named by its card id (docs/games/gwent.md) as well as by an instance id.
        text += " → " + cname(state["cards"][target]["id"] if target in state["cards"] else target, locale)
        zone = locate(state, target)
        if zone and zone[0] == "row":
            text += f" ({_row(zone[2], locale)})"
    if action.get("side") == "enemy":
        text += " — " + t("gwent.act.spy_enemy", locale)
    elif action.get("side") == "own":
        text += " — " + t("gwent.act.spy_own", locale)
    if action.get("row"):
        text += " → " + _row(action["row"], locale)
    return text


# ------------------------------------------------------------------------------------------ the board
def render_view(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    # Both discard piles are open to both players (rule book §1); they are the first thing to go when the
    # board would not fit one message, then the names are shortened.
    for compact, piles in ((False, True), (False, False), (True, False)):
        text = _board(view, locale, names, compact, piles)
        if len(text) <= LIMIT:
            break
    return text[:LIMIT]


def _board(view: Mapping[str, Any], locale: str, names: Sequence[str], compact: bool, piles: bool = False) -> str:
    seat = view.get("seat")
    me = seat if seat is not None else 0
    lines = [t("gwent.view.header", locale, variant=t(f"gwent.option.variant.{view['variant']}", locale),
               round=view["round"] or 1, turn=view["turn_no"])]
    if view["phase"] == "setup":
        lines.append(_setup_lines(view, locale, names))
        return "\n".join(lines)
    weather = [t(f"gwent.weather.{w['kind']}", locale) for w in view["weather"]]
    lines.append(t("gwent.view.weather", locale, weather=", ".join(weather) or t("gwent.view.none", locale)))
    for side, order in ((1 - me, ROW_ORDER_TOP), (me, ROW_ORDER_BOTTOM)):
        lines += _side_lines(view, side, order, locale, names, compact)
        discard = view["players"][side]["discard"]
        if piles and discard:
            lines.append("  " + t("gwent.view.discard_pile", locale, cards=_counted(discard, locale)))
    lines += _own_lines(view, locale, compact)
    for p in view["to_act"]:
        lines.append(t("gwent.view.waiting", locale, name=names[p["seat"]], what=t(p["prompt"], locale)))
    return "\n".join(lines)


def _setup_lines(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    ready = [names[s] for s, p in enumerate(view["players"]) if p["ready"]]
    text = t("gwent.view.setup", locale, ready=", ".join(ready) or t("gwent.view.none", locale))
    own = view.get("setup")
    if own and own["faction"]:
        deck = own["deck"]
        cat = catalogue()
        units = sum(n for c, n in deck.items() if cat.card(c).is_unit)
        text += "\n" + t("gwent.view.own_setup", locale, faction=t(f"gwent.faction.{own['faction']}", locale),
                         leader=lname(own["leader"], locale, short=True) if own["leader"] else "—",
                         units=units, specials=sum(deck.values()) - units)
    return text


def _side_lines(view, side: int, order, locale: str, names: Sequence[str], compact: bool) -> list[str]:
    p = view["players"][side]
    faction = t(f"gwent.faction.{p['faction']}", locale) if p["faction"] else "?"
    status = " · " + t("gwent.view.passed", locale) if p["passed"] else ""
    lines = [t("gwent.view.player", locale, name=names[side], faction=faction, gems="♦" * p["gems"] + "◊" * (2 - p["gems"]),
               score=points(p["score"]), hand=p["hand"], deck=p["deck"], discard=len(p["discard"])) + status]
    leaders = []
    for ld in p["leaders"]:
        mark = " ✗" if ld["used"] else (" ∞" if ld["passive"] else "")
        leaders.append(lname(ld["id"], locale, short=len(p["leaders"]) > 1) + mark)
    if leaders:
        lines.append("  " + t("gwent.view.leaders", locale, leaders=", ".join(leaders)))
    for row in order:
        r = view["board"][side][row]
        marks = []
        if r["weather"]:
            marks.append("☁")
        if r["horn"] or r["horn_crach"]:
            marks.append(t("gwent.view.horn", locale))
        if r["leader_horn"]:
            marks.append(t("gwent.view.leader_horn", locale))
        if r["mardroeme"]:
            marks.append(t("gwent.view.mardroeme", locale))
        if r["weakened"]:
            marks.append(t("gwent.view.weakened", locale))
        head = f"  {_row(row, locale).capitalize()} {points(r['total'])}" + (f" [{', '.join(marks)}]" if marks else "")
        lines.append(head + ": " + _cards_line(r["cards"], locale, compact))
    return lines


def _cards_line(cards: Sequence[Mapping[str, Any]], locale: str, compact: bool) -> str:
    groups: list[list] = []
    for c in cards:
        if groups and groups[-1][0] == c["card"] and groups[-1][1] == c["strength"]:
            groups[-1][2] += 1
        else:
            groups.append([c["card"], c["strength"], 1])
    parts = []
    for cid, strength, n in groups:
        name = cname(cid, locale)
        if compact:
            name = name[:12]
        star = "★" if catalogue().card(cid).is_hero else ""
        parts.append(f"{name} {star}{points(strength)}" + (f"×{n}" if n > 1 else ""))
    return ", ".join(parts) or "—"


def _own_lines(view: Mapping[str, Any], locale: str, compact: bool) -> list[str]:
    hand = view.get("hand")
    if hand is None:
        return []
    counts: dict[str, int] = {}
    for c in hand:
        counts[c["card"]] = counts.get(c["card"], 0) + 1
    items = []
    for cid, n in counts.items():
        c = catalogue().card(cid)
        name = cname(cid, locale)[:14] if compact else cname(cid, locale)
        items.append(name + (f" ({c.strength})" if c.is_unit else "") + (f"×{n}" if n > 1 else ""))
    lines = [t("gwent.view.hand", locale, n=len(hand), cards=", ".join(items) or "—")]
    if view.get("candidates"):
        lines.append(t("gwent.view.candidates", locale, cards=_names([c["card"] for c in view["candidates"]], locale)))
    if view.get("revealed"):
        lines.append(t("gwent.view.revealed", locale, cards=_names(view["revealed"], locale)))
    return lines


# ------------------------------------------------------------------------------------------ events
SILENT = {"shuffled", "faction_lot", "setup_step", "chose_first", "skipped"}


def render_event(event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
    kind, d = event["kind"], dict(event["data"])
    if kind in SILENT:
        return None
    name = names[d["seat"]] if isinstance(d.get("seat"), int) else ""
    p: dict[str, Any] = {"name": name}
    for key in ("card", "into", "token", "gave", "took"):
        if d.get(key):
            p[key] = cname(d[key], locale)
    if "cards" in d and d["cards"] and isinstance(d["cards"][0], str):
        p["cards"] = _names(d["cards"], locale)
    if "leader" in d:
        p["leader"] = lname(d["leader"], locale)
    if "row" in d:
        p["row"] = _row(d["row"], locale)
    if "side" in d and isinstance(d["side"], int):
        p["side"] = names[d["side"]]
    key = f"gwent.ev.{kind}"
    if kind == "played":
        where = ""
        if d.get("side") == "enemy":
            where = " — " + t("gwent.act.spy_enemy", locale)
        elif d.get("row"):
            where = " → " + _row(d["row"], locale)
        p["where"] = where
        key = "gwent.ev.summoned" if d.get("source") == "faction_card" else key
    elif kind == "passed" and d.get("auto"):
        key = f"gwent.ev.passed_{d['auto']}"
    elif kind == "turn":
        p["n"] = d["n"]
        key = "gwent.ev.turn_double" if d["count"] == 2 else key
    elif kind in ("dealt_count", "drew_count"):
        p["n"] = d["n"]
    elif kind == "scorched":
        p["cards"] = ", ".join(f"{cname(k['card'], locale)} ({names[k['side']]})" for k in d["killed"])
    elif kind == "row_scorch_short":
        p.update(total=points(d["total"]), need=d["need"])
    elif kind == "weather":
        p["weather"] = t(f"gwent.weather.{d['weather']}", locale)
    elif kind == "first_player":
        key = f"gwent.ev.first_{d['how']}"
        p["round"] = d["round"]
    elif kind == "round_start":
        p["round"] = d["round"]
    elif kind == "round_end":
        a, b = (points(x) for x in d["scores"])
        p.update(round=d["round"], a=a, b=b, first=names[0], second=names[1])
        if d["winner"] is None:
            key = "gwent.ev.round_draw"
        else:
            p["name"] = names[d["winner"]]
            key = "gwent.ev.round_nilfgaard" if d["by_nilfgaard"] else key
    elif kind == "factions":
        p["a"] = t(f"gwent.faction.{d['factions'][0]}", locale)
        p["b"] = t(f"gwent.faction.{d['factions'][1]}", locale)
        p.update(first=names[0], second=names[1])
    elif kind == "revived" and d.get("source") == "skellige":
        key = "gwent.ev.revived_skellige"
    elif kind == "took" and d.get("pile") == "enemy":
        key = "gwent.ev.took_enemy"
    elif kind == "game_over":
        if d["winners"]:
            p["name"] = names[d["winners"][0]]
        else:
            key = "gwent.ev.game_draw"
        p["rounds"] = " / ".join(f"{points(x)}:{points(y)}" for x, y in d["rounds"])
    elif kind == "leader" and d.get("idle"):
        key = "gwent.ev.leader_idle"
    elif kind == "leader_cancelled":
        p["rule"] = d.get("rule", "")
    elif kind == "discards_returned":
        p["sides"] = ", ".join(names[s] for s in d["sides"])
    text = t(key, locale, **p)
    if kind == "round_end" and d.get("board"):
        table = _final_table(d["board"], locale, names, compact=False)
        if len(table) > LIMIT - 300:
            table = _final_table(d["board"], locale, names, compact=True)
        text += "\n" + table
        if d.get("weather"):
            weather = ", ".join(t(f"gwent.weather.{w}", locale) for w in d["weather"])
            text += "\n  " + t("gwent.view.weather", locale, weather=weather)
    return text


def _final_table(board: Sequence[Mapping[str, Any]], locale: str, names: Sequence[str], compact: bool) -> str:
    """The final table of the round, copied into the thread before the field is cleared (rule book §9)."""
    lines = []
    for side, rows in enumerate(board):
        parts = []
        for row in ROW_ORDER_BOTTOM:
            cards = [{"card": cid, "strength": value} for cid, value in rows[row]["cards"]]
            if cards:
                parts.append(f"{_row(row, locale)} {points(rows[row]['total'])}: {_cards_line(cards, locale, compact)}")
        lines.append(f"  {names[side]}: " + (" · ".join(parts) or "—"))
    return "\n".join(lines)
