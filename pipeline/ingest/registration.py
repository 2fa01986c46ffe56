"""A registration workbook → typed rows and located issues; generic readers for result and
organisers' sheets.

Checks here are about one workbook on its own (is it our template, for which branch, is
every value well formed).  Checks across rows and branches (quotas, duplicates, teams,
deadlines) are in :mod:`pipeline.validate`.
"""
from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field, replace
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Sequence

from .. import layout as L
from ..issues import Issue, IssueLog
from ..model import CellRef, Person, Severity
from ..text import script_of as _script, typed, verbatim
from .workbook import (BLANK_RUN, INVISIBLE_CHARS, MAX_COLS, MAX_GAP, MAX_ROWS, Book, CellError, Table, TableNotFound, _label_base, cell_text,
                       col_letter, find_table, is_blank, norm_label, strip_spaces)

if TYPE_CHECKING:
    from ..spec import Tournament


@dataclass(frozen=True)
class RegRow:
    """One person row of 报名表: its sheet row, where its cells are, and its normalised values.

    ``ok`` is False when any error was reported on the row (the row then enters no entry).
    ``columns`` (label → column letters) is its table's, one object for all its rows: a
    night reads every unit's kept form, and a dict of A1 references and one of raw values
    per row were a third of their loading (the raw values were never read again).
    """

    row: int
    columns: Mapping[str, str]
    event: str = ""          # event id ("" when unknown/blank)
    team_no: str = ""
    name: str = ""           # NFKC, every space removed
    display_name: str = ""   # as typed, trimmed
    staff_id: str = ""
    gender: str = ""
    phone: str = ""
    pickup: str = ""
    note: str = ""
    ok: bool = True

    @property
    def cells(self) -> dict[str, str]:
        """Label → A1 reference of the row's cell."""
        return {label: f"{letters}{self.row}" for label, letters in self.columns.items()}

    def person(self, branch: str) -> Person:
        return Person(name=self.name, branch=branch, staff_id=self.staff_id, gender=self.gender,
                      phone=self.phone, pickup=self.pickup, note=self.note,
                      display_name=self.display_name, row=self.row)


@dataclass(frozen=True)
class Registration:
    """One branch's registration workbook as read.

    ``usable`` is False after a file-level error (TEMPLATE_MISMATCH, WRONG_BRANCH,
    UNKNOWN_BRANCH): its rows are still read so the captain sees every problem, but the
    runner must not let it supersede an earlier accepted submission and validation takes
    no entries from it.

    ``foreign`` is True when the file is not a form this tournament issued for ``branch``
    (no ``_meta``, another kind of sheet, another tournament's or an old template, a unit id
    not ours, a token that does not fit): no edit of the file can make it acceptable — the
    captain needs the unit's own issued form.  False when only its sheet or header was
    changed (restoring them makes it acceptable).
    """

    file: str
    branch: str
    sheet: str = L.REG_SHEET
    rows: tuple[RegRow, ...] = ()
    received: dt.datetime | None = None
    meta: dict[str, str] = field(default_factory=dict)
    usable: bool = True
    source: str = ""       # the received file's SHA-256 ("" when not known): ``Issue.source``
    saved: str = ""        # when it was last saved (:attr:`Book.saved`)
    foreign: bool = False  # not a form issued for ``branch`` by this tournament (see above)
    #: the sheet rows of lines for an event since cancelled (EVENT_CANCELLED, a note): no row
    #: of ``rows`` — no check looks at them —, yet lines of the form: it is not empty for them
    cancelled: tuple[int, ...] = ()
    #: the lines under a 替补名单 heading (``substitutes_heading``, as shown), each read as an
    #: entry would be and without a problem of its own: no row of ``rows`` (the league has no
    #: substitutes) — but a version before the heading was known entered and drew them, and
    #: a person in a published round stays entered (:func:`pipeline.run.substitutes_drawn`)
    substitutes: tuple[RegRow, ...] = ()
    substitutes_heading: str = ""

    def at(self, cell: str = "") -> CellRef:
        return CellRef(self.file, self.sheet, cell)


_INVISIBLE = dict.fromkeys(map(ord, INVISIBLE_CHARS), None)
#: a separator between two names in one cell: a line break (Alt+Enter) or a list
#: separator, with the spaces around it (see :func:`_two_names`)
_NAME_SEP = re.compile(r"\s*(?:[,、;；]|\n)\s*")


def _cjk(ch: str) -> bool:
    """A Chinese character (CJK Unified Ideographs and Extension A).  Compared by code point,
    not with a regular-expression class: ``re`` builds a 64 K bitmap for such a range, a few
    milliseconds a pattern at every start of the command."""
    return "\u3400" <= ch <= "\u9fff"


def _close_cjk_gaps(text: str) -> str:
    """Drop the single spaces (``text`` has no others) between Chinese characters and the
    name dots ``·•``: "王 军" → "王军", "买买提 · 艾力" → "买买提·艾力"; "John Smith" keeps its space.

    >>> _close_cjk_gaps("王 军"), _close_cjk_gaps("买买提 · 艾力"), _close_cjk_gaps("John Smith 王")
    ('王军', '买买提·艾力', 'John Smith 王')
    """
    parts = text.split(" ")
    out = parts[0]
    for part in parts[1:]:
        if out and part and (_cjk(out[-1]) or out[-1] in "·•") and (_cjk(part[0]) or part[0] in "·•"):
            out += part
        else:
            out += " " + part
    return out


def _two_names(text: str) -> bool:
    r"""Two names in one cell: a line break or a list separator between Chinese characters
    ("董涛强，方鹏旭" was read as the one person 董涛强,方鹏旭).

    >>> _two_names("董涛强,方鹏旭"), _two_names("王 ,\n 李"), _two_names("王,,李"), _two_names("Li, Wei")
    (True, True, False, False)
    """
    return any(m.start() > 0 and m.end() < len(text) and _cjk(text[m.start() - 1]) and _cjk(text[m.end()])
               for m in _NAME_SEP.finditer(text))


def _holds_table(sheet: Any, need: list[str]) -> bool:
    """Whether ``sheet`` holds the registration table (its header row with ``need``)."""
    try:
        find_table(sheet.rows, need, L.REG_COLUMNS)
    except TableNotFound:
        return False
    return True


def _spaced_names(text: str) -> bool:
    """Two names in one cell parted by spaces ("段强 邱洋桂"): parts of two to four Chinese
    characters, five or more in all — read as one person 段强邱洋桂.  "王  军" (a name padded
    to align) and "欧阳 娜娜" (four in all) are one name; so may be a name written with a
    space for its dot (买买提 艾力), which is why this is only asked about.

    >>> [_spaced_names(t) for t in ("段强 邱洋桂", "孙宁刚　曾华", "王  军", "欧阳 娜娜", "John Smith")]
    [True, True, False, False, False]
    """
    parts = unicodedata.normalize("NFKC", text).split()
    return (len(parts) >= 2 and sum(map(len, parts)) >= 5
            and all(2 <= len(p) <= 4 and all(map(_cjk, p)) for p in parts))


_NAME_BAD = re.compile(r"[0-9０-９@#$%^&*=+<>/\\|]")
_NAME_NOTE = re.compile(r"[()\[\]【】]")      # after NFKC: （） are ()
_PHONE_KEEP = re.compile(r"[\s\-()（）]")


