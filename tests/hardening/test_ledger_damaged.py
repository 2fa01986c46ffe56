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


def test_a_ledger_gone_from_a_folder_with_published_draws_stops_the_run(tmp_path: Path) -> None:
    """ledger.sqlite deleted (or moved away) after draws were published: nights with nothing
    new said "输出未变" without opening it, and the first night with a new file made a new
    empty ledger and drew the published rounds again, beside the referees' sheets of the old
    draw.  Now every night stops with exit 2 and says what to restore — or to start afresh
    by moving the whole output folder away."""
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode == 0
    done = out / "t2016-poker"
    (done / "ledger.sqlite").unlink()
    for _ in range(2):
        r = league(*run_args(folder, out))
        assert r.returncode == 2, (r.returncode, r.stdout, r.stderr[-2000:])
        assert "账本 ledger.sqlite 不见了" in r.stderr and "备份" in r.stderr and "Traceback" not in r.stderr
        assert not (done / "ledger.sqlite").exists()
    done.rename(tmp_path / "old-out")                  # starting afresh is the office's choice
    assert league(*run_args(folder, out)).returncode == 0
