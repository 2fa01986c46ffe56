"""Small pure helpers of the batch (pipeline.run)."""
from __future__ import annotations

from pipeline.model import Round
from pipeline.run import only_deciding_ties, stage_title
from pipeline.score.base import StandingRow


def test_stage_title_drops_round_number():
    assert stage_title("小组循环赛第1轮") == "小组循环赛"
    assert stage_title("瑞士制第 12 轮") == "瑞士制"
    assert stage_title("决赛") == "决赛"
    assert stage_title("淘汰赛第一轮") == "淘汰赛"


def _rows(ranks):
    return [StandingRow(entry=f"e{i}", rank=r, points=0, playoff_required=sum(x == r for x in ranks) > 1)
            for i, r in enumerate(ranks)]


def test_R2011_F1_only_a_tie_for_the_advancing_place_needs_a_playoff():
    rows = only_deciding_ties(_rows([1, 1, 3, 4, 4]), {1})
    assert [r.playoff_required for r in rows] == [True, True, False, False, False]


def test_R2020_A1_tie_inside_one_award_band_needs_no_playoff():
    # 一等奖 ×1 (boundary 1), 二等奖 ×2 (boundary 3): a 2nd–3rd tie shares 二等奖
    rows = only_deciding_ties(_rows([1, 2, 2]), {1, 3})
    assert not any(r.playoff_required for r in rows)
    rows = only_deciding_ties(_rows([1, 2, 3, 3]), {1, 3})
    assert [r.playoff_required for r in rows] == [False, False, True, True]


def test_round_title_names_the_round_once():
    assert Round("e", "rr", "小组循环赛第2轮", 2, ()).title == "小组循环赛第2轮"
    assert Round("e", "ko", "淘汰赛第一轮", 1, ()).title == "淘汰赛第一轮"
    assert Round("e", "final", "决赛", 4, ()).title == "第4轮（决赛）"
    assert Round("e", "x", "", 3, ()).title == "第3轮"


def test_a_returned_copy_marks_only_the_issues_about_its_own_workbook(tmp_path):
    """Two captains both send a ``报名表.xlsx``, and one sends a corrected copy of it: each
    returned copy marks its own branch's problems, and only the older copy says it was
    superseded (as their receipts list them: Submission.concerns)."""
    import datetime as dt

    from pipeline.issues import issue
    from pipeline.model import CellRef
    from pipeline.run import plan_returned_copies
    from pipeline.state import Submission

    when = dt.datetime(2020, 11, 2, 9, 0)
    (tmp_path / "received").mkdir()
    subs = [Submission("a" * 64, "报名表.xlsx", "u1", when, status="superseded"),
            Submission("b" * 64, "报名表.xlsx", "u1", when + dt.timedelta(hours=1)),
            Submission("c" * 64, "报名表.xlsx", "u2", when)]
    for s in subs:
        (tmp_path / "received" / f"{s.sha256}.xlsx").write_bytes(b"PK")
    bad_phone = issue("BAD_VALUE", "电话号码应为 11 位", at=CellRef("报名表.xlsx", "报名表", "E5"), branch="u2")
    superseded = issue("SUPERSEDED", "《报名表.xlsx》已被取代", at=CellRef("报名表.xlsx"), branch="u1")
    unreadable = issue("BAD_VALUE", "无法识别的行", at=CellRef("报名表.xlsx", "报名表", "A9"))   # branch unknown
    plan = {c.submission.sha256[0]: c for c in plan_returned_copies(tmp_path, subs, [bad_phone, superseded, unreadable], {})}
    assert set(plan["a"].issues) == {superseded, unreadable}
    assert plan["b"].issues == [unreadable]
    assert set(plan["c"].issues) == {bad_phone, unreadable}
    assert len({c.key for c in plan.values()}) == 3 and all(c.name and not c.fresh for c in plan.values())


def test_an_issue_that_names_its_file_goes_to_that_file_only(tmp_path):
    """A corrected form has the name of the one it replaces: ``Issue.source`` (the received
    file's SHA-256) tells their problems apart; an issue without one goes by name as before."""
    import datetime as dt

    from pipeline.issues import issue
    from pipeline.model import CellRef
    from pipeline.run import plan_returned_copies
    from pipeline.state import Submission

    when = dt.datetime(2020, 11, 2, 9, 0)
    (tmp_path / "received").mkdir()
    old, new = (Submission("a" * 64, "报名表.xlsx", "u1", when, status="superseded"),
                Submission("b" * 64, "报名表.xlsx", "u1", when + dt.timedelta(hours=1)))
    for s in (old, new):
        (tmp_path / "received" / f"{s.sha256}.xlsx").write_bytes(b"PK")
    at = CellRef("报名表.xlsx", "报名表", "D10")
    note = issue("SUPERSEDED", "已被其后收到的《报名表.xlsx》取代", at=CellRef("报名表.xlsx"), branch="u1", source=old.sha256)
    new_bad = issue("BAD_VALUE", "电话号码应为 11 位", at=at, branch="u1", source=new.sha256)
    old_bad = issue("UNKNOWN_EVENT", "“象旗”不是项目", at=at, branch="u1", source=old.sha256)
    by_name = issue("BAD_VALUE", "无法识别的行", at=at, branch="u1")
    plan = {c.submission.sha256[0]: c for c in plan_returned_copies(tmp_path, [old, new],
                                                                    [note, new_bad, old_bad, by_name], {})}
    assert set(plan["a"].issues) == {note, old_bad, by_name}
    assert set(plan["b"].issues) == {new_bad, by_name}
    assert not new.concerns(old_bad) and not new.concerns(note) and old.concerns(old_bad)


