"""R2020-F4 and the Tiebreaks' 加赛 (spec silent; the decision of the t2020 audit): a 加赛表 that
leaves some of the tied still level is taken when every tie it leaves lies within one prize —
a blank 名次 beside a given one, or the same 名次 written twice, means "still level", and those
share the place, as a tie inside one award band does elsewhere (三等奖 4, 4, 4).  A tie it
leaves across a prize boundary stays an error, said at the cell: which places still need an
order, and that they are different prizes.

The t2020 sample's 象棋 final pool ends with its three level at 1st (一等奖 1, 二等奖 2: the
2nd and 3rd places are one prize)."""
from __future__ import annotations

import csv
import os
from pathlib import Path

import openpyxl

from tests.hardening.common import copy_sample, league, run_args


def _csv(out: Path, name: str) -> list[dict]:
    with open(out / "t2020-league" / "data" / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _waiting(tmp_path: Path, places: str | None = None, chain: str | None = None) -> tuple[Path, Path]:
    """The sample without its 象棋 加赛 sheets, run once: (folder, out), the 加赛表 written.
    ``places``: the YAML of 象棋's award places instead of the sample's; ``chain``: its
    tiebreaks instead of the sample's (direct, wins, sonneborn_berger, playoff)."""
    folder = copy_sample("t2020-league", tmp_path)
    for p in (folder / "inbox").glob("*xiangqi-加赛*"):
        p.unlink()
    if places is not None:
        y = folder / "tournament.yaml"
        text = y.read_text(encoding="utf-8")
        old = ("      places:\n        - {award: 一等奖, count: 1}\n        - {award: 二等奖, count: 2}\n"
               "        - {award: 三等奖, count: 3}\n")
        assert old in text
        y.write_text(text.replace(old, places, 1), encoding="utf-8")
    if chain is not None:
        y = folder / "tournament.yaml"
        text = y.read_text(encoding="utf-8")
        old = "    tiebreaks: [direct, wins, sonneborn_berger, playoff]\n"
        assert text.count(old) >= 1
        start = text.index("  - id: xiangqi\n")
        at = text.index(old, start)
        y.write_text(text[:at] + f"    tiebreaks: {chain}\n" + text[at + len(old):], encoding="utf-8")
    out = tmp_path / "out"
    r = league(*run_args(folder, out))
    assert "象棋：需加赛决定名次：第1名" in r.stdout, r.stdout
    return folder, out


def _fill(folder: Path, out: Path, places: list) -> tuple[list[str], list[str]]:
    """The 象棋 加赛表 filled with ``places`` (None: left blank) down its rows and put into the
    inbox: (the names of its rows, the A1 of their 名次 cells)."""
    form = out / "t2020-league" / "forms" / "xiangqi-r6-加赛表.xlsx"
    wb = openpyxl.load_workbook(form)
    ws = wb["加赛"]
    rows = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 2).value == "最终名次"]
    assert len(rows) == len(places) == 3
    for r, place in zip(rows, places):
        ws.cell(r, 4).value = place
    filled = folder / "inbox" / "xiangqi-加赛表.xlsx"
    wb.save(filled)
    os.utime(filled, (1_900_000_000, 1_900_000_000))
    return [ws.cell(r, 5).value for r in rows], [f"D{r}" for r in rows]


def _settled(out: Path, stdout: str, first: str, level: list[str]) -> None:
    assert "象棋：已完成" in stdout, stdout
    bad = [i for i in _csv(out, "issues.csv") if i["code"] in ("BAD_VALUE", "PLAYOFF_REQUIRED", "MISSING_VALUE")
           and ("象棋" in i["message"] or "xiangqi" in i["file"])]
    assert not bad, bad
    awards = {a["team"]: (a["award"], a["rank"]) for a in _csv(out, "awards.csv") if a["event"] == "xiangqi"}
    assert awards[first] == ("一等奖", "1")
    # the two left level: both 二等奖; the chain taken again within the two (R2020-F4,
    # standings._Ranker.refine) orders them by 直胜 — the sample's three beat one another in turn
    assert sorted(awards[n] for n in level) == [("二等奖", "2"), ("二等奖", "3")]
    ranks = {(row["stage"], row["team"]): (row["rank"], row["playoff_required"])
             for row in _csv(out, "standings.csv") if row["event"] == "xiangqi"}
    for stage in ("final", "overall"):
        assert ranks[(stage, first)] == ("1", "0")
        assert sorted(ranks[(stage, n)] for n in level) == [("2", "0"), ("3", "0")]


def test_R2020_F4_a_playoff_may_leave_blank_those_level_within_one_prize(tmp_path: Path) -> None:
    """1, blank, blank: the winner is 1st, the other two share 2nd (both 二等奖) — it was
    BAD_VALUE "只给…填了名次", and the awards waited for an order nobody needs."""
    folder, out = _waiting(tmp_path)
    names, _ = _fill(folder, out, [1, None, None])
    r = league(*run_args(folder, out))
    _settled(out, r.stdout, names[0], names[1:])


def test_R2020_F4_the_same_place_twice_within_one_prize_means_level(tmp_path: Path) -> None:
    """2, 1, 2: the second row won; the other two, written 2 both, share 2nd — it was
    BAD_VALUE "名次相同（2、2）"."""
    folder, out = _waiting(tmp_path)
    names, _ = _fill(folder, out, [2, 1, 2])
    r = league(*run_args(folder, out))
    _settled(out, r.stdout, names[1], [names[0], names[2]])


