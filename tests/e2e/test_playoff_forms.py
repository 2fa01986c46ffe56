"""The office answers each 加赛 on the form the run writes in forms/ (the handbook's way):
R2011-F1 — every tie asked for is on the form of the night, and a complete sheet of an
earlier tie is never called half-filled because one of its players is tied again."""
from __future__ import annotations

import datetime as dt
import random
import tempfile
from pathlib import Path

import openpyxl

from pipeline import layout as L
from pipeline import newleague
from pipeline.run import RunOptions, playoff_form_name, run
from pipeline.spec import load_tournament

from tests.newleague.batch import LATER, play_to_completion, samples
from tests.newleague.helpers import fill_registrations
from tests.newleague.test_combinations import answers_for, spread

DRAWN = {"结果": "和棋", "原因": "议和"}
WON = {"结果": "甲胜", "原因": "认输"}


def _league(tmp_path: Path, fmt: str, n: int, seed: int, game: str = "xiangqi") -> Path:
    league = [((game, fmt), n, "open")]
    folder = tmp_path / "prop"
    newleague.create(folder, answers=answers_for(league, "名次奖"))
    rng = random.Random(seed)
    fill_registrations(folder, rng, plan=spread(folder, league, rng))
    return folder


def _nights_with_ties(t, folder, out, inbox, state, row_of, done):
    """Run night after night (at most 15), filling every round's result sheet with
    ``row_of``; yield ``(night, report, the xiangqi event)`` on each night that waits for a
    加赛 (the caller answers its form), until a night waits for nothing.  ``state["ev"]``
    is the event as of the latest night, and the caller's ``report``/``ev`` the last yielded."""
    for k in range(1, 16):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
        ev = state["ev"] = report.state.events["xiangqi"]
        if _fill_results(t, out, inbox, report.state, row_of, done):
            continue
        if not ev.ties:
            state["report"] = report
            return
        yield k, report, ev


def _fill_results(t, out: Path, inbox: Path, state, row_of, done: set[str]) -> int:
    """Fill each new result workbook with ``row_of(match)`` and mail it in."""
    ms = samples()
    n = 0
    for p in sorted((out / t.spec.id / "results").glob("*.xlsx")):
        if p.name in done:
            continue
        wb = openpyxl.load_workbook(p)
        meta = {str(r[0].value): r[1].value for r in wb[L.META_SHEET].iter_rows(min_col=1, max_col=2) if r[0].value}
        ev = state.events[str(meta[L.META_EVENT])]
        rnd = next(r for r in ev.rounds if r.round == int(meta[L.META_ROUND]))
        ws = wb[L.RESULT_SHEET]
        hrow, col = ms.header(ws, "桌号")
        for r in range(hrow + 1, ws.max_row + 1):
            table = ws.cell(r, col["桌号"]).value
            group = ws.cell(r, col["组别"]).value if "组别" in col else None
            m = next((m for m in rnd.matches if table not in (None, "") and m.table == int(table)
                      and (m.group or "") == (group or "")), None)
            if m is None or m.bye:
                continue
            for label, value in row_of(m).items():
                ws.cell(r, col[label]).value = value
            for s in ("甲方签名", "乙方签名", "裁判签名"):
                if s in col:
                    ws.cell(r, col[s]).value = "已签"
        with tempfile.TemporaryDirectory() as tmp:
            q = Path(tmp) / p.name
            wb.save(q)
            when = ms.provisional_time(t, len(done))
            ms.mail(inbox / ms.result_mail_name(when, p.stem), "referee@union.example.edu.cn", f"r{rnd.round}", when,
                    [(p.name, q.read_bytes())])
        done.add(p.name)
        n += 1
    return n


