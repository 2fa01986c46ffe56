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


def _partner_rows(tmp_path: Path, sample: str, mail: str, fill) -> list[dict[str, str]]:
    """The sample ``sample`` with its result mail ``mail``'s first sheet edited by
    ``fill(ws, header_row, columns)``, run once: the PARTNER_CHANGED rows of issues.csv."""
    folder = tmp_path / sample
    shutil.copytree(ROOT / "sample_sheets" / sample, folder)

    def edit(wb):
        ws = wb.worksheets[0]
        fill(ws, *table_header(ws))
    edit_attachment(folder / "inbox" / mail, edit)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / sample / "data" / "issues.csv", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["code"] == "PARTNER_CHANGED"]


def test_R2016_partner_changed_names_the_group_of_the_table(tmp_path):
    """Each of T2016's four groups has a 第1桌: the message named 第1轮第1桌 only (the cell
    was right); it names the group as RESULT_INVALID's messages do."""
    groups = []

    def sign(ws, hrow, col):
        ws.cell(hrow + 1, col["甲方签名"]).value = "张三/李四"
        groups.append((ws.cell(hrow + 1, col["组别"]).value, ws.cell(hrow + 1, col["桌号"]).value))
    (row,) = _partner_rows(tmp_path, "t2016-poker", "11260941-guandan-r1-成绩表.eml", sign)
    (group, table), = groups
    assert f"第1轮{group}组第{table}桌 甲方签名“张三/李四”" in row["message"], row["message"]


def test_R2015_a_traditional_signed_mark_is_no_stranger(tmp_path):
    """A referee of the Traditional T2015 league writes 已簽 in the signature cells: every
    signed cell was PARTNER_CHANGED (已簽 不是…的报名选手), thirty errors for one sheet."""
    signed = []

    def sign(ws, hrow, col):
        for r in range(hrow + 1, ws.max_row + 1):
            if ws.cell(r, col["桌号"]).value not in (None, ""):
                for label in ("甲方签名", "乙方签名"):
                    ws.cell(r, col[label]).value = "已簽"
                    signed.append(r)
    rows = _partner_rows(tmp_path, "t2015-tcm", "11211155-shuangkou-r1-成绩表.eml", sign)
    assert signed and rows == []
