"""validate_registrations: one test per rule."""
from __future__ import annotations

import datetime as dt

import pytest

from ingest.builders import T0, person, tournament, write_registration
from pipeline.ingest.registration import read_registration
from pipeline.ingest.workbook import read_workbook
from pipeline.model import Severity
from pipeline.spec import UnitSpec
from pipeline.validate import quota_for, validate_registrations


def reg_of(tmp_path, t, branch, rows, received=T0):
    p = write_registration(tmp_path / f"{branch}.xlsx", t, branch, rows)
    reg, issues = read_registration(read_workbook(p), f"{branch}.xlsx", t, received=received)
    return reg


def run(tmp_path, t, per_branch, received=T0):
    regs = [reg_of(tmp_path, t, b, rows, received) for b, rows in per_branch.items()]
    return validate_registrations(t, regs, now=T0)


def codes(issues, severity=None):
    return sorted(i.code for i in issues if severity is None or i.severity == severity)


FULL_B1 = [person("象棋", "甲", 1), person("象棋", "乙", 2), person("跳棋", "丙", 3), person("跳棋", "丁", 4),
           person("双升", "戊", 5, team=1), person("双升", "己", 6, team=1),
           person("双升", "庚", 7, team=2), person("双升", "辛", 8, team=2),
           person("斗地主", "壬", 9), person("斗地主", "癸", 10)]


def test_full_branch_accepted(tmp_path):
    t = tournament()
    entries, issues = run(tmp_path, t, {"b1": FULL_B1})
    assert issues == []
    assert len(entries) == 8
    pair = next(e for e in entries if e.id == "shuangsheng:b1:1")
    assert pair.team == "行政一1队" and pair.player_names == "戊/己"
    assert next(e for e in entries if e.id == "xiangqi:b1:1").team == "甲"


def test_R2020_Q1_quota_exceeded(tmp_path):
    t = tournament()
    rows = FULL_B1 + [person("象棋", "子", 11)]
    entries, issues = run(tmp_path, t, {"b1": rows})
    ex = [i for i in issues if i.code == "QUOTA_EXCEEDED"]
    assert [i.cell for i in ex] == ["B5", "B6", "B15"]
    assert "已报 3 人，限 2 人" in ex[0].message
    # the event in Chinese quotes, as QUOTA_SHORT and TEAM_INCOMPLETE name it (it was "象棋")
    assert "“象棋”超出名额" in ex[0].message and '"' not in ex[0].message
    assert not [e for e in entries if e.event == "xiangqi"] and len(entries) == 6


def test_R2020_Q1_pairs_count_once_and_short_warning(tmp_path):
    t = tournament()
    rows = [person("双升", "戊", 5, team=1), person("双升", "己", 6, team=1)]
    entries, issues = run(tmp_path, t, {"b1": rows})
    assert codes(issues, Severity.ERROR) == []
    assert codes(issues) == ["QUOTA_SHORT"] * 4      # 象棋 0, 跳棋 0, 双升 1 of 2, 斗地主 0
    assert [e.id for e in entries] == ["shuangsheng:b1:1"]


@pytest.mark.parametrize("members,expected", [(49, 1), (50, 2), (99, 2), (100, 3), (149, 3), (150, 4), (250, 6)])
def test_R2015_Q3_bands(members, expected):
    t = tournament(events=[{"id": "shuangkou", "name": "双扣", "game": "shuangkou", "team_size": 2,
                            "format": {"type": "round_robin"},
                            "quota": {"rule": "bands", "extra_every": 50, "bands": [
                                {"min_members": 0, "entries": 1}, {"min_members": 50, "entries": 2},
                                {"min_members": 100, "entries": 3}]}}])
    assert quota_for(t.spec.events[0], UnitSpec(id="x", name="x", members=members)) == expected


@pytest.mark.parametrize("members,expected", [(0, 1), (13, 1), (14, 1), (20, 1), (27, 2), (40, 3), (100, 7), (200, 15)])
def test_R2016_Q1_ratio(members, expected):
    t = tournament(events=[{"id": "guandan", "name": "掼蛋", "game": "guandan", "team_size": 2,
                            "format": {"type": "groups_standings"}, "quota": {"rule": "ratio", "ratio": 0.15}}])
    # max_players = floor(0.15 N); entries = max(1, max_players // 2)
    assert quota_for(t.spec.events[0], UnitSpec(id="x", name="x", members=members)) == expected


def test_R2016_Q1_ratio_exceeded(tmp_path):
    t = tournament(units=[{"id": "b1", "name": "一分会", "members": 20}],
                   events=[{"id": "guandan", "name": "掼蛋", "game": "guandan", "team_size": 2,
                            "format": {"type": "groups_standings"}, "quota": {"rule": "ratio", "ratio": 0.15}}])
    rows = [person("掼蛋", n, team=k) for n, k in [("甲", 1), ("乙", 1), ("丙", 2), ("丁", 2)]]
    _, issues = run(tmp_path, t, {"b1": rows})
    assert codes(issues) == ["QUOTA_EXCEEDED"] * 4 and "限 1 队" in issues[0].message


