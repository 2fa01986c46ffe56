"""索伯分 Sonneborn–Berger: Σ opponent's points × own result (round robin default chain).

Kept integer with the result on a 2/1/0 scale (win 2, draw 1, loss 0), so
``scale = 2``: with chess points 2/1/0 the FIDE value is ``value / 4``.
Opponents' points are their adjusted points (voluntary unplayed rounds as draws).
Unplayed rounds (decision, following FIDE C.07 Art. 16's dummy opponent): the dummy
holds the entry's own points and the result is the one scored, so a bye or forfeit win
adds own points × 2 and a forfeit loss / absence adds 0 — and so does a round robin's rest
(a bye worth no points, :func:`pipeline.draw.bye_scores`: nothing was scored; it counted as
a win, and a finalist who had rested ranked above one who had played and won).
At tables of three each opponent counts with the pairwise result (better place wins).
"""
from __future__ import annotations

from ...model import Outcome
from .. import TIEBREAKS
from ..table import ScoreTable, pairwise_weight, result_weight
from .base import Tiebreak


class SonnebornBerger(Tiebreak):
    name = "sonneborn_berger"
    title = "索伯分"
    scale = 2

    def value(self, table: ScoreTable, entry: str) -> int:
        """Σ opponent points × result weight (2/1/0)."""
        total = 0
        own = table.points.get(entry, 0)
        for g in table.of(entry):
            if not g.played:
                rest = g.outcome == Outcome.BYE and g.result is not None and g.result.points == 0
                total += 0 if rest else own * result_weight(g.outcome)
            elif len(g.opponents) == 1:
                total += table.adjusted.get(g.opponents[0], 0) * result_weight(g.outcome)
            else:
                total += sum(table.adjusted.get(o, 0) * pairwise_weight(g.result, r)
                             for o, r in zip(g.opponents, g.opponent_results))
        return total


TIEBREAKS.register("sonneborn_berger", "索伯分", "索尼伯格分", "sb")(SonnebornBerger())
