"""Referees' and organisers' sheets → plain values the core understands.

Result rows (成绩), detail rows (明细), playoff orders (加赛), check-in (签到) and the
organisers' discretionary awards (评奖).  Missing sheets or headers become
``TEMPLATE_MISMATCH`` issues at the file; the run goes on.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Collection, Iterable, Mapping, Sequence

from .. import layout as L
from ..issues import Issue, issue, quoted
from ..model import CellRef, Entry, Playoff, Severity, staff_key
from .registration import _FOOTER_WORD, read_sheet_rows
from ..text import cn_numeral
from .workbook import Book, CellError, TableNotFound, a1, cell_text, col_number, is_blank, norm_label, strip_spaces


@dataclass(frozen=True)
class SheetRow:
    """One filled row of an organisers' sheet: its values by header label, and where each cell is."""

    row: int
    values: dict[str, Any]
    cells: dict[str, CellRef] = field(default_factory=dict)
    #: the labels whose cell held an error value or a formula without a saved value: said
    #: once (RESULT_INVALID at the cell), and blank in ``values``
    errors: tuple[str, ...] = ()
    #: the labels whose cell is part of a merged range → (the range, its first cell): only the
    #: first cell keeps a value (:func:`merged_note`) — not a key cell merged down its column,
    #: which reads its range's value (:func:`_merged_keys_down`)
    merged: Mapping[str, tuple[str, str]] = field(default_factory=dict)


#: what to do about a merged cell
UNMERGE = "请取消合并单元格，每一格分别填写。"
#: a 加赛 名次 written as a draw: the 加赛 decided nothing and is to be played again (not a
#: typo to correct) — the words, and what the problem says (run.EventRunner.playoff_sheets_wrong
#: reads it: no 不必再赛 then)
PLAYOFF_DRAW_WORDS = frozenset({"和", "和棋", "和局", "平", "平局", "平手", "打平", "平分"})
PLAYOFF_DRAWN = "加赛必须分出胜负"


def merged_note(cell: str, span: str, first: str, advice: bool = True) -> str:
    """Why a cell of a merged range reads as it does, and (``advice``) what to do — said after
    a problem found there.

    >>> merged_note("F9", "F8:F9", "F8")
    'F9 是合并单元格 F8:F9 的一部分，合并后只有 F8 保存内容，F9 读到的是空白：请取消合并单元格，每一格分别填写。'
    """
    said = f"{cell} 是合并单元格 {span} 的一部分" + ("" if cell == first else f"，合并后只有 {first} 保存内容，{cell} 读到的是空白")
    return f"{said}：{UNMERGE}" if advice else said


def _merged_keys_down(book: Book, sheet: str, raw: Sequence[tuple[int, Any, Any]],
                      columns: Sequence[str] = L.RESULT_KEY_COLUMNS) -> set[tuple[int, int, int, int]]:
    """A key cell (轮次, 组别, 桌号: :data:`~pipeline.layout.RESULT_KEY_COLUMNS`) merged down its
    own column over rows of the table — 组别 "A组" over group A's rows, 轮次 down the whole
    sheet, a bridge table's 桌号 over the rows of its boards (牌号) — reads, on every row of
    ``raw`` (rows as :func:`read_sheet_rows` gives them, changed in place) in the range, the
    value of the range's first cell, as if typed there: that is what the referee sees.  Only a
    merged range's first cell keeps a value, so the other rows were read without a round,
    group or table — refused as no drawn table, and the referee had to redo the sheet.  As a
    registration's 队号 merged over a pair's rows (:meth:`~pipeline.ingest.workbook.Sheet.fill_merged_down`).

    Contract, result workbook ("Pre-filled: 轮次, 组别, 桌号"): every row carries its key, and
    a key merged over rows is that key on each of them.  Not filled, and said
    as before when a problem is found there (:func:`merged_note`): a result cell merged over
    rows (which row's result is it?), a range across columns (B5:D5), a range whose first
    cell is no row of the table (the header's, a title's) or holds nothing or an error value.
    Only the rows read get a value: a merge reaching past the table's rows makes no row, and a
    whole column merged (A8:A1048576) walks the rows read, not a million.  Returns the ranges
    filled (their cells are no merged cells to be said: :func:`_merged_cells` skips them).
    ``columns``: the key labels (a 签到表's 项目 and 组别: :func:`read_absent`)."""
    ws = book.sheet(sheet)
    if ws is None or not ws.merged or not raw:
        return set()
    letters = raw[0][2].letters
    keys = {col_number(letters[k]): k for k in columns if letters.get(k)}
    rows = [n for n, _, _ in raw]           # in sheet order
    at = {n: i for i, n in enumerate(rows)}
    done: set[tuple[int, int, int, int]] = set()
    for r0, c0, r1, c1 in ws.merged:
        label = keys.get(c0)
        if label is None or c1 != c0 or r1 <= r0 or r0 not in at:
            continue
        top = raw[at[r0]][1].get(label)
        if is_blank(top) or isinstance(top, CellError):
            continue
        for i in range(at[r0] + 1, bisect_right(rows, r1)):
            values = raw[i][1]
            if is_blank(values.get(label)):
                values[label] = top
        done.add((r0, c0, r1, c1))
    return done


def _merged_cells(book: Book, sheet: str, raw: Sequence[tuple[int, Any, Any]],
                  skip: Collection[tuple[int, int, int, int]] = ()) -> dict[int, dict[str, tuple[str, str]]]:
    """Sheet row → {label: (merged range, its first cell)} for the table cells of ``raw`` (rows
    as :func:`read_sheet_rows` gives them) that lie in a merged range but those of ``skip``
    (key cells filled down: :func:`_merged_keys_down`); {} for a sheet whose only merged
    ranges are its title's (nearly every sheet)."""
    ws = book.sheet(sheet)
    if ws is None or not ws.merged or not raw:
        return {}
    rows = {n for n, _, _ in raw}
    top, bottom = min(rows), max(rows)
    by_row: dict[int, list[tuple[int, int, int, int]]] = {}
    for r0, c0, r1, c1 in ws.merged:
        if (r0, c0, r1, c1) in skip:
            continue
        # only the rows read (a whole column merged, F1:F1048576, was a million rows walked)
        lo, hi = max(r0, top), min(r1, bottom)
        for r in (range(lo, hi + 1) if hi - lo < len(rows) else sorted(n for n in rows if lo <= n <= hi)):
            by_row.setdefault(r, []).append((r0, c0, r1, c1))
    if not by_row:
        return {}
    out: dict[int, dict[str, tuple[str, str]]] = {}
    for n, _, cells in raw:
        for r0, c0, r1, c1 in by_row.get(n, ()):
            for label, letters in cells.letters.items():
                if letters and c0 <= col_number(letters) <= c1:
                    out.setdefault(n, {})[label] = (f"{a1(r0, c0)}:{a1(r1, c1)}", a1(r0, c0))
    return out


def _missing(file: str, sheet: str, e: TableNotFound) -> Issue:
    if e.sheets is not None:        # the sheet itself is not there (renamed, deleted)
        others = [n for n in e.sheets if n != L.META_SHEET]
        return issue("TEMPLATE_MISMATCH", f"《{file}》里没有“{sheet}”工作表"
                     f"{'（现有工作表：' + '、'.join(others) + '）' if others else ''}：请把工作表名改回“{sheet}”"
                     "（或使用下发的表格）后重新发送。", at=CellRef(file, sheet))
    # a header typed over or deleted, where it can be told: at its cell (the first of them)
    told = [(e.cell(m), m, e.cells[m][1]) for m in e.missing if e.cell(m)]
    where = "；".join(f"{c} 的表头改成了“{text}”，请改回“{m}”" if text else f"{c} 的表头“{m}”被删除了，请填回“{m}”"
                     for c, m, text in told)
    return issue("TEMPLATE_MISMATCH", f"《{file}》的“{sheet}”工作表找不到表头“{'、'.join(e.missing)}”"
                 f"{'（' + where + '）' if where else ''}：请使用下发的表格，不要改动表头。",
                 at=CellRef(file, sheet, told[0][0] if told else ""))