def test_R2015_Q1_open_entry(tmp_path):
    t = tournament(events=[{"id": "go", "name": "围棋", "game": "go", "format": {"type": "swiss"}}])
    entries, issues = run(tmp_path, t, {"b1": [person("围棋", "人" + chr(0x4E00 + i)) for i in range(30)]})
    assert issues == [] and len(entries) == 30


def test_R2015_Q2_bridge_pair_across_branches(tmp_path):
    t = tournament(events=[{"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2, "cross_branch": True,
                            "format": {"type": "pairs_movement"}}])
    rows = [person("桥牌", "甲", team=1), person("桥牌", "乙", team=1, 备注="跨分工会：机关二")]
    entries, issues = run(tmp_path, t, {"b1": rows, "b2": [person("桥牌", "乙", team=1), person("桥牌", "丙", team=1)]})
    dup = [i for i in issues if i.code == "DUPLICATE_PERSON"]
    assert {i.branch for i in dup} == {"b1", "b2"}     # 乙 is registered by both
    entries, issues = run(tmp_path, t, {"b1": rows})
    assert issues == [] and entries[0].players[1].branch == "b2"


def test_R2015_Q2_cross_branch_member_also_plays_for_their_own_unit(tmp_path):
    """乙 of 机关二 plays bridge in 行政一's pair and Go on 机关二's own sheet: one person, one
    home unit, two events (T2015 lets a person enter several) — not a duplicate."""
    t = tournament(events=[{"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2, "cross_branch": True,
                            "format": {"type": "pairs_movement"}},
                           {"id": "go", "name": "围棋", "game": "go", "format": {"type": "swiss"}}],
                   one_event_per_person=False)
    for staff in (None, "002"):
        pair = [person("桥牌", "甲", team=1), person("桥牌", "乙", staff, team=1, 备注="跨分工会：机关二")]
        entries, issues = run(tmp_path, t, {"b1": pair, "b2": [person("围棋", "乙", staff)]})
        assert issues == [] and sorted(e.event for e in entries) == ["bridge", "go"]
        # the same member in a second pair of the same event is still a duplicate, on both sheets
        _, issues = run(tmp_path, t, {"b1": pair, "b2": [person("桥牌", "乙", staff, team=1),
                                                         person("桥牌", "丙", team=1)]})
        dup = [i for i in issues if i.code == "DUPLICATE_PERSON"]
        assert {i.branch for i in dup} == {"b1", "b2"} and "都报了“桥牌”" in dup[0].message


BRIDGE = [{"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2, "cross_branch": True,
           "format": {"type": "pairs_movement"}}]


def _two_forms(tmp_path, t, b1_rows, b2_rows, b1_at, b2_at):
    regs = [reg_of(tmp_path, t, "b1", b1_rows, b1_at), reg_of(tmp_path, t, "b2", b2_rows, b2_at)]
    return validate_registrations(t, regs, now=T0 + dt.timedelta(days=2))


def _b2_flagged_when_later(tmp_path, t, b1_rows, b2_rows, later) -> None:
    """行政一 (b1) sent first: its pair stays, 机关二's (b2) later row 5 is the one flagged."""
    entries, issues = _two_forms(tmp_path, t, b1_rows, b2_rows, T0, later)
    dup = [i for i in issues if i.code == "DUPLICATE_PERSON"]
    assert [(i.branch, i.cell) for i in dup] == [("b2", "D5")], dup
    assert "行政第一分工会" in dup[0].message and "第 6 行" in dup[0].message
    assert [e.id for e in entries] == ["bridge:b1:1"]


@pytest.mark.parametrize("staff", [None, "002"])
def test_R2015_Q2_a_cross_unit_member_already_in_their_units_pair_is_flagged_on_the_later_form_only(tmp_path, staff):
    """机关二 sent its pair 乙/丙 first; 行政一 sends later a pair 甲 + 乙 (跨分工会：机关二).
    Only the later form's row is DUPLICATE_PERSON: 机关二's pair stays accepted (handbook:
    先收到的一份保留) — both forms were flagged and 机关二's accepted pair was dropped.
    Received the other way round, 机关二's later row is the one flagged."""
    t = tournament(events=BRIDGE)
    cross = [person("桥牌", "甲", team=1), person("桥牌", "乙", staff, team=1, 备注="跨分工会：机关二")]
    own = [person("桥牌", "乙", staff, team=1), person("桥牌", "丙", team=1)]
    later = T0 + dt.timedelta(days=1)
    entries, issues = _two_forms(tmp_path, t, cross, own, later, T0)
    dup = [i for i in issues if i.code == "DUPLICATE_PERSON"]
    assert [(i.branch, i.cell) for i in dup] == [("b1", "D6")], dup
    assert "机关第二分工会" in dup[0].message and "第 5 行报了“桥牌”" in dup[0].message
    assert not [i for i in issues if i.branch == "b2" and i.severity == Severity.ERROR]
    assert [e.id for e in entries] == ["bridge:b2:1"]
    _b2_flagged_when_later(tmp_path, t, cross, own, later)


