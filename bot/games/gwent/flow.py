"""Turns and rounds: whose turn it is, single and double moves, passing and the automatic pass, the end of a
round (scores, faction bonuses, the Monsters' kept unit, Kambi's Hemdall), the start of the next one (who
goes first, Skellige's third-round revival) and the end of the game."""
from __future__ import annotations

from typing import Any

from bot.engine import Ctx

from .cards import ROWS, catalogue
from .leaders import usable_leaders
from .rules import card_specs, draw, on_field, perk, revive_candidates, push
from .scoring import points, row_totals, scores, strengths
from .state import (
    board_units, card, empty_slots, is_token, move, new_token, opp, owner, remove_token, resume_cause, rotate_journal,
)


def has_move(state: dict[str, Any], seat: int) -> bool:
    return bool(usable_leaders(state, seat)) or any(card_specs(state, seat, u) for u in state["hand"][seat])


# ------------------------------------------------------------------------------------------ turns
def start_turn(state: dict[str, Any], seat: int, ctx: Ctx) -> None:
    if not state["hand"][seat] and not usable_leaders(state, seat):
        ctx.emit("passed", seat=seat, auto="empty_hand", rule="§1")  # no cards left -> automatic pass
        state["players"][seat]["passed"] = True
        rotate_journal(state, seat)
        advance(state, seat, ctx)
        return
    double = state["variant"] == "hardgwent" and state["turn_in_round"] > 0 and not state["players"][opp(seat)]["passed"]
    state["turn"] = {"seat": seat, "need": 2 if double else 1, "played": 0, "moved": []}
    state["turn_no"] += 1
    state["turn_in_round"] += 1
    ctx.emit("turn", seat=seat, n=state["turn_no"], count=state["turn"]["need"])


def card_done(state: dict[str, Any], ctx: Ctx) -> None:
    """A card or leader of the turn is fully resolved (its sub-decisions included)."""
    resume_cause(state, None)
    turn = state["turn"]
    turn["played"] += 1
    if turn["played"] >= turn["need"] and turn.get("taken_then_pass"):
        # §8 note 3 a) read as option empty_hand_take: play_pass (GW-27): the Invader's card was the second card,
        # and the empty hand's automatic pass follows; the spy's cards arrive after the turn, for the next round
        do_pass(state, turn["seat"], ctx, auto="taken_card_played", rule="GW-27")
    elif turn["played"] >= turn["need"]:
        end_turn(state, ctx)
    elif turn.get("taken_waits") and state["hand"][turn["seat"]]:
        # §8 note 3 a): an empty hand and the Invader of the North - the card taken does not make a second
        # card, the player passes and keeps it for the next round (option empty_hand_take, GW-27).
        do_pass(state, turn["seat"], ctx, auto="taken_card_waits", rule="§8")
    elif not has_move(state, turn["seat"]):
        # Double move: a turn with one card only counts as a pass (rule book, double-move rule).
        do_pass(state, turn["seat"], ctx, auto="no_second_card", rule="§8")


def do_pass(state: dict[str, Any], seat: int, ctx: Ctx, auto: str | None = None, rule: str | None = None) -> None:
    state["players"][seat]["passed"] = True
    cite: dict[str, Any] = {"rule": rule} if rule else {}
    ctx.emit("passed", seat=seat, auto=auto, **cite)
    end_turn(state, ctx)


def end_turn(state: dict[str, Any], ctx: Ctx) -> None:
    seat = state["turn"]["seat"]
    deliver_draws(state, ctx)
    rotate_journal(state, seat)
    state["turn"] = None
    advance(state, seat, ctx)


def deliver_draws(state: dict[str, Any], ctx: Ctx) -> None:
    """Random extra cards arrive when the turn is over (rule book, double-move rule)."""
    for due in state["draws_due"]:
        resume_cause(state, due["cause"])
        draw(state, due["seat"], due["n"], ctx)
    state["draws_due"] = []
    resume_cause(state, None)


def advance(state: dict[str, Any], last: int, ctx: Ctx) -> None:
    players = state["players"]
    if players[0]["passed"] and players[1]["passed"]:
        end_round(state, ctx)
        return
    nxt = opp(last) if not players[opp(last)]["passed"] else last
    if players[opp(nxt)]["passed"] and state["options"]["end_when_ahead"] and round_winner(state) == nxt:
        # Rule book: once the remaining player overtakes the one who passed, the round is over.
        ctx.emit("ahead", seat=nxt, rule="§9")
        end_round(state, ctx)
        return
    start_turn(state, nxt, ctx)


# ------------------------------------------------------------------------------------------ rounds
def round_winner(state: dict[str, Any]) -> int | None:
    a, b = scores(state)
    if a != b:
        return 0 if a > b else 1
    for seat in (0, 1):
        if perk(state, seat, "nilfgaard"):
            return seat
    return None


