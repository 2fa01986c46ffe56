"""Shuangsheng: R2020-F3 match points, R2020-C1…C4 hand rules, detail-sheet replay."""
import pytest

from pipeline.games import GAMES
from pipeline.games.shuangsheng import (Hand, bottom_bonus, bottom_multiplier, level_change, next_dealer,
                                        play_hand, replay, wrong_count_penalty)
from pipeline.model import Outcome

G = GAMES.get("双升")


@pytest.mark.parametrize("a,b,dealer,points", [
    ("Q", "8", "乙", (3, 1)),      # higher level wins 3:1 whoever deals
    (5, "K", "甲", (1, 3)),
    ("10", 10, "甲", (2, 1)),      # equal level: dealer side 2:1; text and number
    ("J", "j", "乙", (1, 2)),
    ("过A", "A", "乙", (3, 1)),
])
def test_R2020_F3_all_cases(sheet, a, b, dealer, points):
    (res,), issues = sheet(G).parse({"甲方级数": a, "乙方级数": b, "庄家": dealer})
    assert issues == []
    assert tuple(x.points for x in res.sides) == points
    assert tuple(x.score for x in res.sides) == points
    w = 0 if points[0] > points[1] else 1
    assert res.sides[w].outcome == Outcome.WIN and res.sides[1 - w].outcome == Outcome.LOSS


@pytest.mark.parametrize("bad", ["1", 11, "B", "0", 15, "10.5"])
def test_R2020_F3_level_out_of_range(sheet, bad):
    results, (i,) = sheet(G).parse({"甲方级数": bad, "乙方级数": "5", "庄家": "甲"})
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "D2"
    assert f'"{bad}"' in i.message and "J、Q、K 或 A" in i.message


def test_partial_row_names_dealer(sheet):
    _, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "5", "庄家": None})
    assert i.cell == "F2" and "庄家" in i.message


def test_R2020_F3_dealer_needed_only_at_equal_levels(sheet):
    """The dealer decides equal levels only: K against 5 with 庄家 blank is 3:1 (it was refused);
    a 庄家 filled in is still checked."""
    (res,), issues = sheet(G).parse({"甲方级数": "K", "乙方级数": "5", "庄家": None})
    assert issues == [] and [x.points for x in res.sides] == [3, 1]
    _, (i,) = sheet(G).parse({"甲方级数": "K", "乙方级数": "5", "庄家": "丁"})
    assert i.cell == "F2"


@pytest.mark.parametrize("p,expected", [
    (0, ("dealer", 3)), (5, ("dealer", 2)), (35, ("dealer", 2)), (40, ("dealer", 1)), (75, ("dealer", 1)),
    (80, ("defenders", 0)), (115, ("defenders", 0)), (120, ("defenders", 1)), (155, ("defenders", 1)),
    (160, ("defenders", 2)), (200, ("defenders", 3)), (240, ("defenders", 4)), (280, ("defenders", 5)),
    (315, ("defenders", 5)), (320, ("defenders", 6)), (600, ("defenders", 6)),
])
def test_R2020_C1_level_table(p, expected):
    assert level_change(p) == expected


def test_R2020_C1_rejects_bad_points():
    with pytest.raises(ValueError):
        level_change(37)
    with pytest.raises(ValueError):
        level_change(-5)


def test_R2020_C2_bottom_multipliers():
    assert bottom_multiplier("单张") == 2
    assert bottom_multiplier("对子") == 4
    assert bottom_multiplier("拖拉机", 2) == 8
    assert bottom_multiplier("拖拉机", 3) == 12
    assert bottom_multiplier("无") == 0


def test_R2020_C1_C2_pair_over_25_point_bottom_takes_over():
    """55 face points, last trick won with a pair over a 25-point bottom: 55 + 100 = 155."""
    total = 55 + bottom_bonus(25, "对子")
    assert total == 155
    assert level_change(total) == ("defenders", 1)
    assert play_hand((2, 2), Hand(dealer=0, defender_points=55, bottom_kind="对子", bottom_points=25)) == ((2, 3), 1)


