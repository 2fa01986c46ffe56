"""R2020-Q4 judged per event: a branch's form resent after some events closed.

T2015 closes Go, Xiangqi and Bridge on 10-30 and Shuangkou on 11-14; a branch resends its whole
form with its Shuangkou pairs in November.  Under ``late_policy: reject`` the closed events keep
the rows of the form sent in time; the late form counts for the events still open.
"""
from __future__ import annotations

import datetime as dt

from ingest.builders import person, tournament, write_registration
from pipeline.ingest.registration import read_registration
from pipeline.ingest.workbook import read_workbook
from pipeline.issues import IssueLog
from pipeline.model import Severity
from pipeline.run import Inputs, current_registrations
from pipeline.store import Received, sha256
from pipeline.validate import validate_registrations

CST = dt.timezone(dt.timedelta(hours=8))
CLOSE_1 = dt.datetime(2020, 10, 30, 23, 59, tzinfo=CST)      # 象棋
CLOSE_2 = dt.datetime(2020, 11, 14, 23, 59, tzinfo=CST)      # 双升 (pairs)
ON_TIME = dt.datetime(2020, 10, 26, 9, 0, tzinfo=CST)
BETWEEN = dt.datetime(2020, 11, 5, 10, 0, tzinfo=CST)
NOW = dt.datetime(2020, 11, 6, 12, 0, tzinfo=CST)


def _tournament(policy: str = "reject"):
    return tournament(events=[
        {"id": "xiangqi", "name": "象棋", "game": "xiangqi", "format": {"type": "knockout"},
         "quota": {"rule": "fixed", "per_branch": 2}, "deadline": CLOSE_1.isoformat()},
        {"id": "shuangsheng", "name": "双升", "game": "shengji", "team_size": 2, "format": {"type": "knockout"},
         "quota": {"rule": "fixed", "per_branch": 2}, "deadline": CLOSE_2.isoformat()},
    ], one_event_per_person=False, late_policy=policy)


ON_TIME_ROWS = [person("象棋", "甲", "001"), person("象棋", "乙", "002"),
                person("双升", "丙", "003", team=1), person("双升", "丁", "004", team=1)]


def _form(tmp_path, t, name, rows, received):
    p = write_registration(tmp_path / name, t, "b1", rows)
    sha = sha256(p.read_bytes())
    reg, issues = read_registration(read_workbook(p), "b1-报名表.xlsx", t, received=received, source=sha)
    return Received(sha, ".xlsx", "b1-报名表.xlsx", received), reg, issues


def _night(tmp_path, t, forms):
    inputs = Inputs()
    for name, rows, received in forms:
        rec, reg, issues = _form(tmp_path, t, name, rows, received)
        inputs.registrations.append((rec, reg))
        inputs.reg_issues[rec.sha256] = issues
    log = IssueLog()
    cur, subs = current_registrations(inputs, log, t)
    entries, found = validate_registrations(t, cur.regs, now=NOW, events_of=cur.events_of)
    log.extend(found)
    return entries, list(log), inputs


def _players(entries, event):
    return sorted(p.name for e in entries if e.event == event for p in e.players)


def test_R2020_Q4_whole_form_resent_before_the_second_deadline_keeps_the_closed_event(tmp_path):
    t = _tournament()
    late = ON_TIME_ROWS[:2] + [person("双升", "戊", "005", team=1), person("双升", "己", "006", team=1)]
    entries, issues, inputs = _night(tmp_path, t, [("a.xlsx", ON_TIME_ROWS, ON_TIME), ("b.xlsx", late, BETWEEN)])
    assert _players(entries, "xiangqi") == ["乙", "甲"]          # kept, not dropped as late
    assert _players(entries, "shuangsheng") == ["己", "戊"]      # the open event takes the new pair
    superseded = next(i for i in issues if i.code == "SUPERSEDED")
    assert "“象棋”的报名已截止，仍以本表为准" in superseded.message
    # each quota is judged once, on the form that answers for the event: 双升 is one pair short
    newest = inputs.registrations[1][0].sha256
    assert [(i.code, i.source, "“双升”" in i.message) for i in issues if i.severity != Severity.INFO] == [
        ("QUOTA_SHORT", newest, True)]


