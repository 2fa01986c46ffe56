"""Handbook RESULT_CONFLICT (以程序读出的成绩为准): one table (or one board) written on two
lines of ONE result sheet, the same result spelled two ways — 象棋 “甲胜”/“乙胜” and the
score “1-0”/“0-1”, 桥牌 0 and “PASS” — is the same result, as between two sheets received at
once: counted once (a note), no RESULT_CONFLICT, the table not held and the next knockout
round drawn (R2020-F1).  The lines were compared as typed, so the same result spelled twice
held the table and the knockout waited; a bridge board's 0 was printed as “（空）”.  Lines
that read differently still conflict (test_table_twice_on_one_sheet.py,
test_bridge_board_twice.py)."""
from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from openpyxl.utils import get_column_letter

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ
from tests.hardening.common import forms_and_one_sheet

NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _issues(tmp_path: Path, league: str, file: str) -> list[dict[str, str]]:
    with open(tmp_path / "out" / league / "data" / "issues.csv", encoding="utf-8-sig") as f:
        return [i for i in csv.DictReader(f) if i["file"] == file]


def _copied_below(ws, table: int, column: str, value, board=None) -> dict:
    """The line of ``table`` (of its board ``board``) copied whole to a new row right below it,
    ``column`` of the copy set to ``value``: the rows and the copy's cell."""
    hrow, col = table_header(ws)
    first = next(r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["桌号"]).value == table
                 and (board is None or ws.cell(r, col["牌号"]).value == board))
    ws.insert_rows(first + 1)
    for c in range(1, ws.max_column + 1):
        ws.cell(first + 1, c).value = ws.cell(first, c).value
    ws.cell(first + 1, col[column]).value = value
    return dict(first=first, row=first + 1, cell=f"{get_column_letter(col[column])}{first + 1}",
                was=ws.cell(first, col[column]).value, col=col)


def _xiangqi(tmp_path: Path, value: str) -> dict:
    """t2020's 象棋 round 1, table 3 (乙胜) written again below it with 结果 ``value``."""
    folder, eml = forms_and_one_sheet("t2020-league", tmp_path, "-xiangqi-r1-")
    at: dict = {}
    edit_attachment(eml, lambda wb: at.update(_copied_below(wb["成绩"], 3, "结果", value)))
    assert at["was"] == "乙胜"
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    return at


def test_RESULT_CONFLICT_xiangqi_one_sheet_two_spellings_of_one_result_count_once(tmp_path):
    at = _xiangqi(tmp_path, "0-1")          # = 乙胜 (按比分写的“0-1”)
    mine = _issues(tmp_path, "t2020-league", "xiangqi-r1-成绩表.xlsx")
    assert not [i for i in mine if i["code"] == "RESULT_CONFLICT" or i["severity"] == "error"], mine
    (once,) = [i for i in mine if "又填了一次" in i["message"]]
    assert once["severity"] == "info" and once["cell"] == at["cell"], once
    m = once["message"]
    assert "第3桌" in m and f"第 {at['first']} 行" in m and f"第 {at['row']} 行" in m and "按一次计入" in m, m
    assert "“乙胜”" in m and "“0-1”" in m and "读出的成绩相同" in m, m
    # the table is scored and the knockout's round 2 drawn (R2020-F1): nothing waits for table 3
    assert (tmp_path / "out" / "t2020-league" / "results" / "xiangqi-r2-成绩表.xlsx").exists()


def test_RESULT_CONFLICT_xiangqi_one_sheet_two_results_still_conflict(tmp_path):
    at = _xiangqi(tmp_path, "1-0")               # = 甲胜: another result
    mine = _issues(tmp_path, "t2020-league", "xiangqi-r1-成绩表.xlsx")
    (bad,) = [i for i in mine if i["code"] == "RESULT_CONFLICT"]
    assert bad["severity"] == "error" and bad["cell"] == at["cell"], bad
    assert "成绩却不一致" in bad["message"] and "“乙胜”" in bad["message"] and "“1-0”" in bad["message"], bad
    assert not (tmp_path / "out" / "t2020-league" / "results" / "xiangqi-r2-成绩表.xlsx").exists()


def _bridge(tmp_path: Path, first_value, copy_value) -> dict:
    """t2015's 桥牌 round 1, table 1's board 2 given ``first_value`` and written again below
    it with ``copy_value``."""
    folder, eml = forms_and_one_sheet("t2015-tcm", tmp_path, "-bridge-r1-")
    at: dict = {}

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        r = next(r for r in range(hrow + 1, ws.max_row + 1)
                 if ws.cell(r, col["桌号"]).value == 1 and ws.cell(r, col["牌号"]).value == 2)
        ws.cell(r, col["南北得分"]).value = first_value
        at.update(_copied_below(ws, 1, "南北得分", copy_value, board=2))
    edit_attachment(eml, edit)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    return at


def test_RESULT_CONFLICT_bridge_board_zero_and_pass_on_one_sheet_count_once(tmp_path):
    at = _bridge(tmp_path, 0, "PASS")               # handbook: 桥牌“PASS”与 0 不算矛盾
    mine = _issues(tmp_path, "t2015-tcm", "bridge-r1-成绩表.xlsx")
    assert not [i for i in mine if i["severity"] == "error"], mine
    (once,) = [i for i in mine if "又填了一次" in i["message"]]
    assert once["severity"] in ("info", "warning") and "按一次计入" in once["message"], once
    assert f"第 {at['row']} 行" in once["message"], once       # the copied line, by its row
    assert "“0”" in once["message"] and "“PASS”" in once["message"] and "（空）" not in once["message"], once


def test_RESULT_CONFLICT_bridge_board_zero_and_another_score_print_the_zero(tmp_path):
    at = _bridge(tmp_path, 0, 50)
    mine = _issues(tmp_path, "t2015-tcm", "bridge-r1-成绩表.xlsx")
    (bad,) = [i for i in mine if i["severity"] == "error"]
    m = bad["message"]
    assert "牌号 2 出现两次且得分不同" in m and f"第 {at['first']} 行“0”" in m and "（空）" not in m, m
