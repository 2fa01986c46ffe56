"""Reading a received workbook safely and fast: every sheet's values, the hidden ``_meta``.

The fast path is python-calamine (Rust).  Before calamine sees a byte, the file is
checked, because calamine aborts the whole process on some inputs (a single cell at
XFD1048576 makes it allocate the dense range) and silently turns error cells into blanks:

1. sniff the bytes: OLE2 (legacy ``.xls`` or a password-protected workbook), CSV or HTML
   renamed ``.xlsx``, empty file, not a zip;
2. zip limits before unpacking: total declared size ≤ 50 MB besides the worksheets, each
   worksheet ≤ 256 MB, ratio ≤ 100 (when above 1 MB), ≤ 5,000 members; then every member is
   inflated by :mod:`zipfile`, which stops at the declared size and checks the CRC
   (truncated or corrupt zips fail here).  A worksheet is inflated a megabyte at a time and
   its empty rows (``<row …/>``: a row format, no cell) dropped as they come: what is kept
   in memory stays ≤ 50 MB.  (Excel writes one such row per formatted row: a form whose rows
   were formatted down to row 1,048,576 is 70 MB of them — refused as a zip bomb, its
   entries lost, with advice about pictures it did not have);
3. every XML part is refused if it carries a DTD (``<!DOCTYPE``/``<!ENTITY``): OOXML never
   needs one, so entity bombs never reach a parser;
4. every worksheet is scanned for its valued extent, error cells (``#REF!``) and formulas
   without a cached value.  A sheet whose extent is too large for a dense read, or that has
   more than :data:`MAX_ROWS` rows with data, is streamed by openpyxl (read-only) and cut
   at :data:`MAX_ROWS` rows with data (``Sheet.truncated``).

Values: text stays text, integral numbers become ``int`` (so a staff number 19390926685
reads back as ``19390926685``, never ``1.9e10``), dates are ``date``/``datetime``, empty
cells are ``None`` and error / uncached formula cells are :class:`CellError`.

``.xlsm`` decision: macro-enabled workbooks are **read for their values**; macros are never
run (calamine and openpyxl do not execute VBA).  ``Book.macros`` says a VBA project was present.
"""
from __future__ import annotations

import codecs
import datetime as dt
import io
import posixpath
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..layout import CONTROL_CHARS, META_SHEET
from ..text import NAME_DOT_MAP, cjk_periods

#: limits (module constants so tests and the runner can read them)
MAX_TOTAL_BYTES = 50 * 1024 * 1024       # inflated bytes kept in memory (every part, worksheets after their empty rows)
#: a worksheet part's inflated size (streamed, its empty rows dropped): every row of a
#: sheet formatted (Excel: one ``<row r=… s=… customFormat="1" …/>`` per row, ≤ 120 bytes)
#: is 1,048,576 rows × 120 bytes, about 126 MB — twice that for a second sheet so formatted
MAX_SHEET_BYTES = 256 * 1024 * 1024
EMPTY_ROWS_SAID = 10_000   # this many empty formatted rows in a sheet are said (Sheet.empty_rows)
MAX_RATIO = 100
RATIO_FLOOR_BYTES = 1024 * 1024
MAX_MEMBERS = 5000
MAX_ROWS = 100_000         # rows with data read per sheet (an 800-unit 斗地主 detail sheet has ~48,000)
MAX_COLS = 256             # columns read per row
MAX_GAP = 10_000           # blank rows after which a value is a stray cell, not data (Sheet.far)
MAX_DENSE_CELLS = 2_000_000  # calamine allocates rows × columns of the valued extent
HEADER_SCAN_ROWS = 200      # rows searched for a header (captains insert rows above it: 34 seen)
BLANK_RUN = 20             # a table ends at this many fully blank rows in a row


class UnreadableFile(Exception):
    """A file we cannot read at all.  ``kind`` is a stable code, ``message_cn`` tells the
    captain what to do.

    >>> UnreadableFile("xls", "请另存为 .xlsx").kind
    'xls'
    """

    def __init__(self, kind: str, message_cn: str) -> None:
        self.kind, self.message_cn = kind, message_cn
        super().__init__(f"{kind}: {message_cn}")


@dataclass(frozen=True)
class CellError:
    """An error value (``#REF!``) or a formula with no saved value (``code`` = "未计算")."""

    code: str

    def __str__(self) -> str:
        return self.code

    def advice(self) -> str:
        """What the cell holds and what to change, in Chinese, to follow the cell's name.

        >>> CellError("#REF!").advice()
        '是公式错误 #REF!：请改正公式，或直接填写内容。'
        """
        if self.code == NO_CACHED_VALUE:
            # a workbook saved by a program that does not compute formulas (openpyxl, an
            # export script, some web and phone editors): the formula is there, its value not
            return ("是公式，但文件里没有保存它的计算结果（多半是用不计算公式的软件保存的），读不到内容："
                    "请在 Excel 或 WPS 中打开后保存，再重新发送；或把公式改为直接填写的内容。")
        return f"是公式错误 {self.code}：请改正公式，或直接填写内容。"

    def located(self, label: str, file: str, sheet: str, cell: str) -> str:
        """One message for the cell: the file, the sheet, the cell, what it holds and what to change.

        >>> CellError("#REF!").located("结果", "r1.xlsx", "成绩", "F7")
        '《r1.xlsx》“成绩”工作表 F7 单元格（“结果”）是公式错误 #REF!：请改正公式，或直接填写内容。'
        """
        return f"《{file}》“{sheet}”工作表 {cell} 单元格（“{label}”）{self.advice()}"


NO_CACHED_VALUE = "未计算的公式"


