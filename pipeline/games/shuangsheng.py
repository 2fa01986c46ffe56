"""双升 Shuangsheng (two-deck Tractor, fixed pairs): R2020-F3 match scoring and the
R2020-C1…C4 hand-by-hand rules of the optional detail sheet (明细).

Match (R2020-F3): 30 minutes; at time the side with the higher level wins 3:1; equal
levels → the dealer side (庄家) at time wins 2:1.  A side that has passed A is written
“过A” and ranks above A.

Detail sheet: one row per hand.  Levels are replayed from 2:2 and compared with the
entered 甲方级数/乙方级数; a difference is ``TOTAL_MISMATCH`` at the entered cell.  Each
hand's 庄家方 must follow R2020-C3 from the hand before (the first hand is free); the
first hand that breaks it is ``RESULT_INVALID`` at its 庄家方 cell.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection, Literal, Sequence

from ..issues import Issue, issue
from ..model import MatchResult, Round
from . import GAMES
from .base import DetailSheet, ResultColumn, ResultRow
from .common import (detail_rows, DetailReader, forfeit_column, is_blank, level_name, LEVEL_NAMES,
                     merged_points, PAST_A, played_rows, POINTS_UNIT, two_sided, where)
from .headtohead import ROUND_ROBIN_TIEBREAKS

A_LEVEL = "甲方级数"
B_LEVEL = "乙方级数"
DEALER = "庄家"
SIDES = ("甲", "乙")
SIDE_ALIASES = {"甲方": "甲", "乙方": "乙"}

# detail sheet (明细)
DETAIL_SHEET = "明细"
D_HAND = "局号"
D_DEALER = "庄家方"
D_POINTS = "捡分方得分"
D_BOTTOM_KIND = "扣底牌型"
D_PAIRS = "拖拉机对数"
D_BOTTOM = "底牌分"
D_WRONG = "多牌少牌方"
BOTTOM_KINDS = ("无", "单张", "对子", "拖拉机")
BottomKind = Literal["无", "单张", "对子", "拖拉机"]

#: the two decks hold 200 card points: eight 5s (40), eight 10s and eight Ks (160)
MAX_CARD_POINTS = 200
#: the bottom (底牌) is 8 cards (108 = 4 × 25 + 8): at most eight 10s or Ks
BOTTOM_CARDS = 8
MAX_BOTTOM_POINTS = 10 * BOTTOM_CARDS
BOTTOM_HINT = f"（底牌 {BOTTOM_CARDS} 张，最多 {MAX_BOTTOM_POINTS} 分；填底牌中的分，不要乘扣底倍数）"


# -- pure rules ---------------------------------------------------------------------------
def level_change(defender_points: int) -> tuple[Literal["dealer", "defenders"], int]:
    """R2020-C1: who goes up, and by how many levels, from the defenders' total P.

    P = 0 → dealer +3; 5–35 → dealer +2; 40–75 → dealer +1; 80–115 → defenders take over,
    +0; then +1 per 40 from 120 (“大于120” read as ≥ 120), capped at +6 (≥ 320).

    >>> level_change(0), level_change(40), level_change(80), level_change(155), level_change(400)
    (('dealer', 3), ('dealer', 1), ('defenders', 0), ('defenders', 1), ('defenders', 6))
    """
    p = defender_points
    if p < 0 or p % 5:
        raise ValueError(f"defenders' points must be a non-negative multiple of 5, got {p}")
    if p == 0:
        return "dealer", 3
    if p < 40:
        return "dealer", 2
    if p < 80:
        return "dealer", 1
    return "defenders", min(6, (p - 80) // 40)


def bottom_multiplier(kind: str, pairs: int = 0) -> int:
    """R2020-C2: bottom multiplier of the last trick: single ×2, pair ×4, tractor ×4×pairs.

    A throw (甩牌) counts by its largest component only: pass that component's kind.

    >>> bottom_multiplier("单张"), bottom_multiplier("对子"), bottom_multiplier("拖拉机", 3)
    (2, 4, 12)
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
        return 4 * pairs
    raise ValueError(f"unknown bottom kind {kind!r}")


