"""Mail that is no captain's submission: a bounce of one of our receipts, our own receipt
back in the inbox, an out-of-office reply, a captain's "收到，谢谢" to a receipt.

Contract, Command line: ``league run`` takes the ``.eml`` files in the inbox, "taking their
``.xlsx`` attachments"; the received time of a workbook is its e-mail's ``Date``; exit status
1 means some input needs attention.  A bounced receipt carries our own marked-up copy of the
captain's form: it was taken in as that unit's newest form (time = the receipt's Date,
sender = the office: SENDER_UNKNOWN), superseded the captain's real form, and was answered
with a receipt of its own (``…-已标注问题-已标注问题.xlsx``) — every night the address
bounced.  An out-of-office reply or a reply to a receipt was NO_ATTACHMENT, a warning asking
the captain to resend, which held the unit's page at 已接受（有警告） and the exit status at 1
every night after.  Both through the whole run against a real SMTP server on loopback.
"""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import io
from email.message import EmailMessage
from pathlib import Path

import pytest

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from .conftest import SmtpServer
from .test_receipt_no_workbook import B01, B02, B03, B04, B05, _form_of, _league, _mail, _parse

NIGHT1 = dt.datetime(2020, 11, 8, 20, 0, tzinfo=TZ)      # before the deadline (11-09 15:00)
NIGHT2 = dt.datetime(2020, 11, 8, 23, 0, tzinfo=TZ)
NIGHT3 = dt.datetime(2020, 11, 9, 1, 0, tzinfo=TZ)
OFFICE = "office@union.example.cn"          # conftest.SmtpServer's From


def _with_an_error(data: bytes) -> bytes:
    """The form with a note in its first row's 姓名 (吕宁桂（队长）: BAD_VALUE, the one problem)."""
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(data))
    ws = wb["报名表"]
    cell = next(c for row in ws.iter_rows() for c in row if c.value == "姓名")
    below = ws.cell(row=cell.row + 1, column=cell.column)
    below.value = f"{below.value}（队长）"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _forward(sender: str, subject: str, date: str, body: str, attached: email.message.Message) -> EmailMessage:
    """A mail to the office forwarding ``attached`` as an attachment (转发为附件)."""
    fwd = EmailMessage()
    fwd["From"] = sender
    fwd["To"] = "office@union.example.edu.cn"
    fwd["Subject"] = subject
    fwd["Date"] = date
    fwd.set_content(body)
    fwd.add_attachment(attached)
    return fwd


def _night(folder: Path, out: Path, now: dt.datetime):
    server = SmtpServer().start()
    try:
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now, smtp_url=server.url))
    finally:
        server.stop()
    return report, [_parse(m) for m in server.handler.messages]


def _bounce_of(receipt: email.message.EmailMessage, *, delivery_status: bool) -> bytes:
    """A mail server's delivery-failure report (RFC 3464) holding ``receipt`` whole."""
    ndr = EmailMessage()
    ndr["From"] = "MAILER-DAEMON@union.example.edu.cn"
    ndr["To"] = OFFICE
    ndr["Subject"] = "Undelivered Mail Returned to Sender"
    ndr["Date"] = "Sun, 08 Nov 2020 22:00:00 +0800"
    ndr["Auto-Submitted"] = "auto-replied"
    ndr["Message-ID"] = "<ndr1@union.example.edu.cn>"
    ndr.set_content("This is the mail system at host union.example.edu.cn. Your message could not be delivered.")
    if delivery_status:
        ds = email.message_from_string(
            "Content-Type: message/delivery-status\n\nReporting-MTA: dns; union.example.edu.cn\n\n"
            f"Final-Recipient: rfc822; {B01}\nAction: failed\nStatus: 5.2.2\n"
            "Diagnostic-Code: smtp; 552 5.2.2 mailbox full\n", policy=email.policy.default)
        ndr.make_mixed()
        ndr.attach(ds)
    ndr.add_attachment(receipt)       # message/rfc822
    return ndr.as_bytes().replace(b"multipart/mixed", b"multipart/report; report-type=delivery-status", 1)


def _b01_with_an_error(folder: Path) -> str:
    """b01's sample form replaced by one with an error (its receipt carries a marked-up copy)."""
    name, form = _form_of(folder, "1104-b01-报名表.eml")
    (folder / "inbox" / "1104-b01-报名表.eml").unlink()
    _mail(folder, "b01-bad.eml", B01, "报名表", "Sun, 08 Nov 2020 10:00:00 +0800", [(name, _with_an_error(form))],
          message_id="<bad-b01@union.example.edu.cn>")
    return name


