"""`league new`'s award questions: 评定奖项 listed with 、, the scheme's own Chinese title,
group awards only for formats with groups, award places a format cannot rank, and the
check-in time of a format that re-forms pairs on the day."""
from __future__ import annotations

import pytest
import yaml

from pipeline import newleague
from pipeline.spec import load_tournament

from .helpers import answer_at_the_prompt, small_answers
from .test_answers_audit import _script
from .test_newleague import _questionnaire


# -- 评定奖项: 、 is the usual separator of a Chinese list -------------------------------------
@pytest.mark.parametrize("text", ["体育道德风尚奖、最佳新人奖", "体育道德风尚奖，最佳新人奖", "体育道德风尚奖;最佳新人奖",
                                  "体育道德风尚奖；最佳新人奖", " 体育道德风尚奖 、 最佳新人奖、"])
def test_judged_awards_are_split_at_every_list_separator(text):
    assert newleague.v_award_names(text) == ["体育道德风尚奖", "最佳新人奖"]


def test_judged_awards_listed_with_a_dun_comma_on_the_questionnaire_are_two_awards(tmp_path):
    a = small_answers(2)
    a["discretionary_awards"] = "体育道德风尚奖、最佳新人奖"
    q, _ = _questionnaire(tmp_path, a)
    newleague.create(tmp_path / "t2026", questionnaire=q)
    assert load_tournament(tmp_path / "t2026").spec.discretionary_awards == ["体育道德风尚奖", "最佳新人奖"]


def test_judged_awards_listed_with_a_dun_comma_at_the_prompt_are_two_awards(tmp_path):
    script = _script(small_answers(2))
    script[-1] = "体育道德风尚奖、最佳新人奖"
    path, _said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["discretionary_awards"] == ["体育道德风尚奖", "最佳新人奖"]


# -- 评奖方式: the title the prompt lists is an answer ------------------------------------------
@pytest.mark.parametrize("text,scheme", [("按名次设奖", "ranked"), ("ranked（按名次设奖）", "ranked"),
                                         ("前N名", "top_n"), ("各组前N名", "group_top"), ("名次奖", "ranked"),
                                         ("", "ranked")])
def test_each_scheme_is_answered_by_the_title_the_prompt_lists(text, scheme):
    from pipeline.score import AWARD_SCHEMES

    assert newleague.v_scheme(text) == scheme
    for name, obj in AWARD_SCHEMES.items():     # every choice the prompt lists, and its title alone
        assert newleague.v_scheme(f"{name}（{obj.title}）") == newleague.v_scheme(obj.title) == name


def test_the_listed_title_is_taken_at_the_prompt(tmp_path):
    script = _script(small_answers(2))
    script[script.index("ranked")] = "按名次设奖"
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["events"][0]["awards"]["scheme"] == "ranked"
    assert not script and not any("没有评奖方式" in s for s in said), said


# -- 各组前N名 only for a format that ranks each group apart ----------------------------------
def _grouped_answers(formats):
    a = small_answers(2)
    a["events"] = [{"name": name, "game": game, "format": fmt, "quota": "fixed 2", "team_size": ""}
                   for name, game, fmt in formats]
    a["awards"], a["places"] = "各组前N名", "一等奖1,二等奖1"
    return a


def test_group_awards_for_events_without_groups_are_refused_on_the_questionnaire(tmp_path):
    """f5: 各组前N名 was taken for a 淘汰赛 and a 瑞士制 event, and the notice printed
    “象棋：每组一等奖一名、二等奖一名”."""
    a = _grouped_answers([("象棋", "象棋", "淘汰赛"), ("围棋", "围棋", "瑞士制 3轮"), ("掼蛋", "掼蛋", "分组积分编排赛")])
    q, rows = _questionnaire(tmp_path, a)
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "t2026", questionnaire=q)
    said = str(e.value)
    assert f"【评奖方式】（问卷第 {rows['评奖方式']} 行，B{rows['评奖方式']}）的回答有误" in said, said
    assert "“象棋”（淘汰赛）、“围棋”（瑞士制）" in said and "“掼蛋”" not in said, said
    assert not (tmp_path / "t2026" / "tournament.yaml").exists()


def test_group_awards_for_grouped_events_are_taken(tmp_path):
    a = _grouped_answers([("掼蛋", "掼蛋", "分组积分编排赛 groups=2")])
    t = load_tournament(newleague.create(tmp_path / "t2026", answers=a).parent)
    assert t.spec.events[0].awards.scheme == "group_top"


def test_group_awards_for_a_knockout_are_asked_again_at_the_prompt(tmp_path):
    script = _script(small_answers(2))           # one 象棋 event by 淘汰赛
    at = script.index("ranked")
    script[at:at + 1] = ["各组前N名", "按名次设奖"]
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["events"][0]["awards"]["scheme"] == "ranked"
    assert any("按小组颁奖" in s and "“象棋”（淘汰赛）" in s for s in said), said
    assert not script


# -- the check-in time of a format that re-forms pairs on the day (R2016-F2) -------------------
def _checkin_answers(**more):
    a = small_answers(4)
    a["events"][1]["format"] = "分组积分编排赛 groups=2"          # 掼蛋; 象棋 stays a knockout
    a["places"] = "一等奖1,二等奖1"
    a.update(more)
    return a


