"""Text for humans: action labels, the table board, one line per event.  Everything here works from a view
or an event, which already hold only what their reader may see."""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable, Mapping, Sequence, cast

from bot.engine.board_text import clip_items, fit, pending_lines, wrap_items
from bot.i18n import t

from .cards import catalogue, kind_name, name

LIMIT = 1800
LABEL_LIMIT = 80
KNOWN_LINES = 2  # lines "who has seen whose role" takes on the compact board; the viewers beyond are counted


def card_list(cards: Sequence[str], locale: str) -> str:
    """"Bite ×2, Mirror" in a stable order; "none" for an empty list."""
    if not cards:
        return t("bloodwood.board.no_cards", locale)
    counts = Counter(name(c) for c in cards)
    return ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in counts.items())


def role_text(role: str) -> str:
    return catalogue().role_name(role)


def team_text(role: str, locale: str) -> str:
    return t(f"bloodwood.team.{catalogue().team(role)}", locale)


def _seat_label(seat: int, locale: str, names: Sequence[str]) -> str:
    """The player's name; "seat N" (from 1) where the caller has no names."""
    return names[seat] if seat < len(names) else t("bloodwood.seat", locale, n=seat + 1)


# ------------------------------------------------------------------------------------------ action labels
def describe_action(view: Mapping[str, Any], action: Mapping[str, Any], locale: str,
                    names: Sequence[str] = ()) -> str:
    return _describe(view, action, locale, names)[:LABEL_LIMIT]


