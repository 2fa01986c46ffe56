"""Award schemes (R2020-A1, R2011-A1, R2016-A1, R2015-A1) and the branch table."""
from __future__ import annotations

from pipeline.draw.base import Placement
from pipeline.model import CellRef, Unit
from pipeline.score import AWARD_SCHEMES
from pipeline.score.awards import DiscretionaryRow, branch_totals, discretionary_awards
from pipeline.spec import AwardSpec, validated
from pipeline.text import plain

from .helpers import entry


def awards(**raw) -> AwardSpec:
    """An award spec as tournament.yaml gives it (options beside the scheme)."""
    return validated(AwardSpec, raw)

R2020 = awards(scheme="ranked", places=[{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2},
                                           {"award": "三等奖", "count": 3}],
                  rest="决赛参与奖", prizes={"一等奖": 300, "二等奖": 200, "三等奖": 100})


def test_R2020_A1_ranked_with_participation_award():
    entries = [entry(f"e{i}", branch=f"u{i % 3}") for i in range(1, 9)]
    placements = [Placement(1, "e1", "循环赛第1名"), Placement(2, "e2"), Placement(3, "e3"),
                  Placement(4, "e4", "6进3负者"), Placement(4, "e5", "6进3负者"), Placement(4, "e6", "6进3负者")]
    rows, issues = AWARD_SCHEMES.get("名次奖").assign(R2020, placements, entries, event="象棋")
    got = [(r.entry, r.award, r.prize) for r in rows]
    assert got[:6] == [("e1", "一等奖", 300), ("e2", "二等奖", 200), ("e3", "二等奖", 200),
                       ("e4", "三等奖", 100), ("e5", "三等奖", 100), ("e6", "三等奖", 100)]
    assert sorted(e for e, a, _ in got[6:]) == ["e7", "e8"] and {a for _, a, _ in got[6:]} == {"决赛参与奖"}
    assert rows[0].event == "象棋" and rows[0].branch == "u1" and rows[0].team == "e1"
    assert issues == []


def test_R2020_A1_tie_on_award_boundary_is_listed_and_flagged():
    entries = [entry(e) for e in "abcd"]
    placements = [Placement(1, "a"), Placement(2, "b", tied=True), Placement(2, "c", tied=True), Placement(4, "d")]
    spec = awards(scheme="ranked", places=[{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 1}])
    rows, issues = AWARD_SCHEMES.get("ranked").assign(spec, placements, entries, event="跳棋")
    assert [(r.entry, r.award, r.rank) for r in rows] == [("a", "一等奖", 1), ("b", "二等奖", 2)]
    assert len(issues) == 1 and issues[0].code == "PLAYOFF_REQUIRED"
    assert "“b”、“c”" in issues[0].message and "加赛" in issues[0].message


def test_tie_inside_one_award_is_not_flagged():
    placements = [Placement(1, "a"), Placement(2, "b", tied=True), Placement(2, "c", tied=True)]
    spec = awards(scheme="ranked", places=[{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2}])
    _, issues = AWARD_SCHEMES.get("ranked").assign(spec, placements, [entry(e) for e in "abc"])
    assert issues == []


def test_R2011_A1_top_three_prizes():
    spec = awards(scheme="ranked", places=[{"award": "第一名", "count": 1}, {"award": "第二名", "count": 1},
                                             {"award": "第三名", "count": 1}],
                     prizes={"第一名": 300, "第二名": 200, "第三名": 100})
    placements = [Placement(i, f"p{i}") for i in range(1, 6)]
    rows, _ = AWARD_SCHEMES.get("ranked").assign(spec, placements, [entry(f"p{i}") for i in range(1, 6)])
    assert [(r.award, r.prize) for r in rows] == [("第一名", 300), ("第二名", 200), ("第三名", 100)]


def test_R2015_A1_default_top_n():
    rows, _ = AWARD_SCHEMES.get(AwardSpec().scheme).assign(AwardSpec(), [Placement(i, f"p{i}") for i in range(1, 5)],
                                                           [])
    assert [r.award for r in rows] == ["第一名", "第二名", "第三名"]


