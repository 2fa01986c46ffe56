"""Atomic saves and the formula-injection guard."""
from __future__ import annotations

import os
import zipfile

import pytest
from openpyxl import Workbook, load_workbook

from pipeline.xlsx.common import atomic_save, needs_guard, put, safe_filename, text_width


@pytest.mark.parametrize("text", ['=HYPERLINK("http://evil","x")', "+1+2", "-2+3", "@SUM(A1)", "\t=1", "\r=1"])
def test_formula_text_is_stored_as_plain_text(tmp_path, text):
    wb = Workbook()
    cell = put(wb.active, "A1", text)
    assert cell.data_type == "s" and cell.quotePrefix
    path = atomic_save(wb, tmp_path / "a.xlsx")
    back = load_workbook(path).active["A1"]
    # the data is unchanged (no apostrophe added); XML itself reads a bare CR as LF
    assert back.value == text.replace("\r", "\n")
    assert back.data_type == "s" and back.quotePrefix
    with zipfile.ZipFile(path) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
        styles = z.read("xl/styles.xml").decode()
    assert "<f>" not in xml and 't="inlineStr"' in xml
    assert 'quotePrefix="1"' in styles      # Excel/WPS/LibreOffice show the cell as text


def test_plain_values_untouched(tmp_path):
    wb = Workbook()
    assert put(wb.active, "A1", "张三").quotePrefix is False
    assert put(wb.active, "A2", -5).data_type == "n"
    assert not needs_guard("张三") and not needs_guard(None) and needs_guard("-x")


def test_atomic_save_replaces_and_leaves_no_temp(tmp_path):
    target = tmp_path / "sub" / "book.xlsx"
    wb = Workbook()
    wb.active["A1"] = "v1"
    atomic_save(wb, target)
    wb.active["A1"] = "v2"
    atomic_save(wb, target)
    assert load_workbook(target).active["A1"].value == "v2"
    assert os.listdir(target.parent) == ["book.xlsx"]


def test_atomic_save_failure_keeps_old_file(tmp_path, monkeypatch):
    target = tmp_path / "book.xlsx"
    wb = Workbook()
    wb.active["A1"] = "old"
    atomic_save(wb, target)

    def boom(*a, **k):
        raise RuntimeError("disk full")
    from openpyxl.writer.excel import ExcelWriter
    monkeypatch.setattr(ExcelWriter, "write_data", boom)    # fails halfway through serialising
    with pytest.raises(RuntimeError):
        atomic_save(wb, target)
    assert load_workbook(target).active["A1"].value == "old"
    assert os.listdir(tmp_path) == ["book.xlsx"]


def test_helpers():
    assert safe_filename('行政/后勤:"一"') == "行政_后勤__一_"
    assert text_width("联系电话") == 10


def test_atomic_save_writes_what_save_writes(tmp_path):
    """The parts are stored uncompressed before deterministic_zip compresses them once: the
    file holds exactly what ``Workbook.save`` + deterministic_zip gave."""
    import io

    from pipeline.xlsx.common import deterministic_zip
    wb = Workbook()
    wb.active["A1"] = "张三"
    wb.create_sheet("二")["B2"] = 3
    buf = io.BytesIO()
    wb.save(buf)
    atomic_save(wb, tmp_path / "a.xlsx")
    assert (tmp_path / "a.xlsx").read_bytes() == deterministic_zip(buf.getvalue())
