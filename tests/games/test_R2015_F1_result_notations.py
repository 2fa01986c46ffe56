"""Results written the usual way on a Go / Xiangqi / bridge sheet (audit t2015-tcm, R2015-F1,
R2011-F3): draw notations (½, 1/2), Go's 黑中盘胜 / B+R / W+2.5, Xiangqi's 红胜 / 黑胜 — 甲方
moves first (执黑先行 / 执红先行) — and a passed-out bridge board (四家都不叫)."""
import dataclasses

import pytest

from pipeline.games import GAMES
from pipeline.games.base import ResultRow
from pipeline.model import CellRef, Outcome, Severity

from games_helpers import make_match, make_round

GO, XQ, BRIDGE = GAMES.get("围棋"), GAMES.get("象棋"), GAMES.get("桥牌")


@pytest.mark.parametrize("game", [GO, XQ], ids=["go", "xiangqi"])
@pytest.mark.parametrize("typed", ["½", "1/2", "１/２", "½-½", "1/2-1/2", "0.5:0.5", "和局"])
def test_R2011_F3_draw_notations_are_a_draw(sheet, game, typed):
    """½ and 1/2 (half a point each) typed as the result: 和棋 (Go and Xiangqi both have
    draws here: 三劫循环 / 议和), as 和 and 平局 were."""
    (res,), issues = sheet(game).parse({"结果": typed})
    assert issues == [], [i.message for i in issues]
    assert [x.outcome for x in res.sides] == [Outcome.DRAW, Outcome.DRAW]


@pytest.mark.parametrize("typed,winner", [
    ("黑中盘胜", 0), ("B+R", 0), ("白胜3/4子", 1), ("W+2.5", 1), ("黑胜", 0), ("白中盘胜", 1),
    ("b+resign", 0), ("W+T", 1), ("黑胜1目半", 0), ("白方胜", 1), ("黑負", 1)])
def test_R2015_F1_go_colour_results_read_by_who_holds_black(sheet, typed, winner):
    """甲方执黑先行: 黑…胜 / B+… is 甲胜, 白…胜 / W+… 乙胜 — with a note on the cell saying how
    it was read (it was refused with only 请从下拉列表中选择)."""
    (res,), issues = sheet(GO).parse({"结果": typed})
    assert res.winner() == res.match.sides[winner]
    (note,) = issues
    assert note.severity == Severity.INFO and note.cell == "D2", note
    side = "甲方（执黑）" if winner == 0 else "乙方（执白）"
    assert f"按{side}胜计" in note.message and typed in note.message, note.message


def test_R2015_F1_go_colours_follow_the_match_first_move(sheet):
    """The colour follows ``Match.first``: when 乙方 holds black, 黑胜 is 乙胜."""
    s = sheet(GO)
    row = s.row({"结果": "黑中盘胜"})
    row = dataclasses.replace(row, match=dataclasses.replace(row.match, first=1))
    (res,), (note,) = s.parse_rows([row])
    assert res.winner() == row.match.sides[1] and "乙方（执黑）" in note.message


@pytest.mark.parametrize("typed,winner", [("红胜", 0), ("黑胜", 1), ("红方胜", 0), ("紅勝", 0), ("红先胜", 0)])
def test_R2015_F1_xiangqi_red_is_the_first_side(sheet, typed, winner):
    """象棋 甲方执红先行: 红胜 is 甲胜, 黑胜 乙胜 (not Go's black)."""
    (res,), (note,) = sheet(XQ).parse({"结果": typed})
    assert res.winner() == res.match.sides[winner]
    side = "甲方（执红）" if winner == 0 else "乙方（执黑）"
    assert f"按{side}胜计" in note.message, note.message


def test_R2015_F1_xiangqi_red_first_draw(sheet):
    (res,), issues = sheet(XQ).parse({"结果": "红先和"})
    assert issues == [] and [x.outcome for x in res.sides] == [Outcome.DRAW, Outcome.DRAW]


def test_R2015_F1_colour_result_keeps_the_reason_check(sheet):
    (res, issues) = sheet(GO).parse({"结果": "黑中盘胜", "原因": "三劫循环"})
    assert res == [] and any(i.code == "RESULT_INVALID" and "不符" in i.message for i in issues)


@pytest.mark.parametrize("game,typed,told", [(GO, "红胜", "甲方执黑先行"), (XQ, "白胜", "甲方执红先行"),
                                             (GO, "黑方赢了", "甲方执黑先行"), (GO, "B+F", "甲方执黑先行")])
def test_R2015_F1_an_unread_colour_result_says_who_holds_which(sheet, game, typed, told):
    """A colour result the game cannot read is refused with who holds which colour, so the
    referee knows which choice to pick."""
    results, (i,) = sheet(game).parse({"结果": typed})
    assert results == [] and i.code == "RESULT_INVALID" and told in i.message, i.message


# -- bridge: a passed-out board (四家都不叫) ------------------------------------------------
def _bridge_rows(tables, boards=(4, 5, 6)):
    """``tables``: per table, a score per board (None: blank); each row its own line."""
    labels = ["牌号", "南北得分"]
    matches = [make_match(t + 1) for t in range(len(tables))]
    rows, line = [], 8
    for m, scores in zip(matches, tables):
        for b, s in zip(boards, scores):
            cells = {l: CellRef("r.xlsx", "成绩", f"{'FG'[i]}{line}") for i, l in enumerate(labels)}
            rows.append(ResultRow(m, {"牌号": b, "南北得分": s}, cells))
            line += 1
    return make_round(matches, boards=list(boards)), rows


def test_R2015_F1_missing_board_is_said_at_its_own_row():
    """Table 2's board 6 left blank: said at board 6's cell (G13), not board 4's (G11), with
    how to write a passed-out board."""
    rnd, rows = _bridge_rows([(420, -50, 140), (450, -50, None)])
    results, (i,) = BRIDGE.parse_round(rnd, rows, {}, {})
    assert results == [] and i.cell == "G13" and "牌号 6" in i.message, (i.cell, i.message)
    assert "四家都不叫" in i.message and "0" in i.message


@pytest.mark.parametrize("typed", ["-", "—", "－", "PASS", "pass", "全不叫"])
def test_R2015_F1_passed_out_board_is_zero(typed):
    rnd, rows = _bridge_rows([(420, -50, 140), (450, -50, typed)])
    results, issues = BRIDGE.parse_round(rnd, rows, {}, {})
    assert len(results) == 2
    assert results[1].detail["boards"][6] == 0
    (note,) = issues
    assert note.severity == Severity.INFO and note.cell == "G13" and "四家都不叫" in note.message, note


def test_R2015_F1_not_a_score_says_how_to_write_a_passed_out_board():
    rnd, rows = _bridge_rows([(420, -50, 140), (450, -50, "没打")])
    _, (i,) = BRIDGE.parse_round(rnd, rows, {}, {})
    assert i.code == "RESULT_INVALID" and i.cell == "G13" and "四家都不叫" in i.message, i.message
