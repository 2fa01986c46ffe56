"""掼蛋 Guandan (T2016): R2016-F4 winner at time, R2016-S1 round score, R2016-C1 level-up.

Columns 甲方级数, 乙方级数 (2..A), 过A方 (无/甲/乙), 台上方 (甲/乙).  The winner is the side
that passed A, else the higher level, else the side on stage (台上).  The round score
by level difference d (A = 14; d > 12 counts 12): winner 52 + 4d, loser 48 − 4d; the two
always sum to 100.  points = score = the round score (the standings sum them).

A forfeit gives the present side ``forfeit_win`` (default 52, a bare win) and the absent
side ``forfeit_loss`` (default 0); the event's points may change both.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection, Sequence

from ..issues import Issue
from ..model import MatchResult, Round
from . import GAMES
from .base import DetailSheet, ResultColumn, ResultRow
from .common import (forfeit_column, LEVEL_A, level_name, LEVEL_NAMES, merged_points, played_rows, two_sided)

A_LEVEL = "甲方级数"
B_LEVEL = "乙方级数"
PAST_A_SIDE = "过A方"
ON_STAGE = "台上方"
SIDES = ("甲", "乙")
SIDE_ALIASES = {"甲方": "甲", "乙方": "乙"}

TABLE_TOTAL = 100
BASE_WIN = 52
STEP = 4
MAX_DIFF = 12
FAILED_A_LIMIT = 3


# -- pure rules ---------------------------------------------------------------------------
def round_score(level_diff: int) -> tuple[int, int]:
    """R2016-S1: (winner, loser) round score for a level difference d (d > 12 counts 12).

    >>> round_score(0), round_score(4), round_score(12), round_score(20)
    ((52, 48), (68, 32), (100, 0), (100, 0))
    """
    if level_diff < 0:
        raise ValueError("the level difference is ≥ 0")
    d = min(level_diff, MAX_DIFF)
    return BASE_WIN + STEP * d, TABLE_TOTAL - BASE_WIN - STEP * d


def winner_at_time(a_level: int, b_level: int, past_a: int | None, on_stage: int) -> int:
    """R2016-F4: the side past A, else the higher level, else the side on stage (0/1).

    >>> winner_at_time(12, 8, None, 1), winner_at_time(9, 9, None, 1), winner_at_time(14, 14, 0, 1)
    (0, 1, 0)
    """
    if past_a is not None:
        return past_a
    if a_level != b_level:
        return 0 if a_level > b_level else 1
    return on_stage


@dataclass(frozen=True)
class DealStep:
    """A side's state after a deal: level (2..14), whether it passed A, failed tries at A."""

    level: int
    passed_a: bool = False
    failed_at_a: int = 0


def level_up(level: int, partner_place: int, failed_at_a: int = 0) -> DealStep:
    """R2016-C1: the side whose player finished 1st, by the partner's place.

    Partner 2nd → +3, 3rd → +2, 4th → +1; a level-up never skips A (stops there).  At A
    the side passes (wins the game) only with partner 2nd or 3rd; partner 4th is a failed
    attempt, and three failed attempts send the side back to 2.

    >>> level_up(2, 2), level_up(12, 2).level, level_up(14, 3).passed_a
    (DealStep(level=5, passed_a=False, failed_at_a=0), 14, True)
    >>> level_up(14, 4, 2)
    DealStep(level=2, passed_a=False, failed_at_a=0)
    """
    if partner_place not in (2, 3, 4):
        raise ValueError("the partner of the first finisher places 2nd, 3rd or 4th")
    if not 2 <= level <= LEVEL_A:
        raise ValueError(f"level must be 2..14, got {level}")
    if level == LEVEL_A:
        if partner_place in (2, 3):
            return DealStep(LEVEL_A, passed_a=True, failed_at_a=failed_at_a)
        return failed_attempt_at_a(failed_at_a)
    return DealStep(min(LEVEL_A, level + {2: 3, 3: 2, 4: 1}[partner_place]))


def failed_attempt_at_a(failed_at_a: int) -> DealStep:
    """R2016-C1: a side playing A that did not pass; the third failure sends it back to 2.

    >>> failed_attempt_at_a(0), failed_attempt_at_a(2).level
    (DealStep(level=14, passed_a=False, failed_at_a=1), 2)
    """
    n = failed_at_a + 1
    return DealStep(2) if n >= FAILED_A_LIMIT else DealStep(LEVEL_A, failed_at_a=n)


