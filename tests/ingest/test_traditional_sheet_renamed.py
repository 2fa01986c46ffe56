"""A renamed tab is quoted as the workbook names it (handbook: 工作表名和文件名保持收到时的样子):
WPS 简转繁 over a whole form renames its tab 报名表 to 報名表, and a Traditional league's
receipt, unit page and returned copy said ``[SHEET_RENAMED] 報名錶：…被改名為“報名錶”`` — a
tab (a wristwatch) the workbook does not have."""
from __future__ import annotations

import openpyxl

from pipeline.ingest.registration import read_registration
from pipeline.ingest.sheets import _renamed_sheet
from pipeline.ingest.workbook import Book, Sheet, read_workbook
from pipeline.mail.receipts import _problem_lines
from pipeline.text import convert

from .builders import person, tournament, write_registration


def _renamed_form(tmp_path, script):
    t = tournament(script=script)
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", [person("象棋", "甲", 1), person("象棋", "乙", 2)])
    wb = openpyxl.load_workbook(p)
    wb["报名表"].title = "報名表"
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    (said,) = [i for i in issues if i.code == "SHEET_RENAMED"]
    return t, said


def test_R2015_a_tab_renamed_by_wps_is_quoted_as_it_is(tmp_path):
    t, said = _renamed_form(tmp_path, "traditional")
    shown = convert(said.message, "traditional")
    assert "被改名為“報名表”" in shown and "錶" not in shown
    (line,) = _problem_lines([said], t.spec)
    assert convert(line, "traditional").startswith("1. [SHEET_RENAMED] 報名表：")
    assert "錶" not in convert(line, "traditional")


def test_a_simplified_receipt_says_the_tab_without_marks(tmp_path):
    t, said = _renamed_form(tmp_path, "simplified")
    (line,) = _problem_lines([said], t.spec)
    assert line.startswith("1. [SHEET_RENAMED] 報名表：") and line.isprintable()
    assert "被改名为“報名表”" in line


def test_R2015_a_renamed_result_tab_is_quoted_as_it_is():
    """成绩 renamed 報名表 (whatever a referee's editor made of it): the warning's new name
    stays as the tab is, as 工作表“成绩” beside it does."""
    book = Book(name="r.xlsx", sheets={"報名表": Sheet("報名表")}, meta={})
    book.renamed["成绩"] = "報名表"
    (said,) = _renamed_sheet(book, "r.xlsx")
    assert "被改名為“報名表”" in convert(said.message, "traditional")
