"""render_site: files, determinism, safety (escaping, offline), script conversion."""
from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

from pipeline.render.site import render_site

from .conftest import EVIL, make_state


class _Refs(HTMLParser):
    """Collects (tag, attribute, value) of every src/href-like attribute, and script tags."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "srcset", "data", "poster", "action"):
                self.refs.append((tag, k, v or ""))
            if k == "style" and v and "url(" in v:
                self.refs.append((tag, k, v))


def _refs(html: str) -> _Refs:
    p = _Refs()
    p.feed(html)
    return p


def test_render_site_writes_every_page(tmp_path):
    paths = render_site(make_state(), tmp_path)
    rel = sorted(str(p.relative_to(tmp_path)) for p in paths)
    assert rel[:3] == ["branches/_.unassigned.html", "branches/u01.html", "branches/u02.html"]
    assert "index.html" in rel and "events/xiangqi.html" in rel and "events/go.html" in rel
    assert len(rel) == 1 + 3 + 11 + 1
    assert all(p.is_file() for p in paths)
    # atomic writes leave no temporary files behind
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".")]



def test_the_site_in_parts_is_the_whole_site(tmp_path):
    """A run writes the event pages while the returned copies are made, the index and
    branch pages after: together the same pages, byte for byte."""
    import pytest

    whole, split = tmp_path / "whole", tmp_path / "split"
    render_site(make_state(), whole)
    events = render_site(make_state(), split, parts=("events",))
    assert {p.parent.name for p in events} == {"events"}
    rest = render_site(make_state(), split, parts=("index", "branches"))
    assert {p.relative_to(split) for p in events + rest} == {p.relative_to(whole) for p in whole.rglob("*.html")}
    for p in whole.rglob("*.html"):
        assert p.read_bytes() == (split / p.relative_to(whole)).read_bytes(), p
    with pytest.raises(ValueError):
        render_site(make_state(), split, parts=("event",))

def test_output_is_byte_identical_and_unchanged_files_are_not_rewritten(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    render_site(make_state(), a)
    render_site(make_state(), b)
    for p in a.rglob("*.html"):
        assert p.read_bytes() == (b / p.relative_to(a)).read_bytes(), p
    index = a / "index.html"
    os.utime(index, (1_000_000, 1_000_000))
    render_site(make_state(), a)
    assert index.stat().st_mtime == 1_000_000


def test_changed_state_rewrites_page(tmp_path):
    state = make_state()
    render_site(state, tmp_path)
    state.events["go"].waiting = "等待加赛成绩"
    render_site(state, tmp_path)
    assert "等待加赛成绩" in (tmp_path / "index.html").read_text()


def test_names_are_escaped_everywhere(tmp_path):
    for p in render_site(make_state(), tmp_path):
        html = p.read_text(encoding="utf-8")
        assert "<script" not in html.lower(), p
    index = (tmp_path / "index.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index
    report = (tmp_path / "branches" / "u02.html").read_text()
    assert "&lt;script&gt;" in report          # inside an issue message
    event = (tmp_path / "events" / "xiangqi.html").read_text()
    assert "&lt;script&gt;" in event


def test_pages_are_offline_and_phone_ready(tmp_path):
    from pipeline.render.docs import render_documents

    render_documents(make_state(), tmp_path, pdf=False)     # the index links the documents
    for p in render_site(make_state(), tmp_path):
        html = p.read_text(encoding="utf-8")
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
        assert "数据更新时间：2020年11月18日 18:05" in html
        assert '<html lang="zh-CN">' in html
        refs = _refs(html)
        assert refs.scripts == 0
        for tag, attr, value in refs.refs:
            assert tag == "a" and attr == "href", (p, tag, attr, value)
            assert not re.match(r"\s*(https?:)?//", value), (p, value)
            if not value.startswith(("#", "mailto:")):
                target = (p.parent / value.split("#")[0]).resolve()
                if value.endswith(".html"):
                    assert target.is_file(), (p, value)      # every site link works
        assert "@import" not in html and "url(" not in html


def test_traditional_script(tmp_path):
    render_site(make_state(script="traditional"), tmp_path)
    index = (tmp_path / "index.html").read_text()
    assert '<html lang="zh-Hant">' in index
    assert "聯賽" in index and "联赛" not in index
    assert "數據更新時間" in index
    event = (tmp_path / "events" / "xiangqi.html").read_text()
    assert "對陣圖" in event and "淘汰賽" in event          # SVG text converted too
    report = (tmp_path / "branches" / "u02.html").read_text()
    assert "錯誤" in report and "错误" not in report


def test_T2015_traditional_in_the_client_documents_character_forms():
    """The client's Traditional notice (seed 002) writes 為 and 臺; a TCM school's units are
    臨床 (OpenCC's plain s2t wrote 爲 and 臨牀, forms no reader of that notice uses)."""
    from pipeline.text import convert

    assert convert("为更好地推动", "traditional") == "為更好地推動"
    assert convert("临床医学院分工会", "traditional") == "臨床醫學院分工會"
    assert convert("信息工程学院", "traditional") == "信息工程學院"      # no Taiwan vocabulary


def test_traditional_pages_keep_file_names_as_on_disk():
    """A Traditional page told the referee to fill results/xiangqi-r3-成績表.xlsx — no such
    file (it is 成绩表); a received file's name in 《》 is as it was sent."""
    from pipeline.text import convert

    said = convert("裁判填好成绩表（results/xiangqi-r3-成绩表.xlsx）；把名次填入 forms/go-r5-加赛表.xlsx；"
                   "成绩表《go-r1-成绩表.xlsx》；参见《中国象棋竞赛规则》", "traditional")
    assert "results/xiangqi-r3-成绩表.xlsx" in said and "forms/go-r5-加赛表.xlsx" in said
    assert "《go-r1-成绩表.xlsx》" in said and "裁判填好成績表" in said
    assert "《中國象棋競賽規則》" in said                    # a title, not a file: converted
    assert "《基础医学院分工会-报名表（1）.xlsx》" in convert("已被《基础医学院分工会-报名表（1）.xlsx》取代", "traditional")
    cell = convert("<tr><td>针灸推拿学院分工会-报名表.xlsx</td><td>已接受</td></tr>", "traditional")
    assert "<td>针灸推拿学院分工会-报名表.xlsx</td>" in cell and "已接受" in cell      # a unit page's file column


def test_traditional_unit_pages_keep_every_received_file_name(tmp_path):
    """branches/t04.html listed 針灸推拿學院分工會-報名表（bad-phone）.xlsx for the captain's
    针灸推拿学院分工会-报名表（bad-phone）.xlsx (a name with brackets in a table cell), and a
    name in “” or of a .docx in 《》 was converted too: a file name is the sender's own."""
    import dataclasses
    import datetime as dt

    from pipeline.issues import issue
    from pipeline.model import CellRef

    state = make_state(script="traditional")
    bad, other, doc = ("针灸推拿学院分工会-报名表（bad-phone）.xlsx", "后勤服务分工会-报名表（other-template）.xlsx",
                       "报名表（最终版）.docx")
    state.submissions = [dataclasses.replace(s, file=bad) if s.file == "u02.xlsx" else s for s in state.submissions]
    state.submissions.append(dataclasses.replace(state.submissions[0], sha256="e" * 64, file=other, branch="u02",
                                                 status="rejected", received=state.submissions[0].received
                                                 + dt.timedelta(days=3)))
    state.issues = [dataclasses.replace(i, file=bad) if i.file == "u02.xlsx" else i for i in state.issues] + [
        issue("TEMPLATE_MISMATCH", f"“{other}”是比赛“t2011-court”的报名表，不是本次比赛的。", at=CellRef(other),
              branch="u02"),
        issue("NO_ATTACHMENT", f"邮件《报名.eml》的附件 《{doc}》 不是 Excel 工作簿（.xlsx）。", branch="u02")]
    render_site(state, tmp_path)
    page = (tmp_path / "branches" / "u02.html").read_text(encoding="utf-8")
    for name in (bad, other, doc):
        assert name in page, name
    assert "針灸推拿學院分工會" not in page and "後勤服務分工會" not in page and "報名表（最終版）" not in page
    assert "錯誤" in page and "是比賽" in page          # the words around the names are converted
    assert "\ue000" not in page and "\ue001" not in page
    simplified = make_state()
    simplified.submissions = [dataclasses.replace(s, file=bad) if s.file == "u02.xlsx" else s
                              for s in simplified.submissions]
    render_site(simplified, tmp_path / "s")
    page = (tmp_path / "s" / "branches" / "u02.html").read_text(encoding="utf-8")
    assert f'<td class="break">{bad}</td>' in page


def test_traditional_script_keeps_peoples_names(tmp_path):
    """OpenCC made the surname 于 of 于力 於 (the preposition) and 余华 餘華; a person's
    name is converted as a name, the text around it as text."""
    import dataclasses

    from pipeline.render.docs import render_documents
    from pipeline.text import convert, convert_name, names_kept

    state = make_state(script="traditional")
    es = state.events["xiangqi"]
    first = es.entries[0]
    renamed = dataclasses.replace(first, team="于力", players=tuple(
        dataclasses.replace(p, name="于力", display_name="于力") for p in first.players))
    es.entries[0] = renamed
    state.entries = [renamed if e.id == first.id else e for e in state.entries]
    render_site(state, tmp_path)
    render_documents(state, tmp_path, pdf=False)
    event = (tmp_path / "events" / "xiangqi.html").read_text()
    assert "于力" in event and "於力" not in event
    assert "於力" not in (tmp_path / "standings.html").read_text()
    assert (convert_name("余华"), convert_name("沈阳明"), convert_name("黄发")) == ("余華", "沈陽明", "黃發")
    with names_kept(["于力"]):
        assert convert("关于于力的比赛", "traditional") == "關於于力的比賽"
    assert convert("于力", "traditional") == "於力"       # outside a page's names: plain OpenCC


def test_the_returned_copy_button_is_quiet_when_nothing_is_wrong(tmp_path):
    """u01 has only a warning-free info and a QUOTA_SHORT warning; without them its returned
    copy holds no problem, and the page must not call it 已标注问题 in red."""
    state = make_state()
    render_site(state, tmp_path)
    assert "已标注问题" in (tmp_path / "branches" / "u02.html").read_text()
    state.issues = [i for i in state.issues if i.branch != "u01"]
    render_site(state, tmp_path)
    page = (tmp_path / "branches" / "u01.html").read_text()
    assert "未发现问题" in page and "已标注问题" not in page and 'class="button quiet"' in page


def test_the_award_totals_show_a_prize_column_only_with_prize_money(tmp_path):
    """Certificates and 奖品 only: no 奖金（元） column of blanks on the index."""
    import dataclasses

    state = make_state()
    render_site(state, tmp_path / "money")
    assert "奖金（元）" in (tmp_path / "money" / "index.html").read_text(encoding="utf-8")
    state.awards[:] = [dataclasses.replace(a, prize=0) for a in state.awards]
    state.branch_awards[:] = [dataclasses.replace(a, prize=0) for a in state.branch_awards]
    render_site(state, tmp_path / "none")
    assert "奖金（元）" not in (tmp_path / "none" / "index.html").read_text(encoding="utf-8")
    # nor on an event's page (it had a 奖金 column of blanks)
    for page in (tmp_path / "none" / "events").glob("*.html"):
        assert "<th class=\"num\">奖金</th>" not in page.read_text(encoding="utf-8"), page.name
    assert any("<th class=\"num\">奖金</th>" in p.read_text(encoding="utf-8")
               for p in (tmp_path / "money" / "events").glob("*.html"))


def test_a_finished_events_standings_are_the_final_ones():
    """An event that has ended said 当前排名 (the current standings) over its final table."""
    from pipeline.render.site import render_event

    state = make_state()
    assert state.events["xiangqi"].complete
    assert '<h2 id="standings">最终排名</h2>' in render_event(state, "xiangqi") and "当前排名" not in render_event(state, "xiangqi")
    state.events["xiangqi"].complete = False
    assert '<h2 id="standings">当前排名</h2>' in render_event(state, "xiangqi")


# -- the site's stylesheet: structural checks of what a phone and a printer get ---------------
def _site_css_rules() -> list[tuple[str, str, dict[str, str]]]:
    """templates/site.css as (media condition or "", selector, {property: value}) per
    selector of each rule (comments stripped; one level of @media nesting)."""
    css = (Path(__file__).resolve().parents[2] / "templates" / "site.css").read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules: list[tuple[str, str, dict[str, str]]] = []

    def block(text: str, media: str) -> None:
        i = 0
        while True:
            m = re.compile(r"([^{}]+)\{").search(text, i)
            if not m:
                return
            head, depth, j = m[1].strip(), 1, m.end()
            while depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            body = text[m.end():j - 1]
            if head.startswith("@media"):
                block(body, head[len("@media"):].strip())
            else:
                decls = dict((k.strip(), v.strip()) for k, _, v in
                             (d.partition(":") for d in body.split(";") if ":" in d))
                for sel in head.split(","):
                    rules.append((media, " ".join(sel.split()), decls))
            i = j

    block(css, "")
    return rules


def _applies(media: str, where: str) -> bool:
    """Whether a rule under ``media`` applies on a 390 px phone (``where="phone"``) or on A4
    paper (``"print"``, 718 px wide)."""
    if not media:
        return True
    if where == "print":
        if "screen" in media:
            return False
        m = re.search(r"max-width:\s*([\d.]+)rem", media)
        return "print" in media or not (m and float(m[1]) * 16 < 718)
    if "print" in media:
        return False
    m = re.search(r"min-width:\s*([\d.]+)rem", media)
    return not (m and float(m[1]) * 16 > 390)


def _declared(where: str, selector_re: str, prop: str) -> list[str]:
    """The values ``prop`` is given, where a rule applies, by selectors matching ``selector_re``."""
    return [d[prop] for media, sel, d in _site_css_rules()
            if prop in d and re.search(selector_re, sel) and _applies(media, where)]


def _header(html: str, table_class: str) -> list[str]:
    i = html.index(f'<table class="{table_class}"')
    head = html[i:html.index("</thead>", i)]
    return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head)]


