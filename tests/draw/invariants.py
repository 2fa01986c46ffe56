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


def check_first_moves(state: EventState) -> None:
    """R2015-F1 first-move balance, as the FIDE Dutch system's absolute colour criteria
    (C.04.3 C.3): after every round nobody's firsts and seconds differ by more than 2 and
    nobody has moved first (or second) three games running — except in the last round for a
    topscorer (A.7: more than half the most points possible before it) and its opponent."""
    total = len(state.rounds)
    points: Counter = Counter()
    most = 0
    hist: dict[str, list[int]] = defaultdict(list)
    for r in state.rounds:
        top = {e for e, p in points.items() if 2 * p > most} if r.round == total else set()
        for m in r.matches:
            if m.bye:
                continue
            let_off = bool(top & set(m.sides))
            for i, e in enumerate(m.sides):
                h = hist[e]
                h.append(0 if i == m.first else 1)
                diff = sum(1 if x == 0 else -1 for x in h)
                three = len(h) >= 3 and h[-1] == h[-2] == h[-3]
                assert let_off or (abs(diff) <= 2 and not three), (e, r.round, h)
        best = 0
        for m in r.matches:
            res = state.results[m.key]
            for e, sr in zip(m.sides, res.sides):
                points[e] += sr.points
                best = max(best, sr.points)
        most += best
