"""The notice of each client tournament says what its own document says (view-model level).

Each sample's ``tournament.yaml`` is rendered into the notice's view-model and its lines are
compared with the key sentences of the client's document (``/work/shared/seeds``): who takes
part (T2020's teams and captains; T2015 参加人员 and T2016 参赛人员 without teams or captains;
T2011's departments without the captains its document never names), and the rules of play
the document states — points (R2011-F1), time controls (R2011-F3, R2011-D1) and scoring
(R2011-D1/D2, R2020-D3).  A game's rules come from the spec: none is stated that the spec
does not give (the program's default 2/1/0 points, which no client notice states).
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from pipeline.render import viewmodels as vms
from pipeline.spec import SpecError, Tournament, TournamentSpec, parse_spec, validated
from pipeline.state import LeagueState

from .states import t2020_spec_raw

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sheets"


def _raw(tid: str) -> dict:
    return yaml.safe_load((SAMPLES / tid / "tournament.yaml").read_text(encoding="utf-8"))


def _state(raw: dict) -> LeagueState:
    t = Tournament(Path("/nonexistent/tournament"), validated(TournamentSpec, raw), b"x" * 32)
    when = dt.datetime(2030, 1, 1)
    return LeagueState(t, now=when, updated=when, submissions=[], entries=[], issues=[], events={}, awards=[])


def _sections(raw: dict) -> dict[str, list[str]]:
    """Heading (without its number) → paragraphs of the notice."""
    vm = vms.notice_vm(_state(raw))
    return {s.heading.split("、", 1)[1]: s.paragraphs for s in vm.sections}


def _rules(raw: dict, event_name: str) -> str:
    """The notice's 比赛办法 line of one event."""
    (line,) = [p for p in _sections(raw)["比赛办法"] if f"）{event_name}：" in p]
    return line


def _all_text(raw: dict) -> str:
    return "\n".join(p for ps in _sections(raw).values() for p in ps)


# -- who takes part (参赛单位 / 参加人员) ----------------------------------------------------
T2020_UNITS = [
    "以分工会为单位参赛，队长由分工会干事担任：",
    "第一队：行政第一分工会，队长庞雪平；", "第二队：行政第二分工会，队长顾现伟；",
    "第三队：基础教学部分工会，队长李佳；", "第四队：机电工程学院分工会，队长朱跃飞；",
    "第五队：汽车工程学院分工会，队长房舒；", "第六队：交通工程学院分工会，队长张静；",
    "第七队：经济管理学院分工会，队长李扬；", "第八队：马克思主义学院分工会，队长李君；",
    "第九队：智能工程学院分工会，队长李硕；", "第十队：公共体育部分工会，队长崔萃；",
    "第十一队：艺术设计与教育分工会，队长张晓平。",
]


def test_T2020_units_section_is_the_documents_teams_and_captains_as_before():
    """Document 四、参赛单位, word for word (the notice printed it so before, and still does)."""
    sec = _sections(_raw("t2020-league"))
    assert list(sec)[2] == "参赛单位"
    assert sec["参赛单位"] == T2020_UNITS


def test_R2015_Q1_Q2_anyone_may_enter_no_teams_no_captains():
    """Document 四、參加人員：凡學校工會會員均可報名參加.  It printed 以分工會為單位參賽，隊長由
    分工會幹事擔任：第一隊……第十隊, against R2015-Q1 (no quota for Go and Xiangqi) and R2015-Q2
    (bridge pairs may span branches)."""
    raw = _raw("t2015-tcm")
    sec = _sections(raw)
    assert "参赛单位" not in sec
    assert sec["参加人员"] == ["凡学校工会会员均可报名参加。"]
    text = _all_text(raw)
    assert "干事担任" not in text and "第一队" not in text and "以分工会为单位参赛" not in text


def test_T2016_entrants_are_union_members_no_captains():
    """Document 三、参赛人员：本校工会会员 (no teams, no captains)."""
    raw = _raw("t2016-poker")
    sec = _sections(raw)
    assert sec["参赛人员"] == ["本校工会会员。"]
    text = _all_text(raw)
    assert "干事担任" not in text and "第一队" not in text


def test_T2011_departments_take_part_without_invented_captains():
    """Document 二：本次活动由院工会组织，院各部门积极参与 — it names no captain (队长由部门干事担任
    was invented) and forms no teams."""
    raw = _raw("t2011-court")
    paras = _sections(raw)["参赛单位"]
    assert paras[0] == "本次活动由院工会组织，院各部门积极参与。参赛部门："
    assert paras[1].startswith("立案庭、刑事审判庭、民事审判第一庭、") and paras[1].endswith("法警大队。")
    text = _all_text(raw)
    assert "干事" not in text and "第一队" not in text and "队长孙立新" not in text


