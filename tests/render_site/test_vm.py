"""Golden view-model tests: what the pages say, decided in Python."""
from __future__ import annotations

import dataclasses
import datetime as dt

from pipeline.render import site_vm

from .conftest import EVIL, make_state


def test_index_event_cards(state):
    vm = site_vm.index_vm(state)
    cards = {c.id: c for c in vm.events}
    assert list(cards) == ["xiangqi", "doudizhu", "go"]
    xq = cards["xiangqi"]
    assert (xq.played, xq.drawn, xq.left, xq.status, xq.complete) == (6, 6, "0", "已结束", True)
    assert xq.href == "events/xiangqi.html"
    go = cards["go"]
    assert (go.played, go.drawn, go.left) == (0, 1, "2")     # Swiss, 3 rounds in the spec
    assert go.status == "等待第1轮成绩"
    assert go.progress == "已赛 0 轮 · 已抽签 1 轮 · 剩余 2 轮"
    assert cards["doudizhu"].status == "等待第2轮成绩"
    assert cards["doudizhu"].left == "待定"


def test_R2020_F1_progress_mid_knockout():
    state = make_state(ko_rounds=1)      # rounds 1 and 2 drawn, round 2 without results
    played, drawn, left = site_vm.event_progress(state.events["xiangqi"])
    # round 2 is pending; then 3 matches, then a round robin of 3 (3 rounds)
    assert (played, drawn, left) == (1, 2, 1 + 3)
    assert site_vm.event_status(state.events["xiangqi"]) == "等待第2轮成绩"


def test_R2020_F1_progress_in_the_final_pool():
    """The final round robin of three plays three rounds, a Berger round a night (its plan
    says how many): with one of them drawn, two are left (it read 剩余轮次待定); with all
    three drawn, 各轮均已抽签.  A group stage (小组循环赛, a knockout to follow) stays 待定."""
    state = make_state(ko_rounds=4)
    es = state.events["xiangqi"]
    pool = [r for r in es.rounds if r.stage == "rr"]
    es.rounds = [r for r in es.rounds if r.stage != "rr"] + [
        dataclasses.replace(r, plan={"kind": "rr", "rr_round": k, "of": 3}) for k, r in enumerate(pool, 1)]
    played, drawn, left = site_vm.event_progress(es)
    assert (played, drawn, left) == (4, 6, 0)
    assert site_vm.progress_text(played, drawn, left) == "已赛 4 轮 · 已抽签 6 轮 · 各轮均已抽签"
    es.rounds = es.rounds[:-2]          # only the pool's first round drawn
    assert site_vm.event_progress(es) == (4, 4, 2)
    es.rounds[-1] = dataclasses.replace(es.rounds[-1], stage="group", stage_name="小组循环赛",
                                        plan={"kind": "group", "group_round": 1, "of": 3})
    assert site_vm.event_progress(es)[2] is None


def test_waiting_text_from_runner_wins(state):
    es = state.events["go"]
    es.waiting = "等待加赛成绩"
    assert site_vm.event_status(es) == "等待加赛成绩"


def test_branch_totals_count_awards_per_unit(state):
    vm = site_vm.index_vm(state)
    assert vm.award_columns == ("一等奖", "二等奖", "三等奖", "组织奖")
    rows = [(r.rank, r.unit, r.counts, r.total, r.prize) for r in vm.totals]
    assert rows[0] == (1, "分会3", ("1", "", "1", ""), 2, "400")
    assert rows[1] == (2, EVIL, ("", "1", "", ""), 1, "200")
    assert len(rows) == 11                       # every unit, zeros too
    assert ("分会4", ("", "", "", "1")) in [(r[1], r[2]) for r in rows]
    # how the 名次 is reached is said under the table (the weights were hidden)
    # (象棋 has ended, 围棋 has not: the table is 象棋's only — it read as the overall ranking)
    assert vm.totals_note == ("目前仅含已结束的项目（象棋）。"
                              "名次按获奖计分：一等奖 7 分、二等奖 5 分、三等奖 3 分，其他奖项不计分；同分按奖金多少。")
    # every event ended; no prize money: no 奖金 to break a tie by
    for es in state.events.values():
        es.complete = True
    state.awards = [dataclasses.replace(a, prize=0) for a in state.awards]
    assert site_vm.index_vm(state).totals_note == "名次按获奖计分：一等奖 7 分、二等奖 5 分、三等奖 3 分，其他奖项不计分。"


