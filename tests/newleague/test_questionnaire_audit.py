"""Audit of the questionnaire workbook: its file type, the Chinese reasons a file cannot be
read, whole-spec errors located on the sheet in the office's words, all bad answers at once."""
from __future__ import annotations

import openpyxl
import pytest
from click.testing import CliRunner

from pipeline import newleague
from pipeline.cli import main

from .helpers import small_answers
from .test_newleague import _questionnaire

ENGLISH = ("openpyxl", "xlrd", "zip", "File is not", "support", "doudizhu", "knockout", "配置键")


def _said(r):
    assert "Traceback" not in r.output and not any(w in r.output for w in ENGLISH), r.output
    return r.output


@pytest.mark.parametrize("name", ["问卷X.xls", "问卷.et", "问卷.csv"])
def test_questionnaire_with_another_extension_is_refused_in_chinese(tmp_path, name):
    r = CliRunner().invoke(main, ["questionnaire", str(tmp_path / name)])
    assert r.exit_code == 2 and ".xlsx" in _said(r) and "不能用扩展名" in r.output
    assert not list(tmp_path.iterdir())


def test_questionnaire_without_extension_is_an_xlsx(tmp_path):
    r = CliRunner().invoke(main, ["questionnaire", str(tmp_path / "问卷")])
    assert r.exit_code == 0 and r.output.strip() == str(tmp_path / "问卷.xlsx")
    assert openpyxl.load_workbook(tmp_path / "问卷.xlsx").sheetnames == [newleague.QUESTIONNAIRE_SHEET]


def _new(tmp_path, q):
    return CliRunner().invoke(main, ["new", str(tmp_path / "t2026"), "--from-workbook", str(q)])


def test_an_xlsx_named_xls_is_read_by_its_content(tmp_path):
    q, _ = _questionnaire(tmp_path, small_answers(2))
    old = q.rename(tmp_path / "问卷X.xls")          # as league questionnaire 问卷X.xls wrote it before
    r = _new(tmp_path, old)
    assert r.exit_code == 0, r.output


def _ole2(p):
    p.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)


@pytest.mark.parametrize("name,make,words", [
    ("问卷.xls", _ole2, ["Excel 97-2003", "另存为", "Excel 工作簿（*.xlsx）", "问卷.xlsx"]),
    ("问卷.et", _ole2, ["WPS 表格（.et）", "另存为"]),
    ("问卷.csv", lambda p: p.write_text("问题,填写\n赛事名称,棋牌赛\n", encoding="utf-8"), ["CSV", "另存为"]),
    ("问卷", lambda p: p.write_text("问题,填写\n", encoding="utf-8"), ["文本", "另存为"]),
    ("问卷.xlsx", lambda p: p.write_bytes(b"PK\x03\x04" + b"x" * 100), ["损坏"]),
    ("问卷.xlsx", lambda p: p.write_bytes(b""), ["空"]),
])
def test_a_file_that_is_no_xlsx_gets_a_chinese_reason(tmp_path, name, make, words):
    q = tmp_path / name
    make(q)
    out = _said(_new(tmp_path, q))
    assert out.startswith("错误：") and all(w in out for w in words), out
    assert not (tmp_path / "t2026").exists()


def test_a_questionnaire_without_its_sheet_names_the_sheets_it_has(tmp_path):
    q, _ = _questionnaire(tmp_path, small_answers(2))
    wb = openpyxl.load_workbook(q)
    wb[newleague.QUESTIONNAIRE_SHEET].title = "Sheet1"
    wb.save(q)
    out = _said(_new(tmp_path, q))
    assert "没有名为 “问卷” 的工作表（现有：Sheet1）" in out


def test_a_format_that_does_not_fit_the_game_names_the_row_and_the_clerks_words(tmp_path):
    a = small_answers(2)
    a["events"].append({"name": "斗地主", "game": "斗地主", "format": "淘汰赛", "quota": "fixed 1", "team_size": "1"})
    q, rows = _questionnaire(tmp_path, a)
    out = _said(_new(tmp_path, q))
    assert f"【比赛项目 “斗地主”的赛制】（问卷第 {rows['比赛项目'] + 4} 行）的回答有误" in out, out
    assert "赛制“淘汰赛”每桌 2 人，但游戏“斗地主”需要 3 人" in out and "三人桌淘汰赛" in out


def test_a_unit_listed_twice_names_both_rows(tmp_path):
    a = small_answers(4)
    a["units"][3]["name"] = a["units"][1]["name"]
    q, rows = _questionnaire(tmp_path, a)
    out = _said(_new(tmp_path, q))
    first = rows["参赛单位"] + 2
    assert f"【参赛单位】（问卷第 {first + 1}、{first + 3} 行）的回答有误：单位名称或简称重复" in out, out


