"""R2016-Q2: a registration row without a 乘车地点 (pick-up point) keeps its player.  The bus
is the office's arrangement, no condition of entry: a blank 乘车地点 was a MISSING_VALUE error
that left the player out of the event (for good once the deadline had passed) while the run
said the unit was accepted.  Now it is a warning, the entry stands, and the bus manifest lists
the player as 未填写 (to be confirmed)."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.render import viewmodels as vms
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2016, 11, 17, 10, 0, tzinfo=TZ)       # after the deadline (11-16 17:00)


def _league(tmp_path: Path) -> Path:
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    return folder


def _blank_pickup(wb) -> None:
    ws = wb["报名表"]
    assert (ws["D8"].value, ws["H8"].value) == ("陶健军", "桥头")
    ws["H8"].value = None


def test_R2016_Q2_a_blank_pick_up_point_keeps_the_player(tmp_path: Path) -> None:
    folder = _league(tmp_path)
    edit_attachment(folder / "inbox" / "1111-g04-报名表.eml", _blank_pickup)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        mine = [i for i in csv.DictReader(f) if i["branch"] == "g04"]
    assert [(i["code"], i["severity"], i["cell"]) for i in mine] == [("MISSING_VALUE", "warning", "H8")]
    assert "本行已受理" in mine[0]["message"]
    assert "g04" in report.accepted_branches
    players = {p.name: p for e in report.state.entries for p in e.players}
    assert "陶健军" in players and players["陶健军"].pickup == ""
    assert sum(e.branch == "g04" for e in report.state.entries) == 3          # all three pairs
    bus = vms.bus_vm(report.state)
    (unfilled,) = [p for p in bus.points if p.name == vms.NO_PICKUP]
    assert [r[1] for r in unfilled.table.rows] == ["陶健军"] and bus.unfilled == 1
    html = (tmp_path / "out" / "t2016-poker" / "bus.html").read_text(encoding="utf-8")
    assert "待确认" in html
