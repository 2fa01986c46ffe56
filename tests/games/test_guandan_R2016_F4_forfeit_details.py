"""R2016-F4 掼蛋: a 弃权 says the table was not played, deals on its 明细 say it was; and a
cell the 明细 cannot fill (台上方 at equal levels) is asked for with the 明细 rows in view.

A 弃权 beside deals was scored as the forfeit without a word (体育部1队 52, 信工2队 0), and a
table whose levels came from its 明细 was told to clear a 成绩 row that was already blank."""
from pipeline.games import GAMES
from pipeline.model import CellRef, Outcome

G = GAMES.get("掼蛋")
LABELS = ["局号", "头游方", "头游对家名次"]


def _deal(n, first, partner, row=None):
    """A 明细 row on sheet 明细 (row ``row`` or n + 1, columns D…F)."""
    row = row or n + 1
    d = {"局号": n, "头游方": first, "头游对家名次": partner}
    return d | {"_cells": {l: CellRef("r.xlsx", "明细", f"{chr(68 + i)}{row}") for i, l in enumerate(LABELS)}}


#: 甲 +3 → 5, 乙 +3 → 5: equal levels, on rows 2–3 of 明细
FIVE_FIVE = [_deal(1, "甲", "二游"), _deal(2, "乙", "二游")]


def test_R2016_F4_forfeit_beside_deals_is_a_contradiction(sheet):
    """甲方弃权 (H2) with two deals on 明细 rows 2–3: nothing scored, RESULT_INVALID at the 弃权
    cell naming the 明细 rows and saying what to clear."""
    results, issues = sheet(G).parse({"弃权": "甲方弃权"}, details=FIVE_FIVE)
    assert results == []
    (i,) = issues
    assert i.code == "RESULT_INVALID" and i.sheet == "成绩" and i.cell == "H2"
    assert "第1轮 A组 第1桌" in i.message and "选了“甲方弃权”" in i.message
    assert "“明细”表第 2–3 行" in i.message and "2 局" in i.message and "两者矛盾" in i.message
    assert "请清空“弃权”" in i.message and "请删去“明细”表第 2–3 行" in i.message


def test_R2016_F4_both_forfeit_beside_deals_is_a_contradiction(sheet):
    results, (i,) = sheet(G).parse({"弃权": "双方弃权"}, details=FIVE_FIVE[:1])
    assert results == [] and i.cell == "H2" and "“明细”表第 2 行" in i.message


def test_R2016_F4_forfeit_beside_scores_and_deals_says_both(sheet):
    results, issues = sheet(G).parse({"甲方级数": "Q", "乙方级数": "8", "弃权": "乙方弃权"}, details=FIVE_FIVE)
    assert results == [] and [i.cell for i in issues] == ["H2", "H2"]
    assert "本行又填了成绩" in issues[0].message and "“明细”表第 2–3 行" in issues[1].message


def test_R2016_F4_forfeit_with_only_pre_numbered_detail_rows_stands(sheet):
    """Rows holding only their 局号 are no deals: the forfeit is scored as before."""
    blank = [_deal(n, None, None) for n in (1, 2, 3)]
    (res,), issues = sheet(G).parse({"弃权": "乙方弃权"}, details=blank)
    assert issues == [] and [x.points for x in res.sides] == [52, 0]
    assert [x.outcome for x in res.sides] == [Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS]


def test_R2016_F4_on_stage_at_equal_levels_is_asked_with_the_deals(sheet):
    """Levels 5:5 (as the runner fills them from the 明细 for a blank row) and 台上方 blank: said
    at 台上方 (G2) with the 明细 rows and what they give; not "把整行清空（表示未赛）"."""
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "5"}, details=FIVE_FIVE)
    assert results == [] and i.code == "RESULT_INVALID" and i.cell == "G2"
    assert "“台上方”未填写" in i.message and "双方同为 \"5\" 级" in i.message
    assert "“明细”表第 2–3 行记有 2 局" in i.message and "选甲或乙" in i.message
    assert "把整行清空" not in i.message and "表示未赛" not in i.message


def test_R2016_F4_a_missing_level_beside_deals_names_the_deals(sheet):
    results, (i,) = sheet(G).parse({"甲方级数": "5", "台上方": "甲"}, details=FIVE_FIVE)
    assert results == [] and i.cell == "E2" and "“乙方级数”未填写" in i.message
    assert "“明细”表第 2–3 行记有 2 局" in i.message and "把整行清空" not in i.message


def test_R2016_F4_without_deals_the_messages_stand(sheet):
    results, (i,) = sheet(G).parse({"甲方级数": "5", "乙方级数": "5"})
    assert results == [] and i.cell == "G2" and "把整行清空（表示未赛）" in i.message
    (res,), issues = sheet(G).parse({"弃权": "甲方弃权"}, details=[])
    assert issues == [] and [x.points for x in res.sides] == [0, 52]


def test_R2016_F4_detail_rows_text():
    from pipeline.games.common import detail_rows, detail_rows_text     # (new with this rule's fix)
    deals = detail_rows([_deal(1, "甲", "二游", 35), _deal(2, "乙", "二游", 36), _deal(3, "甲", "末游", 40)])
    assert detail_rows_text(deals) == "“明细”表第 35–36、40 行"
    assert detail_rows_text(detail_rows([{"局号": 1, "头游方": "甲"}])) == "“明细”表"
