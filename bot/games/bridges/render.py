"""Text for humans: action labels, the board (lines of at most 40 columns, for a phone) and one line per event.
Everything on the table is public, so labels and boards may name anything they show."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from bot.engine.board_text import cut_to_width, display_width, shorten_name
from bot.i18n import t

from .combat import attack_modes, provoked_counter, sources, weapon_sources
from .data import catalogue
from .state import cls_rule, max_hp, move_cost, strength

WIDTH = 40
#: a boss's move as the table and the thread show it: one plain line (the log has the reasoning)
BOSS_LINE = 60
LIMIT = 1800
LABEL = 80
NAME = 12


# ------------------------------------------------------------------------------------------ small names
def item_name(iid: str, locale: str) -> str:
    return t(f"bridges.item.{iid}", locale)


def boss_name(bid: str, locale: str) -> str:
    return t(f"bridges.boss.{bid}", locale)


def island_name(island: str, locale: str) -> str:
    return t(f"bridges.island.{island}", locale)


def class_name(cls: str, locale: str) -> str:
    return t(f"bridges.class.{cls}", locale)


def ability_name(aid: str, locale: str) -> str:
    return t(f"bridges.ability.{aid}", locale)


def seat_name(seat: int, locale: str, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else t("bridges.seat", locale, n=seat + 1)


def loot(items: Mapping[str, int], coins: int | None, locale: str) -> str:
    parts = [f"{item_name(i, locale)} ×{n}" if n > 1 else item_name(i, locale) for i, n in items.items() if n]
    if coins:
        parts.append(f"{coins}💰")
    return ", ".join(parts) or t("bridges.ev.nothing", locale)


def wrap(text: str, lead: str = "", indent: str = "   ") -> list[str]:
    """Greedy word wrap to WIDTH display columns; the first line starts with ``lead``, the others are indented."""
    lines: list[str] = []
    current = lead
    for word in text.split(" "):
        candidate = f"{current} {word}" if current.strip() else current + word
        if display_width(candidate) <= WIDTH or not current.strip():
            current = candidate
        else:
            lines.append(current)
            current = indent + word
        if display_width(current) > WIDTH:  # a single word longer than a line
            current = cut_to_width(current, WIDTH, indent, lines)
    if current:
        lines.append(current)
    return lines


# ------------------------------------------------------------------------------------------ action labels
def describe_action(state: Mapping[str, Any], seat: int, action: Mapping[str, Any], locale: str,
                    names: Sequence[str] = ()) -> str:
    text = _describe(state, seat, action, locale, names)
    return text if len(text) <= LABEL else text[:LABEL - 1] + "…"


def _describe(state: Mapping[str, Any], seat: int, a: Mapping[str, Any], locale: str, names: Sequence[str]) -> str:
    kind = a.get("type")
    c = state["chars"][seat]
    if kind == "choose":
        base = catalogue().chars["base_stats"]
        spec = catalogue().chars["classes"][a["cls"]]
        return t("bridges.act.choose", locale, cls=class_name(a["cls"], locale), mhp=base["mhp"] + spec.get("mhp", 0),
                 dmg=base["damage"] + spec.get("damage", 0))
    if kind == "end":
        return t("bridges.act.end", locale, ap=c["ap"])
    if kind == "move":
        return t("bridges.act.move", locale, island=island_name(a["to"], locale), ap=move_cost(state, seat))
    if kind == "attack":
        return _attack_label(state, seat, a, locale)
    if kind == "mark":
        return t("bridges.act.mark", locale, boss=boss_name(a["boss"], locale))
    if kind == "trap":
        return t("bridges.act.trap", locale, island=island_name(a.get("island") or c["at"], locale))
    if kind == "push":
        return t("bridges.act.push", locale, ally=seat_name(a["seat"], locale, names),
                 island=island_name(a["to"], locale))
    if kind == "guard":
        return t(f"bridges.act.guard.{'on' if a['on'] else 'off'}", locale)
    if kind == "build":
        from .actions import building_cost
        coins, items = building_cost(state, seat, a["building"])
        return t("bridges.act.build", locale, building=t(f"bridges.building.{a['building']}", locale),
                 cost=loot(items, coins, locale) if coins or items else "0💰")
    if kind == "charge":
        return t("bridges.act.charge", locale)
    if kind == "launch":
        return t("bridges.act.launch", locale, island=island_name(a["to"], locale))
    if kind == "launch_item":
        params = {"item": item_name(a["item"], locale)}
        if "to" in a:
            return t("bridges.act.launch_item.jump", locale, **params, ally=seat_name(a["seat"], locale, names),
                     island=island_name(a["to"], locale))
        if "seat" in a:
            return t("bridges.act.launch_item.seat", locale, **params, ally=seat_name(a["seat"], locale, names))
        return t("bridges.act.launch_item.island", locale, **params, island=island_name(a["island"], locale))
    if kind == "bomb":
        return t("bridges.act.bomb", locale, island=island_name(c["at"], locale))
    if kind == "spring":
        return t("bridges.act.spring", locale, island=island_name(a["to"], locale))
    if kind == "use":
        return t(f"bridges.act.use.{a['item']}", locale)
    if kind == "buy":
        from .actions import price
        quote = price(state, seat, a["item"])
        cost = quote[0] if isinstance(quote, tuple) else "?"
        return t("bridges.act.buy", locale, item=item_name(a["item"], locale), coins=cost)
    if kind == "blueprints":
        return t("bridges.act.blueprints", locale, coins=catalogue().craftsman["blueprints"])
    if kind == "camp":
        from .actions import camp_cost
        return t("bridges.act.camp", locale, coins=camp_cost(state, seat))
    if kind == "equip":
        old = a.get("replace") or []
        if old:
            return t("bridges.act.equip_instead", locale, item=item_name(a["item"], locale),
                     old=", ".join(item_name(i, locale) for i in old))
        return t("bridges.act.equip", locale, item=item_name(a["item"], locale))
    if kind == "unequip":
        return t("bridges.act.unequip", locale, item=item_name(a["item"], locale))
    if kind == "dismantle":
        return t("bridges.act.dismantle", locale, item=item_name(a["item"], locale),
                 coins=(catalogue().price(a["item"]) or 0) // 2)
    return str(kind)


def _attack_label(state: Mapping[str, Any], seat: int, a: Mapping[str, Any], locale: str) -> str:
    bid, mode = a["boss"], a["mode"]
    marked = t("bridges.act.marked", locale) if state["bosses"][bid]["marked"] else ""
    if mode not in attack_modes(state, seat, bid):  # not offered; a plain label for a typed one
        return t("bridges.act.attack.body", locale, boss=boss_name(bid, locale), dmg="?", marked="")
    values = sources(state, seat, bid, mode)
    dmg = "+".join(map(str, values)) if len(values) > 1 else str(values[0])
    if mode == "body":
        text = t("bridges.act.attack.body", locale, boss=boss_name(bid, locale), dmg=dmg, marked=marked)
    else:
        weapons = ", ".join(dict.fromkeys(item_name(i, locale) for i in weapon_sources(state, seat, bid)))
        text = t("bridges.act.attack.weapons", locale, boss=boss_name(bid, locale), weapons=weapons, dmg=dmg,
                 marked=marked)
    if provoked_counter(state, seat, bid, mode) == "none":
        text += t("bridges.act.no_counter", locale)
    if a.get("risky"):
        text += t("bridges.act.risky", locale)
    return text


# ------------------------------------------------------------------------------------------ the board
def render_view(view: Mapping[str, Any], locale: str, names: Sequence[str], *, full: bool = False) -> str:
    """The board in lines of WIDTH columns.  To fit one message a long board drops the characters' gear and is
    cut at LIMIT; ``full`` (the "Full board" button) keeps every character's gear and is never cut."""
    lines = _board(view, locale, names, gear=True)
    text = "\n".join(lines)
    if full:
        return text
    if len(text) > LIMIT:
        text = "\n".join(_board(view, locale, names, gear=False))
    return text if len(text) <= LIMIT else text[:LIMIT - 1] + "…"


