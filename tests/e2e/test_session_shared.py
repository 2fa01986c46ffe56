"""R2020-S1: rounds go into the sessions in order and, once they are used up, share the last
one — said (SESSION_SHARED, a note) from the rounds as published: a new league's clerk
found seven 桥牌 rounds printed for one half-day, said nowhere."""
from __future__ import annotations

import csv
from pathlib import Path

from tests.hardening.common import copy_sample, league, run_args


def test_R2020_S1_a_round_sharing_the_last_session_is_said(tmp_path: Path) -> None:
    folder = copy_sample("t2020-league", tmp_path)
    out = tmp_path / "out"
    r = league(*run_args(folder, out))
    assert r.returncode == 0, r.stdout + r.stderr
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        shared = [i for i in csv.DictReader(f) if i["code"] == "SESSION_SHARED"]
    xq = [i for i in shared if i["message"].startswith("象棋")]
    assert len(xq) == 1 and xq[0]["severity"] == "info"
    assert xq[0]["message"].startswith("象棋第6轮与第5轮同在 2020年11月18日 16:00—18:00"), xq[0]["message"]
    assert "sessions" in xq[0]["message"]
    # the five rounds before had a session each: nothing said of them
    assert not [i for i in shared if "第5轮与第4轮" in i["message"]]
