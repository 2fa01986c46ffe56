"""Registration workbooks a captain's Excel really produces that once stopped the night or
cost a branch its entries (found by fuzzing the T2016 sample's g01 form).  Each case puts
the mutated form in place of g01's mail and checks that the run goes on, g01 keeps its six
pairs' players, and what the captain typed is read as they meant it."""
from __future__ import annotations

import csv
import datetime as dt
import os
import shutil
import zipfile
from pathlib import Path
from typing import Callable

import openpyxl
import pytest

from pipeline.ingest.eml import parse_eml_bytes
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "sample_sheets" / "t2016-poker"
NOW = dt.datetime(2016, 11, 15, 12, 0, tzinfo=TZ)     # before the deadline (11-16 17:00)
MAIL = "1112-g01-报名表.eml"


def _original() -> bytes:
    (att,) = parse_eml_bytes((SRC / "inbox" / MAIL).read_bytes(), MAIL).attachments
    return att.data


def _xml_sub(old: str, new: str) -> Callable[[bytes, Path], None]:
    """Edit the 报名表 sheet's XML as Excel would have saved it."""
    def make(data: bytes, out: Path) -> None:
        zi = zipfile.ZipFile(__import__("io").BytesIO(data))
        with zi, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zo:
            for info in zi.infolist():
                body = zi.read(info.filename)
                if info.filename == "xl/worksheets/sheet1.xml":
                    assert old.encode() in body, old
                    body = body.replace(old.encode(), new.encode(), 1)
                zo.writestr(info, body)
    return make


def _cells(edit: Callable) -> Callable[[bytes, Path], None]:
    def make(data: bytes, out: Path) -> None:
        src = out.with_suffix(".src.xlsx")
        src.write_bytes(data)
        wb = openpyxl.load_workbook(src)
        edit(wb["报名表"])
        wb.save(out)
        src.unlink()
    return make


def _run(tmp_path: Path, make: Callable[[bytes, Path], None]):
    folder = tmp_path / "t"
    shutil.copytree(SRC, folder, ignore=shutil.ignore_patterns("*成绩表*", "*加赛*", "*签到*"))
    (folder / "inbox" / MAIL).unlink()
    form = folder / "inbox" / "g01-报名表.xlsx"
    make(_original(), form)
    ts = dt.datetime(2016, 11, 12, 9, 0, tzinfo=TZ).timestamp()
    os.utime(form, (ts, ts))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    data = report.out_dir / "data"
    with open(data / "entries.csv", encoding="utf-8") as f:
        names = sorted(r["name"] for r in csv.DictReader(f) if r["branch"] == "g01")
    with open(data / "issues.csv", encoding="utf-8") as f:
        issues = [r for r in csv.DictReader(f) if r["file"] == "g01-报名表.xlsx"]
    return report, names, issues


def test_a_control_character_in_a_name_is_not_part_of_it(tmp_path):
    """U+0008 pasted after a name (saved by Excel as _x0008_): the writers refused the
    name and the night stopped with no site; the name with it was another person."""
    report, names, issues = _run(tmp_path, _xml_sub("<t>董涛强</t>", "<t>董涛强_x0008_</t>"))
    assert len(names) == 6 and "董涛强" in names and not any("\x08" in n for n in names)
    assert (report.out_dir / "index.html").is_file()
    assert not [i for i in issues if i["severity"] == "error"], issues


def test_a_control_character_in_a_phone_number_is_not_a_crash(tmp_path):
    """U+0001 inside a phone number: the returned copy's writer crashed on the message
    quoting it; the number is read without it."""
    report, names, issues = _run(tmp_path, _xml_sub("<t>15239958816</t>", "<t>1523995881_x0001_6</t>"))
    assert len(names) == 6
    assert not any(i["code"] == "BAD_VALUE" for i in issues), issues
    assert list((report.out_dir / "returned").glob("g01-*-返回.xlsx"))


def test_a_phone_number_formatted_as_elapsed_time_is_read_as_typed(tmp_path):
    """15239958816 in a cell formatted [h]:mm: the reader's conversion overflowed and every
    night stopped at reading."""
    def edit(ws):
        ws["G8"].value = 15239958816
        ws["G8"].number_format = "[h]:mm"
    report, names, issues = _run(tmp_path, _cells(edit))
    assert len(names) == 6 and not issues, issues


def test_a_workbook_the_reader_trips_on_is_unreadable_not_the_end_of_the_night(tmp_path, monkeypatch):
    """Any error reading one workbook makes that file UNREADABLE_FILE (located, in Chinese)
    and the night goes on: the other branches are read and the site is written."""
    import pipeline.ingest.registration as R

    real = R.read_registration

    def trip(book, name, *a, **k):
        if name == "g01-报名表.xlsx":
            raise OverflowError("a reader's bug")
        return real(book, name, *a, **k)

    monkeypatch.setattr(R, "read_registration", trip)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    report, names, issues = _run(tmp_path, lambda data, out: out.write_bytes(data))
    assert names == []
    (un,) = [i for i in issues if i["code"] == "UNREADABLE_FILE"]
    assert "另存为" in un["message"]
    assert (report.out_dir / "index.html").is_file() and len(report.accepted_branches) >= 10


