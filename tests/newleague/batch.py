"""Play a tournament folder to the end, the way the office and the referees do.

Reuses the simulation of ``scripts/make_samples.py`` (``fill_result_book``, ``mail``,
``playoff_mail`` / ``pending_ties``): after each run, every result workbook the run
wrote under ``out/<id>/results/`` is filled and mailed into the inbox, pending 加赛 are
answered with one playoff sheet, and the batch runs again — until no new sheet appears.
"""
from __future__ import annotations

import datetime as dt
import importlib.util
import random
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType

from pipeline.issues import Issue
from pipeline.run import RunOptions, run
from pipeline.spec import load_tournament
from pipeline.state import LeagueState
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
#: the simulated referees' mails are dated at the sessions; the batch runs "later".
LATER = dt.datetime(2030, 1, 1, tzinfo=TZ)


@cache
def samples() -> ModuleType:
    """``scripts/make_samples.py`` as a module (it is a script, not a package)."""
    path = ROOT / "scripts" / "make_samples.py"
    spec = importlib.util.spec_from_file_location("league_make_samples", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def board_numbers(t, src: Path, tmp: Path) -> Path:
    """A copy of a bridge result sheet with 牌号 1 written where the format printed none
    (only the pairs movement plans boards; a referee writes the board played)."""
    import openpyxl

    from pipeline import layout as L

    wb = openpyxl.load_workbook(src)
    meta = {str(r[0].value): r[1].value for r in wb[L.META_SHEET].iter_rows(min_col=1, max_col=2) if r[0].value}
    if t.spec.event(str(meta[L.META_EVENT])).game != "bridge":
        return src
    ws = wb[L.RESULT_SHEET]
    hrow, col = samples().header(ws, "桌号")
    for r in range(hrow + 1, ws.max_row + 1):
        if ws.cell(r, col["桌号"]).value not in (None, "") and ws.cell(r, col["牌号"]).value in (None, ""):
            ws.cell(r, col["牌号"]).value = 1
    out = tmp / "boards" / src.name
    out.parent.mkdir(parents=True, exist_ok=True)
    wb.save(out)
    return out


def playoff_mails(t, inbox: Path, state: LeagueState, rng: random.Random, answered: set) -> bool:
    """Answer each pending 加赛 with its own sheet (``make_samples.playoff_mail`` writes every
    set of an event into one sheet, and rows of one stage and group read as one set).
    While an event runs only the ties it waits on (``EventState.ties``) are answered;
    once complete, the ties across award places too (``pending_ties``)."""
    ms = samples()
    wrote = False
    for ev in state.events.values():
        ties = ms.pending_ties(ev) if ev.complete else list(ev.ties)
        for tie in ties:
            if (ev.spec.id, *tie) in answered:
                continue
            one = {ev.spec.id: _Only(ev, [tie])}
            ms.playoff_mail(t, inbox, _State(one), rng, answered)   # file name counts the sets
            wrote = True
    return wrote


class _Only:
    """An EventState seen with just one pending tie (for ``make_samples.playoff_mail``)."""

    def __init__(self, ev, ties) -> None:
        self._ev, self.ties, self.placements = ev, ties, []

    def __getattr__(self, name):
        return getattr(self._ev, name)


class _State:
    def __init__(self, events) -> None:
        self.events = events


@dataclass
class Played:
    """The last state of a played tournament, the number of runs and every issue seen."""

    state: LeagueState
    runs: int
    issues: list[Issue] = field(default_factory=list)


def play_to_completion(folder: Path, out_parent: Path, *, now: dt.datetime = LATER,
                       max_runs: int = 40, seed: str = "") -> Played:
    """Run the batch on ``folder`` and answer every result sheet and 加赛 it asks for,
    at most ``max_runs`` runs.  Returns the last state (complete or not: the caller
    asserts)."""
    ms = samples()
    t = load_tournament(folder)
    inbox = folder / "inbox"
    rng = random.Random(seed or t.spec.id)
    done: set[str] = set()
    answered: set = set()
    state: LeagueState | None = None
    seen: list[Issue] = []
    for k in range(1, max_runs + 1):
        report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=now))
        state = report.state or state
        seen += report.issues
        assert state is not None
        results = out_parent / t.spec.id / "results"
        new = [p for p in sorted(results.glob("*.xlsx")) if p.name not in done]
        for p in new:
            data, _, rnd, ev_name = ms.fill_result_book(t, board_numbers(t, p, out_parent),
                                                        random.Random(f"{seed}/{p.name}"))
            when = ms.session_time(t, rnd)
            ms.mail(inbox / f"{when:%m%d%H%M}-{p.stem}.eml", "referee@union.example.edu.cn",
                    f"{ev_name} 第{rnd}轮成绩", when, [(p.name, data)])
            done.add(p.name)
        if not new and not playoff_mails(t, inbox, state, rng, answered):
            return Played(state, k, seen)
    assert state is not None
    return Played(state, max_runs, seen)
