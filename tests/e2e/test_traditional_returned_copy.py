"""R2015 (``script: traditional``): a captain's returned copy says its problems in Traditional,
as the receipt and the unit's page do.

An audit of the 2015 sample: 药学院分工会 (t03) resends its form with two 双扣 pairs over its
quota.  The copy's 問題清單 had Traditional headings but every 問題說明 and every cell's
comment in Simplified (“双扣”超出名额：本分工会已报 5 队…), where the receipt and the page
said “雙扣”超出名額….  And the receipt's line said the cell twice
(``[QUOTA_EXCEEDED] 报名表!B15：报名表!B15 …``), as the page and the list did beside their
位置 / 單元格 columns.
"""
from __future__ import annotations

import datetime as dt
import html
import re

import openpyxl

from pipeline.mail.receipts import build_receipts
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from mailedit import edit_attachment, t2015_forms


def _resend_t03(folder):
    def edit(wb):
        ws = wb["报名表"]
        rows = {23: ("双扣", 5, "周一", "001803", "男", "13800000003"),
                24: ("双扣", 5, "周二", "001804", "男", "13800000004"),
                # 针推 (t04) registered 001893 as 谢军杰 two days before: a name the message
                # names unmarked, converted as a name (謝軍杰, not the word's 謝軍傑)
                25: ("中国象棋", None, "王明", "001893", "男", "13800000005")}
        for r, values in rows.items():
            for j, v in enumerate(values):
                ws.cell(r, 2 + j).value = v
    inbox = folder / "inbox"
    edit_attachment(inbox / "1026-t03-报名表.eml", edit, save_as=inbox / "1028-t03-报名表-2.eml",
                    date="Wed, 28 Oct 2015 20:00:00 +0800")


def test_R2015_a_returned_copy_says_its_problems_as_the_receipt_and_page_do(tmp_path):
    folder = t2015_forms(tmp_path)
    _resend_t03(folder)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2015, 10, 29, 10, tzinfo=TZ)))
    out = report.out_dir
    copy = next(p for p in sorted((out / "returned").glob("t03-*.xlsx"))
                if openpyxl.load_workbook(p).worksheets[0].cell(5, 2).value != "SUPERSEDED")
    wb = openpyxl.load_workbook(copy)
    ws = wb.worksheets[0]
    assert ws.title == "問題清單"
    listed = [[c.value for c in ws[r]] for r in range(5, ws.max_row + 1) if ws.cell(r, 2).value]
    codes = {row[1] for row in listed}
    assert {"QUOTA_EXCEEDED", "DUPLICATE_PERSON"} <= codes, listed
    quota = next(row for row in listed if row[1] == "QUOTA_EXCEEDED")
    assert quota[3] == "报名表" and quota[5].startswith("“雙扣”超出名額：本分工會已報 5 隊"), quota
    dup = next(row for row in listed if row[1] == "DUPLICATE_PERSON")
    assert "登記為 謝軍杰" in dup[5] and "謝軍傑" not in dup[5], dup
    comment = wb["报名表"][quota[4]].comment.text
    assert comment == f"【錯誤】QUOTA_EXCEEDED：报名表!{quota[4]} {quota[5]}", comment

    receipt = next(r for r in build_receipts(report.state, out) if r.branch == "t03" and r.kind == "needs_change")
    page = html.unescape(re.sub(r"<[^>]+>", " ", (out / "branches" / "t03.html").read_text(encoding="utf-8")))
    for _, code, _, sheet, cell, message in listed:
        # the receipt's line gives the place once, then the very words of the list
        assert f"[{code}] {sheet}!{cell}：{message}" in receipt.body, (code, receipt.body)
        assert message in page, message
        assert page.count(f"{sheet}!{cell}") == 1, (sheet, cell)
