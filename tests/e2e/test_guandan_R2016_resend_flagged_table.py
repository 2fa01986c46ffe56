"""Handbook "较晚收到的一份为准" (RESULT_LEFT_BLANK) with 掼蛋 (R2016-F4, R2016-C1), an audit's
case: the office tells the referee "A组第4桌成绩有误待改正", and he fills only table A4 on a
fresh 成绩表 and sends it.  That sheet corrects a table the earlier one left unscored — it is
no resend of group A's part, and its blank rows A1, A2, A3, A5 (scored from the earlier sheet)
were each warned of (RESULT_LEFT_BLANK ×4, exit 1).  A resend that does fill tables the earlier
sheet scored is still said, and quotes the earlier result as counted: the levels computed from
the 明细 (it quoted "的成绩（）" for a table recorded only there, and "（台上方 乙）" for one with
only 台上方 typed beside its 明细)."""
from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
from pathlib import Path

import openpyxl
import pytest

from mailedit import send_mail, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
FILE = "guandan-r1-成绩表.xlsx"

#: the first sheet: group A as the audit's referee filled it (A4's "14" is no level), the
#: other groups' tables plain levels
FIRST = {("A", 1): {"甲方级数": "K", "乙方级数": "8"}, ("A", 2): {"甲方级数": "7", "乙方级数": "9"},
         ("A", 3): {"台上方": "乙"}, ("A", 4): {"甲方级数": "14", "乙方级数": "J"}, ("A", 5): {}}
DEALS = {("A", 3): [("甲", "二游"), ("乙", "二游")],        # 5:5, 台上方 typed (乙)
         ("A", 5): [("甲", "二游"), ("甲", "三游")]}        # 7:2, the 成绩 row blank


def _issues(out: Path) -> list[dict[str, str]]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _sheet(out: Path, rows: dict[tuple, dict[str, str]], deals: dict[tuple, list] | None = None,
           others: bool = False) -> openpyxl.Workbook:
    """A fresh copy of round 1's 成绩表 with ``rows`` filled (and ``deals`` on 明细); ``others``:
    every drawn table of groups B on filled too (K:8)."""
    wb = openpyxl.load_workbook(out / "t2016-poker" / "results" / FILE)
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    for r in range(hrow + 1, ws.max_row + 1):
        key = (ws.cell(r, col["组别"]).value, ws.cell(r, col["桌号"]).value)
        if key[1] is None or ws.cell(r, col["乙方"]).value == "轮空":
            continue
        vals = rows.get(key, {"甲方级数": "K", "乙方级数": "8"} if others and key[0] != "A" else {})
        for label, v in vals.items():
            ws.cell(r, col[label]).value = v
    ds = wb["明细"]
    dh, dcol = table_header(ds)
    for r in range(dh + 1, ds.max_row + 1):
        hands = (deals or {}).get((ds.cell(r, dcol["组别"]).value, ds.cell(r, dcol["桌号"]).value), [])
        n = ds.cell(r, dcol["局号"]).value
        if n is not None and n <= len(hands):
            ds.cell(r, dcol["头游方"]).value, ds.cell(r, dcol["头游对家名次"]).value = hands[n - 1]
    return wb


def _send(folder: Path, wb, name: str, date: str) -> None:
    buf = io.BytesIO()
    wb.save(buf)
    send_mail(folder, name, [(FILE, buf.getvalue())], date, sender="referee@union.example.edu.cn")


@pytest.fixture
def league(tmp_path):
    """t2016-poker at round 1 drawn, the first sheet (A4 wrong) received and run."""
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").glob("*"):
        if "成绩表" in p.name or "加赛" in p.name:
            p.unlink()
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    _send(folder, _sheet(out, FIRST, DEALS, others=True), "1126-r1.eml", "Sat, 26 Nov 2016 09:45:00 +0800")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    (bad,) = [i for i in _issues(out) if i["severity"] == "error"]
    assert bad["file"] == FILE and "\"14\"" in bad["message"], bad
    return folder, out


def test_R2016_a_fresh_sheet_filling_only_the_flagged_table_is_a_correction_not_a_resend(league):
    folder, out = league
    _send(folder, _sheet(out, {("A", 4): {"甲方级数": "10", "乙方级数": "J"}}), "1126-r1-A4.eml",
          "Sat, 26 Nov 2016 09:50:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    found = _issues(out)
    assert not [i for i in found if i["code"] == "RESULT_LEFT_BLANK"], found
    assert not [i for i in found if i["severity"] != "info"], found
    assert not report.needs_attention
    results = {(r.match.group, r.match.table): r for r in report.state.events["guandan"].results.values()
               if r.match.round == 1}
    assert results[("A", 4)].detail["levels"] == (10, 11), results[("A", 4)]
    assert results[("A", 5)].detail["levels"] == (7, 2) and results[("A", 3)].detail["levels"] == (5, 5)


def test_R2016_a_resend_leaving_scored_tables_blank_quotes_the_levels_counted(league):
    """A later sheet that fills A1, A2 again (scored by the earlier one) and corrects A4, A3 and
    A5 left blank: a resend of group A's part, said for A3 and A5 as before — with the levels
    the earlier sheet's 明细 gave, which are what still counts."""
    folder, out = league
    _send(folder, _sheet(out, {**{k: v for k, v in FIRST.items() if k in (("A", 1), ("A", 2))},
                               ("A", 4): {"甲方级数": "10", "乙方级数": "J"}}),
          "1126-r1-again.eml", "Sat, 26 Nov 2016 09:50:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    said = {i["message"].split("：", 1)[0]: i for i in _issues(out) if i["code"] == "RESULT_LEFT_BLANK"}
    assert sorted(said) == ["扑克牌 第1轮 A组 第3桌", "扑克牌 第1轮 A组 第5桌"], said
    assert all(i["severity"] == "warning" for i in said.values()) and report.needs_attention
    three, five = said["扑克牌 第1轮 A组 第3桌"]["message"], said["扑克牌 第1轮 A组 第5桌"]["message"]
    assert "的成绩（甲方级数 5、乙方级数 5、台上方 乙）计分" in three, three
    assert "的成绩（甲方级数 7、乙方级数 2）计分" in five, five


def test_R2016_a_resend_leaving_the_unscored_table_blank_does_not_say_its_result_counts(league):
    """A resend of group A's part with A4 (its "14" no level) left blank: A4 has no result to
    go on counting — it was said to be scored "（甲方级数 14、乙方级数 J）" (RESULT_LEFT_BLANK);
    its own problem stays an error and says what to change."""
    folder, out = league
    _send(folder, _sheet(out, {k: v for k, v in FIRST.items() if k != ("A", 4)}, DEALS), "1126-r1-again.eml",
          "Sat, 26 Nov 2016 09:50:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    found = _issues(out)
    assert not [i for i in found if i["code"] == "RESULT_LEFT_BLANK"], found
    (bad,) = [i for i in found if i["severity"] != "info"]
    assert bad["code"] == "RESULT_INVALID" and "14" in bad["message"], bad
    assert report.needs_attention and any("A组第4桌成绩有误待改正" in e for e in report.events), report.events
