"""R2020-A1, R2015-A1 with R2015-P1: an event is finished only when every table of every
published round has its result.  The runner looked at the last round alone: a finished
event one of whose earlier tables lost its result (the office switched 双扣's
``penalty_mode`` from defender_total to none, and a round-1 table's 明细 no longer gave its
levels: RESULT_INVALID) still said 已完成 / 已結束 beside 「已賽 4 輪」, and its places and
awards were published again from the tables left, that table's two teams one match short.

Now such an event waits, as one waiting for a table of its last round does: the status line
names the round, the table and why (成绩有误待改正), the places and awards published are
withdrawn (PLACES_CHANGED, 撤回 — as for a last-round table), not published from the tables
that are left, and none is published until the table has its result again."""
from __future__ import annotations

import csv
import datetime as dt
import os
import re
import shutil
from pathlib import Path

import openpyxl

from mailedit import t2015_forms
from pipeline import run as run_mod
from pipeline.games import GAMES
from pipeline.issues import issue
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_R2020_A1_a_table_of_an_earlier_round_without_a_result_keeps_a_finished_event_waiting(tmp_path, monkeypatch):
    """Any format (here 跳棋's knockout): round 1's 第2桌 has no result on a later night (its
    row refused, as a stricter check or a changed game option refuses it) — the event is not
    finished, waits naming 第1轮 第2桌, and its published places and awards are withdrawn, not
    published again without that table; once the table is read again they are published."""
    folder, out = tmp_path / "t2020-league", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert first.state.events["checkers"].complete
    awards = out / "t2020-league" / "data" / "awards.csv"
    published = [r for r in _rows(awards) if r["event"] == "checkers"]
    assert published

    game = type(GAMES.get("checkers"))
    parse = game.parse_round

    def refusing(self, rnd, rows, points, options, details=None):
        results, found = parse(self, rnd, rows, points, options, details)
        row = next((r for r in rows if rnd.round == 1 and r.match.table == 2), None)
        if row is not None:
            results = [r for r in results if r.match.key != row.match.key]
            found = [*found, issue("RESULT_INVALID", "第1轮 第2桌：这一行不符合规则（测试）", at=row.at("甲方胜局"))]
        return results, found

    with monkeypatch.context() as m:
        m.setattr(game, "parse_round", refusing)
        m.setattr(run_mod.lastrun, "code_hash", lambda: "refusing")
        (out / "t2020-league" / ".lastrun.json").unlink(missing_ok=True)      # (another version's run)
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    es = report.state.events["checkers"]
    assert not es.complete
    assert "第1轮" in es.waiting and "第2桌成绩有误待改正" in es.waiting, es.waiting
    assert any(e.startswith("跳棋：") and "第2桌成绩有误待改正" in e for e in report.events), report.events
    assert "跳棋：已完成" not in report.events
    (changed,) = [i for i in report.issues if i.code == "PLACES_CHANGED" and i.message.startswith("跳棋")]
    assert "已公布的名次和奖项撤回" in changed.message and "第2桌成绩有误待改正" in changed.message, changed.message
    assert not [r for r in _rows(awards) if r["event"] == "checkers"]
    from pipeline.render import site_vm
    assert site_vm.event_status(es) != "已结束"

    # the table read again: finished, and its places published again as they were
    monkeypatch.setattr(run_mod.lastrun, "code_hash", lambda: "reading-again")
    (out / "t2020-league" / ".lastrun.json").unlink(missing_ok=True)
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert again.state.events["checkers"].complete and "跳棋：已完成" in again.events
    assert [r for r in _rows(awards) if r["event"] == "checkers"] == published


# -- 双扣 (R2015-P1 penalty_mode), the audit's case -----------------------------------------------

def _header(ws, first: str = "桌号") -> tuple[int, dict[str, int]]:
    hrow = next(r for r in range(1, 30) if any(c.value == first for c in ws[r]))
    return hrow, {c.value: c.column for c in ws[hrow] if c.value}


