"""DUPLICATE_PERSON across units (handbook): 不同单位先后报了同一人时，先收到的一份保留，错误标在
后收到的表上；同名、同项目，一行填了工号、另一行没填的，也按同一人提示。"""
from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from ingest.builders import T0, person, tournament, write_registration
from pipeline.ingest.registration import read_registration
from pipeline.ingest.workbook import read_workbook
from pipeline.model import Severity
from pipeline.run import first_seen
from pipeline.validate import validate_registrations

DAY = dt.timedelta(days=1)


def _form(tmp_path, t, branch, rows, at, name):
    p = write_registration(tmp_path / name, t, branch, rows)
    reg, _ = read_registration(read_workbook(p), name, t, received=at)
    return SimpleNamespace(received_at=at), reg


def _validate(t, forms, current):
    """Validate the ``current`` forms (indices into ``forms``) with every form's first sending."""
    seen = first_seen(SimpleNamespace(registrations=forms))
    return validate_registrations(t, [forms[i][1] for i in current], now=T0 + 5 * DAY, first_seen=seen)


def _dups(issues):
    return [(i.branch, i.cell, i.severity) for i in issues if i.code == "DUPLICATE_PERSON"]


def test_DUPLICATE_PERSON_a_resend_filling_in_the_staff_number_keeps_the_unit_first(tmp_path):
    """行政一 (b1) lists 张平秀 in 双升 on day 0 with 工号 blank; 机关二 (b2) lists him with 003005
    on day 1; b1 resends on day 2 with the 工号 filled in (or its typo 003905 corrected).  b1
    sent him first: b2's row is the later copy — the error moved to b1 and its pair was dropped."""
    t = tournament()
    for first in (None, "003905"):
        forms = [_form(tmp_path, t, "b1", [person("双升", "张平秀", first, team=1), person("双升", "乙", "001002", team=1)],
                       T0, "b1.xlsx"),
                 _form(tmp_path, t, "b2", [person("双升", "张平秀", "003005", team=1), person("双升", "丙", "002002", team=1)],
                       T0 + DAY, "b2.xlsx"),
                 _form(tmp_path, t, "b1", [person("双升", "张平秀", "003005", team=1), person("双升", "乙", "001002", team=1)],
                       T0 + 2 * DAY, "b1-补工号.xlsx")]
        entries, issues = _validate(t, forms, [1, 2])
        assert _dups(issues) == [("b2", "D5", Severity.ERROR)], (first, issues)
        assert "行政第一分工会" in next(i.message for i in issues if i.code == "DUPLICATE_PERSON")
        assert [e.id for e in entries if e.event == "shuangsheng"] == ["shuangsheng:b1:1"]


def test_DUPLICATE_PERSON_a_namesake_added_beside_the_units_own_person_is_new(tmp_path):
    """b1's resend keeps its own 张平秀 (003905) and adds a row 张平秀 003005 — b2's person, sent
    on day 1: a namesake the resend added, not the earlier row's person; b1's new row is the copy."""
    t = tournament()
    forms = [_form(tmp_path, t, "b1", [person("象棋", "张平秀", "003905")], T0, "b1.xlsx"),
             _form(tmp_path, t, "b2", [person("象棋", "张平秀", "003005")], T0 + DAY, "b2.xlsx"),
             _form(tmp_path, t, "b1", [person("象棋", "张平秀", "003905"), person("象棋", "张平秀", "003005")],
                   T0 + 2 * DAY, "b1-加人.xlsx")]
    entries, issues = _validate(t, forms, [1, 2])
    assert _dups(issues) == [("b1", "D6", Severity.ERROR)], issues
    assert sorted((e.branch, e.players[0].staff_id) for e in entries) == [("b1", "003905"), ("b2", "003005")]


