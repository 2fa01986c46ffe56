"""双扣 Shuangkou (T2015; an upgrade game with two decks, pairs): R2015-C1…C4, R2015-P1.

Match (R2015-C4): 40 minutes; the side first past A wins, else the higher level, else the
side that won the last hand (末盘胜方).  Three warnings (R2015-P1 signalling) lose the match.
Match points: win 2 / loss 0 by default (the event may change them).  score = the
signed level difference (winner +d, loser −d; 过A counts 15), so scores sum to 0 and a
“net levels” tiebreak (总局分) reads them directly — except a match decided by three
warnings, which scores 0:0 as a forfeit does (the levels did not decide it).

Detail sheet 明细 (optional, one row per hand): the levels are replayed from 2:2 with
R2015-C1 (闲家得分 plus the R2015-C2 bottom bonus), R2015-P1 (−20 per penalty, by the
event's ``penalty_mode``; a wrong card count sends the opponents up one level) and
R2015-C3 (must-play stops), and compared with the entered 甲方级数/乙方级数 (先过A方 counts
as 过A); a difference is ``TOTAL_MISMATCH`` at the entered cell.  Each hand's 庄家方 must
follow the T2015 rotation (總則 7, the same rule as R2020-C3: the dealer side won → the
dealer's partner deals; it lost → the dealer's 下家, on the other side); the first hand
is free and the first hand that breaks it is ``RESULT_INVALID`` at its 庄家方 cell.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection, Literal, Sequence

from ..issues import Issue, issue
from ..model import MatchResult, Outcome, Round, SideResult
from . import GAMES
from .base import DetailSheet, ResultColumn, ResultRow
from .common import (DetailReader, detail_rows, forfeit_column, is_blank, LEVEL_A, level_name, LEVEL_NAMES,
                     merged_points, PAST_A, played_rows, POINTS_UNIT, points_text, states_points, two_sided, where)
from .shuangsheng import BOTTOM_HINT, card_points_problem, MAX_BOTTOM_POINTS, next_dealer_side, rotation_problem

A_LEVEL = "甲方级数"
B_LEVEL = "乙方级数"
PAST_A_SIDE = "先过A方"
LAST_HAND = "末盘胜方"
A_WARN = "甲方警告"
B_WARN = "乙方警告"
SIDES = ("甲", "乙")
SIDE_ALIASES = {"甲方": "甲", "乙方": "乙"}
WARNINGS_TO_LOSE = 3
#: the net levels (score, 总局分) of a match decided by a side's third warning: those of a
#: forfeit in this game (played_rows' ``win_score=0``), none either way — the levels at the
#: table did not decide it (the spec is silent; the office's decision, docs/handbook.md)
WARNINGS_SCORES = (0, 0)

#: R2015-C3 levels that must be played (2, 5, 10, K)
MUST_PLAY = (2, 5, 10, 13)
PENALTY = 20
PENALTY_MODES = ("defender_total", "none")
DEFAULT_PENALTY_MODE = "defender_total"

# detail sheet (明细)
DETAIL_SHEET = "明细"
D_HAND = "局号"
D_DEALER = "庄家方"
D_POINTS = "闲家得分"
D_BOTTOM_KIND = "扣底牌型"
D_PAIRS = "拖拉机对数"
D_BOTTOM = "底牌分"
D_WRONG = "多牌少牌方"
D_PENALISED = "罚分方"
D_PENALTIES = "罚分次数"
BOTTOM_KINDS = ("无", "单张", "对子", "拖拉机")
SIDE_OR_NONE = ("无", "甲", "乙")
#: two decks hold 200 card points (5/10/K); the bottom is 8 cards (T2015: two decks, 25
#: cards each, 8 in the bottom), at most 80 of them (shuangsheng.MAX_BOTTOM_POINTS)
MAX_CARD_POINTS = 200
MAX_PENALTIES = 20


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


@dataclass(frozen=True)
class Hand:
    """One hand of the detail sheet.  Sides are 0 = 甲, 1 = 乙."""

    dealer: int
    defender_points: int = 0
    bottom_kind: str = "无"
    tractor_pairs: int = 0
    bottom_points: int = 0
    wrong_count: int | None = None   # side holding too many / too few cards
    penalised: int | None = None     # side that got the −20 penalties (R2015-P1)
    penalties: int = 0


def below_zero(hand: Hand, mode: str = DEFAULT_PENALTY_MODE) -> tuple[int, int] | None:
    """R2015-P1 with R2015-C1: ``(points, total)`` of a hand whose defenders' penalties take
    their total below 0 under ``mode`` — the points before the penalties (闲家得分 and the
    bottom bonus) and the total below 0 — which :func:`hand_total` counts as 0 (大光: the
    dealer +4); None for any other hand.

    >>> below_zero(Hand(0, 10, penalised=1, penalties=1)), below_zero(Hand(0, 30, penalised=1))
    ((10, -10), None)
    """
    if mode != "defender_total" or hand.wrong_count is not None or hand.penalised is None \
            or hand.penalised == hand.dealer or not hand.penalties:
        return None
    points = hand.defender_points + bottom_bonus(hand.bottom_points, hand.bottom_kind, hand.tractor_pairs)
    total = points - PENALTY * hand.penalties
    return (points, total) if total < 0 else None


def hand_total(hand: Hand, mode: str = DEFAULT_PENALTY_MODE) -> int:
    """The defenders' total of one hand: 闲家得分 + bottom bonus (R2015-C2), then −20 per
    penalty against the offending side (R2015-P1, ``mode`` as in :func:`apply_penalties`).

    >>> hand_total(Hand(0, 40, "对子", bottom_points=10, penalised=1, penalties=1))
    60
    """
    total = hand.defender_points + bottom_bonus(hand.bottom_points, hand.bottom_kind, hand.tractor_pairs)
    if hand.penalised is None or not hand.penalties:
        return apply_penalties(total, mode=mode)
    if hand.penalised == hand.dealer:
        return apply_penalties(total, dealer_offences=hand.penalties, mode=mode)
    return apply_penalties(total, defender_offences=hand.penalties, mode=mode)


def play_detail_hand(levels: tuple[int, int], hand: Hand, mode: str = DEFAULT_PENALTY_MODE
                     ) -> tuple[tuple[int, int], int]:
    """Levels after one detail-sheet hand and the side that deals next (R2015-C1…C3, P1).

    A wrong card count replaces the hand's result: the opponents go up one level (R2015-P1)
    and deal next.

    >>> play_detail_hand((2, 2), Hand(0, 60, penalised=0, penalties=1))
    ((2, 2), 1)
    >>> play_detail_hand((4, 2), Hand(0, 0, wrong_count=0))
    ((4, 3), 1)
    """
    if hand.wrong_count is not None:
        side = 1 - hand.wrong_count
        lv = list(levels)
        lv[side] = level_up(lv[side], 1)
        return (lv[0], lv[1]), side
    return play_hand(levels, hand.dealer, hand_total(hand, mode))


def replay(hands: Sequence[Hand], mode: str = DEFAULT_PENALTY_MODE) -> tuple[int, int]:
    """Levels after every hand, both sides starting at 2 (R2015-C1…C3, P1).

    >>> replay([Hand(0, 0), Hand(0, 0)])
    (9, 2)
    """
    levels = (2, 2)
    for h in hands:
        levels, _ = play_detail_hand(levels, h, mode)
    return levels


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
    #: players on each side of a table: a fixed partnership (an event's team_size is this)
    side_size: int = 2
    #: the result cells its detail sheet does not tell, typed beside it: a row with nothing
    #: else filled still has its levels computed from its 明细 (EventRunner.totals_from_details)
    detail_kept: tuple[str, ...] = (LAST_HAND, A_WARN, B_WARN)
    default_points: dict[str, int] = field(default_factory=lambda: {
        "win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2, "forfeit_loss": 0})
    default_tiebreaks: tuple[str, ...] = ("direct", "wins", "game_points", "playoff")
    #: the game_options it reads (registries.check_game_options names a typo of one)
    option_keys: tuple[str, ...] = ("penalty_mode",)

    def check_options(self, options: dict[str, Any]) -> None:
        """ValueError for a penalty_mode it does not know (R2015-P1)."""
        penalty_mode(options)

    def notice_rules(self, options: dict[str, Any], points: dict[str, int],
                     stated: Collection[str] = ()) -> list[str]:
        """The notice's rules of play in the T2015 rules' words (R2015-C4: who wins the
        round), after the event's points when its spec sets them (a match has no draw)."""
        own = [points_text(merged_points(self.default_points, points), draw=False)] if states_points(stated) else []
        return own + ["最先打过A的队或级数高的队获胜；如时间到比赛双方级数相同，则依据最后一盘比赛的盘面分数判定胜负"]

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
        """The optional hand-by-hand sheet 明细 (R2015-C1…C3, P1)."""
        return DetailSheet(DETAIL_SHEET, (
            ResultColumn(D_HAND, "int", min=1, help="第几局（盘）"),
            ResultColumn(D_DEALER, "choice", SIDES,
                         help="本局庄家所在方；首局自定，此后庄家获胜仍由该方坐庄，庄家下庄则换另一方坐庄"),
            ResultColumn(D_POINTS, "int", min=0, max=MAX_CARD_POINTS, unit=POINTS_UNIT,
                         help="闲家出牌所得分（5 的倍数，不含扣底，未扣罚分）"),
            ResultColumn(D_BOTTOM_KIND, "choice", BOTTOM_KINDS, required=False,
                         help="闲家最后一轮大时的牌型；庄家最后一轮大选“无”"),
            ResultColumn(D_PAIRS, "int", min=2, max=12, required=False, help="拖拉机（姊妹对）扣底时的对数"),
            ResultColumn(D_BOTTOM, "int", min=0, max=MAX_BOTTOM_POINTS, required=False, unit=POINTS_UNIT,
                         help="底牌中的分（5 的倍数，最多 80，不乘扣底倍数）"),
            ResultColumn(D_WRONG, "choice", SIDE_OR_NONE, required=False, help="多牌或少牌的一方（对方升一级）"),
            ResultColumn(D_PENALISED, "choice", SIDE_OR_NONE, required=False,
                         help="本局被罚 20 分的一方（暗号、偷看、抢出、甩牌失败、超时等）"),
            ResultColumn(D_PENALTIES, "int", min=0, max=MAX_PENALTIES, required=False,
                         help="该方本局被罚的次数（每次 20 分；不填按 1 次）"),
        ))

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """R2015-C4 results: winner by 3 warnings, 过A, level, last hand; with a detail sheet the
        levels are checked against the replay (R2015-C1…C3, P1)."""
        pts = merged_points(self.default_points, points)
        results: list[MatchResult] = []
        issues: list[Issue] = []
        mode = penalty_mode(options) if details else DEFAULT_PENALTY_MODE
        # a 弃权 beside deals on the 明细 is a contradiction (common.forfeit_without_deals)
        for row, r in played_rows(rows, self.columns(options), issues, results, pts,
                                  win_score=0, source=A_LEVEL, details=details,
                                  deal_labels=(D_DEALER, D_POINTS, D_BOTTOM_KIND, D_PAIRS, D_BOTTOM, D_WRONG,
                                               D_PENALISED, D_PENALTIES)):
            if not r.require([A_LEVEL, B_LEVEL]):
                continue
            a = r.level(A_LEVEL, past_a_column=PAST_A_SIDE)
            b = r.level(B_LEVEL, past_a_column=PAST_A_SIDE)
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
            hands = (details or {}).get(row.match.key)
            if hands and not self._details_agree(row, hands, (a, b), past, mode, issues):
                continue
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
            if max(wa, wb) >= WARNINGS_TO_LOSE:
                # won on the loser's third warning (R2015-P1), not on the levels: no net levels,
                # as a forfeit in this game (the winner was credited the loser's lead, +13
                # for beating a side past A from 2, above honest winners on 总局分)
                scores = WARNINGS_SCORES
            else:
                ea = PAST_A if past == 0 else a
                eb = PAST_A if past == 1 else b
                d = abs(ea - eb)
                scores = (d, -d) if winner == 0 else (-d, d)
            results.append(two_sided(row.match, winner, pts, scores=scores, reason=reason,
                                     source=row.at(A_LEVEL), detail={"levels": (a, b), "warnings": (wa, wb)}))
        return results, issues


    def _details_agree(self, row: ResultRow, items: list[dict[str, Any]], entered: tuple[int, int],
                       past: int | None, mode: str, issues: list[Issue]) -> bool:
        """Replay the 明细 rows of one table and compare with the entered levels (先过A方 counts
        as 过A); False (with issues) on a bad hand, a broken rotation or a mismatch."""
        clamped: list[tuple[str, int, int]] = []
        replayed = self._replay_details(row, items, mode, issues, clamped)
        if replayed is None:
            return False
        # a hand whose −20 took the defenders below 0 counts as 0, 大光 (R2015-C1, P1): a
        # referee who scored it by the total below 0 (小光, +2) is told why the levels differ
        note = "".join(f"明细第 {n} 局闲家得分 {points} 扣罚分 {points - total} 后为 −{-total}，"
                       for n, points, total in clamped[:3])
        note = f"（{note}扣分后不足0分按0分计，即大光，庄家升 4 级）" if note else ""
        agree = True
        for side, label in enumerate((A_LEVEL, B_LEVEL)):
            got = PAST_A if past == side else entered[side]
            want = replayed[side]
            if got == want:
                continue
            agree = False
            shown_got = "A（先过A）" if got == PAST_A else level_name(got)
            hint = (f"（级数填 A，并在“{PAST_A_SIDE}”选{SIDES[side]}）" if want == PAST_A else
                    f"（并清除“{PAST_A_SIDE}”）" if got == PAST_A else "")
            issues.append(issue("TOTAL_MISMATCH", (
                f"{where(row.match)}：“{label}”填的是 \"{shown_got}\"，按明细逐局计算应为 "
                f"\"{level_name(want)}\"{hint}{note}：请核对明细或改正级数"), at=row.at(label)))
        return agree

    def values_from_details(self, row: ResultRow, items: list[dict[str, Any]], options: dict[str, Any],
                            issues: list[Issue]) -> dict[str, str] | None:
        """The 甲方级数 乙方级数 (and 过A方) of a table replayed from its 明细 (R2015-C1…C3, P1),
        for a row whose levels were left blank; None (with issues) on a bad hand.  Warnings
        and the last hand's winner stay as typed (the 明细 does not record them)."""
        replayed = self._replay_details(row, items, penalty_mode(options), issues)
        if replayed is None:
            return None
        values = {label: ("A" if lv == PAST_A else level_name(lv)) for label, lv in zip((A_LEVEL, B_LEVEL), replayed)}
        past = [SIDES[i] for i, lv in enumerate(replayed) if lv == PAST_A]
        if past:
            values[PAST_A_SIDE] = past[0]
        return values

    @staticmethod
    def _replay_details(row: ResultRow, items: list[dict[str, Any]], mode: str, issues: list[Issue],
                        clamped: list[tuple[str, int, int]] | None = None) -> tuple[int, int] | None:
        """Levels after the table's 明细 rows; None (with issues) when a hand is bad or its
        庄家方 breaks the rotation (only the first such hand is reported).  ``clamped``, when
        given, gets ``(局号, points, total)`` of each hand whose total below 0 was counted as 0
        (:func:`below_zero`)."""
        labels = (D_DEALER, D_POINTS, D_BOTTOM_KIND, D_PAIRS, D_BOTTOM, D_WRONG, D_PENALISED, D_PENALTIES)
        levels = (2, 2)
        ok = True
        rotation_reported = False
        prev: tuple[str, int, int] | None = None      # (hand number, dealer side, next dealer side)
        for drow in detail_rows(items):
            if all(is_blank(drow.values.get(k)) for k in labels):       # 局号 is pre-numbered
                continue
            r = DetailReader(drow, row.match, issues, D_HAND)
            hand = _read_hand(r)
            if hand is None:
                ok = False
                prev = None
                continue
            if prev is not None and not rotation_reported:
                message = rotation_problem(r.hand, SIDES[hand.dealer], prev[0], SIDES[prev[1]], SIDES[prev[2]],
                                           defenders="闲家")
                if message:
                    r.bad(D_DEALER, message)
                    rotation_reported = True
                    ok = False
            levels, up = play_detail_hand(levels, hand, mode)
            if clamped is not None and (low := below_zero(hand, mode)) is not None:
                clamped.append((r.hand, *low))
            prev = (r.hand, hand.dealer, next_dealer_side(hand.dealer, up))
        return levels if ok else None


