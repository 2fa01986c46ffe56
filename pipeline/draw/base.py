"""The interface every competition format implements, and the state it reads.

A format is pure: it reads an :class:`EventState` (entries, published rounds, their
results, playoff results) and returns the next :class:`~pipeline.model.Round`, or
``None`` when the event is complete.  It never touches files.  Its randomness comes
only from the ``random.Random`` it is handed (seeded from the ledger), so the same
seed and inputs give the same draw.  Once a round is published the runner stores it
and never asks for it again: a format derives everything later (group members, lots,
Berger positions) from the published rounds and their ``plan`` dicts, never by drawing
again.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol
from collections.abc import Mapping, Sequence

from ..model import Entry, Match, MatchResult, Playoff, Round

#: rank(entry_ids, rounds) → standings rows, best first (tiebreak chain of the event applied).
#: Called with ``stages=`` (a tuple of Playoff.stage values), only the 加赛 of those stages
#: settle ties (a group's own table is not re-ranked by the final places' 加赛).
RankFn = Callable[..., "list[Any]"]


@dataclass
class EventState:
    """What a format sees of one event: its entries, published rounds and results so far."""

    event_id: str
    entries: list[Entry]                      # accepted entries, sorted by id
    rounds: list[Round] = field(default_factory=list)          # published rounds, in order
    results: dict[tuple, MatchResult] = field(default_factory=dict)   # Match.key → result
    playoffs: list[Playoff] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)      # the event's format options
    rank: RankFn | None = None                # injected by the runner (score.standings)
    absent: frozenset[str] = frozenset()      # Person.key of players checked in as absent (R2016-F2)
    #: entry ids withdrawn by the office (EventSpec.withdrawn): not drawn from the next draw on
    withdrawn: frozenset[str] = frozenset()
    #: the event's awards are given per group (各组前N名): a format that plays in groups places
    #: each group apart; else across the groups (groups_standings)
    places_by_group: bool = True
    #: R2016-F1: the seed of the groups' lot (the branch chairs' draw, days before the event),
    #: set by the runner from the entries alone — never from the check-in — so the groups do
    #: not depend on who turns up; None: the round's rng deals them (tests, other callers)
    lot_seed: str | None = None
    #: R2016-F1: the lot as a 签到表 first showed it after the deadline (label → entry ids in
    #: draw order, pairs withdrawn since included), kept in the ledger by the runner so a later
    #: withdrawal or corrected entry redraws no group; None: dealt from ``lot_seed``
    lot_fixed: Mapping[str, Sequence[str]] | None = None
    #: the game hands out one first move a match (象棋 执红, 围棋 执黑: a ``first_note``), which
    #: the notice promises to balance; False for a card game or a best-of-three match: a Swiss
    #: then pairs by standing with no first-move criteria (R2015-F1, FIDE C.04.3 C.3)
    first_move: bool = True

    def entry(self, entry_id: str) -> Entry:
        return self._by_id()[entry_id]      # an unknown id is a programming error

    def branch_of(self, entry_id: str) -> str:
        e = self._by_id().get(entry_id)
        return e.branch if e is not None else ""

    def _by_id(self) -> dict[str, Entry]:
        """Entries by id, rebuilt when ``entries`` is replaced or grows (first entry wins)."""
        cache = self.__dict__.get("_index")
        if cache is None or cache[0] is not self.entries or cache[1] != len(self.entries):
            index: dict[str, Entry] = {}
            for e in self.entries:
                index.setdefault(e.id, e)
            cache = (self.entries, len(self.entries), index)
            self.__dict__["_index"] = cache
        return cache[2]

    def result(self, match: Match) -> MatchResult | None:
        return self.results.get(match.key)

    def round_complete(self, rnd: Round) -> bool:
        return all(m.bye or m.key in self.results for m in rnd.matches)


class Waiting(Exception):
    """The format cannot draw yet; ``str()`` is a Chinese sentence saying what it waits
    for (a 加赛 result, a check-in sheet …)."""


@dataclass(frozen=True)
class Placement:
    """Final order of an event (or of one group): rank 1 is best.  ``tier`` says how the
    place was reached (循环赛第1名, 6进3负者 …); ``group`` is set for per-group awards."""

    rank: int
    entry: str
    tier: str = ""
    group: str = ""
    tied: bool = False   # still tied after the tiebreak chain (needs 加赛)
    #: a tie the format says is for one place whatever the award bands (a round-2 table's
    #: runner-up, R2020-D2: two level 2nd at one table share one 三等奖): played off
    #: when its outcome changes who gets which award (``reach``; :func:`pipeline.score.awards.straddling`)
    settle: bool = False
    #: R2011-R1 (迟到15分钟取消参赛资格) in a place-deciding stage — a knockout match, a table of
    #: three: the entry lost it by its own absence (弃权, 双方弃权, an absent seat).  It has no
    #: place and no award: the place (``rank``) it stands on is vacant (空缺) — nobody below
    #: moves up (:func:`pipeline.score.awards.straddling` and the award schemes skip it)
    vacant: bool = False
    #: of a ``settle`` tie: the places its 加赛 may give — (best, worst) place of its winner,
    #: then (best, worst) of its loser, over every way the format's other such ties may go
    #: (R2020-D2: the winner joins the tables' runners-up, the loser the tables' 3rd).  The
    #: 加赛 is asked only when those places bear more than one award (handbook 加赛表: 同属
    #: 一个奖项的几个名次可以不分先后); () — the place played for bears its award (older records)
    reach: tuple[int, ...] = ()


class Format(Protocol):
    name: str           # registry name
    title: str          # Chinese name for documents
    seats: int          # 2 for head-to-head, 3 for tables of three
    # optional: ``ranks_each_group = True`` for a format whose placements rank each group apart
    # when EventState.places_by_group (groups_standings); an award scheme by group (各组前N名)
    # is refused for any other by league new (pipeline.newleague.scheme_problem)

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None if the options are usable, else a message naming the bad option."""

    def next_round(self, state: EventState, rng: random.Random) -> Round | None:
        """The next round to publish, or None when the event is complete.
        Called only when every published round has complete results."""

    def placements(self, state: EventState) -> list[Placement]:
        """Final (or current) order of entries, for standings and awards."""

    def describe(self, options: dict[str, Any], game: Any = None) -> str:
        """One Chinese paragraph explaining the format, for the notice."""
