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


@pytest.mark.parametrize("n", [8, 9])
def test_R2015_F1_swiss_rounds_capped_by_the_field(n):
    """R2015-F1 (同一对手不重复相遇, 每人至多轮空一次): ``rounds: 20`` for 9 players drew 13+
    rounds in which pairs met five times and players sat out twice.  The event now plays the
    most its field allows (a round robin's: 7 for 8 players, 9 for 9), with no rematch and no
    second bye, and round 1's draw sheet says so."""
    from pipeline.draw.swiss import most_rounds

    fmt = FORMATS.get("swiss")
    st = new_state(make_entries(n, branches=n), options={"rounds": 20})
    assert fmt.rounds_capped(st) == (20, most_rounds(n))
    rng, res = random.Random(3), random.Random(4)
    while (rnd := fmt.next_round(st, rng)) is not None:
        st.rounds.append(rnd)
        for m in rnd.matches:
            st.results[m.key] = bye_result(m) if m.bye else random_result(m, res)
    assert len(st.rounds) == most_rounds(n) == (n if n % 2 else n - 1)
    assert all(r.plan["of"] == most_rounds(n) for r in st.rounds)
    met = Counter(frozenset(m.sides) for r in st.rounds for m in r.matches if not m.bye)
    byes = Counter(m.sides[0] for r in st.rounds for m in r.matches if m.bye)
    assert max(met.values()) == 1 and max(byes.values(), default=1) == 1
    assert any(f"设定 20 轮，但 {n} 人" in x and f"最多赛 {most_rounds(n)} 轮" in x for x in st.rounds[0].notes)
    assert not any("设定 20 轮" in x for r in st.rounds[1:] for x in r.notes)


def test_R2015_F1_swiss_rounds_within_the_field_are_kept():
    """A ``rounds`` the field allows is played as set, and nothing is said."""
    fmt = FORMATS.get("swiss")
    st = new_state(make_entries(9, branches=9), options={"rounds": 9})
    assert fmt.rounds_capped(st) is None
    rnd = fmt.next_round(st, random.Random(1))
    assert rnd.plan["of"] == 9 and not any("设定" in x for x in rnd.notes)


@pytest.mark.parametrize("now", [3, 7])
def test_R2015_F1_swiss_rounds_changed_after_the_draw_apply_to_later_rounds(now):
    """FORMAT_CHANGED (info) tells the office that an option changed after the draw applies to
    the draws to come; the Swiss kept the rounds of its round 1 (5) whatever tournament.yaml
    said next."""
    fmt = FORMATS.get("swiss")
    st = new_state(make_entries(10, branches=10), options={"rounds": 5})
    rng, res = random.Random(5), random.Random(6)
    while (rnd := fmt.next_round(st, rng)) is not None:
        st.rounds.append(rnd)
        for m in rnd.matches:
            st.results[m.key] = bye_result(m) if m.bye else random_result(m, res)
        if len(st.rounds) == 2:
            st.options["rounds"] = now
    assert len(st.rounds) == now
    assert st.rounds[-1].plan["of"] == now
