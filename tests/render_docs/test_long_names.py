"""Long, dotted and rare names on paper (an audit regenerated the samples with 欧阳司马明华,
阿卜杜热合曼·买买提依明, 迪丽热巴·迪力木拉提 …): a table always fits the A4 page, a name is
never broken inside (司徒端木欣|怡, 阿依努尔·吐尔|逊, a "·" opening a line) — lines break
between names only — and the short column heads (桌号, 组别, 单位, 备注) stay whole."""
from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path

import pytest

from pipeline.render.docs import plan_documents, render_html
from pipeline.render.pdf import html_to_pdf

from .pdfpixels import needs_poppler
from .states import _p, t2016_full_round_state

LONG_A, LONG_B = "阿卜杜热合曼·买买提依明", "迪丽热巴·迪力木拉提"
#: (a pair of long names, a compound surname, a dotted name with a short partner)
LONG = {2: (LONG_A, LONG_B), 5: ("欧阳司马明华", "司徒端木欣怡"), 9: ("古丽娜扎尔·阿卜杜拉", "禤龑"),
        14: ("阿依努尔·吐尔逊托合提", "朱勇勇")}
A4_WIDTH = 595.28           # pt
MARGIN = 16 / 25.4 * 72     # print.css: 16 mm left and right


def long_names_state():
    """t2016_full_round_state's 16-table 掼蛋 round with long names in four pairs (units
    文学院分工会 and 商学院分工会, no short names), and standings of groups A–D (积分, 总局分, 直胜, a 需加赛 row in each)."""
    from pipeline.score.base import StandingRow
    from pipeline.state import StandingTable

    state = t2016_full_round_state()
    es = state.events["guandan"]
    for i, (a, b) in LONG.items():
        e = es.entries[i]
        es.entries[i] = dataclasses.replace(e, players=(_p(a, e.branch), _p(b, e.branch)))
    state.entries = list(es.entries)
    chain = ("game_points", "direct", "playoff")
    tables = []
    for g, k in zip("ABCD", range(4)):
        rows = tuple(StandingRow(es.entries[8 * k + j].id, j + 1 if j != 2 else 2, 300 - 20 * j, score=300 - 20 * j,
                                 played=3, wins=3 - j % 4, losses=j % 4,
                                 tiebreaks={"game_points": 1000 - j, "direct": 0},
                                 playoff_required=j in (1, 2))
                     for j in range(8))
        tables.append(StandingTable("guandan", "group", "分组赛", g, rows, chain))
    es.standings = tables
    return state


def doc(state, stem: str):
    return next(d for d in plan_documents(state) if d.stem == stem)


