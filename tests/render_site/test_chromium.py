"""Every page opened in headless Chromium: the screenshot is not blank, nothing is
fetched from the network and nothing is logged to the console."""
from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from pipeline.render.site import render_site

from .conftest import make_state

CHROMIUM = "/usr/bin/chromium"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs /usr/bin/chromium (headless)")


def screenshot(page: Path, png: Path, profile: Path, size: str = "390,844") -> str:
    """Screenshot ``page`` into ``png``; return Chromium's log (stderr)."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--host-resolver-rules=MAP * ~NOTFOUND",     # nothing could leave the machine anyway
           "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}",
           f"--screenshot={png}", f"--window-size={size}", "--hide-scrollbars", page.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    return proc.stderr


def colours(png: Path) -> int:
    with Image.open(png) as im:
        small = im.convert("RGB").resize((97, 211))
        return len(small.getcolors(maxcolors=97 * 211) or ())


def _check(args):
    page, png, profile, size = args
    log = screenshot(page, png, profile, size)
    return page, png, log


def test_every_page_renders_in_chromium(tmp_path):
    site = tmp_path / "site"
    pages = render_site(make_state(), site)
    jobs = []
    for i, page in enumerate(pages):
        png = tmp_path / f"shot{i}.png"
        jobs.append((page, png, tmp_path / f"profile{i}", "390,844"))
    # the bracket page at desktop width as well
    jobs.append((site / "events" / "xiangqi.html", tmp_path / "desktop.png", tmp_path / "profile-d", "1280,900"))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(_check, jobs))
    for page, png, log in results:
        assert png.is_file(), (page, log[-2000:])
        assert colours(png) > 8, f"{page} looks blank"
        bad = [line for line in log.splitlines()
               if "CONSOLE" in line or "Failed to load resource" in line or "net::ERR" in line]
        assert not bad, (page, bad)
    for i in range(len(jobs)):
        shutil.rmtree(tmp_path / f"profile{i}", ignore_errors=True)


def test_blank_page_and_console_message_are_detected(tmp_path):
    """The checks can fail: an empty page has one colour, and a console message is logged."""
    empty = tmp_path / "empty.html"
    empty.write_text('<!DOCTYPE html><html><body><script>console.error("boom")</script></body></html>')
    png = tmp_path / "empty.png"
    log = screenshot(empty, png, tmp_path / "profile")
    assert colours(png) <= 2
    assert any("CONSOLE" in line and "boom" in line for line in log.splitlines())


def _dump_dom(wrapper: Path, profile: Path) -> str:
    """The DOM of ``wrapper`` (a page framing the one measured) once its scripts have run, in
    headless Chromium with no network and its own profile folder."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
           "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={profile}",
           "--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom", wrapper.as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=90).stdout


def page_width(page: Path, tmp_path: Path, width: int = 390, element: str = "") -> tuple[int, int]:
    """(scrollWidth, clientWidth) of ``page`` laid out ``width`` px wide by Chromium (in an
    iframe: headless Chromium makes no window narrower than 500 px); of its first
    ``element`` (a CSS selector) when given."""
    wrapper = tmp_path / f"w-{page.stem}.html"
    pick = f'this.contentDocument.querySelector("{element}")' if element else "this.contentDocument.documentElement"
    wrapper.write_text(
        f'<!DOCTYPE html><html><body><iframe id="f" style="width:{width}px;height:800px" src="{page.as_uri()}"></iframe>'
        f'<script>document.getElementById("f").onload = function () {{ var d = {pick};'
        ' document.body.setAttribute("data-w", d.scrollWidth + "/" + d.clientWidth); };</script></body></html>',
        encoding="utf-8")
    dom = _dump_dom(wrapper, tmp_path / ("p-" + page.stem))
    import re

    m = re.search(r'data-w="(\d+)/(\d+)"', dom)
    assert m, dom[-500:]
    return int(m[1]), int(m[2])


