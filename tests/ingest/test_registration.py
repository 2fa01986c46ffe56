"""read_registration: _meta checks, header mapping, typed and normalised values."""
from __future__ import annotations

import datetime as dt

import pytest

from pipeline import layout as L
from pipeline.ingest.registration import pickup_match, read_registration, read_result_rows
from pipeline.ingest.workbook import read_workbook
from pipeline.model import Severity

from .builders import person, spec_dict, tournament, write_registration


def read(tmp_path, rows, branch="b1", t=None, **kw):
    t = t or tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, branch, rows, **kw)
    return read_registration(read_workbook(p), "reg.xlsx", t)


def codes(issues):
    return sorted(i.code for i in issues)


def test_clean_sheet(tmp_path):
    reg, issues = read(tmp_path, [person("象棋", "王军", 19390926685, 性别="男", 联系电话=13812345678)])
    assert issues == [] and reg.branch == "b1" and reg.usable
    r = reg.rows[0]
    assert (r.row, r.event, r.name, r.staff_id, r.gender, r.phone) == (5, "xiangqi", "王军", "19390926685", "男", "13812345678")
    assert r.cells["项目"] == "B5"


def test_a_tables_rows_share_its_columns_and_keep_no_raw_values(tmp_path):
    """A night loads every unit's kept form (pickled): each row holds its table's columns (one
    object for all of them, pickled once) and makes its A1 references when asked; a dict of
    raw values and one of references per row were a third of that loading."""
    import pickle

    reg, _ = read(tmp_path, [person("象棋", "王军", "1001"), person("跳棋", "李四", "1002")])
    a, b = reg.rows
    assert a.columns is b.columns and not hasattr(a, "raw")
    assert (a.cells["项目"], b.cells["姓名"], b.cells["工号"]) == ("B5", "D6", "E6")
    again = pickle.loads(pickle.dumps(reg))
    assert again == reg and again.rows[0].columns is again.rows[1].columns


def test_full_width_digits_and_zero_width_spaces(tmp_path):
    reg, issues = read(tmp_path, [person("象棋", "王\u200b\u3000 军\u00a0", "１２３４５", 联系电话="１３８ １２３４ ５６７８")])
    assert issues == []
    r = reg.rows[0]
    assert (r.name, r.display_name, r.staff_id, r.phone) == ("王军", "王军", "12345", "13812345678")


def test_bidirectional_marks_are_no_part_of_a_name(tmp_path):
    """A name copied from a web page or a phone carries U+200E/U+202A…: it was another
    person than the same name typed, and printed the marks on the certificate."""
    reg, issues = read(tmp_path, [person("象棋", "\u200e王\u202a军\u202c\u2066", "")])
    assert issues == []
    assert (reg.rows[0].name, reg.rows[0].display_name) == ("王军", "王军")


def test_staff_id_text_keeps_leading_zero(tmp_path):
    reg, _ = read(tmp_path, [person("象棋", "王军", "0012")])
    assert reg.rows[0].staff_id == "0012"


def test_an_event_named_with_full_width_brackets_finds_its_entries(tmp_path):
    """An event named 象棋（个人） (any Chinese input method types （）): the reader reads the
    cell in NFKC, 象棋(个人), and every entry was UNKNOWN_EVENT (from an audit of league new)."""
    d = spec_dict()
    d["events"][0]["name"] = "象棋（个人）"
    t = tournament(events=d["events"])
    reg, issues = read(tmp_path, [person("象棋（个人）", "王军"), person("象棋 (个人)", "李四", "2")], t=t)
    assert issues == [] and [r.event for r in reg.rows] == ["xiangqi", "xiangqi"]


def test_unknown_event_message(tmp_path):
    _, issues = read(tmp_path, [person("象棋2", "王军")])
    (i,) = issues
    assert i.code == "UNKNOWN_EVENT" and i.cell == "B5" and i.sheet == "报名表" and i.branch == "b1"
    assert i.message == '报名表!B5 "象棋2" 不是本次比赛的项目，请从下拉列表中选择：象棋、跳棋、双升、斗地主'


def test_a_line_for_a_cancelled_event_is_a_note_an_unknown_event_stays_an_error(tmp_path):
    """An event the office took out of tournament.yaml (as TOO_FEW_ENTRIES advises, 取消本项目)
    — the run knows it was this tournament's (:attr:`Tournament.cancelled_events`): a line
    naming it (in either script, or by its id) is no mistake the captain could fix after the
    deadline, but a note (EVENT_CANCELLED, info) at its 项目 cell, and no entry.  An event
    the tournament never had stays UNKNOWN_EVENT (from an audit: the cancelled event's lines
    were errors every night)."""
    t = tournament()
    t.cancelled_events = {"bridge": ("桥牌",)}
    reg, issues = read(tmp_path, [person("象棋", "王军"), person("桥牌", "李四", "2", team=1),
                                  person("橋牌", "赵五", "3", team=1), person("bridge", "钱六", "5", team=2),
                                  person("象棋2", "孙七", "4")], t=t)
    assert [(i.code, i.severity, i.cell) for i in issues] == [
        ("EVENT_CANCELLED", Severity.INFO, "B6"), ("EVENT_CANCELLED", Severity.INFO, "B7"),
        ("EVENT_CANCELLED", Severity.INFO, "B8"), ("UNKNOWN_EVENT", Severity.ERROR, "B9")]
    assert issues[0].message.startswith("报名表!B6 “桥牌”项目已取消") and "不再录入" in issues[0].message
    assert issues[0].branch == "b1"
    # the cancelled lines are no rows of the form (no check looks at them), but are counted
    assert [r.name for r in reg.rows] == ["王军", "孙七"] and reg.cancelled == (6, 7, 8)


def test_columns_in_any_order_with_extras(tmp_path):
    cols = ["姓名", "额外", "备注", "项目", "队号", "联系电话", "工号", "性别"]
    reg, issues = read(tmp_path, [person("双升", "甲", team=1), person("双升", "乙", team=1)], columns=cols)
    assert issues == [] and reg.rows[1].cells["项目"] == "D6" and reg.rows[0].team_no == "1"
    # without the 性别 and 联系电话 columns the rows are still read, and the loss is said
    reg, issues = read(tmp_path, [person("双升", "甲", team=1), person("双升", "乙", team=1)],
                       columns=["姓名", "项目", "队号", "工号"])
    assert len(reg.rows) == 2 and [i.code for i in issues] == ["HEADER_CHANGED"]


def test_values_problems_are_located(tmp_path):
    rows = [person("象棋", 12345), person("象棋", dt.date(2020, 1, 1)), person("", "王军"),
            person("双升", "李四"), person("象棋", "赵六", 性别="公"), person("象棋", "钱七", 联系电话="12ab"),
            {"序号": 9}]
    reg, issues = read(tmp_path, rows)
    got = [(i.code, i.cell) for i in issues]
    assert ("BAD_VALUE", "D5") in got and ("BAD_VALUE", "D6") in got
    assert ("MISSING_VALUE", "B7") in got and ("MISSING_VALUE", "C8") in got
    assert ("BAD_VALUE", "F9") in got and ("BAD_VALUE", "G10") in got
    # every row refused but 赵六's and 钱七's: a mistyped 性别 or 联系电话 is a warning, the row
    # stands (no rule reads 性别; the office can still reach the captain; a player dropped for
    # it was dropped for good)
    assert len(reg.rows) == 6 and [r.name for r in reg.rows if r.ok] == ["赵六", "钱七"]
    assert [(i.severity, i.cell) for i in issues if "12ab" in i.message] == [(Severity.WARNING, "G10")]
    assert [(i.severity, i.cell) for i in issues if "公" in i.message] == [(Severity.WARNING, "F9")]
    assert '"12345"' in issues[0].message


def test_two_names_parted_by_a_space_are_asked_about(tmp_path):
    """"段强 邱洋桂" in one cell was the one person 段强邱洋桂, without a word.  A warning at
    the cell (it may be one name written with a space: 买买提 艾力); "王  军" is one name."""
    reg, issues = read(tmp_path, [person("斗地主", "段强 邱洋桂"), person("斗地主", "王  军")])
    assert [(i.code, i.severity, i.cell) for i in issues] == [("BAD_VALUE", Severity.WARNING, "D5")]
    assert "两个人" in issues[0].message and [r.ok for r in reg.rows] == [True, True]


