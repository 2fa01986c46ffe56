"""Result workbook for referees (contract "Result workbook"; R2011-R1 signature columns)."""
from __future__ import annotations

import pytest
from openpyxl import load_workbook

from pipeline import layout
from pipeline.games.base import DetailSheet, ResultColumn
from pipeline.model import Match, Round
from pipeline.xlsx import read_meta, write_result_sheet

H2H_COLUMNS = [
    ResultColumn("结果", "choice", ("甲方胜", "乙方胜", "和棋", "甲方弃权", "乙方弃权"), help="选择本局结果"),
    ResultColumn("胜负原因", "choice", ("将死", "认输", "超时"), required=False),
    ResultColumn("备注", "text", help="其他情况"),
]


def _round(matches, **kw) -> Round:
    base = dict(event="xiangqi", stage="ko1", stage_name="淘汰赛第一轮", round=1, matches=tuple(matches),
                input_hash="abc123")
    base.update(kw)
    return Round(**base)


def _labels(ws, row):
    return [c.value for c in ws[row] if c.value is not None]


@pytest.fixture
def h2h(tournament, tmp_path):
    ev = tournament.spec.event("xiangqi")
    rnd = _round([Match("xiangqi", "ko1", 1, "", 1, ("e1", "e2")),
                  Match("xiangqi", "ko1", 1, "", 2, ("e3", "e4")),
                  Match("xiangqi", "ko1", 1, "", 3, ("e5",), bye=True)])
    labels = {"e1": "张三（行政一）", "e2": "=HYPERLINK(\"http://evil\",\"x\")", "e3": "王五", "e4": "赵六",
              "e5": "钱七"}
    path = write_result_sheet(tmp_path / "r1.xlsx", tournament=tournament, event=ev, rnd=rnd,
                              columns=H2H_COLUMNS, label_of=labels, session_label="2020年11月10日 16:00—18:00")
    return load_workbook(path)


def test_sheet_header_and_meta(h2h):
    assert h2h.sheetnames == [layout.RESULT_SHEET, layout.META_SHEET]
    meta = read_meta(h2h)
    assert meta[layout.META_KIND] == layout.KIND_RESULT
    assert (meta[layout.META_TOURNAMENT], meta[layout.META_EVENT], meta[layout.META_STAGE],
            meta[layout.META_ROUND], meta[layout.META_DRAW_HASH]) == ("t-test", "xiangqi", "ko1", 1, "abc123")
    assert h2h[layout.META_SHEET].sheet_state == "veryHidden"
    ws = h2h[layout.RESULT_SHEET]
    hdr = meta["header_row"]
    assert _labels(ws, hdr) == ["轮次", "组别", "桌号", "甲方", "乙方", "结果", "胜负原因", "备注",
                                "甲方签名", "乙方签名", "裁判签名"]
    title = " ".join(str(ws.cell(r, 1).value) for r in range(1, hdr))
    for needle in ("第四届教职工棋牌联赛", "象棋", "淘汰赛第一轮", "2020年11月10日 16:00—18:00"):
        assert needle in title


def test_rows_locking_and_byes(h2h):
    ws = h2h[layout.RESULT_SHEET]
    hdr = read_meta(h2h)["header_row"]
    r1, r2, bye = hdr + 1, hdr + 2, hdr + 3
    assert [ws.cell(r1, c).value for c in range(1, 6)] == [1, None, 1, "张三（行政一）", '=HYPERLINK("http://evil","x")']
    assert ws.cell(r1, 5).data_type == "s"                       # formula injection neutralised
    assert ws.cell(bye, 4).value == "钱七" and ws.cell(bye, 5).value == "轮空"
    for c in range(1, 6):
        assert ws.cell(r1, c).protection.locked
    for c in range(6, 12):
        assert not ws.cell(r1, c).protection.locked
        assert not ws.cell(r2, c).protection.locked
        assert ws.cell(bye, c).protection.locked                # bye: nothing to fill
    assert ws.protection.sheet
    assert ws.freeze_panes == f"D{hdr + 1}"


