"""R2011-F1, R2011-F2: a 加赛表's rows that rank nothing — players who are not level, or two of a
shared place that no award splits — are said at the sheet (a note), never dropped without a
word.  The t2011 sample's 加赛表 was made for an older ranking: beside group C's tie it ranked
尹鹏健 1 / 韦芳 2 (then two of four level 15th), 谢娟晨 / 宋勇 and 彭超辉 / 曹军怡 (not level: the final
order goes by group place first), and the standings printed 并列 with nothing in issues.csv.
(With the group places of unequal groups compared by 得分率, R2011-F2, 尹鹏健 — 4 points of 4
games — is 15th alone and 韦芳, 侯红静, 曹军怡 — 4 of 5 — share 16th: the rows of two of a
shared place are 韦芳 / 侯红静 here.)"""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import pytest

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from tests.e2e.mailedit import edit_attachment

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)

#: the stale sheet's rows (名次, 参赛者), as the sample had them (rows 8–13, 阶段 group, 组别 blank:
#: written here as the final places' 加赛, 阶段 最终名次, so the rows address a tie — a row addressing
#: none is warned of, test_R2011_F1_playoff_rows_addressing_no_tie_are_warned_and_not_used)
STALE = [(1, "韦芳"), (2, "侯红静"), (1, "谢娟晨"), (2, "宋勇"), (1, "彭超辉"), (2, "曹军怡")]


def _run(tmp_path: Path, rows: list[tuple], stage: str = "最终名次"):
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)

    def write(wb):
        ws = wb["加赛"]
        ws.delete_rows(4, ws.max_row)          # group C's playoff (rows 2–3) kept
        for *group, place, who in rows:
            ws.append(["中国象棋", stage, group[0] if group else None, place, who])
    edit_attachment(next((folder / "inbox").glob("*xiangqi-加赛*")), write)
    out = tmp_path / "out"
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    data = out / "t2011-court" / "data"
    with open(data / "issues.csv", encoding="utf-8") as f:
        issues = list(csv.DictReader(f))
    with open(data / "standings.csv", encoding="utf-8") as f:
        final = {r["team"]: r for r in csv.DictReader(f) if r["event"] == "xiangqi" and r["stage"] == "overall"}
    return report, issues, final


def test_R2011_F1_playoff_rows_of_players_not_level_are_said_not_dropped(tmp_path):
    report, issues, final = _run(tmp_path, STALE)
    said = {i["cell"]: i for i in issues if i["code"] == "BAD_VALUE"}
    assert set(said) == {"D4", "D6", "D8"}, issues
    for i in said.values():
        assert (i["severity"], i["file"], i["sheet"]) == ("info", "中国象棋-加赛.xlsx", "加赛")
        assert "未被采用" in i["message"] and "无需处理" in i["message"]
    # two of three level 16th: the playoff cannot order the three, and no award needs it
    assert "“韦芳”、“侯红静”" in said["D4"]["message"] and "并列第16名" in said["D4"]["message"]
    assert "“曹军怡”" in said["D4"]["message"]
    # not level: group place first (小组第4名 before 小组第6名), whatever the points
    assert "并没有并列" in said["D8"]["message"] and "小组第6名" in said["D8"]["message"]
    assert "并没有并列" in said["D6"]["message"]
    # a note: the ranking is right as it is, and the run needs nothing more
    assert not report.needs_attention
    assert final["尹鹏健"]["rank"] == "15"
    assert final["韦芳"]["rank"] == final["侯红静"]["rank"] == final["曹军怡"]["rank"] == "16"
    assert final["彭超辉"]["rank"] == "22"


#: rows the t2011 sample's 加赛表 held beside group C's (rows 4–7): 阶段 group, 组别 blank, two
#: players of different groups each (陶英 B / 黎玉静 C, 石辉辉 D / 江艳 A) — level in the final
#: places (6th, 10th; 7th, 9th before R2011-F2's 得分率), where no award is at stake and the tool asked for no 加赛
UNASKED = [(1, "陶英"), (2, "黎玉静"), (1, "石辉辉"), (2, "江艳")]


@pytest.mark.parametrize("group", [None, "B"])
def test_R2011_F1_playoff_rows_addressing_no_tie_are_warned_and_not_used(tmp_path, group):
    """R2011-F1 (一次加赛只决定它所针对的那次并列（加赛表上的阶段、组别和轮次）): a 加赛 row whose
    阶段/组别 names no tie — 阶段 group with 组别 blank (the groups are A–D), or group B for a
    player of group C — orders nothing.  The sample's such rows ordered the shared 7th and 9th
    places (7/8, 9/10; 6th and 10th since R2011-F2's 得分率) that nobody had asked a 加赛 for,
    with no word in issues.csv."""
    report, issues, final = _run(tmp_path, [(group, p, w) for p, w in UNASKED], stage="group")
    said = {i["cell"]: i for i in issues if i["code"] == "BAD_VALUE"}
    assert set(said) == {"D4", "D6"}, issues
    for i in said.values():
        assert (i["severity"], i["file"], i["sheet"]) == ("warning", "中国象棋-加赛.xlsx", "加赛")
        assert "不对应任何需要加赛的并列" in i["message"] and "未采用" in i["message"], i["message"]
    assert "“陶英”" in said["D4"]["message"] and "第4–5行" in said["D4"]["message"]
    assert ("组别空着" if group is None else "“黎玉静”在C组") in said["D4"]["message"], said["D4"]["message"]
    assert report.needs_attention
    # (the 小组第2名 and 第3名 of groups of 6 and 5 compared by 得分率, R2011-F2)
    assert final["陶英"]["rank"] == final["黎玉静"]["rank"] == "6"
    assert final["石辉辉"]["rank"] == final["江艳"]["rank"] == "10"
    # group C's playoff, which the tool asked for, still decides who advanced
    assert not [i for i in issues if i["code"] == "PLAYOFF_REQUIRED"]



