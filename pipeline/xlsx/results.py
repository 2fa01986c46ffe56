"""The result workbook for referees, one per event and round (contract: "Result workbook").

Sheet ``成绩``: a title block (tournament, event, stage, round, session, venue, referee),
then one table: ``轮次 组别 桌号``, the sides (``甲方 乙方`` or ``甲 乙 丙``), the game's
result columns (dropdowns for choices, whole-number checks for integers), and signature
columns (``甲方签名 … 裁判签名``).  One row per match; bridge (a result column labelled
``牌号`` and ``plan["boards"]``) gets one row per board, with 牌号 pre-filled.
Pre-filled cells are locked; result and signature cells are unlocked.

Decisions:
- Byes are listed (the sheet shows everyone who is in the round): the side's name, then
  ``轮空`` in the other side columns; their result and signature cells stay locked and
  grey.  Readers skip bye matches.
- The optional detail sheet (hand-by-hand) has ``轮次 组别 桌号`` then the game's detail
  columns, ``detail_rows`` rows per (non-bye) table with the keys pre-filled; a detail
  column labelled ``局号`` is pre-numbered 1…n (games treat a row with only 局号 as blank).
  No other pre-filled text sits in the rows, so every non-key value is the referee's.
- A table with a withdrawn side (``withdrawn``: tournament.yaml's, the tables still on the
  draw, :func:`pipeline.render.viewmodels.withdrawn_at_tables`) says so: the side's name then
  ``（已退赛）`` (:data:`pipeline.layout.WITHDRAWN_MARK`, read back without it), and a line
  above the table naming the 弃权 to choose — its remaining games are entered as 弃权
  (handbook 缺席、弃权和退赛); a blank table held the round for good.  A round's sheet written
  before the withdrawal is written again while its results are not all in
  (:func:`pipeline.run._sheets_to_mark`).
- For ``script: traditional`` tournaments titles and dropdown *choices* are converted
  (game readers normalise 繁體 back, see ``games.common``) when the conversion round-trips;
  column labels stay as the game gives them.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Sequence

from . import _no_numpy  # noqa: F401  (first: openpyxl without NumPy)
from openpyxl.styles import Border, Side

from .. import layout
from ..model import WALKOVER, Match, Round
from ..spec import TEMPLATE_VERSION
from ..text import keep, names_in_script, script_of
from .common import (BLOCK_FILL, BODY_FONT, BYE_FILL, CENTER, GRID, HEADER_FILL, HEADER_FONT, INPUT_FILL, LEFT,
                     LOCKED_FILL, META_HEADER_ROW, META_SEATS, SUBTITLE_FONT, TITLE_FONT, text_width, wrapped_lines, zh)
from .fast import Book, Sheet

if TYPE_CHECKING:
    from ..games.base import DetailSheet, ResultColumn
    from ..spec import EventSpec, Tournament

BOARD_LABEL = "牌号"
HAND_LABEL = "局号"
BYE_TEXT = "轮空"
META_DETAIL_SHEET = "detail_sheet"
_BLOCK_TOP = Border(left=GRID.left, right=GRID.right, bottom=GRID.bottom, top=Side(style="medium", color="000000"))


def side_labels(seats: int) -> list[str]:
    """``甲方 乙方`` for head-to-head, ``甲 乙 丙`` for tables of three."""
    return list(layout.SIDES_3 if seats == 3 else layout.SIDES_2)


def signature_labels(seats: int) -> list[str]:
    """``甲方签名 乙方签名 裁判签名`` (or ``甲签名 乙签名 丙签名 裁判签名``)."""
    return [s + layout.SIGNATURE_SUFFIX for s in side_labels(seats)] + [layout.REFEREE_SIGNATURE]


def _choices(values: Sequence[str], spec: Any) -> list[str]:
    """Dropdown values in the tournament's script, only where t2s(s2t(v)) == v."""
    from ..text import listed_choice

    script = getattr(spec, "script", "simplified")
    return [listed_choice(v, script) for v in values]


def _boards_for(rnd: Round, match: Match) -> list[Any]:
    boards = rnd.plan.get("boards") if isinstance(rnd.plan, dict) else None
    if isinstance(boards, dict):
        boards = boards.get(str(match.table), boards.get(match.table))  # type: ignore[call-overload]
    return list(boards or [])


def sheet_rows(rnd: Round, detail: "DetailSheet | None" = None, detail_rows: int = 30) -> int:
    """About how many table rows the round's workbook has (a board per row for bridge, the
    detail sheet's rows per table): what writing it costs, for scheduling the largest first."""
    rows = sum(max(1, len(_boards_for(rnd, m))) if not m.bye else 1 for m in rnd.matches)
    if detail is not None:
        rows += detail_rows * sum(1 for m in rnd.matches if not m.bye)
    return rows


