"""Before any award exists the index's 各单位获奖统计 listed every unit as 第1名 with 合计 0,
and its "尚未产生获奖名单。" was never reached (an audit): with no award at all there is no
tally, and the page says so."""
from __future__ import annotations

import dataclasses

from pipeline.render import site_vm
from pipeline.render.site import render_index

from .conftest import make_state


def test_no_award_yet_no_tally_and_the_page_says_so():
    state = make_state()
    state.awards, state.branch_awards = [], []
    vm = site_vm.index_vm(state)
    assert vm.totals == () and vm.award_columns == ()
    page = render_index(state)
    awards = page[page.index('id="awards"'):page.index('id="entries"')]
    assert "尚未产生获奖名单" in awards and "<table" not in awards


def test_only_vacant_places_are_no_award_either():
    """R2011-R1: a vacant place is nobody's: it makes no tally of zeros."""
    state = make_state()
    state.awards = [dataclasses.replace(a, vacant=True) for a in state.awards]
    state.branch_awards = []
    assert site_vm.index_vm(state).totals == ()


def test_with_an_award_every_unit_is_listed_still():
    vm = site_vm.index_vm(make_state())
    assert len(vm.totals) == 11 and vm.totals[0].total > 0
