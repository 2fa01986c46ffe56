"""A night run with the clock (or --now) far ahead publishes rounds with that time; every
later night with the right clock is "before" them.  CLOCK_BEHIND told the office to check
this machine's clock and run again — which changes nothing, and held the exit status at 1
until that date (audit 38).  When the recorded time is far ahead of this run's time and of
every received file's time (mail Dates, file times), it is the earlier run's clock that was
wrong: CLOCK_WAS_AHEAD names that run's time, says the draw stays as published, and is said
once (SAID_ONCE: a warning on the night it is first seen, a note after)."""
from __future__ import annotations

import datetime as dt
import types
from pathlib import Path

from pipeline.issues import SAID_ONCE, IssueLog
from pipeline.model import Severity
from pipeline.run import RunOptions, clock_behind, run

from .common import copy_sample

AHEAD = dt.datetime.fromisoformat("2029-11-09T16:00+08:00")      # a mistyped --now (the sample's mails: 2020-11)


def _night(folder: Path, out: Path, now: dt.datetime):
    return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))


def _clock(report):
    return [i for i in report.issues if i.code in ("CLOCK_BEHIND", "CLOCK_WAS_AHEAD")]


def test_an_earlier_run_far_ahead_is_said_once_as_that_runs_clock(tmp_path: Path) -> None:
    folder = copy_sample("t2020-league", tmp_path)
    out = tmp_path / "out"
    first = _night(folder, out, AHEAD)
    assert not _clock(first) and (out / "t2020-league" / "draws").is_dir()
    draws = sorted(p.name for p in (out / "t2020-league" / "draws").iterdir())
    night = _night(folder, out, dt.datetime.fromisoformat("2020-11-20T20:00+08:00"))
    (i,) = _clock(night)
    assert i.code == "CLOCK_WAS_AHEAD" and i.severity == Severity.WARNING and night.needs_attention
    assert "2029-11-09 16:00" in i.message and "那次运行" in i.message, i.message
    assert "不会重新抽签" in i.message and "重新运行" not in i.message, i.message
    assert "2020-11-20" not in i.message        # said alike every night: a note after the first
    assert sorted(p.name for p in (out / "t2020-league" / "draws").iterdir()) == draws
    later = _night(folder, out, dt.datetime.fromisoformat("2020-11-21T20:00+08:00"))
    (j,) = _clock(later)
    assert j.code == "CLOCK_WAS_AHEAD" and j.severity == Severity.INFO and j.message == i.message
    assert not later.needs_attention, [x for x in later.issues if x.severity != Severity.INFO]
    again = _night(folder, out, dt.datetime.fromisoformat("2020-11-21T20:00+08:00"))     # unchanged night
    assert [(x.code, x.severity) for x in _clock(again)] == [("CLOCK_WAS_AHEAD", Severity.INFO)]
    assert not again.needs_attention


def _ledger(published: str, received: list[str]):
    return types.SimpleNamespace(
        published_rounds=lambda: [("gd", 1, published)],
        received=lambda: [types.SimpleNamespace(received_at=dt.datetime.fromisoformat(r)) for r in received])


_T = types.SimpleNamespace(spec=types.SimpleNamespace(events=[types.SimpleNamespace(id="gd", name="扑克牌")]))


def test_this_runs_clock_set_back_is_still_said_to_be_this_ones() -> None:
    """A clock reset to 2000 (a dead CMOS battery) is far behind the round and every file:
    CLOCK_BEHIND, this machine's clock to check; so is a clock a few days behind."""
    ledger = _ledger("2020-11-30T20:00+08:00", ["2020-11-04T18:00+08:00", "2020-11-18T17:55+08:00"])
    for now in ("2000-01-01T00:00+08:00", "2020-11-27T20:00+08:00"):
        issues = IssueLog()
        clock_behind(ledger, dt.datetime.fromisoformat(now), issues, _T)
        (i,) = list(issues)
        assert i.code == "CLOCK_BEHIND" and "请核对系统时钟" in i.message, (now, i.message)


def test_a_round_far_ahead_of_this_run_and_of_every_file_is_the_earlier_runs_clock() -> None:
    ledger = _ledger("2099-01-01T00:00+08:00", ["2020-11-04T18:00+08:00", "2020-11-18T17:55+08:00"])
    issues = IssueLog()
    clock_behind(ledger, dt.datetime.fromisoformat("2020-11-20T00:00+08:00"), issues, _T)
    (i,) = list(issues)
    assert i.code == "CLOCK_WAS_AHEAD" and "2099-01-01 00:00" in i.message and "“扑克牌”第1轮" in i.message
    assert "CLOCK_WAS_AHEAD" in SAID_ONCE


def test_a_clock_set_back_before_the_newest_file_is_clock_behind():
    """A review: forms closed Oct 1, round 1 drawn at check-in Nov 10 (nothing received
    since), this machine's clock set back 45 days (Sep 26): this run's time is before a file
    it holds, so its own clock is behind — CLOCK_BEHIND, not CLOCK_WAS_AHEAD's "nothing to do"."""
    from types import SimpleNamespace

    TZ = dt.timezone(dt.timedelta(hours=8))
    published = dt.datetime(2024, 11, 10, 9, 0, tzinfo=TZ)
    files = [dt.datetime(2024, 9, 20, tzinfo=TZ), dt.datetime(2024, 10, 1, 12, tzinfo=TZ)]
    ledger = SimpleNamespace(published_rounds=lambda: [("guandan", 1, published.isoformat())],
                             received=lambda: [SimpleNamespace(received_at=f) for f in files])
    t = SimpleNamespace(spec=SimpleNamespace(events=[SimpleNamespace(id="guandan", name="掼蛋")]))
    log = IssueLog()
    clock_behind(ledger, published - dt.timedelta(days=45), log, t)
    assert [i.code for i in log] == ["CLOCK_BEHIND"]
    log = IssueLog()        # the same clock after the newest file: the earlier run's was ahead
    clock_behind(ledger, dt.datetime(2024, 10, 2, 9, 0, tzinfo=TZ), log, t)
    assert [i.code for i in log] == ["CLOCK_WAS_AHEAD"]
    log = IssueLog()        # a run at 2020-11-01 after a --now 2099 run, holding files of Nov 18: both
    clock_behind(_ledger("2099-01-01T00:00+08:00", ["2020-11-04T18:00+08:00", "2020-11-18T17:55+08:00"]),
                 dt.datetime.fromisoformat("2020-11-01T00:00+08:00"), log, _T)
    assert [i.code for i in log] == ["CLOCK_BEHIND"]