def _short(name: str) -> str:
    return shorten_name(name, NAME)


def _board(view: Mapping[str, Any], locale: str, names: Sequence[str], gear: bool) -> list[str]:
    cat = catalogue()
    lines: list[str] = []
    if view["phase"] == "choose":
        lines.append(t("bridges.board.choosing", locale))
        for seat, c in enumerate(view["chars"]):
            name = _short(seat_name(seat, locale, names))
            if c["cls"]:
                lines += wrap(f"{name} — {class_name(c['cls'], locale)}")
            else:
                lines += wrap(t("bridges.board.unchosen", locale, name=name))
        return lines
    lines += wrap(t("bridges.board.head", locale, round=view["round"], base=view["base_hp"],
                    max=cat.chars["base_hp"]))
    bank = view["bank"]
    lines += wrap(t("bridges.board.bank", locale, coins=bank["coins"]) +
                  (" " + loot(bank["items"], None, locale) if bank["items"] else ""))
    upgrades = [t(f"bridges.board.{k}", locale) for k in ("blueprints", "camp", "arm_trade") if view[k]]
    if view["tier2_sold"]:
        upgrades.append(t("bridges.board.tier2_sold", locale) + ": " +
                        ", ".join(item_name(i, locale) for i in view["tier2_sold"]))
    if upgrades:
        lines += wrap(t("bridges.board.upgrades", locale) + " " + ", ".join(upgrades))
    for island in cat.islands:
        lines += wrap(_island_line(view, island, locale, names))
    waiting = {p["seat"] for p in view["to_act"]}
    for seat, c in enumerate(view["chars"]):
        lines += _char_lines(view, seat, c, seat in waiting, locale, names, gear)
    return lines