def _submissions(report, branch: str) -> list:
    return sorted((s for s in report.state.submissions if s.branch == branch), key=lambda s: s.received)


@pytest.mark.parametrize("delivery_status", [False, True], ids=["receipt-only", "with-delivery-status"])
def test_contract_eml_attachments_a_bounced_receipt_is_no_submission_and_no_loop(tmp_path, delivery_status):
    folder = _league(tmp_path)
    out = tmp_path / "out"
    name = _b01_with_an_error(folder)
    report, sent = _night(folder, out, NIGHT1)
    (receipt,) = [m for m in sent if m["To"] == B01]
    assert [a.get_filename() for a in receipt.iter_attachments()] == ["行政第一分工会-报名表-已标注问题.xlsx"]
    before = [(s.file, s.status, s.sender) for s in _submissions(report, "b01")]
    assert before == [(name, "accepted", B01)]

    (folder / "inbox" / "ndr.eml").write_bytes(_bounce_of(receipt, delivery_status=delivery_status))
    report, sent = _night(folder, out, NIGHT2)
    # our marked-up copy is no form of b01's: the captain's form stays in force, nothing is sent
    assert [(s.file, s.status, s.sender) for s in _submissions(report, "b01")] == before
    assert sent == []
    assert not [i for i in report.issues if i.code == "SENDER_UNKNOWN" or "已标注问题" in i.file]
    # the mail itself is kept, and said: whom the receipt did not reach (info), and — that
    # night — that a registered address bounced (warning, for the office)
    said = {i.code: i for i in report.issues if i.file == "ndr.eml"}
    assert set(said) == {"MAIL_BOUNCED", "ADDRESS_BOUNCED"}
    assert str(said["MAIL_BOUNCED"].severity) == "info" and str(said["ADDRESS_BOUNCED"].severity) == "warning"
    assert said["MAIL_BOUNCED"].message.startswith("退信：")
    assert f"发给 {B01} 的邮件（主题“【报名回执】行政第一分工会：需修改" in said["MAIL_BOUNCED"].message
    assert "《行政第一分工会-报名表-已标注问题.xlsx》" in said["MAIL_BOUNCED"].message
    assert B01 in said["ADDRESS_BOUNCED"].message and "emails" in said["ADDRESS_BOUNCED"].message
    if delivery_status:
        assert "mailbox full" in said["MAIL_BOUNCED"].message
    assert said["ADDRESS_BOUNCED"].branch == "b01"
    kept = [p for p in out.rglob("*.eml") if p.read_bytes() == (folder / "inbox" / "ndr.eml").read_bytes()]
    assert kept, "the bounce is kept among the received files"

    # the next nights: no receipt, no new form, the bounce an info note only
    for now in (NIGHT3, NIGHT3 + dt.timedelta(minutes=5)):
        report, sent = _night(folder, out, now)
        assert sent == []
        assert [(s.file, s.status) for s in _submissions(report, "b01")] == [(name, "accepted")]
        assert [i.code for i in report.issues if i.file == "ndr.eml"] in (["MAIL_BOUNCED"], [])
        assert "ADDRESS_BOUNCED" not in {i.code for i in report.issues}


def test_contract_eml_attachments_a_form_forwarded_as_an_attachment_still_counts(tmp_path):
    """A captain forwarding their own form's mail as an attachment (转发为附件, message/rfc822):
    the form counts, with the captain's mail's Date and sender (contract: received time)."""
    folder = _league(tmp_path)
    out = tmp_path / "out"
    original = email.message_from_bytes((folder / "inbox" / "1106-b02-报名表.eml").read_bytes(),
                                        policy=email.policy.default)
    name, form = _form_of(folder, "1106-b02-报名表.eml")
    (folder / "inbox" / "1106-b02-报名表.eml").unlink()
    fwd = _forward("someone.else@example.com", "Fw: 报名表", "Sun, 08 Nov 2020 19:00:00 +0800", "转发给组委会。", original)
    (folder / "inbox" / "fwd.eml").write_bytes(bytes(fwd))
    report, sent = _night(folder, out, NIGHT1)
    (sub,) = _submissions(report, "b02")
    assert (sub.file, sub.status, sub.sender) == (name, "accepted", B02)
    assert sub.received == email.utils.parsedate_to_datetime(original["Date"])
    assert not [i for i in report.issues if i.code in ("MAIL_BOUNCED", "OWN_MAIL", "AUTO_REPLY")]
    assert [m["Subject"] for m in sent if m["To"] == B02] == ["【报名回执】行政第二分工会：已接受"]