def test_R2016_A1_group_top_two():
    placements = [Placement(r, f"{g}{r}", group=g) for g in "ABCD" for r in (1, 2, 3)]
    spec = AwardSpec(scheme="group_top", prizes={"小组第一名": 100})
    rows, issues = AWARD_SCHEMES.get("小组前N名").assign(spec, placements, [])
    assert len(rows) == 8 and issues == []
    assert [(r.group, r.entry, r.award, r.prize) for r in rows[:2]] == [("A", "A1", "小组第一名", 100),
                                                                         ("A", "A2", "小组第二名", 0)]
    assert AWARD_SCHEMES.get("group_top").counts(spec, groups=4) == {"小组第一名": 4, "小组第二名": 4}


def test_R2015_A1_discretionary_awards_and_branch_award():
    units = [Unit("u1", "第一分工会", short="一分"), Unit("u2", "第二分工会")]
    entries = [entry("go-1", "u1", ("王军",), ("1001",), event="go"),
               entry("go-2", "u2", ("李明",), event="go"),
               entry("xq-1", "u2", ("李明",), event="xiangqi")]
    rows_in = [DiscretionaryRow("風尚獎", "围棋", "王  军"),
               DiscretionaryRow("潜力选手奖", "", "", "1001"),
               DiscretionaryRow("优胜奖", "", "李明"),                 # ambiguous: two events
               DiscretionaryRow("特别贡献奖", "象棋", "赵六", at=CellRef("awards.xlsx", "评奖", "C5")),
               DiscretionaryRow("组织奖", "", "", "", "一分"),
               DiscretionaryRow("组织奖", "", "", "", "第九分工会")]
    rows, issues = discretionary_awards(rows_in, entries, units, event_names={"go": "围棋", "xiangqi": "象棋"},
                                        prizes={"组织奖": 500})
    assert [(r.award, r.entry, r.branch) for r in rows] == [("風尚獎", "go-1", "u1"), ("潜力选手奖", "go-1", "u1"),
                                                            ("组织奖", "", "u1")]
    assert rows[2].team == "第一分工会" and rows[2].prize == 500 and rows[0].players == "王军"
    # awards.csv's event is the event's id, as on every other row (typed 围棋, or not at all)
    assert [r.event for r in rows] == ["go", "go", ""]
    codes = [(i.code, i.cell) for i in issues]
    assert codes == [("BAD_VALUE", ""), ("BAD_VALUE", "C5"), ("UNKNOWN_BRANCH", "")]
    assert "“赵六”" in issues[1].message and "第九分工会" in issues[2].message


def test_branch_totals_counts_prizes_points():
    units = [Unit("u1", "一分"), Unit("u2", "二分"), Unit("u3", "三分")]
    entries = [entry("a", "u1"), entry("b", "u2"), entry("c", "u2"), entry("d", "u1")]
    placements = [Placement(1, "a"), Placement(2, "b"), Placement(3, "c"), Placement(4, "d")]
    rows, _ = AWARD_SCHEMES.get("ranked").assign(R2020, placements, entries)
    table = branch_totals(rows, units)
    by = {t.branch: t for t in table}
    assert by["u2"].points == 10 and by["u2"].prize == 400 and by["u2"].counts == {"二等奖": 2}
    assert by["u1"].points == 7 + 3 and by["u1"].counts == {"一等奖": 1, "三等奖": 1}
    assert [t.branch for t in table] == ["u1", "u2", "u3"] and [t.rank for t in table] == [1, 1, 3]
    custom = branch_totals(rows, units, weights={"一等奖": 10})
    assert custom[0].branch == "u1" and custom[0].points == 10


def test_R2015_A1_an_award_name_the_spec_does_not_list_is_refused():
    """风尚将 (a typo) was published on a certificate as written; 風尚獎 (Traditional) is the
    listed 风尚奖."""
    units = [Unit("u1", "第一分工会")]
    entries = [entry("go-1", "u1", ("王军",), event="go")]
    rows, issues = discretionary_awards(
        [DiscretionaryRow("风尚将", "", "王军", at=CellRef("awards.xlsx", "评奖", "A5")),
         DiscretionaryRow("風尚獎", "", "王军"), DiscretionaryRow("组织奖", "", "", "", "第一分工会")],
        entries, units, known=["风尚奖", "潜力选手奖"])
    assert [r.award for r in rows] == ["风尚奖", "组织奖"]          # as tournament.yaml names it
    assert [(i.code, i.cell) for i in issues] == [("BAD_VALUE", "A5")] and "“风尚将”不是本次比赛设定的奖项" in issues[0].message


