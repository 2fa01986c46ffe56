"""What a mail says about itself: a workbook sent twice, attachments that are no workbook, a
Date header that cannot be read (each once seen as 'no attachment', or not at all)."""
from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from pipeline.ingest.eml import parse_eml_bytes
from email.message import EmailMessage

from mailedit import league_2020, send_mail

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

NAME = "行政第一分工会-报名表.xlsx"
NOW = dt.datetime(2020, 11, 5, 9, 0, tzinfo=TZ)


def _league(tmp_path: Path) -> tuple[Path, bytes]:
    return league_2020(tmp_path)


def _mail(folder: Path, name: str, attachments: list[tuple[str, bytes]], date: str = "Wed, 04 Nov 2020 18:30:00 +0800"):
    send_mail(folder, name, attachments, date)


def _issues(tmp_path: Path, folder: Path) -> list[dict[str, str]]:
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def test_parse_takes_a_workbook_that_lost_its_extension_and_lists_what_is_no_workbook(tmp_path):
    folder, form = _league(tmp_path)
    _mail(folder, "x.eml", [("b01报名表", form), ("b01报名表.et", b"\xd0\xcf\x11\xe0" + b"\0" * 60),
                            ("报名表.zip", b"PK\x03\x04zip")])
    m = parse_eml_bytes((folder / "inbox" / "x.eml").read_bytes())
    assert [a.filename for a in m.attachments] == ["b01报名表.xlsx"]
    assert m.skipped == ("b01报名表.et", "报名表.zip")


def test_a_workbook_sent_twice_is_one_and_its_second_mail_is_not_without_attachment(tmp_path):
    folder, form = _league(tmp_path)
    _mail(folder, "again.eml", [(NAME, form)], date="Thu, 05 Nov 2020 08:00:00 +0800")
    found = _issues(tmp_path, folder)
    assert not [i for i in found if i["code"] == "NO_ATTACHMENT"]
    (dup,) = [i for i in found if i["code"] == "DUPLICATE_FILE"]
    assert dup["file"] == "again.eml" and dup["severity"] == "info" and "内容完全相同" in dup["message"]
    assert "收到时间以最初的一次为准" in dup["message"] and "任意修改" in dup["message"]   # how to go back to it


def test_an_attachment_that_is_no_workbook_is_named_with_what_to_do(tmp_path):
    folder, _ = _league(tmp_path)
    _mail(folder, "et.eml", [("b01报名表.et", b"\xd0\xcf\x11\xe0" + b"\0" * 60)])
    (no,) = [i for i in _issues(tmp_path, folder) if i["code"] == "NO_ATTACHMENT"]
    assert "《b01报名表.et》" in no["message"] and "另存为" in no["message"]
    assert no["branch"] == "b01"        # its sender is b01's registered address: on b01's page
    assert "主题“报名表”" in no["message"]      # a mail --imap stored as <hash>.eml is named by its subject too


def test_an_unreadable_date_header_is_said_since_it_decides_the_deadline(tmp_path):
    folder, form = _league(tmp_path)
    _mail(folder, "d.eml", [("b01-v2.xlsx", form)])
    p = folder / "inbox" / "d.eml"     # a Date header without its year (2020年11月8日 09:00 is read)
    p.write_bytes(p.read_bytes().replace(b"Wed, 04 Nov 2020 18:30:00 +0800", "11月8日 09:00".encode()))
    (note,) = [i for i in _issues(tmp_path, folder) if i["code"] == "MAIL_DATE"]
    assert note["file"] == "d.eml" and "“11月8日 09:00”无法识别" in note["message"] and note["severity"] == "warning"


