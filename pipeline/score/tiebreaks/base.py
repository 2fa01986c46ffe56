"""The one small interface every tiebreak implements.

A tiebreak maps each entry of a tied group to an integer (higher is better).  Most
tiebreaks depend only on the entry (``group_dependent = False``); direct encounter and
playoff depend on who else is tied.  ``scale`` is the divisor that turns the integer
back into the usual display unit relative to the event's points (e.g. Sonneborn–Berger
is kept ×2 so that a draw's half stays an integer).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ...model import Playoff
from ..table import ScoreTable


@dataclass(frozen=True)
class TiebreakContext:
    """What a tiebreak may read besides the score table: the 加赛 results, and what a
    playoff needs to know whether it was played for this tie (:meth:`Playoff.settles_in`):
    the ranking's (stage, group, last round) when all its matches are of one stage and
    group (``where``; None across stages or groups, the final places), and who played in
    each (stage, group) of the event (``played``; None: not known, every sheet counts)."""

    playoffs: tuple[Playoff, ...] = field(default=())
    where: tuple[str, str, int] | None = None
    played: Mapping[tuple[str, str], frozenset[str]] | None = None


class Tiebreak:
    """Base class: subclasses set ``name``, ``title`` and implement :meth:`value` (or
    :meth:`values` for group-dependent tiebreaks)."""

    name: str = ""
    title: str = ""            # Chinese name for tables
    scale: int = 1             # display divisor, relative to the event's points
    group_dependent: bool = False
    is_playoff: bool = False

    def value(self, table: ScoreTable, entry: str) -> int:
        """The entry's value (entry-only tiebreaks)."""
        raise NotImplementedError

    def values(self, table: ScoreTable, group: Sequence[str], ctx: TiebreakContext) -> dict[str, int] | None:
        """Values for every entry of a tied group; ``None`` when the tiebreak cannot
        decide this group at all (a playoff not yet played)."""
        return {e: self.value(table, e) for e in group}

    def __repr__(self) -> str:
        return f"<tiebreak {self.name}>"
