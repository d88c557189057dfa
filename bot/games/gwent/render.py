"""Text for humans: action labels, the table board, one line per event.  Only what the view or the event
already allows the reader to see is ever written."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine.board_text import clip_items, fit, pending_lines, wrap_items
from bot.i18n import t

from .cards import catalogue
from .scoring import points
from .state import locate, zone_of

LIMIT = 1800
ROW_LINES = 3    # lines a row of the field takes on the compact board; the cards beyond are counted
ROW_ORDER_TOP = ("siege", "ranged", "melee")  # the opponent's half, seen from across the table
ROW_ORDER_BOTTOM = ("melee", "ranged", "siege")


def cname(card_id: str, locale: str) -> str:
    return catalogue().card(card_id).name(locale)


def quoted(name: str, locale: str) -> str:
    """A card's or leader's name inside a Russian or Ukrainian sentence: in «…», so that a name that is a phrase
    of its own ("Ведьма: Кухарка") reads as one name and needs no declension; English sentences take it bare."""
    return f"«{name}»" if locale in ("ru", "uk") else name


def lname(leader_id: str, locale: str, short: bool = False) -> str:
    name = catalogue().leaders[leader_id].name(locale)
    return name.split(": ", 1)[-1] if short else name


def row_marks(row: Mapping[str, Any], locale: str) -> list[str]:
    """What lies on a row besides its cards and weather: horns, Mardroeme, the Treacherous's weakening."""
    marks = []
    if row["horn"] or row["horn_crach"]:
        marks.append(t("gwent.view.horn", locale))
    if row["leader_horn"]:
        marks.append(t("gwent.view.leader_horn", locale))
    if row["mardroeme"]:
        marks.append(t("gwent.view.mardroeme", locale))
    if row["weakened"]:
        marks.append(t("gwent.view.weakened", locale))
    return marks


def _row(row: str, locale: str) -> str:
    return t(f"gwent.row.{row}", locale)


def _names(ids: Sequence[str], locale: str) -> str:
    return ", ".join(cname(c, locale) for c in ids)


# ------------------------------------------------------------------------------------------ actions
def describe_action(state: dict[str, Any], seat: int, action: dict[str, Any], locale: str) -> str:
    return _describe(state, seat, action, locale)[:80]


def _describe(state: dict[str, Any], seat: int, action: dict[str, Any], locale: str) -> str:
    kind = action["type"]
    uid: Any = action.get("card")  # a card's uid in the actions that name one (those read it below)
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
        row = zone_of(state, uid)[2]
        return t("gwent.act.move", locale, card=cname(cid, locale),
                 row=_row("ranged" if row == "melee" else "melee", locale))
    if kind == "keep":
        return t("gwent.act.keep", locale, card=cname(cid, locale), row=_row(zone_of(state, uid)[2], locale))
    return t(f"gwent.act.{kind}", locale, card=cname(cid, locale) if cid in catalogue().cards else str(cid))


def _card_with_spec(state: dict[str, Any], action: dict[str, Any], cid: str, locale: str) -> str:
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
def render_view(view: Mapping[str, Any], locale: str, names: Sequence[str], *, full: bool = False) -> str:
    """The table, every line within a phone's width.  Compact: each row of the field in at most ROW_LINES
    lines, the rest counted, and the own hand whole; the discard piles (open to both players, rule book
    §1) as counts.  ``full``: every card of every row, the whole hand and both discard piles."""
    text = "\n".join(fit(_board(view, locale, names, full)))
    return text if full else text[:LIMIT]


def _board(view: Mapping[str, Any], locale: str, names: Sequence[str], full: bool) -> list[str]:
    seat = view.get("seat")
    me = seat if seat is not None else 0
    lines = [t("gwent.view.header", locale, variant=t(f"gwent.view.variant.{view['variant']}", locale),
               round=view["round"] or 1, turn=view["turn_no"])]
    if view["phase"] == "setup":
        return lines + _setup_lines(view, locale, names) + _pending(view, locale, names)
    weather = [t(f"gwent.weather.{w['kind']}", locale) for w in view["weather"]]
    lines += wrap_items(t("gwent.view.weather", locale), weather or [t("gwent.view.none", locale)])
    for side, order in ((1 - me, ROW_ORDER_TOP), (me, ROW_ORDER_BOTTOM)):
        lines += _side_lines(view, side, order, locale, names, full)
    lines += _own_lines(view, locale, full)
    return lines + _pending(view, locale, names)


