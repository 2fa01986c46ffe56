"""Guandan (T2016): R2016-F4 winner, R2016-S1 round score, R2016-C1 level-up and its 明细 replay."""
import pytest

from pipeline.games import GAMES
from pipeline.games.guandan import (Deal, DealStep, failed_attempt_at_a, level_up, play_deal, replay, round_score,
                                    winner_at_time)
from pipeline.model import CellRef, Outcome

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
    assert issues == [] and [x.points for x in res.sides] == [100, 0]      # R2016-S1: past A counts 15, d = 12
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


# -- R2016-C1 level-up per deal, and the optional 明细 (deal by deal) -----------------------
DETAIL_LABELS = ["局号", "头游方", "头游对家名次"]


@pytest.mark.parametrize("partner,up", [(2, 3), (3, 2), (4, 1)])
@pytest.mark.parametrize("level", [2, 5, 9])
def test_R2016_C1_level_up_table(level, partner, up):
    """Partners 1st & 2nd → +3, 1st & 3rd → +2, 1st & 4th → +1."""
    assert level_up(level, partner) == DealStep(level + up)


@pytest.mark.parametrize("level,partner", [(12, 2), (13, 2), (13, 3), (13, 4), (12, 3), (11, 2)])
def test_R2016_C1_a_level_up_stops_at_A(level, partner):
    """A level-up never skips A: Q +3, K +3, K +2, K +1, Q +2, J +3 all land on A, not passed."""
    assert level_up(level, partner) == DealStep(14)
    assert level_up(10, 2) == DealStep(13) and level_up(11, 3) == DealStep(13)


def test_R2016_C1_at_A_only_an_opponent_last_passes():
    """At A, 1st & 2nd or 1st & 3rd (an opponent last) wins the game; 1st & 4th (the partner
    last) is a failed attempt and the side stays at A."""
    assert level_up(14, 2) == DealStep(14, passed_a=True)
    assert level_up(14, 3) == DealStep(14, passed_a=True)
    assert level_up(14, 4) == DealStep(14, passed_a=False, failed_at_a=1)
    # the side whose player did not finish first does not move, even at A
    a, b = play_deal((DealStep(14), DealStep(7)), Deal(1, 2))
    assert a == DealStep(14) and b == DealStep(10)


def test_R2016_C1_three_failed_attempts_at_A_back_to_2():
    assert level_up(14, 4, failed_at_a=0) == DealStep(14, failed_at_a=1)
    assert level_up(14, 4, failed_at_a=1) == DealStep(14, failed_at_a=2)
    assert level_up(14, 4, failed_at_a=2) == DealStep(2)
    assert failed_attempt_at_a(2) == DealStep(2)
    # 甲 climbs to A (4 × +3), fails three times, and is at 2 again; the failures count across
    # the opponents' deals in between
    deals = [Deal(0, 2)] * 4 + [Deal(0, 4), Deal(1, 4), Deal(0, 4), Deal(0, 4)]
    a, b = replay(deals)
    assert a == DealStep(2) and b == DealStep(3)
    # two failures, then a pass with the partner third
    a, _ = replay([Deal(0, 2)] * 4 + [Deal(0, 4), Deal(0, 4), Deal(0, 3)])
    assert a.passed_a and a.level == 14
    with pytest.raises(ValueError):             # 过A不再打: no deal after a pass
        play_deal((DealStep(14, passed_a=True), DealStep(2)), Deal(1, 2))


def _deal(n, first, partner):
    """A 明细 row with cell locations on sheet 明细 (row n + 1, columns D…F)."""
    d = {"局号": n, "头游方": first, "头游对家名次": partner}
    return d | {"_cells": {l: CellRef("r.xlsx", "明细", f"{chr(68 + i)}{n + 1}") for i, l in enumerate(DETAIL_LABELS)}}


def _deals(*rows):
    return [_deal(n, first, partner) for n, (first, partner) in enumerate(rows, 1)]


# 甲 +3 → 5, 乙 +2 → 4, 甲 +1 → 6, 乙 +3 → 7, 甲 +3 → 9: 9 against 7 (d = 2 → 60 : 40)
NINE_SEVEN = _deals(("甲", "二游"), ("乙", "三游"), ("甲", "末游"), ("乙", "二游"), ("甲", "二游"))


