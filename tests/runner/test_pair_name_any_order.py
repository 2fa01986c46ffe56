"""A pair's name retyped by the referee with its players in the other order (潘霞洋/姜力 for
the re-formed pair printed 姜力/潘霞洋（重组）（会计/机关二）), or with another usual separator:
the same two players, that side — it was refused as “不是本桌选手”, the table unscored."""
from __future__ import annotations

import types

import pytest

from pipeline.issues import IssueLog
from pipeline.model import Entry, Match, Person, Round
from pipeline.run import EventRunner
from pipeline.spec import Tournament, TournamentSpec, validated


def _runner():
    spec = validated(TournamentSpec, {"id": "t", "name": "赛",
                                      "units": [{"id": "g01", "name": "会计分工会", "short": "会计"},
                                                {"id": "g02", "name": "机关二分工会", "short": "机关二"}],
                                      "events": [{"id": "gd", "name": "掼蛋", "game": "guandan",
                                                  "format": {"type": "swiss"}}]})
    t = Tournament(None, spec, b"0123456789abcdef0123")
    a = Entry("gd:g01:1+gd:g02:1", "gd", "g01", "姜力/潘霞洋（重组）", (Person("姜力", "g01"), Person("潘霞洋", "g02")))
    b = Entry("gd:g01:2", "gd", "g01", "会计2队", (Person("王军", "g01"), Person("李明", "g01")))
    runner = types.SimpleNamespace(t=t, _side_names={}, issues=IssueLog(), ev=spec.events[0],
                                   _renamed_unit=lambda *_: False, _table_of_another_round=lambda *_: None,
                                   _table_of_this_round=lambda *_: None)
    return runner, a, b


def _check(runner, a, b, typed_a, typed_b="会计2队") -> bool:
    m = Match("gd", "swiss", 1, "", 1, (b.id, a.id))
    row = types.SimpleNamespace(values={"甲方": typed_b, "乙方": typed_a}, cells={})
    return EventRunner.check_sides(runner, m, row, ["甲方", "乙方"], Round("gd", "swiss", "", 1, (m,)),
                                   {a.id: a, b.id: b})


@pytest.mark.parametrize("typed", ["潘霞洋/姜力", "潘霞洋／姜力", "潘霞洋、姜力", "潘霞洋，姜力", "潘霞洋 姜力",
                                   "潘霞洋/姜力（重组）", "姜力、潘霞洋"])
def test_R2016_F2_a_pair_named_by_its_players_in_any_order_is_that_side(typed):
    runner, a, b = _runner()
    assert _check(runner, a, b, typed)
    assert not list(runner.issues)


@pytest.mark.parametrize("typed", ["潘霞洋/王军", "潘霞洋", "潘霞洋/姜力/李明", "姜力/姜力"])
def test_R2016_F2_another_set_of_players_is_still_not_this_side(typed):
    runner, a, b = _runner()
    assert not _check(runner, a, b, typed)
    assert [i.code for i in runner.issues] == ["RESULT_INVALID"]


def test_a_team_named_by_its_two_players_in_any_order_is_that_side():
    runner, a, b = _runner()
    assert _check(runner, a, b, "姜力/潘霞洋", "李明/王军")
    assert not list(runner.issues)


@pytest.mark.parametrize("typed", ["潘霞洋、姜　力", "潘霞洋、姜 力", "姜　力/潘霞洋", "潘霞洋，姜　力（重组）",
                                   "潘霞洋、姜力", "潘霞洋 、 姜　力", "姜　力；潘霞洋", "姜　力　潘霞洋",
                                   "潘霞洋 姜 力", "潘霞洋、姜　力 "])
def test_R2016_F2_a_two_character_name_padded_with_a_space_is_one_player(typed):
    """A two-character name is padded to three with a (full-width) space in Chinese lists: 姜　力
    is one player — split on the explicit separators first, spaces inside a name dropped."""
    runner, a, b = _runner()
    assert _check(runner, a, b, typed)
    assert not list(runner.issues)


def _runner_traditional():
    runner, _, b = _runner()
    a = Entry("gd:g01:1+gd:g02:1", "gd", "g01", "姜力/潘霞洋（重組）", (Person("姜力", "g01"), Person("潘霞洋", "g02")))
    return runner, a, b


@pytest.mark.parametrize("typed", ["潘霞洋、姜　力", "潘霞洋、薑　力", "薑力/潘霞洋", "潘霞洋，薑 力（重組）",
                                   "潘霞洋 薑力"])
def test_R2016_F2_padded_names_in_traditional_script(typed):
    runner, a, b = _runner_traditional()
    assert _check(runner, a, b, typed)
    assert not list(runner.issues)


@pytest.mark.parametrize("typed", ["潘霞洋、姜　力、李明", "潘　霞洋、王　军", "潘霞洋 姜 力 李明"])
def test_R2016_F2_padded_names_still_refuse_other_players(typed):
    runner, a, b = _runner()
    assert not _check(runner, a, b, typed)
    assert [i.code for i in runner.issues] == ["RESULT_INVALID"]


@pytest.mark.parametrize("typed_a,typed_b", [("李明/王军", "潘霞洋/姜力"), ("王军、李明", "潘霞洋、姜　力"),
                                             ("会计2队", "潘霞洋 姜力")])
def test_R2016_F2_swapped_seats_with_a_pair_in_another_order_says_drawn_on_the_other_side(typed_a, typed_b):
    """Seats swapped and the pair typed in another order: the message says where each was drawn
    (（抽签为乙方）), matched as the side cell itself is — not “不是本桌选手”."""
    runner, a, b = _runner()
    # 甲方 is b (会计2队), 乙方 is a (姜力/潘霞洋): typed the other way round
    assert not _check(runner, a, b, typed_a, typed_b)
    [i] = list(runner.issues)
    assert "不是本桌选手" not in i.message, i.message
    assert "（抽签为甲方）" in i.message and "（抽签为乙方）" in i.message, i.message
