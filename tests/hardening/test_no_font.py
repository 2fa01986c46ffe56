"""Without any CJK font no PDF is made (never boxes): the run writes everything else —
pages, the referees' workbooks, returned copies — then stops with the message, exit 2."""
from __future__ import annotations

from pathlib import Path

from .common import NOW, copy_sample, league


def test_without_a_cjk_font_the_rest_is_written_and_the_run_says_so(tmp_path: Path) -> None:
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig></fontconfig>\n')
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    r = league("run", folder, "--out", out, "--now", NOW, env={"FONTCONFIG_FILE": str(conf)})
    assert r.returncode == 2, r.stderr[-2000:]
    assert "没有找到中文（CJK）字体" in r.stderr and "--no-pdf" in r.stderr and "Traceback" not in r.stderr
    done = out / "t2016-poker"
    assert (done / "index.html").is_file() and (done / "results" / "guandan-r1-成绩表.xlsx").is_file()
    assert not list(done.rglob("*.pdf"))
    assert ".pdf" not in (done / "index.html").read_text(encoding="utf-8")


def test_after_a_pdf_not_made_the_next_night_renders_again(tmp_path: Path, monkeypatch) -> None:
    """PDF_NOT_MADE asks the office to install a font and run again: that run must not be
    answered as an unchanged night (no input changed) with the PDFs still missing."""
    import datetime as dt

    import pipeline.render.docs as docs
    from pipeline.run import RunOptions, run

    from .common import NOW as now_text

    def no_glyph(state, out_dir, pdf=True, workers=None, memo=None, missing=None):
        missing[Path(out_dir) / "notice.pdf"] = "“𡒄”（U+21484）"
        return []

    folder = copy_sample("t2016-poker", tmp_path)
    now = dt.datetime.fromisoformat(now_text)
    monkeypatch.setattr(docs, "render_documents", no_glyph)
    first = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=True, now=now))
    assert any(i.code == "PDF_NOT_MADE" for i in first.issues)
    assert not (first.out_dir / ".lastrun.json").exists()
    again = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=True, now=now))
    assert not again.unchanged


def test_a_pdf_made_on_a_later_night_is_linked_from_its_event_page(tmp_path: Path, monkeypatch) -> None:
    """A draw sheet's PDF not made one night (a character no font has: PDF_NOT_MADE, not
    linked) and made the next, with the font installed: the event page, kept when its
    event is as it was (pipeline.render.memo), linked it only when it was rendered again."""
    import datetime as dt

    import pipeline.render.docs as docs
    from pipeline.run import RunOptions, run

    from .common import NOW as now_text

    missing_tonight: list[str] = ["draws/guandan-r1.pdf"]

    def pdfs(state, out_dir, pdf=True, workers=None, memo=None, missing=None):   # the PDFs themselves: not needed
        for stem in missing_tonight:
            missing[Path(out_dir) / stem] = "“𡒄”（U+21484）"
        return []

    folder = copy_sample("t2016-poker", tmp_path)
    now = dt.datetime.fromisoformat(now_text)
    monkeypatch.setattr(docs, "render_documents", pdfs)
    first = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=True, now=now))
    page = first.out_dir / "events" / "guandan.html"
    assert "guandan-r1.pdf" not in page.read_text(encoding="utf-8")
    missing_tonight.clear()
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=True, now=now))
    assert "guandan-r1.pdf" in page.read_text(encoding="utf-8")