def test_R2020_Q4_late_change_to_a_closed_event_is_refused_and_located(tmp_path):
    t = _tournament()
    late = [person("象棋", "甲", "001"), person("象棋", "庚", "007")] + ON_TIME_ROWS[2:]
    entries, issues, inputs = _night(tmp_path, t, [("a.xlsx", ON_TIME_ROWS, ON_TIME), ("b.xlsx", late, BETWEEN)])
    assert _players(entries, "xiangqi") == ["乙", "甲"]
    late_issue = [i for i in issues if i.code == "LATE_SUBMISSION"]
    assert len(late_issue) == 1 and late_issue[0].severity == Severity.ERROR
    newest = inputs.registrations[1][0].sha256
    assert late_issue[0].source == newest and late_issue[0].cell == "B5"
    assert "改动不予受理" in late_issue[0].message and "10月26日 09:00" in late_issue[0].message


def test_R2020_Q4_late_form_without_the_closed_event_keeps_it_with_a_note(tmp_path):
    t = _tournament()
    entries, issues, _ = _night(tmp_path, t, [("a.xlsx", ON_TIME_ROWS, ON_TIME),
                                              ("b.xlsx", ON_TIME_ROWS[2:], BETWEEN)])
    assert _players(entries, "xiangqi") == ["乙", "甲"]
    note = [i for i in issues if i.code == "LATE_SUBMISSION"]
    assert [i.severity for i in note] == [Severity.INFO] and "本表没有“象棋”的报名" in note[0].message


def test_R2020_Q4_reading_problems_of_kept_rows_still_count(tmp_path):
    t = _tournament()
    bad_phone = [person("象棋", "甲", "001", 联系电话="123"), person("象棋", "乙", "002")] + ON_TIME_ROWS[2:]
    _, issues, inputs = _night(tmp_path, t, [("a.xlsx", bad_phone, ON_TIME), ("b.xlsx", bad_phone, BETWEEN)])
    first, newest = (rec.sha256 for rec, _ in inputs.registrations)
    assert any(i.code == "BAD_VALUE" and i.source == first for i in issues)
    assert any(i.code == "BAD_VALUE" and i.source == newest for i in issues)


def test_R2020_Q4_a_form_late_for_an_event_it_never_had_on_time_is_still_refused(tmp_path):
    t = _tournament()
    late = ON_TIME_ROWS[2:] + [person("象棋", "甲", "001")]
    entries, issues, _ = _night(tmp_path, t, [("a.xlsx", ON_TIME_ROWS[2:], ON_TIME), ("b.xlsx", late, BETWEEN)])
    assert _players(entries, "xiangqi") == []
    assert [i.severity for i in issues if i.code == "LATE_SUBMISSION"] == [Severity.ERROR]


def test_accept_with_warning_takes_the_newest_form_whole(tmp_path):
    t = _tournament("accept-with-warning")
    late = [person("象棋", "甲", "001"), person("象棋", "庚", "007")] + ON_TIME_ROWS[2:]
    entries, issues, _ = _night(tmp_path, t, [("a.xlsx", ON_TIME_ROWS, ON_TIME), ("b.xlsx", late, BETWEEN)])
    assert _players(entries, "xiangqi") == ["庚", "甲"]
    assert [i.severity for i in issues if i.code == "LATE_SUBMISSION"] == [Severity.WARNING]


def test_R2020_Q2_a_late_form_cannot_move_a_player_out_of_a_closed_event(tmp_path):
    """One event per person: the late form moves 乙 from 象棋 (closed) to 双升 (open).  The kept
    象棋 row stands; only the late 双升 row is refused, and the pair waits for it."""
    import dataclasses

    t = _tournament()
    t.spec = dataclasses.replace(t.spec, one_event_per_person=True)
    late = [person("象棋", "甲", "001"), person("双升", "乙", "002", team=1), person("双升", "丁", "004", team=1)]
    entries, issues, inputs = _night(tmp_path, t, [("a.xlsx", ON_TIME_ROWS, ON_TIME), ("b.xlsx", late, BETWEEN)])
    assert _players(entries, "xiangqi") == ["乙", "甲"] and _players(entries, "shuangsheng") == []
    newest = inputs.registrations[1][0].sha256
    multi = [i for i in issues if i.code == "MULTI_EVENT"]
    assert [(i.source, i.cell) for i in multi] == [(newest, "B6")]
    assert "已报名象棋（该项目已截止" in multi[0].message