def _add_validation(ws: Sheet, col: "ResultColumn", at: int, first: int, last: int, spec: Any) -> None:
    title, prompt = col.label, col.help
    if col.kind == "choice" and col.choices:
        ws.list_validation(at, first, last, _choices(col.choices, spec), title=title, prompt=prompt)
    elif col.kind == "int":
        ws.whole_validation(at, first, last, col.min, col.max, title=title, prompt=prompt)
    elif prompt:
        ws.prompt_only(at, first, last, title=col.label, prompt=zh(prompt, spec))


def _title_block(ws: Sheet, lines: list[tuple[str, Any]], widths: Sequence[float]) -> int:
    """Merged, locked title lines across the columns ``widths``; returns the next free row.

    A line's row grows with its text — the draw notes (byes, regrouping, rematch avoidance,
    已退赛) and the detail sheet's instruction run to several lines, and Excel does not
    auto-fit a merged cell's row: the title 28 pt, another line 20 pt, each wrapped line
    more 24 pt (title) / 18 pt (:func:`.common.wrapped_lines`, by the font's size)."""
    ncol, total = len(widths), sum(widths)
    for r, (text, font) in enumerate(lines, start=1):
        ws.merged(r, 1, ncol, text, font=font, align=CENTER if r == 1 else LEFT, locked=True,
                  fill=None if r == 1 else BLOCK_FILL)
        more = wrapped_lines(text, total * 11 / (font.size or 11)) - 1
        ws.row_height(r, 28 + 24 * more if r == 1 else 20 + 18 * more)
    return len(lines) + 1


def _header_row(ws: Sheet, row: int, labels: Sequence[str]) -> None:
    """The table's header labels (styled, locked), as :func:`.common.header_row`."""
    for i, label in enumerate(labels, start=1):
        ws.put(row, i, label, font=HEADER_FONT, fill=HEADER_FILL, align=CENTER, border=GRID, locked=True)
    ws.row_height(row, 24)