def test_one_blank_team_number_costs_only_its_pair(tmp_path):
    """One 队号 left blank: that row is MISSING_VALUE and its pair incomplete; the other
    pairs stand (the row counted as one more pair, over the quota, and every pair of the
    branch was refused)."""
    report, names, issues = _run(tmp_path, _cells(lambda ws: setattr(ws["C9"], "value", None)))
    codes = sorted(i["code"] for i in issues)
    assert "QUOTA_EXCEEDED" not in codes, issues
    assert "MISSING_VALUE" in codes and [i["cell"] for i in issues if i["code"] == "MISSING_VALUE"] == ["C9"]
    assert len(names) == 4                    # pairs 2 and 3 accepted; pair 1 held back


def test_a_formula_whose_result_is_empty_is_a_blank_cell(tmp_path):
    """工号 by =IFERROR(VLOOKUP(…),"") that found nothing, saved by Excel with an empty
    value: a blank (optional) 工号, not "未计算的公式" holding back the pair."""
    report, names, issues = _run(tmp_path, _xml_sub(
        '<c r="E8" s="8" t="inlineStr"><is><t>001011</t></is></c>',
        '<c r="E8" s="8" t="str"><f>IFERROR(VLOOKUP(D8,名册!A:B,2,0),"")</f><v></v></c>'))
    assert len(names) == 6 and not [i for i in issues if i["severity"] == "error"], issues


def test_a_formula_without_a_saved_result_is_still_said():
    """The other side: a formula with no saved value at all stays NO_CACHED_VALUE."""
    from pipeline.ingest.workbook import NO_CACHED_VALUE, _scan_cells

    xml = (b'<sheetData><row r="1"><c r="A1" t="str"><f>A2&amp;""</f></c>'
           b'<c r="B1" t="str"><f>A2&amp;""</f><v></v></c><c r="C1"><f>A2</f><v /></c></row></sheetData>')
    problems = _scan_cells(xml).problems       # (openpyxl saves C1's way: no type, <v />)
    assert list(problems) == [(1, 1), (1, 3)] and NO_CACHED_VALUE in str(problems[(1, 1)])


def _strict(data: bytes, out: Path) -> None:
    """The form saved as Strict Open XML (ISO/IEC 29500 Strict), with a #REF! in 工号."""
    import io

    mid = io.BytesIO()
    _xml_sub('<c r="E8" s="8" t="inlineStr"><is><t>001011</t></is></c>',
             '<c r="E8" s="8" t="e"><f>#REF!</f><v>#REF!</v></c>')(data, out)
    mid.write(out.read_bytes())
    zi = zipfile.ZipFile(mid)
    with zi, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zo:
        for info in zi.infolist():
            body = zi.read(info.filename)
            for a, b in ((b"schemas.openxmlformats.org/spreadsheetml/2006/main", b"purl.oclc.org/ooxml/spreadsheetml/main"),
                         (b"schemas.openxmlformats.org/officeDocument/2006/relationships",
                          b"purl.oclc.org/ooxml/officeDocument/relationships")):
                body = body.replace(a, b)
            zo.writestr(info, body)


def test_a_strict_open_xml_workbook_is_refused_with_how_to_save_it(tmp_path):
    """A Strict save: its #REF! went unseen (the row accepted with an empty 工号) and its
    returned copy held no sheet but 问题清单.  Refused, saying how to save it."""
    report, names, issues = _run(tmp_path, _strict)
    assert names == []
    (un,) = [i for i in issues if i["code"] == "UNREADABLE_FILE"]
    assert "Strict" in un["message"] and "Excel 工作簿(*.xlsx)" in un["message"]


@pytest.mark.parametrize("two", ["董涛强\n方鹏旭", "董涛强，方鹏旭"], ids=["alt-enter", "comma"])
def test_two_people_in_one_name_cell_are_said(tmp_path, two):
    """Both players of a pair typed into one 姓名 cell (Alt+Enter, or a comma): BAD_VALUE at
    that cell (it was accepted as one person named 董涛强方鹏旭)."""
    report, names, issues = _run(tmp_path, _cells(lambda ws: setattr(ws["D8"], "value", two)))
    (bad,) = [i for i in issues if i["code"] == "BAD_VALUE"]
    assert bad["cell"] == "D8" and "两个人" in bad["message"]
    assert not any("方鹏旭" in n and "董涛强" in n for n in names)


