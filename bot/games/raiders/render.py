"""Text for humans: action labels, the board (every line within a phone's width) and one line per event.
Labels and boards show only what the view shows: the board is public, a hand only to its owner."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.engine.board_text import fit, pending_lines, wrap_items
from bot.i18n import t

from .cards import RANKS, SUIT_MARK, Cards, Fighter, cards_of, lookup, lookup_prop, table_cards
from .state import on_board

LIMIT = 1800


# ------------------------------------------------------------------------------------------ names
def _cards(view: Mapping[str, Any]) -> Cards:
    return table_cards(view["deck_set"], view["copies"])


def fighter_mark(f: Fighter, locale: str) -> str:
    rank = t(f"raiders.rank.{f.rank}", locale) if f.rank in RANKS[5:] else f.rank
    return f"{SUIT_MARK[f.suit]}{rank}"


def fighter_name(cards: Cards, card: str, locale: str, kr: int | None = None) -> str:
    f = cards.fighters[card]
    return f"{fighter_mark(f, locale)}·{_kr(f) if kr is None else kr}"


def _kr(f: Fighter) -> str:
    """A card's крутизна as printed; a шняга-only card has none."""
    return "—" if f.krutizna is None else str(f.krutizna)


def hand_card(cards: Cards, card: str, locale: str, text: bool = False) -> str:
    f = cards.fighters[card]
    line = fighter_name(cards, card, locale)
    if f.shnyaga:
        line += " " + f.shnyaga.name(locale) + ("✋" if f.shnyaga.manual else "")
        if text:
            line += ": " + f.shnyaga.text(locale)
    return line


def prop_name(cards: Cards, props: Sequence[Mapping[str, Any]], card: str, locale: str) -> str:
    """«#3 Банк»: the number of its place on the board tells apart two cards of one kind."""
    number = next((i + 1 for i, p in enumerate(props) if p["card"] == card), 0)
    return f"#{number} {cards.properties[card].name(locale)}"


