"""The unchanged night: what the last run found, and how to tell, cheaply, that nothing
it depended on has changed since.

Deliberately light (standard library, ``issues`` and ``model`` only).  Two checks,
cheapest first (the first also runs from :mod:`pipeline.quick`, the command's entry
point, before anything else is imported, so a night with no new mail costs little more
than starting Python):

1. *quick*: the code, every file directly in the tournament folder (spec, secret), the
   inbox listing (names, sizes, modification and status-change times, inodes) and the
   options equal the last run's, and no deadline has passed since ("valid until").  No
   user tool can set a ctime back, so a file replaced in place with its old size and
   mtime (``touch -r``, ``cp -p``) is noticed too;
2. *fingerprint* (in ``run``, after intake): the content hashes of every received file —
   used when the quick check cannot decide (e.g. a fresh clone with new mtimes).
"""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import quick as _quick
from .quick import LAST_RUN, code_hash, tournament_id  # noqa: F401 - code_hash, tournament_id re-exported
from .issues import NIGHT_ONLY, Issue, said_once
from .model import Severity
from .text import plain

if TYPE_CHECKING:
    from .state import LeagueState



@dataclass
class RunReport:
    """What a run did, as its summary prints it: files received, registrations, issues, outputs and next steps."""

    out_dir: Path
    received_new: int = 0
    received_total: int = 0
    registrations: int = 0
    accepted_branches: list[str] = field(default_factory=list)
    rejected_files: list[str] = field(default_factory=list)
    entries: int = 0
    issues: list[Issue] = field(default_factory=list)
    written: int = 0
    events: list[str] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    unchanged: bool = False
    state: "LeagueState | None" = None   # this run's state (None when nothing changed)
    #: this night's mail (--imap, --smtp): what was fetched or sent, or why not.  Never kept
    #: for a later night (:func:`save`): an unchanged night said the first night's mail error
    #: ever after, and never its own
    mail: list[str] = field(default_factory=list)
    #: mail could not be fetched, or receipts not sent, this night: exit 1, not 0 (a cron job
    #: saw healthy nights while no mail arrived)
    mail_failed: bool = False

    @property
    def needs_attention(self) -> bool:
        return self.mail_failed or any(i.severity in (Severity.ERROR, Severity.WARNING) for i in self.issues)

    def summary(self) -> str:
        errors = sum(i.severity == Severity.ERROR for i in self.issues)
        warnings = sum(i.severity == Severity.WARNING for i in self.issues)
        lines = [f"输出目录 {self.out_dir}",
                 f"收到文件 {self.received_total} 个（本次新收 {self.received_new} 个）；"
                 f"报名表 {self.registrations} 份，已接受 {len(self.accepted_branches)} 个单位；"
                 f"报名 {self.entries} 项。",
                 f"问题：错误 {errors} 条，警告 {warnings} 条（见 data/issues.csv）。"]
        if self.rejected_files:
            lines.append("未被接受的文件：" + "、".join(self.rejected_files))
        lines += [f"  {e}" for e in self.events]
        lines.append(f"写出文件 {self.written} 个。" if not self.unchanged else "没有新文件，输出未变。")
        if self.mail or self.next_steps:
            lines.append("工会办公室下一步：")
            lines += [f"  - {s}" for s in [*self.mail, *self.next_steps]]
        # (a file or mail name kept as received for a Traditional page, pipeline.text.keep, is
        # shown here as it is: its marks were printed, U+E000, a review)
        return plain("\n".join(lines))


def canon(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)


def quick_digest(folder: Path, now_fixed: dt.datetime | None, pdf: bool) -> str:
    """Code + the tournament folder's own files + the inbox listing + options
    (:func:`pipeline.quick.quick_digest`)."""
    return _quick.quick_digest(folder, now_fixed.isoformat() if now_fixed else "", pdf)


