"""Mails as captains' clients really send them (from an audit of mail intake): no readable
Date header, a workbook beside an archive, an Outlook signature image without the workbook,
a cloud-drive link instead of the attachment.  Each is said in Chinese, specifically, with
what to do — through the whole run (``league run``)."""
from __future__ import annotations

import datetime as dt
import os
from email.message import EmailMessage
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from .test_receipt_no_workbook import B02, _form_of, _league

SAVED = dt.datetime(2020, 11, 10, 9, 0, tzinfo=TZ)       # the office saved the mail after the deadline


def _b02(folder: Path) -> tuple[str, bytes]:
    """b02's form, its own mail taken out of the inbox."""
    name, data = _form_of(folder, "1106-b02-报名表.eml")
    (folder / "inbox" / "1106-b02-报名表.eml").unlink()
    return name, data


def test_a_mail_without_a_readable_date_takes_its_servers_received_time(tmp_path):
    folder = _league(tmp_path)
    name, form = _b02(folder)
    msg = EmailMessage()
    msg["Received"] = ("from mail.b02.example.cn by mx.union.example.edu.cn (Coremail) with SMTP id x1;"
                       " Thu, 5 Nov 2020 16:32:14 +0800 (CST)")
    msg["From"] = B02
    msg["To"] = "office@union.example.edu.cn"
    msg["Subject"] = "报名表"
    msg.set_content("报名表见附件。")
    msg.add_attachment(form, maintype="application", subtype="octet-stream", filename=name)
    p = folder / "inbox" / "b02.eml"
    p.write_bytes("Date: 2020年11月5日 下午4:32\n".encode() + bytes(msg))      # as a phone app writes it
    os.utime(p, (SAVED.timestamp(), SAVED.timestamp()))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=SAVED))
    assert not [i for i in report.issues if i.code == "LATE_SUBMISSION"]
    (sub,) = [s for s in report.state.submissions if s.file == name]
    assert sub.status in ("current", "accepted") and sub.received == dt.datetime(2020, 11, 5, 16, 32, 14, tzinfo=TZ)
    (note,) = [i for i in report.issues if i.code == "MAIL_DATE"]
    assert "Date 头“2020年11月5日 下午4:32”无法识别" in note.message
    assert "收到时间按邮件服务器记下的接收时间（Received 头） 2020-11-05 16:32 计" in note.message
    assert "文件时间" not in note.message and note.branch == "b02"
