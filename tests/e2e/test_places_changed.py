"""R2020-A1 with the contract's exit status: a referee's late correction of a finished event's
result (the later sheet counts, RESULT_CONFLICT) that moves someone after the places and
awards were published is said as a warning (PLACES_CHANGED: exit 1, "needs attention"), naming
who moved, the awards that changed hands and the sheet that did it — once, on that night.
(The audit's case: 跳棋's round-5 first table corrected on 11-20 gave 一等奖 to the other
finalist with 错误 0 条，警告 0 条 and exit 0.)"""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _first_prize(out: Path, event: str) -> str:
    with open(out / "t2020-league" / "data" / "awards.csv", encoding="utf-8") as f:
        return next(r["team"] for r in csv.DictReader(f) if r["event"] == event and r["award"] == "一等奖")


def _flip_r5_table1(wb) -> None:
    ws = wb["成绩"]
    assert (ws["F8"].value, ws["G8"].value) == (1, 2)      # 龚俊杰 1 : 于建明 2 (games won)
    ws["F8"], ws["G8"] = 2, 0


def test_R2020_A1_a_late_correction_that_moves_published_places_is_a_warning_once(tmp_path):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert not first.needs_attention and "PLACES_CHANGED" not in [i.code for i in first.issues]
    assert _first_prize(out, "checkers") == "于建明"

    inbox = folder / "inbox"
    edit_attachment(inbox / "11181850-checkers-r5-成绩表.eml", _flip_r5_table1,
                    save_as=inbox / "1120-checkers-r5-更正.eml", date="Fri, 20 Nov 2020 09:00:00 +0800")
    fixed = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert _first_prize(out, "checkers") == "龚俊杰"
    (changed,) = [i for i in fixed.issues if i.code == "PLACES_CHANGED"]
    assert changed.severity == "warning" and fixed.needs_attention
    assert changed.message.startswith("跳棋：更正后名次有变：第1名 于建明 → 龚俊杰；第2名 龚俊杰 → 于建明。")
    assert "一等奖 于建明 → 龚俊杰" in changed.message
    assert changed.file == "checkers-r5-成绩表.xlsx" and "（11-20 09:00 收到）" in changed.message

    # said on the night the places changed only: the ledger holds them as published now
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))          # an unchanged night
    assert "PLACES_CHANGED" not in [i.code for i in again.issues] and not again.needs_attention
    (out / "t2020-league" / ".lastrun.json").unlink()                                   # the kept event states
    kept = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert "PLACES_CHANGED" not in [i.code for i in kept.issues] and not kept.needs_attention
    assert _first_prize(out, "checkers") == "龚俊杰"
