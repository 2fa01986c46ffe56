"""A captain sends form A, then a corrected B, then A again unchanged ("还是用第一版"): A's
content counts once, at its first receipt, so B stays in force (DUPLICATE_FILE, a warning to
the office).  The captain was told nothing — no receipt for a duplicate — and believed A
counted.  The mail that sent A again now gets a receipt saying it did not, which form does,
and how to make A count (from an audit of mail intake)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import sys

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from .conftest import SmtpServer
from .test_receipt_no_workbook import B02, _form_of, _league, _mail, _parse, _text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from mailedit import change_a_phone  # noqa: E402

NOW = dt.datetime(2020, 11, 7, 9, 0, tzinfo=TZ)


def _a_then_b(tmp_path: Path) -> tuple[Path, str, bytes]:
    """The sample league with b02's form sent as A (11-04), then corrected as B (11-05):
    (folder, the form's file name, A's bytes)."""
    import io

    import openpyxl

    folder = _league(tmp_path)
    name, form_a = _form_of(folder, "1106-b02-报名表.eml")
    (folder / "inbox" / "1106-b02-报名表.eml").unlink()
    wb = openpyxl.load_workbook(io.BytesIO(form_a))
    change_a_phone(wb)
    buf = io.BytesIO()
    wb.save(buf)
    _mail(folder, "a.eml", B02, "报名表", "Wed, 04 Nov 2020 10:00:00 +0800", [(name, form_a)])
    _mail(folder, "b.eml", B02, "报名表（更正）", "Thu, 05 Nov 2020 10:00:00 +0800", [(name, buf.getvalue())])
    return folder, name, form_a


def _resend_a(tmp_path: Path, add) -> tuple[object, list]:
    """Night 1 takes A and B; ``add(folder, name, form_a)`` puts A's resend in the inbox;
    night 2 and the night after it run.  (night 2's report, the captain's new receipts)"""
    folder, name, form_a = _a_then_b(tmp_path)
    server = SmtpServer().start()
    try:
        out = tmp_path / "out"
        run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW, smtp_url=server.url))
        before = len(server.handler.messages)
        add(folder, name, form_a)
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW, smtp_url=server.url))
        again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW, smtp_url=server.url))
    finally:
        server.stop()
    assert not again.mail_failed          # (the receipts below hold the night after too: sent once)
    return report, [_parse(m) for m in server.handler.messages[before:] if B02 in m.rcpt_tos]


def test_a_superseded_form_sent_again_unchanged_gets_a_receipt(tmp_path):
    def resend(folder, name, form_a):
        _mail(folder, "c.eml", B02, "还是用第一版，以此为准", "Fri, 06 Nov 2020 10:00:00 +0800", [(name, form_a)])

    report, new = _resend_a(tmp_path, resend)
    (dup,) = [i for i in report.issues if i.code == "DUPLICATE_FILE"]
    assert str(dup.severity) == "warning" and dup.branch == "b02"
    assert [p["Subject"] for p in new] == ["【报名回执】行政第二分工会：重发的报名表与此前的一份相同，没有生效"]
    body = _text(new[0])
    assert "c.eml" in body and "目前有效的报名表仍是" in body and "做任意修改" in body


def _saved_twice(folder, name, form_a):
    _mail(folder, "c.eml", B02, "还是用第一版", "Fri, 06 Nov 2020 10:00:00 +0800", [(name, form_a)],
          message_id="<c1@union.example.edu.cn>")
    raw = (folder / "inbox" / "c.eml").read_bytes()
    (folder / "inbox" / "c-saved.eml").write_bytes(b"Received: from mx by office; Fri, 06 Nov 2020 10:00:05 +0800\n" + raw)


def _attached_twice(folder, name, form_a):
    _mail(folder, "c.eml", B02, "还是用第一版", "Fri, 06 Nov 2020 10:00:00 +0800",
          [(name, form_a), ("副本-" + name, form_a)])


@pytest.mark.parametrize("add", [_saved_twice, _attached_twice])
def test_the_receipt_goes_once_for_a_mail_saved_twice_or_a_form_attached_twice(tmp_path, add):
    """From a review: the mail saved twice (the same Message-ID) and the old form attached
    twice to one mail each sent the captain two receipts."""
    _, new = _resend_a(tmp_path, add)
    assert [p["Subject"] for p in new] == ["【报名回执】行政第二分工会：重发的报名表与此前的一份相同，没有生效"]


def test_a_result_sheet_sent_again_after_its_correction_gets_a_receipt_too(tmp_path):
    """The referee's A, B, A: the mail that sent round 1's first sheet again after its
    correction (DUPLICATE_FILE, a warning) is answered as a form's is — to a registered
    address only, here b01's captain who referees 象棋 — saying B still counts and how to
    make A's version count."""
    import shutil

    from mailedit import edit_attachment

    from .test_receipt_no_workbook import B01, ROOT

    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    inbox = folder / "inbox"
    for p in inbox.glob("*-xiangqi-*.eml"):
        if "-xiangqi-r1-" not in p.name:
            p.unlink()
    (r1,) = inbox.glob("*-xiangqi-r1-*.eml")

    def flip(wb):
        ws = wb["成绩"]
        hrow = next(r for r in range(1, 30) if any(c.value == "桌号" for c in ws[r]))
        col = {c.value: c.column for c in ws[hrow] if c.value}
        cell = ws.cell(hrow + 1, col["结果"])
        cell.value = "乙胜" if cell.value == "甲胜" else "甲胜"
    edit_attachment(r1, flip, inbox / "1120-xiangqi-r1-更正.eml", date="Fri, 20 Nov 2020 09:00:00 +0800")
    now = dt.datetime(2030, 1, 1, tzinfo=TZ)
    server = SmtpServer().start()
    try:
        out = tmp_path / "out"
        run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now, smtp_url=server.url))
        before = len(server.handler.messages)
        name, sheet = _form_of(folder, r1.name)
        _mail(folder, "1121-xiangqi-r1-原表.eml", B01, "第1轮成绩表，以此为准", "Sat, 21 Nov 2020 09:00:00 +0800",
              [(name, sheet)])
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now, smtp_url=server.url))
        again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now, smtp_url=server.url))
    finally:
        server.stop()
    assert not again.mail_failed
    (dup,) = [i for i in report.issues if i.code == "DUPLICATE_FILE"]
    assert str(dup.severity) == "warning" and dup.branch == "b01"
    new = [_parse(m) for m in server.handler.messages[before:] if B01 in m.rcpt_tos]
    assert [p["Subject"] for p in new] == ["【成绩表回执】行政第一分工会：重发的成绩表与此前的一份相同，没有生效"]
    body = _text(new[0])
    assert "1121-xiangqi-r1-原表.eml" in body and "1120-xiangqi-r1-更正.eml" in body and "做任意修改" in body
    assert "报名表" not in body
