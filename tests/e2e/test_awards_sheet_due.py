"""R2015-A1: the 评奖表 awards (风尚奖 … 组织奖) are the office's to decide, on the 评奖表 it
fills in and puts in the inbox.  With every event finished and no 评奖表 received, nothing
said these awards were still to come: the run's 工会办公室下一步 was silent and the index
and the 获奖名单 looked final (an audit).  The step and a line on both pages say it."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from pipeline.run import RunOptions, run
from pipeline.text import to_simplified
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _run(tmp_path: Path, with_sheet: bool):
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    if not with_sheet:
        for p in (folder / "inbox").glob("*评奖*"):
            p.unlink()
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    out = tmp_path / "out" / "t2015-tcm"
    return report, out


@pytest.mark.parametrize("with_sheet", [False, True])
def test_R2015_A1_awards_still_to_decide_without_the_awards_sheet(tmp_path: Path, with_sheet: bool) -> None:
    report, out = _run(tmp_path, with_sheet)
    assert all("已完成" in e for e in report.events), report.events
    steps = [s for s in report.next_steps if "评奖表" in s]
    index = (out / "index.html").read_text(encoding="utf-8")
    awards = (out / "awards.html").read_text(encoding="utf-8")
    if with_sheet:
        assert not steps, steps
        assert "尚待评定" not in to_simplified(index) + to_simplified(awards)
        return
    (step,) = steps
    assert "forms/评奖表.xlsx" in step and "inbox" in step and "风尚奖" in step and "组织奖" in step, step
    for page in (index, awards):      # (a Traditional league: its pages read as the office reads them)
        page = to_simplified(page)
        assert "风尚奖、潜力选手奖、优胜奖、特别贡献奖、组织奖尚待评定（尚未收到评奖表）" in page
