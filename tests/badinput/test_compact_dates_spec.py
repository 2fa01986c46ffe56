"""A date written compactly in tournament.yaml (``deadline: 20270320``): YAML reads an
integer, which pydantic took for a Unix timestamp — 1970-08-23 22:38, every registration
refused as late and the notice printing 1970年8月23日 (an audit).  Eight digits YYYYMMDD are
that date in every date and datetime field (a deadline the end of that day, handbook §一);
any other bare number is refused, at its line."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from pipeline.spec import SpecError, load_tournament
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_sheets" / "t2020-league"
TEXT = (SAMPLE / "tournament.yaml").read_text(encoding="utf-8")


def _with(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    at = TEXT.index(old)
    folder = tmp_path / "t"
    shutil.copytree(SAMPLE, folder, ignore=shutil.ignore_patterns("inbox*"))
    (folder / "tournament.yaml").write_text(TEXT[:at] + new + TEXT[at + len(old):], encoding="utf-8")
    return folder, TEXT.count("\n", 0, at) + 1


@pytest.mark.parametrize("written", ["20201109", "'20201109'", "2020_11_09"])
def test_a_compact_deadline_is_the_end_of_that_day(tmp_path, written):
    folder, _ = _with(tmp_path, "deadline: 2020-11-09T15:00:00+08:00", f"deadline: {written}")
    ev = load_tournament(folder).spec.events[0]
    assert ev.deadline == dt.datetime(2020, 11, 9, 23, 59, 59, tzinfo=TZ)


def test_compact_dates_in_the_other_date_fields_are_read_as_their_dashed_form(tmp_path):
    folder, _ = _with(tmp_path, "notice_date: 2020-10-30", "notice_date: 20201030")
    text = (folder / "tournament.yaml").read_text(encoding="utf-8")
    text = text.replace("{date: 2020-11-10,", "{date: 20201110,", 1)
    text = text.replace("deadline: 2020-11-09T15:00:00+08:00", "deadline: 2020-11-09T15:00:00+08:00\n"
                        "    draw_at: 20201110", 1)
    (folder / "tournament.yaml").write_text(text, encoding="utf-8")
    spec = load_tournament(folder).spec
    assert spec.notice_date == dt.date(2020, 10, 30)
    assert spec.sessions[0].date == dt.date(2020, 11, 10)
    # draw_at written as a date alone is that day's midnight, as 2020-11-10 is
    assert spec.events[0].draw_at == dt.datetime(2020, 11, 10, 0, 0, tzinfo=TZ)


@pytest.mark.parametrize("old,new,key,words", [
    ("deadline: 2020-11-09T15:00:00+08:00", "deadline: 1700000000", "events[xiangqi].deadline", "日期时间格式不对"),
    ("deadline: 2020-11-09T15:00:00+08:00", "deadline: '1700000000'", "events[xiangqi].deadline", "日期时间格式不对"),
    ("deadline: 2020-11-09T15:00:00+08:00", "deadline: 20201131", "events[xiangqi].deadline", "日期时间格式不对"),
    ("deadline: 2020-11-09T15:00:00+08:00", "deadline: 2020110.5", "events[xiangqi].deadline", "日期时间格式不对"),
    ("notice_date: 2020-10-30", "notice_date: 0", "notice_date", "日期格式不对"),
    ("notice_date: 2020-10-30", "notice_date: 86400", "notice_date", "日期格式不对"),
    ("{date: 2020-11-10,", "{date: 2020111,", "sessions[0].date", "日期格式不对"),
])
def test_any_other_bare_number_is_refused_at_its_line(tmp_path, old, new, key, words):
    folder, line = _with(tmp_path, old, new)
    with pytest.raises(SpecError) as e:
        load_tournament(folder)
    said = e.value.lines()
    assert f"键 {key}（第 {line} 行）" in said, said
    assert words in said and "20201109" in said, said      # says the compact form that is taken
