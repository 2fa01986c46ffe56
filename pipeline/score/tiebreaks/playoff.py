"""加赛 playoff (R2011-F1, R2011-D2): a tie still unresolved is settled by a playoff
result (:class:`pipeline.model.Playoff`, order best first) holding every tied entry;
without one the standings flag ``playoff_required`` (issue ``PLAYOFF_REQUIRED``).
The value is the number of playoff participants placed below the entry (best highest).
A sheet that leaves some of them level, every tie it leaves within one prize, is taken so
(R2020-F4: :func:`level_values`, ``run.EventRunner.take_level_playoffs``).
"""
from __future__ import annotations

from typing import Sequence

from .. import TIEBREAKS
from ..table import ScoreTable
from .base import Tiebreak, TiebreakContext


class PlayoffTiebreak(Tiebreak):
    name = "playoff"
    title = "加赛"
    group_dependent = True
    is_playoff = True

    def values(self, table: ScoreTable, group: Sequence[str], ctx: TiebreakContext) -> dict[str, int] | None:
        """Order from the latest playoff that holds the whole group, else None — also when
        the sheet gives two of the group the same 名次 (a sheet may list several ties of a
        stage, each numbered from 1: only within the group does a repeat contradict).
        R2011-F1, R2011-D2: only a playoff played for this tie counts
        (:meth:`~pipeline.model.Playoff.settles_in`) — a group's 加赛 does not order the same
        two level again in the final places, where none was played."""
        tied = set(group)
        for po in reversed(ctx.playoffs):      # a later sheet supersedes an earlier one
            if po.lists_together(tied) and po.settles_in(tied, ctx.where, ctx.played):     # (one of its ties)
                if not po.settles(group):
                    return level_values(po.places_of(group)) if po.leaves_level(tied) else None
                n = len(po.order)
                return {e: n - po.order.index(e) for e in group}
            if po.leaves_level(tied) and po.settles_in(tied, ctx.where, ctx.played, blanks=True):
                got = po.places_of(group)
                if got is not None:
                    return level_values(got)
        return None


def level_values(places: dict[str, int | None] | None) -> dict[str, int] | None:
    """R2020-F4 (spec silent; the t2020 audit's decision): the values of a 加赛 that leaves
    some level — the same 名次 twice, or 名次 left blank (after every 名次 given) — equal for
    those it leaves level, who then share their place.

    >>> level_values({"a": 2, "b": 1, "c": 2}), level_values({"a": 1, "b": None, "c": None})
    ({'a': 1, 'b': 2, 'c': 1}, {'a': 2, 'b': 1, 'c': 1})
    """
    if places is None:
        return None
    key = {e: (0, p) if p is not None else (1, 0) for e, p in places.items()}
    steps = sorted(set(key.values()), reverse=True)
    return {e: steps.index(k) + 1 for e, k in key.items()}


TIEBREAKS.register("playoff", "加赛", "附加赛")(PlayoffTiebreak())
