"""R2020-Q3: a pair's 队号 typed "1队" (or 第1队) is team 1 of its unit: it was taken for a team
name meant for 梦之队, and the pair was printed "1队", without its unit, in entries.csv,
draw.csv, the draw sheet and the awards."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_R2020_Q3_a_pair_numbered_with_dui_is_printed_with_its_unit(tmp_path: Path) -> None:
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))

    def numbered(wb):
        ws = wb["报名表"]
        hrow, col = table_header(ws, "队号")
        rows = [r for r in range(hrow + 1, hrow + 40) if ws.cell(r, col["项目"]).value == "双升"]
        for r in rows:
            if str(ws.cell(r, col["队号"]).value) == "1":
                ws.cell(r, col["队号"]).value = "第1队" if r == rows[0] else "1 队"
    edit_attachment(folder / "inbox" / "1104-b01-报名表.eml", numbered)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    data = tmp_path / "out" / "t2020-league" / "data"
    with open(data / "entries.csv", encoding="utf-8") as f:
        pairs = [r for r in csv.DictReader(f) if r["event"] == "shuangsheng" and r["branch"] == "b01"]
    assert sorted(r["team"] for r in pairs) == ["行政一1队", "行政一1队", "行政一2队", "行政一2队"], pairs
    assert not [i for i in report.issues if i.code == "TEAM_INCOMPLETE"]
    with open(data / "draw.csv", encoding="utf-8") as f:
        drawn = f.read()
    assert "行政一1队" in drawn and ",1队" not in drawn
