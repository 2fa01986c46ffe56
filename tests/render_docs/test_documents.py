"""HTML and PDF documents: escaping, offline HTML, Traditional script, pdftotext text,
page counts, non-blank pages, the PDF cache, and the missing-font / missing-glyph errors."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from pipeline.render import jinja as J
from pipeline.render.docs import plan_documents, render_documents, render_html
from pipeline.render.pdf import CACHE_FILE, MissingGlyphError, html_to_pdf, render_pdfs

from .pdfpixels import needs_poppler
from .states import EVIL, t2011_state, t2015_state, t2016_full_round_state, t2016_state, t2020_state

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Every document of the t2020-like and t2015-like states, rendered once."""
    out = {}
    for name, build in (("t2020", t2020_state), ("t2015", t2015_state)):
        folder = tmp_path_factory.mktemp(name)
        state = build()
        out[name] = (folder, state, render_documents(state, folder))
    return out


def pdftotext(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


# -- jinja environment ---------------------------------------------------------------------
def test_environment_autoescape_strict_and_zh_filter():
    env = J.environment()
    assert env.autoescape is True or env.autoescape(None)
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ missing }}").render()
    t = env.from_string("{{ x|zh }}|{% filter zh %}获奖{{ y }}{% endfilter %}")
    assert t.render(x="获奖证书", y="<b>", script="traditional") == "獲獎證書|獲獎&lt;b&gt;"
    assert t.render(x="获奖证书", y="<b>", script="simplified") == "获奖证书|获奖&lt;b&gt;"


def test_base_template_lang_font_and_updated_line():
    html = J.render("base.html", title="标题", updated="2020年11月11日 18:30", script="simplified")
    assert '<html lang="zh-CN">' in html
    assert '"Noto Sans CJK SC"' in html and '"Noto Serif CJK SC"' in html
    assert "数据更新时间：2020年11月11日 18:30" in html
    trad = J.render("base.html", title="标题", updated="x", script="traditional")
    assert '<html lang="zh-Hant">' in trad and "數據更新時間" in trad


def test_templates_folder_found_from_package():
    import pipeline

    assert J.TEMPLATES_DIR == Path(pipeline.__file__).parent.parent / "templates"
    assert (J.TEMPLATES_DIR / "base.html").is_file()


# -- HTML ----------------------------------------------------------------------------------
def test_expected_files(rendered):
    folder, state, paths = rendered["t2020"]
    names = sorted(p.relative_to(folder).as_posix() for p in paths)
    assert names == sorted([
        "notice.html", "notice.pdf", "standings.html", "standings.pdf", "awards.html", "awards.pdf",
        "certificates.html", "certificates.pdf",
        "draws/xiangqi-r1.html", "draws/xiangqi-r1.pdf", "draws/xiangqi-r1-cards.html", "draws/xiangqi-r1-cards.pdf",
        "draws/xiangqi-r2.html", "draws/xiangqi-r2.pdf", "draws/xiangqi-r2-cards.html", "draws/xiangqi-r2-cards.pdf"])
    assert all(p.is_file() for p in paths)
    t2015_names = {p.name for p in rendered["t2015"][2]}
    assert {"budget.html", "budget.pdf"} <= t2015_names


def test_injection_escaped_in_html(rendered):
    folder, _, paths = rendered["t2020"]
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    for name in ("draws/xiangqi-r1.html", "draws/xiangqi-r1-cards.html", "awards.html", "certificates.html"):
        html = (folder / name).read_text(encoding="utf-8")
        # (a name is a span kept on one line, cut at "/" as a pair's names are: </script>)
        assert escaped in re.sub(r'<span class="nm">|</span>|<wbr>', "", html), name
        assert "<script" not in html, name


def test_html_is_self_contained(rendered):
    for folder, _, paths in rendered.values():
        for p in paths:
            if p.suffix != ".html":
                continue
            html = p.read_text(encoding="utf-8")
            assert not re.search(r"(?i)<link|<script|src=|@import|url\(|https?://", html), p


def test_R2015_traditional_documents(rendered):
    folder, _, _ = rendered["t2015"]
    notice = (folder / "notice.html").read_text(encoding="utf-8")
    assert '<html lang="zh-Hant">' in notice
    assert "關於舉辦2015年教職工棋牌比賽的通知" in notice and "各分工會：" in notice
    assert "关于举办" not in notice
    awards = (folder / "awards.html").read_text(encoding="utf-8")
    assert "獲獎名單" in awards and "獲獎统计" not in awards