def test_a_renamed_form_sheet_is_read_when_it_is_the_one_holding_the_table(tmp_path):
    """报名表 renamed Sheet1: refused with 找不到工作表, not one row checked.  The one sheet
    holding the form's table is read as it (a warning); with two such sheets, the refusal
    names the sheets there are."""
    import openpyxl

    t = tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", [person("象棋", "甲", 1), person("象棋", "乙", 2)])
    wb = openpyxl.load_workbook(p)
    wb["报名表"].title = "Sheet1"
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    assert reg.usable and [r.name for r in reg.rows if r.ok] == ["甲", "乙"]
    assert [(i.code, i.severity, i.sheet) for i in issues] == [("SHEET_RENAMED", Severity.WARNING, "Sheet1")]
    wb.copy_worksheet(wb["Sheet1"]).title = "Sheet2"
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    assert not reg.usable and [i.code for i in issues] == ["TEMPLATE_MISMATCH"]
    assert "“Sheet1”、“Sheet2”" in issues[0].message and "改回“报名表”" in issues[0].message


def test_gender_words_captains_use_are_read():
    """男士/女士, 先生, M/F, male: the dropdown's 男/女 meant (an error refused the row)."""
    from pipeline.ingest.registration import _read_gender

    said = []
    got = [_read_gender(v, lambda label, msg: said.append(label)) for v in ("男士", "女 士", "f", "Male", "先生", "女性", "男")]
    assert got == ["男", "女", "女", "男", "男", "女", "男"] and said == []


def test_a_phone_cell_with_an_error_value_is_a_warning_and_the_row_stands(tmp_path):
    """An #N/A in 联系电话 (a lookup that found nothing): contact data, so the row stands with a
    warning at the cell, the phone left blank."""
    reg, issues = read(tmp_path, [person("象棋", "钱七", 联系电话="#N/A")])
    assert [r.ok for r in reg.rows] == [True] and reg.rows[0].phone == ""
    assert [(i.code, i.severity, i.cell) for i in issues] == [("BAD_VALUE", Severity.WARNING, "G5")]


def test_hidden_rows_are_read(tmp_path):
    """A row hidden in Excel still counts (it is no deletion), and a warning at it says so:
    a third player "removed" by hiding the row put the unit over its quota, and the captain
    saw two.  The returned copy shows the row again."""
    from pipeline.model import Severity
    from pipeline.xlsx.returned import write_returned_copy

    import openpyxl

    reg, issues = read(tmp_path, [person("象棋", "王军"), person("跳棋", "李四")], hidden_rows=[6])
    assert [r.name for r in reg.rows] == ["王军", "李四"]
    (w,) = issues
    assert w.severity == Severity.WARNING and w.cell == "A6" and "被隐藏" in w.message and "李四" in w.message
    out = write_returned_copy(tmp_path / "reg.xlsx", issues, tmp_path / "back.xlsx")
    assert not openpyxl.load_workbook(out)["报名表"].row_dimensions[6].hidden


def test_template_mismatch_other_tournament(tmp_path):
    reg, issues = read(tmp_path, [person("象棋", "王军")], meta={"tournament_id": "other"})
    assert codes(issues) == ["TEMPLATE_MISMATCH"] and not reg.usable
    assert reg.foreign                  # no edit of it makes it this tournament's form


def test_template_mismatch_old_version(tmp_path):
    reg, issues = read(tmp_path, [person("象棋", "王军")], meta={"template_version": 0})
    assert codes(issues) == ["TEMPLATE_MISMATCH"] and reg.foreign


def test_template_mismatch_renamed_header(tmp_path):
    cols = ["序号", "项目", "队号", "名字", "工号"]
    reg, issues = read(tmp_path, [person("象棋", "王军")], columns=cols)
    assert codes(issues) == ["TEMPLATE_MISMATCH"] and "“姓名”" in issues[0].message
    assert not reg.usable and not reg.foreign       # the unit's own form: restoring the header makes it good


def test_wrong_branch_token(tmp_path):
    t = tournament()
    reg, issues = read(tmp_path, [person("象棋", "王军")], t=t, token=t.token("b2"))
    assert codes(issues) == ["WRONG_BRANCH"] and not reg.usable and reg.foreign


def test_unknown_branch(tmp_path):
    reg, issues = read(tmp_path, [person("象棋", "王军")], branch="zz")
    assert codes(issues) == ["UNKNOWN_BRANCH"] and issues[0].branch == "" and reg.foreign


def test_R2016_Q2_pickup_points(tmp_path):
    t = tournament(pickup_points=["福建路、花园路", "镇江", "桥头", "自行到达"])
    reg, issues = read(tmp_path, [person("象棋", "王军", 乘车地点="花园路"), person("象棋", "李四", 乘车地点="火星"),
                                  person("跳棋", "赵六")], t=t)
    assert reg.rows[0].pickup == "福建路、花园路"
    assert [(i.code, i.cell) for i in issues] == [("BAD_VALUE", "H6"), ("MISSING_VALUE", "H7")]
    assert pickup_match("镇 江", ["镇江"]) == "镇江"


def test_R2016_Q2_a_blank_or_unknown_pick_up_point_is_a_warning_and_the_row_stands(tmp_path):
    """The bus is no condition of entry (R2016-Q2 asks for a manifest of riders): a blank or
    unknown 乘车地点 was an error that refused the player — for good after the deadline."""
    t = tournament(pickup_points=["福建路、花园路", "镇江", "桥头", "自行到达"])
    reg, issues = read(tmp_path, [person("象棋", "王军", 乘车地点="花园路"), person("象棋", "李四", 乘车地点="火星"),
                                  person("跳棋", "赵六")], t=t, meta={"pickup_points": "福建路、花园路、镇江、桥头、自行到达"})
    assert [(r.name, r.ok, r.pickup) for r in reg.rows] == [("王军", True, "福建路、花园路"), ("李四", True, ""),
                                                           ("赵六", True, "")]
    assert [(i.code, i.severity.value, i.cell) for i in issues] == [("BAD_VALUE", "warning", "H6"),
                                                                    ("MISSING_VALUE", "warning", "H7")]
    assert all("本行已受理" in i.message and "待确认" in i.message for i in issues)


def test_R2016_Q2_pickup_points_added_after_a_form_went_out(tmp_path):
    """Bus stops added to tournament.yaml after the forms went out: a form issued without
    them (its _meta says so, or — an older form — no row has a 乘车地点) is taken with one
    warning; every blank 乘车地点 was an error, and a running league lost all its entries."""
    t = tournament(pickup_points=["福建路、花园路", "镇江", "桥头", "自行到达"])
    rows = [person("象棋", "王军", 乘车地点="镇江"), person("象棋", "李四", 乘车地点="火星"), person("跳棋", "赵六")]
    reg, issues = read(tmp_path, rows, t=t, meta={"pickup_points": ""})
    assert [r.ok for r in reg.rows] == [True, True, True] and reg.rows[0].pickup == "镇江"
    assert [(i.code, i.severity.value, i.cell) for i in issues] == [
        ("HEADER_CHANGED", "warning", "H4"), ("BAD_VALUE", "warning", "H6")]
    assert "增设班车之前" in issues[0].message
    # an older form (no record in _meta) whose 乘车地点 are all blank: the same
    reg, issues = read(tmp_path, [person("象棋", "王军"), person("跳棋", "赵六")], t=t)
    assert [r.ok for r in reg.rows] == [True, True] and [i.code for i in issues] == ["HEADER_CHANGED"]
    # an older form issued with the stops (its header block lists them) whose 乘车地点 the
    # captain left blank: not a form from before the stops, each blank said (a warning: the
    # row stands, R2016-Q2)
    import openpyxl
    path = write_registration(tmp_path / "old.xlsx", t, "b1", [person("象棋", "王军")])
    wb = openpyxl.load_workbook(path)
    wb["报名表"]["A3"] = "乘车地点：福建路、花园路、镇江、桥头、自行到达（在表中下拉选择）"
    wb.save(path)
    reg, issues = read_registration(read_workbook(path), "old.xlsx", t)
    assert [(i.code, i.severity.value) for i in issues] == [("MISSING_VALUE", "warning")] and reg.rows[0].ok
    # a form issued with the stops: a blank 乘车地点 is said on its cell
    reg, issues = read(tmp_path, [person("象棋", "王军")], t=t, meta={"pickup_points": "镇江、桥头"})
    assert [(i.code, i.severity.value, i.cell) for i in issues] == [("MISSING_VALUE", "warning", "H5")]
    assert reg.rows[0].ok


