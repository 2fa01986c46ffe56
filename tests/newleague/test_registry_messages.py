"""Issue 9: a spec naming an unknown or unfitting game / format / tiebreak / award
scheme is refused with a Chinese sentence that keeps the registry name (the YAML key)
and lists the known names with their Chinese aliases — in `league new` and `league run`."""
from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from pipeline import newleague
from pipeline.cli import main
from pipeline.spec import SpecError, parse_spec

from .helpers import small_answers


def _raw(tmp_path, **event) -> dict:
    raw = newleague.build_spec(small_answers(2))
    raw["events"][0].update(event)
    return raw


def _problem(raw) -> SpecError:
    with pytest.raises(SpecError) as e:
        parse_spec(raw)
    return e.value


def test_seats_mismatch_message_is_chinese(tmp_path):
    e = _problem(_raw(tmp_path, format={"type": "tables_of_three"}))
    assert e.key == "events[xiangqi].format.type"
    assert e.problem.startswith("赛制“tables_of_three”每桌 3 人，但游戏“xiangqi”需要 2 人。"), e.problem
    assert "knockout" in e.problem and "swiss" in e.problem     # what to change to


def test_alias_is_quoted_with_its_registry_name(tmp_path):
    e = _problem(_raw(tmp_path, game="象棋", format={"type": "三人桌"}))
    assert "赛制“三人桌”（tables_of_three）每桌 3 人，但游戏“象棋”（xiangqi）需要 2 人" in e.problem


@pytest.mark.parametrize("event,key,words", [
    ({"game": "weiqi2"}, "game", ["没有游戏“weiqi2”", "go（", "围棋", "xiangqi（", "象棋"]),
    ({"format": {"type": "dutch"}}, "format.type", ["没有赛制“dutch”", "swiss（瑞士制", "knockout（"]),
    ({"tiebreaks": ["wins", "coin"]}, "tiebreaks[1]", ["没有破同分规则“coin”", "buchholz（对手分"]),
    ({"awards": {"scheme": "lottery"}}, "awards.scheme", ["没有评奖方式“lottery”", "ranked（", "名次奖"]),
])
def test_unknown_name_lists_known_names_with_chinese_aliases(tmp_path, event, key, words):
    e = _problem(_raw(tmp_path, **event))
    assert e.key == f"events[xiangqi].{key}"
    for w in words:
        assert w in e.problem, (w, e.problem)
    assert "unknown" not in e.problem and "known:" not in e.problem


def test_bad_format_option_message_is_chinese(tmp_path):
    e = _problem(_raw(tmp_path, format={"type": "swiss", "rouns": 5}))
    assert e.key == "events[xiangqi].format"
    assert e.problem.startswith("赛制“swiss”的选项有误：") and "rouns" in e.problem
    assert "unknown option" not in e.problem


