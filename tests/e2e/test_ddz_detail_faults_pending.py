"""A 斗地主 table whose 成绩 row is blank and whose 牌局明细 cannot give its totals (炸弹数
"炸弹×2", 春天 "春天") is "成绩有误待改正" in the office's next step, as an error on 成绩 is
— it was "待各桌成绩齐后计分" (an audit: the final table, the only one of its round, so the
office would have waited for tables that do not exist)."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import openpyxl

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_R2020_D3_a_final_table_whose_hands_cannot_be_read_is_said_to_need_correcting(tmp_path):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    for p in (folder / "inbox").glob("111[2-8]*"):
        p.unlink()
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 11, 19, 0, tzinfo=TZ)))
    wb = openpyxl.load_workbook(out / "t2020-league" / "results" / "doudizhu-r3-成绩表.xlsx")
    ws = wb["成绩"]
    for c in ("L7", "M7", "N7", "O7"):
        ws[c] = "已签"
    d = wb["牌局明细"]
    for i, row in enumerate([("甲", 1, "炸弹×2", "否", "否", "是"), ("乙", 1, 0, "春天", "否", "是"),
                             ("甲", 1, 2, "否", "否", "否")]):
        for col, v in zip("EFGHIJ", row):
            d[f"{col}{5 + i}"] = v
    wb.save(folder / "inbox" / "ddz-r3.xlsx")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 12, 19, 0, tzinfo=TZ)))
    said = [s for s in report.events if "斗地主" in s]
    assert said and "第1桌成绩有误待改正" in said[0] and "待各桌成绩齐" not in said[0], said
    assert any(i.code == "RESULT_INVALID" and i.sheet == "牌局明细" and i.cell == "G5" for i in report.issues)
