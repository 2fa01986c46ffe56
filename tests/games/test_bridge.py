"""Bridge pairs: matchpoints per board across the round's tables."""
from pipeline.games import GAMES
from pipeline.games.bridge import ew_matchpoints, matchpoints
from pipeline.model import Outcome

from games_helpers import make_match, make_round, make_row

G = GAMES.get("桥牌")
LABELS = ["牌号", "南北得分"]


def test_matchpoints_on_a_four_table_board():
    ns = matchpoints([420, 420, -50, 170])
    assert ns == [5, 5, 0, 2]
    assert ew_matchpoints(ns) == [1, 1, 6, 4]
    assert sum(ns) == 4 * 3


def _round(scores_by_table, boards=(1, 2)):
    matches = [make_match(t + 1) for t in range(len(scores_by_table))]
    rows = [make_row(m, {"牌号": b, "南北得分": s}, LABELS)
            for m, scores in zip(matches, scores_by_table) for b, s in zip(boards, scores)]
    return make_round(matches, boards=list(boards)), rows


def test_round_results_per_table():
    rnd, rows = _round([(420, -100), (420, 50), (-50, -100), (170, 110)])
    results, issues = G.parse_round(rnd, rows, {}, {})
    assert issues == []
    by_table = {r.match.table: r for r in results}
    # board 1 NS: 5 5 0 2; board 2 NS: -100,50,-100,110 → 1,4,1,6
    assert [x.points for x in by_table[1].sides] == [6, 6]
    assert by_table[1].sides[0].outcome == Outcome.DRAW
    assert [x.score for x in by_table[2].sides] == [9, 3]
    assert by_table[2].sides[0].outcome == Outcome.WIN
    assert [x.points for x in by_table[3].sides] == [1, 11]
    assert sum(x.points for r in results for x in r.sides) == 2 * 2 * 4 * 3


def test_incomplete_round_gives_no_results_yet():
    rnd, rows = _round([(420, -100), (420, None), (-50, -100)])
    results, (i,) = G.parse_round(rnd, rows, {}, {})
    assert results == [] and i.code == "RESULT_INVALID" and "牌号 2" in i.message and i.cell == "E3"


def test_blank_round():
    rnd, rows = _round([(None, None), (None, None)])
    assert G.parse_round(rnd, rows, {}, {}) == ([], [])


def test_board_not_in_round_and_bad_score():
    rnd, rows = _round([(420, -100), (420, 55)], boards=(1, 2))
    rows.append(make_row(rnd.matches[0], {"牌号": 7, "南北得分": 100}, LABELS))
    _, issues = G.parse_round(rnd, rows, {}, {})
    msgs = " ".join(i.message for i in issues)
    assert "10 的倍数" in msgs and '牌号 "7"' in msgs
