"""Identity across units: when two units send the same person at different times, the unit
that sent them first keeps them (accepted, maybe receipted) — and a resend of its form does
not make them newer; its own rows still get every other check (twice in one event)."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2020, 11, 6, 12, 0, tzinfo=TZ)       # registrations in, nothing drawn yet


def _league(tmp_path: Path) -> Path:
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    for p in (folder / "inbox").iterdir():
        if "报名表" not in p.name:
            p.unlink()
    return folder


def _set(cells: dict[str, object]):
    def edit(wb):
        for ref, value in cells.items():
            wb["报名表"][ref] = value
    return edit


def _dups(out: Path) -> list[dict]:
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        return [i for i in csv.DictReader(f) if i["code"] == "DUPLICATE_PERSON"]


def test_a_resent_form_keeps_its_people_first(tmp_path: Path) -> None:
    folder = _league(tmp_path)
    inbox = folder / "inbox"
    # b06 (11-05) lists b01's 吕宁桂 (sent 11-04) in its row 10
    edit_attachment(inbox / "1105-b06-报名表.eml", _set({"D10": "吕宁桂", "E10": "001033"}))
    # b01 resends its form on 11-06, only a note changed
    edit_attachment(inbox / "1104-b01-报名表.eml", _set({"H13": "已核对"}), inbox / "1106-b01-报名表-重发.eml",
                    date="Fri, 06 Nov 2020 09:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert {(i["branch"], i["cell"]) for i in _dups(tmp_path / "out")} == {("b06", "D10")}
    assert "11-04" in _dups(tmp_path / "out")[0]["message"]
    holder = {e.branch for e in report.state.entries if any(p.staff_id == "001033" for p in e.players)}
    assert holder == {"b01"}


def test_the_first_units_own_double_entry_is_still_caught(tmp_path: Path) -> None:
    folder = _league(tmp_path)
    inbox = folder / "inbox"
    edit_attachment(inbox / "1104-b01-报名表.eml", _set({"D11": "吕宁桂", "E11": "001033"}))   # twice in 象棋
    edit_attachment(inbox / "1105-b06-报名表.eml", _set({"D10": "吕宁桂", "E10": "001033"}))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    flagged = {(i["branch"], i["cell"]) for i in _dups(tmp_path / "out")}
    assert ("b06", "D10") in flagged and ("b01", "D11") in flagged and ("b01", "D10") not in flagged
    ids = [e.id for e in report.state.entries if any(p.staff_id == "001033" for p in e.players)]
    assert len(ids) == 1