def test_result_rows_reader(tmp_path):
    import openpyxl
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "成绩"
    ws.append(["象棋 第1轮 成绩表"])
    ws.append(["轮次", "组别", "桌号", "甲方", "乙方", "结果"])
    ws.append([1, "", 1, "王军", "李四", "甲胜"])
    ws.append([1, "", 2, "赵六", "钱七", None])
    m = wb.create_sheet("_meta")
    m.append(["kind", "result"])
    wb.save(tmp_path / "r.xlsx")
    meta, rows = read_result_rows(read_workbook(tmp_path / "r.xlsx"), ["轮次", "组别", "桌号", "甲方", "乙方", "结果"])
    assert meta == {"kind": "result"}
    (n1, v1, c1), (n2, v2, _) = rows
    assert n1 == 3 and v1["结果"] == "甲胜" and str(c1["结果"]) == "成绩!F3" and v2["结果"] is None


def test_a_filled_copy_of_the_form_sheet_is_said_and_an_emptied_form_replaces_nothing(tmp_path):
    """A captain copies 报名表 to 报名表 (2) and fills the copy: we read only 报名表.  With
    报名表 emptied the file is not usable (it must not replace the branch's last form);
    with both filled, a warning names the copy."""
    import openpyxl

    t = tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", [person("象棋", "王军", "001"), person("象棋", "李强", "002")])
    wb = openpyxl.load_workbook(p)
    wb.copy_worksheet(wb["报名表"]).title = "报名表 (2)"
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    assert reg.usable and len(reg.rows) == 2
    (w,) = [i for i in issues if i.sheet == "报名表 (2)"]
    assert w.severity == "warning" and "也有 2 人的报名，未读取" in w.message
    for row in wb["报名表"].iter_rows(min_row=5):
        for c in row:
            c.value = None
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    assert not reg.usable and "TEMPLATE_MISMATCH" in codes(issues)
    assert any("报名填在了工作表“报名表 (2)”（2 人）" in i.message for i in issues)


def test_a_header_pushed_down_by_inserted_rows_is_still_found(tmp_path):
    """A captain inserted 25 rows above the table (header at row 29 → 34): it was
    "找不到表头" although nothing in the header had changed."""
    import openpyxl

    t = tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", [person("象棋", "王军", "001")])
    wb = openpyxl.load_workbook(p)
    wb["报名表"].insert_rows(2, 30)
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    assert issues == [] and [r.name for r in reg.rows] == ["王军"] and reg.rows[0].row == 35


def test_a_pairs_project_and_team_number_merged_over_its_rows(tmp_path):
    """A captain merged the 项目 and 队号 cells of each pair's two rows: the second row of
    each pair had neither (MISSING_VALUE, and the pair counted as two entries)."""
    import openpyxl

    t = tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, "b1",
                           [person("双升", "甲", team=1), person("双升", "乙", team=1),
                            person("双升", "丙", team=2), person("双升", "丁", team=2)])
    wb = openpyxl.load_workbook(p)
    ws = wb["报名表"]
    hdr = next(r for r in range(1, 30) if any(c.value == "队号" for c in ws[r]))
    cols = {c.value: c.column_letter for c in ws[hdr] if c.value}
    for first in (hdr + 1, hdr + 3):
        for label in ("项目", "队号"):
            ws[f"{cols[label]}{first + 1}"] = None
            ws.merge_cells(f"{cols[label]}{first}:{cols[label]}{first + 1 + (first == hdr + 3)}")
    ws[f"{cols['序号']}{hdr + 5}"] = 5     # the template numbers its blank rows too,
    ws[f"{cols['备注']}{hdr + 5}"] = "另一队待定"   # and a note on a blank row is no person
    wb.save(p)                          # the second merge reaches that blank row below the table
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    # the note's row is no person, and the merge made it none: a row with only its note (one
    # warning at the note, not 项目 and 姓名 missing)
    assert sorted((i.code, i.cell, i.severity.value) for i in issues) == [("BAD_VALUE", f"{cols['备注']}{hdr + 5}", "warning")]
    assert [(r.name, r.event, r.team_no) for r in reg.rows if r.name] == [
        ("甲", "shuangsheng", "1"), ("乙", "shuangsheng", "1"), ("丙", "shuangsheng", "2"), ("丁", "shuangsheng", "2")]
    assert all(not r.event for r in reg.rows if not r.name)      # not made a 双升 row by the merge


def test_an_error_value_in_a_column_no_entry_is_made_from_is_a_warning(tmp_path):
    """序号 numbered by ``=A13+1`` broken by a deleted row (#REF!), a lookup in 备注 that
    found nothing (#N/A): the person was refused, and a pair's partner with them.  The row
    is read now, with a warning on the cell; an empty row whose lookup errs says nothing."""
    from pipeline.model import Severity

    import openpyxl

    t = tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", [person("象棋", "王军", "001"),
                                                             person("象棋", "李四", "002", 备注="#N/A"),
                                                             {"备注": "#N/A"},
                                                             person("象棋", "赵六", "003", 性别="#VALUE!")])
    wb = openpyxl.load_workbook(p)
    wb["报名表"]["A5"] = "#REF!"
    wb["报名表"]["A7"] = None
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    # (性别 too: a wrong 性别 is a warning and the row stands — see the test below)
    assert [(r.name, r.ok) for r in reg.rows] == [("王军", True), ("李四", True), ("赵六", True)]
    warned = [i.cell for i in issues if i.severity == Severity.WARNING]
    assert warned == [reg.rows[0].cells["序号"], reg.rows[1].cells["备注"], reg.rows[2].cells["性别"]], warned
    assert all("不影响报名" in i.message for i in issues if i.severity == Severity.WARNING and i.cell[0] != "F")
    assert not [i for i in issues if i.severity == Severity.ERROR]


def test_a_lookup_error_in_staff_number_or_gender_is_a_warning_and_the_row_stands(tmp_path):
    """A VLOOKUP that found nothing (#N/A, its result saved) in 工号 or 性别 refused the person
    (an error), while in 联系电话 it was a warning — and a wrong 工号 or 性别 is only a warning
    (the handbook: the row stands, 工号 read as not filled in).  Now a warning at the cell,
    the value blank, the row taken; a pair's partner keeps their entry."""
    reg, issues = read(tmp_path, [person("象棋", "王军", "#N/A", 性别="男"),
                                  person("象棋", "李四", "002", 性别="#N/A"),
                                  person("象棋", "赵六", "#DIV/0!", 性别="#N/A")])
    assert [(r.name, r.ok, r.staff_id, r.gender) for r in reg.rows] == [
        ("王军", True, "", "男"), ("李四", True, "002", ""), ("赵六", True, "", "")]
    assert {(i.code, i.severity) for i in issues} == {("BAD_VALUE", Severity.WARNING)}
    assert sorted(i.cell for i in issues) == ["E5", "E7", "F6", "F7"]
    assert all("公式错误" in i.message and "本行已受理" in i.message for i in issues)


def _two_people_with(tmp_path, cells: dict[str, str]):
    """The reading of a form of two 象棋 players (rows 5, 6: 王军 001, 李四 002) with ``cells``
    of its 报名表 set as Excel leaves them (e.g. ``{"D7": "#N/A"}``)."""
    import openpyxl

    t = tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", [person("象棋", "王军", "001"), person("象棋", "李四", "002")])
    wb = openpyxl.load_workbook(p)
    for ref, value in cells.items():
        wb["报名表"][ref] = value
    wb.save(p)
    return read_registration(read_workbook(p), "reg.xlsx", t)


def test_a_lookup_filled_down_over_empty_rows_says_nothing_of_them(tmp_path):
    """A lookup in 工号/性别 filled down the column past the people (E20:E69 all #N/A): each
    empty row was three errors (项目、姓名 not filled in, 工号 a formula error) — 150 for a
    form with nothing wrong.  A row holding nothing but such errors is an unused row."""
    reg, issues = _two_people_with(tmp_path, {f"{c}{r}": "#N/A" for r in range(7, 40) for c in "EF"})
    assert [(r.name, r.ok) for r in reg.rows] == [("王军", True), ("李四", True)]
    assert issues == [], [i.message for i in issues]


