"""R2016-A1 (R2020-A1, R2011-A1, R2015-A1) with R2016-S1: a new version that scores some tables
of a finished event otherwise (掼蛋's 过A: the side past A counts one level above A, 66e77fc)
keeps the published places and awards while the event's sources — entries, published rounds,
the sheets received, withdrawals, ranking rules — are what they were published from
(PLACES_KEPT, naming the tables now scored otherwise); the draws it made from those tables are
no correction (DRAW_INPUT_CHANGED says the sheets did not change), and nothing is to be
reprinted.  A sheet actually corrected places the event again (PLACES_CHANGED)."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from pipeline import run as run_mod
from pipeline.games import guandan
from pipeline.run import RunOptions, run

from tests.e2e.mailedit import edit_attachment, table_header

SAMPLE = Path(__file__).resolve().parents[2] / "sample_sheets" / "t2016-poker"
TID = "t2016-poker"
NOW = dt.datetime(2030, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=8)))
R1 = "11260941-guandan-r1-成绩表.eml"


def _set(group: str, table: int, column: str, value):
    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            if ws.cell(r, col["组别"]).value == group and ws.cell(r, col["桌号"]).value == table:
                ws.cell(r, col[column]).value = value
                return
        raise AssertionError(f"no table {group}{table}")
    return edit


def _league(tmp_path: Path) -> Path:
    """The 2016 sample, round 1's A组第4桌 (9 : A) won by 乙 passing A."""
    folder = tmp_path / TID
    shutil.copytree(SAMPLE, folder)
    edit_attachment(folder / "inbox" / R1, _set("A", 4, "过A方", "乙"))
    return folder


def _run(folder: Path, tmp_path: Path):
    return run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))


def _data(tmp_path: Path, name: str) -> list[dict[str, str]]:
    with open(tmp_path / "out" / TID / "data" / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _places(tmp_path: Path) -> list[tuple]:
    return sorted((r["rank"], r["entry_id"]) for r in _data(tmp_path, "standings.csv") if r["stage"] == "overall")


def _old_version_finishes(monkeypatch, folder: Path, tmp_path: Path):
    """The league played out by a version before 66e77fc (d = |a − b|, 过A or not)."""
    with monkeypatch.context() as old:
        old.setattr(guandan, "level_difference", lambda a, b, past: abs(a - b))
        old.setattr(run_mod.lastrun, "code_hash", lambda: "an-older-version")
        report = _run(folder, tmp_path)
    assert "PLACES_CHANGED" not in {i.code for i in report.issues}
    return report


def _upgraded(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(run_mod.lastrun, "code_hash", lambda: "this-version")
    (tmp_path / "out" / TID / ".lastrun.json").unlink(missing_ok=True)


def test_R2016_A1_a_version_scoring_tables_otherwise_keeps_the_published_places(tmp_path, monkeypatch):
    folder = _league(tmp_path)
    _old_version_finishes(monkeypatch, folder, tmp_path)
    places, awards = _places(tmp_path), _data(tmp_path, "awards.csv")
    # this version alone places the event otherwise (the table past A scores 6 levels, not 5)
    fresh = tmp_path / "fresh"
    run(RunOptions(folder=folder, out_parent=fresh / "out", pdf=False, now=NOW))
    assert _places(fresh) != places

    _upgraded(monkeypatch, tmp_path)
    for night in range(2):          # the upgrade's night, and the night after
        report = _run(folder, tmp_path)
        codes = [i.code for i in report.issues]
        assert "PLACES_CHANGED" not in codes
        assert _places(tmp_path) == places and _data(tmp_path, "awards.csv") == awards
        (kept,) = [i for i in report.issues if i.code == "PLACES_KEPT"]
        assert kept.severity == "info" and "已公布的名次和奖项保持不变" in kept.message
        assert "第1轮 A组第4桌" in kept.message and "没有改动" in kept.message
        for i in report.issues:
            if i.code == "DRAW_INPUT_CHANGED":
                assert "更正" not in i.message.replace("不是更正", ""), i.message
                assert "成绩表在公布后没有改动" in i.message and "A组第4桌" in i.message
        assert not any("更正" in s or "DRAW_INPUT_CHANGED" in s for s in report.next_steps), report.next_steps
        assert not report.needs_attention


def test_R2016_A1_a_corrected_sheet_after_the_upgrade_places_the_event_again(tmp_path, monkeypatch):
    folder = _league(tmp_path)
    _old_version_finishes(monkeypatch, folder, tmp_path)
    places = _places(tmp_path)
    _upgraded(monkeypatch, tmp_path)
    # the referee resends round 1's sheet: 甲's level at A组第4桌 corrected (9 → 8)
    edit_attachment(folder / "inbox" / R1, _set("A", 4, "甲方级数", "8"),
                    save_as=folder / "inbox" / "11261200-guandan-r1-成绩表-更正.eml",
                    date="Sat, 26 Nov 2016 12:00:00 +0800")
    report = _run(folder, tmp_path)
    codes = [i.code for i in report.issues]
    assert "PLACES_CHANGED" in codes and "PLACES_KEPT" not in codes
    assert _places(tmp_path) != places
