"""R2016-C1 through a night's run (the auditor's case, res42): a 掼蛋 referee records a table
hand by hand on 明细 and leaves the 成绩 levels blank, as handbook 四 allows, then renames the
tab.  It was read as no detail: the table was told "“甲方级数”未填写 … 或把整行清空" (with only
台上方 typed), or the file was called the blank sheet sent by mistake (RESULT_SHEET_BLANK, its
成绩 row wholly blank).  Now the one renamed detail sheet is read (SHEET_RENAMED at it), two
are not guessed (said, naming both), and a workbook with no detail sheet at all names the
missing tab where a 成绩 row needs it.  Four referees' workbooks, one table each, one run."""
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


def _issues(out: Path, file: str) -> list[dict[str, str]]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return [i for i in csv.DictReader(f) if i["file"] == file and i["severity"] != "info"]


def _round_one_issued(tmp_path: Path, n: int) -> tuple[Path, Path, Path, dict, list[int]]:
    """The t2016 sample without its result sheets, run to round 1: the folder, the output,
    the issued 掼蛋 round-1 workbook, its 成绩 columns, and the rows of its
    first ``n`` tables that are played (no bye)."""
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    issued = out / "t2016-poker" / "results" / "guandan-r1-成绩表.xlsx"
    ws = openpyxl.load_workbook(issued)["成绩"]
    hrow, col = table_header(ws)
    tables = [r for r in range(hrow + 1, ws.max_row + 1)
              if ws.cell(r, col["桌号"]).value is not None and ws.cell(r, col["乙方"]).value != "轮空"][:n]
    return folder, out, issued, col, tables


def test_R2016_C1_a_renamed_detail_sheet_gives_the_levels(tmp_path):
    folder, out, issued, col, tables = _round_one_issued(tmp_path, 4)
    ws = openpyxl.load_workbook(issued)["成绩"]
    key = {r: (ws.cell(r, col["组别"]).value, ws.cell(r, col["桌号"]).value) for r in tables}

    def sheet(row: int, edit, on_stage: bool = True) -> bytes:
        wb = openpyxl.load_workbook(issued)
        if on_stage:
            wb["成绩"].cell(row, col["台上方"]).value = "甲"
        ds = wb["明细"]
        dh, dcol = table_header(ds)
        for r in range(dh + 1, ds.max_row + 1):
            if (ds.cell(r, dcol["组别"]).value, ds.cell(r, dcol["桌号"]).value) == key[row] \
                    and ds.cell(r, dcol["局号"]).value <= 3:
                ds.cell(r, dcol["头游方"]).value, ds.cell(r, dcol["头游对家名次"]).value = "甲", "二游"   # J : 2
        edit(wb)
        buf = io.BytesIO()
        wb.save(buf)
        return buf.getvalue()

    def renamed(wb):
        wb["明细"].title = "明细表"

    def deleted(wb):
        del wb["明细"]

    def copied(wb):
        wb["明细"].title = "明细表"
        wb.copy_worksheet(wb["明细表"]).title = "明细（备份）"
    one, two, three, four = tables
    for n, (row, edit, on_stage) in enumerate(((one, renamed, True), (two, renamed, False),
                                               (three, deleted, True), (four, copied, True))):
        send_mail(folder, f"1126-r1-{n}.eml", [(f"gd-{n}.xlsx", sheet(row, edit, on_stage))],
                  f"Sat, 26 Nov 2016 12:1{n}:00 +0800", sender="referee@union.example.edu.cn")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    results = {(r.match.group, r.match.table): r for r in report.state.events["guandan"].results.values()
               if r.match.round == 1}

    # renamed, 台上方 typed / the 成绩 row wholly blank: the levels come from 明细表
    for n, row in ((0, one), (1, two)):
        said = [(i["code"], i["sheet"]) for i in _issues(out, f"gd-{n}.xlsx")]
        assert said == [("SHEET_RENAMED", "明细表")], said
        assert results[key[row]].detail["levels"] == (11, 2), results[key[row]]

    # no detail sheet at all: the missing tab named where the levels are blank
    said = _issues(out, "gd-2.xlsx")
    (missing,) = [i for i in said if i["code"] == "SHEET_RENAMED"]
    assert missing["sheet"] == "成绩" and missing["cell"] and "没有“明细”工作表" in missing["message"], missing
    assert "“甲方级数”" in missing["message"] and "名为“明细”的工作表" in missing["message"], missing
    assert key[three] not in results

    # two renamed copies: not guessed, both named; the table waits
    said = _issues(out, "gd-3.xlsx")
    (both,) = [i for i in said if i["code"] == "SHEET_RENAMED"]
    assert "“明细表”" in both["message"] and "“明细（备份）”" in both["message"] and "都没有读取" in both["message"]
    assert not [i for i in said if i["code"] == "RESULT_SHEET_BLANK"] and key[four] not in results


def test_R2016_C1_the_missing_detail_sheet_is_named_only_when_it_was_issued(tmp_path):
    """A workbook issued without a detail sheet (an earlier version's: no ``detail_sheet`` in
    its ``_meta``) is not told its 明细 was deleted; two renamed copies with no deal in either
    are named as such, not as a deleted sheet."""
    folder, out, issued, col, tables = _round_one_issued(tmp_path, 2)

    def sheet(row: int, edit) -> bytes:
        wb = openpyxl.load_workbook(issued)
        wb["成绩"].cell(row, col["台上方"]).value = "甲"       # the levels left blank
        edit(wb)
        buf = io.BytesIO()
        wb.save(buf)
        return buf.getvalue()

    def never_issued(wb):
        del wb["明细"]
        meta = wb["_meta"]
        for r in range(meta.max_row, 0, -1):
            if meta.cell(r, 1).value == "detail_sheet":
                meta.delete_rows(r)

    def two_blank_copies(wb):
        wb["明细"].title = "明细表"
        wb.copy_worksheet(wb["明细表"]).title = "明细（备份）"
    for n, (row, edit) in enumerate(((tables[0], never_issued), (tables[1], two_blank_copies))):
        send_mail(folder, f"1126-r1-{n}.eml", [(f"gd-{n}.xlsx", sheet(row, edit))],
                  f"Sat, 26 Nov 2016 12:1{n}:00 +0800", sender="referee@union.example.edu.cn")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    said = _issues(out, "gd-0.xlsx")
    assert not [i for i in said if i["code"] == "SHEET_RENAMED"], said
    assert [i for i in said if i["code"] == "RESULT_INVALID"], said       # the levels still asked for
    said = _issues(out, "gd-1.xlsx")
    (both,) = [i for i in said if i["code"] == "SHEET_RENAMED"]
    assert "被删除" not in both["message"], both
    assert "“明细表”" in both["message"] and "“明细（备份）”" in both["message"], both
