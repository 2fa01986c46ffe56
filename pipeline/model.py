"""Core value objects shared by every stage.

Everything here is a small frozen dataclass or a closed enum.  Stages pass these
objects along: ingest → validate → draw → score → render.  Nothing in this module
does I/O.

Points are always integers.  A tournament's point system (2/1/0, 3/1/0, the
Guandan 52–100 table …) is spec data; half-points never appear: scale instead.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Iterable, Mapping


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Outcome(StrEnum):
    """The closed set of outcomes of one side of a match.

    >>> Outcome.FORFEIT_WIN.played
    False
    """

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    BYE = "bye"                  # no opponent this round (lot or odd count)
    FORFEIT_WIN = "forfeit_win"  # opponent did not play (late > 15 min, absent)
    FORFEIT_LOSS = "forfeit_loss"
    ABSENT = "absent"            # both sides absent / withdrawn

    @property
    def played(self) -> bool:
        return self in (Outcome.WIN, Outcome.LOSS, Outcome.DRAW)

    @property
    def is_win(self) -> bool:
        return self in (Outcome.WIN, Outcome.FORFEIT_WIN, Outcome.BYE)

    @property
    def is_loss(self) -> bool:
        return self in (Outcome.LOSS, Outcome.FORFEIT_LOSS, Outcome.ABSENT)


@dataclass(frozen=True)
class CellRef:
    """Where a value came from: file (display name), sheet and A1 cell (may be blank)."""

    file: str = ""
    sheet: str = ""
    cell: str = ""

    def __str__(self) -> str:
        if self.sheet and self.cell:
            return f"{self.sheet}!{self.cell}"
        return self.sheet or self.file


@dataclass(frozen=True)
class Unit:
    """A participating unit (分工会 / 部门)."""

    id: str
    name: str
    captain: str = ""
    members: int = 0
    emails: tuple[str, ...] = ()
    short: str = ""

    @property
    def short_name(self) -> str:
        return self.short or self.name



def staff_key(staff_id: str) -> str:
    """A staff number for telling people apart: without leading zeros, which Excel drops
    from a number typed into a cell (``001769`` and ``1769`` are one person) — on every
    sheet that names a person by it (报名表, 签到, 评奖).

    >>> staff_key("001769") == staff_key("1769"), staff_key("0"), staff_key("A0012")
    (True, '0', 'A0012')
    """
    return staff_id.lstrip("0") or staff_id

@dataclass(frozen=True)
class Person:
    """One registered player as read from a registration row."""

    name: str                 # normalised (NFKC, no spaces)
    branch: str               # unit id: the registering workbook's, or the home unit its
                              # 备注 names for a cross-unit pair's member (R2015-Q2)
    staff_id: str = ""
    gender: str = ""
    phone: str = ""
    pickup: str = ""
    note: str = ""
    display_name: str = ""    # as typed (trimmed), for documents
    row: int = 0              # sheet row, for located messages

    @property
    def key(self) -> str:
        """Identity: staff number when given, else normalised name within the branch."""
        return f"id:{self.staff_id}" if self.staff_id else f"name:{self.branch}:{self.name}"

    @property
    def shown(self) -> str:
        return self.display_name or self.name


@dataclass(frozen=True)
class Entry:
    """One competitor in one event: a player, a pair or a team.

    ``id`` is stable across runs (event, branch, team number or player identity);
    ``team`` is the label shown to people and written to the CSVs.
    """

    id: str
    event: str
    branch: str
    team: str
    players: tuple[Person, ...]
    team_no: str = ""

    @property
    def player_names(self) -> str:
        return "/".join(p.shown for p in self.players)

    @property
    def units(self) -> tuple[str, ...]:
        """Every unit the entry stands for: its own first (the registering unit; for a pair
        re-formed at check-in, its first player's), then its players' other units in their
        order — two for a cross-unit pair (R2015-Q2, 备注 跨分工会) or a pair re-formed from
        two units' players (R2016-F2).

        >>> Entry("e", "x", "u1", "t", (Person("a", "u1"), Person("b", "u2"), Person("c", "u1"))).units
        ('u1', 'u2')
        """
        out = [self.branch] if self.branch else []
        for p in self.players:
            if p.branch and p.branch not in out:
                out.append(p.branch)
        return tuple(out)


#: the note of a knockout's walkover (R2011-R1, R2011-F2): the match that would have given the
#: entry its opponent was forfeited by both sides (or its winner withdrawn), so it goes on
#: without playing — a one-sided "bye" match (no result sheet row), but no bye: not counted
#: where byes are shared out (:func:`pipeline.draw.common.bye_counts`)
WALKOVER = "不战而胜"

#: a place nobody holds (R2011-R1: its entrant lost a place-deciding match by not coming), as
#: the award lists and awards.csv name its holder (``pipeline.state.AwardRow.vacant``)
VACANT = "空缺"


@dataclass(frozen=True)
class Match:
    """One pairing or table of a round.

    ``sides`` holds entry ids (2 for head-to-head, 3 for tables of three, 1 for a bye).
    ``first`` is the index of the side that moves first / holds red (象棋 甲方执红).
    """

    event: str
    stage: str
    round: int
    group: str
    table: int
    sides: tuple[str, ...]
    bye: bool = False
    note: str = ""
    first: int = 0

    @property
    def key(self) -> tuple[str, str, int, str, int]:
        return (self.event, self.stage, self.round, self.group, self.table)

    @property
    def walkover(self) -> bool:
        """Whether this one-sided match is a walkover (:data:`WALKOVER`), not a bye.

        >>> Match("e", "final", 7, "", 1, ("a",), bye=True, note="不战而胜（决赛对手空缺）").walkover
        True
        """
        return self.bye and self.note.startswith(WALKOVER)


@dataclass(frozen=True)
class Round:
    """A drawn round: frozen once published (stored in the ledger)."""

    event: str
    stage: str
    stage_name: str
    round: int            # 1-based round number within the event, across stages
    matches: tuple[Match, ...]
    seed: str = ""
    input_hash: str = ""
    notes: tuple[str, ...] = ()   # Chinese explanations (byes, revivals, avoided rematches)
    #: the format's frozen memory (group lots, Berger positions, revival lots …): JSON-serialisable;
    #: the runner adds "labels" (entry id → [team, branch]) when it publishes the round
    plan: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def entries(self) -> set[str]:
        return {s for m in self.matches for s in m.sides}

    @property
    def title(self) -> str:
        """The round for headings: the stage name when it already numbers its round
        (小组循环赛第1轮, 第1轮淘汰赛（22进11）), else 第4轮（决赛）.

        >>> Round("e", "final", "决赛", 4, ()).title
        '第4轮（决赛）'
        """
        if re.search(r"第\s*[\d一二三四五六七八九十]+\s*轮", self.stage_name):
            return self.stage_name
        return f"第{self.round}轮（{self.stage_name}）" if self.stage_name else f"第{self.round}轮"


@dataclass(frozen=True)
class SideResult:
    """One side's result in one match.

    ``points``: match points from the event's point system (integers).
    ``score``: game points used by tiebreaks and table rankings (games won, levels,
    Guandan round score, Doudizhu table points, bridge matchpoints).
    ``place``: rank at the table for multi-player tables (1 = table winner).
    ``games``: games won over the board in a match of several games (R2020-F2 跳棋 三局二胜:
    the sheet's 甲方胜局/乙方胜局); None for a one-game match and for an unplayed one (a
    forfeit wins no game) — the 胜局数 tiebreak counts these games when they are given.
    """

    outcome: Outcome
    points: int = 0
    score: int = 0
    place: int | None = None
    games: int | None = None


@dataclass(frozen=True)
class MatchResult:
    """A match's result: each side's outcome and points, why (as the sheet said), and the cell it came from."""

    match: Match
    sides: tuple[SideResult, ...]
    reason: str = ""
    source: CellRef | None = None
    detail: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def winner(self) -> str | None:
        """Entry id of the side that advances (place 1 or the winning outcome)."""
        for sid, r in zip(self.match.sides, self.sides):
            if r.place == 1 or (r.place is None and r.outcome.is_win):
                return sid
        return None


@dataclass(frozen=True)
class Playoff:
    """加赛 result: the playoff order of tied entries (first = best)."""

    event: str
    stage: str
    group: str
    order: tuple[str, ...]
    source: CellRef | None = None
    places: tuple[int, ...] = ()      # the 名次 written for each of ``order`` (a repeat: no order)
    cells: tuple[str, ...] = ()       # the A1 of each of ``order``'s 名次 on the sheet (when read from one)
    ties: tuple[int, ...] = ()        # which of the sheet's ties each of ``order`` is in (the form's _meta)
    #: the ties (entry ids) the form was made for, as its _meta records them (() when it does not)
    made_for: tuple[frozenset[str], ...] = field(default=(), compare=False)
    #: the round the event had reached when the form was issued (its _meta; None: not said)
    round: int | None = None
    #: the SHA-256 of the received file it was read from ("" when not read from one): a form
    #: resent corrected has the same file name as the one it replaces
    received: str = field(default="", compare=False)
    #: R2020-F4 (spec silent; the t2020 audit's decision): the rows of the sheet whose 名次 was
    #: left blank (entry ids), with their 名次 cells and ties (numbered as ``ties``) — in a tie
    #: some of whose rows have one, a blank 名次 means "still level" (:meth:`places_of`)
    blank: tuple[str, ...] = field(default=(), compare=False)
    blank_cells: tuple[str, ...] = field(default=(), compare=False)
    blank_ties: tuple[int, ...] = field(default=(), compare=False)
    #: the ties (entry ids, as level before the 加赛) this sheet leaves partly level and the run
    #: took so, every tie it leaves lying within one prize (``run.EventRunner.take_level_playoffs``)
    shared: frozenset[frozenset[str]] = field(default=frozenset(), compare=False)

    def resends(self, earlier: "Playoff") -> bool:
        """Whether this sheet is ``earlier``'s form sent again (a correction): another received
        file of the same name, issued for the same ties at the same round (its _meta) — not
        the next 加赛 form, which bears the event's same file name.  Forms whose _meta says
        neither (hand-made, or issued by older versions): by the name alone.

        >>> a = Playoff("e", "group", "", ("x", "y"), CellRef("扑克牌-加赛.xlsx", "加赛"), round=1, received="s1")
        >>> from dataclasses import replace
        >>> replace(a, received="s2").resends(a), replace(a, round=3, received="s2").resends(a)
        (True, False)
        >>> replace(a, round=None, received="s2").resends(replace(a, round=None))
        True
        """
        return (self.source is not None and earlier.source is not None and bool(self.received and earlier.received)
                and self.received != earlier.received and self.source.file == earlier.source.file
                and self.round == earlier.round and set(self.made_for) == set(earlier.made_for))

    def tie_with(self, tied: "Iterable[str]", blanks: bool = False) -> frozenset[str]:
        """The entries of the sheet's tie that lists all of ``tied`` (the whole order when
        the sheet does not say its ties); empty when none does.  ``blanks``: its rows left
        blank count too (R2020-F4: a 名次 left blank beside a given one, still level).

        >>> p = Playoff("e", "final", "", ("a", "c", "b", "d"), places=(1, 1, 2, 2), ties=(0, 1, 0, 1))
        >>> sorted(p.tie_with("ab")), sorted(p.tie_with("bd"))
        (['a', 'b'], [])
        """
        want = set(tied)
        for tie in self._sheet_ties(blanks):
            if want <= tie:
                return tie
        return frozenset()

    def _sheet_ties(self, blanks: bool = False) -> list[frozenset[str]]:
        """The entries of each of the sheet's ties, in order (``blanks``: with its blank rows)."""
        rows = list(zip(self.order, self.ties or [0] * len(self.order)))
        if blanks:
            rows += zip(self.blank, self.blank_ties or [0] * len(self.blank))
        return [frozenset(e for e, t in rows if t == k) for k in sorted({t for _, t in rows})]

    def places_of(self, tied: "Iterable[str]") -> dict[str, int | None] | None:
        """R2020-F4 (spec silent; the t2020 audit's decision): the 名次 the sheet gives each of
        ``tied`` — None for a row left blank, which means "still level" — on the one of its
        ties that holds all of them, its rows left blank included, when that tie has a 名次
        at all (a tie left blank whole is not played yet); else None.

        >>> p = Playoff("e", "最终名次", "", ("a",), places=(1,), ties=(0,), blank=("b", "c"), blank_ties=(0, 0))
        >>> p.places_of("abc"), p.places_of("bc"), Playoff("e", "", "", ("a",), blank=("x",), blank_ties=(1,)).places_of("ax")
        ({'a': 1, 'b': None, 'c': None}, {'b': None, 'c': None}, None)
        """
        want = list(dict.fromkeys(tied))
        tie = self.tie_with(want, blanks=True)
        if not tie or not tie & set(self.order):
            return None
        given = dict(zip(self.order, self.places or range(1, len(self.order) + 1)))
        return {e: given.get(e) for e in want}

    def leaves_level(self, tied: "Iterable[str]") -> frozenset[str]:
        """R2020-F4: the tie holding all of ``tied`` that this sheet leaves partly level and the
        run took so (:attr:`shared`); empty when there is none."""
        want = set(tied)
        return next((t for t in self.shared if want <= t), frozenset())

    def home(self, tied: "Iterable[str]", played: Mapping[tuple[str, str], frozenset[str]],
             blanks: bool = False) -> tuple[str, str] | None:
        """R2011-F1, R2011-D2: the (stage, group) whose tie this 加赛 was played for, when the
        sheet's 阶段 and 组别 name one in which every entry of the tie listing ``tied`` played
        (``played``: (stage, group) → entries with a result there); None for the final places'
        加赛 (阶段 最终名次), a 阶段 typed as a name (any stage), and a whole stage's label that
        does not hold the tie (a hand-made sheet labelling the final order by its last stage;
        a label naming no tie at all settles nothing: :meth:`addresses`).

        >>> p = Playoff("e", "group", "A", ("a", "b"))
        >>> p.home("ab", {("group", "A"): frozenset("abc")}), p.home("ab", {("group", "B"): frozenset("ab")})
        (('group', 'A'), None)
        """
        from .layout import FINAL_PLACES

        if self.stage in ("", FINAL_PLACES):
            return None
        tie = self.tie_with(tied, blanks)
        return (self.stage, self.group) if tie and tie <= played.get((self.stage, self.group), frozenset()) else None

    def addresses(self, tied: "Iterable[str]", played: Mapping[tuple[str, str], frozenset[str]],
                  blanks: bool = False) -> bool:
        """R2011-F1, R2011-D2 (一次加赛只决定它所针对的那次并列): whether the sheet's 阶段 and 组别
        name a tie the event can have for the entries of its tie listing ``tied``
        (``played``: (stage, group) → entries with a result there): the final places
        (阶段 最终名次), a 阶段 typed as a name (any stage), a stage and group every one of them
        played in (:meth:`home`), or a whole stage played without groups (组别 blank: a
        hand-made sheet labelling the final order by its last stage).  Not a stage and group
        the event does not have — 组别 left blank for a stage played in groups, a stage it has
        not — nor a group some of them did not play in (two of different groups): such a row
        orders nothing (the t2011 sample's rows of 阶段 group, 组别 blank ordered the shared
        7th and 9th places, which nobody had asked a 加赛 for).

        >>> played = {("group", "A"): frozenset("ab"), ("group", "B"): frozenset("cd"), ("final", ""): frozenset("ac")}
        >>> [Playoff("e", s, g, ("a", "d")).addresses("ad", played)
        ...  for s, g in (("group", ""), ("group", "A"), ("ko", ""), ("final", ""), ("最终名次", ""), ("", "A"))]
        [False, False, False, True, True, True]
        >>> Playoff("e", "group", "A", ("a", "b")).addresses("ab", played), Playoff("e", "group", "", ("b", "d")).addresses("bd", played)
        (True, False)
        """
        from .layout import FINAL_PLACES

        if self.stage in ("", FINAL_PLACES):
            return True
        there = played.get((self.stage, self.group))
        if there is None:
            return False
        tie = self.tie_with(tied, blanks)
        return bool(tie) and (tie <= there or not self.group)

    def settles_in(self, tied: "Iterable[str]", where: tuple[str, str, int] | None,
                   played: Mapping[tuple[str, str], frozenset[str]] | None, blanks: bool = False) -> bool:
        """R2011-F1, R2011-D2: whether this 加赛 may settle the tie of ``tied`` in a ranking
        whose matches are all of one (stage, group) up to round ``where[2]`` (``where``;
        None: a ranking across stages or groups — the final places).  A playoff settles
        only the tie it was played for: one of a stage and group (:meth:`home`) settles
        that stage and group's ranking — as of the round its form was issued at, when the
        form says — and no later tie of the same entries (two of a group played off to
        advance, then level again in the final places, need a 加赛 of the final places);
        a sheet whose label addresses no tie of theirs (:meth:`addresses`) settles none.
        Without ``played`` (no event to look at) every sheet listing them may.

        >>> p = Playoff("e", "group", "A", ("a", "b"), round=3)
        >>> played = {("group", "A"): frozenset("ab"), ("ko", ""): frozenset("ab")}
        >>> [p.settles_in("ab", w, played) for w in (("group", "A", 3), ("group", "A", 5), None)]
        [True, False, False]
        """
        if played is None:
            return True
        if not self.addresses(tied, played, blanks):
            return False
        home = self.home(tied, played, blanks)
        if home is None:
            return True
        return where is not None and where[:2] == home and (self.round is None or self.round == where[2])

    def lists_together(self, tied: "Iterable[str]") -> bool:
        """Whether the sheet lists all of ``tied`` in one of its ties.  A form may hold
        several ties of one stage and group, each numbered from 1 (its _meta says how many
        rows each has): two of two of its ties that met later (孙 2nd of one, 徐 2nd of the
        other) were taken as one tie given the same 名次, and the sheet was said to be wrong.

        >>> p = Playoff("e", "final", "", ("a", "c", "b", "d"), places=(1, 1, 2, 2), ties=(0, 1, 0, 1))
        >>> p.lists_together({"a", "b"}), p.lists_together({"b", "d"}), Playoff("e", "", "", ("a", "b")).lists_together("ab")
        (True, False, True)
        """
        want = set(tied)
        if not self.ties:
            return want <= set(self.order)
        return any(want <= {e for e, t in zip(self.order, self.ties) if t == k} for k in set(self.ties))

    def settles(self, tied: "Iterable[str]") -> bool:
        """Whether this sheet orders ``tied`` (those of them it lists): not when it gives two
        of them the same 名次 — one sheet may list several ties, each numbered from 1."""
        got = [self.places[self.order.index(e)] for e in tied if e in self.order] if self.places else []
        return len(set(got)) == len(got)
