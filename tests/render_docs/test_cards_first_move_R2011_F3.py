"""A table card says who moves first, as the round's draw sheet does (R2011-F3: 象棋 red
moves first — 甲方（执红先行）; 围棋 执黑先行; another board game 先手; a card game nothing):
the sheet printed 姚明（执红先行） while the card said only 甲方 姚明（基础部） (an audit)."""
from __future__ import annotations

import dataclasses

from pipeline.render import viewmodels as vms

from .states import t2015_state, t2020_state


def _first_on_sheet(vm: vms.DrawVM, row: int, note: str) -> list[bool]:
    """Which side of a two-side draw-sheet row carries the first-move note."""
    cells = vm.table.rows[row]
    return [str(cells[1 + 2 * i]).endswith(f"（{note}）") for i in range(2)]


def test_R2011_F3_the_xiangqi_card_says_which_side_holds_red_and_moves_first():
    state = t2020_state()
    es = state.events["xiangqi"]
    card = vms.cards_vm(state, "xiangqi", es.rounds[0]).cards[0]
    assert card.sides == [("甲方（执红先行）", "王军", "行政一"), ("乙方", card.sides[1][1], "行政一")]
    # a table whose second side moves first (Match.first = 1): the card and the sheet agree
    rnd = es.rounds[1]
    (card,) = vms.cards_vm(state, "xiangqi", rnd).cards
    assert [lab for lab, _, _ in card.sides] == ["甲方", "乙方（执红先行）"]
    assert _first_on_sheet(vms.draw_vm(state, "xiangqi", rnd), 0, "执红先行") == [False, True]


def test_go_card_says_black_moves_first_in_the_leagues_script():
    state = t2015_state()
    rnd = state.events["go"].rounds[0]
    (card,) = vms.cards_vm(state, "go", rnd).cards
    assert [lab for lab, _, _ in card.sides] == ["甲方（执黑先行）", "乙方"]
    from pipeline.render.jinja import render

    vm = vms.cards_vm(state, "go", rnd)
    html = render("docs/cards.html", title=vm.title, updated=vm.updated, script="traditional", vm=vm, root="../")
    assert "甲方（執黑先行）" in html


def test_a_card_game_card_says_no_first_move_and_a_checkers_card_says_xianshou():
    state = t2015_state()
    rnd = state.events["go"].rounds[0]
    es = state.events["go"]
    for game, said in (("doudizhu", None), ("bridge", None), ("checkers", "先手")):
        es.spec = dataclasses.replace(es.spec, game=game)
        (card,) = vms.cards_vm(state, "go", rnd).cards
        assert card.sides[0][0] == (f"甲方（{said}）" if said else "甲方"), game
        assert card.sides[1][0] == "乙方"
