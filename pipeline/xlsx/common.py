"""Shared helpers of the Excel writers: atomic save, safe cell writes, styles, _meta,
data validations and print setup.

Every workbook the pipeline issues goes through :func:`atomic_save`; every cell that may
hold text typed by a person (names, unit names, messages quoting values) goes through
:func:`put`, which keeps the text exactly but stores it as a *string* cell with Excel's
"quote prefix" flag when it starts with ``= + - @`` or a tab/CR/LF.  Such a cell is never
a formula (no ``<f>`` element is written) and Excel, WPS and LibreOffice show it as
plain text, also after the user edits it; the value read back is unchanged (no
apostrophe is added to the data).
"""
from __future__ import annotations

import io
import math
import re
import weakref
import zipfile
from copy import copy
from pathlib import Path
from typing import Any, Iterable, Sequence

from . import _no_numpy  # noqa: F401  (first: openpyxl without NumPy)
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from .. import layout
from ..text import convert, verbatim

#: characters that make a spreadsheet read a typed text as a formula / DDE command
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n")

#: hidden sheet holding long dropdown lists (a literal list is limited to 255 characters)
LISTS_SHEET = "_lists"
#: extra _meta keys written by every writer (readers may use them; layout.py lists the rest)
META_HEADER_ROW = "header_row"
META_SEATS = "seats"

FONT_NAME = "等线"   # Excel's default CJK UI font; WPS/LibreOffice substitute a CJK font
TITLE_FONT = Font(name=FONT_NAME, size=16, bold=True)
SUBTITLE_FONT = Font(name=FONT_NAME, size=11, bold=True)
BODY_FONT = Font(name=FONT_NAME, size=11)
HEADER_FONT = Font(name=FONT_NAME, size=11, bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
BLOCK_FILL = PatternFill("solid", fgColor="F2F2F2")
LOCKED_FILL = PatternFill("solid", fgColor="EDEDED")
INPUT_FILL = PatternFill("solid", fgColor="FFFFFF")
BYE_FILL = PatternFill("solid", fgColor="D9D9D9")
THIN = Side(style="thin", color="808080")
GRID = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)
LEFT = Alignment(horizontal="left", vertical="center", wrap_text=True)
UNLOCKED = Protection(locked=False)
LOCKED = Protection(locked=True)


# -- files --------------------------------------------------------------------------------------
def atomic_save(workbook: Workbook, path: str | Path) -> Path:
    """Save ``workbook`` to ``path`` atomically: write a temporary file in the same folder,
    fsync it, then ``os.replace`` it over the target (a killed run never leaves half a
    workbook).  Creates the folder.  ``atomic_save(wb, out / "a.xlsx") == out / "a.xlsx"``.

    The bytes are deterministic: zip entries get a fixed date and the document's
    created/modified properties a fixed value, so an unchanged workbook is byte-identical
    from run to run (and is then not rewritten at all).
    """
    from ..fsutil import atomic_write_bytes

    path = Path(path)
    atomic_write_bytes(path, deterministic_zip(_stored_bytes(workbook)))
    return path


def _stored_bytes(workbook: Workbook) -> bytes:
    """What ``workbook.save()`` writes, in memory, with the parts stored uncompressed:
    :func:`deterministic_zip` rewrites every part anyway, so they are compressed once
    instead of twice (a quarter of the time of saving a captain's workbook)."""
    import datetime as dt

    from openpyxl.writer.excel import ExcelWriter

    if workbook.read_only:
        raise TypeError("Workbook is read-only")
    if workbook.write_only and not workbook.worksheets:
        workbook.create_sheet()
    buf = io.BytesIO()
    archive = zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED, allowZip64=True)
    workbook.properties.modified = dt.datetime.now(tz=dt.timezone.utc).replace(tzinfo=None)   # as save()
    writer = _in_memory_writer()
    (writer or ExcelWriter)(workbook, archive).save()
    return buf.getvalue()


def _in_memory_writer() -> Any:
    """openpyxl's ExcelWriter with each worksheet's XML built in memory.

    The stock writer builds a worksheet's XML in a named temporary file, adds that file to
    the archive and deletes it: three file-system operations per sheet, a few per cent of
    a cold run's CPU (file creation is costly on some file systems).  openpyxl's
    ``WorksheetWriter`` takes an in-memory ``out`` itself; the entry gets the attributes
    the temporary file gave it (a regular file, mode 0600), so the bytes are the stock
    writer's (tested).  ``None`` when this openpyxl's internals are not the ones this was
    written for: the stock writer is used then."""
    global _WRITER
    if _WRITER is False:
        try:
            import stat

            from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
            from openpyxl.worksheet._writer import WorksheetWriter
            from openpyxl.writer.excel import ExcelWriter

            class InMemoryWriter(ExcelWriter):
                def write_worksheet(self, ws: Any) -> None:
                    if self.workbook.write_only:
                        return super().write_worksheet(ws)
                    ws._drawing = SpreadsheetDrawing()
                    ws._drawing.charts = ws._charts
                    ws._drawing.images = ws._images
                    writer = WorksheetWriter(ws, out=io.BytesIO())
                    writer.write()
                    ws._rels = writer._rels
                    entry = zipfile.ZipInfo(ws.path[1:])
                    entry.external_attr = (stat.S_IFREG | 0o600) << 16
                    entry.compress_type = self._archive.compression
                    self._archive.writestr(entry, writer.read())
                    self.manifest.append(ws)

            _WRITER = InMemoryWriter if hasattr(WorksheetWriter, "read") else None
        except (ImportError, AttributeError):
            _WRITER = None
    return _WRITER


