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


def test_R2020_Q3_a_team_number_typed_with_traditional_dui_is_that_number(tmp_path: Path) -> None:
    """The same in a Traditional-script league (t2015): its own form says 同隊隊員填相同的“队号”,
    so a captain types 第1隊 / 1 隊 — read as team names, two TEAM_INCOMPLETE errors for one
    pair (and a named 夢之隊 printed 药学院夢之隊队)."""
    from mailedit import t2015_forms

    folder = t2015_forms(tmp_path)

    def numbered(wb):
        ws = wb["报名表"]
        hrow, col = table_header(ws, "队号")
        rows = [r for r in range(hrow + 1, hrow + 40) if ws.cell(r, col["项目"]).value == "双扣"]
        ones = [r for r in rows if str(ws.cell(r, col["队号"]).value) == "1"]
        twos = [r for r in rows if str(ws.cell(r, col["队号"]).value) == "2"]
        assert len(ones) == 2 and len(twos) == 2, rows
        ws.cell(ones[0], col["队号"]).value = "第1隊"
        ws.cell(ones[1], col["队号"]).value = "１ 隊"
        for r in twos:
            ws.cell(r, col["队号"]).value = "夢之隊"
    edit_attachment(folder / "inbox" / "1026-t03-报名表.eml", numbered)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2015, 11, 16, tzinfo=TZ)))
    assert not [i.message for i in report.issues if i.code == "TEAM_INCOMPLETE"]
    data = tmp_path / "out" / "t2015-tcm" / "data"
    with open(data / "entries.csv", encoding="utf-8") as f:
        pairs = [r for r in csv.DictReader(f) if r["event"] == "shuangkou" and r["branch"] == "t03"]
    teams = sorted(r["team"] for r in pairs)
    assert teams.count("药学院1队") == 2 and teams.count("夢之隊") == 2, teams
    assert not [t for t in teams if "隊队" in t or "1隊" in t], teams
    with open(data / "draw.csv", encoding="utf-8") as f:
        drawn = f.read()
    assert "药学院1队" in drawn and "隊队" not in drawn and ",1隊" not in drawn, drawn
