"""R2016-C1 (R2020-C1, R2015-C1, R2020-D3): a card game's detail sheet (明细 / 牌局明细) renamed
by the referee (明细表, Sheet2) was silently not read — the levels the handbook lets a referee
leave blank were asked for, or the sheet called blank.  The one visible sheet holding the detail
table's header (轮次/组别/桌号/局号 and the detail's required columns; not the sheet read as 成绩)
is read as it, with a SHEET_RENAMED warning at that sheet; two such sheets are not guessed (said
when one holds deals, naming both, neither read)."""
from __future__ import annotations

from pipeline.ingest.sheets import adopt_renamed_detail_sheet, read_details
from pipeline.ingest.workbook import Book, Sheet

RESULT = [["轮次", "组别", "桌号", "甲方", "乙方", "甲方级数", "乙方级数", "台上方"],
          [1, "A", 1, "工商1队", "后勤4队", None, None, "甲"]]
DETAIL = [["轮次", "组别", "桌号", "局号", "头游方", "头游对家名次"],
          [1, "A", 1, 1, "甲", "二游"], [1, "A", 1, 2, "甲", "二游"]]
EMPTY_DETAIL = [DETAIL[0], [1, "A", 1, 1, None, None]]
LABELS = ["局号", "头游方", "头游对家名次"]


def _book(*sheets: Sheet) -> Book:
    return Book("gd.xlsx", {s.name: s for s in sheets}, {"kind": "result", "event_id": "guandan", "round": 1})


def test_R2016_C1_a_renamed_detail_sheet_is_read_with_a_warning():
    book = _book(Sheet("成绩", rows=RESULT), Sheet("明细表", rows=DETAIL), Sheet("备份", state="hidden", rows=DETAIL))
    (said,) = adopt_renamed_detail_sheet(book, "gd.xlsx", "明细", LABELS, LABELS)
    assert said.code == "SHEET_RENAMED" and said.severity.value == "warning", said
    assert (said.file, said.sheet) == ("gd.xlsx", "明细表")
    assert "“明细”被改名为“明细表”" in said.message and "已按“明细”工作表读取" in said.message
    got = read_details(book, "gd.xlsx", "明细", LABELS)
    rows = got[("1", "A", "1")]
    assert len(rows) == 2 and rows[0]["_cells"]["头游方"].sheet == "明细表"


def test_R2016_C1_the_detail_sheet_kept_or_only_a_renamed_result_sheet_adopts_nothing():
    kept = _book(Sheet("成绩", rows=RESULT), Sheet("明细", rows=DETAIL), Sheet("明细 (2)", rows=DETAIL))
    assert adopt_renamed_detail_sheet(kept, "gd.xlsx", "明细", LABELS, LABELS) == [] and kept.renamed == {}
    # 成绩 renamed and adopted as 成绩: never the detail sheet (its header lacks 局号 anyway)
    book = _book(Sheet("Sheet1", rows=RESULT), Sheet("Sheet2", rows=DETAIL))
    book.renamed["成绩"] = "Sheet1"
    (said,) = adopt_renamed_detail_sheet(book, "gd.xlsx", "明细", LABELS, LABELS)
    assert said.sheet == "Sheet2" and book.sheet("明细").name == "Sheet2"
    none = _book(Sheet("成绩", rows=RESULT))
    assert adopt_renamed_detail_sheet(none, "gd.xlsx", "明细", LABELS, LABELS) == []
    assert read_details(none, "gd.xlsx", "明细", LABELS) == {}


def test_R2016_C1_two_renamed_detail_sheets_are_not_guessed():
    book = _book(Sheet("成绩", rows=RESULT), Sheet("明细表", rows=EMPTY_DETAIL), Sheet("明细(改)", rows=DETAIL))
    (said,) = adopt_renamed_detail_sheet(book, "gd.xlsx", "明细", LABELS, LABELS)
    assert said.code == "SHEET_RENAMED" and said.sheet == "明细(改)" and said.cell, said
    assert "没有“明细”工作表" in said.message and "“明细表”" in said.message and "“明细(改)”" in said.message
    assert "改回原名“明细”" in said.message and "都没有读取" in said.message
    assert read_details(book, "gd.xlsx", "明细", LABELS) == {}
    # two blank copies: nothing was lost, nothing said
    blank = _book(Sheet("成绩", rows=RESULT), Sheet("A", rows=EMPTY_DETAIL), Sheet("B", rows=EMPTY_DETAIL))
    assert adopt_renamed_detail_sheet(blank, "gd.xlsx", "明细", LABELS, LABELS) == []


def test_R2020_D3_a_renamed_doudizhu_detail_sheet_is_read():
    rows = [["轮次", "组别", "桌号", "局号", "地主", "叫分", "炸弹", "春天", "反春天", "地主胜"],
            [1, None, 1, 1, "甲", None, None, None, None, "是"]]
    three = [["轮次", "组别", "桌号", "甲", "乙", "丙", "甲得分"], [1, None, 1, "a", "b", "c", None]]
    book = _book(Sheet("成绩", rows=three), Sheet("Sheet2", rows=rows))
    labels = ["局号", "地主", "叫分", "炸弹", "春天", "反春天", "地主胜"]
    (said,) = adopt_renamed_detail_sheet(book, "d.xlsx", "牌局明细", labels, ["局号", "地主", "地主胜"])
    assert "“牌局明细”被改名为“Sheet2”" in said.message
    assert read_details(book, "d.xlsx", "牌局明细", labels)[("1", "", "1")][0]["地主"] == "甲"