def test_bus_and_budget_html():
    bus = render_html(next(d for d in plan_documents(t2016_state()) if d.stem == "bus"))
    assert "班车乘车名单" in bus and "镇江（2 人）" in bus
    budget = render_html(next(d for d in plan_documents(t2011_state()) if d.stem == "budget"))
    assert "以上共计：1,600 元" in budget
    # 按程序报批开支 (T2015): signed on paper
    assert "经办人：" in budget and "审核人：" in budget and "审批人：" in budget


def test_the_award_list_is_signed_and_dated_as_the_notice_is():
    """获奖名单, printed for leadership to sign, had no issuer or date (only a 数据更新时间 line)."""
    state = t2015_state()
    vm = next(d for d in plan_documents(state) if d.stem == "awards").vm
    assert (vm.issuer, vm.date) == (state.tournament.spec.issuer, "2015年12月5日")
    html = render_html(next(d for d in plan_documents(state) if d.stem == "awards"))
    signed = html.split('<div class="signature">')[1].split("</div>")[0]
    assert "2015年12月5日" in signed and signed.count("<p>") == 2
    assert "數據更新時間" not in html and "数据更新时间" not in html


# -- PDF -----------------------------------------------------------------------------------
@needs_poppler
def test_a_traditional_documents_page_numbers_are_set_in_the_traditional_font(rendered):
    """T2015 prints Traditional: the page footer (第1頁共6頁) was set in Noto Sans CJK SC,
    its glyphs the Simplified forms, beside a body in TC."""
    folder, _, _ = rendered["t2015"]
    fonts = subprocess.run(["pdffonts", str(folder / "standings.pdf")], capture_output=True, text=True,
                           check=True).stdout
    assert "CJK-TC" in fonts and "CJK-SC" not in fonts, fonts
    folder, _, _ = rendered["t2020"]
    fonts = subprocess.run(["pdffonts", str(folder / "standings.pdf")], capture_output=True, text=True,
                           check=True).stdout
    assert "CJK-SC" in fonts and "CJK-TC" not in fonts, fonts


@needs_poppler
def test_pdf_text_and_page_counts(rendered):
    folder, state, _ = rendered["t2020"]
    notice = pdftotext(folder / "notice.pdf")
    assert "关于举办第四届教职工棋牌联赛的通知" in notice
    # (4 before the deadlines were merged, then 3 with 比赛时间： alone at page 1's foot: it keeps
    # with its sessions, and the last notes and the signature go on to page 3)
    assert re.search(r"第\s*1\s*页\s*共\s*4\s*页", notice) and pages(folder / "notice.pdf") == 4
    assert pages(folder / "certificates.pdf") == len(state.awards) + len(state.branch_awards)
    assert pages(folder / "draws/xiangqi-r1-cards.pdf") == 2      # 4 tables, 2 cards per page
    assert pages(folder / "draws/xiangqi-r2-cards.pdf") == 1
    draw = pdftotext(folder / "draws/xiangqi-r2.pdf")
    assert "抽签种子" in draw and "输入摘要" in draw and "轮空" in draw
    assert "索伯分" in pdftotext(folder / "standings.pdf")
    t2015_folder, t2015_state_, _ = rendered["t2015"]
    certs = pdftotext(t2015_folder / "certificates.pdf")
    certs = certs.replace(" ", "")
    assert "榮譽證書" in certs and "荣誉证书" not in certs
    assert pages(t2015_folder / "certificates.pdf") == 4


@needs_poppler
def test_a_table_cards_rows_are_spread_over_the_card(rendered):
    """A 桌签's event title sits at its top and its session line at its bottom, the table
    number and the sides between (print.css lays the card out as a grid of four rows spread
    as flex's space-between did: half WeasyPrint's time).  Stacked as plain blocks, the
    session line stood 170 pt below the title instead of 320 (136 mm cards)."""
    folder, _, _ = rendered["t2020"]
    words = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(folder / "draws/xiangqi-r1-cards.pdf"), "-"],
                           capture_output=True, text=True, check=True).stdout
    tops = [(float(y), w) for y, w in re.findall(r'yMin="([\d.]+)"[^>]*>([^<]+)</word>', words)]
    card = [(y, w) for y, w in tops if y < tops[0][0] + 400]          # the page's first card
    first, last = card[0][0], card[-1][0]
    assert last - first > 290, card
    number = next(y for y, w in card if w == "桌")
    assert first + 60 < number < last - 100, card


@needs_poppler
def test_a_groups_round_of_16_tables_fits_its_draw_table_on_page_one(tmp_path):
    """The t2016 draw sheets spilled their 16th table alone onto page 2 (two-line rows)."""
    doc = next(d for d in plan_documents(t2016_full_round_state()) if d.stem.endswith("guandan-r1"))
    pdf = html_to_pdf(render_html(doc), tmp_path / "draw.pdf")
    first = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout
    assert "选手30甲" in first and "选手31乙" in first          # the 16th table


