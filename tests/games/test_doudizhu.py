"""Doudizhu: R2020-D3 and R2011-D1/D2 hand scoring, table results, 牌局明细."""
import pytest

from pipeline.games import GAMES
from pipeline.games.doudizhu import DdzHand, hand_scores, hand_scores_2011, multiplier, places, table_totals
from pipeline.model import Outcome

G = GAMES.get("斗地主")
R2011 = {"start_points": 10}


def test_R2011_D1_bid_one_examples():
    # 叫“1分”: landlord wins +2, the two farmers −1; landlord loses −2, farmers +1
    assert hand_scores_2011(0, True, 1) == (2, -1, -1)
    assert hand_scores_2011(0, False, 1) == (-2, 1, 1)
    # two bombs: 1 × 2 × 2
    assert multiplier(bombs=2) == 4
    assert hand_scores_2011(1, True, 1, bombs=2) == (-4, 8, -4)
    assert hand_scores_2011(2, False, 3) == (3, 3, -6)


def test_R2020_D3_spring_and_anti_spring():
    assert hand_scores(0, True, spring=True) == (4, -2, -2)
    assert hand_scores(0, True, bombs=1, spring=True) == (8, -4, -4)
    assert hand_scores(2, False, anti_spring=True) == (2, 2, -4)
    with pytest.raises(ValueError):
        hand_scores(0, False, spring=True)
    with pytest.raises(ValueError):
        hand_scores(0, True, anti_spring=True)


def test_R2011_D2_early_end():
    hands = [DdzHand(0, True, bid=3, bombs=1)] + [DdzHand(1, True)]
    totals, late = table_totals(hands, 10, early_end=True)
    assert totals == (22 - 1, 4 + 2, 4 - 1) and late is None
    hands = [DdzHand(0, True, bid=3, bombs=2), DdzHand(1, True)]   # 乙、丙 at −2 after hand 1
    totals, late = table_totals(hands, 10, early_end=True)
    assert late == 1


def test_places():
    assert places([5, -1, -4]) == (1, 2, 3)
    assert places([3, 3, -6]) == (1, 1, 3)
    assert places([6, -3, -3]) == (1, 2, 2)


def test_R2020_D2_table_result(sheet):
    # (−4, 6, −2 was here: no hands give it, R2020-D3 — see test_R2020_D3_totals_no_hands_give)
    (res,), issues = sheet(G).parse({"甲得分": -4, "乙得分": 5, "丙得分": -1})
    assert issues == []
    assert [x.place for x in res.sides] == [3, 1, 2]
    assert [x.outcome for x in res.sides] == [Outcome.LOSS, Outcome.WIN, Outcome.LOSS]
    assert [x.points for x in res.sides] == [-4, 5, -1] == [x.score for x in res.sides]
    assert res.winner() == res.match.sides[1]


def test_not_zero_sum_is_invalid(sheet):
    results, (i,) = sheet(G).parse({"甲得分": -4, "乙得分": 6, "丙得分": -1})
    assert results == [] and i.code == "RESULT_INVALID" and "合计为 1" in i.message and i.cell == "D2"


def test_R2011_D1_totals_include_start_points(sheet):
    s = sheet(G, R2011)
    (res,), issues = s.parse({"甲得分": 14, "乙得分": 8, "丙得分": 8})
    assert issues == [] and res.sides[0].place == 1
    _, (i,) = s.parse({"甲得分": 4, "乙得分": -2, "丙得分": -2})
    assert i.code == "RESULT_INVALID" and "30" in i.message


def test_R2011_D2_tie_for_first_needs_playoff(sheet):
    results, (i,) = sheet(G).parse({"甲得分": 3, "乙得分": 3, "丙得分": -6})
    assert results == []   # no winner until the extra hand is entered
    assert i.code == "PLAYOFF_REQUIRED" and i.severity == "info" and i.cell == "G2" and "甲、乙" in i.message
    (res,), issues = sheet(G).parse({"甲得分": 3, "乙得分": 3, "丙得分": -6, "加赛胜者": "乙"})
    assert issues == []
    assert [x.place for x in res.sides] == [2, 1, 3]
    assert res.winner() == res.match.sides[1]


