"""tournament.yaml syntax errors: the line at fault, said in Chinese (the original detail in
brackets), and a file saved in GBK told to be saved as UTF-8."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.spec import SpecError, load_tournament

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_sheets" / "t2016-poker"


def _load(tmp_path, text=None, data=None):
    folder = tmp_path / "t"
    shutil.copytree(SAMPLE, folder, ignore=shutil.ignore_patterns("inbox"))
    (folder / "tournament.yaml").write_bytes(data if data is not None else text.encode("utf-8"))
    with pytest.raises(SpecError) as e:
        load_tournament(folder)
    return str(e.value)


HEAD = "id: t\nname: 赛\nunits: []\nevents: []\n"


@pytest.mark.parametrize("text,line,words", [
    ("id: t\nname: 赛\nx: 1\nq: 2\nz: 3\nw: 4\nv: 5\norganizer 校工会\nunits: []\n", 8, "冒号"),
    ("id: t\nunits:\n\t- x\n", 3, "用空格代替 Tab"),
    ("id: t\nname: \"abc\nunits: []\nevents: []\n", 2, "引号"),
    ("id: t\nunits:\n  - id: b\n   name: c\nevents: []\n", 4, "缩进"),
])
def test_a_syntax_error_is_said_in_chinese_at_its_line(tmp_path, text, line, words):
    msg = _load(tmp_path, text)
    assert f"第 {line} 行" in msg and words in msg, msg
    assert "（原文：" in msg, msg            # the parser's own words kept, in brackets


def test_a_gbk_file_is_told_to_be_saved_as_utf8(tmp_path):
    msg = _load(tmp_path, data=("id: t\nname: 教职工棋牌赛\n" + HEAD).encode("gbk"))
    assert "另存为" in msg and "UTF-8" in msg and "YAML 格式有误" not in msg, msg


@pytest.mark.parametrize("value", ["2020-11-31T15:00:00+08:00", "2020-11-31", "2020-13-01"])
def test_an_unquoted_date_not_on_the_calendar_is_said_at_its_line(tmp_path, value):
    """deadline: 2020-11-31T15:00:00+08:00, unquoted as the samples write dates, was a traceback
    (PyYAML: day is out of range for month) and 请把这段信息发给维护人员 (from an audit of the handbook)."""
    text = (SAMPLE / "tournament.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, x in enumerate(lines) if x.strip().startswith("deadline:"))
    lines[at] = lines[at].split("deadline:")[0] + f"deadline: {value}"
    msg = _load(tmp_path, "\n".join(lines) + "\n")
    assert f"第 {at + 1} 行" in msg and value in msg and "在日历上没有" in msg, msg


def _edited(tmp_path, edit) -> str:
    lines = (SAMPLE / "tournament.yaml").read_text(encoding="utf-8").splitlines()
    edit(lines)
    return _load(tmp_path, "\n".join(lines) + "\n")


def _at(lines, key):
    return next(i for i, x in enumerate(lines) if x.strip().startswith(key))


def test_a_key_written_twice_is_said_with_both_lines(tmp_path):
    """A second ``deadline:`` typed above the old one: YAML kept the last silently (the old
    deadline; the event was drawn early) — now both lines are named (from an audit)."""
    def twice(lines):
        at = _at(lines, "deadline:")
        lines.insert(at, lines[at].split("deadline:")[0] + "deadline: 2016-11-30T15:00:00+08:00   # 延期")
    msg = _edited(tmp_path, twice)
    lines = (SAMPLE / "tournament.yaml").read_text(encoding="utf-8").splitlines()
    at = _at(lines, "deadline:")
    assert f"第 {at + 2} 行的键“deadline”" in msg and f"第 {at + 1} 行" in msg and "只能写一次" in msg, msg


@pytest.mark.parametrize("where", ["indent", "after-colon", "before-key"])
def test_a_full_width_space_is_said_at_its_line(tmp_path, where):
    """The Chinese input method's space (U+3000) in an indentation, after a key's colon or
    before a key: said as 全角空格 at its line (it was "缩进不对" at another line, "缺少冒号",
    or an unknown key "　venue")."""
    def edit(lines):
        at = _at(lines, "team_size:") if where != "before-key" else _at(lines, "venue:")
        lines[at] = {"indent": lambda x: x.replace("  ", "\u3000", 1),
                     "after-colon": lambda x: x.replace(": ", ":\u3000", 1),
                     "before-key": lambda x: "\u3000" + x}[where](lines[at])
        edit.line = at + 1
    msg = _edited(tmp_path, edit)
    assert f"第 {edit.line} 行" in msg and "全角空格" in msg, msg


def test_a_tab_inside_an_indented_block_is_said_as_a_tab(tmp_path):
    def edit(lines):
        at = _at(lines, "team_size:")
        lines[at] = lines[at].replace("  ", "\t", 1)
        edit.line = at + 1
    msg = _edited(tmp_path, edit)
    assert f"第 {edit.line} 行" in msg and "Tab" in msg, msg


def test_a_misspelt_points_key_is_refused_with_the_nearest(tmp_path):
    """``points: {win: 2, draw: 1, lose: 1}``: ``lose`` was ignored without a word (every
    loss scored 0, the standings wrong)."""
    def edit(lines):
        at = _at(lines, "format:")
        lines.insert(at, lines[at].split("format:")[0] + "points: {win: 2, draw: 1, lose: 1}")
    msg = _edited(tmp_path, edit)
    assert ".points" in msg and "“lose”" in msg and "是不是 loss" in msg, msg


def test_an_award_count_with_a_word_is_said_in_chinese(tmp_path):
    def edit(lines):
        at = _at(lines, "awards: {scheme: group_top, count: 2}")
        lines[at] = lines[at].replace("count: 2", "count: 2名")
    msg = _edited(tmp_path, edit)
    assert "应为整数" in msg and "2名" in msg and "invalid literal" not in msg, msg


def test_absent_points_are_a_points_key(tmp_path):
    """``points: {absent: 0}`` (both sides absent: games.common.forfeit reads it) is no typo."""
    folder = tmp_path / "t"
    shutil.copytree(SAMPLE, folder, ignore=shutil.ignore_patterns("inbox"))
    lines = (SAMPLE / "tournament.yaml").read_text(encoding="utf-8").splitlines()
    at = _at(lines, "format:")
    lines.insert(at, lines[at].split("format:")[0] + "points: {absent: 0}")
    (folder / "tournament.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    load_tournament(folder)


def test_a_paragraph_indented_in_a_block_of_text_is_not_blamed(tmp_path):
    """A 　　 paragraph indent inside ``text: |`` is legal; a real mistake elsewhere is said
    at its own line (the full-width space was named instead)."""
    sample = ROOT / "sample_sheets" / "t2020-league"
    lines = (sample / "tournament.yaml").read_text(encoding="utf-8").splitlines()
    blk = next(i for i, x in enumerate(lines) if x.rstrip().endswith("|"))
    body = lines[blk + 1]
    lines[blk + 1] = body[:len(body) - len(body.lstrip())] + "\u3000\u3000" + body.lstrip()
    bad = next(i for i, x in enumerate(lines) if x.strip().startswith("- {id:"))
    lines[bad] += ",,"
    folder = tmp_path / "t"
    shutil.copytree(sample, folder, ignore=shutil.ignore_patterns("inbox*"))
    (folder / "tournament.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_tournament(folder)
    assert f"第 {bad + 1} 行" in str(e.value) and "全角空格" not in str(e.value), str(e.value)