def test_a_returned_copy_name_fits_any_file_system(tmp_path):
    """A hundred-character attachment name gave a copy name over 255 bytes (no copy made);
    Windows refuses <>:"/\\|?* in names: the captain's part is cut and cleaned."""
    import datetime as dt

    from pipeline.run import plan_returned_copies
    from pipeline.state import Submission

    (tmp_path / "received").mkdir()
    s = Submission("a" * 64, "行政第一分工会" * 15 + ':"报名表"?.xlsx', "u1", dt.datetime(2020, 11, 2, 9, 0))
    (tmp_path / "received" / f"{s.sha256}.xlsx").write_bytes(b"PK")
    (copy,) = plan_returned_copies(tmp_path, [s], [], {})
    assert len(copy.name.encode()) < 200 and not set('<>:"/\\|?*') & set(copy.name)
    (tmp_path / copy.name).write_bytes(b"ok")     # the file system takes it


def test_a_returned_copy_sent_back_again_keeps_a_short_name(tmp_path):
    """A returned copy sent back and back again got an ever longer name
    (b08-b08-…（bad-phone）-030a2d87-返-0f45945e-返回.xlsx): our own ``<unit>-`` and
    ``-<hash>-返回`` (or ``-返``, cut short) are taken off the captain's file name first.  A copy
    an earlier night made under the longer name keeps it (recorded in the ledger, or on disk):
    only new names change.  A captain's own name ending in digits (报名表-20201108) is kept."""
    import datetime as dt

    from pipeline.run import plan_returned_copies
    from pipeline.state import Submission

    (tmp_path / "received").mkdir()
    when = dt.datetime(2020, 11, 8, 18, 0)
    again = "b08-b08-马克思主义学院分工会-报名表（bad-phone）-030a2d87-返-0f45945e-返回.xlsx"
    subs = [Submission("a" * 64, "b08-马克思主义学院分工会-报名表（bad-phone）-030a2d87-返回.xlsx", "b08", when),
            Submission("b" * 64, again, "b08", when),
            Submission("c" * 64, "b08-马克思主义学院分工会-报名表-7df26d7e-返回 (1).xlsx", "b08", when),
            Submission("d" * 64, "报名表-20201108.xlsx", "b08", when)]
    for x in subs:
        (tmp_path / "received" / f"{x.sha256}.xlsx").write_bytes(b"PK")
    names = [c.name for c in plan_returned_copies(tmp_path, subs, [], {})]
    assert names == ["b08-马克思主义学院分工会-报名表（bad-phone）-aaaaaaaa-返回.xlsx",
                     "b08-马克思主义学院分工会-报名表（bad-phone）-bbbbbbbb-返回.xlsx",
                     "b08-马克思主义学院分工会-报名表-cccccccc-返回.xlsx",       # (saved twice: “ (1)”)
                     "b08-报名表-20201108-dddddddd-返回.xlsx"]
    # made under the old name on an earlier night: kept
    old = "b08-b08-马克思主义学院分工会-报名表（bad-phone）-030a2d87-返-aaaaaaaa-返回.xlsx"     # (cut at 40)
    (copy, *_) = plan_returned_copies(tmp_path, subs, [], {old: "k"})
    assert copy.name == old
    (tmp_path / "returned").mkdir()
    (tmp_path / "returned" / old).write_bytes(b"PK")
    (copy, *_) = plan_returned_copies(tmp_path, subs, [], {}, keys=False)
    assert copy.name == old

