"""R2011-R1 (迟到15分钟取消参赛资格: a forfeit) in the place-deciding stages — the office's
decision where the rules are silent (handbook 缺席、弃权和退赛): an entrant who lost a knockout
match or a table of three by their own absence (the absent side of 甲方/乙方弃权, both sides of
双方弃权, the absent seat of a 斗地主 table) has no place and no award.  The place stays vacant
(``Placement.vacant``: the absentee stands on it, nobody below moves up); a double forfeit in
a knockout lets the opponent in the next match through without playing (a walkover, not a
bye), the losers left play for third (R2011-F2; a lone one takes it by walkover), and the
event completes.  Pure: draw and placement level, no workbook."""
from __future__ import annotations

import random

from pipeline.draw import FORMATS
from pipeline.draw.common import bye_counts, is_walkover
from pipeline.model import MatchResult, Outcome, SideResult
from pipeline.score import AWARD_SCHEMES
from pipeline.spec import AwardSpec

from .helpers import bye_result, make_entries, new_state

#: R2011-A1 as the t2011 sample gives it
A1 = AwardSpec(scheme="ranked", prizes={"第一名": 300, "第二名": 200, "第三名": 100},
               extra={"places": [{"award": "第一名", "count": 1}, {"award": "第二名", "count": 1},
                                 {"award": "第三名", "count": 1}]})

WIN = (SideResult(Outcome.WIN, 3), SideResult(Outcome.LOSS, 0))
BOTH_ABSENT = (SideResult(Outcome.ABSENT), SideResult(Outcome.ABSENT))
FIRST_ABSENT = (SideResult(Outcome.FORFEIT_LOSS, 0), SideResult(Outcome.FORFEIT_WIN, 3))   # 甲方弃权


def _result(st, rnd, outcomes):
    """Publish ``rnd`` with each played table's result: ``outcomes(i, match)`` → its sides
    (the lower id wins when it returns None)."""
    st.rounds.append(rnd)
    played = [m for m in rnd.matches if not m.bye]
    for m in rnd.matches:
        if m.bye:
            st.results[m.key] = bye_result(m)
            continue
        sides = outcomes(played.index(m), m)
        if sides is None:
            sides = WIN if m.sides[0] == min(m.sides) else WIN[::-1]
        st.results[m.key] = MatchResult(m, sides)


def _to_knockout(groups: int, seed: int = 1):
    """groups_knockout of 4 × ``groups`` entries (group winners advance), the group stage
    played (the lower id wins): (format, state, rng, the first knockout round, not published)."""
    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(4 * groups, 4 * groups), {"groups": groups, "advance": 1, "third_place": True})
    rng = random.Random(seed)
    while True:
        r = fmt.next_round(st, rng)
        if r.plan["kind"] != "group":
            return fmt, st, rng, r
        _result(st, r, lambda i, m: None)


def _awards(pl, st):
    rows, _ = AWARD_SCHEMES.get("ranked").assign(A1, pl, st.entries, event="xiangqi")
    return rows


def test_R2011_F2_R2011_R1_a_semi_final_both_absent_gives_a_walkover_final_and_third_place():
    """The audit's case: one semi-final 双方弃权, the other played.  The event ended there
    ("已完成", no final, no word), 第二名 went to the other semi's loser and 第三名 ¥100 to one
    of the two absent players.  Now the other semi's winner takes the final by walkover, its
    loser the third place by walkover; 第二名 stays vacant, and neither absentee is awarded."""
    fmt, st, rng, semi = _to_knockout(4)
    assert semi.stage_name.startswith("半决赛") and len([m for m in semi.matches if not m.bye]) == 2
    _result(st, semi, lambda i, m: BOTH_ABSENT if i == 0 else None)
    gone = set(semi.matches[0].sides)
    w, lost = min(semi.matches[1].sides), max(semi.matches[1].sides)

    final = fmt.next_round(st, rng)
    assert final is not None and final.plan["final"], "a semi-final forfeited by both ended the event"
    assert [m for m in final.matches if not m.bye] == []                 # nothing to play
    walk = {m.group: m for m in final.matches if m.bye}
    assert walk[""].sides == (w,) and is_walkover(walk[""]) and "不战而胜" in walk[""].note
    assert walk["三四名"].sides == (lost,) and is_walkover(walk["三四名"])
    assert any("双方弃权" in n or "均弃权" in n for n in final.notes), final.notes
    _result(st, final, lambda i, m: None)
    assert fmt.next_round(st, rng) is None                             # the event completes

    pl = sorted(fmt.placements(st), key=lambda p: p.rank)
    by_rank = {p.rank: p for p in pl}
    assert by_rank[1].entry == w and not by_rank[1].vacant
    assert by_rank[2].vacant and by_rank[2].entry in gone               # 第二名 空缺: nobody moved up
    assert by_rank[3].entry == lost and not by_rank[3].vacant
    assert by_rank[4].vacant and by_rank[4].entry in gone
    assert {p.entry for p in pl if p.vacant} == gone
    rows = _awards(pl, st)
    assert [(r.award, r.entry, r.vacant, r.prize) for r in rows] == [
        ("第一名", w, False, 300), ("第二名", "", True, 0), ("第三名", lost, False, 100)]


