"""Handbook RESULT_INVALID (formula without a saved value) and RESULT_SIGNED_BLANK: a signed
象棋 row whose 结果 is a formula saved without its value (openpyxl, some tools) got two
contradicting messages at the same cell — “是公式 … 请在 Excel 或 WPS 中打开后保存” and the
warning “已有签名 … 但“结果”没有填写 … 或删去这一行的签名”, telling the referee to delete real
signatures of a table that was played and filled.  Only the first is said."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_a_formula_on_a_signed_row_is_not_also_a_signed_blank_row(tmp_path):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    eml = next(p for p in (folder / "inbox").glob("*.eml") if "xiangqi-r1" in p.name)

    def on_sheet(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        r = hrow + 1
        ws.cell(r, col["结果"]).value = '=IF(1,"甲胜","乙胜")'
        ws.cell(r, col["原因"]).value = None
        for label in ("甲方签名", "乙方签名", "裁判签名"):
            ws.cell(r, col[label], "已签")
        # table 2: signed, 结果 really left blank — still RESULT_SIGNED_BLANK
        ws.cell(r + 1, col["结果"]).value = ws.cell(r + 1, col["原因"]).value = None
        for label in ("甲方签名", "乙方签名"):
            ws.cell(r + 1, col[label], "已签")
    edit_attachment(eml, on_sheet)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        mine = [i for i in csv.DictReader(f) if i["file"] == "xiangqi-r1-成绩表.xlsx"]
    at_f7 = [i for i in mine if i["cell"] == "F7"]
    assert [i["code"] for i in at_f7] == ["RESULT_INVALID"], at_f7
    assert "公式" in at_f7[0]["message"] and "打开后保存" in at_f7[0]["message"], at_f7
    assert not any("删去这一行的签名" in i["message"] for i in at_f7), at_f7
    assert [(i["code"], i["cell"]) for i in mine if i["code"] == "RESULT_SIGNED_BLANK"] == [("RESULT_SIGNED_BLANK", "F8")], mine
