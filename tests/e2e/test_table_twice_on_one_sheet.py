"""One table written twice on ONE result sheet with different results, both lines naming
the table's own drawn sides (掼蛋 4:K on one line, K:4 on the other): a conflict on that
table, held as two sheets received at once are (handbook: RESULT_CONFLICT — the table is not
scored, the next round waits), said at the second line naming both rows and their values.
The first line had been counted ("又填了一次，未计入。请核对这一行的桌号") and the next round
drawn on it.  A line whose sides are another table's stays the mistyped-桌号 reading
(test_result_rows.py), and an exact copy of a line counts once."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from openpyxl.utils import get_column_letter

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
R2 = "guandan-r2-成绩表.xlsx"


def _issues(out: Path, league: str) -> list[dict[str, str]]:
    with open(out / league / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _t2016_after_round_1(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The 2016 sample with round 1's sheet read and round 2 drawn (its sheet not yet in):
    (folder, output parent, the sample's round-2 mail)."""
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").glob("*成绩表*"):
        if "-r1-" not in p.name:
            p.unlink()
    for p in (folder / "inbox").glob("*加赛*"):
        p.unlink()
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    return folder, out, next((ROOT / "sample_sheets" / "t2016-poker" / "inbox").glob("*-guandan-r2-成绩表.eml"))


def _b1_copied(ws) -> tuple[int, int, dict]:
    """B组第1桌's line copied whole below the table: (its row, the copy's row, the header's columns)."""
    hrow, col = table_header(ws)
    first = next(r for r in range(hrow + 1, ws.max_row + 1)
                 if ws.cell(r, col["组别"]).value == "B" and ws.cell(r, col["桌号"]).value == 1)
    last = ws.max_row + 1
    for c in range(1, ws.max_column + 1):
        ws.cell(last, c).value = ws.cell(first, c).value
    return first, last, col


def _add_line(at: dict):
    """B组第1桌's line copied below the table with its levels swapped (K:4 for 4:K)."""
    def edit(wb):
        ws = wb["成绩"]
        first, last, col = _b1_copied(ws)
        a, b = ws.cell(first, col["甲方级数"]).value, ws.cell(first, col["乙方级数"]).value
        assert a != b
        ws.cell(last, col["甲方级数"]).value, ws.cell(last, col["乙方级数"]).value = b, a
        at.update(first=first, row=last, a=a, b=b, cell=f"{get_column_letter(col['甲方级数'])}{last}")
    return edit


