"""Shared helpers for the draw tests: fake entries, a fake rank function (points from
results), random results, and a whole-event simulator."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from pipeline.draw import FORMATS
from pipeline.draw.base import EventState
from pipeline.draw.common import PlayoffWaiting
from pipeline.model import Entry, Match, MatchResult, Outcome, Person, Playoff, Round, SideResult

EVENT = "ev"


def make_entries(n: int, branches: int = 11, team_size: int = 1) -> list[Entry]:
    """``n`` entries e000…, branch b00… assigned round-robin; players p<entry>_<k>."""
    out = []
    for i in range(n):
        b = f"b{i % max(1, branches):02d}"
        players = tuple(Person(name=f"p{i:03d}_{k}", branch=b, staff_id=f"{i:03d}{k}")
                        for k in range(team_size))
        out.append(Entry(id=f"e{i:03d}", event=EVENT, branch=b, team=f"队{i:03d}", players=players))
    return out


@dataclass(frozen=True)
class Row:
    """The fields of score.base.StandingRow the formats read (kept local so these tests do
    not depend on the score package)."""

    entry: str
    rank: int
    points: int
    playoff_required: bool = False


class FakeRank:
    """rank(ids, rounds): match points summed from the state's results; equal points share
    a rank (ordered by id) and are flagged playoff_required."""

    def __init__(self, state: EventState) -> None:
        self.state = state

    def __call__(self, ids: Sequence[str], rounds: Sequence[Round], stages: tuple[str, ...] | None = None) -> list[Any]:
        want = set(ids)
        pts: Counter = Counter()
        for r in rounds:
            for m in r.matches:
                res = self.state.results.get(m.key)
                if res is None:
                    continue
                for s, sr in zip(m.sides, res.sides):
                    if s in want:
                        pts[s] += sr.points
        order = sorted(want, key=lambda e: (-pts[e], e))
        ranks, prev, rank = {}, None, 0
        for i, e in enumerate(order):
            if pts[e] != prev:
                rank, prev = i + 1, pts[e]
            ranks[e] = rank
        c = Counter(ranks.values())
        return [Row(entry=e, rank=ranks[e], points=pts[e], playoff_required=c[ranks[e]] > 1)
                for e in order]


def new_state(entries: list[Entry], options: dict | None = None,
              absent: frozenset[str] = frozenset()) -> EventState:
    """An EventState with the fake rank function attached."""
    st = EventState(EVENT, list(entries), options=dict(options or {}), absent=absent)
    st.rank = FakeRank(st)
    return st


def bye_result(m: Match) -> MatchResult:
    return MatchResult(m, (SideResult(Outcome.BYE, points=2),))


def random_result(m: Match, rng: random.Random, allow_draw: bool = True,
                  no_draw_stages: tuple[str, ...] = ("ko",)) -> MatchResult:
    """A random result: 2 sides → win/draw/loss (2/1/0); 3 sides → places 1..3 (3/2/1)."""
    if len(m.sides) == 3:
        order = list(range(3))
        rng.shuffle(order)
        sides = [None] * 3
        for place, i in enumerate(order, start=1):
            o = Outcome.WIN if place == 1 else Outcome.LOSS
            sides[i] = SideResult(o, points=4 - place, score=10 * (4 - place), place=place)
        return MatchResult(m, tuple(sides))
    x = rng.random()
    if allow_draw and m.stage not in no_draw_stages and x < 0.2:
        return MatchResult(m, (SideResult(Outcome.DRAW, 1), SideResult(Outcome.DRAW, 1)))
    if x < 0.6:
        return MatchResult(m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0)))
    return MatchResult(m, (SideResult(Outcome.LOSS, 0), SideResult(Outcome.WIN, 2)))


def play(state: EventState, rnd: Round, rng: random.Random, allow_draw: bool = True,
         no_draw_stages: tuple[str, ...] = ("ko",)) -> None:
    """Publish ``rnd`` into ``state`` and fill every match with a random result."""
    state.rounds.append(rnd)
    for m in rnd.matches:
        state.results[m.key] = (bye_result(m) if m.bye
                                else random_result(m, rng, allow_draw, no_draw_stages))


def simulate(fmt_name: str, entries: list[Entry], options: dict | None = None, seed: int = 0,
             result_seed: int = 1, allow_draw: bool = True, max_rounds: int = 2000,
             shuffle_entries: bool = False, absent: frozenset[str] = frozenset(),
             stop_after: int | None = None,
             no_draw_stages: tuple[str, ...] = ("ko",)) -> EventState:
    """Run a whole event with random results; playoffs are settled by lot when asked."""
    fmt = FORMATS.get(fmt_name)
    state = new_state(entries, options, absent)
    draw_rng = random.Random(seed)
    res_rng = random.Random(result_seed)
    shuffler = random.Random(seed + 99)
    for _ in range(max_rounds):
        if stop_after is not None and len(state.rounds) >= stop_after:
            return state
        if shuffle_entries:
            shuffler.shuffle(state.entries)
        try:
            rnd = fmt.next_round(state, draw_rng)
        except PlayoffWaiting as w:
            for stage, group, tied in w.ties:
                order = list(tied)
                res_rng.shuffle(order)
                state.playoffs.append(Playoff(EVENT, stage, group, tuple(order)))
            continue
        if rnd is None:
            return state
        add_merged_entries(state, rnd)
        play(state, rnd, res_rng, allow_draw, no_draw_stages)
    raise AssertionError("event did not finish")


def add_merged_entries(state: EventState, rnd: Round) -> None:
    """Do what the runner does for R2016-F2: create Entry objects for re-formed pairs."""
    people = {p.key: p for e in state.entries for p in e.players}
    for m in rnd.plan.get("merged", ()):
        players = tuple(people[k] for k in m["players"])
        state.entries.append(Entry(id=m["id"], event=EVENT, branch=players[0].branch,
                                   team="+".join(m["from"]), players=players))


# ----------------------------------------------------------------- invariant checks

def check_round_sane(rnd: Round, seats: int = 2) -> None:
    """Nobody twice in a round, nobody meets themselves, tables numbered 1..n, byes single."""
    seen: list[str] = []
    for m in rnd.matches:
        assert m.round == rnd.round
        assert len(set(m.sides)) == len(m.sides), m
        if m.bye:
            assert len(m.sides) == 1, m
        else:
            assert len(m.sides) == seats, m
            assert 0 <= m.first < seats
        seen.extend(m.sides)
    assert len(seen) == len(set(seen)), f"someone plays twice in round {rnd.round}"
    keys = [m.key for m in rnd.matches]
    assert len(keys) == len(set(keys))


def summary(rounds: Sequence[Round]) -> list[tuple]:
    """A comparable summary of a draw (for determinism checks)."""
    return [(r.stage, r.round, tuple((m.group, m.table, m.sides, m.bye, m.first) for m in r.matches))
            for r in rounds]
