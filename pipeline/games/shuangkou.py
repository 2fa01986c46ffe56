"""双扣 Shuangkou (T2015; an upgrade game with two decks, pairs): R2015-C1…C4, R2015-P1.

Match (R2015-C4): 40 minutes; the side first past A wins, else the higher level, else the
side that won the last hand (末盘胜方).  Three warnings (R2015-P1 signalling) lose the match.
Match points: win 2 / loss 0 by default (the event may change them).  score = the
signed level difference (winner +d, loser −d; 过A counts 15), so scores sum to 0 and a
“net levels” tiebreak reads them directly.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Sequence

from ..issues import Issue
from ..model import MatchResult, Outcome, Round, SideResult
from . import GAMES
from .base import DetailSheet, ResultColumn, ResultRow
from .common import (forfeit_column, LEVEL_A, level_name, LEVEL_NAMES, merged_points, PAST_A, played_rows,
                     two_sided)

A_LEVEL = "甲方级数"
B_LEVEL = "乙方级数"
PAST_A_SIDE = "先过A方"
LAST_HAND = "末盘胜方"
A_WARN = "甲方警告"
B_WARN = "乙方警告"
SIDES = ("甲", "乙")
SIDE_ALIASES = {"甲方": "甲", "乙方": "乙"}
WARNINGS_TO_LOSE = 3

#: R2015-C3 levels that must be played (2, 5, 10, K)
MUST_PLAY = (2, 5, 10, 13)
PENALTY = 20
PENALTY_MODES = ("defender_total", "none")


# -- pure rules ---------------------------------------------------------------------------
def level_change(defender_points: int) -> tuple[Literal["dealer", "defenders"], int]:
    """R2015-C1: who goes up and by how many levels from the defenders' (閑家) points P.

    0 → dealer +4; 5–35 → dealer +2; 40–75 → dealer +1; ≥ 80 → defenders take over,
    +1 per full 20 above 80 (80–95 → 0, 100–115 → 1, 120–135 → 2 …).

    >>> level_change(0), level_change(35), level_change(75), level_change(95), level_change(120)
    (('dealer', 4), ('dealer', 2), ('dealer', 1), ('defenders', 0), ('defenders', 2))
    """
    p = defender_points
    if p < 0 or p % 5:
        raise ValueError(f"defenders' points must be a non-negative multiple of 5, got {p}")
    if p == 0:
        return "dealer", 4
    if p < 40:
        return "dealer", 2
    if p < 80:
        return "dealer", 1
    return "defenders", (p - 80) // 20


def bottom_multiplier(kind: str, pairs: int = 0) -> int:
    """R2015-C2: single ×2, pair ×4, tractor (姊妹对) of 2 pairs ×8, doubling per further pair.

    >>> bottom_multiplier("单张"), bottom_multiplier("对子"), bottom_multiplier("拖拉机", 2), bottom_multiplier("拖拉机", 4)
    (2, 4, 8, 32)
    """
    if kind == "无":
        return 0
    if kind == "单张":
        return 2
    if kind == "对子":
        return 4
    if kind == "拖拉机":
        if pairs < 2:
            raise ValueError("a tractor has at least 2 pairs")
        return 2 ** (pairs + 1)
    raise ValueError(f"unknown bottom kind {kind!r}")


def bottom_bonus(bottom_points: int, kind: str, pairs: int = 0) -> int:
    """R2015-C2: bottom points × multiplier.  ``bottom_bonus(20, "拖拉机", 3) == 320``."""
    return bottom_points * bottom_multiplier(kind, pairs)


def level_up(level: int, levels: int) -> int:
    """R2015-C3: go up ``levels`` from ``level`` but stop at the first must-play level
    (2, 5, 10, K) passed on the way; beyond A is 过A (15).

    >>> level_up(3, 4), level_up(5, 2), level_up(8, 4), level_up(13, 4), level_up(4, 1)
    (5, 7, 10, 15, 5)
    """
    if levels < 0:
        raise ValueError("levels must be ≥ 0")
    target = min(PAST_A, level + levels)
    for m in MUST_PLAY:
        if level < m <= target:
            return m
    return target


def apply_penalties(defender_points: int, *, dealer_offences: int = 0, defender_offences: int = 0,
                    mode: str = "defender_total") -> int:
    """R2015-P1: each −20 counts against the offending side.

    ``defender_total`` (default): 20 off the defenders' total for a defenders' offence, 20
    added to it for a dealer-side offence; the total never goes below 0.  ``none``: the
    penalties are recorded but do not change the total.

    >>> apply_penalties(60, defender_offences=1), apply_penalties(60, dealer_offences=2), apply_penalties(10, defender_offences=1)
    (40, 100, 0)
    """
    if mode == "none":
        return defender_points
    if mode != "defender_total":
        raise ValueError(f"unknown penalty_mode {mode!r}; known: {', '.join(PENALTY_MODES)}")
    return max(0, defender_points + PENALTY * (dealer_offences - defender_offences))


def play_hand(levels: tuple[int, int], dealer: int, defender_points: int) -> tuple[tuple[int, int], int]:
    """Levels after one hand and the side that deals next (R2015-C1, C3; 總則 7).

    >>> play_hand((3, 2), 0, 0)
    ((5, 2), 0)
    >>> play_hand((3, 2), 0, 120)
    ((3, 4), 1)
    """
    who, n = level_change(defender_points)
    side = dealer if who == "dealer" else 1 - dealer
    lv = list(levels)
    lv[side] = level_up(lv[side], n)
    return (lv[0], lv[1]), side


def match_winner(a_level: int, b_level: int, past_a: int | None, last_hand: int | None,
                 warnings: tuple[int, int] = (0, 0)) -> int | None:
    """R2015-C4 + P1: 0/1 the winner; None if undecided (equal levels, no last-hand winner).

    Three warnings lose the match first; then the side past A; then the higher level;
    then the winner of the last hand.

    >>> match_winner(9, 12, None, None), match_winner(9, 9, None, 0), match_winner(14, 9, 1, None)
    (1, 0, 1)
    """
    lost = [w >= WARNINGS_TO_LOSE for w in warnings]
    if lost[0] != lost[1]:
        return 1 if lost[0] else 0
    if past_a is not None:
        return past_a
    if a_level != b_level:
        return 0 if a_level > b_level else 1
    return last_hand


# -- the game -----------------------------------------------------------------------------
@dataclass
class Shuangkou:
    """双扣 (R2015-C4, P1)."""

    id: str = "shuangkou"
    title: str = "双扣"
    seats: int = 2
    default_points: dict[str, int] = field(default_factory=lambda: {
        "win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2, "forfeit_loss": 0})
    default_tiebreaks: tuple[str, ...] = ("direct", "wins", "game_points", "playoff")

    def tiebreaks_for(self, format_name: str) -> tuple[str, ...]:
        """Swiss: Buchholz first; otherwise the round-robin chain with net levels."""
        if format_name in ("swiss", "瑞士制"):
            return ("buchholz", "game_points", "wins", "direct")
        return self.default_tiebreaks

    def columns(self, options: dict[str, Any]) -> list[ResultColumn]:
        """Levels, who passed A, the last hand's winner, warnings, and the optional 弃权."""
        levels = tuple(LEVEL_NAMES[n] for n in range(2, 15))
        return [
            ResultColumn(A_LEVEL, "choice", levels, help="时间到时甲方的级数（2–10、J、Q、K、A）"),
            ResultColumn(B_LEVEL, "choice", levels, help="时间到时乙方的级数"),
            ResultColumn(PAST_A_SIDE, "choice", ("无", "甲", "乙"), required=False, help="最先打过A的一方"),
            ResultColumn(LAST_HAND, "choice", SIDES, required=False,
                         help="级数相同时：最后一盘盘面分判定的胜方"),
            ResultColumn(A_WARN, "int", min=0, max=3, required=False, help="甲方累计警告次数（3 次判负）"),
            ResultColumn(B_WARN, "int", min=0, max=3, required=False, help="乙方累计警告次数（3 次判负）"),
            forfeit_column(),
        ]

    def detail(self, options: dict[str, Any]) -> DetailSheet | None:
        """No detail sheet (the hand rules are pure functions here)."""
        return None

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """R2015-C4 results: winner by 3 warnings, 过A, level, last hand."""
        pts = merged_points(self.default_points, points)
        results: list[MatchResult] = []
        issues: list[Issue] = []
        for row, r in played_rows(rows, self.columns(options), issues, results, pts,
                                  win_score=0, source=A_LEVEL):
            if not r.require([A_LEVEL, B_LEVEL]):
                continue
            a = r.level(A_LEVEL)
            b = r.level(B_LEVEL)
            pa = r.choice(PAST_A_SIDE, ("无", "甲", "乙"), aliases=SIDE_ALIASES, blank_as="无")
            last = r.choice(LAST_HAND, SIDES, aliases=SIDE_ALIASES, blank_as="")
            wa = r.integer(A_WARN, 0, WARNINGS_TO_LOSE, blank_as=0)
            wb = r.integer(B_WARN, 0, WARNINGS_TO_LOSE, blank_as=0)
            if not r.ok or a is None or b is None or pa is None or last is None or wa is None or wb is None:
                continue
            past = None if pa == "无" else SIDES.index(pa)
            if past is not None and (a, b)[past] != LEVEL_A:
                r.bad(PAST_A_SIDE, f"“{PAST_A_SIDE}”为 \"{pa}\"，但{pa}方级数是 \"{level_name((a, b)[past])}\"：过A的一方"
                                   "级数应填 A，请改正")
                continue
            last_i = SIDES.index(last) if last else None
            if wa >= WARNINGS_TO_LOSE and wb >= WARNINGS_TO_LOSE:
                src = row.at(A_WARN)
                loss = pts["loss"]
                results.append(MatchResult(row.match, (SideResult(Outcome.LOSS, loss, 0),
                                                       SideResult(Outcome.LOSS, loss, 0)),
                                           reason="双方均累计三次警告", source=src))
                continue
            winner = match_winner(a, b, past, last_i, (wa, wb))
            if winner is None:
                r.bad(LAST_HAND, f"双方同为 \"{level_name(a)}\" 级：请在“{LAST_HAND}”中选择最后一盘的胜方（甲/乙）")
                continue
            if max(wa, wb) >= WARNINGS_TO_LOSE:
                reason = f"{SIDES[1 - winner]}方累计三次警告判负"
            elif past is not None:
                reason = f"{SIDES[past]}方先过A"
            elif a != b:
                reason = f"级数 {level_name(a)}:{level_name(b)}"
            else:
                reason = f"同级 {level_name(a)}，末盘{SIDES[winner]}方胜"
            ea = PAST_A if past == 0 else a
            eb = PAST_A if past == 1 else b
            d = abs(ea - eb)
            scores = (d, -d) if winner == 0 else (-d, d)
            results.append(two_sided(row.match, winner, pts, scores=scores, reason=reason,
                                     source=row.at(A_LEVEL), detail={"levels": (a, b), "warnings": (wa, wb)}))
        return results, issues


SHUANGKOU = Shuangkou()
GAMES.register("shuangkou", "双扣", "雙扣")(SHUANGKOU)
