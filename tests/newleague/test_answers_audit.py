"""Audit of `league new` answers: full-width digits, strict per-question checks, re-asking
only the question at fault."""
from __future__ import annotations

import pytest
import yaml

from pipeline import newleague

from .helpers import answer_at_the_prompt, small_answers


# -- 1. full-width digits and colons (a Chinese input method) ------------------------------
@pytest.mark.parametrize("fn,text,want", [
    (newleague.v_time, "８:３０", "08:30"),
    (newleague.v_time, "１４：００", "14:00"),
    (newleague.v_date, "２０２６-０１-１７", "2026-01-17"),
    (newleague.v_int, "４０", 40),
    (newleague.v_team_size, "２人", 2),
    (newleague.v_quota, "fixed ２", {"rule": "fixed", "per_branch": 2}),
    (newleague.v_quota, "bands ０：１，３０：２", {"rule": "bands", "bands": [
        {"min_members": 0, "entries": 1}, {"min_members": 30, "entries": 2}]}),
    (newleague.v_prizes, "一等奖＝５００", {"一等奖": 500}),
    (newleague.v_places, "一等奖１，二等奖２", [{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2}]),
])
def test_full_width_digits_are_read_as_digits(fn, text, want):
    assert fn(text) == want


def test_full_width_deadline_is_read():
    assert newleague.v_datetime("２０２６-０１-１０ １７：００").startswith("2026-01-10T17:00")


def test_a_full_width_session_time_does_not_crash_build_spec(tmp_path):
    a = small_answers()
    a["sessions"] = [{"date": "2026-01-17", "start": "８:３０", "end": "１２:００"}]
    raw = yaml.safe_load(newleague.create(tmp_path / "t2026", answers=a).read_text(encoding="utf-8"))
    assert raw["sessions"][0]["start"] == "08:30" and raw["sessions"][0]["end"] == "12:00"


@pytest.mark.parametrize("field,value", [("deadline", object()), ("places", 3.5), ("prizes", ["x"])])
def test_no_answer_crashes_build_spec(tmp_path, field, value):
    a = small_answers()
    a[field] = value
    try:
        newleague.build_spec(a)
    except newleague.BadAnswer:
        pass


def test_an_odd_session_answer_is_a_bad_answer_not_a_crash():
    a = small_answers()
    a["sessions"] = [{"date": object(), "start": 8.5, "end": None}]
    with pytest.raises(newleague.BadAnswer):
        newleague.build_spec(a)


# -- 3. per-question checks as strict as the spec's; a final failure re-asks one question ----
@pytest.mark.parametrize("text", ["a@x.edu.cn。", "王芳@x.cn", "a@x_y.cn"])
def test_an_address_the_spec_refuses_is_refused_at_its_question(text):
    with pytest.raises(newleague.BadAnswer, match="不是有效的邮箱地址"):
        newleague.v_email(text)
    with pytest.raises(newleague.BadAnswer, match="不是有效的邮箱地址"):
        newleague.v_emails(f"ok@x.cn；{text}")
    with pytest.raises(newleague.BadAnswer):
        newleague.clean_unit({"name": "甲", "email": text}, 0)


def test_addresses_as_typed_are_still_read():
    assert newleague.v_emails("a@x.cn；B@Y.cn、 庞雪平 <c@x.cn>") == ["a@x.cn", "B@Y.cn", "c@x.cn"]
    assert newleague.v_email("ａ＠ｘ.cn") == "a@x.cn" and newleague.v_email("") == ""


def test_a_prize_for_an_award_not_given_is_refused_at_the_prize_question(tmp_path):
    places = newleague.v_places("一等奖1,二等奖2")
    with pytest.raises(newleague.BadAnswer, match="“一等”不是"):
        newleague.v_prizes("一等=500", places)
    assert newleague.v_prizes("一等奖=500", places) == {"一等奖": 500}
    a = small_answers()
    a["prizes"] = "一等=500"
    with pytest.raises(newleague.NewLeagueError, match="【奖金】"):
        newleague.create(tmp_path / "t2026", answers=a)


def _script(a, email="u1@x.cn", prizes="一等奖=500"):
    return [a["name"], "t2026", "校工会", "", "",
            "甲分工会", "王芳", "40", email,
            "乙分工会", "李明", "30", "", "",
            "象棋", "象棋", "淘汰赛", "fixed 2", "", "",
            "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "", "",
            "", "", "ranked", "一等奖1,二等奖1", prizes, "", ""]


def test_a_mistyped_address_and_prize_are_asked_again_at_once(tmp_path):
    a = small_answers(2)
    script = _script(a, email="a@x.edu.cn。")
    script.insert(script.index("a@x.edu.cn。") + 1, "a@x.edu.cn")
    script[script.index("一等奖=500")] = "一等=500"
    script.insert(script.index("一等=500") + 1, "一等奖=500")     # asked again at once
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert raw["units"][0]["emails"] == ["a@x.edu.cn"]
    assert raw["events"][0]["awards"]["prizes"] == {"一等奖": 500}
    assert not script and not any("重新回答全部问题" in s for s in said)


