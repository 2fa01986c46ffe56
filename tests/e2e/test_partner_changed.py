"""R2020-Q3: a result sheet that shows a different pairing is PARTNER_CHANGED at the cell."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_R2020_Q3_partner_changed(tmp_path):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    eml = next(p for p in (folder / "inbox").glob("*.eml") if "shuangsheng-r1" in p.name)
    cells = []

    def sign(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        cell = ws.cell(hrow + 1, col["甲方签名"])
        cell.value = "张三/李四"
        cells.append(cell.coordinate)
    edit_attachment(eml, sign)

    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["code"] == "PARTNER_CHANGED"]
    assert len(rows) == 1
    assert rows[0]["cell"] == cells[0] and rows[0]["sheet"] == "成绩"
    assert "张三" in rows[0]["message"] and "李四" in rows[0]["message"]
    assert report.needs_attention


def test_R2016_partner_changed_names_the_group_of_the_table(tmp_path):
    """Each of T2016's four groups has a 第1桌: the message named 第1轮第1桌 only (the cell
    was right); it names the group as RESULT_INVALID's messages do."""
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    eml = folder / "inbox" / "11261210-guandan-r1-成绩表.eml"
    groups = []

    def sign(wb):
        ws = wb.worksheets[0]
        hrow, col = table_header(ws)
        ws.cell(hrow + 1, col["甲方签名"]).value = "张三/李四"
        groups.append((ws.cell(hrow + 1, col["组别"]).value, ws.cell(hrow + 1, col["桌号"]).value))
    edit_attachment(eml, sign)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        (row,) = [r for r in csv.DictReader(f) if r["code"] == "PARTNER_CHANGED"]
    (group, table), = groups
    assert f"第1轮{group}组第{table}桌 甲方签名“张三/李四”" in row["message"], row["message"]


def test_R2015_a_traditional_signed_mark_is_no_stranger(tmp_path):
    """A referee of the Traditional T2015 league writes 已簽 in the signature cells: every
    signed cell was PARTNER_CHANGED (已簽 不是…的报名选手), thirty errors for one sheet."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
    eml = folder / "inbox" / "11071210-shuangkou-r1-成绩表.eml"
    signed = []

    def sign(wb):
        ws = wb.worksheets[0]
        hrow, col = table_header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            if ws.cell(r, col["桌号"]).value not in (None, ""):
                for label in ("甲方签名", "乙方签名"):
                    ws.cell(r, col[label]).value = "已簽"
                    signed.append(r)
    edit_attachment(eml, sign)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["code"] == "PARTNER_CHANGED"]
    assert signed and rows == []