def _answer_form(t, out: Path, inbox: Path, ev, k: int, first=None) -> list[str]:
    """Fill forms/<the event's 加赛表> as the office does (名次 1, 2 … in row order, or
    ``first`` placed 1st in its tie) and mail it in; returns the contenders it lists."""
    ms = samples()
    p = out / t.spec.id / "forms" / playoff_form_name(ev.spec.id, ev.rounds)
    wb = openpyxl.load_workbook(p)
    ws = wb[L.PLAYOFF_SHEET]
    meta = {r[0].value: r[1].value for r in wb[L.META_SHEET].iter_rows() if r[0].value}
    hrow, col = ms.header(ws, "参赛者")
    row, listed = hrow + 1, []
    for c in (int(x) for x in str(meta[L.META_TIES]).split(",")):
        labels = [ws.cell(row + i, col["参赛者"]).value for i in range(c)]
        order = sorted(range(c), key=lambda i: labels[i] != first)
        for place, i in enumerate(order, start=1):
            ws.cell(row + i, col["名次"]).value = place
        listed += labels
        row += c
    with tempfile.TemporaryDirectory() as tmp:
        q = Path(tmp) / "x.xlsx"
        wb.save(q)
        ms.mail(inbox / f"playoff-{k}.eml", "referee@union.example.edu.cn", "加赛",
                dt.datetime(2026, 1, 17, 13, k, tzinfo=LATER.tzinfo), [(f"加赛-{k}.xlsx", q.read_bytes())])
    return listed


def test_R2011_F1_a_second_playoff_of_the_round_gets_its_own_form(tmp_path):
    """Every game drawn in 象棋 groups → knockout: the drawn final's 加赛 is answered on
    forms/xiangqi-r4-加赛表.xlsx, then the final places tie (the two 小组第2名, 二等奖 or
    三等奖) — and the form still listed the two finalists: the event waited for good."""
    folder = _league(tmp_path, "groups_knockout", 8, seed=4)
    out, inbox, t = tmp_path / "out", folder / "inbox", load_tournament(folder)
    done: set[str] = set()
    asked: list[set[str]] = []
    for k in range(1, 16):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
        ev = report.state.events["xiangqi"]
        assert not [i.message for i in report.issues if i.code == "BAD_VALUE"]
        if _fill_results(t, out, inbox, report.state, lambda m: DRAWN, done):
            continue
        if not ev.ties:
            break
        names = {e.id: e.team for e in ev.entries}
        listed = _answer_form(t, out, inbox, ev, k)
        assert sorted(listed) == sorted(names[i] for _, _, ids in ev.ties for i in ids), (listed, ev.ties)
        asked.append(set(listed))
    assert ev.complete, ev.waiting
    assert len(asked) >= 2 and asked[0] != asked[-1]
    assert {a.award for a in report.state.awards if a.event == "xiangqi"} >= {"一等奖", "二等奖"}


def test_R2011_F1_a_complete_sheet_is_not_called_half_filled_when_its_winner_draws_again(tmp_path):
    """象棋 knockout: 1st table of round 1 drawn, its 加赛 answered on the issued form; the
    winner's round-2 game drawn too.  The round-1 sheet (complete, another tie) was called
    BAD_VALUE "只给同分的…填了名次" while the event waited for the new 加赛."""
    folder = _league(tmp_path, "knockout", 8, seed=7)
    out, inbox, t = tmp_path / "out", folder / "inbox", load_tournament(folder)
    done: set[str] = set()
    hero: dict[str, str] = {}

    def row_of(m):
        if m.round == 1 and m.table == 1:
            hero["id"] = m.sides[0]
            return DRAWN
        return DRAWN if m.round == 2 and hero.get("id") in m.sides else WON

    answered = 0
    for k in range(1, 16):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
        ev = report.state.events["xiangqi"]
        assert not [i.message for i in report.issues if i.code == "BAD_VALUE"]
        if _fill_results(t, out, inbox, report.state, row_of, done):
            continue
        if not ev.ties:
            break
        names = {e.id: e.team for e in ev.entries}
        _answer_form(t, out, inbox, ev, k, first=names[hero["id"]])
        answered += 1
    assert answered >= 2 and ev.complete, ev.waiting