def test_a_name_has_a_letter_and_no_note_in_brackets(tmp_path):
    """"?" and "—" were taken as people, and 吕宁桂（队长） printed so on the certificate."""
    reg, issues = read(tmp_path, [person("象棋", "?", "1"), person("象棋", "—", "2"), person("象棋", "吕宁桂（队长）", "3"),
                                  person("象棋", "买买提·艾力", "4"), person("象棋", "John Smith", "5")])
    bad = {i.cell: i.message for i in issues}
    assert set(bad) == {"D5", "D6", "D7"} and "不像姓名" in bad["D5"] and "不像姓名" in bad["D6"]
    assert "备注" in bad["D7"]
    assert [r.name for r in reg.rows if r.ok] == ["买买提·艾力", "JohnSmith"] or \
        [r.display_name for r in reg.rows if r.ok] == ["买买提·艾力", "John Smith"]


def test_a_template_version_that_is_no_number_is_an_old_template(tmp_path):
    """_meta's version 1e999 (a float of no int) raised OverflowError: the captain was told the
    file could not be read, with no unit."""
    reg, issues = read(tmp_path, [person("象棋", "王军", "001")], meta={"template_version": "1e999"})
    assert reg.branch == "b1" and [i.code for i in issues] == ["TEMPLATE_MISMATCH"] and "旧版" in issues[0].message, issues


def test_a_staff_number_longer_than_excel_keeps_is_said(tmp_path):
    """110105199001011234 typed into a number cell is kept by Excel as …1200: it was stored
    altered without a word.  A warning says so; the row stands under the number as read (工号
    is optional, and a league under way keeps its entry)."""
    from pipeline.model import Severity

    reg, issues = read(tmp_path, [person("象棋", "王军", 110105199001011234), person("象棋", "李四", "110105199001011234"),
                                  person("象棋", "赵六", 19390926685)])
    (w,) = issues
    assert w.cell == "E5" and w.severity == Severity.WARNING and "15 位" in w.message and "文本" in w.message
    assert all(r.ok for r in reg.rows) and reg.rows[0].staff_id.startswith("1101051990010112")


def test_a_form_issued_for_a_unit_id_since_removed_tells_the_office(tmp_path):
    """A form we issued for unit zz (its token fits) whose id the office has since changed
    in tournament.yaml: the captain was told to use the issued form — which they had."""
    t = tournament()
    _, issues = read(tmp_path, [person("象棋", "王军")], t=t, branch="zz", token=t.token("zz"))
    assert codes(issues) == ["UNKNOWN_BRANCH"]
    assert "校验码相符" in issues[0].message and "请改回 zz" in issues[0].message


def _formatted(p, formats):
    """Re-save the form at ``p`` with number formats: A1 cell → (value, format)."""
    import openpyxl

    wb = openpyxl.load_workbook(p)
    for ref, (value, fmt) in formats.items():
        wb["报名表"][ref].value = value
        wb["报名表"][ref].number_format = fmt
    wb.save(p)
    return p


def test_a_staff_number_in_a_zero_padded_number_cell_is_read_as_shown(tmp_path, monkeypatch):
    """A phone number typed into a cell formatted 000000000000 is read as Excel shows it, on
    either reader (calamine, and openpyxl's stream for a sheet too large for a dense read); a
    number longer than its format, a text and a plain number stay as typed.  A 工号 typed as
    1234 into a 000000 cell stays 1234: entries' ids are made from it (a league upgraded in
    mid-season split one person into the published draw's entry and a new one), and it is
    one person with the 001234 typed as text anyway (staff_key)."""
    from pipeline.validate.checks import staff_key

    from pipeline.ingest import workbook as W

    t = tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", [person("象棋", "王军"), person("象棋", "李四"),
                                                             person("跳棋", "赵六"), person("跳棋", "钱七", 56)])
    _formatted(p, {"E5": (1234, "000000"), "G5": (51265432100, "000000000000"),
                   "E6": (12345678, "000000"), "E7": ("12", "000000"), "G6": (13812345678, "0")})
    streamed = []
    stream = W._read_streaming
    monkeypatch.setattr(W, "_read_streaming", lambda data, sheets, heavy, *a: streamed.extend(heavy) or
                        stream(data, sheets, heavy, *a))
    for heavy in (False, True):
        if heavy:
            monkeypatch.setattr(W, "MAX_DENSE_CELLS", 10)     # the form read by the stream
        reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
        assert ("报名表" in streamed) == heavy
        rows = {r.name: r for r in reg.rows}
        assert (rows["王军"].staff_id, rows["王军"].phone) == ("1234", "051265432100"), heavy
        assert staff_key(rows["王军"].staff_id) == staff_key("001234")
        assert (rows["李四"].staff_id, rows["李四"].phone) == ("12345678", "13812345678")
        assert rows["赵六"].staff_id == "12" and rows["钱七"].staff_id == "56"


def test_a_formula_without_a_saved_value_says_what_to_change(tmp_path):
    """A form saved by a program that computes no formulas (=E6 in 工号, no value kept): the
    message was “工号”是公式错误或未计算的公式（未计算的公式）— not what to do.  (A warning:
    工号 is read as not filled in and the row stands, as for any wrong 工号.)"""
    from pipeline.model import Severity

    reg, issues = read(tmp_path, [person("象棋", "王军", "=E6"), person("象棋", "李四", "002")])
    (i,) = issues
    assert (i.code, i.cell, i.severity, reg.rows[0].ok, reg.rows[0].staff_id) == ("BAD_VALUE", "E5", Severity.WARNING, True, "")
    assert i.message.startswith("报名表!E5 “工号”是公式，但文件里没有保存它的计算结果") and "在 Excel 或 WPS 中打开后保存" in i.message


def test_a_formula_without_a_saved_value_in_an_unused_column_says_what_to_change(tmp_path):
    """序号 numbered =A4+1 in a form saved without computing it: a warning (the row stands)
    that said “序号”是公式错误（未计算的公式）."""
    from pipeline.model import Severity

    reg, issues = read(tmp_path, [person("象棋", "王军", "001", 备注="=A4")])
    (w,) = issues
    assert w.severity == Severity.WARNING and reg.rows[0].ok and w.cell == reg.rows[0].cells["备注"]
    assert "没有保存它的计算结果" in w.message and "打开后保存" in w.message and "不影响报名" in w.message, w.message


def test_a_staff_number_that_says_none_is_read_as_none(tmp_path):
    """The 工号 column is optional; captains write "-", "/", "0", "000000" or 无 for "none".
    Read as a number, every "-" was one person (DUPLICATE_PERSON, the rows refused), and 无 was
    an error that refused the row: each is now no number, with a warning at the cell."""
    from pipeline.model import Severity

    typed = ["-", "－", "/", 0, "000000", "无", "不详", "N/A"]
    names = ["王军", "李明", "张伟", "刘洋", "陈静", "杨帆", "赵磊", "黄丽"]
    reg, issues = read(tmp_path, [person("象棋", n, v) for n, v in zip(names, typed)] + [person("跳棋", "李四", "0012")])
    assert [r.staff_id for r in reg.rows] == [""] * len(typed) + ["0012"]
    assert all(r.ok for r in reg.rows)
    assert [(i.cell, i.severity) for i in issues] == [(f"E{5 + n}", Severity.WARNING) for n in range(len(typed))]
    assert all("不是工号，已按未填写处理" in i.message for i in issues), issues


def test_a_date_in_a_team_number_is_refused_at_its_cell(tmp_path):
    """A date pasted into 队号 was taken as the team number: the team was printed as
    交通2020-01-01队.  It is BAD_VALUE at the 队号 cell."""
    import openpyxl

    t = tournament()
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", [person("双升", "甲", team=1), person("双升", "乙", team=1)])
    wb = openpyxl.load_workbook(p)
    ws = wb["报名表"]
    hdr = next(r for r in range(1, 30) if any(c.value == "队号" for c in ws[r]))
    col = next(c.column_letter for c in ws[hdr] if c.value == "队号")
    ws[f"{col}{hdr + 1}"] = dt.datetime(2020, 1, 1)
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    assert [(i.code, i.cell) for i in issues if i.severity.value == "error"] == [("BAD_VALUE", f"{col}{hdr + 1}")]
    assert "不是队号" in issues[0].message


def test_an_event_named_with_a_dot_is_found_as_the_form_writes_it(tmp_path):
    """Names are read with every name dot as ·: an event named 五.一杯象棋 or 扑克牌•掼蛋,
    picked from the form's own list, must still be that event (not UNKNOWN_EVENT on
    every row)."""
    for name in ("五.一杯象棋", "扑克牌•掼蛋"):
        t = tournament(events=[{"id": "xq", "name": name, "game": "xiangqi", "format": {"type": "knockout"}}])
        reg, issues = read(tmp_path, [person(name, "甲", "001"), person(name, "乙", "002")], t=t)
        assert [r.event for r in reg.rows] == ["xq", "xq"] and not [i for i in issues if i.code == "UNKNOWN_EVENT"]


