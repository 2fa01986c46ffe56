"""掼蛋 Guandan (T2016): R2016-F4 winner at time, R2016-S1 round score, R2016-C1 level-up.

Columns 甲方级数, 乙方级数 (2..A), 过A方 (无/甲/乙), 台上方 (甲/乙).  The winner is the side
that passed A, else the higher level, else the side on stage (台上).  The round score
by level difference d (A = 14, a side past A 15: :func:`level_difference`; d > 12 counts 12):
winner 52 + 4d, loser 48 − 4d; the two always sum to 100.  points = score = the round score (the standings sum them).

A forfeit gives the present side ``forfeit_win`` (default 52, a bare win) and the absent
side ``forfeit_loss`` (default 0); the event's points may change both.

Detail sheet 明细 (optional, one row per deal): 头游方 (the side whose player finished
first) and 头游对家名次 (where that player's partner finished: 二游/三游/末游).  Both sides'
levels are replayed from 2:2 with R2016-C1 (+3/+2/+1, never past A) and compared with the
entered 甲方级数/乙方级数 and 过A方; a difference is ``TOTAL_MISMATCH`` at the entered cell.
A deal is played at the level of the side that finished first in the deal before (掼蛋: 打上游方
的级牌; the first deal at 2, both sides' level).  R2016-C1 "three failed attempts at A → back
to 2" is read as Guandan is commonly played: an attempt at A is a deal played at the side's A
(:func:`play_deal`) — it passes A (wins the game) when that side finishes first with an
opponent last (二游 or 三游), and fails otherwise, the opponents finishing first included; a
deal played at the opponents' level is no attempt (a side at A finishing first there only
takes the stage: the next deal is played at its A).  A deal written after a side passed A
(过A不再打) is ``RESULT_INVALID`` at its 头游方 cell.  台上方 stays as typed (the 明细 does not
say which deal was under way when time was called); at equal levels it is asked for with the
table's 明细 rows named, and a typed 台上方 that neither the last deal's level nor the next one's
can be (the last two deals' 头游 both the other side's) is ``TOTAL_MISMATCH`` at it.  A 弃权
beside deals on the 明细 is ``RESULT_INVALID`` at the 弃权 cell, the table unscored (R2016-F4: a
forfeit is a table not played).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection, NamedTuple, Sequence

from ..issues import Issue, issue
from ..model import MatchResult, Round
from . import GAMES
from .base import DetailSheet, NoticeTable, ResultColumn, ResultRow
from .common import (detail_rows, detail_rows_text, DetailReader, forfeit_column, is_blank, LEVEL_A, level_name,
                     LEVEL_NAMES, merged_points, played_rows, RowReader, two_sided, where)

#: the 级差计分表's level differences in the seed's words (R2016-S1): 台上台下 (equal level, the
#: side on stage wins), then 一级 … 十二级
_DIFF_WORDS = ("一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二")

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

# detail sheet (明细)
DETAIL_SHEET = "明细"
D_DEAL = "局号"
D_FIRST = "头游方"
D_PARTNER = "头游对家名次"
#: the place of the first finisher's partner (R2016-C1): 2nd, 3rd or last (4th)
PARTNER_PLACES = ("二游", "三游", "末游")
PLACE_OF = {"二游": 2, "三游": 3, "末游": 4}
PLACE_ALIASES = {alias: name for n, cn, name in ((2, "二", "二游"), (3, "三", "三游"), (4, "四", "末游"))
                 for alias in (str(n), cn, f"{n}游", f"{cn}游", f"第{n}名", f"第{cn}名", f"第{n}", f"第{cn}")}
PLACE_ALIASES.update({"下游": "末游", "尾游": "末游"})


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


def level_difference(a_level: int, b_level: int, past_a: int | None) -> int:
    """R2016-S1: the level difference d the round score is read with.  The side that passed A
    (``past_a``: 0 = 甲, 1 = 乙) counts one level above A (15) — the spec and the seed (“过A不再
    打”) do not say; decided as 双扣's 总局分 (handbook: 先过A的一方比 A 再高一级), so passing A
    always beats an equal-level win at A (56:44, not 52:48).

    >>> level_difference(14, 14, 0), level_difference(13, 14, 1), level_difference(12, 8, None)
    (1, 2, 4)
    """
    levels = [a_level, b_level]
    if past_a is not None:
        levels[past_a] = LEVEL_A + 1
    return abs(levels[0] - levels[1])


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


@dataclass(frozen=True)
class Deal:
    """One deal of the 明细: the side whose player finished first (0 = 甲, 1 = 乙) and the
    place (2, 3 or 4) of that player's partner (R2016-C1)."""

    first: int
    partner_place: int