def test_a_quota_band_written_as_a_range_says_the_band_syntax(tmp_path):
    a = small_answers(2)
    a["events"][0]["quota"] = "分档 0-30:1,30-60:2"
    q, rows = _questionnaire(tmp_path, a)
    out = _said(_new(tmp_path, q))
    assert f"（问卷第 {rows['比赛项目'] + 2} 行）" in out
    assert "“0-30:1” 写的是人数范围" in out and "最低人数" in out and "分档 0:1,30:2" in out
    assert "不是整数" not in out


def test_every_bad_answer_is_said_at_once_with_its_row(tmp_path):
    a = small_answers(3)
    a["deadline"] = "明天"
    a["units"][1]["email"] = "不是邮箱"
    a["events"][1]["quota"] = "fixed 0"
    q, rows = _questionnaire(tmp_path, a)
    out = _said(_new(tmp_path, q))
    assert "问卷有 3 处回答有误" in out, out
    for where in (f"【第2个单位】（问卷第 {rows['参赛单位'] + 3} 行）",
                  f"【报名截止时间】（问卷第 {rows['报名截止时间']} 行，B{rows['报名截止时间']}）",
                  f"【第2个项目】（问卷第 {rows['比赛项目'] + 3} 行）"):
        assert where in out, (where, out)


@pytest.mark.parametrize("title", ["参赛单位", "比赛项目"])
def test_a_deleted_table_title_row_still_reads_the_table_by_its_header(tmp_path, title):
    """Deleting the title row 比赛项目 read the events as units 12–15 (“fixed 2”不是有效的邮箱地址),
    deleting 参赛单位 said only 至少要有一个参赛单位: a table also starts at its header row."""
    a = small_answers(3)
    q, rows = _questionnaire(tmp_path, a)
    wb = openpyxl.load_workbook(q)
    wb[newleague.QUESTIONNAIRE_SHEET].delete_rows(rows[title])
    wb.save(q)
    got = newleague.read_questionnaire(q)
    assert [u["name"] for u in got["units"]] == [u["name"] for u in a["units"]]
    assert [e["name"] for e in got["events"]] == [e["name"] for e in a["events"]]
    assert _new(tmp_path, q).exit_code == 0


def test_a_question_row_moved_below_a_table_is_read_as_that_question(tmp_path):
    """报名截止时间 moved below the tables was read as a session (日期 “报名截止时间” 格式不对) and the
    deadline missing."""
    a = small_answers(2)
    q, rows = _questionnaire(tmp_path, a)
    wb = openpyxl.load_workbook(q)
    ws = wb[newleague.QUESTIONNAIRE_SHEET]
    at = rows["报名截止时间"]
    values = [c.value for c in ws[at]]
    ws.delete_rows(at)
    last = ws.max_row + 1
    for c, v in enumerate(values, 1):
        ws.cell(last, c).value = v
    wb.save(q)
    got = newleague.read_questionnaire(q)
    assert str(got["deadline"]).startswith(a["deadline"][:10]) and len(got["sessions"]) == len(a["sessions"])
    assert _new(tmp_path, q).exit_code == 0


def test_a_format_with_its_rounds_and_options(tmp_path):
    """A clerk writes 围棋 “瑞士制 5轮” (the audit's clerk found ``rounds`` only by reading the
    code, and “瑞士制 5轮” was refused): the rounds and ``option=value`` pairs after the
    format go into the spec; a word it cannot read is named."""
    import yaml

    a = small_answers(2)
    a["events"].append({"name": "围棋", "game": "围棋", "format": "瑞士制 5轮", "quota": "fixed 1", "team_size": "1"})
    a["events"].append({"name": "象棋淘汰", "game": "象棋", "format": "淘汰赛，final_pool=4", "quota": "fixed 1"})
    q, _ = _questionnaire(tmp_path, a)
    r = _new(tmp_path, q)
    assert r.exit_code == 0, r.output
    spec = yaml.safe_load((tmp_path / "t2026" / "tournament.yaml").read_text(encoding="utf-8"))
    formats = {e["name"]: e["format"] for e in spec["events"]}
    assert formats["围棋"] == {"type": "swiss", "rounds": 5}
    assert formats["象棋淘汰"] == {"type": "knockout", "final_pool": 4}


def test_a_format_option_it_cannot_read_is_named(tmp_path):
    a = small_answers(2)
    a["events"].append({"name": "围棋", "game": "围棋", "format": "瑞士制 五轮", "quota": "fixed 1", "team_size": "1"})
    q, _ = _questionnaire(tmp_path, a)
    out = _said(_new(tmp_path, q))
    assert "赛制后面的“五轮”看不懂" in out and "5轮" in out, out
    assert not (tmp_path / "t2026").exists()