def test_a_final_check_failure_re_asks_only_the_question_at_fault(tmp_path, monkeypatch):
    from pipeline import spec as spec_mod

    real, calls = newleague.parse_spec, []

    def once(raw, file=spec_mod.SPEC_FILE):
        calls.append(1)
        if len(calls) == 1:        # the final check finds the prize wrong, once
            raise spec_mod.SpecError(file, "events[xiangqi].awards", "awards.prizes 中的“一等奖”不是本项目颁发的奖项")
        return real(raw, file)

    a = small_answers(2)
    script = _script(a) + ["一等奖=800"]
    monkeypatch.setattr(newleague, "parse_spec", lambda raw, file=spec_mod.SPEC_FILE:
                        real(raw, file) if raw.get("id") == "probe" else once(raw, file))
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert raw["events"][0]["awards"]["prizes"] == {"一等奖": 800}
    assert any("【奖金】" in s for s in said) and not any("重新回答全部问题" in s for s in said)
    assert not script


# -- awards and prizes as a clerk types them (from an audit: 一等奖1；二等奖2；三等奖3 was one award) --
@pytest.mark.parametrize("text", ["一等奖1；二等奖2；三等奖3", "一等奖：1，二等奖：2，三等奖：3", "一等奖1 二等奖2 三等奖3",
                                  "一等奖1/二等奖2/三等奖3", "一等奖1名、二等奖2名、三等奖3名", "一等奖 1, 二等奖 2, 三等奖 3"])
def test_awards_separated_as_a_clerk_types_them(text):
    assert newleague.v_places(text) == [{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2},
                                        {"award": "三等奖", "count": 3}]


@pytest.mark.parametrize("text", ["一等奖", "第1名1", "一等奖1,二等奖"])
def test_an_award_without_its_count_or_with_digits_in_its_name_is_refused(text):
    with pytest.raises(newleague.BadAnswer, match="应写成 奖项名\\+名额"):
        newleague.v_places(text)


@pytest.mark.parametrize("text", ["一等奖=500；二等奖=300", "一等奖：500元，二等奖：300元", "一等奖=500 二等奖=300"])
def test_prizes_separated_as_a_clerk_types_them(text):
    assert newleague.v_prizes(text) == {"一等奖": 500, "二等奖": 300}


def test_a_prize_without_its_amount_is_refused():
    with pytest.raises(newleague.BadAnswer, match="应写成 奖项=金额"):
        newleague.v_prizes("一等奖500")


def test_an_event_or_unit_named_twice_is_refused_at_once_at_the_prompt(tmp_path):
    """Two events both named 象棋 were found only by the whole spec's check, which then asked
    every question again (all eleven units typed twice); 乙分工会 and 乙分工会 with a full-width
    space are one unit to a captain's form (from an audit of league new)."""
    a = small_answers(2)
    script = _script(a)
    at = script.index("乙分工会")
    script[at:at] = ["甲分工会\u3000"]                       # refused: 甲分工会 already
    at = script.index("2026-01-10 17:00") - 1               # before the blank that ends the events
    script[at:at] = ["象 棋"]                              # refused: 象棋 already
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert [u["name"] for u in raw["units"]] == ["甲分工会", "乙分工会"] and len(raw["events"]) == 1
    assert "  ✗ “甲分工会”已经填过（第1个单位），请换一个名称。" in said
    assert "  ✗ “象 棋”已经填过（第1个项目），请换一个名称。" in said
    assert not script and not any("重新回答全部问题" in s for s in said)


def test_a_question_asked_again_after_the_final_check_says_why(tmp_path, monkeypatch):
    """A unit re-asked after the whole spec's check (its 会员人数 left blank while an event's
    quota is a ratio) was asked again with no reason given: pressing Enter looped."""
    from pipeline import spec as spec_mod

    real, calls = newleague.parse_spec, []

    def once(raw, file=spec_mod.SPEC_FILE):
        calls.append(1)
        if len(calls) == 1:
            raise spec_mod.SpecError(file, "units[b01].members", "按比例计算名额的项目需要各单位的会员人数")
        return real(raw, file)

    a = small_answers(2)
    script = _script(a) + ["", "45", ""]              # 第1个单位 again: captain, members, email
    monkeypatch.setattr(newleague, "parse_spec", lambda raw, file=spec_mod.SPEC_FILE:
                        real(raw, file) if raw.get("id") == "probe" else once(raw, file))
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    why = [s for s in said if "的回答有误" in s]
    assert why and "会员人数" in why[0] and "第1个单位" in why[0], said
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["units"][0]["members"] == 45


def test_units_named_alike_but_for_full_width_digits_are_one_unit(tmp_path):
    """第1分工会 and 第１分工会 made two units and twelve templates for eleven branches: the
    forms' reader sees both as 第1分工会 (TournamentSpec's uniqueness compares names so)."""
    a = small_answers(2)
    a["units"][1]["name"] = "第１分工会"
    with pytest.raises(newleague.NewLeagueError, match="单位名称或简称重复"):
        newleague.create(tmp_path / "t2026", answers=a)
    assert not (tmp_path / "t2026").exists()