def _errors(rows: list[SheetRow], file: str) -> list[Issue]:
    """One RESULT_INVALID per cell holding an error value or a formula without a saved value,
    naming the file, the sheet and the cell (the games read such a cell as blank: the runner
    keeps their second word about it, “未填写”, to itself)."""
    out = []
    for r in rows:
        for label in r.errors:
            at = r.cells.get(label, CellRef(file))
            out.append(issue("RESULT_INVALID", r.values[label].located(label, at.file or file, at.sheet, at.cell), at=at))
    return out


def _cut_off(book: Book, sheet: str, file: str) -> list[Issue]:
    """A table ends at :data:`~pipeline.ingest.workbook.BLANK_RUN` blank rows: rows filled
    after such a gap (a referee's inserted blank rows) were dropped without a word."""
    from .workbook import BLANK_RUN, find_table

    ws = book.sheet(sheet)
    try:
        table = find_table(ws.rows, ["桌号"]) if ws is not None else None
    except TableNotFound:
        return []
    if table is None or not table.after:
        return []
    return [issue("RESULT_INVALID", f"《{file}》的“{ws.name}”表格在 {BLANK_RUN} 多行空行后结束，第 {table.after} 行"
                  "及以后的内容没有读取：请删除中间的空行后重新发送。", at=CellRef(file, ws.name, f"A{table.after}"))]


def adopt_renamed_result_sheet(book: Book) -> str:
    """A result workbook whose 成绩 sheet was renamed (成绩表, Sheet1) and whose _meta is
    intact (it says the event and round): its one visible sheet holding the result table's
    header (轮次, 组别, 桌号 and the sides its _meta's seats print: 甲方/乙方 or 甲/乙/丙 — a
    detail sheet has no sides) is read as 成绩 from now on (``book.renamed``), as a
    registration form's renamed 报名表 sheet is (SHEET_RENAMED, said by :func:`read_results`).
    The whole workbook was TEMPLATE_MISMATCH and dropped.  Several visible sheets holding the
    table and none named 成绩: which one is meant is not guessed (TEMPLATE_MISMATCH, as before).
    Returns the sheet's name ("" when nothing was adopted).

    >>> from .workbook import Sheet
    >>> head = [["轮次", "组别", "桌号", "甲方", "乙方", "结果"], [1, None, 1, "a", "b", "甲胜"]]
    >>> meta = {"kind": "result", "event_id": "xiangqi", "round": 1, "seats": 2}
    >>> b = Book("r.xlsx", {"Sheet1": Sheet("Sheet1", rows=head), "Sheet2": Sheet("Sheet2")}, dict(meta))
    >>> adopt_renamed_result_sheet(b), b.sheet("成绩").name
    ('Sheet1', 'Sheet1')
    >>> adopt_renamed_result_sheet(Book("r.xlsx", {"A": Sheet("A", rows=head), "B": Sheet("B", rows=head)}, dict(meta)))
    ''
    """
    meta = book.meta or {}
    if book.sheet(L.RESULT_SHEET) is not None or meta.get(L.META_KIND) != L.KIND_RESULT \
            or not meta.get(L.META_EVENT) or meta.get(L.META_ROUND) in (None, ""):
        return ""
    seats = cell_text(meta.get("seats")).strip()
    sides = [L.SIDES_3] if seats == "3" else [L.SIDES_2] if seats == "2" else [L.SIDES_2, L.SIDES_3]
    from .workbook import find_table

    def holds(ws: Any) -> bool:
        for s in sides:
            try:
                find_table(ws.rows, [*L.RESULT_KEY_COLUMNS, *s])
            except TableNotFound:
                continue
            return True
        return False
    holding = [ws for ws in book.sheets.values() if ws.name != L.META_SHEET and not ws.hidden and holds(ws)]
    if len(holding) != 1:
        return ""
    book.renamed[L.RESULT_SHEET] = holding[0].name
    return holding[0].name


def detail_sheet_holders(book: Book, labels: Sequence[str], required: Sequence[str] = ()) -> list[Any]:
    """The visible sheets — not ``_meta``, not the sheet read as 成绩 — holding a detail
    table's header (轮次, 组别, 桌号 and ``required``, else ``labels[:1]``), in the book's order
    (:func:`adopt_renamed_detail_sheet`)."""
    from .workbook import find_table

    result = book.sheet(L.RESULT_SHEET)
    want = [*L.RESULT_KEY_COLUMNS, *(required or labels[:1])]
    holding = []
    for ws in book.sheets.values():
        if ws.name == L.META_SHEET or ws.hidden or ws is result:
            continue
        try:
            find_table(ws.rows, want)
        except TableNotFound:
            continue
        holding.append(ws)
    return holding


def adopt_renamed_detail_sheet(book: Book, file: str, name: str, labels: Sequence[str],
                               required: Sequence[str] = ()) -> list[Issue]:
    """A card game's detail sheet (``name``: 明细, 牌局明细) renamed by the referee (明细表,
    Sheet2), as :func:`adopt_renamed_result_sheet` does for 成绩 (R2016-C1, R2020-C1, R2015-C1,
    R2020-D3: the levels or scores a 成绩 row leaves blank come from the detail).  It was read as
    no detail at all: the blank levels were asked for ("请补填…或把整行清空"), a sheet holding
    only details was called 发错了文件, and filled levels went unchecked (TOTAL_MISMATCH).

    The one visible sheet — not ``_meta``, not the sheet read as 成绩 — holding the detail
    table's header (轮次, 组别, 桌号 and ``required``: the detail's required columns, 局号
    first; ``labels[:1]`` when none) is read as ``name`` from now on (``book.renamed``), said
    by a SHEET_RENAMED warning at that sheet.  Several such sheets: not guessed, none read;
    when one of them holds a deal (a cell of ``labels`` other than the pre-filled 局号) a
    SHEET_RENAMED warning names them all and what to do.  The sheet present under its name,
    or no sheet holding the table: nothing (``[]``)."""
    if book.sheet(name) is not None:
        return []
    want = [*L.RESULT_KEY_COLUMNS, *(required or labels[:1])]
    holding = detail_sheet_holders(book, labels, required)
    if len(holding) == 1:
        ws = holding[0]
        book.renamed[name] = ws.name
        return [issue("SHEET_RENAMED", f"成绩表《{file}》的工作表“{name}”被改名为“{ws.name}”，文件里只有这一张{name}表格，"
                      f"已按“{name}”工作表读取；以后请不要给工作表改名。", at=CellRef(file, ws.name))]
    if not holding:
        return []
    deals = [label for label in labels if norm_label(label) != norm_label("局号")]
    first = None
    for ws in holding:
        try:
            _, raw = read_sheet_rows(book, ws.name, list(dict.fromkeys([*want, *labels])), want, file, whole=True)
        except TableNotFound:
            continue
        first = next((cells[l] for _, values, cells in raw for l in deals
                      if l in cells and cells[l].cell and _value(values.get(l)) is not None), None)
        if first is not None:
            break
    if first is None:
        return []
    names = "、".join(f"工作表“{ws.name}”" for ws in holding)     # (each beside 工作表: quoted as the tab is named)
    return [issue("SHEET_RENAMED", f"成绩表《{file}》中没有“{name}”工作表，而{names}都是{name}表格（如 "
                  f"{first.sheet}!{first.cell} 已填写），不知道哪一张是“{name}”，都没有读取：成绩栏空着的级数或得分无法由"
                  f"{name}逐局算出，填了的也没有与{name}核对。请把填好的一张改回原名“{name}”、删除其余几张后重新发送。",
                  at=first)]


