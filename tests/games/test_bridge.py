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


def test_a_refused_score_is_said_once_not_again_as_a_missing_board():
    """南北得分 "EW 50" on board 1: refused at its cell, then 缺少牌号 1 的南北得分 was said at
    board 2's cell, which was fine (from an audit of result sheets)."""
    rnd, rows = _round([("EW 50", -100), (420, 50)])
    _, issues = G.parse_round(rnd, rows, {}, {})
    assert len(issues) == 1 and "缺少牌号" not in issues[0].message, [i.message for i in issues]


def test_R2015_F1_a_pair_that_does_not_come_leaves_its_table_out():
    """Table 3's EW pair does not come (弃权 on one of its rows): tables 1, 2 and 4 are
    matchpointed among themselves (top 4 a board), table 3's NS pair gets the average (2 a
    board), the absent pair nothing — the round no longer waits for boards never played."""
    labels = LABELS + ["弃权"]
    matches = [make_match(t + 1) for t in range(4)]
    scores = [(420, -100), (420, 50), None, (170, 110)]
    rows = []
    for m, sc in zip(matches, scores):
        for b in (1, 2):
            values = {"牌号": b, "南北得分": None, "弃权": "乙方弃权" if b == 1 else None} if sc is None else \
                {"牌号": b, "南北得分": sc[b - 1]}
            rows.append(make_row(m, values, labels))
    rnd = make_round(matches, boards=[1, 2])
    results, issues = G.parse_round(rnd, rows, {}, {})
    assert issues == []
    by_table = {r.match.table: r for r in results}
    assert [x.outcome for x in by_table[3].sides] == [Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS]
    assert [x.points for x in by_table[3].sides] == [4, 0]          # 2 boards × (3 tables played − 1)
    # board 1 NS among 420, 420, 170 → 3, 3, 0; board 2 among -100, 50, 110 → 0, 2, 4
    assert [x.points for x in by_table[1].sides] == [3, 5] and [x.points for x in by_table[4].sides] == [4, 4]
    played = [r for r in results if r.match.table != 3]
    assert sum(x.points for r in played for x in r.sides) == 2 * 2 * 3 * 2


def test_R2015_F1_a_forfeit_beside_scores_is_asked_about_not_taken():
    """弃权 chosen on a table that also has its boards' scores: the forfeit was taken and the
    scores dropped without a word.  The referee is asked which it is, and the round waits."""
    labels = LABELS + ["弃权"]
    matches = [make_match(t + 1) for t in range(3)]
    rows = [make_row(m, {"牌号": b, "南北得分": s, "弃权": "乙方弃权" if (m.table, b) == (2, 1) else None}, labels)
            for m, sc in zip(matches, [(420, -100), (420, 50), (170, 110)]) for b, s in zip((1, 2), sc)]
    results, issues = G.parse_round(make_round(matches, boards=[1, 2]), rows, {}, {})
    assert results == []
    (bad,) = issues
    assert bad.code == "RESULT_INVALID" and "第2桌" in bad.message and "两者矛盾" in bad.message
    assert bad.cell.startswith("F")          # the 弃权 cell