def build_result_workbook(*, tournament: "Tournament", event: "EventSpec", rnd: Round,
                          columns: Sequence["ResultColumn"], label_of: dict[str, str],
                          session_label: str = "", detail: "DetailSheet | None" = None,
                          seats: int = 2, detail_rows: int = 30, venue: str | None = None,
                          withdrawn: Collection[str] = ()) -> Book:
    """The result workbook, ready to save (see module docstring)."""
    spec = tournament.spec
    sides = side_labels(seats)
    sigs = signature_labels(seats)
    keys = list(layout.RESULT_KEY_COLUMNS)
    res_labels = [c.label for c in columns]
    labels = keys + sides + res_labels + sigs
    ncol = len(labels)
    at = {label: i for i, label in enumerate(labels, start=1)}

    book = Book(script=spec.script)
    ws = book.sheet(layout.RESULT_SHEET)

    if venue is None:     # the round's session venue when the caller knows it (run.render_all)
        venue = event.venue or spec.venue
    info = [zh(rnd.title, spec)]
    if session_label:
        info.append(zh(session_label, spec))
    if venue:
        info.append(zh("地点：", spec) + zh(venue, spec))
    if event.referee:
        info.append(zh("裁判：", spec) + names_in_script(event.referee, script_of(spec)))     # (as a name: 于丽)
    lines = [(zh(spec.name, spec), TITLE_FONT),
             (zh(f"{event.name} 成绩记录表", spec), SUBTITLE_FONT),     # (it mixed scripts: 围棋 成績記錄表)
             ("    ".join(info), BODY_FONT),
             (zh("裁判填写白色格子（可下拉选择的请从列表中选）；比赛结束后双方选手和裁判在本行签名。"
                 "灰色格子已锁定，请勿改动。" + _colours_line(event, rnd), spec), BODY_FONT)]
    if rnd.notes:
        lines.append((zh(joined_notes(rnd.notes), spec), BODY_FONT))
    gone = [m for m in rnd.matches if not m.bye and any(s in withdrawn for s in m.sides)]
    if gone:        # (the names as the side cells print them, in the league's script already)
        lines.append((zh("".join(_withdrawn_line(m, sides, withdrawn, label_of) for m in gone), spec), BODY_FONT))
    mark = zh(layout.WITHDRAWN_MARK, spec)
    widths = [6, 8, 6] + [max(14.0, *(text_width(label_of.get(s, s) + (mark if s in withdrawn else "")) + 2
                                      for m in rnd.matches for s in m.sides))
                          if rnd.matches else 14.0] * len(sides)
    widths += [max(text_width(c.label), 8.0, *(text_width(x) for x in c.choices)) if c.kind == "choice"
               else max(text_width(c.label), 8.0) for c in columns]
    widths += [12.0] * len(sigs)
    hdr = _title_block(ws, lines, widths) + 1
    _header_row(ws, hdr, labels)
    for col in columns:
        if col.help:
            ws.comment(hdr, at[col.label], zh(col.help, spec))
    ws.widths(widths)

    board_col = at.get(BOARD_LABEL)
    row = hdr + 1
    first = row
    put = ws.put_as
    # a round of bridge boards has tens of thousands of cells: the formats are looked up
    # once per border, and the blank cells written straight to XlsxWriter
    xw = ws.ws
    # (keyed by "first row of a block": an openpyxl Border hashes all its sides, every time)
    styles = {top: (ws.styled(font=BODY_FONT, fill=LOCKED_FILL, align=CENTER, border=b, locked=True),
                    ws.book.fmt(BODY_FONT, INPUT_FILL, CENTER, b, False),
                    ws.book.fmt(None, BYE_FILL, None, b, True)) for top, b in ((False, GRID), (True, _BLOCK_TOP))}
    fill_cols = [at[label] - 1 for label in res_labels + sigs]
    key_cols = (at["轮次"], at["组别"], at["桌号"])
    side_cols = [at[side] for side in sides]
    bye_text = zh(BYE_TEXT, spec)
    for m in rnd.matches:
        boards = _boards_for(rnd, m) if board_col and not m.bye else []
        # (R2011-R1: a knockout's walkover says so, not 轮空)
        names = [label_of.get(m.sides[k], m.sides[k]) + (mark if m.sides[k] in withdrawn and not m.bye else "")
                 if k < len(m.sides) else ((zh(WALKOVER, spec) if m.walkover else bye_text) if m.bye else "")
                 for k in range(len(sides))]
        for i, board in enumerate(boards or [None]):
            locked_style, input_fmt, bye_fmt = styles[i == 0 and len(boards) > 1]
            for c, value in zip(key_cols, (rnd.round, m.group, m.table)):
                put(row, c, value, locked_style)
            for c, name in zip(side_cols, names):
                put(row, c, name, locked_style)
            r0 = row - 1
            if m.bye:
                for c0 in fill_cols:
                    xw.write_blank(r0, c0, None, bye_fmt)
            else:
                for c0 in fill_cols:
                    if board is not None and c0 == board_col - 1:
                        put(row, board_col, board, locked_style)        # 牌号, pre-filled
                    else:
                        xw.write_blank(r0, c0, None, input_fmt)
            xw.set_row(r0, 24)
            row += 1
    last = max(first, row - 1)
    for col in columns:
        _add_validation(ws, col, at[col.label], first, last, spec)

    ws.freeze(hdr + 1, len(keys) + 1)
    ws.protect()
    # the printed form shows the grid of the blank cells
    ws.print_setup(header_row=hdr, last_col=ncol, last_row=last, landscape=True, grid=True)

    meta = [
        (layout.META_KIND, layout.KIND_RESULT),
        (layout.META_TOURNAMENT, spec.id),
        (layout.META_EVENT, event.id),
        (layout.META_STAGE, rnd.stage),
        (layout.META_ROUND, rnd.round),
        (layout.META_DRAW_HASH, rnd.input_hash),
        (layout.META_PAIRINGS, layout.pairings_digest(rnd.matches)),
        (layout.META_VERSION, TEMPLATE_VERSION),
        (META_HEADER_ROW, hdr),
        (META_SEATS, seats),
    ]
    if detail is not None:
        _detail_sheet(book, spec, event, rnd, detail, detail_rows)
        meta.append((META_DETAIL_SHEET, detail.name))
    book.meta(meta)
    book.lock_structure = True
    return book


