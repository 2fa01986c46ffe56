"""R2020-Q4: a file's time of receipt is the earliest credible time any copy of it came.

The ledger records a content once, by its hash.  A copy of a captain's form that came late
(a later mail, a file put into the inbox after the deadline) was recorded first; the
captain's own mail, on time, dropped into the inbox on a later night, changed nothing: the
form stayed late and was refused.  Now the earlier receipt takes the record's place (in one
transaction, with an audit entry) — and a round drawn meanwhile is never redrawn: the
change of its entries is DRAW_INPUT_CHANGED, as any change after a draw.
"""
from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import os
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))

from .common import copy_sample, league, run_args  # noqa: E402


def _issues(out: Path, tid: str) -> list[dict[str, str]]:
    with open(out / tid / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _entries(out: Path, tid: str, branch: str) -> int:
    with open(out / tid / "data" / "entries.csv", encoding="utf-8") as f:
        return sum(1 for r in csv.DictReader(f) if r["branch"] == branch)


def _set_mtime(p: Path, iso: str) -> None:
    ts = dt.datetime.fromisoformat(iso).timestamp()
    os.utime(p, (ts, ts))


def _attachment(mail: Path) -> tuple[str, bytes]:
    from pipeline.ingest.eml import parse_eml_bytes

    (att,) = parse_eml_bytes(mail.read_bytes(), mail.name).attachments
    return att.filename, att.data


def test_R2020_Q4_a_late_copy_recorded_first_gives_way_to_the_on_time_mail(tmp_path: Path) -> None:
    """Night 1 (after the deadline): g04's form put into the inbox by hand, its file time
    after the deadline — late, refused.  Night 2: the captain's own mail of 11-11, which
    carried those very bytes, is dropped into the inbox: the form is on time."""
    folder = copy_sample("t2016-poker", tmp_path)
    mail = folder / "inbox" / "1111-g04-报名表.eml"
    kept = mail.read_bytes()
    _, data = _attachment(mail)
    mail.unlink()
    copy = folder / "inbox" / "g04-报名表.xlsx"
    copy.write_bytes(data)
    _set_mtime(copy, "2016-11-17T09:00+08:00")            # deadline 11-16 17:00
    out = tmp_path / "out"
    league(*run_args(folder, out, now="2016-11-17T12:00+08:00"))
    assert _entries(out, "t2016-poker", "g04") == 0
    assert any(r["code"] == "LATE_SUBMISSION" and r["branch"] == "g04" for r in _issues(out, "t2016-poker"))

    mail.write_bytes(kept)
    r = league(*run_args(folder, out, now="2016-11-18T12:00+08:00"))
    assert r.returncode in (0, 1), r.stderr[-2000:]
    assert _entries(out, "t2016-poker", "g04") > 0
    rows = _issues(out, "t2016-poker")
    assert not [x for x in rows if x["code"] == "LATE_SUBMISSION" and x["branch"] == "g04"], rows
    # the late copy is now the copy (info), said against the mail that came first
    (dup,) = [x for x in rows if x["code"] == "DUPLICATE_FILE"]
    assert dup["file"] == "g04-报名表.xlsx" and dup["severity"] == "info" and "1111-g04-报名表.eml" in dup["message"]
    assert "11月11日 21:56" in dup["message"]
    con = sqlite3.connect(out / "t2016-poker" / "ledger.sqlite")
    try:
        import hashlib
        (at, source, parent), = con.execute("SELECT received_at, source, parent FROM received WHERE sha256=?",
                                            (hashlib.sha256(data).hexdigest(),)).fetchall()
        audit = con.execute("SELECT what, detail FROM audit WHERE what='received_earlier'").fetchall()
    finally:
        con.close()
    assert at.startswith("2016-11-11T21:56") and source == "1111-g04-报名表.eml" and parent
    assert len(audit) == 1 and "2016-11-17T09:00" in audit[0][1] and "2016-11-11T21:56" in audit[0][1], audit
    # the next night (a full run) changes nothing (but what is said on its night only: the
    # 签到表 written again with g04's players, CHECKIN_FORM_UPDATED).  A said-once note stays
    # a note without the last run's record (.lastrun.json "may be deleted at any time"): the
    # ledger keeps what was said (lastrun.SAID_KEY) — it was a warning again, a false alarm
    assert any(x["code"] == "CHECKIN_FORM_UPDATED" for x in rows)
    assert {x["severity"] for x in rows if x["code"] == "ROUND_NOT_DRAWN"} == {"info"}   # said on 11-17
    (out / "t2016-poker" / ".lastrun.json").unlink()
    league(*run_args(folder, out, now="2016-11-18T12:00+08:00"))
    from pipeline.issues import NIGHT_ONLY
    assert _issues(out, "t2016-poker") == [x for x in rows if x["code"] not in NIGHT_ONLY]
    con = sqlite3.connect(out / "t2016-poker" / "ledger.sqlite")
    try:
        assert con.execute("SELECT COUNT(*) FROM audit WHERE what='received_earlier'").fetchone()[0] == 1
    finally:
        con.close()


def test_the_ledger_keeps_the_earliest_receipt_of_a_content(tmp_path: Path) -> None:
    """Ledger.record_many: a later receipt of a recorded content changes nothing; an earlier
    one takes the record's place (time, name, path, sender, mail), audited in the same
    transaction; the content's kind and unit stay."""
    from pipeline.store import Ledger, Received

    cst = dt.timezone(dt.timedelta(hours=8))
    late = Received("a" * 64, ".xlsx", "报名表.xlsx", dt.datetime(2020, 11, 10, 9, tzinfo=cst), "", "报名表.xlsx",
                    kind="registration", branch="b01")
    on_time = Received("a" * 64, ".xlsx", "b01-报名表.xlsx", dt.datetime(2020, 11, 4, 9, tzinfo=cst),
                       "cap@b01.cn", "1104.eml", parent="b" * 64)
    later = dataclasses.replace(late, received_at=dt.datetime(2020, 11, 12, tzinfo=cst), source="x.xlsx")
    with Ledger(tmp_path) as ledger:
        assert ledger.record_many([late]) == [True]
        assert ledger.record_many([later]) == [False]
        assert ledger.record_many([on_time], dt.datetime(2020, 11, 13, tzinfo=cst)) == [True]
        assert ledger.record_many([on_time]) == [False]
        (got,) = ledger.received()
        (at, what, detail), = ledger.audit_rows()
    assert got == dataclasses.replace(on_time, kind="registration", branch="b01")
    assert what == "received_earlier" and at.startswith("2020-11-13")
    assert "2020-11-10T09:00:00+08:00 报名表.xlsx" in detail and "2020-11-04T09:00:00+08:00 1104.eml" in detail


def test_R2020_Q4_a_plain_copy_with_an_earlier_file_time_counts_from_then(tmp_path: Path) -> None:
    """The same form first as a file put in after the deadline, then (a later night) a copy
    kept with its file time from before the deadline (``cp -p`` from the captain's stick):
    its file time is when it was received (the contract), the earlier one."""
    folder = copy_sample("t2016-poker", tmp_path)
    mail = folder / "inbox" / "1111-g04-报名表.eml"
    _, data = _attachment(mail)
    mail.unlink()
    late = folder / "inbox" / "g04-报名表.xlsx"
    late.write_bytes(data)
    _set_mtime(late, "2016-11-17T09:00+08:00")
    out = tmp_path / "out"
    league(*run_args(folder, out, now="2016-11-17T12:00+08:00"))
    assert _entries(out, "t2016-poker", "g04") == 0
    early = folder / "inbox" / "u盘" / "g04-报名表.xlsx"
    early.parent.mkdir()
    early.write_bytes(data)
    _set_mtime(early, "2016-11-15T09:00+08:00")
    league(*run_args(folder, out, now="2016-11-18T12:00+08:00"))
    assert _entries(out, "t2016-poker", "g04") > 0
    assert not [x for x in _issues(out, "t2016-poker") if x["code"] == "LATE_SUBMISSION" and x["branch"] == "g04"]


def test_R2020_Q4_an_on_time_form_found_after_the_draw_does_not_redraw_it(tmp_path: Path) -> None:
    """t2020: b01's form came first in a mail after the deadline (15:00); round 1 of every
    event was drawn without b01.  Then the captain's own mail of 11-04 is dropped into the
    inbox: b01's form is on time — but the published round 1 stands, and the change of its
    entries is DRAW_INPUT_CHANGED (as any change after a draw), not a silent redraw."""
    from mailedit import B01_FORM, league_2020, send_mail

    folder, form = league_2020(tmp_path)
    mail = folder / "inbox" / "1104-b01-报名表.eml"
    kept = mail.read_bytes()
    mail.unlink()
    send_mail(folder, "1109-b01-转发.eml", [(B01_FORM, form)], "Mon, 09 Nov 2020 15:30:00 +0800")
    out = tmp_path / "out"
    league(*run_args(folder, out, now="2020-11-09T16:00+08:00"))
    assert _entries(out, "t2020-league", "b01") == 0
    draw = (out / "t2020-league" / "data" / "draw.csv").read_bytes()
    assert b"xiangqi" in draw

    mail.write_bytes(kept)
    league(*run_args(folder, out, now="2020-11-09T20:00+08:00"))
    assert (out / "t2020-league" / "data" / "draw.csv").read_bytes() == draw
    rows = _issues(out, "t2020-league")
    assert not [x for x in rows if x["code"] == "LATE_SUBMISSION" and x["branch"] == "b01"], rows
    changed = [x for x in rows if x["code"] == "DRAW_INPUT_CHANGED"]
    assert changed and all("不会重新抽签" in x["message"] and "新增" in x["message"] for x in changed), changed
