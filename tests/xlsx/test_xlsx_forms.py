"""Organisers' workbooks: awards (R2015-A1), check-in (R2016-F2), playoff (R2011-F1)."""
from __future__ import annotations

from openpyxl import load_workbook

from pipeline import layout
from pipeline.xlsx import PlayoffTie, read_meta, write_awards_form, write_checkin_form, write_playoff_form


def _dvs(ws):
    return {str(dv.sqref).split(":")[0].rstrip("0123456789"): dv for dv in ws.data_validations.dataValidation}


def test_R2015_A1_awards_form(tournament, tmp_path):
    wb = load_workbook(write_awards_form(tournament, tmp_path / "awards.xlsx"))
    assert wb.sheetnames == [layout.AWARDS_SHEET, layout.META_SHEET]
    meta = read_meta(wb)
    assert meta[layout.META_KIND] == layout.KIND_AWARDS and meta[layout.META_TOURNAMENT] == "t-test"
    ws = wb[layout.AWARDS_SHEET]
    hdr = meta["header_row"]
    assert [c.value for c in ws[hdr]] == layout.AWARDS_COLUMNS
    dvs = _dvs(ws)
    assert dvs["A"].formula1 == '"风尚奖,潜力选手奖,优胜奖,组织奖"'
    assert dvs["B"].formula1 == '"象棋,双升,双扣,掼蛋,围棋"'
    assert dvs["E"].formula1 == '"行政第一分工会,理学院/化学分工会"'
    assert not ws.cell(hdr + 1, 1).protection.locked
    assert ws.protection.sheet and ws.freeze_panes == f"A{hdr + 1}"
    assert wb[layout.META_SHEET].sheet_state == "veryHidden"


def test_R2015_A1_awards_form_says_nothing_of_a_unit_award_the_league_has_not(tmp_path):
    """No ``branch_award``: the form offered 组织奖 (按单位颁发的奖项（组织奖）只填“单位”) and
    the run took it; now only what is configured is said."""
    from xlsx_fixtures import make_tournament

    def said(t):
        wb = load_workbook(write_awards_form(t, tmp_path / f"{id(t)}.xlsx"))
        ws = wb[layout.AWARDS_SHEET]
        return " ".join(str(c.value) for row in ws.iter_rows(max_row=read_meta(wb)["header_row"] - 1)
                        for c in row if c.value), _dvs(ws)

    text, dvs = said(make_tournament(tmp_path, branch_award=""))
    assert "组织奖" not in text and "按单位颁发" not in text and "每行一个获奖者" in text
    assert dvs["A"].formula1 == '"风尚奖,潜力选手奖,优胜奖"' and "单位奖项" not in (dvs["B"].prompt or "")
    text, dvs = said(make_tournament(tmp_path, branch_award="优秀组织奖"))
    assert "按单位颁发的奖项（优秀组织奖）只填“单位”" in text and "单位奖项可不填" in dvs["B"].prompt


def test_R2016_F2_checkin_form(tournament, tmp_path):
    ev = tournament.spec.event("guandan")
    groups = {"A": [("张三", "1001"), ("=cmd", "")], "B": [("王五", "1003")]}
    wb = load_workbook(write_checkin_form(tournament, ev, groups, tmp_path / "checkin.xlsx"))
    assert wb.sheetnames == [layout.CHECKIN_SHEET, layout.META_SHEET]
    meta = read_meta(wb)
    assert (meta[layout.META_KIND], meta[layout.META_EVENT]) == (layout.KIND_CHECKIN, "guandan")
    ws = wb[layout.CHECKIN_SHEET]
    hdr = meta["header_row"]
    # the reader's columns, and (shown only) the unit in the league's word and the team
    assert [c.value for c in ws[hdr]] == ["项目", "组别", "分工会", "队名", "姓名", "工号", "到场"]
    assert set(layout.CHECKIN_COLUMNS) <= {c.value for c in ws[hdr]}
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=hdr + 1, max_row=hdr + 3)]
    assert rows == [["掼蛋", "A", None, None, "张三", "1001", None], ["掼蛋", "A", None, None, "=cmd", None, None],
                    ["掼蛋", "B", None, None, "王五", "1003", None]]
    assert ws.cell(hdr + 2, 5).data_type == "s"
    assert ws.cell(hdr + 1, 5).protection.locked and not ws.cell(hdr + 1, 7).protection.locked
    dv = _dvs(ws)["G"]
    assert dv.formula1 == '"是,否"' and str(dv.sqref) == f"G{hdr + 1}:G{hdr + 3}"
    # rows with the unit and team (pipeline.run.checkin_rows); the record is of the players only
    path = write_checkin_form(tournament, ev, {"A": [("张三", "1001", "行政第一分工会", "行政一1队")]},
                              tmp_path / "c2.xlsx")
    wb = load_workbook(path)
    assert [c.value for c in wb[layout.CHECKIN_SHEET][hdr + 1]] == ["掼蛋", "A", "行政第一分工会", "行政一1队", "张三",
                                                                   "1001", None]
    assert read_meta(wb)[layout.META_CHECKIN_PLAYERS] == '[["A",[["张三","1001"]]]]'


