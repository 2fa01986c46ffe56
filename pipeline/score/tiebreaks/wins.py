"""胜局数 number of games won.

Decision: only games won over the board count (FIDE C.07 "WON": wins in played games);
a forfeit win or a bye is not a 胜局 — the Chinese name counts games (局) won, and a
bye must not beat a player who played and won.
"""
from __future__ import annotations

from .. import TIEBREAKS
from ..table import ScoreTable
from ...model import Outcome
from .base import Tiebreak


class Wins(Tiebreak):
    name = "wins"
    title = "胜局数"

    def value(self, table: ScoreTable, entry: str) -> int:
        """Games won over the board."""
        return sum(1 for g in table.of(entry) if g.played and g.outcome == Outcome.WIN)


TIEBREAKS.register("wins", "胜局数", "胜局")(Wins())
