"""Shuangkou (T2015): R2015-C1…C4 and R2015-P1."""
import pytest

from pipeline.games import GAMES
from pipeline.games.shuangkou import (apply_penalties, bottom_bonus, bottom_multiplier, level_change, level_up,
                                      match_winner, play_hand)
from pipeline.model import Outcome

G = GAMES.get("雙扣")


@pytest.mark.parametrize("p,expected", [
    (0, ("dealer", 4)), (5, ("dealer", 2)), (35, ("dealer", 2)), (40, ("dealer", 1)), (75, ("dealer", 1)),
    (80, ("defenders", 0)), (95, ("defenders", 0)), (100, ("defenders", 1)), (115, ("defenders", 1)),
    (120, ("defenders", 2)), (135, ("defenders", 2)), (200, ("defenders", 6)),
])
def test_R2015_C1_level_table(p, expected):
    assert level_change(p) == expected


def test_R2015_C2_bottom():
    assert [bottom_multiplier("单张"), bottom_multiplier("对子")] == [2, 4]
    assert [bottom_multiplier("拖拉机", n) for n in (2, 3, 4)] == [8, 16, 32]
    assert bottom_bonus(15, "拖拉机", 2) == 120


@pytest.mark.parametrize("level,n,expected", [
    (2, 4, 5),     # 2 → would be 6, stops at must-play 5
    (3, 2, 5),     # lands exactly on 5
    (5, 4, 9),     # leaving a must-play level is free
    (6, 4, 10),    # stops at 10
    (10, 4, 13),   # stops at K
    (13, 1, 14),   # K → A
    (13, 4, 15),   # past A
    (7, 0, 7),
])
def test_R2015_C3_must_play_stops(level, n, expected):
    assert level_up(level, n) == expected


def test_R2015_C1_C3_hand():
    # dealer 甲 at 3, defenders score 0: +4 would reach 7 but stops at 5
    assert play_hand((3, 2), 0, 0) == ((5, 2), 0)
    # defenders 乙 at 4 score 100: take over +1 → 5
    assert play_hand((3, 4), 0, 100) == ((3, 5), 1)


def test_R2015_P1_penalties():
    assert apply_penalties(60, defender_offences=1) == 40
    assert apply_penalties(60, dealer_offences=1) == 80
    assert apply_penalties(15, defender_offences=2) == 0
    assert apply_penalties(60, dealer_offences=1, mode="none") == 60
    # 60 → 80 after a dealer-side offence: the defenders take over
    assert level_change(apply_penalties(60, dealer_offences=1)) == ("defenders", 0)
    with pytest.raises(ValueError):
        apply_penalties(60, mode="other")


def test_R2015_C4_winner_rules():
    assert match_winner(9, 12, None, None) == 1
    assert match_winner(9, 9, None, 1) == 1
    assert match_winner(9, 9, None, None) is None
    assert match_winner(14, 13, 1, None) == 1
    assert match_winner(12, 8, None, None, (3, 0)) == 1      # P1: three warnings lose


def test_R2015_C4_sheet(sheet):
    (res,), issues = sheet(G).parse({"甲方级数": "Q", "乙方级数": "8"})
    assert issues == []
    assert [x.outcome for x in res.sides] == [Outcome.WIN, Outcome.LOSS]
    assert [x.points for x in res.sides] == [2, 0]
    assert [x.score for x in res.sides] == [4, -4]


def test_R2015_C4_equal_levels_need_last_hand(sheet):
    results, (i,) = sheet(G).parse({"甲方级数": "9", "乙方级数": 9})
    assert results == [] and i.code == "RESULT_INVALID" and "末盘胜方" in i.message
    (res,), _ = sheet(G).parse({"甲方级数": "9", "乙方级数": 9, "末盘胜方": "乙"})
    assert res.sides[1].outcome == Outcome.WIN and [x.score for x in res.sides] == [0, 0]


def test_R2015_C4_past_a(sheet):
    (res,), _ = sheet(G).parse({"甲方级数": "K", "乙方级数": "A", "先过A方": "乙"})
    assert res.sides[1].outcome == Outcome.WIN and res.sides[1].score == 2
    _, (i,) = sheet(G).parse({"甲方级数": "K", "乙方级数": "A", "先过A方": "甲"})
    assert i.code == "RESULT_INVALID" and '"K"' in i.message