def test_wide_documents_do_not_make_a_phone_pan_sideways(tmp_path):
    """The site links the printed documents; on a phone T2015's standings (825 px) and awards
    (795 px) made the whole page pan sideways: their tables scroll in their own box."""
    from pipeline.render.docs import render_documents

    from tests.render_docs.states import t2015_state

    out = tmp_path / "docs"
    render_documents(t2015_state(), out, pdf=False)
    for name in ("standings.html", "awards.html"):
        scroll, client = page_width(out / name, tmp_path)
        assert scroll <= client, (name, scroll, client)


def test_a_branch_pages_problems_read_on_a_phone(tmp_path):
    """问题清单's 位置 cell (nowrap) held the file's name in a span meant to break: it
    inherited nowrap, the column grew to the name's length and the problem itself was
    off-screen (a table 800 px wide on a 390 px phone)."""
    from pipeline.issues import issue
    from pipeline.model import CellRef

    state = make_state()
    name = "行政第一分工会第四届教职工棋牌联赛报名表最终版修改后再次修改.xlsx"
    state.issues.append(issue("BAD_VALUE", "报名表!E12 “1390000” 不是有效的手机号码，请填写 11 位数字。",
                              at=CellRef(name, "报名表", "E12"), branch="u02"))
    render_site(state, tmp_path / "site")
    scroll, _ = page_width(tmp_path / "site" / "branches" / "u02.html", tmp_path, element="table.issues")
    assert scroll <= 420, scroll


def test_a_table_wider_than_the_phone_shows_a_shadow_where_it_scrolls(tmp_path):
    """On a phone nothing showed that a standings table went on to the right: the box of a
    table that overflows has a shadow on its right edge (none on the left, where it
    starts); a table that fits has none."""
    css = (Path(__file__).resolve().parents[2] / "templates" / "site.css").read_text(encoding="utf-8")
    row = '<tr><td style="height:40px;padding:0"></td></tr>'
    page = tmp_path / "scroll.html"
    page.write_text(
        f'<!DOCTYPE html><html><head><style>body{{margin:0}} {css}</style></head><body>'
        f'<div style="width:300px"><div class="scroll"><table style="width:800px;border-collapse:collapse">{row}</table></div>'
        f'<div class="scroll"><table style="border-collapse:collapse">{row}</table></div></div></body></html>',
        encoding="utf-8")
    png = tmp_path / "scroll.png"
    log = screenshot(page, png, tmp_path / "profile", size="600,200")
    assert png.is_file(), log[-2000:]
    with Image.open(png) as im:
        rgb = im.convert("RGB")
        wide_right, wide_left = rgb.getpixel((297, 20)), rgb.getpixel((2, 20))
        fits_right = rgb.getpixel((297, 60))
    assert max(wide_right) < 235, wide_right            # the shadow: more to see on the right
    assert min(wide_left) > 250 and min(fits_right) > 250, (wide_left, fits_right)


# -- the printed documents on a phone (390 px) ----------------------------------------------
def phone_measure(page: Path, tmp_path: Path, script: str, width: int = 390):
    """Lay ``page`` out ``width`` px wide in Chromium (an iframe, as :func:`page_width`) and
    return what ``script`` — a function body of ``d`` (the page's document) returning
    something JSON can hold — finds there."""
    import html
    import json
    import re

    wrapper = tmp_path / f"m-{page.parent.name}-{page.stem}.html"
    wrapper.write_text(
        f'<!DOCTYPE html><html><body><iframe id="f" style="width:{width}px;height:3000px;border:0" src="{page.as_uri()}">'
        '</iframe><script>function measure(d) {' + script + '}\n'
        'document.getElementById("f").onload = function () { var out;'
        ' try { out = measure(this.contentDocument); } catch (e) { out = "error: " + e; }'
        ' document.body.setAttribute("data-m", JSON.stringify(out)); };</script></body></html>',
        encoding="utf-8")
    dom = _dump_dom(wrapper, tmp_path / ("q-" + page.parent.name + page.stem))
    m = re.search(r'data-m="([^"]*)"', dom)
    assert m, dom[-500:]
    out = json.loads(html.unescape(m[1]))
    assert not (isinstance(out, str) and out.startswith("error")), out
    return out