def _renamed_sheet(book: Book, file: str) -> list[Issue]:
    """SHEET_RENAMED (a warning, at the sheet) when 成绩 is read from a renamed sheet
    (:func:`adopt_renamed_result_sheet`)."""
    ws = book.sheet(L.RESULT_SHEET)
    if ws is None or norm_label(ws.name) == norm_label(L.RESULT_SHEET):
        return []
    return [issue("SHEET_RENAMED", f"成绩表《{file}》的工作表“{L.RESULT_SHEET}”被改名为“{ws.name}”，文件里只有这一张成绩表格，"
                  f"已按“{L.RESULT_SHEET}”工作表读取；以后请不要给工作表改名。", at=CellRef(file, ws.name))]


#: the label of a line a referee writes under a result table: a total, who signed or filled
#: it in, a note (a registration form's footer words, and the referee's) — NFKC, spaces out
_RESULT_FOOTER = re.compile(rf"^[(\[【]?(?:分?工会|单位|部门)?(?:主席|领导)?(?:{_FOOTER_WORD}|[总總主副]?裁判(?:长|長|员|員)?"
                            r"|记录员?|記錄員?|记分员?|記分員?|备注|備註|说明|說明)")


def _footer_cell(values: Mapping[str, Any], cells: Mapping[str, CellRef], keys: Sequence[str]) -> CellRef | None:
    """The cell that makes a row of a result or detail sheet a summary or signature line
    under the table (合计, 合计：16桌, 裁判长：张三, 签名：, 备注：…; :data:`_RESULT_FOOTER`),
    or None: a key cell (``keys``: 轮次, 组别, 桌号, 局号, 牌号) holding such a label, or the
    row's first filled other cell (by column) being one.  The caller asks only of a row that names
    no table (成绩: its 轮次, 组别 and 桌号 blank or the label) or no deal (明细: no number
    under 局号) — a mistyped table number with its results stays a row, said where it is."""
    for k in keys:
        if k in cells and cells[k].cell and _footer_label(values.get(k)):
            return cells[k]
    filled = [(col_number("".join(ch for ch in cells[k].cell if ch.isalpha())), k) for k, v in values.items()
              if k in cells and cells[k].cell and k not in keys and _value(v) is not None]
    if not filled:
        return None
    first = min(filled)[1]
    return cells[first] if _footer_label(values.get(first)) else None


def _footer_label(v: Any) -> bool:
    """Whether a cell holds a 合计/签名/备注 label (:data:`_RESULT_FOOTER`)."""
    return isinstance(v, str) and bool(_RESULT_FOOTER.search(strip_spaces(v)))


def _footer_note(file: str, at: CellRef, what: str = "某一桌的成绩，请填写它的轮次、组别和桌号") -> Issue:
    """RESULT_INVALID, a note at ``at``: the line is a summary or signature line, not a table
    (:func:`_footer_cell`) — nothing to fix, as a registration form's 填表人/合计 lines."""
    return issue("RESULT_INVALID", f"《{file}》“{at.sheet}”工作表第 {''.join(ch for ch in at.cell if ch.isdigit())} 行"
                 f"（{at.cell}）是表格下方的合计、签名或备注之类的落款，不是哪一桌的成绩，没有读取（无需修改）。"
                 f"如果这一行是{what}。", at=at, severity=Severity.INFO)


def read_results(book: Book, file: str, labels: Sequence[str], required: Sequence[str] = ("桌号",),
                 results: Sequence[str] = ()) -> tuple[list[SheetRow], list[Issue]]:
    """Filled rows of the 成绩 sheet with the key columns (轮次/组别/桌号, 牌号) and the
    game's result columns.  Error values and formulas without a saved value become one
    RESULT_INVALID each, at the cell, and are blanked (``SheetRow.errors`` names them).  A header
    of ``required`` renamed or deleted makes the sheet TEMPLATE_MISMATCH (a renamed 结果
    read as a blank result on every row, a deleted 甲方 skipped the seat check).  A key cell
    merged down its column reads the range's value on each of its rows (:func:`_merged_keys_down`).
    成绩 renamed and read as it (:func:`adopt_renamed_result_sheet`): SHEET_RENAMED."""
    want = list(dict.fromkeys([*L.RESULT_KEY_COLUMNS, "牌号", *labels]))
    try:
        _, raw = read_sheet_rows(book, L.RESULT_SHEET, want, list(required), file)
    except TableNotFound as e:
        return [], [_missing(file, L.RESULT_SHEET, e)]
    merged = _merged_cells(book, L.RESULT_SHEET, raw, _merged_keys_down(book, L.RESULT_SHEET, raw))
    rows = [SheetRow(n, v, c, tuple(k for k, x in v.items() if isinstance(x, CellError)), merged.get(n, {}))
            for n, v, c in raw]
    # a 合计/裁判长/备注 line under the table (no table number): a note, not a row, and its
    # formulas (=COUNTA(…) saved without a value) no error
    footers, footer_rows = [], set()
    for r in rows:
        if any(not _footer_label(r.values.get(k)) and _value(r.values.get(k)) is not None
               for k in L.RESULT_KEY_COLUMNS):
            continue        # a round, group or table typed: a row of a table (a mistyped one is said)
        at = _footer_cell(r.values, r.cells, (*L.RESULT_KEY_COLUMNS, "牌号"))
        if at is not None:
            footers.append(_footer_note(file, at))
            footer_rows.add(r.row)
    rows = [r for r in rows if r.row not in footer_rows]
    problems = _renamed_sheet(book, file) + footers + _errors(rows, file) + _cut_off(book, L.RESULT_SHEET, file)
    rows = [SheetRow(r.row, {k: _value(v) for k, v in r.values.items()}, r.cells, r.errors, r.merged) for r in rows]
    if results:
        problems += _typed_elsewhere(book, file, want, required, results, rows)
    return rows, problems


def other_cells(book: Book, row_no: int, labels: Sequence[str], required: Sequence[str] = ("桌号",)
                ) -> list[tuple[str, Any, str]]:
    """Handbook RESULT_SIGNED_BLANK: the filled cells of row ``row_no`` of the 成绩 sheet
    under a header that is none of ``labels`` (the columns :func:`read_results` read, with
    the same ``required``) — a 胜者 or 备注 column the referee added: (its header as
    written, the value, the cell).  Read only for a signed row with no result typed (rare):
    what it says is quoted back, never read as a result.

    >>> from pipeline.ingest.workbook import Sheet
    >>> b = Book("a.xlsx", {"成绩": Sheet("成绩", rows=[["桌号", "结果", "胜者"], [1, None, "姚明"]])})
    >>> other_cells(b, 2, ["桌号", "结果"])
    [('胜者', '姚明', 'C2')]
    """
    from .workbook import col_letter, find_table

    sheet = book.sheet(L.RESULT_SHEET)
    if sheet is None:
        return []
    want = list(dict.fromkeys([*L.RESULT_KEY_COLUMNS, "牌号", *labels]))
    try:
        table = find_table(sheet.rows, list(required), want)
    except TableNotFound:
        return []
    read = {norm_label(l) for l in want}
    header = sheet.rows[table.header_row - 1]
    values = next((v for n, v in table.rows if n == row_no), [])
    out = []
    for lab, c in sorted(table.columns.items(), key=lambda x: x[1]):
        if lab in read or c > len(values) or is_blank(values[c - 1]):
            continue
        out.append((cell_text(header[c - 1]).strip(), values[c - 1], f"{col_letter(c)}{row_no}"))
    return out


