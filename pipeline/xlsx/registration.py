"""The registration workbook issued to each branch (contract: "Registration workbook").

Sheet ``报名表``: a protected header block (tournament, branch, captain, each event's quota
for this branch and deadline, pick-up points), then one table (header labels from
:data:`pipeline.layout.REG_COLUMNS`) with one row per person, unlocked data rows,
dropdowns and input checks.  Sheet ``填表说明``: how to fill it.  Sheet ``_meta``
(very hidden, protected): kind, tournament id, branch id, template version, token.

Script: for ``script: traditional`` tournaments every title and instruction is converted
with OpenCC s2t, but what readers *match* stays as written in ``layout.py`` and the spec:
sheet names, table header labels, dropdown values (event names, 男/女, pick-up points).
So a workbook always reads back the same way, whatever the script.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from . import _no_numpy  # noqa: F401  (first: openpyxl without NumPy)
from openpyxl import Workbook
from openpyxl.workbook.protection import WorkbookProtection

from .. import layout
from .entrychecks import EntryChecks, entry_checks, team_no_limit  # noqa: F401  (team_no_limit: its home was here)
from ..spec import TEMPLATE_VERSION, EventSpec, UnitSpec
from ..text import contact_in_script
from .common import (BLOCK_FILL, BODY_FONT, CENTER, GRID, INPUT_FILL, LEFT, LOCKED_FILL,
                     META_HEADER_ROW, SUBTITLE_FONT, TITLE_FONT, add_length_validation,
                     add_list_validation, add_whole_validation, atomic_save, col_range,
                     header_row, print_setup, protect, put, safe_filename, set_widths, text_width, wrapped_lines,
                     write_meta, zh, zh_fmt)

if TYPE_CHECKING:
    from ..spec import Tournament, TournamentSpec

#: extra blank rows beyond the quota when every event has a limit
SPARE_ROWS = 10


# -- quotas ------------------------------------------------------------------------------------
def branch_quota(event: EventSpec, unit: UnitSpec) -> int | None:
    """Entries (players, pairs or teams) ``unit`` may field in ``event``; ``None`` = no limit.

    The header block must state exactly the limit the validator enforces, so this is
    :func:`pipeline.validate.quota_for` (R2020-Q1 fixed, R2015-Q3 bands, R2016-Q1 ratio,
    R2015-Q1/Q2 open).
    """
    from ..validate import quota_for   # the validator owns the rule; imported late (stage order)

    return quota_for(event, unit)


def quota_text(event: EventSpec, unit: UnitSpec, unit_word: str = "单位") -> str:
    """The quota sentence for one event and branch, e.g. ``限报 2 队（每队 2 人，共 4 人）``."""
    n = branch_quota(event, unit)
    k = event.team_size
    if n is None:
        text = "不限" + (f"（每队 {k} 人）" if k > 1 else "")
    elif n == 0:
        text = "本单位无名额"
    elif k > 1:
        text = f"限报 {n} 队（每队 {k} 人，共 {n * k} 人）"
    else:
        text = f"限报 {n} 人"
    q = event.quota
    if n and q.rule == "bands":
        text += f"，按本单位会员 {unit.members} 人计算"
    elif n and q.rule == "ratio":
        pct = Fraction(str(q.ratio)) * 100
        pct_s = str(pct.numerator) if pct.denominator == 1 else f"{float(pct):g}"
        text += f"，按本单位会员 {unit.members} 人的 {pct_s}% 计算"
    if n and q.rule != "open" and q.short_warning:
        text += "；可少报，不可多报"
    if event.cross_branch:
        text += f"；可跨{unit_word}组队（外{unit_word}队员在备注写“跨{unit_word}：其所在{unit_word}名称”）"
    return text


def team_no_error(limit: int | None, unit_word: str = "单位") -> str:
    """The stop message of the 队号 check, stating :func:`team_no_limit`'s bound."""
    if limit is None:
        return "队号请填正整数（1、2、3…），同一队的队员填相同的号"
    if limit == 1:
        return f"队号请填 1（本{unit_word}每个双人/团体项目最多报 1 队）"
    return f"队号请填 1 到 {limit} 之间的整数（本{unit_word}每个双人/团体项目最多报 {limit} 队）"


