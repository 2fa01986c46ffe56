"""Durability at the cost of one sync: ``league run`` writes its outputs (pages, CSVs,
workbooks: all made again from the ledger and the received files) without an fsync each,
and syncs the output folder's file system once before it writes the record that lets a later
night trust them (:func:`pipeline.fsutil.sync_all`); the night's new received copies are on
the disk before the ledger records them; the record itself is synced as it is written."""
from __future__ import annotations

import datetime as dt
import os

import pipeline.fsutil as fsutil
import pipeline.run as prun
from pipeline.run import RunOptions, run

from .common import copy_sample

NOW = dt.datetime(2030, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=8)))


def test_outputs_are_synced_at_once_before_the_run_records_itself(tmp_path, monkeypatch):
    folder = copy_sample("t2016-poker", tmp_path)
    seen: list[tuple[str, str]] = []       # (what, path) in this process, in order
    real_fsync, real_sync_all, real_record = os.fsync, fsutil.sync_all, prun.Ledger.record_many

    def fsync(fd):
        seen.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def sync_all(folder):
        seen.append(("sync_all", str(folder)))
        return real_sync_all(folder)

    def record_many(self, recs, now):
        seen.append(("record", str(len(recs))))
        return real_record(self, recs, now)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(fsutil, "sync_all", sync_all)
    monkeypatch.setattr(prun, "sync_all", sync_all)
    monkeypatch.setattr(prun.Ledger, "record_many", record_many)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    out = report.out_dir
    assert (out / "data" / "issues.csv").exists() and (out / ".lastrun.json").exists()
    whats = [w for w, _ in seen]
    # intake: the new received copies synced at once, then recorded
    assert whats.index("sync_all") < whats.index("record"), seen
    # no output written by this process was synced one by one (the CSVs, the pages …)
    synced = [p for w, p in seen if w == "fsync"]
    assert not [p for p in synced if "/data/" in p or p.endswith(".html.tmp") or ".html." in p], synced
    # the record is synced, after the one sync of the outputs
    (record,) = [i for i, (w, p) in enumerate(seen) if w == "fsync" and ".lastrun.json." in p]
    last_sync = max(i for i, (w, _) in enumerate(seen) if w == "sync_all")
    assert seen[last_sync][1] == str(out) and last_sync < record, seen
    assert fsutil.syncing_each(), "the run left every later write of this process unsynced"


def test_sync_all_flushes_and_reports_a_folder_that_is_not_there(tmp_path):
    fsutil.sync_all(tmp_path)       # (the file system of an existing folder: no error)
    try:
        fsutil.sync_all(tmp_path / "gone")
    except FileNotFoundError:
        pass
    else:
        raise AssertionError("a folder that is not there was synced")


def test_a_write_outside_a_run_is_synced_each_time(tmp_path, monkeypatch):
    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    fsutil.atomic_write_bytes(tmp_path / "a.txt", b"x")
    assert len(calls) == 1
    fsutil.sync_each(False)
    try:
        fsutil.atomic_write_bytes(tmp_path / "b.txt", b"y")
        fsutil.atomic_write_bytes(tmp_path / "c.txt", b"z", durable=True)
    finally:
        fsutil.sync_each(True)
    assert len(calls) == 2       # only the durable one