def test_R2016_C1_detail_sheet_columns():
    d = G.detail({})
    assert d.name == "明细" and [c.label for c in d.columns] == DETAIL_LABELS
    assert d.columns[2].choices == ("二游", "三游", "末游")


def test_R2016_C1_detail_that_agrees_is_scored(sheet):
    (res,), issues = sheet(G).parse({"甲方级数": "9", "乙方级数": "7"}, details=NINE_SEVEN)
    assert issues == []
    assert [x.points for x in res.sides] == [60, 40]


def test_R2016_C1_detail_that_disagrees_is_total_mismatch(sheet):
    """乙 wrote 8 (it is 7 by the deals): TOTAL_MISMATCH at 乙方级数 (E2), no result."""
    results, (i,) = sheet(G).parse({"甲方级数": "9", "乙方级数": "8"}, details=NINE_SEVEN)
    assert results == []
    assert i.code == "TOTAL_MISMATCH" and i.sheet == "成绩" and i.cell == "E2"
    assert "第1轮 A组 第1桌" in i.message and "“乙方级数”填的是 \"8\"" in i.message and '应为 "7"' in i.message


def test_R2016_C1_detail_aliases(sheet):
    deals = _deals(("甲方", 2), ("乙", "3"), ("甲", "第四名"), ("乙", "2游"), ("甲", "二"))
    (res,), issues = sheet(G).parse({"甲方级数": "9", "乙方级数": "7"}, details=deals)
    assert issues == [] and [x.points for x in res.sides] == [60, 40]


def test_R2016_C1_detail_level_up_stops_at_A(sheet):
    """Q +3 is A, not past it: 甲 at A (not passed) after 2 → 5 → 8 → J → A."""
    deals = _deals(*[("甲", "二游")] * 4)
    (res,), issues = sheet(G).parse({"甲方级数": "A", "乙方级数": "2"}, details=deals)
    assert issues == [] and [x.points for x in res.sides] == [100, 0] and res.reason.startswith("级数")
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "2", "过A方": "甲"}, details=deals)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "F2" and "没有一方过A" in i.message


def test_R2016_C1_detail_pass_at_A_only_with_an_opponent_last(sheet):
    to_a = [("甲", "二游")] * 4
    passed = _deals(*to_a, ("甲", "三游"))
    (res,), issues = sheet(G).parse({"甲方级数": "A", "乙方级数": "2", "过A方": "甲"}, details=passed)
    assert issues == [] and res.reason == "甲方过A"
    # the referee did not mark the pass: said at 过A方, with the deal
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "2", "台上方": "甲"}, details=passed)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "F2"
    assert "“过A方”未填" in i.message and "甲方在第 5 局过A" in i.message
    # partner last at A: no pass, 甲 stays at A
    failed = _deals(*to_a, ("甲", "末游"))
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "2", "过A方": "甲"}, details=failed)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "F2"
    (res,), issues = sheet(G).parse({"甲方级数": "A", "乙方级数": "2"}, details=failed)
    assert issues == []


def test_R2016_C1_detail_three_failures_at_A_back_to_2(sheet):
    deals = _deals(*[("甲", "二游")] * 4, ("甲", "末游"), ("乙", "末游"), ("甲", "末游"), ("甲", "末游"))
    (res,), issues = sheet(G).parse({"甲方级数": "2", "乙方级数": "3"}, details=deals)
    assert issues == [] and [x.points for x in res.sides] == [44, 56]
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "3"}, details=deals)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "D2"
    assert '应为 "2"' in i.message and "第 8 局打A第3次未过" in i.message


def test_R2016_C1_detail_deal_after_a_pass_is_refused(sheet):
    deals = _deals(*[("甲", "二游")] * 4, ("甲", "二游"), ("乙", "二游"))
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "5", "过A方": "甲"}, details=deals)
    assert results == [] and i.code == "RESULT_INVALID" and i.sheet == "明细" and i.cell == "E7"
    assert "明细第 6 局" in i.message and "第 5 局过A" in i.message