@dataclass
class Sheet:
    """One sheet's values.  ``rows[i]`` is sheet row ``i + 1``; ``rows[i][j]`` column ``j + 1``."""

    name: str
    state: str = "visible"          # visible | hidden | veryHidden
    rows: list[list[Any]] = field(default_factory=list)
    truncated: bool = False         # more than MAX_ROWS rows with data: the rest was not read
    far: str = ""                   # A1 of a value past MAX_GAP blank rows, not read (a stray cell)
    far_right: str = ""             # A1 of the first value past MAX_COLS columns, not read
    #: merged ranges as 1-based (first row, first col, last row, last col) — only the first
    #: cell of a range holds its value (a pair's 队号 merged over its two rows)
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    #: rows hidden in Excel (1-based): read as the others, and said where they hold data
    hidden_rows: frozenset[int] = frozenset()
    #: 1-based (row, col) → the text Excel shows for a number in a zero-padding number format
    #: (1234 typed into a cell formatted ``000000`` shows ``001234``); empty for nearly every
    #: sheet.  The value stays the number: a reader of identifiers (工号) takes the text
    shown: dict[tuple[int, int], str] = field(default_factory=dict)
    #: (first row, count) of the empty formatted rows below the last row with cells, when
    #: there are at least :data:`EMPTY_ROWS_SAID` (whole rows formatted down to the sheet's
    #: end): not read, but they make the file large — (0, 0) for nearly every sheet
    empty_rows: tuple[int, int] = (0, 0)

    def fill_merged_down(self, below: int, columns: Iterable[int], when: Iterable[int]) -> None:
        """Give every cell of a merged range in ``columns`` that starts below row ``below``
        the value of the range's first cell (a captain merged the 队号 of a pair's rows) —
        in the rows with a value in one of the ``when`` columns (a person's 姓名 or 工号: a
        merge reaching blank rows, or a note on one, makes no registration)."""
        cols, need = set(columns), list(when)
        for r0, c0, r1, c1 in self.merged:
            if r0 <= below or r1 <= r0:
                continue
            for c in range(c0, c1 + 1):
                if c not in cols:
                    continue
                top = self.value(r0, c)
                for r in range(r0 + 1, min(r1, len(self.rows)) + 1):
                    row = self.rows[r - 1]
                    if not any(c2 <= len(row) and not is_blank(row[c2 - 1]) for c2 in need):
                        continue
                    if len(row) < c:
                        row.extend([None] * (c - len(row)))
                    if is_blank(row[c - 1]):
                        row[c - 1] = top

    @property
    def hidden(self) -> bool:
        return self.state != "visible"

    def value(self, row: int, col: int) -> Any:
        """Value at 1-based (row, col), ``None`` when outside the data."""
        if 1 <= row <= len(self.rows):
            r = self.rows[row - 1]
            if 1 <= col <= len(r):
                return r[col - 1]
        return None


@dataclass
class Book:
    """A read workbook: sheets in workbook order and the ``_meta`` key → value dict."""

    name: str
    sheets: dict[str, Sheet]
    meta: dict[str, str] = field(default_factory=dict)
    macros: bool = False
    #: when Excel/WPS last saved it (docProps/core.xml's dcterms:modified, ISO 8601 UTC; ""
    #: when not recorded): which of two forms received together is the later version
    saved: str = ""
    #: a sheet the contract names → the sheet read as it, renamed (成绩 → Sheet1): set by
    #: :func:`pipeline.ingest.sheets.adopt_renamed_result_sheet`; empty for nearly every book
    renamed: dict[str, str] = field(default_factory=dict)

    @property
    def sheet_names(self) -> list[str]:
        return list(self.sheets)

    def sheet(self, name: str) -> Sheet | None:
        """A sheet by name; a name differing only by width/spaces also matches; then the
        sheet read as it under another name (:attr:`renamed`)."""
        if name in self.sheets:
            return self.sheets[name]
        want = norm_label(name)
        found = next((s for n, s in self.sheets.items() if norm_label(n) == want), None)
        if found is None and name in self.renamed:
            return self.sheets.get(self.renamed[name])
        return found


