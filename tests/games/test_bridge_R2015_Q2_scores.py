"""R2015-Q2 bridge: a 南北得分 no contract result can give is refused at its cell.

From an audit of the t2015-tcm sample league: 10, 30, −60, 20, −40 on the referees' result
sheet were accepted with no message, matchpointed, and the next round drawn from them.
(The golden tests use only ``parse_round``, so they fail on the old code by their asserts.)
"""
import pytest

from pipeline.games import GAMES

from games_helpers import make_match, make_round, make_row

G = GAMES.get("桥牌")
LABELS = ["牌号", "南北得分"]


def _parse(scores_by_table, boards=(1, 2, 3)):
    matches = [make_match(t + 1) for t in range(len(scores_by_table))]
    rows = [make_row(m, {"牌号": b, "南北得分": s}, LABELS)
            for m, scores in zip(matches, scores_by_table) for b, s in zip(boards, scores)]
    return G.parse_round(make_round(matches, boards=list(boards)), rows, {}, {})


@pytest.mark.parametrize("score", [10, 20, 30, 40, 60, -60, -40, -10, 7590, 2990, -7590])
def test_R2015_Q2_an_impossible_ns_score_is_refused_at_its_cell(score):
    """One impossible score: RESULT_INVALID at its cell, in Chinese, with the nearest legal
    scores; the round waits (no table is matchpointed from it), as for any refused cell."""
    results, issues = _parse([(420, score, -50), (110, -100, 50), (-620, 90, 170)])
    assert results == []
    (bad,) = issues
    assert bad.code == "RESULT_INVALID"
    assert bad.cell == "E2" and bad.sheet == "成绩"          # table 1, board 2: its 南北得分 cell
    assert f"南北得分 {score} 不是桥牌可能出现的得分" in bad.message and "最接近的可能得分" in bad.message
    assert "牌号 2" in bad.message and "第1桌" in bad.message and "请按记分表核对后改正" in bad.message
    assert "缺少牌号" not in bad.message


def test_R2015_Q2_the_hint_names_the_nearest_legal_scores():
    _, (bad,) = _parse([(420, 30, -50), (110, -100, 50)])
    assert "（最接近的可能得分：0、50、70）" in bad.message
    _, (bad,) = _parse([(420, -60, -50), (110, -100, 50)])
    assert "（最接近的可能得分：-80、-70、-50）" in bad.message


def test_R2015_Q2_the_auditors_sheet_every_impossible_cell_is_said():
    """The audited sheet (10, 30, −60, 20, −40 among legal scores, two of them typed full-width):
    one issue per impossible cell, none for the legal ones."""
    _, issues = _parse([(10, 30, -60), (420, "－５０", 110), (20, "４２０", -40)])
    assert len(issues) == 5 and all(i.code == "RESULT_INVALID" for i in issues), [i.message for i in issues]
    said = sorted(int(i.message.split("南北得分 ")[1].split(" ")[0]) for i in issues)
    assert said == [-60, -40, 10, 20, 30]


def test_R2015_Q2_legal_scores_full_width_and_text_still_read():
    """Scores from the duplicate table (both vulnerabilities, either side declaring, passed
    out) are taken; full-width digits and minus signs typed as text still parse."""
    results, issues = _parse([(0, "－５０", "４２０"), (-1100, 3160, "-7600"), (1440, -2220, 800)])
    assert issues == [], [i.message for i in issues]
    assert len(results) == 3


def test_R2015_Q2_the_legal_scores_match_the_duplicate_table():
    """Spot values from the duplicate scoring table, each way."""
    from pipeline.games.bridge import declarer_scores, legal_ns_scores
    nv, vul = declarer_scores(False), declarer_scores(True)
    # made: 1♣ 70, 1NT 90, 2♥ 110, 3NT 400/600, 4♠ 420/620, 5♦ 400/600, 6NT 990/1440, 7NT 1520/2220,
    # 2♥X 470/670, 1NT XX +6 1760/3160, 1♣X 140, 7NT XX 2980 vulnerable
    for s in (70, 90, 110, 400, 420, 990, 1520, 470, 140, 1760):
        assert s in nv, s
    for s in (600, 620, 1440, 2220, 670, 3160, 2980):
        assert s in vul, s
    assert 620 not in nv and 420 not in vul and 2980 not in nv
    # down: undoubled 50/100 a trick; doubled nv 100, 300, 500, 800, 1100; vul 200, 500, 800, 1100
    for s in (50, 100, 150, 300, 500, 800, 1100, 1400, 3500):
        assert -s in nv, s
    for s in (100, 200, 500, 800, 1100, 1000, 1600, 7600):
        assert -s in vul, s
    assert -50 not in vul and -150 not in vul and -7600 not in nv
    legal = legal_ns_scores()
    assert 0 in legal and all(s % 10 == 0 for s in legal) and max(legal) == -min(legal) == 7600
    assert not {10, 20, 30, 40, 60, -10, -20, -30, -40, -60} & set(legal)
    assert legal == tuple(sorted(set(legal))) and legal_ns_scores() is legal        # built once
