"""A referee's result sheet whose sides or table numbers no longer match the draw: results are
scored by seat and table, so such a row is RESULT_INVALID at its cell and not counted."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import openpyxl

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def _sample_mail(tmp_path: Path, part: str) -> tuple[Path, Path]:
    """A copy of the 2020 league and its inbox mail whose name holds ``part`` (xiangqi-r1 …)."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    return folder, next(p for p in (folder / "inbox").glob("*.eml") if part in p.name)


def _edit_xiangqi_r1(tmp_path: Path, edit, sheet: str = "xiangqi-r1") -> tuple[list[dict[str, str]], object]:
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    eml = next(p for p in (folder / "inbox").glob("*.eml") if sheet in p.name)

    def on_sheet(wb):
        edit(wb["成绩"], *table_header(wb["成绩"]))
    edit_attachment(eml, on_sheet)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f)), report


def test_swapped_sides_are_not_scored_for_the_wrong_player(tmp_path):
    def swap(ws, hrow, col):
        a, b = ws.cell(hrow + 1, col["甲方"]), ws.cell(hrow + 1, col["乙方"])
        a.value, b.value = b.value, a.value
    issues, report = _edit_xiangqi_r1(tmp_path, swap)
    (bad,) = [i for i in issues if i["code"] == "RESULT_INVALID" and i["file"] == "xiangqi-r1-成绩表.xlsx"]
    assert bad["sheet"] == "成绩" and bad["cell"].startswith("D") and "（抽签为乙方）" in bad["message"]
    assert report.needs_attention and any("象棋" in e and "还差 1 桌" in e for e in report.events)
    # its sheet came: the table is said to need correcting, not to be missing
    assert any("象棋" in e and "第1桌成绩有误待改正" in e for e in report.events), report.events
    assert not [i for i in issues if i["code"] == "RESULT_MISSING" and "象棋" in i["message"]]
    # the office is told to go to the referee, not to send registration forms back
    assert any("告知裁判" in s for s in report.next_steps)
    assert not any("退回各单位" in s for s in report.next_steps)


def test_a_side_that_is_not_at_this_table_is_refused(tmp_path):
    def stranger(ws, hrow, col):
        ws.cell(hrow + 1, col["甲方"]).value = "张冒名（行政一）"
    issues, _ = _edit_xiangqi_r1(tmp_path, stranger)
    (bad,) = [i for i in issues if i["code"] == "RESULT_INVALID" and i["file"] == "xiangqi-r1-成绩表.xlsx"]
    assert "“张冒名（行政一）”（不是本桌选手）" in bad["message"]


def test_a_table_filled_twice_keeps_the_first_row_and_says_which(tmp_path):
    """The second row is table 1 again (its 桌号 copied from the first, its sides cleared): a
    mistyped 桌号 — it is not counted, and the message names both rows.  (Both lines naming
    table 1's sides with other results are a conflict: test_table_twice_on_one_sheet.py.)"""
    def twice(ws, hrow, col):
        ws.cell(hrow + 2, col["桌号"]).value = ws.cell(hrow + 1, col["桌号"]).value
        for label in ("甲方", "乙方"):
            ws.cell(hrow + 2, col[label]).value = None
    issues, report = _edit_xiangqi_r1(tmp_path, twice)
    (bad,) = [i for i in issues if i["code"] == "RESULT_INVALID" and i["file"] == "xiangqi-r1-成绩表.xlsx"]
    assert bad["cell"].startswith("C")          # its 桌号 cell
    assert "又填了一次，未计入" in bad["message"]
    assert not [i for i in issues if i["code"] == "RESULT_CONFLICT"]


def test_the_same_row_twice_counts_once_as_a_note(tmp_path):
    """A table's row copied below itself (every cell alike): counted once, a note at the
    copy's 桌号 — the sheet was an error (exit 1) though its result counted."""
    def copied(ws, hrow, col):
        ws.insert_rows(hrow + 2)
        for j in range(1, ws.max_column + 1):
            ws.cell(hrow + 2, j).value = ws.cell(hrow + 1, j).value
    issues, report = _edit_xiangqi_r1(tmp_path, copied)
    (said,) = [i for i in issues if i["file"] == "xiangqi-r1-成绩表.xlsx" and i["code"] == "RESULT_INVALID"]
    assert said["severity"] == "info" and said["cell"].startswith("C") and "两行完全相同，按一次计入" in said["message"]
    assert not any("象棋" in e and "还差" in e for e in report.events), report.events


def test_a_mistyped_table_number_refuses_that_row_only(tmp_path):
    """Row 8 typed table 1's number: its sides are not table 1's, so it is refused — and
    table 1's own row still counts (a refused row claims no table).  Its sides are exactly
    table 2's: the 桌号 is said to be wrong, at its cell (not the names)."""
    def mistyped(ws, hrow, col):
        ws.cell(hrow + 2, col["桌号"]).value = ws.cell(hrow + 1, col["桌号"]).value
    issues, report = _edit_xiangqi_r1(tmp_path, mistyped)
    (bad,) = [i for i in issues if i["code"] == "RESULT_INVALID" and i["file"] == "xiangqi-r1-成绩表.xlsx"]
    assert bad["cell"] == "C8" and "桌号填的是1" in bad["message"] and "请把桌号改回2" in bad["message"], bad
    assert "不是本桌选手" not in bad["message"]
    assert any("象棋" in e and "还差 1 桌" in e for e in report.events)


def test_two_rows_with_their_table_numbers_swapped_are_told_to_change_the_table_number(tmp_path):
    """The 桌号 of tables 1 and 2 swapped, their names left as drawn: each row's sides are
    exactly the other table's, so it is the 桌号 that is wrong — said at the 桌号 cell,
    naming the table the sides were drawn at (it blamed the names: “甲方填的是…（不是本桌
    选手）…请按抽签表的座位填写”, at the 甲方 cell).  Neither row is counted."""
    def swap(ws, hrow, col):
        a, b = ws.cell(hrow + 1, col["桌号"]), ws.cell(hrow + 2, col["桌号"])
        assert (a.value, b.value) == (1, 2)
        a.value, b.value = b.value, a.value
    issues, report = _edit_xiangqi_r1(tmp_path, swap)
    bad = sorted((i for i in issues if i["code"] == "RESULT_INVALID" and i["file"] == "xiangqi-r1-成绩表.xlsx"),
                 key=lambda i: i["cell"])
    assert [i["cell"] for i in bad] == ["C7", "C8"], bad
    assert all(i["severity"] == "error" for i in bad)
    first, second = (i["message"] for i in bad)
    assert "桌号填的是2，但" in first and "是第1桌" in first and "请把桌号改回1" in first, first
    assert "桌号填的是1，但" in second and "是第2桌" in second and "请把桌号改回2" in second, second
    assert not any("不是本桌选手" in m or "请按抽签表的座位填写" in m for m in (first, second)), bad
    assert any("象棋" in e and "还差 2 桌" in e for e in report.events), report.events


