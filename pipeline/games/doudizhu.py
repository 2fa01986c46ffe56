"""斗地主 Doudizhu, tables of three: R2020-D2/D3 and R2011-D1/D2.

Result columns 甲得分, 乙得分, 丙得分 (table points at time / at the end) and 加赛胜者 (who
won the extra hand when the top score is tied).  Options (``game_options``):

- ``start_points`` (default 0): each player's points at the start.  R2011-D1 uses 10:
  the entered values are then final totals including the 10, and the totals must sum
  to 3 × start_points (the game is zero-sum).
- ``scoring``: ``"R2020"`` (base 1, default when start_points is 0) or ``"R2011"`` (the
  bid 1/2/3 is the base; default when start_points > 0).
- ``early_end`` (default: start_points > 0): R2011-D2, the table stops once a player has
  ≤ 0 points; detail rows after that are an error.
- ``round_minutes``: R2011-D1, the longest a table plays a round (每轮比赛每桌最长进行2小时),
  stated in the notice (a 30-minute limit at which the table ranks by points, R2020-D2,
  is the shared ``time_limit_minutes``).

Totals no set of hands can give are refused: in every hand the landlord moves twice what
each farmer moves, so the three changes (total − start_points) are congruent mod 3
(R2020-D3, R2011-D1; :func:`changes_possible`).  5/−3/−2 was accepted.

Places: by points, ties share a place.  A tie for first without a 加赛胜者 gives no
result (the table has no winner yet) and a ``PLAYOFF_REQUIRED`` issue at 加赛胜者.  A
加赛胜者 who is the sole leader is the points' own result: kept, with a warning
(RESULT_INVALID, severity warning) to clear the cell.
points = score = the entered table points; outcome WIN for place 1, else LOSS.

Forfeits: 弃权 lists the seats absent (甲, 乙丙 …).  Absent players get FORFEIT_LOSS and
the last place(s); if one player is left, that player wins by forfeit.  Two players left
still play for the table (R2011-D2: the highest score advances), so their scores are
required and held to the zero-sum rule of a full table (R2020-D3, R2011-D1): see
:meth:`Doudizhu._forfeit_row`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection, Sequence

from ..issues import Issue, issue
from ..model import MatchResult, Outcome, Round, Severity, SideResult
from . import GAMES
from .base import AS_ACCEPTED_BEFORE, DetailSheet, ResultColumn, ResultRow
from .common import (detail_rows, DetailReader, duration_text, is_blank, POINTS_UNIT, row_blank, RowReader,
                     SEAT_NAMES, shown, time_option, to_int, where)

SCORE_LABELS = ("甲得分", "乙得分", "丙得分")
PLAYOFF = "加赛胜者"
ABSENT_LABEL = "弃权"
ABSENT_CHOICES = ("甲", "乙", "丙", "甲乙", "甲丙", "乙丙", "甲乙丙")
SEAT_ALIASES = {"甲方": "甲", "乙方": "乙", "丙方": "丙"}

DETAIL_SHEET = "牌局明细"
D_HAND = "局号"
D_LANDLORD = "地主"
D_BID = "叫分"
D_BOMBS = "炸弹数"
D_SPRING = "春天"
D_ANTI = "反春天"
D_WON = "地主胜"
YES_NO = ("是", "否")
YES_NO_ALIASES = {"Y": "是", "N": "否", "YES": "是", "NO": "否", "1": "是", "0": "否", "√": "是", "×": "否"}
MAX_BOMBS = 13 + 1   # 13 four-of-a-kinds and the rocket in one deck


# -- pure rules ---------------------------------------------------------------------------
def multiplier(bombs: int = 0, spring: bool = False, anti_spring: bool = False) -> int:
    """R2020-D3 / R2011-D1: ×2 per bomb or rocket played, ×2 for spring or anti-spring.

    >>> multiplier(), multiplier(2), multiplier(1, spring=True)
    (1, 4, 4)
    """
    if bombs < 0:
        raise ValueError("bombs ≥ 0")
    if spring and anti_spring:
        raise ValueError("a hand cannot be both spring and anti-spring")
    return 2 ** (bombs + int(spring) + int(anti_spring))


def hand_scores(landlord: int, landlord_won: bool, base: int = 1, bombs: int = 0,
                spring: bool = False, anti_spring: bool = False) -> tuple[int, int, int]:
    """R2020-D3: S = base × multiplier; landlord ±2S, each farmer ∓S (zero-sum).

    Spring (春天) only when the landlord wins; anti-spring (反春天) only when they lose.

    >>> hand_scores(0, True), hand_scores(1, False, bombs=1)
    ((2, -1, -1), (2, -4, 2))
    """
    if landlord not in (0, 1, 2):
        raise ValueError("landlord seat is 0, 1 or 2")
    if spring and not landlord_won:
        raise ValueError("spring (春天) means the landlord won")
    if anti_spring and landlord_won:
        raise ValueError("anti-spring (反春天) means the landlord lost")
    s = base * multiplier(bombs, spring, anti_spring)
    sign = 1 if landlord_won else -1
    return tuple(sign * 2 * s if i == landlord else -sign * s for i in range(3))  # type: ignore[return-value]


def hand_scores_2011(landlord: int, landlord_won: bool, bid: int, bombs: int = 0,
                     spring: bool = False, anti_spring: bool = False) -> tuple[int, int, int]:
    """R2011-D1: like R2020-D3 but the bid (1, 2 or 3) is the base.

    >>> hand_scores_2011(2, True, 1), hand_scores_2011(2, True, 1, bombs=2)
    ((-1, -1, 2), (-4, -4, 8))
    """
    if bid not in (1, 2, 3):
        raise ValueError("bid is 1, 2 or 3")
    return hand_scores(landlord, landlord_won, bid, bombs, spring, anti_spring)


@dataclass(frozen=True)
class DdzHand:
    """One hand of the 牌局明细 sheet (seats 0 = 甲, 1 = 乙, 2 = 丙)."""

    landlord: int
    landlord_won: bool
    bid: int = 1
    bombs: int = 0
    spring: bool = False
    anti_spring: bool = False

    def scores(self) -> tuple[int, int, int]:
        """This hand's points per seat (R2020-D3 with the bid as base, R2011-D1)."""
        return hand_scores(self.landlord, self.landlord_won, self.bid, self.bombs, self.spring, self.anti_spring)