def test_R2015_A1_no_unit_award_configured_refuses_one():
    """No ``branch_award`` in tournament.yaml (passed as ""): 组织奖 | 乙分工会 was taken and
    printed on a certificate; it is refused at its 奖项 cell like any award not configured.
    With no discretionary award, only the unit award is taken."""
    units = [Unit("u1", "第一分工会")]
    entries = [entry("go-1", "u1", ("王军",), event="go")]
    rows, issues = discretionary_awards(
        [DiscretionaryRow("组织奖", "", "", "", "第一分工会", at=CellRef("评奖表.xlsx", "评奖", "A5")),
         DiscretionaryRow("体育道德风尚奖", "", "王军")],
        entries, units, branch_award="", known=["体育道德风尚奖"])
    assert [(r.award, r.players) for r in rows] == [("体育道德风尚奖", "王军")]
    assert [(i.code, i.severity.value, i.cell) for i in issues] == [("BAD_VALUE", "error", "A5")]
    assert "“组织奖”不是本次比赛设定的奖项（设定的奖项：“体育道德风尚奖”）" in issues[0].message and "branch_award" in issues[0].message
    rows, issues = discretionary_awards(
        [DiscretionaryRow("风尚奖", "", "王军"), DiscretionaryRow("组织奖", "", "", "", "第一分工会")],
        entries, units, branch_award="组织奖", known=[])
    assert [r.award for r in rows] == ["组织奖"] and [i.code for i in issues] == ["BAD_VALUE"]
    assert "（设定的奖项：“组织奖”）" in issues[0].message


def test_R2015_A1_a_unit_award_written_in_traditional_is_the_unit_award():
    units = [Unit("u1", "第一分工会")]
    rows, issues = discretionary_awards([DiscretionaryRow("組織獎", "", "", "", "第一分工会")], [], units,
                                        known=["风尚奖"])
    assert issues == [] and [(r.award, r.branch, r.entry) for r in rows] == [("组织奖", "u1", "")]


def test_R2015_A1_a_traditional_sheet_names_events_and_units_in_traditional():
    """t2015's 评奖表 is printed in Traditional: 圍棋 and 後勤服務分工會 were "找不到" /
    UNKNOWN_BRANCH against the spec's 围棋 and 后勤服务分工会 (the award name was compared in
    Simplified, the event and unit were not)."""
    units = [Unit("u1", "后勤服务分工会", short="后勤"), Unit("u2", "机关分工会", short="机关")]
    entries = [entry("go-1", "u1", ("姚璐",), event="go")]
    rows, issues = discretionary_awards(
        [DiscretionaryRow("風尚獎", "圍棋", "姚璐"), DiscretionaryRow("組織獎", "", "", "", "後勤服務分工會"),
         DiscretionaryRow("組織獎", "", "", "", "機關")],
        entries, units, event_names={"go": "围棋"}, known=["风尚奖"])
    assert issues == []
    assert [(r.award, r.event, r.entry, r.branch) for r in rows] == [
        ("风尚奖", "go", "go-1", "u1"), ("组织奖", "", "", "u1"), ("组织奖", "", "", "u2")]


def test_R2015_A1_a_winner_typed_in_traditional_is_found():
    """The office types 閆璐 as every Traditional document prints her (the form said 闫璐):
    找不到 (BAD_VALUE), the award dropped; and a 特別貢獻獎 typed so had no prize."""
    units = [Unit("u1", "后勤服务分工会")]
    entries = [entry("go-1", "u1", ("闫璐",), event="go"), entry("xq-1", "u1", ("于力",), event="xiangqi")]
    rows, issues = discretionary_awards(
        [DiscretionaryRow("特別貢獻獎", "圍棋", "閆璐"), DiscretionaryRow("風尚獎", "", "于力")],
        entries, units, event_names={"go": "围棋", "xiangqi": "象棋"}, known=["风尚奖", "特别贡献奖"],
        prizes={"特别贡献奖": 300}, script="traditional")
    assert [(i.code, i.severity.value) for i in issues] == [("NAME_CONVERTED", "info")]
    assert "“閆璐”按报名表中的“闫璐”" in plain(issues[0].message)      # (each name marked as typed)
    assert [(r.award, r.entry, r.players, r.prize) for r in rows] == [
        ("特别贡献奖", "go-1", "闫璐", 300), ("风尚奖", "xq-1", "于力", 0)]
    # a Simplified league keeps 於 and 于 apart: 於明 is not the registered 于明
    rows, issues = discretionary_awards([DiscretionaryRow("风尚奖", "", "於明")], [entry("go-2", "u1", ("于明",), event="go")],
                                        units, known=["风尚奖"])
    assert rows == [] and [i.code for i in issues] == ["BAD_VALUE"]


