"""Issues: every problem found in the inputs, each with a contract code and a location.

Validation is lazy: checks append to an :class:`IssueLog` and carry on, so a captain
fixes the whole sheet in one pass.  Messages are Chinese, addressed to the captain,
quote the value and say what to change.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator

from .layout import CONTROL_CHARS
from .model import CellRef, Severity

#: code → default severity.  Contract codes first; added codes below them.  Never reuse one.
CODES: dict[str, Severity] = {
    "QUOTA_EXCEEDED": Severity.ERROR,
    "QUOTA_SHORT": Severity.WARNING,
    "MULTI_EVENT": Severity.ERROR,
    "DUPLICATE_PERSON": Severity.ERROR,
    "TEAM_INCOMPLETE": Severity.ERROR,
    "PARTNER_CHANGED": Severity.ERROR,
    "UNKNOWN_EVENT": Severity.ERROR,
    "UNKNOWN_BRANCH": Severity.ERROR,
    "MISSING_VALUE": Severity.ERROR,
    "BAD_VALUE": Severity.ERROR,
    "LATE_SUBMISSION": Severity.ERROR,
    "WRONG_BRANCH": Severity.ERROR,
    "UNREADABLE_FILE": Severity.ERROR,
    "TEMPLATE_MISMATCH": Severity.ERROR,
    "RESULT_CONFLICT": Severity.ERROR,
    "RESULT_INVALID": Severity.ERROR,
    "DRAWN_ELSEWHERE": Severity.ERROR,      # a round's result sheets were issued with a draw this ledger does not hold (the output folder lost): the round waits
    "ROUND_NOT_DRAWN": Severity.WARNING,    # a result sheet of a round not drawn (yet): not read
    "RESULT_SHEET_BLANK": Severity.WARNING, # a result sheet with no table filled (the blank form sent by mistake)
    "RESULT_SIGNED_BLANK": Severity.WARNING,  # a signed row of a drawn table with no result typed (a winner written elsewhere)
    "PLAYOFF_REQUIRED": Severity.INFO,
    "SUPERSEDED": Severity.INFO,
    # added codes
    "SENDER_UNKNOWN": Severity.WARNING,     # mail not from the branch's registered address
    "SHEET_RENAMED": Severity.WARNING,      # a form's 报名表 (a result workbook's 成绩) sheet renamed: the one sheet holding its table read (明细 too)
    "OTHER_UNITS_FORM": Severity.ERROR,     # a unit's genuine form mailed from another unit's registered address: not taken
    "RESULT_MISSING": Severity.INFO,        # a round waits for results
    "DRAW_INPUT_CHANGED": Severity.WARNING, # a frozen round's inputs changed after publication
    "RESULTS_REWRITTEN": Severity.WARNING,  # a later sheet changed most tables of a round: said that night
    "NO_ATTACHMENT": Severity.WARNING,      # a mail without an .xlsx attachment
    "DUPLICATE_FILE": Severity.INFO,        # a mail's workbook identical to one received before (warning:
                                            # a unit's older form, sent again after the one that replaced it)
    "MAIL_DATE": Severity.WARNING,          # a mail's Date header missing, unreadable or not believable
    "TOTAL_MISMATCH": Severity.ERROR,       # entered totals differ from the detail sheet
    "TOO_FEW_ENTRIES": Severity.WARNING,    # registration closed with < 2 entries: no draw
    "ROUNDS_CAPPED": Severity.WARNING,      # a Swiss rounds larger than the field allows: capped (R2015-F1)
    "PDF_NOT_MADE": Severity.WARNING,       # a character no installed font can draw: no PDF
    "HEADER_CHANGED": Severity.WARNING,     # a template column renamed or deleted: not read
    "INBOX_MISSING": Severity.WARNING,      # the tournament folder has no inbox/: nothing read
    "FORMAT_CHANGED": Severity.ERROR,       # tournament.yaml's format changed after draws: not applied
    "WITHDRAWAL_UNMATCHED": Severity.ERROR, # an event's withdrawn: names no one (or two) of its entries
    "EMPTY_FORM": Severity.ERROR,           # a registration form with no entry at all: not taken
    "SAME_TIME": Severity.WARNING,          # a unit's forms received at the same time: which counts
    "PEOPLE_DROPPED": Severity.WARNING,     # a unit's newer form leaves out people of the one it replaces
    "NAME_CONVERTED": Severity.INFO,        # a 评奖表 name found by its Simplified form (Traditional league)
    "TERMS_CHANGED": Severity.WARNING,      # a drawn or closed event's deadline or quota tightened: not applied;
                                            # a published round's session or venue moved: kept
    "SESSION_PASSED": Severity.WARNING,     # a round drawn after its session began (results late): next session, or no date
    "SCORING_CHANGED": Severity.WARNING,    # a drawn event's points / game_options edited: standings take them
    "FILE_BEING_WRITTEN": Severity.INFO,    # an inbox file still being written: left for the next night
    "PARTIAL_DOWNLOAD": Severity.WARNING,   # a download's temporary file (.crdownload, .part) left in the inbox: not taken
    "CLOCK_BEHIND": Severity.WARNING,       # this run's time (clock or --now) before a round already published
    "CLOCK_WAS_AHEAD": Severity.WARNING,    # a round published far ahead of this run and of every file: that run's clock was ahead; said once
    "DEADLINE_MISSING": Severity.WARNING,   # an event without a deadline in tournament.yaml: open, not drawn, every night
    "INBOX_LINK": Severity.WARNING,         # a symlink in the inbox not followed (to nowhere, a folder, outside)
    "RESULT_ON_OTHER_SHEET": Severity.WARNING,  # results typed on a copy of 成绩, not on 成绩: not read
    "RESULT_LEFT_BLANK": Severity.WARNING,  # a later sheet leaves blank a table an earlier one filled: the earlier still counts
    "PLACES_KEPT": Severity.INFO,           # a finished event's places as published, though the code now ranks otherwise
    "PLACES_CHANGED": Severity.WARNING,     # a finished event's published places or awards changed (a late correction, an awards edit): said that night
    "SPEC_EDITED": Severity.INFO,           # tournament.yaml changed since the last run: what changed, that night
    "UNIT_RENAMED": Severity.INFO,          # a unit's short name changed in tournament.yaml: said that night
    "AUTO_REPLY": Severity.INFO,            # an automatic mail / a reply to a receipt, no workbook: nothing to do
    "MAIL_BOUNCED": Severity.INFO,          # a bounce (退信): nothing in it taken as a form
    "ADDRESS_BOUNCED": Severity.WARNING,    # a receipt to a registered address bounced: said that night
    "OWN_MAIL": Severity.INFO,
    "EVENT_CANCELLED": Severity.INFO,       # a form's line for an event since taken out of tournament.yaml: no entry, no mistake
    "TOURNAMENT_ID_MISMATCH": Severity.ERROR,  # a form issued here under another id (tournament.yaml's changed since): not taken, the office's matter
    "DOUBLE_BOOKED": Severity.WARNING,      # one person seated at two events' tables of one session (R2020-Q2 off): said once
    "SIGNATURE_UNCLEAR": Severity.WARNING,  # a pair's signature cell only part of its names (a surname): scored, said once (R2020-Q3)
    "RESULT_READ_AS": Severity.INFO,        # a result written the usual way (黑中盘胜, B+R, 红胜; a bridge board's "-"): how it was read
    "CHECKIN_FORM_UPDATED": Severity.INFO,  # a 签到表 in forms/ written again for a changed list (R2016-F2): said that night              # our own receipt in the inbox, or forwarded in a mail: nothing in it taken
    "PLACE_VACANT": Severity.WARNING,       # a place left vacant: its entrant lost a knockout match / table by not coming (R2011-R1): said once
    "RECEIVED_COPY_LOST": Severity.ERROR,   # a received workbook's copy in received/ gone: its kept reading still counts, the office restores it
}

#: problems of a form that are the office's to settle, not the captain's: a form the office
#: issued under tournament.yaml's former id (TOURNAMENT_ID_MISMATCH: put the id back; it is
#: taken once the id is back), a received form's copy in received/ lost (RECEIVED_COPY_LOST:
#: restore it; its kept reading counts meanwhile).  No receipt is sent while one stands
#: (:func:`pipeline.mail.receipts.recipients`: it would tell the captain of it — it is sent,
#: as one owed, once settled), no returned copy is marked for the captain
#: (:func:`pipeline.run.plan_returned_copies`), the night's 工会办公室下一步 does not say to send
#: the forms back to the units and the unit's page does not ask for a correction
#: (:func:`pipeline.render.site_vm.next_steps`)
OFFICES_MATTER: frozenset[str] = frozenset({"TOURNAMENT_ID_MISMATCH", "RECEIVED_COPY_LOST"})

#: codes said only on the night what they report happens, never again by a later night that
#: replays what an earlier one found (a kept event state, an unchanged night's report): the
#: ledger keeps what they report (the places as now published), and a warning said every night
#: would hold the exit status at 1 with nothing left to do
NIGHT_ONLY: frozenset[str] = frozenset({"PLACES_CHANGED", "UNIT_RENAMED", "SPEC_EDITED", "ADDRESS_BOUNCED", "CHECKIN_FORM_UPDATED",
                                        "RESULTS_REWRITTEN"})

#: warnings about a state that stays until the office acts, which it may decide to leave as
#: it is (a published draw whose inputs were corrected since: DRAW_INPUT_CHANGED).  A warning
#: on the night it is first said (or says something new); on a later night that finds the
#: very same message it is a note (info) — still in issues.csv and on the site, no longer
#: holding the exit status at 1 under cron (:func:`pipeline.lastrun.said_before`).  So is a
#: result sheet of a round not drawn yet (ROUND_NOT_DRAWN): read when its round is drawn;
#: a table a later sheet left blank, scored from the earlier one (RESULT_LEFT_BLANK); a
#: tournament.yaml edit not applied to drawn events (TERMS_CHANGED); a newer form that left
#: people out (PEOPLE_DROPPED) — an ended season said exit 1 every night for such notes
SAID_ONCE: frozenset[str] = frozenset({"DRAW_INPUT_CHANGED", "ROUND_NOT_DRAWN", "RESULT_SHEET_BLANK", "RESULT_SIGNED_BLANK",
                                       "PEOPLE_DROPPED", "RESULT_LEFT_BLANK", "TERMS_CHANGED",
                                       "ROUNDS_CAPPED", "DOUBLE_BOOKED", "SIGNATURE_UNCLEAR",
                                       "CLOCK_WAS_AHEAD", "PLACE_VACANT", "SESSION_PASSED"})

#: the words of a DUPLICATE_PERSON warning on a row already in a published draw
#: (:func:`pipeline.validate.checks.duplicate_drawn_note`): the office decides, and may leave
#: it — said once like :data:`SAID_ONCE`, where every other DUPLICATE_PERSON is said each night
DRAWN_DUPLICATE = "他/她在已公布的对阵中（此前版本的程序录入了这一行）"


def said_once(code: str | None, message: str | None) -> bool:
    """Whether an issue is a warning the night it is first said and a note on a later night
    that says the same (:data:`SAID_ONCE`, and a drawn duplicate: :data:`DRAWN_DUPLICATE`)."""
    return code in SAID_ONCE or (code == "DUPLICATE_PERSON" and DRAWN_DUPLICATE in (message or ""))


@dataclass(frozen=True)
class Issue:
    """One problem found in the inputs (issues.csv's row): its code, severity, message in Chinese and where it is."""

    code: str
    severity: Severity
    message: str
    branch: str = ""
    file: str = ""
    sheet: str = ""
    cell: str = ""
    #: the SHA-256 of the received file the issue is about, when it is about one ("" when
    #: not, or not known): a captain who sends a corrected ``报名表.xlsx`` sends a file of
    #: the same name, so the name alone cannot tell its problems from the older file's.
    #: Not an issues.csv column.
    source: str = ""

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown issue code {self.code!r}")

    def row(self) -> dict[str, str]:
        """The issues.csv row (contract columns, in order)."""
        return {
            "code": self.code,
            "severity": str(self.severity),
            "branch": self.branch,
            "file": self.file,
            "sheet": self.sheet,
            "cell": self.cell,
            "message": self.message,
        }

    @classmethod
    def from_row(cls, r: dict[str, str]) -> "Issue":
        """The issue of an issues.csv row (:meth:`row`), as a run's record keeps it."""
        return cls(code=r["code"], severity=Severity(r["severity"]), message=r["message"], branch=r["branch"],
                   file=r["file"], sheet=r["sheet"], cell=r["cell"])


ISSUE_COLUMNS = ["code", "severity", "branch", "file", "sheet", "cell", "message"]


#: removed from messages (:func:`issue`)
_CONTROL = dict.fromkeys(map(ord, CONTROL_CHARS))


#: the longest message kept whole; a longer one keeps its start and its end (what to change)
MESSAGE_MAX = 1000


def shorten_message(message: str) -> str:
    """``message`` cut in the middle when it is longer than :data:`MESSAGE_MAX` characters.

    A message quotes what a captain typed, and a cell holds up to 32,767 characters: a
    name pasted with a whole page after it made every issues.csv row, receipt, page and
    the returned copy's comment (a box thousands of lines tall) that long.  The start
    (where and what) and the end (what to change) are kept.

    >>> len(shorten_message("姓名“" + "张" * 40000 + "”过长，请改正。")) <= MESSAGE_MAX
    True
    """
    if len(message) <= MESSAGE_MAX:
        return message
    keep = MESSAGE_MAX - len(f"…（此处略去 {len(message)} 字）…")
    head = keep * 2 // 3
    return f"{message[:head]}…（此处略去 {len(message) - keep} 字）…{message[len(message) - (keep - head):]}"


#: the characters of a cell a message quotes at most (:func:`quoted`)
QUOTE_MAX = 40


def quoted(value: Any, limit: int = QUOTE_MAX) -> str:
    """A cell's value as a message quotes it: as typed, trimmed (an integral number without
    ``.0``), and at most ``limit`` characters, then “…”.  A score of 5,000 digits (or 1e300,
    301 of them) made a message of 1,000 characters (:func:`shorten_message`), nine tenths of
    it digits: the problem is said, what was typed only recognised.

    >>> quoted(" 甲胜 "), quoted(2.0), quoted("9" * 50), quoted(None)
    ('甲胜', '2', '9999999999999999999999999999999999999999…', '')
    """
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, dt.timedelta):       # an elapsed-time cell: 25:00, as it shows
        from .ingest.workbook import cell_text
        value = cell_text(value)
    text = str(value).strip()
    return text if len(text) <= limit else text[:limit] + "…"


