"""R2011-F2: one group's qualifiers meet as late as possible — not in the first knockout round
when the half they were drawn into allows it (advance 3: an A–B pair with a B bye, not A–A)."""
from __future__ import annotations

from itertools import combinations

import pytest

from pipeline.draw.common import rounds_of

from .helpers import make_entries, simulate


def _avoidable(half, slots, gof):
    """Whether ``half`` fills ``slots`` (pairs and byes) with no two of one group paired."""
    byes = 2 * slots - len(half)

    def pairable(xs):
        if not xs:
            return True
        a = xs[0]
        return any(pairable([x for x in xs[1:] if x != b]) for b in xs[1:] if gof[b] != gof[a])
    return any(pairable([e for e in half if e not in bye]) for bye in combinations(half, byes))


@pytest.mark.parametrize("n, groups, advance", [(12, 2, 3), (15, 3, 3), (18, 3, 4), (20, 4, 3), (10, 2, 5)])
def test_R2011_F2_same_group_qualifiers_do_not_meet_in_the_first_knockout_round(n, groups, advance):
    bad = []
    for seed in range(40):
        s = simulate("groups_knockout", make_entries(n, 6), {"groups": groups, "advance": advance}, seed=seed,
                     result_seed=seed, no_draw_stages=("ko", "final"), stop_after=None)
        grp = rounds_of(s, "group")[0].plan["groups"]
        gof = {e: g for g, ms in grp.items() for e in ms}
        ko = next(r for r in s.rounds if r.plan.get("kind") == "ko")
        br = ko.plan["bracket"]
        for half in (br[:len(br) // 2], br[len(br) // 2:]):
            same = [sl for sl in half if len(sl) == 2 and gof[sl[0]] == gof[sl[1]]]
            if same and _avoidable([e for sl in half for e in sl], len(half), gof):
                bad.append((seed, same, br))
    assert bad == []


def test_R2011_F2_the_rearranged_half_note_is_true_when_same_group_pairs_remain():
    """A half where one group holds most of the places (12 qualifiers of A, 4 of B): the
    rearranged half still pairs A with A, and its note says they were reduced to the fewest —
    it said 同组出线者首轮不相遇（已尽量减少）, against the round it was printed with (a review)."""
    import random

    from pipeline.draw import FORMATS

    from .helpers import new_state

    st = new_state(make_entries(16, 16), {"groups": 2, "advance": 12})
    ids = sorted(st.entries) if isinstance(st.entries, dict) else [e.id for e in st.entries]
    qual = [("A", ids[:12]), ("B", ids[12:16])]
    grp = {e: g for g, p in qual for e in p}
    seen = 0
    for seed in range(60):
        r = FORMATS.get("groups_knockout")._first_ko_round(st, qual, random.Random(seed))
        same = [m for m in r.matches if len(m.sides) == 2 and grp[m.sides[0]] == grp[m.sides[1]]]
        notes = [n for n in r.notes if "另行排定" in n]
        assert all("首轮不相遇" not in n for n in notes) if same else True
        if same and notes:
            seen += 1
            assert all("同组出线者首轮相遇已减到最少" in n for n in notes)
    assert seen
