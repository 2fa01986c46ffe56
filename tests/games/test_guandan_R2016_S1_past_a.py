"""R2016-S1 with a pass of A (过A): the spec and the seed are silent on the level difference
then; as 双扣 (handbook), the side that passed A counts one level above A — so passing A
always beats an equal-level win at A, and a pass counts more than reaching A."""
from pipeline.games import GAMES
from pipeline.games.guandan import level_difference

G = GAMES.get("掼蛋")


def test_R2016_S1_past_a_counts_one_level_above_A():
    assert level_difference(14, 14, 0) == 1 and level_difference(14, 13, 0) == 2
    assert level_difference(3, 14, 1) == 12 and level_difference(14, 2, 0) == 13
    assert level_difference(12, 8, None) == 4 and level_difference(9, 9, None) == 0


def test_R2016_S1_passing_A_against_A_beats_an_equal_level_win(sheet):
    (passed,), issues = sheet(G).parse({"甲方级数": "A", "乙方级数": "A", "过A方": "甲"})
    assert issues == [] and [x.points for x in passed.sides] == [56, 44]
    (on_stage,), _ = sheet(G).parse({"甲方级数": "A", "乙方级数": "A", "台上方": "甲"})
    assert [x.points for x in on_stage.sides] == [52, 48]
    assert passed.sides[0].points > on_stage.sides[0].points


def test_R2016_S1_passing_A_against_K_and_against_3(sheet):
    (res,), _ = sheet(G).parse({"甲方级数": "K", "乙方级数": "A", "过A方": "乙"})
    assert [x.points for x in res.sides] == [40, 60]
    (res,), _ = sheet(G).parse({"甲方级数": "A", "乙方级数": "3", "过A方": "甲"})
    assert [x.points for x in res.sides] == [100, 0]
    (res,), _ = sheet(G).parse({"甲方级数": "A", "乙方级数": "4", "过A方": "甲"})
    assert [x.points for x in res.sides] == [96, 4]