def test_standings_on_a_phone_show_the_points_and_whole_names():
    """At 390 px a Swiss standings table (T2015 围棋、双扣) showed 名次 to 胜和负 and no
    积分: 胜和负 ("2勝0和2負，輪空1", nowrap) took 132 px before it, and the 参赛者 column,
    squeezed, broke names inside ("馮凱|勇/秦磊", "体育部1|队").  积分 comes right after the
    unit, the record may wrap, and a team's or player's name breaks only between names."""
    from pipeline.render.site import render_event

    page = render_event(make_state(), "xiangqi")
    head = _header(page, "standings")
    assert head[:4] == ["名次", "参赛者", "单位", "积分"], head
    rows = page[page.index('<table class="standings"'):]
    rows = rows[:rows.index("</table>")]
    assert '<td class="nowrap">' not in rows and '<td class="record">2胜0和0负' in rows      # the record may wrap
    # (each name a span kept on one line: the names filter)
    assert re.search(r'<td class="name"><span class="nm">[^<]+</span></td><td class="unit">分会\d+</td>', rows), rows[:600]
    assert "nowrap" not in _declared("phone", r"td\.record$", "white-space")
    for where in ("phone", "print"):
        assert "keep-all" in _declared(where, r"(^|\s)td\.name$", "word-break"), where
    # (the award list's holders too)
    awards = page[page.index('<h2 id="awards">获奖名单</h2>'):page.index("</table>", page.index('<h2 id="awards">获奖名单</h2>'))]
    assert '<td class="name">' in awards