def test_R2015_A1_a_winner_named_by_a_staff_number_with_or_without_its_zeros():
    """评奖 sheet: 工号 1033 typed as a number (Excel dropped its zeros) names the player
    registered as 001033, and 001033 the one registered as 1033 — it was "找不到"."""
    units = [Unit("u1", "第一分工会")]
    entries = [entry("go-1", "u1", ("王军",), ("001033",), event="go"),
               entry("go-2", "u1", ("李明",), ("2044",), event="go")]
    rows_in = [DiscretionaryRow("风尚奖", "围棋", "", "1033"), DiscretionaryRow("潜力选手奖", "围棋", "", "002044")]
    rows, issues = discretionary_awards(rows_in, entries, units, event_names={"go": "围棋"}, prizes={})
    assert [(r.award, r.entry) for r in rows] == [("风尚奖", "go-1"), ("潜力选手奖", "go-2")] and not issues


# -- a pair of two units (R2015-Q2 cross-unit pairs, R2016-F2 pairs re-formed at check-in) -----
def _two_unit_pair(eid: str = "sk-1") -> "Entry":
    """A pair registered by u1 whose second player is u2's (备注 跨分工会：u2, or re-formed)."""
    from pipeline.model import Entry, Person

    return Entry(eid, "shuangkou", "u1", "一分1队", (Person("王军", "u1"), Person("李明", "u2")), team_no="1")


def test_R2015_Q2_award_of_a_cross_unit_pair_names_both_units():
    rows, _ = AWARD_SCHEMES.get("ranked").assign(R2020, [Placement(1, "sk-1")], [_two_unit_pair()])
    assert rows[0].branch == "u1" and rows[0].units == ("u1", "u2")
    assert rows[0].unit_ids == ("u1", "u2")
    # an award of one unit's entry is that unit's
    one, _ = AWARD_SCHEMES.get("ranked").assign(R2020, [Placement(1, "a")], [entry("a", "u3")])
    assert one[0].unit_ids == ("u3",)


def test_R2015_Q2_branch_totals_credit_each_unit_of_a_cross_unit_pair():
    """The award counts (and weighs) for each of the pair's units; its prize money is shared
    between them, so the units' money still adds up to what was paid."""
    units = [Unit("u1", "一分"), Unit("u2", "二分"), Unit("u3", "三分")]
    rows, _ = AWARD_SCHEMES.get("ranked").assign(R2020, [Placement(1, "sk-1"), Placement(2, "b")],
                                                 [_two_unit_pair(), entry("b", "u3")])
    by = {t.branch: t for t in branch_totals(rows, units)}
    assert by["u1"].counts == by["u2"].counts == {"一等奖": 1}
    assert by["u1"].points == by["u2"].points == 7
    assert by["u1"].prize == by["u2"].prize == 150 and by["u3"].prize == 200


def test_R2015_Q2_an_organisers_award_to_the_cross_unit_member_is_the_members_units():
    """风尚奖 to 李明, u2's member of u1's pair: the award (and its certificate) names u2, and
    a 评奖 row naming u2 finds him."""
    units = [Unit("u1", "第一分工会"), Unit("u2", "第二分工会")]
    pair = _two_unit_pair()
    rows, issues = discretionary_awards([DiscretionaryRow("风尚奖", "", "李明"),
                                         DiscretionaryRow("优胜奖", "", "李明", "", "第二分工会")],
                                        [pair], units, known=["风尚奖", "优胜奖"])
    assert issues == []
    assert [(r.award, r.branch, r.unit_ids, r.players, r.entry) for r in rows] == [
        ("风尚奖", "u2", ("u2",), "李明", "sk-1"), ("优胜奖", "u2", ("u2",), "李明", "sk-1")]