def test_branch_status_rows(state):
    vm = site_vm.index_vm(state)
    rows = {r.id: r for r in vm.branches}
    u1, u2, u3 = rows["u01"], rows["u02"], rows["u03"]
    assert (u1.received, u1.accepted, u1.errors, u1.warnings, u1.infos) == (2, 1, 0, 1, 1)
    assert u1.state == "已接受（有警告）" and u1.state_class == "warn"
    assert u1.report_href == "branches/u01.html"
    assert u1.returned_href == "returned/u01/%E5%88%86%E4%BC%9A1%E6%8A%A5%E5%90%8D%E8%A1%A8v2%20%E6%89%B9%E6%B3%A8.xlsx"
    assert (u2.errors, u2.state_class) == (3, "bad")
    assert u3.state == "未提交"
    assert rows[site_vm.UNASSIGNED].errors == 1      # the unreadable file without a branch


def test_branch_report(state):
    state.now = dt.datetime(2020, 11, 1)            # registration open: errors are to be fixed and resent
    vm = site_vm.branch_vm(state, "u02")
    assert vm.name == "第2分工会"
    assert [i.severity for i in vm.issues] == ["错误", "错误", "错误"]
    # sorted by cell row: B7, D9, D12
    assert [i.location for i in vm.issues] == ["报名表!B7", "报名表!D9", "报名表!D12"]
    assert vm.issues[0].code == "QUOTA_EXCEEDED" and vm.issues[0].code_label == "超出名额"
    assert vm.submissions[0].status == "未接受"
    assert vm.next_steps[0].startswith("请修改下列 3 处错误后重新发送报名表")
    assert "退回的工作簿" in vm.next_steps[0]
    assert vm.returned_href.startswith("../returned/u02/")
    assert len(vm.entries) == 4 and vm.entries[0].event == "象棋"


def test_branch_report_next_steps_for_each_situation(state):
    assert site_vm.branch_vm(state, "u01").next_steps == (
        "请核对下列 1 条警告；如确认无误，无需再次发送。",)
    # every event closed: 象棋's deadline passed, 斗地主 and 围棋 (no deadline) drawn — a form
    # sent now enters no event (R2020-Q4), so it is not asked for
    assert site_vm.branch_vm(state, "u03").next_steps[0].startswith("没有收到本分工会的报名表，报名已于 2020年11月9日 15:00 截止")
    state.now = dt.datetime(2020, 11, 1)
    assert "截止时间：2020年11月9日 15:00" in site_vm.branch_vm(state, "u03").next_steps[0]


def test_info_only_branch_is_told_nothing_to_do(state):
    state.issues = [i for i in state.issues if i.severity != "warning"]
    assert site_vm.branch_vm(state, "u01").next_steps[0].startswith("报名已接受，无需其他操作")


def test_event_page_vm(state):
    vm = site_vm.event_vm(state, "xiangqi")
    assert [s.kind for s in vm.stages] == ["knockout", "round_robin"]
    assert len(vm.brackets) == 1
    [table] = vm.standings
    assert table.tiebreaks[:2] == ("直胜", "胜局数") and len(table.tiebreaks) == 3
    assert table.rows[0].rank == "1" and table.rows[0].points == 4
    # Sonneborn–Berger is stored ×2 (TIEBREAK_SCALE) and shown in the event's points
    assert [r.tiebreaks[2] for r in table.rows] == ["2.5", "2", "1.5"]
    assert [a.award for a in vm.awards] == ["一等奖", "二等奖", "二等奖", "三等奖", "三等奖"]
    assert vm.awards[0].prize == "300元"
    r2 = vm.stages[0].rounds[1]
    assert r2.title == "第2轮（淘汰赛）" and r2.status == "已完成"
    assert sum(m.bye for m in r2.matches) == 1
    assert vm.stages[0].rounds[0].session == "2020年11月10日 16:00—18:00"