def test_a_date_after_the_mail_file_itself_is_not_believed(tmp_path):
    """A phone whose clock is a year ahead: its Date made an on-time form late.  A mail
    cannot have been sent after its file was saved: the file's time counts, and MAIL_DATE
    says why (the deadline is judged by it)."""
    import os

    folder, form = _league(tmp_path)
    _mail(folder, "ahead.eml", [("b01-v2.xlsx", form)], date="Thu, 04 Nov 2021 10:00:00 +0800")
    saved = dt.datetime(2020, 11, 4, 10, 0, tzinfo=TZ).timestamp()
    os.utime(folder / "inbox" / "ahead.eml", (saved, saved))
    found = _issues(tmp_path, folder)
    (note,) = [i for i in found if i["code"] == "MAIL_DATE"]
    assert note["file"] == "ahead.eml" and "2021-11-04 10:00" in note["message"] and "2020-11-04 10:00" in note["message"]
    assert not [i for i in found if i["code"] == "LATE_SUBMISSION"]


def test_a_form_forwarded_as_an_attachment_keeps_its_own_mails_time_and_sender(tmp_path):
    """The captain mailed the union officer at 14:30; the officer forwarded the mail as an
    attachment (转发为附件) to the league's mailbox at 16:00, after the 15:00 deadline.  The
    form took the forward's time and sender: late, from a stranger.  It takes the
    captain's mail's now."""
    import datetime as dt_

    from pipeline.run import RunOptions, run

    folder, form = _league(tmp_path)
    (folder / "inbox" / "1104-b01-报名表.eml").unlink()
    inner = EmailMessage()
    inner["From"] = "庞雪平 <xzyfgh@union.example.edu.cn>"
    inner["Subject"] = "报名表"
    inner["Date"] = "Mon, 09 Nov 2020 14:30:00 +0800"
    inner.set_content("见附件")
    inner.add_attachment(form, maintype="application", subtype="octet-stream", filename=NAME)
    outer = EmailMessage()
    outer["From"] = "chengjie@union.example.edu.cn"
    outer["Subject"] = "转发：报名表"
    outer["Date"] = "Mon, 09 Nov 2020 16:00:00 +0800"
    outer.set_content("转发")
    outer.add_attachment(inner)
    (folder / "inbox" / "fwd.eml").write_bytes(bytes(outer))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt_.datetime(2020, 11, 9, 20, 0, tzinfo=TZ)))
    with open(report.out_dir / "data" / "issues.csv", encoding="utf-8-sig") as f:
        found = [r for r in csv.DictReader(f) if r["branch"] == "b01"]
    assert not [r for r in found if r["code"] in ("LATE_SUBMISSION", "SENDER_UNKNOWN")], found
    (sub,) = [s for s in report.state.submissions if s.branch == "b01"]
    assert sub.received == dt_.datetime(2020, 11, 9, 14, 30, tzinfo=TZ) and sub.sender == "xzyfgh@union.example.edu.cn"
    assert [e for e in report.state.entries if e.branch == "b01"]


def test_a_mail_in_another_format_is_told_to_be_saved_as_eml(tmp_path):
    """A Foxmail/Thunderbird .mbox export or an Outlook .msg: "not an Excel workbook, use the
    form we sent" — but it is a mail whose attachment was never read."""
    folder, form = _league(tmp_path)
    _mail(folder, "x.eml", [("b01-v2.xlsx", form)])
    mbox = b"From xzyfgh@union.example.edu.cn Wed Nov  4 18:30:00 2020\n" + (folder / "inbox" / "x.eml").read_bytes()
    (folder / "inbox" / "x.eml").unlink()
    (folder / "inbox" / "导出.mbox").write_bytes(mbox)
    (folder / "inbox" / "报名.msg").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100)
    found = [i for i in _issues(tmp_path, folder) if i["code"] == "UNREADABLE_FILE"]
    said = {i["file"]: i["message"] for i in found}
    assert "像是邮件" in said["导出.mbox"] and ".eml" in said["导出.mbox"]
    assert "像是邮件" in said["报名.msg"]