@needs_poppler
def test_a_draw_sheet_names_its_bye_on_page_one_when_its_notes_run_over(tmp_path):
    """The 轮空 box, the 说明 and the seed line were kept whole: below a 16-table round they
    went to page 2 together, and a sheet posted by its first page did not name the bye.  The
    box now stays under the table; the notes run over.  A draw sheet prints no 数据更新时间
    (it changed with every later night's data; the sheet is dated by its session)."""
    import dataclasses

    from pipeline.model import Entry, Match

    from .states import _p

    state = t2016_full_round_state()
    es = state.events["guandan"]
    bye = Entry("guandan-b2-33", "guandan", "b2", "商学院33队", (_p("轮空甲", "b2"), _p("轮空乙", "b2")), team_no="33")
    es.entries.append(bye)
    state.entries.append(bye)
    rnd = es.rounds[0]
    notes = tuple(f"{g}组抽签顺序：" + "、".join(f"商学院{n}队" for n in range(1, 12)) + "。" for g in "ABCDEFGH")
    es.rounds[0] = dataclasses.replace(rnd, matches=rnd.matches + (Match("guandan", "g", 1, "D", 5, (bye.id,), bye=True),),
                                       notes=notes)
    doc = next(d for d in plan_documents(state) if d.stem.endswith("guandan-r1"))
    html = render_html(doc)
    assert "数据更新时间" not in html
    pdf = html_to_pdf(html, tmp_path / "draw.pdf")
    first = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout
    assert pages(pdf) == 2 and "选手31乙" in first
    assert "轮空甲" in first, first[-400:]
    assert "抽签种子" in pdftotext(pdf)


@needs_poppler
def test_a_standings_bye_note_is_short_and_its_worth_said_once(tmp_path):
    """备注 is the one column that wraps and gets what the others leave: 积分含轮空 1 轮（轮空按
    2分计） ran four characters a line, five-line rows, a row alone on the last page.  A row
    says 含轮空 1 轮; the table's caption says what a bye counts."""
    from pipeline.model import Match, Round

    state = t2015_state()
    es = state.events["go"]
    es.rounds.append(Round("go", "swiss", "瑞士制", 2, (Match("go", "swiss", 2, "", 1, ("go-t01-1",), bye=True),),
                           seed="s", input_hash="00" * 32))
    doc = next(d for d in plan_documents(state) if d.stem == "standings")
    pdf = html_to_pdf(render_html(doc), tmp_path / "standings.pdf")
    text = pdftotext(pdf).replace(" ", "")
    assert "（積分含輪空，輪空按2分計）" in text and "含輪空1輪" in text, text


@needs_poppler
def test_injection_is_text_in_pdf(rendered):
    folder, _, _ = rendered["t2020"]
    assert EVIL in pdftotext(folder / "awards.pdf").replace(" ", "")
    assert EVIL in pdftotext(folder / "draws/xiangqi-r1.pdf").replace(" ", "")


@needs_poppler
def test_pdf_pages_are_not_blank(rendered, tmp_path):
    from PIL import Image

    folder, _, _ = rendered["t2020"]
    for name in ("notice.pdf", "certificates.pdf", "draws/xiangqi-r1-cards.pdf"):
        prefix = tmp_path / name.replace("/", "_")
        subprocess.run(["pdftoppm", "-r", "30", "-gray", "-png", "-f", "1", "-l", "1", str(folder / name),
                        str(prefix)], check=True)
        png = next(tmp_path.glob(prefix.name + "*.png"))
        img = Image.open(png)
        dark = sum(img.histogram()[:128])
        assert dark > 0.002 * img.width * img.height, name


def test_pdf_cache_skips_unchanged(rendered):
    folder, state, _ = rendered["t2020"]
    cache = json.loads((folder / CACHE_FILE).read_text(encoding="utf-8"))
    assert "notice.pdf" in cache and "draws/xiangqi-r1.pdf" in cache
    before = {p: p.stat().st_mtime_ns for p in folder.rglob("*.pdf")}
    render_documents(state, folder)                       # nothing changed
    assert {p: p.stat().st_mtime_ns for p in folder.rglob("*.pdf")} == before
    jobs = [("<html><body><p>第一版</p></body></html>", folder / "x.pdf")]
    assert render_pdfs(jobs, folder / CACHE_FILE) == [folder / "x.pdf"]
    assert render_pdfs(jobs, folder / CACHE_FILE) == []
    (folder / "x.pdf").unlink()                           # a deleted PDF is rendered again
    assert render_pdfs(jobs, folder / CACHE_FILE) == [folder / "x.pdf"]
    changed = [("<html><body><p>第二版</p></body></html>", folder / "x.pdf")]
    assert render_pdfs(changed, folder / CACHE_FILE, workers=2) == [folder / "x.pdf"]


