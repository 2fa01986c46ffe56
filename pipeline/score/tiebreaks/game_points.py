"""总局分 total game points: Σ ``SideResult.score`` (Guandan round scores R2016-S1,
Doudizhu table points R2020-D3, games won in a best-of-three R2020-F2).
Byes without a result add 0.
"""
from __future__ import annotations

from .. import TIEBREAKS
from ..table import ScoreTable
from .base import Tiebreak


class GamePoints(Tiebreak):
    name = "game_points"
    title = "总局分"

    def value(self, table: ScoreTable, entry: str) -> int:
        """Σ score over the entry's results."""
        return sum(g.score for g in table.of(entry))


TIEBREAKS.register("game_points", "总局分", "总分", "total_score")(GamePoints())