def test_a_branch_pages_problem_wraps_on_a_phone(tmp_path):
    """branches/b11.html (T2020 with the mistakes inbox) at 390 px: 问题清单 was 528 px wide,
    the last characters of every line of 问题 hidden and 代码 off the screen.  On a phone
    each problem is a block of its own (no table columns to share the width), its location
    may wrap, and the message breaks even inside an e-mail address."""
    render_site(make_state(), tmp_path)
    page = (tmp_path / "branches" / "u02.html").read_text(encoding="utf-8")
    rows = page[page.index('<table class="issues"'):]
    rows = rows[:rows.index("</table>")]
    # (its place in the 位置 cell only: the message no longer starts with it as well)
    assert re.search(r'<td class="where">报名表!B7<br>.*?</td><td class="msg">“象棋” 超出名额', rows), rows[:800]
    assert '<td class="where">' in rows and "nowrap" not in rows
    assert "block" in _declared("phone", r"table\.issues (tr|td)$", "display")
    assert "none" in _declared("phone", r"table\.issues thead$", "display")
    assert "anywhere" in _declared("phone", r"table\.issues td\.msg$", "overflow-wrap")
    # (a level's badge took the 5em every other table's cell has on a phone)
    assert [sel for media, sel, d in _site_css_rules() if d.get("min-width") == "5em" and _applies(media, "phone")
            and re.search(r"(^|\s)td\b", sel)] == [".scroll table:not(.issues) td:not(.num):not(.center)"]


