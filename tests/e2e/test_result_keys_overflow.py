"""A key cell of a result sheet (桌号, 轮次) or a 加赛 名次 holding a number too large for an
integer ("inf", "1e999", "Infinity") or "nan": it is a bad cell, said at that cell, and the
run goes on.  It stopped the whole run with OverflowError (exit 2) — on that night and on
every later one, the ledger keeping the workbook after it left the inbox."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import pytest

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _league(tmp_path: Path, keep: str) -> tuple[Path, Path]:
    """t2020-league with its registration forms and only the mail whose name holds ``keep``."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    shutil.rmtree(folder / "inbox-mistakes", ignore_errors=True)
    for p in (folder / "inbox").glob("*.eml"):
        if "报名表" not in p.name and keep not in p.name:
            p.unlink()
    return folder, next((folder / "inbox").glob(f"*{keep}*.eml"))


def _run(folder: Path, tmp_path: Path):
    return run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))


def _issues(tmp_path: Path, file: str) -> list[dict[str, str]]:
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8-sig") as f:
        return [i for i in csv.DictReader(f) if i["file"] == file]


def test_key_of_reads_an_infinite_or_nan_key_as_text():
    from pipeline.ingest.sheets import key_of
    from pipeline.run import _norm_int

    assert key_of({"轮次": "Infinity", "桌号": "1e999"}) == ("Infinity", "", "1e999")
    assert key_of({"轮次": float("inf"), "桌号": "nan"}) == ("inf", "", "nan")
    assert key_of({"轮次": 1.0, "桌号": " 3 "}) == ("1", "", "3")
    assert _norm_int("1e999") == "1e999" and _norm_int("-inf") == "-inf" and _norm_int("nan") == "nan"
    assert _norm_int(2.0) == "2"


@pytest.mark.parametrize("label,value", [("桌号", "inf"), ("桌号", "1e999"), ("轮次", "Infinity"), ("桌号", "nan")])
def test_a_key_cell_too_large_for_a_number_is_a_bad_row_not_a_crash(tmp_path, label, value):
    folder, eml = _league(tmp_path, "checkers-r1-")
    at = {}

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        cell = ws.cell(hrow + 2, col[label])
        cell.value = value
        at["cell"] = cell.coordinate
    edit_attachment(eml, edit)
    report = _run(folder, tmp_path)
    assert report.needs_attention
    bad = [i for i in _issues(tmp_path, "checkers-r1-成绩表.xlsx") if i["cell"] == at["cell"]]
    assert [i["code"] for i in bad] == ["RESULT_INVALID"], bad
    # (a wrong 轮次 on a drawn table's row: the 轮次 is said to be wrong, not the table)
    said = "轮次填的是" if label == "轮次" else "不是本轮抽签中的桌"
    assert bad[0]["sheet"] == "成绩" and value in bad[0]["message"] and said in bad[0]["message"]


def test_a_ledger_already_holding_such_a_workbook_runs_on_later_nights(tmp_path, monkeypatch):
    """The workbook was received on a night the run stopped at it (before this was fixed): the
    ledger keeps it, and the next night — the file gone from the inbox — reads it again."""
    import pipeline.ingest.sheets as sheets

    folder, eml = _league(tmp_path, "checkers-r1-")

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        ws.cell(hrow + 2, col["桌号"]).value = "1e999"
    edit_attachment(eml, edit)
    real = sheets.key_of

    def old_key_of(values):         # the code before the fix: int(float("1e999")) unguarded
        for v in (values.get("轮次"), values.get("桌号")):
            if v is not None:
                try:
                    int(float(str(v)))
                except ValueError:
                    pass
        return real(values)
    with monkeypatch.context() as m:
        m.setattr(sheets, "key_of", old_key_of)
        with pytest.raises(OverflowError):
            _run(folder, tmp_path)
    assert list((tmp_path / "out" / "t2020-league" / "received").glob("*.xlsx")), "the ledger kept the workbook"
    eml.unlink()
    report = _run(folder, tmp_path)
    assert report.needs_attention
    bad = [i for i in _issues(tmp_path, "checkers-r1-成绩表.xlsx") if i["code"] == "RESULT_INVALID"]
    assert bad and "1e999" in bad[0]["message"]


def test_a_playoff_place_too_large_for_a_number_is_bad_value(tmp_path):
    from pipeline.ingest.sheets import read_playoffs
    from pipeline.ingest.workbook import Book, Sheet
    from pipeline.model import Entry, Person

    entries = [Entry(f"xq:{n}", "xiangqi", "b1", n, (Person(n, "b1"),)) for n in ("苏旭凯", "黎玉静")]
    for place in ("1e999", "inf", "-Infinity", "nan"):
        book = Book(name="加赛.xlsx", sheets={"加赛": Sheet("加赛", rows=[["项目", "阶段", "组别", "名次", "参赛者"],
                                                                         ["象棋", "", "C", place, "苏旭凯"],
                                                                         ["象棋", "", "C", 1, "黎玉静"]])})
        orders, problems = read_playoffs(book, "加赛.xlsx", "xiangqi", "象棋", entries)
        assert [(p.code, p.cell) for p in problems] == [("BAD_VALUE", "D2")], (place, problems)
        assert place in problems[0].message
