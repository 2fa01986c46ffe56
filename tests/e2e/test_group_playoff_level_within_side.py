"""R2011-F1 with R2020-F4 (spec silent; as the final places' 加赛, run.EventRunner.take_level_playoffs):
a group's 加赛 for its advancing places (出线) may leave some of the tied level — a 名次 left
blank beside a given one, or the same 名次 written twice — when it orders them across the
advancement cut: those left level are all on one side of it (all go on, or none does) and the
tiebreak chain orders them if it can.  Only a sheet that leaves the cut itself undecided is an
error, said at its cell in Chinese; it got the old "只给…填了名次" (or 名次相同) error whatever
it left level.

象棋 groups → knockout, 2 groups of 4, 2 go on: the last of each group loses every game, the
other three draw theirs — three level at the top of each group for its two places."""
from __future__ import annotations

import datetime as dt
import tempfile
import time
from pathlib import Path

import openpyxl
import yaml

from pipeline import layout as L
from pipeline.run import RunOptions, playoff_form_name, run
from pipeline.spec import load_tournament

from tests.e2e.test_playoff_forms import DRAWN, WON, _fill_results, _league
from tests.newleague.batch import LATER, samples


def _send_form(t, out: Path, inbox: Path, ev, k: int, places: dict[str, list]) -> dict[str, list[tuple[str, str]]]:
    """Fill the event's 加赛表 in forms/: each group's rows (its 组别 cell) get ``places[group]``
    down its rows (None: left blank); mail it in.  Returns per group its rows' (name, 名次 A1)."""
    ms = samples()
    p = out / t.spec.id / "forms" / playoff_form_name(ev.spec.id, ev.rounds)
    wb = openpyxl.load_workbook(p)
    ws = wb[L.PLAYOFF_SHEET]
    hrow, col = ms.header(ws, "参赛者")
    rows: dict[str, list[tuple[str, str]]] = {}
    for r in range(hrow + 1, ws.max_row + 1):
        name = ws.cell(r, col["参赛者"]).value
        if name:
            rows.setdefault(str(ws.cell(r, col["组别"]).value or ""), []).append((name, ws.cell(r, col["名次"]).coordinate))
    for g, got in places.items():
        for (_, a1), place in zip(rows[g], got):
            ws[a1] = place
    with tempfile.TemporaryDirectory() as tmp:
        q = Path(tmp) / p.name
        wb.save(q)
        ms.mail(inbox / f"playoff-{k}.eml", "referee@union.example.edu.cn", "加赛",
                dt.datetime(2026, 1, 17, 13, k, tzinfo=LATER.tzinfo), [(p.name, q.read_bytes())])
    return rows


