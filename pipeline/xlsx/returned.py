"""The returned copy of a captain's workbook: every problem cell highlighted and commented
(批注), and a first sheet ``问题清单`` listing all problems with links to the cells.

The copy keeps the captain's workbook as openpyxl loads it (values, styles, validations,
protection, hidden sheets).  When a captain sends back an earlier returned copy, our old
``问题清单`` sheet and our old comments/highlights are removed first, so problems that
were fixed do not stay marked.
"""
from __future__ import annotations

import contextlib
import io
import re
import zipfile
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from ._no_numpy import keep_pictures  # first: openpyxl without NumPy
from openpyxl import load_workbook
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.hyperlink import Hyperlink

from ..issues import Issue, unlocated
from ..model import Severity
from ..text import convert, names_kept
from .common import (BODY_FONT, CENTER, GRID, HEADER_FILL, HEADER_FONT, LEFT, TITLE_FONT,
                     atomic_save, guard_existing, put, set_widths)

ISSUES_SHEET = "问题清单"
#: its name in a Traditional league's copies (a literal: OpenCC's converter takes a sixth of
#: a second to load, and a simplified league's copies must not wait for it)
ISSUES_SHEET_TRADITIONAL = "問題清單"
COMMENT_AUTHOR = "报名校验"
SEVERITY_ZH = {Severity.ERROR: "错误", Severity.WARNING: "警告", Severity.INFO: "提示"}
FILLS = {
    Severity.ERROR: PatternFill("solid", fgColor="FFC7CE"),    # light red
    Severity.WARNING: PatternFill("solid", fgColor="FFEB9C"),  # yellow
    Severity.INFO: PatternFill("solid", fgColor="DDEBF7"),     # light blue
}
#: our fills' colours as RGB only: LibreOffice and Excel write them back with an alpha byte
#: (``FFFFC7CE``, ours are ``00FFC7CE``)
_OUR_COLOURS = {f.fgColor.rgb[-6:].upper() for f in FILLS.values()}
#: the start of a comment of ours (【错误】CODE：…, 【錯誤】 in a Traditional league), whoever
#: its author says it is: LibreOffice writes every comment's author back empty or " "
_OURS_RE = re.compile(r"^\s*【(?:错误|錯誤|警告|提示)】[A-Z][A-Z0-9_]*[：:]")
_CELL_RE = re.compile(r"^\$?([A-Za-z]{1,3})\$?([1-9][0-9]{0,6})$")
_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


#: workbooks opened ahead of their copies (:func:`open_ahead`): the stored file's path →
#: (the bytes it was opened from, the workbook); each is taken by one copy
_OPENED: dict[str, tuple[bytes, Any]] = {}


def open_ahead(paths: Iterable[str | Path]) -> int:
    """Open these stored workbooks now, for copies asked for later in this process or in
    processes forked from it (:func:`pipeline.parallel.fork_map`); returns how many opened.

    ``league run``'s prestarted worker has nothing to do while the run validates the night's
    registrations, and a copy cannot start before its issues are known: loading the
    workbook is half of a copy's time (openpyxl), so the run has the worker load the forms
    likely to need a copy meanwhile (:func:`pipeline.run.open_copies_ahead`).  A copy uses
    a workbook opened ahead only when the file still holds the very bytes it was opened
    from; a file that cannot be opened is left to the copy, which says so."""
    n = 0
    for p in paths:
        try:
            raw = Path(p).read_bytes()
            _OPENED[str(p)] = (raw, _load(raw))
        except Exception:  # noqa: BLE001 - the copy itself opens it again, and reports it
            continue
        n += 1
    return n


def _load(raw: bytes) -> Any:
    """The workbook of these bytes (with its pictures, when it has any)."""
    data = io.BytesIO(raw)      # read once: the picture check and the load
    if _has_pictures(data):
        keep_pictures()       # openpyxl was imported without Pillow, which keeps them
    return load_workbook(data)


