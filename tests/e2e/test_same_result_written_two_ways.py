"""Handbook RESULT_CONFLICT / RESULTS_REWRITTEN: two rows of a table differ only when what the
game reads from them differs.  A result written by colour (R2015-F1: 黑中盘胜, B+R, W+2.5, ½)
and the same result picked from the dropdown (甲胜 …) are one result: neither two sheets
received at once (it was RESULT_CONFLICT, an error, and round 2 waited for 第1桌两份成绩不一致)
nor a later re-send (each table 按更正处理, and RESULTS_REWRITTEN 改动了已有成绩中的 6 桌, exit 1)
disagree.  A real change is still a conflict — an error when at once, a note when later — at
the first cell whose reading changed."""
from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import openpyxl

from mailedit import send_mail, t2015_forms, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

REFEREE = "referee@union.example.edu.cn"
AT_1150 = "Sat, 07 Nov 2015 11:50:00 +0800"
AT_1250 = "Sat, 07 Nov 2015 12:50:00 +0800"
#: round 1 of the 围棋 event, six tables (甲方 holds black at each: 黑/B → 甲胜)
COLOUR = ["黑中盘胜", "白中盘胜", "B+R", "W+2.5", "黑胜1/4子", "½"]
PLAIN = ["甲胜", "乙胜", "甲胜", "乙胜", "甲胜", "和棋"]


def _league(tmp_path: Path) -> tuple[Path, Path, Path]:
    folder, out = t2015_forms(tmp_path), tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 10, 31, 8, tzinfo=TZ)))
    (form,) = (out / "t2015-tcm" / "results").glob("go-r1-*.xlsx")
    return folder, out, form


def _sheet(form: Path, results: list[str], signed: str = "", **more: list[str]) -> bytes:
    """Round 1's issued sheet with ``results`` in 结果 (and ``more``: other columns), top down."""
    wb = openpyxl.load_workbook(form)
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    rows = [r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["乙方"]).value not in (None, "")]
    for label, values in {"结果": results, **more}.items():
        for r, v in zip(rows, values):
            ws.cell(r, col[label]).value = v
    if signed:
        ws.cell(rows[0], col["裁判签名"]).value = signed
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _go(report, *codes: str) -> list:
    return [i for i in report.issues if i.code in codes and i.file.startswith("go-r1")]


def _at_once(tmp_path: Path, one: list[str], other: list[str]):
    folder, out, form = _league(tmp_path)
    send_mail(folder, "a.eml", [("go-r1-成绩表-王.xlsx", _sheet(form, one, "王裁判")),
                                ("go-r1-成绩表-李.xlsx", _sheet(form, other, "李裁判"))], AT_1150, sender=REFEREE)
    return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 11, 7, 12, tzinfo=TZ)))


def test_RESULT_CONFLICT_same_result_two_ways_at_once_is_no_conflict(tmp_path):
    night = _at_once(tmp_path, ["黑中盘胜", "乙胜", "甲胜"], PLAIN)
    assert not _go(night, "RESULT_CONFLICT"), _go(night, "RESULT_CONFLICT")
    assert not [s for s in night.next_steps if "不一致" in s], night.next_steps
    assert not [i for i in night.issues if i.severity == "error" and i.file.startswith("go-r1")], night.issues


def test_RESULT_CONFLICT_real_change_at_once_is_still_an_error(tmp_path):
    """Control: 白中盘胜 (乙胜) on one sheet, 甲胜 on the other — a disagreement, the table waits."""
    night = _at_once(tmp_path, ["白中盘胜", "乙胜", "甲胜"], PLAIN)
    (c,) = _go(night, "RESULT_CONFLICT")
    assert c.severity == "error" and c.cell == "F8" and "两份同时收到" in c.message, c
    assert [s for s in night.next_steps if "第1桌两份成绩不一致" in s], night.next_steps


def _later(tmp_path: Path, first: list[str], then: list[str], first_reasons: tuple = (), **then_more: list[str]):
    folder, out, form = _league(tmp_path)
    more = {"原因": list(first_reasons)} if first_reasons else {}
    send_mail(folder, "a.eml", [(form.name, _sheet(form, first, **more))], AT_1150, sender=REFEREE)
    night_1 = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 11, 7, 12, tzinfo=TZ)))
    send_mail(folder, "b.eml", [(form.name, _sheet(form, then, **then_more))], AT_1250, sender=REFEREE)
    return night_1, run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 11, 7, 13, tzinfo=TZ)))


