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
