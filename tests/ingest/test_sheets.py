"""The organisers' sheets: 加赛 (playoff) orders."""
from __future__ import annotations

from pipeline.ingest.sheets import read_playoffs
from pipeline.ingest.workbook import Book, Sheet
from pipeline.model import Entry, Person


def _book(rows):
    return Book(name="加赛.xlsx", sheets={"加赛": Sheet("加赛", rows=[["项目", "阶段", "组别", "名次", "参赛者"], *rows])})


ENTRIES = [Entry(f"xq:{n}", "xiangqi", "b1", n, (Person(n, "b1"),)) for n in ("苏旭凯", "黎玉静", "王军")]


def test_a_playoff_order_is_read_by_group():
    orders, problems = read_playoffs(_book([["象棋", "", "C", 2, "苏旭凯"], ["象棋", "", "C", 1, "黎玉静"]]),
                                     "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert problems == [] and [o.order for o in orders] == [("xq:黎玉静", "xq:苏旭凯")]


def test_a_traditional_event_name_is_this_event():
    """A Traditional tournament's sheets say 圍棋 / 象棋; the spec says 围棋: the rows were
    skipped as another event's."""
    from pipeline.ingest.sheets import same_event

    assert same_event("圍棋", "go", "围棋") and same_event(" 中國象棋 ", "xiangqi", "中国象棋")
    assert not same_event("掼蛋", "guandan", "扑克牌")
    orders, _ = read_playoffs(_book([["象 棋", "", "C", 1, "王军"]]), "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert [o.order for o in orders] == [("xq:王军",)]


def test_a_playoff_not_played_yet_is_no_error():
    """A 加赛表 sent with group C's playoff filled and group D's still blank: D is not yet
    played (it was BAD_VALUE “None”不是数字, kept every night after)."""
    orders, problems = read_playoffs(_book([["象棋", "", "C", 1, "苏旭凯"], ["象棋", "", "C", 2, "黎玉静"],
                                            ["象棋", "", "D", None, "王军"], ["象棋", "", "D", " ", "王军"]]),
                                     "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert problems == [] and [(o.group, o.order) for o in orders] == [("C", ("xq:苏旭凯", "xq:黎玉静"))]
    _, problems = read_playoffs(_book([["象棋", "", "C", "第一", "苏旭凯"]]), "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert [p.code for p in problems] == ["BAD_VALUE"]


def test_a_playoff_row_as_the_sheets_print_it_or_with_the_stage_typed_in_chinese():
    """参赛者 written as the result and draw sheets print it (姚明（基础部）) was "not in the
    list"; 阶段 ko retyped as 淘汰赛 matched no tie, and the event waited without a word."""
    units = {"b1": ("行政第一分工会", "行政一"), "b2": ("机关第二分工会", "机关二")}
    orders, problems = read_playoffs(_book([["象棋", "淘汰赛", "", 2, "苏旭凯（行政一）"],
                                            ["象棋", "淘汰赛", "", 1, "黎玉静(行政第一分工會)"]]),
                                     "加赛.xlsx", "xiangqi", "象棋", ENTRIES, units=units)
    assert problems == [] and [(o.stage, o.order) for o in orders] == [("", ("xq:黎玉静", "xq:苏旭凯"))]
    # the unit written must be the entry's: two 王伟 of two units are told apart, never guessed
    two = [Entry("xq:b1:王伟", "xiangqi", "b1", "王伟", (Person("王伟", "b1"),)),
           Entry("xq:b2:王伟", "xiangqi", "b2", "王伟", (Person("王伟", "b2"),))]
    orders, problems = read_playoffs(_book([["象棋", "", "", 1, "王伟（机关二）"]]), "加赛.xlsx", "xiangqi", "象棋",
                                     two, units=units)
    assert problems == [] and [o.order for o in orders] == [("xq:b2:王伟",)]
    _, problems = read_playoffs(_book([["象棋", "", "", 1, "王伟（图书馆）"]]), "加赛.xlsx", "xiangqi", "象棋",
                                two, units=units)
    assert [p.code for p in problems] == ["BAD_VALUE"]
    orders, _ = read_playoffs(_book([["象棋", "ko", "", 1, "王军"]]), "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert [o.stage for o in orders] == ["ko"]


def test_the_final_places_stage_is_kept_as_written():
    """最终名次 is a stage code the form writes (the final places' 加赛), not a stage name typed
    in Chinese: it stays, in either script (taken for "any stage", it would match other
    stages' ties)."""
    from pipeline import layout

    orders, problems = read_playoffs(_book([["象棋", layout.FINAL_PLACES, "", 1, "王军"], ["象棋", "最終名次", "", 2, "苏旭凯"]]),
                                     "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert problems == [] and [(o.stage, o.order) for o in orders] == [(layout.FINAL_PLACES, ("xq:王军", "xq:苏旭凯"))]


def test_a_form_of_two_ties_orders_each_tie_only():
    """A 加赛 form listing two ties of one stage (each numbered from 1, its _meta saying 3 and
    2 rows): two of them who met later in a new tie (2nd of one, 2nd of the other) were taken
    as ordered by this sheet with the same 名次, and the sheet was called wrong."""
    entries = [Entry(f"xq:{n}", "xiangqi", "b1", n, (Person(n, "b1"),)) for n in "甲乙丙丁戊"]
    book = _book([["象棋", "final", "", 1, "甲"], ["象棋", "final", "", 2, "乙"], ["象棋", "final", "", 3, "丙"],
                  ["象棋", "final", "", 1, "丁"], ["象棋", "final", "", 2, "戊"]])
    book.meta["ties"] = "3,2"
    (po,), problems = read_playoffs(book, "加赛.xlsx", "xiangqi", "象棋", entries)
    assert problems == [] and po.lists_together({"xq:甲", "xq:丙"}) and po.lists_together({"xq:丁", "xq:戊"})
    assert not po.lists_together({"xq:乙", "xq:戊"})
    assert po.settles({"xq:甲", "xq:乙", "xq:丙"}) and [po.order.index(f"xq:{n}") for n in "甲乙丙"] == [0, 1, 2]
    # a sheet that does not say (made by hand, 1118-xiangqi-加赛-4): its ties are read from its
    # numbering, each from 1 — read as one tie, 乙 and 戊 were given the same 名次 and the
    # correct sheet was called wrong while a provisional tie held them both (R2011-F1)
    book.meta.pop("ties")
    (po,), _ = read_playoffs(book, "加赛.xlsx", "xiangqi", "象棋", entries)
    assert dict(zip(po.order, po.ties)) == {"xq:甲": 0, "xq:乙": 0, "xq:丙": 0, "xq:丁": 1, "xq:戊": 1}
    assert not po.lists_together({"xq:乙", "xq:戊"})
    # its order is by 名次 over the sheet, as it was read before its ties were: a round drawn
    # from it recorded that order (PLAYOFFS_KEY), and the same sheet must give it again
    assert po.order == ("xq:丁", "xq:甲", "xq:乙", "xq:戊", "xq:丙")
    assert po.lists_together({"xq:甲", "xq:丙"}) and po.settles({"xq:甲", "xq:乙", "xq:丙"})


def test_the_playoff_form_says_how_many_rows_each_tie_has(tmp_path):
    from pipeline.ingest.workbook import read_workbook
    from pipeline.spec import Tournament, TournamentSpec, validated
    from pipeline.xlsx.forms import PlayoffTie, write_playoff_form

    spec = validated(TournamentSpec, {"id": "t", "name": "赛", "units": [{"id": "b1", "name": "一"}],
                                      "events": [{"id": "xiangqi", "name": "象棋", "game": "xiangqi",
                                                  "format": {"type": "swiss"}}]})
    t = Tournament(tmp_path, spec, b"0123456789abcdef0123")
    p = write_playoff_form(t, spec.events[0], [PlayoffTie("final", "", ("甲", "乙", "丙")), PlayoffTie("final", "", ("丁", "戊"))],
                           tmp_path / "加赛.xlsx")
    assert read_workbook(p).meta["ties"] == "3,2"


def test_a_round_or_table_written_with_its_words_is_its_number():
    """轮次 retyped "第1轮" (as a 队号 "第1队" is 1): the row was refused — "轮次填的是 第1轮，
    但这是第1轮的成绩表…把轮次改为 1" — and not counted.  第1轮, 1轮, 第一轮, full-width, 第1輪
    are round 1; 第3桌, 3桌, 3号桌, 第三桌, 第3台 are table 3; other text stays as written."""
    from pipeline.ingest.sheets import key_of

    rounds = ["第1轮", "1轮", "第一轮", "第１轮", " 第 1 轮 ", "第1輪", "一"]
    assert [key_of({"轮次": r, "桌号": 3})[0] for r in rounds] == ["1"] * len(rounds)
    tables = ["第3桌", "3桌", "3号桌", "第三桌", "第3台", "３号", "第 3 桌"]
    assert [key_of({"轮次": 1, "桌号": t})[2] for t in tables] == ["3"] * len(tables)
    assert key_of({"轮次": "第十二轮", "桌号": "第二十一桌"}) == ("12", "", "21")
    assert [key_of({"轮次": r, "桌号": 1})[0] for r in ("第A轮", "轮", "第1.5轮", "决赛", "第1桌")] == \
        ["第A轮", "轮", "第1.5轮", "决赛", "第1桌"]
    huge = "第" + "1" * 5000 + "轮"             # (int() refuses 4300 digits and more)
    assert key_of({"轮次": huge, "桌号": "9" * 5000})[0] == huge


def test_R2011_F1_a_group_is_read_as_the_draw_names_it():
    """组别 retyped by a referee: "A组", "a", "Ａ", "A 组", "第A组" are group A (result rows were
    refused as no drawn table, a 加赛 order of "A组" matched no tie); what is no group letter
    or number stays as written (三四名, the third-place match, is a group too)."""
    from pipeline.ingest.sheets import group_of, key_of

    written = ["A组", " a ", "Ａ", "A 组", "第A组", "第Ａ組", "a组"]
    assert [key_of({"轮次": 1.0, "组别": g, "桌号": "3"}) for g in written] == [("1", "A", "3")] * len(written)
    assert [group_of(g) for g in ("第 27 组", "三四名", None, "", "A1", "第一组")] == ["27", "三四名", "", "", "A1", "第一组"]
    orders, problems = read_playoffs(_book([["象棋", "", "c组", 2, "苏旭凯"], ["象棋", "", "第C组", 1, "黎玉静"]]),
                                     "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert problems == [] and [(o.group, o.order) for o in orders] == [("C", ("xq:黎玉静", "xq:苏旭凯"))]


def test_a_whole_column_merged_on_a_result_sheet_walks_only_the_rows_read():
    """A referee who merges a whole column (F1:F1048576): the cells of the rows read are said
    to be merged, and no more — it walked a million rows (a second and 300 MB a sheet)."""
    import tracemalloc

    from pipeline.ingest.sheets import _merged_cells
    from pipeline.ingest.workbook import Sheet

    class Cells:
        letters = {"结果": "F", "桌号": "C"}

    raw = [(n, {}, Cells()) for n in (5, 6, 7)]
    book = Book(name="r1.xlsx", sheets={"成绩": Sheet(name="成绩", rows=[], merged=[(1, 6, 1048576, 6), (1, 1, 1, 10)])})
    tracemalloc.start()
    got = _merged_cells(book, "成绩", raw)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert got == {n: {"结果": ("F1:F1048576", "F1")} for n in (5, 6, 7)}
    assert peak < 1_000_000, peak


def test_R2016_F2_a_player_checked_in_by_a_staff_number_with_or_without_its_zeros():
    """签到 sheet: 工号 1033 typed as a number (Excel dropped its zeros) names the player
    registered as 001033 — it was "找不到", and the absent player was drawn."""
    from pipeline import layout as L
    from pipeline.ingest.sheets import read_absent

    entries = [Entry("xq:1", "xiangqi", "b1", "王军", (Person("王军", "b1", staff_id="001033"),)),
               Entry("xq:2", "xiangqi", "b1", "李明", (Person("李明", "b1", staff_id="2044"),))]
    head = [c for c in L.CHECKIN_COLUMNS]
    row = lambda **v: [v.get(c) for c in head]
    sheet = Sheet(L.CHECKIN_SHEET, rows=[head, row(项目="象棋", 姓名="王军", 工号=1033, 到场="否"),
                                         row(项目="象棋", 姓名="李明", 工号="002044", 到场="否")])
    absent, problems = read_absent(Book(name="签到.xlsx", sheets={L.CHECKIN_SHEET: sheet}), "签到.xlsx",
                                   "xiangqi", "象棋", entries)
    assert absent == {p.key for e in entries for p in e.players} and problems == []


#: a 成绩 sheet as tests build it: a title row, the header, then the rows (轮次 A … 结果 F)
_RESULT_HEAD = ["轮次", "组别", "桌号", "甲方", "乙方", "结果"]


def _result_book(rows, merged):
    from pipeline.ingest.workbook import Sheet

    return Book(name="r1.xlsx", sheets={"成绩": Sheet(name="成绩", rows=[["象棋 成绩记录表"], _RESULT_HEAD, *rows],
                                                     merged=[(1, 1, 1, 6), *merged])})


def _keys(rows):
    from pipeline.ingest.sheets import key_of

    return [key_of(r.values) for r in rows]


def test_R2011_F1_a_group_and_a_round_merged_over_their_rows_read_on_every_row():
    """A referee merged 组别 "A组" over group A's rows (B3:B5), "B组" over B's (B6:B7) and 轮次
    down the table (A3:A7): only a merged range's first cell keeps a value, so rows 4–7 read
    without a round or group and were refused as no drawn table.  Each row reads its range's
    value, and those key cells are no merged cells to be said (no "取消合并" advice) — a 结果
    merged over two rows (F6:F7) still is: whose result it is, the sheet does not say."""
    from pipeline.ingest.sheets import read_results

    book = _result_book([[1, "A组", 1, "甲1", "乙1", "甲胜"], [None, None, 2, "甲2", "乙2", "乙胜"],
                         [None, None, 3, "甲3", "乙3", "和棋"], [None, "B组", 4, "甲4", "乙4", "甲胜"],
                         [None, None, 5, "甲5", "乙5", None]],
                        [(3, 1, 7, 1), (3, 2, 5, 2), (6, 2, 7, 2), (6, 6, 7, 6)])
    rows, problems = read_results(book, "r1.xlsx", ["甲方", "乙方", "结果"])
    assert problems == []
    assert _keys(rows) == [("1", "A", "1"), ("1", "A", "2"), ("1", "A", "3"), ("1", "B", "4"), ("1", "B", "5")]
    assert [r.values["组别"] for r in rows] == ["A组"] * 3 + ["B组"] * 2      # as if typed there
    assert {r.row: dict(r.merged) for r in rows if r.merged} == {6: {"结果": ("F6:F7", "F6")}, 7: {"结果": ("F6:F7", "F6")}}
    assert rows[-1].values["结果"] is None and rows[-1].cells["组别"].cell == "B7"


def test_a_table_number_merged_over_its_boards_rows_reads_on_every_board():
    """桥牌: a table's rows are its boards (牌号), and a referee merged the table's 桌号 over
    them (C3:C5): boards 2 and 3 read without a table.  Each board row is its table's."""
    from pipeline.ingest.sheets import read_results
    from pipeline.ingest.workbook import Sheet

    head = ["轮次", "组别", "桌号", "甲方", "乙方", "牌号", "南北得分"]
    rows = [[1, None, 1, "药学院1队", "临床医学院1队", b, s] for b, s in ((1, -50), (2, 170), (3, -420))]
    rows += [[1, None, 2, "基础医学院1队", "针推学院1队", b, s] for b, s in ((1, -110), (2, 170), (3, 120))]
    for r in (rows[1], rows[2], rows[4], rows[5]):
        r[2] = None                               # only a merged range's first cell keeps its value
    book = Book(name="r1.xlsx", sheets={"成绩": Sheet(name="成绩", rows=[head, *rows], merged=[(2, 3, 4, 3), (5, 3, 7, 3)])})
    got, problems = read_results(book, "r1.xlsx", ["甲方", "乙方", "牌号", "南北得分"])
    assert problems == [] and not any(r.merged for r in got)
    assert [(key_[2], r.values["牌号"]) for key_, r in zip(_keys(got), got)] == \
        [("1", 1), ("1", 2), ("1", 3), ("2", 1), ("2", 2), ("2", 3)]


def test_a_key_merged_across_columns_or_from_outside_the_table_is_not_copied():
    """Not a key merged down its column, so not read on the other rows (and said, when a
    problem is found there, as before): 组别 and 桌号 merged across (B3:C3); 轮次 merged from
    the header down (A2:A4: its first cell holds “轮次”); 组别 merged from a blank cell
    (B5:B7).  And 轮次 merged past the table's rows (A5:A40) makes no row there."""
    from pipeline.ingest.sheets import read_results

    book = _result_book([[None, "A", None, "甲1", "乙1", "甲胜"], [None, "A", 2, "甲2", "乙2", "乙胜"],
                         [1, None, 3, "甲3", "乙3", "和棋"], [None, None, None, None, None, None],
                         [None, None, 4, "甲4", "乙4", "甲胜"]],
                        [(3, 2, 3, 3), (2, 1, 4, 1), (5, 2, 7, 2), (5, 1, 40, 1)])
    rows, problems = read_results(book, "r1.xlsx", ["甲方", "乙方", "结果"])
    assert problems == [] and [r.row for r in rows] == [3, 4, 5, 7]
    assert _keys(rows) == [("", "A", ""), ("", "A", "2"), ("1", "", "3"), ("1", "", "4")]
    assert [dict(r.merged) for r in rows] == [
        {"轮次": ("A2:A4", "A2"), "组别": ("B3:C3", "B3"), "桌号": ("B3:C3", "B3")}, {"轮次": ("A2:A4", "A2")},
        {"组别": ("B5:B7", "B5")}, {"组别": ("B5:B7", "B5")}]


def test_a_whole_column_merged_round_is_read_without_walking_a_million_rows(monkeypatch):
    """轮次 merged from the first table row to the sheet's end (A3:A1048576): every row read
    has the round, without memory for the million rows of the range and without looking at
    them (the cells the fill looks at are counted: the rows read, not the range's)."""
    import tracemalloc

    from pipeline.ingest import sheets

    book = _result_book([[1, "A", t, f"甲{t}", f"乙{t}", "甲胜"] if t == 1 else [None, "A", t, f"甲{t}", f"乙{t}", "甲胜"]
                         for t in range(1, 6)], [(3, 1, 1048576, 1)])
    looked = []
    real = sheets.is_blank
    monkeypatch.setattr(sheets, "is_blank", lambda v: looked.append(v) or real(v))
    tracemalloc.start()
    rows, problems = sheets.read_results(book, "r1.xlsx", ["甲方", "乙方", "结果"])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert problems == [] and [k[0] for k in _keys(rows)] == ["1"] * 5 and not any(r.merged for r in rows)
    assert peak < 1_000_000, peak
    assert 0 < len(looked) <= 10, len(looked)


def test_a_table_number_merged_over_its_hands_in_the_detail_sheet_reads_on_every_hand():
    """The 牌局明细 too: a referee merged 桌号 over the rows of a table's hands (C3:C5) and 轮次
    down the sheet (A3:A6).  Those rows were read without a table and set aside (明细未使用);
    each now belongs to its table, and a merged hand's cell (E4:E5) is still said."""
    from pipeline.ingest.sheets import read_details
    from pipeline.ingest.workbook import Sheet

    head = ["轮次", "组别", "桌号", "局号", "甲方得分", "乙方得分"]
    rows = [[1, "A", 1, 1, 80, 20], [None, "A", None, 2, 60, 40], [None, "A", None, 3, 50, 50],
            [None, "A", 2, 1, 30, 70]]
    book = Book(name="r1.xlsx", sheets={"牌局明细": Sheet(name="牌局明细", rows=[["明细"], head, *rows],
                                                          merged=[(1, 1, 1, 6), (3, 3, 5, 3), (3, 1, 6, 1), (4, 5, 5, 5)])})
    out = read_details(book, "r1.xlsx", "牌局明细", ["局号", "甲方得分", "乙方得分"])
    assert {k: [r["局号"] for r in v] for k, v in out.items()} == {("1", "A", "1"): [1, 2, 3], ("1", "A", "2"): [1]}
    assert [("_merged" in r) for r in out[("1", "A", "1")]] == [False, True, True]
    assert out[("1", "A", "1")][1]["_merged"] == {"甲方得分": ("E4:E5", "E4")}


def _teams(*labels):
    """Pairs as build_entries labels them: ``{unit short}{队号}队``."""
    return [Entry(f"ss:{b}:{no}", "shuangsheng", b, label, (), team_no=no) for b, no, label in labels]


def test_a_playoff_sheet_written_before_a_unit_was_renamed_names_its_teams():
    """行政一 renamed 行政壹 in tournament.yaml between the 加赛 form and its return: the sheet
    says 行政一1队/行政一2队, the teams are 行政壹1队/行政壹2队 now — both rows were BAD_VALUE
    and the tie stayed open (ten 双升 places tied at 12).  The unit's former names (the
    runner passes them in ``units``) make the old label name the team."""
    entries = _teams(("b01", "1", "行政壹1队"), ("b01", "2", "行政壹2队"), ("b02", "1", "行政二1队"))
    units = {"b01": ("行政一分工会", "行政壹", "行政第一分工会", "行政一"), "b02": ("行政第二分工会", "行政二")}
    rows = [["双升", "ko", "", 2, "行政一2队"], ["双升", "ko", "", 1, "行政一1队"], ["双升", "ko", "", 3, "行政二1队"]]
    orders, problems = read_playoffs(_book(rows), "加赛.xlsx", "shuangsheng", "双升", entries, units=units)
    assert problems == [] and [o.order for o in orders] == [("ss:b01:1", "ss:b01:2", "ss:b02:1")]
    # a label no former name of the unit makes is still not in the list
    _, problems = read_playoffs(_book([["双升", "ko", "", 1, "行政三1队"]]), "加赛.xlsx", "shuangsheng", "双升",
                                entries, units=units)
    assert [p.code for p in problems] == ["BAD_VALUE"]


def test_a_former_short_name_never_takes_a_label_another_team_has_now():
    """行政一 and 行政二 swapped their short names: 行政一1队 is b02's team now, whatever b01 was
    called — the current label wins; a former label two teams could have made is no team."""
    from pipeline.ingest.sheets import _find_entry

    entries = _teams(("b01", "1", "行政二1队"), ("b02", "1", "行政一1队"), ("b03", "1", "基础部1队"), ("b04", "1", "基础教学部1队"))
    units = {"b01": ("行政二", "行政一"), "b02": ("行政一", "行政二"), "b03": ("基础部", "基础"), "b04": ("基础教学部", "基础")}
    assert _find_entry("行政一1队", entries, units).id == "ss:b02:1"
    assert _find_entry("基础1队", entries, units) is None
    # a form's _meta names the tie's entries: of the two, the one in this row's tie
    assert _find_entry("基础1队", entries, units, tie={"ss:b04:1", "ss:b01:1"}).id == "ss:b04:1"


def test_R2011_F1_a_playoff_sheet_with_no_place_at_all_is_said():
    """A 加赛表 whose 名次 cells are all blank (the referee wrote the ranks in 组别, or the
    blank form was put in the inbox) was passed over without a word, the event still waiting
    for it; now a note at its first 名次 cell.  One group filled and another not is no note."""
    orders, problems = read_playoffs(_book([["象棋", "", "2", None, "苏旭凯"], ["象棋", "", "1", None, "黎玉静"]]),
                                     "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert orders == [] and [(i.code, str(i.severity), i.cell) for i in problems] == [("MISSING_VALUE", "info", "D2")]
    assert "名次" in problems[0].message
    orders, problems = read_playoffs(_book([["象棋", "", "C", 2, "苏旭凯"], ["象棋", "", "C", 1, "黎玉静"],
                                            ["象棋", "", "D", None, "苏旭凯"]]), "加赛.xlsx", "xiangqi", "象棋", ENTRIES)
    assert problems == [] and len(orders) == 1


def test_R2015_A1_an_awards_sheet_problem_is_named_at_the_cell_of_its_column():
    """评奖表: a 单位 the league does not have (E6 离退休) was named at A6, the row's 奖项 cell —
    the office looked for the mistake in the award's name.  Each problem is at its column's cell."""
    from pipeline.ingest.sheets import read_awards
    from pipeline.model import Unit
    from pipeline.score.awards import discretionary_awards

    rows = [["评奖表"], [], [], [], ["奖项", "项目", "姓名", "工号", "单位", "备注"],
            ["组织奖", "", "", "", "离退休", ""],          # 6: 单位 unknown
            ["组织奖", "", "", "", "", ""],                # 7: 单位 missing for a unit's award
            ["风尚奖", "", "", "", "", ""],                # 8: no winner named
            ["风尚奖", "象棋", "张无忌", "", "", ""],       # 9: no such player
            ["风尚奖", "", "", "9999", "", ""],            # 10: no such staff number
            ["风尚奖", "军棋", "王军", "", "", ""],         # 11: no such event
            ["风尚将", "象棋", "王军", "", "", ""],         # 12: no such award
            ["风尚奖", "象棋", "王军", "", "", ""]]         # 13: fine
    book = Book(name="评奖表.xlsx", sheets={"评奖": Sheet("评奖", rows=rows)})
    raw, problems = read_awards(book, "评奖表.xlsx")
    assert problems == []
    got, issues = discretionary_awards(raw, ENTRIES, [Unit("b1", "行政第一分工会", short="行政一")],
                                       event_names={"xiangqi": "象棋"}, known=["风尚奖"])
    assert [(r.award, r.entry) for r in got] == [("风尚奖", "xq:王军")]
    assert [(i.code, i.cell) for i in issues] == [
        ("UNKNOWN_BRANCH", "E6"), ("MISSING_VALUE", "E7"), ("MISSING_VALUE", "C8"), ("BAD_VALUE", "C9"),
        ("BAD_VALUE", "D10"), ("BAD_VALUE", "B11"), ("BAD_VALUE", "A12")]
    assert {i.sheet for i in issues} == {"评奖"} and "军棋" in issues[5].message and "象棋" in issues[5].message


def _checkin_book(*rows: dict, name: str = "签到.xlsx") -> Book:
    from pipeline import layout as L

    head = list(L.CHECKIN_COLUMNS)
    return Book(name=name, sheets={L.CHECKIN_SHEET: Sheet(L.CHECKIN_SHEET, rows=[head, *[[r.get(c) for c in head]
                                                                                      for r in rows]])})


_XQ = [Entry("xq:1", "xiangqi", "b1", "王军", (Person("王军", "b1", staff_id="001033"),)),
       Entry("xq:2", "xiangqi", "b1", "李明", (Person("李明", "b1", staff_id="002044"),))]


def test_R2016_F2_a_check_in_row_left_blank_is_an_error_at_its_cell():
    """到场 blank for a registered player (the form says 到场的选“是”，未到场的选“否”): an error at
    the cell, what to do — it was taken as present without a word, and round 1 drawn."""
    from pipeline.ingest.sheets import read_absent

    book = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": "是"},
                         {"项目": "象棋", "姓名": "李明", "工号": "002044"})
    absent, problems = read_absent(book, "签到.xlsx", "xiangqi", "象棋", _XQ)
    assert absent == set()
    (p,) = problems
    assert (p.code, p.severity.value, p.file, p.sheet, p.cell) == ("BAD_VALUE", "error", "签到.xlsx", "签到", "E3")
    assert p.message == "签到表中象棋第3行 李明 的“到场”未填写：请选“是”或“否”后重发签到表（填好之前第1轮不抽签）。"


def test_R2016_F2_many_check_in_rows_left_blank_are_one_error_naming_them_all():
    """More than UNMARKED_EACH (8) blank rows: one error at the first, naming every row."""
    from pipeline.ingest.sheets import read_absent

    people = [Entry(f"xq:{k}", "xiangqi", "b1", f"选手{k}", (Person(f"选手{k}", "b1", staff_id=f"{k:06d}"),))
              for k in range(1, 13)]
    book = _checkin_book(*[{"项目": "象棋", "姓名": e.players[0].name, "工号": e.players[0].staff_id} for e in people])
    _, problems = read_absent(book, "签到.xlsx", "xiangqi", "象棋", people)
    (p,) = problems
    assert p.severity.value == "error" and p.cell == "E2"
    assert f"有 {len(people)} 行的“到场”未填写" in p.message
    assert all(f"第{k + 1}行 选手{k}" in p.message for k in range(1, len(people) + 1))


def test_R2016_F2_a_check_in_row_of_someone_not_registered_is_a_warning():
    """董小替 written in for someone absent (是): not among the event's players — a warning at
    the row (no substitutes; the pair is re-formed), not entered; it was passed over silently.
    A blank or 否 such row is a warning too, not entered (an error asked for a mark that could
    not clear it: a pair dropped from its unit's form still on a sheet printed before)."""
    from pipeline.ingest.sheets import read_absent

    book = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": "否"},
                         {"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": "是"},
                         {"项目": "象棋", "姓名": "董小替", "工号": "001099", "到场": "是"},
                         {"项目": "象棋", "姓名": "王君", "到场": None})
    marks: dict = {}
    absent, problems = read_absent(book, "签到.xlsx", "xiangqi", "象棋", _XQ, marks)
    assert absent == {_XQ[0].players[0].key} and set(marks.values()) == {True, False}
    sub, typo = problems
    assert (sub.code, sub.severity.value, sub.cell) == ("BAD_VALUE", "warning", "C4")
    assert "“董小替”（工号 001099）不在象棋的参赛名单中，这一行没有录入" in sub.message
    assert "不设替补" in sub.message and "R2016-F2" in sub.message and "抽签前为其补报" in sub.message
    assert (typo.severity.value, typo.cell) == ("warning", "C5") and "“王君”不在象棋的参赛名单中" in typo.message
    assert "这一行没有录入" in typo.message and "“到场”不必填写" in typo.message


def test_R2016_F2_check_in_rows_of_no_one_or_not_registered_hold_nothing():
    """A lookup formula filled down past the last player (#N/A in 工号, 姓名 blank; #N/A in
    姓名) is no one: skipped, as the registration reader does — it was an error “找不到”
    that held round 1.  A pair dropped from its unit's form, still on the sheet, blank or
    marked 否 as the error asked: a warning each, not entered — it was an error no mark cleared."""
    import datetime as dt
    from types import SimpleNamespace

    from pipeline.ingest.workbook import CellError
    from pipeline.issues import IssueLog
    from pipeline.run import read_absent

    ev = SimpleNamespace(id="xiangqi", name="象棋", former_names=())
    at = dt.datetime(2016, 11, 26, 8, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    book = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": "否"},
                         {"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": "是"},
                         {"项目": "象棋", "姓名": None, "工号": CellError("#N/A"), "到场": None},
                         {"项目": "象棋", "姓名": CellError("#N/A"), "工号": None, "到场": None},
                         {"项目": "象棋", "姓名": None, "工号": CellError("#N/A"), "到场": "否"})
    log = IssueLog()
    absent, state = read_absent(SimpleNamespace(checkins=[(SimpleNamespace(file_name="a.xlsx", sha256="a", received_at=at),
                                                           book)]), ev, _XQ, log)
    assert (state, absent, list(log)) == ("", {_XQ[0].players[0].key}, [])
    # 李明's entry dropped from registration: his row left blank, then marked 否
    for mark in (None, "否", "是"):
        book = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": "是"},
                             {"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": mark})
        log = IssueLog()
        absent, state = read_absent(SimpleNamespace(checkins=[(SimpleNamespace(file_name="a.xlsx", sha256="a",
                                                                               received_at=at), book)]), ev, _XQ[:1], log)
        (p,) = list(log)
        assert (state, absent, p.severity.value, p.cell) == ("", frozenset(), "warning", "C3"), mark
        assert "李明" in p.message and "没有录入" in p.message


def test_R2016_F2_unmarked_check_in_rows_are_notes_once_round_1_does_not_wait_for_them():
    """Round 1 drawn (or the event's round 1 not drawn at the check-in): a blank 到场 is a
    note (taken as present), not an error that held every night at exit 1 with “填好之前第1轮
    不抽签”; a row of someone not registered is a note too.  Before the draw at the check-in
    the blank of a registered player still holds round 1; a withdrawn entry's players need no mark."""
    import datetime as dt
    from types import SimpleNamespace

    from pipeline.issues import IssueLog
    from pipeline.run import read_absent

    ev = SimpleNamespace(id="xiangqi", name="象棋", former_names=())
    at = dt.datetime(2016, 11, 26, 8, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    book = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": None},
                         {"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": "是"},
                         {"项目": "象棋", "姓名": "董小替", "工号": "001099", "到场": "是"})
    inputs = SimpleNamespace(checkins=[(SimpleNamespace(file_name="a.xlsx", sha256="a", received_at=at), book)])
    for kw in ({"drawn": True}, {"at_checkin": False}):
        log = IssueLog()
        absent, state = read_absent(inputs, ev, _XQ, log, **kw)
        assert (state, absent) == ("", frozenset()), kw
        assert [i.severity.value for i in log] == ["info", "info"], kw
        assert not any("填好之前第1轮不抽签" in i.message for i in log), kw
        assert any("王军" in i.message and "按到场处理" in i.message for i in log), kw
    log = IssueLog()
    _, state = read_absent(inputs, ev, _XQ, log)
    assert state == "errors" and [i.severity.value for i in log] == ["warning", "error"]
    log = IssueLog()
    _, state = read_absent(inputs, ev, _XQ, log, needless={_XQ[0].players[0].key})
    assert state == "" and [i.severity.value for i in log] == ["warning"]


def test_R2016_F2_a_blank_check_in_row_is_settled_only_by_a_sheet_marking_that_player():
    """Sheet 1 leaves 王军 and 李明 blank; sheet 2 marks only 王军: 李明 still holds round 1
    (a later sheet of other rows settled every earlier problem).  A later sheet's blank for
    someone an earlier sheet marked is no mark: the earlier counts."""
    import datetime as dt
    from types import SimpleNamespace

    from pipeline.issues import IssueLog
    from pipeline.run import read_absent

    def rec(name, minute):
        return SimpleNamespace(file_name=name, sha256=name,
                               received_at=dt.datetime(2016, 11, 26, 8, minute, tzinfo=dt.timezone(dt.timedelta(hours=8))))

    ev = SimpleNamespace(id="xiangqi", name="象棋", former_names=())
    first = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033"},
                          {"项目": "象棋", "姓名": "李明", "工号": "002044"}, name="a.xlsx")
    second = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": "否"}, name="b.xlsx")
    log = IssueLog()
    absent, state = read_absent(SimpleNamespace(checkins=[(rec("a.xlsx", 10), first), (rec("b.xlsx", 20), second)]),
                                ev, _XQ, log)
    assert state == "errors" and absent == {_XQ[0].players[0].key}
    (p,) = list(log)
    assert p.severity.value == "error" and p.file == "a.xlsx" and "李明" in p.message and "王军" not in p.message
    third = _checkin_book({"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": "是"},
                          {"项目": "象棋", "姓名": "王军", "工号": "001033"}, name="c.xlsx")
    log = IssueLog()
    absent, state = read_absent(SimpleNamespace(checkins=[(rec("a.xlsx", 10), first), (rec("b.xlsx", 20), second),
                                                          (rec("c.xlsx", 30), third)]), ev, _XQ, log)
    assert (state, absent, list(log)) == ("", {_XQ[0].players[0].key}, [])


def test_R2016_F2_a_player_on_no_check_in_row_holds_round_1():
    """李明's row deleted from the 签到表 (instead of 否): he was drawn as present without a
    word.  A player entered on no row of the sheets received is as a row left blank — one
    error naming him (and his unit) at the sheet, round 1 waits; sheets of parts of the field
    add up (his row on another sheet clears it); once round 1 does not wait, a note."""
    import datetime as dt
    from types import SimpleNamespace

    from pipeline.issues import IssueLog
    from pipeline.run import read_absent

    def rec(name, minute):
        return SimpleNamespace(file_name=name, sha256=name,
                               received_at=dt.datetime(2016, 11, 26, 8, minute, tzinfo=dt.timezone(dt.timedelta(hours=8))))

    ev = SimpleNamespace(id="xiangqi", name="象棋", former_names=())
    first = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": "否"}, name="a.xlsx")
    log = IssueLog()
    absent, state = read_absent(SimpleNamespace(checkins=[(rec("a.xlsx", 10), first)]), ev, _XQ, log,
                                units={"b1": "机关一分工会"})
    assert state == "errors" and absent == {_XQ[0].players[0].key}
    (p,) = list(log)
    assert (p.code, p.severity.value, p.file, p.sheet, p.cell) == ("BAD_VALUE", "error", "a.xlsx", "签到", "A2")
    assert p.message == ("签到表中没有象棋的 李明（机关一分工会）（1 人）：请在签到表中补回这些人的行并在“到场”填“是”或“否”"
                         "后重发签到表（填好之前第1轮不抽签；行还在、只是姓名或工号写错的，改正姓名或工号即可）。")
    # withdrawn: needs no row
    log = IssueLog()
    _, state = read_absent(SimpleNamespace(checkins=[(rec("a.xlsx", 10), first)]), ev, _XQ, log,
                           needless={_XQ[1].players[0].key})
    assert (state, list(log)) == ("", [])
    # the other desk's sheet lists him
    second = _checkin_book({"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": "是"}, name="b.xlsx")
    log = IssueLog()
    absent, state = read_absent(SimpleNamespace(checkins=[(rec("a.xlsx", 10), first), (rec("b.xlsx", 20), second)]),
                                ev, _XQ, log)
    assert (state, absent, list(log)) == ("", {_XQ[0].players[0].key}, [])
    # round 1 drawn, or not drawn at the check-in: a note, taken as present
    for kw in ({"drawn": True}, {"at_checkin": False}):
        log = IssueLog()
        _, state = read_absent(SimpleNamespace(checkins=[(rec("a.xlsx", 10), first)]), ev, _XQ, log, **kw)
        (p,) = list(log)
        assert (state, p.severity.value) == ("", "info"), kw
        assert "李明" in p.message and "按到场处理" in p.message and "不抽签" not in p.message, kw


def test_R2016_F2_a_missing_player_is_said_at_the_events_first_row_not_at_another_persons_row():
    """The error naming players on no row was marked at the 姓名 cell below the event's last
    row — another event's player there got the returned copy's highlight.  It is at the
    event's first row's 项目 cell."""
    import datetime as dt
    from types import SimpleNamespace

    from pipeline.issues import IssueLog
    from pipeline.run import read_absent

    ev = SimpleNamespace(id="xiangqi", name="象棋", former_names=())
    at = dt.datetime(2016, 11, 26, 8, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    book = _checkin_book({"项目": "围棋", "姓名": "张三", "到场": "是"},
                         {"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": "否"},
                         {"项目": "围棋", "姓名": "赵四", "到场": "是"})
    log = IssueLog()
    _, state = read_absent(SimpleNamespace(checkins=[(SimpleNamespace(file_name="a.xlsx", sha256="a", received_at=at),
                                                      book)]), ev, _XQ, log)
    (p,) = list(log)
    assert (state, p.sheet, p.cell) == ("errors", "签到", "A3") and "李明" in p.message


def test_R2016_F2_a_check_in_sheets_merged_event_and_group_cells_fill_down():
    """项目 (and 组别) merged over an event's rows, as offices format it: only the first row
    kept 象棋, the others were skipped — their 否 ignored, and the players said missing."""
    from pipeline.ingest.sheets import read_absent

    book = _checkin_book({"项目": "象棋", "组别": "A", "姓名": "王军", "工号": "001033", "到场": "是"},
                         {"姓名": "李明", "工号": "002044", "到场": "否"})
    book.sheets["签到"].merged = [(2, 1, 3, 1), (2, 2, 3, 2)]
    marks: dict = {}
    absent, problems = read_absent(book, "签到.xlsx", "xiangqi", "象棋", _XQ, marks)
    assert (absent, problems) == ({_XQ[1].players[0].key}, [])
    assert marks == {_XQ[0].players[0].key: False, _XQ[1].players[0].key: True}


def test_cn_number_refuses_malformed_numerals():
    from pipeline.text import cn_numeral

    assert [cn_numeral(t) for t in ("二百零十", "三百零", "一百零", "十零", "二十零", "零十", "百零五")] == [None] * 7
    assert [cn_numeral(t) for t in ("一百零五", "一百一十", "一百十", "二十三", "九十九", "一百", "两百", "十")] == \
        [105, 110, 110, 23, 99, 100, 200, 10]


def test_a_renamed_result_sheet_is_adopted_only_when_one_visible_sheet_holds_the_table():
    """成绩 renamed, _meta intact: the one visible sheet with the result table's header (its
    sides as the _meta's seats print them) is read as 成绩 — a 牌局明细 beside it (no sides),
    a hidden copy or an empty Sheet2 is no second candidate; two candidates, or no _meta
    naming the event and round, adopt nothing."""
    from pipeline.ingest.sheets import adopt_renamed_result_sheet

    three = [["轮次", "组别", "桌号", "甲", "乙", "丙", "甲得分"], [1, None, 1, "a", "b", "c", 2]]
    detail = [["轮次", "组别", "桌号", "局号", "地主"], [1, None, 1, 1, "甲"]]
    meta = {"kind": "result", "event_id": "doudizhu", "round": 1, "seats": 3}

    def book(sheets, m=meta):
        return Book(name="r.xlsx", sheets={s.name: s for s in sheets}, meta=dict(m))
    b = book([Sheet("Sheet1", rows=three), Sheet("牌局明细", rows=detail), Sheet("备份", state="hidden", rows=three)])
    assert adopt_renamed_result_sheet(b) == "Sheet1" and b.sheet("成绩").name == "Sheet1"
    assert adopt_renamed_result_sheet(book([Sheet("A", rows=three), Sheet("B", rows=three)])) == ""
    assert adopt_renamed_result_sheet(book([Sheet("A", rows=three)], {"kind": "result"})) == ""
    assert adopt_renamed_result_sheet(book([Sheet("A", rows=three)], {})) == ""
    kept = book([Sheet("成绩", rows=three), Sheet("Sheet1", rows=three)])
    assert adopt_renamed_result_sheet(kept) == "" and kept.renamed == {}


def test_R2016_F2_usual_check_in_marks_are_read():
    """到场 as people mark a Chinese sign-in sheet (an audit: “√”, “到”, “Y” were errors that
    held round 1, while 斗地主's 明细 reads √/Y/1 as 是): √ ✓ ✔ 到 是 Y y 1 (and their
    full-width forms) present, × ✗ 否 缺 N n 0 未到 absent; anything else is still the error at
    its cell."""
    from pipeline.ingest.sheets import read_absent

    for mark in ("√", "✓", "✔", "到", "是", "Y", "y", "1", 1, "Ｙ", "ｙ", "１", "已到"):
        book = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": mark},
                             {"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": "是"})
        assert read_absent(book, "签到.xlsx", "xiangqi", "象棋", _XQ) == (set(), []), mark
    for mark in ("×", "✗", "否", "缺", "N", "n", "0", 0, "未到", "Ｎ", "０", "缺席"):
        book = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": mark},
                             {"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": "是"})
        assert read_absent(book, "签到.xlsx", "xiangqi", "象棋", _XQ) == ({_XQ[0].players[0].key}, []), mark
    book = _checkin_book({"项目": "象棋", "姓名": "王军", "工号": "001033", "到场": "？"},
                         {"项目": "象棋", "姓名": "李明", "工号": "002044", "到场": "是"})
    absent, (p,) = read_absent(book, "签到.xlsx", "xiangqi", "象棋", _XQ)
    assert absent == set() and (p.code, p.severity.value, p.cell) == ("BAD_VALUE", "error", "E2")
    assert "“?”" in p.message and "√" in p.message and "×" in p.message


def test_R2020_F4_a_playoff_row_left_blank_beside_a_given_one_is_still_level():
    """A 名次 left blank in a tie some of whose rows have one means "still level" (R2020-F4, the
    t2020 audit's decision): the sheet keeps those rows, by its ties (a form's _meta, or a
    hand-made sheet of one tie) — they were dropped, and the sheet read as the winner alone."""
    entries = [Entry(f"xq:{n}", "xiangqi", "b1", n, (Person(n, "b1"),)) for n in "甲乙丙丁戊"]
    book = _book([["象棋", "final", "", 1, "甲"], ["象棋", "final", "", None, "乙"], ["象棋", "final", "", None, "丙"],
                  ["象棋", "final", "", None, "丁"], ["象棋", "final", "", None, "戊"]])
    book.meta["ties"] = "3,2"
    (po,), problems = read_playoffs(book, "加赛.xlsx", "xiangqi", "象棋", entries)
    assert problems == [] and po.order == ("xq:甲",)
    assert po.places_of({"xq:甲", "xq:乙", "xq:丙"}) == {"xq:甲": 1, "xq:乙": None, "xq:丙": None}
    assert po.blank_cells[:2] == ("D3", "D4")
    assert po.places_of({"xq:丁", "xq:戊"}) is None        # a tie left blank whole: not played yet
    book = _book([["象棋", "final", "", None, "乙"], ["象棋", "final", "", 1, "甲"], ["象棋", "final", "", None, "丙"]])
    (po,), _ = read_playoffs(book, "加赛.xlsx", "xiangqi", "象棋", entries)
    assert po.places_of({"xq:甲", "xq:乙", "xq:丙"}) == {"xq:甲": 1, "xq:乙": None, "xq:丙": None}
