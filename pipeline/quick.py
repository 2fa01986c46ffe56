"""The command's entry point, and the unchanged night answered from the standard library.

A union office runs ``league run`` every night; most nights nothing new has arrived.  This
module answers such a night before anything else is imported (no click, no spec model, no
stage): it stats the code, reads the tournament folder's own files, lists the inbox and
compares the digest with the one the last run recorded in ``OUT/<id>/.lastrun.json``
(see :mod:`pipeline.lastrun`, which writes it).  When they match and no deadline has passed
since, it prints the last run's summary and exits with its code.  Anything else — other
commands, mail options, help, a changed inbox — goes to the full command line
(:mod:`pipeline.cli`), which decides with content hashes.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys

from . import __version__, templates_dir

LAST_RUN = ".lastrun.json"
#: there while a run that has begun to change the ledger or the outputs has not finished: a
#: run killed (or failed) midway leaves it, and the next night trusts no record of an
#: earlier run — its inbox and spec as they were then were answered "输出未变" over a ledger
#: holding a form the outputs did not show, or over half-written outputs
UNFINISHED = ".run-unfinished"
_CODE_SUFFIXES = (".py", ".html", ".css", ".j2")
_code: list[str] = []


def _walk(base: str, rel: str = "", skip=None, links: bool = False):
    """(path relative to ``base``, its entry) of every file below ``base``, sorted, not
    following folder symlinks; ``skip(path)`` true leaves a file or a whole folder out;
    ``links``: every symbolic link too (to a file or not: the inbox says what it skipped)."""
    try:
        entries = sorted(os.scandir(os.path.join(base, rel) if rel else base), key=lambda e: e.name)
    except OSError:
        return
    for e in entries:
        name = f"{rel}/{e.name}" if rel else e.name
        if skip is not None and skip(name):
            continue
        try:
            if links and e.is_symlink():
                yield name, e
            elif e.is_dir(follow_symlinks=False):
                yield from _walk(base, name, skip, links)
            elif e.is_file():
                yield name, e
        except OSError:         # a symlink loop, a file gone meanwhile: not an inbox file
            continue


def code_hash() -> str:
    """Identity of the package's code and templates (names, sizes and modification times —
    a stat per file, no reading), so a new version re-renders everything."""
    if not _code:
        root = os.path.dirname(os.path.realpath(__file__))
        h = hashlib.sha256(__version__.encode())
        for base in (root, templates_dir()):
            for name, e in _walk(base):
                if name.endswith(_CODE_SUFFIXES):
                    st = e.stat()
                    h.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        _code.append(h.hexdigest())
    return _code[0]


def quick_digest(folder, now_iso: str, pdf: bool) -> str:
    """Code + the tournament folder's own files + the inbox listing (names, sizes,
    modification and status-change times, inodes) + options.  No user tool sets a ctime
    back, so a file replaced in place with its old size and mtime is noticed too."""
    folder = os.fspath(folder)
    h = hashlib.sha256(code_hash().encode())
    for e in sorted(os.scandir(folder), key=lambda e: e.name):
        if e.is_file():
            h.update(f"F{e.name}\0".encode("utf-8", "surrogateescape"))
            try:
                with open(e.path, "rb") as f:
                    h.update(f.read())
            except OSError as err:       # unreadable (no permission): its stat stands for it, and
                st = e.stat()            # the full run says what is wrong (it crashed here, exit 1)
                h.update(f"!{err.errno}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}".encode())
    inbox = os.path.join(folder, "inbox")
    if os.path.isdir(inbox):
        for name, e in _walk(inbox, links=True):
            try:
                if e.is_symlink():      # where it points (a link to nowhere is said: a change is seen)
                    h.update(f"L{name}\0{os.readlink(e.path)}\0".encode("utf-8", "surrogateescape"))
                st = e.stat()
            except OSError:
                continue
            # a name that is not UTF-8 (GBK from an unzip or a Samba share) keeps its bytes
            h.update(f"I{name}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}\n"
                     .encode("utf-8", "surrogateescape"))
    h.update(f"now={now_iso} pdf={pdf}".encode())
    return h.hexdigest()


_ID = re.compile(r"^id:\s*['\"]?([A-Za-z0-9_-]+)['\"]?\s*(?:#.*)?$", re.M)


def tournament_id(folder) -> str | None:
    """The spec's top-level ``id`` read without parsing YAML (None when unsure)."""
    try:
        with open(os.path.join(os.fspath(folder), "tournament.yaml"), encoding="utf-8") as f:
            return id_in_spec(f.read())
    except (OSError, UnicodeDecodeError):
        return None


