"""R2020-A1 with the contract's exit status: a referee's late correction of a finished event's
result (the later sheet counts, RESULT_CONFLICT) that moves someone after the places and
awards were published is said as a warning (PLACES_CHANGED: exit 1, "needs attention"), naming
who moved, the awards that changed hands and the sheet that did it — once, on that night.
(The audit's case: 跳棋's round-5 first table corrected on 11-20 gave 一等奖 to the other
finalist with 错误 0 条，警告 0 条 and exit 0.)"""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _first_prize(out: Path, event: str) -> str:
    with open(out / "t2020-league" / "data" / "awards.csv", encoding="utf-8") as f:
        return next(r["team"] for r in csv.DictReader(f) if r["event"] == event and r["award"] == "一等奖")


def _flip_r5_table1(wb) -> None:
    ws = wb["成绩"]
    assert (ws["F8"].value, ws["G8"].value) == (1, 2)      # 龚俊杰 1 : 于建明 2 (games won)
    ws["F8"], ws["G8"] = 2, 0


def test_R2020_A1_a_late_correction_that_moves_published_places_is_a_warning_once(tmp_path):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert not first.needs_attention and "PLACES_CHANGED" not in [i.code for i in first.issues]
    assert _first_prize(out, "checkers") == "于建明"

    inbox = folder / "inbox"
    edit_attachment(inbox / "11181655-checkers-r5-成绩表.eml", _flip_r5_table1,
                    save_as=inbox / "1120-checkers-r5-更正.eml", date="Fri, 20 Nov 2020 09:00:00 +0800")
    fixed = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert _first_prize(out, "checkers") == "龚俊杰"
    (changed,) = [i for i in fixed.issues if i.code == "PLACES_CHANGED"]
    assert changed.severity == "warning" and fixed.needs_attention
    assert changed.message.startswith("跳棋：更正后名次有变：第1名 于建明 → 龚俊杰；第2名 龚俊杰 → 于建明。")
    assert "一等奖 于建明 → 龚俊杰" in changed.message
    assert changed.file == "checkers-r5-成绩表.xlsx" and "（11月20日 09:00 收到）" in changed.message
    # the office's 下一步 says it (it said nothing: the one night's warning was easily missed),
    # and the page of files of no unit speaks of referees' sheets, not of a unit's missing form
    assert any(s.startswith("跳棋已公布的名次和奖项有变") and "奖状" in s for s in fixed.next_steps), fixed.next_steps
    from pipeline.render import site_vm
    page = site_vm.branch_vm(fixed.state, site_vm.UNASSIGNED)
    assert page.summary.state == "有 1 条警告" and not any("报名表" in s for s in page.next_steps)
    # (with an error among them, it says so: it said 未提交)
    import dataclasses
    from pipeline.model import Severity
    bad = dataclasses.replace(changed, severity=Severity.ERROR, code="RESULT_INVALID")
    assert site_vm._branch_row(site_vm.UNASSIGNED, "", [], [bad], 0, "").state == "有 1 处错误待改"
    assert any("名次和奖项有变" in s for s in page.next_steps), page.next_steps

    # said on the night the places changed only: the ledger holds them as published now
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))          # an unchanged night
    assert "PLACES_CHANGED" not in [i.code for i in again.issues] and not again.needs_attention
    assert not any("名次和奖项有变" in s for s in again.next_steps), again.next_steps      # (it was still said)
    (out / "t2020-league" / ".lastrun.json").unlink()                                   # the kept event states
    kept = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert "PLACES_CHANGED" not in [i.code for i in kept.issues] and not kept.needs_attention
    assert _first_prize(out, "checkers") == "龚俊杰"


