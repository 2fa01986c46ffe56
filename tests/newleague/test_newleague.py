"""`league new`: answers / questionnaire → a tournament folder the batch can run."""
from __future__ import annotations

import random

import openpyxl
import pytest
import yaml

from pipeline import newleague
from pipeline.run import RunOptions, run
from pipeline.spec import load_tournament

from .helpers import NOW, answer_at_the_prompt, fill_registrations, small_answers


def _run(folder, tmp_path):
    return run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))


def test_create_from_answers_writes_folder(tmp_path):
    folder = tmp_path / "t2026"
    path = newleague.create(folder, answers=small_answers())
    assert path == folder / "tournament.yaml"
    text = path.read_text(encoding="utf-8")
    assert "# 参赛单位" in text and "&id" not in text
    raw = yaml.safe_load(text)
    assert raw["id"] == "t2026"
    assert [u["id"] for u in raw["units"]] == ["b01", "b02", "b03", "b04", "b05", "b06"]
    assert raw["events"][1]["game"] == "guandan" and raw["events"][1]["format"]["type"] == "round_robin"
    assert raw["events"][0]["awards"]["prizes"] == {"一等奖": 500, "二等奖": 300}
    assert len((folder / "secret.key").read_text().strip()) == 40
    assert (folder / "secret.key").stat().st_mode & 0o777 == 0o600      # whoever reads it can forge forms
    assert (folder / "inbox").is_dir()
    assert len(list((folder / "templates").glob("*.xlsx"))) == 6
    load_tournament(folder)   # valid spec


def test_create_then_batch_draws_round_1(tmp_path):
    folder = tmp_path / "t2026"
    newleague.create(folder, answers=small_answers())
    n = fill_registrations(folder, random.Random(1))
    assert n == 6 * 2 + 6 * 1
    report = _run(folder, tmp_path)
    assert report.entries == n
    assert not [i for i in report.issues if str(i.severity) == "error"], report.issues
    for es in report.state.events.values():
        assert es.rounds, f"{es.spec.id} has no round 1"


def test_refuses_to_overwrite(tmp_path):
    folder = tmp_path / "t2026"
    newleague.create(folder, answers=small_answers())
    before = (folder / "tournament.yaml").read_text(encoding="utf-8")
    with pytest.raises(newleague.NewLeagueError, match="已存在"):
        newleague.create(folder, answers=small_answers(3))
    assert (folder / "tournament.yaml").read_text(encoding="utf-8") == before


def test_refuses_a_folder_holding_a_league_without_its_spec(tmp_path):
    """tournament.yaml moved away to "start again" (as the refusal above once advised): a new
    spec numbered the units afresh — b02's registrations became another unit's — and wrote
    its forms beside the old ones.  The folder is refused, nothing in it changed."""
    folder = tmp_path / "t2026"
    newleague.create(folder, answers=small_answers())
    (folder / "tournament.yaml").rename(tmp_path / "old.yaml")
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    with pytest.raises(newleague.NewLeagueError, match="secret.key") as e:
        newleague.create(folder, answers=small_answers(3))
    assert "templates/" in str(e.value) and "新的文件夹" in str(e.value)
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before


@pytest.mark.parametrize("field,value,words", [
    ("deadline", "明天", "2026-12-01 17:00"),
    ("awards", "抽奖", "没有评奖方式"),
    ("prizes", "一等奖500", "一等奖=500"),
    # blank answers that would go wrong quietly: the first run drew and froze round 1; two
    # leagues in folders with Chinese names shared output/league/
    ("deadline", "", "报名截止时间必须填写"),
    ("id", "", "赛事编号必须填写"),
])
def test_bad_answer_names_question(tmp_path, field, value, words):
    a = small_answers()
    a[field] = value
    folder = tmp_path / "2026棋牌联赛"       # no id to take from the folder's name
    with pytest.raises(newleague.NewLeagueError, match=words):
        newleague.create(folder, answers=a)
    assert not (folder / "tournament.yaml").exists()


def test_spec_error_mapped_to_event_question(tmp_path):
    a = small_answers()
    a["events"][0]["format"] = "三人桌"    # a 3-seat format for 2-seat xiangqi
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "x", answers=a)
    assert "【比赛项目 “象棋”的赛制】" in str(e.value)


@pytest.mark.parametrize("text,rule", [("fixed 3", {"rule": "fixed", "per_branch": 3}),
                                       ("比例 15%", {"rule": "ratio", "ratio": 0.15, "rounding": "floor", "minimum": 1}),
                                       ("bands 0:1,30:2", {"rule": "bands", "bands": [
                                           {"min_members": 0, "entries": 1}, {"min_members": 30, "entries": 2}]}),
                                       ("open", {"rule": "open"}),
                                       # a bare number or percentage, as 每队人数 and 会员人数 take them
                                       ("2", {"rule": "fixed", "per_branch": 2}),
                                       ("2人", {"rule": "fixed", "per_branch": 2}),
                                       ("每单位2人", {"rule": "fixed", "per_branch": 2}),
                                       ("15%", {"rule": "ratio", "ratio": 0.15, "rounding": "floor", "minimum": 1})])