def test_R2020_C3_next_dealer():
    assert next_dealer(0, True) == 2      # dealer side up: partner deals
    assert next_dealer(0, False) == 1     # defenders take over: 下家 deals
    assert next_dealer(3, True) == 1


def test_R2020_C4_wrong_count():
    assert wrong_count_penalty(1) == (0, 1)
    assert play_hand((4, 6), Hand(dealer=1, wrong_count=1)) == ((5, 6), 0)


def test_replay_caps_at_past_a():
    assert replay([Hand(0, 0)] * 6) == (15, 2)


def _detail(dealer, p, kind="无", bottom=None, pairs=None, wrong="无", n=1):
    return {"局号": n, "庄家方": dealer, "捡分方得分": p, "扣底牌型": kind, "拖拉机对数": pairs,
            "底牌分": bottom, "多牌少牌方": wrong}


DETAILS = [
    _detail("甲", 0, n=1),                          # 甲 +3 → 5
    _detail("甲", 55, "对子", 25, n=2),             # 155 → 乙 takes over +1 → 3
    _detail("乙", 30, n=3),                         # 乙 +2 → 5
    _detail("乙", 10, wrong="乙", n=4),             # 乙 wrong count → 甲 +1 → 6
]


def test_detail_replay_matches_entered_levels(sheet):
    (res,), issues = sheet(G).parse({"甲方级数": "6", "乙方级数": "5", "庄家": "甲"}, details=DETAILS)
    assert issues == []
    assert [x.points for x in res.sides] == [3, 1]


def test_detail_replay_mismatch_is_total_mismatch(sheet):
    results, (i,) = sheet(G).parse({"甲方级数": "6", "乙方级数": "7", "庄家": "甲"}, details=DETAILS)
    assert results == []
    assert i.code == "TOTAL_MISMATCH" and i.cell == "E2" and '"7"' in i.message and '"5"' in i.message


def test_detail_bad_row(sheet):
    details = [_detail("甲", 33, n=1, ) | {"_cells": {}}]
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "2", "庄家": "甲"}, details=details)
    assert results == [] and i.code == "RESULT_INVALID" and "明细第 1 局" in i.message and "5 的倍数" in i.message


def test_detail_sheet_columns():
    d = G.detail({})
    assert d.name == "明细"
    assert [c.label for c in d.columns] == ["局号", "庄家方", "捡分方得分", "扣底牌型", "拖拉机对数", "底牌分", "多牌少牌方"]


def _cells(d, n):
    """A detail row dict with cell locations on sheet 明细 (row n + 1, columns D…J)."""
    from pipeline.model import CellRef
    labels = ["局号", "庄家方", "捡分方得分", "扣底牌型", "拖拉机对数", "底牌分", "多牌少牌方"]
    return d | {"_cells": {l: CellRef("r.xlsx", "明细", f"{chr(68 + i)}{n + 1}") for i, l in enumerate(labels)}}


