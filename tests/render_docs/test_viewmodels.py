"""Golden view-model tests of the printed documents (no HTML, no PDF)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from pipeline.layout import REG_COLUMNS
from pipeline.render import viewmodels as vms
from pipeline.spec import EventSpec, QuotaSpec, UnitSpec, validated

from .states import EVIL, t2011_state, t2015_state, t2016_state, t2020_state


# -- helpers --------------------------------------------------------------------------------
def test_chinese_numbers_and_dates():
    assert [vms.cn_number(n) for n in (1, 10, 11, 20, 23)] == ["一", "十", "十一", "二十", "二十三"]
    assert vms.cn_date(dt.date(2020, 10, 30)) == "2020年10月30日"
    assert vms.cn_weekday(dt.date(2020, 11, 10)) == "周二"
    assert vms.cn_datetime(dt.datetime(2020, 11, 9, 15, 0)) == "2020年11月9日 15:00"


@pytest.mark.parametrize("members,expected", [(0, 1), (49, 1), (50, 2), (99, 2), (100, 3), (149, 3),
                                              (150, 4), (199, 4), (200, 5), (250, 6)])
def test_R2015_Q3_quota_bands(members, expected):
    q = validated(QuotaSpec, {"rule": "bands", "extra_every": 50, "bands": [
        {"min_members": 0, "entries": 1}, {"min_members": 50, "entries": 2}, {"min_members": 100, "entries": 3}]})
    assert vms.quota_entries(q, members, 2) == expected


@pytest.mark.parametrize("members,expected", [(10, 1), (40, 3), (70, 5), (100, 7), (101, 7)])
def test_R2016_Q1_quota_ratio(members, expected):
    q = QuotaSpec(rule="ratio", ratio=0.15)
    assert vms.quota_entries(q, members, 2) == expected
    ev = validated(EventSpec, {"id": "gd", "name": "掼蛋", "game": "guandan", "team_size": 2, "format": {"type": "x"},
                               "quota": q})
    assert vms.branch_quota(ev, UnitSpec(id="a", name="甲", members=members)) == expected


def test_R2020_Q1_R2015_Q1_quota_fixed_and_open():
    assert vms.quota_entries(QuotaSpec(rule="fixed", per_branch=2), 80, 2) == 2
    assert vms.quota_entries(QuotaSpec(rule="open"), 80) is None


# -- notice --------------------------------------------------------------------------------
def test_R2020_Q1_notice_golden():
    vm = vms.notice_vm(t2020_state())
    assert vm.title == "关于举办第四届教职工棋牌联赛的通知"
    assert vm.greeting == "各分工会："
    assert vm.intro.endswith("学校工会决定举办第四届教职工棋牌联赛，现将有关事项通知如下：")
    assert [s.heading for s in vm.sections] == [
        "一、活动主题", "二、组织机构", "三、参赛单位", "四、比赛项目", "五、参赛名额", "六、时间地点",
        "七、比赛办法", "八、奖项设置", "九、报名办法", "十、注意事项"]
    sec = {s.heading[2:]: s for s in vm.sections}
    assert sec["组织机构"].paragraphs[-2:] == ["组长：李琰霞", "副组长：牛俊旺、焦万芳"]
    assert sec["参赛单位"].paragraphs[1] == "第一队：行政第一分工会，队长庞雪平；"
    assert sec["参赛单位"].paragraphs[-1] == "第四队：机电工程学院分工会，队长朱跃飞。"
    assert sec["参赛名额"].paragraphs == ["1、象棋：每个分工会限报2名。", "2、双升：每个分工会限报2对（4人）。",
                                      "3、每人只能参加一个项目，不得同时参加多项。"]
    assert sec["参赛名额"].tables == []            # fixed quotas need no per-branch table
    assert sec["时间地点"].paragraphs[1] == "（1）2020年11月10日（周二）16:00—18:00，地点：工会活动室"
    assert sec["奖项设置"].paragraphs[0] == ("1、象棋：一等奖一名（奖金300元）、二等奖两名（奖金200元）、"
                                          "三等奖三名（奖金100元）。")
    assert "另设组织奖等奖项若干。" in sec["奖项设置"].paragraphs
    assert sec["报名办法"].paragraphs[0] == "各项目报名截止时间：2020年11月9日15:00。"   # said once
    assert sec["比赛办法"].paragraphs[0].startswith("（一）象棋：")
    assert vm.closing == "十一、未尽事宜，由组委会负责解释说明。"
    assert (vm.signature, vm.date) == ("工会办公室", "2020年10月30日")
    assert vm.form.head == REG_COLUMNS and len(vm.form.rows) == 15


def test_R2015_Q3_notice_quota_table():
    vm = vms.notice_vm(t2015_state())
    sec = {s.heading[2:]: s for s in vm.sections}
    assert "组织机构" in sec and "承办单位：成都中医药大学工会委员会" in sec["组织机构"].paragraphs
    quota = sec["参赛名额"]
    assert quota.paragraphs[0] == "1、围棋：不限名额，凡工会会员均可报名。"
    assert quota.paragraphs[1] == ("2、双扣：按分工会会员人数确定名额，50人以下报1对，50人至99人报2对，"
                                   "100人及以上报3对，此后每增加50人增报1对。")
    table = quota.tables[0]
    assert table.head == ["分工会", "会员人数", "双扣（对）"]
    assert table.rows == [["基础医学院分工会", "149", "3"], ["临床医学院分工会", "250", "6"],
                          ["马克思主义学院分工会", "49", "1"]]
    assert vm.script == "traditional"


# -- draw sheets and cards -----------------------------------------------------------------
def test_R2020_F1_a_bye_withdrawn_from_before_its_round_is_played_says_it_does_not_advance():
    """Handbook 缺席、弃权和退赛: a 晋级签 whose holder the office withdrew before the round was
    played is not scored and takes it no further (its result an absence: the runner's
    EventRunner.unscored_byes) — the draw sheet, the event page and the bracket say so; the
    bracket drew it as going through.  A Swiss bye so held says 轮空（已退赛，不计分）."""
    import dataclasses

    from pipeline.model import MatchResult, Outcome, SideResult
    from pipeline.render import site_vm

    state = t2020_state()
    es = state.events["xiangqi"]
    rnd = es.rounds[1]
    bye = next(m for m in rnd.matches if m.bye)
    es.withdrawn = frozenset(bye.sides)
    es.results[bye.key] = MatchResult(bye, (SideResult(Outcome.ABSENT),), reason="轮空（已退赛，不计分）")
    vm = vms.draw_vm(state, "xiangqi", rnd)
    assert vm.byes == ["张良（基础部）：晋级签（已退赛，不晋级）"]
    page = site_vm.event_vm(state, "xiangqi")
    [shown] = [m for st in page.stages for r in st.rounds if r.no == 2 for m in r.matches if m.bye]
    assert shown.note == "晋级签（已退赛，不晋级）" and not shown.sides[0].winner
    assert shown.sides[0].team.endswith("（已退赛）")
    box = site_vm._match_box(bye, es, site_vm.Names(state))
    assert box.caption == "晋级签（已退赛，不晋级）" and box.advancing == ()
    # (a Swiss bye: not a 晋级签)
    es.spec = dataclasses.replace(es.spec, format=dataclasses.replace(es.spec.format, type="swiss"))
    assert vms.draw_vm(state, "xiangqi", rnd).byes == ["张良（基础部）：轮空（已退赛，不计分）"]


def test_R2011_R1_a_walkover_withdrawn_from_before_its_round_is_complete_says_it_does_not_advance():
    """Handbook 缺席、弃权和退赛 with R2011-R1: a knockout's walkover (不战而胜, no bye) whose
    holder the office withdrew before the round was complete goes no further either — the
    draw sheet, the event page and the bracket say 不战而胜（已退赛，不晋级）, not 晋级签."""
    import dataclasses

    from pipeline.model import MatchResult, Outcome, SideResult
    from pipeline.render import site_vm

    state = t2020_state()
    es = state.events["xiangqi"]
    rnd = es.rounds[1]
    bye = next(m for m in rnd.matches if m.bye)
    walk = dataclasses.replace(bye, note="不战而胜（半决赛对手空缺）")
    assert walk.walkover and walk.key == bye.key
    rnd = dataclasses.replace(rnd, matches=tuple(walk if m is bye else m for m in rnd.matches))
    es.rounds = [rnd if r.round == rnd.round else r for r in es.rounds]
    es.withdrawn = frozenset(walk.sides)
    es.results[walk.key] = MatchResult(walk, (SideResult(Outcome.ABSENT),), reason="轮空（已退赛，不计分）")
    assert vms.draw_vm(state, "xiangqi", rnd).byes == ["张良（基础部）：不战而胜（已退赛，不晋级）"]
    page = site_vm.event_vm(state, "xiangqi")
    [shown] = [m for st in page.stages for r in st.rounds if r.no == 2 for m in r.matches if m.bye]
    assert shown.note == "不战而胜（已退赛，不晋级）" and not shown.sides[0].winner
    assert shown.sides[0].team.endswith("（已退赛）") and shown.table == "不战而胜"
    box = site_vm._match_box(walk, es, site_vm.Names(state))
    assert box.caption == "不战而胜（已退赛，不晋级）" and box.advancing == ()
    # scored (withdrawn once the round was complete, or not at all): the walkover as drawn
    es.results[walk.key] = MatchResult(walk, (SideResult(Outcome.BYE, place=1),), reason="轮空")
    assert vms.draw_vm(state, "xiangqi", rnd).byes == ["张良（基础部）：不战而胜（半决赛对手空缺）"]
    assert site_vm._match_box(walk, es, site_vm.Names(state)).caption == "不战而胜（半决赛对手空缺）"


def test_R2020_F1_draw_sheet_golden():
    state = t2020_state()
    rnd = state.events["xiangqi"].rounds[1]
    vm = vms.draw_vm(state, "xiangqi", rnd)
    assert vm.title == "象棋 淘汰赛第二轮 对阵表"
    assert (vm.session, vm.venue, vm.referee) == ("2020年11月11日 16:00—18:00", "工会活动室", "王军")
    assert vm.table.head == ["桌号", "甲方", "单位", "乙方", "单位", "备注"]
    assert vm.table.rows == [["1", "王军", "行政一", "王瑞（执红先行）", "行政二", ""]]
    assert vm.byes == ["张良（基础部）：抽得晋级签"]
    assert vm.notes == ["3名胜者中1名抽得晋级签（轮空），其余2名进行1场比赛。"]
    assert vm.seed_line == "抽签种子 t2020-mini/xiangqi/2；输入摘要 " + "9f" * 32


def test_draw_sheet_round1_and_cards():
    state = t2020_state()
    rnd = state.events["xiangqi"].rounds[0]
    vm = vms.draw_vm(state, "xiangqi", rnd)
    assert len(vm.table.rows) == 4 and vm.byes == []
    assert vm.table.rows[0][1:5] == ["王军（执红先行）", "行政一", EVIL, "行政一"]
    cards = vms.cards_vm(state, "xiangqi", rnd)
    assert [c.table_label for c in cards.cards] == ["第 1 桌", "第 2 桌", "第 3 桌", "第 4 桌"]
    assert cards.cards[0].sides == [("甲方（执红先行）", "王军", "行政一"), ("乙方", EVIL, "行政一")]   # R2011-F3
    assert cards.cards[0].session == "2020年11月10日 16:00—18:00 工会活动室"
    # byes get no card
    assert len(vms.cards_vm(state, "xiangqi", state.events["xiangqi"].rounds[1]).cards) == 1



def test_draw_sheet_says_each_games_first_move_and_what_a_bye_means():
    """Go's first mover holds black (Xiangqi's red, above); a Swiss bye does not advance
    anyone — only a knockout's does."""
    import dataclasses

    state = t2015_state()
    es = state.events["go"]
    vm = vms.draw_vm(state, "go", es.rounds[0])
    assert vm.table.rows[0][1].endswith("（执黑先行）")
    m = es.rounds[0].matches[0]
    bye_round = dataclasses.replace(es.rounds[0], matches=(m, dataclasses.replace(m, table=2, sides=(m.sides[0],),
                                                                                  bye=True)))
    assert vms.draw_vm(state, "go", bye_round).bye_title == "轮空（本轮不赛；轮空按2分计）"
    ko = t2020_state()
    assert vms.draw_vm(ko, "xiangqi", ko.events["xiangqi"].rounds[1]).bye_title == "轮空（直接晋级）"


