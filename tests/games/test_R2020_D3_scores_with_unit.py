"""Score cells written with the unit the game counts them in (audit 39 finding 4): 斗地主 "-3分"
(R2020-D3, R2011-D1) was refused as 不是整数 while 掼蛋's "10级" was read.  Every integer a
game reads as points — 斗地主 得分 and 叫分 (叫“1分”), 桥牌 南北得分 (R2015-Q2), 双升 / 双扣
明细 捡分 and 底牌分 (R2020-C1, R2015-C1) — takes a trailing 分, spaces, full-width digits and a
full-width or typographic minus; a count (牌号, 胜局, 警告) takes no 分, and a reading of "-3分"
is the reading of -3 (RESULT_CONFLICT: :func:`pipeline.games.common.cell_reading`)."""
import pytest

from games_helpers import make_match, make_row
from pipeline.games import GAMES
from pipeline.games.common import cell_reading, to_int
from pipeline.model import CellRef
from pipeline.run import _same_cell

DDZ, BRIDGE, CHECKERS = GAMES.get("斗地主"), GAMES.get("桥牌"), GAMES.get("跳棋")
SHUANGSHENG, SHUANGKOU = GAMES.get("双升"), GAMES.get("双扣")


@pytest.mark.parametrize("typed,value", [
    ("-3分", -3), ("－3分", -3), ("－３ 分", -3), (" -3 分 ", -3), ("–3分", -3), ("−3分", -3), ("—3", -3),
    ("3分", 3), ("+3分", 3), ("3.0分", 3)])
def test_R2020_D3_score_with_fen(sheet, typed, value):
    (res,), issues = sheet(DDZ).parse({"甲得分": -3 * value, "乙得分": typed, "丙得分": 2 * value})
    assert issues == [], [i.message for i in issues]
    assert [x.points for x in res.sides] == [-3 * value, value, 2 * value]


@pytest.mark.parametrize("typed", ["3点", "分", "3分3", "3-分", "3分分", "-", "3—", "三分", "--3分"])
def test_R2020_D3_not_a_score_stays_refused(sheet, typed):
    results, issues = sheet(DDZ).parse({"甲得分": 0, "乙得分": typed, "丙得分": 0})
    assert results == [] and any(i.code == "RESULT_INVALID" and i.cell == "E2" and "不是整数" in i.message
                                 for i in issues), [i.message for i in issues]


def test_R2020_D3_absent_seat_with_zero_fen_is_no_contradiction(sheet):
    (res,), issues = sheet(DDZ).parse({"甲得分": "2分", "乙得分": "-2分", "丙得分": "0分", "弃权": "丙"})
    assert not [i for i in issues if i.code == "RESULT_INVALID"], [i.message for i in issues]


def _hand(n, landlord, won, bid=None):
    return {"局号": n, "地主": landlord, "叫分": bid, "炸弹数": None, "春天": None, "反春天": None,
            "地主胜": "是" if won else "否"}


def test_R2011_D1_bid_with_fen(sheet):
    """R2011-D1 叫“1分”、“2分”、“3分”: the bid typed so is the bid."""
    s = sheet(DDZ, {"start_points": 10})
    hands = [_hand(1, "甲", True, bid="2分"), _hand(2, "乙", True, bid="1 分")]
    (res,), issues = s.parse({"甲得分": 13, "乙得分": 10, "丙得分": 7}, details=hands)
    assert issues == [], [i.message for i in issues]


def _board_rows(scores, boards=(1, 2)):
    from games_helpers import make_round
    from pipeline.games.base import ResultRow
    matches = [make_match(t + 1) for t in range(len(scores))]
    rows, line = [], 8
    for m, per in zip(matches, scores):
        for b, s in zip(boards, per):
            cells = {l: CellRef("r.xlsx", "成绩", f"{'FG'[i]}{line}") for i, l in enumerate(("牌号", "南北得分"))}
            rows.append(ResultRow(m, {"牌号": b, "南北得分": s}, cells))
            line += 1
    return make_round(matches, boards=list(boards)), rows


def test_R2015_Q2_bridge_score_with_fen():
    rnd, rows = _board_rows([("420分", "－50分"), (450, "-50")])
    results, issues = BRIDGE.parse_round(rnd, rows, {}, {})
    assert issues == [] and len(results) == 2, [i.message for i in issues]
    assert results[0].detail["boards"] == {1: 420, 2: -50}


def test_R2015_Q2_bridge_board_number_takes_no_fen():
    rnd, rows = _board_rows([(420, -50), (450, -50)], boards=("1分", 2))
    _, issues = BRIDGE.parse_round(rnd, rows, {}, {})
    assert any(i.code == "RESULT_INVALID" and "牌号" in i.message and "不是整数" in i.message for i in issues)


def test_R2020_F2_checkers_games_won_take_no_fen(sheet):
    results, issues = sheet(CHECKERS).parse({"甲方胜局": "2分", "乙方胜局": 0})
    assert results == [] and any(i.code == "RESULT_INVALID" and "不是整数" in i.message for i in issues)


def test_R2020_C1_shuangsheng_detail_points_with_fen(sheet):
    hand = {"局号": 1, "庄家方": "甲", "捡分方得分": "0分", "扣底牌型": "无", "拖拉机对数": None, "底牌分": None,
            "多牌少牌方": "无"}
    (res,), issues = sheet(SHUANGSHENG).parse({"甲方级数": "5", "乙方级数": "2", "庄家": "甲"}, details=[hand])
    assert issues == [], [i.message for i in issues]


def test_R2015_C1_shuangkou_detail_points_with_fen(sheet):
    hand = {"局号": 1, "庄家方": "甲", "闲家得分": "40分", "扣底牌型": "对子", "拖拉机对数": None,
            "底牌分": "20 分", "多牌少牌方": "无", "罚分方": "无", "罚分次数": None}
    # 40 + 20×4 = 120 → 乙 takes over +2 → (2, 4)
    (res,), issues = sheet(SHUANGKOU).parse({"甲方级数": "2", "乙方级数": "4"}, details=[hand])
    assert issues == [], [i.message for i in issues]


def test_R2020_D3_score_with_fen_reads_as_the_number():
    """RESULT_CONFLICT: "-3分" and -3 are one reading; "-3分" and 3 are not."""
    m = make_match(seats=3)
    col = next(c for c in DDZ.columns({}) if c.label == "乙得分")
    a = make_row(m, {"乙得分": "-3分"})
    assert cell_reading(col, a, DDZ) == -3
    assert _same_cell(col, a, make_row(m, {"乙得分": -3}), DDZ)
    assert not _same_cell(col, a, make_row(m, {"乙得分": 3}), DDZ)
    ns = next(c for c in BRIDGE.columns({}) if c.label == "南北得分")
    assert _same_cell(ns, make_row(m, {"南北得分": "－50分"}), make_row(m, {"南北得分": -50}), BRIDGE)
    board = next(c for c in BRIDGE.columns({}) if c.label == "牌号")
    assert cell_reading(board, make_row(m, {"牌号": "1分"}), BRIDGE) != 1


def test_to_int_unit():
    assert to_int("-3分", unit="分") == -3 and to_int("-3分") is None and to_int("3点", unit="分") is None
    assert to_int("－３分", unit="分") == -3 and to_int("分", unit="分") is None