def test_R2015_P1_three_warnings(sheet):
    (res,), _ = sheet(G).parse({"甲方级数": "Q", "乙方级数": "8", "甲方警告": 3, "乙方警告": 1})
    assert res.sides[1].outcome == Outcome.WIN and "警告" in res.reason
    _, (i,) = sheet(G).parse({"甲方级数": "Q", "乙方级数": "8", "甲方警告": 4})
    assert i.code == "RESULT_INVALID" and "甲方警告" in i.message


# -- detail sheet 明细: replay of R2015-C1…C3 and P1 --------------------------------------------

from pipeline.games.shuangkou import Hand, hand_total, penalty_mode, play_detail_hand, replay  # noqa: E402
from pipeline.model import CellRef  # noqa: E402

DETAIL_LABELS = ["局号", "庄家方", "闲家得分", "扣底牌型", "拖拉机对数", "底牌分", "多牌少牌方", "罚分方", "罚分次数"]


def _hand(n, dealer, p, kind="无", bottom=None, pairs=None, wrong="无", penalised="无", times=None):
    """A 明细 row as read_details gives it: values plus ``_cells`` (sheet 明细, row n + 1, columns D…L)."""
    values = dict(zip(DETAIL_LABELS, [n, dealer, p, kind, pairs, bottom, wrong, penalised, times]))
    values["_cells"] = {l: CellRef("r.xlsx", "明细", f"{chr(68 + i)}{n + 1}") for i, l in enumerate(DETAIL_LABELS)}
    return values


#: levels from 2:2 (default penalty_mode defender_total)
HANDS = [
    _hand(1, "甲", 0),                                   # 甲 +4, stops at must-play 5 → (5, 2); 甲 deals again
    _hand(2, "甲", 30, penalised="乙"),                   # defenders offend: 30 − 20 = 10 → 甲 +2 → (7, 2)
    _hand(3, "甲", 40, "对子", bottom=20),               # 40 + 20×4 = 120 → 乙 takes over +2 → (7, 4)
    _hand(4, "乙", 60, penalised="乙", times=1),          # dealer offends: 60 + 20 = 80 → 甲 takes over +0
    _hand(5, "甲", 25, wrong="甲"),                       # 甲 wrong card count → 乙 +1 → (7, 5); 乙 deals next
]


def test_R2015_detail_sheet_columns():
    d = G.detail({})
    assert d.name == "明细"
    assert [c.label for c in d.columns] == DETAIL_LABELS
    kinds = {c.label: c for c in d.columns}
    assert kinds["扣底牌型"].choices == ("无", "单张", "对子", "拖拉机")
    assert kinds["罚分方"].choices == ("无", "甲", "乙")
    assert [c.label for c in d.columns if c.required] == ["局号", "庄家方", "闲家得分"]


def test_R2015_C1_detail_replay_matches_entered_levels(sheet):
    assert replay([]) == (2, 2)
    (res,), issues = sheet(G).parse({"甲方级数": "7", "乙方级数": "5"}, details=HANDS)
    assert issues == []
    assert [x.outcome for x in res.sides] == [Outcome.WIN, Outcome.LOSS] and [x.score for x in res.sides] == [2, -2]


def test_R2015_C1_detail_mismatch_is_total_mismatch_at_entered_cell(sheet):
    results, (i,) = sheet(G).parse({"甲方级数": "7", "乙方级数": "6"}, details=HANDS)
    assert results == []
    assert i.code == "TOTAL_MISMATCH" and i.sheet == "成绩" and i.cell == "E2"
    assert '"6"' in i.message and '"5"' in i.message and "明细" in i.message
    results, issues = sheet(G).parse({"甲方级数": "8", "乙方级数": "6"}, details=HANDS)
    assert results == [] and [(x.code, x.cell) for x in issues] == [("TOTAL_MISMATCH", "D2"), ("TOTAL_MISMATCH", "E2")]