def read_registration(book: Book, file_label: str, tournament: "Tournament",
                      received: dt.datetime | None = None, source: str = "") -> tuple[Registration, list[Issue]]:
    """Read 报名表 of a registration workbook: `_meta` checks, header mapping, typed rows.

    Every issue carries branch (unit id, "" when unknown), file, sheet and A1 cell, and
    ``source`` (the received file's SHA-256, kept on the registration for validation's issues).
    """
    spec = tournament.spec
    meta = dict(book.meta)
    log = IssueLog()
    branch = (meta.get(L.META_BRANCH) or "").strip()
    unit = spec.unit(branch) if branch else None
    br = branch if unit else ""
    usable = True
    foreign = False
    # another tournament's form, or no registration form at all: refused with that one reason —
    # its sheets, headers and rows are not ours to check (t2011's form has no 队号: “报名表 找不到
    # 表头 “队号”。请不要修改或删除表头” followed, with no cell and advice that did not apply; then
    # its 中国象棋 row was UNKNOWN_EVENT and its 乘车地点 a HEADER_CHANGED “报名已按其余各列受理”)
    other_form = False
    file_at = CellRef(file_label, "", "")

    def file_issue(code: str, msg: str, not_ours: bool = False, at: CellRef | None = None) -> None:
        nonlocal usable, foreign
        usable = False
        foreign = foreign or not_ours
        log.add(code, msg, at=at or file_at, branch=br)

    tid = (meta.get(L.META_TOURNAMENT) or "").strip()
    kind = (meta.get(L.META_KIND) or L.KIND_REGISTRATION).strip()
    if not meta:
        file_issue("TEMPLATE_MISMATCH", f"“{file_label}”不是本次比赛下发的报名表模板（缺少隐藏的 _meta 表）。"
                   f"请使用组委会下发给本{spec.unit_word}的报名表填写。", True)
    elif kind != L.KIND_REGISTRATION:
        other_form = True
        file_issue("TEMPLATE_MISMATCH", f"“{file_label}”是{kind}表，不是报名表。请提交报名表。", True)
    elif tid != spec.id:
        # named by the title the form prints (2015年教職工棋牌比賽), which its captain knows, with
        # its id — the id alone (比赛“t2015-tcm”) told a captain nothing
        form = book.sheet(L.REG_SHEET)
        title = cell_text(form.rows[0][0]) if form is not None and form.rows and form.rows[0] else ""
        title = re.sub(r"\s*(?:报名表|報名表)$", "", title).strip()
        from ..text import to_simplified

        # (a title that is this league's own name, in either script, tells nothing: the id)
        own = strip_spaces(to_simplified(title)) == strip_spaces(to_simplified(spec.name)) if title else True
        named = f"“{title[:60]}”（编号 {tid}）" if title and tid and not own else f"“{tid or '（未注明）'}”"
        other_form = True
        if tid and branch and tournament.token_ok(branch, meta.get(L.META_TOKEN, ""), tid):
            # issued with this folder's secret under the id tournament.yaml had when the
            # templates were made: the office changed the id since (an audit: t2026 → t2026qp
            # before the first run) — or it is the form of another tournament whose folder this
            # one was copied from (the same secret.key).  Not taken either way; said as the
            # office's to settle, not as the captain's wrong form
            printed = f"（表上印的比赛名称是“{title[:60]}”）" if title and not own else ""
            file_issue("TOURNAMENT_ID_MISMATCH",
                       f"“{file_label}”是组委会以赛事编号“{tid}”下发的报名表（校验码相符）{printed}，而 tournament.yaml "
                       f"的赛事编号 id 现为“{spec.id}”：如果是在报名表下发之后改了 id，请把 id 改回 {tid}"
                       f"（赛事编号写在已下发的报名表里，报名表发出后就不能再改），再运行即可受理，无需退回{spec.unit_word}；"
                       f"否则它是另一项比赛的报名表（复制来的赛事文件夹有同一个密钥），不予受理。", True)
        else:
            file_issue("TEMPLATE_MISMATCH", f"“{file_label}”是比赛{named}的报名表，不是本次比赛"
                       f"（{spec.name}）的。请使用本次比赛下发的报名表。", True)
    else:
        try:
            version = int(float(meta.get(L.META_VERSION) or 0))
        except (ValueError, OverflowError):      # 1e999: no version
            version = 0
        from ..spec import TEMPLATE_VERSION
        if version < TEMPLATE_VERSION:
            file_issue("TEMPLATE_MISMATCH", f"“{file_label}”是旧版报名表模板（版本 {meta.get(L.META_VERSION) or '无'}，"
                       f"现行版本 {TEMPLATE_VERSION}）。请下载新模板重新填写。", True)
        if branch and unit is None and tournament.token_ok(branch, meta.get(L.META_TOKEN, "")):
            # issued by us for that unit (its token fits): the unit's id was changed or
            # removed in tournament.yaml since — the office's edit, not the captain's mistake
            file_issue("UNKNOWN_BRANCH", f"这份报名表是组委会为{spec.unit_word}编号“{branch}”下发的（校验码相符），"
                       f"但 tournament.yaml 的 units 中已没有编号 {branch}：如果是改了该{spec.unit_word}的编号，"
                       f"请改回 {branch}（编号写在已下发的报名表里，不能再改）；如果该{spec.unit_word}确已取消，"
                       "这份报名表不予受理。", True)
        elif not branch or unit is None:
            file_issue("UNKNOWN_BRANCH", f"报名表中的{spec.unit_word}编号“{branch}”不在本次比赛的名单中。"
                       f"请使用组委会下发给本{spec.unit_word}的报名表。", True)
        elif not tournament.token_ok(branch, meta.get(L.META_TOKEN, "")):
            file_issue("WRONG_BRANCH", f"报名表的校验码与{spec.unit_word}“{unit.name}”不符（表格可能复制自其他"
                       f"{spec.unit_word}或被改动）。请使用组委会下发给本{spec.unit_word}的报名表。", True)

    sheet = book.sheet(L.REG_SHEET)
    reg_rows: list[RegRow] = []
    cancelled: list[int] = []
    substitutes: list[str] = []     # the 替补名单 heading, once met: no entry below it
    held: list[RegRow] = []         # the lines under it, as read (Registration.substitutes)
    need = list(L.REG_REQUIRED)
    if any(e.is_team for e in spec.events):
        need.append("队号")
    if sheet is None:
        # renamed (Sheet1, 报名表(2)): the one sheet holding the form's table is read as it
        # (the _meta proved the form); it was refused with "找不到工作表" and not one row checked
        holding = [s for s in book.sheets.values() if s.name != L.META_SHEET and _holds_table(s, need)]
        if len(holding) == 1 and usable:
            sheet = holding[0]
            log.add("SHEET_RENAMED", f"“{file_label}”的工作表“{L.REG_SHEET}”被改名为“{typed(sheet.name, spec)}”，已按报名表读取；"
                    f"以后请不要给工作表改名。", at=CellRef(file_label, sheet.name, ""), branch=br,
                    severity=Severity.WARNING)
        elif not other_form:
            there = "、".join(f"“{s.name}”" for s in book.sheets.values() if s.name != L.META_SHEET)
            file_issue("TEMPLATE_MISMATCH", f"“{file_label}”中找不到工作表“{L.REG_SHEET}”"
                       f"{'（文件里的工作表：' + there + '）' if there else ''}。请不要改名或删除该工作表："
                       f"把填好报名的工作表改回“{L.REG_SHEET}”后再发送。")
    if sheet is not None and not other_form:
        try:
            table = find_table(sheet.rows, need, L.REG_COLUMNS)
            if sheet.merged:       # a pair's 项目/队号/乘车地点 merged over its rows: each row has it
                sheet.fill_merged_down(table.header_row,
                                       [table.columns[c] for c in ("项目", "队号", "乘车地点") if c in table.columns],
                                       when=[table.columns[c] for c in ("姓名", "工号") if c in table.columns])
                table = find_table(sheet.rows, need, L.REG_COLUMNS)
        except TableNotFound as e:
            # each header cell told where it is (the returned copy marks it), the rest together
            for m in e.missing:
                cell = e.cell(m)
                if not cell:
                    continue
                text = e.cells[m][1]
                what = f"表头改成了“{typed(text, spec)}”，请改回“{m}”" if text else f"表头“{m}”被删除了，请填回“{m}”"
                file_issue("TEMPLATE_MISMATCH", f"{sheet.name}!{cell} {what}（表头不能修改，本表未受理），"
                           "改好后再提交。", at=CellRef(file_label, sheet.name, cell))
            rest = [m for m in e.missing if not e.cell(m)]
            if rest:
                names = "、".join(f"“{m}”" for m in rest)
                file_issue("TEMPLATE_MISMATCH", f"{sheet.name} 找不到表头 {names}。请不要修改或删除表头，"
                           f"恢复原模板的列名后再提交。")
        else:
            # a column the template has, renamed or deleted by the captain: its values would be
            # lost without a word (a blank 工号 also escapes the staff-number checks)
            lost = [c for c in L.REG_KEPT if c not in table.columns]
            if spec.pickup_points and "乘车地点" not in table.columns:
                log.add("HEADER_CHANGED", f"{sheet.name} 没有“乘车地点”一列（多半是增设班车之前下发的报名表，或该列被删除）："
                        "本表各人的乘车地点未登记，报名已按其余各列受理。请用新下发的报名表重新提交，以便登记乘车地点。",
                        at=CellRef(file_label, sheet.name, f"A{table.header_row}"), branch=br, severity=Severity.WARNING)
            if lost:
                why = {"工号": "无法按工号区分同名选手或查出重复报名", "性别": "性别未登记",
                       "联系电话": "联系电话未登记"}
                log.add("HEADER_CHANGED", f"{sheet.name} 找不到表头{'、'.join(f'“{c}”' for c in lost)}（被改名或删除）："
                        f"{'这一列' if len(lost) == 1 else '这几列'}没有读取，{'；'.join(why[c] for c in lost)}。"
                        "报名已按其余各列受理；请恢复原模板的列名后重新提交。",
                        at=CellRef(file_label, sheet.name, f"A{table.header_row}"), branch=br, severity=Severity.WARNING)
            if sheet.far:
                log.add("BAD_VALUE", f"{sheet.name}!{sheet.far} 有一个远离表格的值（与表格之间隔了 {MAX_GAP:,} 多行空行），"
                        f"未读取。如果是误输入，请删除这个单元格；报名请填在表格里。",
                        at=CellRef(file_label, sheet.name, sheet.far), branch=br, severity=Severity.WARNING)
            if sheet.empty_rows[1]:
                first, n = sheet.empty_rows
                log.add("BAD_VALUE", f"{sheet.name} 第{first}行以下的 {n:,} 行空行设置了格式（多半是选中整行设了格式），"
                        f"文件因此很大；报名已照常读取。请点第{first}行的行号，按 Ctrl+Shift+↓ 选中以下所有的行，"
                        "右键“删除”，保存后再发送（以后改报名也请用删过的文件）。",
                        at=CellRef(file_label, sheet.name, f"A{first}"), branch=br, severity=Severity.WARNING)
            if table.after:
                # rows below a gap of BLANK_RUN blank rows are not read: people typed there
                # were dropped without a word (the result sheets said so; the form did not)
                later = sheet.rows[table.after - 1:]
                name_col = table.columns.get("姓名")
                people = sum(1 for r in later if name_col and len(r) >= name_col and not is_blank(r[name_col - 1]))
                what = f"其中“姓名”一列有 {people} 个名字，这些报名未登记。" if people else ""
                log.add("BAD_VALUE", f"{sheet.name} 表格在 {BLANK_RUN} 多行空行后结束，第 {table.after} 行及以后的内容"
                        f"没有读取；{what}请删除中间的空行，把报名填在表格里连续的行中后重新发送。",
                        at=CellRef(file_label, sheet.name, f"A{table.after}"), branch=br,
                        severity=Severity.ERROR if people else Severity.WARNING)
            if sheet.far_right:
                log.add("BAD_VALUE", f"{sheet.name}!{sheet.far_right} 有一个远离表格的值（在第 {MAX_COLS} 列之后），未读取。"
                        "如果是误输入，请删除这个单元格；报名请填在表格里。",
                        at=CellRef(file_label, sheet.name, sheet.far_right), branch=br, severity=Severity.WARNING)
            lenient = _issued_without_pickup(meta, spec, table, sheet.rows[:table.header_row - 1])
            other = _other_unit_named(spec, unit, sheet.rows[:table.header_row - 1]) if usable and unit else None
            if other is not None:
                # another unit's people typed on this unit's form, its header line changed to
                # that unit: taken as this unit's, the form replaced its accepted registration
                o, written, cell = other
                word = spec.unit_word
                shown = typed(written, spec) if written == o.name else f"{typed(written, spec)}”（{o.name}）“"
                usable, foreign = False, True
                log.add("WRONG_BRANCH", f"“{file_label}”是组委会下发给{unit.name}的报名表（表中隐藏的校验信息如此），"
                        f"{sheet.name}!{cell} 却写着“{word}：{shown}”：本表未受理，{unit.name}已有的报名不受影响。"
                        f"如果这是{o.name}的报名，请使用组委会下发给{o.name}的报名表填写后重新发送；如果确是"
                        f"{unit.name}的报名，请把{cell}改回“{word}：{unit.name}”后重新发送。",
                        at=CellRef(file_label, sheet.name, cell), branch=br)
            if lenient:
                log.add("HEADER_CHANGED", f"{sheet.name} 是增设班车之前下发的报名表（下发时还没有设乘车地点）："
                        "本表各人的乘车地点未登记，报名已按其余各列受理。请用新下发的报名表重新提交，以便登记乘车地点。",
                        at=CellRef(file_label, sheet.name, table.cell(table.header_row, "乘车地点") or f"A{table.header_row}"),
                        branch=br, severity=Severity.WARNING)
            if sheet.truncated:
                last = table.rows[-1][0] if table.rows else table.header_row
                log.add("BAD_VALUE", f"{sheet.name} 第 {last} 行之后还有大量数据（超过 {MAX_ROWS} 行），未读取。"
                        f"请删除多余的行后再提交。", at=CellRef(file_label, sheet.name, f"A{last}"), branch=br)
            ids = [table.columns[c] for c in _ID_COLUMNS if c in table.columns] if sheet.shown else []
            letters = {l: col_letter(table.columns[l]) for l in L.REG_COLUMNS if l in table.columns}
            # a form converted to 繁體 as a whole (WPS 简转繁: its header read through the
            # Simplified) in a Simplified league: its names are read back in the league's
            # script — kept as 呂寧桂, the person was printed so and was another than the
            # 吕宁桂 of the unit's earlier form.  Never on a league printed in Traditional
            converted: list[tuple[str, str, str]] | None = (
                [] if table.traditional and getattr(spec, "script", "simplified") == "simplified" else None)
            for row_no, values in table.rows:
                if ids:
                    values = _as_shown(values, row_no, ids, sheet.shown)
                rr = _read_row(row_no, values, table, spec, file_label, sheet.name, br, log, lenient, letters,
                               tournament.cancelled_events, cancelled, converted, substitutes, held)
                if rr is not None:
                    reg_rows.append(rr)
                    if row_no in sheet.hidden_rows:
                        # "removed" by hiding the row: it still counts (and the captain, who
                        # cannot see it, was told of people the form did not show)
                        log.add("BAD_VALUE", f"{sheet.name} 第 {row_no} 行被隐藏了，但其中的报名（{rr.display_name or rr.name or '本行'}）"
                                "仍然有效。如果不报这一项，请删除这一行（不要隐藏）；如果要报，请取消隐藏核对。",
                                at=CellRef(file_label, sheet.name, f"A{row_no}"), branch=br, severity=Severity.WARNING)
            if converted:
                shown = "、".join(f"{cell} “{typed}”→“{name}”" for cell, typed, name in converted[:10])
                more = f"等 {len(converted)} 人" if len(converted) > 10 else ""
                log.add("NAME_CONVERTED", f"工作表“{sheet.name}”整张被转换成了繁体（表头是“項目”“姓名”等，多半是用了 WPS 的"
                        f"“简转繁”），本次比赛用简体：姓名已按简体录入：{shown}{more}。报名已受理，无需修改；"
                        "如果有人的姓名本来就是繁体写法，请告知组委会。",
                        at=CellRef(file_label, sheet.name, converted[0][0]), branch=br, severity=Severity.INFO)
    if sheet is not None and usable:
        for other, n in _copied_forms(book, sheet):
            if sheet.hidden and not book.sheets[other].hidden:
                # the captain hid the form and filled a copy: what they see is not what would be
                # read, so the file is not taken (the form received before it stands)
                file_issue("TEMPLATE_MISMATCH", f"工作表“{sheet.name}”被隐藏了，报名填在了看得见的工作表“{other}”"
                           f"（{n} 人）。系统只读取“{L.REG_SHEET}”工作表，本文件未受理：请取消隐藏“{L.REG_SHEET}”"
                           f"（右键工作表标签 → 取消隐藏），把报名移到其中，删除多余的工作表后重新发送。")
            elif not reg_rows and not cancelled:    # the form moved to a copy: this file must not replace the last one
                file_issue("TEMPLATE_MISMATCH", f"“{sheet.name}”工作表里没有报名，报名填在了工作表“{other}”（{n} 人）。"
                           f"系统只读取“{L.REG_SHEET}”工作表：请把报名移到“{L.REG_SHEET}”中，删除多余的工作表后重新发送。")
            else:
                log.add("BAD_VALUE", f"本文件的工作表“{other}”也有 {n} 人的报名，未读取，只以“{sheet.name}”为准。"
                        f"如果“{other}”才是要提交的内容，请把它移到“{L.REG_SHEET}”中，删除多余的工作表后重新发送。",
                        at=CellRef(file_label, other, ""), branch=br, severity=Severity.WARNING)
    reg = Registration(file=file_label, branch=br, sheet=sheet.name if sheet else L.REG_SHEET,
                       rows=tuple(reg_rows), received=received, meta=meta, usable=usable, source=source,
                       saved=book.saved, foreign=foreign, cancelled=tuple(cancelled),
                       substitutes=tuple(held), substitutes_heading=substitutes[0] if held and substitutes else "")
    return reg, [replace(i, source=source) for i in log] if source else list(log)


