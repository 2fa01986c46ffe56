"""A league running when the bye scoring changed (a round robin's rest scores nothing, a 掼蛋
bye counts in 总局分): the rounds published before were drawn from the same results, their
byes scored the old way — no DRAW_INPUT_CHANGED for them (the office was told the results
had changed when none had)."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from pipeline import run as run_mod
from pipeline.model import MatchResult, Outcome, SideResult
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _old_add_byes(self, rnd):
    """EventRunner.add_byes as it was: every bye the event's bye points, no score."""
    for m in rnd.matches:
        if m.bye and m.sides:
            self.results[m.key] = MatchResult(
                match=m, sides=(SideResult(Outcome.BYE, points=self.points.get("bye", 0), place=1),), reason="轮空")


def test_rounds_drawn_with_the_old_bye_scores_are_not_said_to_have_changed(tmp_path, monkeypatch):
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").glob("*-guandan-r*-成绩表.eml"):
        if "-r1-" not in p.name:
            p.unlink()
    out = tmp_path / "out"
    with monkeypatch.context() as mp:
        mp.setattr(run_mod.EventRunner, "add_byes", _old_add_byes)
        old = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert len(old.state.events["guandan"].rounds) == 2
    assert any(m.bye for m in old.state.events["guandan"].rounds[0].matches)     # round 2 drawn from a bye
    # the new code's first night: nothing kept from the old one (its code hash differs)
    from pipeline.store import Ledger
    with Ledger(out / "t2016-poker") as ledger:
        ledger.cache_prune("", set())
    (out / "t2016-poker" / ".lastrun.json").unlink(missing_ok=True)      # (no quick unchanged night)
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        assert not [r for r in csv.DictReader(f) if r["code"] == "DRAW_INPUT_CHANGED"]
