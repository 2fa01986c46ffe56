"""Builders for score tests: matches, rounds and results straight from pipeline.model."""
from __future__ import annotations

from pipeline.model import Entry, Match, MatchResult, Outcome, Person, Round, SideResult

EVENT = "xq"
POINTS = {"win": 2, "draw": 1, "loss": 0, "forfeit_win": 2, "forfeit_loss": 0, "absent": 0}
OUT = {"1-0": (Outcome.WIN, Outcome.LOSS), "0-1": (Outcome.LOSS, Outcome.WIN),
       "=": (Outcome.DRAW, Outcome.DRAW), "+-": (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
       "-+": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN), "--": (Outcome.ABSENT, Outcome.ABSENT)}


def game(rnd: int, table: int, a: str, b: str, res: str, *, points=POINTS, scores=(0, 0),
         group: str = "", stage: str = "rr") -> MatchResult:
    """One head-to-head result; ``a`` moves first.  ``res`` in 1-0, 0-1, =, +-, -+, --."""
    m = Match(EVENT, stage, rnd, group, table, (a, b))
    oa, ob = OUT[res]
    return MatchResult(m, (SideResult(oa, points[str(oa)], scores[0]), SideResult(ob, points[str(ob)], scores[1])))


def bye(rnd: int, table: int, a: str, group: str = "", stage: str = "rr") -> Match:
    return Match(EVENT, stage, rnd, group, table, (a,), bye=True)


def rounds_of(results: list[MatchResult], byes: list[Match] = ()) -> list[Round]:
    """Group matches of results (and byes) into Round objects by round number."""
    by: dict[int, list[Match]] = {}
    for r in results:
        by.setdefault(r.match.round, []).append(r.match)
    for m in byes:
        by.setdefault(m.round, []).append(m)
    return [Round(EVENT, "rr", "循环赛", n, tuple(sorted(ms, key=lambda m: m.table))) for n, ms in sorted(by.items())]


def results_map(results: list[MatchResult]) -> dict[tuple, MatchResult]:
    return {r.match.key: r for r in results}


def entry(eid: str, branch: str = "u1", names: tuple[str, ...] | None = None, staff: tuple[str, ...] = (),
          event: str = EVENT) -> Entry:
    names = names or (eid,)
    players = tuple(Person(name=n, branch=branch, staff_id=staff[i] if i < len(staff) else "")
                    for i, n in enumerate(names))
    return Entry(id=eid, event=event, branch=branch, team="/".join(names), players=players)
