"""后手胜局 wins with the second move (black / 黑方): games won over the board by a side
that is not ``Match.first``.  Forfeit wins and byes do not count (FIDE C.07 "BWG"
counts played games only).  Multi-player tables do not count (no second move).
"""
from __future__ import annotations

from .. import TIEBREAKS
from ..table import ScoreTable
from ...model import Outcome
from .base import Tiebreak


class BlackWins(Tiebreak):
    name = "black_wins"
    title = "后手胜局"

    def value(self, table: ScoreTable, entry: str) -> int:
        """Games won over the board with the second move."""
        return sum(1 for g in table.of(entry)
                   if g.played and g.outcome == Outcome.WIN and len(g.match.sides) == 2 and not g.moved_first)


TIEBREAKS.register("black_wins", "后手胜局", "黑方胜局")(BlackWins())
