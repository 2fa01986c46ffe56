"""Files that came in the same mail as the form in force (from an audit of mail intake).

A captain's mail carrying the form both as .xlsx and as .xls ("以防打不开"): the .xlsx was
accepted, and the .xls's UNREADABLE_FILE stayed an error for good (exit 1 every night, 有 1
处错误待改 on the unit's page, and a 需修改 receipt beside the 已接受 one): only files sent
strictly before the form in force were settled, and one mail's attachments have one time.
The same for a truncated mail read on one night and received whole (the same Message-ID)
on the next.  Both are now settled like an earlier file: information, no receipt of their
own, a line in the form's receipt.
"""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import shutil
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from .conftest import SmtpServer
from .test_receipt_no_workbook import B02, _bare, _form_of, _league, _mail, _parse, _text

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2020, 11, 7, 9, 0, tzinfo=TZ)


def _xls() -> bytes:
    """The sample's legacy Excel 97-2003 workbook (a .xls)."""
    raw = (ROOT / "sample_sheets" / "t2020-league" / "inbox-mistakes" / "legacy-xls-b11.eml").read_bytes()
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    return next(p for p in msg.iter_attachments() if (p.get_filename() or "").endswith(".xls")).get_content()


def _b02(folder: Path) -> tuple[str, bytes]:
    """b02's form, its own mail taken out of the inbox."""
    name, data = _form_of(folder, "1106-b02-报名表.eml")
    (folder / "inbox" / "1106-b02-报名表.eml").unlink()
    return name, data


def _night(folder: Path, out: Path, server: SmtpServer):
    return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW, smtp_url=server.url))


def _of(report, name: str) -> list[tuple[str, str]]:
    return [(i.code, str(i.severity)) for i in report.issues if i.file == name]


def test_an_xls_copy_beside_the_accepted_xlsx_is_settled(tmp_path):
    folder = _league(tmp_path)
    name, form = _b02(folder)
    _mail(folder, "both.eml", B02, "报名表（附 xls 以防打不开）", "Thu, 05 Nov 2020 16:32:10 +0800",
          [(name, form), ("行政第二分工会-报名表.xls", _xls())], message_id="<both-b02@union.example.edu.cn>")
    server = SmtpServer().start()
    try:
        report = _night(folder, tmp_path / "out", server)
    finally:
        server.stop()
    (xls,) = [i for i in report.issues if i.file == "行政第二分工会-报名表.xls"]
    assert xls.code == "UNREADABLE_FILE" and str(xls.severity) == "info" and xls.branch == "b02"
    assert f"同一封邮件所附的报名表《{name}》已受理，这份文件无需再处理" in xls.message
    assert not [i for i in report.issues if str(i.severity) == "error"]
    # one receipt, the form's: accepted, naming the .xls; no 需修改 for the copy
    mine = [_parse(m) for m in server.handler.messages if B02 in m.rcpt_tos]
    assert [p["Subject"] for p in mine] == ["【报名回执】行政第二分工会：已接受"]
    assert "同一封邮件所附的《行政第二分工会-报名表.xls》无法读取，已以这份报名表" in _text(mine[0])
    assert not _bare(server.handler.messages)


def test_a_truncated_mail_received_again_whole_leaves_no_error(tmp_path):
    folder = _league(tmp_path)
    name, form = _b02(folder)
    mid = "<cut-b02@union.example.edu.cn>"
    date = "Thu, 05 Nov 2020 16:32:10 +0800"
    _mail(folder, "b02.eml", B02, "报名表", date, [(name, form[: len(form) // 2])], message_id=mid)
    server = SmtpServer().start()
    try:
        first = _night(folder, tmp_path / "out", server)
        assert _of(first, name) == [("UNREADABLE_FILE", "error")]
        shutil.move(folder / "inbox" / "b02.eml", tmp_path / "cut.eml")     # the office fetches it again
        _mail(folder, "b02.eml", B02, "报名表", date, [(name, form)], message_id=mid)
        second = _night(folder, tmp_path / "out", server)
    finally:
        server.stop()
    cut = [i for i in second.issues if i.code == "UNREADABLE_FILE"]
    assert [(str(i.severity), i.branch) for i in cut] == [("info", "b02")], cut
    assert "同一封邮件所附的报名表" in cut[0].message and "无需再处理" in cut[0].message
    assert not [i for i in second.issues if str(i.severity) == "error"]
    subjects = [_parse(m)["Subject"] for m in server.handler.messages if B02 in m.rcpt_tos]
    # night 1 told the captain the file was cut short; night 2 that the whole one is accepted
    assert subjects == ["【报名回执】行政第二分工会：文件无法读取，请重新发送", "【报名回执】行政第二分工会：已接受"]
