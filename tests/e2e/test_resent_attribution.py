"""Notes about a received file go on the page of the unit that sent it.

- A file that names no unit itself (an .xls, a CSV renamed .xlsx, a form without its
  ``_meta``, a mail whose Date cannot be believed) from a captain's registered address is
  that unit's: its issues and its submission are on the unit's report page (they were only
  on 未归属单位的文件, where no captain looks); a stranger's stays unassigned.
- A captain who sends form X, then Y, then X again unchanged: X's bytes were received
  before, so Y stays current — and the unit's page says so as a warning (DUPLICATE_FILE),
  naming Y and what to do to make X count; a plain double send of the current form stays
  an info note, on the unit's page too.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import os
from pathlib import Path

import openpyxl

from mailedit import league_2020, send_mail

from pipeline.mail.receipts import build_receipts
from pipeline.render import site_vm
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

NAME = "行政第一分工会-报名表.xlsx"            # b01's form, as its sample mail names it
B01 = "xzyfgh@union.example.edu.cn"            # b01's registered address
STRANGER = "someone@mail.example.com"
NOW = dt.datetime(2020, 11, 8, 20, 0, tzinfo=TZ)   # before the deadline (11-09 15:00): no draw


_league = league_2020
_mail = send_mail


def _changed(form: bytes) -> bytes:
    """Form Y: X with one phone number changed (a valid form, another content)."""
    wb = openpyxl.load_workbook(io.BytesIO(form))
    ws = wb["报名表"]
    cell = next(c for row in ws.iter_rows() for c in row
                if isinstance(c.value, str) and c.value.isdigit() and len(c.value) == 11)
    cell.value = "13900000000"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _run(tmp_path: Path, folder: Path):
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(report.out_dir / "data" / "issues.csv", encoding="utf-8-sig") as f:
        return report, list(csv.DictReader(f))


def _page(report, unit: str) -> list[tuple[str, str, str]]:
    """(code, severity class, file) of every issue the unit's report page lists."""
    if unit == site_vm.UNASSIGNED and unit not in site_vm.branch_ids(report.state):
        return []
    return [(i.code, i.severity_class, i.file) for i in site_vm.branch_vm(report.state, unit).issues]


def test_an_earlier_form_sent_again_after_a_later_one_is_a_warning_on_the_units_page(tmp_path):
    folder, x = _league(tmp_path)
    y = _changed(x)
    _mail(folder, "1106-b01-改.eml", [("行政第一分工会-报名表-改.xlsx", y)], "Fri, 06 Nov 2020 10:00:00 +0800")
    report, rows = _run(tmp_path, folder)
    assert not [r for r in rows if r["code"] == "DUPLICATE_FILE"]

    _mail(folder, "1108-b01-原.eml", [(NAME, x)], "Sun, 08 Nov 2020 09:00:00 +0800")
    report, rows = _run(tmp_path, folder)
    (dup,) = [r for r in rows if r["code"] == "DUPLICATE_FILE"]
    assert dup["branch"] == "b01" and dup["severity"] == "warning" and dup["file"] == "1108-b01-原.eml"
    msg = dup["message"]
    assert "内容完全相同" in msg and "11月4日 18:23" in msg                   # the first receipt of X
    assert "《行政第一分工会-报名表-改.xlsx》" in msg and "11月6日 10:00" in msg   # Y, still in force
    assert "仍" in msg and "改回这一版" in msg and "任意修改" in msg and "保存" in msg
    # which form is current does not change: Y, received later
    subs = {s.file: s.status for s in report.state.submissions if s.branch == "b01"}
    assert subs == {NAME: "superseded", "行政第一分工会-报名表-改.xlsx": "accepted"}
    assert ("DUPLICATE_FILE", "warning", "1108-b01-原.eml") in _page(report, "b01")
    assert not [c for c in _page(report, site_vm.UNASSIGNED) if c[0] == "DUPLICATE_FILE"]
    vm = site_vm.branch_vm(report.state, "b01")
    assert vm.summary.state_class == "warn"                     # the captain sees it in the unit's status

    # a night with nothing new says the same
    report, again = _run(tmp_path, folder)
    assert [r for r in again if r["code"] == "DUPLICATE_FILE"] == [dup]