def _other_unit_named(spec: Any, unit: Any, above: Sequence[Sequence[Any]]) -> tuple[Any, str, str] | None:
    """(the other unit, the name as written, the cell's A1) when the form's header line (``分工会：…``, above
    the table) names another unit of the tournament than ``unit`` (the one its _meta proves) —
    by its name, short name or a former name; None when it names this unit, or none."""
    from functools import lru_cache

    from ..text import to_simplified

    @lru_cache(maxsize=None)
    def key(text: str) -> str:
        return strip_spaces(to_simplified(str(text)))

    names = [n for n in (unit.name, unit.short, *unit.former_names) if n]
    # the header as the form was made (分工会：第1分工会) is this unit's without converting
    # anything: OpenCC's import and dictionaries are a few hundredths of a night's second
    as_made = {strip_spaces(n) for n in names}
    for r, row in enumerate(above, 1):
        for c, v in enumerate(row, 1):
            if not isinstance(v, str):
                continue
            text = unicodedata.normalize("NFKC", v)
            m = re.match(r"\s*(\S+?)\s*:\s*(\S+)", text)
            if m is None:
                continue
            named = m.group(2).split("队长")[0] if "队长" in m.group(2) else m.group(2)
            if strip_spaces(m.group(1)) == strip_spaces(spec.unit_word) and strip_spaces(named) in as_made:
                return None
            if key(m.group(1)) != key(spec.unit_word):
                continue
            k = key(named)
            mine = {key(n) for n in names}
            if not k or k in mine:
                return None
            for u in spec.units:
                if u.id != unit.id and k in {key(n) for n in (u.name, u.short, *u.former_names) if n}:
                    return u, named.strip(), f"{col_letter(c)}{r}"
            return None
    return None