def test_R2015_C2_detail_bottom_bonus(sheet):
    # 20 face points; the bottom's 10 points count ×2 single, ×4 pair, ×8 for a 2-pair tractor, ×16 for 3 pairs
    assert hand_total(Hand(0, 20, "单张", bottom_points=10)) == 40
    assert hand_total(Hand(0, 20, "拖拉机", 3, 10)) == 180
    cases = [("无", None, ("4", "2")),       # 20 → dealer 甲 +2
             ("单张", None, ("3", "2")),     # 20 + 20 = 40 → 甲 +1
             ("对子", None, ("3", "2")),     # 20 + 40 = 60 → 甲 +1
             ("拖拉机", 2, ("2", "3"))]      # 20 + 80 = 100 → 乙 takes over +1
    for kind, pairs, (a, b) in cases:
        (res,), issues = sheet(G).parse({"甲方级数": a, "乙方级数": b, "末盘胜方": "甲"},
                                        details=[_hand(1, "甲", 20, kind, bottom=10, pairs=pairs)])
        assert issues == [], (kind, issues)
    # a tractor needs its number of pairs
    results, (i,) = sheet(G).parse({"甲方级数": "2", "乙方级数": "3"}, details=[_hand(1, "甲", 20, "拖拉机", bottom=10)])
    assert results == [] and i.code == "RESULT_INVALID" and i.sheet == "明细" and i.cell == "H2"
    assert "明细第 1 局" in i.message and "拖拉机对数" in i.message


def test_R2015_C3_detail_must_play_stops(sheet):
    # 甲 deals and shuts out the defenders three times: +4 each, stopping at 5 and 10: 2 → 5 → 9 → 10
    hands = [_hand(n, "甲", 0) for n in (1, 2, 3)]
    (res,), issues = sheet(G).parse({"甲方级数": "10", "乙方级数": "2"}, details=hands)
    assert issues == [] and res.sides[0].score == 8
    results, (i,) = sheet(G).parse({"甲方级数": "K", "乙方级数": "2"}, details=hands)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "D2" and '"K"' in i.message and '"10"' in i.message


def test_R2015_C4_detail_past_a(sheet):
    # 2 → 5 → 9 → 10 → K → 过A (five shut-outs by 甲)
    hands = [_hand(n, "甲", 0) for n in range(1, 6)]
    assert replay([Hand(0)] * 5) == (15, 2)
    (res,), issues = sheet(G).parse({"甲方级数": "A", "乙方级数": "2", "先过A方": "甲"}, details=hands)
    assert issues == [] and res.sides[0].outcome == Outcome.WIN and "先过A" in res.reason
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "2"}, details=hands)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "D2"
    assert '"过A"' in i.message and "先过A方" in i.message
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "2", "先过A方": "甲"}, details=hands[:4])
    assert results == [] and i.cell == "D2" and '"K"' in i.message


def test_R2015_P1_detail_penalties_follow_penalty_mode(sheet):
    # dealer 甲 offends once: defender_total → 30 + 20 = 50 → 甲 +1; none → 30 → 甲 +2
    hands = [_hand(1, "甲", 30, penalised="甲")]
    (res,), issues = sheet(G).parse({"甲方级数": "3", "乙方级数": "2"}, details=hands)
    assert issues == [] and res.sides[0].score == 1
    none = sheet(G, {"penalty_mode": "none"})
    (res,), issues = none.parse({"甲方级数": "4", "乙方级数": "2"}, details=hands)
    assert issues == [] and res.sides[0].score == 2
    _, (i,) = none.parse({"甲方级数": "3", "乙方级数": "2"}, details=hands)
    assert i.code == "TOTAL_MISMATCH"
    # the defenders offend twice: 50 − 40 = 10 → 甲 +2; the total never goes below 0
    (res,), issues = sheet(G).parse({"甲方级数": "4", "乙方级数": "2"},
                                    details=[_hand(1, "甲", 50, penalised="乙", times=2)])
    assert issues == []
    assert hand_total(Hand(0, 10, penalised=1, penalties=3)) == 0
    # a wrong card count: the opponents go up one, and the hand's points do not count
    assert play_detail_hand((4, 2), Hand(0, 0, wrong_count=0)) == ((4, 3), 1)
    with pytest.raises(ValueError, match="penalty_mode"):
        penalty_mode({"penalty_mode": "double"})


