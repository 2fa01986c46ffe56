"""XlsxWriter backend for the large generated workbooks (the referees' result sheets).

openpyxl builds a Python object per cell and serialises it through a generic XML
writer; a 200-unit 斗地主 round (12,000 detail rows) took about a second.  XlsxWriter
writes the same sheet in a sixth of the time, so the result workbooks, which are only
ever *written*, use it; everything that is read, copied or edited stays on openpyxl.

:class:`Book` / :class:`Sheet` keep the conventions of :mod:`.common`: the same style
objects (openpyxl ``Font`` / ``PatternFill`` / ``Alignment`` / ``Border``, mapped once
to XlsxWriter formats), text that could be read as a formula written as a string with
the quote prefix (:func:`.common.needs_guard`), the veryHidden ``_meta`` and ``_lists``
sheets, the print setup of :func:`.common.print_setup`, and deterministic, atomic saves
(fixed dates, as :func:`.common.deterministic_zip` gives openpyxl's files).  The
workbook's structure is locked as with openpyxl's ``WorkbookProtection(lockStructure=True)``;
XlsxWriter has no call for that, so :class:`_Workbook` writes the element.
"""
from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any, Sequence

import xlsxwriter
import xlsxwriter.worksheet
from xlsxwriter.utility import xl_rowcol_to_cell, xl_rowcol_to_cell_fast

from .. import layout
from ..text import convert, verbatim
from .common import LISTS_SHEET, literal_list_ok, needs_guard

_FIXED_DATE = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)


class _Worksheet(xlsxwriter.worksheet.Worksheet):
    """XlsxWriter's worksheet, writing its commonest cells — a styled shared string, number
    or blank — in one step: the very XML ``Worksheet._write_cell`` writes (the same bytes:
    ``test_fast_cells_write_what_xlsxwriter_writes``), without its per-cell attribute list,
    type-name dispatch and escaping of an integer style index (a caught TypeError each: a
    tenth of writing a referees' workbook)."""

    def _write_cell(self, row: int, col: int, cell: Any) -> None:
        kind = type(cell)
        fmt = cell.format
        if fmt is None or self.constant_memory or kind not in _FAST_CELLS:
            super()._write_cell(row, col, cell)
            return
        ref = xl_rowcol_to_cell_fast(row, col)
        xf = fmt._get_xf_index()
        if kind is _STRING:
            self.fh.write(f'<c r="{ref}" s="{xf}" t="s"><v>{cell.string}</v></c>')
        elif kind is _NUMBER:
            self.fh.write(f'<c r="{ref}" s="{xf}"><v>{cell.number:.16G}</v></c>')
        else:
            self.fh.write(f'<c r="{ref}" s="{xf}"/>')


_STRING, _NUMBER = xlsxwriter.worksheet.CellStringTuple, xlsxwriter.worksheet.CellNumberTuple
_FAST_CELLS = frozenset({_STRING, _NUMBER, xlsxwriter.worksheet.CellBlankTuple})


class _Workbook(xlsxwriter.Workbook):
    """XlsxWriter's workbook, plus ``<workbookProtection lockStructure="1"/>`` (the element
    goes between ``workbookPr`` and ``bookViews`` in ``xl/workbook.xml``)."""

    lock_structure = False

    def _write_book_views(self) -> None:
        if self.lock_structure:
            self._xml_empty_tag("workbookProtection", [("lockStructure", "1")])
        super()._write_book_views()


def _color(c: Any) -> str | None:
    """openpyxl Color → ``#RRGGBB`` (ARGB values drop their alpha)."""
    rgb = getattr(c, "rgb", None) if c is not None else None
    if not isinstance(rgb, str):
        return None
    return "#" + rgb[-6:]


_BORDER_STYLES = {"thin": 1, "medium": 2, "dashed": 3, "dotted": 4, "thick": 5, "double": 6, "hair": 7}


