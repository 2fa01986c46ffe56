"""A summary or signature line a referee adds under a result sheet's table (合计 with a
COUNTA formula, 裁判长：张三, 备注：…): not a table, a note (nothing to fix) — as a
registration form's 填表人/合计 lines are.  It was RESULT_INVALID "轮次 合计、桌号 （空） 不是
本轮抽签中的桌", its formula without a saved value another error, the run exit 1."""
from __future__ import annotations

from pipeline.ingest.sheets import read_details, read_results
from pipeline.ingest.workbook import NO_CACHED_VALUE, Book, CellError, Sheet
from pipeline.model import Severity

HEADER = ["轮次", "组别", "桌号", "甲方", "乙方", "甲方级数", "乙方级数"]
LABELS = ["甲方", "乙方", "甲方级数", "乙方级数"]


def _read(*extra):
    rows = [HEADER, [1, "A", 1, "工商1队", "后勤4队", "J", "10"], [1, "A", 2, "信工3队", "信工2队", "3", "7"], *extra]
    return read_results(Book("r1.xlsx", {"成绩": Sheet("成绩", rows=rows)}), "r1.xlsx", LABELS,
                        results=["甲方级数", "乙方级数"])


def test_a_total_line_with_unsaved_formulas_is_a_note_not_a_table():
    rows, problems = _read([], ["合计", None, None, None, None, CellError(NO_CACHED_VALUE), CellError(NO_CACHED_VALUE)])
    assert [r.row for r in rows] == [2, 3]
    assert [(p.code, p.severity, p.sheet, p.cell) for p in problems] == [("RESULT_INVALID", Severity.INFO, "成绩", "A5")]
    assert "不是哪一桌的成绩" in problems[0].message and "无需修改" in problems[0].message


def test_a_total_line_with_saved_values_and_a_referees_signature_line_are_notes():
    rows, problems = _read(["裁判长：张三"], ["合 计", None, None, None, None, 2, 2], [None, None, None, "备注：C组轮空"])
    assert [r.row for r in rows] == [2, 3]
    assert [(p.severity, p.cell) for p in problems] == [(Severity.INFO, "A4"), (Severity.INFO, "A5"),
                                                        (Severity.INFO, "D6")]


def test_a_mistyped_table_number_with_levels_is_still_read_as_a_row():
    rows, problems = _read([1, "A", 12, "工商1队", "后勤4队", "J", "10"], [1, "A", None, "合计", None, "J", "10"])
    assert [r.row for r in rows] == [2, 3, 4, 5] and problems == []


def test_a_total_line_on_the_detail_sheet_is_not_a_deal():
    rows = [["轮次", "组别", "桌号", "局号", "头游方", "头游对家名次"], [1, "A", 1, 1, "甲", "二游"],
            [1, "A", 1, 2, "乙", "三游"], [1, "A", 1, "合计", "甲J 乙10", None], [1, "A", 1, 4, None, None]]
    notes: list = []
    got = read_details(Book("r1.xlsx", {"明细": Sheet("明细", rows=rows)}), "r1.xlsx", "明细",
                       ["局号", "头游方", "头游对家名次"], notes=notes)
    assert [d["_row"] for d in got[("1", "A", "1")]] == [2, 3]
    assert [(n.code, n.severity, n.sheet, n.cell) for n in notes] == [("RESULT_INVALID", Severity.INFO, "明细", "D4")]
