"""A header renamed or deleted in a captain's or a referee's workbook: never a silent loss.
A registration column other than 项目/姓名 is HEADER_CHANGED (warning, the rows still
taken); a result sheet missing one of its key, side or result headers is TEMPLATE_MISMATCH
and nothing of it is scored."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2020, 11, 10, 20, 0, tzinfo=TZ)       # round 1 played, its sheets in


def _rename(sheet: str, old: str, new: str):
    def edit(wb):
        ws = wb[sheet]
        cell = next(c for row in ws.iter_rows(max_row=40) for c in row if c.value == old)
        cell.value = new
    return edit


def _league(tmp_path: Path) -> Path:
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    return folder


def _issues(out: Path) -> list[dict]:
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_a_renamed_staff_number_header_is_said_and_the_rows_are_kept(tmp_path: Path) -> None:
    folder = _league(tmp_path)
    edit_attachment(folder / "inbox" / "1104-b01-报名表.eml", _rename("报名表", "工号", "职工号"))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    (changed,) = [i for i in _issues(tmp_path / "out") if i["code"] == "HEADER_CHANGED"]
    assert changed["severity"] == "warning" and changed["branch"] == "b01" and changed["cell"].startswith("A")
    assert "“工号”" in changed["message"] and "恢复原模板的列名" in changed["message"]
    assert "b01" in report.accepted_branches and sum(e.branch == "b01" for e in report.state.entries) > 0


def test_a_renamed_result_header_scores_nothing_and_says_so(tmp_path: Path) -> None:
    folder = _league(tmp_path)
    edit_attachment(folder / "inbox" / "11101755-xiangqi-r1-成绩表.eml", _rename("成绩", "结果", "胜负"))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    bad = [i for i in _issues(tmp_path / "out") if i["code"] == "TEMPLATE_MISMATCH"]
    assert len(bad) == 1 and "“结果”" in bad[0]["message"] and bad[0]["sheet"] == "成绩"
    assert not [i for i in _issues(tmp_path / "out")                     # not one per row
                if i["code"] == "RESULT_INVALID" and i["file"] == bad[0]["file"]]
    xq = report.state.events["xiangqi"]
    assert len(xq.rounds) == 1 and not xq.results


def test_pick_up_points_added_after_the_forms_went_out_lose_no_entry(tmp_path: Path) -> None:
    """The office adds bus pick-up points to tournament.yaml after the league has run: every
    form sent before has no 乘车地点 column.  They were all TEMPLATE_MISMATCH — no entries,
    the awards list emptied; now each is accepted, with a warning to resend on the new form."""
    folder = _league(tmp_path)
    first = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "\npickup_points: [东门, 西门, 自行到达]\n", encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert len(again.state.entries) == len(first.state.entries) > 0
    assert again.accepted_branches == first.accepted_branches
    found = _issues(tmp_path / "out")
    assert not [i for i in found if i["code"] == "TEMPLATE_MISMATCH"]
    changed = [i for i in found if i["code"] == "HEADER_CHANGED"]
    assert len(changed) == len(first.accepted_branches) and "乘车地点" in changed[0]["message"]