def test_league_run_exit_2_shows_the_chinese_message(tmp_path):
    folder = tmp_path / "lg"
    newleague.create(folder, answers=small_answers(2))
    path = folder / "tournament.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["events"][0]["format"] = {"type": "tables_of_three"}
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    r = CliRunner().invoke(main, ["run", str(folder), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2, r.output
    assert "events[xiangqi].format.type" in r.output
    assert "赛制“tables_of_three”每桌 3 人，但游戏“xiangqi”需要 2 人" in r.output


def test_league_new_shows_the_chinese_message(tmp_path):
    a = small_answers(2)
    a["events"][0]["format"] = "三人桌"
    with pytest.raises(newleague.NewLeagueError) as e:
        newleague.create(tmp_path / "x", answers=a)
    # in the office's own words (象棋, 三人桌), not the registry names league run shows
    assert "赛制“三人桌”每桌 3 人，但游戏“象棋”需要 2 人" in str(e.value)
    assert "xiangqi" not in str(e.value) and "tables_of_three" not in str(e.value)


def test_the_offices_spec_mistakes_are_said_in_chinese(tmp_path):
    """pydantic's English came through to the union office: a misspelt key, a value not in
    the list, a deadline in another format, one unit listed twice under two ids."""
    import copy

    base = _raw(tmp_path)
    cases = [(lambda r: r["events"][0].__setitem__("deadlne", "2020-11-09"), "不认识的键"),
             (lambda r: r["events"][0]["quota"].__setitem__("rule", "fix"), "取值不在允许的范围内"),
             (lambda r: r["events"][0].__setitem__("deadline", "2020/11/09 15:00"), "日期时间格式不对"),
             (lambda r: r["units"].append({**r["units"][0], "id": "zz"}), "单位名称或简称重复"),
             (lambda r: r["events"][0].__setitem__("deadline", "2011-02-30"), "日期时间格式不对")]
    for mutate, words in cases:
        raw = copy.deepcopy(base)
        mutate(raw)
        assert words in _problem(raw).problem


def test_a_deadline_written_as_a_date_is_the_end_of_that_day(tmp_path):
    """``deadline: 2011-05-03`` read as 00:00 refused every form received on the 3rd; it is
    the end of that day, Beijing time (a deadline without its offset crashed the run)."""
    import datetime as dt

    from pipeline.timeutil import TZ

    for value in ("2011-05-03", dt.date(2011, 5, 3)):
        spec = parse_spec(_raw(tmp_path, deadline=value))
        assert spec.events[0].deadline == dt.datetime(2011, 5, 3, 23, 59, 59, tzinfo=TZ)
        assert spec.events[0].deadline.utcoffset() == dt.timedelta(hours=8)


def test_a_session_time_written_without_quotes_is_that_time(tmp_path):
    """YAML reads 14:00 as the base-60 number 840; the notice printed 00:14."""
    import datetime as dt

    raw = yaml.safe_load("date: 2026-12-05\nstart: 14:00\nend: 17:30")
    assert raw["start"] == 840
    spec = parse_spec({**_raw(tmp_path), "sessions": [raw]})
    assert (spec.sessions[0].start, spec.sessions[0].end) == (dt.time(14, 0), dt.time(17, 30))
    spec = parse_spec({**_raw(tmp_path), "sessions": [yaml.safe_load("date: 2026-12-05\nstart: 14\nend: 17")]})
    assert (spec.sessions[0].start, spec.sessions[0].end) == (dt.time(14, 0), dt.time(17, 0))


RANKED = {"scheme": "ranked", "places": [{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2}],
          "rest": "参与奖", "prizes": {"一等奖": 300, "二等奖": 200}}


@pytest.mark.parametrize("change,key,words", [
    # prizes mistyped: every winner got ¥0 without a word
    ({"prize": {"一等奖": 300}}, "awards", ["awards.prize", "是不是 prizes"]),
    ({"place": RANKED["places"]}, "awards", ["awards.place", "是不是 places"]),
    ({"rset": "参与奖"}, "awards", ["awards.rset", "是不是 rest"]),
    ({"places": [{"award": "一等奖", "cuont": 3}]}, "awards", ["第 1 项", "cuont"]),
    ({"prizes": {"一等将": 300}}, "awards", ["“一等将”不是本项目颁发的奖项", "一等奖"]),
])
def test_award_option_typos_are_named(tmp_path, change, key, words):
    """R2011-A1 awards: a mistyped award key was taken silently (prizes ¥0, one award for
    three, the participation awards gone) or crashed the night (``place``)."""
    e = _problem(_raw(tmp_path, awards={**RANKED, **change}))
    assert e.key == f"events[xiangqi].{key}", e.key
    for w in words:
        assert w in e.problem, (w, e.problem)


def test_good_award_options_pass(tmp_path):
    parse_spec(_raw(tmp_path, awards=RANKED))
    parse_spec(_raw(tmp_path, awards={"scheme": "top_n", "count": 3, "prizes": {"第一名": 100}}))


@pytest.mark.parametrize("options,words", [
    ({"start_point": 10}, ["game_options.start_point", "是不是 start_points"]),
    ({"scoring": "R2012"}, ["R2012", "R2020 或 R2011"]),
    ({"start_points": "十"}, ["应为整数"]),
])
def test_doudizhu_game_option_typos_are_named(tmp_path, options, words):
    """R2011-D1: ``start_point: 10`` was taken as a note and every table failed its
    zero-sum check (合计应为 0): a near miss of the game's own option is named."""
    raw = newleague.build_spec(small_answers(3))
    raw["events"][0].update(game="doudizhu", format={"type": "tables_of_three"}, game_options=options)
    e = _problem(raw)
    assert e.key.endswith(".game_options"), e.key
    for w in words:
        assert w in e.problem, (w, e.problem)


def test_game_options_that_are_the_offices_notes_pass(tmp_path):
    raw = newleague.build_spec(small_answers(3))
    raw["events"][0].update(game="doudizhu", format={"type": "tables_of_three"},
                            game_options={"start_points": 10, "round_minutes": 120, "备注": "每轮两小时"})
    parse_spec(raw)


def _yaml_problem(tmp_path, old: str, new: str) -> SpecError:
    from pipeline.spec import load_tournament

    folder = tmp_path / "t"
    newleague.create(folder, answers=small_answers(2))
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert old in text, old
    spec.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_tournament(folder)
    return e.value


def test_a_full_width_colon_is_named_at_its_line(tmp_path):
    """``- id： xiangqi`` typed with the Chinese input method: PyYAML's English pointed at the
    next line and never said 全角."""
    e = _yaml_problem(tmp_path, "- id: xiangqi", "- id： xiangqi")
    assert "全角“：”" in e.problem and "- id： xiangqi" in e.problem and "行" in e.problem, e.problem


def test_a_full_width_digit_is_named(tmp_path):
    e = _yaml_problem(tmp_path, "per_branch: 1", "per_branch: １")
    assert "全角字符（如“１”）" in e.problem and "应为整数" in e.problem and "：1" in e.problem, e.problem


def test_a_yaml_syntax_error_gives_its_line(tmp_path):
    e = _yaml_problem(tmp_path, "- id: xiangqi", "- id: [xiangqi")
    assert e.key == "(syntax)" and "行第" in e.problem, e.problem


def test_the_spec_file_given_for_its_folder_is_told_which_folder(tmp_path):
    from pipeline.spec import load_tournament

    folder = tmp_path / "t"
    newleague.create(folder, answers=small_answers(2))
    with pytest.raises(SpecError) as e:
        load_tournament(folder / "tournament.yaml")
    assert "不是赛事文件夹" in e.value.problem and str(folder) in e.value.problem and "没有这个" not in e.value.problem


def test_group_awards_answered_with_prizes_pay_them(tmp_path):
    """league new with 小组前N名 and 奖金 一等奖=500: the groups' awards were named 小组第一名 …,
    so the 一等奖 prize went to no one.  The places are named as answered."""
    from pipeline.score import AWARD_SCHEMES

    a = small_answers(2)
    # (awards by group only for a format that ranks each group apart: test_award_questions)
    a["events"] = [{"name": "掼蛋", "game": "掼蛋", "format": "分组积分编排赛", "quota": "固定 1", "team_size": "2"}]
    a["awards"] = "小组前N名"
    spec = parse_spec(newleague.build_spec(a))
    ev = spec.events[0]
    scheme = AWARD_SCHEMES.get(ev.awards.scheme)
    assert scheme.places(ev.awards.options) == [("一等奖", 1), ("二等奖", 2), ("三等奖", 3)]
    assert ev.awards.prizes == {"一等奖": 500, "二等奖": 300}
    # the budget counts every group's two 二等奖 (a repeated name overwrote the other)
    assert scheme.counts(ev.awards, groups=2) == {"一等奖": 2, "二等奖": 4, "三等奖": 6}


@pytest.mark.parametrize("key,near", [("withdrawal", "withdrawn"), ("member", "members"), ("deadlne", "deadline")])
def test_a_mistyped_spec_key_is_told_the_nearest(tmp_path, key, near):
    raw = _raw(tmp_path)
    target = raw["units"][0] if key == "member" else raw["events"][0]
    target[key] = target.pop(near, ["x"]) if near in target else ["x"]
    e = _problem(raw)
    assert f"是不是 {near}？" in e.problem, e.problem


def test_a_full_width_colon_in_a_note_is_text(tmp_path):
    """``- QQ：123456（赛事交流群）`` in the notes is Chinese text, not a key: the file loads."""
    from pipeline.spec import load_tournament

    folder = tmp_path / "t"
    newleague.create(folder, answers=small_answers(2))
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "notes:\n  - QQ：123456（赛事交流群）\n  - PS：请各分工会按时报名\n",
                    encoding="utf-8")
    assert "QQ：123456（赛事交流群）" in load_tournament(folder).spec.notes


def test_a_key_at_the_wrong_level_is_told_so(tmp_path):
    raw = _raw(tmp_path)
    raw["events"][0]["per_branch"] = 2
    e = _problem(raw)
    assert "不能写在这一层" in e.problem and "是不是 per_branch" not in e.problem, e.problem


def test_game_option_notes_near_each_other_pass(tmp_path):
    """game_seconds, best_of_3, hand_minutes: the office's notes, read by nothing — they were
    refused as near misses of other notes (move_seconds, best_of, round_minutes)."""
    raw = newleague.build_spec(small_answers(3))
    raw["events"][0].update(game="doudizhu", format={"type": "tables_of_three"},
                            game_options={"game_seconds": 30, "best_of_3": True, "hand_minutes": 10})
    parse_spec(raw)
    raw["events"][0]["game_options"] = {"time_limit_minute": 30}
    assert "是不是 time_limit_minutes" in _problem(raw).problem


def test_every_problem_of_a_spec_is_said_at_once(tmp_path):
    """Three keys typed wrong are three lines of one refusal, each at its key — it was the
    first one per run, and the office ran the batch three times to find them all.  The
    registries' problems (two events naming unknown games) likewise."""
    raw = _raw(tmp_path)
    raw["late_policyy"] = raw.pop("late_policy", "reject")
    raw["units"][0]["shortt"] = "x"
    raw["events"][0]["quota"]["per_branch"] = "two"
    e = _problem(raw)
    keys = [k for k, _ in e.problems()]
    assert sorted(keys) == sorted(["late_policyy", f"units[{raw['units'][0]['id']}].shortt",
                                   f"events[{raw['events'][0]['id']}].quota.per_branch"]), keys
    assert "是不是 late_policy？" in dict(e.problems())["late_policyy"]
    assert str(e).count("tournament.yaml: ") == 3 and e.lines().count("  键 ") == 3

    raw = _raw(tmp_path)
    raw["events"][0]["game"] = "weiqi2"
    raw["events"][1]["game"] = "chess960"
    e = _problem(raw)
    assert [k for k, _ in e.problems()] == [f"events[{ev['id']}].game" for ev in raw["events"][:2]]


def test_league_run_prints_every_problem_of_the_spec(tmp_path):
    import shutil
    from pathlib import Path

    folder = tmp_path / "t2020-league"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2020-league", folder)
    text = (folder / "tournament.yaml").read_text(encoding="utf-8")
    (folder / "tournament.yaml").write_text(text.replace("late_policy:", "late_policyy:", 1)
                                            .replace("team_size:", "team_sizee:", 1), encoding="utf-8")
    out = CliRunner().invoke(main, ["run", str(folder), "--out", str(tmp_path / "out"), "--no-pdf"])
    assert out.exit_code != 0
    assert "键 late_policyy（第 64 行）:" in out.output and "].team_sizee（第 80 行）:" in out.output, out.output


@pytest.mark.parametrize("name", ["优秀组织奖", "体育道德风尚奖"])
def test_a_unit_or_judged_award_among_the_places_is_refused(tmp_path, name):
    """优秀组织奖 listed among an event's place awards went to each event's 7th place (and the
    notice printed 优秀组织奖一名 under every event): such a name is refused, pointing to
    branch_award / discretionary_awards."""
    awards = {"scheme": "ranked", "places": [{"award": "一等奖", "count": 1}, {"award": name, "count": 1}]}
    e = _problem(_raw(tmp_path, awards=awards))
    assert e.key.startswith("events[xiangqi].awards"), e.key
    assert f"奖项“{name}”不按名次颁发" in e.problem and "branch_award" in e.problem and "discretionary_awards" in e.problem


def test_unit_and_judged_awards_have_their_own_questions(tmp_path):
    a = small_answers(2)
    with pytest.raises(newleague.BadAnswer) as e:
        newleague.v_places("一等奖1,二等奖2,三等奖3,优秀组织奖1")
    assert "“优秀组织奖”不按名次颁发" in str(e.value) and "单位奖项" in str(e.value)
    a.update(branch_award="优秀组织奖", discretionary_awards="体育道德风尚奖，最佳新人奖")
    raw = newleague.build_spec(a)
    assert raw["branch_award"] == "优秀组织奖"
    assert raw["discretionary_awards"] == ["体育道德风尚奖", "最佳新人奖"]
    parse_spec(raw)
    text = newleague.spec_yaml(raw)
    assert "# 按单位颁发的奖项" in text and "# 评委会评定的奖项" in text


def test_an_award_of_the_spec_listed_among_the_places_is_refused(tmp_path):
    """An award named in discretionary_awards (潜力选手奖) and again among an event's places:
    whatever its name, it would go to a place."""
    raw = _raw(tmp_path, awards={"scheme": "ranked", "places": [{"award": "一等奖", "count": 1},
                                                                 {"award": "潜力选手奖", "count": 1}]})
    raw["discretionary_awards"] = ["潜力选手奖"]
    e = _problem(raw)
    assert "奖项“潜力选手奖”已写在赛事的 discretionary_awards" in e.problem, e.problem


def test_traditional_unit_awards_are_refused_among_the_places(tmp_path):
    awards = {"scheme": "ranked", "places": [{"award": "一等獎", "count": 1}, {"award": "優秀組織獎", "count": 1}]}
    e = _problem(_raw(tmp_path, awards=awards))
    assert "奖项“優秀組織獎”不按名次颁发" in e.problem


def test_an_award_of_the_spec_given_to_the_rest_is_refused(tmp_path):
    raw = _raw(tmp_path, awards={"scheme": "ranked", "places": [{"award": "一等奖", "count": 1}], "rest": "参与奖"})
    raw["discretionary_awards"] = ["参与奖"]
    e = _problem(raw)
    assert "奖项“参与奖”已写在赛事的 discretionary_awards" in e.problem, e.problem


def test_an_option_of_a_format_without_options_says_so(tmp_path):
    """“请删除或改为：-” for a format that has no options."""
    e = _problem(_raw(tmp_path, format={"type": "round_robin", "rounds": 2}))
    assert "没有选项 “rounds”，这个赛制没有可设的选项，请删除" in e.problem and "改为：-" not in e.problem, e.problem


@pytest.mark.parametrize("old,new,said", [
    ("members: 30", "members: 30人", "现为“30人”：只写数字 30，不要写“人”等字"),
    ("per_branch: 1", "per_branch: 两人", "现为“两人”：请写阿拉伯数字（如 2）"),
    ("per_branch: 1", "per_branch: 四", "现为“四”：请写阿拉伯数字（如 4）"),
], ids=["digits-and-a-word", "chinese-numeral-and-a-word", "chinese-numeral"])
def test_a_number_typed_with_words_says_what_was_typed(tmp_path, old, new, said):
    """``members: 30人``, ``per_branch: 四``: "应为整数" alone did not show what was typed, nor
    what to type (a 名额 ``count: 三`` said both)."""
    e = _yaml_problem(tmp_path, old, new)
    assert "应为整数" in e.problem and said in e.problem, e.problem


def test_full_width_punctuation_is_named_at_its_line(tmp_path):
    """``－ id: xiangqi`` (and ``，`` between a flow mapping's items) typed with the Chinese input
    method were said only as 缩进不对 / YAML 格式有误 at a line and column."""
    e = _yaml_problem(tmp_path, "- id: xiangqi", "－ id: xiangqi")
    assert e.key == "(syntax)" and "有全角的“－”" in e.problem and "请改成“-”" in e.problem, e.problem
    e = _yaml_problem(tmp_path / "2", "- id: b01\n  name: 第1分工会\n", "- {id: b01，name: 第1分工会}\n")
    assert "有全角的“，”" in e.problem and "请改成“,”" in e.problem, e.problem


def test_a_place_award_with_count_zero_is_refused_R2020_A1(tmp_path):
    """tournament.yaml written by hand with ``count: 0`` for 一等奖: an award nobody can win
    (its prize too) — refused like the other award options that cannot work."""
    e = _problem(_raw(tmp_path, awards={**RANKED, "places": [{"award": "一等奖", "count": 0},
                                                            {"award": "二等奖", "count": 2}]}))
    assert e.key == "events[xiangqi].awards", e.key
    assert "第 1 项" in e.problem and "“一等奖”" in e.problem and "count" in e.problem and "为 0" in e.problem, e.problem
