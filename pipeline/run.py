"""The nightly batch: ingest → validate → draw → score → render.

This is the only module (with ``cli``) that knows every stage.  Each stage is a function
of the previous stages' plain results; all I/O is here or in the writers it calls.
"""
from __future__ import annotations

import collections
import contextlib
import dataclasses
import datetime as dt
import functools
import hashlib
import json
import os
import random
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Iterator, Mapping, Sequence

from . import lastrun
from .lastrun import RunReport, canon as _canon
from .issues import ISSUE_COLUMNS, NIGHT_ONLY, OFFICES_MATTER, Issue, IssueLog, issue, quoted, said_once, settled
from .layout import FINAL_PLACES, WITHDRAWN_BYE
from .model import (VACANT, CellRef, Entry, Match, MatchResult, Outcome, Person, Playoff, Round, Severity, SideResult,
                    staff_key)
from .state import (LATE_VALID, AwardRow, BareMail, EventState, KeptResults, LeagueState, ResentForm, StandingTable,
                    Submission, forms_still_count, sheet_awards_due)
from .store import Ledger, OwnCopy, Received, RunLock, inbox_files, kept_whole, sha256
from .fsutil import shown_name, sync_all, syncing_each
from .mailname import hash_named, mail_named
from .timeutil import TZ, aware, cn_datetime, cn_when, from_timestamp, stamp

if TYPE_CHECKING:
    import logging

    from .render.pdf import MissingFontError
    from .spec import EventSpec, FormatSpec, SessionSpec, Tournament
    from .games.base import ResultRow


def log() -> "logging.Logger":
    """The run's logger (``league``), with :mod:`logging` imported when something is logged:
    a night logs nothing unless a file vanishes or cannot be read (and its progress lines go
    to :class:`pipeline.runcmd.Progress`), and the import with its traceback and string
    modules is ~3 ms of a one-changed night."""
    import logging
    return logging.getLogger("league")

WORKBOOK_EXTS = {".xlsx", ".xlsm", ".xls", ".csv", ".xltx"}
#: spreadsheets of other programs, not read: saved as .xlsx they are (LibreOffice, WPS, Numbers)
OTHER_SHEET_EXTS = {".ods", ".fods", ".ots", ".et", ".ett", ".xlsb", ".numbers"}


@dataclass
class RunOptions:
    """How ``league run`` was called: the tournament folder, the output folder, the time, PDFs and mail."""

    folder: Path
    out_parent: Path = Path("output")
    now: dt.datetime | None = None
    pdf: bool = True
    imap_url: str | None = None
    smtp_url: str | None = None
    wait: float = 0.0
    progress: Callable[[str], None] | None = None


# =====================================================================================
# ingest
# =====================================================================================

@dataclass
class Inputs:
    """Everything read from the received files this run."""

    registrations: list[tuple[Received, Any]] = field(default_factory=list)   # (rec, Registration)
    results: list[tuple[Received, Any]] = field(default_factory=list)         # (rec, Book)
    awards: list[tuple[Received, Any]] = field(default_factory=list)
    checkins: list[tuple[Received, Any]] = field(default_factory=list)
    playoffs: list[tuple[Received, Any]] = field(default_factory=list)
    unreadable: list[Received] = field(default_factory=list)
    #: each OTHER_UNITS_FORM file's SHA-256 → (the unit whose genuine form it is, the names on
    #: it) (:func:`settle_rejected_before`)
    other_units: dict[str, tuple[str, frozenset[tuple[str, str, str]]]] = field(default_factory=dict)
    #: each registration's own reading problems, by the file's SHA-256: they go to the issue
    #: log only while the file counts (:func:`current_registrations`), not once superseded
    reg_issues: dict[str, list[Issue]] = field(default_factory=dict)
    context: str = ""     # what every reading depends on besides its file (_read_context)
    #: the returned copies the runs wrote, by the SHA-256 of their bytes (:meth:`Ledger.own_copies`):
    #: one received is no form (:func:`read_inputs`, :func:`resent_issues`)
    own_copies: dict[str, OwnCopy] = field(default_factory=dict, repr=False, compare=False)
    #: each mail attachment's mail, by the attachment's SHA-256: (the mail as messages name it,
    #: without its time — :func:`_mail_called` —, its sender); LATE_SUBMISSION and the run's
    #: summary name two captains' 《报名表.xlsx》 apart by them
    mail_of: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: each workbook of a mail that carried two or more, by its SHA-256: (that mail's SHA-256,
    #: its place among the mail's attachments) — SAME_TIME's order when the saved times do not tell
    attached_at: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: the SHA-256 of the files this night's intake recorded (PLACES_CHANGED names the event's)
    new_files: frozenset[str] = frozenset()
    #: this night, as no other: a kept event state says its night-only issues (NIGHT_ONLY)
    #: only to the night that found them (an event pool's worker and the run that takes its state)
    night: str = field(default_factory=lambda: os.urandom(16).hex(), compare=False)
    #: (branch, event) → when the form holding the branch's rows of the event was received
    #: (:func:`entry_forms`): an entry of round 1's drawn event in no round whose form came
    #: before the draw became valid only since (:meth:`EventRunner.late_valid_ids`)
    entry_forms: dict[tuple[str, str], dt.datetime] = field(default_factory=dict, repr=False, compare=False)
    #: each event's key function, made once per run (:func:`_event_key`)
    event_keys: dict[tuple, tuple[list, Callable[[list[str]], str]]] = field(default_factory=dict, repr=False,
                                                                             compare=False)


def intake(t: Tournament, ledger: Ledger, issues: IssueLog, readings: dict[str, bytes] | None = None,
           listing: list[tuple[str, str, dt.datetime]] | None = None, now: dt.datetime | None = None) -> int:
    """Store every new inbox file (and the .xlsx attachments of every .eml) by content
    hash, then record them.  Returns how many new files were recorded.

    The new files are parsed and stored on every core (:mod:`pipeline.parallel`; parsing a
    mail is most of the work); each blob is synced before the ledger records it, and the
    records of the night go in one transaction, in inbox order (attachments before their
    mail), so a run killed halfway records nothing and the next run takes the inbox again.
    With ``readings``, the same workers also read each new workbook (:func:`_read_one`) and
    leave its reading there under its key (:func:`_reading_key`) for :func:`read_inputs`.
    ``listing`` gets ``(inbox path, SHA-256, modification time)`` of every inbox file read
    (:func:`inbox_copies` finds the copies of one content among them).

    R2020-Q4: a content is received when its first copy came.  An inbox file whose content
    the ledger holds, with a modification time before the recorded time of receipt (a copy
    kept with its old file time; a mail saved long before its recorded copy), is taken in
    again, and so is every new mail: a workbook it carries that was recorded later (a late
    copy first, the captain's on-time mail on a later night) takes the earlier time
    (:meth:`Ledger.record_many`, audited at ``now``).  A round drawn meanwhile stands:
    :meth:`EventRunner.check_frozen_inputs` says DRAW_INPUT_CHANGED.

    An empty file is not recorded: UNREADABLE_FILE at its path.  A symbolic link is read
    only when it leads to a regular file inside the inbox; any other is INBOX_LINK, saying
    why it was skipped.

    A file still being written as it is read (:func:`_being_written`) is not recorded: it is
    left for the next night, and said (FILE_BEING_WRITTEN) — a file caught halfway through a
    copy was recorded truncated (UNREADABLE_FILE) and again whole the next night."""
    import time

    from .parallel import Jobs

    clock = time.time        # the machine's clock, not --now: is a file being written right now?
    todo = []
    first: dict[str, tuple[dt.datetime, Path, bytes]] = {}
    jobs = Jobs()
    context = _read_context(t) if readings is not None else None
    known: dict[str, list[Received]] | None = None
    # each file's content hash, kept with what its stat said when it was read: a file whose
    # size, times and inode are the same (no user tool sets a ctime back: the quick check's
    # own test) is the same file, and is not read again to be hashed (every file ever
    # received is in the inbox, every night)
    try:
        sigs = json.loads(ledger.cache_get([INBOX_HASHES]).get(INBOX_HASHES, b"{}"))
    except ValueError:          # a damaged cache entry: every file is read, as before
        sigs = {}
    if not isinstance(sigs, dict):
        sigs = {}
    now_sigs: dict[str, list] = {}

    def read(rel_raw: str, path: Path) -> bytes | None:
        """The file's bytes; None when it is gone (taken away while the run reads the inbox:
        next night) or cannot be read (no permission, an I/O error: said, the night goes on)."""
        try:
            return path.read_bytes()
        except FileNotFoundError:
            log().warning("收件箱中的文件在读取时不见了（如又放回，下次运行收取）：%s", path)
        except OSError as e:
            _inbox_unreadable(issues, rel_raw, e)
        return None

    links: list[tuple[str, str]] = []
    for rel_raw, full, st in inbox_files(t.inbox, links):
        path = Path(full)
        if Path(rel_raw).suffix.lower() in PARTIAL_EXTS:
            # a browser's or sync tool's download not yet finished (象棋r1成绩表.xlsx.crdownload):
            # never a form — left while it is written, said once at its path when it stays
            # (it was recorded as 不是 Excel 工作簿 for good, the finished file beside it)
            if abs(clock() - st.st_mtime) < WRITING_SECONDS:
                _left_for_next_night(issues, rel_raw)
            else:
                _partial_download(issues, rel_raw, path, clock())
            continue
        sig = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        kept = sigs.get(rel_raw)
        data: bytes | None = None
        unchanged = (isinstance(kept, list) and len(kept) == 5 and kept[:4] == sig and isinstance(kept[4], str)
                     and kept[4] != _EMPTY_SHA)
        if unchanged:
            h = kept[4]
        else:
            data = read(rel_raw, path)
            if data is None:
                continue
            try:
                now_st = os.stat(full)      # (as read: the listing's stat may be older)
            except OSError:                 # gone since
                continue
            if _being_written(st, now_st, data, Path(rel_raw).suffix.lower(), clock()):
                _left_for_next_night(issues, rel_raw)       # (its stat is not kept: read again)
                continue
            if not data:        # nothing to keep: said at its path, every night it is there
                _inbox_empty(issues, rel_raw)
                continue
            st = now_st
            h = sha256(data)
        mtime = from_timestamp(st.st_mtime)
        now_sigs[rel_raw] = [*sig, h]
        rel = shown_name(rel_raw)
        if listing is not None:
            listing.append((rel, h, mtime))
        had = ledger.has(h)
        if data is None and not had:        # (a kept hash the ledger does not hold: read it)
            data = read(rel_raw, path)
            if data is None:
                continue
            h = sha256(data)
            now_sigs[rel_raw][4] = h
            had = ledger.has(h)
        if had:
            if known is None:
                known = {}
                for r in ledger.received():
                    known.setdefault(r.sha256, []).append(r)
                    if r.parent:
                        known.setdefault(r.parent, []).append(r)
            if any(not kept_whole(r.stored(ledger.root), st.st_size if r.sha256 == h else None)
                   for r in known.get(h, [])):
                # a kept copy lost from received/ (deleted by hand, a restore) or cut short (a
                # full disk, a bad restore): stored again from the inbox, which still has it —
                # its records stand as they were
                log().warning("输出文件夹 received/ 中保存的副本丢失或不完整，已从收件箱重新保存：%s", path)
                if data is None:
                    data = read(rel_raw, path)
                if data is not None and sha256(data) == h:
                    _take_in(t, ledger.root, data, h, rel_raw, mtime, None)
            # a copy older than the content's recorded receipt (R2020-Q4): taken in again,
            # its earlier time replaces the record's (Ledger.record_many) — looked at when the
            # file is new to the inbox or changed (its stat kept since says it was: a mail
            # whose Date is a minute after its file time is not parsed again every night)
            recorded = [aware(r.received_at) for r in known.get(h, []) if r.sha256 == h]
            if unchanged or not recorded or aware(mtime) >= min(recorded):
                continue
            if data is None:
                data = read(rel_raw, path)
                if data is None or sha256(data) != h:
                    continue
        # two copies of one file (报名表.xlsx and 报名表(1).xlsx): the earlier is when it was
        # received, whichever name sorts first (an on-time form was refused as late)
        if h in first and first[h][0] <= mtime:
            continue
        first[h] = (mtime, rel, data)
    for rel_raw, why in links:
        _inbox_link(issues, rel_raw, why)
    for h, (mtime, rel, data) in first.items():
        todo.append(jobs.add(functools.partial(_take_in, t, ledger.root, data, h, rel, mtime, context),
                             cost=len(data)))
    got_all: list[list[Received]] = []
    notes: dict[str, bytes] = {}
    with jobs:
        jobs.start()
        for handle in todo:
            got, read, note = handle.result()
            got_all.append(got)
            if readings is not None:
                readings.update(read)
            if note is not None:        # a mail's note, made from the parse just done (mail_issues)
                notes[_mail_note_key(got[-1].sha256, office_addresses(t.spec))] = json.dumps(note, ensure_ascii=False).encode()
    # in the order received (a mail's attachments before it, as _take_in lists them): one
    # workbook attached to two mails is recorded with the earlier mail's time
    recs = [r for got in sorted(got_all, key=lambda g: min(aware(r.received_at) for r in g)) for r in got]
    if recs and not syncing_each():     # the night's new received copies on the disk before they are recorded
        sync_all(ledger.root)
    done = ledger.record_many(recs, now) if recs else []
    # (kept after the records: a run killed before them reads the files again — a copy older
    # than its content's record is looked at again — and parses the mails again)
    if now_sigs != sigs:
        notes[INBOX_HASHES] = json.dumps(now_sigs).encode()
    if notes:
        ledger.cache_put(notes)
    return sum(1 for rec, fresh in zip(recs, done) if fresh or rec.kind == "mail")


#: the ledger's cache key of each inbox file's content hash with its stat (:func:`intake`)
INBOX_HASHES = "inbox:hashes"


#: a file modified this recently (seconds, by the machine's clock) may still be being written
WRITING_SECONDS = 30
_ZIP_EXTS = (".xlsx", ".xlsm", ".xltx", ".zip")
#: the suffixes browsers and sync tools give a file while they download or write it
PARTIAL_EXTS = (".crdownload", ".part", ".partial", ".download", ".tmp")


def _being_written(listed: os.stat_result, read: os.stat_result, data: bytes, ext: str, now: float) -> bool:
    """Whether an inbox file is still being written (copied in from a share, saved by the
    mail program) as the run reads it: it changed between the listing and the read (size,
    modification time, or fewer bytes read than it holds), or it was modified in the last
    :data:`WRITING_SECONDS` and is empty, or a zip (a workbook) not yet whole — begun
    without its end (the central directory comes last), or space taken and nothing in it —
    or a mail (.eml) not yet whole (:func:`_mail_cut`: a registration mail cut at 700 bytes
    was taken in as a mail without attachment, its captain asked to send the table again).
    A whole file is never "being written"; a truncated one that has not changed for a while
    is a broken file as it came (recorded, and said: UNREADABLE_FILE).  Handbook 二."""
    if (listed.st_size, listed.st_mtime_ns) != (read.st_size, read.st_mtime_ns) or len(data) != read.st_size:
        return True
    if abs(now - read.st_mtime) >= WRITING_SECONDS:
        return False
    if not data:
        return True
    if ext == ".eml":
        return _mail_cut(data)
    if ext not in _ZIP_EXTS:
        return False
    if data.startswith(b"PK\x03\x04"):
        return data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557)) < 0
    return not data.strip(b"\0")


def _mail_cut(data: bytes) -> bool:
    """Whether a mail's bytes stop before its end: its header never ends (no blank line), a
    multipart part of it lacks its closing boundary, or a base64 body stops inside a group of
    four.  Looked at only for a mail written in the last seconds (:func:`_being_written`):
    the parse is not paid for the old mails of every night."""
    import email
    from email import errors, policy

    if b"\n\n" not in data and b"\r\n\r\n" not in data:
        return True
    try:
        msg = email.message_from_bytes(data, policy=policy.compat32)
    except Exception:  # noqa: BLE001 - no parser takes it: a broken mail, said when it is old
        return False
    for part in msg.walk():
        if any(isinstance(d, (errors.CloseBoundaryNotFoundDefect, errors.StartBoundaryNotFoundDefect))
               for d in part.defects):
            return True
        body = part.get_payload()
        if (not part.is_multipart() and isinstance(body, str)
                and str(part.get("content-transfer-encoding", "")).strip().lower() == "base64"
                and len("".join(body.split())) % 4):
            return True
    return False


def _finished_beside(done: Path, now: float) -> bool:
    """Whether ``done`` (a temporary download's name without its suffix) is a finished file:
    there, not empty, not changed in the last :data:`WRITING_SECONDS`, readable, and a
    workbook (zip) begun and ended (:func:`_being_written`'s test: its central directory,
    which comes last, is there).  Firefox writes ``报名表.xlsx.part`` with an empty
    placeholder ``报名表.xlsx`` beside it: a download broken off leaves the placeholder,
    which is no finished file.  Reads at most the file's first 4 bytes and last 64 KiB."""
    import stat

    try:
        st = done.stat()
        if not stat.S_ISREG(st.st_mode) or st.st_size == 0 or abs(now - st.st_mtime) < WRITING_SECONDS:
            return False
        if done.suffix.lower() not in _ZIP_EXTS:
            return True
        with open(done, "rb") as f:
            if f.read(4) != b"PK\x03\x04":
                return False
            f.seek(max(0, st.st_size - 65_557))
            return f.read().rfind(b"PK\x05\x06") >= 0
    except OSError:
        return False


def _partial_download(issues: IssueLog, rel_raw: str, path: Path, now: float) -> None:
    """PARTIAL_DOWNLOAD at a download's temporary file (:data:`PARTIAL_EXTS`) that has not
    changed for a while: not taken in (it is not the file, and most likely not whole) — a
    warning while the finished file is not beside it (:func:`_finished_beside`: an empty
    placeholder or a cut file is not), else a note that it may be deleted.  Handbook 二."""
    rel = shown_name(rel_raw)
    done = path.with_name(path.name[:-len(path.suffix)])
    if done.suffix and _finished_beside(done, now):
        issues.add("PARTIAL_DOWNLOAD", f"收件箱中的《{rel}》是下载或复制时留下的临时文件，没有收取；下载完成的"
                   f"《{shown_name(done.name)}》已在收件箱中，这个临时文件可以删除，无需处理。",
                   at=CellRef(rel), severity=Severity.INFO)
        return
    want = f"《{shown_name(done.name)}》" if done.suffix else "文件"
    issues.add("PARTIAL_DOWNLOAD", f"收件箱中的《{rel}》是没有下载完成（或没有复制完）的临时文件，没有收取："
               f"请重新下载完整的{want}放入收件箱，并删除这个临时文件。", at=CellRef(rel))


def _left_for_next_night(issues: IssueLog, rel_raw: str) -> None:
    """FILE_BEING_WRITTEN at an inbox file left for the next night (:func:`_being_written`)."""
    rel = shown_name(rel_raw)
    issues.add("FILE_BEING_WRITTEN", f"收件箱中的《{rel}》在本次运行读取时仍在写入（刚刚复制或保存，内容还不完整），"
               "本次没有收取，下次运行时再收取，无需处理。如果下次运行仍是这样，请把完整的文件重新放入收件箱。",
               at=CellRef(rel))


def _inbox_empty(issues: IssueLog, rel_raw: str) -> None:
    """An empty inbox file (0 bytes, not being written): UNREADABLE_FILE at its own path.  It
    is not recorded (there is nothing to keep): every empty file has the same content, and of
    two empty 报名表.xlsx only the one recorded first was said."""
    rel = shown_name(rel_raw)
    issues.add("UNREADABLE_FILE", f"收件箱中的《{rel}》没有收取：文件是空的（0 字节），请重新发送"
               "（多半是发送或复制时没有完成；如是直接放进收件箱的，请重新放入完整的文件）。", at=CellRef(rel))


def _inbox_link(issues: IssueLog, rel_raw: str, why: str) -> None:
    """INBOX_LINK at a symbolic link in the inbox that was not followed (:func:`inbox_files`)."""
    from .store import LINK_PROBLEMS

    rel = shown_name(rel_raw)
    issues.add("INBOX_LINK", f"收件箱中的《{rel}》是一个链接（快捷方式），没有收取：{LINK_PROBLEMS.get(why, why)}。"
               "请把文件本身（而不是指向它的链接）放进收件箱。", at=CellRef(rel))


def _inbox_unreadable(issues: IssueLog, rel_raw: str, e: OSError) -> None:
    """An inbox file the run cannot read (no permission, an I/O error): said at the file, and
    the night goes on without it — one such file stopped the whole night (exit 2, nothing
    recorded), night after night."""
    from .runcmd import os_reason

    rel = shown_name(rel_raw)
    issues.add("UNREADABLE_FILE", f"收件箱中的《{rel}》无法读取：{os_reason(e)}。本次没有收取这个文件（其余文件照常处理）；"
               "改正后下次运行会收取它。", at=CellRef(rel))


def _take_in(t: Tournament, root: Path, data: bytes, h: str, rel: str, mtime: dt.datetime,
             context: str | None) -> tuple[list[Received], dict[str, bytes], dict | None]:
    """Store one inbox file (its bytes ``data``, their hash ``h``; a mail: its attachments,
    then itself) in the ledger's blob store; returns its records (a mail's last) and, when ``context`` is given, the pickled
    reading of each workbook among them by key.  Runs in a pool worker."""
    from .store import store_blob_at

    name = Path(rel).name
    ext = Path(rel).suffix.lower()
    note = None
    if ext != ".eml":
        store_blob_at(root, data, ext, h)
        recs = [Received(h, ext, name, mtime, "", rel)]
    else:
        from .ingest.eml import parse_eml_bytes   # here: a night without new mail never imports email
        try:
            mail = parse_eml_bytes(data, rel, office_addresses(t.spec))
        except Exception as e:  # noqa: BLE001 - a mail no parser takes (1000 nested forwards): kept and said
            store_blob_at(root, data, ".eml", h)
            recs = [Received(h, ".eml", name, mtime, "", rel, kind="mail")]
            return recs, {}, _unparsable(e)
        notice = t.spec.notice_date
        received_at = _receipt_time(mail, mtime, notice)
        recs = []
        for att in mail.attachments:
            a_ext = Path(att.filename).suffix.lower() or ".bin"
            # a form forwarded as an attachment: the captain's mail's time (its Date checked as
            # a direct mail's) and sender are its own
            at = _forwarded_time(att, received_at, notice)[0] if att.forwarded else received_at
            recs.append(Received(store_blob_at(root, att.data, a_ext)[0], a_ext, att.filename, at,
                                 att.sender or mail.sender, rel, parent=h))
        store_blob_at(root, data, ".eml", h)
        recs.append(Received(h, ".eml", name, received_at, mail.sender, rel, kind="mail"))
        note = _note_of(mail, received_at, notice)
    # the times as the ledger gives them back (ISO text: a fixed offset, no zone name), so
    # a reading made here is the one read_inputs would make from the ledger's record
    recs = [dataclasses.replace(r, received_at=dt.datetime.fromisoformat(r.received_at.isoformat())) for r in recs]
    read = {}
    if context is not None:
        for rec in recs:
            if rec.ext in WORKBOOK_EXTS:
                try:
                    read[_reading_key(context, rec)] = _read_one_pickled(t, root, rec)
                except Exception:   # noqa: BLE001 - the file is still recorded; read_inputs reads it again and reports
                    log().exception("收件时读取 %s 出错（文件已收下，稍后再读一次，问题见 data/issues.csv）", rec.file_name)
    return recs, read, note


_EMPTY_SHA = hashlib.sha256(b"").hexdigest()


def inbox_copies(listing: list[tuple[str, str, dt.datetime]], received: list[Received]) -> list[tuple[str, str]]:
    """The inbox files (path, SHA-256) that are copies of a received content: beside the
    file its content was recorded from (its own path, or the mail it came attached to) when
    that is still in the inbox, else beside the earliest of them.  A file moved or renamed
    within the inbox is no copy; the same content under two names is, night after night
    alike (decided from the ledger's records, not from which file a night met first)."""
    source = {r.sha256: r.source for r in received}
    here = {rel for rel, _, _ in listing}
    by_sha: dict[str, list[tuple[dt.datetime, str]]] = {}
    for rel, h, mtime in listing:
        by_sha.setdefault(h, []).append((aware(mtime), rel))
    copies: list[tuple[str, str]] = []
    for h, items in by_sha.items():
        src = source.get(h)
        if src in here:
            copies += [(rel, h) for _, rel in items if rel != src]
        else:
            copies += [(rel, h) for _, rel in sorted(items)[1:]]
    return sorted(copies)


def named_apart(received: list[Received]) -> list[Received]:
    """The received files as messages name them: an inbox file whose name another received
    file from elsewhere has too (two captains' 报名表.xlsx in ``inbox/a/`` and ``inbox/b/``)
    by its path in the inbox (``a/报名表.xlsx``) — issues, receipts and the units' pages named
    both 《报名表.xlsx》.  A name no other file has stays (as do a mail's attachments: their
    mail is where they are).  Mails and workbooks are told apart separately."""
    places: dict[tuple[bool, str], set[str]] = {}
    for r in received:
        places.setdefault((r.kind == "mail", r.file_name), set()).add(r.parent or r.source)
    if all(len(p) < 2 for p in places.values()):
        return received
    return [dataclasses.replace(r, file_name=r.source)
            if not r.parent and r.source and r.source != r.file_name and len(places[(r.kind == "mail", r.file_name)]) > 1
            else r for r in received]


def sender_unit(t: Tournament, sender: str | None) -> str:
    """The id of the unit that registered the address ``sender`` (``units[].emails``), or ""
    (a stranger, a file put into the inbox by hand).  It proves nothing (a workbook's token
    does: receipts go by :mod:`pipeline.mail.receipts`), but a note about a received file
    that names no unit itself (an .xls, a form without its _meta, a mail's Date) goes on that
    unit's page: it went to 未归属单位的文件, where no captain looks."""
    return getattr(t.spec.unit_of_address(sender), "id", "")


@dataclass(frozen=True)
class Resent:
    """A content received before, met again (DUPLICATE_FILE): attached to a later mail
    (:func:`mail_issues`), or a copy in the inbox under another name (:func:`inbox_resent`).
    It counts once, at its first receipt; :func:`resent_issues` says so, on its unit's page."""

    sha256: str                     # the content's (the ledger's record is its first receipt)
    what: str                       # how the note names what came again: 邮件《…》的附件《…》
    was: str                        # … and the first receipt: 《…》, 邮件《…》的附件《…》
    at: CellRef                     # the mail, or the inbox copy
    received: dt.datetime | None    # when it came again (None: as the first receipt)
    sender: str = ""                # who sent it again ("" for a file put into the inbox)
    mail: str = ""                  # the SHA-256 of the mail that sent it again ("": an inbox copy)
    subject: str = ""               # … and that mail's subject (its receipt names it so: :mod:`.mailname`)


def inbox_resent(received: list[Received], copies: list[tuple[str, str]],
                 times: dict[str, dt.datetime] | None = None, names: Mapping[str, str] | None = None) -> list[Resent]:
    """Each inbox file whose content was received before under another name (``copies``:
    :func:`inbox_copies`; ``times``: their modification times, by inbox path), for
    :func:`resent_issues` — so a captain who sends an older version again does not make it
    current, and is told how.  (Such a file was set aside without a word.)  A copy of a mail
    is the same mail: it came at the mail's time.  ``names``: how messages name each mail, by
    its SHA-256 (:func:`mail_names`; a mail fetched by --imap is no 《<hash>.eml》)."""
    by_sha = {r.sha256: r for r in received}
    out: list[Resent] = []
    for rel, h in sorted(set(copies)):
        first = by_sha.get(h)
        if first is None or h == _EMPTY_SHA:
            continue
        out.append(Resent(h, f"收件箱中的《{rel}》", _named(first, names), CellRef(rel),
                          None if first.kind == "mail" else (times or {}).get(rel)))
    return out


def resent_issues(t: Tournament, received: list[Received], resent: list[Resent], inputs: Inputs,
                  newest: list[tuple[Received, Any]], issues: IssueLog,
                  names: Mapping[str, str] | None = None) -> list[ResentForm]:
    """DUPLICATE_FILE for each content received again (:class:`Resent`), on its unit's page:
    the unit of the registration form its bytes were read as (of the form a mail carried,
    for a copy of the mail), else of the registered address that sent it again, else of the
    one that sent it first.

    Info when it changes nothing (the current form sent twice).  A warning when it is a
    unit's form that a later one (``newest``: each unit's current form,
    :func:`current_registrations`) superseded, and it came again after that one: the
    captain who sends X, then Y, then X again believes X counts — it does not (the content
    counts once, at its first receipt), and the note names the form that does and says how
    to make X's content count again.  Returns those that came by mail, for their receipts
    (:class:`pipeline.state.ResentForm`: the warning reached the office only).  ``names``: how
    messages name each mail, by its SHA-256 (:func:`mail_names`)."""
    if not resent:
        return []
    forms: list[ResentForm] = []
    by_sha = {r.sha256: r for r in received}
    branch_of: dict[str, str] = {}
    usable: set[str] = set()
    for rec, reg in inputs.registrations:
        branch_of[rec.sha256] = getattr(reg, "branch", "") or ""
        if getattr(reg, "usable", False) and branch_of[rec.sha256]:
            usable.add(rec.sha256)
    for r in received:          # a mail: the branch of the registration it carried
        if r.parent and branch_of.get(r.sha256):
            branch_of.setdefault(r.parent, branch_of[r.sha256])
    current = {getattr(reg, "branch", ""): rec for rec, reg in newest}
    sheets = _result_rounds(t, inputs)
    word = t.spec.unit_word
    # a time received in the minute of a deadline or of a session's start is said with its
    # seconds, as LATE_SUBMISSION and SESSION_PASSED say it (R2020-Q4, R2020-S1: a result sheet
    # in at 16:00:30 was 16:00 here, 16:00:30 in SESSION_PASSED — an audit; at a start itself
    # too, 16:00:00, as SESSION_PASSED: late for it — a review)
    marks = [e.deadline for e in t.spec.events]
    starts = _starts(t.spec.sessions)
    for x in resent:
        first = by_sha.get(x.sha256)
        if first is None:
            continue
        ours = inputs.own_copies.get(x.sha256)
        if ours is not None:        # a returned copy of ours, come again: no form either time
            own_copy_issue(issues, x.what, ours, x.at,
                           ours.branch or sender_unit(t, x.sender) or sender_unit(t, first.sender))
            continue
        branch = branch_of.get(x.sha256) or sender_unit(t, x.sender) or sender_unit(t, first.sender)
        first_at = aware(first.received_at)
        said = f"{x.what}与此前收到的{x.was}（{cn_when(first_at, marks, starts)} 收到）内容完全相同，按一份处理"
        in_force = current.get(branch) if x.sha256 in usable else None
        if (in_force is not None and in_force.sha256 != x.sha256 and aware(in_force.received_at) > first_at
                and x.received is not None and aware(x.received) > aware(in_force.received_at)):
            warned = issues.add("DUPLICATE_FILE", f"{said}、仍算作当时收到的那一份，因此没有取代"
                       f"其后收到的《{in_force.file_name}》（{cn_when(in_force.received_at, marks, starts)} 收到）："
                       f"本{word}目前有效的报名表仍是《{in_force.file_name}》。如果要改回这一版，请打开这份报名表做任意修改"
                       "（如在备注中注明日期）并保存后重新发送；原样重发的文件仍按同一份处理，不会生效。",
                       at=x.at, branch=branch, severity=Severity.WARNING)
            if x.mail and x.sender and x.received is not None and x.mail not in {f.sha256 for f in forms}:
                forms.append(ResentForm(x.mail, x.at.file, x.received, x.sender.strip().lower(), branch,
                                        warned.message, subject=x.subject))
        elif (later := _sheet_in_force(x, first, sheets)) is not None:
            # the same for a result sheet: a referee who sends A, a correction B, then A again
            # "to undo B" believes A counts — B does (it was an info note, exit 0)
            ev, rnd, rec = later
            warned = issues.add("DUPLICATE_FILE", f"{said}、仍算作当时收到的那一份，因此没有取代其后收到的"
                                f"{_named(rec, names)}（{cn_when(rec.received_at, marks, starts)} 收到）：{ev}第{rnd}轮"
                                "的成绩仍以后收到的那一份为准。如果要改回这一版，请打开这份成绩表做任意修改（如在签名栏旁"
                                "注明日期）并保存后重新发送；原样重发的文件仍按同一份处理，不会生效。",
                                at=x.at, branch=branch, severity=Severity.WARNING)
            if x.mail and x.sender and x.received is not None and x.mail not in {f.sha256 for f in forms}:
                forms.append(ResentForm(x.mail, x.at.file, x.received, x.sender.strip().lower(), branch,
                                        warned.message, form="成绩表", subject=x.subject))
        else:
            issues.add("DUPLICATE_FILE", f"{said}，收到时间以最初的一次为准。如果其间已发过另一版、现在要改回这一版，"
                       "请在表中做任意修改（如在报名表的备注、成绩表的签名栏旁注明日期）后重新发送。", at=x.at, branch=branch)
    return forms


def _result_rounds(t: Tournament, inputs: Inputs) -> dict[str, tuple[tuple[str, str, str], Received, Any]]:
    """Each result sheet of this tournament, by SHA-256: ((event id, event name, round) as its
    _meta says — :meth:`EventRunner.round_books` reads it so —, its receipt, its reading)."""
    from . import layout

    names = {ev.id: ev.name for ev in t.spec.events}
    out: dict[str, tuple[tuple[str, str, str], Received, Any]] = {}
    for rec, book in inputs.results:
        ev = str(book.meta.get(layout.META_EVENT, "") or "")
        rnd = _norm_int(book.meta.get(layout.META_ROUND, ""))
        if ev in names and rnd and not other_league(t, book):
            out[rec.sha256] = ((ev, names[ev], rnd), rec, book)
    return out


def _text_at(row: Sequence[Any], j: int | None) -> str:
    """A sheet row's cell ``j`` as text, stripped; "" for no such column or an empty cell."""
    from .ingest.workbook import cell_text

    v = row[j] if j is not None and j < len(row) else None
    return cell_text(v).strip() if v is not None else ""


def _table_head(sheet: Any) -> tuple[int, list[str]] | None:
    """(index, labels) of a result or detail sheet's heading row — the first of its first 30
    rows with a 桌号 — or None (no sheet, or no such row)."""
    from .ingest.workbook import cell_text

    for i, row in enumerate(sheet.rows[:30] if sheet is not None else ()):
        labels = [cell_text(v).strip() if v is not None else "" for v in row]
        if "桌号" in labels:
            return i, labels
    return None


def _filled_tables(book: Any) -> dict[tuple, tuple] | None:
    """A result sheet's filled tables: (轮次, 组别, 桌号, 牌号) → the values it filled in (the
    columns after the printed ones, signatures left out); None when its 成绩 table cannot be
    found (then any other sheet of the round may have replaced what it says)."""
    from . import layout

    sheet = book.sheet(layout.RESULT_SHEET) if book is not None else None
    head = _table_head(sheet)
    if head is None:
        return None
    i, labels = head
    key_labels = [*layout.RESULT_KEY_COLUMNS, "牌号"]     # (a board of a table: its own row)
    printed = {*key_labels, *layout.SIDES_2, *layout.SIDES_3}
    keys = [labels.index(k) if k in labels else None for k in key_labels]
    filled = [j for j, label in enumerate(labels) if label and label not in printed
              and not label.endswith(layout.SIGNATURE_SUFFIX)]
    out: dict[tuple, tuple] = {}
    for row in sheet.rows[i + 1:]:
        values = tuple(_text_at(row, j) for j in filled)
        if any(values):
            out[tuple(_text_at(row, j) for j in keys)] = values
    return out


def _replaces(earlier: Any, later: Any) -> bool:
    """Whether a later result sheet of the same round changes what an earlier one filled in:
    a table both filled, with other values — or a detail sheet that differs (hand-by-hand
    records: the totals come from them).  Two referees' sheets of different tables of one
    round do not."""
    a, b = _filled_tables(earlier), _filled_tables(later)
    if a is None or b is None:
        return True
    if any(key in a and a[key] != values for key, values in b.items()):
        return True
    from . import layout

    adopted = {b.renamed.get(layout.RESULT_SHEET) for b in (earlier, later)}     # 成绩 renamed, read as it
    others = [n for n in {*earlier.sheets, *later.sheets} if n not in (layout.RESULT_SHEET, layout.META_SHEET)
              and n not in adopted]
    filled = {k[:3] for k in a}
    for n in others:
        theirs, mine = earlier.sheet(n), later.sheet(n)
        if mine is None or (theirs is not None and theirs.rows == mine.rows):
            continue
        was, now = _rows_by_table(theirs), _rows_by_table(mine)
        if was is None or now is None:
            return True             # no table to tell its rows apart by: any change may be one
        # (another referee's hands of his own tables change nothing this sheet filled)
        if any(rows != was.get(k, rows) or (k not in was and k in filled) for k, rows in now.items()):
            return True
    return False


def _rows_by_table(sheet: Any) -> dict[tuple[str, str, str], list] | None:
    """A detail sheet's rows by (轮次, 组别, 桌号), blank rows left out (:func:`_replaces`);
    None when it has no 桌号 heading in its first rows."""
    from . import layout

    if sheet is None:
        return {}
    head = _table_head(sheet)
    if head is None:
        return None
    i, labels = head
    keys = [labels.index(k) if k in labels else None for k in layout.RESULT_KEY_COLUMNS]
    out: dict[tuple[str, str, str], list] = {}
    for row in sheet.rows[i + 1:]:
        if not any(v not in (None, "") for v in row):
            continue
        out.setdefault(tuple(_text_at(row, j) for j in keys), []).append(list(row))
    return out


def _sheet_in_force(x: Resent, first: Received, sheets: dict[str, tuple[tuple[str, str, str], Received, Any]],
                    ) -> tuple[str, str, Received] | None:
    """For a result sheet received again (:class:`Resent`; ``sheets``: :func:`_result_rounds`):
    (event name, round, the sheet in force) when another, different sheet of the same event
    and round that changes what this one filled in (:func:`_replaces`) came after its first
    receipt and before it came again — the later one counts (a correction), and this one,
    counted once at its first receipt, does not undo it.  None otherwise."""
    if x.sha256 not in sheets or x.received is None:
        return None
    mine, _, book = sheets[x.sha256]
    first_at, again_at = aware(first.received_at), aware(x.received)
    between = [rec for sha, (which, rec, other) in sheets.items()
               if which == mine and sha != x.sha256 and first_at < aware(rec.received_at) < again_at
               and _replaces(book, other)]
    if not between:
        return None
    rec = max(between, key=lambda r: (aware(r.received_at), r.sha256))
    return mine[1], mine[2], rec


def _named(rec: Received, names: Mapping[str, str] | None = None) -> str:
    """How a note names a received file: 邮件《…》的附件《…》 (the mail as ``names`` names it:
    :func:`mail_names`), or 《…》 put into the inbox."""
    if rec.parent and rec.source:
        return f"邮件{(names or {}).get(rec.parent) or f'《{rec.source}》'}的附件《{rec.file_name}》"
    return f"《{rec.source or rec.file_name}》"


def _mail_note(ledger: Ledger, rec: Received, notice: dt.date | None = None, office: tuple[str, ...] = ()) -> dict:
    """What a stored mail says about itself, parsed once and kept in the ledger's cache: its
    header problems, its workbooks (name, SHA-256) and the attachments that are none.
    (Intake keeps the note of each mail it parses: this reads a mail only when it did not.)
    ``notice``: the league's notice date (:func:`_date_problem`); ``office``: the office's
    configured addresses (:func:`office_addresses`)."""
    from .ingest.eml import parse_eml_bytes

    try:
        data = rec.stored(ledger.root).read_bytes()
    except OSError:
        return {}          # not kept: read again next run
    try:
        mail = parse_eml_bytes(data, rec.source, office)
    except Exception as e:  # noqa: BLE001 - said by mail_issues, as at intake
        return _unparsable(e)
    return _note_of(mail, aware(rec.received_at), notice)


def _unparsable(e: BaseException) -> dict:
    """The note of a mail the parser could not read (nested forwards past Python's recursion
    limit crashed every night's run: the mail was never recorded, and was read again)."""
    why = "转发嵌套层数过多" if isinstance(e, RecursionError) else "格式损坏"
    return {"unparsable": why, "problems": [], "skipped": [], "subject": "", "attachments": [], "automatic": False}


def _note_of(mail: Any, received_at: dt.datetime, notice: dt.date | None = None) -> dict:
    """:func:`_mail_note` of a parsed mail, taken in at ``received_at`` (:func:`_receipt_time`:
    its Date, or — the Date not believed — its newest Received header's time or the file's).
    Why the Date was not believed is found again from the times (:func:`_date_problem`), and
    ends in :data:`~pipeline.ingest.eml.BY_RECEIVED` when the Received header's time was
    taken (MAIL_DATE names the time taken)."""
    from .ingest.eml import BY_RECEIVED

    # (a Received header's time later than the mail's file is not the one taken: the file's is)
    problems = [p.removesuffix(BY_RECEIVED) if mail.date != received_at else p for p in mail.problems]
    if mail.date is not None and mail.date != received_at:
        by_received = not mail.problems and mail.received is not None and mail.received == received_at
        wrong = _date_problem(mail.date, received_at, received_at if by_received else None, notice)
        if not wrong:       # (the notice date not known here: nothing else sets a Date aside)
            wrong = (f"邮件的 Date 头（{mail.date.astimezone(TZ):%Y-%m-%d %H:%M}）早于比赛通知的发文日期，"
                     "发件设备的时钟可能不准")
        problems.append(wrong + (BY_RECEIVED if by_received else ""))
    return {"problems": problems, "forwarded_dates": _forwarded_dates(mail, received_at, notice),
            "skipped": list(mail.skipped), "subject": mail.subject,
            "attachments": [[a.filename, hashlib.sha256(a.data).hexdigest()] for a in mail.attachments],
            "automatic": mail.automatic, "returned": mail.returned, "set_aside": list(mail.set_aside),
            "bounced_to": list(mail.bounced_to), "bounce_reason": mail.bounce_reason,
            "bounced_subject": mail.bounced_subject, "replies_receipt": mail.replies_receipt,
            "auto_reply": mail.auto_reply, "message_id": getattr(mail, "message_id", ""),
            "links": list(getattr(mail, "links", ()))}


#: how far a mail's Date may be ahead of the time it was received (clocks differ a little)
CLOCK_AHEAD = dt.timedelta(minutes=10)
#: how long before its (top) Received header's time a mail's Date may be: a mail waiting in
#: a phone's outbox goes hours later, and one the office's server redirects or forwards is
#: stamped again days later (its Date, the true time, then made an on-time form late — from
#: a review); a Date a month or more earlier is a clock that was reset (2000-01-01 after a
#: battery swap), as is one before the notice date
QUEUED_AT_MOST = dt.timedelta(days=30)


def _receipt_time(mail: Any, file_time: dt.datetime, notice: dt.date | None = None) -> dt.datetime:
    """R2020-Q4: when a mail (a parsed :class:`~pipeline.ingest.eml.Mail`, its file's time
    ``file_time``) was received.  The contract's rule: its Date header.  A Date that cannot be
    right (:func:`_date_problem`) gives way to the time in its newest Received header — the
    office's own mail server —, else to the file's time (a hand-saved .eml's; over IMAP the
    server's INTERNALDATE): the handbook's MAIL_DATE.  A Date a year ahead made an on-time
    form late (by the file's time, saved after the deadline), a phone set to UTC too (its
    Date 8 hours late), and a clock reset to 2000 put a correction behind the form it
    corrected.  A Received time later than the file itself is not taken either."""
    file_time = aware(file_time)
    if mail.date is None:
        return file_time
    if mail.problems:
        # no readable Date: its time is the Received header's already (unless after the file)
        return file_time if _date_problem(mail.date, file_time) else mail.date.astimezone(TZ)
    received = mail.received if mail.received is not None and mail.received <= file_time + CLOCK_AHEAD else None
    if not _date_problem(mail.date, file_time, received, notice):
        return mail.date.astimezone(TZ)
    return received.astimezone(TZ) if received is not None else file_time


def _forwarded_time(att: Any, mail_at: dt.datetime, notice: dt.date | None = None) -> tuple[dt.datetime, str, bool]:
    """R2020-Q4 / MAIL_DATE: when a workbook forwarded as an attachment (转发为附件; ``att``, a
    :class:`~pipeline.ingest.eml.Attachment`) was received: its captain's mail's Date, checked
    as a direct mail's (:func:`_receipt_time`) — against that mail's own newest Received
    header, and never after the forward that carried it (``mail_at``: the forward's time of
    receipt).  A phone writing Beijing time labelled +0000 got MAIL_DATE sent directly, but its
    mail forwarded at 16:00 was recorded at 22:30, after the forward, and refused as late (from
    an audit of mail intake).  A Date that fails gives way to that Received header's time,
    else to the forward's.  Returns the time, why the Date was not believed ("" when it was:
    as :func:`_date_problem`, about 邮件的 Date 头) and whether the Received header's time was
    taken."""
    from .ingest.eml import BY_RECEIVED

    mail_at = aware(mail_at)
    received = att.received if att.received is not None and att.received <= mail_at + CLOCK_AHEAD else None
    if att.problems:
        # no readable Date: the time read is its Received header's already (or none)
        wrong = att.problems[0].removesuffix(BY_RECEIVED)
        return (received.astimezone(TZ), wrong, True) if received is not None else (mail_at, wrong, False)
    if att.date is None:
        return mail_at, "", False
    wrong = _date_problem(att.date, mail_at, received, notice, bound="转发它的邮件的时间")
    if not wrong:
        return att.date.astimezone(TZ), "", False
    return (received.astimezone(TZ), wrong, True) if received is not None else (mail_at, wrong, False)


def _forwarded_dates(mail: Any, received_at: dt.datetime, notice: dt.date | None = None) -> list[dict]:
    """MAIL_DATE for the forwarded mails in ``mail`` (taken in at ``received_at``) whose Date was
    not believed (:func:`_forwarded_time`), once per forwarded mail: what is wrong (about 转发的
    原邮件 and its sender), the time taken, whether its Received header's, and its workbooks
    (name, SHA-256)."""
    out: dict[tuple, dict] = {}
    for a in mail.attachments:
        if not a.forwarded:
            continue
        at, wrong, by_received = _forwarded_time(a, received_at, notice)
        if not wrong:
            continue
        key = (a.sender, a.date, a.received, a.problems)
        said = out.setdefault(key, {"problem": f"转发的原邮件（发件人 {a.sender or '未知'}）" + wrong.removeprefix("邮件"),
                                    "sender": a.sender, "at": at.isoformat(), "by_received": by_received, "files": []})
        said["files"].append([a.filename, hashlib.sha256(a.data).hexdigest()])
    return list(out.values())


def _date_problem(date: dt.datetime | None, file_time: dt.datetime, received: dt.datetime | None = None,
                  notice: dt.date | None = None, bound: str = "邮件文件本身的时间") -> str:
    """Why a mail's Date cannot be its time of receipt, or "" (:func:`_receipt_time`): it is
    later than the time in its newest Received header (``received``: a phone set to UTC wrote
    14:30 +0000, 8 hours after the server got it) or a day or more before it (a clock
    reset), later than the mail's file (no mail was sent after it was saved; ``bound`` names
    what ``file_time`` is: a forwarded mail's is the forward's, :func:`_forwarded_time`), or
    before the league's notice date (``notice``: no form was sent before the league was announced).
    (A Date long before the file alone is no sign: a folder copied or cloned later has new
    file times, and a mail saved from the mail program days later too.)"""
    if date is None:
        return ""
    when = f"{date.astimezone(TZ):%Y-%m-%d %H:%M}"
    if received is not None and date > received + CLOCK_AHEAD:
        return f"邮件的 Date 头（{when}）晚于邮件服务器记下的接收时间，发件设备的时钟或时区可能设置有误"
    if received is not None and date < received - QUEUED_AT_MOST:
        return f"邮件的 Date 头（{when}）比邮件服务器记下的接收时间早一个月以上，发件设备的时钟可能不准"
    if date > aware(file_time) + CLOCK_AHEAD:
        return f"邮件的 Date 头（{when}）晚于{bound}，发件设备的时钟可能不准"
    if notice is not None and date.astimezone(TZ).date() < notice:
        return f"邮件的 Date 头（{when}）早于比赛通知的发文日期（{notice:%Y-%m-%d}），发件设备的时钟可能不准"
    return ""


def _mail_notes(ledger: Ledger, mails: list[Received], prune: bool = False,
                notice: dt.date | None = None, office: tuple[str, ...] = ()) -> dict[str, dict]:
    """Each mail's note (:func:`_mail_note`) by its SHA-256, from the ledger's cache (those
    not there are read and kept); ``prune`` (``mails`` being every mail): the notes of mails
    no longer received are dropped from the cache."""
    keys = {r.sha256: _mail_note_key(r.sha256, office) for r in mails}
    kept = ledger.cache_get(sorted(keys.values())) if keys else {}
    notes, fresh = {}, {}
    for r in mails:
        raw = kept.get(keys[r.sha256])
        if raw is None:
            note = _mail_note(ledger, r, notice, office)
            raw = json.dumps(note, ensure_ascii=False).encode()
            if note:
                fresh[keys[r.sha256]] = raw
        notes[r.sha256] = json.loads(raw)
    if fresh:
        ledger.cache_put(fresh)
    if fresh and prune:
        ledger.cache_prune("mail:", set(keys.values()))
    return notes


def mail_names(ledger: Ledger, received: Iterable[Received] | None = None, script: str = "simplified",
               notice: dt.date | None = None, office: tuple[str, ...] = ()) -> dict[str, str]:
    """How messages name each received mail (what follows 邮件), by its SHA-256: a mail
    fetched by --imap, stored as ``<sha256>.eml``, by its subject and time of receipt —
    《主题》（11月4日 22:00 收到）; a mail saved into the inbox by hand by its name
    (:func:`pipeline.mailname.mail_named`).  Only hash-named mails' notes are read."""
    from .mailname import hash_named

    mails = [r for r in (ledger.received() if received is None else received) if r.kind == "mail"]
    notes = _mail_notes(ledger, [r for r in mails if hash_named(r.file_name)], notice=notice, office=office)
    return {r.sha256: _mail_called(r, notes, script) for r in mails}


def _mail_called(r: Received, notes: Mapping[str, dict], script: str, **how: bool) -> str:
    """:func:`pipeline.mailname.mail_named` of mail ``r``, its subject from ``notes``
    (:func:`_mail_notes`; none there, none said)."""
    return mail_named(r.file_name, (notes.get(r.sha256) or {}).get("subject", ""), r.received_at,
                      script=script, **how)


def _mail_note_key(sha: str, office: tuple[str, ...] = ()) -> str:
    """A mail's note's key in the ledger's cache: it depends on the mail, on the code that read
    it and on the office's configured addresses (which forwarded mails' times count)."""
    key = f"{lastrun.code_hash()}:{sha}" + "".join(f":{a}" for a in office)
    return f"mail:{hashlib.sha256(key.encode()).hexdigest()}"


def office_addresses(spec: Any) -> tuple[str, ...]:
    """The office's own mail addresses as tournament.yaml's ``submit_to`` gives them (lower
    case; none when it names none): a form forwarded as an attachment counts at its own mail's
    time only when that mail was sent to the office (R2020-Q4,
    :func:`pipeline.ingest.eml._sent_to_office`).  ``submit_to`` is free text printed on the
    notice: the addresses in it are ASCII (Chinese written against one — 发送至ghb@… — is not
    part of it; full-width letters and ＠ are read as their ASCII forms)."""
    text = unicodedata.normalize("NFKC", spec.submit_to or "")
    return tuple(dict.fromkeys(a.lower() for a in re.findall(r"[\w.+%-]+@[\w-]+(?:\.[\w-]+)+", text, flags=re.ASCII)))


#: notes about a file set aside as a whole (not a workbook we can read, not our form)
_FILE_REJECTED = ("UNREADABLE_FILE", "TEMPLATE_MISMATCH", "WRONG_BRANCH", "UNKNOWN_BRANCH", "OTHER_UNITS_FORM",
                  "TOURNAMENT_ID_MISMATCH")


def settle_rejected_before(received: list[Received], newest: list[tuple[Received, Any]], issues: IssueLog,
                           mail_ids: dict[str, str] | None = None,
                           other_units: dict[str, tuple[str, frozenset[tuple[str, str, str]]]] | None = None,
                           t: Tournament | None = None) -> int:
    """A file a unit sent and we could not take (an .xls, a form without its _meta), followed
    by a form of that unit now in force: its error is history — information, saying which
    form replaced it (in force, not necessarily free of problems: its own are said).  On the unit's page (:func:`read_inputs` puts it there by its sender) it
    said 有 1 处错误待改 and 请修改下列 1 处错误后重新发送, though the form sent after it was
    accepted.  A file sent after the form in force stays an error (the latest attempt
    failed: the captain must know).  So is a file sent in the same mail as the form in force
    (one mail's attachments have one time): its .xls copy "以防打不开", or the truncated
    form of a mail received again whole (``mail_ids``: each mail's sender and Message-ID,
    :func:`mail_issues`) — it said 有 1 处错误待改 every night.  Returns how many were settled.

    An OTHER_UNITS_FORM (``other_units``: its file → the unit whose genuine form it is) stays
    an error while that unit has no form in force: the sender's own form said nothing of it,
    and it was left with no registration while the run exited 0 (an audit: "已受理，这份文件
    无需再处理").  Once it has one, the file is settled by that unit's form received after it,
    or by the sender's own form received after it when the file was the sender's mix-up:
    its lines (:func:`reg_lines`: name, event, team) are the sender's later form's, or the
    unit's own as they stand (the sender used the wrong form and sent its own, as the message
    asks — an error for good, a review found).  A file that would have changed the other
    unit's registration (an update sent on its behalf), or that the sender's later form does
    not hold as it is, stays an error: nothing else says it was not taken.  With ``t``, the
    units are named (on the sender's page 该单位 read as the sender, of the other unit's
    form), and one whose sender's own form was taken before it or in the same mail, and whose
    lines are that form's exactly, no longer asks the sender to send its own
    (:func:`_other_units_form`).  Any other still asks: it may be the sender's update sent on
    the wrong form (李四 added on b06's form, b04's own taken the day before; or 高宇琪
    withdrawn and two people swapping events, every name on b04's own form: told
    无需重新发送, the change was lost — reviews), and its receipt says the same
    (:func:`pipeline.mail.receipts._own_form_taken` reads the note)."""
    when = {r.sha256: aware(r.received_at) for r in received}
    by_sha = {r.sha256: r for r in received}
    in_force = {getattr(reg, "branch", ""): rec for rec, reg in newest}
    mail_ids = mail_ids or {}
    came_in: dict[str, set[str]] = {}
    for r in received:
        if r.parent:
            came_in.setdefault(r.sha256, set()).add(mail_ids.get(r.parent) or r.parent)

    other_units = other_units or {}
    lines_in_force = {getattr(reg, "branch", ""): reg_lines(getattr(reg, "rows", ())) for _, reg in newest}

    def settled(i: Issue) -> Issue:
        owner, people = other_units.get(i.source, ("", frozenset())) if i.code == "OTHER_UNITS_FORM" and i.source \
            else ("", frozenset())
        sent = when.get(i.source) if i.source else None
        if owner:
            theirs = in_force.get(owner)
            mine = in_force.get(i.branch)
            rec = by_sha.get(i.source)
            # only a file that holds the sender's own registration as it stands — the same lines,
            # (name, event, team) — asks for nothing: an update sent on the other unit's form
            # (李四 added; a person withdrawn, two swapping events) was told 无需重新发送 and lost
            # (reviews)
            if t is not None and mine is not None and rec is not None and sent is not None \
                    and i.severity == Severity.ERROR and not aware(mine.received_at) > sent \
                    and people == lines_in_force.get(i.branch):
                together = bool(came_in.get(i.source, set()) & came_in.get(mine.sha256, set()))
                i = dataclasses.replace(i, message=_other_units_form(t, rec, owner, i.branch, mine, together).message)
            if theirs is None or sent is None or i.severity != Severity.ERROR:
                return i
            # the sender's mix-up: every line of the file is on the sender's form in force (it
            # resent them on its own form, maybe with more people or a name corrected), or the
            # file holds the other unit's registration as it stands (it changes neither) — by
            # the same lines; a file that would change either stays an error (nothing took the
            # change it carries: a person it leaves out, an event swapped).  (Equal lines only
            # kept the error for good once the resend on the sender's own form added anyone:
            # a review.)
            mixed_up = people <= (lines_in_force.get(i.branch) or frozenset()) or people == lines_in_force.get(owner)
            later = next((f for f in (theirs, mine if mixed_up else None)
                          if f is not None and sent < aware(f.received_at)), None)
            if later is None:
                return i
            at = cn_when(later.received_at)
            whose = getattr(t.spec.unit(owner), "name", "") if t is not None else ""
            sender = getattr(t.spec.unit(i.branch), "name", "") if t is not None else ""
            said = (f"{whose or '该单位'}自己的报名表《{theirs.file_name}》（{at}）其后已受理" if later is theirs else
                    f"{whose or '该单位'}已有自己的报名表《{theirs.file_name}》，{sender or '发件单位'}其后发来的自己的报名表"
                    f"《{later.file_name}》（{at}）也已受理")
            return dataclasses.replace(i, severity=Severity.INFO, message=f"{i.message}（{said}，这份文件无需再处理。）")
        cur = in_force.get(i.branch) if i.branch else None
        if (cur is None or sent is None or i.code not in _FILE_REJECTED or i.severity != Severity.ERROR
                or i.source == cur.sha256):
            return i
        if came_in.get(i.source, set()) & came_in.get(cur.sha256, set()):
            return dataclasses.replace(i, severity=Severity.INFO, message=(
                f"{i.message}（同一封邮件所附的报名表《{cur.file_name}》已受理，这份文件无需再处理。）"))
        if not sent < aware(cur.received_at):
            return i
        return dataclasses.replace(i, severity=Severity.INFO, message=(
            f"{i.message}（其后收到的报名表《{cur.file_name}》（{cn_when(cur.received_at)}）已取代这份文件，它无需再处理。）"))
    return issues.revise(settled)


def mail_issues(t: Tournament, ledger: Ledger, issues: IssueLog, inputs: Inputs | None = None,
                resent: list[Resent] | None = None, mail_ids: dict[str, str] | None = None) -> list[BareMail]:
    """Notes about mails themselves — recomputed each run from each mail's note
    (:func:`_mail_note`): no workbook attached (naming what was: a .et or .zip to save as
    .xlsx), a workbook identical to one received before (DUPLICATE_FILE: its mail is no
    mail without attachment), a Date header that could not be read (MAIL_DATE: the time
    of receipt is the file's, which decides deadlines).  Returns the mails without a
    workbook (each NO_ATTACHMENT's), for their receipts (:mod:`pipeline.mail.receipts`).

    Each note goes on a unit's page: MAIL_DATE on the page of the unit whose form the mail
    carried (``inputs``, the night's readings: its token proved the unit), else of the unit
    whose registered address sent it (:func:`sender_unit`), as NO_ATTACHMENT.  The
    workbooks received before are added to ``resent``, for :func:`resent_issues` to say
    once the current forms are known (said here, as info, without it); ``mail_ids``, when
    given, gets each mail's sender and Message-ID by its SHA-256 (:func:`settle_rejected_before`)."""
    said_here = resent is None
    resent = [] if resent is None else resent
    proven = {rec.sha256: reg.branch for rec, reg in (inputs.registrations if inputs else ())
              if getattr(reg, "usable", False) and getattr(reg, "branch", "")}
    # each unit's latest usable form: a mail's problem is history once a form came after it
    latest: dict[str, Received] = {}
    for rec, reg in (inputs.registrations if inputs else ()):
        unit_of = getattr(reg, "branch", "")
        if getattr(reg, "usable", False) and unit_of and (
                unit_of not in latest or aware(rec.received_at) > aware(latest[unit_of].received_at)):
            latest[unit_of] = rec

    def superseded(unit_of: str, r: Received, carried: Iterable[str] = ()) -> str:
        """The note that a later form of ``unit_of`` has settled mail ``r``'s problem, or "":
        a NO_ATTACHMENT or MAIL_DATE warning held the exit status at 1 every night after the
        unit's good form was in (from an audit of mail intake)."""
        cur = latest.get(unit_of)
        if cur is None or cur.sha256 in carried or not aware(cur.received_at) > aware(r.received_at):
            return ""
        return (f"（其后收到的报名表《{cur.file_name}》（{cn_when(cur.received_at)}）"
                "已受理，这封邮件无需再处理。）")
    recs = named_apart(ledger.received())
    mails = [r for r in recs if r.kind == "mail"]
    bare: list[BareMail] = []
    if not mails:
        return bare
    children = {r.parent for r in recs if r.parent}
    by_sha = {r.sha256: r for r in recs if r.kind != "mail"}
    notes = _mail_notes(ledger, mails, prune=True, notice=t.spec.notice_date, office=office_addresses(t.spec))
    # a mail with a problem of its own (no workbook in it, not parsed) that another mail
    # replaced at its inbox path (cut short while copied, then put there whole): settled —
    # its NO_ATTACHMENT asked the captain to send again, and the whole mail was called its
    # DUPLICATE_FILE (an audit)
    replaced: dict[str, Received] = {}
    at_path: dict[str, list[Received]] = {}
    for r in mails:
        if r.source:
            at_path.setdefault(r.source, []).append(r)
    for group in at_path.values():
        for r in group if len(group) > 1 else ():
            note = notes.get(r.sha256) or {}
            if note and (note.get("unparsable") or not note.get("attachments")):
                newer = _mail_replaced_in_place(ledger.root, r, group)
                if newer is not None:
                    replaced[r.sha256] = newer
    # one mail saved twice (fetched by --imap and saved by hand: a Received line apart) is one
    # mail: its first copy is said and answered, not both (two NO_ATTACHMENT, two receipts)
    first_copy: dict[tuple[str, str], Received] = {}
    for r in sorted(mails, key=lambda r: (aware(r.received_at), r.file_name, r.sha256)):
        mid = (notes[r.sha256] or {}).get("message_id") or ""
        if mid and r.sha256 not in replaced:
            first_copy.setdefault((r.sender, mid), r)
            if mail_ids is not None:     # (for settle_rejected_before: a mail and its copies are one)
                mail_ids[r.sha256] = f"{r.sender}\n{mid}"
    def named(r: Received) -> str:
        """The mail as messages name it (a mail --imap stored as <hash>.eml: by its subject and time)."""
        return _mail_called(r, notes, t.spec.script)
    for r in mails:
        note = notes[r.sha256]
        if not note:            # its stored copy could not be read: nothing to say about it
            continue
        newer = replaced.get(r.sha256)
        if newer is not None:
            issues.add("SUPERSEDED", f"邮件{named(r)}（{cn_when(r.received_at)} 收到）中没有可收取的表格（多半是复制进收件箱时"
                       f"没有写完，邮件不完整），已被其后放在收件箱同一位置的邮件{named(newer)}取代，无需处理；原文件仍保存在台账中。",
                       at=CellRef(r.file_name), branch=sender_unit(t, r.sender), source=r.sha256)
            continue
        first = first_copy.get((r.sender, note.get("message_id") or ""))
        later_copy = first is not None and first is not r       # a later copy of a mail saved twice
        if later_copy and not note.get("attachments"):
            issues.add("DUPLICATE_FILE", f"邮件{named(r)}与此前收到的邮件{named(first)}是同一封邮件"
                       "（Message-ID 相同，只是另存了一份），不再重复处理。", at=CellRef(r.file_name),
                       branch=sender_unit(t, r.sender), severity=Severity.INFO)
            continue
        at = CellRef(r.file_name)
        # a warning on the night the mail arrives; after it, information (the time it was
        # given stands, and a warning every night held the exit status at 1 for good)
        later = inputs is not None and r.sha256 not in inputs.new_files
        # a mail fetched by --imap is stored as <hash>.eml: named by its subject and time
        # instead (no captain knows that name); one saved by hand, by its name and subject —
        # both as received (text.verbatim: a Traditional subject 報名表 converted again on the
        # unit's page read 報名錶)
        subject = (note.get("subject") or "").strip()
        label = mail_named(r.file_name, subject, r.received_at, subject_too=True, script=t.spec.script)
        # the unit whose registered address sent it: the notes go on that unit's page (they
        # went to 未归属单位的文件, where no captain looks)
        unit = sender_unit(t, r.sender)
        if note.get("unparsable"):
            issues.add("UNREADABLE_FILE", f"邮件{label}（发件人 {r.sender or '未知'}）无法解析（{note['unparsable']}），"
                       "其中的附件没有取出：请把其中的报名表或成绩表另存为 .xlsx 后直接放进收件箱，或请发件人把表格"
                       "作为附件重新发送。", at=at, branch=unit, source=r.sha256)
            continue
        if note.get("returned") in ("bounce", "ours", "delayed", "notice"):      # nothing in it was taken
            _returned_mail_issues(t, r, note, label, unit, issues,
                                  new=inputs is not None and r.sha256 in inputs.new_files)
            continue
        problems = note.get("problems", ())
        if problems:
            from .ingest.eml import BY_RECEIVED

            carried = sorted({proven[sha] for _, sha in note.get("attachments", ()) if sha in proven})
            whose = carried[0] if carried else unit
            done = superseded(whose, r, [sha for _, sha in note.get("attachments", ())])
            for problem in problems:
                # the time taken: the newest Received header's (the office's mail server), else the file's
                basis = ("邮件服务器记下的接收时间（Received 头）" if problem.endswith(BY_RECEIVED) else "文件时间")
                issues.add("MAIL_DATE", f"邮件{label}（发件人 {r.sender or '未知'}）：{problem.removesuffix(BY_RECEIVED)}，"
                           f"收到时间按{basis} {stamp(r.received_at, (e.deadline for e in t.spec.events))} 计（截止时间据此判断）。"
                           "如有出入，请联系组委会。" + done, at=at, branch=whose,
                           severity=Severity.INFO if done or later else None)
        for fwd in note.get("forwarded_dates", ()):
            # a forwarded mail's Date not believed (_forwarded_time): on the page of the unit its
            # form proved, else of the unit whose address sent that mail
            shas = [sha for _, sha in fwd["files"]]
            carried = sorted({proven[sha] for sha in shas if sha in proven})
            whose = carried[0] if carried else (sender_unit(t, fwd["sender"]) or unit)
            done = superseded(whose, r, shas)
            basis = "原邮件的邮件服务器接收时间（Received 头）" if fwd["by_received"] else "转发邮件的收到时间"
            issues.add("MAIL_DATE", f"邮件{label}（发件人 {r.sender or '未知'}）：{fwd['problem']}，其中的附件"
                       f"{'、'.join(f'《{name}》' for name, _ in fwd['files'])}收到时间按{basis} "
                       f"{stamp(dt.datetime.fromisoformat(fwd['at']), (e.deadline for e in t.spec.events))} 计（截止时间据此判断）。"
                       "如有出入，请联系组委会。" + done, at=at, branch=whose,
                       severity=Severity.INFO if done or later else None)
        if r.sha256 in children:
            if note.get("skipped") and not _is_auto_reply(note):
                _skipped_beside(r, note, label, unit, issues, by_sha, proven,
                                later=later)
            continue
        same = [(name, sha, by_sha[sha]) for name, sha in note.get("attachments", ()) if sha in by_sha]
        for name, sha, first in same:
            if sha == _EMPTY_SHA:      # two empty files are alike, and neither is a workbook
                issues.add("UNREADABLE_FILE", f"邮件{named(r)}的附件《{name}》是空文件（0 字节），可能没有"
                           "发送完整：请重新添加附件后发送。", at=at, branch=unit)
                continue
            resent.append(Resent(sha, f"邮件{named(r)}的附件《{name}》", f"《{first.file_name}》", at,
                                 aware(r.received_at), r.sender, mail="" if later_copy else r.sha256,
                                 subject=subject))
        if same:
            # (a resend with a .zip beside it; a later copy of a mail was said with its first)
            if note.get("skipped") and not _is_auto_reply(note) and not later_copy:
                _skipped_beside(r, note, label, unit, issues, by_sha, proven,
                                later=later)
            continue
        skipped = note.get("skipped", ())
        if note.get("set_aside") and not skipped and not note.get("attachments") and not _is_auto_reply(note):
            # a captain forwarding our receipt (a question about it): its marked-up copy is
            # ours, no form of theirs — nothing to resend, and no receipt for it
            issues.add("OWN_MAIL", f"邮件{label}（发件人 {r.sender or '未知'}）转来的是本系统发出的回执，其中的"
                       f"{'、'.join(f'《{n}》' for n in note['set_aside'])}是本系统的标注副本，没有作为报名表收取；"
                       + OWN_RECEIPT_ASK, at=CellRef(r.file_name), branch=unit,
                       source=r.sha256)
            continue
        links = tuple(note.get("links", ()))
        if _is_auto_reply(note) or (note.get("replies_receipt") and not skipped and not links):
            # an out-of-office reply, a captain's 收到，谢谢 to a receipt: nothing to resend,
            # and no receipt (said as info: a warning held the exit status at 1 every night)
            _auto_reply_issue(r, note, label, unit, issues)
            continue
        done = superseded(unit, r)
        level = Severity.INFO if done else None
        from .mail.receipts import _cloud_hint, _skipped_hints

        # a cloud-drive / 超大附件 link in the body: the form is behind it, which nothing downloads
        cloud = _cloud_hint(links)
        if skipped:
            names = "、".join(f"《{n}》" for n in skipped)
            # what to do by what came (a .et, a .zip, Outlook's winmail.dat: its captain did use the form)
            issues.add("NO_ATTACHMENT", f"邮件{label}（发件人 {r.sender or '未知'}）的附件 {names} 不是 Excel "
                       "工作簿（.xlsx）：" + "".join(_skipped_hints(tuple(skipped))) + cloud + done,
                       at=at, branch=unit, severity=level)
        elif cloud:
            issues.add("NO_ATTACHMENT", f"邮件{label}（发件人 {r.sender or '未知'}）没有 .xlsx 附件：{cloud}" + done,
                       at=at, branch=unit, severity=level)
        else:
            issues.add("NO_ATTACHMENT", f"邮件{label}（发件人 {r.sender or '未知'}）没有 .xlsx 附件，"
                       "请把填好的报名表或成绩表作为附件重新发送。" + done, at=at, branch=unit, severity=level)
        bare.append(BareMail(r.sha256, r.file_name, aware(r.received_at), r.sender, subject, tuple(skipped),
                             bool(note.get("automatic")), links))
    if said_here:
        resent_issues(t, recs, resent, inputs or Inputs(), [], issues, {r.sha256: named(r) for r in mails})
    return bare


def _skipped_beside(r: Received, note: dict, label: str, unit: str, issues: IssueLog, by_sha: dict[str, Received],
                    proven: dict[str, str], later: bool) -> None:
    """NO_ATTACHMENT for the attachments of a mail that are no workbook (a .zip, a .et, an
    Outlook winmail.dat) beside one that was taken: they were dropped without a word (a
    referee's 第1轮成绩表.xlsx with 其余成绩表.zip).  About the mail's first workbook
    (``source``): its receipt lists it.  A warning on the night the mail arrives, then
    information (the workbook beside them was taken; a warning every night held exit 1).
    Outlook's winmail.dat beside it is its formatting data: said received, nothing to do (it
    was told to change Outlook's format and resend the .xlsx that had been accepted) — so
    information from its first night, as a scan beside it is (from a review: a warning that
    night held the exit status at 1 for a mail needing nothing)."""
    from .mail.receipts import _TNEF_BESIDE_HINT, _skipped_hints

    skipped = tuple(note["skipped"])
    books = [sha for _, sha in note.get("attachments", ()) if sha in by_sha]
    first = next((sha for sha in books if sha in proven), books[0] if books else "")
    whose = proven.get(first) or unit
    # a signed scan, a photo of the signed sheet or a document beside the workbook is kept
    # with the mail, nothing to do (the signed result sheet of R2011-R1): a note, not the
    # warning that told the referee to fill in the form he had sent
    kept = tuple(n for n in skipped if Path(n).suffix.lower() in _BESIDE_KEPT)
    tnef = tuple(n for n in skipped if Path(n).name.lower() == "winmail.dat")
    others = tuple(n for n in skipped if n not in kept and n not in tnef)
    if kept:
        issues.add("NO_ATTACHMENT", f"邮件{label}（发件人 {r.sender or '未知'}）中的 Excel 工作簿已收取；同时附的"
                   f"{'、'.join(f'《{n}》' for n in kept)}（扫描件、照片或文档）随邮件存档，不读取其中的内容，无需处理。",
                   at=CellRef(r.file_name), branch=whose, source=first, severity=Severity.INFO)
    if tnef:
        issues.add("NO_ATTACHMENT", f"邮件{label}（发件人 {r.sender or '未知'}）中的 Excel 工作簿已收取；同时附的"
                   f"{'、'.join(f'《{n}》' for n in tnef)}" + _TNEF_BESIDE_HINT,
                   at=CellRef(r.file_name), branch=whose, source=first, severity=Severity.INFO)
    if not others:
        return
    names = "、".join(f"《{n}》" for n in others)
    issues.add("NO_ATTACHMENT", f"邮件{label}（发件人 {r.sender or '未知'}）中的 Excel 工作簿已收取，但同时附的 {names} "
               "不是 .xlsx 文件，没有读取：" + "".join(_skipped_hints(others))
               + "其中如有要提交的报名表或成绩表，请把每一份作为 .xlsx 附件直接发送。",
               at=CellRef(r.file_name), branch=whose, source=first,
               severity=Severity.INFO if later else None)


#: attachments that, beside a workbook taken, are kept with the mail and said as a note only
#: (a scan or photo of the signed form or sheet, a covering letter): no form is hidden in them
_BESIDE_KEPT = frozenset({".pdf", ".jpg", ".jpeg", ".png", ".gif", ".bmp", ".heic", ".webp", ".tif", ".tiff",
                          ".doc", ".docx", ".wps", ".txt"})


def _is_auto_reply(note: dict) -> bool:
    """Whether a mail's note says a program sent it (an out-of-office reply; not only that it
    replies to a receipt: a captain's reply carrying a .et is still told to resend as .xlsx)."""
    return bool(note.get("auto_reply"))


def _auto_reply_issue(r: Received, note: dict, label: str, unit: str, issues: IssueLog) -> None:
    """AUTO_REPLY (info) for an automatic mail or a reply to one of our receipts that carries
    no workbook: nothing for anyone to do, and no receipt goes back (no reply loops)."""
    what = ("是自动回复（如休假自动答复）或程序发出的邮件" if _is_auto_reply(note)
            else "是对本系统所发回执的回复")
    skipped = note.get("skipped", ())
    names = f"，附件 {'、'.join(f'《{n}》' for n in skipped)} 不是表格" if skipped else ""
    aside = note.get("set_aside", ())
    if aside:       # a program's mail (Auto-Submitted) carrying a workbook: what it answers, not a form
        names += f"，附带的{'、'.join(f'《{n}》' for n in aside)}没有作为报名表或成绩表收取"
    issues.add("AUTO_REPLY", f"邮件{label}（发件人 {r.sender or '未知'}）{what}，没有附带新的报名表或成绩表{names}，"
               "无需处理（不回复回执；此前收到的表格不受影响）。", at=CellRef(r.file_name), branch=unit, source=r.sha256)


def _returned_mail_issues(t: Tournament, r: Received, note: dict, label: str, unit: str, issues: IssueLog,
                          new: bool) -> None:
    """What a mail that is no captain's says (:func:`pipeline.ingest.eml.returned_kind`):
    a bounce (MAIL_BOUNCED, info, every night: whom it could not reach and why) or a receipt
    of ours come back into the inbox (OWN_MAIL, info).  Neither was taken as a form: a bounced
    receipt carries our marked-up copy, which superseded the captain's real form and was
    answered with a receipt of its own, night after night.  The stored mail is kept.

    A delay notice (``Action: delayed``: the server is still retrying), a report of delivery or
    a read receipt is no bounce: AUTO_REPLY (info) only.

    A bounce of a receipt to a unit's registered address is also ADDRESS_BOUNCED (warning),
    on the night it arrives only (:data:`pipeline.issues.NIGHT_ONLY`, and ``new``): the unit
    gets no receipts — the address in tournament.yaml may be wrong or closed — but a warning
    every night after would hold the exit status at 1 with nothing left to do."""
    from .text import verbatim

    aside = note.get("set_aside", ())
    kept = (f"其中附带的{'、'.join(f'《{n}》' for n in aside)}是本系统发出的标注副本或被退回的原件，"
            "没有作为报名表或成绩表收取；") if aside else ""
    at = CellRef(r.file_name)
    if note.get("returned") == "ours":
        issues.add("OWN_MAIL", f"邮件{label}是本系统发出的回执（发件人 {r.sender or '未知'}），不是各单位发来的邮件；"
                   f"{kept}无需处理。", at=at, branch=unit, source=r.sha256)
        return
    to = list(note.get("bounced_to", ()))
    subject = (note.get("bounced_subject") or "").strip()
    what = f"邮件（主题“{verbatim(subject[:40], t.spec.script)}”）" if subject else "邮件"     # (as sent: text.verbatim)
    why = f"（{note['bounce_reason']}）" if note.get("bounce_reason") else ""
    whom = f"发给 {'、'.join(to)} 的{what}" if to else f"本系统发出的{what}"
    units = [(a, t.spec.unit_of_address(a)) for a in to]
    units = [(a, u) for a, u in units if u is not None]
    branch = units[0][1].id if units else unit
    if note.get("returned") in ("delayed", "notice"):
        # a server still retrying (Action: delayed, 4.x.x), a report of delivery, a read
        # receipt: no bounce — the mail may yet arrive — and nothing to answer
        if note["returned"] == "delayed":
            said = (f"是邮件服务器的延迟投递通知：{whom}暂未送达{why}，服务器仍在重试，不是退信。{kept}"
                    "无需处理（不回复回执）；如果之后收到这封邮件的退信，会另行提示。")
        else:
            said = f"是投递状态通知或已读回执（关于{whom}），不是退信。{kept}无需处理（不回复回执）。"
        issues.add("AUTO_REPLY", f"邮件{label}（发件人 {r.sender or '未知'}）{said}", at=at, branch=branch,
                   source=r.sha256)
        return
    issues.add("MAIL_BOUNCED", f"退信：{label}（发件人 {r.sender or '未知'}）说明{whom}未能送达{why}。"
               f"{kept}无需处理。", at=at, branch=branch, source=r.sha256)
    if new:
        for addr, u in units:
            issues.add("ADDRESS_BOUNCED", f"发给{u.name}登记邮箱 {addr} 的{what}被退回{why}：该单位没有收到这封邮件。"
                       "请核对 tournament.yaml 中该单位的 emails 是否写错或已停用（改正后，以后的回执发往改正的地址），"
                       "并电话通知该单位（邮件所说的问题也列在该单位的页面上）。", at=at, branch=u.id, source=r.sha256)


_MAIL_EXTS = (".mbox", ".mbx", ".msg", ".emlx", ".mht", ".mhtml")
_MAIL_HEAD = re.compile(rb"^(?:\d+\s*\n)?(?:From |(?:Return-Path|Received|From|Date|Subject|Message-ID|MIME-Version):)", re.I)


#: the first bytes of a Windows shortcut (MS-SHLLINK: HeaderSize 0x4C, then the LinkCLSID's start)
_LNK_HEAD = bytes.fromhex("4c00000001140200")


def _shortcut(ledger: Ledger, rec: Received) -> bool:
    """Whether a received file that is no workbook is a Windows shortcut (.lnk): by its
    extension, or its ShellLink header (a shortcut's name hides its .lnk)."""
    if rec.ext.lower() == ".lnk":
        return True
    try:
        with open(rec.stored(ledger.root), "rb") as f:
            return f.read(len(_LNK_HEAD)) == _LNK_HEAD
    except OSError:
        return False


def _mail_like(ledger: Ledger, rec: Received) -> bool:
    """Whether a received file that is no workbook is a mail in another format than .eml:
    by its extension, or its first bytes (an mbox's "From " line, RFC 822 headers, an
    .emlx's byte count before them)."""
    if rec.ext in _MAIL_EXTS:
        return True
    try:
        with open(rec.stored(ledger.root), "rb") as f:
            head = f.read(512).lstrip(b"\xef\xbb\xbf")
    except OSError:
        return False
    return bool(_MAIL_HEAD.match(head))


def read_inputs(t: Tournament, ledger: Ledger, issues: IssueLog, readings: dict[str, bytes] | None = None) -> Inputs:
    """Read every received workbook from its stored copy and sort it by kind.

    What a file reads as depends only on its bytes, name, time of receipt, the spec and the
    code, so each reading is kept in the ledger's cache under a hash of those: a run reads
    only the files it has not seen before, on every core (:mod:`pipeline.parallel`) —
    or takes them from ``readings``, made by :func:`intake` as it stored the files.

    A file that names no unit itself (not a workbook, unreadable, not our template, a form
    whose _meta names no unit of the tournament) is the unit's whose registered address
    sent it (:func:`sender_unit`): its issues, its registration's and its record in
    ``inputs.unreadable`` carry that unit, so they are on the unit's page and with its
    submission — a stranger's stay unassigned.  (Here, not in the kept reading: the unit is
    the sender's, not the file's.)"""
    import pickle

    context = _read_context(t)
    inputs = Inputs(context=context)
    if ledger.night:            # a run's: a run that finishes a night cut short has its night
        inputs.night = ledger.night
    everything = named_apart(ledger.received())
    inputs.own_copies = own = known_own_copies(ledger)
    recs = [r for r in everything if r.kind != "mail"]
    mails = {r.sha256: r for r in everything if r.kind == "mail"}

    def came_in(rec: Received) -> str:
        """For an attachment: which mail it came in (its file, sender and time), so two
        strangers' 《报名表.xls》 are told apart and whom to call is said (an audit)."""
        m = mails.get(rec.parent) if rec.parent else None
        if m is None:
            return ""
        # (a mail --imap stored as <hash>.eml: by its subject, the time being said here)
        notes = _mail_notes(ledger, [m], notice=t.spec.notice_date, office=office_addresses(t.spec)) if hash_named(m.file_name) else {}
        return (f"（邮件{_mail_called(m, notes, t.spec.script, when=False)}的附件，发件人 {m.sender or '未知'}，"
                f"{cn_when(m.received_at)} 收到）")
    for rec in [r for r in recs if r.sha256 in own]:
        # a returned copy of ours come back unchanged (an inline 转发 of a receipt keeps its
        # attachment): no form — it superseded the captain's corrected one
        ours = own[rec.sha256]
        own_copy_issue(issues, f"文件《{rec.file_name}》{came_in(rec)}", ours, CellRef(rec.file_name),
                       ours.branch or sender_unit(t, rec.sender), rec.sha256)
    recs = [r for r in recs if r.sha256 not in own]
    keys = {r.sha256: _reading_key(context, r) for r in recs if r.ext in WORKBOOK_EXTS}
    carried = {r.parent for r in recs if r.parent and r.sha256 in keys and r.parent in mails}
    hashed = [mails[h] for h in sorted(carried) if hash_named(mails[h].file_name)]
    notes = _mail_notes(ledger, hashed, notice=t.spec.notice_date, office=office_addresses(t.spec)) if hashed else {}
    inputs.mail_of = {r.sha256: (_mail_called(mails[r.parent], notes, t.spec.script, when=False),
                                 mails[r.parent].sender) for r in recs if r.parent in carried}
    # SAME_TIME: each workbook's place in a mail that carried two or more (its note lists them in order)
    counts = collections.Counter(r.parent for r in recs if r.parent in carried)
    many = [mails[h] for h in sorted(carried) if counts[h] > 1]
    if many:
        placed = _mail_notes(ledger, many, notice=t.spec.notice_date, office=office_addresses(t.spec))
        for r in recs:
            shas = [sha for _, sha in (placed.get(r.parent) or {}).get("attachments", [])]
            if r.sha256 in shas:
                inputs.attached_at[r.sha256] = (r.parent, shas.index(r.sha256))
    cached = ledger.cache_get(sorted(set(keys.values())))
    fresh: dict[str, bytes] = {}
    # readings of workbooks whose copy in received/ was found gone (RECEIVED_COPY_LOST): kept before, and tonight
    lost_before = dict(ledger.cache_items(_LOST_READING))
    lost: dict[str, bytes] = {}
    older: dict[str, bytes] | None = None      # the old program's readings by file (_readings_by_file), when needed
    for key in set(keys.values()) - cached.keys():
        if readings and key in readings:
            cached[key] = fresh[key] = readings[key]
    # the files not read before are read on every core (each reading is independent)
    from .parallel import Jobs
    jobs = Jobs()
    pending = {}
    for rec in recs:
        key = keys.get(rec.sha256)
        if key is not None and key not in cached and key not in pending:
            pending[key] = jobs.add(functools.partial(_read_one_pickled, t, ledger.root, rec))
    with jobs:
        jobs.start()
        for key, handle in pending.items():
            cached[key] = fresh[key] = handle.result()
    for rec in recs:
        if rec.sha256 == _EMPTY_SHA and not rec.parent:
            continue        # an empty inbox file recorded by an earlier version: intake says it at its path
        if not rec.parent and Path(rec.source or rec.file_name).suffix.lower() in PARTIAL_EXTS:
            # a download's temporary file recorded by an earlier version (不是 Excel 工作簿, for
            # good after the finished file came): intake says it at its path while it is there
            continue
        where = CellRef(rec.file_name)
        unit = sender_unit(t, rec.sender)
        # a file set aside: its submission is on the page of the unit that sent it
        aside = dataclasses.replace(rec, branch=unit) if unit else rec
        if rec.ext not in WORKBOOK_EXTS:
            if _shortcut(ledger, rec):
                # a Windows shortcut dragged in instead of the file (handbook 二): the office's
                # slip, not the captain's — it was told 请用我们下发的报名表填写后发送 (an audit)
                put = ("请发件人把文件本身（而不是它的快捷方式）作为附件重新发送" if rec.parent
                       else "请把文件本身放进收件箱（在快捷方式上右键“打开文件所在的位置”即可找到它）")
                issues.add("UNREADABLE_FILE", f"文件《{rec.file_name}》{came_in(rec)}是 Windows 的快捷方式（.lnk），"
                           f"不是文件本身，已忽略：{put}。", at=where, source=rec.sha256, branch=unit)
            elif _mail_like(ledger, rec):
                # a mailbox export (.mbox), an Outlook .msg, an Apple .emlx, a mail saved as
                # text: its attachments were never read, and the office was told to ask the
                # sender for the issued form
                issues.add("UNREADABLE_FILE", f"文件《{rec.file_name}》像是邮件，但不是 .eml 格式，其中的附件没有读取："
                           "请在邮件程序中把这封邮件另存为 .eml 文件（或直接转发到收件邮箱）后放进收件箱，"
                           "或把附件的报名表/成绩表单独放进收件箱。", at=where, source=rec.sha256, branch=unit)
            elif rec.ext.lower() in OTHER_SHEET_EXTS:
                # the issued form saved in another program's format (LibreOffice's .ods, WPS's
                # .et): its captain did use the form, which saved as .xlsx is read
                issues.add("UNREADABLE_FILE", f"文件《{rec.file_name}》{came_in(rec)}不是 Excel 工作簿（.xlsx），已忽略；"
                           "请在 LibreOffice/WPS 中另存为 Excel 工作簿（.xlsx）后重发。", at=where, source=rec.sha256,
                           branch=unit)
            else:
                issues.add("UNREADABLE_FILE", f"文件《{rec.file_name}》{came_in(rec)}不是 Excel 工作簿（.xlsx），已忽略；"
                           "请用我们下发的报名表填写后发送。", at=where, source=rec.sha256, branch=unit)
            inputs.unreadable.append(aside)
            continue
        key = keys[rec.sha256]
        reading = None
        missing = ""          # the kept copy behind the reading is gone: "kept" (this very reading) or "stale"
        if key in cached:
            try:
                reading = _unpickle(cached[key])
            except Exception:   # a reading from another version of a class: read again
                reading = None
        if reading is None:
            data = _read_one_pickled(t, ledger.root, rec)
            reading = pickle.loads(data)
            fresh[key] = data
        if reading[0] == "lost":
            # read (here or by intake) under another tournament.yaml or program, its copy gone:
            # the reading made before stands in for it (RECEIVED_COPY_LOST) — kept when the copy
            # was first found gone, or still under its old key on the first night of the change
            old = lost_before.get(_LOST_READING + rec.sha256)
            if old is None:
                old = next((v for k, v in ledger.cache_items(f"read:{rec.sha256}:") if k != key), None)
            if old is None:
                if older is None:
                    older = _readings_by_file(ledger)
                old = older.get(rec.sha256)
            try:
                reading, missing = (_unpickle(old), "stale") if old is not None else (reading, "")
            except Exception:   # (kept by another version of a class)
                pass
            if missing:
                fresh.pop(key, None)
                lost[_LOST_READING + rec.sha256] = old
        elif key in cached and key not in fresh and not kept_whole(rec.stored(ledger.root), None):
            # the kept copy behind a kept reading is gone (a stat a night; the copy read only
            # when it is not there: made again from its mail when that is kept)
            if _kept_bytes(ledger.root, rec) is None:
                missing, lost[_LOST_READING + rec.sha256] = "kept", cached[key]
        if missing:
            _copy_lost_issue(issues, rec, came_in(rec), reading, unit, stale=missing == "stale")
        kind = reading[0]
        later = _replaced_in_place(rec, recs, ledger.root, mails) if kind == "unreadable" else None
        if kind == "lost":
            fresh.pop(key, None)
            kind = "unreadable"
        if kind == "unreadable" and later is not None:
            # an inbox file cut short (copied in halfway, saved while being written) and then
            # put there whole under the same name: the office was asked to act on the broken
            # one night after night (an audit)
            place = (f"放在收件箱同一位置的邮件《{mails[later.parent].file_name}》中的《{later.file_name}》"
                     if later.parent and later.parent in mails else f"放在收件箱同一位置的《{later.file_name}》")
            issues.add("SUPERSEDED", f"文件《{rec.file_name}》{came_in(rec) or f'（{cn_when(rec.received_at)} 收到）'}"
                       f"无法读取，已被其后{place}"
                       f"（{cn_when(later.received_at)} 收到）取代，无需处理；原文件仍保存在台账中。",
                       at=where, source=rec.sha256, branch=unit)
            inputs.unreadable.append(aside)
        elif kind == "unreadable":
            issues.add("UNREADABLE_FILE", f"文件《{rec.file_name}》{came_in(rec)}无法读取：{reading[1]}", at=where,
                       source=rec.sha256, branch=unit)
            inputs.unreadable.append(aside)
        elif kind == "registration":
            reg, found = reading[1], reading[2]
            if (unit and not reg.usable and reg.branch and reg.branch != unit and not _registered(t, reg.branch, rec.sender)
                    and any(i.code == "WRONG_BRANCH" and i.cell for i in found)):
                # a genuine form of another unit (its token fits) whose header line this
                # captain changed to their own unit (WRONG_BRANCH at that cell): mailed from
                # this unit's address, it is the other unit's form sent by this one
                claimed = reg.branch
                reg = dataclasses.replace(reg, branch=unit)
                found = [_other_units_form(t, rec, claimed, unit)]
                inputs.other_units[rec.sha256] = (claimed, reg_lines(reg.rows))
            elif unit and not reg.usable and (not reg.branch or (reg.foreign and reg.branch != unit)):
                # a form that names no unit of ours (no _meta, another tournament's, an
                # unknown unit id), or one whose token does not prove the unit it names
                # (WRONG_BRANCH: most likely another unit's form filled in by this captain):
                # rejected, and said to the unit that sent it — its page, its receipt.  The
                # named unit's page said 有 N 处错误待改 of a file it never sent, and the
                # sender's never showed its refused file.
                claimed = reg.branch
                reg = dataclasses.replace(reg, branch=unit)
                found = [_claimed_by_sender(t, i, claimed, unit, rec.sender) if claimed
                         else i if i.branch else dataclasses.replace(i, branch=unit) for i in found]
            elif unit and reg.usable and reg.branch and reg.branch != unit and not _registered(t, reg.branch, rec.sender):
                # a genuine form of another unit, mailed from this unit's registered address:
                # most likely this captain filled in the other unit's form.  It replaced the
                # other unit's accepted registration with this unit's people (after the
                # deadline, for good), and the captain who erred was sent nothing
                claimed = reg.branch
                reg = dataclasses.replace(reg, branch=unit, usable=False, foreign=True)
                found = [_other_units_form(t, rec, claimed, unit)]
                inputs.other_units[rec.sha256] = (claimed, reg_lines(reg.rows))
            elif (not unit and not reg.usable and reg.foreign and reg.branch
                  and any(i.code == "WRONG_BRANCH" and not i.cell for i in found)):
                # a form naming a unit its token does not prove, put straight into the inbox
                # or mailed from an address of no unit: nothing shows whose it is — it goes
                # on 未归属单位的文件 (handbook 三).  The named unit's page said 有 1 处错误待改
                # and counted it as received, of a file it never sent (an audit)
                claimed = reg.branch
                reg = dataclasses.replace(reg, branch="")
                found = [_claimed_by_nobody(t, i, claimed, rec) for i in found]
            inputs.reg_issues[rec.sha256] = found
            inputs.registrations.append((rec, reg))
        elif kind in _BOOK_KINDS:
            getattr(inputs, _BOOK_KINDS[kind]).append((rec, reading[1]))
            for sheet in reading[1].sheets.values():
                if sheet.far:
                    from .ingest.workbook import MAX_GAP
                    issues.add("BAD_VALUE", f"文件《{rec.file_name}》的工作表“{sheet.name}”在 {sheet.far} 有一个远离表格的值"
                               f"（与表格之间隔了 {MAX_GAP:,} 多行空行），未读取。如果是误输入，请删除这个单元格。",
                               at=CellRef(rec.file_name, sheet.name, sheet.far), source=rec.sha256,
                               severity=Severity.WARNING)
                if sheet.far_right:
                    from .ingest.workbook import MAX_COLS
                    issues.add("BAD_VALUE", f"文件《{rec.file_name}》的工作表“{sheet.name}”在 {sheet.far_right} 有一个远离表格的值"
                               f"（在第 {MAX_COLS} 列之后），未读取。如果是误输入，请删除这个单元格。",
                               at=CellRef(rec.file_name, sheet.name, sheet.far_right), source=rec.sha256,
                               severity=Severity.WARNING)
                if sheet.truncated:   # rows past the cap were not read: say so, never score silently
                    from .ingest.workbook import MAX_ROWS
                    issues.add("BAD_VALUE", f"文件《{rec.file_name}》的工作表“{sheet.name}”超过 {MAX_ROWS} 行数据，"
                               f"之后的行没有读取。请删除多余的行，或把成绩分成几个文件发送。",
                               at=CellRef(rec.file_name, sheet.name, f"A{len(sheet.rows)}"), source=rec.sha256)
        elif kind == "mismatch" and reading[1:] == ("copied",):
            issues.add("TEMPLATE_MISMATCH", f"文件《{rec.file_name}》里有报名表格，但它不是下发的报名表：缺少下发的报名表中"
                       "隐藏的校验信息（另存为 CSV 后再转回 .xlsx，或把内容复制到新文件，都会丢失这些信息），本文件未受理。"
                       "请在下发的 .xlsx 报名表中填写后发送。", at=where, source=rec.sha256, branch=unit)
            inputs.unreadable.append(aside)
        else:
            from . import layout
            issues.add("TEMPLATE_MISMATCH", f"文件《{rec.file_name}》不是本次比赛下发的表格（找不到“{layout.REG_SHEET}”、"
                       f"“{layout.RESULT_SHEET}”、“{layout.CHECKIN_SHEET}”、“{layout.PLAYOFF_SHEET}”或“{layout.AWARDS_SHEET}”"
                       "工作表），请使用下发的表格填写。",
                       at=where, source=rec.sha256, branch=unit)
            inputs.unreadable.append(aside)
    ledger.cache_put(fresh)
    if fresh:
        ledger.cache_prune("read:", set(keys.values()))
    if lost.keys() - lost_before.keys():
        ledger.cache_put({k: v for k, v in lost.items() if k not in lost_before}, durable=True)
    if lost_before.keys() - lost.keys():        # (the copy back: read from it again)
        ledger.cache_prune(_LOST_READING, set(lost))
    return inputs


#: a reading's key as programs up to ca7e204 kept it: ``read:`` and a hash of the context and
#: the file's hash, extension, name and time — the file's hash not to be seen in it
_OLD_READING_KEY = re.compile(r"read:[0-9a-f]{64}")


def _readings_by_file(ledger: Ledger) -> dict[str, bytes]:
    """The readings kept under the old key (:data:`_OLD_READING_KEY`: ca7e204 and earlier), by
    the SHA-256 of the file each is of — for a received workbook whose copy in ``received/``
    was lost while that program ran, which counted it from that reading (RECEIVED_COPY_LOST,
    :func:`read_inputs`): the first night of this program found no ``read:<sha256>:``
    reading, dropped the unit's entries (UNREADABLE_FILE) and pruned the old reading.  The
    old key cannot be made again (it hashes that program's code); a reading is tied to its
    file by what it holds: a registration by its ``source`` (the file's SHA-256), a result,
    awards, check-in or 加赛 sheet by its book's name (the stored copy's, ``<sha256><ext>``).
    A file read as not our form or unreadable holds neither: not found (it counted for
    nothing).  Of several readings of one file (made under successive tournament.yaml), the
    one kept last."""
    found: dict[str, bytes] = {}
    for k, v in ledger.cache_items("read:"):
        if not _OLD_READING_KEY.fullmatch(k):
            continue
        try:
            reading = _unpickle(v)
        except Exception:   # noqa: BLE001 - (kept by another version of a class: not this one's)
            continue
        if not isinstance(reading, tuple) or len(reading) < 2:
            continue
        if reading[0] == "registration":
            sha = getattr(reading[1], "source", "") or ""
        elif reading[0] in _BOOK_KINDS:
            sha = (getattr(reading[1], "name", "") or "").split(".", 1)[0]
        else:
            continue
        if re.fullmatch(r"[0-9a-f]{64}", sha):
            found[sha] = v
    return found


#: cache keys of the kept reading of a received workbook whose copy in ``received/`` is gone
#: (:func:`read_inputs`, RECEIVED_COPY_LOST): ``lost-read:<sha256>``
_LOST_READING = "lost-read:"


def _copy_lost_issue(issues: IssueLog, rec: Received, came: str, reading: tuple, unit: str, stale: bool) -> None:
    """RECEIVED_COPY_LOST (error) for a received workbook whose stored copy in ``received/`` is
    gone and cannot be made again from its mail (:func:`read_inputs`): its content still counts
    as it was read before — a registration's entries are not dropped from a running league
    (README: nothing received is lost) — and the office is told how to bring the copy back.
    ``stale``: that reading was made under an earlier tournament.yaml or program."""
    branch = unit
    if reading and reading[0] == "registration" and getattr(reading[1], "branch", ""):
        branch = branch or reading[1].branch
    later = ("；它是在 tournament.yaml 或程序更新之前读取的，此后的改动要等副本恢复后才用于这个文件" if stale else "")
    issues.add("RECEIVED_COPY_LOST",
               f"文件《{rec.file_name}》{came}在输出文件夹中保存的副本 received/{rec.sha256}{rec.ext} 已丢失"
               f"（不是发件人的问题），也无法从原邮件的副本中取回。它的内容仍按此前读取的结果计入{later}。"
               "请把原文件（或带着它的原邮件）重新放进收件箱，或从备份恢复 received/ 文件夹中的这个文件后再运行；"
               "恢复之前请勿删除输出文件夹中的 ledger.sqlite（此前读取的结果保存在其中）。",
               at=CellRef(rec.file_name), source=rec.sha256, branch=branch)


_BOOK_KINDS = {"result": "results", "awards": "awards", "checkin": "checkins", "playoff": "playoffs"}


def own_copy_issue(issues: IssueLog, what: str, ours: OwnCopy, at: CellRef, branch: str, source: str = "") -> None:
    """OWN_MAIL (info) for a received file byte for byte a returned copy we wrote
    (:class:`~pipeline.store.OwnCopy`): a captain forwarding a receipt inline (转发, which
    keeps its attachment) to ask about it, or sending the marked copy back unchanged.  It is
    set aside, not taken as a form — taken, it superseded the unit's corrected form (an
    audit: accepted entries lost, the old problem back).  ``what`` names the file."""
    issues.add("OWN_MAIL", f"{what}与本系统 {cn_when(ours.written_at)} 退回的标注副本（returned/{ours.name}）完全相同，"
               "是本系统发出的副本，不是新的报名表，没有作为报名表收取，此前收到的报名表不受影响，无需处理。"
               + OWN_COPY_ASK, at=at, branch=branch, source=source)


#: how OWN_MAIL notes end while a corrected form may still be sent (:func:`own_mail_after_deadline`)
OWN_COPY_ASK = "如需改正报名表，请在这份副本上修改、保存后重新作为附件发送。"
OWN_RECEIPT_ASK = "如需重新报名，请在表中改正后作为附件发送。"
#: … and once some of the unit's events have closed while others are still open
_OWN_STILL_ASK = {OWN_COPY_ASK: "{still}如需修改，请在这份副本上修改、保存后{before}重新作为附件发送。",
                  OWN_RECEIPT_ASK: "{still}如需修改，请在表中改正后{before}作为附件发送。"}


def own_mail_after_deadline(t: Tournament, issues: IssueLog, now: dt.datetime,
                            newest: list[tuple[Received, Any]]) -> int:
    """An OWN_MAIL note (a receipt or its marked copy come back: :func:`own_copy_issue`,
    :func:`mail_issues`) once deadlines of its unit's events have passed (R2020-Q4; the
    events of the unit's form in force, else every event): it ended 请在这份副本上修改、保存后
    重新作为附件发送 after every deadline under ``late_policy: reject``, and the resend it
    invited was refused as late (an audit; handbook 回执: nobody is asked to correct and
    resend after the deadline).  It says what holds instead, in the receipts' words
    (:func:`pipeline.mail.receipts.window_at`): 已不能再通过邮件更正 … 请联系 …, or that a form
    sent now is marked late, with the events still open and until when.  Returns how many."""
    if not any(i.code == "OWN_MAIL" for i in issues):
        return 0
    # (imported only then: pipeline.mail and what it imports, ssl among them, were ~90 M
    # instructions of every night's run, a seventh of a one-changed night's run process)
    from .mail.receipts import window_at

    events_of = {getattr(reg, "branch", ""): {r.event for r in getattr(reg, "rows", ()) if getattr(r, "event", "")}
                 for _, reg in newest}

    def revised(i: Issue) -> Issue:
        ask = next((a for a in (OWN_COPY_ASK, OWN_RECEIPT_ASK) if i.code == "OWN_MAIL" and i.message.endswith(a)), "")
        if not ask:
            return i
        ids = events_of.get(i.branch, set()) if i.branch else set()
        win = window_at(t, now, [ev for ev in t.spec.events if ev.id in ids] or list(t.spec.events))
        if not win.closed:
            return i
        tail = _OWN_STILL_ASK[ask].format(still=win.still, before=win.before) if win.still else ask if win.open else ""
        return dataclasses.replace(i, message=i.message[:-len(ask)] + win.closed + tail)
    return issues.revise(revised)


def known_own_copies(ledger: Ledger) -> dict[str, OwnCopy]:
    """The returned copies the runs wrote (:meth:`Ledger.own_copies`), with any copy under
    ``returned/`` not recorded yet (written by a version that did not record them, or by a run
    killed before it recorded them) hashed and recorded first, at its file's time and with no
    unit, as a guess — once: a night lists the folder and looks names up.  A run that writes
    the same copy records it as its own (:meth:`Ledger.record_own_copies`: its unit and the
    run's time in place of the guess).

    A name that is not UTF-8 (Python keeps its bytes as surrogates: a GBK name, the office's
    copy from a Windows share or zip) is no copy a run wrote — runs name theirs in UTF-8 — and
    is left alone, never read nor recorded: SQLite cannot store it, and recording it stopped
    every later night (an audit; handbook: files the office puts in the output folder)."""
    own = ledger.own_copies()
    folder = ledger.root / "returned"
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".xlsx") and not n.startswith((".", "~$"))
                 and _utf8_name(n)]
    except OSError:
        return own
    recorded = {c.name for c in own.values()}
    todo = [n for n in names if n not in recorded]
    if not todo:
        return own
    found = []
    for n in todo:
        try:
            p = folder / n
            found.append(OwnCopy(sha256(p.read_bytes()), n, "", from_timestamp(p.stat().st_mtime)))
        except OSError:
            continue
    if found:
        ledger.record_own_copies(found, max(c.written_at for c in found), guessed=True)
        own = ledger.own_copies()
    return own


def _utf8_name(name: str) -> bool:
    """Whether a listed file name is UTF-8 (no surrogates standing for other bytes) — and so
    one SQLite, JSON and the pages can carry (:func:`known_own_copies`)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _registered(t: Tournament, unit_id: str, sender: str) -> bool:
    """Whether ``sender`` is a registered address of unit ``unit_id``."""
    u = t.spec.unit(unit_id)
    return u is not None and sender.lower() in {e.lower() for e in u.emails}


def reg_lines(rows: Iterable) -> frozenset[tuple[str, str, str]]:
    """A registration's lines as (name, event, team) — what an OTHER_UNITS_FORM is compared
    with (:func:`settle_rejected_before`): a correction typed on another unit's form holds the
    sender's names with a person moved to another event, or left out (高宇琪 withdrawn, 宋洋娟
    and 江刚华 swapping 象棋/跳棋 on b06's form: compared by names only, it was told
    无需重新发送 and lost — a review).  Rows without a name are no line."""
    return frozenset((r.name, getattr(r, "event", "") or "", getattr(r, "team_no", "") or "")
                     for r in rows if getattr(r, "name", ""))


def _other_units_form(t: Tournament, rec: Received, claimed: str, unit: str,
                      own: Received | None = None, together: bool = False) -> Issue:
    """OTHER_UNITS_FORM: a form issued for unit ``claimed`` (its token proves it), sent from
    unit ``unit``'s registered address — not taken, said to the sender's unit (its page, its
    receipt) — :func:`read_inputs`.  ``own``: the sender's own form taken, received with it
    (``together``: in the same mail) or before it (:func:`settle_rejected_before`) — then it
    does not ask the sender to send its own form (it asked b04, whose own form in the same
    mail had just been accepted: an audit), but says its own was taken and that this one
    counts for nobody: ``claimed`` must send it itself."""
    word = t.spec.unit_word
    named = getattr(t.spec.unit(claimed), "name", claimed)
    mine = getattr(t.spec.unit(unit), "name", unit)
    said = (f"《{rec.file_name}》是组委会下发给{named}的报名表，却是从{mine}登记的邮箱 {rec.sender} 发来的：本表未受理，"
            f"{named}和{mine}已有的报名都不受它影响。")
    if own is None:
        ask = (f"如果是{mine}误用了{named}的报名表，请改用组委会下发给本{word}"
               f"的报名表填写后重新发送；如果确是代{named}报名，请{named}从其登记的邮箱发送。")
    else:
        came = "同一封邮件所附的" if together else ""
        at = "" if together else f"（{cn_when(own.received_at)} 收到）"
        ask = (f"{mine}自己的报名表已经收到：{came}《{own.file_name}》{at}已受理，{mine}无需重新发送。"
               f"这份{named}的报名表不计入任何{word}的报名；{named}的报名须由{named}从其登记的邮箱自行发送。")
    return issue("OTHER_UNITS_FORM", said + ask, at=CellRef(rec.file_name), branch=unit, source=rec.sha256)


def _claimed_by_sender(t: Tournament, i: Issue, claimed: str, unit: str, sender: str) -> Issue:
    """An issue of a form that names unit ``claimed`` but whose token does not prove it, sent
    from unit ``unit``'s registered address: the sender's (:func:`read_inputs`).  WRONG_BRANCH
    then says whose form it claims to be, whose address sent it, and that neither unit's
    registration changed — it spoke to the claimed unit (请使用组委会下发给本分工会的报名表),
    in a receipt greeting the sender's."""
    if i.code == "WRONG_BRANCH":
        word = t.spec.unit_word
        named = getattr(t.spec.unit(claimed), "name", claimed)
        mine = getattr(t.spec.unit(unit), "name", unit)
        return dataclasses.replace(i, branch=unit, message=(
            f"这份报名表写的是{word}“{named}”，但报名表的校验码与之不符（表格可能复制自其他{word}或被改动），"
            f"而发件邮箱 {sender} 是{mine}登记的邮箱：本表未受理，{named}和{mine}已有的报名都不受它影响。"
            f"请使用组委会下发给本{word}（{mine}）的报名表。"))
    return dataclasses.replace(i, branch=unit)


def _claimed_by_nobody(t: Tournament, i: Issue, claimed: str, rec: Received) -> Issue:
    """An issue of a form that names unit ``claimed`` but whose token does not prove it,
    put into the inbox itself or mailed from an address of no unit: no unit's
    (:func:`read_inputs`; handbook 三, 未归属单位的文件).  WRONG_BRANCH then says whose form
    it claims to be, that nothing shows who sent it, that the unit's registration did not
    change, and what to do."""
    if i.code == "WRONG_BRANCH":
        word = t.spec.unit_word
        named = getattr(t.spec.unit(claimed), "name", claimed)
        came = (f"发件邮箱 {rec.sender} 不是任何{word}登记的邮箱" if rec.sender
                else "邮件没有写明发件人" if rec.parent else "它是直接放进收件箱的")
        return dataclasses.replace(i, branch="", message=(
            f"这份报名表写的是{word}“{named}”，但报名表的校验码与之不符（表格可能复制自其他{word}或被改动），"
            f"{came}，看不出是哪个{word}的：本表未受理，{named}已有的报名不受它影响。请查明是哪个{word}"
            f"提交的，请其使用组委会下发给该{word}的报名表填写后，从登记的邮箱发送。"))
    return dataclasses.replace(i, branch="")


def _reading_key(context: str, rec: Received) -> str:
    """The cache key of a received workbook's reading (see :func:`read_inputs`): its parts
    joined by NUL, which no part holds (a night makes one per received file: canonical JSON
    of each was a tenth of reading the kept ones)."""
    text = "\0".join((context, rec.sha256, rec.ext, rec.file_name, rec.received_at.isoformat()))
    # (the file's hash first: the reading made under an earlier spec or program is found by it
    # when the file's copy is gone — RECEIVED_COPY_LOST, read_inputs)
    return f"read:{rec.sha256}:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _read_context(t: Tournament) -> str:
    """What every reading depends on besides the file: code, spec and secret."""
    spec = t.spec_sha256 or hashlib.sha256((t.folder / "tournament.yaml").read_bytes()).hexdigest()
    former = {ev.id: ev.former_names for ev in t.spec.events if ev.former_names}   # with_former_names
    units = {u.id: u.former_names for u in t.spec.units if u.former_names}       # with_former_unit_names
    gone = {k: list(v) for k, v in t.cancelled_events.items()}                     # with_cancelled_events
    return _canon([lastrun.code_hash(), spec, hashlib.sha256(t.secret).hexdigest(), *([former] if former else []),
                   *([{"units": units}] if units else []), *([{"cancelled": gone}] if gone else [])])


def _unpickle(data: bytes) -> Any:
    """``pickle.loads`` with the cyclic garbage collector paused: a kept event state is
    hundreds of thousands of small objects, and collections triggered while they are
    created (none of them garbage) made loading four times slower."""
    import pickle

    from .gcpolicy import paused

    with paused():
        return pickle.loads(data)


def _replaced_in_place(rec: Received, recs: list[Received], root: Path | None = None,
                       mails: dict[str, Received] | None = None) -> Received | None:
    """The file received after ``rec`` from the very inbox path ``rec`` came from (other
    content, a later time), when ``rec`` was put in the inbox itself; else None.  A workbook
    cut short and then saved there whole is that file's newer version, whatever it holds.

    A mail's attachment (given the ledger's ``root`` and the ``mails`` by SHA-256): the
    attachment of that name in the mail that replaced its mail at the same inbox path
    (:func:`_mail_replaced_in_place`), or that mail when it has none — a result mail copied
    in halfway and then put there whole left 文件不完整…请重新提交 for good (an audit)."""
    if rec.parent:
        mail = (mails or {}).get(rec.parent)
        if mail is None or root is None or not mail.source:
            return None
        newer = _mail_replaced_in_place(root, mail, [m for m in mails.values() if m.source == mail.source])
        if newer is None:
            return None
        return next((r for r in recs if r.parent == newer.sha256 and r.file_name == rec.file_name), newer)
    if not rec.source:
        return None
    after = [r for r in recs if not r.parent and r.source == rec.source and r.sha256 != rec.sha256
             and aware(r.received_at) > aware(rec.received_at)]
    return max(after, key=lambda r: aware(r.received_at)) if after else None


def _mail_replaced_in_place(root: Path, mail: Received, same_place: list[Received]) -> Received | None:
    """The mail put at ``mail``'s inbox path after it (``same_place``: the mails recorded from
    that path) that replaces it: the same mail grown — its kept copy begins with all of
    ``mail``'s bytes (a mail cut short while it was copied, then put there whole: both have
    one Date, so one time of receipt) — or one received later from the same sender (a copy
    of the same mail, or that sender's next mail).  Another sender's mail saved later under
    the same file name (报名.eml) replaces nothing: the first unit's mail still asks it to
    send again (an audit).  None when there is none.  Reads the two kept copies only for
    mails that share a path (rare)."""
    who = (mail.sender or "").strip().casefold()

    def grown(m: Received) -> bool:
        try:
            cut, whole = mail.stored(root).read_bytes(), m.stored(root).read_bytes()
        except OSError:
            return False
        return len(whole) > len(cut) and whole.startswith(cut)
    after = [m for m in same_place if m.sha256 != mail.sha256 and m.source == mail.source
             and ((who and (m.sender or "").strip().casefold() == who
                   and aware(m.received_at) > aware(mail.received_at)) or grown(m))]
    return max(after, key=lambda m: aware(m.received_at)) if after else None


def _read_one_pickled(t: Tournament, root: Path, rec: Received) -> bytes:
    import pickle
    return pickle.dumps(_read_one(t, root, rec), protocol=pickle.HIGHEST_PROTOCOL)


def _kept_bytes(root: Path, rec: Received) -> bytes | None:
    """The bytes of a received file as kept in ``received/``, checked against its SHA-256 —
    a copy lost or damaged there (truncated by a full disk, deleted by hand) is made again
    from the mail it came attached to when that is kept; None when it cannot be.  (A damaged
    copy was read as the captain's broken file: 文件不完整…请重新提交, the unit's entries
    dropped.)"""
    path = rec.stored(root)
    try:
        data = path.read_bytes()
    except OSError:
        data = None
    if data is not None and sha256(data) == rec.sha256:
        return data
    if rec.parent:
        from .ingest.eml import parse_eml_bytes
        from .fsutil import atomic_write_bytes

        try:
            mail = parse_eml_bytes((root / "received" / f"{rec.parent}.eml").read_bytes(), rec.source)
        except Exception:  # noqa: BLE001 - the mail's copy is lost or damaged too
            mail = None
        for att in mail.attachments if mail is not None else ():
            if sha256(att.data) == rec.sha256:
                log().warning("收到的 %s 在输出文件夹 received/ 中保存的副本丢失或已损坏，已从带着它的邮件重新取出", rec.file_name)
                atomic_write_bytes(path, att.data, durable=True)
                return att.data
    log().warning("收到的 %s 在输出文件夹 received/ 中保存的副本丢失或已损坏，无法取回（见 data/issues.csv）", rec.file_name)
    return None


def _read_one(t: Tournament, root: Path, rec: Received) -> tuple:
    """One stored workbook as ``("unreadable", message)``, ``("registration", reg, issues)``,
    ``(book kind, Book)`` or ``("mismatch",)``."""
    from . import layout
    from .ingest.registration import read_registration
    from .ingest.workbook import UnreadableFile, read_workbook_bytes

    data = _kept_bytes(root, rec)
    if data is None:        # (not kept as the file's reading: read again once the copy is back)
        return ("lost", "收到的这个文件在输出文件夹 received/ 中保存的副本丢失或已损坏（不是发件人的问题），"
                        "其内容暂未计入：请把原文件（或带着它的原邮件）重新放进收件箱，或从备份恢复 received/ 文件夹后再运行。")
    try:
        book = read_workbook_bytes(data, rec.stored(root).name)
        # no _meta (deleted, or a sheet copied into a new file): known by its sheet's name
        kind = (book.meta or {}).get(layout.META_KIND, "") or next(
            (k for sheet, k in ((layout.REG_SHEET, layout.KIND_REGISTRATION), (layout.RESULT_SHEET, layout.KIND_RESULT),
                                (layout.CHECKIN_SHEET, layout.KIND_CHECKIN), (layout.PLAYOFF_SHEET, layout.KIND_PLAYOFF),
                                (layout.AWARDS_SHEET, layout.KIND_AWARDS)) if sheet in book.sheet_names), "")
        if kind == layout.KIND_REGISTRATION:
            reg, found = read_registration(book, rec.file_name, t, received=rec.received_at, source=rec.sha256)
            return ("registration", reg, list(found))
    except UnreadableFile as e:
        return ("unreadable", e.message_cn)
    except Exception:   # noqa: BLE001 - one workbook the reader trips on must not stop the night
        log().exception("读取 %s 时出错，其内容未计入（见 data/issues.csv）", rec.file_name)
        return ("unreadable", "读取这个文件时出错，其内容未计入。请在 Excel 或 WPS 中打开它，另存为“Excel 工作簿(*.xlsx)”"
                              "后重新发送；如仍不行，请联系组委会。")
    if kind == layout.KIND_RESULT:
        from .ingest.sheets import adopt_renamed_result_sheet

        adopt_renamed_result_sheet(book)    # 成绩 renamed (Sheet1), its _meta intact: read as 成绩
    for name, known in (("result", layout.KIND_RESULT), ("awards", layout.KIND_AWARDS),
                        ("checkin", layout.KIND_CHECKIN), ("playoff", layout.KIND_PLAYOFF)):
        if kind == known:
            return (name, book)
    if not book.meta:
        # the form's table in a sheet of another name, with no _meta: a CSV saved back as
        # .xlsx (LibreOffice names the sheet after the file), or the table copied to a new file
        from .ingest.registration import _holds_table

        if any(_holds_table(s, list(layout.REG_REQUIRED)) for s in book.sheets.values()):
            return ("mismatch", "copied")
    return ("mismatch",)


# =====================================================================================
# draw and score, event by event
# =====================================================================================

def draw_inputs_hash(entries: list[Entry], rounds: list[Round], results: dict[tuple, MatchResult],
                     absent: frozenset[str], cache: dict | None = None) -> str:
    """A hash of what a draw depends on — entries, published rounds and their results, and
    (for the first round) the check-in — printed on the draw sheet so that anyone can
    re-run the draw with the recorded seed.  Playoff sheets are not hashed: they may
    arrive in the same batch as later rounds' results, and the ledger keeps them anyway.

    The hash is of the canonical JSON (:func:`pipeline.lastrun.canon`) of
    ``{"entries": [[id, branch, [player keys]] …], "rounds": [[[sides…, group, table, bye] …] …],
    "results": sorted([[key…], [[outcome, points, score, place] …]] …), "absent": […]}``
    with only the results of published matches.

    ``cache`` (one dict per event run) keeps the canonical text of each entry list, round
    and round's results between the draws of a run, so drawing round *n* does not rebuild
    rounds 1…n-1: a part is reused only for the very same objects.  The text is the same
    as the canonical JSON of the whole body (``test_draw_inputs_hash_parts`` compares)."""
    cache = {} if cache is None else cache

    def part(tag: str, obj: Any, deps: tuple, make: Callable[[], str]) -> str:
        # reused only for the same object made from the same (equal) objects; the cache
        # holds them all, so no id is reused while it lives
        # (tuples compare their items by identity first: equal values make the same text)
        hit = cache.get((tag, id(obj)))
        if hit is None or hit[0] is not obj or hit[1] != deps:
            hit = cache[(tag, id(obj))] = (obj, deps, make())
        return hit[2]

    entries_text = part("entries", None, tuple(entries), lambda: _canon(
        [(e.id, e.branch, [p.key for p in e.players]) for e in entries]))
    rounds_text = "[" + ", ".join(part("round", rr.matches, (), lambda rr=rr: _canon(
        [list(m.sides) + [m.group, m.table, m.bye] for m in rr.matches])) for rr in rounds) + "]"
    # a result's key is (event, stage, round, group, table): sorted results are the rounds'
    # own sorted results, taken in (event, stage, round) order — unless two rounds share
    # that prefix, when the whole list is sorted at once
    prefixes = [part("prefix", rr.matches, (), lambda rr=rr: _one_prefix(rr)) for rr in rounds if rr.matches]
    if None not in prefixes and len(set(prefixes)) == len(prefixes):
        chunks = []
        for rr in sorted((rr for rr in rounds if rr.matches), key=lambda rr: rr.matches[0].key[:3]):
            keys = part("keys", rr.matches, (), lambda rr=rr: tuple(m.key for m in rr.matches))
            got = tuple(map(results.get, keys))
            text = part("results", rr.matches, got, lambda rr=rr: ", ".join(
                _canon(x) for x in sorted(_result_row(m.key, results[m.key]) for m in rr.matches
                                          if m.key in results)))
            if text:
                chunks += (", ", text) if chunks else ("[", text)
        results_text = [*chunks, "]"] if chunks else ["[]"]
    else:
        published = {m.key for rr in rounds for m in rr.matches}
        results_text = [_canon(sorted(_result_row(k, r) for k, r in results.items() if k in published))]
    absent_text = _canon(sorted(absent) if not rounds else [])
    pieces = ['{"absent": ', absent_text, ', "entries": ', entries_text, ', "results": ', *results_text,
              ', "rounds": ', rounds_text, '}']
    return _sha256_of_pieces(pieces, cache)[:16]


def _sha256_of_pieces(pieces: list[str], cache: dict) -> str:
    """The SHA-256 of ``"".join(pieces)``, continuing from the hash state of the longest run of
    leading pieces equal to those of the previous call with this ``cache``.

    An event's draws hash the same entries and the earlier rounds' results again and again
    (a 99-round event at 800 units: 99 bodies of up to 3 MB); the results come before the
    rounds in the canonical text, so a new draw re-hashes only from its new round's results.
    The digest is that of the whole text, as :func:`draw_inputs_hash` defines it."""
    previous = cache.get("sha-chain", [])
    same = 0
    for (was, _), piece in zip(previous, pieces):
        if was != piece:           # the parts are the cache's own strings: mostly the same objects
            break
        same += 1
    h = previous[same - 1][1].copy() if same else hashlib.sha256()
    chain = previous[:same]
    for piece in pieces[same:]:
        h.update(piece.encode())
        chain.append((piece, h.copy()))
    cache["sha-chain"] = chain
    return h.hexdigest()


def _one_prefix(rr: Round) -> tuple | None:
    """The (event, stage, round) all of a round's match keys share, None when they do not
    (or when two matches have one key)."""
    keys = {m.key for m in rr.matches}
    prefixes = {k[:3] for k in keys}
    return next(iter(prefixes)) if len(prefixes) == 1 and len(keys) == len(rr.matches) else None


def _result_row(k: tuple, r: MatchResult) -> list:
    return [list(k), [[s.outcome.value, s.points, s.score, s.place] for s in r.sides]]


def draw_seed(t: Tournament, event: str, round_no: int, inputs_hash: str) -> str:
    """The published seed of a round: derived from the tournament's seed prefix, the event,
    the round and the inputs, so it is reproducible and recorded."""
    prefix = t.spec.seed or t.spec.id
    return hashlib.sha256(f"{prefix}|{event}|{round_no}|{inputs_hash}".encode()).hexdigest()[:16]


def _json_field(raw: bytes, name: str) -> Any:
    """Field ``name`` of the JSON object ``raw`` (a cache value), None when it is none (a value
    damaged or of another shape: only a cache, it decides nothing)."""
    try:
        body = json.loads(raw)
    except ValueError:
        return None
    return body.get(name) if isinstance(body, dict) else None


def lot_seed(t: Tournament, event: str, entries: list[Entry]) -> str:
    """R2016-F1: the seed of the groups' lot — the branch chairs' draw, made before the event
    from the entries alone.  It is round 1's :func:`draw_seed` with no one absent (the inputs
    hash of the entries, no check-in), so with no absentees the groups are those round 1's own
    seed deals, and who is absent at the check-in changes no group (R2016-F2 re-forms pairs
    within the groups so drawn, with round 1's seed)."""
    return draw_seed(t, event, 1, draw_inputs_hash(entries, [], {}, frozenset()))


#: the status of an event without a ``deadline`` (R2020-Q4: open, not drawn until one is set)
NO_DEADLINE_WAITING = "没有报名截止时间，暂不抽签：请在 tournament.yaml 中为本项目填写 deadline"


def deadline_missing(t: Tournament, events: Mapping[str, EventState], issues: IssueLog) -> None:
    """R2020-Q4: DEADLINE_MISSING, every night, for each event not drawn whose ``deadline`` is
    missing from tournament.yaml (deleted by hand: ``league new`` always writes one) — it stays
    open, is never drawn and freezes nothing until the office sets one (:func:`deadline_passed`);
    the notice says its deadline is 另行通知.  Said at the event's line where it is found
    (:func:`pipeline.spec.event_line`), with the other events' latest deadline as the example
    (else 17:00 the day before the first session; not the run's time: the same words each night)."""
    missing = [ev for ev in t.spec.events if ev.deadline is None and _not_drawn(events, ev)]
    if not missing:
        return
    from .spec import SPEC_FILE, event_line

    try:
        text = (t.folder / SPEC_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    others = [aware(ev.deadline) for ev in t.spec.events if ev.deadline is not None]
    first = min((s.date for s in t.spec.sessions), default=None)
    example = (max(others).astimezone(TZ).isoformat() if others else
               dt.datetime.combine(first - dt.timedelta(days=1), dt.time(17), TZ).isoformat() if first else
               "2020-11-09T15:00:00+08:00")
    for ev in missing:
        line = event_line(text, ev.id) if text else None
        where = f"第 {line} 行起的该项目（id: {ev.id}）下" if line else f"该项目（id: {ev.id}）下"
        issues.add("DEADLINE_MISSING",
                   f"项目“{ev.name}”没有报名截止时间，暂不抽签：请在 tournament.yaml {where}填写 deadline"
                   f"（如 deadline: {example}），到时即截止报名、抽签。"
                   "填写之前本项目一直接受报名，通知中写“报名截止时间另行通知”。",
                   at=CellRef(SPEC_FILE))


def _not_drawn(events: Mapping[str, EventState], ev: EventSpec) -> bool:
    """Whether the event has no round drawn (no state yet, or none of its rounds)."""
    return events.get(ev.id) is None or not events[ev.id].rounds


def deadline_passed(ev: EventSpec, now: dt.datetime) -> bool:
    """R2020-Q4: whether the event's registration has closed (its ``deadline`` has come).  An
    event without one (the line deleted from tournament.yaml by hand; ``league new`` always
    writes one) is open — never drawn, nothing frozen — until the office sets one
    (DEADLINE_MISSING, :func:`deadline_missing`): it was counted closed, drawn the night two
    forms arrived and a third unit's form on time refused as sent after the draw."""
    return ev.deadline is not None and now >= aware(ev.deadline)


def awards_sheet_step(errors: Sequence[Issue]) -> str:
    """R2015-A1: the office's next step for the errors of its own 评奖表 (the sheet received
    last: :func:`discretionary_awards`) — correct it and put it in the inbox again, whole (the
    sheet received last is the list).  A row in error is not in the awards; a sheet whose
    table was not found (TEMPLATE_MISMATCH) was not read at all.  Warnings need no step: a
    repeated award counts once, as meant.

    >>> from pipeline.issues import issue
    >>> awards_sheet_step([issue("UNKNOWN_BRANCH", "…", at=CellRef("评奖表.xlsx", "评奖", "E5"))])
    '评奖表《评奖表.xlsx》有 1 处错误（见 data/issues.csv 中的 UNKNOWN_BRANCH），出错的行没有计入获奖名单：请在这张评奖表上改正（评奖!E5）后，把整张评奖表重新放入 inbox（以最后收到的一张为准）。'
    """
    files = "、".join(f"《{f}》" for f in dict.fromkeys(i.file for i in errors if i.file)) or ""
    codes = "、".join(dict.fromkeys(i.code for i in errors))
    at = list(dict.fromkeys(f"{i.sheet}!{i.cell}" for i in errors if i.sheet and i.cell))
    cells = "、".join(at[:5]) + ("等" if len(at) > 5 else "")
    whole = any(i.code == "TEMPLATE_MISMATCH" for i in errors)
    return (f"评奖表{files}有 {len(errors)} 处错误（见 data/issues.csv 中的 {codes}），"
            + ("这张评奖表没有读取" if whole else "出错的行没有计入获奖名单")
            + f"：请在这张评奖表上改正{f'（{cells}）' if cells else ''}后，把整张评奖表重新放入 inbox（以最后收到的一张为准）。")


def awards_sheet_due_step(due: Sequence[str]) -> str:
    """R2015-A1: the office's next step when every event is finished and its 评奖表 has not
    come (:func:`pipeline.state.sheet_awards_due`): the awards it decides are still to be
    decided, and the award list, the certificates and the tally wait for it.

    >>> awards_sheet_due_step(["体育道德风尚奖", "优秀组织奖"])
    '各项目均已结束，体育道德风尚奖、优秀组织奖尚待评定（尚未收到评奖表）：请组委会评定后填写 forms/评奖表.xlsx，放入 inbox，获奖名单、奖状和获奖统计随之补上。'
    """
    return (f"各项目均已结束，{'、'.join(due)}尚待评定（尚未收到评奖表）：请组委会评定后填写 forms/评奖表.xlsx，"
            "放入 inbox，获奖名单、奖状和获奖统计随之补上。")


def former_id_step(t: Tournament, issued_as: Sequence[Issue], registrations: Sequence[tuple[Received, Any]]) -> str:
    """The office's next step for forms issued with this folder's secret under another
    tournament id than tournament.yaml's (TOURNAMENT_ID_MISMATCH): the id was changed after
    the templates were sent (an audit: t2026 → t2026qp before the first run), or they are the
    forms of the tournament this folder was copied from.  Put the id back — not "send the
    forms back to the units": the captains used the forms they were given."""
    from . import layout

    files = {i.source or i.file for i in issued_as}
    ids = sorted({str(getattr(reg, "meta", {}).get(layout.META_TOURNAMENT, "")).strip()
                  for rec, reg in registrations if rec.sha256 in files} - {""})
    named = "、".join(f"“{x}”" for x in ids) or "另一个编号"
    back = f"改回 {ids[0]}" if len(ids) == 1 else "改回原来的编号"
    return (f"有 {len(files)} 份报名表是组委会以赛事编号{named}下发的（校验码相符，见 data/issues.csv 中的 "
            f"TOURNAMENT_ID_MISMATCH），而 tournament.yaml 的赛事编号 id 现为“{t.spec.id}”，这些报名表没有受理："
            f"如果是在报名表下发之后改了 id，请把 id {back}（赛事编号写在已下发的报名表里，报名表发出后就不能再改）"
            f"后再运行，这些报名表即可受理，无需退回，也不必请各{t.spec.unit_word}重发；"
            "否则它们是另一项比赛的报名表（复制来的赛事文件夹有同一个密钥），不予受理。")


def copies_lost_step(lost: Sequence[Issue]) -> str:
    """The office's next step for received files whose copy in received/ is lost
    (RECEIVED_COPY_LOST, :func:`_copy_lost_issue`): the office's own matter, not the units' —
    restore the copy as the handbook's action column says (the night said only to send the
    forms in returned/ back to the units for correction)."""
    def copy(i: Issue) -> str:       # (the stored name as the issue says it: received/<sha256><ext>)
        m = re.search(r"received/[0-9a-f]{64}\.[A-Za-z0-9]+", i.message)
        return f"《{i.file}》（{m.group(0)}）" if m else f"《{i.file}》"
    copies = "、".join(dict.fromkeys(copy(i) for i in lost))
    return (f"输出文件夹 received/ 中保存的副本丢失（见 data/issues.csv 中的 RECEIVED_COPY_LOST）：{copies}。"
            "这是组委会自己的存档问题，不必通知发件单位，它们的内容仍按此前读取的结果计入。请把原文件（或带着它的原邮件）"
            "重新放进收件箱，或从备份恢复 received/ 中的这些文件后再运行；恢复之前请勿删除 ledger.sqlite。")


def returned_forms_step(specs: Sequence[EventSpec], events: Mapping[str, EventState], now: dt.datetime,
                        late_policy: str = "reject") -> str:
    """The office's next step for the registration forms with errors (their marked copies in
    returned/).  While every event is open for registration: send them back to be corrected.
    Once some deadline has passed the captains can no longer correct those events by mail (the
    receipts say so, R2020-Q4): the step names the events still open, and says the rows marked
    as errors were not entered; after the last deadline it says what the office may still do
    (handbook, TERMS_CHANGED: an event not yet drawn may be reopened by a later ``deadline``;
    a drawn one takes no more entries) — it said "退回各单位修改" after the deadline too.  An
    event without a ``deadline`` is open, as the receipts tell the captains (and a corrected
    form is taken).

    R2020-Q4 under ``late_policy: accept-with-warning``: a corrected form resent after an
    event's deadline is still taken for it while its round 1 is not drawn (LATE_SUBMISSION, a
    warning; the receipts tell the captains it will be marked late) — the step said 不再退回修改
    and 回执已告知各单位不能再通过邮件更正, and told the office to move the deadline (an audit).
    It asks for the forms back, naming the closed events still taking them, marked late, and
    the drawn ones that take no more."""
    def still_open(ev: EventSpec) -> bool:
        return not deadline_passed(ev, now)

    def undrawn(ev: EventSpec) -> bool:
        return _not_drawn(events, ev)
    open_ = [ev for ev in specs if still_open(ev)]
    if len(open_) == len(specs):
        return "把 returned/ 中标注了问题的报名表退回各单位修改（或发送回执）。"
    late_taken = ([ev for ev in specs if not still_open(ev) and undrawn(ev)]
                  if late_policy == "accept-with-warning" else [])
    if late_taken:
        drawn = [ev.name for ev in specs if not still_open(ev) and not undrawn(ev)]
        return ("把 returned/ 中标注了问题的报名表退回各单位修改（或发送回执）："
                + ("仍在报名期的项目有" + "、".join(f"{ev.name}（报名截止 {cn_datetime(ev.deadline)}）"
                                            if ev.deadline is not None else ev.name for ev in open_) + "；已截止"
                   if open_ else "报名已全部截止，")
                + f"但尚未抽签的项目（{'、'.join(ev.name for ev in late_taken)}）按 late_policy: accept-with-warning "
                "仍接受改正后重发的报名表（标为逾期报名，问题清单以 LATE_SUBMISSION 警告列出，抽签时编入），"
                "无需改动报名截止时间；回执已告知各单位重发的报名表将标为逾期报名。"
                + (f"已抽签的项目（{'、'.join(drawn)}）中标注为错误的报名行没有录入，不能再通过重发报名表更正。"
                   if drawn else ""))

    if open_:
        closed = "、".join(ev.name for ev in specs if not still_open(ev))
        return ("把 returned/ 中标注了问题的报名表退回各单位修改（或发送回执）：仍在报名期、还能修改的项目只有"
                + "、".join(f"{ev.name}（报名截止 {cn_datetime(ev.deadline)}）" if ev.deadline is not None else ev.name
                           for ev in open_)
                + f"。{closed}的报名已截止，这些项目中标注为错误的报名行没有录入，不能再通过重发报名表更正。")
    not_drawn = [ev.name for ev in specs if undrawn(ev)]
    if not_drawn:
        may = (f"确需更正的，由组委会决定：尚未抽签的项目（{'、'.join(not_drawn)}）可把 tournament.yaml 中该项目的"
               "报名截止时间（deadline）改晚、重新开放报名，再请该单位重发报名表；已抽签的项目不能再补报。")
    else:
        may = "各项目均已抽签，不能再补报；确有特殊情况由组委会决定。"
    # (under accept-with-warning the receipts say a resend is marked late, not refused)
    told = "（回执已告知各单位不能再通过邮件更正）" if late_policy == "reject" else ""
    return ("报名已全部截止，标注了问题的报名表不再退回修改：returned/ 中标注为错误的报名行（以及整份未受理的报名表）"
            f"没有录入，这些人不在参赛名单中{told}。" + may)


def draw_time_come(ev: EventSpec, now: dt.datetime) -> bool:
    """Whether the event's round 1 may be drawn: its ``draw_at`` (the check-in on the day,
    R2016-F2) has come, or it has none (drawn once registration closes)."""
    return ev.draw_at is None or now >= aware(ev.draw_at)


#: between the names in a signature cell (R2020-Q3), and the marks that only say "signed"
_NAME_SEPARATORS = re.compile(r"[/、,，;；\s]+")
#: what a signature cell may hold besides the names: a mark (in either script: a Traditional
#: league's referee writes 已簽 — every signed cell was PARTNER_CHANGED)
_SIGN_MARKS = frozenset({"已签", "签", "签名", "已簽", "簽", "簽名", "√", "✓", "同意"})
#: a note written beside a name in a signature cell: bracketed (卢帅（代）— NFKC makes the
#: brackets half-width), whatever it says
_SIGN_NOTE = re.compile(r"[(\[【〔][^)\]】〕]*[)\]】〕]?")
#: … or written on after the name: signing for the partner (彭鹏代签), or a signed mark
_SIGN_NOTE_TAILS = ("代签", "代簽", "签名", "簽名", "代", "签", "簽")


def _segments(text: str, names: Iterable[str]) -> list[str] | None:
    """``text`` as names of ``names`` run together (贺欣伟彭鹏 → 贺欣伟, 彭鹏), preferring
    the longest name at each place; None when it is not.

    >>> _segments("贺欣伟彭鹏", {"彭鹏", "贺欣伟"}), _segments("贺欣伟彭", {"彭鹏", "贺欣伟"})
    (['贺欣伟', '彭鹏'], None)
    """
    names = sorted({n for n in names if n}, key=len, reverse=True)
    best: dict[int, list[str] | None] = {len(text): []}
    for i in range(len(text) - 1, -1, -1):
        best[i] = next(([n, *rest] for n in names if text.startswith(n, i)
                        and (rest := best.get(i + len(n))) is not None), None)
    return best[0]


def signature_word(word: str, own: set[str], others: set[str]) -> tuple[str, list[str]]:
    """R2020-Q3: one word of a pair's (a team's) signature cell, as players write it — ``own``
    the side's registered names, ``others`` the names of the event's other players (all in one
    script).  ``("", [])``: the side's own names — one, or several run together (贺欣伟彭鹏),
    with a note (卢帅（代）, 彭鹏代签), or a note only.  ``("changed", names)``: someone else —
    another pair's player (alone or run together with an own name), or anyone not registered:
    a name beside an own name (贺欣伟张三), a name built of pieces of both partners' names
    (李丽 for 王丽/李娜, 贺彭), a two-character own name with a character more (王丽华).
    ``("doubtful", [word])``: part of the side's names, not clearly anyone else — one piece
    of a single own name (a surname only, 汤 of 汤娟/汤浩超; a given name), or an own name of
    3+ characters one character off (贺欣为) or with one more character of the side's names
    (贺欣伟彭).  A two-character name one character off or longer is as likely someone else's
    (王丽 → 王丽华, 张伟 → 张强), so it is a change, as the "one character off" rule says.

    >>> own, others = {"贺欣伟", "彭鹏"}, {"卢帅", "贺宁萍"}
    >>> [signature_word(w, own, others)[0] for w in ("贺欣伟彭鹏", "彭鹏(代)", "贺", "卢帅", "张三", "贺欣伟张三")]
    ['', '', 'doubtful', 'changed', 'changed', 'changed']
    """
    if _segments(word, own) is not None:
        return "", []
    bare = _SIGN_NOTE.sub("", word)
    while (tail := next((t for t in _SIGN_NOTE_TAILS if bare.endswith(t) and bare != t), None)) is not None:
        bare = bare[:-len(tail)]
    if not bare or bare in _SIGN_NOTE_TAILS or _segments(bare, own) is not None:
        return "", []
    anyone = _segments(bare, own | others)
    if anyone is not None:
        return "changed", [n for n in anyone if n not in own]
    # one piece of ONE own name — not pieces of both (张强 of 张伟/李强 is someone else)
    piece = any(bare in n for n in own)
    # a 3+-character own name one character off (贺欣为) …
    off = any(len(n) >= 3 and len(n) == len(bare) and sum(a != b for a, b in zip(n, bare)) == 1 for n in own)
    # … or own names of 3+ characters with one character of the side's names more, at an end
    # (贺欣伟彭: the partner's surname); more than one character beside them may be a name
    more = len(bare) >= 4 and any(
        c in "".join(own) and (whole := _segments(rest, own)) is not None and len("".join(whole)) >= 3
        for c, rest in ((bare[0], bare[1:]), (bare[-1], bare[:-1])))
    if piece or off or more:
        return "doubtful", [bare]
    return "changed", [word]


#: the key of a published round's plan that records the format it was drawn in
FORMAT_KEY = "drawn_in_format"
#: … and the playoff (加赛) orders known when it was drawn: [[stage, group, order], …]
PLAYOFFS_KEY = "playoffs_at_draw"
#: … and, for round 1, the players checked in as absent (R2016-F2) it was drawn without
ABSENT_KEY = "absent_at_draw"
#: a round's plan: the entries the office had withdrawn when it was drawn (EventSpec.withdrawn)
WITHDRAWN_KEY = "withdrawn_at_draw"
#: round 1's plan: the event's registration terms when it was drawn (deadline, quota and,
#: for a quota by membership, the units' member counts)
TERMS_KEY = "registration_at_draw"
#: a round's plan: the session (date, start, end) and venue it was published for (R2020-S1):
#: printed on its draw sheet and result workbook, so frozen with it (:func:`placed_sessions`)
SESSION_KEY = "session_at_draw"
#: a round's plan: the event's scoring terms when it was drawn (points, game_options)
SCORING_KEY = "scoring_at_draw"
#: a round's plan: the earlier rounds' results it was drawn from, a short digest per table in
#: the order of each round's matches (``{"0": "3fa91c 07be2d - …", …}``; "-" no result) —
#: which tables a correction changed after the draw (DRAW_INPUT_CHANGED names them).  Not in
#: a round drawn by a fixed schedule (no result moves it: follows_a_schedule)
RESULTS_KEY = "results_at_draw"
#: how DRAW_INPUT_CHANGED begins the reason of a published round whose inputs differ only
#: by results this version refuses that an earlier one accepted (R2020-D3): no sheet changed
#: (:meth:`EventRunner.check_published_rounds`; the night's next steps say no correction)
REFUSED_NOT_CORRECTED = "它所依据的成绩表在公布后没有改动"


def result_digests(rr: Round, results: dict[tuple, MatchResult]) -> str:
    """Each of ``rr``'s tables' result as a 6-hex digest of its sides' rows (what
    :func:`draw_inputs_hash` hashes of it), "-" for a table without one; space-separated."""
    return " ".join(hashlib.sha256(_canon(_result_row(m.key, results[m.key])[1]).encode()).hexdigest()[:6]
                    if m.key in results else "-" for m in rr.matches)
#: the quota rules computed from a unit's member count (R2016-Q1 ratio, R2015-Q3 bands)
BY_MEMBERS = frozenset({"ratio", "bands"})


def terms_record(ev: EventSpec, units: Iterable[Any] = ()) -> dict[str, Any]:
    """The registration terms round 1 records: the deadline (ISO, or None), the quota and,
    when the quota is computed from membership (R2016-Q1, R2015-Q3), every unit's member
    count (``members``: unit id → N) — what the quota of each unit was at the draw.

    >>> from pipeline.spec import EventSpec, QuotaSpec, UnitSpec
    >>> ev = EventSpec(id="gd", name="掼蛋", game="g", format=None, quota=QuotaSpec(rule="ratio", ratio=0.15))
    >>> terms_record(ev, [UnitSpec(id="g03", name="会计", members=60)])["members"]
    {'g03': 60}
    """
    rec = {"deadline": aware(ev.deadline).isoformat() if ev.deadline else None,
           "quota": json.loads(json.dumps(dataclasses.asdict(ev.quota)))}
    if ev.quota.rule in BY_MEMBERS:
        rec["members"] = {u.id: u.members for u in units}
    return rec


def scoring_record(ev: EventSpec) -> dict[str, Any]:
    """The scoring terms a round records when it is drawn (``SCORING_KEY``): the event's points
    (its game's defaults with the spec's over them) and its game options, as JSON."""
    from .games import event_points

    try:
        options = json.loads(json.dumps(ev.game_options or {}))
    except (TypeError, ValueError):
        options = {}
    return {"points": json.loads(json.dumps(event_points(ev))), "game_options": options}


def recorded_scoring(rnd: Round) -> dict[str, Any] | None:
    """The scoring terms a round records (``SCORING_KEY``: :func:`scoring_record`); None for a
    round published by older code, or a record this version cannot read."""
    rec = rnd.plan.get(SCORING_KEY) if isinstance(rnd.plan, dict) else None
    return rec if isinstance(rec, dict) and isinstance(rec.get("points"), dict) else None


def _instant(iso: str | None) -> dt.datetime | None:
    """The moment an ISO time names (None for none), to compare times written with different
    offsets: a deadline recorded as 00:00+00:00 is the spec's 08:00+08:00, now that the spec
    gives every deadline in Beijing time."""
    return dt.datetime.fromisoformat(iso) if iso else None


def terms_at_draw(t: Tournament, ledger: Ledger, issues: IssueLog, now: dt.datetime | None = None) -> Tournament:
    """R2020-Q4, R2020-Q1 as drawn: an event whose round 1 is published keeps the deadline
    and quota it was drawn under — its entries are who was drawn.  A deadline moved later
    after the draw left the event waiting for it, silently, with the round before complete;
    one moved earlier, or a quota lowered, refused players already playing (LATE_SUBMISSION,
    QUOTA_EXCEEDED on forms the captains could no longer change).  The change is said
    (TERMS_CHANGED) and applies to no event drawn already.  ``t`` itself when nothing differs.
    (pydantic is imported only when a quota differs: a night with the spec cached needs none.)

    R2016-Q1, R2015-Q3 as drawn: a quota by membership is computed from the units' member
    counts recorded at the draw (:func:`terms_record`), so a unit's ``members`` edited after
    the draw (60 → 12) no longer refuses its pairs already drawn and playing (QUOTA_EXCEEDED,
    the group's winner dropped, the awards withdrawn); TERMS_CHANGED names the unit and both
    counts.  The returned tournament's :attr:`~pipeline.spec.Tournament.members_at_draw` holds
    the counts the validation uses for each drawn event; events not drawn yet use the new
    ones.  A ledger drawn before the counts were recorded: the spec's counts, as before.

    The same once registration has closed, before the draw (``now`` given: the run's time):
    the terms the entries were accepted under are recorded by the first run that sees the
    deadline passed, and kept as :func:`_closed_terms` says."""
    events, changed = [], False
    members_at_draw: dict[str, dict[str, int]] = {}
    for ev in t.spec.events:
        body = ledger.round_body(ev.id, 1)
        rec = (json.loads(body).get("plan") or {}).get(TERMS_KEY) if body else None
        if not rec:
            if body is None and now is not None:
                ev, kept, said = _closed_terms(t, ledger, ev, now)
                if kept:
                    members_at_draw[ev.id] = kept
                if said:
                    changed = True
                    issues.add("TERMS_CHANGED", said)
            events.append(ev)
            continue
        current = terms_record(ev, t.spec.units)
        said = []
        if _instant(rec.get("deadline")) != _instant(current["deadline"]):   # (an offset written otherwise is no change)
            said.append(f"报名截止时间（deadline）{_shown_time(rec.get('deadline'))} → {_shown_time(current['deadline'])}")
            ev = dataclasses.replace(ev, deadline=dt.datetime.fromisoformat(rec["deadline"]) if rec.get("deadline") else None)
        # (short_warning only says whether QUOTA_SHORT is warned: it follows the spec)
        if _who_counts(rec.get("quota")) != _who_counts(current["quota"]):
            quota = _recorded_quota(rec, ev)
            if quota is not None:
                said.append(f"名额（quota）{quota_text(quota)} → {quota_text(ev.quota)}")
                ev = dataclasses.replace(ev, quota=quota)
        kept, members_said = _members_at_draw(t, ev, rec.get("members"))
        if kept:
            members_at_draw[ev.id] = kept
        if said or members_said:
            changed = True
            what = f"它的{'；'.join(said)}" if said else ""
            if members_said:
                what += ("；" if what else "") + f"{'；'.join(members_said)}"
            issues.add("TERMS_CHANGED", f"{ev.name}（{ev.id}）已公布抽签，之后 tournament.yaml 中{what}。"
                       "已抽签的报名名单不变：本项目的报名仍按抽签时的截止时间和名额校验"
                       + ("（名额按抽签时的会员人数计算）" if members_said else "") + "，这一改动对它不起作用"
                       + ("；尚未抽签的项目按新的会员人数计算名额" if members_said else "")
                       + "。如是误改，请改回原来的值。")
        events.append(ev)
    if not (changed or members_at_draw):
        return t
    out = _with_events(t, events)
    out.members_at_draw = members_at_draw
    return out


def _recorded_quota(rec: dict[str, Any], ev: EventSpec) -> Any:
    """The quota a terms record (:func:`terms_record`) holds, with the spec's ``short_warning``
    (it only says whether QUOTA_SHORT warns); None when this version cannot read it (the
    spec's quota stands)."""
    from .spec import QuotaSpec, validated

    try:
        return validated(QuotaSpec, {**rec["quota"], "short_warning": ev.quota.short_warning})
    except Exception:   # noqa: BLE001 - a record of another version
        return None


def _shown_time(iso: str | None) -> str:
    """A recorded ISO time as TERMS_CHANGED shows it (Beijing time, to the minute)."""
    return f"{dt.datetime.fromisoformat(iso).astimezone(TZ):%Y-%m-%d %H:%M}" if iso else "（未设）"


def _closed_terms(t: Tournament, ledger: Ledger, ev: EventSpec,
                  now: dt.datetime) -> tuple[EventSpec, dict[str, int], str]:
    """R2020-Q4, R2020-Q1, R2016-Q1, R2015-Q3 once registration has closed, before the draw:
    (the event as its entries are validated, the member counts its quota is computed from where
    they differ from the spec's — :attr:`~pipeline.spec.Tournament.members_at_draw` —, what
    TERMS_CHANGED says or "").

    The first run that sees the event's deadline passed records its terms (:func:`terms_record`,
    :meth:`pipeline.store.Ledger.record_closed_terms`).  A later edit of tournament.yaml that
    would refuse an entry accepted under them — the deadline moved earlier, the quota or a
    unit's ``members`` lowered — is not applied (its captains can no longer change their forms:
    LATE_SUBMISSION, QUOTA_EXCEEDED "请删去多余的报名" after the deadline) and is said.  An edit
    that refuses nothing accepted is the office's to make and applies, and the record follows it:
    the deadline moved later (registration reopened: forms received after the old deadline are
    in time; while the new deadline is still ahead the record is dropped, every edit applies, and
    the terms are recorded again when it passes), a quota or member count raised (no unit's quota
    in the event smaller).  The round 1 drawn records these terms (:data:`TERMS_KEY`)."""
    rec = ledger.closed_terms(ev.id)
    if not deadline_passed(ev, now):
        # (also an event without a deadline: open until the office sets one, DEADLINE_MISSING)
        if rec is not None:         # the deadline moved later than a run saw it pass: open again
            ledger.forget_closed_terms(ev.id, now)
        return ev, {}, ""
    spec_terms = terms_record(ev, t.spec.units)
    if rec is None:
        ledger.record_closed_terms(ev.id, spec_terms, now)
        return ev, {}, ""
    said: list[str] = []
    kept = dict(rec)
    was_at, new_at = _instant(rec.get("deadline")), _instant(spec_terms["deadline"])
    if was_at is not None and new_at is not None and new_at < was_at:
        said.append(f"报名截止时间（deadline）{_shown_time(rec['deadline'])} → {_shown_time(spec_terms['deadline'])}")
        ev = dataclasses.replace(ev, deadline=dt.datetime.fromisoformat(rec["deadline"]))
    else:
        kept["deadline"] = spec_terms["deadline"]
    members: dict[str, int] = {}
    members_said: list[str] = []
    old_quota = None
    if _who_counts(rec.get("quota")) != _who_counts(spec_terms["quota"]) or \
            (isinstance(rec.get("members"), dict) and rec.get("members") != spec_terms.get("members")):
        old_quota = _recorded_quota(rec, ev)
    if old_quota is not None:
        from .validate.checks import quota_entries

        def limit(q: Any, n: int) -> float:
            got = quota_entries(q, n, ev.team_size)
            return float("inf") if got is None else got
        counted = rec.get("members") if isinstance(rec.get("members"), dict) else {}
        before = {u.id: counted.get(u.id) if isinstance(counted.get(u.id), int) else u.members for u in t.spec.units}
        if any(limit(ev.quota, u.members) < limit(old_quota, before[u.id]) for u in t.spec.units):
            if _who_counts(rec.get("quota")) != _who_counts(spec_terms["quota"]):
                said.append(f"名额（quota）{quota_text(old_quota)} → {quota_text(ev.quota)}")
            ev = dataclasses.replace(ev, quota=old_quota)
            members, members_said = _members_at_draw(t, ev, counted)
        else:       # no unit's quota smaller: refuses no entry accepted
            kept["quota"] = spec_terms["quota"]
            kept.pop("members", None)
            kept.update({"members": spec_terms["members"]} if "members" in spec_terms else {})
    if kept != rec:
        ledger.record_closed_terms(ev.id, kept, now)
    if not (said or members_said):
        return ev, members, ""
    return ev, members, (
        f"{ev.name}（{ev.id}）的报名已于 {_shown_time(kept['deadline'])} 截止，之后 tournament.yaml 中"
        + "；".join([*(f"它的{x}" for x in said[:1]), *said[1:], *members_said]) + "。"
        "已受理的报名不变：本项目的报名仍按截止时的截止时间和名额校验"
        + ("（名额按截止时的会员人数计算）" if members_said else "") + "，这一改动对它不起作用"
        + ("；报名尚未截止的项目按新的会员人数计算名额" if members_said else "")
        + "。如是误改，请改回原来的值；确要重新开放报名，请把截止时间（deadline）改到更晚的时间"
        "（已受理的报名保留，截止后收到的报名表即按时受理）。")


def _members_at_draw(t: Tournament, ev: EventSpec, recorded: Any) -> tuple[dict[str, int], list[str]]:
    """R2016-Q1, R2015-Q3: the member counts a drawn event's quota is computed from (unit id →
    N: the counts recorded at the draw, for the units whose count has changed since) and what
    TERMS_CHANGED says of them — each unit whose quota in this event the new count would
    change: ``会计学院分工会（g03）的会员人数（members）60 → 12（本项目名额 4 队 → 1 队）``.
    A count changed without changing that unit's quota (60 → 61) is kept silently.  Nothing
    for a record without counts (a ledger drawn by an older version, or a quota not by
    membership)."""
    if not isinstance(recorded, dict) or ev.quota.rule not in BY_MEMBERS:
        return {}, []
    from .validate.checks import quota_entries

    kept: dict[str, int] = {}
    said: list[str] = []
    word = "队" if ev.is_team else "人"
    for unit in t.spec.units:
        old = recorded.get(unit.id)
        if not isinstance(old, int) or isinstance(old, bool) or old == unit.members:
            continue        # (a unit added since the draw: its count as the spec gives it)
        kept[unit.id] = old
        was, now = quota_entries(ev.quota, old, ev.team_size), quota_entries(ev.quota, unit.members, ev.team_size)
        if was != now:
            said.append(f"{unit.name}（{unit.id}）的会员人数（members）{old} → {unit.members}"
                        f"（本项目名额 {was} {word} → {now} {word}）")
    return kept, said


def _with_events(t: Tournament, events: list[EventSpec]) -> Tournament:
    """``t`` with its spec's events replaced (the folder, secret and spec cache key kept)."""
    import copy

    out = copy.copy(t)
    out.spec = dataclasses.replace(t.spec, events=events)
    return out


def _who_counts(quota: Any) -> Any:
    """A recorded quota without what decides no entry (short_warning)."""
    return {k: v for k, v in quota.items() if k != "short_warning"} if isinstance(quota, dict) else quota


def quota_text(q: Any) -> str:
    """A quota as the office wrote it, briefly: 每单位 2 个, 比例 15%, 分档, 不限."""
    if q.rule == "fixed":
        return f"每单位 {q.per_branch} 个"
    if q.rule == "ratio":
        return f"比例 {q.ratio:.0%}"
    if q.rule == "bands":
        return "分档 " + "、".join(f"{b.min_members}人起{b.entries}个" for b in q.bands)
    return "不限"


def format_record(ev: EventSpec) -> dict[str, Any]:
    """The event's format as a published round records it: ``{"type", "options"}`` (the
    options left out when they are not plain JSON)."""
    options = ev.format.options
    try:
        json.dumps(options)
    except (TypeError, ValueError):
        options = {}
    return {"type": ev.format.type, "options": options}


def changed_options(before: dict[str, Any], now: dict[str, Any]) -> str:
    """``groups 4 → 5；rounds 3 → （未设）`` for the format options that differ (compared as
    the JSON a round records them in); "" when none does, or when they cannot be compared.

    >>> changed_options({"groups": 4}, {"groups": 5, "rounds": 3})
    'groups 4 → 5；rounds （未设） → 3'
    """
    try:
        a, b = json.loads(json.dumps(before)), json.loads(json.dumps(now))
    except (TypeError, ValueError):
        return ""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return ""

    def shown(d: dict[str, Any], k: str) -> str:
        return json.dumps(d[k], ensure_ascii=False) if k in d else "（未设）"
    return "；".join(f"{k} {shown(a, k)} → {shown(b, k)}" for k in sorted(set(a) | set(b)) if a.get(k, ...) != b.get(k, ...))


def published_format(rounds: list[Round]) -> "FormatSpec | None":
    """The format the event's published rounds were drawn in, as the first round that
    records it says (None: no round records it — all were published by older code)."""
    from .spec import FormatSpec

    recs = (r.plan.get(FORMAT_KEY) for r in rounds if isinstance(r.plan, dict))
    rec = next((x for x in recs if isinstance(x, dict) and isinstance(x.get("type"), str)), None)
    if rec is None:
        return None
    options = rec.get("options")
    return FormatSpec(type=rec["type"], extra=dict(options) if isinstance(options, dict) else {})


@dataclass
class _RoundSheets:
    """What :meth:`EventRunner.read_results` knows of one round while it reads the round's
    result workbooks, oldest first."""

    rnd: Round
    columns: list[Any]
    labels: list[str]
    detail: Any
    matches: dict[tuple, Match]          # (round, group, table) as typed → drawn match
    byes: set[tuple]
    sides: list[str]
    sign_labels: list[str]
    players: dict[str, Entry]
    shown: dict[str, Entry]
    #: the round the next draw waits for (the last published): a disputed table holds it
    holds: bool = False
    chosen: dict[tuple, tuple[Received, Any]] = field(default_factory=dict)   # (match key, 牌号) → row taken
    disputed: set[tuple] = field(default_factory=set)   # two sheets received at once disagree
    #: (sheet's sha256, (match key, 牌号)): a disputed table whose two rows are on one sheet
    #: (:meth:`EventRunner.one_row_per_table`), said as such
    twice: set[tuple[str, tuple]] = field(default_factory=set)
    details: dict[tuple, list[dict[str, Any]]] = field(default_factory=dict)
    read_fine: list[Received] = field(default_factory=list)   # sheets of this draw whose table was read
    #: (match key, 牌号) → the cells of the row taken that held an error value or a formula
    #: without a saved value, as (file, sheet, cell): said once when read, so the game's word
    #: about the blank it reads there (“结果”未填写) is not a second message for one cell
    error_cells: dict[tuple, frozenset[tuple[str, str, str]]] = field(default_factory=dict)
    #: (match key, 牌号) → the cells of the row taken that lie in a merged range, as (file,
    #: sheet, cell) → (the range, its first cell): a problem found there says so
    merged_cells: dict[tuple, dict[tuple[str, str, str], tuple[str, str]]] = field(default_factory=dict)
    #: (match key, 牌号) → the rows the taken one replaced, oldest first — a row a later
    #: sheet repeated as well as one it changed: a later row the game cannot read falls back
    #: to the one it replaced (:meth:`EventRunner.fall_back`)
    replaced: dict[tuple, list[_Replaced]] = field(default_factory=dict)
    #: id of a RESULT_CONFLICT note → the note as it stands once its later row was set aside
    rewritten: dict[int, Issue] = field(default_factory=dict)
    #: (sheet's sha256, (match key, 牌号)): a sheet's row set aside by :meth:`EventRunner.fall_back`
    set_aside: set[tuple[str, tuple]] = field(default_factory=set)
    #: (match key, 牌号) whose latest row stays taken though unreadable: none of the rows it
    #: replaced can be read either (falling back would only move the problem to an older sheet)
    kept: set[tuple] = field(default_factory=set)
    #: each sheet with the (match key, 牌号) whose earlier result it changed (RESULTS_REWRITTEN
    #: counts those still changed once the unreadable rows are set aside)
    corrections: list[tuple[Received, set[tuple]]] = field(default_factory=list)
    #: each sheet read, with the match keys of the drawn tables it filled: a later sheet
    #: filling only tables the earlier ones that filled its blank tables left blank is another
    #: referee's part of the round, not a resend (:meth:`EventRunner.left_blank`)
    sheet_fills: list[tuple[Received, frozenset]] = field(default_factory=list)
    #: the match keys of the tables scored by the sheets read before the one being read (None:
    #: not read yet for it — :meth:`EventRunner.scored_so_far`)
    scored: set[tuple] | None = None
    #: the (match key, 牌号) whose row taken before the sheet being read could not be read
    #: (None: not read yet for it — :meth:`EventRunner.unread_so_far`)
    unread: set[tuple] | None = None
    #: the results the rows taken before the sheet being read give, by match key (read with
    #: ``unread``: a later row only filling blanks changes one or not — :meth:`EventRunner._read_sheet`)
    before: dict[tuple, Any] = field(default_factory=dict)

    def snapshot(self) -> tuple:
        """What :meth:`EventRunner.fall_back` changes, to be put back by :meth:`restore`."""
        return (dict(self.chosen), set(self.disputed), dict(self.details), dict(self.error_cells),
                dict(self.merged_cells), {k: list(v) for k, v in self.replaced.items()}, dict(self.rewritten))

    def restore(self, saved: tuple) -> None:
        chosen, disputed, details, error_cells, merged_cells, replaced, rewritten = saved
        self.chosen, self.disputed, self.details = dict(chosen), set(disputed), dict(details)
        self.error_cells, self.merged_cells = dict(error_cells), dict(merged_cells)
        self.replaced, self.rewritten = {k: list(v) for k, v in replaced.items()}, dict(rewritten)
        self.set_aside = set()


@dataclass(frozen=True)
class _WrongRound:
    """A row of one round's sheet whose 轮次 names another drawn round, refused
    (:meth:`EventRunner.settle_wrong_round`)."""

    issue: Issue                    # its RESULT_INVALID, as said (kept: found again by identity)
    rec: Received
    claimed: Round                  # the round its 轮次 names
    key: tuple                      # (round, group, table) as typed
    board: str                      # its 牌号 (_board_key)
    values: tuple                   # its result cells (_row_values)
    sides: tuple                    # its side cells as typed
    entries: dict                   # the entries its sides are read against (check_sides)
    here: Match                     # the table at its group and 桌号 in the sheet's own round
    round_here: Round               # the sheet's own round
    filled: int = 0                 # how many rows of its sheet are filled (a copy re-typed as a whole)


@dataclass(frozen=True)
class _Twice:
    """Handbook RESULT_CONFLICT: a second line of one sheet for a table (a board: ``board``),
    naming its drawn sides, typed otherwise than its first line (:meth:`EventRunner.one_row_per_table`):
    one result or two as the game reads them (:meth:`EventRunner.read_twice`)."""

    match: Match
    row: Any                        # the second line (a sheet row)
    first: int                      # the first line's row number
    first_typed: tuple              # the result cells of each line as typed (:func:`_typed`)
    typed: tuple
    board: str


@dataclass(frozen=True)
class _Values:
    """A line's values, as :func:`row_blank` asks of a row."""

    values: Mapping[str, Any]


@dataclass(frozen=True)
class _Replaced:
    """A table's row that a later sheet's row replaced (a differing row, or the same one sent
    again — its 明细 rows may differ), with what was known of it when it was the one taken,
    and the RESULT_CONFLICT note said when it was replaced (None: the rows were the same)."""

    rec: Received
    row: Any                                        # ResultRow
    error_cells: frozenset[tuple[str, str, str]]
    merged_cells: dict[tuple[str, str, str], tuple[str, str]]
    disputed: bool
    conflict: Issue | None
    #: the table's 明细 rows from that sheet (None: it had none), put back with the row
    details: Any = None
    #: the table's result as the rows taken then read (MatchResult; None: it gave none — a
    #: row with a problem of its own — or it was not read, the row sent again as it was):
    #: when the table's result was first in (:meth:`EventRunner.given_since`)
    result: Any = None


def _took(replaced: list[_Replaced] | None) -> Issue | None:
    """The RESULT_CONFLICT note that took a table's row now taken (from the rows it replaced,
    oldest first): the latest one's, past the rows the same totals were sent again over (they
    have none); None when no differing row was ever replaced."""
    for back in reversed(replaced or ()):
        if back.conflict is not None:
            return back.conflict
    return None


def _merged_notes(ctx: _RoundSheets) -> dict[tuple[str, str, str], tuple[str, str]]:
    """(file, sheet, cell) → (merged range, its first cell) of every cell in a merged range of
    the rows taken for the round's tables and of their detail rows (nearly always none)."""
    out = {c: n for rkey, cells in ctx.merged_cells.items() if rkey in ctx.chosen for c, n in cells.items()}
    for items in ctx.details.values():
        for item in items:
            for label, note in (item.get("_merged") or {}).items():
                c = item["_cells"][label]
                out[(c.file, c.sheet, c.cell)] = note
    return out


def _with_merged_note(i: Issue, merged: dict[tuple[str, str, str], tuple[str, str]]) -> Issue:
    """``i`` with, when its cell lies in a merged range, that said and what to do (unmerge)."""
    from .ingest.sheets import merged_note
    from .issues import shorten_message

    note = merged.get((i.file, i.sheet, i.cell))
    if note is None:
        return i
    return dataclasses.replace(i, message=shorten_message(f"{i.message.rstrip('。')}。{merged_note(i.cell, *note)}"))


def _table_name(m: Any) -> str:
    """A drawn table in a message: ``A组第1桌``, or ``第3桌`` (it said A第1桌 in some).

    >>> from types import SimpleNamespace as M
    >>> _table_name(M(group="A", table=1)), _table_name(M(group="", table=3))
    ('A组第1桌', '第3桌')
    """
    return f"{m.group}组第{m.table}桌" if m.group else f"第{m.table}桌"


def _drawn_tables(matches: Iterable[Any]) -> str:
    """A round's drawn tables, for a row that names none of them: ``第1—6桌``, or by group
    ``A组第1—3桌、B组第1—3桌`` (it said 抽签表上的桌 for a grouped round).

    >>> from types import SimpleNamespace as M
    >>> _drawn_tables([M(group="", table="2"), M(group="", table="10"), M(group="", table="1")])
    '第1—10桌'
    >>> _drawn_tables([M(group="B", table="1"), M(group="A", table="2"), M(group="A", table="1")])
    'A组第1—2桌、B组第1桌'
    """
    by_group: dict[str, list[str]] = {}
    for m in matches:
        by_group.setdefault(m.group or "", []).append(str(m.table))
    def span(tables: list[str]) -> str:
        ts = sorted(tables, key=lambda t: (not t.isdigit(), int(t) if t.isdigit() else 0, t))
        return f"第{ts[0]}桌" if len(ts) == 1 else f"第{ts[0]}—{ts[-1]}桌"
    if not by_group:
        return "抽签表上的桌"
    return "、".join(f"{f'{g}组' if g else ''}{span(ts)}" for g, ts in sorted(by_group.items()))


def _wrong_key_cell(cells: dict[str, Any], key: tuple[str, str, str], round_no: int, matches: Iterable[Any]) -> Any:
    """Where a row naming no drawn table is wrong: its 轮次 when that is not this round's,
    else its 组别 when the round has no such group, else its 桌号 (a round number typed in
    轮次 was pointed at 桌号)."""
    rd, grp, _table = key
    groups = {m.group or "" for m in matches}
    if rd != str(round_no) and cells.get("轮次") is not None:
        return cells["轮次"]
    if grp not in groups and cells.get("组别") is not None:
        return cells["组别"]
    return cells.get("桌号")


#: in DRAWN_ELSEWHERE of a round the output folder's own result sheet shows published
#: (:meth:`EventRunner.issued_here`): the ledger, not the inbox (the office's next step)
ISSUED_HERE = "账本比输出文件夹旧"


def voided(draw_hash: str, listed: Iterable[str]) -> bool:
    """Whether a sheet's draw digest is one an event's ``voided_draws`` lists (the digest as
    DRAWN_ELSEWHERE shows it, or its first 8 characters or more).

    >>> voided("bef299703611aa09", ["bef29970"]), voided("bef299703611aa09", ["bef2"]), voided("", ["bef29970"])
    (True, False, False)
    """
    return bool(draw_hash) and any(len(str(x).strip()) >= 8 and draw_hash.startswith(str(x).strip()) for x in listed)


def same_name(name: str) -> str:
    """A name as two forms of one unit are compared for the same person: spaces stripped, in
    Simplified (:func:`pipeline.text.name_to_simplified`, as a form converted to 繁體 is read).

    >>> same_name("楊 鵬"), same_name("杨鹏")
    ('杨鹏', '杨鹏')
    """
    from .ingest.workbook import strip_spaces
    from .text import name_to_simplified

    return name_to_simplified(strip_spaces(name))


def labels_of(rounds: list[Round]) -> dict[str, Any]:
    """Every published round's labels (entry id → [team, branch, players…]), the latest last."""
    labels: dict[str, Any] = {}
    for r in rounds:
        if isinstance(r.plan, dict) and isinstance(r.plan.get("labels"), dict):
            labels.update(r.plan["labels"])
    return labels


def drawn_as(rounds: list[Round], entries: list[Entry]) -> tuple[list[Entry], dict[str, str]]:
    """R2020-Q4: an individual entry's id is ``event:branch:<工号 or name>`` — a unit whose
    form had no 工号 was drawn under its players' names, and resending the same people with
    their 工号 filled in (or a name read in another script: 楊鵬, now 杨鹏) gives them new ids.
    Such an entry — in no published round, of the same unit as exactly one drawn entry no
    longer entered, whose player has the same name (:func:`same_name`; the drawn one's as
    its id or its round's label has it; an entry drawn under a 工号 never: another 工号 is
    another person) — is that drawn entry, not a late one
    (:meth:`EventRunner.late_ids`): it is given the drawn id, so it plays on with its results,
    places and awards.  Returns the entries and {current id → drawn id} of those mapped.

    R2020-Q3: a team drawn under its 队号 typed with 队 or 隊 (``event:branch:1队``, ``…:第1隊``, by a version
    that took ``1队`` for a team name) is the team of that number as now read
    (:func:`pipeline.layout.team_number`): one drawn team of the unit so numbered, no longer
    entered, gives its drawn id to the one team of that number in no published round."""
    if not rounds:
        return entries, {}
    drawn = {s for r in rounds for m in r.matches for s in m.sides}
    current = {e.id for e in entries}
    gone = drawn - current
    if not gone:
        return entries, {}
    labels = labels_of(rounds)
    merged = {m.get("id") for r in rounds if isinstance(r.plan, dict)
              for m in r.plan.get("merged", []) or [] if isinstance(m, dict)}
    was: dict[tuple[str, str], list[str]] = {}
    for sid in sorted(gone - merged):
        parts = sid.split(":", 2)
        if len(parts) != 3:
            continue
        rec = labels.get(sid)
        if isinstance(rec, list) and len(rec) > 2:
            continue        # a team's (its id is its number: the same people keep it)
        shown = (same_name(re.sub(r"（[^（）]*）$", "", rec[0]))
                 if isinstance(rec, list) and rec and isinstance(rec[0], str) else "")
        if shown and shown != same_name(parts[2]) or not shown and parts[2].isascii():
            # drawn under a 工号 (rules.md, Identity): another 工号 is another person — a
            # substitute — never the drawn entry (it inherited its results, an info note)
            continue
        names = {same_name(parts[2]), shown} - {""}
        for n in names:
            if n:
                was.setdefault((parts[1], n), []).append(sid)
    now: dict[tuple[str, str], list[Entry]] = {}
    for e in entries:
        if e.id not in drawn and len(e.players) == 1 and not e.team_no:
            now.setdefault((e.branch, same_name(e.players[0].name)), []).append(e)
    mapped: dict[str, str] = {}
    taken: set[str] = set()
    for k, es in now.items():
        sids = sorted(set(was.get(k, ())))
        if len(es) == 1 and len(sids) == 1 and sids[0] not in taken:
            mapped[es[0].id] = sids[0]
            taken.add(sids[0])
    from .layout import team_number
    numbered: dict[tuple[str, str], list[str]] = {}
    for sid in sorted(gone - merged - taken):
        parts = sid.split(":", 2)
        if len(parts) == 3 and team_number(parts[2]) != parts[2]:
            numbered.setdefault((parts[1], team_number(parts[2])), []).append(sid)
    teams: dict[tuple[str, str], list[Entry]] = {}
    for e in entries:
        if e.id not in drawn and e.team_no and (e.branch, e.team_no) in numbered:
            teams.setdefault((e.branch, e.team_no), []).append(e)
    for k, es in teams.items():
        if len(es) == 1 and len(numbered[k]) == 1:
            mapped[es[0].id] = numbered[k][0]
    if not mapped:
        return entries, {}
    return [dataclasses.replace(e, id=mapped[e.id]) if e.id in mapped else e for e in entries], mapped


#: R2020-F4: why a 加赛表 may not leave level places of different prizes (said at its cell,
#: EventRunner.say_level_across; what the event waits for then: playoff_sheets_wrong)
LEVEL_ACROSS = "奖项不同，不能并列"
#: R2011-F1 with R2020-F4: why a group's 加赛表 may not leave level those its advancing places
#: are still to be shared among (said at its cell, EventRunner.say_level_at_cut)
LEVEL_AT_CUT = "出线名额还没有在他们之间分出，不能并列"


def _leaves_level(got: Mapping[str, int | None]) -> bool:
    """R2020-F4, R2011-F1: whether a 加赛表's 名次 for a tie (entry → 名次, None where blank)
    leave part of it level in a way to take on trial (:meth:`EventRunner.take_level_playoffs`,
    :meth:`EventRunner.take_level_group_playoffs`): some 名次 given, blanks only after them
    (the given from 1, none above their count), and not a distinct order of them all (a full
    order that left the tie open is not the trial's to settle).  Blank rows whose place the
    given 名次 do not leave at the end are said as before."""
    given = sorted(p for p in got.values() if p is not None)
    if not given or (len(given) < len(got) and (given[0] != 1 or given[-1] > len(given))):
        return False
    return not len(set(given)) == len(given) == len(got)


class EventRunner:
    """Advances one event as far as its data allows (R-draw: the next round only when the
    previous round's results are complete and valid; published rounds are frozen)."""

    def __init__(self, t: Tournament, ev: EventSpec, entries: list[Entry], ledger: Ledger,
                 inputs: Inputs, issues: IssueLog, now: dt.datetime) -> None:
        from .draw import FORMATS
        from .games import GAMES, event_points

        self.rounds = ledger.rounds(ev.id)
        # a format changed in tournament.yaml after rounds were published: the event goes on
        # in the format it was drawn in (a published draw is never redrawn), and says so
        self.format_changed_to = ""
        published = published_format(self.rounds)
        if (published is not None and published.type in FORMATS and ev.format.type in FORMATS
                and FORMATS.canonical(published.type) != FORMATS.canonical(ev.format.type)):
            self.format_changed_to = ev.format.type
            ev = dataclasses.replace(ev, format=published)
        # the same format with other options: published rounds stand, later draws take the
        # new options — said (info), as the office's own edit, not refused
        self.options_changed = "" if published is None or self.format_changed_to else \
            changed_options(published.extra, ev.format.options)
        self.published_options = dict(published.extra) if published is not None and not self.format_changed_to else {}
        self.t, self.ev, self.ledger, self.inputs, self.issues, self.now = t, ev, ledger, inputs, issues, now
        self.fmt = FORMATS.get(ev.format.type)
        self.game = GAMES.get(ev.game)
        self.points = event_points(ev)
        default_chain = (self.game.tiebreaks_for(self.fmt.name) if hasattr(self.game, "tiebreaks_for")
                         else self.game.default_tiebreaks)
        chain = tuple(ev.tiebreaks or default_chain)
        # a tie the chain cannot break, across an award boundary, waits for a 加赛 (the
        # rules' last tiebreak): the sheet must be able to settle it whatever the chain
        self.chain = chain if "playoff" in chain else (*chain, "playoff")
        # the same player entered again under another id since the draw (工号 filled in, a
        # name's script changed): the drawn entry, kept under its drawn id (drawn_as)
        entries, self.same_as = drawn_as(self.rounds, entries)
        self.entries = sorted(entries, key=lambda e: e.id)
        self.results: dict[tuple, MatchResult] = {}
        # tables whose row was received but gave no result: why, by Match.key ("加赛": a tie
        # at the table waits for its 加赛胜者; "有误": the row's problems; "不一致": two sheets disagree)
        self.unscored: dict[tuple, str] = {}
        # a 加赛表 may name a pair re-formed at check-in (R2016-F2), one of the event's entries
        # once round 1 is drawn (maybe by this run): read again then (reread_playoffs), its
        # problems said once, as the last reading finds them (advance)
        self._playoff_log = IssueLog()
        self.playoffs = read_playoffs(inputs, ev, self.all_entries(), self._playoff_log, unit_names(self.t))
        # the check-in (R2016-F2): who came, and whether round 1 can be drawn from it
        self._withdrawn: tuple[int, frozenset[str]] | None = None     # (rounds when worked out, ids)
        self._late: tuple[int, frozenset[str]] | None = None          # late_ids, likewise
        # the players of entries withdrawn in tournament.yaml need no mark on the 签到表
        gone = self.withdrawn_ids() if ev.withdrawn else frozenset()
        self.absent, self.checkin = read_absent(
            inputs, ev, self.entries, issues, drawn=bool(self.rounds), at_checkin=self.drawn_at_checkin(),
            needless=frozenset(p.key for e in self.all_entries() if e.id in gone for p in e.players),
            units={u.id: u.name for u in self.t.spec.units})
        self.waiting = ""
        self.complete = False
        self.awaiting_playoff = False     # played out, but a tie across an award boundary
        self.published_now: set[int] = set()   # rounds this run drew
        self.ties: list[tuple[str, str, tuple[str, ...]]] = []
        # R2020-F4: final-places ties a 加赛表 left partly level across a prize boundary, and
        # group ties for the advancing places it left partly level across the cut (refused, said
        # at its cell: take_level_playoffs, take_level_group_playoffs), which check_playoff_places
        # says nothing more of
        self.level_refused: set[frozenset[str]] = set()
        self.group_cut_taken = False      # take_level_group_playoffs has looked at the played-out groups
        self.hash_parts: dict = {}    # draw_inputs_hash's parts, kept between this run's draws
        # round index → the scoring terms it was proven drawn under (an older round's guess)
        self.scoring_proven: dict[int, dict[str, Any]] = {}
        self._shown: tuple[int, tuple[Entry, ...]] | None = None     # shown_entries by rounds published
        self._side_names: dict[str, tuple] = {}       # check_sides: entry id → (entry, names typed, compared)
        # rows of a round's sheet whose 轮次 names another drawn round (a copy of the sheet
        # reused), each with its RESULT_INVALID: settled once that round's own sheet scored
        # the table (settle_wrong_round); and each read round's rows taken, by (match key, 牌号)
        self._wrong_round: list[_WrongRound] = []
        self._taken: dict[tuple, tuple[Received, Any]] = {}
        #: (match key, 牌号) → when the result taken was first in: the earliest receipt of the
        #: sheets that gave it, or its outcome, one after another (the same row sent again, a
        #: score corrected keeping the winner: given_since, results_in_at)
        self._given_at: dict[tuple, dt.datetime] = {}
        self._accepted_before: dict[tuple, MatchResult] | None = None     # accepted_before, once read
        # results this version refuses that a finished event's published places were computed
        # from, kept with them (keep_results_accepted_before), by Match.key
        self.kept_refused: dict[tuple, MatchResult] = {}
        # a finished event's published places kept though this version ranks otherwise
        # (keep_published_places, PLACES_KEPT): (the published placements, this version's)
        self.places_kept: tuple[list, list] | None = None

    # -- helpers ----------------------------------------------------------------------
    def rank_fn(self):
        from .score.standings import rank_fn
        return rank_fn(self.chain, self.results, self.playoffs, self.points.get("bye", 0),
                       draw_points=self.points.get("draw"), withdrawn=self.withdrawn_ids())

    def draw_state(self):
        """The format's view of the event.  Entries the office withdrew (``withdrawn`` in
        tournament.yaml) are left out of round 1 and marked for the formats that draw each
        round from the entries (:attr:`pipeline.draw.base.EventState.withdrawn`)."""
        from .draw.base import EventState as DrawState
        gone = self.withdrawn_ids()
        entries = self.draw_entries()
        return DrawState(event_id=self.ev.id, entries=entries, rounds=list(self.rounds),
                         results=self.results, playoffs=self.playoffs, options=self.ev.format.options,
                         rank=self.rank_fn(), absent=self.absent, withdrawn=gone,
                         places_by_group=self.places_by_group(),
                         first_move=getattr(self.game, "first_note", None) is not None,
                         **self._lot(entries))

    #: the ledger's cache key of an event's lot as a 签到表 showed it (:meth:`lot_groups`)
    LOT_KEY = "lot:"

    def _kept_lot(self) -> dict[str, Any] | None:
        """R2016-F1: the lot a 签到表 after the deadline showed (``{"seed", "groups"}``), kept
        in the ledger by :meth:`lot_groups`; None when none was shown (or another version's)."""
        if not hasattr(self, "_kept_lot_memo"):
            raw = self.ledger.cache_get([self._lot_key()]).get(self._lot_key())
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            # (the office changed the number of groups since: dealt again with it)
            ok = (isinstance(body, dict) and isinstance(body.get("seed"), str) and isinstance(body.get("groups"), dict)
                  and all(isinstance(m, list) for m in body["groups"].values())
                  and body.get("of") == self.ev.format.options.get("groups", 4))
            self._kept_lot_memo = body if ok else None
        return self._kept_lot_memo

    def _seed_prefix(self) -> str:
        """What every seed of the league is drawn from (:func:`draw_seed`): tournament.yaml's
        ``seed``, else its id."""
        return self.t.spec.seed or self.t.spec.id

    def _lot_key(self) -> str:
        """The ledger's cache key of the event's kept lot under tournament.yaml's seed: a lot
        is kept for each seed it was dealt with, so a seed changed after the groups were
        shown deals new ones (said: :meth:`lot_groups`), and the seed put back finds the
        groups first shown — also in a new output folder where a changed seed had dealt
        others (DRAWN_ELSEWHERE's advice: put the seed back)."""
        return f"{self.LOT_KEY}{self.ev.id}:{hashlib.sha256(self._seed_prefix().encode()).hexdigest()[:16]}"

    def _deadline_moved_since(self, kept: dict[str, Any]) -> bool:
        """Whether the event's deadline is now later than the one the kept lot was drawn
        after (:meth:`lot_groups`).  A lot without one (kept before it was recorded) or an
        event without a deadline (the line deleted: DEADLINE_MISSING) moved none."""
        was = kept.get("deadline")
        if not isinstance(was, str) or self.ev.deadline is None:
            return False
        try:
            return aware(self.ev.deadline) > aware(dt.datetime.fromisoformat(was))
        except ValueError:
            return False

    def _lot(self, entries: list[Entry]) -> dict[str, Any]:
        """The draw state's ``lot_seed`` and ``lot_fixed`` (groups_standings only): the lot kept
        when a 签到表 showed it (:meth:`_kept_lot`), else the seed of the entries alone."""
        if self.fmt.name != "groups_standings":
            return {}
        kept = self._kept_lot()
        if kept is not None:
            return {"lot_seed": kept["seed"], "lot_fixed": kept["groups"]}
        return {"lot_seed": lot_seed(self.t, self.ev.id, entries)}

    def places_by_group(self) -> bool:
        """Whether the event's award scheme gives its awards per group (各组前N名)."""
        from .score import AWARD_SCHEMES

        scheme = self.ev.awards.scheme
        return bool(getattr(AWARD_SCHEMES.get(scheme), "by_group", False)) if scheme in AWARD_SCHEMES else True

    def draw_entries(self) -> list[Entry]:
        """:meth:`all_entries` but those withdrawn before they were ever drawn and those
        entered after round 1 was drawn (:meth:`late_ids`) — no part in the event, no place
        — what every draw is made and its digest printed from, so
        :meth:`check_published_rounds` recomputes it from the same list."""
        entries = self.all_entries()
        gone = self.withdrawn_ids()
        if gone:
            drawn = {s for r in self.rounds for m in r.matches for s in m.sides}
            entries = [e for e in entries if e.id not in gone or e.id in drawn]
        late = self.late_ids()
        return [e for e in entries if e.id not in late] if late else entries

    def late_ids(self) -> frozenset[str]:
        """R2020-Q4 (``late_policy: accept-with-warning``): the entries that came after round 1
        was drawn — in no published round, and not taken out of round 1 by the check-in
        (R2016-F2: all players absent, ``plan["removed"]``; a pair re-formed, merged
        ``"from"``; a player left alone, ``plan["dropped"]``).  A published draw is never
        redrawn, and the rules have no late entry: such an entry is not drawn into a later
        round either (a Swiss would pair one who missed round 1, a round robin's Berger
        table, the groups and the tables of three are fixed from round 1), and is given no
        place, award or certificate; :meth:`check_frozen_inputs` says so (DRAW_INPUT_CHANGED).
        An entry of round 1 with a bye is in round 1.  Its form is kept, and counts for an
        event not drawn yet."""
        if not self.rounds:
            return frozenset()
        if self._late is not None and self._late[0] == len(self.rounds):
            return self._late[1]        # (rounds are only appended, and fixed once published)
        plans = [r.plan for r in self.rounds if isinstance(r.plan, dict)]
        drawn = {s for r in self.rounds for m in r.matches for s in m.sides}
        merged_from = {f for p in plans for m in p.get("merged", []) or [] for f in m.get("from", [])}
        taken_out = {e for p in plans for e in p.get("removed", []) or []}
        dropped = {k for p in plans for k in p.get("dropped", []) or []}
        late = frozenset(e.id for e in self.entries if e.id not in drawn and e.id not in merged_from
                         and e.id not in taken_out and not any(p.key in dropped for p in e.players))
        self._late = (len(self.rounds), late)
        return late

    def late_valid_ids(self) -> frozenset[str]:
        """Those of :meth:`late_ids` whose form was received before round 1 was drawn: entries
        not valid at the draw that became valid since without a new form — a row refused as
        MULTI_EVENT made valid by the office cancelling the other event (handbook,
        TOO_FEW_ENTRIES), for one.  They take no part either (a published draw is never
        redrawn), but were not "第1轮抽签后才报名" (an audit: said of a form sent before the
        deadline).  Empty when a time is not known."""
        late = self.late_ids()
        drawn_at = self.ledger.published_at(self.ev.id, 1) if late else None
        if drawn_at is None:
            return frozenset()
        forms = self.inputs.entry_forms
        return frozenset(e.id for e in self.entries if e.id in late
                         and (at := forms.get((e.branch, self.ev.id))) is not None and at < aware(drawn_at))

    def withdrawn_ids(self) -> frozenset[str]:
        """The entries named in the event's ``withdrawn`` (a name, a staff number or a team
        name each — also a team label made from a former name of its unit, as the draw sheets
        printed it before the rename: :func:`unit_names`); failing those, a name or team name
        in 繁體 as a Traditional league's sheets print it (R2015: 盧秀磊 for the registered
        卢秀磊), read in Simplified.  A name that fits no entry, or several (a 於麗 read as
        于丽 of one unit and 於丽 of another), is WITHDRAWAL_UNMATCHED (once)."""
        if not self.ev.withdrawn:
            return frozenset()
        if self._withdrawn is not None and self._withdrawn[0] == len(self.rounds):
            return self._withdrawn[1]
        from .ingest.sheets import team_label_of
        from .ingest.workbook import strip_spaces
        from .text import to_simplified

        # a pair re-formed at check-in stands for its players (not the entries it came from)
        merged_from = {f for r in self.rounds if isinstance(r.plan, dict) for m in r.plan.get("merged", []) or []
                       for f in m.get("from", [])}
        entries = [e for e in self.all_entries() if e.id not in merged_from]
        said = self._withdrawn is not None
        ids: set[str] = set()
        for item in self.ev.withdrawn:
            # full-width digits or quotes typed with the Chinese input method (＂001257＂)
            key = strip_spaces(unicodedata.normalize("NFKC", str(item))).strip("\"'“”‘’")
            if isinstance(item, int):
                # a staff number written without quotes reached us as a number: 12345 as it was,
                # or 001033 read by YAML as the octal 539 — the digits as written, tried second
                hits = []
                for digits in (str(item), format(item, "o")):
                    hits = sorted({e.id for e in entries if any(p.staff_id and p.staff_id.lstrip("0") == digits
                                                                for p in e.players)})
                    if hits:
                        break
            else:
                hits = sorted({e.id for e in entries if key and (
                    key == strip_spaces(e.team) or any(key in (strip_spaces(p.name), p.staff_id) for p in e.players))})
                if not hits and key.isdigit():      # "1539" for 001539: the leading zeros left out
                    hits = sorted({e.id for e in entries if any(p.staff_id and p.staff_id.lstrip("0") == key.lstrip("0")
                                                                for p in e.players)})
                if not hits and key:
                    # a team label made from a former name of its unit (会计2队, copied from a draw
                    # sheet published before 会计 was renamed 会计学院), as a 加赛 row's is read
                    units = unit_names(self.t)
                    hits = sorted({e.id for e in entries if team_label_of(key, e, units)})
                if not hits and key and not key.isascii():
                    # a name copied from a draw sheet printed in 繁體 (盧秀磊 for the registered
                    # 卢秀磊), read in Simplified as a form converted to 繁體 is (:func:`same_name`);
                    # a team name likewise — tried after the name as written
                    simple, team = same_name(key), strip_spaces(to_simplified(key))
                    hits = sorted({e.id for e in entries for p in e.players if simple == same_name(p.name)}
                                  | {e.id for e in entries if team == strip_spaces(to_simplified(e.team))})
            if len(hits) == 1:
                ids.update(hits)
                continue
            if said:
                continue
            names = "、".join(e.team + f"（{_unit_short(self.t, e.branch)}）" for e in entries if e.id in hits)
            self.issues.add("WITHDRAWAL_UNMATCHED",
                            f"tournament.yaml 中{self.ev.name}的 withdrawn 写的“{item}”"
                            + (f"对应不止一个参赛者（{names}），请改写工号或队名" if hits else
                               "不是本项目的参赛者（姓名、工号或队名），请核对")
                            + "：这一条暂未生效，该参赛者仍在编排中。")
        self._withdrawn = (len(self.rounds), frozenset(ids))
        return self._withdrawn[1]

    def all_entries(self) -> list[Entry]:
        """Accepted entries plus pairs re-formed at check-in (R2016-F2, Round.plan["merged"]).
        A re-formed pair's ``branch`` is its first player's unit; its players keep their own,
        and what it wins is every one of them's (``Entry.units``: awards.csv, the awards
        list, the certificate and the units' totals name both)."""
        entries = list(self.entries)
        by_key = {p.key: (p, e) for e in self.entries for p in e.players}
        known = {e.id for e in entries}
        for r in self.rounds:
            for m in r.plan.get("merged", []) if isinstance(r.plan, dict) else []:
                if m["id"] in known:
                    continue
                players = tuple(by_key[k][0] for k in m.get("players", []) if k in by_key)
                if not players:
                    continue
                branch = by_key[players[0].key][1].branch      # (its first player still entered)
                team = "/".join(p.shown for p in players) + "（重组）"
                entries.append(Entry(id=m["id"], event=self.ev.id, branch=branch, team=team,
                                     players=players, team_no=""))
                known.add(m["id"])
        return sorted(entries, key=lambda e: e.id)

    def shown_entries(self) -> list[Entry]:
        """Entries for documents: :meth:`all_entries` plus, for an entry that withdrew after
        it was drawn, a stand-in with the label recorded when its round was published.
        Made once per number of published rounds (rounds are only ever appended, and what
        it is made from is fixed once a round is published): every round's results check
        their sheets' names against it (it was made again for each of 194 rounds)."""
        if self._shown is None or self._shown[0] != len(self.rounds):
            self._shown = (len(self.rounds), tuple(self._shown_entries()))
        return list(self._shown[1])

    def _shown_entries(self) -> list[Entry]:
        entries = self.all_entries()
        known = {e.id for e in entries}
        for r in self.rounds:
            labels = r.plan.get("labels") or {}
            # (the ids not known yet, by a set difference: the loop over every round's every
            # label was a tenth of reading a 200-unit season's result sheets, by py-spy)
            for sid in sorted(labels.keys() - known):
                team, branch, *_ = labels[sid]
                entries.append(Entry(id=sid, event=self.ev.id, branch=branch, team=team, players=()))
                known.add(sid)
        return sorted(entries, key=lambda e: e.id)

    def add_byes(self, rnd: Round) -> None:
        """Each bye's result: the event's bye points, nothing for a round robin's rest
        (:func:`pipeline.draw.bye_scores`, R2020-F4)."""
        from .draw import bye_scores

        points = self.points.get("bye", 0) if bye_scores(self.fmt.name, rnd) else 0
        # (where a round's points are its score, 掼蛋, the bye's score is its points)
        score = points if getattr(self.game, "points_are_score", False) else 0
        for m in rnd.matches:
            if m.bye and m.sides:
                self.results[m.key] = MatchResult(
                    match=m, sides=(SideResult(Outcome.BYE, points=points, score=score, place=1),), reason="轮空")

    def unscored_byes(self) -> None:
        """Handbook 缺席、弃权和退赛 (已赛成绩保留) with the tiebreak rules' "byes and forfeits
        count as in FIDE's": a bye of a round whose results were not all in at the run where
        its entry's withdrawal (``withdrawn`` in tournament.yaml) first applied is not scored —
        the entry sits out a round it no longer plays, as a withdrawn entry seated at a table of
        that round is entered as 弃权 (its result sheet written again with （已退赛）, by the
        same test: :func:`_sheets_to_mark`).  Its result is an absence (``Outcome.ABSENT``, no
        points or score: a voluntary unplayed round, FIDE C.07 Art. 14.3 / 16), said on the draw
        sheet and the event page (:data:`pipeline.layout.WITHDRAWN_BYE`); a knockout's or a table
        of three's 晋级签 so held takes its entry no further (it is placed with the round's
        losers).  A bye of a round complete by then stays scored (as it was shown).

        A knockout's walkover (不战而胜, R2011-R1: its opponent's match forfeited by both) is no
        bye, but goes on alike: one so held before the final takes its withdrawn entry no further
        either (:data:`pipeline.layout.WITHDRAWN_WALKOVER`; its next opponent then walks over).
        A walkover of the final round (决赛, 三四名决赛) is that match's result, not a way on,
        and stays — as the final is played with a finalist withdrawn after it was known.  Not an
        absence either way: the office withdrew the entry, it lost no match by not coming, and
        its place is not vacant (:func:`pipeline.draw.common.lost_by_absence` gives no bye).

        Which byes those are is kept in the ledger (:meth:`pipeline.store.Ledger.withdrawn_byes`):
        the round's results come in later, and the bye must stay unscored then.  The withdrawal
        taken back (the name off the list) while the round is still not complete, its bye scores
        again (the result sheet is likewise written again without the mark); taken back after,
        the bye stays unscored, as a 弃权 entered at a table stays (and the rounds drawn since
        were drawn from it).  "After" is what a run once saw: the first run that finds the
        round's results all in with the bye unscored marks it so in the ledger
        (:meth:`pipeline.store.Ledger.completed_withdrawn_byes`), and it stays unscored though
        the round is open again later (an office edit that leaves its tables unscorable for a
        night, then put back: the same inbox and tournament.yaml give the same places).  Only
        byes that score (:func:`pipeline.draw.bye_scores`: not a round robin's rest, which
        counts nothing anyway)."""
        gone = self.withdrawn_ids()
        had = self.ledger.withdrawn_byes(self.ev.id)
        if not gone and not had:
            return
        done = self.ledger.completed_withdrawn_byes(self.ev.id) if had else set()
        byes = self.withdrawable_byes(self.rounds)
        open_rounds = {r.round for r in self.rounds if not all(m.bye or m.key in self.results for m in r.matches)}
        now = {k for k in byes if k[1] in gone and k[0] in open_rounds}
        now |= {k for k in had if k in byes and (k[1] in gone or k[0] not in open_rounds or k in done)}
        complete = {k for k in now if k[0] not in open_rounds} - done
        if now != had or complete:
            self.ledger.record_withdrawn_byes(self.ev.id, now - had, had - now, self.now, complete)
        self.apply_unscored_byes(self.rounds, now)

    def withdrawable_byes(self, rounds: list[Round]) -> dict[tuple[int, str], Match]:
        """The byes of ``rounds`` that :meth:`unscored_byes` may leave unscored, by (round,
        entry): those that score (:func:`pipeline.draw.bye_scores`), not a final's walkover."""
        from .draw import bye_scores

        return {(r.round, m.sides[0]): m for r in rounds if bye_scores(self.fmt.name, r)
                for m in r.matches if m.bye and m.sides and not (m.walkover and r.plan.get("final"))}

    def apply_unscored_byes(self, rounds: list[Round], keys: Iterable[tuple[int, str]]) -> None:
        """The byes ``keys`` (as the ledger keeps them, :meth:`unscored_byes`) of ``rounds``
        entered as not scored (``Outcome.ABSENT``, :data:`pipeline.layout.WITHDRAWN_BYE`) in
        the runner's results; no ledger write — :meth:`rescored` reads the rounds again so."""
        byes = self.withdrawable_byes(rounds)
        for k in sorted(k for k in keys if k in byes):
            m = byes[k]
            self.results[m.key] = MatchResult(match=m, sides=(SideResult(Outcome.ABSENT),), reason=WITHDRAWN_BYE)

    # -- the loop ---------------------------------------------------------------------
    def reread_playoffs(self) -> None:
        """The 加赛 sheets read again with the entries as they are now (a round that re-formed
        pairs was published); the same list, which the rank functions hold, is refilled."""
        self._playoff_log = IssueLog()
        self.playoffs[:] = read_playoffs(self.inputs, self.ev, self.all_entries(), self._playoff_log, unit_names(self.t))

    def advance(self) -> None:
        self._wrong_round, self._taken, self._given_at = [], {}, {}
        try:
            self._advance()
        finally:
            self.settle_wrong_round()
            self.issues.extend(self._playoff_log)

    def _advance(self) -> None:
        from .draw.base import Waiting

        if self.format_changed_to:
            self.format_changed()
        elif self.options_changed:
            self.options_edited()
        self.check_frozen_inputs()
        for rnd in self.rounds:
            self.add_byes(rnd)
            self.read_results(rnd)
        self.keep_results_accepted_before()
        self.unscored_byes()
        self.check_published_rounds()
        self.scoring_changed()
        self.check_playoffs_since_draw()
        if hasattr(self.fmt, "rounds_capped") and (self.rounds or deadline_passed(self.ev, self.now)):
            self.rounds_capped(self.draw_state())      # every night, not only one that draws
        # R2011-F1 with R2020-F4: a group 加赛表 leaving level those on one side of the cut is
        # taken every night the group stage is played out — not only the night whose draw
        # waits on it: a knockout round still open returns below before the draw (once a run:
        # group_cut_taken; the call in the loop is for a group stage played out by a round
        # drawn and read this night)
        self.take_level_group_playoffs()
        while True:
            # every published round's tables, not the last round's alone (R2020-A1, R2015-A1 …):
            # an earlier table whose result was lost since (a changed game option, a stricter
            # check) holds the event as a table of its last round does — no next draw, not
            # finished, its published places withdrawn (places_withdrawn), not published
            # again from the tables left
            open_rounds = [(r, ms) for r in self.rounds
                           if (ms := [m for m in r.matches if not m.bye and m.key not in self.results])]
            if open_rounds:
                self.waiting_for(open_rounds)
                return
            # (once drawn, registration is closed: a deadline moved later after the draw
            # left the next round waiting for it — terms_at_draw says so)
            closed = bool(self.rounds) or deadline_passed(self.ev, self.now)
            if not closed and self.ev.deadline is None:     # open until one is set (DEADLINE_MISSING)
                self.waiting = NO_DEADLINE_WAITING
                return
            if not self.entries and (self.rounds or not closed):
                self.waiting = "尚无有效报名"
                return
            # (times as the office's other lines say them: 2026年12月26日 08:30, China time)
            if not closed:
                self.waiting = f"报名截止（{cn_datetime(aware(self.ev.deadline).astimezone(TZ))}）后抽签"
                return
            if not self.rounds and not draw_time_come(self.ev, self.now):
                self.waiting = (f"报名已截止，第1轮于 {cn_datetime(aware(self.ev.draw_at).astimezone(TZ))} 后抽签"
                                + ("（比赛当天签到后：请把签到表放入收件箱）" if self.fmt.name == "groups_standings" else ""))
                return
            # (before the draw: a group stage played out by a round drawn this night)
            self.take_level_group_playoffs()
            state = self.draw_state()
            need = getattr(self.fmt, "min_entries", 2)       # a table of three needs three
            if not self.rounds and len(state.entries) < need:
                self.too_few(len(state.entries), need)
                return
            if not self.rounds and self.drawn_at_checkin() and self.checkin:
                # R2016-F2: round 1 is drawn from the check-in — not without one, and not from a
                # sheet with a row that could not be read (a published draw is never redrawn)
                self.waiting = ("等待签到表：第1轮在比赛当天签到后抽签，请把填好的签到表"
                                f"（forms/{self.ev.id}-签到表.xlsx，全部到场也请发送）放入收件箱"
                                if self.checkin == "none" else
                                "签到表有问题未改正（见问题清单），改正后重新发送签到表，第1轮才能抽签")
                return
            ih = draw_inputs_hash(state.entries, self.rounds, self.results, self.absent, self.hash_parts)
            if self.drawn_elsewhere(len(self.rounds) + 1, ih):
                return
            seed = draw_seed(self.t, self.ev.id, len(self.rounds) + 1, ih)
            try:
                nxt = self.fmt.next_round(state, random.Random(int(seed, 16)))
            except Waiting as w:
                self.waiting = str(w)
                if getattr(w, "ties", None):
                    self.ties = [(st, g, tuple(ids)) for st, g, ids in w.ties]
                    wrong = self.playoff_sheets_wrong()
                    self.waiting += wrong
                    self.issues.add("PLAYOFF_REQUIRED", f"{self.ev.name}：{w} 请把加赛结果填入 forms/"
                                    f"{playoff_form_name(self.ev.id, self.rounds)}，放进收件箱后再运行。" + wrong)
                return
            if nxt is None:
                self.complete = True
                return
            if self.redrawn_elsewhere(nxt, ih) or self.issued_here(nxt, ih):
                return
            from .draw.common import follows_a_schedule
            # the runner's note in the frozen plan: each side's label, so a published round
            # keeps its names even if an entry withdraws later — and a team's players, so a
            # player changed after the draw is named (check_frozen_inputs)
            by_id = {e.id: e for e in state.entries}
            labels = {sid: [by_id[sid].team, by_id[sid].branch]
                      + ([by_id[sid].player_names] if len(by_id[sid].players) > 1 else [])
                      for m in nxt.matches for sid in m.sides if sid in by_id}
            nxt = dataclasses.replace(nxt, seed=seed, input_hash=ih,
                                      plan={**nxt.plan, "labels": labels, FORMAT_KEY: format_record(self.ev),
                                            **({PLAYOFFS_KEY: [[po.stage, po.group, list(po.order)] for po in self.playoffs]}
                                               if self.playoffs else {}),
                                            **({ABSENT_KEY: sorted(self.absent)} if not self.rounds
                                               and (self.absent or self.drawn_at_checkin()) else {}),
                                            **({WITHDRAWN_KEY: sorted(state.withdrawn)} if state.withdrawn else {}),
                                            **({TERMS_KEY: self.ledger.closed_terms(self.ev.id) or terms_record(self.ev, self.t.spec.units)}
                                               if not self.rounds else {}),
                                            **self.session_plan(nxt),
                                            **({RESULTS_KEY: self.results_record()}
                                               if self.rounds and not follows_a_schedule(nxt) else {}),
                                            SCORING_KEY: scoring_record(self.ev)})
            self.ledger.publish(nxt, self.now)
            self.published_now.add(nxt.round)
            self.rounds.append(nxt)
            if nxt.plan.get("merged"):
                self.reread_playoffs()
            self.add_byes(nxt)
            self.read_results(nxt)

    def results_record(self) -> dict[str, str]:
        """RESULTS_KEY of the next round's plan: every published round's results now, as
        :func:`result_digests` (each round's made once per run while its results stay)."""
        out = {}
        for j, rr in enumerate(self.rounds):
            got = tuple(map(self.results.get, (m.key for m in rr.matches)))
            hit = self.hash_parts.get(("digests", id(rr.matches)))
            if hit is None or hit[0] is not rr.matches or hit[1] != got:
                hit = self.hash_parts[("digests", id(rr.matches))] = (rr.matches, got, result_digests(rr, self.results))
            out[str(j)] = hit[2]
        return out

    def tables_corrected(self, k: int) -> list[str] | None:
        """The tables of rounds before ``k`` whose result is not what published round ``k``
        was drawn from (its RESULTS_KEY), as the office finds them on the draw sheets
        (``第1轮 第3桌（王军 对 李明）``); None when round ``k`` holds no record (drawn by
        an earlier version) or it does not fit the rounds."""
        found = EventRunner.tables_corrected_at(self, k)
        return [t for t, _ in found] if found is not None else None

    def tables_corrected_at(self, k: int) -> list[tuple[str, CellRef | None]] | None:
        """:meth:`tables_corrected`, each table with the cell its result now comes from (the
        correcting sheet's; None for a table with no result now)."""
        rec = self.rounds[k].plan.get(RESULTS_KEY) if isinstance(self.rounds[k].plan, dict) else None
        if not isinstance(rec, dict):
            return None
        names = {e.id: e.team for e in self.shown_entries()}
        current = self.results_record()
        out = []
        for j, rr in enumerate(self.rounds[:k]):
            then = rec.get(str(j))
            if not isinstance(then, str) or len(then.split()) != len(rr.matches):
                return None
            for m, was, now in zip(rr.matches, then.split(), current[str(j)].split()):
                if was != now:
                    sides = " 对 ".join(names.get(sd, sd) for sd in m.sides)
                    res = self.results.get(m.key)
                    out.append((f"{rr.title} {m.group + '组' if m.group else ''}第{m.table}桌（{sides}）",
                                res.source if res is not None else None))
        return out

    def accepted_before(self) -> dict[tuple, MatchResult]:
        """The results of published tables that this version refuses and the versions before
        its newer checks accepted (R2020-D3: 斗地主 totals whose changes are not congruent
        mod 3 were read as any others): the same sheets read again aside as those versions
        read them (:data:`pipeline.games.base.AS_ACCEPTED_BEFORE`, nothing said, the runner's
        own results untouched), the result of each table that has none now, by Match.key.
        Read once per run; empty, and nothing read again, while every published table has its
        result (a finished event's tables all do)."""
        if self._accepted_before is None:
            from .games.base import AS_ACCEPTED_BEFORE

            missing = [m.key for r in self.rounds for m in r.matches if not m.bye and m.key not in self.results]
            found: dict[tuple, MatchResult] = {}
            if missing:
                token = AS_ACCEPTED_BEFORE.set(True)
                try:
                    read = self.rescored(self.rounds, {"points": self.points, "game_options": self.ev.game_options})
                except Exception:   # noqa: BLE001 - not proven: the results stand as this version reads them
                    read = {}
                finally:
                    AS_ACCEPTED_BEFORE.reset(token)
                found = {k: read[k] for k in missing if k in read}
            self._accepted_before = found
        return self._accepted_before

    @contextlib.contextmanager
    def results_with(self, more: Mapping[tuple, MatchResult]) -> Iterator[None]:
        """The runner's results with ``more`` added, while the block runs (then as they were)."""
        saved = self.results
        self.results = {**saved, **more}
        try:
            yield
        finally:
            self.results = saved

    def keep_results_accepted_before(self) -> None:
        """R2020-A1, R2011-A1, R2016-A1, R2015-A1 with R2020-D3: a finished event whose places
        an earlier version published from results this version refuses (:meth:`accepted_before`)
        — the very results: with them, what its places are computed from (:func:`places_inputs`)
        is what the ledger recorded with them — keeps those results, and so its published places
        and awards, as a new version's other ranking is kept (PLACES_KEPT): no sheet changed,
        only the program's checking.  :func:`places_kept_refused` says which tables the referee
        must check; RESULT_INVALID still says each table's problem, every night.  A sheet sent
        since (a correction) makes the inputs other than those published: the results are then
        this version's own, and the event is placed again as after any correction."""
        rec = self.ledger.published_places(self.ev.id)
        if rec is None:
            return
        before = self.accepted_before()
        if not before:
            return
        with self.results_with(before):
            if places_inputs(self) != rec[0]:
                return
            kept = self.results
        self.results = kept
        self.kept_refused = dict(before)

    def sources_unchanged(self) -> bool:
        """Whether the event's published places were recorded with the sources it has now
        (:func:`places_sources`: sheets, entries, rounds, withdrawals, the office's terms —
        nothing the code computes): a difference in what the code makes of them is the
        program's, not a correction.  False without such a record (an older version's ledger,
        no places published)."""
        memo = getattr(self, "_sources_unchanged", None)
        if memo is not None and memo[0] == len(self.rounds):
            return memo[1]
        rec = self.ledger.places_sources(self.ev.id)
        same = rec is not None and rec[0] == places_sources(self)
        self._sources_unchanged = (len(self.rounds), same)
        return same

    def rescored_since_places(self, k: int) -> list[str] | None:
        """The tables whose results differ from those published round ``k`` was drawn from
        (its RESULTS_KEY), when all of them differ only since the event's places were published
        (the places' record of its tables: :func:`_places_tables`) and the event's sources are
        those the places were published from (:meth:`sources_unchanged`): a new version that
        scores them otherwise, no correction (DRAW_INPUT_CHANGED says so).  None otherwise —
        a result corrected before the places were published, or no such records: the tables
        are said corrected, as ever."""
        rec = self.rounds[k].plan.get(RESULTS_KEY) if isinstance(self.rounds[k].plan, dict) else None
        if not isinstance(rec, dict) or not self.sources_unchanged():
            return None
        try:
            placed = json.loads((self.ledger.places_sources(self.ev.id) or ("", ""))[1] or "{}")
        except ValueError:
            return None
        if not isinstance(placed, dict):
            return None
        current = self.results_record()
        keys = []
        for j, rr in enumerate(self.rounds[:k]):
            drawn, then, now = rec.get(str(j)), placed.get(str(j)), current[str(j)]
            if not (isinstance(drawn, str) and isinstance(then, str)
                    and len(drawn.split()) == len(then.split()) == len(rr.matches)):
                return None
            for m, d, t, n in zip(rr.matches, drawn.split(), then.split(), now.split()):
                if d != n:
                    if d != t:      # other when the places were published already: a correction
                        return None
                    keys.append(m.key)
        return self.tables_named(keys)

    def tables_named(self, keys: Iterable[tuple]) -> list[str]:
        """The tables of ``keys`` (Match.key) as the office finds them on the draw sheets
        (``第1轮 第3桌（王军 对 李明）``), in the order of the rounds."""
        want = set(keys)
        names = {e.id: e.team for e in self.shown_entries()}
        return [f"{rr.title} {m.group + '组' if m.group else ''}第{m.table}桌（{' 对 '.join(names.get(sd, sd) for sd in m.sides)}）"
                for rr in self.rounds for m in rr.matches if m.key in want]

    def session_plan(self, nxt: Round) -> dict[str, Any]:
        """The session (and venue) round ``nxt`` is published for, to record in its plan:
        the spec's, after the sessions the rounds before it were published for — but not one
        begun before the results it is drawn from came in (:func:`placed_sessions`; with none
        left, a record of no date)."""
        # R2020-S1: a round is late for its session only when the draw could not have been
        # made before it began: the results of the round before came in after it began.  A
        # run later than that (a night replayed, --now far ahead, a rerun) draws it for its
        # session as the night the results came in would have; and a round whose own result
        # sheets are in already was played there (or where they were printed for, below).  Round 1 (its registrations in by the
        # deadline) is placed as ever.
        ready = self.results_in_at()
        late = ready is not None and not self.round_books(nxt.round)
        s = placed_sessions(self.t, self.ev, [*self.rounds, nxt], drawn_at=self.now if late else None,
                            ready_at=ready)[-1]
        placed = placed_sessions(self.t, self.ev, [*self.rounds, nxt])
        due = placed[-1]
        if due is None:         # the spec has no session for it at all: nothing printed, as ever
            return {}
        printed = self.printed_session(nxt) if not late and ready is not None else None
        prev = next((x for x in reversed(placed[:-1]) if x is not None), None)
        if printed is not None and _session_passed(due, prev, self.ev, len(self.rounds), ready) and \
                (printed == NO_SESSION or _session_start(printed) > _session_start(due)):
            # its result sheets are in (the round drawn again: its output folder was lost),
            # and it was late for its session: it was played where they were printed for — a
            # later session, or none (比赛时间另行通知) — a review found a moved round reprinted
            # for the session it never played in (handbook: rebuilt draws are the same).  A
            # round not late keeps the spec's, whatever its sheets say (sheets printed by an
            # older version may carry another date: the samples' do)
            s = None if printed == NO_SESSION else printed
        # a round moved from its session (or left with none) records the one it was due in and
        # when its results came in: SESSION_PASSED tells the office (sessions_passed)
        moved = {} if s is not None and _session_key(s) == _session_key(due) else {
            "due": session_record(due, round_venue(self.t, self.ev, due)), "results_in": aware(ready).isoformat()}
        if s is not None:
            return {SESSION_KEY: {**session_record(s, round_venue(self.t, self.ev, s)), **moved}}
        return {SESSION_KEY: {NO_SESSION: "passed", **moved}}

    def results_in_at(self) -> dt.datetime | None:
        """When the results the next round is drawn from were all in (R2020-S1): the latest,
        over the tables of the last published round, of when each first had the result it has
        now (:meth:`given_since`: a correction keeping the winner does not make a table late)
        — None: no round published, or none of its results came on a result sheet (all byes)."""
        if not self.rounds:
            return None
        keys = {m.key for m in self.rounds[-1].matches if not m.bye}
        return max((self._given_at.get(rkey, aware(rec.received_at)) for rkey, (rec, _) in self._taken.items()
                    if rkey[0] in keys), default=None)

    def given_since(self, ctx: _RoundSheets, rkey: tuple, rec: Received, rr: Any) -> dt.datetime:
        """When the table of the row taken (``rr``, on sheet ``rec``) first had a result that
        could be scored, with the outcome it has now (R2020-S1, handbook 比赛时间怎样排到各轮):
        the earliest receipt of the sheets before it, one after another, that gave the same
        row (and 明细) — a sheet re-sent unchanged after a session began did not bring the
        results then (a review: round 2 was moved off a session whose round-1 results were all
        in before it) — or a row the game read to the same outcome: each side's win, draw or
        loss, match points and place (:func:`_same_outcome`).  A correction of a table already
        scored that keeps its winner (跳棋 2:0 → 2:1, a 原因 corrected) is taken, but does not
        make the results late (an audit: round 3 was moved to the next session by a score
        corrected at 16:30, all tables in at 15:00).  One that changes the winner (or the
        points) brings the result the next round is drawn from (who advances, the standings)
        only then: it counts from its own sheet, as does a row that replaced one the game could
        not read (no result before it) or one two sheets disagreed about."""
        labels = ctx.labels
        at = aware(rec.received_at)
        now = self.results.get(rkey[0])
        for back in reversed(ctx.replaced.get(rkey, ())):
            if back.disputed:
                break
            same = back.conflict is None and _row_values(back.row, labels) == _row_values(rr, labels) \
                and _detail_values(back.details) == _detail_values(ctx.details.get(rkey[0]))
            if not same and not (now is not None and back.result is not None and _same_outcome(back.result, now)):
                break
            at = min(at, aware(back.rec.received_at))
        return at

    def printed_session(self, rnd: Round) -> SessionSpec | str | None:
        """The session round ``rnd``'s received result sheets were printed with (R2020-S1):
        read from the line under the sheet's title that names the round and its session
        (``第2轮淘汰赛（11进6）    2020年11月12日 16:00—18:00    地点：…``) — :data:`NO_SESSION`
        for one printed 比赛时间另行通知; None when no sheet of the round is in, or none says."""
        from . import layout
        from .spec import SessionSpec
        from .text import to_simplified

        for _, book in sorted(self.round_books(rnd.round), key=lambda x: (x[0].received_at, x[0].sha256)):
            sheet = book.sheet(layout.RESULT_SHEET)
            for n in range(1, 7):
                line = sheet.value(n, 1) if sheet is not None else None
                if not isinstance(line, str) or not to_simplified(line).strip().startswith(rnd.title):
                    continue
                line = to_simplified(line)
                if NO_SESSION_LABEL in line:
                    return NO_SESSION
                m = re.search(r"(\d{4})年(\d{1,2})月(\d{1,2})日\s*(\d{1,2}):(\d{2})\s*[—–-]+\s*(\d{1,2}):(\d{2})", line)
                if m is not None:
                    y, mo, d, h1, m1, h2, m2 = map(int, m.groups())
                    try:
                        return SessionSpec(date=dt.date(y, mo, d), start=dt.time(h1, m1), end=dt.time(h2, m2), venue="")
                    except ValueError:
                        pass
        return None

    def round_books(self, round_no: int) -> list[tuple[Received, Any]]:
        """The result workbooks received for this event's round ``round_no`` (their _meta)."""
        return [(rec, b) for rec, b in self.inputs.results if self.of_round(b, round_no)]

    def of_round(self, book: Any, round_no: int) -> bool:
        """Whether a result workbook is this event's round ``round_no``'s, by its _meta (and
        not another league's)."""
        from . import layout

        return (str(book.meta.get(layout.META_EVENT, "")) == self.ev.id
                and _norm_int(book.meta.get(layout.META_ROUND, "")) == str(round_no) and not other_league(self.t, book))

    def drawn_elsewhere(self, round_no: int, ih: str) -> bool:
        """A published draw is never silently redrawn — not even after the output folder (its
        ledger) was deleted, or the batch run with another ``--out``: the round is not in
        this ledger, but the inbox holds its result sheets, issued with another draw (their
        _meta draw hash is not the one this draw would print).  The round is then not drawn,
        and DRAWN_ELSEWHERE says why and what to do (the office's output folder, not the referees' sheets).  The same inputs draw the same round
        (the seed is derived from them): sheets that fit it are no reason to wait.

        The office that means to void that draw says so in tournament.yaml: the event's
        ``voided_draws`` lists its digest, and the sheets issued with it hold nothing
        (:func:`voided`).  Moving them out of the inbox was the advice, and did nothing (the
        ledger keeps every sheet it received); counting only the sheets still in the inbox
        would have taken an office's routine archiving of its mail for a decision to redraw."""
        from . import layout

        books = [(rec, b) for rec, b in self.round_books(round_no) if str(b.meta.get(layout.META_DRAW_HASH, "") or "")
                 and not voided(str(b.meta.get(layout.META_DRAW_HASH, "")), self.ev.voided_draws)]
        if not books or any(str(b.meta.get(layout.META_DRAW_HASH, "")) == ih for _, b in books):
            return False
        books.sort(key=lambda x: (x[0].received_at, x[0].sha256))
        names = "、".join(dict.fromkeys(f"《{rec.file_name}》" for rec, _ in books))
        was = str(books[0][1].meta.get(layout.META_DRAW_HASH, ""))
        self.waiting = f"第{round_no}轮暂不抽签：收件箱里已有按另一次抽签下发的第{round_no}轮成绩表"
        self.issues.add("DRAWN_ELSEWHERE",
                        f"{self.ev.name} 第{round_no}轮在这个输出文件夹里还没有公布过，收件箱里却已有它的成绩表{names}，"
                        f"是按另一次抽签下发的（抽签摘要 {was}）；按现在的报名和成绩抽签，对阵会不同（摘要 {ih}）。"
                        "多半是输出文件夹被删除，或换了 --out：请恢复原来的输出文件夹（其中的 ledger.sqlite 记着"
                        "已公布的抽签）后再运行，已下发的对阵就照旧有效。确要作废那次抽签、重新抽签，请在 tournament.yaml "
                        f"本项目（id: {self.ev.id}）下加一行 voided_draws: [\"{was}\"] 后再运行（按那次抽签下发的成绩表从此不再读取，"
                        f"文件仍保存在输出文件夹的 received/ 中）。在此之前本项目第{round_no}轮不抽签。",
                        at=CellRef(books[0][0].file_name, layout.RESULT_SHEET))
        return True

    def redrawn_elsewhere(self, nxt: Round, ih: str) -> bool:
        """DRAWN_ELSEWHERE for a round about to be published whose result sheets in the inbox
        were issued from the same inputs (their draw hash is ``ih``: :meth:`drawn_elsewhere`
        let them pass) but with other pairings: the inputs hash is not the draw — the seed
        (tournament.yaml ``seed``, or the id) and the program draw from it too.  After a lost
        output folder a changed seed (or a program whose draw changed) drew round 1 again
        with other tables, silently, and every row of the referees' sheets was RESULT_INVALID
        (不是本桌选手); the wrong draw was then frozen in the ledger, and putting the seed back
        did nothing.  A published draw is never silently redrawn: the round waits, and the
        office is told to restore the output folder or put the seed back.

        A sheet records its pairings in its _meta (:func:`layout.pairings_digest`); one
        written by an earlier version only the inputs hash: its rows, as printed, are held
        against the new draw (:meth:`sheet_misfit`).  (R-draw: published rounds are frozen;
        contract: the referees fill the result sheets handed out with each draw.)"""
        from . import layout

        books = [(rec, b) for rec, b in self.round_books(nxt.round)
                 if str(b.meta.get(layout.META_DRAW_HASH, "") or "") == ih and not voided(ih, self.ev.voided_draws)]
        if not books:
            return False
        digest = layout.pairings_digest(nxt.matches)
        entries = {e.id: e for e in self.shown_entries()}
        misfits = []
        moved: list[tuple[Received, str]] = []      # older sheets' rows seated otherwise than nxt
        named = 0
        tables: set[tuple] = set()
        for rec, b in sorted(books, key=lambda x: (x[0].received_at, x[0].sha256)):
            recorded = str(b.meta.get(layout.META_PAIRINGS, "") or "")
            if recorded:
                if recorded != digest:
                    misfits.append((rec, ""))
                    continue
                return False        # a sheet of this very draw: the others are slips, read row by row
            rows_moved, rows_named, where = self.sheet_misfit(rec, b, nxt, entries)
            moved += [(rec, w) for w in rows_moved]
            named += rows_named
            tables |= where
        # older sheets, all together (a referee's one-row resend beside the round's full sheet
        # said nothing either way — a review): another draw when more than half of their rows
        # that name entries seat them otherwise, on three tables or more
        if 2 * len(moved) > named and len(tables) >= 3:
            first: dict[str, tuple[Received, str]] = {}
            for rec, w in moved:
                first.setdefault(rec.sha256, (rec, w))      # each sheet by its first row said
            misfits += first.values()
        if not misfits:
            return False
        round_no = nxt.round
        names = "、".join(dict.fromkeys(f"《{rec.file_name}》" for rec, _ in misfits))
        example = next((w for _, w in misfits if w), "")
        seed = self.t.spec.seed or self.t.spec.id
        self.waiting = f"第{round_no}轮暂不抽签：收件箱里已有按另一次抽签下发的第{round_no}轮成绩表"
        self.issues.add("DRAWN_ELSEWHERE",
                        f"{self.ev.name} 第{round_no}轮在这个输出文件夹里还没有公布过，收件箱里却已有它的成绩表{names}；"
                        f"报名和成绩与那次抽签时相同（抽签摘要 {ih}），现在抽出的对阵却与这些成绩表不同"
                        f"{f'（{example}）' if example else ''}：多半是 tournament.yaml 中的 seed（抽签种子，现在是“{seed}”）"
                        "改过，或程序升级后抽签方法变了。请恢复原来的输出文件夹（其中的 ledger.sqlite 记着已公布的抽签）后再运行，"
                        "已下发的对阵就照旧有效；没有备份的，把 tournament.yaml 中的 seed 改回抽签时的值（或用抽签时的程序版本）"
                        f"后再运行，会抽出同样的对阵。在此之前本项目第{round_no}轮不抽签，也不公布。",
                        at=CellRef(misfits[0][0].file_name, layout.RESULT_SHEET))
        return True

    def issued_here(self, nxt: Round, ih: str) -> bool:
        """DRAWN_ELSEWHERE for a round about to be published whose result sheet this output
        folder issued already (``results/<event>-r<N>-成绩表.xlsx``) with another draw: the
        ledger does not know the round — a ``ledger.sqlite`` restored from a backup taken
        before that draw, as the lost-ledger message asks (:func:`pipeline.store.check_ledger_there`),
        or another folder's — and the inputs changed since, so the round was drawn again,
        silently, beside the sheets and draw pages handed out.  The round is not published:
        the office restores the newest backup, or voids that draw in tournament.yaml
        (``voided_draws``: its sheet is then written anew with the new draw).

        The sheet's _meta says which draw it was issued with: its draw digest (the inputs)
        and pairings (:func:`layout.pairings_digest`).  The same inputs draw the same round:
        a sheet that fits the draw about to be published is no reason to stop; one written
        by an earlier version (no pairings) is taken by its digest alone.  A sheet that
        cannot be read, or is another league's or round's, says nothing.  Read only on the
        night a round is about to be published, and only when its sheet is already there
        (never in the ordinary course).  (R-draw: published rounds are frozen.)"""
        from . import layout
        from .ingest.workbook import UnreadableFile, read_workbook

        name = f"{self.ev.id}-r{nxt.round}-成绩表.xlsx"
        path = self.ledger.root / "results" / name
        if not path.is_file():
            return False
        try:
            book = read_workbook(path)
        except (UnreadableFile, OSError):
            return False
        meta = book.meta
        was = str(meta.get(layout.META_DRAW_HASH, "") or "")
        pairings = str(meta.get(layout.META_PAIRINGS, "") or "")
        if not was or not self.of_round(book, nxt.round):
            return False
        if was == ih and (not pairings or pairings == layout.pairings_digest(nxt.matches)):
            return False        # the same draw: published as it was
        if was != ih and voided(was, self.ev.voided_draws):
            return False        # voided by the office: drawn anew, the sheet written anew
        round_no = nxt.round
        where = f"results/{name}"
        head = (f"{self.ev.name} 第{round_no}轮在账本 ledger.sqlite 里没有公布记录，输出文件夹里却已有这一轮下发的成绩表 {where}"
                f"（及抽签表 draws/{self.ev.id}-r{round_no}.html）：这一轮已经公布过，")
        restore = (f"多半是 ledger.sqlite 是从这一轮抽签之前的旧备份恢复的，{ISSUED_HERE}（或放错了别的文件夹的账本）："
                   "请用最新的备份（这一轮公布之后的）恢复 ledger.sqlite 后再运行，已下发的对阵就照旧有效。")
        seed = self.t.spec.seed or self.t.spec.id
        if was == ih:
            # (the same inputs, other pairings: voided_draws would void the new draw's sheets
            # too, which carry the same digest — redrawn_elsewhere)
            said = (head + f"报名和成绩与那次抽签时相同（抽签摘要 {ih}），现在抽出的对阵却与它不同：多半是 tournament.yaml 中的 "
                    f"seed（抽签种子，现在是“{seed}”）改过，或程序升级后抽签方法变了；同时" + restore
                    + "没有这样的备份的，把 seed 改回抽签时的值（或用抽签时的程序版本）后再运行，会抽出同样的对阵。")
        else:
            said = (head + f"是按另一次抽签下发的（抽签摘要 {was}）；按现在的报名和成绩抽签，对阵会不同（摘要 {ih}）。" + restore
                    + f"确要作废那次抽签、重新抽签，请在 tournament.yaml 本项目（id: {self.ev.id}）下加一行 "
                    f"voided_draws: [\"{was}\"] 后再运行（按那次抽签下发的成绩表从此不再读取，{where} 会按新的抽签重写；"
                    "收到的文件仍保存在输出文件夹的 received/ 中）。")
        self.waiting = f"第{round_no}轮暂不抽签：输出文件夹里已有这一轮下发的成绩表，账本里却没有这一轮"
        self.issues.add("DRAWN_ELSEWHERE", said + f"在此之前本项目第{round_no}轮不抽签，也不公布。",
                        at=CellRef(where, layout.RESULT_SHEET))
        return True

    def sheet_misfit(self, rec: Received, book: Any, nxt: Round, entries: dict[str, Entry]
                     ) -> tuple[list[str], int, set[tuple]]:
        """How a result sheet of round ``nxt`` (one without its pairings in _meta: written by an
        earlier version) seats entries otherwise than ``nxt``, in the sides it prints: (each
        such row said — ``第3桌甲方：成绩表为“姚明（基础部）”，现在抽出的是“张明红（行政一）”`` —,
        how many rows name entries, the tables of the rows said).

        A referee's slip on a row is no other draw (:meth:`check_sides` refuses that row when
        the sheet is read): a name that is no entry's says nothing.  :meth:`redrawn_elsewhere`
        takes the round's older sheets for another draw only when more than half of their rows
        that name entries seat them otherwise, on three tables or more: two teams swapped
        between two tables by a referee held the round for good, blaming the seed (a review).
        A small round drawn otherwise is then refused row by row (RESULT_INVALID), as before."""
        from . import layout
        from .ingest.sheets import group_of, key_of, read_results
        from .ingest.workbook import cell_text, strip_spaces
        from .text import to_simplified

        sides = layout.SIDES_3 if self.game.seats == 3 else layout.SIDES_2
        rows, _ = read_results(book, rec.file_name, sides)
        who: dict[str, set[str]] = {}
        for sid in entries:
            for name in EventRunner.side_names(self, sid, entries)[1]:
                who.setdefault(name, set()).add(sid)
        drawn = {(str(m.round), group_of(m.group), str(m.table)): m for m in nxt.matches}
        label = {e.id: _entry_label(self.t, e) for e in entries.values()}
        moved: list[str] = []       # rows seating an entry at another table or seat
        tables: set[tuple] = set()  # the tables of those rows
        named = 0
        for row in rows:
            key = key_of(row.values)
            if key[0] != str(nxt.round):
                continue
            m = drawn.get(key)
            seated: list[tuple[str, str, set[str]]] = []
            for seat, side in enumerate(sides):
                raw = row.values.get(side)
                if raw in (None, ""):
                    continue
                # (a withdrawn side's name is printed with 已退赛 after it: layout.WITHDRAWN_MARK)
                text = strip_spaces(layout.without_withdrawn_mark(cell_text(raw)))
                found = who.get(text) or who.get(strip_spaces(to_simplified(text))) or set()
                if found:
                    seated.append((side, cell_text(raw), found))
            if not seated:
                continue
            named += 1
            where = f"{key[1] + '组' if key[1] else ''}第{key[2]}桌"
            wrong = next(((side, raw) for side, raw, found in seated
                          if m is None or sides.index(side) >= len(m.sides) or m.sides[sides.index(side)] not in found), None)
            if wrong is None:
                continue
            side, raw = wrong
            now = m.sides[sides.index(side)] if m is not None and sides.index(side) < len(m.sides) else None
            said = f"{where}{side}：成绩表为“{quoted(raw)}”，现在抽出的是" + (f"“{label.get(now, now)}”" if now else "空位")
            moved.append(said)
            tables.add(key)
        return moved, named, tables

    def lot_groups(self) -> dict[str, tuple[str, ...]]:
        """R2016-F1: the groups of an event not drawn yet whose format draws its groups by lot
        from the entries alone (groups_standings), once its deadline has passed — the entry
        list the lot is drawn from is final then, and who turns up at the check-in changes no
        group (R2016-F2), so the 签到表 can show them; {} otherwise (before the deadline, a
        drawn event, another format).  Label → entry ids, as round 1 will deal them.

        The lot is kept with the deadline it was drawn after, and dropped only when the
        event's deadline is now later than that (the office reopened registration: dealt
        again after the new one).  A night run again with an earlier ``--now`` (handbook:
        补跑、重跑以前的晚上) is before the deadline but moves none: it shows no groups and
        keeps the lot — it was dropped, and the next night dealt 25 of 33 pairs into another
        group than the 签到表 printed, without a word (a review)."""
        if self.rounds or not hasattr(self.fmt, "lot_groups"):
            return {}
        key = self._lot_key()
        kept = self._kept_lot()
        if kept is not None and self._deadline_moved_since(kept):
            if deadline_passed(self.ev, self.now):
                # the deadline corrected to a later time already past (no registration
                # reopened, no form since): the groups shown stand — with it recorded, so a
                # night run again before it keeps them too
                kept = dict(kept, deadline=aware(self.ev.deadline).isoformat())
                self.ledger.cache_put({key: json.dumps(kept, ensure_ascii=False, sort_keys=True).encode()},
                                      durable=True)
                self._kept_lot_memo = kept
            else:
                self.ledger.cache_drop([key])
                self._kept_lot_memo = None
        if not deadline_passed(self.ev, self.now):
            return {}
        state = self.draw_state()
        if len(state.entries) < 2:
            return {}
        if state.lot_fixed is None:
            # R2016-F1: the lot is made once — the first 签到表 after the deadline shows it; a
            # withdrawal or corrected entry after that redraws no group (GroupsStandings.lot_groups)
            dealt = self.fmt.dealt_groups(state)
            body = {"seed": state.lot_seed, "groups": dealt, "of": self.ev.format.options.get("groups", 4),
                    "deadline": aware(self.ev.deadline).isoformat(), "prefix": self._seed_prefix()}
            shown = [_json_field(v, "prefix") for k, v in self.ledger.cache_items(f"{self.LOT_KEY}{self.ev.id}:")
                     if k != key]
            self.ledger.cache_put({key: json.dumps(body, ensure_ascii=False, sort_keys=True).encode()}, durable=True)
            self._kept_lot_memo = body
            state = self.draw_state()
            before = next((p for p in shown if isinstance(p, str) and p != self._seed_prefix()), None)
            if before is not None:      # groups a 签到表 showed under another seed: dealt again, said
                self.issues.add("TERMS_CHANGED", (
                    f"{self.ev.name}：签到表公布分组后，tournament.yaml 的 seed 由“{before}”改为"
                    f"“{self._seed_prefix()}”，分组已按新的 seed 重新抽定，已打印的签到表作废。如非有意，"
                    f"请把 seed 改回“{before}”，分组即恢复为原来公布的那样。"),
                    at=CellRef("tournament.yaml"), severity=Severity.WARNING)
        return {g: tuple(ids) for g, ids in self.fmt.lot_groups(state).items()}

    def drawn_at_checkin(self) -> bool:
        """Whether round 1 is drawn from the check-in on the day (R2016-F2): a draw time, in a
        format that re-forms pairs at the check-in (the runner writes its 签到表)."""
        return self.ev.draw_at is not None and self.fmt.name == "groups_standings"

    def format_changed(self) -> None:
        """FORMAT_CHANGED: tournament.yaml names another format than the one the event's
        published rounds were drawn in; the event goes on in its own (see ``__init__``)."""
        from .draw import FORMATS

        now = self.format_changed_to
        now_title = FORMATS.get(now).title if now in FORMATS else now
        self.issues.add("FORMAT_CHANGED",
                        f"{self.ev.name}已按“{self.fmt.title}”公布抽签，tournament.yaml 中的赛制"
                        f"现在是“{now_title}”（{now}）。已公布的抽签不会按新赛制重抽，本项目继续按“{self.fmt.title}”"
                        f"进行。如是误改，请把该项目的 format 改回 type: {self.ev.format.type}（及原来的选项）；"
                        "如确需换赛制，请为新赛制另设一个项目编号（原项目的抽签和成绩都保留）。")

    def options_edited(self) -> None:
        """FORMAT_CHANGED for format options edited in tournament.yaml after the event's first
        draw was published.  Published rounds stand.  An option the later draws read (a
        Swiss ``rounds``, ``avoid_rematch`` …) takes effect from the next draw (a note).  An
        option fixed by the first draw (the format's ``SET_AT_FIRST_DRAW``: the groups, a
        group stage's rounds) does not: the later rounds keep the groups drawn — a warning, as long as tournament.yaml says
        otherwise (it said 之后的抽签按现在的选项进行 while round 2 was drawn in the old groups).
        So is a Swiss ``rounds`` below the rounds already published: the event ends with them
        (it ended there, awards and all, with only a note)."""
        fixed = set(getattr(self.fmt, "SET_AT_FIRST_DRAW", ()))
        before, now = self.published_options, dict(self.ev.format.options)
        def part(keep: Callable[[str], bool]) -> str:
            return changed_options({k: v for k, v in before.items() if keep(k)}, {k: v for k, v in now.items() if keep(k)})
        set_at_draw, later = part(lambda k: k in fixed), part(lambda k: k not in fixed)
        asked, drawn = now.get("rounds"), len(self.rounds)
        cut = "rounds" in (getattr(self.fmt, "OPTION_DOCS", None) or {}) and "rounds" not in fixed \
            and isinstance(asked, int) and not isinstance(asked, bool) and 0 < asked < drawn
        if set_at_draw:
            self.issues.add("FORMAT_CHANGED",
                            f"{self.ev.name}的赛制选项在第1轮抽签公布后改过（{set_at_draw}）：分组（及每组出线人数、比赛轮数）在第1轮"
                            "抽签时已经确定，以后各轮仍按抽签时的设置进行，这一修改不起作用。请在 tournament.yaml 中改回原来的选项"
                            "（确需重新分组，只能另设一个项目编号重新报名抽签）。", severity=Severity.WARNING)
        if cut:
            self.issues.add("FORMAT_CHANGED",
                            f"{self.ev.name}的比赛轮数在抽签公布后改为 {asked} 轮（{later}），但已公布了 {drawn} 轮抽签："
                            f"已公布的轮次不会撤销，本项目在第 {drawn} 轮结束，名次按 {drawn} 轮计算。如果确要在第 {drawn} 轮"
                            f"结束，请把 rounds 改为 {drawn}；如是误改，请改回 rounds: {before.get('rounds', '（原来的轮数）')}。",
                            severity=Severity.WARNING)
        elif later:
            self.issues.add("FORMAT_CHANGED",
                            f"{self.ev.name}的赛制选项在抽签公布后改过（{later}）：已公布的各轮不变，"
                            "之后的抽签按现在的选项进行。如是误改，请在 tournament.yaml 中改回原来的选项。",
                            severity=Severity.INFO)

    def rounds_capped(self, state: Any) -> None:
        """ROUNDS_CAPPED (R2015-F1; said once, :data:`pipeline.issues.SAID_ONCE`): tournament.yaml
        asks a Swiss event for more rounds than its field can play without a rematch or a
        second bye; the event plays the most it can (:func:`pipeline.draw.swiss.most_rounds`).
        Checked every night once registration has closed — a kept event state and a fresh
        computation say the same (it was said only on a night that drew a round)."""
        said = self.fmt.rounds_capped(state)
        if said is None:
            return
        asked, most = said
        from .draw.common import entry_word

        w = entry_word(state)
        self.issues.add("ROUNDS_CAPPED",
                        f"{self.ev.name}：tournament.yaml 设定瑞士制 {asked} 轮，但本项目 {self.fmt.field_size(state)} {w}"
                        f"在不重复相遇、每{w}至多轮空一次的前提下最多只能赛 {most} 轮，本项目按 {most} 轮进行。"
                        f"请把该项目的 rounds 改为 {most} 或更少（第 1 轮抽签后，通知按 {most} 轮写明）。")

    def too_few(self, n: int, need: int = 2) -> None:
        """Registration closed with fewer valid entries than the format needs (``need``: two,
        three for tables of three): nothing can be drawn, and the event is not "finished"
        either (it was never played).  The office decides — extend the event's deadline for
        more entries, or cancel it (spec silent; the session-14 decision) — by deleting it from
        tournament.yaml, which it says, and what follows: the captains' lines for it become
        notes (EVENT_CANCELLED, :func:`with_cancelled_events`), not errors."""
        self.waiting = f"报名已截止，有效报名{f'仅 {n} 个' if n else '为 0'}，至少 {need} 个才能抽签开赛"
        self.issues.add("TOO_FEW_ENTRIES",
                        f"{self.ev.name}：{self.waiting}。请延长本项目的报名截止时间（tournament.yaml 中"
                        f"本项目的 deadline）并通知各单位补报，或取消本项目（在 tournament.yaml 的 events 中删去"
                        f"本项目即可：各单位报“{self.ev.name}”的行不再录入，报名表上改为提示“本项目已取消”，不算错误）；"
                        "补足报名后再运行即抽签。")

    def playoff_sheets_wrong(self) -> str:
        """``（已收到的加赛表《…》名次有误…）`` when a 加赛表 of the event came with an error
        that stands (BAD_VALUE: two written the same 名次 …): the event waits for a corrected
        sheet, not for a 加赛 to be organised (it said only 请组织加赛)."""
        from .ingest.sheets import PLAYOFF_DRAWN

        sheets = {po.source.file for po in self.playoffs if po.source is not None}
        wrong = [i for log in (self._playoff_log, self.issues) for i in log
                 if i.severity == Severity.ERROR and i.file and (i.file in sheets or log is self._playoff_log)]
        bad = list(dict.fromkeys(i.file for i in wrong))
        if wrong and all(LEVEL_ACROSS in i.message or LEVEL_AT_CUT in i.message for i in wrong):
            # R2020-F4: a sheet that left level places of different prizes, or a group's
            # advancing places still to share (R2011-F1): they need an order
            across = ("奖项" if all(LEVEL_ACROSS in i.message for i in wrong) else
                      "出线名额" if all(LEVEL_AT_CUT in i.message for i in wrong) else "奖项或出线名额")
            return (f"（已收到的加赛表{'、'.join(f'《{f}》' for f in bad)}留下的并列跨越{across}，见问题清单：请为仍并列者"
                    "排出先后（尚未分出的请再加赛）后重新发送）")
        if any(PLAYOFF_DRAWN in i.message for i in wrong):
            # a 加赛 written as a draw (名次 “和”) decided nothing: it is played again
            return (f"（已收到的加赛表{'、'.join(f'《{f}》' for f in bad)}把加赛填成了和棋，见问题清单：{PLAYOFF_DRAWN}，"
                    "请再赛至分出胜负，填好名次后重新发送）")
        return (f"（已收到的加赛表{'、'.join(f'《{f}》' for f in bad)}名次填写有误，见问题清单：改正后重新发送即可，"
                "不必再赛）") if bad else ""

    def take_level_playoffs(self, placements: list) -> list:
        """R2020-F4, the Tiebreaks' 加赛 (spec silent; the t2020 audit's decision): a 加赛表 that
        leaves some of a final-places tie still level — 名次 left blank beside a given one, or
        the same 名次 written twice — is taken when every tie it leaves lies within one prize
        (the same award, or none, on every place of it, as the PLAYOFF_REQUIRED check
        :meth:`~pipeline.score.awards.AwardScheme.undecided` judges): those left level share
        their place, as a tie inside one award band does (三等奖 4, 4, 4).  It was refused
        (名次相同, 只给…填了名次) and the awards waited for an order between two 二等奖.  A tie it
        leaves across a prize boundary is refused — the whole tie stays open — and said at the
        sheet's cell: which places still need an order, and that they are different prizes.
        Returns the placements, placed again when a sheet was taken."""
        from .score import AWARD_SCHEMES
        from .score.standings import played_where, ranking_where

        if not self.playoffs or not placements:
            return placements
        scheme = AWARD_SCHEMES.get(self.ev.awards.scheme)
        pending = scheme.undecided(self.ev.awards, placements)
        if not pending:
            return placements
        played = played_where(self.results)
        for _, _, ids, _ in pending:
            tied = frozenset(ids)
            where = ranking_where(tied, self.rounds)
            # the latest sheet with a 名次 for this tie (as the 加赛 tiebreak reads the sheets)
            k, got = next(((k, got) for k in reversed(range(len(self.playoffs)))
                           if (got := self.playoffs[k].places_of(tied)) is not None
                           and (not self.playoffs[k].made_for or tied in self.playoffs[k].made_for)
                           and self.playoffs[k].settles_in(tied, where, played, blanks=True)), (None, None))
            if k is None or got is None:
                continue
            if not _leaves_level(got):
                continue
            # taken on trial, the event placed again: the chain may still order those the sheet
            # leaves level (直胜 between two of a cyclic three, R2020-F4 — standings._Ranker.refine)
            po = self.playoffs[k]
            self.playoffs[k] = dataclasses.replace(po, shared=po.shared | {tied})
            trial = self.placements()
            across = [t for t in scheme.undecided(self.ev.awards, trial) if set(t[2]) <= tied]
            if not across:
                placements = trial
                continue
            self.playoffs[k] = po
            self.level_refused.add(tied)
            self.say_level_across(po, got, across)
        return placements

    def take_level_group_playoffs(self) -> None:
        """R2011-F1 with R2020-F4 (spec silent; as :meth:`take_level_playoffs` for the final
        places): a group's 加赛表 for its advancing places (出线) that leaves some of the tie
        level — 名次 left blank beside a given one, or the same 名次 written twice — is taken
        when it orders them across the advancement cut: those it leaves level all go on, or
        none of them does, and the tiebreak chain orders them again where it can
        (standings._Ranker.refine; the group's table shows the rest level).  A sheet that
        leaves the cut undecided is refused — the tie stays open — and said at its cell
        (:meth:`say_level_at_cut`): it got "只给…填了名次" (or 名次相同) whatever it left level.
        Done every night the group stage is played out (the format's ``qualifiers``), not
        only on the one whose draw waits: the group's places (小组第3名 …) and its table
        follow the sheet as taken."""
        from .draw.common import PlayoffWaiting
        from .score.standings import played_where, ranking_where

        qualifiers = getattr(self.fmt, "qualifiers", None)
        if not self.playoffs or qualifiers is None or self.group_cut_taken:
            return
        grp = [r for r in self.rounds if isinstance(r.plan, dict) and r.plan.get("kind") == "group"]
        if not grp or len(grp) < int(grp[0].plan.get("of") or 0) or any(
                not m.bye and m.key not in self.results for r in grp for m in r.matches):
            return      # (the group stage not played out: no tie for the cut yet)
        self.group_cut_taken = True     # (once a run: the group results are all read)

        def open_ties() -> list[tuple[str, str, tuple[str, ...]]]:
            try:
                qualifiers(self.draw_state())
            except PlayoffWaiting as w:
                return [(st, g, tuple(ids)) for st, g, ids in w.ties]
            except Exception:       # noqa: BLE001 - (any other wait: the draw says it)
                return []
            return []

        played = played_where(self.results)
        for stage, group, ids in open_ties():
            tied = frozenset(ids)
            where = ranking_where(tied, grp)
            # the latest sheet with a 名次 for this tie (as the 加赛 tiebreak reads the sheets)
            k, got = next(((k, got) for k in reversed(range(len(self.playoffs)))
                           if (po := self.playoffs[k]).stage in (stage, "") and (po.group or "") == group
                           and (got := po.places_of(tied)) is not None
                           and (not po.made_for or tied in po.made_for)
                           and po.settles_in(tied, where, played, blanks=True)), (None, None))
            if k is None or got is None:
                continue
            if not _leaves_level(got):
                continue
            po = self.playoffs[k]
            self.playoffs[k] = dataclasses.replace(po, shared=po.shared | {tied})
            left = [set(t) for st, g, t in open_ties() if st == stage and g == group and set(t) <= tied]
            if not left:
                continue
            self.playoffs[k] = po
            self.level_refused.add(tied)
            self.say_level_at_cut(po, got, group, left[0])

    def say_level_at_cut(self, po: Playoff, got: Mapping[str, int | None], group: str, level: set[str]) -> None:
        """R2011-F1 with R2020-F4: a group's 加赛表 that leaves level (``got``: its 名次, None
        for a blank) ``level``, among whom the group's advancing places are still to be
        shared — said at the first of their 名次 cells: who, why, and what to write."""
        names = {e.id: e.team for e in self.all_entries()}
        cell_of = {**dict(zip(po.blank, po.blank_cells)), **dict(zip(po.order, po.cells))}

        def row(c: str) -> int:
            digits = "".join(ch for ch in c if ch.isdigit())
            return int(digits) if digits else 0

        ordered = sorted(level, key=lambda e: (row(cell_of.get(e, "")), e))
        cells = [cell_of[e] for e in ordered if cell_of.get(e)]
        who = "、".join(f"“{names.get(e, e)}”" for e in ordered)
        how = ("名次空着" if all(got.get(e) is None for e in ordered)
               else f"名次相同（{'、'.join(str(got.get(e) or '空') for e in ordered)}）")
        where = f"{group}组" if group else "小组"
        self.issues.add("BAD_VALUE", f"{self.ev.name} 加赛表中{who}的{how}，即仍并列；{where}的{LEVEL_AT_CUT}，"
                        "须分出先后：请按加赛结果为他们填写不同的名次（尚未分出先后的，请再加赛决出）后重新发送。"
                        "同在出线一侧（都出线）或同在未出线一侧的并列可以空着不填。",
                        at=dataclasses.replace(po.source, cell=cells[0]) if po.source and cells else po.source)

    def say_level_across(self, po: Playoff, got: Mapping[str, int | None], across: list) -> None:
        """R2020-F4: a 加赛表 that leaves level (``got``: its 名次, None for a blank) some of a tie
        whose places are different prizes (``across``: the ties it leaves across a boundary,
        as :meth:`~pipeline.score.awards.AwardScheme.undecided` gives them) — said at the first
        of their 名次 cells: which places, why, and what to write."""
        names = {e.id: e.team for e in self.all_entries()}
        cell_of = {**dict(zip(po.blank, po.blank_cells)), **dict(zip(po.order, po.cells))}

        def row(c: str) -> int:
            digits = "".join(ch for ch in c if ch.isdigit())
            return int(digits) if digits else 0

        parts, cells = [], []
        for _, rank, ids, kinds in across:
            ordered = sorted(ids, key=lambda e: (row(cell_of.get(e, "")), e))
            cells += [cell_of[e] for e in ordered if cell_of.get(e)]
            who = "、".join(f"“{names.get(e, e)}”" for e in ordered)
            how = ("名次空着" if all(got.get(e) is None for e in ordered)
                   else f"名次相同（{'、'.join(str(got.get(e) or '空') for e in ordered)}）")
            last = rank + len(ordered) - 1
            why = (f"第{rank}–{last}名分属{'/'.join(kinds)}，{LEVEL_ACROSS}" if len(kinds) > 1
                   else f"第{rank}名的{kinds[0]}只能由其中一人获得，{LEVEL_ACROSS}")
            parts.append(f"{who}的{how}，即仍并列第{rank}名；{why}，须分出先后")
        cell = min(cells, key=row) if cells else ""
        self.issues.add("BAD_VALUE", f"{self.ev.name} 加赛表中{'；'.join(parts)}：请按加赛结果为他们填写不同的名次"
                        "（尚未分出先后的，请再加赛决出）后重新发送。同一奖项内的并列可以空着不填。",
                        at=dataclasses.replace(po.source, cell=cell) if po.source and cell else po.source)

    def await_award_playoffs(self, placements: list) -> None:
        """R2011-F1, R2011-D2, the tiebreak rules' 加赛: an event played out whose final
        order still has a tie across an award boundary (一等奖 / 二等奖, or a prize / none)
        is not finished.  No award of it is given — the order between the tied would be
        arbitrary — until a 加赛 sheet settles the tie: the event waits, its 加赛表 is
        written, and PLAYOFF_REQUIRED names the tied entries."""
        from .score import AWARD_SCHEMES

        pending = AWARD_SCHEMES.get(self.ev.awards.scheme).undecided(self.ev.awards, placements)
        if not pending:
            return
        from .score.awards import tie_place

        names = {e.id: e.team for e in self.shown_entries()}
        # (one table's level runners-up by their table, R2020-D2: tie_place)
        said = "；".join(f"{f'{g}组' if g else ''}{where} {'、'.join(names.get(i, i) for i in ids)} 并列（{what}）"
                        for g, rank, ids, kinds in pending for where, what in [tie_place(rank, ids, kinds, placements)])
        self.complete = False
        self.awaiting_playoff = True
        self.ties = [(FINAL_PLACES, g, tuple(ids)) for g, _, ids, _ in pending]
        wrong = self.playoff_sheets_wrong()
        self.waiting = f"需加赛决定名次：{said}"
        self.issues.add("PLAYOFF_REQUIRED", f"{self.ev.name}：{self.waiting}，按破同分规则无法区分。请组织加赛，"
                        f"把名次填入 forms/{playoff_form_name(self.ev.id, self.rounds)}，放进收件箱后再运行；"
                        "本项目的获奖名单和证书在加赛结果录入后生成。" + wrong)
        self.waiting += wrong

    def check_published_rounds(self) -> None:
        """A round drawn from earlier rounds' results keeps its draw when one of those results
        is corrected later (a published round is never redrawn) — and the office is told:
        DRAW_INPUT_CHANGED for each published round whose inputs (its printed 输入摘要) are
        no longer what the results now say, naming the corrected tables (RESULTS_KEY) not
        already named for an earlier round — a second correction, of a later round's results,
        is a new warning about the round drawn from them (it was not said: only the first
        round was looked at).  Each message says only what stays the same while the results
        do (not how many rounds followed), so a later night says it again as a note
        (SAID_ONCE).  Rounds drawn without the record: the first one only, as before.
        Round 1's own inputs (the entries, the check-in) are :meth:`check_frozen_inputs`'.

        Results the round was drawn from that this version refuses and an earlier one accepted
        (R2020-D3, added while leagues ran: :meth:`accepted_before`) are no correction: when
        they alone make the difference (with them the printed 输入摘要 comes out), the message
        says the sheets did not change and names the tables to check (REFUSED_NOT_CORRECTED);
        beside a correction, they are named apart from the corrected tables."""
        from .draw.common import follows_a_schedule

        entries = None
        named: set[str] = set()
        said = False
        for k in range(1, len(self.rounds)):
            rnd = self.rounds[k]
            if not rnd.input_hash or follows_a_schedule(rnd):
                continue
            entries = entries if entries is not None else self.draw_entries()
            now = draw_inputs_hash(entries, self.rounds[:k], self.results, self.absent, self.hash_parts)
            if now == rnd.input_hash or self.drawn_with_old_byes(entries, k, rnd.input_hash):
                continue
            if self.drawn_with_old_scoring(entries, k, rnd.input_hash):
                continue        # the results stand: only the scoring changed (scoring_changed says it)
            rescored = self.rescored_since_places(k)
            if rescored is not None:
                # the sheets its places were published from, unchanged since, and the tables
                # whose results differ from those the round was drawn from differing only since
                # then: this version scores them otherwise, no correction
                fresh_tables = [x for x in rescored if x not in named]
                if said and not fresh_tables:
                    continue
                which = (f"以下各桌的计分与抽签时不同：{'、'.join(fresh_tables[:8])}"
                         f"{f' 等 {len(fresh_tables)} 桌' if len(fresh_tables) > 8 else ''}" if fresh_tables
                         else "此前各轮的计分与抽签时不同")
                self.issues.add("DRAW_INPUT_CHANGED",
                                f"{self.ev.name} {rnd.title}已经抽签公布，不会重新抽签，对阵照旧有效。"
                                f"{REFUSED_NOT_CORRECTED}（不是更正），报名、加赛和排名规则也没有变；只是现在版本的程序对{which}"
                                f"（抽签表上的输入摘要 {rnd.input_hash}，现为 {now}）。已公布的对阵、名次和奖项保持不变，无需处理。",
                                severity=Severity.INFO)
                said = True
                named.update(rescored)
                continue
            # results it was drawn from that this version refuses, the sheets unchanged (R2020-D3
            # added after a league had started): no correction — told apart, and said so
            earlier = {m.key for r in self.rounds[:k] for m in r.matches}
            refused = {key: r for key, r in self.accepted_before().items() if key in earlier}
            with self.results_with(refused):
                only_refused = bool(refused) and draw_inputs_hash(
                    entries, self.rounds[:k], self.results, self.absent, {}) == rnd.input_hash
                corrected = [] if only_refused else self.tables_corrected_at(k)
            tables = [t for t, _ in corrected] if corrected is not None else None
            refused_tables = self.tables_named(refused)
            if said and not (tables and set(tables) - named) and not set(refused_tables) - named:
                if tables is None:
                    return
                continue        # what changed was said for an earlier round
            new = [x for x in tables if x not in named] if tables else tables
            # (a refused table whose sheet was changed too is among the corrected ones)
            fresh = [x for x in refused_tables if x not in named and x not in (tables or ())]
            stricter = (f"本版程序对成绩的检查更严：以下成绩在公布时已被接受，现在不符合规则，暂不计成绩（原因见问题清单中"
                        f"这些桌的 RESULT_INVALID）：{'、'.join(fresh[:8])}{f' 等 {len(fresh)} 桌' if len(fresh) > 8 else ''}。")
            check = "请裁判按记分表核实这些桌的成绩，改正后重发成绩表。"
            if only_refused:
                self.issues.add("DRAW_INPUT_CHANGED",
                                f"{self.ev.name} {rnd.title}已经抽签公布，不会重新抽签，对阵照旧有效。"
                                f"{REFUSED_NOT_CORRECTED}（不是更正），但{stricter}{check}")
                said = True
                named.update(refused_tables)
                continue
            # where the change came from: the sheet the first newly corrected table's result is
            # read from now (the file column was empty, the RESULT_CONFLICT beside it naming it)
            came = next((src for t, src in corrected or () if t in (new or ()) and src is not None and src.file), None)
            digest = f"（抽签表上的输入摘要 {rnd.input_hash}，现为 {now}）"
            if new:
                what = (f"成绩在公布后有了更正：{'、'.join(new[:8])}"
                        f"{f' 等 {len(new)} 桌' if len(new) > 8 else ''}{digest}。")
            elif new is not None:    # every table as it was: the entries (a team's players) changed
                what = f"报名（队伍或队员）在公布后有了变化{digest}。"
            else:
                what = f"此前各轮成绩（或报名）在公布后有了变化{digest}。"
            self.issues.add("DRAW_INPUT_CHANGED",
                            f"{self.ev.name} {rnd.title}已经抽签公布，不会重新抽签；但它所依据的{what}"
                            f"{self.winners_left_out(k)}请组委会核实更正的成绩，并决定是否调整已公布的对阵。"
                            + (f"另外，{stricter}{'这些成绩表在公布后没有改动（不是更正）；' if tables is not None else ''}{check}"
                               if fresh else ""), at=came)
            said = True
            named.update(tables or ())
            named.update(refused_tables)
            if tables is None:
                return

    def scoring_then(self, rnd: Round) -> dict[str, Any] | None:
        """The scoring terms ``rnd`` was drawn under: its plan's record, or — for a round
        published by older code — the game's own defaults when those are not the terms now
        (a guess, kept only where :meth:`drawn_with_old_scoring` proves it)."""
        rec = recorded_scoring(rnd)
        if rec is not None:
            return rec
        now = scoring_record(self.ev)
        guess = {**now, "points": json.loads(json.dumps(self.game.default_points))}
        return guess if guess != now else None

    def rescored(self, rounds: list[Round], terms: dict[str, Any]) -> dict[tuple, MatchResult]:
        """The results of ``rounds`` as the same sheets score under ``terms`` (other points
        or game options): read again aside, nothing said, the runner's own results untouched."""
        saved = self.results, self.unscored, self.issues, self.points, self.ev, self._side_names
        kept = self._wrong_round, self._taken, self._given_at
        try:
            self._wrong_round, self._taken, self._given_at = [], {}, {}
            self.results, self.unscored, self.issues, self._side_names = {}, {}, IssueLog(), {}
            self.points = {str(k): v for k, v in terms["points"].items()}
            if isinstance(terms.get("game_options"), dict):
                self.ev = dataclasses.replace(self.ev, game_options=terms["game_options"])
            for r in rounds:
                self.add_byes(r)
                self.read_results(r)
            # a withdrawn entrant's bye left unscored stays so under any terms (:meth:`unscored_byes`)
            self.apply_unscored_byes(rounds, self.ledger.withdrawn_byes(self.ev.id))
            return self.results
        finally:
            self.results, self.unscored, self.issues, self.points, self.ev, self._side_names = saved
            self._wrong_round, self._taken, self._given_at = kept

    def drawn_with_old_scoring(self, entries: list[Entry], k: int, printed: str) -> bool:
        """Whether round ``k`` was drawn from these very result sheets scored under the terms it
        records (the office changed the event's points or game options since): no result was
        corrected, so no DRAW_INPUT_CHANGED; :meth:`scoring_changed` says the edit."""
        then = self.scoring_then(self.rounds[k])
        if then is None or then == scoring_record(self.ev):
            return False
        try:
            old = self.rescored(self.rounds[:k], then)
        except Exception:       # terms this version cannot score with: not proven
            return False
        if draw_inputs_hash(entries, self.rounds[:k], old, self.absent, {}) != printed:
            return False
        self.scoring_proven[k] = then
        return True

    def scoring_changed(self) -> None:
        """SCORING_CHANGED: the event's scoring terms (``points``, ``game_options``) differ from
        those its published rounds were drawn under.  Not a results correction: the sheets are
        as they were.  The standings take the terms as they are now (the office corrected its
        spec), every round's scores with them; the rounds already drawn from the old scores
        stand (a published draw is never redrawn), later draws follow the new scores."""
        now = scoring_record(self.ev)
        olds: list[tuple[Round, dict[str, Any]]] = []
        for i, r in enumerate(self.rounds):
            rec = recorded_scoring(r) or self.scoring_proven.get(i)
            if rec is not None and rec != now:
                olds.append((r, rec))
        if not olds:
            return
        said = []
        for rec in dict.fromkeys(json.dumps(rec, sort_keys=True) for _, rec in olds):
            rec = json.loads(rec)
            parts = [f"{key}：{diff}" for key in ("points", "game_options")
                     if (diff := changed_options(rec.get(key) or {}, now[key]))]
            if parts and (x := "；".join(parts)) not in said:
                said.append(x)
        if not said:
            return
        # the rounds drawn from results scored the old way (round 1 is drawn from no result)
        from_old = [r for r, _ in olds if r is not self.rounds[0]]
        drawn = (f"已公布的{from_old[0].title}{'至' + from_old[-1].title if len(from_old) > 1 else ''}是按原来的计分抽签的，"
                 "对阵照旧有效，不会重新抽签；之后的抽签按新的计分进行。") if from_old else "之后的抽签按新的计分进行。"
        self.issues.add("SCORING_CHANGED",
                        f"{self.ev.name}的计分办法在抽签公布后改过（{' / '.join(said)}）：这不是成绩更正，已收到的成绩表没有变化；"
                        f"各轮得分、积分和名次现按 tournament.yaml 中现在的计分办法计算。{drawn}"
                        "如是误改，请在 tournament.yaml 中改回原来的值。")

    def drawn_with_old_byes(self, entries: list[Entry], k: int, printed: str) -> bool:
        """Whether round ``k`` was drawn by an earlier version from these very results, its
        byes scored as that version did — every bye the event's bye points, no game score
        (a round robin's rest now scores nothing, a 掼蛋 bye counts in 总局分): the results
        did not change, so there is nothing to tell the office (upgrading a running league
        said DRAW_INPUT_CHANGED for no reason)."""
        # (a withdrawn entrant's bye left unscored, :meth:`unscored_byes`, is no earlier version's bye)
        byes = [m for r in self.rounds[:k] for m in r.matches if m.bye and m.sides and m.key in self.results
                and self.results[m.key].reason != WITHDRAWN_BYE]
        if not byes:
            return False
        old = dict(self.results)
        for m in byes:
            old[m.key] = MatchResult(match=m, sides=(SideResult(Outcome.BYE, points=self.points.get("bye", 0), place=1),),
                                     reason="轮空")
        return draw_inputs_hash(entries, self.rounds[:k], old, self.absent, {}) == printed

    def winners_left_out(self, k: int) -> str:
        """The winners of round ``k - 1``'s tables, by the results as they are now, who are
        not in published round ``k`` (a corrected result: in a knockout or at tables of
        three the other player went on), named with their tables — what the office must look
        at.  Only where round ``k`` is drawn from round ``k - 1``'s winners (a knockout round —
        of a knockout, or of groups then a knockout past its group stage —, tables of three):
        elsewhere (Swiss, round robin, a group round) it would name players who were never
        meant to go on.  A winner now in the third-place match (groups then a knockout: the
        semi-finals' losers play it) is named apart: he is in round ``k``, not in its final."""
        if self.rounds[k - 1].plan.get("kind") not in ("ko", "tables") or \
                self.fmt.name not in ("knockout", "tables_of_three", "groups_knockout"):
            return ""
        third = ""
        if self.fmt.name == "groups_knockout":
            from .draw.groups_knockout import THIRD_PLACE as third
        drawn = {s for m in self.rounds[k].matches if not (third and m.group == third) for s in m.sides}
        losers_match = {s for m in self.rounds[k].matches if third and m.group == third for s in m.sides}
        names = {e.id: e.team for e in self.shown_entries()}
        out, down = [], []
        for m in self.rounds[k - 1].matches:
            res = self.results.get(m.key)
            w = res.winner() if res is not None and not m.bye else None
            if w and w not in drawn:
                (down if w in losers_match else out).append(
                    f"{m.group + '组' if m.group else ''}第{m.table}桌 {names.get(w, w)}")
        was = self.rounds[k - 1].title
        return ((f"按现在的成绩，{was}{'、'.join(out)} 胜出，却不在已公布的{self.rounds[k].title}对阵中。"
                 if out else "")
                + (f"按现在的成绩，{was}{'、'.join(down)} 胜出，却在已公布的{self.rounds[k].title}中排在三四名决赛"
                   "（胜者应进决赛）。" if down else ""))

    def checkin_changes(self, first: Round) -> str:
        """``：签到表改为到场的有 贺芳；改为未到的有 …`` — who the check-in now says otherwise
        than when round 1 was drawn (``ABSENT_KEY``; "" for a round published without it)."""
        if not isinstance(first.plan, dict) or ABSENT_KEY not in first.plan:
            return ""
        then = set(first.plan.get(ABSENT_KEY) or ())
        shown = {p.key: p.shown for e in self.entries for p in e.players}
        came, left = sorted(then - self.absent), sorted(self.absent - then)
        parts = ([f"改为到场的有 {'、'.join(shown.get(k, k) for k in came)}"] if came else []) + \
                ([f"改为未到的有 {'、'.join(shown.get(k, k) for k in left)}"] if left else [])
        return f"：签到表{'；'.join(parts)}" if parts else ""

    def check_playoffs_since_draw(self) -> None:
        """A 加赛表 is not among a draw's hashed inputs (``draw_inputs_hash``): a round records
        the playoff orders it was drawn with (``PLAYOFFS_KEY``), and a later sheet that orders
        one of those ties differently is DRAW_INPUT_CHANGED — the draw stands (R2011-F1: the
        group's playoff decided who went on), the office decides.  Rounds published by older
        code hold no record."""
        for rnd in self.rounds:
            used = rnd.plan.get(PLAYOFFS_KEY) if isinstance(rnd.plan, dict) else None
            if not isinstance(used, list):
                continue
            names = {e.id: e.team for e in self.all_entries()}
            for stage, group, order in (u for u in used if isinstance(u, list) and len(u) == 3):
                tied = set(order)
                # the sheet of that tie (its stage and group): a later tie of the same entries
                # has its own 加赛 (R2011-F1), no change of the one the round was drawn from
                now = next((po for po in reversed(self.playoffs) if tied <= set(po.order)
                            and po.stage in (stage, "") and po.group == group), None)
                if now is None:
                    continue
                ranked = [e for e in now.order if e in tied]
                if ranked != list(order):
                    where = f"{group}组" if group else ""
                    self.issues.add("DRAW_INPUT_CHANGED",
                                    f"{self.ev.name} {rnd.title}已经抽签公布，不会重新抽签；但它所依据的{where}加赛结果在公布后"
                                    f"有了变化：抽签时为 {'、'.join(names.get(e, e) for e in order)}，现为 "
                                    f"{'、'.join(names.get(e, e) for e in ranked)}。请组委会核实加赛表，并决定是否调整已公布的对阵。",
                                    at=now.source if now.source is not None and now.source.file else None)
                    return

    def check_frozen_inputs(self) -> None:
        """A published round is never redrawn; a later change of its inputs becomes an issue."""
        if not self.rounds:
            return
        first = self.rounds[0]
        self.say_same_as()
        drawn = {s for m in first.matches for s in m.sides}
        current = {e.id for e in self.entries}
        merged_from = {f for r in self.rounds for m in (r.plan.get("merged", []) if isinstance(r.plan, dict) else [])
                       for f in m.get("from", [])}
        # entries the check-in took out of round 1 (all players absent: plan["removed"]; a
        # pair's halves re-formed: merged "from"; R2016-F2: a pair whose player came but was
        # left alone with no one to re-form with, plan["dropped"] by Person.key) were drawn
        # in their way — no change of registration
        taken_out = {e for r in self.rounds if isinstance(r.plan, dict) for e in r.plan.get("removed", []) or []}
        dropped = {p for r in self.rounds if isinstance(r.plan, dict) for p in r.plan.get("dropped", []) or []}
        taken_out |= {e.id for e in self.entries if any(p.key in dropped for p in e.players)}
        # withdrawn by the office before round 1 was drawn (tournament.yaml's withdrawn)
        # (still withdrawn: one taken off the list since is new to the draw, and said so)
        gone = set(first.plan.get(WITHDRAWN_KEY) or ()) if isinstance(first.plan, dict) else set()
        gone &= self.withdrawn_ids()
        added = sorted(current - drawn - merged_from - taken_out - gone)
        removed = sorted(drawn - current - {m.get("id") for r in self.rounds
                                            for m in (r.plan.get("merged", []) if isinstance(r.plan, dict) else [])})
        if added or removed:
            # named as the draw sheet and the entries list name them (an id means nothing to
            # the office): an added entry by its team, a removed one by its published label
            names = {e.id: _entry_label(self.t, e) for e in self.shown_entries()}
            parts = []
            # R2020-Q4: entered after round 1 was drawn, in no round: not drawn, not ranked
            # (late_ids); one a later round holds (drawn by an older version) plays on
            late = [e for e in added if e in self.late_ids()]     # (worked out once)
            valid_since = self.late_valid_ids()
            sent_late = [e for e in late if e not in valid_since]
            if sent_late:
                parts.append("新增 " + "、".join(names.get(e, e) for e in sent_late) + "：第1轮抽签后才报名，不参加编排，也不计名次")
            if len(sent_late) < len(late):
                parts.append("新增 " + "、".join(names.get(e, e) for e in late if e in valid_since)
                             + f"：{LATE_VALID}（报名表在抽签前已收到，抽签时这一报名未录入），不参加编排，也不计名次")
            if len(late) < len(added):
                parts.append("新增 " + "、".join(names.get(e, e) for e in added if e not in late))
            if removed:
                parts.append("已不在报名中 " + "、".join(names.get(e, e) for e in removed))
            self.issues.add("DRAW_INPUT_CHANGED",
                            f"{self.ev.name} 第1轮已于抽签后公布，不会重新抽签；公布后报名有变化（{'；'.join(parts)}），"
                            "请组委会决定如何处理。")
            return
        # the same entries: the check-in (who came) or a pair's players may still have changed
        now = draw_inputs_hash([self.as_drawn(e) for e in self.entries if e.id not in gone], [], {}, self.absent, {})
        if first.input_hash and now != first.input_hash:
            swapped = self.players_changed(first)
            if swapped:
                self.issues.add("DRAW_INPUT_CHANGED",
                                f"{self.ev.name} 第1轮已于抽签后公布，不会重新抽签；公布后队员有变化：{swapped}"
                                f"{self.checkin_changes(first)}。已赛各轮的成绩、名次和奖项现在都按新的队员显示"
                                "（证书也印新的名字）。如不应换人，请该单位把报名表改回后重发；如确是换人，"
                                "请组委会确认。")
                return
            self.issues.add("DRAW_INPUT_CHANGED",
                            f"{self.ev.name} 第1轮已于抽签后公布，不会重新抽签；公布后签到（到场情况）或队伍的队员有变化"
                            f"（抽签表上的输入摘要 {first.input_hash}，现为 {now}）{self.checkin_changes(first)}，"
                            "请组委会核实并决定如何处理。")

    def as_drawn(self, e: Entry) -> Entry:
        """An entry given its drawn id (:func:`drawn_as`) with its player as round 1 was drawn
        from: the name or the 工号 its drawn id holds, so the 工号 filled in since is no change
        of the draw's inputs (its digest)."""
        if e.id not in self.same_as.values() or len(e.players) != 1:
            return e
        was = e.id.split(":", 2)[2]
        p = e.players[0]
        old = (dataclasses.replace(p, staff_id=was) if was.isascii() and any(ch.isdigit() for ch in was)
               else dataclasses.replace(p, staff_id="", name=was))
        return dataclasses.replace(e, players=(old,))

    def say_same_as(self) -> None:
        """R2020-Q4: a note for the entries :func:`drawn_as` took for drawn ones — the same
        person sent again with the 工号 filled in (or the name in another script) after round 1
        was drawn: they play on as drawn (no 新增/已不在报名中, no late entry)."""
        if not self.same_as:
            return
        by_id = {e.id: e for e in self.entries}
        said = []
        for now_id, sid in sorted(self.same_as.items(), key=lambda x: x[1]):
            e = by_id.get(sid)
            if e is None or e.team_no:      # (a team drawn under 1队, now read as 1: the same team, nothing to say)
                continue
            was, p = sid.split(":", 2)[2], e.players[0]
            what = []
            if p.staff_id and p.staff_id != was and not (was.isascii() and any(ch.isdigit() for ch in was)):
                what.append(f"补填工号 {p.staff_id}")
            elif p.staff_id != was and was.isascii():
                what.append(f"工号 {was} → {p.staff_id or '（空）'}")
            label = labels_of(self.rounds).get(sid)
            shown = re.sub(r"（[^（）]*）$", "", label[0]) if isinstance(label, list) and label else was
            if shown != p.shown and not (was.isascii() and any(ch.isdigit() for ch in was) and shown == was):
                what.append(f"姓名 {shown} → {p.shown}")
            said.append(f"{_entry_label(self.t, e)} {'，'.join(what) or '重新报名'}")
        if said:
            self.issues.add("DRAW_INPUT_CHANGED",
                            f"{self.ev.name} 第1轮抽签公布后，报名表中 {'、'.join(said)}：与抽签时是同一参赛者，"
                            "按已公布的抽签继续比赛，已赛成绩、名次不变，无需处理。",
                            branch=by_id[sorted(self.same_as.values())[0]].branch, severity=Severity.INFO)

    def players_changed(self, first: Round) -> str:
        """``外语1队 覃旭/杜桂芳 → 覃旭/李新`` for each team whose players differ from those
        recorded when round 1 was published (its labels; "" for a round published without
        them, or when only the check-in changed)."""
        labels = first.plan.get("labels") if isinstance(first.plan, dict) else None
        if not isinstance(labels, dict):
            return ""
        said = []
        for e in sorted(self.entries, key=lambda e: e.id):
            rec = labels.get(e.id)
            if isinstance(rec, list) and len(rec) > 2 and rec[2] != e.player_names:
                said.append(f"{_entry_label(self.t, e)} {rec[2]} → {e.player_names}")
        return "；".join(said)

    # -- results ----------------------------------------------------------------------
    def read_results(self, rnd: Round) -> None:
        """Collect this round's filled rows from every result workbook for it, check
        conflicts between sheets (RESULT_CONFLICT: the newest sheet wins, the office is
        told), and let the game turn them into results.

        A referee corrects a sheet by sending it again, as the handbook says (the later
        one counts): a problem of an earlier sheet is then no longer the office's to act
        on (:meth:`settle_problems`), and is kept as a note.  Two sheets received at the same
        time that disagree about a table of the last published round leave it without a
        result until a later sheet settles it — the next round is not drawn on a guess (a
        round already followed by another keeps one of them, as it was drawn on)."""
        from . import layout
        from .ingest.sheets import group_of

        columns = self.game.columns(self.ev.game_options)
        books = self.round_books(rnd.round)
        sides = layout.SIDES_3 if self.game.seats == 3 else layout.SIDES_2
        ctx = _RoundSheets(
            rnd=rnd, columns=columns, labels=[c.label for c in columns], detail=self.game.detail(self.ev.game_options),
            matches={(str(m.round), group_of(m.group), str(m.table)): m for m in rnd.matches if not m.bye},
            byes={(str(m.round), group_of(m.group), str(m.table)) for m in rnd.matches if m.bye},
            sides=sides, sign_labels=[s + layout.SIGNATURE_SUFFIX for s in sides],
            players={e.id: e for e in self.all_entries()} if self.ev.team_size > 1 and books else {},
            shown={e.id: e for e in self.shown_entries()} if books else {},
            holds=bool(self.rounds) and rnd.round == self.rounds[-1].round)
        # each sheet's problems, with the table each is about (None: the sheet or a row not
        # at a drawn table), kept apart until every sheet is read (settled)
        found_in: list[tuple[Received, list[tuple[Issue, tuple | None]]]] = []
        log = self.issues
        try:
            for rec, book in sorted(books, key=lambda x: (x[0].received_at, x[0].sha256)):
                self.issues = IssueLog()
                about: dict[int, tuple] = {}       # index in this sheet's issues → table
                found_in.append((rec, []))
                try:
                    self._read_sheet(ctx, rec, book, about)
                finally:
                    found_in[-1][1].extend((i, about.get(n)) for n, i in enumerate(self.issues))
        finally:
            self.issues = log
        # a later row the game cannot read is no correction: the row it replaced is taken
        # again and the round read once more (at most once per replaced row) — unless no row
        # of that table can be read: then the latest stays taken (and the round is read again)
        saved = ctx.snapshot()
        while True:
            rejected: list[Issue] = []
            while True:
                rows, hands, results, found = self.parse_taken(ctx)
                taken = [id(rr) for _, rr in ctx.chosen.values()]
                rejected.extend(self.fall_back(ctx, rows, hands, results, found))
                if [id(rr) for _, rr in ctx.chosen.values()] == taken:
                    break
            got = {r.match.key for r in results}
            lost = {rkey for _, rkey in ctx.set_aside if rkey in rows and rkey[0] not in got
                    and self.unreadable(ctx, rkey, rows[rkey], hands, found) is not None}
            if not lost:
                break
            ctx.restore(saved)
            ctx.kept |= lost
        rows_in = list(rows.values())
        found_in = [(rec, [(ctx.rewritten.get(id(i), i), table) for i, table in items]) for rec, items in found_in]
        for rec, changed in ctx.corrections:
            # RESULTS_REWRITTEN counts the tables this sheet's rows still change: a row set
            # aside (不按更正处理) changed nothing
            said = self.rewritten_round(rec, ctx.rnd, {rkey[0] for rkey in changed if (rec.sha256, rkey) not in ctx.set_aside})
            if said is not None:
                next(items for r, items in found_in if r is rec).append((said, None))
        self.issues.extend(self.settle_problems(ctx, found_in))
        self.issues.extend(hands)
        self.issues.extend(found)
        self.issues.extend(rejected)
        for r in results:
            self.results[r.match.key] = r
        self._taken.update((rkey, taken) for rkey, taken in ctx.chosen.items() if rkey not in ctx.disputed)
        for rkey, (rec, rr) in ctx.chosen.items():
            if rkey not in ctx.disputed:
                self._given_at[rkey] = self.given_since(ctx, rkey, rec, rr)
        twice = {rkey for sha, rkey in ctx.twice if rkey in ctx.chosen and ctx.chosen[rkey][0].sha256 == sha}
        # (the 明细's problems too: a 斗地主 table whose totals its hands could not give — 炸弹数
        # "炸弹×2" — was told the office as 待各桌成绩齐后计分, an audit)
        self.note_unscored(rows_in, [*found, *hands], {rkey[0]: "两行" if rkey in twice else "不一致" for rkey in ctx.disputed},
                           _faults(found_in),
                           ctx.details)

    def parse_taken(self, ctx: _RoundSheets) -> tuple[dict[tuple, ResultRow], list[Issue], list[MatchResult], list[Issue]]:
        """The game's reading of the rows taken for the round's tables (:meth:`read_results`):
        the rows as read by (match key, 牌号) (totals from detail sheets filled in), the detail
        sheets' problems, the results, and the game's problems (each said once, with a merged
        cell's note)."""
        rkeys = [rkey for rkey, (_, rr) in sorted(ctx.chosen.items(), key=lambda x: (
            x[1][1].match.group, x[1][1].match.table, str(x[1][1].values.get("牌号")))) if rkey not in ctx.disputed]
        merged = _merged_notes(ctx)
        from .games.common import sheets_in

        # the game reads the sheets — the 明细 of a row whose totals come from it as well as the
        # rows — with the choices a message lists as the sheet's dropdowns (二遊、三遊、末遊 in a
        # Traditional league: a bad 明细 choice was told to pick from 二游、三游、末游)
        with sheets_in(self.t.spec.script):
            log, self.issues = self.issues, IssueLog()
            try:
                rows_in = self.totals_from_details(ctx, [ctx.chosen[k][1] for k in rkeys], merged)
                hands = list(self.issues)
            finally:
                self.issues = log
            results, found = self.game.parse_round(ctx.rnd, rows_in, self.points, self.ev.game_options, ctx.details or None)
        said = {c for rkey, cells in ctx.error_cells.items() if rkey in ctx.chosen for c in cells}
        if said:
            found = [i for i in found if (i.file, i.sheet, i.cell) not in said]
        if merged:
            found = [_with_merged_note(i, merged) for i in found]
        return dict(zip(rkeys, rows_in)), hands, results, found

    def fall_back(self, ctx: _RoundSheets, rows: dict[tuple, ResultRow], hands: list[Issue],
                  results: list[MatchResult], found: list[Issue]) -> list[Issue]:
        """Handbook (RESULT_CONFLICT: 较晚收到的一份按更正处理): a later sheet's row counts
        as the referee's correction only when the game can read it.  A taken row that replaced
        an earlier one and leaves its table without a result, with a problem of its own (a
        value not in the list, a cell left blank, an error value, totals that do not add up,
        or nothing left once its hands are read), is set aside: the row it replaced is taken
        again (``ctx`` is changed here) and the RESULT_CONFLICT note of the replacement says
        that the earlier result stands (``ctx.rewritten``).  A re-sent sheet with 乙方缺席
        typed in 结果 had wiped the table's valid 甲胜 and recomputed places without the
        game, its note saying a correction was taken.

        Returns the set-aside rows' own problems, still errors, each saying what counts
        instead; empty when nothing was set aside."""
        from .issues import shorten_message

        got = {r.match.key for r in results}
        out: list[Issue] = []
        for rkey, rr in rows.items():
            earlier = ctx.replaced.get(rkey)
            if not earlier or rkey[0] in got or rkey in ctx.kept:
                continue
            own = self.unreadable(ctx, rkey, rr, hands, found)
            if own is None:
                continue            # no result yet for another reason (a playoff, the round's other tables)
            rec = ctx.chosen[rkey][0]
            ctx.set_aside.add((rec.sha256, rkey))
            back = earlier.pop()
            took = _took(earlier)
            if took is not None:            # the note that took ``back`` stands again
                ctx.rewritten.pop(id(took), None)
            ctx.chosen[rkey] = (back.rec, back.row)
            # with the earlier sheet's 明细 rows (its totals may come from them), not the later's
            if back.details is not None:
                ctx.details[rkey[0]] = back.details
            else:
                ctx.details.pop(rkey[0], None)
            ctx.error_cells[rkey] = back.error_cells
            ctx.merged_cells[rkey] = back.merged_cells
            if back.disputed:
                ctx.disputed.add(rkey)
            kept = (("这一桌仍是同一份成绩表中互相矛盾的两行成绩，暂不计成绩" if (back.rec.sha256, rkey) in ctx.twice
                     else "这一桌仍是两份同时收到、互相矛盾的成绩，暂不计成绩") if back.disputed else
                    f"这一桌仍按较早收到的《{back.rec.file_name}》（{_received(back.rec)}）的成绩计分")
            if back.conflict is not None:
                m = rr.match
                bad = next((i for i in own if i.cell), None)
                ctx.rewritten[id(back.conflict)] = dataclasses.replace(
                    back.conflict, severity=Severity.INFO, message=shorten_message(
                        f"{self.ev.name} 第{ctx.rnd.round}轮 {_table_name(m)}：较晚收到的《{rec.file_name}》"
                        f"（{_received(rec)}）这一桌的成绩无法读取"
                        f"{f'（问题在 {bad.sheet}!{bad.cell}）' if bad is not None else ''}，不按更正处理：{kept}。"
                        "如确要更正，请裁判按该单元格的提示改正后重新发送。"))
            out.extend(dataclasses.replace(i, message=shorten_message(
                f"{i.message.rstrip('。')}。这一行没有计入：{kept}。")) for i in own)
        return out

    @staticmethod
    def unreadable(ctx: _RoundSheets, rkey: tuple, rr: ResultRow, hands: list[Issue], found: list[Issue]) -> list[Issue] | None:
        """The problems of a taken row that leave its table without a result (:meth:`fall_back`)
        — its own, on its cells or its 明细 rows' (empty when only an error value or a blank
        row says it) — or None when it has none (it waits for another reason)."""
        cells = {(c.file, c.sheet, c.cell) for c in rr.cells.values() if c.cell}
        for item in ctx.details.get(rkey[0], ()):
            cells |= {(c.file, c.sheet, c.cell) for c in (item.get("_cells") or {}).values() if getattr(c, "cell", "")}
        own = [i for i in [*found, *hands] if i.severity != Severity.INFO and (i.file, i.sheet, i.cell) in cells]
        return own if own or ctx.error_cells.get(rkey) or row_blank(rr, ctx.columns) else None

    def totals_from_details(self, ctx: _RoundSheets, rows_in: list[ResultRow],
                            merged: dict[tuple[str, str, str], tuple[str, str]] | None = None) -> list[ResultRow]:
        """Contract: "Optional detail sheets … from which totals are computed".  A table whose
        result cells on 成绩 are blank and whose hands are on the detail sheet gets the totals
        the game computes from them (``values_from_details``); the game then reads the row as
        if typed, and checks it against the same hands.  What the hands cannot tell (the
        dealer at equal levels) is asked for as a blank cell is.  The table was reported
        "成绩未交" though its whole record had come.

        The cells the hands cannot tell (the game's ``detail_kept``: 掼蛋 台上方, 双升 庄家 …)
        may be typed beside them: a row with only those filled is computed too, keeping them
        as typed.  掼蛋 A1 asked for 台上方 and filled with it alone was asked for its levels
        next ("“甲方级数”未填写…请补填"), and the round waited for good.  When such a row's
        hands cannot be read it is read as blank (the hands' problems said here, not the
        levels asked for as well)."""
        from .games.common import unset

        compute = getattr(self.game, "values_from_details", None)
        if compute is None or not ctx.details:
            return rows_in
        kept = set(getattr(self.game, "detail_kept", ()))
        out = []
        for rr in rows_in:
            items = ctx.details.get(rr.match.key)
            if items and all(unset(c, rr.values.get(c.label)) for c in ctx.columns if c.label not in kept):
                scratch: list[Issue] = []
                values = compute(rr, items, self.ev.game_options, scratch)
                if values:
                    rr = dataclasses.replace(rr, values={**rr.values, **values})
                else:           # the hands' problems (the game reads no blank row: said here)
                    self.issues.extend([_with_merged_note(i, merged) for i in scratch] if merged else scratch)
                    rr = dataclasses.replace(rr, values={**rr.values, **{l: None for l in kept}})
            out.append(rr)
        return out

    def note_unscored(self, rows_in: list[ResultRow], found: list[Issue], disputed: Mapping[tuple, str],
                      faulted: Mapping[tuple, str] | None = None, details: dict | None = None) -> None:
        """Which tables of the round have a row received but no result, and why
        (:attr:`unscored`): the office is then told to settle them, not that their sheet
        never came (a 斗地主 table level at the top waiting for its 加赛胜者 was reported
        as 还差 1 桌成绩未交, though its sheet was in).  A problem on a detail sheet's row
        is its table's too (it was "待各桌成绩齐后计分")."""
        why: dict[tuple, str] = dict(disputed)      # "不一致" (two sheets), "两行" (two lines of one sheet)
        for key, reason in (faulted or {}).items():     # a row refused at reading (_faults)
            why.setdefault(key, reason)
        # (a note — a pass-out "-" read as 0, RESULT_READ_AS — is no fault of the table: its
        # 桥牌 table "待齐" was told the office as 成绩有误待改正, a review; a 加赛 is the note that is)
        located = [i for i in found if i.cell and (i.severity != Severity.INFO or i.code == "PLAYOFF_REQUIRED")]
        # which table each cell read belongs to: built only when a problem names a cell (most
        # rounds have none, and a large round's rows hold tens of thousands of cells)
        table_of = {(c.file, c.sheet, c.cell): rr.match.key
                    for rr in rows_in for c in rr.cells.values() if c.cell} if located else {}
        for mk, items in (details or {}).items() if located else ():   # (by match key: _RoundSheets.details)
            for item in items:
                for c in (item.get("_cells") or {}).values():
                    if getattr(c, "cell", ""):
                        table_of[(c.file, c.sheet, c.cell)] = mk
        for i in located:
            key = table_of.get((i.file, i.sheet, i.cell))
            if key is not None:
                why[key] = "加赛" if i.code == "PLAYOFF_REQUIRED" else why.get(key, "有误")
        for rr in rows_in:      # in, with nothing said about it: counted with the round's other tables (桥牌)
            why.setdefault(rr.match.key, "待齐")
        for key, reason in why.items():
            if key in self.results:
                self.unscored.pop(key, None)
            else:
                self.unscored[key] = reason

    def settle_problems(self, ctx: _RoundSheets, found_in: list[tuple[Received, list[tuple[Issue, tuple | None]]]]) -> list[Issue]:
        """The problems of the round's sheets, each as the office has to act on it now.

        A problem about a table is settled when the row taken for that table came from a
        sheet received later (the referee's correction); a problem about a sheet as a whole
        (renamed, not of this draw, unreadable header) or about a row at no drawn table,
        when a later sheet of the round was read and every table now has its result.  A
        settled problem stays on the list as a note (info), saying so: the ledger keeps
        every sheet, and a referee's mistake corrected as the handbook says must not hold
        the night's exit status at "needs attention" for the rest of the league."""
        taken_at: dict[tuple, dt.datetime] = {}
        for (mkey, _), (rec, _) in ((k, v) for k, v in ctx.chosen.items() if k not in ctx.disputed):
            t = aware(rec.received_at)
            taken_at[mkey] = min(t, taken_at.get(mkey, t))
        complete = all(m.key in taken_at for m in ctx.matches.values())
        fine = [aware(r.received_at) for r in ctx.read_fine]
        out = []
        for rec, items in found_in:
            t = aware(rec.received_at)
            later_fine = complete and any(f > t for f in fine)
            for i, table in items:
                if i.severity != Severity.INFO and (taken_at.get(table, t) > t if table is not None else later_fine):
                    i = settled(i, "较晚收到的成绩表已更正这一桌，无需再处理。" if table is not None else
                                "其后收到的成绩表已读入，本轮各桌成绩已齐，无需再处理。")
                out.append(i)
        return out

    def rewritten_round(self, rec: Received, rnd: Round, rewritten: set[tuple]) -> Issue | None:
        """RESULTS_REWRITTEN (a warning, on the night the sheet comes): a sheet received
        after another that changes the results of most of a round's tables (three or more,
        half or more) — most often the blank sheet of an earlier round filled in with a later
        round's results, which was taken as eight corrections, each a note, exit 0 (the
        audit's case: round 1 rewritten after round 2 was drawn).  ``rewritten``: the match
        keys of the tables the sheet's rows changed and still change (a row set aside by
        :meth:`fall_back`, 不按更正处理, changed nothing: it was counted).  Returns the
        warning (None: nothing to say), for :meth:`read_results` to list with the sheet's
        problems."""
        from . import layout

        if not rewritten or self.inputs is None or rec.sha256 not in self.inputs.new_files:
            return None
        tables = sum(1 for m in rnd.matches if not m.bye)
        if len(rewritten) < 3 or 2 * len(rewritten) < tables:
            return None
        later = any(r.round > rnd.round for r in self.rounds)
        return issue("RESULTS_REWRITTEN",
                        f"{self.ev.name} 第{rnd.round}轮：《{rec.file_name}》改动了已有成绩中的 {len(rewritten)} 桌"
                        f"（本轮共 {tables} 桌）{f'，而第{rnd.round}轮之后的对阵已经公布' if later else ''}，已按更正处理。"
                        "请核实：如果是把另一轮的成绩误填进了这一轮的成绩表，请把这一轮正确的成绩表重新放进收件箱"
                        "（原样重发的文件会被当作同一份，请先在签名栏等可填写处改动一下再保存）；如确是更正，无需处理。",
                        at=CellRef(rec.file_name, layout.RESULT_SHEET))

    def _detail_missing(self, ctx: _RoundSheets, rec: Received, book: Any, keyed: list[tuple[tuple, Any]],
                        copies: list[str] = ()) -> None:
        """SHEET_RENAMED (a warning, at the first such cell) when the workbook was issued with a
        detail sheet (its ``_meta`` names it) and has none now (deleted, or renamed with its
        header changed: :func:`adopt_renamed_detail_sheet` found none) — or holds several
        renamed copies of it (``copies``) with no deal in any, so none was read — and a drawn
        table's 成绩 row is filled but leaves its first result column
        (the levels, 斗地主's 得分) blank, not a forfeit: what the handbook lets the detail give
        (R2016-C1, R2020-C1, R2015-C1, R2020-D3).  The row's own RESULT_INVALID only asked for
        the levels or the row cleared, and never named the missing tab."""
        from . import layout
        from .games.common import FORFEIT_LABEL

        detail, first = ctx.detail, ctx.columns[0] if ctx.columns else None
        if first is None or not first.required:
            return
        need = [(ctx.matches[key], row) for key, row in keyed
                if key in ctx.matches and not row_blank(row, ctx.columns)
                and row.values.get(first.label) in (None, "") and row.values.get(FORFEIT_LABEL) in (None, "")]
        if not need:
            return
        tables = "、".join(dict.fromkeys(_table_name(m) for m, _ in need[:5])) + ("等" if len(need) > 5 else "")
        at = need[0][1].cells.get(first.label) if first.label in need[0][1].cells else None
        names = "、".join(f"工作表“{n}”" for n in copies)
        self.issues.add("SHEET_RENAMED",
                        f"{self.ev.name} 第{ctx.rnd.round}轮：成绩表《{rec.file_name}》里没有“{detail.name}”工作表"
                        + (f"，{names}都是{detail.name}表格、都没有填写逐局记录，不知道哪一张是“{detail.name}”，都没有读取"
                           if copies else "（被删除，或改了工作表名和表头，认不出来）")
                        + f"：{tables}的“{first.label}”等栏空着，本可由"
                        f"“{detail.name}”逐局算出，现在无法计分。请把逐局记录填在名为“{detail.name}”的工作表中"
                        f"（用下发的成绩表，不要改工作表名和表头），或在“{layout.RESULT_SHEET}”工作表补填这些栏，"
                        "然后重新发送。",
                        at=at or CellRef(rec.file_name, layout.RESULT_SHEET))

    def _read_sheet(self, ctx: _RoundSheets, rec: Received, book: Any, about: dict[int, tuple]) -> None:
        """One result workbook of the round (:meth:`read_results`): its rows into
        ``ctx.chosen``, its problems into ``self.issues`` (the table each is about into
        ``about``, by the problem's place in ``self.issues``)."""
        from . import layout
        from .games.base import ResultRow
        from .ingest.sheets import adopt_renamed_detail_sheet, key_of, read_details, read_results
        from .ingest.workbook import cell_text
        from .issues import shorten_message

        rnd, labels, sides, matches, byes, chosen = ctx.rnd, ctx.labels, ctx.sides, ctx.matches, ctx.byes, ctx.chosen
        if str(book.meta.get(layout.META_DRAW_HASH, "")) != rnd.input_hash:
            # a new output folder drew again what another one had published (the ledger
            # lives in the output folder): the sheets played on that draw no longer fit
            # (or it was sent before the round was drawn: a sheet of another draw, or a copy)
            where = ("这一轮是本次运行才抽出的，这份成绩表却不是按它下发的：如果是在本轮抽签之前寄来的，请用本轮下发的"
                     "成绩表重新填写后发送；如果以前用别的输出文件夹（--out）运行过并公布过这一轮，请改回原来的"
                     "输出文件夹再运行（已公布的对阵记录 ledger.sqlite 在那里）。"
                     if rnd.round in self.published_now else "请使用本轮下发的成绩表。")
            # (a draw the office voided in tournament.yaml: DRAWN_ELSEWHERE's way out, not the
            # office's to act on again)
            gone = voided(str(book.meta.get(layout.META_DRAW_HASH, "")), self.ev.voided_draws)
            self.issues.add("TEMPLATE_MISMATCH",
                            f"成绩表《{rec.file_name}》不是 {self.ev.name} 第{rnd.round}轮当前抽签下发的表"
                            f"（抽签摘要不符）。" + ("它所按的那次抽签已在 tournament.yaml 的 voided_draws 中作废，"
                                                 "不再读取（文件仍保存在输出文件夹的 received/ 中），无需处理。" if gone else where),
                            at=CellRef(rec.file_name, layout.RESULT_SHEET), severity=Severity.INFO if gone else None)
            return
        rows, found = read_results(book, rec.file_name, [*labels, *ctx.sign_labels, layout.REFEREE_SIGNATURE, *sides],
                                   [*layout.RESULT_KEY_COLUMNS, *sides, *(c.label for c in ctx.columns if c.required)],
                                   results=labels)
        # an error cell of a drawn table's row is that table's problem (it waits for a correction,
        # and a later sheet correcting the table settles it)
        keyed = [(key_of(row.values), row) for row in rows]     # each row's (round, group, table), once
        table_at = {(c.file, c.sheet, c.cell): matches[key].key for key, row in keyed if row.errors
                    and key in matches for c in (row.cells[l] for l in row.errors)}
        for n, i in enumerate(found, len(self.issues)):
            if (i.file, i.sheet, i.cell) in table_at:
                about[n] = table_at[(i.file, i.sheet, i.cell)]
        self.issues.extend(found)
        if not any(i.code == "TEMPLATE_MISMATCH" for i in found):
            ctx.read_fine.append(rec)
        detail = ctx.detail
        footers: list[Issue] = []       # 明细's 合计/签名 lines: notes
        # 明细 renamed (明细表, Sheet2): the one sheet holding its table read as it, said
        # (SHEET_RENAMED); several, one with deals: said, none read (R2016-C1)
        renamed = adopt_renamed_detail_sheet(book, rec.file_name, detail.name, [c.label for c in detail.columns],
                                             [c.label for c in detail.columns if c.required]) \
            if detail is not None else []
        detail_unread = bool(renamed) and book.sheet(detail.name) is None
        sheet_details = read_details(book, rec.file_name, detail.name, [c.label for c in detail.columns], footers) \
            if detail is not None else {}
        self.issues.extend(renamed)
        self.issues.extend(footers)
        if detail is not None and book.sheet(detail.name) is None and not detail_unread:
            from .ingest.sheets import detail_sheet_holders
            from .xlsx.results import META_DETAIL_SHEET

            copies = [ws.name for ws in detail_sheet_holders(book, [c.label for c in detail.columns],
                                                             [c.label for c in detail.columns if c.required])]
            # (a workbook issued without one — an earlier version's, a game whose sheet had none
            # then — was never told of it: its blank levels are asked for by RESULT_INVALID alone)
            if len(copies) > 1 or book.meta.get(META_DETAIL_SHEET):
                self._detail_missing(ctx, rec, book, keyed, copies if len(copies) > 1 else [])
        seen: dict[tuple, tuple[int, tuple, Any]] = {}     # (table, 牌号) → (its first row, its results, its line's values)
        # second lines of a table (a board) typed otherwise than its first line on this sheet:
        # one result or two, as the game reads them once the sheet is read (one_row_per_table)
        twice: list[_Twice] = []
        # the drawn tables this sheet fills, by group: a table it leaves blank that an earlier
        # sheet filled is said when the sheet fills another table of that group (a resend of
        # that part of the sheet; another group's referee fills only his own rows)
        fills: dict[str, set[tuple]] = {}
        rewritten: set[tuple] = set()       # the tables whose results this sheet changed (a correction)
        taken: set[tuple] = set()           # the tables this sheet's rows now answer for
        for key, row in keyed:
            m = matches.get(key)
            if m is not None and (not row_blank(row, ctx.columns) or sheet_details.get(key)):
                fills.setdefault(m.group or "", set()).add(m.key)
        # two referees who split a round's tables, each on a fresh copy: A fills 1–5 and sends,
        # B fills 6–11 and leaves 1–5 blank.  B's blank tables are the ones A filled, and B fills
        # only tables A left blank — a split, not a resend of A's part: nothing to say about the
        # tables B leaves blank (RESULT_LEFT_BLANK ×5 was said, exit 1).  So a later sheet is a
        # split when no earlier sheet that filled a table it leaves blank filled a table it fills.
        # Nor is a sheet that fills again only tables the earlier rows left unscored (R2016-F4:
        # the office asks for 第4桌, whose "10级" is no level, and the referee fills just that
        # table on a fresh copy — its other blank rows were RESULT_LEFT_BLANK ×4, exit 1): a
        # correction of those tables, not a resend of the part scored
        mine = set().union(*fills.values())
        got = aware(rec.received_at)
        apart = [f for r, f in ctx.sheet_fills if aware(r.received_at) < got and not f <= mine]
        ctx.scored = ctx.unread = None
        ctx.before = {}
        split = bool(apart) and not (mine & set().union(*apart) & self.scored_so_far(ctx))
        ctx.sheet_fills.append((rec, frozenset(mine)))
        said_blank = {} if split else fills          # (what left_blank compares a blank row with)
        sheet_blank = bool(rows) and not fills and not sheet_details and not detail_unread and \
            all(row.values.get(label) in (None, "") for row in rows for label in labels)
        if sheet_blank:
            # the blank sheet as issued (a referee attached the wrong file): not a value in
            # its result columns, and nothing else said it — the round simply waited (还差 N 桌)
            got = f"{cn_when(rec.received_at)} 收到"
            signs = [*ctx.sign_labels, layout.REFEREE_SIGNATURE]
            signed = next((row for row in rows if any(row.values.get(l) not in (None, "") for l in signs)), None)
            if signed is not None:
                # signed, but no result typed where it is read (a forfeit written in a note
                # column the referee added was called 发错了文件, and dropped without a word)
                where = "、".join(f"“{c.label}”" for c in ctx.columns if c.required) or "成绩"
                self.issues.add("RESULT_SHEET_BLANK",
                                f"{self.ev.name} 第{rnd.round}轮：成绩表《{rec.file_name}》（{got}）已有签名（第 {signed.row} 行），"
                                f"但{where}栏一桌也没有填，未计入：成绩（包括弃权、缺席）只从这些栏读取，写在备注或"
                                "其他栏里的不算。请裁判在这些栏填好后重新发送。",
                                at=CellRef(rec.file_name, layout.RESULT_SHEET))
            else:
                self.issues.add("RESULT_SHEET_BLANK",
                                f"{self.ev.name} 第{rnd.round}轮：成绩表《{rec.file_name}》（{got}）一桌成绩也没有填，未计入："
                                "多半是发错了文件（发来的是下发的空白表）。请裁判把填好的成绩表重新发送。",
                                at=CellRef(rec.file_name, layout.RESULT_SHEET))
        def said_conflict(m: Match, rkey: tuple, prev: tuple[Received, Any], rr: Any, corrects: bool,
                          replaced: list[_Replaced] | None) -> Issue:
            """RESULT_CONFLICT of table ``m``'s row ``rr`` of this sheet, which differs from
            the one taken before (``prev``; ``replaced``: the rows that one replaced)."""
            apart = _told_apart(prev[0], rec)

            def when(r: Received) -> str:
                return f"{cn_when(r.received_at)} 收到" + apart.get(r.sha256, "")
            # a sheet received later is the referee's correction, taken as the handbook
            # says: a note, not an error that would stay in every night's list (the
            # ledger keeps both sheets); two sheets received at once disagree for real,
            # and the table waits for a sheet that settles it
            conflict = self.issues.add("RESULT_CONFLICT",
                            f"{self.ev.name} 第{rnd.round}轮 {_table_name(m)}：《{prev[0].file_name}》"
                            f"（{when(prev[0])}）与《{rec.file_name}》（{when(rec)}）填写的成绩不一致，"
                            + (f"按更正处理，采用较晚收到的一份（{when(rec)}）。" if corrects else
                               "两份同时收到，无法判断哪一份是更正：这一桌暂不计成绩（下一轮要等这一桌）。"
                               "请裁判核对后重发正确的一份（与已收到的一份完全相同的文件算作重复，"
                               "请在 Excel/WPS 中打开、保存后再发送）。" if ctx.holds else
                               f"两份同时收到，暂采用《{rec.file_name}》：请裁判核对后重发正确的一份。"),
                            at=rr.at(_first_change(prev[1], rr, labels, ctx.columns, self.game)),
                            severity=Severity.INFO if corrects else None)
            if corrects:
                rewritten.add(rkey)
                first = _took(replaced)
                if first is not None:
                    # a correction of a correction: the note that took the row now
                    # replaced said it was taken (采用较晚收到的一份) — it no longer is
                    # (fall_back rewrites it again should this one be set aside)
                    ctx.rewritten[id(first)] = dataclasses.replace(first, message=shorten_message(
                        f"{first.message.split('填写的成绩不一致', 1)[0]}填写的成绩不一致；其后又收到"
                        f"《{rec.file_name}》（{when(rec)}），这一桌以最晚收到的一份为准（见下一条）。"))
            return conflict

        # rows of this sheet typed differently from the earlier row of their table, with that
        # row, whether they are its correction (received later) and whether they only filled
        # its blanks: a conflict when the result the game reads from them differs (said once
        # the sheet is read: pending)
        pending: list[tuple[tuple, tuple[Received, Any], bool, bool]] = []
        filled_rows: list[int] = []     # the sheet's filled rows, counted once (for _WrongRound)
        for key, row in keyed:
            m = matches.get(key)
            if m is None:
                filled = not row_blank(row, ctx.columns)
                if key in byes and filled:
                    # nobody played there: what was typed counts for nothing, and is said so
                    self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮成绩表第 {row.row} 行是轮空（不比赛），"
                                    "这一行填写的成绩未计入；轮空按规则计分，不需要填写。",
                                    at=row.cells.get(next(l for l in labels if row.values.get(l) not in (None, ""))),
                                    severity=Severity.INFO)
                    continue
                if key not in byes and filled:
                    rd, grp, table = (quoted(x) for x in key)      # (as typed: a few dozen characters of it)
                    named = [quoted(cell_text(row.values.get(s))) for s in sides if row.values.get(s) not in (None, "")]
                    named_as = f"（这一行填的是{'对'.join(f'“{n}”' for n in named)}）" if named else ""
                    if key[0] and key[0] != str(rnd.round) and (str(rnd.round), *key[1:]) in matches:
                        # the 轮次 (or the sheet) is wrong, not the table: a sheet of another
                        # round reused, or one row's 轮次 mistyped
                        other = next((r for r in self.rounds if str(r.round) == key[0]), None)
                        said = self.issues.add("RESULT_INVALID",
                                        f"{self.ev.name} 第{rnd.round}轮成绩表第 {row.row} 行：轮次填的是 {rd}，但这是第{rnd.round}轮"
                                        f"的成绩表{named_as}，这一行的成绩未计入。"
                                        + (f"第{rd}轮的成绩请填在第{rd}轮下发的成绩表（results/{self.ev.id}-r{rd}-成绩表.xlsx）上"
                                           "发送；" if other is not None else "")
                                        + f"如这一行是第{rnd.round}轮的成绩，把轮次改为 {rnd.round} 后重新发送即可。",
                                        at=_wrong_key_cell(row.cells, key, rnd.round, matches.values()))
                        if other is not None:
                            if not filled_rows:
                                filled_rows.append(sum(1 for _, r in keyed if not row_blank(r, ctx.columns)))
                            self._wrong_round.append(_WrongRound(
                                said, rec, other, key, _board_key(row.values.get("牌号")), _row_values(row, labels),
                                tuple(row.values.get(s) for s in sides), ctx.shown,
                                matches[(str(rnd.round), *key[1:])], rnd, filled_rows[0]))
                        continue
                    self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮成绩表第 {row.row} 行：轮次 {rd or '（空）'}"
                                    f"{f'、组别 {grp}' if grp else ''}、桌号 {table or '（空）'} 不是本轮抽签中的桌"
                                    f"（本轮为{_drawn_tables(matches.values())}）{named_as}，"
                                    "这一行的成绩未计入。请对照抽签表改正轮次、组别和桌号。",
                                    at=_wrong_key_cell(row.cells, key, rnd.round, matches.values()))
                continue
            mark = len(self.issues)
            try:
                if not self.check_sides(m, row, sides, rnd, ctx.shown) or \
                        not self.one_row_per_table(m, row, seen, rnd, labels, sides, ctx, twice):
                    continue
                self.check_partners(m, row, ctx.sign_labels, rnd, ctx.players, ctx.columns)
                rr = ResultRow(match=m, values={l: row.values.get(l) for l in [*labels, "牌号"]}, cells=row.cells)
                if row_blank(rr, ctx.columns) and not sheet_details.get(key):
                    said = len(self.issues)
                    if row.merged:
                        self.merged_from_above(m, row, ctx)
                    if len(self.issues) == said:
                        self.left_blank(m, rr.values.get("牌号"), rec, ctx, said_blank, rr.at(labels[0]))
                    # a result cell holding an error value or a formula without a saved value
                    # reads as blank, but it was filled: said at that cell (RESULT_INVALID, before
                    # the loop), never also as signed and left blank (“请删去这一行的签名”)
                    if len(self.issues) == mark and not sheet_blank and \
                            not any(l in row.errors for l in labels) and \
                            (m.key, _board_key(row.values.get("牌号"))) not in chosen:
                        self.signed_blank(m, row, rec, ctx, book, rr.at(labels[0]))
                    continue        # not played yet (a row with hands on the detail sheet is: its totals come from them)
                rkey = (m.key, _board_key(row.values.get("牌号")))
                prev = chosen.get(rkey)
                corrects = prev is not None and aware(rec.received_at) > aware(prev[0].received_at)
                conflict = None
                was_disputed = rkey in ctx.disputed      # the earlier row's standing, kept with it
                differs = prev is not None and _row_values(prev[1], labels) != _row_values(rr, labels)
                typed_apart = differs       # (the earlier row's result is read below: kept with it)
                if differs and corrects and _fills_in(prev[1], rr, ctx.columns, self.game):
                    # only cells the earlier row left blank are filled (the 加赛胜者 a
                    # PLAYOFF_REQUIRED asked for): no disagreement and no correction when the
                    # earlier row gave no result, or the game reads the table as before — the
                    # later row is taken without a word, as the same row sent again is.  A blank
                    # filled that changes the result (双扣 甲方警告 3: 甲 loses) is a correction:
                    # said once the sheet is read, by the round read once more (pending)
                    self.unread_so_far(ctx)         # (ctx.before: the results so far, read once per sheet)
                    if m.key in ctx.before:
                        pending.append((rkey, prev, True, True))
                    differs = False
                if differs and corrects and rkey in self.unread_so_far(ctx):
                    # the earlier row was never read (RESULT_INVALID: 黑中盘胜 where 甲胜 or 乙胜
                    # was asked for): no result is changed, the later row is the correction its
                    # error asked for — no conflict, nor a table RESULTS_REWRITTEN counts (3
                    # refused rows re-sent fixed were 改动了已有成绩中的 3 桌, exit 1)
                    differs = False
                if differs:
                    # typed differently (黑中盘胜 / 甲胜, PASS / 0, 10级 / 10): a conflict only
                    # when the game reads another result — said once the sheet is read, by the
                    # round read once more (pending), against the results so far (ctx.before)
                    self.unread_so_far(ctx)
                    pending.append((rkey, prev, corrects, False))
                if prev is not None:
                    # kept whether the row differs or not: the same totals sent again with a bad
                    # 明细 row are no more a correction than differing ones (RESULT_CONFLICT:
                    # 仍按较早的一份计分) — they had wiped the table's accepted result
                    ctx.replaced.setdefault(rkey, []).append(_Replaced(
                        prev[0], prev[1], ctx.error_cells.get(rkey, frozenset()), ctx.merged_cells.get(rkey, {}),
                        was_disputed, conflict, ctx.details.get(m.key),
                        ctx.before.get(m.key) if typed_apart and ctx.unread is not None else None))
                if corrects or prev is None:
                    ctx.disputed.discard(rkey)
                chosen[rkey] = (rec, rr)
                taken.add(m.key)
                ctx.error_cells[rkey] = frozenset((c.file, c.sheet, c.cell) for c in (row.cells[l] for l in row.errors))
                ctx.merged_cells[rkey] = {(c.file, c.sheet, c.cell): note for c, note in
                                          ((row.cells[l], note) for l, note in row.merged.items())}
            finally:
                for n in range(mark, len(self.issues)):
                    about[n] = m.key
        if twice:
            self.read_twice(ctx, rec, twice, labels, about)
        if pending:
            # the round as this sheet's rows read, once (only when a row was typed differently):
            # handbook RESULT_CONFLICT / RESULTS_REWRITTEN — two rows of a table differ when what
            # the game reads from them differs (winner, scores, levels, reason).  A result
            # written by colour re-sent as the dropdown's choice (黑中盘胜 → 甲胜), or a blank
            # filled in that leaves the result as it was, is the same row sent again: no
            # conflict, no correction counted, and two such sheets received at once do not hold
            # the table.  A changed result (a blank filled in that changes it too: 双扣 甲方警告 3)
            # is a correction — RESULT_CONFLICT 按更正处理, counted by RESULTS_REWRITTEN — or,
            # received at once, a disagreement; a row the game cannot read (now no result) is
            # one as well (fall_back may set it aside).  A row that only filled blanks (乙方警告 1,
            # a 原因 added) changes the table when the sides' outcomes, points or scores change;
            # another changed row also when the reason or the levels, boards … kept do (_read_alike)
            after = {r.match.key: r for r in self.parse_taken(ctx)[2]}
            for rkey, prev, corrects, filled in pending:
                now_rec, rr = chosen[rkey]
                if now_rec is not rec or not ctx.replaced.get(rkey):
                    continue
                was, now = ctx.before.get(rkey[0]), after.get(rkey[0])
                if was is not None and now is not None and \
                        (now.sides == was.sides if filled else _read_alike(was, now)):
                    continue
                mark = len(self.issues)
                conflict = said_conflict(rr.match, rkey, prev, rr, corrects, ctx.replaced[rkey][:-1])
                ctx.replaced[rkey][-1] = dataclasses.replace(ctx.replaced[rkey][-1], conflict=conflict)
                if not corrects and ctx.holds:
                    ctx.disputed.add(rkey)
                for n in range(mark, len(self.issues)):
                    about[n] = rkey[0]
        self.rows_deleted(ctx, rec, keyed, said_blank, about)
        if rewritten:
            ctx.corrections.append((rec, rewritten))    # said once the round is read (rewritten_round)
        if detail is not None:
            # a table this sheet answers for takes its 明细 rows from this sheet — none when it
            # has none (the detail is optional): a corrected sheet that cleared a bad 明细 row
            # left the earlier sheet's in force, and the table waited for a correction for good
            for k in taken:
                ctx.details.pop(k, None)
            for key, drows in sheet_details.items():
                m = matches.get(key)
                if m is not None:
                    ctx.details[m.key] = drows
                elif key not in byes:
                    first = drows[0]
                    self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮“{detail.name}”第 {first['_row']} 行起："
                                    f"轮次 {quoted(key[0]) or '（空）'}{f'、组别 {quoted(key[1])}' if key[1] else ''}、桌号 {quoted(key[2]) or '（空）'}"
                                    f" 不是本轮抽签中的桌，这 {len(drows)} 行明细未使用。请对照抽签表改正。",
                                    at=first["_cells"].get("桌号"), severity=Severity.WARNING)

    def signed_blank(self, m: Match, row: Any, rec: Received, ctx: _RoundSheets, book: Any, at: CellRef) -> None:
        """Handbook RESULT_SIGNED_BLANK: a drawn table's row with no result typed but a
        player's signature filled — the table was played and signed, its result left out
        (the winner written in a 胜者 column the referee added, 结果 blank).  It was read as
        a table not played yet: RESULT_MISSING "还差 1 桌成绩未交" (info, no cell), the office
        told the sheet never came.  Said at the row's first result cell ``at`` (a warning the
        night it is first seen, as RESULT_SHEET_BLANK: the table simply waits), naming the
        columns to fill, their choices, and what the row's other filled cells (an added
        column) say.  Only when nothing else was said of the row and no earlier sheet's row
        is taken for the table (that one counts: RESULT_LEFT_BLANK's case); a sheet signed
        with nothing in its result columns at all is RESULT_SHEET_BLANK.  A row only the
        referee signed (signed in advance) is not taken for a played table."""
        from . import layout
        from .games.common import as_listed, sheets_in, where
        from .ingest.sheets import other_cells
        from .ingest.workbook import cell_text

        signed = [l for l in [*ctx.sign_labels, layout.REFEREE_SIGNATURE] if row.values.get(l) not in (None, "")]
        if not set(signed) & set(ctx.sign_labels):
            return
        required = [c for c in ctx.columns if c.required] or list(ctx.columns[:1])
        cols = "、".join(f"“{c.label}”" for c in required) or "成绩"
        choice = next((c for c in required if c.kind == "choice" and c.choices), None)
        with sheets_in(self.t.spec.script):
            pick = f"（{as_listed(*choice.choices)}）" if choice is not None else ""
        if choice is not None and len(required) == 1:
            fill = f"在{cols}栏选择这一桌的结果{pick}"
        else:
            fill = f"在{cols}栏填写这一桌的成绩{pick}"
        read = [*ctx.labels, *ctx.sign_labels, layout.REFEREE_SIGNATURE, *ctx.sides]
        heads = [*layout.RESULT_KEY_COLUMNS, *ctx.sides, *(c.label for c in ctx.columns if c.required)]
        found = []
        for head, value, _ in other_cells(book, row.row, read, heads)[:3]:
            text = cell_text(value).strip()
            side = [s for s in ctx.sides if text and text in cell_text(row.values.get(s) or "")]
            found.append(f"“{quoted(head) or '（无标题）'}”栏写的是“{quoted(text)}”"
                         + (f"（{side[0]}）" if len(side) == 1 else ""))
        elsewhere = (f"这一行{'，'.join(found)}，但成绩只从{cols}栏读取，写在其他栏里的不算。" if found else "")
        self.issues.add("RESULT_SIGNED_BLANK",
                        f"{self.ev.name} {where(m)}：成绩表《{rec.file_name}》第 {row.row} 行已有签名"
                        f"（{'、'.join(signed)}），但{cols}没有填写，这一桌暂不计成绩。{elsewhere}"
                        f"请裁判{fill}后重新发送；如这一桌确未比赛，请删去这一行的签名。",
                        at=at, severity=Severity.WARNING)

    def left_blank(self, m: Match, board_no: Any, rec: Received, ctx: _RoundSheets, fills: dict[str, set[tuple]],
                   at: CellRef, deleted: bool = False) -> None:
        """Handbook "较晚收到的一份为准": a blank row is a table not played yet, and a
        referee of one group sends the sheet with only his group's rows filled — so a later
        sheet's blank row does not clear what an earlier sheet filled.  When that later sheet
        fills another table of the same group, though, it is a resend of that part of the
        sheet, and the table it leaves blank is still scored from the earlier sheet: said
        (RESULT_LEFT_BLANK, a warning at ``at``: the blank row's result cell), not silently
        kept.  ``deleted``: the later sheet has no row for the table at all (:meth:`rows_deleted`).
        The result quoted is the one counted (R2016-C1: levels from the 明细); a table the earlier
        row left unscored (:meth:`scored_so_far`) is not said — its own problem is.

        Not said of a split (``fills`` then empty, :meth:`_read_sheet`): two referees sharing
        a round of no groups, each on a fresh copy — a later sheet whose blank tables were
        filled by earlier sheets none of whose tables it fills."""
        from .games.common import where

        labels = ctx.labels
        prev = ctx.chosen.get((m.key, _board_key(board_no)))
        if prev is None or aware(rec.received_at) <= aware(prev[0].received_at) \
                or not (fills.get(m.group or "", set()) - {m.key}) or m.key not in self.scored_so_far(ctx):
            return      # (a row not scored: its own problem stays, and says what to do)
        # the result as counted: a row whose levels come from its 明细 quoted "的成绩（）", or
        # only the 台上方 typed beside them (R2016-C1)
        (counted,) = self.as_counted(ctx, [prev[1]])
        earlier = "、".join(f"{l} {quoted(v)}" for l, v in zip(labels, _row_values(counted, labels)) if v)
        board = f"（牌号 {board_no}）" if board_no not in (None, "") else ""
        row = "".join(ch for ch in prev[1].at(labels[0]).cell if ch.isdigit())
        gap = ("这一桌没有填写成绩" if not deleted else
               f"没有这一桌的一行（{f'较早的一份在第 {row} 行；' if row else ''}这一行被删除了，或桌号改动了）")
        self.issues.add("RESULT_LEFT_BLANK",
                        f"{self.ev.name} {where(m)}{board}："
                        f"较晚收到的《{rec.file_name}》（{_received(rec)}）{gap}，"
                        f"仍按较早收到的《{prev[0].file_name}》（{_received(prev[0])}）的成绩（{earlier}）计分。"
                        "如这个成绩有误，请裁判在新的一份成绩表上填好这一桌的正确成绩后重新发送"
                        + ("（不要删除表中的行）" if deleted else "") +
                        "；如这一桌尚未比赛，请赛事办公室决定如何处理。",
                        at=at, severity=Severity.WARNING)

    def as_counted(self, ctx: _RoundSheets, rows: list[Any]) -> list[Any]:
        """``rows`` (taken rows of the round) as the game reads them: a row's totals computed
        from its table's 明细 rows taken so far (:meth:`totals_from_details`), the problems
        found doing so not said (the round's reading says them)."""
        from .games.common import sheets_in

        log, self.issues = self.issues, IssueLog()
        try:
            with sheets_in(self.t.spec.script):
                return self.totals_from_details(ctx, list(rows))
        finally:
            self.issues = log

    def scored_so_far(self, ctx: _RoundSheets) -> set[tuple]:
        """The match keys of the tables the rows taken so far score (the game's reading of the
        round as :meth:`parse_taken` does it, the problems found not said: the round's reading
        says them), read at most once per sheet (``ctx.scored``, reset by :meth:`_read_sheet`)
        when first needed: before its rows are taken when it may be a split, else at its first
        blank row said of (the blank tables' rows are still the earlier sheets').  A table whose row has an error, a bad level (R2016-F4: "10级"),
        or totals that do not add up is not scored: a later sheet filling only such tables is a
        correction, not a resend (:meth:`_read_sheet`), and a resend leaving one blank has no
        result of it to say still counts (:meth:`left_blank`)."""
        if ctx.scored is None:
            ctx.scored = {r.match.key for r in self.parse_taken(ctx)[2]}
        return ctx.scored

    def unread_so_far(self, ctx: _RoundSheets) -> set[tuple]:
        """Handbook RESULT_CONFLICT / RESULTS_REWRITTEN: the (match key, 牌号) whose taken row
        leaves its table without a result through a problem of its own (:meth:`unreadable`: a
        value not in the list, an error value, totals that do not add up), as the rows taken
        so far read (:meth:`parse_taken`, the problems not said).  A later sheet's row for one
        of them changes no result: it is the correction, not a conflict (:meth:`_read_sheet`).
        Read at most once per sheet (``ctx.unread``, reset by :meth:`_read_sheet`), when
        first needed: at its first row differing from the earlier one, whose rows are still
        the earlier sheets' (a table's rows are replaced one at a time)."""
        if ctx.unread is None:
            rows, hands, results, found = self.parse_taken(ctx)
            ctx.before = {r.match.key: r for r in results}
            ctx.unread = {rkey for rkey, rr in rows.items() if rkey[0] not in ctx.before
                          and self.unreadable(ctx, rkey, rr, hands, found) is not None}
        return ctx.unread

    def rows_deleted(self, ctx: _RoundSheets, rec: Received, keyed: list[tuple[tuple, Any]],
                     fills: dict[str, set[tuple]], about: dict[int, tuple]) -> None:
        """A later sheet with a drawn table's row deleted (not blanked) leaves the table as a
        blank row does — scored from the earlier sheet — and is said the same way
        (:meth:`left_blank`), at the sheet: the row is not there to point at.  It had been
        kept without a word.  Only a row missing between rows the sheet keeps (of its group):
        two referees who split a round's tables each delete the other's rows, a run of them
        at the top or the bottom of the table, and neither sheet takes anything away."""
        from . import layout

        kept_rows = [(ctx.matches[key], row) for key, row in keyed if key in ctx.matches]
        here = {(m.key, _board_key(row.values.get("牌号"))) for m, row in kept_rows}
        span: dict[str, tuple[int, int]] = {}
        for m, _ in kept_rows:
            lo, hi = span.get(m.group or "", (m.table, m.table))
            span[m.group or ""] = (min(lo, m.table), max(hi, m.table))

        def gone(rkey: tuple, prr: Any) -> bool:
            lo, hi = span.get(prr.match.group or "", (0, -1))
            return rkey not in here and lo < prr.match.table < hi
        # (the few rows gone, sorted — not every row an earlier sheet gave, for each sheet)
        missing = [(rkey, prr) for rkey, (_, prr) in ctx.chosen.items() if gone(rkey, prr)]
        for rkey, prr in sorted(missing, key=lambda x: (x[1].match.group or "", x[1].match.table,
                                                        str(x[1].values.get("牌号")))):
            mark = len(self.issues)
            self.left_blank(prr.match, prr.values.get("牌号"), rec, ctx, fills,
                            CellRef(rec.file_name, layout.RESULT_SHEET), deleted=True)
            for n in range(mark, len(self.issues)):
                about[n] = prr.match.key

    def merged_from_above(self, m: Match, row: Any, ctx: _RoundSheets) -> None:
        """A drawn table's row read as blank because its result cells are merged with the row
        above (only a merged range's first cell keeps a value): said at the first such cell,
        as the table's problem — it was taken for a sheet not yet sent (还差 1 桌成绩未交)."""
        from .games.common import where
        from .ingest.sheets import UNMERGE, merged_note

        covered = [l for l in ctx.labels if l in row.merged
                   and row.merged[l][1].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") != str(row.row)]
        if not any(c.required and c.label in covered for c in ctx.columns):
            return
        notes = "；".join(merged_note(row.cells[l].cell, *row.merged[l], advice=False) for l in covered)
        self.issues.add("RESULT_INVALID", f"{where(m)}：这一行的{'、'.join(f'“{l}”' for l in covered)}在合并单元格里"
                        f"（{notes}）：{UNMERGE.rstrip('。')}（这一桌还没有比赛的话，取消合并后把这一行的成绩清空）。",
                        at=row.cells[covered[0]])

    def waiting_for(self, open_rounds: list[tuple[Round, list[Match]]]) -> None:
        """What the event waits for while tables of its published rounds have no result —
        each round with such tables, in order, as ``(round, its tables)``: the sheets not in
        yet (RESULT_MISSING lists them), and the tables whose row came but could not be
        counted — a tie at the table waiting for its 加赛胜者, a row with a problem (said where
        it is), two sheets that disagree.  Mostly the last round; an earlier round's table
        only when its result was lost after the next round was drawn (its sheet read again
        under a changed game option, a stricter check): said the same way, before the last
        round's, so the status line names that round and table and why."""
        name = _table_name
        kinds = {"加赛": "需加赛", "有误": "成绩有误待改正", "未填": "已签名但未填成绩", "不一致": "两份成绩不一致",
                 "两行": "在同一份成绩表中填了两行、成绩不一致",
                 "待齐": "待各桌成绩齐后计分"}
        said = []
        for rnd, missing in open_rounds:
            unsent = [m for m in missing if m.key not in self.unscored]
            held = [m for m in missing if m.key in self.unscored]
            line = f"等待{rnd.title}成绩：还差 {len(missing)} 桌"
            if held:
                told = "、".join(f"{name(m)}{kinds[self.unscored[m.key]]}" for m in held[:5])
                line += f"（已收到但未计分：{told}{' 等' if len(held) > 5 else ''}）"
            said.append(line)
            if unsent:
                tables = "、".join(name(m) for m in unsent[:30])
                self.issues.add("RESULT_MISSING", f"{self.ev.name} {rnd.title}还差 {len(unsent)} 桌成绩未交："
                                f"{tables}{' 等' if len(unsent) > 30 else ''}。裁判填好成绩表"
                                f"（results/{self.ev.id}-r{rnd.round}-成绩表.xlsx）放进收件箱后再运行。")
        self.waiting = "；".join(said)

    def one_row_per_table(self, m: Match, row: Any, seen: dict[tuple, tuple[int, tuple, Any]], rnd: Round,
                          labels: list[str], sides: Sequence[str] = (), ctx: _RoundSheets | None = None,
                          twice: list[_Twice] | None = None) -> bool:
        """A table's result is filled once per sheet (per 牌号 for board-by-board games): a
        second filled row with the same 桌号 whose sides are not both written — a mistyped
        table number, its sides cleared — is RESULT_INVALID and not counted (the first
        stands; the table it belongs to stays open).

        A second row naming the table's own drawn sides (甲方 and 乙方 written on both lines,
        and :meth:`check_sides` passed them: they are this table's) with another result is no
        mistyped 桌号: the sheet says two results for one table and nothing tells which is
        right.  RESULT_CONFLICT at the second line's first differing cell, naming both rows
        and their values, held as two sheets received at once are (handbook RESULT_CONFLICT):
        the table is not scored while its round is the last drawn (``ctx.holds``, the next
        round waits; the first line had been counted and the next round drawn on it), and a
        later sheet with one line settles it; in an earlier round the first line counts.

        A board game's row (桥牌: a table's rows differ by 牌号) whose 牌号 is the table's
        again has the right 桌号 and a repeated 牌号: said at the 牌号 cell, naming the board
        and the table (it was said at the 桌号, "请核对这一行的桌号").  The same result twice
        counts once and is a note, in either kind of game — the score was counted, and the
        sheet was an error (exit 1) for a copied line; different results are the error "牌号 N
        出现两次且得分不同" (a board) or RESULT_CONFLICT (:meth:`table_twice`).  The same result
        means every result cell (``labels``, the game's columns: 台上方, 过A方, 原因, 弃权 …)
        alike, with both lines naming the table's drawn sides (``sides`` filled in, and
        :meth:`check_sides` passed them): a line whose 桌号 was mistyped, its sides cleared, is
        no copy though a 象棋 result (乙胜) is often another table's too.  Other cells (a
        signature) may differ: the note names them, at the first of them (a copy with only a
        signature changed was RESULT_CONFLICT listing the same levels twice, and held the next
        round).  On a board game the copy is a warning: a board's line given another board's
        牌号 looks alike.

        Handbook RESULT_CONFLICT (以程序读出的成绩为准): two lines typed otherwise (象棋 “乙胜”
        and “0-1”, 桥牌 0 and “PASS”), both naming the table's sides, are compared as two
        sheets' rows are — by the result the game reads from each (:func:`_read_alike`), once
        the sheet is read (``twice``: :meth:`read_twice`): the same result counts once (the note
        above), another is the error.  Without ``twice`` they are compared as typed.  A 0 is
        typed “0” (it was read as blank: “第 9 行（空）”, and 0 and a blank cell alike)."""
        if all(row.values.get(l) in (None, "") for l in labels if l != "牌号"):
            return True         # (a 牌号 may be pre-printed: a row with no score is not filled)
        board = _board_key(row.values.get("牌号")) if "牌号" in labels else ""
        typed = tuple(_typed(row.values.get(l)) for l in labels)
        first, first_typed, first_values = seen.setdefault((m.key, board), (row.row, typed, row.values))
        if first == row.row:
            return True

        def named(values: Mapping[str, Any]) -> bool:
            return bool(sides) and all(str(values.get(l) or "").strip() for l in sides)

        def whole(values: Mapping[str, Any]) -> dict[str, str]:     # (the line: asked only of a second one)
            return {str(k): str(v if v is not None else "").strip() for k, v in values.items()}
        # the same result cells (``labels``: all that decides the result — 台上方, 过A方, 原因,
        # 弃权 …) on two lines both naming the table's sides: one result, whatever else differs
        same = first_typed == typed and named(row.values) and named(first_values)
        a, b = whole(first_values), whole(row.values)
        other = [k for k in dict.fromkeys([*b, *a]) if a.get(k, "") != b.get(k, "")] if same else []
        also = f"两行得分相同（只有{'、'.join(other)}不同）" if other else "两行完全相同"
        head = f"{self.ev.name} 第{rnd.round}轮 {_table_name(m)}："
        if twice is not None and ctx is not None and first_typed != typed and named(row.values) and \
                named(first_values) and (board and row.cells.get("牌号") is not None or
                                         not row_blank(_Values(values=first_values), ctx.columns)):
            # typed otherwise: read once the sheet is read, as between sheets (read_twice)
            twice.append(_Twice(m, row, first, first_typed, typed, board))
            return False
        if board and row.cells.get("牌号") is not None:
            if same:
                self.issues.add("RESULT_INVALID", f"{head}牌号 {board} 在本表第 {first} 行已经填写，第 {row.row} 行"
                                f"又填了一次，{also}，按一次计入{f'（第 {first} 行）' if other else ''}。"
                                "如果其中一行本是另一副牌，请改正它的牌号后重新发送；"
                                "确是重复的，删除一行即可。", at=row.cells["牌号"], severity=Severity.WARNING)
                return False
            self.board_twice(m, row, first, first_typed, typed, board, labels, rnd)
            return False
        if same:
            also = also.replace("得分", "成绩")
            self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮：{_table_name(m)}在本表第 {first} 行"
                            f"已经填写，第 {row.row} 行又填了一次，{also}，按一次计入"
                            + (f"（按第 {first} 行）" if other else "") + "，无需处理（可删除重复的一行）。",
                            at=(other and row.cells.get(other[0])) or row.cells.get("桌号"), severity=Severity.INFO)
            return False
        if ctx is not None and named(row.values) and named(first_values):
            from types import SimpleNamespace
            # (a first line holding only a dropdown's 无 says no result: it was not taken for the table)
            if not row_blank(SimpleNamespace(values=first_values), ctx.columns):
                self.table_twice(m, row, first, first_typed, typed, labels, ctx)
                return False
        self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮：{_table_name(m)}在本表第 {first} 行"
                        f"已经填写，第 {row.row} 行又填了一次，未计入。请核对这一行的桌号（对照抽签表）。",
                        at=row.cells.get("桌号"))
        return False

    def board_twice(self, m: Match, row: Any, first: int, first_typed: tuple, typed: tuple, board: str,
                    labels: list[str], rnd: Round) -> None:
        """A board filled on two lines of one sheet with different scores (:meth:`one_row_per_table`):
        RESULT_INVALID at the second line's 牌号, naming both lines and what they hold."""
        self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮 {_table_name(m)}：牌号 {board} 出现两次且得分不同"
                        f"（第 {first} 行{_said_board(labels, first_typed)}，第 {row.row} 行{_said_board(labels, typed)}）："
                        f"每桌每副牌只填一行，第 {row.row} 行未计入。请删除错误的一行，或改正这一行的牌号后重新发送。",
                        at=row.cells["牌号"])

    def read_twice(self, ctx: _RoundSheets, rec: Received, twice: list[_Twice], labels: list[str],
                   about: dict[int, tuple]) -> None:
        """Handbook RESULT_CONFLICT (以程序读出的成绩为准 … 同时收到也一样): second lines of this
        sheet (``twice``) typed otherwise than their table's (board's) first line, compared as
        two sheets' rows are (:meth:`_read_sheet`'s ``pending``) — the round read by the game
        (:meth:`parse_taken`) with the first line taken, and with the second line in its place;
        the table's two readings alike (:func:`_read_alike`: 象棋 “乙胜” and “0-1”, 桥牌 0 and
        “PASS”) are one result: counted once, a note (a warning on a board game, as the same
        line twice: :meth:`one_row_per_table`).  Other readings, or a line the game cannot read,
        are the error (:meth:`table_twice`, :meth:`board_twice`).  The round is read once, and
        once more for each second line of a table (a batch takes one line of each table)."""
        from .games.base import ResultRow

        batches: list[list[_Twice]] = []
        for t in twice:
            batch = next((b for b in batches if all(o.match.key != t.match.key for o in b)), None)
            if batch is None:
                batch = []
                batches.append(batch)
            batch.append(t)
        before = {r.match.key: r for r in self.parse_taken(ctx)[2]}
        for batch in batches:
            saved: dict[tuple, tuple[Received, Any]] = {}
            for t in batch:
                rkey = (t.match.key, t.board)
                if rkey in ctx.chosen and ctx.chosen[rkey][0] is rec:      # (its first line, taken)
                    saved[rkey] = ctx.chosen[rkey]
                    ctx.chosen[rkey] = (rec, ResultRow(match=t.match, cells=t.row.cells, values={
                        l: t.row.values.get(l) for l in [*labels, "牌号"]}))
            try:
                after = {r.match.key: r for r in self.parse_taken(ctx)[2]} if saved else {}
            finally:
                ctx.chosen.update(saved)
            for t in batch:
                was, now = before.get(t.match.key), after.get(t.match.key)
                mark = len(self.issues)
                if (t.match.key, t.board) in saved and was is not None and now is not None and _read_alike(was, now):
                    self.said_alike(t, labels, ctx.rnd)
                elif t.board:
                    self.board_twice(t.match, t.row, t.first, t.first_typed, t.typed, t.board, labels, ctx.rnd)
                else:
                    self.table_twice(t.match, t.row, t.first, t.first_typed, t.typed, labels, ctx)
                for n in range(mark, len(self.issues)):
                    about[n] = t.match.key

    def said_alike(self, t: _Twice, labels: list[str], rnd: Round) -> None:
        """Two lines of one sheet for a table (a board) typed otherwise that the game reads as
        one result (:meth:`read_twice`): counted once (the first line), said at the second
        line's first cell typed otherwise, naming both spellings — a note, a warning on a board
        game (its 牌号 may be another board's), as the same line twice (:meth:`one_row_per_table`)."""
        m, row = t.match, t.row
        differ = [l for l, a, b in zip(labels, t.first_typed, t.typed) if a != b]
        at = row.cells.get(differ[0]) if differ else None
        if t.board and row.cells.get("牌号") is not None:
            self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮 {_table_name(m)}：牌号 {t.board} 在本表第 {t.first} 行"
                            f"已经填写，第 {row.row} 行又填了一次，两行读出的得分相同（不同之处：第 {t.first} 行"
                            f"{_said_board(differ, t.first_typed, labels)}，第 {row.row} 行{_said_board(differ, t.typed, labels)}），"
                            "按一次计入。如果其中一行本是另一副牌，请改正它的牌号后重新发送；确是重复的，删除一行即可。",
                            at=at or row.cells["牌号"], severity=Severity.WARNING)
            return
        self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮：{_table_name(m)}在本表第 {t.first} 行"
                        f"已经填写，第 {row.row} 行又填了一次，两行读出的成绩相同（不同之处：第 {t.first} 行 "
                        f"{_said_line(differ, t.first_typed, labels)}，第 {row.row} 行 {_said_line(differ, t.typed, labels)}），"
                        "按一次计入，无需处理（可删除重复的一行）。",
                        at=at or row.cells.get("桌号"), severity=Severity.INFO)

    def table_twice(self, m: Match, row: Any, first: int, first_typed: tuple, typed: tuple, labels: list[str],
                    ctx: _RoundSheets) -> None:
        """Two lines of one sheet for one table, both naming its drawn sides, with different
        results (:meth:`one_row_per_table`): RESULT_CONFLICT at the second line's first
        differing cell; the table held (``ctx.disputed``) while its round is the last drawn."""
        rnd = ctx.rnd

        def said(t: tuple) -> str:      # its filled result cells: 甲方级数“4”、乙方级数“K”
            return _said_line(labels, t)
        differ = next((l for l, a, b in zip(labels, first_typed, typed) if a != b), labels[0])
        rkey = (m.key, "")
        held = ctx.holds and rkey in ctx.chosen
        if held:
            ctx.disputed.add(rkey)
            ctx.twice.add((ctx.chosen[rkey][0].sha256, rkey))
        self.issues.add("RESULT_CONFLICT",
                        f"{self.ev.name} 第{rnd.round}轮 {_table_name(m)}：本表第 {first} 行和第 {row.row} 行都填了这一桌"
                        f"（甲方、乙方都是本桌抽签的两方），成绩却不一致（第 {first} 行 {said(first_typed)}；"
                        f"第 {row.row} 行 {said(typed)}），无法判断哪一行是对的："
                        + ("这一桌暂不计成绩（下一轮要等这一桌）。" if held else f"暂按第 {first} 行计分。")
                        + "请裁判核对后删除错误的一行（每桌只填一行），再把这份成绩表重新发送。",
                        at=row.cells.get(differ) or row.cells.get("桌号"))

    def _renamed_unit(self, text: str, sid: str, compared: set[str], entries: dict[str, Entry]) -> bool:
        """A side as the sheet printed it before the office renamed the unit's short name
        (基础部 → 基础教学部) in tournament.yaml: the team name the round recorded when it was
        published (基础部2队, in ``compared``), or the side's own name and in brackets a name
        that is no other unit's now (姚明（基础部）).  Every row of the unit was refused, and
        the referees had written exactly what the sheet said."""
        from .ingest.workbook import strip_spaces
        from .text import to_simplified

        if text in compared:
            return True
        found = re.fullmatch(r"(.+?)[（(]([^（）()]+)[）)]", text)
        if found is None or strip_spaces(found.group(1)) not in compared:
            return False
        unit = strip_spaces(to_simplified(found.group(2)))
        mine = entries[sid].branch if sid in entries else ""
        others = {strip_spaces(to_simplified(n)) for u in self.t.spec.units if u.id != mine
                  for n in (u.name, u.short) if n}
        return unit not in others

    def side_names(self, sid: str, entries: dict[str, Entry]) -> tuple[set[str], set[str]]:
        """The names a side may go by on a result sheet, as typed and as compared (spaces out,
        and in Simplified too): made once per entry (:meth:`check_sides`, :meth:`sheet_misfit`)."""
        from .ingest.workbook import strip_spaces
        from .text import to_simplified

        e = entries.get(sid)
        if e is None:
            return {sid}, {sid}
        hit = self._side_names.get(sid)
        if hit is None or hit[0] is not e:
            short = _unit_short(self.t, e.branch)
            # (the label printed now, and the one sheets printed before a pair from two units
            # was named by both: 方鹏旭/潘霞洋（重组）（机关一）)
            typed = {e.team, f"{e.team}（{short}）", f"{e.team}({short})", _entry_label(self.t, e), e.player_names, e.id}
            if len(e.players) == 1:
                typed.add(e.players[0].name)
            if self.t.spec.script == "traditional":
                # exactly as the sheet printed it (_side_labels): a name converted character
                # by character does not always convert back (王着 → 王著 → 王著)
                from .text import convert, names_kept
                with names_kept([n for p in e.players for n in (p.name, p.shown)]):
                    typed.add(convert(_entry_label(self.t, e), "traditional"))
                    # (and as sheets printed it before a pair from two units was named by both)
                    typed.add(convert(e.team if short in e.team else f"{e.team}（{short}）", "traditional"))
            # compared in Simplified too: a Traditional league's sheets print the names
            # converted (龔芳麗（針推學院）), and a referee may type either script
            hit = self._side_names[sid] = (e, typed, {strip_spaces(x) for x in typed}
                                           | {strip_spaces(to_simplified(x)) for x in typed})
        return hit[1], hit[2]

    def names_side(self, raw: Any, sid: str, at: Round, entries: dict[str, Entry]) -> tuple[bool, str]:
        """(whether the typed ``raw`` names side ``sid`` of round ``at``, the typed text as compared)
        — as :meth:`check_sides` reads a side cell."""
        from .ingest.workbook import strip_spaces
        from .layout import without_withdrawn_mark
        from .text import to_simplified

        typed, compared = EventRunner.side_names(self, sid, entries)
        if raw in typed:            # as the sheet printed it: nothing to normalise
            return True, ""
        text = strip_spaces(without_withdrawn_mark(str(raw)))
        if text not in compared and not text.isascii():
            text = strip_spaces(to_simplified(text))
        return (text in compared or _players_in_any_order(raw, entries.get(sid))
                or self._renamed_unit(text, sid, compared | _recorded(at, sid), entries)), text

    def settle_wrong_round(self) -> None:
        """R2016-F3 (rounds 2 and 3): a round's results typed on a copy of the previous
        round's sheet, 轮次 changed.  Each such row is refused where it is read
        (RESULT_INVALID, “轮次填的是 3，但这是第2轮的成绩表”) and was an error for good — the
        ledger keeps the sheet — though the round it names then had every one of those tables
        scored from its own sheet: every later night exited 1, and 下一步 said to tell the
        referee.  Once the round the row names has that table's result from a row of its own
        sheets (not a bye), and the row is that round's result on a copy, the refusal is a
        note: when the two rows agree, or the own sheet's row came later (it counts, and the
        note says the copy's differed).  A copy received after the own sheet with other values
        may be meant as a correction: it stays an error, saying what counts meanwhile.

        The row is a copy's when its sides name the table it claims where they name any; or,
        its names left as printed (the sheet's own table at that place, itself scored), when
        nothing of the sheet's own round is lost: its values are the ones that count for that
        table, or the sheet was re-typed as a whole (most of its filled rows carry that same
        other 轮次) and its values are the claimed round's own sheet's.  A single row with its
        轮次 mistyped whose values differ from what counts for its own round — a correction of
        that round — stays an error (it was settled by the next round's sheet, the correction
        lost without a word)."""
        from .ingest.sheets import group_of
        from .issues import shorten_message

        if not self._wrong_round:
            return
        labels = [c.label for c in self.game.columns(self.ev.game_options)]

        def names(w: _WrongRound, x: Match, at: Round) -> bool:
            """Whether the copy's side cells, where filled, name ``x``'s sides (of round ``at``)."""
            return all(v in (None, "") or self.names_side(v, sid, at, w.entries)[0] for v, sid in zip(w.sides, x.sides))
        retyped: dict[tuple, set[tuple]] = {}       # (sheet, its round, 轮次 typed) → its rows so typed
        for w in self._wrong_round:
            retyped.setdefault((w.rec.sha256, w.round_here.round, w.claimed.round), set()).add((w.key, w.board))

        def same(rkey: tuple, w: _WrongRound) -> bool:
            """Whether the row taken for ``rkey`` holds the copy's values."""
            taken = self._taken.get(rkey)
            return taken is not None and _row_values(taken[1], labels) == w.values
        notes: dict[int, tuple[str, bool]] = {}
        for w in self._wrong_round:
            if w.issue.severity == Severity.INFO:
                continue
            m = next((x for x in w.claimed.matches if (str(x.round), group_of(x.group), str(x.table)) == w.key), None)
            if m is None or m.bye or m.key not in self.results:
                continue
            # the copy's sides: the table it claims, or (left as printed) the sheet's own table
            # at that place — when that one has its result too, and the row changes nothing of
            # it (its values are the ones counted there, or the claimed round's own on a sheet
            # re-typed as a whole); else it may be that table's correction with its 轮次
            # mistyped, and stays an error
            if not names(w, m, w.claimed):
                if not (w.here.key in self.results and names(w, w.here, w.round_here)):
                    continue
                whole = 2 * len(retyped[(w.rec.sha256, w.round_here.round, w.claimed.round)]) > w.filled
                if not same((w.here.key, w.board), w) and not (whole and same((m.key, w.board), w)):
                    continue
            taken = self._taken.get((m.key, w.board))
            if taken is None or taken[0].sha256 == w.rec.sha256:
                continue
            own, row = taken
            r = w.claimed.round
            if _row_values(row, labels) == w.values:
                notes[id(w.issue)] = (f"第{r}轮成绩表已填写这一桌，无需再处理。", True)
            elif aware(own.received_at) > aware(w.rec.received_at):
                notes[id(w.issue)] = (f"第{r}轮成绩表《{own.file_name}》（{_received(own)}）其后已填写这一桌，"
                                      f"成绩与这一行不同，以第{r}轮成绩表为准，无需再处理。", True)
            else:
                notes[id(w.issue)] = (f"第{r}轮成绩表《{own.file_name}》（{_received(own)}）上这一桌的成绩与这一行不同，"
                                      f"目前按第{r}轮成绩表计分；如这一行是更正，请填在第{r}轮成绩表上重新发送。", False)

        def settle(i: Issue) -> Issue:
            hit = notes.get(id(i))
            if hit is None:
                return i
            note, done = hit
            return settled(i, note) if done else dataclasses.replace(i, message=shorten_message(f"{i.message}（{note}）"))
        self.issues.revise(settle)

    def check_sides(self, m: Match, row: Any, sides: list[str], rnd: Round, entries: dict[str, Entry]) -> bool:
        """The sides pre-filled on the sheet (甲方/乙方, 甲/乙/丙) must still be the drawn ones:
        results are scored by seat, so a row whose sides were swapped would credit the wrong
        player — RESULT_INVALID, not counted; a name that is no side of this table is
        RESULT_INVALID as well (a blank side cell is read as the drawn one).  A withdrawn side
        is printed with （已退赛） after its name (:data:`pipeline.layout.WITHDRAWN_MARK`):
        read without it, so a sheet printed with or without the mark names the same side.
        A row whose sides are exactly another table of the round had its 桌号 (or 组别)
        swapped with that table's: said at the 桌号, naming the table to write back."""
        def names_side(raw: Any, sid: str, at: Round) -> tuple[bool, str]:
            return EventRunner.names_side(self, raw, sid, at, entries)

        wrong: list[tuple[str, str, str]] = []
        for label, sid in zip(sides, m.sides):
            raw = row.values.get(label)
            if raw in (None, ""):
                continue
            ok, _ = names_side(raw, sid, rnd)
            if not ok:
                # the seat it was drawn at, matched as a side cell is (its players in any
                # order too: 潘霞洋、姜　力 typed at 甲方 for the pair drawn 乙方 — R2016-F2)
                other = next((lab for lab, o in zip(sides, m.sides) if o != sid and names_side(raw, o, rnd)[0]), "")
                wrong.append((label, quoted(raw), other))
        if not wrong:
            return True
        drawn = "，".join(f"{lab}：{entries[sid].team if sid in entries else sid}" for lab, sid in zip(sides, m.sides))
        elsewhere = self._table_of_another_round(row, sides, rnd, names_side)
        if elsewhere is not None:
            # round 2's results typed into a copy of round 1's sheet (轮次 left at 1): each row is
            # exactly a table of round 2 — said so, and which sheet is round 2's; not counted
            # for either round (a sheet counts for the round it was issued for)
            o_rnd, o_m = elsewhere
            def label(sid: str) -> str:
                return entries[sid].team if sid in entries else sid
            theirs = (f"{label(o_m.sides[0])}轮空" if o_m.bye else
                      "，".join(f"{lab}：{label(sid)}" for lab, sid in zip(sides, o_m.sides)))
            at = row.cells.get("轮次") or row.cells.get(wrong[0][0])
            # a copy of round 1's sheet renamed xiangqi-r2-成绩表.xlsx: its name is not what it is
            named = at is not None and f"-r{o_rnd.round}-" in (at.file or "")
            self.issues.add("RESULT_INVALID",
                            f"{self.ev.name} 第{rnd.round}轮{_table_name(m)}：这一行的选手是第{o_rnd.round}轮{_table_name(o_m)}"
                            f"的对阵（{theirs}），而这份是第{rnd.round}轮下发的成绩表（第{rnd.round}轮{_table_name(m)}为{drawn}"
                            + (f"；文件名虽写着第{o_rnd.round}轮，表是第{rnd.round}轮的" if named else "")
                            + f"），本行未计入。第{o_rnd.round}轮的成绩请填在第{o_rnd.round}轮下发的成绩表"
                            f"（results/{self.ev.id}-r{o_rnd.round}-成绩表.xlsx）上发送"
                            f"（只把这份表的轮次改为 {o_rnd.round} 不会计入）。",
                            at=at)
            return False
        moved = self._table_of_this_round(row, sides, rnd, m, names_side)
        if moved is not None:
            # the 桌号 (or 组别) of two rows swapped, their names left as drawn: each row's sides
            # are exactly another table of this round — the number is wrong, not the names
            # (it said “甲方填的是…（不是本桌选手）…请按抽签表的座位填写”, at the 甲方 cell)
            def team(sid: str) -> str:
                return entries[sid].team if sid in entries else sid
            regrouped = (moved.group or "") != (m.group or "")
            what, typed, back = (("组别、桌号", _table_name(m), _table_name(moved)) if regrouped else
                                 ("桌号", str(m.table), str(moved.table)))
            self.issues.add("RESULT_INVALID",
                            f"{self.ev.name} 第{rnd.round}轮{_table_name(m)}：{what}填的是{typed}，但"
                            f"{'对'.join(team(sid) for sid in moved.sides)}是{_table_name(moved)}"
                            f"（{_table_name(m)}为{drawn}），本行未计入：请把{what}改回{back}后重新发送。",
                            at=(row.cells.get("组别") if regrouped else None) or row.cells.get("桌号")
                            or row.cells.get(wrong[0][0]))
            return False
        said = "；".join(f"{lab}填的是“{raw}”" + (f"（抽签为{other}）" if other else "（不是本桌选手）") for lab, raw, other in wrong)
        self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮{_table_name(m)}：{said}，与抽签表不符"
                        f"（{drawn}）。成绩按座位计分，本行未计入：请按抽签表的座位填写后重新发送。",
                        at=row.cells.get(wrong[0][0]))
        return False

    @staticmethod
    def _table_of_this_round(row: Any, sides: list[str], rnd: Round, m: Match,
                             names_side: Callable[[Any, str, Round], tuple[bool, str]]) -> Match | None:
        """The other drawn table of ``rnd`` whose sides ``row`` names exactly, seat by seat,
        every side cell filled — a row whose 桌号 was swapped with another's (:meth:`check_sides`);
        ``None`` when there is none."""
        typed = [row.values.get(label) for label in sides]
        if any(v in (None, "") for v in typed):
            return None
        return next((o for o in rnd.matches if o is not m and not o.bye and len(o.sides) == len(sides)
                     and all(names_side(v, sid, rnd)[0] for v, sid in zip(typed, o.sides))), None)

    def _table_of_another_round(self, row: Any, sides: list[str], rnd: Round,
                                names_side: Callable[[Any, str, Round], tuple[bool, str]]) -> tuple[Round, Match] | None:
        """The table of another drawn round of the event whose sides ``row`` names exactly, seat
        by seat, every side cell filled (a bye: its side, the other cells blank or 轮空) — the
        latest such round; ``None`` when there is none (:meth:`check_sides`)."""
        from .ingest.workbook import strip_spaces
        from .text import to_simplified

        typed = [row.values.get(label) for label in sides]
        if typed[0] in (None, ""):
            return None
        # (as pipeline.xlsx.results.BYE_TEXT prints it — not imported, openpyxl — or a walkover)
        bye_words = {"轮空", "不战而胜", ""}
        for other in reversed(self.rounds):
            if other.round == rnd.round:
                continue
            for m in other.matches:
                if m.bye:
                    rest = [strip_spaces(to_simplified(str(v))) for v in typed[1:] if v is not None]
                    if len(m.sides) == 1 and all(t in bye_words for t in rest) and names_side(typed[0], m.sides[0], other)[0]:
                        return other, m
                elif len(m.sides) == len(sides) and all(v not in (None, "") and names_side(v, sid, other)[0]
                                                        for v, sid in zip(typed, m.sides)):
                    return other, m
        return None

    def check_playoff_places(self, placements: list, standings: list[StandingTable]) -> None:
        """A tie the 加赛 sheet could not settle because it gives two of the tied the same
        名次: said at the sheet (the tie stays open, as if no playoff had been played).
        R2011-F1, R2020-A1: a sheet is checked against the ties it was made for, each of its
        ties on its own (``Playoff.lists_together``; a hand-made sheet's ties are read from
        its numbering, ``ingest.sheets.read_playoffs``) — the same 名次 in two of its ties is
        no conflict; and a form whose _meta names its ties is held only against one of them
        (``made_for``).  A provisional tie of a round still open (eleven round-1 losers level
        while one table has no result) spans several of a correct sheet's ties and is no
        tie it was made for: it never makes the sheet an error."""
        groups: dict[tuple, set[str]] = {}
        for p in placements:
            if p.tied:
                groups.setdefault(("place", p.group, p.rank), set()).add(p.entry)
        for st in standings:
            for r in st.rows:
                if r.playoff_required:
                    groups.setdefault((st.stage, st.group, r.rank), set()).add(r.entry)
        for stage, group, ids in self.ties:         # a draw waiting for a playoff
            groups.setdefault(("draw", stage, group, ids), set()).update(ids)
        said = set()
        names = {e.id: e.team for e in self.all_entries()}
        from .score.standings import played_where, ranking_where

        played = played_where(self.results) if self.playoffs else None
        last = self.stage_last_rounds()

        def settles(po: Playoff, key: tuple, tied: set[str]) -> bool:
            """Whether ``po`` is this tie's 加赛 (R2011-F1: not another tie of the same entries)."""
            if key[0] == "draw":
                return po.stage in (key[1], "") and po.round in (None, self.rounds[-1].round if self.rounds else None)
            where = ranking_where(tied, self.rounds) if key[0] == "place" else (key[0], key[1], last.get(key[0], 0))
            return po.settles_in(tied, where, played)

        for key, tied in groups.items():
            if frozenset(tied) in self.level_refused:
                continue        # said at the sheet (R2020-F4: take_level_playoffs)
            # (a sheet of several ties orders only the ties it lists: Playoff.lists_together)
            po = next((po for po in reversed(self.playoffs)
                       if len(tied) > 1 and po.lists_together(tied)
                       and (not po.made_for or frozenset(tied) in po.made_for) and settles(po, key, tied)), None)
            if po is None:
                if key[0] != "place":       # a tie waiting for its playoff (a shared place needs none)
                    self.playoff_partly_filled(tied, key[2] if key[0] == "draw" else key[1], names, said,
                                               stage=key[1] if key[0] == "draw" else key[0])
                continue
            if not po.places:
                continue
            place = {e: po.places[po.order.index(e)] for e in tied}
            same = sorted(e for e in tied if list(place.values()).count(place[e]) > 1)
            if same and po.leaves_level(tied):
                continue        # level within one prize (R2020-F4): they share the place
            if same and (po.source, tuple(same)) not in said:
                said.add((po.source, tuple(same)))
                cell = po.cells[po.order.index(same[-1])] if po.cells and po.source else ""
                self.issues.add("BAD_VALUE", f"{self.ev.name} 加赛表中{'、'.join(f'“{names.get(e, e)}”' for e in same)}"
                                f"的名次相同（{'、'.join(str(place[e]) for e in same)}），无法决定名次：请按加赛结果改正名次后"
                                "重新发送。", at=dataclasses.replace(po.source, cell=cell) if cell else po.source)
        if (said or self.level_refused) and self.waiting and "（已收到的加赛表" not in self.waiting:
            self.waiting += self.playoff_sheets_wrong()     # what the event waits for: a corrected sheet
        if played is not None:
            self.playoff_rows_unaddressed(names, played)
        self.playoff_rows_unused(names)

    def playoff_rows_unaddressed(self, names: dict[str, str], played: Mapping[tuple[str, str], frozenset[str]]) -> None:
        """R2011-F1, R2011-D2 (一次加赛只决定它所针对的那次并列（加赛表上的阶段、组别和轮次）): a
        加赛表's tie whose 阶段/组别 names no tie the event has (:meth:`Playoff.addresses`) —
        组别 left blank for a stage played in groups, a group some of its players were not in,
        a stage the event does not have — orders nothing: a warning at its first 名次 cell,
        saying why.  The t2011 sample's rows of 阶段 group, 组别 blank (two players of
        different groups each) ordered the shared 7th and 9th places without a word, though
        the tool had asked only for group C's 加赛.  A tie a later sheet lists again (a
        correction) is the later sheet's."""
        # judged once the event is played out or waits for a 加赛 (as playoff_rows_unused): a
        # sheet sent ahead of its tie — the final places' 加赛 of an event still in its first
        # rounds — was warned "本项目没有“final”这一阶段" for a stage not reached yet
        # (a draw held for a group's 加赛, self.ties, is waiting too: a sheet for it labelled
        # wrongly is said, or the draw waited for good with no word on the sheet received)
        played_out = self.complete or self.awaiting_playoff
        if not self.rounds or not (played_out or self.ties):
            return
        from . import layout
        from .draw.common import group_name     # (after the test: a night of a form alone loads no draw)

        def row_of(cell: str) -> int:
            m = re.search(r"\d+", cell)
            return int(m.group()) if m else 0

        for k, po in enumerate(self.playoffs):
            if po.source is None or not po.order or po.stage in ("", FINAL_PLACES):
                continue
            for t in sorted(set(po.ties)) if po.ties else [None]:
                rows = [i for i in range(len(po.order)) if t is None or po.ties[i] == t]
                ids = [po.order[i] for i in rows]
                if po.addresses(ids, played):
                    continue
                if any(later.source is not None and (later.resends(po) or (
                        later.source.file != po.source.file and later.tie_with(ids)))
                       for later in self.playoffs[k + 1:]):
                    continue        # listed again by a later sheet: that one counts
                cells = sorted((po.cells[i] for i in rows), key=row_of) if len(po.cells) == len(po.order) else []
                lines = sorted({row_of(c) for c in cells if row_of(c)})
                at_rows = (f"第{lines[0]}行" if len(lines) == 1 else f"第{lines[0]}–{lines[-1]}行") if lines else ""
                stage = layout.STAGE_LABELS.get(po.stage, po.stage)
                groups = sorted(g for st, g in played if st == po.stage)
                who = "、".join(f"“{names.get(e, e)}”" for e in ids)
                if not groups and not played_out:
                    continue        # (a stage not reached yet: judged when it is)
                if not groups:
                    why = f"本项目没有“{po.stage}”（{stage}）这一阶段的比赛"
                elif not po.group:
                    where = "；".join(f"“{names.get(e, e)}”在{'、'.join(group_name(g) for g in groups if e in played[(po.stage, g)])}"
                                     for e in ids if any(e in played[(po.stage, g)] for g in groups))
                    why = (f"{stage}分{'、'.join(group_name(g) for g in groups)}进行，组别空着" +
                           (f"（{where}）" if where else ""))
                elif (po.stage, po.group) not in played:
                    why = f"{stage}没有{group_name(po.group)}"
                else:
                    away = [e for e in ids if e not in played[(po.stage, po.group)]]
                    where = "、".join(f"“{names.get(e, e)}”在" + ("、".join(group_name(g) for g in groups
                                                                         if e in played[(po.stage, g)]) or "别的阶段")
                                     for e in away)
                    why = f"{who}不都是{group_name(po.group)}的选手（{where}），不是这一组的并列"
                label = (f"{self.ev.name} 加赛表{at_rows}{who}的加赛（阶段“{po.stage}”，组别"
                         f"{'“' + po.group + '”' if po.group else '空着'}）：这一场加赛不对应任何需要加赛的并列——{why}")
                at = dataclasses.replace(po.source, cell=cells[0]) if cells else po.source
                if self.complete and self.places_kept is not None:
                    # places published by a version that ordered them by these rows, and kept
                    # (PLACES_KEPT): a corrected sheet would place the event again — no advice to
                    # resend it, a note (the rows are not used by this version)
                    self.issues.add("BAD_VALUE", label + "，本版程序不采用。" + self.kept_places_note(ids, names),
                                    at=at, severity=Severity.INFO)
                    continue
                self.issues.add(
                    "BAD_VALUE",
                    label + "，所以未采用，名次仍按成绩和破同分规则排定。请核对阶段和组别：小组里的加赛填该组的组别（并列者须同组）；"
                    f"决定最终名次的加赛，阶段填“{FINAL_PLACES}”。改正后重新发送；这场加赛本不需要的，删去这几行即可。",
                    at=at, severity=Severity.WARNING)

    def kept_places_note(self, ids: Sequence[str], names: Mapping[str, str]) -> str:
        """R2011-F1 with R2020-A1: what a 加赛 row this version does not use means for a
        finished event whose published places are kept (:attr:`places_kept`): the places of
        ``ids`` as published when it gave some of them otherwise than this version would (those
        rows ordered them), and that the published places stand — nothing to correct or resend."""
        assert self.places_kept is not None
        kept, now = self.places_kept
        was = {p.entry: p for p in kept}
        is_ = {p.entry: p for p in now}

        def place(p: Any) -> str:
            return f"{f'{p.group}组' if p.group else ''}第{p.rank}名"
        moved = [e for e in ids if e in was and (e not in is_ or (is_[e].rank, is_[e].group) != (was[e].rank, was[e].group))]
        used = ("公布时的程序采用了这几行加赛（公布为" + "、".join(f"{names.get(e, e)} {place(was[e])}" for e in ids if e in was)
                + "），" if moved else "")
        return (f"{self.ev.name}已赛完，名次和奖项已经公布，{used}已公布的名次和奖项保持不变（见 PLACES_KEPT），无需处理。"
                "请不要为此改动加赛表后重新发送：收到改动的加赛表，名次会按本版程序重新排定，已公布的名次可能因此改变。")

    def playoff_rows_unused(self, names: dict[str, str]) -> None:
        """R2011-F1, R2011-F2, R2011-D2: a 加赛表's tie (its rows of one tie, as the form's _meta
        or a hand-made sheet's numbering says) that changes nothing in the event played out
        — no group table, no final place is other without it — was used for nothing: its
        players are not level (a sheet made for an older ranking, a name written wrongly), or
        only some of a shared place that no award splits (a shared place needs no 加赛, and
        two of four level cannot order the four).  Such rows were dropped without a word
        (standings printed 并列 beside the sheet that ranked them): said at the sheet, as a
        note (nothing is wrong with the ranking; a wrong name is the referee's to correct).
        Rows already said (the same 名次 twice, a tie only partly filled, the rest of a form's tie
        whose other rows were said unreadable) are not said again,
        nor an earlier sheet's tie that a later sheet lists again (the later one counts)."""
        if not self.playoffs or not (self.complete or self.awaiting_playoff) or not self.rounds:
            return
        said = {(i.file, i.sheet, i.cell) for log in (self.issues, self._playoff_log) for i in log if i.file}
        sheet_ties: list[tuple[int, Playoff, list[int]]] = []
        for k, po in enumerate(self.playoffs):
            if po.source is None or not po.order:
                continue
            for t in sorted(set(po.ties)) if po.ties else [None]:
                rows = [i for i in range(len(po.order)) if t is None or po.ties[i] == t]
                ids = {po.order[i] for i in rows}
                cells = [po.cells[i] for i in rows] if len(po.cells) == len(po.order) else []
                if any((po.source.file, po.source.sheet, c) in said for c in cells):
                    continue
                if any(ids < t for t in po.made_for) and any(f == po.source.file and sh == po.source.sheet
                                                            for f, sh, _ in said):
                    continue        # the rest of the tie the form was made for: its rows' problems were said
                if any(ids <= t for t in self.level_refused) and po.places_of(ids) is not None:
                    continue        # a tie it left level across a prize: said (R2020-F4)
                if any(later.source is not None and (
                        later.resends(po) or (later.source.file != po.source.file and later.tie_with(ids)))
                       for later in self.playoffs[k + 1:]):
                    continue        # listed again by a later sheet: that one counts
                sheet_ties.append((k, po, rows))
        if not sheet_ties:
            return

        def places(now: list | None = None) -> tuple:
            try:
                return tuple((p.entry, p.rank, p.tied, p.tier, p.group) for p in now or self.placements())
            except Exception:       # (a format that cannot place without the sheet: it was used)
                return (object(),)

        def tables() -> tuple:
            return tuple((st.stage, st.group, tuple((r.entry, r.rank, r.playoff_required) for r in st.rows))
                         for st in self.standings())

        kept = list(self.playoffs)
        now = self.placements()
        base_places, base_tables = places(now), None
        unused = []
        # a form resent corrected (the same file name, a later receipt) replaces the one before
        # it whole: that one must not stand in for a tie taken out of the later one (its rows
        # were said "未被采用" against the very sheet that had just settled the tie)
        replaced = {j: dataclasses.replace(q, order=(), places=(), cells=(), ties=())
                    for j, q in enumerate(self.playoffs) if any(later.resends(q) for later in self.playoffs[j + 1:])}

        def trying(k: int, without: Playoff) -> None:
            self.playoffs[k] = without
            for j, blank in replaced.items():
                self.playoffs[j] = blank

        def back() -> None:
            self.playoffs[:] = kept
        try:
            for k, po, rows in sheet_ties:
                keep = [i for i in range(len(po.order)) if i not in rows]
                without = dataclasses.replace(
                    po, order=tuple(po.order[i] for i in keep),
                    places=tuple(po.places[i] for i in keep) if po.places else (),
                    cells=tuple(po.cells[i] for i in keep) if po.cells else (),
                    ties=tuple(po.ties[i] for i in keep) if po.ties else ())
                trying(k, without)
                same = places() == base_places
                back()
                if same:        # the group tables only when the places are the same
                    if base_tables is None:
                        base_tables = tables()
                    trying(k, without)
                    same = tables() == base_tables
                    back()
                if same and not self.drawn_by_playoff(k, po, without, {po.order[i] for i in rows}):
                    unused.append((po, rows))
        finally:
            self.playoffs[:] = kept
        if not unused:
            return
        final = {p.entry: p for p in now}
        level: dict[tuple[str, int], list[str]] = {}
        for p in final.values():
            level.setdefault((p.group, p.rank), []).append(p.entry)

        def where(e: str) -> str:
            p = final.get(e)
            if p is None:
                return f"“{names.get(e, e)}”"
            notes = [n for n in ("并列" if p.tied else "", p.tier) if n]
            return f"“{names.get(e, e)}”第{p.rank}名" + (f"（{'，'.join(notes)}）" if notes else "")

        for po, rows in unused:
            ids = [po.order[i] for i in rows]
            who = "、".join(f"“{names.get(e, e)}”" for e in ids)
            shared = {(final[e].group, final[e].rank) for e in ids if e in final}
            if len(ids) > 1 and len(shared) == 1 and all(final.get(e) and final[e].tied for e in ids):
                others = [e for e in level[shared.pop()] if e not in ids]
                why = (f"他们与{'、'.join(f'“{names.get(e, e)}”' for e in others)}并列第{final[ids[0]].rank}名，"
                       "这场加赛只排了并列者中的一部分，定不出并列各人的名次；这个并列不影响获奖，不需要加赛，"
                       "名次仍为并列。无需处理；如确要排定，请为并列的每一位都填写名次后重新发送。")
            else:
                why = (f"按现在的成绩他们并没有并列（{'、'.join(where(e) for e in ids)}），"
                       "名次按成绩和破同分规则排定，无需加赛。无需处理；如果这场加赛是为别的并列选手赛的"
                       "（姓名或名次填错），请改正后重新发送。")
            cell = po.cells[rows[0]] if len(po.cells) == len(po.order) else ""
            self.issues.add("BAD_VALUE", f"{self.ev.name} 加赛表中{who}的加赛名次未被采用：{why}",
                            at=dataclasses.replace(po.source, cell=cell) if cell else po.source,
                            severity=Severity.INFO)

    def drawn_by_playoff(self, k: int, po: Playoff, without: Playoff, ids: set[str]) -> bool:
        """Whether a published round known to have been drawn with the 加赛 ``po`` (its record
        of the sheets, ``PLAYOFFS_KEY``, lists ``ids``) is drawn otherwise from the rounds before
        it without ``ids``' rows (``without`` in place of ``self.playoffs[k]``): the draw
        waits, or pairs otherwise.  A 加赛 that decided who advanced (R2011-F1) changes no
        place or table once the next stage is drawn from it — it was used all the same."""
        def drawn(rounds: list[Round], seed: str) -> Any:
            state = dataclasses.replace(self.draw_state(), rounds=rounds)
            try:
                nxt = self.fmt.next_round(state, random.Random(int(seed, 16)))
            except Exception as e:     # a Waiting (for this 加赛), or a state it cannot draw from
                return type(e).__name__
            return [(m.stage, m.group, m.table, m.sides) for m in nxt.matches] if nxt is not None else None

        for j, rnd in enumerate(self.rounds):
            known = rnd.plan.get(PLAYOFFS_KEY) if isinstance(rnd.plan, dict) else None
            if j == 0 or not isinstance(known, list) or not any(
                    isinstance(u, list) and len(u) == 3 and ids <= set(u[2]) for u in known):
                continue
            seed = rnd.seed if isinstance(rnd.seed, str) and rnd.seed else "0"
            try:
                int(seed, 16)
            except ValueError:
                seed = "0"
            before = list(self.rounds[:j])
            with_it = drawn(before, seed)
            self.playoffs[k] = without
            try:
                if drawn(before, seed) != with_it:
                    return True
            finally:
                self.playoffs[k] = po
        return False

    def playoff_partly_filled(self, tied: set[str], group: str, names: dict[str, str], said: set,
                              stage: str = "") -> None:
        """A 加赛表 that gives some of an open tie (of ``stage`` and ``group``) a 名次 and not the
        others (one left blank, or another player's name written in one's place) settles
        nothing: said at the sheet, naming who has no 名次 (it was ignored without a word).
        A sheet of another stage's playoff is none of this tie's (a group's 加赛 that ranked
        one of three later level in the final places was taken for a half-filled one)."""
        # (a form that records the ties it was made for is this tie's only if one of them is
        # it: a complete sheet of an earlier tie of the same stage, whose winner was tied
        # again, was called half-filled)
        po = next((po for po in reversed(self.playoffs) if len(tied) > 1 and 0 < len(tied & set(po.order)) < len(tied)
                   and (not po.group or not group or po.group == group)
                   and (not po.stage or not stage or po.stage == stage)
                   and (not po.made_for or frozenset(tied) in po.made_for)), None)
        if po is None or po.source is None:
            return
        missing = sorted(tied - set(po.order), key=lambda e: names.get(e, e))
        if (po.source, tuple(missing)) in said:
            return
        said.add((po.source, tuple(missing)))
        given = [e for e in po.order if e in tied]
        cell = po.cells[po.order.index(given[0])] if po.cells else ""
        self.issues.add("BAD_VALUE", f"{self.ev.name} 加赛表只给同分的{'、'.join(f'“{names.get(e, e)}”' for e in given)}"
                        f"填了名次，同分的{'、'.join(f'“{names.get(e, e)}”' for e in missing)}没有读到名次（名次空着或填得不对、"
                        "这一行的项目或姓名有误，或写成了别人的名字），"
                        "这场加赛未能定出名次：请为同分的每一位都填写名次后重新发送。",
                        at=dataclasses.replace(po.source, cell=cell) if cell else po.source)

    def check_partners(self, m: Match, row: Any, sign_labels: list[str], rnd: Round,
                       entries: dict[str, Entry], columns: Sequence[Any] = ()) -> None:
        """R2020-Q3: fixed partners.  A signature cell that names a player who is not in the
        registered pair/team of that side is PARTNER_CHANGED (a plain mark such as 已签 or
        a tick is accepted, and so are the names run together or with a note of signing for
        the partner: 贺欣伟彭鹏, 卢帅（代）).  A signature that is only part of the side's names
        (a surname) is SIGNATURE_UNCLEAR, a warning at the cell — it was PARTNER_CHANGED, an
        error asking to restore a partner never changed (an audit); :func:`signature_word`.

        A result typed in a signature cell (胜, 2:0, a level J) while the row's required result
        columns are blank is RESULT_INVALID there, saying where the result goes: it was ignored
        without a word (the table 还差), or, in a pairs event, called a partner change (an audit)."""
        from .games.common import unset

        if columns and all(unset(c, row.values.get(c.label)) for c in columns if c.required):
            said = [label for label in sign_labels if _result_like(row.values.get(label), columns)]
            for label in said:
                self.issues.add("RESULT_INVALID", f"{self.ev.name} 第{rnd.round}轮{m.group + '组' if m.group else ''}"
                                f"第{m.table}桌 {label}"
                                f"“{quoted(row.values.get(label))}”填的是成绩，不是签名：请把成绩填在"
                                f"{'、'.join(f'“{c.label}”' for c in columns if c.required) or '成绩'}栏，"
                                "签名栏由选手和裁判签名。", at=row.cells.get(label))
            sign_labels = [label for label in sign_labels if label not in said]
        if self.ev.team_size < 2:
            return
        from .ingest.workbook import strip_spaces

        for label, sid in zip(sign_labels, m.sides):
            raw = row.values.get(label)
            if raw in (None, ""):
                continue
            names = [n for n in (strip_spaces(x) for x in _NAME_SEPARATORS.split(str(raw))) if n and n not in _SIGN_MARKS]
            entry = entries.get(sid)
            if entry is None or not names:
                continue
            canon: Callable[[str], str] = lambda n: n
            spelt: Callable[[str], tuple[str, ...]] = lambda n: (n,)
            if self.t.spec.script == "traditional":     # signed as the sheet prints the names, or typed
                from .text import convert_name, to_simplified
                canon = to_simplified
                spelt = lambda n: (n, convert_name(n))      # noqa: E731
            registered = {n for p in entry.players for n in spelt(p.name)}
            unknown = [n for n in names if n not in registered]
            if not unknown:         # (the usual signature: the event's other names are not needed)
                continue
            own = {canon(n) for n in registered}
            others = {canon(n) for e in entries.values() if e.id != entry.id for p in e.players
                      for n in spelt(p.name)} - own
            strangers: list[str] = []
            doubtful: list[str] = []
            for n in unknown:
                how, who = signature_word(canon(n), own, others)
                if how == "changed":
                    strangers += [n] if who == [canon(n)] else who
                elif how == "doubtful":
                    doubtful += [n]
            where = f"{self.ev.name} 第{rnd.round}轮{m.group + '组' if m.group else ''}第{m.table}桌 {label}“{quoted(raw)}”："
            if strangers:
                self.issues.add("PARTNER_CHANGED",
                                f"{where}{'、'.join(quoted(n) for n in strangers)} 不是"
                                f"{entry.team}的报名选手（{entry.player_names}）；搭档固定，不得中途调整，请核实后改正。",
                                at=row.cells.get(label))
            elif doubtful:
                self.issues.add("SIGNATURE_UNCLEAR",
                                f"{where}签名{'、'.join(f'“{quoted(n)}”' for n in doubtful)}看不出是{entry.team}的哪位报名选手"
                                f"（{entry.player_names}），这一桌的成绩照常计入。请与裁判核实是{entry.team}的选手本人签的名"
                                "（以后请签全名），无需重发；如是别人替打，请报组委会。",
                                at=row.cells.get(label))

    # -- scoring ----------------------------------------------------------------------
    #: stages whose standings mean something (league-type stages); knockout stages don't
    LEAGUE_STAGES = ("group", "pairs", "rr", "swiss", "final")

    def standings(self, placements: list | None = None) -> list[StandingTable]:
        """Standings per league-type stage and group, in the order the stages were played.
        Ties are flagged for a playoff only once the stage's group is complete: its rounds
        drawn are in and none of its planned rounds is to come (R2016-F3, :func:`rounds_to_come`).
        ``placements``: the event's final places as published (else placed again here) —
        the order a 三人桌 决赛桌 shared by level seats is shown in (:func:`_by_table_places`)."""
        from .draw.common import rounds_to_come
        from .score.standings import compute_standings, played_where

        tables: list[StandingTable] = []
        # a 加赛 settles its own tie only (R2011-F1): a stage's table is that stage and group's
        # as of the stage's last round (a group of 4 ends before one of 5: its form is the stage's)
        played = played_where(self.results) if self.playoffs else None
        last = self.stage_last_rounds()
        seen: dict[tuple[str, str], list[Round]] = {}
        names: dict[str, str] = {}
        for r in self.rounds:
            if r.stage not in self.LEAGUE_STAGES or (r.stage == "final" and self.fmt.name == "groups_knockout"):
                continue
            names.setdefault(r.stage, r.stage_name)
            for g in sorted({m.group for m in r.matches}):
                seen.setdefault((r.stage, g), []).append(dataclasses.replace(
                    r, matches=tuple(m for m in r.matches if m.group == g)))
        for (stage, group), rounds in seen.items():
            ids = sorted({s for rr in rounds for m in rr.matches for s in m.sides})
            # R2016-F3: a tie is for a 加赛 only after the group's last planned round, not
            # whenever the rounds drawn so far are in (需加赛 after round 1 of 3); an event
            # played out with fewer (its rounds cut in tournament.yaml) is played out
            done = all(m.bye or m.key in self.results for rr in rounds for m in rr.matches) and (
                self.complete or self.awaiting_playoff or not rounds_to_come(rounds, group))
            chain = self.chain if done and (self.complete or self.awaiting_playoff or stage != "final") else \
                tuple(c for c in self.chain if c != "playoff")
            # a group table that feeds a knockout is ranked by its own stage's 加赛 only, as
            # the format ranks it (GROUP_PLAYOFFS): the final places' 加赛 of every group's
            # level 2nd re-ranked the group's table on the site, not its placements
            from .draw.common import GROUP_PLAYOFFS

            own = ([p for p in self.playoffs if p.stage in GROUP_PLAYOFFS]
                   if stage == "group" and (self.fmt.name == "groups_knockout" or (
                       self.fmt.name == "groups_standings" and not self.places_by_group()))
                   else self.playoffs)
            rows = compute_standings(ids, rounds, self.results, chain, own,
                                     bye_points=self.points.get("bye", 0), draw_points=self.points.get("draw"),
                                     withdrawn=self.withdrawn_ids(), played=played, where=(stage, group, last[stage]))
            # (a 三人桌 决赛桌: its seats as the final places rank them, R2011-D2)
            rows = _by_table_places(rows, rounds, self.results, (
                (lambda: placements if placements is not None else self.placements())
                if self.fmt.name == "tables_of_three" and stage == "final" else None))
            rows = only_deciding_ties(rows, self.place_boundaries(stage))
            tables.append(StandingTable(event=self.ev.id, stage=stage, stage_name=stage_title(names[stage]),
                                        group=group, rows=tuple(rows), chain=chain))
        return tables

    def stage_last_rounds(self) -> dict[str, int]:
        """Each stage's last published round (the round its table's 加赛 form is issued at)."""
        out: dict[str, int] = {}
        for r in self.rounds:
            out[r.stage] = max(out.get(r.stage, 0), r.round)
        return out

    def place_boundaries(self, stage: str) -> set[int]:
        """Places whose order matters: after the advancing places of a group stage that
        feeds a knockout (R2011-F1), else after each award band of the event's scheme."""
        if self.fmt.name == "groups_knockout" and stage == "group":
            from .draw.groups_knockout import group_advance       # as drawn: the default or the spec's
            first = next((r for r in self.rounds if isinstance(r.plan, dict) and r.plan.get("kind") == "group"), None)
            return {group_advance(first.plan if first else {}, self.ev.format.options)}
        if self.fmt.name == "groups_standings" and stage == "group" and not self.places_by_group():
            # awards over the whole event: a group's tie is settled among the same places
            # of every group (the final places' 加赛), not in the group's own table
            return set()
        from .score import AWARD_SCHEMES
        bounds, total = set(), 0
        for _, n in AWARD_SCHEMES.get(self.ev.awards.scheme).places(self.ev.awards.options):
            total += n
            bounds.add(total)
        return bounds

    def placements(self):
        if not self.rounds:
            return []
        return self.fmt.placements(self.draw_state())


def _by_table_places(rows: list, rounds: list[Round], results: dict,
                     placements: Callable[[], list] | None = None) -> list:
    """A stage of one table (三人桌's 决赛桌) whose result places every seat (R2011-D2: the
    加赛胜者 of a tie for the top) is ranked by those places: the table showed 甲 and 乙 level
    at 1, 需加赛, for a 加赛 the sheet had already decided (the placements took it).

    Seats sharing a place at the table (all three level, the 加赛胜者 1st and the other two
    level for 2nd) are ranked, when ``placements`` (the event's final places, as a callable
    asked only then) places them, as those places do — their 加赛表, or one place for both
    when they get the same prize (R2011-D2, R2020-F4): the table showed all three at 1,
    需加赛, the winner last, after the event had ended.  Still level there they share their
    place, flagged ``playoff_required`` (:func:`only_deciding_ties` keeps it only where a
    prize boundary falls between them: a 加赛 still owed)."""
    matches = [m for r in rounds for m in r.matches if not m.bye]
    if len(matches) != 1 or matches[0].key not in results:
        return rows
    res = results[matches[0].key]
    place = {s: r.place for s, r in zip(matches[0].sides, res.sides)}
    if len(place) != len(rows) or any(place.get(r.entry) is None for r in rows):
        return rows
    tied: set[str] = set()
    if len(set(place.values())) != len(place):     # a shared place: as the final places rank it
        final = {p.entry: p.rank for p in placements()} if placements is not None else {}
        if any(r.entry not in final for r in rows):
            return rows
        table = {r.entry: (place[r.entry], final[r.entry]) for r in rows}
        place = {e: 1 + sum(1 for k in table.values() if k < key) for e, key in table.items()}
        tied = {e for e in place if list(place.values()).count(place[e]) > 1}
    ordered = sorted(rows, key=lambda r: place[r.entry])
    return [dataclasses.replace(r, rank=place[r.entry], playoff_required=r.entry in tied) for r in ordered]


def playoff_form_name(event_id: str, rounds: list[Round]) -> str:
    """The file name of an event's 加赛表 (forms/), as :func:`write_forms` writes it."""
    return f"{event_id}-r{rounds[-1].round if rounds else 0}-加赛表.xlsx"


def stage_title(stage_name: str) -> str:
    """A stage's name without its round number: 小组循环赛第1轮 → 小组循环赛."""
    import re

    return re.sub(r"\s*第\s*[\d一二三四五六七八九十]+\s*轮\s*", "", stage_name).strip() or stage_name


def only_deciding_ties(rows: list, boundaries: set[int]) -> list:
    """Keep ``playoff_required`` only on ties that straddle a boundary (a tie for 2nd–3rd
    place when both get 二等奖 needs no 加赛)."""
    ranks: dict[int, int] = {}
    for r in rows:
        ranks[r.rank] = ranks.get(r.rank, 0) + 1
    out = []
    for r in rows:
        last = r.rank + ranks[r.rank] - 1
        needed = r.playoff_required and any(r.rank <= b < last for b in boundaries)
        out.append(r if needed == r.playoff_required else dataclasses.replace(r, playoff_required=needed))
    return out


def _norm_int(v: Any) -> str:
    """A _meta round number as text: ``_norm_int(2.0) == "2"``; what no integer can hold
    ("1e999", "inf", "nan") stays as written (it stopped the run with OverflowError)."""
    if v is None:
        return ""
    s = str(v).strip()
    try:
        return str(int(float(s)))
    except (ValueError, OverflowError):
        return s


def _received(rec: Received) -> str:
    """When a sheet was received, as a RESULT_CONFLICT note says it: ``11月10日 18:10 收到``."""
    return f"{cn_when(rec.received_at)} 收到"


#: what a result looks like when typed in a signature cell: a word of a result, a score
#: (2:0, 2-1, 15), a card level (J, 10, A)
_RESULT_WORD = re.compile(r"^(?:[甲乙丙]方?)?(?:胜|负|和|平|輸|输|勝|贏|赢|和棋|弃权|棄權)$|^\d+(?:\s*[:：比\-—]\s*\d+)?$|^[JQKAjqka]$")


def _result_like(value: Any, columns: Sequence[Any]) -> bool:
    """Whether a signature cell holds a result (:data:`_RESULT_WORD`, or a choice of one of
    the result columns) rather than a name or a mark."""
    if value is None or isinstance(value, bool):
        return False
    text = "".join(str(value).split())
    if not text:
        return False
    if isinstance(value, (int, float)) or _RESULT_WORD.match(text):
        return True
    return any(c.kind == "choice" and text in c.choices and text != "无" for c in columns)


def _faults(found_in: Iterable[tuple[Any, Iterable[tuple[Issue, tuple | None]]]]) -> dict[tuple, str]:
    """The tables the round's sheets said a problem of (:meth:`EventRunner.note_unscored`'s
    ``faulted``), each with why it waits: "未填" when all that was said of it is
    RESULT_SIGNED_BLANK (a signed row, its result left out), else "有误"."""
    out: dict[tuple, str] = {}
    for _, items in found_in:
        for i, table in items:
            if table is not None:
                out[table] = "未填" if i.code == "RESULT_SIGNED_BLANK" and out.get(table, "未填") == "未填" else "有误"
    return out


#: what a referee puts between a pair's or team's players when he types them: / ／ 、 ， , ; ；
#: (read after NFKC, which makes ／ ， ； the ASCII ones); spaces only where none of these is typed
_PLAYER_SEPARATORS = re.compile(r"[/／、，,;；]+")
#: a bracketed note after a name (（重组）, （会计/机关二）, (已退赛))
_BRACKETED = re.compile(r"[（(【\[][^（）()【】\[\]]*[）)】\]]")


def _players_in_any_order(raw: Any, e: Entry | None) -> bool:
    """R2016-F2 (a pair re-formed at check-in) and every pair or team: a side cell naming the
    entry's players, all of them and no one else, in any order and with any usual separator
    (潘霞洋/姜力, 潘霞洋、姜力, 潘霞洋 姜力, 潘霞洋／姜力（重组）) names that entry — the referee
    retyped the printed 姜力/潘霞洋（重组）（会计/机关二） and it was refused as “不是本桌选手”.
    Bracketed notes are dropped; names compare NFKC, spaces out, in Simplified too.

    A two-character name is often padded to three with a space in Chinese lists (姜　力): the
    cell is split on the explicit separators (/ ／ 、 ， , ; ；) first, spaces inside each name
    dropped; only a cell with none of them is split on its spaces — then a run of space-separated
    pieces may be one padded name (潘霞洋 姜　力), the players still meeting at a space.

    >>> from pipeline.model import Person
    >>> e = Entry("x", "gd", "g1", "姜力/潘霞洋（重组）", (Person("姜力", "g1"), Person("潘霞洋", "g2")))
    >>> [_players_in_any_order(t, e) for t in ("潘霞洋/姜力", "潘霞洋 、 姜力（重组）", "潘霞洋", "姜力/姜力")]
    [True, True, False, False]
    >>> [_players_in_any_order(t, e) for t in ("潘霞洋、姜\u3000力", "姜\u3000力\u3000潘霞洋", "潘霞洋姜 力")]
    [True, True, False]
    """
    if e is None or len(e.players) < 2 or not isinstance(raw, str):
        return False
    from .ingest.workbook import strip_spaces
    from .text import to_simplified

    text = unicodedata.normalize("NFKC", raw)
    while True:
        bare = _BRACKETED.sub(" ", text)
        if bare == text:
            break
        text = bare
    names = sorted(strip_spaces(to_simplified(p.name)) for p in e.players)
    if _PLAYER_SEPARATORS.search(text):
        typed = [strip_spaces(to_simplified(n)) for n in _PLAYER_SEPARATORS.split(text)]
        typed = [n for n in typed if n]
        return sorted(typed) == names
    # no explicit separator: the spaces separate the players, some of them maybe padding a name
    pieces = [x for x in (strip_spaces(to_simplified(n)) for n in re.split(r"\s+", text)) if x]

    def split_into(at: int, left: list[str]) -> bool:
        """Whether ``pieces[at:]`` are the names ``left``, each a run of whole pieces."""
        if at == len(pieces):
            return not left
        run = ""
        for end in range(at, len(pieces)):
            run += pieces[end]
            if run in left:
                rest = list(left)
                rest.remove(run)
                if split_into(end + 1, rest):
                    return True
        return False
    return len(pieces) >= len(names) and split_into(0, names)


def row_blank(rr: Any, columns: Any) -> bool:
    """:func:`pipeline.games.common.row_blank` (imported when a sheet is read)."""
    from .games.common import row_blank as blank

    return blank(rr, columns)


def _said_line(shown: Sequence[str], t: tuple, labels: Sequence[str] | None = None) -> str:
    """A line's filled result cells ``shown`` (of ``t``, typed as :func:`_typed`, one per
    ``labels``, ``shown`` when None), each with its column: 甲方级数“4”、乙方级数“K”; “（空）”."""
    got = [(l, v) for l, v in zip(labels or shown, t) if l in shown and v]
    return "、".join(f"{l}“{quoted(v)}”" for l, v in got) or "（空）"


def _said_board(shown: Sequence[str], t: tuple, labels: Sequence[str] | None = None) -> str:
    """A board's line's filled score cells ``shown`` (as :func:`_said_line`, not its 牌号):
    “-50”, or 南北得分“-50”、弃权“…”; “（空）”."""
    got = [(l, v) for l, v in zip(labels or shown, t) if l in shown and l != "牌号" and v]
    return "、".join(f"{l if len(got) > 1 else ''}“{quoted(v)}”" for l, v in got) or "（空）"


def _typed(value: Any) -> str:
    """A result cell as typed, a 0 as “0” (handbook RESULT_CONFLICT: 桥牌 0 is a score, not a blank)."""
    return "" if value is None else str(value).strip()


def _row_values(rr: Any, labels: list[str]) -> tuple:
    return tuple(str(rr.values.get(l) or "").strip() for l in labels)


def _detail_values(rows: Any) -> tuple:
    """A table's 明细 rows as typed (not where: their cells), to tell the same sent again."""
    return tuple(tuple(sorted((k, str(v if v is not None else "").strip()) for k, v in d.items() if not k.startswith("_")))
                 for d in rows or ())


def _same_cell(column: Any, earlier: Any, later: Any, game: Any = None) -> bool:
    """Whether two rows of a table hold the same in ``column``'s cell: typed alike, or read
    alike (:func:`pipeline.games.common.cell_reading`: 黑中盘胜 and 甲胜, PASS and 0, 10级 and 10)."""
    from .games.common import cell_reading

    return _row_values(earlier, [column.label]) == _row_values(later, [column.label]) or \
        cell_reading(column, earlier, game) == cell_reading(column, later, game)


def _first_change(earlier: Any, later: Any, labels: list[str], columns: Sequence[Any] = (), game: Any = None) -> str:
    """The first result column whose cell two rows of a table read differently (RESULT_CONFLICT
    points at it: a changed 乙得分 was said at 甲得分, which had not changed; 黑中盘胜 re-sent as
    甲胜 with a 原因 added was said at 结果, which reads the same: :func:`_same_cell`); the
    first cell typed differently when none reads differently alone, the row's first column
    when none is."""
    typed = [c for c in labels if _row_values(earlier, [c]) != _row_values(later, [c])]
    cols = {c.label: c for c in columns}
    return next((l for l in typed if l not in cols or not _same_cell(cols[l], earlier, later, game)),
                typed[0] if typed else labels[0])


def _read_alike(earlier: Any, later: Any) -> bool:
    """Handbook RESULT_CONFLICT / RESULTS_REWRITTEN: whether two readings of a table
    (MatchResult) are one result — each side's outcome, points, score and place, the reason,
    and what the game keeps of the row (levels, boards, 先行); not where they were read."""
    return earlier.sides == later.sides and earlier.reason == later.reason and earlier.detail == later.detail


def _same_outcome(earlier: Any, later: Any) -> bool:
    """R2020-S1: whether two readings of a table (MatchResult) give the same outcome — each
    side's win, draw or loss, match points and place at the table — whatever the scores, games
    or reason: what the next round's draw goes by (who advances, the standings by points)."""
    return [(s.outcome, s.points, s.place) for s in earlier.sides] == [(s.outcome, s.points, s.place) for s in later.sides]


def _fills_in(earlier: Any, later: Any, columns: Sequence[Any], game: Any = None) -> bool:
    """Handbook RESULT_CONFLICT (成绩不一致): whether a later row of a table only fills
    cells the earlier row left unset (blank, or an optional choice's 无, which every game
    reads as blank: :func:`games.common.unset`) and reads every cell the earlier one filled
    the same (:func:`_same_cell`) — a 斗地主 sheet re-sent with the 加赛胜者 a PLAYOFF_REQUIRED
    asked for, the scores as before, is no disagreement (it was "填写的成绩不一致，按更正处理"
    at 甲得分, a cell that had not changed).  A cell cleared or changed is a change (False).
    A row that only fills blanks is still a correction when the result it gives differs from
    the earlier row's (双扣 甲方警告 3, 斗地主 弃权): :meth:`EventRunner._read_sheet` reads that."""
    from .games.common import unset

    for c in columns:
        if not unset(c, earlier.values.get(c.label)) and not _same_cell(c, earlier, later, game):
            return False
    return True


def read_playoffs(inputs: Inputs, ev: EventSpec, entries: list[Entry], issues: IssueLog,
                  units: dict[str, tuple[str, ...]] | None = None) -> list[Playoff]:
    """加赛 results from playoff sheets (layout.PLAYOFF_SHEET), oldest first.

    A problem of a sheet's row is settled — kept as a note (info) — when a sheet received
    later has that group's playoff (the referee sent the form again, corrected), as a
    result sheet's (:meth:`EventRunner.settle_problems`)."""
    from .ingest.sheets import read_playoffs as read
    out: list[Playoff] = []
    read_in: list[tuple[dt.datetime, list[Playoff], list[Issue], dict[int, tuple[str, str]]]] = []
    for rec, book in sorted(inputs.playoffs, key=lambda x: (x[0].received_at, x[0].sha256)):
        about: dict[int, tuple[str, str]] = {}
        found, problems = read(book, rec.file_name, ev.id, ev.name, entries, about, units, ev.former_names)
        found = [dataclasses.replace(p, received=rec.sha256) for p in found]
        out.extend(found)
        read_in.append((aware(rec.received_at), found, problems, about))
    for t, _, problems, about in read_in:
        later = {(p.stage, p.group) for t2, found, _, _ in read_in if t2 > t for p in found}
        # a later sheet read whole (its table found): a problem of this one's as a whole is settled
        later_fine = any(t2 > t and all(n in ab for n in range(len(ps))) for t2, _, ps, ab in read_in)
        for n, i in enumerate(problems):
            if i.severity != Severity.INFO and (about[n] in later if n in about else later_fine):
                i = settled(i, "较晚收到的加赛表已填好这一组，无需再处理。" if n in about else
                            "其后收到的加赛表已读入，无需再处理。")
            issues.extend([i])
    return out


#: why a check-in's warnings and unmarked rows are notes once round 1 is published
CHECKIN_DRAWN = "第1轮已抽签，签到表不再改变对阵"
#: … and in an event whose round 1 is not drawn at the check-in (no draw_at)
CHECKIN_NOT_AWAITED = "本项目第1轮不等签到表抽签"


def checkin_note_once_drawn(i: Issue, note: str = CHECKIN_DRAWN) -> Issue:
    """A check-in sheet's warning (R2016-F2: a row of someone not registered, not entered)
    as a note once round 1 is published: it changes no draw any more (:func:`read_absent`
    ``drawn``; the state kept the night round 1 is drawn, :func:`run_event`)."""
    from . import layout

    if i.severity != Severity.WARNING or i.sheet != layout.CHECKIN_SHEET:
        return i
    return settled(i, f"{note}。")


def read_absent(inputs: Inputs, ev: EventSpec, entries: list[Entry], issues: IssueLog,
                drawn: bool = False, at_checkin: bool = True,
                needless: Collection[str] = (), units: Mapping[str, str] | None = None
                ) -> tuple[frozenset[str], str]:
    """Person keys checked in as absent (R2016-F2), and the check-in's state for the draw:
    ``""`` usable, ``"none"`` no 签到表 lists the event, ``"errors"`` a sheet's problems
    stand (a row that could not be read may be someone absent).

    The sheets are read oldest first and each person's latest mark counts (是 / 否): a sheet
    sent again corrects the one before, and sheets of parts of the field add up.  A sheet's
    problems are settled — kept as notes — once a later sheet listing the event is read
    without an error (a warning, such as a substitute's row, settles nothing of its own).

    A registered player's row with 到场 blank is no mark: an error (round 1 waits) while no
    sheet marks that player 是 or 否 — only a sheet that does settles it, not a later sheet
    of other rows (28 rows left blank were drawn as present, without a word).

    ``drawn``: round 1 is published — a sheet's warnings (a row of someone not registered,
    R2016-F2: not entered) change no draw any more and are notes; an entry withdrawn after
    its players checked in held every later night at exit 1.  So are the rows left blank
    (taken as present): a sheet read after the draw held every night at exit 1, though
    round 1 was published.  ``at_checkin`` False (the event's round 1 is not drawn at the
    check-in, :meth:`EventRunner.drawn_at_checkin`): the same, round 1 never waits for it.

    A player entered for the event on no row of any sheet received (the office deleted the
    rows of the absent instead of choosing 否; the sheets of parts of the field add up, so a
    desk's partial sheet is allowed) is as a row left blank: one error naming them, at the
    latest sheet listing the event, its first row's 项目 cell (:func:`missing_rows_issue`) — round 1
    waits (they were drawn as present without a word, and a published draw is never redrawn);
    a note once round 1 does not wait for the sheet.

    ``needless``: person keys that need no mark (the players of entries withdrawn in
    tournament.yaml) — their blank rows are not said, nor are they missed.  ``units``: unit
    id → name, to tell apart the players a message names."""
    from .ingest.sheets import Listed, Unmarked, read_absent as read, unmarked_issues
    forms: list[tuple[dt.datetime, dict[str, bool | None], list[Issue], list[Unmarked]]] = []
    seen: set[str] = set()
    where: CellRef | None = None        # the event's first 项目 cell on the latest sheet listing it
    for rec, book in sorted(inputs.checkins, key=lambda x: (x[0].received_at, x[0].sha256)):
        marks: dict[str, bool | None] = {}
        blanks: list[Unmarked] = []
        listed = Listed()
        _, problems = read(book, rec.file_name, ev.id, ev.name, entries, marks, ev.former_names, blanks, listed)
        forms.append((aware(rec.received_at), marks, problems, blanks))
        seen |= listed.keys
        where = listed.first or where
    latest: dict[str, bool] = {}
    for _, marks, _, _ in forms:
        latest.update({k: v for k, v in marks.items() if v is not None})
    state = "none" if not any(marks or problems for _, marks, problems, _ in forms) else ""
    quiet = CHECKIN_DRAWN if drawn else CHECKIN_NOT_AWAITED if not at_checkin else ""
    pending = lambda rows: [u for u in rows if u.key not in latest and u.key not in needless]   # noqa: E731
    for t, _, problems, blanks in forms:
        later_fine = any(t2 > t and marks2 and not any(p.severity == Severity.ERROR for p in problems2)
                         and not pending(blanks2)
                         for t2, marks2, problems2, blanks2 in forms)
        for i in problems:
            if later_fine:
                i = settled(i, "其后收到的签到表已读入，无需再处理。")
            elif i.severity == Severity.ERROR:
                state = "errors"
            elif quiet:
                i = checkin_note_once_drawn(i, quiet)
            issues.extend([i])
        unmarked = unmarked_issues(pending(blanks), ev.name, quiet)
        if unmarked and not quiet:
            state = "errors"
        issues.extend(unmarked)
        # a mark neither 是 nor 否 (×) a later sheet marked for that person: said as settled
        issues.extend(settled(i, "其后收到的签到表已读入，无需再处理。")
                      for i in unmarked_issues([u for u in blanks if u.typed and u.key in latest], ev.name))
    if state != "none" and where is not None:
        missing = list({p.key: p for e in entries for p in e.players
                        if p.key not in seen and p.key not in needless}.values())
        if missing:
            issues.extend([missing_rows_issue(missing, ev.name, where, units or {}, quiet)])
            if not quiet:
                state = "errors"
    return frozenset(k for k, absent in latest.items() if absent), state


def missing_rows_issue(missing: Sequence[Person], event_name: str, at: CellRef, units: Mapping[str, str],
                       note: str = "") -> Issue:
    """R2016-F2: players entered for the event on no row of the 签到表 received — an error
    (round 1 waits, as for a row left blank: :func:`read_absent`), or with ``note`` (round 1
    does not wait for the sheet) a note, taken as present.

    >>> at = CellRef("签到.xlsx", "签到", "C73")
    >>> missing_rows_issue([Person("贺芳", "b3")], "扑克牌", at, {"b3": "信息工程学院分工会"}).message
    '签到表中没有扑克牌的 贺芳（信息工程学院分工会）（1 人）：请在签到表中补回这些人的行并在“到场”填“是”或“否”后重发签到表（填好之前第1轮不抽签；行还在、只是姓名或工号写错的，改正姓名或工号即可）。'
    """
    who = "、".join(f"{p.shown}（{units.get(p.branch, p.branch)}）" for p in missing)
    head = f"签到表中没有{event_name}的 {who}（{len(missing)} 人）"
    if note:
        return issue("BAD_VALUE", f"{head}，按到场处理（{note}）。", at=at, severity=Severity.INFO)
    return issue("BAD_VALUE", f"{head}：请在签到表中补回这些人的行并在“到场”填“是”或“否”后重发签到表"
                 "（填好之前第1轮不抽签；行还在、只是姓名或工号写错的，改正姓名或工号即可）。", at=at)


# =====================================================================================
# registrations
# =====================================================================================

def _late_everywhere(t: Tournament, received: dt.datetime) -> bool:
    """Whether a form received then is past every event's deadline (R2020-Q4): never while an
    event has no deadline — a resend changing only that event was refused as "已过全部项目的
    报名截止时间", and its rows were lost."""
    events = t.spec.events
    return bool(events) and all(e.deadline is not None and received > aware(e.deadline) for e in events)


@dataclass
class Current:
    """What :func:`current_registrations` decides: the newest form of each branch, and what
    validation reads — those forms, where a resend came after some events closed without
    those events' rows, beside the rows of the forms sent in time for them."""

    newest: list[tuple[Received, Any]] = field(default_factory=list)
    regs: list[Any] = field(default_factory=list)                   # Registration, for validation
    events_of: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)


def _rows_signature(rows: list) -> list[tuple]:
    return sorted((r.team_no, r.name, r.staff_id, r.gender, r.phone, r.pickup, r.note) for r in rows)


def _kept_on_time(t: Tournament, items: list[tuple[Received, Any]]) -> dict[str, tuple[Received, Any]]:
    """R2020-Q4 judged per event (``late_policy: reject``): for each event whose deadline had
    passed when the branch's newest form (``items[-1]``) arrived, the form that registered
    the branch for it — the newest one received by that deadline, when it has rows of the
    event.  Those rows stay the branch's entries; the late form cannot change them.  (T2015
    closes Go, Xiangqi and Bridge on 10-30 and Shuangkou on 11-14: a branch resends its
    whole form with its Shuangkou pairs in November.)"""
    newest_at = aware(items[-1][0].received_at)
    kept: dict[str, tuple[Received, Any]] = {}
    for ev in t.spec.events:
        if ev.deadline is None or newest_at <= aware(ev.deadline):
            continue
        on_time = [x for x in items[:-1] if aware(x[0].received_at) <= aware(ev.deadline)]
        if on_time and any(r.event == ev.id for r in on_time[-1][1].rows):
            kept[ev.id] = on_time[-1]
    return kept


def _split_by_deadline(t: Tournament, branch: str, items: list[tuple[Received, Any]], issues: IssueLog,
                       cur: Current) -> dict[str, list[str]]:
    """Validation's view of one branch (see :class:`Current`), with the notes to the captain;
    returns the events kept from each earlier form, by its SHA-256."""
    rec, reg = items[-1]
    kept = _kept_on_time(t, items) if t.spec.late_policy == "reject" and len(items) > 1 else {}
    if not kept:
        cur.regs.append(reg)
        return {}
    all_events = frozenset(e.id for e in t.spec.events)
    cur.regs.append(dataclasses.replace(reg, rows=tuple(r for r in reg.rows if r.event not in kept)))
    cur.events_of[(branch, reg.source or reg.file)] = all_events - kept.keys()
    by_form: dict[str, list[str]] = {}
    for ev in t.spec.events:
        if ev.id not in kept:
            continue
        old_rec, old_reg = kept[ev.id]
        by_form.setdefault(old_rec.sha256, []).append(ev.id)
        late_rows = [r for r in reg.rows if r.event == ev.id]
        old_rows = [r for r in old_reg.rows if r.event == ev.id]
        dl = aware(ev.deadline).astimezone(TZ)
        was = f"按时收到的《{old_rec.file_name}》（{cn_when(old_rec.received_at)} 收到）"
        if not late_rows:
            issues.add("LATE_SUBMISSION", f"本表没有“{ev.name}”的报名；该项目报名已于 {dl:%Y-%m-%d %H:%M} 截止，"
                       f"仍以{was}中的报名为准。", at=reg.at(), branch=branch, severity=Severity.INFO,
                       source=reg.source)
        elif _rows_signature(late_rows) != _rows_signature(old_rows):
            cell = late_rows[0].cells.get("项目", "")
            # (the cell is the issue's own: its location, said beside the message — not in it)
            who = "、".join(dict.fromkeys(r.name for r in old_rows if r.name))
            issues.add("LATE_SUBMISSION", f"“{ev.name}”报名截止时间为 {dl:%Y-%m-%d %H:%M}，本表收到时间为 "
                       f"{stamp(rec.received_at, [ev.deadline])}（逾期），本表对该项目的改动不予受理，"
                       f"仍以{was}为准" + (f"（{who}）" if who else "") + "。改动无法通过修改本表生效，不处理也可以；"
                       "如要消除这一标记，请把本表中该项目恢复为原来登记的内容。如有特殊情况请联系组委会。",
                       at=reg.at(cell), branch=branch, source=reg.source)
    for sha, events in by_form.items():
        old_rec, old_reg = next(x for x in items if x[0].sha256 == sha)
        cur.regs.append(dataclasses.replace(old_reg, rows=tuple(r for r in old_reg.rows if r.event in events)))
        cur.events_of[(branch, old_reg.source or old_reg.file)] = frozenset(events)
    return by_form


def _row_of(cell: str) -> int | None:
    digits = "".join(ch for ch in cell or "" if ch.isdigit())
    return int(digits) if digits else None


def first_seen(inputs: Inputs) -> dict[tuple[str, str], dt.datetime]:
    """(branch, person) → the earliest time a usable form of that branch listed them
    (superseded forms too): which of two units sent a person first
    (:func:`pipeline.validate.checks.check_duplicates`) does not change when one of them
    resends its form (handbook DUPLICATE_PERSON: 先收到的一份保留，错误标在后收到的表上).

    A resend that only fills in or corrects a row's 工号 does not make that person new
    either: a row is the person of the unit's earlier row of the same name in the same event
    with the 工号 blank or another one — when the resend no longer lists that earlier
    identity in the event (a namesake kept beside it is another person, who sent nothing
    earlier).  张平秀 sent by b03 on 11-05 without 工号 is the 张平秀 (003005) of b03's resend
    of 11-07, and b03 keeps him against b02's copy of 11-06."""
    from .validate.checks import identity

    forms: dict[str, list[tuple[dt.datetime, Any]]] = {}
    for rec, reg in inputs.registrations:
        if not getattr(reg, "usable", False) or not getattr(reg, "branch", ""):
            continue
        forms.setdefault(reg.branch, []).append((aware(rec.received_at), reg))
    out: dict[tuple[str, str], dt.datetime] = {}
    for branch, items in forms.items():
        items.sort(key=lambda x: x[0])
        #: (name, event) → the identities the branch's earlier forms listed there
        earlier: dict[tuple[str, str], set[str]] = {}
        for at, reg in items:
            here: dict[tuple[str, str], set[str]] = {}
            for row in reg.rows:
                if row.name and row.event:
                    here.setdefault((row.name, row.event), set()).add(identity(row))
            for row in reg.rows:
                if not (row.name or row.staff_id):
                    continue
                me = identity(row)
                t = at
                if row.name and row.event:
                    for was in earlier.get((row.name, row.event), ()):
                        if was != me and was not in here[(row.name, row.event)] and (branch, was) in out:
                            t = min(t, out[(branch, was)])
                k = (branch, me)
                if k not in out or t < out[k]:
                    out[k] = t
            for ne, ids in here.items():
                earlier.setdefault(ne, set()).update(ids)
    return out


def entry_forms(cur: Current) -> dict[tuple[str, str], dt.datetime]:
    """(branch, event) → when the form validation reads the branch's rows of the event from
    was received (:attr:`Current.regs`; a branch's rows of an event closed before its newest
    form came are read from the form sent in time, :attr:`Current.events_of`)."""
    from .validate.checks import owner_key

    out: dict[tuple[str, str], dt.datetime] = {}
    for reg in cur.regs:
        if not getattr(reg, "usable", False) or not reg.branch or reg.received is None:
            continue
        answers = cur.events_of.get(owner_key(reg))
        for ev_id in {r.event for r in reg.rows if r.event}:
            if answers is None or ev_id in answers:
                out[(reg.branch, ev_id)] = aware(reg.received)
    return out


def _left_out(old_reg: Any, new_reg: Any, kept: tuple[str, ...] = (),
              registered: Collection[int] | None = None) -> list[str]:
    """The people of ``old_reg`` (rows of events in ``kept`` aside) that ``new_reg`` leaves
    out — found there by neither their 工号 nor their name — when it lists fewer people
    (a form that swaps a player for another, same count, is a change made on purpose).

    ``registered``: the rows of ``old_reg`` it registered (:func:`_registered_rows`) — a
    row refused there (over the quota, a second event) registered no one, and leaving it
    out of the new form drops no one (the captain deleted 郑多余 as QUOTA_EXCEEDED asked,
    and was told 郑多余 was no longer registered).  Every row of ``new_reg`` counts: one
    refused there is said on its own row."""
    ids = {staff_key(r.staff_id) for r in new_reg.rows if r.staff_id}
    names = {r.name for r in new_reg.rows if r.name}
    old = [r for r in old_reg.rows if r.name and r.event not in kept and (registered is None or r.row in registered)]
    if len(names) >= len({r.name for r in old}):
        return []
    gone: list[str] = []
    for r in old:
        if r.name in names or (r.staff_id and staff_key(r.staff_id) in ids):
            continue
        shown = r.display_name or r.name
        if shown not in gone:
            gone.append(shown)
    return gone


def _people_dropped(t: Tournament | None, branch: str, items: list[tuple[Received, Any]],
                    kept: dict[str, tuple[str, ...]], issues: IssueLog) -> None:
    """PEOPLE_DROPPED: a unit's newer form replaces the whole of the one before — a captain
    who sends only the one person to add (补报) drops everyone else, and nothing named them
    (an audit: 10 people → 1, only QUOTA_SHORT said anything).  The unit's roster is carried
    form to form (``items``, oldest first, the newest last): a form that left people out
    (:func:`_left_out`) does not become it — so a 补报 form and then its correction are both
    compared with the full form before them, and a deliberate swap earlier is not named
    again.  The newest form's left-out people are named, on it; rows of events closed and
    kept from a form (:func:`_split_by_deadline`, ``kept``) are not compared.  Said once
    (SAID_ONCE): the captain may have meant it.

    The people of a form are those it registered (:func:`_registered_rows`), not every row
    typed: a row refused as an error registered no one.  When the roster is a form before
    the one replaced (that one left them out too), the message names it as where they were
    registered (it named the form replaced, which never had them)."""
    registered: dict[str, frozenset[int] | None] = {}       # (each form validated once)

    def left_out(old: tuple[Received, Any], new: Any) -> list[str]:
        # no one left out of every row typed: no one of the rows registered either (a subset)
        # — a night's resend changing a phone number validates nothing (nor imports
        # pipeline.validate before the returned copies are handed to the worker)
        if not _left_out(old[1], new, kept.get(old[0].sha256, ())):
            return []
        sha = old[0].sha256
        if sha not in registered:
            registered[sha] = _registered_rows(t, old[0], old[1])
        return _left_out(old[1], new, kept.get(sha, ()), registered[sha])
    roster = items[0]
    for x in items[1:-1]:
        if not left_out(roster, x[1]):
            roster = x
    (new_rec, new_reg), replaced = items[-1], items[-2][0]
    gone = left_out(roster, new_reg)
    if not gone:
        return
    word = t.spec.unit_word if t is not None else "单位"
    # (no longer entries, no page knows them as names: each marked one, 于丽 not 於麗)
    from .text import as_name, script_of
    script = script_of(t.spec) if t is not None else "simplified"
    listed = "、".join(as_name(n, script) for n in gone[:12]) + (f" 等 {len(gone)} 人" if len(gone) > 12 else f"（{len(gone)} 人）")
    where = "此前报名的" if roster[0] is replaced else f"此前《{roster[0].file_name}》中报名的"
    issues.add("PEOPLE_DROPPED", f"《{new_rec.file_name}》整份取代了此前的《{replaced.file_name}》，新表中没有{where} "
               f"{listed}，他们现在不在本{word}的报名中。如果这份是补报，请在原表上加上新的人，"
               "把完整的一份重新发送；如果确是撤下这些人，无需处理。",
               at=CellRef(new_rec.file_name), branch=branch, source=new_rec.sha256)


def _registered_rows(t: Tournament | None, rec: Received, reg: Any) -> frozenset[int] | None:
    """The rows of a unit's form that registered someone when it was the unit's form: its
    accepted entries' rows, the form validated on its own as received (a row over the quota
    or of a second event is refused: no one registered by it).  Checks between units (a
    person another unit sent first) are not made — such a row counts as registered.  None
    (every row counts) without the tournament."""
    if t is None:
        return None
    from .validate import validate_registrations

    entries, _ = validate_registrations(t, [reg], now=aware(reg.received or rec.received_at))
    return frozenset(p.row for e in entries for p in e.players)


def _in_mail(inputs: Inputs, sha: str) -> str:
    """（邮件《…》的附件，发件人 …） for a mail's attachment (:attr:`Inputs.mail_of`), else ""."""
    if sha not in inputs.mail_of:
        return ""
    mail, sender = inputs.mail_of[sha]
    return f"（邮件{mail}的附件，发件人 {sender or '未知'}）"


def current_registrations(inputs: Inputs, issues: IssueLog, t: Tournament | None = None
                          ) -> tuple[Current, list[Submission]]:
    """The newest valid registration of each branch; older ones are SUPERSEDED (kept, info).

    A workbook whose branch could not be established (forged token, foreign template)
    never supersedes anything.  A file's own reading problems (``inputs.reg_issues``) go to
    ``issues`` unless it is superseded: a corrected file replaces its problems with its own.
    Each SUPERSEDED note names the file received next (so it does not change when a
    third arrives, nor does the older file's returned copy).

    Under ``late_policy: reject`` a form received after some events closed replaces the
    branch's earlier form only for the events still open: the closed events keep the rows
    of the form sent in time (:func:`_kept_on_time`; its reading problems on those rows
    still count), and the late form's different rows for them are LATE_SUBMISSION."""
    by_branch: dict[str, list[tuple[Received, Any]]] = {}
    subs: list[Submission] = []
    superseded: set[str] = set()
    cur = Current()
    kept_rows: dict[str, set[int]] = {}
    order = {ev.id: n for n, ev in enumerate(t.spec.events)} if t is not None else {}

    def events(reg: Any) -> tuple[str, ...]:
        return tuple(sorted({r.event for r in getattr(reg, "rows", ()) if r.event}, key=lambda e: (order.get(e, 99), e)))

    for rec, reg in inputs.registrations:
        if reg is not None and reg.branch and reg.usable:
            by_branch.setdefault(reg.branch, []).append((rec, reg))
        else:
            subs.append(Submission(rec.sha256, rec.file_name, getattr(reg, "branch", "") or "", rec.received_at,
                                   rec.sender, "rejected", refused="form" if getattr(reg, "foreign", False) else "",
                                   events=events(reg)))
    for items in by_branch.values():
        # forms received at the same time (one mail, or two within its Date's minute): the one
        # saved later is the newer version (the hash decided, and kept an old form by chance)
        items.sort(key=_same_time_order(inputs))
    newest_of = {b: items[-1] for b, items in by_branch.items()}
    held: dict[str, list[tuple[str, str]]] = {}      # (made once, when needed: _without_other_units_people)
    for branch, items in sorted(by_branch.items()):
        items = _without_empty_resends(branch, items, issues, subs)
        items = _without_other_units_people(t, branch, items, newest_of, issues, subs, superseded, held)
        if not items:
            continue
        _same_time_notes(branch, items, issues, inputs.attached_at)
        if t is not None and t.spec.late_policy == "reject":
            # R2020-Q4: a resend after every deadline cannot replace a form sent in time
            # — nor stand as the unit's form when none came in time: it was counted as an
            # accepted unit, its receipt said 部分内容有问题 with every row refused (an audit)
            on_time = [x for x in items if not _late_everywhere(t, x[0].received_at)]
            for rec, reg in items:
                if _late_everywhere(t, rec.received_at):
                    before = "此前按时提交的报名表继续有效。" if on_time else "本单位没有按时收到的报名表，目前没有登记的报名。"
                    issues.add("LATE_SUBMISSION", f"《{rec.file_name}》{_in_mail(inputs, rec.sha256)}"
                               f"于 {stamp(rec.received_at, (e.deadline for e in t.spec.events))} 收到，"
                               f"已过全部项目的报名截止时间，不予受理；{before}",
                               at=CellRef(rec.file_name), branch=branch, source=rec.sha256)
                    subs.append(Submission(rec.sha256, rec.file_name, branch, rec.received_at, rec.sender, "rejected",
                                           refused="late", events=events(reg)))
            if not on_time:
                superseded.update(rec.sha256 for rec, _ in items)     # (their reading problems go unsaid)
                continue
            items = on_time
        newest = items[-1]
        cur.newest.append(newest)
        kept = _split_by_deadline(t, branch, items, issues, cur) if t is not None else {}
        if t is None:
            cur.regs.append(newest[1])
        for (rec, reg), (nxt, nxt_reg) in zip(items, items[1:]):
            superseded.add(rec.sha256)
            still = ""
            if rec.sha256 in kept:
                names = "、".join(f"“{t.spec.event(e).name}”" for e in kept[rec.sha256])  # type: ignore[union-attr]
                still = f"其中{names}的报名已截止，仍以本表为准；"
                kept_rows[rec.sha256] = {r.row for r in reg.rows if r.event in kept[rec.sha256]}
            said = _superseded_by(rec, reg, nxt, nxt_reg, "以最后收到的一份为准", placed=inputs.attached_at) + "；"
            issues.add("SUPERSEDED", f"{said}{still}原文件仍保存在台账中。", at=CellRef(rec.file_name), branch=branch,
                       source=rec.sha256)
            last, last_reg = newest
            together = ((last.file_name, _tie_broken_by(reg, last_reg, rec, last, inputs.attached_at),
                         bool(rec.parent) and rec.parent == last.parent)
                        if last.received_at == rec.received_at else ())
            subs.append(Submission(rec.sha256, rec.file_name, branch, rec.received_at, rec.sender, "superseded",
                                   events=events(reg), kept=tuple(kept.get(rec.sha256, ())), together=together))
        if len(items) > 1:
            _people_dropped(t, branch, items, kept, issues)
        subs.append(Submission(newest[0].sha256, newest[0].file_name, branch, newest[0].received_at,
                               newest[0].sender, "accepted", events=events(newest[1])))
    for rec in inputs.unreadable:
        subs.append(Submission(rec.sha256, rec.file_name, rec.branch, rec.received_at, rec.sender, "unreadable"))
    for rec, _ in inputs.registrations:
        if rec.sha256 not in superseded:
            issues.extend(inputs.reg_issues.get(rec.sha256, ()))
        elif rec.sha256 in kept_rows:     # the rows that still count
            issues.extend(i for i in inputs.reg_issues.get(rec.sha256, ()) if _row_of(i.cell) in kept_rows[rec.sha256])
    return cur, subs


def substitutes_drawn(t: Tournament, ledger: Ledger, cur: Current, issues: IssueLog) -> None:
    """A line under a 替补名单 heading enters no one (the league has no substitutes:
    :attr:`pipeline.ingest.registration.Registration.substitutes`) — save a person already in
    a published round of its event (:func:`_drawn_in`): a version before the heading was known
    read it as a line of the form, entered and drew her, and a league upgraded mid-season
    dropped her (DRAW_INPUT_CHANGED 已不在报名中, QUOTA_SHORT).  Such a line stays in what
    validation reads (``cur.regs``), and the reader's warning at its 姓名 cell becomes a note
    saying why (the heading's note says so too).  Lines of events not drawn, or of people in
    no published round, stay out."""
    from .ingest.registration import substitute_drawn_note, substitutes_heading_note

    rounds: dict[str, list[Round]] = {}
    for k, reg in enumerate(cur.regs):
        held = getattr(reg, "substitutes", ())
        if not held or not reg.usable:
            continue
        answers = cur.events_of.get((reg.branch, reg.source or reg.file))
        kept: dict[str, tuple[Any, str]] = {}       # 姓名 cell → (row, 斗地主第1轮)
        for row in held:
            ev = t.spec.event(row.event)
            if ev is None or (answers is not None and ev.id not in answers):
                continue
            if ev.id not in rounds:
                rounds[ev.id] = ledger.rounds(ev.id)
            n = _drawn_in(rounds[ev.id], reg.branch, row, ev.is_team)
            if n:
                kept[row.cells.get("姓名", "")] = (row, f"{ev.name}第{n}轮")
        if not kept:
            continue
        cur.regs[k] = dataclasses.replace(reg, rows=tuple(sorted((*reg.rows, *(r for r, _ in kept.values())),
                                                                 key=lambda r: r.row)))

        def drawn(i: Issue, reg: Any = reg, kept: dict = kept) -> Issue:
            if (i.code != "BAD_VALUE" or i.source != reg.source or i.file != reg.file or i.sheet != reg.sheet):
                return i
            if i.cell in kept and i.severity == Severity.WARNING:
                row, where = kept[i.cell]
                return dataclasses.replace(i, severity=Severity.INFO, message=substitute_drawn_note(
                    reg.sheet, row, reg.substitutes_heading, where, script=t.spec.script))
            if i.severity == Severity.INFO and i.message == substitutes_heading_note(
                    i.sheet, i.cell, reg.substitutes_heading, script=t.spec.script):
                return dataclasses.replace(i, message=substitutes_heading_note(i.sheet, i.cell, reg.substitutes_heading,
                                                                               drawn_kept=True, script=t.spec.script))
            return i
        issues.revise(drawn)


def duplicates_drawn(t: Tournament, ledger: Ledger) -> Callable[[Any, Any], str]:
    """For validation (:attr:`pipeline.validate.checks.Ctx.drawn`): the published round of a
    row's event its person is in for the row's unit (:func:`_drawn_in`: 象棋第1轮), else "".
    A DUPLICATE_PERSON error on such a row — an older version entered and drew it (before
    one name in one event of two units with one 工号 was flagged, or a resend filling in a
    工号 kept the unit first) — dropped the drawn entry (DRAW_INPUT_CHANGED 已不在报名中,
    QUOTA_SHORT); published draws are never silently redrawn, and the person plays on as
    drawn: the row stays entered, with a warning (handbook DUPLICATE_PERSON), as a drawn line
    under a 替补名单 heading does (:func:`substitutes_drawn`).  Rounds are read per event,
    only for rows a DUPLICATE_PERSON is about."""
    rounds: dict[str, list[Round]] = {}

    def drawn(reg: Any, row: Any) -> str:
        ev = t.spec.event(row.event)
        if ev is None:
            return ""
        if ev.id not in rounds:
            rounds[ev.id] = ledger.rounds(ev.id)
        n = _drawn_in(rounds[ev.id], reg.branch, row, ev.is_team) if rounds[ev.id] else 0
        return f"{ev.name}第{n}轮" if n else ""
    return drawn


def _drawn_in(rounds: list[Round], branch: str, row: Any, team: bool) -> int:
    """The first published round (its number; 0 for none) with ``row``'s person of ``branch``
    on a side: an individual drawn under her 工号, or under her name (:func:`same_name`) where
    drawn without one (:func:`drawn_as`); a team member of a drawn team of her 队号
    (:func:`pipeline.layout.team_number`) whose players, as recorded when it was drawn, name
    her — any of the team, for a round published without its players."""
    from .layout import team_number

    labels = labels_of(rounds)
    name = same_name(row.name)
    for r in rounds:
        for m in r.matches:
            for sid in m.sides:
                parts = sid.split(":", 2)
                if len(parts) != 3 or parts[1] != branch:
                    continue
                if team:
                    if not row.team_no or team_number(parts[2]) != team_number(row.team_no):
                        continue
                    rec = labels.get(sid)
                    players = rec[2] if isinstance(rec, list) and len(rec) > 2 and isinstance(rec[2], str) else None
                    if players is None or name in {same_name(p) for p in players.split("/")}:
                        return r.round
                elif row.staff_id and parts[2] == row.staff_id or not (
                        parts[2].isascii() and any(ch.isdigit() for ch in parts[2])) and same_name(parts[2]) == name:
                    return r.round      # (another 工号 is another person: rules.md, Identity)
    return 0


#: a unit's form naming this many people or more, every one of them in one other unit's
#: form and none in its own, is that unit's list on the wrong form (:func:`_without_other_units_people`)
OTHER_UNITS_PEOPLE_MIN = 3


def _person_keys(reg: Any, cross: "re.Pattern[str] | None" = None) -> list[tuple[str, str]]:
    """(name, 工号) of each named row of a registration — with ``cross`` (the league's
    跨分工会：… note), not of the rows that carry that note: another unit's member playing for
    this unit (R2015-Q2's cross-branch pairs), listed on both units' forms by the rules."""
    return [(r.name, r.staff_id) for r in getattr(reg, "rows", ())
            if r.name and not (cross is not None and cross.search(r.note or ""))]


def _same_person(a: tuple[str, str], people: list[tuple[str, str]]) -> bool:
    """Whether ``a`` is one of ``people``: the same name, and the same 工号 where both have one."""
    return any(a[0] == b[0] and (not a[1] or not b[1] or a[1] == b[1]) for b in people)


def _without_other_units_people(t: Tournament | None, branch: str, items: list[tuple[Received, Any]],
                                newest_of: dict[str, tuple[Received, Any]], issues: IssueLog,
                                subs: list[Submission], refused: set[str],
                                held: dict[str, list[tuple[str, str]]] | None = None) -> list[tuple[Received, Any]]:
    """A unit's forms without its newest when every person in it (at least
    :data:`OTHER_UNITS_PEOPLE_MIN`) is in the newest form of one other unit, received before
    it, and none in the unit's own form before it: another unit's list typed on this unit's issued form and put
    in the inbox (not mailed, where the sender's address tells: OTHER_UNITS_FORM).  It was
    taken as this unit's — its accepted registration SUPERSEDED, its entries gone, and ten
    DUPLICATE_PERSON against it.  It is WRONG_BRANCH (refused, its reading problems unsaid:
    ``refused``); the form before it stands.  A resend of the unit's own people, or a form
    with a few people who moved from another unit, is read as before; so is a form mailed from
    the unit's registered address (the address tells whose it is), and one whose people are on the other
    unit's form as its cross-unit members (跨分工会：…, R2015-Q2: both forms list them).

    ``held`` (one dict for all the units of a night, filled at the first need): each name's
    (unit, 工号) on the units' newest forms — every unit's form was read again for every unit,
    a second of a 200-unit night."""
    if not items:
        return items
    rec, reg = items[-1]
    if rec.sender and t is not None and _registered(t, branch, rec.sender):
        return items            # (mailed from the unit's own registered address: its own form)
    people = _person_keys(reg)
    if len(people) < OTHER_UNITS_PEOPLE_MIN:
        return items
    before = items[-2] if len(items) > 1 else None
    own = _person_keys(before[1]) if before is not None else []
    if any(_same_person(p, own) for p in people):
        return items
    held = {} if held is None else held
    if not held:
        from .text import cross_note

        cross = cross_note(t.spec.unit_word if t is not None else "")
        held[""] = []                    # (made: a night whose forms hold nobody is not made again)
        for b, (_r, g) in newest_of.items():
            for name, staff in _person_keys(g, cross):
                held.setdefault(name, []).append((b, staff))
    # the units whose newest form holds every person of this one (the same name, and the same
    # 工号 where both have one: _same_person) …
    units: set[str] | None = None
    for name, staff in people:
        have = {b for b, s in held.get(name, ()) if b != branch and (not staff or not s or staff == s)}
        units = have if units is None else units & have
        if not units:
            return items
    # … received before this one (of two such forms the later is the copy)
    holders = sorted(b for b in units or () if newest_of[b][0].received_at < rec.received_at)
    if len(holders) != 1:
        return items
    other, (orec, _) = holders[0], newest_of[holders[0]]
    spec = t.spec if t is not None else None
    mine = getattr(spec.unit(branch), "name", branch) if spec else branch
    theirs = getattr(spec.unit(other), "name", other) if spec else other
    stands = (f"此前收到的《{before[0].file_name}》继续有效" if before is not None
              else f"{mine}目前没有登记的报名")
    issues.add("WRONG_BRANCH", f"《{rec.file_name}》是组委会下发给{mine}的报名表，但表中的 {len(people)} 人全都在{theirs}的"
               f"报名表《{orec.file_name}》中，没有一人是{mine}报过的：多半是用{mine}的报名表填写了{theirs}的名单。"
               f"本表未受理，{mine}已有的报名不变（{stands}）。如果是{theirs}要修改报名，请在组委会下发给{theirs}的"
               f"报名表上修改后重新发送；如果确是{mine}的报名（这些人都转到了{mine}），请联系组委会。",
               at=CellRef(rec.file_name), branch=branch, source=rec.sha256)
    subs.append(Submission(rec.sha256, rec.file_name, branch, rec.received_at, rec.sender, "rejected", refused="form"))
    refused.add(rec.sha256)
    return items[:-1]


def _without_empty_resends(branch: str, items: list[tuple[Received, Any]], issues: IssueLog,
                           subs: list[Submission]) -> list[tuple[Received, Any]]:
    """A unit's forms without a form with no entry at all that came after one with entries:
    the blank template attached by mistake replaced the form before it, and every entry of
    the unit was dropped with four QUOTA_SHORT warnings.  It is EMPTY_FORM (refused); the
    form before it stands.  An empty form with none before it is a unit that enters nobody.
    A form whose lines are all for cancelled events (:attr:`Registration.cancelled`) is not
    empty: the captain's form, the lines taken out of it stay out."""
    out: list[tuple[Received, Any]] = []
    for rec, reg in items:
        before = next((r for r, g in reversed(out) if g.rows or g.cancelled), None)
        if not reg.rows and not reg.cancelled and before is not None:
            issues.add("EMPTY_FORM", f"《{rec.file_name}》的“{reg.sheet}”里一个报名也没有（像是空白的报名表），本文件未受理；"
                       f"此前收到的《{before.file_name}》继续有效。如果是发错了文件，请发送填好的报名表；如果确实要撤回"
                       "全部报名，请联系组委会。", at=CellRef(rec.file_name), branch=branch, source=rec.sha256)
            subs.append(Submission(rec.sha256, rec.file_name, branch, rec.received_at, rec.sender, "rejected",
                                   refused="empty"))
            continue
        out.append((rec, reg))
    return out


def _board_key(value: Any) -> str:
    """A 牌号 as a key of a board's row: the number, however typed (１, 1.0, " 1")."""
    from .games.common import to_int

    n = to_int(value) if value not in (None, "") else None
    return str(n) if n is not None else str(value or "")


def _saved_key(reg: Any) -> dt.datetime:
    """When a form was last saved (:attr:`Registration.saved`), for ordering forms received
    at the same time; the earliest time when it does not say."""
    text = getattr(reg, "saved", "") or ""
    try:
        when = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return dt.datetime.min.replace(tzinfo=dt.timezone.utc)
    return when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)


def _same_time_order(inputs: Inputs) -> Callable[[tuple[Received, Any]], tuple]:
    """The order of a unit's forms (or the 评奖表s), the one that counts last: by time of
    receipt; those received at the same time (one mail, or two in its Date's minute) by when
    each workbook was last saved (:func:`_saved_key`), then — SAME_TIME, from an audit of mail
    intake: two forms saved in the same second were ordered by their hashes, a coin toss per
    save — by their places among one mail's attachments (the one attached later counts), then
    by file name; the hash only between files alike in all of these."""
    def key(x: tuple[Received, Any]) -> tuple:
        rec, reg = x
        return (rec.received_at, _saved_key(reg), inputs.attached_at.get(rec.sha256, ("", 0))[1], rec.file_name,
                rec.sha256)
    return key


def _tie_broken_by(reg: Any, nxt_reg: Any, rec: Received, nxt: Received,
                   placed: Mapping[str, tuple[str, int]]) -> str:
    """What put ``nxt`` after ``rec``, received at the same time (:func:`_same_time_order`):
    "saved" (its workbook was saved later), "attached" (the two attached to one mail, it
    after), or "" (nothing the captain could tell: their names, or their hashes)."""
    if _saved_key(reg) != _saved_key(nxt_reg):
        return "saved"
    a, b = placed.get(rec.sha256), placed.get(nxt.sha256)
    if a is not None and b is not None and a[0] == b[0] and a[1] != b[1]:
        return "attached"
    return ""


#: SAME_TIME's words on why the form it names counts (:func:`_tie_broken_by`), before 《…》为准
SAME_TIME_WHY = {"saved": "按表格最后保存的时间以",
                 "attached": "两份表格的保存时间相同，按附件在邮件中的先后以排在后面的",
                 "": "表格没有记录可以区分先后的保存时间，暂以"}


def _same_time_notes(branch: str, items: list[tuple[Received, Any]], issues: IssueLog,
                     placed: Mapping[str, tuple[str, int]] | None = None) -> None:
    """SAME_TIME (warning) when a unit's newest forms were received at the same time (sorted
    by :func:`_same_time_order`): which one counts and why, and how to make the other count.
    Forms a later one replaces anyway need no word.  Also the office's 评奖表 (``branch`` "",
    R2015-A1)."""
    if not items:
        return
    when = items[-1][0].received_at
    group = [(rec, reg) for rec, reg in items if rec.received_at == when]
    if len({rec.sha256 for rec, _ in group}) >= 2:
        names = "、".join(f"《{rec.file_name}》" for rec, _ in group)
        (rec, reg), (last_rec, last_reg) = group[-2], group[-1]
        why = SAME_TIME_WHY[_tie_broken_by(reg, last_reg, rec, last_rec, placed or {})]
        one_mail = bool(last_rec.parent) and all(r.parent == last_rec.parent for r, _ in group)
        issues.add("SAME_TIME", f"{names}同时收到（{cn_when(when)}，{'同一封邮件' if one_mail else '同一封邮件或同一分钟'}），"
                   f"无法按收到时间分先后：{why}《{last_rec.file_name}》为准。如果应以另一份为准，请在那一份上做任意修改"
                   "（如在备注中注明日期）后单独重新发送（原样重发的文件与已收到的相同，不会生效）。", at=CellRef(last_rec.file_name), branch=branch, source=last_rec.sha256)


def sender_checks(t: Tournament, current: list[tuple[Received, Any]], issues: IssueLog) -> None:
    """A mail whose sender is not the branch's registered address → warning (the token,
    not the sender, decides the branch)."""
    for rec, reg in current:
        unit = t.spec.unit(reg.branch)
        if not rec.sender or unit is None or not unit.emails:
            continue
        # (another unit's registered address: the form was not taken, OTHER_UNITS_FORM)
        if not _registered(t, unit.id, rec.sender):
            issues.add("SENDER_UNKNOWN", f"《{rec.file_name}》由 {rec.sender} 发送，不是{unit.name}登记的邮箱"
                       f"（{'、'.join(unit.emails)}）；已按表内令牌认定为{unit.name}的报名，回执只发往登记邮箱。",
                       at=CellRef(rec.file_name), branch=reg.branch, source=rec.sha256)


# =====================================================================================
# outputs
# =====================================================================================

ENTRY_COLUMNS = ["event", "branch", "team", "name", "staff_id", "entry_id", "gender", "pickup"]
DRAW_COLUMNS = ["event", "stage", "round", "group", "table", "seat", "team", "bye", "branch", "entry_id",
                "seed", "input_hash"]
STANDING_COLUMNS = ["event", "stage", "group", "rank", "team", "branch", "players", "points", "tiebreaks",
                    "playoff_required", "entry_id", "played", "wins", "draws", "losses", "score", "tier"]
#: standings.csv's stage of an event's final order (its placements, which decide the awards):
#: not a stage id of any format (a round robin's own stage is "final")
OVERALL_STAGE = "overall"
AWARD_COLUMNS = ["event", "group", "award", "rank", "team", "branch", "players", "prize"]


def write_data(out: Path, state: LeagueState, ledger: Ledger | None = None) -> list[Path]:
    """The machine-readable CSVs of the contract (``data/``).

    ``draw.csv`` and ``standings.csv`` are most of the bytes (every seat of every round):
    an event's lines depend only on its state, which its ``memo_key`` stands for (the
    entries' teams, branches and names are part of it), so the ledger's cache keeps them
    under ``csv:<memo_key>`` and a night that changes one captain's workbook joins the
    kept lines of every unchanged event instead of writing them again."""
    import pickle

    from .fsutil import atomic_write_bytes, csv_header, csv_tuples, write_csv

    d = out / "data"
    by_id = {e.id: e for ev in state.events.values() for e in ev.entries}
    by_id.update({e.id: e for e in state.entries})
    # a line per player, in ENTRY_COLUMNS' order
    atomic_write_bytes(d / "entries.csv", csv_header(ENTRY_COLUMNS) + csv_tuples(
        (e.event, e.branch, e.team, p.shown, p.staff_id, e.id, p.gender, p.pickup)
        for e in state.entries for p in e.players))
    write_issues(d, state)
    keys = {ev.spec.id: "csv:" + ev.memo_key for ev in state.events.values() if ev.memo_key}
    kept = ledger.cache_get(sorted(set(keys.values()))) if ledger is not None else {}
    made: dict[str, bytes] = {}
    draw, standings = [csv_header(DRAW_COLUMNS)], [csv_header(STANDING_COLUMNS)]
    for ev in state.events.values():
        key = keys.get(ev.spec.id)
        blob = kept.get(key) if key else None
        if blob is None:
            parts = _event_csv_lines(ev, by_id)
            if key:
                made[key] = blob = pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)
        else:
            parts = pickle.loads(blob)
        draw.append(parts[0])
        standings.append(parts[1])
    if ledger is not None:
        ledger.cache_put(made)
        ledger.cache_prune("csv:", set(keys.values()))
    atomic_write_bytes(d / "draw.csv", b"".join(draw))
    atomic_write_bytes(d / "standings.csv", b"".join(standings))
    write_csv(d / "awards.csv", AWARD_COLUMNS, [award_csv_row(a) for a in state.awards + state.branch_awards])
    return [d / n for n in ("entries.csv", "issues.csv", "draw.csv", "standings.csv", "awards.csv")]


def award_csv_row(a: AwardRow) -> dict[str, object]:
    """One ``awards.csv`` row (contract columns).  ``branch`` is every unit the award is
    credited to, joined by 、 — ``g02、g03`` for a pair from two units (R2015-Q2 cross-unit
    pairs, R2016-F2 pairs re-formed at check-in), one unit id otherwise.

    >>> award_csv_row(AwardRow("guandan", "D", "小组第一名", 1, "甲/乙（重组）", "g02", "甲/乙", units=("g02", "g03")))["branch"]
    'g02、g03'
    """
    return {**dataclasses.asdict(a), "branch": "、".join(a.unit_ids)}


def write_issues(d: Path, state: LeagueState) -> None:
    """``data/issues.csv``: the state's issues in their order (contract columns) — each message
    as written, what people typed in it unmarked (:func:`pipeline.text.plain`)."""
    from .fsutil import write_csv
    from .text import plain

    write_csv(d / "issues.csv", ISSUE_COLUMNS,
              [{**i.row(), "message": plain(i.message)} for i in IssueLog(state.issues).sorted()])


def _event_csv_lines(ev: EventState, by_id: dict[str, Entry]) -> tuple[bytes, bytes]:
    """One event's lines of ``draw.csv`` and ``standings.csv`` (without their headers).
    Tiebreak values are written as printed (索伯分 8, not its integer form 16 — ``scale``).
    A pair of two units' players (R2015-Q2 跨分工会, R2016-F2 re-formed at check-in) has both
    unit ids in ``branch``, joined by 、 (``g02、g03``), as ``awards.csv`` has them."""
    from .fsutil import csv_rows
    from .render.site_vm import show_scaled
    from .score import TIEBREAK_SCALE

    draw_rows = []
    for r in ev.rounds:
        for m in r.matches:
            for seat, sid in enumerate(m.sides):
                e = by_id.get(sid)
                draw_rows.append({"event": ev.spec.id, "stage": r.stage, "round": r.round, "group": m.group,
                                  "table": m.table, "seat": seat + 1, "team": e.team if e else sid,
                                  "bye": int(m.bye), "branch": _units_cell(e), "entry_id": sid,
                                  "seed": r.seed, "input_hash": r.input_hash})
    st_rows = []
    for tb in ev.standings:
        for row in tb.rows:
            e = by_id.get(row.entry)
            st_rows.append({"event": ev.spec.id, "stage": tb.stage, "group": tb.group, "rank": row.rank,
                            "team": e.team if e else row.entry, "branch": _units_cell(e),
                            "players": e.player_names if e else "", "points": row.points,
                            "tiebreaks": ";".join(f"{k}={show_scaled(v, TIEBREAK_SCALE.get(k, 1))}"
                                                  for k, v in row.tiebreaks.items()),
                            "playoff_required": int(row.playoff_required), "entry_id": row.entry,
                            "played": row.played, "wins": row.wins, "draws": row.draws,
                            "losses": row.losses, "score": row.score})
    # a placement needs a playoff only where its tie crosses an award boundary (the event
    # then waits: EventState.ties); a tie inside one band (two 二等奖) needs none
    waiting = {i for st, _, ids in ev.ties if st == FINAL_PLACES for i in ids}
    for p in ev.placements:
        e = by_id.get(p.entry)
        st_rows.append({"event": ev.spec.id, "stage": OVERALL_STAGE, "group": p.group, "rank": p.rank,
                        "team": e.team if e else p.entry, "branch": _units_cell(e),
                        "players": e.player_names if e else "", "points": "", "tiebreaks": "",
                        "playoff_required": int(p.entry in waiting), "entry_id": p.entry, "tier": p.tier})
    return csv_rows(DRAW_COLUMNS, draw_rows), csv_rows(STANDING_COLUMNS, st_rows)


def _units_cell(e: Entry | None) -> str:
    """An entry's ``branch`` cell in the data files: its unit, or both of a pair from two units."""
    return "、".join(e.units) if e is not None else ""


# =====================================================================================
# the batch
# =====================================================================================

def run(opts: RunOptions) -> RunReport:
    """Run the nightly batch on one tournament folder.  Raises SpecError (bad spec) and
    RunLock.Busy (another run holds the tournament); everything about the inputs becomes
    an issue row instead."""
    quick = ""
    if Path(opts.folder).is_dir() and not (opts.imap_url or opts.smtp_url):   # mail must be fetched/sent
        cached, quick = lastrun.quick_unchanged(Path(opts.folder), opts.out_parent, opts.now, opts.pdf)
        if cached is not None:
            return cached
    from .spec import load_tournament

    t = load_tournament(opts.folder, cache_parent=Path(opts.out_parent))   # the spec kept last time, if current
    out = Path(opts.out_parent) / t.spec.id
    say = opts.progress or (lambda msg: log().info(msg))
    if not (out / "ledger.sqlite").exists():
        tournament_id_changed(t, Path(opts.out_parent))
    try:
        return _run_in(t, out, opts, say, quick)
    except OSError as e:
        # what the message may say: "what was received and drawn is in the ledger" only when
        # the ledger holds any (not on a first run stopped before it received anything)
        from .store import ledger_holds

        e.ledger_holds = ledger_holds(out)      # type: ignore[attr-defined]
        raise


def _run_in(t: Tournament, out: Path, opts: RunOptions, say: Callable[[str], None], quick: str) -> RunReport:
    """:func:`run` from the output folder on: made, locked, the ledger opened."""
    out.mkdir(parents=True, exist_ok=True)
    from .gcpolicy import paused
    from .spec import keep_spec
    from .parallel import discard_prestarted
    from .store import check_ledger_there

    check_ledger_there(out)

    with RunLock(out, wait=opts.wait), Ledger(out) as ledger, paused(), contextlib.ExitStack() as later:
        later.callback(discard_prestarted)    # a prestarted worker this run did not use
        sweep_temp_files(out)
        same_league(t, ledger, out)           # (exit 2: another league's output folder)
        keep_spec(t, out)                     # under the lock, beside the ledger
        import gc

        from .fsutil import sync_each
        sync_each(False)      # the outputs are synced at once before the run records itself
        try:
            return _run_locked(t, out, ledger, opts, say, later, quick)
        finally:
            sync_each(True)
            gc.unfreeze()   # see _run_locked: the state's objects go back to the collector


#: the ledger's cache key of every name each event has had (event id → names, oldest first)
EVENT_NAMES_KEY = "names:events"


def with_former_names(t: Tournament, ledger: Ledger) -> Tournament:
    """The spec with each event's earlier names (EventSpec.former_names), as the ledger
    remembers them: an event renamed in tournament.yaml (象棋 → 中国象棋) lost every entry,
    the forms saying 象棋 were UNKNOWN_EVENT to each captain, and the drawn event stopped
    ("尚无有效报名").  A name another event has now is not taken as a former one."""
    raw = ledger.cache_get([EVENT_NAMES_KEY]).get(EVENT_NAMES_KEY)
    try:
        seen: dict[str, list[str]] = json.loads(raw) if raw else {}
    except ValueError:
        seen = {}
    now = {ev.id: ev.name for ev in t.spec.events}
    merged = {k: list(v) for k, v in seen.items()}
    for eid, name in now.items():
        if name not in merged.setdefault(eid, []):
            merged[eid].append(name)
    if merged != seen:
        ledger.cache_put({EVENT_NAMES_KEY: json.dumps(merged, ensure_ascii=False, sort_keys=True).encode()})
    current = set(now.values())
    former = {eid: [n for n in merged.get(eid, []) if n != now[eid] and n not in current] for eid in now}
    if not any(former.values()):
        return t
    return _with_events(t, [dataclasses.replace(ev, former_names=list(dict.fromkeys([*ev.former_names, *former[ev.id]])))
                            if former[ev.id] else ev for ev in t.spec.events])


def with_cancelled_events(t: Tournament, ledger: Ledger) -> Tournament:
    """The tournament with the events tournament.yaml had on an earlier night and has no more
    (:attr:`~pipeline.spec.Tournament.cancelled_events`: id → every name it had, as
    :func:`with_former_names` recorded them — called after it).  TOO_FEW_ENTRIES advises
    取消本项目; the office deleted the event from tournament.yaml, and each captain's line
    for it, on a form issued with the event and sent in time, was UNKNOWN_EVENT (请从下拉列表
    中选择) — an error no captain could fix after the deadline, the run's exit status 1
    every night after (from an audit).  Such a line is a note now (EVENT_CANCELLED).  A name
    an event of tournament.yaml has now (an event whose id changed) is not a cancelled one's."""
    from .spec import name_key

    raw = ledger.cache_get([EVENT_NAMES_KEY]).get(EVENT_NAMES_KEY)
    try:
        seen = json.loads(raw) if raw else {}
    except ValueError:
        seen = {}
    if not isinstance(seen, dict):
        return t
    ids = {ev.id for ev in t.spec.events}
    now = {name_key(n) for ev in t.spec.events for n in (ev.id, ev.name, *ev.former_names)}
    gone = {str(eid): tuple(n for n in names if isinstance(n, str) and name_key(n) not in now)
            for eid, names in seen.items() if eid not in ids and isinstance(names, list)}
    gone = {eid: names for eid, names in sorted(gone.items()) if names and name_key(eid) not in now}
    if not gone:
        return t
    import copy

    out = copy.copy(t)
    out.cancelled_events = gone
    return out


#: the ledger's cache key of tournament.yaml's settings as the last run read them (:func:`spec_edits`)
SPEC_SEEN_KEY = "spec:seen"


def _spec_leaves(value: Any, path: str = "") -> dict[str, str]:
    """A spec's settings as ``path → value`` (JSON text): mappings by key, a list of items
    with ids by id (``events[xiangqi].quota.per_branch``; the item itself as ``（有）``, so one
    added or taken out is one change), any other list as one value.

    >>> _spec_leaves({"events": [{"id": "x", "quota": {"per_branch": 2}}], "notes": ["a"]})
    {'events[x].quota.per_branch': '2', 'events[x]': '（有）', 'notes': '["a"]'}
    """
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for k, v in value.items():
            out.update(_spec_leaves(v, f"{path}.{k}" if path else str(k)))
        return out
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, dict) and v.get("id") for v in value):
        out = {}
        for v in value:
            out.update(_spec_leaves({k: x for k, x in v.items() if k != "id"}, f"{path}[{v['id']}]"))
            out[f"{path}[{v['id']}]"] = "（有）"
        return out
    return {path: json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)}


#: how much of a setting's value SPEC_EDITED shows (each side, each item)
SHOWN_CHARS = 40


def _spec_change(key: str, before: str | None, after: str | None) -> str:
    """One setting's change as SPEC_EDITED says it: ``key old → new``; a list (sessions, a
    withdrawn list) by the items taken out and added (``sessions：删除了 2 项（…）``), and a long
    value from where the two differ — both sides cut at their first 40 characters hid a
    change after them (two sessions taken out read ``[{"date": "2020-11-10", … → [{"date":
    "2020-11-10", …``, from an audit).

    >>> _spec_change("notes", '["a", "b", "c"]', '["a", "d"]')
    'notes：删除了 2 项（b、c），新增了 1 项（d）'
    >>> _spec_change("title", '"' + "x" * 50 + '1"', '"' + "x" * 50 + '2"')
    'title …xxxxxxxxxx1" → …xxxxxxxxxx2"'
    """
    def parsed(v: str | None) -> Any:
        try:
            return json.loads(v) if v is not None and v != "（有）" else None
        except ValueError:
            return None

    old, new = parsed(before), parsed(after)
    if isinstance(old, list) and isinstance(new, list):
        def text(v: Any) -> str:
            return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)

        def label(v: Any) -> str:
            if isinstance(v, dict):
                v = " ".join(f"{k}={_short_time(x)}" for k, x in v.items() if x not in (None, "", [], {}))
            elif not isinstance(v, str):
                v = text(v)
            return v if len(v) <= SHOWN_CHARS else v[:SHOWN_CHARS] + "…"

        def missing(a: list, b: list) -> list:
            left = collections.Counter(text(x) for x in b)
            out = []
            for x in a:
                if left[text(x)]:
                    left[text(x)] -= 1
                else:
                    out.append(x)
            return out

        def items(xs: list) -> str:
            return "、".join(label(x) for x in xs[:3]) + (" 等" if len(xs) > 3 else "")

        removed, added = missing(old, new), missing(new, old)
        if not removed and not added:
            return f"{key}：各项的顺序有改动"
        if len(removed) == len(added) <= 3:
            # an item changed in place (a session's venue, a notice line's phone number): what
            # changed in it — each side cut at 40 characters read the same (a review).  Items
            # are paired only as the same item: dicts by an id, name or date they share (not
            # None), one string for one string; anything else is said as taken out and added
            parts = []
            for a, b in zip(removed, added):
                if isinstance(a, dict) and isinstance(b, dict):
                    ident = next((f"{k}={_short_time(a[k])}" for k in ("id", "name", "date")
                                  if a.get(k) is not None and a.get(k) == b.get(k)), "")
                    diffs = [_spec_change(k, None if k not in a else text(a[k]), None if k not in b else text(b[k]))
                             for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
                    if not ident or not diffs:
                        parts = []
                        break
                    parts.append(f"（{ident}）" + "，".join(diffs))
                elif isinstance(a, str) and isinstance(b, str) and len(removed) == 1:
                    parts.append(_spec_change("", text(a), text(b)).strip())
                else:
                    parts = []
                    break
            if parts:
                return f"{key}：改了 {len(parts)} 项：" + "；".join(parts)
        return f"{key}：删除了 {len(removed)} 项" + (f"（{items(removed)}）" if removed else "") + \
            f"，新增了 {len(added)} 项" + (f"（{items(added)}）" if added else "")

    def shown(v: str | None) -> str:
        return "（未设）" if v is None else v
    a, b = shown(before), shown(after)
    if len(a) > SHOWN_CHARS or len(b) > SHOWN_CHARS:
        same = len(os.path.commonprefix([a, b]))
        start = max(0, same - 10) if same > SHOWN_CHARS - 10 else 0

        def cut(v: str) -> str:
            return ("…" if start else "") + v[start:start + SHOWN_CHARS] + ("…" if len(v) > start + SHOWN_CHARS else "")
        a, b = cut(a), cut(b)
    return f"{key} {a} → {b}"


def _short_time(v: Any) -> Any:
    """``16:00:00`` as ``16:00`` (how tournament.yaml writes a session's times)."""
    return v[:5] if isinstance(v, str) and len(v) == 8 and v[2] == ":" and v.endswith(":00") else v


def spec_edits(t: Tournament, ledger: Ledger) -> list[Issue]:
    """SPEC_EDITED (a note, that night only): what changed in tournament.yaml since the last
    run read it — ``events[xiangqi].quota.per_branch 2 → 1`` — so the problems an edit
    brings (every form over the new quota, QUOTA_EXCEEDED to each captain) are seen to come
    from it, not from the captains (from an audit: nothing linked them).  Nothing on the first
    run.  Kept as the night's news: a run cut short leaves it to the run that finishes the night."""
    told = [i for v in ledger.night_news("spec").values() for i in _from_news(v)]
    got = ledger.cache_get([SPEC_SEEN_KEY, SPEC_SEEN_KEY + ":bytes"])
    if t.spec_sha256 and got.get(SPEC_SEEN_KEY + ":bytes") == t.spec_sha256.encode():
        return told                 # the very bytes read last time (nearly every night)
    now = _spec_leaves(json.loads(json.dumps(dataclasses.asdict(t.spec), ensure_ascii=False, default=str)))
    raw = got.get(SPEC_SEEN_KEY)
    try:
        seen = json.loads(raw) if raw else None
    except ValueError:
        seen = None
    notes: list[Issue] = []
    if isinstance(seen, dict):
        keys = [k for k in sorted(set(seen) | set(now)) if seen.get(k) != now.get(k)]
        # (an item added or taken out is said once, not with each of its settings)
        whole = {k for k in keys if "（有）" in (seen.get(k), now.get(k))}
        keys = [k for k in keys if k in whole or not any(k.startswith(w + ".") for w in whole)]
        if keys:
            said = "；".join(_spec_change(k, seen.get(k), now.get(k)) for k in keys[:8])
            more = f" 等 {len(keys)} 处" if len(keys) > 8 else ""
            notes.append(issue("SPEC_EDITED", f"tournament.yaml 自上次运行以来有改动：{said}{more}。本次运行按改动后的设置进行"
                               "（已公布抽签的项目另见 TERMS_CHANGED、FORMAT_CHANGED）；如是误改，请改回后再运行。",
                               at=CellRef("tournament.yaml")))
    ledger.cache_put({SPEC_SEEN_KEY: json.dumps(now, ensure_ascii=False, sort_keys=True).encode(),
                      SPEC_SEEN_KEY + ":bytes": (t.spec_sha256 or "").encode()},
                     news={"spec:edits": _news_of(notes)} if notes else None)
    return notes or told


#: the ledger's cache key of every name each unit has had (unit id → {"names": full and short
#: names, oldest first; "shown": the one its teams' labels were made from last night})
UNIT_NAMES_KEY = "names:units"


def _told_apart(a: Received, b: Received) -> dict[str, str]:
    """What tells two received files apart in a message when their names and minutes of
    receipt are the same (《checkers-r1-成绩表.xlsx》（12月7日 01:55 收到）twice: which to
    resend?): by SHA-256, the sender, else the inbox file it came in, else the content's
    digest; nothing when the names or the minutes already differ."""
    def minute(r: Received) -> str:
        return cn_when(r.received_at)

    if a.file_name != b.file_name or minute(a) != minute(b):
        return {}
    for part in (lambda r: f"，{r.sender} 发来" if r.sender else "",
                 lambda r: f"，收件箱中的 {Path(r.source).name}" if r.source else ""):
        if part(a) != part(b) and part(a) and part(b):
            return {a.sha256: part(a), b.sha256: part(b)}
    return {a.sha256: f"，内容摘要 {a.sha256[:8]}", b.sha256: f"，内容摘要 {b.sha256[:8]}"}


def _news_of(issues: list[Issue]) -> bytes:
    """Issues as a night's news (:meth:`pipeline.store.Ledger.night_news`)."""
    return json.dumps([i.row() for i in issues], ensure_ascii=False).encode()


def _from_news(value: bytes) -> list[Issue]:
    """The issues a night's news holds (:func:`_news_of`); none from a damaged one."""
    try:
        rows = json.loads(value)
        return [Issue.from_row(r) for r in rows]
    except (ValueError, TypeError, KeyError):
        return []


def with_former_unit_names(t: Tournament, ledger: Ledger) -> tuple[Tournament, list[Issue]]:
    """The spec with each unit's earlier full and short names (UnitSpec.former_names), as the
    ledger remembers them, and a note (UNIT_RENAMED, info) on the night a unit's short name
    (what its teams are labelled by: 行政一1队) changed.  The office corrected the name: the
    published tables take the new one (draw.csv, standings.csv, awards.csv say 行政壹1队 from
    that night), but a 加赛 or result sheet handed out before, naming 行政一1队, comes back
    after it: its team is found by the former name (:func:`pipeline.ingest.sheets._find_entry`)
    — it was BAD_VALUE and the playoff was lost — and so are a 评奖 row's unit and a team an
    event's ``withdrawn`` names by its former label (:func:`unit_names`).  A name another
    unit has now is not taken as a former one (as :func:`with_former_names` for events)."""
    from .issues import issue

    raw = ledger.cache_get([UNIT_NAMES_KEY]).get(UNIT_NAMES_KEY)
    try:
        seen: dict[str, dict[str, Any]] = json.loads(raw) if raw else {}
        if not isinstance(seen, dict):
            seen = {}
    except ValueError:
        seen = {}
    merged: dict[str, dict[str, Any]] = {}
    notes: list[Issue] = []
    for u in t.spec.units:
        was = seen.get(u.id) if isinstance(seen.get(u.id), dict) else {}
        names = [str(n) for n in was.get("names", []) if isinstance(n, str)]
        names += [n for n in (u.name, u.short) if n and n not in names]
        shown, before = u.short or u.name, str(was.get("shown") or "")
        if before and before != shown:
            what = "简称" if u.short else "名称"
            notes.append(issue("UNIT_RENAMED", f"单位{what}由 {before} 改为 {shown}，已公布的表格按新名称显示"
                               f"（改名前下发的加赛表、成绩表、评奖表和 tournament.yaml 退赛名单 withdrawn "
                               f"上的“{before}”照样认得）。", branch=u.id))
        merged[u.id] = {"names": names, "shown": shown}
    kept = {**seen, **merged}       # a unit left out of tournament.yaml keeps its names
    if kept != seen:
        # (the notes kept as the night's news with the names: a run killed after this
        # leaves the run that finishes the night nothing renamed — it says them from there)
        ledger.cache_put({UNIT_NAMES_KEY: json.dumps(kept, ensure_ascii=False, sort_keys=True).encode()},
                         news={f"units:{i.branch}": _news_of([i]) for i in notes})
    # (a unit renamed by a run of this night cut short: told with any renamed since)
    told = {i.branch for i in notes}
    notes += [i for unit, v in sorted(ledger.night_news("units").items()) if unit not in told for i in _from_news(v)]
    current = {n for u in t.spec.units for n in (u.name, u.short) if n}
    former = {u.id: [n for n in merged[u.id]["names"] if n not in current] for u in t.spec.units}
    if not any(former.values()):
        return t, notes
    import copy

    out = copy.copy(t)
    out.spec = dataclasses.replace(t.spec, units=[
        dataclasses.replace(u, former_names=list(dict.fromkeys([*u.former_names, *former[u.id]]))) if former[u.id] else u
        for u in t.spec.units])
    return out, notes


def sweep_temp_files(out: Path) -> None:
    """Remove the ``.<name>.*.tmp`` files a killed run left behind (``fsutil`` writes to
    them and renames; a run killed between the two leaves one).  Called under the lock."""
    for p in out.rglob(".*.tmp"):
        try:
            p.unlink()
        except OSError:
            pass


#: how far a recorded draw time may be ahead of this run and of every received file before it
#: is taken for the earlier run's clock, not this one's (CLOCK_WAS_AHEAD): a round is
#: published within days of its forms and results, a clock set back by hand is off by hours
#: or days, one reset by a dead battery by years — and then behind the files too
FAR_AHEAD = dt.timedelta(days=30)


def clock_behind(ledger: Ledger, now: dt.datetime, issues: IssueLog, t: Tournament) -> None:
    """CLOCK_BEHIND (warning) when this run's time — the machine's clock, or ``--now`` — is
    before the latest round the ledger has published: a clock set back (a dead CMOS battery,
    a wrong --now) judged deadlines as if they had not passed, and the units' pages invited
    re-sent forms for events already drawn, without a word (an audit).  Nothing else changes:
    published rounds stay as they are.

    CLOCK_WAS_AHEAD instead (said once, :data:`pipeline.issues.SAID_ONCE`) when that round's
    recorded time is more than :data:`FAR_AHEAD` after this run's time and after every
    received file's (R2020-Q4: a mail's Date, a file's time), and this run's time is not
    before the newest file's (a day's grace): it is the run that published it whose clock
    (or --now) was ahead.  Told
    to check this clock and run again, the office could change nothing, and every night until
    that date said a warning (exit 1; audit 38).  Its message names no time of this run, so a
    later night says it in the same words — a note."""
    latest = None       # by the moment, not the text: a --now given in UTC is kept as +00:00 (a review)
    for ev_id, rnd_no, text in ledger.published_rounds():
        try:
            when = aware(dt.datetime.fromisoformat(text))
        except (TypeError, ValueError):
            continue
        if latest is None or when > latest[2]:
            latest = (ev_id, rnd_no, when)
    if latest is None or aware(now) >= latest[2]:
        return
    row, at = latest, latest[2]
    name = next((ev.name for ev in t.spec.events if ev.id == row[0]), row[0])
    newest = max((aware(r.received_at) for r in ledger.received()), default=None)
    # (a run whose time is before a file it holds has its own clock behind: set back 45 days
    # after a check-in draw 40 days past the last form, it was told the earlier clock was ahead)
    if newest is not None and at - aware(now) > FAR_AHEAD and at - newest > FAR_AHEAD \
            and aware(now) >= newest - dt.timedelta(days=1):
        issues.add("CLOCK_WAS_AHEAD", f"“{name}”第{row[1]}轮抽签记下的公布时间是 {at.astimezone(TZ):%Y-%m-%d %H:%M}，"
                   "远在本次运行的时间和收到的所有文件的时间（邮件的 Date、文件的时间）之后：多半是公布它的那次运行"
                   "的系统时钟（或 --now）超前了，而不是本次的时钟有误。已公布的抽签保持原样，不会重新抽签，"
                   "抽签无需为此再做什么；本次照常按本次的时间判断截止与否。这条只在第一次发现时是警告，"
                   "以后的运行列为提示。", at=CellRef("tournament.yaml"))
        return
    issues.add("CLOCK_BEHIND", f"本次运行的时间（{aware(now).astimezone(TZ):%Y-%m-%d %H:%M}）早于“{name}”第{row[1]}轮抽签"
               f"公布的时间（{at.astimezone(TZ):%Y-%m-%d %H:%M}）：系统时钟或 --now 可能有误。本次按这个时间判断截止与否，"
               "各单位页面上的报名说明也按它写出；已公布的抽签不会改变。请核对系统时钟（或 --now）后重新运行。",
               at=CellRef("tournament.yaml"))


def _run_locked(t: Tournament, out: Path, ledger: Ledger, opts: RunOptions, say: Callable[[str], None],
                later: contextlib.ExitStack, quick: str = "") -> RunReport:
    """The run under its lock; ``later`` holds what must be left before the lock is (pools)."""
    drawn = ledger.drawn_events()
    event_id_changed(t, ledger, drawn)  # (exit 2 before anything is drawn under a new id)
    unit_id_changed(t, ledger, drawn)
    game_changed(t, ledger, drawn)
    unfinished, ledger.night = lastrun.begin(out)     # before the ledger or an output changes
    if not unfinished:
        ledger.forget_other_nights()
    edited = spec_edits(t, ledger)
    t = with_former_names(t, ledger)
    t = with_cancelled_events(t, ledger)     # (after it: it records tonight's names)
    t, renamed = with_former_unit_names(t, ledger)
    issues = IssueLog()
    issues.extend(edited)       # night-only (NIGHT_ONLY), as the ledger now holds the edited settings
    issues.extend(renamed)      # night-only (NIGHT_ONLY): the ledger now knows the new name
    report = RunReport(out_dir=out)
    mail: list[str] = []        # this night's mail, said by this night's report only (never kept)
    mail_failed = False
    if opts.imap_url:
        from .mail.common import MailError
        from .mail.imap import fetch_mail
        say("收取邮件 …")
        try:
            fetched = fetch_mail(opts.imap_url, t.inbox, ledger, since=t.spec.notice_date)
        except MailError as e:   # a mail-server outage must not stop the night's run; said this night only
            mail.append(f"本次未能收取邮件：{e}")
            mail_failed = True
        else:
            # a message skipped may have to be taken out by hand: exit 1; a mailbox that
            # cannot be marked read loses nothing: said, the exit status is not changed
            mail += fetched.lines()
            mail_failed = mail_failed or bool(fetched.skipped)
    say("收件 …")
    readings: dict[str, bytes] = {}
    listing: list[tuple[str, str, dt.datetime]] = []
    now = opts.now or dt.datetime.now(TZ)
    clock_behind(ledger, now, issues, t)
    # (the files a run of this night took in before it was cut short are this night's too)
    resumed = ledger.night_news("file").keys()
    known = ledger.received_shas() - resumed
    try:
        report.received_new = intake(t, ledger, issues, readings, listing, now) + len(resumed)
    except OSError as e:
        # (a full disk storing a new file in received/: the night's new files are not
        # recorded — intake records them last, all at once — and wait in the inbox; the
        # message says so, not that every received file is in the ledger: audit 38)
        e.intake_failed = True      # type: ignore[attr-defined]
        raise
    # intake's own notes (a file it could not read, one left while being written) are outputs
    # of no received file: the fingerprint holds them (a night that only added such a file
    # was answered with the last run's report, without its note)
    inbox_notes = [i.row() for i in issues]
    if any(i.code == "FILE_BEING_WRITTEN" for i in issues):
        quick = ""          # not armed: the next night reads the inbox, whatever its stat says
    received = named_apart(ledger.received())
    copies = inbox_copies(listing, received)
    report.received_total = len(received)
    copy_at = {rel: mtime for rel, _, mtime in listing}
    fp = fingerprint(t, received, now, opts, [(rel, h, copy_at[rel].isoformat()) for rel, h in copies],
                     inbox_notes)
    # (after a run that did not finish, no record answers: its outputs may be half written)
    last = lastrun.record(out) if not unfinished else None
    said = last if not unfinished else lastrun.said_record(out)     # (what the last finished night told)
    cached = lastrun.load(out, fp, last)
    outputs_current = cached is not None
    if cached is not None and opts.smtp_url and not receipts_built(ledger, fp):
        # receipts may be owed: the outputs are unchanged, but no run built this state's
        # receipts (the first --smtp night, or a form taken in on a night run without it)
        cached = None
    if cached is not None:
        cached.received_total = len(received)
        lastrun.save(out, fp, cached, quick, next_deadline(t, now), t.folder, league_digest(t))   # re-arm the quick check
        keep_said(ledger, cached.issues)    # (the record of a run of an older version: now in the ledger too)
        lastrun.finish(out)
        if opts.smtp_url:   # retry receipts that failed on an earlier night
            from .mail.receipts import unit_names
            from .mail.smtp import resend_pending
            sent = resend_pending(opts.smtp_url, ledger, now=now, units=unit_names(t))
            mail += sent.lines()
            mail_failed = mail_failed or sent.needs_attention
        cached.mail, cached.mail_failed = mail, mail_failed
        return cached
    say("读取工作簿 …")
    inputs = read_inputs(t, ledger, issues, readings)
    inputs.new_files = frozenset(r.sha256 for r in received if r.sha256 not in known)
    earlier = known if opts.smtp_url else set()      # received on an earlier night: receipts owed
    del known, readings
    names = mail_names(ledger, received, t.spec.script, t.spec.notice_date, office_addresses(t.spec)) if copies else None     # (read only for a copy's note)
    resent = inbox_resent(received, copies, copy_at, names)
    mail_ids: dict[str, str] = {}
    bare_mails = mail_issues(t, ledger, issues, inputs, resent, mail_ids)
    terms = terms_at_draw(t, ledger, issues, now)     # validation's view: drawn or closed events as then
    cur, submissions = current_registrations(inputs, issues, terms)
    inputs.entry_forms = entry_forms(cur)
    substitutes_drawn(t, ledger, cur, issues)
    current = cur.newest
    if resent and names is None:
        names = mail_names(ledger, received, t.spec.script, t.spec.notice_date, office_addresses(t.spec))
    resent_forms = resent_issues(t, received, resent, inputs, current, issues, names)
    settle_rejected_before(received, current, issues, mail_ids, inputs.other_units, t)
    own_mail_after_deadline(t, issues, now, current)
    sender_checks(t, current, issues)
    report.registrations = len(inputs.registrations)
    open_copies_ahead(out, submissions, issues, ledger, t.spec.script)    # on the prestarted worker, meanwhile

    say("校验报名 …")
    from .validate import validate_registrations
    entries, found = validate_registrations(terms, cur.regs, now=now, events_of=cur.events_of,
                                            first_seen=first_seen(inputs), drawn=duplicates_drawn(t, ledger))
    issues.extend(found)
    report.entries = len(entries)

    early_jobs, early = start_returned_copies(out, submissions, list(issues), ledger, t.spec.script, form_checks(t),
                                              copy_names(t, entries))
    later.enter_context(early_jobs)     # left with the run: waits for the copies still being made

    say("抽签与计分 …")
    import gc
    gc.freeze()      # the readings and entries live to the end of the run (see below)
    events: dict[str, EventState] = {}
    awards: list[AwardRow] = []
    memo_keys: set[str] = set()
    by_event: dict[str, list[Entry]] = {ev.id: [] for ev in t.spec.events}
    for e in entries:
        by_event.setdefault(e.event, []).append(e)
    advance_on_pool(t, by_event, ledger, inputs, now)
    drawn_ev = {e.id: e for e in terms.spec.events}
    for ev in t.spec.events:
        # an event drawn already runs under its registration terms as drawn (terms_at_draw):
        # its deadline places its rounds' sessions, and the notice prints it
        drawn = drawn_ev.get(ev.id, ev)
        es = run_event(t, drawn, by_event[ev.id], ledger, inputs, issues, now, memo_keys)
        es.session_of_round = schedule(t, es.spec, es.rounds)
        sessions_moved(t, ev, es.spec, es.rounds, issues)
        sessions_passed(es, issues)
        not_played_yet(t, es, issues, now)
        events[ev.id] = es
        if es.complete:
            awards += event_awards(t, ev, es, issues)
        report.events.append(f"{ev.name}：" + ("已完成" if es.complete else (es.waiting or "进行中")))
        if es.waiting and (es.rounds or deadline_passed(ev, now) or es.waiting == NO_DEADLINE_WAITING):
            report.next_steps.append(f"{ev.name}：{es.waiting}")
    deadline_missing(t, events, issues)
    ledger.cache_prune("event:", memo_keys)
    seated_twice(t, events, issues)
    events_gone(t, ledger, issues)
    record_games(t, ledger)
    no_inbox = "" if t.inbox.is_dir() else (
        f"没有收件箱文件夹 {t.inbox}" + ("（同名的是一个文件，不是文件夹）" if t.inbox.exists() else "")
        + "：本次没有读取任何文件。")
    if no_inbox:                    # nothing read: not "all inputs accepted" (exit 1, not 0)
        issues.add("INBOX_MISSING", no_inbox)
    stray_result_sheets(t, inputs, events, issues)
    stray_event_rows(t, inputs, issues)
    branch_awards = discretionary_awards(t, inputs, entries, issues)

    # a said-once warning (SAID_ONCE: DRAW_INPUT_CHANGED …) the last night said in the same
    # words is a note now: the office has been told, and may leave things as they are.  The
    # ledger keeps what was said (lastrun.SAID_KEY): .lastrun.json may be deleted at any time
    any_said_once = any(said_once(i.code, i.message) for i in issues)
    told = lastrun.said_before(said, ledger.cache_get([lastrun.SAID_KEY]).get(lastrun.SAID_KEY)) if any_said_once else set()
    if told:
        issues.revise(lambda i: dataclasses.replace(i, severity=Severity.INFO)
                      if said_once(i.code, i.message) and (i.code, i.message) in told else i)
    newest = max((r.received_at for r in received), default=now)
    state = LeagueState(tournament=t, now=now, updated=newest, submissions=submissions, entries=entries,
                        issues=issues.sorted(), events=events, awards=awards, branch_awards=branch_awards,
                        pdf=opts.pdf, bare_mails=bare_mails, resent_forms=resent_forms,
                        awards_sheet_received=bool(inputs.awards))
    report.issues = state.issues
    report.state = state
    # The state (entries, rounds, results: hundreds of thousands of objects) lives until the
    # end of the run; the cyclic collector need not walk it again at every collection while
    # the outputs are written (run() unfreezes it at the end).
    gc.freeze()
    accepted = {s.branch for s in submissions if s.status == "accepted"}
    report.accepted_branches = sorted(accepted)
    # (a mail's attachment with its mail: two captains' 报名表.xlsx read as one name twice)
    # (a broken file a whole one replaced at its inbox path is settled, SUPERSEDED: not listed
    # as 未被接受 every night after — an audit)
    settled_files = {i.source for i in state.issues if i.code == "SUPERSEDED" and i.source}
    report.rejected_files = [s.file + (f"（邮件{inputs.mail_of[s.sha256][0]}的附件）" if s.sha256 in inputs.mail_of else "")
                             for s in submissions if s.status == "rejected"
                             or (s.status == "unreadable" and s.sha256 not in settled_files)]

    say("写出文件 …")
    written = render_all(t, out, state, current, opts, say, ledger, early)
    report.written = written
    report.unchanged = outputs_current     # (run only for the receipts owed: nothing new was written)
    if opts.smtp_url:
        from .mail import deliver
        sent = deliver(state, out, ledger, opts.smtp_url, now, earlier=earlier)
        mark_receipts_built(ledger, fp)
        mail += sent.lines()      # the summary, then each refused address: what to change
        mail_failed = mail_failed or sent.needs_attention
    report.mail, report.mail_failed = mail, mail_failed
    missing_branches = [u.name for u in t.spec.units if u.id not in accepted]
    if no_inbox:
        report.next_steps.append(no_inbox + "请建立该文件夹，把收到的报名表、成绩表和邮件（.eml）放进去。")
    # (R2020-Q4: not once a form would no longer count — every deadline passed, and under
    # accept-with-warning every event drawn; the unit's page says so, site_vm.next_steps)
    if missing_branches and len(missing_branches) < len(t.spec.units) and \
            forms_still_count(terms.spec.events, terms.spec.late_policy, events, now):
        report.next_steps.append("尚未收到报名表：" + "、".join(missing_branches))
    forms = {s.sha256 for s in state.submissions} | {s.file for s in state.submissions}
    errors = [i for i in state.issues if i.severity == Severity.ERROR]
    # (a unit's: a referee's sheet that is no form — a copied table, a renamed sheet — has no
    # unit, and its referee is told by the line below, not sent a registration form back)
    # (a form issued here under tournament.yaml's former id is the office's to settle, not
    # the captain's to correct: its own step, below)
    # (a received form's copy lost from received/ is the office's to restore: its own step)
    if any((i.source in forms or i.file in forms) and i.branch and i.code not in OFFICES_MATTER for i in errors):
        report.next_steps.append(returned_forms_step(terms.spec.events, events, now, t.spec.late_policy))
    issued_as = [i for i in errors if i.code == "TOURNAMENT_ID_MISMATCH"]
    if issued_as:
        report.next_steps.append(former_id_step(t, issued_as, inputs.registrations))
    copies_lost = [i for i in errors if i.code == "RECEIVED_COPY_LOST"]
    if copies_lost:
        report.next_steps.append(copies_lost_step(copies_lost))
    # R2015-A1: the 评奖表 is the office's own, and read: a problem of its rows (UNKNOWN_BRANCH at a
    # 单位 typed "后勤") is the office's to correct, not a file not taken to tell its sender of
    award_books = {rec.sha256 for rec, _ in inputs.awards}
    if any(i.code in _FILE_REJECTED and i.code != "TOURNAMENT_ID_MISMATCH" and not i.branch
           and i.source not in award_books for i in errors):
        report.next_steps.append("把 data/issues.csv 中没有收取的文件（UNREADABLE_FILE、TEMPLATE_MISMATCH 等，未归属单位）"
                                 "告知发来的人：请用组委会下发的表格（报名表或 results/ 中的成绩表）填写后重发。")
    award_errors = [i for i in errors if i.source in award_books]
    if award_errors:
        report.next_steps.append(awards_sheet_step(award_errors))
    due = sheet_awards_due(state)
    if due:
        report.next_steps.append(awards_sheet_due_step(due))
    # (a RESULT_CONFLICT is a correction already taken: the newer sheet counts, nothing to resend)
    if any(i.code in ("RESULT_INVALID", "TOTAL_MISMATCH", "PARTNER_CHANGED") for i in errors) or \
            any(i.code in ("RESULT_SHEET_BLANK", "RESULT_SIGNED_BLANK") and i.severity == Severity.WARNING
                for i in state.issues):
        report.next_steps.append("把成绩表的问题（data/issues.csv 中的 RESULT_…、TOTAL_MISMATCH 等）告知裁判，"
                                 "改正后把成绩表重新放进 inbox。")
    changed = [i.message.split("：", 1)[0] for i in state.issues if i.code == "PLACES_CHANGED"]
    if changed:
        report.next_steps.append(f"{'、'.join(dict.fromkeys(changed))}已公布的名次和奖项有变（见 data/issues.csv 中的 "
                                 "PLACES_CHANGED）：请核实更正的成绩或改动的奖项设置；如已打印或发出名次表、获奖名单和奖状，请按新的名次和获奖更正。")
    if any(i.code == "RESULTS_REWRITTEN" for i in state.issues):
        report.next_steps.append("有成绩表改动了一轮中大部分桌的成绩（见 data/issues.csv 中的 RESULTS_REWRITTEN）：请与裁判核实"
                                 "是否误把另一轮的成绩填进了这一轮的成绩表。")
    if any(i.code == "DRAW_INPUT_CHANGED" and i.severity == Severity.WARNING and REFUSED_NOT_CORRECTED not in i.message
           for i in state.issues):     # (results refused now, no sheet changed: the RESULT_INVALID step says it)
        report.next_steps.append("已公布的对阵所依据的成绩或报名在公布后有变（见 data/issues.csv 中的 DRAW_INPUT_CHANGED）："
                                 "请核实更正，并决定是否调整已公布的对阵（不会自动重新抽签）。")
    if any(i.code == "DOUBLE_BOOKED" and i.severity == Severity.WARNING for i in state.issues):
        report.next_steps.append("有人在同一场次被排在两个项目的两张桌上（见 data/issues.csv 中的 DOUBLE_BOOKED）："
                                 "请与该单位商定其中一项弃权或先后进行，并告知裁判。")
    if any(i.code == "ROUND_NOT_DRAWN" and i.severity == Severity.WARNING for i in state.issues):
        report.next_steps.append("收到了尚未抽签那一轮的成绩表（见 data/issues.csv 中的 ROUND_NOT_DRAWN）：请与裁判核对轮次"
                                 "（多半是轮次写错或表格发错）；该轮抽签后，与对阵相符的成绩表会自动读取。")
    # DRAWN_ELSEWHERE's three cases, each told once: the output folder's own issued sheet
    # (EventRunner.issued_here), the same inputs with other pairings (redrawn_elsewhere: voided_draws
    # would void the new draw's sheets as well, which carry the same draw digest), the inbox's sheets
    drawn_kinds = {"here" if ISSUED_HERE in i.message else "seed" if "抽签种子" in i.message else "inbox"
                   for i in errors if i.code == "DRAWN_ELSEWHERE"}
    if "here" in drawn_kinds:
        report.next_steps.append("输出文件夹里已有某一轮下发的成绩表，账本 ledger.sqlite 里却没有这一轮（见 DRAWN_ELSEWHERE）："
                                 "恢复的账本比输出文件夹旧，请用最新的备份（这一轮公布之后的）恢复 ledger.sqlite 后再运行；"
                                 "没有这样的备份时怎么办，见 DRAWN_ELSEWHERE 的说明。")
    if "seed" in drawn_kinds:
        report.next_steps.append("收件箱里有按另一次抽签下发的成绩表，报名和成绩与那时相同，现在抽出的对阵却不同（见 DRAWN_ELSEWHERE）："
                                 "请恢复原来的输出文件夹（ledger.sqlite）后再运行，或用原来的 --out；没有备份的，"
                                 "把 tournament.yaml 中的 seed 改回抽签时的值（或用抽签时的程序版本）后再运行。")
    if "inbox" in drawn_kinds:
        report.next_steps.append("收件箱里有按另一次抽签下发的成绩表，而这个输出文件夹里没有那次抽签（见 DRAWN_ELSEWHERE）："
                                 "请恢复原来的输出文件夹（ledger.sqlite）后再运行，或用原来的 --out；"
                                 "确要作废那次抽签、重新抽签的，在 tournament.yaml 本项目下写明 voided_draws（见 DRAWN_ELSEWHERE）。")
    if any(i.code == "WITHDRAWAL_UNMATCHED" for i in errors):
        report.next_steps.append("改正 tournament.yaml 中项目的退赛名单 withdrawn（见 WITHDRAWAL_UNMATCHED：姓名写错或重名，"
                                 "重名时写工号），再运行。")
    # every output of the night on the disk (each was written without its own fsync:
    # fsutil.sync_each) before the record that lets a later night trust them
    sync_all(out)
    if not state.no_pdf:
        lastrun.save(out, fp, report, quick, next_deadline(t, now), t.folder, league_digest(t))
    else:   # PDFs not made for want of a glyph: the next run renders again (a font installed
        # meanwhile changes no input, and an unchanged night would keep the PDFs missing)
        (out / lastrun.LAST_RUN).unlink(missing_ok=True)
    keep_said(ledger, report.issues)
    lastrun.finish(out)
    return report


def keep_said(ledger: Ledger, issues: list[Issue]) -> None:
    """What this night said once (SAID_ONCE), in the ledger (:data:`pipeline.lastrun.SAID_KEY`),
    where deleting ``.lastrun.json`` does not take it: the next full run says it as notes.
    Written when it changed, as the run finishes (after its record, before the unfinished
    mark goes: a run cut short before this told the office nothing, and the night that
    finishes it says its warnings)."""
    said = lastrun.said_kept(issues)
    if ledger.cache_get([lastrun.SAID_KEY]).get(lastrun.SAID_KEY) != said:
        ledger.cache_put({lastrun.SAID_KEY: said}, durable=True)


#: an event pool pays for itself from about this much work (entries + 50 per result workbook)
POOL_EVENTS_FROM = 1000


def advance_on_pool(t: Tournament, by_event: dict[str, list[Entry]], ledger: Ledger, inputs: Inputs,
                    now: dt.datetime) -> int:
    """Advance the events whose state is not kept (:func:`run_event`) on both cores, before
    the run takes them in order.

    Events are independent: each reads its own sheets and publishes its own rounds.  A
    worker runs :func:`run_event` on its own connection to the ledger (SQLite in WAL mode,
    one transaction per published round, as in-process), which stores the state in the
    ledger's cache; the run's own :func:`run_event` then finds it there, so issues, their
    order and every output are those of a one-process run.  An event whose worker failed
    is simply run again in-process (where its error, if any, is raised as usual).  Small
    leagues (below :data:`POOL_EVENTS_FROM`) and ``LEAGUE_WORKERS=1`` stay in-process.
    Returns the number of events run on the pool."""
    import functools

    from . import layout
    from .parallel import Jobs

    todo = [ev for ev in t.spec.events if not event_kept(t, ev, by_event[ev.id], ledger, inputs, now)]

    def work(ev: EventSpec) -> int:
        return len(by_event[ev.id]) + 50 * sum(1 for _, b in inputs.results
                                               if str(b.meta.get(layout.META_EVENT, "")) == ev.id)
    if len(todo) < 2 or sum(map(work, todo)) < POOL_EVENTS_FROM:
        return 0
    todo.sort(key=work, reverse=True)     # the largest first: the workers finish together
    jobs = Jobs(min_parallel=2)
    handles = [jobs.add(functools.partial(_event_in_worker, t, ev, by_event[ev.id], ledger.root, inputs, now))
               for ev in todo]
    with jobs:
        jobs.start()
        if not jobs.parallel:
            return 0          # one core: run_event does them in order, once
        for h in handles:
            try:
                h.result()
            except Exception:  # noqa: BLE001 - run_event runs it again here and reports
                pass
    return len(todo)


def _event_in_worker(t: Tournament, ev: EventSpec, entries: list[Entry], root: Path, inputs: Inputs,
                     now: dt.datetime) -> None:
    """A pool job: :func:`run_event` on this process's own ledger connection (the state
    goes to the ledger's cache; the issues travel with it)."""
    with Ledger(root) as led:
        led.night = inputs.night        # (its news are the run's night's)
        run_event(t, ev, entries, led, inputs, IssueLog(), now, set())


def event_kept(t: Tournament, ev: EventSpec, entries: list[Entry], ledger: Ledger, inputs: Inputs,
               now: dt.datetime) -> bool:
    """True when :func:`run_event` will find the event's state in the ledger's cache."""
    key = _event_key(t, ev, entries, inputs, now)(_event_records(ledger, ev.id))
    return bool(ledger.cache_has([key]))


def _event_records(ledger: Ledger, event: str) -> list[str]:
    """What the ledger holds of ``event`` that its state depends on, as its key hashes it
    (:func:`run_event`): its published rounds (JSON, in order), then — when there are any —
    its byes not scored, their entry withdrawn before the round was played
    (:meth:`EventRunner.unscored_byes`: recorded by the run the withdrawal first applied)."""
    rounds = ledger.rounds_raw(event)
    byes = ledger.withdrawn_byes(event)
    if not byes:
        return rounds
    # (those whose round was seen complete stay unscored whatever comes: part of the state's key)
    done = ledger.completed_withdrawn_byes(event)
    return rounds + ["withdrawn-byes:" + _canon(sorted(byes))] + (["complete:" + _canon(sorted(done))] if done else [])


def _event_key(t: Tournament, ev: EventSpec, entries: list[Entry], inputs: Inputs,
               now: dt.datetime) -> Callable[[list[str]], str]:
    """The event's cache key as a function of its published rounds (see :func:`run_event`);
    made once per run and event (the entries' text is most of the work), kept in ``inputs``."""
    memo = (ev.id, id(entries), len(entries), now)
    if memo not in inputs.event_keys:      # the list is kept with it: its id stays its own
        inputs.event_keys[memo] = (entries, _make_event_key(t, ev, entries, inputs, now))
    return inputs.event_keys[memo][1]


def _make_event_key(t: Tournament, ev: EventSpec, entries: list[Entry], inputs: Inputs,
                    now: dt.datetime) -> Callable[[list[str]], str]:
    from . import layout

    # the result sheets an event reads are its own, by their _meta (EventRunner.round_books):
    # another event's sheet leaves its state as it was (an audit at 200 units: one new 桥牌
    # sheet re-read and re-scored every round of all eight events, every night).  A 加赛 or
    # 签到 sheet can list several events on its rows: each is every event's
    own = [r for r, b in inputs.results if str(b.meta.get(layout.META_EVENT, "")) == ev.id]
    sheets = sorted((r.sha256, r.file_name, r.received_at.isoformat())
                    for r in [*own, *(r for kind in (inputs.playoffs, inputs.checkins) for r, _ in kind)])
    # the forms received after the event's deadline its entries are read from: only such a
    # form can have come after round 1 was drawn (EventRunner.late_valid_ids)
    branches = {e.branch for e in entries}
    late_forms = sorted((b, at.isoformat()) for (b, ev_id), at in inputs.entry_forms.items()
                        if ev_id == ev.id and b in branches and (ev.deadline is None or at > aware(ev.deadline)))
    fixed = [inputs.context or _read_context(t), ev.id, _drawn_digest(entries), sheets, deadline_passed(ev, now),
             draw_time_come(ev, now), late_forms]
    head = hashlib.sha256(_canon(fixed).encode())

    def key_for(rounds: list[str]) -> str:
        # the published rounds (JSON texts, an event's largest input) are hashed as they are,
        # each after its length, not quoted into one more JSON text
        h = head.copy()
        for raw in rounds:
            b = raw.encode()
            h.update(b"\n%d\n" % len(b))
            h.update(b)
        return "event:" + h.hexdigest()
    return key_for


def run_event(t: Tournament, ev: EventSpec, entries: list[Entry], ledger: Ledger, inputs: Inputs,
              issues: IssueLog, now: dt.datetime, memo_keys: set[str]) -> EventState:
    """Advance one event (:class:`EventRunner`) — or take its state from the last run.

    An event's state depends only on the code, the spec, its entries (:func:`_drawn_digest`), its published rounds
    and unscored byes (:func:`_event_records`), the organisers' sheets (results, playoffs, check-in) and whether its deadline has passed;
    the ledger's cache keeps it under a hash of exactly these (``event:<hash>``), so a night
    that changes one captain's phone number does not re-read and re-score every round.
    When the run publishes a round, the state is stored under the key of the ledger as it
    is after publishing (what the next run will start from), so a cached state never
    stands for a draw the ledger does not hold."""
    import pickle

    key_for = _event_key(t, ev, entries, inputs, now)
    before = _event_records(ledger, ev.id)
    rounds_before = ledger.rounds_raw(ev.id)
    key = key_for(before)
    memo_keys.add(key)
    hit = ledger.cache_get([key]).get(key)
    if hit is not None:
        try:
            fields, found = _unpickle(hit)
            # this night's entries (the key holds everything of them but contact details and
            # sheet rows, so they differ from the kept ones, if at all, in a phone number)
            current = {e.id: e for e in entries}
            fields["entries"] = [current[e] if isinstance(e, str) else e for e in fields["entries"]]
            fields["results"] = KeptResults(*fields["results"])
        except Exception:   # a state pickled by another version of a class: run again
            fields = None
        if fields is not None:
            if fields.pop("night", None) != inputs.night:   # said on the night it happened only
                found = [i for i in found if i.code not in NIGHT_ONLY]
            issues.extend(found + _places_news(ledger, ev.id, found))
            drawn_in = fields.pop("drawn_in", None)
            spec = ev if drawn_in is None else dataclasses.replace(ev, format=drawn_in)
            return EventState(spec=spec, memo_key=key, **fields)
    mark = len(issues)
    runner = EventRunner(t, ev, entries, ledger, inputs, issues, now)
    runner.advance()
    placements = runner.placements() if runner.rounds else []
    if runner.complete:
        # a 加赛 leaving level only places of one prize is taken (R2020-F4)
        placements = runner.take_level_playoffs(placements)
        # a finished event's places stay as published while their inputs do (R2020-A1 …)
        digest = places_inputs(runner)
        published = published_places(runner, ledger, digest)
        # … and while only the program scores them otherwise, their sources the same
        rescored = rescored_tables(runner, published, digest)
        recorded, tables = digest, None
        if rescored is not None and published is not None:
            placements = keep_rescored_places(runner, published, placements, rescored)
            if runner.places_kept is not None:     # kept: recorded as they were, with their tables
                recorded = published[0]
                tables = (ledger.places_sources(ev.id) or ("", ""))[1]
        else:
            placements = keep_published_places(runner, published, placements, digest)
        runner.await_award_playoffs(placements)
        if runner.complete:
            places_vacant(runner, placements)
        awarded = _award_record(runner, placements) if runner.complete else None
        if runner.complete and runner.kept_refused:
            places_kept_refused(runner)
        if runner.complete and (published is None or not published[2] or published[0] != recorded
                                or ledger.places_sources(ev.id) is None
                                or _awards_recorded_differ(ledger, ev.id, awarded)):
            news = b""
            if published is not None and published[2]:
                at = len(issues)
                places_changed(runner, published[1], placements, inputs)
                news = _news_of(list(issues)[at:])
            ledger.publish_places(ev.id, recorded, _places_json(placements, awarded), now, news=news,
                                  sources=(places_sources(runner), tables if tables is not None else _places_tables(runner)))
        else:
            issues.extend(_places_news(ledger, ev.id, list(issues)[mark:]))
    if not runner.complete:
        places_withdrawn(runner, ledger, inputs, now)
    standings = runner.standings(placements)
    runner.check_playoff_places(placements, standings)
    fields = dict(format_title=runner.fmt.title, entries=runner.shown_entries(), rounds=runner.rounds,
                  results=runner.results, standings=standings, placements=placements,
                  complete=runner.complete, waiting=runner.waiting, ties=runner.ties,
                  withdrawn=runner.withdrawn_ids(), late=runner.late_ids(), late_valid=runner.late_valid_ids(),
                  same_as=dict(runner.same_as), lot_groups=runner.lot_groups())
    after = _event_records(ledger, ev.id)
    if after != before:
        # a round was published (or a withdrawn entry's bye recorded unscored): the next run
        # starts from the ledger as it is now, and finds exactly this state (the new round
        # waits for its results)
        key = key_for(after)
        memo_keys.add(key)
    found = list(issues)[mark:]
    if runner.rounds and not rounds_before:
        # the next night starts from round 1 published: a check-in's warnings are notes then
        found = [checkin_note_once_drawn(i) for i in found]
    # kept: entries of this night as their ids, the results pickled apart (KeptResults)
    ids = {e.id for e in entries}
    kept = dict(fields, entries=[e.id if e.id in ids else e for e in fields["entries"]],
                results=(pickle.dumps(fields["results"], protocol=pickle.HIGHEST_PROTOCOL), list(fields["results"])))
    if runner.ev is not ev:      # the format its published rounds were drawn in (FORMAT_CHANGED)
        kept["drawn_in"] = runner.ev.format
    kept["night"] = inputs.night
    ledger.cache_put({key: pickle.dumps((kept, found), protocol=pickle.HIGHEST_PROTOCOL)})
    return EventState(spec=runner.ev, memo_key=key, **fields)


def _places_news(ledger: Ledger, event: str, found: list[Issue]) -> list[Issue]:
    """PLACES_CHANGED of ``event`` that this night's news holds and ``found`` (what the run
    found of the event) lacks: the places were published changed by a run of this night that
    was cut short, and this run finds them as published (:meth:`pipeline.store.Ledger.night_news`)."""
    if any(i.code == "PLACES_CHANGED" for i in found):
        return []
    news = ledger.night_news("places").get(event)
    return _from_news(news) if news else []


def places_inputs(runner: EventRunner, playoffs: bool = True) -> str:
    """R2020-A1, R2011-A1, R2016-A1, R2015-A1: a digest of what a finished event's places
    are computed from — its entries, published rounds, results, 加赛 (``playoffs``: left
    out only to compare with a kept state, which does not hold them), withdrawals, and the
    rules of tournament.yaml that rank and reward it (tiebreaks, award scheme, format options;
    not the prize money, which places no one: an edit of it is found against the awards
    recorded with the places, :func:`_awards_recorded_differ` — in the digest, every finished
    event with prizes lost its published places to a new version's ranking) — and
    of nothing that depends on the code.  Recorded in the ledger with the places when they
    are published; a later run with the same digest keeps them (:func:`keep_published_places`).

    What goes in and its form are fixed: a new version that changed them would take every
    finished event's inputs for changed and re-place it."""
    published = {m.key for r in runner.rounds for m in r.matches}
    ev = runner.ev
    body = {
        "entries": sorted(e.id for e in runner.shown_entries()),
        "rounds": [[r.round, r.stage, [[m.group, m.table, list(m.sides), bool(m.bye)] for m in r.matches]]
                   for r in runner.rounds],
        "results": _places_results(runner.results, published),
        "withdrawn": sorted(runner.withdrawn_ids()),
        "rules": [list(ev.tiebreaks) if ev.tiebreaks is not None else None, ev.awards.scheme,
                  ev.awards.options, ev.format.options],
    }
    if playoffs:
        body["playoffs"] = [[p.stage, p.group, list(p.order), list(p.places)] for p in runner.playoffs]
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


def places_sources(runner: EventRunner) -> str:
    """R2020-A1, R2011-A1, R2016-A1, R2015-A1: a digest of the sources of a finished event's
    places alone — its entries, published rounds (and unscored byes), the received sheets
    behind its results and 加赛 (their SHA-256), the check-in's absences, its withdrawals, and
    the office's terms that score and rank it (points, game options, tiebreaks, award scheme,
    format options) — nothing the code computes from them (:func:`places_inputs` hashes the
    results as scored).  Recorded with the places (:meth:`Ledger.publish_places`): a later
    night whose :func:`places_inputs` differ while these do not finds the program's change,
    not the league's — a new version that scores some tables otherwise — and keeps the
    published places (:func:`keep_rescored_places`).

    What goes in and its form are fixed, as :func:`places_inputs`'."""
    from . import layout

    ev = runner.ev
    own = {r.sha256 for n in range(1, len(runner.rounds) + 1) for r, _ in runner.round_books(n)}
    played = {p.source.file for p in runner.playoffs if p.source}
    playoffs = {rec.sha256 for rec, book in runner.inputs.playoffs
                if rec.file_name in played or str(getattr(book, "meta", {}).get(layout.META_EVENT, "")) == ev.id}
    body = {
        "entries": sorted(e.id for e in runner.shown_entries()),
        "rounds": [[r.round, r.stage, [[m.group, m.table, list(m.sides), bool(m.bye)] for m in r.matches]]
                   for r in runner.rounds],
        "sheets": sorted(own),
        "playoffs": sorted(playoffs),
        "absent": sorted(getattr(runner, "absent", ()) or ()),
        "unscored": sorted(list(x) for x in runner.ledger.withdrawn_byes(ev.id)),
        "withdrawn": sorted(runner.withdrawn_ids()),
        "rules": [ev.points, ev.game_options, list(ev.tiebreaks) if ev.tiebreaks is not None else None,
                  ev.awards.scheme, ev.awards.options, ev.format.options],
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


def _places_tables(runner: EventRunner) -> str:
    """The results of the event's tables when its places are published, as JSON of
    :meth:`EventRunner.results_record` (a short digest per table): which tables a later
    version scores otherwise (:func:`rescored_tables`) — naming them only, never deciding."""
    return json.dumps(runner.results_record(), sort_keys=True)


def rescored_tables(runner: EventRunner, published: tuple[str, list, bool] | None, digest: str) -> list[str] | None:
    """The tables a new version scores otherwise than the version that published a finished
    event's places (as the office finds them on the draw sheets) — when what the places were
    computed from differs (``digest``, :func:`places_inputs`) and their sources do not
    (:func:`places_sources`, recorded with them): no sheet, entry or rule changed, the program
    did.  None otherwise (nothing recorded: a ledger of an older version; a source changed:
    the event is placed again, as after any correction)."""
    if published is None or not published[2] or published[0] == digest or not runner.sources_unchanged():
        return None
    rec = runner.ledger.places_sources(runner.ev.id)
    try:
        then = json.loads(rec[1]) if rec and rec[1] else {}
    except ValueError:
        then = {}
    now = runner.results_record()
    keys = []
    for j, rr in enumerate(runner.rounds):
        was = then.get(str(j)) if isinstance(then, dict) else None
        if not isinstance(was, str) or len(was.split()) != len(rr.matches):
            continue
        keys += [m.key for m, a, b in zip(rr.matches, was.split(), now[str(j)].split()) if a != b]
    return runner.tables_named(keys)


def _places_differ(runner: EventRunner, kept: list, placements: list) -> str | None:
    """How ``placements`` (this version's) differ from the ``kept`` published places, as
    PLACES_KEPT says it (``名次会有不同：王军 第3名（公布为第4名）…。``); None when they are the
    same (ranks, entries, tiers, groups, ties and vacant places)."""

    def view(ps: list) -> list:
        return sorted((p.rank, p.entry, p.tier, p.group, p.tied, getattr(p, "vacant", False)) for p in ps)
    if view(kept) == view(placements):
        return None
    names = {e.id: e.team for e in runner.shown_entries()}
    was = {p.entry: p for p in kept}
    now = [p for p in sorted(placements, key=lambda p: (p.rank, p.entry))
           if p.entry not in was or (was[p.entry].rank, was[p.entry].group) != (p.rank, p.group)]
    if not now:
        return "名次的排法（名次说明或并列）会有不同。"
    said = "、".join(f"{names.get(p.entry, p.entry)} {f'{p.group}组' if p.group else ''}第{p.rank}名"
                    f"（公布为{f'{was[p.entry].group}组' if p.entry in was and was[p.entry].group else ''}"
                    f"第{was[p.entry].rank if p.entry in was else '?'}名）" for p in now[:5])
    more = f"等 {len(now)} 人" if len(now) > 5 else ""
    return f"名次会有不同：{said}{more}。"


def keep_rescored_places(runner: EventRunner, published: tuple[str, list, bool], placements: list,
                         tables: list[str]) -> list:
    """R2020-A1, R2011-A1, R2016-A1, R2015-A1 — a finished event whose sources are those its
    places were published from (:func:`rescored_tables`) keeps its published places and awards
    though this version scores some of its tables otherwise (R2016-S1's 过A, 66e77fc): PLACES_KEPT
    (info) names those tables and the places that would differ; the standings' scores are this
    version's (the old ones are not kept), the places and awards those published.  Places that
    come out the same need no word: the caller records them with this version's digest."""
    kept = published[1]
    differ = _places_differ(runner, kept, placements)
    if differ is None:
        return placements
    which = ("、".join(tables[:8]) + (f" 等 {len(tables)} 桌" if len(tables) > 8 else "")) if tables else "部分桌次"
    runner.places_kept = (kept, placements)
    runner.issues.add("PLACES_KEPT",
                      f"{runner.ev.name}已赛完，名次和奖项已经公布。成绩表、报名、加赛和排名规则在公布后都没有改动（不是更正），"
                      f"但现在版本的程序对以下各桌的计分与公布时不同：{which}。按现在的计分，"
                      + differ
                      + "已公布的名次和奖项保持不变，无需处理，不必重新打印名次表和奖状；积分榜上这些桌的得分按现在的计分显示。"
                      "如组委会决定按新的计分调整名次，请联系技术支持。")
    return kept


def _places_results(results: Mapping[tuple, MatchResult], published: set) -> list:
    """The results of published matches as :func:`places_inputs` hashes them (sorted)."""
    return sorted([list(k), [[str(x.outcome.value), x.points, x.score, x.place] for x in r.sides]]
                  for k, r in results.items() if k in published)


def _places_json(placements: list, awards: list | None = None) -> str:
    """The ledger's record of published places — and of the awards given with them (``awards``:
    :func:`_award_record`), which PLACES_CHANGED compares an edit of the award scheme with.  A
    record without awards (an older version's) is the list of places alone."""
    # (a vacant place's entry, R2011-R1, as a 7th item: a record of six is an older version's;
    # a tie for one place's reach, R2020-D2, as an 8th: kept places ask its 加赛 as these did)
    places = [[p.rank, p.entry, p.tier, p.group, bool(p.tied), bool(p.settle)]
              + ([bool(getattr(p, "vacant", False)), list(p.reach)] if getattr(p, "reach", ())
                 else [True] if getattr(p, "vacant", False) else [])
              for p in placements]
    return json.dumps(places if awards is None else {"places": places, "awards": awards}, ensure_ascii=False)


def _recorded_places(body: Any) -> Any:
    """The places of a published-places record (:func:`_places_json`), either form."""
    return body.get("places") if isinstance(body, dict) else body


def _award_record(runner: EventRunner, placements: list) -> list | None:
    """The awards the event's scheme gives for ``placements``, as the ledger records them with
    the places: ``[group, award, entry id, prize]`` in the scheme's order; None when they
    cannot be worked out (the places are recorded in any case)."""
    from .score import AWARD_SCHEMES

    try:
        # (an entry entered after round 1 was drawn has no part in the event: not even a
        # ``rest`` award, which goes to every other entry — late_ids)
        late = runner.late_ids()
        rows, _ = AWARD_SCHEMES.get(runner.ev.awards.scheme).assign(
            runner.ev.awards, placements, [e for e in runner.shown_entries() if e.id not in late], event=runner.ev.id)
    except Exception:   # noqa: BLE001 - the awards are said from the places then (_awards_changed)
        return None
    return [[r.group, r.award, r.entry, int(r.prize)] for r in rows]


def _recorded_awards(ledger: Ledger, event: str) -> list[tuple[str, str, str, int]] | None:
    """The awards recorded with an event's published places (:func:`_places_json`): (group,
    award, entry id, prize) each; None for no record, or a record of places alone (an
    older version's)."""
    rec = ledger.published_places(event)
    if rec is None:
        return None
    try:
        body = json.loads(rec[1])
        if isinstance(body, dict) and isinstance(body.get("awards"), list):
            return [(str(g), str(a), str(e), int(p)) for g, a, e, p in body["awards"]]
    except (TypeError, ValueError):
        pass
    return None


def _awards_recorded_differ(ledger: Ledger, event: str, awarded: list | None) -> bool:
    """Whether the awards recorded with an event's published places (:func:`_recorded_awards`)
    differ from ``awarded`` (:func:`_award_record`) while its places' inputs did not change:
    the prize money edited in tournament.yaml (R2011-A1 第一名 300 → 500 元).  False for a
    record of places alone (an older version's) or awards that cannot be worked out."""
    old = _recorded_awards(ledger, event)
    return old is not None and awarded is not None and old != [tuple(r) for r in awarded]


def published_places(runner: EventRunner, ledger: Ledger, digest: str) -> tuple[str, list, bool] | None:
    """(inputs digest, placements, recorded) a finished event's places were published with:
    the ledger's record (:meth:`Ledger.publish_places`) — or, for an event finished before
    places were recorded (an older version), the places of the last run's kept state when
    it was finished with the same entries, rounds, results and withdrawals (the cache entry
    of the older code, found before this run prunes it; it does not hold the 加赛 sheets or
    the rules it was ranked by, which are taken as they are now)."""
    from .draw.base import Placement

    rec = ledger.published_places(runner.ev.id)
    if rec is not None:
        try:
            return rec[0], [Placement(int(r), str(e), str(tr), str(g), bool(td), bool(st), vacant=bool(v and v[0]),
                                      reach=tuple(int(x) for x in v[1]) if len(v) > 1 else ())
                            for r, e, tr, g, td, st, *v in _recorded_places(json.loads(rec[1]))], True
        except (ValueError, TypeError):
            return None
    want = places_inputs(runner, playoffs=False)
    for _, blob in ledger.cache_items("event:"):
        try:
            kept, _ = _unpickle(blob)
            rounds = kept["rounds"]
            if not (rounds and rounds[0].event == runner.ev.id and kept.get("complete") and kept.get("placements")):
                continue
            old = _KeptView(kept, runner)
            if places_inputs(old, playoffs=False) == want:       # type: ignore[arg-type]
                return digest, list(kept["placements"]), False
        except Exception:   # noqa: BLE001 - a state pickled by another version of a class: not used
            continue
    return None


class _KeptView:
    """A kept event state (the cache's) as :func:`places_inputs` reads a runner."""

    def __init__(self, kept: dict, runner: EventRunner) -> None:
        self.ev, self.rounds = runner.ev, kept["rounds"]
        self.results = KeptResults(*kept["results"])
        self._entries = [e if isinstance(e, str) else e.id for e in kept["entries"]]
        self._withdrawn = kept.get("withdrawn", frozenset())

    def shown_entries(self) -> list:
        return [Entry(id=e, event=self.ev.id, branch="", team="", players=()) for e in self._entries]

    def withdrawn_ids(self) -> frozenset:
        return frozenset(self._withdrawn)


def keep_published_places(runner: EventRunner, published: tuple[str, list, bool] | None, placements: list,
                          digest: str) -> list:
    """R2020-A1, R2011-A1, R2016-A1, R2015-A1 — a finished event's places (and so its awards)
    stay as they were published while what they are computed from is the same
    (:func:`places_inputs`), as a published draw is never redrawn: when the code now
    ranks otherwise (a new version), the published places are kept and PLACES_KEPT (info)
    says so, naming the places that would differ.  A corrected result, a new 加赛 or the
    office's edit of the ranking rules places the event again."""
    if published is None or published[0] != digest:
        return placements
    kept = published[1]
    differ = _places_differ(runner, kept, placements)
    if differ is None:
        return placements
    runner.places_kept = (kept, placements)
    runner.issues.add("PLACES_KEPT",
                      f"{runner.ev.name}已赛完，名次和奖项已经公布。成绩、加赛和排名规则都没有变，但按现在版本的程序计算，"
                      + differ
                      + "已公布的名次和奖项保持不变，无需处理；如组委会决定按新的计算调整，请联系技术支持。")
    return kept


def places_vacant(runner: EventRunner, placements: list) -> None:
    """R2011-R1 (迟到15分钟取消参赛资格: a forfeit) in a place-deciding stage — the office's
    decision, handbook 缺席、弃权和退赛: one who lost a knockout match or a table of three by
    not coming has no place and no award, and the place stays vacant (``Placement.vacant``).
    PLACE_VACANT (a warning the night it is first said, :data:`pipeline.issues.SAID_ONCE`)
    for each vacant place of a finished event: the place and its award, who was absent and
    where (at the table's result cell), and what the office can do — a 弃权 entered by
    mistake is corrected on the result sheet, which places the event again."""
    gone = sorted((p for p in placements if getattr(p, "vacant", False)), key=lambda p: (p.group, p.rank))
    if not gone:
        return
    from .render.viewmodels import match_titles, table_caption
    from .score import AWARD_SCHEMES

    shown = {e.id: e for e in runner.shown_entries()}
    try:
        rows, _ = AWARD_SCHEMES.get(runner.ev.awards.scheme).assign(
            runner.ev.awards, placements, [e for e in shown.values() if e.id not in runner.late_ids()], event=runner.ev.id)
    except Exception:   # noqa: BLE001 - the places are said without their awards then
        rows = []
    award = {(r.group, r.rank): r.award for r in rows if r.vacant}

    def who(e: str) -> str:
        en = shown.get(e)
        return f"{en.team}（{_unit_name_of(runner.t, en.branch)}）" if en is not None else e

    for p in gone:
        where, at, others = "", None, []
        for rnd in reversed(runner.rounds):
            m = next((m for m in rnd.matches if not m.bye and m.key in runner.results
                      and p.entry in _absent_sides(m, runner.results[m.key])), None)
            if m is not None:
                where = f"{rnd.title} {table_caption(m, match_titles(runner.ev.format.type, rnd))}"
                at = runner.results[m.key].source
                others = [s for s in _absent_sides(m, runner.results[m.key]) if s != p.entry]
                break
        a = award.get((p.group, p.rank), "")
        prize = int(runner.ev.awards.prizes.get(a, 0)) if a else 0
        place = f"{p.group + '组' if p.group else ''}第{p.rank}名"
        what = (f"（{a}{f'，奖金 {prize} 元不发' if prize else ''}，不制作证书）" if a else "")
        both = f"与{'、'.join(who(o) for o in others)}双方" if others else ""
        sheet = f"《{at.file}》中" if at is not None and at.file else "成绩表上"
        runner.issues.add(
            "PLACE_VACANT",
            f"{runner.ev.name}：{place}空缺{what}。{who(p.entry)}在{where or '淘汰阶段'}{both}弃权（未到场比赛，取消比赛资格），"
            f"按组委会的决定不得名次和奖项；这一名次空缺，不由他人递补。如是裁判误填了“弃权”，请裁判改正{sheet}这一桌的"
            "成绩后重新发送（放进收件箱再运行），名次和奖项随之重新排定；确属弃权的，无需处理。", at=at)


def _absent_sides(m: Match, res: MatchResult) -> list[str]:
    """The sides of ``m`` that lost it by not coming (弃权, 双方弃权, an absent seat: R2011-R1)."""
    return [s for s, side in zip(m.sides, res.sides) if side.outcome in (Outcome.FORFEIT_LOSS, Outcome.ABSENT)]


def places_kept_refused(runner: EventRunner) -> None:
    """R2020-A1, R2011-A1, R2016-A1, R2015-A1 with R2020-D3: a finished event keeps the places
    and awards an earlier version published from results this version refuses, the sheets
    unchanged (:meth:`EventRunner.keep_results_accepted_before`) — PLACES_KEPT, a warning
    (the results must be checked), naming the tables: every night until the referee corrects
    them (a corrected sheet places the event again, PLACES_CHANGED when a place changes).
    Before, the places and awards were withdrawn and DRAW_INPUT_CHANGED called the unchanged
    sheets corrected."""
    tables = runner.tables_named(runner.kept_refused)
    said = "、".join(tables[:8]) + (f" 等 {len(tables)} 桌" if len(tables) > 8 else "")
    runner.issues.add("PLACES_KEPT",
                      f"{runner.ev.name}已赛完，名次和奖项已经公布。本版程序对成绩的检查更严：以下成绩在公布时已被接受，"
                      f"现在不符合规则（原因见问题清单中这些桌的 RESULT_INVALID）：{said}。这些成绩表在公布后没有改动"
                      "（不是更正），已公布的名次和奖项保持不变，仍按公布时的成绩计算。请裁判按记分表核实这些桌的成绩，"
                      "改正后重发成绩表；收到改正的成绩表后，名次按改正的成绩重新排列，如有变化会另行提示。",
                      severity=Severity.WARNING)


def places_changed(runner: EventRunner, was: list, placements: list, inputs: Inputs) -> None:
    """A finished event placed again after its places were published (R2020-A1, R2011-A1,
    R2016-A1, R2015-A1): a late correction of a result (the handbook: the sheet received
    later counts, RESULT_CONFLICT), a new 加赛 or an edit of the rules that rank it moved
    someone — PLACES_CHANGED, a warning, naming who moved and the awards that changed hands,
    and the event's sheets received this night (the likely cause), when there are some.

    A warning, so the night's exit status is 1 (contract, Exit status: inputs that "need
    attention"): standings, awards and certificates already printed or handed out from the
    published places no longer hold, and a run from cron that exits 0 says all is well.
    Said once, on the night the places change (:data:`pipeline.issues.NIGHT_ONLY`): the
    ledger then holds the new places as published, and a later night that finds the same
    places has nothing new to say.  Places that come out the same (the correction changed
    no place) or a new version that ranks otherwise (PLACES_KEPT) say nothing here.

    Example (t2020's 跳棋, round 5's first table corrected after the final): "跳棋：更正后名次有变：
    第1名 于建明 → 龚俊杰；第2名 龚俊杰 → 于建明。获奖有变：一等奖 于建明 → 龚俊杰；二等奖 …"
    """
    names = {e.id: e.team for e in runner.shown_entries()}

    def seats(ps: list) -> dict[tuple[str, int], tuple[str, ...]]:
        out: dict[tuple[str, int], list[str]] = {}
        for p in ps:
            # (R2011-R1: a vacant place says so, with whose absence left it)
            out.setdefault((p.group, p.rank), []).append(
                f"{VACANT}（{names.get(p.entry, p.entry)}弃权）" if getattr(p, "vacant", False) else p.entry)
        return {k: tuple(sorted(v)) for k, v in out.items()}
    before, after = seats(was), seats(placements)
    moved = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    awards = _awards_changed(runner, was, placements, names)
    if not moved:
        if awards:      # the office's edit of the awards (names, counts, rest, prizes): the same places
            runner.issues.add(
                "PLACES_CHANGED",
                f"{runner.ev.name}：获奖有变：{awards}。{runner.ev.name}已赛完，名次和奖项此前已经公布；名次没有变，"
                "本次按 tournament.yaml 中现在的奖项设置（awards：奖项名称、名额、其余名次的奖项、奖金）重新评定了获奖。"
                "如已打印或发出获奖名单、奖状，请按新的获奖名单更正；如是误改，请把 tournament.yaml 中本项目的 awards 改回原样。")
        return      # the same places and awards (a tie flag or a place's note aside): nothing printed changes

    def who(ids: tuple[str, ...]) -> str:
        return "、".join(names.get(i, i) for i in ids) or "（无）"
    places = [f"{f'{g}组' if g else ''}第{r}名 {who(before.get((g, r), ()))} → {who(after.get((g, r), ()))}"
              for g, r in moved]
    said = "；".join(places[:8]) + (f"；等 {len(places)} 处" if len(places) > 8 else "")
    new, cause = _night_sheets(runner, inputs)
    runner.issues.add(
        "PLACES_CHANGED",
        f"{runner.ev.name}：{'更正后' if cause else '重新计算后'}名次有变：{said}。"
        + (f"获奖有变：{awards}。" if awards else "")
        + f"{runner.ev.name}已赛完，名次和奖项此前已经公布；"
        + (f"本次收到的{cause}改动了它的成绩，名次按更正重新排列。" if cause else
           "本次按现在的成绩、加赛和排名规则重新排列了名次。")
        + "如已打印或发出名次表、奖状，请按新的名次更正；如更正有误，请裁判重发正确的成绩表。",
        at=CellRef(new[-1].file_name) if new else None)


def places_withdrawn(runner: EventRunner, ledger: Ledger, inputs: Inputs, now: dt.datetime) -> None:
    """An event whose places were published (R2020-A1, R2011-A1, R2016-A1, R2015-A1) is no
    longer finished — a corrected result, a 加赛 now required (a tie for a place that counts,
    R2011-F1, R2016-A1) or a result refused: its published places and awards no longer stand
    and none are given in their place.  PLACES_CHANGED (warning) says they are withdrawn, what
    the event waits for, and which of this night's sheets changed it, once: the record of the
    published places is withdrawn with them, so a later night has nothing new to say, and the
    places the event ends with are published afresh (no PLACES_CHANGED against the withdrawn
    ones: that they were withdrawn was said).  (Before, the awards vanished with exit 0 or
    among other issues, and nothing said that published places were gone.)"""
    rec = ledger.published_places(runner.ev.id)
    if rec is None:
        return
    try:
        was = _recorded_places(json.loads(rec[1]))
    except (TypeError, ValueError):
        was = None
    ledger.withdraw_places(runner.ev.id, now)
    if not was:
        return
    new, cause = _night_sheets(runner, inputs)
    waiting = runner.waiting or "有比赛尚无有效成绩"
    # results this version refuses that its earlier reading accepted (R2020-D3), beside what
    # else changed (else the places were kept: keep_results_accepted_before) — not said to be
    # those published: a sheet sent since may hold them
    refused = runner.tables_named(runner.accepted_before()) if runner.rounds else []
    runner.issues.add(
        "PLACES_CHANGED",
        f"{runner.ev.name}：已公布的名次和奖项撤回：{runner.ev.name}此前已赛完，名次和奖项已经公布；"
        + (f"本次收到的{cause}改动了它的成绩，" if cause else "本次按现在的报名、成绩、加赛和排名规则重新计算后，")
        + f"本项目尚未赛完（{waiting}），暂无名次和奖项。"
        + (f"其中以下成绩现在不符合规则（见 RESULT_INVALID；本版程序对成绩的检查更严，以前接受的成绩也可能不再接受）："
           f"{'、'.join(refused[:8])}{f' 等 {len(refused)} 桌' if len(refused) > 8 else ''}。" if refused else "")
        + ("请组织加赛，把加赛结果填入加赛表放进收件箱；" if "加赛" in waiting else "请处理上面所说的问题；")
        + "定出后名次和奖项重新公布。如已打印或发出名次表、奖状，请暂缓使用。",
        at=CellRef(new[-1].file_name) if new else None)


def _night_sheets(runner: EventRunner, inputs: Inputs) -> tuple[list[Received], str]:
    """The event's sheets this night's intake recorded — its rounds' result workbooks and its
    加赛 sheets, the likely cause of a change of its places (PLACES_CHANGED) — in the order
    received, and as a message names them: ``《…》（11月20日 09:00 收到）``."""
    from . import layout

    books = {id(r) for n in range(1, len(runner.rounds) + 1) for r, _ in runner.round_books(n)}
    played = {p.source.file for p in runner.playoffs if p.source}
    new = [rec for rec, _ in runner.inputs.results if rec.sha256 in inputs.new_files and id(rec) in books]
    new += [rec for rec, book in inputs.playoffs if rec.sha256 in inputs.new_files
            and (rec.file_name in played or str(getattr(book, "meta", {}).get(layout.META_EVENT, "")) == runner.ev.id)]
    new = sorted(dict.fromkeys(new), key=lambda r: (aware(r.received_at), r.file_name))
    return new, "、".join(f"《{r.file_name}》（{_received(r)}）" for r in new)


def _awards_changed(runner: EventRunner, was: list, placements: list, names: dict[str, str]) -> str:
    """The awards that changed with the new places or the edited award scheme, against the
    awards recorded when the places were published (:func:`_award_record`; for a record of
    places alone, the scheme as it is now applied to them): who gets each (一等奖 于建明 →
    龚俊杰), an award renamed or no longer given (三等奖 …… → （无）), its prize money
    (第一名 奖金 300 元 → 500 元); "" when none changed."""
    old = _recorded_awards(runner.ledger, runner.ev.id)
    if old is None:
        old = [tuple(r) for r in _award_record(runner, was) or []]
    new = [tuple(r) for r in _award_record(runner, placements) or []]

    def by_award(rows: list) -> dict[tuple[str, str], tuple[tuple[str, ...], int]]:
        out: dict[tuple[str, str], list[str]] = {}
        prize: dict[tuple[str, str], int] = {}
        for g, award, entry, p in rows:
            # (an award row without an entry: a vacant place, R2011-R1)
            out.setdefault((g, award), []).append(names.get(entry, entry) if entry else VACANT)
            prize[(g, award)] = max(prize.get((g, award), 0), p)
        return {k: (tuple(sorted(v)), prize[k]) for k, v in out.items()}

    def who(people: tuple[str, ...]) -> str:
        return ("、".join(people[:6]) + (f"等 {len(people)} 人" if len(people) > 6 else "")) or "（无）"
    a, b = by_award(old), by_award(new)
    said = []
    for g, award in dict.fromkeys([(r[0], r[1]) for r in [*old, *new]]):
        (was_who, was_prize), (now_who, now_prize) = a.get((g, award), ((), 0)), b.get((g, award), ((), 0))
        if (was_who, was_prize) == (now_who, now_prize):
            continue
        head = f"{f'{g}组' if g else ''}{award}"
        if was_who == now_who:
            said.append(f"{head} 奖金 {was_prize} 元 → {now_prize} 元")
        elif was_who and now_who and max(len(was_who), len(now_who)) > 6:     # (a long list: who joined, who left)
            came, went = [x for x in now_who if x not in was_who], [x for x in was_who if x not in now_who]
            said.append(f"{head}（{len(was_who)} 人 → {len(now_who)} 人）" + "，".join(
                [*([f"增加 {who(tuple(came))}"] if came else []), *([f"不再有 {who(tuple(went))}"] if went else [])]))
        else:
            said.append(f"{head} {who(was_who)} → {who(now_who)}"
                        + (f"（奖金 {was_prize} 元 → {now_prize} 元）" if was_who and now_who and was_prize != now_prize
                           and VACANT not in (*was_who, *now_who) else ""))
    return "；".join(said)


#: what a draw, a result or a standing can depend on: every field of an entry and of its
#: players but the players' contact details and sheet positions (phone, pick-up point, note, row)
_NOT_DRAWN = frozenset({"phone", "pickup", "note", "row"})
_ENTRY_DRAWN = tuple(f.name for f in dataclasses.fields(Entry) if f.name != "players")
_PERSON_DRAWN = tuple(f.name for f in dataclasses.fields(Person) if f.name not in _NOT_DRAWN)


def _drawn_digest(entries: list[Entry]) -> str:
    """A digest of the entries as the draw and the scoring see them (:data:`_NOT_DRAWN` left
    out, so a captain correcting a phone number does not re-run the event), for a key.

    The fields are serialised with :mod:`marshal` in its version 2, which has no references
    between objects (so equal fields give equal bytes, whichever objects hold them) and is
    a sixth of ``repr``'s time for a province's 20,000 entries; a field marshal cannot
    write falls back to ``repr``.  Equal bytes always mean equal fields."""
    import marshal
    import operator

    entry_fields, person_fields = operator.attrgetter(*_ENTRY_DRAWN), operator.attrgetter(*_PERSON_DRAWN)
    drawn = [(entry_fields(e), [person_fields(p) for p in e.players]) for e in sorted(entries, key=lambda e: e.id)]
    try:
        body = b"m" + marshal.dumps(drawn, 2)
    except ValueError:
        body = b"r" + repr(drawn).encode("utf-8", "surrogatepass")
    return hashlib.sha256(body).hexdigest()


def next_deadline(t: Tournament, now: dt.datetime) -> dt.datetime | None:
    """The first deadline still ahead — or session start (a round drawn ahead of it waits
    for its results from then on: :func:`not_played_yet`): until then, "now" changes no
    decision."""
    ahead = [aware(when) for e in t.spec.events for when in (e.deadline, e.draw_at) if when and aware(when) > now]
    ahead += [start for start in map(_session_start, t.spec.sessions) if start > aware(now)]
    return min(ahead, default=None)


def _label(es: EventState, entry_id: str) -> str:
    return next((e.team for e in es.entries if e.id == entry_id), entry_id)


def _open_sessions(t: Tournament, ev: EventSpec) -> list[SessionSpec]:
    """The tournament's sessions an event's rounds may be placed in: only those after its
    registration closes — its round 1 cannot be played before it is drawn (T2015: 双扣 closes
    11-14, after the 11-07 sessions of the others) — and not before its draw_at, when round 1
    is drawn at the check-in on the day."""
    opens = [aware(when) for when in (ev.deadline, ev.draw_at) if when is not None]
    return [s for s in t.spec.sessions if not opens or _session_start(s) >= max(opens)]


def _session_start(s: SessionSpec) -> dt.datetime:
    return aware(dt.datetime.combine(s.date, s.start))


def _starts(sessions: Iterable[SessionSpec | None]) -> list[dt.datetime]:
    """The sessions' starts, for a received time said in one's minute with its seconds
    (:func:`pipeline.timeutil.clock`; None: no session)."""
    return [_session_start(s) for s in sessions if s is not None]


def _session_key(s: SessionSpec) -> tuple:
    return (s.date, s.start, s.end)


def session_record(s: SessionSpec, venue: str) -> dict[str, str]:
    """What a published round records of its session (``SESSION_KEY``): date, times, the
    venue printed, and the label as printed."""
    return {"date": s.date.isoformat(), "start": f"{s.start:%H:%M}", "end": f"{s.end:%H:%M}",
            "venue": venue, "label": s.label()}


#: SESSION_KEY of a round drawn after its session (and every later one) had begun:
#: published with no date (:func:`placed_sessions`), printed as this
NO_SESSION = "none"
NO_SESSION_LABEL = "比赛时间另行通知"


def published_without_session(rnd: Round) -> bool:
    """Whether ``rnd`` was published with no date: drawn when no session of the event was
    left to play it in (R2020-S1, :func:`placed_sessions`); it stays so."""
    rec = rnd.plan.get(SESSION_KEY) if isinstance(rnd.plan, dict) else None
    return isinstance(rec, dict) and bool(rec.get(NO_SESSION))


def recorded_session(rnd: Round) -> SessionSpec | None:
    """The session a round was published for, as its plan records it (None: published by
    older code, or a record this version cannot read, or with no date)."""
    return _session_of_record(rnd.plan.get(SESSION_KEY) if isinstance(rnd.plan, dict) else None)


def _session_of_record(rec: Any) -> SessionSpec | None:
    """A session as a round's plan records it (:func:`session_record`); None: no record, one of
    no date, or one this version cannot read."""
    from .spec import SessionSpec

    if not isinstance(rec, dict) or rec.get(NO_SESSION):
        return None
    try:
        return SessionSpec(date=dt.date.fromisoformat(rec["date"]), start=dt.time.fromisoformat(rec["start"]),
                           end=dt.time.fromisoformat(rec["end"]), venue=str(rec.get("venue") or ""))
    except (KeyError, TypeError, ValueError):
        return None


def _recorded_due(rnd: Round) -> SessionSpec | None:
    """The session a round moved by R2020-S1 (SESSION_PASSED) was due in, as its plan records
    it (None: not moved, or a record this version cannot read)."""
    rec = rnd.plan.get(SESSION_KEY) if isinstance(rnd.plan, dict) else None
    due = rec.get("due") if isinstance(rec, dict) else None
    return _session_of_record(due)


def _next_session(sessions: list[SessionSpec], i: int, prev: SessionSpec | None) -> SessionSpec | None:
    """Round ``i`` (0-based)'s session by the spec: the one after the previous round's — the
    next in the list when the previous round's session is in it (R2020-S1: round k to the
    k-th session), else the first that starts later (a published round kept on a session
    taken out of the spec since) — the last one shared when none is left."""
    if not sessions:
        return None
    if prev is None:
        return sessions[min(i, len(sessions) - 1)]
    keys = [_session_key(s) for s in sessions]
    if _session_key(prev) in keys:
        return sessions[min(keys.index(_session_key(prev)) + 1, len(sessions) - 1)]
    later = [s for s in sessions if _session_start(s) > _session_start(prev)]
    if later:
        return later[0]
    return sessions[-1] if _session_start(sessions[-1]) >= _session_start(prev) else prev


def placed_sessions(t: Tournament, ev: EventSpec, rounds: list[Round], drawn_at: dt.datetime | None = None,
                    ready_at: dt.datetime | None = None) -> list[SessionSpec | None]:
    """Each round's session.  A published round keeps the one it was published for (its
    plan's ``SESSION_KEY``: a later edit of the sessions or of the event's deadline moves no
    printed draw sheet — :func:`sessions_moved` says it), or its having none
    (:func:`published_without_session`); a round that records none (published by older
    code) and a round being drawn take the spec's (:func:`_next_session`).

    R2020-S1 (handbook 比赛时间怎样排到各轮): the last round, drawn at ``drawn_at`` (the
    run's time; None: not being drawn, or not late) from results in at ``ready_at``, cannot
    be played in a session begun before both (:func:`_session_passed`): it goes to the first
    later session not yet begun at ``drawn_at`` — the rounds after it follow from there — or,
    none left, to none (published with no date: SESSION_PASSED asks the office to set one)."""
    sessions = _open_sessions(t, ev)
    out: list[SessionSpec | None] = []
    prev = None
    for i, r in enumerate(rounds):
        if published_without_session(r):
            out.append(None)
            continue
        s = recorded_session(r) or _next_session(sessions, i, prev)
        if (drawn_at is not None and i == len(rounds) - 1 and s is not None and recorded_session(r) is None
                and _session_passed(s, prev, ev, i, drawn_at) and _session_passed(s, prev, ev, i, ready_at or drawn_at)):
            s = next((x for x in sessions if _session_start(x) > aware(drawn_at)), None)
        out.append(s)
        prev = s or prev
    return out


def _session_passed(s: SessionSpec, prev: SessionSpec | None, ev: EventSpec, i: int, now: dt.datetime) -> bool:
    """Whether a round drawn at ``now`` is too late for session ``s``: the session has begun —
    but a session the round shares with the round before it (several rounds in one session),
    or round 1 drawn at the check-in (``draw_at``), is played while it lasts."""
    now = aware(now)
    if now < _session_start(s):
        return False
    during = (prev is not None and _session_key(prev) == _session_key(s)) or (i == 0 and ev.draw_at is not None)
    return not during or now >= aware(dt.datetime.combine(s.date, s.end))


def round_venue(t: Tournament, ev: EventSpec, s: SessionSpec) -> str:
    """A session's venue as a draw sheet prints it: the session's own, else the event's,
    else the tournament's (:func:`pipeline.render.viewmodels.session_and_venue`)."""
    own = next((x.venue for x in t.spec.sessions if _session_key(x) == _session_key(s) and x.venue), "")
    return own or ev.venue or t.spec.venue


def schedule(t: Tournament, ev: EventSpec, rounds: list[Round], earlier: list[EventState] | None = None) -> dict[int, str]:
    """R2020-S1: rounds are placed into the tournament's sessions in order.  Round k of an
    event goes to its k-th session after its deadline (a session may hold several events); rounds beyond the last
    session share the last one; a published round keeps the session it was published for
    (:func:`placed_sessions`).  Returns each round's session time (its venue is
    :func:`pipeline.render.viewmodels.session_and_venue`'s; it was once appended here too,
    and then printed twice on draw sheets, table cards and result workbooks)."""
    return {r.round: s.label() if s is not None else NO_SESSION_LABEL for r, s in zip(rounds, placed_sessions(t, ev, rounds))
            if s is not None or published_without_session(r)}


def sessions_passed(es: EventState, issues: IssueLog) -> None:
    """R2020-S1: SESSION_PASSED for each round published away from the session it was due in —
    the results it was drawn from came in after that session began (:meth:`EventRunner.session_plan`):
    moved to the first later session not yet begun (the office tells the units and referees),
    or, none left, published with no date (its draw sheet and result workbook say
    比赛时间另行通知; the office sets a time).  A round published for its session — before it
    began, or from results in before it began, however late the run — is not said.  A warning
    the night it is first said, a note after (SAID_ONCE)."""
    for r in es.rounds:
        rec = r.plan.get(SESSION_KEY) if isinstance(r.plan, dict) else None
        if not isinstance(rec, dict) or not isinstance(rec.get("due"), dict):
            continue
        due = rec["due"]
        began = _session_of_record(due)
        try:
            # in the session's first minute, with its seconds (16:00:30 for a session of 16:00:
            # "16:00 才收齐" beside "16:00 开始" could not say why it was late — an audit), at the
            # start itself too (16:00:00: late, no deadline's exactly-on-time — a review)
            came = (f"（前一轮的成绩 {cn_when(dt.datetime.fromisoformat(rec['results_in']), starts=_starts([began]))}"
                    " 才收齐）")
        except (KeyError, TypeError, ValueError):
            came = ""
        head = (f"{es.spec.name} {r.title}按赛程应在 {due.get('label', '')} 进行，抽签时这一场已经开始{came}，"
                "不能再在这一场比赛")
        sheets = f"对阵表（draws/{es.spec.id}-r{r.round}.html）和成绩表（results/{es.spec.id}-r{r.round}-成绩表.xlsx）"
        kept = recorded_session(r)
        if kept is not None:
            issues.add("SESSION_PASSED", f"{head}：已改排在之后第一个尚未开始的场次 {kept.label()}，{sheets}按此印出。"
                       "请通知各参赛单位和裁判（这一轮已公布，比赛时间不再改动）；以后各轮从这一场起依次顺延，场次不够时请在 "
                       "tournament.yaml 的赛程（sessions）中添上。")
        else:
            issues.add("SESSION_PASSED", f"{head}，之后也没有尚未开始的场次：{sheets}上印的是“{NO_SESSION_LABEL}”。"
                       "请另定比赛时间，通知各参赛单位和裁判；以后各轮也要比赛的，请在 tournament.yaml 的赛程（sessions）"
                       "中添上尚未开始的场次。")


def not_played_yet(t: Tournament, es: EventState, issues: IssueLog, now: dt.datetime) -> bool:
    """R2020-S1: a round drawn and published days before its session waits for no result
    yet: the event says when it is played (``象棋：决赛循环赛第1轮已抽签，定于 2020年11月17日
    16:00—18:00 进行``), not 等待…成绩：还差 1 桌 — on the site, the index's cards and the
    night's summary that read as results overdue — and RESULT_MISSING says the same.  Only
    while no sheet of the round has come with a problem (that is said as it was).  True
    when the waiting text was changed."""
    if not es.rounds or not es.waiting or es.complete:
        return False
    last = es.rounds[-1]
    if not es.waiting.startswith(f"等待{last.title}成绩：") or "已收到但未计分" in es.waiting:
        return False
    if published_without_session(last) and not any(m.key in es.results for m in last.matches if not m.bye):
        # (once a result of the round is in, it is being played: 还差 N 桌 is said as for a
        # dated round whose session began — a review found 另行通知 said with 3 of 5 tables in)
        _not_due(es, issues, f"已抽签，{NO_SESSION_LABEL}", f"已抽签，{NO_SESSION_LABEL}（见 SESSION_PASSED）")
        return True
    session = placed_sessions(t, es.spec, es.rounds)[-1]
    if session is None or aware(now) >= dt.datetime.combine(session.date, session.start, tzinfo=TZ):
        return False
    _not_due(es, issues, f"已抽签，定于 {session.label()} 进行", f"定于 {session.label()} 进行，尚未到比赛时间")
    return True


def _not_due(es: Any, issues: IssueLog, waiting: str, missing: str) -> None:
    """The last round of ``es`` is drawn and not being played yet (:func:`not_played_yet`):
    its waiting line says ``waiting`` (已抽签，定于…进行) instead of 还差 N 桌, and its
    RESULT_MISSING says ``missing`` and what the referees do after the round."""
    last = es.rounds[-1]
    es.waiting = f"{last.title}{waiting}"
    said = f"{es.spec.name} {last.title}还差"
    issues.revise(lambda i: dataclasses.replace(
        i, message=f"{es.spec.name} {last.title}{missing}。赛后裁判填好成绩表"
                   f"（results/{es.spec.id}-r{last.round}-成绩表.xlsx）放进收件箱后再运行。")
        if i.code == "RESULT_MISSING" and i.message.startswith(said) else i)


def sessions_moved(t: Tournament, ev: EventSpec, drawn: EventSpec, rounds: list[Round], issues: IssueLog) -> None:
    """R2020-S1, store.py: a published draw is never silently redrawn — nor moved.  When
    tournament.yaml as it is now (its sessions, the event's deadline, a venue) would place a
    published round elsewhere than it was published for, the round keeps its printed date,
    time and place, and TERMS_CHANGED names it with both.  ``ev`` is the spec's event as it
    is now, ``drawn`` the one the event runs under (its deadline as drawn)."""
    now = _open_sessions(t, ev)
    placed = placed_sessions(t, drawn, rounds)
    said, prev = [], None
    for i, (r, s) in enumerate(zip(rounds, placed)):
        kept = recorded_session(r)
        if kept is not None:
            would = _next_session(now, i, prev)
            would_venue = round_venue(t, ev, would) if would is not None else ""
            # a round the program moved off the session it was due in (SESSION_PASSED says
            # it) is compared with that session: the settings moved nothing (a review: it was
            # said as TERMS_CHANGED too, 如是误改，请改回, for an edit nobody made); its venue
            # with the one the session it was moved to has now
            due = _recorded_due(r)
            if due is not None and would is not None and _session_key(would) == _session_key(due):
                would, would_venue = kept, round_venue(t, ev, kept)
            if would is None or _session_key(would) != _session_key(kept):
                said.append(f"{r.title}仍为 {kept.label()}（按现在的设置{'会改为 ' + would.label() if would else '已没有可排的场次'}）")
            elif kept.venue and would_venue and kept.venue != would_venue:
                said.append(f"{r.title}仍在 {kept.venue}（按现在的设置会改在 {would_venue}）")
        prev = s or prev
    if said:
        issues.add("TERMS_CHANGED", f"{ev.name}（{ev.id}）已公布的对阵表和成绩表的比赛时间、地点不随 tournament.yaml 的改动"
                   f"（赛程 sessions、本项目的报名截止时间 deadline 或地点 venue）而变：{'；'.join(said)}。已公布的各轮照旧有效，"
                   "不会重新抽签或改印；尚未公布的各轮按现在的设置安排。如是误改，请改回原来的值；如确需改期，请另行通知各参赛单位和裁判。")


def _one_player(a: Person, b: Person) -> bool:
    """Whether two players of the draws are one person as validation takes people
    (``pipeline.validate.checks.person_key``): one name with one 工号, or one name of one
    unit when either row has no 工号 (as its MULTI_EVENT warning asks of such a row)."""
    if a.name != b.name:
        return False
    if a.staff_id and b.staff_id:
        return staff_key(a.staff_id) == staff_key(b.staff_id)
    return a.branch == b.branch


def _seated_people(group: list[tuple]) -> list[tuple[list[tuple], list[tuple]]]:
    """The seats of one name in one session (:func:`seated_twice`) by person, as
    :func:`_one_player` matches two seats — directly, never through a third: the seats of one
    工号 are one person, and the seats without 工号 of one unit are another (from a review:
    seats joined the first person they matched one by one, and a 丁一 without 工号 matched by
    丁一 1001 and then by 丁一 1005 of his unit made the two 工号 one person).  The seats
    without 工号 go with the one 工号 person of their unit they match; when they match two or
    more, they are none of theirs for sure: kept simple, they go with each of them (a clash
    with either is possible and worth the office's look), as that person's ``unsure`` seats,
    said so — the 工号 people are never merged.  Each person: (its seats in the group's
    order, the unsure ones among them)."""
    order = {id(seat): i for i, seat in enumerate(group)}
    by_staff: dict[str, list[tuple]] = {}
    by_unit: dict[str, list[tuple]] = {}
    for seat in group:
        p = seat[3]
        if p.staff_id:
            by_staff.setdefault(staff_key(p.staff_id), []).append(seat)
        else:
            by_unit.setdefault(p.branch, []).append(seat)
    people: list[tuple[list[tuple], list[tuple]]] = [(seats, []) for seats in by_staff.values()]
    known = list(people)
    for bare in by_unit.values():
        matched = [pp for pp in known if any(_one_player(bare[0][3], s[3]) for s in pp[0])]
        if not matched:
            people.append((bare, []))
        elif len(matched) == 1:
            matched[0][0].extend(bare)
        else:
            for pp in matched:
                pp[1].extend(bare)
    return [(sorted(seats + unsure, key=lambda s: order[id(s)]), unsure) for seats, unsure in people]


def seated_twice(t: Tournament, events: Mapping[str, EventState], issues: IssueLog) -> None:
    """R2020-S1 with R2020-Q2 off: every event's round k is played in its k-th session, and
    ``league new`` gives the events one deadline and one list of sessions — a person entered
    in two events (``one_event_per_person: false``) was drawn to two tables at one time, and
    nobody was told.  DOUBLE_BOOKED (a warning the night it is first said, a note after:
    :data:`pipeline.issues.SAID_ONCE`) for each person seated (not on a bye) at tables of two
    or more events in one session (its date and times): the session, each event's round and
    table, the unit.  Nothing is redrawn: a published draw stands; the office arranges it with
    the unit.  It reads the draws only, not "now" (a night the fingerprint calls unchanged
    says the same), so a season's clashes stay listed as notes once said."""
    seats: dict[tuple, list[tuple[EventState, Round, Match, Person, SessionSpec]]] = {}
    placed = [(es, [(r, s) for r, s in zip(es.rounds, placed_sessions(t, es.spec, es.rounds)) if s is not None])
              for es in events.values() if es.rounds]
    placed = [(es, rs) for es, rs in placed if rs]
    if len(placed) < 2:         # one event at tables (or none): nobody can sit at two
        return
    for es, rs in placed:
        by_id = {e.id: e for e in es.entries}
        for now_id, drawn_id in es.same_as.items():
            if drawn_id not in by_id and now_id in by_id:
                by_id[drawn_id] = by_id[now_id]
        for r, s in rs:
            key = _session_key(s)
            for m in r.matches:
                if m.bye:
                    continue
                for sid in m.sides:
                    e = by_id.get(sid)
                    if e is None or sid in es.withdrawn:
                        continue
                    for p in e.players:
                        seats.setdefault((key, p.name), []).append((es, r, m, p, s))
    said = []
    for (key, _name), group in seats.items():
        if len(group) < 2 or all(seat[0] is group[0][0] for seat in group):    # one event's seats only
            continue
        for seated, unsure in _seated_people(group):
            if len({es.spec.id for es, *_ in seated}) < 2:
                continue
            p, session = seated[0][3], seated[0][4]
            tables = "、".join(f"“{es.spec.name}”{r.title}{_table_name(m)}" for es, r, m, *_ in seated)
            unit = _unit_name_of(t, p.branch)
            limit = ("本赛事不限每人只报一项（one_event_per_person: false）" if not t.spec.one_event_per_person
                     else "本赛事每人限报一项（one_event_per_person: true），但这些对阵已按报名公布")
            maybe = ""
            if unsure:
                rows = "、".join(f"“{name}”" for name in dict.fromkeys(es.spec.name for es, *_ in unsure))
                maybe = (f"（{rows}的{p.name}报名时未填工号，{unit}有不止一位{p.name}，不知是其中哪一位："
                         "如不是同一人，这一条可不处理；请在报名表中补填工号）")
            said.append((key, p.name, issue(
                "DOUBLE_BOOKED",
                f"{p.shown}（{unit}）在同一场次 {session.label()} 同时排在{tables}{maybe}：同一时间只能坐一张桌。"
                f"{limit}。已公布的对阵不会重新抽签：请与{unit}商定——其中一项弃权（在 tournament.yaml 该项目的 withdrawn 中写明），"
                "或请裁判安排先后进行；以后的赛事如各项目同时比赛，可在报名截止前设 one_event_per_person: true（每人限报一项）。",
                branch=p.branch)))
    issues.extend(i for _k, _n, i in sorted(said, key=lambda x: (x[0], x[1])))


def _unit_name_of(t: Tournament, unit_id: str) -> str:
    u = t.spec.unit(unit_id)
    return u.name if u else unit_id


def event_awards(t: Tournament, ev: EventSpec, es: EventState, issues: IssueLog) -> list[AwardRow]:
    """The event's award scheme applied to its final placements (R2020-A1, R2011-A1, R2016-A1 …)."""
    from .score import AWARD_SCHEMES

    # (an entry entered after round 1 was drawn gets no award, not even a ``rest`` one: EventState.late)
    entries = [e for e in es.entries if e.id not in es.late]
    rows, found = AWARD_SCHEMES.get(ev.awards.scheme).assign(ev.awards, es.placements, entries, event=ev.id)
    issues.extend(found)
    return rows


#: the ledger's cache key of the league it belongs to: a digest of its tournament folder's secret
LEAGUE_KEY = "league:secret"


def league_digest(t: Tournament) -> str:
    """What tells one league from another in its records: a digest of its secret."""
    return hashlib.sha256(b"league\0" + t.secret).hexdigest()


def same_league(t: Tournament, ledger: Ledger, out: Path) -> None:
    """The output folder ``out`` is this league's: its ledger was made with this folder's
    secret (recorded on the first night).  A new league given an old one's id (last year's
    questionnaire copied, or two folders named alike) ran into the old league's ledger —
    every form the old league had received refused, its site overwritten with empty
    standings, PLACES_CHANGED against its published places, refusals mailed to its
    captains.  Raises SpecError (exit 2) before anything is changed."""
    from .spec import SPEC_FILE, SpecError

    mine = league_digest(t)
    kept = ledger.cache_get([LEAGUE_KEY]).get(LEAGUE_KEY)
    if kept is not None and kept.decode(errors="replace") != mine and not ledger.received_shas() \
            and not ledger.drawn_events():
        # a new secret made before anything came in (as the refusal of a missing secret.key
        # says one may): the same league — nothing was issued under the old one that counts
        kept = None
    if kept is None:
        ledger.cache_put({LEAGUE_KEY: mine.encode()})
    elif kept.decode(errors="replace") != mine:
        raise SpecError(t.folder / SPEC_FILE, "id",
                        f"输出文件夹 {out} 属于另一项赛事：它的账本是由另一个密钥文件 {t.spec.secret_file} 的赛事建立的，"
                        f"两项赛事用了同一个编号 id “{t.spec.id}”。新赛事请在 tournament.yaml 中换一个编号（每届不同）；"
                        f"如果这正是原来那项赛事，请把它原来的 {t.spec.secret_file} 恢复到赛事文件夹 {t.folder}"
                        "（换了密钥，已发出的报名表都将无法识别）。")


def tournament_id_changed(t: Tournament, out_parent: Path) -> None:
    """The tournament's ``id`` changed in tournament.yaml during its season: its ledger is in
    ``out_parent/<old id>/``, whose last run was of this very folder.  Raises SpecError (exit
    2) before an empty ledger is made under the new id — where every form received would be
    another tournament's (TEMPLATE_MISMATCH, a refusal mailed to each captain) and every
    draw made again.  A new season in the same folder moves the old output folder away
    first (the message says so).

    Not when the run under the old id took no unit's form and published no round: nothing
    was registered or drawn under it.  So it was when the id was changed after the templates
    were sent and put back as TOURNAMENT_ID_MISMATCH asks (an audit: t2026 → t2026qp → t2026) —
    refused, the office was told to change it back to the id it had just been told to leave."""
    from .spec import SPEC_FILE, SpecError
    from .store import ledger_holds

    try:
        here = str(Path(t.folder).resolve())
        siblings = sorted(p for p in out_parent.iterdir() if p.name != t.spec.id and (p / "ledger.sqlite").exists())
    except OSError:
        return
    for old in siblings:
        try:
            body = json.loads((old / lastrun.LAST_RUN).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(body, dict) and body.get("folder") == here and body.get("league") == league_digest(t):
            report = body.get("report")
            if isinstance(report, dict) and report.get("accepted_branches") == [] and \
                    not ledger_holds(old, rounds_only=True):
                continue        # nothing taken, nothing drawn under the old id
            raise SpecError(t.folder / SPEC_FILE, "id",
                            f"赛事编号（id）改成了 {t.spec.id}，但这个赛事文件夹一直以编号 {old.name} 运行，账本在 {old}："
                            f"赛事进行中编号不能改（已发出的报名表和成绩表都按原编号识别），请把 id 改回 {old.name}。"
                            f"如果确是用这个文件夹办新一届比赛，请先把 {old} 移到别处（或运行时用另一个 --out），再运行。")


def unit_id_changed(t: Tournament, ledger: Ledger, drawn: dict[str, int]) -> None:
    """A unit with entries in published draws whose id is gone from tournament.yaml — changed
    (a unit of its name under a new id) or the unit taken out: raises SpecError (exit 2).
    Its issued forms carry its id (their token), and its entries' ids in the published
    rounds too: under a new id its played results were refused as the referees' error
    (RESULT_INVALID: "不是本桌选手") and its players dropped down the standings; taken out,
    its players stood nameless in the tables."""
    from .spec import SPEC_FILE, SpecError

    if not drawn:
        return
    raw = ledger.cache_get([UNIT_NAMES_KEY]).get(UNIT_NAMES_KEY)
    try:
        seen = json.loads(raw) if raw else {}
    except ValueError:
        return
    ids = {u.id for u in t.spec.units}
    gone = [old for old in sorted(seen) if old not in ids] if isinstance(seen, dict) else []
    if not gone:
        return
    firsts = [(ev, body) for ev in drawn for body in ledger.rounds_raw(ev)[:1]]
    for old in gone:
        # its entries' ids in round 1 ("xiangqi:b11:001033"; not a time's ":00:")
        if not any(f'"{ev}:{old}:' in body for ev, body in firsts):
            continue
        was = seen[old] if isinstance(seen[old], dict) else {}
        names = [n for n in was.get("names", []) if isinstance(n, str)]
        shown = str(was.get("shown") or (names[0] if names else old))
        for i, u in enumerate(t.spec.units):
            if u.id not in seen and (u.name in names or (u.short and u.short in names)):
                raise SpecError(t.folder / SPEC_FILE, f"units[{i}].id",
                                f"单位“{u.name}”原来的编号是 {old}，它的选手已在公布的抽签中，编号（id）不能再改"
                                f"（已发出的报名表、已公布的对阵和成绩都按编号识别）：请把 id: {u.id} 改回 id: {old}。")
        raise SpecError(t.folder / SPEC_FILE, "units",
                        f"单位 {old}（{shown}）的选手已在公布的抽签中，不能从 units 中删去（对阵、成绩、名次和奖状都要用到它）："
                        f"请把它加回 units。如该单位退赛，请在各项目的 withdrawn 中写明退赛的选手或队伍。")


#: the ledger's cache key of the game each drawn event was drawn as (event id → game)
EVENT_GAMES_KEY = "games:events"


def _drawn_games(ledger: Ledger) -> dict[str, str]:
    raw = ledger.cache_get([EVENT_GAMES_KEY]).get(EVENT_GAMES_KEY)
    try:
        seen = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return seen if isinstance(seen, dict) else {}


def record_games(t: Tournament, ledger: Ledger) -> None:
    """Remember the game of each event with published rounds (:func:`game_changed`): the
    night's draws were made as the spec says now."""
    seen = _drawn_games(ledger)
    drawn = ledger.drawn_events()
    now = {**seen, **{ev.id: ev.game for ev in t.spec.events if ev.id in drawn and ev.id not in seen}}
    if now != seen:
        ledger.cache_put({EVENT_GAMES_KEY: json.dumps(now, sort_keys=True).encode()})


def game_changed(t: Tournament, ledger: Ledger, drawn: dict[str, int]) -> None:
    """An event's ``game`` changed in tournament.yaml after its rounds were published:
    raises SpecError (exit 2).  Its result sheets were issued with the old game's columns
    (every one refused as not the form, TEMPLATE_MISMATCH) and its results scored by other
    rules — the unchanged sheets reported as "成绩在公布后有了更正" (from an audit)."""
    from .spec import SPEC_FILE, SpecError

    if not drawn:
        return
    seen = _drawn_games(ledger)
    for i, ev in enumerate(t.spec.events):
        was = seen.get(ev.id)
        if ev.id in drawn and isinstance(was, str) and was != ev.game:
            raise SpecError(t.folder / SPEC_FILE, f"events[{i}].game",
                            f"项目“{ev.name}”已按棋牌种类 {was} 抽签公布了 {drawn[ev.id]} 轮，棋牌种类（game）不能再改为 {ev.game}："
                            f"已下发的成绩表按 {was} 的栏目填写，成绩也按它的规则计算。请改回 game: {was}；"
                            "确要另赛一种棋牌，请另设一个项目（新的项目编号 id）。")


def event_id_changed(t: Tournament, ledger: Ledger, drawn: dict[str, int]) -> None:
    """An event whose id changed in tournament.yaml after its draws were published — the
    old id drawn, gone from the spec, and an event of the same name under a new id with no
    draw: raises SpecError (exit 2) before anything is drawn.  The run drew the event afresh
    under its new id (a second, different round 1 published for good, the played sheets
    refused as another event's).  So is a new event (an id tournament.yaml never had) of the
    drawn one's game on the night the drawn one went: its id and name changed together.  An
    event taken out (no event of its name left, none new of its game) is :func:`events_gone`'s
    note, and an event added on a later night is new."""
    from .spec import SPEC_FILE, SpecError

    ids = {ev.id for ev in t.spec.events}
    gone = [e for e in sorted(drawn) if e not in ids]
    if not gone:
        return
    try:
        seen = json.loads(ledger.cache_get([EVENT_NAMES_KEY]).get(EVENT_NAMES_KEY) or b"{}")
    except ValueError:
        seen = {}
    seen = seen if isinstance(seen, dict) else {}
    games, told = _drawn_games(ledger), _gone_events(ledger)
    for old in gone:
        names = set(seen.get(old) or ())
        for i, ev in enumerate(t.spec.events):
            if ev.id not in drawn and ev.name in names:
                raise SpecError(t.folder / SPEC_FILE, f"events[{i}].id",
                                f"项目“{ev.name}”已用编号 {old} 抽签公布了 {drawn[old]} 轮，编号（id）不能再改："
                                f"请把 id: {ev.id} 改回 id: {old}（项目名称 name 可以改）。编号改了，已公布的对阵、"
                                "已收到的成绩表都对不上，本次运行没有做任何抽签。")
        if told is None or old in told:     # taken out on an earlier night (said then), or not
            continue                        # known when (an older ledger): a new event is new
        # … and with its name changed too: a new id (never in tournament.yaml before) of
        # the same game, the night the drawn one went — it was drawn afresh, every captain's
        # form refused (UNKNOWN_EVENT: 请从下拉列表中选择) for naming the event it was
        was = (seen.get(old) or [old])[-1]
        for i, ev in enumerate(t.spec.events):
            if ev.id not in drawn and ev.id not in seen and games.get(old) == ev.game:
                raise SpecError(t.folder / SPEC_FILE, f"events[{i}].id",
                                f"项目“{ev.name}”（编号 {ev.id}）是新加的，而同一棋牌种类的项目“{was}”（编号 {old}）"
                                f"已抽签公布了 {drawn[old]} 轮，却不在 tournament.yaml 中了：如果是改了它的编号和名称，"
                                f"请把 id: {ev.id} 改回 id: {old}（名称 name 可以改），已公布的对阵和已收到的报名表、成绩表"
                                f"才对得上；如果确要取消“{was}”、另设新项目，请分两次修改：先只删去“{was}”运行一次，"
                                "再加入新项目。本次运行没有做任何抽签。")


#: the ledger's cache key of the drawn events tournament.yaml no longer has, as a run said them
GONE_EVENTS_KEY = "gone:events"


def _gone_events(ledger: Ledger) -> list[str] | None:
    """The drawn events the last run found gone from tournament.yaml (:func:`events_gone`);
    None when no run has recorded them (a ledger of an older version: which of them went
    tonight is not known)."""
    raw = ledger.cache_get([GONE_EVENTS_KEY]).get(GONE_EVENTS_KEY)
    if raw is None:
        return None
    try:
        gone = json.loads(raw)
    except ValueError:
        return None
    return sorted(str(g) for g in gone) if isinstance(gone, list) else None


def events_gone(t: Tournament, ledger: Ledger, issues: IssueLog) -> None:
    """An event with published rounds that tournament.yaml no longer has (its id changed, or
    it was taken out): its draws, results and places drop out of every document — said, not
    silent.  The ledger keeps its rounds: the old id brings them back as they were."""
    ids = {ev.id for ev in t.spec.events}
    drawn = ledger.drawn_events()
    gone = sorted(e for e in drawn if e not in ids)
    if gone != _gone_events(ledger):      # (:func:`event_id_changed` lets a new event be new)
        ledger.cache_put({GONE_EVENTS_KEY: json.dumps(gone).encode()})
    for ev_id, n in sorted(drawn.items()):
        if ev_id not in ids:
            issues.add("DRAW_INPUT_CHANGED", f"项目编号“{ev_id}”已公布 {n} 轮抽签，但 tournament.yaml 中已没有这个项目："
                       "它的对阵、成绩和名次不再出现在任何文件中（记录仍保存在账本里）。如果是改了项目编号（id），"
                       "请改回原来的编号；如果确要取消这个项目，可不理会本提示。")


def other_league(t: Tournament, book: Any) -> str:
    """The tournament id a workbook's _meta names when it is another league's ("" when it
    is this one's or names none): such a sheet is read by no event of this one."""
    from . import layout

    tid = str(book.meta.get(layout.META_TOURNAMENT, "") or "").strip()
    return tid if tid and tid != t.spec.id else ""


def stray_result_sheets(t: Tournament, inputs: Inputs, events: dict[str, EventState], issues: IssueLog) -> None:
    """A result workbook read by no event — of an event this tournament does not have, or of
    a round not drawn (yet) — is said, not ignored: its results count for nothing.  A sheet
    that is not this tournament's (TEMPLATE_MISMATCH) is said on the page of the unit whose
    registered address sent it (:func:`sender_unit`), if any."""
    from . import layout

    for rec, book in inputs.results:
        ev_id = str(book.meta.get(layout.META_EVENT, ""))
        rnd = _norm_int(book.meta.get(layout.META_ROUND, ""))
        es = events.get(ev_id)
        tid = other_league(t, book)
        if tid:
            # a referee of another league (or last year's) mailed it to this office
            issues.add("TEMPLATE_MISMATCH", f"成绩表《{rec.file_name}》是另一项比赛（编号 {tid}）的成绩表，不是本次比赛"
                       f"（{t.spec.id}）的，未读取。请核对后发送本次比赛下发的成绩表。",
                       at=CellRef(rec.file_name, layout.RESULT_SHEET), source=rec.sha256, branch=sender_unit(t, rec.sender))
        elif es is None and not book.meta:
            # the 成绩 sheet copied into a new workbook: the hidden sheet that says which event
            # and round it is did not come along (it was "an event called （未注明）")
            issues.add("TEMPLATE_MISMATCH", f"成绩表《{rec.file_name}》缺少下发时隐藏的说明表（记录项目和轮次），看不出是"
                       "哪个项目哪一轮的，未读取：多半是把“成绩”表复制到了新的工作簿里。请直接在下发的成绩表文件上"
                       "填写后发送。", at=CellRef(rec.file_name, layout.RESULT_SHEET), source=rec.sha256,
                       branch=sender_unit(t, rec.sender))
        elif es is None:
            issues.add("TEMPLATE_MISMATCH", f"成绩表《{rec.file_name}》属于项目“{ev_id or '（未注明）'}”，本次比赛没有这个项目，"
                       "未读取。请使用本次比赛下发的成绩表。", at=CellRef(rec.file_name, layout.RESULT_SHEET), source=rec.sha256,
                       branch=sender_unit(t, rec.sender))
        elif rnd not in {str(r.round) for r in es.rounds}:
            issues.add("ROUND_NOT_DRAWN", f"成绩表《{rec.file_name}》是{es.spec.name}第{rnd or '？'}轮的，这一轮还没有抽签"
                       f"（已抽签 {len(es.rounds)} 轮），暂不读取。该轮抽签后，这张成绩表会自动读取"
                       "（表上的对阵与抽签相符时），不必重发；如是轮次写错或发错了文件，请改正后重新发送。",
                       at=CellRef(rec.file_name, layout.RESULT_SHEET), source=rec.sha256)


def stray_event_rows(t: Tournament, inputs: Inputs, issues: IssueLog) -> None:
    """A 加赛 or 签到 row naming no event of the tournament in 项目 (掼蛋 for an event named
    扑克牌) is read by no event: said at its cell, not ignored."""
    from . import layout
    from .ingest.registration import read_sheet_rows
    from .ingest.sheets import same_event
    from .ingest.workbook import TableNotFound, cell_text, strip_spaces

    names = "、".join(e.name for e in t.spec.events)
    # an event's id or name as written needs no script converter (same_event converts)
    written = {strip_spaces(n) for e in t.spec.events for n in (e.id, e.name, *e.former_names)}
    for books, sheet, columns in ((inputs.playoffs, layout.PLAYOFF_SHEET, layout.PLAYOFF_COLUMNS),
                                  (inputs.checkins, layout.CHECKIN_SHEET, layout.CHECKIN_COLUMNS)):
        for rec, book in books:
            try:
                _, rows = read_sheet_rows(book, sheet, columns, ["项目"], rec.file_name)
            except TableNotFound:
                continue        # the sheet's reader says so
            for _, values, cells in rows:
                ev = values.get("项目")
                text = cell_text(ev) if ev is not None else ""
                if text.strip() and strip_spaces(text) not in written and \
                        not any(same_event(text, e.id, e.name, e.former_names) for e in t.spec.events):
                    issues.add("BAD_VALUE", f"“{sheet}”表的项目“{cell_text(ev)}”不是本次比赛的项目（本次为：{names}），"
                               "这一行未读取：请填写比赛项目的名称。", at=cells["项目"], source=rec.sha256)


def _superseded_by(rec: Received, book: Any, nxt: Received, nxt_book: Any, last: str, *, what: str = "",
                   placed: Mapping[str, tuple[str, int]] | None = None) -> str:
    """SUPERSEDED's words for ``rec`` replaced by ``nxt`` (the next of a unit's forms, or of
    the 评奖表): received at the same time, as SAME_TIME says it — by the workbooks' saved
    times (:func:`_saved_key`) only when they tell the two apart; else received later,
    ``last`` (``以最后收到的一份为准``) closing it."""
    if nxt.received_at == rec.received_at:
        how = {"saved": "按表格保存时间", "attached": "按附件在邮件中的先后"}.get(
            _tie_broken_by(book, nxt_book, rec, nxt, placed or {}), "暂")
        return (f"{what}《{rec.file_name}》与《{nxt.file_name}》同时收到（{cn_when(rec.received_at)}），"
                f"{how}以后者为准，本表已被取代")
    return (f"{what}《{rec.file_name}》（{cn_when(rec.received_at)} 收到）已被其后收到的"
            f"《{nxt.file_name}》（{cn_when(nxt.received_at)} 收到）取代，{last}")


def discretionary_awards(t: Tournament, inputs: Inputs, entries: list[Entry], issues: IssueLog) -> list[AwardRow]:
    """R2015-A1: awards entered by the organisers on the 评奖 sheet (风尚奖 … 组织奖).  The
    sheet received last is the list (a corrected sheet replaces the one before, SUPERSEDED;
    the awards were listed twice).  Sheets received at the same time (one mail with 初稿 and
    终稿 attached) are ordered as a unit's registration forms are: by the time each workbook
    was last saved (:func:`_saved_key`; the hash decided, random per save), SAME_TIME saying
    which one counts and how to make the other count."""
    if not inputs.awards:
        return []
    from .ingest.sheets import read_awards
    from .score.awards import discretionary_awards as assign

    books = sorted(inputs.awards, key=_same_time_order(inputs))
    for (rec, book), (nxt, nxt_book) in zip(books, books[1:]):
        said = _superseded_by(rec, book, nxt, nxt_book, "获奖名单以最后收到的一份为准", what="评奖表",
                              placed=inputs.attached_at)
        issues.add("SUPERSEDED", f"{said}。", at=CellRef(rec.file_name), source=rec.sha256)
    _same_time_notes("", books, issues, inputs.attached_at)
    rows: list[AwardRow] = []
    for rec, book in books[-1:]:
        raw, problems = read_awards(book, rec.file_name)
        # (each about this received sheet: the office's own, its next step names it — _run_locked)
        issues.extend(dataclasses.replace(i, source=i.source or rec.sha256) for i in problems)
        got, found = assign(raw, entries, [u.unit() for u in t.spec.units],
                            branch_award=t.spec.branch_award,       # "" = no award by unit (no 组织奖)
                            event_names={e.id: e.name for e in t.spec.events},
                            known=list(t.spec.discretionary_awards or ()), names=unit_names(t),
                            script=t.spec.script)
        rows += got
        issues.extend(dataclasses.replace(i, source=i.source or rec.sha256) for i in found)
    return rows


#: the ledger's cache entry that remembers what each returned copy on disk was made from
COPIES_MADE = "returned-copies"


def _copies_made(ledger: Ledger) -> dict[str, str]:
    """Returned copy name → the key it was made from (:func:`plan_returned_copies`)."""
    return json.loads(ledger.cache_get([COPIES_MADE]).get(COPIES_MADE, b"{}"))


@dataclass
class PlannedCopy:
    """One submission's returned copy: what it is made from and whether the one on disk is it."""
    submission: Submission
    stored: Path | None
    name: str = ""              # "" when the submission gets none (not a workbook, unreadable)
    key: str = ""
    issues: list[Issue] = field(default_factory=list)
    target: Path | None = None
    fresh: bool = True


_NOT_IN_NAMES = re.compile(r'[<>:"/\\|?*\x00-\x1f]')


def _name_part(stem: str, limit: int = 40) -> str:
    """A captain's file name as part of a returned copy's name: characters Windows refuses
    (``<>:"/\\|?*``) replaced, and at most ``limit`` characters (a name of a hundred Chinese
    characters passed the file system's 255 bytes: no copy was made).

    >>> _name_part('报名表:v2?'), len(_name_part("长" * 100))
    ('报名表_v2_', 40)
    """
    return _NOT_IN_NAMES.sub("_", stem)[:limit].strip() or "报名表"


#: the end of a returned copy's name (:func:`plan_returned_copies`), or of one cut short
#: (``-返``), as a captain sends it back — maybe saved twice (`` (1)``).  Eight digits that
#: read as a date of 1900–2099 are a captain's date (报名表-20201108-返回), not taken for our
#: hash; a hash of digits only (one in 43) that is no date is ours (it was kept, and such a
#: copy's name grew again each time it came back)
_OWN_SUFFIX = re.compile(r"-(?!(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-)[0-9a-f]{8}-返回?"
                         r"(?:\s*[(（]\d{1,3}[)）])?$")


def _captains_stem(stem: str, branch: str) -> str:
    """A received file's name without what a returned copy's name added to it: a copy sent
    back, again and again, got an ever longer name (b08-b08-…-030a2d87-返-0f45945e-返回.xlsx).
    Our ``-<hash>-返回`` ends are taken off, and then the ``<unit>-`` at its start.

    >>> _captains_stem("b08-b08-报名表（bad-phone）-030a2d87-返-0f45945e-返回", "b08")
    '报名表（bad-phone）'
    >>> _captains_stem("b08-报名表-20201108", "b08"), _captains_stem("b08-报名表-20201108-返回", "b08")
    ('b08-报名表-20201108', 'b08-报名表-20201108-返回')
    >>> _captains_stem("b08-b08-报名表-58446591-返回", "b08")      # a hash of digits only, no date
    '报名表'
    """
    ours = False
    while m := _OWN_SUFFIX.search(stem):
        stem, ours = stem[:m.start()], True
    while ours and branch and stem.startswith(f"{branch}-"):
        stem = stem[len(branch) + 1:]
    return stem


def _copy_name(s: Submission, made: Mapping[str, str], out: Path) -> str:
    """The returned copy's name of submission ``s``: ``<unit>-<the captain's name>-<hash>-返回.xlsx``
    (:func:`_captains_stem`).  A copy an earlier night made under the name before our own
    ends were taken off (recorded in ``made``, or in returned/) keeps that name: its links,
    receipts and the ledger name it."""
    unit = s.branch or "unknown"
    stem = Path(s.file).stem
    name = f"{unit}-{_name_part(_captains_stem(stem, s.branch))}-{s.sha256[:8]}-返回.xlsx"
    before = f"{unit}-{_name_part(stem)}-{s.sha256[:8]}-返回.xlsx"
    if before != name and (before in made or (out / "returned" / before).exists()):
        return before
    return name


def plan_returned_copies(out: Path, submissions: list[Submission], issues: list[Issue],
                         made: dict[str, str], script: str = "simplified", keys: bool = True) -> list[PlannedCopy]:
    """The returned copy of every submission (:func:`render_all`).  A copy depends only on
    its source, the issues about it (:meth:`Submission.concerns`: not another branch's
    file of the same name, not the note that a newer file superseded it; in
    :meth:`IssueLog.sorted` order) and the code: ``made``
    (kept in the ledger's cache) remembers what each existing copy was made from, so it is
    made again only then.  ``keys=False``: names and targets only (no key, none fresh).

    A form refused as the office's own matter (:data:`~pipeline.issues.OFFICES_MATTER`: issued
    under tournament.yaml's former id) gets no copy: the captain has nothing to correct (its
    unit's page says “无需修改”), and a copy marked with the error said otherwise."""
    by_file: dict[str, list[Issue]] = {}
    for i in IssueLog(issues).sorted():
        by_file.setdefault(i.file, []).append(i)
    code = lastrun.code_hash()
    received = out / "received"
    stored_by_sha: dict[str, str] = {}
    try:        # (names, not Paths: a night plans its copies three times, over every stored file)
        for name in sorted(os.listdir(received)):
            stored_by_sha.setdefault(name.split(".", 1)[0], name)
    except OSError:
        pass
    plan = []
    for s in submissions:
        stored_name = stored_by_sha.get(s.sha256)
        stored = received / stored_name if stored_name is not None else None
        if stored is not None and stored.suffix in (".xlsx", ".xlsm") and s.status in ("accepted", "rejected", "superseded") \
                and not any(i.code in OFFICES_MATTER and s.concerns(i) for i in by_file.get(s.file, ())):
            name = _copy_name(s, made, out)
            target = out / "returned" / name
            if not keys:
                plan.append(PlannedCopy(s, stored, name, target=target, fresh=False))
                continue
            file_issues = [i for i in by_file.get(s.file, ()) if s.concerns(i)]   # as its receipt lists
            # (the script only where it is not the default: a simplified league's copies keep their keys)
            key = hashlib.sha256(_canon([code, s.sha256, stored.suffix, [i.row() for i in file_issues]]
                                        + ([script] if script != "simplified" else [])).encode()).hexdigest()
            plan.append(PlannedCopy(s, stored, name, key, file_issues, target,
                                    fresh=made.get(name) == key and target.exists()))
        else:
            plan.append(PlannedCopy(s, stored))
    return plan


def open_copies_ahead(out: Path, submissions: list[Submission], issues: list[Issue], ledger: Ledger,
                      script: str = "simplified") -> int:
    """Before validation, have the prestarted worker open the registration forms whose
    returned copies the night will likely make (:func:`pipeline.xlsx.returned.open_ahead`):
    every form without a copy yet, and the other forms of its unit whose copies are not
    what the issues known so far (``issues``: the reading's, SUPERSEDED) make them — the
    form the new one supersedes gets its copy again with that note, while a form
    superseded on an earlier night keeps its copy (the note names the file received next),
    and opening it would only keep the worker from the new form's copy.  The worker is
    idle until the copies' issues are known, and opening a form is half of its copy.
    Nothing when there is no prestarted worker, no such form, or a night with as many new
    forms as :data:`EARLY_COPIES_BELOW` (:func:`render_all`'s pool makes those).  Returns
    how many forms were handed over."""
    from .parallel import prestarted

    pre = prestarted()
    if pre is None:
        return 0
    plan = [c for c in plan_returned_copies(out, submissions, [], {}, script, keys=False) if c.name]
    new_units = {c.submission.branch for c in plan if c.target is not None and not c.target.exists()}
    theirs = [c.submission for c in plan if c.submission.branch in new_units]
    if not theirs or len(theirs) >= EARLY_COPIES_BELOW:
        return 0
    from .xlsx.slim import large_sheet

    # (not a form with rows formatted down to the sheet's end: its copy is made without them)
    ahead = [str(c.stored) for c in plan_returned_copies(out, theirs, issues, _copies_made(ledger), script)
             if c.name and not c.fresh and not large_sheet(c.stored)]
    if ahead:
        pre.submit("pipeline.xlsx.returned", "open_ahead", ahead)
    return len(ahead)


#: a run with fewer returned copies than this to make starts them before its events
#: (see :func:`start_returned_copies`)
EARLY_COPIES_BELOW = 16


def form_checks(t: Tournament) -> Callable[[str], Any]:
    """Unit id → the dropdowns and input checks of its registration form (None for no unit),
    for its returned copy (:func:`pipeline.xlsx.registration.restore_entry_validations`)."""
    from .xlsx.entrychecks import entry_checks

    made: dict[str, Any] = {}

    def of(branch: str) -> Any:
        if branch not in made:
            unit = t.spec.unit(branch) if branch else None
            made[branch] = entry_checks(t.spec, unit) if unit is not None else None
        return made[branch]
    return of


def copy_names(t: Tournament, entries: list[Entry]) -> Callable[[list[Issue]], tuple[str, ...]]:
    """Issues → the people their messages name, for their returned copy (R2015): a
    Traditional league's copy converts its messages as the receipt does, people's names as
    names (:func:`pipeline.text.names_of`), in a worker that holds no league
    (:func:`pipeline.text.names_finder`).  Nothing in a Simplified league (nothing is
    converted there).  Not part of a copy's key: the names are those its messages (in the
    key) name, people of the league when the messages were said."""
    if t.spec.script != "traditional":
        return lambda issues: ()
    from .text import names_finder, people

    find = names_finder(people(t.spec, entries))
    return lambda issues: find(i.message for i in issues)


def start_returned_copies(out: Path, submissions: list[Submission], issues: list[Issue],
                          ledger: Ledger, script: str = "simplified",
                          checks: Callable[[str], Any] | None = None,
                          names: Callable[[list[Issue]], tuple[str, ...]] | None = None
                          ) -> tuple[Any, dict[str, tuple[str, Any]]]:
    """On a night with a few new registrations, start their returned copies on a worker
    right after validation, before the events.

    A copy needs only its registration's issues, known once it is validated.  The worker's
    first job imports openpyxl (a seventh of a second) and the copies take a few hundredths
    each; started here, that overlaps this process's events and outputs instead of being
    waited for before the site.  A cold run's hundreds of copies wait for
    :func:`render_all`'s pool: a worker forked this early would live through the events,
    and every page this process writes meanwhile would be copied for it (copy-on-write),
    which measured slower.  ``league run`` forked a worker at its start for this
    (:func:`pipeline.parallel.prestart`; it has imported openpyxl by now): the copies go
    to it by name, else to a worker forked here; a run that does not need it lets it go.
    Returns a context to leave when the run is done (it waits for the worker) and the
    started copies by name with their keys; :func:`render_all` takes a copy whose key is
    still the one planned here and makes any other itself.  ``names``: the people a copy's
    issues name (:func:`copy_names`), kept as names where a Traditional league's copy is
    converted."""
    import contextlib
    import functools

    from .parallel import Jobs, take_prestarted

    made = _copies_made(ledger)
    todo = [c for c in plan_returned_copies(out, submissions, issues, made, script) if c.name and not c.fresh]
    pre = take_prestarted()
    if not todo or len(todo) >= EARLY_COPIES_BELOW:
        if pre is not None:
            pre.shutdown(wait=False)
        return contextlib.nullcontext(), {}
    names = names or (lambda issues: ())
    if pre is not None:     # the worker forked at start, openpyxl imported by now: side by side
        checks = checks or (lambda branch: None)
        handles = pre.submit_map("pipeline.xlsx.slim", "returned_copy_job",
                                 [(c.stored, c.issues, c.target, script, checks(c.submission.branch), names(c.issues))
                                  for c in todo])
        return pre, {c.name: (c.key, h) for c, h in zip(todo, handles)}
    jobs = Jobs(min_parallel=1, max_workers=1)
    started = {c.name: (c.key, jobs.add(functools.partial(_write_returned_copy, c.stored, c.issues, c.target,
                                                          script=script,
                                                          checks=checks(c.submission.branch) if checks else None,
                                                          names=names(c.issues))))
               for c in todo}
    jobs.start()
    return jobs, (started if jobs.parallel else {})


def render_all(t: Tournament, out: Path, state: LeagueState, current: list[tuple[Received, Any]],
               opts: RunOptions, say: Callable[[str], None], ledger: Ledger | None = None,
               early: dict[str, tuple[str, Any]] | None = None) -> int:
    """Write every output: data CSVs, returned workbooks, result sheets, documents, site.

    The workbooks (returned copies, referees' result sheets) are independent jobs: they run
    on a forked pool (:mod:`pipeline.parallel`) while this process writes the CSVs, forms,
    HTML documents and the site; the index and branch pages, which link the returned
    copies, are rendered again in the rare case that a copy could not be made."""
    import functools

    from .games import GAMES
    from .parallel import Jobs
    from .render.viewmodels import session_and_venue

    # even two workbooks go to a worker: this process renders the pages meanwhile, and
    # does not import openpyxl at all (see _write_returned_copy)
    jobs = Jobs(min_parallel=2, busy_caller=True)
    # returned copies for every current registration (with its problems highlighted)
    made = _copies_made(ledger) if ledger is not None else {}
    made_now: dict[str, str] = {}
    copies = []   # (submission, stored, returned name, key, handle or None when up to date)
    checks = form_checks(t)
    names = copy_names(t, state.entries)
    for c in plan_returned_copies(out, state.submissions, state.issues, made, t.spec.script):
        handle = None
        started = (early or {}).get(c.name)
        if started and started[0] == c.key:
            handle = started[1]
        elif c.name and (started or not c.fresh):
            if started:          # made early from issues it no longer has: let it land, then replace it
                try:
                    started[1].result()
                except Exception:  # noqa: BLE001 - made again just below
                    pass
            # the copies first (the site waits for them), then the result sheets, largest first
            handle = jobs.add(functools.partial(_write_returned_copy, c.stored, c.issues, c.target,
                                                script=t.spec.script, checks=checks(c.submission.branch),
                                                names=names(c.issues)),
                              cost=float("inf"))
        copies.append((c.submission, c.stored, c.name, c.key, handle))
    # result workbooks for referees, one per event and round: those not written yet, and
    # those of a round not fully played written with other withdrawn tables (a withdrawal
    # after the sheet was sent out: handbook 缺席、弃权和退赛, :func:`_sheets_to_mark`)
    sheets = []
    marked = _sheets_marked(ledger) if ledger is not None else {}
    marked_now: dict[str, list[str]] = {}
    drawn_tonight = set(ledger.night_news("round")) if ledger is not None else set()
    for ev in state.events.values():
        todo, gone = _sheets_to_mark(out, ev, marked, marked_now, drawn_tonight)
        if not todo:        # (the games are not even imported on a night with no new round)
            continue
        game = GAMES.get(ev.spec.game)
        labels = _side_labels(state, ev.entries)
        columns, detail = game.columns(ev.spec.game_options), game.detail(ev.spec.game_options)
        for r in todo:
            from .xlsx.results import sheet_rows

            path = out / "results" / f"{ev.spec.id}-r{r.round}-成绩表.xlsx"
            session, venue = session_and_venue(ev, r, t.spec)
            sheets.append(jobs.add(functools.partial(
                _write_result_sheet, path, tournament=t, event=ev.spec, rnd=r, columns=columns, label_of=labels,
                session_label=session, venue=venue, detail=detail, seats=game.seats,
                withdrawn=gone[r.round]), cost=sheet_rows(r, detail)))
    if len(jobs) >= WRITERS_PRELOAD_FROM:
        # many workbooks: import the writers once here, and every forked worker has them
        import importlib
        for writer in ("results", "returned"):
            importlib.import_module(f".xlsx.{writer}", __package__)
    with jobs:
        jobs.start()
        n = len(write_data(out, state, ledger))
        n += write_forms(t, out, state)
        say("生成文档 …")
        from .render.docs import plan_documents, render_documents
        from .render.memo import PageMemo
        from .render.site import render_site
        pages_key = "rendered-pages"
        memo = PageMemo(json.loads(ledger.cache_get([pages_key]).get(pages_key, b"{}")) if ledger is not None else {},
                        root=out)
        no_glyph: dict[Path, str] = {}
        no_font: MissingFontError | None = None
        generated: list[Path] | None = []       # every page and document of the night (None: not known)
        try:
            docs = render_documents(state, out, pdf=opts.pdf, memo=memo, missing=no_glyph)
            n += len(docs)
            generated += docs
        except _missing_font() as e:     # (evaluated only when something was raised)
            # no CJK font at all: no PDF can be made (never boxes) — the rest of the night's
            # outputs (pages, referees' workbooks, returned copies) are still written, then
            # the run stops with the message (runcmd: exit 2)
            no_font = e
            generated = None
            state.no_pdf = frozenset(f"{d.stem}.pdf" for d in plan_documents(state) if d.pdf)
        if no_glyph:
            pdf_not_made(out, state, no_glyph)
        # the event pages link no returned copy: they are written while the copies are made
        event_pages = render_site(state, out, memo, parts=("events",))
        n += len(event_pages)
        # The index and branch pages link each returned copy.  They are rendered while the
        # copies are still being made, linking every one (a night's copy or two take longer
        # than this process's pages); a copy that could not be made (a workbook openpyxl
        # opens but cannot write back) has those pages rendered again without its link.
        def listed(failed: set[str]) -> list[Submission]:
            return [dataclasses.replace(s, stored_path=str(stored or ""),
                                        returned_path=f"returned/{name}" if name and name not in failed else "")
                    for s, stored, name, _, _ in copies]
        state.submissions = listed(set())
        site = render_site(state, out, memo, parts=("index", "branches"))
        failed: set[str] = set()
        for s, stored, name, key, handle in copies:
            if name and (handle is None or handle.result() is not None):
                made_now[name] = key
                n += handle is not None
            elif name:
                failed.add(name)
        if failed:
            state.submissions = listed(failed)
            again = PageMemo(dict(memo.now), root=out)      # against the pages just written
            site = render_site(state, out, again, parts=("index", "branches"))
            memo.now.update(again.now)
        n += len(site)
        if ledger is not None and generated is not None:
            gone = remove_stale_outputs(ledger, out, [*generated, *event_pages, *site])
            if gone:
                say(f"删去不再生成的页面 {len(gone)} 个")
        if ledger is not None:
            # the sha256 of every copy written (before the receipts attach them): a copy that
            # comes back is ours, no form (read_inputs) — recorded before the copies made are
            _record_own_copies(ledger, [(s, name) for s, _, name, _, handle in copies
                                        if name and handle is not None and name not in failed], out, state.now)
        if ledger is not None and made_now != made:
            ledger.cache_put({COPIES_MADE: _canon(made_now).encode()})
        if ledger is not None and memo.now != memo.previous:
            ledger.cache_put({pages_key: _canon(memo.now).encode()})
        for handle in sheets:
            handle.result()
            n += 1
        if ledger is not None and marked_now != marked:       # (after the sheets are written)
            ledger.cache_put({SHEETS_MARKED: _canon(marked_now).encode()})
    if no_font is not None:
        raise no_font
    return n


#: the ledger's cache entry that remembers the pages and documents the last whole run wrote
#: (or found up to date): their names under the output folder → [size, mtime_ns] as they
#: were left (:func:`remove_stale_outputs`)
GENERATED_FILES = "generated-files"
#: what :func:`remove_stale_outputs` may ever remove: the site's pages and the documents
#: (HTML and PDF), never a folder of files received, filled in by people, or sent to them
_NEVER_REMOVED = frozenset({"received", "forms", "returned", "results", "data", "inbox"})


def _removable(name: str) -> bool:
    parts = name.split("/")
    return (name.endswith((".html", ".pdf")) and parts[0] not in _NEVER_REMOVED
            and not any(p in ("", ".", "..") or p.startswith(".") for p in parts))


def remove_stale_outputs(ledger: Ledger, out: Path, written: Iterable[Path]) -> list[str]:
    """Remove the pages and documents this program wrote on an earlier night and no longer
    writes — ``branches/_.unassigned.html`` once every file is placed, ``events/bridge.html``
    and ``draws/bridge-r1.html`` once the event is taken out of tournament.yaml: they stayed,
    saying what they said last (an audit).  ``written``: every page and document of this
    night (written or up to date).  Only a name of the last night's record
    (:data:`GENERATED_FILES`) is removed, and only while its file is as the record left it
    (size and modification time): a file the office put there, or changed since, is never
    removed; nor anything in received/, forms/, returned/, results/ or data/.  A PDF not made
    tonight of a document still made (``--no-pdf``, PDF_NOT_MADE) stays.  The record is
    replaced after the removals (one transaction): a run stopped before has not touched it,
    and one stopped midway leaves names already removed in it (skipped the next night).
    Returns the names removed."""
    try:
        before = json.loads(ledger.cache_get([GENERATED_FILES]).get(GENERATED_FILES, b"{}"))
    except ValueError:          # a damaged record: as if none (nothing removed)
        before = {}
    before = before if isinstance(before, dict) else {}
    root = os.fspath(out).rstrip(os.sep) + os.sep
    now: dict[str, list[int]] = {}
    for p in written:
        text = os.fspath(p)
        name = text[len(root):].replace(os.sep, "/") if text.startswith(root) else ""
        if not _removable(name):
            continue
        try:
            st = os.stat(text)
        except OSError:
            continue
        now[name] = [st.st_size, st.st_mtime_ns]
    removed: list[str] = []
    for name, mark in sorted(before.items()):
        if name in now or not _removable(name):
            continue
        path = out / name
        try:
            st = os.stat(path)
        except OSError:
            continue            # gone already
        if mark != [st.st_size, st.st_mtime_ns]:
            continue            # changed since this program wrote it: no longer ours
        if name.endswith(".pdf") and name[:-4] + ".html" in now:
            now[name] = mark    # its document still made, its PDF not tonight: kept
            continue
        try:
            path.unlink()
            removed.append(name)
        except OSError:
            now[name] = mark    # tried again the next night
    if now != before:
        ledger.cache_put({GENERATED_FILES: _canon(now).encode()})
    return removed


#: the ledger's cache entry that remembers the withdrawn entries each referee's result
#: workbook on disk was written with (its name → their ids; a sheet written with none is
#: not listed), :func:`_sheets_to_mark`
SHEETS_MARKED = "result-sheets-withdrawn"


def _sheets_marked(ledger: Ledger) -> dict[str, list[str]]:
    """Result workbook name → the withdrawn entries it was written with (:data:`SHEETS_MARKED`)."""
    try:
        got = json.loads(ledger.cache_get([SHEETS_MARKED]).get(SHEETS_MARKED, b"{}"))
    except ValueError:          # a damaged cache entry: as if every sheet was written unmarked
        return {}
    return got if isinstance(got, dict) else {}


def _sheets_to_mark(out: Path, ev: EventState, marked: dict[str, list[str]],
                    marked_now: dict[str, list[str]], drawn_tonight: Collection[str] = ()
                    ) -> tuple[list[Round], dict[int, frozenset[str]]]:
    """The rounds of ``ev`` whose referee's result workbook is to be written this night, and
    each round's withdrawn entries to mark on it (:func:`~pipeline.render.viewmodels.withdrawn_at_tables`).

    Handbook 缺席、弃权和退赛: a workbook not there yet is written; one already there is written
    again (atomically) only when its round is not fully played and the withdrawn entries at its
    tables are not those it was written with (``marked``, from the ledger's cache: a withdrawal
    after the sheet went out, or one taken back) — so it says （已退赛） and the 弃权 to choose
    as one written after the withdrawal does.  A round whose results are all in is left as it
    was, and a night with no withdrawal changed writes none again.  The draw and its digest
    (_meta) are the same, so a copy filled from either sheet is read alike.  ``marked_now`` is
    filled with what each sheet on disk will have been written with.

    A round published this night (``drawn_tonight``, ``"<event>:<round>"``: the ledger's
    news of the night, :meth:`~pipeline.store.Ledger.publish`) has its workbook written even
    when one of that name is there: the sheet of a draw the office voided (``voided_draws``,
    after a ledger restored from an older backup: :meth:`EventRunner.issued_here`) is not
    left beside the new draw for the referees to fill."""
    from .render.viewmodels import withdrawn_at_tables

    todo, gone = [], {}
    for r in ev.rounds:
        name = f"{ev.spec.id}-r{r.round}-成绩表.xlsx"
        now = withdrawn_at_tables(ev, r)
        was = frozenset(marked.get(name) or ())
        if f"{ev.spec.id}:{r.round}" in drawn_tonight or not (out / "results" / name).exists():
            todo.append(r)
        elif now != was and not all(m.bye or m.key in ev.results for m in r.matches):
            todo.append(r)
        else:
            now = was               # (as it is on disk)
        gone[r.round] = now
        if now:
            marked_now[name] = sorted(now)
    return todo, gone


def _record_own_copies(ledger: Ledger, written: list[tuple[Submission, str]], out: Path, now: dt.datetime) -> None:
    """Record the SHA-256 of the returned copies this run wrote (:meth:`Ledger.own_copies`),
    in one transaction."""
    found = []
    for s, name in written:
        try:
            data = (out / "returned" / name).read_bytes()
        except OSError:
            continue
        found.append(OwnCopy(sha256(data), name, s.branch or "", now))
    ledger.record_own_copies(found, now)


def _missing_font() -> type[Exception]:
    """:class:`~pipeline.render.pdf.MissingFontError`, imported only when an exception is matched
    (the PDF module and its logging are not imported on a night that renders no PDF)."""
    from .render.pdf import MissingFontError
    return MissingFontError


#: from this many workbook jobs, render_all imports the writers before forking the pool
#: (shared by every worker) rather than in each worker as its first job needs them
WRITERS_PRELOAD_FROM = 16


def _write_returned_copy(stored: Path, issues: list[Issue], target: Path, script: str = "simplified",
                         checks: Any = None, names: tuple[str, ...] = ()) -> Path | None:
    """A pool job: :func:`pipeline.xlsx.returned.write_returned_copy`, imported where it runs
    (in the tournament's script: a traditional-script league's 问题清单 was simplified)."""
    from .fsutil import sync_each
    from .xlsx.slim import write_returned_copy     # (a form's empty formatted rows left out)

    sync_each(False)    # (the worker prestarted before the run said so: pipeline.parallel.prestart)
    return write_returned_copy(stored, issues, target, script=script, checks=checks, names=names)


def _write_result_sheet(path: Path, **kw: Any) -> Path:
    """A pool job: :func:`pipeline.xlsx.results.write_result_sheet`, imported where it runs."""
    from .xlsx.results import write_result_sheet
    return write_result_sheet(path, **kw)


def write_forms(t: Tournament, out: Path, state: LeagueState) -> int:
    """The organisers' sheets the office fills in and drops into the inbox: 评奖表 when the
    tournament has discretionary awards (R2015-A1), 签到表 for events drawn at check-in
    (R2016-F2) before their first round, and a 加赛表 for every pending tie.  The writers
    are imported only when a form is written: a form already there is compared with what it
    would be by its _meta (:func:`_form_record`, calamine), and kept while it is the same —
    the office fills it where it is (:func:`_checkin_form`)."""
    forms = out / "forms"
    n = 0
    said = len(state.issues)
    if t.spec.discretionary_awards or t.spec.branch_award:
        p = forms / "评奖表.xlsx"
        if not p.exists():
            from .xlsx.forms import write_awards_form
            write_awards_form(t, p)
            n += 1
    for ev in state.events.values():
        if ev.spec.format.type == "groups_standings" and not ev.rounds and ev.entries:
            n += _checkin_form(t, ev, forms / f"{ev.spec.id}-签到表.xlsx", state.issues)
        if ev.ties:
            from . import layout
            from .layout import PlayoffTie, tie_entries     # (not .xlsx.forms: openpyxl, for a form already written)
            label = {e.id: e.team for e in ev.entries}
            p = forms / playoff_form_name(ev.spec.id, ev.rounds)
            notes = _tie_notes(ev)
            ties = [PlayoffTie(st, g, tuple(label.get(i, i) for i in ids), note, ids=tuple(ids), level=level)
                    for st, g, ids in ev.ties for note, level in [notes.get((st, g, frozenset(ids)), ("", ""))]]
            # written once (the office may fill it where it is), and again when the ties
            # pending are others: a second 加赛 of the round (the final drawn, then the final
            # places tied) was asked on the first one's form, and the event waited for good.
            # The form it replaces is retired first (one filled in where it is is kept whole)
            made, book = _form_record(p, layout.META_TIE_ENTRIES) if p.exists() else (None, None)
            if not p.exists() or made != tie_entries(ties):
                from .xlsx.forms import write_playoff_form
                if p.exists():
                    _retire_form(p, book)
                write_playoff_form(t, ev.spec, ties, p, ev.rounds[-1].round if ev.rounds else None)
                n += 1
        _retire_playoff_forms(forms, ev)
    if len(state.issues) > said:        # a 签到表 written again (CHECKIN_FORM_UPDATED): issues.csv says it
        write_issues(out / "data", state)
    return n


#: the folder in forms/ a settled 加赛表 the office filled in where it is goes to (:func:`_retire_form`)
USED_FORMS = "已用"


def _retire_playoff_forms(forms: Path, ev: EventState) -> None:
    """R2011-F1 (handbook 加赛表): the event's 加赛表 in forms/ whose ties are all settled — no
    tie the form was made for (its _meta :data:`~pipeline.layout.META_TIE_ENTRIES`) is among
    the ties the event waits for now — leave forms/ (:func:`_retire_form`), so the office sees
    there only the forms still to be filled.  The form of the ties pending is kept (under
    another round's name as well, should it still list one of them)."""
    from . import layout

    pending = {frozenset(ids) for _, _, ids in ev.ties}
    current = playoff_form_name(ev.spec.id, ev.rounds) if ev.ties else None
    mine = re.compile(rf"{re.escape(ev.spec.id)}-r\d+-加赛表\.xlsx")
    try:
        names = sorted(n for n in os.listdir(forms) if mine.fullmatch(n) and n != current)
    except OSError:
        return
    for name in names:
        p = forms / name
        made, book = _form_record(p, layout.META_TIE_ENTRIES)
        if book is not None and {frozenset(x.split()) for x in (made or "").split("|") if x.split()} & pending:
            continue
        _retire_form(p, book)


def _retire_form(path: Path, book: Any) -> None:
    """A 加赛表 of forms/ no longer asked for (:func:`_retire_playoff_forms`, or replaced by
    the form of other ties): removed when it is as the run wrote it — no 名次 filled in (a
    blank form is ours, made again should it be needed); otherwise (the office filled it in
    where it is, or it cannot be read) never deleted: moved to forms/已用/ as it is, beside
    any of the same name (the received copy of what the office sent stays in received/)."""
    from . import layout
    from .ingest.registration import read_sheet_rows
    from .ingest.workbook import TableNotFound, is_blank

    blank = False
    if book is not None:
        try:
            _, rows = read_sheet_rows(book, layout.PLAYOFF_SHEET, layout.PLAYOFF_COLUMNS, ["项目", "名次", "参赛者"],
                                      path.name)
            blank = all(is_blank(v.get("名次")) for _, v, _ in rows)
        except TableNotFound:
            pass
    try:
        if blank:
            path.unlink()
        else:
            used = path.parent / USED_FORMS
            used.mkdir(exist_ok=True)
            path.replace(_free_name(used / path.name))
    except OSError:       # (open in Excel on a shared folder: retired on a later night)
        pass


def _tie_notes(ev: EventState) -> dict[tuple[str, str, frozenset[str]], tuple[str, str]]:
    """The place each final-places tie an event waits for is at, as its 加赛表 names it
    (第3名并列（二等奖/三等奖）, :meth:`EventRunner.await_award_playoffs`): a form of two
    such ties printed both with the same 阶段 and a blank 组别 — and, R2020-F4, the places of
    it that are one prize and may stay level (第2–3名同为二等奖，可不分先后:
    :meth:`EventRunner.take_level_playoffs`), or "" when none may."""
    if not any(st == FINAL_PLACES for st, _, _ in ev.ties):
        return {}
    from .score import AWARD_SCHEMES
    from .score.awards import prize_runs, tie_place

    scheme = AWARD_SCHEMES.get(ev.spec.awards.scheme)
    out = {}
    for g, rank, ids, kinds in scheme.undecided(ev.spec.awards, ev.placements):
        runs = prize_runs(scheme, ev.spec.awards, ev.placements, ids)
        level = []
        if len(runs) == len(kinds):         # (each run one of the prizes the tie spans, best first)
            at = rank
            for n, kind in zip(runs, kinds):
                if n > 1:
                    level.append(f"第{at}–{at + n - 1}名{'均无奖项' if kind == '无奖项' else f'同为{kind}'}，可不分先后")
                at += n
        where, what = tie_place(rank, ids, kinds, ev.placements)
        out[(FINAL_PLACES, g, frozenset(ids))] = (f"{where}并列（{what}）", "；".join(level))
    return out


def _form_record(path: Path, key: str) -> tuple[str | None, Any]:
    """What a form in forms/ was made for — its _meta record ``key`` (None when it has none)
    — and the form as read (a :class:`~pipeline.ingest.workbook.Book`; None when it cannot be
    read).  Read with calamine: a night whose forms are as they were does not import openpyxl."""
    from .ingest.workbook import UnreadableFile, read_workbook

    try:
        book = read_workbook(path)
    except (UnreadableFile, OSError):
        return None, None
    return str(book.meta.get(key, "") or "") or None, book


def _checkin_form(t: Tournament, ev: EventState, path: Path, issues: list[Issue]) -> int:
    """Write an event's 签到表 (R2016-F2) when it is not there, and again only when the
    players it would list are others (a late withdrawal, a corrected registration): the
    office fills it where it is, night after night.  Returns the number written (0 or 1).
    It lists every player of the event but those of entries the office withdrew.

    What it was made for is its _meta record (:data:`pipeline.layout.META_CHECKIN_PLAYERS`).
    A form written before that record existed is judged by the players its sheet lists (the
    姓名/工号 cells are locked, so they are what it was made for): listing the same players
    it is kept as it is, whatever it has filled in — rewriting it only to add the record
    would risk the office's work for nothing.

    When the list does change, the 到场 already filled in are carried over to the new form
    for every player still listed (found by 工号, else by 姓名), and an info issue
    (CHECKIN_FORM_UPDATED, said that night) and a line on the form tell the office what
    changed; the answers of players no longer listed are named there (they no longer
    play).  A form that cannot be read at all is not overwritten: it is kept beside as
    ``…-签到表-旧.xlsx`` (the office may still see what it typed) and the issue says so."""
    from . import layout
    from .issues import issue
    from .model import staff_key

    groups = checkin_rows(t, ev)
    want = layout.checkin_players(groups)
    listed: list[tuple[str, str]] = []
    answers: dict[tuple[str, str], str] = {}
    aside = None
    if path.exists():
        made, book = _form_record(path, layout.META_CHECKIN_PLAYERS)
        if book is None:
            aside = _free_name(path.with_name(f"{path.stem}-旧{path.suffix}"))
            path.replace(aside)
        else:
            old: dict[str, list[tuple[str, str]]] = {}
            for grp, name, sid, here in _checkin_rows(book):
                old.setdefault(grp, []).append((name, sid))
                listed.append((name, sid))
                if here:
                    answers[(name, sid)] = here
            if (made or layout.checkin_players(old)) == want:
                return 0
            if {p for ps in groups.values() for p in layout.checkin_people(ps)} == set(listed):
                # the same players, another layout: an earlier version's form (no 组别, unit,
                # team; rows by 工号) or one made before the deadline fixed the groups (R2016-F1).
                # Made again with them while nothing is filled in; a form the office has begun
                # to fill is theirs, kept as it is (it is read by its header all the same)
                if answers:
                    return 0
                from .xlsx.forms import write_checkin_form
                write_checkin_form(t, ev.spec, groups, path)
                rel = f"forms/{path.name}"
                grouped = any(groups)
                issues.append(issue("CHECKIN_FORM_UPDATED", (
                    f"{ev.spec.name}的签到表（{rel}）已重新生成：参赛名单没有变化，新表"
                    + ("列出各人的组别（报名截止后按报名名单抽签确定，与签到无关）、" if grouped else "列出各人的")
                    + f"{t.spec.unit_word or '单位'}和队名，按{'组别、' if grouped else ''}{t.spec.unit_word or '单位'}、"
                    "队名排列，便于签到。原表中没有填写到场情况，请使用新表（已打印的旧表名单相同，也可照常使用）。"),
                    at=CellRef(rel)))
                return 1
    if not path.exists() and aside is None and not listed:
        from .xlsx.forms import write_checkin_form
        write_checkin_form(t, ev.spec, groups, path)
        return 1
    # the list changed: the answers follow their players (by 工号, else by 姓名)
    by_sid = {staff_key(s): v for (_, s), v in answers.items() if s}
    by_name = {n: v for (n, s), v in answers.items() if not s}
    now = [p for ps in groups.values() for p in layout.checkin_people(ps)]
    carried = {(n, s): v for n, s in now
               if (v := (by_sid.get(staff_key(s)) if s else by_name.get(n))) is not None}

    def who(n: str, s: str) -> str:
        return staff_key(s) if s else n
    still = {who(n, s) for n, s in now}
    olds = {who(n, s) for n, s in listed}
    gone = [n for n, s in listed if who(n, s) not in still]
    new = [n for n, s in now if who(n, s) not in olds]
    lost = [f"{n}（{answers[(n, s)]}）" for n, s in listed if (n, s) in answers and who(n, s) not in still]

    def names(xs: list[str]) -> str:
        return "、".join(xs[:10]) + (f" 等 {len(xs)} 人" if len(xs) > 10 else "")
    what = "；".join(x for x in (f"新列入 {names(new)}" if new else "", f"不再列出 {names(gone)}" if gone else "") if x)
    notice = ""
    if carried:
        notice = f"参赛名单有变化，本表已重新生成：原表已填的{len(carried)}人的“到场”已转入本表，请核对后继续填写。"
    from .xlsx.forms import write_checkin_form
    write_checkin_form(t, ev.spec, groups, path, answers=carried, notice=notice)
    rel = f"forms/{path.name}"
    if aside is not None:
        msg = (f"{ev.spec.name}的签到表（{rel}）无法读取，已按当前参赛名单重新生成；原文件保留为 forms/{aside.name}，"
               "其中已填写的到场情况没有转入新表：请在新表上重新填写。")
    else:
        msg = (f"{ev.spec.name}的参赛名单有变化（{what or '姓名或工号有更正'}），签到表（{rel}）已按当前名单重新生成。"
               + (f"原表中已填写的 {len(carried)} 人的到场情况已转入新表，请核对后继续在新表上填写。" if carried
                  else "原表中没有填写到场情况，请使用新表（已打印的旧表作废）。")
               + (f"不再列出的 {'、'.join(lost)} 原填的到场情况没有转入（已不在参赛名单中）。" if lost else ""))
    issues.append(issue("CHECKIN_FORM_UPDATED", msg, at=CellRef(rel)))
    return 1


def checkin_rows(t: Tournament, ev: EventState) -> dict[str, list[tuple[str, str, str, str]]]:
    """The rows of an event's 签到表 (R2016-F2), per 组别: (姓名, 工号, unit, 队名) of every
    player but those of entries the office withdrew (they play no round).  Once the deadline
    has passed the groups are known — the branch chairs' lot from the entry list alone
    (R2016-F1, :attr:`EventState.lot_groups`) — and the rows go by group; before it all are
    under one blank 组别.  Within a group: by unit (as tournament.yaml lists them), then
    team (机关一2队 before 机关一10队), a team's players together in their order, so the desk
    finds a unit's people in one place."""
    units = {u.id: (i, u.name) for i, u in enumerate(t.spec.units)}
    by_id = {e.id: e for e in ev.entries if e.id not in ev.withdrawn}

    def order(e: Entry) -> tuple:
        return (units.get(e.branch, (len(units), e.branch)), _natural(e.team or e.id), _natural(e.id))

    def rows(es: list[Entry]) -> list[tuple[str, str, str, str]]:
        return [(pl.shown, pl.staff_id or "", units.get(e.branch, (0, e.branch))[1], e.team)
                for e in sorted(es, key=order) for pl in e.players]
    lot = ev.lot_groups
    placed = {i for ids in lot.values() for i in ids}
    if lot and set(by_id) <= placed:
        return {g: rows([by_id[i] for i in ids if i in by_id]) for g, ids in lot.items()}
    return {"": rows(list(by_id.values()))}


def _natural(text: str) -> tuple:
    """A sort key reading the numbers in ``text`` as numbers: 机关一2队 before 机关一10队."""
    return tuple((0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"(\d+)", text) if x)


def _checkin_rows(book: Any) -> list[tuple[str, str, str, str]]:
    """A 签到表's rows as read: (组别, 姓名, 工号, 到场), spaces out; [] when it has no 签到 sheet."""
    from . import layout
    from .ingest.registration import read_sheet_rows
    from .ingest.sheets import checkin_mark
    from .ingest.workbook import TableNotFound, cell_text, strip_spaces

    try:
        _, raw = read_sheet_rows(book, layout.CHECKIN_SHEET, layout.CHECKIN_COLUMNS, ["姓名"])
    except TableNotFound:
        return []

    def text(v: Any) -> str:
        return "" if v is None else strip_spaces(cell_text(v))
    # (a usual mark, √ or ×, carried as the form's 是 / 否: R2016-F2)
    return [(text(v.get("组别")), text(v.get("姓名")), text(v.get("工号")), checkin_mark(v.get("到场"))) for _, v, _ in raw]


def _free_name(path: Path) -> Path:
    """``path``, or ``stem2``, ``stem3``… beside it: the first not taken."""
    n = 1
    p = path
    while p.exists():
        n += 1
        p = path.with_name(f"{path.stem}{n}{path.suffix}")
    return p


def pdf_not_made(out: Path, state: LeagueState, missing: dict[Path, str]) -> None:
    """PDFs not made because a character has no glyph in any installed font (a rare 生僻字
    in a name): the run goes on with everything else, the documents' HTML stands, the
    pages do not link the missing PDFs, and PDF_NOT_MADE says which character and what to
    install (issues.csv written again with it)."""
    from .issues import issue

    state.no_pdf = frozenset(p.relative_to(out).as_posix() for p in missing)
    for pdf, char in sorted(missing.items()):
        state.issues.append(issue(
            "PDF_NOT_MADE", f"{pdf.relative_to(out).as_posix()} 没有生成：其中的{char or '某些字符'}在已安装的字体中没有字形，"
            f"印出来会是方框。HTML 版本（{pdf.with_suffix('.html').name}）正常。请安装含该字的字体"
            "（如 Debian 软件包 fonts-noto-cjk-extra 或 fonts-hanazono）后再运行，或核实该字是否录入有误。"))
    write_issues(out / "data", state)


def _recorded(rnd: Round, sid: str) -> set[str]:
    """The team name ``rnd`` recorded for ``sid`` when it was published (its plan's labels),
    as compared by :meth:`EventRunner.check_sides` (spaces out, and in Simplified too)."""
    from .ingest.workbook import strip_spaces
    from .text import to_simplified

    rec = (rnd.plan.get("labels") or {}).get(sid)
    if not rec or not rec[0]:
        return set()
    return {strip_spaces(str(rec[0])), strip_spaces(to_simplified(str(rec[0])))}


def _entry_label(t: Tournament, e: Entry) -> str:
    """An entry as the draw and result sheets name it: the team or player, and the unit
    unless the team's name says it (``王军（行政一）``, ``行政一1队``); a pair from two units
    (R2015-Q2, or re-formed at check-in, R2016-F2) by both, its own first, as the draw sheet
    names them (``方鹏旭/潘霞洋（重组）（机关一/机关二）``: the result sheet named only the first)."""
    from .render.viewmodels import entry_units

    units = entry_units(t.spec, e)      # its own unit first, as the draw sheet and standings
    return e.team if units == _unit_short(t, e.branch) and units in e.team else f"{e.team}（{units}）"


def _side_labels(state: LeagueState, entries: Any) -> dict[str, str]:
    """How a result workbook names each entry at its table (:func:`_entry_label`), in the
    tournament's script, as its draw sheets print them (醫技學院, not 医技学院, in a
    Traditional league; names as :func:`text.names_of` keeps them).  They are read back:
    :meth:`EventRunner.check_sides` knows them as printed."""
    from .text import convert, names_of

    t = state.tournament
    with names_of(state):
        return {e.id: convert(_entry_label(t, e), t.spec.script) for e in entries}


def unit_names(t: Tournament) -> dict[str, tuple[str, ...]]:
    """Each unit's names (full and short, and the former ones the ledger remembers:
    :func:`with_former_unit_names`), as a sheet handed out before a rename may write them:
    after a player on a 加赛 row, in a team label (行政一1队), in the 评奖 sheet's 单位, in an
    event's ``withdrawn``."""
    return {u.id: tuple(n for n in (u.name, u.short, *u.former_names) if n) for u in t.spec.units}


def _unit_short(t: Tournament, unit_id: str) -> str:
    u = t.spec.unit(unit_id)
    return (u.short or u.name) if u else unit_id


# =====================================================================================
# the unchanged night: a fingerprint of everything a run depends on
# =====================================================================================

#: the ledger's cache key of the fingerprint of the last run that built receipts (--smtp)
RECEIPTS_BUILT_KEY = "receipts:built"


def receipts_built(ledger: Ledger, fp: str) -> bool:
    """Whether a run of fingerprint ``fp`` built its receipts (:func:`pipeline.mail.deliver`),
    so that an unchanged ``--smtp`` night owes no receipt but the failed ones
    (:func:`pipeline.mail.smtp.resend_pending`).  One cache row, read on every unchanged
    ``--smtp`` night instead of the receipts themselves: which submissions are owed one
    cannot be told from the ledger alone (a form nobody may be told about never has a row).

    The fingerprint leaves ``--smtp`` out (the outputs do not depend on it), so the first
    ``--smtp`` night after runs without it — and a night after a run without it took in a
    new form — found the last run's outputs current and sent nothing: no receipt was ever
    built for them (handbook 回执（--smtp）: 每收到一份报名表，回一封).  Such a night runs in
    full once (the outputs come out the same and are not rewritten: :mod:`pipeline.fsutil`)
    and sends the receipts owed.  A lost cache row costs that one run, never a duplicate:
    a receipt recorded ``sent`` is never sent again."""
    return ledger.cache_get([RECEIPTS_BUILT_KEY]).get(RECEIPTS_BUILT_KEY) == fp.encode()


def mark_receipts_built(ledger: Ledger, fp: str) -> None:
    """Record that this run (fingerprint ``fp``) built its receipts: see :func:`receipts_built`."""
    ledger.cache_put({RECEIPTS_BUILT_KEY: fp.encode()})


def fingerprint(t: Tournament, received: list[Received], now: dt.datetime, opts: RunOptions,
                copies: Iterable[tuple[str, ...]] = (), notes: Iterable[dict[str, str]] = ()) -> str:
    """Everything the outputs depend on: code, spec, secret, every received file, the
    inbox's copies of received files and their times (:func:`inbox_resent`), intake's notes
    about inbox files it did not take (``notes``: issues.csv rows), which deadlines have
    passed (the only use of "now" besides document dates) and options."""
    body = {
        "code": lastrun.code_hash(),
        # (the bytes the spec was read from: a file saved during the run is the next night's)
        "spec": t.spec_sha256 or hashlib.sha256((t.folder / "tournament.yaml").read_bytes()).hexdigest(),
        "secret": hashlib.sha256(t.secret).hexdigest(),
        "received": [(r.sha256, r.received_at.isoformat(), r.sender) for r in received],
        "copies": sorted(set(copies)),
        **({"inbox": list(notes)} if notes else {}),
        "deadlines": [(deadline_passed(ev, now), draw_time_come(ev, now)) for ev in t.spec.events],
        # a round drawn ahead of its session waits for no result until it begins (not_played_yet)
        "sessions_begun": sum(1 for x in t.spec.sessions if _session_start(x) <= aware(now)),
        "now": opts.now.isoformat() if opts.now else "",
        "pdf": opts.pdf,
    }
    return hashlib.sha256(_canon(body).encode()).hexdigest()


