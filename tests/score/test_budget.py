"""Budgets (R2011-B1, R2015-B1) computed from the tournament spec."""
from __future__ import annotations

from pipeline.score.budget import budget_table
from pipeline.spec import TournamentSpec, validated

TOP3 = {"scheme": "ranked",
        "places": [{"award": "第一名", "count": 1}, {"award": "第二名", "count": 1}, {"award": "第三名", "count": 1}],
        "prizes": {"第一名": 300, "第二名": 200, "第三名": 100}}


def _spec(**kw) -> TournamentSpec:
    base = {"id": "t", "name": "比赛", "units": [{"id": "u1", "name": "一分"}], "events": []}
    base.update(kw)
    return validated(TournamentSpec, base)


def test_R2011_B1_budget():
    spec = _spec(
        events=[{"id": "xiangqi", "name": "中国象棋", "game": "xiangqi", "format": {"type": "groups"}, "awards": TOP3},
                {"id": "doudizhu", "name": "斗地主", "game": "doudizhu", "format": {"type": "tables"}, "awards": TOP3}],
        budget=[{"name": "扑克牌", "quantity": 20, "unit": "副", "unit_price": 10},
                {"name": "中国象棋", "quantity": 5, "unit": "副", "unit_price": 40}])
    table = budget_table(spec)
    items = [(r.name, r.quantity, r.unit_price, r.total) for r in table.rows if r.kind == "item"]
    assert items == [("扑克牌", 20, 10, 200), ("中国象棋", 5, 40, 200)]
    prizes = [r for r in table.rows if r.kind == "prize"]
    assert sum(r.total for r in prizes) == 2 * (300 + 200 + 100) == 1200
    assert [(r.event, r.unit_price, r.quantity) for r in prizes[:3]] == [("xiangqi", 300, 1), ("xiangqi", 200, 1),
                                                                        ("xiangqi", 100, 1)]
    assert table.total == 1600


def test_R2015_B1_totals_per_source():
    spec = _spec(
        events=[{"id": "go", "name": "围棋", "game": "go", "format": {"type": "swiss"},
                 "awards": {"scheme": "top_n", "prizes": {"第一名": 200, "第二名": 100}}},
                {"id": "gd", "name": "掼蛋", "game": "guandan", "format": {"type": "groups", "groups": 4},
                 "awards": {"scheme": "group_top", "prizes": {"小组第一名": 50}}}],
        budget=[{"name": "预赛用品", "quantity": 10, "unit": "副", "unit_price": 15, "source": "分工会活动费"},
                {"name": "决赛用品", "quantity": 4, "unit": "副", "unit_price": 50, "source": "文体活动费"}],
        prize_budget_source="文体活动费")
    table = budget_table(spec)
    assert table.by_source == {"分工会活动费": 150, "文体活动费": 200 + 200 + 100 + 4 * 50}
    assert table.total == 150 + 700
    # participation awards are counted once the entries are known
    t2 = budget_table(spec, {("go", "第二名"): 2})
    assert t2.total == table.total + 100


def test_R2011_B1_budget_from_sample_spec():
    """The shipped T2011 tournament.yaml reproduces ¥1600 (read with yaml, no registry check)."""
    from pathlib import Path

    import yaml

    path = Path(__file__).resolve().parents[2] / "sample_sheets" / "t2011-court" / "tournament.yaml"
    spec = validated(TournamentSpec, yaml.safe_load(path.read_text(encoding="utf-8")))
    table = budget_table(spec)
    assert table.total == 1600
    assert sum(r.total for r in table.rows if r.kind == "prize") == 1200
