"""Handbook 缺席、弃权和退赛: a withdrawal taken back after its round's results were all in
leaves the bye unscored ("收齐之后再删去的，不计分照旧") — and it stays so when that round is
later open again for a while.  (The audit's case: t2011 斗地主, 刘平 withdrawn while his round-3
晋级签 was pending, round 3 played, the withdrawal taken back; the office then typed a wrong
``start_points`` — every table's sum wrong, the rounds open again — and put it back the next
night.  The ledger forgot the bye on the first night, so the same inbox and tournament.yaml
gave other standings: 刘平 4th instead of 江宁磊.)"""
from __future__ import annotations

import csv
import datetime as dt
import re
import shutil
from pathlib import Path

from pipeline.model import Outcome
from pipeline.run import RunOptions, run

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_sheets" / "t2011-court"
HEAD = "  - id: doudizhu\n    name: 斗地主\n"


def _at(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def _standings(out: Path) -> list[tuple[str, str, str]]:
    with open(out / "data" / "standings.csv", encoding="utf-8", newline="") as f:
        return [(r["rank"], r["team"], r["tier"]) for r in csv.DictReader(f)
                if r["event"] == "doudizhu" and r["stage"] == "overall"]


def test_a_bye_left_unscored_stays_so_when_its_round_opens_again_after_the_withdrawal_was_taken_back(tmp_path):
    folder, out_parent = tmp_path / "t2011-court", tmp_path / "out"
    out = out_parent / "t2011-court"
    (folder / "inbox").mkdir(parents=True)
    for f in ("tournament.yaml", "secret.key"):
        shutil.copy2(SAMPLE / f, folder / f)
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")

    def night(now: str, *mails: str):
        for m in mails:
            for p in SAMPLE.glob("inbox/" + m):
                shutil.copy2(p, folder / "inbox" / p.name)
        return run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=_at(now)))

    night("2011-05-06T17:01+08:00", "*-报名表.eml")
    night("2011-05-16T17:56+08:00", "05161755-doudizhu-*")
    ddz = night("2011-05-17T17:56+08:00", "05171755-doudizhu-*").state.events["doudizhu"]
    names = {e.id: e.team for e in ddz.entries}
    bye = next(m for m in ddz.rounds[2].matches if m.bye and names[m.sides[0]] == "刘平")
    spec.write_text(text.replace(HEAD, HEAD + "    withdrawn: [刘平]\n", 1), encoding="utf-8")
    night("2011-05-17T20:00+08:00")                       # withdrawn while his 晋级签 is pending
    night("2011-05-18T17:56+08:00", "05181755-doudizhu-*")  # round 3 played: its results all in
    spec.write_text(text, encoding="utf-8")               # the withdrawal taken back after
    ddz = night("2011-05-18T20:00+08:00").state.events["doudizhu"]
    assert not ddz.withdrawn and ddz.results[bye.key].sides[0].outcome == Outcome.ABSENT
    before = _standings(out)

    # the office's slip: every table's sum is wrong under 11 (the rounds open again) ...
    spec.write_text(re.sub(r"start_points: 10,", "start_points: 11,", text, count=1), encoding="utf-8")
    night("2011-05-19T09:00+08:00")
    # ... put right the next night: the same inbox and tournament.yaml as before
    spec.write_text(text, encoding="utf-8")
    back = night("2011-05-19T10:00+08:00")
    ddz = back.state.events["doudizhu"]
    assert ddz.results[bye.key].sides[0].outcome == Outcome.ABSENT
    assert _standings(out) == before
    said = [i for i in back.issues if i.code == "DRAW_INPUT_CHANGED" and "刘平" in i.message]
    assert not said, said
