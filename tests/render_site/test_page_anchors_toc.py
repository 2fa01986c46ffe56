"""In-page navigation on the long pages (audit 38: a 200-unit league's standings.html held
6,034 rows of eight events, events/xqgroups.html 3.5 MB, with no anchor to jump to): each
event's section of the standings and award documents, each group table and stage (and
round) of an event page, and the index's sections carry a stable ASCII ``id``; a page with
more than one such section opens with a 目录 of in-page links, shown on a screen only (the
PDFs are as they were).  Rendered from the sample leagues, as a captain opens them."""
from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pipeline.run import RunOptions, run
from tests.render_docs.pdfpixels import assert_printed_alike, needs_poppler
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
ID_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


class _Nav(HTMLParser):
    """Every ``id`` of a page, every in-page ``href="#…"``, and those inside ``nav.toc``."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.toc: list[str] = []
        self.tocs = 0
        self._depth = 0      # > 0 inside nav.toc

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"] or "")
        if tag == "nav" and "toc" in (a.get("class") or "").split():
            self.tocs += 1
            self._depth = 1
        elif self._depth and tag == "nav":
            self._depth += 1
        href = a.get("href") or ""
        if tag == "a" and href.startswith("#"):
            self.hrefs.append(href[1:])
            if self._depth:
                self.toc.append(href[1:])

    def handle_endtag(self, tag):
        if self._depth and tag == "nav":
            self._depth -= 1


def _nav(path: Path) -> _Nav:
    p = _Nav()
    p.feed(path.read_text(encoding="utf-8"))
    return p


@pytest.fixture(scope="module")
def leagues(tmp_path_factory):
    out = tmp_path_factory.mktemp("nav")
    for name in ("t2011-court", "t2020-league"):
        run(RunOptions(folder=ROOT / "sample_sheets" / name, out_parent=out, pdf=False, now=NOW))
    return out


def _pages(d: Path) -> list[Path]:
    return [d / "index.html", d / "standings.html", d / "awards.html", *sorted((d / "events").glob("*.html"))]


@pytest.mark.parametrize("league", ["t2011-court", "t2020-league"])
def test_every_in_page_link_has_its_anchor(leagues, league):
    """Every ``href="#x"`` of a page has its ``id="x"`` on that page; ids are unique, ASCII,
    and begin with a letter."""
    for p in _pages(leagues / league):
        nav = _nav(p)
        assert len(nav.ids) == len(set(nav.ids)), (p, sorted(i for i in nav.ids if nav.ids.count(i) > 1))
        assert all(ID_RE.match(i) for i in nav.ids), (p, [i for i in nav.ids if not ID_RE.match(i)])
        missing = sorted(set(nav.hrefs) - set(nav.ids))
        assert not missing, (p, missing)


@pytest.mark.parametrize("league", ["t2011-court", "t2020-league"])
def test_standings_and_awards_link_each_event(leagues, league):
    """standings.html and awards.html: an anchor ``ev-<event id>`` on each event's heading and
    a 目录 linking every one of them, before the first event."""
    import yaml

    d = leagues / league
    events = [e["id"] for e in yaml.safe_load((ROOT / "sample_sheets" / league / "tournament.yaml")
                                              .read_text(encoding="utf-8"))["events"]]
    for name in ("standings.html", "awards.html"):
        html = (d / name).read_text(encoding="utf-8")
        nav = _nav(d / name)
        assert nav.tocs == 1, name
        for ev in events:
            assert re.search(rf'<h2 id="ev-{ev}"', html), (name, ev)
            assert f"ev-{ev}" in nav.toc, (name, ev, nav.toc)
        assert html.index('<nav class="toc"') < html.index('<h2 id="ev-')


def test_standings_link_each_group_table(leagues):
    """T2011 中国象棋: four group tables and the 最终名次 under the event — each has its anchor
    and its link in the 目录."""
    d = leagues / "t2011-court"
    html = (d / "standings.html").read_text(encoding="utf-8")
    tables = re.findall(r'<table id="([^"]+)"[^>]*>\s*<caption[^>]*>([^<]*)', html)
    captions = [c for _, c in tables]
    assert [c for c in captions if "组" in c] == [f"小组循环赛 {g}组" for g in "ABCD"], captions
    toc = _nav(d / "standings.html").toc
    assert all(i in toc for i, _ in tables), (tables, toc)


def test_event_page_links_each_group_stage_and_round(leagues):
    """T2011 中国象棋's page (groups, then 半决赛 and 决赛): the 目录 links its four group
    tables, its three stages and its seven rounds, each to its anchor."""
    p = leagues / "t2011-court" / "events" / "xiangqi.html"
    html = p.read_text(encoding="utf-8")
    nav = _nav(p)
    assert nav.tocs == 1
    assert html.index('<nav class="toc"') < html.index("<h2")
    stages = re.findall(r'<section class="stage[^"]*" id="([^"]+)"', html)
    rounds = re.findall(r'<details class="round" id="([^"]+)"', html)
    groups = re.findall(r'<h3 id="([^"]+)">小组循环赛 [A-D]组', html)
    assert len(stages) == 3 and len(rounds) == 7 and len(groups) == 4, (stages, rounds, groups)
    assert rounds == [f"r{k}" for k in range(1, 8)]
    for i in stages + rounds + groups:
        assert i in nav.toc, (i, nav.toc)


def test_index_links_its_sections(leagues):
    nav = _nav(leagues / "t2020-league" / "index.html")
    assert nav.tocs == 1 and {"events", "status"} <= set(nav.toc), nav.toc


def test_anchor_ids_are_ascii_and_deterministic():
    """A label outside ASCII (a group 甲, a stage id with a space) becomes a stable ASCII id;
    the same label gives the same id, distinct labels distinct ids, a repeat a suffix."""
    from pipeline.render.anchors import Anchors, anchor

    assert anchor("ev", "xiangqi") == "ev-xiangqi"
    assert anchor("g", "group", "A") == "g-group-A"
    a, b = anchor("g", "group", "甲"), anchor("g", "group", "乙")
    assert a == anchor("g", "group", "甲") and a != b and ID_RE.match(a) and ID_RE.match(b)
    assert ID_RE.match(anchor("st", "final stage")) and anchor("st", "") == "st"
    ids = Anchors()
    assert [ids.take("st", "ko"), ids.take("st", "ko"), ids.take("st", "ko")] == ["st-ko", "st-ko-2", "st-ko-3"]


def test_toc_is_screen_only():
    """The 目录 is hidden on paper: by the base page's print rule (documents and site)."""
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    prints = re.findall(r"@media print\s*\{([^}]*\})", base)
    assert any(re.search(r"nav\.toc\s*\{[^}]*display:\s*none", b) for b in prints), prints


@needs_poppler
def test_the_toc_leaves_the_standings_pdf_as_it_was(leagues, tmp_path):
    """The standings PDF with its 目录 is the PDF without it, pixel for pixel (T2011: two
    events, four groups)."""
    html = (leagues / "t2011-court" / "standings.html").read_text(encoding="utf-8")
    assert_printed_alike(html, re.sub(r'<nav class="toc".*?</nav>\n?', "", html, flags=re.S), tmp_path)