def test_swiss_notice_balances_first_moves_only_for_one_game_board_games():
    from pipeline.draw import FORMATS
    from pipeline.games import GAMES

    swiss = FORMATS.get("swiss")
    assert "先后手按各人已执先次数均衡分配（执黑先行）" in swiss.describe({}, game=GAMES.get("go"))
    assert "（执红先行）" in swiss.describe({}, game=GAMES.get("xiangqi"))
    assert "先后手" not in swiss.describe({}, game=GAMES.get("shuangkou"))
    assert "红黑" not in swiss.describe({})


def test_draw_sheet_labels_follow_a_changed_event_state():
    """Each entry's label is made once per event state (an event's rounds label the same
    entries): a new state, or an entry list grown in place, is labelled afresh."""
    import dataclasses

    state = t2020_state()
    es = state.events["xiangqi"]
    rnd = es.rounds[0]
    assert vms.draw_vm(state, "xiangqi", rnd).table.rows[0][1] == "王军（执红先行）"
    renamed = [dataclasses.replace(e, team="王军军") if e.team == "王军" else e for e in es.entries]
    state.events["xiangqi"] = dataclasses.replace(es, entries=renamed)
    assert vms.draw_vm(state, "xiangqi", rnd).table.rows[0][1] == "王军军（执红先行）"
    assert vms.cards_vm(state, "xiangqi", rnd).cards[0].sides[0] == ("甲方（执红先行）", "王军军", "行政一")
    # the same state, an entry replaced in its list in place: labelled afresh
    es2 = state.events["xiangqi"]
    i = next(i for i, e in enumerate(es2.entries) if e.team == "王军军")
    es2.entries[i] = dataclasses.replace(es2.entries[i], team="王君")
    assert vms.draw_vm(state, "xiangqi", rnd).table.rows[0][1] == "王君（执红先行）"
    assert vms.cards_vm(state, "xiangqi", rnd).cards[0].sides[0] == ("甲方（执红先行）", "王君", "行政一")

# -- standings -----------------------------------------------------------------------------
def test_R2011_F1_standings_tiebreak_columns_and_playoff_marks():
    vm = vms.standings_vm(t2020_state())
    assert [e.name for e in vm.events] == ["象棋"]
    assert vm.events[0].status == "进行中：等待第2轮成绩"
    t = vm.events[0].tables[0]
    # the event is under way and this table is its order: 当前名次 (handbook 五, audit 41)
    assert t.caption == "循环赛 当前名次（比赛进行中，非最终名次）"
    assert vm.events[0].notes == ["比赛尚未结束，此表为截至淘汰赛第一轮的当前名次，不是最终名次。"]
    assert t.head == ["名次", "姓名", "单位", "场次", "胜", "平", "负", "积分", "直胜", "胜局数", "索伯分", "备注"]
    assert t.rows[0] == ["1", "王军", "行政一", "2", "2", "0", "0", "4", "0", "2", "2", ""]
    assert t.rows[1] == ["2", "王瑞", "行政二", "2", "0", "1", "1", "1", "1", "0", "1.5", "需加赛"]
    assert t.row_class == ["", "playoff", "playoff"]


def test_R2015_F1_swiss_standings_chain():
    vm = vms.standings_vm(t2015_state())
    t = vm.events[0].tables[0]
    assert t.head == ["名次", "姓名", "单位", "场次", "胜", "负", "积分", "对手分", "累进分", "胜局数", "备注"]
    assert t.rows[1] == ["2", "陈晓岚", "临床医学院", "1", "0", "1", "0", "2", "0", "0", ""]



def _placed(state, complete: bool):
    """The t2020-like state's 象棋 (round 1 played, round 2's match not yet) with an order of
    all eight entries — the knockout's current order, or, with ``complete``, its final one."""
    import dataclasses

    from pipeline.draw.base import Placement

    es = state.events["xiangqi"]
    ids = [e.id for e in es.entries]
    order = [Placement(1, ids[0], "淘汰赛第二轮"), Placement(2, ids[3], "淘汰赛第二轮"),
             Placement(3, ids[4], "淘汰赛第二轮"), Placement(3, ids[6], "淘汰赛第二轮", tied=True)] + \
        [Placement(5, i, "淘汰赛第一轮负者", tied=True) for i in (ids[1], ids[2], ids[5], ids[7])]
    state.events["xiangqi"] = dataclasses.replace(es, placements=order, complete=complete,
                                                  waiting="" if complete else es.waiting)
    return state


def test_R2011_F2_an_unfinished_events_order_is_not_called_final():
    """Audit 39: an event still being played printed its current order (``placements()`` give
    the final OR current order) under 最终名次.  Until the event is complete the table says
    it is the current order and which round it stands at."""
    vm = vms.standings_vm(_placed(t2020_state(), complete=False))
    ev = vm.events[0]
    order = ev.tables[-1]
    assert order.caption == "当前名次（比赛进行中，非最终名次）"
    assert order.part == "象棋 当前名次" and vms._toc_label(order) == "当前名次"
    said = [t.caption.replace("非最终名次", "") + t.part for t in ev.tables] + \
        [n.replace("不是最终名次", "") for n in ev.notes]
    assert not any("最终名次" in x for x in said)
    assert ev.notes[0] == "比赛尚未结束，此表为截至淘汰赛第一轮的当前名次，不是最终名次。"
    assert [r[0] for r in order.rows[:4]] == ["1", "2", "3", "3（并列）"]
    # ended: 最终名次, as before, and no such note
    done = vms.standings_vm(_placed(t2020_state(), complete=True)).events[0]
    assert (done.tables[-1].caption, done.tables[-1].part) == ("最终名次", "象棋 最终名次")
    assert not any("当前名次" in n for n in done.notes)



