"""A run whose time (the machine's clock, or --now) is before a round the ledger already
published: CLOCK_BEHIND (warning) names the round and its time; nothing else changes.  A
clock set back judged deadlines as not passed and invited re-sent forms without a word."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from pipeline.run import RunOptions, run

from .common import copy_sample

AFTER_DRAW = dt.datetime.fromisoformat("2016-12-31T00:00+08:00")     # every round played and published


def _night(folder: Path, out: Path, now: dt.datetime):
    return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))


def test_a_run_before_a_published_round_says_the_clock_is_behind(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    first = _night(folder, out, AFTER_DRAW)
    assert not [i for i in first.issues if i.code == "CLOCK_BEHIND"]
    draws = sorted((out / "t2016-poker").glob("draws/*.html"))
    assert draws, "the sample publishes a round by then"
    back = _night(folder, out, AFTER_DRAW - dt.timedelta(days=3))
    (i,) = [i for i in back.issues if i.code == "CLOCK_BEHIND"]
    assert i.severity.value == "warning" and "（2016-12-28 00:00）早于" in i.message
    assert "轮抽签公布的时间（2016-12-31 00:00）" in i.message and "--now" in i.message
    assert sorted((out / "t2016-poker").glob("draws/*.html")) == draws
    again = _night(folder, out, AFTER_DRAW + dt.timedelta(hours=1))
    assert not [i for i in again.issues if i.code == "CLOCK_BEHIND"]


def test_the_latest_round_is_found_by_its_moment_not_its_text() -> None:
    """Round 2 published at 13:00Z (21:00 in Beijing, kept as +00:00) is later than round 1 at
    20:00+08:00, though its text sorts first: a run at 20:30+08:00 is behind it (a review)."""
    import types

    from pipeline.issues import IssueLog
    from pipeline.run import clock_behind

    rows = [("gd", 1, "2016-11-26T20:00:00+08:00"), ("gd", 2, "2016-11-26T13:00:00+00:00")]
    ledger = types.SimpleNamespace(published_rounds=lambda: rows, received=lambda: [])
    t = types.SimpleNamespace(spec=types.SimpleNamespace(events=[types.SimpleNamespace(id="gd", name="扑克牌")]))
    issues = IssueLog()
    clock_behind(ledger, dt.datetime.fromisoformat("2016-11-26T20:30+08:00"), issues, t)
    (i,) = list(issues)
    assert i.code == "CLOCK_BEHIND" and "“扑克牌”第2轮" in i.message and "2016-11-26 21:00" in i.message
    issues = IssueLog()
    clock_behind(ledger, dt.datetime.fromisoformat("2016-11-26T21:30+08:00"), issues, t)
    assert not list(issues)
