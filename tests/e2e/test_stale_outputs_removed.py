"""Pages no longer made stayed on disk with what they said last: ``branches/_.unassigned.html``
("桥牌 第15轮还差 8 桌成绩未交") after every result came, ``events/bridge.html`` and its draw
sheets after the event was taken out of tournament.yaml (an audit).  The run removes the
pages and documents it wrote on an earlier night and no longer writes (handbook, 输出文件夹)
— never a file it did not write, nor one changed since it wrote it, nor anything under
received/ or forms/; a run stopped midway leaves the record of what it wrote as it was."""
from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from pipeline.run import GENERATED_FILES, RunOptions, run
from pipeline.store import Ledger
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _league(tmp_path: Path) -> Path:
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    return folder


def _run(folder: Path, tmp_path: Path):
    return run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))


def _drop_event(folder: Path, event_id: str) -> None:
    p = folder / "tournament.yaml"
    lines = p.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, s in enumerate(lines) if s.strip() == f"- id: {event_id}")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("  - id:") or not lines[i].startswith(" "))
    p.write_text("".join(lines[:start] + lines[end:]), encoding="utf-8")


def _manifest(out: Path) -> dict:
    ledger = Ledger(out)
    try:
        return json.loads(ledger.cache_get([GENERATED_FILES]).get(GENERATED_FILES, b"{}"))
    finally:
        ledger.close()


def test_a_page_no_longer_made_is_removed_and_no_other_file(tmp_path: Path) -> None:
    folder = _league(tmp_path)
    _run(folder, tmp_path)
    out = tmp_path / "out" / "t2020-league"
    stale = [out / "events" / "doudizhu.html", *(out / "draws").glob("doudizhu-r*.html")]
    assert all(p.is_file() for p in stale) and len(stale) > 2
    assert set(_manifest(out)) >= {p.relative_to(out).as_posix() for p in stale}
    # the office's own files beside the pages, and one of our pages it changed since
    (out / "events" / "mine.html").write_text("我的笔记", encoding="utf-8")
    (out / "notes.txt").write_text("我的笔记", encoding="utf-8")
    (out / "forms" / "x.html").parent.mkdir(exist_ok=True)
    (out / "forms" / "x.html").write_text("表", encoding="utf-8")
    kept = out / "draws" / "doudizhu-r1.html"
    kept.write_text(kept.read_text(encoding="utf-8") + "<!-- 改过 -->", encoding="utf-8")
    received = sorted(p.relative_to(out) for p in (out / "received").rglob("*"))
    _drop_event(folder, "doudizhu")
    _run(folder, tmp_path)
    for p in stale:
        assert p.is_file() == (p == kept), p
    assert (out / "events" / "mine.html").is_file() and (out / "notes.txt").is_file() and (out / "forms" / "x.html").is_file()
    assert sorted(p.relative_to(out) for p in (out / "received").rglob("*")) == received
    assert (out / "index.html").is_file() and (out / "events" / "xiangqi.html").is_file()
    names = _manifest(out)
    assert "events/doudizhu.html" not in names and "draws/doudizhu-r1.html" not in names
    assert all((out / n).is_file() for n in names)


def test_a_run_stopped_while_writing_leaves_the_record_as_it_was(tmp_path: Path, monkeypatch) -> None:
    folder = _league(tmp_path)
    _run(folder, tmp_path)
    out = tmp_path / "out" / "t2020-league"
    before = _manifest(out)
    assert before and (out / "events" / "doudizhu.html").is_file()
    _drop_event(folder, "doudizhu")
    import pipeline.render.site as site

    def killed(*a, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(site, "render_site", killed)
    with pytest.raises(KeyboardInterrupt):
        _run(folder, tmp_path)
    assert _manifest(out) == before
    assert (out / "events" / "doudizhu.html").is_file()      # (removed by the next whole run)
    monkeypatch.undo()
    _run(folder, tmp_path)
    assert not (out / "events" / "doudizhu.html").exists()
