"""A file still being copied into the inbox when the night lists it.

The run read what was there: a truncated workbook was recorded (UNREADABLE_FILE, an error
on no unit's page, for ever), and the whole file the next night as a second submission.  A
file that is still changing — its size or time differs between the listing and the read,
or it was written in the last seconds and its zip is not whole — is left for the next
night, with a located note (FILE_BEING_WRITTEN, info); a whole file is never left.
"""
from __future__ import annotations

import datetime as dt
import os
import pathlib
import sqlite3
from pathlib import Path

from pipeline.run import RunOptions, run

from .common import copy_sample

NOW = dt.datetime.fromisoformat("2016-11-20T00:00+08:00")        # after t2016's deadline
ON_TIME = dt.datetime.fromisoformat("2016-11-14T10:00+08:00").timestamp()


def _form(folder: Path) -> bytes:
    """g04's form (its sample mail taken out of the inbox)."""
    from pipeline.ingest.eml import parse_eml_bytes

    mail = folder / "inbox" / "1111-g04-报名表.eml"
    (att,) = parse_eml_bytes(mail.read_bytes(), mail.name).attachments
    mail.unlink()
    return att.data


def _records(out: Path, source: str) -> list[tuple[str, str]]:
    con = sqlite3.connect(out / "t2016-poker" / "ledger.sqlite")
    try:
        return con.execute("SELECT sha256, received_at FROM received WHERE source=?", (source,)).fetchall()
    finally:
        con.close()


def _night(folder: Path, out: Path):
    return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))


def test_a_file_growing_while_it_is_read_is_left_for_the_next_night(tmp_path: Path, monkeypatch) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    data = _form(folder)
    target = folder / "inbox" / "g04-报名表.xlsx"
    target.write_bytes(data[:len(data) // 2])               # the copy has written half of it
    os.utime(target, (ON_TIME, ON_TIME))
    real = pathlib.Path.read_bytes

    def read_bytes(self):
        got = real(self)
        if self == target:                  # the copy goes on while the run reads
            with open(self, "ab") as f:
                f.write(data[len(got):])
        return got
    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)
    out = tmp_path / "out"
    first = _night(folder, out)
    monkeypatch.undo()
    mine = [i for i in first.issues if i.file == "g04-报名表.xlsx"]
    assert [(i.code, i.severity.value) for i in mine] == [("FILE_BEING_WRITTEN", "info")], [i.row() for i in mine]
    assert "下次运行" in mine[0].message and "g04" not in first.accepted_branches
    assert _records(out, "g04-报名表.xlsx") == []
    os.utime(target, (ON_TIME, ON_TIME))
    second = _night(folder, out)
    assert len(_records(out, "g04-报名表.xlsx")) == 1
    assert "g04" in second.accepted_branches
    assert not [i for i in second.issues if i.code in ("UNREADABLE_FILE", "FILE_BEING_WRITTEN", "SUPERSEDED")
                and i.file == "g04-报名表.xlsx"], [i.row() for i in second.issues]


def test_a_truncated_workbook_written_just_now_is_left_and_an_old_one_is_kept(tmp_path: Path) -> None:
    """A zip without its end (no central directory) and a modification time of the last
    seconds: being copied — left.  The same truncated bytes with an old time are a broken
    file that came so: recorded (never lost) and said, as before.  A whole workbook written
    just now is taken at once."""
    folder = copy_sample("t2016-poker", tmp_path)
    data = _form(folder)
    part = folder / "inbox" / "g04-报名表.xlsx"
    part.write_bytes(data[:len(data) * 2 // 3])             # mtime: now
    out = tmp_path / "out"
    first = _night(folder, out)
    assert [i.code for i in first.issues if i.file == "g04-报名表.xlsx"] == ["FILE_BEING_WRITTEN"]
    assert _records(out, "g04-报名表.xlsx") == []
    # the copy ends: the whole file, still with a time of the last seconds, is taken (late:
    # it came now, after t2016's deadline)
    part.write_bytes(data)
    second = _night(folder, out)
    assert len(_records(out, "g04-报名表.xlsx")) == 1
    assert [i.code for i in second.issues if i.file == "g04-报名表.xlsx"] == ["LATE_SUBMISSION"]
    # an old truncated file: kept and said (UNREADABLE_FILE), as any broken file
    old = folder / "inbox" / "g05-旧.xlsx"
    old.write_bytes(data[:len(data) // 2])
    os.utime(old, (ON_TIME, ON_TIME))
    third = _night(folder, out)
    assert [i.code for i in third.issues if i.file == "g05-旧.xlsx"] == ["UNREADABLE_FILE"]
    assert len(_records(out, "g05-旧.xlsx")) == 1


def test_a_note_left_for_the_next_night_does_not_arm_the_unchanged_night_check(tmp_path: Path) -> None:
    """A file left as being written: the next night runs in full (the quick check is not
    armed) — a file whose copy ended with the stat the listing saw would have waited for
    another change in the inbox."""
    import json

    folder = copy_sample("t2016-poker", tmp_path)
    data = _form(folder)
    part = folder / "inbox" / "g04-报名表.xlsx"
    part.write_bytes(data[:100])
    out = tmp_path / "out"
    _night(folder, out)
    body = json.loads((out / "t2016-poker" / ".lastrun.json").read_text(encoding="utf-8"))
    assert body["quick"] == ""
    assert any(i["code"] == "FILE_BEING_WRITTEN" for i in body["report"]["issues"])


def test_a_truncated_workbook_then_put_there_whole_is_superseded(tmp_path: Path) -> None:
    """A workbook cut short with an old time is recorded and said (UNREADABLE_FILE); when the
    whole file is put in its place under the same name, the broken one is superseded — an
    info saying so, not an error the office was asked to act on night after night."""
    folder = copy_sample("t2016-poker", tmp_path)
    data = _form(folder)
    target = folder / "inbox" / "g04-报名表.xlsx"
    target.write_bytes(data[:len(data) // 2])
    os.utime(target, (ON_TIME - 3600, ON_TIME - 3600))
    out = tmp_path / "out"
    first = _night(folder, out)
    assert [i.code for i in first.issues if i.file == "g04-报名表.xlsx"] == ["UNREADABLE_FILE"]
    target.write_bytes(data)
    os.utime(target, (ON_TIME, ON_TIME))
    second = _night(folder, out)
    assert len(_records(out, "g04-报名表.xlsx")) == 2 and "g04" in second.accepted_branches
    mine = [(i.code, i.severity.value) for i in second.issues if i.file == "g04-报名表.xlsx"]
    assert mine == [("SUPERSEDED", "info")], [i.row() for i in second.issues if i.file == "g04-报名表.xlsx"]
    said = next(i.message for i in second.issues if i.code == "SUPERSEDED" and i.file == "g04-报名表.xlsx")
    assert "无法读取" in said and "取代" in said and "无需处理" in said