def test_swiss_round_list(state):
    vm = site_vm.event_vm(state, "go")
    [stage] = vm.stages
    assert stage.kind == "swiss" and vm.brackets == ()
    [rnd] = stage.rounds
    assert rnd.status == "已录入 1/2 场成绩"
    first = rnd.matches[0]
    assert [s.winner for s in first.sides] == [False, True]
    assert rnd.matches[1].pending


def test_stage_kind_by_shape():
    from pipeline.model import Match, Round
    m = lambda r, t, a, b, g="": Match("x", "s", r, g, t, (a, b))  # noqa: E731
    groups = [Round("x", "s", "", 1, (m(1, 1, "a", "b", "A"), m(1, 2, "c", "d", "B")))]
    assert site_vm.stage_kind(groups) == "groups"
    swiss = [Round("x", "s", "", 1, (m(1, 1, "a", "b"), m(1, 2, "c", "d"))),
             Round("x", "s", "", 2, (m(2, 1, "a", "c"), m(2, 2, "b", "d")))]
    assert site_vm.stage_kind(swiss) == "swiss"
    ko = [swiss[0], Round("x", "s", "", 2, (m(2, 1, "a", "c"),))]
    assert site_vm.stage_kind(ko) == "knockout"


def test_times_are_china_time():
    t = dt.datetime(2020, 11, 9, 7, 0, tzinfo=dt.timezone.utc)
    assert site_vm.fmt_time(t) == "2020年11月9日 15:00"
    assert site_vm.fmt_time(dt.datetime(2020, 11, 9, 15, 0)) == "2020年11月9日 15:00"


def test_tiebreak_display_scale():
    assert site_vm.show_scaled(5, 2) == "2.5"
    assert site_vm.show_scaled(4, 2) == "2"
    assert site_vm.show_scaled(7, 1) == "7"


def test_R2011_F1_a_playoff_column_shows_places_not_its_sort_key():
    """The 加赛 column showed the tiebreak's value (the number of the playoff's players placed
    below): 袁萍俊 2 above 杨鹏 1 read as the second place winning; now 3人中第1, 3人中第2
    (第1名 beside a 6th place read as first place)."""
    from pipeline.score.base import StandingRow
    from pipeline.state import StandingTable

    rows = (StandingRow("a", 1, 5, tiebreaks={"wins": 1, "playoff": 3}), StandingRow("b", 2, 5, tiebreaks={"wins": 1, "playoff": 2}),
            StandingRow("c", 3, 5, tiebreaks={"wins": 1, "playoff": 1}), StandingRow("d", 4, 2, tiebreaks={"wins": 0}))
    table = StandingTable("ddz", "final", "决赛", "", rows, ("wins", "playoff"))

    class Names:
        def team(self, e): return e
        def branch(self, e): return ""
        def players(self, e): return e
    (vm,) = site_vm.standing_vms([table], Names())
    assert [r.tiebreaks for r in vm.rows] == [("1", "3人中第1"), ("1", "3人中第2"), ("1", "3人中第3"), ("0", "—")]
    # rows level with none, or level with a playoff not played: no place (every row of every
    # table said 第1名 — the rows carry the playoff key, 0)
    rows = (StandingRow("a", 1, 9, tiebreaks={"wins": 3, "playoff": 0}), StandingRow("b", 2, 7, tiebreaks={"wins": 2, "playoff": 0}),
            StandingRow("c", 3, 5, tiebreaks={"wins": 1, "playoff": 0}), StandingRow("d", 3, 5, tiebreaks={"wins": 1, "playoff": 0}))
    (vm,) = site_vm.standing_vms([StandingTable("ddz", "final", "决赛", "", rows, ("wins", "playoff"))], Names())
    assert [r.tiebreaks[1] for r in vm.rows] == ["—", "—", "—", "—"]


