"""R2020-S1: round k goes to the k-th session — but a round first drawn after that session
began, because the results it is drawn from came in after it began, was not played there.
An audit found such a round (象棋 round 1's sheets came late, round 2 drawn that night)
printed for its passed session on the draw sheet and result workbook, and the summary at
once said 等待…成绩：还差 N 桌, as if it were played and its sheets overdue.  Such a round goes
to the first later session not yet begun; with none left it is published with no date
(比赛时间另行通知) and SESSION_PASSED tells the office, once, to set one.

A round drawn in time and a run replayed later (the tests' --now 2030, a rerun) are not
late: the round was published before its session (the ledger's record), or its results were
all in before the session began (a night replayed)."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import openpyxl

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from mailedit import edit_attachment

ROOT = Path(__file__).resolve().parents[2]


def _league(tmp_path: Path, r1_date: str | None) -> tuple[Path, Path]:
    """The 2020 league (sessions 11-10, 11-11, 11-12, 11-17, 11-18, 16:00—18:00) with only
    象棋 round 1's result sheet in its inbox — its mail dated ``r1_date`` (None: as in the
    sample, 11-10 17:55) — and round 1 drawn on 11-09 for 11-10 before it came."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    hold = tmp_path / "hold"
    hold.mkdir()
    for p in (folder / "inbox").iterdir():
        if "成绩表" in p.name or "加赛" in p.name:
            p.rename(hold / p.name)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 9, 20, 0, tzinfo=TZ)))
    r1 = next(p for p in hold.iterdir() if "xiangqi-r1" in p.name)
    edit_attachment(r1, lambda wb: None, save_as=folder / "inbox" / r1.name, date=r1_date)
    return folder, out


def _issues(out_dir: Path, code: str) -> list[dict[str, str]]:
    with open(out_dir / "data" / "issues.csv", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["code"] == code and r["message"].startswith("象棋")]


def _a3(out_dir: Path) -> str:
    return str(openpyxl.load_workbook(out_dir / "results" / "xiangqi-r2-成绩表.xlsx")["成绩"]["A3"].value)


def test_R2020_S1_round_drawn_after_its_session_goes_to_the_next_one_not_begun(tmp_path):
    # round 1's sheet came on 11-11 at 19:00, after round 2's session (11-11 16:00) began
    folder, out = _league(tmp_path, "Wed, 11 Nov 2020 19:00:00 +0800")
    rep = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 11, 20, 0, tzinfo=TZ)))
    (line,) = [e for e in rep.events if e.startswith("象棋：")]
    assert line == "象棋：第2轮淘汰赛（11进6）已抽签，定于 2020年11月12日 16:00—18:00 进行", line
    draw = (rep.out_dir / "draws" / "xiangqi-r2.html").read_text(encoding="utf-8")
    assert "2020年11月12日 16:00—18:00" in draw and "2020年11月11日" not in draw
    assert "2020年11月12日" in _a3(rep.out_dir) and "2020年11月11日" not in _a3(rep.out_dir)
    (passed,) = _issues(rep.out_dir, "SESSION_PASSED")      # the office tells the units and referees
    assert passed["severity"] == "warning"
    assert "2020年11月11日" in passed["message"] and "已改排在之后第一个尚未开始的场次 2020年11月12日" in passed["message"]
    assert "11月11日 19:00 才收齐" in passed["message"], passed
    # round 1 keeps the session it was published for
    assert "2020年11月10日 16:00—18:00" in (rep.out_dir / "draws" / "xiangqi-r1.html").read_text(encoding="utf-8")


def test_R2020_S1_round_drawn_after_the_last_session_has_no_date_and_a_warning_once(tmp_path):
    folder, out = _league(tmp_path, "Wed, 18 Nov 2020 17:00:00 +0800")
    rep = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 18, 20, 0, tzinfo=TZ)))
    (line,) = [e for e in rep.events if e.startswith("象棋：")]
    assert line.startswith("象棋：第2轮淘汰赛（11进6）已抽签") and "另行通知" in line and "还差" not in line, line
    draw = (rep.out_dir / "draws" / "xiangqi-r2.html").read_text(encoding="utf-8")
    assert "比赛时间另行通知" in draw and "2020年11月11日" not in draw
    assert "比赛时间另行通知" in _a3(rep.out_dir) and "2020年11月11日" not in _a3(rep.out_dir)
    (passed,) = _issues(rep.out_dir, "SESSION_PASSED")
    assert passed["severity"] == "warning"
    assert "第2轮" in passed["message"] and "2020年11月11日" in passed["message"] and "sessions" in passed["message"]
    assert not [i for i in _issues(rep.out_dir, "RESULT_MISSING") if "还差" in i["message"]]
    # the next night, nothing new but a deleted .lastrun.json: the same, said as a note now
    (rep.out_dir / ".lastrun.json").unlink()
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 19, 20, 0, tzinfo=TZ)))
    assert "比赛时间另行通知" in (again.out_dir / "draws" / "xiangqi-r2.html").read_text(encoding="utf-8")
    (passed,) = _issues(again.out_dir, "SESSION_PASSED")
    assert passed["severity"] == "info", passed


def test_R2020_S1_round_drawn_before_its_session_is_not_late_when_rerun_later(tmp_path):
    folder, out = _league(tmp_path, None)       # round 1's sheet on 11-10 17:55
    rep = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 10, 20, 0, tzinfo=TZ)))
    # the session still to come: not waiting for results, not late
    (line,) = [e for e in rep.events if e.startswith("象棋：")]
    assert line == "象棋：第2轮淘汰赛（11进6）已抽签，定于 2020年11月11日 16:00—18:00 进行", line
    (missing,) = [i for i in _issues(rep.out_dir, "RESULT_MISSING")]
    assert "尚未到比赛时间" in missing["message"] and "还差" not in missing["message"], missing
    # rerun a week later: the round was published before its session — no warning, date kept
    (rep.out_dir / ".lastrun.json").unlink()
    later = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 19, 20, 0, tzinfo=TZ)))
    assert not _issues(later.out_dir, "SESSION_PASSED")
    assert "2020年11月11日 16:00—18:00" in (later.out_dir / "draws" / "xiangqi-r2.html").read_text(encoding="utf-8")
    (line,) = [e for e in later.events if e.startswith("象棋：")]
    assert "等待第2轮" in line and "还差" in line, line


def test_R2020_S1_a_night_replayed_long_after_draws_in_time_from_results_in_before_the_session(tmp_path):
    """--now far ahead (as many tests run), round 1's results in on 11-10: round 2 is drawn
    from results that were in before its session — a night replayed, not a late draw."""
    folder, out = _league(tmp_path, None)
    rep = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    assert not _issues(rep.out_dir, "SESSION_PASSED")
    assert "2020年11月11日 16:00—18:00" in (rep.out_dir / "draws" / "xiangqi-r2.html").read_text(encoding="utf-8")
    (line,) = [e for e in rep.events if e.startswith("象棋：")]
    assert "等待第2轮" in line and "还差" in line, line