def test_notice_units_defaults_and_listings():
    """Without ``notice_units`` the section is T2020's; 队长由…干事担任 only when the teams are
    listed and some unit has a captain; ``names`` lists the units in one line."""
    raw = t2020_spec_raw()
    assert _sections(raw)["参赛单位"][0] == "以分工会为单位参赛，队长由分工会干事担任："
    no_captains = {**raw, "units": [{k: v for k, v in u.items() if k != "captain"} for u in raw["units"]]}
    assert _sections(no_captains)["参赛单位"][:2] == ["以分工会为单位参赛：", "第一队：行政第一分工会；"]
    names = {**raw, "unit_word": "部门", "notice_units": {"listing": "names"}}
    assert _sections(names)["参赛单位"] == [
        "以部门为单位参赛：", "行政第一分工会、行政第二分工会、基础教学部分工会、机电工程学院分工会。"]
    none = {**raw, "notice_units": {"heading": "参加人员", "listing": "none"}}
    assert _sections(none)["参加人员"] == ["以分工会为单位报名参赛。"]
    with pytest.raises(Exception):
        validated(TournamentSpec, {**raw, "notice_units": {"listing": "captains"}})


# -- rules of play (比赛办法) ------------------------------------------------------------------
def test_R2011_F1_F3_xiangqi_states_its_points_and_time_control():
    """胜得3分，平1分，输0分 (R2011-F1); 每局不超过1小时，每着不超过十五秒 (R2011-F3)."""
    line = _rules(_raw("t2011-court"), "中国象棋")
    assert line.endswith("胜得3分，平1分，输0分；每局比赛时间不超过1小时，每方走一着棋的时间原则上不得超过15秒；"
                         "落子无悔；每场一局定胜负。"), line


def test_R2011_D1_D2_doudizhu_states_its_time_base_points_bids_and_early_end():
    line = _rules(_raw("t2011-court"), "斗地主")
    for words in ("每轮比赛每桌最长进行2小时", "基础分为10分", "叫牌时可以叫“1分”、“2分”、“3分”",
                  "如地主胜，地主得2分，其余两家各得-1分；如地主败，地主得-2分，其余两家各得1分",
                  "得分×2", "桌面每出一个炸弹或火箭翻一倍", "比赛中如有选手输完基础分，该桌比赛即结束"):
        assert words in line, (words, line)
    assert "初始分为1分" not in line        # that is T2020's scoring


def test_R2020_D3_doudizhu_states_its_scoring_and_keeps_the_time_limit():
    line = _rules(_raw("t2020-league"), "斗地主")
    assert "前一轮各桌第二名列其后。比赛时间限定30分钟；叫地主玩法初始分为1分，每出一个炸弹或者火箭翻一倍" in line, line
    assert "（留在手里没有出去的火箭和炸弹不算）" in line and "春天" in line and "反春天" in line
    assert "基础分" not in line and "叫牌时可以叫" not in line and "得-1分" not in line   # T2011's


def test_T2020_board_and_shuangsheng_rules_unchanged():
    """R2020-F2/F3 as the notice stated them before: nothing added to 象棋, 跳棋 or 双升."""
    raw = _raw("t2020-league")
    assert _rules(raw, "象棋").endswith("排列其后。落子无悔；每场一局定胜负。")
    assert _rules(raw, "跳棋").endswith("排列其后。落子无悔；每场三局两胜。")
    assert _rules(raw, "双升").endswith("排列其后。比赛时间限定30分钟；到时级数高者胜出，积3分，负者积1分；"
                                      "双方同级时，庄家一方获胜，积2分，对方积1分。")


def test_R2016_F4_S1_guandan_states_who_wins_at_time_and_the_score_table():
    """… and what a bye scores (52 in 总积分: the notice said only who had it, from an audit).
    The score by level difference is the table printed below the line (R2016-S1)."""
    line = _rules(_raw("t2016-poker"), "扑克牌")
    assert line.endswith("比赛时间限定50分钟；过A不再打；裁判宣布时间到，已开打的牌可以打完，级数领先者为胜方，"
                         "双方级数相同，以台上者为胜方；根据每局比赛结束后双方的结果，按级差计分（见下表）；"
                         "一方过A时，过A方按比A高一级计算级差（对方在A为一级，对方在K为二级）；"
                         "队数为奇数时，轮空的一队本轮计52分（同级胜方的得分）。"), line


def test_R2016_S1_the_notice_prints_the_level_difference_score_table():
    """附件2 rule 2 says 级差计分表见本通知“比赛办法”: the section printed only a formula.  The
    seed's table — 比赛结果 | 台上台下 | 一级 … 十二级, 胜方得分 52 … 100, 负方得分 48 … 0 — follows
    the 掼蛋 line, its numbers the game's round score (:func:`pipeline.games.guandan.round_score`)."""
    from pipeline.games.guandan import round_score
    from pipeline.render.docs import plan_documents, render_html

    state = _state(_raw("t2016-poker"))
    (sec,) = [s for s in vms.notice_vm(state).sections if s.heading.endswith("比赛办法")]
    at = next(i for i, p in enumerate(sec.paragraphs) if "）扑克牌：" in p)
    (t,) = sec.after[at]
    assert t.caption == "级差计分表"
    assert t.head == ["比赛结果", "台上\n台下"] + [f"{vms.cn_number(d)}级" for d in range(1, 13)]
    assert t.rows == [["胜方得分", *(str(round_score(d)[0]) for d in range(13))],
                      ["负方得分", *(str(round_score(d)[1]) for d in range(13))]]
    assert t.rows[0][1:3] == ["52", "56"] and t.rows[0][-1] == "100" and t.rows[1][1] == "48" and t.rows[1][-1] == "0"
    assert sec.tables == []
    html = render_html(next(d for d in plan_documents(state) if d.stem == "notice"))
    section = html[html.index("比赛办法</h2>"):]
    section = section[:section.index("<h2>")]
    assert section.index("按级差计分（见下表）") < section.index("<caption>级差计分表</caption>")
    assert ">100</td>" in section and ">负方得分</td>" in section


