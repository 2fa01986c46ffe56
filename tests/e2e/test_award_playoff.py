"""R2011-F1 / the tiebreak rules' 加赛: an event played out with a tie across an award
boundary waits for the playoff — no award is given in an arbitrary order, the office gets
the 加赛表 and a next step — and the filled sheet, dropped in the inbox, settles it."""
from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import openpyxl

from tests.hardening.common import copy_sample, league, run_args


def _csv(out: Path, name: str) -> list[dict]:
    with open(out / "t2020-league" / "data" / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_R2011_F1_a_tie_across_an_award_boundary_waits_for_its_playoff(tmp_path: Path) -> None:
    folder = copy_sample("t2020-league", tmp_path)
    for p in (folder / "inbox").glob("*xiangqi-加赛*"):
        p.unlink()
    out = tmp_path / "out"
    r = league(*run_args(folder, out))
    assert "象棋：需加赛决定名次：第1名" in r.stdout and "象棋：已完成" not in r.stdout
    assert "象棋：需加赛" in r.stdout.split("工会办公室下一步：")[1]
    assert not [a for a in _csv(out, "awards.csv") if a["event"] == "xiangqi"]      # none arbitrary
    (po,) = [i for i in _csv(out, "issues.csv") if i["code"] == "PLAYOFF_REQUIRED" and "象棋" in i["message"]]
    assert "forms/xiangqi-r6-加赛表.xlsx" in po["message"] and "xiangqi" not in po["message"].split("forms/")[0]
    tied = [(row["stage"], row["rank"]) for row in _csv(out, "standings.csv")
            if row["event"] == "xiangqi" and row["playoff_required"] == "1"]
    assert sorted(tied) == [("final", "1")] * 3 + [("overall", "1")] * 3     # the pool and the final order

    form = out / "t2020-league" / "forms" / "xiangqi-r6-加赛表.xlsx"
    wb = openpyxl.load_workbook(form)
    ws = wb["加赛"]
    rows = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 2).value == "最终名次"]
    names = [ws.cell(r, 5).value for r in rows]
    # the tie's place, beside its rows (a form of two final-places ties told them apart by nothing)
    # (R2020-F4: and which of its places are one prize and may stay level)
    assert {ws.cell(r, 6).value for r in rows} == {"加赛1：第1名并列（一等奖/二等奖），3人，名次填 1–3；第2–3名同为二等奖，可不分先后"}
    for place, r in enumerate(rows[::-1], 1):         # the last listed wins the playoff
        ws.cell(r, 4).value = place
    filled = folder / "inbox" / "xiangqi-加赛表.xlsx"
    wb.save(filled)
    os.utime(filled, (1_900_000_000, 1_900_000_000))
    r = league(*run_args(folder, out))
    assert "象棋：已完成" in r.stdout, r.stdout
    awards = {a["team"]: a["award"] for a in _csv(out, "awards.csv") if a["event"] == "xiangqi"}
    assert awards[names[-1]] == "一等奖" and awards[names[0]] == awards[names[1]] == "二等奖"
    assert not [i for i in _csv(out, "issues.csv") if i["code"] == "PLAYOFF_REQUIRED" and "象棋" in i["message"]]


def test_a_tie_inside_one_award_band_needs_no_playoff(tmp_path: Path) -> None:
    """Without its 加赛 sheet, the t2020 sample's 跳棋 has three players level at 4th: all
    三等奖, no 加赛 needed."""
    folder = copy_sample("t2020-league", tmp_path)
    for p in (folder / "inbox").glob("*checkers-加赛*"):
        p.unlink()
    out = tmp_path / "out"
    r = league(*run_args(folder, out))
    assert "跳棋：已完成" in r.stdout
    third = [a for a in _csv(out, "awards.csv") if a["event"] == "checkers" and a["rank"] == "4"]
    assert len(third) == 3 and {a["award"] for a in third} == {"三等奖"}
    shutil.rmtree(out)


def test_an_event_waiting_only_for_its_playoff_has_no_rounds_left():
    from pipeline.layout import FINAL_PLACES
    from pipeline.render.site_vm import event_progress
    from tests.render_docs.states import t2020_state

    es = t2020_state().events["xiangqi"]
    es.ties = [(FINAL_PLACES, "", ("a", "b"))]
    assert event_progress(es)[2] == 0


def test_R2016_F2_a_playoff_may_name_a_pair_re_formed_at_check_in(tmp_path: Path) -> None:
    """The 加赛 sheet was read against the registered entries only: a pair re-formed at the
    check-in (named on every draw sheet and standings) was "not in the event", so a tie of
    theirs could never be settled — and the awards would wait for it for ever."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from mailedit import edit_attachment

    folder = copy_sample("t2016-poker", tmp_path)

    def add_row(wb):
        wb["加赛"].append(["扑克牌", "group", "D", 1, "姜力/潘霞洋（重组）"])

    edit_attachment(next((folder / "inbox").glob("*-guandan-加赛-*.eml")), add_row)
    out = tmp_path / "out"
    league(*run_args(folder, out))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        bad = [i for i in csv.DictReader(f) if i["code"] == "BAD_VALUE"]
    # found (no "not in the event"); the pair is level with no one, so its row ranks nothing
    # and is said as unused (R2011-F1: never dropped without a word), a note only
    assert [(i["severity"], i["cell"]) for i in bad] == [("info", "D4")], bad    # after the header and the 2 rows of B
    assert "“姜力/潘霞洋（重组）”的加赛名次未被采用" in bad[0]["message"]