def where(i: Issue) -> str:
    """``i``'s place as a message names it: ``报名表!B15``, else its sheet or cell alone ("" for
    a whole file)."""
    if i.sheet and i.cell:
        return f"{i.sheet}!{i.cell}"
    return i.sheet or i.cell


def unlocated(i: Issue) -> str:
    """``i``'s message without the place it starts with, for what gives the place beside it —
    a receipt's line (``[CODE] 报名表!B15：…``), a unit page's 位置 column, a returned copy's
    工作表 and 单元格 columns.  A registration check's message starts with its cell
    (``报名表!B15 “双扣”超出名额…``, as issues.csv keeps it), and each of those said it twice:
    ``[QUOTA_EXCEEDED] 报名表!B15：报名表!B15 …``.

    >>> from pipeline.model import Severity
    >>> unlocated(Issue("QUOTA_EXCEEDED", Severity.ERROR, "报名表!B15 “双扣”超出名额", sheet="报名表", cell="B15"))
    '“双扣”超出名额'
    >>> unlocated(Issue("QUOTA_EXCEEDED", Severity.ERROR, "报名表!B15 “双扣”超出名额", sheet="报名表", cell="B1"))
    '报名表!B15 “双扣”超出名额'
    """
    at = where(i)
    if not at or not i.message.startswith(at):
        return i.message
    rest = i.message[len(at):]
    if rest[:1] not in (" ", "：", ":", "\u3000"):      # (报名表!B1 is not the start of 报名表!B15)
        return i.message
    return rest.lstrip(" ：:\u3000") or i.message