def _with_headers(path, **new):
    """The form at ``path`` with header labels replaced (label → new text; None blanks it)."""
    import openpyxl

    wb = openpyxl.load_workbook(path)
    ws = wb["报名表"]
    for c in ws[4]:
        if c.value in new:
            c.value = new[c.value]
    wb.save(path)
    return path


def test_a_header_with_a_bracketed_note_or_in_traditional_script_is_still_its_column(tmp_path):
    """A captain's 姓名（必填） refused the whole form as TEMPLATE_MISMATCH (找不到表头“姓名”),
    and WPS 简转繁 (項目, 隊號, 工號) the whole form of a Traditional league's unit."""
    t = tournament()
    rows = [person("象棋", "王军", "1001", 性别="男"), person("双升", "李四", "1002", 1), person("双升", "赵六", "1003", 1)]
    for i, new in enumerate([{"姓名": "姓名（必填）", "项目": "项目(必填)*", "工号": "工号【选填】"},
                             {"项目": "項目", "队号": "隊號", "工号": "工號", "性别": "性別", "联系电话": "聯繫電話"}]):
        p = _with_headers(write_registration(tmp_path / f"reg{i}.xlsx", t, "b1", rows), **new)
        reg, issues = read_registration(read_workbook(p), p.name, t)
        assert reg.usable and issues == [], issues
        assert [(r.event, r.name, r.staff_id, r.team_no) for r in reg.rows] == [
            ("xiangqi", "王军", "1001", ""), ("shuangsheng", "李四", "1002", "1"), ("shuangsheng", "赵六", "1003", "1")]
        assert reg.rows[0].gender == "男" and reg.rows[0].cells["姓名"] == "D5"


def test_a_header_as_written_wins_over_one_with_a_note(tmp_path):
    from pipeline.ingest.workbook import find_table

    t = find_table([["姓名（签名）", "项目", "姓名"], ["王", "象棋", "王军"]], ["项目", "姓名"])
    assert t.columns["姓名"] == 3


def test_a_changed_header_is_said_at_its_cell_and_marked_in_the_returned_copy(tmp_path):
    """姓名 typed over as 参赛人: the refusal named no sheet and no cell, the returned copy
    listed it as （整个文件） and marked nothing."""
    import openpyxl

    from pipeline.xlsx.returned import write_returned_copy

    t = tournament()
    p = _with_headers(write_registration(tmp_path / "reg.xlsx", t, "b1", [person("象棋", "王军")]), 姓名="参赛人")
    reg, issues = read_registration(read_workbook(p), "reg.xlsx", t)
    (i,) = issues
    assert i.code == "TEMPLATE_MISMATCH" and (i.sheet, i.cell) == ("报名表", "D4") and not reg.usable
    assert i.message.startswith("报名表!D4 表头改成了“参赛人”，请改回“姓名”")
    out = write_returned_copy(p, issues, tmp_path / "back.xlsx")
    cell = openpyxl.load_workbook(out)["报名表"]["D4"]
    assert cell.comment is not None and "请改回“姓名”" in cell.comment.text
    # deleted outright: said at the blank cell where it belongs
    p = _with_headers(write_registration(tmp_path / "reg2.xlsx", t, "b1", [person("象棋", "王军")]), 项目=None)
    (i,) = read_registration(read_workbook(p), "reg2.xlsx", t)[1]
    assert i.cell == "B4" and "表头“项目”被删除了" in i.message


def test_result_sheet_headers_take_the_same_leniency(tmp_path):
    """The result readers find their header row by the same reader: a referee's 桌號 (WPS
    简转繁) or 结果（甲胜/乙胜） is that column; a header typed over is told at its cell."""
    import openpyxl
    import pytest

    from pipeline.ingest.registration import read_sheet_rows
    from pipeline.ingest.sheets import read_results
    from pipeline.ingest.workbook import TableNotFound

    labels = ["轮次", "组别", "桌号", "甲方", "乙方", "结果"]
    for name, header in (("a", ["輪次", "組別", "桌號", "甲方", "乙方", "结果（甲胜/乙胜/和棋）"]),
                         ("b", ["轮次", "组别", "桌号", "甲方", "乙方", "胜负"])):
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = "成绩"
        ws.append(["象棋 第1轮 成绩表"])
        ws.append(header)
        ws.append([1, "", 1, "王军", "李四", "甲胜"])
        wb.save(tmp_path / f"{name}.xlsx")
    _, rows = read_result_rows(read_workbook(tmp_path / "a.xlsx"), labels)
    ((n, v, c),) = rows
    assert v["桌号"] == 1 and v["结果"] == "甲胜" and str(c["结果"]) == "成绩!F3"
    with pytest.raises(TableNotFound) as e:
        read_sheet_rows(read_workbook(tmp_path / "b.xlsx"), "成绩", labels, labels)
    assert e.value.missing == ["结果"] and e.value.cell("结果") == "F2"
    _, (bad,) = read_results(read_workbook(tmp_path / "b.xlsx"), "b.xlsx", labels, labels)
    assert bad.code == "TEMPLATE_MISMATCH" and (bad.sheet, bad.cell) == ("成绩", "F2")
    assert "F2 的表头改成了“胜负”，请改回“结果”" in bad.message


def test_a_leading_apostrophe_typed_into_a_text_cell_is_no_part_of_the_value(tmp_path):
    """In the form's text cells Excel keeps a typed ' as a character: '严艳英 was registered
    (and printed) with it, '跳棋 was UNKNOWN_EVENT."""
    reg, issues = read(tmp_path, [person("'跳棋", "'严艳英", "'1001", 性别="'女"),
                                  person("双升", " '李四", "1002", "'1"), person("双升", "赵六", "1003", 1)])
    assert issues == [], issues
    assert [(r.event, r.name, r.display_name, r.staff_id, r.team_no) for r in reg.rows] == [
        ("checkers", "严艳英", "严艳英", "1001", ""), ("shuangsheng", "李四", "李四", "1002", "1"),
        ("shuangsheng", "赵六", "赵六", "1003", "1")]
    assert reg.rows[0].gender == "女"


def test_another_leagues_form_is_named_by_the_title_it_prints(tmp_path):
    """A form of another league is named by the title its captain sees on it (and its id): the
    id alone — 比赛“t2015-tcm”的报名表 — told a captain nothing (an audit)."""
    import email
    import email.policy
    from pathlib import Path

    from pipeline.ingest.workbook import read_workbook_bytes
    from pipeline.spec import load_tournament

    root = Path(__file__).resolve().parents[2] / "sample_sheets"
    msg = email.message_from_bytes((root / "t2015-tcm" / "inbox" / "1027-t05-报名表.eml").read_bytes(),
                                   policy=email.policy.default)
    data = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx")).get_content()
    t = load_tournament(root / "t2020-league", cache_parent=tmp_path)
    _, issues = read_registration(read_workbook_bytes(data, "机关.xlsx"), "机关.xlsx", t)
    (said,) = [i.message for i in issues if i.code == "TEMPLATE_MISMATCH"]
    assert "是比赛“2015年教職工棋牌比賽”（编号 t2015-tcm）的报名表" in said, said


def test_a_form_of_this_leagues_name_with_another_id_is_named_by_its_id(tmp_path):
    """A form whose printed title is this league's own name (in the other script, even) but
    whose id differs — the league's id changed: named by the id, not as 比赛“2015年教職工棋牌比賽”
    …不是本次比赛（2015年教职工棋牌比赛） (a review)."""
    import dataclasses
    import email
    import email.policy
    from pathlib import Path

    from pipeline.ingest.workbook import read_workbook_bytes
    from pipeline.spec import load_tournament

    root = Path(__file__).resolve().parents[2] / "sample_sheets"
    msg = email.message_from_bytes((root / "t2015-tcm" / "inbox" / "1027-t05-报名表.eml").read_bytes(),
                                   policy=email.policy.default)
    data = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx")).get_content()
    t = load_tournament(root / "t2015-tcm", cache_parent=tmp_path)
    t.spec = dataclasses.replace(t.spec, id="t2015-new")
    # (with this folder's secret it was issued here under the former id: TOURNAMENT_ID_MISMATCH,
    # the office's matter — named by its id all the same, its own title not repeated)
    _, issues = read_registration(read_workbook_bytes(data, "机关.xlsx"), "机关.xlsx", t)
    (said,) = [i.message for i in issues if i.code == "TOURNAMENT_ID_MISMATCH"]
    assert "以赛事编号“t2015-tcm”下发" in said and "教職工" not in said, said
    t.secret = b"another league's secret key"
    _, issues = read_registration(read_workbook_bytes(data, "机关.xlsx"), "机关.xlsx", t)
    (said,) = [i.message for i in issues if i.code == "TEMPLATE_MISMATCH"]
    assert "是比赛“t2015-tcm”的报名表" in said, said