def bottom_bonus(bottom_points: int, kind: str, pairs: int = 0) -> int:
    """R2020-C2: the defenders' bonus for winning the last trick (0 when they did not).

    >>> bottom_bonus(25, "对子")
    100
    """
    return bottom_points * bottom_multiplier(kind, pairs)


def next_dealer(dealer_seat: int, dealer_side_went_up: bool) -> int:
    """R2020-C3: next dealer seat (seats 0–3 counter-clockwise; partners are 2 apart).

    Dealer side went up → the dealer's partner deals; defenders took over or went up →
    the dealer's 下家 (next seat counter-clockwise) deals.

    >>> next_dealer(0, True), next_dealer(0, False), next_dealer(3, False)
    (2, 1, 0)
    """
    return (dealer_seat + (2 if dealer_side_went_up else 1)) % 4


def next_dealer_side(dealer_side: int, side_went_up: int) -> int:
    """R2020-C3 on the detail sheet's sides (0 = 甲, 1 = 乙): the dealer side went up → the
    dealer's partner deals (same side); the defenders took over or went up → the dealer's
    下家 deals, who sits on the other side.  So the next dealer side is the side that went up
    (or took over).

    >>> next_dealer_side(0, 0), next_dealer_side(0, 1)
    (0, 1)
    """
    return dealer_side if side_went_up == dealer_side else 1 - dealer_side


def rotation_problem(hand_no: str, dealer: str, prev_no: str, prev_dealer: str, expected: str, *,
                     hand_word: str = "局", defenders: str = "捡分方") -> str | None:
    """The Chinese message for a hand whose 庄家方 breaks R2020-C3 (None when it follows).
    ``hand_word``/``defenders`` name a hand and the defenders in the game's own words.

    >>> rotation_problem("2", "甲", "1", "甲", "甲") is None
    True
    """
    if dealer == expected:
        return None
    why = (f"{prev_dealer}方坐庄升级，应由庄家的对家接庄（仍是{expected}方）" if expected == prev_dealer else
           f"{prev_dealer}方坐庄未升级（{defenders}上台），应由庄家的下家接庄（{expected}方）")
    return (f"“庄家方”填的是 \"{dealer}\"，但第 {prev_no} {hand_word}{why}：请核对本{hand_word}的庄家方，"
            f"或上一{hand_word}的记录")


def card_points_problem(points: int, bottom: int, *, points_label: str = D_POINTS,
                        bottom_label: str = D_BOTTOM) -> str | None:
    """The Chinese message for a hand whose points played and bottom points add up to more
    than the two decks hold (None when they do not).  R2020-C1/C2 (R2015-C1/C2 alike): the
    defenders' points are what they won in play, without the bottom bonus; the bottom's 8
    cards are never played, so the points played plus the bottom's raw points are at most
    the 200 card points of two decks (:data:`MAX_CARD_POINTS`).

    >>> card_points_problem(120, 80) is None, card_points_problem(190, 20) is not None
    (True, True)
    """
    if points + bottom <= MAX_CARD_POINTS:
        return None
    return (f"“{points_label}”填的是 \"{points}\"，加上“{bottom_label}”{bottom} 共 {points + bottom} 分，"
            f"超过两副牌的总分 {MAX_CARD_POINTS} 分（底牌中的分不在出牌所得之内）：请核对“{points_label}”"
            f"（出牌所得，不含扣底）和“{bottom_label}”（底牌中的分，不乘倍数）")


def wrong_count_penalty(offending_side: int) -> tuple[int, int]:
    """R2020-C4: a side holding too many or too few cards → the other side +1 level.

    Returns (side that goes up, levels).  ``wrong_count_penalty(0) == (1, 1)``.
    """
    return 1 - offending_side, 1