def _results_by_table(rows: Iterable[tuple[dict[str, Any], Any]], results: Sequence[str]) -> dict[tuple, tuple[tuple, Any]]:
    """The filled result rows of a sheet by table (:func:`key_of`, and 牌号): (the results as
    text, the row's first result cell); the first row of a table when one is typed twice."""
    out: dict[tuple, tuple[tuple, Any]] = {}
    for values, cells in rows:
        typed = tuple(cell_text(v).strip() if (v := _value(values.get(l))) is not None else "" for l in results)
        if any(typed):
            first = next(cells[l] for l, t in zip(results, typed) if t and l in cells)
            out.setdefault((*key_of(values), cell_text(values.get("牌号") or "").strip()), (typed, first))
    return out


def _typed_elsewhere(book: Book, file: str, want: Sequence[str], required: Sequence[str],
                     results: Sequence[str], rows: Sequence[SheetRow] = ()) -> list[Issue]:
    """Contract: results are typed on the sheet ``成绩``.  A referee who copied it (Excel names
    the copy “成绩 (2)”) and filled the copy sent a sheet of blank rows: the round said
    "还差 11 桌成绩未交" and never named the file that had come with every result.  Another
    sheet with the result table's header and a filled result cell is said (a warning, at
    its first such cell), and not read: the contract's sheet stays the one read.

    When ``成绩`` (its ``rows``) has results, another such sheet is said only where its filled
    results differ from them, table by table (:func:`key_of`), at its first differing cell: a
    copy of 成绩 with one table changed (or the old 成绩 kept as “成绩(旧)” beside a new one)
    was ignored without a word.  A copy with the same results, or none, says nothing.

    ``results`` are the game's result columns."""
    out = []
    own = norm_label(L.RESULT_SHEET)
    read = None         # 成绩's results by table: made when another sheet has the result table
    adopted = book.renamed.get(L.RESULT_SHEET)      # (成绩 renamed, and read as it)
    for name in book.sheets:
        if norm_label(name) == own or name == L.META_SHEET or name == adopted:
            continue
        try:
            _, raw = read_sheet_rows(book, name, want, list(required), file)
        except TableNotFound:
            continue
        if read is None:
            read = _results_by_table(((r.values, r.cells) for r in rows), results)
        theirs = _results_by_table(((v, c) for _, v, c in raw), results)
        if read:
            filled = next((cell for key, (typed, cell) in theirs.items()
                           if read.get(key, ((),))[0] != typed), None)
        else:
            filled = next((cell for _, cell in theirs.values()), None)
        if filled is None:
            continue
        if read:        # each such sheet: the office is to know every one that was not read
            out.append(issue("RESULT_ON_OTHER_SHEET",
                             f"成绩表《{file}》读取的是“{L.RESULT_SHEET}”工作表中的成绩；另一张工作表“{name}”中填写的成绩"
                             f"与它不同（如 {name}!{filled.cell}），没有读取。请删除多余的工作表“{name}”，或把正确的成绩"
                             f"抄进“{L.RESULT_SHEET}”工作表（不要复制工作表），然后重新发送。", at=filled))
            continue
        copy = "是复制出来的工作表" if norm_label(name).startswith(own) else "不是“成绩”工作表"
        out.append(issue("RESULT_ON_OTHER_SHEET",
                         f"成绩表《{file}》的“{L.RESULT_SHEET}”工作表没有填写成绩，成绩填在了工作表“{name}”中"
                         f"（如 {name}!{filled.cell}）；“{name}”{copy}，其中的成绩没有读取。成绩请填在“{L.RESULT_SHEET}”"
                         "工作表中，不要复制工作表；请把结果抄回原表后重新发送。", at=filled))
        break
    return out


def _value(v: Any) -> Any:
    """A result cell as the games read it: None for an error value (said above) and for a text
    of spaces only — a full-width space (U+3000) typed with a Chinese input method counted as a
    filled result here and as a blank one in the game: the table never got its result, and a
    later sheet's blank cell wiped an earlier one's."""
    if isinstance(v, CellError):
        return None
    if isinstance(v, str) and not strip_spaces(v):
        return None
    return v


#: a group as a referee writes it: its letter or number, with 第 before and 组 after it
_GROUP = re.compile(r"第?([A-Za-z]|[0-9]+)[组組]?")


def group_of(value: Any) -> str:
    """A 组别 cell as the draw names the group (:func:`pipeline.draw.common.group_label`: A … Z,
    then 27 …): "A组", "a", "Ａ", "A 组", "第A组" are A.  Anything else stays as written, spaces
    removed (三四名, the third-place match; "第一组" is not guessed to be A).

    >>> [group_of(v) for v in ("A组", " a ", "Ａ", "第A组", "第 27 組", "三四名", None)]
    ['A', 'A', 'A', 'A', '27', '三四名', '']
    """
    text = strip_spaces(cell_text(value)) if value is not None else ""
    m = _GROUP.fullmatch(text)
    return m.group(1).upper() if m else text


#: a 轮次 or 桌号 as a referee writes it: the number, with 第 before it and 轮 (a round) or
#: 桌/台 (a table) after it — 第1轮, 1轮, 第一轮, 第１桌, 1号桌 (NFKC-ed, spaces removed)
#: (a few digits only: a cell of 5000 digits is no round, and int() refuses to read it)
_ROUND_NO = re.compile(r"第?([0-9]{1,6}|[零〇一二两三四五六七八九十百]{1,6})[轮輪]?")
_TABLE_NO = re.compile(r"第?([0-9]{1,6}|[零〇一二两三四五六七八九十百]{1,6})(?:[号號]?[桌台])?|([0-9]{1,6})[号號]")
def _numbered(text: str, pattern: re.Pattern) -> str | None:
    """The number a 轮次/桌号 written with words means (第1轮 → "1", 第一桌 → "1"), else ``None``."""
    m = pattern.fullmatch(strip_spaces(text))
    if m is None:
        return None
    digits = next(g for g in m.groups() if g is not None)
    n = int(digits) if digits.isdigit() else cn_numeral(digits)
    return None if n is None else str(n)


def key_of(values: dict[str, Any]) -> tuple[str, str, str]:
    """(round, group, table) as normalised text, for matching a row to a drawn match (whose
    key is made with :func:`group_of` too).  A number no integer can hold ("inf", "1e999",
    "Infinity", "nan") stays as typed: a row of no drawn table, said at its cell (it stopped
    the run with OverflowError on every night the ledger held the workbook).  A round or table
    written with its words — 第1轮, 1轮, 第一轮, 第１轮, 第1桌, 1号桌 — is its number, as a
    队号 第1队 is (:func:`pipeline.layout.team_number`): a row of 轮次 "第1轮" on the round-1
    sheet was refused, told to change its 轮次 to 1.

    >>> key_of({"轮次": 1.0, "桌号": "1e999"}), key_of({"轮次": "Infinity", "组别": "A组", "桌号": "nan"})
    (('1', '', '1e999'), ('Infinity', 'A', 'nan'))
    >>> key_of({"轮次": "第1轮", "桌号": "第 3 桌"}), key_of({"轮次": "第十二轮", "桌号": "１２号"})
    (('1', '', '3'), ('12', '', '12'))
    """
    def num(v: Any, words: re.Pattern) -> str:
        s = cell_text(v) if v is not None else ""
        try:
            return str(int(float(s)))
        except (ValueError, OverflowError):        # not a number; inf (OverflowError), nan (ValueError)
            return _numbered(s, words) or s
    return num(values.get("轮次"), _ROUND_NO), group_of(values.get("组别")), num(values.get("桌号"), _TABLE_NO)


