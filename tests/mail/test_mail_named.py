"""A mail fetched by ``--imap`` is stored as ``inbox/mail/<sha256>.eml``; receipts, issues.csv
messages and unit pages named it so — 收到贵分工会的邮件《5f3a5a1a9e47…4536b.eml》 — a name no
captain knows (from an audit of mail receipts).  Such a mail is named by its subject and the
time it was received (《主题》（11月4日 22:00 收到）); a mail the office saved into the inbox by
hand keeps its own name; issues.csv's ``file`` column keeps the stored name (contract.md).
"""
from __future__ import annotations

import csv
import datetime as dt
import hashlib
import re
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest

from pipeline.mailname import hash_named, mail_named
from pipeline.render import site_vm
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from .test_receipt_no_workbook import B01, B02, _mail, _text
from .test_resent_form_receipt import _resend_a

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from mailedit import B01_FORM, league_2020  # noqa: E402

HASH = re.compile(r"[0-9a-f]{64}")
NOW = dt.datetime(2020, 11, 7, 9, 0, tzinfo=TZ)


def test_mail_named():
    at = dt.datetime(2020, 11, 4, 22, 0, tzinfo=TZ)
    h = "5f" * 32 + ".eml"
    assert hash_named(h) and hash_named(f"mail/{h}") and not hash_named("1104-b01-报名表.eml")
    assert mail_named(h, "行政一 报名表", at) == "《行政一 报名表》（11月4日 22:00 收到）"
    assert mail_named(f"mail/{h}", "行政一 报名表", at, when=False) == "《行政一 报名表》"
    assert mail_named(h, "", at) == "（无主题，11月4日 22:00 收到）"
    assert mail_named(h, "x" * 50, at).startswith("《" + "x" * 40 + "…》")
    assert mail_named("1104-b01-报名表.eml", "报名表", at) == "《1104-b01-报名表.eml》"     # saved by hand: its name
    assert mail_named("a.eml", "报名表", at, subject_too=True) == "《a.eml》（主题“报名表”）"