def test_contract_exit_status_an_auto_reply_or_a_reply_to_a_receipt_is_no_warning_and_gets_no_receipt(tmp_path):
    folder = _league(tmp_path)
    out = tmp_path / "out"
    report, sent = _night(folder, out, NIGHT1)
    assert not report.needs_attention
    (to_b02,) = [m for m in sent if m["To"] == B02]
    _mail(folder, "ooo.eml", B01, "自动回复: 【报名回执】行政第一分工会：已接受", "Sun, 08 Nov 2020 20:01:00 +0800",
          body="我正在休假", headers={"Auto-Submitted": "auto-replied"})
    _mail(folder, "thanks.eml", B02, "Re: 【报名回执】行政第二分工会：已接受", "Sun, 08 Nov 2020 21:01:00 +0800",
          body="收到，谢谢", headers={"In-Reply-To": to_b02["Message-ID"], "References": to_b02["Message-ID"]})
    # an auto-reply quoting the unit's form back: what it answers, no new form
    _mail(folder, "ooo-form.eml", B01, "Auto: 报名表", "Sun, 08 Nov 2020 20:02:00 +0800",
          [_form_of(folder, "1104-b01-报名表.eml")], headers={"Auto-Submitted": "auto-replied"})
    for now in (NIGHT2, NIGHT3):           # the night they arrive, and every night after
        report, sent = _night(folder, out, now)
        assert not report.needs_attention, [i.row() for i in report.issues if str(i.severity) != "info"]
        assert sent == []
        assert [s.file for s in _submissions(report, "b01")] == ["行政第一分工会-报名表.xlsx"]
        said = {i.file: (i.code, str(i.severity)) for i in report.issues
                if i.file in ("ooo.eml", "thanks.eml", "ooo-form.eml")}
        assert said in ({"ooo.eml": ("AUTO_REPLY", "info"), "thanks.eml": ("AUTO_REPLY", "info"),
                         "ooo-form.eml": ("AUTO_REPLY", "info")}, {})
        assert not [i for i in report.issues if i.code == "NO_ATTACHMENT"]
    # a reply to a receipt that carries a corrected form is a form like any other
    name, form = _form_of(folder, "1106-b02-报名表.eml")
    _mail(folder, "reply-form.eml", B02, "Re: 【报名回执】行政第二分工会：已接受", "Mon, 09 Nov 2020 08:00:00 +0800",
          [(name, _with_an_error(form))], headers={"In-Reply-To": to_b02["Message-ID"]})
    report, sent = _night(folder, out, NIGHT3 + dt.timedelta(hours=8))
    assert [s.status for s in _submissions(report, "b02")] == ["superseded", "accepted"]
    assert [m["Subject"] for m in sent] == ["【报名回执】行政第二分工会：需修改（1 个问题）"]


def test_contract_eml_attachments_our_receipt_forwarded_by_a_captain_is_no_form(tmp_path):
    """A captain forwarding our receipt (a question about it) as an attachment: the marked-up
    copy inside is ours, not a new form — info (OWN_MAIL), no NO_ATTACHMENT receipt."""
    folder = _league(tmp_path)
    out = tmp_path / "out"
    _b01_with_an_error(folder)
    report, sent = _night(folder, out, NIGHT1)
    (receipt,) = [m for m in sent if m["To"] == B01]
    assert [a.get_filename() for a in receipt.iter_attachments()] == ["行政第一分工会-报名表-已标注问题.xlsx"]
    fwd = _forward(B01, "Fw: 【报名回执】行政第一分工会：需修改（1 个问题）", "Sun, 08 Nov 2020 21:00:00 +0800",
                   "请问这个回执是什么意思？", receipt)
    (folder / "inbox" / "fwd-receipt.eml").write_bytes(bytes(fwd))
    report, sent = _night(folder, out, NIGHT2)
    assert sent == []
    assert [(s.file, s.status) for s in _submissions(report, "b01")] == [("行政第一分工会-报名表.xlsx", "accepted")]
    assert [(i.code, str(i.severity)) for i in report.issues if i.file == "fwd-receipt.eml"] == [("OWN_MAIL", "info")]


