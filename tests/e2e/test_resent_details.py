"""Handbook, RESULT_CONFLICT (较晚收到的一份按更正处理): a later sheet's row for a table counts as
the referee's correction only when it can be read.  A sheet sent again with a table's 成绩 row
unchanged but a bad row on its detail sheet (牌局明细 / 明细) wiped the table's accepted
result: the places changed (a false PLACES_CHANGED, 名次依据 emptied) and DRAW_INPUT_CHANGED
went out, though the totals were those already accepted (the auditor's T2011 season, round 2
of 斗地主: a 春天 with 地主胜 否).  When the totals differed, the earlier result already stood."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import pytest
from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
LATER = "Fri, 20 Nov 2020 09:00:00 +0800"

#: event → (its detail sheet, one hand of 第1桌 that cannot be read)
BAD_HAND = {
    # R2011-D2 / R2020-D3: 春天 is the landlord's win, but 地主胜 says 否
    "doudizhu": ("牌局明细", {"地主": "甲", "叫分": 1, "炸弹数": 0, "春天": "是", "反春天": "否", "地主胜": "否"}),
    # R2020-C1: 庄家方 is 甲 or 乙
    "shuangsheng": ("明细", {"庄家方": "丙", "捡分方得分": 20}),
}


def _header(ws) -> tuple[int, dict[str, int]]:
    hrow = next(r for r in range(1, 30) if any(c.value == "桌号" for c in ws[r]))
    return hrow, {c.value: c.column for c in ws[hrow] if c.value}


def _bad_first_hand(event: str):
    """The sheet as sent, 成绩 untouched; 第1桌's first hand on the detail sheet replaced by
    ``BAD_HAND[event]`` (the cells of ``where`` get its first cell's address)."""
    sheet, hand = BAD_HAND[event]

    def edit(wb) -> None:
        ws = wb[sheet]
        hrow, col = _header(ws)
        r = next(r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["桌号"]).value == 1)
        for label, value in hand.items():
            ws.cell(r, col[label]).value = value
    return edit


def _table1(report, event: str):
    return [[s.points for s in r.sides] for r in report.state.events[event].results.values()
            if r.match.round == 1 and r.match.table == 1 and not r.match.group]


def _standings(out: Path) -> list[dict[str, str]]:
    with open(out / "t2020-league" / "data" / "standings.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("event", sorted(BAD_HAND))
def test_result_conflict_an_unchanged_row_with_a_bad_hand_keeps_the_earlier_result(tmp_path, event):
    """RESULT_CONFLICT ("仍按较早的一份计分"), R2020-D3 / R2020-C1: the finished 2020 league;
    round 1's sheet sent again on 11-20 with every 成绩 row as accepted and 第1桌's first hand
    on the detail sheet unreadable.  第1桌 keeps its result, the places do not move, no
    PLACES_CHANGED or DRAW_INPUT_CHANGED goes out, and the bad hand's error says that the
    later row was not taken."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    before = _standings(out)
    scored = _table1(first, event)
    assert scored, scored
    r1 = next((folder / "inbox").glob(f"*-{event}-r1-*.eml"))
    edit_attachment(r1, _bad_first_hand(event), folder / "inbox" / f"1120-{event}-r1-again.eml", date=LATER)
    night = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert _table1(night, event) == scored
    assert _standings(out) == before
    codes = {i.code for i in night.issues} - {i.code for i in first.issues}
    assert not codes & {"PLACES_CHANGED", "DRAW_INPUT_CHANGED", "RESULT_CONFLICT", "RESULTS_REWRITTEN"}, codes
    sheet = BAD_HAND[event][0]
    (bad,) = [i for i in night.issues if i.sheet == sheet and str(i.severity) == "error"]
    assert "这一行没有计入" in bad.message and "仍按较早收到的" in bad.message, bad.message
    assert ("春天" if event == "doudizhu" else "庄家方") in bad.message, bad.message
    assert "11月10日 17:55 收到" in bad.message, bad.message


def _swap_scores(changed: list[int]):
    """斗地主 round 1 corrected at every table whose 甲得分 and 乙得分 differ (swapped; their
    numbers appended to ``changed``), 第1桌's first hand made unreadable as well."""
    bad = _bad_first_hand("doudizhu")

    def edit(wb) -> None:
        ws = wb["成绩"]
        hrow, col = _header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            a, b = ws.cell(r, col["甲得分"]), ws.cell(r, col["乙得分"])
            if isinstance(a.value, int) and isinstance(b.value, int) and a.value != b.value:
                a.value, b.value = b.value, a.value
                changed.append(ws.cell(r, col["桌号"]).value)
        bad(wb)
    return edit


def test_results_rewritten_counts_only_the_tables_a_sheet_changed(tmp_path):
    """RESULTS_REWRITTEN: a later 斗地主 round-1 sheet corrects all 7 tables, but 第1桌's
    correction cannot be read (a bad hand: 不按更正处理, the earlier result stands).  The
    warning said 改动了已有成绩中的 7 桌 — the table it did not change among them; it counts
    the 6 it changed."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    scored = _table1(first, "doudizhu")
    changed: list[int] = []
    r1 = next((folder / "inbox").glob("*-doudizhu-r1-*.eml"))
    edit_attachment(r1, _swap_scores(changed), folder / "inbox" / "1120-doudizhu-r1-更正.eml", date=LATER)
    assert 1 in changed and len(changed) == 7, changed     # (every table of the round)
    night = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert _table1(night, "doudizhu") == scored
    notes = [i.message for i in night.issues if i.code == "RESULT_CONFLICT" and "斗地主" in i.message]
    assert sum("不按更正处理" in m for m in notes) == 1 and sum("按更正处理，采用较晚" in m for m in notes) == 6, notes
    (w,) = [i for i in night.issues if i.code == "RESULTS_REWRITTEN"]
    assert "斗地主 第1轮" in w.message and "改动了已有成绩中的 6 桌（本轮共 7 桌）" in w.message, w.message


@pytest.mark.parametrize("swap", [False, True], ids=["same-totals", "other-totals"])
def test_result_conflict_no_row_of_a_table_readable_leaves_the_latest_taken(tmp_path, swap):
    """The other side of the rule: the earlier sheet's 第1桌 cannot be read either (the same
    bad hand on both).  Falling back would only move the problem to the older sheet — and
    say, wrongly, that it is scored from it (这一桌仍按较早收到的…计分; with other totals the
    old code did, with two errors for one table).  The latest row stays taken: one error, at
    the later sheet's hand, and the table waits for a correction."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    r1 = next((folder / "inbox").glob("*-doudizhu-r1-*.eml"))
    edit_attachment(r1, _bad_first_hand("doudizhu"))

    def later(wb) -> None:
        ws = wb["成绩"]
        hrow, col = _header(ws)
        a, b = ws.cell(hrow + 1, col["甲得分"]), ws.cell(hrow + 1, col["乙得分"])
        if swap:
            a.value, b.value = b.value, a.value
        ws.cell(hrow + 1, col["裁判签名"]).value = "王裁判"        # (not the same file)
    edit_attachment(r1, later, folder / "inbox" / "1120-doudizhu-r1-again.eml", date=LATER)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert _table1(report, "doudizhu") == []
    bad = [i for i in report.issues if i.sheet == "牌局明细" and str(i.severity) == "error"]
    assert len(bad) == 1 and "这一行没有计入" not in bad[0].message, bad
    assert not [i for i in report.issues if "斗地主" in i.message and "仍按较早收到的" in i.message]
    assert any("斗地主" in e and "还差 1 桌" in e for e in report.events), report.events
