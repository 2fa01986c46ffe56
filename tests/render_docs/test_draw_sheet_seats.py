"""Draw sheets, table cards and the event page say what the format drew: a bridge table's
南北/东西 and the round's boards (R2015-F1), the final and the third-place match of a
groups→knockout final round (R2011-F2), and each stage's kind as its format names it."""
from __future__ import annotations

import datetime as dt
import random

import pytest

from pipeline.draw import FORMATS
from pipeline.draw.base import EventState as DrawState
from pipeline.model import Entry, Person, Round
from pipeline.render import site_vm
from pipeline.render import viewmodels as vms
from pipeline.state import EventState, LeagueState

from .states import _tournament, t2015_spec_raw


def _person(name: str, branch: str) -> Person:
    return Person(name=name, branch=branch, display_name=name)


def _league(event: dict, entries: list[Entry], rounds: list[Round], title: str) -> LeagueState:
    raw = t2015_spec_raw()
    raw["events"] = [event]
    t = _tournament(raw)
    es = EventState(t.spec.events[0], title, entries, rounds,
                    session_of_round={r.round: "2015年11月7日 09:00—12:00" for r in rounds})
    return LeagueState(t, now=dt.datetime(2015, 12, 6), updated=dt.datetime(2015, 12, 5, 17, 0), submissions=[],
                       entries=entries, issues=[], events={event["id"]: es}, awards=[])


def _draw(fmt: str, entries: list[Entry], options: dict, rounds: int) -> list[Round]:
    """The first ``rounds`` rounds the format draws (results not needed for a round robin)."""
    st = DrawState(entries[0].event, list(entries), options=options)
    out = []
    for _ in range(rounds):
        r = FORMATS.get(fmt).next_round(st, random.Random(1))
        st.rounds.append(r)
        out.append(r)
    return out


def _bridge_league() -> tuple[LeagueState, list[Round]]:
    units = ("t01", "t02", "t08")
    entries = [Entry(f"bridge-{units[i % 3]}-{i}", "bridge", units[i % 3], f"桥队{i}",
                     (_person(f"甲{i}", units[i % 3]), _person(f"乙{i}", units[i % 3])), team_no=str(i))
               for i in range(7)]
    rounds = _draw("pairs_movement", entries, {"boards_per_round": 3}, 2)
    event = {"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2,
             "format": {"type": "pairs_movement", "boards_per_round": 3},
             "awards": {"scheme": "ranked", "places": [{"award": "第一名", "count": 1}]}}
    return _league(event, entries, rounds, "桥牌双人赛"), rounds


def test_R2015_F1_bridge_draw_sheet_seats_each_pair_and_names_the_rounds_boards():
    """The notice promises 每轮3副牌，全场同一轮打相同的牌…南北、东西方向逐轮轮换: the draw
    sheet says which pair sits 南北 (甲方, as the result sheet's 弃权 help says) and which
    boards the round plays."""
    state, rounds = _bridge_league()
    vm = vms.draw_vm(state, "bridge", rounds[1])
    assert vm.table.head == ["桌号", "甲方（南北）", "单位", "乙方（东西）", "单位", "备注"]
    assert vm.boards == "4—6"
    assert vms.draw_vm(state, "bridge", rounds[0]).boards == "1—3"
    # the pair in seat 0 sits North–South (games/bridge.py: sides[0] is 甲方 = NS)
    m = next(m for m in rounds[1].matches if not m.bye)
    assert vm.table.rows[0][1].startswith(state.events["bridge"].entries[
        [e.id for e in state.events["bridge"].entries].index(m.sides[0])].team)


def test_R2015_F1_bridge_table_cards_seat_each_pair_and_name_the_boards():
    state, rounds = _bridge_league()
    cards = vms.cards_vm(state, "bridge", rounds[1]).cards
    assert [lab for lab, _, _ in cards[0].sides] == ["甲方（南北）", "乙方（东西）"]
    assert all(c.boards == "本轮牌号 4—6" for c in cards)


def test_R2015_F1_the_rendered_bridge_sheet_and_card_say_it_in_the_events_script():
    state, rounds = _bridge_league()
    html = _render("draw", vms.draw_vm(state, "bridge", rounds[1]), "simplified")
    assert "甲方（南北）" in html and "本轮牌号：4—6" in html
    cards = _render("cards", vms.cards_vm(state, "bridge", rounds[1]), "traditional")
    assert "乙方（東西）" in cards and "本輪牌號 4—6" in cards


def _render(template: str, vm, script: str) -> str:
    from pipeline.render.jinja import render

    return render(f"docs/{template}.html", title=vm.title, updated=vm.updated, script=script, vm=vm, root="../")


