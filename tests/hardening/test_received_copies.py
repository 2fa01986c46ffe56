"""The copies kept in ``received/`` are checked against their SHA-256 when read: one lost or
cut short (a full disk, a bad restore, deleted by hand) is made again from the mail it came
attached to, or from the inbox; one that cannot be is said to the office, not to the captain
as a broken file of theirs (文件不完整…请重新提交, the unit's entries dropped)."""
from __future__ import annotations

from pathlib import Path

from pipeline.run import _read_one
from pipeline.spec import load_tournament
from pipeline.store import Ledger

from .common import copy_sample, league, run_args


def _attachment(out: Path, unit: str):
    with Ledger(out) as ledger:
        return next(r for r in ledger.received() if r.parent and unit in r.source and r.ext == ".xlsx")


def test_a_damaged_or_lost_attachment_copy_is_made_again_from_its_mail(tmp_path):
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode == 0
    done = out / "t2016-poker"
    t = load_tournament(folder)
    rec = _attachment(done, "g04")
    blob = rec.stored(done)
    whole = blob.read_bytes()
    blob.write_bytes(whole[:5000])                       # cut short
    assert _read_one(t, done, rec)[0] == "registration" and blob.read_bytes() == whole
    blob.unlink()                                        # lost
    assert _read_one(t, done, rec)[0] == "registration" and blob.read_bytes() == whole
    blob.unlink()
    (done / "received" / f"{rec.parent}.eml").unlink()   # and its mail's copy too
    kind, message = _read_one(t, done, rec)
    assert kind == "lost" and "received/" in message and "不是发件人的问题" in message     # (never kept as its reading)


def test_a_kept_copy_cut_short_is_stored_again_from_the_inbox(tmp_path):
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode == 0
    done = out / "t2016-poker"
    with Ledger(done) as ledger:
        rec = next(r for r in ledger.received() if r.kind == "mail" and "g04" in r.source)
    blob = rec.stored(done)
    whole = blob.read_bytes()
    blob.write_bytes(whole[:100])
    (done / ".lastrun.json").unlink()                    # a night that reads the inbox
    assert league(*run_args(folder, out)).returncode == 0
    assert blob.read_bytes() == whole


def test_a_lost_copy_is_read_again_once_it_is_back(tmp_path):
    """A copy that cannot be made again is said (UNREADABLE_FILE, the office's words) and its
    "reading" is not kept: once the office restores received/, the form counts again."""
    import csv
    import sqlite3

    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode == 0
    done = out / "t2016-poker"
    rec = _attachment(done, "g04")
    backup = {p: p.read_bytes() for p in (rec.stored(done), done / "received" / f"{rec.parent}.eml")}
    for p in backup:
        p.unlink()
    (folder / "inbox" / Path(rec.source).name).unlink()      # and the inbox has it no more

    def night(clear: bool) -> tuple[list[dict], bool]:
        if clear:
            with sqlite3.connect(done / "ledger.sqlite") as con:   # readings made by another version of the code
                con.execute("delete from cache where key like 'read:%'")
        (done / ".lastrun.json").unlink(missing_ok=True)
        league(*run_args(folder, out))
        with open(done / "data" / "issues.csv", encoding="utf-8-sig") as f:
            issues = list(csv.DictReader(f))
        return issues, ",g04," in (done / "data" / "entries.csv").read_text("utf-8")

    issues, g04 = night(clear=True)
    assert not g04 and any(i["code"] == "UNREADABLE_FILE" and "received/" in i["message"] for i in issues)
    for p, data in backup.items():
        p.write_bytes(data)
    issues, g04 = night(clear=False)
    assert g04 and not any("received/" in i["message"] for i in issues)


def test_a_lost_copy_behind_a_kept_reading_is_said_at_once_and_its_entries_stay(tmp_path):
    """A kept copy gone from received/ (deleted, a partial restore) whose mail was archived out
    of the inbox: the night it is first gone is said (RECEIVED_COPY_LOST, error, at the file,
    the unit's), while the unit's entries stay as read before — on that night, and on the nights
    after an edit of tournament.yaml (or a program update), which read every file again (the
    audit's case: nothing said until the first edit, which then dropped a unit's entries from a
    running league).  Once the copy is back, it is read from it again and nothing is said."""
    import csv
    import sqlite3

    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode == 0
    done = out / "t2016-poker"
    spec = folder / "tournament.yaml"
    rec = _attachment(done, "g04")
    backup = {p: p.read_bytes() for p in (rec.stored(done), done / "received" / f"{rec.parent}.eml")}
    entries = [r for r in (done / "data" / "entries.csv").read_text("utf-8").splitlines() if ",g04," in r]
    assert entries

    def lose() -> None:
        for p in backup:
            p.unlink()

    def night(note: str = "") -> list[dict]:
        if note:
            spec.write_text(spec.read_text(encoding="utf-8") + f"# {note}\n", encoding="utf-8")
        (done / ".lastrun.json").unlink(missing_ok=True)
        league(*run_args(folder, out))
        with open(done / "data" / "issues.csv", encoding="utf-8-sig") as f:
            issues = list(csv.DictReader(f))
        assert [r for r in (done / "data" / "entries.csv").read_text("utf-8").splitlines() if ",g04," in r] == entries
        assert not [i for i in issues if i["code"] == "UNREADABLE_FILE"], issues
        return [i for i in issues if i["code"] == "RECEIVED_COPY_LOST"]

    (folder / "inbox" / Path(rec.source).name).unlink()      # the mail archived out of the inbox
    lose()
    (said,) = night()                                       # the night it is gone: said
    assert said["severity"] == "error" and said["branch"] == "g04" and said["file"] == rec.file_name
    assert f"received/{rec.sha256}{rec.ext}" in said["message"] and "仍按此前读取的结果计入" in said["message"]
    assert "放进收件箱" in said["message"] and "tournament.yaml" not in said["message"]
    (said,) = night("an edit of the office")                # read again under another spec: still counts
    assert "tournament.yaml 或程序更新之前读取" in said["message"]
    with sqlite3.connect(done / "ledger.sqlite") as con:    # (a program update: every reading made again)
        con.execute("delete from cache where key like 'read:%'")
    (said,) = night()
    for p, data in backup.items():                          # restored from a backup
        p.write_bytes(data)
    assert night() == []
    with sqlite3.connect(done / "ledger.sqlite") as con:
        assert not con.execute("select count(*) from cache where key like 'lost-read:%'").fetchone()[0]
    lose()                                                  # gone again, on the night of an edit
    (said,) = night("another edit")
    assert "tournament.yaml 或程序更新之前读取" in said["message"]


