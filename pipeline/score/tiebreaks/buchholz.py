"""对手分 Buchholz: the sum of the opponents' points (Swiss default chain, R2015-F1).

Unplayed rounds per FIDE C.07 (2023) Art. 16 (see the package docstring):
- the entry's own bye / forfeit win / forfeit loss / absence contributes the entry's
  own final points (a draw against oneself, the "dummy opponent");
- an opponent's score is its *adjusted* score: its voluntary unplayed rounds (forfeit
  losses, absences) count as draws (``ScoreTable.adjusted``).
At tables of three every opponent at the table contributes.
"""
from __future__ import annotations

from .. import TIEBREAKS
from ..table import ScoreTable
from .base import Tiebreak


def contributions(table: ScoreTable, entry: str) -> list[tuple[int, bool]]:
    """(points contributed, from a voluntary unplayed round) per opponent slot — and, for an
    entry withdrawn from the event, one per round played after it withdrew (Art. 14.3: a
    voluntary unplayed round, its own points against the dummy opponent; those rounds were
    left out, and the withdrawn entry's 对手分 fell by its own score for each)."""
    out: list[tuple[int, bool]] = []
    own = table.points.get(entry, 0)
    for g in table.of(entry):
        if g.played:
            out.extend((table.adjusted.get(o, 0), False) for o in g.opponents)
        else:
            out.append((own, g.voluntary_unplayed))
    out.extend([(own, True)] * table.withdrawn_rounds.get(entry, 0))
    return out


class Buchholz(Tiebreak):
    name = "buchholz"
    title = "对手分"

    def value(self, table: ScoreTable, entry: str) -> int:
        """Sum of opponents' (adjusted) points; unplayed rounds count the entry's own points."""
        return sum(v for v, _ in contributions(table, entry))


TIEBREAKS.register("buchholz", "对手分", "布赫霍尔茨")(Buchholz())