def test_R2015_A1_a_unit_the_awards_sheet_names_by_its_former_name_is_found():
    """The 评奖 sheet was printed (its 单位 list too) before the office renamed 第一分工会 →
    第一工会 (run.unit_names: its former names): the rows were UNKNOWN_BRANCH and the 组织奖
    lost.  A former name another unit has now is that unit's; one two units had is neither's."""
    units = [Unit("u1", "第一工会", short="一工"), Unit("u2", "第二分工会", short="一分"), Unit("u3", "第三分工会")]
    names = {"u1": ("第一工会", "一工", "第一分工会", "一分", "老分会"), "u2": ("第二分工会", "一分"),
             "u3": ("第三分工会", "老分会")}
    entries = [entry("go-1", "u1", ("王军",), event="go"), entry("go-2", "u2", ("王军",), event="go")]
    rows_in = [DiscretionaryRow("组织奖", "", "", "", "第一分工会"),
               DiscretionaryRow("风尚奖", "围棋", "王军", "", "第 一分工会"),
               DiscretionaryRow("组织奖", "", "", "", "一分"),             # u2's short name now
               DiscretionaryRow("组织奖", "", "", "", "老分会", at=CellRef("评奖.xlsx", "评奖", "E9"))]
    rows, issues = discretionary_awards(rows_in, entries, units, event_names={"go": "围棋"},
                                        known=["风尚奖"], names=names)
    assert [(r.award, r.branch, r.entry, r.team) for r in rows] == [
        ("组织奖", "u1", "", "第一工会"), ("风尚奖", "u1", "go-1", "王军"), ("组织奖", "u2", "", "第二分工会")]
    assert [(i.code, i.cell) for i in issues] == [("UNKNOWN_BRANCH", "E9")]


def test_R2015_A1_a_name_found_by_its_simplified_form_is_shown_as_each_was_typed():
    """NAME_CONVERTED on a Traditional page: the message is converted with the page, the
    registered players' names as names (text.names_of) — 获奖人“閆璐”按报名表中的“闫璐” read
    “閆璐”…“閆璐” (the two names alike), and the office's 謝軍杰 read 謝軍傑, a spelling nobody
    typed.  Each name is shown as typed."""
    from pipeline.text import convert, names_kept

    units = [Unit("u1", "后勤服务分工会")]
    entries = [entry("go-1", "u1", ("闫璐",), event="go"), entry("br-1", "u1", ("谢军杰",), event="bridge")]
    _, issues = discretionary_awards(
        [DiscretionaryRow("風尚獎", "", "謝軍杰"), DiscretionaryRow("潛力選手獎", "", "閆璐")],
        entries, units, event_names={"go": "围棋", "bridge": "桥牌"}, known=["风尚奖", "潜力选手奖"],
        script="traditional")
    assert [i.code for i in issues] == ["NAME_CONVERTED", "NAME_CONVERTED"]
    with names_kept(["闫璐", "谢军杰"]):
        shown = [convert(i.message, "traditional") for i in issues]
    assert shown[0].startswith("獲獎人“謝軍杰”按報名表中的“谢军杰”（同一姓名的簡體寫法）"), shown[0]
    assert shown[1].startswith("獲獎人“閆璐”按報名表中的“闫璐”（同一姓名的簡體寫法）"), shown[1]