def test_parallel_render(tmp_path):
    jobs = [(f"<html><body><p>第{i}页</p></body></html>", tmp_path / f"{i}.pdf") for i in range(3)]
    done = render_pdfs(jobs, tmp_path / CACHE_FILE, workers=2)
    assert sorted(done) == sorted(p for _, p in jobs)
    assert all(p.read_bytes().startswith(b"%PDF") for _, p in jobs)
    assert not list(tmp_path.glob(".*.tmp"))


def test_parallel_render_in_batches_of_fresh_workers(tmp_path, monkeypatch):
    """Every document is rendered, in job order, when each lane's worker is renewed after
    TASKS_PER_WORKER documents (workers that only grow are not kept)."""
    from pipeline.render import pdf as pdf_mod
    monkeypatch.setattr(pdf_mod, "TASKS_PER_WORKER", 1)
    pools = []
    import concurrent.futures
    real_pool = concurrent.futures.ProcessPoolExecutor       # imported by the PDF stage when it renders
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", lambda *a, **k: pools.append(k) or real_pool(*a, **k))
    jobs = [(f"<html><body><p>第{i}页{'文' * i}</p></body></html>", tmp_path / f"{i}.pdf") for i in range(5)]
    done = render_pdfs(jobs, tmp_path / CACHE_FILE, workers=2)
    assert done == [p for _, p in jobs]
    assert len(pools) == 5 and all(k["max_workers"] == 1 for k in pools)   # a fresh worker per document
    assert all(p.read_bytes().startswith(b"%PDF") for _, p in jobs)


def test_fork_server_starts_before_the_font_check(tmp_path, monkeypatch):
    """With two lanes the workers' fork server is started before this process checks the
    font, so its import of WeasyPrint runs beside the check instead of after it; with one
    lane (no pool) none is started."""
    from pipeline.render import pdf as pdf_mod
    order: list[str] = []
    monkeypatch.setattr(pdf_mod, "_start_fork_server", lambda: order.append("fork server"))
    real_check = pdf_mod.check_cjk_font
    monkeypatch.setattr(pdf_mod, "check_cjk_font", lambda: order.append("font check") or real_check())
    jobs = [(f"<html><body><p>第{i}页</p></body></html>", tmp_path / f"{i}.pdf") for i in range(2)]
    assert render_pdfs(jobs, tmp_path / CACHE_FILE, workers=2) == [p for _, p in jobs]
    assert order == ["fork server", "font check"]
    order.clear()
    assert render_pdfs([(jobs[0][0], tmp_path / "one.pdf")], tmp_path / CACHE_FILE, workers=2) == [tmp_path / "one.pdf"]
    assert order == ["font check"]