def test_validations(h2h):
    ws = h2h[layout.RESULT_SHEET]
    hdr = read_meta(h2h)["header_row"]
    by_col = {str(dv.sqref).split(":")[0].rstrip("0123456789"): dv for dv in ws.data_validations.dataValidation}
    assert by_col["F"].type == "list" and by_col["F"].formula1 == '"甲方胜,乙方胜,和棋,甲方弃权,乙方弃权"'
    assert str(by_col["F"].sqref) == f"F{hdr + 1}:F{hdr + 3}"
    assert by_col["G"].formula1 == '"将死,认输,超时"'
    assert by_col["H"].type is None and by_col["H"].prompt == "其他情况"


def test_print_setup(h2h):
    ws = h2h[layout.RESULT_SHEET]
    hdr = read_meta(h2h)["header_row"]
    assert ws.page_setup.orientation == "landscape"
    assert int(ws.page_setup.paperSize) == 9
    assert ws.print_title_rows == f"${hdr}:${hdr}"
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_options.gridLines and ws.print_area == f"'成绩'!$A$1:$K${hdr + 3}"
    assert ws.oddFooter.center.text == "第 &P 页 / 共 &N 页"
    assert h2h.security.lockStructure                            # sheets cannot be added or unhidden


def test_int_columns_and_three_seats(tournament, tmp_path):
    ev = tournament.spec.event("go")
    cols = [ResultColumn(l, "int", min=-200, max=200) for l in ("甲得分", "乙得分", "丙得分")]
    cols.append(ResultColumn("名次", "int", min=1))
    rnd = _round([Match("go", "t3", 2, "A", 1, ("a", "b", "c"))], stage="t3", stage_name="第二轮", round=2)
    wb = load_workbook(write_result_sheet(tmp_path / "r.xlsx", tournament=tournament, event=ev, rnd=rnd,
                                          columns=cols, label_of={}, seats=3))
    ws = wb[layout.RESULT_SHEET]
    hdr = read_meta(wb)["header_row"]
    assert read_meta(wb)["seats"] == 3
    assert _labels(ws, hdr) == ["轮次", "组别", "桌号", "甲", "乙", "丙", "甲得分", "乙得分", "丙得分", "名次",
                                "甲签名", "乙签名", "丙签名", "裁判签名"]
    assert [ws.cell(hdr + 1, c).value for c in range(1, 7)] == [2, "A", 1, "a", "b", "c"]
    dvs = {str(dv.sqref)[0]: dv for dv in ws.data_validations.dataValidation}
    # "between" is the file format's default operator (a writer may leave it out)
    assert (dvs["G"].type, dvs["G"].operator or "between", dvs["G"].formula1, dvs["G"].formula2) == \
        ("whole", "between", "-200", "200")
    assert (dvs["J"].operator, dvs["J"].formula1) == ("greaterThanOrEqual", "1")


def test_bridge_rows_per_board(tournament, tmp_path):
    ev = tournament.spec.event("go")
    cols = [ResultColumn("牌号", "int", min=1), ResultColumn("南北得分", "int", min=-7600, max=7600)]
    rnd = _round([Match("bridge", "rr", 2, "", 1, ("p1", "p2")), Match("bridge", "rr", 2, "", 2, ("p3", "p4"))],
                 round=2, plan={"boards": [4, 5, 6]})
    wb = load_workbook(write_result_sheet(tmp_path / "b.xlsx", tournament=tournament, event=ev, rnd=rnd,
                                          columns=cols, label_of={}))
    ws = wb[layout.RESULT_SHEET]
    hdr = read_meta(wb)["header_row"]
    rows = [[c.value for c in r[:7]] for r in ws.iter_rows(min_row=hdr + 1, max_row=hdr + 6)]
    assert [(r[2], r[5]) for r in rows] == [(1, 4), (1, 5), (1, 6), (2, 4), (2, 5), (2, 6)]
    assert all(r[0] == 2 for r in rows)
    assert ws.cell(hdr + 1, 6).protection.locked               # 牌号 pre-filled
    assert not ws.cell(hdr + 1, 7).protection.locked           # 南北得分 to fill
    assert ws.cell(hdr + 7, 1).value is None


