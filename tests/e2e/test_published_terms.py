"""R2020-S1 and the store's rule (a published round is frozen: never silently redrawn) for
edits of tournament.yaml after publication.

* A round's date, time and place are printed on its draw sheet and result workbook: moving
  the event's deadline later, or taking a session out, after round 1 was published for
  2020-11-10 moved 象棋's round-1 sheet to 11-12 / 11-11 (and re-issued the later rounds'
  workbooks with new dates) while TERMS_CHANGED said "这一改动对它不起作用", or nothing at all.
  Now a published round keeps its session, and the edit that would move it is said.
* Changing an event's points after its rounds were drawn was said as a results correction
  (DRAW_INPUT_CHANGED, "请组委会核实更正的成绩"), and nothing named the edit.  Now it is
  SCORING_CHANGED with the key, the old and the new value, and no results correction."""
from __future__ import annotations

import csv
import datetime as dt
import re
import shutil
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_sheets" / "t2020-league"
NIGHTS = [("110", dt.datetime(2020, 11, 9, 20, tzinfo=TZ)), ("1110", dt.datetime(2020, 11, 10, 20, tzinfo=TZ)),
          ("1111", dt.datetime(2020, 11, 11, 20, tzinfo=TZ)), ("1112", dt.datetime(2020, 11, 12, 20, tzinfo=TZ)),
          ("1117", dt.datetime(2020, 11, 17, 20, tzinfo=TZ)), ("1118", dt.datetime(2020, 11, 18, 21, tzinfo=TZ))]


def _league(tmp_path: Path) -> Path:
    folder = tmp_path / "t2020-league"
    (folder / "inbox").mkdir(parents=True)
    for name in ("tournament.yaml", "secret.key"):
        shutil.copy2(SAMPLE / name, folder / name)
    return folder


def _night(folder: Path, out: Path, i: int):
    prefix, now = NIGHTS[i]
    for f in sorted((SAMPLE / "inbox").iterdir()):
        if f.name.startswith(prefix):
            shutil.copy2(f, folder / "inbox" / f.name)
    return run(RunOptions(folder=folder, out_parent=out, now=now, pdf=False))


def _edit(folder: Path, old: str, new: str, after: str = "") -> None:
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    at = text.index(after) if after else 0
    assert old in text[at:], old
    j = text.index(old, at)
    spec.write_text(text[:j] + new + text[j + len(old):], encoding="utf-8")


def _session(out: Path, name: str) -> str:
    html = (out / "t2020-league" / "draws" / name).read_text(encoding="utf-8")
    return re.search(r"时间：([^<]*—[^<]*)", html).group(1)


def _tree(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file() and "ledger" not in p.name and not p.name.startswith(".")}


def test_R2020_S1_a_later_deadline_moves_no_published_round(tmp_path):
    folder, out = _league(tmp_path), tmp_path / "out"
    _night(folder, out, 0)
    assert _session(out, "xiangqi-r1.html") == "2020年11月10日 16:00—18:00"
    _edit(folder, "deadline: 2020-11-09T15:00:00+08:00", "deadline: 2020-11-12T15:00:00+08:00", "- id: xiangqi")
    second = _night(folder, out, 1)
    assert _session(out, "xiangqi-r1.html") == "2020年11月10日 16:00—18:00"
    assert _session(out, "xiangqi-r2.html") == "2020年11月11日 16:00—18:00"     # as without the edit
    notes = [i.message for i in second.issues if i.code == "TERMS_CHANGED"]
    assert any("报名截止时间（deadline）2020-11-09 15:00 → 2020-11-12 15:00" in m for m in notes), notes
    (moved,) = [m for m in notes if "比赛时间、地点" in m]
    assert "第1轮淘汰赛（22进11）仍为 2020年11月10日 16:00—18:00（按现在的设置会改为 2020年11月12日 16:00—18:00）" in moved
    # the notice prints the deadline the event was drawn under (the edit applies to it not)
    notice = (out / "t2020-league" / "index.html").read_text(encoding="utf-8")
    assert "2020年11月12日15" not in notice.replace(" ", "")


def test_R2020_S1_a_session_taken_out_moves_no_published_round(tmp_path):
    folder, out = _league(tmp_path), tmp_path / "out"
    _night(folder, out, 0)
    before = _tree(out / "t2020-league")
    _edit(folder, '  - {date: 2020-11-10, start: "16:00", end: "18:00"}\n', "")
    (out / "t2020-league" / ".lastrun.json").unlink()
    rerun = run(RunOptions(folder=folder, out_parent=out, now=NIGHTS[0][1], pdf=False))
    assert _session(out, "xiangqi-r1.html") == "2020年11月10日 16:00—18:00"
    changed = {k for k, v in _tree(out / "t2020-league").items() if before.get(k) != v}
    # draw sheets and result workbooks as published (the notice lists the sessions: it changes)
    assert not {k for k in changed if k.startswith(("draws/", "results/", "forms/"))}, sorted(changed)
    moved = [i.message for i in rerun.issues if i.code == "TERMS_CHANGED"]
    assert len(moved) == 4 and all("仍为 2020年11月10日 16:00—18:00（按现在的设置会改为 2020年11月11日" in m for m in moved), moved
    # round 2 goes to the next session after round 1's
    _night(folder, out, 1)
    assert _session(out, "xiangqi-r2.html") == "2020年11月11日 16:00—18:00"


def _standing_points(out: Path, event: str) -> dict[str, str]:
    with open(out / "t2020-league" / "data" / "standings.csv", encoding="utf-8") as f:
        return {r["team"]: r["points"] for r in csv.DictReader(f) if r["event"] == event and r["stage"] == "final"}


def test_contract_a_points_edit_after_publication_is_no_results_correction(tmp_path):
    folder, out = _league(tmp_path), tmp_path / "out"
    for i in range(6):
        last = _night(folder, out, i)
    assert not last.needs_attention
    assert set(_standing_points(out, "xiangqi").values()) == {"2"}
    _edit(folder, "    game_options: {best_of: 1}\n",
          "    game_options: {best_of: 1}\n    points: {win: 3, draw: 1, loss: 0}\n", "- id: xiangqi")
    edited = run(RunOptions(folder=folder, out_parent=out, now=NIGHTS[5][1], pdf=False))
    codes = [i.code for i in edited.issues]
    assert "DRAW_INPUT_CHANGED" not in codes, [i.message for i in edited.issues if i.code == "DRAW_INPUT_CHANGED"]
    (said,) = [i for i in edited.issues if i.code == "SCORING_CHANGED"]
    assert said.severity == "warning" and "points：win 2 → 3" in said.message and "不是成绩更正" in said.message
    assert "按原来的计分抽签的，对阵照旧有效" in said.message
    # the standings take the points as they are now (the office corrected its spec)
    assert set(_standing_points(out, "xiangqi").values()) == {"3"}
