"""Swiss (R2015-F1): the whole event, not only each round, avoids rematches."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from pipeline.draw import FORMATS
from pipeline.draw.swiss import default_rounds
from pipeline.model import MatchResult, Outcome, SideResult

from .helpers import bye_result, make_entries, new_state, random_result


def _lower_id_wins(m, rng):
    won = min(m.sides)
    return MatchResult(m, tuple(SideResult(Outcome.WIN, 2) if s == won else SideResult(Outcome.LOSS, 0)
                                for s in m.sides))


RESULTS = {"lower_id_wins": _lower_id_wins, "seeded_random": random_result}


def _whole_event(n, seed, decide):
    fmt = FORMATS.get("swiss")
    st = new_state(make_entries(n, branches=n))
    draw_rng, res_rng = random.Random(seed), random.Random(seed + 7)
    while (rnd := fmt.next_round(st, draw_rng)) is not None:
        st.rounds.append(rnd)
        for m in rnd.matches:
            st.results[m.key] = bye_result(m) if m.bye else decide(m, res_rng)
    return st


@pytest.mark.parametrize("results", sorted(RESULTS))
@pytest.mark.parametrize("n", range(3, 11))
def test_R2015_F1_swiss_small_fields_never_repeat(n, results):
    """R2015-F1 (the notice: 同一对手不重复相遇): with the default round count a rematch-free
    schedule always exists (rounds ≤ n − 1: a round robin's rounds, one bye a round when n is
    odd), so no seed may end in a rematch or a second bye.  Round-at-a-time pairing painted
    itself into a corner: 19 of 40 five-player events repeated a pairing, and said
    「再次相遇：已无法避免重复对阵」."""
    total = default_rounds(n)
    assert total <= n - 1
    bad = []
    for seed in range(40):
        st = _whole_event(n, seed, RESULTS[results])
        assert len(st.rounds) == total
        met = Counter(frozenset(m.sides) for r in st.rounds for m in r.matches if not m.bye)
        byes = Counter(m.sides[0] for r in st.rounds for m in r.matches if m.bye)
        notes = [x for r in st.rounds for x in r.notes if "再次相遇" in x]
        if any(v > 1 for v in met.values()) or any(v > 1 for v in byes.values()) or notes:
            bad.append(seed)
    assert bad == [], f"{len(bad)} of 40 seeds repeat a pairing or a bye: {bad}"


def test_R2015_F1_swiss_says_when_a_round_is_paired_for_the_later_rounds():
    """5 players, lower id wins, seed 2: nearest-partner pairing in round 3 would leave round 4
    no rematch-free pairing; the lookahead pairs otherwise and the draw sheet says why."""
    st = _whole_event(5, 2, _lower_id_wins)
    r3 = st.rounds[2]
    assert "为使以后各轮仍能避免重复对阵，本轮未完全按名次就近配对。" in r3.notes, r3.notes
    assert not any("再次相遇" in x for r in st.rounds for x in r.notes)
