"""R2016-Q1, R2015-Q3 as drawn: a quota by membership (ratio, bands) is computed from the units'
member counts, and a drawn event keeps the counts it was drawn under.  (The audit's case: g03's
``members`` 60 → 12 in tournament.yaml after the finished t2016 league refused its four drawn
and played pairs — QUOTA_EXCEEDED × 8 —, dropped group B's winner, sent group B to a 加赛 and
wiped every award, with only a generic DRAW_INPUT_CHANGED said.)  Now the drawn event's
entries stay as drawn, TERMS_CHANGED names the unit and both counts; an event not drawn yet
uses the new count; a ledger drawn before the counts were recorded behaves as before."""
from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3
from pathlib import Path

from pipeline.run import TERMS_KEY, RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _copy(tmp_path: Path, sample: str) -> Path:
    folder = tmp_path / sample
    shutil.copytree(ROOT / "sample_sheets" / sample, folder)
    return folder


def _edit(folder: Path, old: str, new: str) -> None:
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    spec.write_text(text.replace(old, new), encoding="utf-8")


def _data(out_dir: Path, name: str) -> bytes:
    return (out_dir / "data" / name).read_bytes()


G03_60 = "captain: 钱丽华, members: 60"


def test_R2016_Q1_members_lowered_after_the_draw_keep_the_drawn_quota_and_the_awards(tmp_path):
    folder = _copy(tmp_path, "t2016-poker")
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not first.needs_attention and _data(first.out_dir, "awards.csv").count(b"\n") == 9   # 8 awards
    _edit(folder, G03_60, "captain: 钱丽华, members: 12")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    codes = [i.code for i in again.issues]
    assert not {"QUOTA_EXCEEDED", "DRAW_INPUT_CHANGED", "BAD_VALUE", "RESULT_INVALID", "PLAYOFF_REQUIRED"} & set(codes), codes
    (note,) = [i for i in again.issues if i.code == "TERMS_CHANGED"]
    assert note.severity.value == "warning" and again.needs_attention
    assert "会计学院分工会（g03）的会员人数（members）60 → 12（本项目名额 4 队 → 1 队）" in note.message, note.message
    assert "尚未抽签的项目按新的会员人数计算名额" in note.message
    assert again.entries == first.entries
    for name in ("entries.csv", "draw.csv", "standings.csv", "awards.csv"):
        assert _data(again.out_dir, name) == _data(first.out_dir, name), name


def test_R2016_Q1_members_changed_without_changing_the_quota_are_not_said(tmp_path):
    """60 → 61 members: still 4 pairs (floor(9.15) = 9 players) — nothing to say."""
    folder = _copy(tmp_path, "t2016-poker")
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    _edit(folder, G03_60, "captain: 钱丽华, members: 61")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not again.needs_attention, [i.message for i in again.issues if i.severity.value != "info"]


def test_R2016_Q1_an_event_not_drawn_yet_uses_the_new_members(tmp_path):
    """While registration is open (deadline 11-16 17:00; every form is in by 11-13) the new
    count is the quota: g03's four pairs are over a quota of 1, as the office meant, and its
    captain can still send a corrected form.  (After the deadline, before the check-in draw,
    the count the pairs were accepted under is kept: test_terms_closed.py.)"""
    folder = _copy(tmp_path, "t2016-poker")
    out = tmp_path / "out"
    before_draw = dt.datetime(2016, 11, 15, 12, 0, tzinfo=TZ)
    run(RunOptions(folder=folder, out_parent=out, now=before_draw, pdf=False))
    _edit(folder, G03_60, "captain: 钱丽华, members: 12")
    again = run(RunOptions(folder=folder, out_parent=out, now=before_draw, pdf=False))
    exceeded = [i for i in again.issues if i.code == "QUOTA_EXCEEDED"]
    assert exceeded and {i.branch for i in exceeded} == {"g03"}
    assert "会员 12 人的 15%" in exceeded[0].message and "限 1 队" in exceeded[0].message
    assert "TERMS_CHANGED" not in [i.code for i in again.issues]


def test_R2016_Q1_a_ledger_drawn_without_the_members_keeps_todays_behaviour(tmp_path):
    """A round 1 recorded by a version that kept no member counts: the spec's counts, as
    before (no crash, no TERMS_CHANGED for members)."""
    folder = _copy(tmp_path, "t2016-poker")
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    with sqlite3.connect(first.out_dir / "ledger.sqlite") as db:
        (body,) = db.execute("SELECT body FROM rounds WHERE event='guandan' AND round=1").fetchone()
        rnd = json.loads(body)
        assert rnd["plan"][TERMS_KEY]["members"]["g03"] == 60
        del rnd["plan"][TERMS_KEY]["members"]
        db.execute("UPDATE rounds SET body=? WHERE event='guandan' AND round=1", (json.dumps(rnd, ensure_ascii=False),))
    _edit(folder, G03_60, "captain: 钱丽华, members: 12")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    codes = [i.code for i in again.issues]
    assert "QUOTA_EXCEEDED" in codes and "TERMS_CHANGED" not in codes


def test_R2015_Q3_a_band_lost_after_the_draw_keeps_the_drawn_pairs(tmp_path):
    """护理学院 (t07) 50 → 49 members after the 双扣 draw: band 50 (2 pairs) → band 0 (1 pair);
    its two drawn pairs stay, TERMS_CHANGED says so; the open-quota events say nothing."""
    folder = _copy(tmp_path, "t2015-tcm")
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not first.needs_attention
    _edit(folder, "captain: 罗晓梅, members: 50", "captain: 罗晓梅, members: 49")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert "QUOTA_EXCEEDED" not in [i.code for i in again.issues]
    (note,) = [i for i in again.issues if i.code == "TERMS_CHANGED"]
    assert note.message.startswith("双扣（shuangkou）已公布抽签") and \
        "护理学院分工会（t07）的会员人数（members）50 → 49（本项目名额 2 队 → 1 队）" in note.message, note.message
    assert again.entries == first.entries
    for name in ("draw.csv", "standings.csv", "awards.csv"):
        assert _data(again.out_dir, name) == _data(first.out_dir, name), name