def test_pdf_cache_key_names_weasyprint_version_without_importing_it():
    """The cache's hash carries the installed WeasyPrint's version (an upgrade renders again),
    read from its package metadata: a night whose PDFs are all current does not import it."""
    code = ("import sys\nfrom pipeline.render.pdf import html_hash, _weasyprint_version\n"
            "html_hash('<p>x</p>')\nprint('weasyprint' in sys.modules, _weasyprint_version())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout.split()
    import weasyprint
    assert out == ["False", weasyprint.__version__]


def test_lanes_render_every_document_and_report_the_first_failure(tmp_path, monkeypatch):
    """Two lanes share one queue: every good document is rendered and cached, a failing one
    does not stop its lane (a fresh worker goes on), and the first failure in job order is
    raised after the others are done."""
    from pipeline.render import pdf as pdf_mod
    monkeypatch.setattr(pdf_mod, "TASKS_PER_WORKER", 2)
    bad = "<html><body><p>私用区字符 \ue000</p></body></html>"      # no glyph: MissingGlyphError
    jobs = [(f"<html><body><p>第{i}页{'文' * (7 - i)}</p></body></html>" if i not in (2, 5) else bad,
             tmp_path / f"{i}.pdf") for i in range(7)]
    with pytest.raises(MissingGlyphError):
        render_pdfs(jobs, tmp_path / CACHE_FILE, workers=2)
    assert [p.exists() for _, p in jobs] == [i not in (2, 5) for i in range(7)]
    again = render_pdfs([j for i, j in enumerate(jobs) if i not in (2, 5)], tmp_path / CACHE_FILE, workers=2)
    assert again == []                                    # the good ones were cached


@pytest.mark.parametrize("workers", [1, 2])
def test_a_character_no_font_has_costs_that_pdf_only(tmp_path, workers):
    """A rare 生僻字 in one name: that document gets no PDF (its stale one is removed) and
    says why; the others are rendered — the night's run goes on (PDF_NOT_MADE)."""
    good = "<html lang='zh-CN'><body><p>象棋对阵表</p></body></html>"
    bad = "<html lang='zh-CN'><body><p>获奖证书 王𡒄</p></body></html>"
    (tmp_path / "bad.pdf").write_bytes(b"last night's")
    missing: dict = {}
    done = render_pdfs([(good, tmp_path / "good.pdf"), (bad, tmp_path / "bad.pdf")], tmp_path / CACHE_FILE,
                       workers=workers, missing=missing)
    assert done == [tmp_path / "good.pdf"] and not (tmp_path / "bad.pdf").exists()
    assert missing == {tmp_path / "bad.pdf": "“𡒄”（U+21484）"}


def test_pdf_not_made_is_an_issue_and_is_not_linked(tmp_path):
    from pipeline.render.site_vm import document_links
    from pipeline.run import pdf_not_made

    state = t2016_state()
    state.pdf = True
    (tmp_path / "data").mkdir()
    pdf_not_made(tmp_path, state, {tmp_path / "bus.pdf": "“𡒄”（U+21484）"})
    assert state.no_pdf == {"bus.pdf"}
    (i,) = [i for i in state.issues if i.code == "PDF_NOT_MADE"]
    assert "“𡒄”（U+21484）" in i.message and "bus.html" in i.message
    assert "PDF_NOT_MADE" in (tmp_path / "data" / "issues.csv").read_text(encoding="utf-8")
    links = {d.label: d for d in document_links(state)}
    assert links["乘车安排"].pdf == "" and links["比赛通知"].pdf == "notice.pdf"


def test_missing_glyph_is_an_error(tmp_path):
    with pytest.raises(MissingGlyphError, match="fonts-noto-cjk"):
        html_to_pdf("<html><body><p>私用区字符 \ue000</p></body></html>", tmp_path / "g.pdf")
    assert not (tmp_path / "g.pdf").exists()


def test_missing_font_raises(tmp_path):
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig></fontconfig>\n')
    code = ("from pipeline.render.pdf import MissingFontError, html_to_pdf\n"
            "import sys\n"
            "try:\n"
            f"    html_to_pdf('<p>中文</p>', {str(tmp_path / 'x.pdf')!r})\n"
            "except MissingFontError as e:\n"
            "    print('MISSING', e); sys.exit(3)\n")
    env = dict(os.environ, FONTCONFIG_FILE=str(conf), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 3, proc.stderr[-2000:]
    assert "MISSING" in proc.stdout and "fonts-noto-cjk" in proc.stdout
    assert not (tmp_path / "x.pdf").exists()


def test_templates_are_compiled_once_per_user_and_without_a_cache_folder_still_render(monkeypatch):
    """Jinja keeps compiled templates in a private per-user folder (FileSystemBytecodeCache);
    when no safe folder can be had the environment works without one."""
    import jinja2

    from pipeline.render import jinja as jinja_mod
    assert isinstance(jinja_mod._bytecode_cache(), jinja2.FileSystemBytecodeCache)

    def refuse(*a, **k):
        raise RuntimeError("Cannot determine safe temp directory")
    monkeypatch.setattr(jinja2, "FileSystemBytecodeCache", refuse)
    assert jinja_mod._bytecode_cache() is None
    jinja_mod.environment.cache_clear()
    try:
        env = jinja_mod.environment()
        assert env.bytecode_cache is None and env.get_template("base.html")
    finally:
        jinja_mod.environment.cache_clear()


@needs_poppler
def test_the_notices_signature_is_never_on_a_page_without_its_text(tmp_path):
    """T2016's notice put 校工会 and the date alone on page 3 (the 附件 list ended page 2),
    T2011's the closing clause and signature alone on theirs: the closing block stays whole and
    takes the text before it along (a signature page without text is not signed).  The notes
    grow one by one, so the closing block meets the page's end at every point of it."""
    import dataclasses

    state = t2016_state()
    spec = state.tournament.spec
    for k in range(20, 26):        # (at 21–24 notes the old layout broke: signature alone, or clause alone)
        notes = [f"第{i}条注意事项：各分工会请按时组织参赛队员到场，服从裁判安排。" for i in range(1, k + 1)]
        state.tournament.spec = dataclasses.replace(spec, notes=notes)
        (doc,) = [d for d in plan_documents(state) if d.stem == "notice"]
        pdf = html_to_pdf(render_html(doc), tmp_path / f"notice{k}.pdf")
        for n in range(1, pages(pdf) + 1):
            text = subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), str(pdf), "-"], capture_output=True,
                                  text=True, check=True).stdout
            if "未尽事宜" in text:
                break
        before = re.sub(r"\s+", "", text.split("未尽事宜")[0])
        assert len(before) > 4, (k, text)            # more than "十一、": text before the closing clause
        assert spec.organizer in text.split("未尽事宜")[1]     # and the signature after it, on that page