def table_totals(hands: Sequence[DdzHand], start_points: int = 0, early_end: bool = False
                 ) -> tuple[tuple[int, int, int], int | None]:
    """Totals after the hands, and the index of the first hand played after the table
    should have ended (R2011-D2: a player at ≤ 0 ends it), else None.

    >>> table_totals([DdzHand(0, True), DdzHand(1, False, bombs=1)], 10)
    ((14, 5, 11), None)
    """
    totals = [start_points] * 3
    late: int | None = None
    for i, h in enumerate(hands):
        if early_end and late is None and i and min(totals) <= 0:
            late = i
        for k, s in enumerate(h.scores()):
            totals[k] += s
    return (totals[0], totals[1], totals[2]), late


def changes_possible(totals: Sequence[int], start_points: int = 0) -> bool:
    """R2020-D3, R2011-D1: whether three zero-sum totals can come from hands at all.

    In every hand the landlord moves ±2S and each farmer ∓S (S = base or bid × 2^doublings;
    bombs, the rocket, spring and anti-spring only change S), so the three changes of a
    hand differ by 0 or 3S: all congruent mod 3.  Summed over the hands (a table stopped
    early, R2011-D2, or at time, R2020-D2, is still a sum of hands), the three players'
    changes (total − start_points) are congruent mod 3.  Any zero-sum changes that are
    congruent mod 3 are some sum of 1-point hands, so nothing more is certain.

    >>> changes_possible([5, -3, -2]), changes_possible([4, -2, -2]), changes_possible([14, 8, 8], 10)
    (False, True, True)
    >>> changes_possible([14, 9, 7], 10)
    False
    """
    return len({(t - start_points) % 3 for t in totals}) <= 1