def test_a_mails_problem_is_history_once_the_units_form_is_in_or_its_night_is_past(tmp_path):
    """A unit's mail carrying winmail.dat, then its good form: NO_ATTACHMENT stayed a warning
    (exit status 1) every night after; a mail with an unreadable Date likewise, though nothing
    was left to do (from an audit of mail intake)."""
    import os

    folder, _ = _league(tmp_path)
    _mail(folder, "tnef.eml", [("winmail.dat", b"\x78\x9f\x3e\x22" + b"\0" * 40)], date="Tue, 03 Nov 2020 18:00:00 +0800")
    _mail(folder, "d.eml", [("b02-报名表.xlsx", b"")])          # (no workbook: NO_ATTACHMENT)
    early = dt.datetime(2020, 11, 3, 18, 0, tzinfo=TZ).timestamp()
    os.utime(folder / "inbox" / "tnef.eml", (early, early))
    found = {i["file"]: i for i in _issues(tmp_path, folder) if i["code"] == "NO_ATTACHMENT"}
    assert found["tnef.eml"]["severity"] == "info" and "已受理，这封邮件无需再处理" in found["tnef.eml"]["message"]

    folder2, form2 = _league(tmp_path / "2")
    _mail(folder2, "d.eml", [("b01-v2.xlsx", form2)])
    p = folder2 / "inbox" / "d.eml"
    p.write_bytes(p.read_bytes().replace(b"Wed, 04 Nov 2020 18:30:00 +0800", b"garbage"))
    out = tmp_path / "out2"
    first = run(RunOptions(folder=folder2, out_parent=out, pdf=False, now=NOW))
    again = run(RunOptions(folder=folder2, out_parent=out, pdf=False, now=NOW + dt.timedelta(hours=1)))
    said = [[i.severity.value for i in r.issues if i.code == "MAIL_DATE"] for r in (first, again)]
    assert said == [["warning"], ["info"]]


def test_winmail_dat_and_a_zip_are_told_what_to_do_about_them(tmp_path):
    """Outlook's winmail.dat and a zipped form were told 请在 Excel 或 WPS 中“另存为” .xlsx: the
    captain did use the form, and sending again from Outlook brings winmail.dat again."""
    folder, _ = _league(tmp_path)
    _mail(folder, "tnef.eml", [("winmail.dat", b"\x78\x9f\x3e\x22" + b"\0" * 40)])
    _mail(folder, "zip.eml", [("报名表.zip", b"PK\x03\x04zip")])
    found = {i["file"]: i["message"] for i in _issues(tmp_path, folder) if i["code"] == "NO_ATTACHMENT"}
    assert "Outlook" in found["tnef.eml"] and "HTML 或纯文本" in found["tnef.eml"] and "另存为" not in found["tnef.eml"]
    assert "请先解压" in found["zip.eml"]


def test_an_unreadable_attachment_says_which_mail_it_came_in(tmp_path):
    """Two strangers each sent 《报名表.xls》: two identical issues.csv lines with no sender,
    subject or time, and only the 未归属 page to tell whom to call (from an audit)."""
    folder, _ = _league(tmp_path)
    _mail(folder, "x1.eml", [("报名表.xls", b"\xd0\xcf\x11\xe0" + b"\0" * 60)])
    (bad,) = [i for i in _issues(tmp_path, folder) if i["code"] == "UNREADABLE_FILE" and i["file"] == "报名表.xls"]
    assert "（邮件《x1.eml》的附件，发件人 " in bad["message"] and "收到）" in bad["message"]


def test_one_mail_saved_twice_is_said_and_answered_once(tmp_path):
    """The same mail without a workbook, fetched by --imap and also saved by hand (a Received
    line apart, the same Message-ID): two NO_ATTACHMENT warnings and two receipts (an audit)."""
    folder, _ = _league(tmp_path)
    _mail(folder, "a.eml", [("winmail.dat", b"\x78\x9f\x3e\x22" + b"\0" * 40)])
    a = folder / "inbox" / "a.eml"
    a.write_bytes(b"Message-ID: <same-1@qq.com>\r\n" + a.read_bytes())
    (folder / "inbox" / "b.eml").write_bytes(b"Received: from mx.qq.com by office\r\n" + a.read_bytes())
    found = _issues(tmp_path, folder)
    assert [i["file"] for i in found if i["code"] == "NO_ATTACHMENT"] == ["a.eml"]
    (dup,) = [i for i in found if i["code"] == "DUPLICATE_FILE"]
    assert dup["file"] == "b.eml" and "同一封邮件" in dup["message"]


