"""What people typed appears as received in a Traditional league (T2015, ``script: traditional``).

Receipts and pages are converted to Traditional as a whole; what a captain or the office
typed and a message quotes — a mail's subject, a file's name, a name on the 评奖表 — was
converted with them, a second time when it was typed in Traditional: the captain's subject
後勤服務分工會 報名表 read 報名錶 (a wristwatch) in the receipt and on the unit's page, and
《機關報名表.XLSX》 (an upper-case extension) 《機關報名錶.XLSX》.  Each is marked where it is
quoted (:func:`pipeline.text.verbatim`) and shown exactly as received; what is written
unconverted (issues.csv, a returned copy) carries no mark.
"""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import shutil
from email.message import EmailMessage
from pathlib import Path

from pipeline.issues import Issue
from pipeline.mail.receipts import build_receipts
from pipeline.model import Severity
from pipeline.run import RunOptions, run
from pipeline.text import convert, keep, names_kept, plain, verbatim
from pipeline.timeutil import TZ

SAMPLE = Path(__file__).resolve().parents[2] / "sample_sheets" / "t2015-tcm"
SUBJECT = "後勤服務分工會 報名表"          # the captain's own subject, typed in Traditional
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def test_a_file_name_with_an_upper_case_extension_is_kept():
    assert convert("已收到并接受贵分工会的报名表《機關報名表.XLSX》（", "traditional") == \
        "已收到並接受貴分工會的報名表《機關報名表.XLSX》（"
    assert convert("请填写 results/go-r3-成绩表.XLSX", "traditional") == "請填寫 results/go-r3-成绩表.XLSX"


def test_text_marked_verbatim_is_kept_whatever_it_holds():
    said = f"收到贵分工会的邮件（主题“{verbatim(SUBJECT, 'traditional')}”）"
    assert convert(said, "traditional") == f"收到貴分工會的郵件（主題“{SUBJECT}”）"
    with names_kept(["谢军杰"]):        # a registered name beside the one typed: each as typed
        said = f"获奖人“{verbatim('謝軍杰', 'traditional')}”按报名表中的“{verbatim('谢军杰', 'traditional')}”"
        assert convert(said, "traditional") == "獲獎人“謝軍杰”按報名表中的“谢军杰”"
    assert verbatim(SUBJECT, "simplified") == SUBJECT        # nothing is converted there
    assert plain(said) == "获奖人“謝軍杰”按报名表中的“谢军杰”"
    assert keep("a\ue001b") == "\ue000ab\ue001"                 # a mark typed inside cannot end it early


def test_R2015_a_returned_copy_shows_a_marked_message_as_typed_and_converted_around_it(tmp_path):
    import openpyxl

    msg = email.message_from_bytes((SAMPLE / "inbox" / "1026-t10-报名表.eml").read_bytes(), policy=email.policy.default)
    src = tmp_path / "in.xlsx"
    src.write_bytes(next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx")).get_content())
    from pipeline.xlsx.returned import write_returned_copy

    said = Issue("NO_ATTACHMENT", Severity.WARNING, f"邮件（主题“{keep(SUBJECT)}”）没有 .xlsx 附件", file="in.xlsx")
    out = write_returned_copy(src, [said], tmp_path / "out.xlsx", script="traditional")
    ws = openpyxl.load_workbook(out).worksheets[0]
    texts = [str(c.value) for row in ws.iter_rows() for c in row if c.value is not None]
    assert f"郵件（主題“{SUBJECT}”）沒有 .xlsx 附件" in texts     # (a Traditional league prints in Traditional)
    assert not any("\ue000" in t or "\ue001" in t for t in texts)


def _mail(folder: Path, name: str, sender: str, subject: str, date: str, attachments=(), body="報名表見附件。") -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Date"] = sender, "office@union.example.edu.cn", subject, date
    msg.set_content(body)
    for fname, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=fname)
    (folder / "inbox" / name).write_bytes(bytes(msg))


def test_a_captains_subject_and_file_name_appear_as_received(tmp_path):
    """T2015: 后勤服务分工会 (t10) mails its form's subject in Traditional and forgets the
    attachment; 机关分工会 (t05) sends its form as 機關報名表.XLSX."""
    folder = tmp_path / "t2015-tcm"
    (folder / "inbox").mkdir(parents=True)
    shutil.copy(SAMPLE / "tournament.yaml", folder)
    shutil.copy(SAMPLE / "secret.key", folder)
    _mail(folder, "bare-t10.eml", "hqfw@union.example.edu.cn", SUBJECT, "Mon, 26 Oct 2015 04:52:00 +0800")
    msg = email.message_from_bytes((SAMPLE / "inbox" / "1027-t05-报名表.eml").read_bytes(), policy=email.policy.default)
    form = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx")).get_content()
    _mail(folder, "t05.eml", "jgfgh@union.example.edu.cn", "機關分工會 報名表", "Tue, 27 Oct 2015 09:00:00 +0800",
          [("機關報名表.XLSX", form)])
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2015, 10, 28, 1, 30, tzinfo=TZ)))
    receipts = build_receipts(report.state, report.out_dir)

    bare = next(r for r in receipts if r.to == ("hqfw@union.example.edu.cn",))
    assert f"（主題“{SUBJECT}”）" in bare.body, bare.body
    assert "報名錶" not in bare.body
    form_receipt = next(r for r in receipts if r.to == ("jgfgh@union.example.edu.cn",))
    assert "《機關報名表.XLSX》" in form_receipt.body, form_receipt.body
    assert "報名錶" not in form_receipt.body
    for r in receipts:
        assert not any(m in r.subject + r.body for m in "\ue000\ue001")

    page = (report.out_dir / "branches" / "t10.html").read_text(encoding="utf-8")
    assert f"（主題“{SUBJECT}”）" in page and "報名錶" not in page
    assert "\ue000" not in page and "\ue001" not in page
    csv = (report.out_dir / "data" / "issues.csv").read_text(encoding="utf-8-sig")
    assert f"主题“{SUBJECT}”" in csv                     # (issues.csv is not converted) and unmarked
    assert "\ue000" not in csv and "\ue001" not in csv
