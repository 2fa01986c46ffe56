"""A result message quotes what the referee typed — at most QUOTE_MAX characters of it, then
“…”: a score of 5,000 digits made a message of 1,000 characters (the cap of a whole message),
nine tenths of it digits, in issues.csv, the pages and the returned copy's comment."""
from __future__ import annotations

import csv
import datetime as dt

from mailedit import edit_attachment, table_header
from pipeline.issues import QUOTE_MAX, quoted
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ
from tests.hardening.common import forms_and_one_sheet

NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
FILE = "checkers-r1-成绩表.xlsx"


def test_quoted_keeps_a_short_text_and_cuts_a_long_one():
    assert quoted("甲胜") == "甲胜" and quoted(" 2 ") == "2" and quoted(3.0) == "3"
    long = quoted("9" * 5000)
    assert long == "9" * QUOTE_MAX + "…" and len(long) == QUOTE_MAX + 1


def test_a_result_message_quotes_at_most_a_few_dozen_characters_of_a_cell(tmp_path):
    folder, eml = forms_and_one_sheet("t2020-league", tmp_path, "-checkers-r1-")
    cells = {}

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        for n, (label, value) in enumerate([("甲方胜局", "9" * 5000), ("桌号", "8" * 5000),
                                            ("甲方", "张" * 5000), ("甲方胜局", 1e300)], 1):
            ws.cell(hrow + n, col[label]).value = value
            cells[ws.cell(hrow + n, col[label]).coordinate] = label
    edit_attachment(eml, edit)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8-sig") as f:
        found = {i["cell"]: i for i in csv.DictReader(f) if i["file"] == FILE and i["cell"] in cells}
    assert set(found) == set(cells), found
    for cell, i in found.items():
        assert len(i["message"]) < 400, (cell, len(i["message"]))
        assert "…" in i["message"] and "此处略去" not in i["message"], (cell, i["message"])