def format_props(font: Any = None, fill: Any = None, align: Any = None, border: Any = None,
                 locked: bool | None = None, guard: bool = False) -> dict[str, Any]:
    """XlsxWriter format properties for openpyxl style objects (the subset the writers use)."""
    p: dict[str, Any] = {}
    if font is not None:
        if font.name:
            p["font_name"] = font.name
        if font.sz:
            p["font_size"] = float(font.sz)
        if font.b:
            p["bold"] = True
        if _color(font.color):
            p["font_color"] = _color(font.color)
    if fill is not None and getattr(fill, "fill_type", None) == "solid":
        p["pattern"] = 1
        p["bg_color"] = _color(fill.fgColor)
    if align is not None:
        if align.horizontal:
            p["align"] = align.horizontal
        if align.vertical:
            p["valign"] = "vcenter" if align.vertical == "center" else align.vertical
        if align.wrap_text:
            p["text_wrap"] = True
    if border is not None:
        for side in ("left", "right", "top", "bottom"):
            s = getattr(border, side)
            if s is not None and s.style:
                p[side] = _BORDER_STYLES.get(s.style, 1)
                if _color(s.color):
                    p[f"{side}_color"] = _color(s.color)
    if locked is not None:
        p["locked"] = bool(locked)
    if guard:
        p["quote_prefix"] = True
    return p


class Book:
    """One workbook being written; ``Book().sheet("成绩")`` … ``book.save(path)``."""

    def __init__(self, *, script: str = "simplified") -> None:
        self._buf = io.BytesIO()
        self.wb = _Workbook(self._buf, {
            "in_memory": True,
            # values are written as given: no text turned into a number, formula or link
            "strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False,
        })
        # fixed document dates (zip entries are dated 1980-01-01 by XlsxWriter): the same
        # workbook is the same bytes from run to run, and is then not rewritten at all
        self.wb.set_properties({"created": _FIXED_DATE})
        self.script = script
        self._formats: dict[tuple, tuple[Any, Any]] = {}
        self._lists: Any = None
        self._lists_cols = 0

    @property
    def lock_structure(self) -> bool:
        return self.wb.lock_structure

    @lock_structure.setter
    def lock_structure(self, value: bool) -> None:
        self.wb.lock_structure = value

    def fmt(self, font: Any = None, fill: Any = None, align: Any = None, border: Any = None,
            locked: bool | None = None, guard: bool = False) -> Any:
        """The (shared) XlsxWriter format for these style objects."""
        key = (id(font), id(fill), id(align), id(border), locked, guard)
        hit = self._formats.get(key)
        if hit is None:
            # the style objects are kept with the format, so their ids stay theirs
            hit = self._formats[key] = ((font, fill, align, border),
                                        self.wb.add_format(format_props(font, fill, align, border, locked, guard)))
        return hit[1]

    def sheet(self, name: str) -> "Sheet":
        return Sheet(self, self.wb.add_worksheet(name, worksheet_class=_Worksheet))

    def list_source(self, values: Sequence[str]) -> str | list[str]:
        """A dropdown's source: the literal list when it is short and safe, else a range on
        the veryHidden ``_lists`` sheet (as :func:`.common.list_formula`)."""
        if literal_list_ok(values):
            return list(values)
        if self._lists is None:
            ws = self.wb.add_worksheet(LISTS_SHEET)
            ws.very_hidden()
            ws.protect()
            self._lists = ws
        col = self._lists_cols
        self._lists_cols += 1
        plain = self.fmt()
        guarded = self.fmt(guard=True)
        for i, v in enumerate(values):
            self._lists.write_string(i, col, v, guarded if needs_guard(v) else plain)
        first = xl_rowcol_to_cell(0, col, row_abs=True, col_abs=True)
        last = xl_rowcol_to_cell(max(1, len(values)) - 1, col, row_abs=True, col_abs=True)
        return f"='{LISTS_SHEET}'!{first}:{last}"

    def meta(self, items: Sequence[tuple[str, Any]]) -> None:
        """The protected, veryHidden ``_meta`` sheet (as :func:`.common.write_meta`)."""
        ws = self.wb.add_worksheet(layout.META_SHEET)
        sheet = Sheet(self, ws)
        for i, (key, value) in enumerate(items, start=1):
            sheet.put(i, 1, key)
            sheet.put(i, 2, "" if value is None else value)
        ws.set_column(0, 0, 20)
        ws.set_column(1, 1, 40)
        ws.protect()
        ws.very_hidden()

    def to_bytes(self) -> bytes:
        """The finished file (deterministic: fixed dates throughout)."""
        self.wb.close()
        return self._buf.getvalue()

    def save(self, path: str | Path) -> Path:
        """Write atomically (temporary file, fsync, replace); creates the folder."""
        from ..fsutil import atomic_write_bytes

        path = Path(path)
        atomic_write_bytes(path, self.to_bytes())
        return path


