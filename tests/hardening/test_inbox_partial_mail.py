"""A mail or a download still being written into the inbox when the night lists it (handbook
二: 正在复制进收件箱、还没有写完的文件本次不收取（FILE_BEING_WRITTEN），下次运行再收，不会记成一份
损坏的文件).

An audit: a registration .eml cut to its first 700 bytes (mtime now) was taken in — a
NO_ATTACHMENT warning, the captain told to send the table again; the whole mail the next night
was said a DUPLICATE_FILE.  A half-copied result mail left UNREADABLE_FILE for good, and a
half-written ``.xlsx.crdownload`` was 不是 Excel 工作簿 for good after the download finished.
"""
from __future__ import annotations

import datetime as dt
import os
import sqlite3
from pathlib import Path

import pytest

from pipeline.run import RunOptions, run

from .common import copy_sample

NOW = dt.datetime.fromisoformat("2016-11-20T00:00+08:00")        # after t2016's deadline
ON_TIME = dt.datetime.fromisoformat("2016-11-14T10:00+08:00").timestamp()
MAIL = "1111-g04-报名表.eml"


def _records(out: Path) -> list[tuple[str, str]]:
    con = sqlite3.connect(out / "t2016-poker" / "ledger.sqlite")
    try:
        return con.execute("SELECT source, kind FROM received WHERE source LIKE '%g04%'").fetchall()
    finally:
        con.close()


def _night(folder: Path, out: Path):
    return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))


def _about(result, *names: str) -> list[tuple[str, str]]:
    return [(i.code, i.severity.value) for i in result.issues
            if any(n in (i.file or "") or n in i.message for n in names) and i.code != "LATE_SUBMISSION"]


