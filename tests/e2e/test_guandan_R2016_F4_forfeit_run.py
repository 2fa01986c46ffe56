"""R2016-F4 掼蛋 through a night's run (the auditor's case): round 1's 成绩 has table A1 with
甲方弃权 and table A2 left blank, while its 明细 holds deals for both tables."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import openpyxl
from openpyxl.utils import get_column_letter

from mailedit import table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_R2016_F4_forfeit_beside_deals_and_a_table_only_on_the_detail_sheet(tmp_path):
    """A1: 弃权 beside two deals is not scored (it was 52:0 without a word): RESULT_INVALID at
    the 弃权 cell naming the 明细 rows.  A2: levels 5:5 from its deals, 台上方 blank: asked at
    台上方 with the 明细 rows, not told to clear a row that is already blank.  The other
    tables are scored as typed."""
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    now = dt.datetime(2030, 1, 1, tzinfo=TZ)
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    wb = openpyxl.load_workbook(out / "t2016-poker" / "results" / "guandan-r1-成绩表.xlsx")
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    tables = [r for r in range(hrow + 1, ws.max_row + 1)
              if ws.cell(r, col["桌号"]).value is not None and ws.cell(r, col["乙方"]).value != "轮空"]
    key = lambda r: (ws.cell(r, col["组别"]).value, ws.cell(r, col["桌号"]).value)
    for r in tables:
        ws.cell(r, col["甲方级数"]).value, ws.cell(r, col["乙方级数"]).value = "Q", "8"
    forfeit, played = tables[:2]
    ws.cell(forfeit, col["甲方级数"]).value = ws.cell(forfeit, col["乙方级数"]).value = None
    ws.cell(forfeit, col["弃权"]).value = "甲方弃权"
    ws.cell(played, col["甲方级数"]).value = ws.cell(played, col["乙方级数"]).value = None
    deals = {key(forfeit): [("乙", "二游"), ("乙", "三游")], key(played): [("甲", "二游"), ("乙", "二游")]}
    ds = wb["明细"]
    dh, dcol = table_header(ds)
    rows_of: dict[tuple, list[int]] = {}
    for r in range(dh + 1, ds.max_row + 1):
        k = (ds.cell(r, dcol["组别"]).value, ds.cell(r, dcol["桌号"]).value)
        hands, n = deals.get(k, []), ds.cell(r, dcol["局号"]).value
        if n is not None and n <= len(hands):
            ds.cell(r, dcol["头游方"]).value, ds.cell(r, dcol["头游对家名次"]).value = hands[n - 1]
            rows_of.setdefault(k, []).append(r)
    wb.save(folder / "inbox" / "guandan-r1-成绩表.xlsx")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        mine = [i for i in csv.DictReader(f) if i["file"] == "guandan-r1-成绩表.xlsx"]
    a, b = rows_of[key(forfeit)], rows_of[key(played)]
    assert [(i["code"], i["sheet"], i["cell"], i["severity"]) for i in mine] == [
        ("RESULT_INVALID", "成绩", f"{get_column_letter(col['弃权'])}{forfeit}", "error"),
        ("RESULT_INVALID", "成绩", f"{get_column_letter(col['台上方'])}{played}", "error")]
    assert "选了“甲方弃权”" in mine[0]["message"] and f"“明细”表第 {a[0]}–{a[-1]} 行" in mine[0]["message"]
    assert "两者矛盾" in mine[0]["message"]
    assert f"“明细”表第 {b[0]}–{b[-1]} 行记有 2 局" in mine[1]["message"] and '双方同为 "5" 级' in mine[1]["message"]
    assert "把整行清空" not in mine[1]["message"]
    results = {(r.match.group, r.match.table) for r in report.state.events["guandan"].results.values()
               if r.match.round == 1 and not r.match.bye}
    assert key(forfeit) not in results and key(played) not in results
    assert len(results) == len(tables) - 2
    assert any("第1桌成绩有误待改正" in e and "第2桌成绩有误待改正" in e for e in report.events), report.events
