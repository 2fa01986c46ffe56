"""R2020-Q4 / MAIL_DATE: a form forwarded as an attachment (转发为附件, message/rfc822) counts at
its own mail's time only when that mail was sent to the office.

From an audit of mail intake: a teammate mailed the form to the captain's personal mailbox on
8 Nov; the captain forwarded that mail to the office as an attachment on 10 Nov, after the
9 Nov 15:00 deadline.  The form counted at 8 Nov — accepted and drawn — and SENDER_UNKNOWN
named the teammate.  The office first got it on 10 Nov: late, from the captain.
"""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from .test_receipt_no_workbook import B01, _form_of, _league

OFFICE = "office@union.example.edu.cn"
AFTER = dt.datetime(2020, 11, 10, 20, 0, tzinfo=TZ)     # the deadline was 11-09 15:00


def _forward(folder: Path, inner_to: str, outer_to: str = OFFICE) -> None:
    """b01's form in a mail from a teammate to ``inner_to`` (8 Nov, before the deadline),
    forwarded as an attachment by b01's captain to ``outer_to`` on 10 Nov (after it)."""
    name, form = _form_of(folder, "1104-b01-报名表.eml")
    (folder / "inbox" / "1104-b01-报名表.eml").unlink()
    inner = EmailMessage()
    inner["From"] = "teammate@qq.com"
    inner["To"] = inner_to
    inner["Subject"] = "报名表改好了"
    inner["Date"] = "Sun, 08 Nov 2020 10:00:00 +0800"
    inner.set_content("见附件")
    inner.add_attachment(form, maintype="application", subtype="octet-stream", filename=name)
    outer = EmailMessage()
    outer["From"] = B01
    outer["To"] = outer_to
    outer["Subject"] = "转发：报名表改好了"
    outer["Date"] = "Tue, 10 Nov 2020 10:00:00 +0800"
    outer.set_content("转发")
    outer.add_attachment(inner)
    (folder / "inbox" / "fwd.eml").write_bytes(bytes(outer))


def _b01(tmp_path: Path, folder: Path):
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=AFTER))
    subs = [s for s in report.state.submissions if s.branch == "b01"]
    return report, subs, {i.code for i in report.issues if i.branch == "b01"}


def test_r2020_q4_a_forwarded_mail_the_office_never_got_counts_at_the_forward(tmp_path):
    folder = _league(tmp_path)
    _forward(folder, "captain-home@163.com")
    report, subs, codes = _b01(tmp_path, folder)
    (sub,) = subs
    assert sub.received == dt.datetime(2020, 11, 10, 10, 0, tzinfo=TZ) and sub.sender == B01
    assert sub.status != "accepted"
    assert "LATE_SUBMISSION" in codes and "SENDER_UNKNOWN" not in codes
    assert not [e for e in report.state.entries if e.branch == "b01"]


def test_r2020_q4_a_forwarded_mail_sent_to_the_office_counts_at_its_own_time(tmp_path):
    """The office's own received mail, forwarded on (to the same mailbox, or — the office's
    address set as ``submit_to`` — to another one): its own time and sender count, as before."""
    for outer_to, submit_to in ((OFFICE, ""), ("league-desk@union.example.edu.cn", OFFICE)):
        folder = _league(tmp_path / outer_to)
        if submit_to:
            spec = folder / "tournament.yaml"
            spec.write_text(spec.read_text(encoding="utf-8") + f"\nsubmit_to: {submit_to}\n", encoding="utf-8")
        _forward(folder, f"工会办公室 <{OFFICE}>", outer_to)
        _, subs, codes = _b01(tmp_path / outer_to, folder)
        (sub,) = subs
        assert sub.received == dt.datetime(2020, 11, 8, 10, 0, tzinfo=TZ) and sub.sender == "teammate@qq.com"
        assert sub.status == "accepted" and "LATE_SUBMISSION" not in codes, outer_to


def test_r2020_q4_submit_to_with_chinese_around_the_address_names_the_office(tmp_path):
    """``submit_to`` is free text printed on the notice: Chinese written against the address
    (发送至office@…) or a full-width ＠ is not part of the address — the office's address is
    found in it and the mail sent there counts at its own time (it was taken as
    “发送至office@…”, and the form counted at the forward's time: LATE_SUBMISSION)."""
    from types import SimpleNamespace

    from pipeline.run import office_addresses

    user, host = OFFICE.split("@")
    texts = (f"发送至{OFFICE}", f"请发送至工会办公室邮箱：{user}＠{host}。", f"工会办公室（{OFFICE.upper()}）",
             f"邮箱{OFFICE}或交到工会办公室")
    for k, submit_to in enumerate(texts):
        assert office_addresses(SimpleNamespace(submit_to=submit_to)) == (OFFICE,), submit_to
        folder = _league(tmp_path / str(k))
        spec = folder / "tournament.yaml"
        spec.write_text(spec.read_text(encoding="utf-8") + f"\nsubmit_to: '{submit_to}'\n", encoding="utf-8")
        _forward(folder, f"工会办公室 <{OFFICE}>", "league-desk@union.example.edu.cn")
        _, subs, codes = _b01(tmp_path / str(k), folder)
        (sub,) = subs
        assert sub.received == dt.datetime(2020, 11, 8, 10, 0, tzinfo=TZ), (submit_to, sub.received)
        assert sub.status == "accepted" and "LATE_SUBMISSION" not in codes, submit_to