def id_in_spec(text: str) -> str | None:
    """The top-level ``id`` of a ``tournament.yaml`` text, found without parsing YAML."""
    m = _ID.search(text)
    return m.group(1) if m else None


def _ledger_size(out: str) -> int:
    """The size of ``out``'s ledger.sqlite (0 when there is none)."""
    try:
        return os.stat(os.path.join(out, "ledger.sqlite")).st_size
    except OSError:
        return 0


def last_run(out: str, own: bool = False) -> dict | None:
    """The last run's record in ``out`` (None when missing, unreadable or its outputs are gone:
    a name of :func:`outputs_listing` missing or added since — a deleted index.html, entries.csv
    or result sheet was answered "输出未变", and stayed missing — or when a run after it did
    not finish, :data:`UNFINISHED`; ``own``: the mark is the caller's own run's)."""
    if not own and (os.path.exists(os.path.join(out, UNFINISHED)) or not _ledger_size(out)):
        return None         # (no ledger, or 0 bytes: the run says so, pipeline.store.check_ledger_there)
    try:
        with open(os.path.join(out, LAST_RUN), encoding="utf-8") as f:
            body = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(body, dict) or body.get("outputs") != outputs_listing(out):
        return None
    return body


def outputs_listing(out: str) -> str:
    """A digest of the names of the run's outputs under ``out``: every file but the ledger,
    the received copies (``received/``: intake stores a lost one again) and dot files (the
    run's own records, temporary files).  Names only, no reading: ~150 files at 50 units."""
    def skip(name: str) -> bool:
        return (name.rpartition("/")[2].startswith(".")
                or ("/" not in name and (name == "received" or name.startswith("ledger.sqlite"))))
    h = hashlib.sha256()
    for name, _ in _walk(os.fspath(out), skip=skip):
        h.update(name.encode("utf-8", "surrogateescape") + b"\n")
    return h.hexdigest()


def unchanged(folder, out_parent, now_iso: str, now_utc_iso: str, pdf: bool
              ) -> tuple[dict | None, str, str | None]:
    """(the last run's record when the quick check shows nothing changed, else None; this
    night's digest; the tournament's output folder, None when its id cannot be read).  ``now_iso`` is the fixed ``--now`` ('' for the clock); ``now_utc_iso``
    the moment to compare with the record's "valid until" (the next deadline)."""
    import datetime as dt

    digest = quick_digest(folder, now_iso, pdf)
    tid = tournament_id(folder)
    if tid is None:
        return None, digest, None
    out = os.path.join(os.fspath(out_parent), tid)
    body = last_run(out)
    if body is None or body.get("quick") != digest:
        return None, digest, out
    until = body.get("valid_until")
    if until and dt.datetime.fromisoformat(now_utc_iso) >= dt.datetime.fromisoformat(until):
        return None, digest, out
    return body, digest, out


def _parse_run(argv: list[str]) -> tuple[str, str, str, bool, float] | None:
    """``run FOLDER [--out DIR] [--now ISO] [--pdf|--no-pdf] [--wait S]`` → (folder, out,
    now, pdf, wait); None for anything else (the full command line handles it, and
    reports what is wrong)."""
    if not argv or argv[0] != "run":
        return None
    folder, out, now, pdf, wait = None, "output", "", True, 0.0
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        name, eq, val = a.partition("=")
        if name in ("--out", "--now", "--wait") and a.startswith("--"):
            if not eq:
                if i + 1 >= len(args):
                    return None
                i += 1
                val = args[i]
            if name == "--out":
                out = val
            elif name == "--now":
                now = val
            else:
                try:
                    wait = float(val)
                except ValueError:
                    return None
        elif a in ("--pdf", "--no-pdf"):
            pdf = a == "--pdf"
        elif a.startswith("-") or folder is not None:
            return None
        else:
            folder = a
        i += 1
    if folder is None or not os.path.isdir(folder):
        return None
    return folder, out, now, pdf, wait