def test_index_names_the_player_of_an_organisers_award_in_an_individual_event(state):
    """潜力选手奖 to a Go player (team and players are both the name) was listed with the unit
    alone, like a unit award."""
    from pipeline.state import AwardRow

    e = state.events["go"].entries[0]
    state.branch_awards = [AwardRow("go", "", "潜力选手奖", 0, e.team, e.branch, e.team, 0, e.id),
                           AwardRow("", "", "组织奖", 0, "", "u04", "")]
    got = site_vm.index_vm(state).branch_awards
    assert [(a.award, a.players) for a in got] == [("潜力选手奖", e.team), ("组织奖", "")]


def test_every_issue_code_has_a_chinese_label_on_the_branch_page():
    """A branch report shows each issue's code with its Chinese name (a code added without
    one showed a bare English code to the captain)."""
    from pipeline.issues import CODES
    from pipeline.render.site_vm import CODE_LABEL

    assert [c for c in CODES if not CODE_LABEL.get(c)] == []


def test_R2016_F2_index_totals_credit_each_unit_of_a_reformed_pair(state):
    """A pair re-formed at check-in (R2016-F2) or registered across units (R2015-Q2) wins: its
    award counts for each of its units on the index, as the note under the table says, and
    the event page names both units."""
    from pipeline.model import Entry, Person
    from pipeline.state import AwardRow

    es = state.events["xiangqi"]
    pair = Entry("xiangqi:merged:1", "xiangqi", "u09", "甲/乙（重组）", (Person("甲", "u09"), Person("乙", "u10")))
    es.entries.append(pair)
    state.awards.append(AwardRow("xiangqi", "", "三等奖", 6, pair.team, "u09", "甲/乙", 100, pair.id,
                                 units=("u09", "u10")))
    vm = site_vm.index_vm(state)
    rows = {r.unit: r for r in vm.totals}
    assert rows["分会9"].counts == rows["分会10"].counts == ("", "", "1", "")
    assert rows["分会9"].prize == rows["分会10"].prize == "50"
    assert "跨分工会组队的获奖计入其每个分工会" in vm.totals_note
    assert "奖金按单位平分" in vm.totals_note
    page = site_vm.event_vm(state, "xiangqi")
    assert page.awards[-1].branch == "分会9、分会10"


def test_after_every_deadline_a_page_does_not_ask_for_a_resend_that_would_be_refused(state):
    """R2020-Q4: once every event has closed, a form with errors is told that its refused
    entries did not count and to contact the office (a resend would be LATE_SUBMISSION
    under ``late_policy: reject``); under accept-with-warning, that a resend is marked late.
    The page said 请修改下列 3 处错误后重新发送 whatever the date."""
    import dataclasses

    spec = state.tournament.spec
    close = spec.events[0].deadline
    spec = state.tournament.spec = dataclasses.replace(
        spec, events=[dataclasses.replace(ev, deadline=close) for ev in spec.events])
    assert spec.late_policy == "reject"
    state.now = dt.datetime(2020, 11, 1, 9, 0)           # before: the deadline is given
    assert any("截止时间：2020年11月9日 15:00" in s for s in site_vm.branch_vm(state, "u02").next_steps)
    state.now = dt.datetime(2020, 11, 20, 9, 0)
    (step,) = [s for s in site_vm.branch_vm(state, "u02").next_steps if "3 处错误" in s]
    assert "重新发送的报名表不再受理" in step and "截止" in step and not step.startswith("请修改")
    assert "报名已于" in site_vm.branch_vm(state, "u03").next_steps[0]      # nothing was sent
    # a unit with nothing to correct: not told to resend to change anything either
    state.issues = [i for i in state.issues if i.branch != "u01" or i.severity == "info"]
    (step,) = site_vm.branch_vm(state, "u01").next_steps
    assert step.startswith("报名已接受，无需其他操作") and "重新发送" not in step and "联系" in step, step
    state.tournament.spec = dataclasses.replace(spec, late_policy="accept-with-warning")
    (step,) = [s for s in site_vm.branch_vm(state, "u02").next_steps if "3 处错误" in s]
    assert step.startswith("请修改下列 3 处错误") and "逾期" in step
    assert "逾期" in site_vm.branch_vm(state, "u01").next_steps[0]