def test_the_current_form_sent_twice_is_an_info_note_on_the_units_page(tmp_path):
    folder, x = _league(tmp_path)
    _mail(folder, "1105-b01-again.eml", [(NAME, x)], "Thu, 05 Nov 2020 08:00:00 +0800")
    report, rows = _run(tmp_path, folder)
    (dup,) = [r for r in rows if r["code"] == "DUPLICATE_FILE"]
    assert dup["branch"] == "b01" and dup["severity"] == "info" and dup["file"] == "1105-b01-again.eml"
    assert "收到时间以最初的一次为准" in dup["message"] and "11月4日 18:23" in dup["message"]
    assert ("DUPLICATE_FILE", "info", "1105-b01-again.eml") in _page(report, "b01")
    assert site_vm.branch_vm(report.state, "b01").summary.state_class == "ok"


def test_an_earlier_form_sent_again_before_the_later_one_is_an_info_note(tmp_path):
    """X, X again, then Y: the resend came before Y, which the captain sent to replace it —
    nothing to warn about."""
    folder, x = _league(tmp_path)
    _mail(folder, "1105-b01-again.eml", [(NAME, x)], "Thu, 05 Nov 2020 08:00:00 +0800")
    _mail(folder, "1106-b01-改.eml", [("行政第一分工会-报名表-改.xlsx", _changed(x))], "Fri, 06 Nov 2020 10:00:00 +0800")
    _, rows = _run(tmp_path, folder)
    (dup,) = [r for r in rows if r["code"] == "DUPLICATE_FILE"]
    assert (dup["branch"], dup["severity"]) == ("b01", "info")


def test_a_form_resent_by_an_unregistered_address_is_the_forms_units(tmp_path):
    """The branch comes from the form the bytes were read as: b01's form mailed again from a
    stranger's address (after Y) is still b01's note."""
    folder, x = _league(tmp_path)
    _mail(folder, "1106-b01-改.eml", [("行政第一分工会-报名表-改.xlsx", _changed(x))], "Fri, 06 Nov 2020 10:00:00 +0800")
    _mail(folder, "1108-other.eml", [(NAME, x)], "Sun, 08 Nov 2020 09:00:00 +0800", sender=STRANGER)
    _, rows = _run(tmp_path, folder)
    (dup,) = [r for r in rows if r["code"] == "DUPLICATE_FILE"]
    assert (dup["branch"], dup["severity"]) == ("b01", "warning")


def test_an_older_form_copied_into_the_inbox_again_is_a_warning_too(tmp_path):
    """The same resend as a file put into the inbox (the office saved the attachment): the
    note is b01's, and a warning once Y counts."""
    folder, x = _league(tmp_path)
    _mail(folder, "1106-b01-改.eml", [("行政第一分工会-报名表-改.xlsx", _changed(x))], "Fri, 06 Nov 2020 10:00:00 +0800")
    copy = folder / "inbox" / "b01-报名表-原.xlsx"
    copy.write_bytes(x)
    t = dt.datetime(2020, 11, 8, 9, 0, tzinfo=TZ).timestamp()
    os.utime(copy, (t, t))
    _, rows = _run(tmp_path, folder)
    (dup,) = [r for r in rows if r["code"] == "DUPLICATE_FILE"]
    assert (dup["branch"], dup["severity"], dup["file"]) == ("b01", "warning", "b01-报名表-原.xlsx")
    assert "《行政第一分工会-报名表-改.xlsx》" in dup["message"]


# a legacy Excel file (the OLE2 signature), a CSV saved under .xlsx, a form copied into a new
# workbook (no hidden _meta sheet)
XLS = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504
CSV = "序号,项目,队号,姓名,工号\n1,象棋,,王军,001001\n".encode("gbk")