_WRITER: Any = False      # not yet looked up


_FIXED_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_CORE_DATES = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)")


def deterministic_zip(data: bytes) -> bytes:
    """Re-zip an .xlsx with fixed entry dates and fixed docProps created/modified times."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _CORE_DATES.sub(rb"\g<1>2000-01-01T00:00:00Z\g<2>", body)
            zi = zipfile.ZipInfo(info.filename, date_time=_FIXED_ZIP_DATE)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = info.external_attr
            dst.writestr(zi, body)
    return out.getvalue()


def safe_filename(name: str) -> str:
    """A file-name part without path separators or characters Windows refuses.
    ``safe_filename('行政/后勤') == '行政_后勤'``."""
    bad = '/\\:*?"<>|\x00'
    out = "".join("_" if ch in bad or ord(ch) < 32 else ch for ch in name).strip().strip(".")
    return out or "_"


# -- text ---------------------------------------------------------------------------------------
def zh(text: str, spec: Any) -> str:
    """Chinese text in the tournament's script (OpenCC s2t for ``script: traditional``).
    Used for titles and instructions only: labels and dropdown values that readers match
    are written as in :mod:`pipeline.layout` / the spec.  ``zh("报名表", spec)``."""
    return convert(text, getattr(spec, "script", "simplified"))


def zh_fmt(template: str, spec: Any, **raw: Any) -> str:
    """Convert the fixed words of ``template`` (see :func:`zh`) but insert ``raw`` values
    (sheet names, labels, event names, pick-up points) unconverted, so instructions name
    exactly what the sheet shows.  ``zh_fmt("在“{s}”中填写", spec, s="报名表")``."""
    return zh(template, spec).format(**raw)


def needs_guard(value: Any) -> bool:
    """True when ``value`` is a text a spreadsheet could take for a formula.
    ``needs_guard("=1+1") is True``; ``needs_guard("张三") is False``."""
    return isinstance(value, str) and value.startswith(FORMULA_TRIGGERS)


def put(ws: Worksheet, ref: str | tuple[int, int], value: Any, *, font: Font | None = None,
        fill: PatternFill | None = None, align: Alignment | None = None, border: Border | None = None,
        locked: bool | None = None, number_format: str | None = None) -> Cell:
    """Write one cell, neutralising formula injection, and style it.

    ``ref`` is "B3" or (row, column).  Text that starts with ``= + - @``/tab/CR stays
    exactly as given but is stored as a string cell with ``quotePrefix`` (shown as text,
    never evaluated).  ``put(ws, "A1", "=HYPERLINK(...)").data_type == "s"``.
    """
    cell = ws[ref] if isinstance(ref, str) else ws.cell(row=ref[0], column=ref[1])
    if isinstance(value, str) and ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)     # openpyxl refuses them (a whole sheet lost)
    cell.value = value
    guard = needs_guard(value)
    if guard:
        cell.data_type = "s"
    # Assigning style objects makes openpyxl hash each one per cell (most of the time of a
    # large sheet).  The resulting style indexes depend only on the cell's previous style
    # and the arguments, so the first cell computes them and later cells copy the array.
    # The cache holds the style objects, so their ids cannot be reused while it lives.
    if not guard and font is None and fill is None and align is None and border is None \
            and locked is None and number_format is None:
        return cell
    cache = _PUT_STYLES.get(ws.parent)
    if cache is None:
        cache = _PUT_STYLES[ws.parent] = {}
    previous = cell._style
    key = (None if previous is None else tuple(previous), id(font), id(fill), id(align), id(border), locked, number_format, guard)
    hit = cache.get(key)
    if hit is not None:
        cell._style = copy(hit[1])
        return cell
    if guard:
        cell.quotePrefix = True
    if font is not None:
        cell.font = font
    if fill is not None:
        cell.fill = fill
    if align is not None:
        cell.alignment = align
    if border is not None:
        cell.border = border
    if locked is not None:
        cell.protection = LOCKED if locked else UNLOCKED
    if number_format is not None:
        cell.number_format = number_format
    cache[key] = ((font, fill, align, border), copy(cell._style))
    return cell


#: per workbook: (previous style, style arguments) → resulting StyleArray (see :func:`put`)
_PUT_STYLES: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


def guard_existing(cell: Cell) -> None:
    """Neutralise a cell already holding a value (e.g. in a copied workbook): a *string*
    that starts with a formula trigger keeps its text and gets ``quotePrefix``."""
    if cell.data_type == "s" and needs_guard(cell.value):
        cell.quotePrefix = True


# -- sheets -------------------------------------------------------------------------------------
def write_meta(wb: Workbook, items: Sequence[tuple[str, Any]], *, state: str = "veryHidden") -> Worksheet:
    """Add the protected hidden sheet ``_meta`` (column A key, column B value).

    We choose ``veryHidden``: Excel/WPS cannot unhide it from the menu, so captains do not
    edit it by accident; openpyxl and calamine read it like any sheet.
    """
    ws = wb.create_sheet(layout.META_SHEET)
    for i, (key, value) in enumerate(items, start=1):
        put(ws, (i, 1), key)
        put(ws, (i, 2), "" if value is None else value)
    ws.column_dimensions["A"].width = 20
    ws.column_dimensions["B"].width = 40
    ws.protection.sheet = True
    ws.sheet_state = state
    return ws


def read_meta(wb: Workbook) -> dict[str, Any]:
    """The _meta sheet as a dict (for tests and tools).  Empty when there is none."""
    if layout.META_SHEET not in wb.sheetnames:
        return {}
    ws = wb[layout.META_SHEET]
    return {str(k): v for k, v in ws.iter_rows(min_col=1, max_col=2, values_only=True) if k is not None}


def protect(ws: Worksheet, *, insert_rows: bool = False) -> None:
    """Protect a sheet (no password: the organisers can lift it; the point is to stop
    accidental edits).  Users may still resize columns/rows and select any cell, and with
    ``insert_rows`` insert whole rows (a table with too few rows for the entries)."""
    p = ws.protection
    p.sheet = True
    p.formatColumns = False   # False = allowed
    p.formatRows = False
    if insert_rows:
        p.insertRows = False
    p.selectLockedCells = False
    p.selectUnlockedCells = False


def set_widths(ws: Worksheet, widths: Iterable[float], start: int = 1) -> None:
    """Column widths in Excel character units (one CJK character ≈ 2 units)."""
    for i, w in enumerate(widths, start=start):
        ws.column_dimensions[get_column_letter(i)].width = w


def text_width(label: str, minimum: float = 6) -> float:
    """A column width fitting ``label``: CJK characters count double.
    ``text_width("联系电话") == 10``."""
    units = sum(2 if ord(ch) > 0x2E80 else 1 for ch in label)
    return max(minimum, units + 2)


def wrapped_lines(text: str, width_units: float) -> int:
    """How many lines ``text`` wraps to in a (merged) cell ``width_units`` wide, CJK characters
    counting double, 95 % of the width used: Excel does not auto-fit a merged cell's row, so
    its height is computed from this.  ``wrapped_lines("联系电话" * 10, 40) == 3``."""
    units = sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)
    return max(1, math.ceil(units / max(10.0, width_units * 0.95)))


def print_setup(ws: Worksheet, *, header_row: int, last_col: int, landscape: bool | None = None) -> None:
    """A4, fit to one page wide, header row repeated on every page.  Orientation is
    landscape when the columns are wider than a portrait page holds (≈ 95 units)."""
    if landscape is None:
        total = sum((ws.column_dimensions[get_column_letter(c)].width or 9) for c in range(1, last_col + 1))
        landscape = total > 95
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = ws.ORIENTATION_LANDSCAPE if landscape else ws.ORIENTATION_PORTRAIT
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_title_rows = f"{header_row}:{header_row}"
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    # the footer needs room between it and the body: Excel's defaults (0.75 / 0.3 in)
    ws.page_margins.top = ws.page_margins.bottom = 0.75
    ws.page_margins.header = ws.page_margins.footer = 0.3
    ws.oddFooter.center.text = "第 &P 页 / 共 &N 页"


def header_row(ws: Worksheet, row: int, labels: Sequence[str], start: int = 1) -> None:
    """Write the table's header labels (styled, locked)."""
    for i, label in enumerate(labels, start=start):
        put(ws, (row, i), label, font=HEADER_FONT, fill=HEADER_FILL, align=CENTER, border=GRID, locked=True)
    ws.row_dimensions[row].height = 24


