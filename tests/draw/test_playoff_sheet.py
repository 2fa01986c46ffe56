"""A 加赛 sheet that lists two drawn knockout tables of one round in one order settles
both tables (the side of each table that comes first advances)."""
from __future__ import annotations

import random

import pytest

from pipeline.draw import FORMATS
from pipeline.draw.base import Waiting
from pipeline.model import MatchResult, Outcome, Playoff, SideResult

from .helpers import bye_result, make_entries, new_state


def _draw(m):
    return MatchResult(m, (SideResult(Outcome.DRAW, 1), SideResult(Outcome.DRAW, 1)))


def test_one_playoff_order_settles_two_drawn_knockout_tables():
    fmt = FORMATS.get("knockout")
    state = new_state(make_entries(8, branches=8), {"final_pool": 2})
    rng = random.Random(3)
    r1 = fmt.next_round(state, rng)
    state.rounds.append(r1)
    real = [m for m in r1.matches if not m.bye]
    drawn = real[:2]
    for m in r1.matches:
        state.results[m.key] = (bye_result(m) if m.bye else _draw(m) if m in drawn
                                else MatchResult(m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0))))
    with pytest.raises(Waiting):
        fmt.next_round(state, rng)
    # one sheet: table 1's second side first, then table 2's first side, then the others
    order = (drawn[0].sides[1], drawn[1].sides[0], drawn[0].sides[0], drawn[1].sides[1])
    state.playoffs.append(Playoff(state.event_id, drawn[0].stage, "", order))
    r2 = fmt.next_round(state, rng)
    advanced = {s for m in r2.matches for s in m.sides}
    assert drawn[0].sides[1] in advanced and drawn[1].sides[0] in advanced
    assert drawn[0].sides[0] not in advanced and drawn[1].sides[1] not in advanced