def _received_mail(folder: Path, name: str, form: bytes, date: str, received: str, saved: dt.datetime) -> None:
    """b01's mail ``name`` dated ``date`` whose office mail server's (top) Received header says
    ``received``, saved into the inbox by hand at ``saved``."""
    import os

    _mail(folder, name, [("b01-v2.xlsx", form)], date=date)
    p = folder / "inbox" / name
    p.write_bytes(b"Received: from mx.union.example.edu.cn by mail.union.example.edu.cn; "
                  + received.encode() + b"\r\n" + p.read_bytes())
    os.utime(p, (saved.timestamp(), saved.timestamp()))


def _corrected(form: bytes) -> bytes:
    """b01's form with one phone number changed (a correction)."""
    import io

    import openpyxl

    from mailedit import change_a_phone

    wb = openpyxl.load_workbook(io.BytesIO(form))
    change_a_phone(wb)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_a_date_long_before_the_received_header_takes_the_received_time(tmp_path):
    """A phone whose clock was reset sends a corrected form: Date 2000-01-01, the office's mail
    server received it 2020-11-08 10:00.  The correction was taken as received in 2000 and
    superseded by the older form without a word.  A Date more than a month before the top
    Received header cannot be right: MAIL_DATE, and the Received time counts (R2020-Q4)."""
    folder, form = _league(tmp_path)
    _received_mail(folder, "reset.eml", _corrected(form), "Sat, 1 Jan 2000 08:00:00 +0800",
                   "Sun, 8 Nov 2020 10:00:05 +0800", dt.datetime(2020, 11, 8, 12, 0, tzinfo=TZ))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2020, 11, 8, 23, 30, tzinfo=TZ)))
    (note,) = [i for i in report.issues if i.code == "MAIL_DATE"]
    assert note.severity.value == "warning" and "2000-01-01 08:00" in note.message
    assert "Received 头" in note.message and "2020-11-08 10:00 计" in note.message, note.message
    (sub,) = [s for s in report.state.submissions if s.branch == "b01" and s.status == "accepted"]
    assert sub.received == dt.datetime(2020, 11, 8, 10, 0, 5, tzinfo=TZ)
    assert not [i for i in report.issues if i.code == "SUPERSEDED" and i.file == "b01-v2.xlsx"]


def test_a_date_ahead_or_in_the_wrong_zone_takes_the_received_header_not_the_file_time(tmp_path):
    """Two mails the office saved into the inbox at 23:00, after the 15:00 deadline (R2020-Q4):
    one Dated a year ahead, the office's server received it 11-07 10:00; one from a phone set
    to UTC (Date 14:30 +0000 = 22:30 Beijing), received 14:30 Beijing.  The first took the
    file's time, the second its Date: both were late.  The handbook's MAIL_DATE: the top
    Received header's time counts when the Date cannot be right; both came in time."""
    def on_time(where: Path, name: str, date: str, received: str):
        """b01's correction mailed as ``name``, saved at 23:00: not late, one MAIL_DATE."""
        folder, form = _league(where)
        _received_mail(folder, name, _corrected(form), date, received, dt.datetime(2020, 11, 9, 23, 0, tzinfo=TZ))
        report = run(RunOptions(folder=folder, out_parent=where / "out", pdf=False,
                                now=dt.datetime(2020, 11, 9, 23, 30, tzinfo=TZ)))
        assert not [i for i in report.issues if i.code == "LATE_SUBMISSION"], report.issues
        (note,) = [i for i in report.issues if i.code == "MAIL_DATE"]
        return report, note

    _, note = on_time(tmp_path, "ahead.eml", "Mon, 8 Nov 2021 10:00:00 +0800", "Sat, 7 Nov 2020 10:00:00 +0800")
    assert "2021-11-08 10:00" in note.message and "Received 头" in note.message and "2020-11-07 10:00 计" in note.message
    report, note = on_time(tmp_path / "2", "utc.eml", "Mon, 9 Nov 2020 14:30:00 +0000", "Mon, 9 Nov 2020 14:30:05 +0800")
    assert "2020-11-09 22:30" in note.message and "2020-11-09 14:30 计" in note.message, note.message
    (sub,) = [s for s in report.state.submissions if s.branch == "b01" and s.status == "accepted"]
    assert sub.received == dt.datetime(2020, 11, 9, 14, 30, 5, tzinfo=TZ)


