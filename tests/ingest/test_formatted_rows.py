"""A form whose rows were formatted down to the sheet's end (Excel writes one empty
``<row …/>`` per formatted row: 70 MB of them) is read, not refused as a zip bomb; the
memory guard still holds, and a refusal says what made the file large."""
from __future__ import annotations

import re
import zipfile

import openpyxl
import pytest

from pipeline.ingest import workbook as W
from pipeline.ingest.workbook import UnreadableFile, read_workbook


def _formatted_down(src, dst, first=None, last=1_048_576):
    """``src`` with every row from ``first`` (after its last row) to ``last`` formatted, as Excel writes it."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            body = zin.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                text = body.decode()
                start = first or max(map(int, re.findall(r'<row r="(\d+)"', text))) + 1
                with zout.open(info.filename, "w") as fh:
                    head, tail = text.split("</sheetData>", 1)
                    fh.write(head.encode())
                    for r0 in range(start, last + 1, 50_000):
                        fh.write("".join(f'<row r="{r}" spans="1:9" s="1" customFormat="1" ht="15" customHeight="1"/>'
                                         for r in range(r0, min(last, r0 + 49_999) + 1)).encode())
                    fh.write(("</sheetData>" + tail).encode())
                continue
            zout.writestr(info, body)
    return dst


def _form(tmp_path):
    from ingest.builders import person, tournament, write_registration

    t = tournament()
    p = write_registration(tmp_path / "b1.xlsx", t, "b1", [person("象棋", "甲", "001"), person("象棋", "乙", "002")])
    return t, p


def test_rows_formatted_to_the_sheets_end_are_read_and_said(tmp_path):
    from pipeline.ingest.registration import read_registration
    from pipeline.model import Severity

    t, p = _form(tmp_path)
    big = _formatted_down(p, tmp_path / "big.xlsx")
    with zipfile.ZipFile(big) as z:
        assert z.getinfo("xl/worksheets/sheet1.xml").file_size > W.MAX_TOTAL_BYTES    # refused before
    book = read_workbook(big)
    sheet = book.sheets["报名表"]
    first, n = sheet.empty_rows
    assert n > 1_000_000 and first > 1
    reg, issues = read_registration(book, "big.xlsx", t)
    assert reg.usable and [r.name for r in reg.rows] == ["甲", "乙"]
    (said,) = [i for i in issues if i.cell == f"A{first}"]
    assert said.severity == Severity.WARNING and f"第{first}行以下" in said.message and "删除" in said.message
    assert not [i for i in issues if i.severity == Severity.ERROR]


def test_a_form_with_a_few_empty_formatted_rows_says_nothing(tmp_path):
    t, p = _form(tmp_path)
    small = _formatted_down(p, tmp_path / "small.xlsx", last=2000)
    assert read_workbook(small).sheets["报名表"].empty_rows == (0, 0)


def test_the_memory_guard_still_holds_for_rows_with_cells(tmp_path, monkeypatch):
    """What is kept in memory is bounded: a sheet of rows with cells past the bound is refused,
    and the refusal says a sheet has too many rows (not pictures)."""
    t, p = _form(tmp_path)
    big = _formatted_down(p, tmp_path / "big.xlsx", last=300_000)     # ~20 MB of empty rows: read
    monkeypatch.setattr(W, "MAX_TOTAL_BYTES", 2 * 1024 * 1024)
    assert read_workbook(big).sheets["报名表"].empty_rows[1] > 200_000
    full = tmp_path / "full.xlsx"
    with zipfile.ZipFile(big) as zin, zipfile.ZipFile(full, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            body = zin.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":    # the same rows, each with a cell
                body = re.sub(rb'<row r="(\d+)"([^>]*)/>', rb'<row r="\1"\2><c r="K\1"><v>1</v></c></row>', body)
            zout.writestr(info, body)
    with pytest.raises(UnreadableFile) as e:
        read_workbook(full)
    assert e.value.kind == "zip_bomb" and "图片" not in e.value.message_cn


def test_a_sheet_past_its_own_bound_is_refused_before_unpacking(tmp_path, monkeypatch):
    t, p = _form(tmp_path)
    big = _formatted_down(p, tmp_path / "big.xlsx", last=300_000)
    monkeypatch.setattr(W, "MAX_SHEET_BYTES", 8 * 1024 * 1024)
    monkeypatch.setattr(zipfile.ZipExtFile, "read", lambda *a, **k: pytest.fail("unpacked"))
    with pytest.raises(UnreadableFile) as e:
        read_workbook(big)
    assert e.value.kind == "zip_bomb" and "行" in e.value.message_cn and "图片" not in e.value.message_cn


def test_the_returned_copy_is_made_without_the_empty_rows(tmp_path):
    from pipeline.xlsx.slim import copy_source

    t, p = _form(tmp_path)
    big = _formatted_down(p, tmp_path / "big.xlsx", last=300_000)
    (tmp_path / "tmp").mkdir()
    src = copy_source(big, str(tmp_path / "tmp"))
    assert src != big and src.stat().st_size < 100_000
    ws = openpyxl.load_workbook(src)["报名表"]
    assert ws.max_row < 100 and {c.value for c in ws[ws.max_row]} - {None}
    assert copy_source(p, str(tmp_path / "tmp")) == p       # an ordinary form: itself
