"""Invariant checks over a simulated event, shared by the property tests."""
from __future__ import annotations

from collections import Counter, defaultdict
from functools import lru_cache

from pipeline.draw import FORMATS
from pipeline.draw.base import EventState

from .helpers import check_round_sane


def check_rounds(state: EventState, fmt_name: str) -> None:
    """Every round sane; byes spread within each (stage, group)."""
    seats = FORMATS.get(fmt_name).seats
    byes: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for rnd in state.rounds:
        check_round_sane(rnd, seats)
        by_group: dict[tuple[str, str], list] = defaultdict(list)
        for m in rnd.matches:
            by_group[(m.stage, m.group)].append(m)
        for key, ms in by_group.items():
            prior = byes[key]
            # nobody gets a further bye while someone who plays this round has fewer
            playing = [s for m in ms if not m.bye for s in m.sides]
            lowest = min((prior[s] for s in playing), default=None)
            for m in ms:
                if m.bye and lowest is not None:
                    assert prior[m.sides[0]] <= lowest, (
                        f"round {rnd.round}: {m.sides[0]} gets bye #{prior[m.sides[0]] + 1} "
                        f"while {key} has a player with {lowest}")
            for m in ms:
                if m.bye:
                    prior[m.sides[0]] += 1


def check_placements(state: EventState, fmt_name: str, expected: set[str] | None = None) -> None:
    """Placements cover every entry exactly once (per group), ranks ascending from 1."""
    pl = FORMATS.get(fmt_name).placements(state)
    ids = [p.entry for p in pl]
    assert len(ids) == len(set(ids))
    if expected is not None:
        assert set(ids) == expected
    by_group: dict[str, list[int]] = defaultdict(list)
    for p in pl:
        by_group[p.group].append(p.rank)
    for ranks in by_group.values():
        assert ranks[0] == 1 and ranks == sorted(ranks)


def perfect_matching_exists(ids: list[str], met: dict[str, set[str]]) -> bool:
    """Exact: can ``ids`` be paired with nobody meeting an earlier opponent?"""
    idx = {e: i for i, e in enumerate(ids)}
    n = len(ids)
    bad = [0] * n
    for e in ids:
        for o in met.get(e, ()):
            if o in idx:
                bad[idx[e]] |= 1 << idx[o]

    @lru_cache(maxsize=None)
    def ok(mask: int) -> bool:
        if mask == 0:
            return True
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        m = rest & ~bad[i]
        while m:
            j = (m & -m).bit_length() - 1
            if ok(rest & ~(1 << j)):
                return True
            m &= m - 1
        return False

    return ok((1 << n) - 1) if n % 2 == 0 else False


def check_rematches(state: EventState, exact_limit: int = 16, group_key=lambda m: m.group) -> None:
    """No rematch in a round unless no rematch-free pairing existed (checked exactly for
    groups of up to ``exact_limit`` entries; larger groups must have none at all)."""
    met: dict[str, set[str]] = defaultdict(set)
    byes: Counter = Counter()
    for rnd in state.rounds:
        groups: dict[str, list] = defaultdict(list)
        for m in rnd.matches:
            groups[group_key(m)].append(m)
        for ms in groups.values():
            rematch = any(not m.bye and m.sides[1] in met[m.sides[0]] for m in ms)
            if rematch:
                players = sorted(s for m in ms for s in m.sides)
                assert len(players) <= exact_limit, f"rematch in a large group, round {rnd.round}"
                if len(players) % 2 == 0:
                    assert not perfect_matching_exists(players, met), f"avoidable rematch r{rnd.round}"
                else:
                    fewest = min(byes[p] for p in players)
                    for b in players:
                        if byes[b] == fewest:
                            rest = [p for p in players if p != b]
                            assert not perfect_matching_exists(rest, met), f"avoidable rematch r{rnd.round}"
        for m in rnd.matches:
            if m.bye:
                byes[m.sides[0]] += 1
            else:
                met[m.sides[0]].add(m.sides[1])
                met[m.sides[1]].add(m.sides[0])


def _absolute(h: list[int]) -> int | None:
    """The side (0 first, 1 second) an entry with history ``h`` must have next — FIDE C.04.3
    A.6's absolute preference: its firsts and seconds 2 apart, or one side twice running."""
    diff = sum(1 if x == 0 else -1 for x in h)
    if abs(diff) > 1:
        return 1 if diff > 0 else 0
    if len(h) >= 2 and h[-1] == h[-2]:
        return 1 - h[-1]
    return None


def check_first_moves(state: EventState, strict: bool = True) -> None:
    """R2015-F1 first-move balance as the notice promises it (the FIDE Dutch system's absolute
    colour criteria, C.04.3 C.3): after every round nobody's firsts and seconds differ by more
    than 2 and nobody has moved first (or second) three games running.  The one exception
    (A.7, C.3, E.2): in the last round, in a game with a topscorer — more than half the most
    points possible before it: the rounds played times the event's best one result — where
    both needed the same side (absolute preferences), one of the two, the other given its side.
    Every entry left 3 apart or three times running is named in that round's 说明.

    ``strict=False`` (a field near a round robin: rematch avoidance comes first): an entry may
    miss its side in any round, but only against one who needed the same side, and said so."""
    total = len(state.rounds)
    points: Counter = Counter()
    best, played = 0, 0
    hist: dict[str, list[int]] = defaultdict(list)
    for r in state.rounds:
        top = {e for e, p in points.items() if 2 * p > best * played} if r.round == total else set()
        for m in r.matches:
            if m.bye:
                continue
            need = {e: _absolute(hist[e]) for e in m.sides}
            missed = []
            for i, e in enumerate(m.sides):
                side = 0 if i == m.first else 1
                if need[e] is not None and side != need[e]:
                    missed.append(e)
                hist[e].append(side)
                h = hist[e]
                diff = sum(1 if x == 0 else -1 for x in h)
                three = len(h) >= 3 and h[-1] == h[-2] == h[-3]
                assert (abs(diff) <= 2 and not three) or e in missed, (e, r.round, h)
            if not missed:
                continue
            a, b = m.sides
            assert len(missed) == 1 and need[a] == need[b], (m, need, r.round)
            assert not strict or top & set(m.sides), (f"round {r.round} of {total}: {missed[0]} missed its side "
                                                      f"in a game of no topscorer", m, top)
            label = state.entry(missed[0]).team
            assert any(n.startswith(f"{label}本轮") for n in r.notes), (missed[0], r.round, r.notes)
        for m in r.matches:
            res = state.results[m.key]
            for e, sr in zip(m.sides, res.sides):
                points[e] += sr.points
                best = max(best, sr.points)
        played += 1
