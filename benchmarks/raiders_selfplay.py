"""Self-play statistics of a Raiders deck set, the figures the house set was balanced by: game length, the first
player's win rate, how captures go and how often each шняга is played.  Numbers go into docs/games/raiders.md.

    .venv/bin/python benchmarks/raiders_selfplay.py [--games N] [--seats 2,3,4] [--deck house] [--option k=v]
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import get_game  # noqa: E402
from bot.engine.playout import play  # noqa: E402
from bot.games.raiders.cards import lookup  # noqa: E402


def figures(seats: int, games: int, options: dict) -> dict:
    game = get_game("raiders")
    turns, actions, first_wins, cut = [], [], 0, 0
    played: Counter[str] = Counter()
    captures = Counter()
    for i in range(games):
        po = play(game, seats, seed=f"selfplay-{seats}-{i}", options=options, bot_seed=i)
        events_first = po.initial["turn"]["seat"]
        final = po.final
        cut += po.cut
        turns.append(final["turn"]["number"])
        actions.append(len(po.steps))
        if final["outcome"] and events_first in final["outcome"]["winners"]:
            first_wins += 1
        for step, _state in zip(po.steps, po.states):
            a = step["action"]
            if a["type"] == "shnyaga":
                played[lookup(a["card"]).shnyaga.name("ru")] += 1
            elif a["type"] == "capture":
                captures["declared"] += 1
        captures["won"] += sum(1 for s, nxt in zip(po.states, po.states[1:])
                               if sum(p["guard"] is not None for p in nxt["props"]) and nxt["window"] is None
                               and s["window"] and s["window"]["capture"] and any(
                                   p["card"] == s["window"]["capture"]["prop"] and p["owner"] == s["window"]["capture"]["seat"]
                                   for p in nxt["props"]))
    return {"seats": seats, "games": games, "cut": cut, "turns": statistics.median(turns),
            "turns max": max(turns), "actions": statistics.median(actions),
            "first wins": first_wins / games, "captures won": captures["won"] / max(captures["declared"], 1),
            "shnyagi/game": {k: round(v / games, 1) for k, v in played.most_common()}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", default="2,3,4,5,6")
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    for seats in map(int, args.seats.split(",")):
        print(figures(seats, args.games, options))


if __name__ == "__main__":
    main()