def returned_copy_job(src_path: str | Path, issues: Iterable[Issue], out_path: str | Path,
                      script: str = "simplified", checks: Any = None, names: Iterable[str] = ()) -> Path | None:
    """:func:`write_returned_copy` with every argument by position (a prestarted worker's job,
    :meth:`pipeline.parallel.Prestarted.submit_map`), synced with the run's other outputs
    (:func:`pipeline.fsutil.sync_each`: the worker was forked before the run said so)."""
    from ..fsutil import sync_each

    sync_each(False)
    return write_returned_copy(src_path, issues, out_path, script=script, checks=checks, names=names)


def _cell_ref(cell: str) -> str | None:
    m = _CELL_RE.match((cell or "").strip())
    return f"{m.group(1).upper()}{m.group(2)}" if m else None


def _location(sheet: str, ref: str) -> str:
    """An internal link target, always quoted: ``'报名表'!E12``."""
    return "'" + sheet.replace("'", "''") + "'!" + ref


def _worst(items: Iterable[Issue]) -> Severity:
    return min((i.severity for i in items), key=lambda s: _ORDER.get(s, 3))


def write_returned_copy(src_path: str | Path, issues: Iterable[Issue], out_path: str | Path,
                        *, script: str = "simplified", checks: Any = None, names: Iterable[str] = ()) -> Path | None:
    """Write the captain's workbook ``src_path`` to ``out_path`` with each problem cell
    filled (red = error, yellow = warning, blue = info) and commented with code and
    message, plus a first sheet ``问题清单``.  Returns ``out_path``, or ``None`` when the
    source cannot be opened.  ``script="traditional"``: a Traditional league prints in
    Traditional (R2015) — our own words and every message and comment, converted as its
    receipts and pages are (:func:`pipeline.text.convert`): what people typed (marked in the
    message: :func:`pipeline.text.typed`) as typed, a cell reference's sheet and a file's
    name as they are, and ``names`` — the people the messages name (:func:`pipeline.run.copy_names`) —
    as names (于丽 stays 于, as the receipt has it).  The messages were once left in
    Simplified under Traditional headings, while the receipt and the page said the same in
    Traditional.  A Simplified league's copy converts nothing (nor loads the converter).
    ``checks`` (a registration form's
    :class:`~pipeline.xlsx.entrychecks.EntryChecks`): the form's dropdowns and input checks
    are put back on the 报名表 entry columns that lost them (a form re-saved without data
    validation was told "请从下拉列表中选择" of a cell with no list).

    >>> write_returned_copy("in.xlsx", issues, "out/in-返回.xlsx")  # doctest: +SKIP
    """
    try:
        raw = Path(src_path).read_bytes()
        ahead = _OPENED.pop(str(src_path), None)
        wb = ahead[1] if ahead is not None and ahead[0] == raw else _load(raw)
    except Exception:  # any unreadable/corrupt/non-xlsx file: the caller reports UNREADABLE_FILE
        return None

    def z(text: str) -> str:
        return convert(text, script)       # (a typed value as typed, its marks removed, in either script)

    kept = names_kept(names) if script == "traditional" and names else contextlib.nullcontext()
    with kept:
        return _write(wb, issues, out_path, z, checks)