def test_RESULTS_REWRITTEN_resend_as_dropdown_choices_is_no_rewrite(tmp_path):
    night_1, night_2 = _later(tmp_path, COLOUR, PLAIN)
    assert not [i for i in night_1.issues if i.severity != "info" and i.file.startswith("go-r1")], night_1.issues
    assert not _go(night_2, "RESULT_CONFLICT", "RESULTS_REWRITTEN"), _go(night_2, "RESULT_CONFLICT", "RESULTS_REWRITTEN")
    assert not [i for i in night_2.issues if i.severity != "info" and i.file.startswith("go-r1")], night_2.issues


def test_RESULT_CONFLICT_later_real_change_is_a_correction(tmp_path):
    """Control: the re-send changes table 2 (白中盘胜 → 甲胜) and only that: one note, at 结果."""
    _, night_2 = _later(tmp_path, COLOUR, ["甲胜", "甲胜", "甲胜", "乙胜", "甲胜", "和棋"])
    (c,) = _go(night_2, "RESULT_CONFLICT")
    assert c.severity == "info" and c.cell == "F9" and "按更正处理" in c.message, c
    assert not _go(night_2, "RESULTS_REWRITTEN")


def test_RESULT_CONFLICT_points_at_the_cell_whose_reading_changed(tmp_path):
    """黑中盘胜 / 中盘胜 re-sent as 甲胜 / 超时: the result reads the same, the reason does not —
    a correction said at 原因, not at 结果 (typed differently, but read alike)."""
    _, night_2 = _later(tmp_path, COLOUR, PLAIN, ("中盘胜",), 原因=["超时"])
    (c,) = _go(night_2, "RESULT_CONFLICT")
    assert c.severity == "info" and c.cell == "G8" and "按更正处理" in c.message, c


def test_RESULT_CONFLICT_reason_filled_in_on_a_result_read_alike_is_no_conflict(tmp_path):
    """黑中盘胜 re-sent as 甲胜 with the blank 原因 now 中盘胜: a blank filled in on a row that
    reads as before, the result unchanged — taken without a word (as 乙方警告 1 filled in is)."""
    _, night_2 = _later(tmp_path, COLOUR, PLAIN, 原因=["中盘胜"])
    assert not _go(night_2, "RESULT_CONFLICT", "RESULTS_REWRITTEN"), _go(night_2, "RESULT_CONFLICT")


#: round 1 as score pairs, 甲方's points first (R2011-F3, audit 39): the same results as PLAIN
PAIRS = ["1-0", "0-1", "1:0", "0：1", "１－０", "½-½"]


def test_RESULT_CONFLICT_score_pairs_and_choices_at_once_are_no_conflict(tmp_path):
    night = _at_once(tmp_path, PAIRS, PLAIN)
    assert not _go(night, "RESULT_CONFLICT"), _go(night, "RESULT_CONFLICT")
    assert not [i for i in night.issues if i.severity == "error" and i.file.startswith("go-r1")], night.issues


def test_RESULTS_REWRITTEN_score_pairs_resent_as_choices_is_no_rewrite(tmp_path):
    night_1, night_2 = _later(tmp_path, PAIRS, PLAIN)
    assert not [i for i in night_1.issues if i.severity != "info" and i.file.startswith("go-r1")], night_1.issues
    assert len(_go(night_1, "RESULT_READ_AS")) == 5, _go(night_1, "RESULT_READ_AS")
    assert not _go(night_2, "RESULT_CONFLICT", "RESULTS_REWRITTEN"), _go(night_2, "RESULT_CONFLICT", "RESULTS_REWRITTEN")


def test_RESULT_CONFLICT_score_pair_that_changes_the_result_is_a_correction(tmp_path):
    """Control: table 2 re-sent as 1-0 (was 乙胜): a correction at 结果."""
    _, night_2 = _later(tmp_path, PLAIN, ["甲胜", "1-0", "甲胜", "乙胜", "甲胜", "和棋"])
    (c,) = _go(night_2, "RESULT_CONFLICT")
    assert c.severity == "info" and c.cell == "F9" and "按更正处理" in c.message, c
