"""R2015-A1: the 评奖表 is the office's own sheet.  A row of it the run could not take (a unit
typed "后勤" that is in no unit's name: UNKNOWN_BRANCH at its 单位 cell) left the office the
next step "把 data/issues.csv 中没有收取的文件（UNREADABLE_FILE、TEMPLATE_MISMATCH 等，未归属单位）
告知发来的人：请用组委会下发的表格…重发" — but the file was taken (its other rows counted), and
the office filled it in itself.  The step names the 评奖表 and asks the office to correct it
and put it in the inbox again; a 评奖表 with warnings only asks nothing."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _run_with_awards(tmp_path: Path, edit) -> list[str]:
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))

    def on_sheet(wb):
        ws = wb["评奖"]
        head = next(r for r in range(1, 30) if any(c.value == "奖项" for c in ws[r]))
        edit(ws, head, {c.value: c.column for c in ws[head] if c.value})
    edit_attachment(next((folder / "inbox").glob("*评奖*")), on_sheet)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    return report.next_steps


def test_R2015_A1_an_awards_row_naming_no_unit_asks_the_office_to_correct_its_sheet(tmp_path: Path) -> None:
    def short_unit(ws, head, col):
        row = next(r for r in range(head + 1, head + 20) if ws.cell(r, col["奖项"]).value == "组织奖")
        ws.cell(row, col["单位"]).value = "总务处"       # (no unit of the league)
    steps = _run_with_awards(tmp_path, short_unit)
    assert not any("没有收取的文件" in s or "告知发来的人" in s for s in steps), steps
    (step,) = [s for s in steps if "评奖表" in s]
    assert "《评奖.xlsx》" in step and "UNKNOWN_BRANCH" in step and "inbox" in step, step


def test_R2015_A1_an_awards_row_with_an_unknown_award_asks_the_office_to_correct_its_sheet(tmp_path: Path) -> None:
    def typo(ws, head, col):
        ws.cell(head + 1, col["奖项"]).value = "风尚将"
    steps = _run_with_awards(tmp_path, typo)
    assert not any("没有收取的文件" in s for s in steps), steps
    (step,) = [s for s in steps if "评奖表" in s]
    assert "《评奖.xlsx》" in step and "BAD_VALUE" in step, step


def test_R2015_A1_an_awards_sheet_with_warnings_only_asks_nothing(tmp_path: Path) -> None:
    """A row repeating an award (BAD_VALUE warning: counted once) needs nothing of the office."""
    def repeated(ws, head, col):
        row = next(r for r in range(head + 1, head + 20) if ws.cell(r, col["奖项"]).value is None)
        for c in col.values():
            ws.cell(row, c).value = ws.cell(head + 1, c).value
    steps = _run_with_awards(tmp_path, repeated)
    assert not any("没有收取的文件" in s or "评奖表" in s for s in steps), steps