def _write(wb: Any, issues: Iterable[Issue], out_path: str | Path, z: Any, checks: Any) -> Path | None:
    """:func:`write_returned_copy` of the workbook ``wb`` once loaded, ``z`` converting to the
    league's script."""
    for ours in (ISSUES_SHEET, ISSUES_SHEET_TRADITIONAL):     # a copy sent back to us
        if ours in wb.sheetnames:
            del wb[ours]
    for ws in wb.worksheets:
        _clear_our_marks(ws)
        for cell in _cells(ws):
            guard_existing(cell)
    _hide_our_sheets(wb)

    items = sorted(issues, key=lambda i: (_ORDER.get(i.severity, 3), i.sheet, _row_col(i.cell), i.code))
    by_cell: dict[tuple[str, str], list[Issue]] = defaultdict(list)
    for it in items:
        ref = _cell_ref(it.cell)
        if it.sheet in wb.sheetnames and ref:
            by_cell[(it.sheet, ref)].append(it)

    for (sheet, ref), cell_issues in by_cell.items():
        ws = wb[sheet]
        cell = ws[ref]
        if not hasattr(cell, "column_letter"):   # a MergedCell is read-only: mark its range's top-left cell
            rng = next((r for r in ws.merged_cells.ranges if ref in r), None)
            if rng is None:
                continue
            cell = ws.cell(rng.min_row, rng.min_col)
        sev = _worst(cell_issues)
        cell.fill = FILLS.get(sev, FILLS[Severity.ERROR])
        text = "\n".join(f"【{z(SEVERITY_ZH.get(i.severity, '错误'))}】{i.code}：{z(i.message)}" for i in cell_issues)
        theirs = cell.comment
        if theirs is not None and not _is_ours(theirs) and (theirs.text or "").strip():
            # the captain's own note on that cell (待本人确认性别) is kept under ours, and
            # given back when the copy returns to us (_clear_our_marks)
            text += f"\n{z(_KEPT_MARK).format(author=theirs.author or '')}\n{theirs.text}"
        comment = Comment(text, z(COMMENT_AUTHOR))
        comment.width = 320
        comment.height = max(80, 40 + 30 * len(cell_issues) + 18 * (len(text) // 22))
        cell.comment = comment
        dim = ws.row_dimensions.get(cell.row)
        if dim is not None and dim.hidden:      # a marked cell the captain could not see
            dim.hidden = False

    if checks is not None:
        from .. import layout
        from .registration import restore_entry_validations

        form = next((wb[n] for n in wb.sheetnames if n == layout.REG_SHEET), None)
        if form is not None:
            restore_entry_validations(form, checks)
    _issues_sheet(wb, items, by_cell, z)
    try:
        return atomic_save(wb, out_path)
    except OSError:
        # the disk (a full disk, a folder that cannot be written): the run stops and says so,
        # and the next night makes the copy — it was dropped as "cannot be copied", for good
        raise
    except Exception:
        # a workbook openpyxl can load but not write back (exotic parts): no copy
        return None


def _has_pictures(data: io.BytesIO) -> bool:
    """Whether the workbook in ``data`` holds pictures (any ``xl/media/`` part)."""
    try:
        with zipfile.ZipFile(data) as z:      # leaves ``data`` open for load_workbook
            return any(n.startswith("xl/media/") for n in z.namelist())
    except Exception:  # noqa: BLE001 - not a zip: load_workbook says so
        return False


def _row_col(cell: str) -> tuple[int, str]:
    ref = _cell_ref(cell) or ""
    col = "".join(ch for ch in ref if ch.isalpha())
    row = "".join(ch for ch in ref if ch.isdigit())
    return (int(row) if row else 0, col.rjust(3))


def _cells(ws) -> list:
    """The cells the workbook holds — not every address of its extent: ``iter_rows`` makes a
    cell for each, and one stray value at XFD1048576 made that 17 billion (the night's run
    grew without bound)."""
    return list(ws._cells.values())


#: the line between our comment and the captain's own note it keeps (see write_returned_copy)
_KEPT_MARK = "—— 原批注（{author}）——"
_KEPT = re.compile(r"\n—— 原批[注註]（(.*?)）——\n")


def _is_ours(comment) -> bool:
    """Whether ``comment`` is one an earlier returned copy wrote — by its text (【错误】CODE：…),
    not its author: LibreOffice writes every author back empty or " " (an old comment of ours
    stayed, and was kept under the new one as "—— 原批注（ ）——"), and a captain's own note,
    whoever wrote it, is never ours."""
    return bool(_OURS_RE.match(comment.text or ""))


def _our_fill(fill) -> bool:
    """Whether ``fill`` is one of our highlights, its colour compared by RGB (not alpha)."""
    rgb = getattr(getattr(fill, "fgColor", None), "rgb", None)
    return (getattr(fill, "fill_type", None) == "solid" and isinstance(rgb, str)
            and rgb[-6:].upper() in _OUR_COLOURS)


def _clear_our_marks(ws) -> None:
    """Remove comments (and their highlight) left by an earlier returned copy — giving back
    the captain's own note that one of ours kept (a copy sent back lost it for good).  A copy
    re-saved by LibreOffice or Excel is known the same way (:func:`_is_ours`, :func:`_our_fill`)."""
    for cell in _cells(ws):
        if cell.comment is not None and _is_ours(cell.comment):
            kept = _KEPT.search(cell.comment.text or "")
            cell.comment = Comment(cell.comment.text[kept.end():], kept.group(1)) if kept else None
            if _our_fill(cell.fill):
                cell.fill = PatternFill(fill_type=None)


def _hide_our_sheets(wb) -> None:
    """Our hidden sheets (``_meta``, ``_lists``) veryHidden again: LibreOffice writes them back
    merely hidden, which a captain can unhide from the menu and edit."""
    from ..layout import META_SHEET
    from .common import LISTS_SHEET

    for name in (META_SHEET, LISTS_SHEET):
        if name in wb.sheetnames and wb[name].sheet_state != "veryHidden":
            wb[name].sheet_state = "veryHidden"


def _issues_sheet(wb, items: list[Issue], by_cell: dict, z) -> None:
    ws = wb.create_sheet(z(ISSUES_SHEET), 0)      # 問題清單 in a Traditional league
    ws.sheet_properties.tabColor = "C00000"
    errors = sum(1 for i in items if i.severity == Severity.ERROR)
    warnings = sum(1 for i in items if i.severity == Severity.WARNING)
    title = z(f"报名表检查结果：错误 {errors} 项，警告 {warnings} 项，共 {len(items)} 项")
    put(ws, "A1", title, font=TITLE_FONT)
    put(ws, "A2", z("点击“单元格”一列可跳到出问题的格子；红色为错误（必须改正），黄色为警告，"
                    "鼠标停在格子上可看批注。改好后请重新发送整个文件。"), font=BODY_FONT)
    ws.merge_cells("A1:F1")
    ws.merge_cells("A2:F2")
    ws.row_dimensions[1].height = 28
    ws.row_dimensions[2].height = 32
    ws["A2"].alignment = LEFT
    headers = ["序号", "代码", "严重程度", "工作表", "单元格", "问题说明"]
    for c, label in enumerate(headers, start=1):
        put(ws, (4, c), z(label), font=HEADER_FONT, fill=HEADER_FILL, align=CENTER, border=GRID)
    link_font = Font(name=BODY_FONT.name, size=11, color="0563C1", underline="single")
    if not items:
        put(ws, (5, 1), z("没有发现问题。"), font=BODY_FONT)
    for n, it in enumerate(items, start=1):
        r = 4 + n
        ref = _cell_ref(it.cell)
        linked = ref is not None and (it.sheet, ref) in by_cell
        said = z(unlocated(it))     # (the 工作表 and 单元格 columns give its place)
        values = [n, it.code, z(SEVERITY_ZH.get(it.severity, str(it.severity))), it.sheet,
                  ref or it.cell or z("（整个文件）"), said]
        for c, v in enumerate(values, start=1):
            put(ws, (r, c), v, font=BODY_FONT, border=GRID, align=LEFT if c == 6 else CENTER)
        sev_cell = ws.cell(r, 3)
        sev_cell.fill = FILLS.get(it.severity, FILLS[Severity.ERROR])
        if linked:
            cell = ws.cell(r, 5)
            cell.hyperlink = Hyperlink(ref=cell.coordinate, location=_location(it.sheet, ref),
                                       display=ref)
            cell.font = link_font
        ws.row_dimensions[r].height = max(20, 18 * (1 + len(said) // 40))
    set_widths(ws, [6, 20, 10, 12, 10, 80])
    ws.freeze_panes = "A5"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = ws.ORIENTATION_LANDSCAPE
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_title_rows = "4:4"
    wb.active = 0
    for other in wb.worksheets[1:]:
        other.sheet_view.tabSelected = False
