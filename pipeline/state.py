"""What one run knows after scoring: the input of every renderer.

The runner builds a :class:`LeagueState`; renderers build view-models from it and never
reach back into the ledger or the inbox.
"""
from __future__ import annotations

import datetime as dt
import pickle
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from .gcpolicy import paused
from .issues import Issue
from .model import Entry, MatchResult, Round
from .score.base import StandingRow
from .timeutil import aware

if TYPE_CHECKING:
    from .draw.base import Placement
    from .spec import EventSpec, Tournament


@dataclass(frozen=True)
class Submission:
    """One received registration workbook, as the ledger knows it."""

    sha256: str
    file: str              # display name (original file name)
    branch: str            # unit id ("" when unknown); a file that names none: the unit whose
                           # registered address sent it (listed on its page; proves nothing)
    received: dt.datetime
    sender: str = ""
    status: str = "accepted"   # accepted | rejected | superseded | unreadable | late
    stored_path: str = ""       # path of the stored copy (received/<sha>.xlsx)
    returned_path: str = ""     # annotated copy written for the captain (relative to output dir)
    #: why a rejected form was refused as a whole, when no edit of it can make it acceptable:
    #: "form" (not a form this tournament issued for its unit: another unit's, another
    #: tournament's, an old template), "late" (after every deadline, ``late_policy: reject``);
    #: "empty" (no entry at all: filling it in makes it good); "" otherwise
    refused: str = ""
    #: the events its rows name (event ids, in the spec's order): whose deadlines its receipt gives
    events: tuple[str, ...] = ()
    #: a superseded form's events it still counts for: closed before the form that replaced it
    #: came (``late_policy: reject``), so that form's rows for them were refused
    kept: tuple[str, ...] = ()
    #: a superseded form received at the same time as the form that counts (SAME_TIME): that
    #: form's file name, what put it last (``pipeline.run._tie_broken_by``: "saved", "attached"
    #: or "") and whether the two came in one mail — its receipt says so, not 此后又收到
    together: tuple[str, str, bool] | tuple[()] = ()

    def concerns(self, issue: Issue) -> bool:
        """Whether ``issue`` is about this workbook: the received file it names
        (``Issue.source``) when it names one — a corrected ``报名表.xlsx`` has the same name
        as the file it replaces; otherwise the same file name, and the same branch when both
        have one (captains often all send a ``报名表.xlsx``).  A SUPERSEDED note is about
        the older file only.  What its receipt lists and its returned copy marks."""
        if issue.code == "SUPERSEDED" and self.status != "superseded":
            return False
        if issue.source and self.sha256:
            return issue.source == self.sha256
        return issue.file == self.file and (not issue.branch or not self.branch or issue.branch == self.branch)


@dataclass(frozen=True)
class BareMail:
    """A received mail that carried no workbook (NO_ATTACHMENT: none attached, or only
    files that are none — .doc, .et, .zip, .pdf …), as its receipt needs it.  Not a mail
    whose workbook was one received before (DUPLICATE_FILE)."""

    sha256: str            # the mail's own (its receipt is keyed by it)
    file: str              # the mail's file name (<hash>.eml when fetched by --imap)
    received: dt.datetime
    sender: str = ""       # address only, lower case
    subject: str = ""
    skipped: tuple[str, ...] = ()   # the attachments that are no workbook, by name
    automatic: bool = False         # an out-of-office reply, a list's copy: never answered
    links: tuple[str, ...] = ()     # the cloud drives / 超大附件 its body links to (百度网盘 …)


@dataclass(frozen=True)
class ResentForm:
    """A mail that sent again, unchanged, a unit's form that a later one had superseded
    (DUPLICATE_FILE, a warning): the captain who sent X, Y, then X again believes X counts.
    So does a referee who sent a result sheet, its correction, then the first one again.
    Its receipt (keyed by the mail's own SHA-256) tells the sender it does not, and how to
    make it count (:func:`pipeline.mail.receipts.build_receipts`)."""

    sha256: str            # the mail's own
    file: str              # the mail's file name
    received: dt.datetime
    sender: str            # address only, lower case
    branch: str            # the unit whose form it is (a result sheet: the unit of its sender)
    message: str           # the DUPLICATE_FILE warning
    form: str = "报名表"    # what was sent again: 报名表, or 成绩表 (a referee's A, B, then A again)
    subject: str = ""      # the mail's subject: a mail fetched by --imap is named by it, not by
                           # its stored <hash>.eml (:func:`pipeline.mailname.mail_named`)


