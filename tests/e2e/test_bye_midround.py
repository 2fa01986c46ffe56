"""Standings shown while a round is being played: the entry drawn to sit out (轮空) scores
its bye once the round has been played, not at the draw (``score.table.ScoreTable``)."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def _go_rows(out: Path) -> dict[str, dict[str, str]]:
    with open(out / "t2015-tcm" / "data" / "standings.csv", encoding="utf-8") as f:
        return {r["team"]: r for r in csv.DictReader(f) if r["event"] == "go" and r["stage"] == "swiss"}


def _go_byes(out: Path) -> dict[int, str]:
    with open(out / "t2015-tcm" / "data" / "draw.csv", encoding="utf-8") as f:
        return {int(r["round"]): r["team"] for r in csv.DictReader(f) if r["event"] == "go" and r["bye"] == "1"}


def test_R2015_F1_a_bye_scores_when_its_round_is_played_not_when_it_is_drawn(tmp_path):
    """t2015 围棋 (Swiss, 25 players): round 2 drawn, its results not in yet.  The round-2 bye
    stands on its round-1 points until the round is played; the round-1 bye has its 2."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
    for p in (folder / "inbox").glob("*-go-r*-成绩表.eml"):
        if not p.name.endswith("-go-r1-成绩表.eml"):
            p.unlink()
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    byes = _go_byes(out)
    assert sorted(byes) == [1, 2]
    rows = _go_rows(out)
    first, second = rows[byes[1]], rows[byes[2]]
    assert (first["points"], first["played"]) == ("2", "0")          # round 1 played: its bye counts
    assert second["played"] == "1"         # her round-1 game; round 2 not played yet
    # with round 2's results in, the bye counts (the sample's own sheet)
    shutil.copy(ROOT / "sample_sheets" / "t2015-tcm" / "inbox" / "11071725-go-r2-成绩表.eml", folder / "inbox")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    after = _go_rows(out)[byes[2]]
    assert int(after["points"]) == int(second["points"]) + 2 and after["played"] == "1"
