"""A 替补名单 heading under the form's table enters no one below it (the league has no
substitutes) — since c4eabb2.  A version before it skipped such a heading typed in 序号 (the
rest of the line blank) as a blank line, and entered and drew the people under it.  A league
upgraded mid-season must not drop a person from a published round for it: she stays entered
(a note at her 姓名 cell says why), with no DRAW_INPUT_CHANGED (已不在报名中) and no
QUOTA_SHORT she alone caused.  A line under the heading whose person is in no published
round is not entered, as before."""
from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from mailedit import edit_attachment, league_2020

from pipeline import run as run_mod
from pipeline.ingest import registration
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

TID = "t2020-league"
#: after the deadline (2020-11-09 15:00): round 1 of every event is drawn
DRAWN = dt.datetime(2020, 11, 10, 15, 0, tzinfo=TZ)


def _under_heading(wb) -> None:
    """b01's form: 替补名单 typed in 序号 of row 18, its two 斗地主 players (段强, 邱洋桂: rows
    18–19) moved under it."""
    ws = wb["报名表"]
    assert [ws.cell(r, 4).value for r in (18, 19, 20)] == ["段强", "邱洋桂", None]
    for r in (20, 19):
        for c in range(1, 10):
            ws.cell(r, c).value = ws.cell(r - 1, c).value
    for c in range(1, 10):
        ws.cell(18, c).value = None
    ws.cell(18, 1).value = "替补名单"


def _rows(out: Path, name: str) -> list[dict[str, str]]:
    with open(out / TID / "data" / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _b01_doudizhu(out: Path, name: str) -> list[str]:
    return sorted(r["team"] for r in _rows(out, name) if r.get("event") == "doudizhu" and r.get("branch") == "b01")


def _warned(report) -> list[tuple[str, str]]:
    return sorted((i.code, i.message) for i in report.issues if i.severity != "info")


def test_drawn_players_under_a_substitutes_heading_stay_entered_after_an_upgrade(tmp_path, monkeypatch):
    folder, _ = league_2020(tmp_path)
    edit_attachment(folder / "inbox" / "1104-b01-报名表.eml", _under_heading)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    out = tmp_path / "out"
    with monkeypatch.context() as old:          # the version before the heading was known
        old.setattr(registration, "_substitutes_heading", lambda raw: None)
        old.setattr(run_mod.lastrun, "code_hash", lambda: "an-older-version")
        before = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=DRAWN))
    both = ["段强", "邱洋桂"]
    assert _b01_doudizhu(out, "entries.csv") == both and _b01_doudizhu(out, "draw.csv") == both
    assert not [i for i in before.issues if i.code == "QUOTA_SHORT" or "替补" in i.message]

    monkeypatch.setattr(run_mod.lastrun, "code_hash", lambda: "this-version")
    (out / TID / ".lastrun.json").unlink()
    for night in (1, 2):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=DRAWN + dt.timedelta(minutes=30)))
        assert _b01_doudizhu(out, "entries.csv") == both, night
        codes = [(i.code, i.message) for i in report.issues]
        assert not [c for c in codes if c[0] in ("DRAW_INPUT_CHANGED", "QUOTA_SHORT")], codes
        said = sorted((i for i in report.issues if "替补" in i.message), key=lambda i: int(i.cell[1:]))
        assert [(i.code, i.severity, i.cell) for i in said] == [("BAD_VALUE", "info", c) for c in ("A18", "D19", "D20")]
        assert "已在公布的对阵中的除外" in said[0].message, said[0].message
        for i, who in zip(said[1:], both):
            assert f"“{who}”写在“替补名单”之下" in i.message and "斗地主第1轮" in i.message, i.message
            assert "仍保留报名" in i.message and "重新发送" not in i.message, i.message
        assert report.entries == before.entries
        assert _warned(report) == _warned(before)       # the upgrade warns of nothing

    # this version alone, the same inbox: no round published when the form was read — they are
    # not entered, nor drawn (the heading means what it says)
    fresh = tmp_path / "fresh"
    report = run(RunOptions(folder=folder, out_parent=fresh, pdf=False, now=DRAWN))
    assert _b01_doudizhu(fresh, "entries.csv") == [] and _b01_doudizhu(fresh, "draw.csv") == []
    said = [i for i in report.issues if "替补人员没有录入" in i.message]
    assert [(i.severity, i.cell) for i in said] == [("warning", "D19"), ("warning", "D20")]
