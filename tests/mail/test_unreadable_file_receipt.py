"""The receipt of a file that cannot be read as a form (a .xls …) from a unit's registered
address, sent after the unit's form was accepted.

From an audit of mail intake: b07's form was accepted on 5 Nov; its correction, re-sent on
7 Nov saved as Excel 97-2003 (.xls), got 需修改 … 逐条修改后重新发送 and 请使用组委会下发的报名表
填写 — two instructions, the second wrong (the captain had used the issued form) — and never
said the accepted form still stood.  It says: save as .xlsx and resend (one instruction), and
the form accepted before 不受影响, with the unit's current entries (as NO_ATTACHMENT's receipt).
"""
from __future__ import annotations

import datetime as dt

from pipeline.timeutil import TZ

from .test_receipt_no_workbook import _league, _mail, _text
from .test_returned_mail import _night

B07 = "jjglxyfgh@union.example.edu.cn"
OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 4000      # an OLE2 (.xls) file


def test_an_unreadable_xls_after_an_accepted_form_says_the_form_stands(tmp_path):
    folder = _league(tmp_path)
    out = tmp_path / "out"
    _night(folder, out, dt.datetime(2020, 11, 6, 23, 0, tzinfo=TZ))
    _mail(folder, "1107-b07-xls.eml", B07, "经管报名表修改", "Sat, 07 Nov 2020 14:00:00 +0800",
          [("经管报名表（修改）.xls", OLE)], message_id="<xls-b07@x>")
    report, sent = _night(folder, out, dt.datetime(2020, 11, 7, 20, 0, tzinfo=TZ))
    (r,) = [m for m in sent if m["In-Reply-To"] == "<xls-b07@x>"]
    assert r["To"] == B07
    assert r["Subject"] == "【报名回执】经济管理学院分工会：文件无法读取，请另存为 .xlsx 后重新发送"
    text = _text(r)
    assert "《经管报名表（修改）.xls》" in text and "另存为 .xlsx" in text
    for wrong in ("逐条修改", "请使用组委会下发", "需修改"):
        assert wrong not in text, (wrong, text)
    assert text.count("另存为") == 1, text
    assert ("此前收到并已接受的报名表《经济管理学院分工会-报名表.xlsx》（2020-11-05 11:06 收到）"
            "不受这个文件影响，仍然有效。目前登记的报名：") in text
    assert "象棋（2 人）：余健艳、钟兰" in text and "合计 8 项报名，10 人。" in text
    assert "2020-11-09 15:00 前重新发送" in text
    assert not list(r.iter_attachments())
    # the unit's form in force is unchanged
    assert [s.file for s in report.state.submissions if s.branch == "b07" and s.status == "accepted"] == [
        "经济管理学院分工会-报名表.xlsx"]
