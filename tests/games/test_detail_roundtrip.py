"""The 明细 (detail) sheets end to end: the result workbook written by
pipeline.xlsx.results, filled in by a referee (openpyxl), read back with
pipeline.ingest (read_workbook, read_results, read_details) and parsed by the game,
the way the runner does it."""
from __future__ import annotations

import pytest
from openpyxl import load_workbook

from pipeline import layout
from pipeline.games import GAMES
from pipeline.games.base import ResultRow
from pipeline.ingest.sheets import key_of, read_details, read_results
from pipeline.ingest.workbook import read_workbook, strip_spaces
from pipeline.model import Match, Outcome, Round
from pipeline.spec import Tournament, TournamentSpec, validated
from pipeline.xlsx.results import write_result_sheet

SPEC = {
    "id": "t-detail",
    "name": "教职工棋牌比赛",
    "units": [{"id": "u1", "name": "一分会"}, {"id": "u2", "name": "二分会"}],
    "events": [
        {"id": "shuangkou", "name": "双扣", "game": "shuangkou", "team_size": 2, "format": {"type": "swiss"},
         "game_options": {"penalty_mode": "defender_total"}},
        {"id": "shuangsheng", "name": "双升", "game": "shuangsheng", "team_size": 2,
         "format": {"type": "round_robin"}},
        {"id": "guandan", "name": "掼蛋", "game": "guandan", "team_size": 2, "format": {"type": "swiss"}},
    ],
}


def _round(event: str) -> Round:
    matches = (Match(event, "s1", 1, "A", 1, ("a", "b")), Match(event, "s1", 1, "A", 2, ("c", "d")),
               Match(event, "s1", 1, "A", 3, ("e",), bye=True))
    return Round(event=event, stage="s1", stage_name="小组赛", round=1, matches=matches)


def _header(ws, first: str) -> tuple[int, dict[str, int]]:
    for row in ws.iter_rows():
        if row[0].value == first:
            return row[0].row, {c.value: c.column for c in row if c.value}
    raise AssertionError(f"no header row in {ws.title}")


def _write_and_fill(tmp_path, event_id: str, results: dict[int, dict], hands: dict[int, list[dict]]):
    t = Tournament(tmp_path / "t", validated(TournamentSpec, SPEC), b"0123456789abcdef0123")
    ev = t.spec.event(event_id)
    game = GAMES.get(ev.game)
    rnd = _round(event_id)
    path = write_result_sheet(tmp_path / "r.xlsx", tournament=t, event=ev, rnd=rnd,
                              columns=game.columns(ev.game_options), label_of={k: k for k in "abcde"},
                              detail=game.detail(ev.game_options), seats=2, detail_rows=6)
    wb = load_workbook(path)
    ws = wb[layout.RESULT_SHEET]
    hdr, col = _header(ws, "轮次")
    for r in range(hdr + 1, ws.max_row + 1):
        table = ws.cell(r, col["桌号"]).value
        for label, value in results.get(table, {}).items():
            ws.cell(r, col[label]).value = value
    ws = wb[game.detail(ev.game_options).name]
    hdr, col = _header(ws, "轮次")
    seen: dict[int, int] = {}
    for r in range(hdr + 1, ws.max_row + 1):
        table = ws.cell(r, col["桌号"]).value
        if table is None:
            continue
        k = seen[table] = seen.get(table, -1) + 1
        assert ws.cell(r, col["局号"]).value == k + 1           # pre-numbered by the writer
        if k < len(hands.get(table, [])):
            for label, value in hands[table][k].items():
                ws.cell(r, col[label]).value = value
    wb.save(path)
    return t, ev, game, rnd, path


def _parse(ev, game, rnd, path):
    """What the runner's collect step does with one result workbook."""
    book = read_workbook(path)
    matches = {(str(m.round), strip_spaces(m.group), str(m.table)): m for m in rnd.matches if not m.bye}
    labels = [c.label for c in game.columns(ev.game_options)]
    sheet_rows, found = read_results(book, path.name, labels)
    assert found == []
    rows = [ResultRow(matches[key_of(r.values)], r.values, r.cells) for r in sheet_rows
            if key_of(r.values) in matches]
    detail = game.detail(ev.game_options)
    details = {matches[k].key: v for k, v in
               read_details(book, path.name, detail.name, [c.label for c in detail.columns]).items() if k in matches}
    return game.parse_round(rnd, rows, {}, ev.game_options, details or None)