def test_R2015_Q2_a_cross_unit_member_without_staff_number_also_in_their_units_pair(tmp_path):
    """行政一's cross-unit member 乙 (跨分工会：机关二) has no 工号; 机关二's own pair lists 乙
    with 002: by the rule of identity two people, so both pairs were drawn with 乙 twice in
    桥牌 and nothing said.  DUPLICATE_PERSON on the later form's row, naming the other
    unit's form and row (as inside one form)."""
    t = tournament(events=BRIDGE)
    cross = [person("桥牌", "甲", team=1), person("桥牌", "乙", team=1, 备注="跨分工会：机关二")]
    own = [person("桥牌", "乙", "002", team=1), person("桥牌", "丙", team=1)]
    later = T0 + dt.timedelta(days=1)
    for b1_at, b2_at in ((later, T0), (T0, T0)):
        entries, issues = _two_forms(tmp_path, t, cross, own, b1_at, b2_at)
        dup = [i for i in issues if i.code == "DUPLICATE_PERSON"]
        assert [(i.branch, i.cell, i.severity) for i in dup] == [("b1", "E6", Severity.ERROR)], dup
        assert "机关第二分工会" in dup[0].message and "第 5 行" in dup[0].message and "002" in dup[0].message
        assert [e.id for e in entries] == ["bridge:b2:1"]
    _b2_flagged_when_later(tmp_path, t, cross, own, later)
    # a namesake with another 工号 is another person: nothing said
    entries, issues = _two_forms(tmp_path, t, [cross[0], person("桥牌", "乙", "003", team=1, 备注="跨分工会：机关二")],
                                 own, later, T0)
    assert not [i for i in issues if i.code == "DUPLICATE_PERSON"] and len(entries) == 2

def test_cross_branch_note_refused_when_not_allowed(tmp_path):
    t = tournament()
    _, issues = run(tmp_path, t, {"b1": [person("双升", "甲", team=1), person("双升", "乙", team=1, 备注="跨分工会：后勤")]})
    assert "BAD_VALUE" in codes(issues)


def test_R2020_Q2_multi_event(tmp_path):
    t = tournament()
    entries, issues = run(tmp_path, t, {"b1": [person("象棋", "甲", 1), person("跳棋", "甲", 1)]})
    assert codes(issues, Severity.ERROR) == ["MULTI_EVENT", "MULTI_EVENT"]
    assert entries == []


def test_R2020_Q2_a_minority_name_with_different_dots_is_one_person(tmp_path):
    """买买提·艾力 in 象棋, 买买提.艾力 in 跳棋, 买买提・艾力 in 斗地主 (no 工号): three
    entries, no MULTI_EVENT — the dots differed.  Every name dot reads as ·."""
    t = tournament()
    rows = [person("象棋", "买买提·艾力"), person("跳棋", "买买提.艾力"), person("斗地主", "买买提・艾力")]
    entries, issues = run(tmp_path, t, {"b1": rows})
    assert codes(issues, Severity.ERROR) == ["MULTI_EVENT"] * 3 and entries == []
    entries, issues = run(tmp_path, t, {"b1": [person("象棋", "买买提•艾力"), person("跳棋", "阿依古丽")]})
    assert codes(issues, Severity.ERROR) == [] and sorted(p.name for e in entries for p in e.players) == sorted(["买买提·艾力", "阿依古丽"])


def test_R2020_Q2_a_staff_number_copied_into_another_row_is_not_one_person_in_two_events(tmp_path):
    """袁浩's 工号 copied into 戴宁娜's row (another event): DUPLICATE_PERSON asks to check
    the 工号; no MULTI_EVENT telling the captain 袁浩 报了 2 个项目 (untrue: a captain who
    followed it would delete a valid row).  The same name twice with one 工号 still is."""
    t = tournament()
    _, issues = run(tmp_path, t, {"b1": [person("象棋", "袁浩", "002709"), person("跳棋", "戴宁娜", "002709")]})
    assert codes(issues, Severity.ERROR) == ["DUPLICATE_PERSON"] * 2
    _, issues = run(tmp_path, t, {"b1": [person("象棋", "袁浩", "002709"), person("跳棋", "袁浩", "002709")]})
    assert codes(issues, Severity.ERROR) == ["MULTI_EVENT"] * 2
    # 袁浩 in two events and his 工号 also copied into 戴宁娜's row: both said
    _, issues = run(tmp_path, t, {"b1": [person("象棋", "袁浩", "002709"), person("跳棋", "袁浩", "002709"),
                                         person("斗地主", "戴宁娜", "002709")]})
    multi = [i for i in issues if i.code == "MULTI_EVENT"]
    assert len(multi) == 2 and all("袁浩" in i.message for i in multi)
    assert codes(issues, Severity.ERROR).count("DUPLICATE_PERSON") == 3


