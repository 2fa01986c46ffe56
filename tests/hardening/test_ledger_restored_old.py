"""R-draw (published draws are frozen), DRAWN_ELSEWHERE: a ledger.sqlite restored from a
backup taken before the latest draw — what the lost-ledger message asks the office to do —
does not know the round that draw published, though the output folder holds its sheets.
The round was drawn afresh (other inputs since: another draw), silently.  Now the output
folder's own issued result sheet (its _meta draw digest and pairings) stops it, unless it
fits the draw about to be made (the same inputs draw the same round)."""
from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
from pathlib import Path

import openpyxl

from pipeline import layout
from pipeline.run import RunOptions, run

from .common import copy_sample

TZ = dt.timezone(dt.timedelta(hours=8))
BEFORE_DRAW = dt.datetime(2020, 11, 8, 23, 0, tzinfo=TZ)
DRAW_NIGHT = dt.datetime(2020, 11, 9, 16, 0, tzinfo=TZ)
LATER = dt.datetime(2020, 11, 9, 20, 0, tzinfo=TZ)
DEADLINE = "    deadline: 2020-11-09T15:00:00+08:00\n"


def _league(tmp_path: Path) -> Path:
    folder = copy_sample("t2020-league", tmp_path)
    for p in (folder / "inbox").iterdir():
        if "成绩表" in p.name or p.name.startswith("1118-"):
            p.unlink()
    return folder


def _edit_xiangqi(folder: Path, line: str) -> None:
    """A line added to 象棋 (the first event) under its deadline."""
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace(DEADLINE, DEADLINE + line, 1), encoding="utf-8")


def _xiangqi_r1(out_dir: Path) -> list[dict[str, str]]:
    rows = csv.DictReader(io.StringIO((out_dir / "data" / "draw.csv").read_text(encoding="utf-8")))
    return [r for r in rows if r["event"] == "xiangqi" and r["round"] == "1"]


def _sheet_meta(out_dir: Path) -> dict:
    book = openpyxl.load_workbook(out_dir / "results" / "xiangqi-r1-成绩表.xlsx")
    return {r[0]: r[1] for r in book[layout.META_SHEET].iter_rows(values_only=True)}


def _published_then_restored(tmp_path: Path) -> tuple[Path, Path, list[dict[str, str]]]:
    """Night 0 (before the deadline), its ledger backed up; night 1 publishes round 1; the
    ledger is then put back from night 0's backup: (tournament folder, output folder, round 1
    of 象棋 as published)."""
    folder = _league(tmp_path)
    out = tmp_path / "out"
    night0 = run(RunOptions(folder=folder, out_parent=out, now=BEFORE_DRAW, pdf=False))
    backup = tmp_path / "ledger-backup.sqlite"
    shutil.copy2(night0.out_dir / "ledger.sqlite", backup)
    night1 = run(RunOptions(folder=folder, out_parent=out, now=DRAW_NIGHT, pdf=False))
    published = _xiangqi_r1(night1.out_dir)
    assert published and (night1.out_dir / "results" / "xiangqi-r1-成绩表.xlsx").exists()
    for p in night1.out_dir.glob("ledger.sqlite*"):
        p.unlink()
    shutil.copy2(backup, night1.out_dir / "ledger.sqlite")
    return folder, night1.out_dir, published


def test_a_ledger_restored_from_before_the_draw_does_not_redraw_the_published_round(tmp_path: Path) -> None:
    folder, out_dir, published = _published_then_restored(tmp_path)
    was = str(_sheet_meta(out_dir)[layout.META_DRAW_HASH])
    _edit_xiangqi(folder, "    withdrawn: [姚明]\n")           # the office's change after the draw
    again = run(RunOptions(folder=folder, out_parent=out_dir.parent, now=LATER, pdf=False))
    said = [i for i in again.issues if i.code == "DRAWN_ELSEWHERE"]
    assert len(said) == 1, [i.message for i in said]
    msg = said[0].message
    assert "results/xiangqi-r1-成绩表.xlsx" in msg and "已经公布过" in msg and "最新的备份" in msg \
        and f'voided_draws: ["{was}"]' in msg and "收件箱" not in msg, msg
    assert any("DRAWN_ELSEWHERE" in s and "最新的备份" in s for s in again.next_steps), again.next_steps
    assert not _xiangqi_r1(out_dir)                               # not drawn again
    assert str(_sheet_meta(out_dir)[layout.META_DRAW_HASH]) == was  # the issued sheet as it was
    assert any("第1轮暂不抽签" in line for line in again.events), again.events
    # the office voids that draw deliberately: round 1 is drawn anew, its sheet written anew
    _edit_xiangqi(folder, f'    voided_draws: ["{was[:8]}"]\n')
    voided = run(RunOptions(folder=folder, out_parent=out_dir.parent, now=LATER, pdf=False))
    assert "DRAWN_ELSEWHERE" not in {i.code for i in voided.issues}
    redrawn = _xiangqi_r1(out_dir)
    assert redrawn and redrawn != published
    meta = _sheet_meta(out_dir)
    assert str(meta[layout.META_DRAW_HASH]) != was
    import sqlite3
    with sqlite3.connect(out_dir / "ledger.sqlite") as db:
        (ih,) = db.execute("SELECT input_hash FROM rounds WHERE event='xiangqi' AND round=1").fetchone()
    db.close()
    assert str(meta[layout.META_DRAW_HASH]) == ih


def test_a_ledger_restored_from_before_the_draw_with_the_same_inputs_draws_the_same_round(tmp_path: Path) -> None:
    """The same inputs draw the same round: the issued sheet fits it, nothing is said."""
    folder, out_dir, published = _published_then_restored(tmp_path)
    again = run(RunOptions(folder=folder, out_parent=out_dir.parent, now=LATER, pdf=False))
    assert "DRAWN_ELSEWHERE" not in {i.code for i in again.issues}
    assert _xiangqi_r1(out_dir) == published


def test_a_ledger_restored_from_before_the_draw_and_a_changed_seed_do_not_redraw(tmp_path: Path) -> None:
    """The same inputs (the same draw digest) but another seed: other pairings than the issued
    sheet records — the round waits; voided_draws is not the way out (the new draw's sheets
    would carry the same digest), the seed put back is."""
    folder, out_dir, published = _published_then_restored(tmp_path)
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "\nseed: t2020-league\n" in text
    spec.write_text(text.replace("\nseed: t2020-league\n", "\nseed: another-seed\n"), encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out_dir.parent, now=LATER, pdf=False))
    said = [i for i in again.issues if i.code == "DRAWN_ELSEWHERE" and "xiangqi-r1" in i.message]
    assert len(said) == 1 and "seed" in said[0].message and "voided_draws" not in said[0].message, \
        [i.message for i in said]
    assert not _xiangqi_r1(out_dir)
