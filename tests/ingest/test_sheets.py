"""The organisers' sheets: 加赛 (playoff) orders."""
from __future__ import annotations

from pipeline.ingest.sheets import read_playoffs
from pipeline.ingest.workbook import Book, Sheet
from pipeline.model import Entry, Person


def _book(rows):
    return Book(name="加赛.xlsx", sheets={"加赛": Sheet("加赛", rows=[["项目", "阶段", "组别", "名次", "参赛者"], *rows])})


ENTRIES = [Entry(f"xq:{n}", "xiangqi", "b1", n, (Person(n, "b1"),)) for n in ("苏旭凯", "黎玉静", "王军")]


def test_a_playoff_order_is_read_by_group():
    orders, problems = read_playoffs(_book([["象棋", "", "C", 2, "苏旭凯"], ["象棋", "", "C", 1, "黎玉静"]]),
                                     "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert problems == [] and [o.order for o in orders] == [("xq:黎玉静", "xq:苏旭凯")]
