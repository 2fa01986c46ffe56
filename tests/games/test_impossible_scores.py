"""Scores no play can give, refused at the cell that says them (audit F2, F3, F5).

斗地主 (R2020-D3, R2011-D1/D2): every hand moves the landlord ±2S and each farmer ∓S, so
the three totals' changes are congruent mod 3.  双升 (R2020-C1/C2) and 双扣 (R2015-C1/C2):
two decks hold 200 card points and the 8-card bottom at most 80; the points won in play and
the bottom's points together at most 200.
"""
import itertools
import random

import pytest

from pipeline.games import GAMES
from pipeline.games.doudizhu import DdzHand, table_totals
from pipeline.model import CellRef, Outcome

DDZ = GAMES.get("斗地主")
SS = GAMES.get("双升")
SK = GAMES.get("双扣")
R2011 = {"start_points": 10}


# -- 斗地主 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("a,b,c", [(5, -3, -2), (1, -1, 0), (7, -7, 0), (-4, 6, -2)])
def test_R2020_D3_totals_no_hands_give_are_refused(sheet, a, b, c):
    results, (i,) = sheet(DDZ).parse({"甲得分": a, "乙得分": b, "丙得分": c})
    assert results == []
    assert i.code == "RESULT_INVALID" and i.severity == "error" and i.sheet == "成绩" and i.cell == "D2"
    assert f"（{a:+d}、{b:+d}、{c:+d}）不可能出现" in i.message
    assert "地主得失是每位农民的两倍" in i.message and "除以 3 的余数" in i.message and "改正" in i.message


@pytest.mark.parametrize("a,b,c", [(14, 9, 7), (11, 10, 9)])
def test_R2011_D1_totals_no_hands_give_are_refused(sheet, a, b, c):
    results, (i,) = sheet(DDZ, R2011).parse({"甲得分": a, "乙得分": b, "丙得分": c})
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "D2"
    assert "基础分 10" in i.message and f"（{a - 10:+d}、{b - 10:+d}、{c - 10:+d}）" in i.message


def test_R2020_D3_R2011_D1_every_set_of_hands_gives_totals_accepted(sheet):
    from pipeline.games.doudizhu import changes_possible
    rng = random.Random(2020)
    for options, start in (({}, 0), (R2011, 10)):
        s = sheet(DDZ, options)
        for _ in range(200):
            hands = []
            for _ in range(rng.randint(1, 6)):
                won = rng.random() < 0.5
                hands.append(DdzHand(rng.randrange(3), won, rng.randint(1, 3) if start else 1, rng.randint(0, 3),
                                     spring=won and rng.random() < 0.2, anti_spring=not won and rng.random() < 0.2))
            totals, _ = table_totals(hands, start)
            assert changes_possible(totals, start)
            if len(set(totals)) == 3:       # (a tie for first waits for its 加赛)
                results, issues = s.parse(dict(zip(("甲得分", "乙得分", "丙得分"), totals)))
                assert len(results) == 1 and issues == [], (totals, issues)


def test_R2020_D3_any_congruent_zero_sum_totals_are_some_hands():
    # the check refuses nothing a table can reach: ±2/∓1 hands reach every congruent zero-sum change
    from pipeline.games.doudizhu import changes_possible
    for a, b in itertools.product(range(-12, 13), repeat=2):
        c = -a - b
        assert changes_possible((a, b, c)) == ((a - b) % 3 == 0 and (b - c) % 3 == 0)


def test_R2011_D2_a_table_that_ended_early_keeps_its_totals(sheet):
    hands = [DdzHand(0, True, bid=3, bombs=2), DdzHand(1, True)]
    totals, late = table_totals(hands, 10, early_end=True)
    assert late == 1 and totals == (33, 0, -3)
    (res,), issues = sheet(DDZ, R2011).parse({"甲得分": 34, "乙得分": -2, "丙得分": -2})   # one hand, bid 3 × 4
    assert issues == [] and res.winner() == res.match.sides[0]


def test_R2020_D3_a_forfeit_row_is_not_held_to_the_hands_rule(sheet):
    (res,), issues = sheet(DDZ).parse({"甲得分": 4, "乙得分": -4, "丙得分": None, "弃权": "丙"})
    assert issues == [] and res.sides[2].outcome == Outcome.FORFEIT_LOSS


def _ddz_hand(n, landlord, won, **more):
    values = {"局号": n, "地主": landlord, "叫分": None, "炸弹数": None, "春天": None, "反春天": None,
              "地主胜": "是" if won else "否", **more}
    values["_cells"] = {l: CellRef("r.xlsx", "牌局明细", f"{chr(68 + i)}{n + 1}") for i, l in enumerate(
        ("局号", "地主", "叫分", "炸弹数", "春天", "反春天", "地主胜"))}
    return values


