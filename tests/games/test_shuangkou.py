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