def test_detail_sheet(tournament, tmp_path):
    ev = tournament.spec.event("xiangqi")
    detail = DetailSheet("牌局明细", (ResultColumn("局号", "int", min=1), ResultColumn("地主", "choice", ("甲", "乙", "丙")),
                                    ResultColumn("炸弹数", "int", min=0, max=20)))
    rnd = _round([Match("d", "t3", 1, "", 1, ("a", "b", "c")), Match("d", "t3", 1, "", 2, ("d", "e", "f")),
                  Match("d", "t3", 1, "", 3, ("g",), bye=True)])
    wb = load_workbook(write_result_sheet(tmp_path / "d.xlsx", tournament=tournament, event=ev, rnd=rnd,
                                          columns=[ResultColumn("甲得分")], label_of={}, detail=detail, seats=3,
                                          detail_rows=5))
    assert wb.sheetnames == [layout.RESULT_SHEET, "牌局明细", layout.META_SHEET]
    assert read_meta(wb)["detail_sheet"] == "牌局明细"
    ws = wb["牌局明细"]
    hdr = next(r for r in range(1, 10) if ws.cell(r, 1).value == "轮次")
    assert _labels(ws, hdr) == ["轮次", "组别", "桌号", "局号", "地主", "炸弹数"]
    rows = [[c.value for c in r[:5]] for r in ws.iter_rows(min_row=hdr + 1, max_row=hdr + 11)]
    assert [r[2] for r in rows[:10]] == [1] * 5 + [2] * 5      # 5 rows per table, no bye table
    assert [r[3] for r in rows[:5]] == [1, 2, 3, 4, 5]
    assert rows[10] == [None] * 5
    # blank input cells are unlocked by their column's style (keys stay locked cell by cell)
    # (a writer may give neighbouring columns one <col min max> entry: find the one holding E)
    col_e = next(d for d in ws.column_dimensions.values() if d.min <= 5 <= d.max and d.customWidth)
    assert not col_e.protection.locked and ws.cell(hdr + 1, 3).protection.locked
    assert not ws.cell(hdr + 1, 4).protection.locked            # 局号 pre-filled but editable
    assert ws.protection.sheet
    dvs = {str(dv.sqref)[0]: dv for dv in ws.data_validations.dataValidation}
    assert dvs["E"].formula1 == '"甲,乙,丙"'


def test_traditional_titles_and_choices(tmp_path):
    from xlsx_fixtures import make_tournament
    t = make_tournament(tmp_path, script="traditional")
    rnd = _round([Match("xiangqi", "ko1", 1, "", 1, ("e1", "e2"))])
    wb = load_workbook(write_result_sheet(tmp_path / "t.xlsx", tournament=t, event=t.spec.event("xiangqi"),
                                          rnd=rnd, columns=H2H_COLUMNS, label_of={}))
    ws = wb[layout.RESULT_SHEET]
    hdr = read_meta(wb)["header_row"]
    assert _labels(ws, hdr)[:5] == ["轮次", "组别", "桌号", "甲方", "乙方"]   # matched labels unconverted
    assert ws["A1"].value == "第四屆教職工棋牌聯賽"
    dv = next(dv for dv in ws.data_validations.dataValidation if str(dv.sqref).startswith("F"))
    assert dv.formula1 == '"甲方勝,乙方勝,和棋,甲方棄權,乙方棄權"'