def test_R2016_A1_published_places_withdrawn_pending_a_playoff_are_said_once(tmp_path):
    """A finished event whose published places no longer stand and which now waits for a 加赛
    lost all 8 awards with no word that published places were withdrawn (PLACES_CHANGED fired
    only when the event was finished again; the audit's route was g03's pairs refused after a
    member-count change).  Here a referee's correction of round 3, mailed on a later night,
    puts 信工4队 level with group D's winner (204 each, never met): group D waits for a 加赛.
    PLACES_CHANGED (warning) says the places and awards are withdrawn and what the event waits
    for, that night only."""
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert not first.needs_attention
    (r3,) = (folder / "inbox").glob("*-guandan-r3-*.eml")

    def corrected(wb):
        ws = wb["成绩"]
        (row,) = [r for r in ws.iter_rows(min_row=8) if r[3].value == "信工4队"]
        assert (row[1].value, row[4].value, row[5].value, row[6].value) == ("D", "后勤2队", "K", "5")
        row[6].value = "4"                     # 相差 8 → 9 级: 信工4队 84 → 88, 200 → 204 in all
    edit_attachment(r3, corrected, save_as=folder / "inbox" / "1127-guandan-r3-更正.eml",
                    date="Sun, 27 Nov 2016 09:00:00 +0800")
    night = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert "PLAYOFF_REQUIRED" in [i.code for i in night.issues]
    (withdrawn,) = [i for i in night.issues if i.code == "PLACES_CHANGED"]
    assert withdrawn.severity == "warning" and night.needs_attention
    assert withdrawn.message.startswith("扑克牌：已公布的名次和奖项撤回："), withdrawn.message
    assert "需加赛决定名次：D组第1名" in withdrawn.message and "请组织加赛" in withdrawn.message
    assert (first.out_dir / "data" / "awards.csv").read_text(encoding="utf-8").count("\n") == 1    # header only

    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))          # an unchanged night
    assert "PLACES_CHANGED" not in [i.code for i in again.issues]
    (out / "t2016-poker" / ".lastrun.json").unlink()                                   # a whole night again
    kept = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert "PLACES_CHANGED" not in [i.code for i in kept.issues]


def _swap_games_of_every_table(wb) -> None:
    """Every table's 胜局 swapped: a sheet that rewrites the whole round (a later round's
    results typed on this round's blank sheet reads so)."""
    ws = wb["成绩"]
    for row in ws.iter_rows(min_row=7):
        if isinstance(row[5].value, int) and isinstance(row[6].value, int):
            row[5].value, row[6].value = row[6].value, row[5].value


def test_a_sheet_rewriting_most_of_a_published_round_is_a_warning_on_its_night(tmp_path):
    """A referee fills round 1's blank sheet with round 2's results after round 2 was drawn:
    eight corrections, each a note (RESULT_CONFLICT, info), 错误 0 条，警告 0 条, exit 0.  Now
    RESULTS_REWRITTEN, a warning on the night the sheet comes (and in 下一步) — not every night
    after (a true correction of many tables is no lasting problem)."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    inbox = folder / "inbox"
    edit_attachment(inbox / "11101755-checkers-r1-成绩表.eml", _swap_games_of_every_table,
                    save_as=inbox / "1120-checkers-r1-又一份.eml", date="Fri, 20 Nov 2020 09:00:00 +0800")
    night = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    (w,) = [i for i in night.issues if i.code == "RESULTS_REWRITTEN"]
    assert w.severity == "warning" and night.needs_attention and "跳棋 第1轮" in w.message and "11 桌" in w.message
    assert "之后的对阵已经公布" in w.message
    assert any("RESULTS_REWRITTEN" in s for s in night.next_steps)
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert "RESULTS_REWRITTEN" not in [i.code for i in again.issues]
    (out / "t2020-league" / ".lastrun.json").unlink()          # a full run, not a kept report
    full = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert "RESULTS_REWRITTEN" not in [i.code for i in full.issues]


NIGHT_19 = dt.datetime(2020, 11, 19, 12, 0, tzinfo=TZ)
NIGHT_20 = dt.datetime(2020, 11, 20, 12, 0, tzinfo=TZ)


def _awards(out_dir: Path, event: str) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    with open(out_dir / "data" / "awards.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["event"] == event:
                rows.setdefault(r["award"], []).append(r["team"])
    return rows


def _awards_edited(tmp_path: Path, sample: str, old: str, new: str, after: str, now1, now2):
    """The sample's whole inbox run at ``now1``; then ``old`` → ``new`` in tournament.yaml (the
    first after ``after``) and a run at ``now2``: (first report, edited night's report)."""
    folder = tmp_path / sample
    shutil.copytree(ROOT / "sample_sheets" / sample, folder)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now1))
    assert not first.needs_attention
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    j = text.index(old, text.index(after))
    spec.write_text(text[:j] + new + text[j + len(old):], encoding="utf-8")
    return first, run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now2))


