"""R-draw: the draw's input hash (printed on the draw sheet, part of the seed) is the hash of
the canonical JSON of its inputs; the cached, part-by-part text gives exactly that hash."""
from __future__ import annotations

import hashlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lastrun import canon
from pipeline.model import Entry, Match, MatchResult, Outcome, Person, Round, SideResult
from pipeline.run import draw_inputs_hash


def reference_hash(entries, rounds, results, absent) -> str:
    """The definition, written out whole (the hash of every published round since session 1)."""
    published = {m.key for r in rounds for m in r.matches}
    body = {
        "entries": [(e.id, e.branch, [p.key for p in e.players]) for e in entries],
        "rounds": [[list(m.sides) + [m.group, m.table, m.bye] for m in r.matches] for r in rounds],
        "results": sorted([list(k), [(s.outcome.value, s.points, s.score, s.place) for s in r.sides]]
                          for k, r in results.items() if k in published),
        "absent": sorted(absent) if not rounds else [],
    }
    return hashlib.sha256(canon(body).encode()).hexdigest()[:16]


def _league(rng: random.Random, n_rounds: int, stages: list[str], dup_prefix: bool):
    people = [Person(name=f"选手{i}", branch=f"单位{i % 3}", staff_id=f"{i:05d}") for i in range(12)]
    entries = [Entry(id=f"e{i}", event="ev", branch=p.branch, team=p.name, players=(p,)) for i, p in enumerate(people)]
    rounds, results = [], {}
    for rno in range(1, n_rounds + 1):
        stage = rng.choice(stages)
        rno_key = 1 if dup_prefix and rno == 2 else rno
        ids = [e.id for e in entries]
        rng.shuffle(ids)
        matches = tuple(Match("ev", stage, rno_key, rng.choice(["", "A", "B"]), t + 1, (ids[2 * t], ids[2 * t + 1]))
                        for t in range(6))
        rounds.append(Round(event="ev", stage=stage, stage_name=stage, round=rno_key, matches=matches))
        for m in matches:
            if rng.random() < 0.8:
                results[m.key] = MatchResult(m, (SideResult(Outcome.WIN, 2, rng.randint(0, 5)),
                                                 SideResult(Outcome.LOSS, 0, rng.randint(0, 5))))
    # a result of no published match is left out of the hash
    stray = Match("ev", "zz", 99, "", 1, ("e1", "e2"))
    results[stray.key] = MatchResult(stray, (SideResult(Outcome.DRAW, 1), SideResult(Outcome.DRAW, 1)))
    return entries, rounds, results


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n_rounds=st.integers(0, 5), dup=st.booleans(),
       stages=st.sampled_from([["rr"], ["groups", "ko"], ["t3", "revival", "final"]]))
def test_draw_inputs_hash_parts(seed, n_rounds, dup, stages):
    rng = random.Random(seed)
    entries, rounds, results = _league(rng, n_rounds, stages, dup)
    absent = frozenset({"e3"})
    cache: dict = {}
    for k in range(len(rounds) + 1):    # the draws of one run, sharing the cache
        assert draw_inputs_hash(entries, rounds[:k], results, absent, cache) == \
            reference_hash(entries, rounds[:k], results, absent)
    # a corrected result (a new object for the same match) changes the hash, cache or not
    if rounds and rounds[0].matches:
        m = rounds[0].matches[0]
        results[m.key] = MatchResult(m, (SideResult(Outcome.LOSS, 0, 9), SideResult(Outcome.WIN, 2, 9)))
        assert draw_inputs_hash(entries, rounds, results, absent, cache) == reference_hash(entries, rounds, results, absent)
        del results[m.key]
        assert draw_inputs_hash(entries, rounds, results, absent, cache) == reference_hash(entries, rounds, results, absent)
    assert draw_inputs_hash(entries[:-1], rounds, results, absent, cache) == \
        reference_hash(entries[:-1], rounds, results, absent)
