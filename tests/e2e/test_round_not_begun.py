"""R2020-S1: a round drawn days before its session waits for no result until the session
begins — the site, the night's summary and RESULT_MISSING said 还差 1 桌 as if overdue."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from pipeline.run import RunOptions, next_deadline, run
from pipeline.spec import load_tournament
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def _mid_season(tmp_path: Path) -> Path:
    """The 2020 league after round 3: the final pools' round 1 drawn for 11-17 16:00."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    for p in (folder / "inbox").iterdir():
        if any(k in p.name for k in ("-r4-", "-r5-", "-r6-", "加赛")):
            p.unlink()
    return folder


def test_R2020_S1_a_round_before_its_session_says_when_it_is_played(tmp_path):
    folder = _mid_season(tmp_path)
    out = tmp_path / "out"
    before = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 13, 12, 0, tzinfo=TZ)))
    (line,) = [e for e in before.events if e.startswith("象棋：")]
    assert line == "象棋：决赛循环赛第1轮已抽签，定于 2020年11月17日 16:00—18:00 进行", line
    page = before.out_dir / "events" / "xiangqi.html"
    assert "定于 2020年11月17日 16:00—18:00 进行" in page.read_text(encoding="utf-8")
    with open(before.out_dir / "data" / "issues.csv", encoding="utf-8") as f:
        missing = [r["message"] for r in csv.DictReader(f) if r["code"] == "RESULT_MISSING" and r["message"].startswith("象棋")]
    assert missing and "尚未到比赛时间" in missing[0] and "还差" not in missing[0]
    # the quick check answers no night past the session's start from this night's record
    t = load_tournament(folder)
    assert next_deadline(t, dt.datetime(2020, 11, 13, 12, 0, tzinfo=TZ)) == dt.datetime(2020, 11, 17, 16, 0, tzinfo=TZ)
    # the session begun, nothing new: the round waits for its results, on the kept page too
    after = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2020, 11, 17, 17, 0, tzinfo=TZ)))
    assert not after.unchanged
    (line,) = [e for e in after.events if e.startswith("象棋：")]
    assert line == "象棋：等待决赛循环赛第1轮成绩：还差 1 桌", line
    assert "等待决赛循环赛第1轮成绩：还差 1 桌" in page.read_text(encoding="utf-8")
