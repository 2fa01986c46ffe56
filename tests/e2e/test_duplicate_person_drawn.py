"""DUPLICATE_PERSON on a row whose person is in a published round of its event.

Since 6ea8cb8/1c68350 (a) a resend that fills in a row's 工号 keeps the unit first
(:func:`pipeline.run.first_seen`), and (b) one name in one event of two units, 工号 on one row
and blank on the other, is DUPLICATE_PERSON.  A league upgraded after the draw then saw the
error on a row the older version had entered and drawn: the drawn entry dropped
(DRAW_INPUT_CHANGED 已不在报名中).  Published draws are never silently redrawn: the person
plays on as drawn — a warning says why; an event not drawn keeps the error.

The older version is simulated for the night of the draw: ``_same_name_other_form`` did not
exist (for two units' rows it said nothing), and ``first_seen`` keyed a person by 工号 (else
name) and took the earliest form listing that key."""
from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from mailedit import edit_attachment, league_2020

from pipeline import run as run_mod
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ, aware
from pipeline.validate import checks

TID = "t2020-league"
#: after the deadline (2020-11-09 15:00): round 1 of every event is drawn
DRAWN = dt.datetime(2020, 11, 10, 15, 0, tzinfo=TZ)
#: registrations in, nothing drawn yet
BEFORE = dt.datetime(2020, 11, 8, 12, 0, tzinfo=TZ)


def _set(cells: dict[str, object]):
    def edit(wb):
        for ref, value in cells.items():
            wb["报名表"][ref] = value
    return edit


def _old_first_seen(inputs):
    """first_seen before 6ea8cb8: (branch, identity) → the earliest usable form listing it."""
    out = {}
    for rec, reg in inputs.registrations:
        if not getattr(reg, "usable", False) or not getattr(reg, "branch", ""):
            continue
        for row in reg.rows:
            if row.name or row.staff_id:
                k = (reg.branch, checks.identity(row))
                at = aware(rec.received_at)
                if k not in out or at < out[k]:
                    out[k] = at
    return out


def _older_version(mp) -> None:
    mp.setattr(checks, "_same_name_other_form", lambda ctx: None)
    mp.setattr(run_mod, "first_seen", _old_first_seen)
    mp.setattr(run_mod.lastrun, "code_hash", lambda: "an-older-version")


def _xiangqi(out: Path, name: str) -> list[tuple[str, str]]:
    with open(out / TID / "data" / name, encoding="utf-8") as f:
        return sorted((r["branch"], r["team"]) for r in csv.DictReader(f) if r.get("event") == "xiangqi")


def _upgrade(folder: Path, out: Path, mp, now: dt.datetime = DRAWN):
    with mp.context() as m:
        _older_version(m)
        before = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    mp.setattr(run_mod.lastrun, "code_hash", lambda: "this-version")
    (out / TID / ".lastrun.json").unlink()
    return before


def _said(report, code: str):
    return sorted((i.branch, i.cell, i.severity) for i in report.issues if i.code == code)


def _blank_and_staffed(folder: Path) -> None:
    """b01 (11-04) lists 吕宁桂 (001033) in 象棋; b06 (11-05) lists 吕宁桂 there too, 工号 blank."""
    edit_attachment(folder / "inbox" / "1105-b06-报名表.eml", _set({"D10": "吕宁桂", "E10": None}))


