"""Atomic file writes and safe CSV: the only way the pipeline writes files.

Every output is written to a temporary file in the same folder and renamed over the
target, so a killed run leaves either the old file or the new one, never half of one.
"""
from __future__ import annotations

import csv
import io
import os
import tempfile
from pathlib import Path
from typing import Iterable, Mapping, Sequence

_kill_after = int(os.environ.get("LEAGUE_KILL_AFTER", "0") or 0)
_kill_count = 0


def kill_point() -> None:
    """TEST HOOK (tests/hardening/test_kill.py): with ``LEAGUE_KILL_AFTER=N`` in the
    environment the process dies with ``os._exit(137)`` at the N-th kill point — just
    before and just after each atomic rename and each ledger commit — to simulate a
    SIGKILL there.  Does nothing when the variable is unset."""
    global _kill_count
    if _kill_after:
        _kill_count += 1
        if _kill_count >= _kill_after:
            os._exit(137)


def _umask() -> int:
    """This process's umask (read once, at import: setting it to read it is not thread-safe)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: the mode a new output file gets: what ``open()`` would give it (0o644 under umask 022)
NEW_FILE_MODE = 0o666 & ~_umask()


#: whether :func:`atomic_write_bytes` syncs each file to the disk before renaming it into
#: place.  ``league run`` writes hundreds of outputs (pages, workbooks, CSVs) it can make
#: again from its ledger and received files: it turns this off for them (:func:`sync_each`)
#: and syncs the output folder's file system once, before it records itself
#: (:func:`sync_all`; a thousand fsyncs were ~0.6 ms each, most of a second of a 200-unit
#: night).  A run cut short before that leaves its unfinished mark, and the next night
#: trusts no earlier output (:data:`pipeline.quick.UNFINISHED`).  What cannot be made
#: again is synced as it is written, whatever this says (``durable=True``: received files,
#: the run's record, the mail outbox).
_SYNC_EACH = [True]


def sync_each(on: bool) -> None:
    """Whether :func:`atomic_write_bytes` syncs every file it writes (the default) or leaves
    the outputs to one :func:`sync_all`; a forked worker keeps what its parent had."""
    _SYNC_EACH[0] = on


def syncing_each() -> bool:
    """Whether each file is synced as it is written (else the caller syncs them: :func:`sync_all`)."""
    return _SYNC_EACH[0]


def sync_all(folder: Path) -> None:
    """Flush to the disk every file written on ``folder``'s file system, by any process
    (Linux ``syncfs``; elsewhere ``sync``).  An error of the disk is raised (the run then
    does not record itself: the next night makes its outputs again)."""
    import errno

    try:
        import ctypes

        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError, ImportError):
        syncfs = None
    if syncfs is not None:
        fd = os.open(folder, os.O_RDONLY)
        try:
            if syncfs(fd) == 0:
                return
            err = ctypes.get_errno()
        finally:
            os.close(fd)
        if err not in (errno.ENOSYS, errno.EINVAL):
            raise OSError(err, os.strerror(err), str(folder))
    os.sync()


def atomic_write_bytes(path: Path, data: bytes, durable: bool | None = None) -> bool:
    """Write ``data`` to ``path`` atomically.  Returns False (and writes nothing) when the
    file already holds exactly these bytes, so unchanged outputs keep their mtime.  The file
    gets the mode ``open()`` would give a new one (the umask's: the site, the PDFs and the CSVs
    are read by leadership's web server or another account — the temporary file's 0600 was
    every output's, "permission denied" to all but the owner; an office that wants them
    private sets its umask, 077, in the cron line).  Synced to the disk before the rename
    when ``durable``, or — ``durable`` None — unless a run syncs its outputs at once
    (:func:`sync_each`).

    >>> import tempfile, pathlib; p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> atomic_write_bytes(p, b"x"), atomic_write_bytes(p, b"x")
    (True, False)
    """
    path = Path(path)
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)      # its own error names the folder
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise _about(e, path) from e
    try:
        os.fchmod(fd, NEW_FILE_MODE)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if durable or (durable is None and _SYNC_EACH[0]):
                os.fsync(f.fileno())
        kill_point()
        os.replace(tmp, path)
        kill_point()
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise _about(e, path) from e
        raise
    return True


def _about(e: OSError, path: Path) -> OSError:
    """The error of a write, naming the file being written — not its temporary copy
    (``.issues.csv.hsogiwwu.tmp``, which the office cannot find: it is gone)."""
    return type(e)(e.errno, e.strerror, str(path)) if e.errno is not None else e


def atomic_write_text(path: Path, text: str, durable: bool | None = None) -> bool:
    return atomic_write_bytes(path, text.encode("utf-8"), durable)


_DANGEROUS = ("=", "+", "@", "\t", "\r", "\n")


def neutralise(value: object) -> str:
    """Formula-injection guard for spreadsheets and CSV: a text that a spreadsheet would
    run as a formula gets a leading apostrophe.  Plain negative numbers stay as they are.

    >>> neutralise("=HYPERLINK(\\"x\\")"), neutralise("-20"), neutralise("-cmd")
    ('\\'=HYPERLINK("x")', '-20', "'-cmd")
    """
    s = "" if value is None else str(value)
    if not s:
        return s
    if s.startswith(_DANGEROUS):
        return "'" + s
    if s[0] == "-":
        try:
            float(s)
            return s
        except ValueError:
            return "'" + s
    return s


def csv_bytes(columns: Sequence[str], rows: Iterable[Mapping[str, object]]) -> bytes:
    """UTF-8 CSV (no BOM: other programs read it with a plain UTF-8 decoder), header row,
    neutralised cells."""
    return csv_header(columns) + csv_rows(columns, rows)


def csv_header(columns: Sequence[str]) -> bytes:
    """The header line of :func:`csv_bytes`."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(columns)
    return buf.getvalue().encode("utf-8")


def csv_rows(columns: Sequence[str], rows: Iterable[Mapping[str, object]]) -> bytes:
    """The lines of :func:`csv_bytes` after its header: a file's rows can be made in parts
    (one per event, say) and joined — CSV lines do not depend on one another."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows([_csv_cell(r.get(c, "")) for c in columns] for r in rows)
    return buf.getvalue().encode("utf-8")


def csv_tuples(rows: Iterable[Sequence[object]]) -> bytes:
    """:func:`csv_rows` for rows given as sequences in the columns' order (no mapping per row:
    ``entries.csv`` is a line per player of the league, written every night)."""
    buf = io.StringIO()
    cell = _csv_cell
    csv.writer(buf, lineterminator="\n").writerows([cell(v) for v in r] for r in rows)
    return buf.getvalue().encode("utf-8")


_FIRST_DANGEROUS = frozenset(_DANGEROUS) | {"-"}


def _csv_cell(v: object) -> object:
    """:func:`neutralise` for one CSV cell, without its work where the answer is plain: a
    text that cannot start a formula, and ints and floats, which the CSV writer turns into
    the same text ``str`` gives (a data file has hundreds of thousands of cells)."""
    t = type(v)
    if t is str:
        return v if not v or v[0] not in _FIRST_DANGEROUS else neutralise(v)
    if t is int or t is float:
        return v
    return neutralise(v)


def write_csv(path: Path, columns: Sequence[str], rows: Iterable[Mapping[str, object]]) -> bool:
    return atomic_write_bytes(path, csv_bytes(columns, rows))


def shown_name(name: str) -> str:
    r"""A file name as people read it: one whose bytes are not UTF-8 (Python keeps them as
    surrogates) is read as GB18030 — what Chinese Windows writes into a zip or on a Samba
    share — else with replacement characters; any other name is itself.

    >>> shown_name(b"\xb1\xa8\xc3\xfb.xlsx".decode("utf-8", "surrogateescape"))
    '报名.xlsx'
    """
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        raw = name.encode("utf-8", "surrogateescape")
        try:
            return raw.decode("gb18030")
        except UnicodeDecodeError:
            return raw.decode("utf-8", "replace")
