"""R2020-F3 双升 and R2015-C4 双扣: a 弃权 says the table was not played, deals on its 明细 say it
was (as R2016-F4 for 掼蛋, common.forfeit_without_deals).  Both games scored 甲方弃权 beside two
deals as the forfeit without a word (0:3, 0:2)."""
import pytest

from pipeline.games import GAMES
from pipeline.model import CellRef, Outcome

SS_LABELS = ["局号", "庄家方", "捡分方得分", "扣底牌型", "拖拉机对数", "底牌分", "多牌少牌方"]
SK_LABELS = ["局号", "庄家方", "闲家得分", "扣底牌型", "拖拉机对数", "底牌分", "多牌少牌方", "罚分方", "罚分次数"]


def _deal(labels, n, dealer, points):
    d = {labels[0]: n, labels[1]: dealer, labels[2]: points, labels[3]: "无", labels[6]: "无"}
    return d | {"_cells": {l: CellRef("r.xlsx", "明细", f"{chr(68 + i)}{n + 1}") for i, l in enumerate(labels)}}


@pytest.mark.parametrize("game,labels", [("双升", SS_LABELS), ("双扣", SK_LABELS)])
def test_R2020_F3_R2015_C4_forfeit_beside_deals_is_a_contradiction(sheet, game, labels):
    deals = [_deal(labels, 1, "甲", 0), _deal(labels, 2, "甲", 40)]
    results, issues = sheet(GAMES.get(game)).parse({"弃权": "甲方弃权"}, details=deals)
    assert results == []
    (i,) = issues
    assert i.code == "RESULT_INVALID" and i.sheet == "成绩" and i.message.count("两者矛盾") == 1
    assert "“明细”表第 2–3 行" in i.message and "请清空“弃权”" in i.message


@pytest.mark.parametrize("game,labels", [("双升", SS_LABELS), ("双扣", SK_LABELS)])
def test_R2020_F3_R2015_C4_forfeit_with_only_pre_numbered_rows_stands(sheet, game, labels):
    blank = [{labels[0]: n} | {"_cells": {}} for n in (1, 2)]
    (res,), issues = sheet(GAMES.get(game)).parse({"弃权": "乙方弃权"}, details=blank)
    assert issues == [] and [x.outcome for x in res.sides] == [Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS]
