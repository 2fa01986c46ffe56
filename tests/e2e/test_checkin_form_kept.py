"""R2016-F2: the 签到表 in forms/ is the office's to fill where it is.  The run writes it when
it is not there and again only when the players it would list are others; a form the office
has filled is kept byte for byte (and a night that keeps it does not import openpyxl), and
when the list does change the 到场 already filled follow their players into the new form."""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from tests.hardening.common import ROOT, league, run_args, t2016_before_the_day

MORNING = "2016-11-26T08:00+08:00"


def _form(out: Path) -> Path:
    return out / "t2016-poker" / "forms" / "guandan-签到表.xlsx"


def _before_the_check_in(tmp_path: Path) -> tuple[Path, Path]:
    """t2016 on the morning of 11-26, without the day's check-in and results: (folder, out)."""
    folder, out = t2016_before_the_day(tmp_path, MORNING)
    assert _form(out).is_file()
    return folder, out


def _fill(path: Path, marks: dict[str, str]) -> dict[str, str]:
    """The office fills 到场 where the form is (openpyxl, saved in place): name → 是/否 for
    the names given; returns those names' 工号."""
    import openpyxl

    wb = openpyxl.load_workbook(path)
    ws = wb["签到"]
    at = _columns(ws)
    ids = {}
    for row in ws.iter_rows(min_row=5):
        name = row[at["姓名"]].value
        if name in marks:
            row[at["到场"]].value = marks[name]
            ids[name] = row[at["工号"]].value
    assert set(ids) == set(marks)
    wb.save(path)
    return ids


def _columns(ws) -> dict[str, int]:
    """The form's columns by header label (0-based): it shows more than the reader reads."""
    return {c.value: i for i, c in enumerate(ws[4]) if c.value}


def _names(path: Path, n: int = 4) -> list[str]:
    import openpyxl

    ws = openpyxl.load_workbook(path)["签到"]
    c = _columns(ws)["姓名"]
    return [r[c].value for r in ws.iter_rows(min_row=5) if r[c].value][:n]


def _answers(path: Path) -> dict[str, str]:
    import openpyxl

    ws = openpyxl.load_workbook(path)["签到"]
    at = _columns(ws)
    c, h = at["姓名"], at["到场"]
    return {r[c].value: r[h].value for r in ws.iter_rows(min_row=5) if r[c].value and r[h].value}


def _issues(out: Path, code: str) -> list[dict[str, str]]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["code"] == code]


def test_R2016_F2_a_check_in_form_filled_in_place_is_kept_and_the_night_imports_no_openpyxl(tmp_path: Path) -> None:
    """The office fills 到场 in forms/ at 08:05; the 08:10 night keeps the form byte for byte
    (it was written again every night: the office's 是/否 were gone), and compares it
    without importing openpyxl in the run's process."""
    folder, out = _before_the_check_in(tmp_path)
    a, b, c = _names(_form(out), 3)
    _fill(_form(out), {a: "是", b: "否", c: "是"})
    filled = _form(out).read_bytes()
    code = ("import sys, datetime as dt; from pathlib import Path; from pipeline.run import RunOptions, run; "
            f"r = run(RunOptions(folder=Path({str(folder)!r}), out_parent=Path({str(out)!r}), pdf=False, "
            "now=dt.datetime.fromisoformat('2016-11-26T08:10+08:00'))); "
            "print('openpyxl' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split()[-1] == "False", done.stdout
    assert _form(out).read_bytes() == filled
    assert _answers(_form(out)) == {a: "是", b: "否", c: "是"}
    assert not _issues(out, "CHECKIN_FORM_UPDATED")


def test_R2016_F2_a_check_in_form_of_an_earlier_version_is_kept_when_it_lists_the_same_players(
        tmp_path: Path) -> None:
    """A form written before its _meta recorded its players, filled in place: it lists the
    players the run would list, so it is kept as it is (not rewritten to add the record)."""
    import openpyxl

    folder, out = _before_the_check_in(tmp_path)
    wb = openpyxl.load_workbook(_form(out))
    meta = wb["_meta"]
    for row in [r for r in range(1, meta.max_row + 1) if meta.cell(r, 1).value == "checkin_players"]:
        meta.delete_rows(row)
    wb.save(_form(out))
    a, = _names(_form(out), 1)
    _fill(_form(out), {a: "否"})
    filled = _form(out).read_bytes()
    league(*run_args(folder, out, now="2016-11-26T08:10+08:00"))
    assert _form(out).read_bytes() == filled


def test_R2016_F2_a_late_withdrawal_writes_the_check_in_form_again_with_the_answers_carried_over(
        tmp_path: Path) -> None:
    """08:05 the office marks the first four players (two pairs); then the first pair
    withdraws (tournament.yaml ``withdrawn``).  The 08:10 night lists the others only, the
    other pair's 到场 carried into the new form; CHECKIN_FORM_UPDATED tells the office,
    naming the withdrawn players' marks not carried."""
    folder, out = _before_the_check_in(tmp_path)
    a, b, c, d = _names(_form(out), 4)
    ids = _fill(_form(out), {a: "否", b: "是", c: "是", d: "否"})
    yaml = folder / "tournament.yaml"
    text = yaml.read_text(encoding="utf-8")
    anchor = "    draw_at: 2016-11-26T08:30:00+08:00\n"
    assert anchor in text
    yaml.write_text(text.replace(anchor, anchor + f'    withdrawn: ["{ids[a]}"]\n', 1), encoding="utf-8")
    league(*run_args(folder, out, now="2016-11-26T08:10+08:00"))
    now = _names(_form(out), 10_000)
    assert a not in now and b not in now and {c, d} <= set(now)       # a and b are a pair
    assert _answers(_form(out)) == {c: "是", d: "否"}
    (said,) = _issues(out, "CHECKIN_FORM_UPDATED")
    assert said["severity"] == "info" and "2 人的到场情况已转入新表" in said["message"], said
    assert f"不再列出 {a}、{b}" in said["message"] and f"{a}（否）" in said["message"]
    # the night after, the new form is kept
    again = _form(out).read_bytes()
    league(*run_args(folder, out, now="2016-11-26T08:12+08:00"))
    assert _form(out).read_bytes() == again and not _issues(out, "CHECKIN_FORM_UPDATED")


def test_R2016_F2_an_unreadable_check_in_form_is_kept_beside_the_new_one(tmp_path: Path) -> None:
    """Whatever the office saved under the form's name that cannot be read is not overwritten:
    it is kept beside as …-旧.xlsx, a new form is written, and the office is told."""
    folder, out = _before_the_check_in(tmp_path)
    _form(out).write_bytes(b"not a workbook")
    league(*run_args(folder, out, now="2016-11-26T08:10+08:00"))
    kept = _form(out).with_name("guandan-签到表-旧.xlsx")
    assert kept.read_bytes() == b"not a workbook" and _form(out).stat().st_size > 1000
    (said,) = _issues(out, "CHECKIN_FORM_UPDATED")
    assert kept.name in said["message"]