def test_a_refused_award_name_is_never_shown_as_if_it_were_in_the_list():
    """The valid names were joined bare with 、: “体育道德风尚奖”不是本次比赛设定的奖项（体育道德风尚奖、最佳新人奖、组织奖）
    when the spec listed one award named 体育道德风尚奖、最佳新人奖.  Each valid name is quoted on
    its own, and an empty unit award adds no trailing 、."""
    rows, issues = discretionary_awards(
        [DiscretionaryRow("体育道德风尚奖", "", "王军", at=CellRef("awards.xlsx", "评奖", "A5"))],
        [entry("go-1", "u1", ("王军",), event="go")], [Unit("u1", "第一分工会")],
        known=["体育道德风尚奖、最佳新人奖"], branch_award="")
    assert not rows and [i.code for i in issues] == ["BAD_VALUE"]
    assert "（设定的奖项：“体育道德风尚奖、最佳新人奖”）" in issues[0].message, issues[0].message
    _, issues = discretionary_awards([DiscretionaryRow("风尚将", "", "王军")], [], [Unit("u1", "第一分工会")],
                                     known=["风尚奖", "潜力选手奖"])
    assert "（设定的奖项：“风尚奖”、“潜力选手奖”、“组织奖”）" in issues[0].message, issues[0].message


def _sheet_row(n: int, award: str, event: str = "", name: str = "", staff: str = "", branch: str = "") -> DiscretionaryRow:
    """Row ``n`` of a 评奖 sheet, each column at its own cell (奖项 A, 项目 B, 姓名 C, 工号 D, 单位 E)."""
    cells = {label: CellRef("评奖.xlsx", "评奖", f"{col}{n}") for label, col in zip(("奖项", "项目", "姓名", "工号", "单位"), "ABCDE")}
    return DiscretionaryRow(award, event, name, staff, branch, at=cells["奖项"], cells=cells)


def test_R2015_A1_an_award_entered_twice_on_the_awards_sheet_is_counted_once():
    """The same award to the same unit or player on two rows (the unit typed in Traditional, or
    by id and by short name; the player with 项目 blank and with 围棋) was taken twice: two
    certificates, the unit's award count 2.  The later row is a located warning naming the row
    it repeats, and the award counts once; another award to the same player still counts."""
    units = [Unit("t01", "基础医学院分工会", short="基础"), Unit("t10", "后勤服务分工会", short="后勤")]
    entries = [entry("go-1", "t10", ("陶俊健",), ("002348",), event="go")]
    rows_in = [_sheet_row(5, "组织奖", branch="基础医学院分工会"),
               _sheet_row(6, "组织奖", branch="基礎醫學院分工會"),
               _sheet_row(7, "组织奖", branch="t10"),
               _sheet_row(8, "組織獎", "", branch="后勤"),
               _sheet_row(9, "风尚奖", "", "陶俊健"),
               _sheet_row(10, "風尚獎", "围棋", "陶 俊健"),
               _sheet_row(11, "风尚奖", "", "", "2348"),
               _sheet_row(12, "潜力选手奖", "围棋", "陶俊健", "002348")]
    rows, issues = discretionary_awards(rows_in, entries, units, event_names={"go": "围棋"},
                                        known=["风尚奖", "潜力选手奖"], prizes={"组织奖": 200})
    assert [(r.award, r.branch, r.entry) for r in rows] == [
        ("组织奖", "t01", ""), ("组织奖", "t10", ""), ("风尚奖", "t10", "go-1"), ("潜力选手奖", "t10", "go-1")]
    assert [(i.code, i.severity.value, i.cell) for i in issues] == [
        ("BAD_VALUE", "warning", "E6"), ("BAD_VALUE", "warning", "E8"), ("BAD_VALUE", "warning", "C10"),
        ("BAD_VALUE", "warning", "D11")]
    assert "与第5行重复" in issues[0].message and "基础医学院分工会" in issues[0].message
    assert "与第7行重复" in issues[1].message and "与第9行重复" in issues[2].message and "与第9行重复" in issues[3].message
    assert all("只计一次" in i.message for i in issues)
    by = {t.branch: t.counts for t in branch_totals(rows, units)}
    assert by == {"t01": {"组织奖": 1}, "t10": {"组织奖": 1, "风尚奖": 1, "潜力选手奖": 1}}