#: each line of an element's text: {top: width} (a Range's rectangles, one or more a line)
LINES_JS = """
function lines(el) {
  var r = el.ownerDocument.createRange(); r.selectNodeContents(el);
  var tops = {};
  Array.prototype.forEach.call(r.getClientRects(), function (x) {
    if (x.width > 0) { var t = Math.round(x.top / 4); tops[t] = (tops[t] || 0) + x.width; } });
  return Object.keys(tops).sort(function (a, b) { return a - b; }).map(function (k) { return tops[k]; });
}
"""


def _award_states():
    """The T2016 award list as its sample has it (teams 经济2队 of the 经济学院分工会, two
    players each, no prizes), and T2015's with every discretionary award (nine columns of
    获奖统计 in the sample; seven here)."""
    from pipeline.state import AwardRow

    from tests.render_docs.states import t2015_state, t2016_state

    s16 = t2016_state()
    s16.awards = [AwardRow("guandan", "A", "小组第一名", 1, "文学院12队", "b1", "杜军芳/武丽红", 0, "guandan-b1-1"),
                  AwardRow("guandan", "A", "小组第二名", 2, "商学院1队", "b2", "邓平怡/范磊", 0, "guandan-b2-1")]
    s15 = t2015_state()
    for award in ("潜力选手奖", "优胜奖", "特别贡献奖"):
        s15.awards.append(AwardRow("go", "", award, 0, "陈晓岚", "t02", "陈晓岚", 0, "go-t02-1"))
    return s16, s15


def test_a_certificate_reads_on_a_phone(tmp_path):
    """On a phone each certificate kept its 188 mm and 40 pt of paper: 荣誉证书 a character a
    line, the issuer (placed absolutely) over the text, the text running into the next
    certificate.  Now a card: the title on one line, the issuer under the text, nothing
    spilling out of its frame or over the next."""
    from pipeline.render.docs import render_documents

    out = tmp_path / "docs"
    render_documents(_award_states()[0], out, pdf=False)
    got = phone_measure(out / "certificates.html", tmp_path, LINES_JS + """
      var cs = d.querySelectorAll(".certificate"), res = [];
      for (var i = 0; i < cs.length; i++) {
        var c = cs[i], inner = c.querySelector(".inner"), issuer = c.querySelector(".issuer").getBoundingClientRect();
        var text = Math.max.apply(null, Array.prototype.map.call(c.querySelectorAll(".body, .branch"),
                                                                 function (e) { return e.getBoundingClientRect().bottom; }));
        res.push({title: lines(c.querySelector(".cert-title")).length, issuer_top: issuer.top, text_bottom: text,
                  spill: inner.scrollHeight - inner.clientHeight, bottom: c.getBoundingClientRect().bottom,
                  top: c.getBoundingClientRect().top});
      }
      return res;""")
    assert len(got) == 2, got
    for c in got:
        assert c["title"] == 1, c
        assert c["issuer_top"] >= c["text_bottom"], c
        assert c["spill"] <= 1, c
    assert got[1]["top"] >= got[0]["bottom"], got


