"""A said-once warning (pipeline.issues.SAID_ONCE: DRAW_INPUT_CHANGED …) is a warning on the
night it is first found and a note after it.  What was said is kept in the ledger, not only
in ``.lastrun.json``, which README lists as "may be deleted at any time": deleting it brought
the warning back (exit 1, and 下一步 asked the office to act again) — a false alarm for a cron
job watching the exit status (an audit of t2016-poker with a late corrected round-1 sheet)."""
from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from pathlib import Path

from mailedit import edit_attachment
from pipeline import lastrun
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def _corrected_r1(wb) -> None:
    """掼蛋 round 1, A组第1桌 (信工2队 J : 体育部1队 10, 甲 on top) corrected the other way."""
    ws = wb["成绩"]
    assert (ws["F8"].value, ws["G8"].value, ws["I8"].value) == ("J", "10", "甲")
    ws["F8"], ws["G8"], ws["I8"] = "10", "J", "乙"


def _nights(tmp_path: Path):
    """t2016-poker run to its end (11-27), then a corrected round-1 sheet arrives (11-28):
    (a function running the night of a November day, the output folder)."""
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    out = tmp_path / "out"

    def night(day: int):
        return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2016, 11, day, 20, tzinfo=TZ)))
    first = night(27)
    assert not first.needs_attention, [i for i in first.issues if str(i.severity) != "info"]
    inbox = folder / "inbox"
    edit_attachment(inbox / "11260941-guandan-r1-成绩表.eml", _corrected_r1, save_as=inbox / "1128-guandan-r1-更正.eml",
                    date="Mon, 28 Nov 2016 09:00:00 +0800")
    return night, out / "t2016-poker"


def _warned(report) -> bool:
    return any(i.code == "DRAW_INPUT_CHANGED" and str(i.severity) == "warning" for i in report.issues)


def test_a_said_once_warning_stays_said_after_lastrun_json_is_deleted(tmp_path):
    night, out = _nights(tmp_path)
    found = night(28)
    assert _warned(found) and found.needs_attention
    assert any("DRAW_INPUT_CHANGED" in s for s in found.next_steps)
    told = night(29)
    assert not _warned(told) and not told.needs_attention
    (out / lastrun.LAST_RUN).unlink()           # "may be deleted at any time" (README)
    later = night(30)
    assert not later.unchanged                  # a full run, not the kept report
    (note,) = [i for i in later.issues if i.code == "DRAW_INPUT_CHANGED"]
    assert str(note.severity) == "info" and not later.needs_attention
    assert not any("DRAW_INPUT_CHANGED" in s for s in later.next_steps), later.next_steps


def test_a_said_record_of_an_older_version_in_lastrun_json_is_still_honoured(tmp_path):
    """A ledger written before the said-record was kept there: the record in .lastrun.json
    still says what was told."""
    night, out = _nights(tmp_path)
    assert _warned(night(28))
    with sqlite3.connect(out / "ledger.sqlite") as db:
        assert db.execute("DELETE FROM cache WHERE key=?", (lastrun.SAID_KEY,)).rowcount == 1
    db.close()
    later = night(29)
    assert not later.unchanged and not _warned(later) and not later.needs_attention
