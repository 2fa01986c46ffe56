"""R2016-C1, R2016-F4 through nights' runs (the auditor's case): 掼蛋 table A1 recorded only on
the 明细 (甲 +3, 乙 +3: 5:5) with its 成绩 row blank is asked for 台上方; the referee fills
台上方 alone, as asked, and sends the sheet again.  Its levels are computed from the 明细 and
the table scored 52:48 — it had been asked for its levels next (“甲方级数”未填写…请补填) and
the round waited for good.  Table A2's 台上方 contradicts its 明细 (the last two deals both
甲's, 台上方 乙): said at that cell, not silently chosen."""
from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
from pathlib import Path

import openpyxl
from openpyxl.utils import get_column_letter

from mailedit import send_mail, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
FILE = "guandan-r1-成绩表.xlsx"


def _send(folder: Path, wb, name: str, date: str) -> None:
    buf = io.BytesIO()
    wb.save(buf)
    send_mail(folder, name, [(FILE, buf.getvalue())], date, sender="referee@union.example.edu.cn")


def _issues(out: Path) -> list[dict[str, str]]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return [i for i in csv.DictReader(f) if i["file"] == FILE]


def test_R2016_C1_levels_come_from_the_detail_with_on_stage_typed_alone(tmp_path):
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    wb = openpyxl.load_workbook(out / "t2016-poker" / "results" / FILE)
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    tables = [r for r in range(hrow + 1, ws.max_row + 1)
              if ws.cell(r, col["桌号"]).value is not None and ws.cell(r, col["乙方"]).value != "轮空"]
    key = lambda r: (ws.cell(r, col["组别"]).value, ws.cell(r, col["桌号"]).value)
    for r in tables[2:]:
        ws.cell(r, col["甲方级数"]).value, ws.cell(r, col["乙方级数"]).value = "Q", "8"
    one, two = tables[:2]
    ws.cell(two, col["台上方"]).value = "乙"
    deals = {key(one): [("甲", "二游"), ("乙", "二游")],
             key(two): [("乙", "二游"), ("甲", "三游"), ("甲", "末游")]}          # 5:5, 甲 first in deals 2 and 3
    ds = wb["明细"]
    dh, dcol = table_header(ds)
    for r in range(dh + 1, ds.max_row + 1):
        hands, n = deals.get((ds.cell(r, dcol["组别"]).value, ds.cell(r, dcol["桌号"]).value), []), ds.cell(r, dcol["局号"]).value
        if n is not None and n <= len(hands):
            ds.cell(r, dcol["头游方"]).value, ds.cell(r, dcol["头游对家名次"]).value = hands[n - 1]
    _send(folder, wb, "1126-r1.eml", "Sat, 26 Nov 2016 09:41:00 +0800")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    stage = get_column_letter(col["台上方"])
    said = [(i["code"], i["cell"], i["severity"]) for i in _issues(out)]
    assert said == [("RESULT_INVALID", f"{stage}{one}", "error"), ("TOTAL_MISMATCH", f"{stage}{two}", "error")], said
    (wrong,) = [i for i in _issues(out) if i["code"] == "TOTAL_MISMATCH"]
    assert "都是甲方头游" in wrong["message"] and "台上的是甲方" in wrong["message"], wrong

    # the referee fills 台上方 as asked — nothing else — and corrects table 2's
    ws.cell(one, col["台上方"]).value = "甲"
    ws.cell(two, col["台上方"]).value = "甲"
    _send(folder, wb, "1126-r1-again.eml", "Sat, 26 Nov 2016 09:45:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert not [i for i in _issues(out) if i["severity"] == "error"], _issues(out)
    results = {(r.match.group, r.match.table): r for r in report.state.events["guandan"].results.values()
               if r.match.round == 1}
    for r in (one, two):
        res = results[key(r)]
        assert [s.points for s in res.sides] == [52, 48] and res.detail["levels"] == (5, 5), res
    assert max(r.round for r in report.state.events["guandan"].rounds) == 2
