"""R2011-R1 (迟到15分钟取消参赛资格) in t2011's place-deciding matches, through the sample's
flow (its result mails edited as a referee would fill them): one who lost a knockout match or
the 斗地主 final table by not coming has no place and no prize, the place stays vacant (空缺)
and PLACE_VACANT says so.  The audit of the t2011 sample found a semi-final entered 双方弃权
end the 象棋 event without a final (第三名 ¥100 to one of the absent), and the absent seat of
the 斗地主 final table take 第三名 ¥100."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _data(out: Path, name: str) -> list[dict]:
    with open(out / "t2011-court" / "data" / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _sample(tmp_path: Path) -> Path:
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    return folder


def _fill(table: int, **values):
    """Set the 成绩 row of ``table`` to ``values`` (column label → value; None clears)."""
    def edit(wb) -> None:
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        row = next(r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["桌号"]).value == table)
        for label, v in values.items():
            ws.cell(row, col[label]).value = v
    return edit


def test_R2011_F2_R2011_R1_a_semi_final_both_absent_in_the_sample(tmp_path):
    """象棋 semi-final 第1桌 (石丽力 对 苏旭凯) entered 双方弃权; 第2桌 郭伟 beat 钱浩.  The final
    and the third-place match are walkovers (no result sheet needed: the final's mail is not
    sent), the event completes, 第二名 is vacant and neither absentee has an award."""
    folder = _sample(tmp_path)
    inbox = folder / "inbox"
    (next(inbox.glob("*-xiangqi-r7-*.eml"))).unlink()
    edit_attachment(next(inbox.glob("*-xiangqi-r6-*.eml")),
                    _fill(1, 结果="双方弃权", 原因="弃权", 甲方签名=None, 乙方签名=None))
    out = tmp_path / "out"
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert any("中国象棋" in e and "已完成" in e for e in report.events), report.events
    awards = [(r["award"], r["team"], r["prize"]) for r in _data(out, "awards.csv") if r["event"] == "xiangqi"]
    assert awards == [("第一名", "郭伟", "300"), ("第二名", "空缺", "0"), ("第三名", "钱浩", "100")]
    final = [(r["group"], r["team"], r["bye"]) for r in _data(out, "draw.csv") if r["event"] == "xiangqi" and r["round"] == "7"]
    assert final == [("", "郭伟", "1"), ("三四名", "钱浩", "1")]
    vacant = [i for i in _data(out, "issues.csv") if i["code"] == "PLACE_VACANT"]
    assert [i["severity"] for i in vacant] == ["warning", "warning"], vacant
    assert "第2名空缺（第二名，奖金 200 元不发" in vacant[0]["message"] and "第4名空缺" in vacant[1]["message"]
    assert all("石丽力" in i["message"] and "苏旭凯" in i["message"] and "双方弃权" in i["message"]
               and (i["sheet"], i["cell"]) == ("成绩", "F8") for i in vacant)
    overall = {r["rank"]: r for r in _data(out, "standings.csv") if r["event"] == "xiangqi" and r["stage"] == "overall"}
    assert {overall["2"]["team"], overall["4"]["team"]} == {"石丽力", "苏旭凯"} and "空缺" in overall["2"]["tier"]
    certificates = (out / "t2011-court" / "certificates.html").read_text(encoding="utf-8")
    assert "空缺" not in certificates and "石丽力" not in certificates and "苏旭凯" not in certificates
    assert report.needs_attention


def test_R2011_R1_R2020_D2_a_final_table_seat_absent_in_the_sample(tmp_path):
    """斗地主's final table (董艳英, 刘平, 袁萍俊) with 丙 弃权: 袁萍俊 had 第三名 ¥100."""
    folder = _sample(tmp_path)
    edit_attachment(next((folder / "inbox").glob("*-doudizhu-r4-*.eml")),
                    _fill(1, 甲得分=12, 乙得分=8, 丙得分=None, 弃权="丙", 丙签名=None))
    out = tmp_path / "out"
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    awards = [(r["award"], r["team"], r["prize"]) for r in _data(out, "awards.csv") if r["event"] == "doudizhu"]
    assert awards == [("第一名", "董艳英", "300"), ("第二名", "刘平", "200"), ("第三名", "空缺", "0")]
    (vacant,) = [i for i in _data(out, "issues.csv") if i["code"] == "PLACE_VACANT"]
    assert "斗地主：第3名空缺（第三名，奖金 100 元不发" in vacant["message"] and "袁萍俊" in vacant["message"]
    assert (vacant["sheet"], vacant["cell"]) == ("成绩", "K7") and vacant["severity"] == "warning"
    assert "袁萍俊" not in (out / "t2011-court" / "certificates.html").read_text(encoding="utf-8")
    assert report.needs_attention