def test_R2015_P1_detail_penalty_count_needs_a_side(sheet):
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "2"}, details=[_hand(1, "甲", 0, times=2)])
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "L2"
    assert '"2"' in i.message and "罚分方" in i.message
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "2"}, details=[_hand(1, "甲", 0, penalised="丙")])
    assert results == [] and i.cell == "K2" and '"丙"' in i.message


def test_R2015_detail_dealer_rotation(sheet):
    # T2015 總則 7 (as R2020-C3): hand 3 went to the defenders (乙), so 乙 deals hand 4, not 甲
    hands = list(HANDS)
    hands[3] = _hand(4, "甲", 60, penalised="乙", times=1)
    results, (i,) = sheet(G).parse({"甲方级数": "7", "乙方级数": "5"}, details=hands)
    assert results == [] and i.code == "RESULT_INVALID" and i.sheet == "明细" and i.cell == "E5"
    assert "明细第 4 局" in i.message and "第 3 局" in i.message and "下家" in i.message and "（乙方）" in i.message
    # blank pre-numbered rows are skipped; the first hand is free
    (res,), issues = sheet(G).parse({"甲方级数": "2", "乙方级数": "5"},
                                    details=[_hand(1, "乙", 0), {"局号": 2, "_cells": {}}])
    assert issues == [] and res.sides[1].outcome == Outcome.WIN


def test_R2015_C4_P1_three_warnings_win_scores_as_a_forfeit(sheet):
    """A match decided by a side's third warning (R2015-P1) is won on the warnings, not on the
    levels: its net levels (score, 总局分) are those of a forfeit in this game — none, 0:0.
    (乙 at 2 beat 甲 past A on 甲's third warning and was credited +13 net levels, ranking
    it above honest winners on that tiebreak.)"""
    (fw,), _ = sheet(G).parse({"弃权": "甲方弃权"})
    assert [x.score for x in fw.sides] == [0, 0]            # what a forfeit gives
    (res,), issues = sheet(G).parse({"甲方级数": "A", "乙方级数": "2", "先过A方": "甲", "甲方警告": 3})
    assert issues == [] and res.sides[1].outcome == Outcome.WIN and "警告" in res.reason
    assert [x.points for x in res.sides] == [0, 2]          # the match points are a win's
    assert [x.score for x in res.sides] == [0, 0]
    (res,), _ = sheet(G).parse({"甲方级数": "K", "乙方级数": "2", "乙方警告": 3})     # the leader wins anyway
    assert res.sides[0].outcome == Outcome.WIN and [x.score for x in res.sides] == [0, 0]
    (res,), _ = sheet(G).parse({"甲方级数": "K", "乙方级数": "2", "乙方警告": 2})     # two warnings: levels count
    assert [x.score for x in res.sides] == [11, -11]


def test_R2015_C1_P1_a_penalty_below_zero_counts_as_zero(sheet):
    """R2015-P1 (penalty_mode defender_total) with R2015-C1: the defenders' 10 points less
    their −20 is counted as 0 (the total never goes below 0) — 大光, the dealer +4 (stopping at
    5), not the +2 of 5–35.  A referee who wrote the levels of the total below 0 (+2) is told
    why at the entered cell: 扣分后不足0分按0分计."""
    hands = [_hand(1, "甲", 10, penalised="乙")]
    assert hand_total(Hand(0, 10, penalised=1, penalties=1)) == 0
    (res,), issues = sheet(G).parse({"甲方级数": "5", "乙方级数": "2"}, details=hands)
    assert issues == [] and res.sides[0].score == 3
    results, (i,) = sheet(G).parse({"甲方级数": "4", "乙方级数": "2"}, details=hands)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "D2"
    assert "扣分后不足0分按0分计" in i.message and "明细第 1 局" in i.message, i.message
    assert "10" in i.message and "−10" in i.message, i.message
    # a mismatch with no hand below 0 says nothing of it
    _, (j,) = sheet(G).parse({"甲方级数": "7", "乙方级数": "6"}, details=HANDS)
    assert "不足0分" not in j.message
