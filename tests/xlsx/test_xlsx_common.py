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


def test_atomic_save_builds_sheets_in_memory_with_the_stock_writers_bytes(tmp_path, monkeypatch):
    """xlsx.common._in_memory_writer: no temporary file per worksheet, and the same bytes as
    openpyxl's own writer for a workbook with comments, a hyperlink, a validation, merged
    cells, styles and a hidden sheet."""
    import io

    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill
    from openpyxl.worksheet import _writer
    from openpyxl.worksheet.datavalidation import DataValidation

    from pipeline.xlsx.common import deterministic_zip

    def build() -> Workbook:
        wb = Workbook()
        ws = wb.active
        ws.title = "报名表"
        ws["A1"] = "张三"
        ws["A1"].comment = Comment("手机号码应为11位数字", "league")
        ws["B2"] = "问题清单"
        ws["B2"].hyperlink = "#'问题'!A1"
        ws["C3"].fill = PatternFill("solid", fgColor="FFFF00")
        ws["C3"].font = Font(bold=True)
        ws.merge_cells("D1:F1")
        dv = DataValidation(type="list", formula1='"男,女"')
        ws.add_data_validation(dv)
        dv.add("G2:G40")
        other = wb.create_sheet("问题")
        other.sheet_state = "veryHidden"
        other["A1"] = 3
        return wb

    stock = io.BytesIO()
    build().save(stock)

    def no_temp_file(*a, **k):
        raise AssertionError("a worksheet went through a temporary file")
    monkeypatch.setattr(_writer, "create_temporary_file", no_temp_file)
    atomic_save(build(), tmp_path / "a.xlsx")
    assert (tmp_path / "a.xlsx").read_bytes() == deterministic_zip(stock.getvalue())
    back = load_workbook(tmp_path / "a.xlsx")
    assert back["报名表"]["A1"].comment.text == "手机号码应为11位数字" and back["问题"]["A1"].value == 3


_NUMPY_PROBE = r'''
import importlib, sys
importlib.import_module(sys.argv[1])
import openpyxl.compat.numbers as n
import openpyxl.drawing.image as img
hidden = "numpy" not in sys.modules and not n.NUMPY and "PIL" not in sys.modules and not img.PILImage
import numpy                      # NumPy itself still imports afterwards
from PIL import Image             # and Pillow
print(hidden, type(numpy.zeros(1)).__name__, Image.__name__)
'''


@pytest.mark.parametrize("module", ["pipeline.xlsx.common", "pipeline.xlsx.returned", "pipeline.xlsx.results",
                                    "pipeline.xlsx.registration", "pipeline.xlsx.forms"])
def test_openpyxl_is_imported_without_numpy(module):
    """pipeline.xlsx._no_numpy: a process that writes workbooks does not pay NumPy's import
    (80–90 ms, a fifth of a one-registration night) nor Pillow's (~15 ms); both still import
    for whoever needs them."""
    pytest.importorskip("numpy")
    pytest.importorskip("PIL")
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", _NUMPY_PROBE, module], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "ndarray", "PIL.Image"]


def test_openpyxl_imported_after_numpy_keeps_numpy_numbers():
    """Where NumPy is already imported, openpyxl is imported as it would be anyway."""
    pytest.importorskip("numpy")
    import subprocess
    import sys
    code = "import numpy, sys\nimport pipeline.xlsx.common\nimport openpyxl.compat.numbers as n\nprint(n.NUMPY)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


_BUILTINS_PROBE = r'''
import io, re, sys, zipfile
import pipeline.xlsx.common
import openpyxl
stand_in = sys.modules["openpyxl.styles.builtins"]
put_off = not hasattr(stand_in, "normal")       # the real module defines one string per style
# a workbook saved without named styles: openpyxl gives it the built-in "Normal"
wb = openpyxl.Workbook()
wb.active["A1"] = "甲"
buf = io.BytesIO()
wb.save(buf)
src, out = zipfile.ZipFile(io.BytesIO(buf.getvalue())), io.BytesIO()
with zipfile.ZipFile(out, "w") as z:
    for item in src.infolist():
        data = src.read(item)
        if item.filename == "xl/styles.xml":
            data = re.sub(rb"<cellStyles.*?</cellStyles>|<cellStyles[^>]*/>", b"", data, flags=re.S)
        z.writestr(item, data)
loaded = openpyxl.load_workbook(io.BytesIO(out.getvalue()))
names = loaded.named_styles
loaded.active["A2"].style = "Good"              # a built-in style set by name
again = io.BytesIO()
loaded.save(again)
reread = openpyxl.load_workbook(io.BytesIO(again.getvalue()))
real = sys.modules["openpyxl.styles.builtins"]
print(put_off, names[:1], reread.active["A2"].style, reread.active["A1"].value, hasattr(real, "normal"),
      "Good" in real.styles)
'''


def test_openpyxl_builtin_styles_parse_on_first_use():
    """pipeline.xlsx._no_numpy: openpyxl's 48 built-in named styles are parsed when first
    looked up, not at its import (8–14 ms of a night's returned copies); a workbook without
    named styles still gets "Normal", and a built-in style set by name still works."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", _BUILTINS_PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "['Normal']", "Good", "甲", "True", "True"]