def _detail_sheet(book: Book, spec: Any, event: "EventSpec", rnd: Round, detail: "DetailSheet",
                  per_table: int) -> None:
    ws = book.sheet(detail.name)
    keys = list(layout.RESULT_KEY_COLUMNS)
    labels = keys + [c.label for c in detail.columns]
    at = {label: i for i, label in enumerate(labels, start=1)}
    ncol = len(labels)
    widths = [6, 8, 6] + [max(text_width(c.label), 8.0, *(text_width(x) for x in c.choices))
                          for c in detail.columns]
    hdr = _title_block(ws, [
        (zh(f"{event.name} {rnd.title} {detail.name}", spec), TITLE_FONT),      # (it read 双扣 瑞士制第5輪 明細)
        (zh(f"每桌每局填一行（每桌预留 {per_table} 行，从上往下填，用不完的留空）；本表的合计应与“", spec)
         + layout.RESULT_SHEET + zh("”表一致。", spec), BODY_FONT),
    ], widths) + 1
    _header_row(ws, hdr, labels)
    for col in detail.columns:
        if col.help:
            ws.comment(hdr, at[col.label], zh(col.help, spec))
    # the (many) blank input cells take their font and their unlocked protection from the
    # column instead of one styled cell each, so a large round's sheet stays small (no
    # border here: a column style reaches every row, above and below the table too)
    ws.widths(widths, styles={at[c.label]: {"font": BODY_FONT, "align": CENTER, "locked": False}
                              for c in detail.columns})
    row = first = hdr + 1
    put = ws.put_as     # (a 200-unit round's sheet has tens of thousands of these cells: styles looked up once)
    hand = at.get(HAND_LABEL)
    # (a table's first row, then its others: openpyxl's styles are slow to hash, so no dict of them)
    keyed = [ws.styled(font=BODY_FONT, fill=LOCKED_FILL, align=CENTER, border=b, locked=True) for b in (_BLOCK_TOP, GRID)]
    typed = [ws.styled(font=BODY_FONT, fill=INPUT_FILL, align=CENTER, border=b, locked=False) for b in (_BLOCK_TOP, GRID)]
    for m in rnd.matches:
        if m.bye:
            continue
        for i in range(per_table):
            key = keyed[i > 0]
            put(row, 1, rnd.round, key)
            put(row, 2, m.group, key)
            put(row, 3, m.table, key)
            if hand:
                put(row, hand, i + 1, typed[i > 0])
            row += 1
    last = max(first, row - 1)
    for col in detail.columns:
        _add_validation(ws, col, at[col.label], first, last, spec)
    ws.freeze(hdr + 1, len(keys) + 1)
    ws.protect()
    ws.print_setup(header_row=hdr, last_col=ncol, last_row=None, landscape=True, grid=True)


def _withdrawn_line(m: Match, sides: Sequence[str], withdrawn: Collection[str], label_of: dict[str, str]) -> str:
    """The title block's sentence for a table with a withdrawn side (to convert: the names
    are kept as the side cells print them)."""
    seats = [i for i, s in enumerate(m.sides) if s in withdrawn]
    table = (f"{m.group}组" if m.group else "") + f"第{m.table}桌"
    names = [keep(label_of.get(m.sides[i], m.sides[i])) for i in seats]
    return layout.withdrawn_note(table, [sides[i] for i in seats], names, len(m.sides),
                                 layout.forfeit_choice(len(m.sides), seats))


def _colours_line(event: "EventSpec", rnd: Round) -> str:
    """Who holds which colour, for a one-game board game whose 甲方 moves first at every table
    of the round (R2015-F1; the game's ``first_note`` and ``colours``): ``甲方执黑先行，乙方执白：
    黑方胜选“甲胜”，白方胜选“乙胜”。`` — only the draw sheet said （执黑先行）, and a referee
    with 黑中盘胜 written down did not know which choice it was.  "" for another game.  It
    ends the instruction line, so the table's header row stays where it was."""
    from ..games import GAMES

    game = GAMES.get(event.game) if event.game in GAMES else None
    colours = getattr(game, "colours", ())
    if not colours or any(m.first != 0 for m in rnd.matches if not m.bye):
        return ""
    a, b = colours
    return f"{game.colours_text(0)}：{a}方胜选“甲胜”，{b}方胜选“乙胜”。"


def joined_notes(notes: Sequence[str]) -> str:
    """A round's notes as one line: sentences one after another, each with its own full
    stop (joined by "；" they read "…2队。；第B组…").

    >>> joined_notes(["第A组为单数，抽签由 甲 进入第B组。", "人数为奇数，乙 轮空"])
    '第A组为单数，抽签由 甲 进入第B组。人数为奇数，乙 轮空。'
    """
    return "".join(n if n.endswith(("。", "！", "？")) else f"{n}。" for n in (x.strip() for x in notes) if n)


def write_result_sheet(path: str | Path, *, tournament: "Tournament", event: "EventSpec", rnd: Round,
                       columns: list["ResultColumn"], label_of: dict[str, str], session_label: str = "",
                       detail: "DetailSheet | None" = None, seats: int = 2, detail_rows: int = 30,
                       venue: str | None = None, withdrawn: Collection[str] = ()) -> Path:
    """Write the referees' result workbook for one event and round to ``path`` (atomically).

    >>> write_result_sheet(out / "xiangqi-r1.xlsx", tournament=t, event=ev, rnd=rnd,
    ...                    columns=game.columns({}), label_of=labels)  # doctest: +SKIP
    """
    book = build_result_workbook(tournament=tournament, event=event, rnd=rnd, columns=columns, label_of=label_of,
                                 session_label=session_label, detail=detail, seats=seats, detail_rows=detail_rows,
                                 venue=venue, withdrawn=withdrawn)
    return book.save(path)