def _describe(view: Mapping[str, Any], action: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    kind, step = action["type"], view.get("step") or {}
    params: dict[str, Any] = {}
    if action.get("card") in catalogue().cards:
        params["card"] = name(action["card"])
    if isinstance(action.get("seat"), int):
        params["seat"] = _seat_label(action["seat"], locale, names)
    if kind == "play" and isinstance(action.get("target"), int):
        target = _seat_label(action["target"], locale, names)
        return t("bloodwood.act.play_on", locale, card=params["card"], seat=target)
    if kind == "target":
        if not step.get("card"):
            return cast("str", params["seat"])
        if action["seat"] == view["seat"]:
            return t("bloodwood.act.target_self", locale, card=name(step["card"]))
        return t("bloodwood.act.target", locale, card=name(step["card"]), seat=params["seat"])
    if kind == "steal":
        return t("bloodwood.act.steal", locale, back=t(f"bloodwood.back.{action['deck']}", locale))
    if kind == "draw":
        return t("bloodwood.act.draw", locale, deck=t(f"bloodwood.deck.{action['deck']}", locale))
    if kind == "draw_all":
        return t("bloodwood.act.draw_all", locale, day=action["day"], night=action["night"])
    if kind == "confirm":
        return t("bloodwood.act.confirm", locale, n=len(step.get("named") or []))
    if kind == "done":
        return t("bloodwood.act.done", locale, n=len(step.get("kept") or []))
    if kind == "assign":
        return t("bloodwood.act.assign", locale, seat=_seat_label(len(step.get("roles") or []), locale, names),
                 role=role_text(action["role"]))
    return t(f"bloodwood.act.{kind}", locale, **params)


# ------------------------------------------------------------------------------------------ the board
def render_view(view: Mapping[str, Any], locale: str, names: Sequence[str], *, full: bool = False) -> str:
    """The table, every line within a phone's width.  Compact: the discard pile as its size and top card, who
    has seen whose role in KNOWN_LINES lines; ``full``: the whole discard pile and every role seen."""
    lines = [t("bloodwood.board.head", locale, phase=t(f"bloodwood.phase.{view['phase']}", locale),
               count=min(view["phase_turns"] + 1, view["seats"]), of=view["seats"]),
             t(f"bloodwood.board.direction.{view['direction']}", locale)]
    lines += wrap_items(t("bloodwood.board.roles", locale), _composition_items(view["composition"]))
    discard = view["discard"]
    lines.append(t("bloodwood.board.decks", locale, day=view["decks"]["day"], night=view["decks"]["night"],
                   discard=discard["count"]))
    if full and discard.get("cards"):
        lines += wrap_items(t("bloodwood.board.discard_pile", locale), _pile_items(discard["cards"]))
    elif discard["top"]:
        lines.append(t("bloodwood.board.top", locale, card=name(discard["top"])))
    lines += [_player_line(seat, player, locale, names) for seat, player in enumerate(view["players"])]
    if view["known"]:
        lines += _known_lines(view["known"], locale, names, full)
    flight = view["in_flight"]
    if flight:
        lines.append(t("bloodwood.board.in_flight", locale, card=name(flight["card"]), player=names[flight["player"]],
                       target=names[flight["target"]]))
    me = view["seat"]
    if me is not None:
        role = view["players"][me]["role"]
        if role:
            lines.append(t("bloodwood.board.my_role", locale, role=role_text(role), team=team_text(role, locale)))
        lines += wrap_items(t("bloodwood.board.my_hand", locale), card_items(view["hand"]) or
                            [t("bloodwood.board.no_cards", locale)])
        lines += _private_step(view, locale, names)
    lines += _pending(view, locale, names)
    text = "\n".join(fit(lines))
    return text if full or len(text) <= LIMIT else text[:LIMIT - 1] + "…"


def card_items(cards: Iterable[str]) -> list[str]:
    """"Bite ×2", "Mirror": one item per card name, copies counted, in the order first seen."""
    counts = Counter(name(c) for c in cards)
    return [f"{n} ×{k}" if k > 1 else n for n, k in counts.items()]


def _pile_items(pile: Sequence[str]) -> list[str]:
    """The discard pile from its top down, neighbouring copies counted ("Bite ×2")."""
    items: list[list[Any]] = []  # [card id, copies], JSON-like pairs counted in place
    for cid in reversed(pile):
        if items and items[-1][0] == cid:
            items[-1][1] += 1
        else:
            items.append([cid, 1])
    return [f"{name(c)} ×{k}" if k > 1 else name(c) for c, k in items]


def _pending(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> list[str]:
    """Who owes a decision, once: an answer to a card and a declaration are not called turns; the seat asked
    reads what to do, the others only who is asked."""
    def label(p: Mapping[str, Any]) -> str | None:
        kind = p["prompt"].rsplit(".", 1)[-1] if p["prompt"] else ""
        if kind == "declare":
            return t("bloodwood.pending.declare", locale)
        extra = view["turn"]["extra"] if view["turn"] else None
        if p["kind"] == "turn" and extra:
            return t("bloodwood.pending.extra", locale, card=kind_name(extra))
        return None

    def detail(p: Mapping[str, Any]) -> str | None:
        if p["seat"] == view["seat"] and p["prompt"]:
            return t(p["prompt"], locale)
        kind = p["prompt"].rsplit(".", 1)[-1] if p["prompt"] else ""
        return t(f"bloodwood.pending.about.{kind}", locale) if kind in _ABOUT else None

    return pending_lines(view, locale, names, label=label, detail=detail)


#: decisions whose public line says what is being decided (the others: a turn, an answer, a declaration)
_ABOUT = ("thief_back", "keep_voodoo", "keep_hunter", "give", "leshy", "confess", "draw", "trim", "assign", "first")


def _known_lines(known: Sequence[Sequence[int]], locale: str, names: Sequence[str], full: bool) -> list[str]:
    """Whose roles each player has seen (by Blood Test or Confession): "Боб → Аня, Вера"."""
    seen: dict[int, list[int]] = {}
    for viewer, subject in known:
        seen.setdefault(viewer, []).append(subject)
    items = [f"{names[v]} → {', '.join(names[s] for s in subjects)}" for v, subjects in sorted(seen.items())]
    head = t("bloodwood.board.known", locale)
    if full:
        return wrap_items(head, items, sep=";")
    return clip_items(head, items, lambda k: t("core.board.more", locale, n=k), KNOWN_LINES, sep=";")


def _composition_items(counts: Mapping[str, int]) -> list[str]:
    return [f"{role_text(r)} ×{n}" if n > 1 else role_text(r) for r, n in counts.items() if n]


def _composition(counts: Mapping[str, int]) -> str:
    return ", ".join(_composition_items(counts))


def _player_line(seat: int, player: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    extras = []
    if player["role"]:
        extras.append(role_text(player["role"]))
    if player["curse"]:
        extras.append(t("bloodwood.board.curse", locale, n=player["curse"]))
    if player["chains"]:
        extras.append("Chains")
    if player["asleep"]:
        extras.append("Tranquilizer")
    return t("bloodwood.board.player", locale, name=names[seat],
             dna=t(f"bloodwood.dna.{player['dna']}", locale), day=player["hand"]["day"],
             night=player["hand"]["night"], extras="".join(f" [{e}]" for e in extras))


def _private_step(view: Mapping[str, Any], locale: str, names: Sequence[str]) -> list[str]:
    step = view["step"] or {}
    if step.get("seat") != view["seat"]:
        return []
    if step.get("card"):
        return [t("bloodwood.board.selected", locale, card=name(step["card"]))]
    if "kept" in step:
        return [t("bloodwood.board.kept", locale, cards=card_list(step["kept"], locale))]
    if "named" in step:
        return [t("bloodwood.board.named", locale, names=_seats(sorted(step["named"]), locale, names))]
    if "roles" in step:
        given = ", ".join(f"{names[s]} — {role_text(r)}" for s, r in enumerate(step["roles"]))
        return [t("bloodwood.board.assigned", locale, roles=given or t("bloodwood.ev.nobody", locale))]
    return []


# ------------------------------------------------------------------------------------------ events
def render_event(event: Mapping[str, Any], locale: str, names: Sequence[str]) -> str | None:
    kind, data = event["kind"], dict(event["data"])
    render = _EVENTS.get(kind)
    if render is None:
        return None
    params = {"name": names[data["seat"]]} if isinstance(data.get("seat"), int) else {}
    for key in ("target", "receiver", "recipient", "hunter", "attacker", "subject", "player"):
        if isinstance(data.get(key), int):
            params[key] = names[data[key]]
    for key in ("card", "attack"):
        if isinstance(data.get(key), str):
            params[key] = name(data[key])
    if "deck" in data:
        params["deck"] = t(f"bloodwood.deck.{data['deck']}", locale)
        params["back"] = t(f"bloodwood.back.{data['deck']}", locale)
    if isinstance(data.get("cards"), list):
        params["cards"] = card_list(data["cards"], locale)
    if "role" in data:
        params["team"] = team_text(data["role"], locale)
        params["role"] = role_text(data["role"])
    line = render(data, params, locale, names)
    if data.get("rule"):
        line += " " + t("core.cite", locale, rule=data["rule"])
    return line


#: one event's line from its data, the localised names, the locale and the seats' names
EventText = Callable[[dict[str, Any], dict[str, Any], str, Sequence[str]], str]


def _simple(key: str) -> EventText:
    def render(data: dict[str, Any], params: dict[str, Any], locale: str, names: Sequence[str]) -> str:
        return t(f"bloodwood.ev.{key}", locale, **{**data, **params})
    return render


def _by(field: str, key: str) -> EventText:
    """The string chosen by one field's value, e.g. ``discarded.leshy``."""
    def render(data: dict[str, Any], params: dict[str, Any], locale: str, names: Sequence[str]) -> str:
        return t(f"bloodwood.ev.{key}.{data[field]}", locale, **{**data, **params})
    return render


def _seats(seats: Sequence[int], locale: str, names: Sequence[str]) -> str:
    return ", ".join(names[s] for s in seats) or t("bloodwood.ev.nobody", locale)


def _roles(roles: Sequence[str], names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} — {role_text(r)}" for s, r in enumerate(roles))


def _play(data: dict[str, Any], params: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    if data["target"] is None:
        return t("bloodwood.ev.play", locale, **params)
    key = "play_self" if data["target"] == data["seat"] else "play_on"
    return t(f"bloodwood.ev.{key}", locale, **params)


def _judged(data: dict[str, Any], params: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t(f"bloodwood.ev.declaration_judged.{'right' if data['right'] else 'wrong'}", locale, **params,
             named=_seats(data["named"], locale, names), enemies=_seats(data["enemies"], locale, names),
             pure=_seats(data["pure"], locale, names))


#: events whose string is bloodwood.ev.<kind>, filled from the event's data
_SIMPLE = ("cards_dealt", "dealt", "role", "host_assigns", "slept", "counter_window", "no_counter", "no_effect",
           "curse_passed", "cursed", "chained", "tranquilized", "vaccinated", "curse_lifted", "unchained",
           "voodoo_taken", "cards_seen", "voodoo_returned", "cards_returned", "hand_discarded", "stole",
           "stolen_card", "blood_tested", "role_seen", "confessed", "gave", "given_card", "passed", "draw", "drew",
           "reshuffled", "curse_countdown", "mutated_forever", "declared", "timed_out", "turn_skipped",
           "leshy_discards", "hunter_gives")

_EVENTS: dict[str, EventText] = {
    **{kind: _simple(kind) for kind in _SIMPLE},
    "composition": lambda d, p, loc, n: t("bloodwood.ev.composition", loc, roles=_composition(d["counts"])),
    "roles_dealt": _by("how", "roles_dealt"),
    "leader_sight": lambda d, p, loc, n: t("bloodwood.ev.leader_sight", loc, roles=_roles(d["roles"], n)),
    "leaders_looked": lambda d, p, loc, n: t("bloodwood.ev.leaders_looked", loc, n=d["count"]),
    "first_player": _by("how", "first_player"),
    "phase": _by("phase", "phase"),
    "turn": lambda d, p, loc, n: t("bloodwood.ev.turn", loc, **p, phase=t(f"bloodwood.phase.{d['phase']}", loc),
                                   count=d["count"], of=d["of"]),
    "extra_turn": lambda d, p, loc, n: t("bloodwood.ev.extra_turn", loc, **p, card=kind_name(d["special"])),
    "play": _play,
    "countered": _by("card", "countered"),
    "bitten": _by("dna", "bitten"),
    "hunter_kept": lambda d, p, loc, n: t("bloodwood.ev.hunter_kept", loc, **p, count=d["count"],
                                          cards=card_list(d["discarded"], loc)),
    "discarded": _by("why", "discarded"),
    "direction": _by("direction", "direction"),
    "declaration_judged": _judged,
    "roles_revealed": lambda d, p, loc, n: t("bloodwood.ev.roles_revealed", loc, roles=_roles(d["roles"], n)),
}