def board_copy(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The final table of a round, kept in the record (rule book: the judge copies it into the thread)."""
    values = strengths(state)
    totals = row_totals(state, values)
    return [{row: {"total": totals[s][row], "cards": [[state["cards"][u]["id"], values[u]]
                                                      for u in state["rows"][s][row]]} for row in ROWS}
            for s in (0, 1)]


def end_round(state: dict[str, Any], ctx: Ctx) -> None:
    totals = scores(state)
    winner = round_winner(state)
    for seat in (0, 1):
        if seat != winner:
            state["players"][seat]["gems"] -= 1
    result = {"round": state["round"], "scores": totals, "winner": winner,
              "by_nilfgaard": winner is not None and totals[0] == totals[1]}
    state["results"].append(result)
    state["turn"] = None
    # a level round goes to Nilfgaard (§6); without it, the book is silent (GW-7)
    cite: dict[str, Any] = {"rule": "§6" if result["by_nilfgaard"] else "GW-7"} if totals[0] == totals[1] else {}
    ctx.emit("round_end", **result, gems=[p["gems"] for p in state["players"]], board=board_copy(state),
             weather=[w["kind"] for w in state["weather"]], **cite)
    if any(p["gems"] == 0 for p in state["players"]):
        finish_game(state, ctx)
        return
    for seat in (0, 1):
        if perk(state, seat, "monsters") and keep_candidates(state, seat):
            state["phase"], state["keeper"] = "keep", seat
            return
    clear_round(state, ctx, kept=None)


def keep_candidates(state: dict[str, Any], seat: int) -> list[str]:
    return [u for u, _ in board_units(state, seat) if not card(state, u).is_hero]


def clear_round(state: dict[str, Any], ctx: Ctx, kept: str | None) -> None:
    """Everything on the field goes to the discard pile of its side, except the Monsters' kept unit."""
    tokens_next = []
    for side in (0, 1):
        for uid, _ in list(board_units(state, side)):
            c = card(state, uid)
            # Kambi on the field at the end of the round calls Hemdall for the next one, also when the
            # Monsters keep it there (ruling GW-33).
            if c.summons:
                tokens_next.append({"card": c.summons, "side": side})
            if uid == kept:
                continue
            if is_token(uid):
                remove_token(state, uid)
            else:
                move(state, uid, ["discard", side])
        for row in ROWS:
            for what in ("horn", "mardroeme"):
                uid = state["slots"][side][row][what]
                if uid is not None:
                    move(state, uid, ["discard", owner(state, uid)])
        state["slots"][side] = empty_slots()
    for entry in list(state["weather"]):
        if entry["uid"] is not None:
            move(state, entry["uid"], ["discard", owner(state, entry["uid"])])
    state["weather"] = []
    state["weak_horn"] = [[], []]
    state["round_fx"] = {"bran": [False, False], "hope": [False, False], "blocked": [False, False]}
    state["keeper"] = None
    if state["journal"]:
        state["journal"] = {"cur": [], "at": None, "last": None}  # White Flame never reaches into a new round
    winner = state["results"][-1]["winner"]
    if winner is not None and perk(state, winner, "northern_realms"):
        ctx.emit("bonus_card", seat=winner, rule="§6")
        draw(state, winner, 1, ctx)
    for p in state["players"]:
        p["passed"] = False
        p["leader_round"] = False
    state["round"] += 1
    start_round(state, ctx, tokens_next)


def start_round(state: dict[str, Any], ctx: Ctx, tokens: list[dict[str, Any]]) -> None:
    ctx.emit("round_start", round=state["round"])
    for token in tokens:
        # Kambi left on the field at the end of a round: Hemdall arrives at the start of the next one.
        if not on_field(state, token["card"]):
            new_token(state, token["card"], token["side"], catalogue().card(token["card"]).rows[0])
            ctx.emit("avenger", side=token["side"], card=None, token=token["card"], rule="§5")
    # Rule book §9: every round repeats the procedure from its point 3, so turns are counted from 1 again.
    state["turn_in_round"] = state["turn_no"] = 0
    if state["round"] == 3:
        for seat in (0, 1):
            if perk(state, seat, "skellige") and revive_candidates(state, seat, ["own"], heroes=False):
                state["phase"] = "revive3"
                push(state, "revive", seat, piles=["own"], heroes=False, to="field", left=2, source="skellige")
                return
    choose_first(state, ctx)


def choose_first(state: dict[str, Any], ctx: Ctx) -> None:
    """Scoia'tael choose who starts every round (forum change); otherwise a lot in round 1, then the other
    player in round 2 and the round-1 starter again in round 3."""
    for seat in (0, 1):
        if perk(state, seat, "scoiatael"):
            state["phase"], state["chooser"] = "first", seat
            return
    if state["round"] == 1:
        starter = ctx.rng.randint(0, 1, "gwent.first")
        how = "lot"
    else:
        starter = opp(state["starters"][0]) if state["round"] == 2 else state["starters"][0]
        how = "alternate"
    begin_play(state, starter, how, ctx)


def begin_play(state: dict[str, Any], starter: int, how: str, ctx: Ctx) -> None:
    state["phase"], state["chooser"] = "play", None
    state["starters"].append(starter)
    ctx.emit("first_player", seat=starter, how=how, round=state["round"])
    start_turn(state, starter, ctx)


def finish_game(state: dict[str, Any], ctx: Ctx) -> None:
    gems = [p["gems"] for p in state["players"]]
    winners = [s for s in (0, 1) if gems[s] > 0]
    rounds = [r["scores"] for r in state["results"]]
    state["phase"] = "over"
    state["outcome"] = {
        "winners": winners,
        "reason": "gwent.outcome.win" if winners else "gwent.outcome.draw",
        "params": {"rounds": " / ".join(f"{points(a)}:{points(b)}" for a, b in rounds)},
        "scores": {"rounds": rounds, "gems": gems},
    }
    ctx.emit("game_over", winners=winners, rounds=rounds)
