"""A 加赛表 in forms/ once the 加赛 it asks for is settled (handbook 加赛表): it no longer
looks outstanding to the office.  A form as the run wrote it (no 名次 filled in) is removed;
one the office filled in where it is (forms/ 就地填写) is never deleted — it is moved to
forms/已用/ as it is.  The form of a tie still pending stays where it is."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl

from pipeline import layout as L
from pipeline.run import RunOptions, playoff_form_name, run
from pipeline.spec import load_tournament

from tests.e2e.test_playoff_forms import DRAWN, _answer_form, _fill_results, _league
from tests.newleague.batch import LATER, samples


def _fill_in_place(t, out: Path, inbox: Path, ev, k: int) -> bytes:
    """The office fills forms/<the event's 加赛表> where it is (名次 1, 2 … in row order),
    saves it there and mails it in: returns the bytes saved."""
    ms = samples()
    p = out / t.spec.id / "forms" / playoff_form_name(ev.spec.id, ev.rounds)
    wb = openpyxl.load_workbook(p)
    ws = wb[L.PLAYOFF_SHEET]
    meta = {r[0].value: r[1].value for r in wb[L.META_SHEET].iter_rows() if r[0].value}
    hrow, col = ms.header(ws, "参赛者")
    row = hrow + 1
    for c in (int(x) for x in str(meta[L.META_TIES]).split(",")):
        for place in range(1, c + 1):
            ws.cell(row + place - 1, col["名次"]).value = place
        row += c
    wb.save(p)
    data = p.read_bytes()
    ms.mail(inbox / f"playoff-{k}.eml", "referee@union.example.edu.cn", "加赛",
            dt.datetime(2026, 1, 17, 13, k, tzinfo=LATER.tzinfo), [(p.name, data)])
    return data


def test_R2011_F1_a_settled_playoff_form_leaves_forms(tmp_path: Path) -> None:
    """Every game drawn in 象棋 groups → knockout: one 加赛 after another.  The first form is
    filled in place, the others answered on copies; each settled form left forms/ (the
    first kept whole in forms/已用/), and at the end no 加赛表 is left looking outstanding."""
    folder = _league(tmp_path, "groups_knockout", 8, seed=4)
    out, inbox, t = tmp_path / "out", folder / "inbox", load_tournament(folder)
    forms = out / t.spec.id / "forms"
    done: set[str] = set()
    filled: bytes | None = None
    asked = 0
    for k in range(1, 16):
        report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=LATER))
        ev = report.state.events["xiangqi"]
        if _fill_results(t, out, inbox, report.state, lambda m: DRAWN, done):
            continue
        if not ev.ties:
            break
        # only the form of the ties pending is in forms/ (an earlier, settled one is not)
        assert sorted(p.name for p in forms.glob("*加赛表*.xlsx")) == [playoff_form_name("xiangqi", ev.rounds)]
        if filled is None:
            filled = _fill_in_place(t, out, inbox, ev, k)
        else:
            _answer_form(t, out, inbox, ev, k)
        asked += 1
    assert ev.complete and asked >= 2, ev.waiting
    assert not list(forms.glob("*加赛表*.xlsx")), sorted(p.name for p in forms.iterdir())
    kept = sorted((forms / "已用").glob("*.xlsx"))
    assert [p.read_bytes() for p in kept] == [filled], kept