def test_R2016_C1_detail_bad_or_half_filled_row(sheet):
    deals = _deals(("甲", "二游"), ("丙", "三游"))
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "2"}, details=deals)
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "E3" and "明细第 2 局" in i.message
    deals = _deals(("甲", "二游"), ("乙", None))
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "2"}, details=deals)
    assert results == [] and i.cell == "F3" and "“头游对家名次”未填写" in i.message


def test_R2016_C1_no_filled_detail_rows_change_nothing(sheet):
    """Pre-numbered rows with nothing else (局号 only) are blank: the levels stand as typed."""
    blank = [_deal(n, None, None) for n in (1, 2, 3)]
    (res,), issues = sheet(G).parse({"甲方级数": "Q", "乙方级数": "8", "台上方": "乙"}, details=blank)
    assert issues == [] and [x.points for x in res.sides] == [68, 32]


def test_R2016_C1_values_from_details(sheet):
    """Levels left blank on 成绩 come from the deals (the runner's totals_from_details)."""
    row = sheet(G).row({})
    assert G.values_from_details(row, NINE_SEVEN, {}, []) == {"甲方级数": "9", "乙方级数": "7"}
    passed = _deals(*[("乙", "二游")] * 5)
    assert G.values_from_details(row, passed, {}, []) == {"甲方级数": "2", "乙方级数": "A", "过A方": "乙"}
    issues = []
    assert G.values_from_details(row, _deals(("丁", "二游")), {}, issues) is None
    assert [i.cell for i in issues] == ["E2"]


# -- R2016-C1 "three failed attempts at A → back to 2": an attempt is a deal played at the
# side's A (each deal at the level of the side first in the deal before), the opponents'
# wins in it included; a deal at the opponents' level is no attempt, and passes no A
def test_R2016_C1_the_opponents_first_in_a_deal_at_my_A_is_a_failed_attempt():
    at_a = (DealStep(14), DealStep(5))
    assert play_deal(at_a, Deal(1, 2), on_stage=0) == (DealStep(14, failed_at_a=1), DealStep(8))
    assert play_deal((DealStep(14, failed_at_a=2), DealStep(5)), Deal(1, 4), on_stage=0) == (DealStep(2), DealStep(6))
    # a deal played at 乙's level: 甲 at A loses nothing, and finishing first there takes the stage only
    assert play_deal(at_a, Deal(1, 2), on_stage=1) == (DealStep(14), DealStep(8))
    assert play_deal(at_a, Deal(0, 2), on_stage=1) == at_a
    # 甲 to A, then 乙 first in three of 甲's A deals (甲 taking the stage back in between): 甲 at 2
    deals = [Deal(0, 2)] * 4 + [Deal(1, 2), Deal(0, 4), Deal(1, 2), Deal(0, 4), Deal(1, 3)]
    assert replay(deals) == (DealStep(2), DealStep(10))
    # 甲 at A wins a deal at 乙's level with the partner second: no pass; the next deal, at 甲's A, passes
    deals = [Deal(0, 2)] * 4 + [Deal(1, 4), Deal(0, 2)]
    assert replay(deals) == (DealStep(14, failed_at_a=1), DealStep(3))
    assert replay([*deals, Deal(0, 3)])[0].passed_a


def test_R2016_C1_detail_failed_attempts_count_the_opponents_first(sheet):
    """甲 reaches A at deal 4; 乙 finishes first in 甲's A deals 5, 7 and 9 (甲 first again at
    乙's level in 6 and 8): three failed attempts, 甲 back to 2 — 2:10.  (Only 甲 first with
    its partner last had counted: 甲 stayed at A.)"""
    deals = _deals(*[("甲", "二游")] * 4, ("乙", "二游"), ("甲", "末游"), ("乙", "二游"), ("甲", "末游"), ("乙", "三游"))
    (res,), issues = sheet(G).parse({"甲方级数": "2", "乙方级数": "10"}, details=deals)
    assert issues == [] and [x.points for x in res.sides] == [52 - 4 * 8 - 4, 48 + 4 * 8 + 4]
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "10"}, details=deals)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "D2"
    assert '应为 "2"' in i.message and "第 9 局打A第3次未过" in i.message
    row = sheet(G).row({})
    assert G.values_from_details(row, deals, {}, []) == {"甲方级数": "2", "乙方级数": "10"}


