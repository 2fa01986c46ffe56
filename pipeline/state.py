"""What one run knows after scoring: the input of every renderer.

The runner builds a :class:`LeagueState`; renderers build view-models from it and never
reach back into the ledger or the inbox.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .issues import Issue
from .model import Entry, MatchResult, Round
from .score.base import StandingRow

if TYPE_CHECKING:
    from .draw.base import Placement
    from .spec import EventSpec, Tournament


@dataclass(frozen=True)
class Submission:
    """One received registration workbook, as the ledger knows it."""

    sha256: str
    file: str              # display name (original file name)
    branch: str            # unit id ("" when unknown)
    received: dt.datetime
    sender: str = ""
    status: str = "accepted"   # accepted | rejected | superseded | unreadable | late
    stored_path: str = ""       # path of the stored copy (received/<sha>.xlsx)
    returned_path: str = ""     # annotated copy written for the captain (relative to output dir)


@dataclass(frozen=True)
class StandingTable:
    event: str
    stage: str
    stage_name: str
    group: str
    rows: tuple[StandingRow, ...]
    chain: tuple[str, ...]   # tiebreak names used, in order


@dataclass(frozen=True)
class AwardRow:
    """One awards.csv row (contract columns)."""

    event: str
    group: str
    award: str
    rank: int
    team: str
    branch: str
    players: str
    prize: int = 0
    entry: str = ""          # entry id ("" for branch awards)


@dataclass
class EventState:
    """Everything known about one event after this run."""

    spec: "EventSpec"
    format_title: str
    entries: list[Entry]
    rounds: list[Round] = field(default_factory=list)
    results: dict[tuple, MatchResult] = field(default_factory=dict)
    standings: list[StandingTable] = field(default_factory=list)
    placements: list["Placement"] = field(default_factory=list)
    complete: bool = False
    waiting: str = ""        # Chinese: what the event waits for (results of round 2 …)
    session_of_round: dict[int, str] = field(default_factory=dict)   # round → session label
    ties: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # (stage, group, entries) awaiting 加赛
    memo_key: str = ""       # hash of everything this state was computed from (run.run_event); "" = unknown


@dataclass
class LeagueState:
    tournament: "Tournament"
    now: dt.datetime
    updated: dt.datetime              # newest received time (shown as "data as of")
    submissions: list[Submission]
    entries: list[Entry]
    issues: list[Issue]
    events: dict[str, EventState]
    awards: list[AwardRow]
    branch_awards: list[AwardRow] = field(default_factory=list)

    def entry(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id), None)