def _t2020_with_sheets(tmp_path: Path, *keep: str) -> tuple[Path, Path, dt.datetime]:
    """The 2020 sample in ``tmp_path`` with only the result sheets whose mail names one of
    ``keep`` (no 加赛 sheet), run once: (folder, output parent, the runs' --now)."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    for p in (folder / "inbox").glob("*"):
        if ("成绩表" in p.name and not any(k in p.name for k in keep)) or "加赛" in p.name:
            p.unlink()
    out = tmp_path / "out"
    now = dt.datetime(2030, 1, 1, tzinfo=TZ)
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    return folder, out, now


def test_a_result_corrected_after_the_next_round_was_drawn_is_told_not_redrawn(tmp_path):
    """Round 2 of 象棋 was drawn from round 1's results; a corrected round-1 sheet arrives
    later (table 1 now 乙胜).  Round 2 stays as published, and DRAW_INPUT_CHANGED names it."""
    folder, out, now = _t2020_with_sheets(tmp_path, "xiangqi-r1")
    draw_before = (out / "t2020-league" / "data" / "draw.csv").read_text(encoding="utf-8")
    assert ",xiangqi" in draw_before or "xiangqi," in draw_before
    def flip(wb):
        wb["成绩"]["F7"], wb["成绩"]["G7"] = "乙胜", "认输"
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r1*")), flip, folder / "inbox" / "corrected-xiangqi-r1.eml",
                    date="Thu, 12 Nov 2020 09:00:00 +0800")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        issues = list(csv.DictReader(f))
    changed = [i for i in issues if i["code"] == "DRAW_INPUT_CHANGED"]
    assert len(changed) == 1 and "象棋 第2轮" in changed[0]["message"] and "不会重新抽签" in changed[0]["message"]
    # the table and the player the correction concerns: the new winner is not in round 2
    assert "按现在的成绩，第1轮淘汰赛（22进11）第1桌 " in changed[0]["message"]
    assert "胜出，却不在已公布的第2轮" in changed[0]["message"]
    draw_after = (out / "t2020-league" / "data" / "draw.csv").read_text(encoding="utf-8")
    r2 = lambda text: [l for l in text.splitlines() if l.startswith("xiangqi,") and ",2," in l]
    assert r2(draw_after) == r2(draw_before) and r2(draw_before)
    # the referees play round 2 on the published draw; the office then runs into a new output
    # folder (no ledger there): round 2 would be drawn otherwise from the corrected results,
    # and the played sheet would not fit it — it is not drawn, and the message sends the
    # office back to the old folder
    sheet = out / "t2020-league" / "results" / "xiangqi-r2-成绩表.xlsx"
    shutil.copy(sheet, folder / "inbox" / "xiangqi-r2-成绩表.xlsx")
    run(RunOptions(folder=folder, out_parent=tmp_path / "elsewhere", pdf=False, now=now))
    with open(tmp_path / "elsewhere" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        misfit = [i for i in csv.DictReader(f) if i["code"] == "DRAWN_ELSEWHERE" and "xiangqi-r2" in i["file"]]
    assert len(misfit) == 1 and "恢复原来的输出文件夹" in misfit[0]["message"]
    elsewhere = (tmp_path / "elsewhere" / "t2020-league" / "data" / "draw.csv").read_text(encoding="utf-8")
    assert not [line for line in elsewhere.splitlines() if line.split(",")[:3] == ["xiangqi", "ko", "2"]]


def test_R2016_F3_a_draw_voided_in_tournament_yaml_no_longer_holds_the_round(tmp_path):
    """DRAWN_ELSEWHERE's way out works, and archiving the mail is none: 掼蛋 round 3's sheet
    from another draw (the sample's, played on a draw from other round-2 results) comes
    before round 3 is drawn here (ROUND_NOT_DRAWN); once round 2 is complete, round 3 waits
    (DRAWN_ELSEWHERE).  The office archives its mail as every morning (out of the inbox): the
    round still waits — that is no decision to redraw.  It lists the draw's digest in the
    event's ``voided_draws`` (as the message says): round 3 is drawn (R2016-F3, by this
    ledger's standings), and the old sheet is a note.  The advice had been to move the
    sheets out of the inbox, which did nothing: the ledger keeps every sheet received."""
    import re

    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    held = tmp_path / "held"
    held.mkdir()
    for p in (folder / "inbox").glob("*.eml"):
        if "-r2-" in p.name or "-r3-" in p.name or "加赛" in p.name:
            shutil.move(p, held / p.name)
    r2, r3 = (next(held.glob(f"*-{r}-*.eml")) for r in ("r2", "r3"))

    def other_result(wb):       # A组第1桌 the other way round: round 3 pairs otherwise here
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        for label, value in (("甲方级数", "7"), ("乙方级数", "A"), ("台上方", "乙")):
            ws.cell(hrow + 1, col[label]).value = value
    edit_attachment(r2, other_result)
    out = tmp_path / "out"

    def night(hour: int) -> list[dict[str, str]]:
        run(RunOptions(folder=folder, out_parent=out, pdf=False,
                       now=dt.datetime(2016, 11, 26, 12, hour, tzinfo=TZ)))
        with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
            return [i for i in csv.DictReader(f) if i["file"] == "guandan-r3-成绩表.xlsx"]

    def drawn() -> set[str]:
        with open(out / "t2016-poker" / "data" / "draw.csv", encoding="utf-8") as f:
            return {r["round"] for r in csv.DictReader(f) if r["event"] == "guandan"}
    night(15)
    assert drawn() == {"1", "2"}
    shutil.copy(r3, folder / "inbox" / r3.name)
    assert [i["code"] for i in night(25) if i["severity"] == "warning"] == ["ROUND_NOT_DRAWN"]
    shutil.copy(r2, folder / "inbox" / r2.name)
    (stuck,) = [i for i in night(35) if i["code"] == "DRAWN_ELSEWHERE"]
    assert drawn() == {"1", "2"} and "voided_draws" in stuck["message"], stuck
    was = re.search(r"voided_draws: \[\"([0-9a-f]+)\"\]", stuck["message"]).group(1)
    for p in (folder / "inbox").glob("*.eml"):      # the morning's archiving
        shutil.move(p, held / f"archived-{p.name}")
    assert [i["code"] for i in night(40) if i["code"] == "DRAWN_ELSEWHERE"] == ["DRAWN_ELSEWHERE"]
    assert drawn() == {"1", "2"}
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("    name: 扑克牌\n", f"    name: 扑克牌\n    voided_draws: [\"{was[:8]}\"]\n", 1),
                    encoding="utf-8")
    left = night(45)
    assert drawn() == {"1", "2", "3"}
    # the voided draw's sheet is no longer the office's to act on: a note, not an error
    assert [i["severity"] for i in left] == ["info"] and "voided_draws 中作废" in left[0]["message"], left


def test_R2015_A1_a_corrected_awards_sheet_replaces_the_first(tmp_path):
    """The organisers resend 评奖 with 风尚奖 given to someone else: the awards are the newer
    sheet's (they were listed twice, the old 风尚奖 beside the new)."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
    for p in (folder / "inbox-mistakes",):
        if p.exists():
            shutil.rmtree(p)
    def other_award(wb):
        ws = wb["评奖"]
        row = next(r for r in range(1, 30) if ws.cell(r, 1).value == "风尚奖")
        head = next(r for r in range(1, row) if any(c.value == "姓名" for c in ws[r]))
        ws.cell(row, {c.value: c.column for c in ws[head] if c.value}["奖项"]).value = "特别贡献奖"
    edit_attachment(next((folder / "inbox").glob("*评奖*")), other_award, folder / "inbox" / "corrected-评奖.eml",
                    date="Mon, 07 Dec 2015 09:00:00 +0800")
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(out / "t2015-tcm" / "data" / "awards.csv", encoding="utf-8") as f:
        awards = [r["award"] for r in csv.DictReader(f) if r["rank"] == "0"]
    assert "风尚奖" not in awards and awards.count("特别贡献奖") == 2 and awards.count("组织奖") == 2
    with open(out / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
        assert any(i["code"] == "SUPERSEDED" and "评奖表" in i["message"] for i in csv.DictReader(f))


def _saved_as(data: bytes, when: str) -> bytes:
    """A workbook's bytes recorded as last saved at ``when`` (docProps/core.xml's dcterms:modified)."""
    import io
    import re
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            part = zin.read(info)
            if info.filename == "docProps/core.xml":
                part = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + when.encode(), part)
            zout.writestr(info, part)
    return buf.getvalue()


def test_R2015_A1_two_awards_sheets_in_one_mail_the_one_saved_later_counts(tmp_path):
    """One office mail with 评奖-初稿.xlsx and 评奖-终稿.xlsx attached: which counted went by the
    files' hashes (random per save), and SUPERSEDED said the other was "已被其后收到的…取代".
    As for two registration forms received together (SAME_TIME): the one saved later counts,
    whichever it is, SAME_TIME says so and how to make the other count, and SUPERSEDED says
    the two came together."""
    import email
    import email.policy
    import io

    for final_saved_later in (True, False):
        folder = tmp_path / str(final_saved_later) / "t2015-tcm"
        shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
        eml = next((folder / "inbox").glob("*评奖*"))
        msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
        part = next(msg.iter_attachments())
        draft = part.get_content()
        wb = openpyxl.load_workbook(io.BytesIO(draft))
        ws = wb["评奖"]
        ws.cell(next(r for r in range(1, 30) if ws.cell(r, 1).value == "风尚奖"), 1).value = "特别贡献奖"
        buf = io.BytesIO()
        wb.save(buf)
        early, late = "2015-12-05T10:00:00Z", "2015-12-05T11:00:00Z"
        books = [("评奖-初稿.xlsx", _saved_as(draft, late if not final_saved_later else early)),
                 ("评奖-终稿.xlsx", _saved_as(buf.getvalue(), late if final_saved_later else early))]
        xlsx = dict(maintype="application", subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        part.set_content(books[0][1], filename=books[0][0], **xlsx)
        msg.add_attachment(books[1][1], filename=books[1][0], **xlsx)
        eml.write_bytes(bytes(msg))
        out = tmp_path / str(final_saved_later) / "out"
        run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
        with open(out / "t2015-tcm" / "data" / "awards.csv", encoding="utf-8") as f:
            awards = [r["award"] for r in csv.DictReader(f) if r["rank"] == "0"]
        assert ("风尚奖" not in awards) is final_saved_later, (final_saved_later, awards)
        used, other = ("评奖-终稿.xlsx", "评奖-初稿.xlsx") if final_saved_later else ("评奖-初稿.xlsx", "评奖-终稿.xlsx")
        with open(out / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
            said = [i for i in csv.DictReader(f) if i["code"] in ("SAME_TIME", "SUPERSEDED")]
        assert sorted((i["code"], i["severity"], i["file"]) for i in said) == [
            ("SAME_TIME", "warning", used), ("SUPERSEDED", "info", other)], said
        by = {i["code"]: i["message"] for i in said}
        assert "其后收到" not in by["SUPERSEDED"] and "同时收到" in by["SUPERSEDED"] and "按表格保存时间" in by["SUPERSEDED"]
        assert f"按表格最后保存的时间以《{used}》为准" in by["SAME_TIME"]


def test_a_row_of_no_drawn_table_is_said_at_its_cell(tmp_path):
    def elsewhere(ws, hrow, col):
        ws.cell(hrow + 1, col["桌号"]).value = 99
    issues, _ = _edit_xiangqi_r1(tmp_path, elsewhere)
    (bad,) = [i for i in issues if i["code"] == "RESULT_INVALID" and i["file"] == "xiangqi-r1-成绩表.xlsx"]
    assert bad["cell"] == "C7" and "桌号 99 不是本轮抽签中的桌（本轮为第1—11桌）" in bad["message"]


def test_a_row_with_a_wrong_round_is_said_at_its_round_cell_with_its_players(tmp_path):
    """A referee typed 2 in one row's 轮次 of the round-1 sheet: the problem was said at
    the row's 桌号 (which was right), and not whose row it was.  It is the 轮次 (or the sheet)
    that is wrong, not the table: it read “轮次 2、桌号 1 不是本轮抽签中的桌（本轮为第1—11桌）”
    (t2015: a round-2 sheet reused for round 3, 轮次 typed 3 in every row)."""
    def round_two(ws, hrow, col):
        ws.cell(hrow + 1, col["轮次"]).value = 2
    issues, _ = _edit_xiangqi_r1(tmp_path, round_two)
    (bad,) = [i for i in issues if i["code"] == "RESULT_INVALID" and i["file"] == "xiangqi-r1-成绩表.xlsx"]
    assert bad["cell"] == "A7" and "轮次填的是 2，但这是第1轮的成绩表（这一行填的是“" in bad["message"], bad
    assert "不是本轮抽签中的桌" not in bad["message"]
    assert "把轮次改为 1" in bad["message"] and "下发的成绩表（results/" not in bad["message"], bad  # (round 2 not drawn)


def test_a_round_2_row_typed_round_1_names_the_round_1_sheet(tmp_path):
    """A round typed in 轮次 that is drawn: its own sheet is named (a sheet of another round
    reused, its 轮次 changed)."""
    def round_one(ws, hrow, col):
        ws.cell(hrow + 1, col["轮次"]).value = 1
    issues, _ = _edit_xiangqi_r1(tmp_path, round_one, sheet="xiangqi-r2")
    (bad,) = [i for i in issues if i["code"] == "RESULT_INVALID" and i["file"] == "xiangqi-r2-成绩表.xlsx"]
    assert "轮次填的是 1，但这是第2轮的成绩表" in bad["message"], bad
    assert "第1轮的成绩请填在第1轮下发的成绩表（results/xiangqi-r1-成绩表.xlsx）上发送" in bad["message"], bad


def test_a_round_written_as_di_1_lun_is_round_1(tmp_path):
    """轮次 typed "第1轮" (and a 桌号 "第N桌") on the round-1 sheet: each such row was refused
    with "轮次填的是 第1轮，但这是第1轮的成绩表…把轮次改为 1", and the round waited for them."""
    def in_words(ws, hrow, col):
        for r in range(hrow + 1, ws.max_row + 1):
            if ws.cell(r, col["轮次"]).value is not None:
                ws.cell(r, col["轮次"]).value = "第1轮" if r % 2 else "第一轮"
                if r % 3 == 0:
                    ws.cell(r, col["桌号"]).value = f"第{ws.cell(r, col['桌号']).value}桌"
    issues, report = _edit_xiangqi_r1(tmp_path, in_words)
    mine = [i for i in issues if i["file"] == "xiangqi-r1-成绩表.xlsx"]
    assert mine == [], mine
    assert not any("象棋" in e and "还差" in e for e in report.events), report.events


def _round_2_rows_on_round_1s_sheet(tmp_path: Path, round_no: int) -> tuple[list[dict[str, str]], object]:
    """Round 2 of 象棋 drawn and published; then round 2's results (the sample's) typed into a
    copy of round 1's filled sheet, 轮次 written ``round_no``, arrive."""
    import email
    import email.policy
    import io

    folder, out, now = _t2020_with_sheets(tmp_path, "xiangqi-r1")
    r2 = next(p for p in (ROOT / "sample_sheets" / "t2020-league" / "inbox").glob("*.eml") if "xiangqi-r2" in p.name)
    msg = email.message_from_bytes(r2.read_bytes(), policy=email.policy.default)
    ws2 = openpyxl.load_workbook(io.BytesIO(next(msg.iter_attachments()).get_content()))["成绩"]
    h2, c2 = table_header(ws2)
    rows2 = [[ws2.cell(r, c).value for c in range(1, ws2.max_column + 1)]
             for r in range(h2 + 1, ws2.max_row + 1) if isinstance(ws2.cell(r, c2["桌号"]).value, int)]

    def retype(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        assert col == c2
        for r in range(hrow + 1, ws.max_row + 1):
            for c in range(1, ws.max_column + 1):
                if hasattr(ws.cell(r, c), "column_letter"):
                    ws.cell(r, c).value = None
        for i, values in enumerate(rows2, 1):
            for c, v in enumerate(values, 1):
                ws.cell(hrow + i, c).value = round_no if c == col["轮次"] else v
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r1*")), retype,
                    save_as=folder / "inbox" / "11111755-xiangqi-r2-copy.eml", date="Wed, 11 Nov 2020 17:55:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        issues = [i for i in csv.DictReader(f) if i["code"] == "RESULT_INVALID" and "象棋" in i["message"]]
    return issues, report


def test_round_2s_rows_on_round_1s_sheet_are_said_to_be_round_2s(tmp_path):
    """Round 2's results typed into a copy of round 1's sheet, 轮次 left at 1: every row was
    told its sides were "不是本桌选手 … 请按抽签表的座位填写", though each was exactly a table
    of round 2's draw.  Each says whose table it is and names round 2's sheet; it still is not
    counted (for round 1 or round 2: a sheet counts for the round it was issued for)."""
    issues, report = _round_2_rows_on_round_1s_sheet(tmp_path, 1)
    played = [i for i in issues if "轮空" not in i["message"]]
    assert len(played) == 5, issues
    first = next(i for i in played if i["cell"].endswith("7"))
    assert first["cell"] == "A7", first          # its 轮次
    assert "这一行的选手是第2轮第1桌的对阵" in first["message"], first
    assert "results/xiangqi-r2-成绩表.xlsx" in first["message"], first
    assert "不是本桌选手" not in first["message"] and "请按抽签表的座位填写" not in first["message"], first
    assert all("这一行的选手是第2轮第" in i["message"] for i in played), played
    assert any("象棋" in e and "等待第2轮" in e and "还差 5 桌" in e for e in report.events), report.events


def test_round_2s_rows_on_round_1s_sheet_with_round_2_typed_are_said_as_before(tmp_path):
    """The same rows with 轮次 2: a row of another round on round 1's sheet, naming round 2's
    sheet (as it was)."""
    issues, _ = _round_2_rows_on_round_1s_sheet(tmp_path, 2)
    assert issues and all("但这是第1轮的成绩表" in i["message"] and "results/xiangqi-r2-成绩表.xlsx" in i["message"]
                          for i in issues if "轮空" not in i["message"]), issues


def _round_2s_own_sheet_later(tmp_path: Path, edit=None, at: str = "19:30") -> tuple[list[dict[str, str]], object]:
    """After :func:`_round_2_rows_on_round_1s_sheet` (轮次 2, received 17:55), round 2's own
    sheet (the sample's, changed by ``edit`` (ws, header row, columns) if given), received
    ``at`` that day, is read; the night's RESULT_INVALID of 象棋 and report."""
    issues, _ = _round_2_rows_on_round_1s_sheet(tmp_path, 2)
    assert issues and all(i["severity"] == "error" for i in issues if "但这是第1轮的成绩表" in i["message"]), issues
    folder, out = tmp_path / "t2020-league", tmp_path / "out"
    r2 = next(p for p in (ROOT / "sample_sheets" / "t2020-league" / "inbox").glob("*.eml") if "xiangqi-r2" in p.name)

    def own(wb):
        if edit is not None:
            edit(wb["成绩"], *table_header(wb["成绩"]))
    edit_attachment(r2, own, save_as=folder / "inbox" / f"1111{at.replace(':', '')}-xiangqi-r2-own.eml",
                    date=f"Wed, 11 Nov 2020 {at}:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        issues = [i for i in csv.DictReader(f) if i["code"] == "RESULT_INVALID" and "象棋" in i["message"]]
    return issues, report


def test_round_2s_rows_on_round_1s_sheet_are_settled_by_round_2s_own_sheet(tmp_path):
    """Round 2's results typed on a copy of round 1's sheet (轮次 2) are refused, each an error
    naming round 2's sheet.  Once round 2's own sheet has come and scored each of those tables
    (with the same results), nothing is left to do: they were errors for good (every later
    night exited 1, and 下一步 said to tell the referee), though the file stays in received/.
    Each is now a note saying round 2's sheet filled the table."""
    issues, report = _round_2s_own_sheet_later(tmp_path)
    wrong = [i for i in issues if "但这是第1轮的成绩表" in i["message"]]
    assert len(wrong) >= 5, issues
    assert all(i["severity"] == "info" and "（第2轮成绩表已填写这一桌，无需再处理。）" in i["message"]
               for i in wrong), [(i["severity"], i["message"]) for i in wrong]
    assert not [i for i in issues if i["severity"] == "error"], issues
    assert not any("告知裁判" in s for s in report.next_steps), report.next_steps


def test_round_2s_own_sheet_that_differs_from_the_copy_counts_and_says_so(tmp_path):
    """The same with round 2's own sheet giving table 1 another result than the copy: the
    own sheet counts (received later, the round's sheet); the copy's row is a note saying
    its result differed and that round 2's sheet is what counts."""
    def other_result(ws, hrow, col):
        c = ws.cell(hrow + 1, col["结果"])
        c.value = "乙胜" if c.value != "乙胜" else "甲胜"
    issues, _ = _round_2s_own_sheet_later(tmp_path, other_result)
    wrong = [i for i in issues if "但这是第1轮的成绩表" in i["message"]]
    assert all(i["severity"] == "info" for i in wrong), [(i["severity"], i["message"]) for i in wrong]
    (differs,) = [i for i in wrong if "不同" in i["message"]]
    assert differs["cell"] == "A7" and "以第2轮成绩表为准" in differs["message"], differs


def _r1_edited_then_r2_own(folder: Path, out: Path, now, edit, name: str) -> tuple:
    """Round 1's 象棋 sheet edited by ``edit`` and sent again at 18:00 as ``name``, a run, then
    round 2's own sheet at 19:30 and a run: (the report, the issues saying a row is another
    round's — "但这是第1轮的成绩表")."""
    r1 = next((folder / "inbox").glob("*xiangqi-r1*"))
    edit_attachment(r1, edit, save_as=folder / "inbox" / name, date="Wed, 11 Nov 2020 18:00:00 +0800")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    r2 = next(p for p in (ROOT / "sample_sheets" / "t2020-league" / "inbox").glob("*.eml") if "xiangqi-r2" in p.name)
    edit_attachment(r2, lambda wb: None, save_as=folder / "inbox" / "11111930-xiangqi-r2-own.eml",
                    date="Wed, 11 Nov 2020 19:30:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        return report, [i for i in csv.DictReader(f) if "但这是第1轮的成绩表" in i["message"]]


def test_R2016_F3_a_copy_of_the_last_rounds_sheet_with_its_names_left_is_settled_by_the_rounds_own_sheet(tmp_path):
    """The audit's case (t2016-poker): the next round's results typed on a copy of the last
    round's filled sheet, only 轮次 changed on some rows, the names left as printed.  Each row
    names the last round's table (scored from its own sheet) at a place of the next round;
    once the next round's own sheet has scored those places, the refusals are notes."""
    folder, out, now = _t2020_with_sheets(tmp_path, "xiangqi-r1")

    def retyped(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        for r in range(hrow + 1, hrow + 4):
            ws.cell(r, col["轮次"]).value = 2
    report, wrong = _r1_edited_then_r2_own(folder, out, now, retyped, "11111800-xiangqi-r1-copy.eml")
    assert [i["cell"] for i in wrong] == ["A7", "A8", "A9"], wrong
    assert all(i["severity"] == "info" and "第2轮成绩表" in i["message"] and "无需再处理" in i["message"]
               for i in wrong), [(i["severity"], i["message"]) for i in wrong]
    assert not any("告知裁判" in s for s in report.next_steps), report.next_steps


def test_R2016_F3_a_correction_with_its_round_mistyped_is_not_settled_by_the_next_rounds_sheet(tmp_path):
    """R2016-F3's settling is for a round's results typed on a copy of another round's sheet.
    A corrected round-1 sheet whose one changed row (第1桌, 结果 flipped) has 轮次 mistyped 2
    — its names still round 1's — is RESULT_INVALID (把轮次改为 1).  Round 2's own sheet then
    came and made it a note (第2轮成绩表已填写这一桌，无需再处理): nothing left for the
    referee, and round 1 still counted the old result — the correction lost without a word.
    A single row whose values differ from what counts for its sheet's own round stays an error."""
    folder, out, now = _t2020_with_sheets(tmp_path, "xiangqi-r1")

    def corrected(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        c = ws.cell(hrow + 1, col["结果"])
        c.value = "乙胜" if c.value != "乙胜" else "甲胜"
        ws.cell(hrow + 1, col["轮次"]).value = 2
    report, wrong = _r1_edited_then_r2_own(folder, out, now, corrected, "11111800-xiangqi-r1-corrected.eml")
    (bad,) = wrong
    assert bad["cell"] == "A7" and bad["severity"] == "error" and "把轮次改为 1" in bad["message"], bad
    assert "无需再处理" not in bad["message"], bad
    assert any("告知裁判" in s for s in report.next_steps), report.next_steps


def test_R2016_F3_round_2s_results_on_a_copy_with_round_1s_names_left_are_settled(tmp_path):
    """The other side: round 2's results typed on a copy of round 1's sheet as a whole — every
    row's 轮次 2 and 结果 round 2's, the names left as round 1's printed them.  Each row's values
    are round 2's own sheet's for that table: once that sheet has come, each refusal is a note."""
    import email
    import email.policy
    import io

    folder, out, now = _t2020_with_sheets(tmp_path, "xiangqi-r1")
    r2 = next(p for p in (ROOT / "sample_sheets" / "t2020-league" / "inbox").glob("*.eml") if "xiangqi-r2" in p.name)
    msg = email.message_from_bytes(r2.read_bytes(), policy=email.policy.default)
    ws2 = openpyxl.load_workbook(io.BytesIO(next(msg.iter_attachments()).get_content()))["成绩"]
    h2, c2 = table_header(ws2)
    played = {ws2.cell(r, c2["桌号"]).value: r for r in range(h2 + 1, ws2.max_row + 1)
              if ws2.cell(r, c2["结果"]).value not in (None, "")}

    def retyped(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            r2_row = played.get(ws.cell(r, col["桌号"]).value)
            for label in ("结果", "原因"):
                ws.cell(r, col[label]).value = None if r2_row is None else ws2.cell(r2_row, c2[label]).value
            if r2_row is not None:
                ws.cell(r, col["轮次"]).value = 2
    r1 = next((folder / "inbox").glob("*xiangqi-r1*"))
    edit_attachment(r1, retyped, save_as=folder / "inbox" / "11111800-xiangqi-r1-copy.eml",
                    date="Wed, 11 Nov 2020 18:00:00 +0800")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    edit_attachment(r2, lambda wb: None, save_as=folder / "inbox" / "11111930-xiangqi-r2-own.eml",
                    date="Wed, 11 Nov 2020 19:30:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        wrong = [i for i in csv.DictReader(f) if "但这是第1轮的成绩表" in i["message"]]
    assert [i["cell"] for i in wrong] == ["A7", "A8", "A9", "A10", "A11"], wrong
    assert all(i["severity"] == "info" and "（第2轮成绩表已填写这一桌，无需再处理。）" in i["message"]
               for i in wrong), [(i["severity"], i["message"]) for i in wrong]
    assert not any("告知裁判" in s for s in report.next_steps), report.next_steps


def test_a_copy_received_after_round_2s_own_sheet_with_another_result_stays_an_error(tmp_path):
    """Round 2's own sheet received first (17:30), then the copy of round 1's sheet (17:55)
    giving table 1 another result: the copy may be meant as a correction, which it cannot be
    (a sheet counts for the round it was issued for) — that row stays an error, saying the
    own sheet's result counts meanwhile; the rows that agree are notes."""
    def other_result(ws, hrow, col):
        c = ws.cell(hrow + 1, col["结果"])
        c.value = "乙胜" if c.value != "乙胜" else "甲胜"
    issues, report = _round_2s_own_sheet_later(tmp_path, other_result, at="17:30")
    wrong = [i for i in issues if "但这是第1轮的成绩表" in i["message"]]
    (bad,) = [i for i in wrong if i["severity"] == "error"]
    assert bad["cell"] == "A7" and "目前按第2轮成绩表计分" in bad["message"], bad
    assert len(wrong) >= 5 and all("（第2轮成绩表已填写这一桌，无需再处理。）" in i["message"]
                                   for i in wrong if i is not bad), wrong


def test_R2011_F1_a_row_of_no_drawn_table_names_each_groups_tables(tmp_path):
    """R2011-F1 groups: a row of 组别 E (the draw has A to D) said “本轮为抽签表上的桌”, which
    tells the referee nothing; it names each group's tables, at the row's 组别."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)

    def group_c(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        ws.cell(hrow + 1, col["组别"]).value = "E"
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r1*")), group_c)
    _, mine = _t2011_night(folder, tmp_path)
    (bad,) = [i for i in mine if i["code"] == "RESULT_INVALID"]
    assert bad["cell"] == "B8" and "组别 E、桌号 1 不是本轮抽签中的桌（本轮为A组第1—3桌、B组第4—5桌、C组第6—7桌、D组第8—10桌）" \
        in bad["message"], bad


def test_a_result_sheet_of_no_event_or_of_a_round_not_drawn_is_said(tmp_path):
    from pipeline import layout

    def meta(key, value):
        def edit(ws, hrow, col):
            m = ws.parent[layout.META_SHEET]
            row = next(r for r in range(1, 30) if m.cell(r, 1).value == key)
            m.cell(row, 2).value = value
        return edit
    issues, _ = _edit_xiangqi_r1(tmp_path / "a", meta(layout.META_EVENT, "weiqi"))
    assert any(i["code"] == "TEMPLATE_MISMATCH" and "没有这个项目" in i["message"] for i in issues)
    issues, report = _edit_xiangqi_r1(tmp_path / "b", meta(layout.META_ROUND, 9))
    assert any(i["code"] == "ROUND_NOT_DRAWN" and i["severity"] == "warning" and "第9轮的，这一轮还没有抽签" in i["message"]
               for i in issues)
    assert not any(i["code"] == "RESULT_INVALID" and "还没有抽签" in i["message"] for i in issues)
    # the sheet is held, and read by itself once the round is drawn: no resend (it read
    # 该轮抽签后下发的成绩表才能计分 — as if only a sheet issued after the draw could count)
    held = next(i for i in issues if i["code"] == "ROUND_NOT_DRAWN")
    assert "该轮抽签后，这张成绩表会自动读取" in held["message"] and "不必重发" in held["message"], held
    assert "才能计分" not in held["message"]
    assert any("ROUND_NOT_DRAWN" in s for s in report.next_steps), report.next_steps
    # a later night with other news: a note (said once; it held every night at exit 1)
    folder = tmp_path / "b" / "t2020-league"
    first = next(p for p in sorted((folder / "inbox").glob("*.eml")) if "报名表" in p.name)
    shutil.copy(first, folder / "inbox" / f"again-{first.name}")
    later = run(RunOptions(folder=folder, out_parent=tmp_path / "b" / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    assert not later.unchanged
    assert {i.severity.value for i in later.issues if i.code == "ROUND_NOT_DRAWN"} == {"info"}
    assert not any("ROUND_NOT_DRAWN" in s for s in later.next_steps)


def test_a_said_once_note_does_not_hang_on_the_worker_making_a_returned_copy(tmp_path, monkeypatch):
    """SAID_ONCE: the night after a ROUND_NOT_DRAWN warning, a captain's corrected form
    comes in.  Its returned copy is made early, on a worker, while the run goes on; when
    the copy was written before the run read the last night's record (for what it had
    said), the record's outputs looked changed (a new file in returned/) and was not
    trusted: the note was a warning again — exit 1 under cron — by the worker's timing
    (a test comparing two nights failed one run in two)."""
    import openpyxl

    import pipeline.run as R
    from pipeline import layout

    def round_9(ws, hrow, col):
        m = ws.parent[layout.META_SHEET]
        m.cell(next(r for r in range(1, 30) if m.cell(r, 1).value == layout.META_ROUND), 2).value = 9
    monkeypatch.setenv("LEAGUE_WORKERS", "2")      # (a worker even on a one-core machine)
    issues, _ = _edit_xiangqi_r1(tmp_path, round_9)
    assert {i["severity"] for i in issues if i["code"] == "ROUND_NOT_DRAWN"} == {"warning"}
    folder, league = tmp_path / "t2020-league", tmp_path / "out" / "t2020-league"
    (copy,) = (league / "returned").glob("b05-*-返回.xlsx")
    (stored,) = (league / "received").glob(copy.name.split("-")[-2] + "*.xlsx")
    wb = openpyxl.load_workbook(stored)
    phone = next(c for row in wb[layout.REG_SHEET].iter_rows() for c in row
                 if isinstance(c.value, str) and c.value.isdigit() and len(c.value) == 11)
    phone.value = "13900000000" if phone.value != "13900000000" else "13900000001"
    wb.save(folder / "inbox" / "b05-报名表-更正.xlsx")

    real = R.start_returned_copies

    def made_at_once(*args, **kwargs):      # the worker quicker than the run, every time
        jobs, started = real(*args, **kwargs)
        assert started, "the copy is made early, on a worker"
        for _, handle in started.values():
            handle.result()
        return jobs, started
    monkeypatch.setattr(R, "start_returned_copies", made_at_once)
    later = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    assert len(list((league / "returned").glob("b05-*-返回.xlsx"))) == 2
    assert {i.severity.value for i in later.issues if i.code == "ROUND_NOT_DRAWN"} == {"info"}


def test_rows_after_a_run_of_blank_rows_are_not_dropped_without_a_word(tmp_path):
    """A referee inserted 25 blank rows inside the table: the rows below were never read and
    the round simply waited (还差 N 桌)."""
    def gap(ws, hrow, col):
        ws.insert_rows(hrow + 3, 25)
    issues, _ = _edit_xiangqi_r1(tmp_path, gap)
    (cut,) = [i for i in issues if i["file"] == "xiangqi-r1-成绩表.xlsx" and "空行" in i["message"]]
    assert cut["code"] == "RESULT_INVALID" and cut["cell"] == f"A{7 + 2 + 25}"


def test_a_check_in_changed_after_round_1_was_drawn_is_told_not_redrawn(tmp_path):
    """R2016-F2: round 1 is drawn from the check-in; a later check-in sheet (a player now
    marked absent) leaves the published round as it is — and the office is told."""
    folder, out, now = _t2016_without_results(tmp_path)

    def issues() -> list[dict[str, str]]:
        with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
            return [i for i in csv.DictReader(f) if i["code"] == "DRAW_INPUT_CHANGED"]

    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    draw_before = (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
    (folder / "inbox" / "note.txt").write_text("a new file: the night is not answered from the last run's record")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    assert issues() == []                      # a rerun with the same check-in: nothing to say
    def absent(wb):
        wb["签到"]["E5"] = "否"
    edit_attachment(next((folder / "inbox").glob("*签到表*")), absent, folder / "inbox" / "late-签到表.eml",
                    date="Sat, 26 Nov 2016 10:00:00 +0800")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    (changed,) = issues()
    assert "第1轮已于抽签后公布，不会重新抽签" in changed["message"] and "签到" in changed["message"]
    assert (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8") == draw_before


def test_a_playoff_row_of_no_event_is_said_at_its_cell(tmp_path):
    """t2016's one event is named 扑克牌; a 加赛 row saying 掼蛋 (its game) was read by no event.
    The rows are the office's for group A's three-way tie at 6th place (144 points each: no
    award between them), added to the sample's 加赛 sheet; the first says 掼蛋."""
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)

    def game_name(wb):
        ws = wb["加赛"]
        assert ws.max_row == 3                  # the header and group B's two rows
        ws.append(["掼蛋", "group", "A", 6, "体育部1队"])
        ws.append(["扑克牌", "group", "A", 7, "机关一2队"])
        ws.append(["扑克牌", "group", "A", 8, "金融1队"])
    (sheet,) = (folder / "inbox").glob("*加赛*")
    edit_attachment(sheet, game_name)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        found = [i for i in csv.DictReader(f) if i["code"] == "BAD_VALUE"]
    (bad,) = [i for i in found if i["cell"] == "A4"]
    assert bad["sheet"] == "加赛" and "“掼蛋”不是本次比赛的项目（本次为：扑克牌）" in bad["message"]
    # its tie (a shared place, no award between them) waits for no playoff; the rest of the tie's
    # rows, read, rank only some of it: said as unused, a note (R2011-F1: never dropped silently)
    assert len(found) == 2, found
    (rest,) = [i for i in found if i["cell"] != "A4"]
    assert rest["severity"] == "info" and "未被采用" in rest["message"] and "“体育部1队”并列" in rest["message"]


def test_R2011_F1_a_playoff_written_as_a_draw_is_to_be_played_again(tmp_path):
    """Group C's playoff came back with 名次 “和” for both: a 加赛 must have a winner, so it is
    to be played again — the office was told 改正后重新发送即可，不必再赛."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)

    def drawn(wb):
        wb["加赛"]["D2"], wb["加赛"]["D3"] = "和", "和"
    edit_attachment(next((folder / "inbox").glob("*xiangqi-加赛*")), drawn)
    out = tmp_path / "out"
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(out / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        bad = [i for i in csv.DictReader(f) if i["code"] == "BAD_VALUE"]
    assert bad and all("加赛必须分出胜负" in i["message"] and "再赛" in i["message"] for i in bad), bad
    line = next(e for e in report.events if e.startswith("中国象棋"))
    assert "不必再赛" not in line and "再赛" in line, report.events


def test_R2011_F1_a_playoff_sheet_giving_the_tied_the_same_place_settles_nothing(tmp_path):
    """Group C's playoff: 苏旭凯 and 黎玉静 both written 名次 1.  The order was decided by
    entry id without a word; now the tie stays open and the sheet is told which rows agree."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)

    def both_first(wb):
        wb["加赛"]["D3"] = 1
    edit_attachment(next((folder / "inbox").glob("*xiangqi-加赛*")), both_first)
    out = tmp_path / "out"
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(out / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        issues = list(csv.DictReader(f))
    (bad,) = [i for i in issues if i["code"] == "BAD_VALUE"]
    assert bad["sheet"] == "加赛" and "“苏旭凯”、“黎玉静”的名次相同（1、1）" in bad["message"]
    assert bad["cell"] in ("D2", "D3")          # located at a 名次 the two share
    assert report.needs_attention
    # the knockout after the groups waits for the playoff instead of seeding by entry id
    assert not report.state.events["xiangqi"].complete
    # … for the sheet to be corrected, as the office is told (it said only 请组织加赛): the
    # same 名次 for both leaves the 出线名额 shared, worded as a final-places sheet's (R2011-F1)
    line = next(e for e in report.events if e.startswith("中国象棋"))
    assert "《中国象棋-加赛.xlsx》留下的并列跨越出线名额" in line and "重新发送" in line, report.events
    # the corrected sheet, under the same file name: used, and the refused one is no news
    # (it was said "未被采用…并没有并列", against the sheet that had just settled the tie)
    src = ROOT / "sample_sheets" / "t2011-court" / "inbox"
    edit_attachment(next(src.glob("*xiangqi-加赛*")), lambda wb: None, folder / "inbox" / "corrected-加赛.eml",
                    date="Sat, 21 May 2011 09:00:00 +0800")
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    assert not again.needs_attention, [(i.code, i.message) for i in again.issues if i.severity.value != "info"]
    assert not [i for i in again.issues if i.code == "BAD_VALUE" and "未被采用" in i.message], \
        [i.message for i in again.issues if i.code == "BAD_VALUE"]


def test_detail_rows_below_a_cleared_table_are_still_checked(tmp_path):
    """斗地主 牌局明细: a referee cleared table 1's thirty unused pre-filled rows, then wrote a
    hand under table 2 that disagrees with its totals.  The reader stopped at the blank rows
    and the mismatch went unseen."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)

    def clear_and_write(wb):
        ws = wb["牌局明细"]
        for r in range(5, 35):
            for c in range(1, 11):
                ws.cell(r, c).value = None
        for c, v in zip("EFGHIJ", ["甲", 3, 2, "是", "否", "是"]):
            ws[f"{c}35"] = v
    edit_attachment(next((folder / "inbox").glob("*doudizhu-r1*")), clear_and_write)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(out / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        codes = {i["code"] for i in csv.DictReader(f) if i["file"] == "doudizhu-r1-成绩表.xlsx"}
    assert "TOTAL_MISMATCH" in codes


def test_a_pair_absent_at_check_in_is_no_new_entry_on_a_later_night(tmp_path):
    """Both players of 机关一1队 absent at check-in: round 1 is drawn without the pair, and a
    later night must not report it as an entry added after the draw."""
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()

    def both_absent(wb):
        wb["签到"]["E5"], wb["签到"]["E6"] = "否", "否"
    edit_attachment(next((folder / "inbox").glob("*签到表*")), both_absent)
    out = tmp_path / "out"
    now = dt.datetime(2030, 1, 1, tzinfo=TZ)
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    (folder / "inbox" / "note.txt").write_text("a new file: the night is run again")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        assert not [i for i in csv.DictReader(f) if i["code"] == "DRAW_INPUT_CHANGED"]


def test_a_corrected_round_robin_result_changes_no_later_round(tmp_path):
    """The final pool's later rounds are a fixed (Berger) schedule: correcting a result of its
    first round is no change to what they were drawn from (it was reported as one), and the
    correction itself (RESULT_CONFLICT, the newer sheet taken) sends nobody back to the referee."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    now = dt.datetime(2030, 1, 1, tzinfo=TZ)
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))     # every round drawn

    def flip(wb):
        ws = wb["成绩"]
        hrow = next(r for r in range(1, 30) if any(c.value == "桌号" for c in ws[r]))
        cell = ws.cell(hrow + 1, next(c.column for c in ws[hrow] if c.value == "结果"))
        cell.value = "乙胜" if cell.value == "甲胜" else "甲胜"
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r4*")), flip, folder / "inbox" / "corrected-xiangqi-r4.eml",
                    date="Wed, 18 Nov 2020 12:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        found = list(csv.DictReader(f))
    codes = [i["code"] for i in found]
    assert "RESULT_CONFLICT" in codes and "DRAW_INPUT_CHANGED" not in codes
    assert not any("告知裁判" in s for s in report.next_steps)
    # a correction is a note, not an error that would stay in every night's list
    (conflict,) = [i for i in found if i["code"] == "RESULT_CONFLICT"]
    assert conflict["severity"] == "info" and "按更正处理" in conflict["message"]
    # the only thing that needs attention: the finished event's published places moved
    # (PLACES_CHANGED, said on this night only), not the correction itself
    assert [i["code"] for i in found if i["severity"] != "info"] == ["PLACES_CHANGED"]
    assert report.needs_attention
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    assert not again.needs_attention


def test_a_table_level_at_the_top_waits_for_its_playoff_not_for_its_sheet(tmp_path):
    """斗地主 table 1 with two players level at the top and no 加赛胜者: PLAYOFF_REQUIRED at
    the cell, and the event waits for that 加赛 — it said 还差 1 桌成绩未交, though the
    sheet was in, and the office would chase the referee for it."""
    def level(ws, hrow, col):
        ws.cell(hrow + 1, col["甲得分"]).value = 2
        ws.cell(hrow + 1, col["乙得分"]).value = 2
        ws.cell(hrow + 1, col["丙得分"]).value = -4
        ws.cell(hrow + 1, col["加赛胜者"]).value = None
    issues, report = _edit_xiangqi_r1(tmp_path, level, sheet="doudizhu-r1")
    assert [i for i in issues if i["code"] == "PLAYOFF_REQUIRED" and i["file"] == "doudizhu-r1-成绩表.xlsx"]
    assert any("斗地主" in e and "第1桌需加赛" in e for e in report.events), report.events
    assert not [i for i in issues if i["code"] == "RESULT_MISSING" and "斗地主" in i["message"]]


def test_a_result_cell_of_spaces_is_a_blank_cell(tmp_path):
    """A full-width space (U+3000, typed with a Chinese input method) in table 1's result
    cells: the sheet counted the row as filled and the game as blank, so the table waited
    "待各桌成绩齐后计分" with no issue at all.  It is blank now: table 1 is simply not in."""
    def spaces(ws, hrow, col):
        labels = [l for l, c in sorted(col.items(), key=lambda x: x[1]) if c > col["乙方"] and "签名" not in l]
        for i, label in enumerate(labels):
            ws.cell(hrow + 1, col[label]).value = "\u3000" if i == 0 else None
        for label in (l for l in col if "签名" in l):     # (not played: unsigned, else RESULT_SIGNED_BLANK)
            ws.cell(hrow + 1, col[label]).value = None
    issues, report = _edit_xiangqi_r1(tmp_path, spaces)
    line = next(e for e in report.events if "象棋" in e)
    assert "还差 1 桌" in line and "待各桌成绩齐" not in line, line
    assert [i for i in issues if i["code"] == "RESULT_MISSING" and "象棋" in i["message"] and "第1桌" in i["message"]]


def test_a_result_sheet_copied_into_a_new_workbook_is_told_so(tmp_path):
    """The 成绩 sheet's values copied into a new workbook lose the hidden sheet that names the
    event and round: it was "属于项目“（未注明）”，本次比赛没有这个项目"."""
    import email
    import email.policy
    import io

    import openpyxl

    folder, eml = _sample_mail(tmp_path, "xiangqi-r1")
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    data = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx")).get_content()
    src = openpyxl.load_workbook(io.BytesIO(data))["成绩"]
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "成绩"
    for row in src.iter_rows(values_only=True):
        ws.append(list(row))
    wb.save(folder / "inbox" / "象棋第一轮-复制.xlsx")
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        (bad,) = [i for i in csv.DictReader(f) if i["file"] == "象棋第一轮-复制.xlsx"]
    assert bad["code"] == "TEMPLATE_MISMATCH" and "复制到了新的工作簿" in bad["message"] and "未注明" not in bad["message"]


def test_a_problem_on_a_detail_sheet_is_its_tables(tmp_path):
    """斗地主 table 1's totals with a hand on 牌局明细 whose 炸弹数 reads "1个": the issue was
    right, but the event said the table waited "待各桌成绩齐后计分" — it waits for a correction."""
    folder, eml = _sample_mail(tmp_path, "doudizhu-r1")

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        table1 = ws.cell(hrow + 1, col["桌号"]).value
        for label in ("加赛胜者", "弃权"):
            if label in col:
                ws.cell(hrow + 1, col[label]).value = None
        ws.cell(hrow + 1, col["甲得分"]).value, ws.cell(hrow + 1, col["乙得分"]).value = 4, -2
        ws.cell(hrow + 1, col["丙得分"]).value = -2
        ds = wb["牌局明细"]
        dh, dcol = table_header(ds)
        row = next(r for r in range(dh + 1, dh + 200) if ds.cell(r, dcol["桌号"]).value == table1)
        _clear_hand(ds, dcol, row)
        ds.cell(row, dcol["地主"]).value, ds.cell(row, dcol["炸弹数"]).value = "甲", "1个"
        ds.cell(row, dcol["地主胜"]).value = "是"
    edit_attachment(eml, edit)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        bad = [i for i in csv.DictReader(f) if i["sheet"] == "牌局明细"]
    assert bad and "1个" in bad[0]["message"]
    line = next(e for e in report.events if "斗地主" in e)
    assert "成绩有误待改正" in line and "待各桌成绩齐" not in line, line

    # the referee resends the sheet with table 1's hands cleared (the detail is optional):
    # its totals count — the earlier sheet's bad hand stayed in force, and the table waited
    def cleared(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        table1 = ws.cell(hrow + 1, col["桌号"]).value
        ds = wb["牌局明细"]
        dh, dcol = table_header(ds)
        for r in range(dh + 1, ds.max_row + 1):
            if ds.cell(r, dcol["桌号"]).value == table1:
                for label in dcol:
                    ds.cell(r, dcol[label]).value = None
    edit_attachment(eml, cleared, folder / "inbox" / "resent-doudizhu-r1.eml", date="Sat, 21 Nov 2020 09:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        still = [i for i in csv.DictReader(f) if i["sheet"] == "牌局明细" and i["severity"] == "error"]
    assert still == []
    line = next(e for e in report.events if "斗地主" in e)
    assert "成绩有误待改正" not in line, line


def _table1_from_hands(table1: list):
    """An edit of 斗地主's round-1 sheet: the first table's totals on 成绩 left blank, its
    record on 牌局明细 two hands (甲 wins as 地主, 乙 loses as 地主); the table's number is
    appended to ``table1``."""
    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        table1.append(ws.cell(hrow + 1, col["桌号"]).value)
        for label in ("甲得分", "乙得分", "丙得分", "加赛胜者", "弃权"):
            if label in col:
                ws.cell(hrow + 1, col[label]).value = None
        ds = wb["牌局明细"]
        dh, dcol = table_header(ds)
        rows = [r for r in range(dh + 1, dh + 400) if ds.cell(r, dcol["桌号"]).value == table1[0]]
        for r in rows:
            _clear_hand(ds, dcol, r)
        for r, (landlord, won) in zip(rows, (("甲", "是"), ("乙", "否"))):
            ds.cell(r, dcol["地主"]).value, ds.cell(r, dcol["地主胜"]).value = landlord, won
    return edit


def test_totals_left_blank_are_computed_from_the_detail_sheet(tmp_path):
    """Contract: "Optional detail sheets (hand-by-hand records for card games) from which
    totals are computed".  斗地主 table 1's totals left blank, its two hands on 牌局明细: the
    table was "成绩未交" though its record had come.  Its totals are computed (R2020-D3)."""
    folder, eml = _sample_mail(tmp_path, "doudizhu-r1")
    table1 = []
    edit_attachment(eml, _table1_from_hands(table1))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        issues = list(csv.DictReader(f))
    assert not [i for i in issues if "doudizhu-r1" in i["file"] and i["severity"] == "error"], issues
    assert not [i for i in issues if i["code"] == "RESULT_MISSING" and "斗地主 第1轮" in i["message"]]
    res = next(r for k, r in report.state.events["doudizhu"].results.items() if k[1:] and r.match.round == 1
               and r.match.table == table1[0])
    # hand 1: 甲 landlord wins (+2, others −1); hand 2: 乙 landlord loses (−2, others +1)
    assert [s.points for s in res.sides] == [3, -3, 0] and res.detail["table_points"] == (3, -3, 0)


def test_a_formula_without_a_saved_value_is_one_message_at_its_cell(tmp_path):
    """A referee's sheet saved by a program that does not compute formulas (结果 typed as
    ="甲胜", 原因 as ="认输"; openpyxl saves no value either): the cell was said twice — as an
    error value and, blanked, as “结果”未填写 — and neither said what to do.  One message at
    the cell: the file, the sheet, the cell and what to change; the table waits for the
    correction (成绩有误待改正), not for its sheet."""
    def formulas(ws, hrow, col):
        ws.cell(hrow + 1, col["结果"]).value = '="甲胜"'
        ws.cell(hrow + 2, col["原因"]).value = '="认输"'
    issues, report = _edit_xiangqi_r1(tmp_path, formulas)
    mine = [i for i in issues if i["file"] == "xiangqi-r1-成绩表.xlsx"]
    assert sorted(i["cell"] for i in mine) == ["F7", "G8"], mine
    for i in mine:
        assert i["code"] == "RESULT_INVALID" and i["sheet"] == "成绩"
        m = i["message"]
        assert "《xiangqi-r1-成绩表.xlsx》" in m and "“成绩”" in m and i["cell"] in m, m
        assert "没有保存" in m and "在 Excel" in m and "打开后保存" in m and "改为" in m and "未填写" not in m, m
    assert any("象棋" in e and "第1桌成绩有误待改正" in e for e in report.events), report.events
    assert not [i for i in issues if i["code"] == "RESULT_MISSING" and "象棋" in i["message"]]


def _clear_hand(ds, dcol, row) -> None:
    """Blank one hand's row of 牌局明细 but its key columns (轮次, 组别, 桌号, 局号)."""
    for label in dcol:
        if label not in ("轮次", "组别", "桌号", "局号"):
            ds.cell(row, dcol[label]).value = None


def _totals_from_hands(wb):
    """斗地主's first table of round 1 with its totals on 成绩 cleared (so they come from its
    hands): (the 牌局明细 sheet, its columns, the table's hand rows there)."""
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    table1 = ws.cell(hrow + 1, col["桌号"]).value
    for label in ("甲得分", "乙得分", "丙得分", "加赛胜者", "弃权"):
        if label in col:
            ws.cell(hrow + 1, col[label]).value = None
    ds = wb["牌局明细"]
    dh, dcol = table_header(ds)
    return ds, dcol, [r for r in range(dh + 1, dh + 200) if ds.cell(r, dcol["桌号"]).value == table1]


def test_a_formula_without_a_saved_value_on_a_detail_sheet_says_what_to_do(tmp_path):
    """斗地主 牌局明细 with 叫分 typed as =1+2 and the workbook saved without computing it: it
    was "“叫分”填的是 "未计算的公式"，不是整数" — true of no cell the referee sees."""
    folder, eml = _sample_mail(tmp_path, "doudizhu-r1")

    def edit(wb):
        ds, dcol, (row, *_) = _totals_from_hands(wb)
        _clear_hand(ds, dcol, row)
        ds.cell(row, dcol["地主"]).value, ds.cell(row, dcol["叫分"]).value = "甲", "=0+1"
        ds.cell(row, dcol["地主胜"]).value = "是"
    edit_attachment(eml, edit)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        bad = [i for i in csv.DictReader(f) if i["sheet"] == "牌局明细"]
    (one,) = bad
    assert one["code"] == "RESULT_INVALID" and "《doudizhu-r1-成绩表.xlsx》" in one["message"], one
    assert one["cell"] in one["message"] and "打开后保存" in one["message"] and "不是整数" not in one["message"], one


def test_R2011_F1_a_group_written_A组_or_in_lower_case_or_full_width_is_that_group(tmp_path):
    """R2011-F1 groups: a referee retyped 组别 as they say it — "A组", "a", "第A组", " b 组",
    "第Ｂ組" for the A and B the sheet was issued with.  Each row was refused as no drawn
    table (“组别 A组 … 不是本轮抽签中的桌”), and the group stage waited for four tables."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    written = ["A组", "a", "第A组", " b 组", "第Ｂ組"]

    def regroup(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        issued = [ws.cell(hrow + i, col["组别"]).value for i in range(1, 6)]
        assert issued == ["A", "A", "A", "B", "B"], issued
        for i, g in enumerate(written, 1):
            ws.cell(hrow + i, col["组别"]).value = g
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r1*")), regroup)
    report, mine = _t2011_night(folder, tmp_path)
    assert mine == [], mine
    assert not any("中国象棋" in e and "等待" in e for e in report.events), report.events


def test_a_merged_result_cell_is_said_to_be_merged(tmp_path):
    """A referee merged 结果 over two tables' rows (F8:F9), and another row's 结果 and 原因
    with the row below (F10:F11, G10:G11): only a merged range's first cell keeps a value,
    so F9 read as “结果”未填写 without a hint, and table 5 (row 11, blank) as a sheet never
    sent.  Each says the cell is merged and to unmerge it and fill every cell."""
    def merge(ws, hrow, col):
        f, g = col["结果"], col["原因"]
        ws.merge_cells(start_row=hrow + 2, start_column=f, end_row=hrow + 3, end_column=f)
        for c in (f, g):
            ws.merge_cells(start_row=hrow + 4, start_column=c, end_row=hrow + 5, end_column=c)
    issues, report = _edit_xiangqi_r1(tmp_path, merge)
    mine = {i["cell"]: i for i in issues if i["file"] == "xiangqi-r1-成绩表.xlsx"}
    assert sorted(mine) == ["F11", "F9"], mine
    for cell, first, span in (("F9", "F8", "F8:F9"), ("F11", "F10", "F10:F11")):
        m = mine[cell]["message"]
        assert mine[cell]["code"] == "RESULT_INVALID" and f"{cell} 是合并单元格 {span} 的一部分" in m, m
        assert f"只有 {first} 保存内容" in m and "取消合并单元格" in m and "每一格分别填写" in m, m
    assert "第1轮 第5桌" in mine["F11"]["message"] and "原因" in mine["F11"]["message"]
    assert any("象棋" in e and "第3桌成绩有误待改正" in e and "第5桌成绩有误待改正" in e for e in report.events), report.events
    assert not [i for i in issues if i["code"] == "RESULT_MISSING" and "象棋" in i["message"]]


def test_a_score_merged_across_two_columns_is_said_to_be_merged(tmp_path):
    """斗地主 甲得分 and 乙得分 merged across (G8:H8): 乙得分 read as blank."""
    folder, eml = _sample_mail(tmp_path, "doudizhu-r1")

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        ws.merge_cells(start_row=hrow + 1, start_column=col["甲得分"], end_row=hrow + 1, end_column=col["乙得分"])
    edit_attachment(eml, edit)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        mine = [i for i in csv.DictReader(f) if i["file"] == "doudizhu-r1-成绩表.xlsx"]
    (one,) = mine
    assert one["cell"] == "H8" and "乙得分" in one["message"] and "H8 是合并单元格 G8:H8 的一部分" in one["message"], one
    assert "取消合并单元格" in one["message"]


def test_a_merged_cell_on_a_detail_sheet_is_said_to_be_merged(tmp_path):
    """斗地主 牌局明细: 地主 merged over two hands (the same landlord twice): the second hand's
    地主 read as blank, and was said as “地主”未填写 only."""
    folder, eml = _sample_mail(tmp_path, "doudizhu-r1")

    def edit(wb):
        ds, dcol, rows = _totals_from_hands(wb)
        rows = rows[:2]
        for r, won in zip(rows, ("是", "否")):
            ds.cell(r, dcol["地主"]).value, ds.cell(r, dcol["地主胜"]).value = "甲", won
        ds.merge_cells(start_row=rows[0], start_column=dcol["地主"], end_row=rows[1], end_column=dcol["地主"])
    edit_attachment(eml, edit)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        (one,) = [i for i in csv.DictReader(f) if i["sheet"] == "牌局明细"]
    assert "地主" in one["message"] and f"{one['cell']} 是合并单元格" in one["message"], one
    assert "取消合并单元格" in one["message"]


def test_R2011_F1_a_round_and_groups_merged_over_their_rows_are_read_on_every_row(tmp_path):
    """A referee merged 轮次 down the whole table and each group's 组别 over its rows (B8:B10
    "A" …): only a merged range's first cell keeps a value, so every other row read without a
    round or group and was refused (“轮次 （空）、桌号 2 不是本轮抽签中的桌”) — the referee had
    to redo the sheet.  Each row reads its range's value: the round's results are all taken."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)

    def merge(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        last = max(r for r in range(hrow + 1, hrow + 40) if ws.cell(r, col["桌号"]).value is not None)
        groups = [ws.cell(r, col["组别"]).value for r in range(hrow + 1, last + 1)]
        assert groups[:10] == ["A"] * 3 + ["B"] * 2 + ["C"] * 2 + ["D"] * 3, groups
        ws.merge_cells(start_row=hrow + 1, start_column=col["轮次"], end_row=last, end_column=col["轮次"])
        first = hrow + 1
        for n in (3, 2, 2, 3):
            ws.merge_cells(start_row=first, start_column=col["组别"], end_row=first + n - 1, end_column=col["组别"])
            first += n
        assert ws.cell(hrow + 2, col["组别"]).value is None and ws.cell(last, col["轮次"]).value is None
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r1*")), merge)
    report, mine = _t2011_night(folder, tmp_path)
    assert mine == [], mine
    assert not any("中国象棋" in e and "等待" in e for e in report.events), report.events
    taken = sorted(r.match.table for r in report.state.events["xiangqi"].results.values()
                   if r.match.round == 1 and not r.match.bye)
    assert taken == list(range(1, 11)), taken


def _bridge_r1_only(tmp_path: Path) -> tuple[Path, Path]:
    """T2015 with its registrations and 桥牌's round-1 sheet only in the inbox."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
    for p in (folder / "inbox").glob("*.eml"):
        if "报名表" not in p.name and "bridge-r1" not in p.name:
            p.unlink()
    return folder, next((folder / "inbox").glob("*bridge-r1*"))


def _bridge_tables(ws, hrow, col) -> dict[int, list[int]]:
    """桌号 → the sheet rows of its boards (a bye's row has no board)."""
    rows: dict[int, list[int]] = {}
    for r in range(hrow + 1, hrow + 60):
        if ws.cell(r, col["牌号"]).value is not None:
            rows.setdefault(ws.cell(r, col["桌号"]).value, []).append(r)
    return rows


def test_a_table_number_merged_over_its_boards_is_read_on_every_board(tmp_path):
    """桥牌 (rows per table and board, 牌号): the referee merged each table's 桌号 — and its
    甲方 and 乙方 — over the rows of its boards.  Boards 2 and 3 read without a table and
    were refused as no drawn table; the round waited for them.  Every board is its table's:
    the round's matchpoints are taken."""
    folder, eml = _bridge_r1_only(tmp_path)

    def merge(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        tables = _bridge_tables(ws, hrow, col)
        assert len(tables) == 3 and all(len(rows) == 3 for rows in tables.values()), tables
        for rows in tables.values():
            for label in ("桌号", "甲方", "乙方"):
                ws.merge_cells(start_row=rows[0], start_column=col[label], end_row=rows[-1], end_column=col[label])
    edit_attachment(eml, merge)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
        issues = list(csv.DictReader(f))
    assert not [i for i in issues if i["file"] == "bridge-r1-成绩表.xlsx"], issues
    missing = [i["message"] for i in issues if i["code"] == "RESULT_MISSING" and "桥牌" in i["message"]]
    assert missing and all("第2轮还差" in m for m in missing), missing      # round 2 drawn: round 1 is complete
    taken = {r.match.table: r for r in report.state.events["bridge"].results.values()
             if r.match.round == 1 and not r.match.bye}
    assert sorted(taken) == [1, 2, 3]
    # matchpoints: 3 boards × 2 × (3 tables − 1) = 12 a table, shared by its two pairs
    assert all(sum(s.points for s in r.sides) == 12 for r in taken.values()), taken


def test_R2011_F1_a_result_merged_beside_a_merged_group_is_still_said_to_be_merged(tmp_path):
    """组别 merged over group A's rows (B8:B10, read on each), and 结果 merged over tables 2 and
    3 (F9:F10): table 3's result is not guessed from table 2's — said at F10, located, with
    the merged range and what to do.  Nothing is said of the 组别 cells, and the other tables
    of group A are taken."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)

    def merge(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        assert (hrow, col["组别"], col["结果"]) == (7, 2, 6)
        ws.merge_cells("B8:B10")
        ws.merge_cells("F9:F10")
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r1*")), merge)
    report, mine = _t2011_night(folder, tmp_path)
    (said,) = mine
    assert (said["code"], said["sheet"], said["cell"]) == ("RESULT_INVALID", "成绩", "F10"), said
    m = said["message"]
    assert "结果" in m and "F10 是合并单元格 F9:F10 的一部分" in m and "只有 F9 保存内容" in m and "取消合并单元格" in m, m
    assert any("中国象棋" in e and "A组第3桌成绩有误待改正" in e for e in report.events), report.events
    taken = sorted(r.match.table for r in report.state.events["xiangqi"].results.values()
                   if r.match.round == 1 and not r.match.bye)
    assert taken == [1, 2, *range(4, 11)], taken


def test_R2016_C1_a_guandan_round_with_its_deals_on_the_detail_sheet(tmp_path):
    """掼蛋's result workbook now has a 明细 sheet (one row per deal: 头游方, 头游对家名次).  The
    referee fills round 1: table a's deals agree with its levels (scored 60:40), table b's say
    甲 reached 4 though 5 was written (TOTAL_MISMATCH at that 成绩 cell, the table unscored),
    table c's levels are left blank and come from its deals (2:8 → 24:76); the tables without
    deals are scored as typed, as before."""
    import openpyxl

    folder, out, now = _t2016_without_results(tmp_path)
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    wb = openpyxl.load_workbook(out / "t2016-poker" / "results" / "guandan-r1-成绩表.xlsx")
    assert wb.sheetnames[:2] == ["成绩", "明细"]
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    tables = [r for r in range(hrow + 1, ws.max_row + 1)
              if ws.cell(r, col["桌号"]).value is not None and ws.cell(r, col["乙方"]).value != "轮空"]
    for r in tables:
        ws.cell(r, col["甲方级数"]).value, ws.cell(r, col["乙方级数"]).value = "5", "2"
    a, b, c = tables[:3]
    ws.cell(a, col["甲方级数"]).value, ws.cell(a, col["乙方级数"]).value = "9", "7"
    ws.cell(c, col["甲方级数"]).value = ws.cell(c, col["乙方级数"]).value = None
    key = lambda r: (ws.cell(r, col["组别"]).value, ws.cell(r, col["桌号"]).value)
    deals = {key(a): [("甲", "二游"), ("乙", "三游"), ("甲", "末游"), ("乙", "二游"), ("甲", "二游")],
             key(b): [("甲", "三游")],
             key(c): [("乙", "二游"), ("乙", "二游")]}
    ds = wb["明细"]
    dh, dcol = table_header(ds)
    for r in range(dh + 1, ds.max_row + 1):
        hands = deals.get((ds.cell(r, dcol["组别"]).value, ds.cell(r, dcol["桌号"]).value), [])
        n = ds.cell(r, dcol["局号"]).value
        if n is not None and n <= len(hands):
            ds.cell(r, dcol["头游方"]).value, ds.cell(r, dcol["头游对家名次"]).value = hands[n - 1]
    wb.save(folder / "inbox" / "guandan-r1-成绩表.xlsx")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        mine = [i for i in csv.DictReader(f) if i["file"] == "guandan-r1-成绩表.xlsx"]
    (bad,) = mine
    assert bad["code"] == "TOTAL_MISMATCH" and bad["sheet"] == "成绩" and bad["severity"] == "error"
    assert bad["cell"] == f"{openpyxl.utils.get_column_letter(col['甲方级数'])}{b}"
    assert '“甲方级数”填的是 "5"，按明细逐局计算应为 "4"' in bad["message"]
    results = {(r.match.group, r.match.table): r for r in report.state.events["guandan"].results.values()
               if r.match.round == 1}
    assert [s.points for s in results[key(a)].sides] == [60, 40]
    assert key(b) not in results
    assert [s.points for s in results[key(c)].sides] == [24, 76]
    typed = [r for k, r in results.items() if k not in (key(a), key(c)) and not r.match.bye]
    assert len(typed) == len(tables) - 3 and all([s.points for s in r.sides] == [64, 36] for r in typed)


def _t2011_night(folder, tmp_path):
    """A night of the 2011 league after its 象棋 round-1 sheet was edited: (the run's report,
    the issues about that sheet)."""
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        return report, [i for i in csv.DictReader(f) if i["file"] == "xiangqi-r1-成绩表.xlsx"]


def _t2016_without_results(tmp_path):
    """The 2016 sample league before any result sheet: (its folder, the output folder, a
    night's time)."""
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    return folder, tmp_path / "out", dt.datetime(2030, 1, 1, tzinfo=TZ)


def test_R2011_F1_a_sheet_of_several_ties_is_not_wrong_while_round_1_is_open(tmp_path):
    """R2011-F1, R2020-A1: 象棋-加赛 (1118-xiangqi-加赛-4) lists three ties of the final places
    one after another, each numbered from 1.  With one round-1 table still without a result,
    the round-1 losers are level for the moment; that provisional tie holds 姚明 (2nd of one
    of the sheet's ties) and 魏秀 (2nd of another), and the correct sheet was said to give
    them the same 名次 — an error, exit status 1, for a sheet nobody had to change."""
    def no_result(ws, hrow, col):
        ws.cell(hrow + 1, col["结果"]).value = None
    issues, _ = _edit_xiangqi_r1(tmp_path, no_result)
    assert not [i for i in issues if i["sheet"] == "加赛"], [i["message"] for i in issues if i["sheet"] == "加赛"]


def test_R2011_F1_the_same_place_twice_in_one_tie_of_a_sheet_of_several_is_still_said(tmp_path):
    """The same sheet with 魏秀 written 3rd, as 袁浩 is in her tie: that tie is not settled and
    the sheet is told so — the 2nd and 3rd places of the sheet's other ties are no conflict."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)

    def twice_third(wb):
        ws = wb["加赛"]
        assert ws["E11"].value == "魏秀" and ws["E12"].value == "袁浩"
        ws["D11"] = 3
    edit_attachment(folder / "inbox" / "1118-xiangqi-加赛-4.eml", twice_third)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        found = [i for i in csv.DictReader(f) if i["sheet"] == "加赛"]
    (bad,) = found
    assert bad["code"] == "BAD_VALUE" and bad["cell"] in ("D11", "D12"), bad
    assert any(f"{a}、{b}的名次相同（3、3）" in bad["message"] for a, b in (("“魏秀”", "“袁浩”"), ("“袁浩”", "“魏秀”"))), bad


def test_a_row_holding_only_the_dropdowns_none_is_a_table_not_yet_played(tmp_path):
    """掼蛋: a hurried referee set 过A方 to 无 (the dropdown's first value) on the rows of tables
    not yet played: each was a half-filled result (“甲方级数”未填写：这一行已填了部分成绩, an
    error) and the tables 成绩有误待改正 instead of not yet in (from an audit of result sheets)."""
    folder, out, now = _t2016_without_results(tmp_path)
    src = ROOT / "sample_sheets" / "t2016-poker" / "inbox" / "11260941-guandan-r1-成绩表.eml"

    def only_none(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            if ws.cell(r, col["桌号"]).value is None:
                continue
            for label in ("甲方级数", "乙方级数", "台上方"):
                ws.cell(r, col[label]).value = None
            ws.cell(r, col["过A方"]).value = "无"
            for label in (l for l in col if "签名" in l):     # (not played: unsigned)
                ws.cell(r, col[label]).value = None
    edit_attachment(src, only_none, folder / "inbox" / "r1.eml")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        found = [i for i in csv.DictReader(f) if i["file"] == "guandan-r1-成绩表.xlsx"]
    assert found == [], found
    assert not any("有误待改正" in e for e in report.events) and any("还差" in e for e in report.events), report.events


def test_a_result_typed_in_the_signature_columns_is_said_where_it_belongs(tmp_path):
    """结果 left blank and 胜/负 typed in 甲方签名/乙方签名: ignored without a word (the table
    还差); in a pairs event it was called a partner change (from an audit of result sheets)."""
    def in_signatures(ws, hrow, col):
        ws.cell(hrow + 1, col["结果"]).value = None
        ws.cell(hrow + 1, col["甲方签名"]).value = "胜"
        ws.cell(hrow + 1, col["乙方签名"]).value = "负"
    issues, report = _edit_xiangqi_r1(tmp_path, in_signatures)
    said = [i for i in issues if i["code"] == "RESULT_INVALID" and "填的是成绩，不是签名" in i["message"]]
    assert [i["cell"][0] for i in said] == ["H", "I"] and all("“结果”栏" in i["message"] for i in said)
    assert report.needs_attention


def test_a_name_or_a_mark_in_a_signature_cell_is_no_result():
    from pipeline.games.base import ResultColumn
    from pipeline.run import _result_like

    cols = [ResultColumn("结果", "choice", ("甲方胜", "乙方胜", "和棋")), ResultColumn("过A方", "choice", ("无", "甲", "乙"), required=False)]
    assert [_result_like(v, cols) for v in ("胜", "2:0", 3, "J", "甲方胜", "10")] == [True] * 6
    assert [_result_like(v, cols) for v in ("王军", "已签", "√", "无", None, "")] == [False] * 6


def test_a_referees_sheet_that_is_no_form_is_not_a_registration_to_send_back(tmp_path):
    """The 成绩 table copied into a new workbook (no hidden sheets): refused with a clear
    message, but the next step said 把 returned/ 中标注了问题的报名表退回各单位修改 — returned/
    holds registration forms only (from an audit of result sheets)."""
    def copied(wb):
        for name in list(wb.sheetnames):
            if name != "成绩":
                del wb[name]
    folder, eml = _sample_mail(tmp_path, "xiangqi-r1")
    edit_attachment(eml, copied)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    assert report.needs_attention
    assert not any("退回各单位" in s for s in report.next_steps), report.next_steps
    assert any("告知发来的人" in s for s in report.next_steps), report.next_steps


def test_a_second_correction_of_a_later_round_is_a_new_warning(tmp_path):
    """象棋 rounds 1–3 drawn; round 1's table 1 corrected (DRAW_INPUT_CHANGED about round 2,
    a warning that night, a note on the next); then round 2's table 1 corrected: a new warning
    about round 3, naming that table (only the first round drawn from changed inputs was
    looked at: the second correction went unsaid, exit 0).  The messages do not say how many
    rounds followed ("及其后各轮" changed with each new round, and the note became a warning
    again, from an audit)."""
    folder, out, now = _t2020_with_sheets(tmp_path, "xiangqi-r1", "xiangqi-r2")

    def flip(wb):       # the first table's result the other way
        ws = wb["成绩"]
        hrow, cols = table_header(ws)
        result = ws.cell(hrow + 1, cols["结果"])
        result.value = "甲胜" if result.value == "乙胜" else "乙胜"

    def told(report):
        return [(i.severity.value, i.message) for i in report.issues if i.code == "DRAW_INPUT_CHANGED"]
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r1*")), flip, folder / "inbox" / "fix-xiangqi-r1.eml",
                    date="Thu, 12 Nov 2020 09:00:00 +0800")
    first = told(run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now)))
    assert [s for s, _ in first] == ["warning"] and "象棋 第2轮" in first[0][1], first
    assert "第1轮淘汰赛（22进11） 第1桌" in first[0][1] and "及其后各轮" not in first[0][1], first
    edit_attachment(next((folder / "inbox").glob("*xiangqi-r2*")), flip, folder / "inbox" / "fix-xiangqi-r2.eml",
                    date="Thu, 12 Nov 2020 10:00:00 +0800")
    second = told(run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now)))
    assert ("info", first[0][1]) in second, second          # the first, as it was: a note
    (new,) = [m for s, m in second if s == "warning"]
    assert "象棋 第3轮" in new and "第2轮淘汰赛（11进6） 第1桌" in new and "第1轮淘汰赛" not in new, new


def test_the_blank_sheet_sent_by_mistake_is_said(tmp_path):
    """A referee attached the blank result sheet as issued: it was read as nothing at all —
    no word in issues.csv, the round simply waited (from an audit).  Now RESULT_SHEET_BLANK,
    a warning that night (with the line telling the office to go to the referee), a note
    on a later night with other news."""
    folder, out, now = _t2020_with_sheets(tmp_path)
    shutil.copy(out / "t2020-league" / "results" / "xiangqi-r1-成绩表.xlsx", folder / "inbox" / "xiangqi-r1-成绩表.xlsx")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    (blank,) = [i for i in report.issues if i.code == "RESULT_SHEET_BLANK"]
    assert blank.severity.value == "warning" and "一桌成绩也没有填" in blank.message and blank.file == "xiangqi-r1-成绩表.xlsx"
    assert any("告知裁判" in s for s in report.next_steps), report.next_steps
    first = next(p for p in sorted((folder / "inbox").glob("*.eml")) if "报名表" in p.name)
    shutil.copy(first, folder / "inbox" / f"again-{first.name}")
    later = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    assert [i.severity.value for i in later.issues if i.code == "RESULT_SHEET_BLANK"] == ["info"]


def test_a_signed_sheet_with_no_result_typed_says_where_results_are_read(tmp_path):
    """A referee wrote a forfeit in a 备注 column he added and signed, leaving the result
    columns blank: it was said to be 发错了文件 (the blank sheet as issued).  A signed sheet
    says that results — a forfeit too — are read from the result columns only."""
    folder, out, now = _t2020_with_sheets(tmp_path)
    sheet = folder / "inbox" / "xiangqi-r1-成绩表.xlsx"
    wb = openpyxl.load_workbook(out / "t2020-league" / "results" / "xiangqi-r1-成绩表.xlsx")
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    ws.cell(hrow, ws.max_column + 1, "备注")
    ws.cell(hrow + 1, ws.max_column, "乙方未到，弃权")
    ws.cell(hrow + 1, col["裁判签名"], "王裁判")
    wb.save(sheet)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    (blank,) = [i for i in report.issues if i.code == "RESULT_SHEET_BLANK"]
    assert f"已有签名（第 {hrow + 1} 行）" in blank.message and "写在备注或其他栏里的不算" in blank.message
    assert "发错了文件" not in blank.message and blank.severity.value == "warning"


def test_an_unreadable_correction_without_hands_keeps_the_earlier_sheets_hands(tmp_path):
    """斗地主 table 1 left blank on 成绩, its totals from its hands on 牌局明细; a later sheet
    types 甲得分 “三分” (unreadable) and clears the hands.  The later row is set aside and
    the earlier one counts — with the earlier sheet's hands, which it is scored from (the
    hands were dropped with the later row's, and the table was never scored)."""
    folder, eml = _sample_mail(tmp_path, "doudizhu-r1")
    table = []
    edit_attachment(eml, _table1_from_hands(table))

    def unreadable(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        ws.cell(hrow + 1, col["甲得分"]).value, ws.cell(hrow + 1, col["乙得分"]).value = "三分", -3
        ws.cell(hrow + 1, col["丙得分"]).value = 0
        ds = wb["牌局明细"]
        dh, dcol = table_header(ds)
        for r in range(dh + 1, ds.max_row + 1):
            if ds.cell(r, dcol["桌号"]).value == table[0]:
                for label in dcol:
                    ds.cell(r, dcol[label]).value = None
    edit_attachment(eml, unreadable, folder / "inbox" / "resent.eml", date="Sat, 21 Nov 2020 09:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    scored = [[s.points for s in r.sides] for r in report.state.events["doudizhu"].results.values()
              if r.match.round == 1 and r.match.table == table[0]]
    assert scored == [[3, -3, 0]], scored


def test_R2015_a_traditional_leagues_sheet_errors_list_the_choices_as_its_dropdowns(tmp_path):
    """t2015 (script: traditional): the result sheet's dropdowns read 甲勝、乙勝、和棋、甲方棄權…;
    a value not among them was told to pick one of 甲胜、乙胜、和棋、甲方弃权… — not what the
    list shows.  The choices are listed as the dropdown lists them, in issues.csv and on the
    pages (converted once, not twice)."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)

    def edit(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        ws.cell(hrow + 1, col["结果"]).value = "赢"
        ws.cell(hrow + 2, col["原因"]).value = "赢了"
        ws.cell(hrow + 3, col["结果"]).value = "和棋"
        ws.cell(hrow + 3, col["原因"]).value = "認輸"
    edit_attachment(next((folder / "inbox").glob("*-go-r1-*.eml")), edit)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(out / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
        bad = [(i["cell"][0], i["message"]) for i in csv.DictReader(f)
               if i["code"] == "RESULT_INVALID" and i["file"] == "go-r1-成绩表.xlsx"]
    results = [m for c, m in bad if c == "F"]
    reasons = [m for c, m in bad if c == "G"]
    assert any("请从下拉列表中选择（甲勝、乙勝、和棋、甲方棄權、乙方棄權、雙方棄權）" in m for m in results), bad
    assert any("（中盤勝、數子勝、認輸、超時、違例判負、其他、和棋、三劫循環、棄權）" in m for m in reasons), bad
    # a reason that does not fit its result: what it may be, as the dropdown lists it
    assert any("和棋的原因只能是 和棋、三劫循環、其他" in m for m in reasons), bad
    assert all("\ue000" not in m for _, m in bad)
    pages = "".join(p.read_text(encoding="utf-8") for p in (out / "t2015-tcm" / "branches").glob("*.html"))
    assert "（甲勝、乙勝、和棋、甲方棄權、乙方棄權、雙方棄權）" in pages


def test_a_signed_row_with_no_result_is_said_at_its_result_cell(tmp_path):
    """Handbook RESULT_SIGNED_BLANK (audit F1): a 象棋 knockout sheet whose 第1桌 row is signed
    by both players and the referee, 结果 left blank and the winner written in a column the
    referee added (胜者: 姚明), the other rows filled.  It was RESULT_MISSING "还差 1 桌成绩未交"
    (info, no cell): the office was told the sheet never came.  Now a warning at the row's
    结果 cell naming what to fill and the value found in the added column; the table waits
    (已收到但未计分), no longer listed as 未交.  A blank row nobody signed stays a table not
    played yet: nothing said of it."""
    def edit(ws, hrow, col):
        extra = ws.max_column + 1
        ws.cell(hrow, extra, "胜者")
        r = hrow + 1
        ws.cell(r, col["结果"]).value = ws.cell(r, col["原因"]).value = None
        for label in ("甲方签名", "乙方签名", "裁判签名"):
            ws.cell(r, col[label], "已签")
        ws.cell(r, extra, "姚明")
        # table 2: blank and unsigned (not played yet) — nothing to say
        for label in ("结果", "原因", "甲方签名", "乙方签名", "裁判签名"):
            ws.cell(r + 1, col[label]).value = None
    rows, report = _edit_xiangqi_r1(tmp_path, edit)
    said = [i for i in report.issues if i.code == "RESULT_SIGNED_BLANK"]
    assert len(said) == 1, said
    (it,) = said
    assert it.severity.value == "warning" and it.file.endswith(".xlsx") and it.sheet == "成绩", it
    assert it.cell == "F7", it
    assert "第1桌" in it.message and "已有签名（甲方签名、乙方签名、裁判签名）" in it.message and "“结果”" in it.message, it.message
    assert "甲胜" in it.message and "“胜者”栏写的是“姚明”（甲方）" in it.message, it.message
    missing = " ".join(i.message for i in report.issues if i.code == "RESULT_MISSING" and "象棋" in i.message)
    assert "第1桌" not in missing.split("未交：")[-1].split("。")[0].split("、"), missing
    assert any(r["code"] == "RESULT_SIGNED_BLANK" and r["cell"] == "F7" for r in rows), rows