def test_R2015_A1_a_unit_awards_event_cell_is_not_copied_as_its_event():
    """组织奖 | 项目 全部项目 | 后勤: awards.csv's event said 全部项目 (no event's id), and so did
    the site.  A unit award has no event (README: a 组织奖 row's event is empty; the form
    says 只填“单位”): a 项目 typed on its row is not taken, said at its cell as a note."""
    units = [Unit("t10", "后勤服务分工会", short="后勤"), Unit("t01", "基础医学院分工会")]
    rows, issues = discretionary_awards([_sheet_row(10, "组织奖", "全部项目", branch="后勤"),
                                         _sheet_row(11, "组织奖", "圍棋", branch="基础医学院分工会")],
                                        [], units, event_names={"go": "围棋"}, known=["风尚奖"])
    assert [(r.award, r.event, r.branch) for r in rows] == [("组织奖", "", "t10"), ("组织奖", "", "t01")]
    assert [(i.code, i.severity.value, i.cell) for i in issues] == [("BAD_VALUE", "info", "B10"),
                                                                    ("BAD_VALUE", "info", "B11")]
    assert "“全部项目”" in issues[0].message and "按单位颁发" in issues[0].message


def test_R2015_A1_one_award_to_one_person_in_two_events_is_counted_once():
    """张三 plays 象棋 and 围棋 (one event per person is not every league's rule): 风尚奖 on a
    row for each event was two certificates and two prizes (the repeat was looked for per
    entry).  One award to one person counts once, whichever event its row names (from a review)."""
    units = [Unit("t01", "基础医学院分工会", short="基础")]
    entries = [entry("xq-1", "t01", ("张三",), ("001001",), event="xiangqi"),
               entry("go-1", "t01", ("张三",), ("001001",), event="go")]
    rows, issues = discretionary_awards([_sheet_row(5, "风尚奖", "象棋", "张三", "001001"),
                                         _sheet_row(6, "风尚奖", "围棋", "张三", "001001")],
                                        entries, units, event_names={"xiangqi": "象棋", "go": "围棋"},
                                        known=["风尚奖"], prizes={"风尚奖": 200})
    assert [(r.award, r.entry) for r in rows] == [("风尚奖", "xq-1")]
    assert [(i.code, i.severity.value) for i in issues] == [("BAD_VALUE", "warning")]
    assert "与第5行重复" in issues[0].message


def test_R2020_F4_prize_runs_agree_with_placing_each_neighbouring_pair_level():
    """R2020-F4: the runs of a tie that may stay level (the 加赛表's 可不分先后) are what
    placing each two neighbours level and asking AwardScheme.undecided gives — the
    definition, kept as the reference here; prize_runs reads them off the award slots
    (it had placed every pair again: k³ for a tie of k, seconds a night for a few hundred)."""
    import random

    from pipeline.draw.base import Placement as P
    from pipeline.score.awards import Ranked, placed_by, prize_runs
    from pipeline.spec import AwardSpec

    def reference(scheme, awards, placements, tied):
        ids, runs = sorted(tied), [1]
        for j in range(1, len(ids)):
            keys = {e: i for i, e in enumerate(ids)}
            keys[ids[j]] = j - 1
            if any(set(t[2]) <= set(ids) for t in scheme.undecided(awards, placed_by(placements, keys))):
                runs.append(1)
            else:
                runs[-1] += 1
        return runs

    rng, compared = random.Random(39), 0
    for _ in range(1500):
        counts = [rng.randint(0, 4) for _ in range(rng.randint(1, 4))]
        names = [f"奖{i}" for i in range(len(counts))]
        if len(names) > 1 and rng.random() < 0.2:
            names[-1] = names[0]
        opts: dict = {"places": [{"award": a, "count": c} for a, c in zip(names, counts)]}
        if rng.random() < 0.3:
            opts["rest"] = "参与奖"
        aw = AwardSpec(scheme="ranked", extra=opts)
        n = rng.randint(2, 14)
        r0 = rng.randint(1, n - 1)
        k = rng.randint(2, n - r0 + 1)
        settle = rng.random() < 0.2
        placements = ([P(i + 1, f"x{i:02d}") for i in range(r0 - 1)]
                      + [P(r0, f"t{i:02d}", tied=True, settle=settle) for i in range(k)]
                      + [P(r0 + k + i, f"z{i:02d}") for i in range(n - r0 - k + 1)])
        tied = [f"t{i:02d}" for i in range(k)]
        try:
            want = reference(Ranked(), aw, placements, tied)
        except ValueError:          # (no award places at all)
            continue
        assert prize_runs(Ranked(), aw, placements, tied) == want, (opts, r0, k, settle)
        compared += 1
    assert compared > 1000
