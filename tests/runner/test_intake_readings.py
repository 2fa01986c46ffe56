"""Readings made by intake's workers as they store the new files are the readings
read_inputs makes itself from the stored copies, and read_inputs takes them instead of
reading the files again."""
from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

from pipeline import run as run_mod
from pipeline.issues import IssueLog
from pipeline.spec import load_tournament
from pipeline.store import Ledger

ROOT = Path(__file__).resolve().parents[2]


def _inputs(t, out: Path, take_readings: bool, monkeypatch) -> tuple:
    reads = []
    real = run_mod._read_one_pickled
    monkeypatch.setattr(run_mod, "_read_one_pickled", lambda *a: (reads.append(a[2].file_name), real(*a))[1])
    with Ledger(out) as ledger:
        readings: dict[str, bytes] = {}
        run_mod.intake(t, ledger, IssueLog(), readings if take_readings else None)
        intake_reads = len(reads)
        issues = IssueLog()
        inputs = run_mod.read_inputs(t, ledger, issues, readings if take_readings else None)
    return inputs, issues, intake_reads, len(reads) - intake_reads, len(readings)


def test_readings_from_intake_equal_a_fresh_reading(tmp_path, monkeypatch):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    t = load_tournament(folder)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")      # count the readings in this process
    a, issues_a, at_intake, at_read, made = _inputs(t, tmp_path / "a", True, monkeypatch)
    b, issues_b, none_at_intake, all_at_read, _ = _inputs(t, tmp_path / "b", False, monkeypatch)
    assert made and at_intake == made and at_read == 0          # nothing read twice
    assert none_at_intake == 0 and all_at_read == made
    for kind in ("registrations", "results", "awards", "checkins", "playoffs", "unreadable"):
        assert pickle.dumps(getattr(a, kind)) == pickle.dumps(getattr(b, kind)), kind
    assert [i.row() for i in issues_a.sorted()] == [i.row() for i in issues_b.sorted()]


def test_a_reading_that_crashes_at_intake_does_not_stop_the_files_being_recorded(tmp_path, monkeypatch):
    """Never lose a submission: a bug in reading one workbook must not keep the night's
    files out of the ledger (read_inputs then reads it again, where the error surfaces)."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    t = load_tournament(folder)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")

    def crash(*a):
        raise RuntimeError("a bug in a reader")
    monkeypatch.setattr(run_mod, "_read_one_pickled", crash)
    with Ledger(tmp_path / "out") as ledger:
        readings: dict[str, bytes] = {}
        new = run_mod.intake(t, ledger, IssueLog(), readings)
        assert new == len(ledger.received()) > 0 and readings == {}


def test_a_mails_note_is_kept_by_intake_and_not_parsed_again(tmp_path, monkeypatch):
    """mail_issues finds each new mail's note in the ledger's cache, made by intake from the
    parse it just did (a cold night parsed every mail twice: 1.3 of 74 profiled seconds at
    200 units); the note is the one a second parse makes."""
    folder = tmp_path / "t"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    t = load_tournament(folder)
    with Ledger(tmp_path / "out") as ledger:
        run_mod.intake(t, ledger, IssueLog())
        mails = [r for r in ledger.received() if r.kind == "mail"]
        assert mails
        kept = ledger.cache_get([run_mod._mail_note_key(r.sha256) for r in mails])
        assert len(kept) == len(mails)
        for r in mails:
            assert run_mod._mail_note(ledger, r) == json.loads(kept[run_mod._mail_note_key(r.sha256)])
        monkeypatch.setattr(run_mod, "_mail_note", lambda *a: (_ for _ in ()).throw(AssertionError("parsed again")))
        issues = IssueLog()
        run_mod.mail_issues(t, ledger, issues)