def test_traditional_detail_sheet_title_is_one_script(tmp_path):
    """The 明细 sheet's title read 双扣 瑞士制第5輪 明細 (the event's name unconverted)."""
    from xlsx_fixtures import make_tournament
    from pipeline.games import GAMES
    import pipeline.games.shuangsheng  # noqa: F401 - registers the game

    t = make_tournament(tmp_path, script="traditional")
    game = GAMES.get("shuangsheng")
    ev = t.spec.event("shuangsheng")
    rnd = _round([Match("shuangsheng", "ko1", 1, "", 1, ("e1", "e2"))])
    detail = game.detail(ev.game_options)
    wb = load_workbook(write_result_sheet(tmp_path / "d.xlsx", tournament=t, event=ev, rnd=rnd,
                                          columns=game.columns(ev.game_options), label_of={}, detail=detail))
    title = wb.worksheets[1]["A1"].value
    assert title.startswith("雙升 ") and "明細" in title, title


def test_long_choice_list_uses_hidden_list_sheet(tournament, tmp_path):
    many = tuple(f"选项{i:03d}" for i in range(80))
    rnd = _round([Match("xiangqi", "ko1", 1, "", 1, ("e1", "e2"))])
    wb = load_workbook(write_result_sheet(tmp_path / "l.xlsx", tournament=tournament,
                                          event=tournament.spec.event("xiangqi"), rnd=rnd,
                                          columns=[ResultColumn("结果", "choice", many),
                                                   ResultColumn("原因", "choice", ("a,b", "c"))], label_of={}))
    dvs = [dv for dv in wb[layout.RESULT_SHEET].data_validations.dataValidation if dv.type == "list"]
    assert [dv.formula1 for dv in dvs] == ["'_lists'!$A$1:$A$80", "'_lists'!$B$1:$B$2"]  # long; has a comma
    assert wb["_lists"].sheet_state == "veryHidden"
    assert [wb["_lists"].cell(i, 1).value for i in (1, 80)] == ["选项000", "选项079"]
    assert [wb["_lists"].cell(i, 2).value for i in (1, 2)] == ["a,b", "c"]


def test_with_real_games(tournament, tmp_path):
    """The registered games' columns (another module) write and validate."""
    games = pytest.importorskip("pipeline.games")
    import importlib
    for mod in ("xiangqi", "bridge", "doudizhu", "shuangsheng", "guandan"):
        importlib.import_module(f"pipeline.games.{mod}")
    rnd = _round([Match("x", "s", 1, "", 1, ("a", "b")), Match("x", "s", 1, "", 2, ("c", "d"))],
                 plan={"boards": [1, 2]})
    for name in ("xiangqi", "bridge", "doudizhu", "shuangsheng", "guandan"):
        game = games.GAMES.get(name)
        path = write_result_sheet(tmp_path / f"{name}.xlsx", tournament=tournament,
                                  event=tournament.spec.event("xiangqi"), rnd=rnd, columns=game.columns({}),
                                  label_of={}, detail=game.detail({}), seats=game.seats)
        wb = load_workbook(path)
        hdr = read_meta(wb)["header_row"]
        labels = _labels(wb[layout.RESULT_SHEET], hdr)
        assert [c.label for c in game.columns({})] == labels[3 + game.seats: 3 + game.seats + len(game.columns({}))]
        detail = game.detail({})
        assert (detail is not None) == (len(wb.sheetnames) == 3), (name, wb.sheetnames)


def test_R2016_C1_guandan_sheet_has_its_deal_by_deal_detail(tournament, tmp_path):
    """掼蛋's workbook has 明细 (one row per deal): 头游方 and 头游对家名次 as dropdowns, 局号 pre-numbered."""
    from pipeline.games import GAMES
    game = GAMES.get("guandan")
    rnd = _round([Match("x", "s", 1, "", 1, ("a", "b")), Match("x", "s", 1, "", 2, ("c", "d"))])
    wb = load_workbook(write_result_sheet(tmp_path / "g.xlsx", tournament=tournament,
                                          event=tournament.spec.event("xiangqi"), rnd=rnd, columns=game.columns({}),
                                          label_of={}, detail=game.detail({}), seats=2, detail_rows=4))
    assert wb.sheetnames == [layout.RESULT_SHEET, "明细", layout.META_SHEET]
    assert read_meta(wb)["detail_sheet"] == "明细"
    ws = wb["明细"]
    hdr = next(r for r in range(1, 10) if ws.cell(r, 1).value == "轮次")
    assert _labels(ws, hdr) == ["轮次", "组别", "桌号", "局号", "头游方", "头游对家名次"]
    assert [ws.cell(hdr + i, 4).value for i in range(1, 9)] == [1, 2, 3, 4] * 2
    dvs = {str(dv.sqref)[0]: dv.formula1 for dv in ws.data_validations.dataValidation if dv.type == "list"}
    assert dvs == {"E": '"甲,乙"', "F": '"二游,三游,末游"'}


