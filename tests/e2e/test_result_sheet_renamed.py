"""A referee renamed the 成绩 sheet (成绩表, Sheet1) and kept the hidden _meta: the workbook
says which event and round it is, and its one visible sheet holding the result table is
read as 成绩, with a SHEET_RENAMED warning at that sheet — as a registration form's renamed
报名表 sheet is.  It was TEMPLATE_MISMATCH and the whole workbook was dropped.  Several
visible sheets holding the table, none named 成绩: not guessed (TEMPLATE_MISMATCH, as before)."""
from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ
from tests.hardening.common import forms_and_one_sheet

NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
FILE = "xiangqi-r1-成绩表.xlsx"


def _league(tmp_path: Path) -> tuple[Path, Path]:
    """t2020-league with its registration forms and only 象棋's round-1 sheet."""
    return forms_and_one_sheet("t2020-league", tmp_path, "-xiangqi-r1-")


def _issues(tmp_path: Path) -> list[dict[str, str]]:
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8-sig") as f:
        return [i for i in csv.DictReader(f) if i["file"] == FILE]


def _run(folder: Path, tmp_path: Path):
    return run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))


def _renamed(name: str, extra: str = ""):
    def edit(wb):
        wb["成绩"].title = name
        if extra:
            wb.create_sheet(extra)
    return edit


@pytest.mark.parametrize("name,extra", [("成绩表", ""), ("Sheet1", ""), ("Sheet1", "Sheet2")])
def test_a_renamed_result_sheet_with_its_meta_is_read_with_a_warning(tmp_path, name, extra):
    folder, eml = _league(tmp_path)
    edit_attachment(eml, _renamed(name, extra))
    report = _run(folder, tmp_path)
    issues = _issues(tmp_path)
    assert not [i for i in issues if i["code"] == "TEMPLATE_MISMATCH"], issues
    (said,) = [i for i in issues if i["code"] == "SHEET_RENAMED"]
    assert said["severity"] == "warning" and said["sheet"] == name
    assert f"“成绩”被改名为“{name}”" in said["message"] and "已按" in said["message"]
    # every table of the round counted: round 2 is drawn
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events
    assert not any("象棋" in e and "第1轮" in e for e in report.events), report.events


def test_two_sheets_holding_the_result_table_none_named_results_are_not_guessed(tmp_path):
    folder, eml = _league(tmp_path)

    def edit(wb):
        ws = wb["成绩"]
        ws.title = "Sheet1"
        wb.copy_worksheet(ws).title = "Sheet2"
    edit_attachment(eml, edit)
    report = _run(folder, tmp_path)
    issues = _issues(tmp_path)
    (bad,) = [i for i in issues if i["code"] == "TEMPLATE_MISMATCH"]
    assert "没有“成绩”工作表" in bad["message"] and not [i for i in issues if i["code"] == "SHEET_RENAMED"]
    assert any("象棋" in e and "第1轮" in e and "还差" in e for e in report.events), report.events