def _form_with(tmp_path, t, people, extra):
    """A b1 form of ``people`` with ``extra`` written under it: (row offset below the last
    person, column label or letter, value); ``("merge", offset, "B", "I")`` merges a row's cells."""
    import openpyxl

    p = write_registration(tmp_path / "reg.xlsx", t, "b1", people)
    wb = openpyxl.load_workbook(p)
    ws = wb["报名表"]
    hdr = next(r for r in range(1, 30) if any(c.value == "姓名" for c in ws[r]))
    cols = {c.value: c.column_letter for c in ws[hdr] if c.value}
    last = hdr + len(people)
    for item in extra:
        if item[0] == "merge":
            _, off, a, b = item
            ws.merge_cells(f"{a}{last + off}:{b}{last + off}")
            continue
        off, col, v = item
        ws[f"{cols.get(col, col)}{last + off}"] = v
    wb.save(p)
    return read_registration(read_workbook(p), "reg.xlsx", t), hdr, cols


def test_a_signature_or_total_line_under_the_table_is_no_entry(tmp_path):
    """填表人：庞雪平 / 合计：10人 / 分工会主席签字： / 以上名单已经分工会主席审核 typed under the table: each was read as an
    entry with two errors (“填表人：庞雪平”不是本次比赛的项目 + 姓名未填写; 合计 with 10 under 姓名:
    “10”不是姓名 + 项目未填写) — the unit 需修改, and after the deadline told its form was not
    entered although every person was.  Now such a line is no entry: one note at it, why."""
    t = tournament()
    people = [person("象棋", "王军", "1001"), person("跳棋", "李四", "1002")]
    (reg, issues), hdr, cols = _form_with(tmp_path, t, people, [
        (1, "项目", "填表人：庞雪平"), (1, "性别", "日期：2020.11.5"),
        (2, "序号", "合计"), (2, "姓名", 10),
        (3, "项目", "合计：10人"),
        (4, "项目", "分工会主席签字："), (4, "性别", "日期：2020年11月5日"),
        (5, "项目", "填表人：庞雪平    联系电话：13800000000    日期：2020年11月5日"), ("merge", 5, "B", "I"),
        (6, "项目", "审核人: 张主席"), (6, "姓名", "（盖章）"),
        (7, "姓名", "以上名单已经分工会主席审核"),
    ])
    assert [r.name for r in reg.rows] == ["王军", "李四"] and all(r.ok for r in reg.rows)
    assert not [i for i in issues if i.severity is not Severity.INFO], [i.message for i in issues]
    last = hdr + len(people)
    # at most one note a line, at the line
    assert sorted(int("".join(ch for ch in i.cell if ch.isdigit())) for i in issues) == [last + k for k in range(1, 8)]
    assert "填表人：庞雪平" in issues[0].message and "不是报名" in issues[0].message


def test_a_real_entry_with_a_contact_note_is_still_an_entry(tmp_path):
    """A line with an event and a name is an entry whatever its 备注 says (联系人：张三), and a
    line that names no event but a person (合计 is no name) is still a line asking for its event."""
    t = tournament()
    (reg, issues), _, _ = _form_with(tmp_path, t, [person("象棋", "王军", "1001")], [
        (1, "项目", "象棋"), (1, "姓名", "李四"), (1, "备注", "联系人：张三"),
        (2, "姓名", "赵六"), (2, "备注", "日期：11月5日报名"),
    ])
    assert [(r.name, r.event, r.ok) for r in reg.rows] == [("王军", "xiangqi", True), ("李四", "xiangqi", True),
                                                         ("赵六", "", False)]
    assert codes(issues) == ["MISSING_VALUE"]


@pytest.mark.parametrize("extra", [
    [(1, "项目", "像棋"), (1, "姓名", "李四（电话：13800000001）"), (1, "工号", "1002")],
    [(1, "姓名", "李四 电话:13800000001"), (1, "工号", "1002")],
    [(1, "姓名", "李四（联系人）"), (1, "工号", "1002"), (1, "备注", "联系电话：13800000001")],
], ids=["event-typo-phone-in-name", "no-event-phone-in-name", "no-event-contact-mark"])
def test_a_name_with_a_phone_or_contact_note_and_a_wrong_event_is_still_an_entry(tmp_path, extra):
    """李四（电话：13800000001） under 姓名 with the event mistyped (像棋) or blank, and some
    cell reading “X：”: the line was dropped as a sign-off line (“无需修改”) because 电话 or
    联系人 was in the name cell — a person silently not entered.  A name cell holding a
    name and a note is an entry, with its errors for the captain to fix; only a name cell
    that is itself the label (填表人：…, 合计) — or blank, a number — makes a sign-off line."""
    t = tournament()
    (reg, issues), _, _ = _form_with(tmp_path, t, [person("象棋", "王军", "1001")], extra)
    assert len(reg.rows) == 2 and reg.rows[1].name.startswith("李四") and not reg.rows[1].ok
    assert {"UNKNOWN_EVENT", "MISSING_VALUE"} & set(codes(issues)), [i.message for i in issues]
    assert not [i for i in issues if "落款" in i.message]


def test_a_name_cell_that_is_the_label_makes_a_sign_off_line(tmp_path):
    """The name cell itself the label — 联系人：张三, 合计10人, 分工会主席签字： — with no event:
    still no entry, one note (the line under the table is no person)."""
    t = tournament()
    (reg, issues), hdr, _ = _form_with(tmp_path, t, [person("象棋", "王军", "1001")], [
        (1, "姓名", "联系人：张三"), (1, "联系电话", "13800000001"),
        (2, "姓名", "合计1人"),
        (3, "姓名", "分工会主席签字："),
    ])
    assert [r.name for r in reg.rows] == ["王军"]
    assert [i.severity for i in issues] == [Severity.INFO] * 3 and all("落款" in i.message for i in issues)


def test_a_repeated_header_row_is_no_entry(tmp_path):
    """The header row copied under the table (a second list pasted with its header): it was
    read as an entry — “项目”不是本次比赛的项目, and 工号, 性别, 联系电话 not valid.  Now it
    is no entry, one note; the people under it are read."""
    t = tournament()
    header = [(1, lab, lab) for lab in ("序号", "项目", "队号", "姓名", "工号", "性别", "联系电话", "备注")]
    (reg, issues), hdr, cols = _form_with(tmp_path, t, [person("象棋", "王军", "1001")], [
        *header, (2, "项目", "跳棋"), (2, "姓名", "李四"), (2, "工号", "1002"),
    ])
    assert [(r.name, r.event) for r in reg.rows] == [("王军", "xiangqi"), ("李四", "checkers")]
    assert [(i.severity, i.cell) for i in issues] == [(Severity.INFO, f"{cols['项目']}{hdr + 2}")]
    assert "表头" in issues[0].message


def _subs_issues(issues):
    return [i for i in issues if "替补" in i.message and i.severity is Severity.WARNING]