def test_an_award_list_reads_on_a_phone(tmp_path):
    """At 390 px the award list broke team names inside ("经济2 / 队"), cut the 队员 column
    at the right edge and left 名单 alone under its title; T2015's 获奖统计 stacked its
    headings a character a line.  Names break only between players (after "/"), every
    column is on the screen, a title's last line holds more than a character or two."""
    from pipeline.render.docs import render_documents

    s16, s15 = _award_states()
    for name, state in (("t2016", s16), ("t2015", s15)):
        out = tmp_path / name
        render_documents(state, out, pdf=False)
        got = phone_measure(out / "awards.html", tmp_path, LINES_JS + """
          var res = {names: [], tables: [], heads: [], title: null};
          Array.prototype.forEach.call(d.querySelectorAll("tbody tr"), function (tr) {
            var th = tr.closest("table").querySelectorAll("thead th");
            Array.prototype.forEach.call(tr.children, function (td, i) {
              var h = th[i] ? th[i].textContent : "";
              if (/^(队名|隊名|队员|隊員|姓名)$/.test(h) && td.textContent.trim())
                res.names.push([td.textContent, lines(td).length]);
            });
          });
          Array.prototype.forEach.call(d.querySelectorAll("table"), function (t) {
            // (a team's table with a 奖金 column, six wide, may scroll in its box)
            if (t.classList.contains("totals") || !/奖金|獎金/.test(t.querySelector("thead").textContent))
              res.tables.push([t.scrollWidth, t.clientWidth]); });
          Array.prototype.forEach.call(d.querySelectorAll("table.totals th"), function (th) {
            res.heads.push([th.textContent, lines(th).length]); });
          var h1 = d.querySelector("h1"), l = lines(h1);
          res.title = [l.length, l[l.length - 1], parseFloat(getComputedStyle(h1).fontSize)];
          return res;""")
        assert got["names"], got
        for text, n in got["names"]:
            assert n <= 1 + text.count("/"), (name, text, n)       # whole names: a line a player at most
        for scroll, client in got["tables"]:
            assert scroll <= client, (name, got["tables"])        # no column cut at the right edge
        for text, n in got["heads"]:
            assert n <= (len(text) + 1) // 2, (name, text, n)     # two characters a line at least
        n, last, size = got["title"]
        assert n == 1 or last > 2.5 * size, (name, got["title"])


def test_the_index_tally_shows_its_total_on_a_phone(tmp_path):
    """各单位获奖统计 with T2015's award columns hid 合计 beyond the right edge until swiped:
    it stays on the screen."""
    s15 = _award_states()[1]
    site = tmp_path / "site"
    render_site(s15, site)
    got = phone_measure(site / "index.html", tmp_path, """
      var box = null, th = null;
      Array.prototype.forEach.call(d.querySelectorAll(".scroll"), function (b) {
        Array.prototype.forEach.call(b.querySelectorAll("th"), function (h) {
          if (h.textContent === "合計" || h.textContent === "合计") { box = b; th = h; } }); });
      var t = th.getBoundingClientRect(), b = box.getBoundingClientRect();
      return {left: t.left, right: t.right, box: b.right, scroll: box.scrollWidth, client: box.clientWidth};""")
    assert got["scroll"] > got["client"], got           # (the table is wider than the phone)
    assert got["right"] <= got["box"] + 1 and got["left"] < got["box"] - 10, got


def test_a_pair_award_lists_units_read_on_a_phone(tmp_path):
    """T2015's 橋牌 and 雙扣 tables (奖项 名次 队名 单位 队员) at 390 px squeezed 单位 to two
    characters a line (護理/學院/分工/會).  A unit now breaks before its 分工会 where it can —
    more than two characters a line — and every column is still on the screen."""
    from pipeline.render.docs import render_documents
    from pipeline.state import AwardRow

    from tests.render_docs.states import t2015_state

    s15 = t2015_state()
    s15.awards = [AwardRow("shuangkou", "", name, rank, f"{unit}{rank}队", uid, f"刘建川{rank}/杨蓉{rank}", 0,
                           "shuangkou-t01-1")
                  for rank, (name, uid, unit) in enumerate((("第一名", "t01", "基础医学院"), ("第二名", "t02", "临床医学院"),
                                                            ("第三名", "t08", "马院")), 1)]
    s15.branch_awards = []
    out = tmp_path / "docs"
    render_documents(s15, out, pdf=False)
    got = phone_measure(out / "awards.html", tmp_path, LINES_JS + """
      var res = [];
      Array.prototype.forEach.call(d.querySelectorAll("table:not(.totals)"), function (t) {
        var u = Array.prototype.map.call(t.querySelectorAll("thead th"), function (h) { return h.textContent; })
                     .indexOf("單位");
        Array.prototype.forEach.call(t.querySelectorAll("tbody tr"), function (tr) {
          res.push([tr.children[u].textContent, lines(tr.children[u]).length, t.scrollWidth, t.clientWidth]); });
      });
      return res;""")
    assert len(got) == 3, got
    for unit, n, scroll, client in got:
        assert n <= 2 and len(unit) > 2 * n, got           # 基礎醫學院|分工會, not 基礎|醫學|院分|工會
        assert scroll <= client, got
