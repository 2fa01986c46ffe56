"""R2020-Q1 (双升 4 人 = 2 对固定搭档): a quota written as a count of people (``4人``、``4名``)
for an event of pairs or teams was taken as that many teams — 掼蛋 ``4人`` made
``per_branch: 4`` and every form said 限报 4 队（共 8 人）.  A count of people is now the
teams it makes (``4人`` → 2 对, said in a notice), a count that is no whole number of teams
is refused at its row; 队/对/组/个 count teams, and single-player events are as before."""
from __future__ import annotations

import openpyxl
import pytest
import yaml
from click.testing import CliRunner

from pipeline import newleague
from pipeline.cli import main

from .helpers import answer_at_the_prompt, small_answers
from .test_newleague import _questionnaire

PAIR = 2


@pytest.mark.parametrize("text,want", [
    ("4人", 2), ("4名", 2), ("每单位4人", 2), ("固定4人", 2), ("fixed 4人", 2), ("2人", 1), ("4位", 2),
    ("2对", 2), ("2队", 2), ("2组", 2), ("2个", 2), ("2", 2), ("fixed 2", 2), ("固定2对", 2)])
def test_R2020_Q1_a_fixed_quota_of_people_for_pairs_counts_pairs(text, want):
    assert newleague.v_quota(text, PAIR) == {"rule": "fixed", "per_branch": want}


@pytest.mark.parametrize("text", ["4人", "4名", "每单位4人", "fixed 4人", "4"])
def test_a_quota_of_people_for_a_single_player_event_is_as_before(text):
    assert newleague.v_quota(text, 1) == {"rule": "fixed", "per_branch": 4}
    assert newleague.v_quota(text) == {"rule": "fixed", "per_branch": 4}


@pytest.mark.parametrize("text", ["3人", "1人", "固定5名"])
def test_a_count_of_people_that_is_no_whole_number_of_pairs_is_refused(text):
    with pytest.raises(newleague.BadAnswer) as e:
        newleague.v_quota(text, PAIR)
    said = str(e.value)
    assert "不是整对数" in said and "对" in said and "人" in said, said


def test_R2015_Q3_bands_of_people_for_pairs_count_pairs():
    got = newleague.v_quota("分档 0:2人,50:4人", PAIR)
    assert got == {"rule": "bands", "bands": [{"min_members": 0, "entries": 1}, {"min_members": 50, "entries": 2}]}
    assert newleague.v_quota("分档 0:1对,50:2对", PAIR) == got
    assert newleague.v_quota("分档 0:1,50人:2", PAIR) == got           # 50人 there is members
    with pytest.raises(newleague.BadAnswer, match="不是整对数"):
        newleague.v_quota("分档 0:1人,50:2人", PAIR)


def test_a_ratio_still_counts_players():
    assert newleague.v_quota("15%", PAIR)["ratio"] == 0.15


def _gd(quota):
    a = small_answers(4)
    a["events"] = [{"name": "掼蛋", "game": "掼蛋", "format": "循环赛", "quota": quota, "team_size": ""}]
    return a


def test_R2020_Q1_clean_event_takes_the_pairs_and_setup_says_so():
    a = _gd("4人")
    spec = newleague.build_spec(a)
    assert spec["events"][0]["quota"] == {"rule": "fixed", "per_branch": 2}
    said = newleague.setup_warnings(spec, a)
    assert any("掼蛋" in s and "4人" in s and "2 对（4 人）" in s for s in said), said
    # a quota written in pairs has no such notice
    b = _gd("2对")
    assert not any("按" in s and "2 对（4 人）" in s for s in newleague.setup_warnings(newleague.build_spec(b), b))


def _new(tmp_path, q):
    return CliRunner().invoke(main, ["new", str(tmp_path / "t2026"), "--from-workbook", str(q)])


def test_R2020_Q1_from_the_questionnaire_4_people_of_guandan_are_2_pairs(tmp_path):
    q, _rows = _questionnaire(tmp_path, _gd("4人"))
    r = _new(tmp_path, q)
    assert r.exit_code == 0, r.output
    raw = yaml.safe_load((tmp_path / "t2026" / "tournament.yaml").read_text(encoding="utf-8"))
    assert raw["events"][0]["quota"]["per_branch"] == 2
    assert "2 对（4 人）" in r.output, r.output
    form = sorted((tmp_path / "t2026" / "templates").glob("*.xlsx"))[0]
    head = " ".join(str(c.value) for row in openpyxl.load_workbook(form)["报名表"].iter_rows(max_row=5)
                    for c in row if c.value)
    assert "限报 2 队" in head and "共 4 人" in head, head


def test_from_the_questionnaire_3_people_of_guandan_is_refused_at_its_row(tmp_path):
    q, rows = _questionnaire(tmp_path, _gd("3人"))
    r = _new(tmp_path, q)
    assert r.exit_code != 0
    assert f"问卷第 {rows['比赛项目'] + 2} 行" in r.output and "名额规则" in r.output, r.output
    assert "不是整对数" in r.output and "“1对”" in r.output and "“4人”" in r.output, r.output
    assert not (tmp_path / "t2026" / "tournament.yaml").exists()


def test_at_the_prompt_4_people_of_guandan_are_2_pairs(tmp_path):
    """The quota is asked before 每队人数: the answer is read with the team size once it is known."""
    a = small_answers(2)
    script = [a["name"], "t2026", "校工会", "", "", "甲分工会", "王芳", "40", "a@x.cn",
              "乙分工会", "李明", "40", "b@x.cn", "",
              "掼蛋", "掼蛋", "循环赛", "3人", "2",           # refused: asked again
              "掼蛋", "循环赛", "4人", "2", "",
              "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "", "", "", "", "ranked", "一等奖1", "", "", ""]
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["events"][0]["quota"] == {"rule": "fixed", "per_branch": 2}
    assert any("不是整对数" in s for s in said), said
    assert any("2 对（4 人）" in s for s in said), said
