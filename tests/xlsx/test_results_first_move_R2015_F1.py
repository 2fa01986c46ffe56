"""The result sheet of a one-game board game says who holds which colour (R2015-F1: 甲方执黑
先行 / 执红先行): only the draw sheet printed （执黑先行）, so a referee with 黑中盘胜 did not
know which of 甲胜 / 乙胜 to pick.  The table (header row, columns) stays where it was."""
from __future__ import annotations

import pytest
from openpyxl import load_workbook

from pipeline import layout
from pipeline.games import GAMES
from pipeline.model import Match, Round
from pipeline.xlsx import read_meta, write_result_sheet


def _sheet(tournament, tmp_path, event_id):
    ev = tournament.spec.event(event_id)
    game = GAMES.get(ev.game)
    rnd = Round(event=event_id, stage="swiss", stage_name="瑞士制", round=1, input_hash="h",
                matches=(Match(event_id, "swiss", 1, "", 1, ("e1", "e2")),
                         Match(event_id, "swiss", 1, "", 2, ("e3",), bye=True)))
    path = write_result_sheet(tmp_path / f"{event_id}.xlsx", tournament=tournament, event=ev, rnd=rnd,
                              columns=game.columns({}), label_of={"e1": "甲", "e2": "乙", "e3": "丙"})
    wb = load_workbook(path)
    hdr = read_meta(wb)["header_row"]
    ws = wb[layout.RESULT_SHEET]
    return hdr, " ".join(str(ws.cell(r, 1).value) for r in range(1, hdr)), [c.value for c in ws[hdr] if c.value]


@pytest.mark.parametrize("event_id,said", [
    ("go", ["甲方执黑先行", "黑方胜选“甲胜”", "白方胜选“乙胜”"]),
    ("xiangqi", ["甲方执红先行", "红方胜选“甲胜”", "黑方胜选“乙胜”"])])
def test_R2015_F1_result_sheet_says_who_holds_which_colour(tournament, tmp_path, event_id, said):
    hdr, above, labels = _sheet(tournament, tmp_path, event_id)
    for s in said:
        assert s in above, above
    assert hdr == 6 and labels[:7] == ["轮次", "组别", "桌号", "甲方", "乙方", "结果", "原因"]


def test_a_card_game_sheet_says_no_colour(tournament, tmp_path):
    _, above, _ = _sheet(tournament, tmp_path, "shuangkou")
    assert "先行" not in above
