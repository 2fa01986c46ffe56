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

from .conftest import SmtpServer
from .test_receipt_no_workbook import B02, B05, _bare, _form_of, _league, _mail, _parse, _text

SAVED = dt.datetime(2020, 11, 10, 9, 0, tzinfo=TZ)       # the office saved the mail after the deadline
NOW = dt.datetime(2020, 11, 7, 9, 0, tzinfo=TZ)         # every sample form is in; before the deadline


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
    p.write_bytes("Date: 周四 下午4:32\n".encode() + bytes(msg))      # no date in it (2020年11月5日 下午4:32 is read)
    os.utime(p, (SAVED.timestamp(), SAVED.timestamp()))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=SAVED))
    assert not [i for i in report.issues if i.code == "LATE_SUBMISSION"]
    (sub,) = [s for s in report.state.submissions if s.file == name]
    assert sub.status in ("current", "accepted") and sub.received == dt.datetime(2020, 11, 5, 16, 32, 14, tzinfo=TZ)
    (note,) = [i for i in report.issues if i.code == "MAIL_DATE"]
    assert "Date 头“周四 下午4:32”无法识别" in note.message
    assert "收到时间按邮件服务器记下的接收时间（Received 头） 2020-11-05 16:32 计" in note.message
    assert "文件时间" not in note.message and note.branch == "b02"


def test_an_archive_beside_a_workbook_is_said_and_named_in_the_forms_receipt(tmp_path):
    """A .zip, a .et or winmail.dat beside the workbook was dropped without a word (its mail
    carried a workbook): the .zip may hold another unit's form or the other result sheets."""
    folder = _league(tmp_path)
    name, form = _b02(folder)
    _mail(folder, "b02.eml", B02, "报名表", "Thu, 05 Nov 2020 16:32:10 +0800",
          [(name, form), ("其余报名表.zip", b"PK\x03\x04zip"), ("报名表（WPS）.et", b"\xd0\xcf\x11\xe0et")],
          message_id="<zip-b02@union.example.edu.cn>")
    server = SmtpServer().start()
    try:
        opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW, smtp_url=server.url)
        report = run(opts)
        (note,) = [i for i in report.issues if i.code == "NO_ATTACHMENT"]
        assert note.file == "b02.eml" and note.branch == "b02" and str(note.severity) == "warning"
        assert "《其余报名表.zip》、《报名表（WPS）.et》" in note.message and "没有读取" in note.message
        assert "请先解压" in note.message and "“另存为”Excel 工作簿" in note.message
        assert "请把每一份作为 .xlsx 附件直接发送" in note.message
        # the form's receipt: accepted, with the note among its reminders; no receipt for a bare mail
        mine = [_parse(m) for m in server.handler.messages if B02 in m.rcpt_tos]
        assert [p["Subject"] for p in mine] == ["【报名回执】行政第二分工会：已接受"]
        assert "请留意以下提醒" in _text(mine[0]) and "《其余报名表.zip》" in _text(mine[0])
        # a later night: information (the form beside them was taken; exit 1 for good otherwise)
        (folder / "inbox" / "note.txt").write_text("x")
        again = run(opts)
    finally:
        server.stop()
    assert [str(i.severity) for i in again.issues if i.code == "NO_ATTACHMENT"] == ["info"]


def test_a_cloud_drive_link_instead_of_the_attachment_is_named(tmp_path):
    """A 百度网盘 link, a QQ 邮箱超大附件: the form is on a server, which nothing downloads; the
    captain was only told the mail had no attachment, and sends the same link again."""
    folder = _league(tmp_path)
    _b02(folder)
    _mail(folder, "b02.eml", B02, "报名表", "Thu, 05 Nov 2020 16:32:10 +0800", message_id="<pan-b02@union.example.edu.cn>",
          body="报名表太大，用网盘发了：链接: https://pan.baidu.com/s/1AbCdEfG 提取码: 8k3d --来自百度网盘超级会员V3的分享")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = B05, "office@union.example.edu.cn", "报名表"
    msg["Date"], msg["Message-ID"] = "Thu, 05 Nov 2020 17:00:00 +0800", "<ftn-b05@union.example.edu.cn>"
    msg.set_content("附件")
    msg.add_alternative('<div>从QQ邮箱发来的超大附件</div><a href="https://mail.qq.com/cgi-bin/ftnExs_download?k=abc">'
                        "报名表.xlsx (25.1K)</a>", subtype="html")
    (folder / "inbox" / "b05-ftn.eml").write_bytes(bytes(msg))
    server = SmtpServer().start()
    try:
        report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW, smtp_url=server.url))
    finally:
        server.stop()
    notes = {i.file: i.message for i in report.issues if i.code == "NO_ATTACHMENT"}
    assert "邮件中是网盘/超大附件链接（百度网盘），系统不会下载链接中的文件，请把 .xlsx 作为普通附件直接发送" in notes["b02.eml"]
    assert "（QQ 邮箱超大附件）" in notes["b05-ftn.eml"]
    (r,) = [p for p in _bare(server.handler.messages) if p["To"] == B02]
    text = _text(r)
    assert "邮件中是网盘/超大附件链接（百度网盘），系统不会下载链接中的文件" in text
    assert "粘贴在邮件正文中" not in text