def test_R2015_C1_P1_shuangkou_detail_sheet_round_trip(tmp_path):
    hands = {
        1: [  # 2:2 → 甲 5 (must-play stop) → 甲 7 (30 − 20 penalty) → 乙 takes over +2 (40 + 对子 20×4)
            {"庄家方": "甲", "闲家得分": 0},
            {"庄家方": "甲", "闲家得分": 30, "罚分方": "乙"},
            {"庄家方": "甲", "闲家得分": 40, "扣底牌型": "对子", "底牌分": 20},
        ],
        2: [  # 甲 5, then 乙 deals hand 2 although 甲 went up: rotation broken at hand 2
            {"庄家方": "甲", "闲家得分": 0},
            {"庄家方": "乙", "闲家得分": 0},
        ],
    }
    results = {1: {"甲方级数": "7", "乙方级数": "4"}, 2: {"甲方级数": "5", "乙方级数": "5", "末盘胜方": "乙"}}
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "shuangkou", results, hands)
    res, issues = _parse(ev, game, rnd, path)
    assert [r.match.table for r in res] == [1]
    assert [s.outcome for s in res[0].sides] == [Outcome.WIN, Outcome.LOSS]
    (i,) = issues
    assert i.code == "RESULT_INVALID" and i.file == "r.xlsx" and i.sheet == "明细"
    assert "第2桌" in i.message and "明细第 2 局" in i.message and "对家" in i.message
    # the cell named is the 庄家方 cell of table 2's second detail row
    wb = load_workbook(path)
    assert wb["明细"][i.cell].value == "乙"

    # a wrong entered level on table 1 → TOTAL_MISMATCH at that 成绩 cell
    results[1]["乙方级数"] = "6"
    hands[2][1]["庄家方"] = "甲"
    results[2] = {"甲方级数": "9", "乙方级数": "2"}
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "shuangkou", results, hands)
    res, issues = _parse(ev, game, rnd, path)
    assert [r.match.table for r in res] == [2]
    (i,) = issues
    assert i.code == "TOTAL_MISMATCH" and i.sheet == "成绩" and "第1桌" in i.message
    ws = load_workbook(path)["成绩"]
    assert ws[i.cell].value == "6"


@pytest.mark.parametrize("dealer2,ok", [("甲", True), ("乙", False)])
def test_R2020_C3_shuangsheng_detail_sheet_round_trip(tmp_path, dealer2, ok):
    hands = {1: [{"庄家方": "甲", "捡分方得分": 0}, {"庄家方": dealer2, "捡分方得分": 40}]}
    results = {1: {"甲方级数": "6" if dealer2 == "甲" else "5", "乙方级数": "2", "庄家": "甲"}}
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "shuangsheng", results, hands)
    res, issues = _parse(ev, game, rnd, path)
    if ok:
        assert issues == [] and [s.points for s in res[0].sides] == [3, 1]
    else:
        (i,) = issues
        assert res == [] and i.code == "RESULT_INVALID" and i.sheet == "明细"
        assert load_workbook(path)["明细"][i.cell].value == "乙"


def _values_from_details(ev, game, rnd, path):
    """As the runner does for a row whose result cells are blank (EventRunner.totals_from_details)."""
    book = read_workbook(path)
    matches = {(str(m.round), strip_spaces(m.group), str(m.table)): m for m in rnd.matches if not m.bye}
    detail = game.detail(ev.game_options)
    details = {matches[k].key: v for k, v in
               read_details(book, path.name, detail.name, [c.label for c in detail.columns]).items() if k in matches}
    return {m.table: game.values_from_details(ResultRow(m, {}, {}), details[m.key], ev.game_options, [])
            for m in matches.values() if m.key in details}


