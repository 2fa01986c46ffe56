"""Audit of the `league new` / `questionnaire` / `template` commands: no overwrite, no
traceback, the contract's exit codes."""
from __future__ import annotations

import openpyxl
from click.testing import CliRunner

from pipeline import newleague
from pipeline.cli import main


def test_questionnaire_refuses_to_overwrite_a_filled_one(tmp_path):
    q = tmp_path / "问卷.xlsx"
    r = CliRunner().invoke(main, ["questionnaire", str(q)])
    assert r.exit_code == 0, r.output
    wb = openpyxl.load_workbook(q)
    wb[newleague.QUESTIONNAIRE_SHEET]["B3"] = "2026年教职工棋牌赛"
    wb.save(q)
    r = CliRunner().invoke(main, ["questionnaire", str(q)])
    assert r.exit_code == 2 and "已存在" in r.output and "--force" in r.output
    assert openpyxl.load_workbook(q)[newleague.QUESTIONNAIRE_SHEET]["B3"].value == "2026年教职工棋牌赛"
    r = CliRunner().invoke(main, ["questionnaire", str(q), "--force"])
    assert r.exit_code == 0, r.output
    assert openpyxl.load_workbook(q)[newleague.QUESTIONNAIRE_SHEET]["B3"].value is None