@pytest.mark.parametrize("answer,spec", [
    ("瑞士制5轮", {"type": "swiss", "rounds": 5}),
    ("瑞士制 5 轮", {"type": "swiss", "rounds": 5}),
    ("瑞士制，共 5 轮", {"type": "swiss", "rounds": 5}),
    ("瑞士制（5轮）", {"type": "swiss", "rounds": 5}),
    ("三人桌 fill=bye", {"type": "tables_of_three", "fill": "bye"}),
])
def test_rounds_written_as_a_clerk_writes_them(answer, spec):
    assert newleague.v_format_spec(answer) == spec


@pytest.mark.parametrize("answer,words", [
    ("循环赛 2轮", ["赛制“循环赛”的轮数由参赛人数决定", "去掉“2轮”"]),
    ("淘汰赛 x=1", ["赛制“淘汰赛”没有选项“x”", "final_pool"]),
    ("瑞士制 60轮", ["赛制“瑞士制”的选项有误", "1..50"]),
])
def test_a_format_option_refused_is_said_in_chinese(answer, words):
    with pytest.raises(newleague.BadAnswer) as e:
        newleague.v_format_spec(answer)
    said = str(e.value)
    assert all(w in said for w in words) and "unknown" not in said and "known:" not in said, said


@pytest.mark.parametrize("scheme", ["前N名", ""])
def test_an_award_place_count_of_zero_is_refused_at_its_row_R2020_A1(tmp_path, scheme):
    """奖项及名额 一等奖0 with 奖金 一等奖=500: with 前N名 the prize was refused at the first
    event's row in YAML words (awards.prizes), the 0 never named; with 按名次设奖 the folder
    was made with count: 0 and a 500-yuan prize nobody could win."""
    a = small_answers(2)
    a.update(places="一等奖0,二等奖2", prizes="一等奖=500", awards=scheme)
    q, rows = _questionnaire(tmp_path, a)
    r = _new(tmp_path, q)
    out = _said(r)
    assert r.exit_code != 0 and not (tmp_path / "t2026" / "tournament.yaml").exists(), out
    n = rows["奖项及名额"]
    assert f"【奖项及名额】（问卷第 {n} 行，B{n}）的回答有误" in out and "“一等奖”的名额为 0" in out, out
    assert "awards" not in out and f"第 {rows['比赛项目'] + 2} 行" not in out, out


@pytest.mark.parametrize("question,key,value", [("单位奖项", "branch_award", "一等奖"),
                                                ("评定奖项", "discretionary_awards", "二等奖")])
def test_a_whole_spec_award_problem_is_said_once_at_its_question_row(tmp_path, question, key, value):
    """The awards are answered once for every event: a problem the whole spec's check finds
    in them was said once per event, at each event's row, with YAML keys (branch_award,
    awards); it is said once, at the row of the answer, in the questionnaire's words."""
    a = small_answers(2)
    a[key] = value
    q, rows = _questionnaire(tmp_path, a)
    out = _said(_new(tmp_path, q))
    n = rows[question]
    assert out.count("的回答有误") == 1 and f"【{question}】（问卷第 {n} 行，B{n}）的回答有误" in out, out
    assert f"奖项“{value}”已写在赛事的“{question}”" in out and "“奖项及名额”" in out, out
    assert key not in out and "awards" not in out, out


@pytest.mark.parametrize("event,units,most,need", [
    ({"name": "斗地主", "game": "斗地主", "format": "三人桌", "quota": "fixed 1", "team_size": "1"}, 2, "2 人", "3 人"),
    ({"name": "象棋", "game": "象棋", "format": "循环赛", "quota": "fixed 1", "team_size": "1"}, 1, "1 人", "2 人"),
])
def test_an_event_its_quotas_can_never_fill_is_refused_at_its_row(tmp_path, event, units, most, need):
    """2 units with one 斗地主 player each: at most 2 players, a table of three needs 3 — the
    folder was made with a warning that every player wins, and league run then said
    TOO_FEW_ENTRIES (延长报名截止) every night; like a fixed quota of 0 it is refused."""
    a = small_answers(units)
    a["events"] = [event]
    q, rows = _questionnaire(tmp_path, a)
    r = _new(tmp_path, q)
    out = _said(r)
    assert r.exit_code != 0 and not (tmp_path / "t2026" / "tournament.yaml").exists(), out
    assert f"（问卷第 {rows['比赛项目'] + 2} 行）" in out and f"项目“{event['name']}”" in out, out
    assert "无法举行" in out and f"最多只有 {most}" in out and f"至少要 {need}" in out, out
    assert "都会获奖" not in out, out