@dataclass(frozen=True)
class StandingTable:
    """One standings table of an event: a stage's (or group's) ranked rows."""

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
    #: every unit the award is credited to, ``branch`` first: both units of a cross-unit pair
    #: (R2015-Q2) or of a pair re-formed at check-in (R2016-F2); () = ``branch`` alone
    units: tuple[str, ...] = ()
    #: R2011-R1: the place is vacant (空缺) — the entry on it lost its match or table by not
    #: coming (``Placement.vacant``): nobody is awarded, no prize, no certificate; ``team`` is
    #: 空缺, ``entry`` empty, and it counts for no unit
    vacant: bool = False

    @property
    def unit_ids(self) -> tuple[str, ...]:
        """The units the award names and counts for (:attr:`units`, else ``branch``; none for
        a vacant place).

        >>> AwardRow("e", "", "一等奖", 1, "t", "u1", "a/b", units=("u1", "u2")).unit_ids
        ('u1', 'u2')
        >>> AwardRow("e", "", "二等奖", 2, "空缺", "", "", vacant=True).unit_ids
        ()
        """
        if self.vacant:
            return ()
        return self.units or (self.branch,)

    def prize_share(self, unit: str) -> int:
        """The part of the prize that goes to ``unit``: the whole prize for a unit's own
        award; shared equally between the units of a cross-unit pair (the first units take
        the odd yuan), so the units' money adds up to the prize.

        >>> AwardRow("e", "", "一等奖", 1, "t", "u1", "a/b", 301, units=("u1", "u2")).prize_share("u2")
        150
        """
        ids = self.unit_ids
        if unit not in ids:
            return 0
        base, extra = divmod(self.prize, len(ids))
        return base + (1 if ids.index(unit) < extra else 0)


@dataclass
class EventState:
    """Everything known about one event after this run."""

    spec: "EventSpec"
    format_title: str
    entries: list[Entry]
    rounds: list[Round] = field(default_factory=list)
    results: Mapping[tuple, MatchResult] = field(default_factory=dict)   # dict, or KeptResults
    standings: list[StandingTable] = field(default_factory=list)
    placements: list["Placement"] = field(default_factory=list)
    complete: bool = False
    waiting: str = ""        # Chinese: what the event waits for (results of round 2 …)
    session_of_round: dict[int, str] = field(default_factory=dict)   # round → session label
    ties: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # (stage, group, entries) awaiting 加赛
    memo_key: str = ""       # hash of everything this state was computed from (run.run_event); "" = unknown
    withdrawn: frozenset[str] = frozenset()   # entry ids the office withdrew (EventSpec.withdrawn)
    # entry ids entered after round 1 was drawn (R2020-Q4, EventRunner.late_ids): in no round,
    # no place, no award
    late: frozenset[str] = frozenset()
    # those of ``late`` whose form came before round 1 was drawn, valid only since (a row
    # refused as MULTI_EVENT until the office cancelled the other event: EventRunner.late_valid_ids)
    late_valid: frozenset[str] = frozenset()
    # an entry sent again under another id since round 1 was drawn (工号 filled in), taken for
    # the drawn one (run.drawn_as): its id now → the drawn id it plays and is placed under
    same_as: Mapping[str, str] = field(default_factory=dict)
    #: R2016-F1: before round 1, once the deadline has passed, the groups the branch chairs'
    #: lot puts the entries in (label → entry ids; EventRunner.lot_groups): fixed by the entry
    #: list alone, so the 签到表 shows them; {} before the deadline or for other formats
    lot_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


#: an entry of a drawn event in no round whose form came before round 1 was drawn, valid only
#: since (:attr:`EventState.late_valid`): DRAW_INPUT_CHANGED and the unit's page say so
LATE_VALID = "第1轮抽签后才成为有效报名"


def forms_still_count(events: Iterable["EventSpec"], late_policy: str, drawn: Mapping[str, "EventState"],
                      now: dt.datetime) -> bool:
    """R2020-Q4: whether a registration form received ``now`` could still enter some event —
    one open for registration (before its ``deadline``, as the receipts tell the captains;
    an event without one until its round 1 is drawn — the runner does not draw it until the
    office sets one, DEADLINE_MISSING; one drawn before its deadline was deleted is closed), or,
    under ``late_policy: accept-with-warning`` (a late form is taken, marked late), one whose
    round 1 is not drawn yet (a drawn one's draw stands: an entry added after it enters no
    round).  False: a unit that sent no form is not asked for one (the
    office's next steps, the unit's page)."""
    def taken(ev: "EventSpec") -> bool:
        es = drawn.get(ev.id)
        undrawn = es is None or not es.rounds
        if ev.deadline is None:
            return undrawn          # open until one is set (run.deadline_passed); a draw closes it
        if aware(now) < aware(ev.deadline):
            return True
        return late_policy == "accept-with-warning" and undrawn
    return any(taken(ev) for ev in events)