def test_R2011_F1_playoff_form(tournament, tmp_path):
    ev = tournament.spec.event("xiangqi")
    ties = [PlayoffTie("groups", "A", ("张三", "李四")), PlayoffTie("groups", "C", ("甲", "乙", "丙"))]
    wb = load_workbook(write_playoff_form(tournament, ev, ties, tmp_path / "playoff.xlsx"))
    assert wb.sheetnames == [layout.PLAYOFF_SHEET, layout.META_SHEET]
    meta = read_meta(wb)
    assert (meta[layout.META_KIND], meta[layout.META_EVENT]) == (layout.KIND_PLAYOFF, "xiangqi")
    ws = wb[layout.PLAYOFF_SHEET]
    hdr = meta["header_row"]
    assert [c.value for c in ws[hdr]] == [*layout.PLAYOFF_COLUMNS, layout.PLAYOFF_NOTE]
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=hdr + 1, max_row=hdr + 5)]
    assert [r[2] for r in rows] == ["A", "A", "C", "C", "C"]
    assert [r[4] for r in rows] == ["张三", "李四", "甲", "乙", "丙"]
    dvs = sorted(ws.data_validations.dataValidation, key=lambda d: str(d.sqref))
    assert [(str(d.sqref), d.formula1, d.formula2) for d in dvs] == [
        (f"D{hdr + 1}:D{hdr + 2}", "1", "2"), (f"D{hdr + 3}:D{hdr + 5}", "1", "3")]
    assert not ws.cell(hdr + 1, 4).protection.locked and ws.cell(hdr + 1, 5).protection.locked


def test_a_playoff_form_of_two_ties_labels_each_and_refuses_a_place_beyond_its_tie(tournament, tmp_path):
    """Two final-places ties on one form (2 level at 3rd, 3 at 6th): every row said 最终名次 with a
    blank 组别, the ties told apart only by the hidden validations, and a referee who numbered
    1 … 5 straight down had the 4 and 5 of the three-player tie taken without a word.  The form
    now names each row's tie (说明) and parts the ties by a heavier line; the reader refuses a
    名次 beyond its tie, at its cell, naming the tie and the 名次 allowed."""
    from pipeline.ingest.sheets import read_playoffs
    from pipeline.ingest.workbook import read_workbook
    from pipeline.model import Entry, Person

    ev = tournament.spec.event("xiangqi")
    names = ("张三", "李四", "甲", "乙", "丙")
    entries = [Entry(id=f"xiangqi:b1:{n}", event="xiangqi", branch="b1", team=n, players=(Person(name=n, branch="b1"),))
               for n in names]
    path = tmp_path / "playoff.xlsx"
    write_playoff_form(tournament, ev, [PlayoffTie(layout.FINAL_PLACES, "", names[:2], "第3名并列（二等奖/三等奖）"),
                                        PlayoffTie(layout.FINAL_PLACES, "", names[2:], "第6名并列（三等奖/优胜奖）")], path)
    wb = load_workbook(path)
    hdr = read_meta(wb)["header_row"]
    ws = wb[layout.PLAYOFF_SHEET]
    assert [ws.cell(hdr, c).value for c in range(1, 7)] == [*layout.PLAYOFF_COLUMNS, "说明"]
    assert [ws.cell(hdr + i, 6).value for i in range(1, 6)] == ["加赛1：第3名并列（二等奖/三等奖），2人，名次填 1–2"] * 2 + [
        "加赛2：第6名并列（三等奖/优胜奖），3人，名次填 1–3"] * 3
    assert ws.cell(hdr + 3, 1).border.top.style == "medium" and ws.cell(hdr + 2, 1).border.top.style != "medium"
    assert ws.cell(hdr + 1, 6).protection.locked and "每组各自从 1 填起" in str(ws.cell(2, 1).value)
    for i in range(1, 6):           # 1 … 5 straight down both ties
        ws.cell(hdr + i, 4).value = i
    wb.save(path)
    orders, problems = read_playoffs(read_workbook(path), "playoff.xlsx", "xiangqi", ev.name, entries)
    assert [(p.code, p.sheet, p.cell) for p in problems] == [("BAD_VALUE", "加赛", f"D{hdr + 4}"),
                                                             ("BAD_VALUE", "加赛", f"D{hdr + 5}")]
    assert "加赛2" in problems[0].message and "1–3" in problems[0].message and "甲、乙、丙" in problems[0].message
    assert all(n not in o.order for o in orders for n in ("xiangqi:b1:乙", "xiangqi:b1:丙"))
    # each tie numbered from 1: no problem
    for i, place in enumerate((2, 1, 1, 3, 2), start=1):
        ws.cell(hdr + i, 4).value = place
    wb.save(path)
    (po,), problems = read_playoffs(read_workbook(path), "playoff.xlsx", "xiangqi", ev.name, entries)
    assert problems == [] and po.settles({f"xiangqi:b1:{n}" for n in names[2:]})


