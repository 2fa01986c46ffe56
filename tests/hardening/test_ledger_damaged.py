"""A damaged ledger (or a full disk under it) stops the run with a located Chinese message
and exit 2 — not a traceback and exit 1 ("ran, needs attention")."""
from __future__ import annotations

from pathlib import Path

from .common import copy_sample, league, run_args


def test_a_damaged_ledger_is_exit_2_with_a_message(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode == 0
    done = out / "t2016-poker"
    (done / "ledger.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    (done / ".lastrun.json").unlink()
    r = league(*run_args(folder, out))
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert "ledger.sqlite" in r.stderr and "Traceback" not in r.stderr
