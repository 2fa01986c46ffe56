"""A receipt for a captain's mail that carried no workbook (NO_ATTACHMENT).

A captain who forgot the attachment, attached a .doc/.et/.zip or pasted the table into the
body got nothing back and believed the form was submitted.  Such a mail now gets one
receipt (needs_change) saying so and what to do — only when its sender is a registered
address, once, retried when sending failed — through the whole run (``league run --smtp``)
against a real SMTP server on loopback.
"""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import shutil
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from .conftest import STRANGER, Captured, SmtpServer, free_port

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2020, 11, 7, 9, 0, tzinfo=TZ)     # every sample form is in; before the deadline
B01, B02, B03, B04, B05 = ("xzyfgh@union.example.edu.cn", "xzefgh@union.example.edu.cn",
                           "jcjxbfgh@union.example.edu.cn", "jdgcxyfgh@union.example.edu.cn",
                           "qcgcxyfgh@union.example.edu.cn")
B11 = "ysjjyfgh@union.example.edu.cn"
FORGOT = "<forgot-b01@union.example.edu.cn>"


def _league(tmp: Path) -> Path:
    """The 2020 league's registration mails (11 units, each from its registered address)."""
    folder = tmp / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    shutil.rmtree(folder / "inbox-mistakes")
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    for p in (folder / "inbox").glob("1118-*"):
        p.unlink()
    return folder


def _mail(folder: Path, name: str, sender: str, subject: str, date: str, attachments=(), *,
          message_id: str = "", body: str = "报名表见附件。", headers: dict[str, str] | None = None) -> None:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "office@union.example.edu.cn"
    msg["Subject"] = subject
    msg["Date"] = date
    if message_id:
        msg["Message-ID"] = message_id
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body)
    for fname, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=fname)
    (folder / "inbox" / name).write_bytes(bytes(msg))


def _form_of(folder: Path, mail: str) -> tuple[str, bytes]:
    msg = email.message_from_bytes((folder / "inbox" / mail).read_bytes(), policy=email.policy.default)
    att = next(p for p in msg.iter_attachments() if (p.get_filename() or "").endswith(".xlsx"))
    return att.get_filename(), att.get_content()


def _parse(m: Captured) -> email.message.EmailMessage:
    return email.message_from_bytes(m.content, policy=email.policy.default)


def _text(m: email.message.EmailMessage) -> str:
    return m.get_body(("plain",)).get_content()


def _to(msgs: list[Captured], address: str) -> list[email.message.EmailMessage]:
    return [_parse(m) for m in msgs if address in m.rcpt_tos]


def _bare(msgs: list[Captured]) -> list[email.message.EmailMessage]:
    """The receipts that say a mail carried no workbook."""
    return [p for p in map(_parse, msgs) if "没有 Excel 表格" in p["Subject"]]


@dataclass
class Night:
    folder: Path
    report: object
    messages: list[Captured]


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> Night:
    """One night with the eleven forms and, besides them, these mails:

    b01  no attachment at all, after its form (11-04)           → one receipt, to b01
    b02  a .doc, a .zip and a .et instead of the workbook       → one receipt naming them
    b03  no attachment, but its form came later the same day     → none (the resend answered it)
    b04  an out-of-office auto-reply (Auto-Submitted)            → none (no auto-reply loops)
    b05  its form again, unchanged (DUPLICATE_FILE)              → none for that mail
    b11  the sample's legacy .xls                                → its workbook's receipt only
    a stranger, no attachment                                    → none
    """
    tmp = tmp_path_factory.mktemp("bare")
    folder = _league(tmp)
    _mail(folder, "b01-忘了附件.eml", B01, "行政第一分工会报名表", "Fri, 06 Nov 2020 20:00:00 +0800",
          message_id=FORGOT)
    _mail(folder, "b02-word.eml", "顾现伟 <XZEFGH@union.example.edu.cn>", "报名表（修改）",
          "Fri, 06 Nov 2020 21:00:00 +0800",
          [("行政第二分工会报名表.doc", b"\xd0\xcf\x11\xe0doc"), ("报名表.zip", b"PK\x03\x04zip"),
           ("报名表.et", b"\xd0\xcf\x11\xe0et")],
          message_id="<word-b02@union.example.edu.cn>")
    _mail(folder, "b03-早.eml", B03, "基础部报名表", "Fri, 06 Nov 2020 08:00:00 +0800")
    _mail(folder, "b04-auto.eml", B04, "自动回复: 第四届教职工棋牌联赛", "Fri, 06 Nov 2020 22:00:00 +0800",
          body="我正在休假，11 月 10 日回来。", headers={"Auto-Submitted": "auto-replied"})
    name, form = _form_of(folder, "1104-b05-报名表.eml")
    _mail(folder, "b05-again.eml", B05, "再发一次", "Fri, 06 Nov 2020 22:30:00 +0800", [(name, form)])
    shutil.copy(ROOT / "sample_sheets" / "t2020-league" / "inbox-mistakes" / "legacy-xls-b11.eml",
                folder / "inbox")
    _mail(folder, "stranger.eml", STRANGER, "报名表", "Fri, 06 Nov 2020 23:00:00 +0800")
    server = SmtpServer().start()
    try:
        report = run(RunOptions(folder=folder, out_parent=tmp / "out", pdf=False, now=NOW, smtp_url=server.url))
    finally:
        server.stop()
    return Night(folder, report, list(server.handler.messages))


