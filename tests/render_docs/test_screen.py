"""The printed documents as a screen shows them (a captain opening a shared link on a
phone): a bar back to the site's index, certificates that read at 390 px — and none of it
on paper (print.css keeps every screen rule inside ``@media screen``; the PDFs are as
before).  The layout at 390 px itself is measured in Chromium: tests/render_site/test_chromium.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.render.docs import plan_documents, render_documents, render_html, root_of

from .pdfpixels import assert_printed_alike, needs_poppler
from .states import t2015_state, t2016_full_round_state, t2020_state

ROOT = Path(__file__).resolve().parents[2]
PRINT_CSS = (ROOT / "templates" / "print.css").read_text(encoding="utf-8")


def media_blocks(css: str) -> list[tuple[str, str]]:
    """Each top-level ``@media`` block of ``css``: (its condition, its body)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out = []
    for m in re.finditer(r"@media([^{]*)\{", css):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(css[i], 0)
            i += 1
        out.append((m[1].strip(), css[m.end():i - 1]))
    return out


def outside_media(css: str) -> str:
    """``css`` without its ``@media`` blocks (what applies on paper and on a screen)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    for cond, body in media_blocks(css):
        css = css.replace(body, "")
    return css


def rule(css: str, selector: str) -> str:
    """The declarations of the rules of ``css`` for exactly ``selector`` (joined)."""
    return " ".join(m[1] for m in re.finditer(r"(?:^|[}\s])" + re.escape(selector) + r"\s*\{([^}]*)\}", css))


def test_root_of_a_document_is_the_way_back_to_the_output_folder():
    assert root_of("notice") == "" and root_of("draws/go-r1") == "../" and root_of("draws/go-r1-cards") == "../"


def test_every_document_links_back_to_the_site_index(tmp_path):
    """A captain who opened a shared standings or draw sheet had no way to the index: each
    document begins with the tournament's name linking index.html — ../index.html from a
    draw sheet in draws/ — in the league's script."""
    for name, state, title in (("t2020", t2020_state(), "第四届教职工棋牌联赛"),
                               ("t2015", t2015_state(), "2015年教職工棋牌比賽")):
        out = tmp_path / name
        paths = [p for p in render_documents(state, out, pdf=False) if p.suffix == ".html"]
        assert any(p.parent.name == "draws" for p in paths) and len(paths) >= 6, paths
        for p in paths:
            html = p.read_text(encoding="utf-8")
            href = "../index.html" if p.parent.name == "draws" else "index.html"
            bar = f'<nav class="doc-top"><a href="{href}">{title}</a></nav>'
            assert html.count('<nav class="doc-top">') == 1 and bar in html, (p, href)
            assert html.index(bar) < html.index("<h1") if "<h1" in html else True, p


def test_the_bar_is_screen_only():
    """print.css hides the bar in print, and styles it on screens only: the PDFs do not
    change."""
    prints = [body for cond, body in media_blocks(PRINT_CSS) if cond == "print"]
    assert any(re.search(r"display:\s*none", rule(body, "nav.doc-top")) for body in prints), prints
    assert "doc-top" not in outside_media(PRINT_CSS)
    screens = [body for cond, body in media_blocks(PRINT_CSS) if cond.startswith("screen")]
    assert any(rule(body, "nav.doc-top") for body in screens)


def test_certificates_un_fix_their_paper_size_on_a_narrow_screen():
    """A certificate's 188 mm height, 40 pt title and absolutely placed issuer are paper's:
    a narrow screen's rules (and only a screen's) give it its own height and put the
    issuer in the flow."""
    paper = outside_media(PRINT_CSS)
    assert "188mm" in rule(paper, ".certificate") and "absolute" in rule(paper, ".certificate .issuer")
    narrow = [body for cond, body in media_blocks(PRINT_CSS)
              if cond.startswith("screen") and "max-width" in cond]
    assert any(re.search(r"height:\s*auto", rule(b, ".certificate")) for b in narrow), narrow
    assert any(re.search(r"height:\s*auto", rule(b, ".certificate .inner")) for b in narrow)
    assert any(re.search(r"position:\s*static", rule(b, ".certificate .issuer")) for b in narrow)
    assert not any("certificate" in body for cond, body in media_blocks(PRINT_CSS) if "screen" not in cond)


@needs_poppler
@pytest.mark.parametrize("stem", ["draws/guandan-r1-cards", "draws/guandan-r1"])
def test_the_bar_leaves_the_pdf_as_it_was(tmp_path, stem):
    """The PDF of a document is the PDF of that document without its bar, pixel for pixel —
    table cards included, whose every second card ends a page (counted by type: the bar
    is no card)."""
    doc = next(d for d in plan_documents(t2016_full_round_state()) if d.stem == stem)
    html = render_html(doc)
    assert_printed_alike(html, re.sub(r'<nav class="doc-top">.*?</nav>\n?', "", html, flags=re.S), tmp_path)
