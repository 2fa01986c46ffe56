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
    assert "11月4日" in _dups(tmp_path / "out")[0]["message"]
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


def test_a_later_units_copy_does_not_cost_the_first_unit_its_player_elsewhere(tmp_path: Path) -> None:
    """R2020-Q2 one event per person: b06 (11-05) lists b01's 吕宁桂 (11-04) in 跳棋.  b06's row
    is the copy; b01's 象棋 row stayed MULTI_EVENT ("报了 象棋、跳棋") and nobody held him."""
    folder = _league(tmp_path)
    edit_attachment(folder / "inbox" / "1105-b06-报名表.eml", _set({"D12": "吕宁桂", "E12": "001033"}))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        multi = [i for i in csv.DictReader(f) if i["code"] == "MULTI_EVENT"]
    assert not multi
    assert [(e.event, e.branch) for e in report.state.entries if any(p.staff_id == "001033" for p in e.players)] \
        == [("xiangqi", "b01")]


def test_T2015_a_units_two_current_forms_count_as_one_unit(tmp_path: Path) -> None:
    """T2015: t01's form of 10-27 stays for the closed Go (its resend of 11-05 adds 姚佳洋 to
    双扣 too); t02 adds him on 11-06.  t01 sent him first — its two forms are one unit
    (they tied with each other, and every row was refused)."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    inbox = folder / "inbox"
    for p in inbox.iterdir():
        if "报名表" not in p.name:
            p.unlink()
    edit_attachment(inbox / "1027-t01-报名表.eml", _set({"D17": "姚佳洋", "E17": "001036"}),
                    inbox / "1105-t01-报名表-重发.eml", date="Thu, 05 Nov 2015 10:00:00 +0800")
    edit_attachment(inbox / "1027-t02-报名表.eml", _set({"D25": "姚佳洋", "E25": "001036"}),
                    inbox / "1106-t02-报名表-重发.eml", date="Fri, 06 Nov 2015 10:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2015, 11, 7, 9, 0, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
        dup = [(i["branch"], i["cell"]) for i in csv.DictReader(f) if i["code"] == "DUPLICATE_PERSON"]
    assert dup == [("t02", "D25")]
    assert sorted((e.event, e.branch) for e in report.state.entries if any(p.staff_id == "001036" for p in e.players)) \
        == [("go", "t01"), ("shuangkou", "t01")]


def test_a_resend_filling_in_a_staff_number_keeps_the_unit_first(tmp_path: Path) -> None:
    """DUPLICATE_PERSON: b01 (11-04) lists 吕宁桂 in 象棋 with 工号 blank; b06 (11-05) lists him
    with 001033; b01 resends on 11-06 with the 工号 filled in.  b01 sent him first: b06's row
    is the copy (the error moved to b01, whose row was refused, and b06 kept him)."""
    folder = _league(tmp_path)
    inbox = folder / "inbox"
    edit_attachment(inbox / "1104-b01-报名表.eml", _set({"H13": "已核对"}), inbox / "1106-b01-报名表-补工号.eml",
                    date="Fri, 06 Nov 2020 09:00:00 +0800")
    edit_attachment(inbox / "1104-b01-报名表.eml", _set({"E10": None}))
    edit_attachment(inbox / "1105-b06-报名表.eml", _set({"D10": "吕宁桂", "E10": "001033"}))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert {(i["branch"], i["cell"]) for i in _dups(tmp_path / "out")} == {("b06", "D10")}
    assert "11月4日" in _dups(tmp_path / "out")[0]["message"]
    holder = {e.branch for e in report.state.entries if any(p.staff_id == "001033" for p in e.players)}
    assert holder == {"b01"}
