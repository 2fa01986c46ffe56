"""A session that ends before it starts, or at an hour that does not exist, is refused by
parse_spec with a located Chinese SpecError (league new already asked again): a session
``start: '14:00', end: '12:00'`` ran with exit 0 and the notice printed 14:00—12:00, and
``end: 25:00`` (YAML's base-60 number 1500) became 00:25."""
from __future__ import annotations

import datetime as dt

import pytest
import yaml

from pipeline.spec import SpecError, parse_spec
from tests.hardening.common import copy_sample, league, run_args


def _spec(session_yaml: str) -> dict:
    raw = {"id": "t", "name": "赛", "units": [{"id": "b01", "name": "一"}],
           "events": [{"id": "x", "name": "象棋", "game": "xiangqi", "format": {"type": "swiss", "rounds": 3}}]}
    raw["sessions"] = yaml.safe_load(session_yaml)
    return raw


def _problem(session_yaml: str) -> tuple[str, str]:
    with pytest.raises(SpecError) as e:
        parse_spec(_spec(session_yaml))
    return e.value.key, e.value.problem


def test_a_session_ending_before_it_starts():
    key, problem = _problem("- {date: 2027-12-10, start: '08:30', end: '11:00'}\n"
                            "- {date: 2027-12-10, start: '14:00', end: '12:00'}\n")
    assert key == "sessions[1]"
    assert "第 2 场" in problem and "2027-12-10" in problem and "end" in problem and "start" in problem
    assert "12:00" in problem and "14:00" in problem


def test_a_session_ending_when_it_starts():
    key, problem = _problem("- {date: 2027-12-10, start: '14:00', end: '14:00'}\n")
    assert key == "sessions[0]" and "晚于" in problem


@pytest.mark.parametrize("written", ["25:00", "'25:00'", "24:30", "'14:75'"])
def test_an_hour_that_does_not_exist(written):
    key, problem = _problem(f"- {{date: 2027-12-10, start: '14:00', end: {written}}}\n")
    assert key.startswith("sessions[0]") and key.endswith("end"), key
    assert "时间" in problem and "14:00" in problem, problem


def test_times_that_exist_still_read():
    spec = parse_spec(_spec("- {date: 2027-12-10, start: 8:30, end: 23:59}\n"
                            "- {date: 2027-12-11, start: 14, end: '18:00'}\n"))
    assert [(s.start, s.end) for s in spec.sessions] == [(dt.time(8, 30), dt.time(23, 59)),
                                                         (dt.time(14), dt.time(18))]


def test_league_run_refuses_it(tmp_path):
    folder = copy_sample("t2011-court", tmp_path)
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace('{date: 2011-05-17, start: "14:00", end: "18:00"',
                                 '{date: 2011-05-17, start: "14:00", end: "12:00"', 1), encoding="utf-8")
    r = league(*run_args(folder, tmp_path / "out"))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "键 sessions[1]" in r.stderr and "第 2 场" in r.stderr, r.stderr