def test_sibling_group_tables_share_their_column_widths():
    """成绩表 of groups A and B: each table sized its columns to its own names, so the
    columns of A组 and B组 did not line up on the printed page; now every group's table
    has the widest cell's width for each column (a lone table sizes itself)."""
    import dataclasses

    state = t2015_state()
    es = next(es for es in state.events.values() if es.standings)
    a = dataclasses.replace(es.standings[0], group="A")
    b = dataclasses.replace(a, group="B", rows=list(a.rows)[1:])      # other names, other widths
    es.standings = [a, b]
    vm = next(d for d in plan_documents(state) if d.stem == "standings").vm
    tables = next(ev.tables for ev in vm.events if ev.name == es.spec.name)
    assert tables[0].widths and tables[0].widths == tables[1].widths
    name_col = tables[0].head.index("姓名") if "姓名" in tables[0].head else 1
    assert tables[0].widths[name_col] >= max(len(r[name_col]) for t in tables[:2] for r in t.rows)
    html = render_html(next(d for d in plan_documents(state) if d.stem == "standings"))
    groups = re.findall(r"<colgroup>.*?</colgroup>", html)
    assert len(groups) == 2 and groups[0] == groups[1]
    total = sum(tables[0].widths)
    if total <= 48:         # the same shares of the page (fixed layout), whatever each table holds
        shares = [float(x) for x in re.findall(r"width: ([0-9.]+)%", groups[0])]
        assert html.count('same-widths"') == 2 and abs(sum(shares) - 100) < 0.1
        assert shares[name_col] == round(100 * tables[0].widths[name_col] / total, 2)
    from pipeline.render.viewmodels import standings_vm

    lone = standings_vm(t2015_state())
    assert all(not t.widths for ev in lone.events for t in ev.tables)