def test_R2011_F1_the_final_places_playoff_leaves_the_group_tables_as_played(tmp_path):
    """Two level 2nd in each group (no 加赛 for advancing): the final places' 加赛 of the four
    小组第2名 re-ranked the groups' own tables on the site (one 2nd, one 3rd), while their
    placements still gave both 小组第2名."""
    folder = _league(tmp_path, "groups_knockout", 8, seed=6)
    spec = folder / "tournament.yaml"      # the group winners only (2 groups send their top 2 by default)
    spec.write_text(spec.read_text(encoding="utf-8").replace("type: groups_knockout", "type: groups_knockout\n    advance: 1", 1),
                    encoding="utf-8")
    out, inbox, t = tmp_path / "out", folder / "inbox", load_tournament(folder)
    done: set[str] = set()
    state = {}

    def row_of(m):
        if m.stage != "group":
            return WON
        order = state["ev"].rounds[0].plan["groups"][m.group]
        i, j = (order.index(s) for s in m.sides)
        return DRAWN if {i, j} == {1, 2} else WON if i < j else {"结果": "乙胜", "原因": "认输"}

    asked = 0
    for k, report, ev in _nights_with_ties(t, folder, out, inbox, state, row_of, done):
        _answer_form(t, out, inbox, ev, k)
        asked += 1
    ev = state["ev"]
    assert asked and ev.complete, ev.waiting
    groups = [st for st in ev.standings if st.stage == "group"]
    assert len(groups) == 2
    for st in groups:
        assert [r.rank for r in st.rows] == [1, 2, 2, 4], [(r.entry, r.rank) for r in st.rows]
    second = [p for p in ev.placements if p.tier == "小组第2名"]
    assert len(second) == 4 and len({p.rank for p in second}) == 4


def test_R2011_D2_a_final_table_decided_by_its_playoff_hand_shows_no_tie(tmp_path, monkeypatch):
    """斗地主 final table 甲 6, 乙 6, 丙 −12 with 加赛胜者 乙: the placements and awards put 乙
    first, but the 决赛桌 standings showed 甲 and 乙 level at 1, 需加赛 (playoff_required)."""
    monkeypatch.setattr(samples(), "fill_row", lambda game, stage, rng, options: {
        "甲得分": 6, "乙得分": 6, "丙得分": -12, "加赛胜者": "乙"})
    folder = _league(tmp_path, "tables_of_three", 3, seed=5, game="doudizhu")
    played = play_to_completion(folder, tmp_path / "out", seed="5")
    ev = played.state.events["doudizhu"]
    assert ev.complete
    (final,) = [st for st in ev.standings if st.stage == "final"]
    table = ev.rounds[-1].matches[0]
    assert [r.entry for r in final.rows] == [table.sides[1], table.sides[0], table.sides[2]]
    assert [r.rank for r in final.rows] == [1, 2, 3] and not any(r.playoff_required for r in final.rows)
    assert ev.placements[0].entry == table.sides[1]


def test_R2011_A1_groups_standings_under_event_wide_awards_asks_its_playoffs_across_the_groups(tmp_path):
    """围棋 分组积分编排赛 with 名次奖: the 加赛 asked are ties of the same place across the
    groups (the group winners ordered by entry id before), and the groups' own tables do
    not go on showing 需加赛 for ties the final places' 加赛 settled."""
    folder = _league(tmp_path, "groups_standings", 12, seed=1, game="go")
    played = play_to_completion(folder, tmp_path / "out", seed="1")
    ev = played.state.events["go"]
    assert ev.complete, ev.waiting
    assert not [i.message for i in played.issues if i.code == "BAD_VALUE"]
    assert {p.group for p in ev.placements} == {""}
    order = sorted(ev.placements, key=lambda p: p.rank)
    tiers = [int(p.tier.removeprefix("各组第").removesuffix("名")) for p in order]
    assert tiers == sorted(tiers)
    assert not any(r.playoff_required for st in ev.standings for r in st.rows)