def _without_meta(form: bytes) -> bytes:
    wb = openpyxl.load_workbook(io.BytesIO(form))
    del wb["_meta"]
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_file_level_rejections_from_a_captains_address_are_on_the_units_page(tmp_path):
    folder, x = _league(tmp_path)
    _mail(folder, "1105-xls.eml", [("b01报名表.xls", XLS)], "Thu, 05 Nov 2020 08:00:00 +0800")
    _mail(folder, "1105-csv.eml", [("b01报名表-csv.xlsx", CSV)], "Thu, 05 Nov 2020 08:10:00 +0800")
    _mail(folder, "1105-nometa.eml", [("b01报名表-复制.xlsx", _without_meta(x))], "Thu, 05 Nov 2020 08:20:00 +0800")
    _mail(folder, "1105-stranger.eml", [("某单位报名表.xls", XLS + b"x")], "Thu, 05 Nov 2020 08:30:00 +0800",
          sender=STRANGER)
    # a phone a year ahead: its Date is later than the mail's file, which is believed instead
    _mail(folder, "ahead.eml", [("b01-v2.xlsx", _changed(x))], "Thu, 04 Nov 2021 10:00:00 +0800")
    saved = dt.datetime(2020, 11, 7, 10, 0, tzinfo=TZ).timestamp()
    os.utime(folder / "inbox" / "ahead.eml", (saved, saved))
    # a Date no program can read (no year; 2020年11月5日 09:00 is read), on a mail whose
    # attachment proves no unit: its sender's
    _mail(folder, "bad-date.eml", [("b01报名表-旧.xls", XLS + b"y")], "Wed, 04 Nov 2020 18:30:00 +0800")
    p = folder / "inbox" / "bad-date.eml"
    p.write_bytes(p.read_bytes().replace(b"Wed, 04 Nov 2020 18:30:00 +0800", "11月5日 09:00".encode()))
    os.utime(p, (saved, saved))
    report, rows = _run(tmp_path, folder)

    def row(code: str, file: str) -> dict[str, str]:
        (r,) = [r for r in rows if r["code"] == code and r["file"] == file]
        return r
    assert row("UNREADABLE_FILE", "b01报名表.xls")["branch"] == "b01"
    assert row("UNREADABLE_FILE", "b01报名表-csv.xlsx")["branch"] == "b01"
    assert row("TEMPLATE_MISMATCH", "b01报名表-复制.xlsx")["branch"] == "b01"
    assert row("MAIL_DATE", "ahead.eml")["branch"] == "b01"           # the unit of the form it carried
    assert row("MAIL_DATE", "bad-date.eml")["branch"] == "b01"        # the unit of its sender
    assert row("UNREADABLE_FILE", "某单位报名表.xls")["branch"] == ""        # a stranger's: unassigned

    mine = _page(report, "b01")
    # sent before the form now in force (b01-v2.xlsx, 11-07 10:00): settled, information only
    # (they said 有错误待改 on the page of a unit whose later form was accepted); the .xls whose
    # time is the form's own (not before it) stays an error
    for code, severity, file in (("UNREADABLE_FILE", "info", "b01报名表.xls"),
                                 ("UNREADABLE_FILE", "info", "b01报名表-csv.xlsx"),
                                 ("TEMPLATE_MISMATCH", "info", "b01报名表-复制.xlsx"),
                                 ("UNREADABLE_FILE", "error", "b01报名表-旧.xls"), ("MAIL_DATE", "warning", "ahead.eml")):
        assert (code, severity, file) in mine, (code, file, mine)
    assert "其后收到的报名表《b01-v2.xlsx》（11月7日 10:00）已取代这份文件" in row("UNREADABLE_FILE", "b01报名表.xls")["message"]
    stray = _page(report, site_vm.UNASSIGNED)
    assert [f for _, _, f in stray] == ["某单位报名表.xls"]
    # the rejected files are listed among b01's submissions; b01's form still counts
    vm = site_vm.branch_vm(report.state, "b01")
    assert {s.file for s in vm.submissions} >= {"b01报名表.xls", "b01报名表-csv.xlsx", "b01报名表-复制.xlsx"}
    assert "b01" in report.accepted_branches

    # receipts: each rejected file's to its sender (b01's registered address) only, naming its
    # problem, and proving no branch; the stranger gets none
    receipts = {r.sha256: r for r in build_receipts(report.state, report.out_dir)}
    by_file = {s.file: s for s in report.state.submissions}
    for f, code in (("b01报名表.xls", "UNREADABLE_FILE"), ("b01报名表-csv.xlsx", "UNREADABLE_FILE"),
                    ("b01报名表-复制.xlsx", "TEMPLATE_MISMATCH")):
        r = receipts[by_file[f].sha256]
        assert r.to == (B01,) and r.kind == "needs_change" and r.branch == "" and code in r.body, (f, r)
        assert "行政第一分工会" in r.body
    assert by_file["某单位报名表.xls"].sha256 not in receipts
    assert all(STRANGER not in r.to for r in receipts.values())


