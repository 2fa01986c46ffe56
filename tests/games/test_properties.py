"""Property tests: points are conserved, results do not depend on row order."""
from hypothesis import given, settings
from hypothesis import strategies as st

from games_helpers import Sheet, make_match, make_round, make_row
from pipeline.games import GAMES
from pipeline.games.bridge import ew_matchpoints, legal_ns_scores, matchpoints
from pipeline.games.doudizhu import DdzHand, hand_scores, table_totals
from pipeline.games.guandan import round_score
from pipeline.games.shuangkou import MUST_PLAY, level_up
from pipeline.games.common import LEVEL_NAMES

FAST = settings(max_examples=60, deadline=None)
levels = st.sampled_from([LEVEL_NAMES[n] for n in range(2, 15)])


@FAST
@given(a=levels, b=levels, stage=st.sampled_from(["甲", "乙"]))
def test_guandan_table_sums_to_100(a, b, stage):
    (res,), issues = Sheet(GAMES.get("guandan")).parse({"甲方级数": a, "乙方级数": b, "台上方": stage})
    assert issues == []
    assert sum(x.points for x in res.sides) == 100 == sum(x.score for x in res.sides)
    assert sum(x.outcome.is_win for x in res.sides) == 1


@FAST
@given(st.integers(0, 40))
def test_guandan_round_score_sum(d):
    assert sum(round_score(d)) == 100


hands = st.builds(
    lambda landlord, won, base, bombs, extra: DdzHand(landlord, won, base, bombs,
                                                      spring=extra and won, anti_spring=extra and not won),
    st.integers(0, 2), st.booleans(), st.integers(1, 3), st.integers(0, 6), st.booleans())


@FAST
@given(st.lists(hands, max_size=30), st.sampled_from([0, 10]))
def test_doudizhu_hands_zero_sum(hs, start):
    for h in hs:
        assert sum(h.scores()) == 0
        s = h.scores()
        assert s[h.landlord] == -2 * s[(h.landlord + 1) % 3]
    totals, _ = table_totals(hs, start)
    assert sum(totals) == 3 * start


@FAST
@given(st.lists(st.integers(-100, 100).map(lambda x: x * 10), min_size=1, max_size=12))
def test_bridge_matchpoints_conserved(ns_scores):
    n = len(ns_scores)
    ns = matchpoints(ns_scores)
    assert sum(ns) == n * (n - 1)
    assert sum(ns) + sum(ew_matchpoints(ns)) == 2 * n * (n - 1)
    assert all(0 <= m <= 2 * (n - 1) for m in ns)
    # the definition: 2 per other table beaten, 1 per other table tied
    assert ns == [sum(2 if s > t else 1 if s == t else 0 for j, t in enumerate(ns_scores) if j != i)
                  for i, s in enumerate(ns_scores)]


@FAST
@given(st.lists(st.lists(st.sampled_from([s for s in legal_ns_scores() if -500 <= s <= 500]),   # R2015-Q2
                        min_size=2, max_size=2),
                min_size=2, max_size=8), st.randoms(use_true_random=False))
def test_bridge_round_independent_of_row_order(tables, rnd_gen):
    game = GAMES.get("bridge")
    matches = [make_match(t + 1) for t in range(len(tables))]
    rows = [make_row(m, {"牌号": b + 1, "南北得分": s}, ["牌号", "南北得分"])
            for m, sc in zip(matches, tables) for b, s in enumerate(sc)]
    rnd = make_round(matches, boards=[1, 2])
    first, issues = game.parse_round(rnd, rows, {}, {})
    assert issues == []
    rnd_gen.shuffle(rows)
    again, _ = game.parse_round(rnd, rows, {}, {})
    key = lambda rs: sorted((r.match.table, tuple(x.points for x in r.sides)) for r in rs)
    assert key(first) == key(again)
    n = len(tables)
    assert sum(x.points for r in first for x in r.sides) == 2 * 2 * n * (n - 1)


@FAST
@given(st.integers(2, 14), st.integers(0, 8))
def test_shuangkou_level_up_never_skips_must_play(level, n):
    new = level_up(level, n)
    assert level <= new <= min(15, level + n)
    assert not any(level < m < new for m in MUST_PLAY)


@FAST
@given(a=st.integers(-60, 60), b=st.integers(-60, 60))
def test_doudizhu_sheet_zero_sum_rule(a, b):
    results, issues = Sheet(GAMES.get("doudizhu")).parse({"甲得分": a, "乙得分": b, "丙得分": -a - b})
    tied_top = sorted([a, b, -a - b])[-1] == sorted([a, b, -a - b])[-2]
    if (a - b) % 3 or (a + a + b) % 3:     # R2020-D3: changes congruent mod 3, else no hands give them
        assert results == [] and [i.code for i in issues] == ["RESULT_INVALID"]
    elif tied_top:
        assert results == [] and [i.code for i in issues] == ["PLAYOFF_REQUIRED"]
    else:
        (res,) = results
        assert sum(x.points for x in res.sides) == 0
        assert sorted(x.place for x in res.sides)[0] == 1 and res.winner() is not None