def save(out: Path, fingerprint: str, report: RunReport, quick: str, valid_until: dt.datetime | None,
         folder: Path | None = None, league: str = "") -> None:
    """Record this run: both checks' keys, the report a later unchanged night returns, and
    that night's summary and exit status for :mod:`pipeline.quick` (which imports nothing)."""
    from .fsutil import atomic_write_text

    r = {"registrations": report.registrations, "received_total": report.received_total,
         "accepted_branches": report.accepted_branches, "rejected_files": report.rejected_files,
         "entries": report.entries, "events": report.events,
         # (a next step about a night-only issue goes with it: 名次和奖项有变 was said again)
         "next_steps": [s for s in report.next_steps if not any(code in s for code in NIGHT_ONLY)],
         # a night-only issue (PLACES_CHANGED) is this night's news: an unchanged night
         # after it does not say it again (nor hold the exit status at 1 for it)
         "issues": [_as_later_night(i.row()) for i in report.issues if i.code not in NIGHT_ONLY]}
    again = _report(out, r)
    body = {"fingerprint": fingerprint, "quick": quick,
            "valid_until": valid_until.isoformat() if valid_until else None,
            "summary": again.summary(), "attention": again.needs_attention, "report": r,
            "outputs": _quick.outputs_listing(str(out)),       # what a later night checks is still there
            # the tournament folder it ran: a run of it under another id finds its ledger here
            # (pipeline.run.tournament_id_changed)
            **({"folder": str(Path(folder).resolve()), "league": league} if folder is not None else {})}
    atomic_write_text(out / LAST_RUN, canon(body), durable=True)   # after the outputs it lists (run: sync_all)


def _as_later_night(row: dict[str, str]) -> dict[str, str]:
    """An issue row as a later night with the same inputs says it: a said-once warning
    (:data:`pipeline.issues.SAID_ONCE`) is a note by then — an unchanged night replays it so."""
    return {**row, "severity": str(Severity.INFO)} if said_once(row["code"], row.get("message")) else row


#: the ledger's cache key of what the last finished run said once (:func:`said_kept`): kept
#: there, not only in the record (``.lastrun.json``), which may be deleted at any time — a
#: said-once warning came back with it (exit 1, and 下一步 asked the office to act again)
SAID_KEY = "said-once"


def said_kept(issues: list[Issue]) -> bytes:
    """What a finished run said once (:data:`pipeline.issues.SAID_ONCE`), as the ledger keeps
    it under :data:`SAID_KEY`: the sorted (code, message) of those issues, warnings and notes."""
    return canon(sorted({(i.code, i.message) for i in issues if said_once(i.code, i.message)})).encode()


def said_before(record: dict | None, kept: bytes | None = None) -> set[tuple[str, str]]:
    """(code, message) of the said-once issues (:data:`pipeline.issues.SAID_ONCE`) the last
    finished run said: this night says them as notes.  ``kept``: the ledger's record of them
    (:func:`said_kept`, under :data:`SAID_KEY`), written by each run that finishes — it
    answers whatever became of ``.lastrun.json``.  Without it (a ledger of an older version,
    or damaged), the last run's record (:func:`record`, or :func:`said_record` after a run
    that did not finish); nothing when there is none — then they are warnings again."""
    if kept is not None:
        try:
            pairs = json.loads(kept)
        except ValueError:
            pairs = None
        if isinstance(pairs, list):
            return _as_now_worded({(p[0], p[1]) for p in pairs if isinstance(p, list) and len(p) == 2})
    rows = record.get("report", {}).get("issues", []) if isinstance(record, dict) else []
    return _as_now_worded({(r.get("code"), r.get("message")) for r in rows
                           if isinstance(r, dict) and said_once(r.get("code"), r.get("message"))})