def _token_changed(form: bytes) -> bytes:
    """The form with its token no longer fitting its unit (WRONG_BRANCH)."""
    wb = openpyxl.load_workbook(io.BytesIO(form))
    ws = wb["_meta"]
    for row in ws.iter_rows():
        if row[0].value == "token":
            row[1].value = "0" * 32
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_a_form_claiming_another_unit_is_the_senders_and_settled_by_its_own_later_form(tmp_path):
    """b02's captain fills in b01's form (its token no longer fits) and mails it from b02's
    registered address before b02's own form (11-06 04:58): a WRONG_BRANCH of b02 — its page,
    its receipt in its name — settled to information once b02's own form is in force.  b01's
    page has nothing of it (it said 有 1 处错误待改 of a file b01 never sent)."""
    folder, x = _league(tmp_path)
    _mail(folder, "1105-b02-wrong.eml", [("借用的报名表.xlsx", _token_changed(x))], "Thu, 05 Nov 2020 08:00:00 +0800",
          sender="xzefgh@union.example.edu.cn")
    report, rows = _run(tmp_path, folder)
    (wrong,) = [r for r in rows if r["code"] == "WRONG_BRANCH"]
    assert (wrong["branch"], wrong["severity"]) == ("b02", "info"), wrong
    assert "行政第二分工会登记的邮箱" in wrong["message"] and "已取代这份文件" in wrong["message"]
    assert ("WRONG_BRANCH", "info", "借用的报名表.xlsx") in _page(report, "b02")
    assert not [p for p in _page(report, "b01") if p[2] == "借用的报名表.xlsx"]
    assert "借用的报名表.xlsx" not in {s.file for s in site_vm.branch_vm(report.state, "b01").submissions}
    assert {"b01", "b02"} <= set(report.accepted_branches)
    (r,) = [r for r in build_receipts(report.state, report.out_dir)
            if r.sha256 == next(s.sha256 for s in report.state.submissions if s.file == "借用的报名表.xlsx")]
    assert r.to == ("xzefgh@union.example.edu.cn",) and r.body.startswith("行政第二分工会：")


