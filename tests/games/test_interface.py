"""Every registered game implements pipeline.games.base.Game, with Chinese labels and docstrings."""
import inspect

import pytest

from games_helpers import Sheet
from pipeline.games import GAMES
from pipeline.games.base import ResultColumn
from pipeline.issues import CODES

TIEBREAKS = {"direct", "wins", "buchholz", "buchholz_cut1", "sonneborn_berger", "progressive", "black_wins",
             "game_points", "playoff"}
ALL = ["xiangqi", "go", "checkers", "shuangsheng", "shuangkou", "guandan", "doudizhu", "bridge"]


def test_all_games_registered_with_chinese_aliases():
    assert set(ALL) <= set(GAMES.names())
    for alias, name in [("象棋", "xiangqi"), ("中国象棋", "xiangqi"), ("围棋", "go"), ("跳棋", "checkers"),
                        ("双升", "shuangsheng"), ("双扣", "shuangkou"), ("掼蛋", "guandan"), ("斗地主", "doudizhu"),
                        ("桥牌", "bridge")]:
        assert GAMES.canonical(alias) == name


@pytest.mark.parametrize("name", ALL)
def test_game_shape(name):
    g = GAMES.get(name)
    assert g.id == name and g.title and g.seats in (2, 3)
    assert {"win", "draw", "loss", "bye", "forfeit_win", "forfeit_loss"} <= set(g.default_points)
    assert all(isinstance(v, int) for v in g.default_points.values())
    assert set(g.default_tiebreaks) <= TIEBREAKS
    cols = g.columns({})
    assert cols and all(isinstance(c, ResultColumn) for c in cols)
    for c in cols:
        assert any("\u4e00" <= ch <= "\u9fff" for ch in c.label), c.label
        assert c.kind != "choice" or c.choices
    assert len({c.label for c in cols}) == len(cols)
    for meth in ("columns", "detail", "parse_round"):
        assert inspect.getdoc(getattr(g, meth))


@pytest.mark.parametrize("name", ALL)
def test_blank_sheet_gives_nothing(name):
    s = Sheet(GAMES.get(name))
    assert s.parse({l: None for l in s.labels}) == ([], [])


@pytest.mark.parametrize("name", ALL)
def test_issues_use_known_codes_and_cells(name):
    s = Sheet(GAMES.get(name))
    values = {l: "??" for l in s.labels}
    _, issues = s.parse(values)
    assert issues
    for i in issues:
        assert i.code in CODES and i.cell and i.sheet == "成绩"
        assert '"??"' in i.message or "未填写" in i.message