# -- text helpers ----------------------------------------------------------------------------
#: characters that show nothing: zero-width spaces and joiners, the soft hyphen, and the
#: bidirectional marks and embeddings (U+200E/F, U+202A–E, U+2066–9) a copy from a web page
#: or a phone brings along — one person with and without them was two people
INVISIBLE_CHARS = ("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u200e\u200f"
                   "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                   + CONTROL_CHARS)     # a name with one was another person
_INVISIBLE = dict.fromkeys(map(ord, INVISIBLE_CHARS), None)
_IDENTITY = {**_INVISIBLE, **NAME_DOT_MAP}       # (one pass: the invisible out, the name dots as ·)


def strip_spaces(text: str) -> str:
    """NFKC, then remove every kind of space (incl. NBSP, ideographic, zero-width); the dots
    of a name (:data:`pipeline.text.NAME_DOTS`, a full stop between Chinese characters) become ``·``.

    >>> strip_spaces("王\\u3000 军\\u200b"), strip_spaces("买买提.艾力"), strip_spaces("买买提・艾力")
    ('王军', '买买提·艾力', '买买提·艾力')
    """
    return "".join(cjk_periods(unicodedata.normalize("NFKC", text).translate(_IDENTITY)).split())


def norm_label(text: Any) -> str:
    """Normalise a header label: NFKC, spaces removed, a trailing required mark ``*`` dropped.

    >>> norm_label(" 姓 名* ")
    '姓名'
    """
    if not isinstance(text, str):
        return ""
    return strip_spaces(text).rstrip("*")


def cell_text(value: Any) -> str:
    """A cell value as the text a person typed: integral numbers without ``.0``.

    >>> cell_text(19390926685.0), cell_text(dt.date(2020, 11, 9)), cell_text(None)
    ('19390926685', '2020-11-09', '')
    >>> cell_text(dt.timedelta(hours=25)), cell_text(dt.timedelta(minutes=1, seconds=5))
    ('25:00', '0:01:05')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        if isinstance(value, dt.datetime) and value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, dt.timedelta):     # an elapsed-time cell ([h]:mm) as it shows: 25:00, not "1 day, 1:00:00"
        minutes, rest = divmod(value, dt.timedelta(minutes=1))
        sign, minutes = ("-", -minutes) if minutes < 0 else ("", minutes)
        seconds = f":{int(rest.total_seconds()):02d}" if rest else ""
        return f"{sign}{minutes // 60}:{minutes % 60:02d}{seconds}"
    return str(value).strip()


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def col_letter(col: int) -> str:
    """1-based column number → letters.

    >>> col_letter(1), col_letter(27), col_letter(16384)
    ('A', 'AA', 'XFD')
    """
    s = ""
    while col > 0:
        col, rem = divmod(col - 1, 26)
        s = chr(65 + rem) + s
    return s


def a1(row: int, col: int) -> str:
    """1-based (row, col) → A1 reference.  ``a1(12, 5) == "E12"``."""
    return f"{col_letter(col)}{row}"


def col_number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch.upper()) - 64
    return n


# -- the header row and the table ----------------------------------------------------------
class TableNotFound(Exception):
    """No header row with all ``required`` labels; ``missing`` are the labels absent from
    the best candidate row (the one with the most known labels).  ``cells``: for a missing
    label whose header cell can be told in that row (the one cell, blank or not, where the
    label belongs between its neighbours, or the one cell naming it), its 1-based column and
    the text found there ("" when blank)."""

    def __init__(self, missing: list[str], best_row: int | None, sheets: list[str] | None = None,
                 cells: dict[str, tuple[int, str]] | None = None) -> None:
        self.missing, self.best_row = missing, best_row
        #: when the sheet itself is missing: the workbook's sheets (else None)
        self.sheets = sheets
        self.cells = cells or {}
        super().__init__(f"header row not found; missing {missing}")

    def cell(self, label: str) -> str:
        """A1 of ``label``'s header cell as told (:attr:`cells`), "" when not told."""
        found = self.cells.get(label)
        return a1(self.best_row, found[0]) if found and self.best_row else ""


@dataclass
class Table:
    """A table found by its labels: 1-based header row, normalised label → 1-based column,
    and the data rows as (sheet row number, values)."""

    header_row: int
    columns: dict[str, int]
    rows: list[tuple[int, list[Any]]]
    after: int = 0      # the first row with data past the blank rows that ended the table (not read)
    #: the header was read only through :func:`pipeline.text.to_simplified` (項目, 姓名): the
    #: sheet was converted to 繁體 as a whole (WPS 简转繁), its values too
    traditional: bool = False

    def get(self, values: Sequence[Any], label: str) -> Any:
        c = self.columns.get(label)
        if c is None or c > len(values):
            return None
        return values[c - 1]

    def cell(self, row: int, label: str) -> str:
        """A1 reference of ``label`` in sheet row ``row`` ("" when the column is absent)."""
        c = self.columns.get(label)
        return a1(row, c) if c else ""


#: a note in brackets at the end of a header label (after NFKC: （必填） is (必填)); a
#: captain's "姓名（必填）" or a referee's "结果(甲胜/乙胜)" is still that column
_LABEL_NOTE = re.compile(r"\s*[(\[【〔<《][^()\[\]【】〔〕<>《》]*[)\]】〕>》]$")


def _label_base(lab: str) -> str:
    """A normalised header label without its trailing bracketed notes (and required marks).

    >>> _label_base("姓名(必填)"), _label_base("姓名【必填】*"), _label_base("(备注)")
    ('姓名', '姓名', '(备注)')
    """
    base = lab
    while True:
        cut = _LABEL_NOTE.sub("", base).rstrip("*")
        if cut == base or not cut:
            return base
        base = cut


def _known_as(lab: str, known: set[str], script: bool, lengths: set[int]) -> str:
    """The known label a normalised header label stands for: itself, itself without a
    bracketed note, and (``script``) either in Simplified — a header converted to 繁體 by
    WPS 简转繁 (項目, 隊號) — or "" when none.  (Only a label as long as a known one is
    converted: OpenCC maps character for character, and a long title is no label.)"""
    if lab in known:
        return lab
    base = _label_base(lab)
    if base in known:
        return base
    if script and len(base) in lengths and not base.isascii():
        from ..text import to_simplified

        simple = to_simplified(base)
        if simple in known:
            return simple
    return ""


def find_table(rows: Sequence[Sequence[Any]], required: Iterable[str], known: Iterable[str] = (),
               scan: int = HEADER_SCAN_ROWS, whole: bool = False) -> Table:
    """Find the header row (among the first ``scan`` rows, the first holding every
    ``required`` label), map every labelled column, and collect data rows until
    :data:`BLANK_RUN` fully blank rows.  Raises :class:`TableNotFound`.

    A header label is also known with a bracketed note after it (``姓名（必填）``) or in
    Traditional script (``項目``, compared through :func:`pipeline.text.to_simplified` — tried
    only when no row holds the labels as written, so a form in order never loads OpenCC); a
    label as written wins over such a one.

    >>> t = find_table([["报名表"], [], ["姓名", "项目"], ["王军", "象棋"]], ["项目", "姓名"])
    >>> t.header_row, t.columns["项目"], t.rows
    (3, 2, [(4, ['王军', '象棋'])])
    >>> find_table([["姓名（必填）", "項目"]], ["项目", "姓名"]).columns["姓名"]
    1
    """
    required = list(required)
    order = list(dict.fromkeys([*known, *required]))      # (the template's order: where a label belongs)
    known_set = set(order)
    lengths = {len(k) for k in known_set}
    head = rows[:scan]
    best: tuple[int, int, list[str]] | None = None
    for script in (False, True):
        for i, row in enumerate(head):
            norms = [norm_label(v) for v in row]
            as_known = [_known_as(lab, known_set, script, lengths) if lab else "" for lab in norms]
            found = set(as_known)
            if all(r in found for r in required):
                columns: dict[str, int] = {}
                for j, lab in enumerate(norms):
                    if lab and lab not in columns:
                        columns[lab] = j + 1
                for j, lab in enumerate(as_known):      # (a label as written came first)
                    if lab and lab not in columns:
                        columns[lab] = j + 1
                data, after = _data_rows(rows, i + 1, whole)
                return Table(i + 1, columns, data, after, traditional=script)
            score = len(found & known_set - {""})
            if score and (best is None or score > best[1]):
                best = (i + 1, score, as_known)
        if best is not None and best[1] >= len(known_set):
            break       # (every label but a required one there: nothing a script could add)
    missing = [r for r in required if best is None or r not in best[2]]
    cells = _header_cells(head[best[0] - 1], best[2], missing, order) if best else {}
    raise TableNotFound(missing, best[0] if best else None, cells=cells)


def _header_cells(row: Sequence[Any], as_known: list[str], missing: list[str], order: list[str]
                  ) -> dict[str, tuple[int, str]]:
    """Where each ``missing`` label's header cell is in the best header ``row`` (see
    :attr:`TableNotFound.cells`): the one cell not holding a known label that names it
    (``参赛者姓名``), else the one cell between the columns of the known labels before and
    after it in ``order`` (a label typed over, or deleted)."""
    at = {lab: j for j, lab in enumerate(as_known) if lab}
    width = max(len(row), len(as_known), max(at.values(), default=-1) + 2)     # (a last column deleted)
    texts = [cell_text(row[j]) if j < len(row) else "" for j in range(width)]
    free = [j for j in range(width) if not (j < len(as_known) and as_known[j])]
    out: dict[str, tuple[int, str]] = {}
    for lab in missing:
        naming = [j for j in free if lab in norm_label(texts[j])]
        if len(naming) == 1:
            out[lab] = (naming[0] + 1, texts[naming[0]])
            continue
        k = order.index(lab) if lab in order else -1
        before = next((at[o] for o in reversed(order[:k]) if o in at), None) if k >= 0 else None
        after = next((at[o] for o in order[k + 1:] if o in at), None) if k >= 0 else None
        if before is None and after is None:
            continue
        lo = before + 1 if before is not None else (after - 1 if after is not None else 0)
        hi = after - 1 if after is not None else before + 1
        taken = {c - 1 for c, _ in out.values()}
        between = [j for j in free if lo <= j <= hi and j not in taken]
        if len(between) == 1:
            out[lab] = (between[0] + 1, texts[between[0]])
    return out


def _data_rows(rows: Sequence[Sequence[Any]], header_row: int, whole: bool = False
               ) -> tuple[list[tuple[int, list[Any]]], int]:
    """(the table's rows up to :data:`BLANK_RUN` blank rows — every row when ``whole`` —, the
    first row with data after them or 0)."""
    out: list[tuple[int, list[Any]]] = []
    blank = 0
    for i in range(header_row, len(rows)):
        row = list(rows[i])
        if all(is_blank(v) for v in row):
            blank += 1
            if blank >= BLANK_RUN and not whole:
                later = next((j for j in range(i + 1, len(rows)) if not all(is_blank(v) for v in rows[j])), None)
                return out, later + 1 if later is not None else 0
            continue
        blank = 0
        out.append((i + 1, row))
    return out, 0


# -- reading -----------------------------------------------------------------------------------
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_DTD = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.I)
_CELL = re.compile(rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?c>)", re.S)
_ATTR_R = re.compile(rb'\br="([A-Z]{1,3})([0-9]{1,7})"')
_ATTR_T = re.compile(rb'\bt="(\w+)"')
_VALUE = re.compile(rb"<(?:\w+:)?v>([^<]*)</(?:\w+:)?v>")
#: the main namespace of a workbook saved as Strict Open XML (ISO/IEC 29500 Strict)
_STRICT_NS = b"purl.oclc.org/ooxml/spreadsheetml/main"
_MSG_RESAVE = "请用 Excel 或 WPS 打开后“另存为” Excel 工作簿（.xlsx），再重新提交。"
#: a CSV (saved as CSV, or renamed): saving it back as .xlsx does not help — CSV keeps one
#: sheet's text and loses the form's hidden check sheet (_meta), and the resaved file was
#: refused again as not our form
MSG_CSV = ("这是 CSV 文本文件（另存为 CSV 或改了扩展名），不是 Excel 工作簿。CSV 文件丢失了报名表中的校验信息，"
           "请在下发的 .xlsx 报名表中填写后发送（成绩表同样请在下发的 .xlsx 表格中填写），不要另存为 CSV。")