def _corrected(marked: bytes) -> bytes:
    """The marked-up copy with its one problem put right by the captain (the note （队长）
    taken out of the 姓名 cell): different bytes from the copy we returned."""
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(marked))
    ws = wb["报名表"]
    cell = next(c for row in ws.iter_rows() for c in row if isinstance(c.value, str) and c.value.endswith("（队长）"))
    cell.value = cell.value.removesuffix("（队长）")
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_contract_eml_attachments_our_marked_copy_forwarded_inline_is_no_form_and_loses_nothing(tmp_path):
    """Night 1: b01's form has an error; its receipt carries our marked-up copy.  Night 2: the
    captain corrects the marked copy and sends it back — accepted.  Night 3 (before the
    deadline): the captain forwards the night-1 receipt inline (转发: QQ/Foxmail/Outlook keep
    its attachment) to ask about it.  The attachment is byte for byte the copy we returned:
    no form (it superseded the corrected one, its error back, exit 1) — an OWN_MAIL note at
    the attachment says it is the copy returned on night 1, and no receipt goes back.
    The same copy put into the inbox by hand is no form either."""
    folder = _league(tmp_path)
    out = tmp_path / "out"
    name = _b01_with_an_error(folder)
    report, sent = _night(folder, out, NIGHT1)
    (receipt,) = [m for m in sent if m["To"] == B01]
    (att,) = list(receipt.iter_attachments())
    marked_name, marked = att.get_filename(), att.get_content()
    assert marked_name == "行政第一分工会-报名表-已标注问题.xlsx"
    _mail(folder, "b01-fixed.eml", B01, "回复：" + receipt["Subject"], "Sun, 08 Nov 2020 22:00:00 +0800",
          [(marked_name, _corrected(marked))], message_id="<fixed-b01@union.example.edu.cn>",
          body="已修改", headers={"In-Reply-To": receipt["Message-ID"]})
    report, sent = _night(folder, out, NIGHT2)
    assert [s.status for s in _submissions(report, "b01")] == ["superseded", "accepted"]
    assert not report.needs_attention, [i.row() for i in report.issues if str(i.severity) != "info"]
    entries = sorted(e.id for e in report.state.entries if e.branch == "b01")
    assert entries

    def kept(now):
        """A night that sends nothing and keeps the corrected form, its entries, exit 0."""
        report, sent = _night(folder, out, now)
        assert sent == []
        assert [(s.file, s.status) for s in _submissions(report, "b01")] == [(name, "superseded"),
                                                                             (marked_name, "accepted")]
        assert sorted(e.id for e in report.state.entries if e.branch == "b01") == entries
        assert not report.needs_attention, [i.row() for i in report.issues if str(i.severity) != "info"]
        return report

    # night 3: an inline forward (no message/rfc822, no receipt Message-ID) with the copy attached
    _mail(folder, "b01-question.eml", B01, "转发：" + receipt["Subject"], "Mon, 09 Nov 2020 00:30:00 +0800",
          [(marked_name, marked)], message_id="<question-b01@union.example.edu.cn>",
          body="成老师，这个问题我们已经改过了吧？\n\n------------------ 原始邮件 ------------------\n"
               f"主题: {receipt['Subject']}\n已收到贵分工会的报名表……")
    report = kept(NIGHT3)
    (note,) = [i for i in report.issues if i.code == "OWN_MAIL"]
    assert (note.file, note.branch, str(note.severity)) == (marked_name, "b01", "info")
    assert "11月8日 20:00" in note.message and "退回" in note.message and "重新" in note.message, note.message
    # the same copy saved into the inbox by hand (the office, or a captain's USB stick)
    (folder / "inbox" / "b01-从回执另存.xlsx").write_bytes(marked)
    report = kept(NIGHT3 + dt.timedelta(hours=1))
    assert sorted(i.file for i in report.issues if i.code == "OWN_MAIL") == ["b01-从回执另存.xlsx", marked_name]
    # the corrected form's own returned copy, put into the inbox (its first receipt): no form
    # either — also for a ledger of a version that did not record the copies (taken from returned/)
    import sqlite3

    current = _submissions(report, "b01")[-1]
    (copy,) = (out / "t2020-league" / "returned").glob(f"b01-*-{current.sha256[:8]}-返回.xlsx")
    (folder / "inbox" / "b01-返回副本.xlsx").write_bytes(copy.read_bytes())
    with sqlite3.connect(out / "t2020-league" / "ledger.sqlite") as db:
        db.execute("DELETE FROM own_copies WHERE name=?", (copy.name,))
    report = kept(NIGHT3 + dt.timedelta(hours=2))
    assert sorted(i.file for i in report.issues if i.code == "OWN_MAIL") == ["b01-从回执另存.xlsx", "b01-返回副本.xlsx",
                                                                            marked_name]


