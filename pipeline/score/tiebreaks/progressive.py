"""累进分 progressive (cumulative) score: Σ over rounds of the running total of points.

Every round of the standings played so far counts (a round the entry sat out adds its
unchanged running total), so entries of one table are compared over the same rounds; a
round drawn and not played yet does not (it added every running total once more: 闫璐's
2 + 4 read 10 with round 3 drawn).  Byes and forfeits count with the points scored (FIDE
C.07 has no adjustment for this one).
"""
from __future__ import annotations

from collections import defaultdict

from .. import TIEBREAKS
from ..table import ScoreTable
from .base import Tiebreak


class Progressive(Tiebreak):
    name = "progressive"
    title = "累进分"

    def value(self, table: ScoreTable, entry: str) -> int:
        """Σ running totals after each round."""
        per_round: dict[int, int] = defaultdict(int)
        for g in table.of(entry):
            per_round[g.round] += g.points
        running = total = 0
        for r in table.played_rounds:
            running += per_round.get(r, 0)
            total += running
        return total


TIEBREAKS.register("progressive", "累进分", "cumulative")(Progressive())
