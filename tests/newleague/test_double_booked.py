"""R2020-S1 with R2020-Q2 off (``one_event_per_person: false``): a person entered in two events
is drawn into both, and every event's round k is played in the same session — the office is
warned (DOUBLE_BOOKED, a warning: the run goes on) of a person seated at two tables of one
session, naming the session, both events' tables and the unit."""
from __future__ import annotations

import os

import openpyxl

from pipeline import layout as L
from pipeline import newleague
from pipeline.issues import SAID_ONCE
from pipeline.run import RunOptions, run
from pipeline.spec import load_tournament

from .helpers import NOW, RECEIVED, header, small_answers


def _league(tmp_path, limit: str):
    a = small_answers(2)
    a["events"] = [{"name": "象棋", "game": "象棋", "format": "循环赛", "quota": "fixed 2"},
                   {"name": "围棋", "game": "围棋", "format": "循环赛", "quota": "fixed 2"}]
    a["one_event_per_person"] = limit
    folder = tmp_path / "t2026"
    newleague.create(folder, answers=a)
    return folder


def _forms(folder, rows_of):
    """Each unit's form with ``rows_of[unit id]``: (event, name, 工号) rows, put in the inbox."""
    t = load_tournament(folder)
    for u in t.spec.units:
        path = next((folder / "templates").glob(f"{t.spec.id}-{u.id}-*.xlsx"))
        wb = openpyxl.load_workbook(path)
        ws = wb[L.REG_SHEET]
        hrow, col = header(ws)
        for k, (event, name, staff) in enumerate(rows_of[u.id], start=hrow + 1):
            ws.cell(k, col["项目"]).value = event
            ws.cell(k, col["姓名"]).value = name
            ws.cell(k, col["工号"]).value = staff
            ws.cell(k, col["性别"]).value = "男"
        dest = folder / "inbox" / path.name
        wb.save(dest)
        os.utime(dest, (RECEIVED.timestamp(),) * 2)


ROWS = {"b01": [("象棋", "丁一", "1001"), ("象棋", "丁二", "1002"), ("围棋", "丁一", "1001"), ("围棋", "丁三", "1003")],
        "b02": [("象棋", "乙一", "2001"), ("象棋", "乙二", "2002"), ("围棋", "乙三", "2003"), ("围棋", "乙四", "2004")]}


def test_R2020_Q2_a_person_seated_at_two_tables_of_one_session_is_said_to_the_office(tmp_path):
    folder = _league(tmp_path, "否")
    _forms(folder, ROWS)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert all(es.rounds for es in report.state.events.values())
    (said,) = [i for i in report.issues if i.code == "DOUBLE_BOOKED"]
    assert str(said.severity) == "warning"
    assert said.branch == "b01"
    for words in ("丁一", "第1分工会", "2026年1月17日 08:30—12:00", "象棋", "围棋", "第1桌", "one_event_per_person"):
        assert words in said.message, (words, said.message)
    assert "DOUBLE_BOOKED" in SAID_ONCE         # a note on the next nights: the office has been told
    assert any("DOUBLE_BOOKED" in s for s in report.next_steps), report.next_steps
    from pipeline.render.site_vm import CODE_LABEL
    assert CODE_LABEL.get("DOUBLE_BOOKED")


def test_R2020_Q2_no_warning_when_nobody_is_in_two_events(tmp_path):
    folder = _league(tmp_path, "否")
    rows = {u: [r if r[1] != "丁一" or r[0] == "象棋" else ("围棋", "丁四", "1004") for r in rs]
            for u, rs in ROWS.items()}
    _forms(folder, rows)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert all(es.rounds for es in report.state.events.values())
    assert not [i for i in report.issues if i.code == "DOUBLE_BOOKED"]


def test_R2020_Q2_said_once_then_a_note(tmp_path):
    folder = _league(tmp_path, "否")
    _forms(folder, ROWS)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW.replace(hour=22)))   # another night
    assert [str(i.severity) for i in report.issues if i.code == "DOUBLE_BOOKED"] == ["info"]
    assert not any("DOUBLE_BOOKED" in s for s in report.next_steps)


def test_R2020_Q2_one_person_one_event_refuses_the_second_entry_instead(tmp_path):
    folder = _league(tmp_path, "是")
    _forms(folder, ROWS)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert [i.code for i in report.issues if i.code in ("MULTI_EVENT", "DOUBLE_BOOKED")] == ["MULTI_EVENT"] * 2



def test_R2020_Q2_a_row_without_gonghao_does_not_make_two_people_of_one_name_one(tmp_path):
    """From a review: seats were grouped one by one, each joining the first person it matched —
    丁一 (工号 1001) in 象棋, a 丁一 without 工号 in 围棋, another 丁一 (工号 1005) in 跳棋, all of
    one unit: the row without 工号 matched both, and the two 工号 were taken for one person,
    said to be at three tables.  Seats are one person only when they match directly: the row
    without 工号 may be either 丁一, so it goes with each of them, said so (未填工号) — 1001 and
    1005 are never one person."""
    folder = _league(tmp_path, "否")
    spec = folder / "tournament.yaml"
    import yaml

    raw = yaml.safe_load(spec.read_text(encoding="utf-8"))
    third = dict(raw["events"][1], id="checkers", name="跳棋", game="checkers")
    raw["events"].append(third)
    spec.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    rows = {"b01": [("象棋", "丁一", "1001"), ("象棋", "丁二", "1002"), ("围棋", "丁一", None), ("围棋", "丁三", "1003"),
                    ("跳棋", "丁一", "1005"), ("跳棋", "丁四", "1004")],
            "b02": ROWS["b02"] + [("跳棋", "乙五", "2005"), ("跳棋", "乙六", "2006")]}
    _forms(folder, rows)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert len(report.state.events) == 3 and all(es.rounds for es in report.state.events.values())
    said = sorted(i.message for i in report.issues if i.code == "DOUBLE_BOOKED")
    assert len(said) == 2, said
    import re

    seated = sorted(tuple(re.findall(r"“(.+?)”循环赛", m.split("同时排在")[1].split("（")[0])) for m in said)
    assert seated == [("围棋", "跳棋"), ("象棋", "围棋")], said       # 1001 with the 围棋 row; 1005 with it
    assert all("“围棋”的丁一报名时未填工号" in m for m in said), said
