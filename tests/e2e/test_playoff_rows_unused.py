"""R2011-F1, R2011-F2: a 加赛表's rows that rank nothing — players who are not level, or two of a
shared place that no award splits — are said at the sheet (a note), never dropped without a
word.  The t2011 sample's 加赛表 was made for an older ranking: beside group C's tie it ranked
尹鹏健 1 / 韦芳 2 (two of four level 15th), 谢娟晨 / 宋勇 and 彭超辉 / 曹军怡 (not level: the final
order goes by group place first), and the standings printed 并列 with nothing in issues.csv."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

from tests.e2e.mailedit import edit_attachment

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)

#: the stale sheet's rows 8–13 (名次, 参赛者), as the sample had them
STALE = [(1, "尹鹏健"), (2, "韦芳"), (1, "谢娟晨"), (2, "宋勇"), (1, "彭超辉"), (2, "曹军怡")]


def _run(tmp_path: Path, rows: list[tuple[int, str]]):
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)

    def write(wb):
        ws = wb["加赛"]
        ws.delete_rows(8, ws.max_row)
        for place, who in rows:
            ws.append(["中国象棋", "group", None, place, who])
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
    assert set(said) == {"D8", "D10", "D12"}, issues
    for i in said.values():
        assert (i["severity"], i["file"], i["sheet"]) == ("info", "中国象棋-加赛.xlsx", "加赛")
        assert "未被采用" in i["message"] and "无需处理" in i["message"]
    # two of four level 15th: the playoff cannot order the four, and no award needs it
    assert "“尹鹏健”、“韦芳”" in said["D8"]["message"] and "并列第15名" in said["D8"]["message"]
    assert "“侯红静”" in said["D8"]["message"] and "“曹军怡”" in said["D8"]["message"]
    # not level: group place first (小组第4名 before 小组第6名), whatever the points
    assert "并没有并列" in said["D12"]["message"] and "小组第6名" in said["D12"]["message"]
    assert "并没有并列" in said["D10"]["message"]
    # a note: the ranking is right as it is, and the run needs nothing more
    assert not report.needs_attention
    assert final["尹鹏健"]["rank"] == final["韦芳"]["rank"] == final["曹军怡"]["rank"] == "15"
    assert final["彭超辉"]["rank"] == "22"
    # the rows that rank a shared place whole are used, and not said
    assert (final["陶英"]["rank"], final["黎玉静"]["rank"]) == ("7", "8")
    assert (final["石辉辉"]["rank"], final["江艳"]["rank"]) == ("9", "10")

