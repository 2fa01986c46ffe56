"""Files that show no unit of their own go on 未归属单位的文件 unless a unit's registered
address sent them (handbook 三, “看 issues.csv”); a Windows shortcut in the inbox is said
to be one (handbook 二).

- A form whose ``_meta`` names b01 but whose token does not fit (WRONG_BRANCH), put straight
  into ``inbox/`` or mailed from an address of no unit: refused, booked to no unit — b01,
  whose own form was accepted and who never sent it, has no 有 1 处错误待改 of it and does
  not count it as received.  The message still names the unit the form claims.
- The same form mailed from another unit's registered address stays that unit's
  (tests/e2e/test_resent_attribution.py, tests/mail/test_receipt_truth.py).
- A ``.lnk`` (by its name or its ShellLink header) is UNREADABLE_FILE saying it is a shortcut,
  not the file: put the file itself into the inbox.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import os
from pathlib import Path

import openpyxl

from mailedit import league_2020, send_mail

from pipeline.render import site_vm
from pipeline.run import RunOptions, run
from pipeline.store import Ledger
from pipeline.timeutil import TZ

NOW = dt.datetime(2020, 11, 8, 20, 0, tzinfo=TZ)   # before the deadline (11-09 15:00)
FORGED = "某人的报名表.xlsx"
LNK_HEAD = bytes.fromhex("4c0000000114020000000000c000000000000046")


def _token_changed(form: bytes) -> bytes:
    """b01's form with its token no longer fitting b01 (WRONG_BRANCH)."""
    wb = openpyxl.load_workbook(io.BytesIO(form))
    for row in wb["_meta"].iter_rows():
        if row[0].value == "token":
            row[1].value = "0" * 32
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _put(folder: Path, name: str, data: bytes, when: dt.datetime) -> None:
    p = folder / "inbox" / name
    p.write_bytes(data)
    os.utime(p, (when.timestamp(), when.timestamp()))


def _run(tmp_path: Path, folder: Path):
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(report.out_dir / "data" / "issues.csv", encoding="utf-8-sig") as f:
        return report, list(csv.DictReader(f))


def _entries(report, unit: str) -> list:
    return sorted((e.event, tuple(p.name for p in e.players)) for e in report.state.entries if e.branch == unit)


def _assert_unassigned(tmp_path, report, rows, before) -> None:
    (wrong,) = [r for r in rows if r["code"] == "WRONG_BRANCH"]
    assert wrong["branch"] == "" and wrong["file"] == FORGED and wrong["severity"] == "error", wrong
    assert "行政第一分工会" in wrong["message"] and "校验码" in wrong["message"]
    assert "下发" in wrong["message"]                                   # what to do
    # b01: no error of a file it never sent, not among its submissions, its form in force
    b01 = site_vm.branch_vm(report.state, "b01")
    assert FORGED not in {i.file for i in b01.issues}
    assert FORGED not in {s.file for s in b01.submissions}
    assert "b01" in report.accepted_branches and _entries(report, "b01") == before
    # 未归属单位的文件: the file and its problem
    stray = site_vm.branch_vm(report.state, site_vm.UNASSIGNED)
    assert ("WRONG_BRANCH", FORGED) in {(i.code, i.file) for i in stray.issues}
    assert FORGED in {s.file for s in stray.submissions}
    sub = next(s for s in report.state.submissions if s.file == FORGED)
    assert sub.branch == "" and sub.status == "rejected"
    # the received file is kept
    with Ledger(report.out_dir) as ledger:
        rec = next(r for r in ledger.received() if r.file_name == FORGED)
        assert rec.stored(ledger.root).is_file()


def test_wrong_branch_form_put_into_the_inbox_is_booked_to_no_unit(tmp_path):
    folder, x = league_2020(tmp_path)
    before = _entries(_run(tmp_path, folder)[0], "b01")
    _put(folder, FORGED, _token_changed(x), dt.datetime(2020, 11, 6, 10, 0, tzinfo=TZ))
    report, rows = _run(tmp_path, folder)
    _assert_unassigned(tmp_path, report, rows, before)


def test_wrong_branch_form_mailed_by_a_stranger_is_booked_to_no_unit(tmp_path):
    folder, x = league_2020(tmp_path)
    before = _entries(_run(tmp_path, folder)[0], "b01")
    send_mail(folder, "1106-stranger.eml", [(FORGED, _token_changed(x))], "Fri, 06 Nov 2020 10:00:00 +0800",
              sender="someone@mail.example.com")
    report, rows = _run(tmp_path, folder)
    _assert_unassigned(tmp_path, report, rows, before)


def test_wrong_branch_form_from_the_claimed_units_own_address_stays_its(tmp_path):
    """Mailed from b01's registered address, the form is b01's refused file, as before."""
    folder, x = league_2020(tmp_path)
    send_mail(folder, "1106-b01.eml", [(FORGED, _token_changed(x))], "Fri, 06 Nov 2020 10:00:00 +0800")
    report, rows = _run(tmp_path, folder)
    (wrong,) = [r for r in rows if r["code"] == "WRONG_BRANCH"]
    assert wrong["branch"] == "b01"
    assert FORGED in {s.file for s in site_vm.branch_vm(report.state, "b01").submissions}


def test_a_windows_shortcut_in_the_inbox_is_said_to_be_one(tmp_path):
    """UNREADABLE_FILE-lnk: handbook 二 — 请把文件本身放进收件箱."""
    folder, _ = league_2020(tmp_path)
    when = dt.datetime(2020, 11, 6, 10, 0, tzinfo=TZ)
    _put(folder, "快捷方式.lnk", LNK_HEAD + b"\x00" * 60, when)
    _put(folder, "报名表（链接）", LNK_HEAD + b"\x01" * 60, when)       # no .lnk name: by its header
    _put(folder, "说明.txt", "这是说明".encode(), when)                  # not a shortcut: as before
    send_mail(folder, "1106-b01-lnk.eml", [("报名表 - 快捷方式.lnk", LNK_HEAD + b"\x02" * 60)],
              "Fri, 06 Nov 2020 10:00:00 +0800")
    report, rows = _run(tmp_path, folder)
    by_file = {r["file"]: r for r in rows if r["code"] == "UNREADABLE_FILE"}
    (mailed,) = [r["message"] for r in rows if r["code"] == "NO_ATTACHMENT" and r["file"] == "1106-b01-lnk.eml"]
    assert "快捷方式（.lnk）不是文件本身" in mailed and "作为附件重新发送" in mailed, mailed   # attached: resend
    for name in ("快捷方式.lnk", "报名表（链接）"):
        msg = by_file[name]["message"]
        assert "快捷方式" in msg and "不是文件本身" in msg and "请把文件本身放进收件箱" in msg, msg
        assert "请用我们下发的报名表填写后发送" not in msg
    assert "快捷方式" not in by_file["说明.txt"]["message"]
    assert "请用我们下发的报名表填写后发送" in by_file["说明.txt"]["message"]