def test_a_plausible_date_stays_the_time_of_receipt_beside_a_received_header(tmp_path):
    """The contract's rule: a mail's received time is its Date.  A Date a few hours before the
    server's Received header (a mail queued in the phone's outbox) is no sign of a wrong clock:
    the Date counts — after the deadline, late (R2020-Q4), and no MAIL_DATE."""
    folder, form = _league(tmp_path)
    _received_mail(folder, "queued.eml", _corrected(form), "Mon, 9 Nov 2020 16:00:00 +0800",
                   "Mon, 9 Nov 2020 20:00:00 +0800", dt.datetime(2020, 11, 9, 23, 0, tzinfo=TZ))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2020, 11, 9, 23, 30, tzinfo=TZ)))
    assert not [i for i in report.issues if i.code == "MAIL_DATE"]
    (late,) = [i for i in report.issues if i.code == "LATE_SUBMISSION"]
    assert "2020-11-09 16:00" in late.message


def test_a_mail_the_server_delivered_again_days_later_keeps_its_date(tmp_path):
    """The office's server redirected b01's on-time mail (Date 11-06 10:00) on 11-12, after the
    11-09 15:00 deadline, stamping a new top Received header; the office saved it then.  A Date
    a day before the top Received header was taken for a reset clock: the Received time
    counted and the form was late, MAIL_DATE blaming the sender's clock (from a review).  Only
    a Date a month or more before it is (R2020-Q4): the Date counts, on time, no MAIL_DATE."""
    folder, form = _league(tmp_path)
    _received_mail(folder, "redirected.eml", _corrected(form), "Fri, 6 Nov 2020 10:00:00 +0800",
                   "Thu, 12 Nov 2020 09:00:00 +0800", dt.datetime(2020, 11, 12, 10, 0, tzinfo=TZ))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2020, 11, 12, 23, 30, tzinfo=TZ)))
    assert not [i for i in report.issues if i.code in ("MAIL_DATE", "LATE_SUBMISSION")], report.issues
    (sub,) = [s for s in report.state.submissions if s.branch == "b01" and s.status == "accepted"]
    assert sub.received == dt.datetime(2020, 11, 6, 10, 0, tzinfo=TZ)