def test_duplicate_person_in_two_branches_by_staff_id(tmp_path):
    t = tournament()
    _, issues = run(tmp_path, t, {"b1": [person("象棋", "甲", "007")], "b2": [person("象棋", "甲", "007")]})
    assert codes(issues, Severity.ERROR) == ["DUPLICATE_PERSON"] * 2


def test_a_staff_number_typed_as_a_number_is_the_same_person(tmp_path):
    """Excel drops the leading zeros of 001769 typed as a number: b1's 武军 1769 and b4's 武军
    001769 are one person, in two branches."""
    t = tournament()
    _, issues = run(tmp_path, t, {"b1": [person("象棋", "武军", 1769)], "b2": [person("跳棋", "武军", "001769")]})
    assert "DUPLICATE_PERSON" in codes(issues, Severity.ERROR)


def test_one_staff_number_under_two_names_is_said_once_per_row(tmp_path):
    """Two names under one staff number: each row is told to check its number — and not that
    the other row (another person) is a repeat of it."""
    t = tournament()
    _, issues = run(tmp_path, t, {"b1": [person("象棋", "吕宁桂", "001"), person("象棋", "严艳英", "001")]})
    dup = [i for i in issues if i.code == "DUPLICATE_PERSON"]
    assert len(dup) == 2 and all("同时登记为" in i.message and "\"001\"" in i.message for i in dup)


def test_duplicate_person_same_name_in_branch(tmp_path):
    t = tournament()
    entries, issues = run(tmp_path, t, {"b1": [person("象棋", "王 军"), person("象棋", "王军")]})
    (dup,) = [i for i in issues if i.code == "DUPLICATE_PERSON"]
    assert dup.cell == "D6" and len([e for e in entries if e.event == "xiangqi"]) == 1


def test_same_staff_id_two_names(tmp_path):
    t = tournament()
    _, issues = run(tmp_path, t, {"b1": [person("象棋", "甲", "9"), person("跳棋", "乙", "9")]})
    assert codes(issues, Severity.ERROR).count("DUPLICATE_PERSON") == 2


def test_team_incomplete(tmp_path):
    t = tournament()
    rows = [person("双升", "甲", team=1), person("双升", "乙", team=2), person("双升", "丙", team=2),
            person("双升", "丁", team=2)]
    entries, issues = run(tmp_path, t, {"b1": rows})
    assert codes(issues, Severity.ERROR) == ["TEAM_INCOMPLETE"] * 4
    assert not [e for e in entries if e.event == "shuangsheng"]


def test_team_event_without_team_number(tmp_path):
    t = tournament()
    p = write_registration(tmp_path / "b1.xlsx", t, "b1", [person("双升", "甲"), person("双升", "乙")])
    _, issues = read_registration(read_workbook(p), "b1.xlsx", t)
    assert codes(issues) == ["MISSING_VALUE"] * 2 and issues[0].cell == "C5"


def test_one_bad_row_keeps_other_rows(tmp_path):
    t = tournament()
    entries, issues = run(tmp_path, t, {"b1": [person("象棋", "甲", 性别="公", 联系电话="x"), person("跳棋", "")]})
    assert [e.id for e in entries] == ["xiangqi:b1:甲"]


def test_a_staff_number_that_is_none_leaves_the_row_standing_without_it(tmp_path):
    """工号 is optional: one that cannot be a 工号 ("12/3", NO.001069) was an error that refused
    the player; now a warning at the cell, the row taken as if the 工号 were blank.  A Text
    cell's leading apostrophe and a pasted 1033.0 are the numbers meant; Excel's scientific
    notation has lost the digits (a warning, blank)."""
    t = tournament()
    p = write_registration(tmp_path / "b1.xlsx", t, "b1", [
        person("象棋", "甲", "12/3"), person("象棋", "乙", "NO.001069"), person("跳棋", "丙", "'001039"),
        person("跳棋", "丁", "1033.0"), person("斗地主", "戊", "1.001056E+3")])
    reg, issues = read_registration(read_workbook(p), "b1.xlsx", t, received=T0)
    assert [r.ok for r in reg.rows] == [True] * 5
    assert [r.staff_id for r in reg.rows] == ["", "", "001039", "1033", ""]
    assert [(i.code, i.severity, i.cell) for i in issues] == [("BAD_VALUE", Severity.WARNING, c) for c in ("E5", "E6", "E9")]
    assert "科学计数法" in issues[2].message and "本行已受理" in issues[0].message