def read_details(book: Book, file: str, sheet: str, labels: Sequence[str], notes: list[Issue] | None = None
                 ) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    """Detail (hand-by-hand) rows grouped by (round, group, table); each row dict carries
    ``_cells`` (label → CellRef) for located messages, and ``_merged`` (as
    :attr:`SheetRow.merged`) when a cell of it is merged — not a key cell merged down its
    column, which reads its range's value (:func:`_merged_keys_down`).  A workbook without the detail
    sheet simply has no details.  Every row is read: a referee who cleared one table's
    unused pre-filled rows made a run of blank rows, and the tables below went unchecked.
    A 合计/签名/备注 line (under 局号, or first: :func:`_footer_cell`) is no deal: a note in
    ``notes`` (nothing to fix), the row not read — it was "明细第 合计 局：头游方 … 不是可选值"."""
    if book.sheet(sheet) is None:
        return {}
    want = list(dict.fromkeys([*L.RESULT_KEY_COLUMNS, *labels]))
    try:
        _, raw = read_sheet_rows(book, sheet, want, ["桌号"], file, whole=True)
    except TableNotFound:
        return {}
    out: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    # a table's 桌号 merged over its hands' rows (and 轮次/组别 down the sheet) reads on each
    # of them, as on the 成绩 sheet: those rows were set aside as 明细未使用
    merged = _merged_cells(book, sheet, raw, _merged_keys_down(book, sheet, raw))
    for n, values, cells in raw:
        values = {k: (v if isinstance(v, CellError) else _value(v)) for k, v in values.items()}   # (as 成绩's)
        # 局号 is pre-filled by our writer: a row with nothing else is blank
        if all(values.get(l) in (None, "") for l in labels if l != "局号"):
            continue
        at = None if isinstance(values.get("局号"), (int, float)) else \
            _footer_cell(values, cells, (*L.RESULT_KEY_COLUMNS, "局号"))
        if at is not None:
            if notes is not None:
                notes.append(_footer_note(file, at, "一局，请在“局号”填写局数"))
            continue
        out.setdefault(key_of(values), []).append({**values, "_cells": cells, "_row": n,
                                                   **({"_merged": merged[n]} if n in merged else {})})
    return out


def _find_entry(text: str, entries: Sequence[Entry], units: Mapping[str, Sequence[str]] | None = None,
                tie: Collection[str] = ()) -> Entry | None:
    """The entry a 加赛 row names: its team, id, players or (one player) name or staff
    number — also as the result and draw sheets print it, with its unit (姚明（基础部）):
    then the unit in brackets must be that entry's (``units``: unit id → its names, former
    ones too), and one entry only may fit (two 王伟 of two units are told apart by it, never
    guessed).  A team label made from another of its unit's names (:func:`team_label_of`:
    行政一1队, printed before the office renamed 行政一 to 行政壹) names the team when it is
    no entry's label now and one team only fits — among ``tie`` (the entry ids the form's
    _meta says this row's tie was made for) when one of them does."""
    from ..text import to_simplified

    def names(key: str) -> list[Entry]:
        return [e for e in entries
                if key in (strip_spaces(e.team), e.id) or key == strip_spaces(e.player_names)
                or any(key == p.name or (p.staff_id and staff_key(key) == staff_key(p.staff_id))
                       for p in e.players if len(e.players) == 1)]

    k = strip_spaces(text)
    found = names(k)
    if found:
        return found[0]
    if units:
        fits = [e for e in entries if team_label_of(k, e, units)]
        if len(fits) > 1 and tie:
            fits = [e for e in fits if e.id in tie]
        if len(fits) == 1:
            return fits[0]
    m = _UNIT_SUFFIX.search(k)
    if m is None or not units:
        return None
    unit = strip_spaces(to_simplified(m.group(0)[1:-1]))
    fits = [e for e in names(k[:m.start()])
            if unit in {strip_spaces(to_simplified(n)) for n in units.get(e.branch, ()) if n}]
    return fits[0] if len(fits) == 1 else None


def team_label_of(text: str, e: Entry, units: Mapping[str, Sequence[str]]) -> bool:
    """Whether ``text`` (spaces out) is ``e``'s team label made from one of its unit's names
    (``units``: unit id → its names, former ones too; :func:`pipeline.layout.team_label`):
    行政一1队 for the team 行政壹1队 of a unit once called 行政一.  A 队号 written as a team
    name (ending in 队 or 隊: :func:`pipeline.layout.names_team`) has no unit in it.

    >>> e = Entry(id="ss:b01:1", event="ss", branch="b01", team="行政壹1队", players=(), team_no="1")
    >>> [team_label_of(t, e, {"b01": ("行政一分工会", "行政壹", "行政一")}) for t in ("行政一1队", "行政一2队", "行政二1队")]
    [True, False, False]
    >>> [team_label_of(t, e, {"b01": ("行政壹",)}) for t in ("行政壹1隊", "行政壹１隊")]
    [True, True]
    >>> named = Entry(id="ss:b01:夢之隊", event="ss", branch="b01", team="夢之隊", players=(), team_no="夢之隊")
    >>> team_label_of("行政壹夢之隊队", named, {"b01": ("行政壹",)})
    False
    """
    if not e.team_no or L.names_team(L.team_number(e.team_no)):
        return False
    from ..text import to_simplified

    typed = strip_spaces(to_simplified(text))
    return any(typed == strip_spaces(to_simplified(L.team_label(n, e.team_no))) for n in units.get(e.branch, ()) if n)


#: a label's unit in brackets at its end, as the sheets print an entry: 姚明（基础部）
_UNIT_SUFFIX = re.compile(r"[（(][^（）()]*[）)]$")


def same_event(typed: str, event_id: str, event_name: str, former: Sequence[str] = ()) -> bool:
    """Whether a sheet's 项目 names this event: its id or its name, in either script (a
    Traditional tournament's sheets say 圍棋 for the spec's 围棋) — or a name it had when
    the sheet was issued (``former``: EventSpec.former_names, an event renamed since)."""
    typed = strip_spaces(typed)
    if typed == event_id or any(typed == strip_spaces(n) for n in (event_name, *former)):
        return True         # as written (no converter needed: the same text converts the same)
    from ..text import to_simplified

    typed = strip_spaces(to_simplified(typed))
    return typed in (event_id, *(strip_spaces(to_simplified(n)) for n in (event_name, *former)))


