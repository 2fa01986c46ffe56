"""A 象棋 / 围棋 result written as a score pair (R2011-F3, R2015-F1; audit 39 finding 4): "1-0",
"1:0", "1：0" is 甲胜 and "0-1" 乙胜 — the first number is the first-named side's, 甲方 (the
sheet's column order), whoever held red or black — with a note (``RESULT_READ_AS``) saying
so; "½-½", "0.5-0.5", "1/2-1/2" is 和棋.  A pair no game result gives ("2-0", "1-1") stays
RESULT_INVALID at its cell, naming the writings read.  The same result written as a pair and
as the choice is one result (RESULT_CONFLICT: :func:`pipeline.games.common.cell_reading`)."""
import dataclasses
import datetime as dt

import pytest

from games_helpers import make_match, make_row
from pipeline.games import GAMES
from pipeline.games.common import cell_reading
from pipeline.model import Outcome, Severity
from pipeline.run import _same_cell

GO, XQ, CHECKERS = GAMES.get("围棋"), GAMES.get("象棋"), GAMES.get("跳棋")


@pytest.mark.parametrize("game", [XQ, GO], ids=["xiangqi", "go"])
@pytest.mark.parametrize("typed,winner", [
    ("1-0", 0), ("1:0", 0), ("1：0", 0), ("１－０", 0), ("1 - 0", 0), ("1比0", 0), ("1–0", 0),
    ("0-1", 1), ("0:1", 1), ("0：1", 1), ("０：１", 1)])
def test_R2011_F3_score_pair_is_the_first_named_sides_win(sheet, game, typed, winner):
    (res,), issues = sheet(game).parse({"结果": typed})
    assert res.winner() == res.match.sides[winner]
    assert [x.score for x in res.sides] == ([2, 0] if winner == 0 else [0, 2])
    (note,) = issues
    assert note.code == "RESULT_READ_AS" and note.severity == Severity.INFO and note.cell == "D2", note
    side = "甲方" if winner == 0 else "乙方"
    assert typed.strip() in note.message and f"按{side}胜计" in note.message, note.message
    assert "甲方" in note.message and "乙方" in note.message and "顺序" in note.message, note.message


@pytest.mark.parametrize("game", [XQ, GO], ids=["xiangqi", "go"])
@pytest.mark.parametrize("typed", ["½-½", "0.5-0.5", "1/2-1/2", "½：½", "0.5:0.5", "½–½", "1/2:1/2"])
def test_R2011_F3_half_each_pair_is_a_draw(sheet, game, typed):
    (res,), issues = sheet(game).parse({"结果": typed})
    assert issues == [], [i.message for i in issues]
    assert [x.outcome for x in res.sides] == [Outcome.DRAW, Outcome.DRAW]


@pytest.mark.parametrize("game", [XQ, GO], ids=["xiangqi", "go"])
@pytest.mark.parametrize("typed", ["2-0", "1-1", "0-0", "1-½", "2:1", "0.5-0", "3比0"])
def test_R2011_F3_a_pair_no_result_gives_is_refused_at_its_cell(sheet, game, typed):
    results, (i,) = sheet(game).parse({"结果": typed})
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "D2", i
    assert typed in i.message and "第1轮" in i.message, i.message
    for told in ("1-0", "0-1", "½-½", "甲胜", "乙胜", "和棋"):
        assert told in i.message, (told, i.message)


def test_R2011_F3_pair_is_by_column_order_not_colour(sheet):
    """乙方 holds red at this table (Match.first = 1): "1-0" is still 甲方's win — the sheet's
    first-named side — and the note says who held red, so the referee can check."""
    s = sheet(XQ)
    row = s.row({"结果": "1-0"})
    row = dataclasses.replace(row, match=dataclasses.replace(row.match, first=1))
    (res,), (note,) = s.parse_rows([row])
    assert res.winner() == row.match.sides[0]
    assert "按甲方胜计" in note.message and "乙方执红" in note.message, note.message