def test_R2011_F1_upgraded_finished_event_keeps_places_its_unaddressed_rows_ordered(tmp_path, monkeypatch):
    """A t2011 league finished by a version before R2011-F1, its 加赛表 holding the sample's
    rows addressing no tie (阶段 group, 组别 blank): that version ordered the shared 7th and 9th
    places by them and published those places.  Upgraded, the places stay as published
    (PLACES_KEPT, info, 无需处理) — and the rows are not a warning asking for the sheet to be
    corrected and sent again (a resent sheet would place the event again and withdraw the
    published places): a note at each tie saying the published places, which used them, stand."""
    from pipeline import run as run_mod
    from pipeline.model import Playoff

    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))

    def write(wb):
        ws = wb["加赛"]
        ws.delete_rows(4, ws.max_row)          # group C's playoff (rows 2–3) kept
        for place, who in UNASKED:
            ws.append(["中国象棋", "group", None, place, who])
    edit_attachment(next((folder / "inbox").glob("*xiangqi-加赛*")), write)
    out = tmp_path / "out"
    with monkeypatch.context() as old:          # the version before: any label settled a tie
        old.setattr(Playoff, "addresses", lambda self, tied, played, blanks=False: True)
        old.setattr(run_mod.lastrun, "code_hash", lambda: "an-older-version")
        before = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert before.state.events["xiangqi"].complete and not before.needs_attention

    def awards():
        with open(out / "t2011-court" / "data" / "awards.csv", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    published = awards()
    monkeypatch.setattr(run_mod.lastrun, "code_hash", lambda: "this-version")
    (out / "t2011-court" / ".lastrun.json").unlink(missing_ok=True)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    (kept,) = [i for i in report.issues if i.code == "PLACES_KEPT"]
    assert kept.severity == "info" and "黎玉静" in kept.message, kept.message
    said = {i.cell: i for i in report.issues if i.code == "BAD_VALUE" and i.sheet == "加赛"}
    assert set(said) == {"D4", "D6"}, [(i.code, i.message) for i in report.issues]
    for i in said.values():
        assert i.severity == "info", i.message
        assert "改正后重新发送" not in i.message and "已公布的名次" in i.message and "保持不变" in i.message, i.message
    assert "采用了这几行" in said["D4"].message and "黎玉静" in said["D4"].message
    assert not report.needs_attention, [(i.code, i.severity, i.message) for i in report.issues if i.severity != "info"]
    assert awards() == published


def _t2020_xiangqi_playoffs(tmp_path: Path, r1_open: bool, stage: str | None = None) -> list[dict]:
    """The 2020 sample's BAD_VALUE issues about 象棋-加赛.xlsx, its round-1 table 1 left without a
    result (``r1_open``) and/or the 加赛 sheet of the final pool's ties (1118-xiangqi-加赛-4,
    阶段 final) given the 阶段 ``stage``."""
    from tests.e2e.mailedit import table_header

    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    if r1_open:
        def no_result(wb):
            ws = wb["成绩"]
            hrow, col = table_header(ws)
            ws.cell(hrow + 1, col["结果"]).value = None
        edit_attachment(next((folder / "inbox").glob("*-xiangqi-r1-成绩表.eml")), no_result)
    if stage is not None:
        def restage(wb):
            ws = wb["加赛"]
            for row in ws.iter_rows(min_row=2):
                if row[1].value == "final":
                    row[1].value = stage
        edit_attachment(next((folder / "inbox").glob("*-xiangqi-加赛-4.eml")), restage)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        return [i for i in csv.DictReader(f) if i["code"] == "BAD_VALUE" and i["file"] == "象棋-加赛.xlsx"]


def test_R2011_F1_a_playoff_of_a_stage_not_yet_played_is_not_said_to_be_of_no_stage(tmp_path):
    """R2011-F1: the 2020 象棋 (knockout, then a final pool of 3) with its round-1 table 1 still
    without a result, every later sheet received: its 加赛 sheet of 阶段 final (the final
    pool, not played yet) was warned “本项目没有“final”（决赛）这一阶段的比赛……请核对阶段和组别”
    — the event has that stage, it has just not reached it; the sheet is right as it is."""
    assert not _t2020_xiangqi_playoffs(tmp_path, r1_open=True)


def test_R2011_F1_a_playoff_of_a_stage_the_event_has_not_is_still_warned_once_played_out(tmp_path):
    """The same sheet naming 阶段 group, a stage the knockout 象棋 never has: once the event
    is played out it is said, as before."""
    said = _t2020_xiangqi_playoffs(tmp_path, r1_open=False, stage="group")
    assert said and all(i["severity"] == "warning" and "本项目没有“group”" in i["message"] for i in said), said