def test_the_index_tally_total_follows_the_unit_and_covers_no_award(tmp_path):
    """T2020's index at 390 px: the sticky 合计 column (at the box's right edge) covered
    决赛参与奖 ("决赛参 合计"), and T2015's rows did not add up with four award columns out
    of sight.  合计 comes right after the unit, in the table's flow: nothing overlaps."""
    render_site(make_state(), tmp_path)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    i = index.index('<h2 id="awards">各单位获奖统计</h2>')
    head = _header(index[i:], "tally")
    assert head[:3] == ["名次", "单位", "合计"], head
    assert head[3:] and "合计" not in head[3:]
    assert not [sel for media, sel, d in _site_css_rules() if d.get("position") == "sticky"]


def test_site_pages_print_whole_rows_and_boxes_and_keep_headings_with_their_content():
    """Printed from the browser, an event page (T2020 象棋, T2015 双扣: ten pages) split
    match boxes and table rows over two pages and left 对阵图 alone at a page's foot: the
    rules that keep them whole were in print.css, which the site does not load."""
    for sel in (r"^tr$", r"^\.table-box$", r"^\.card$", r"^dl\.facts div$"):
        assert "avoid" in _declared("print", sel, "break-inside"), sel
    for sel in (r"^h2$", r"^h3$", r"^details\.round summary$"):
        assert "avoid" in _declared("print", sel, "break-after"), sel
    assert "table-header-group" in _declared("print", r"^thead$", "display")
    # a bracket (786 px) is scaled to the page's width: Chromium shrank the whole page to fit it
    assert "100%" in _declared("print", r"^svg\.bracket$", "max-width")


def test_R2011_F2_an_unfinished_events_page_says_up_to_which_round():
    """Audit 41: an event page under way said 当前排名 over its tables, but not up to which
    round they stand (handbook 五: the line under a current order); in Traditional too.
    An ended event's page says no such thing."""
    from pipeline.render.site import render_event

    for script, said in (("simplified", "说明：比赛尚未结束，此表为截至"), ("traditional", "說明：比賽尚未結束，此表為截至")):
        state = make_state(script)
        assert state.events["xiangqi"].complete
        assert "尚未结束" not in render_event(state, "xiangqi") and "尚未結束" not in render_event(state, "xiangqi")
        state.events["xiangqi"].complete = False
        page = render_event(state, "xiangqi")
        assert said in page, script
