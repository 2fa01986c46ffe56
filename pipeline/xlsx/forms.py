"""Organisers' workbooks: discretionary awards (R2015-A1), check-in (R2016-F2) and
playoff (加赛) results (R2011-F1, R2011-D2).

Each has one sheet named in :mod:`pipeline.layout`, a short title block, a header row of
the layout's labels, and a very hidden ``_meta`` (kind, tournament id, event id).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from . import _no_numpy  # noqa: F401  (first: openpyxl without NumPy)
from openpyxl import Workbook
from openpyxl.styles import Border, Side
from openpyxl.worksheet.worksheet import Worksheet

from .. import layout
from ..layout import PlayoffTie, tie_entries  # noqa: F401  (pure: the run compares a form's ties without openpyxl)
from ..spec import TEMPLATE_VERSION
from .common import (BLOCK_FILL, BODY_FONT, CENTER, GRID, INPUT_FILL, LEFT, LOCKED_FILL, META_HEADER_ROW,
                     THIN, TITLE_FONT, add_list_validation, add_whole_validation, atomic_save, col_range,
                     header_row, print_setup, protect, put, set_widths, text_width, wrapped_lines, write_meta, zh)

if TYPE_CHECKING:
    from ..spec import EventSpec, Tournament

AWARD_ROWS = 40
#: the first row of a 加赛 form's second and later tie: a heavier line above it
TIE_TOP = Border(left=THIN, right=THIN, top=Side(style="medium", color="000000"), bottom=THIN)
CHECKIN_CHOICES = ("是", "否")


def _start(title: str, note: str, labels: Sequence[str], sheet: str, spec) -> tuple[Workbook, Worksheet, int]:
    wb = Workbook()
    ws = wb.active
    ws.title = sheet
    n = len(labels)
    for r, (text, font) in enumerate([(title, TITLE_FONT), (note, BODY_FONT)], start=1):
        ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=n)
        put(ws, (r, 1), text, font=font, align=CENTER if r == 1 else LEFT, locked=True,
            fill=None if r == 1 else BLOCK_FILL)
        ws.row_dimensions[r].height = 28 if r == 1 else 36
    hdr = 4
    header_row(ws, hdr, labels)
    return wb, ws, hdr


def _finish(wb: Workbook, ws: Worksheet, hdr: int, ncol: int, meta: list, path: str | Path) -> Path:
    ws.freeze_panes = f"A{hdr + 1}"
    protect(ws)
    print_setup(ws, header_row=hdr, last_col=ncol)
    write_meta(wb, meta + [(layout.META_VERSION, TEMPLATE_VERSION), (META_HEADER_ROW, hdr)])
    wb.active = 0
    return atomic_save(wb, path)


def _row(ws: Worksheet, row: int, values: Sequence, editable: Iterable[int]) -> None:
    edit = set(editable)
    for c, v in enumerate(values, start=1):
        put(ws, (row, c), v, font=BODY_FONT, border=GRID, align=CENTER,
            fill=INPUT_FILL if c in edit else LOCKED_FILL, locked=c not in edit)
    ws.row_dimensions[row].height = 20


def write_awards_form(tournament: "Tournament", path: str | Path, rows: int = AWARD_ROWS) -> Path:
    """The organisers' discretionary-awards sheet (R2015-A1): 奖项 (dropdown of
    ``spec.discretionary_awards`` and ``branch_award``), 项目 (dropdown of event names),
    姓名, 工号, 单位 (dropdown of unit names; for per-branch awards), 备注."""
    spec = tournament.spec
    labels = list(layout.AWARDS_COLUMNS)
    # the award by unit only when the league has one (spec.branch_award): the form offered
    # 组织奖 in a league without it, and the run printed it on a certificate
    note = zh("每行一个获奖者：选择奖项和项目，填写姓名和工号"
              + (f"；按单位颁发的奖项（{spec.branch_award}）只填“单位”。" if spec.branch_award else "。"), spec)
    wb, ws, hdr = _start(zh(f"{spec.name} 评奖结果", spec), note, labels, layout.AWARDS_SHEET, spec)
    at = {l: i for i, l in enumerate(labels, start=1)}
    first, last = hdr + 1, hdr + rows
    for r in range(first, last + 1):
        _row(ws, r, [None] * len(labels), editable=range(1, len(labels) + 1))
    awards = list(dict.fromkeys([*spec.discretionary_awards, *([spec.branch_award] if spec.branch_award else [])]))
    if awards:
        add_list_validation(ws, col_range(at["奖项"], first, last), awards, title="奖项", script=spec.script)
    add_list_validation(ws, col_range(at["项目"], first, last), [e.name for e in spec.events], title="项目",
                        prompt="个人奖项选择项目" + ("；单位奖项可不填" if spec.branch_award else ""), script=spec.script)
    add_list_validation(ws, col_range(at["单位"], first, last), [u.name for u in spec.units], title="单位",
                        script=spec.script)
    widths = {"奖项": max([12.0] + [text_width(a) + 2 for a in awards]),
              "项目": max([10.0] + [text_width(e.name) + 2 for e in spec.events]),
              "姓名": 12, "工号": 14, "单位": max([16.0] + [text_width(u.name) + 2 for u in spec.units]), "备注": 24}
    set_widths(ws, [widths.get(l, 12) for l in labels])
    for c in ("姓名", "工号", "备注"):
        for r in range(first, last + 1):
            ws.cell(r, at[c]).number_format = "@"
    return _finish(wb, ws, hdr, len(labels),
                   [(layout.META_KIND, layout.KIND_AWARDS), (layout.META_TOURNAMENT, spec.id)], path)


def write_checkin_form(tournament: "Tournament", event: "EventSpec",
                       groups: Mapping[str, Sequence[Sequence[str]]], path: str | Path,
                       answers: Mapping[tuple[str, str], Any] | None = None, notice: str = "") -> Path:
    """The check-in sheet (R2016-F2): one pre-filled row per player (项目, 组别, the unit —
    headed with the league's ``unit_word`` —, 队名, 姓名, 工号), 到场 a 是/否 dropdown, left
    blank — every row is to be marked: a row still blank when the sheet comes back holds
    round 1 (:func:`pipeline.ingest.sheets.read_absent`); it was taken as present.
    ``groups`` maps group (R2016-F1; "" before the groups are fixed) → rows of (name,
    staff_id[, unit, team]), in the order printed (:func:`pipeline.run.checkin_rows`);
    its _meta records the players (:func:`pipeline.layout.checkin_players`), so the run writes the
    form again only when the players it would list are others.  The reader finds its columns
    by their labels (:data:`pipeline.layout.CHECKIN_COLUMNS`): the unit and 队名 are not read,
    and an earlier version's form without them reads the same.  ``answers`` (name,
    staff_id) → 到场 are filled in — an earlier form's, carried over when the list changed —
    and ``notice`` (said in the office's words) goes on the line above the header."""
    spec = tournament.spec
    # (a header as every generated sheet's: in the layout's script, whatever the league's — the
    # title and note above it are converted)
    unit = spec.unit_word or "单位"
    if unit in (*layout.CHECKIN_COLUMNS, layout.CHECKIN_TEAM):     # (a unit word no reader could tell apart)
        unit = "单位"
    labels = ["项目", "组别", unit, layout.CHECKIN_TEAM, "姓名", "工号", "到场"]
    note = zh("到场的选手选“是”，未到场的选“否”。未到场的选手将被移出比赛，剩下的单人在组内重新配对。"
              + ("组别已按报名名单抽签确定，与签到无关。" if any(groups) else ""), spec)
    wb, ws, hdr = _start(zh(f"{spec.name} {event.name} 签到表", spec), note, labels,
                         layout.CHECKIN_SHEET, spec)
    if notice:
        ws.merge_cells(start_row=hdr - 1, start_column=1, end_row=hdr - 1, end_column=len(labels))
        put(ws, (hdr - 1, 1), zh(notice, spec), font=BODY_FONT, align=LEFT, locked=True, fill=BLOCK_FILL)
        ws.row_dimensions[hdr - 1].height = 36
    at = {l: i for i, l in enumerate(labels, start=1)}
    answers = answers or {}
    r = hdr + 1
    units, teams = [8.0], [8.0]
    for group, players in groups.items():
        for name, staff_id, *more in players:
            branch, team = (list(more) + ["", ""])[:2]
            _row(ws, r, [event.name, group, branch or "", team or "", name, staff_id or "",
                         answers.get((name, staff_id or ""))], editable=[at["到场"]])
            units.append(text_width(branch or "") + 2)
            teams.append(text_width(team or "") + 2)
            r += 1
    last = max(hdr + 1, r - 1)
    add_list_validation(ws, col_range(at["到场"], hdr + 1, last), list(CHECKIN_CHOICES), title="到场",
                        prompt="是 / 否", script=spec.script)
    set_widths(ws, [max(10.0, text_width(event.name) + 2), 8, min(24.0, max(units)), min(20.0, max(teams)), 12, 14, 8])
    return _finish(wb, ws, hdr, len(labels),
                   [(layout.META_KIND, layout.KIND_CHECKIN), (layout.META_TOURNAMENT, spec.id),
                    (layout.META_EVENT, event.id), (layout.META_CHECKIN_PLAYERS, layout.checkin_players(groups))],
                   path)


def write_playoff_form(tournament: "Tournament", event: "EventSpec", ties: Sequence[PlayoffTie],
                       path: str | Path, round_no: int | None = None) -> Path:
    """The 加赛 sheet (R2011-F1, R2011-D2): one pre-filled row per tied contender (项目, 阶段,
    组别, 参赛者); the referee enters 名次 within the tie (1 = best, whole number
    1…number tied).  ``round_no``, the round the event has reached, goes in its _meta: a
    playoff settles the tie it was played for only, not the same entries level again in a
    later round of the stage (:meth:`pipeline.model.Playoff.settles_in`).

    A last column, 说明 (not read), names each row's tie — 加赛1：第3名并列（二等奖/三等奖），
    2人，名次填 1–2 (``PlayoffTie.note`` the place; R2020-F4 ``PlayoffTie.level``: 第2–3名同为二等奖，
    可不分先后, and the note above the header says how to leave them level) — and a heavier
    line parts the ties: two final-places ties print the same 阶段 and a blank 组别, and a
    referee numbered 1 … 5 straight down both."""
    spec = tournament.spec
    labels = [*layout.PLAYOFF_COLUMNS, layout.PLAYOFF_NOTE]
    note = zh("以下选手需要加赛：积分相同且按规则无法区分，或淘汰赛对局未分胜负。加赛后在“名次”一栏填写这几名选手之间的"
              "名次（1 为最好；淘汰赛的胜者填 1）。" + ("本表有几组并列（见“说明”一栏），每组各自从 1 填起。"
                                                   if len(ties) > 1 else "")
              # R2020-F4: places of one prize may stay level (EventRunner.take_level_playoffs)
              + ("同一奖项内的并列可不分先后（见“说明”一栏）：名次空着或填相同的名次即为并列，如只给第1名填 1、"
                 "另两名空着，这两名并列第2名；奖项不同的名次须分出先后。" if any(t.level for t in ties) else ""), spec)
    wb, ws, hdr = _start(zh(f"{spec.name} {event.name} 加赛结果", spec), note, labels,
                         layout.PLAYOFF_SHEET, spec)
    at = {l: i for i, l in enumerate(labels, start=1)}
    r = hdr + 1
    said = []
    for k, tie in enumerate(ties, start=1):
        start, n = r, len(tie.contenders)
        said.append(zh(f"加赛{k}：{tie.note + '，' if tie.note else ''}{n}人，名次填 1–{n}"
                       + (f"；{tie.level}" if tie.level else ""), spec))
        for who in tie.contenders:
            _row(ws, r, [event.name, zh(layout.STAGE_LABELS.get(tie.stage, tie.stage), spec), tie.group, None, who,
                         said[-1]], editable=[at["名次"]])
            if k > 1 and r == start:
                for c in range(1, len(labels) + 1):
                    ws.cell(r, c).border = TIE_TOP
            r += 1
        if tie.contenders:
            add_whole_validation(ws, col_range(at["名次"], start, r - 1), 1, len(tie.contenders), title="名次",
                                 prompt=f"加赛{k}：{n}人之间的名次，填 1–{n}（1 为最好）", script=spec.script)
    widths = [max(10.0, text_width(event.name) + 2), 14, 8, 8,
              max([20.0] + [text_width(w) + 2 for t in ties for w in t.contenders]),
              min(48.0, max([16.0] + [text_width(x) + 2 for x in said]))]
    set_widths(ws, widths)
    # (the note above the header is one merged cell: Excel does not fit its row to it)
    ws.row_dimensions[2].height = max(36, 18 * wrapped_lines(note, sum(widths)))
    return _finish(wb, ws, hdr, len(labels),
                   [(layout.META_KIND, layout.KIND_PLAYOFF), (layout.META_TOURNAMENT, spec.id),
                    (layout.META_EVENT, event.id),
                    *([(layout.META_ROUND, round_no)] if round_no is not None else []),
                    (layout.META_TIES, ",".join(str(len(t.contenders)) for t in ties)),
                    (layout.META_TIE_STAGES, ",".join(t.stage for t in ties)),
                    *([(layout.META_TIE_ENTRIES, tie_entries(ties))] if all(t.ids for t in ties) else [])], path)