def test_R2011_F1_a_current_order_says_its_round_a_partial_one_and_a_pending_playoff():
    """The current order's note: the last round played out, a later one's results so far,
    and a tie of the final places still to be played off (阶段 最终名次)."""
    import dataclasses

    from pipeline.layout import FINAL_PLACES
    from pipeline.model import Match, MatchResult, Outcome, Round, SideResult

    state = _placed(t2020_state(), complete=False)
    es = state.events["xiangqi"]
    r2 = es.rounds[1]
    m = r2.matches[0]
    won = {m.key: MatchResult(m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0)))}
    ids = [e.id for e in es.entries]
    state.events["xiangqi"] = dataclasses.replace(es, results={**es.results, **won},
                                                  ties=[(FINAL_PLACES, "", (ids[4], ids[6]))])
    note = vms.standings_vm(state).events[0].notes[0]
    assert note == "比赛尚未结束，此表为截至淘汰赛第二轮的当前名次，并列名次尚待加赛决定，不是最终名次。"
    state.events["xiangqi"] = dataclasses.replace(state.events["xiangqi"], ties=[("group", "H", (ids[0], ids[3]))])
    note = vms.standings_vm(state).events[0].notes[0]
    assert note == "比赛尚未结束，此表为截至淘汰赛第二轮的当前名次，H组名次尚待加赛决定，不是最终名次。"
    # a drawn knockout match (or a level table of three) waits for its 加赛: no group's places
    # (a review: it said 小组名次 for an event without groups)
    state.events["xiangqi"] = dataclasses.replace(state.events["xiangqi"], ties=[("ko2", "", (ids[0], ids[3]))])
    note = vms.standings_vm(state).events[0].notes[0]
    assert note == "比赛尚未结束，此表为截至淘汰赛第二轮的当前名次，未分胜负的对局尚待加赛决定，不是最终名次。"
    es = state.events["xiangqi"]
    r3 = Round("xiangqi", "ko3", "淘汰赛第三轮", 3, (Match("xiangqi", "ko3", 3, "", 1, (ids[0], ids[4])),
                                                 Match("xiangqi", "ko3", 3, "", 2, (ids[3], ids[6]))))
    first = r3.matches[0]
    state.events["xiangqi"] = dataclasses.replace(es, rounds=[*es.rounds, r3], ties=[], results={
        **es.results, first.key: MatchResult(first, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0)))})
    note = vms.standings_vm(state).events[0].notes[0]
    assert note == "比赛尚未结束，此表为截至淘汰赛第二轮（淘汰赛第三轮已有部分成绩）的当前名次，不是最终名次。"


# -- awards and certificates ---------------------------------------------------------------
def test_R2020_A1_awards_golden():
    vm = vms.awards_vm(t2020_state())
    assert vm.title == "第四届教职工棋牌联赛 获奖名单"
    assert [e.name for e in vm.events] == ["象棋", "双升"]
    xq = vm.events[0].tables[0]
    assert xq.head == ["奖项", "名次", "姓名", "单位", "奖金（元）"]
    assert xq.rows[0] == ["一等奖", "1", "王军", "行政第一分工会", "300"]
    assert xq.rows[3] == ["三等奖", "4", EVIL, "行政第一分工会", "100"]
    ss = vm.events[1].tables[0]
    assert ss.head == ["奖项", "名次", "队名", "单位", "队员", "奖金（元）"]
    assert ss.rows == [["一等奖", "1", "基础部1队", "基础教学部分工会", "司小昆/庞雪平", "300"]]
    assert vm.branch_awards.rows == [["组织奖", "基础教学部分工会", "—"]]
    totals = vm.branch_totals
    assert totals.head == ["分工会", "一等奖", "二等奖", "三等奖", "组织奖", "合计", "奖金（元）"]
    assert totals.rows[0] == ["行政第一分工会", "1", "", "1", "", "2", "400"]
    assert totals.rows[-1] == ["总计", "2", "2", "1", "1", "6", "1,100"]
    assert totals.row_class[-1] == "total"
    assert vm.total_prize == "1,100"


def test_awards_without_any_prize_money_have_no_column_of_dashes():
    """Certificates and 奖品 only (t2016): no 奖金（元） column of “—” in any table."""
    import dataclasses

    state = t2020_state()
    state.awards[:] = [dataclasses.replace(a, prize=0) for a in state.awards]
    state.branch_awards[:] = [dataclasses.replace(a, prize=0) for a in state.branch_awards]
    vm = vms.awards_vm(state)
    tables = [t for e in vm.events for t in e.tables] + [vm.branch_awards, vm.branch_totals]
    assert all("奖金（元）" not in t.head and all(len(r) == len(t.head) for r in t.rows) for t in tables)
    assert vm.events[0].tables[0].rows[0] == ["一等奖", "1", "王军", "行政第一分工会"]


def test_R2015_A1_discretionary_awards_after_places():
    vm = vms.awards_vm(t2015_state())
    assert [r[0] for r in vm.events[0].tables[0].rows] == ["第一名", "风尚奖"]


def test_R2015_A1_one_certificate_per_award():
    state = t2020_state()
    vm = vms.certificates_vm(state)
    assert len(vm.certificates) == len(state.awards) + len(state.branch_awards) == 6
    c = vm.certificates[0]
    assert (c.recipient, c.branch, c.event, c.award, c.issuer, c.date) == (
        "王军 同志", "行政第一分工会", "象棋", "一等奖", "工会办公室", "2020年11月11日")
    assert c.body == "在第四届教职工棋牌联赛的象棋比赛中荣获一等奖。" and c.closing == "特发此证，以资鼓励。"
    assert vm.certificates[4].recipient == "司小昆、庞雪平 同志"
    assert vm.certificates[5].recipient == "基础教学部分工会"
    assert vm.certificates[5].body == "在第四届教职工棋牌联赛中荣获组织奖。"


def test_R2015_A1_an_organisers_award_to_one_player_of_a_pair_names_that_player():
    """风尚奖 to 司小昆 of a 双升 pair: the certificate is 司小昆's, not the pair's, and the
    awards list names the player under 特别奖项 (the 组织奖 stays a unit award)."""
    from pipeline.state import AwardRow

    state = t2020_state()
    pair = next(a for a in state.awards if a.event == "shuangsheng")
    state.branch_awards.insert(0, AwardRow("双升", "", "风尚奖", 0, pair.team, "u3", "司小昆", 0, pair.entry))
    certs = vms.certificates_vm(state).certificates
    mine = next(c for c in certs if c.award == "风尚奖")
    assert mine.recipient == "司小昆 同志"
    assert next(c for c in certs if c.award == "一等奖" and c.event == "双升").recipient == "司小昆、庞雪平 同志"
    vm = vms.awards_vm(state)
    assert [r[:2] for r in vm.person_awards.rows] == [["风尚奖", "司小昆"]]
    assert [r[0] for r in vm.branch_awards.rows] == ["组织奖"]


def test_certificate_names_the_contest_without_saying_bisai_twice():
    """"2016年教职工扑克牌比赛扑克牌比赛中" and "…棋牌比赛桥牌比赛中" read badly; a group's
    place names its group."""
    from pipeline.state import AwardRow

    state = t2020_state()
    import dataclasses

    state.tournament.spec = dataclasses.replace(state.tournament.spec, name="2016年教职工扑克牌比赛")
    state.awards = [AwardRow("xiangqi", "B", "小组第一名", 1, "王军", "u1", "王军", 0, state.awards[0].entry)]
    state.branch_awards = []
    (c,) = vms.certificates_vm(state).certificates
    assert c.body == "在2016年教职工扑克牌比赛的象棋项目中荣获B组第一名。" and c.award == "B组第一名"
    # T2011's certificate read 在XX单位棋牌比赛中国象棋项目中荣获第一名 (比赛中 / 国象棋)
    assert vms._contest("XX单位棋牌比赛", "中国象棋") == "XX单位棋牌比赛的中国象棋项目"
    assert vms._contest("第四届教职工棋牌联赛", "中国象棋") == "第四届教职工棋牌联赛的中国象棋比赛"


@pytest.mark.parametrize("league,bodies", [
    ("t2011-court", {"中国象棋": "在XX单位棋牌比赛的中国象棋项目中荣获", "斗地主": "在XX单位棋牌比赛的斗地主项目中荣获"}),
    ("t2015-tcm", {"围棋": "在2015年教职工棋牌比赛的围棋项目中荣获", "中国象棋": "在2015年教职工棋牌比赛的中国象棋项目中荣获",
                   "桥牌": "在2015年教职工棋牌比赛的桥牌项目中荣获", "双扣": "在2015年教职工棋牌比赛的双扣项目中荣获"}),
    ("t2016-poker", {"扑克牌": "在2016年教职工扑克牌比赛中荣获"}),
    ("t2020-league", {"象棋": "在第四届教职工棋牌联赛的象棋比赛中荣获", "跳棋": "在第四届教职工棋牌联赛的跳棋比赛中荣获",
                      "双升": "在第四届教职工棋牌联赛的双升比赛中荣获", "斗地主": "在第四届教职工棋牌联赛的斗地主比赛中荣获"}),
])
def test_R2015_A1_certificates_word_every_event_alike(league, bodies):
    """R2015-A1 certificates: T2011's read 在XX单位棋牌比赛的中国象棋项目中荣获… beside
    在XX单位棋牌比赛斗地主项目中荣获… (的 only before an event beginning with 中).  Every
    sample league's events, as named in its tournament.yaml, are now worded alike: the
    tournament, 的, the event's 项目 / 比赛 (once when the event is in the tournament's name)."""
    from pipeline.spec import load_tournament

    spec = load_tournament(Path(__file__).resolve().parents[2] / "sample_sheets" / league).spec
    for ev in spec.events:
        assert f"在{vms._contest(spec.name, ev.name)}中荣获" == bodies[ev.name], ev.name
    assert set(bodies) == {ev.name for ev in spec.events}


