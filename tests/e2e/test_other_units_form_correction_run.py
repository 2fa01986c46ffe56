"""OTHER_UNITS_FORM end to end (t2020): b04's own form was accepted on 11-04; on 11-06 b04's
captain mails b06's form holding b04's lines.  A correction (高宇琪 out of 斗地主, 宋洋娟 and
江刚华 swapping 象棋/跳棋) still asks b04 to send it on its own form — it was told 无需重新发送
and lost (a review); b04's registration exactly as it stands asks for nothing."""
from __future__ import annotations

import datetime as dt
import io
import os
import shutil
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import openpyxl
import pytest

from pipeline.ingest.eml import parse_eml_bytes
from pipeline.run import RunOptions, run

from tests.hardening.common import copy_sample


def _form_rows(data: bytes) -> tuple[openpyxl.Workbook, int, list[tuple]]:
    wb = openpyxl.load_workbook(io.BytesIO(data))
    ws = wb["报名表"]
    head = next(c.row for c in ws["A"] if c.value == "序号")
    rows = [tuple(ws.cell(row=r, column=c).value for c in range(2, 8)) for r in range(head + 1, head + 21)]
    return wb, head, [r for r in rows if r[2]]


@pytest.mark.parametrize("change", ["correction", "as_it_stands"])
def test_b04s_lines_on_b06s_form(tmp_path: Path, change: str) -> None:
    folder = copy_sample("t2020-league", tmp_path)
    shutil.rmtree(folder / "inbox-mistakes", ignore_errors=True)
    inbox = folder / "inbox"
    for p in inbox.iterdir():
        if "报名表" not in p.name:
            p.unlink()
    att = lambda name: parse_eml_bytes((inbox / name).read_bytes(), name).attachments[0].data  # noqa: E731
    _, _, own = _form_rows(att("1104-b04-报名表.eml"))
    wb, head, _ = _form_rows(att("1105-b06-报名表.eml"))
    rows = list(own)
    if change == "correction":
        event = {r[2]: r[0] for r in rows}
        rows = [r for r in rows if r[2] != "高宇琪"]
        rows = [(event["江刚华"] if r[2] == "宋洋娟" else event["宋洋娟"] if r[2] == "江刚华" else r[0], *r[1:])
                for r in rows]
        assert rows != [r for r in own if r[2] != "高宇琪"]
    ws = wb["报名表"]
    for rr in range(head + 1, head + 21):
        for cc in range(2, 10):
            ws.cell(row=rr, column=cc).value = None
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            ws.cell(row=head + 1 + i, column=2 + j, value=v)
    buf = io.BytesIO()
    wb.save(buf)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "jdgcxyfgh@union.example.edu.cn", "office@union.example.edu.cn", "机电 更正报名"
    msg["Date"] = format_datetime(dt.datetime(2020, 11, 6, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    msg["Message-ID"] = "<fix1@union.example.edu.cn>"
    msg.set_content("更正")
    msg.add_attachment(buf.getvalue(), maintype="application",
                       subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename="机电更正-报名表.xlsx")
    p = inbox / "1106-b04-更正.eml"
    p.write_bytes(msg.as_bytes())
    old = dt.datetime(2020, 11, 6, 10, 5).timestamp()
    os.utime(p, (old, old))
    r = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                       now=dt.datetime.fromisoformat("2020-11-07T20:00+08:00")))
    (i,) = [i for i in r.issues if i.code == "OTHER_UNITS_FORM"]
    assert i.branch == "b04" and i.severity.value == "error", i.row()
    if change == "correction":
        assert "无需重新发送" not in i.message and "请改用" in i.message, i.message
    else:
        assert "无需重新发送" in i.message and "请改用" not in i.message, i.message
