"""pipeline.gcpolicy: a run pauses the cyclic collector; pool workers free each job's cycles."""
from __future__ import annotations

import datetime as dt
import gc
import shutil
import weakref
from pathlib import Path

from pipeline import gcpolicy, parallel
from pipeline import run as run_mod
from pipeline.run import RunOptions

ROOT = Path(__file__).resolve().parents[2]

#: weak references to the cycles earlier jobs of this (worker) process dropped
_DROPPED: list[weakref.ref] = []


class _Node:
    def __init__(self) -> None:
        self.me = self          # a cycle: only the collector frees it
        self.payload = bytearray(1 << 16)


def _job_leaving_a_cycle() -> int:
    """Returns how many cycles of earlier jobs in this process are still alive."""
    alive = sum(1 for r in _DROPPED if r() is not None)
    n = _Node()
    _DROPPED.append(weakref.ref(n))
    del n
    return alive


def test_paused_restores_the_collector_as_it_was():
    assert gc.isenabled()
    with gcpolicy.paused():
        assert not gc.isenabled()
        with gcpolicy.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()       # an inner block does not switch it on early
    assert gc.isenabled()


def test_a_worker_of_a_paused_run_frees_each_jobs_cycles():
    with gcpolicy.paused(), parallel.Jobs(min_parallel=2, max_workers=2) as jobs:
        hs = [jobs.add(_job_leaving_a_cycle) for _ in range(12)]
        jobs.start()
        assert jobs.parallel
        assert [h.result() for h in hs] == [0] * 12


def test_without_after_job_the_cycles_would_stay(monkeypatch):
    """The test above can fail: with the collector paused and no collection after a job,
    a worker keeps every earlier job's cycle."""
    monkeypatch.setattr(parallel, "after_job", lambda: None)
    with gcpolicy.paused(), parallel.Jobs(min_parallel=2, max_workers=2) as jobs:
        hs = [jobs.add(_job_leaving_a_cycle) for _ in range(12)]
        jobs.start()
        assert any(h.result() > 0 for h in [*hs])


def test_a_run_works_with_the_collector_paused_and_restores_it(tmp_path, monkeypatch):
    seen: list[bool] = []
    real = run_mod.intake

    def spy(*a, **k):
        seen.append(gc.isenabled())
        return real(*a, **k)
    monkeypatch.setattr(run_mod, "intake", spy)
    folder = tmp_path / "t2020"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    report = run_mod.run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                                    now=dt.datetime.fromisoformat("2020-12-31T12:00:00+08:00")))
    assert seen == [False]
    assert gc.isenabled()
    assert report.entries > 0