@dataclass
class _SheetScan:
    """What one pass over a sheet found: its extent, filled rows and unreadable cells."""

    max_row: int = 0
    max_col: int = 0
    data_rows: int = 0
    problems: dict[tuple[int, int], CellError] = field(default_factory=dict)


def read_workbook(path: str | Path, name: str | None = None) -> Book:
    """Read every sheet of an ``.xlsx`` file.  Raises :class:`UnreadableFile`.

    ``name`` is the display name used in messages (default: the file name).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise UnreadableFile("io", f"文件无法读取（{e.strerror}），请重新发送。") from None
    return read_workbook_bytes(data, name or path.name)


def read_workbook_bytes(data: bytes, name: str = "") -> Book:
    """Like :func:`read_workbook`, from bytes (an e-mail attachment)."""
    _sniff(data)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise UnreadableFile("truncated", "文件不完整（可能没有下载或发送完整），" + _MSG_RESAVE) from None
    except Exception:
        raise UnreadableFile("corrupt", "文件已损坏，无法打开。" + _MSG_RESAVE) from None
    with zf:
        parts = _check_zip(zf)
    names = parts.pop("__names__")  # type: ignore[misc]
    empty_rows = parts.pop("__empty_rows__")  # type: ignore[misc]
    if "xl/workbook.xml" not in names:
        raise UnreadableFile("not_xlsx", "这不是 Excel 工作簿（缺少工作簿内容）。" + _MSG_RESAVE)
    if _STRICT_NS in parts.get("xl/workbook.xml", b""):
        # ISO 29500 Strict: no reader here sees its error cells, and no copy can mark it
        raise UnreadableFile("strict", "这个工作簿是以“Strict Open XML 电子表格”格式保存的，无法可靠读取。请在 Excel 中"
                             "“另存为”，保存类型选“Excel 工作簿(*.xlsx)”，再重新提交。")
    macros = any(n.lower().endswith("vbaproject.bin") for n in names)
    sheet_parts = _sheet_parts(parts)
    scans = {sheet: _scan_sheet(parts.get(part, b"")) for sheet, part in sheet_parts.items()}
    heavy = {s for s, sc in scans.items()
             if sc.data_rows > MAX_ROWS or sc.max_row * sc.max_col > MAX_DENSE_CELLS}
    try:
        sheets = _read_calamine(data, scans, heavy)
    except _ElapsedOverflow:
        # a phone number or staff number formatted as elapsed time ([h]:mm): billions of
        # hours no reader can turn into a duration — read the numbers as they were typed
        try:
            sheets = _read_calamine(_elapsed_as_general(data), scans, heavy)
        except _ElapsedOverflow:
            raise UnreadableFile("corrupt", "表中有数字设成了时间格式（如 [h]:mm）而无法读取。请把电话、工号等列的单元格"
                                 "格式改为“文本”或“常规”后重新发送。") from None
    if heavy:
        far = {s: _far_cell(parts.get(sheet_parts[s], b"")) for s in heavy}
        _read_streaming(data, sheets, heavy, scans, {s: f for s, f in far.items() if f})
        for s in heavy:       # the streaming reader gives no merged ranges: from the sheet's XML
            if s in sheets and not sheets[s].merged:
                sheets[s].merged = _merged_ranges(parts.get(sheet_parts[s], b""))
    padding = _zero_styles(parts.get("xl/styles.xml", b""))
    for s, part in sheet_parts.items():
        if s in sheets:
            sheets[s].hidden_rows = _hidden_rows(parts.get(part, b""))
            sheets[s].empty_rows = empty_rows.get(part, (0, 0))
            if padding:
                sheets[s].shown = _zero_padded(parts.get(part, b""), padding)
    for s, sc in scans.items():       # a value past the columns read (XFD200): said, not ignored
        if sc.max_col > MAX_COLS and s in sheets:
            ref = _first_past_columns(parts.get(sheet_parts[s], b""))
            sheets[s].far_right = ref if ref != sheets[s].far else ""     # far below as well: said once
    book = Book(name=name, sheets=sheets, macros=macros, saved=_saved_at(parts.get("docProps/core.xml", b"")))
    meta = book.sheet(META_SHEET)
    if meta is not None:
        for row in meta.rows:
            if row and not is_blank(row[0]):
                book.meta[cell_text(row[0])] = cell_text(row[1]) if len(row) > 1 else ""
    return book


_MODIFIED = re.compile(rb"<dcterms:modified\b[^>]*>\s*([0-9T:.+\-Z]{10,40})\s*</dcterms:modified>")


def _saved_at(core: bytes) -> str:
    """The last-saved time a workbook records (``2020-11-08T01:58:00Z``), or ""."""
    m = _MODIFIED.search(core) if core else None
    return m.group(1).decode("ascii") if m else ""


def _sniff(data: bytes) -> None:
    if not data:
        raise UnreadableFile("empty", "文件是空的（0 字节），请重新保存后再发送。")
    if data.startswith(_OLE2):
        if "EncryptedPackage".encode("utf-16-le") in data:
            raise UnreadableFile("encrypted", "工作簿设置了密码，无法读取。请去掉密码（文件→信息→保护工作簿→"
                                 "用密码进行加密，清空密码）后另存为 .xlsx 再提交。")
        raise UnreadableFile("xls", "这是旧版 Excel 97-2003 文件（.xls）。请另存为 .xlsx（Excel 工作簿）后再提交。")
    if data.startswith(b"PK"):
        return
    head = data[:4096]
    text = None
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = head.decode("utf-16", "ignore")
    else:
        for enc in ("utf-8-sig", "gb18030"):
            try:        # (incremental: the 4,096 bytes may end inside a character)
                text = codecs.getincrementaldecoder(enc)().decode(head, final=False)
                break
            except UnicodeDecodeError:
                continue
    low = (text or "").lower()
    if "<html" in low or "<!doctype html" in low or "<table" in low or "<?xml" in low and "workbook" in low:
        raise UnreadableFile("html", "这是网页（HTML）文件改了扩展名，不是真正的 Excel 工作簿。" + _MSG_RESAVE)
    if text is None and b"\x00" not in head:
        # a CSV in a code page of neither (LibreOffice's default, its Chinese lost as ?): lines
        # of commas or tabs say what it is
        lines = head.decode("latin-1").splitlines()[:20]
        if sum(1 for line in lines if "," in line or "\t" in line) >= 2:
            text = "\n".join(lines)
    if text is not None and ("," in text or "\t" in text or "\n" in text) and "\x00" not in text:
        raise UnreadableFile("csv", MSG_CSV)
    raise UnreadableFile("not_zip", "这不是 Excel 工作簿（.xlsx）。" + _MSG_RESAVE)


#: an empty row: a row element with an address and no cell (``<row r="70" s="1" customFormat="1"/>``)
_EMPTY_ROW = re.compile(rb'<(?:\w+:)?row\s[^<>]*?\br="\d+"[^<>]*/>')
_LAST_ROW = re.compile(rb'<(?:\w+:)?row\s[^<>]*?\br="(\d+)"')


def _is_sheet_part(name: str) -> bool:
    low = name.lower()
    return low.startswith("xl/worksheets/") and low.endswith(".xml") and "/_rels/" not in low


def _too_large(infos: list[zipfile.ZipInfo]) -> UnreadableFile:
    """The refusal of a workbook too large once inflated, saying what makes it so: its
    largest part a worksheet (rows formatted or filled down to the sheet's end) or a
    picture / embedded object."""
    big = max(infos, key=lambda i: i.file_size) if infos else None
    if big is not None and _is_sheet_part(big.filename):
        return UnreadableFile("zip_bomb", "文件解压后过大，已拒收：其中一个工作表有大量的行（多半是表格下方直到最后一行"
                              "（第 1048576 行）的空行设置了格式或填了内容）。请选中表格下方不用的行（点第一个空行的行号，"
                              "按 Ctrl+Shift+↓ 选到最后一行），右键“删除”，保存后重新发送。")
    return UnreadableFile("zip_bomb", "文件解压后过大，疑似异常文件，已拒收。请只提交报名表模板本身（不要插入大图片或其他对象）。")


def _check_zip(zf: zipfile.ZipFile) -> dict[str, Any]:
    """Size limits before unpacking, then inflate every member (CRC checked) and keep the XML
    (a worksheet's without its empty rows: ``parts["__empty_rows__"]`` holds, per worksheet
    part with at least :data:`EMPTY_ROWS_SAID` of them below its last row with cells, the
    first such row and their count)."""
    infos = zf.infolist()
    bomb = _too_large(infos)
    if len(infos) > MAX_MEMBERS:
        raise bomb
    total = sum(i.file_size for i in infos)
    packed = sum(i.compress_size for i in infos)
    sheets = [i for i in infos if _is_sheet_part(i.filename)]
    if (total - sum(i.file_size for i in sheets) > MAX_TOTAL_BYTES or any(i.file_size > MAX_SHEET_BYTES for i in sheets)
            or (total > RATIO_FLOOR_BYTES and total > MAX_RATIO * max(packed, 1))):
        raise bomb
    parts: dict[str, Any] = {"__names__": [i.filename for i in infos], "__empty_rows__": {}}
    kept = 0
    for info in infos:
        if info.flag_bits & 0x1:
            raise UnreadableFile("encrypted", "工作簿被加密，无法读取。请去掉密码后另存为 .xlsx 再提交。")
        sheet = _is_sheet_part(info.filename)
        limit = MAX_SHEET_BYTES if sheet else MAX_TOTAL_BYTES
        try:
            with zf.open(info) as fh:
                chunks = []
                seen = dropped = 0
                carry = b""
                while True:
                    chunk = fh.read(1 << 20)
                    if not chunk:
                        break
                    seen += len(chunk)
                    if seen > limit:
                        raise bomb
                    if sheet:
                        # empty rows dropped as they come (a tag cut by the chunk's end waits
                        # for the next; one longer than a chunk is no empty row)
                        chunk = carry + chunk
                        cut = chunk.rfind(b"<")
                        if cut != -1 and chunk.find(b">", cut) == -1 and len(chunk) - cut < (1 << 20):
                            chunk, carry = chunk[:cut], chunk[cut:]
                        else:
                            carry = b""
                        chunk, n = _EMPTY_ROW.subn(b"", chunk)
                        dropped += n
                    kept += len(chunk)
                    if kept > MAX_TOTAL_BYTES:
                        raise bomb
                    chunks.append(chunk)
                chunks.append(carry)
        except UnreadableFile:
            raise
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError, Exception) as e:
            kind = "truncated" if isinstance(e, EOFError) else "corrupt"
            raise UnreadableFile(kind, "文件已损坏，无法打开。" + _MSG_RESAVE) from None
        body = b"".join(chunks)
        low = info.filename.lower()
        if low.endswith((".xml", ".rels", ".vml")):
            if _DTD.search(body):
                raise UnreadableFile("xml_entity", "文件内含不安全的 XML 定义（DTD/实体），已拒收。" + _MSG_RESAVE)
            parts[info.filename] = body
            if dropped >= EMPTY_ROWS_SAID:
                last = None
                for last in _LAST_ROW.finditer(body):
                    pass
                parts["__empty_rows__"][info.filename] = (int(last.group(1)) + 1 if last else 1, dropped)
    return parts


_ROW_TAG = re.compile(rb"<(?:\w+:)?row\b([^>]*)>")
_ROW_R = re.compile(rb'\br="(\d+)"')
_ROW_HIDDEN = re.compile(rb'\bhidden="(?:1|true)"')


def _hidden_rows(xml: bytes) -> frozenset[int]:
    """The rows a sheet's XML hides (a quick look first: most sheets hide none)."""
    if b"hidden=" not in xml:
        return frozenset()
    out = set()
    for m in _ROW_TAG.finditer(xml):
        attrs = m.group(1)
        if _ROW_HIDDEN.search(attrs):
            r = _ROW_R.search(attrs)
            if r:
                out.add(int(r.group(1)))
    return frozenset(out)


#: a custom number format that pads a whole number with zeros to its width: ``000000``
#: (also ``000000_ ``, a trailing space, and with more sections: ``000000;@``)
_ZERO_FORMAT_HINT = b'formatCode="00'
_NUM_FMT = re.compile(rb"<(?:\w+:)?numFmt\b([^>]*)>")
_FMT_ID = re.compile(rb'\bnumFmtId="(\d+)"')
_ZERO_FORMAT = re.compile(rb'\bformatCode="(0{2,})(?:_.)?(?:;[^"]*)?"')
_CELL_XFS = re.compile(rb"<(?:\w+:)?cellXfs\b[^>]*>(.*?)</(?:\w+:)?cellXfs>", re.S)
_XF = re.compile(rb"<(?:\w+:)?xf\b([^>]*)>")
_ATTR_S = re.compile(rb'\bs="(\d+)"')


def _zero_styles(styles: bytes) -> dict[bytes, int]:
    """Cell style index (as written in a cell's ``s``) → the width of its zero-padding number
    format (``000000`` → 6).  Empty, after one look, for nearly every workbook."""
    if _ZERO_FORMAT_HINT not in styles:
        return {}
    widths = {}
    for m in _NUM_FMT.finditer(styles):
        fid, code = _FMT_ID.search(m.group(1)), _ZERO_FORMAT.search(m.group(1))
        if fid and code:
            widths[fid.group(1)] = len(code.group(1))
    xfs = _CELL_XFS.search(styles) if widths else None
    if xfs is None:
        return {}
    out = {}
    for k, m in enumerate(_XF.finditer(xfs.group(1))):
        fid = _FMT_ID.search(m.group(1))
        if fid and fid.group(1) in widths:
            out[str(k).encode()] = widths[fid.group(1)]
    return out


def _zero_padded(xml: bytes, styles: dict[bytes, int]) -> dict[tuple[int, int], str]:
    """(row, col) → the text shown of each whole number in a zero-padding format
    (:func:`_zero_styles`) that the format pads (1234 in ``000000``: ``001234``).  A sheet
    naming none of those styles is not looked through."""
    if not any(b's="' + k + b'"' in xml for k in styles):
        return {}
    out = {}
    for m in _CELL.finditer(xml):
        attrs, body = m.group(1), m.group(2)
        st = _ATTR_S.search(attrs)
        if not body or st is None or st.group(1) not in styles:
            continue
        tm = _ATTR_T.search(attrs)
        vm = _VALUE.search(body)
        rm = _ATTR_R.search(attrs)
        if (tm and tm.group(1) != b"n") or vm is None or rm is None:
            continue
        try:
            n = float(vm.group(1))
        except ValueError:
            continue
        if not (n.is_integer() and 0 <= n < 1e15):     # (a longer number lost its digits: said as such)
            continue
        text = str(int(n))
        width = styles[st.group(1)]
        if len(text) < width:
            out[(int(rm.group(2)), col_number(rm.group(1).decode()))] = text.zfill(width)
    return out


def _sheet_parts(parts: dict[str, bytes]) -> dict[str, str]:
    """Sheet name → worksheet part path, from workbook.xml and its relationships."""
    from defusedxml import ElementTree as ET

    ns_main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    ns_rel = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
    try:
        wb = ET.fromstring(parts["xl/workbook.xml"])
        rels = ET.fromstring(parts.get("xl/_rels/workbook.xml.rels", b"<Relationships/>"))
    except Exception:
        raise UnreadableFile("corrupt", "工作簿结构已损坏，无法打开。" + _MSG_RESAVE) from None
    targets = {}
    for r in rels:
        target = r.get("Target", "")
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
        targets[r.get("Id")] = path
    out = {}
    for s in wb.iter(f"{ns_main}sheet"):
        out[s.get("name", "")] = targets.get(s.get(f"{ns_rel}id"), "")
    return out


def _scan_sheet(xml: bytes) -> _SheetScan:
    """Valued extent, rows with data, error cells and formulas without a saved value.

    A sheet without formulas, error cells or cells lacking an address (nearly every
    sheet) is scanned by one regular expression (:func:`_scan_plain`); any other by
    :func:`_scan_cells`, cell by cell.  Both give the same scan (a hypothesis test compares)."""
    errors = b't="e"' in xml and _ERROR_TYPE.search(xml) is not None   # (the plain find is ten times faster)
    if not errors:
        sc = _scan_canonical(xml)
        if sc is not None:
            return sc
    if _CELL_FORMULA.search(xml) is None and not errors and _NO_ADDRESS.search(xml) is None:
        return _scan_plain(xml)
    return _scan_cells(xml)


#: a cell, value, inline-string or formula tag with a namespace prefix (``<x:c …>``)
_PREFIXED_CELL_TAG = re.compile(rb"<\w+:(?:c\b|v>|is>|f[\s>/])")
_PLAIN_FORMULA = re.compile(rb"<f[\s>/]")
#: a cell tag not followed by a space: ``<c>``, ``<c/>``, ``<c`` and a tab or line break
_ODD_CELL_TAG = re.compile(rb"<c[>/\t\n\r\x0b\x0c]")
#: :data:`_VALUED` for a cell whose first attribute is its address
_VALUED_FIRST_R = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"[^>]*(?<!/)>\s*(?:<v>[^<]|<is>)')


def _scan_canonical(xml: bytes) -> _SheetScan | None:
    """:func:`_scan_plain` of a sheet as Excel, WPS, openpyxl and XlsxWriter write it — no
    namespace prefix on cell tags, every cell's address its first attribute, no formula —
    from literal counts and one expression that starts with a literal (``<c r="``), which
    the regular-expression engine finds quickly: under half the time on a large sheet
    (a referees' sheet of 48,000 rows: 0.25 → 0.11 s).  None for any other sheet (and
    for one without error cells only: the caller checks those first).

    When it answers, the answer is :func:`_scan_plain`'s: without prefixed tags the
    expressions there reduce to these; a cell tag not starting ``<c r="`` means no answer;
    and the count of value starts (``<v>`` not followed by ``<``, plus ``<is>``) can only
    exceed the true one (by a ``<v>`` at the very end), so equal counts are exact."""
    if _PREFIXED_CELL_TAG.search(xml) or _PLAIN_FORMULA.search(xml) or _ODD_CELL_TAG.search(xml):
        return None
    if xml.count(b"<c ") != xml.count(b'<c r="'):
        return None
    found = _VALUED_FIRST_R.findall(xml)
    if len(found) != xml.count(b"<v>") - xml.count(b"<v><") + xml.count(b"<is>"):
        return None
    sc = _SheetScan()
    if found:
        rows = {int(r) for r in set(map(itemgetter(1), found))}
        sc.max_row = max(rows)
        sc.max_col = max(col_number(c.decode()) for c in set(map(itemgetter(0), found)))
        sc.data_rows = len(rows)
    return sc


#: a cell formula element (``<f>``, ``<f t="shared" …/>``; not ``<formula1>`` of a validation)
_CELL_FORMULA = re.compile(rb"<(?:\w+:)?f[\s>/]")
_ERROR_TYPE = re.compile(rb'\bt="e"')
#: a cell element without an ``r`` attribute
_NO_ADDRESS = re.compile(rb"<(?:\w+:)?c(?:/?>|\s(?![^>]*\br=)[^>]*>)")
#: the address of a cell holding a value (a non-empty <v> or an inline string)
_VALUED = re.compile(rb'<(?:\w+:)?c\s[^>]*?\br="([A-Z]{1,3})([0-9]{1,7})"[^>]*(?<!/)>\s*'
                     rb"(?:<(?:\w+:)?v>[^<]|<(?:\w+:)?is>)")


_ANY_VALUE = re.compile(rb"<(?:\w+:)?(?:v>[^<]|is>)")


def _scan_plain(xml: bytes) -> _SheetScan:
    found = _VALUED.findall(xml)
    if len(found) != len(_ANY_VALUE.findall(xml)):
        return _scan_cells(xml)      # a value not where a cell's value belongs: look closer
    sc = _SheetScan()
    if found:
        rows = {int(r) for _, r in found}
        sc.max_row = max(rows)
        sc.max_col = max(col_number(c.decode()) for c in {c for c, _ in found})
        sc.data_rows = len(rows)
    return sc


def _scan_cells(xml: bytes) -> _SheetScan:
    sc = _SheetScan()
    rows_with_data: set[int] = set()
    unaddressed = 0
    for m in _CELL.finditer(xml):
        body = m.group(2)
        if not body:
            continue
        attrs = m.group(1)
        has_formula = b"<f" in body or b":f" in body
        vm = _VALUE.search(body)
        has_value = bool(vm and vm.group(1)) or b"<is>" in body or b":is>" in body
        if not has_value and not has_formula:
            continue
        rm = _ATTR_R.search(attrs)
        if not rm:
            unaddressed += 1
            continue
        col, row = col_number(rm.group(1).decode()), int(rm.group(2))
        sc.max_row, sc.max_col = max(sc.max_row, row), max(sc.max_col, col)
        rows_with_data.add(row)
        tm = _ATTR_T.search(attrs)
        if tm and tm.group(1) == b"e":
            sc.problems[(row, col)] = CellError(vm.group(1).decode("utf-8", "replace") if vm else "#ERROR")
        elif has_formula and not has_value and not (tm and tm.group(1) == b"str" and vm is not None):
            # no saved result (openpyxl writes <v/> without a type); a saved empty text
            # (t="str", <v></v>: =IFERROR(VLOOKUP(…),"") found nothing) is a blank cell,
            # not a formula to recalculate
            sc.problems[(row, col)] = CellError(NO_CACHED_VALUE)
    sc.data_rows = len(rows_with_data) + (unaddressed and xml.count(b"<row"))
    return sc


_STATES = {"Visible": "visible", "Hidden": "hidden", "VeryHidden": "veryHidden"}


_MERGE_CELL = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Z]{1,3})([0-9]{1,7}):([A-Z]{1,3})([0-9]{1,7})"')