def test_a_late_form_says_which_mail_and_sender_it_came_in(tmp_path):
    """LATE_SUBMISSION said only 《报名表.xlsx》于 … 收到, and the run's summary
    未被接受的文件：报名表.xlsx、报名表.xlsx — no mail, subject or sender to tell two apart
    (R2020-Q4; as UNREADABLE_FILE names them)."""
    folder, form = _league(tmp_path)
    _mail(folder, "late.eml", [("报名表.xlsx", _corrected(form))], date="Mon, 9 Nov 2020 16:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2020, 11, 9, 23, 30, tzinfo=TZ)))
    (late,) = [i for i in report.issues if i.code == "LATE_SUBMISSION"]
    assert "邮件《late.eml》" in late.message and "xzyfgh@union.example.edu.cn" in late.message, late.message
    assert report.rejected_files == ["报名表.xlsx（邮件《late.eml》的附件）"]


def test_a_date_before_the_notice_without_a_received_header_takes_the_file_time(tmp_path):
    """A reset clock's Date (2000-01-01) on a mail without a Received header (saved by a tool
    that dropped it): no form was sent before the league's notice (2020-10-30), so the Date
    cannot be right — MAIL_DATE, and the file's time counts (the handbook's MAIL_DATE; R2020-Q4).
    The note read again from the stored mail, without the notice date, still says why."""
    import os

    folder, form = _league(tmp_path)
    _mail(folder, "reset.eml", [("b01-v2.xlsx", _corrected(form))], date="Sat, 1 Jan 2000 08:00:00 +0800")
    saved = dt.datetime(2020, 11, 8, 12, 0, tzinfo=TZ)
    os.utime(folder / "inbox" / "reset.eml", (saved.timestamp(), saved.timestamp()))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2020, 11, 8, 23, 30, tzinfo=TZ)))
    (note,) = [i for i in report.issues if i.code == "MAIL_DATE"]
    assert "早于比赛通知的发文日期（2020-10-30）" in note.message and "按文件时间 2020-11-08 12:00 计" in note.message
    (sub,) = [s for s in report.state.submissions if s.branch == "b01" and s.status == "accepted"]
    assert sub.received == saved

    from pipeline.run import _note_of, _receipt_time

    mail = parse_eml_bytes((folder / "inbox" / "reset.eml").read_bytes())
    assert _receipt_time(mail, saved) == dt.datetime(2000, 1, 1, 8, 0, tzinfo=TZ)    # (no notice date: the Date)
    assert _receipt_time(mail, saved, dt.date(2020, 10, 30)) == saved
    (problem,) = _note_of(mail, saved)["problems"]
    assert "2000-01-01 08:00" in problem and "发文日期" in problem


def _dated(folder: Path, name: str, form: bytes, date: bytes | None, saved: dt.datetime, received: bytes = b"",
           fname: str = "b01-v2.xlsx") -> None:
    """b01's mail ``name`` carrying ``form`` whose Date header reads ``date`` as written (bytes:
    a Chinese mail tool's; None: no Date), below a Received header saying ``received`` (b"":
    none), saved into the inbox at ``saved``."""
    import os

    placeholder = b"Wed, 04 Nov 2020 18:30:00 +0800"
    _mail(folder, name, [(fname, form)], date=placeholder.decode())
    p = folder / "inbox" / name
    raw = p.read_bytes()
    raw = raw.replace(b"Date: " + placeholder + b"\n", b"") if date is None else raw.replace(placeholder, date)
    if received:
        raw = b"Received: from mx.union.example.edu.cn by mail.union.example.edu.cn; " + received + b"\r\n" + raw
    p.write_bytes(raw)
    os.utime(p, (saved.timestamp(), saved.timestamp()))


def test_mail_date_a_date_of_year_9999_is_unreadable_and_the_run_goes_on(tmp_path):
    """MAIL_DATE: a Date of 9999-12-31 in a western zone (or such a Received header) crashed
    every run (OverflowError: date value out of range; league 内部出错).  It is unreadable:
    the mail's time is its Received header's, else its file's, as the handbook says (from an
    audit of mail intake)."""
    saved = dt.datetime(2020, 11, 9, 12, 0, tzinfo=TZ)
    cases = ((b"Fri, 31 Dec 9999 23:59:59 GMT", b"Mon, 9 Nov 2020 10:00:00 +0800",
              dt.datetime(2020, 11, 9, 10, 0, tzinfo=TZ), "按邮件服务器记下的接收时间（Received 头） 2020-11-09 10:00 计"),
             (b"Fri, 31 Dec 9999 23:59:59 -1200", b"", saved, "按文件时间 2020-11-09 12:00 计"),
             (None, b"Fri, 31 Dec 9999 23:59:59 GMT", saved, "按文件时间 2020-11-09 12:00 计"))
    for i, (date, received, taken, basis) in enumerate(cases):
        folder, form = _league(tmp_path / str(i))
        _dated(folder, "odd.eml", _corrected(form), date, saved, received)
        report = run(RunOptions(folder=folder, out_parent=tmp_path / str(i) / "out", pdf=False,
                                now=dt.datetime(2020, 11, 9, 23, 30, tzinfo=TZ)))
        (note,) = [i for i in report.issues if i.code == "MAIL_DATE"]
        assert note.file == "odd.eml" and "邮件《odd.eml》" in note.message and basis in note.message, note.message
        assert ("无法识别" if date else "没有 Date 头") in note.message
        (sub,) = [s for s in report.state.submissions if s.branch == "b01" and s.status == "accepted"]
        assert sub.received == taken
        assert not [i for i in report.issues if i.code == "LATE_SUBMISSION"]


