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