_ANY_CELL_REF = re.compile(rb'<(?:\w+:)?c\s[^>]*?\br="([A-Z]{1,3})([0-9]{1,7})"[^>]*(?<!/)>\s*(?:<(?:\w+:)?(?:f|v|is)\b)')


def _first_past_columns(xml: bytes) -> str:
    """A1 of the first cell with a value or formula past column :data:`MAX_COLS` ("" if none)."""
    for c, r in _ANY_CELL_REF.findall(xml):
        if col_number(c.decode()) > MAX_COLS:
            return f"{c.decode()}{r.decode()}"
    return ""


def _merged_ranges(xml: bytes) -> list[tuple[int, int, int, int]]:
    """(first row, first column, last row, last column) of each merged range in a sheet's
    XML, 1-based as :attr:`Sheet.merged` holds them."""
    return [(int(r1), col_number(c1.decode()), int(r2), col_number(c2.decode()))
            for c1, r1, c2, r2 in _MERGE_CELL.findall(xml)]


class _ElapsedOverflow(Exception):
    """A sheet's values could not be converted (a huge number in an elapsed-time format)."""


#: an elapsed-time number format ([h]:mm, [mm]:ss …) in styles.xml, and the built-in one (46)
_ELAPSED_FORMAT = re.compile(rb'formatCode="[^"]*\[(?:h+|m+|s+)\][^"]*"', re.IGNORECASE)
_ELAPSED_BUILTIN = re.compile(rb'(<xf\b[^>]*\bnumFmtId=")46(")')