@pytest.mark.parametrize("cut", ["700", "half"])
def test_a_mail_cut_while_copied_is_left_for_the_next_night(tmp_path: Path, cut: str) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    mail = folder / "inbox" / MAIL
    whole = mail.read_bytes()
    mail.write_bytes(whole[:700] if cut == "700" else whole[:len(whole) // 2])     # mtime: now
    out = tmp_path / "out"
    first = _night(folder, out)
    assert _about(first, MAIL, "g04-报名表.xlsx") == [("FILE_BEING_WRITTEN", "info")], [i.row() for i in first.issues]
    assert _records(out) == []
    mail.write_bytes(whole)                 # the copy has finished
    os.utime(mail, (ON_TIME, ON_TIME))
    second = _night(folder, out)
    assert "g04" in second.accepted_branches
    assert _about(second, MAIL, "g04-报名表.xlsx") == [], [i.row() for i in second.issues]


@pytest.mark.parametrize("suffix", [".crdownload", ".part", ".tmp"])
def test_a_download_still_being_written_is_left_for_the_next_night(tmp_path: Path, suffix: str) -> None:
    from pipeline.ingest.eml import parse_eml_bytes

    folder = copy_sample("t2016-poker", tmp_path)
    mail = folder / "inbox" / MAIL
    (att,) = parse_eml_bytes(mail.read_bytes(), mail.name).attachments
    mail.unlink()
    part = folder / "inbox" / f"g04-报名表.xlsx{suffix}"
    part.write_bytes(att.data[:len(att.data) // 2])         # mtime: now
    out = tmp_path / "out"
    first = _night(folder, out)
    assert _about(first, part.name) == [("FILE_BEING_WRITTEN", "info")], [i.row() for i in first.issues]
    assert _records(out) == []
    part.unlink()                           # the download finished: renamed to .xlsx
    done = folder / "inbox" / "g04-报名表.xlsx"
    done.write_bytes(att.data)
    os.utime(done, (ON_TIME, ON_TIME))
    second = _night(folder, out)
    assert "g04" in second.accepted_branches
    assert _about(second, "g04-报名表.xlsx") == [], [i.row() for i in second.issues]


def _download_broken_off(tmp_path: Path):
    """The t2016 sample with g04's registration mail taken out and its workbook left as a
    half-downloaded ``.crdownload`` from before the deadline: (folder, the attachment, the
    temporary file)."""
    from pipeline.ingest.eml import parse_eml_bytes

    folder = copy_sample("t2016-poker", tmp_path)
    mail = folder / "inbox" / MAIL
    (att,) = parse_eml_bytes(mail.read_bytes(), mail.name).attachments
    mail.unlink()
    part = folder / "inbox" / "g04-报名表.xlsx.crdownload"
    part.write_bytes(att.data[:len(att.data) // 2])
    os.utime(part, (ON_TIME, ON_TIME))
    return folder, att, part


def test_an_abandoned_download_is_said_once_at_its_path_and_not_recorded(tmp_path: Path) -> None:
    """A temporary download file that stays (the download broke off): said at its path, once,
    as what it is (PARTIAL_DOWNLOAD — not 不是 Excel 工作簿…请用我们下发的报名表填写), never
    recorded; once the finished file is beside it, only a note that it may be deleted."""
    folder, att, part = _download_broken_off(tmp_path)
    out = tmp_path / "out"
    first = _night(folder, out)
    mine = [i for i in first.issues if i.file == part.name]
    assert [(i.code, i.severity.value) for i in mine] == [("PARTIAL_DOWNLOAD", "warning")], [i.row() for i in mine]
    assert "下载" in mine[0].message and "g04-报名表.xlsx》" in mine[0].message
    assert _records(out) == []
    done = folder / "inbox" / "g04-报名表.xlsx"
    done.write_bytes(att.data)
    os.utime(done, (ON_TIME, ON_TIME))
    second = _night(folder, out)
    assert "g04" in second.accepted_branches
    assert [(i.code, i.severity.value) for i in second.issues if i.file == part.name] == [("PARTIAL_DOWNLOAD", "info")]
    part.unlink()
    third = _night(folder, out)
    assert _about(third, part.name, "g04-报名表.xlsx") == []


@pytest.mark.parametrize("cut", ["700", "half"])
def test_a_cut_mail_recorded_then_put_there_whole_is_superseded(tmp_path: Path, cut: str) -> None:
    """A mail cut short with an old time is a broken file as it came: recorded and said.  When
    the whole mail is put in its place (same inbox path), the cut one is settled (SUPERSEDED,
    info) — not an error or warning every night after, nor the whole one called a duplicate."""
    folder = copy_sample("t2016-poker", tmp_path)
    mail = folder / "inbox" / MAIL
    whole = mail.read_bytes()
    st = mail.stat()
    mail.write_bytes(whole[:700] if cut == "700" else whole[:len(whole) // 2])
    os.utime(mail, (st.st_atime, st.st_mtime))
    out = tmp_path / "out"
    first = _night(folder, out)
    assert _about(first, MAIL, "g04-报名表.xlsx") in ([("NO_ATTACHMENT", "warning")], [("UNREADABLE_FILE", "error")])
    mail.write_bytes(whole)
    os.utime(mail, (st.st_atime, st.st_mtime))
    second = _night(folder, out)
    assert "g04" in second.accepted_branches
    mine = _about(second, MAIL, "g04-报名表.xlsx")
    assert mine == [("SUPERSEDED", "info")], [i.row() for i in second.issues]
    said = next(i.message for i in second.issues if i.code == "SUPERSEDED")
    assert "取代" in said and "无需处理" in said
    assert second.rejected_files == [], second.rejected_files      # (未被接受的文件 every night)


def test_a_download_recorded_by_an_earlier_version_is_no_error_for_good(tmp_path: Path, monkeypatch) -> None:
    """A ``.crdownload`` an earlier version recorded (UNREADABLE_FILE 不是 Excel 工作簿, every
    night after the finished file came): no longer said from the ledger — at its path, while
    it is in the inbox (PARTIAL_DOWNLOAD), and nothing once it is gone."""
    import pipeline.run as run_module
    folder, att, part = _download_broken_off(tmp_path)
    out = tmp_path / "out"
    monkeypatch.setattr(run_module, "PARTIAL_EXTS", (), raising=False)     # the earlier version
    first = _night(folder, out)
    monkeypatch.undo()
    assert [i.code for i in first.issues if i.file == part.name] == ["UNREADABLE_FILE"]
    part.unlink()
    done = folder / "inbox" / "g04-报名表.xlsx"
    done.write_bytes(att.data)
    os.utime(done, (ON_TIME, ON_TIME))
    second = _night(folder, out)
    assert "g04" in second.accepted_branches
    assert _about(second, part.name, "g04-报名表.xlsx") == [], [i.row() for i in second.issues]


@pytest.mark.parametrize("beside", ["empty", "half"])
def test_a_broken_download_beside_a_placeholder_is_still_a_warning(tmp_path: Path, beside: str) -> None:
    """Firefox writes ``g04-报名表.xlsx.part`` and an empty placeholder ``g04-报名表.xlsx``
    beside it; when the download breaks off the placeholder is no finished file: the temporary
    file stays a warning (download it again), never 「下载完成的…已在收件箱中…无需处理」.  The
    same for a finished-looking name that holds a cut workbook (not whole)."""
    folder, att, part = _download_broken_off(tmp_path)
    part = part.rename(part.with_name("g04-报名表.xlsx.part"))
    hold = folder / "inbox" / "g04-报名表.xlsx"
    hold.write_bytes(b"" if beside == "empty" else att.data[:len(att.data) // 2])
    os.utime(hold, (ON_TIME, ON_TIME))
    first = _night(folder, out := tmp_path / "out")
    mine = [i for i in first.issues if i.file == part.name]
    assert [(i.code, i.severity.value) for i in mine] == [("PARTIAL_DOWNLOAD", "warning")], [i.row() for i in mine]
    assert "无需处理" not in mine[0].message and "重新下载" in mine[0].message
    hold.write_bytes(att.data)              # the finished file after all: only the note
    os.utime(hold, (ON_TIME, ON_TIME))
    second = _night(folder, out)
    assert [(i.code, i.severity.value) for i in second.issues if i.file == part.name] == [("PARTIAL_DOWNLOAD", "info")]
