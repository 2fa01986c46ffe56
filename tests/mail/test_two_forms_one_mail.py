"""SAME_TIME: two versions of a unit's form attached to one mail.

From an audit of mail intake: the receipt of the one set aside said 此后又收到了一份更新的报名表
— there was no later form, both came in the one mail — and which one counted, the two saved
in the same second, was decided by the files' hashes (a coin toss per save).  Now the
handbook's rule (the one saved later) and, when the saved times do not tell, the attachment
placed later in the mail counts; the set-aside form's receipt says both came in the same mail,
which file counts and why.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import io
import re
import zipfile

import openpyxl

from pipeline.timeutil import TZ

from .test_receipt_no_workbook import B04, _form_of, _league, _mail, _text
from .test_returned_mail import _night

MID = "<two-b04@x>"


def _version(form: bytes, phone: str, saved: str = "2020-11-07T02:55:00Z") -> bytes:
    """b04's form with its first 联系电话 set to ``phone``, saved (docProps/core.xml) at ``saved``."""
    wb = openpyxl.load_workbook(io.BytesIO(form))
    wb["报名表"].cell(row=10, column=7).value = phone
    raw = io.BytesIO()
    wb.save(raw)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw.getvalue())) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + saved.encode(), data)
            dst.writestr(item, data)
    return out.getvalue()


def test_same_time_the_later_attachment_counts_and_the_other_receipt_says_one_mail(tmp_path):
    folder = _league(tmp_path)
    out = tmp_path / "out"
    _night(folder, out, dt.datetime(2020, 11, 6, 23, 0, tzinfo=TZ))
    _, form = _form_of(folder, "1104-b04-报名表.eml")
    first, second = _version(form, "13911111111"), _version(form, "13922222222")
    if hashlib.sha256(first).hexdigest() < hashlib.sha256(second).hexdigest():
        first, second = second, first           # (the hash order would pick the first attachment)
    # the later attachment's name sorts first: the place in the mail decides, not the name
    _mail(folder, "two-b04.eml", B04, "机电报名表", "Sat, 07 Nov 2020 11:00:00 +0800",
          [("机电报名表-B.xlsx", first), ("机电报名表-A.xlsx", second)], message_id=MID)
    report, sent = _night(folder, out, dt.datetime(2020, 11, 7, 20, 0, tzinfo=TZ))
    subs = {s.file: s.status for s in report.state.submissions if s.branch == "b04"}
    assert subs["机电报名表-A.xlsx"] == "accepted" and subs["机电报名表-B.xlsx"] == "superseded", subs
    (note,) = [i for i in report.issues if i.code == "SAME_TIME"]
    assert "同一封邮件" in note.message and "附件" in note.message and "《机电报名表-A.xlsx》为准" in note.message
    receipts = {m["Subject"]: _text(m) for m in sent if m["In-Reply-To"] == MID}
    (aside,) = [text for subject, text in receipts.items() if "未采用" in subject]
    assert "此后又收到" not in aside and "更新的报名表" not in aside, aside
    assert "同一封邮件" in aside and "《机电报名表-B.xlsx》" in aside and "的《机电报名表-A.xlsx》为准" in aside, aside
    assert "附件" in aside and "保存时间" in aside, aside      # why: the place in the mail, the saved times being equal


def test_same_time_the_form_saved_later_counts_whatever_its_place(tmp_path):
    folder = _league(tmp_path)
    out = tmp_path / "out"
    _night(folder, out, dt.datetime(2020, 11, 6, 23, 0, tzinfo=TZ))
    _, form = _form_of(folder, "1104-b04-报名表.eml")
    newer = _version(form, "13922222222", "2020-11-07T02:58:00Z")
    older = _version(form, "13911111111", "2020-11-07T02:50:00Z")
    _mail(folder, "two-b04.eml", B04, "机电报名表", "Sat, 07 Nov 2020 11:00:00 +0800",
          [("终稿.xlsx", newer), ("初稿.xlsx", older)], message_id=MID)
    report, sent = _night(folder, out, dt.datetime(2020, 11, 7, 20, 0, tzinfo=TZ))
    subs = {s.file: s.status for s in report.state.submissions if s.branch == "b04"}
    assert subs["终稿.xlsx"] == "accepted" and subs["初稿.xlsx"] == "superseded", subs
    (aside,) = [_text(m) for m in sent if m["In-Reply-To"] == MID and "未采用" in m["Subject"]]
    assert "同一封邮件" in aside and "的《终稿.xlsx》为准" in aside and "最后保存的时间" in aside, aside