def test_quota_answers(text, rule):
    assert newleague.v_quota(text) == rule


@pytest.mark.parametrize("call", [lambda: newleague.v_members("2019001234"),
                                  lambda: newleague.clean_unit({"name": "机关", "members": "13912345678"}, 0),
                                  lambda: newleague.v_quota("fixed 1000000")])
def test_a_number_far_too_large_is_a_bad_answer(call):
    """A staff or phone number typed in 会员人数 (or a quota of a million): a minute writing
    forms of a million rows, then a traceback."""
    with pytest.raises(newleague.BadAnswer, match="超出范围"):
        call()


def test_interactive_reasks_bad_answer(tmp_path):
    a = small_answers(2)
    script = [a["name"], "t2026", "校工会", "工会办公室 王芳 13800000000", "ghb@union.example.edu.cn",
              "甲分工会", "王芳", "四十", "40", "a@x.cn",   # "四十" is re-asked
              "乙分工会", "李明", "30", "b@x.cn", "",
              "象棋", "围棋棋", "象棋", "淘汰赛", "fixed 2", "1", "",  # unknown game re-asked
              "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "教工活动中心", "",
              "福建路、花园路，西门;自行到达", "随便", "接收并警告",   # an unknown late policy re-asked
              "ranked", "一等奖1,二等奖1", "", "优秀组织奖", "体育道德风尚奖，最佳新人奖"]
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=False)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert raw["units"][0]["members"] == 40
    assert raw["events"][0]["game"] == "xiangqi"
    assert any("“四十” 不是整数" in s for s in said)
    assert any("没有棋牌种类 “围棋棋”" in s for s in said)
    assert raw["contact"] == "工会办公室 王芳 13800000000"
    assert raw["submit_to"] == "ghb@union.example.edu.cn"
    # where the captains send their forms, on every form (it said the contact's phone)
    wb = openpyxl.load_workbook(next((path.parent / "templates").glob("*.xlsx")))
    assert any("发送至：ghb@union.example.edu.cn" in str(c.value) for ws in wb for row in ws.iter_rows() for c in row)
    assert raw["sessions"][0]["venue"] == "教工活动中心"
    assert raw["pickup_points"] == ["福建路、花园路", "西门", "自行到达"]      # 、 joins one point's stops
    assert raw["late_policy"] == "accept-with-warning" and any("请填 拒收 或 接收并警告" in s for s in said)
    assert raw["branch_award"] == "优秀组织奖" and raw["discretionary_awards"] == ["体育道德风尚奖", "最佳新人奖"]
    assert not script
    t = load_tournament(path.parent)
    assert t.spec.pickup_points == ["福建路、花园路", "西门", "自行到达"] and t.spec.contact.startswith("工会办公室")


def _questionnaire(tmp_path, a):
    """A blank 问卷 filled with the answers ``a`` as a clerk types them; (path, row of each label)."""
    q = newleague.write_questionnaire(tmp_path / "问卷.xlsx")
    wb = openpyxl.load_workbook(q)
    ws = wb[newleague.QUESTIONNAIRE_SHEET]
    rows = {str(ws.cell(r, 1).value): r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value}
    for label, key, _ in newleague.KEY_ROWS:
        if key in a:
            ws.cell(rows[label], 2).value = a[key]
    for title, items in (("参赛单位", a["units"]), ("比赛项目", a["events"]), ("比赛时间", a["sessions"])):
        _head, fields = newleague.TABLES[title]
        for k, item in enumerate(items):
            for c, f in enumerate(fields, 1):
                ws.cell(rows[title] + 2 + k, c).value = item.get(f)
    wb.save(q)
    return q, rows


def test_questionnaire_roundtrip_and_run(tmp_path):
    a = small_answers(4)
    a.update(contact="工会办公室 王芳", pickup_points="东门,西门,自行到达", late_policy="接收并警告",
             branch_award="优秀组织奖", discretionary_awards="体育道德风尚奖")
    q, _ = _questionnaire(tmp_path, a)
    folder = tmp_path / "t2026q"
    newleague.create(folder, questionnaire=q)
    t = load_tournament(folder)
    assert [u.name for u in t.spec.units] == [u["name"] for u in a["units"]]
    assert [e.game for e in t.spec.events] == ["xiangqi", "guandan"]
    assert (t.spec.contact, t.spec.pickup_points, t.spec.late_policy) == (
        "工会办公室 王芳", ["东门", "西门", "自行到达"], "accept-with-warning")
    assert (t.spec.branch_award, t.spec.discretionary_awards) == ("优秀组织奖", ["体育道德风尚奖"])
    fill_registrations(folder, random.Random(2))
    report = _run(folder, tmp_path)
    assert all(es.rounds for es in report.state.events.values())


