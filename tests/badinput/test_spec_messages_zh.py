"""tournament.yaml's validation errors said in Chinese only, each at the line of its key (an
audit of a new league: "（Input should be a valid datetime or date, invalid date separator,
expected `-`）", "（Extra inputs are not permitted）" ended the messages, and only a YAML
syntax error named a line); ``one_event_per_person: 是`` taken as ``league new`` takes it."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pipeline.spec import SpecError, load_tournament, parse_spec

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_sheets" / "t2020-league"
TEXT = (SAMPLE / "tournament.yaml").read_text(encoding="utf-8")

#: pydantic's English, as it came through
ENGLISH = re.compile(r"Input should|Extra inputs|String should|Field required|not permitted|valid (?:date|"
                     r"datetime|boolean|integer|number|string|list|dictionary)|greater than|less than|"
                     r"unable to|invalid|expected|[A-Za-z]+ [A-Za-z]+ [A-Za-z]+")


def _load(tmp_path: Path, text: str) -> SpecError:
    folder = tmp_path / "t"
    shutil.copytree(SAMPLE, folder, ignore=shutil.ignore_patterns("inbox*"))
    (folder / "tournament.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_tournament(folder)
    return e.value


def _edit(old: str, new: str, nth: int = 1) -> tuple[str, int]:
    """TEXT with the ``nth`` ``old`` replaced by ``new``, and the line (1-based) it is on."""
    at = -1
    for _ in range(nth):
        at = TEXT.index(old, at + 1)
    return TEXT[:at] + new + TEXT[at + len(old):], TEXT.count("\n", 0, at) + 1


# (old text, new text, which occurrence, the key said, words of the message)
CASES = [
    ("deadline: 2020-11-09T15:00:00+08:00", "deadline: 2020/11/09 15:00", 2, "events[checkers].deadline",
     "日期时间格式不对"),
    ("late_policy: reject", "late_polcy: reject", 1, "late_polcy", "是不是 late_policy"),
    ("one_event_per_person: true", "one_event_per_person: 也许", 1, "one_event_per_person", "是 或 否"),
    ("quota: {rule: fixed, per_branch: 2", "quota: {rule: fix, per_branch: 2", 3, "events[shuangsheng].quota.rule",
     "fixed、bands、ratio、open"),
    ("- id: checkers", "- id: 跳棋", 1, "events[跳棋].id", "只能用英文字母"),
    ("late_policy: reject", "late_policy: 拒收", 1, "late_policy", "reject"),
    ("members: 74,", "members: -5,", 1, "units[b03].members", "不能小于 0"),
    ("members: 74,", "members: 12.5,", 1, "units[b03].members", "应为整数"),
    ("    team_size: 2", "    team_size: 0", 1, "events[shuangsheng].team_size", "不能小于 1"),
    ("notice_date: 2020-10-30", "notice_date: '2020/10/30'", 1, "notice_date", "日期格式不对"),
    ('{date: 2020-11-11, start: "16:00", end: "18:00"}', '{date: 2020-11-11, start: "16:00", end: "18点"}', 1,
     "sessions[1].end", "时间格式不对"),
    ("quota: {rule: fixed, per_branch: 2, short_warning: true}", "quota: {rule: fixed, short_warning: true}", 4,
     "events[doudizhu].quota", "per_branch"),
    ("contact: 工会办公室 成洁（钉钉）", "contact: [工会办公室]", 1, "contact", "应为文字"),
    ("contact: 工会办公室 成洁（钉钉）", "contact: 88880000", 1, "contact", "被读成了数字，请给它加上引号"),
    ("    name: 象棋\n", "", 1, "events[xiangqi].name", "缺少这一项"),
]


@pytest.mark.parametrize("old,new,nth,key,words", CASES, ids=[c[3] + ":" + c[1][:14] for c in CASES])
def test_a_spec_error_is_said_in_chinese_at_its_keys_line(tmp_path, old, new, nth, key, words):
    text, line = _edit(old, new, nth)
    if not new:                       # the key taken out: said at its item's line (- id: xiangqi)
        line = text.splitlines().index("  - id: xiangqi") + 1
    e = _load(tmp_path, text)
    said = e.lines()
    assert e.key == key, said
    assert f"键 {key}（第 {line} 行）" in said, said
    assert words in said, said
    assert not ENGLISH.search(said.replace(key, "")), said


def test_every_problem_of_a_file_gets_its_own_line(tmp_path):
    text, first = _edit("late_policy: reject", "late_polcy: reject")
    lines = text.splitlines()
    at = lines.index("    team_size: 2")
    lines[at] = "    team_size: 0"
    said = _load(tmp_path, "\n".join(lines) + "\n").lines()
    assert f"键 late_polcy（第 {first} 行）" in said and f"键 events[shuangsheng].team_size（第 {at + 1} 行）" in said, said


@pytest.mark.parametrize("word,value", [("是", True), ("否", False), ("对", True), ("不", False), ("Y", True),
                                        ("N", False), ("ｙｅｓ", True), ("true", True)])
def test_R2020_Q2_one_event_per_person_takes_the_words_league_new_takes(tmp_path, word, value):
    """``league new`` asks 每人限报一项（是 / 否）; the same 是 typed into tournament.yaml was
    refused with "应为 true 或 false"."""
    from pipeline.newleague import v_one_event

    assert v_one_event(word) is value
    folder = tmp_path / "t"
    shutil.copytree(SAMPLE, folder, ignore=shutil.ignore_patterns("inbox*"))
    (folder / "tournament.yaml").write_text(_edit("one_event_per_person: true", f"one_event_per_person: {word}")[0],
                                            encoding="utf-8")
    assert load_tournament(folder).spec.one_event_per_person is value


def test_the_other_yes_no_settings_take_them_too(tmp_path):
    spec = parse_spec({"id": "t", "name": "赛", "units": [], "events": [
        {"id": "x", "name": "象棋", "game": "xiangqi", "cross_branch": "是", "format": {"type": "swiss"},
         "quota": {"rule": "open", "short_warning": "否"}}]})
    assert spec.events[0].cross_branch is True and spec.events[0].quota.short_warning is False


def test_a_message_without_a_file_names_no_line():
    """``league new`` checks its answers with parse_spec (no tournament.yaml yet): no line."""
    with pytest.raises(SpecError) as e:
        parse_spec({"id": "t", "name": "赛", "units": [], "events": [], "late_policy": "拒收"})
    assert "第" not in e.value.lines() and "reject" in e.value.lines()
    assert not ENGLISH.search(e.value.lines().replace("late_policy", "")), e.value.lines()