def test_R2011_F1_a_group_playoff_is_not_applied_again_to_a_later_tie(tmp_path):
    """Groups → knockout, two advance, no 三四名 match: three level at the top of group A play
    off for its two places (the form of the night); the two who went on both lose their
    semi-finals and are level again for 3rd — the 3rd prize.  The group's 加赛 decided it
    without a word; that tie needs its own 加赛 (PLAYOFF_REQUIRED, the final places' form),
    and only that one settles it."""
    import yaml

    folder = _league(tmp_path, "groups_knockout", 8, seed=4)
    spec = yaml.safe_load((folder / "tournament.yaml").read_text(encoding="utf-8"))
    spec["events"][0]["format"] = {"type": "groups_knockout", "groups": 2, "advance": 2, "third_place": False}
    (folder / "tournament.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    out, inbox, t = tmp_path / "out", folder / "inbox", load_tournament(folder)
    done: set[str] = set()
    state: dict = {}

    def row_of(m):
        groups = state["ev"].rounds[0].plan["groups"]
        if m.stage != "group":          # every player of group A loses in the knockout
            return {"结果": "乙胜", "原因": "认输"} if m.sides[0] in groups["A"] else WON
        order = groups[m.group]
        i, j = (order.index(s) for s in m.sides)
        return WON if j == 3 else {"结果": "乙胜", "原因": "认输"} if i == 3 else DRAWN

    asked: list[tuple] = []
    for k, report, ev in _nights_with_ties(t, folder, out, inbox, state, row_of, done):
        asked.append(tuple(st for st, _, _ in ev.ties))
        if asked[-1][0] == L.FINAL_PLACES:
            po = [i for i in report.issues if i.code == "PLAYOFF_REQUIRED"]
            assert po and "第3名" in po[0].message, [i.message for i in po]
            tied = [p for p in ev.placements if p.rank == 3]
            assert len(tied) == 2 and all(p.tied for p in tied) and {p.tier for p in tied} == {"半决赛负者"}
        _answer_form(t, out, inbox, ev, k)
    assert asked == [("group", "group"), (L.FINAL_PLACES,)], asked
    ev, report = state["ev"], state["report"]
    assert ev.complete, ev.waiting
    assert [a.rank for a in sorted(report.state.awards, key=lambda a: a.rank) if a.event == "xiangqi"][:3] == [1, 2, 3]


def test_R2011_F1_a_night_with_a_tie_pending_compares_its_form_without_importing_openpyxl(tmp_path):
    """run.write_forms: a night on which a 加赛 waits compares the form already in forms/
    with the ties pending (its _meta, read as any workbook) — the run's own process does
    not import openpyxl for that (it did, for the ties' record: a third of the run's
    instructions on a night with one changed workbook)."""
    import subprocess
    import sys

    folder = _league(tmp_path, "groups_knockout", 8, seed=4)
    out, inbox, t = tmp_path / "out", folder / "inbox", load_tournament(folder)
    done: set[str] = set()
    for k in range(1, 16):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
        if not _fill_results(t, out, inbox, report.state, lambda m: DRAWN, done):
            break
    ev = report.state.events["xiangqi"]
    assert ev.ties
    form = out / t.spec.id / "forms" / playoff_form_name("xiangqi", ev.rounds)
    before = form.read_bytes()
    # a night that is not the quick unchanged one: tournament.yaml touched (a comment added)
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text("utf-8") + "\n# 备注\n", "utf-8")
    root = Path(__file__).resolve().parents[2]
    code = ("import sys, datetime as dt; from pathlib import Path; from pipeline.run import RunOptions, run; "
            f"r = run(RunOptions(folder=Path({str(folder)!r}), out_parent=Path({str(out)!r}), pdf=False, "
            f"now=dt.datetime.fromisoformat({LATER.isoformat()!r}))); "
            "print(bool(r.state.events['xiangqi'].ties), 'openpyxl' in sys.modules)")
    done_ = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    pending, imported = done_.stdout.split()
    assert pending == "True" and imported == "False", done_.stdout
    assert form.read_bytes() == before


def test_R2011_D2_a_final_table_all_level_shows_its_playoff_winner_first_and_no_playoff_owed(tmp_path, monkeypatch):
    """斗地主 final table 0/0/0 with 加赛胜者 乙: 乙 is 1st (R2011-D2), the 加赛表 (or one prize
    for both) decides 2nd and 3rd.  The event ended with the right places, but the 决赛桌
    standings still showed all three at 1, 需加赛, the winner last."""
    monkeypatch.setattr(samples(), "fill_row", lambda game, stage, rng, options: {
        "甲得分": 0, "乙得分": 0, "丙得分": 0, "加赛胜者": "乙"})
    folder = _league(tmp_path, "tables_of_three", 3, seed=5, game="doudizhu")
    played = play_to_completion(folder, tmp_path / "out", seed="5")
    ev = played.state.events["doudizhu"]
    assert ev.complete, ev.waiting
    (final,) = [st for st in ev.standings if st.stage == "final"]
    table = ev.rounds[-1].matches[0]
    assert final.rows[0].entry == table.sides[1] and final.rows[0].rank == 1
    place = {p.entry: p.rank for p in ev.placements}
    assert {r.entry: r.rank for r in final.rows} == {e: place[e] for e in table.sides}
    assert [r.rank for r in final.rows] in ([1, 2, 3], [1, 2, 2])
    assert not any(r.playoff_required for r in final.rows)
