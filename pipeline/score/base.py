"""Standings value objects shared by the score package, formats and renderers."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class StandingRow:
    """One entry's line in a standings table.

    ``tiebreaks`` keeps the chain's order: name → integer value (scaled so it stays an
    integer; ``TIEBREAK_SCALE`` gives the divisor for display).  ``rank`` is shared by
    entries still tied after the whole chain; ``playoff_required`` marks such a tie
    where it decides a place that matters (R2011-F1, R2011-D2).
    """

    entry: str
    rank: int
    points: int
    score: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    tiebreaks: dict[str, int] = field(default_factory=dict)
    playoff_required: bool = False