def _island_line(view: Mapping[str, Any], island: str, locale: str, names: Sequence[str]) -> str:
    parts: list[str] = []
    for bid, b in view["bosses"].items():
        if b["at"] != island:
            continue
        if b["hp"] <= 0:
            parts.append(f"{boss_name(bid, locale)} ✝")
            continue
        tags = ""
        if b["marked"]:
            tags += " 🎯"
        if bid == catalogue().final_boss and view["provoked"]:
            tags += " " + t("bridges.board.provoked", locale)
        other = catalogue().bosses[bid].get("peaceful_while_dead")
        if other and view["bosses"][other]["hp"] <= 0 and not b["angry"]:
            tags += " " + t("bridges.board.peace", locale)
        parts.append(f"{boss_name(bid, locale)} ❤{b['hp']}/{b['mhp']}{tags}")
    extras = []
    if island in view["chests"]:
        extras.append(t("bridges.board.chest", locale))
    building = view["buildings"].get(island)
    if building and building["kind"] == "fort":
        left = catalogue().chars["buildings"]["fort"]["hits"] - building["hits"]
        extras.append(t("bridges.board.fort", locale, left=left))
    elif building:
        extras.append(t("bridges.board.catapult_charged" if building["charged"] else "bridges.board.catapult", locale))
    if island in view["traps"]:
        extras.append(t("bridges.board.trap", locale))
    bombs = sum(1 for b in view["bombs"] if b["at"] == island)
    if bombs:
        extras.append("💣" * bombs)
    if island == catalogue().base and view["camp"]:
        extras.append("⛺")
    who = [_short(seat_name(s, locale, names)) for s, c in enumerate(view["chars"]) if c["at"] == island]
    # the island's name in the players' language, then what is on it ("Остров 2: Големко ❤24/24 ← Аня")
    line = island_name(island, locale) + (": " + " ".join(parts) if parts else "")
    if extras:
        line += " · " + ", ".join(extras)
    if who:
        line += " ←\u00a0" + ", ".join(who)  # a no-break space: the arrow wraps with the first name
    return line


def char_tags(c: Mapping[str, Any], locale: str) -> list[str]:
    """What a character's line marks besides its health and AP (the text board and the picture): shield,
    guard, the risky attack used this phase (§1.5), done."""
    tags = []
    if c["shield"]:
        tags.append(t("bridges.board.shield", locale, n=c["shield"]))
    if c["guard"]:
        tags.append(t("bridges.board.guard", locale))
    if c["risky"]:
        tags.append(t("bridges.board.risky_used", locale))
    if c["done"]:
        tags.append(t("bridges.board.done", locale))
    return tags


def _char_lines(view: Mapping[str, Any], seat: int, c: Mapping[str, Any], waiting: bool, locale: str,
                names: Sequence[str], gear: bool) -> list[str]:
    mark = "▶ " if waiting else "  "
    head = t("bridges.board.char", locale, mark=mark, name=_short(seat_name(seat, locale, names)),
             cls=class_name(c["cls"], locale), hp=c["hp"], mhp=view["mhp"][seat], ap=c["ap"])
    tags = char_tags(c, locale)
    lines = wrap(head + (" · " + ", ".join(tags) if tags else ""))
    if gear and (c["hands"] or c["armour"]):
        none = t("bridges.board.none", locale)
        lines += wrap(t("bridges.board.gear", locale,
                                 hands=", ".join(item_name(i, locale) for i in c["hands"]) or none,
                                 armour=item_name(c["armour"], locale) if c["armour"] else none), lead="   ")
    fresh = view["fresh"][seat]
    if gear and fresh and view["seat"] == seat:
        lines += wrap(t("bridges.board.fresh", locale, items=", ".join(
            item_name(i, locale) for i in dict.fromkeys(fresh))), lead="   ")
    return lines


