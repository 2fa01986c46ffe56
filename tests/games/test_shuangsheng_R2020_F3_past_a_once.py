"""R2020-F3 (R2015-C4 alike): passing A ends a 双升 match, so only one side can have passed
A.  A row with both 甲方级数 and 乙方级数 “过A” was scored silently as an equal-level game
won by the 庄家 (2:1), and a knockout went on with that winner.  It is now a
RESULT_INVALID at the 级数 cells, the table not scored; 过A against any level up to A
(the other side reached A but did not pass it) is a legitimate result."""
import pytest

from pipeline.games import GAMES

G = GAMES.get("双升")


@pytest.mark.parametrize("a,b", [("过A", "过A"), ("已过A", "过A"), ("A+", "过A")])
def test_R2020_F3_both_sides_past_a_is_refused(sheet, a, b):
    results, issues = sheet(G).parse({"甲方级数": a, "乙方级数": b, "庄家": "甲"})
    assert results == []
    (i,) = issues
    assert i.code == "RESULT_INVALID" and i.severity.value == "error"
    assert (i.file, i.sheet, i.cell) == ("r.xlsx", "成绩", "D2"), i
    # names both cells, says why and what to change, in Chinese
    assert "D2" in i.message and "E2" in i.message, i.message
    assert "“甲方级数”" in i.message and "“乙方级数”" in i.message, i.message
    assert "都填了“过A”" in i.message and "比赛结束" in i.message and "请" in i.message, i.message


def test_R2020_F3_both_past_a_refused_without_dealer(sheet):
    """The 庄家 does not matter: the levels themselves are impossible."""
    results, (i,) = sheet(G).parse({"甲方级数": "过A", "乙方级数": "过A", "庄家": None})
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "D2"


@pytest.mark.parametrize("a,b,points", [
    ("过A", "A", (3, 1)),       # both reached A, 甲 passed it first: the match ended there
    ("A", "过A", (1, 3)),
    ("过A", "2", (3, 1)),
    ("K", "过A", (1, 3)),
    ("A", "A", (2, 1)),         # both at A when time was called: the dealer's (庄家 甲)
])
def test_R2020_F3_one_side_past_a_is_scored(sheet, a, b, points):
    (res,), issues = sheet(G).parse({"甲方级数": a, "乙方级数": b, "庄家": "甲"})
    assert issues == []
    assert tuple(x.points for x in res.sides) == points


def _hand(n, dealer, p):
    from pipeline.model import CellRef
    labels = ["局号", "庄家方", "捡分方得分", "扣底牌型", "拖拉机对数", "底牌分", "多牌少牌方"]
    d = {"局号": n, "庄家方": dealer, "捡分方得分": p, "扣底牌型": "无", "拖拉机对数": None, "底牌分": None,
         "多牌少牌方": "无"}
    return d | {"_cells": {l: CellRef("r.xlsx", "明细", f"{chr(68 + i)}{n + 1}") for i, l in enumerate(labels)}}


# 甲 deals and goes up +3 four times: 2 → 5 → 8 → J → 过A (hand 5 takes 甲 past A: 14 → 15)
PAST = [_hand(n, "甲", 0) for n in range(1, 6)]


def test_R2020_F3_detail_hands_after_a_side_passed_a_are_refused(sheet):
    """The 明细 replay (R2020-C1…C4) went on after a side passed A: more hands recorded
    after it could take the other side past A as well, and 过A:过A (typed, or computed for
    blank 级数) was scored as equal levels.  A hand recorded after the pass is a
    RESULT_INVALID at its 局号 cell, naming the hand that passed A; the table is not scored."""
    # 乙 takes over (80+) and then goes up from 2 to 过A: ten more hands
    after = [_hand(6, "甲", 120)] + [_hand(n, "乙", 0) for n in range(7, 12)]
    results, issues = sheet(G).parse({"甲方级数": "过A", "乙方级数": "过A", "庄家": "乙"},
                                     details=[*PAST, *after])
    assert results == []
    assert [i.cell for i in issues if i.sheet == "明细"] == ["D7"], issues
    (i,) = [i for i in issues if i.sheet == "明细"]
    assert i.code == "RESULT_INVALID" and "明细第 6 局" in i.message and "第 5 局" in i.message, i.message
    assert "甲方" in i.message and "过A" in i.message, i.message


def test_R2020_F3_detail_ending_at_the_pass_of_a_is_scored(sheet):
    (res,), issues = sheet(G).parse({"甲方级数": "过A", "乙方级数": "2", "庄家": "甲"}, details=PAST)
    assert issues == [] and [x.points for x in res.sides] == [3, 1]