def play_deal(sides: tuple[DealStep, DealStep], deal: Deal, on_stage: int | None = None
              ) -> tuple[DealStep, DealStep]:
    """R2016-C1: both sides' states after one deal played at the level of side ``on_stage``
    (0 = 甲, 1 = 乙: the side that finished first in the deal before; None when not known —
    a game's first deal, at 2).  The first finisher's side moves up (:func:`level_up`).  A deal
    played at a side's A is its attempt at A: it passes with an opponent last, and fails with
    its partner last or when the opponents finish first (:func:`failed_attempt_at_a`, the third
    failure → 2).  A side at A finishing first in a deal played at the opponents' level stays
    at A (no attempt; the next deal is played at its A).  ``on_stage`` None reads every deal a
    side at A finishes first in as its attempt (the opponents' deals counting no failure).
    A deal after a side has passed A is a ValueError (过A不再打).

    >>> play_deal((DealStep(2), DealStep(14)), Deal(1, 3), on_stage=1)[1].passed_a
    True
    >>> play_deal((DealStep(2), DealStep(14)), Deal(1, 3), on_stage=0)
    (DealStep(level=2, passed_a=False, failed_at_a=0), DealStep(level=14, passed_a=False, failed_at_a=0))
    >>> play_deal((DealStep(5), DealStep(14, failed_at_a=1)), Deal(0, 2), on_stage=1)
    (DealStep(level=8, passed_a=False, failed_at_a=0), DealStep(level=14, passed_a=False, failed_at_a=2))
    """
    if any(s.passed_a for s in sides):
        raise ValueError("a side has passed A: the game is over")
    moved = list(sides)
    side = sides[deal.first]
    if side.level == LEVEL_A and on_stage is not None and on_stage != deal.first:
        moved[deal.first] = side             # at A, won at the opponents' level: takes the stage only
    else:
        moved[deal.first] = level_up(side.level, deal.partner_place, side.failed_at_a)
    other = 1 - deal.first
    if on_stage == other and sides[other].level == LEVEL_A:
        moved[other] = failed_attempt_at_a(sides[other].failed_at_a)     # its A deal, the opponents first
    return moved[0], moved[1]


def replay(deals: Sequence[Deal]) -> tuple[DealStep, DealStep]:
    """R2016-C1: both sides' states after every deal, both starting at 2, each deal played at
    the level of the side that finished first in the one before (:func:`play_deal`).

    >>> replay([Deal(0, 2), Deal(0, 2), Deal(0, 2), Deal(0, 2)])[0]
    DealStep(level=14, passed_a=False, failed_at_a=0)
    >>> [s.level for s in replay([Deal(0, 2)] * 4 + [Deal(0, 4)] * 3 + [Deal(1, 3)])]
    [2, 4]
    >>> [s.level for s in replay([Deal(0, 2)] * 4 + [Deal(1, 2), Deal(0, 4)] * 2 + [Deal(1, 2)])]
    [2, 11]
    """
    sides = (DealStep(2), DealStep(2))
    on_stage = None
    for d in deals:
        sides = play_deal(sides, d, on_stage)
        on_stage = d.first
    return sides