def test_a_registered_captains_mail_without_attachment_gets_one_receipt(night):
    (r,) = [p for p in _bare(night.messages) if p["In-Reply-To"] == FORGOT]
    assert r["To"] == B01
    assert r["Subject"] == "【报名回执】行政第一分工会：邮件中没有 Excel 表格，请重新发送"
    assert r["References"] == FORGOT and r["Auto-Submitted"] == "auto-replied"
    text = _text(r)
    assert "2020-11-06 20:00" in text and "主题“行政第一分工会报名表”" in text
    assert "没有 Excel 工作簿（.xlsx）附件" in text and "没有提交任何表格" in text
    assert "请把填好的报名表（或成绩表）作为附件" in text and "重新发送" in text
    # its form received before stands, and a mail that was no submission may be ignored
    assert "此前收到的报名表《行政第一分工会-报名表.xlsx》（2020-11-04 18:23 收到）不受这封邮件影响" in text
    assert "请忽略本回执" in text
    assert not list(r.iter_attachments())
    [b01] = [c for c in night.messages if c.rcpt_tos == [B01] and "没有 Excel 表格" in _parse(c)["Subject"]]
    assert b01.mail_from == "office@union.example.cn"
    # the issue stays as it was
    assert [i.branch for i in night.report.issues if i.code == "NO_ATTACHMENT" and i.file == "b01-忘了附件.eml"] == ["b01"]


def test_the_receipt_names_what_was_attached_instead(night):
    (r,) = [p for p in _bare(night.messages) if p["In-Reply-To"] == "<word-b02@union.example.edu.cn>"]
    assert r["To"] == B02                         # the registered address, as registered (not as typed)
    text = _text(r)
    assert "《行政第二分工会报名表.doc》、《报名表.zip》、《报名表.et》不是 Excel 工作簿（.xlsx）" in text
    # what to do with each kind: a .et saved as .xlsx, a Word file's table filled into the
    # issued form, a zip unpacked
    assert "“另存为”Excel 工作簿（*.xlsx）" in text
    assert "Word 文档（.doc）" in text and "下发的表格" in text and "保存为 .xlsx" in text
    assert "请先解压" in text and "直接作为附件" in text
    # a legacy .xls is read (as unreadable): its mail gets that workbook's receipt, which names
    # it and says to save it as .xlsx — and no second receipt
    b11 = _to(night.messages, B11)
    assert sorted(p["Subject"] for p in b11) == ["【报名回执】艺术设计与教育分工会：已接受",
                                                 "【报名回执】艺术设计与教育分工会：文件无法读取，请另存为 .xlsx 后重新发送"]
    (xls,) = [p for p in b11 if "无法读取" in p["Subject"]]
    assert "《艺术设计与教育分工会-报名表.xls》" in _text(xls) and "另存为 .xlsx" in _text(xls)