def test_certificate_date_is_stable_not_now():
    state = t2020_state()
    state.now = dt.datetime(2030, 1, 1)
    assert vms.certificates_vm(state).certificates[0].date == "2020年11月11日"


# -- bus and budget ------------------------------------------------------------------------
def test_R2016_Q2_bus_manifest():
    vm = vms.bus_vm(t2016_state())
    assert [(p.name, p.count) for p in vm.points] == [("福建路、花园路", 0), ("镇江", 2), ("桥头", 1),
                                                       ("自行到达", 0), ("未填写", 1)]
    assert vm.points[1].table.rows[0] == ["1", "甲一", "文学院分工会", "掼蛋", "13800000001"]
    assert vm.by_branch.head == ["分工会", "福建路、花园路", "镇江", "桥头", "自行到达", "未填写", "合计"]
    assert vm.by_branch.rows == [["文学院分工会", "0", "1", "1", "0", "0", "2"],
                                 ["商学院分工会", "0", "1", "0", "0", "1", "2"],
                                 ["合计", "0", "2", "1", "0", "1", "4"]]
    assert (vm.total, vm.people, vm.own_way, vm.unfilled) == (3, 4, 0, 1)


def test_R2016_Q2_bus_total_leaves_out_those_who_come_their_own_way():
    import dataclasses

    from pipeline.render.docs import plan_documents, render_html

    state = t2016_state()
    state.entries[0] = dataclasses.replace(state.entries[0], players=tuple(
        dataclasses.replace(p, pickup="自行到达") for p in state.entries[0].players))
    vm = vms.bus_vm(state)
    assert (vm.total, vm.people, vm.own_way, vm.unfilled) == (1, 4, 2, 1)    # only 乙一 rides
    html = render_html(next(d for d in plan_documents(state) if d.stem == "bus"))
    assert "乘车总人数：1 人（报名共 4 人，其中自行到达 2 人，未填写乘车地点 1 人）" in html


def test_bus_counts_a_person_once_across_events():
    from pipeline.model import Entry, Person

    p = Person("甲一", "b1", staff_id="7", pickup="镇江")
    people = vms.riders([Entry("a", "x", "b1", "甲一", (p,)), Entry("b", "y", "b1", "甲一", (p,))])
    assert len(people) == 1 and people[0][1] == ["x", "y"]


def test_R2011_B1_budget_total_1600():
    vm = vms.budget_vm(t2011_state())
    assert vm.table.rows[0] == ["1", "扑克牌", "20副", "10", "200"]
    assert vm.table.rows[1] == ["2", "中国象棋", "5副", "40", "200"]
    assert vm.table.rows[-1][1] == "合计" and vm.total == "1,600"
    assert "经费来源" not in vm.table.head and vm.by_source is None   # T2011 names no source: no empty column


def test_R2015_B1_budget_names_each_items_source():
    vm = vms.budget_vm(t2015_state())
    assert vm.table.head[-1] == "经费来源" and all(len(r) == 6 for r in vm.table.rows)


def test_R2015_B1_budget_by_source():
    vm = vms.budget_vm(t2015_state())
    assert vm.by_source.rows == [["文体活动费", "1,100"], ["分工会活动费", "300"], ["合计", "1,400"]]


def test_a_table_row_with_more_cells_than_columns_is_an_error_not_a_lost_cell():
    """The table macro pairs each cell with its column (zip): a short row is fine, a long
    one is refused where the view-model is built."""
    from pipeline.render.jinja import environment
    from pipeline.render.viewmodels import Table

    t = Table(head=["桌号", "红方", "黑方"], rows=[["1", "甲", "乙"], ["2", "丙"]], align=["num", "", ""])
    macro = environment().get_template("docs/_macros.html").module.table
    html = str(macro(t))
    assert '<td class="num">2</td><td class="">丙</td></tr>' in html and html.count("<td") == 5
    with pytest.raises(ValueError, match="3 cells for 2 columns"):
        Table(head=["桌号", "对阵"], rows=[["1", "甲", "乙"]])


def test_a_bye_worth_nothing_is_not_said_to_be_in_the_points():
    """积分含轮空 only where a bye scores: Bridge and 斗地主 byes are worth 0 by default."""
    import dataclasses

    state = t2015_state()
    go = state.events["go"]
    assert vms._bye_points(go) == 2
    assert vms._bye_points(dataclasses.replace(go, spec=dataclasses.replace(go.spec, points={"bye": 0}))) == 0
    assert vms._bye_points(dataclasses.replace(go, spec=dataclasses.replace(go.spec, game="bridge"))) == 0


def test_R2016_Q2_the_notice_offers_only_the_pick_up_points_the_form_accepts():
    """The notice said "或填写“自行到达”" whether or not the form's list had it; the form
    refused it where it did not."""
    vm = vms.notice_vm(t2016_state())
    (note,) = [n for n in vm.form_notes if n.startswith("乘车地点")]
    assert note == "乘车地点：请每人填写，从下拉列表中选择（福建路、花园路、镇江、桥头、自行到达）。"


def test_R2020_F2_F3_the_notice_states_the_rules_of_play_and_counts_pairs_as_teams():
    """The client's notice says 落子无悔、一局制 / 三局二胜制, 30 minutes and 3:1 / 2:1 for 双升;
    a pairs knockout draws 参赛队, not 参赛者."""
    from pipeline.spec import EventSpec, FormatSpec

    def ev(game: str, **kw) -> EventSpec:
        return EventSpec(id=game, name=game, game=game, format=FormatSpec(type="knockout"), **kw)
    assert vms._play_rules(ev("xiangqi")) == "落子无悔；每场一局定胜负。"
    assert vms._play_rules(ev("checkers")) == "落子无悔；每场三局两胜。"
    got = vms._play_rules(ev("shuangsheng", team_size=2, game_options={"time_limit_minutes": 30}))
    assert got.startswith("比赛时间限定 30 分钟；到时级数高者胜出，积 3 分，负者积 1 分；双方同级时，庄家一方获胜，积 2 分")
    # R2020-D3: the scoring follows the time limit (it was left out)
    assert vms._play_rules(ev("doudizhu", game_options={"time_limit_minutes": 30})).startswith(
        "比赛时间限定 30 分钟；叫地主玩法初始分为1分，每出一个炸弹或者火箭翻一倍")
    from pipeline.draw import FORMATS
    from pipeline.games import GAMES
    pairs = FORMATS.get("knockout").describe({"final_pool": 3}, game=GAMES.get("shuangsheng"))
    assert "全部参赛队抽签两两对阵" in pairs and "剩余不超过3队" in pairs and "参赛者" not in pairs


def test_a_purpose_that_is_not_a_reason_is_its_own_sentence():
    """t2011: "通过这次活动，让更多干警能展示…，院工会决定举办…" said the union decided "through
    this event"; a purpose beginning 为/根据 still leads into the decision."""
    import dataclasses

    state = t2020_state()
    spec = state.tournament.spec
    state.tournament.spec = dataclasses.replace(spec, purpose="通过这次活动，让更多教职工展示风采", host="校工会")
    intro = vms.notice_vm(state).intro
    assert intro.startswith("校工会决定举办") and "。通过这次活动，让更多教职工展示风采。现将有关事项通知如下：" in intro


def test_notice_time_and_place_not_fixed_yet_is_said_to_follow():
    """A notice made before the sessions or the place are fixed says they follow (the T2015
    document: 具体比赛时间和地点将另行通知) instead of leaving 时间地点 out."""
    import dataclasses

    spec = t2020_state().tournament.spec
    bare = dataclasses.replace(spec, sessions=[], venue="")
    assert vms._time_and_place(bare) == ["具体比赛时间和地点将另行通知。"]
    assert vms._time_and_place(dataclasses.replace(spec, sessions=[], venue="大礼堂")) == [
        "具体比赛时间将另行通知。", "比赛地点：大礼堂"]
    no_place = dataclasses.replace(spec, venue="", sessions=[dataclasses.replace(s, venue="") for s in spec.sessions])
    assert vms._time_and_place(no_place)[-1] == "比赛地点将另行通知。"
    one = dataclasses.replace(bare, events=[dataclasses.replace(spec.events[0], venue="棋牌室")] + list(spec.events[1:]))
    assert vms._time_and_place(one) == ["具体比赛时间将另行通知。", f"比赛地点：{spec.events[0].name}：棋牌室；其余项目的地点将另行通知"]
    state = t2020_state()
    state.tournament.spec = bare
    vm = vms.notice_vm(state)
    assert {s.heading[2:]: s for s in vm.sections}["时间地点"].paragraphs == ["具体比赛时间和地点将另行通知。"]