def _pending(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> list[str]:
    """Who owes a decision, once.  The set-up and the card exchange are named as such, not as turns."""
    def label(p: Mapping[str, Any]) -> str | None:
        if view["phase"] in ("setup", "mulligan"):
            return t(f"gwent.pending.{view['phase']}", locale)
        return None

    def detail(p: Mapping[str, Any]) -> str | None:
        return None if view["phase"] == "mulligan" or not p["prompt"] else t(p["prompt"], locale)

    return pending_lines(view, locale, names, label=label, detail=detail)


def _setup_lines(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> list[str]:
    ready = [names[s] for s, p in enumerate(view["players"]) if p["ready"]]
    lines = wrap_items(t("gwent.view.setup", locale), ready or [t("gwent.view.none", locale)])
    own = view.get("setup")
    if own and own["faction"]:
        deck = own["deck"]
        cat = catalogue()
        units = sum(n for c, n in deck.items() if cat.card(c).is_unit)
        lines.append(t("gwent.view.own_setup", locale, faction=t(f"gwent.faction.{own['faction']}", locale),
                       leader=lname(own["leader"], locale, short=True) if own["leader"] else "—",
                       units=units, specials=sum(deck.values()) - units))
    return lines


def _side_lines(view: Mapping[str, Any], side: int, order: Sequence[str], locale: str, names: Sequence[str], full: bool) -> list[str]:
    p = view["players"][side]
    faction = t(f"gwent.faction.{p['faction']}", locale) if p["faction"] else "?"
    status = " · " + t("gwent.view.passed", locale) if p["passed"] else ""
    lines = [t("gwent.view.player", locale, name=names[side], gems="♦" * p["gems"] + "◊" * (2 - p["gems"]),
               score=points(p["score"])) + status,
             "  " + t("gwent.view.counts", locale, hand=p["hand"], deck=p["deck"], discard=len(p["discard"]))]
    if p["shown"]:  # the hand's cards shown to the Emperor of Nilfgaard (§7)
        lines += wrap_items("  " + t("gwent.view.shown", locale), [cname(c, locale) for c in p["shown"]], hang="    ")
    leaders = []
    for ld in p["leaders"]:
        # a passive leader used idle still works: both marks
        mark = (" ∞" if ld["passive"] else "") + (" ✗" if ld["used"] else "")
        leaders.append(lname(ld["id"], locale, short=len(p["leaders"]) > 1) + mark)
    lines += wrap_items("  " + t("gwent.view.leaders", locale, faction=faction, n=len(leaders)),
                        leaders or ["—"], hang="    ")
    for row in order:
        r = view["board"][side][row]
        marks = (["☁"] if r["weather"] else []) + row_marks(r, locale)
        head = f"  {_row(row, locale).capitalize()} {points(r['total'])}" + (f" [{', '.join(marks)}]" if marks else "")
        lines += _card_items(head + ":", _row_groups(r["cards"], locale), locale, None if full else ROW_LINES)
    discard = p["discard"]
    if full and discard:
        lines += _card_items("  " + t("gwent.view.discard_pile", locale), _groups(discard, locale), locale, None)
    return lines


def _row_groups(cards: Sequence[Mapping[str, Any]], locale: str) -> list[tuple[str, int]]:
    """(text, copies) for the cards of a row, neighbours with the same card and strength counted once."""
    groups: list[list[Any]] = []  # [card, strength, copies], counted in place
    for c in cards:
        if groups and groups[-1][0] == c["card"] and groups[-1][1] == c["strength"]:
            groups[-1][2] += 1
        else:
            groups.append([c["card"], c["strength"], 1])
    return [(f"{cname(cid, locale)} {'★' if catalogue().card(cid).is_hero else ''}{points(strength)}", n)
            for cid, strength, n in groups]


def _groups(ids: Sequence[str], locale: str, strength: bool = False) -> list[tuple[str, int]]:
    """(text, copies) per card, in the order the cards first appear; a unit's strength when ``strength``."""
    counts: dict[str, int] = {}
    for cid in ids:
        counts[cid] = counts.get(cid, 0) + 1
    out = []
    for cid, n in counts.items():
        c = catalogue().card(cid)
        out.append((cname(cid, locale) + (f" {c.strength}" if strength and c.is_unit else ""), n))
    return out


def _card_items(head: str, groups: Sequence[tuple[str, int]], locale: str, max_lines: int | None) -> list[str]:
    """``head`` and the cards ("Лютик 2, Бригада «Врихедд» 5×2"), wrapped; within ``max_lines`` lines when
    given, the cards that do not fit counted ("… ещё 4")."""
    items = [text + (f"×{n}" if n > 1 else "") for text, n in groups] or ["—"]
    hang = " " * (len(head) - len(head.lstrip(" ")) + 2)
    if max_lines is None:
        return wrap_items(head, items, hang=hang)
    copies = [n for _, n in groups]
    return clip_items(head, items, lambda k: t("core.board.more", locale, n=sum(copies[len(copies) - k:])),
                      max_lines, hang=hang)


def _own_lines(view: Mapping[str, Any], locale: str, full: bool) -> list[str]:
    hand = view.get("hand")
    if hand is None:
        return []
    head = t("gwent.view.hand", locale, n=len(hand))
    # the player's own hand whole, on the compact board too: it is what they choose from (issue 27)
    lines = _card_items(head, _groups([c["card"] for c in hand], locale, strength=True), locale, None)
    if view.get("candidates"):
        lines += wrap_items(t("gwent.view.candidates", locale), [cname(c["card"], locale) for c in view["candidates"]])
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
            p[key] = quoted(cname(d[key], locale), locale)
    if "cards" in d and d["cards"] and isinstance(d["cards"][0], str):
        p["cards"] = ", ".join(quoted(cname(c, locale), locale) for c in d["cards"])
    if "leader" in d:
        p["leader"] = quoted(lname(d["leader"], locale), locale)
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
        if kind == "drew_count" and not d["n"]:
            key = "gwent.ev.drew_count_none"
    elif kind == "drew" and not d.get("cards"):
        # a spy played on an empty deck (and an empty aside) brings nothing: say so, no empty list
        key = "gwent.ev.drew_none"
    elif kind == "scorched":
        p["cards"] = ", ".join(f"{quoted(cname(k['card'], locale), locale)} ({names[k['side']]})" for k in d["killed"])
        p["n"] = len(d["killed"])
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
        for seat, who in enumerate("ab"):
            p[who] = t(f"gwent.faction.{d['factions'][seat]}", locale)
            p[f"{who}_leaders"] = ", ".join(lname(lid, locale, short=True) for lid in d["leaders"][seat])
            p[f"n{who}"] = len(d["leaders"][seat])
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
    elif kind == "leader" and d.get("row"):  # Crach an Craite's horn, the Treacherous on an enemy row
        key = "gwent.ev.leader_row_enemy" if isinstance(d.get("side"), int) else "gwent.ev.leader_row"
    elif kind == "cancel_moved":
        key = f"gwent.ev.cancel_moved.{d['where']}"
        p["n"] = d["n"]
        if d.get("weathers"):
            p["weather"] = ", ".join(t(f"gwent.weather.{w}", locale) for w in d["weathers"])
    elif kind == "discards_returned":
        p["sides"] = ", ".join(names[s] for s in d["sides"])
    text = t(key, locale, **p)
    if d.get("rule"):
        text += " " + t("core.cite", locale, rule=d["rule"])
    if kind == "round_end" and d.get("board"):
        table = _final_table(d["board"], locale, names, compact=False)
        if len(table) > LIMIT - 300:
            table = _final_table(d["board"], locale, names, compact=True)
        text += "\n" + table
        if d.get("weather"):
            weather = [t(f"gwent.weather.{w}", locale) for w in d["weather"]]
            text += "\n" + "\n".join(wrap_items("  " + t("gwent.view.weather", locale), weather, hang="    "))
    return text


def _final_table(board: Sequence[Mapping[str, Any]], locale: str, names: Sequence[str], compact: bool) -> str:
    """The final table of the round, copied into the thread before the field is cleared (rule book §9), in
    lines a phone shows whole; ``compact``: each row in at most two lines, the other cards counted."""
    lines = []
    for side, rows in enumerate(board):
        lines.append(f"  {names[side]}:")
        for row in ROW_ORDER_BOTTOM:
            cards = [{"card": cid, "strength": value} for cid, value in rows[row]["cards"]]
            if cards:
                head = f"    {_row(row, locale)} {points(rows[row]['total'])}:"
                lines += _card_items(head, _row_groups(cards, locale), locale, 2 if compact else None)
        if lines[-1] == f"  {names[side]}:":
            lines[-1] += " —"
    return "\n".join(fit(lines))