def test_a_units_genuine_form_mailed_from_another_units_address_is_not_taken(tmp_path):
    """b01's captain fills in b04's form (its token is b04's) and mails it from b01's
    registered address: it replaced b04's accepted registration with b01's people (b04's
    receipt listed them; after the deadline b04's own form was lost for good) and b01 was
    sent nothing (SENDER_UNKNOWN, a warning, only told b01 to send its own form and b04 to
    send again).  Now it is OTHER_UNITS_FORM on b01's page and receipt; b04's stands."""
    import email
    import email.policy

    folder, _ = _league(tmp_path)
    msg = email.message_from_bytes((folder / "inbox" / "1104-b04-报名表.eml").read_bytes(), policy=email.policy.default)
    (att,) = [p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx")]
    b04_form = _changed(att.get_content())
    _mail(folder, "1107-b01-误用.eml", [("报名表-行政一.xlsx", b04_form)], "Sat, 07 Nov 2020 09:00:00 +0800")
    report, rows = _run(tmp_path, folder)
    (o,) = [r for r in rows if r["code"] == "OTHER_UNITS_FORM"]
    assert o["branch"] == "b01" and o["severity"] == "error" and "机电工程学院分工会" in o["message"]
    assert "未受理" in o["message"] and B01 in o["message"]
    assert not [r for r in rows if r["code"] == "SENDER_UNKNOWN"]
    subs = {s.file: (s.branch, s.status) for s in report.state.submissions}
    assert subs["报名表-行政一.xlsx"] == ("b01", "rejected")
    b04 = [s for s in report.state.submissions if s.branch == "b04"]
    assert [s.status for s in b04] == ["accepted"]
    assert ("OTHER_UNITS_FORM", "error", "报名表-行政一.xlsx") in _page(report, "b01")
    receipts = {r.sha256: r for r in build_receipts(report.state, report.out_dir)}
    sha = next(s.sha256 for s in report.state.submissions if s.file == "报名表-行政一.xlsx")
    assert receipts[sha].to == (B01,) and "机电工程学院分工会" in receipts[sha].body


def test_a_units_genuine_form_from_another_units_address_stays_an_error_until_that_unit_registers(tmp_path):
    """b04's form mailed from b01's address (b01's own form came later, b04 has none of its
    own): b04 is left without a registration, so it stays an error — it was settled by b01's
    own form ("已受理，这份文件无需再处理", exit 0) though b01's form says nothing of b04.  Once
    b04's own form comes, it is a note."""
    import email
    import email.policy

    folder, _ = _league(tmp_path)
    own = folder / "inbox" / "1104-b04-报名表.eml"
    msg = email.message_from_bytes(own.read_bytes(), policy=email.policy.default)
    (att,) = [p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx")]
    b04_form = att.get_content()
    kept = own.read_bytes()
    own.unlink()
    _mail(folder, "1103-b01-代报.eml", [("报名表-行政一.xlsx", _changed(b04_form))], "Tue, 03 Nov 2020 09:00:00 +0800")
    report, rows = _run(tmp_path, folder)
    (o,) = [r for r in rows if r["code"] == "OTHER_UNITS_FORM"]
    assert o["branch"] == "b01" and o["severity"] == "error", o
    assert report.needs_attention
    (folder / "inbox" / "1104-b04-报名表.eml").write_bytes(kept)     # b04's own, sent the day after
    report, rows = _run(tmp_path, folder)
    (o,) = [r for r in rows if r["code"] == "OTHER_UNITS_FORM"]
    assert o["severity"] == "info" and "机电工程学院分工会自己的报名表" in o["message"] and "该单位" not in o["message"], o


def test_a_units_form_misused_by_another_unit_then_its_own_sent_is_settled(tmp_path):
    """b04 registered (11-04); b01's captain fills in b04's form by mistake (11-05) and, as
    OTHER_UNITS_FORM asks, then sends b01's own (11-06): settled, a note — an error for good
    when only the named unit's later form could settle it (a review)."""
    import email
    import email.policy

    folder, x = _league(tmp_path)
    own = folder / "inbox" / "1104-b04-报名表.eml"
    msg = email.message_from_bytes(own.read_bytes(), policy=email.policy.default)
    (att,) = [p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx")]
    _mail(folder, "1105-b01-误用.eml", [("报名表-行政一.xlsx", _changed(att.get_content()))],
          "Thu, 05 Nov 2020 09:00:00 +0800")
    _mail(folder, "1106-b01-改.eml", [("行政第一分工会-报名表-改.xlsx", _changed(x))], "Fri, 06 Nov 2020 10:00:00 +0800")
    report, rows = _run(tmp_path, folder)
    (o,) = [r for r in rows if r["code"] == "OTHER_UNITS_FORM"]
    assert o["severity"] == "info" and "行政第一分工会-报名表-改.xlsx" in o["message"], o