def words(pdf: Path) -> list[tuple[int, float, float, str]]:
    """Every word poppler finds in ``pdf``: (page, xMin, xMax, text)."""
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    out, page = [], 0
    for line in xml.splitlines():
        if "<page " in line:
            page += 1
        m = re.search(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</word>', line)
        if m:
            out.append((page, float(m[1]), float(m[2]), m[3]))
    return out


def text(pdf: Path) -> str:
    """The PDF's text without its layout (a line a line of the page: a name broken over two
    lines reads with a line break inside)."""
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


@needs_poppler
def test_a_standings_table_with_a_long_named_pair_fits_the_page(tmp_path):
    """T2016 with 阿卜杜热合曼·买买提依明/迪丽热巴·迪力木拉提 in group A: every column of
    nowrap text and widths from the longest cell (22.8 em of 队员) ran off the A4 page's right
    edge — 直胜 cut, 备注 (需加赛) gone, in every group.  The names wrap between the two
    players, the numbers do not, and every table fits the page with its 备注."""
    pdf = html_to_pdf(render_html(doc(long_names_state(), "standings")), tmp_path / "standings.pdf")
    got = words(pdf)
    right = A4_WIDTH - MARGIN + 1
    over = [(p, w) for p, _, x1, w in got if x1 > right]
    assert not over, over
    heads = [w for _, _, _, w in got]
    assert heads.count("备注") >= 4 and heads.count("直胜") >= 4, heads
    assert heads.count("需加赛") == 8
    flat = text(pdf)
    for a, b in LONG.values():
        assert a in flat and b in flat, (a, b)      # each name whole, on one line


def test_a_name_is_a_span_kept_on_one_line():
    """Each name of a name or unit column (队名, 队员, 甲方, 单位 …) is its own nowrap span
    (the ``names`` filter); the text between names (/ 、 a line break) is outside, where a
    line may break."""
    from pipeline.render.jinja import environment

    f = environment().filters["names"]
    assert str(f(f"机关一2队\n{LONG_A}/{LONG_B}")) == (
        f'<span class="nm">机关一2队</span>\n<span class="nm">{LONG_A}</span>/<span class="nm">{LONG_B}</span>')
    assert str(f("方华欣/苏建旭（重组）")) == \
        '<span class="nm">方华欣</span>/<span class="nm">苏建旭</span><wbr><span class="nm">（重组）</span>'
    assert str(f("甲、乙 同志")) == '<span class="nm">甲</span>、<span class="nm">乙</span> <span class="nm">同志</span>'
    assert str(f("<b>")) == '<span class="nm">&lt;b&gt;</span>'
    assert str(f("")) == ""
    long_text = "这是一句很长的说明文字没有任何可以断开的地方一直写下去"
    assert str(f(long_text)) == long_text          # (no name: a long sentence wraps as text does)
    css = (Path(__file__).resolve().parents[2] / "templates" / "base.html").read_text(encoding="utf-8")
    assert re.search(r"\.nm\s*\{[^}]*white-space:\s*nowrap", css)


def test_draw_sheets_cards_and_certificates_print_each_name_in_a_span():
    state = long_names_state()
    es = state.events["guandan"]
    e = es.entries[2]
    from pipeline.state import AwardRow

    state.awards = [AwardRow("guandan", "A", "小组第一名", 1, e.team, e.branch, e.player_names, 0, e.id)]
    span = f'<span class="nm">{LONG_A}</span>'
    for stem in ("draws/guandan-r1", "draws/guandan-r1-cards", "certificates", "standings", "awards"):
        html = render_html(doc(state, stem))
        assert span in html, stem
    draw = render_html(doc(state, "draws/guandan-r1"))
    # (on a phone a unit breaks before its 分工会, on paper never: print.css)
    assert '<td class="unit"><span class="nm">商学院</span><wbr class="unit-word"><span class="nm">分工会</span></td>' in draw


@needs_poppler
@pytest.mark.parametrize("stem", ["draws/guandan-r1", "draws/guandan-r1-cards"])
def test_a_draw_sheet_and_its_cards_never_break_a_name(tmp_path, stem):
    """司徒端木欣 / 怡 on a draw sheet, …迪力木拉 / 提 on a table card, and the draw's
    单位 column squeezed to 图书/馆 (here 商学院分工会), its heads to 桌/号, 组/别, 备/注."""
    pdf = html_to_pdf(render_html(doc(long_names_state(), stem)), tmp_path / "d.pdf")
    flat = text(pdf)
    for a, b in LONG.values():
        assert a in flat and b in flat, (a, b, flat[:2000])
    assert "商学院分工会" in flat and "文学院分工会" in flat
    if not stem.endswith("cards"):
        for head in ("桌号", "组别", "备注", "单位"):
            assert head in flat, head


@needs_poppler
def test_a_certificate_of_a_team_of_eight_never_breaks_a_name(tmp_path):
    """阿依努尔·吐尔 / 逊 on the certificate of an 8-person team: its recipients break between
    names only."""
    from pipeline.model import Entry
    from pipeline.state import AwardRow

    state = long_names_state()
    names = ["欧阳明华", "司马欣怡", "诸葛建国", "上官婉儿", "阿依努尔·吐尔逊", "端木蓉", "慕容复", "令狐冲"]
    team = Entry("guandan-b1-99", "guandan", "b1", "文学院99队", tuple(_p(n, "b1") for n in names), team_no="99")
    state.events["guandan"].entries.append(team)
    state.entries.append(team)
    state.awards = [AwardRow("guandan", "A", "小组第一名", 1, team.team, "b1", team.player_names, 0, team.id)]
    pdf = html_to_pdf(render_html(doc(state, "certificates")), tmp_path / "c.pdf")
    flat = text(pdf)
    for n in names:
        assert n in flat, (n, flat)


@pytest.mark.parametrize("module", ["pipeline.render.viewmodels", "pipeline.render.jinja"])
def test_doctests(module):
    """The examples of name_pieces, column_kind, same_widths, sentence, label_line, names …"""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