def test_notice_time_prints_what_the_office_may_announce_while_sessions_schedule_the_rounds():
    """``notice_time`` is printed as the notice's 时间地点 (the T2015 document: 具体比赛时间和地点将
    另行通知; T2011: 时间 2011年5月中旬, 地点 大礼堂), while the spec's sessions still date the
    rounds on the draw sheets: a notice printed invented sessions as the client's own."""
    import dataclasses

    from pathlib import Path

    from pipeline.spec import load_tournament

    state = t2020_state()
    spec = state.tournament.spec
    state.tournament.spec = dataclasses.replace(spec, notice_time=["比赛时间：11月中旬，具体场次另行通知。", "比赛地点：大礼堂。"])
    vm = vms.notice_vm(state)
    assert {s.heading[2:]: s for s in vm.sections}["时间地点"].paragraphs == [
        "比赛时间：11月中旬，具体场次另行通知。", "比赛地点：大礼堂。"]
    assert state.tournament.spec.sessions == spec.sessions
    for tid, said in (("t2015-tcm", "具体比赛时间和地点将另行通知。"), ("t2011-court", "比赛时间：2011年5月中旬，具体场次另行通知。")):
        sample = load_tournament(Path(__file__).resolve().parents[2] / "sample_sheets" / tid).spec
        assert sample.sessions and vms._time_and_place(sample)[0] == said


# -- a pair of two units (R2016-F2 re-formed at check-in, R2015-Q2 cross-unit pairs) -------------
def _reformed_pair_state():
    """t2016_state with a pair re-formed at check-in (R2016-F2) from 甲一 (文学院) and 乙一
    (商学院) that won group D: the pair is one of the event's entries, not a registration."""
    from pipeline.draw.base import Placement
    from pipeline.model import Entry
    from pipeline.score import AWARD_SCHEMES

    state = t2016_state()
    es = state.events["guandan"]
    a, b = state.entries
    pair = Entry("guandan:merged:D1", "guandan", "b1", "甲一/乙一（重组）", (a.players[0], b.players[0]))
    es.entries.append(pair)
    rows, _ = AWARD_SCHEMES.get("group_top").assign(es.spec.awards, [Placement(1, pair.id, group="D")],
                                                    es.entries, event="guandan")
    state.awards = rows
    return state


def test_R2016_F2_a_reformed_pairs_award_names_both_units():
    vm = vms.awards_vm(_reformed_pair_state())
    (table,) = vm.events[0].tables
    assert table.rows == [["D组第一名", "1", "甲一/乙一（重组）", "文学院分工会、商学院分工会", "甲一/乙一"]]
    totals = vm.branch_totals
    assert totals.rows == [["文学院分工会", "1", "1"], ["商学院分工会", "1", "1"], ["总计", "1", "1"]]
    assert "跨分工会组队" in vm.totals_note and "计入其每个分工会" in vm.totals_note


def test_R2016_F2_a_reformed_pairs_certificate_names_both_players_and_their_units():
    """One certificate for the pair, as every pair has: its players joined by 、 (it printed
    甲一/乙一, the pair not being a registration) and each player's unit."""
    (c,) = vms.certificates_vm(_reformed_pair_state()).certificates
    assert c.recipient == "甲一、乙一 同志"
    assert c.branch == "文学院分工会、商学院分工会"


def test_R2015_Q2_a_cross_unit_pairs_award_and_certificate_name_both_units():
    """双扣 pair of 基础医学院 whose 杨蓉 is 临床医学院's (跨分工会): the award's unit, the
    totals (each unit credited, the ¥500 shared) and the certificate name both."""
    import dataclasses

    state = t2015_state()
    sk = state.events["shuangkou"].entries[0]
    cross = dataclasses.replace(sk, players=(sk.players[0], dataclasses.replace(sk.players[1], branch="t02")))
    state.events["shuangkou"].entries[0] = cross
    state.entries = [cross if e.id == cross.id else e for e in state.entries]
    state.awards[2] = dataclasses.replace(state.awards[2], units=("t01", "t02"))
    vm = vms.awards_vm(state)
    sk_table = vm.events[1].tables[0]
    assert sk_table.rows[0][3] == "基础医学院分工会、临床医学院分工会"
    totals = {r[0]: r for r in vm.branch_totals.rows}
    assert totals["基础医学院分工会"][-1] == "250" and totals["临床医学院分工会"][-1] == "250"
    assert totals["总计"][-1] == "500"
    cert = next(c for c in vms.certificates_vm(state).certificates if c.event == "双扣")
    assert (cert.recipient, cert.branch) == ("刘建川、杨蓉 同志", "基础医学院分工会、临床医学院分工会")


def test_awards_of_one_unit_each_say_nothing_of_cross_unit_pairs():
    assert vms.awards_vm(t2020_state()).totals_note == ""


def _guandan_bye_state(points: dict | None = None):
    """t2016_state with round 1 of 掼蛋 groups: 文学院1队 v 商学院1队 in group C and 文学院2队
    resting (a bye, R2016-F3: group C drew an odd count), and group C's standings."""
    import dataclasses

    from pipeline.model import Entry, Match, MatchResult, Outcome, Round, SideResult
    from pipeline.score.base import StandingRow
    from pipeline.state import StandingTable

    state = t2016_state()
    es = state.events["guandan"]
    if points is not None:
        es.spec = dataclasses.replace(es.spec, points=points)
    third = Entry("guandan-b1-2", "guandan", "b1", "文学院2队", (state.entries[0].players[1],))
    es.entries.append(third)
    a, b = es.entries[0].id, es.entries[1].id
    played = Match("guandan", "g", 1, "C", 1, (a, b))
    es.rounds.append(Round("guandan", "g", "分组赛第1轮", 1, (
        played, Match("guandan", "g", 1, "C", 2, (third.id,), bye=True))))
    # (the table's result is in: the bye scores once its group's round is played, R2016-S1)
    es.results = {played.key: MatchResult(played, (SideResult(Outcome.WIN, 60, 60), SideResult(Outcome.LOSS, 40, 40)))}
    bye_points = (points or {}).get("bye", 52)
    es.standings = [StandingTable("guandan", "g", "分组赛", "C", (
        StandingRow(a, 1, 60, played=1, wins=1, tiebreaks={"game_points": 60}),
        StandingRow(third.id, 2, bye_points, played=1, wins=1, tiebreaks={"game_points": bye_points}),
        StandingRow(b, 3, 40, played=1, losses=1, tiebreaks={"game_points": 40})), ("game_points", "direct"))]
    return state


def test_R2016_S1_a_bye_says_how_many_points_it_counts():
    """A 掼蛋 bye scores the winner's score at equal level (52, the event's bye points): the
    draw sheet and the standings said only 轮空（本轮不赛） and 积分含轮空 1 轮."""
    state = _guandan_bye_state()
    es = state.events["guandan"]
    assert vms.draw_vm(state, "guandan", es.rounds[0]).bye_title == "轮空（本轮不赛；轮空按52分计）"
    table = vms.standing_table(state, es, es.standings[0])
    assert table.rows[1][-1] == "含轮空 1 轮" and table.caption.endswith("（积分含轮空，轮空按52分计）")


def test_R2016_S1_the_bye_points_said_are_the_configured_ones():
    """``points: {bye: 50}`` in tournament.yaml: the sheets say 50, not the game's 52."""
    state = _guandan_bye_state({"bye": 50})
    es = state.events["guandan"]
    assert vms.draw_vm(state, "guandan", es.rounds[0]).bye_title == "轮空（本轮不赛；轮空按50分计）"
    table = vms.standing_table(state, es, es.standings[0])
    assert table.rows[1][-1] == "含轮空 1 轮" and "轮空按50分计" in table.caption


def test_a_bye_that_scores_nothing_says_no_points():
    """A bye worth 0 (``points: {bye: 0}``), a round robin's rest and a knockout's bye
    (晋级签) name no points."""
    state = _guandan_bye_state({"bye": 0})
    es = state.events["guandan"]
    assert vms.draw_vm(state, "guandan", es.rounds[0]).bye_title == "轮空（本轮不赛）"
    ko = t2020_state()
    assert vms.draw_vm(ko, "xiangqi", ko.events["xiangqi"].rounds[1]).bye_title == "轮空（直接晋级）"