def quick_run(argv: list[str]) -> tuple[str, bool] | None:
    """(summary, needs attention) of an unchanged night, or None."""
    parsed = _parse_run(argv)
    if parsed is None:
        return None
    folder, out, now_text, pdf, _ = parsed
    import datetime as dt

    now_iso = ""
    if now_text:
        try:
            now = dt.datetime.fromisoformat(now_text)
        except ValueError:
            return None
        if now.tzinfo is None:
            now = now.replace(tzinfo=dt.timezone(dt.timedelta(hours=8), "CST"))
        now_iso = now.isoformat()
        current = now
    else:
        current = dt.datetime.now(dt.timezone.utc)
    body, _, where = unchanged(folder, out, now_iso, current.isoformat(), pdf)
    if body is None or "summary" not in body:
        return None
    summary = body["summary"]
    # the summary names the folder it was written in: an output folder copied to a new
    # --out (as the handbook advises) printed the old one (audit 38)
    head, nl, rest = summary.partition("\n")
    if where is not None and head.startswith(_OUT_LINE):
        summary = f"{_OUT_LINE}{as_path(where)}{nl}{rest}"
    return summary, bool(body.get("attention"))


#: the summary's first line (:meth:`pipeline.lastrun.RunReport.summary`) begins so
_OUT_LINE = "输出目录 "


def as_path(p: str) -> str:
    """``p`` as ``str(pathlib.PurePosixPath(p))`` spells it — as the full run prints its
    output folder — without importing pathlib: no empty or ``.`` parts, no trailing slash.

    >>> [as_path(p) for p in ("./out//t1/", "/a/./b", "//srv/x", "t1")]
    ['out/t1', '/a/b', '//srv/x', 't1']
    """
    lead = "//" if p.startswith("//") and not p.startswith("///") else "/" if p.startswith("/") else ""
    return (lead + "/".join(x for x in p.split("/") if x and x != ".")) or "."


def ran_before(argv: list[str]) -> bool:
    """Whether the tournament of a ``league run`` line has an earlier run's record in its
    output folder (True when unsure).  A tournament's first run — every registration new,
    every returned copy made by the run's pool — has no use for a prestarted worker."""
    parsed = _parse_run(argv)
    if parsed is None:
        return True
    tid = tournament_id(parsed[0])
    return tid is None or os.path.exists(os.path.join(parsed[1], tid, LAST_RUN))