def test_a_substitutes_list_under_the_table_is_not_entered(tmp_path):
    """替补名单 merged across a line under the table, then 象棋 王五 and a 双升 player with the
    pair's 队号: each was read as an entry (象棋 over its quota, QUOTA_EXCEEDED on the real
    entries too; a third member of 双升 team 1).  The league has no substitutes (handbook:
    比赛不设替补): the heading is no entry (one note), every line under it is not entered, a
    located warning at its 姓名 cell; the pair and the quota stand as the list above says."""
    import openpyxl

    from pipeline.validate import validate_registrations
    from pipeline.xlsx.returned import FILLS, write_returned_copy

    from .builders import T0

    t = tournament()
    people = [person("象棋", "王军", "1001"), person("象棋", "李四", "1002"),
              person("双升", "戊", "1005", team=1), person("双升", "己", "1006", team=1)]
    (reg, issues), hdr, cols = _form_with(tmp_path, t, people, [
        (1, "序号", "替补名单"), ("merge", 1, "A", "I"),
        (2, "项目", "象棋"), (2, "姓名", "王五"), (2, "工号", "1003"),
        (3, "项目", "双升"), (3, "队号", 1), (3, "姓名", "庚"), (3, "工号", "1007"),
        (4, "项目", "斗地主"), (4, "姓名", "赵六"), (4, "备注", "候补"),
    ])
    assert [r.name for r in reg.rows] == ["王军", "李四", "戊", "己"] and all(r.ok for r in reg.rows)
    assert not [i for i in issues if i.severity is Severity.ERROR], [i.message for i in issues]
    last = hdr + len(people)
    (head,) = [i for i in issues if i.severity is Severity.INFO]
    assert head.cell == f"A{last + 1}" and "替补名单" in head.message and head.code == "BAD_VALUE"
    subs = _subs_issues(issues)
    assert [(i.code, i.cell) for i in subs] == [("BAD_VALUE", f"{cols['姓名']}{last + k}") for k in (2, 3, 4)]
    assert subs[0].message == (f"报名表!{cols['姓名']}{last + 2} “王五”写在“替补名单”之下：本比赛不设替补，替补人员没有录入。"
                               "如果他/她是要报名的队员，请把这一行移到替补名单标题之上（或删去标题）后重新发送。")
    assert len(issues) == 4
    # the pair (队号 1) and the quota: as the list above the heading
    entries, checked = validate_registrations(t, [reg], now=T0)
    assert not [i for i in checked if i.code.startswith("QUOTA_EXCEEDED") or i.code.startswith("TEAM")
                or i.severity is Severity.ERROR], [i.message for i in checked]
    pair = next(e for e in entries if e.event == "shuangsheng")
    assert pair.player_names == "戊/己" and len([e for e in entries if e.event == "xiangqi"]) == 2
    # the returned copy marks each substitute's name cell (yellow) and the heading (blue)
    out = write_returned_copy(tmp_path / "reg.xlsx", issues, tmp_path / "back.xlsx")
    ws = openpyxl.load_workbook(out)["报名表"]
    yellow, blue = FILLS[Severity.WARNING].fgColor.rgb, FILLS[Severity.INFO].fgColor.rgb
    assert [ws[i.cell].fill.fgColor.rgb for i in subs] == [yellow] * 3
    assert ws[f"A{last + 1}"].fill.fgColor.rgb == blue and "不设替补" in ws[subs[0].cell].comment.text


@pytest.mark.parametrize("heading", [
    (1, "项目", "替补："), (1, "姓名", "替补队员"), (1, "序号", "候补队员"), (1, "项目", "预备队员"),
    (1, "序号", "替補名單"), (1, "项目", "候補隊員:"), (1, "项目", "替 补 名 单"), (1, "姓名", "（替补）"),
    (1, "序号", "【替补名单】"), (1, "项目", "替补队员名单："), (1, "项目", "以下为替补队员"),
], ids=lambda h: h[2])
def test_a_substitutes_heading_in_either_script_and_any_spacing(tmp_path, heading):
    """The heading as captains write it — in 序号, 项目 or 姓名, Traditional (替補名單),
    spaced, full-width, bracketed: the line under it (象棋 王五) is no entry."""
    t = tournament()
    (reg, issues), hdr, cols = _form_with(tmp_path, t, [person("象棋", "王军", "1001")], [
        heading, (2, "项目", "象棋"), (2, "姓名", "王五"),
    ])
    assert [r.name for r in reg.rows] == ["王军"]
    assert [i.severity for i in issues] == [Severity.INFO, Severity.WARNING], [i.message for i in issues]
    assert issues[1].cell == f"{cols['姓名']}{hdr + 3}" and "“王五”写在" in issues[1].message


def test_a_person_noted_as_substitute_is_no_heading(tmp_path):
    """Only a line naming no event and no person is a heading: 补某 with 备注 替补, 替补名单
    in 备注 alone, 替补 under 项目 beside a name — each line stands as it did, and the
    people under them are entries."""
    t = tournament()
    (reg, issues), hdr, cols = _form_with(tmp_path, t, [person("象棋", "王军", "1001")], [
        (1, "项目", "象棋"), (1, "姓名", "补某"), (1, "备注", "替补"),
        (2, "备注", "替补名单"),
        (3, "项目", "跳棋"), (3, "姓名", "王五"),
        (4, "项目", "替补"), (4, "姓名", "张三"),
        (5, "项目", "跳棋"), (5, "姓名", "赵六"),
    ])
    assert [(r.name, r.event) for r in reg.rows] == [("王军", "xiangqi"), ("补某", "xiangqi"), ("王五", "checkers"),
                                                    ("张三", ""), ("赵六", "checkers")]
    assert reg.rows[1].note == "替补"
    assert not [i for i in issues if "不设替补" in i.message]
    assert codes(issues) == ["BAD_VALUE", "UNKNOWN_EVENT"]    # the 备注-only line, 替补 as an event


def test_a_sign_off_line_under_the_substitutes_stays_a_note(tmp_path):
    """填表人 under the substitutes is the form's sign-off, not a substitute: its note as before;
    a blank line is nothing; a line with only an event under the heading is not entered either."""
    t = tournament()
    (reg, issues), hdr, cols = _form_with(tmp_path, t, [person("象棋", "王军", "1001")], [
        (1, "项目", "替补名单："), (2, "项目", "象棋"), (2, "姓名", "王五"),
        (4, "项目", "跳棋"),
        (5, "项目", "填表人：庞雪平"),
    ])
    assert [r.name for r in reg.rows] == ["王军"]
    last = hdr + 1
    assert [(i.severity, i.cell) for i in issues] == [
        (Severity.INFO, f"{cols['项目']}{last + 1}"), (Severity.WARNING, f"{cols['姓名']}{last + 2}"),
        (Severity.WARNING, f"{cols['姓名']}{last + 4}"), (Severity.INFO, f"{cols['项目']}{last + 5}")]
    assert "落款" in issues[3].message and "跳棋" in issues[2].message and "替补名单" in issues[2].message


def _s2t_form(tmp_path, t, people):
    """A b1 form of ``people`` with every text cell of 报名表 converted with OpenCC s2t, as
    WPS 简转繁 converts a whole sheet (header, events, names)."""
    import opencc
    import openpyxl

    cc = opencc.OpenCC("s2t")
    p = write_registration(tmp_path / "reg.xlsx", t, "b1", people)
    wb = openpyxl.load_workbook(p)
    for row in wb["报名表"].iter_rows():
        for c in row:
            if isinstance(c.value, str):
                c.value = cc.convert(c.value)
    wb.save(p)
    return read_registration(read_workbook(p), "reg.xlsx", t)


def test_names_of_a_form_converted_to_traditional_are_read_in_the_leagues_simplified(tmp_path):
    """WPS 简转繁 over the whole form of a Simplified league: the header and events were read
    (項目 → 项目), but the names were kept as 呂寧桂, 吳偉軍 — printed so on the draws, and
    another person than the 吕宁桂 of the unit's earlier form.  Now they are read back in the
    league's script, with a note (NAME_CONVERTED) saying so."""
    t = tournament()
    reg, issues = _s2t_form(tmp_path, t, [person("象棋", "吕宁桂", "1001"), person("跳棋", "吴伟军", "1002"),
                                          person("跳棋", "严艳英", "1003")])
    assert [(r.name, r.display_name, r.event) for r in reg.rows] == [
        ("吕宁桂", "吕宁桂", "xiangqi"), ("吴伟军", "吴伟军", "checkers"), ("严艳英", "严艳英", "checkers")]
    assert [(i.code, i.severity) for i in issues] == [("NAME_CONVERTED", Severity.INFO)]
    assert "呂寧桂" in issues[0].message and "吕宁桂" in issues[0].message


def test_a_converted_form_reads_the_surname_yu_back_as_the_common_one(tmp_path):
    """WPS 简转繁 writes 於 for 于 (于丽 → 於麗), 徵 for 征, 夥 for 伙: kept as 於 (as a
    character of GB 2312), a converted 于丽 was read as 於丽 — another person, on the
    certificate and against the unit's earlier form (from a review).  They go back to the
    common 于, 征, 伙, each said in the NAME_CONVERTED note; 乾 (干 converts to 幹) stays,
    Traditional-only characters are read back (呂寧 → 吕宁, 傑 → 杰)."""
    from pipeline.text import name_to_simplified

    t = tournament()
    reg, issues = _s2t_form(tmp_path, t, [person("象棋", "于丽", "1001"), person("跳棋", "吕宁桂", "1002"),
                                          person("跳棋", "谢军杰", "1003"), person("跳棋", "乾隆", "1004"),
                                          person("跳棋", "征明", "1005")])
    assert [r.name for r in reg.rows] == ["于丽", "吕宁桂", "谢军杰", "乾隆", "征明"]
    (note,) = [i.message for i in issues if i.code == "NAME_CONVERTED"]
    assert "“於麗”→“于丽”" in note
    assert [name_to_simplified(n) for n in ("於麗", "謝軍傑", "後明", "鍾明", "夥明")] == [
        "于丽", "谢军杰", "后明", "钟明", "伙明"]