def _page_texts(pdf: Path) -> list[str]:
    return [subprocess.run(["pdftotext", "-f", str(k), "-l", str(k), str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout for k in range(1, pages(pdf) + 1)]


@needs_poppler
def test_T2016_the_rules_attachment_ends_on_its_own_page(tmp_path):
    """附件2 《比赛规则》 (twelve articles) ran two lines over its page: page 6 of the T2016 notice
    held only rule 12.  The rules attachment is set a little tighter and fits its page."""
    import datetime as dt

    import yaml

    from pipeline.spec import Tournament, TournamentSpec, validated
    from pipeline.state import LeagueState

    raw = yaml.safe_load((ROOT / "sample_sheets" / "t2016-poker" / "tournament.yaml").read_text(encoding="utf-8"))
    t = Tournament(tmp_path / "tournament", validated(TournamentSpec, raw), b"x" * 32)
    when = dt.datetime(2016, 11, 8)
    state = LeagueState(t, now=when, updated=when, submissions=[], entries=[], issues=[], events={}, awards=[])
    pdf = html_to_pdf(render_html(next(d for d in plan_documents(state) if d.stem == "notice")), tmp_path / "notice.pdf")
    texts = _page_texts(pdf)
    (rules,) = [p for p in texts if "比赛规则" in p and "1、比赛时间" in p]
    assert "12、比赛中" in rules and "应立即召请裁判到场处理" in rules, texts[-1]


def _draw_with_notes(notes: tuple[str, ...], bye: bool = True):
    """t2016_full_round_state's 16-table round (a groups round of 掼蛋) with a bye and ``notes``."""
    import dataclasses

    from pipeline.model import Entry, Match

    from .states import _p

    state = t2016_full_round_state()
    es = state.events["guandan"]
    rnd = es.rounds[0]
    matches = rnd.matches
    if bye:
        e = Entry("guandan-b2-33", "guandan", "b2", "商学院33队", (_p("轮空甲", "b2"), _p("轮空乙", "b2")), team_no="33")
        es.entries.append(e)
        state.entries.append(e)
        matches += (Match("guandan", "g", 1, "C", 5, (e.id,), bye=True),)
    es.rounds[0] = dataclasses.replace(rnd, matches=matches, notes=notes)
    return next(d for d in plan_documents(state) if d.stem.endswith("guandan-r1"))


@needs_poppler
def test_R2016_F3_a_groups_round_with_a_bye_and_three_notes_is_one_page(tmp_path):
    """T2016 rounds 2 and 3 (16 tables, a bye, three one-line notes) put one 说明 line and the
    seed line alone on page 2: the draw table's rows are set a little tighter, and it fits."""
    notes = ("A组：工商1队与后勤4队已在第1轮相遇，为避免重复对阵，改为工商1队对会计4队、后勤4队对信工3队。",
             "C组：后勤6队与机关一1队已在第1轮相遇，为避免重复对阵，改为后勤6队对工商2队、机关一1队对会计3队。",
             "C组队数为奇数，排名最后且未轮空过的外语1队本轮轮空。")
    pdf = html_to_pdf(render_html(_draw_with_notes(notes)), tmp_path / "draw.pdf")
    assert pages(pdf) == 1, _page_texts(pdf)[-1]


@needs_poppler
@pytest.mark.parametrize("count", [2, 3, 4, 5])
@pytest.mark.parametrize("lines", [1, 2])
def test_a_draw_sheets_last_note_does_not_run_over_alone(tmp_path, count, lines):
    """Notes that run over to page 2 take at least two of them there: the last one alone with
    the seed line was a page of two lines (T2016 r2/r3, from an audit).  Notes of one line
    and of two, below a 16-table round with a bye."""
    words = "C组后勤6队与机关一1队已在第1轮相遇，为避免重复对阵，改为后勤6队对工商2队。" if lines == 1 else \
        "、".join(f"商学院{n}队" for n in range(1, 9)) + "已在前几轮相遇，为避免重复对阵另行配对。"
    notes = tuple(f"第{k}条：{words}" for k in range(1, count + 1))
    pdf = html_to_pdf(render_html(_draw_with_notes(notes)), tmp_path / "draw.pdf")
    texts = _page_texts(pdf)
    if len(texts) > 1:
        assert sum(1 for k in range(1, count + 1) if f"第{k}条" in texts[-1]) >= 2, texts[-1]
        assert "抽签种子" in texts[-1]


def _continued_pages(pdf: Path, sections: dict[str, str]) -> list[str]:
    """Pages of ``pdf`` that go on with a table begun on an earlier page but do not say what
    the rows belong to.  ``sections``: a row's text → the name of its section (an event, a
    pick-up point).  A page that carries on a section must say ``<name>（续）`` unless the
    section's heading opens on that page."""
    texts = _page_texts(pdf)
    bad = []
    assert "（续）" not in texts[0], texts[0][:200]
    for k, text in enumerate(texts[1:], start=2):
        hits = sorted((text.find(row), name) for row, name in sections.items() if row in text)
        if not hits:
            continue
        at, name = hits[0]
        heading_before = re.search(rf"(^|\n){re.escape(name)}[（\s\n]", text[:at]) is not None
        if not heading_before and f"{name}（续）" not in text:
            bad.append(f"page {k} goes on with {name} unnamed: {text[:80]!r}")
    return bad


@needs_poppler
def test_a_table_run_onto_a_later_page_names_what_it_belongs_to(tmp_path):
    """The award list's 双升 rows 4–22 and its 斗地主 table, the standings' 最终名次 and the bus
    list's pick-up points ran onto later pages under the column heads alone: the page did
    not say whose rows they were.  A page that goes on with a table names it: “双升（续）”
    (the page's head); a page that opens with the section's heading does not say it twice."""
    from pipeline.model import Entry
    from pipeline.state import AwardRow, StandingTable
    from pipeline.score.base import StandingRow

    from .states import _p

    # the bus list: two pick-up points of 45 riders each
    state = t2016_state()
    entries = [Entry(f"guandan-b1-{i}", "guandan", "b1", f"队{i}",
                     (_p(f"{pt}甲{i}", "b1", pickup=pt), _p(f"{pt}乙{i}", "b1", pickup=pt)))
               for pt in ("镇江", "桥头") for i in range(1, 23)]
    state.entries = entries
    state.events["guandan"].entries[:] = entries
    doc = next(d for d in plan_documents(state) if d.stem == "bus")
    bus = html_to_pdf(render_html(doc), tmp_path / "bus.pdf")
    assert pages(bus) >= 3
    assert _continued_pages(bus, {p.name: p.pickup for e in entries for p in e.players}) == []

    # the award list and the standings: 象棋 and 双升 with 40 places each
    state = t2020_state()
    xq, ss = state.events["xiangqi"], state.events["shuangsheng"]
    rows = {}
    awards = []
    for ev in (xq, ss):
        for i in range(1, 41):
            team = f"{ev.spec.name}选手{i}"
            rows[team] = ev.spec.name
            awards.append(AwardRow(ev.spec.id, "", "三等奖" if i < 4 else "决赛参与奖", i, team, "u1", team, 0))
        ev.standings[:] = [StandingTable(ev.spec.id, "rr", "循环赛", "", tuple(
            StandingRow(f"{ev.spec.id}-{i}", i, 40 - i, played=3) for i in range(1, 41)), ())]
        ev.entries[:] = [Entry(f"{ev.spec.id}-{i}", ev.spec.id, "u1", f"{ev.spec.name}选手{i}", (_p(f"{ev.spec.name}选手{i}", "u1"),))
                         for i in range(1, 41)]
    state.awards = awards
    for stem in ("awards", "standings"):
        doc = next(d for d in plan_documents(state) if d.stem == stem)
        pdf = html_to_pdf(render_html(doc), tmp_path / f"{stem}.pdf")
        assert pages(pdf) >= 3, stem
        assert _continued_pages(pdf, rows) == [], stem


def test_R2011_F2_standings_html_calls_an_unfinished_order_current(tmp_path):
    """Audit 39: standings.html printed 最终名次 over an order of an event still being played.
    Rendered: the Simplified page says 当前名次 and never 最终名次 outside its style sheet; a
    Traditional league's converts; an ended event keeps 最终名次."""
    from .test_viewmodels import _placed

    def body(state):
        html = render_html(next(d for d in plan_documents(state) if d.stem == "standings"))
        return re.sub(r"<style.*?</style>", "", html, flags=re.S)

    html = body(_placed(t2020_state(), complete=False))
    assert "<caption" in html and ">当前名次（比赛进行中，非最终名次）</caption>" in html
    assert 'data-part="象棋 当前名次"' in html
    assert "说明：比赛尚未结束，此表为截至淘汰赛第一轮的当前名次，不是最终名次。" in html
    assert "最终名次" not in html.replace("非最终名次", "").replace("不是最终名次", "")
    assert ">最终名次</caption>" in body(_placed(t2020_state(), complete=True))
    import dataclasses

    from pipeline.draw.base import Placement

    tw = t2015_state()
    go = tw.events["go"]
    tw.events["go"] = dataclasses.replace(go, complete=False, placements=[
        Placement(1, e.id, "瑞士制", tied=True) for e in go.entries])
    assert ">當前名次（比賽進行中，非最終名次）</caption>" in body(tw)


def _notice_of(units: int, sessions: int):
    """The t2020 notice with ``units`` units and ``sessions`` sessions (比赛时间： over a list)."""
    import datetime as dt

    from pipeline.state import LeagueState

    from .states import _tournament, t2020_spec_raw

    raw = t2020_spec_raw()
    raw["units"] = [{"id": f"u{i}", "name": f"第{i}分工会", "short": f"分{i}", "captain": f"干事{i}", "members": 40}
                    for i in range(1, units + 1)]
    raw["sessions"] = [{"date": f"2020-11-{10 + d:02d}", "start": "16:00", "end": "18:00", "venue": "工会活动室"}
                       for d in range(sessions)]
    when = dt.datetime(2020, 10, 30)
    state = LeagueState(_tournament(raw), now=when, updated=when, submissions=[], entries=[], issues=[], events={},
                        awards=[])
    return next(d for d in plan_documents(state) if d.stem == "notice")


@needs_poppler
@pytest.mark.parametrize("units", [4, 35])
def test_a_notice_label_is_never_alone_at_a_page_foot(tmp_path, units):
    """The 30-unit notice ended page 2 with 比赛时间： alone, its twelve sessions on page 3: a
    label paragraph keeps with what follows it (four and 35 units put it at a page's foot)."""
    html = render_html(_notice_of(units, 12))
    assert '<p class="indent lead">比赛时间：</p>' in html
    pdf = html_to_pdf(html, tmp_path / "notice.pdf")
    for k, page in enumerate(_page_texts(pdf), 1):
        lines = [x.strip() for x in page.splitlines() if x.strip() and not re.match(r"第\s*\d+\s*页", x.strip())]
        assert lines and lines[-1] != "比赛时间：", k


def test_R2015_F1_standings_html_calls_an_unfinished_swiss_table_current(tmp_path):
    """Audit 41: a Traditional league's standings.html (and its PDF) printed an unfinished
    Swiss event's table under 瑞士制 alone: no 當前名次, no line up to which round."""
    from .test_viewmodels import _go_under_way

    def body(state):
        html = render_html(next(d for d in plan_documents(state) if d.stem == "standings"))
        return re.sub(r"<style.*?</style>", "", html, flags=re.S)

    html = body(_go_under_way())
    assert ">瑞士制 當前名次（比賽進行中，非最終名次）</caption>" in html
    assert "說明：比賽尚未結束，此表為截至第1輪（瑞士制）的當前名次，不是最終名次。" in html
    done = body(_go_under_way(complete=True))
    assert "當前名次" not in done and "尚未結束" not in done