def _elapsed_as_general(data: bytes) -> bytes:
    """The workbook ``data`` with every elapsed-time number format made General, so its
    cells read as the numbers typed (``15239958816`` in ``[h]:mm`` is a phone number, not
    1.7 million years)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == "xl/styles.xml":
                body = _ELAPSED_BUILTIN.sub(rb"\g<1>0\g<2>", _ELAPSED_FORMAT.sub(b'formatCode="General"', body))
            dst.writestr(info, body)
    return out.getvalue()


def _plain(value: Any) -> Any:
    if isinstance(value, str):
        return value if value != "" else None
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return int(value)
    return value


def _read_calamine(data: bytes, scans: dict[str, _SheetScan], heavy: set[str]) -> dict[str, Sheet]:
    import python_calamine as pc

    try:
        wb = pc.CalamineWorkbook.from_filelike(io.BytesIO(data))
    except pc.PasswordError:
        raise UnreadableFile("encrypted", "工作簿设置了密码，无法读取。请去掉密码后另存为 .xlsx 再提交。") from None
    except Exception:
        raise UnreadableFile("corrupt", "文件已损坏，无法打开。" + _MSG_RESAVE) from None
    sheets: dict[str, Sheet] = {}
    with wb:
        for md in wb.sheets_metadata:
            state = _STATES.get(str(md.visible).rsplit(".", 1)[-1], "visible")
            sheet = Sheet(md.name, state)
            sheets[md.name] = sheet
            if md.name in heavy or str(md.typ).rsplit(".", 1)[-1] != "WorkSheet":
                continue
            try:
                ws = wb.get_sheet_by_name(md.name)
            except Exception:
                raise UnreadableFile("corrupt", f"工作表“{md.name}”已损坏，无法读取。" + _MSG_RESAVE) from None
            # absolute positions (iter_rows pads leading rows but not leading columns)
            try:
                rows = [[_plain(v) for v in r[:MAX_COLS]] for r in ws.to_python(skip_empty_area=False)]
            except (OverflowError, ValueError) as e:
                raise _ElapsedOverflow(md.name) from e
            _overlay(rows, scans.get(md.name))
            sheet.rows = _trim(rows)
            try:
                sheet.merged = [(a[0] + 1, a[1] + 1, b[0] + 1, b[1] + 1) for a, b in ws.merged_cell_ranges or ()]
            except Exception:  # noqa: BLE001 - merged ranges are a help, not a need
                sheet.merged = []
    return sheets


def _far_cell(xml: bytes) -> tuple[int, str] | None:
    """(the last row before it, its address) of the first value past :data:`MAX_GAP` blank
    rows — a stray cell (``XFD1048576``) that made the sheet's extent huge — or None."""
    cells: dict[int, int] = {}
    for col, row in _VALUED.findall(xml):
        r, c = int(row), col_number(col.decode())
        cells[r] = min(c, cells.get(r, c))
    last = 0
    for r in sorted(cells):
        if r - last > MAX_GAP:
            return last, f"{col_letter(cells[r])}{r}"
        last = r
    return None