def test_a_lost_copy_is_the_offices_matter_not_the_captains(tmp_path):
    """RECEIVED_COPY_LOST is the office's own matter (不是发件人的问题): the night's 工会办公室下一步
    does not say to send the forms back to the units for correction (the returned/ copy it
    pointed at is the unit's old, unmarked one) but to restore the copy; the unit's page does
    not ask the captain to correct and resend, and no receipt tells the captain of it."""
    import datetime as dt

    from pipeline.mail.receipts import build_receipts
    from pipeline.render.site_vm import branch_vm
    from pipeline.run import RunOptions, run
    from pipeline.timeutil import TZ

    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    now = dt.datetime(2030, 1, 1, tzinfo=TZ)
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    done = out / "t2016-poker"
    rec = _attachment(done, "g04")
    for p in (rec.stored(done), done / "received" / f"{rec.parent}.eml"):
        p.unlink()
    (folder / "inbox" / Path(rec.source).name).unlink()
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now + dt.timedelta(days=1)))
    (lost,) = [i for i in report.issues if i.code == "RECEIVED_COPY_LOST"]
    assert lost.branch == "g04"
    assert not any("returned/" in s for s in report.next_steps), report.next_steps
    (step,) = [s for s in report.next_steps if "RECEIVED_COPY_LOST" in s]
    assert f"received/{rec.sha256}{rec.ext}" in step and "收件箱" in step and "备份" in step, step
    page = branch_vm(report.state, "g04")
    assert not any("请修改" in s or "后重新发送" in s for s in page.next_steps), page.next_steps
    assert any("无需修改" in s for s in page.next_steps) and page.summary.errors == 1, page.next_steps
    assert "待改" not in page.summary.state, page.summary.state
    assert not [r for r in build_receipts(report.state, done) if r.sha256 == rec.sha256]


def test_a_copy_lost_before_an_upgrade_counts_from_the_old_programs_reading(tmp_path):
    """Readings kept by a program before the lost-copy fallback (ca7e204 and earlier) are under
    ``read:<hash>`` — the file's hash not in the key.  A copy lost while that program ran was
    counted from its reading; the first night of the new program found no ``read:<sha>:``
    reading, dropped the unit's entries (UNREADABLE_FILE) and pruned the old reading.  The old
    reading is tied to its file by what it holds (a registration's source, a book's stored
    name): RECEIVED_COPY_LOST, the entries kept."""
    import csv
    import hashlib
    import sqlite3

    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode == 0
    done = out / "t2016-poker"
    rec = _attachment(done, "g04")
    entries = [r for r in (done / "data" / "entries.csv").read_text("utf-8").splitlines() if ",g04," in r]
    assert entries
    with sqlite3.connect(done / "ledger.sqlite") as con:    # as the old program kept them
        rows = con.execute("select key, value from cache where key like 'read:%'").fetchall()
        assert any(k.startswith(f"read:{rec.sha256}:") for k, _ in rows)
        con.execute("delete from cache where key like 'read:%'")
        con.executemany("insert into cache (key, value) values (?, ?)",
                        [("read:" + hashlib.sha256(b"old\0" + k.encode()).hexdigest(), v) for k, v in rows])
    for p in (rec.stored(done), done / "received" / f"{rec.parent}.eml"):
        p.unlink()
    (folder / "inbox" / Path(rec.source).name).unlink()
    (done / ".lastrun.json").unlink(missing_ok=True)
    league(*run_args(folder, out))
    with open(done / "data" / "issues.csv", encoding="utf-8-sig") as f:
        issues = list(csv.DictReader(f))
    assert not [i for i in issues if i["code"] == "UNREADABLE_FILE"], issues
    (said,) = [i for i in issues if i["code"] == "RECEIVED_COPY_LOST"]
    assert said["branch"] == "g04" and "tournament.yaml 或程序更新之前读取" in said["message"], said
    assert [r for r in (done / "data" / "entries.csv").read_text("utf-8").splitlines() if ",g04," in r] == entries
    (done / ".lastrun.json").unlink(missing_ok=True)          # and the night after: kept as lost-read:
    league(*run_args(folder, out))
    assert [r for r in (done / "data" / "entries.csv").read_text("utf-8").splitlines() if ",g04," in r] == entries