def read_playoffs(book: Book, file: str, event_id: str, event_name: str, entries: Sequence[Entry],
                  about: dict[int, tuple[str, str]] | None = None,
                  units: Mapping[str, Sequence[str]] | None = None,
                  former: Sequence[str] = ()) -> tuple[list[Playoff], list[Issue]]:
    """加赛 sheet → Playoff orders for this event (rows of other events are ignored).
    ``about`` (when given) gets, for a problem of a row, its index → the row's (阶段, 组别):
    a later sheet with that group's playoff settles it (``run.read_playoffs``)."""
    try:
        _, raw = read_sheet_rows(book, L.PLAYOFF_SHEET, L.PLAYOFF_COLUMNS, ["项目", "名次", "参赛者"], file)
    except TableNotFound as e:
        return [], [_missing(file, L.PLAYOFF_SHEET, e)]
    groups: dict[tuple[str, str], list[tuple[int, int, str, str]]] = {}
    problems: list[Issue] = []
    tied_rows = _tie_rows(book, raw[0][0]) if raw else []
    made_for = tuple(frozenset(t.split()) for t in str(book.meta.get(L.META_TIE_ENTRIES, "") or "").split("|") if t.split())
    try:        # the round the form was issued at (R2011-F1, R2011-D2: it settles that round's tie)
        at_round: int | None = int(float(str(book.meta.get(L.META_ROUND))))
    except (TypeError, ValueError, OverflowError):
        at_round = None

    def tie_of(row: int) -> int:
        return next((k for k, end in enumerate(tied_rows) if row <= end), len(tied_rows))

    def tie_said(k: int) -> tuple[int, int, str]:
        """(first row, number of rows, who) of the form's tie ``k``, as a message names it."""
        first = tied_rows[k - 1] + 1 if k else raw[0][0]
        who = "、".join(cell_text(v.get("参赛者")) for n, v, _ in raw
                       if first <= n <= tied_rows[k] and v.get("参赛者") is not None)
        return first, tied_rows[k] - first + 1, who

    # the stage of each tie the form was made for (its 阶段 cells print the stage's name)
    tie_stages = str(book.meta.get(L.META_TIE_STAGES, "") or "").split(",") if tied_rows else []
    printed = {v: k for k, v in L.STAGE_LABELS.items()}

    mine: list[CellRef] = []        # the 名次 cells of this event's rows
    placed = False
    # R2020-F4: the rows whose 名次 is blank, (tie, entry, cell) by (阶段, 组别): beside a given
    # 名次 of their tie, still level (Playoff.places_of)
    blanks: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
    for n, v, cells in raw:
        ev = strip_spaces(cell_text(v.get("项目")) if v.get("项目") is not None else "")
        if not same_event(ev, event_id, event_name, former):
            continue
        stage = strip_spaces(cell_text(v.get("阶段")) if v.get("阶段") is not None else "")
        if not stage.isascii():
            from ..text import to_simplified

            # the form prints the stage's name (小组赛, 淘汰赛, 最终名次) and keeps its code in
            # _meta: the code of the row's tie when the name is the one printed for it; an
            # older form wrote the code itself.  A name typed otherwise meant this tie: any
            # stage, found by its contenders (it was ignored)
            typed = strip_spaces(to_simplified(stage))
            k = tie_of(n)
            if typed == L.FINAL_PLACES:
                stage = L.FINAL_PLACES
            elif k < len(tie_stages) and printed.get(typed) == tie_stages[k]:
                stage = tie_stages[k]
            else:
                stage = ""
        group = group_of(v.get("组别"))
        if about is not None:
            about[len(problems)] = (stage, group)     # the problem this row may add
        who = cell_text(v.get("参赛者")) if v.get("参赛者") is not None else ""
        k = tie_of(n)
        e = _find_entry(who, entries, units, made_for[k] if k < len(made_for) == len(tied_rows) else ())
        if e is None:
            problems.append(issue("BAD_VALUE", f"加赛表中的参赛者“{quoted(who)}”不在{event_name}的参赛名单中：请填写队名或姓名。",
                                  at=cells["参赛者"]))
        mine.append(cells["名次"])
        if v.get("名次") is None or not cell_text(v.get("名次")).strip():
            if e is not None:
                blanks.setdefault((stage, group), []).append((tie_of(n), e.id, cells["名次"].cell))
            continue        # not played yet: a sheet may be sent with one group's playoff filled
        placed = True
        try:
            place = int(float(cell_text(v.get("名次"))))
        except (TypeError, ValueError, OverflowError):     # 第一; 1e999 and inf (OverflowError), nan
            if e is not None:
                from ..text import to_simplified

                if strip_spaces(to_simplified(cell_text(v.get("名次")))) in PLAYOFF_DRAW_WORDS:
                    problems.append(issue("BAD_VALUE", f"加赛名次填的是“{quoted(v.get('名次'))}”：{PLAYOFF_DRAWN}，和棋不能决定"
                                          "名次。请组织再赛，直至分出胜负，再按名次填写 1、2 …（第1名填 1）后重新发送。",
                                          at=cells["名次"]))
                else:
                    problems.append(issue("BAD_VALUE", f"加赛名次“{quoted(v.get('名次'))}”不是数字：请填写 1、2、3 …",
                                          at=cells["名次"]))
            continue
        k = tie_of(n)
        if k < len(tied_rows) and not 1 <= place <= tie_said(k)[1]:
            # a form of several ties (2 tied for 3rd, 3 for 6th) numbered 1 … 5 straight down:
            # the 4 of a three-player tie was taken as its last place without a word
            if e is not None:
                first, size, names = tie_said(k)
                problems.append(issue("BAD_VALUE", f"加赛名次“{quoted(cell_text(v.get('名次')))}”超出范围：第{first}–{first + size - 1}行"
                                      f"是本表的加赛{k + 1}（{size}人并列：{names}），名次只能填 1–{size}；"
                                      f"{'本表每一组并列各自从 1 填起。' if len(tied_rows) > 1 else ''}请改正后重新发送。",
                                      at=cells["名次"]))
            continue
        # a row whose 参赛者 is not found still holds its place in the sheet's numbering (a
        # hand-made sheet's ties are read from it: the same sheet reads the same ties on a night
        # its player is an entry and on one it is not); it is left out of the order below
        groups.setdefault((stage, group), []).append((tie_of(n), place, e.id if e else "", cells["名次"].cell))
    if mine and not placed:
        # a sheet with no 名次 at all (the ranks written in another column, or the blank form
        # put into the inbox) was passed over without a word, the event still waiting
        problems.append(issue("MISSING_VALUE", f"收到的加赛表中{event_name}的“名次”一栏都没有填写，这份表没有计入："
                              "请在“名次”一栏填写加赛后的名次（1 为最好），再把表格放进收件箱。",
                              at=mine[0], severity=Severity.INFO))
    if not tied_rows:
        groups = {key: _handmade_ties(items) for key, items in groups.items()}
        # a hand-made sheet's blank rows are of its tie when it has one only (which of several
        # a blank row is in, its numbering cannot say)
        blanks = {key: [(0, e, c) for _, e, c in rows] for key, rows in blanks.items()
                  if {t for t, *_ in groups.get(key, [])} == {0}}
    # the order: a form's ties one after another (as they are printed); a hand-made sheet's by
    # 名次 over the whole sheet, as read before its ties were (the order a published round
    # recorded: PLAYOFFS_KEY, run.check_playoffs_since_draw — each tie's order is the same
    # either way, and a sheet read again must give the order it gave)
    groups = {key: sorted((x for x in items if x[2]), key=(lambda x: x) if tied_rows else (lambda x: x[1:]))
              for key, items in groups.items()}
    out = [Playoff(event=event_id, stage=stage, group=group, order=tuple(eid for _, _, eid, _ in items),
                   source=CellRef(file, L.PLAYOFF_SHEET), places=tuple(p for _, p, _, _ in items),
                   cells=tuple(c for _, _, _, c in items),
                   ties=tuple(t for t, _, _, _ in items) if tied_rows or len({t for t, *_ in items}) > 1 else (),
                   made_for=made_for,
                   round=at_round,
                   blank=tuple(e for _, e, _ in blanks.get((stage, group), ())),
                   blank_cells=tuple(c for _, _, c in blanks.get((stage, group), ())),
                   blank_ties=tuple(t for t, _, _ in blanks.get((stage, group), ()))
                   if tied_rows or len({t for t, *_ in items}) > 1 else ())
           for (stage, group), items in sorted(groups.items()) if items]
    return out, problems


