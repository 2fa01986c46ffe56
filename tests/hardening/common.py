"""Shared helpers for the hardening tests: run the real CLI in a subprocess, copy a
sample tournament, hash an output folder, check a ledger."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_sheets"
NOW = "2030-01-01T00:00+08:00"
SKIP = {"ledger.sqlite", "ledger.sqlite-wal", "ledger.sqlite-shm", "ledger.sqlite-journal", ".lock"}


def copy_sample(name: str, dest: Path) -> Path:
    """A private copy of ``sample_sheets/<name>`` (mtimes kept: they are received times)."""
    target = dest / name
    shutil.copytree(SAMPLES / name, target)
    return target


def t2016_before_the_day(dest: Path, now: str) -> tuple[Path, Path]:
    """A copy of the t2016 sample without the day's mails (check-in and results, 11-26), run
    once at ``now``: (tournament folder, output folder)."""
    folder = copy_sample("t2016-poker", dest)
    for p in (folder / "inbox").iterdir():
        if p.name.startswith("1126"):
            p.unlink()
    out = dest / "out"
    r = league(*run_args(folder, out, now=now))
    assert r.returncode in (0, 1), r.stderr
    return folder, out


def forms_and_one_sheet(name: str, dest: Path, sheet: str) -> tuple[Path, Path]:
    """A copy of sample ``name`` with its registration mails and only the result mail whose
    name holds ``sheet`` (``-bridge-r1-``), no mistakes: (tournament folder, that mail)."""
    folder = copy_sample(name, dest)
    shutil.rmtree(folder / "inbox-mistakes", ignore_errors=True)
    for p in (folder / "inbox").glob("*.eml"):
        if "报名表" not in p.name and sheet not in p.name:
            p.unlink()
    return folder, next((folder / "inbox").glob(f"*{sheet}*.eml"))


def league(*args: str | Path, env: dict[str, str] | None = None, timeout: float = 120,
           cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m pipeline ARGS`` and capture its output (text)."""
    full_env = {k: v for k, v in os.environ.items() if k != "LEAGUE_KILL_AFTER"}
    full_env["PYTHONPATH"] = str(ROOT)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "pipeline", *map(str, args)], cwd=cwd or ROOT,
                          env=full_env, capture_output=True, text=True, timeout=timeout)


def run_args(folder: Path, out: Path, *extra: str, now: str | None = NOW) -> list[str]:
    args = ["run", str(folder), "--out", str(out), "--no-pdf", *extra]
    return args + (["--now", now] if now else [])


def _content(p: Path) -> bytes:
    """A file's bytes; for ``.lastrun.json`` only the report it keeps: its keys hash the
    package's code, the inbox's modification times and the options (``--now``), which
    are the run's inputs, not its outputs (and its printed summary names the output folder)."""
    data = p.read_bytes()
    if p.name == ".lastrun.json":
        body = json.loads(data)
        for key in ("fingerprint", "quick", "valid_until", "summary"):
            body.pop(key, None)
        data = json.dumps(body, sort_keys=True, ensure_ascii=False).encode()
    return data


def tree_hashes(out_dir: Path) -> dict[str, str]:
    """sha256 of every file under ``out_dir`` except the ledger and the lock."""
    return {p.relative_to(out_dir).as_posix(): hashlib.sha256(_content(p)).hexdigest()
            for p in sorted(out_dir.rglob("*")) if p.is_file() and p.name not in SKIP}


def diff_trees(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """Readable differences between two :func:`tree_hashes` results."""
    return ([f"only in first: {k}" for k in sorted(a.keys() - b.keys())]
            + [f"only in second: {k}" for k in sorted(b.keys() - a.keys())]
            + [f"differs: {k}" for k in sorted(a.keys() & b.keys()) if a[k] != b[k]])


def ledger_problems(out_dir: Path) -> list[str]:
    """Consistency of a ledger: integrity, every received blob on disk, contiguous rounds."""
    problems = []
    conn = sqlite3.connect(out_dir / "ledger.sqlite")
    try:
        ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            problems.append(f"integrity_check: {ok}")
        for sha, ext in conn.execute("SELECT sha256, ext FROM received"):
            blob = out_dir / "received" / f"{sha}{ext}"
            if not blob.is_file():
                problems.append(f"missing blob {blob.name}")
            elif hashlib.sha256(blob.read_bytes()).hexdigest() != sha:
                problems.append(f"blob {blob.name} does not match its hash")
        per_event: dict[str, list[int]] = {}
        for ev, rnd in conn.execute("SELECT event, round FROM rounds ORDER BY event, round"):
            per_event.setdefault(ev, []).append(rnd)
        for ev, nums in per_event.items():
            if nums != list(range(1, len(nums) + 1)):
                problems.append(f"rounds of {ev} not contiguous: {nums}")
    finally:
        conn.close()
    return problems