def deadline_text(event: EventSpec) -> str:
    """``2020年11月9日 15:00`` or ``见通知`` when the event has no deadline."""
    from ..timeutil import cn_datetime

    return cn_datetime(event.deadline) if event.deadline else "见通知"


def reg_columns(spec: "TournamentSpec") -> list[str]:
    """The table's columns: all of layout.REG_COLUMNS, the contract's header, whatever the
    tournament (a program reading the forms finds every label; 队号 stays blank without a
    pair/team event, 乘车地点 is free text without pick-up points)."""
    return list(layout.REG_COLUMNS)


def _planned_rows(spec: "TournamentSpec", unit: UnitSpec, rows: int) -> int:
    limits = [branch_quota(e, unit) for e in spec.events]
    if any(n is None for n in limits):
        return rows
    players = sum(n * e.team_size for n, e in zip(limits, spec.events))  # type: ignore[operator]
    return max(rows, players + SPARE_ROWS)


def _line_height(text: str, width_units: float) -> float:
    return 18 * wrapped_lines(text, width_units)


# -- the entry columns' checks ---------------------------------------------------------------------
def add_entry_validations(ws, checks: EntryChecks, at: dict[str, int], first: int, last: int,
                          only: "set[str] | None" = None) -> list[str]:
    """The form's dropdowns and input checks on rows ``first``…``last`` of the columns ``at``
    (label → 1-based column; ``only``: these labels).  Returns the labels given one."""
    script = checks.script
    done = []

    def want(label: str) -> bool:
        ok = label in at and (only is None or label in only)
        if ok:
            done.append(label)
        return ok

    if want("项目"):
        add_list_validation(ws, col_range(at["项目"], first, last), list(checks.events),
                            title="项目", prompt="从下拉列表选择参赛项目", script=script)
    if want("性别"):
        add_list_validation(ws, col_range(at["性别"], first, last), list(layout.GENDERS),
                            title="性别", prompt="选择 男 或 女", script=script)
    if checks.pickup_points and want("乘车地点"):
        add_list_validation(ws, col_range(at["乘车地点"], first, last), list(checks.pickup_points),
                            title="乘车地点", prompt="选择本人上车的地点", script=script)
    if checks.team_events and want("队号"):
        add_whole_validation(ws, col_range(at["队号"], first, last), 1, checks.team_max, title="队号",
                             prompt="双人/团体项目：同一队的队员填相同的队号（1、2、3…）；个人项目不填",
                             error=team_no_error(checks.team_max, checks.unit_word), script=script)
    if want("工号"):
        add_length_validation(ws, col_range(at["工号"], first, last), 1, 20, title="工号",
                              prompt="本人工号（用于核对身份）", error="工号应为 1 到 20 个字符", script=script)
    if want("联系电话"):
        add_length_validation(ws, col_range(at["联系电话"], first, last), 7, 20, title="联系电话",
                              prompt="手机或座机号码", error="联系电话应为 7 到 20 位", script=script)
    return done


def restore_entry_validations(ws, checks: EntryChecks, spare: int = 10) -> list[str]:
    """Put the form's dropdowns and input checks back on the entry columns of a captain's
    报名表 ``ws`` that lost them (a form re-saved by a program that drops data validation):
    the returned copy said "请从下拉列表中选择" of a cell with no list.  A column with any
    validation of its own is left as it is; values are not touched.  The rows: the table's,
    with ``spare`` more.  Returns the labels given one."""
    from ..ingest.workbook import TableNotFound, find_table

    rows = [[c.value for c in r] for r in ws.iter_rows(max_row=min(ws.max_row, 250), max_col=min(ws.max_column, 40))]
    try:
        table = find_table(rows, list(layout.REG_REQUIRED), layout.REG_COLUMNS)
    except TableNotFound:
        return []
    first = table.header_row + 1
    last = max(ws.max_row, first) + spare
    have: set[int] = set()
    for dv in ws.data_validations.dataValidation:
        for rng in dv.sqref.ranges:
            if rng.max_row >= first and rng.min_row <= last:
                have.update(range(rng.min_col, rng.max_col + 1))
    at = {l: table.columns[l] for l in layout.REG_COLUMNS if l in table.columns and table.columns[l] not in have}
    return add_entry_validations(ws, checks, at, first, last)