def test_R2020_C3_dealer_rotation(sheet):
    row = {"甲方级数": "6", "乙方级数": "5", "庄家": "甲"}
    # DETAILS follows the rotation: 甲 up (甲 again), 乙 takes over (乙), 乙 up (乙 again), C4 (甲 up → 甲)
    good = [_cells(d, i) for i, d in enumerate(DETAILS, 1)]
    (res,), issues = sheet(G).parse(row, details=good)
    assert issues == [] and [x.points for x in res.sides] == [3, 1]
    # the first hand is free: 乙 may deal it (乙 +3 → 5; 乙 deals again, 0 points → 乙 +3 → 8)
    free = [_cells(_detail("乙", 0, n=1), 1), _cells(_detail("乙", 0, n=2), 2)]
    (res,), issues = sheet(G).parse({"甲方级数": "2", "乙方级数": "8", "庄家": "乙"}, details=free)
    assert issues == [] and res.sides[1].outcome == Outcome.WIN

    # dealer side went up in hand 1 (甲 +3): the dealer's partner (甲) deals hand 2, not 乙
    bad = [_cells(d, i) for i, d in enumerate(DETAILS, 1)]
    bad[1] = _cells(_detail("乙", 55, "对子", 25, n=2), 2)
    bad[2] = _cells(_detail("甲", 30, n=3), 3)          # also wrong afterwards: only the first is reported
    results, (i,) = sheet(G).parse(row, details=bad)
    assert results == []
    assert i.code == "RESULT_INVALID" and i.sheet == "明细" and i.cell == "E3"
    assert "明细第 2 局" in i.message and '"乙"' in i.message and "第 1 局" in i.message
    assert "对家" in i.message and "甲方" in i.message

    # defenders took over in hand 2 (乙 with 155): the dealer's 下家 (乙) deals hand 3, not 甲
    bad = [_cells(d, i) for i, d in enumerate(DETAILS, 1)]
    bad[2] = _cells(_detail("甲", 30, n=3), 3)
    results, (i,) = sheet(G).parse(row, details=bad)
    assert results == [] and i.cell == "E4" and "明细第 3 局" in i.message
    assert "下家" in i.message and "（乙方）" in i.message

    # defenders took over without going up (80–115): still the other side deals next
    flat = [_cells(_detail("甲", 80, n=1), 1), _cells(_detail("甲", 0, n=2), 2)]
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "2", "庄家": "甲"}, details=flat)
    assert results == [] and i.cell == "E3" and "下家" in i.message

    # C4: a wrong card count sends the other side up, and that side deals next
    c4 = [_cells(_detail("甲", 0, wrong="甲", n=1), 1), _cells(_detail("甲", 0, n=2), 2)]
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "3", "庄家": "甲"}, details=c4)
    assert results == [] and i.cell == "E3"
    c4[1] = _cells(_detail("乙", 0, n=2), 2)
    (res,), issues = sheet(G).parse({"甲方级数": "2", "乙方级数": "6", "庄家": "乙"}, details=c4)
    assert issues == [] and res.sides[1].outcome == Outcome.WIN


def test_R2020_F3_equal_match_points_leave_a_knockout_match_undecided(sheet):
    """R2020-F3 with the points overridden so that equal levels score alike
    (``points: {win_equal: 2, loss_equal: 2}``): 5:5 is no win for either side — it sent
    乙 through a knockout without a word.  The result is a draw on those points, so a
    knockout waits for its 加赛 (淘汰赛对局未分胜负) and a round robin scores it 2:2."""
    from pipeline.draw.base import EventState
    from pipeline.draw.common import PlayoffWaiting, winner_of
    from pipeline.model import Round

    (res,), issues = sheet(G).parse({"甲方级数": "5", "乙方级数": "5", "庄家": "甲"},
                                    points={"win_equal": 2, "loss_equal": 2})
    assert issues == []
    assert res.winner() is None
    assert [(s.outcome, s.points) for s in res.sides] == [(Outcome.DRAW, 2), (Outcome.DRAW, 2)]
    state = EventState("ev", [])
    state.rounds.append(Round("ev", res.match.stage, "淘汰赛", 1, (res.match,)))
    state.results[res.match.key] = res
    with pytest.raises(PlayoffWaiting, match="未分胜负"):
        winner_of(state, res.match)


def test_R2020_F3_different_levels_decide_even_when_the_points_do_not(sheet):
    """R2020-F3: at time the higher level wins; points that do not tell it (win = loss)
    still leave the higher level the winner, not 乙 by default."""
    (res,), _ = sheet(G).parse({"甲方级数": "K", "乙方级数": "5"}, points={"win": 1, "loss": 1})
    assert res.winner() == res.match.sides[0]
    assert [s.points for s in res.sides] == [1, 1]
