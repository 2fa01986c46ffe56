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
        new = ms.mail_new_results(t, out_parent / t.spec.id / "results", inbox, done, seed)
        if not new and not ms.playoff_mail(t, inbox, state, rng, answered):
            return Played(state, k, seen)
    assert state is not None
    return Played(state, max_runs, seen)
