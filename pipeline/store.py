"""The ledger: one SQLite file per tournament under ``output/<id>/``.

It remembers what was received (by content hash, with received time, sender and
source), every published round (frozen: never redrawn), and an audit trail.  Received
bytes are stored under ``received/<sha256><ext>`` before they are recorded, and
nothing is ever deleted.  Each logical step is one transaction, so a run killed at any
point leaves a consistent ledger and the next run simply carries on.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Iterable, Iterator

from .fsutil import atomic_write_bytes, kill_point
from .parallel import close_in_workers
from .model import Match, Round
from .timeutil import aware as _aware

SCHEMA = """
CREATE TABLE IF NOT EXISTS received (
    sha256      TEXT PRIMARY KEY,
    ext         TEXT NOT NULL,
    file_name   TEXT NOT NULL,
    received_at TEXT NOT NULL,
    sender      TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT '',
    parent      TEXT NOT NULL DEFAULT '',
    kind        TEXT NOT NULL DEFAULT '',
    branch      TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS rounds (
    event        TEXT NOT NULL,
    round        INTEGER NOT NULL,
    stage        TEXT NOT NULL,
    stage_name   TEXT NOT NULL,
    seed         TEXT NOT NULL,
    input_hash   TEXT NOT NULL,
    published_at TEXT NOT NULL,
    body         TEXT NOT NULL,
    PRIMARY KEY (event, round)
);
CREATE TABLE IF NOT EXISTS places (
    event        TEXT PRIMARY KEY,
    inputs       TEXT NOT NULL,
    published_at TEXT NOT NULL,
    body         TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS terms (
    event       TEXT PRIMARY KEY,
    recorded_at TEXT NOT NULL,
    body        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS withdrawn_byes (
    event       TEXT NOT NULL,
    round       INTEGER NOT NULL,
    entry       TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (event, round, entry)
);
CREATE TABLE IF NOT EXISTS cache (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS own_copies (
    sha256     TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    branch     TEXT NOT NULL DEFAULT '',
    written_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    at    TEXT NOT NULL,
    what  TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT ''
);
"""


@dataclass(frozen=True)
class Received:
    """One received file (a workbook or a mail) as recorded in the ledger."""

    sha256: str
    ext: str
    file_name: str
    received_at: dt.datetime
    sender: str = ""
    source: str = ""      # inbox-relative path it was found at
    parent: str = ""      # sha256 of the mail it came in, for attachments
    kind: str = ""
    branch: str = ""

    def stored(self, root: Path) -> Path:
        return root / "received" / f"{self.sha256}{self.ext}"


@dataclass(frozen=True)
class OwnCopy:
    """A returned copy a run wrote under ``returned/`` (and a receipt may have attached)."""

    sha256: str
    name: str                   # its file name under returned/
    branch: str                 # the unit whose form it marks up ("" when not known)
    written_at: dt.datetime     # the run's time when it was written


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def store_blob_at(root: Path, data: bytes, ext: str, sha: str = "") -> tuple[str, Path]:
    """Store bytes under ``root/received`` by content hash (``sha`` when the caller has it),
    durably (written, synced — at once, or by ``league run``'s intake with the night's other
    new files before it records them — and renamed into place); returns (sha, path).  Safe in any
    process: the name is the content."""
    h = sha or sha256(data)
    p = Path(root) / "received" / f"{h}{ext}"
    if not kept_whole(p, len(data)):    # not there, or cut short (a full disk, a bad restore): written again
        atomic_write_bytes(p, data)      # synced now, or (a run: sync_each) by intake before it records it
    return h, p


def kept_whole(path: Path, size: int | None) -> bool:
    """Whether a kept copy is there (and ``size`` bytes long, when the size it should have is known)."""
    try:
        st = path.stat()
    except OSError:
        return False
    return size is None or st.st_size == size


_ROUND_FIELDS = tuple(f.name for f in fields(Round))
_MATCH_FIELDS = tuple(f.name for f in fields(Match))


def round_to_json(r: Round) -> str:
    """The stored text of a round: ``json.dumps(asdict(r))`` with sorted keys, built
    without ``asdict``'s deep copy (the JSON is the same: ``test_round_json_as_asdict``)."""
    body = {name: getattr(r, name) for name in _ROUND_FIELDS}
    body["matches"] = [{name: getattr(m, name) for name in _MATCH_FIELDS} for m in r.matches]
    return json.dumps(body, ensure_ascii=False, sort_keys=True)


def round_from_json(text: str) -> Round:
    d = json.loads(text)
    matches = tuple(Match(**{**m, "sides": tuple(m["sides"])}) for m in d.pop("matches"))
    return Round(**{**d, "matches": matches, "notes": tuple(d.get("notes", ()))})


class LedgerMissing(Exception):
    """An output folder with received files or published draws and no ledger
    (:func:`check_ledger_there`)."""


def check_ledger_there(out: Path) -> None:
    """Raise :class:`LedgerMissing` when ``out`` holds what only a ledger's run makes — received
    copies, referees' result sheets, draw sheets — but no ``ledger.sqlite`` (deleted, moved
    away): a new empty one was made without a word, and the next night with new input drew
    published rounds again, beside the referees' sheets of the old draw.

    A ``ledger.sqlite`` of 0 bytes (a crash before its data reached the disk, a bad copy or
    restore) is no ledger either — SQLite opens it as a new, empty database, and the accepted
    entries were gone and published rounds drawn again, exit 0 — and nor is a database
    without the ledger's tables (another file copied in its place): both stop the run alike,
    the file left as it is.  In an output folder with nothing of an earlier run (a first run
    stopped just after it made the file) either is made the ledger, as before."""
    path = out / "ledger.sqlite"
    try:
        size = path.stat().st_size if path.exists() else None
    except OSError:
        return      # (unreadable: opening it says why, pipeline.runcmd._db_advice)
    if size is not None and size > 0 and _has_ledger_tables(path):
        return
    made = [d for d in ("received", "results", "draws") if (out / d).is_dir() and any((out / d).iterdir())]
    if not made:
        return
    there = f"输出文件夹 {out} 中已有{'、'.join({'received': '收到的文件', 'results': '成绩表', 'draws': '抽签表'}[d] for d in made)}，"
    fresh = "如确要从头重来（会重新受理全部文件、重新抽签），请把整个输出文件夹改名或删除后再运行。"
    if size is None:
        raise LedgerMissing(
            there + "但账本 ledger.sqlite 不见了（被删除或移走）：请从备份恢复 ledger.sqlite 后再运行（已公布的抽签不会重抽）。"
            + fresh)
    what = ("是空的（0 字节，多半是断电或死机时没有写完，或拷贝、恢复时出了错）" if size == 0 else
            "不是这个赛事的账本（里面没有账本的记录，多半是拷贝或恢复时放错了文件）")
    raise LedgerMissing(
        there + f"但账本 ledger.sqlite {what}，账本已损坏：请从最近的备份恢复 ledger.sqlite 后再运行"
        "（已公布的抽签不会重抽）；本次运行已停下，这个文件原样保留。" + fresh)


#: tables every ledger has (:data:`SCHEMA`): a database without them is not a ledger
LEDGER_TABLES = ("received", "rounds")


def _has_ledger_tables(path: Path) -> bool:
    """Whether the SQLite file ``path`` has the ledger's tables (read only; True when it cannot
    be read here: opening it for the run says what is wrong, :func:`pipeline.runcmd._db_advice`).

    Without a write-ahead log beside it the file is read as immutable: no ``-wal``/``-shm``
    files are made next to a file that is perhaps no ledger.  With one (a run killed before
    its changes reached the file: the tables may be in the log alone) it is read with it."""
    from urllib.parse import quote

    try:
        wal = os.stat(f"{path}-wal").st_size > 0
    except OSError:
        wal = False
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro{'' if wal else '&immutable=1'}",
                               uri=True, timeout=30)
    except (sqlite3.Error, OSError):
        return True
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error:
        return True
    finally:
        conn.close()
    return all(t in names for t in LEDGER_TABLES)


class Ledger:
    """The tournament's ledger.  Use as a context manager; every write method is its own
    transaction."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "received").mkdir(exist_ok=True)
        self.path = self.root / "ledger.sqlite"
        self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        had = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        self.conn.executescript(SCHEMA)
        self._side_tables(had)
        #: the night being run (:func:`pipeline.lastrun.begin`); "" outside a run: nothing is
        #: kept as its news (:meth:`night_news`)
        self.night = ""

    #: data added since a table was first made, in tables of its own — never new columns of
    #: an old table: the previous program's ``INSERT … VALUES (?,?,?,?)`` into it failed on a
    #: ledger this one had opened (and blamed the disk).  ``withdrawn_byes_completed``: a bye
    #: recorded unscored seen with its round complete (:meth:`completed_withdrawn_byes`);
    #: ``own_copies_guessed``: a returned copy found unrecorded (:meth:`record_own_copies`);
    #: ``places_sources``: what a finished event's published places were made from, the
    #: sheets and the office's data only (:meth:`places_sources`)
    _SIDE_TABLES = """
CREATE TABLE IF NOT EXISTS withdrawn_byes_completed (
    event        TEXT NOT NULL,
    round        INTEGER NOT NULL,
    entry        TEXT NOT NULL,
    completed_at TEXT NOT NULL,
    PRIMARY KEY (event, round, entry)
);
CREATE TABLE IF NOT EXISTS own_copies_guessed (
    sha256 TEXT PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS places_sources (
    event   TEXT PRIMARY KEY,
    inputs  TEXT NOT NULL,
    sources TEXT NOT NULL,
    tables  TEXT NOT NULL DEFAULT ''
);
"""

    def _side_tables(self, had: set[str]) -> None:
        """Make :data:`_SIDE_TABLES` in one transaction.  An older ledger's byes recorded
        unscored before a later round of their event was published were seen with their round
        complete — that round was drawn from its results; the others are marked by the next
        run that finds their round complete.  A ledger given the data as columns (a development
        build: ``withdrawn_byes.completed_at``, ``own_copies.guessed``) has it moved here and
        the columns dropped, so the previous program can write it again."""
        def columns(t: str) -> set[str]:
            return {r[1] for r in self.conn.execute(f"PRAGMA table_info({t})")}
        if {"withdrawn_byes_completed", "own_copies_guessed", "places_sources"} <= had and "completed_at" not in columns("withdrawn_byes") \
                and "guessed" not in columns("own_copies"):
            return
        with self._tx():
            new = "withdrawn_byes_completed" not in {r[0] for r in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            for stmt in self._SIDE_TABLES.split(";"):
                if stmt.strip():
                    self.conn.execute(stmt)
            if "completed_at" in columns("withdrawn_byes"):
                self.conn.execute("INSERT OR IGNORE INTO withdrawn_byes_completed SELECT event, round, entry, completed_at "
                                  "FROM withdrawn_byes WHERE completed_at != ''")
                self.conn.execute("ALTER TABLE withdrawn_byes DROP COLUMN completed_at")
            elif new and "withdrawn_byes" in had:
                self.conn.execute(
                    "INSERT OR IGNORE INTO withdrawn_byes_completed SELECT w.event, w.round, w.entry, "
                    "(SELECT MIN(r.published_at) FROM rounds r WHERE r.event=w.event AND r.round>w.round) "
                    "FROM withdrawn_byes w WHERE EXISTS (SELECT 1 FROM rounds r WHERE r.event=w.event "
                    "AND r.round>w.round)")
            if "guessed" in columns("own_copies"):
                self.conn.execute("INSERT OR IGNORE INTO own_copies_guessed SELECT sha256 FROM own_copies WHERE guessed=1")
                self.conn.execute("ALTER TABLE own_copies DROP COLUMN guessed")

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    # -- transactions -----------------------------------------------------------------
    def _tx(self) -> "_Tx":
        return _Tx(self.conn)

    # -- received files ---------------------------------------------------------------
    def store_blob(self, data: bytes, ext: str) -> tuple[str, Path]:
        """Store bytes by content hash (before recording them); returns (sha, path)."""
        return store_blob_at(self.root, data, ext)

    def has(self, sha: str) -> bool:
        return self.conn.execute("SELECT 1 FROM received WHERE sha256=?", (sha,)).fetchone() is not None

    def record(self, rec: Received) -> bool:
        """Record a received file once; False when that content was already received."""
        return self.record_many([rec])[0]

    def record_many(self, recs: list[Received], at: dt.datetime | None = None) -> list[bool]:
        """:meth:`record` for many files in one transaction (their blobs stored before).

        A content received before is recorded once, at its earliest receipt (R2020-Q4: the
        contract's time of receipt, a mail's Date or a file's modification time, of whichever
        copy came first): a record here that is an earlier receipt of a recorded content — the
        captain's on-time mail dropped into the inbox after a late copy of its form was
        recorded — takes the record's place (its time, sender, name, inbox path and mail;
        the content's kind and unit stay), and the audit says from what to what (at ``at``,
        the run's time, else the new time of receipt).  True for each record written: new,
        or made earlier."""
        done = []
        with self._tx():
            for rec in recs:
                cur = self.conn.execute(
                    "INSERT OR IGNORE INTO received VALUES (?,?,?,?,?,?,?,?,?)",
                    (rec.sha256, rec.ext, rec.file_name, rec.received_at.isoformat(), rec.sender,
                     rec.source, rec.parent, rec.kind, rec.branch))
                done.append(cur.rowcount == 1 or self._earlier(rec, at))
                if cur.rowcount == 1 and self.night:
                    self._news(f"file:{rec.sha256}", b"")
        return done

    def _earlier(self, rec: Received, at: dt.datetime | None) -> bool:
        """Within a transaction: ``rec``'s receipt in place of the recorded one of its content
        when it is earlier (:meth:`record_many`); whether it was."""
        row = self.conn.execute("SELECT received_at, file_name, source, sender FROM received WHERE sha256=?",
                                (rec.sha256,)).fetchone()
        if row is None:
            return False
        was = dt.datetime.fromisoformat(row[0])
        if not _aware(rec.received_at) < _aware(was):
            return False
        self.conn.execute("UPDATE received SET received_at=?, file_name=?, sender=?, source=?, parent=? "
                          "WHERE sha256=?", (rec.received_at.isoformat(), rec.file_name, rec.sender, rec.source,
                                             rec.parent, rec.sha256))
        self._audit(at or rec.received_at, "received_earlier",
                    f"{rec.sha256}{rec.ext}: {row[0]} {row[2] or row[1]} ({row[3]}) -> "
                    f"{rec.received_at.isoformat()} {rec.source or rec.file_name} ({rec.sender})")
        return True

    def set_kind(self, sha: str, kind: str, branch: str = "") -> None:
        with self._tx():
            self.conn.execute("UPDATE received SET kind=?, branch=? WHERE sha256=?", (kind, branch, sha))

    def received(self) -> list[Received]:
        rows = self.conn.execute(
            "SELECT sha256, ext, file_name, received_at, sender, source, parent, kind, branch "
            "FROM received ORDER BY received_at, sha256").fetchall()
        return [Received(r[0], r[1], r[2], dt.datetime.fromisoformat(r[3]), *r[4:]) for r in rows]

    def received_shas(self) -> set[str]:
        """The SHA-256 of every file recorded: taken before a night's intake, what it records new is not among them."""
        return {row[0] for row in self.conn.execute("SELECT sha256 FROM received")}

    # -- the returned copies we wrote -------------------------------------------------
    def own_copies(self) -> dict[str, "OwnCopy"]:
        """Every returned (marked-up) copy the runs wrote, by the SHA-256 of its bytes: such a
        file coming back (a captain's inline 转发 of a receipt keeps its attachment) is ours,
        never a new form (:func:`pipeline.run.read_inputs`)."""
        return {r[0]: OwnCopy(r[0], r[1], r[2], dt.datetime.fromisoformat(r[3]))
                for r in self.conn.execute("SELECT sha256, name, branch, written_at FROM own_copies")}

    def record_own_copies(self, copies: list["OwnCopy"], at: dt.datetime, guessed: bool = False) -> None:
        """Record the returned copies just written, in one transaction; a content recorded
        before keeps its first time (the date the notes give).  ``guessed``: copies found
        under ``returned/`` unrecorded, their unit unknown and their time the file's
        (:func:`pipeline.run.known_own_copies`) — a run's own record of the same content
        later takes their place (a run killed after writing its copies and before recording
        them: the run that finishes the night records them as that night's, with their unit)."""
        if not copies:
            return
        with self._tx():
            for c in copies:
                row = (c.sha256, c.name, c.branch, c.written_at.isoformat())
                done = self.conn.execute("INSERT OR IGNORE INTO own_copies (sha256, name, branch, written_at) "
                                         "VALUES (?,?,?,?)", row).rowcount
                if done and guessed:
                    self.conn.execute("INSERT OR IGNORE INTO own_copies_guessed (sha256) VALUES (?)", (c.sha256,))
                elif not done and not guessed and self.conn.execute(
                        "DELETE FROM own_copies_guessed WHERE sha256=?", (c.sha256,)).rowcount:
                    done = self.conn.execute("UPDATE own_copies SET name=?, branch=?, written_at=? WHERE sha256=?",
                                             (*row[1:], c.sha256)).rowcount
                if done:
                    self._audit(at, "own_copy", f"{c.sha256} returned/{c.name}" + (" (guessed)" if guessed else ""))

    # -- rounds -----------------------------------------------------------------------
    def rounds(self, event: str) -> list[Round]:
        return [round_from_json(body) for body in self.rounds_raw(event)]

    def rounds_raw(self, event: str) -> list[str]:
        """The published rounds of ``event`` as stored (JSON), in order — what they are,
        without building them (a key of everything an event depends on uses it)."""
        rows = self.conn.execute("SELECT body FROM rounds WHERE event=? ORDER BY round", (event,)).fetchall()
        return [r[0] for r in rows]

    def round_body(self, event: str, round_no: int) -> str | None:
        """One published round as stored (JSON), or None."""
        row = self.conn.execute("SELECT body FROM rounds WHERE event=? AND round=?", (event, round_no)).fetchone()
        return row[0] if row else None

    def published_rounds(self) -> list[tuple[str, int, str]]:
        """(event, round, published_at as stored) of every published round."""
        return self.conn.execute("SELECT event, round, published_at FROM rounds").fetchall()

    def published_at(self, event: str, round_no: int) -> dt.datetime | None:
        """When a round was published (the run's time), or None."""
        row = self.conn.execute("SELECT published_at FROM rounds WHERE event=? AND round=?",
                                (event, round_no)).fetchone()
        return dt.datetime.fromisoformat(row[0]) if row else None

    def drawn_events(self) -> dict[str, int]:
        """Event id → how many rounds the ledger holds for it."""
        return dict(self.conn.execute("SELECT event, COUNT(*) FROM rounds GROUP BY event").fetchall())

    def publish(self, rnd: Round, at: dt.datetime) -> None:
        """Freeze a round.  Publishing the same round number twice is a programming error."""
        with self._tx():
            self.conn.execute(
                "INSERT INTO rounds VALUES (?,?,?,?,?,?,?,?)",
                (rnd.event, rnd.round, rnd.stage, rnd.stage_name, rnd.seed, rnd.input_hash,
                 at.isoformat(), round_to_json(rnd)))
            self._audit(at, "publish", f"{rnd.event} round {rnd.round} seed {rnd.seed} inputs {rnd.input_hash}")
            if self.night:      # (the night's rounds: their result sheets are written afresh)
                self._news(f"round:{rnd.event}:{rnd.round}", b"")

    # -- published places ---------------------------------------------------------------
    def published_places(self, event: str) -> tuple[str, str] | None:
        """(inputs digest, body JSON) of the places last published for a finished event, or None."""
        row = self.conn.execute("SELECT inputs, body FROM places WHERE event=?", (event,)).fetchone()
        return (row[0], row[1]) if row else None

    def places_sources(self, event: str) -> tuple[str, str] | None:
        """(sources digest, tables record) recorded with the published places of ``event``
        (:meth:`publish_places`), or None: none recorded (a ledger of an older version), or
        recorded with other places than the ledger now holds (an older version published
        them again since, and did not record their sources)."""
        row = self.conn.execute("SELECT s.sources, s.tables FROM places_sources s JOIN places p "
                                "ON p.event = s.event AND p.inputs = s.inputs WHERE s.event=?", (event,)).fetchone()
        return (row[0], row[1]) if row else None

    def publish_places(self, event: str, inputs: str, body: str, at: dt.datetime, news: bytes = b"",
                       sources: tuple[str, str] | None = None) -> None:
        """Record a finished event's places as published, with the digest of what they were
        computed from (replacing an earlier record: its inputs changed) and ``sources`` (the
        digest of its sheets and the office's data alone, and its tables' results then:
        :meth:`places_sources`) — and ``news``, what the night says of the change
        (:meth:`night_news`), in the same transaction."""
        with self._tx():
            self.conn.execute("INSERT OR REPLACE INTO places VALUES (?,?,?,?)", (event, inputs, at.isoformat(), body))
            if sources is None:
                self.conn.execute("DELETE FROM places_sources WHERE event=?", (event,))
            else:
                self.conn.execute("INSERT OR REPLACE INTO places_sources (event, inputs, sources, tables) "
                                  "VALUES (?,?,?,?)", (event, inputs, *sources))
            self._audit(at, "places", f"{event} inputs {inputs[:16]}")
            if news and self.night:
                self._news(f"places:{event}", news)

    def withdraw_places(self, event: str, at: dt.datetime) -> None:
        """Forget a finished event's published places: it is no longer finished (a 加赛 now
        required, a result corrected); the places it ends with are published afresh."""
        with self._tx():
            self.conn.execute("DELETE FROM places WHERE event=?", (event,))
            self.conn.execute("DELETE FROM places_sources WHERE event=?", (event,))
            self._audit(at, "places", f"{event} withdrawn")

    # -- byes not scored: their entry withdrawn before the round was played -------------
    def withdrawn_byes(self, event: str) -> set[tuple[int, str]]:
        """(round, entry) of each bye of ``event`` that does not score: the office withdrew
        its entry while the round's results were not all in (handbook 缺席、弃权和退赛,
        :meth:`pipeline.run.EventRunner.unscored_byes`)."""
        rows = self.conn.execute("SELECT round, entry FROM withdrawn_byes WHERE event=?", (event,)).fetchall()
        return {(int(r), str(e)) for r, e in rows}

    def completed_withdrawn_byes(self, event: str) -> set[tuple[int, str]]:
        """Those of :meth:`withdrawn_byes` whose round a run saw with its results all in while
        the bye was unscored: they stay unscored for good (handbook 缺席、弃权和退赛, "收齐之后再
        删去的，不计分照旧") — the withdrawal taken back, the round open again for a while."""
        rows = self.conn.execute("SELECT w.round, w.entry FROM withdrawn_byes w JOIN withdrawn_byes_completed c "
                                 "ON c.event=w.event AND c.round=w.round AND c.entry=w.entry WHERE w.event=?",
                                 (event,)).fetchall()
        return {(int(r), str(e)) for r, e in rows}

    def record_withdrawn_byes(self, event: str, add: Iterable[tuple[int, str]], drop: Iterable[tuple[int, str]],
                              at: dt.datetime, completed: Iterable[tuple[int, str]] = ()) -> None:
        """Record the byes of ``add`` as not scored and forget those of ``drop`` (the
        withdrawal taken back), and mark those of ``completed`` (recorded, or in ``add``) as
        seen with their round complete (:meth:`completed_withdrawn_byes`), in one transaction."""
        add, drop, completed = sorted(add), sorted(drop), sorted(completed)
        if not add and not drop and not completed:
            return
        with self._tx():
            self.conn.executemany("DELETE FROM withdrawn_byes WHERE event=? AND round=? AND entry=?",
                                  [(event, r, e) for r, e in drop])
            # (a bye recorded again, or taken back, is no longer seen complete: as its row replaced)
            self.conn.executemany("DELETE FROM withdrawn_byes_completed WHERE event=? AND round=? AND entry=?",
                                  [(event, r, e) for r, e in drop + add])
            self.conn.executemany("INSERT OR REPLACE INTO withdrawn_byes (event, round, entry, recorded_at) "
                                  "VALUES (?,?,?,?)", [(event, r, e, at.isoformat()) for r, e in add])
            self.conn.executemany("INSERT OR IGNORE INTO withdrawn_byes_completed (event, round, entry, completed_at) "
                                  "SELECT event, round, entry, ? FROM withdrawn_byes WHERE event=? AND round=? AND entry=?",
                                  [(at.isoformat(), event, r, e) for r, e in completed])
            self._audit(at, "withdrawn-byes", f"{event} +{add} -{drop}" + (f" complete {completed}" if completed else ""))

    # -- registration terms once registration closed -------------------------------------
    def closed_terms(self, event: str) -> dict[str, Any] | None:
        """The registration terms an event's entries were accepted under, recorded by the first
        run that saw its deadline passed (:func:`pipeline.run.terms_at_draw`), or None."""
        row = self.conn.execute("SELECT body FROM terms WHERE event=?", (event,)).fetchone()
        try:
            body = json.loads(row[0]) if row else None
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    def record_closed_terms(self, event: str, body: dict[str, Any], at: dt.datetime) -> None:
        """Record (or replace) the terms an event's registration closed under."""
        text = json.dumps(body, ensure_ascii=False, sort_keys=True)
        with self._tx():
            self.conn.execute("INSERT OR REPLACE INTO terms VALUES (?,?,?)", (event, at.isoformat(), text))
            self._audit(at, "terms", f"{event} {text}")

    def forget_closed_terms(self, event: str, at: dt.datetime) -> None:
        """Forget them: the office moved the deadline later, registration is open again."""
        with self._tx():
            if self.conn.execute("DELETE FROM terms WHERE event=?", (event,)).rowcount:
                self._audit(at, "terms", f"{event} reopened")

    def cache_items(self, prefix: str) -> Iterator[tuple[str, bytes]]:
        """Every cache entry under ``prefix`` (key, value), one at a time."""
        for (key,) in self.conn.execute("SELECT key FROM cache WHERE substr(key, 1, ?) = ?",
                                        (len(prefix), prefix)).fetchall():
            row = self.conn.execute("SELECT value FROM cache WHERE key=?", (key,)).fetchone()
            if row is not None:
                yield key, row[0]

    # -- derived-data cache -----------------------------------------------------------
    def cache_get(self, keys: list[str]) -> dict[str, bytes]:
        """Cached values by key (missing keys are absent).  The cache holds only what can
        be recomputed from the received files (readings, what each output was made from)."""
        return dict(self._cache_rows("key, value", keys))

    def cache_has(self, keys: list[str]) -> set[str]:
        """The keys among ``keys`` the cache holds (without reading their values)."""
        return {k for (k,) in self._cache_rows("key", keys)}

    def _cache_rows(self, columns: str, keys: list[str]) -> list[tuple]:
        """``SELECT columns FROM cache`` for ``keys``, 500 at a time (SQLite's limit on
        bound parameters)."""
        rows: list[tuple] = []
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = f"SELECT {columns} FROM cache WHERE key IN (%s)" % ",".join("?" * len(chunk))
            rows += self.conn.execute(q, chunk).fetchall()
        return rows

    def cache_put(self, items: dict[str, bytes], news: dict[str, bytes] | None = None, durable: bool = False) -> None:
        """Store cache values in one transaction (no kill points: losing them costs time only),
        with ``news`` of the night about them (:meth:`night_news`).  ``durable``: a value whose
        loss costs more than time (what a night told the office,
        :data:`pipeline.lastrun.SAID_KEY`) — committed as the ledger's own transactions are,
        on the disk before this returns."""
        if not items:
            return
        with self._tx() if durable else self._cache_tx():
            self.conn.executemany("INSERT OR REPLACE INTO cache VALUES (?,?)", list(items.items()))
            for what, value in (news or {}).items() if self.night else ():
                self._news(what, value)

    # -- the night's news -------------------------------------------------------------
    #: cache keys of a night's news: ``news:<night>:<what>``
    NEWS = "news:"

    def _news(self, what: str, value: bytes) -> None:
        """Within a transaction: keep ``value`` as this night's news ``what``."""
        self.conn.execute("INSERT OR REPLACE INTO cache VALUES (?,?)", (f"{self.NEWS}{self.night}:{what}", value))

    def night_news(self, kind: str) -> dict[str, bytes]:
        """This night's news of ``kind`` (``file``: the files its intake recorded; ``places``:
        what it said of an event's changed places; ``units``: of units renamed), by the rest
        of its name.  Written with the change it is about, in one transaction, so a run killed
        after the change leaves the run that finishes the night (:func:`pipeline.lastrun.begin`
        gives it the same night) what to tell: those files were new tonight, those places
        changed tonight — the ledger alone showed nothing new any more."""
        if not self.night:
            return {}
        prefix = f"{self.NEWS}{self.night}:{kind}:"
        return {k[len(prefix):]: v for k, v in self.cache_items(prefix)}

    def forget_other_nights(self) -> None:
        """At the start of a new night: the news of the nights before go."""
        with self._cache_tx():
            self.conn.execute("DELETE FROM cache WHERE substr(key, 1, ?) = ? AND substr(key, 1, ?) != ?",
                              (len(self.NEWS), self.NEWS, len(self.NEWS) + 33, f"{self.NEWS}{self.night}:"))

    def cache_drop(self, keys: list[str]) -> None:
        """Drop these cache entries (committed as the ledger's own transactions are)."""
        if keys:
            with self._tx():
                self.conn.executemany("DELETE FROM cache WHERE key=?", [(k,) for k in keys])

    def cache_prune(self, prefix: str, keep: set[str]) -> None:
        """Drop cache entries under ``prefix`` other than ``keep`` (readings made by an
        older version of the code or the spec)."""
        stale = [k for (k,) in self.conn.execute("SELECT key FROM cache WHERE substr(key, 1, ?) = ?",
                                                  (len(prefix), prefix)).fetchall() if k not in keep]
        if stale:
            with self._cache_tx():
                self.conn.executemany("DELETE FROM cache WHERE key=?", [(k,) for k in stale])

    @contextlib.contextmanager
    def _cache_tx(self) -> Iterator[None]:
        """A transaction on the cache alone, committed without waiting for the disk
        (``synchronous=NORMAL``; the ledger's own transactions stay ``FULL``).

        In WAL mode such a commit is written but not synced: a power cut may take it back
        (never corrupt the file), as a run killed before it would have, and losing the
        cache costs the next run time only.  The next ``FULL`` commit syncs it with its own.
        A one-changed night made four such commits, each waiting ~5 ms for the disk."""
        self.conn.execute("PRAGMA synchronous=NORMAL")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")
        finally:
            self.conn.execute("PRAGMA synchronous=FULL")

    # -- audit ------------------------------------------------------------------------
    def _audit(self, at: dt.datetime, what: str, detail: str = "") -> None:
        self.conn.execute("INSERT INTO audit (at, what, detail) VALUES (?,?,?)", (at.isoformat(), what, detail))

    def audit(self, at: dt.datetime, what: str, detail: str = "") -> None:
        with self._tx():
            self._audit(at, what, detail)

    def audit_rows(self) -> list[tuple[str, str, str]]:
        return self.conn.execute("SELECT at, what, detail FROM audit ORDER BY id").fetchall()


class _Tx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, *rest: Any) -> None:
        kill_point()
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
        kill_point()


class RunLock:
    """One ``league run`` per tournament output folder at a time (``fcntl`` lock).

    A second run waits up to ``wait`` seconds, then raises :class:`Busy`."""

    class Busy(Exception):
        pass

    def __init__(self, root: Path, wait: float = 0.0) -> None:
        self.path = Path(root) / ".lock"
        self.wait = wait
        self.fd: int | None = None

    def __enter__(self) -> "RunLock":
        import fcntl
        import time

        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                # a forked worker closes its copy (it must not hold the lock after a kill)
                close_in_workers(self.fd)
                return self
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(self.fd)
                    self.fd = None
                    raise RunLock.Busy(str(self.path)) from None
                time.sleep(0.2)

    def __exit__(self, *exc: object) -> None:
        import fcntl

        if self.fd is not None:
            close_in_workers(self.fd, keep=False)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def inbox_files(inbox: Path | str, skipped: list[tuple[str, str]] | None = None
                ) -> list[tuple[str, str, os.stat_result]]:
    """(path under the inbox with ``/``, full path, its ``stat``) of every file in the inbox
    (recursively: not into linked folders), in the order of their paths' parts, skipping
    hidden/temp files (Excel's ``~$`` lock files, dot files) — what ``Path.rglob`` and
    sorted Paths gave, with no Path per file (a night lists every file it ever received).

    A symbolic link is followed only to a regular file inside the inbox (its ``stat`` is
    that file's); any other link — to nothing, to itself, to a folder, to a file outside the
    inbox (it was read, and its bytes kept in the ledger) — is left out, and listed in
    ``skipped`` as (its path under the inbox, why: a key of :data:`LINK_PROBLEMS`)."""
    out: list[tuple[tuple[str, ...], str, str, os.stat_result]] = []
    links: list[tuple[tuple[str, ...], str]] = []
    real_inbox = os.path.realpath(inbox)

    def walk(folder: str, parts: tuple[str, ...]) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for e in entries:
            try:
                if e.is_symlink():
                    if e.name.startswith((".", "~$")):
                        continue
                    why = _link_problem(e.path, real_inbox)
                    if why:
                        links.append(((*parts, e.name), why))
                        continue
                    out.append(((*parts, e.name), "/".join((*parts, e.name)), e.path, e.stat()))
                elif e.is_dir(follow_symlinks=False):
                    walk(e.path, (*parts, e.name))
                elif e.is_file() and not e.name.startswith((".", "~$")):
                    out.append(((*parts, e.name), "/".join((*parts, e.name)), e.path, e.stat()))
            except OSError:         # gone meanwhile: not an inbox file
                continue

    if os.path.isdir(inbox):
        walk(os.fspath(inbox), ())
    out.sort(key=lambda x: x[0])
    if skipped is not None:
        skipped += [("/".join(parts), why) for parts, why in sorted(links)]
    return [(rel, full, st) for _, rel, full, st in out]


#: why an inbox link was not followed (:func:`inbox_files`), as the office is told
LINK_PROBLEMS = {
    "missing": "它指向的文件不存在（可能已被移走、改名或删除）",
    "loop": "它指向它自己（链接循环）",
    "folder": "它指向一个文件夹，链接的文件夹不会被读取",
    "outside": "它指向收件箱以外的文件，为安全起见不读取收件箱以外的文件",
    "special": "它指向的不是普通文件",
    "error": "无法访问它指向的文件",
}


def _link_problem(path: str, real_inbox: str) -> str:
    """Why the link ``path`` is not followed (a key of :data:`LINK_PROBLEMS`), or "" when it
    leads to a regular file inside the inbox (``real_inbox``: the inbox's real path)."""
    import errno
    import stat

    try:
        target = os.path.realpath(path, strict=True)
    except OSError as e:
        return {errno.ELOOP: "loop", errno.ENOENT: "missing", errno.ENOTDIR: "missing"}.get(e.errno, "error")
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return "error"
    if stat.S_ISDIR(mode):
        return "folder"
    if os.path.commonpath([target, real_inbox]) != real_inbox:
        return "outside"
    return "" if stat.S_ISREG(mode) else "special"


def ledger_holds(out: Path, rounds_only: bool = False) -> bool:
    """Whether the ledger under ``out`` has recorded any received file or published round
    (``rounds_only``: any published round) — read apart, after a run failed, or of another
    output folder; False when there is none or it cannot be read."""
    from urllib.parse import quote

    path = out / "ledger.sqlite"
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return False
        uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    except OSError:
        return False
    # (immutable: a folder that cannot be written cannot have the WAL's shared-memory file
    # made; the run's connection is closed by now)
    for how in ("", "&immutable=1"):
        try:
            conn = sqlite3.connect(uri + how, uri=True, timeout=1)
            try:
                query = "SELECT EXISTS (SELECT 1 FROM rounds)" if rounds_only else \
                    "SELECT EXISTS (SELECT 1 FROM received) OR EXISTS (SELECT 1 FROM rounds)"
                return bool(conn.execute(query).fetchone()[0])
            finally:
                conn.close()
        except sqlite3.Error:
            continue
    return False