class KeptResults(Mapping):
    """An event's results as the ledger's cache keeps them (pickled), unpickled on first use.

    A kept event's results are most of its state (a round of bridge boards is tens of
    thousands of objects) and are read only to render the event's own pages again, which
    a night that changed nothing about the event does not do (see ``run.run_event``).
    Their keys come apart: which matches have a result (a round's progress on the index
    page) is answered without unpickling the results."""

    __slots__ = ("_blob", "_data", "_keys")

    def __init__(self, blob: bytes, keys: Iterable[tuple] | None = None) -> None:
        self._blob = blob
        self._data: dict[tuple, MatchResult] | None = None
        self._keys = dict.fromkeys(keys) if keys is not None else None

    def _loaded(self) -> dict[tuple, MatchResult]:
        if self._data is None:
            with paused():        # thousands of small objects, none of them garbage
                self._data = pickle.loads(self._blob)
            self._blob = b""
        return self._data

    def _key_view(self) -> dict:
        return self._keys if self._data is None and self._keys is not None else self._loaded()

    @property
    def loaded(self) -> bool:
        return self._data is not None

    def __getitem__(self, key: tuple) -> MatchResult:
        return self._loaded()[key]

    def __contains__(self, key: object) -> bool:
        return key in self._key_view()

    def get(self, key, default=None):  # type: ignore[override]
        return self._loaded().get(key, default)

    def __iter__(self) -> Iterator[tuple]:
        return iter(self._key_view())

    def __len__(self) -> int:
        return len(self._key_view())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    def __repr__(self) -> str:
        return f"KeptResults({self._loaded()!r})"

    def __reduce__(self):   # pickles as the plain dict it stands for
        return (dict, (dict(self._loaded()),))


@dataclass
class LeagueState:
    """Everything the documents and the site are rendered from: the spec, submissions, issues, entries, events and awards."""

    tournament: "Tournament"
    now: dt.datetime
    updated: dt.datetime              # newest received time (shown as "data as of")
    submissions: list[Submission]
    entries: list[Entry]
    issues: list[Issue]
    events: dict[str, EventState]
    awards: list[AwardRow]
    branch_awards: list[AwardRow] = field(default_factory=list)
    pdf: bool = False                 # the run writes each document's PDF beside its HTML
    #: PDFs the run could not make (a character no font has: pipeline.render.pdf.render_pdfs),
    #: as paths under the output folder ("certificates.pdf"): not linked
    no_pdf: frozenset[str] = frozenset()
    #: the received mails that carried no workbook (:class:`BareMail`): each may get a receipt
    bare_mails: list[BareMail] = field(default_factory=list)
    #: the mails that sent a superseded form again unchanged (:class:`ResentForm`): each may get a receipt
    resent_forms: list[ResentForm] = field(default_factory=list)
    #: whether a 评奖表 (R2015-A1, the office's own sheet) has been received, read or not: the
    #: awards it decides are no longer said to be still to come (:func:`sheet_awards_due`)
    awards_sheet_received: bool = False

    def has_pdf(self, stem: str) -> bool:
        """Whether ``<stem>.pdf`` (a path under the output folder) is made by this run."""
        return self.pdf and f"{stem}.pdf" not in self.no_pdf

    @cached_property
    def names_key(self) -> str:
        """:func:`pipeline.text.kept_names_key` of this state ("-" in a simplified league),
        once: every page about one event is keyed on it."""
        from .text import kept_names_key
        return kept_names_key(self) or "-"

    def entry(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id), None)


def sheet_awards_due(state: LeagueState) -> list[str]:
    """R2015-A1: the awards of the 评奖表 (``discretionary_awards`` and ``branch_award``:
    风尚奖 … 组织奖) still to be decided — when every event is finished and no 评奖表 has been
    received, the award list looked final without them and nothing asked for the sheet (an
    audit; handbook, 评奖表).  [] otherwise: while an event is still played its awards are
    to come anyway."""
    spec = state.tournament.spec
    names = list(dict.fromkeys([*spec.discretionary_awards, *([spec.branch_award] if spec.branch_award else [])]))
    if not names or state.awards_sheet_received or not state.events \
            or not all(es.complete for es in state.events.values()):
        return []
    return names
