"""R2020-A1, R2011-A1, R2016-A1: a finished event's places — and so its awards — stay as they
were published while their inputs do, as a published draw is never redrawn.  A new version
that ranks a finished 分组积分编排赛 with 名次奖 otherwise (the groups' 1st were once placed by
entry id, each group apart) keeps the published places and says so (PLACES_KEPT, info); a
corrected result places the event again."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from pipeline import run as run_mod
from pipeline.draw.common import rounds_of, tier_placements
from pipeline.draw.groups_standings import GroupsStandings
from pipeline.run import RunOptions, run
from pipeline.store import Ledger

from tests.e2e.mailedit import edit_attachment, table_header
from tests.newleague.batch import LATER, play_to_completion


def _old_placements(self, state):
    """GroupsStandings.placements before 93c5097: each group ranked apart, whatever the awards."""
    done = rounds_of(state, "group")
    if not done:
        return []
    out = []
    for g, members in done[0].plan["groups"].items():
        out += tier_placements(state, [(f"第{g}组", members)], done, group=g)
    return out


def _data(out: Path, tid: str, name: str) -> list[dict]:
    with open(out / tid / "data" / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _overall(out: Path, tid: str) -> list[tuple]:
    return [(r["rank"], r["entry_id"], r["group"]) for r in _data(out, tid, "standings.csv") if r["stage"] == "overall"]


def _new_version(monkeypatch, out: Path, tid: str) -> None:
    """The next night runs another version of the code: nothing of the last run is its own."""
    monkeypatch.setattr(run_mod.lastrun, "code_hash", lambda: "a-newer-version")
    (out / tid / ".lastrun.json").unlink(missing_ok=True)


@pytest.mark.parametrize("recorded", [True, False], ids=["recorded", "finished-by-an-older-version"])
def test_R2020_A1_an_upgrade_keeps_a_finished_events_published_places(tmp_path, monkeypatch, recorded):
    from tests.e2e.test_playoff_forms import _league

    folder = _league(tmp_path, "groups_standings", 12, seed=1, game="go")
    out = tmp_path / "out"
    with monkeypatch.context() as old_code:
        old_code.setattr(GroupsStandings, "placements", _old_placements)
        played = play_to_completion(folder, out, seed="1")
    tid = played.state.tournament.spec.id
    assert played.state.events["go"].complete
    awards, overall = _data(out, tid, "awards.csv"), _overall(out, tid)
    assert "" not in {r["group"] for r in _data(out, tid, "standings.csv") if r["stage"] == "overall"}   # each group apart
    if not recorded:            # a league finished before places were recorded in the ledger
        with Ledger(out / tid) as ledger:
            ledger.conn.execute("DELETE FROM places")

    # the new code on its own would place the event otherwise (across the groups)
    fresh = tmp_path / "fresh"
    run(RunOptions(folder=folder, out_parent=fresh, pdf=False, now=LATER))
    assert _overall(fresh, tid) != overall and _data(fresh, tid, "awards.csv") != awards

    _new_version(monkeypatch, out, tid)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
    assert _data(out, tid, "awards.csv") == awards and _overall(out, tid) == overall
    (kept,) = [i for i in report.issues if i.code == "PLACES_KEPT"]
    assert kept.severity == "info" and "已公布的名次和奖项保持不变" in kept.message and "公布为" in kept.message
    assert not report.needs_attention
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))     # and the night after
    assert _data(out, tid, "awards.csv") == awards and [i.code for i in again.issues].count("PLACES_KEPT") == 1

    # a corrected result (the last round's first table, sent again) places the event again
    last = max(folder.glob("inbox/*-r3-成绩表.eml"))

    def flip(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        cell = ws.cell(hrow + 1, col["结果"])
        cell.value = {"甲胜": "乙胜", "乙胜": "甲胜"}.get(cell.value, "甲胜")
    edit_attachment(last, flip, save_as=last.with_name("z-corrected.eml"), date="Tue, 01 Jan 2030 08:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
    assert "PLACES_KEPT" not in [i.code for i in report.issues]
    shutil.rmtree(fresh)
    run(RunOptions(folder=folder, out_parent=fresh, pdf=False, now=LATER))
    assert _overall(out, tid) == _overall(fresh, tid) != overall
    assert _data(out, tid, "awards.csv") == _data(fresh, tid, "awards.csv")


def test_R2011_A1_prize_money_is_no_part_of_the_places_digest(tmp_path):
    """R2011-A1 prizes: the digest a finished event's places are published with (and kept by,
    when a new version ranks otherwise) must not hold the prize money — with it, every
    finished event with prizes lost its published places on the upgrade that added it (its
    ledger's digest no longer matched).  The same season with and without prizes: the same
    digests."""
    import datetime as dt
    import sqlite3

    from pipeline.timeutil import TZ

    digests = []
    for with_prizes in (True, False):
        folder = tmp_path / f"p{with_prizes}" / "t2011-court"
        shutil.copytree(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2011-court", folder)
        if not with_prizes:
            spec = folder / "tournament.yaml"
            text = spec.read_text(encoding="utf-8")
            assert text.count("      prizes: {第一名: 300, 第二名: 200, 第三名: 100}\n") == 2
            spec.write_text(text.replace("      prizes: {第一名: 300, 第二名: 200, 第三名: 100}\n", ""), encoding="utf-8")
        out = tmp_path / f"p{with_prizes}" / "out"
        run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
        con = sqlite3.connect(out / "t2011-court" / "ledger.sqlite")
        digests.append(sorted(con.execute("SELECT event, inputs FROM places").fetchall()))
        con.close()
    assert digests[0] and digests[0] == digests[1], digests


def test_R2011_F2_an_upgrade_keeps_places_published_before_the_score_rate(tmp_path, monkeypatch):
    """R2011-F2: a finished 分组循环赛加淘汰赛 placed by an earlier version (the places of groups
    of different sizes by raw points) keeps its published places when the new version would
    compare them by 得分率 (PLACES_KEPT, info) — and the standings do not claim the 得分率 for
    the places they show."""
    from pipeline.draw import groups_knockout

    folder = tmp_path / "t2011-court"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2011-court", folder)
    out = tmp_path / "out"
    with monkeypatch.context() as old_code:
        old_code.setattr(groups_knockout, "by_score_rate", lambda state, grp, tiers: tiers)
        run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
    tid = "t2011-court"
    overall = _overall(out, tid)
    fresh = tmp_path / "fresh"
    run(RunOptions(folder=folder, out_parent=fresh, pdf=False, now=LATER))
    assert _overall(fresh, tid) != overall
    assert "得分率" in (fresh / tid / "standings.html").read_text(encoding="utf-8")

    _new_version(monkeypatch, out, tid)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
    assert _overall(out, tid) == overall
    (kept,) = [i for i in report.issues if i.code == "PLACES_KEPT"]
    assert kept.severity == "info" and "公布为" in kept.message
    assert "得分率" not in (out / tid / "standings.html").read_text(encoding="utf-8")
