"""Registration checks across rows and branches, pandera-style: registered, named, lazy.

Each check is a function ``check(ctx)`` registered in :data:`CHECKS` (in run order) with the
rule it implements.  Checks add issues to ``ctx.log`` and mark rows that must not enter
an entry in ``ctx.bad``; they never raise for bad data.

What is accepted when some rows are bad: an individual entry is accepted when its row has
no error; a pair/team is accepted when it has exactly ``team_size`` members and none of
their rows has an error (one bad member keeps the whole team out).  A branch's other valid
rows still enter, except where a check rejects a whole event of the branch (quota exceeded:
the captain must choose who plays; a late event under ``late_policy: reject``).

Cross-branch pairs (R2015-Q2, ``event.cross_branch``): a pair is registered once, on one
branch's sheet, with both members and the same 队号; the member from another branch writes
``跨分工会：<that unit's name, short name or id>`` in 备注.  The pair counts in the quota of
the registering branch; duplicate checks use the member's home unit.
"""
from __future__ import annotations

import dataclasses

import datetime as dt
import math
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..ingest.registration import Registration, RegRow
from ..issues import DRAWN_DUPLICATE, IssueLog
from ..layout import team_label, team_value
from ..model import CellRef, Entry, Severity, staff_key
from ..text import cross_note, to_simplified, typed
from ..timeutil import TZ, cn_when, stamp

if TYPE_CHECKING:
    from ..spec import EventSpec, QuotaSpec, Tournament, TournamentSpec, UnitSpec

#: naive deadlines and received times are read in this zone (the client is in China)
LOCAL_TZ = TZ
@dataclass
class Ctx:
    """What every check reads and writes."""

    tournament: "Tournament"
    regs: list[Registration]
    now: dt.datetime
    log: IssueLog = field(default_factory=IssueLog)
    bad: set[tuple[str, int]] = field(default_factory=set)   # rows (:func:`key`) that enter no entry
    home: dict[tuple[str, int], str] = field(default_factory=dict)  # row (:func:`key`) → home unit id
    #: the events a registration answers for, by :func:`owner_key`, where a branch's entries
    #: come from two of its workbooks (a resend after some events closed); else every event
    events_of: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    #: (branch, :func:`identity`) → when the branch first sent that person (its earliest form
    #: listing them, superseded forms too, or the same row before a resend filled in or
    #: corrected its 工号: :func:`pipeline.run.first_seen`); a person not in it: the form's own time
    first_seen: dict[tuple[str, str], dt.datetime] = field(default_factory=dict)
    #: rows refused as a later unit's copy of a person another unit sent first (:func:`key`):
    #: they are not that person's rows for the other checks (one event per person …)
    later_copies: set[tuple[str, int]] = field(default_factory=set)
    #: :func:`_teams` of each form (by ``id``), made once: three checks ask for every form's
    #: teams, the quota check once per event (a tenth of a one-changed night's validation)
    team_rows: dict[int, dict[tuple[str, str], list[RegRow]]] = field(default_factory=dict)
    #: (registration, row) → the published round of the row's event its person (that unit's
    #: entry/team) is in (“象棋第1轮”; "" for none): :func:`pipeline.run.duplicates_drawn`
    drawn: "Callable[[Registration, RegRow], str] | None" = None
    _drawn_memo: dict[tuple[str, int], str] = field(default_factory=dict)

    @property
    def spec(self) -> "TournamentSpec":
        return self.tournament.spec

    def typed(self, value: str) -> str:
        """A value a captain typed in a cell (a name, a 备注), quoted in a message: marked
        (:func:`pipeline.text.verbatim`) in a Traditional league (R2015) so that a page or
        receipt converting the message quotes it as the form holds it; as it is in a
        Simplified league."""
        return typed(value, self.spec)

    def rows(self) -> list[tuple[Registration, RegRow]]:
        return [(g, r) for g in self.regs if g.usable for r in g.rows]

    def drawn_in(self, reg: Registration, row: RegRow) -> str:
        """The published round ``row``'s person is in for ``reg``'s unit (:attr:`drawn`), else ""."""
        if self.drawn is None or not row.event:
            return ""
        k = key(reg, row)
        if k not in self._drawn_memo:
            self._drawn_memo[k] = self.drawn(reg, row)
        return self._drawn_memo[k]

    def flag(self, code: str, reg: Registration, row: RegRow | None, label: str, message: str,
             severity: Severity | None = None, reject: bool = True, drawn_stays: bool = False) -> None:
        """Say ``code`` at ``row``'s ``label`` cell, refusing the row when it is an error.
        ``drawn_stays``: a DUPLICATE_PERSON that older versions did not say (one name in one
        event of two units, one row with 工号: :func:`_same_name_other_form`) — the row is this
        unit's only row of the person, so when the person is in a published round for the
        unit, it made that entry: a warning, the row entered as drawn.  Not for a row repeating
        one the same unit sent too (twice on one form): refusing it drops no drawn entry."""
        cell = row.cells.get(label, "") if row else ""
        where = f"{reg.sheet}!{cell} " if cell else ""
        if drawn_stays and code == "DUPLICATE_PERSON" and row is not None and (severity or Severity.ERROR) == Severity.ERROR:
            drawn_in = self.drawn_in(reg, row)
            if drawn_in:    # a published draw is never silently redrawn: the person plays on as drawn
                severity, message = Severity.WARNING, duplicate_drawn_note(self, row, drawn_in, message)
        self.log.add(code, where + message, at=CellRef(reg.file, reg.sheet, cell), branch=reg.branch,
                     severity=severity, source=reg.source)
        if reject and row is not None and (severity or Severity.ERROR) == Severity.ERROR:
            self.bad.add(key(reg, row))


