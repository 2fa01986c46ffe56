"""R2020-D2 with fewer round-2 tables than 三等奖 places: a table's two level runners-up are
played off only when the 加赛 changes who gets which award (handbook 加赛表: 同属一个奖项的
几个名次可以不分先后), and a runner-up whose co-tied player was revived into the final table
is that table's 2nd alone, not one of a tie."""
from __future__ import annotations

import random

from pipeline.draw import FORMATS
from pipeline.model import Playoff

from .helpers import EVENT, bye_result, make_entries, new_state

_AWARDS = {"一等奖": 1, "二等奖": 2, "三等奖": 3}


def _twelve_to_the_final(round2=((6, -3, -3), (6, -3, -3)), seed=3):
    """12 players of 斗地主 (tables of three, revival): round 1 4 tables (12/-3/-9), 2 winners
    revived → round 2 two tables as given → 2 winners + 1 revived by lot → final 9/3/-12.
    Returns (state, the 加赛 list the rank function reads, round 2's tables, the revived)."""
    from pipeline.games import GAMES
    from pipeline.games.base import ResultRow
    from pipeline.score.standings import rank_fn

    game, fmt = GAMES.get("doudizhu"), FORMATS.get("tables_of_three")
    st = new_state(make_entries(12, branches=12), {"fill": "revival"})
    playoffs: list = []
    st.rank = rank_fn(["game_points", "playoff"], st.results, playoffs)
    rng = random.Random(seed)

    def play(rnd, rows):
        st.rounds.append(rnd)
        rows = [ResultRow(m, dict(zip(("甲得分", "乙得分", "丙得分"), v)))
                for m, v in zip([m for m in rnd.matches if not m.bye], rows)]
        results, problems = game.parse_round(rnd, rows, {}, {})
        assert not problems
        st.results.update({r.match.key: r for r in results})
        st.results.update({m.key: bye_result(m) for m in rnd.matches if m.bye})

    play(fmt.next_round(st, rng), [(12, -3, -9)] * 4)
    r2 = fmt.next_round(st, rng)
    assert sum(not m.bye for m in r2.matches) == 2
    play(r2, list(round2))
    final = fmt.next_round(st, rng)
    assert final.plan["kind"] == "final" and len(final.plan["revived"]) == 1
    play(final, [(9, 3, -12)])
    return st, playoffs, [m.sides for m in r2.matches if not m.bye], final.plan["revived"][0]


def _awards(places, rest=""):
    from pipeline.spec import AwardSpec

    return AwardSpec(scheme="ranked", extra={"places": [{"award": a, "count": n} for a, n in places.items()]}
                     | ({"rest": rest} if rest else {}))


def _split(tables, revived):
    """(the table whose level 2nd went on to the final, the runner-up left there, the other
    table's two level 2nd)."""
    mine = next(t for t in tables if revived in t)
    alone = next(s for s in mine[1:] if s != revived)
    pair = next(t for t in tables if revived not in t)[1:]
    return mine, alone, pair


def test_R2020_D2_level_runners_up_sharing_one_award_either_way_are_not_played_off():
    """Two round-2 tables, 三等奖 3: the non-finalist runners-up fill places 4–6, all 三等奖,
    whoever wins table 2's 加赛.  The run asked for it anyway (第2轮第2桌第2名 … 并列（三等奖只能
    由其中一人获得）) and gave both the 三等奖 after it.  No 加赛 now: the pair stays level
    (第5–6名同为三等奖), every one of the three gets the 三等奖, nothing waits."""
    from pipeline.score import AWARD_SCHEMES

    fmt, scheme = FORMATS.get("tables_of_three"), AWARD_SCHEMES.get("ranked")
    st, _, tables, revived = _twelve_to_the_final()
    _, alone, pair = _split(tables, revived)
    for awards in (_awards(_AWARDS), _awards(_AWARDS, rest="决赛参与奖")):
        pl = fmt.placements(st)
        assert scheme.undecided(awards, pl) == []
        rows, problems = scheme.assign(awards, pl, st.entries)
        assert not problems
        assert {r.entry for r in rows if r.award == "三等奖"} == {alone, *pair}


def test_R2020_D2_a_runner_up_whose_level_co_runner_up_went_to_the_final_stands_alone():
    """The table's other level 2nd was revived into the final table: the one left is his
    table's runner-up alone — labelled 第2轮第2名 (not the tie label 第2轮第1桌第2名), not tied,
    placed before the other table's level pair — and stays so after that pair's 加赛 (the
    run put him 5th behind its winner)."""
    from pipeline.layout import FINAL_PLACES

    fmt = FORMATS.get("tables_of_three")
    st, playoffs, tables, revived = _twelve_to_the_final()
    _, alone, pair = _split(tables, revived)
    by = {p.entry: p for p in fmt.placements(st)}
    assert by[revived].rank <= 3
    assert (by[alone].rank, by[alone].tier, by[alone].tied) == (4, "第2轮第2名", False)
    assert {(by[s].rank, by[s].tied) for s in pair} == {(5, True)}
    playoffs.append(Playoff(EVENT, FINAL_PLACES, "", (pair[1], pair[0])))     # played anyway
    by = {p.entry: p for p in fmt.placements(st)}
    assert (by[alone].tier, by[alone].tied) == ("第2轮第2名", False)
    assert by[pair[1]].tier == "第2轮第2名" and by[pair[0]].rank == 6 and not by[pair[0]].tied
    assert by[alone].rank in (4, 5) and by[pair[1]].rank in (4, 5)


def test_R2020_D2_level_runners_up_across_an_award_boundary_are_still_played_off():
    """The same event with 三等奖 2: places 4–5 bear it, 6 none — the pair's 加赛 decides who of
    them gets it, and is asked (truly: only one of them can get it); after it, the winner does."""
    from types import SimpleNamespace

    from pipeline.layout import FINAL_PLACES
    from pipeline.run import _tie_notes
    from pipeline.score import AWARD_SCHEMES

    fmt, scheme = FORMATS.get("tables_of_three"), AWARD_SCHEMES.get("ranked")
    st, playoffs, tables, revived = _twelve_to_the_final()
    mine, alone, pair = _split(tables, revived)
    awards = _awards({"一等奖": 1, "二等奖": 2, "三等奖": 2}, rest="决赛参与奖")
    pl = fmt.placements(st)
    pending = scheme.undecided(awards, pl)
    assert [(ids, kinds) for _, _, ids, kinds in pending] == [(tuple(sorted(pair)), ("三等奖",))]
    ev = SimpleNamespace(ties=[(FINAL_PLACES, g, ids) for g, _, ids, _ in pending],
                         spec=SimpleNamespace(awards=awards), placements=pl)
    table = 1 + tables.index(next(t for t in tables if revived not in t))
    assert [said for said, _ in _tie_notes(ev).values()] == [f"第2轮第{table}桌第2名并列（三等奖只能由其中一人获得）"]
    playoffs.append(Playoff(EVENT, FINAL_PLACES, "", (pair[1], pair[0])))
    pl = fmt.placements(st)
    assert scheme.undecided(awards, pl) == []
    rows, problems = scheme.assign(awards, pl, st.entries)
    assert {r.entry for r in rows if r.award == "三等奖"} == {alone, pair[1]} and not problems
    assert {r.award for r in rows if r.entry == pair[0]} == {"决赛参与奖"}
