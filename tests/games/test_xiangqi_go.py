"""Xiangqi and Go: result + reason dropdowns (R2011-F3), forfeits, blank and partial rows."""
from pipeline.games import GAMES
from pipeline.model import Outcome


def test_R2011_F3_checkmate_win(sheet):
    s = sheet(GAMES.get("象棋"))
    results, issues = s.parse({"结果": "甲胜", "原因": "将死"})
    assert issues == []
    (res,) = results
    assert [x.outcome for x in res.sides] == [Outcome.WIN, Outcome.LOSS]
    assert [x.points for x in res.sides] == [2, 0]
    assert [x.score for x in res.sides] == [2, 0]
    assert res.reason == "将死"
    assert res.winner() == res.match.sides[0]


def test_R2011_F1_three_one_zero_points_from_event(sheet):
    s = sheet(GAMES.get("xiangqi"))
    results, _ = s.parse({"结果": "和棋", "原因": "循环不变作和"}, points={"win": 3, "draw": 1, "loss": 0})
    assert [x.points for x in results[0].sides] == [1, 1]
    assert [x.score for x in results[0].sides] == [1, 1]
    results, _ = s.parse({"结果": "乙胜", "原因": "认输"}, points={"win": 3, "draw": 1, "loss": 0})
    assert [x.points for x in results[0].sides] == [0, 3]


def test_R2011_F3_draw_cannot_be_checkmate(sheet):
    s = sheet(GAMES.get("xiangqi"))
    results, issues = s.parse({"结果": "和棋", "原因": "将死"})
    assert results == []
    (i,) = issues
    assert i.code == "RESULT_INVALID" and i.cell == "E2" and "将死" in i.message and "和棋" in i.message


def test_R2011_R1_forfeits(sheet):
    s = sheet(GAMES.get("xiangqi"))
    (res,), issues = s.parse({"结果": "乙方弃权"})
    assert issues == []
    assert [x.outcome for x in res.sides] == [Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS]
    assert [x.points for x in res.sides] == [2, 0]
    (res,), _ = s.parse({"结果": "双方弃权", "原因": "弃权"})
    assert [x.outcome for x in res.sides] == [Outcome.ABSENT, Outcome.ABSENT]
    assert res.winner() is None


def test_forfeit_reason_needs_forfeit_result(sheet):
    s = sheet(GAMES.get("xiangqi"))
    results, (i,) = s.parse({"结果": "甲胜", "原因": "弃权"})
    assert results == [] and "乙方弃权" in i.message


def test_blank_row_is_not_yet_played(sheet):
    s = sheet(GAMES.get("xiangqi"))
    assert s.parse({"结果": None, "原因": "  "}) == ([], [])


def test_partial_row_names_missing_cell(sheet):
    s = sheet(GAMES.get("xiangqi"))
    results, (i,) = s.parse({"结果": "", "原因": "将死"})
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "D2" and "“结果”未填写" in i.message


def test_bad_choice_quotes_value(sheet):
    s = sheet(GAMES.get("xiangqi"))
    # (红胜 was the example: it is read now, as 甲胜 — 甲方执红: test_R2015_F1_result_notations)
    _, (i,) = s.parse({"结果": "甲赢"})
    assert '"甲赢"' in i.message and "下拉" in i.message


def test_traditional_and_fullwidth_values(sheet):
    s = sheet(GAMES.get("圍棋"))
    (res,), issues = s.parse({"结果": " 乙勝 ", "原因": "數子勝"})
    assert issues == [] and res.sides[1].outcome == Outcome.WIN and res.reason == "数子胜"


def test_go_reasons(sheet):
    s = sheet(GAMES.get("go"))
    _, (i,) = s.parse({"结果": "和棋", "原因": "中盘胜"})
    assert i.code == "RESULT_INVALID"
    (res,), _ = s.parse({"结果": "和棋", "原因": "和棋"})
    assert res.sides[0].outcome == Outcome.DRAW


def test_tiebreak_defaults():
    x = GAMES.get("xiangqi")
    assert x.default_tiebreaks == ("buchholz", "progressive", "wins", "black_wins", "direct")
    assert x.tiebreaks_for("round_robin") == ("direct", "wins", "sonneborn_berger", "playoff")