@dataclass(frozen=True)
class Hand:
    """One hand of the detail sheet.  Sides are 0 = 甲, 1 = 乙."""

    dealer: int
    defender_points: int = 0
    bottom_kind: str = "无"
    tractor_pairs: int = 0
    bottom_points: int = 0
    wrong_count: int | None = None   # side holding too many / too few cards


def play_hand(levels: tuple[int, int], hand: Hand) -> tuple[tuple[int, int], int]:
    """Levels after one hand and the dealer side of the next (R2020-C1…C4).

    A wrong card count replaces the hand's result (R2020-C4: the other side goes up one;
    the dealer side stays if it was the side going up, else the other side takes over).
    Levels never go beyond 过A (15).

    >>> play_hand((2, 2), Hand(dealer=0, defender_points=55, bottom_kind="对子", bottom_points=25))
    ((2, 3), 1)
    """
    lv = list(levels)
    if hand.wrong_count is not None:
        side, n = wrong_count_penalty(hand.wrong_count)
        lv[side] = min(PAST_A, lv[side] + n)
        return (lv[0], lv[1]), side
    total = hand.defender_points + bottom_bonus(hand.bottom_points, hand.bottom_kind, hand.tractor_pairs)
    who, n = level_change(total)
    side = hand.dealer if who == "dealer" else 1 - hand.dealer
    lv[side] = min(PAST_A, lv[side] + n)
    return (lv[0], lv[1]), side


def replay(hands: Sequence[Hand]) -> tuple[int, int]:
    """Levels after every hand, both sides starting at 2 (R2020-C1…C4)."""
    levels = (2, 2)
    for h in hands:
        levels, _ = play_hand(levels, h)
    return levels


def match_points(a_level: int, b_level: int, dealer: int, points: dict[str, int]) -> tuple[int, int]:
    """R2020-F3: higher level 3:1 (win/loss); equal levels → dealer side 2:1 (win_equal/loss_equal).

    >>> match_points(12, 8, 1, {"win": 3, "loss": 1, "win_equal": 2, "loss_equal": 1})
    (3, 1)
    >>> match_points(9, 9, 1, {"win": 3, "loss": 1, "win_equal": 2, "loss_equal": 1})
    (1, 2)
    """
    if a_level != b_level:
        w, l = points["win"], points["loss"]
        return (w, l) if a_level > b_level else (l, w)
    w, l = points["win_equal"], points["loss_equal"]
    return (w, l) if dealer == 0 else (l, w)


def match_winner(a_level: int, b_level: int, mp: tuple[int, int]) -> int | None:
    """R2020-F3: the side (0 = 甲, 1 = 乙) that wins a match scored ``mp``, None when nobody
    does.  The side with more match points; at equal points the higher level (points set
    with win = loss still leave a K:5 to the K); equal levels on equal points — the event's
    ``points: {win_equal: 2, loss_equal: 2}`` — are a draw on those points: a round robin
    scores it so, a knockout asks for its 加赛 (淘汰赛对局未分胜负).  乙 went through such a
    knockout match without a word.

    >>> match_winner(9, 9, (2, 1)), match_winner(9, 9, (1, 2)), match_winner(13, 5, (1, 1)), match_winner(5, 5, (2, 2))
    (0, 1, 0, None)
    """
    if mp[0] != mp[1]:
        return 0 if mp[0] > mp[1] else 1
    if a_level != b_level:
        return 0 if a_level > b_level else 1
    return None


def both_past_a_message(a_cell: str, b_cell: str) -> str:
    """The Chinese message for a row with both 级数 “过A” (R2020-F3; R2015-C4 alike): passing
    A ends the match, so only the side that passed it first can be “过A” — the other side
    stopped at its level then (A at most).  Scoring it as equal levels left the 庄家 the
    winner of an impossible result.

    >>> "F7、G7" in both_past_a_message("F7", "G7")
    True
    """
    cells = "、".join(c for c in (a_cell, b_cell) if c)
    return (f"“{A_LEVEL}”和“{B_LEVEL}”都填了“过A”{f'（{cells}）' if cells else ''}，但一方过A即比赛结束，"
            "只有先过A的一方能填“过A”，另一方填过A时打到的级数（2–10、J、Q、K 或 A）。"
            "请裁判核对记分表，把另一方的级数改正后重新发送；这一桌暂不计成绩")


