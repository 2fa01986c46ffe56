"""R2020-Q3: a result sheet that shows a different pairing is PARTNER_CHANGED at the cell."""
from __future__ import annotations

import csv
import datetime as dt
import email
import email.policy
import io
import shutil
from pathlib import Path

import openpyxl

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_R2020_Q3_partner_changed(tmp_path):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    eml = next(p for p in (folder / "inbox").glob("*.eml") if "shuangsheng-r1" in p.name)
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    part = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx"))
    wb = openpyxl.load_workbook(io.BytesIO(part.get_content()))
    ws = wb["成绩"]
    hrow = next(r for r in range(1, 30) if any(c.value == "桌号" for c in ws[r]))
    col = {c.value: c.column for c in ws[hrow] if c.value}
    cell = ws.cell(hrow + 1, col["甲方签名"])
    cell.value = "张三/李四"
    buf = io.BytesIO()
    wb.save(buf)
    part.set_content(buf.getvalue(), maintype="application",
                     subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                     filename=part.get_filename())
    eml.write_bytes(bytes(msg))

    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["code"] == "PARTNER_CHANGED"]
    assert len(rows) == 1
    assert rows[0]["cell"] == cell.coordinate and rows[0]["sheet"] == "成绩"
    assert "张三" in rows[0]["message"] and "李四" in rows[0]["message"]
    assert report.needs_attention
