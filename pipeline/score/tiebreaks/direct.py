"""直胜 direct encounter (all events; R2011-F1, default chain of round robins).

Mini-table among all tied entries: each entry's points from the matches it played
against the other tied entries.  Applied only when every pair of tied entries has met
(a result exists for a match holding both); otherwise it decides nothing (FIDE C.07
Art. 6).  Forfeits between tied entries count as the result the sheet gives.
Whenever any criterion of the chain separates some entries but not all (this one, or a
later one such as 胜局数), the standings rank each smaller still-tied group by the chain
again from its start, so 直胜 is computed among those still tied (the group has changed,
so its mini-table may differ; R2020-F4, :meth:`pipeline.score.standings._Ranker.refine`).

Head-to-head matches count the event's points (3/1/0 stays 3/1/0, R2011-F1).  At
tables of three or more the encounter between two tied entries is scored pairwise
2/1/0 (better place, else more points) since table points cannot be split by pair.
"""
from __future__ import annotations

from itertools import combinations
from typing import Sequence

from .. import TIEBREAKS
from ..table import ScoreTable, pairwise_weight
from .base import Tiebreak, TiebreakContext


class Direct(Tiebreak):
    name = "direct"
    title = "直胜"
    group_dependent = True

    def values(self, table: ScoreTable, group: Sequence[str], ctx: TiebreakContext) -> dict[str, int] | None:
        """Mini-table values, or all zero when some tied pair has not met."""
        tied = set(group)
        met: set[frozenset[str]] = set()
        value = {e: 0 for e in group}
        for e in group:
            for g in table.of(e):
                if g.result is None:
                    continue
                inside = [(o, r) for o, r in zip(g.opponents, g.opponent_results) if o in tied]
                if not inside:
                    continue
                for o, _ in inside:
                    met.add(frozenset((e, o)))
                if len(g.match.sides) == 2:
                    value[e] += g.points
                else:
                    value[e] += sum(pairwise_weight(g.result, r) for _, r in inside)
        if any(frozenset(p) not in met for p in combinations(group, 2)):
            return {e: 0 for e in group}
        return value


TIEBREAKS.register("direct", "直胜", "直接对局", "direct_encounter")(Direct())