def test_no_receipt_for_a_stranger_an_auto_reply_or_a_mail_answered_by_a_later_form(night):
    everyone = {a for m in night.messages for a in m.rcpt_tos}
    assert STRANGER not in everyone
    assert sorted(p["To"] for p in _bare(night.messages)) == sorted([B01, B02])
    for who in (B03, B04):       # each only its form's receipt
        assert [p["Subject"] for p in _to(night.messages, who)] == [
            "【报名回执】基础教学部分工会：已接受" if who == B03 else "【报名回执】机电工程学院分工会：已接受"]
    codes = {i.file: i.code for i in night.report.issues if i.code == "NO_ATTACHMENT"}
    assert set(codes) == {"b01-忘了附件.eml", "b02-word.eml", "b03-早.eml", "stranger.eml"}
    # the out-of-office reply is an info note, no warning asking the captain to resend
    assert [(i.code, str(i.severity)) for i in night.report.issues if i.file == "b04-auto.eml"] == [
        ("AUTO_REPLY", "info")]


def test_a_mail_with_a_workbook_gets_only_its_workbook_receipt(night):
    subs = night.report.state.submissions
    assert len(night.messages) == len(subs) + 2            # every form's receipt, and b01's and b02's
    for who in (B05,):       # its form mailed twice (DUPLICATE_FILE): one receipt, the form's
        assert [p["Subject"] for p in _to(night.messages, who)] == ["【报名回执】汽车工程学院分工会：已接受"]
    replied = [p["In-Reply-To"] for p in map(_parse, night.messages)]
    assert len(replied) == len(set(replied))                 # one receipt per captain's mail
    assert "<998e611b2a88f40d@union.example.edu.cn>" in replied    # b05's registration mail


def test_sent_once_across_nights_and_retried_when_sending_failed(tmp_path):
    folder = _league(tmp_path)
    _mail(folder, "b01-忘了附件.eml", B01, "报名表", "Fri, 06 Nov 2020 20:00:00 +0800", message_id=FORGOT)
    server = SmtpServer(port=free_port())                   # nothing listens there yet
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW, smtp_url=server.url)
    first = run(opts)
    assert any("失败 12 封" in s for s in first.mail) and first.needs_attention   # 11 forms and the bare mail
    server.start()
    try:
        run(opts)                                           # an unchanged night: sent from the outbox
        assert len(_bare(server.handler.messages)) == 1 and len(server.handler.messages) == 12
        run(opts)
        assert len(server.handler.messages) == 12
        # a changed night builds every receipt again: the bare mail's is not sent twice
        _mail(folder, "b02-忘了附件.eml", B02, "报名", "Fri, 06 Nov 2020 21:00:00 +0800")
        third = run(opts)
        assert not third.unchanged
        bare = _bare(server.handler.messages)
        assert sorted(p["To"] for p in bare) == sorted([B01, B02]) and len(server.handler.messages) == 13
    finally:
        server.stop()


def test_a_failed_receipt_answered_since_by_the_units_form_is_not_sent_later(tmp_path):
    """Night 1 the server is down: the "no workbook" receipt fails.  Night 2 the captain's
    form comes: that receipt is no longer due, and is cancelled — an unchanged night 3
    (resend_pending) sent it, telling a captain whose form was accepted to send it again."""
    import io

    from openpyxl import load_workbook

    from pipeline import layout
    from pipeline.store import Ledger

    folder = _league(tmp_path)
    _mail(folder, "b01-忘了附件.eml", B01, "报名表", "Fri, 06 Nov 2020 20:00:00 +0800", message_id=FORGOT)
    server = SmtpServer(port=free_port())          # not started: down on night 1
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW, smtp_url=server.url)
    run(opts)
    name, data = _form_of(folder, "1104-b01-报名表.eml")
    wb = load_workbook(io.BytesIO(data))
    cell = next(c for row in wb[layout.REG_SHEET].iter_rows() for c in row
                if isinstance(c.value, str) and c.value.isdigit() and len(c.value) == 11)
    cell.value = "13900000000"
    buf = io.BytesIO()
    wb.save(buf)
    _mail(folder, "b01-补发.eml", B01, "报名表（补发）", "Fri, 06 Nov 2020 21:00:00 +0800", [(name, buf.getvalue())])
    server.start()
    try:
        run(opts)
        third = run(opts)                             # nothing new: the failed ones are retried
        assert third.unchanged
        assert not _bare(server.handler.messages)
        with Ledger(tmp_path / "out" / "t2020-league") as led:
            assert led.conn.execute("SELECT status FROM receipts WHERE to_addr=? AND status != 'sent'",
                                    (B01.lower(),)).fetchall() == [("cancelled",)]
    finally:
        server.stop()
