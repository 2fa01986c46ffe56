"""Pages kept from an earlier night (pipeline.render.memo): a page whose inputs are the same
is not rendered again — so its inputs must hold everything it shows."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_a_traditional_leagues_event_pages_follow_another_events_player_names(tmp_path):
    """In a Traditional league a name is converted as a name when a player bears it (于力
    stays 于力).  The 围棋 referee 于力 shares a 双扣 player's name; t03's captain corrects
    that player to 于丽 — the 围棋 event is as it was, and its kept page and draw sheets are
    what a run from scratch prints.  (Before d481a88 a referee was a name only when a player
    bore it: the kept pages printed 于力 where a fresh run printed 於力.  A referee is a name
    now, so both print 于力; the pages must still equal a fresh run's.)"""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("  - id: go\n    name: 围棋\n", "  - id: go\n    name: 围棋\n    referee: 于力\n"),
                    encoding="utf-8")
    for p in (folder / "inbox").iterdir():
        if not (p.name.startswith("10") or p.name.startswith("1107")):
            p.unlink()
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 11, 8, 12, 0, tzinfo=TZ)))
    league = out / "t2015-tcm"
    assert "裁判：于力" in (league / "draws" / "go-r1.html").read_text(encoding="utf-8")

    def rename(wb):
        cells = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value == "于力"]
        assert cells
        for c in cells:
            c.value = "于丽"
    edit_attachment(folder / "inbox" / "1026-t03-报名表.eml", rename, save_as=folder / "inbox" / "1110-t03-报名表-更正.eml",
                    date="Tue, 10 Nov 2015 10:00:00 +0800")
    night = dict(folder=folder, pdf=False, now=dt.datetime(2015, 11, 10, 12, 0, tzinfo=TZ))
    run(RunOptions(out_parent=out, **night))
    run(RunOptions(out_parent=tmp_path / "fresh", **night))

    def body(root: Path, name: str) -> str:    # without its 數據更新時間 line
        return "\n".join(l for l in (root / name).read_text(encoding="utf-8").splitlines() if "數據更新時間" not in l)
    for name in ("events/go.html", "draws/go-r1.html"):
        assert "于力" in body(league, name) and "於力" not in body(league, name), name
        assert body(league, name) == body(tmp_path / "fresh" / "t2015-tcm", name), name
