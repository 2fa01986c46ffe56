"""Handbook RESULT_CONFLICT: a conflict is said at the first cell whose *reading* changed
(:func:`pipeline.games.common.cell_reading`, :func:`pipeline.run._first_change`) — a cell
typed another way that the game reads the same (R2015-F1 黑中盘胜 / 甲胜, 桥牌 PASS / 0,
R2016-F4 10级 / 10) is not where two rows differ."""
from __future__ import annotations

from games_helpers import make_match, make_row
from pipeline.games.bridge import BRIDGE
from pipeline.games.common import cell_reading
from pipeline.games.go import GO
from pipeline.games.guandan import GUANDAN
from pipeline.run import _first_change, _same_cell


def _col(game, label):
    return next(c for c in game.columns({}) if c.label == label)


def test_go_result_by_colour_reads_as_the_choice():
    m = make_match()
    a, b = make_row(m, {"结果": "黑中盘胜", "原因": "中盘胜"}), make_row(m, {"结果": "甲胜", "原因": "超时"})
    assert cell_reading(_col(GO, "结果"), a, GO) == cell_reading(_col(GO, "结果"), b, GO) == "甲胜"
    assert _first_change(a, b, ["结果", "原因"], GO.columns({}), GO) == "原因"
    half = make_row(m, {"结果": "½"})
    assert _same_cell(_col(GO, "结果"), half, make_row(m, {"结果": "和棋"}), GO)
    assert not _same_cell(_col(GO, "结果"), a, make_row(m, {"结果": "乙胜"}), GO)


def test_bridge_pass_reads_as_zero():
    m = make_match()
    col = _col(BRIDGE, "南北得分")
    assert _same_cell(col, make_row(m, {"南北得分": "PASS"}), make_row(m, {"南北得分": 0}), BRIDGE)
    assert not _same_cell(col, make_row(m, {"南北得分": "-"}), make_row(m, {"南北得分": 50}), BRIDGE)


def test_level_with_ji_reads_as_the_level():
    m = make_match()
    labels = ["甲方级数", "乙方级数"]
    a, b = make_row(m, {"甲方级数": "10级", "乙方级数": "Q"}), make_row(m, {"甲方级数": 10, "乙方级数": "K"})
    assert _first_change(a, b, labels, GUANDAN.columns({}), GUANDAN) == "乙方级数"