def test_a_questionnaire_given_as_the_folder_is_refused_before_any_question(tmp_path):
    """league new 问卷.xlsx (--from-workbook forgotten) asked every question, then failed
    with File exists and the same wrong command."""
    q = tmp_path / "问卷.xlsx"
    q.write_bytes(b"PK")

    def ask(*a, **kw):
        raise AssertionError("asked a question")

    with pytest.raises(newleague.NewLeagueError, match="--from-workbook") as e:
        newleague.create(q, ask=ask)
    assert "是一个文件，不是文件夹" in str(e.value) and q.read_bytes() == b"PK"


@pytest.mark.parametrize("text", ["2027-1-9", "2027.1.9", "2027/01/09", "2027年1月9日", "２０２７年１月９日"])
def test_dates_as_a_clerk_types_them(text):
    """A session date 2027-1-9 was refused though the deadline took it; 2026.12.20, 2026/12/20
    and 2026年12月20日 are as common and as clear."""
    assert newleague.v_date(text) == "2027-01-09"


@pytest.mark.parametrize("text,want", [("2026年12月1日 17:00", "2026-12-01T17:00:00+08:00"),
                                       ("2026.12.1 17:00", "2026-12-01T17:00:00+08:00"),
                                       ("2026年12月1日17:00", "2026-12-01T17:00:00+08:00"),
                                       ("2026/12/01", "2026-12-01T23:59:59+08:00"),
                                       ("2026-12-01 8:30", "2026-12-01T08:30:00+08:00")])
def test_deadlines_as_a_clerk_types_them(text, want):
    assert newleague.v_datetime(text) == want


def test_a_full_width_id_is_read_as_half_width():
    assert newleague.v_id("ｔ２０２６－ｃｈｅｓｓ") == "t2026-chess"


@pytest.mark.parametrize("value", ["一等奖0,二等奖2", "一等奖1,二等奖0名", "一等奖-1,二等奖2",
                                   [{"award": "一等奖", "count": 0}], [{"award": "一等奖", "count": -2}]])
def test_an_award_with_no_places_is_refused_at_its_question(value):
    """R2020-A1 awards by place: 一等奖0 was taken (a 一等奖 nobody can win; its prize then
    refused at the event's row in YAML words): a count of 0 or less is refused here."""
    with pytest.raises(newleague.BadAnswer, match="名额为 0 或负数") as e:
        newleague.v_places(value)
    assert "“一等奖”" in str(e.value) or "“二等奖”" in str(e.value)


def test_setup_warnings_do_not_promise_awards_for_an_event_that_cannot_be_held():
    """An event whose quotas never reach its format's minimum is not "每位参赛者都会获奖"."""
    a = small_answers(2)
    a["events"] = [{"name": "斗地主", "game": "斗地主", "format": "三人桌", "quota": "fixed 1", "team_size": "1"}]
    said = newleague.setup_warnings(newleague.build_spec(a), a)
    assert not any("都会获奖" in s for s in said), said


def test_an_event_its_quotas_can_never_fill_is_asked_again_at_the_prompt(tmp_path):
    """R2020-Q1 at the prompt: each event is checked alone among made-up units as it is typed
    (no refusal there: 3 units of 固定1 seat a table of three), and refused by the final
    check when the league's units can never fill it — then only that event is asked again."""
    a = small_answers(1)
    script = [a["name"], "t2026", "校工会", "", "", "甲分工会", "王芳", "40", "a@x.cn", "",
              "斗地主", "斗地主", "三人桌", "固定2", "1", "",
              "2026-01-10 17:00", "2026-01-17", "08:30", "12:00", "", "", "", "", "ranked", "一等奖1", "", "", "",
              "斗地主", "三人桌", "固定3", "1"]            # the event again: 3 players
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=False)
    why = [s for s in said if "无法举行" in s]
    assert len(why) == 1 and "最多只有 2 人" in why[0] and "至少要 3 人" in why[0], said
    assert not script and not any("重新回答全部问题" in s for s in said)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["events"][0]["quota"]["per_branch"] == 3
    a = small_answers(3)
    a["events"] = [{"name": "斗地主", "game": "斗地主", "format": "三人桌", "quota": "固定1", "team_size": "1"}]
    assert newleague.answer_problems(a)[1] == []


@pytest.mark.parametrize("fn,text", [(lambda v: newleague.v_int(v, 0, 100), "9" * 400),
                                     (lambda v: newleague.v_int(v, 0, 100), "9" * 400 + ".0"),
                                     (newleague.v_int, "9" * 5000), (newleague.v_team_size, "9" * 400),
                                     (newleague.v_quota, "fixed " + "9" * 400)])
def test_a_number_too_large_for_a_float_is_a_bad_answer_not_an_overflow(fn, text):
    """400 nines: float() made it inf, and int(inf) stopped `league new` with OverflowError;
    the answer quoted back is cut short (:func:`pipeline.issues.quoted`)."""
    with pytest.raises(newleague.BadAnswer) as e:
        fn(text)
    assert len(str(e.value)) < 200
    assert newleague.v_int("9" * 400) == int("9" * 400)     # (no bound: as typed)