def _seat(names: Sequence[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


# ------------------------------------------------------------------------------------------ actions
def describe_action(state: dict[str, Any], seat: int, action: dict[str, Any], locale: str,
                    names: Sequence[str] = ()) -> str:
    cards = cards_of(state)
    kind = action["type"]
    props = state["props"]
    if kind == "capture":
        p = cards.properties[action["prop"]]
        return t("raiders.act.capture", locale, card=fighter_name(cards, action["card"], locale),
                 prop=prop_name(cards, props, action["prop"], locale), kr=p.krutizna)
    if kind == "shnyaga":
        sh = cards.fighters[action["card"]].played_shnyaga
        label = f"{sh.name(locale)} ({fighter_mark(cards.fighters[action['card']], locale)})"
        if action["target"] is None:
            return t("raiders.act.shnyaga", locale, name=label)
        return t("raiders.act.shnyaga_on", locale, name=label, target=_target(state, action["target"], locale, names))
    if kind == "discard":
        return t("raiders.act.discard", locale, card=hand_card(cards, action["card"], locale))
    if kind == "state":
        return t("raiders.act.state", locale, effect=effect_text(state, action["effect"], locale, names))
    if kind == "dispute":
        entry = state["window"]["queue"][action["entry"]]
        return t("raiders.act.dispute", locale, card=cards.fighters[entry["card"]].played_shnyaga.name(locale),
                 player=_seat(names, entry["seat"]))
    if kind == "vote":
        return t("raiders.act.uphold" if action["uphold"] else "raiders.act.reject", locale)
    return t(f"raiders.act.{kind}", locale)


def _target(state: Mapping[str, Any], card: str, locale: str, names: Sequence[str]) -> str:
    cards = cards_of(state)
    where = on_board(state, card)
    owner = _seat(names, where[0]) if where else "?"
    return t("raiders.target", locale, card=fighter_name(cards, card, locale), owner=owner)


def effect_text(state: Mapping[str, Any], effect: Mapping[str, Any], locale: str, names: Sequence[str],
                target: str | None = None) -> str:
    target = target or effect.get("target")  # a card's effect names a kind of target; the entry names the fighter
    params: dict[str, Any] = {"by": f"{effect['by']:+d}" if "by" in effect else "", "n": effect.get("count", 0),
                              "to": effect.get("to", "")}
    if target:
        params["target"] = _target(state, target, locale, names) if _on(state, target) else \
            fighter_name(cards_of(state), target, locale)
    return t(_effect_key(effect), locale, **params)


def _effect_key(effect: Mapping[str, Any]) -> str:
    return "raiders.effect.krutizna_to" if effect["do"] == "krutizna" and "to" in effect \
        else f"raiders.effect.{effect['do']}"


def _on(state: Mapping[str, Any], card: str) -> bool:
    return on_board(state, card) is not None


# ------------------------------------------------------------------------------------------ the board
def render_view(view: Mapping[str, Any], locale: str, names: Sequence[str], *, full: bool = False) -> str:
    text = "\n".join(fit(_board(view, locale, names, full)))
    return text if full else text[:LIMIT]


def _board(view: Mapping[str, Any], locale: str, names: Sequence[str], full: bool) -> list[str]:
    cards = _cards(view)
    turn = view["turn"]
    trump = SUIT_MARK[view["trump"]]
    lines = [t("raiders.view.header", locale, number=turn["number"], trump=trump)]
    if view["trump_card"]:
        lines.append(t("raiders.view.trump_card", locale, card=fighter_name(cards, view["trump_card"], locale)))
    lines.append(t("raiders.view.piles", locale, target=view["target"], deck=view["deck_count"],
                   used=len(view["discard"]), props=view["pdeck_count"]))
    if full and view["discard"]:
        lines += wrap_items(t("raiders.view.used", locale),
                            [fighter_name(cards, c, locale) for c in reversed(view["discard"])])
    lines.append(t("raiders.view.board", locale))
    kr = view["krutizna"]
    for p in view["props"]:
        card = cards.properties[p["card"]]
        head = f" {prop_name(cards, view['props'], p['card'], locale)} {card.babki}💰 {card.krutizna}💪"
        if p["guard"] is None:
            lines.append(head + " — " + t("raiders.view.free", locale))
        else:
            lines.append(head + " — " + t("raiders.view.guarded", locale, owner=_seat(names, p["owner"]),
                                            card=fighter_name(cards, p["guard"], locale, kr.get(p["guard"]))))
    if not view["props"]:
        lines.append("  " + t("raiders.view.no_props", locale))
    lines += _players(view, locale, names)
    lines += _window(view, cards, locale, names, full)
    if view["hand"] is not None:
        lines.append(t("raiders.view.hand", locale))
        lines += ["  " + hand_card(cards, c, locale, text=full) for c in view["hand"]]
    if view["outcome"] is None:
        lines += pending_lines(view, locale, names,
                               detail=lambda p: t(p["prompt"], locale) if p["prompt"] else None)
    return lines


def _players(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> list[str]:
    lines = []
    for s in range(view["seats"]):
        lines.append(t("raiders.view.player", locale, name=_seat(names, s), babki=view["babki"][s],
                       cards=view["hand_counts"][s]))
    if view["teams"]:
        for side in view["teams"]:
            lines.append(t("raiders.view.team", locale, names=" + ".join(_seat(names, s) for s in side),
                           babki=sum(view["babki"][s] for s in side)))
    return lines


def _window(view: Mapping[str, Any], cards: Cards, locale: str, names: Sequence[str], full: bool) -> list[str]:
    w = view["window"]
    if not w:
        return []
    lines = []
    kr = view["krutizna"]
    cap = w["capture"]
    if cap:
        attacker = fighter_name(cards, cap["fighter"], locale, kr.get(cap["fighter"])) if cap["fighter"] \
            else t("raiders.view.gone", locale)
        lines.append(t("raiders.view.capture", locale, name=_seat(names, cap["seat"]), card=attacker,
                       prop=prop_name(cards, view["props"], cap["prop"], locale)))
    for i, entry in enumerate(w["queue"]):
        sh = cards.fighters[entry["card"]].played_shnyaga
        what = ", ".join(effect_text(view, e, locale, names, entry["target"]) for e in entry["effects"]) \
            or t("raiders.view.unstated", locale)
        mark = "✋" if entry["manual"] else ""
        lines.append(f" {i + 1}. {_seat(names, entry['seat'])}: {sh.name(locale)}{mark} — {what}")
        if full:
            lines.append("    " + sh.text(locale))
    if w["vote"]:
        v = w["vote"]
        lines.append(t("raiders.view.vote", locale, n=v["entry"] + 1, by=_seat(names, v["by"]),
                       yes=len(v["uphold"]), no=len(v["reject"])))
    if w["passed"]:
        lines += wrap_items(t("raiders.view.passed", locale), [_seat(names, s) for s in w["passed"]])
    return lines


# ------------------------------------------------------------------------------------------ events
def render_event(event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
    kind, d = event["kind"], event["data"]
    if kind in _SILENT:
        return None
    params: dict[str, Any] = {k: v for k, v in d.items() if isinstance(v, (int, str)) and not isinstance(v, bool)}
    for key in ("seat", "owner", "author", "before", "first"):
        if isinstance(d.get(key), int):
            params[key] = _seat(names, d[key])
    for key in ("card", "target", "guard", "by_card"):
        if isinstance(d.get(key), str) and ":" in d[key]:
            params[key] = fighter_mark(lookup(d[key]), locale) if kind != "revealed" else None
    if kind == "shnyaga" or kind in ("disputed", "dispute_settled", "moderator_upheld", "stated", "fizzled"):
        params["name"] = lookup(d["card"]).played_shnyaga.name(locale)
    if isinstance(d.get("prop"), str):
        params["prop"] = lookup_prop(d["prop"]).name(locale)
    if kind == "revealed":
        p = lookup_prop(d["card"])
        params.update(card=p.name(locale), babki=p.babki, kr=p.krutizna)
    elif kind == "drew":
        params["cards"] = ", ".join(hand_card_of(c, locale) for c in d["cards"])
    elif kind == "trump":
        params["suit"] = SUIT_MARK[d["suit"]]
    elif kind == "won":
        params["winners"] = ", ".join(_seat(names, s) for s in d["winners"])
    elif kind == "krutizna":
        params["by"] = f"{d['by']:+d}"
    elif kind == "stated":
        effect = d["effect"]
        params["effect"] = t(_effect_key(effect), locale, by=f"{effect.get('by', 0):+d}", to=effect.get("to", ""),
                             n=effect.get("count", 0), target=params.get("target") or "")
    elif kind in ("dispute_settled", "moderator_upheld"):
        params["mode"] = t(f"raiders.option.disputes.{d['mode']}", locale)
    elif kind == "voted":
        params["vote"] = t("raiders.act.uphold" if d["uphold"] else "raiders.act.reject", locale)
    key = f"raiders.ev.{kind}" + ("_failed" if kind == "dispute_settled" and not d["upheld"] else "") \
        + ("_to" if kind == "krutizna" and "set_to" in d else "")
    line = t(key, locale, **params)
    cite = d.get("rule") or d.get("ruling")
    if cite:
        line += " " + t("core.cite", locale, rule=cite_text(cite, locale))
    return line


#: the book's sections the referee cites by their Russian headings, and the key of each heading's translation
BOOK_SECTIONS = {"Козыри": "trumps", "Ход": "turn", "Захват": "capture", "Шняга": "shnyaga",
                 "Собственность": "property", "Конец колоды": "deck_end", "Разрешение споров": "disputes",
                 "Варианты игры": "variants"}


def cite_text(cite: str, locale: str) -> str:
    """A citation as a line shows it: a book heading stays the book's own (the rules page's anchor and the Why?
    button find it), quoted and glossed where the reader's language names it otherwise (``«Захват»: Capture``)."""
    key = BOOK_SECTIONS.get(cite)
    if key is None:
        return cite
    title = t(f"raiders.section.{key}", locale)
    return cite if title == cite else t("raiders.cite.book", locale, cite=cite, title=title)


_SILENT = ("shuffled", "turn_ended", "window_closed")


def hand_card_of(card: str, locale: str) -> str:
    f = lookup(card)
    return f"{fighter_mark(f, locale)}·{_kr(f)}" + (f" {f.shnyaga.name(locale)}" if f.shnyaga else "")
