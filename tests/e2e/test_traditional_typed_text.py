"""A Traditional league (R2015, ``script: traditional``) prints its sheets and pages in 繁體,
while what people type is compared and quoted as typed (an audit of t2015-tcm):

- the office copies a player's name from a (Traditional) draw sheet into ``withdrawn``
  (盧秀磊 for the registered 卢秀磊): it was WITHDRAWAL_UNMATCHED and the player stayed in
  the pairings, while a Traditional team label (藥學院1隊) and the 评奖表 were matched;
- the referees' page quoted the value a referee typed converted ("黑中盘胜" shown as
  "黑中盤勝") and its cell as 成績!F8 for the workbook's tab 成绩: neither is found in the
  workbook by searching for it."""
from __future__ import annotations

import csv
import datetime as dt
import html
import io
import re
import shutil
import sys
from pathlib import Path

import openpyxl

from pipeline.run import RunOptions, run
from pipeline.text import convert, keep
from pipeline.timeutil import TZ

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mailedit import edit_attachment, send_mail, t2015_forms, table_header  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _rows(out: Path, name: str) -> list[dict[str, str]]:
    with open(out / "data" / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _withdraw(folder: Path, names: list[str]) -> None:
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "  - id: go\n    name: 围棋\n" in text
    spec.write_text(text.replace("  - id: go\n    name: 围棋\n",
                                 f"  - id: go\n    name: 围棋\n    withdrawn: [{', '.join(names)}]\n", 1),
                    encoding="utf-8")


def test_R2015_Q1_a_player_withdrawn_by_the_traditional_name_the_sheets_print(tmp_path):
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
    for p in (folder / "inbox").glob("*-go-r*-成绩表.eml"):
        p.unlink()
    probe = run(RunOptions(folder=folder, out_parent=tmp_path / "probe", pdf=False, now=NOW))
    person = next(p for e in probe.state.events["go"].entries for p in e.players
                  if convert(p.name, "traditional") != p.name)
    typed = convert(person.name, "traditional")            # as the draw sheet prints it
    _withdraw(folder, [typed])
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    go = report.state.events["go"]
    gone = next(e.id for e in go.entries if person in e.players)
    assert gone not in {s for r in go.rounds for m in r.matches for s in m.sides}, typed
    assert "WITHDRAWAL_UNMATCHED" not in {i.code for i in report.issues}, typed


def test_R2015_Q1_a_traditional_name_of_two_people_is_not_withdrawn(tmp_path):
    """A Traditional name that reads in Simplified as two people's names (于丽 of one unit
    and 於丽 of another, 於麗 typed) withdraws neither, and the message names both."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
    for p in (folder / "inbox").glob("*-go-r*-成绩表.eml"):
        p.unlink()

    def name_a_go_player(name):
        def edit(wb):
            ws = wb["报名表"]
            hrow, col = table_header(ws, "姓名")
            row = next(r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["项目"]).value in ("围棋", "圍棋"))
            ws.cell(row, col["姓名"]).value = name
        return edit

    edit_attachment(folder / "inbox" / "1026-t03-报名表.eml", name_a_go_player("于丽"))
    edit_attachment(folder / "inbox" / "1026-t04-报名表.eml", name_a_go_player("於丽"))
    _withdraw(folder, ["於麗"])
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    go = report.state.events["go"]
    both = [e.id for e in go.entries if any(p.name in ("于丽", "於丽") for p in e.players)]
    assert len(both) == 2
    drawn = {s for r in go.rounds for m in r.matches for s in m.sides}
    assert all(e in drawn for e in both)
    said = [i.message for i in report.issues if i.code == "WITHDRAWAL_UNMATCHED"]
    assert len(said) == 1 and "于丽" in said[0] and "於丽" in said[0], said


def test_R2015_the_referees_page_quotes_a_typed_value_and_its_tab_as_in_the_workbook(tmp_path):
    folder, out = t2015_forms(tmp_path), tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 10, 31, 8, tzinfo=TZ)))
    (path,) = (out / "t2015-tcm" / "results").glob("go-r1-*.xlsx")
    wb = openpyxl.load_workbook(path)
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    ws.cell(hrow + 1, col["结果"]).value = "黑方赢了"      # refused (RESULT_INVALID)
    ws.cell(hrow + 2, col["结果"]).value = "白胜3/4子"     # read as 乙胜 (RESULT_READ_AS, a note)
    cells = [f"成绩!{ws.cell(hrow + k, col['结果']).coordinate}" for k in (1, 2)]
    buf = io.BytesIO()
    wb.save(buf)
    send_mail(folder, "go-r1.eml", [(path.name, buf.getvalue())], "Sat, 07 Nov 2015 11:50:00 +0800",
              sender="referee@union.example.edu.cn")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 11, 7, 12, tzinfo=TZ)))
    page = html.unescape((out / "t2015-tcm" / "branches" / "_.unassigned.html").read_text(encoding="utf-8"))
    said = re.findall(r"填的是[^<]*", page)
    assert any('"黑方赢了"' in s for s in said) and any('"白胜3/4子"' in s for s in said), said
    # the messages themselves are converted
    assert any("讀不出是哪一方勝" in s for s in said if '"黑方赢了"' in s), said
    assert any("按乙方（執白）勝計" in s for s in said if '"白胜3/4子"' in s), said
    assert all(c in page for c in cells) and "成績!" not in page
    # issues.csv (never converted) has no marks
    assert not [i for i in _rows(out / "t2015-tcm", "issues.csv") if "\ue000" in i["message"]]


def test_R2015_a_sheet_name_in_a_cell_reference_stays_as_the_workbook_names_it():
    assert convert("第1轮 成绩!F8：结果不是可选值", "traditional") == "第1輪 成绩!F8：結果不是可選值"
    assert convert("<td>报名表!E12</td><td>问题</td>", "traditional") == "<td>报名表!E12</td><td>問題</td>"
    assert convert("注意!这里", "traditional") == "注意!這裡"
    assert convert("《" + keep("行政报名表.xlsx") + "》的 报名表!B3", "traditional") == "《行政报名表.xlsx》的 报名表!B3"


def test_R2015_a_unit_page_quotes_a_typed_registration_value_as_typed(tmp_path):
    """A captain's typed value quoted in a registration message (an unknown event, a phone
    that is none) shows on the unit's page as the cell holds it — "象棋团体赛" is found in the
    form by searching for it, 象棋團體賽 is not — while the message around it is Traditional;
    issues.csv (never converted) holds no marks."""
    folder, out = t2015_forms(tmp_path), tmp_path / "out"

    def edit(wb):
        ws = wb["报名表"]
        hrow, col = table_header(ws, "姓名")
        row = next(r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["姓名"]).value)
        ws.cell(row, col["项目"]).value = "象棋团体赛"
        ws.cell(row, col["联系电话"]).value = "电话待补"

    edit_attachment(folder / "inbox" / "1026-t03-报名表.eml", edit)
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2015, 10, 31, 8, tzinfo=TZ)))
    page = html.unescape((out / "t2015-tcm" / "branches" / "t03.html").read_text(encoding="utf-8"))
    assert '"象棋团体赛" 不是本次比賽的項目' in page, re.findall(r"[^<>]*象棋[^<>]*", page)
    assert '"电话待补" 不是有效的電話號碼' in page, re.findall(r"[^<>]*待[^<>]*", page)
    assert "象棋團體賽" not in page and "電話待補" not in page
    rows = _rows(out / "t2015-tcm", "issues.csv")
    assert any('"象棋团体赛"' in i["message"] for i in rows)
    assert not [i for i in rows if "\ue000" in i["message"] or "\ue001" in i["message"]]


def test_R2015_the_run_summary_prints_no_marks_of_names_kept_as_received(tmp_path):
    """A review: in the Traditional league the summary's 未被接受的文件 line named a mail kept
    as received (pipeline.text.keep, by mailname.mail_named) with its marks, U+E000 … U+E001,
    printed to the console and replayed by every unchanged night from .lastrun.json."""
    from pipeline.lastrun import RunReport
    from pipeline.text import verbatim

    report = RunReport(out_dir=tmp_path)
    report.rejected_files = [f"针灸推拿学院分工会-报名表.xlsx（邮件《{verbatim('1026-t04-报名表.eml', 'traditional')}》的附件）"]
    summary = report.summary()
    assert "未被接受的文件：针灸推拿学院分工会-报名表.xlsx（邮件《1026-t04-报名表.eml》的附件）" in summary, summary
    assert "\ue000" not in summary and "\ue001" not in summary, summary
