"""Audit of `league new` answers: full-width digits, strict per-question checks, re-asking
only the question at fault."""
from __future__ import annotations

import pytest
import yaml

from pipeline import newleague

from .helpers import small_answers


# -- 1. full-width digits and colons (a Chinese input method) ------------------------------
@pytest.mark.parametrize("fn,text,want", [
    (newleague.v_time, "８:３０", "08:30"),
    (newleague.v_time, "１４：００", "14:00"),
    (newleague.v_date, "２０２６-０１-１７", "2026-01-17"),
    (newleague.v_int, "４０", 40),
    (newleague.v_team_size, "２人", 2),
    (newleague.v_quota, "fixed ２", {"rule": "fixed", "per_branch": 2}),
    (newleague.v_quota, "bands ０：１，３０：２", {"rule": "bands", "bands": [
        {"min_members": 0, "entries": 1}, {"min_members": 30, "entries": 2}]}),
    (newleague.v_prizes, "一等奖＝５００", {"一等奖": 500}),
    (newleague.v_places, "一等奖１，二等奖２", [{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2}]),
])
def test_full_width_digits_are_read_as_digits(fn, text, want):
    assert fn(text) == want


def test_full_width_deadline_is_read():
    assert newleague.v_datetime("２０２６-０１-１０ １７：００").startswith("2026-01-10T17:00")


def test_a_full_width_session_time_does_not_crash_build_spec(tmp_path):
    a = small_answers()
    a["sessions"] = [{"date": "2026-01-17", "start": "８:３０", "end": "１２:００"}]
    raw = yaml.safe_load(newleague.create(tmp_path / "t2026", answers=a).read_text(encoding="utf-8"))
    assert raw["sessions"][0]["start"] == "08:30" and raw["sessions"][0]["end"] == "12:00"


@pytest.mark.parametrize("field,value", [("deadline", object()), ("places", 3.5), ("prizes", ["x"])])
def test_no_answer_crashes_build_spec(tmp_path, field, value):
    a = small_answers()
    a[field] = value
    try:
        newleague.build_spec(a)
    except newleague.BadAnswer:
        pass


def test_an_odd_session_answer_is_a_bad_answer_not_a_crash():
    a = small_answers()
    a["sessions"] = [{"date": object(), "start": 8.5, "end": None}]
    with pytest.raises(newleague.BadAnswer):
        newleague.build_spec(a)
