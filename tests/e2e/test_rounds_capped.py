"""R2015-F1: a Swiss ``rounds`` larger than the field allows (no rematch, at most one bye
each) is capped, and the office is told to correct tournament.yaml (ROUNDS_CAPPED)."""
from __future__ import annotations

import csv
from pathlib import Path

from pipeline.draw.swiss import most_rounds
from tests.hardening.common import copy_sample, league, run_args


def test_R2015_F1_rounds_beyond_the_field_are_capped_and_said(tmp_path: Path) -> None:
    folder = copy_sample("t2015-tcm", tmp_path)
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    old = "    format: {type: swiss, rounds: 5}\n    # Tiebreaks: the Swiss default chain"
    assert old in text
    spec.write_text(text.replace(old, old.replace("rounds: 5", "rounds: 50"), 1), encoding="utf-8")
    out = tmp_path / "out"
    r = league(*run_args(folder, out))
    assert r.returncode in (0, 1), r.stderr
    data = out / "t2015-tcm" / "data"
    with open(data / "issues.csv", encoding="utf-8") as f:
        capped = [i for i in csv.DictReader(f) if i["code"] == "ROUNDS_CAPPED"]
    with open(data / "draw.csv", encoding="utf-8") as f:
        n = len({d["entry_id"] for d in csv.DictReader(f) if d["event"] == "go" and d["round"] == "1"})
    assert n >= 2
    (only,) = capped
    assert only["severity"] == "warning"
    assert "围棋" in only["message"] and "设定瑞士制 50 轮" in only["message"]
    assert f"最多只能赛 {most_rounds(n)} 轮" in only["message"] and f"rounds 改为 {most_rounds(n)}" in only["message"]
    # the notice says the rounds the event plays (it said 共50輪 for 13)
    notice = (out / "t2015-tcm" / "notice.html").read_text(encoding="utf-8")
    assert f"共{most_rounds(n)}輪" in notice and "共50輪" not in notice


def test_R2015_F1_rounds_capped_is_said_every_night_once_as_a_warning(tmp_path: Path) -> None:
    """Said on every full run (a night waiting for results too: it was said only on a night
    that drew a round, and a kept event state said it while a fresh one did not) — a warning
    the first night, a note after (SAID_ONCE)."""
    folder = copy_sample("t2015-tcm", tmp_path)
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    old = "    format: {type: swiss, rounds: 5}\n    # Tiebreaks: the Swiss default chain"
    spec.write_text(text.replace(old, old.replace("rounds: 5", "rounds: 50"), 1), encoding="utf-8")
    out = tmp_path / "out"
    first = league(*run_args(folder, out))
    assert first.returncode == 1
    (folder / "inbox" / "说明.txt").write_text("not a workbook", encoding="utf-8")   # a full run, nothing drawn
    for forget in (False, True):
        if forget:          # a fresh computation of every event: the same
            import sqlite3
            con = sqlite3.connect(out / "t2015-tcm" / "ledger.sqlite")
            with con:
                con.execute("DELETE FROM cache WHERE key LIKE 'event:%'")
            con.close()
            (folder / "inbox" / "说明2.txt").write_text("another", encoding="utf-8")
        league(*run_args(folder, out))
        with open(out / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
            capped = [i for i in csv.DictReader(f) if i["code"] == "ROUNDS_CAPPED"]
        assert [i["severity"] for i in capped] == ["info"], (forget, capped)