def test_same_round_same_bytes(tournament, tmp_path):
    """An unchanged result workbook is byte-identical from run to run (so it is not rewritten)."""
    rnd = _round([Match("xiangqi", "ko1", 1, "", 1, ("e1", "e2"))])
    kw = dict(tournament=tournament, event=tournament.spec.event("xiangqi"), rnd=rnd, columns=H2H_COLUMNS,
              label_of={"e1": "甲", "e2": "乙"})
    a = write_result_sheet(tmp_path / "a.xlsx", **kw).read_bytes()
    b = write_result_sheet(tmp_path / "b.xlsx", **kw).read_bytes()
    assert a == b and load_workbook(tmp_path / "a.xlsx").security.lockStructure


def test_a_rounds_notes_read_as_sentences_on_the_sheet():
    """“…2队。；第B组…” on the 掼蛋 sheet: each note keeps its own full stop, no “。；”."""
    from pipeline.xlsx.results import joined_notes

    got = joined_notes(["第A组为单数，抽签由 甲 进入桌数较少的第B组。", "人数为奇数，乙 本轮轮空", " "])
    assert got == "第A组为单数，抽签由 甲 进入桌数较少的第B组。人数为奇数，乙 本轮轮空。"
    assert "。；" not in got


def test_fast_cells_write_what_xlsxwriter_writes(tournament, tmp_path, monkeypatch):
    """pipeline.xlsx.fast._Worksheet writes a styled string, number or blank in one step: the
    workbook is byte for byte what XlsxWriter's own cell writer makes (a result sheet with
    every kind: titles, numbers, bye rows, a detail sheet, dropdown lists)."""
    from pipeline.games import GAMES
    from pipeline.xlsx import fast

    game = GAMES.get("guandan")
    rnd = _round([Match("x", "s", 1, "A", t, (f"e{2 * t}", f"e{2 * t + 1}")) for t in range(1, 40)]
                 + [Match("x", "s", 1, "A", 40, ("e99",), bye=True)])
    labels = {f"e{i}": f"选手{i}" for i in range(100)} | {"e3": "=1+2", "e4": "-负数"}

    def made(name):
        return write_result_sheet(tmp_path / name, tournament=tournament, event=tournament.spec.event("xiangqi"),
                                  rnd=rnd, columns=game.columns({}), label_of=labels, detail=game.detail({}),
                                  seats=game.seats, session_label="2016年11月26日").read_bytes()
    import xlsxwriter.worksheet

    calls = [0]
    own = xlsxwriter.worksheet.Worksheet._write_cell

    def counted(self, row, col, cell):
        calls[0] += 1
        own(self, row, col, cell)
    monkeypatch.setattr(xlsxwriter.worksheet.Worksheet, "_write_cell", counted)
    fast_bytes = made("fast.xlsx")
    by_xlsxwriter = calls[0]
    monkeypatch.setattr(fast, "_FAST_CELLS", frozenset())      # every cell by XlsxWriter's writer
    assert made("plain.xlsx") == fast_bytes
    assert calls[0] - by_xlsxwriter > 10 * max(1, by_xlsxwriter), (by_xlsxwriter, calls[0])   # the fast path wrote most