def test_DUPLICATE_PERSON_a_drawn_row_of_one_name_on_two_units_forms_stays_entered(tmp_path, monkeypatch):
    folder, _ = league_2020(tmp_path)
    _blank_and_staffed(folder)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    out = tmp_path / "out"
    before = _upgrade(folder, out, monkeypatch)
    drawn = _xiangqi(out, "draw.csv")
    assert any(b == "b06" and "吕宁桂" in t for b, t in drawn), drawn
    assert not _said(before, "DUPLICATE_PERSON")
    for night in (1, 2):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=DRAWN + dt.timedelta(minutes=30)))
        assert _xiangqi(out, "entries.csv") == _xiangqi(out, "draw.csv") == drawn, night
        assert not [i for i in report.issues if i.code == "DRAW_INPUT_CHANGED" or
                    i.code == "QUOTA_SHORT" and i.branch == "b06"], report.issues
        # a warning the first night (the office decides), a note after: not exit 1 every night
        assert _said(report, "DUPLICATE_PERSON") == [("b06", "E10", "warning" if night == 1 else "info")], night
        msg = next(i.message for i in report.issues if i.code == "DUPLICATE_PERSON")
        assert "象棋第1轮" in msg and "已抽签公布" in msg and "仍保留报名" in msg and "组委会" in msg, msg
        # where the other row is (for the office to check), after the note that nothing need change
        assert msg.index("无需为此修改") < msg.index("仅供核实时参考") < msg.index("行政第一分工会") < msg.index("第 10 行"), msg
        assert report.entries == before.entries

    # this version from the start: nothing drawn when it was read — the error, as the handbook says
    fresh = tmp_path / "fresh"
    report = run(RunOptions(folder=folder, out_parent=fresh, pdf=False, now=DRAWN))
    assert _said(report, "DUPLICATE_PERSON") == [("b06", "E10", "error")]
    assert not any(b == "b06" and "吕宁桂" in t for b, t in _xiangqi(fresh, "draw.csv"))


def test_DUPLICATE_PERSON_the_unit_drawn_keeps_its_entry_when_first_seen_now_ranks_the_other_first(tmp_path, monkeypatch):
    """b01 (11-04) lists 吕宁桂 in 象棋 with 工号 blank; b06 (11-05) lists him with 001033; b01
    resends on 11-06 with the 工号 filled in.  The older version made b01's row the copy and drew
    b06's 吕宁桂; now b01 counts as first — but b06's entry is in a published round: it stays,
    and b01's row is still the copy (the person plays for b06 as drawn)."""
    folder, _ = league_2020(tmp_path)
    inbox = folder / "inbox"
    edit_attachment(inbox / "1104-b01-报名表.eml", _set({"H13": "已核对"}), inbox / "1106-b01-报名表-补工号.eml",
                    date="Fri, 06 Nov 2020 09:00:00 +0800")
    edit_attachment(inbox / "1104-b01-报名表.eml", _set({"E10": None}))
    edit_attachment(inbox / "1105-b06-报名表.eml", _set({"D10": "吕宁桂", "E10": "001033"}))
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    out = tmp_path / "out"
    before = _upgrade(folder, out, monkeypatch)
    drawn = _xiangqi(out, "draw.csv")
    assert any(b == "b06" and "吕宁桂" in t for b, t in drawn) and not any(b == "b01" and "吕宁桂" in t for b, t in drawn)
    assert _said(before, "DUPLICATE_PERSON") == [("b01", "D10", "error")]
    for night in (1, 2):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=DRAWN + dt.timedelta(minutes=30)))
        assert _xiangqi(out, "entries.csv") == _xiangqi(out, "draw.csv") == drawn, night
        assert not [i for i in report.issues if i.code == "DRAW_INPUT_CHANGED"], report.issues
        assert _said(report, "DUPLICATE_PERSON") == [("b01", "D10", "error")], night
        assert report.entries == before.entries


def test_DUPLICATE_PERSON_twice_on_one_form_stays_an_error_after_the_draw(tmp_path, monkeypatch):
    """b01 lists 吕宁桂 (001033) twice in 象棋 (rows 10 and 20), this version throughout: row 20
    is the copy on the night of the draw — and every night after.  Its person is in the
    published round through row 10, so refusing row 20 drops no drawn entry: no warning
    saying an older version entered it, no second entry (a review found both)."""
    folder, _ = league_2020(tmp_path)

    def twice(wb):
        ws = wb["报名表"]
        for col, v in zip("BDEFG", ["象棋", "吕宁桂", "001033", "男", "13543725387"]):
            ws[f"{col}20"] = v
    edit_attachment(folder / "inbox" / "1104-b01-报名表.eml", twice)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=DRAWN))
    assert _said(first, "DUPLICATE_PERSON") == [("b01", "D20", "error")]
    drawn = _xiangqi(out, "draw.csv")
    for night in (1, 2):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=DRAWN + dt.timedelta(hours=night)))
        assert _said(report, "DUPLICATE_PERSON") == [("b01", "D20", "error")], night
        assert _xiangqi(out, "entries.csv") == _xiangqi(out, "draw.csv") == drawn, night
        assert report.entries == first.entries
        assert not [i for i in report.issues if i.code == "DRAW_INPUT_CHANGED"], report.issues
