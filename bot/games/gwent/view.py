"""Per-seat views (hidden parts removed), the re-dealt variant used by the no-leak test, and invariants."""
from __future__ import annotations

from typing import Any

from bot.engine import clone

from .cards import ROWS, catalogue
from .leaders_passive import leader_rule
from .scoring import row_totals, scores, strengths, weather_rows
from .state import LIST_ZONES, board_units, is_token, opp


def _catalogue_order() -> dict[str, int]:
    return {cid: i for i, cid in enumerate(catalogue().cards)}


def _sorted_ids(state: dict[str, Any], uids: list[str]) -> list[str]:
    order = _catalogue_order()
    return sorted((state["cards"][u]["id"] for u in uids), key=order.__getitem__)


def build(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    values = strengths(state)
    totals = row_totals(state, values)
    score = scores(state, values)
    weather = weather_rows(state)
    board = []
    for side in (0, 1):
        rows = {}
        for row in ROWS:
            slot = state["slots"][side][row]
            rows[row] = {
                "cards": [{"uid": u, "card": state["cards"][u]["id"], "strength": values[u]}
                          for u in state["rows"][side][row]],
                "total": totals[side][row], "weather": row in weather,
                "horn": state["cards"][slot["horn"]]["id"] if slot["horn"] else None,
                "horn_crach": slot["horn_crach"], "leader_horn": slot["leader_horn"],
                "mardroeme": state["cards"][slot["mardroeme"]]["id"] if slot["mardroeme"] else None,
                "weakened": row in state["weak_horn"][side],
            }
        board.append(rows)
    players = []
    for s, p in enumerate(state["players"]):
        players.append({
            "faction": p["faction"], "gems": p["gems"], "passed": p["passed"], "score": score[s],
            "leaders": [{"id": lid, "used": lid in p["leaders_used"], "passive": bool(leader_rule(state, lid).get("passive"))}
                        for lid in p["leaders"]],
            "hand": len(state["hand"][s]), "deck": len(state["deck"][s]) + len(state["aside"][s]) + len(state["cand"][s]),
            "discard": [state["cards"][u]["id"] for u in state["discard"][s]],
            "ready": state["phase"] != "setup" or state["setup"][s]["step"] == "ready",
            # the cards of this hand shown to the Emperor of Nilfgaard, where the viewer may know them
            "shown": _sorted_ids(state, state["revealed"][opp(s)]) if knows_shown(state, s, seat) else [],
        })
    turn = state["turn"]
    out: dict[str, Any] = {
        "variant": state["variant"], "phase": state["phase"], "round": state["round"], "turn_no": state["turn_no"],
        "turn": {k: turn[k] for k in ("seat", "need", "played")} if turn else None,
        "players": players, "board": board,
        "weather": [{"kind": w["kind"], "leader": w["uid"] is None} for w in state["weather"]],
        "round_fx": state["round_fx"], "results": state["results"],
        "choice": {"kind": state["stack"][-1]["kind"], "seat": state["stack"][-1]["seat"]} if state["stack"] else None,
        "hand": None,
    }
    if seat is None:
        return out
    out["hand"] = [{"uid": u, "card": state["cards"][u]["id"]} for u in
                   sorted(state["hand"][seat], key=lambda u: (_catalogue_order()[state["cards"][u]["id"]], int(u[1:])))]
    out["deck_contents"] = _counts(_sorted_ids(state, state["deck"][seat] + state["aside"][seat]))
    out["candidates"] = [{"uid": u, "card": state["cards"][u]["id"]} for u in state["cand"][seat]]
    out["mulligan"] = state["mull"][seat]
    if state["phase"] == "setup":
        st = state["setup"][seat]
        out["setup"] = {"step": st["step"], "faction": st["faction"], "leader": st["leader"], "deck": st["deck"]}
    return out


def knows_shown(state: dict[str, Any], holder: int, viewer: int | None) -> bool:
    """The cards shown to the Emperor are named in the game thread (§7); with the option
    ``emperor_shown_to: owner`` only the two players know them (GW-24)."""
    return state["options"]["emperor_shown_to"] == "thread" or viewer in (holder, opp(holder))


def _counts(ids: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for cid in ids:
        counts[cid] = counts.get(cid, 0) + 1
    return counts


def unseen_variant(state: dict[str, Any], seat: int | None, rng: Any) -> dict[str, Any]:
    """Re-deal everything ``seat`` cannot see: the order of its own deck, and the opponent's hand (but the
    cards shown to the Emperor, where the seat knows them), deck, set-aside cards and exchange candidates."""
    new = clone(state)
    for holder in (0, 1):
        if holder == seat:
            rng.shuffle(new["deck"][holder])
            continue
        known = set(new["revealed"][opp(holder)]) if knows_shown(state, holder, seat) else set()
        zones = ["hand", "deck", "aside", "cand"]
        pool = [u for z in zones for u in new[z][holder] if u not in known]
        rng.shuffle(pool)
        for z in zones:
            keep = [u for u in new[z][holder] if u in known]
            need = len(new[z][holder]) - len(keep)
            new[z][holder], pool = keep + pool[:need], pool[need:]
        mull = new["mull"][holder]
        if mull and mull["give"] is not None:
            mull["give"] = rng.choice(new["hand"][holder])
    return new


def check_invariants(state: dict[str, Any]) -> None:
    seen: list[str] = []
    for kind in LIST_ZONES:
        for s in (0, 1):
            seen += state[kind][s]
    for s in (0, 1):
        for uid, _ in board_units(state, s):
            seen.append(uid)
        for row in ROWS:
            seen += [state["slots"][s][row][w] for w in ("horn", "mardroeme") if state["slots"][s][row][w]]
    seen += [w["uid"] for w in state["weather"] if w["uid"]]
    assert len(seen) == len(set(seen)), "a card is in two places"
    assert set(seen) == set(state["cards"]), "a card was created or lost"
    for uid in state["cards"]:
        if is_token(uid):
            assert any(uid in state["rows"][s][r] for s in (0, 1) for r in ROWS), "a token is off the field"
    for p in state["players"]:
        assert 0 <= p["gems"] <= 2
        assert len(p["leaders_used"]) == len(set(p["leaders_used"]))
    if state["outcome"] is not None:
        assert state["phase"] == "over"
        assert any(p["gems"] == 0 for p in state["players"])