def test_mail_date_a_chinese_date_header_decides_the_time_not_the_file(tmp_path):
    """MAIL_DATE / R2020-Q4: a Date written by a Chinese mail tool (Java zh_CN, .NET zh-CN) in a
    mail without a Received header was unreadable: the file's time counted — an on-time form
    saved after the deadline was refused as late, and an older form saved later took the place
    of the correction sent after it.  Its Date counts, as any readable one's (an audit)."""
    import io

    import openpyxl

    from mailedit import change_a_phone

    folder, form = _league(tmp_path)
    _dated(folder, "cn.eml", _corrected(form), "星期一, 09 十一月 2020 10:00:00 +0800".encode(),
           dt.datetime(2020, 11, 9, 20, 0, tzinfo=TZ))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2020, 11, 9, 23, 30, tzinfo=TZ)))
    assert not [i for i in report.issues if i.code in ("LATE_SUBMISSION", "MAIL_DATE")], report.issues
    (sub,) = [s for s in report.state.submissions if s.branch == "b01" and s.status == "accepted"]
    assert sub.received == dt.datetime(2020, 11, 9, 10, 0, tzinfo=TZ)

    def phone(to: str) -> bytes:
        wb = openpyxl.load_workbook(io.BytesIO(form))
        change_a_phone(wb, to)
        buf = io.BytesIO()
        wb.save(buf)
        return buf.getvalue()

    folder, form = _league(tmp_path / "2")
    saved = dt.datetime(2020, 11, 6, 9, 0, tzinfo=TZ)
    _dated(folder, "a.eml", phone("13900000001"), "2020年11月5日 星期四 上午10:00".encode("gbk"), saved, fname="b01-A.xlsx")
    _dated(folder, "b.eml", phone("13900000002"), b"Thu, 5 Nov 2020 20:00:00 +0800", saved, fname="b01-B.xlsx")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "2" / "out", pdf=False,
                            now=dt.datetime(2020, 11, 7, 9, 0, tzinfo=TZ)))
    (sub,) = [s for s in report.state.submissions if s.branch == "b01" and s.status == "accepted"]
    assert sub.file == "b01-B.xlsx" and sub.received == dt.datetime(2020, 11, 5, 20, 0, tzinfo=TZ)
    assert not [i for i in report.issues if i.code == "MAIL_DATE"], report.issues