def _delay_notice(receipt: email.message.EmailMessage) -> bytes:
    """A Postfix delay warning (RFC 3464 ``Action: delayed``, 4.4.1) about ``receipt``,
    returning its headers only: the server is still retrying."""
    head = "".join(f"{k}: {v}\r\n" for k, v in receipt.items() if k in ("From", "To", "Subject", "Message-ID"))
    return ("From: MAILER-DAEMON@union.example.edu.cn (Mail Delivery System)\r\nTo: office@union.example.cn\r\n"
            "Subject: Delayed Mail (still being retried)\r\nDate: Sun, 08 Nov 2020 22:00:00 +0800\r\n"
            "Message-ID: <delay1@union.example.edu.cn>\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/report; report-type=delivery-status; boundary=\"B1\"\r\n\r\n"
            "--B1\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n"
            "# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #\r\n\r\n"
            "--B1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; union.example.edu.cn\r\n\r\n"
            f"Final-Recipient: rfc822; {B01}\r\nAction: delayed\r\nStatus: 4.4.1\r\n"
            "Diagnostic-Code: X-Postfix; connect to mail2[10.0.0.9]:25: Connection timed out\r\n\r\n"
            "--B1\r\nContent-Type: text/rfc822-headers\r\n\r\n" + head + "\r\n--B1--\r\n").encode()


def test_contract_exit_status_a_delay_notice_a_subject_only_auto_reply_or_a_comma_in_from_is_said_right(tmp_path):
    """Exit status 1 means some input needs attention.  A delay warning (``Action: delayed``,
    the server still retrying) was ADDRESS_BOUNCED, a warning; out-of-office replies known by
    their subject only (【自动回复】, 自動回覆：, 自动应答：) were NO_ATTACHMENT warnings and got
    a receipt asking for the form again; a captain writing ``From: Li, Jia <…>`` was a stranger
    "li" (SENDER_UNKNOWN), and his mail without a form got no receipt."""
    folder = _league(tmp_path)
    out = tmp_path / "out"
    name = _b01_with_an_error(folder)
    report, sent = _night(folder, out, NIGHT1)
    (receipt,) = [m for m in sent if m["To"] == B01]
    (folder / "inbox" / "delay.eml").write_bytes(_delay_notice(receipt))
    for i, (sender, subject) in enumerate([(B01, "【自动回复】【报名回执】行政第一分工会：需修改（1 个问题）"),
                                           (B04, "自動回覆：【报名回执】机电工程学院分工会：已接受"),
                                           (B05, "自动应答：【报名回执】汽车工程学院分工会：已接受")]):
        _mail(folder, f"ooo{i}.eml", sender, subject, f"Sun, 08 Nov 2020 20:3{i}:00 +0800",
              body="您好，我正在休假，11月15日返回，急事请联系办公室。")
    raw = (f"From: Li, Jia <{B03}>\r\nTo: office@union.example.edu.cn\r\nSubject: baoming\r\n"
           "Date: Sun, 08 Nov 2020 21:00:00 +0800\r\nMessage-ID: <comma@x>\r\n\r\nplease see attachment\r\n")
    (folder / "inbox" / "comma.eml").write_bytes(raw.encode())

    report, sent = _night(folder, out, NIGHT2)
    said = {i.file: (i.code, str(i.severity), i.branch) for i in report.issues
            if i.file in ("delay.eml", "ooo0.eml", "ooo1.eml", "ooo2.eml")}
    assert said == {"delay.eml": ("AUTO_REPLY", "info", "b01"), "ooo0.eml": ("AUTO_REPLY", "info", "b01"),
                    "ooo1.eml": ("AUTO_REPLY", "info", "b04"), "ooo2.eml": ("AUTO_REPLY", "info", "b05")}
    (delay,) = [i for i in report.issues if i.file == "delay.eml"]
    assert "延迟投递通知" in delay.message and B01 in delay.message and "不是退信" in delay.message
    assert "【报名回执】行政第一分工会：需修改" in delay.message
    assert not [i for i in report.issues if i.code in ("ADDRESS_BOUNCED", "MAIL_BOUNCED", "SENDER_UNKNOWN")]
    # the captain's mail without a form: b03's, with the receipt saying so — and nothing else
    (bare,) = [i for i in report.issues if i.code == "NO_ATTACHMENT"]
    assert (bare.file, bare.branch) == ("comma.eml", "b03") and B03 in bare.message
    assert [(m["To"], "没有 Excel 表格" in m["Subject"]) for m in sent] == [(B03, True)]
    assert [(s.file, s.status) for s in _submissions(report, "b01")] == [(name, "accepted")]
