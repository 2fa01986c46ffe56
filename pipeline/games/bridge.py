"""桥牌 Bridge, pairs (R2015-Q2, R2015-F1): matchpoint scoring of duplicate boards.

Rows are per table AND board: 牌号 and 南北得分 (the NS score, negative when EW scored).
A 南北得分 no contract result can give (R2015-Q2, ``legal_ns_scores``: 10, 30, −60 …) is
refused at its cell like any bad cell, the round waiting for it.
Side order: ``Match.sides[0]`` sits North–South (甲方), ``sides[1]`` East–West (乙方).
Every table of a round plays the same boards (``Round.plan["boards"]`` when present,
else the boards seen on the sheet).

Matchpoints per board: 2 per other table beaten, 1 per tie (integers, ×2 of the
classic 1/½); EW gets the complement 2 × (tables − 1) − NS.  A table gets its result
only when every board of the round is scored at every table (matchpoints compare all
tables).  points = score = the pair's matchpoints for the round; the outcome at the
table is WIN/LOSS/DRAW by comparing the two pairs' matchpoints.

A pair that does not come (弃权 on any row of its table: 甲方弃权 NS, 乙方弃权 EW, 双方弃权):
the table is not played and its boards are left out of the matchpointing, the other tables
compared among themselves; the pair that came gets the average, half the top (tables
played − 1 a board), the absent pair nothing.  (A pair dropping out once held the round
for good: every table had to score every board.)

A passed-out board (四家都不叫) scores 0: written 0, or as score sheets commonly write it —
"-", "—", "PASS", "全不叫" (:data:`PASS_OUT`) — read as 0 with a note (``RESULT_READ_AS``)
on its cell.  A board left blank at a table that scored others is asked for at its own
row, saying a passed-out board is written 0 (R2015-F1).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence

from ..issues import Issue, issue
from ..model import MatchResult, Outcome, Round, SideResult
from . import GAMES
from .base import DetailSheet, ResultColumn, ResultRow
from .common import (FORFEIT_LABEL, POINTS_UNIT, RowReader, forfeit_column, merged_points, norm, read_forfeit, shown,
                     to_int, two_sided, where)

BOARD = "牌号"
NS_SCORE = "南北得分"
MAX_SCORE = 7600   # 7NT redoubled, vulnerable, all overtricks stays below this
SCORE_STEP = 10
#: a passed-out board (四家都不叫) as score sheets write it, read as 0 (as norm() reads the
#: cell, lower-cased: NFKC turns － into -, spaces dropped)
PASS_OUT = frozenset({"-", "--", "—", "——", "–", "―", "pass", "passout", "passedout", "allpass", "p/o",
                      "全不叫", "都不叫", "四家都不叫", "四家不叫", "无人叫牌"})
PASS_OUT_HINT = "（这副牌四家都不叫的，填 0）"


def passed_out(value: Any) -> bool:
    """True for a 南北得分 written as a passed-out board (:data:`PASS_OUT`): ``passed_out("PASS")``."""
    return isinstance(value, str) and norm(value).lower() in PASS_OUT


def declarer_scores(vulnerable: bool) -> frozenset[int]:
    """R2015-Q2: every score a declaring side can get on one board under the duplicate scoring
    table, for its vulnerability — made contracts positive, undertricks negative.

    Made: trick score (♣♦ 20, ♥♠ 30, NT 40 first + 30 further, ×2 doubled, ×4 redoubled), then
    50 for a part score or 300/500 (non-vul/vul) for a game (trick score ≥ 100), small slam
    500/750, grand slam 1000/1500, the insult 50/100 when (re)doubled; overtricks at the trick
    value, or 100/200 a trick doubled (200/400 vulnerable, the redoubled double that).
    Down: 50/100 a trick undoubled; doubled non-vul 100, 200, 200, then 300 each; doubled vul
    200, then 300 each; redoubled twice the doubled.

    >>> sorted(s for s in declarer_scores(False) if -100 <= s <= 100)
    [-100, -50, 70, 80, 90]
    >>> max(declarer_scores(True)), min(declarer_scores(True))    # 1NT XX +6; 7NT XX −13
    (3160, -7600)
    """
    out: set[int] = set()
    for level in range(1, 8):
        for first, further in ((20, 20), (30, 30), (40, 30)):     # minor, major, no trumps
            for mult in (1, 2, 4):                                 # undoubled, doubled, redoubled
                trick = (first + further * (level - 1)) * mult
                made = trick + ((500 if vulnerable else 300) if trick >= 100 else 50)
                made += {6: 750 if vulnerable else 500, 7: 1500 if vulnerable else 1000}.get(level, 0)
                made += {1: 0, 2: 50, 4: 100}[mult]
                over = further if mult == 1 else (200 if vulnerable else 100) * mult // 2
                out.update(made + over * n for n in range(0, 8 - level))
                for down in range(1, level + 7):
                    if mult == 1:
                        penalty = (100 if vulnerable else 50) * down
                    elif vulnerable:
                        penalty = (200 + 300 * (down - 1)) * mult // 2
                    else:
                        penalty = sum(100 if t == 1 else 200 if t <= 3 else 300
                                      for t in range(1, down + 1)) * mult // 2
                    out.add(-penalty)
    return frozenset(out)


@lru_cache(maxsize=None)
def legal_ns_scores() -> tuple[int, ...]:
    """R2015-Q2: every 南北得分 some contract result can give, ascending (0: passed out).

    Either side may declare, so a NS score is a declarer's score or minus one.  The board's
    vulnerability is not known: the sheet does not say it, and 牌号 is the program's own count
    of the round's deals ((k−1)·b+1 … k·b), not a duplicate board whose number fixes it — so a
    score is legal when it is legal at either vulnerability (a score refused wrongly could not
    be corrected by the referee).

    >>> 30 in legal_ns_scores(), 420 in legal_ns_scores(), -50 in legal_ns_scores()
    (False, True, True)
    >>> max(legal_ns_scores())
    7600
    """
    one_side = declarer_scores(False) | declarer_scores(True) | {0}
    return tuple(sorted(one_side | {-s for s in one_side}))


def nearest_legal(score: int, n: int = 3) -> list[int]:
    """The ``n`` legal NS scores nearest ``score``, ascending (ties: the one on the same side
    of zero first).

    >>> nearest_legal(30), nearest_legal(-60)
    ([0, 50, 70], [-80, -70, -50])
    """
    legal = legal_ns_scores()
    i = bisect_left(legal, score)
    near = legal[max(0, i - n):i + n]
    return sorted(sorted(near, key=lambda s: (abs(s - score), (s < 0) != (score < 0), s))[:n])


def matchpoints(ns_scores: Sequence[int]) -> list[int]:
    """NS matchpoints of one board: 2 per other table beaten, 1 per tie.

    >>> matchpoints([420, 420, -50, 170])
    [5, 5, 0, 2]
    """
    ordered = sorted(ns_scores)
    # beaten: the scores below; tied: the equal scores but this one
    return [2 * bisect_left(ordered, s) + (bisect_right(ordered, s) - bisect_left(ordered, s) - 1)
            for s in ns_scores]


def ew_matchpoints(ns_mp: Sequence[int]) -> list[int]:
    """EW matchpoints: the complement of NS, 2 × (tables − 1) − NS.

    >>> ew_matchpoints([5, 5, 0, 2])
    [1, 1, 6, 4]
    """
    top = 2 * (len(ns_mp) - 1)
    return [top - m for m in ns_mp]


@dataclass
class Bridge:
    """桥牌 pairs, matchpointed per board."""

    id: str = "bridge"
    title: str = "桥牌"
    seats: int = 2
    #: players on each side of a table: a fixed partnership (an event's team_size is this)
    side_size: int = 2
    #: matchpoints compare the tables of a round, which only a pairs movement seats
    #: with the same boards (registries.fits)
    formats: tuple[str, ...] = ("pairs_movement",)
    default_points: dict[str, int] = field(default_factory=lambda: {
        "win": 0, "draw": 0, "loss": 0, "bye": 0, "forfeit_win": 0, "forfeit_loss": 0})
    default_tiebreaks: tuple[str, ...] = ("game_points", "direct", "playoff")

    def tiebreaks_for(self, format_name: str) -> tuple[str, ...]:
        """Total matchpoints first."""
        return self.default_tiebreaks

    def cell_reading(self, column: ResultColumn, row: ResultRow) -> int | None:
        """A 南北得分 written as a passed-out board (:data:`PASS_OUT`: -, PASS) reads 0
        (:func:`pipeline.games.common.cell_reading`); None otherwise (the common reading)."""
        if column.label == NS_SCORE and passed_out(row.values.get(NS_SCORE)):
            return 0
        return None

    def columns(self, options: dict[str, Any]) -> list[ResultColumn]:
        """牌号 (board number) and 南北得分 (NS score; negative when EW scored)."""
        return [
            ResultColumn(BOARD, "int", min=1, help="牌号（副号）"),
            ResultColumn(NS_SCORE, "int", min=-MAX_SCORE, max=MAX_SCORE, unit=POINTS_UNIT,
                         help="南北方得分，东西方得分时填负数；10 的倍数"),
            forfeit_column("一对未到场时在这一桌的任一行选择（甲方为南北，乙方为东西），这一桌的得分留空；"
                           "到场的一对得平均分"),
        ]

    def detail(self, options: dict[str, Any]) -> DetailSheet | None:
        """No detail sheet: the rows are already per board."""
        return None

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """Matchpoint every board across the round's tables; a result per complete table."""
        pts = merged_points(self.default_points, points)
        issues: list[Issue] = []
        planned = [b for b in (to_int(x) for x in rnd.plan.get("boards", []) or []) if b is not None]
        scores: dict[tuple, dict[int, int]] = defaultdict(dict)   # match key → board → NS score
        first_cell: dict[tuple, Any] = {}
        matches = {m.key: m for m in rnd.matches if not m.bye}
        absent: dict[tuple, int] = {}      # match key → the side that did not come (2: both)
        forfeit_at: dict[tuple, tuple[RowReader, Any]] = {}
        scored_too: set[tuple] = set()     # tables with a 弃权 and a score: which is it?
        said: dict[tuple, set[int]] = defaultdict(set)   # boards whose score was refused (said at its cell)
        blank_at: dict[tuple, dict[int, Any]] = defaultdict(dict)   # a pre-printed board's blank score cell
        read_as: list[Issue] = []          # the passed-out boards read as 0 (notes)
        for row in rows:
            r = RowReader(row, issues)
            if FORFEIT_LABEL in row.values and not r.blank(FORFEIT_LABEL):
                who = read_forfeit(r)
                if who is not None:
                    absent.setdefault(row.match.key, who)
                    forfeit_at.setdefault(row.match.key, (r, row.at(FORFEIT_LABEL)))
                    first_cell.setdefault(row.match.key, row.at(FORFEIT_LABEL))
                    matches.setdefault(row.match.key, row.match)
                    if not r.blank(NS_SCORE):
                        scored_too.add(row.match.key)
                continue
            if r.blank(NS_SCORE):
                # 牌号 may be pre-printed: no score yet = not yet played (asked for below,
                # at this row, when its table scored other boards)
                printed = to_int(row.values.get(BOARD))
                if printed is not None:
                    blank_at[row.match.key].setdefault(printed, row.at(NS_SCORE))
                continue
            if not r.require([BOARD]):
                continue
            board = r.integer(BOARD, 1)
            raw = row.values.get(NS_SCORE)
            passed = passed_out(raw)
            ns = 0 if passed else r.integer(NS_SCORE, -MAX_SCORE, MAX_SCORE, step=SCORE_STEP, unit=POINTS_UNIT,
                                            hint=PASS_OUT_HINT if to_int(raw, POINTS_UNIT) is None else "")
            if board is None or ns is None:
                if board is not None:       # not "missing" too, at the next board's cell
                    said[row.match.key].add(board)
                continue
            if ns not in _LEGAL:
                r.bad(NS_SCORE, f"牌号 {board} 的南北得分 {ns} 不是桥牌可能出现的得分（最接近的可能得分："
                                f"{'、'.join(map(str, nearest_legal(ns)))}）；请按记分表核对后改正")
                said[row.match.key].add(board)
                continue
            if planned and board not in planned:
                r.bad(BOARD, f"牌号 \"{shown(row.values.get(BOARD))}\" 不是本轮的牌（本轮牌号："
                             f"{'、'.join(map(str, planned))}）：请改正牌号")
                continue
            key = row.match.key
            if board in scores[key]:
                if scores[key][board] != ns:
                    r.bad(BOARD, f"牌号 {board} 出现两次且得分不同（{scores[key][board]} 和 {ns}）：每桌每副牌只填一行，"
                                 "请删除错误的一行")
                continue
            scores[key][board] = ns
            first_cell.setdefault(key, row.at(NS_SCORE))
            if passed:
                read_as.append(issue("RESULT_READ_AS", f"{where(row.match)}：牌号 {board} 的“{NS_SCORE}”填的是 "
                                     f"\"{shown(raw)}\"，按四家都不叫计 0 分；如不是这样，请改填这副牌的得分后重发",
                                     at=row.at(NS_SCORE)))
            matches.setdefault(key, row.match)

        # a 弃权 beside scores: the table was played, or not — the referee says which (it was
        # taken as the forfeit, the scores dropped without a word); the round waits for it
        contradicted = sorted(k for k in absent if scores.get(k) or k in scored_too)
        for k in contradicted:
            r, _ = forfeit_at[k]
            r.bad(FORFEIT_LABEL, f"选了“{shown(r.raw(FORFEIT_LABEL))}”，这一桌又填了 {len(scores.get(k, {})) or 1} 副牌的"
                                 "南北得分，两者矛盾：比赛进行了的，请清空“弃权”；确为弃权的，请清空这一桌的得分")
        issues.extend(read_as)
        if contradicted:
            return [], issues
        boards = planned or sorted({b for s in scores.values() for b in s})
        tables = [k for k in matches if k not in absent]       # the tables played
        # a table that started filling but misses boards: tell the referee which
        for k in tables:
            missing = [b for b in boards if b not in scores.get(k, {}) and b not in said.get(k, ())]
            if missing and scores.get(k):
                # at the first missing board's own row (its 牌号 pre-printed), else the table's first
                at = blank_at.get(k, {}).get(missing[0], first_cell[k])
                r = RowReader(ResultRow(matches[k], {}, {NS_SCORE: at}), issues)
                r.bad(NS_SCORE, f"缺少牌号 {'、'.join(map(str, missing))} 的南北得分：请补填{PASS_OUT_HINT}，"
                                "所有桌打完同一组牌后才能计算比赛分")
        if not boards or any(b not in scores.get(k, {}) for k in tables for b in boards):
            return [], issues
        average = max(0, len(tables) - 1) * len(boards)      # half the top of every board

        totals = {k: [0, 0] for k in tables}
        for b in boards:
            ns_mp = matchpoints([scores[k][b] for k in tables])
            for k, m in zip(tables, ns_mp):
                totals[k][0] += m
                totals[k][1] += 2 * (len(tables) - 1) - m
        results = []
        for k in tables:
            ns, ew = totals[k]
            winner = None if ns == ew else (0 if ns > ew else 1)
            results.append(two_sided(matches[k], winner, pts, match_points=(ns, ew), scores=(ns, ew),
                                     reason=f"比赛分 {ns}:{ew}", source=first_cell.get(k),
                                     detail={"boards": {b: scores[k][b] for b in boards}}))
        for k, who in absent.items():
            if who == 2:
                sides = (SideResult(Outcome.ABSENT, 0, 0), SideResult(Outcome.ABSENT, 0, 0))
            else:
                sides = tuple(SideResult(Outcome.FORFEIT_LOSS, 0, 0) if i == who else
                              SideResult(Outcome.FORFEIT_WIN, average, average) for i in (0, 1))
            results.append(MatchResult(matches[k], sides, reason="弃权（到场的一对得平均分）" if who != 2 else "双方弃权",
                                       source=first_cell.get(k)))
        return results, issues


_LEGAL = frozenset(legal_ns_scores())

BRIDGE = Bridge()
GAMES.register("bridge", "桥牌", "橋牌")(BRIDGE)
