"""胜局数 number of games won.

Decision: only games won over the board count (FIDE C.07 "WON": wins in played games);
a forfeit win or a bye is not a 胜局 — the Chinese name counts games (局) won, and a
bye must not beat a player who played and won.

R2020-F2 (decision, the spec is silent): where a match is several games (跳棋 三局二胜,
``SideResult.games`` from the sheet's 甲方胜局/乙方胜局), the games won are summed over the
matches played — a 1:2 loss adds 1.  Counting matches won, 胜局数 equalled the points of
everyone tied on points and never broke a tie.  Forfeits and byes still add 0.
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
        """Games won over the board: a match's games when it records them, else 1 per win."""
        total = 0
        for g in table.of(entry):
            if not g.played:
                continue
            if g.result is not None and g.result.games is not None:
                total += g.result.games
            elif g.outcome == Outcome.WIN:
                total += 1
        return total


TIEBREAKS.register("wins", "胜局数", "胜局")(Wins())
