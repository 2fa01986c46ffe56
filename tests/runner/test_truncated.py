"""A sheet longer than the reader's cap is never scored silently (ingest.workbook.MAX_ROWS)."""
from __future__ import annotations

import shutil
from pathlib import Path

from pipeline.ingest import workbook as W
from pipeline.run import RunOptions, run

ROOT = Path(__file__).resolve().parents[2]


def test_truncated_result_sheet_is_reported(tmp_path, monkeypatch):
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    monkeypatch.setattr(W, "MAX_ROWS", 10)     # result sheets have more rows with data than this
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False))
    cut = [i for i in report.issues if i.code == "BAD_VALUE" and "超过 10 行数据" in i.message]
    assert {(i.file, i.sheet) for i in cut} >= {("guandan-r1-成绩表.xlsx", "成绩")}, [i.row() for i in cut]
    assert all(i.cell.startswith("A") for i in cut)