def test_other_games_keep_their_sides_and_say_no_boards():
    """A Xiangqi round robin: 甲方/乙方 as before (the card's first mover 执红先行, R2011-F3), no 牌号."""
    entries = [Entry(f"xq-t01-{i}", "xq", "t01", f"棋手{i}", (_person(f"棋手{i}", "t01"),)) for i in range(4)]
    rounds = _draw("round_robin", entries, {}, 1)
    event = {"id": "xq", "name": "象棋", "game": "xiangqi", "format": {"type": "round_robin"},
             "awards": {"scheme": "ranked", "places": [{"award": "第一名", "count": 1}]}}
    state = _league(event, entries, rounds, "循环赛")
    vm = vms.draw_vm(state, "xq", rounds[0])
    assert vm.table.head == ["桌号", "甲方", "单位", "乙方", "单位", "备注"] and vm.boards == ""
    card = vms.cards_vm(state, "xq", rounds[0]).cards[0]
    assert [lab.replace("（执红先行）", "") for lab, _, _ in card.sides] == ["甲方", "乙方"]
    assert sum(lab.endswith("（执红先行）") for lab, _, _ in card.sides) == 1 and card.boards == ""


# -- R2011-F2: the final round of groups → knockout ------------------------------------------
def _ko_league() -> tuple[LeagueState, Round, Round]:
    entries = [Entry(f"xq-t01-{i}", "xq", "t01", f"棋手{i}", (_person(f"棋手{i}", "t01"),)) for i in range(4)]
    ids = [e.id for e in entries]
    gk = FORMATS.get("groups_knockout")
    st = DrawState("xq", list(entries), options={})
    semi = gk._ko_round(st, [[ids[0], ids[1]], [ids[2], ids[3]]], None, random.Random(1))
    st.rounds.append(semi)
    final = gk._ko_round(st, [[ids[0], ids[2]]], [ids[1], ids[3]], random.Random(1))
    event = {"id": "xq", "name": "中国象棋", "game": "xiangqi", "format": {"type": "groups_knockout"},
             "awards": {"scheme": "ranked", "places": [{"award": "第一名", "count": 1}]}}
    return _league(event, entries, [semi, final], "分组循环赛加淘汰赛"), semi, final


def test_R2011_F2_final_round_names_the_final_and_the_third_place_match():
    """The final's row said nothing under 组别 and the third-place row said 三四名 (the
    group id the result sheet keys it by) beside 备注 三四名决赛."""
    state, semi, final = _ko_league()
    vm = vms.draw_vm(state, "xq", final)
    assert vm.table.head == ["桌号", "场次", "甲方", "单位", "乙方", "单位", "备注"]
    assert [r[1] for r in vm.table.rows] == ["决赛", "三四名决赛"]
    assert [r[-1] for r in vm.table.rows] == ["", ""]
    assert not any(cell == "三四名" for r in vm.table.rows for cell in r)
    # a semi-final round has one kind of match: no column saying it on every row
    assert vms.draw_vm(state, "xq", semi).table.head == ["桌号", "甲方", "单位", "乙方", "单位", "备注"]


def test_R2011_F2_final_round_cards_name_the_match_not_a_group():
    state, _, final = _ko_league()
    cards = vms.cards_vm(state, "xq", final).cards
    assert [c.table_label for c in cards] == ["第 1 桌", "第 2 桌"]
    assert [c.match for c in cards] == ["决赛", "三四名决赛"]


def test_R2011_F2_event_page_names_the_third_place_table_by_its_match():
    state, _, final = _ko_league()
    page = site_vm.event_vm(state, "xq")
    tables = [m.table for st in page.stages for r in st.rounds for m in r.matches]
    assert "三四名决赛 第2桌" in tables and not any("三四名组" in t for t in tables)


# -- each stage's kind from its format ---------------------------------------------------------
def test_R2015_F1_bridge_rounds_are_a_round_robin_not_a_swiss():
    """site_vm.stage_kind found no keyword in 双人赛第N轮 and called the Berger rounds
    積分編排賽 (the Swiss label)."""
    state, rounds = _bridge_league()
    assert site_vm.stage_kind(rounds, "pairs_movement") == "round_robin"
    page = site_vm.event_vm(state, "bridge")
    assert [(st.title, st.kind_label) for st in page.stages] == [("双人赛", "循环赛")]


@pytest.mark.parametrize("fmt, options, n, rounds, expected", [
    ("round_robin", {}, 4, 2, [("循环赛", "round_robin")]),
    ("pairs_movement", {}, 4, 2, [("双人赛", "round_robin")]),
    ("swiss", {"rounds": 3}, 4, 1, [("瑞士制", "swiss")]),
    ("groups_standings", {"groups": 2, "rounds": 2}, 8, 1, [("分组赛", "groups")]),
    ("groups_knockout", {"groups": 2}, 8, 1, [("小组循环赛", "groups")]),
    ("knockout", {"final_pool": 3}, 8, 1, [("淘汰赛（8进4）", "knockout")]),
    ("tables_of_three", {}, 9, 1, [("分桌赛", "tables")]),
])
def test_every_format_names_its_stages_kind(fmt, options, n, rounds, expected):
    """Each format says its stages' kind (the event page's heading and label), none guessed."""
    entries = [Entry(f"ev-t01-{i}", "ev", "t01", f"选手{i}", (_person(f"选手{i}", "t01"),)) for i in range(n)]
    drawn = _draw(fmt, entries, options, rounds)
    got = [(site_vm.stage_heading(st, site_vm.stage_label(st, fmt)), site_vm.stage_kind(st, fmt))
           for st in site_vm.split_stages(drawn)]
    assert got == expected