def test_R2011_R1_a_finalist_absent_leaves_second_place_vacant():
    """The final entered 甲方弃权: the absent finalist got 第二名 ¥200.  Now the place is
    vacant; the third-place match's winner stays 第三名."""
    fmt, st, rng, semi = _to_knockout(4)
    _result(st, semi, lambda i, m: None)
    final = fmt.next_round(st, rng)
    real = next(m for m in final.matches if m.group == "")
    third = next(m for m in final.matches if m.group == "三四名")
    _result(st, final, lambda i, m: FIRST_ABSENT if m is real else None)
    assert fmt.next_round(st, rng) is None
    pl = {p.rank: p for p in fmt.placements(st)}
    assert pl[1].entry == real.sides[1] and not pl[1].vacant
    assert pl[2].entry == real.sides[0] and pl[2].vacant and "决赛" in pl[2].tier and "弃权" in pl[2].tier
    assert pl[3].entry == min(third.sides) and not pl[3].vacant
    rows = _awards(list(pl.values()), st)
    assert [(r.award, r.entry or "空缺") for r in rows] == [("第一名", real.sides[1]), ("第二名", "空缺"),
                                                          ("第三名", min(third.sides))]
    assert real.sides[0] not in {r.entry for r in rows}


def test_R2011_R1_a_final_both_absent_leaves_first_and_second_vacant():
    fmt, st, rng, semi = _to_knockout(4)
    _result(st, semi, lambda i, m: None)
    final = fmt.next_round(st, rng)
    real = next(m for m in final.matches if m.group == "")
    _result(st, final, lambda i, m: BOTH_ABSENT if m is real else None)
    assert fmt.next_round(st, rng) is None
    pl = {p.rank: p for p in fmt.placements(st)}
    assert {pl[1].entry, pl[2].entry} == set(real.sides) and pl[1].vacant and pl[2].vacant
    assert not pl[3].vacant and not pl[4].vacant
    assert [r.vacant for r in _awards(list(pl.values()), st)] == [True, True, False]


def test_R2011_F2_R2011_R1_a_quarter_final_both_absent():
    """8 qualifiers: one quarter-final 双方弃权.  Its neighbour's winner goes through its
    semi-final by walkover (not a bye: :func:`bye_counts`); that semi's loser place — the
    third-place match's other side — is vacant (4th), as is one quarter-final loser's place (8th)."""
    fmt, st, rng, qf = _to_knockout(8)
    assert qf.stage_name.startswith("四分之一决赛")
    _result(st, qf, lambda i, m: BOTH_ABSENT if i == 1 else None)
    gone = set([m for m in qf.matches if not m.bye][1].sides)
    semi = fmt.next_round(st, rng)
    walks = [m for m in semi.matches if m.bye]
    assert len(walks) == 1 and is_walkover(walks[0]) and bye_counts([semi])[walks[0].sides[0]] == 0
    _result(st, semi, lambda i, m: None)
    final = fmt.next_round(st, rng)
    third = next(m for m in final.matches if m.group == "三四名")
    assert third.bye and is_walkover(third)
    _result(st, final, lambda i, m: None)
    assert fmt.next_round(st, rng) is None
    pl = sorted(fmt.placements(st), key=lambda p: (p.rank, p.entry))
    assert [p.vacant for p in pl[:9]] == [False, False, False, True, False, False, False, True, False]
    assert (pl[3].rank, pl[7].rank) == (4, 8) and {pl[3].entry, pl[7].entry} == gone