def _read_streaming(data: bytes, sheets: dict[str, Sheet], heavy: set[str],
                    scans: dict[str, _SheetScan], far: dict[str, tuple[int, str]] | None = None) -> None:
    """Huge sheets: stream with openpyxl (read-only, defusedxml) and stop at MAX_ROWS data
    rows, or before a stray cell past a long run of blank rows (``far``: :func:`_far_cell`)."""
    far = far or {}
    from ..xlsx import _no_numpy  # noqa: F401  (first: openpyxl without NumPy)
    import openpyxl

    try:
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:
        raise UnreadableFile("corrupt", "文件已损坏，无法打开。" + _MSG_RESAVE) from None
    try:
        for name in heavy:
            sheet = sheets.get(name)
            if sheet is None or name not in wb.sheetnames:
                continue
            ws = wb[name]
            rows: list[list[Any]] = []
            with_data = 0
            limit, sheet.far = far.get(name, (None, ""))
            stream = ws.iter_rows(values_only=True, max_col=MAX_COLS, max_row=limit) if limit != 0 else ()
            for values in stream:
                row = [_plain(v) for v in values]
                if any(not is_blank(v) for v in row):
                    with_data += 1
                    if with_data > MAX_ROWS:
                        sheet.truncated = True
                        break
                rows.append(row)
                if len(rows) > MAX_ROWS * 4:      # long runs of blank rows: stop as well
                    sheet.truncated = True
                    break
            _overlay(rows, scans.get(name))
            sheet.rows = _trim(rows)
    finally:
        wb.close()


