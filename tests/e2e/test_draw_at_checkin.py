"""R2016-F2 in nightly use: registration closes on 11-16, the check-in is on the day (11-26).
Round 1 waits for the event's draw_at, so the 签到表 dropped in that morning takes absent
players out and re-forms pairs in round 1 itself (before, round 1 was drawn on the night of
11-16 and the check-in could only raise DRAW_INPUT_CHANGED)."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

from tests.hardening.common import copy_sample, league, run_args


def _codes(out: Path) -> list[str]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return [r["code"] for r in csv.DictReader(f)]


def test_R2016_F2_round_1_is_drawn_after_the_check_in(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    held = tmp_path / "held"
    held.mkdir()
    for p in (folder / "inbox").iterdir():
        if "报名表" not in p.name:
            shutil.move(p, held / p.name)
    out = tmp_path / "out"
    r = league(*run_args(folder, out, now="2016-11-20T09:00+08:00"))        # nights after the deadline
    assert "第1轮于 2016-11-26 08:30 后抽签" in r.stdout and "签到表" in r.stdout
    assert not (out / "t2016-poker" / "draws").exists() or not list((out / "t2016-poker" / "draws").iterdir())
    assert (out / "t2016-poker" / "forms" / "guandan-签到表.xlsx").is_file()
    shutil.move(held / "11260820-签到表.eml", folder / "inbox")                 # the morning's check-in
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert "等待分组赛第1轮成绩" in r.stdout, r.stdout
    assert "DRAW_INPUT_CHANGED" not in _codes(out)
    draw = (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
    assert "（重组）" in draw                                                     # re-formed at check-in