def test_merged_team_numbers_are_read_on_a_sheet_with_a_stray_far_cell(tmp_path):
    """Each pair's 队号 merged over its two rows, and a stray value at XFD200: the sheet is
    read by the streaming reader, which gave no merged ranges — every pair's second row had
    no 队号 and the branch lost all its entries."""
    def edit(ws):
        for r in (8, 10, 12):
            ws.merge_cells(f"C{r}:C{r + 1}")
        ws["XFD200"] = "x"
    report, names, issues = _run(tmp_path, _cells(edit))
    assert len(names) == 6, issues
    assert not [i for i in issues if i["severity"] == "error"], issues


def test_a_stray_value_far_to_the_right_is_said(tmp_path):
    """A stray keystroke at XFD200 (past the 256 columns read): a warning at that cell; the
    form is read as before (it was ignored without a word)."""
    report, names, issues = _run(tmp_path, _cells(lambda ws: setattr(ws["XFD200"], "value", "x")))
    (far,) = [i for i in issues if i["cell"] == "XFD200"]
    assert far["severity"] == "warning" and "未读取" in far["message"]
    assert len(names) == 6


def test_the_first_cell_past_the_columns_read_is_found():
    from pipeline.ingest.workbook import _first_past_columns

    xml = (b'<sheetData><row r="1"><c r="A1"><v>1</v></c><c r="IW1" s="3"/></row>'
           b'<row r="5"><c r="IW5"><f>A1</f></c></row><row r="9"><c r="XFD9" t="inlineStr"><is><t>x</t></is></c></row></sheetData>')
    assert _first_past_columns(xml) == "IW5"      # an empty styled cell is no value
    assert _first_past_columns(b'<sheetData><row r="1"><c r="IV1"><v>1</v></c></row></sheetData>') == ""


def test_a_name_of_a_whole_cell_makes_messages_of_a_page_not_of_a_book(tmp_path):
    """A name cell holding 32,767 characters (a paste gone wrong): every message quoting it,
    in issues.csv and in the returned copy's comment and 问题清单, was as long — a comment
    box thousands of lines tall.  The message keeps its start and its end (what to change)."""
    MESSAGE_MAX = 1000    # pipeline.issues.MESSAGE_MAX
    long_name = "董涛强" + "长" * 32_764

    def paste(ws):
        cell = next(c for row in ws.iter_rows() for c in row if c.value == "董涛强")
        cell.value = long_name
    report, names, issues = _run(tmp_path, _cells(paste))
    about = [i for i in issues if "董涛强长长" in i["message"]]
    assert about and all(len(i["message"]) <= MESSAGE_MAX for i in about), [len(i["message"]) for i in about]
    assert all("此处略去" in i["message"] for i in about)
    (copy,) = (report.out_dir / "returned").glob("g01-*-返回.xlsx")
    wb = openpyxl.load_workbook(copy)
    comments = [c.comment for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.comment]
    assert comments and max(len(c.text) for c in comments) < 3 * MESSAGE_MAX
    assert max(c.height for c in comments) < 1500
    assert all(len(str(c.value)) <= MESSAGE_MAX for row in wb["问题清单"].iter_rows() for c in row if c.value)


def _hidden_form_and_a_visible_copy(data: bytes, out: Path) -> None:
    """The captain copied 报名表, hid the original and changed a name in the copy."""
    src = out.with_suffix(".src.xlsx")
    src.write_bytes(data)
    wb = openpyxl.load_workbook(src)
    form = wb["报名表"]
    copy = wb.copy_worksheet(form)
    copy.title = "报名表 (2)"
    cell = next(c for row in copy.iter_rows() for c in row if c.value == "董涛强")
    cell.value = "董涛"
    form.sheet_state = "hidden"
    wb.active = wb.sheetnames.index("报名表 (2)")
    wb.save(out)
    src.unlink()


def test_a_hidden_form_beside_a_filled_visible_copy_is_not_taken(tmp_path):
    """What the captain sees (the copy) is not what would be read (the hidden form): the file
    is refused, at file level, with how to unhide the form; it was read with a warning."""
    report, names, issues = _run(tmp_path, _hidden_form_and_a_visible_copy)
    assert names == []
    (bad,) = [i for i in issues if i["code"] == "TEMPLATE_MISMATCH"]
    assert bad["severity"] == "error" and "被隐藏" in bad["message"] and "报名表 (2)" in bad["message"]
    assert "取消隐藏" in bad["message"]


def test_a_settled_note_keeps_a_message_within_the_cap():
    """A settled problem's note is added after a quoted 5,000-character value: still at most
    MESSAGE_MAX, its note at the end."""
    from pipeline.issues import MESSAGE_MAX, issue, settled

    i = settled(issue("RESULT_INVALID", "甲方填的是“" + "某" * 5000 + "”（不是本桌选手）"), "较晚收到的成绩表已更正这一桌，无需再处理。")
    assert len(i.message) <= MESSAGE_MAX and i.message.endswith("（较晚收到的成绩表已更正这一桌，无需再处理。）")
    assert i.severity.value == "info"