# -- the workbook -------------------------------------------------------------------------------
def build_registration_workbook(tournament: "Tournament", unit_id: str, rows: int = 60) -> Workbook:
    """The registration workbook for one branch, in memory (see module docstring)."""
    spec = tournament.spec
    unit = spec.unit(unit_id)
    if unit is None:
        raise KeyError(f"unknown unit {unit_id!r}")
    cols = reg_columns(spec)
    ncol = len(cols)
    wb = Workbook()
    ws = wb.active
    ws.title = layout.REG_SHEET
    ws.sheet_properties.tabColor = "1F4E78"

    widths = {"序号": 6, "项目": max(12.0, *(text_width(e.name) + 2 for e in spec.events)),
              "队号": 7, "姓名": 12, "工号": 14, "性别": 7, "联系电话": 16,
              "乘车地点": max([14.0] + [text_width(p) + 2 for p in spec.pickup_points]), "备注": 26}
    set_widths(ws, [widths.get(c, 12) for c in cols])
    total_width = sum(widths.get(c, 12) for c in cols)
    last = ncol

    def block_line(row: int, text: str, *, font=BODY_FONT, height: float | None = None, raw: bool = False) -> None:
        ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=last)
        put(ws, (row, 1), text if raw else zh(text, spec), font=font, fill=BLOCK_FILL, align=LEFT, locked=True)
        ws.row_dimensions[row].height = height or _line_height(text, total_width)

    # header block (locked: every cell is locked unless unlocked below)
    r = 1
    ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=last)
    put(ws, (r, 1), zh(f"{spec.name} 报名表", spec), font=TITLE_FONT, align=CENTER, locked=True)
    ws.row_dimensions[r].height = 30
    r += 1
    word = spec.unit_word or "单位"
    # the captain's name as the receipts print it: a name, converted as names are
    # (text.names_kept, convert_name) — it was left Simplified beside the converted unit
    captain = _captain_shown(unit.captain, spec) if unit.captain else zh("（未登记）", spec)
    block_line(r, f"{zh(word, spec)}：{zh(unit.name, spec)}    {zh('队长', spec)}：{captain}", font=SUBTITLE_FONT, raw=True)
    r += 1
    for ev in spec.events:
        text = f"{ev.name}：{zh(quota_text(ev, unit, word), spec)}；{zh('报名截止', spec)}：{zh(deadline_text(ev), spec)}"
        block_line(r, text, raw=True)
        r += 1
    if spec.pickup_points:
        block_line(r, zh_fmt("{col}：{points}（请每人填写，在表中下拉选择）", spec, col="乘车地点",
                             points="、".join(spec.pickup_points)), raw=True)
        r += 1
    pairs = zh_fmt("双人/团体项目同队队员填相同的“{team}”。", spec, team="队号") if any(e.is_team for e in spec.events) else ""
    block_line(r, zh("每行填一人；", spec) + pairs + zh_fmt("请勿修改灰色区域、表头和工作表名称。详见“{help}”。",
                                                          spec, help=layout.INSTRUCTIONS_SHEET), raw=True)
    r += 1
    hdr = r + 1
    ws.row_dimensions[r].height = 8

    # the table
    header_row(ws, hdr, cols)
    n_rows = _planned_rows(spec, unit, rows)
    first, last_row = hdr + 1, hdr + n_rows
    text_cols = {"姓名", "工号", "联系电话", "备注"}
    for i in range(n_rows):
        row = first + i
        for c, label in enumerate(cols, start=1):
            if label == "序号":
                put(ws, (row, c), i + 1, font=BODY_FONT, fill=LOCKED_FILL, align=CENTER, border=GRID, locked=True)
            else:
                put(ws, (row, c), None, font=BODY_FONT, fill=INPUT_FILL, border=GRID, locked=False,
                    align=LEFT if label in ("备注", "姓名") else CENTER,
                    number_format="@" if label in text_cols else None)
        ws.row_dimensions[row].height = 20

    at = {label: c for c, label in enumerate(cols, start=1)}
    add_entry_validations(ws, entry_checks(spec, unit), at, first, last_row)

    ws.freeze_panes = f"A{first}"
    # rows may be inserted: an open event's table has 60 rows, and a unit with more entrants
    # could only have sent a second form, which replaces the first (SUPERSEDED) — its rows lost
    protect(ws, insert_rows=True)
    print_setup(ws, header_row=hdr, last_col=ncol)
    ws.print_area = f"A1:{col_range(ncol, 1, last_row).split(':')[1]}"

    _instructions(wb, tournament, unit, cols)
    write_meta(wb, [
        (layout.META_KIND, layout.KIND_REGISTRATION),
        (layout.META_TOURNAMENT, spec.id),
        (layout.META_BRANCH, unit.id),
        (layout.META_VERSION, TEMPLATE_VERSION),
        (layout.META_TOKEN, tournament.token(unit.id)),
        (META_HEADER_ROW, hdr),
        ("branch_name", unit.name),
        (layout.META_PICKUP, "、".join(spec.pickup_points)),
    ])
    wb.active = 0
    wb.security = WorkbookProtection(lockStructure=True)
    return wb