def _handmade_ties(items: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """The ties of a 加赛 sheet whose _meta does not say them (made by hand, or by an older
    form), from its rows (tie, 名次, entry, cell) in sheet order: one tie after another, each
    numbered from 1.  A 名次 1 begins the next tie once the one before holds 1 … k, each once
    (a tie has two or more); a lone row left at the end belongs to the tie before it.  Read as
    one tie, the 2nd of one tie and the 2nd of another were two tied players given the same
    名次, and a correct sheet was said to be wrong (R2011-F1, R2020-A1); 2, 1 stays one tie
    (rows in any order) and so do 1, 1, 2 and 1, 2, 1 (the sheet's mistake, said at it).

    >>> [t for t, *_ in _handmade_ties([(0, p, e, "") for p, e in zip((1, 2, 1, 3, 2, 1, 1, 2), "abcdefgh")])]
    [0, 0, 1, 1, 1, 2, 2, 2]
    """
    ties, block = [], []
    for _, place, _, _ in items:
        if place == 1 and len(block) > 1 and sorted(block) == list(range(1, len(block) + 1)):
            block = []
            ties.append((ties[-1] if ties else 0) + 1)
        else:
            ties.append(ties[-1] if ties else 0)
        block.append(place)
    if len(block) == 1 and len(ties) > 1 and ties[-1] != ties[-2]:
        ties[-1] = ties[-2]
    return [(t, p, e, c) for t, (_, p, e, c) in zip(ties, items)]


def _tie_rows(book: Book, first_row: int) -> list[int]:
    """The sheet row each tie of a 加赛 form ends at, from its _meta (``ties``: rows per tie
    in order, written by xlsx.forms.write_playoff_form); [] when it does not say."""
    try:
        counts = [int(x) for x in str(book.meta.get(L.META_TIES, "")).split(",") if x.strip()]
    except ValueError:
        return []
    ends, row = [], first_row - 1
    for c in counts:
        if c < 1:
            return []
        row += c
        ends.append(row)
    return ends


#: the unmarked rows of a 签到 sheet said one issue each up to this many; more, one issue names them all
UNMARKED_EACH = 8

#: 到场 as people mark a Chinese sign-in sheet besides the form's 是 / 否 (R2016-F2), read
#: after NFKC (full-width Ｙ, １ are Y, 1) and in upper case (y, yes): present …
CHECKIN_PRESENT = frozenset({"是", "√", "✓", "✔", "☑", "✅", "V", "到", "已到", "Y", "YES", "1", "TRUE"})
#: … and absent
CHECKIN_ABSENT = frozenset({"否", "×", "✗", "✘", "☒", "❌", "❎", "X", "缺", "缺席", "未到", "N", "NO", "0", "FALSE"})
#: what a captain is told the 到场 cell may hold
CHECKIN_HINT = "只能填 是 或 否（也可写 √、到 或 ×、缺）"


def checkin_mark(value: Any) -> str:
    """A 签到 sheet's 到场 cell (R2016-F2): 是 (present), 否 (absent), "" (blank), or, when it is
    none of the usual marks (:data:`CHECKIN_PRESENT`, :data:`CHECKIN_ABSENT`), what it holds.

    >>> [checkin_mark(v) for v in ("√", "到", "ｙ", 1, "×", "缺", "N", 0.0, None, " ", "？")]
    ['是', '是', '是', '是', '否', '否', '否', '否', '', '', '?']

    The keyboard's tick and cross (v, x) and emoji marks (✔️ with its variation selector, ✅, ❌)
    too (a review):

    >>> [checkin_mark(v) for v in ("v", "x", "X", "✔\ufe0f", "✅", "❌")]
    ['是', '否', '否', '是', '是', '否']
    """
    text = strip_spaces(cell_text(value)).replace("\ufe0f", "") if value is not None else ""
    key = text.upper()
    return "是" if key in CHECKIN_PRESENT else "否" if key in CHECKIN_ABSENT else text


@dataclass(frozen=True)
class Unmarked:
    """A 签到 row of a registered player whose 到场 is blank, or holds neither 是 nor 否
    (nor a usual mark for them, :func:`checkin_mark`: ``typed`` is what it holds, ？, 迟到 …)
    (R2016-F2): who, and where."""

    key: str            # Person.key
    row: int
    name: str
    at: CellRef         # the 到场 cell
    typed: str = ""     # what the cell holds when it is not blank


def unmarked_issues(rows: Sequence[Unmarked], event_name: str, note: str = "") -> list[Issue]:
    """R2016-F2: the problems of 签到 rows left blank in 到场 — errors, round 1 is not drawn on
    a guess (the form says “到场的选手选是，未到场的选否”: a blank is a row not yet marked, not
    someone present).  One issue at each cell up to :data:`UNMARKED_EACH` rows; more, one
    issue at the first naming every row (a sheet half filled in is one thing to do).

    ``note``: round 1 does not wait for the sheet (it is drawn, or the event's round 1 is not
    drawn at the check-in) — the rows are notes (info) saying so, the blank taken as present.

    >>> at = CellRef("签到.xlsx", "签到", "E5")
    >>> [i.message for i in unmarked_issues([Unmarked("k", 5, "董涛强", at)], "扑克牌")]
    ['签到表中扑克牌第5行 董涛强 的“到场”未填写：请选“是”或“否”后重发签到表（填好之前第1轮不抽签）。']
    >>> [(i.severity.value, i.message) for i in unmarked_issues([Unmarked("k", 5, "董涛强", at)], "扑克牌", "第1轮已抽签")]
    [('info', '签到表中扑克牌第5行 董涛强 的“到场”未填写，按到场处理（第1轮已抽签）。')]
    """
    typed = [u for u in rows if u.typed]
    if typed:       # a mark that is neither 是 nor 否 (？): said at its own cell, as a blank is
        rows = [u for u in rows if not u.typed]
        said = [issue("BAD_VALUE", f"签到表中{event_name}第{u.row}行 {u.name} 的“到场”填的是“{u.typed}”，{CHECKIN_HINT}"
                      + (f"，按到场处理（{note}）。" if note else "：请改正后重发签到表（改好之前第1轮不抽签）。"),
                      at=u.at, severity=Severity.INFO if note else Severity.ERROR) for u in typed]
        return said + (unmarked_issues(rows, event_name, note) if rows else [])
    if note:
        if len(rows) <= UNMARKED_EACH:
            return [issue("BAD_VALUE", f"签到表中{event_name}第{u.row}行 {u.name} 的“到场”未填写，按到场处理（{note}）。",
                          at=u.at, severity=Severity.INFO) for u in rows]
        listed = "、".join(f"第{u.row}行 {u.name}" for u in rows)
        return [issue("BAD_VALUE", f"签到表中{event_name}有 {len(rows)} 行的“到场”未填写（{listed}），按到场处理"
                      f"（{note}）。", at=rows[0].at, severity=Severity.INFO)]
    if len(rows) <= UNMARKED_EACH:
        return [issue("BAD_VALUE", f"签到表中{event_name}第{u.row}行 {u.name} 的“到场”未填写：请选“是”或“否”后"
                      "重发签到表（填好之前第1轮不抽签）。", at=u.at) for u in rows]
    listed = "、".join(f"第{u.row}行 {u.name}" for u in rows)
    return [issue("BAD_VALUE", f"签到表中{event_name}有 {len(rows)} 行的“到场”未填写（{listed}）：请在这些行"
                  "选“是”或“否”后重发签到表（填好之前第1轮不抽签）。", at=rows[0].at)]


@dataclass
class Listed:
    """The rows of an event on one 签到 sheet (R2016-F2): the players they name, whatever
    their mark (a row matching several players names them all), and the 项目 cell of the
    event's first row — where rows left out are said (``run.read_absent``: a player entered on
    no row of the sheets received holds round 1 as a blank row does; the cell below the
    event's last row was said, maybe another event's player's)."""

    keys: set[str] = field(default_factory=set)
    first: CellRef | None = None


def read_absent(book: Book, file: str, event_id: str, event_name: str, entries: Sequence[Entry],
                marks: dict[str, bool | None] | None = None, former: Sequence[str] = (),
                unmarked: list[Unmarked] | None = None, listed: Listed | None = None
                ) -> tuple[set[str], list[Issue]]:
    """签到 sheet → Person.key of players marked absent (到场 = 否) in this event (R2016-F2).
    ``marks`` (when given) gets every row of the event read: person key → True (否, absent),
    False (是), None (blank) — so a later sheet can correct an earlier one (``run.read_absent``).
    ``listed`` (when given) gets the players the event's rows name (:class:`Listed`).

    Every row is checked (R2016-F2), not only those marked 否:

    - 到场 blank for a registered player: an error (:func:`unmarked_issues`) — the row is not
      marked yet, and round 1 is not drawn on a guess.  With ``unmarked`` given the rows go
      there instead, for the caller to say of those no sheet marks (``run.read_absent``).
    - a name (or 工号) that is not among the event's players, whatever its mark (是, 否 or
      blank): a warning, the row is not entered — a substitute written in (no substitutes are
      provided for, a pair missing a player is re-formed, R2016-F2), a pair dropped from its
      unit's form or withdrawn still on a sheet printed before; an error would ask for a mark
      that cannot clear it.  A name that fits several players is an error.
    - a row with neither 姓名 nor 工号 (blank, or a formula error such as the #N/A of a lookup
      filled down past the last player, as the registration reader takes them) is no one: skipped."""
    try:
        _, raw = read_sheet_rows(book, L.CHECKIN_SHEET, L.CHECKIN_COLUMNS, ["项目", "姓名", "到场"], file)
    except TableNotFound as e:
        return set(), [_missing(file, L.CHECKIN_SHEET, e)]
    # 项目 (组别) merged over an event's rows, as offices format a sheet: each row's (R2016-F2)
    _merged_keys_down(book, L.CHECKIN_SHEET, raw, ("项目", "组别"))
    people = {(p.name, p.staff_id): p for e in entries for p in e.players}
    out: set[str] = set()
    problems: list[Issue] = []
    blanks: list[Unmarked] = []
    for n, v, cells in raw:
        ev = strip_spaces(cell_text(v.get("项目")) if v.get("项目") is not None else "")
        if not same_event(ev, event_id, event_name, former):
            continue
        # a lookup formula filled down past the last player (#N/A in 姓名 / 工号): as blank
        name = "" if isinstance(v.get("姓名"), CellError) else \
            strip_spaces(cell_text(v.get("姓名")) if v.get("姓名") is not None else "")
        sid = "" if isinstance(v.get("工号"), CellError) else \
            strip_spaces(cell_text(v.get("工号")) if v.get("工号") is not None else "")
        if not name and not sid:
            continue            # a row with only 项目 (whatever its mark): no one
        here = checkin_mark(v.get("到场"))       # √ 到 Y 1 → 是, × 缺 N 0 → 否
        # a 工号 with or without its leading zeros (001033 typed as text, 1033 as a number)
        match = [p for (pn, ps), p in people.items()
                 if (sid and staff_key(ps) == staff_key(sid)) or (not sid and pn == name)]
        if listed is not None:
            listed.keys.update(p.key for p in match)
            listed.first = listed.first or cells["项目"]
        who = f"“{name or sid}”{f'（工号 {sid}）' if name and sid else ''}"
        if not match:
            # a substitute written in for someone absent, a pair dropped from its unit's form or
            # withdrawn (still on a sheet printed before), a name misspelt: said, not entered —
            # whatever the mark, which no one needs to fill in (an error here could not be cleared)
            problems.append(issue(
                "BAD_VALUE", (f"签到表第{n}行{who}不在{event_name}的参赛名单中，这一行没有录入：比赛不设替补，"
                              "缺一名选手的对子在组内与其他单人重新配对（R2016-F2）。如是参赛选手的姓名或工号写错，请改正后"
                              "重发签到表；未报名的替补选手不能上场，除非组委会另行决定，并在第1轮抽签前为其补报。")
                if here == "是" else
                (f"签到表第{n}行{who}不在{event_name}的参赛名单中（如已退赛或不再报名），这一行没有录入，"
                 "“到场”不必填写。如是参赛选手的姓名或工号写错，请改正后重发签到表。"),
                at=cells["姓名"], severity=Severity.WARNING))
            continue
        if here == "是":
            if len(match) == 1 and marks is not None:
                marks[match[0].key] = False
            continue
        if here not in ("否", "") and len(match) == 1:
            # ？ …: unreadable, and the person's own — cleared only by a sheet marking them (a
            # later sheet of other rows cleared it, the person drawn as present without a word)
            blanks.append(Unmarked(match[0].key, n, name or sid, cells["到场"], here))
            if marks is not None:
                marks.setdefault(match[0].key, None)
            continue
        if here not in ("否", ""):
            problems.append(issue("BAD_VALUE", f"到场栏“{here}”{CHECKIN_HINT}。", at=cells["到场"]))
            continue
        if len(match) != 1:
            blank = "，“到场”也未填写" if not here else ""
            problems.append(issue("BAD_VALUE", f"签到表中的{who}在{event_name}的参赛名单中有重名{blank}："
                                  f"请核对姓名和工号{'，并选“是”或“否”' if not here else ''}后重发签到表。",
                                  at=cells["姓名"]))
            continue
        if not here:
            blanks.append(Unmarked(match[0].key, n, name or sid, cells["到场"]))
            if marks is not None:
                marks.setdefault(match[0].key, None)
            continue
        out.add(match[0].key)
        if marks is not None:
            marks[match[0].key] = True
    if unmarked is not None:
        unmarked.extend(blanks)
    else:
        problems.extend(unmarked_issues(blanks, event_name))
    return out, problems


def read_awards(book: Book, file: str) -> tuple[list[Any], list[Issue]]:
    """评奖 sheet → DiscretionaryRow list (R2015-A1)."""
    from ..score.awards import DiscretionaryRow

    try:
        _, raw = read_sheet_rows(book, L.AWARDS_SHEET, L.AWARDS_COLUMNS, ["奖项"], file)
    except TableNotFound as e:
        return [], [_missing(file, L.AWARDS_SHEET, e)]

    def text(v: Any) -> str:
        return "" if v is None else cell_text(v).strip()
    rows = [DiscretionaryRow(award=text(v.get("奖项")), event=text(v.get("项目")), name=text(v.get("姓名")),
                             staff_id=text(v.get("工号")), branch=text(v.get("单位")), at=cells.get("奖项"),
                             cells=cells)
            for n, v, cells in raw]
    return rows, []