def test_R2016_C1_detail_no_pass_of_A_at_the_opponents_level(sheet):
    """甲 at A, 乙 first in deal 5 (甲's A deal: a failure), 甲 first with the partner second in
    deal 6 — played at 乙's level: no pass (it had been read as 甲方过A)."""
    deals = _deals(*[("甲", "二游")] * 4, ("乙", "末游"), ("甲", "二游"))
    (res,), issues = sheet(G).parse({"甲方级数": "A", "乙方级数": "3"}, details=deals)
    assert issues == [] and res.reason.startswith("级数")
    results, (i,) = sheet(G).parse({"甲方级数": "A", "乙方级数": "3", "过A方": "甲"}, details=deals)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "F2" and "没有一方过A" in i.message


def test_R2016_F4_on_stage_typed_against_the_detail_is_said(sheet):
    """乙 +3, 甲 +2, 甲 +1: 5:5, the last two deals both 甲's — 甲 was on stage whether time
    came during the last deal or after it; 台上方 乙 is said at its cell, not scored."""
    deals = _deals(("乙", "二游"), ("甲", "三游"), ("甲", "末游"))
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "5", "台上方": "乙"}, details=deals)
    assert results == [] and i.code == "TOTAL_MISMATCH" and i.cell == "G2"
    assert "第 2、3 局" in i.message and "都是甲方头游" in i.message and "台上的是甲方" in i.message
    (res,), issues = sheet(G).parse({"甲方级数": "5", "乙方级数": "5", "台上方": "甲"}, details=deals)
    assert issues == [] and [x.points for x in res.sides] == [52, 48]
    # the last two deals of different sides: either may have been on stage, as typed
    deals = _deals(("甲", "二游"), ("乙", "二游"))
    (res,), issues = sheet(G).parse({"甲方级数": "5", "乙方级数": "5", "台上方": "乙"}, details=deals)
    assert issues == [] and [x.points for x in res.sides] == [48, 52]


@pytest.mark.parametrize("game", ["掼蛋", "双扣"])
def test_past_a_typed_as_a_level_says_to_type_A_and_choose_the_side(sheet, game):
    """过A in a 级数 cell: "请填 2–10、J、Q、K 或 A" left 过A方 blank and the table fell to
    台上方; it says to type A there and choose that side in “过A方” (双扣: “先过A方”)."""
    results, (i,) = sheet(GAMES.get(game)).parse({"甲方级数": "8", "乙方级数": "过A", "台上方": "甲"})
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "E2"
    assert "请在本栏填 A" in i.message and "过A方”选“乙”" in i.message and "不是有效级数" not in i.message


@pytest.mark.parametrize("game,third,extra", [("掼蛋", "台上方", "甲"), ("双升", "庄家", "甲")])
def test_R2016_F4_R2020_F3_a_level_typed_with_ji_is_that_level(sheet, game, third, extra):
    """R2016-F4, R2020-F3: a level typed “10级” / “２级” / “Q级” is that level (it was refused,
    “不是有效级数”); no such level with 级 (“14级”, “1级”) or without it (“14”) is still
    refused at its cell."""
    g = GAMES.get(game)
    (res,), issues = sheet(g).parse({"甲方级数": "10级", "乙方级数": "２级", third: extra})
    assert issues == [], [i.message for i in issues]
    (same,), _ = sheet(g).parse({"甲方级数": "10", "乙方级数": "2", third: extra})
    assert [x.points for x in res.sides] == [x.points for x in same.sides]
    (res,), issues = sheet(g).parse({"甲方级数": "Q级", "乙方级数": " 9 级 ", third: extra})
    assert issues == [], [i.message for i in issues]
    for bad in ("14", "14级", "1级", "级", "10级级"):
        results, (i,) = sheet(g).parse({"甲方级数": bad, "乙方级数": "5", third: extra})
        assert results == [] and i.code == "RESULT_INVALID" and i.cell.startswith("D"), (bad, i)
        assert "不是有效级数" in i.message, i.message