def _bad_quota(a):
    a["events"][1]["quota"] = "fixed 0"


def _bad_deadline(a):
    a["deadline"] = "明天"


def _no_deadline(a):          # a required answer left blank: its row is recorded though empty
    del a["deadline"]


def _bad_session(a):
    a["sessions"] = [{"date": "2026-01-17", "start": "8:30", "end": "12:00"},
                     {"date": "2026-01-18", "start": "14:00", "end": "12:00"}]


def _bad_places(a):           # 奖项及名额: the question is named as its row is
    a["places"] = "一等奖"


@pytest.mark.parametrize("spoil,where", [
    (_bad_quota, lambda rows: f"【第2个项目】（问卷第 {rows['比赛项目'] + 3} 行）"),
    (_bad_deadline, lambda rows: f"【报名截止时间】（问卷第 {rows['报名截止时间']} 行，B{rows['报名截止时间']}）"),
    (_no_deadline, lambda rows: f"（问卷第 {rows['报名截止时间']} 行，B{rows['报名截止时间']}）"),
    (_bad_session, lambda rows: f"【第2场】（问卷第 {rows['比赛时间'] + 3} 行）"),
    (_bad_places, lambda rows: f"【奖项及名额】（问卷第 {rows['奖项及名额']} 行"),
])
def test_a_questionnaire_answer_that_is_wrong_is_located_on_the_sheet(tmp_path, spoil, where):
    a = small_answers(4)
    spoil(a)
    q, rows = _questionnaire(tmp_path, a)
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "t2026q", questionnaire=q)
    assert where(rows) in str(e.value)


def test_a_session_starting_at_the_deadline_is_accepted(tmp_path):
    a = small_answers()
    a["sessions"] = [{"date": "2026-01-10", "start": "17:00", "end": "19:00"}]
    newleague.create(tmp_path / "t2026", answers=a)


def test_a_prompt_with_a_number_default_explains_in_chinese(tmp_path):
    """click infers an int type from an int default and answered 一 with its English
    "is not a valid integer"; the answer now reaches our Chinese check and is asked again."""
    import click
    from click.testing import CliRunner

    said = []
    runner = CliRunner()
    with runner.isolation(input="一\n2\n"):
        got = newleague._prompt(click.prompt, "每队人数", lambda v: newleague.v_int(v, 1, 8), 1, echo=said.append)
    assert got == 2 and any("不是整数" in s for s in said)


def test_a_bad_answer_reads_as_its_reason_alone():
    e = newleague.BadAnswer("赛制“knockout”每桌 2 人", "比赛项目 “斗地主”的赛制")
    assert str(e) == "赛制“knockout”每桌 2 人" and e.question == "比赛项目 “斗地主”的赛制"


# -- a clerk's first league (found setting one up from the docs alone) -----------------------
@pytest.mark.parametrize("value", ["2026-01-10", __import__("datetime").datetime(2026, 1, 10)])
def test_a_deadline_given_as_a_date_is_the_end_of_that_day(tmp_path, value):
    a = small_answers()
    a["deadline"] = value
    raw = yaml.safe_load(newleague.create(tmp_path / "t2026", answers=a).read_text(encoding="utf-8"))
    assert raw["events"][0]["deadline"].startswith("2026-01-10T23:59:59")


def test_a_partnership_game_with_a_blank_team_size_is_a_pair_event(tmp_path):
    a = small_answers()
    a["events"][1]["team_size"] = ""               # 掼蛋
    raw = yaml.safe_load(newleague.create(tmp_path / "t2026", answers=a).read_text(encoding="utf-8"))
    assert raw["events"][1]["team_size"] == 2
    a["events"][1]["team_size"] = "1"
    with pytest.raises(newleague.NewLeagueError, match="每方 2 人（固定搭档）"):
        newleague.create(tmp_path / "t2027", answers=a)


@pytest.mark.parametrize("sessions,words", [
    ([{"date": "2026-01-17", "start": "18:00", "end": "12:00"}], "不晚于开始时间"),
    ([{"date": "2026-01-05", "start": "08:30", "end": "12:00"}], "在报名截止（2026-01-10 17:00）之前"),
])
def test_sessions_that_cannot_be_are_refused(tmp_path, sessions, words):
    a = small_answers()
    a["sessions"] = sessions
    with pytest.raises(newleague.NewLeagueError, match=words):
        newleague.create(tmp_path / "t2026", answers=a)


