"""Two answers that went wrong quietly (audit): a team size other than the game's side
(a 3-person 斗地主 team drawn into one seat put 9 people at a 3-player table), and a blank
会员人数 read as 0 while a quota is computed from it (the form said 按本单位会员 0 人的
15% 计算, or 本单位无名额).  Both are refused, in `league new` (the questionnaire row
named) and in `league run` (tournament.yaml, the key named)."""
from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
import yaml
from click.testing import CliRunner

from pipeline import newleague
from pipeline.cli import main
from pipeline.spec import SpecError, load_tournament, parse_spec

from .helpers import answer_at_the_prompt, small_answers
from .test_newleague import _questionnaire

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sheets"

DOUDIZHU = {"name": "斗地主", "game": "斗地主", "format": "三人桌", "quota": "固定2", "team_size": "3"}


# -- 每队人数 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("event,words", [
    (DOUDIZHU, "斗地主每方 1 人：每桌 3 名选手各坐一方、各自对局，每队人数（team_size）请填 1，现为 3"),
    ({"name": "象棋", "game": "象棋", "format": "淘汰赛", "quota": "fixed 2", "team_size": "2"},
     "“象棋”（中国象棋）每方 1 人：每桌 2 名选手各坐一方、各自对局，每队人数（team_size）请填 1，现为 2"),
    ({"name": "掼蛋", "game": "掼蛋", "format": "循环赛", "quota": "固定 1", "team_size": "4"},
     "掼蛋每方 2 人（固定搭档）：每桌 2 对搭档对坐，每队人数（team_size）请填 2，现为 4"),
], ids=["doudizhu-3", "xiangqi-2", "guandan-4"])
def test_a_team_size_that_is_not_the_games_side_is_refused(tmp_path, event, words):
    a = small_answers(3)
    a["events"].append(event)
    folder = tmp_path / "t2026"
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(folder, answers=a)
    assert "【第3个项目】" in str(e.value) and words in str(e.value), str(e.value)
    assert "每队人数：" in str(e.value) and "配置键" not in str(e.value)     # its column, no yaml key
    assert not (folder / "tournament.yaml").exists()


def test_a_team_size_from_the_questionnaire_names_its_row(tmp_path):
    a = small_answers(3)
    a["events"].append(DOUDIZHU)
    q, rows = _questionnaire(tmp_path, a)
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "t2026q", questionnaire=q)
    assert f"【第3个项目】（问卷第 {rows['比赛项目'] + 4} 行）" in str(e.value), str(e.value)
    assert "每队人数（team_size）请填 1" in str(e.value)


def test_a_team_size_at_the_prompt_is_asked_again_with_the_event(tmp_path):
    # 固定3: one unit of 固定2 could never seat a table of three (refused since)
    a = small_answers(1)
    script = [a["name"], "t2026", "校工会", "", "", "甲分工会", "王芳", "40", "a@x.cn", "",
              "斗地主", "斗地主", "三人桌", "固定3", "3",          # 3 per team: the event asked again
              "斗地主", "三人桌", "固定3", "1", "",
              "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "", "", "", "", "ranked", "一等奖1", "", "", ""]
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=False)
    assert any("斗地主每方 1 人" in s and "请重新填写这个项目" in s for s in said), said
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["events"][0]["team_size"] == 1


def test_an_event_refused_at_the_prompt_is_said_in_one_sentence_each(tmp_path):
    """斗地主 with 瑞士制 (two a table), then 3 per team: each refusal read
    “…三人桌淘汰赛。，请重新填写这个项目。” — the reason's 。 and the joining ， doubled."""
    a = small_answers(1)
    script = [a["name"], "t2026", "校工会", "", "", "甲分工会", "王芳", "40", "a@x.cn", "",
              "斗地主", "斗地主", "瑞士制", "固定3", "1",          # two a table: the event asked again
              "斗地主", "三人桌", "固定3", "3",                    # 3 per team: again
              "斗地主", "三人桌", "固定3", "1", "",
              "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "", "", "", "", "ranked", "一等奖1", "", "", ""]
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=False)
    refused = [s for s in said if "请重新填写这个项目" in s]
    assert len(refused) == 2, said
    assert any("三人桌淘汰赛。请重新填写这个项目。" in s for s in refused), refused
    assert not [s for s in refused if "。，" in s or "。。" in s], refused
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["events"][0]["format"]["type"] == "tables_of_three"


def test_league_run_refuses_a_team_size_written_by_hand(tmp_path):
    raw = newleague.build_spec(small_answers(2))
    raw["events"][0]["team_size"] = 2            # 象棋
    with pytest.raises(SpecError) as e:
        parse_spec(raw)
    assert e.value.key == "events[xiangqi].team_size"
    assert "每方 1 人" in e.value.problem and "请填 1，现为 2" in e.value.problem