# -- the game -----------------------------------------------------------------------------
@dataclass
class Guandan:
    """掼蛋 (R2016-F4, S1): round score 52+4d : 48−4d."""

    id: str = "guandan"
    title: str = "掼蛋"
    seats: int = 2
    #: players on each side of a table: a fixed partnership (team_size at least this)
    side_size: int = 2
    default_points: dict[str, int] = field(default_factory=lambda: {
        "win": BASE_WIN, "draw": TABLE_TOTAL // 2, "loss": TABLE_TOTAL - BASE_WIN,
        "bye": BASE_WIN, "forfeit_win": BASE_WIN, "forfeit_loss": 0})
    default_tiebreaks: tuple[str, ...] = ("game_points", "direct", "playoff")
    #: a round's points are its round score (52+4d): a bye's points count in 总局分 too, as a
    #: forfeit win's 52 do (FIDE: unplayed rounds alike) — a pair with a bye lost a tie on
    #: 总局分 to a pair level with it on points that had a forfeit win
    points_are_score: bool = True

    def tiebreaks_for(self, format_name: str) -> tuple[str, ...]:
        """Groups (R2016-F3): total round score, direct encounter, playoff."""
        return self.default_tiebreaks

    def notice_rules(self, options: dict[str, Any], points: dict[str, int],
                     stated: Collection[str] = ()) -> list[str]:
        """The notice's rules of play in the T2016 rules' words: who wins at time (R2016-F4)
        and the round score by level difference (R2016-S1, the round's points)."""
        return ["过A不再打；裁判宣布时间到，已开打的牌可以打完，级数领先者为胜方，双方级数相同，以台上者为胜方",
                f"按级差计分：双方同级时胜方得{BASE_WIN}分、负方得{TABLE_TOTAL - BASE_WIN}分，每差一级胜方多得{STEP}分、"
                f"负方少得{STEP}分，相差{MAX_DIFF}级及以上为{BASE_WIN + STEP * MAX_DIFF}分比"
                f"{TABLE_TOTAL - BASE_WIN - STEP * MAX_DIFF}分"]

    def columns(self, options: dict[str, Any]) -> list[ResultColumn]:
        """甲方级数, 乙方级数, 过A方, 台上方 and the optional 弃权."""
        levels = tuple(LEVEL_NAMES[n] for n in range(2, 15))
        return [
            ResultColumn(A_LEVEL, "choice", levels, help="结束时甲方的级数（2–10、J、Q、K、A）"),
            ResultColumn(B_LEVEL, "choice", levels, help="结束时乙方的级数"),
            ResultColumn(PAST_A_SIDE, "choice", ("无", "甲", "乙"), required=False, help="已过A的一方（过A不再打）"),
            ResultColumn(ON_STAGE, "choice", SIDES, help="时间到时在台上（正在打自己级数）的一方；双方同级时由它定胜负，级数不同时可不填"),
            forfeit_column(),
        ]

    def detail(self, options: dict[str, Any]) -> DetailSheet | None:
        """No detail sheet."""
        return None

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """R2016-F4/S1 results; points = score = round score."""
        pts = merged_points(self.default_points, points)
        results: list[MatchResult] = []
        issues: list[Issue] = []
        for row, r in played_rows(rows, self.columns(options), issues, results, pts,
                                  win_score=pts["forfeit_win"], source=A_LEVEL):
            if not r.require([A_LEVEL, B_LEVEL]):
                continue
            a = r.level(A_LEVEL)
            b = r.level(B_LEVEL)
            pa = r.choice(PAST_A_SIDE, ("无", "甲", "乙"), aliases=SIDE_ALIASES, blank_as="无")
            stage = r.choice(ON_STAGE, SIDES, aliases=SIDE_ALIASES, blank_as="")
            if not r.ok or a is None or b is None or pa is None or stage is None:
                continue
            past = None if pa == "无" else SIDES.index(pa)
            if past is None and not stage and a == b:
                # R2016-F4: the side on stage decides only equal levels (Q:8 with 台上方 blank was refused)
                r.require([ON_STAGE])
                continue
            if past is not None and (a, b)[past] != LEVEL_A:
                r.bad(PAST_A_SIDE, f"“{PAST_A_SIDE}”为 \"{pa}\"，但{pa}方级数是 \"{level_name((a, b)[past])}\"："
                                   "过A的一方级数应填 A，请改正")
                continue
            winner = winner_at_time(a, b, past, SIDES.index(stage) if stage else 0)
            d = abs(a - b)
            w, l = round_score(d)
            mp = (w, l) if winner == 0 else (l, w)
            if past is not None:
                reason = f"{SIDES[past]}方过A"
            elif d:
                reason = f"级数 {level_name(a)}:{level_name(b)}，相差 {d} 级"
            else:
                reason = f"同级 {level_name(a)}，{stage}方在台上"
            results.append(two_sided(row.match, winner, pts, match_points=mp, scores=mp, reason=reason,
                                     source=row.at(A_LEVEL), detail={"levels": (a, b), "diff": d}))
        return results, issues


GUANDAN = Guandan()
GAMES.register("guandan", "掼蛋", "摜蛋", "扑克牌", "扑克")(GUANDAN)