def _knockout_to_the_pool(absent_table: int):
    """R2020-F1 (knockout, final pool of 3) of 12 entries; in the round that leaves three (6→3)
    table ``absent_table``'s first side is absent (甲方弃权).  Played to the end (lower id wins)."""
    fmt = FORMATS.get("knockout")
    st = new_state(make_entries(12, 12), {"final_pool": 3})
    rng = random.Random(3)
    while (r := fmt.next_round(st, rng)) is not None:
        last_ko = r.plan.get("kind") == "ko" and len(r.plan["alive"]) == 6
        _result(st, r, lambda i, m: FIRST_ABSENT if last_ko and i == absent_table else None)
        if last_ko:
            gone = [m for m in r.matches if not m.bye][absent_table].sides[0]
    return fmt, st, gone


def test_R2011_R1_R2020_A1_a_knockout_loser_by_absence_has_no_third_prize():
    """R2020-A1: the three losers of the 6→3 round receive the 三等奖.  One who lost it by not
    coming has none: the place is vacant (the last of that round's), nobody below moves up,
    and no 决赛参与奖 (``rest``) either."""
    fmt, st, gone = _knockout_to_the_pool(1)
    pl = sorted(fmt.placements(st), key=lambda p: p.rank)
    (vac,) = [p for p in pl if p.vacant]
    assert vac.entry == gone and vac.rank == 6 and "弃权" in vac.tier
    awards = AwardSpec(scheme="ranked", extra={"places": [{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2},
                                                          {"award": "三等奖", "count": 3}], "rest": "决赛参与奖"})
    rows, _ = AWARD_SCHEMES.get("ranked").assign(awards, pl, st.entries, event="xiangqi")
    third = [r for r in rows if r.award == "三等奖"]
    assert len(third) == 3 and [r.vacant for r in third] == [False, False, True]
    assert gone not in {r.entry for r in rows}
    assert pl[6].entry not in {r.entry for r in third}          # the 7th is not promoted


def _doudizhu_final(final_row):
    """t2011's 斗地主 (tables of three, fill bye) of 9 players with the real game: round 1
    18/9/3 at every table, then the final table as given."""
    from pipeline.games import GAMES
    from pipeline.games.base import ResultRow
    from pipeline.score.standings import rank_fn

    game, fmt = GAMES.get("doudizhu"), FORMATS.get("tables_of_three")
    st = new_state(make_entries(9, 9), {"fill": "bye"})
    st.rank = rank_fn(["game_points", "playoff"], st.results, [])
    rng = random.Random(7)
    opts = {"start_points": 10, "scoring": "R2011"}

    def play(rnd, rows):
        st.rounds.append(rnd)
        rows = [ResultRow(m, v if isinstance(v, dict) else dict(zip(("甲得分", "乙得分", "丙得分"), v)))
                for m, v in zip([m for m in rnd.matches if not m.bye], rows)]
        results, problems = game.parse_round(rnd, rows, {}, opts)
        assert not problems, problems
        st.results.update({r.match.key: r for r in results})
        st.results.update({m.key: bye_result(m) for m in rnd.matches if m.bye})

    play(fmt.next_round(st, rng), [(18, 9, 3)] * 3)
    final = fmt.next_round(st, rng)
    assert final.plan["kind"] == "final"
    play(final, [final_row])
    assert fmt.next_round(st, rng) is None
    return fmt, st, final.matches[0]