def test_an_archive_beside_a_workbook_sent_before_is_said_too(tmp_path):
    """The same with a workbook received before (the form sent again, a .zip beside it): the
    mail went down the resend's path, and the .zip was dropped without a word."""
    folder = _league(tmp_path)
    name, form = _b02(folder)
    _mail(folder, "b02.eml", B02, "报名表", "Thu, 05 Nov 2020 16:32:10 +0800", [(name, form)])
    _mail(folder, "b02-again.eml", B02, "报名表（再发一次，附其余）", "Fri, 06 Nov 2020 10:00:00 +0800",
          [(name, form), ("其余报名表.zip", b"PK\x03\x04zip")])
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    (note,) = [i for i in report.issues if i.code == "NO_ATTACHMENT"]
    assert note.file == "b02-again.eml" and note.branch == "b02" and "《其余报名表.zip》" in note.message
    assert [i.code for i in report.issues if i.file == "b02-again.eml"].count("DUPLICATE_FILE") == 1


def test_a_signed_scan_beside_the_workbook_is_a_note(tmp_path):
    """A scan or photo of the signed sheet beside the workbook (R2011-R1's signed result
    sheet) was a warning (exit 1) telling the sender to fill in the form he had sent."""
    folder = _league(tmp_path)
    name, form = _b02(folder)
    _mail(folder, "b02.eml", B02, "报名表", "Thu, 05 Nov 2020 16:32:10 +0800",
          [(name, form), ("报名表（盖章扫描件）.pdf", b"%PDF-1.4 scan"), ("签字.jpg", b"\xff\xd8\xff\xe0jpg")])
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    (note,) = [i for i in report.issues if i.code == "NO_ATTACHMENT"]
    assert str(note.severity) == "info" and not report.needs_attention
    assert "《报名表（盖章扫描件）.pdf》、《签字.jpg》" in note.message and "存档" in note.message
    assert "无法读取" not in note.message and "填写在组委会下发的表格中" not in note.message


def test_an_archive_beside_a_workbook_in_a_mail_saved_twice_is_said_once(tmp_path):
    """From a review: the second copy of a mail (the same Message-ID) took the resend's path
    and said its .zip again — two warnings, the form's receipt listing it twice."""
    folder = _league(tmp_path)
    name, form = _b02(folder)
    _mail(folder, "b02.eml", B02, "报名表", "Thu, 05 Nov 2020 16:32:10 +0800",
          [(name, form), ("其余报名表.zip", b"PK\x03\x04zip")], message_id="<zip2-b02@union.example.edu.cn>")
    raw = (folder / "inbox" / "b02.eml").read_bytes()
    (folder / "inbox" / "b02-saved.eml").write_bytes(b"Received: from mx by office; Thu, 05 Nov 2020 16:32:15 +0800\n" + raw)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    said = [i.file for i in report.issues if i.code == "NO_ATTACHMENT"]
    assert len(said) == 1 and said[0] in ("b02.eml", "b02-saved.eml"), said      # (its first copy's)


def test_winmail_dat_beside_a_workbook_taken_is_nothing_to_do(tmp_path):
    """NO_ATTACHMENT: an Outlook mail with a real .xlsx and winmail.dat (Outlook's formatting
    data) told the captain to change Outlook's mail format and resend the .xlsx — though the
    workbook was received and accepted (from an audit of mail intake).  It says the workbook
    was received and winmail.dat was not needed."""
    folder = _league(tmp_path)
    name, form = _b02(folder)
    _mail(folder, "b02.eml", B02, "报名表", "Thu, 05 Nov 2020 16:32:10 +0800",
          [(name, form), ("winmail.dat", b"\x78\x9f\x3e\x22" + b"\0" * 64)], headers={"X-Mailer": "Microsoft Outlook 16.0"})
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    (sub,) = [s for s in report.state.submissions if s.file == name]
    assert sub.status in ("current", "accepted")
    (note,) = [i for i in report.issues if i.code == "NO_ATTACHMENT"]
    assert note.file == "b02.eml" and note.branch == "b02"
    assert "Excel 工作簿已收取" in note.message and "《winmail.dat》" in note.message and "无需处理" in note.message
    assert "重新发送" not in note.message and "HTML 或纯文本" not in note.message and "直接发送" not in note.message
    # nothing to do, so a note on its first night too, as a scan beside the workbook is (from a
    # review: it was a warning that night — exit status 1 for a mail needing nothing)
    assert str(note.severity) == "info", note.severity
    assert not report.needs_attention, [(i.code, str(i.severity)) for i in report.issues if str(i.severity) != "info"]