#: columns of numbers read as Excel shows them (:attr:`Sheet.shown`): a phone number typed
#: into a cell formatted 000000000000.  Not 工号: an entry's id is made from it, and a league
#: upgraded in mid-season split one person into two entries, the published draw's and a new
#: one; a 工号 is one person with or without its leading zeros anyway (``checks.staff_key``)
_ID_COLUMNS = ("联系电话",)


def _as_shown(values: Sequence[Any], row_no: int, cols: Sequence[int], shown: Mapping[tuple[int, int], str]) -> list[Any]:
    """``values`` of sheet row ``row_no`` with each number in the columns ``cols`` as Excel shows
    it: 51265432100 typed into a 联系电话 cell formatted ``000000000000`` is 051265432100."""
    out = list(values)
    for c in cols:
        text = shown.get((row_no, c))
        if text is not None and c <= len(out) and isinstance(out[c - 1], (int, float)) and not isinstance(out[c - 1], bool):
            out[c - 1] = text
    return out


def _copied_forms(book: Book, form: Any) -> list[tuple[str, int]]:
    """Other sheets holding a filled registration table — a captain's copy of 报名表
    (``报名表 (2)``), which we never read: (sheet name, people in it)."""
    out = []
    for name, other in book.sheets.items():
        if other is form or name in (L.META_SHEET, L.INSTRUCTIONS_SHEET) or not other.rows:
            continue
        try:
            table = find_table(other.rows, list(L.REG_REQUIRED), L.REG_COLUMNS)
        except TableNotFound:
            continue
        n = sum(1 for _, values in table.rows if not is_blank(table.get(values, "姓名")))
        if n:
            out.append((name, n))
    return out


def _issued_without_pickup(meta: dict, spec: Any, table: Table, above: Sequence[Sequence[Any]] = ()) -> bool:
    """Whether a form with a 乘车地点 column was issued before the tournament had pick-up
    points (R2016-Q2 added to tournament.yaml after the forms went out): its ``_meta`` says
    so, or — a form from before ``_meta`` recorded them — no row has a 乘车地点 and its
    header block (``above`` the table) has no line of choices (``乘车地点：…``: a form issued
    with bus stops, its column left blank, is the captain's omission, said per row).  Its rows
    are taken with the 乘车地点 unregistered (one warning for the file), as a form without
    the column is: the office adding bus stops must not turn every received form's rows
    into errors (every entry of a running league was dropped)."""
    if not spec.pickup_points or "乘车地点" not in table.columns:
        return False
    issued = meta.get(L.META_PICKUP)
    if issued is not None:
        return not issued.strip()
    # (strip_spaces applies NFKC: the full-width ： becomes :)
    if any(isinstance(v, str) and strip_spaces(v).startswith(("乘车地点:", "乘車地點:")) for row in above for v in row):
        return False
    named = [values for _, values in table.rows if not is_blank(table.get(values, "姓名"))]
    return bool(named) and all(is_blank(table.get(values, "乘车地点")) for values in named)


#: columns an entry is not made from: an error value in one is a warning, not a refused row
#: (备注's cross-unit note, when it is one, is then missing, and the checks say so; 联系电话 is
#: contact data, kept with the entry but no condition of it — see :func:`_read_phone`; a
#: wrong 工号 or 性别 is a warning and the row stands, as the handbook says — 工号 read as not
#: filled in — so an error value there is one too: a VLOOKUP that found nothing (#N/A) refused
#: the person, and, filled down the column, made every empty row below three errors)
_UNUSED_FOR_ENTRY = ("序号", "备注", "联系电话", "工号", "性别")
#: text columns whose one leading ASCII apostrophe is dropped (工号 drops it itself, :func:`_read_staff`)
_APOSTROPHE_COLUMNS = ("项目", "队号", "姓名", "性别", "乘车地点")


def substitutes_heading_note(sheet: str, cell: str, shown: str, drawn_kept: bool = False,
                             script: str = "simplified") -> str:
    """The note at a 替补名单 heading (:func:`_read_row`): no entry, nor anyone under it — save,
    with ``drawn_kept``, the people already in a published round (:func:`pipeline.run.substitutes_drawn`)."""
    under = ("写在它下面的人没有录入，已在公布的对阵中的除外" if drawn_kept else "写在它下面的人也都没有录入")
    return f"{sheet}!{cell} “{verbatim(shown, script)}”是替补名单的标题，不是报名，这一行没有录入。本比赛不设替补，{under}（各行另有说明）。"


def substitute_drawn_note(sheet: str, row: RegRow, heading: str, drawn_in: str, script: str = "simplified") -> str:
    """The note at the 姓名 cell of a line under a 替补名单 heading whose person is in a
    published round (``drawn_in``: 斗地主第1轮): a version before the heading was known entered
    and drew the line, and the person stays entered (:func:`pipeline.run.substitutes_drawn`)."""
    cell = row.cells.get("姓名", "")
    return (f"{sheet}!{cell} “{verbatim(row.display_name or row.name, script)}”写在“{verbatim(heading, script)}”之下，按说是替补人员、不录入（本比赛不设替补）；"
            f"但{drawn_in}已抽签公布，他/她在已公布的对阵中（此前版本的程序录入了这一行），所以仍保留报名，对阵和成绩不变，"
            "无需修改。如果他/她其实只是替补、不参加比赛，请联系组委会。")


