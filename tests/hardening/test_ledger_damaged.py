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


def test_an_emptied_ledger_stops_the_run_like_a_missing_one(tmp_path: Path) -> None:
    """ledger.sqlite of 0 bytes (a crash on ext4 before the data reached the disk, a bad copy
    or restore) beside received files and published draws was opened as a new, empty ledger:
    the accepted entries gone and round 1 drawn again, exit 0, no word.  It now stops the run
    like a missing ledger (exit 2, restore from a backup), the file left as it is; so does a
    database without the ledger's tables (another file copied in its place)."""
    import sqlite3

    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode == 0
    done = out / "t2016-poker"
    ledger = done / "ledger.sqlite"
    ledger.write_bytes(b"")
    for _ in range(2):        # (the first with .lastrun.json there: the quick path neither answers)
        r = league(*run_args(folder, out))
        assert r.returncode == 2, (r.returncode, r.stdout, r.stderr[-2000:])
        assert "账本 ledger.sqlite 是空的" in r.stderr and "备份" in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert ledger.stat().st_size == 0 and not (done / "ledger.sqlite-wal").exists()
    ledger.unlink()
    with sqlite3.connect(ledger) as other:
        other.execute("CREATE TABLE notes (x TEXT)")
    other.close()
    # (a night with nothing new answers from .lastrun.json without opening the ledger, as
    # with a damaged one above; a night with something new opens it and stops)
    (done / ".lastrun.json").unlink()
    r = league(*run_args(folder, out))
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr[-2000:])
    assert "不是这个赛事的账本" in r.stderr and "备份" in r.stderr, r.stderr
    done.rename(tmp_path / "old-out")                  # starting afresh is the office's choice
    assert league(*run_args(folder, out)).returncode == 0


def test_an_empty_ledger_in_an_output_folder_with_nothing_else_is_a_first_run(tmp_path: Path) -> None:
    """A first run stopped just after it made ledger.sqlite (0 bytes, nothing received yet)
    is no lost ledger: the next run makes it and runs."""
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    (out / "t2016-poker").mkdir(parents=True)
    (out / "t2016-poker" / "ledger.sqlite").write_bytes(b"")
    r = league(*run_args(folder, out))
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr[-2000:])
    assert (out / "t2016-poker" / "ledger.sqlite").stat().st_size > 0


def test_a_ledger_whose_tables_are_in_its_write_ahead_log_alone_is_a_ledger(tmp_path: Path) -> None:
    """A first run killed before SQLite moved its write-ahead log into ledger.sqlite: the
    file holds no tables yet, its -wal does — a ledger, not another file (it is read with
    its log); a file without a log is read without making -wal/-shm files beside it."""
    import shutil

    from pipeline.store import Ledger, _has_ledger_tables

    live = tmp_path / "live"
    with Ledger(live) as led:
        led.conn.execute("PRAGMA wal_autocheckpoint=0")
        led.conn.execute("INSERT INTO cache VALUES ('k', x'00')")
        killed = tmp_path / "killed"
        killed.mkdir()
        for p in live.glob("ledger.sqlite*"):       # as the disk held it at the kill
            shutil.copy2(p, killed / p.name)
    assert (killed / "ledger.sqlite-wal").stat().st_size > 0
    assert _has_ledger_tables(killed / "ledger.sqlite")
    assert _has_ledger_tables(live / "ledger.sqlite")
    assert not list(live.glob("ledger.sqlite-*"))