def _as_now_worded(pairs: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """``pairs`` and each as this version words it: messages wrote a received time as
    ``11-10 19:30`` before they wrote ``11月10日 19:30`` (:func:`pipeline.timeutil.cn_when`) —
    a problem said once before the upgrade is not a warning again after it.

    >>> [m for _, m in sorted(_as_now_worded({("RESULT_SHEET_BLANK", "《a》（11-10 19:30 收到），截止 2020-11-09 15:00")}))]
    ['《a》（11-10 19:30 收到），截止 2020-11-09 15:00', '《a》（11月10日 19:30 收到），截止 2020-11-09 15:00']
    """
    import re

    old = re.compile(r"(?<![\d-])(\d{2})-(\d{2}) (\d{2}:\d{2})")
    return pairs | {(c, old.sub(lambda m: f"{int(m[1])}月{int(m[2])}日 {m[3]}", m)) for c, m in pairs
                    if isinstance(m, str)}


def _report(out: Path, r: dict) -> RunReport:
    issues = [Issue.from_row(i) for i in r["issues"]]
    return RunReport(out_dir=out, registrations=r["registrations"], received_total=r.get("received_total", 0),
                     accepted_branches=r["accepted_branches"], rejected_files=r["rejected_files"],
                     entries=r["entries"], issues=issues, events=r["events"], next_steps=r["next_steps"],
                     unchanged=True)


def _body(out: Path) -> dict | None:
    return _quick.last_run(str(out), own=True)


def begin(out: Path) -> tuple[bool, str]:
    """Mark ``out`` as having a run under way (:data:`pipeline.quick.UNFINISHED`), before it
    changes the ledger or any output.  Returns (whether an earlier run left the mark, the
    night's id).  An earlier run that left the mark did not finish: no record of a run
    before it may answer for this night, and this run goes on with *its* night — the mark
    holds the night's id — so what that run took in and found is still this night's news
    (:meth:`pipeline.store.Ledger.night_news`: a run killed after publishing changed places
    left the next run nothing to say of them, and the office was never told)."""
    import os

    path = out / _quick.UNFINISHED
    if path.exists():
        try:
            night = path.read_text(encoding="ascii").strip()
        except (OSError, ValueError):
            night = ""
        if len(night) == 32 and all(c in "0123456789abcdef" for c in night):
            return True, night
        night = os.urandom(16).hex()        # a mark of an older version, or damaged
        try:
            path.write_text(night, encoding="ascii")
        except OSError:
            pass
        return True, night
    night = os.urandom(16).hex()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        os.write(fd, night.encode("ascii"))
    finally:
        os.close(fd)
    # on the disk before any output changes (they are synced only at the run's end)
    fd = os.open(out, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:         # a file system that cannot sync a folder: as before
        pass
    finally:
        os.close(fd)
    return False, night


def said_record(out: Path) -> dict | None:
    """The record of the last run that finished, as it was written, whatever became of its
    outputs since: what that night told the office (:func:`said_before`) — after a run that
    did not finish too (a said-once warning was a warning again after one)."""
    import json

    try:
        body = json.loads((out / LAST_RUN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None


def finish(out: Path) -> None:
    """The run has recorded itself (:func:`save`), or written nothing: the mark goes."""
    (out / _quick.UNFINISHED).unlink(missing_ok=True)


def record(out: Path) -> dict | None:
    """The last run's record, when a night may trust it: there, readable, its outputs as it
    left them (:func:`pipeline.quick.last_run`).  Read before this night changes an output:
    a returned copy made early (by the prestarted worker) changes their listing, and the
    record would then be refused or not by the worker's timing."""
    return _body(out)


def load(out: Path, fingerprint: str, body: dict | None) -> RunReport | None:
    """The previous run's report when its fingerprint matches (``body``: its :func:`record`)."""
    if body is None or body.get("fingerprint") != fingerprint:
        return None
    return _report(out, body["report"])


def quick_unchanged(folder: Path, out_parent: Path, now: dt.datetime | None, pdf: bool
                    ) -> tuple[RunReport | None, str]:
    """(the previous report when the quick check shows nothing changed, else None; this
    night's quick digest, to be saved by the run that follows)."""
    current = now or dt.datetime.now(dt.timezone.utc)
    body, digest, out = _quick.unchanged(folder, out_parent, now.isoformat() if now else "", current.isoformat(), pdf)
    if body is None or out is None:
        return None, digest
    return _report(Path(out), body["report"]), digest
