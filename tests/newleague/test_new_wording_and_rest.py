"""league new's words say what the code does: a ratio quota counts players (R2016-Q1), a fixed
or banded one entries (队数, R2020-Q1/R2015-Q3); the awards answer takes "everyone else gets
参与奖" (R2020-A1 决赛参与奖: awards ``rest``); and a few small slips."""
from __future__ import annotations

import datetime as dt
import inspect
import re
from pathlib import Path

import pytest
import yaml

from pipeline import newleague
from pipeline.spec import load_tournament

from .helpers import small_answers

ROOT = Path(__file__).resolve().parents[2]


# -- R2016-Q1: a ratio counts players, fixed and bands count entries -----------------------------
def test_R2016_Q1_the_quota_prompt_says_a_ratio_counts_players():
    src = inspect.getsource(newleague)
    assert "按队数计：fixed 2 / bands 0:1,30:2 / ratio 0.15" not in src
    prompt = newleague.QUOTA_PROMPT
    # the ratio is said with players, the fixed and band counts with entries
    assert re.search(r"fixed 2 / bands [^；]*队数", prompt) and re.search(r"ratio 0\.15[^；]*参赛人数", prompt), prompt


def test_R2016_Q1_the_questionnaire_hint_says_a_ratio_counts_players():
    hint = newleague.column_hints()["名额规则"]
    assert "比例" in hint and "参赛人数" in hint, hint
    assert len(hint) <= 250         # the whole hint is shown (a cell's prompt holds 250 characters)


def test_R2016_Q1_the_handbook_says_a_ratio_counts_players():
    text = (ROOT / "docs" / "handbook.md").read_text(encoding="utf-8")
    assert "名额按**队数**计：" not in text
    assert "按**参赛人数**计" in text


# -- R2020-A1: everyone else gets 参与奖 (awards rest) --------------------------------------------
@pytest.mark.parametrize("text", ["一等奖1,二等奖2,三等奖3,参与奖若干", "一等奖1,二等奖2,三等奖3,其余参与奖",
                                  "一等奖1，二等奖2，三等奖3，其余为参与奖", "一等奖1 二等奖2 三等奖3 其余参赛者获参与奖",
                                  "一等奖1、二等奖2、三等奖3、参与奖（其余）"])
def test_R2020_A1_everyone_else_gets_an_award_answered_as_a_clerk_words_it(text, tmp_path):
    places = newleague.v_places(text)
    assert [p["award"] for p in places] == ["一等奖", "二等奖", "三等奖", "参与奖"]
    a = small_answers(3)
    a.update(places=text, prizes="一等奖=500,参与奖=20")
    newleague.create(tmp_path / "t", answers=a)
    raw = yaml.safe_load((tmp_path / "t" / "tournament.yaml").read_text(encoding="utf-8"))
    awards = raw["events"][0]["awards"]
    assert awards["rest"] == "参与奖"
    assert [p["award"] for p in awards["places"]] == ["一等奖", "二等奖", "三等奖"]
    assert awards["prizes"] == {"一等奖": 500, "参与奖": 20}
    load_tournament(tmp_path / "t")


@pytest.mark.parametrize("text,award", [("其余都是参与奖", "参与奖"), ("其余队伍获参与奖", "参与奖"), ("其余发放参与奖", "参与奖"),
                                        ("其余均可获得参与奖", "参与奖"), ("剩下的都是纪念奖", "纪念奖"),
                                        ("其余参赛选手均为鼓励奖", "鼓励奖"), ("其余人气奖", "人气奖"),
                                        ("其余全勤奖", "全勤奖"), ("其余金奖", "金奖"), ("优秀奖不限", "优秀奖")])
def test_R2020_A1_everyone_elses_award_is_its_name_without_the_words_around_it(text, award):
    """From a review: the words before the award's name were read into it (其余都是参与奖 gave an
    award “是参与奖”, 其余队伍获参与奖 “伍获参与奖”, 其余均可获得参与奖 “可获得参与奖”) and printed
    in the notice so; the name is what ends in 奖 after them."""
    assert newleague.v_places(f"一等奖1,{text}")[1:] == [{"award": award, "rest": True}]


@pytest.mark.parametrize("text", ["其余人员", "其余参赛者", "其余纪念品", "其余奖", "其余都是奖", "其余都是", "纪念品若干"])
def test_R2020_A1_everyone_else_without_an_award_name_is_refused(text):
    """From a review: 其余人员 was an award named “员”, 其余参赛者 one named “参赛者”: an item
    for everyone else must name an award (ending in 奖); else it is refused and says how."""
    with pytest.raises(newleague.BadAnswer, match="其余参与奖"):
        newleague.v_places(f"一等奖1,{text}")


def test_R2020_A1_a_refused_award_answer_says_how_to_give_everyone_else_one():
    with pytest.raises(newleague.BadAnswer) as e:
        newleague.v_places("一等奖1,参与奖很多")
    assert "其余参与奖" in str(e.value)