def places(points: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking by points, ties share a place: ``places([5, 5, -10]) == (1, 1, 3)``."""
    return tuple(1 + sum(q > p for q in points) for p in points)


def _options(options: dict[str, Any]) -> tuple[int, str, bool]:
    try:
        start = int(options.get("start_points", 0) or 0)
    except (TypeError, ValueError):
        raise ValueError(f"斗地主的 game_options.start_points 为“{options.get('start_points')}”，应为整数（如 0 或 10）") from None
    scoring = str(options.get("scoring") or ("R2011" if start > 0 else "R2020"))
    if scoring not in ("R2020", "R2011"):
        raise ValueError(f"斗地主的 game_options.scoring 为“{scoring}”，应为 R2020 或 R2011")
    early = bool(options.get("early_end", start > 0))
    return start, scoring, early


# -- the game -----------------------------------------------------------------------------
@dataclass
class Doudizhu:
    """斗地主, three players per table (R2020-D2/D3, R2011-D1/D2)."""

    id: str = "doudizhu"
    title: str = "斗地主"
    seats: int = 3
    #: the result cells its detail sheet does not tell, typed beside it: a row with nothing
    #: else filled still has its totals computed from its 牌局明细 (EventRunner.totals_from_details)
    detail_kept: tuple[str, ...] = (PLAYOFF,)
    default_points: dict[str, int] = field(default_factory=lambda: {
        "win": 0, "draw": 0, "loss": 0, "bye": 0, "forfeit_win": 0, "forfeit_loss": 0})
    default_tiebreaks: tuple[str, ...] = ("game_points", "playoff")
    #: the game_options it reads (registries.check_game_options names a typo of one)
    option_keys: tuple[str, ...] = ("start_points", "scoring", "early_end", "round_minutes")

    def check_options(self, options: dict[str, Any]) -> None:
        """ValueError for a value it cannot use (scoring other than R2020 / R2011, a
        round_minutes that is not a whole number above 0)."""
        _options(options)
        time_option(options, "round_minutes", self.title)

    def notice_rules(self, options: dict[str, Any], points: dict[str, int],
                     stated: Collection[str] = ()) -> list[str]:
        """The notice's rules of play in the words of the client notice whose scoring the
        event uses: R2011-D1 (每桌最长2小时, 基础分10分, 叫1/2/3分, 地主得失) and R2011-D2 (输完
        基础分即结束), or R2020-D3 (初始分1分, 炸弹、火箭、春天、反春天翻倍).  The event's
        win/draw/loss points are not said: a table ranks by its own points."""
        start, scoring, early = _options(options)
        minutes = time_option(options, "round_minutes", self.title)
        parts = [f"每轮比赛每桌最长进行{duration_text(minutes)}"] if minutes else []
        if scoring == "R2011":
            parts += [(f"基础分为{start}分，" if start else "") + "叫牌时可以叫“1分”、“2分”、“3分”",
                      "以叫“1分”为例：如地主胜，地主得2分，其余两家各得-1分；如地主败，地主得-2分，其余两家各得1分",
                      "地主把牌出完，两家一张都没出，得分×2；两家有一家出完，地主仅仅出过一手牌，得分×2",
                      "桌面每出一个炸弹或火箭翻一倍"]
        else:
            parts += ([f"基础分为{start}分"] if start else []) + [
                "叫地主玩法初始分为1分，每出一个炸弹或者火箭翻一倍（留在手里没有出去的火箭和炸弹不算）",
                "春天（地主所有牌出完，而其余两家一张未出）、反春天（农民其中一家先出完牌，而地主只出过一手牌）分数×2"]
        if early and start:
            parts.append("比赛中如有选手输完基础分，该桌比赛即结束")
        return parts

    def tiebreaks_for(self, format_name: str) -> tuple[str, ...]:
        """Table points, then a playoff hand (R2011-D2)."""
        return self.default_tiebreaks

    def columns(self, options: dict[str, Any]) -> list[ResultColumn]:
        """甲得分, 乙得分, 丙得分, 加赛胜者 and the optional 弃权."""
        start, _, _ = _options(options)
        what = f"结束时的总分（含基础分 {start}）" if start else "时间到时的积分（可为负）"
        return [
            *(ResultColumn(l, "int", help=f"{s}{what}", unit=POINTS_UNIT) for l, s in zip(SCORE_LABELS, SEAT_NAMES)),
            ResultColumn(PLAYOFF, "choice", ("无",) + SEAT_NAMES, required=False,
                         help="最高分相同时加赛一局的胜者；否则留空或选“无”"),
            ResultColumn(ABSENT_LABEL, "choice", ABSENT_CHOICES, required=False,
                         help="未到场 / 迟到超过 15 分钟的座位；其余栏照常填写"),
        ]

    def detail(self, options: dict[str, Any]) -> DetailSheet | None:
        """The optional hand-by-hand sheet 牌局明细 (R2020-D3, R2011-D1)."""
        _, scoring, _ = _options(options)
        return DetailSheet(DETAIL_SHEET, (
            ResultColumn(D_HAND, "int", min=1, help="第几局"),
            ResultColumn(D_LANDLORD, "choice", SEAT_NAMES, help="本局地主"),
            ResultColumn(D_BID, "int", min=1, max=3, required=scoring == "R2011", unit=POINTS_UNIT,
                         help="叫分 1/2/3" if scoring == "R2011" else "不用填（底分为 1）"),
            ResultColumn(D_BOMBS, "int", min=0, max=MAX_BOMBS, required=False, help="打出的炸弹和火箭个数"),
            ResultColumn(D_SPRING, "choice", YES_NO, required=False, help="春天：地主出完，农民一张未出"),
            ResultColumn(D_ANTI, "choice", YES_NO, required=False, help="反春天：农民出完，地主只出过一手"),
            ResultColumn(D_WON, "choice", YES_NO, help="地主是否获胜"),
        ))

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """Table results ranked by points (R2020-D2, R2011-D2), checked against the detail sheet."""
        start, scoring, early = _options(options)
        results: list[MatchResult] = []
        issues: list[Issue] = []
        for row in rows:
            if row_blank(row, self.columns(options)):
                continue
            res = self._parse_row(row, start, scoring, early, (details or {}).get(row.match.key), issues)
            if res is not None:
                results.append(res)
        return results, issues

    def _parse_row(self, row: ResultRow, start: int, scoring: str, early: bool,
                   hands: list[Any] | None, issues: list[Issue]) -> MatchResult | None:
        """One table's row: the totals sum to 3 × start_points (zero-sum, R2020-D3, R2011-D1),
        their changes are congruent mod 3 (:func:`changes_possible`, R2020-D3, R2011-D1),
        they agree with the 牌局明细 when there is one (which also says the right totals),
        then the places (R2020-D2, R2011-D2).  A row with a 弃权 is read by :meth:`_forfeit_row`."""
        r = RowReader(row, issues)
        n = len(row.match.sides)
        labels = SCORE_LABELS[:n]
        absent_txt = r.choice(ABSENT_LABEL, ABSENT_CHOICES, aliases=SEAT_ALIASES, blank_as="")
        playoff = r.choice(PLAYOFF, ("无",) + SEAT_NAMES, aliases=SEAT_ALIASES, blank_as="无")
        if not r.ok or absent_txt is None or playoff is None:
            return None
        absent = {SEAT_NAMES.index(c) for c in absent_txt}
        if any(i >= n for i in absent):
            r.bad(ABSENT_LABEL, f"“{ABSENT_LABEL}”填的是 \"{absent_txt}\"，但本桌只有 {n} 位选手：请改正")
            return None
        present = [i for i in range(n) if i not in absent]
        if absent:
            return self._forfeit_row(r, row, labels, present, absent, playoff, start)
        # a missing cell and a cell that is no number (3:1) are said in the same pass:
        # ``integer`` says a blank one as missing
        pts = [r.integer(l, unit=POINTS_UNIT) for l in labels]
        if not r.ok:
            return None
        values = [p for p in pts if p is not None]
        if sum(values) != start * n:
            expect = f"{start * n}（每人基础分 {start}）" if start else "0"
            shown_vals = "、".join(f"{l} {v}" for l, v in zip(labels, values))
            r.bad(labels[0], f"三家得分 {shown_vals} 合计为 {sum(values)}，斗地主每局零和，合计应为 {expect}："
                             "请核对各家得分")
            return None
        # (not while the runner reads as versions before this check did: AS_ACCEPTED_BEFORE)
        impossible = n == 3 and not changes_possible(values, start) and not AS_ACCEPTED_BEFORE.get()
        if hands:
            before = len(issues)
            if not self._check_details(row, hands, start, scoring, early, values, issues):
                # totals the 牌局明细 recomputes are said as TOTAL_MISMATCH with the right
                # values; a 明细 that cannot be read still leaves the totals' own problem
                if impossible and not any(i.code == "TOTAL_MISMATCH" for i in issues[before:]):
                    self._impossible(r, labels, values, start)
                return None
        elif impossible:
            self._impossible(r, labels, values, start)
            return None
        return self._ranked(r, row, values, playoff, issues)

    @staticmethod
    def _impossible(r: RowReader, labels: Sequence[str], values: Sequence[int], start: int) -> None:
        """RESULT_INVALID for zero-sum totals no set of hands gives (R2020-D3, R2011-D1:
        :func:`changes_possible`), at the row's first score cell, naming all three."""
        changes = "、".join(f"{v - start:+d}" for v in values)
        typed = "、".join(f"“{l}”{v}" for l, v in zip(labels, values))
        base = f"（各减去基础分 {start}）" if start else ""
        r.bad(labels[0], f"{typed}：甲、乙、丙三人的得分变化{base}（{changes}）不可能出现：每一局地主得失是每位"
                         "农民的两倍，三人的得分变化除以 3 的余数必须相同；请按记分表核对"
                         f"{'、'.join(f'“{l}”' for l in labels)}后改正")

    def _ranked(self, r: RowReader, row: ResultRow, values: list[int], playoff: str,
                issues: list[Issue], absent: set[int] = frozenset()) -> MatchResult | None:  # type: ignore[assignment]
        n = len(values)
        present = [i for i in range(n) if i not in absent]
        base = places([values[i] if i in present else -10 ** 9 for i in range(n)])
        top = [i for i in present if base[i] == 1]
        pl = list(base)
        reason = "按积分排名"
        if playoff != "无":
            pw = SEAT_NAMES.index(playoff)
            if pw >= n or pw not in top:
                r.bad(PLAYOFF, f"“{PLAYOFF}”填的是 \"{playoff}\"，但{playoff}不是并列最高分的选手：只有最高分相同时才需加赛，"
                               "请改正或留空")
                return None
            if len(top) > 1:
                for i in top:
                    pl[i] = 1 if i == pw else 2
                reason = f"最高分相同，加赛{playoff}胜"
            else:
                # R2011-D2: a 加赛 settles an equal highest score only.  The sole leader named
                # is the result the points give: kept, with a warning to clear the cell
                issues.append(issue("RESULT_INVALID", (
                    f"{where(row.match)}：“{PLAYOFF}”填的是 \"{playoff}\"，但最高分只有{playoff}一人"
                    f"（{values[pw]} 分），没有并列，不需要加赛：本桌按得分排名，{playoff}第一；请清空“{PLAYOFF}”"
                    "（如确有加赛，请核对各家得分）"), at=row.at(PLAYOFF), severity=Severity.WARNING))
        elif len(top) > 1:
            names = "、".join(SEAT_NAMES[i] for i in top)
            issues.append(issue("PLAYOFF_REQUIRED", (
                f"{where(row.match)}：{names} 最高分同为 {values[top[0]]}，需加赛一局决出第一：请在“{PLAYOFF}”中"
                "选择加赛胜者"), at=row.at(PLAYOFF)))
            return None
        sides = []
        for i in range(n):
            if i in absent:
                sides.append(SideResult(Outcome.FORFEIT_LOSS, values[i], values[i], pl[i]))
            elif pl[i] == 1:
                won = Outcome.FORFEIT_WIN if len(present) == 1 else Outcome.WIN
                sides.append(SideResult(won, values[i], values[i], 1))
            else:
                sides.append(SideResult(Outcome.LOSS, values[i], values[i], pl[i]))
        return MatchResult(row.match, tuple(sides), reason=reason, source=row.at(SCORE_LABELS[0]),
                           detail={"table_points": tuple(values)})

    def _forfeit_row(self, r: RowReader, row: ResultRow, labels: Sequence[str], present: list[int],
                     absent: set[int], playoff: str, start: int = 0) -> MatchResult | None:
        """Absent seats place last (R2011-R1: late by more than 15 minutes is a forfeit); the
        others rank by the points entered.

        Two players present still decide the table between them (R2020-D2, R2011-D2: the
        highest score advances, an equal highest goes to a 加赛), so:

        - both their scores are required.  A blank is not 0: read as 0 the two were level and
          the table went straight to a 加赛 (PLAYOFF_REQUIRED) that nobody had asked for; the
          blank cells are RESULT_INVALID, “请填写在场两人的得分”.  Two who played no hand write
          their base points (0; 10 under R2011-D1) and choose the 加赛胜者;
        - their scores follow the rule of a full table: every hand is zero-sum (R2020-D3,
          R2011-D1), so the two sum to 0, or to 2 × start_points when each starts with
          base points (R2011-D1: 10).  5 and 2 were accepted and drew round 2.

        One player present plays nothing and wins by forfeit: a blank score reads as 0 (as
        before).  An absent seat's score must be blank or 0.
        """
        values = []
        missing = [labels[i] for i in present if r.blank(labels[i])] if len(present) > 1 else []
        for i, l in enumerate(labels):
            v = 0 if i in absent or r.blank(l) else r.integer(l, unit=POINTS_UNIT)
            values.append(v if v is not None else 0)
            if i in absent and not r.blank(l) and to_int(r.raw(l), POINTS_UNIT) != 0:
                # a score for a seat marked absent: it was dropped without a word (and the two
                # others, level at 0, were sent to a 加赛)
                r.bad(l, f"“{l}”填了 {shown(r.raw(l))}，但这一座位选了弃权，两者矛盾：确实到场比赛的，"
                         f"请清空“{ABSENT_LABEL}”；确为弃权的，请清空这一格")
        who = "、".join(SEAT_NAMES[i] for i in present)
        expect = f"{start * len(present)}（每人基础分 {start}）" if start else "0"
        gone = "、".join(SEAT_NAMES[i] for i in sorted(absent))
        for l in missing:
            r.bad(l, f"“{l}”未填写：{gone}弃权，在场的{who}两人仍按得分决出本桌名次，空着不能当作 0 分："
                     f"请填写在场两人的得分（两人合计应为 {expect}）；两人未对局的，请各填 {start} 分并在“{PLAYOFF}”中选择胜者")
        if r.ok and len(present) > 1 and sum(values[i] for i in present) != start * len(present):
            said = "、".join(f"{labels[i]} {values[i]}" for i in present)
            r.bad(labels[present[0]], f"在场两人的得分 {said} 合计为 {sum(values[i] for i in present)}，"
                                      f"斗地主每局零和，{gone}弃权时在场两人合计应为 {expect}：请核对"
                                      f"{'、'.join(f'“{labels[i]}”' for i in present)}")
        if not r.ok:
            return None
        if not present:
            sides = tuple(SideResult(Outcome.ABSENT, 0, 0, None) for _ in labels)
            return MatchResult(row.match, sides, reason="全部弃权", source=row.at(ABSENT_LABEL))
        res = self._ranked(r, row, values, playoff, r.issues, absent)
        if res is None:
            return None
        return MatchResult(res.match, res.sides, reason="弃权", source=row.at(ABSENT_LABEL), detail=res.detail)

    def values_from_details(self, row: ResultRow, items: list[Any], options: dict[str, Any],
                            issues: list[Issue]) -> dict[str, int] | None:
        """The 甲得分 乙得分 丙得分 of a table computed from its 牌局明细 (R2020-D3 / R2011-D1,
        D2), for a row whose totals were left blank; None (with issues) on a bad hand."""
        start, scoring, early = _options(options)
        totals = self._detail_totals(row, items, start, scoring, early, issues)
        if totals is None:
            return None
        return dict(zip(SCORE_LABELS, totals))

    def _check_details(self, row: ResultRow, items: list[Any], start: int, scoring: str, early: bool,
                       entered: list[int], issues: list[Issue]) -> bool:
        """Recompute the totals from 牌局明细 (R2020-D3 / R2011-D1, D2); False on any problem."""
        totals = self._detail_totals(row, items, start, scoring, early, issues)
        if totals is None:
            return False
        good = True
        for label, e, c in zip(SCORE_LABELS, entered, totals):
            if e != c:
                good = False
                issues.append(issue("TOTAL_MISMATCH", (
                    f"{where(row.match)}：“{label}”填的是 \"{e}\"，按牌局明细逐局计算应为 \"{c}\"：请核对明细或改正得分"),
                    at=row.at(label)))
        return good

    def _detail_totals(self, row: ResultRow, items: list[Any], start: int, scoring: str, early: bool,
                       issues: list[Issue]) -> list[int] | None:
        """The table's totals after its 牌局明细's hands; None (with issues) on any problem."""
        hands: list[DdzHand] = []
        readers: list[DetailReader] = []
        ok = True
        for drow in detail_rows(items):
            if all(is_blank(drow.values.get(k)) for k in (D_LANDLORD, D_BID, D_BOMBS, D_SPRING, D_ANTI, D_WON)):  # 局号 is pre-numbered
                continue
            d = DetailReader(drow, row.match, issues, D_HAND)
            landlord = d.choice(D_LANDLORD, SEAT_NAMES, aliases=SEAT_ALIASES)
            # (叫“1分”、“2分”、“3分”, R2011-D1: 分 after the bid is the bid)
            bid = (d.integer(D_BID, 1, 3, unit=POINTS_UNIT) if scoring == "R2011" else
                   d.integer(D_BID, 1, 1, blank_as=1, hint="（底分固定为 1）", unit=POINTS_UNIT))
            bombs = d.integer(D_BOMBS, 0, MAX_BOMBS, blank_as=0)
            spring = d.choice(D_SPRING, YES_NO, aliases=YES_NO_ALIASES, blank_as="否")
            anti = d.choice(D_ANTI, YES_NO, aliases=YES_NO_ALIASES, blank_as="否")
            won = d.choice(D_WON, YES_NO, aliases=YES_NO_ALIASES)
            if not d.ok or None in (landlord, bid, bombs, spring, anti, won):
                ok = False
                continue
            if spring == "是" and won == "否":
                d.bad(D_SPRING, "春天是地主获胜的情形，但“地主胜”为 \"否\"：请改正“春天”或“地主胜”")
            elif anti == "是" and won == "是":
                d.bad(D_ANTI, "反春天是地主失败的情形，但“地主胜”为 \"是\"：请改正“反春天”或“地主胜”")
            elif SEAT_NAMES.index(landlord) >= len(row.match.sides):  # type: ignore[arg-type]
                d.bad(D_LANDLORD, f"地主 \"{landlord}\" 不在本桌：请改正")
            if not d.ok:
                ok = False
                continue
            hands.append(DdzHand(SEAT_NAMES.index(landlord), won == "是", bid, bombs,  # type: ignore[arg-type]
                                 spring == "是", anti == "是"))
            readers.append(d)
        if not ok or not hands:
            return None
        totals, late = table_totals(hands, start, early)
        if late is not None:
            readers[late].bad(D_HAND, f"第 {late} 局后已有选手积分 ≤ 0，按规则本桌比赛应已结束（R2011-D2）："
                                      "请删除之后的牌局或核对记录")
            return None
        return list(totals)[:len(row.match.sides)]


DOUDIZHU = Doudizhu()
GAMES.register("doudizhu", "斗地主", "鬥地主")(DOUDIZHU)