def test_R2020_Q4_a_unit_without_a_form_is_not_asked_for_one_once_every_event_is_drawn(state):
    """Every deadline passed under ``late_policy: accept-with-warning``: a late form is taken,
    marked late — into an event not drawn yet.  Once every event is drawn it enters no draw (an
    entry added after round 1 is DRAW_INPUT_CHANGED), yet the page of a unit that sent nothing said
    尚未收到…请填写报名表后发送 (the office's next steps listed it too: an audit's league, every
    event finished).  It says so, as under ``reject``."""
    spec = state.tournament.spec
    close = spec.events[0].deadline
    spec = state.tournament.spec = dataclasses.replace(
        spec, events=[dataclasses.replace(ev, deadline=close) for ev in spec.events], late_policy="accept-with-warning")
    state.now = dt.datetime(2020, 11, 20, 9, 0)
    assert all(es.rounds for es in state.events.values())
    (step,) = site_vm.branch_vm(state, "u03").next_steps
    assert step.startswith("没有收到本分工会的报名表") and "均已抽签" in step and "请填写" not in step, step
    state.events["go"].rounds = []                  # one event not drawn: a late form still enters it
    assert site_vm.branch_vm(state, "u03").next_steps[0].startswith("尚未收到本分工会的报名表。请填写")


def test_no_next_step_reads_as_a_watch_in_traditional(state):
    """OpenCC turns 旧表 into 舊錶 (an old wristwatch): every T2015 unit page told the captain
    新表取代舊錶.  Each next step, converted, keeps 表 as a form."""
    from pipeline.text import convert

    state.issues = [i for i in state.issues if i.severity != "warning"]
    state.now = dt.datetime(2020, 11, 1)            # registration open: a resend replaces the form
    steps = [s for u in ("u01", "u02", "u03") for s in site_vm.branch_vm(state, u).next_steps]
    assert any("取代" in s for s in steps)
    for s in steps:
        assert "錶" not in convert(s, "traditional"), s


def test_a_swiss_record_names_the_byes_that_scored(state):
    """2胜0和2负 beside 积分 6 did not add up: a Swiss bye's 2 points are in 积分."""
    from pipeline.model import Match, Round
    from pipeline.render.site_vm import Names
    from tests.render_docs.states import t2015_state

    s = t2015_state()
    es = s.events["go"]
    es.rounds.append(Round("go", "swiss", "瑞士制", 2, (Match("go", "swiss", 2, "", 1, ("go-t01-1",), bye=True),),
                           seed="s", input_hash="00" * 32))
    (table,) = site_vm.standing_vms(es.standings, Names(s), es)
    assert [r.record for r in table.rows] == ["1胜0和0负，轮空1", "0胜0和1负"]