def _read_row(row_no: int, values: Sequence[Any], table: Table, spec: Any, file: str, sheet: str,
              branch: str, log: IssueLog, lenient_pickup: bool = False,
              letters: Mapping[str, str] | None = None,
              cancelled_events: Mapping[str, Sequence[str]] | None = None,
              cancelled: list[int] | None = None,
              converted: list[tuple[str, str, str]] | None = None,
              substitutes: list[str] | None = None, held: list[RegRow] | None = None) -> RegRow | None:
    """One row of the table (None when blank); ``letters``: the table's columns by label, as
    :attr:`RegRow.columns` (made here when not given).  A line for an event since cancelled
    (``cancelled_events``: :attr:`pipeline.spec.Tournament.cancelled_events`) is None too,
    with a note (EVENT_CANCELLED), its row number added to ``cancelled``.  So is a line that
    is no entry — a 填表人/合计/签字 line under the table, the header row repeated (one note,
    :func:`_not_an_entry`).  ``converted`` (a list) when the form was converted to 繁體 in a
    Simplified league: the name is read in Simplified (:func:`pipeline.text.name_to_simplified`),
    (cell, as typed, as read) added to it when that changed it.  ``substitutes`` (a list, the
    table's rows read in order): a 替补名单 heading line (:func:`_substitutes_heading`) is no
    entry, one note, its text added to it; then every later line is no entry either — the
    league has no substitutes (handbook: 比赛不设替补) — one warning at its 姓名 cell, save a
    sign-off line under them (its note, as above).  ``held`` (a list): such a line, read as an
    entry would be and without a problem of its own, is added to it — a version before the
    heading was known entered and drew it (:attr:`Registration.substitutes`)."""
    if letters is None:
        letters = {l: col_letter(table.columns[l]) for l in L.REG_COLUMNS if l in table.columns}
    labels = list(letters)
    raw = {l: table.get(values, l) for l in labels}
    # 序号 numbered by a formula (=A13+1) broken by a deleted row, a lookup in 备注 that found
    # nothing: the entry is not made from them — blank, with a warning on a row with an entry
    # (a lookup filled down the column errs on every empty row too)
    for l in _APOSTROPHE_COLUMNS:
        v = raw.get(l)
        if isinstance(v, str) and v.lstrip().startswith("'"):
            # Excel's text prefix typed into a cell already formatted as text ('严艳英, '跳棋)
            # is a character of the value: it was part of the name, and no event
            raw[l] = v.lstrip()[1:]
    unused = {l: raw[l] for l in _UNUSED_FOR_ENTRY if isinstance(raw.get(l), CellError)}
    raw.update(dict.fromkeys(unused))
    # a 替补名单 heading, looked for before the blank line's test: it is often in 序号 (merged
    # across the line), which alone makes no line
    head = _substitutes_heading(raw) if substitutes is not None and not substitutes else None
    if head is None and all(is_blank(raw[l]) or (isinstance(raw[l], CellError) and l != "项目")
                            for l in labels if l != "序号"):
        # nothing typed but formula errors — 姓名 looked up from 工号 (=VLOOKUP) and copied down
        # the table past the people holds #N/A alone: an unused row (handbook, BAD_VALUE), not
        # two errors (项目未填写, “姓名”是公式错误) on every row below them.  Not an error in 项目:
        # it is no looked-up column — 项目 and 姓名 filled from a 名单 sheet since deleted (#REF!
        # on every row of people) are the form's content, each BAD_VALUE, not an empty form
        return None
    cells = {l: f"{letters[l]}{row_no}" for l in labels}
    if head is not None:
        label, shown = head
        substitutes.append(shown)
        log.add("BAD_VALUE", substitutes_heading_note(sheet, cells[label], shown, script=_script(spec)),
                at=CellRef(file, sheet, cells[label]), branch=branch, severity=Severity.INFO)
        return None
    if substitutes and _not_an_entry(values, raw, table, spec) is None:
        # a person (or part of one) written under the heading: not entered, the captain told
        # where, and how to enter them if they are meant to play
        name = raw.get("姓名")
        named = " ".join(cell_text(name).split()) if not is_blank(name) and not isinstance(name, CellError) else ""
        if named:
            who = f"“{typed(named[:40], spec)}”"
        else:
            line = "、".join(typed(" ".join(cell_text(raw[l]).split())[:20], spec) for l in labels
                            if l != "序号" and not is_blank(raw[l]) and not isinstance(raw[l], CellError))
            who = f"这一行（{line}）" if line else "这一行"
        log.add("BAD_VALUE", f"{sheet}!{cells['姓名']} {who}写在“{typed(substitutes[0], spec)}”之下：本比赛不设替补，替补人员没有录入。"
                "如果他/她是要报名的队员，请把这一行移到替补名单标题之上（或删去标题）后重新发送。",
                at=CellRef(file, sheet, cells["姓名"]), branch=branch, severity=Severity.WARNING)
        if held is not None and named:
            # read as the line of an entry, its own problems aside (none is said: it is not
            # entered) — one without any may be a person drawn by an older version
            scratch = IssueLog()
            rr = _read_row(row_no, values, table, spec, file, sheet, branch, scratch, lenient_pickup, letters,
                           cancelled_events, None, [] if converted is not None else None)
            if rr is not None and rr.ok and rr.event and not scratch.has_errors():
                held.append(rr)
        return None
    if "备注" in raw and all(is_blank(raw[l]) for l in labels if l not in ("序号", "备注")):
        # a note typed under the table (以上名单已经分工会主席审核): no entry, not two errors
        # (项目未填写, 姓名未填写) that set the unit's status to 需修改 — one warning
        log.add("BAD_VALUE", f"{sheet}!{cells['备注']} 这一行只填了备注“{typed(cell_text(raw['备注']), spec)}”，不是报名，已忽略；"
                "如果是要报名的人，请填写项目和姓名。", at=CellRef(file, sheet, cells["备注"]), branch=branch,
                severity=Severity.WARNING)
        return None
    why = _not_an_entry(values, raw, table, spec)
    if why is not None:
        col, what = why
        cell = f"{col_letter(col)}{row_no}"
        log.add("BAD_VALUE", f"{sheet}!{cell} {what}，不是报名，这一行没有录入（无需修改）。"
                "如果这一行是要报名的人，请填写项目和姓名。", at=CellRef(file, sheet, cell), branch=branch,
                severity=Severity.INFO)
        return None
    gone = _cancelled_event(raw.get("项目"), spec, cancelled_events) if cancelled_events else None
    if gone is not None:
        # the event was this tournament's when the form was issued (and filled in time), and
        # the office has cancelled it since (TOO_FEW_ENTRIES advises so): the line is no entry
        # and no mistake — UNKNOWN_EVENT (请从下拉列表中选择) was an error no captain could
        # fix after the deadline, every night after.  Nothing else of the line matters now
        log.add("EVENT_CANCELLED", f"{sheet}!{cells['项目']} “{gone}”项目已取消（组委会已从本次比赛中删去这个项目），"
                "这一行不再录入；这不是填写错误，无需修改或重新发送。",
                at=CellRef(file, sheet, cells["项目"]), branch=branch, severity=Severity.INFO)
        if cancelled is not None:
            cancelled.append(row_no)
        return None
    bad = False

    def warn(label: str, msg: str) -> None:
        """A warning at ``label``'s cell: the row stands."""
        cell = cells.get(label, "")
        log.add("BAD_VALUE", f"{sheet}!{cell} {msg}" if cell else msg, at=CellRef(file, sheet, cell), branch=branch,
                severity=Severity.WARNING)

    for l, v in unused.items():
        warn(l, f"“{l}”{v.advice()}（{'已按未填写处理，本行已受理' if l in ('工号', '性别') else '这一列不影响报名，已按空白处理'}。）")

    def add(code: str, label: str, msg: str) -> None:
        nonlocal bad
        bad = True
        cell = cells.get(label, "")
        where = f"{sheet}!{cell}" if cell else sheet
        log.add(code, f"{where} {msg}", at=CellRef(file, sheet, cell), branch=branch)

    def err_cell(label: str) -> bool:
        v = raw.get(label)
        if isinstance(v, CellError):
            add("BAD_VALUE", label, f"“{label}”{v.advice()}")
            return True
        return False

    for l in labels:
        err_cell(l)

    # 姓名
    name_raw = raw.get("姓名")
    name = display = ""
    if isinstance(name_raw, CellError):
        pass
    elif is_blank(name_raw):
        add("MISSING_VALUE", "姓名", "姓名未填写，请填写参赛者姓名（或删除这一行）。")
    elif not isinstance(name_raw, str):
        add("BAD_VALUE", "姓名", f"\"{typed(cell_text(name_raw), spec)}\" 不是姓名（单元格是数字或日期），请填写参赛者姓名。")
    else:
        if converted is not None:
            from ..text import name_to_simplified

            as_typed = name_raw
            name_raw = name_to_simplified(name_raw)
            if name_raw != as_typed:
                converted.append((cells["姓名"], " ".join(as_typed.split()), " ".join(name_raw.split())))
        display = " ".join(unicodedata.normalize("NFKC", name_raw).translate(_INVISIBLE).split())
        display = _close_cjk_gaps(display)      # "王  军" → "王军"; "John Smith" keeps its space
        name = strip_spaces(name_raw)
        if not name:
            add("MISSING_VALUE", "姓名", "姓名未填写，请填写参赛者姓名（或删除这一行）。")
        elif _two_names(unicodedata.normalize("NFKC", name_raw).strip()):
            shown = typed(" ".join(name_raw.split()), spec)
            add("BAD_VALUE", "姓名", f"\"{shown}\" 像是两个人的姓名：一个格子只填一个人，同队的另一位请填在下一行"
                "（填相同的队号）。")
        elif _spaced_names(name_raw.translate(_INVISIBLE)):
            shown = typed(" ".join(name_raw.split()), spec)
            warn("姓名", f"\"{shown}\" 像是两个人的姓名：一个格子只填一个人，另一位请填在下一行（双人项目填相同的"
                 "队号）；如果是一个人的名字，请删去空格（少数民族姓名可用“·”连接）。本行暂按一人受理。")
        elif _NAME_NOTE.search(name):
            # 吕宁桂（队长）: printed so on draws and certificates
            add("BAD_VALUE", "姓名", f"\"{typed(name_raw.strip(), spec)}\" 的括号里像是备注：“姓名”一栏只填姓名，说明请写在“备注”一栏。")
        elif _NAME_BAD.search(name) or len(name) > 30 or not any(unicodedata.category(c).startswith("L") for c in name):
            # (a name has a letter: "?" and "—" were taken as people)
            add("BAD_VALUE", "姓名", f"\"{typed(name_raw.strip(), spec)}\" 不像姓名，请只填写参赛者姓名。")

    # 项目
    ev_raw = raw.get("项目")
    event_id = ""
    ev = None
    if isinstance(ev_raw, CellError):
        pass
    elif is_blank(ev_raw):
        add("MISSING_VALUE", "项目", "项目未填写，请从下拉列表中选择：" + "、".join(e.name for e in spec.events))
    else:
        text = unicodedata.normalize("NFKC", cell_text(ev_raw))
        ev = spec.event(strip_spaces(text))
        if ev is None:
            add("UNKNOWN_EVENT", "项目", f"\"{typed(cell_text(ev_raw), spec)}\" 不是本次比赛的项目，请从下拉列表中选择："
                + "、".join(e.name for e in spec.events))
        else:
            event_id = ev.id

    # 队号
    team_raw = raw.get("队号")
    # (a number typed with 队 — 1队, 第1队 — is that number: the partner who typed 1 is its team, R2020-Q3)
    team_no = "" if isinstance(team_raw, CellError) else L.team_number(strip_spaces(cell_text(team_raw)))
    if ev is not None and ev.is_team and not team_no and not isinstance(team_raw, CellError):
        add("MISSING_VALUE", "队号", f"“{ev.name}”是{ev.team_size}人一队的项目，请填写队号（同一队的队员填相同的队号，如 1）。")
    elif ev is not None and ev.is_team and isinstance(team_raw, (dt.date, dt.time, dt.timedelta, bool)):
        # a date pasted into 队号 (the team printed as 交通2020-01-01队): Excel took 1-1 for a date
        add("BAD_VALUE", "队号", f"\"{typed(team_no, spec)}\" 是日期或时间，不是队号：请填写队号（同一队的队员填相同的队号，如 1；"
            "Excel 把“1-1”之类改成了日期的，请把单元格设为文本后重填）。")
    if ev is not None and not ev.is_team:
        team_no = ""

    script = _script(spec)
    staff = _read_staff(raw.get("工号"), warn, script)
    gender = _read_gender(raw.get("性别"), warn, script)
    phone = _read_phone(raw.get("联系电话"), warn, script)
    # a form from before the pick-up points were added has no such column: nothing to check
    # (the file is told once, HEADER_CHANGED), the rows still taken
    pickup = ""
    if "乘车地点" in labels and not lenient_pickup:
        pickup = _read_pickup(raw.get("乘车地点"), spec, lambda code, label, msg: log.add(
            code, f"{sheet}!{cells[label]} {msg}", at=CellRef(file, sheet, cells[label]), branch=branch,
            severity=Severity.WARNING))
    elif "乘车地点" in labels and not is_blank(raw.get("乘车地点")) and not isinstance(raw.get("乘车地点"), CellError):
        # typed on a form issued without choices: kept when it names a pick-up point
        pickup = pickup_match(cell_text(raw.get("乘车地点")), spec.pickup_points) or ""
        if not pickup:
            log.add("BAD_VALUE", f"{sheet}!{cells['乘车地点']} \"{typed(cell_text(raw.get('乘车地点')), spec)}\" 不是现在设定的乘车地点"
                    f"（{'、'.join(spec.pickup_points)}），未登记；报名已受理。",
                    at=CellRef(file, sheet, cells["乘车地点"]), branch=branch, severity=Severity.WARNING)
    note = "" if isinstance(raw.get("备注"), CellError) else cell_text(raw.get("备注"))
    return RegRow(row=row_no, columns=letters, event=event_id, team_no=team_no, name=name,
                  display_name=display or name, staff_id=staff, gender=gender, phone=phone,
                  pickup=pickup, note=note, ok=not bad)