def test_R2011_R1_R2020_D2_an_absent_seat_at_the_final_table_leaves_its_place_vacant():
    """The audit's 斗地主 final with 丙 弃权: the absent player got 第三名 ¥100 as 决赛桌第3名."""
    fmt, st, m = _doudizhu_final({"甲得分": 12, "乙得分": 8, "弃权": "丙"})
    pl = {p.rank: p for p in fmt.placements(st)}
    assert (pl[1].entry, pl[2].entry, pl[3].entry) == m.sides
    assert not pl[1].vacant and not pl[2].vacant and pl[3].vacant and "弃权" in pl[3].tier
    assert not pl[4].vacant                                   # round 1 placed as before
    rows = _awards(list(pl.values()), st)
    assert [(r.award, r.entry, r.prize) for r in rows] == [("第一名", m.sides[0], 300), ("第二名", m.sides[1], 200),
                                                          ("第三名", "", 0)]
    assert rows[2].vacant and rows[2].team == "空缺"


def test_R2011_R1_walkovers_are_not_byes():
    """A walkover (the opponent's match was forfeited by both) is shown like a bye but is no
    bye for the rules that share byes out (R2020-F1 晋级签, R2020-D1 fill: bye)."""
    from pipeline.model import WALKOVER
    from pipeline.model import Match, Round

    r = Round("e", "ko", "半决赛", 3, (Match("e", "ko", 3, "", 1, ("a",), bye=True, note=f"{WALKOVER}（对手空缺）"),
                                     Match("e", "ko", 3, "", 2, ("b",), bye=True, note="晋级签")))
    assert bye_counts([r]) == {"b": 1}


def test_R2011_R1_a_walkover_withdrawn_from_before_its_round_is_complete_goes_no_further():
    """Handbook 缺席、弃权和退赛 with R2011-R1: a quarter-final 双方弃权 gives its neighbour ``x``
    a walkover into the semi-finals, and the office withdraws ``x`` before that round is
    complete.  A walkover is no bye, but so held it is not scored either (the runner's result
    for it an absence, as for a 晋级签: pipeline.run.EventRunner.unscored_byes): ``x`` goes no
    further — the other semi-final's winner walks over the final, its loser the third-place
    match, and the notes say ``x`` withdrew (not that a match was forfeited by both).  ``x``
    is placed with the semi-finals' losers, on a place of its own: a withdrawal is the
    office's decision, no absence — only the two absentees stand on vacant places."""
    from pipeline.draw.common import winner_of

    fmt, st, rng, qf = _to_knockout(8)
    played = [m for m in qf.matches if not m.bye]
    assert len(played) == 4
    _result(st, qf, lambda i, m: BOTH_ABSENT if i == 0 else None)
    absentees = set(played[0].sides)
    semi = fmt.next_round(st, rng)
    [walk] = [m for m in semi.matches if m.bye]
    assert is_walkover(walk)
    x = walk.sides[0]
    st.rounds.append(semi)
    st.withdrawn = frozenset({x})
    st.results[walk.key] = MatchResult(walk, (SideResult(Outcome.ABSENT),))     # (unscored_byes)
    [real] = [m for m in semi.matches if not m.bye]
    w, lost = min(real.sides), max(real.sides)
    st.results[real.key] = MatchResult(real, WIN if real.sides[0] == w else WIN[::-1])
    assert winner_of(st, walk) is None

    final = fmt.next_round(st, rng)
    assert final is not None and x not in final.entries()
    walks = {m.group: m for m in final.matches if m.bye}
    assert walks[""].sides == (w,) and walks["三四名"].sides == (lost,) and not [m for m in final.matches if not m.bye]
    said = "".join(final.notes)
    assert f"{shown_name(st, x)}已退赛：{shown_name(st, w)}的决赛对手空缺" in said, final.notes
    assert f"另一场半决赛是{shown_name(st, x)}的不战而胜，{shown_name(st, x)}已退赛：三四名决赛" in said, final.notes
    _result(st, final, lambda i, m: None)
    assert fmt.next_round(st, rng) is None

    pl = {p.entry: p for p in fmt.placements(st)}
    assert pl[w].rank == 1 and pl[lost].rank == 3
    assert not pl[x].vacant and pl[x].tier == "半决赛负者" and pl[x].rank == 4
    assert {e for e, p in pl.items() if p.vacant} == absentees
    rows = _awards(list(pl.values()), st)
    assert x not in {r.entry for r in rows if r.vacant}


def shown_name(st, entry: str) -> str:
    return next(e.team for e in st.entries if e.id == entry)