def _fill_round(out: Path, inbox: Path, n: int, when: dt.datetime) -> None:
    """双扣 round ``n``'s issued sheet, filled by its referee (levels by table) and put into the
    inbox; round 1's 第1桌 with a 明细 whose first hand holds a dealer-side −20 (R2015-P1:
    70 + 20 = 90 → 乙 take over; 乙 then shut 甲 out, +4 stopping at 5): 2:5."""
    wb = openpyxl.load_workbook(out / "t2015-tcm" / "results" / f"shuangkou-r{n}-成绩表.xlsx")
    ws = wb["成绩"]
    hrow, col = _header(ws)
    levels = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for r in range(hrow + 1, ws.max_row + 1):
        table = ws.cell(r, col["桌号"]).value
        if table is None or "輪空" in (ws.cell(r, col["甲方"]).value, ws.cell(r, col["乙方"]).value):
            continue
        a, b = (("2", "5") if n == 1 and table == 1 else
                (levels[(table * 5 + n) % 12], levels[(table * 7 + n + 1) % 12]))
        if a == b:
            b = "K" if a != "K" else "Q"
        ws.cell(r, col["甲方级数"]).value, ws.cell(r, col["乙方级数"]).value = a, b
    if n == 1:
        ds = wb["明细"]
        dh, dcol = _header(ds)
        hands = [{"庄家方": "甲", "闲家得分": 70, "罚分方": "甲", "罚分次数": 1}, {"庄家方": "乙", "闲家得分": 0}]
        rows = [r for r in range(dh + 1, ds.max_row + 1) if ds.cell(r, dcol["桌号"]).value == 1]
        for r, hand in zip(rows, hands):
            for label, v in hand.items():
                ds.cell(r, dcol[label]).value = v
    path = inbox / f"sk-r{n}.xlsx"
    wb.save(path)
    os.utime(path, (when.timestamp(), when.timestamp()))


def test_R2015_A1_P1_penalty_mode_changed_after_the_end_keeps_the_event_waiting(tmp_path):
    """The audit's route: 双扣 played out, its places published; the office sets penalty_mode
    none; round 1's 第1桌 明细 no longer gives 2:5 (RESULT_INVALID).  The event is not 已完成:
    it waits naming 瑞士制第1轮 第1桌, the event page does not say 已結束, its places are
    withdrawn — not published again with two teams one match short."""
    folder, out = t2015_forms(tmp_path), tmp_path / "out"
    inbox = folder / "inbox"

    def night(at: str):
        return run(RunOptions(folder=folder, out_parent=out, pdf=False,
                              now=dt.datetime.fromisoformat(at).replace(tzinfo=TZ)))
    night("2015-11-15T10:00")
    sent = dt.datetime(2015, 12, 5, 17, 20, tzinfo=TZ)
    for n in range(1, 6):
        _fill_round(out, inbox, n, sent)
        report = night(f"2015-12-0{n}T22:00")
    assert report.state.events["shuangkou"].complete, report.events
    assert [r for r in _rows(out / "t2015-tcm" / "data" / "awards.csv") if r["event"] == "shuangkou"]

    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "penalty_mode: defender_total}" in text
    spec.write_text(text.replace("penalty_mode: defender_total}", "penalty_mode: none}"), encoding="utf-8")
    report = night("2015-12-06T10:00")
    es = report.state.events["shuangkou"]
    assert not es.complete
    assert "瑞士制第1轮" in es.waiting and "第1桌成绩有误待改正" in es.waiting, es.waiting
    assert not any(e.startswith("双扣：已完成") for e in report.events), report.events
    bad = [i for i in report.issues if i.code == "RESULT_INVALID" and i.file == "sk-r1.xlsx"]
    assert bad and bad[0].sheet == "明细"
    (changed,) = [i for i in report.issues if i.code == "PLACES_CHANGED" and i.message.startswith("双扣")]
    assert "已公布的名次和奖项撤回" in changed.message, changed.message
    assert not [r for r in _rows(out / "t2015-tcm" / "data" / "awards.csv") if r["event"] == "shuangkou"]
    page = (out / "t2015-tcm" / "events" / "shuangkou.html").read_text(encoding="utf-8")
    assert "已結束" not in re.sub(r"<[^>]+>", " ", page)