def test_R2020_A1_an_award_count_edited_after_publication_is_a_warning_once(tmp_path):
    """The audit's case: 象棋's 二等奖 count 2 → 1 after the places were published moved 曹秀
    to 三等奖 and 闫宇刚 to 决赛参与奖 with 错误 0 条，警告 0 条 and exit 0 (no place moved, so
    nothing was compared)."""
    first, night = _awards_edited(tmp_path, "t2020-league", "{award: 二等奖, count: 2}", "{award: 二等奖, count: 1}",
                                  "- id: xiangqi", NIGHT_19, NIGHT_20)
    assert _awards(night.out_dir, "xiangqi")["二等奖"] == ["郑超"]
    (changed,) = [i for i in night.issues if i.code == "PLACES_CHANGED"]
    assert changed.severity == "warning" and night.needs_attention
    assert changed.message.startswith("象棋：获奖有变："), changed.message
    assert "二等奖 郑超、曹秀 → 郑超" in changed.message or "二等奖 曹秀、郑超 → 郑超" in changed.message, changed.message
    assert "三等奖 余健艳、吕宁桂、闫宇刚 → 余健艳、吕宁桂、曹秀" in changed.message, changed.message
    assert "决赛参与奖（16 人 → 17 人）增加 闫宇刚" in changed.message and "awards" in changed.message, changed.message
    assert any(s.startswith("象棋已公布的名次和奖项有变") for s in night.next_steps), night.next_steps
    # said that night only
    again = run(RunOptions(folder=night.out_dir.parent.parent / "t2020-league", out_parent=night.out_dir.parent,
                           pdf=False, now=NIGHT_20 + dt.timedelta(days=1)))
    assert "PLACES_CHANGED" not in [i.code for i in again.issues] and not again.needs_attention


def test_R2020_A1_an_award_renamed_after_publication_is_a_warning(tmp_path):
    first, night = _awards_edited(tmp_path, "t2020-league", "{award: 三等奖, count: 3}", "{award: 优秀奖, count: 3}",
                                  "- id: xiangqi", NIGHT_19, NIGHT_20)
    assert "优秀奖" in _awards(night.out_dir, "xiangqi")
    (changed,) = [i for i in night.issues if i.code == "PLACES_CHANGED"]
    assert changed.severity == "warning" and "三等奖" in changed.message and "优秀奖" in changed.message, changed.message


def test_R2020_A1_the_rest_award_removed_after_publication_is_a_warning(tmp_path):
    first, night = _awards_edited(tmp_path, "t2020-league", "      rest: 决赛参与奖\n", "", "- id: xiangqi",
                                  NIGHT_19, NIGHT_20)
    assert "决赛参与奖" not in _awards(night.out_dir, "xiangqi")
    (changed,) = [i for i in night.issues if i.code == "PLACES_CHANGED"]
    assert changed.severity == "warning" and "决赛参与奖" in changed.message, changed.message


def test_R2011_A1_prize_money_edited_after_publication_is_a_warning(tmp_path):
    first, night = _awards_edited(tmp_path, "t2011-court", "第一名: 300", "第一名: 500", "awards:", NOW, NOW)
    changed = [i for i in night.issues if i.code == "PLACES_CHANGED"]
    assert len(changed) == 1 and changed[0].severity == "warning" and night.needs_attention, changed
    assert "第一名 奖金 300 元 → 500 元" in changed[0].message, changed[0].message


def test_R2020_A1_places_recorded_without_their_awards_are_still_read(tmp_path):
    """A ledger whose places were published by an older version (the list of places alone, no
    awards): read as before; an awards edit re-publishes them with the awards, so the next edit
    is compared with the awards given."""
    import json
    import sqlite3

    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NIGHT_19))
    with sqlite3.connect(first.out_dir / "ledger.sqlite") as db:
        for event, body in db.execute("SELECT event, body FROM places").fetchall():
            db.execute("UPDATE places SET body=? WHERE event=?",
                       (json.dumps(json.loads(body)["places"], ensure_ascii=False), event))
    (first.out_dir / ".lastrun.json").unlink()
    same = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NIGHT_20))
    assert not same.needs_attention and "PLACES_CHANGED" not in [i.code for i in same.issues]
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("{award: 二等奖, count: 2}", "{award: 二等奖, count: 1}", 1),
                    encoding="utf-8")
    edited = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NIGHT_20))
    assert _awards(edited.out_dir, "xiangqi")["二等奖"] == ["郑超"]
    with sqlite3.connect(first.out_dir / "ledger.sqlite") as db:
        (body,) = db.execute("SELECT body FROM places WHERE event='xiangqi'").fetchone()
    rec = json.loads(body)
    second = next(e for r, e, *_ in rec["places"] if r == 2)
    assert ["", "二等奖", second, 0] in rec["awards"] and len([a for a in rec["awards"] if a[1] == "二等奖"]) == 1