def test_R2020_Q4_late_rejected(tmp_path):
    dl = "2020-11-09T15:00:00"
    t = tournament(events=[{"id": "xiangqi", "name": "象棋", "game": "xiangqi", "format": {"type": "knockout"},
                            "deadline": dl}])
    late = dt.datetime(2020, 11, 9, 15, 1, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    entries, issues = run(tmp_path, t, {"b1": [person("象棋", "甲")]}, received=late)
    assert codes(issues, Severity.ERROR) == ["LATE_SUBMISSION"] and entries == []
    ontime = late - dt.timedelta(minutes=1)
    entries, issues = run(tmp_path, t, {"b1": [person("象棋", "甲")]}, received=ontime)
    assert issues == [] and len(entries) == 1


def test_R2020_Q4_late_accept_with_warning(tmp_path):
    t = tournament(late_policy="accept-with-warning",
                   events=[{"id": "xiangqi", "name": "象棋", "game": "xiangqi", "format": {"type": "knockout"},
                            "deadline": "2020-11-09T15:00:00+08:00"}])
    late = dt.datetime(2020, 11, 9, 8, 0, tzinfo=dt.timezone.utc)   # 16:00 in Beijing
    entries, issues = run(tmp_path, t, {"b1": [person("象棋", "甲")]}, received=late)
    assert codes(issues, Severity.WARNING) == ["LATE_SUBMISSION"] and len(entries) == 1


def test_same_name_in_two_branches_gets_branch_label(tmp_path):
    t = tournament(events=[{"id": "go", "name": "围棋", "game": "go", "format": {"type": "swiss"}}])
    entries, issues = run(tmp_path, t, {"b1": [person("围棋", "王军")], "b2": [person("围棋", "王军")]})
    assert issues == [] and sorted(e.team for e in entries) == ["王军（机关二）", "王军（行政一）"]


def test_namesakes_of_one_unit_in_one_event_get_their_staff_numbers(tmp_path):
    """Two people of one unit with one name (told apart by their 工号), both in 围棋, and a
    namesake in another unit: every entry its own label (the two of one unit shared
    王军（行政一）, merged in every table keyed by the label, from an audit)."""
    t = tournament(events=[{"id": "go", "name": "围棋", "game": "go", "format": {"type": "swiss"}}])
    entries, issues = run(tmp_path, t, {"b1": [person("围棋", "王军", "001039"), person("围棋", "王军", "001033")],
                                        "b2": [person("围棋", "王军")]})
    assert not codes(issues, Severity.ERROR), issues
    assert sorted(e.team for e in entries) == ["王军（机关二）", "王军（行政一·001033）", "王军（行政一·001039）"]


def test_every_issue_names_the_received_file_it_is_about(tmp_path):
    """``Issue.source``: a corrected form has the name of the one it replaces, so reading and
    validation tie each problem to the received file (its SHA-256) they found it in."""
    t = tournament()
    p = write_registration(tmp_path / "b1.xlsx", t, "b1", [person("象棋", "甲", "12/3"), person("象棋", "乙", 2)])
    reg, read = read_registration(read_workbook(p), "b1.xlsx", t, source="f" * 64)
    _, found = validate_registrations(t, [reg], now=T0)
    assert codes(read) == ["BAD_VALUE"] and codes(found) and all(i.source == "f" * 64 for i in read + found)
    _, unnamed = read_registration(read_workbook(p), "b1.xlsx", t)
    assert all(i.source == "" for i in unnamed)


def test_a_pair_held_back_by_its_partners_error_says_so_on_the_good_row(tmp_path):
    """戊's row has an error (also in 象棋: one event per person); 己, the partner, is dropped
    with the pair — and is told which row to fix."""
    t = tournament()
    rows = [person("象棋", "戊", 5), person("双升", "戊", 5, team=1), person("双升", "己", 6, team=1)]
    entries, issues = run(tmp_path, t, {"b1": rows})
    assert not [e for e in entries if e.event == "shuangsheng"]
    (held,) = [i for i in issues if i.code == "TEAM_INCOMPLETE"]
    assert held.severity == Severity.WARNING and held.cell == "C7" and "第 6 行" in held.message
    assert "“双升”第 1 队的队员" in held.message
    # a 队号 written 一队 is named as written (it said 第 一队 队)
    rows = [person("象棋", "戊", 5), person("双升", "戊", 5, team="一队"), person("双升", "己", 6, team="一队")]
    (held,) = [i for i in run(tmp_path, t, {"b1": rows})[1] if i.code == "TEAM_INCOMPLETE"]
    assert "“双升”队号 一队的队员" in held.message and "第 一队 队" not in held.message, held.message


def test_R2015_Q2_cross_branch_note_in_either_script(tmp_path):
    """A Traditional league's form prints 跨分工會: the note written as printed, 跨分工會：機關二,
    was not read, and the pair was held back as DUPLICATE_PERSON."""
    t = tournament(events=[{"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2, "cross_branch": True,
                            "format": {"type": "pairs_movement"}}])
    for note in ("跨分工會：機關二", "跨分工会：機關二", "跨分工會：机关二"):
        rows = [person("桥牌", "甲", team=1), person("桥牌", "乙", team=1, 备注=note)]
        entries, issues = run(tmp_path, t, {"b1": rows})
        assert issues == [] and entries[0].players[1].branch == "b2", (note, issues)


def test_a_duplicate_in_a_cross_branch_event_says_how_to_mark_the_pair(tmp_path):
    t = tournament(events=[{"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2, "cross_branch": True,
                            "format": {"type": "pairs_movement"}}])
    _, issues = run(tmp_path, t, {"b2": [person("桥牌", "乙", "002", team=1), person("桥牌", "丙", team=1)],
                                  "b1": [person("桥牌", "甲", team=1), person("桥牌", "乙", "002", team=1)]})
    dup = [i for i in issues if i.code == "DUPLICATE_PERSON"]
    assert dup and all("允许跨分工会组队" in i.message and "备注写“跨分工会：" in i.message for i in dup), dup


def test_R2020_Q1_a_team_number_typo_or_a_pasted_player_is_not_one_more_entry(tmp_path):
    """One 队号 typed 3 for 1: the unit was "over its quota" (3 pairs of 2) and both pairs
    refused; a player pasted twice: "3 people of 2" and both real players refused.  The typo
    is TEAM_INCOMPLETE and the paste a duplicate, on their own rows; the other entries count."""
    t = tournament()
    typo = [r if r is not FULL_B1[5] else person("双升", "己", 6, team=3) for r in FULL_B1]
    entries, issues = run(tmp_path, t, {"b1": typo})
    assert "QUOTA_EXCEEDED" not in codes(issues) and "TEAM_INCOMPLETE" in codes(issues)
    assert [e.id for e in entries if e.event == "shuangsheng"] == ["shuangsheng:b1:2"]
    pasted = FULL_B1 + [person("象棋", "乙", 2)]
    entries, issues = run(tmp_path, t, {"b1": pasted})
    assert "QUOTA_EXCEEDED" not in codes(issues) and "DUPLICATE_PERSON" in codes(issues)
    assert [e.team for e in entries if e.event == "xiangqi"] == ["甲", "乙"]
    # a third person is still one too many
    _, issues = run(tmp_path, t, {"b1": FULL_B1 + [person("象棋", "子", 11)]})
    assert codes(issues).count("QUOTA_EXCEEDED") == 3


def test_R2020_Q1_a_row_naming_nobody_is_no_entry(tmp_path):
    """A 项目 picked from the dropdown in an empty row (or 项目 and 队号 filled down the
    column before the names): "已报 3 人，限 2 人" and both real players of the event refused.
    The empty row is MISSING_VALUE at its 姓名 (the reader's); the real entries count and are taken."""
    t = tournament()
    entries, issues = run(tmp_path, t, {"b1": FULL_B1 + [person("象棋", "")]})
    assert codes(issues, Severity.ERROR) == []
    assert [e.team for e in entries if e.event == "xiangqi"] == ["甲", "乙"]
    stray_pair = [person("双升", "", team=3), person("双升", "", team=3)]
    entries, issues = run(tmp_path, t, {"b1": FULL_B1 + stray_pair})
    assert codes(issues, Severity.ERROR) == []
    assert [e.id for e in entries if e.event == "shuangsheng"] == ["shuangsheng:b1:1", "shuangsheng:b1:2"]
    # a third pair of which one member is named is no entry either (held back by the blank name)
    half = [person("双升", "子", 11, team=3), person("双升", "", team=3)]
    entries, issues = run(tmp_path, t, {"b1": FULL_B1 + half})
    assert "QUOTA_EXCEEDED" not in codes(issues)
    assert [e.id for e in entries if e.event == "shuangsheng"] == ["shuangsheng:b1:1", "shuangsheng:b1:2"]
    # a row with a 工号 and no name is someone: three people of two are one too many
    _, issues = run(tmp_path, t, {"b1": FULL_B1 + [person("象棋", "", 11)]})
    assert codes(issues).count("QUOTA_EXCEEDED") == 3


def test_identity_one_name_twice_in_one_event_with_one_staff_number_is_a_duplicate(tmp_path):
    """吕宁桂 with 001033 in 象棋 and again in 象棋 with 工号 left blank: by the rule of identity
    two people, so no issue and both drawn.  The blank row is DUPLICATE_PERSON at its 工号
    and counted once: the unit's other player is not refused for a quota of "3"."""
    t = tournament()
    rows = [person("象棋", "吕宁桂", "001033"), person("象棋", "乙", 2), person("象棋", "吕宁桂")]
    entries, issues = run(tmp_path, t, {"b1": rows})
    (d,) = [i for i in issues if i.code == "DUPLICATE_PERSON"]
    assert d.severity == Severity.ERROR and d.cell == "E7" and "第 5 行" in d.message and "001033" in d.message
    assert "QUOTA_EXCEEDED" not in codes(issues)
    assert [e.team for e in entries if e.event == "xiangqi"] == ["吕宁桂", "乙"]
    # with the 工号 filled in, a namesake: nothing to say (and then three people of two)
    rows[2] = person("象棋", "吕宁桂", "002000")
    _, issues = run(tmp_path, t, {"b1": rows})
    assert "DUPLICATE_PERSON" not in codes(issues) and codes(issues).count("QUOTA_EXCEEDED") == 3


def test_R2020_Q2_one_name_in_two_events_with_a_blank_staff_number_is_asked_about(tmp_path):
    """吕宁桂 with 001033 in 象棋 and again in 跳棋 with 工号 left blank: two people by the
    rule of identity, so both were taken.  A warning at the blank 工号 asks which."""
    t = tournament()
    rows = [person("象棋", "吕宁桂", "001033"), person("象棋", "乙", 2), person("跳棋", "吕宁桂"), person("跳棋", "丁", 4)]
    entries, issues = run(tmp_path, t, {"b1": rows})
    (w,) = [i for i in issues if i.code == "MULTI_EVENT"]
    assert w.severity == Severity.WARNING and w.cell == "E7" and "象棋" in w.message and "001033" in w.message
    # two staff numbers: two people of one name, nothing to ask
    rows[2] = person("跳棋", "吕宁桂", "002000")
    _, issues = run(tmp_path, t, {"b1": rows})
    assert not [i for i in issues if i.code == "MULTI_EVENT"]


def test_a_team_number_that_is_no_number_is_named_once(tmp_path):
    """队号 typed "一队" on one row of a pair and "1" on the other: two teams, said as 队号 一队
    (the message said 第 一队 队).  (1队 beside 1 is one team: R2020-Q3 below.)"""
    t = tournament()
    _, issues = run(tmp_path, t, {"b1": [person("双升", "戊", 5, team="一队"), person("双升", "己", 6, team=1)]})
    msgs = [i.message for i in issues if i.code == "TEAM_INCOMPLETE"]
    assert any("队号 一队有 1 人" in m for m in msgs) and not any("一队 队" in m for m in msgs), msgs
    assert all("完全一样" in m for m in msgs)


def test_R2015_Q2_cross_unit_note_with_the_leagues_word_for_a_unit(tmp_path):
    """unit_word 科室: the form and the messages say 跨科室：…, which the checks did not read."""
    t = tournament(unit_word="科室", events=[{"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2,
                                             "cross_branch": True, "format": {"type": "pairs_movement"}}])
    rows = [person("桥牌", "甲", team=1), person("桥牌", "乙", team=1, 备注="跨科室：机关二")]
    entries, issues = run(tmp_path, t, {"b1": rows})
    assert issues == [] and entries[0].players[1].branch == "b2", issues


@pytest.mark.parametrize("typed", ["1队", "１队", "第1队", "1 队", "第 1 队", "1隊", "第1隊", "１ 隊"])
def test_R2020_Q3_a_team_number_typed_with_dui_is_that_number(tmp_path, typed):
    """队号 "1队" (or １队, 第1队, 1 队) was read as a team name meant for 梦之队: the team was
    printed "1队", with no unit, in entries, draw, awards and the draw sheet — and a partner
    who typed 1 was another team (TEAM_INCOMPLETE on both rows).  It is team 1."""
    t = tournament()
    rows = [person("双升", "戊", 5, team=typed), person("双升", "己", 6, team=1),
            person("双升", "庚", 7, team=typed.replace("1", "2").replace("１", "２")),
            person("双升", "辛", 8, team=typed.replace("1", "2").replace("１", "２"))]
    entries, issues = run(tmp_path, t, {"b1": rows})
    assert codes(issues, Severity.ERROR) == [], issues
    pairs = sorted((e.id, e.team, e.player_names) for e in entries if e.event == "shuangsheng")
    assert pairs == [("shuangsheng:b1:1", "行政一1队", "戊/己"), ("shuangsheng:b1:2", "行政一2队", "庚/辛")]


def test_R2020_Q3_a_team_named_by_the_captain_keeps_its_name(tmp_path):
    t = tournament()
    rows = [person("双升", "戊", 5, team="梦之队"), person("双升", "己", 6, team="梦之队")]
    entries, issues = run(tmp_path, t, {"b1": rows})
    assert [(e.id, e.team) for e in entries if e.event == "shuangsheng"] == [("shuangsheng:b1:梦之队", "梦之队")]
    rows = [person("双升", "戊", 5, team="夢之隊"), person("双升", "己", 6, team="夢之隊")]
    (tmp_path / "trad").mkdir()
    entries, issues = run(tmp_path / "trad", t, {"b1": rows})
    assert [(e.id, e.team) for e in entries if e.event == "shuangsheng"] == [("shuangsheng:b1:夢之隊", "夢之隊")]


@pytest.mark.parametrize("one,other", [("2 ", "02"), ("1", "一"), ("2队", "第二队"), ("１", "第01队")])
def test_R2020_Q3_a_pairs_team_number_written_two_ways_names_the_other_row(tmp_path, one, other):
    """队号 "2" on one row of a pair and "02" on the other (or 一 beside 1, 第二队 beside 2队):
    two teams of one, both TEAM_INCOMPLETE, and neither captain nor office could see why.
    Each message names the other row whose 队号 is the same number written differently and
    asks for them to be written the same.  They are not joined into one team: an entry's id
    is its 队号 as typed, and two complete teams typed 01 and 1 are two teams."""
    t = tournament()
    _, issues = run(tmp_path, t, {"b1": [person("双升", "戊", 5, team=one), person("双升", "己", 6, team=other)]})
    msgs = {i.cell: i.message for i in issues if i.code == "TEAM_INCOMPLETE"}
    assert set(msgs) == {"C5", "C6"}, msgs
    assert "第 6 行" in msgs["C5"] and "第 5 行" in msgs["C6"], msgs
    n = "2" if "2" in one else "1"
    assert all("是同一个数字" in m and f"都写 {n}" in m for m in msgs.values()), msgs


def test_R2020_Q3_a_lone_team_number_beside_a_complete_team_of_that_number_is_not_sent_to_it(tmp_path):
    """01 alone beside a complete team 1 (or two complete teams 01 and 1): writing them the
    same would make a team of three — nothing is said of the other team."""
    t = tournament()
    rows = [person("双升", "戊", 5, team=1), person("双升", "己", 6, team=1), person("双升", "庚", 7, team="01")]
    _, issues = run(tmp_path, t, {"b1": rows})
    msgs = [i.message for i in issues if i.code == "TEAM_INCOMPLETE"]
    assert len(msgs) == 1 and "同一个数字" not in msgs[0], msgs
    (tmp_path / "x").mkdir()
    rows = [person("双升", "戊", 5, team=1), person("双升", "己", 6, team=1),
            person("双升", "庚", 7, team="01"), person("双升", "辛", 8, team="01")]
    entries, issues = run(tmp_path / "x", t, {"b1": rows})
    assert not [i for i in issues if i.code == "TEAM_INCOMPLETE"]
    assert sorted(e.id for e in entries) == ["shuangsheng:b1:01", "shuangsheng:b1:1"]


def test_R2020_Q3_team_numbers_are_compared_in_linear_time(tmp_path, monkeypatch):
    """Each short team's number was compared by rescanning every team of the form and calling
    team_value on each: quadratic — a captain who typed the 序号 as 队号 on an open-entry pairs
    form (every team of one) made 2,000 teams 4,000,000 calls (7 s), 5,000 teams 69 s.  Each
    team's number is worked out once (counted here, not timed); the messages are the same."""
    from pipeline.validate import checks

    n = 2000
    t = tournament(events=[{"id": "shuangsheng", "name": "双升", "game": "shengji", "team_size": 2,
                            "format": {"type": "knockout"}}])
    rows = [person("双升", "人" + chr(0x4E00 + i), 100000 + i, team=i) for i in range(1, n + 1)]
    rows += [person("双升", "甲", 1, team="01000"), person("双升", "乙", 2, team="02")]
    reg = reg_of(tmp_path, t, "b1", rows)
    calls = 0
    team_value = checks.team_value

    def counted(no):
        nonlocal calls
        calls += 1
        return team_value(no)

    monkeypatch.setattr(checks, "team_value", counted)
    _, issues = validate_registrations(t, [reg], now=T0)
    short = [i for i in issues if i.code == "TEAM_INCOMPLETE"]
    assert len(short) == n + 2
    assert calls <= 2 * (n + 2), calls
    # the alike teams are still found among them: 02 beside 2 (C6), 01000 beside 1000
    msgs = {i.cell: i.message for i in short}
    assert "“02”" in msgs["C6"] and "都写 2" in msgs["C6"], msgs["C6"]
    assert "“01000”" in msgs["C1004"] and "都写 1000" in msgs["C1004"], msgs["C1004"]