def _fetched(folder: Path, subject: str, date: str, attachments=(), sender: str = B01, headers=None,
             message_id: str = "") -> str:
    """A mail as --imap stores it: ``inbox/mail/<its sha256>.eml``; returns that file name."""
    (folder / "inbox" / "mail").mkdir(exist_ok=True)
    made = folder / "inbox" / "mail" / "new.eml"
    _mail(folder, "mail/new.eml", sender, subject, date, attachments, message_id=message_id, body="见附件",
          headers=headers)
    name = f"{hashlib.sha256(made.read_bytes()).hexdigest()}.eml"
    made.rename(made.with_name(name))
    return name


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("named")
    folder, form = league_2020(tmp)
    names = {
        "bare": _fetched(folder, "行政一 报名", "Wed, 04 Nov 2020 22:00:00 +0800"),
        "doc": _fetched(folder, "行政一 报名（Word 版）", "Wed, 04 Nov 2020 22:10:00 +0800",
                        [("报名表.doc", b"\xd0\xcf\x11\xe0" + b"\0" * 60)]),
        "xls": _fetched(folder, "行政一 旧表", "Wed, 04 Nov 2020 22:20:00 +0800",
                        [("报名表.xls", b"\xd0\xcf\x11\xe0" + b"\0" * 60)]),
        "auto": _fetched(folder, "自动回复：报名", "Wed, 04 Nov 2020 22:30:00 +0800",
                         headers={"Auto-Submitted": "auto-replied"}),
        "again": _fetched(folder, "行政一 报名表（再发一次）", "Thu, 05 Nov 2020 08:00:00 +0800", [(B01_FORM, form)]),
        "twice": _fetched(folder, "", "Thu, 05 Nov 2020 09:00:00 +0800", message_id="<twice@union.example.edu.cn>"),
    }
    raw = (folder / "inbox" / "mail" / names["twice"]).read_bytes()
    copy = b"Received: from mx by office; Thu, 05 Nov 2020 09:00:05 +0800\r\n" + raw
    names["copy"] = f"{hashlib.sha256(copy).hexdigest()}.eml"
    (folder / "inbox" / "mail" / names["copy"]).write_bytes(copy)
    # b01's own form came in a mail --imap fetched; the office then put a copy of it into the inbox
    sample = folder / "inbox" / "1104-b01-报名表.eml"
    raw = sample.read_bytes()
    sample.rename(folder / "inbox" / "mail" / f"{hashlib.sha256(raw).hexdigest()}.eml")
    (folder / "inbox" / "b01-副本.xlsx").write_bytes(form)
    report = run(RunOptions(folder=folder, out_parent=tmp / "out", pdf=False, now=NOW))
    with open(report.out_dir / "data" / "issues.csv", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    return report, rows, names


def _about(rows, name):
    return [r for r in rows if r["file"] == name]


def test_a_received_time_is_written_the_chinese_way():
    """Messages said （11-04 18:23 收到） beside pages that read 2020年11月4日 18:23 (an audit of
    the site): a received time is written as the notices write dates, month and day without
    the year (the mails of one tournament come within weeks, beside its full-dated deadlines)."""
    from pipeline.timeutil import cn_when

    assert cn_when(dt.datetime(2020, 11, 4, 18, 23, tzinfo=TZ)) == "11月4日 18:23"
    assert cn_when(dt.datetime(2016, 5, 7, 8, 5)) == "5月7日 08:05"                 # naive: China time
    assert cn_when(dt.datetime(2020, 11, 4, 16, 30, tzinfo=dt.timezone.utc)) == "11月5日 00:30"


def test_no_message_names_a_mail_by_its_stored_hash(night):
    _, rows, names = night
    for r in rows:
        assert not HASH.search(r["message"]), r
    # … and every one of these mails is said (its file column: the stored name, as before)
    for key in ("bare", "doc", "xls", "auto", "again", "copy"):
        assert _about(rows, names[key]) or key == "xls", (key, rows)


def test_each_mail_is_named_by_its_subject_and_time(night):
    _, rows, names = night
    (bare,) = _about(rows, names["bare"])
    assert bare["code"] == "NO_ATTACHMENT" and "邮件《行政一 报名》（11月4日 22:00 收到）" in bare["message"], bare
    (doc,) = _about(rows, names["doc"])
    assert doc["code"] == "NO_ATTACHMENT" and "邮件《行政一 报名（Word 版）》（11月4日 22:10 收到）" in doc["message"], doc
    (auto,) = _about(rows, names["auto"])
    assert auto["code"] == "AUTO_REPLY" and "邮件《自动回复：报名》（11月4日 22:30 收到）" in auto["message"], auto
    (again,) = [r for r in rows if r["code"] == "DUPLICATE_FILE" and r["file"] == names["again"]]
    assert "邮件《行政一 报名表（再发一次）》（11月5日 08:00 收到）的附件《行政第一分工会-报名表.xlsx》" in again["message"]
    (copy,) = [r for r in rows if r["code"] == "DUPLICATE_FILE" and r["file"] == names["copy"]]
    assert "（无主题，11月5日 09:00 收到）" in copy["message"], copy
    (kept,) = [r for r in rows if r["code"] == "DUPLICATE_FILE" and r["file"] == "b01-副本.xlsx"]
    assert "邮件《行政第一分工会 报名表》（11月4日 18:23 收到）的附件《行政第一分工会-报名表.xlsx》" in kept["message"], kept
    (xls,) = [r for r in rows if r["code"] == "UNREADABLE_FILE" and r["file"] == "报名表.xls"]
    assert "（邮件《行政一 旧表》的附件，发件人 " in xls["message"], xls


def test_the_units_page_shows_no_hash(night):
    report, _, names = night
    page = site_vm.branch_vm(report.state, "b01")
    for i in page.issues:
        assert not HASH.search(i.file) and not HASH.search(i.message), i
    assert any("《行政一 报名》（11月4日 22:00 收到）" in i.message for i in page.issues)
    html = (report.out_dir / "branches").glob("*.html")
    for p in html:
        assert not HASH.search(re.sub(r'href="[^"]*"', "", p.read_text(encoding="utf-8"))), p


def test_a_resent_forms_receipt_names_the_mail_by_its_subject(tmp_path):
    """The receipt of a form sent again unchanged (DUPLICATE_FILE) from a mail --imap fetched."""
    def resend(folder, name, form_a):
        msg = EmailMessage()
        msg["From"] = B02
        msg["Subject"] = "还是用第一版，以此为准"
        msg["Date"] = "Fri, 06 Nov 2020 10:00:00 +0800"
        msg.set_content("见附件")
        msg.add_attachment(form_a, maintype="application", subtype="octet-stream", filename=name)
        raw = bytes(msg)
        (folder / "inbox" / "mail").mkdir(exist_ok=True)
        (folder / "inbox" / "mail" / f"{hashlib.sha256(raw).hexdigest()}.eml").write_bytes(raw)

    report, new = _resend_a(tmp_path, resend)
    (dup,) = [i for i in report.issues if i.code == "DUPLICATE_FILE"]
    assert hash_named(dup.file)                                  # the machine-readable column: as stored
    assert not HASH.search(dup.message) and "《还是用第一版，以此为准》（11月6日 10:00 收到）" in dup.message
    (receipt,) = new
    body = _text(receipt)
    assert not HASH.search(body), body
    assert "2020-11-06 10:00 收到贵分工会的邮件《还是用第一版，以此为准》。" in body, body
