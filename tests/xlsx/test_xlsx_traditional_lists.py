"""A Traditional league's handed-out workbooks (R2015, ``script: traditional``):

- a dropdown's error message lists the values exactly as the dropdown holds them — the
  dropdowns keep the Simplified values the readers match (围棋), and the message listed them
  converted (請從下拉列表中選擇：圍棋、中國象棋…), values no list has;
- the referee's result workbook names the referee as a name, in the script of its line
  (裁判：于丽 was left Simplified in a Traditional line)."""
from __future__ import annotations

import dataclasses

from openpyxl import load_workbook

from pipeline import layout
from pipeline.model import Match, Round
from pipeline.xlsx import write_registration_template, write_result_sheet
from pipeline.xlsx.forms import write_awards_form

from xlsx_fixtures import make_tournament

def test_R2015_the_registration_dropdowns_error_lists_its_values(tmp_path):
    t = make_tournament(tmp_path, script="traditional")
    ws = load_workbook(write_registration_template(t, "admin1", tmp_path / "x.xlsx"))[layout.REG_SHEET]
    dv = next(dv for dv in ws.data_validations.dataValidation if dv.formula1 == '"象棋,双升,双扣,掼蛋,围棋"')
    assert dv.error == "請從下拉列表中選擇：象棋、双升、双扣、掼蛋、围棋"


def test_R2015_the_awards_forms_dropdowns_error_lists_their_values(tmp_path):
    t = make_tournament(tmp_path, script="traditional")
    ws = load_workbook(write_awards_form(t, tmp_path / "a.xlsx")).active
    errors = [dv.error for dv in ws.data_validations.dataValidation]
    assert "請從下拉列表中選擇：风尚奖、潜力选手奖、优胜奖、组织奖" in errors, errors
    assert "請從下拉列表中選擇：象棋、双升、双扣、掼蛋、围棋" in errors, errors
    assert "請從下拉列表中選擇：行政第一分工会、理学院/化学分工会" in errors, errors


def test_R2015_the_result_workbook_names_its_referee_as_a_name(tmp_path):
    from pipeline.games import GAMES
    import pipeline.games.xiangqi  # noqa: F401 - registers the game

    t = make_tournament(tmp_path, script="traditional")
    ev = dataclasses.replace(t.spec.event("xiangqi"), referee="于丽")
    rnd = Round(event="xiangqi", stage="ko1", stage_name="淘汰赛第一轮", round=1, input_hash="abc123",
                matches=(Match("xiangqi", "ko1", 1, "", 1, ("e1", "e2")),))
    wb = load_workbook(write_result_sheet(tmp_path / "r.xlsx", tournament=t, event=ev, rnd=rnd,
                                          columns=GAMES.get("xiangqi").columns(ev.game_options), label_of={}))
    texts = [c.value for row in wb[layout.RESULT_SHEET].iter_rows(max_row=6) for c in row if isinstance(c.value, str)]
    (line,) = [v for v in texts if "裁判：" in v]
    assert "裁判：于麗" in line, line


def test_R2015_the_forms_instructions_name_the_contact_as_the_notice_does(tmp_path):
    """填表说明's 发送至 converts the contact person as a name, as the notice and the receipts
    do (:func:`pipeline.text.contact_in_script`): it said 发送至：校工會 於麗 beside the
    notice's 于麗 — and the office beside it as words (後勤處)."""
    t = make_tournament(tmp_path, script="traditional", contact="校工会 后勤处 于丽（联系电话 13880406245）")
    ws = load_workbook(write_registration_template(t, "admin1", tmp_path / "x.xlsx"))[layout.INSTRUCTIONS_SHEET]
    (line,) = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str) and "發送至" in c.value]
    assert "發送至：校工會 後勤處 于麗（聯繫電話 13880406245）" in line, line
