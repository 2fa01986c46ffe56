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
