"""桥牌 (rows per table and board): a 牌号 filled twice for one table.  The 桌号 is
right, the 牌号 is repeated — said at the 牌号 cell, naming the board and the table (it was
said at the 桌号 cell, "请核对这一行的桌号").  The same row twice counts once and is a note;
two rows of one board with different scores are an error ("牌号 N 出现两次且得分不同")."""
from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ
from tests.hardening.common import forms_and_one_sheet

NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
FILE = "bridge-r1-成绩表.xlsx"


def _league(tmp_path: Path) -> tuple[Path, Path]:
    """t2015-tcm with its registration forms and only 桥牌's round-1 sheet."""
    return forms_and_one_sheet("t2015-tcm", tmp_path, "-bridge-r1-")


def _run(folder: Path, tmp_path: Path):
    return run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))


def _data(tmp_path: Path, name: str) -> list[dict[str, str]]:
    with open(tmp_path / "out" / "t2015-tcm" / "data" / name, encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def _standings(tmp_path: Path) -> list[tuple]:
    return [(r["entry_id"], r["stage"], r["rank"], r["points"], r["score"]) for r in _data(tmp_path, "standings.csv")
            if r["event"] == "bridge"]


def test_a_board_number_typed_twice_with_other_scores_is_said_at_the_board(tmp_path):
    """Table 1's board-2 row given 牌号 1: board 1 is filled twice with different scores."""
    folder, eml = _league(tmp_path)
    at = {}

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        cell = ws.cell(hrow + 2, col["牌号"])
        assert ws.cell(hrow + 2, col["桌号"]).value == ws.cell(hrow + 1, col["桌号"]).value == 1
        cell.value = 1
        at["cell"], at["row"], at["first"] = cell.coordinate, hrow + 2, hrow + 1
    edit_attachment(eml, edit)
    report = _run(folder, tmp_path)
    issues = [i for i in _data(tmp_path, "issues.csv") if i["file"] == FILE]
    (bad,) = [i for i in issues if i["cell"] == at["cell"]]
    assert bad["code"] == "RESULT_INVALID" and bad["severity"] == "error"
    assert "第1桌" in bad["message"] and "牌号 1 出现两次且得分不同" in bad["message"]
    assert f"第 {at['first']} 行" in bad["message"] and f"第 {at['row']} 行" in bad["message"]
    assert "桌号" not in bad["message"]
    assert not [i for i in issues if i["cell"].startswith("C")], issues      # nothing at a 桌号 cell
    assert report.needs_attention


def _reference_standings(tmp_path):
    """The standings of the league as its sheets came (nothing edited)."""
    ref_folder, _ = _league(tmp_path / "ref")
    _run(ref_folder, tmp_path / "ref")
    return _standings(tmp_path / "ref")


def _first_row_twice(ws):
    """The table's first line copied whole just below it: (the header's row, its columns)."""
    hrow, col = table_header(ws)
    ws.insert_rows(hrow + 2)
    for j in range(1, ws.max_column + 1):
        ws.cell(hrow + 2, j).value = ws.cell(hrow + 1, j).value
    return hrow, col


def test_the_same_board_row_twice_counts_once_with_a_warning(tmp_path):
    """A board's line twice, alike in every cell, counts once — and is a warning: a line of
    another board given this board's 牌号 (the same score, as boards often are) looks the
    same, and its own board is then missing."""
    expected = _reference_standings(tmp_path)
    folder, eml = _league(tmp_path)
    at = {}

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = _first_row_twice(ws)
        at["cell"] = ws.cell(hrow + 2, col["牌号"]).coordinate
    edit_attachment(eml, edit)
    _run(folder, tmp_path)
    issues = [i for i in _data(tmp_path, "issues.csv") if i["file"] == FILE]
    (said,) = [i for i in issues if i["cell"] == at["cell"]]
    assert said["severity"] == "warning" and "牌号 1" in said["message"] and "第1桌" in said["message"]
    assert "又填了一次" in said["message"] and "桌号" not in said["message"] and "改正它的牌号" in said["message"]
    assert [i for i in issues if i["severity"] in ("error", "warning")] == [said], issues
    assert _standings(tmp_path) == expected


def test_a_board_row_twice_with_only_a_signature_changed_counts_once(tmp_path):
    """A board's line twice with the same score, only a signature cell other: one score — it
    counts once with the copy's warning (naming what differs), not "出现两次且得分不同"
    listing the same score twice."""
    expected = _reference_standings(tmp_path)
    folder, eml = _league(tmp_path)
    at = {}

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = _first_row_twice(ws)
        sign = next(label for label in col if label.endswith("签名"))
        ws.cell(hrow + 2, col[sign]).value = f"{ws.cell(hrow + 1, col[sign]).value or ''}张"
        at["cell"], at["sign"] = ws.cell(hrow + 2, col["牌号"]).coordinate, sign
    edit_attachment(eml, edit)
    _run(folder, tmp_path)
    issues = [i for i in _data(tmp_path, "issues.csv") if i["file"] == FILE]
    (said,) = [i for i in issues if i["cell"] == at["cell"]]
    assert said["severity"] == "warning" and "牌号 1" in said["message"] and "第1桌" in said["message"], said
    assert "得分相同" in said["message"] and at["sign"] in said["message"], said
    assert "得分不同" not in said["message"], said
    assert [i for i in issues if i["severity"] in ("error", "warning")] == [said], issues
    assert _standings(tmp_path) == expected