def _captain_shown(captain: str, spec: "TournamentSpec") -> str:
    """The captain's name (tournament.yaml) in the form's header, as the receipts and pages
    print it: in a Traditional league converted as a name (:func:`pipeline.text.names_kept`,
    the conversion :func:`pipeline.text.names_of` gives the captains) — 刘建川 was printed
    so beside 隊長 while every receipt said 劉建川."""
    from ..text import names_kept

    with names_kept([captain]):
        return zh(captain, spec)


def _instructions(wb: Workbook, tournament: "Tournament", unit: UnitSpec, cols: list[str]) -> None:
    spec = tournament.spec
    ws = wb.create_sheet(layout.INSTRUCTIONS_SHEET)
    ws.column_dimensions["A"].width = 100

    def z(template: str, **raw: str) -> str:
        return zh_fmt(template, spec, **raw)

    word = zh(spec.unit_word or "单位", spec)
    q = "”“"
    lists = ["项目", "性别"] + (["乘车地点"] if spec.pickup_points else [])
    steps = [
        z("只在“{sheet}”工作表的白色空白格中填写；灰色区域、表头和本说明已锁定，"
          "请勿修改、删除或重命名工作表，不要插入或删除列。", sheet=layout.REG_SHEET),
        z("每行填写一名选手：{fields}。“{lists}”请从下拉列表选择。",
          fields="、".join(c for c in cols if c != "序号"), lists=q.join(lists)),
        z("表格的行不够时，选中表格中间的一行，右键“插入”整行后接着填写；请不要另发一份报名表补报"
          "（后收到的报名表会取代先前的整份报名表）。"),
        z("姓名请与工会会员名册一致；“{sid}”请尽量填写，用于核对身份（同名的人靠工号区分）。", sid="工号"),
    ]
    team_events = [e for e in spec.events if e.is_team]
    if team_events:
        steps.append(z("双人/团体项目（{names}）：同一队的队员各占一行，填写相同的“{team}”（1、2、3…），"
                       "同一项目内不同的队用不同的号；个人项目“{team}”不填。",
                       names="、".join(e.name for e in team_events), team="队号"))
    if spec.one_event_per_person:
        steps.append(z("每人只能参加一个项目。"))
    quota_lines = [f"    {e.name}：{zh(quota_text(e, unit, word), spec)}；{zh('报名截止', spec)} {zh(deadline_text(e), spec)}"
                   for e in spec.events]
    steps.append(z("本{word}各项目名额与报名截止时间：", word=word) + "\n" + "\n".join(quota_lines))
    if spec.late_policy == "reject":
        steps.append(z("截止时间以后收到的报名表不予受理。"))
    else:
        steps.append(z("截止时间以后收到的报名表会被标注为逾期，由组委会决定是否受理。"))
    if spec.pickup_points:
        # R2016-Q2: the bus manifest needs everyone's stop; a blank one is a warning (the row
        # stands, the person listed as 未填写 on the manifest), so the form asks for it plainly
        steps.append(z("“{col}”请每人填写本人上车的地点（从下拉列表选择）：{points}。乘车地点用于安排班车，"
                       "不影响报名：未填的照常受理，在班车名单上列为“未填写”（待确认），请补填。", col="乘车地点",
                       points="、".join(spec.pickup_points)))
    else:
        steps.append(z("本次比赛不安排班车，“{col}”一栏不用填写。", col="乘车地点"))
    if not team_events:
        steps.append(z("本次比赛没有双人或团体项目，“{team}”一栏不用填写。", team="队号"))
    # (the contact person as a name, as the notice has it: 于麗, not 於麗 — R2015)
    # by mail: from the registered address (the receipt goes there); sent some other way (钉钉
    # …, the contact named without a mailbox), no word of mail
    by_mail = bool(spec.submit_to) or "@" in spec.contact
    mail = z("（请用登记的邮箱 {emails} 发送）", emails="、".join(unit.emails)) if unit.emails and by_mail else ""
    steps.append(z("填好后保存为 .xlsx 文件（不要另存为其他格式，不要把内容复制到新文件），发送至：{to}",
                   to=contact_in_script(spec.submit_to or spec.contact or "工会办公室", spec)) + mail + "。")
    steps.append(z("同一{word}再次发送时，以最后收到的报名表为准。", word=word))
    steps.append(z("收到后系统会自动检查，并寄回一份标注过的表格：红色为错误、黄色为提醒，鼠标停在单元格上可看批注；"
                   "请按批注修改后重新发送。"))
    lines: list[tuple[str, bool]] = [
        (zh(f"{spec.name} 报名表 填表说明", spec), True),
        (f"{word}：{zh(unit.name, spec)}", False),
        ("", False),
    ] + [(f"{i}. {s}", False) for i, s in enumerate(steps, start=1)]
    for r, (text, bold) in enumerate(lines, start=1):
        put(ws, (r, 1), text, font=TITLE_FONT if bold else BODY_FONT, align=LEFT, locked=True)
        ws.row_dimensions[r].height = 30 if bold else sum(_line_height(t, 100) for t in text.split("\n"))
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    protect(ws)