# ------------------------------------------------------------------------------------------ events
def render_event(event: Mapping[str, Any], locale: str, names: Sequence[str], *,
                 detail: bool = False) -> str | None:
    """One event as a line.  A boss's move is one plain line of at most BOSS_LINE columns (what it did); with
    ``detail`` (the log) it says which priority line the boss used and why, and cites the rule."""
    kind, d = event["kind"], dict(event["data"])
    p = _params(d, locale, names) if kind in _EVENTS else {}
    if not detail and kind in _SHORT:
        return _SHORT[kind](d, p, locale, names)
    fn = _EVENTS.get(kind)
    if fn is None:
        return None
    line = fn(d, p, locale, names)
    if line is None:
        return None
    rule = d.get("rule")
    if rule and kind in _CITED:
        line += " " + t("core.cite", locale, rule=rule)
    return line


#: events whose line cites the rule or ruling it applies
_CITED = {"kit", "provoked", "peace", "drop", "trap_sprung", "thorns", "fort_broken", "arm_trade", "camp_heal",
          "base_lasers", "boss_turn", "bomb_blast", "risky", "shield_gone", "phase_ended", "timed_out"}


def _params(d: Mapping[str, Any], locale: str, names: Sequence[str]) -> dict[str, Any]:
    p: dict[str, Any] = {}
    if isinstance(d.get("seat"), int):
        p["name"] = seat_name(d["seat"], locale, names)
    if isinstance(d.get("ally"), int):
        p["ally"] = seat_name(d["ally"], locale, names)
    for key in ("island", "frm", "dest"):
        if isinstance(d.get(key), str) and d[key] in catalogue().islands:
            p[key] = island_name(d[key], locale)
    for key in ("boss", "dead"):
        if isinstance(d.get(key), str) and d[key] in catalogue().bosses:
            p[key] = boss_name(d[key], locale)
    if isinstance(d.get("item"), str) and d["item"] in catalogue().items:
        p["item"] = item_name(d["item"], locale)
    if isinstance(d.get("cls"), str):
        p["cls"] = class_name(d["cls"], locale)
    if isinstance(d.get("ability"), str):
        p["ability"] = ability_name(d["ability"], locale)
    return p


#: one event's line from its data, the localised names (``_params``), the locale and the seats' names
EventText = Callable[[Mapping[str, Any], dict[str, Any], str, Sequence[str]], str | None]


