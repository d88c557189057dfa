"""Text for humans: action labels, the board, one line per event.  Everything written here comes from a
view or an event that the reader may already see; a hidden card is never named."""
from __future__ import annotations

import datetime
from typing import Any, Callable, Mapping, Sequence

from bot.engine.board_text import fit, pending_lines, wrap_items
from bot.i18n import t

from .actions import flush_target
from .cards import COLOUR_MARK, COLOURS, catalogue

LIMIT = 1800
LABEL = 80
EFFECTS_SHOWN = 3  # spells listed per player on the compact board; the rest are counted
STAT_MARK = {"health": "❤️", "sphere": "🔮", "max_health": "❤️max", "max_sphere": "🔮max"}


def card_name(card: str, locale: str) -> str:
    return catalogue().card(card).name(locale)


def combo_name(combo: str, locale: str) -> str:
    return catalogue().combo(combo).name(locale)


def die_mark(colour: str, locale: str) -> str:
    """A die's colour and its letter ("🟥К"): the seven dice are told apart without seeing colour."""
    return COLOUR_MARK[colour] + t(f"claygod.die.{colour}", locale)


def cost_text(card: str, locale: str) -> str:
    cost = catalogue().card(card).cost
    return " ".join(f"{die_mark(c, locale)}{n}" for c, n in zip(COLOURS, cost) if n) or "0"


def _die(die: Mapping[str, Any], colour: str, locale: str) -> str:
    value = "·" if die["value"] is None else str(die["value"])
    frost = ""
    if die["frozen"]:
        left = die["frozen_turns"] if die["frozen_turns"] is not None else die.get("frozen_rolls")
        frost = "❄" if left is None else f"❄{left}"
    return f"{die_mark(colour, locale)}{value}{frost}"


def dice_text(dice: Mapping[str, Mapping[str, Any]], locale: str) -> str:
    return " ".join(_die(dice[c], c, locale) for c in COLOURS)


# ================================================================================== action labels
def describe_action(state: dict[str, Any], seat: int, action: dict[str, Any], locale: str) -> str:
    text = _describe(state, seat, action, locale)
    return text if len(text) <= LABEL else text[:LABEL - 1] + "…"


def _describe(state: dict[str, Any], seat: int, action: dict[str, Any], locale: str) -> str:
    kind = action["type"]
    if kind in ("play", "discard", "flush_discard", "swap_give", "give"):
        card = action["card"]
        return t(f"claygod.act.{kind}", locale, card=card_name(card, locale), cost=cost_text(card, locale))
    if kind == "play_two":
        a, b = action["cards"]
        return t("claygod.act.play_two", locale, first=card_name(a, locale), second=card_name(b, locale))
    if kind == "combo":
        return t("claygod.act.combo", locale, combo=combo_name(action["combo"], locale))
    if kind == "combo_freeze":
        own = state["turn"]["stage"] == "freeze_own"
        owner = seat if own else 1 - seat
        die = state["players"][owner]["dice"][action["colour"]]
        return t(f"claygod.act.combo_freeze_{'own' if own else 'enemy'}", locale,
                 die=_die(die, action["colour"], locale))
    if kind in ("freeze", "thaw"):
        owner = seat if action["side"] == "own" else 1 - seat
        die = state["players"][owner]["dice"][action["colour"]]
        return t(f"claygod.act.{kind}_{action['side']}", locale, die=_die(die, action["colour"], locale))
    if kind == "freeze_all":
        return t(f"claygod.act.freeze_all_{action['pay']}", locale)
    if kind == "attack":
        return t(f"claygod.act.attack_{action['stat']}", locale)
    if kind == "flush_done":
        return t("claygod.act.flush_done", locale, n=flush_target(state, seat))
    return t(f"claygod.act.{kind}", locale)


# ================================================================================== the board
def render_view(view: Mapping[str, Any], locale: str, names: Sequence[str], *, full: bool = False) -> str:
    """The board, every line within a phone's width.  Compact: at most a few running spells per player and
    the used pile as a count with its top card; ``full``: every spell and the whole used pile."""
    text = "\n".join(fit(_board(view, locale, names, full)))
    if not full and len(text) > LIMIT:  # a Discord message; only a pathological pile of spells gets here
        text = "\n".join(fit(_board(view, locale, names, full, effects=0)))
    return text if full else text[:LIMIT]