def settled(i: Issue, note: str) -> Issue:
    """``i`` as a note (info) saying why it needs nothing more — a later sheet corrected
    it — within :data:`MESSAGE_MAX` (the note kept at the end)."""
    return replace(i, severity=Severity.INFO, message=shorten_message(f"{i.message}（{note}）"))


def issue(code: str, message: str, *, at: CellRef | None = None, branch: str = "",
          severity: Severity | None = None, source: str = "") -> Issue:
    """Build an issue with the code's default severity.

    >>> issue("QUOTA_SHORT", "象棋 只报了 1 人", at=CellRef("a.xlsx", "报名表", "B5")).severity
    <Severity.WARNING: 'warning'>
    """
    at = at or CellRef()
    # a message quotes what a captain typed: a control character in it would be invisible
    # on the page and refused by every workbook and PDF it goes to
    message = shorten_message(message.translate(_CONTROL))
    return Issue(code=code, severity=severity or CODES[code], message=message, branch=branch,
                 file=at.file, sheet=at.sheet, cell=at.cell, source=source)


class IssueLog:
    """A list of issues with helpers; checks never raise for bad data.  Issues are added, and
    revised only where a later stage settles one (:meth:`revise`)."""

    def __init__(self, items: Iterable[Issue] = ()) -> None:
        self._items: list[Issue] = list(items)

    def add(self, code: str, message: str, *, at: CellRef | None = None, branch: str = "",
            severity: Severity | None = None, source: str = "") -> Issue:
        it = issue(code, message, at=at, branch=branch, severity=severity, source=source)
        self._items.append(it)
        return it

    def extend(self, items: Iterable[Issue]) -> None:
        self._items.extend(items)

    def revise(self, fn: Callable[[Issue], Issue]) -> int:
        """Replace each issue by ``fn(issue)`` (the same object where nothing changes); returns
        how many changed."""
        new = [fn(i) for i in self._items]
        changed = sum(1 for a, b in zip(self._items, new) if a is not b)
        self._items[:] = new
        return changed

    def __iter__(self) -> Iterator[Issue]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self._items if i.severity == Severity.ERROR]

    def has_errors(self) -> bool:
        return any(i.severity == Severity.ERROR for i in self._items)

    def sorted(self) -> list[Issue]:
        """Stable order for output: by branch, file, sheet, cell (row then column), code.  An
        issue found twice over (a 加赛表 with a renamed sheet, by each event that reads it) is
        said once."""
        def cell_key(c: str) -> tuple[int, str]:
            col = "".join(ch for ch in c if ch.isalpha())
            row = "".join(ch for ch in c if ch.isdigit())
            return (int(row) if row else 0, col)
        return sorted(dict.fromkeys(self._items), key=lambda i: (i.branch, i.file, i.sheet, cell_key(i.cell), i.code, i.message))