def test_R2011_F1_playoff_form_prints_stage_names_and_reads_back_their_codes(tournament, tmp_path):
    """阶段 printed "group" and "ko" (the stages' codes) on the form referees fill; now 小组赛 and
    淘汰赛, the codes kept in _meta, so the orders read back are for those stages."""
    from pipeline.ingest.sheets import read_playoffs
    from pipeline.ingest.workbook import read_workbook
    from pipeline.model import Entry, Person

    ev = tournament.spec.event("xiangqi")
    names = ("张三", "李四", "甲", "乙")
    entries = [Entry(id=f"xiangqi:b1:{n}", event="xiangqi", branch="b1", team=n, players=(Person(name=n, branch="b1"),))
               for n in names]
    path = tmp_path / "playoff.xlsx"
    write_playoff_form(tournament, ev, [PlayoffTie("group", "A", ("张三", "李四")), PlayoffTie("ko", "", ("甲", "乙"))], path)
    wb = load_workbook(path)
    hdr = read_meta(wb)["header_row"]
    ws = wb[layout.PLAYOFF_SHEET]
    assert [ws.cell(hdr + i, 2).value for i in range(1, 5)] == ["小组赛", "小组赛", "淘汰赛", "淘汰赛"]
    assert "淘汰赛对局未分胜负" in str(ws.cell(2, 1).value) or any(
        "淘汰赛对局未分胜负" in str(c.value) for row in ws.iter_rows(max_row=hdr) for c in row)
    for i, place in enumerate((2, 1, 1, 2), start=1):
        ws.cell(hdr + i, 4).value = place
    wb.save(path)
    orders, problems = read_playoffs(read_workbook(path), "playoff.xlsx", "xiangqi", ev.name, entries)
    assert not problems
    assert sorted((o.stage, o.group, o.order) for o in orders) == [
        ("group", "A", ("xiangqi:b1:李四", "xiangqi:b1:张三")), ("ko", "", ("xiangqi:b1:甲", "xiangqi:b1:乙"))]


def test_R2011_D2_playoff_form_says_its_round(tournament, tmp_path):
    """The 加赛 form records the round it was issued at, and the reading gives it to each
    order: a playoff settles that round's tie, not the same players level again later."""
    from pipeline.ingest.sheets import read_playoffs
    from pipeline.ingest.workbook import read_workbook
    from pipeline.model import Entry, Person

    ev = tournament.spec.event("xiangqi")
    entries = [Entry(id=f"xiangqi:b1:{n}", event="xiangqi", branch="b1", team=n, players=(Person(name=n, branch="b1"),))
               for n in ("张三", "李四")]
    path = tmp_path / "playoff.xlsx"
    write_playoff_form(tournament, ev, [PlayoffTie("tables", "", ("张三", "李四"))], path, round_no=2)
    wb = load_workbook(path)
    assert read_meta(wb)[layout.META_ROUND] == 2
    ws = wb[layout.PLAYOFF_SHEET]
    hdr = read_meta(wb)["header_row"]
    ws.cell(hdr + 1, 4).value, ws.cell(hdr + 2, 4).value = 2, 1
    wb.save(path)
    (po,), problems = read_playoffs(read_workbook(path), "playoff.xlsx", "xiangqi", ev.name, entries)
    assert not problems and po.round == 2 and po.order == ("xiangqi:b1:李四", "xiangqi:b1:张三")
    write_playoff_form(tournament, ev, [PlayoffTie("tables", "", ("张三", "李四"))], path)
    assert layout.META_ROUND not in read_meta(load_workbook(path))


def test_traditional_form_titles_are_one_script(tmp_path):
    """A Traditional league's 加赛表 and 签到表 titles read 2015年教職工棋牌比賽 桥牌 加賽結果
    (the event's name unconverted); the rows keep the spec's names, as the reader matches."""
    from xlsx_fixtures import make_tournament

    t = make_tournament(tmp_path, script="traditional")
    ev = t.spec.event("shuangsheng")
    ws = load_workbook(write_playoff_form(t, ev, [PlayoffTie("groups", "A", ("甲", "乙"))], tmp_path / "p.xlsx")).active
    assert ws["A1"].value.endswith("雙升 加賽結果"), ws["A1"].value
    ws = load_workbook(write_checkin_form(t, ev, {"A": [("甲", "1")]}, tmp_path / "c.xlsx")).active
    assert ws["A1"].value.endswith("雙升 簽到表"), ws["A1"].value


def test_traditional_checkin_form_header_is_one_script(tmp_path):
    """A Traditional league's 签到表 header is written as every generated sheet's header is
    (the layout's labels, as the readers match them): the unit column 分工会 among 项目、组别、
    队名 — not 分工會 among simplified labels."""
    from xlsx_fixtures import make_tournament

    t = make_tournament(tmp_path, script="traditional")
    ev = t.spec.event("shuangsheng")
    wb = load_workbook(write_checkin_form(t, ev, {"A": [("甲", "1")]}, tmp_path / "c.xlsx"))
    hdr = read_meta(wb)["header_row"]
    assert [c.value for c in wb[layout.CHECKIN_SHEET][hdr]] == ["项目", "组别", "分工会", "队名", "姓名", "工号", "到场"]
