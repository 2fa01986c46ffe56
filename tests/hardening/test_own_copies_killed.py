"""A run killed after its returned copies are written but before it records them
(:func:`pipeline.run._record_own_copies`): the next run finishes the night, and the copies are
recorded as that night's — their unit and the run's time (``--now``), not a guess from the
files (no unit, the wall clock).  A guess stood for good (INSERT OR IGNORE): a captain's
forwarded receipt was then said (OWN_MAIL) with the wrong date, on the unassigned page."""
from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys

from .common import ROOT, league, run_args

SAMPLE = ROOT / "sample_sheets" / "t2011-court"
NOW = "2011-05-06T17:01+08:00"
KILLED = ("import os, sys\nimport pipeline.run as r\n"
          "r._record_own_copies = lambda *a, **k: os._exit(137)\n"
          "sys.argv = ['league', *sys.argv[1:]]\nfrom pipeline.quick import main\nmain()\n")


def test_copies_written_by_a_killed_run_are_recorded_as_the_nights_by_the_next(tmp_path):
    folder = tmp_path / "t2011-court"
    (folder / "inbox").mkdir(parents=True)
    for f in ("tournament.yaml", "secret.key"):
        shutil.copy2(SAMPLE / f, folder / f)
    for p in SAMPLE.glob("inbox/*报名表.eml"):
        shutil.copy2(p, folder / "inbox" / p.name)
    out = tmp_path / "out"
    killed = subprocess.run([sys.executable, "-c", KILLED, *run_args(folder, out, now=NOW)], cwd=ROOT,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    assert killed.returncode == 137, killed.stderr
    done = out / "t2011-court"
    assert list((done / "returned").glob("d01-*-返回.xlsx"))
    assert league(*run_args(folder, out, now=NOW)).returncode in (0, 1)
    with sqlite3.connect(done / "ledger.sqlite") as con:
        rows = con.execute("SELECT name, branch, written_at FROM own_copies").fetchall()
    assert rows and all(name.startswith(f"{branch}-") and written == "2011-05-06T17:01:00+08:00"
                        for name, branch, written in rows), rows
    # the captain forwards the receipt: said with that date, on the unit's page
    (copy,) = (done / "returned").glob("d01-*-返回.xlsx")
    shutil.copy2(copy, folder / "inbox" / copy.name)
    assert league(*run_args(folder, out, now="2011-05-07T09:00+08:00")).returncode in (0, 1)
    issues = (done / "data" / "issues.csv").read_text(encoding="utf-8-sig")
    (own,) = [line for line in issues.splitlines() if line.startswith("OWN_MAIL")]
    assert own.startswith("OWN_MAIL,info,d01,") and "5月6日 17:01 退回" in own, own
