"""A deadline answered ``20270320`` in the questionnaire became 2027-03-20 00:00 (Python's
``fromisoformat`` reads the basic form), while 2027-03-20, 2027/3/20 and an Excel date cell
give 23:59:59 of that day (handbook §一); and the same fallback read the ISO week date
``2027-W12-6`` as 2027-03-27 — an answer no clerk means (an audit)."""
from __future__ import annotations

import pytest

from pipeline import newleague
from pipeline.newleague import BadAnswer


@pytest.mark.parametrize("answer", ["20270320", 20270320, "２０２７０３２０", " 20270320 "])
def test_a_compact_deadline_is_the_end_of_that_day(answer):
    assert newleague.v_datetime(answer) == newleague.v_datetime("2027-03-20") == "2027-03-20T23:59:59+08:00"


def test_a_compact_deadline_with_a_time_keeps_the_time():
    assert newleague.v_datetime("20270320 17:00") == "2027-03-20T17:00:00+08:00"


@pytest.mark.parametrize("answer", ["2027-W12-6", "2027-W12-6 17:00", "2027W126", "2027-079", "20270231"])
def test_week_dates_and_other_iso_forms_are_refused(answer):
    with pytest.raises(BadAnswer) as e:
        newleague.v_datetime(answer)
    assert "2026-12-01 17:00" in str(e.value)
    with pytest.raises(BadAnswer):
        newleague.v_date(answer)


def test_a_compact_session_date_is_read():
    assert newleague.v_date("20270327") == newleague.v_date(20270327) == "2027-03-27"


def test_a_compact_check_in_time_alone_is_a_date_alone():
    """R2016-F2: the check-in time must have a time of day; 20261205 is a date alone."""
    with pytest.raises(BadAnswer, match="只有日期"):
        newleague.v_draw_at("20261205")