def test_R2020_F4_the_playoff_form_says_a_tie_within_one_prize_may_stay_blank(tmp_path: Path) -> None:
    _, out = _waiting(tmp_path)
    ws = openpyxl.load_workbook(out / "t2020-league" / "forms" / "xiangqi-r6-加赛表.xlsx")["加赛"]
    note = ws["A2"].value
    assert "同一奖项" in note and "空着" in note, note
    rows = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 2).value == "最终名次"]
    said = {ws.cell(r, 6).value for r in rows}
    assert said == {"加赛1：第1名并列（一等奖/二等奖），3人，名次填 1–3；第2–3名同为二等奖，可不分先后"}, said


def test_R2020_F4_a_playoff_leaving_a_tie_across_two_prizes_is_an_error_at_its_cell(tmp_path: Path) -> None:
    """一等奖, 二等奖, 三等奖 one each and 加赛 the only tiebreak: 1, blank, blank leaves 2nd and
    3rd — two prizes — level, nothing else to order them.  Refused, said at the first blank 名次, naming the places and the prizes; the tie stays open."""
    places = ("      places:\n        - {award: 一等奖, count: 1}\n        - {award: 二等奖, count: 1}\n"
              "        - {award: 三等奖, count: 1}\n")
    folder, out = _waiting(tmp_path, places, chain="[playoff]")
    ws = openpyxl.load_workbook(out / "t2020-league" / "forms" / "xiangqi-r6-加赛表.xlsx")["加赛"]
    rows = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 2).value == "最终名次"]
    assert {ws.cell(r, 6).value for r in rows} == {"加赛1：第1名并列（一等奖/二等奖/三等奖），3人，名次填 1–3"}
    names, cells = _fill(folder, out, [1, None, None])
    r = league(*run_args(folder, out))
    assert "象棋：需加赛决定名次：第1名" in r.stdout and "象棋：已完成" not in r.stdout, r.stdout
    bad = [i for i in _csv(out, "issues.csv") if i["code"] == "BAD_VALUE" and "xiangqi" in i["file"]]
    assert len(bad) == 1, bad
    (b,) = bad
    assert (b["severity"], b["sheet"], b["cell"]) == ("error", "加赛", cells[1]), b
    msg = b["message"]
    assert "第2–3名" in msg and "二等奖/三等奖" in msg and "奖项不同" in msg, msg
    assert f"“{names[1]}”" in msg and f"“{names[2]}”" in msg, msg
    assert not [a for a in _csv(out, "awards.csv") if a["event"] == "xiangqi"]
    tied = [(row["stage"], row["rank"]) for row in _csv(out, "standings.csv")
            if row["event"] == "xiangqi" and row["playoff_required"] == "1"]
    assert sorted(tied) == [("final", "1")] * 3 + [("overall", "1")] * 3


def test_R2020_F4_the_same_place_twice_across_two_prizes_stays_an_error(tmp_path: Path) -> None:
    places = ("      places:\n        - {award: 一等奖, count: 1}\n        - {award: 二等奖, count: 1}\n"
              "        - {award: 三等奖, count: 1}\n")
    folder, out = _waiting(tmp_path, places, chain="[playoff]")
    names, cells = _fill(folder, out, [2, 1, 2])
    r = league(*run_args(folder, out))
    assert "象棋：已完成" not in r.stdout, r.stdout
    bad = [i for i in _csv(out, "issues.csv") if i["code"] == "BAD_VALUE" and "xiangqi" in i["file"]]
    assert len(bad) == 1, bad
    msg = bad[0]["message"]
    assert bad[0]["severity"] == "error" and bad[0]["cell"] in (cells[0], cells[2]), bad
    assert "第2–3名" in msg and "二等奖/三等奖" in msg and f"“{names[0]}”" in msg and f"“{names[2]}”" in msg, msg
    assert not [a for a in _csv(out, "awards.csv") if a["event"] == "xiangqi"]


def test_R2020_F4_a_playoff_leaving_two_level_across_prizes_is_taken_when_the_chain_orders_them(
        tmp_path: Path) -> None:
    """一等奖, 二等奖, 三等奖 one each, the sample's chain (直胜 first): 1, blank, blank — the
    playoff decided 1st; the two left are ordered by their own game (the chain taken again
    within the two), so nothing is left level across the prizes and the sheet is taken."""
    places = ("      places:\n        - {award: 一等奖, count: 1}\n        - {award: 二等奖, count: 1}\n"
              "        - {award: 三等奖, count: 1}\n")
    folder, out = _waiting(tmp_path, places)
    names, _ = _fill(folder, out, [1, None, None])
    r = league(*run_args(folder, out))
    assert "象棋：已完成" in r.stdout, r.stdout
    assert not [i for i in _csv(out, "issues.csv") if i["code"] == "BAD_VALUE" and "xiangqi" in i["file"]]
    awards = {a["team"]: a["award"] for a in _csv(out, "awards.csv") if a["event"] == "xiangqi"}
    assert awards[names[0]] == "一等奖" and sorted(awards[n] for n in names[1:]) == ["三等奖", "二等奖"]