def test_the_check_in_time_on_the_questionnaire_is_the_draw_time_of_the_check_in_events(tmp_path):
    """f2: 分组积分编排赛 chosen in league new never had a draw_at: round 1 was drawn at the
    deadline, no 签到表 was made, while the notice promised the day's re-pairing."""
    q, rows = _questionnaire(tmp_path, _checkin_answers(draw_at="2026-01-17 08:20"))
    assert "签到抽签时间" in rows
    t = load_tournament(newleague.create(tmp_path / "t2026", questionnaire=q).parent)
    by = {e.name: e for e in t.spec.events}
    assert by["掼蛋"].draw_at.isoformat() == "2026-01-17T08:20:00+08:00"
    assert by["象棋"].draw_at is None


def test_a_check_in_event_without_a_check_in_time_is_warned_of(tmp_path, monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(newleague, "_echo", said.append)
    newleague.create(tmp_path / "t2026", answers=_checkin_answers())
    assert any("“掼蛋”（分组积分编排赛）没有签到抽签时间" in s and "draw_at" in s and "签到表" in s for s in said), said


@pytest.mark.parametrize("when,words", [("2026-01-17", "只有日期"), ("2026-01-09 08:30", "在报名截止")])
def test_a_check_in_time_that_cannot_be_is_refused(when, words):
    with pytest.raises(newleague.BadAnswer, match=words) as e:
        newleague.build_spec(_checkin_answers(draw_at=when))
    assert e.value.question == "签到抽签时间"


def test_the_check_in_time_is_asked_at_the_prompt_for_a_check_in_event(tmp_path):
    script = _script(small_answers(2))
    at = script.index("淘汰赛")
    script[at - 2:at + 2] = ["掼蛋", "掼蛋", "分组积分编排赛", "fixed 2"]
    at = script.index("12:00") + 3                  # after the venue and the end of the sessions
    script.insert(at, "2026-01-17 08:20")
    path, _said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert str(raw["events"][0]["draw_at"]).startswith("2026-01-17T08:20") and not script


# -- award places the format or the field cannot rank -----------------------------------------
def test_award_places_a_knockout_does_not_rank_and_a_field_smaller_than_its_awards_are_warned_of(tmp_path, monkeypatch):
    """f4: 奖项及名额 left blank gave every event 一等奖1、二等奖2、三等奖3 without a word: a
    knockout of 10 then needed a 5-player 加赛 for the last 三等奖, and 5 掼蛋 teams all won."""
    a = small_answers(5)
    a["events"][0]["quota"] = "fixed 2"               # 象棋 by knockout: places 4–6 are knockout losers
    a["events"][1]["quota"] = "fixed 1"               # 掼蛋: at most 5 teams for 6 places
    a["places"] = ""
    said: list[str] = []
    monkeypatch.setattr(newleague, "_echo", said.append)
    newleague.create(tmp_path / "t2026", answers=a)
    ko = [s for s in said if "“象棋”（淘汰赛）设了 6 个获奖名额" in s]
    assert ko and "决赛循环赛" in ko[0] and "加赛" in ko[0] and "awards" in ko[0], said
    small = [s for s in said if "“掼蛋”按名额最多只有 5 队参赛，却设了 6 个获奖名额" in s]
    assert small and "每队都会获奖" in small[0], said


def test_awards_the_format_and_field_can_rank_give_no_warning(tmp_path, monkeypatch):
    a = small_answers(6)
    a["places"] = "一等奖1,二等奖2"                       # 3 places: the knockout's final pool; 6 掼蛋 teams
    said: list[str] = []
    monkeypatch.setattr(newleague, "_echo", said.append)
    newleague.create(tmp_path / "t2026", answers=a)
    assert not any("获奖名额" in s for s in said), said


def test_judged_awards_keep_a_slash_and_a_list_in_brackets_in_one_name():
    """A review: 优秀组织/服务奖 was split into 优秀组织 and 服务奖, 最佳新人奖（男、女） into two halves."""
    assert newleague.v_award_names("优秀组织/服务奖、最佳新人奖（男、女）；风尚奖") == \
        ["优秀组织/服务奖", "最佳新人奖（男、女）", "风尚奖"]


def test_a_check_in_time_after_the_start_of_every_session_is_refused():
    """Round 1 is played in a session that starts at or after the check-in: a check-in after
    every session's start (09:00 for a session at 08:30) left the event no session at all."""
    a = _checkin_answers(draw_at="2026-01-17 09:00")
    assert [(s["date"], s["start"]) for s in a["sessions"]] == [("2026-01-17", "8:30")]
    with pytest.raises(newleague.BadAnswer, match="晚于每一场比赛的开始时间") as e:
        newleague.build_spec(a)
    assert e.value.question == "签到抽签时间"


def test_R2020_A1_a_knockout_whose_award_places_end_at_a_rounds_edge_is_not_warned_of(tmp_path, monkeypatch):
    """R2020-A1: 一等奖1、二等奖2、三等奖3 for a knockout of 22 (11 units × 2): 22 → 11 → 6 → 3,
    the sixth place ends the 6 → 3 round's losers — no tie, no 加赛; the warning told the
    client to cut the places its own rules set."""
    a = small_answers(11)
    a["events"][0]["quota"] = "fixed 2"
    a["places"] = ""
    said: list[str] = []
    monkeypatch.setattr(newleague, "_echo", said.append)
    newleague.create(tmp_path / "t2026", answers=a)
    assert not any("（淘汰赛）设了" in s for s in said), said
