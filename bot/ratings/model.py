"""The rating model: openskill's Plackett–Luce with its parameters fixed, and the figure players see.

The parameters are part of the derived figures: ``FINGERPRINT`` is stored with the cache, and a cache computed
with other parameters is derived again from the start (bot/ratings/derive.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
#: the displayed figure is conservative: mu − Z·sigma, which a player's true strength exceeds with ~99.9 %
Z = 3.0
#: ... put on a familiar scale: a new player shows 1,500 (mu − 3·sigma = 0), one point of it is 20 of ours
SHOWN_BASE = 1500
SHOWN_SCALE = 20
#: a rating is provisional until this many rated games (docs/ratings.md: why ten)
PROVISIONAL_GAMES = 10

FINGERPRINT = json.dumps({"model": "PlackettLuce", "openskill": "6.2.0", "mu": MU, "sigma": SIGMA, "beta": BETA,
                          "tau": TAU, "limit_sigma": False}, sort_keys=True)


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - Z * sigma))


@lru_cache(maxsize=1)
def model() -> Any:
    """openskill's PlackettLuce with the parameters above (imported on first use: a bot that starts pays
    nothing for it until a rating is asked for)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, limit_sigma=False)


def rating(skill: Skill) -> Any:
    """openskill's own rating object for ``skill`` (what ``rate_ratings`` takes and gives)."""
    return model().rating(mu=skill.mu, sigma=skill.sigma)


def rate_ratings(teams: list[list[Any]], ranks: list[int]) -> list[list[Any]]:
    """openskill's rate on its own rating objects: a replay keeps them between games (a conversion per player
    per game was a fifth of a rebuild)."""
    return model().rate(teams, ranks=list(ranks))


def rate(teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
    """The skills after one game: ``teams`` (lists of players' skills) finished at ``ranks`` (1 best, equal
    ranks a tie).  openskill does the maths; this only carries the figures in and out."""
    m = model()
    rated = m.rate([[m.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams], ranks=list(ranks))
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]
