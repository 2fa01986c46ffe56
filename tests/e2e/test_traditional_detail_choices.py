"""A Traditional league (``script: traditional``): a 明细 value that is no choice, on a table whose
成绩 row is left blank (its totals computed from the 明细, ``totals_from_details``), was told to
pick one of 二游、三游、末游 — Simplified, not what the sheet's dropdown lists (二遊、三遊、末遊):
the game's ``values_from_details`` ran outside ``sheets_in`` (from a review)."""
from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
from pathlib import Path

import openpyxl

from mailedit import send_mail, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def test_R2016_C1_a_traditional_leagues_detail_choice_is_listed_as_its_dropdown(tmp_path):
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("\nscript: simplified\n", "\nscript: traditional\n"),
                    encoding="utf-8")
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    (path,) = (out / "t2016-poker" / "results").glob("guandan-r1-*.xlsx")
    wb = openpyxl.load_workbook(path)
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    tables = [r for r in range(hrow + 1, ws.max_row + 1)
              if ws.cell(r, col["桌号"]).value is not None and ws.cell(r, col["乙方"]).value not in ("轮空", "輪空")]
    key = lambda r: (ws.cell(r, col["组别"]).value, ws.cell(r, col["桌号"]).value)
    for r in tables[1:]:
        ws.cell(r, col["甲方级数"]).value, ws.cell(r, col["乙方级数"]).value = "Q", "8"
    ds = wb["明细"]
    dh, dcol = table_header(ds)
    for r in range(dh + 1, ds.max_row + 1):
        if (ds.cell(r, dcol["组别"]).value, ds.cell(r, dcol["桌号"]).value) == key(tables[0]) and ds.cell(r, dcol["局号"]).value == 1:
            ds.cell(r, dcol["头游方"]).value, ds.cell(r, dcol["头游对家名次"]).value = "甲", "五游"
    buf = io.BytesIO()
    wb.save(buf)
    send_mail(folder, "1126-r1.eml", [(path.name, buf.getvalue())], "Sat, 26 Nov 2016 09:41:00 +0800",
              sender="referee@union.example.edu.cn")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        said = [i["message"] for i in csv.DictReader(f) if "头游对家名次" in i["message"]]
    assert said and all("请从下拉列表中选择（二遊、三遊、末遊）" in m for m in said), said