def _overlay(rows: list[list[Any]], scan: _SheetScan | None) -> None:
    """Put CellError objects where calamine/openpyxl show errors or uncached formulas as blank."""
    if not scan:
        return
    for (r, c), err in scan.problems.items():
        if r > len(rows) or c > MAX_COLS:
            continue
        row = rows[r - 1]
        if len(row) < c:
            row.extend([None] * (c - len(row)))
        row[c - 1] = err


def _trim(rows: list[list[Any]]) -> list[list[Any]]:
    for row in rows:
        while row and row[-1] is None:
            row.pop()
    while rows and not rows[-1]:
        rows.pop()
    return rows


#: a worksheet part larger than this is looked at for empty formatted rows before openpyxl
#: loads the workbook (:func:`without_empty_rows`)
SLIM_SHEET_BYTES = 8 * 1024 * 1024


def without_empty_rows(data: bytes) -> bytes | None:
    """The workbook ``data`` with the empty rows (:data:`_EMPTY_ROW`) below each worksheet's
    last row with cells removed, when a worksheet part is larger than
    :data:`SLIM_SHEET_BYTES` and has at least :data:`EMPTY_ROWS_SAID` of them; None
    otherwise (or when it cannot be read).

    Rows formatted down to the sheet's end are read cheaply by calamine, but openpyxl makes
    an object of each: the returned copy of such a form took 80 seconds and a gigabyte.
    The copy keeps every row with a cell (and the formats of the empty rows above them)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            big = [i for i in infos if _is_sheet_part(i.filename) and SLIM_SHEET_BYTES < i.file_size <= MAX_SHEET_BYTES]
            if not big:
                return None
            out = io.BytesIO()
            changed = False
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                for info in infos:
                    body = zf.read(info)
                    if info in big:
                        last = 0
                        for m in re.finditer(rb"<(?:\w+:)?row\s[^<>]*?\br=\"(\d+)\"[^<>]*(?<!/)>", body):
                            last = max(last, int(m.group(1)))

                        def drop(m: re.Match, last: int = last) -> bytes:
                            r = _ROW_R.search(m.group(0))
                            return b"" if r and int(r.group(1)) > last else m.group(0)

                        slim, n = _EMPTY_ROW.subn(drop, body)
                        if len(body) - len(slim) >= EMPTY_ROWS_SAID * 10:
                            body, changed = slim, True
                    z.writestr(info, body)
            return out.getvalue() if changed else None
    except Exception:  # noqa: BLE001 - the copy opens the file itself, and says when it cannot
        return None