@pytest.mark.parametrize("text,words", [("其余参与奖", "至少"), ("一等奖1,其余参与奖,二等奖2", "最后"),
                                        ("一等奖1,其余参与奖,其余纪念奖", "只能")])
def test_R2020_A1_everyone_else_alone_in_the_middle_or_twice_is_refused(text, words):
    with pytest.raises(newleague.BadAnswer, match=words):
        newleague.v_places(text)


def test_R2020_A1_everyone_else_with_awards_by_group_is_refused_at_the_awards_question():
    a = small_answers(3)
    a["events"] = [{"name": "掼蛋", "game": "掼蛋", "format": "分组积分编排赛", "quota": "fixed 2"}]
    a.update(awards="各组前N名", places="一等奖1,其余参与奖", prizes="")
    _spec, problems = newleague.answer_problems(a)
    assert [p.question for p in problems] == ["奖项及名额"], problems
    assert "各组前N名" in str(problems[0])


def test_R2020_A1_a_tie_across_an_award_and_the_rest_names_the_rest():
    from pipeline.draw.base import Placement as P
    from pipeline.score.awards import straddling

    tie = [P(1, "a"), P(2, "b", tied=True), P(2, "c", tied=True)]
    assert straddling([("一等奖", 1), ("二等奖", 1)], tie) == [(2, ("b", "c"), ("二等奖", "无奖项"))]
    assert straddling([("一等奖", 1), ("二等奖", 1)], tie, rest="参与奖") == [(2, ("b", "c"), ("二等奖", "参与奖"))]


def test_R2020_A1_the_playoff_issue_of_a_ranked_event_with_rest_names_the_rest():
    from pipeline.draw.base import Placement as P
    from pipeline.model import Entry
    from pipeline.score import AWARD_SCHEMES
    from pipeline.spec import AwardSpec, validated

    awards = validated(AwardSpec, {"scheme": "ranked", "places": [{"award": "一等奖", "count": 1},
                                                                  {"award": "二等奖", "count": 1}], "rest": "参与奖"})
    scheme = AWARD_SCHEMES.get("ranked")
    tie = [P(1, "a"), P(2, "b", tied=True), P(2, "c", tied=True)]
    assert scheme.undecided(awards, tie) == [("", 2, ("b", "c"), ("二等奖", "参与奖"))]
    entries = [Entry(id=x, event="e", branch="u", team=x, players=()) for x in "abc"]
    _rows, issues = scheme.assign(awards, tie, entries, event="跳棋")
    (said,) = [i.message for i in issues if i.code == "PLAYOFF_REQUIRED"]
    assert "二等奖/参与奖" in said and "无奖项" not in said


# -- small slips -------------------------------------------------------------------------------
def test_a_wrong_team_size_is_given_a_plausible_example():
    with pytest.raises(newleague.BadAnswer) as e:
        newleague.v_team_size("两")
    assert "例如 40" not in str(e.value) and "例如 2" in str(e.value)


@pytest.mark.parametrize("text", ["单循环", "单循环赛", "循环赛", "循环制", "单循环制"])
def test_every_way_of_writing_a_single_round_robin_is_taken(text):
    assert newleague.v_format(text) == "round_robin"


@pytest.mark.parametrize("text", ["双循环", "双循环赛"])
def test_a_double_round_robin_is_refused_saying_there_is_only_a_single_one(text):
    with pytest.raises(newleague.BadAnswer) as e:
        newleague.v_format(text)
    assert "单循环" in str(e.value) and "双循环" in str(e.value)


def test_a_single_deadline_line_of_the_notice_is_not_numbered(tmp_path):
    from pipeline.render import viewmodels as vms
    from pipeline.state import LeagueState

    a = small_answers(3)
    a["events"] = a["events"][:1]
    newleague.create(tmp_path / "t", answers=a)
    t = load_tournament(tmp_path / "t")
    now = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    state = LeagueState(tournament=t, now=now, updated=now, submissions=[], entries=[], issues=[], events={}, awards=[])
    (sec,) = [s for s in vms.notice_vm(state).sections if "报名办法" in s.heading]
    assert not sec.paragraphs[0].startswith("1、"), sec.paragraphs
    assert "报名截止时间" in sec.paragraphs[0]


def test_R2020_A1_the_notice_says_everyone_else_gets_the_award_with_its_prize(tmp_path):
    from pipeline.render import viewmodels as vms
    from pipeline.state import LeagueState

    a = small_answers(3)
    a.update(places="一等奖1,二等奖1,其余参与奖", prizes="一等奖=200,参与奖=20")
    newleague.create(tmp_path / "t", answers=a)
    t = load_tournament(tmp_path / "t")
    now = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    state = LeagueState(tournament=t, now=now, updated=now, submissions=[], entries=[], issues=[], events={}, awards=[])
    (sec,) = [s for s in vms.notice_vm(state).sections if "奖项设置" in s.heading]
    assert sec.paragraphs[0] == "1、象棋：一等奖一名（奖金200元）、二等奖一名，其余参赛者获参与奖（奖金20元）。", sec.paragraphs
