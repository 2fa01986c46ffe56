"""R2011-F1 and the result rows: a 加赛 sheet the draw or the awards wait for, labelled wrongly,
is said at the sheet (it was judged only once the event was played out); a row whose 桌号 was
mistyped and sides cleared is no copy of the table it now names, though its 象棋 result is alike."""
from __future__ import annotations

import csv
import datetime as dt
import os
import shutil
from pathlib import Path

import openpyxl
import pytest

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ
from tests.e2e.mailedit import edit_attachment
from tests.hardening.common import copy_sample, league, run_args

ROOT = Path(__file__).resolve().parents[2]


def _issues(out: Path, tid: str) -> list[dict[str, str]]:
    with open(out / tid / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("group", ["", "B"])
def test_R2011_F1_a_group_playoff_the_draw_waits_for_labelled_wrongly_is_warned(tmp_path, group):
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    for p in (folder / "inbox").glob("*xiangqi-r[67]-*"):
        p.unlink()

    def write(wb):
        ws = wb["加赛"]
        ws.delete_rows(4, ws.max_row)
        for r in (2, 3):
            ws.cell(r, 3).value = group or None
    edit_attachment(next((folder / "inbox").glob("*xiangqi-加赛*")), write)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    said = [i for i in _issues(out, "t2011-court") if i["code"] == "BAD_VALUE" and "加赛" in i["file"]]
    assert len(said) == 1 and said[0]["severity"] == "warning" and said[0]["cell"] == "D2", said
    assert ("组别空着" if not group else "不都是B组的选手") in said[0]["message"]


def test_R2011_F1_an_award_playoff_naming_a_stage_the_event_lacks_is_warned(tmp_path):
    folder = copy_sample("t2020-league", tmp_path)
    for p in (folder / "inbox").glob("*xiangqi-加赛*"):
        p.unlink()
    out = tmp_path / "out"
    league(*run_args(folder, out))
    wb = openpyxl.load_workbook(out / "t2020-league" / "forms" / "xiangqi-r6-加赛表.xlsx")
    ws = wb["加赛"]
    rows = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 2).value == "最终名次"]
    assert rows
    for place, r in enumerate(rows[::-1], 1):
        ws.cell(r, 4).value = place
        ws.cell(r, 2).value = "group"
    filled = folder / "inbox" / "xiangqi-加赛表.xlsx"
    wb.save(filled)
    os.utime(filled, (1_900_000_000, 1_900_000_000))
    league(*run_args(folder, out))
    mine = [i for i in _issues(out, "t2020-league") if i["file"] == "xiangqi-加赛表.xlsx"]
    assert [i["severity"] for i in mine if i["code"] == "BAD_VALUE"] == ["warning"], mine
    assert any("本项目没有“group”" in i["message"] for i in mine)
    assert not any("不需要加赛" in i["message"] for i in mine), mine      # (a note that contradicted the wait)


def test_a_row_with_a_mistyped_table_and_cleared_sides_is_no_copy(tmp_path):
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    for p in (folder / "inbox").glob("*"):
        if "成绩表" in p.name and "-r1-" not in p.name or "加赛" in p.name:
            p.unlink()

    def write(wb):
        ws = wb["成绩"]
        ws["C10"] = 1
        ws["D10"] = None
        ws["E10"] = None
        ws["G10"] = "认输"
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r1-*")), write)
    out = tmp_path / "out"
    rep = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2011, 5, 16, 20, tzinfo=TZ)))
    (said,) = [i for i in _issues(out, "t2011-court") if i["cell"] == "C10"]
    assert said["severity"] == "error" and "请核对这一行的桌号" in said["message"]
    assert rep.needs_attention