#: the label of a line written under a form's table — who filled it in, the total, the
#: signature and seal, the date (NFKC, spaces removed; either script)
_FOOTER_WORD = ("(?:填表人?|填报人|填報人|制表人?|製表人?|经办人|經辦人|联系人|聯繫人|聯系人|负责人|負責人|联系电话|聯繫電話|"
                "电话|電話|合计|合計|总计|總計|小计|小計|共计|共計|审核人?|審核人?|审批|審批|签字|簽字|签名|簽名|签章|簽章|"
                "盖章|蓋章|日期)")
#: a cell that is such a line: the label and its colon near the start (填表人：庞雪平, 分工会主席
#: 签字：), the label alone (合计, （盖章）), or a note on the list (以上名单已经分工会主席审核)
_FOOTER_CELL = re.compile(rf"^.{{0,12}}?{_FOOTER_WORD}:|^[(\[]?{_FOOTER_WORD}[)\]]?$|^以上")
#: a 姓名 cell that is itself such a label: it starts with it (联系人：张三, 合计1人, （盖章）,
#: 分工会主席签字：, 以上名单……) — a name with a note (李四（电话：138…）, 李四 联系人) is a person
_FOOTER_NAME = re.compile(rf"^[(\[]?(?:分?工会|单位|部门)?(?:主席|领导)?{_FOOTER_WORD}|^以上")


