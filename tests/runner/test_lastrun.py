"""The unchanged night's quick check (pipeline.lastrun): no spec parsing, no reading."""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from pathlib import Path

from pipeline import lastrun
from pipeline.run import RunOptions, run

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    return folder


def test_quick_check_answers_an_unchanged_night_and_notices_a_new_file(tmp_path):
    folder, out = _copy(tmp_path), tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    report, _ = lastrun.quick_unchanged(folder, out, None, False)
    assert report is not None and report.unchanged
    assert [i.row() for i in report.issues] == [i.row() for i in first.issues]
    assert report.entries == first.entries and report.received_total == first.received_total
    # another option, or a touched inbox file, is not the same night
    assert lastrun.quick_unchanged(folder, out, None, True)[0] is None
    eml = next((folder / "inbox").glob("*.eml"))
    st = eml.stat()
    os.utime(eml, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert lastrun.quick_unchanged(folder, out, None, False)[0] is None
    # the full check (content hashes) still finds nothing new, and re-arms the quick one
    assert run(RunOptions(folder=folder, out_parent=out, pdf=False)).unchanged
    assert lastrun.quick_unchanged(folder, out, None, False)[0] is not None


def test_quick_check_expires_at_the_next_deadline(tmp_path):
    folder, out = _copy(tmp_path), tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    d = out / "t2016-poker"
    body = json.loads((d / lastrun.LAST_RUN).read_text(encoding="utf-8"))
    body["valid_until"] = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=1)).isoformat()
    (d / lastrun.LAST_RUN).write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
    assert lastrun.quick_unchanged(folder, out, None, False)[0] is None


def test_tournament_id_without_yaml():
    assert lastrun.tournament_id(ROOT / "sample_sheets" / "t2020-league") == "t2020-league"


def test_quick_check_notices_a_file_rewritten_with_its_old_size_and_mtime(tmp_path):
    folder, out = _copy(tmp_path), tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    eml = sorted((folder / "inbox").glob("*报名表.eml"))[0]
    st, body = eml.stat(), eml.read_bytes()
    i = body.index(b"Subject:")
    eml.write_bytes(body[:i] + b"Subject:" + body[i + 8:].replace(b"\n", b"\n", 1))  # same size
    os.utime(eml, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert eml.stat().st_size == st.st_size and eml.stat().st_mtime_ns == st.st_mtime_ns
    assert lastrun.quick_unchanged(folder, out, None, False)[0] is None


def test_deleted_outputs_are_no_unchanged_night_and_are_written_again(tmp_path):
    """Deleting index.html, data/entries.csv or a result sheet was answered "没有新文件，输出
    未变" by both checks, and the files stayed missing (the site and data/ disagreed): the
    record keeps the outputs' names (lastrun.save, quick.outputs_listing)."""
    folder, out = _copy(tmp_path), tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    d = out / "t2016-poker"
    assert lastrun.quick_unchanged(folder, out, None, False)[0] is not None
    gone = [d / "index.html", d / "data" / "entries.csv", next((d / "results").glob("*.xlsx"))]
    for p in gone:
        p.unlink()
    assert lastrun.quick_unchanged(folder, out, None, False)[0] is None
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert not again.unchanged and all(p.exists() for p in gone)
    assert lastrun.quick_unchanged(folder, out, None, False)[0] is not None
    # the ledger, the received copies and dot files are no outputs: a night that only adds
    # to them (a new WAL file, a kept copy stored again) is still unchanged
    (d / ".note").write_text("x", encoding="utf-8")
    assert lastrun.quick_unchanged(folder, out, None, False)[0] is not None