def test_branch_page_lists_the_units_awards(state):
    """A captain sees the unit's awards on its page: each event's (linked, with the prize)
    and the organisers' (组织奖); a cross-unit pair's award is on both units' pages, each
    with its share of the prize (R2015-Q2)."""
    vm = site_vm.branch_vm(state, "u03")
    assert vm.awards_shown
    assert [(a.event, a.event_href, a.award, a.holder, a.prize) for a in vm.awards] == [
        ("象棋", "../events/xiangqi.html", "一等奖", "象棋u01", "300元"),
        ("象棋", "../events/xiangqi.html", "三等奖", "象棋u08", "100元")]
    org = site_vm.branch_vm(state, "u04").awards
    assert [(a.event, a.award, a.holder, a.prize) for a in org] == [("", "组织奖", "本分工会", "")]
    assert site_vm.branch_vm(state, "u02").awards == ()
    state.awards[0] = dataclasses.replace(state.awards[0], team="甲/乙", players="甲/乙", prize=301,
                                          units=("u03", "u06"))
    mine = site_vm.branch_vm(state, "u03").awards[0]
    theirs = site_vm.branch_vm(state, "u06").awards[0]
    assert (mine.holder, mine.prize) == ("甲/乙，与分会6合组", "151元")
    # a re-formed pair's team names its players: named once (it read 甲/乙（重组）（甲/乙）)
    state.awards[0] = dataclasses.replace(state.awards[0], team="甲/乙（重组）")
    assert site_vm.branch_vm(state, "u03").awards[0].holder == "甲/乙，与分会6合组"
    assert (theirs.holder, theirs.prize) == ("甲/乙，与分会3合组", "150元")
    # before any event has ended, no awards section at all
    for es in state.events.values():
        es.complete = False
    state.branch_awards = []
    assert not site_vm.branch_vm(state, "u03").awards_shown


def test_R2016_A1_a_groups_award_is_named_as_on_its_certificate(state):
    """R2016-A1: the top 2 of each group.  The branch and event pages said “D组 小组第一名”,
    the certificate “D组第一名”: both say the certificate's."""
    state.awards[0] = dataclasses.replace(state.awards[0], group="D", award="小组第一名")
    assert site_vm.branch_vm(state, "u03").awards[0].award == "D组第一名"
    ev = state.awards[0].event
    assert "D组第一名" in [a.award for a in site_vm.event_vm(state, ev).awards]


def test_branch_page_shows_awards_html(state, tmp_path):
    from pipeline.render.site import render_site

    render_site(state, tmp_path)
    page = (tmp_path / "branches" / "u03.html").read_text(encoding="utf-8")
    assert "本分工会获奖（2）" in page and '<a href="../events/xiangqi.html">象棋</a>' in page
    assert "<td>一等奖</td><td>象棋u01</td><td class=\"num\">300元</td>" in page
    none = (tmp_path / "branches" / "u02.html").read_text(encoding="utf-8")
    assert "本分工会获奖（0）" in none and "已结束的项目中暂无获奖。" in none


def test_branch_page_gives_each_entry_its_final_place(state):
    """A captain read the unit's entries with no word of how they finished: an ended event
    gives each its final place (a group's place names the group; a tie says 并列); an
    event still running gives none, and then the column is not shown."""
    from pipeline.draw.base import Placement

    xq = state.events["xiangqi"]
    mine = [e for e in xq.entries if e.branch == "u03"]
    xq.placements = [Placement(1, mine[0].id), Placement(5, mine[1].id, group="B", tied=True)]
    rows = {(e.team, e.result) for e in site_vm.branch_vm(state, "u03").entries}
    assert (mine[0].team, "第1名") in rows and (mine[1].team, "B组第5名（并列）") in rows
    # a pair re-formed at check-in (R2016-F2) is placed under its own id: its halves' pairs show it
    other = next(e for e in xq.entries if e.branch == "u04")
    merged = f"{mine[1].id}+{other.id}"
    xq.rounds[0] = dataclasses.replace(xq.rounds[0], plan={"merged": [{"id": merged, "from": [mine[1].id, other.id],
                                                                       "players": [mine[1].players[0].key]}]})
    xq.placements = [Placement(1, mine[0].id), Placement(2, merged)]
    rows = {(e.team, e.result) for e in site_vm.branch_vm(state, "u03").entries}
    # (the players who played in the re-formed pair are named: the other half of a pair did not)
    assert (mine[1].team, f"第2名（{mine[1].players[0].name}重组后参赛）") in rows
    assert (other.team, "第2名（重组）") in {(e.team, e.result) for e in site_vm.branch_vm(state, "u04").entries}
    xq.complete = False
    assert all(e.result == "" for e in site_vm.branch_vm(state, "u03").entries)