def _not_an_entry(values: Sequence[Any], raw: Mapping[str, Any], table: Table, spec: Any) -> tuple[int, str] | None:
    """Why a non-blank line of the table is no entry — (its column, what it is) — or None.

    A line under the table saying who filled it in, the total, the signature or seal, the
    date (填表人：庞雪平, 合计：10人, 分工会主席签字：, its label in any cell, merged across or
    not), or what the list is (以上名单已经分工会主席审核, typed under 姓名), naming no event
    and no person (合计 with the count under 姓名 names none); or the header row repeated (a second list pasted with its header).  Each was read as an entry,
    two errors or more (“填表人：庞雪平”不是本次比赛的项目, 姓名未填写): the unit 需修改, and after
    the deadline told its form was not entered though every person was.  A line naming an
    event of the tournament and a person is an entry, whatever its other cells say."""
    def text(v: Any) -> str:
        return strip_spaces(v) if isinstance(v, str) else ""

    # the header repeated: 项目 and 姓名 each its column's label (項目 on a form in 繁體)
    def is_label(v: Any, label: str) -> bool:
        t = norm_label(v)
        if not t:
            return False
        if t == label or _label_base(t) == label:
            return True
        if table.traditional and not t.isascii():
            from ..text import to_simplified

            return to_simplified(_label_base(t)) == label
        return False

    if all(is_label(raw.get(l), l) for l in L.REG_REQUIRED):
        return table.columns["项目"], "这一行重复了表头（“项目”“姓名”……）"
    ev = raw.get("项目")
    if isinstance(ev, (str, int, float)) and not is_blank(ev) and spec.event(strip_spaces(
            unicodedata.normalize("NFKC", cell_text(ev)))) is not None:
        return None
    # the name cell names a person unless it is itself the label: 李四（电话：13800000001）
    # with the event mistyped (像棋) or blank was dropped as a sign-off line (无需修改) — a
    # person not entered, and nobody told to fix the line
    name = raw.get("姓名")
    label_name = isinstance(name, str) and bool(_FOOTER_NAME.search(text(name)))
    if isinstance(name, str) and strip_spaces(name) and not label_name:
        return None
    for c, v in enumerate(values, 1):
        t = text(v)
        if t and (_FOOTER_CELL.search(t) or (label_name and c == table.columns.get("姓名"))):
            return c, f"“{typed(' '.join(v.split())[:40], spec)}”是填表人、合计、签字、日期或“以上名单……”之类的落款"
    return None


#: a 替补名单 heading (NFKC, spaces removed, in Simplified): 替补名单, 替补：, 替补队员, 候补队员,
#: 预备队员, 以下为替补队员：, 【替补名单】 — 替补/候补 alone or with what follows it
_SUBSTITUTES_HEADING = re.compile(r"^[(\[【〔]?(?:以下(?:为|是)?)?(?:(?:替补|候补)(?:队员|人员|选手|运动员|棋手)?"
                                  r"|(?:预备|后备)(?:队员|人员|选手|运动员|棋手))(?:名单)?(?:如下)?[)\]】〕]?:?$")


#: a character every such heading holds, in either script
_SUBSTITUTES_CHARS = frozenset("补補备備")


def _substitutes_heading(raw: Mapping[str, Any]) -> tuple[str, str] | None:
    """(its column's label, the heading as typed, no colon) when this line is a heading over
    a substitutes list (替补名单, 替補名單, 替补：, 候补队员, 预备队员, spaced or full-width),
    else None.  The heading must be the line's only content, 序号 and 备注 aside, in any
    column but 备注 (a line merged across holds it in its first cell): a line naming an event
    or a person — 补某 whose 备注 says 替补, 替补 under 项目 beside a name — is no heading,
    nor is 替补名单 in 备注 alone (that line's note).

    >>> _substitutes_heading({"序号": "替補名單：", "项目": None, "姓名": None, "备注": None})
    ('序号', '替補名單')
    >>> _substitutes_heading({"序号": None, "项目": "替补", "姓名": "张三", "备注": None}) is None
    True
    """
    from ..text import to_simplified

    found = None
    for label, v in raw.items():
        if label == "备注" or not isinstance(v, str) or is_blank(v):
            continue
        # (the characters first: converting every cell of every line costs ~6 µs a cell)
        if found is not None or not _SUBSTITUTES_CHARS.intersection(v) \
                or not _SUBSTITUTES_HEADING.match(to_simplified(strip_spaces(v))):
            continue
        found = (label, " ".join(v.split()).rstrip(":：").strip())
    if found is None or any(not is_blank(v) for l, v in raw.items() if l not in ("序号", "备注", found[0])):
        return None
    return found


def _cancelled_event(v: Any, spec: Any, cancelled_events: Mapping[str, Sequence[str]]) -> str | None:
    """The name of the cancelled event a 项目 cell names — by any name it had or its id,
    spaces, width and script aside (as :meth:`pipeline.spec.TournamentSpec.event` finds an
    event) —; None when the cell names none, or names an event the tournament has now.

    >>> class S:
    ...     def event(self, key): return None
    >>> _cancelled_event(" 橋 牌", S(), {"bridge": ("桥牌",)}), _cancelled_event("bridge", S(), {"bridge": ("桥牌",)})
    ('桥牌', '桥牌')
    >>> _cancelled_event("象棋2", S(), {"bridge": ("桥牌",)}) is None
    True
    """
    from ..spec import name_key
    from ..text import to_simplified

    if isinstance(v, CellError) or is_blank(v):
        return None
    text = unicodedata.normalize("NFKC", cell_text(v))
    if spec.event(strip_spaces(text)) is not None:
        return None
    k = to_simplified(name_key(text))
    for ev_id, names in cancelled_events.items():
        if k in {to_simplified(name_key(n)) for n in (ev_id, *names) if n}:
            return names[-1] if names else ev_id
    return None


def _digits_text(v: Any) -> str | None:
    """Text of a number-ish cell; None when it is a date/bool/fraction (not an id)."""
    if isinstance(v, (dt.date, dt.time, dt.timedelta, bool)):
        return None
    if isinstance(v, float) and not v.is_integer():
        return None
    return strip_spaces(cell_text(v))


#: what captains write in the optional 工号 column for "none" (NFKC, spaces removed, upper case)
_NO_STAFF_WORDS = frozenset({"无", "没有", "暂无", "不详", "未知", "空", "無", "暫無", "不詳", "NA", "N/A", "NONE", "NULL"})


def _no_staff_number(text: str) -> bool:
    """Whether a 工号 cell says "none" rather than a number: a word for it (无, 不详 …) or a
    placeholder with no letter and no digit but 0 (``-``, ``/``, ``0``, ``000000``) — read as
    a number, two captains' ``-`` made three people one (DUPLICATE_PERSON), their rows refused.

    >>> [_no_staff_number(t) for t in ("-", "／", "000000", "0", "无", "n/a", "001205", "A0", "10")]
    [True, True, True, True, True, True, False, False, False]
    """
    t = unicodedata.normalize("NFKC", text).upper()
    return t in _NO_STAFF_WORDS or (bool(t) and re.search(r"[A-Z1-9]", t) is None and len(t) <= 20)


#: 工号 typed as Excel shows a long number (``1.23457E+17``): its digits are gone
_SCIENTIFIC = re.compile(r"\d(?:\.\d+)?E\+\d+", re.IGNORECASE)


def _read_staff(v: Any, warn: Any, script: str = "simplified") -> str:
    """工号 as typed (upper case); "" when blank — or when it says "none" (:func:`_no_staff_number`:
    a warning, the row stands without one, as the form allows).  In the form's Text cells a
    habitual leading apostrophe (``'001039``) is a character and ``1033.0`` stays text:
    both are read as the number meant.  A 工号 that is none (``NO.001069``, Excel's
    ``1.001056E+3``) is a warning and the row stands without it, as if left blank — the
    column is optional, and an error refused the player (and a pair's partner) for it."""
    if is_blank(v) or isinstance(v, CellError):
        return ""
    if _no_staff_number(strip_spaces(cell_text(v))) and not isinstance(v, bool):
        warn("工号", f"\"{verbatim(cell_text(v), script)}\" 不是工号，已按未填写处理（工号可以不填；知道工号时请填写）。")
        return ""
    text = _digits_text(v)
    if text is not None and isinstance(v, str):
        text = text.lstrip("'‘’`")
        text = re.sub(r"^(\d+)\.0+$", r"\1", text)
    if text is not None and isinstance(v, str) and _SCIENTIFIC.fullmatch(text):
        warn("工号", f"\"{verbatim(cell_text(v), script)}\" 是 Excel 显示成科学计数法的数字，工号的位数已经丢失，已按未填写处理："
             "请把“工号”一列的单元格设为“文本”格式后重新输入完整的工号。本行已受理。")
        return ""
    if text is None or not re.fullmatch(r"[A-Za-z0-9_-]{1,20}", text):
        warn("工号", f"\"{verbatim(cell_text(v), script)}\" 不是有效的工号（只能由数字或字母组成），已按未填写处理：本行已受理，"
             "请改正或删去工号。")
        return ""
    if isinstance(v, (int, float)) and not isinstance(v, bool) and len(text) > 15:
        # Excel keeps 15 significant digits of a number: an 18-digit number typed into a
        # number cell has lost its last digits (110105199001011234 → …1200), silently.  A
        # warning: the row stands (工号 is optional), under the number as read, as before
        warn("工号", f"\"{verbatim(text, script)}\" 是超过 15 位的数字，Excel 已把末尾几位变成了 0（工号按此登记）：请把“工号”一列的"
             "单元格设为“文本”格式后重新填写。")
    return text.upper()


