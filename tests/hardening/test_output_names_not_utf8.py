"""A file whose name is not UTF-8 (a GBK name: a Samba share set to GBK, a zip made on
Windows, a manual run under ``LANG=zh_CN.GBK``) that the office puts in an output folder is
left alone (handbook: files the office puts in the output folder are not touched) — it never
stops a night.  A copy under ``returned/`` made every later night crash on recording it as a
guessed own copy (:func:`pipeline.run.known_own_copies`: SQLite cannot store the name's
surrogates), the inbox never processed again (an audit)."""
from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import pytest

from pipeline.run import known_own_copies
from pipeline.store import Ledger

from .common import copy_sample, league, run_args

GBK = "b01-行政第一分工会-报名表(副本).xlsx".encode("gbk")


@pytest.mark.skipif(sys.platform != "linux", reason="a GBK file name as raw bytes: only Linux file systems store names that are not UTF-8 (macOS and Windows refuse them, so the case cannot arise there)")
def test_a_returned_copy_named_in_gbk_is_not_recorded_and_no_crash(tmp_path: Path) -> None:
    root = tmp_path / "out"
    (root / "returned").mkdir(parents=True)
    (root / "returned" / "b01-报名表-返回.xlsx").write_bytes(b"ours")
    with open(os.fsencode(root / "returned") + b"/" + GBK, "wb") as f:
        f.write(b"office's copy")
    with Ledger(root) as ledger:
        own = known_own_copies(ledger)
        assert sorted(c.name for c in own.values()) == ["b01-报名表-返回.xlsx"]
        assert known_own_copies(ledger) == own          # the next night alike


@pytest.mark.skipif(sys.platform != "linux", reason="a GBK file name as raw bytes: only Linux file systems store names that are not UTF-8 (macOS and Windows refuse them, so the case cannot arise there)")
def test_gbk_names_in_every_output_folder_leave_the_night_alone(tmp_path: Path) -> None:
    folder = copy_sample("t2011-court", tmp_path)
    out = tmp_path / "out"
    now = "2011-05-06T17:01+08:00"
    r = league(*run_args(folder, out, now=now))
    assert r.returncode in (0, 1), r.stderr[-2000:]
    done = out / "t2011-court"
    (copy,) = list((done / "returned").glob("*.xlsx"))[:1]
    for sub in [p for p in done.rglob("*") if p.is_dir()] + [done]:
        with open(os.fsencode(sub) + b"/" + GBK, "wb") as f:
            f.write(copy.read_bytes())
    for _ in range(2):
        r = league(*run_args(folder, out, now=now))
        assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr[-2000:]
    r = league(*run_args(folder, out, now="2011-05-07T09:00+08:00"))
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr[-2000:]
