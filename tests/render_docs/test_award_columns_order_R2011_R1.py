"""The 获奖统计 columns of the award list (and the site's, and its weights note) come in the
order the awards are configured — 第一名, 第二名, 第三名, then the rest (决赛参与奖), then the
organisers' and the units' awards — whatever is vacant (R2011-R1) or missing from the
first event: a vacant 第二名 in the 象棋 final put it after 第三名 (第一名 | 第三名 | 第二名),
and the front page's note read “第一名 7 分、第三名 3 分、第二名 5 分” (an audit)."""
from __future__ import annotations

import dataclasses

from pipeline.model import VACANT
from pipeline.render import site_vm
from pipeline.render import viewmodels as vms
from pipeline.state import AwardRow

from .states import _tournament, t2011_state, t2020_spec_raw, t2020_state


def _vacant(event: str, award: str, rank: int) -> AwardRow:
    return AwardRow(event, "", award, rank, VACANT, "", "", 0, vacant=True)


def _t2011_vacant_second() -> object:
    state = t2011_state()
    state.awards = [AwardRow("xiangqi", "", "第一名", 1, "姚明", "d01", "姚明", 300, "xiangqi-d01-1"),
                    _vacant("xiangqi", "第二名", 2),
                    AwardRow("xiangqi", "", "第三名", 3, "李四", "d01", "李四", 100, "xiangqi-d01-3"),
                    AwardRow("doudizhu", "", "第一名", 1, "王五", "d01", "王五", 300, "doudizhu-d01-1"),
                    AwardRow("doudizhu", "", "第二名", 2, "赵六", "d01", "赵六", 200, "doudizhu-d01-2"),
                    AwardRow("doudizhu", "", "第三名", 3, "钱七", "d01", "钱七", 100, "doudizhu-d01-3")]
    return state


def test_R2011_R1_a_vacant_place_keeps_the_award_list_totals_in_place_order():
    vm = vms.awards_vm(_t2011_vacant_second())
    assert vm.branch_totals.head == ["部门", "第一名", "第二名", "第三名", "合计", "奖金（元）"]
    assert vm.branch_totals.rows[-1] == ["总计", "2", "1", "2", "5", "1,000"]


def test_R2011_R1_a_vacant_place_keeps_the_front_pages_columns_and_note_in_place_order():
    vm = site_vm.index_vm(_t2011_vacant_second())
    assert vm.award_columns == ("第一名", "第二名", "第三名")
    assert [r.counts for r in vm.totals] == [("2", "1", "2")]
    assert "名次按获奖计分：第一名 7 分、第二名 5 分、第三名 3 分" in vm.totals_note


def test_an_award_missing_from_the_first_event_takes_its_configured_place():
    """象棋 gives no 二等奖 (both vacant) and is first; 双升's 二等奖 comes after 象棋's 三等奖 and
    决赛参与奖: the columns still read 一等奖 二等奖 三等奖 决赛参与奖, then 组织奖 — on the
    award list and on the front page alike."""
    raw = t2020_spec_raw()
    for ev in raw["events"]:
        ev["awards"] = {**ev["awards"], "rest": "决赛参与奖"}
    state = t2020_state()
    state.tournament = _tournament(raw)
    xq = state.awards[:4]
    state.awards = [xq[0], _vacant("xiangqi", "二等奖", 2), _vacant("xiangqi", "二等奖", 3), xq[3],
                    dataclasses.replace(xq[1], award="决赛参与奖", rank=5, prize=0),
                    state.awards[4],
                    AwardRow("shuangsheng", "", "二等奖", 2, "行政二1队", "u2", "梁卫军/钱坤", 200,
                             "shuangsheng-u2-1")]
    expected = ["一等奖", "二等奖", "三等奖", "决赛参与奖", "组织奖"]
    assert vms.awards_vm(state).branch_totals.head[1:-2] == expected
    vm = site_vm.index_vm(state)
    assert list(vm.award_columns) == expected
    assert "一等奖 7 分、二等奖 5 分、三等奖 3 分" in vm.totals_note