def test_R2011_F3_pair_keeps_the_reason_check(sheet):
    results, issues = sheet(XQ).parse({"结果": "1-0", "原因": "议和"})
    assert results == [] and any(i.code == "RESULT_INVALID" and "不符" in i.message for i in issues)
    (res,), (note,) = sheet(XQ).parse({"结果": "0-1", "原因": "将死"})
    assert res.reason == "将死" and note.code == "RESULT_READ_AS"


def test_R2011_F3_excel_time_of_a_pair_is_read_as_the_pair(sheet):
    """"1:0" typed in Excel is stored as the time 01:00 (and "0:1" as 00:01)."""
    (res,), (note,) = sheet(XQ).parse({"结果": dt.time(1, 0)})
    assert res.winner() == res.match.sides[0] and "1:0" in note.message, note.message
    (res,), _ = sheet(XQ).parse({"结果": dt.time(0, 1)})
    assert res.winner() == res.match.sides[1]
    results, (i,) = sheet(XQ).parse({"结果": dt.time(2, 0)})
    assert results == [] and i.code == "RESULT_INVALID" and "1-0" in i.message


def test_R2011_F3_elapsed_time_of_a_pair_is_read_as_the_pair(sheet):
    """A cell formatted as elapsed time ([h]:mm) keeps "1:0" as a duration of one hour (a
    review of the first version: the time of an h:mm cell was read, the duration refused)."""
    (res,), (note,) = sheet(XQ).parse({"结果": dt.timedelta(hours=1)})
    assert res.winner() == res.match.sides[0] and "1:00" in note.message and "1:0" in note.message, note.message
    (res,), _ = sheet(XQ).parse({"结果": dt.timedelta(minutes=1)})
    assert res.winner() == res.match.sides[1]
    results, (i,) = sheet(XQ).parse({"结果": dt.timedelta(hours=13, minutes=5)})
    assert results == [] and i.code == "RESULT_INVALID"


@pytest.mark.parametrize("pair,choice", [("1-0", "甲胜"), ("1：0", "甲胜"), ("0-1", "乙胜"), ("½-½", "和棋"),
                                          ("0.5-0.5", "和棋")])
def test_R2011_F3_pair_and_choice_are_one_result(pair, choice):
    """RESULT_CONFLICT: the same result written as a pair and as the choice is not a conflict."""
    m = make_match()
    col = next(c for c in XQ.columns({}) if c.label == "结果")
    a, b = make_row(m, {"结果": pair}), make_row(m, {"结果": choice})
    assert cell_reading(col, a, XQ) == cell_reading(col, b, XQ) == choice
    assert _same_cell(col, a, b, XQ)
    other = "乙胜" if choice == "甲胜" else "甲胜"
    assert not _same_cell(col, a, make_row(m, {"结果": other}), XQ)
    assert cell_reading(col, make_row(m, {"结果": "2-0"}), XQ) != cell_reading(col, b, XQ)


@pytest.mark.parametrize("typed", ["2-1", "1-0", "2:0"])
def test_R2020_F2_checkers_game_score_pair_is_not_read_as_one_number(sheet, typed):
    """跳棋 has no single result cell: a pair typed in 甲方胜局 is still refused, saying where
    each number goes (not read as a win, nor as a number)."""
    results, issues = sheet(CHECKERS).parse({"甲方胜局": typed, "乙方胜局": None})
    assert results == []
    assert any(i.code == "RESULT_INVALID" and "不要填在一格里" in i.message for i in issues), issues


def test_R2011_F3_an_elapsed_time_that_is_no_pair_is_quoted_as_the_cell_shows(sheet):
    """A duration that is no score (25:00, 13:05) is refused quoted as Excel shows it, not as
    Python writes a timedelta ("1 day, 1:00:00") — a review."""
    for value, typed in ((dt.timedelta(hours=25), "25:00"), (dt.timedelta(hours=13, minutes=5), "13:05")):
        results, issues = sheet(XQ).parse({"结果": value})
        assert results == [] and any(f'"{typed}"' in i.message for i in issues), [i.message for i in issues]
        assert not any("day" in i.message for i in issues)
