"""Golden tests of the tiebreaks (points 2/1/0 unless stated: one chess point = 2)."""
from __future__ import annotations

import pytest

from pipeline.model import Match, MatchResult, Outcome, Round, SideResult
from pipeline.score import TIEBREAK_SCALE, TIEBREAKS
from pipeline.score.table import ScoreTable

from .helpers import EVENT, bye, game, rounds_of


def _table(results, byes=(), bye_points=2):
    return ScoreTable(rounds_of(results, list(byes)), results, bye_points=bye_points)


def _tb(name, table, entry):
    return TIEBREAKS.get(name).value(table, entry)


# A four-player round robin reconstructed to give FIDE's example values for A:
# 2.5 points, Buchholz 3.5, Sonneborn–Berger 2.25, progressive 5.
#   R1: A–C 1-0, B–D 1-0   R2: B–A ½-½ (B white), C–D 1-0   R3: A–D 1-0, C–B 0-1
FIDE_4 = [
    game(1, 1, "A", "C", "1-0"), game(1, 2, "B", "D", "1-0"),
    game(2, 1, "B", "A", "="), game(2, 2, "C", "D", "1-0"),
    game(3, 1, "A", "D", "1-0"), game(3, 2, "C", "B", "0-1"),
]


def test_fide_c07_four_player_example():
    t = _table(FIDE_4)
    assert t.points["A"] == 5                                    # 2.5 × 2
    assert _tb("buchholz", t, "A") == 7                          # 3.5 × 2
    assert _tb("sonneborn_berger", t, "A") == 9                  # 2.25 × 2 (points) × 2 (result weight)
    assert _tb("sonneborn_berger", t, "A") / (2 * TIEBREAK_SCALE["sonneborn_berger"]) == 2.25
    assert _tb("progressive", t, "A") == 10                      # (1 + 1.5 + 2.5) × 2
    assert _tb("buchholz_cut1", t, "A") == 7 - 0                 # D scored 0: cut
    assert _tb("wins", t, "A") == 2
    assert _tb("black_wins", t, "A") == 0 and _tb("black_wins", t, "B") == 1   # B won R3 with black


def test_chinese_aliases_resolve():
    for zh, en in [("直胜", "direct"), ("胜局数", "wins"), ("对手分", "buchholz"), ("对手分去最低", "buchholz_cut1"),
                   ("索伯分", "sonneborn_berger"), ("累进分", "progressive"), ("后手胜局", "black_wins"),
                   ("总局分", "game_points"), ("加赛", "playoff")]:
        assert TIEBREAKS.canonical(zh) == en


def test_fide_c07_art16_bye_counts_own_points_for_buchholz():
    # X: bye in R1 (2), then beats Y; the bye contributes X's own final points (4).
    results = [game(2, 1, "X", "Y", "1-0")]
    t = _table(results, [bye(1, 9, "X")])
    assert t.points["X"] == 4
    assert _tb("buchholz", t, "X") == 4 + 0          # dummy (own 4) + Y (0)
    assert _tb("sonneborn_berger", t, "X") == 4 * 2  # bye won against the dummy; Y beaten has 0


def test_fide_c07_art16_forfeit_loss_counts_as_draw_for_opponents():
    # Z lost R1 by forfeit to W, then beat V.  Z's adjusted score for others: 1 (draw) + 2 = 3.
    results = [game(1, 1, "W", "Z", "+-"), game(2, 1, "Z", "V", "1-0"), game(2, 2, "W", "U", "1-0")]
    t = _table(results)
    assert t.points["Z"] == 2 and t.adjusted["Z"] == 3
    assert _tb("buchholz", t, "V") == 3
    # W's forfeit win is unplayed: W's own Buchholz counts W's own points for it
    assert _tb("buchholz", t, "W") == t.points["W"] + t.adjusted["U"]
    # a forfeit win is not a game won (胜局数) nor a win with black
    assert _tb("wins", t, "W") == 1


def test_fide_c07_art14_3_rounds_after_a_withdrawal_count_as_draws_for_opponents():
    """X, withdrawn by the office after round 1 (no longer paired), and Z, who stayed and
    forfeited rounds 2–3, both left after losing round 1: A beat X and B beat Z.  Rounds
    after a withdrawal are voluntary unplayed rounds (FIDE C.07 Art. 14.3) — X's adjusted
    score counts them as draws, like Z's forfeits, so A and B are level on 对手分 (it was
    B 8, A 6: the withdrawn player counted nothing)."""
    from pipeline.score.standings import compute_standings

    results = [game(1, 1, "A", "X", "1-0"), game(1, 2, "B", "Z", "1-0"), game(1, 3, "C", "D", "1-0"),
               game(2, 1, "A", "C", "1-0"), game(2, 2, "B", "D", "1-0"), game(2, 3, "Z", "E", "-+"),
               game(3, 1, "A", "D", "0-1"), game(3, 2, "B", "C", "0-1"), game(3, 3, "Z", "F", "-+")]
    t = ScoreTable(rounds_of(results), results, withdrawn={"X"})
    assert (t.points["X"], t.adjusted["X"]) == (0, 2) and t.adjusted["Z"] == 2
    assert _tb("buchholz", t, "A") == _tb("buchholz", t, "B")
    assert ScoreTable(rounds_of(results), results).adjusted["X"] == 0        # not withdrawn: as before
    rows = {r.entry: r for r in compute_standings("ABCDXZEF", rounds_of(results), results, ["buchholz"],
                                                  withdrawn={"X"})}
    assert rows["A"].tiebreaks["buchholz"] == rows["B"].tiebreaks["buchholz"] and rows["A"].rank == rows["B"].rank
    # a round not yet played (no result in) is no unplayed round of X's
    t = ScoreTable(rounds_of(results[:6]), results[:6], withdrawn={"X"})
    assert t.adjusted["X"] == 1


