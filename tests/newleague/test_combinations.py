"""Property: any compatible game × format × entry count set up through `league new`
parses, takes random registrations and draws round 1."""
from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import newleague
from pipeline.draw import FORMATS
from pipeline.games import GAMES
from pipeline.run import RunOptions, run
from pipeline.spec import parse_spec

from .helpers import NOW, fill_registrations, small_answers

PAIRS = {"bridge", "guandan", "shuangsheng", "shuangkou"}
COMBOS = [(g, f) for g, game in GAMES.items() for f, fmt in FORMATS.items() if fmt.seats == game.seats]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combo=st.sampled_from(COMBOS), entries=st.integers(min_value=8, max_value=14), seed=st.integers(0, 2**16))
def test_any_compatible_combination_draws_round_1(combo, entries, seed):
    game, fmt = combo
    a = small_answers(entries)
    a["events"] = [{"name": "比赛", "game": game, "format": fmt, "quota": "fixed 1",
                    "team_size": 2 if game in PAIRS else 1}]
    spec = newleague.build_spec(a)
    parse_spec(spec)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "prop"
        newleague.create(folder, answers=a)
        assert fill_registrations(folder, random.Random(seed)) == entries
        report = run(RunOptions(folder=folder, out_parent=Path(tmp) / "out", pdf=False, now=NOW))
        es = report.state.events[spec["events"][0]["id"]]
        assert len(es.entries) == entries
        assert es.rounds, f"{game} × {fmt} with {entries} entries drew nothing: {es.waiting}"
        seated = [s for m in es.rounds[0].matches for s in m.sides]
        assert len(seated) == len(set(seated))
