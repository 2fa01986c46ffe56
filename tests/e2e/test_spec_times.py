"""Deadlines written without an offset — a date alone (the handbook's 只写日期 form, the
end of that day) or a date and time (``2011-05-06 17:00``) — are Beijing time, as those
with ``+08:00`` are.  A naive deadline beside an aware one crashed every night's run
(``TypeError: can't compare offset-naive and offset-aware datetimes`` in the units'
pages), exit 2, no site written."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from pipeline.spec import parse_spec
from tests.hardening.common import copy_sample, league, run_args

BEFORE = "2011-05-01T10:00+08:00"     # before t2011-court's deadlines (2011-05-06 17:00+08:00)
ON_TIME = "2011-05-06T17:00:00+08:00"


def _with_deadline(tmp_path: Path, first: str) -> Path:
    folder = copy_sample("t2011-court", tmp_path)
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count(f"deadline: {ON_TIME}") == 2
    spec.write_text(text.replace(f"deadline: {ON_TIME}", f"deadline: {first}", 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("written, shown", [("2011-05-06", "2011年5月6日 23:59"),
                                            ("2011-05-06 12:00", "2011年5月6日 12:00"),
                                            ("'2011-05-06T12:00:00'", "2011年5月6日 12:00"),
                                            ("2011-05-06T05:00:00+01:00", "2011年5月6日 12:00")])
def test_a_deadline_without_offset_runs(tmp_path: Path, written: str, shown: str) -> None:
    folder = _with_deadline(tmp_path, written)
    out = tmp_path / "out"
    r = league(*run_args(folder, out, now=BEFORE))
    assert r.returncode in (0, 1), r.stderr
    assert "TypeError" not in r.stderr
    assert f"中国象棋：报名截止（{shown}）后抽签" in r.stdout
    assert (out / "t2011-court" / "index.html").is_file()
    # after the deadlines, the same folder draws and finishes as the sample does
    r = league(*run_args(folder, out, now="2030-01-01T00:00+08:00"))
    assert r.returncode == 0, r.stdout + r.stderr


def _spec(deadline: object, draw_at: object = None) -> dict:
    ev = {"id": "x", "name": "象棋", "game": "xiangqi", "format": {"type": "swiss", "rounds": 3},
          "deadline": deadline}
    if draw_at is not None:
        ev["draw_at"] = draw_at
    return {"id": "t", "name": "赛", "units": [{"id": "b01", "name": "一"}], "events": [ev]}


BEIJING = dt.timedelta(hours=8)


@pytest.mark.parametrize("deadline, expected", [
    (dt.date(2027, 12, 1), dt.datetime(2027, 12, 1, 23, 59, 59)),
    ("2027-12-01", dt.datetime(2027, 12, 1, 23, 59, 59)),
    ("2027-12-01 17:00", dt.datetime(2027, 12, 1, 17)),
    (dt.datetime(2027, 12, 1, 17), dt.datetime(2027, 12, 1, 17)),
    ("2027-12-01T17:00:00+08:00", dt.datetime(2027, 12, 1, 17)),
    ("2027-12-01T09:00:00+00:00", dt.datetime(2027, 12, 1, 17)),     # the same instant, said in Beijing time
])
def test_every_deadline_is_beijing_time(deadline: object, expected: dt.datetime) -> None:
    ev = parse_spec(_spec(deadline, draw_at="2027-12-05 08:30")).events[0]
    assert ev.deadline.utcoffset() == BEIJING
    assert ev.deadline.replace(tzinfo=None) == expected
    assert ev.draw_at.utcoffset() == BEIJING and ev.draw_at.replace(tzinfo=None) == dt.datetime(2027, 12, 5, 8, 30)
