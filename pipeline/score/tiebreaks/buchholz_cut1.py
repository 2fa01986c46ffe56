"""对手分去最低 Buchholz cut-1: Buchholz without its least significant contribution.

FIDE C.07 (2023) Art. 14.6: a contribution from a voluntary unplayed round (forfeit
loss, absence) is cut first, even when it is not the lowest; otherwise the lowest.
An entry with no contribution has 0.
"""
from __future__ import annotations

from .. import TIEBREAKS
from ..table import ScoreTable
from .base import Tiebreak
from .buchholz import contributions


class BuchholzCut1(Tiebreak):
    name = "buchholz_cut1"
    title = "对手分去最低"

    def value(self, table: ScoreTable, entry: str) -> int:
        """Buchholz minus the cut contribution."""
        parts = contributions(table, entry)
        if not parts:
            return 0
        voluntary = [v for v, vur in parts if vur]
        cut = min(voluntary) if voluntary else min(v for v, _ in parts)
        return sum(v for v, _ in parts) - cut


TIEBREAKS.register("buchholz_cut1", "对手分去最低", "buchholz_c1")(BuchholzCut1())