# -- data validation ----------------------------------------------------------------------------
def _lists_sheet(wb: Workbook) -> Worksheet:
    if LISTS_SHEET in wb.sheetnames:
        return wb[LISTS_SHEET]
    ws = wb.create_sheet(LISTS_SHEET)
    ws.sheet_state = "veryHidden"
    ws.protection.sheet = True
    return ws


def literal_list_ok(values: Sequence[str]) -> bool:
    """A dropdown may list ``values`` literally: short (≤ 250 characters), no quotes, no
    commas, no text a spreadsheet could take for a formula."""
    literal = ",".join(values)
    return bool(values) and len(literal) <= 250 and '"' not in literal \
        and all(v and "," not in v and not needs_guard(v) for v in values)


def list_formula(wb: Workbook, values: Sequence[str]) -> str:
    """``formula1`` for a dropdown of ``values``: a literal ``"a,b"`` when it is short and
    safe, else a range on the hidden ``_lists`` sheet (literal lists are limited to 255
    characters and cannot hold commas or quotes)."""
    if literal_list_ok(values):
        return '"' + ",".join(values) + '"'
    ws = _lists_sheet(wb)
    col = ws.max_column + 1 if ws.max_row > 1 or ws.cell(1, 1).value is not None else 1
    for i, v in enumerate(values, start=1):
        put(ws, (i, col), v)
    letter = get_column_letter(col)
    return f"{quote_sheetname(LISTS_SHEET)}!${letter}$1:${letter}${max(1, len(values))}"