def duplicate_drawn_note(ctx: Ctx, row: RegRow, drawn_in: str, message: str) -> str:
    """DUPLICATE_PERSON (handbook) on a row whose person is in a published round of its event
    (``drawn_in``: 象棋第1轮): an older version entered and drew the row (before one name in
    one event of two units with one 工号 was flagged, or a resend filling in a 工号 kept the
    unit first).  Published draws are never silently redrawn: the entry stands, a warning
    says why and that the office decides (``message``: what the error would have said, for
    the office to check), as a drawn line under a 替补名单 heading does
    (:func:`pipeline.ingest.registration.substitute_drawn_note`)."""
    word = ctx.spec.unit_word
    return (f"\"{ctx.typed(row.display_name or row.name)}\" 按现在的规则是重复报名，本应不录入；但{drawn_in}已抽签公布，"
            f"{DRAWN_DUPLICATE}，所以仍保留报名，对阵和成绩不变，本表无需为此修改或重发。"
            f"同一人可能在为两个{word}（或在同一项目中两次）参赛：请组委会核实后决定。"
            f"以下原提示仅供核实时参考：{message}")


def key(reg: Registration, row: RegRow) -> tuple[str, int]:
    """A row's key: its workbook (the received file's SHA-256, else its name) and row number.
    A branch's resent form often has the same file name as the one it follows, and both
    can count at once (:func:`pipeline.run.current_registrations`)."""
    return (reg.source or reg.file, row.row)


def owner_key(reg: Registration) -> tuple[str, str]:
    """The key of :attr:`Ctx.events_of`: the registration's branch and workbook."""
    return (reg.branch, reg.source or reg.file)


def answers_for(ctx: Ctx, reg: Registration, event_id: str) -> bool:
    """Whether ``reg`` holds its branch's entries of ``event_id`` (see :attr:`Ctx.events_of`)."""
    events = ctx.events_of.get(owner_key(reg))
    return events is None or event_id in events


Check = Callable[[Ctx], None]
CHECKS: list[tuple[str, Check]] = []


def check(name: str) -> Callable[[Check], Check]:
    """Register a check under ``name`` (run in registration order)."""
    def deco(fn: Check) -> Check:
        CHECKS.append((name, fn))
        return fn
    return deco


def _aware(t: dt.datetime) -> dt.datetime:
    return t if t.tzinfo else t.replace(tzinfo=LOCAL_TZ)


# -- quotas ------------------------------------------------------------------------------------
def quota_for(event: "EventSpec", unit: "UnitSpec", members: int | None = None) -> int | None:
    """Entries (players, pairs or teams) ``unit`` may field in ``event``; None = no limit.
    ``members``: the member count to compute it from, when not the unit's own (a drawn
    event's count at the draw: :func:`members_for`).

    >>> from pipeline.spec import EventSpec, UnitSpec, validated
    >>> ev = validated(EventSpec, {"id": "gd", "name": "掼蛋", "game": "g", "team_size": 2,
    ...     "format": {"type": "x"}, "quota": {"rule": "ratio", "ratio": 0.15}})
    >>> quota_for(ev, UnitSpec(id="a", name="甲", members=40))
    3
    """
    return quota_entries(event.quota, unit.members if members is None else members, event.team_size)


def members_for(tournament: "Tournament", event: "EventSpec", unit: "UnitSpec") -> int:
    """The member count ``event``'s quota for ``unit`` is computed from (R2016-Q1, R2015-Q3):
    the count at the draw for an event already drawn (:attr:`Tournament.members_at_draw`),
    else the unit's ``members`` in tournament.yaml now."""
    return getattr(tournament, "members_at_draw", {}).get(event.id, {}).get(unit.id, unit.members)