def test_R2020_D3_with_a_detail_sheet_the_detail_says_the_totals(sheet):
    hands = [_ddz_hand(1, "甲", True), _ddz_hand(2, "乙", False, 炸弹数=1)]     # (4, -5, 1)
    results, issues = sheet(DDZ).parse({"甲得分": 5, "乙得分": -3, "丙得分": -2}, details=hands)
    assert results == [] and {i.code for i in issues} == {"TOTAL_MISMATCH"}
    # a 明细 that cannot be read does not hide the totals' own problem
    hands[1]["春天"] = "是"
    results, issues = sheet(DDZ).parse({"甲得分": 5, "乙得分": -3, "丙得分": -2}, details=hands)
    assert results == []
    assert sorted((i.sheet, i.cell) for i in issues) == [("成绩", "D2"), ("牌局明细", "H3")]
    assert any("不可能出现" in i.message for i in issues)


def test_R2011_D2_a_playoff_winner_without_a_tie_is_a_warning(sheet):
    (res,), (i,) = sheet(DDZ).parse({"甲得分": 4, "乙得分": -2, "丙得分": -2, "加赛胜者": "甲"})
    assert [x.place for x in res.sides] == [1, 2, 2] and res.winner() == res.match.sides[0]
    assert i.code == "RESULT_INVALID" and i.severity == "warning" and i.cell == "G2"
    assert "没有并列" in i.message and "请清空“加赛胜者”" in i.message
    (res,), issues = sheet(DDZ).parse({"甲得分": 4, "乙得分": -2, "丙得分": -2, "加赛胜者": "无"})
    assert issues == []


def test_R2020_D2_a_bad_score_is_said_with_the_missing_ones(sheet):
    results, issues = sheet(DDZ).parse({"甲得分": "3:1", "乙得分": None, "丙得分": None})
    assert results == []
    assert [i.cell for i in issues] == ["D2", "E2", "F2"]
    assert "不是整数" in issues[0].message and all("未填写" in i.message for i in issues[1:])


# -- 双升 / 双扣 明细 -----------------------------------------------------------------------
SS_LABELS = ("局号", "庄家方", "捡分方得分", "扣底牌型", "拖拉机对数", "底牌分", "多牌少牌方")
SK_LABELS = ("局号", "庄家方", "闲家得分", "扣底牌型", "拖拉机对数", "底牌分", "多牌少牌方", "罚分方", "罚分次数")


def _row(labels, n, dealer, p, kind="无", bottom=None, pairs=None):
    """A 明细 row (sheet 明细, row n + 1, columns D…): 捡分方得分/闲家得分 in F, 底牌分 in I."""
    values = dict.fromkeys(labels)
    values.update({"局号": n, "庄家方": dealer, labels[2]: p, "扣底牌型": kind, "拖拉机对数": pairs, "底牌分": bottom})
    values["_cells"] = {l: CellRef("r.xlsx", "明细", f"{chr(68 + i)}{n + 1}") for i, l in enumerate(labels)}
    return values


@pytest.mark.parametrize("game,labels,row", [
    (SS, SS_LABELS, {"甲方级数": "2", "乙方级数": "8", "庄家": "乙"}),
    (SK, SK_LABELS, {"甲方级数": "2", "乙方级数": "8"}),
])
def test_R2020_C2_R2015_C2_a_bottom_over_80_points_is_refused(sheet, game, labels, row):
    for p, kind, pairs, bottom in ((150, "对子", None, 100), (190, "拖拉机", 6, 150)):
        results, issues = sheet(game).parse(row, details=[_row(labels, 1, "甲", p, kind, bottom, pairs)])
        assert results == [], (game.id, p)
        (i,) = issues
        assert i.code == "RESULT_INVALID" and i.sheet == "明细" and i.cell == "I2"
        assert f'"{bottom}"' in i.message and "0–80" in i.message and "不要乘扣底倍数" in i.message


@pytest.mark.parametrize("game,labels", [(SS, SS_LABELS), (SK, SK_LABELS)])
def test_R2020_C1_R2015_C1_points_played_and_bottom_over_200_are_refused(sheet, game, labels):
    results, (i,) = sheet(game).parse({"甲方级数": "2", "乙方级数": "8", "庄家": "乙"},
                                      details=[_row(labels, 1, "甲", 190, "单张", 20)])
    assert results == [] and i.code == "RESULT_INVALID" and i.sheet == "明细" and i.cell == "F2"
    assert labels[2] in i.message and "共 210 分" in i.message and "200" in i.message


@pytest.mark.parametrize("game,labels,row", [
    (SS, SS_LABELS, {"甲方级数": "2", "乙方级数": "8", "庄家": "乙"}),     # 120 + 80 × 4 = 440 → 乙 +6
    (SK, SK_LABELS, {"甲方级数": "2", "乙方级数": "5"}),                   # 440 → 乙 takes over, stops at 5 (R2015-C3)
])
def test_R2020_C1_R2015_C1_all_200_points_is_still_a_hand(sheet, game, labels, row):
    (res,), issues = sheet(game).parse(row, details=[_row(labels, 1, "甲", 120, "对子", 80)])
    assert issues == [] and res.winner() == res.match.sides[1]


def test_R2020_C2_R2015_C2_the_sheet_s_bottom_column_stops_at_80():
    for game in (SS, SK):
        (col,) = [c for c in game.detail({}).columns if c.label == "底牌分"]
        assert (col.min, col.max) == (0, 80)