def add_list_validation(ws: Worksheet, cells: str, values: Sequence[str], *, title: str = "",
                        prompt: str = "", error: str = "", script: str = "simplified") -> DataValidation:
    """A dropdown (data validation ``list``) on ``cells`` ("B5:B64").  Its error message lists
    ``values`` exactly as the dropdown holds them (:func:`pipeline.text.verbatim`): a
    Traditional form's dropdown keeps the Simplified values its readers match (围棋), and
    the message listed them converted (請從下拉列表中選擇：圍棋、中國象棋…), values the list
    does not have."""
    dv = DataValidation(type="list", formula1=list_formula(ws.parent, values), allow_blank=True,
                        showDropDown=False, showErrorMessage=True, showInputMessage=bool(prompt))
    _messages(dv, title, prompt, error or f"请从下拉列表中选择：{verbatim('、'.join(values)[:180], script)}", script)
    dv.add(cells)
    ws.add_data_validation(dv)
    return dv


def add_whole_validation(ws: Worksheet, cells: str, lo: int | None, hi: int | None, *, title: str = "",
                         prompt: str = "", error: str = "", script: str = "simplified") -> DataValidation:
    """Whole-number validation; open bounds become ≥ / ≤ checks."""
    if lo is not None and hi is not None:
        dv = DataValidation(type="whole", operator="between", formula1=str(lo), formula2=str(hi))
        default = f"请填 {lo} 到 {hi} 之间的整数"
    elif lo is not None:
        dv = DataValidation(type="whole", operator="greaterThanOrEqual", formula1=str(lo))
        default = f"请填不小于 {lo} 的整数"
    elif hi is not None:
        dv = DataValidation(type="whole", operator="lessThanOrEqual", formula1=str(hi))
        default = f"请填不大于 {hi} 的整数"
    else:
        dv = DataValidation(type="whole", operator="between", formula1="-999999", formula2="999999")
        default = "请填整数"
    dv.allow_blank = True
    dv.showErrorMessage = True
    dv.showInputMessage = bool(prompt)
    _messages(dv, title, prompt, error or default, script)
    dv.add(cells)
    ws.add_data_validation(dv)
    return dv


def add_length_validation(ws: Worksheet, cells: str, lo: int, hi: int, *, title: str = "",
                          prompt: str = "", error: str = "", script: str = "simplified") -> DataValidation:
    """Text-length validation (工号, 联系电话)."""
    dv = DataValidation(type="textLength", operator="between", formula1=str(lo), formula2=str(hi),
                        allow_blank=True, showErrorMessage=True, showInputMessage=bool(prompt))
    _messages(dv, title, prompt, error or f"长度应为 {lo} 到 {hi} 个字符", script)
    dv.add(cells)
    ws.add_data_validation(dv)
    return dv


def _messages(dv: DataValidation, title: str, prompt: str, error: str, script: str) -> None:
    # Excel limits: titles 32 characters, messages 255
    title, prompt, error = (convert(t, script) for t in (title, prompt, error))
    dv.promptTitle = title[:32] or None
    dv.prompt = prompt[:250] or None
    dv.errorTitle = convert("输入有误", script)
    dv.error = error[:250]


def a1(row: int, col: int) -> str:
    """``a1(5, 2) == "B5"``."""
    return f"{get_column_letter(col)}{row}"


def col_range(col: int, first: int, last: int) -> str:
    """``col_range(2, 5, 64) == "B5:B64"``."""
    letter = get_column_letter(col)
    return f"{letter}{first}:{letter}{last}"