def test_branch_page_html_has_the_place_column_only_when_placed(state, tmp_path):
    from pipeline.draw.base import Placement
    from pipeline.render.site import render_site

    xq = state.events["xiangqi"]
    first = next(e for e in xq.entries if e.branch == "u03")
    xq.placements = [Placement(1, first.id)]
    render_site(state, tmp_path)
    page = (tmp_path / "branches" / "u03.html").read_text(encoding="utf-8")
    assert "<th>最终名次</th>" in page and "<td>第1名</td>" in page
    # right after 参赛者: on a phone the last column was off the screen
    assert "<th>参赛者</th><th>最终名次</th>" in page and f'<td><span class="nm">{first.team}</span></td><td>第1名</td>' in page
    assert "<th>最终名次</th>" not in (tmp_path / "branches" / "u02.html").read_text(encoding="utf-8")


def test_the_event_pages_standings_and_rounds_mark_a_withdrawn_entry():
    """The 成绩册 notes 已退赛 on a withdrawn entry's row (viewmodels.standing_table); the event
    page's standings did not, and its unplayed table did not say the entry withdrew."""
    from pipeline.render.site_vm import Names
    from tests.render_docs.states import t2015_state

    s = t2015_state()
    es = s.events["go"]
    es.withdrawn = frozenset({"go-t02-1"})
    (table,) = site_vm.standing_vms(es.standings, Names(s), es)
    assert [r.withdrawn for r in table.rows] == [False, True]
    page = site_vm.event_vm(s, "go")
    (m,) = page.stages[0].rounds[0].matches
    assert m.sides[1].team == "陈晓岚（已退赛）" and "“乙方弃权”" in m.note


def test_R2011_F1_a_playoff_column_counts_pairs_as_pairs():
    """The 加赛 column of a pairs event (掼蛋 R2016-Q2, bridge R2015-Q2) says 2对中第1 — it
    said 2人中第1 of two pairs, as the 成绩册's 备注 did."""
    from pipeline.model import Entry, Person
    from pipeline.score.base import StandingRow
    from pipeline.state import StandingTable

    state = make_state()
    es = state.events["go"]
    pair = lambda i: Entry(f"p{i}", "go", "u01", f"第{i}对", (Person(f"甲{i}", "u01"), Person(f"乙{i}", "u01")))
    rows = (StandingRow("p1", 1, 5, tiebreaks={"wins": 1, "playoff": 1}), StandingRow("p2", 2, 5, tiebreaks={"wins": 1, "playoff": 0}))
    table = StandingTable("go", "final", "决赛", "", rows, ("wins", "playoff"))
    es.entries[:] = [pair(1), pair(2)]

    class Names:
        def team(self, e): return e
        def branch(self, e): return ""
        def players(self, e): return e
    (vm,) = site_vm.standing_vms([table], Names(), es)
    assert [r.tiebreaks[1] for r in vm.rows] == ["2对中第1", "2对中第2"]