def _simple(key: str) -> EventText:
    def render(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
        return t(f"bridges.ev.{key}", locale, **{**d, **p})
    return render


def _by(field: str, key: str) -> EventText:
    def render(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
        return t(f"bridges.ev.{key}.{d[field]}", locale, **{**d, **p})
    return render


def _kit(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    text = loot(d["items"], d["coins"], locale)
    if d["how"] == "stacked":
        return t("bridges.ev.kit_stacked", locale, loot=text)
    return t("bridges.ev.kit", locale, roll=d["roll"], loot=text)


def _classes(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.classes_dealt", locale, classes=", ".join(
        f"{seat_name(s, locale, names)} — {class_name(c, locale)}" for s, c in enumerate(d["classes"])))


def _bosses_ready(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.bosses_ready", locale, list=", ".join(
        f"{boss_name(b, locale)} ❤{hp}" for b, hp in d["hp"].items()))


def _drop(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.drop", locale, boss=p["boss"], roll=d["roll"], loot=loot(d["items"], d["coins"], locale))


def _risky(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.risky", locale, name=p["name"], roll=d["roll"], mod=f"{d['modifier']:+d}",
             before="+".join(map(str, d["before"])), after="+".join(map(str, d["after"])))


def _blow(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.blow", locale, sources="+".join(map(str, d["sources"])) or "0",
             marked=" ×2" if d["marked"] else "", amount=d["amount"])


def _counter(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.counter", locale, name=p["name"], boss=p["boss"], marked=" ×2" if d["marked"] else "",
             amount=d["amount"])


def _hurt(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    parts = [t("bridges.ev.hurt.meant", locale, n=d["meant"])] if d["meant"] else []
    if d["fort"]:
        parts.append(t("bridges.ev.hurt.fort", locale, n=d["fort"]))
    if d["guard"] is not None:
        parts.append(t("bridges.ev.hurt.guard", locale, guard=seat_name(d["guard"], locale, names)))
    if d["shield"]:
        parts.append(t("bridges.ev.hurt.shield", locale, n=d["shield"]))
    parts.append(t("bridges.ev.hurt.taken", locale, n=d["taken"]))
    return t("bridges.ev.char_hurt", locale, name=p["name"], detail=", ".join(parts), hp=d["hp"], mhp=d["mhp"])


def _built(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.built", locale, name=p["name"], building=t(f"bridges.building.{d['building']}", locale),
             island=p["island"], cost=loot(d["items"], d["coins"], locale) if d["coins"] or d["items"] else "0💰")


def _launched(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    if d.get("dest"):
        where = f"{seat_name(d['target'], locale, names)} → {island_name(d['dest'], locale)}"
    elif d.get("target") is not None:
        where = seat_name(d["target"], locale, names)
    else:
        where = island_name(d["island"], locale)
    return t("bridges.ev.launched", locale, name=p["name"], item=p["item"], where=where)


def _bomb_laid(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.bomb_laid", locale, name=p["name"], island=p["island"],
             when=t(f"bridges.ev.bomb_when.{d['timing']}", locale))


def _guard(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.ev.guard", locale, name=p["name"], state=t(f"bridges.ev.guard.{'on' if d['on'] else 'off'}",
                                                                  locale))


def _equipped(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    removed = t("bridges.ev.removed", locale, items=", ".join(item_name(i, locale) for i in d["removed"])) \
        if d["removed"] else ""
    healed = t("bridges.ev.healed_on_equip", locale, n=d["healed"]) if d["healed"] else ""
    return t("bridges.ev.equipped", locale, name=p["name"], item=p["item"], removed=removed, healed=healed,
             hp=d["hp"], mhp=d["mhp"])


def _boss_placed(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t(f"bridges.ev.boss_placed.{d['how']}", locale, island=p["island"], boss=p["boss"], die=d["die"],
             roll=d["roll"])


def _boss_turn(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    why = d["why"]
    if why == "idle":
        return t("bridges.ev.turn.idle", locale, boss=p["boss"])
    if why == "visited":
        return t("bridges.ev.turn.visited", locale, boss=p["boss"])
    if why == "peace":
        return t("bridges.ev.turn.peace", locale, boss=p["boss"], ability=p.get("ability", "—"),
                 healed=d.get("healed", 0), hp=d.get("hp", "?"))
    line = f"{d['group']}.{d['line']}" if d["group"] > 1 else str(d["line"])
    reason = t(f"bridges.ev.why.{why}", locale)
    skipped = d.get("skipped") or []
    if skipped:
        reason += t("bridges.ev.skipped", locale, lines=", ".join(map(str, skipped)))
    if "healed" in d:
        return t("bridges.ev.turn.heal", locale, boss=p["boss"], line=line, why=reason, ability=p["ability"],
                 healed=d["healed"], hp=d["hp"])
    targets = ", ".join(seat_name(s, locale, names) for s in d["targets"]) or t("bridges.ev.nobody", locale)
    return t("bridges.ev.turn.attack", locale, boss=p["boss"], line=line, why=reason, ability=p["ability"],
             targets=targets)


def _targets(seats: Sequence[int], locale: str, names: Sequence[str], room: int) -> str:
    """The targets of a boss's move by name, or by count where the names would not fit in ``room``."""
    text = ", ".join(_short(seat_name(s, locale, names)) for s in seats) or t("bridges.ev.nobody", locale)
    if display_width(text) > room:
        text = t("bridges.short.players", locale, n=len(seats))
    return text


def _boss_short(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    """What the boss did, plainly: "Запеканка: Луч пекла → Аня"."""
    why, boss = d["why"], p["boss"]
    if why in ("idle", "visited"):
        return t(f"bridges.short.{why}", locale, boss=boss)
    if "healed" in d or why == "peace":
        return t("bridges.short.heal", locale, boss=boss, ability=p.get("ability", "—"), healed=d.get("healed", 0),
                 hp=d.get("hp", "?"))
    head = t("bridges.short.attack", locale, boss=boss, ability=p["ability"], targets="")
    return head + _targets(d["targets"], locale, names, BOSS_LINE - display_width(head))


def _base_lasers_short(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    return t("bridges.short.base_lasers", locale, boss=p["boss"], amount=d["amount"], hp=d["hp"])


def _phase_ended_short(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str | None:
    """At the table a phase ended with every AP spent is no news (the board marks the seat done, and at 0 AP
    the referee ends it by itself, BR-1): only a phase ended with AP given up is told; the log tells both."""
    if d["ap"] == 0:
        return None
    return render_event({"kind": "phase_ended", "data": d}, locale, names, detail=True)


def _summary_short(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str | None:
    """The line a live table message keeps under the board: only what the bosses did (blows, then heals); who
    waited or could not attack is in each boss's own line."""
    return _summary(d, p, locale, names, quiet=False)


def _summary(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str],
             quiet: bool = True) -> str | None:
    """The log's account of the bosses' turn: the blows first, then who healed, who could not attack, who
    waited (``quiet``: those last two too)."""
    blows, heals, blocked, idle = [], [], [], []
    for b in d["bosses"]:
        boss = boss_name(b["boss"], locale)
        if b["why"] == "base":
            blows.append(t("bridges.sum.base", locale, boss=boss, amount=b["amount"]))
        elif b["why"] == "visited":
            blocked.append(boss)
        elif b["why"] == "idle":
            idle.append(boss)
        elif b["healed"] is not None:
            if b["healed"]:  # a boss at full health healing nothing did nothing worth a word here
                heals.append(f"{boss} +{b['healed']}")
        else:
            blows.append(t("bridges.sum.attack", locale, boss=boss, ability=ability_name(b["ability"], locale),
                           targets=", ".join(seat_name(s, locale, names) for s in b["targets"])))
    parts = list(blows)
    if heals:
        parts.append(t("bridges.sum.heals", locale, bosses=", ".join(heals)))
    if blocked and quiet:
        parts.append(t("bridges.sum.visited", locale, bosses=", ".join(blocked)))
    if idle and quiet:
        parts.append(t("bridges.sum.idle", locale, bosses=", ".join(idle)))
    if not parts:
        return t("bridges.sum.none", locale) if blocked or idle or d["bosses"] else None
    return t("bridges.sum.line", locale, parts="; ".join(parts))


def _game_over(d: Mapping[str, Any], p: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    if d["won"]:
        return t("bridges.ev.game_over.won", locale)
    if d["reason"] == "bridges.outcome.base":
        why = t("bridges.ev.lost.base", locale)
    else:
        why = t("bridges.ev.lost.fallen", locale, names=", ".join(seat_name(s, locale, names) for s in d["seats"]))
    return t("bridges.ev.game_over.lost", locale, why=why)


_SIMPLE = ("choose_classes", "class_chosen", "class_coins", "master_blueprints", "round", "phase_ended", "chest",
           "attack", "boss_hurt", "boss_killed", "peace", "boss_counter", "fort_broken", "thorns", "trap_sprung",
           "attack_missed", "marked", "trap_set", "pushed", "charged", "healed", "shield_up", "shield_gone",
           "bought", "blueprints", "camp", "unequipped", "dismantled", "timed_out", "arm_trade", "camp_heal",
           "neutral_phase", "bomb_blast", "base_lasers")

_EVENTS = {
    **{kind: _simple(kind) for kind in _SIMPLE},
    "classes_dealt": _classes, "kit": _kit, "bosses_ready": _bosses_ready, "boss_placed": _boss_placed,
    "moved": _by("how", "moved"), "provoked": _by("why", "provoked"), "no_counter": _by("why", "no_counter"),
    "risky": _risky, "blow": _blow, "counter": _counter, "char_hurt": _hurt, "drop": _drop, "built": _built,
    "launched": _launched, "bomb_laid": _bomb_laid, "guard": _guard, "equipped": _equipped,
    "boss_turn": _boss_turn, "game_over": _game_over, "neutral_summary": _summary,
}

#: the short lines the table and the thread show (render_event without ``detail``)
_SHORT = {"boss_turn": _boss_short, "base_lasers": _base_lasers_short, "neutral_summary": _summary_short,
          "phase_ended": _phase_ended_short}

__all__ = ["describe_action", "render_view", "render_event", "wrap", "max_hp", "strength", "cls_rule"]
