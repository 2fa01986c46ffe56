"""Inline SVG pictures for the leadership site: knockout brackets and bar charts.

Pure functions: a plain description in, an SVG string out (every text escaped).  No
JavaScript, no external fonts or images: the SVG inherits the page's CJK font stack.
Geometry is separated from drawing (:func:`layout_bracket`) so tests can check it.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from markupsafe import escape

# -- bracket description -----------------------------------------------------------------


@dataclass(frozen=True)
class BoxLine:
    """One side shown in a bracket box: label, small grey note (branch), score, winner."""

    text: str
    note: str = ""
    score: str = ""
    bold: bool = False
    key: str = ""            # entry id: connects this line to the box it came from


@dataclass(frozen=True)
class BracketBox:
    """One match / table / bye / pool of a bracket column.

    ``kind``: ``match`` (2 or 3 sides), ``bye`` (轮空/晋级签, one side), ``pool`` (the final
    round robin, every member listed) or ``projected`` (not drawn yet, shows 待定).
    ``advancing`` are the entry ids that leave this box for the next column.
    """

    key: str
    lines: tuple[BoxLine, ...]
    kind: str = "match"
    caption: str = ""        # small label above the box (桌号, 轮空 …)
    advancing: tuple[str, ...] = ()


@dataclass(frozen=True)
class BracketColumn:
    """One column (round) of a bracket: its title and boxes."""

    title: str
    boxes: tuple[BracketBox, ...]


# -- geometry -------------------------------------------------------------------------------

COL_W = 168        # box width
COL_GAP = 34       # horizontal gap between columns (holds the connector lines)
LINE_H = 20        # height of one side line
PAD = 5            # vertical padding inside a box
CAPTION_H = 13     # caption above a box
BOX_GAP = 10       # minimum vertical gap between boxes
HEAD_H = 26        # column titles
MARGIN = 6
FONT = 13


@dataclass(frozen=True)
class PlacedBox:
    """A bracket box with its position in the drawing."""

    column: int
    box: BracketBox
    x: int
    y: int          # top of the box (caption sits above it)
    w: int
    h: int

    @property
    def mid(self) -> float:
        return self.y + self.h / 2

    def line_mid(self, i: int) -> float:
        return self.y + PAD + LINE_H * i + LINE_H / 2


@dataclass(frozen=True)
class Connector:
    """A line from the right edge of one box to the left edge of the next column's box."""

    x1: float
    y1: float
    x2: float
    y2: float
    dashed: bool = False      # the entry did not win there (revived, third-place match)
    lane: int = 0             # a dashed line's own vertical: the line of the box it reaches

    @property
    def vx(self) -> float:
        """Where the line turns down: halfway for a winner; for an entry that lost (a
        third-place match, a revival) further on, one vertical per line of the box it
        reaches — so a loser's dashed line never runs along, and hides, the winners' solid
        one, nor another loser's (two semi-final losers into one 三四名 box)."""
        return self.x1 + (self.x2 - self.x1) * (0.65 + 0.15 * (self.lane % 2) if self.dashed else 0.5)


@dataclass
class BracketLayout:
    """A bracket laid out: its size, placed boxes and connecting lines."""

    width: int
    height: int
    titles: list[tuple[float, str]] = field(default_factory=list)   # (x centre, title)
    boxes: list[PlacedBox] = field(default_factory=list)
    connectors: list[Connector] = field(default_factory=list)

    def column_counts(self) -> list[int]:
        """Number of boxes per column: ``[11, 6, 3, 1]`` for the T2020 finals."""
        counts = [0] * len(self.titles)
        for b in self.boxes:
            counts[b.column] += 1
        return counts


def _box_height(box: BracketBox) -> int:
    return PAD * 2 + LINE_H * max(1, len(box.lines))


def _order_columns(columns: list[BracketColumn]) -> list[list[BracketBox]]:
    """Order each column right to left so a box sits next to the boxes its entries go to:
    the last column keeps its (table) order; an earlier box sorts by the position of the
    next-column box its advancing entries reach, boxes that feed nothing keep their order
    at the end.  With a full knockout this gives the classic tree without crossings."""
    ordered: list[list[BracketBox]] = [list(c.boxes) for c in columns]
    for ci in range(len(ordered) - 2, -1, -1):
        pos_of_entry: dict[str, float] = {}
        for pi, nb in enumerate(ordered[ci + 1]):
            for li, line in enumerate(nb.lines):
                if line.key:
                    pos_of_entry.setdefault(line.key, pi + li / 10)
        big = float(len(ordered[ci + 1]) + 1)

        def rank(item: tuple[int, BracketBox]) -> tuple[float, int]:
            i, b = item
            targets = [pos_of_entry[k] for k in b.advancing if k in pos_of_entry]
            return (min(targets) if targets else big, i)

        ordered[ci] = [b for _, b in sorted(enumerate(ordered[ci]), key=rank)]
    return ordered