class Sheet:
    """One worksheet; rows and columns are 1-based as in openpyxl."""

    def __init__(self, book: Book, ws: Any) -> None:
        self.book, self.ws = book, ws

    def put(self, row: int, col: int, value: Any, *, font: Any = None, fill: Any = None, align: Any = None,
            border: Any = None, locked: bool | None = None) -> None:
        """Write one cell (as :func:`.common.put`): text that starts with ``= + - @``/tab/CR
        stays exactly as given, as a string with the quote prefix."""
        guard = needs_guard(value)
        styled = guard or font is not None or fill is not None or align is not None or border is not None \
            or locked is not None
        f = self.book.fmt(font, fill, align, border, locked, guard) if styled else None
        self._write(row, col, value, f)

    def styled(self, font: Any = None, fill: Any = None, align: Any = None, border: Any = None,
               locked: bool | None = None) -> tuple[Any, Any]:
        """(format, the same with the quote prefix) for :meth:`put_as`: a style looked up once
        for the thousands of cells of a large round that share it."""
        return (self.book.fmt(font, fill, align, border, locked, False),
                self.book.fmt(font, fill, align, border, locked, True))

    def put_as(self, row: int, col: int, value: Any, style: tuple[Any, Any]) -> None:
        """:meth:`put` with a style from :meth:`styled`: the same cell, the style not looked up."""
        self._write(row, col, value, style[1] if needs_guard(value) else style[0])

    def _write(self, row: int, col: int, value: Any, f: Any) -> None:
        """One cell in format ``f`` (None: unstyled) by its value's type."""
        r, c = row - 1, col - 1
        if value is None or value == "":   # as openpyxl: an empty text is a blank cell
            if f is not None:
                self.ws.write_blank(r, c, None, f)
        elif isinstance(value, str):
            self.ws.write_string(r, c, value, f)
        elif isinstance(value, bool):
            self.ws.write_boolean(r, c, value, f)
        elif isinstance(value, (int, float)):
            self.ws.write_number(r, c, value, f)
        else:
            self.ws.write_string(r, c, str(value), f)

    def merged(self, row: int, first_col: int, last_col: int, value: Any, **style: Any) -> None:
        """One merged line across ``first_col…last_col``."""
        if last_col <= first_col:
            self.put(row, first_col, value, **style)
            return
        guard = needs_guard(value)
        self.ws.merge_range(row - 1, first_col - 1, row - 1, last_col - 1, "",
                            self.book.fmt(style.get("font"), style.get("fill"), style.get("align"),
                                          style.get("border"), style.get("locked"), guard))
        self.put(row, first_col, value, **style)

    def row_height(self, row: int, height: float) -> None:
        self.ws.set_row(row - 1, height)

    def widths(self, widths: Sequence[float], start: int = 1, styles: dict[int, dict] | None = None) -> None:
        """Column widths; ``styles`` maps a column to a default style (font/align/locked)."""
        styles = styles or {}
        for i, w in enumerate(widths, start=start):
            st = styles.get(i)
            self.ws.set_column(i - 1, i - 1, w, self.book.fmt(**st) if st else None)

    def comment(self, row: int, col: int, text: str) -> None:
        self.ws.write_comment(row - 1, col - 1, text, {"author": "", "width": 240, "height": 90})

    def _messages(self, opts: dict, title: str, prompt: str, error: str) -> dict:
        script = self.book.script
        title, prompt, error = (convert(t, script) for t in (title, prompt, error))
        opts["ignore_blank"] = True
        opts["show_input"] = bool(prompt)
        if title[:32]:
            opts["input_title"] = title[:32]
        if prompt[:250]:
            opts["input_message"] = prompt[:250]
        if error:
            opts["show_error"] = True
            opts["error_title"] = convert("输入有误", script)
            opts["error_message"] = error[:250]
        return opts

    def _validate(self, col: int, first: int, last: int, opts: dict) -> None:
        if self.ws.data_validation(first - 1, col - 1, last - 1, col - 1, opts) != 0:
            raise ValueError(f"data validation refused by XlsxWriter: {opts}")

    def list_validation(self, col: int, first: int, last: int, values: Sequence[str], *, title: str = "",
                        prompt: str = "", error: str = "") -> None:
        """A dropdown (as :func:`.common.add_list_validation`: its error message lists ``values``
        as the dropdown holds them)."""
        opts = {"validate": "list", "source": self.book.list_source(values)}
        listed = verbatim("、".join(values)[:180], self.book.script)
        self._validate(col, first, last, self._messages(opts, title, prompt, error or f"请从下拉列表中选择：{listed}"))

    def whole_validation(self, col: int, first: int, last: int, lo: int | None, hi: int | None, *,
                         title: str = "", prompt: str = "", error: str = "") -> None:
        """Whole numbers (as :func:`.common.add_whole_validation`)."""
        if lo is not None and hi is not None:
            opts = {"criteria": "between", "minimum": lo, "maximum": hi}
            default = f"请填 {lo} 到 {hi} 之间的整数"
        elif lo is not None:
            opts, default = {"criteria": ">=", "value": lo}, f"请填不小于 {lo} 的整数"
        elif hi is not None:
            opts, default = {"criteria": "<=", "value": hi}, f"请填不大于 {hi} 的整数"
        else:
            opts, default = {"criteria": "between", "minimum": -999999, "maximum": 999999}, "请填整数"
        opts["validate"] = "integer"
        self._validate(col, first, last, self._messages(opts, title, prompt, error or default))

    def prompt_only(self, col: int, first: int, last: int, *, title: str, prompt: str) -> None:
        """An input message without a check."""
        opts = {"validate": "any", "ignore_blank": True, "show_input": True,
                "input_title": title[:32], "input_message": prompt[:250]}
        self._validate(col, first, last, opts)

    def freeze(self, row: int, col: int) -> None:
        """Freeze above ``row`` and left of ``col`` (the first scrolling cell, 1-based)."""
        self.ws.freeze_panes(row - 1, col - 1)

    def protect(self) -> None:
        """As :func:`.common.protect`: no password; columns and rows may be resized."""
        self.ws.protect("", {"format_columns": True, "format_rows": True,
                             "select_locked_cells": True, "select_unlocked_cells": True})

    def print_setup(self, *, header_row: int, last_col: int, last_row: int | None, landscape: bool,
                    grid: bool = False) -> None:
        """As :func:`.common.print_setup` (A4, one page wide, header row repeated, page
        numbers in the footer), with the print area and optionally the printed grid."""
        ws = self.ws
        ws.set_paper(9)
        if landscape:
            ws.set_landscape()
        else:
            ws.set_portrait()
        ws.fit_to_pages(1, 0)
        ws.repeat_rows(header_row - 1)
        ws.center_horizontally()
        ws.set_margins(left=0.4, right=0.4, top=0.75, bottom=0.75)
        ws.set_header("", margin=0.3)
        ws.set_footer("&C第 &P 页 / 共 &N 页", margin=0.3)
        if grid:
            ws.hide_gridlines(0)
        if last_row is not None:
            ws.print_area(0, 0, last_row - 1, last_col - 1)