def _board(view: Mapping[str, Any], locale: str, names: Sequence[str], full: bool,
           effects: int = EFFECTS_SHOWN) -> list[str]:
    turn = view["turn"]
    lines = [t("claygod.view.header", locale, number=turn["number"])]
    me = view["seat"]
    order = [me, 1 - me] if me is not None else [0, 1]
    for s in order:
        lines += _player_lines(view, s, locale, names, None if full else effects)
    discard = view["discard"]
    lines.append(t("claygod.view.piles", locale, deck=view["deck_count"], used=len(discard)))
    if full and discard:
        lines += wrap_items(t("claygod.view.used_pile", locale), [card_name(c, locale) for c in reversed(discard)])
    elif discard:
        lines.append(t("claygod.view.top", locale, top=card_name(discard[-1], locale)))
    if me is not None:
        p = view["players"][me]
        hand = p["hand"] or []
        lines.append(t("claygod.view.hand", locale))
        lines += [f"  {card_name(c, locale)} {cost_text(c, locale)}" for c in hand]
    lines += _turn_lines(view, locale, names)
    return lines


def _player_lines(view: Mapping[str, Any], s: int, locale: str, names: Sequence[str],
                  effects: int | None) -> list[str]:
    """The player's stats, hand and dice; ``effects``: how many running spells to list (None: all)."""
    p = view["players"][s]
    total = sum(d["value"] or 0 for d in p["dice"].values())
    lines = [t("claygod.view.player", locale, name=names[s], health=p["health"], sphere=p["sphere"],
               max_health=p["max_health"], max_sphere=p["max_sphere"]),
             "  " + t("claygod.view.player_cards", locale, cards=p["hand_count"], size=p["hand_size"], sum=total,
                      table=t(table_key(p), locale)),
             "  " + dice_text(p["dice"], locale)]
    extra = turn_marks(p, locale)
    if extra:
        lines.append("  " + "; ".join(extra))
    running = p["effects"]
    if effects is not None and len(running) > effects:
        shown = running[:max(effects - 1, 0)]
        lines += ["  ✨ " + effect_text(e, locale) for e in shown]
        lines.append("  ✨ " + t("claygod.view.effects_more", locale, n=len(running) - len(shown)))
    else:
        lines += ["  ✨ " + effect_text(e, locale) for e in running]
    return lines


def table_key(p: Mapping[str, Any]) -> str:
    """The i18n key of what a mage has on the table: a face-down card, none, or no place for one (CG-20)."""
    if p["table_card"]:
        return "claygod.view.table_card"
    return "claygod.view.no_table_card" if p.get("table_place", True) else "claygod.view.no_table_place"


def turn_marks(p: Mapping[str, Any], locale: str) -> list[str]:
    """A mage's extra and skipped turns still to come."""
    marks = []
    if p["extra_turns"]:
        marks.append(t("claygod.view.extra_turns", locale, n=p["extra_turns"]))
    if p["skip_turns"]:
        marks.append(t("claygod.view.skip_turns", locale, n=p["skip_turns"]))
    return marks


def effect_text(e: Mapping[str, Any], locale: str, *, stat: Callable[[str], str] = STAT_MARK.__getitem__,
                colour: Callable[[str, str], str] = die_mark, clock: str = "%H:%M:%S UTC") -> str:
    """One running spell with what is left of it; ``stat`` and ``colour`` name a stat and a die (marks in
    text, words where the picture's font has no emoji), ``clock`` formats a real-time deadline."""
    card = card_name(e["card"], locale) if e.get("card") else ""
    left = e.get("turns_left")
    if e["kind"] == "each_turn":
        text = t("claygod.effect.each_turn", locale, card=card, stat=stat(e["stat"]), by=f"{e['by']:+d}")
    elif e["kind"] == "maximise":
        text = t("claygod.effect.maximise", locale, card=card, colour=colour(e["colour"], locale))
    elif e.get("deadline") is not None:
        time = datetime.datetime.fromtimestamp(e["deadline"], datetime.timezone.utc).strftime(clock)
        return t("claygod.effect.clock_live", locale, card=card, time=time)
    else:
        text = t("claygod.effect.clock", locale, card=card)
    if left is not None:
        text += " " + t("claygod.effect.left", locale, n=left)
    return text