def test_tied_rows_are_listed_in_the_standings_order_as_on_paper():
    """Entries still tied after the whole chain share a rank and are listed in the standings'
    order (by entry id, :func:`pipeline.score.standings.compute_standings`), as the 成绩册 and
    standings.csv list them: the site sorted them by name, and T2016 A组's 6th place read 机关一2队,
    金融1队, 体育部1队 on paper but 体育部1队, 机关一2队, 金融1队 on the event page."""
    from pipeline.render import viewmodels as vms
    from pipeline.score.base import StandingRow
    from pipeline.state import StandingTable

    state = make_state()
    es = state.events["go"]
    ids = [e.id for e in es.entries[:3]]
    teams = ["甲", "乙", "丙"]      # names sorting the other way (丙 < 乙 < 甲 by code point)
    rows = tuple(StandingRow(i, 1, 0, tiebreaks={"wins": 0}) for i in ids)
    table = StandingTable("go", "sw", "积分编排赛", "", rows, ("wins",))
    es.standings = [table]

    class Names:
        def team(self, e): return teams[ids.index(e)]
        def branch(self, e): return ""
        def players(self, e): return ""
    (vm,) = site_vm.standing_vms([table], Names(), es)
    assert [r.team for r in vm.rows] == teams
    paper = vms.standing_table(state, es, table)
    assert [r[1] for r in paper.rows] == [next(e.team for e in es.entries if e.id == i) for i in ids]


def test_R2020_F1_a_knockout_bye_on_the_event_page_scores_nothing(state):
    """A knockout's bye is a 晋级签 (R2020-F1): the draw sheet says 轮空（直接晋级） and the
    handbook says it is not scored — the event page said 晋级签；轮空按2分计.  A Swiss bye
    (in place of a game) still says what it counts."""
    from pipeline.model import Match, Round

    vm = site_vm.event_vm(state, "xiangqi")
    [bye] = [m for m in vm.stages[0].rounds[1].matches if m.bye]
    assert "分计" not in bye.note and "轮空按" not in bye.note, bye.note
    es = state.events["go"]
    es.rounds.append(Round("go", "swiss", "瑞士制", 2, (Match("go", "swiss", 2, "", 1, (es.entries[0].id,), bye=True),),
                           seed="s", input_hash="00" * 32))
    [stage] = site_vm.event_vm(state, "go").stages
    [swiss_bye] = [m for m in stage.rounds[-1].matches if m.bye]
    assert swiss_bye.note.endswith("轮空按2分计"), swiss_bye.note


def test_a_shared_place_on_the_event_pages_award_list_says_so(state):
    """The event page's 获奖名单 printed 11 twice where the standings say 11（并列）."""
    first = next(a for a in state.awards if a.event == "xiangqi" and a.rank == 3)
    state.awards.append(dataclasses.replace(first, team="另一人", players="另一人", entry="xiangqi:u09:1"))
    ranks = [a.rank for a in site_vm.event_vm(state, "xiangqi").awards]
    assert ranks.count("3（并列）") == 2 and "1" in ranks, ranks


def test_a_branch_pages_message_does_not_repeat_its_place(state):
    """The page gives each problem's 位置 in its own column: a message that starts with it
    (报名表!B7 “象棋” 超出名额…, as every registration check's does) said it twice."""
    issues = {i.code: i for i in site_vm.branch_vm(state, "u02").issues}
    quota = issues["QUOTA_EXCEEDED"]
    assert quota.location == "报名表!B7"
    assert quota.message == "“象棋” 超出名额：本分工会已报 3 人，限 2 人。请删去 1 人。"
    assert issues["MISSING_VALUE"].message == "姓名为空，请填写。"


def test_R2020_Q4_a_received_time_in_the_deadline_minute_shows_its_seconds():
    """The unit page listed a form refused as late with 收到时间 2020年11月9日 15:00 beside
    “报名已于 2020年11月9日 15:00 截止”: received at 15:00:30, it shows the seconds; other
    times keep their minutes."""
    state = make_state()
    subs = state.submissions
    state.submissions = [dataclasses.replace(s, received=dt.datetime(2020, 11, 9, 15, 0, 30)) if s.branch == "u02" else s
                         for s in subs]
    assert [s.received for s in site_vm.branch_vm(state, "u02").submissions] == ["2020年11月9日 15:00:30"]
    assert [s.received for s in site_vm.branch_vm(state, "u01").submissions] == ["2020年11月1日 09:00",
                                                                                  "2020年11月2日 09:00"]