def test_fide_c07_art16_a_withdrawn_entrys_own_buchholz_counts_its_rounds_after_withdrawing():
    """W won rounds 1–2 and withdrew; Y won rounds 1–2 and forfeited 3–4.  Each round after
    the withdrawal is a voluntary unplayed round of W's own (Art. 14.3), worth W's own points
    in its 对手分 as Y's forfeits are in Y's (they were left out: W 10 against Y 12), and
    对手分去最低 cuts one of them first."""
    results = [game(1, 1, "W", "A", "1-0"), game(1, 2, "Y", "B", "1-0"), game(1, 3, "C", "D", "1-0"),
               game(2, 1, "W", "C", "1-0"), game(2, 2, "Y", "D", "1-0"), game(2, 3, "A", "B", "1-0"),
               game(3, 1, "Y", "A", "-+"), game(3, 2, "B", "C", "1-0"), game(3, 3, "D", "E", "1-0"),
               game(4, 1, "Y", "C", "-+"), game(4, 2, "A", "D", "1-0"), game(4, 3, "B", "E", "1-0")]
    t = ScoreTable(rounds_of(results), results, withdrawn={"W"})
    assert t.points["W"] == t.points["Y"] == 4 and t.withdrawn_rounds == {"W": 2}
    opponents = t.adjusted["A"] + t.adjusted["C"]
    assert _tb("buchholz", t, "W") == opponents + 2 * 4             # + its own 4 for rounds 3 and 4
    assert _tb("buchholz_cut1", t, "W") == opponents + 4            # one unplayed round cut first
    assert _tb("buchholz", t, "Y") == t.adjusted["B"] + t.adjusted["D"] + 2 * 4
    assert ScoreTable(rounds_of(results), results).withdrawn_rounds == {}      # not withdrawn: none


def test_fide_c07_art14_6_cut1_cuts_voluntary_unplayed_first():
    # P: R1 forfeit loss (own points contribute, voluntary), R2 beats Q (0), R3 beats R (2)
    results = [game(1, 1, "P", "S", "-+"), game(2, 1, "P", "Q", "1-0"), game(3, 1, "P", "R", "1-0"),
               game(1, 2, "R", "Q", "1-0")]
    t = _table(results)
    assert t.points["P"] == 4
    parts_total = _tb("buchholz", t, "P")
    assert parts_total == 4 + 0 + 2                 # own 4 (VUR) + Q 0 + R 2
    assert _tb("buchholz_cut1", t, "P") == 0 + 2    # the VUR goes, not Q's 0


def test_game_points_sum_scores():
    results = [game(1, 1, "a", "b", "1-0", scores=(68, 32)), game(2, 1, "b", "a", "1-0", scores=(56, 44))]
    t = _table(results)
    assert _tb("game_points", t, "a") == 112 and _tb("game_points", t, "b") == 88


def test_progressive_counts_every_round_of_the_table():
    # c sits out round 1 (no match at all): running total 0 still counts
    results = [game(1, 1, "a", "b", "1-0"), game(2, 1, "a", "c", "0-1")]
    t = _table(results)
    assert _tb("progressive", t, "a") == 2 + 2
    assert _tb("progressive", t, "c") == 0 + 2


def test_three_player_table_buchholz_and_direct():
    m = Match(EVENT, "t3", 1, "", 1, ("a", "b", "c"))
    res = MatchResult(m, (SideResult(Outcome.WIN, 3, 20, 1), SideResult(Outcome.LOSS, 1, -5, 2),
                          SideResult(Outcome.LOSS, 0, -15, 3)))
    t = ScoreTable([Round(EVENT, "t3", "三人桌", 1, (m,))], [res])
    assert _tb("buchholz", t, "a") == 1 + 0
    vals = TIEBREAKS.get("direct").values(t, ["b", "c"], None)
    assert vals == {"b": 2, "c": 0}


@pytest.mark.parametrize("name", ["direct", "playoff"])
def test_group_dependent_flags(name):
    assert TIEBREAKS.get(name).group_dependent


def test_R2020_F4_a_round_robin_rest_adds_nothing_to_sonneborn_berger():
    """A round robin's rest scores no points (pipeline.draw.bye_scores) and adds nothing to
    索伯分 — it counted as a won game (own points × 2), and an entry that had rested ranked
    above one level with it that had played (R2020-F4's final pool part-way)."""
    r1 = [game(1, 1, "y", "a", "1-0")]
    r2 = [game(2, 1, "x", "b", "1-0"), game(2, 2, "c", "y", "1-0")]
    rest = Match(EVENT, "rr", 1, "", 2, ("x",), bye=True)
    results = {r.match.key: r for r in r1 + r2}
    results[rest.key] = MatchResult(rest, (SideResult(Outcome.BYE, 0, place=1),))
    table = ScoreTable(rounds_of(r1 + r2, [rest]), results)
    sb = TIEBREAKS.get("sonneborn_berger")
    assert table.points["x"] == table.points["y"] == 2
    # x beat b (0 points): nothing; y beat a (0 points): nothing — level, as they are
    assert sb.value(table, "x") == sb.value(table, "y") == 0
    # a bye that scored (Swiss, a knockout's 晋级签) still counts own points × 2
    swiss_bye = MatchResult(rest, (SideResult(Outcome.BYE, 2, place=1),))
    table = ScoreTable(rounds_of(r1 + r2, [rest]), {**results, rest.key: swiss_bye})
    assert sb.value(table, "x") == 2 * table.points["x"]
