"""跳棋 Chinese checkers: best of three (三局二胜, R2020-F2).

Columns 甲方胜局 and 乙方胜局 (0..2).  The match winner has exactly 2 game wins; at most
3 games are played, so the loser has 0 or 1.  2:2, 3 or more, or nobody at 2 is
``RESULT_INVALID``.  score = games won; points from the event's win/loss points.  The games
won are the result's ``SideResult.games`` too, which the 胜局数 tiebreak counts (a forfeit
win scores 2 but wins no game over the board).
A drawn game does not count (the game is replayed), so there is no draw.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection, Sequence

from ..issues import Issue
from ..model import MatchResult, Round
from . import GAMES
from .base import DetailSheet, ResultColumn, ResultRow
from .common import (forfeit_column, merged_points, played_rows, points_text, states_points, two_sided)
from .headtohead import ROUND_ROBIN_TIEBREAKS

A_WINS = "甲方胜局"
B_WINS = "乙方胜局"
GAMES_TO_WIN = 2


def best_of_three_problem(a: int, b: int) -> str:
    """Why ``a``:``b`` game wins is not a finished best of three (R2020-F2), else "".

    >>> best_of_three_problem(2, 1), bool(best_of_three_problem(2, 2)), bool(best_of_three_problem(1, 1))
    ('', True, True)
    """
    if a + b > 3:
        return f"共 {a + b} 局（{a}:{b}）：三局二胜最多赛 3 局，先胜 2 局者获胜，请改正胜局数"
    if (a == GAMES_TO_WIN) == (b == GAMES_TO_WIN):
        return f"比分 {a}:{b} 未分出胜负：三局二胜，胜方胜局应为 2，负方为 0 或 1，请改正胜局数"
    return ""


def _score_hint(value: Any) -> str:
    """A whole score typed in one cell ("2:1", or the time 02:01 Excel made of it): say where
    each number goes."""
    import datetime as dt
    import re

    if isinstance(value, (dt.time, dt.datetime)) or (isinstance(value, str) and re.fullmatch(r"\s*\d\s*[:：\-比]\s*\d\s*", value)):
        return "；比分不要填在一格里：甲方赢的局数填“甲方胜局”，乙方赢的局数填“乙方胜局”"
    return ""


@dataclass
class Checkers:
    """Chinese checkers, best of three (R2020-F2)."""

    id: str = "checkers"
    title: str = "跳棋"
    seats: int = 2
    default_points: dict[str, int] = field(default_factory=lambda: {
        "win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2, "forfeit_loss": 0})
    default_tiebreaks: tuple[str, ...] = ROUND_ROBIN_TIEBREAKS

    def tiebreaks_for(self, format_name: str) -> tuple[str, ...]:
        """Round-robin chain (the R2020-F1 final pool), whatever the format."""
        return self.default_tiebreaks

    def notice_rules(self, options: dict[str, Any], points: dict[str, int],
                     stated: Collection[str] = ()) -> list[str]:
        """The notice's rules of play (R2020-F2: 落子无悔，采用三局二胜制), after the event's
        points when its spec sets them (no draw: a drawn game is replayed)."""
        own = [points_text(merged_points(self.default_points, points), draw=False)] if states_points(stated) else []
        return own + ["落子无悔", "每场三局两胜"]

    def columns(self, options: dict[str, Any]) -> list[ResultColumn]:
        """甲方胜局, 乙方胜局 (0..2) and the optional 弃权."""
        return [
            ResultColumn(A_WINS, "int", min=0, max=2, help="甲方赢的局数（0–2）"),
            ResultColumn(B_WINS, "int", min=0, max=2, help="乙方赢的局数（0–2）"),
            forfeit_column(),
        ]

    def detail(self, options: dict[str, Any]) -> DetailSheet | None:
        """No detail sheet."""
        return None

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """One result per filled row; score = games won (forfeit win counts 2)."""
        pts = merged_points(self.default_points, points)
        results: list[MatchResult] = []
        issues: list[Issue] = []
        for row, r in played_rows(rows, self.columns(options), issues, results, pts,
                                  win_score=GAMES_TO_WIN, source=A_WINS):
            # each filled cell first: "2:1" in 甲方胜局 was said only as 乙方胜局 未填写
            a = None if r.blank(A_WINS) else r.integer(A_WINS, 0, GAMES_TO_WIN, hint=_score_hint(r.raw(A_WINS)))
            b = None if r.blank(B_WINS) else r.integer(B_WINS, 0, GAMES_TO_WIN, hint=_score_hint(r.raw(B_WINS)))
            if not r.require([A_WINS, B_WINS]) or a is None or b is None:
                continue
            problem = best_of_three_problem(a, b)
            if problem:
                r.bad(A_WINS, problem)
                continue
            winner = 0 if a == GAMES_TO_WIN else 1
            results.append(two_sided(row.match, winner, pts, scores=(a, b), reason=f"{a}:{b}",
                                     source=row.at(A_WINS), games=(a, b)))
        return results, issues


CHECKERS = Checkers()
GAMES.register("checkers", "跳棋", "中国跳棋")(CHECKERS)
