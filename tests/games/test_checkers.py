"""Checkers best of three (R2020-F2)."""
import pytest

from pipeline.games import GAMES
from pipeline.model import Outcome


@pytest.mark.parametrize("a,b,winner", [(2, 0, 0), (2, 1, 0), (0, 2, 1), (1, 2, 1)])
def test_R2020_F2_best_of_three(sheet, a, b, winner):
    s = sheet(GAMES.get("跳棋"))
    (res,), issues = s.parse({"甲方胜局": a, "乙方胜局": b})
    assert issues == []
    assert res.sides[winner].outcome == Outcome.WIN
    assert [x.score for x in res.sides] == [a, b]
    assert res.sides[winner].points == 2 and res.sides[1 - winner].points == 0


@pytest.mark.parametrize("a,b", [(2, 2), (3, 1), (1, 1), (0, 0), (3, 0)])
def test_R2020_F2_invalid_counts(sheet, a, b):
    s = sheet(GAMES.get("checkers"))
    results, (i,) = s.parse({"甲方胜局": a, "乙方胜局": b})
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "D2"


def test_R2020_F2_four_games_message(sheet):
    _, (i,) = sheet(GAMES.get("checkers")).parse({"甲方胜局": 2, "乙方胜局": 2})
    assert "共 4 局" in i.message


def test_missing_cell(sheet):
    _, (i,) = sheet(GAMES.get("checkers")).parse({"甲方胜局": 2, "乙方胜局": None})
    assert i.cell == "E2" and "乙方胜局" in i.message


def test_forfeit(sheet):
    (res,), _ = sheet(GAMES.get("checkers")).parse({"弃权": "甲方弃权"})
    assert res.sides[0].outcome == Outcome.FORFEIT_LOSS and res.sides[1].score == 2


@pytest.mark.parametrize("game,values", [
    ("checkers", {"甲方胜局": 0, "乙方胜局": 2, "弃权": "乙方弃权"}),
    ("shuangsheng", {"甲方级数": "K", "乙方级数": "5", "弃权": "甲方弃权"}),
    ("guandan", {"甲方级数": "Q", "乙方级数": "8", "弃权": "甲方弃权"}),
])
def test_a_forfeit_beside_a_played_score_is_asked_about(sheet, game, values):
    """弃权 chosen and the score filled too (0:2, 乙方弃权): it was scored as the forfeit, and
    the player who had won 2:0 went out.  The referee is asked which it is, at the 弃权 cell."""
    results, issues = sheet(GAMES.get(game)).parse(values)
    assert results == []
    bad = [i for i in issues if "两者矛盾" in i.message]
    assert bad and bad[0].code == "RESULT_INVALID"


def test_a_score_typed_in_one_cell_is_said_where_it_is(sheet):
    """"2:1" in 甲方胜局 (or the time 02:01 Excel made of it) with 乙方胜局 blank was said only as
    “乙方胜局”未填写; 3:0 was "未分出胜负"; the range said 0–3 where the sheet allows 0–2."""
    import datetime as dt

    for typed in ("2:1", dt.time(2, 1)):
        _, issues = sheet(GAMES.get("checkers")).parse({"甲方胜局": typed, "乙方胜局": None})
        cells = {i.cell: i.message for i in issues}
        assert "D2" in cells and "不要填在一格里" in cells["D2"] and "E2" in cells, cells
    _, (i,) = sheet(GAMES.get("checkers")).parse({"甲方胜局": 3, "乙方胜局": 0})
    assert "超出范围" in i.message and "0–2" in i.message and "未分出胜负" not in i.message


@pytest.mark.parametrize("game,values", [
    ("checkers", {"甲方胜局": 2, "乙方胜局": 0, "弃权": "乙方弃权"}),      # the forfeit's own score
    ("guandan", {"过A方": "无", "弃权": "甲方弃权"}),                     # 无: as blank
])
def test_a_forfeit_beside_what_it_gives_or_a_blank_choice_stands(sheet, game, values):
    (res,), issues = sheet(GAMES.get(game)).parse(values)
    assert issues == [] and any(s.outcome == Outcome.FORFEIT_WIN for s in res.sides)


def _checkers_results(tables):
    """(round, 甲, 乙, values) → the checkers game's results of those rows."""
    from games_helpers import make_row, make_round
    from pipeline.model import Match

    game = GAMES.get("checkers")
    labels = [c.label for c in game.columns({})]
    out = []
    for rnd, a, b, values in tables:
        row = make_row(Match("ev", "s", rnd, "", 1, (a, b)), values, labels)
        results, issues = game.parse_round(make_round([row.match]), [row], {}, {})
        assert issues == []
        out.extend(results)
    return out


def test_R2020_F2_wins_tiebreak_counts_games_won_over_the_board():
    """R2020-F2 (三局二胜): 胜局数 is the games won, summed over the matches — counting
    matches won, it was the same for everyone tied on points and never broke a tie.  A
    forfeit win is no game won over the board (FIDE C.07 "WON"), a bye none either."""
    from pipeline.score import TIEBREAKS
    from pipeline.score.table import ScoreTable

    res = _checkers_results([(1, "a", "b", {"甲方胜局": 2, "乙方胜局": 1}),
                             (2, "c", "a", {"甲方胜局": 1, "乙方胜局": 2}),
                             (3, "b", "c", {"弃权": "乙方弃权"})])
    table = ScoreTable(_rounds(res), res)
    wins = TIEBREAKS.get("胜局数")
    assert {e: wins.value(table, e) for e in "abc"} == {"a": 4, "b": 1, "c": 1}


def _rounds(results):
    from pipeline.model import Round
    return [Round("ev", "s", "循环赛", r.match.round, (r.match,)) for r in results]


def test_R2020_F2_games_won_separate_a_cyclic_tie_and_direct_orders_the_rest():
    """R2020-F2 + R2020-F4, the t2020 audit's cycle: u 2:0 s, z 2:1 u, s 2:1 z — all on 2
    points, 直胜 all equal; games won s 2, z 3, u 3 put s third, and 直胜 between z and u
    (z won) orders them.  Counting matches won, all three were flagged for a 加赛."""
    from pipeline.score.standings import compute_standings

    res = _checkers_results([(1, "u", "s", {"甲方胜局": 2, "乙方胜局": 0}),
                             (2, "z", "u", {"甲方胜局": 2, "乙方胜局": 1}),
                             (3, "s", "z", {"甲方胜局": 2, "乙方胜局": 1})])
    rows = compute_standings("suz", _rounds(res), res, GAMES.get("checkers").default_tiebreaks,
                             playoff_places=3)
    assert [(r.entry, r.rank) for r in rows] == [("z", 1), ("u", 2), ("s", 3)]
    assert not any(r.playoff_required for r in rows)
    assert {r.entry: r.tiebreaks["wins"] for r in rows} == {"s": 2, "z": 3, "u": 3}
