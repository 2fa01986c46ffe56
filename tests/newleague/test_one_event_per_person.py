"""R2020-Q2 每人限报一项 (``one_event_per_person``) is a question of ``league new``: at the prompt
and on the questionnaire, "是" by default when the league has two or more events (every event
of a league made by ``league new`` plays its rounds in the same sessions: one person in two
events would be drawn at two tables at one time)."""
from __future__ import annotations

import openpyxl
import pytest
import yaml

from pipeline import newleague
from pipeline.spec import load_tournament

from .helpers import answer_at_the_prompt, small_answers
from .test_newleague import _questionnaire


@pytest.mark.parametrize("text,value", [("是", True), ("否", False), ("", True), ("限报一项", True),
                                        ("可兼报", False), ("yes", True), ("N", False), (True, True)])
def test_R2020_Q2_the_answer_is_read_as_yes_or_no(tmp_path, text, value):
    a = small_answers(3)
    a["one_event_per_person"] = text
    newleague.create(tmp_path / "t", answers=a)
    assert load_tournament(tmp_path / "t").spec.one_event_per_person is value


def test_R2020_Q2_a_single_event_league_is_not_limited_by_default(tmp_path):
    a = small_answers(3)
    a["events"] = a["events"][:1]
    newleague.create(tmp_path / "t", answers=a)
    assert load_tournament(tmp_path / "t").spec.one_event_per_person is False


def test_R2020_Q2_an_answer_that_is_neither_yes_nor_no_is_refused_at_its_question():
    a = small_answers(3)
    a["one_event_per_person"] = "看情况"
    _spec, problems = newleague.answer_problems(a)
    assert [p.question for p in problems] == ["每人限报一项"]
    assert "是 或 否" in str(problems[0])


def test_R2020_Q2_the_questionnaire_has_the_question_with_its_default_said(tmp_path):
    q = newleague.write_questionnaire(tmp_path / "q.xlsx")
    ws = openpyxl.load_workbook(q)[newleague.QUESTIONNAIRE_SHEET]
    row = next(r for r in ws.iter_rows(values_only=True) if r[0] == "每人限报一项")
    assert "两个以上项目" in row[2] and "同一场次" in row[2]
    a = small_answers(3)
    a["one_event_per_person"] = "否"
    q, _rows = _questionnaire(tmp_path, a)
    newleague.create(tmp_path / "t", questionnaire=q)
    raw = yaml.safe_load((tmp_path / "t" / "tournament.yaml").read_text(encoding="utf-8"))
    assert raw["one_event_per_person"] is False


def test_R2020_Q2_asked_at_the_prompt_when_there_are_two_events(tmp_path):
    a = small_answers(2)
    script = [a["name"], "t2026", "校工会", "", "",
              "甲分工会", "王芳", "40", "",
              "乙分工会", "李明", "30", "", "",
              "象棋", "象棋", "淘汰赛", "fixed 2", "", "斗地主", "斗地主", "三人桌", "fixed 2", "", "",
              "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "", "",
              "随便", "否",              # re-asked
              "", "", "ranked", "一等奖1,二等奖1", "", "", ""]
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    assert not script
    assert any("是 或 否" in s for s in said), said
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["one_event_per_person"] is False
    # the default (a blank answer) is yes
    script = [a["name"], "t2027", "校工会", "", "",
              "甲分工会", "王芳", "40", "",
              "乙分工会", "李明", "30", "", "",
              "象棋", "象棋", "淘汰赛", "fixed 2", "", "斗地主", "斗地主", "三人桌", "fixed 2", "", "",
              "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "", "",
              "",
              "", "", "ranked", "一等奖1,二等奖1", "", "", ""]
    path, _said = answer_at_the_prompt(tmp_path / "t2027", script, defaults=True)
    assert not script
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["one_event_per_person"] is True