def test_names_on_a_traditional_leagues_form_are_kept_as_typed(tmp_path):
    """A league printed in 繁體 (script: traditional, T2015) issues its form in Traditional:
    its names are never converted (to Simplified or otherwise), as typed."""
    t = tournament(script="traditional")
    reg, issues = _s2t_form(tmp_path, t, [person("象棋", "吕宁桂", "1001"), person("跳棋", "陈明", "1002")])
    assert [r.name for r in reg.rows] == ["呂寧桂", "陳明"] and issues == []
    reg, issues = read(tmp_path, [person("象棋", "呂寧桂", "1001"), person("跳棋", "陈明", "1002")],
                       t=tournament(script="traditional"))
    assert [r.name for r in reg.rows] == ["呂寧桂", "陈明"] and issues == []


@pytest.mark.parametrize("meta", [{"tournament_id": "other"}, {"kind": "results"}])
def test_template_mismatch_another_tournaments_form_gets_no_header_complaint(tmp_path, meta):
    """A form recognised as another tournament's (or as no registration form) is refused with
    that one reason: its headers are that tournament's (t2011's form has no 队号), and
    “报名表 找不到表头 “队号”。请不要修改或删除表头” followed, with no cell and advice that
    does not apply — the captain did not change a header, they sent the wrong form; nor are
    its rows checked (its 中国象棋 is that tournament's event, not an UNKNOWN_EVENT here)."""
    cols = [c for c in L.REG_COLUMNS if c != "队号"]
    reg, issues = read(tmp_path, [person("象棋", "王军"), person("中国象棋", "李四")], columns=cols, meta=meta)
    assert codes(issues) == ["TEMPLATE_MISMATCH"], [i.message for i in issues]
    assert "表头" not in issues[0].message and reg.foreign and not reg.usable


def _units_spec():
    from types import SimpleNamespace as NS

    units = [NS(id="b01", name="第1分工会", short="分1", former_names=()),
             NS(id="b02", name="第2分工会", short="分2", former_names=("机关分工会",))]
    return NS(unit_word="分工会", units=units), units


def test_a_header_as_the_form_was_made_is_the_units_own_without_opencc(monkeypatch):
    """The header line a form was made with (``分工会：第1分工会``) is read without OpenCC:
    its import and dictionaries cost a night with one changed form several milliseconds."""
    from pipeline import text
    from pipeline.ingest.registration import _other_unit_named

    def no_opencc():
        raise AssertionError("OpenCC loaded for a header as it was made")

    monkeypatch.setattr(text, "_t2s", no_opencc)
    spec, units = _units_spec()
    assert _other_unit_named(spec, units[0], [["2020年棋牌赛报名表"], ["分工会：第1分工会", None, "队长：王一"]]) is None
    assert _other_unit_named(spec, units[0], [["分工会： 分1 队长：王一"]]) is None


def test_a_header_naming_another_unit_in_either_script_is_found():
    """R2020 (a unit's form is its own): the header naming another unit — in Traditional too,
    or by a former name — is told; this unit's name in Traditional is its own."""
    from pipeline.ingest.registration import _other_unit_named

    spec, units = _units_spec()
    other = _other_unit_named(spec, units[0], [["标题"], [None, "分工會：第2分工會"]])
    assert other is not None and other[0].id == "b02" and other[1:] == ("第2分工會", "B2")
    assert _other_unit_named(spec, units[0], [["分工会：机关分工会队长：李四"]])[0].id == "b02"
    assert _other_unit_named(spec, units[0], [["分工會：第1分工會"]]) is None
    assert _other_unit_named(spec, units[0], [["联系人：王一"], ["分工会：第1分工会"]]) is None
    assert _other_unit_named(spec, units[0], [["分工会：不存在的单位"]]) is None


def test_a_form_issued_here_under_the_leagues_former_id_is_the_offices_matter(tmp_path):
    """The office changed tournament.yaml's ``id`` after sending the templates (an audit: t2026
    → t2026qp before the first run): every returned form was TEMPLATE_MISMATCH “…是比赛“t2026”的
    报名表，不是本次比赛的。请使用本次比赛下发的报名表”, as if each captain had sent the wrong
    form.  Its token proves it was issued with this folder's secret under that id: still not
    taken (a copied folder shares its secret.key, so last year's form verifies too), but said
    as the office's to settle — change the id back — not the captain's."""
    import hashlib
    import hmac

    t = tournament()
    token = hmac.new(t.secret, b"t-old\x1fb1", hashlib.sha256).hexdigest()[:32]
    reg, issues = read(tmp_path, [person("象棋", "王军")], t=t, meta={"tournament_id": "t-old"}, token=token)
    assert codes(issues) == ["TOURNAMENT_ID_MISMATCH"] and not reg.usable and reg.foreign
    said = issues[0].message
    assert "校验码相符" in said and "t-old" in said and "改回 t-old" in said and f"“{t.spec.id}”" in said, said
    assert "请使用本次比赛下发的报名表" not in said, said


def test_another_leagues_form_whose_token_does_not_verify_is_still_a_template_mismatch(tmp_path):
    t = tournament()
    reg, issues = read(tmp_path, [person("象棋", "王军")], t=t, meta={"tournament_id": "t-old"}, token="0" * 32)
    assert codes(issues) == ["TEMPLATE_MISMATCH"] and "请使用本次比赛下发的报名表" in issues[0].message


def test_a_name_lookup_filled_down_over_empty_rows_says_nothing_of_them(tmp_path):
    """姓名 looked up from 工号 (=VLOOKUP(E5,…)) and copied down the table: each row below the
    people holds only its cached #N/A in 姓名 — no 项目, no 工号.  Each was two errors
    (项目未填写, “姓名”是公式错误 #N/A): 40 for a form with nothing wrong.  A row holding
    nothing but formula errors, 姓名 included, is an unused row (handbook, BAD_VALUE)."""
    # (and a second looked-up column on one of them: F8)
    reg, issues = _two_people_with(tmp_path, {**{f"D{r}": "#N/A" for r in range(7, 30)}, "F8": "#N/A"})
    assert [(r.name, r.ok) for r in reg.rows] == [("王军", True), ("李四", True)]
    assert issues == [], [i.message for i in issues]


def test_a_name_lookup_error_on_a_row_with_an_event_is_still_an_error(tmp_path):
    """The other side of the above: a row with its 项目 (or 工号) typed and #N/A in 姓名 is
    someone's line whose name was not found — still the error at 姓名."""
    reg, issues = _two_people_with(tmp_path, {"D6": "#N/A"})
    assert [(i.code, i.cell) for i in issues if i.severity == Severity.ERROR] == [("BAD_VALUE", "D6")]
    assert "公式错误" in issues[0].message


def test_a_formula_error_in_the_event_column_is_content_not_an_unused_row(tmp_path):
    """项目 and 姓名 filled by formulas from a 名单 sheet the captain then deleted: every row
    of people reads #REF! in both.  Those rows were read as unused (the form as empty: no
    issue, a resend refused as EMPTY_FORM).  Only looked-up columns other than 项目 (姓名,
    工号 …) holding errors on a row with nothing typed make an unused row (handbook,
    BAD_VALUE): an error in 项目 is the row's content — read, and BAD_VALUE at the cell."""
    t = tournament()
    rows = [{"项目": "#REF!", "姓名": "#REF!"} for _ in range(3)] + [{"项目": "#N/A"}]
    reg, issues = read(tmp_path, rows, t=t)
    assert len(reg.rows) == 4 and not any(r.ok for r in reg.rows)
    errs = [(i.code, i.cell) for i in issues if i.severity == Severity.ERROR]
    assert errs == [("BAD_VALUE", c) for c in ("B5", "D5", "B6", "D6", "B7", "D7", "B8")] + [("MISSING_VALUE", "D8")], errs
    assert all("公式错误" in i.message for i in issues if i.cell in ("B5", "D5")), [i.message for i in issues]