def test_R2020_Q4_a_units_only_form_after_every_deadline_is_refused_whole(tmp_path):
    """The unit's first and only form came after every event closed: it was a usable form
    with each row LATE_SUBMISSION — the unit counted as accepted, its receipt 部分内容有问题
    with a marked copy.  It is refused as a file, as a late resend is (from an audit)."""
    late = CLOSE_2 + dt.timedelta(hours=1)
    t = _tournament()
    rec, reg, issues = _form(tmp_path, t, "late.xlsx", ON_TIME_ROWS, late)
    inputs = Inputs()
    inputs.registrations.append((rec, reg))
    inputs.reg_issues[rec.sha256] = issues
    log = IssueLog()
    cur, subs = current_registrations(inputs, log, t)
    assert cur.regs == [] and [(s.status, s.refused) for s in subs] == [("rejected", "late")]
    (i,) = list(log)
    assert i.code == "LATE_SUBMISSION" and i.severity == Severity.ERROR and i.cell == ""
    assert "不予受理" in i.message and "目前没有登记的报名" in i.message


def test_R2020_Q4_a_form_received_in_the_deadline_minute_says_its_seconds(tmp_path):
    """A form received at 23:59:30 for a 23:59 deadline is late, and was refused as
    “于 2020-11-14 23:59 收到，已过全部项目的报名截止时间” — a time equal to the deadline: the
    captain could not see why.  The seconds are said in the deadline's minute; a form
    received on the deadline itself is on time."""
    t = _tournament()
    for k, (received, late) in enumerate(((CLOSE_2 + dt.timedelta(seconds=30), True), (CLOSE_2, False))):
        (tmp_path / str(k)).mkdir()
        rec, reg, issues = _form(tmp_path / str(k), t, "late.xlsx", ON_TIME_ROWS[2:], received)
        inputs = Inputs()
        inputs.registrations.append((rec, reg))
        inputs.reg_issues[rec.sha256] = issues
        log = IssueLog()
        current_registrations(inputs, log, t)
        said = [i.message for i in log if i.code == "LATE_SUBMISSION"]
        if late:
            assert len(said) == 1 and "于 2020-11-14 23:59:30 收到，已过全部项目的报名截止时间" in said[0], said
        else:
            assert said == []


def test_R2020_Q4_a_late_change_in_the_deadline_minute_says_its_seconds(tmp_path):
    """The same for one event's deadline: 截止时间为 2020-10-30 23:59，本表收到时间为
    2020-10-30 23:59:30 — both the refused change of a kept event and a late event's rows."""
    t = _tournament()
    in_minute = CLOSE_1 + dt.timedelta(seconds=30)
    late = [person("象棋", "甲", "001"), person("象棋", "庚", "007")] + ON_TIME_ROWS[2:]
    _, issues, _ = _night(tmp_path, t, [("a.xlsx", ON_TIME_ROWS, ON_TIME), ("b.xlsx", late, in_minute)])
    (said,) = [i.message for i in issues if i.code == "LATE_SUBMISSION"]
    assert "截止时间为 2020-10-30 23:59，本表收到时间为 2020-10-30 23:59:30（逾期）" in said, said
    (tmp_path / "x").mkdir()
    _, issues, _ = _night(tmp_path / "x", t, [("a.xlsx", ON_TIME_ROWS[2:], ON_TIME),
                                             ("b.xlsx", ON_TIME_ROWS[2:] + [person("象棋", "甲", "001")], in_minute)])
    (said,) = [i.message for i in issues if i.code == "LATE_SUBMISSION"]
    assert "截止时间为 2020-10-30 23:59，本表收到时间为 2020-10-30 23:59:30（逾期）" in said, said