# -- the game -----------------------------------------------------------------------------
@dataclass
class Guandan:
    """掼蛋 (R2016-F4, S1): round score 52+4d : 48−4d."""

    id: str = "guandan"
    title: str = "掼蛋"
    seats: int = 2
    #: players on each side of a table: a fixed partnership (an event's team_size is this)
    side_size: int = 2
    #: the result cells its detail sheet does not tell, typed beside it: a row with nothing
    #: else filled still has its levels computed from its 明细 (EventRunner.totals_from_details) —
    #: with 台上方 typed as asked, the levels were asked for next and the round waited
    detail_kept: tuple[str, ...] = (ON_STAGE,)
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
        and the round score by level difference (R2016-S1, the round's points), with how a 过A
        table is read against the 级差计分表 — the side past A one level above A
        (:func:`level_difference`, handbook 掼蛋): the notice said only 过A不再打, and a referee
        scoring by hand took a 过A at A against A for 台上台下 (52:48, the program 56:44).  What a
        bye scores is :meth:`notice_bye`'s, said only where the format scores one."""
        at_a, at_k = level_difference(LEVEL_A, LEVEL_A, 0), level_difference(LEVEL_A, LEVEL_A - 1, 0)
        return ["过A不再打；裁判宣布时间到，已开打的牌可以打完，级数领先者为胜方，双方级数相同，以台上者为胜方",
                # the score itself is the 级差计分表 printed under this line (notice_tables)
                "根据每局比赛结束后双方的结果，按级差计分（见下表）",
                f"一方过A时，过A方按比A高一级计算级差（对方在{LEVEL_NAMES[LEVEL_A]}为{_DIFF_WORDS[at_a - 1]}级，"
                f"对方在{LEVEL_NAMES[LEVEL_A - 1]}为{_DIFF_WORDS[at_k - 1]}级）"]

    def notice_bye(self, points: dict[str, int]) -> str:
        """R2016-F3, R2016-S1: what a bye scores, a rule of its own (总积分 counts it: said, not
        left to the table) — printed after the rules of play only where the event's format
        scores a bye (:func:`pipeline.draw.byes_scored`: 分组积分编排, Swiss), not for a round
        robin's rest or a knockout's 晋级签, which score nothing."""
        bye = points.get("bye", BASE_WIN)
        return f"队数为奇数时，轮空的一队本轮计{bye}分" + ("（同级胜方的得分）" if bye == BASE_WIN else "")

    def notice_tables(self, options: dict[str, Any], points: dict[str, int]) -> list[NoticeTable]:
        """R2016-S1: the seed's 级差计分表 — 比赛结果 | 台上台下 | 一级 … 十二级, the winner's and
        the loser's round score at each level difference, from :func:`round_score` (what
        :meth:`parse_round` scores), printed under the notice's 比赛办法 (附件2 rule 2 points to it)."""
        diffs = range(MAX_DIFF + 1)
        scores = [round_score(d) for d in diffs]
        head = ("比赛结果", "台上\n台下", *(f"{_DIFF_WORDS[d - 1]}级" for d in diffs if d))
        return [NoticeTable("级差计分表", head, (("胜方得分", *(str(w) for w, _ in scores)),
                                                 ("负方得分", *(str(l) for _, l in scores))))]

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
        """The optional deal-by-deal sheet 明细 (R2016-C1): who finished first, and where the
        partner finished."""
        return DetailSheet(DETAIL_SHEET, (
            ResultColumn(D_DEAL, "int", min=1, help="第几副牌"),
            ResultColumn(D_FIRST, "choice", SIDES, help="本副牌最先出完牌（头游）的选手所在方（甲/乙）"),
            ResultColumn(D_PARTNER, "choice", PARTNER_PLACES,
                         help="头游的对家第几个出完：二游（双下，升3级）、三游（升2级）、末游（升1级）；"
                              "打本方A时本方头游、对家为二游或三游才算过A，对家末游或对方头游为打A未过（三次未过回到2）"),
        ))

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """R2016-F4/S1 results; points = score = round score.  With a 明细 for the table its
        levels and 过A方 are checked against the R2016-C1 replay."""
        pts = merged_points(self.default_points, points)
        results: list[MatchResult] = []
        issues: list[Issue] = []
        for row, r in played_rows(rows, self.columns(options), issues, results, pts,
                                  win_score=pts["forfeit_win"], source=A_LEVEL,
                                  details=details, deal_labels=(D_FIRST, D_PARTNER)):
            if not r.require([A_LEVEL, B_LEVEL]):
                continue
            a = r.level(A_LEVEL, past_a_column=PAST_A_SIDE)
            b = r.level(B_LEVEL, past_a_column=PAST_A_SIDE)
            pa = r.choice(PAST_A_SIDE, ("无", "甲", "乙"), aliases=SIDE_ALIASES, blank_as="无")
            stage = r.choice(ON_STAGE, SIDES, aliases=SIDE_ALIASES, blank_as="")
            if not r.ok or a is None or b is None or pa is None or stage is None:
                continue
            past = None if pa == "无" else SIDES.index(pa)
            if past is None and not stage and a == b:
                # R2016-F4: the side on stage decides only equal levels (Q:8 with 台上方 blank was refused)
                if r.deals:
                    _ask_on_stage(r, a)
                else:
                    r.require([ON_STAGE])
                continue
            if past is not None and (a, b)[past] != LEVEL_A:
                r.bad(PAST_A_SIDE, f"“{PAST_A_SIDE}”为 \"{pa}\"，但{pa}方级数是 \"{level_name((a, b)[past])}\"："
                                   "过A的一方级数应填 A，请改正")
                continue
            deals = (details or {}).get(row.match.key)
            if _filled(deals) and not self._details_agree(row, deals, (a, b), past, pa, issues, stage):
                continue
            winner = winner_at_time(a, b, past, SIDES.index(stage) if stage else 0)
            d = level_difference(a, b, past)
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

    def values_from_details(self, row: ResultRow, items: list[dict[str, Any]], options: dict[str, Any],
                            issues: list[Issue]) -> dict[str, str] | None:
        """The 甲方级数 乙方级数 (and 过A方) of a table replayed from its 明细 (R2016-C1), for a
        row whose result cells were left blank; None (with issues) on a bad deal.  台上方 stays
        as typed: at equal levels the referee says who was on stage when time was called."""
        replayed = self._replay_details(row, items, issues) if _filled(items) else None
        if replayed is None:
            return None
        sides, passed_at = replayed.sides, replayed.passed_at
        values = {A_LEVEL: level_name(sides[0].level), B_LEVEL: level_name(sides[1].level)}
        if passed_at is not None:
            values[PAST_A_SIDE] = SIDES[passed_at[0]]
        return values

    def _details_agree(self, row: ResultRow, items: list[dict[str, Any]], entered: tuple[int, int],
                       past: int | None, past_typed: str, issues: list[Issue], stage: str = "") -> bool:
        """Replay the 明细 of one table (R2016-C1) and compare it with the entered levels and
        过A方: False (with issues) on a bad deal or a difference (``TOTAL_MISMATCH`` at each
        entered cell that differs).  At equal levels the typed 台上方 ``stage`` is checked too
        (:func:`_on_stage_contradicted`)."""
        replayed = self._replay_details(row, items, issues)
        if replayed is None:
            return False
        sides, passed_at, reset_at = replayed.sides, replayed.passed_at, replayed.reset_at
        agree = True
        for i, label in enumerate((A_LEVEL, B_LEVEL)):
            want = sides[i].level
            if entered[i] == want:
                continue
            agree = False
            hint = (f"（{SIDES[i]}方在明细第 {passed_at[1]} 局过A）" if passed_at and passed_at[0] == i else
                    f"（{SIDES[i]}方在明细第 {reset_at[i]} 局打A第{FAILED_A_LIMIT}次未过，回到 2）"
                    if reset_at[i] and want < LEVEL_A else "")
            issues.append(issue("TOTAL_MISMATCH", (
                f"{where(row.match)}：“{label}”填的是 \"{level_name(entered[i])}\"，按明细逐局计算应为 "
                f"\"{level_name(want)}\"{hint}：请核对明细或改正级数"), at=row.at(label)))
        want_past = passed_at[0] if passed_at else None
        if past != want_past:
            agree = False
            said = "未填" if is_blank(row.values.get(PAST_A_SIDE)) else f"填的是 \"{past_typed}\""
            why = (f"按明细逐局计算{SIDES[want_past]}方在第 {passed_at[1]} 局过A（应选“{SIDES[want_past]}”）"
                   if passed_at else "按明细逐局计算没有一方过A（应为“无”或留空）")
            issues.append(issue("TOTAL_MISMATCH", f"{where(row.match)}：“{PAST_A_SIDE}”{said}，{why}："
                                                  f"请核对明细或改正“{PAST_A_SIDE}”", at=row.at(PAST_A_SIDE)))
        if agree and past is None and entered[0] == entered[1] and stage:
            said_stage = _on_stage_contradicted(stage, replayed.firsts, entered[0])
            if said_stage:
                agree = False
                issues.append(issue("TOTAL_MISMATCH", f"{where(row.match)}：{said_stage}", at=row.at(ON_STAGE)))
        return agree

    @staticmethod
    def _replay_details(row: ResultRow, items: list[dict[str, Any]], issues: list[Issue]) -> _Replayed | None:
        """Both sides' states after the table's 明细 rows (R2016-C1, each deal played at the
        level of the side first in the deal before: :func:`play_deal`), with (side, deal
        number) of the pass of A (None when no side passed), per side the deal number of its
        latest fall back to 2 ("" when none), and each deal's (头游方, deal number); None (with
        issues) when a deal is bad or comes after a pass of A (the first such deal is reported)."""
        sides = (DealStep(2), DealStep(2))
        ok = True
        passed_at: tuple[int, str] | None = None
        after_pass_reported = False
        reset_at = ["", ""]
        firsts: list[tuple[int, str]] = []
        on_stage: int | None = None         # whose level the next deal is played at
        for drow in detail_rows(items):
            if _blank_deal(drow.values):
                continue
            r = DetailReader(drow, row.match, issues, D_DEAL)
            deal = _read_deal(r)
            if deal is None:
                ok = False
                on_stage = None             # (whose level the next deal was played at is not known)
                continue
            if passed_at is not None:
                if not after_pass_reported:
                    side, n = SIDES[passed_at[0]], passed_at[1]
                    r.bad(D_FIRST, f"{side}方已在第 {n} 局过A，本桌比赛已结束（过A不再打），不应再有这一局："
                                   f"请核对第 {n} 局的记录，或删去此后各局")
                    after_pass_reported = True
                ok = False
                continue
            before = sides
            sides = play_deal(sides, deal, on_stage)
            on_stage = deal.first
            firsts.append((deal.first, r.hand))
            if sides[deal.first].passed_a:
                passed_at = (deal.first, r.hand)
            for i in (0, 1):
                if before[i].level == LEVEL_A and sides[i].level == 2:
                    reset_at[i] = r.hand
        return _Replayed(sides, passed_at, reset_at, firsts) if ok else None


class _Replayed(NamedTuple):
    """A table's 明细 replayed (:meth:`Guandan._replay_details`)."""

    sides: tuple[DealStep, DealStep]
    passed_at: tuple[int, str] | None           # (side, deal number) of the pass of A
    reset_at: list[str]                         # per side, the deal of its latest fall back to 2
    firsts: list[tuple[int, str]]               # each deal's (头游方, deal number)


def _on_stage_contradicted(stage: str, firsts: Sequence[tuple[int, str]], level: int) -> str:
    """R2016-F4 at equal levels: what is wrong with the typed 台上方 ``stage`` by the 明细
    ("" when nothing).  When time is called the deal under way is finished, so the side on
    stage was the side whose level the last deal was played at (the 头游方 of the deal before)
    or, time having come between deals, the side the next deal would be played at (the last
    deal's 头游方): the 明细 does not say which.  Only when both are the same side is a typed
    other side a contradiction — said, not silently chosen.

    >>> _on_stage_contradicted("乙", [(1, "1"), (0, "2"), (0, "3")], 5)[:20]
    '“台上方”填的是 "乙"，但明细最后两局'
    >>> _on_stage_contradicted("甲", [(1, "1"), (0, "2"), (0, "3")], 5), _on_stage_contradicted("乙", [(1, "1"), (0, "2")], 5)
    ('', '')
    """
    if len(firsts) < 2 or firsts[-1][0] != firsts[-2][0] or SIDES[firsts[-1][0]] == stage:
        return ""
    side = SIDES[firsts[-1][0]]
    return (f"“{ON_STAGE}”填的是 \"{stage}\"，但明细最后两局（第 {firsts[-2][1]}、{firsts[-1][1]} 局）都是{side}方头游："
            f"最后一局打的是{side}方的级数，下一局也是，时间到时在台上的是{side}方（双方同为 \"{level_name(level)}\" 级，"
            f"由台上方定胜负）：请核对明细或改正“{ON_STAGE}”")


def _blank_deal(values: dict[str, Any]) -> bool:
    """A 明细 row with nothing but its keys and 局号 (pre-numbered by the writer): no deal."""
    return all(is_blank(values.get(k)) for k in (D_FIRST, D_PARTNER))


def _filled(items: Sequence[Any] | None) -> bool:
    """Whether a table has a deal on the 明细: without one its levels stand as typed."""
    return any(not _blank_deal(d.values) for d in detail_rows(items or ()))


def _ask_on_stage(r: RowReader, level: int) -> None:
    """R2016-F4: equal levels with 台上方 blank on a table whose 明细 holds its deals (the
    levels typed or replayed from them).  Said at the 台上方 cell with the 明细 rows: a row
    whose levels came from the 明细 was told "这一行已填了部分成绩…或把整行清空（表示未赛）",
    though the 成绩 row was blank and clearing it changed nothing."""
    rows = detail_rows_text(r.deals)
    r.bad(ON_STAGE, f"“{ON_STAGE}”未填写：双方同为 \"{level_name(level)}\" 级（这一桌在{rows}记有 "
                    f"{len(r.deals)} 局，比赛进行了），同级时由台上方定胜负：请在本行“{ON_STAGE}”选甲或乙"
                    f"（时间到时在台上、正在打自己级数的一方）；如这一桌确未比赛，请删去{rows}的记录（本行如已填了成绩，一并清空）")


def _read_deal(r: DetailReader) -> Deal | None:
    """One 明细 row as a :class:`Deal`; None (issues recorded) when a cell is bad or blank."""
    first = r.choice(D_FIRST, SIDES, aliases=SIDE_ALIASES)
    place = r.choice(D_PARTNER, PARTNER_PLACES, aliases=PLACE_ALIASES)
    if not r.ok or first is None or place is None:
        return None
    return Deal(SIDES.index(first), PLACE_OF[place])


GUANDAN = Guandan()
GAMES.register("guandan", "掼蛋", "摜蛋", "扑克牌", "扑克")(GUANDAN)