def test_the_questionnaire_says_what_team_size_to_fill(tmp_path):
    q = newleague.write_questionnaire(tmp_path / "问卷.xlsx")
    ws = openpyxl.load_workbook(q)[newleague.QUESTIONNAIRE_SHEET]
    title = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "比赛项目")
    note = str(ws.cell(title, 2).value)
    assert "每队人数：" in note and "斗地主" in note and "填 1" in note and "掼蛋" in note and "填 2" in note
    prompts = {dv.promptTitle: dv.prompt for dv in ws.data_validations.dataValidation}
    assert "填 1" in prompts["每队人数"] and "填 2" in prompts["每队人数"]
    assert "必填" in prompts["会员人数"]
    assert newleague.read_questionnaire(q)["events"] == []     # the notes are not read as answers


# -- 会员人数 --------------------------------------------------------------------------------
def _ratio(a: dict) -> dict:
    a["events"][1]["quota"] = "比例 15%"          # 掼蛋 pairs ≤ 15% of the members (R2016-Q1)
    return a


@pytest.mark.parametrize("members,said", [("", "没有填写"), (None, "没有填写"), ("0", "为 0")],
                         ids=["blank", "none", "zero"])
def test_R2016_Q1_a_unit_with_no_member_count_is_refused_under_a_ratio_quota(tmp_path, members, said):
    a = _ratio(small_answers(3))
    a["units"][1]["members"] = members
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "t2026", answers=a)
    msg = str(e.value)
    assert msg.startswith("【第2个单位】"), msg
    assert f"“第2分工会”的会员人数{said}" in msg and "“掼蛋”（按会员人数比例）" in msg
    assert "请填写该单位的会员人数" in msg and "配置键" not in msg


def test_R2015_Q3_a_blank_member_count_is_refused_under_bands_and_every_such_unit_named(tmp_path):
    a = small_answers(3)
    a["events"][1]["quota"] = "分档 0:1,50:2,100:3"
    a["units"][0]["members"] = ""
    a["units"][2]["members"] = ""
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "t2026", answers=a)
    assert "【第1个单位】" in str(e.value) and "按会员人数分档" in str(e.value)
    assert "【第3个单位】" in str(e.value) and "配置键" not in str(e.value)
    assert "【第2个单位】" not in str(e.value)


def test_R2016_Q1_a_blank_member_count_on_the_questionnaire_names_its_row(tmp_path):
    a = _ratio(small_answers(3))
    a["units"][2]["members"] = None
    q, rows = _questionnaire(tmp_path, a)
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "t2026q", questionnaire=q)
    assert f"【第3个单位】（问卷第 {rows['参赛单位'] + 4} 行）" in str(e.value), str(e.value)


def test_a_blank_member_count_is_allowed_when_no_quota_needs_it(tmp_path):
    a = small_answers(2)                          # fixed quotas only
    a["units"][0]["members"] = ""
    raw = yaml.safe_load(newleague.create(tmp_path / "t2026", answers=a).read_text(encoding="utf-8"))
    assert raw["units"][0]["members"] == 0


def test_R2016_Q1_a_blank_member_count_at_the_prompt_is_asked_again(tmp_path):
    a = small_answers(1)
    script = [a["name"], "t2026", "校工会", "", "", "甲分工会", "王芳", "", "a@x.cn", "",   # members blank
              "掼蛋", "掼蛋", "循环赛", "比例 15%", "2", "",
              "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "", "", "", "", "ranked", "一等奖1", "", "", "",
              "王芳", "60", "a@x.cn"]              # the unit asked again
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=False)
    assert not script
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["units"][0]["members"] == 60


@pytest.mark.parametrize("spoil,said", [
    (lambda text: text.replace("members: 60,", "", 1), "没有填写"),
    (lambda text: text.replace("members: 60,", "members: 0,", 1), "为 0"),
], ids=["missing", "zero"])
def test_R2016_Q1_league_run_refuses_a_unit_without_members_under_a_ratio_quota(tmp_path, spoil, said):
    folder = tmp_path / "t2016-poker"
    shutil.copytree(SAMPLES / "t2016-poker", folder)
    path = folder / "tournament.yaml"
    text = path.read_text(encoding="utf-8")
    assert "id: g03, name: 会计学院分工会, short: 会计, captain: 钱丽华, members: 60," in text
    path.write_text(spoil(text), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_tournament(folder)
    assert e.value.key == "units[g03].members"
    assert f"单位“会计学院分工会”的会员人数（members）{said}" in e.value.problem
    assert "按会员人数比例" in e.value.problem and "请填写该单位的 members" in e.value.problem
    out = CliRunner().invoke(main, ["run", str(folder), "--out", str(tmp_path / "out"), "--no-pdf"])
    assert out.exit_code != 0 and "units[g03].members" in out.output, out.output