def test_a_withdrawn_side_is_marked_on_the_result_workbook(tmp_path):
    """Handbook 缺席、弃权和退赛: a withdrawn entry's table still on the sheet says it withdrew
    and which 弃权 to choose, in the tournament's script (the side's name as printed, then
    （已退賽）; a line above the table)."""
    from xlsx_fixtures import make_tournament
    t = make_tournament(tmp_path, script="traditional")
    rnd = _round([Match("xiangqi", "ko1", 1, "", 1, ("e1", "e2")), Match("xiangqi", "ko1", 1, "", 2, ("e3", "e4"))])
    wb = load_workbook(write_result_sheet(tmp_path / "t.xlsx", tournament=t, event=t.spec.event("xiangqi"),
                                          rnd=rnd, columns=H2H_COLUMNS, label_of={"e2": "王著（行政一）"},
                                          withdrawn={"e2"}))
    ws = wb[layout.RESULT_SHEET]
    hdr = read_meta(wb)["header_row"]
    assert [ws.cell(hdr + 1, c).value for c in (4, 5)] == ["e1", "王著（行政一）（已退賽）"]
    assert [ws.cell(hdr + 2, c).value for c in (4, 5)] == ["e3", "e4"]
    title = [str(ws.cell(r, 1).value) for r in range(1, hdr)]
    assert any("第1桌乙方" in x and "王著（行政一）" in x and "已退賽" in x and "“乙方棄權”" in x for x in title), title


def _title_rows_fit(ws) -> list[str]:
    """The merged title lines whose row is shorter than their text needs: lines estimated as a
    reader's eye would (CJK characters two units, against the merged columns' width), at least
    15 pt each (an 11-pt line).  Excel does not auto-fit a merged cell's row."""
    import math
    import unicodedata

    width = {}
    for d in ws.column_dimensions.values():
        for c in range(d.min, d.max + 1):
            width[c] = d.width
    short = []
    for mr in ws.merged_cells.ranges:
        if mr.min_row != mr.max_row or mr.min_row == 1:
            continue
        text = ws.cell(mr.min_row, mr.min_col).value
        w = sum(width.get(i, 8.43) for i in range(mr.min_col, mr.max_col + 1))
        units = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
        lines = math.ceil(units / w)
        height = ws.row_dimensions[mr.min_row].height or 15
        if height < 15 * lines:
            short.append(f"row {mr.min_row}: {height}pt for {lines} lines: {text[:30]}")
    return short


def test_long_draw_notes_and_the_detail_instruction_are_not_clipped(tournament, tmp_path):
    """The draw notes under the title (byes, regrouping, rematch avoidance, 已退赛) and the
    detail sheet's instruction line had a fixed 20-pt row: one line shown, the rest clipped."""
    ev = tournament.spec.event("xiangqi")
    notes = ["人数为奇数，排名最后且未轮空过的尹佳本轮轮空",
             "任琪芳与闫璐已在第3轮相遇，为避免重复对阵，改为任琪芳对姚明伟、闫璐对陶俊健",
             "高杰军与肖超已在第2轮相遇，为避免重复对阵，改为高杰军对田旭、肖超对苏静桂",
             "杜健与龙英已在第1轮相遇，为避免重复对阵，改为杜健对许桂刚、龙英对曾帅超"]
    detail = DetailSheet("牌局明细", (ResultColumn("局号", "int", min=1), ResultColumn("地主", "choice", ("甲", "乙", "丙"))))
    rnd = _round([Match("d", "t3", 1, "", 1, ("a", "b", "c")), Match("d", "t3", 1, "", 2, ("d", "e", "f"))],
                 notes=tuple(notes))
    wb = load_workbook(write_result_sheet(tmp_path / "n.xlsx", tournament=tournament, event=ev, rnd=rnd,
                                          columns=[ResultColumn("甲得分")], label_of={}, detail=detail, seats=3,
                                          detail_rows=5))
    assert _title_rows_fit(wb[layout.RESULT_SHEET]) == []
    assert _title_rows_fit(wb["牌局明细"]) == []
    # a short line keeps its one-line row
    hdr = read_meta(wb)["header_row"]
    assert wb[layout.RESULT_SHEET].row_dimensions[2].height < 21
    assert hdr == 7
