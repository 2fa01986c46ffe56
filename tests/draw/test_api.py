"""Registry, options, descriptions and the shared building blocks."""
from __future__ import annotations

import doctest
import random
from collections import Counter

import pytest

import pipeline.draw.common as common
import pipeline.draw.groups_knockout as groups_knockout
import pipeline.draw.swiss as swiss
from pipeline.draw import FORMATS
from pipeline.draw.common import berger_pairs, pair_avoiding, spread_tables

ALIASES = {"knockout": "淘汰赛", "round_robin": "循环赛", "groups_knockout": "分组循环赛加淘汰赛",
           "tables_of_three": "三人桌淘汰赛", "groups_standings": "分组积分编排赛", "swiss": "瑞士制",
           "pairs_movement": "桥牌双人赛"}


@pytest.mark.parametrize("name,alias", sorted(ALIASES.items()))
def test_registered_with_chinese_alias(name, alias):
    fmt = FORMATS.get(alias)
    assert fmt is FORMATS.get(name) and fmt.name == name
    assert fmt.seats == (3 if name == "tables_of_three" else 2)
    assert fmt.check_options({}) is None
    text = fmt.describe({})
    assert len(text) > 30 and any("\u4e00" <= ch <= "\u9fff" for ch in text)
    bad = fmt.check_options({"no_such_option": 1})
    assert bad and "no_such_option" in bad


@pytest.mark.parametrize("name,options,key", [
    ("knockout", {"final_pool": 0}, "final_pool"),
    ("swiss", {"rounds": "五"}, "rounds"),
    ("tables_of_three", {"fill": "random"}, "fill"),
    ("groups_knockout", {"third_place": "yes"}, "third_place"),
    ("groups_knockout", {"groups": 4, "group_size": 5}, "group_size"),
    ("groups_standings", {"groups": -1}, "groups"),
    ("pairs_movement", {"boards_per_round": 0}, "boards_per_round"),
])
def test_bad_options_named(name, options, key):
    msg = FORMATS.get(name).check_options(options)
    assert msg and key in msg and "请" in msg


def test_good_options_accepted():
    assert FORMATS.get("groups_knockout").check_options({"groups": 4, "advance": 2, "third_place": False}) is None
    assert FORMATS.get("groups_standings").check_options({"groups": 4, "rounds": 3, "avoid_rematch": True}) is None
    assert FORMATS.get("tables_of_three").check_options({"fill": "bye"}) is None


@pytest.mark.parametrize("n", range(2, 13))
def test_berger_every_pair_once_and_first_move_balanced(n):
    rounds = common.berger_round_count(n)
    seen, firsts = Counter(), Counter()
    for r in range(1, rounds + 1):
        in_round = []
        for a, b in berger_pairs(n, r):
            in_round += [x for x in (a, b) if x is not None]
            if b is not None:
                seen[frozenset((a, b))] += 1
                firsts[a] += 1
        assert sorted(in_round) == list(range(n))
    assert len(seen) == n * (n - 1) // 2 and set(seen.values()) == {1}
    assert max(firsts.values()) - min(firsts[i] for i in range(n)) <= 1


def test_spread_tables_keeps_branches_apart_when_possible():
    ids = [f"{b}{i}" for b in "abc" for i in range(3)]
    for seed in range(20):
        tables = spread_tables(ids, 3, random.Random(seed), lambda x: x[0])
        assert all(len({x[0] for x in t}) == 3 for t in tables)


def test_pair_avoiding_backtracks():
    met = {"c": {"d"}, "d": {"c"}}
    assert pair_avoiding(["a", "b", "c", "d"], met) == [("a", "c"), ("b", "d")]
    # impossible: falls back to nearest
    met = {"a": {"b"}, "b": {"a"}}
    assert pair_avoiding(["a", "b"], met) == [("a", "b")]


@pytest.mark.parametrize("module", [common, groups_knockout, swiss])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0