def write_registration_template(tournament: "Tournament", unit_id: str, path: str | Path, rows: int = 60) -> Path:
    """Write branch ``unit_id``'s registration workbook to ``path`` (atomically).

    >>> write_registration_template(t, "admin1", out / "t-admin1.xlsx")  # doctest: +SKIP
    """
    return atomic_save(build_registration_workbook(tournament, unit_id, rows), path)


def template_filename(tournament: "Tournament", unit: UnitSpec) -> str:
    """``t2020-league-admin1-行政第一分工会-报名表.xlsx``."""
    return safe_filename(f"{tournament.spec.id}-{unit.id}-{unit.name}-{zh('报名表', tournament.spec)}") + ".xlsx"


def write_all_templates(tournament: "Tournament", out_dir: str | Path) -> list[Path]:
    """One registration workbook per unit into ``out_dir``; returns the paths in unit order."""
    out = Path(out_dir)
    return [write_registration_template(tournament, u.id, out / template_filename(tournament, u))
            for u in tournament.spec.units]


def template_name(tournament: "Tournament", unit_id: str) -> str:
    """File name of branch ``unit_id``'s workbook (see :func:`template_filename`); for the CLI."""
    unit = tournament.spec.unit(unit_id)
    if unit is None:
        raise KeyError(f"unknown unit {unit_id!r}")
    return template_filename(tournament, unit)


# run.py imports the returned-copy writer from here; the real home is .returned
from .returned import write_returned_copy  # noqa: E402,F401