def main() -> None:
    """``league``: an unchanged night answered here; everything else by :mod:`pipeline.cli`."""
    import gc

    # A run pauses the cyclic collector (pipeline.gcpolicy) and would switch it on again at
    # its end, only to walk the whole state once more before the process ends: the
    # process's commands (all of them short) run without it — from their first import on
    # (a collection every 700 new objects while the modules are made found no garbage).
    gc.disable()
    if not sys.flags.utf8_mode and sys.getfilesystemencoding() != "utf-8":
        _restart_in_utf8_mode()
    hit = quick_run(sys.argv[1:])
    if hit is not None:
        summary, attention = hit
        try:
            sys.stdout.write(summary + "\n")
            sys.stdout.flush()
        except UnicodeEncodeError:   # a terminal that cannot show Chinese: let click cope
            hit = None
        else:
            sys.exit(1 if attention else 0)
    args = sys.argv[1:]
    is_run = args[:1] == ["run"] and not {"-h", "--help"} & set(args)
    # a command that does work: from here every dataclass is made with its methods' compiled
    # code kept from an earlier run (pipeline.dataclass_code; ~40 ms of a command's imports),
    # and every regular expression with its matcher code (pipeline.regex_code; ~25 ms)
    from . import dataclass_code, regex_code

    dataclass_code.install()
    regex_code.install()
    if is_run and ran_before(args):
        # a run is due: a worker forks to import the workbook writer meanwhile
        # (pipeline.parallel.prestart).  The modules both processes need are imported
        # first, once: the worker would otherwise import them too (~40 ms of its CPU, on
        # the night's second core while both are busy)
        import importlib

        for shared in ("pipeline.issues", "pipeline.text"):
            importlib.import_module(shared)
        from .parallel import prestart
        # (no warm-up copy: the forms it opens while the run validates — run.open_copies_ahead
        # — pay openpyxl's first use; the tiny copy made at its start cost the night 8 %,
        # 0.44 → 0.405 s at 50 units, medians of 12 alternating runs)
        prestart("pipeline.xlsx.returned")
    from pathlib import Path

    if is_run:
        parsed = _parse_run(args)
        if parsed is not None:      # the cron line: no need for the command-line toolkit
            from .runcmd import parse_now, run_command
            folder, out, now_text, pdf, wait = parsed
            try:
                now = parse_now(now_text)
            except ValueError:
                pass                # click says what is wrong with it
            else:
                try:
                    code = run_command(Path(folder), Path(out), now, pdf, wait=wait)
                except KeyboardInterrupt:       # before the run started (run_command says its own)
                    print("\n已中断：本次运行没有完成，下次运行会补全全部输出。", file=sys.stderr)
                    code = 2                    # (runcmd.EXIT_FAILED: 1 is "inputs need attention")
                hard_exit(code)
    from .cli import main as cli_main
    try:
        cli_main()       # click's standalone mode always ends in SystemExit
    except SystemExit as e:
        hard_exit(e.code)


def _restart_in_utf8_mode() -> None:
    """Under a locale whose encoding cannot write Chinese (``LANG=en_US.ISO-8859-1``; ASCII
    with ``LC_ALL=C PYTHONUTF8=0 PYTHONCOERCECLOCALE=0``) every output file name stopped the
    run with a traceback and every message came out as ``\\u9519\\u8bef`` (an audit): the same
    command starts again in Python's UTF-8 mode (``-X utf8``: file names and the output in
    UTF-8, whatever the locale says).  Only then — a UTF-8 locale (every night's) pays one
    comparison, and a GBK locale, which writes Chinese, is kept.  Should that not be possible,
    one line says how to run it, and the command stops (exit 2)."""
    enc = sys.getfilesystemencoding()
    try:
        "错误".encode(enc)
    except (UnicodeEncodeError, LookupError):
        pass
    else:
        return
    argv = getattr(sys, "orig_argv", None)
    if sys.executable and argv:         # (no loop: -X utf8 sets sys.flags.utf8_mode)
        try:
            os.execv(sys.executable, [sys.executable, "-X", "utf8", *argv[1:]])
        except OSError:
            pass
    line = (f"league: the locale's encoding ({enc}) cannot write Chinese; run it with LANG=C.UTF-8 "
            "(错误：当前语言环境的编码无法写出中文文件名，请以 LANG=C.UTF-8 运行 league)\n")
    try:
        sys.stderr.buffer.write(line.encode("utf-8"))
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass
    os._exit(2)


def hard_exit(code: object) -> None:
    """End the process now, with ``sys.exit``'s meaning of ``code``, after flushing what it
    printed and logged — without the interpreter's teardown.  A run's state is a million
    small objects; freeing them one by one at exit took a quarter of a second of a 200-unit
    run and most of a rerun's last tenth (mypy ends the same way, for the same reason).
    Everything that must reach the disk is written and synced before this: atomic writes,
    the ledger's transactions (its connection is closed), the pools shut down; here the
    compiled dataclass methods (:mod:`pipeline.dataclass_code`) and regular expressions
    (:mod:`pipeline.regex_code`) when there are new ones."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    logging = sys.modules.get("logging")     # flushed when something imported it (run.log does when it logs)
    if logging is not None:
        logging.shutdown()
    from . import dataclass_code, regex_code

    dataclass_code.save_installed()      # what atexit would have done (os._exit runs no exit handlers)
    regex_code.save_installed()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
