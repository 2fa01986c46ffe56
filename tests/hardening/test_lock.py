"""One ``league run`` per tournament at a time: a second run exits 2 with the Chinese
message (``--wait 0``), and with ``--wait`` it waits for the first and then succeeds."""
from __future__ import annotations

import threading
import time

from pipeline.store import RunLock

from .common import copy_sample, league, run_args


def test_second_run_refused_then_waits(tmp_path):
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    lock_dir = out / "t2016-poker"
    with RunLock(lock_dir):
        r = league(*run_args(folder, out, "--wait", "0"))
        assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
        assert "另一个 league run 正在处理这个赛事" in r.stderr and "--wait" in r.stderr
        assert not (lock_dir / "data").exists()

    held = RunLock(lock_dir).__enter__()
    release = threading.Timer(1.5, held.__exit__)
    release.start()
    t0 = time.monotonic()
    try:
        r = league(*run_args(folder, out, "--wait", "30"))
    finally:
        release.join()
    assert time.monotonic() - t0 >= 1.4, "the second run did not wait for the lock"
    assert r.returncode in (0, 1), r.stderr
    assert (lock_dir / "data" / "draw.csv").exists()


def test_wait_gives_up(tmp_path):
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    with RunLock(out / "t2016-poker"):
        t0 = time.monotonic()
        r = league(*run_args(folder, out, "--wait", "1"))
    assert r.returncode == 2 and "另一个 league run" in r.stderr
    assert time.monotonic() - t0 >= 1.0
