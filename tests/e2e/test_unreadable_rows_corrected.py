"""Handbook RESULT_CONFLICT / RESULTS_REWRITTEN: a later sheet's row replacing a row whose
result could not be read (RESULT_INVALID: a value not in the list) is the correction the
office asked for — nothing changed that had counted, so no RESULT_CONFLICT (填写的成绩不一致，
按更正处理) and it is not counted by RESULTS_REWRITTEN.  The audit's case (t2015 围棋 round 1):
3 of 6 results refused (黑方赢了, 甲赢, 乙方赢了), the referee resends the sheet with just
those fixed — the run warned 改动了已有成绩中的 3 桌 (exit 1), told the office to check for
another round's results entered by mistake, and noted 3 conflicts for tables that never had
a result.  A real change of readable, scored results still says both."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment, t2015_forms
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
SHEET = ROOT / "sample_sheets" / "t2015-tcm" / "inbox" / "11071155-go-r1-成绩表.eml"   # 11-07 11:55, all 6 tables
EARLIER = "Sat, 07 Nov 2015 11:50:00 +0800"
NIGHT_1 = dt.datetime(2015, 11, 7, 11, 52, tzinfo=TZ)
NIGHT_2 = dt.datetime(2015, 11, 7, 12, 5, tzinfo=TZ)


def _results(**cells):
    def edit(wb) -> None:
        ws = wb["成绩"]
        assert ws["F7"].value == "结果"
        for cell, value in cells.items():
            ws[cell] = value
    return edit


def _two_nights(tmp_path: Path, **earlier):
    """Night 1: round 1's sheet as the sample has it but with ``earlier`` typed in (received
    11:50); night 2: the sample's sheet itself (11:55, the referee's resend)."""
    folder = t2015_forms(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 10, 31, 8, tzinfo=TZ)))
    edit_attachment(SHEET, _results(**earlier), save_as=folder / "inbox" / "11071150-go-r1-成绩表.eml", date=EARLIER)
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NIGHT_1))
    shutil.copy(SHEET, folder / "inbox" / SHEET.name)
    return first, run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NIGHT_2))


def _go(report, code: str) -> list:
    return [i for i in report.issues if i.code == code and i.file == "go-r1-成绩表.xlsx"]


def test_rows_never_read_then_corrected_are_no_rewrite_nor_conflict(tmp_path):
    first, night = _two_nights(tmp_path, F8="黑方赢了", F9="甲赢", F10="乙方赢了")
    assert sorted(i.cell for i in _go(first, "RESULT_INVALID") if i.severity == "error") == ["F10", "F8", "F9"]
    assert not _go(night, "RESULTS_REWRITTEN"), _go(night, "RESULTS_REWRITTEN")
    assert not _go(night, "RESULT_CONFLICT"), _go(night, "RESULT_CONFLICT")
    assert not any("RESULTS_REWRITTEN" in s or "另一轮" in s for s in night.next_steps), night.next_steps
    # the refused rows are settled (the later sheet corrected them): nothing left to act on
    assert not [i for i in night.issues if i.severity != "info" and "go-r1" in i.file], night.issues
    assert not night.needs_attention


def test_a_real_rewrite_of_read_results_still_warns(tmp_path):
    """Control: 3 of the 6 tables read and scored (乙胜), then changed (甲胜) — a rewrite of half
    the round: RESULTS_REWRITTEN, and a RESULT_CONFLICT note (按更正处理) for each table."""
    first, night = _two_nights(tmp_path, F8="乙胜", F9="乙胜", F10="乙胜")
    assert not _go(first, "RESULT_INVALID")
    (w,) = _go(night, "RESULTS_REWRITTEN")
    assert w.severity == "warning" and "改动了已有成绩中的 3 桌（本轮共 6 桌）" in w.message, w.message
    notes = _go(night, "RESULT_CONFLICT")
    assert sorted(i.cell for i in notes) == ["F10", "F8", "F9"], notes
    assert all(i.severity == "info" and "按更正处理" in i.message for i in notes), notes


def test_a_rewrite_counts_only_the_tables_that_had_a_result(tmp_path):
    """The same, with a 4th table whose earlier row could not be read (黑方赢了): corrected, but
    neither counted among the tables changed (it said 4 桌) nor noted as a conflict."""
    first, night = _two_nights(tmp_path, F8="乙胜", F9="乙胜", F10="乙胜", F11="黑方赢了")
    assert [i.cell for i in _go(first, "RESULT_INVALID") if i.severity == "error"] == ["F11"]
    (w,) = _go(night, "RESULTS_REWRITTEN")
    assert "改动了已有成绩中的 3 桌（本轮共 6 桌）" in w.message, w.message
    assert sorted(i.cell for i in _go(night, "RESULT_CONFLICT")) == ["F10", "F8", "F9"]
    assert not [i for i in _go(night, "RESULT_INVALID") if i.severity != "info"]