@pytest.mark.parametrize("text,rule", [("比例15%", {"rule": "ratio", "ratio": 0.15, "rounding": "floor", "minimum": 1}),
                                       ("固定2", {"rule": "fixed", "per_branch": 2}),
                                       ("fixed2", {"rule": "fixed", "per_branch": 2})])
def test_quota_answers_typed_without_a_space(text, rule):
    assert newleague.v_quota(text) == rule


def test_a_fixed_quota_of_nought_is_refused():
    with pytest.raises(newleague.BadAnswer, match="固定名额为 0"):
        newleague.v_quota("fixed 0")


def test_answers_as_a_clerk_words_them():
    assert newleague.v_late("接受但警告") == "accept-with-warning"
    assert newleague.v_team_size("2人") == 2 and newleague.v_int("40人") == 40
    assert newleague.clean_unit({"name": "甲", "email": "a@x.cn；b@x.cn"}, 0)["emails"] == ["a@x.cn", "b@x.cn"]


def test_a_unit_typed_twice_is_asked_again_at_once(tmp_path):
    a = small_answers(2)
    script = [a["name"], "t2026", "校工会", "", "",
              "甲分工会", "王芳", "40", "",
              "甲分工会",                                     # twice: asked again at once
              "乙分工会", "李明", "30", "", "",
              "象棋", "象棋", "淘汰赛", "fixed 2", "", "",
              "2026-01-10 17:00",
              "2026-01-17", "18:00", "12:00",                 # ends before it starts: again
              "2026-01-17", "08:30", "12:00", "", "",
              "", "", "ranked", "一等奖1,二等奖1", "", "", ""]
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert [u["name"] for u in raw["units"]] == ["甲分工会", "乙分工会"]
    assert any("“甲分工会”已经填过" in s for s in said) and not any("重新回答全部问题" in s for s in said)
    assert raw["events"][0]["team_size"] == 1
    assert raw["sessions"] == [{"date": "2026-01-17", "start": "08:30", "end": "12:00"}]
    assert not script


def test_a_ratio_quota_over_20_pairs_can_be_numbered_on_the_form_and_is_read(tmp_path):
    """400 members × 15% = 60 players = 30 pairs of 掼蛋: the form's 队号 check must take
    1..30 (it stopped at 20 in Excel while the pipeline took them), and all 30 pairs enter."""
    a = small_answers(2)
    a["units"][0]["members"] = "400"
    a["events"][1]["quota"] = "比例15%"
    folder = tmp_path / "t2026"
    newleague.create(folder, answers=a)
    bounds = {}
    for path in (folder / "templates").glob("*.xlsx"):
        ws = openpyxl.load_workbook(path)["报名表"]
        dv = next(dv for dv in ws.data_validations.dataValidation if dv.type == "whole")
        bounds[path.name.split("-")[1]] = (dv.formula1, dv.formula2)
        assert f"1 到 {dv.formula2} 之间的整数" in dv.error
    assert bounds == {"b01": ("1", "30"), "b02": ("1", "3")}      # b02: 40 members → 6 players → 3 pairs
    n = fill_registrations(folder, random.Random(3))               # 队号 1..quota, as a captain numbers them
    assert n == 2 * 2 + 30 + 3
    report = _run(folder, tmp_path)
    assert report.entries == n
    assert not [i for i in report.issues if str(i.severity) == "error"], report.issues


def test_every_mistake_of_a_row_is_said_at_once_by_its_column(tmp_path):
    """A unit row and an event row with several mistakes each: every one said in one run,
    each named by its column (a row with three mistakes took three runs, the first said
    alone and unnamed); no 配置键 (there is no tournament.yaml yet)."""
    a = small_answers(2)
    a["units"][1].update(name="", members="2019001234", email="not-an-address")
    a["events"][0].update(game="象 棋 ", format="淘汰", quota="两个")
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "x", answers=a)
    said = str(e.value)
    for column in ("单位名称：", "邮箱：", "会员人数：", "棋牌种类：", "赛制：", "名额规则："):
        assert column in said, (column, said)
    assert "配置键" not in said, said
    assert not (tmp_path / "x").exists()


def test_the_questionnaire_offers_the_games_and_formats_and_says_a_blank_quota(tmp_path):
    from openpyxl import load_workbook

    ws = load_workbook(newleague.write_questionnaire(tmp_path / "q.xlsx")).active
    lists = [dv.formula1 for dv in ws.data_validations.dataValidation if dv.type == "list"]
    assert any("掼蛋" in f and "中国象棋" in f for f in lists), lists
    assert any("淘汰赛" in f and "瑞士制" in f for f in lists), lists
    notes = " ".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    assert "空着或填“不限”为不限名额" in notes