def test_T2015_notice_period_and_rules_attachment():
    """T2015's notice: "校工会定于2015年9月至12月期间举办……" (tournament.yaml period) and its
    附件：1.报名表 2．《双扣比赛规则》, the rules printed after the form (notice_attachments);
    without them the notice reads as before: "决定举办", one attachment."""
    import dataclasses

    from pipeline.render.docs import plan_documents, render_html
    from pipeline.spec import NoticeAttachment

    state = t2015_state()
    plain = vms.notice_vm(state)
    assert "决定举办" in plain.intro and plain.attachment_list == [plain.attachment_title]
    assert plain.more_attachments == []
    assert any("报名表（见附件）" in p for s in plain.sections for p in s.paragraphs)
    rules = NoticeAttachment(title="双扣比赛规则", text="总则\n\n1、以两人为一队。\n  2、每人摸25张牌。  \n")
    state.tournament.spec = dataclasses.replace(state.tournament.spec, period="2015年9月至12月期间",
                                                notice_attachments=[rules])
    vm = vms.notice_vm(state)
    assert "，校工会、校工会文体专委会定于2015年9月至12月期间举办2015年" in vm.intro and "决定举办" not in vm.intro
    assert vm.attachment_list == [f"1．{vm.attachment_title}", "2．《双扣比赛规则》"]
    assert vm.more_attachments == [("双扣比赛规则", ["总则", "1、以两人为一队。", "2、每人摸25张牌。"])]
    assert any("报名表（见附件1）" in p for s in vm.sections for p in s.paragraphs)   # not 见附件: two of them
    (notice,) = [d for d in plan_documents(state) if d.stem == "notice"]
    html = render_html(notice)
    assert "附件1：" in html and "附件2：" in html and "每人摸25張牌" in html   # t2015 prints Traditional
    assert html.index("附件2：") > html.index("填表說明")                      # after the registration form


def test_a_rules_attachments_numbered_headings_keep_with_their_text():
    """A numbered heading line of a rules attachment (9、轮庄, （二）比赛规则：) ended a page of
    the notice's PDF with its text on the next: it is marked, and print.css keeps it with
    the line after it; a numbered sentence (1、以两人为一队。) is text."""
    import dataclasses

    from pipeline.render.docs import plan_documents, render_html
    from pipeline.spec import NoticeAttachment

    state = t2015_state()
    rules = NoticeAttachment(title="双升比赛规则", text="（二）比赛规则：\n9、轮庄\n每局游戏结束后，若主打方升级。\n1、以两人为一队。\n")
    state.tournament.spec = dataclasses.replace(state.tournament.spec, notice_attachments=[rules])
    (notice,) = [d for d in plan_documents(state) if d.stem == "notice"]
    html = render_html(notice)
    assert '<p class="indent lead">9、輪莊</p>' in html and '<p class="indent lead">（二）比賽規則：</p>' in html, html
    assert '<p class="indent">1、以兩人為一隊。</p>' in html and '<p class="indent">每局' in html
    assert ".notice p.lead { break-after: avoid;" in html


def test_T2015_and_T2020_samples_carry_their_documents_attachments():
    """The sample leagues' tournament.yaml hold the client documents' rules attachments and
    T2015's period (seeds 002 and 000)."""
    from pathlib import Path

    from pipeline.spec import load_tournament

    root = Path(__file__).resolve().parents[2] / "sample_sheets"
    t2015 = load_tournament(root / "t2015-tcm").spec
    assert t2015.period == "9月至12月期间"
    assert [a.title for a in t2015.notice_attachments] == ["双扣比赛规则"]
    assert "越序出牌" in t2015.notice_attachments[0].text and "?" not in t2015.notice_attachments[0].text
    t2020 = load_tournament(root / "t2020-league").spec
    assert [a.title for a in t2020.notice_attachments] == ["第四届教职工棋牌联赛项目及规则"]
    assert t2020.notice_attachments[0].text.startswith("一、《象棋》")
    t2011 = load_tournament(root / "t2011-court").spec          # seed 003's 四、比赛规则
    assert [a.title for a in t2011.notice_attachments] == ["比赛规则"]
    rules = t2011.notice_attachments[0].text
    assert "一、中国象棋" in rules and "二、斗地主" in rules and "7、胜负判定：任意一家出完牌" in rules
    # the seed's run-in page numbers are gone: 直至分/3、出胜负, 双方/4、都不许反悔, 可/8、以打
    assert "直至分出胜负" in rules and "双方都不许反悔" in rules and "可以打任意其他的牌" in rules


def test_T2016_one_session_is_one_line_and_the_tournament_venue_is_said_once():
    """T2016's notice printed 比赛时间：/（1）2016年11月26日……，地点：仙林校区教工食堂 and then 比赛地点：
    仙林校区教工食堂 again: one session is on one line, unnumbered, and a session's place is
    said only when it is not the tournament's."""
    import dataclasses

    from pipeline.spec import SessionSpec

    spec = t2020_state().tournament.spec
    one = SessionSpec(date=dt.date(2016, 11, 26), start=dt.time(8, 40), end=dt.time(12, 0), venue="教工食堂")
    lines = vms._time_and_place(dataclasses.replace(spec, sessions=[one], venue="教工食堂"))
    assert lines[0] == "比赛时间：2016年11月26日（周六）08:40—12:00" and lines[-1] == "比赛地点：教工食堂"
    assert sum("教工食堂" in x for x in lines) == 1
    other = dataclasses.replace(one, venue="棋牌室")
    lines = vms._time_and_place(dataclasses.replace(spec, sessions=[one, other], venue="教工食堂"))
    assert lines[1:3] == ["（1）2016年11月26日（周六）08:40—12:00", "（2）2016年11月26日（周六）08:40—12:00，地点：棋牌室"]