def _groups_played_with_three_level(tmp_path: Path):
    """象棋 in 2 groups of 4, 2 going on: the group stage played so that three of each group
    are level at the top (each beats the 4th, the rest drawn).  Returns (folder, out, inbox,
    tournament, the event's state waiting for the 加赛)."""
    folder = _league(tmp_path, "groups_knockout", 8, seed=4)
    spec = yaml.safe_load((folder / "tournament.yaml").read_text(encoding="utf-8"))
    spec["events"][0]["format"] = {"type": "groups_knockout", "groups": 2, "advance": 2, "third_place": False}
    (folder / "tournament.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    out, inbox, t = tmp_path / "out", folder / "inbox", load_tournament(folder)
    done: set[str] = set()
    state: dict = {}

    def row_of(m):
        order = state["ev"].rounds[0].plan["groups"][m.group]
        i, j = (order.index(s) for s in m.sides)
        return WON if j == 3 else {"结果": "乙胜", "原因": "认输"} if i == 3 else DRAWN

    for _ in range(8):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
        ev = state["ev"] = report.state.events["xiangqi"]
        if not _fill_results(t, out, inbox, report.state, row_of, done):
            break
    return folder, out, inbox, t, ev


def test_R2011_F1_a_group_playoff_may_leave_level_those_on_one_side_of_the_cut(tmp_path: Path) -> None:
    folder, out, inbox, t, ev = _groups_played_with_three_level(tmp_path)
    assert [len(ids) for _, _, ids in ev.ties] == [3, 3], ev.ties
    # group A: the first two level (1, 1) and the third blank — both go on; group B: only its
    # first given 1 — its other two stay level for the one place left: the cut is undecided
    rows = _send_form(t, out, inbox, ev, 1, {"A": [1, 1, None], "B": [1, None, None]})
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
    ev = report.state.events["xiangqi"]
    bad = [i for i in report.issues if i.code == "BAD_VALUE"]
    assert len(bad) == 1 and bad[0].severity.value == "error", [i.message for i in bad]
    (msg,) = [i.message for i in bad]
    assert "只给" not in msg and "出线" in msg, msg
    b_names = [n for n, _ in rows["B"]]
    assert f"“{b_names[1]}”、“{b_names[2]}”" in msg and "请按加赛结果为他们填写不同的名次" in msg, msg
    assert (bad[0].sheet, bad[0].cell) == (L.PLAYOFF_SHEET, rows["B"][1][1]), (bad[0].sheet, bad[0].cell)
    assert not any(r.stage == "ko" for r in ev.rounds) and [g for _, g, _ in ev.ties] == ["B"], ev.ties
    assert "出线" in ev.waiting and "（已收到的加赛表" in ev.waiting, ev.waiting
    # group A is no longer waiting: its table has the two level above the third
    (a_table,) = [st for st in ev.standings if st.stage == "group" and st.group == "A"]
    assert [r.rank for r in a_table.rows] == [1, 1, 3, 4] and not any(r.playoff_required for r in a_table.rows)

    # the night's form asks for group B's 加赛 alone; sent with an order across its cut (its
    # last still blank): the knockout is drawn
    # (a second later: a file's receipt is the clock's, to the second, and the later sheet of
    # the same name is the one that counts — two nights within one second tie on it)
    time.sleep(1.1)
    again = _send_form(t, out, inbox, ev, 2, {"B": [1, 2, None]})
    assert list(again) == ["B"] and [n for n, _ in again["B"]] == b_names, again
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
    ev = report.state.events["xiangqi"]
    assert not [i.message for i in report.issues if i.severity.value == "error"], [i.message for i in report.issues if i.severity.value == "error"]
    assert not ev.ties and any(r.stage == "ko" for r in ev.rounds), ev.waiting
    names = {e.id: e.team for e in ev.entries}
    ko = {names[s] for r in ev.rounds if r.stage == "ko" for m in r.matches for s in m.sides}
    a_names = [n for n, _ in rows["A"]]
    assert ko == {a_names[0], a_names[1], b_names[0], b_names[1]}, ko
    # the group's places: the two of A level for 1st, its third alone 3rd (小组第3名)
    third = {names[p.entry] for p in ev.placements if p.tier == "小组第3名"}
    assert {a_names[2], b_names[2]} <= third, third


def test_R2011_F1_a_group_playoff_leaving_level_on_one_side_is_taken_the_nights_after_the_draw(tmp_path: Path) -> None:
    """The sheet is taken every night the group stage is played out, not only the night its
    knockout is drawn: the next night (knockout round open, the event re-run — here a comment
    added to tournament.yaml) it was refused ("只给同分的…填了名次", the group tables 1,1,1,4)."""
    folder, out, inbox, t, ev = _groups_played_with_three_level(tmp_path)
    _send_form(t, out, inbox, ev, 1, {"A": [1, 1, None], "B": [1, 1, None]})
    p = folder / "tournament.yaml"
    for night, now in enumerate((LATER, LATER + dt.timedelta(hours=1), LATER + dt.timedelta(days=1))):
        if night:
            p.write_text(p.read_text(encoding="utf-8") + f"# 备注{night}\n", encoding="utf-8")
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
        ev = report.state.events["xiangqi"]
        errors = [i.message for i in report.issues if i.severity.value == "error"]
        assert not errors, (night, errors)
        assert any(r.stage == "ko" for r in ev.rounds) and "加赛表" not in ev.waiting, (night, ev.waiting)
        tables = {st.group: [r.rank for r in st.rows] for st in ev.standings if st.stage == "group"}
        assert tables == {"A": [1, 1, 3, 4], "B": [1, 1, 3, 4]}, (night, tables)
