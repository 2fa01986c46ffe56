"""Contract: "Optional detail sheets … from which totals are computed" — also for a row whose
only filled cells are the ones the hands cannot tell (the game's ``detail_kept``: 掼蛋 台上方,
双升 庄家, 双扣 末盘胜方/警告, 斗地主 加赛胜者).  A 掼蛋 table recorded on the 明细, its
成绩 row blank, was asked for 台上方; the referee filled it alone and was then asked for the
levels (“甲方级数”未填写…请补填), and the round waited for good."""
from __future__ import annotations

from types import SimpleNamespace as NS

import pytest

from pipeline.games import GAMES
from pipeline.games.base import ResultRow
from pipeline.model import CellRef, Match
from pipeline.run import EventRunner

CASES = [
    # R2016-C1: 甲 +3, 乙 +3 → 5:5, 台上方 as typed
    ("掼蛋", {}, [{"头游方": "甲", "头游对家名次": "二游"}, {"头游方": "乙", "头游对家名次": "二游"}],
     {"台上方": "甲"}, {"甲方级数": "5", "乙方级数": "5"}),
    # R2020-C1…C4: 庄家 as typed
    ("双升", {}, [{"庄家方": "甲", "捡分方得分": 0}, {"庄家方": "甲", "捡分方得分": 40}],
     {"庄家": "甲"}, {"甲方级数": "6", "乙方级数": "2"}),
    # R2015-C1…C3, P1: 末盘胜方 and the warnings as typed
    ("双扣", {"penalty_mode": "defender_total"},
     [{"庄家方": "甲", "闲家得分": 0}, {"庄家方": "甲", "闲家得分": 30, "罚分方": "乙"},
      {"庄家方": "甲", "闲家得分": 40, "扣底牌型": "对子", "底牌分": 20}],
     {"末盘胜方": "甲", "乙方警告": 1}, {"甲方级数": "7", "乙方级数": "4"}),
    # R2020-D3: 加赛胜者 as typed
    ("斗地主", {}, [{"地主": "甲", "地主胜": "是"}, {"地主": "乙", "地主胜": "否"}],
     {"加赛胜者": "甲"}, {"甲得分": 3, "乙得分": -3, "丙得分": 0}),
]


def _computed(game: str, options: dict, hands: list[dict], typed: dict) -> tuple[dict, list]:
    g = GAMES.get(game)
    m = Match("e", "s1", 1, "A", 1, ("a", "b", "c")[:g.seats])
    runner = NS(game=g, ev=NS(game_options=options), issues=[])
    ctx = NS(details={m.key: hands}, columns=g.columns(options))
    (rr,) = EventRunner.totals_from_details(runner, ctx, [ResultRow(m, dict(typed), {})])
    return rr.values, runner.issues


@pytest.mark.parametrize("game,options,hands,typed,want", CASES, ids=[c[0] for c in CASES])
def test_totals_are_computed_beside_the_cells_the_hands_do_not_tell(game, options, hands, typed, want):
    values, issues = _computed(game, options, hands, typed)
    assert issues == [] and values == {**typed, **want}


def test_a_row_with_a_total_typed_is_not_computed():
    """A level typed is the referee's: checked against the hands by the game, not replaced."""
    values, _ = _computed("掼蛋", {}, CASES[0][2], {"台上方": "甲", "甲方级数": "6"})
    assert values == {"台上方": "甲", "甲方级数": "6"}


def test_hands_that_cannot_be_read_leave_the_row_read_as_blank():
    """The 明细's problem is said; the row is not read for its levels as well (“甲方级数”未填写)."""
    bad = [{"头游方": "丁", "头游对家名次": "二游", "_cells": {"头游方": CellRef("r.xlsx", "明细", "E5")}}]
    values, issues = _computed("掼蛋", {}, bad, {"台上方": "甲"})
    assert [i.cell for i in issues] == ["E5"] and values == {"台上方": None}
