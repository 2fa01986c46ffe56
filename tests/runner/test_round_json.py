"""The ledger's stored text of a round (published rounds are frozen: the text must not change)."""
from __future__ import annotations

import json
from dataclasses import asdict

from pipeline.model import Match, Round
from pipeline.store import round_from_json, round_to_json


def test_round_json_as_asdict():
    rnd = Round(event="bridge", stage="rr", stage_name="循环赛", round=3, seed="ab", input_hash="cd",
                notes=("第3轮：东西方向移位。", "轮空：无"),
                plan={"boards": {"1": [1, 2, 3], "2": (4, 5)}, "merged": [["e1", "e2"]]},
                matches=(Match("bridge", "rr", 3, "A", 1, ("e1", "e2"), note="x", first=1),
                         Match("bridge", "rr", 3, "A", 2, ("e3",), bye=True)))
    text = round_to_json(rnd)
    assert text == json.dumps(asdict(rnd), ensure_ascii=False, sort_keys=True)
    assert round_from_json(text) == Round(**{**asdict(rnd), "matches": rnd.matches, "notes": rnd.notes,
                                             "plan": json.loads(json.dumps(rnd.plan))})
