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