def test_award_note_is_the_spec_s_and_group_awards_read_each_group_s_first_and_second():
    """奖项设置's last line is tournament.yaml's award_note (default 获奖者颁发证书和奖品。; "" prints
    none: T2011 gives cash, T2016 and T2020 promised neither certificates nor prizes), and
    group_top awards read 每组第一名、第二名 (it was 每组小组第一名、小组第二名)."""
    import dataclasses
    from pathlib import Path

    from pipeline.spec import load_tournament

    state = t2016_state()
    (sec,) = [s for s in vms.notice_vm(state).sections if "奖项设置" in s.heading]
    assert sec.paragraphs[-1] == "获奖者颁发证书和奖品。"
    state.tournament.spec = dataclasses.replace(state.tournament.spec, award_note="")
    (sec,) = [s for s in vms.notice_vm(state).sections if "奖项设置" in s.heading]
    assert "获奖者颁发证书和奖品。" not in sec.paragraphs and sec.paragraphs
    t2016 = load_tournament(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2016-poker").spec
    (ev,) = [e for e in t2016.events if e.awards.scheme == "group_top"]
    assert vms._award_text(ev) == "每组第一名、第二名"
    assert t2016.award_note == ""


def test_bridge_format_paragraph_does_not_repeat_the_event_name():
    """（三）橋牌：橋牌採用雙人賽 said the event twice: the pairs format's paragraph starts 采用双人赛."""
    from pipeline.draw import FORMATS

    assert FORMATS.get("pairs_movement").describe({"boards_per_round": 3}).startswith("采用双人赛：")


def test_events_sharing_a_deadline_are_said_on_one_line():
    """T2015: 围棋、中国象棋、桥牌 close on 10月30日 and 双扣 on 11月14日 — two lines, not four; T2020's
    four events closing together are said once."""
    import dataclasses

    state = t2015_state()
    spec = state.tournament.spec
    evs = [spec.events[0], dataclasses.replace(spec.events[0], id="xiangqi2", name="中国象棋"), *spec.events[1:]]
    early, late = dt.datetime(2015, 10, 30, 23, 59), dt.datetime(2015, 11, 14, 23, 59)
    state.tournament.spec = dataclasses.replace(spec, events=[
        dataclasses.replace(e, deadline=late if i == len(evs) - 1 else early) for i, e in enumerate(evs)])
    state.events = {}                   # not drawn yet: the spec's deadlines
    (sec,) = [s for s in vms.notice_vm(state).sections if "报名办法" in s.heading]
    first = "、".join(e.name for e in evs[:-1])
    assert len(evs) > 2 and sec.paragraphs[:2] == [f"1、{first}：报名截止时间为2015年10月30日23:59。",
                                                   f"2、{evs[-1].name}：报名截止时间为2015年11月14日23:59。"]


def test_printed_form_notes_say_which_columns_stay_blank():
    """The printed registration form has every contract column; its notes say 队号 and 乘车地点
    stay blank in a league with no pair events or no buses (T2011), and how to fill them where
    they apply (T2016: pairs and buses)."""
    t2011 = vms.notice_vm(t2011_state()).form_notes
    assert "队号：本次比赛均为个人项目，不填。" in t2011 and "乘车地点：本次比赛不安排班车，不填。" in t2011
    t2016 = vms.notice_vm(t2016_state()).form_notes
    assert any(n.startswith("队号：双人或团体项目") for n in t2016)
    assert any(n.startswith("乘车地点：请每人填写，从下拉列表中选择") for n in t2016)


@pytest.mark.parametrize("build", [t2011_state, t2015_state, t2016_state, t2020_state])
def test_notice_sets_no_spaces_around_numbers_in_chinese(build):
    """共 5 轮, 限定 30 分钟, 分为 4 个小组: the spaces that set numbers apart in the messages for
    captains are not a printed notice's typography (the client's notices: 比赛共分3局，每局限时50分钟)."""
    import re

    vm = vms.notice_vm(build())
    text = [vm.intro] + [p for s in vm.sections for p in s.paragraphs]
    assert not [p for p in text if re.search(r"[\u4e00-\u9fff，：；] \d|\d [\u4e00-\u9fff]", p)]
    assert vms.cjk_spacing("共 5 轮，积 3 分；第 12 行") == "共5轮，积3分；第12行"


def test_R2016_F2_table_cards_of_a_groups_round_name_the_group_in_the_table_number():
    """A groups round numbers its tables from 1 in each group: four cards said 第 1 桌 in
    60 pt, the group only in the small line above."""
    from tests.render_docs.states import t2016_full_round_state

    state = t2016_full_round_state()
    cards = vms.cards_vm(state, "guandan", state.events["guandan"].rounds[0]).cards
    labels = [c.table_label for c in cards]
    assert labels[:5] == ["A组 第 1 桌", "A组 第 2 桌", "A组 第 3 桌", "A组 第 4 桌", "B组 第 1 桌"]
    assert len(set(labels)) == len(labels) == 16


def test_R2016_F2_a_reformed_pair_is_named_once_on_the_draw_sheet_and_its_card():
    """A pair re-formed at check-in is labelled by its players (甲一/乙一（重组）): the
    sheet and the card printed them twice, as the team and again as its players."""
    state = _reformed_pair_state()
    es = state.events["guandan"]
    pair = es.entries[-1]
    other = es.entries[0]
    from pipeline.model import Match, Round

    rnd = Round("guandan", "g", "分组赛第1轮", 1, (Match("guandan", "g", 1, "A", 1, (pair.id, other.id)),),
                seed="s", input_hash="ab" * 32)
    es.rounds.append(rnd)
    (card,) = vms.cards_vm(state, "guandan", rnd).cards
    assert card.sides[0][1] == "甲一/乙一（重组）"
    assert card.sides[1][1] == "文学院1队\n甲一/甲二"      # a team of its own: its players below
    row = vms.draw_vm(state, "guandan", rnd).table.rows[0]
    assert "甲一/乙一（重组）" in row and not any("（重组）\n" in str(c) for c in row)


def test_a_plain_knockout_is_no_final_stage_in_the_notice():
    """A single-stage 淘汰赛 event: the notice said "象棋：决赛采用淘汰赛：…", words for the
    knockout after groups (R2011-F2), not for an event that is a knockout from its first round
    (R2020-F1: the pipeline runs the finals, and every league made by `league new` is its own)."""
    vm = vms.notice_vm(t2020_state())
    (section,) = [s for s in vm.sections if s.heading.endswith("、比赛办法")]
    lines = [p for p in section.paragraphs if "淘汰赛" in p]
    assert lines and all("决赛采用" not in p for p in lines), lines
    assert any(p.startswith("（一）象棋：采用淘汰赛：全部参赛者抽签两两对阵") for p in lines), lines


def test_group_awards_given_by_hand_to_a_knockout_say_no_each_group():
    """各组前N名 given to a knockout in a hand-edited tournament.yaml (league new refuses it):
    the event is one group, its awards go by the event's places, and the notice said
    每组第一名、第二名."""
    import dataclasses
    from pathlib import Path

    from pipeline.spec import load_tournament

    root = Path(__file__).resolve().parents[2] / "sample_sheets"
    (grouped,) = [e for e in load_tournament(root / "t2016-poker").spec.events if e.awards.scheme == "group_top"]
    knockout = next(e for e in load_tournament(root / "t2020-league").spec.events if e.format.type == "knockout")
    ev = dataclasses.replace(knockout, awards=grouped.awards)
    assert vms._award_text(ev) == "第一名、第二名"
    assert vms._award_text(grouped) == "每组第一名、第二名"
    # the scheme by its Chinese name (an alias tournament.yaml accepts) is the same scheme
    alias = dataclasses.replace(grouped, awards=dataclasses.replace(grouped.awards, scheme="各组前N名"))
    assert vms._award_text(alias) == "每组第一名、第二名"


def test_a_withdrawn_entrys_table_on_the_draw_sheet_says_to_enter_a_forfeit():
    """Handbook 缺席、弃权和退赛: a withdrawn entry's games still on the draw (a round robin's,
    or one published before it withdrew) are entered by the referee as 弃权 — the draw sheet
    says so at the table (a blank table held the round); once its table has a result, a round
    drawn before the withdrawal is printed as it was played."""
    import dataclasses

    from pipeline.model import MatchResult, Outcome, SideResult

    state = t2015_state()
    es = state.events["go"]
    es.withdrawn = frozenset({"go-t02-1"})
    vm = vms.draw_vm(state, "go", es.rounds[0])
    row = vm.table.rows[0]
    assert row[3] == "陈晓岚（已退赛）"
    assert "“乙方弃权”" in row[-1]
    assert any("陈晓岚" in n and "已退赛" in n and "“乙方弃权”" in n for n in vm.notes), vm.notes
    # both sides withdrawn: 双方弃权
    es.withdrawn = frozenset({"go-t01-1", "go-t02-1"})
    vm = vms.draw_vm(state, "go", es.rounds[0])
    assert vm.table.rows[0][1].startswith("周明远（已退赛）") and "“双方弃权”" in vm.table.rows[0][-1]
    # played before the withdrawal: the sheet is as it was
    m = es.rounds[0].matches[0]
    es.withdrawn = frozenset({"go-t02-1"})
    es.results = {m.key: MatchResult(m, (SideResult(Outcome.WIN, 2, 2), SideResult(Outcome.LOSS, 0, 0)))}
    vm = vms.draw_vm(state, "go", es.rounds[0])
    assert "已退赛" not in str(vm.table.rows) + str(vm.notes)
    # … but a round drawn while it was withdrawn says it still, its forfeit entered
    drawn_after = dataclasses.replace(es.rounds[0], plan={"withdrawn_at_draw": ["go-t02-1"]})
    assert vms.draw_vm(state, "go", drawn_after).table.rows[0][3] == "陈晓岚（已退赛）"


def _tied_by_playoff(state, event: str):
    """``state`` with one standings table of ``event``'s first two entries level on every
    printed column and ranked 1, 2 by a playoff (加赛)."""
    from pipeline.score.base import StandingRow
    from pipeline.state import StandingTable

    es = state.events[event]
    a, b = es.entries[0].id, es.entries[1].id
    tb = {"game_points": 208, "direct": 0}
    es.standings = [StandingTable(event, "g", "分组赛", "B", (
        StandingRow(a, 1, 208, played=3, wins=3, tiebreaks={**tb, "playoff": 1}),
        StandingRow(b, 2, 208, played=3, wins=2, losses=1, tiebreaks={**tb, "playoff": 0})),
        ("game_points", "direct", "playoff"))]
    return es


def test_R2011_F1_a_playoff_between_pairs_counts_pairs_not_people():
    """The 备注 of rows ranked apart by a playoff counts the tied entries as what they are: two
    掼蛋 pairs (R2016-Q2) played 2对加赛 (it said 2人加赛第1 of 后勤5队 and 经济3队), an
    individual event's players 2人加赛, teams 2队加赛."""
    import dataclasses

    state = t2016_state()
    es = _tied_by_playoff(state, "guandan")
    table = vms.standing_table(state, es, es.standings[0])
    assert [r[-1] for r in table.rows] == ["2对加赛第1", "2对加赛第2"]
    es.spec = dataclasses.replace(es.spec, team_size=4)
    es.entries[:] = [dataclasses.replace(e, players=e.players * 2) for e in es.entries]
    assert [r[-1] for r in vms.standing_table(state, es, es.standings[0]).rows] == ["2队加赛第1", "2队加赛第2"]
    es.spec = dataclasses.replace(es.spec, team_size=1)
    es.entries[:] = [dataclasses.replace(e, players=e.players[:1]) for e in es.entries]
    assert [r[-1] for r in vms.standing_table(state, es, es.standings[0]).rows] == ["2人加赛第1", "2人加赛第2"]


def test_R2020_Q4_an_event_without_a_deadline_is_said_to_close_as_announced_later():
    """An event without ``deadline`` (open until the office sets one: DEADLINE_MISSING) is in the
    notice's 报名办法 with 报名截止时间另行通知 — it was left out, the others' deadline printed."""
    import dataclasses

    state = t2020_state()
    spec = state.tournament.spec
    state.tournament.spec = dataclasses.replace(spec, events=[dataclasses.replace(spec.events[0], deadline=None),
                                                              *spec.events[1:]])
    state.events = {}                   # not drawn yet: the spec's deadlines
    (sec,) = [s for s in vms.notice_vm(state).sections if "报名办法" in s.heading]
    assert sec.paragraphs[:2] == ["1、双升：报名截止时间为2020年11月9日15:00。", "2、象棋：报名截止时间另行通知。"]
    state.tournament.spec = dataclasses.replace(spec, events=[dataclasses.replace(e, deadline=None) for e in spec.events])
    (sec,) = [s for s in vms.notice_vm(state).sections if "报名办法" in s.heading]
    assert sec.paragraphs[0] == "各项目报名截止时间另行通知。"


def test_the_notice_prints_the_contact_beside_the_address_the_forms_go_to():
    """联系人及电话 (``contact``, which ``league new`` says is printed on the notice) was left out
    whenever 收件邮箱 (``submit_to``) was set too: both are printed."""
    import dataclasses

    state = t2020_state()
    spec = state.tournament.spec

    def reg(**kw) -> str:
        state.tournament.spec = dataclasses.replace(spec, **kw)
        (sec,) = [s for s in vms.notice_vm(state).sections if "报名办法" in s.heading]
        return sec.paragraphs[-1]
    both = reg(submit_to="gonghui@example.edu.cn", contact="王老师 13800000000")
    assert both == "报名表（见附件）由各分工会统一填写后发送至gonghui@example.edu.cn，逾期不予受理。联系人：王老师，电话13800000000。"
    assert reg(submit_to="", contact="王老师 13800000000").endswith("发送至王老师，电话13800000000，逾期不予受理。")
    assert reg(submit_to="gonghui@example.edu.cn", contact="").endswith("发送至gonghui@example.edu.cn，逾期不予受理。")


@pytest.mark.parametrize("fmt,said", [("groups_standings", True), ("swiss", True), ("round_robin", False),
                                      ("knockout", False), ("groups_knockout", False)])
def test_R2016_F3_the_notice_gives_a_bye_points_only_where_the_format_scores_it(fmt, said):
    """R2016-F3: a 掼蛋 bye scores 52 where the format counts it (分组积分编排, Swiss); a round
    robin's rest and a knockout's 晋级签 score nothing (handbook), but every 掼蛋 notice said
    队数为奇数时，轮空的一队本轮计52分 (Guandan.notice_rules regardless of the format)."""
    from pipeline.spec import EventSpec, FormatSpec

    ev = EventSpec(id="gd", name="掼蛋", game="guandan", team_size=2, format=FormatSpec(type=fmt))
    rules = vms._play_rules(ev)
    assert rules.startswith("过A不再打")
    assert ("轮空的一队本轮计52分（同级胜方的得分）" in rules) == said, rules
    assert "轮空" in rules or not said


@pytest.mark.parametrize("game", ["shuangsheng", "shuangkou", "xiangqi", "go", "checkers", "doudizhu", "bridge"])
@pytest.mark.parametrize("fmt", ["round_robin", "knockout"])
def test_no_game_gives_a_bye_points_in_a_format_that_scores_none(game, fmt):
    """The same for every game: a round robin's rest, a knockout's 晋级签 are given no points."""
    from pipeline.spec import EventSpec, FormatSpec

    ev = EventSpec(id=game, name=game, game=game, format=FormatSpec(type=fmt))
    assert "轮空" not in vms._play_rules(ev)


def test_a_shared_place_reads_as_one_on_the_award_list_as_in_the_standings():
    """斗地主's places 11 and 15 are shared: the standings say 11（并列）, the award list printed a
    bare 11 twice.  A place two award rows of an event (and group) share says 并列."""
    import dataclasses

    state = t2020_state()
    third = state.awards[3]
    state.awards.append(dataclasses.replace(third, team="张良", players="张良", entry="xiangqi-u3-1", branch="u3"))
    xq = vms.awards_vm(state).events[0].tables[0]
    assert [r[1] for r in xq.rows] == ["1", "2", "3", "4（并列）", "4（并列）"]


def test_R2016_A1_the_award_list_names_a_groups_award_as_its_certificate_does():
    """R2016-A1: the award list printed “小组第一名” under “A组” while the certificate, the event
    page and the branch page say “A组第一名”: the list says the certificate's name.  The
    获奖统计 keeps one column per award across the groups (小组第一名)."""
    from pipeline.state import AwardRow

    state = t2016_state()
    state.awards = [AwardRow("guandan", g, award, rank, f"{g}{rank}队", "b1", f"{g}{rank}甲/{g}{rank}乙")
                    for g in "AB" for rank, award in ((1, "小组第一名"), (2, "小组第二名"))]
    vm = vms.awards_vm(state)
    [ev] = vm.events
    assert [[r[0] for r in t.rows] for t in ev.tables] == [["A组第一名", "A组第二名"], ["B组第一名", "B组第二名"]]
    certs = [c.award for c in vms.certificates_vm(state).certificates]
    assert certs == [r[0] for t in ev.tables for r in t.rows]
    assert vm.branch_totals.head[1:3] == ["小组第一名", "小组第二名"]


def test_R2020_F4_two_a_playoff_left_level_within_one_prize_are_said_alike():
    """A 加赛 of three that placed its winner and left the other two level (R2020-F4: one prize,
    they share 2nd): both say 3人加赛并列第2 — the one not beside the winner said nothing, as
    if it had not played the 加赛."""
    from pipeline.score.base import StandingRow
    from pipeline.state import StandingTable

    state = t2020_state()
    es = state.events["xiangqi"]
    a, b, c = (e.id for e in es.entries[:3])
    tb = {"game_points": 208, "direct": 0}
    es.standings = [StandingTable("xiangqi", "final", "决赛循环赛", "", (
        StandingRow(a, 1, 208, played=3, wins=2, tiebreaks={**tb, "playoff": 2}),
        StandingRow(b, 2, 208, played=3, wins=2, tiebreaks={**tb, "playoff": 1}),
        StandingRow(c, 2, 208, played=3, wins=2, tiebreaks={**tb, "playoff": 1})),
        ("game_points", "direct", "playoff"))]
    table = vms.standing_table(state, es, es.standings[0])
    assert [r[-1] for r in table.rows] == ["3人加赛第1", "3人加赛并列第2", "3人加赛并列第2"]


@pytest.mark.parametrize("waiting", [
    "A组第2名甲、乙积分及破同分均相同，出线名额须加赛一局决定：请录入加赛结果后再抽淘汰赛。", "等待第2轮成绩", ""])
def test_an_event_without_awards_yet_says_why_with_one_full_stop(waiting):
    """获奖名单待定：…请录入加赛结果后再抽淘汰赛。。 — the award list added a full stop to the
    draw's message (groups_knockout's PlayoffWaiting), which has its own."""
    state = t2020_state()
    es = state.events["shuangsheng"]
    es.complete, es.waiting = False, waiting
    state.awards = [a for a in state.awards if a.event != "shuangsheng"]
    vm = vms.awards_vm(state)
    (line,) = [e.status for e in vm.events if e.name == "双升"]
    assert line == f"获奖名单待定：{(waiting or '比赛尚未结束').removesuffix('。')}。", line
    assert "。。" not in line


def _go_under_way(complete: bool = False):
    """The t2015-like state's 围棋 (Swiss) with its round 1 played: under way, or ended."""
    import dataclasses

    from pipeline.model import MatchResult, Outcome, SideResult

    state = t2015_state()
    go = state.events["go"]
    m = go.rounds[0].matches[0]
    state.events["go"] = dataclasses.replace(go, complete=complete, results={
        m.key: MatchResult(m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0)))})
    return state