def test_R2016_S1_the_notice_says_how_a_past_A_table_is_scored():
    """The notice said only 过A不再打, the 级差计分表 going by levels: a referee scoring by hand
    read a 过A at A against A as 台上台下 (52:48) where the program scores 56:44 (the side past A
    one level above A — handbook 掼蛋, R2016-S1).  The line after the table's says so, its
    examples the program's own level differences, under the table's 一级/二级 columns."""
    from pipeline.games.guandan import level_difference, LEVEL_A, round_score
    from pipeline.render.docs import plan_documents, render_html

    line = _rules(_raw("t2016-poker"), "扑克牌")
    assert "过A方按比A高一级计算级差（对方在A为一级，对方在K为二级）" in line, line
    assert level_difference(LEVEL_A, LEVEL_A, 0) == 1 and level_difference(LEVEL_A - 1, LEVEL_A, 1) == 2
    assert round_score(level_difference(LEVEL_A, LEVEL_A, 0)) == (56, 44)
    state = _state(_raw("t2016-poker"))
    html = render_html(next(d for d in plan_documents(state) if d.stem == "notice"))
    section = html[html.index("比赛办法</h2>"):]
    section = section[:section.index("<h2>")]
    assert section.index("按级差计分（见下表）") < section.index("过A方按比A高一级") < section.index("<caption>级差计分表</caption>")


def test_R2015_C4_shuangkou_states_who_wins_the_round_and_no_points_of_its_own():
    raw = _raw("t2015-tcm")
    assert _rules(raw, "双扣").endswith("比赛时间限定40分钟；最先打过A的队或级数高的队获胜；"
                                      "如时间到比赛双方级数相同，则依据最后一盘比赛的盘面分数判定胜负。")
    # the document states no points and no time control for Go or Xiangqi: none is invented
    for name in ("围棋", "中国象棋", "双扣"):
        line = _rules(raw, name)
        assert "胜得" not in line and "每局比赛时间" not in line, line


def test_points_are_stated_only_when_the_event_sets_them():
    """The program's 2/1/0 (half-points ×2) are no client's: stated only when the spec sets
    points (R2011-F1), with the game's defaults for the keys it leaves out."""
    from pipeline.spec import EventSpec, FormatSpec

    def ev(game: str, **kw) -> EventSpec:
        return EventSpec(id=game, name=game, game=game, format=FormatSpec(type="round_robin"), **kw)
    assert vms._play_rules(ev("go")) == "落子无悔；每场一局定胜负。"
    assert vms._play_rules(ev("go", points={"bye": 0})) == "落子无悔；每场一局定胜负。"
    assert vms._play_rules(ev("go", points={"win": 3})) == "胜得3分，平1分，输0分；落子无悔；每场一局定胜负。"
    assert vms._play_rules(ev("xiangqi", game_options={"move_seconds": 30})) == \
        "每方走一着棋的时间原则上不得超过30秒；落子无悔；每场一局定胜负。"
    assert vms._play_rules(ev("xiangqi", game_options={"game_minutes": 90})) == \
        "每局比赛时间不超过90分钟；落子无悔；每场一局定胜负。"


# -- the time options are read, so checked ------------------------------------------------
@pytest.mark.parametrize("game,fmt,options,words", [
    ("xiangqi", "round_robin", {"game_minutes": "一小时"}, ["game_minutes", "大于 0 的整数"]),
    ("xiangqi", "round_robin", {"move_second": 15}, ["是不是 move_seconds"]),
    ("doudizhu", "tables_of_three", {"round_minutes": 0}, ["round_minutes", "大于 0 的整数"]),
])
def test_a_time_option_the_notice_prints_is_checked(game, fmt, options, words):
    raw = t2020_spec_raw()
    raw["events"] = [{**raw["events"][0], "game": game, "format": {"type": fmt}, "game_options": options}]
    with pytest.raises(SpecError) as e:
        parse_spec(raw)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_notes_beside_the_time_options_are_still_notes():
    """hand_minutes beside 斗地主's round_minutes, game_seconds beside move_seconds: other
    words, not typos (more than two letters off)."""
    raw = t2020_spec_raw()
    raw["events"] = [{**raw["events"][0], "game": "doudizhu", "format": {"type": "tables_of_three"},
                      "game_options": {"hand_minutes": 10, "round_minutes": 120}},
                     {**raw["events"][1], "id": "xq", "name": "象棋2", "game": "xiangqi", "team_size": 1,
                      "game_options": {"game_seconds": 30, "best_of": 1}}]
    parse_spec(raw)