def test_levels_are_computed_from_the_detail_sheet_when_left_blank(tmp_path):
    """Contract: "Optional detail sheets … from which totals are computed".  A table whose
    levels were left blank gets them from its hands (its 明细 was read only to check them)."""
    hands = {1: [{"庄家方": "甲", "闲家得分": 0}, {"庄家方": "甲", "闲家得分": 30, "罚分方": "乙"},
                 {"庄家方": "甲", "闲家得分": 40, "扣底牌型": "对子", "底牌分": 20}]}
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "shuangkou", {}, hands)
    assert _values_from_details(ev, game, rnd, path) == {1: {"甲方级数": "7", "乙方级数": "4"}}
    hands = {1: [{"庄家方": "甲", "捡分方得分": 0}, {"庄家方": "甲", "捡分方得分": 40}]}
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "shuangsheng", {}, hands)
    assert _values_from_details(ev, game, rnd, path) == {1: {"甲方级数": "6", "乙方级数": "2"}}


def test_R2016_C1_guandan_detail_sheet_round_trip(tmp_path):
    """掼蛋's 明细 written with the round's workbook, filled deal by deal, read back: table 1's
    levels agree with its deals (scored), table 2's 乙方级数 does not (TOTAL_MISMATCH at that
    成绩 cell); then table 2 has a deal after 甲 passed A (RESULT_INVALID at its 明细 cell);
    then both agree, and levels left blank are computed from the deals."""
    hands = {
        1: [  # 甲 +3 → 5, 乙 +2 → 4, 甲 +1 → 6, 乙 +3 → 7, 甲 +3 → 9
            {"头游方": "甲", "头游对家名次": "二游"}, {"头游方": "乙", "头游对家名次": "三游"},
            {"头游方": "甲", "头游对家名次": "末游"}, {"头游方": "乙", "头游对家名次": "二游"},
            {"头游方": "甲", "头游对家名次": "二游"},
        ],
        2: [  # 甲 to A (never past it), 乙 +1 → 3, 甲 passes A with the partner third
            {"头游方": "甲", "头游对家名次": "二游"}, {"头游方": "甲", "头游对家名次": "二游"},
            {"头游方": "乙", "头游对家名次": "末游"}, {"头游方": "甲", "头游对家名次": "二游"},
            {"头游方": "甲", "头游对家名次": "二游"}, {"头游方": "甲", "头游对家名次": "三游"},
        ],
    }
    results = {1: {"甲方级数": "9", "乙方级数": "7"}, 2: {"甲方级数": "A", "乙方级数": "4", "过A方": "甲"}}
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "guandan", results, hands)
    assert load_workbook(path).sheetnames[:2] == ["成绩", "明细"]
    res, issues = _parse(ev, game, rnd, path)
    assert [r.match.table for r in res] == [1] and [s.points for s in res[0].sides] == [60, 40]
    (i,) = issues
    assert i.code == "TOTAL_MISMATCH" and i.file == "r.xlsx" and i.sheet == "成绩" and "第2桌" in i.message
    assert '“乙方级数”填的是 "4"' in i.message and '应为 "3"' in i.message
    assert load_workbook(path)["成绩"][i.cell].value == "4"

    results[2]["乙方级数"] = "3"
    played = hands[2]
    hands[2] = [played[0], played[1], played[3], played[4], played[5], played[2]]     # 乙's deal after the pass
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "guandan", results, hands)
    res, issues = _parse(ev, game, rnd, path)
    assert [r.match.table for r in res] == [1]
    (i,) = issues
    assert i.code == "RESULT_INVALID" and i.sheet == "明细" and "第2桌 明细第 6 局" in i.message
    assert "第 5 局过A" in i.message and load_workbook(path)["明细"][i.cell].value == "乙"

    hands[2] = played
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "guandan", results, hands)
    res, issues = _parse(ev, game, rnd, path)
    assert issues == [] and [r.reason for r in res] == ["级数 9:7，相差 2 级", "甲方过A"]
    # 过A counts one level above A (R2016-S1, the handbook's decision): A passed against 3 is 12 levels, the cap
    assert [s.points for s in res[1].sides] == [52 + 4 * 12, 48 - 4 * 12]
    # levels left blank on 成绩 are computed from the deals
    t, ev, game, rnd, path = _write_and_fill(tmp_path, "guandan", {}, hands)
    assert _values_from_details(ev, game, rnd, path) == {
        1: {"甲方级数": "9", "乙方级数": "7"}, 2: {"甲方级数": "A", "乙方级数": "3", "过A方": "甲"}}