def test_R2015_F1_an_unfinished_swiss_table_is_the_current_order():
    """Audit 41: mid-season, a Swiss (or pairs) event's own table covers every place, so no
    separate order table is made — and the standings document printed it headed only 瑞士制,
    with no 当前名次（比赛进行中，非最终名次） and no line saying up to which round (handbook 五).
    An ended event's table says neither."""
    ev = vms.standings_vm(_go_under_way()).events[0]
    assert [t.caption for t in ev.tables] == ["瑞士制 当前名次（比赛进行中，非最终名次）"]
    assert ev.notes == ["比赛尚未结束，此表为截至第1轮（瑞士制）的当前名次，不是最终名次。"]
    done = vms.standings_vm(_go_under_way(complete=True)).events[0]
    assert [t.caption for t in done.tables] == ["瑞士制"] and done.notes == []


def test_R2016_F1_every_group_table_of_an_unfinished_groups_event_is_a_current_order():
    """Groups ranked within themselves (掼蛋 分组积分赛: each group's table is its places):
    every group's table is captioned 当前名次 while the event is played, with the round line."""
    import dataclasses

    from pipeline.state import StandingRow, StandingTable

    from .states import t2016_full_round_state

    state = t2016_full_round_state()
    es = state.events["guandan"]
    ids = [e.id for e in es.entries]
    tables = [StandingTable("guandan", "g", "分组赛", g, tuple(
        StandingRow(ids[8 * k + i], i + 1, 8 - i, played=1) for i in range(8)), ()) for k, g in enumerate("ABCD")]
    state.events["guandan"] = dataclasses.replace(es, standings=tables, complete=False)
    ev = vms.standings_vm(state).events[0]
    assert [t.caption for t in ev.tables] == [f"分组赛 {g}组 当前名次（比赛进行中，非最终名次）" for g in "ABCD"]
    assert ev.notes == ["比赛尚未结束，此表为目前的当前名次，不是最终名次。"]