def layout_bracket(columns: list[BracketColumn]) -> BracketLayout:
    """Place the boxes: columns left to right; the first column stacked; a later box
    centred on the boxes that feed it (never overlapping the box above), so lines run
    from each box to the box its winner plays in next.

    >>> col = BracketColumn("第1轮", (BracketBox("a", (BoxLine("甲"), BoxLine("乙"))),))
    >>> layout_bracket([col]).column_counts()
    [1]
    """
    ordered = _order_columns(columns)
    lay = BracketLayout(width=0, height=0)
    where: dict[str, tuple[PlacedBox, int, bool]] = {}   # entry → (box, line index, advanced)
    bottom_max = HEAD_H
    prev: list[PlacedBox] = []
    for ci, boxes in enumerate(ordered):
        x = MARGIN + ci * (COL_W + COL_GAP)
        lay.titles.append((x + COL_W / 2, columns[ci].title))
        cursor = HEAD_H + MARGIN      # top of the next free slot (caption included)
        placed_here: list[PlacedBox] = []
        for bi, box in enumerate(boxes):
            h = _box_height(box)
            sources = [where[l.key] for l in box.lines if l.key in where]
            min_top = cursor + CAPTION_H
            if sources and ci > 0:
                want_mid = sum(pb.line_mid(li) for pb, li, _ in sources) / len(sources)
                top = max(min_top, round(want_mid - h / 2))
            elif prev:
                # not drawn yet: centre on an even share of the previous column
                lo = bi * len(prev) // len(boxes)
                hi = max(lo + 1, (bi + 1) * len(prev) // len(boxes))
                share = prev[lo:hi]
                want_mid = (share[0].y + share[-1].y + share[-1].h) / 2
                top = max(min_top, round(want_mid - h / 2))
            else:
                top = min_top
            pb = PlacedBox(ci, box, x, int(top), COL_W, h)
            placed_here.append(pb)
            for li, line in enumerate(box.lines):
                if line.key and line.key in where and ci > 0:
                    src, sli, advanced = where[line.key]
                    if src.column == ci - 1:
                        lay.connectors.append(Connector(src.x + src.w, src.line_mid(sli),
                                                        x, pb.line_mid(li), dashed=not advanced, lane=li))
            cursor = pb.y + h + BOX_GAP
            bottom_max = max(bottom_max, pb.y + h)
        for pb in placed_here:
            for li, line in enumerate(pb.box.lines):
                if line.key:
                    where[line.key] = (pb, li, line.key in pb.box.advancing)
        lay.boxes.extend(placed_here)
        prev = placed_here
    lay.width = MARGIN * 2 + len(ordered) * COL_W + max(0, len(ordered) - 1) * COL_GAP
    lay.height = bottom_max + MARGIN
    return lay


# -- drawing --------------------------------------------------------------------------------


def text_width(s: str, size: int = FONT) -> float:
    """Estimated width in px: wide (CJK) characters 1 em, others 0.6 em."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else size * 0.6 for c in s)


def fit(s: str, width: float, size: int = FONT) -> str:
    """Cut ``s`` with an ellipsis so it fits ``width`` px: ``fit("一二三四五", 40) == "一二…"``."""
    if text_width(s, size) <= width:
        return s
    out = ""
    for c in s:
        if text_width(out + c + "…", size) > width:
            break
        out += c
    return out + "…"


def _e(s: str) -> str:
    """``s`` escaped for SVG text and attributes (``& < > " '``), by markupsafe — which the
    pages' Jinja imports anyway; :mod:`html` and its entity table were ~2 ms of a night's
    imports for this one function."""
    return str(escape(s))


def bracket_svg(columns: list[BracketColumn], title: str = "对阵图") -> str:
    """The bracket as one ``<svg>`` element (rounds as columns, lines between matches,
    byes as one-line boxes, winners bold, projected boxes dashed)."""
    lay = layout_bracket(columns)
    out = [f'<svg class="bracket" xmlns="http://www.w3.org/2000/svg" role="img" '
           f'width="{lay.width}" height="{lay.height}" viewBox="0 0 {lay.width} {lay.height}" '
           f'font-size="{FONT}">',
           f"<title>{_e(title)}</title>"]
    for cx, t in lay.titles:
        out.append(f'<text class="col-title" x="{cx:g}" y="{HEAD_H - 9}" text-anchor="middle" '
                   f'font-weight="bold">{_e(fit(t, COL_W))}</text>')
    for c in lay.connectors:
        dash = ' stroke-dasharray="4 3"' if c.dashed else ""
        out.append(f'<path d="M{c.x1:g} {c.y1:g}H{c.vx:g}V{c.y2:g}H{c.x2:g}" fill="none" '
                   f'stroke="#8a8a8a" stroke-width="1.2"{dash}/>')
    for pb in lay.boxes:
        b = pb.box
        cls = f"box box-{b.kind}"
        dash = ' stroke-dasharray="5 3"' if b.kind in ("projected", "bye") else ""
        fill = {"bye": "#f6f6f6", "pool": "#fff8e6", "projected": "#fcfcfc"}.get(b.kind, "#ffffff")
        out.append(f'<g class="{cls}">')
        if b.caption:
            out.append(f'<text x="{pb.x + 2}" y="{pb.y - 3}" font-size="10" fill="#777">'
                       f'{_e(fit(b.caption, COL_W))}</text>')
        out.append(f'<rect x="{pb.x}" y="{pb.y}" width="{pb.w}" height="{pb.h}" rx="4" '
                   f'fill="{fill}" stroke="#555"{dash}/>')
        for li, line in enumerate(b.lines):
            ty = pb.line_mid(li) + FONT * 0.36
            if li:
                ly = pb.y + PAD + LINE_H * li
                out.append(f'<line x1="{pb.x}" y1="{ly}" x2="{pb.x + pb.w}" y2="{ly}" stroke="#ddd"/>')
            score_w = text_width(line.score) + 6 if line.score else 0
            avail = pb.w - 10 - score_w
            name = fit(line.text, avail)
            note_room = avail - text_width(name) - 4
            weight = ' font-weight="bold"' if line.bold else ""
            fill_txt = ' fill="#999"' if b.kind == "projected" else ""
            seg = f'<text x="{pb.x + 5}" y="{ty:g}"{weight}{fill_txt}>{_e(name)}'
            if line.note and note_room > 20:
                seg += (f'<tspan dx="4" font-size="10" font-weight="normal" fill="#777">'
                        f'{_e(fit(line.note, note_room, 10))}</tspan>')
            out.append(seg + "</text>")
            if line.score:
                out.append(f'<text x="{pb.x + pb.w - 5}" y="{ty:g}" text-anchor="end"{weight}>'
                           f'{_e(line.score)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


# -- stacked bar chart -----------------------------------------------------------------------

PALETTE = ("#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98", "#17a589", "#a04000", "#5d6d7e")


@dataclass(frozen=True)
class BarRow:
    """One bar of a stacked bar chart: its label and the values of its parts."""

    label: str
    values: tuple[int, ...]   # one per series


def stacked_bar_svg(rows: list[BarRow], series: list[str], title: str = "") -> str:
    """Horizontal stacked bars (one row per branch, one colour per event) with a legend,
    scaled to the page width (``width="100%"`` and a viewBox), readable on a phone.

    >>> "<svg" in stacked_bar_svg([BarRow("机关", (2, 1))], ["象棋", "跳棋"])
    True
    """
    label_w = max([text_width(r.label) for r in rows] + [40]) + 8
    label_w = min(label_w, 130)
    bar_w = 360 - label_w - 30
    row_h, bar_h = 22, 15
    legend_rows: list[list[tuple[int, str]]] = [[]]
    lx = 0.0
    for i, name in enumerate(series):
        w = 16 + text_width(name, 12) + 12
        if lx + w > 360 and legend_rows[-1]:
            legend_rows.append([])
            lx = 0
        legend_rows[-1].append((i, name))
        lx += w
    legend_h = 18 * len(legend_rows) + 6
    total_max = max([sum(r.values) for r in rows] + [1])
    height = legend_h + row_h * len(rows) + 8
    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" role="img" width="100%" '
           f'viewBox="0 0 360 {height}" preserveAspectRatio="xMinYMin meet" font-size="12">']
    if title:
        out.append(f"<title>{_e(title)}</title>")
    for ri, lrow in enumerate(legend_rows):
        x = 0.0
        y = 4 + ri * 18
        for i, name in lrow:
            out.append(f'<rect x="{x:g}" y="{y}" width="12" height="12" fill="{PALETTE[i % len(PALETTE)]}"/>')
            out.append(f'<text x="{x + 16:g}" y="{y + 11}">{_e(name)}</text>')
            x += 16 + text_width(name, 12) + 12
    for ri, r in enumerate(rows):
        y = legend_h + ri * row_h
        out.append(f'<text x="{label_w - 6:g}" y="{y + 12}" text-anchor="end">'
                   f'{_e(fit(r.label, label_w - 8, 12))}</text>')
        x = float(label_w)
        for si, v in enumerate(r.values):
            if v <= 0:
                continue
            w = bar_w * v / total_max
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" '
                       f'fill="{PALETTE[si % len(PALETTE)]}"><title>{_e(f"{r.label} {series[si]}：{v}")}'
                       f"</title></rect>")
            if w >= 14:
                out.append(f'<text x="{x + w / 2:.1f}" y="{y + 12}" text-anchor="middle" fill="#fff" '
                           f'font-size="11">{v}</text>')
            x += w
        out.append(f'<text x="{x + 4:.1f}" y="{y + 12}" fill="#333">{sum(r.values)}</text>')
    out.append("</svg>")
    return "\n".join(out)
