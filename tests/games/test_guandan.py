"""Guandan (T2016): R2016-F4 winner, R2016-S1 round score, R2016-C1 level-up."""
import pytest

from pipeline.games import GAMES
from pipeline.games.guandan import DealStep, failed_attempt_at_a, level_up, round_score, winner_at_time
from pipeline.model import Outcome

G = GAMES.get("掼蛋")


def test_R2016_S1_time_up_Q_vs_8(sheet):
    (res,), issues = sheet(G).parse({"甲方级数": "Q", "乙方级数": "8", "台上方": "乙"})
    assert issues == []
    assert [x.points for x in res.sides] == [68, 32]
    assert [x.score for x in res.sides] == [68, 32]
    assert [x.outcome for x in res.sides] == [Outcome.WIN, Outcome.LOSS]


def test_R2016_S1_table():
    assert [round_score(d) for d in range(13)] == [(52 + 4 * d, 48 - 4 * d) for d in range(13)]
    assert round_score(12) == (100, 0) and round_score(13) == (100, 0)


def test_R2016_F4_equal_level_on_stage_wins(sheet):
    (res,), _ = sheet(G).parse({"甲方级数": "7", "乙方级数": 7, "台上方": "乙"})
    assert [x.points for x in res.sides] == [48, 52]
    assert winner_at_time(9, 9, None, 0) == 0


def test_R2016_F4_past_a(sheet):
    (res,), issues = sheet(G).parse({"甲方级数": "A", "乙方级数": "3", "过A方": "甲"})
    assert issues == [] and [x.points for x in res.sides] == [96, 4]
    _, (i,) = sheet(G).parse({"甲方级数": "K", "乙方级数": "3", "过A方": "甲"})
    assert i.code == "RESULT_INVALID" and i.cell == "F2"


def test_R2016_F4_on_stage_required_only_at_equal_levels(sheet):
    """The side on stage decides equal levels only: Q against 8 with 台上方 blank is 68:32
    (it was refused)."""
    results, (i,) = sheet(G).parse({"甲方级数": "9", "乙方级数": "9"})
    assert results == [] and i.cell == "G2" and "台上方" in i.message
    (res,), issues = sheet(G).parse({"甲方级数": "Q", "乙方级数": "8"})
    assert issues == [] and [x.points for x in res.sides] == [68, 32]


def test_level_out_of_range(sheet):
    _, (i,) = sheet(G).parse({"甲方级数": "15", "乙方级数": "9", "台上方": "甲"})
    assert i.code == "RESULT_INVALID" and '"15"' in i.message


def test_R2016_C1_level_up():
    assert level_up(2, 2) == DealStep(5)
    assert level_up(2, 3) == DealStep(4)
    assert level_up(2, 4) == DealStep(3)
    assert level_up(12, 2) == DealStep(14)          # never skips A
    assert level_up(14, 2).passed_a and level_up(14, 3).passed_a
    assert level_up(14, 4) == DealStep(14, failed_at_a=1)
    assert level_up(14, 4, failed_at_a=2) == DealStep(2)   # third failure: back to 2
    assert failed_attempt_at_a(1) == DealStep(14, failed_at_a=2)
    with pytest.raises(ValueError):
        level_up(5, 1)


def test_forfeit_defaults(sheet):
    (res,), _ = sheet(G).parse({"弃权": "乙方弃权"})
    assert [x.points for x in res.sides] == [52, 0]
    assert [x.outcome for x in res.sides] == [Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS]
