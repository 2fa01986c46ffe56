"""R2020-S1: round k goes to the k-th session — but a round drawn after that session has
begun cannot be played in it.  An audit (围棋 round 1's results came late) found round 2 drawn
on 11-10 and printed for 11-05, and the summary at once said 等待…成绩：还差 12 桌.  Such a
round goes to the first later session not yet begun; with none left it is published with no
date (比赛时间另行通知) and SESSION_PASSED asks the office to set one."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def _late_round_one(tmp_path: Path) -> tuple[Path, Path]:
    """The 2020 league with its round 1 sheets held back (sessions 11-10, 11-11, 11-12,
    11-17, 11-18, 16:00—18:00): round 1 drawn on 11-09 for 11-10."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    hold = tmp_path / "hold"
    hold.mkdir()
    for p in (folder / "inbox").iterdir():
        if "成绩表" in p.name or "加赛" in p.name:
            p.rename(hold / p.name)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 9, 20, 0, tzinfo=TZ)))
    for p in hold.iterdir():
        if "-r1-" in p.name:
            p.rename(folder / "inbox" / p.name)
    return folder, out


def _issues(out_dir: Path, code: str) -> list[str]:
    with open(out_dir / "data" / "issues.csv", encoding="utf-8") as f:
        return [r["message"] for r in csv.DictReader(f) if r["code"] == code]


def test_R2020_S1_round_drawn_after_its_session_goes_to_the_next_one_not_begun(tmp_path):
    folder, out = _late_round_one(tmp_path)
    # round 1's results read on 11-11 at 20:00: round 2's session (11-11 16:00) has begun
    rep = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 11, 20, 0, tzinfo=TZ)))
    (line,) = [e for e in rep.events if e.startswith("象棋：")]
    assert line == "象棋：第2轮淘汰赛（11进6）已抽签，定于 2020年11月12日 16:00—18:00 进行", line
    draw = (rep.out_dir / "draws" / "xiangqi-r2.html").read_text(encoding="utf-8")
    assert "2020年11月12日 16:00—18:00" in draw and "2020年11月11日" not in draw
    import openpyxl
    a3 = str(openpyxl.load_workbook(rep.out_dir / "results" / "xiangqi-r2-成绩表.xlsx")["成绩"]["A3"].value)
    assert "2020年11月12日" in a3, a3
    assert not [m for m in _issues(rep.out_dir, "RESULT_MISSING") if m.startswith("象棋") and "还差" in m]
    # round 1 keeps the session it was published for
    assert "2020年11月10日 16:00—18:00" in (rep.out_dir / "draws" / "xiangqi-r1.html").read_text(encoding="utf-8")


def test_R2020_S1_round_drawn_after_the_last_session_has_no_date_and_a_warning(tmp_path):
    folder, out = _late_round_one(tmp_path)
    rep = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 18, 17, 0, tzinfo=TZ)))
    (line,) = [e for e in rep.events if e.startswith("象棋：")]
    assert line.startswith("象棋：第2轮淘汰赛（11进6）已抽签") and "另行通知" in line and "等待" not in line, line
    draw = (rep.out_dir / "draws" / "xiangqi-r2.html").read_text(encoding="utf-8")
    assert "比赛时间另行通知" in draw and "2020年11月18日" not in draw
    passed = [m for m in _issues(rep.out_dir, "SESSION_PASSED") if m.startswith("象棋")]
    assert passed and "第2轮" in passed[0] and "2020年11月11日" in passed[0], passed
    # the next night, nothing new: the published round keeps its (missing) date
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 19, 9, 0, tzinfo=TZ)))
    assert "比赛时间另行通知" in (again.out_dir / "draws" / "xiangqi-r2.html").read_text(encoding="utf-8")