def test_R2016_F3_one_table_twice_on_one_sheet_with_other_levels_holds_the_table(tmp_path):
    folder, out, r2 = _t2016_after_round_1(tmp_path)
    at: dict = {}
    mail = folder / "inbox" / r2.name
    edit_attachment(r2, _add_line(at), save_as=mail)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    mine = [i for i in _issues(out, "t2016-poker") if i["file"] == R2]
    (bad,) = [i for i in mine if i["severity"] == "error"]
    assert (bad["code"], bad["sheet"], bad["cell"]) == ("RESULT_CONFLICT", "成绩", at["cell"]), mine
    m = bad["message"]
    assert "B组第1桌" in m and f"第 {at['first']} 行" in m and f"第 {at['row']} 行" in m, m
    assert f"甲方级数“{at['a']}”" in m and f"甲方级数“{at['b']}”" in m, m
    assert "暂不计成绩" in m and "删除错误的一行" in m and "桌号" not in m, m
    results = report.state.events["guandan"].results.values()
    assert not [r for r in results if r.match.round == 2 and r.match.group == "B" and r.match.table == 1]
    assert not [r for r in results if r.match.round == 3]
    assert max(r.round for r in report.state.events["guandan"].rounds) == 2, "round 3 drawn on the first line"
    assert any("B组第1桌" in e and "不一致" in e and "两份" not in e for e in report.events), report.events

    # the referee deletes the wrong line and sends the sheet again: the table counts, round 3 is drawn
    edit_attachment(r2, lambda wb: None, save_as=folder / "inbox" / "later-r2.eml",
                    date="Sat, 26 Nov 2016 11:20:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert not [i for i in _issues(out, "t2016-poker") if i["file"] == R2 and i["severity"] == "error"]
    assert [r for r in report.state.events["guandan"].results.values()
            if r.match.round == 2 and r.match.group == "B" and r.match.table == 1]
    assert max(r.round for r in report.state.events["guandan"].rounds) == 3


def test_the_same_line_twice_still_counts_once(tmp_path):
    """An exact copy of a line (every cell alike) stays one result and a note."""
    folder, out, r2 = _t2016_after_round_1(tmp_path)

    def copied(wb):
        ws = wb["成绩"]
        first, last, col = _b1_copied(ws)
    edit_attachment(r2, copied, save_as=folder / "inbox" / r2.name)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    mine = [i for i in _issues(out, "t2016-poker") if i["file"] == R2]
    assert [(i["code"], i["severity"]) for i in mine] == [("RESULT_INVALID", "info")], mine
    assert max(r.round for r in report.state.events["guandan"].rounds) == 3


def test_a_xiangqi_table_twice_with_other_outcomes_is_a_conflict(tmp_path):
    """象棋 (a board game): table 1's line again below, its 桌号 and sides copied, another
    outcome — a conflict on table 1, said at the second line's 结果, not a mistyped 桌号."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    eml = next(p for p in (folder / "inbox").glob("*.eml") if "xiangqi-r1" in p.name)
    at = {}

    def twice(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        for label in ("桌号", "甲方", "乙方"):
            ws.cell(hrow + 2, col[label]).value = ws.cell(hrow + 1, col[label]).value
        one, two = ws.cell(hrow + 1, col["结果"]), ws.cell(hrow + 2, col["结果"])
        if one.value == two.value:
            two.value = "甲胜" if one.value != "甲胜" else "乙胜"
        at.update(first=hrow + 1, row=hrow + 2, cell=two.coordinate, one=one.value, two=two.value)
    edit_attachment(eml, twice)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    mine = [i for i in _issues(tmp_path / "out", "t2020-league") if i["file"] == "xiangqi-r1-成绩表.xlsx"]
    (bad,) = [i for i in mine if i["severity"] == "error"]
    assert (bad["code"], bad["cell"]) == ("RESULT_CONFLICT", at["cell"]), mine
    m = bad["message"]
    assert "第1桌" in m and f"第 {at['first']} 行" in m and f"第 {at['row']} 行" in m, m
    assert f"“{at['one']}”" in m and f"“{at['two']}”" in m and "桌号" not in m, m
    assert not [r for r in report.state.events["xiangqi"].results.values()
                if r.match.round == 1 and r.match.table == 1 and not r.match.group]


def _copy_b1(change: dict, at: dict):
    """B组第1桌's line copied below the table, then ``change`` (column → value) applied to
    the copy."""
    def edit(wb):
        ws = wb["成绩"]
        first, last, col = _b1_copied(ws)
        for label, value in change.items():
            value = value(ws.cell(first, col[label]).value) if callable(value) else value
            assert value != ws.cell(first, col[label]).value
            ws.cell(last, col[label]).value = value
        at.update(first=first, row=last, cells={l: f"{get_column_letter(col[l])}{last}" for l in change},
                  values={l: ws.cell(first, col[l]).value for l in col})
    return edit


def test_R2016_F3_a_copied_line_with_only_a_signature_changed_counts_once(tmp_path):
    """B组第1桌's line copied with the same result, only a signature cell other (已签 → 已签张):
    the table's result is one — counted once, a note at the copy naming what differs, round 3
    drawn.  It was RESULT_CONFLICT "成绩却不一致" listing the same levels twice, at the 甲方级数
    cell, and held round 3."""
    folder, out, r2 = _t2016_after_round_1(tmp_path)
    at: dict = {}
    edit_attachment(r2, _copy_b1({"甲方签名": lambda v: f"{v or ''}张"}, at), save_as=folder / "inbox" / r2.name)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    mine = [i for i in _issues(out, "t2016-poker") if i["file"] == R2]
    assert [(i["code"], i["severity"]) for i in mine] == [("RESULT_INVALID", "info")], mine
    (said,) = mine
    m = said["message"]
    assert said["cell"] == at["cells"]["甲方签名"], said
    assert "B组第1桌" in m and f"第 {at['first']} 行" in m and f"第 {at['row']} 行" in m, m
    assert "成绩相同" in m and "甲方签名" in m and "按一次计入" in m and "不一致" not in m, m
    assert [r for r in report.state.events["guandan"].results.values()
            if r.match.round == 2 and r.match.group == "B" and r.match.table == 1]
    assert max(r.round for r in report.state.events["guandan"].rounds) == 3


def test_R2016_F3_a_copied_line_with_another_stage_holder_at_other_levels_counts_once(tmp_path):
    """The same levels but another 台上方: at unequal levels the side on stage decides nothing
    (R2016-F4: it decides only equal levels), so the game reads one result from both lines —
    counted once, a note at the 台上方 cell naming both values, round 3 drawn, as two sheets
    received at once would be (handbook RESULT_CONFLICT: 以程序读出的成绩为准).  It was a
    conflict, compared as typed, and held round 3."""
    folder, out, r2 = _t2016_after_round_1(tmp_path)
    at: dict = {}
    edit_attachment(r2, _copy_b1({"台上方": lambda v: "甲" if v != "甲" else "乙"}, at),
                    save_as=folder / "inbox" / r2.name)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    mine = [i for i in _issues(out, "t2016-poker") if i["file"] == R2]
    assert [(i["code"], i["severity"]) for i in mine] == [("RESULT_INVALID", "info")], mine
    (said,) = mine
    assert said["cell"] == at["cells"]["台上方"], said
    assert "台上方" in said["message"] and "按一次计入" in said["message"] and "不一致" not in said["message"], said
    assert at["values"]["甲方级数"] != at["values"]["乙方级数"]
    assert max(r.round for r in report.state.events["guandan"].rounds) == 3
