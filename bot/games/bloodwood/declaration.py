"""The end of the game (§4): a pure player declares it, names every member of the other team, and the
declaration is judged.  The names are picked one at a time (a short list each step) and shown to the
table only when confirmed; the declaration itself cannot be withdrawn (BW-25)."""
from __future__ import annotations

from bot.engine import Ctx

from .flow import end_game, open_step
from .state import State, team_of, team_seats


def declare(state: State, ctx: Ctx, seat: int) -> None:
    ctx.emit("declared", seat=seat)
    open_step(state, ctx, "declare", seat=seat, named=[])


def judge(state: State, ctx: Ctx) -> None:
    """Right when the named players are exactly the other team and every one of them is mutated; otherwise
    the declarer's whole team loses."""
    seat, named = state["step"]["seat"], sorted(state["step"]["named"])
    team = team_of(state, seat)
    enemy = "werewolves" if team == "vampires" else "vampires"
    enemies = team_seats(state, enemy)
    pure_enemies = [s for s in enemies if state["dna"][s] == "pure"]
    if named != enemies:
        right, why = False, "wrong_names"
    elif pure_enemies:
        right, why = False, "not_mutated"
    else:
        right, why = True, "declared"
    ctx.emit("declaration_judged", seat=seat, named=named, right=right, team=team, enemies=enemies,
             pure=pure_enemies, rule="§4")
    winner = team if right else enemy
    end_game(state, ctx, winners=team_seats(state, winner), reason=f"bloodwood.outcome.{why}.{winner}")