def _read_hand(r: DetailReader) -> Hand | None:
    """One 明细 row as a :class:`Hand`; None (issues recorded) when a cell is bad.

    R2015-C1/C2 card points: 闲家得分 (points won in play, a multiple of 5, before the bottom
    bonus and the R2015-P1 penalties) is at most 200; when the bottom counts, 底牌分 is the
    raw points of the 8-card bottom (a multiple of 5, at most 80) and the two together at
    most 200 (:func:`.shuangsheng.card_points_problem`)."""
    dealer = r.choice(D_DEALER, SIDES, aliases=SIDE_ALIASES)
    wrong = r.choice(D_WRONG, SIDE_OR_NONE, aliases=SIDE_ALIASES, blank_as="无")
    if wrong not in (None, "无"):
        # the wrong count replaces the hand's result: its points and penalties do not count
        return None if dealer is None else Hand(SIDES.index(dealer), wrong_count=SIDES.index(wrong))
    p = r.integer(D_POINTS, 0, MAX_CARD_POINTS, step=5, unit=POINTS_UNIT)
    kind = r.choice(D_BOTTOM_KIND, BOTTOM_KINDS, blank_as="无")
    pairs = bottom = 0
    if kind not in (None, "无"):
        b = r.integer(D_BOTTOM, 0, MAX_BOTTOM_POINTS, step=5, blank_as=0, hint=BOTTOM_HINT, unit=POINTS_UNIT)
        bottom = b or 0
        if kind == "拖拉机":
            pairs = r.integer(D_PAIRS, 2, 12) or 0
        if p is not None and b is not None:
            message = card_points_problem(p, b, points_label=D_POINTS, bottom_label=D_BOTTOM)
            if message:
                r.bad(D_POINTS, message)
    penalised = r.choice(D_PENALISED, SIDE_OR_NONE, aliases=SIDE_ALIASES, blank_as="无")
    count = r.integer(D_PENALTIES, 0, MAX_PENALTIES, blank_as=1 if penalised not in (None, "无") else 0)
    if penalised == "无" and count:
        r.bad(D_PENALTIES, f"“{D_PENALTIES}”填的是 \"{count}\"，但没有选“{D_PENALISED}”：请选择被罚的一方（甲/乙），"
                           f"或清空“{D_PENALTIES}”")
    if not r.ok or dealer is None or p is None or kind is None or wrong is None or penalised is None or count is None:
        return None
    return Hand(SIDES.index(dealer), p, kind, pairs, bottom,
                penalised=None if penalised == "无" else SIDES.index(penalised), penalties=count)


def penalty_mode(options: dict[str, Any]) -> str:
    """The event's R2015-P1 ``penalty_mode`` game option (default ``defender_total``).

    >>> penalty_mode({}), penalty_mode({"penalty_mode": "none"})
    ('defender_total', 'none')
    """
    mode = str(options.get("penalty_mode") or DEFAULT_PENALTY_MODE)
    if mode not in PENALTY_MODES:
        raise ValueError(f"双扣的 game_options.penalty_mode 为“{mode}”，应为 {' 或 '.join(PENALTY_MODES)}")
    return mode


SHUANGKOU = Shuangkou()
GAMES.register("shuangkou", "双扣", "雙扣")(SHUANGKOU)