def quota_entries(q: "QuotaSpec", members: int, team_size: int = 1) -> int | None:
    """The one quota rule, used by validation, the templates and the notice alike.

    R2020-Q1 fixed; R2015-Q3 bands by members N (then one more per ``extra_every``);
    R2016-Q1 ratio: max_players = rounding(ratio × N), entries = max(minimum,
    max_players // team_size); R2015-Q1/Q2 open (None = no limit).

    >>> from pipeline.spec import QuotaSpec
    >>> quota_entries(QuotaSpec(rule="ratio", ratio=0.15), 100, 2)
    7
    """
    n = members
    if q.rule == "fixed":
        return q.per_branch
    if q.rule == "bands":
        bands = sorted(q.bands, key=lambda b: b.min_members)
        fit = [b for b in bands if b.min_members <= n]
        if not fit:
            return 0
        last = fit[-1]
        extra = 0
        if q.extra_every and last is bands[-1]:
            extra = (n - last.min_members) // q.extra_every
        return last.entries + extra
    if q.rule == "ratio":
        from fractions import Fraction      # (here: with decimal and numbers, ~6 ms of a night's imports)

        exact = Fraction(str(q.ratio)) * n
        players = {"floor": math.floor, "ceil": math.ceil,
                   "round": lambda x: int(x + Fraction(1, 2))}[q.rounding](exact)
        return max(q.minimum, players // team_size)
    return None


@check("deadline")
def check_deadline(ctx: Ctx) -> None:
    """R2020-Q4 deadline per event (``event.deadline``): received later → LATE_SUBMISSION;
    ``late_policy`` reject → error (the event's rows are dropped), accept-with-warning →
    warning (rows kept).  A registration without a received time uses ``now``."""
    reject = ctx.spec.late_policy == "reject"
    for reg in ctx.regs:
        if not reg.usable:
            continue
        received = _aware(reg.received or ctx.now)
        for ev in ctx.spec.events:
            if ev.deadline is None:
                continue
            rows = [r for r in reg.rows if r.event == ev.id]
            if not rows or received <= _aware(ev.deadline):
                continue
            dl = _aware(ev.deadline).astimezone(LOCAL_TZ)
            tail = ("，按规定不予受理；如有特殊情况请联系组委会。" if reject
                    else "，组委会暂予受理，请以后按时提交。")
            msg = (f"“{ev.name}”报名截止时间为 {dl:%Y-%m-%d %H:%M}，本表收到时间为 {stamp(received, [ev.deadline])}"
                   f"（逾期）{tail}")
            ctx.flag("LATE_SUBMISSION", reg, rows[0], "项目", msg,
                     severity=Severity.ERROR if reject else Severity.WARNING)
            if reject:
                ctx.bad.update(key(reg, r) for r in rows)


@check("cross_branch")
def check_cross_branch(ctx: Ctx) -> None:
    """R2015-Q2 bridge pairs may span branches: 备注 "跨分工会：某某分工会" names the member's
    home unit; it must be a known unit, and only events with ``cross_branch`` allow it."""
    units = ctx.spec.units
    pattern = cross_note(ctx.spec.unit_word)
    for reg, row in ctx.rows():
        ctx.home[key(reg, row)] = reg.branch
        if not row.note:
            continue
        # in either script: a Traditional league's form prints 跨分工會 (its note was not read);
        # and with the league's own word for a unit, which the form and messages tell captains to write
        m = pattern.search(to_simplified(unicodedata.normalize("NFKC", row.note)))
        if not m:
            continue
        ev = ctx.spec.event(row.event) if row.event else None
        if ev is None:
            continue
        if not ev.cross_branch or not ev.is_team:
            ctx.flag("BAD_VALUE", reg, row, "备注", f"\"{ctx.typed(row.note)}\"：“{ev.name}”不允许跨{ctx.spec.unit_word}组队，"
                     f"请只报本{ctx.spec.unit_word}的人员。")
            continue
        want = m.group(1).strip("，,。;；")
        unit = next((u for u in units if want in (u.id, u.name, u.short)
                     or want in {to_simplified(n) for n in (u.name, u.short) if n}), None)
        if unit is None:
            names = "、".join(u.short or u.name for u in units)
            ctx.flag("BAD_VALUE", reg, row, "备注", f"\"{ctx.typed(row.note)}\"：找不到{ctx.spec.unit_word}“{want}”，"
                     f"请写成“跨{ctx.spec.unit_word}：某某{ctx.spec.unit_word}”，可选：{names}。")
            continue
        ctx.home[key(reg, row)] = unit.id


def _cross_hint(ctx: Ctx, row: RegRow, other: str) -> str:
    """For a person on two units' forms in an event that allows cross-unit pairs (R2015-Q2):
    how to mark the pair — the captain was told only to delete the row."""
    ev = ctx.spec.event(row.event) if row.event else None
    if ev is None or not (ev.cross_branch and ev.is_team):
        return ""
    word = ctx.spec.unit_word
    home = _unit_name(ctx, other) if other else f"某某{word}"
    return (f"（“{ev.name}”允许跨{word}组队：如果这是与{home}的人员组的队，请在这位队员一行的备注写"
            f"“跨{word}：{home}”）")


@check("duplicate_person")
def check_duplicates(ctx: Ctx) -> None:
    """Identity: a person is the staff number when given, else the normalised name within the
    (home) branch.  The same staff number under two names → DUPLICATE_PERSON (every row);
    the same person in two home units → DUPLICATE_PERSON (every row) — but when the sheets
    were received at different times, only on the later sheets' rows: the first sheet's
    rows were accepted before the others came (:func:`_first_received`) — the member of a
    cross-branch pair (R2015-Q2) belongs to the unit its note names, so the pair and the
    member's own unit's sheet may both list them, in different events; in one event on two
    units' sheets → DUPLICATE_PERSON on the later received sheet's rows (the first unit's pair
    stands), on every row when received at the same time or a time is not known (cannot say
    which) or the sheets are one unit's; twice in one event of one sheet → DUPLICATE_PERSON
    on the later rows."""
    rows = ctx.rows()
    by_staff: dict[str, list[tuple[Registration, RegRow]]] = {}
    for reg, row in rows:
        if row.staff_id:
            by_staff.setdefault(staff_key(row.staff_id), []).append((reg, row))
    conflicting = set()
    for sid, group in by_staff.items():
        names = sorted({r.name for _, r in group if r.name})
        if len(names) > 1:
            first, later = _first_received(ctx, group)
            kept = {r.name for reg, r in group if first is not None and ctx.home.get(key(reg, r), reg.branch) == first[0]}
            if first is not None and len(kept) == 1:     # the unit that sent it first keeps its rows
                (kept_name,) = kept
                for reg, row in later:
                    ctx.later_copies.add(key(reg, row))
                    ctx.flag("DUPLICATE_PERSON", reg, row, "工号",
                             f"工号 \"{row.staff_id}\" 已在 {_unit_name(ctx, first[0])} 的报名表（{_when(first[1])}收到）"
                             f"中登记为 {kept_name}，同一工号只能对应一人，请核对工号。")
                continue                # the kept rows go on to the checks below
            conflicting.add(f"id:{sid}")
            for reg, row in group:
                ctx.flag("DUPLICATE_PERSON", reg, row, "工号", f"工号 \"{row.staff_id}\" 同时登记为 {'、'.join(names)}，"
                         f"同一工号只能对应一人，请核对工号。")
    seen_person: dict[str, list[tuple[Registration, RegRow]]] = {}
    for reg, row in rows:
        if not row.name or key(reg, row) in ctx.later_copies:
            continue
        seen_person.setdefault(person_key(ctx, reg, row), []).append((reg, row))
    for pkey, group in seen_person.items():
        if len(group) == 1:         # one row of this person (nearly everyone): nothing to say
            continue
        if pkey in conflicting:     # two people under one staff number: said above, on every row
            continue
        # the member of a cross-branch pair belongs to the home unit its note names (R2015-Q2)
        branches = {ctx.home.get(key(reg, row), reg.branch) for reg, row in group}
        if len(branches) > 1:
            first, later = _first_received(ctx, group)
            if first is None:
                names = "、".join(sorted(_unit_name(ctx, b) for b in branches))
                for reg, row in group:
                    ctx.flag("DUPLICATE_PERSON", reg, row, "姓名", f"\"{ctx.typed(row.display_name)}\" 同时出现在 {names} 的报名表中，"
                             f"一人只能代表一个{ctx.spec.unit_word}，请与对方核对后删除一处。"
                             + _cross_hint(ctx, row, next((b for b in branches if b != reg.branch), "")))
                continue
            # the unit that sent them first keeps the person (accepted, maybe receipted); its
            # own rows still go through the checks below (twice in one event …)
            for reg, row in later:
                ctx.later_copies.add(key(reg, row))
                ctx.flag("DUPLICATE_PERSON", reg, row, "姓名",
                         f"\"{ctx.typed(row.display_name)}\" 已在 {_unit_name(ctx, first[0])} 的报名表"
                         f"（{_when(first[1])}收到）中报名，一人只能代表一个{ctx.spec.unit_word}：如确属本"
                         f"{ctx.spec.unit_word}，请与对方核对，由对方删除后重发；否则请删除本行。"
                         + _cross_hint(ctx, row, first[0]))
            group = [(reg, row) for reg, row in group if key(reg, row) not in ctx.later_copies]
        per_event: dict[str, list[tuple[Registration, RegRow]]] = {}
        for reg, row in group:
            per_event.setdefault(row.event, []).append((reg, row))
        for ev_id, same in per_event.items():
            ev = ctx.spec.event(ev_id)
            if len({reg.branch for reg, _ in same}) > 1:
                # a cross-branch pair's member (R2015-Q2) also on the home unit's sheet: the
                # unit that sent them first keeps its rows, as above
                first, later = _first_received(ctx, same, by_sender=True)
                if first is not None:
                    kept = next(r for g, r in same if g.branch == first[0])
                    mate = "（同队的队员随之不能报名，可另找队员）" if ev is not None and ev.is_team else ""
                    for reg, row in later:
                        ctx.later_copies.add(key(reg, row))
                        ctx.flag("DUPLICATE_PERSON", reg, row, "姓名",
                                 f"\"{ctx.typed(row.display_name)}\" 已在 {_unit_name(ctx, first[0])} 的报名表（{_when(first[1])}收到）"
                                 f"第 {kept.row} 行报了“{ev.name if ev else ev_id}”，同一项目一人只能报一次：请删除本行{mate}；"
                                 "如确应在本表，请与对方核对，由对方删除后重发。")
                    same = [(reg, row) for reg, row in same if reg.branch == first[0]]
            if len({owner_key(reg) for reg, _ in same}) > 1:
                # sent at the same time (or a time not known): cannot say which form keeps them
                units = "、".join(sorted({_unit_name(ctx, reg.branch) for reg, _ in same}))
                for reg, row in same:
                    ctx.flag("DUPLICATE_PERSON", reg, row, "姓名", f"\"{ctx.typed(row.display_name)}\" 在 {units} 的报名表中"
                             f"都报了“{ev.name if ev else ev_id}”，同一项目一人只能报一次，请与对方核对后删除一处。")
                continue
            for reg, row in same[1:]:
                first = same[0][1]
                ctx.flag("DUPLICATE_PERSON", reg, row, "姓名", f"\"{ctx.typed(row.display_name)}\" 在本表第 {first.row} 行"
                         f"已报名同一项目，请删除重复的一行。")
    _same_name_same_event(ctx)


def _same_name_same_event(ctx: Ctx) -> None:
    """One name twice in one event of one form, the 工号 given on one row and left blank on
    the other: by the rule of identity two people, so both were drawn — a double row far
    more often than two namesakes of one unit in one event.  DUPLICATE_PERSON at the blank
    工号 (the row is not entered; a namesake's 工号 lets it in), counted once in the quota
    (:func:`_entries_counted`)."""
    by_form: dict[tuple[tuple[str, str], str, str], list[tuple[Registration, RegRow]]] = {}
    for reg, row in ctx.rows():
        if row.name and row.event and key(reg, row) not in ctx.later_copies:
            by_form.setdefault((owner_key(reg), row.event, row.name), []).append((reg, row))
    for group in by_form.values():
        staffed = [r for _, r in group if r.staff_id]
        if len(group) < 2 or not staffed or len({staff_key(r.staff_id) for r in staffed}) > 1:
            continue            # no 工号 at all (said above if one person), or two people by their numbers
        other = staffed[0]
        ev = ctx.spec.event(other.event)
        for reg, row in group:
            if row.staff_id or key(reg, row) in ctx.bad:
                continue
            ctx.flag("DUPLICATE_PERSON", reg, row, "工号",
                     f"\"{ctx.typed(row.display_name)}\" 在本表第 {other.row} 行（工号 {other.staff_id}）已报名"
                     f"“{ev.name if ev else other.event}”，这一行没有填工号：如果是同一人，请删除这一行；"
                     "如果是同名的另一人，请填写这一行的工号。")
    _same_name_other_form(ctx)


def _same_name_other_form(ctx: Ctx) -> None:
    """DUPLICATE_PERSON (handbook: 同名、同项目，一行填了工号、另一行没填的，也按同一人提示；
    同单位或不同单位): one name in one event on two units' forms, the 工号 given on one row and
    left blank on the other — by the rule of identity two people (a blank 工号's person is
    their unit's), so both were entered with one person twice (张平秀 in 双升 for 基础部 without
    工号 and for 行政二 with 003005; R2015-Q2: a cross-branch pair's member and a row on their
    home unit's sheet).  As inside one form (:func:`_same_name_same_event`): DUPLICATE_PERSON
    on the later received form's row (the first form's row was accepted before the other
    came), on the blank 工号's row when they came together or a time is not known — naming
    the other form's unit, row and cell, and what to change (delete the row, or fill in the
    工号 of a namesake).  Where only one of the rows is in a published round, the other is
    the copy (the person plays on as drawn); both drawn: a warning (:meth:`Ctx.flag`)."""
    by_name: dict[tuple[str, str], list[tuple[Registration, RegRow]]] = {}
    for reg, row in ctx.rows():
        if row.name and row.event and key(reg, row) not in ctx.later_copies:
            by_name.setdefault((row.event, row.name), []).append((reg, row))
    for group in by_name.values():
        staffed = [(g, r) for g, r in group if r.staff_id]
        if len({g.branch for g, _ in group}) < 2 or not staffed or len({staff_key(r.staff_id) for _, r in staffed}) > 1:
            continue            # one unit's sheets (said above), no 工号, or two people by their numbers
        ev = ctx.spec.event(group[0][1].event)
        ev_name = ev.name if ev else group[0][1].event
        for breg, blank in group:
            if blank.staff_id or key(breg, blank) in ctx.bad:
                continue
            sreg, srow = next(((g, r) for g, r in staffed if g.branch != breg.branch), (None, None))
            if sreg is None or srow is None:
                continue        # its 工号 row is on its own sheet: said above
            b_at, s_at = _since(ctx, breg, blank), _since(ctx, sreg, srow)
            # the row in a published round, when only one is, stays (as in :func:`_first_received`)
            b_drawn, s_drawn = bool(ctx.drawn_in(breg, blank)), bool(ctx.drawn_in(sreg, srow))
            if b_drawn != s_drawn and b_drawn or b_drawn == s_drawn and (
                    b_at is not None and s_at is not None and b_at < s_at):
                if key(sreg, srow) not in ctx.bad:     # the 工号's row came later: it is the copy
                    cell = blank.cells.get("工号", "")
                    ctx.flag("DUPLICATE_PERSON", sreg, srow, "姓名",
                             f"\"{ctx.typed(srow.display_name)}\" 已在 {_unit_name(ctx, breg.branch)} 的报名表（{_when(b_at)}收到）"
                             f"第 {blank.row} 行报了“{ev_name}”（那一行没有填工号{'，' + cell + ' 为空' if cell else ''}）："
                             f"如果是同一人，同一项目一人只能报一次，请删除本行，或与对方核对，由对方删除后重发；"
                             f"如果是同名的另一人，请对方在那一行填写工号后重发。", drawn_stays=True)
                continue
            cell = srow.cells.get("姓名", "")
            ctx.flag("DUPLICATE_PERSON", breg, blank, "工号",
                     f"\"{ctx.typed(blank.display_name)}\" 在 {_unit_name(ctx, sreg.branch)} 的报名表"
                     f"{'（' + _when(s_at) + '收到）' if s_at else ''}第 {srow.row} 行（{cell + '，' if cell else ''}工号 {srow.staff_id}）已报名"
                     f"“{ev_name}”，这一行没有填工号：如果是同一人，请删除这一行；如果是同名的另一人，请填写这一行的工号。",
                     drawn_stays=True)


def identity(row: RegRow) -> str:
    """A row's person as :attr:`Ctx.first_seen` keys them (with the branch): the staff number
    when given, else the normalised name."""
    return f"id:{staff_key(row.staff_id)}" if row.staff_id else f"name:{row.name}"


def _since(ctx: Ctx, reg: Registration, row: RegRow) -> dt.datetime | None:
    """When ``reg``'s unit first sent this person: the earliest of its forms (superseded ones
    too) that listed them, else this form's time.  A unit resending its form unchanged
    does not make its people newer than another unit's copy of them."""
    seen = ctx.first_seen.get((reg.branch, identity(row)))
    return seen or (_aware(reg.received) if reg.received else None)


def _first_received(ctx: Ctx, group: list[tuple[Registration, RegRow]], by_sender: bool = False
                    ) -> tuple[tuple[str, dt.datetime] | None, list[tuple[Registration, RegRow]]]:
    """((the unit that sent the person first, when), the rows of the other units) when the
    units sent them at different times (:func:`_since`) — the first unit's rows were
    accepted before the others came (and maybe receipted), and a later sheet must not take
    them away; else (None, every row): sent together, or a time not known, cannot say which.
    A unit is the person's home unit of a row (R2015-Q2: a cross-branch pair's member on
    another unit's sheet is their home unit's), and all its sheets count as one (T2015: a
    form kept for closed events beside the resend).  ``by_sender``: a unit is the one whose
    sheet the row is on (one person, one home unit, in one event on two units' sheets: a
    cross-branch pair's member also in their own unit's pair).  A unit whose row is in a
    published round of its event (:meth:`Ctx.drawn_in`), the only one, keeps them: the
    older version that drew it ranked it first, and the person plays on as drawn."""
    def unit_of(reg: Registration, row: RegRow) -> str:
        return reg.branch if by_sender else ctx.home.get(key(reg, row), reg.branch)

    times: dict[str, dt.datetime] = {}
    for reg, row in group:
        unit = unit_of(reg, row)
        t = _since(ctx, reg, row)
        if t is None:
            return None, group
        times[unit] = min(t, times.get(unit, t))
    if len(times) < 2:
        return None, group
    first = min(times.values())
    firsts = [u for u, t in times.items() if t == first]
    # a unit whose row of the person is in a published round keeps them, whoever sent them
    # first: a published draw is never silently redrawn (an older version ranked it first)
    drawn = {unit_of(reg, row) for reg, row in group if ctx.drawn_in(reg, row)}
    if len(drawn) == 1:
        firsts = list(drawn)
        first = times[firsts[0]]
    if len(firsts) > 1:
        return None, group
    keeper = firsts[0]
    return (keeper, first), [(reg, row) for reg, row in group if unit_of(reg, row) != keeper]


def _when(at: dt.datetime | None) -> str:
    return f"{cn_when(at)} " if at else ""


def person_key(ctx: Ctx, reg: Registration, row: RegRow) -> str:
    """Identity key of a row's person (staff number, else home unit + normalised name)."""
    if row.staff_id:
        return f"id:{staff_key(row.staff_id)}"
    return f"name:{ctx.home.get(key(reg, row), reg.branch)}:{row.name}"


def _unit_name(ctx: Ctx, unit_id: str) -> str:
    u = ctx.spec.unit(unit_id)
    return u.name if u else unit_id


@check("multi_event")
def check_multi_event(ctx: Ctx) -> None:
    """R2020-Q2 one person, one event (``spec.one_event_per_person``): a person in two or more
    events → MULTI_EVENT on every row of that person (the captain keeps one).  One 工号 under
    two names is not taken for one person: DUPLICATE_PERSON asks to check the 工号 (a 工号
    copied into another player's row said that player 报了 2 个项目, and a captain who
    followed it would have deleted a valid row) — each name under it is still checked on
    its own rows (袁浩 in two events stays MULTI_EVENT beside the copied 工号)."""
    if not ctx.spec.one_event_per_person:
        return
    by_person: dict[tuple[str, str], list[tuple[Registration, RegRow]]] = {}
    for reg, row in ctx.rows():
        if row.name and row.event and key(reg, row) not in ctx.later_copies:
            by_person.setdefault((person_key(ctx, reg, row), row.name), []).append((reg, row))
    for group in by_person.values():
        if len(group) == 1:
            continue
        events = []
        for _, r in group:
            if r.event not in events:
                events.append(r.event)
        if len(events) < 2:
            continue
        names = "、".join(ctx.spec.event(e).name for e in events)  # type: ignore[union-attr]
        forms = {owner_key(reg) for reg, _ in group}
        if len(forms) > 1 and all(f in ctx.events_of for f in forms):
            # a late form beside the rows kept from the form sent in time (closed events): the
            # kept rows stand, only the late form's rows are refused
            late = max((reg for reg, _ in group), key=lambda g: _aware(g.received or ctx.now))
            kept = "、".join(dict.fromkeys(ctx.spec.event(r.event).name for g, r in group  # type: ignore[union-attr]
                                           if g is not late))
            for reg, row in group:
                if reg is late:
                    ctx.flag("MULTI_EVENT", reg, row, "项目", f"\"{ctx.typed(row.display_name)}\" 已报名{kept}（该项目已截止，"
                             f"以按时收到的报名表为准），每人只能参加一个项目，本行不予受理。")
            continue
        for reg, row in group:
            ctx.flag("MULTI_EVENT", reg, row, "项目", f"\"{ctx.typed(row.display_name)}\" 报了 {names} {len(events)} 个项目；"
                     f"每人只能参加一个项目，请只保留一项。")
    _same_name_other_event(ctx)


def _same_name_other_event(ctx: Ctx) -> None:
    """One name of one unit in two events, the staff number left blank on one of the rows:
    by the rule of identity two people, so no MULTI_EVENT — a warning at the row without it
    asks which (吕宁桂 with 001033 in 象棋 and again, blank, in 跳棋 was taken twice)."""
    by_name: dict[tuple[str, str], list[tuple[Registration, RegRow]]] = {}
    for reg, row in ctx.rows():
        if row.name and row.event and key(reg, row) not in ctx.later_copies:
            by_name.setdefault((ctx.home.get(key(reg, row), reg.branch), row.name), []).append((reg, row))
    for group in by_name.values():
        if len(group) == 1 or len({r.event for _, r in group}) < 2 or len({staff_key(r.staff_id) for _, r in group if r.staff_id}) > 1:
            continue            # one event, or two staff numbers: two people of one name
        if all(r.staff_id for _, r in group) or not any(r.staff_id for _, r in group):
            continue            # one person by the rule either way: MULTI_EVENT said it
        for reg, row in group:
            if row.staff_id:
                continue
            other = next((r for g, r in group if r is not row and r.event != row.event), None)
            if other is None:
                continue
            ev = ctx.spec.event(other.event)
            ctx.flag("MULTI_EVENT", reg, row, "工号",
                     f"\"{ctx.typed(row.display_name)}\" 也报了{ev.name if ev else other.event}（第 {other.row} 行"
                     f"{'，工号 ' + other.staff_id if other.staff_id else ''}），这一行没有填工号：如果是同一人，每人只能"
                     "参加一个项目，请只保留一项；如果是同名的另一人，请填写工号。", severity=Severity.WARNING)


def _teams(ctx: Ctx, reg: Registration) -> dict[tuple[str, str], list[RegRow]]:
    """The rows of each pair/team of one form: (event id, 队号) → rows, in sheet order
    (made once per form: :attr:`Ctx.team_rows`; the callers only read it)."""
    made = ctx.team_rows.get(id(reg))
    if made is not None:
        return made
    groups: dict[tuple[str, str], list[RegRow]] = {}
    ctx.team_rows[id(reg)] = groups
    for row in reg.rows:
        ev = ctx.spec.event(row.event) if row.event else None
        if ev is not None and ev.is_team and row.team_no:
            groups.setdefault((ev.id, row.team_no), []).append(row)
    return groups


@check("team_size")
def check_teams(ctx: Ctx) -> None:
    """Pairs/teams (event.team_size > 1): rows sharing a 队号 in one event of one branch form a
    team; a team with more or fewer members → TEAM_INCOMPLETE on each of its rows
    (R2020-Q3 fixed pairs, R2015-Q2/Q3, R2016-Q1).  Blank 队号 is reported by the reader.
    Another team short of members in the event whose 队号 is the same number written
    differently (2 and 02, 1 and 一: :func:`pipeline.layout.team_value`) is named, with its
    rows, and the captain asked to write them the same — they are not joined: a team's entry
    id is its 队号 as read, and two complete teams typed 01 and 1 are two teams."""
    for reg in ctx.regs:
        if not reg.usable:
            continue
        teams = _teams(ctx, reg)
        size = {ev_id: ctx.spec.event(ev_id).team_size for ev_id, _ in teams}  # type: ignore[union-attr]
        # each team's number worked out once, the short teams grouped by (event, number): a
        # rescan of every team for each short one was quadratic (a 序号 typed as 队号 on an
        # open-entry form, 5,000 teams of one: 25,000,000 team_value calls)
        value = {k: team_value(k[1]) for k, rows in teams.items() if len(rows) != size[k[0]]}
        short: dict[tuple[str, int], list[tuple[str, list[RegRow]]]] = {}
        for (ev_id, team_no), rows in teams.items():
            v = value.get((ev_id, team_no))
            if v is not None and len(rows) < size[ev_id]:
                short.setdefault((ev_id, v), []).append((team_no, rows))
        for (ev_id, team_no), rows in teams.items():
            ev = ctx.spec.event(ev_id)
            assert ev is not None
            if len(rows) == ev.team_size:
                continue
            where = "、".join(str(r.row) for r in rows)
            named = _team_named(team_no, ctx.typed)
            v = value[(ev_id, team_no)]
            # (short teams only, and only while together they are not too many: 01 alone beside
            # a complete team 1 is not sent to it)
            alike = [(no, others) for no, others in short.get((ev_id, v), []) if no != team_no] if v is not None else []
            if alike and len(rows) + sum(len(o) for _, o in alike) <= ev.team_size:
                said = "；".join(f"第 {'、'.join(str(r.row) for r in others)} 行的队号“{ctx.typed(no)}”" for no, others in alike)
                tail = (f"{said}与本行的“{ctx.typed(team_no)}”是同一个数字、写法不同，按不同的队计算：如果是同一队，"
                        f"请把队号写得完全一样（如都写 {v}）；否则请补齐队员或改正队号。")
            else:
                tail = "请补齐队员或改正队号（同一队的队员队号要写得完全一样）。"
            for row in rows:
                ctx.flag("TEAM_INCOMPLETE", reg, row, "队号", f"“{ev.name}”{named}有 {len(rows)} 人（第 {where} 行），"
                         f"每队应为 {ev.team_size} 人。{tail}")


@check("quota")
def check_quota(ctx: Ctx) -> None:
    """R2020-Q1 fixed quota, R2015-Q3 bands, R2016-Q1 ratio, R2015-Q1/Q2 open, counted in entries
    (a pair counts once).  More → QUOTA_EXCEEDED on every row of that event of the branch
    (all dropped: the captain chooses who plays); fewer than a fixed quota → QUOTA_SHORT."""
    for reg in ctx.regs:
        if not reg.usable:
            continue
        unit = ctx.spec.unit(reg.branch)
        if unit is None:
            continue
        for ev in ctx.spec.events:
            members = members_for(ctx.tournament, ev, unit)
            limit = quota_for(ev, unit, members)
            if limit is None or not answers_for(ctx, reg, ev.id):
                continue
            rows = [r for r in reg.rows if r.event == ev.id]
            n = _entries_counted(ctx, reg, ev, rows)
            word = "队" if ev.is_team else "人"
            if n > limit:
                basis = _quota_basis(ev, members)
                for row in rows:
                    ctx.flag("QUOTA_EXCEEDED", reg, row, "项目", f"“{ev.name}”超出名额：本{ctx.spec.unit_word}已报 "
                             f"{n} {word}，限 {limit} {word}{basis}。请删去多余的报名。")
            elif n < limit and ev.quota.rule == "fixed" and ev.quota.short_warning:
                ctx.flag("QUOTA_SHORT", reg, rows[0] if rows else None, "项目",
                         f"“{ev.name}”本{ctx.spec.unit_word}只报了 {n} {word}，名额为 {limit} {word}"
                         f"（可以少报；如需补报，请在截止前把含已报人员的完整报名表重新提交：新表整份取代旧表）。", severity=Severity.WARNING)


def _entries_counted(ctx: Ctx, reg: Registration, ev: "EventSpec", rows: list[RegRow]) -> int:
    """The entries of one event on one form that count against its quota: whole pairs/teams
    (a team of the wrong size is TEAM_INCOMPLETE on its rows; a pair's row without its 队号 is
    MISSING_VALUE at that cell) and distinct people.  A 队号 typo (3 for 1) or a player pasted
    twice put the unit over its quota, and every entry of the event was refused with it.
    A row naming nobody (no 姓名, no 工号: a 项目 picked from the dropdown in an empty row, a
    队号 filled down the column) is no entry — MISSING_VALUE says so at its 姓名 — and a team
    counts only when every member is named: such a row put the unit one over its quota and
    refused every real entry of the event."""
    def named(r: RegRow) -> bool:
        return bool(r.name or r.staff_id)

    if ev.team_size > 1:
        teams = {k: rs for k, rs in _teams(ctx, reg).items() if k[0] == ev.id}
        return sum(1 for rs in teams.values() if len(rs) == ev.team_size and all(map(named, rs)))
    # a name entered again without its 工号 is that person once more (DUPLICATE_PERSON asks)
    staffed = {r.name: person_key(ctx, reg, r) for r in rows if r.staff_id and r.name}
    return len({staffed.get(r.name, "") if not r.staff_id and r.name in staffed else person_key(ctx, reg, r)
                for r in rows if named(r)})


@check("team_held_back")
def check_team_held_back(ctx: Ctx) -> None:
    """A pair/team enters only whole: when a member's row has an error, the other members'
    rows say why their entry is held back (a warning at each, naming the row to fix) —
    before, the partner was dropped without a word."""
    for reg in ctx.regs:
        if not reg.usable:
            continue
        for (ev_id, team_no), rows in _teams(ctx, reg).items():
            ev = ctx.spec.event(ev_id)
            if ev is None or len(rows) != ev.team_size:
                continue            # TEAM_INCOMPLETE says so on every row
            bad = [r for r in rows if not r.ok or key(reg, r) in ctx.bad]
            if not bad or len(bad) == len(rows):
                continue
            where = "、".join(f"第 {r.row} 行" for r in bad)
            for row in rows:
                if row in bad:
                    continue
                ctx.flag("TEAM_INCOMPLETE", reg, row, "队号", f"“{ev.name}”{_team_named(team_no, ctx.typed)}的队员（{where}）有错误，"
                         f"全队暂不能报名；改正{where}后，本行随队生效。", severity=Severity.WARNING)


def _team_named(team_no: str, typed: Callable[[str], str] = str) -> str:
    """A team in a message: ``第 1 队`` for a number, else as its 队号 (``队号 一队``: not 第 一队 队),
    through ``typed`` (:meth:`Ctx.typed`: as the captain typed it in a Traditional league).

    >>> _team_named("1"), _team_named("一队"), _team_named("A")
    ('第 1 队', '队号 一队', '队号 A')
    """
    return f"第 {team_no} 队" if team_no.isdigit() else f"队号 {typed(team_no)}"


def _quota_basis(ev: "EventSpec", members: int) -> str:
    q = ev.quota
    if q.rule == "bands":
        return f"（按会员 {members} 人计算）"
    if q.rule == "ratio":
        return f"（会员 {members} 人的 {q.ratio:.0%}，每队 {ev.team_size} 人）"
    return ""


# -- entries --------------------------------------------------------------------------------------
def build_entries(ctx: Ctx) -> list[Entry]:
    """Accepted entries (see the module docstring), sorted by id, with stable ids and labels.

    Ids: ``event:branch:team_no`` for teams, ``event:branch:staff_id or name`` for individuals.
    Labels: the player's name for individuals (``name（简称）`` when two entries of one event
    share a name); ``{unit short name}{team_no}队`` for pairs/teams (team_no used as typed
    when it already ends in 队 or 隊: :func:`pipeline.layout.team_label`).
    """
    made: list[Entry] = []
    for reg in ctx.regs:
        if not reg.usable:
            continue
        unit = ctx.spec.unit(reg.branch)
        if unit is None:
            continue
        teams: dict[tuple[str, str], list[RegRow]] = {}
        for row in reg.rows:
            ev = ctx.spec.event(row.event) if row.event else None
            if ev is None or not row.ok:
                if ev is not None and ev.is_team and row.team_no:
                    teams.setdefault((ev.id, row.team_no), []).append(row)
                continue
            if ev.is_team:
                teams.setdefault((ev.id, row.team_no), []).append(row)
            elif key(reg, row) not in ctx.bad:
                person = row.person(reg.branch)
                made.append(Entry(id=f"{ev.id}:{reg.branch}:{row.staff_id or row.name}", event=ev.id,
                                  branch=reg.branch, team=person.shown, players=(person,)))
        for (ev_id, team_no), rows in teams.items():
            ev = ctx.spec.event(ev_id)
            assert ev is not None
            if len(rows) != ev.team_size or any((not r.ok) or key(reg, r) in ctx.bad for r in rows):
                continue
            players = tuple(r.person(ctx.home.get(key(reg, r), reg.branch)) for r in rows)
            label = team_label(unit.short or unit.name, team_no)
            made.append(Entry(id=f"{ev.id}:{reg.branch}:{team_no}", event=ev.id, branch=reg.branch,
                              team=label, players=players, team_no=team_no))
    # individual labels: add the unit short name only where a name repeats within an event
    count: dict[tuple[str, str], int] = {}
    for e in made:
        count[(e.event, e.team)] = count.get((e.event, e.team), 0) + 1
    out = []
    for e in made:
        if count[(e.event, e.team)] > 1:
            unit = ctx.spec.unit(e.branch)
            e = Entry(id=e.id, event=e.event, branch=e.branch, players=e.players, team_no=e.team_no,
                      team=f"{e.team}（{(unit.short or unit.name) if unit else e.branch}）")
        out.append(e)
    # … and, for two namesakes of one unit in one event (told apart by their 工号), the 工号
    # too — 吕宁桂（行政一·001039）: one label for two entries merged them in every table
    # keyed by it (draw, standings, awards, the 加赛 form's 队名或姓名)
    again: dict[tuple[str, str], int] = {}
    for e in out:
        again[(e.event, e.team)] = again.get((e.event, e.team), 0) + 1
    for k, e in enumerate(out):
        if again[(e.event, e.team)] > 1 and len(e.players) == 1 and e.players[0].staff_id:
            out[k] = dataclasses.replace(e, team=f"{e.team[:-1]}·{e.players[0].staff_id}）")
    return sorted(out, key=lambda e: e.id)
