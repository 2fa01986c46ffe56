"""Inbox files as a shared folder or an unzip leaves them: two copies of one form, a name
that is not UTF-8, a symlink loop.  None may stop the night or cost a branch its entries."""
from __future__ import annotations

import csv
import datetime as dt
import io
import os
import sys
from pathlib import Path

import pytest

from .common import copy_sample, league, run_args

CLOSED = "2016-11-20T00:00+08:00"          # after the t2016 deadline (11-16 17:00)


def _entries(out: Path, branch: str) -> int:
    with open(out / "t2016-poker" / "data" / "entries.csv", encoding="utf-8") as f:
        return sum(1 for r in csv.DictReader(f) if r["branch"] == branch)


def _workbook_of(folder: Path, name: str) -> bytes:
    """The registration workbook attached to the sample's mail ``name``."""
    from pipeline.ingest.eml import parse_eml_bytes

    (att,) = parse_eml_bytes((folder / "inbox" / name).read_bytes(), name).attachments
    return att.data


def test_two_copies_of_one_form_take_the_earlier_time(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    data = _workbook_of(folder, "1111-g04-报名表.eml")
    (folder / "inbox" / "1111-g04-报名表.eml").unlink()
    on_time, late = folder / "inbox" / "g04-报名表.xlsx", folder / "inbox" / "g04-报名表(1).xlsx"
    for p, day in ((on_time, 14), (late, 18)):
        p.write_bytes(data)
        ts = dt.datetime.fromisoformat(f"2016-11-{day}T10:00+08:00").timestamp()
        os.utime(p, (ts, ts))
    out = tmp_path / "out"
    league(*run_args(folder, out, now=CLOSED))
    assert _entries(out, "g04") > 0
    issues = (out / "t2016-poker" / "data" / "issues.csv").read_text(encoding="utf-8")
    assert "LATE_SUBMISSION" not in issues
    # the later copy is not set aside without a word: one DUPLICATE_FILE (info) on g04's page
    (dup,) = [r for r in csv.DictReader(open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8"))
              if r["code"] == "DUPLICATE_FILE"]
    assert dup["severity"] == "info" and dup["branch"] == "g04" and dup["file"] == "g04-报名表(1).xlsx"
    assert "《g04-报名表.xlsx》" in dup["message"] and "11月14日 10:00" in dup["message"]


def test_an_older_form_sent_again_is_said_to_count_once(tmp_path: Path) -> None:
    """A captain's first form, then a second, then the first again under a new name on a
    later night: the second stays current (the first's content counts at its first receipt),
    and the office is told why and what to do (DUPLICATE_FILE) — nothing was said before."""
    import openpyxl

    folder = copy_sample("t2016-poker", tmp_path)
    data = _workbook_of(folder, "1111-g04-报名表.eml")
    (folder / "inbox" / "1111-g04-报名表.eml").unlink()
    first = folder / "inbox" / "g04-报名表.xlsx"
    first.write_bytes(data)

    def sent(p: Path, when: str) -> None:      # each form in time (the deadline is 11-16 17:00)
        at = dt.datetime.fromisoformat(when).timestamp()
        os.utime(p, (at, at))
    sent(first, "2016-11-13T12:00+08:00")
    out = tmp_path / "out"
    league(*run_args(folder, out, now="2016-11-14T12:00+08:00"))
    second = folder / "inbox" / "g04-报名表-改.xlsx"
    second.write_bytes(data)
    wb = openpyxl.load_workbook(second)
    ws = wb.worksheets[0]
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, str) and c.value.isdigit() and len(c.value) == 11:
                c.value = "13900000000"
    wb.save(second)
    sent(second, "2016-11-14T13:00+08:00")
    league(*run_args(folder, out, now="2016-11-15T12:00+08:00"))
    again = folder / "inbox" / "g04-报名表-原.xlsx"
    again.write_bytes(data)
    sent(again, "2016-11-15T13:00+08:00")
    r = league(*run_args(folder, out, now="2016-11-16T12:00+08:00"))
    assert r.returncode in (0, 1), r.stderr
    rows = list(csv.DictReader(open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8")))
    (dup,) = [x for x in rows if x["code"] == "DUPLICATE_FILE"]
    assert dup["file"] == "g04-报名表-原.xlsx" and "《g04-报名表.xlsx》" in dup["message"]
    assert "改回这一版" in dup["message"]
    # the second form is g04's current one: the first is superseded by it, nothing by the copy
    (sup,) = [x for x in rows if x["code"] == "SUPERSEDED"]
    assert sup["file"] == "g04-报名表.xlsx" and "g04-报名表-改.xlsx" in sup["message"], sup
    # said again on a night with nothing new
    league(*run_args(folder, out, now="2016-11-16T12:00+08:00"))
    rows = list(csv.DictReader(open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8")))
    assert [x["code"] for x in rows].count("DUPLICATE_FILE") == 1


@pytest.mark.skipif(sys.platform != "linux", reason="byte file names")
def test_a_file_name_that_is_not_utf8_is_read_not_a_crash(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    data = _workbook_of(folder, "1111-g04-报名表.eml")
    (folder / "inbox" / "1111-g04-报名表.eml").unlink()
    gbk = os.fsencode(folder / "inbox") + b"/g04-" + "报名表".encode("gbk") + b".xlsx"
    with open(gbk, "wb") as f:
        f.write(data)
    ts = dt.datetime.fromisoformat("2016-11-14T10:00+08:00").timestamp()
    os.utime(gbk, (ts, ts))
    (folder / "inbox" / "loop").symlink_to(folder / "inbox" / "loop")      # a symlink loop too
    out = tmp_path / "out"
    r = league(*run_args(folder, out, now=CLOSED))
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert _entries(out, "g04") > 0
    r = league(*run_args(folder, out, now=CLOSED))          # the unchanged night too
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr[-2000:]


def test_a_kept_copy_lost_from_received_is_stored_again_from_the_inbox(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    league(*run_args(folder, out))
    before = _entries(out, "g04")
    done = out / "t2016-poker"
    kept = sorted((done / "received").glob("*.xlsx"))
    for p in kept:
        p.unlink()                            # every registration's kept copy
    (done / ".lastrun.json").unlink()           # a full run, reading them again
    r = league(*run_args(folder, out))
    assert "UNREADABLE_FILE" not in (done / "data" / "issues.csv").read_text(encoding="utf-8"), r.stdout
    assert _entries(out, "g04") == before > 0
    assert all(p.is_file() for p in kept)


def test_a_file_moved_within_the_inbox_is_no_copy(tmp_path: Path) -> None:
    """The office files handled mails into a subfolder: the same files, one receipt each —
    no DUPLICATE_FILE (it said the moved file was a copy of its own old name)."""
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    league(*run_args(folder, out, now=CLOSED))
    done = folder / "inbox" / "已处理"
    done.mkdir()
    for name in ("1111-g04-报名表.eml", "1111-g08-报名表.eml"):
        (folder / "inbox" / name).rename(done / name)
    league(*run_args(folder, out, now=CLOSED))
    issues = (out / "t2016-poker" / "data" / "issues.csv").read_text(encoding="utf-8")
    assert "DUPLICATE_FILE" not in issues


def test_a_mails_attachment_saved_beside_it_is_the_same_copy_every_night(tmp_path: Path) -> None:
    """The attachment of a mail saved into the inbox beside it (later than the mail's
    Date): a copy of the mail's workbook on the first night and on every night after —
    the same issues both nights (the first night missed it, the second said it)."""
    folder = copy_sample("t2016-poker", tmp_path)
    saved = folder / "inbox" / "g04-报名表.xlsx"
    saved.write_bytes(_workbook_of(folder, "1111-g04-报名表.eml"))
    ts = dt.datetime.fromisoformat("2016-11-15T09:00+08:00").timestamp()
    os.utime(saved, (ts, ts))
    out = tmp_path / "out"
    league(*run_args(folder, out, now=CLOSED))
    data = out / "t2016-poker" / "data" / "issues.csv"
    first = data.read_bytes()
    (dup,) = [r for r in csv.DictReader(open(data, encoding="utf-8")) if r["code"] == "DUPLICATE_FILE"]
    assert dup["file"] == "g04-报名表.xlsx" and "1111-g04-报名表.eml" in dup["message"]
    assert dup["branch"] == "g04"
    (out / "t2016-poker" / ".lastrun.json").unlink()
    league(*run_args(folder, out, now=CLOSED))
    # the same issues; a said-once warning (ROUND_NOT_DRAWN …) said the first night is a note
    # now — the ledger keeps what was said, whatever became of .lastrun.json
    from pipeline.issues import SAID_ONCE
    said = [dict(r, severity="info") if r["code"] in SAID_ONCE else r
            for r in csv.DictReader(io.StringIO(first.decode("utf-8")))]
    assert list(csv.DictReader(open(data, encoding="utf-8"))) == said


def test_the_inbox_is_listed_as_sorted_paths_listed_it(tmp_path: Path) -> None:
    """store.inbox_files walks the inbox without a Path per file: the same files, in the
    same order, as ``rglob`` and sorted Paths gave — hidden and ``~$`` files left out, a
    linked folder not entered, a file in a sub-folder sorted by its path's parts."""
    from pipeline.store import inbox_files

    inbox = tmp_path / "inbox"
    for rel in ("b.xlsx", "a-报名表.xlsx", "A.xlsx", "sub/z.eml", "sub/deeper/y.xlsx", "sub-x.xlsx",
                ".hidden.xlsx", "~$a-报名表.xlsx", ".dir/x.xlsx", "sub/~$z.xlsx"):
        p = inbox / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(rel.encode())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "far.xlsx").write_bytes(b"far")
    os.symlink(elsewhere, inbox / "linked")
    os.symlink(inbox / "b.xlsx", inbox / "c-link.xlsx")
    old = sorted(p for p in inbox.rglob("*") if p.is_file() and not p.name.startswith((".", "~$")))
    got = inbox_files(inbox)
    assert [full for _, full, _ in got] == [str(p) for p in old]
    assert [rel for rel, _, _ in got] == [p.relative_to(inbox).as_posix() for p in old]
    assert inbox_files(tmp_path / "none") == []


def test_an_unchanged_inbox_file_is_not_read_again_and_a_changed_one_is(tmp_path: Path, monkeypatch) -> None:
    """intake keeps each inbox file's hash with its stat (size, times, inode): a night does
    not read every file it ever received again to hash it — but a file rewritten in place
    with its old size and modification time (ctime moves) is read, and taken in as new."""
    import shutil

    from pipeline.run import RunOptions, run

    folder = tmp_path / "t2020-league"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    reads: list[str] = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: (reads.append(str(self)), real(self))[1])
    (out / "t2020-league" / ".lastrun.json").unlink()           # past the quick check
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    inbox = str(folder / "inbox")
    assert not [r for r in reads if r.startswith(inbox)], reads
    # one mail rewritten in place: same size, same modification time, another byte
    mail = sorted((folder / "inbox").glob("*.eml"))[0]
    st = mail.stat()
    data = bytearray(mail.read_bytes())
    i = data.index(b"Subject:") + len(b"Subject:")
    data[i:i + 1] = b"\t" if data[i:i + 1] == b" " else b" "
    mail.write_bytes(bytes(data))
    os.utime(mail, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert mail.stat().st_size == st.st_size and mail.stat().st_mtime_ns == st.st_mtime_ns
    reads.clear()
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert [r for r in reads if r.startswith(inbox)] == [str(mail)]
    assert again.received_new == 1


def test_a_damaged_record_of_the_inbox_hashes_means_reading_every_file(tmp_path: Path) -> None:
    """The kept inbox hashes are a cache: damaged (not JSON, or not what was written), the
    night reads and hashes every inbox file, as it did before it kept them."""
    import shutil
    import sqlite3

    from pipeline.run import INBOX_HASHES, RunOptions, run

    folder = tmp_path / "t2020-league"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    for damaged in (b"{not json", b"[1, 2]", b'{"a.eml": 3}'):
        con = sqlite3.connect(out / "t2020-league" / "ledger.sqlite")
        with con:
            assert con.execute("UPDATE cache SET value=? WHERE key=?", (damaged, INBOX_HASHES)).rowcount == 1
        con.close()
        (out / "t2020-league" / ".lastrun.json").unlink()
        again = run(RunOptions(folder=folder, out_parent=out, pdf=False))
        assert again.received_total == first.received_total and again.received_new == 0
        assert again.entries == first.entries and again.registrations == first.registrations


def _issues_of(out: Path) -> list[dict[str, str]]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_an_inbox_file_the_run_cannot_read_is_said_and_the_night_goes_on(tmp_path: Path, monkeypatch) -> None:
    """A file without read permission (chmod 000, a share's lock): reading it raised, and the
    whole night stopped (exit 2, no file recorded), night after night.  It is now said at the
    file, and every other file is taken in."""
    import datetime as dt
    import pathlib

    from pipeline.run import RunOptions, run

    folder = copy_sample("t2016-poker", tmp_path)
    real = pathlib.Path.read_bytes

    def read_bytes(self):
        if self.name == "1113-g05-报名表.eml":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)
    monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime.fromisoformat(CLOSED)))
    (said,) = [i for i in _issues_of(tmp_path / "out") if i["file"] == "1113-g05-报名表.eml"]
    assert said["code"] == "UNREADABLE_FILE" and said["severity"] == "error" and "没有权限" in said["message"], said
    assert "g05" not in report.accepted_branches and len(report.accepted_branches) >= 10


def test_a_mail_no_parser_takes_is_said_not_a_crash(tmp_path: Path) -> None:
    """A mail forwarded as an attachment a thousand times over (a forwarding loop between two
    mailboxes): parsing it passed Python's recursion limit, and every night ended in an
    internal error with nothing recorded.  It is kept, said at the file, and the night goes on."""
    import datetime as dt

    from pipeline.run import RunOptions, run

    folder = copy_sample("t2016-poker", tmp_path)
    mail = b"From: a@b.cn\nDate: Mon, 14 Nov 2016 10:00:00 +0800\n\nhi\n"
    for _ in range(1000):
        mail = b"Content-Type: message/rfc822\n\n" + mail
    (folder / "inbox" / "loop.eml").write_bytes(mail)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime.fromisoformat(CLOSED)))
    (said,) = [i for i in _issues_of(tmp_path / "out") if i["file"] == "loop.eml"]
    assert said["code"] == "UNREADABLE_FILE" and "无法解析（转发嵌套层数过多）" in said["message"], said
    assert len(report.accepted_branches) >= 10
    again = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                           now=dt.datetime.fromisoformat(CLOSED)))             # kept: said again, from the ledger
    assert [i.code for i in again.issues if i.file == "loop.eml"] == ["UNREADABLE_FILE"]


def test_the_quick_check_of_a_folder_with_an_unreadable_file_does_not_crash(tmp_path: Path, monkeypatch) -> None:
    """An unreadable file beside tournament.yaml (备忘.txt, chmod 000) made the unchanged-night
    check raise (a traceback, exit 1); its stat stands for it now."""
    from pipeline import quick

    folder = copy_sample("t2016-poker", tmp_path)
    (folder / "备忘.txt").write_text("x", encoding="utf-8")
    real = open

    def guarded(path, *a, **k):
        if str(path).endswith("备忘.txt"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a, **k)
    monkeypatch.setattr(quick, "open", guarded, raising=False)
    first = quick.quick_digest(folder, "", False)
    assert first == quick.quick_digest(folder, "", False)
    (folder / "备忘.txt").write_text("changed", encoding="utf-8")
    assert quick.quick_digest(folder, "", False) != first