def test_DUPLICATE_PERSON_one_name_in_one_event_of_two_units_with_one_staff_number(tmp_path):
    """行政一 (b1) lists 张平秀 in 象棋 with 工号 blank, 机关二 (b2) lists 张平秀 in 象棋 with 003005:
    one person by the handbook (同名、同项目，一行填了工号、另一行没填的，也按同一人提示) — both
    were entered, nothing said.  The later received form's row is the error, told where the
    other row is and what to change; received together, the blank 工号's row."""
    t = tournament()
    blank = [person("象棋", "乙", "001002"), person("象棋", "张平秀")]
    staffed = [person("象棋", "张平秀", "003005")]
    # b1's blank row first: b2's row is the copy, asked to delete it or have b1 fill in its 工号
    forms = [_form(tmp_path, t, "b1", blank, T0, "b1.xlsx"), _form(tmp_path, t, "b2", staffed, T0 + DAY, "b2.xlsx")]
    entries, issues = _validate(t, forms, [0, 1])
    assert _dups(issues) == [("b2", "D5", Severity.ERROR)], issues
    msg = next(i.message for i in issues if i.code == "DUPLICATE_PERSON")
    assert "行政第一分工会" in msg and "第 6 行" in msg and "E6" in msg and "填写工号" in msg, msg
    assert sorted(e.branch for e in entries if e.event == "xiangqi") == ["b1", "b1"]
    # b2's 工号 row first (or both at once): b1's blank row is the copy, asked to delete it or fill in the 工号
    for b2_at in (T0 - DAY, T0):
        forms = [_form(tmp_path, t, "b1", blank, T0, "b1.xlsx"), _form(tmp_path, t, "b2", staffed, b2_at, "b2.xlsx")]
        entries, issues = _validate(t, forms, [0, 1])
        assert _dups(issues) == [("b1", "E6", Severity.ERROR)], issues
        msg = next(i.message for i in issues if i.code == "DUPLICATE_PERSON")
        assert "机关第二分工会" in msg and "第 5 行" in msg and "003005" in msg and "填写这一行的工号" in msg, msg
        assert sorted((e.branch, e.team) for e in entries if e.event == "xiangqi") == [("b1", "乙"), ("b2", "张平秀")]
    # both 工号 filled, and different: two people of one name
    forms = [_form(tmp_path, t, "b1", [person("象棋", "张平秀", "001009")], T0, "b1.xlsx"),
             _form(tmp_path, t, "b2", staffed, T0 + DAY, "b2.xlsx")]
    entries, issues = _validate(t, forms, [0, 1])
    assert not _dups(issues) and len(entries) == 2


def test_DUPLICATE_PERSON_a_row_in_a_published_round_stays_entered_with_a_warning(tmp_path):
    """A row an older version entered and drew (``drawn``: its person is in a published round)
    is not dropped by DUPLICATE_PERSON: a warning says the draw stands and the office decides;
    where only one unit's row is drawn, that unit keeps the person and the other row is the copy."""
    t = tournament()
    blank = [person("象棋", "乙", "001002"), person("象棋", "张平秀")]
    staffed = [person("象棋", "张平秀", "003005")]
    forms = [_form(tmp_path, t, "b1", blank, T0, "b1.xlsx"), _form(tmp_path, t, "b2", staffed, T0 + DAY, "b2.xlsx")]
    seen = first_seen(SimpleNamespace(registrations=forms))

    def run(drawn_units):
        return validate_registrations(t, [f[1] for f in forms], now=T0 + 5 * DAY, first_seen=seen,
                                      drawn=lambda reg, row: "象棋第1轮" if reg.branch in drawn_units else "")
    # both rows drawn: b2's copy stays entered, a warning
    entries, issues = run({"b1", "b2"})
    assert _dups(issues) == [("b2", "D5", Severity.WARNING)], issues
    msg = next(i.message for i in issues if i.code == "DUPLICATE_PERSON")
    assert "象棋第1轮已抽签公布" in msg and "仍保留报名" in msg and "请组委会核实后决定" in msg, msg
    assert sorted(e.branch for e in entries if e.event == "xiangqi") == ["b1", "b1", "b2"]
    # only b2's row drawn (b1 sent first): b2 keeps the person, b1's blank row is the copy
    entries, issues = run({"b2"})
    assert _dups(issues) == [("b1", "E6", Severity.ERROR)], issues
    assert sorted((e.branch, e.team) for e in entries if e.event == "xiangqi") == [("b1", "乙"), ("b2", "张平秀")]
    # nothing drawn: the error, as before
    entries, issues = run(set())
    assert _dups(issues) == [("b2", "D5", Severity.ERROR)], issues