#: how captains write 男/女 besides the dropdown's words (NFKC, spaces removed, upper case)
_GENDER_WORDS = {"男": "男", "女": "女", "男士": "男", "女士": "女", "先生": "男", "男生": "男", "女生": "女",
                 "M": "男", "F": "女", "MALE": "男", "FEMALE": "女", "男的": "男", "女的": "女"}


def _read_gender(v: Any, warn: Any, script: str = "simplified") -> str:
    """性别 as 男/女 ("" when blank).  No rule reads it (it is copied to ``entries.csv``), so a
    value that is neither is a warning and the row stands — an error refused the player, and
    a pair's partner with them, for a word like 男士."""
    if is_blank(v) or isinstance(v, CellError):
        return ""
    text = unicodedata.normalize("NFKC", strip_spaces(cell_text(v))).upper()
    gender = _GENDER_WORDS.get(text) or _GENDER_WORDS.get(text.removesuffix("性"))
    if gender is None:
        warn("性别", f"\"{verbatim(cell_text(v), script)}\" 不是有效的性别，请填写“男”或“女”。性别不影响报名：本行已受理，请改正。")
        return ""
    return gender


def _read_phone(v: Any, warn: Any, script: str = "simplified") -> str:
    """The phone number typed (digits only), or "" — with a warning (``warn(label, msg)``)
    when it is none: a number the office cannot call is contact data, not entry data (a
    blank one is no problem at all), so the row stands (a mistyped 联系电话 refused the
    player, for good once the deadline had passed)."""
    if is_blank(v) or isinstance(v, CellError):
        return ""
    text = _digits_text(v)
    digits = _PHONE_KEEP.sub("", text) if text is not None else ""
    if digits.startswith("+86"):
        digits = digits[3:]
    if text is None or not re.fullmatch(r"\d{5,15}", digits):
        warn("联系电话", f"\"{verbatim(cell_text(v), script)}\" 不是有效的电话号码，请填写手机号或座机号（只写数字）。"
             "联系电话不影响报名：本行已受理，请改正以便联系。")
        return ""
    return digits


def pickup_match(value: str, points: Sequence[str]) -> str | None:
    """The pick-up point a typed value names: exact, or one part of a point like "福建路、花园路".

    >>> pickup_match("花园路", ["福建路、花园路", "镇江"]), pickup_match("福建路, 花园路", ["福建路、花园路", "镇江"])
    ('福建路、花园路', '福建路、花园路')
    >>> pickup_match("花园路、福建路", ["福建路、花园路", "镇江"])        # its parts in another order
    '福建路、花园路'
    """
    v = strip_spaces(value)
    for p in points:
        if v == strip_spaces(p):
            return p
    typed = sorted(x for x in _PICKUP_SEP.split(v) if x)
    for p in points:
        parts = [strip_spaces(x) for x in _PICKUP_SEP.split(p)]
        if v in parts or typed == sorted(x for x in parts if x):     # "福建路,花园路" is 福建路、花园路
            return p
    return None


_PICKUP_SEP = re.compile(r"[、,，/／|;；]")


def _read_pickup(v: Any, spec: Any, warn: Any) -> str:
    """The pick-up point a row names (R2016-Q2), or "" — with a warning (``warn(code, label,
    msg)``) when it is blank or no pick-up point: the bus is the office's arrangement, no
    condition of entry (R2016-Q2 asks only for a manifest of riders), so the row stands and
    the person is listed on the bus manifest as 未填写 (to be confirmed).  A blank 乘车地点 was
    an error that refused the player — for good once the deadline had passed."""
    if isinstance(v, CellError):
        return ""
    points = list(spec.pickup_points)
    if not points:
        return cell_text(v)
    choices = "、".join(f"“{p}”" for p in points)      # (福建路、花园路 is one choice: each quoted)
    kept = "乘车地点不影响报名：本行已受理，班车名单上暂列为“未填写”（待确认），请补填以便安排班车。"
    if is_blank(v):
        warn("MISSING_VALUE", "乘车地点", f"乘车地点未填写，请从下拉列表中选择：{choices}。{kept}")
        return ""
    p = pickup_match(cell_text(v), points)
    if p is None:
        warn("BAD_VALUE", "乘车地点", f"\"{typed(cell_text(v), spec)}\" 不是乘车地点，请从下拉列表中选择：{choices}。{kept}")
        return ""
    return p


# -- result and organisers' sheets ---------------------------------------------------------------
RowRead = tuple[int, dict[str, Any], dict[str, CellRef]]


def read_sheet_rows(book: Book, sheet_name: str, labels: Sequence[str], required: Sequence[str] = (),
                    file_label: str = "", whole: bool = False) -> tuple[dict[str, str], list[RowRead]]:
    """Generic table reader: (meta, [(row_no, values by label, cells by label)]).

    Values are as read (text, int, date, None for blank, :class:`CellError` for an error or an
    uncached formula: ``str()`` of it names the error).  Raises :class:`TableNotFound` when the
    sheet or a required header is missing (``missing`` names the labels; sheet missing → all).
    """
    sheet = book.sheet(sheet_name)
    required = list(required) or [labels[0]]
    if sheet is None:
        raise TableNotFound(list(required), None, sheets=list(book.sheets))
    table = find_table(sheet.rows, required, labels, whole=whole)
    file_label = file_label or book.name
    out: list[RowRead] = []
    # per label, once: its column (0 when absent) and that column's letters
    cols = [(lab, table.columns.get(norm_label(lab)) or 0) for lab in labels]
    letters = {lab: col_letter(c) if c else "" for lab, c in cols}
    name = sheet.name
    for row_no, values in table.rows:
        n = len(values)
        vals = {lab: (values[c - 1] if 0 < c <= n else None) for lab, c in cols}
        if all(is_blank(v) for v in vals.values()):
            continue
        out.append((row_no, vals, RowCells(file_label, name, letters, row_no)))
    return dict(book.meta), out


class RowCells(Mapping):
    """The cells of one table row by label (``CellRef`` made when asked for: a result
    workbook has hundreds of thousands of cells, and only a problem cell is ever named)."""

    __slots__ = ("file", "sheet", "letters", "row")

    def __init__(self, file: str, sheet: str, letters: dict[str, str], row: int) -> None:
        self.file, self.sheet, self.letters, self.row = file, sheet, letters, row

    def __getitem__(self, label: str) -> CellRef:
        col = self.letters[label]
        return CellRef(self.file, self.sheet, f"{col}{self.row}" if col else "")

    def __iter__(self) -> Iterator[str]:
        return iter(self.letters)

    def __len__(self) -> int:
        return len(self.letters)

    def __repr__(self) -> str:
        return repr(dict(self))


def read_result_rows(book: Book, labels: Sequence[str], file_label: str = ""
                     ) -> tuple[dict[str, str], list[RowRead]]:
    """Rows of the 成绩 sheet (see :func:`read_sheet_rows`); the header row is found by 桌号."""
    req = [l for l in labels if l in L.RESULT_KEY_COLUMNS] or list(labels[:1])
    return read_sheet_rows(book, L.RESULT_SHEET, labels, req, file_label)


def read_awards_rows(book: Book, file_label: str = "") -> tuple[dict[str, str], list[RowRead]]:
    """Rows of the organisers' 评奖 sheet (R2015-A1 discretionary awards)."""
    return read_sheet_rows(book, L.AWARDS_SHEET, L.AWARDS_COLUMNS, ["奖项", "姓名"], file_label)


def read_checkin_rows(book: Book, file_label: str = "") -> tuple[dict[str, str], list[RowRead]]:
    """Rows of the 签到 sheet (R2016-F2 check-in)."""
    return read_sheet_rows(book, L.CHECKIN_SHEET, L.CHECKIN_COLUMNS, ["项目", "姓名", "到场"], file_label)


def read_playoff_rows(book: Book, file_label: str = "") -> tuple[dict[str, str], list[RowRead]]:
    """Rows of the 加赛 sheet (playoff order)."""
    return read_sheet_rows(book, L.PLAYOFF_SHEET, L.PLAYOFF_COLUMNS, ["项目", "名次", "参赛者"], file_label)