def test_playoff_winner_must_be_tied_first(sheet):
    _, (i,) = sheet(G).parse({"甲得分": 3, "乙得分": 3, "丙得分": -6, "加赛胜者": "丙"})
    assert i.code == "RESULT_INVALID" and i.cell == "G2"


def test_partial_row(sheet):
    _, (i,) = sheet(G).parse({"甲得分": 3, "乙得分": None, "丙得分": -3})
    assert i.code == "RESULT_INVALID" and i.cell == "E2"


def test_absent_player(sheet):
    (res,), issues = sheet(G).parse({"甲得分": 4, "乙得分": -4, "丙得分": None, "弃权": "丙"})
    assert issues == []
    assert [x.outcome for x in res.sides] == [Outcome.WIN, Outcome.LOSS, Outcome.FORFEIT_LOSS]
    assert res.sides[2].place == 3
    (res,), _ = sheet(G).parse({"弃权": "甲乙"})
    assert [x.outcome for x in res.sides] == [Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN]
    assert res.winner() == res.match.sides[2]


def _hand(n, landlord, won, bid=None, bombs=None, spring=None, anti=None):
    return {"局号": n, "地主": landlord, "叫分": bid, "炸弹数": bombs, "春天": spring, "反春天": anti,
            "地主胜": "是" if won else "否"}


HANDS_2020 = [
    _hand(1, "甲", True),                 # (2, -1, -1)
    _hand(2, "乙", False, bombs=1),       # (2, -4, 2)
    _hand(3, "丙", True, spring="是"),    # (-2, -2, 4)
]


def test_R2020_D3_detail_recomputes_totals(sheet):
    (res,), issues = sheet(G).parse({"甲得分": 2, "乙得分": -7, "丙得分": 5}, details=HANDS_2020)
    assert issues == [] and [x.place for x in res.sides] == [2, 3, 1]


def test_detail_totals_mismatch(sheet):
    results, issues = sheet(G).parse({"甲得分": 3, "乙得分": -8, "丙得分": 5}, details=HANDS_2020)
    assert results == []
    assert [(i.code, i.cell) for i in issues] == [("TOTAL_MISMATCH", "D2"), ("TOTAL_MISMATCH", "E2")]


def test_R2011_D1_detail_needs_bid(sheet):
    s = sheet(G, R2011)
    hands = [_hand(1, "甲", True, bid=2), _hand(2, "乙", True)]
    _, issues = s.parse({"甲得分": 14, "乙得分": 8, "丙得分": 8}, details=hands)
    assert any(i.code == "RESULT_INVALID" and "叫分" in i.message for i in issues)
    hands[1]["叫分"] = 1
    (res,), issues = s.parse({"甲得分": 13, "乙得分": 10, "丙得分": 7}, details=hands)
    assert issues == []


def test_R2011_D2_hands_after_table_ended(sheet):
    s = sheet(G, R2011)
    hands = [_hand(1, "甲", True, bid=3, bombs=2), _hand(2, "乙", True, bid=1)]
    _, (i,) = s.parse({"甲得分": 33, "乙得分": 0, "丙得分": -3}, details=hands)
    assert i.code == "RESULT_INVALID" and "应已结束" in i.message


def test_detail_spring_needs_landlord_win(sheet):
    hands = [_hand(1, "甲", False, spring="是")]
    _, (i,) = sheet(G).parse({"甲得分": -4, "乙得分": 2, "丙得分": 2}, details=hands)
    assert i.code == "RESULT_INVALID" and "春天" in i.message


def test_detail_sheet_columns():
    d = G.detail({})
    assert d.name == "牌局明细"
    assert [c.label for c in d.columns] == ["局号", "地主", "叫分", "炸弹数", "春天", "反春天", "地主胜"]


def test_detail_rows_with_only_keys_are_blank(sheet):
    pre = [{"轮次": 1, "组别": "A", "桌号": 1, "局号": n, "地主": None, "地主胜": ""} for n in (4, 5)]
    (res,), issues = sheet(G).parse({"甲得分": 2, "乙得分": -7, "丙得分": 5}, details=HANDS_2020 + pre)
    assert issues == []