# -- the game -----------------------------------------------------------------------------
@dataclass
class Shuangsheng:
    """双升 (R2020-F3): levels at time and the dealer side decide the match."""

    id: str = "shuangsheng"
    title: str = "双升"
    seats: int = 2
    #: players on each side of a table: a fixed partnership (an event's team_size is this)
    side_size: int = 2
    #: the result cells its detail sheet does not tell, typed beside it: a row with nothing
    #: else filled still has its levels computed from its 明细 (EventRunner.totals_from_details)
    detail_kept: tuple[str, ...] = (DEALER,)
    default_points: dict[str, int] = field(default_factory=lambda: {
        "win": 3, "loss": 1, "draw": 2, "win_equal": 2, "loss_equal": 1,
        "bye": 3, "forfeit_win": 3, "forfeit_loss": 0})
    default_tiebreaks: tuple[str, ...] = ROUND_ROBIN_TIEBREAKS

    def tiebreaks_for(self, format_name: str) -> tuple[str, ...]:
        """Round-robin chain (the R2020-F1 final pool)."""
        return self.default_tiebreaks

    def notice_rules(self, options: dict[str, Any], points: dict[str, int],
                     stated: Collection[str] = ()) -> list[str]:
        """The notice's rules of play (R2020-F3), with the event's match points — the game's
        own 3/1 and 2/1 are the client's (R2020-F3), so they are stated whether or not the
        spec repeats them."""
        p = merged_points(self.default_points, points)
        return [f"到时级数高者胜出，积 {p['win']} 分，负者积 {p['loss']} 分；双方同级时，"
                f"庄家一方获胜，积 {p['win_equal']} 分，对方积 {p['loss_equal']} 分"]

    def columns(self, options: dict[str, Any]) -> list[ResultColumn]:
        """甲方级数, 乙方级数 (2..A, 过A), 庄家 (甲/乙) and the optional 弃权."""
        levels = tuple(LEVEL_NAMES[n] for n in range(2, 16))
        return [
            ResultColumn(A_LEVEL, "choice", levels, help="时间到时甲方打到的级数（2–10、J、Q、K、A，已过A填“过A”）"),
            ResultColumn(B_LEVEL, "choice", levels, help="时间到时乙方打到的级数"),
            ResultColumn(DEALER, "choice", SIDES, help="时间到时的庄家方（甲/乙）；双方同级时由它定胜负，级数不同时可不填"),
            forfeit_column(),
        ]

    def detail(self, options: dict[str, Any]) -> DetailSheet | None:
        """The optional hand-by-hand sheet 明细 (R2020-C1…C4)."""
        return DetailSheet(DETAIL_SHEET, (
            ResultColumn(D_HAND, "int", min=1, help="第几局"),
            ResultColumn(D_DEALER, "choice", SIDES,
                         help="本局庄家所在方；首局自定，此后庄家方升级仍由该方坐庄，否则换另一方坐庄"),
            ResultColumn(D_POINTS, "int", min=0, max=MAX_CARD_POINTS, unit=POINTS_UNIT,
                         help="捡分方出牌所得分（5 的倍数，不含扣底）"),
            ResultColumn(D_BOTTOM_KIND, "choice", BOTTOM_KINDS, required=False,
                         help="捡分方最后一轮大时的牌型；甩牌按其中最大的牌型；庄家方最后一轮大选“无”"),
            ResultColumn(D_PAIRS, "int", min=2, max=12, required=False, help="拖拉机扣底时的对数"),
            ResultColumn(D_BOTTOM, "int", min=0, max=MAX_BOTTOM_POINTS, required=False, unit=POINTS_UNIT,
                         help="底牌中的分（5 的倍数，最多 80，不乘扣底倍数）"),
            ResultColumn(D_WRONG, "choice", ("无", "甲", "乙"), required=False, help="多牌或少牌的一方"),
        ))

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """R2020-F3 results; with a detail sheet, levels are checked against the replay."""
        pts = merged_points(self.default_points, points)
        results: list[MatchResult] = []
        issues: list[Issue] = []
        # a 弃权 beside deals on the 明细 is a contradiction (common.forfeit_without_deals)
        for row, r in played_rows(rows, self.columns(options), issues, results, pts,
                                  win_score=pts["forfeit_win"], source=A_LEVEL, details=details,
                                  deal_labels=(D_DEALER, D_POINTS, D_BOTTOM_KIND, D_PAIRS, D_BOTTOM, D_WRONG)):
            if not r.require([A_LEVEL, B_LEVEL]):
                continue
            a = r.level(A_LEVEL, allow_past_a=True)
            b = r.level(B_LEVEL, allow_past_a=True)
            if a is None or b is None:
                continue
            hands = (details or {}).get(row.match.key)
            both_past = a == b == PAST_A
            # R2020-F3: the dealer decides only equal levels (K:5 with 庄家 blank was refused)
            dealer = r.choice(DEALER, SIDES, aliases=SIDE_ALIASES, blank_as=None if a == b and not both_past else "")
            if dealer is None:
                continue
            d = SIDES.index(dealer) if dealer else None     # (not needed: the levels differ)
            if hands:
                replayed = self._replay_details(row, hands, issues)
                if replayed is None:
                    continue
                mismatch = False
                for label, entered, computed in ((A_LEVEL, a, replayed[0]), (B_LEVEL, b, replayed[1])):
                    if entered != computed:
                        mismatch = True
                        issues.append(issue("TOTAL_MISMATCH", (
                            f"{where(row.match)}：“{label}”填的是 \"{level_name(entered)}\"，按明细逐局计算应为 "
                            f"\"{level_name(computed)}\"：请核对明细或改正级数"), at=row.at(label)))
                if mismatch:
                    continue
            if both_past:
                # R2020-F3: passing A ends the match, so only one side has passed it (a 明细
                # says where instead: its replay refuses a hand after the pass)
                r.bad(A_LEVEL, both_past_a_message(row.at(A_LEVEL).cell, row.at(B_LEVEL).cell))
                continue
            mp = match_points(a, b, d if d is not None else 0, pts)
            winner = match_winner(a, b, mp)
            reason = (f"级数 {level_name(a)}:{level_name(b)}" if a != b else
                      f"同级 {level_name(a)}，{dealer}方坐庄")
            results.append(two_sided(row.match, winner, pts, match_points=mp, scores=mp, reason=reason,
                                     source=row.at(A_LEVEL), detail={"levels": (a, b), "dealer": d}))
        return results, issues

    def values_from_details(self, row: ResultRow, items: list[dict[str, Any]], options: dict[str, Any],
                            issues: list[Issue]) -> dict[str, str] | None:
        """The 甲方级数 乙方级数 of a table replayed from its 明细 (R2020-C1…C4), for a row whose
        levels were left blank; None (with issues) on a bad hand.  庄家 stays as typed: at
        equal levels the referee says who dealt when time was called."""
        replayed = self._replay_details(row, items, issues)
        if replayed is None:
            return None
        return {A_LEVEL: level_name(replayed[0]), B_LEVEL: level_name(replayed[1])}

    def _replay_details(self, row: ResultRow, items: list[dict[str, Any]], issues: list[Issue]
                        ) -> tuple[int, int] | None:
        """Replay the 明细 rows of one table (R2020-C1…C4); None (with issues) when a row is
        bad or a hand's 庄家方 breaks the R2020-C3 rotation (the first such hand is reported), or
        when a hand is recorded after a side passed A (R2020-F3: that ends the match; the first
        such hand is reported at its 局号)."""
        levels = (2, 2)
        ok = True
        rotation_reported = False
        passed: tuple[str, int] | None = None         # (hand number, side) of the pass of A
        past_reported = False
        prev: tuple[str, int, int] | None = None      # (hand number, dealer side, next dealer side)
        for drow in detail_rows(items):
            if all(is_blank(drow.values.get(k)) for k in (D_DEALER, D_POINTS, D_BOTTOM_KIND, D_PAIRS, D_BOTTOM, D_WRONG)):  # 局号 is pre-numbered
                continue
            r = DetailReader(drow, row.match, issues, D_HAND)
            if passed is not None and not past_reported:
                # R2020-F3: passing A ends the match — no hand follows it (the replay went on,
                # and took the other side past A as well: 过A:过A scored as equal levels)
                r.bad(D_HAND, f"第 {passed[0]} 局{SIDES[passed[1]]}方已过A，比赛即告结束，之后不应再有牌局：请核对"
                              f"第 {passed[0]} 局及以后的记录（过A之后的各局请删去），并相应改正级数")
                past_reported = True
                ok = False
            dealer = r.choice(D_DEALER, SIDES, aliases=SIDE_ALIASES)
            hand = self._read_hand(r, dealer)
            if hand is None:
                ok = False
                prev = None             # the rotation cannot be followed past a bad hand
                continue
            if prev is not None and not rotation_reported:
                message = rotation_problem(r.hand, SIDES[hand.dealer], prev[0], SIDES[prev[1]], SIDES[prev[2]])
                if message:
                    r.bad(D_DEALER, message)
                    rotation_reported = True
                    ok = False
            levels, up = play_hand(levels, hand)
            prev = (r.hand, hand.dealer, next_dealer_side(hand.dealer, up))
            if passed is None and PAST_A in levels:
                passed = (r.hand, levels.index(PAST_A))     # (one side goes up per hand)
        return levels if ok else None

    @staticmethod
    def _read_hand(r: DetailReader, dealer: str | None) -> Hand | None:
        """One detail row as a :class:`Hand`; None (issues recorded) when a cell is bad.

        R2020-C1/C2 card points: 捡分方得分 (points won in play, a multiple of 5, no bottom
        bonus) is at most 200; when the bottom counts, 底牌分 is the raw points of the 8-card
        bottom (a multiple of 5, at most 80) and the two together at most 200
        (:func:`card_points_problem`).  150 with a bottom of 100 took the defenders up +6."""
        wrong = r.choice(D_WRONG, ("无", "甲", "乙"), aliases=SIDE_ALIASES, blank_as="无")
        if wrong not in (None, "无"):
            if dealer is None:
                return None
            return Hand(dealer=SIDES.index(dealer), wrong_count=SIDES.index(wrong))
        p = r.integer(D_POINTS, 0, MAX_CARD_POINTS, step=5, unit=POINTS_UNIT)
        kind = r.choice(D_BOTTOM_KIND, BOTTOM_KINDS, blank_as="无")
        pairs = bottom = 0
        if kind not in (None, "无"):
            b = r.integer(D_BOTTOM, 0, MAX_BOTTOM_POINTS, step=5, blank_as=0, hint=BOTTOM_HINT, unit=POINTS_UNIT)
            bottom = b or 0
            if kind == "拖拉机":
                pairs = r.integer(D_PAIRS, 2, 12) or 0
            if p is not None and b is not None:
                message = card_points_problem(p, b)
                if message:
                    r.bad(D_POINTS, message)
        if not r.ok or dealer is None or p is None or kind is None or wrong is None:
            return None
        return Hand(SIDES.index(dealer), p, kind, pairs, bottom)


SHUANGSHENG = Shuangsheng()
GAMES.register("shuangsheng", "双升", "雙升", "升级", "shengji", "拖拉机")(SHUANGSHENG)