def _turn_lines(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> list[str]:
    lines = []
    turn = view["turn"]
    if turn["free_cast"]:
        lines.append(t("claygod.view.free_cast", locale))
    if turn["stage"] == "choose_combo":
        lines += wrap_items(t("claygod.view.combos", locale), [combo_name(c, locale) for c in turn["combos"]],
                            sep=" /")
    # whose decision it is, said once: the header names no player
    return lines + pending_lines(view, locale, names, detail=lambda p: t(p["prompt"], locale) if p["prompt"] else None)


def _outcome_line(outcome: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    winners = ", ".join(names[s] for s in outcome["winners"])
    reason = t(outcome["reason"], locale)
    if winners:
        return t("claygod.view.won", locale, winners=winners, reason=reason)
    return t("claygod.view.draw", locale, reason=reason)


# ================================================================================== events
def render_event(event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
    kind, d = event["kind"], event["data"]
    render = _EVENTS.get(kind)
    if render is None:
        return None
    line = render(d, locale, names)
    if d.get("ruling"):
        line += " " + t("core.cite", locale, rule=d["ruling"])
    return line


def _n(names: Sequence[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def _cards(cards: Sequence[str], locale: str) -> str:
    return ", ".join(card_name(c, locale) for c in cards)


def _stats(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    cause = d["cause"]
    if "card" in cause:
        label = card_name(cause["card"], locale)
        if cause.get("via"):
            label = f"{card_name(cause['via'], locale)} → {label}"
    elif "combo" in cause:
        label = combo_name(cause["combo"], locale)
    elif "action" in cause:
        label = t(f"claygod.cause.{cause['action']}", locale)
    else:
        label = t("claygod.cause.turn_start", locale)
    parts: dict[int, list[str]] = {}
    for c in d["changes"]:
        text = f"{STAT_MARK[c['stat']]} {c['from']}→{c['to']}"
        why = c.get("why")
        if why:
            text += f" ({t('claygod.cause.' + why, locale) if why in ('drain', 'drained') else card_name(why, locale)})"
        parts.setdefault(c["seat"], []).append(text)
    body = "; ".join(f"{_n(names, s)} " + ", ".join(items) for s, items in parts.items())
    return f"{label}: {body}"


def _effect_added(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("claygod.ev.effect_added", locale, name=_n(names, d["seat"]), effect=effect_text(d["effect"], locale))


def _effect_ended(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("claygod.ev.effect_ended", locale, name=_n(names, d["seat"]), card=card_name(d["effect"]["card"], locale))


def _frozen(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    if d.get("rolls") is not None:
        how = t("claygod.ev.for_rolls", locale, n=d["rolls"])
    elif d.get("turns") is not None:
        how = t("claygod.ev.for_turns", locale, n=d["turns"])
    else:
        how = t("claygod.ev.until_thawed", locale)
    key = "claygod.ev.frozen_own" if d["seat"] == d["owner"] else "claygod.ev.frozen"
    return t(key, locale, name=_n(names, d["seat"]), owner=_n(names, d["owner"]),
             colour=die_mark(d["colour"], locale), how=how)


def _thawed(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    key = "claygod.ev.thawed_own" if d["seat"] == d["owner"] else "claygod.ev.thawed"
    return t(key, locale, name=_n(names, d["seat"]), owner=_n(names, d["owner"]),
             colour=die_mark(d["colour"], locale))


def _rolled(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    values = d["dice"]  # a mapping: stored events come back with their keys sorted, so keep the dice order here
    dice = " ".join(f"{die_mark(c, locale)}{'·' if values[c] is None else values[c]}{'❄' if c in d['held'] else ''}"
                    for c in COLOURS)
    return t("claygod.ev.rolled", locale, name=_n(names, d["seat"]), dice=dice, sum=d["sum"])


def _simple(key: str, **fields: str) -> Callable[[Mapping[str, Any], str, Sequence[str]], str]:
    """A renderer for events whose fields map straight onto a string's placeholders."""
    def render(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
        params: dict[str, Any] = {}
        for placeholder, source in fields.items():
            how, _, field = source.partition(":")
            value: Any = d.get(field)  # of the kind ``how`` names: a seat, a card id, a list of colours...
            if how == "seat":
                params[placeholder] = _n(names, value)
            elif how == "card":
                params[placeholder] = card_name(value, locale)
            elif how == "cards":
                params[placeholder] = _cards(value, locale) or "—"
            elif how == "combo":
                params[placeholder] = combo_name(value, locale)
            elif how == "combos":
                params[placeholder] = " / ".join(combo_name(c, locale) for c in value)
            elif how == "colour":
                params[placeholder] = die_mark(value, locale)
            elif how == "colours":
                params[placeholder] = " ".join(die_mark(c, locale) for c in value)
            elif how == "stat":
                params[placeholder] = t(f"claygod.stat.{value}", locale)
            elif how == "prompt":
                params[placeholder] = t(f"claygod.prompt.{value}", locale)
            else:
                params[placeholder] = value
        return t(f"claygod.ev.{key}", locale, **params)
    return render


def _played(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    key = "claygod.ev.played_table" if d["source"] == "table" else "claygod.ev.played"
    return t(key, locale, name=_n(names, d["seat"]), card=card_name(d["card"], locale))


def _game_over(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    return "🏁 " + _outcome_line({"winners": d["winners"], "reason": f"claygod.outcome.{d['reason']}"},
                                 locale, names)


_EVENTS = {
    "first": _simple("first", name="seat:seat"),
    "dealt": _simple("dealt", name="seat:seat", cards="cards:cards"),
    "table_cards_set": _simple("table_cards_set", cards="cards:cards"),
    "table_card_set": _simple("table_card_set", name="seat:seat", card="card:card"),
    "table_card_laid": _simple("table_card_laid", name="seat:seat"),
    "turn_started": _simple("turn_started", name="seat:seat", number="n:number"),
    "turn_skipped": _simple("turn_skipped", name="seat:seat", n="n:left"),
    "extra_turn": _simple("extra_turn", name="seat:seat", n="n:left"),
    "stats": _stats,
    "rolled": _rolled,
    "combos_available": _simple("combos_available", name="seat:seat", combos="combos:combos"),
    "combo": _simple("combo", name="seat:seat", combo="combo:combo"),
    "step_skipped": _simple("step_skipped", name="seat:seat", step="prompt:step"),
    "frozen": _frozen,
    "thawed": _thawed,
    "thawed_by_time": _simple("thawed_by_time", name="seat:seat", colours="colours:colours"),
    "frozen_all": _simple("frozen_all", name="seat:seat", stat="stat:pay"),
    "max_frozen": _simple("max_frozen", name="seat:seat", colours="colours:colours"),
    "snow": _simple("snow", name="seat:seat", n="n:turns"),
    "effect_added": _effect_added,
    "effect_ended": _effect_ended,
    "curses_lifted": _simple("curses_lifted", name="seat:seat", cards="cards:cards"),
    "extra_turns": _simple("extra_turns", name="seat:seat", n="n:n"),
    "skip_turns": _simple("skip_turns", name="seat:seat", n="n:n"),
    "hand_size": _simple("hand_size", name="seat:seat", before="n:before", after="n:after"),
    "table_place_lost": _simple("table_place_lost", name="seat:seat"),
    "free_cast": _simple("free_cast", name="seat:seat"),
    "pandora": _simple("pandora", name="seat:seat", card="card:card"),
    "played": _played,
    "discarded": _simple("discarded", name="seat:seat", card="card:card"),
    "flush_done": _simple("flush_done", name="seat:seat", n="n:count"),
    "drew": _simple("drew", name="seat:seat", cards="cards:cards"),
    "drew_count": _simple("drew_count", name="seat:seat", n="n:count"),
    "reshuffled": _simple("reshuffled", n="n:count"),
    "used_pile_set": _simple("used_pile_set", n="n:count"),
    "swapped": _simple("swapped", name="seat:seat", gave="card:gave", took="card:took"),
    "swapped_public": _simple("swapped_public", name="seat:seat"),
    "give_requested": _simple("give_requested", name="seat:seat", receiver="seat:receiver", n="n:count"),
    "gave": _simple("gave", name="seat:seat", receiver="seat:receiver", card="card:card"),
    "gave_count": _simple("gave_count", name="seat:seat", receiver="seat:receiver"),
    "timed_out": _simple("timed_out", name="seat:seat"),
    "clock_expired": _simple("clock_expired", name="seat:seat"),
    "game_over": _game_over,
}
