"""R2020-S1: results in at exactly the session's start are said with their seconds (a review).

A session's start counts results in at 16:00:00 as late (``now < start`` is False), but
SESSION_PASSED said 前一轮的成绩 11月11日 16:00 才收齐 beside a session of 16:00 it said had
begun: :func:`pipeline.timeutil.clock` leaves the seconds out at a deadline itself (in time
there).  A session start is no deadline: in its first minute, 16:00:00 is said too
(handbook SESSION_PASSED).  Deadlines keep their words (15:00 收到 at a 15:00 deadline)."""
from __future__ import annotations

import datetime as dt
from types import SimpleNamespace as NS

from pipeline.issues import IssueLog
from pipeline.run import SESSION_KEY, session_record, sessions_passed
from pipeline.spec import SessionSpec
from pipeline.timeutil import TZ, clock, cn_when


def _said(results_in: str) -> str:
    due = SessionSpec(date=dt.date(2020, 11, 11), start=dt.time(16, 0), end=dt.time(18, 0), venue="")
    rnd = NS(round=2, title="第2轮", plan={SESSION_KEY: {"due": session_record(due, ""), "results_in": results_in}})
    log = IssueLog([])
    sessions_passed(NS(spec=NS(name="象棋", id="xq"), rounds=[rnd]), log)
    (i,) = list(log)
    return i.message


def test_R2020_S1_results_in_at_the_session_start_exactly_are_said_with_seconds():
    assert "前一轮的成绩 11月11日 16:00:00 才收齐" in _said("2020-11-11T16:00:00+08:00")
    assert "前一轮的成绩 11月11日 16:00:30 才收齐" in _said("2020-11-11T16:00:30+08:00")
    assert "前一轮的成绩 11月11日 16:05 才收齐" in _said("2020-11-11T16:05:00+08:00")


def test_a_deadline_itself_is_still_said_without_seconds():
    dl = dt.datetime(2020, 11, 9, 15, 0, tzinfo=TZ)
    assert clock(dl, [dl]) == "15:00" and cn_when(dl, [dl]) == "11月9日 15:00"
    assert clock(dl.replace(second=1), [dl]) == "15:00:01"