def test_a_tournament_folder_without_an_inbox_says_so(tmp_path):
    """A missing inbox/ (or a file of that name) read nothing without a word."""
    import datetime as dt
    import shutil
    from pathlib import Path

    from pipeline.run import RunOptions, run
    from pipeline.timeutil import TZ

    src = Path(__file__).resolve().parents[2] / "sample_sheets" / "t2020-league"
    folder = tmp_path / "t2020-league"
    folder.mkdir()
    for name in ("tournament.yaml", "secret.key"):
        shutil.copy(src / name, folder / name)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2020, 11, 1, tzinfo=TZ)))
    assert any("没有收件箱文件夹" in s and "本次没有读取任何文件" in s for s in report.next_steps)
    assert report.needs_attention and [i.code for i in report.issues if i.code == "INBOX_MISSING"]   # exit 1, not 0
    (folder / "inbox").write_text("not a folder")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out2", pdf=False,
                            now=dt.datetime(2020, 11, 1, tzinfo=TZ)))
    assert any("不是文件夹" in s for s in report.next_steps)


def test_T2015_a_round_is_scheduled_after_its_events_deadline():
    """双扣 closes on 11-14; its round 1 was printed for the 11-07 session of the others."""
    from pathlib import Path

    from pipeline.run import schedule
    from pipeline.spec import load_tournament

    t = load_tournament(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2015-tcm")
    rounds = [Round("x", "swiss", "瑞士制第1轮", k, ()) for k in (1, 2)]
    go, shuangkou = t.spec.event("go"), t.spec.event("shuangkou")
    assert schedule(t, go, rounds, [])[1].startswith("2015年11月7日 09:00")
    got = schedule(t, shuangkou, rounds, [])
    assert got[1].startswith("2015年11月21日 09:00") and got[2].startswith("2015年11月21日 14:00")


def test_R2016_F2_a_round_is_not_scheduled_before_its_draw_at():
    """t2016 draws round 1 at the check-in (draw_at 11-26 08:30): a session on 11-19 (after
    the 11-16 deadline) cannot hold it."""
    import dataclasses
    import datetime as dt
    from pathlib import Path
    from types import SimpleNamespace

    from pipeline.run import schedule
    from pipeline.spec import SessionSpec, load_tournament

    t = load_tournament(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2016-poker")
    early = SessionSpec(date=dt.date(2016, 11, 19), start=dt.time(8, 40), end=dt.time(12, 0))
    spec = dataclasses.replace(t.spec, sessions=[early, *t.spec.sessions])
    got = schedule(SimpleNamespace(spec=spec), spec.event("guandan"), [Round("guandan", "group", "分组赛第1轮", 1, ())], [])
    assert got[1].startswith("2016年11月26日 08:40")


def test_a_board_number_is_one_key_however_typed():
    """A 桥牌 correction with 牌号 typed "１" kept the older score and said "牌号 1 出现两次"
    about a row not in that sheet: the rows of one board are keyed by its number."""
    from pipeline.run import _board_key

    assert {_board_key(v) for v in ("１", 1.0, " 1", 1)} == {"1"}
    assert _board_key(None) == _board_key("") == "" and _board_key("x") == "x"


def _read_back_as_printed(t, printed, a, b) -> None:
    """A result row printed with ``printed``'s labels of entries ``a`` and ``b`` (a table of
    the tournament's first event) is read back as theirs: check_sides takes it, no issue."""
    import types

    from pipeline.issues import IssueLog
    from pipeline.model import Match, Round
    from pipeline.run import EventRunner

    ev = t.spec.events[0]
    runner = types.SimpleNamespace(t=t, _side_names={}, issues=IssueLog(), ev=ev)
    m = Match(ev.id, "swiss", 1, "", 1, (a.id, b.id))
    row = types.SimpleNamespace(values={"甲方": printed[a.id], "乙方": printed[b.id]}, cells={})
    assert EventRunner.check_sides(runner, m, row, ["甲方", "乙方"], Round(ev.id, "swiss", "", 1, (m,)),
                                   {a.id: a, b.id: b})
    assert not list(runner.issues)


def test_a_traditional_sheets_side_is_read_back_as_printed():
    """A Traditional league's result sheet prints 王着 as 王著, which does not convert back:
    the row was refused as not this table's (4 of 7,510 common characters)."""
    import types

    from pipeline.model import Entry, Person
    from pipeline.run import _side_labels
    from pipeline.spec import Tournament, TournamentSpec, validated

    spec = validated(TournamentSpec, {"id": "t", "name": "赛", "script": "traditional",
                                      "units": [{"id": "u1", "name": "针推学院"}, {"id": "u2", "name": "药学院"}],
                                      "events": [{"id": "go", "name": "围棋", "game": "go", "format": {"type": "swiss"}}]})
    t = Tournament(None, spec, b"0123456789abcdef0123")
    a = Entry("go:u1:1", "go", "u1", "王着", (Person("王着", "u1"),))
    b = Entry("go:u2:1", "go", "u2", "李明", (Person("李明", "u2"),))
    state = types.SimpleNamespace(tournament=t, entries=[a, b])
    printed = _side_labels(state, [a, b])
    assert printed[a.id] == "王著（針推學院）"
    _read_back_as_printed(t, printed, a, b)


def test_R2020_Q4_a_form_is_not_late_everywhere_while_an_event_has_no_deadline():
    """_late_everywhere decides that a resend is refused as a whole (已过全部项目的报名截止时间):
    an event without a deadline still takes forms, so a resend is never late everywhere then."""
    import datetime as dt
    from types import SimpleNamespace

    from pipeline.run import _late_everywhere
    from pipeline.timeutil import TZ

    def t(*deadlines):
        return SimpleNamespace(spec=SimpleNamespace(events=[SimpleNamespace(deadline=d) for d in deadlines]))
    d1, d2 = dt.datetime(2015, 10, 30, 17, tzinfo=TZ), dt.datetime(2015, 11, 6, 17, tzinfo=TZ)
    late = dt.datetime(2015, 11, 20, tzinfo=TZ)
    assert _late_everywhere(t(d1, d2), late)
    assert not _late_everywhere(t(d1, None), late)          # the event without one still takes it
    assert not _late_everywhere(t(d1, d2), dt.datetime(2015, 11, 1, tzinfo=TZ))
    assert not _late_everywhere(t(None, None), late) and not _late_everywhere(t(), late)


def test_people_dropped_carries_the_roster_form_to_form():
    """PEOPLE_DROPPED compares the newest form with the unit's roster carried form to form:
    a deliberate swap (p7–p9 → q1–q3, same count) becomes the roster, so a later form that
    drops q3 names q3 — not p7–p9 (the fullest form, form 1) — and names the form it
    replaced; a 补报 (one person) and then its correction are both compared with the full
    form before them."""
    from types import SimpleNamespace

    from pipeline.ingest.registration import RegRow, Registration
    from pipeline.issues import IssueLog
    from pipeline.run import _people_dropped

    def form(name, people):
        rows = tuple(RegRow(row=10 + i, columns={}, event="xiangqi", name=p, display_name=p) for i, p in enumerate(people))
        return SimpleNamespace(file_name=name, sha256=name), Registration(file=name, branch="b1", rows=rows)

    def said(*forms):
        log = IssueLog()
        _people_dropped(None, "b1", list(forms), {}, log)
        return [i.message for i in log]

    full = form("f1.xlsx", [f"p{i}" for i in range(10)])
    swapped = form("f2.xlsx", [f"p{i}" for i in range(7)] + ["q1", "q2", "q3"])
    short = form("f3.xlsx", [f"p{i}" for i in range(7)] + ["q1", "q2"])
    (message,) = said(full, swapped, short)
    assert "《f3.xlsx》整份取代了此前的《f2.xlsx》" in message and "q3（1 人）" in message and "p7" not in message
    assert said(full, swapped) == []                                   # a swap: no one named
    top_up, corrected = form("t.xlsx", ["new"]), form("t2.xlsx", ["new", "p0"])
    (message,) = said(full, top_up, corrected)
    assert "《t2.xlsx》整份取代了此前的《t.xlsx》" in message and "（9 人）" in message


def _xq_league():
    from pipeline.spec import Tournament, TournamentSpec, validated

    spec = validated(TournamentSpec, {"id": "t", "name": "赛", "units": [{"id": "b1", "name": "行政第一分工会"}],
                                      "events": [{"id": "xiangqi", "name": "象棋", "game": "xiangqi",
                                                  "quota": {"rule": "fixed", "per_branch": 2},
                                                  "format": {"type": "swiss"}}]})
    return Tournament(None, spec, b"0123456789abcdef0123")


def test_people_dropped_names_only_people_who_were_registered():
    """The audit: an over-quota form (3 象棋 rows, quota 2: all three refused, QUOTA_EXCEEDED);
    the captain deletes 郑多余 in the returned copy as told; the new form was warned “新表中没有
    此前报名的 郑多余 … 不在本分工会的报名中” — he never was.  The people compared are those
    the earlier form registered (its accepted rows), not every row typed; one it did register
    and the new form leaves out is still named."""
    import datetime as dt
    from types import SimpleNamespace

    from pipeline.ingest.registration import RegRow, Registration
    from pipeline.issues import IssueLog
    from pipeline.run import _people_dropped

    def form(name, people):
        rows = tuple(RegRow(row=10 + i, columns={}, event="xiangqi", name=p, display_name=p) for i, p in enumerate(people))
        return (SimpleNamespace(file_name=name, sha256=name, received_at=dt.datetime(2020, 11, 2, 9, 0)),
                Registration(file=name, branch="b1", rows=rows))

    def said(*forms):
        log = IssueLog()
        _people_dropped(_xq_league(), "b1", list(forms), {}, log)
        return [i.message for i in log]

    first = form("f.xlsx", ["吕宁桂", "严艳英"])
    over = form("over.xlsx", ["吕宁桂", "严艳英", "郑多余"])
    fixed = form("fixed.xlsx", ["吕宁桂", "严艳英"])
    assert said(first, over, fixed) == [] and said(over, fixed) == []
    (message,) = said(first, form("one.xlsx", ["吕宁桂"]))
    assert "严艳英（1 人）" in message


def test_people_dropped_names_the_form_they_were_registered_on():
    """b02: form 1 registers 龚俊杰; form 2 leaves him out (named on it); form 3, a copy of form
    2 corrected elsewhere, still leaves him out — the warning named form 2 as where he was
    registered before.  It names the form that registered him."""
    import datetime as dt
    from types import SimpleNamespace

    from pipeline.ingest.registration import RegRow, Registration
    from pipeline.issues import IssueLog
    from pipeline.run import _people_dropped

    def form(name, people):
        rows = tuple(RegRow(row=10 + i, columns={}, event="xiangqi", name=p, display_name=p) for i, p in enumerate(people))
        return (SimpleNamespace(file_name=name, sha256=name, received_at=dt.datetime(2020, 11, 2, 9, 0)),
                Registration(file=name, branch="b1", rows=rows))

    log = IssueLog()
    _people_dropped(_xq_league(), "b1", [form("f1.xlsx", ["余玉秀", "龚俊杰"]), form("f2.xlsx", ["余玉秀"]),
                                         form("f3.xlsx", ["余玉秀"])], {}, log)
    (i,) = list(log)
    assert i.message.startswith("《f3.xlsx》整份取代了此前的《f2.xlsx》"), i.message
    assert "《f1.xlsx》中报名的 龚俊杰（1 人）" in i.message and "此前报名的" not in i.message

def test_people_dropped_validates_no_form_when_no_one_is_left_out(monkeypatch):
    """A resend changing a phone number: no row typed is left out, so none registered is —
    the form before was validated (pipeline.validate imported) for nothing, before the
    returned copies were handed to the prestarted worker.  Someone left out still is."""
    import datetime as dt
    from types import SimpleNamespace

    import pipeline.run as run
    from pipeline.ingest.registration import RegRow, Registration
    from pipeline.issues import IssueLog

    def form(name, people):
        rows = tuple(RegRow(row=10 + i, columns={}, event="xiangqi", name=p, display_name=p) for i, p in enumerate(people))
        return (SimpleNamespace(file_name=name, sha256=name, received_at=dt.datetime(2020, 11, 2, 9, 0)),
                Registration(file=name, branch="b1", rows=rows))

    validated: list[str] = []
    real = run._registered_rows
    monkeypatch.setattr(run, "_registered_rows", lambda t, rec, reg: validated.append(rec.file_name) or real(t, rec, reg))
    log = IssueLog()
    run._people_dropped(_xq_league(), "b1", [form("f1.xlsx", ["余玉秀", "龚俊杰"]), form("f2.xlsx", ["余玉秀", "龚俊杰"])],
                        {}, log)
    assert (validated, list(log)) == ([], [])
    run._people_dropped(_xq_league(), "b1", [form("f1.xlsx", ["余玉秀", "龚俊杰"]), form("f2.xlsx", ["余玉秀"])], {}, log)
    assert validated == ["f1.xlsx"] and len(list(log)) == 1


def test_R2016_F2_a_pair_from_two_units_is_named_by_both_on_the_result_sheet():
    """A pair re-formed at check-in (R2016-F2) or a cross-unit pair (R2015-Q2): the result sheet
    named the first player's unit only (方鹏旭/潘霞洋（重组）（机关一）, 潘霞洋 being 机关二), where
    the draw sheet names both; the label is read back as printed (check_sides)."""
    import types

    from pipeline.model import Entry, Person
    from pipeline.run import _side_labels
    from pipeline.spec import Tournament, TournamentSpec, validated

    spec = validated(TournamentSpec, {"id": "t", "name": "赛",
                                      "units": [{"id": "g01", "name": "机关一分工会", "short": "机关一"},
                                                {"id": "g02", "name": "机关二分工会", "short": "机关二"}],
                                      "events": [{"id": "gd", "name": "掼蛋", "game": "guandan",
                                                  "format": {"type": "swiss"}}]})
    t = Tournament(None, spec, b"0123456789abcdef0123")
    a = Entry("gd:g01:1+gd:g02:1", "gd", "g01", "方鹏旭/潘霞洋（重组）", (Person("方鹏旭", "g01"), Person("潘霞洋", "g02")))
    b = Entry("gd:g01:2", "gd", "g01", "机关一2队", (Person("王军", "g01"), Person("李明", "g01")))
    state = types.SimpleNamespace(tournament=t, entries=[a, b])
    printed = _side_labels(state, [a, b])
    assert printed == {a.id: "方鹏旭/潘霞洋（重组）（机关一/机关二）", b.id: "机关一2队"}
    _read_back_as_printed(t, printed, a, b)


def test_spec_edited_names_what_changed_inside_a_list_item():
    """SPEC_EDITED of a session whose venue changed, and of a notice line whose phone number
    changed past its 40th character: both sides of each item, cut at 40 characters, read the
    same (a review); the change inside the item is said."""
    import json

    from pipeline.run import _spec_change

    def j(v):
        return json.dumps(v, ensure_ascii=False, sort_keys=True)
    a = [{"date": "2020-11-10", "start": "16:00:00", "end": "18:00:00", "venue": "工会活动中心三楼棋牌室"}]
    b = [{"date": "2020-11-10", "start": "16:00:00", "end": "18:00:00", "venue": "图书馆二楼报告厅"}]
    assert _spec_change("sessions", j(a), j(b)) == \
        'sessions：改了 1 项：（date=2020-11-10）venue "工会活动中心三楼棋牌室" → "图书馆二楼报告厅"'
    line = "请各分工会于11月9日前将报名表发送至工会邮箱，逾期不予受理，联系人：{}老师 13800000000"
    said = _spec_change("notice_extra", j([line.format("张")]), j([line.format("李")]))
    assert "张老师" in said and "李老师" in said, said
    assert _spec_change("sessions", j(a + b), j(a)).startswith("sessions：删除了 1 项")
    # two units edited and reordered: no item is paired with another's (it read as g1's id changed)
    said = _spec_change("units", j([{"id": "g1", "emails": ["a@x"]}, {"id": "g2", "short": "二"}]),
                        j([{"id": "g2", "short": "二部"}, {"id": "g1", "emails": ["b@x"]}]))
    assert said.startswith("units：删除了 2 项") and '"g1" → "g2"' not in said, said


def test_a_traditional_sheet_printed_before_two_units_were_named_is_read_back():
    """A Traditional league's result sheet printed before a pair from two units was named by
    both (王著/李明（針推）: 着 does not convert back) is still read as that pair (a review)."""
    from pipeline.model import Entry, Person
    from pipeline.spec import Tournament, TournamentSpec, validated
    from pipeline.text import convert, names_kept

    spec = validated(TournamentSpec, {"id": "t", "name": "賽", "script": "traditional",
                                      "units": [{"id": "g01", "name": "针推学院分工会", "short": "针推"},
                                                {"id": "g02", "name": "医技学院分工会", "short": "医技"}],
                                      "events": [{"id": "br", "name": "桥牌", "game": "bridge", "format": {"type": "swiss"}}]})
    t = Tournament(None, spec, b"0123456789abcdef0123")
    a = Entry("br:g01:1", "br", "g01", "王着/李明", (Person("王着", "g01"), Person("李明", "g02")))
    b = Entry("br:g01:2", "br", "g01", "张三/赵四", (Person("张三", "g01"), Person("赵四", "g01")))
    with names_kept(["王着", "李明"]):
        old = convert("王着/李明（针推）", "traditional")
    assert old == "王著/李明（針推）"
    _read_back_as_printed(t, {a.id: old, b.id: "张三/赵四（针推）"}, a, b)


def test_an_update_sent_for_another_unit_stays_an_error_after_the_senders_own_form():
    """OTHER_UNITS_FORM: X's updated form (a new player) sent for X from Y's address, then Y's
    own form: nothing took X's update, so it stays an error; the same file holding only Y's
    people (Y filled in X's form by mistake) or X's registration as it stands is settled by Y's
    own later form; one leaving out one of X's people is an update for X, and stays (reviews)."""
    import datetime as dt
    from types import SimpleNamespace as NS

    from pipeline.issues import IssueLog, issue
    from pipeline.model import CellRef
    from pipeline.run import settle_rejected_before

    tz = dt.timezone(dt.timedelta(hours=8))

    def rec(sha, day):
        return NS(sha256=sha, file_name=f"{sha}.xlsx", received_at=dt.datetime(2020, 11, day, 9, tzinfo=tz), parent="")

    def form(branch, *names):
        return NS(branch=branch, rows=[NS(name=n) for n in names])
    x_old, stray, y_own = rec("xold", 3), rec("stray", 5), rec("yown", 6)
    newest = [(x_old, form("b04", "甲", "乙")), (y_own, form("b01", "丙", "丁"))]

    def severity(people):
        log = IssueLog()
        log.extend([issue("OTHER_UNITS_FORM", "未受理", at=CellRef("stray.xlsx"), branch="b01", source="stray")])
        settle_rejected_before([x_old, stray, y_own], newest, log,
                               other_units={"stray": ("b04", frozenset((p, "", "") for p in people))})
        (i,) = list(log)
        return i.severity.value
    assert severity({"甲", "乙", "戊"}) == "error"       # an update for X: 戊 is on no form
    assert severity({"丙", "丁"}) == "info"              # Y's people on X's form: Y's mix-up
    assert severity({"甲", "乙"}) == "info"              # X's registration as it stands: changes nothing
    assert severity({"甲"}) == "error"                   # 乙 left out: an update for X (withdrawn)


def test_a_later_form_of_only_cancelled_events_lines_replaces_the_one_before():
    """A unit's later form whose lines are all for events since cancelled (EVENT_CANCELLED
    notes: :attr:`Registration.cancelled`) is the captain's form, not the blank template
    sent by mistake (EMPTY_FORM, refused): the lines the captain took out of it stay out —
    refused, the form before it stood and its entries came back."""
    import datetime as dt

    from pipeline.ingest.registration import Registration, RegRow
    from pipeline.issues import IssueLog
    from pipeline.run import _without_empty_resends
    from pipeline.store import Received

    when = dt.datetime(2020, 11, 2, 9, 0)
    first = (Received("a" * 64, ".xlsx", "报名表.xlsx", when),
             Registration("报名表.xlsx", "u1", rows=(RegRow(5, {"项目": "B"}, event="xiangqi", name="王军"),)))
    later = (Received("b" * 64, ".xlsx", "报名表.xlsx", when + dt.timedelta(hours=1)),
             Registration("报名表.xlsx", "u1", rows=(), cancelled=(5, 6)))
    blank = (Received("c" * 64, ".xlsx", "报名表.xlsx", when + dt.timedelta(hours=2)),
             Registration("报名表.xlsx", "u1", rows=()))
    issues, subs = IssueLog(), []
    assert _without_empty_resends("u1", [first, later, blank], issues, subs) == [first, later]
    assert [(i.code, i.source[0]) for i in issues] == [("EMPTY_FORM", "c")]


def test_a_problem_said_once_before_the_upgrade_stays_said_in_the_new_wording():
    """Messages wrote a received time as 11-10 19:30 and now as 11月10日 19:30: a said-once
    problem (RESULT_SHEET_BLANK …) said as a warning by the older version was a warning again
    on the night after the upgrade — a cron watching the exit status alarmed (from a review)."""
    import json

    from pipeline.lastrun import said_before

    old = "成绩表《r1.xlsx》（11-10 19:30 收到）是空白表，没有计入；截止 2020-11-09 15:00"
    now = "成绩表《r1.xlsx》（11月10日 19:30 收到）是空白表，没有计入；截止 2020-11-09 15:00"
    kept = json.dumps([["RESULT_SHEET_BLANK", old]]).encode()
    assert ("RESULT_SHEET_BLANK", now) in said_before(None, kept)
    record = {"report": {"issues": [{"code": "RESULT_SHEET_BLANK", "message": old}]}}
    assert ("RESULT_SHEET_BLANK", now) in said_before(record)


def test_R2020_Q4_a_substitute_under_another_staff_number_is_not_the_drawn_entry():
    """rules.md Identity: a person is their 工号 when given.  宋勇 drawn as 001015, then the form
    resent with another 宋勇 (991015): drawn_as took the substitute for the drawn entry (its
    round-1 results, place and awards, an info note saying 无需处理 — from a review).  Only an
    entry drawn under a name takes the same name's 工号 filled in later."""
    from pipeline.model import Entry, Match, Person, Round
    from pipeline.run import drawn_as

    def rnd(sid: str, label: str) -> Round:
        m = Match(event="xiangqi", stage="swiss", round=1, group="", table=1, sides=(sid, "xiangqi:d02:002001"))
        return Round(event="xiangqi", stage="swiss", stage_name="瑞士制", round=1, matches=(m,),
                     plan={"labels": {sid: [label, "立案庭"], "xiangqi:d02:002001": ["陶英", "民一庭"]}})

    def entry_of(staff: str) -> Entry:
        p = Person(name="宋勇", branch="d01", staff_id=staff)
        return Entry(id=f"xiangqi:d01:{staff or '宋勇'}", event="xiangqi", branch="d01", team="宋勇", players=(p,))

    other = Entry(id="xiangqi:d02:002001", event="xiangqi", branch="d02", team="陶英",
                  players=(Person(name="陶英", branch="d02", staff_id="002001"),))
    _, mapped = drawn_as([rnd("xiangqi:d01:001015", "宋勇")], [entry_of("991015"), other])
    assert mapped == {}
    _, mapped = drawn_as([rnd("xiangqi:d01:宋勇", "宋勇")], [entry_of("001015"), other])
    assert mapped == {"xiangqi:d01:001015": "xiangqi:d01:宋勇"}


def test_R2020_Q3_a_team_drawn_under_its_number_typed_with_dui_keeps_its_drawn_id():
    """队号 1队 was a team name (entry id ``…:1队``) until it was read as the number 1: a league
    drawn before keeps playing that team under its drawn id (no 新增/已不在报名中)."""
    from pipeline.model import Entry, Match, Person, Round
    from pipeline.run import drawn_as

    def rnd(sid: str) -> Round:
        m = Match(event="ss", stage="swiss", round=1, group="", table=1, sides=(sid, "ss:b02:1"))
        return Round(event="ss", stage="swiss", stage_name="瑞士制", round=1, matches=(m,),
                     plan={"labels": {sid: ["1队", "行政一", "戊", "己"], "ss:b02:1": ["行政二1队", "行政二", "甲", "乙"]}})

    def team(branch: str, no: str, *names: str) -> Entry:
        return Entry(id=f"ss:{branch}:{no}", event="ss", branch=branch, team=f"x{no}队", team_no=no,
                     players=tuple(Person(name=n, branch=branch) for n in names))

    now = [team("b01", "1", "戊", "己"), team("b02", "1", "甲", "乙")]
    entries, mapped = drawn_as([rnd("ss:b01:1队")], now)
    assert mapped == {"ss:b01:1": "ss:b01:1队"} and entries[0].id == "ss:b01:1队" and entries[1].id == "ss:b02:1"
    _, mapped = drawn_as([rnd("ss:b01:第2队")], now)        # another number: another team
    assert mapped == {}
    # in a Traditional league the captain typed 隊 (its form says 同隊隊員): the same team
    for typed in ("1隊", "第1隊", "第１隊"):
        _, mapped = drawn_as([rnd(f"ss:b01:{typed}")], now)
        assert mapped == {"ss:b01:1": f"ss:b01:{typed}"}, typed
    _, mapped = drawn_as([rnd("ss:b01:夢之隊")], now)      # a team name: no number
    assert mapped == {}


def test_a_substitute_line_is_drawn_only_as_the_person_drawn():
    """:func:`pipeline.run._drawn_in` (substitutes_drawn): a line under a 替补名单 heading is the
    drawn person when a published round has her — under her 工号, or under her name where
    drawn without one (in either script); never another 工号 of the same name, nor another
    unit's; a team member when her team, as drawn, lists her."""
    from pipeline.ingest.registration import RegRow
    from pipeline.model import Match
    from pipeline.run import _drawn_in

    def row(name, staff="", team=""):
        return RegRow(row=20, columns={"姓名": "D"}, event="x", name=name, staff_id=staff, team_no=team)

    def match(ev, n, *sides):
        return Match(ev, "tables", n, "", 1, sides)

    r1 = Round("x", "tables", "第1轮", 1, (match("x", 1, "x:b1:001195", "x:b1:楊鵬", "x:b2:王军"),))
    r2 = Round("x", "tables", "第2轮", 2, (match("x", 2, "x:b1:001195", "x:b1:楊鵬", "x:b1:李四"),))
    assert _drawn_in([r1, r2], "b1", row("段强", "001195"), False) == 1
    assert _drawn_in([r1, r2], "b1", row("段强", "009999"), False) == 0     # another 工号: another person
    assert _drawn_in([r1, r2], "b1", row("杨鹏", "001200"), False) == 1     # drawn by name, 工号 filled in since
    assert _drawn_in([r1, r2], "b1", row("李四"), False) == 2
    assert _drawn_in([r1, r2], "b1", row("王军"), False) == 0               # b2's
    pair = Round("y", "ko", "淘汰赛第1轮", 1, (match("y", 1, "y:b1:1", "y:b2:1"),),
                 plan={"labels": {"y:b1:1": ["行政一1队", "b1", "孙宁刚/曾华"]}})
    assert _drawn_in([pair], "b1", row("曾华", team="1队"), True) == 1
    assert _drawn_in([pair], "b1", row("庚", team="1"), True) == 0           # not of the pair drawn
    assert _drawn_in([pair], "b1", row("曾华", team="2"), True) == 0
    assert _drawn_in([pair], "b2", row("某", team="1"), True) == 1           # drawn without its players


def test_a_captains_dated_file_name_keeps_its_date():
    """"b08-报名表-20201108-返回": 20201108 is the captain's date, not our ``-<hash>-返回``
    (eight digits that read as a date are kept; a hash of digits only that is no date — one
    in 43 of our copies' names — is ours, and taken off)."""
    from pipeline.run import _captains_stem

    assert _captains_stem("b08-报名表-20201108-返回", "b08") == "b08-报名表-20201108-返回"
    assert _captains_stem("工会-2020-19991231-返", "工会") == "工会-2020-19991231-返"
    assert _captains_stem("b08-b08-报名表-58446591-返回", "b08") == "报名表"
    assert _captains_stem("工会-2020-12345678-返", "工会") == "2020"
    assert _captains_stem("b08-报名表-deadbeef-返回", "b08") == "报名表"
    assert _captains_stem("b08-b08-报名表-2020a108-返回 (1)", "b08") == "报名表"