def test_a_score_for_a_seat_marked_absent_is_asked_about(sheet):
    """弃权=乙 with 乙得分 12 filled: the 12 was dropped without a word and the two others,
    level at 0, were sent to a 加赛.  The referee is asked which it is, at 乙得分."""
    results, issues = sheet(G).parse({"甲得分": 0, "乙得分": 12, "丙得分": 0, "弃权": "乙"})
    assert results == []
    (bad,) = issues
    assert bad.code == "RESULT_INVALID" and "两者矛盾" in bad.message and "乙得分" in bad.message
    (res,), issues = sheet(G).parse({"甲得分": 4, "乙得分": -4, "丙得分": 0, "弃权": "丙"})   # 0: as blank
    assert issues == []


def test_R2020_D3_a_forfeit_table_s_two_present_scores_are_zero_sum(sheet):
    """弃权=乙 with 甲得分 5, 丙得分 2: accepted without a word and used for the round-2 draw,
    though every hand is zero-sum (R2020-D3) — the two present sum to 0 as a full table does."""
    results, issues = sheet(G).parse({"甲得分": 5, "乙得分": None, "丙得分": 2, "弃权": "乙"})
    assert results == []
    (bad,) = issues
    assert bad.code == "RESULT_INVALID" and bad.cell == "D2"
    assert "甲得分 5、丙得分 2 合计为 7" in bad.message and "合计应为 0" in bad.message
    assert "“甲得分”、“丙得分”" in bad.message
    (res,), issues = sheet(G).parse({"甲得分": 3, "乙得分": None, "丙得分": -3, "弃权": "乙"})
    assert issues == [] and [x.outcome for x in res.sides] == [Outcome.WIN, Outcome.FORFEIT_LOSS, Outcome.LOSS]


def test_R2011_D1_a_forfeit_table_s_two_present_keep_the_base_points_between_them(sheet):
    """R2011-D1: each starts with 10, so the two present end with 20 between them."""
    s = sheet(G, R2011)
    _, (bad,) = s.parse({"甲得分": 14, "乙得分": 10, "丙得分": None, "弃权": "丙"})
    assert bad.code == "RESULT_INVALID" and "合计为 24" in bad.message and "合计应为 20（每人基础分 10）" in bad.message
    (res,), issues = s.parse({"甲得分": 14, "乙得分": 6, "丙得分": None, "弃权": "丙"})
    assert issues == [] and res.winner() == res.match.sides[0]


def test_R2011_D2_a_forfeit_table_with_the_present_scores_blank_asks_for_them(sheet):
    """弃权=乙 and no scores: read as 0 and 0, the table went straight to PLAYOFF_REQUIRED
    (“甲、丙 最高分同为 0”).  The two present still decide the table by their scores (R2011-D2),
    so the blank cells are asked for; two who played no hand write 0 and pick the 加赛胜者."""
    results, issues = sheet(G).parse({"甲得分": None, "乙得分": None, "丙得分": None, "弃权": "乙"})
    assert results == []
    assert [(i.code, i.cell) for i in issues] == [("RESULT_INVALID", "D2"), ("RESULT_INVALID", "F2")]
    assert all("请填写在场两人的得分" in i.message and "弃权" in i.message for i in issues)
    assert not any(i.code == "PLAYOFF_REQUIRED" for i in issues)
    _, (one,) = sheet(G).parse({"甲得分": 2, "乙得分": None, "丙得分": None, "弃权": "乙"})
    assert one.cell == "F2" and "“丙得分”未填写" in one.message
    (res,), issues = sheet(G).parse({"甲得分": 0, "乙得分": None, "丙得分": 0, "弃权": "乙", "加赛胜者": "丙"})
    assert issues == [] and res.winner() == res.match.sides[2]
    # one player left wins by forfeit: no hand was played, nothing to write
    (res,), issues = sheet(G).parse({"弃权": "甲乙"})
    assert issues == [] and res.winner() == res.match.sides[2]