def _forwarded(folder: Path, form: bytes, inner_date: str, inner_received: str = "") -> None:
    """b01's captain's mail dated ``inner_date`` (as written; under a Received header saying
    ``inner_received`` when given), forwarded as an attachment (转发为附件) by the union's
    officer at 11-09 16:00 — after the 15:00 deadline —, saved into the inbox the next night."""
    import os

    inner = EmailMessage()
    inner["From"] = "庞雪平 <xzyfgh@union.example.edu.cn>"
    inner["Subject"] = "报名表"
    inner["Date"] = "Wed, 04 Nov 2020 18:30:00 +0800"
    inner.set_content("见附件")
    inner.add_attachment(form, maintype="application", subtype="octet-stream", filename="b01-v2.xlsx")
    raw = bytes(inner).replace(b"Wed, 04 Nov 2020 18:30:00 +0800", inner_date.encode())
    if inner_received:
        raw = (b"Received: from [10.8.0.2] by mx.union.example.edu.cn (Coremail) with SMTP id AQ;\n\t"
               + inner_received.encode() + b"\n" + raw)
    import email
    import email.policy

    outer = EmailMessage()
    outer["From"] = "chengjie@union.example.edu.cn"
    outer["Subject"] = "转发：报名表"
    outer["Date"] = "Mon, 09 Nov 2020 16:00:00 +0800"
    outer.set_content("请查收队长的原邮件")
    outer.add_attachment(email.message_from_bytes(raw, policy=email.policy.default))
    p = folder / "inbox" / "fwd.eml"
    p.write_bytes(bytes(outer).replace(b"Wed, 04 Nov 2020 18:30:00 +0800", inner_date.encode()))
    saved = dt.datetime(2020, 11, 10, 1, 0, tzinfo=TZ).timestamp()
    os.utime(p, (saved, saved))


def test_mail_date_a_forwarded_mails_date_is_checked_as_a_direct_ones(tmp_path):
    """MAIL_DATE / R2020-Q4: a phone writing Beijing time labelled +0000 (8 hours late) sent b01's
    form at 14:30, before the deadline; its mail, forwarded as an attachment at 16:00, was
    recorded at 22:30 — after the forward that carried it — and refused as late.  A forwarded
    mail's Date is checked as a direct mail's: against its own Received header, and never after
    the forward; when it fails, MAIL_DATE, and its Received time counts, else the forward's."""
    now = dt.datetime(2020, 11, 10, 9, 0, tzinfo=TZ)
    cases = (("Mon, 09 Nov 2020 14:30:00 +0000", "Mon, 9 Nov 2020 14:31:05 +0800 (CST)",
              dt.datetime(2020, 11, 9, 14, 31, 5, tzinfo=TZ), ("晚于邮件服务器记下的接收时间", "2020-11-09 22:30",
                                                                "原邮件的邮件服务器接收时间（Received 头） 2020-11-09 14:31 计")),
             ("Mon, 09 Nov 2020 14:30:00 +0000", "", dt.datetime(2020, 11, 9, 16, 0, tzinfo=TZ),
              ("晚于转发它的邮件的时间", "2020-11-09 22:30", "转发邮件的收到时间 2020-11-09 16:00 计")),
             ("Fri, 31 Dec 9999 23:59:59 GMT", "", dt.datetime(2020, 11, 9, 16, 0, tzinfo=TZ),
              ("Date 头“Fri, 31 Dec 9999 23:59:59 GMT”无法识别", "转发邮件的收到时间 2020-11-09 16:00 计")))
    for i, (date, received, taken, said) in enumerate(cases):
        folder, form = _league(tmp_path / str(i))
        _forwarded(folder, _corrected(form), date, received)
        report = run(RunOptions(folder=folder, out_parent=tmp_path / str(i) / "out", pdf=False, now=now))
        (sub,) = [s for s in report.state.submissions if s.file == "b01-v2.xlsx"]
        assert sub.received == taken and sub.sender == "xzyfgh@union.example.edu.cn", (date, sub.received)
        (note,) = [i for i in report.issues if i.code == "MAIL_DATE"]
        assert note.file == "fwd.eml" and note.branch == "b01" and "转发的原邮件（发件人 xzyfgh@union.example.edu.cn）" in note.message
        assert "附件《b01-v2.xlsx》" in note.message and all(s in note.message for s in said), note.message
        late = [i for i in report.issues if i.code == "LATE_SUBMISSION"]
        assert bool(late) == (taken > dt.datetime(2020, 11, 9, 15, 0, tzinfo=TZ)), late
