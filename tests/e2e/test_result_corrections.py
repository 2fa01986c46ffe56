"""A referee corrects a result sheet by sending it again (the later sheet counts): the
earlier sheet's problems are then settled — kept as notes, not errors that hold every later
night at "needs attention".  Two sheets received at once that disagree about a table leave
it without a result, and the next round waits, until a later sheet settles it."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import pytest
from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
R1_DATE = "Tue, 10 Nov 2020 17:55:00 +0800"      # the sample's round-1 sheet


def _league(tmp_path: Path) -> tuple[Path, Path]:
    """t2020-league with only round 1 of 象棋 played (its later sheets not sent yet)."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    for p in (folder / "inbox").glob("*-xiangqi-*.eml"):
        if "-xiangqi-r1-" not in p.name:
            p.unlink()
    return folder, next((folder / "inbox").glob("*-xiangqi-r1-*.eml"))


def _header(ws) -> tuple[int, dict[str, int]]:
    hrow = next(r for r in range(1, 30) if any(c.value == "桌号" for c in ws[r]))
    return hrow, {c.value: c.column for c in ws[hrow] if c.value}


def _flip(wb) -> None:
    ws = wb["成绩"]
    hrow, col = _header(ws)
    cell = ws.cell(hrow + 1, col["结果"])
    cell.value = "乙胜" if cell.value == "甲胜" else "甲胜"


def _issues(tmp_path: Path) -> list[dict[str, str]]:
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        return [i for i in csv.DictReader(f) if i["file"] == "xiangqi-r1-成绩表.xlsx"]


def _run(folder: Path, tmp_path: Path):
    return run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))


def test_a_renamed_sheet_sent_again_as_drawn_is_settled(tmp_path):
    folder, r1 = _league(tmp_path)

    def rename(wb):
        wb["成绩"].title = "成绩表"
    edit_attachment(r1, rename, folder / "inbox" / "early-xiangqi-r1.eml", date="Tue, 10 Nov 2020 17:40:00 +0800")
    report = _run(folder, tmp_path)
    # its _meta intact, its one sheet holding the table was read (SHEET_RENAMED; it was
    # TEMPLATE_MISMATCH and the workbook dropped) — and the sheet sent again settles that
    assert not [i for i in _issues(tmp_path) if i["code"] == "TEMPLATE_MISMATCH"]
    (bad,) = [i for i in _issues(tmp_path) if i["code"] == "SHEET_RENAMED"]
    assert bad["severity"] == "info" and "无需再处理" in bad["message"]
    assert "“成绩”被改名为“成绩表”" in bad["message"] and bad["sheet"] == "成绩表"
    assert not report.needs_attention
    assert any("象棋" in e and "第2轮" in e for e in report.events)


def _swap_sides(wb) -> None:
    ws = wb["成绩"]
    hrow, col = _header(ws)
    a, b = ws.cell(hrow + 1, col["甲方"]), ws.cell(hrow + 1, col["乙方"])
    a.value, b.value = b.value, a.value


@pytest.mark.parametrize("date,settled", [
    ("Tue, 10 Nov 2020 17:40:00 +0800", True),      # before the sample's sheet: corrected by it
    ("Tue, 10 Nov 2020 19:40:00 +0800", False),     # after it: nothing corrected it
])
def test_swapped_sides_are_settled_only_by_a_later_sheet(tmp_path, date, settled):
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, _swap_sides, folder / "inbox" / "swapped-xiangqi-r1.eml", date=date)
    report = _run(folder, tmp_path)
    (bad,) = [i for i in _issues(tmp_path) if i["code"] == "RESULT_INVALID"]
    if settled:
        assert bad["severity"] == "info" and "已更正这一桌" in bad["message"] and not report.needs_attention
    else:
        assert bad["severity"] == "error" and report.needs_attention


def test_two_sheets_received_at_once_that_disagree_hold_the_next_round(tmp_path):
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, _flip, folder / "inbox" / "other-xiangqi-r1.eml", date=R1_DATE)
    report = _run(folder, tmp_path)
    (conflict,) = [i for i in _issues(tmp_path) if i["code"] == "RESULT_CONFLICT"]
    assert conflict["severity"] == "error" and "暂不计成绩" in conflict["message"]
    # the two sheets have one name and one minute: the message tells them apart (which to resend?)
    assert "收件箱中的 other-xiangqi-r1.eml" in conflict["message"], conflict["message"]
    assert any("象棋" in e and "第1轮" in e and "还差 1 桌" in e for e in report.events), report.events
    # the referee sends the right one again, later: the table is settled, round 2 drawn
    shutil.copy(r1, folder / "inbox" / "resent.eml")
    edit_attachment(folder / "inbox" / "resent.eml", lambda wb: None, date="Tue, 10 Nov 2020 20:00:00 +0800")
    report = _run(folder, tmp_path)
    conflicts = [i for i in _issues(tmp_path) if i["code"] == "RESULT_CONFLICT"]
    assert conflicts and all(i["severity"] == "info" for i in conflicts), conflicts
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events


def test_a_playoff_form_sent_again_corrected_settles_the_earlier_ones_problem(tmp_path):
    """名次 typed as “第一” on a 加赛表, then the form sent again with 1: the first form's
    BAD_VALUE is a note once the later form has that group's playoff."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    form = folder / "inbox" / "1118-xiangqi-加赛-4.eml"

    def words(wb):
        wb["加赛"]["D2"] = "第一"
    edit_attachment(form, words, folder / "inbox" / "early-加赛.eml", date="Wed, 18 Nov 2020 17:52:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        (bad,) = [i for i in csv.DictReader(f) if i["code"] == "BAD_VALUE" and "第一" in i["message"]]
    assert bad["severity"] == "info" and "无需再处理" in bad["message"] and bad["cell"] == "D2"
    assert not report.needs_attention


def test_a_result_sheet_of_another_league_is_said_to_be_one(tmp_path):
    """t2016's 掼蛋 sheet mailed to t2011's office: said as another league's sheet (it was
    "项目“guandan”本次比赛没有这个项目"), once, and not read."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    other = next((ROOT / "sample_sheets" / "t2016-poker" / "inbox").glob("*guandan-r1-成绩表*"))
    shutil.copy(other, folder / "inbox" / other.name)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        found = [i for i in csv.DictReader(f) if i["file"] == "guandan-r1-成绩表.xlsx"]
    assert len(found) == 1, found
    assert "是另一项比赛（编号 t2016-poker）的成绩表" in found[0]["message"]


def test_a_result_typed_on_a_bye_row_is_said_not_silently_dropped(tmp_path):
    """t2015 围棋 round 1: the referee filled 乙胜 on table 7, where 闫璐 sits out (輪空)."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)

    def on_the_bye(wb):
        ws = wb["成绩"]
        assert "輪空" in str(ws["E14"].value)
        ws["F14"] = "乙胜"
    edit_attachment(next((folder / "inbox").glob("*-go-r1-*.eml")), on_the_bye)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
        found = [i for i in csv.DictReader(f) if i["file"] == "go-r1-成绩表.xlsx"]
    (bye,) = [i for i in found if "轮空" in i["message"]]
    assert bye["severity"] == "info" and bye["cell"] == "F14" and "未计入" in bye["message"]


def _standings(out: Path, tid: str, event: str, stage: str) -> dict[str, dict[str, str]]:
    with open(out / tid / "data" / "standings.csv", encoding="utf-8") as f:
        return {r["team"]: r for r in csv.DictReader(f) if r["event"] == event and r["stage"] == stage}


def test_two_sheets_at_once_for_a_round_already_followed_keep_one_as_it_was_drawn_on(tmp_path):
    """t2015 围棋: round 2 drawn from round 1; then a second round-1 sheet with the same time
    and another result for table 1.  Round 1 is not held (round 2 was drawn on it): one sheet
    is taken as before, the round-1 bye keeps its points, and round 3 is drawn."""
    def league(name: str) -> Path:
        folder = tmp_path / name / "t2015-tcm"
        shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
        for p in (folder / "inbox").glob("*-go-r*.eml"):
            if "-go-r1-" not in p.name:
                p.unlink()
        return folder
    plain, disputed = league("plain"), league("disputed")
    for folder in (plain, disputed):
        run(RunOptions(folder=folder, out_parent=folder.parent / "out", pdf=False, now=NOW))
        shutil.copy(ROOT / "sample_sheets" / "t2015-tcm" / "inbox" / "11071725-go-r2-成绩表.eml", folder / "inbox")
    r1 = next((disputed / "inbox").glob("*-go-r1-*.eml"))
    edit_attachment(r1, _flip, disputed / "inbox" / "other-go-r1.eml", date="Sat, 07 Nov 2015 11:55:00 +0800")
    for folder in (plain, disputed):
        report = run(RunOptions(folder=folder, out_parent=folder.parent / "out", pdf=False, now=NOW))
        assert any("围棋" in e and "第3轮" in e for e in report.events), report.events
    with open(disputed.parent / "out" / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
        (conflict,) = [i for i in csv.DictReader(f) if i["code"] == "RESULT_CONFLICT"]
    assert "暂采用" in conflict["message"]
    with open(disputed.parent / "out" / "t2015-tcm" / "data" / "draw.csv", encoding="utf-8") as f:
        bye = next(r["team"] for r in csv.DictReader(f) if r["event"] == "go" and r["round"] == "1" and r["bye"] == "1")
    before = _standings(plain.parent / "out", "t2015-tcm", "go", "swiss")[bye]
    after = _standings(disputed.parent / "out", "t2015-tcm", "go", "swiss")[bye]
    assert after["points"] == before["points"]


def test_a_corrected_group_result_names_no_winners_left_out(tmp_path):
    """t2011 象棋 (groups, then a knockout): a group result corrected after the knockout was
    drawn.  The knockout is not drawn from the last group round's winners, so the message
    names no "winners not in the next round" (it named six group players)."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    r1 = next((folder / "inbox").glob("*-xiangqi-r1-*.eml"))
    edit_attachment(r1, _flip, folder / "inbox" / "corrected-xiangqi-r1.eml", date="Fri, 20 May 2011 12:00:00 +0800")
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        changed = [i for i in csv.DictReader(f) if i["code"] == "DRAW_INPUT_CHANGED"]
    assert changed and not any("却不在已公布" in i["message"] for i in changed), changed
    # the corrected table is named as the draw sheet names it (not only two input hashes)
    assert "成绩在公布后有了更正：小组循环赛第1轮 A组第1桌（彭超辉 对 江艳）" in changed[0]["message"], changed


def test_tables_corrected_reads_the_record_of_the_draw():
    """RESULTS_KEY: the tables whose result differs from the digests a round was drawn
    from; [] when every table is as it was (the entries changed); None for a round drawn
    without the record (an earlier version) or a record that does not fit the rounds."""
    from types import SimpleNamespace

    from pipeline.model import Entry, Match, MatchResult, Outcome, Round, SideResult
    from pipeline.run import RESULTS_KEY, EventRunner, result_digests

    ms = tuple(Match(event="x", stage="ko", round=1, group="", table=t, sides=(f"e{2 * t}", f"e{2 * t + 1}"))
               for t in (1, 2))
    r1 = Round("x", "ko", "淘汰赛", 1, ms)

    def won(m, first):
        return MatchResult(match=m, sides=(SideResult(Outcome.WIN if first else Outcome.LOSS, points=2 if first else 0),
                                           SideResult(Outcome.LOSS if first else Outcome.WIN, points=0 if first else 2)))
    then = {m.key: won(m, True) for m in ms}
    r2 = Round("x", "ko", "决赛", 2, (), plan={RESULTS_KEY: {"0": result_digests(r1, then)}})
    entries = [Entry(id=f"e{i}", event="x", branch="b", team=f"队{i}", players=()) for i in range(2, 6)]
    runner = SimpleNamespace(rounds=[r1, r2], results=dict(then), shown_entries=lambda: entries, hash_parts={})
    runner.results_record = lambda: EventRunner.results_record(runner)
    assert EventRunner.tables_corrected(runner, 1) == []
    runner.results[ms[1].key] = won(ms[1], False)
    assert EventRunner.tables_corrected(runner, 1) == ["第1轮（淘汰赛） 第2桌（队4 对 队5）"]
    del runner.results[ms[0].key]
    assert len(EventRunner.tables_corrected(runner, 1)) == 2
    runner.rounds = [r1, Round("x", "ko", "决赛", 2, ())]
    assert EventRunner.tables_corrected(runner, 1) is None
    runner.rounds = [r1, Round("x", "ko", "决赛", 2, (), plan={RESULTS_KEY: {"0": "abc123"}})]
    assert EventRunner.tables_corrected(runner, 1) is None


def test_a_playoff_form_with_a_renamed_sheet_then_a_good_one_is_settled_and_said_once(tmp_path):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    form = folder / "inbox" / "1118-xiangqi-加赛-4.eml"

    def rename(wb):
        wb["加赛"].title = "加赛表"
    edit_attachment(form, rename, folder / "inbox" / "early-加赛.eml", date="Wed, 18 Nov 2020 17:52:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        found = [i for i in csv.DictReader(f) if i["code"] == "TEMPLATE_MISMATCH"]
    assert len(found) == 1 and found[0]["severity"] == "info" and "无需再处理" in found[0]["message"], found
    assert not report.needs_attention


def test_R2011_F1_a_playoff_changed_after_the_draw_it_decided_is_said(tmp_path):
    """Group C's 加赛 decided who went on to the knockout; a later 加赛表 swaps the two: the
    published knockout stands, and DRAW_INPUT_CHANGED says the playoff changed (silent before)."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    draw = (tmp_path / "out" / "t2011-court" / "data" / "draw.csv").read_bytes()
    form = next((folder / "inbox").glob("*-xiangqi-加赛-*.eml"))

    def swap(wb):
        ws = wb["加赛"]
        assert (ws["E2"].value, ws["E3"].value) == ("苏旭凯", "黎玉静")
        ws["D2"], ws["D3"] = 2, 1
    edit_attachment(form, swap, folder / "inbox" / "swapped-加赛.eml", date="Sat, 21 May 2011 12:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        changed = [i for i in csv.DictReader(f) if i["code"] == "DRAW_INPUT_CHANGED"]
    assert len(changed) == 1 and "C组加赛结果在公布后有了变化" in changed[0]["message"], changed
    assert "抽签时为 苏旭凯、黎玉静，现为 黎玉静、苏旭凯" in changed[0]["message"]
    # named at the 加赛表 it came from (the file column was empty)
    assert (changed[0]["file"], changed[0]["sheet"]) == ("中国象棋-加赛.xlsx", "加赛"), changed
    assert report.needs_attention
    assert (tmp_path / "out" / "t2011-court" / "data" / "draw.csv").read_bytes() == draw


def test_R2011_F1_a_group_playoff_form_giving_its_winner_alone_is_taken(tmp_path):
    """Group C's 加赛表 for its one advancing place with 名次 1 for 苏旭凯 and 黎玉静's left
    blank (R2020-F4: a blank beside a given 名次 is "still level", after it): the sheet orders
    them across the cut, as a final places' sheet leaving the rest level is taken — it was
    refused (只给…填了名次) and the knockout waited.  The knockout is drawn as from the full sheet."""
    full = tmp_path / "full" / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", full)
    run(RunOptions(folder=full, out_parent=tmp_path / "full" / "out", pdf=False, now=NOW))
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    form = next((folder / "inbox").glob("*-xiangqi-加赛-*.eml"))

    def half(wb):
        assert (wb["加赛"]["D2"].value, wb["加赛"]["E2"].value) == (1, "苏旭凯")
        wb["加赛"]["D3"] = None
    edit_attachment(form, half)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert not [i.message for i in report.issues if i.code in ("BAD_VALUE", "PLAYOFF_REQUIRED")]
    assert report.state.events["xiangqi"].complete
    draw = "t2011-court/data/draw.csv"
    assert (tmp_path / "out" / draw).read_bytes() == (tmp_path / "full" / "out" / draw).read_bytes()


def test_R2011_F1_a_playoff_form_filled_for_part_of_a_tie_is_said(tmp_path):
    """Group C's 加赛表 with 名次 2 for 苏旭凯 alone (黎玉静's left blank: no 1st, so no
    order across the cut): the tie stays open and the sheet is told who has no 名次 (it was
    ignored without a word)."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    form = next((folder / "inbox").glob("*-xiangqi-加赛-*.eml"))

    def half(wb):
        wb["加赛"]["D2"] = 2
        wb["加赛"]["D3"] = None
    edit_attachment(form, half)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        (bad,) = [i for i in csv.DictReader(f) if i["code"] == "BAD_VALUE"]
    assert bad["sheet"] == "加赛" and bad["cell"] == "D2" and "“黎玉静”没有读到名次" in bad["message"]
    assert report.needs_attention


LATER = "Fri, 20 Nov 2020 09:00:00 +0800"


def _first_row(**values):
    def edit(wb) -> None:
        ws = wb["成绩"]
        hrow, col = _header(ws)
        for label, value in values.items():
            ws.cell(hrow + 1, col[label]).value = value
    return edit


@pytest.mark.parametrize("values", [
    {"结果": "乙方缺席"},                 # a value not in the list
    {"结果": None, "原因": "超时"},       # partly filled: 结果 left blank
], ids=["not-in-list", "partly-filled"])
def test_result_conflict_a_later_row_that_cannot_be_read_is_no_correction(tmp_path, values):
    """Contract RESULT_CONFLICT / handbook "较晚收到的一份为准": a re-sent sheet counts as the
    referee's correction only when its row can be read.  A later 第1桌 with 乙方缺席 in 结果
    wiped the valid 甲胜 (the table had no result, round 2 waited), and the note said
    "按更正处理"; now the earlier result stands, the later cell's error says so, and the note
    says the later row was not taken."""
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, _first_row(**values), folder / "inbox" / "resent-xiangqi-r1.eml", date=LATER)
    report = _run(folder, tmp_path)
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events
    found = _issues(tmp_path)
    (conflict,) = [i for i in found if i["code"] == "RESULT_CONFLICT"]
    assert conflict["severity"] == "info" and "采用较晚收到的一份" not in conflict["message"]
    assert "无法读取" in conflict["message"] and "仍按较早收到的" in conflict["message"]
    (bad,) = [i for i in found if i["severity"] == "error"]
    assert bad["code"] in ("RESULT_INVALID", "MISSING_VALUE") and bad["sheet"] == "成绩" and bad["cell"] == "F7"
    assert "结果" in bad["message"] and "仍按较早收到的" in bad["message"] and report.needs_attention


def test_result_conflict_a_later_readable_row_is_still_a_correction_and_a_blank_one_is_none(tmp_path):
    """The other side of the rule above: a later readable row replaces the earlier one (a
    correction, noted as such), and a later row left blank is no correction (the earlier
    result kept — and said, as the later sheet fills the other tables: RESULT_LEFT_BLANK)."""
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, _first_row(结果="乙胜"), folder / "inbox" / "resent-xiangqi-r1.eml", date=LATER)
    edit_attachment(r1, _first_row(结果=None, 原因=None), folder / "inbox" / "blank-xiangqi-r1.eml",
                    date="Sat, 21 Nov 2020 09:00:00 +0800")
    report = _run(folder, tmp_path)
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events
    (conflict,) = [i for i in _issues(tmp_path) if i["code"] == "RESULT_CONFLICT"]
    assert conflict["severity"] == "info" and "按更正处理" in conflict["message"]
    (blank,) = [i for i in _issues(tmp_path) if i["code"] == "RESULT_LEFT_BLANK"]
    assert "11月20日 09:00 收到" in blank["message"] and "结果 乙胜" in blank["message"], blank
    assert [i["code"] for i in _issues(tmp_path) if i["severity"] != "info"] == ["RESULT_LEFT_BLANK"]
    with open(tmp_path / "out" / "t2020-league" / "data" / "draw.csv", encoding="utf-8") as f:
        r2 = {r["team"] for r in csv.DictReader(f) if r["event"] == "xiangqi" and r["round"] == "2"}
    assert any("周涛华" in t for t in r2) and not any("姚明" in t for t in r2), r2
    # said once (SAID_ONCE): a later night with other news lists it as a note — the season
    # ended with exit 1 every night for a table the earlier sheet had scored (an audit)
    shutil.copy(r1, folder / "inbox" / "again-xiangqi-r1.eml")
    later = _run(folder, tmp_path)
    assert not later.unchanged
    assert [i["severity"] for i in _issues(tmp_path) if i["code"] == "RESULT_LEFT_BLANK"] == ["info"]


def test_contract_result_sheet_results_typed_on_a_copied_sheet_are_said_not_read(tmp_path):
    """Contract "Sheet 成绩": a referee copied 成绩 (Excel names the copy “成绩 (2)”) and typed
    every result there, leaving 成绩 blank.  The round said only "还差 11 桌成绩未交"; now the
    file and the sheet are named, as a warning, and the copy is still not read."""
    folder, r1 = _league(tmp_path)

    def copied(wb):
        ws = wb["成绩"]
        wb.copy_worksheet(ws).title = "成绩 (2)"
        hrow, col = _header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            for label in ("结果", "原因"):
                ws.cell(r, col[label]).value = None
    edit_attachment(r1, copied)
    report = _run(folder, tmp_path)
    assert any("象棋" in e and "还差 11 桌" in e for e in report.events), report.events
    (said,) = [i for i in _issues(tmp_path) if i["code"] == "RESULT_ON_OTHER_SHEET"]
    assert said["severity"] == "warning" and said["sheet"] == "成绩 (2)" and said["cell"] == "F7"
    assert "不要复制工作表；请把结果抄回原表后重新发送" in said["message"]


def test_a_resent_sheet_that_leaves_a_filled_table_blank_says_the_earlier_result_still_counts(tmp_path):
    """Handbook "较晚收到的一份为准": a re-sent 成绩表 fills the other tables and leaves 第1桌
    blank.  A blank row is "not played yet", not a correction: the earlier 甲胜 still counts —
    but it was kept without a word.  Now a warning at the later sheet's blank cell names the
    table, both sheets and the result still counted, and what to do."""
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, _first_row(结果=None, 原因=None), folder / "inbox" / "resent-xiangqi-r1.eml", date=LATER)
    report = _run(folder, tmp_path)
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events
    (said,) = [i for i in _issues(tmp_path) if i["code"] == "RESULT_LEFT_BLANK"]
    assert said["severity"] == "warning" and said["sheet"] == "成绩" and said["cell"] == "F7"
    msg = said["message"]
    assert "第1桌" in msg and "11月20日 09:00 收到" in msg and "11月10日 17:55 收到" in msg, msg
    assert "仍按较早收到的《xiangqi-r1-成绩表.xlsx》" in msg and "结果 甲胜、原因 认输" in msg, msg
    assert "重新发送" in msg and "尚未比赛" in msg
    assert report.needs_attention
    with open(tmp_path / "out" / "t2020-league" / "data" / "draw.csv", encoding="utf-8") as f:
        r2 = {r["team"] for r in csv.DictReader(f) if r["event"] == "xiangqi" and r["round"] == "2"}
    assert any("姚明" in t for t in r2) and not any("周涛华" in t for t in r2), r2


def _t2011_doudizhu_r1(tmp_path: Path) -> tuple[Path, Path]:
    """t2011-court with only round 1 of 斗地主 among its result and 加赛 sheets: (its folder,
    that mail)."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    for p in (folder / "inbox").glob("*.eml"):
        if ("成绩表" in p.name or "加赛" in p.name) and "doudizhu-r1" not in p.name:
            p.unlink()
    return folder, next((folder / "inbox").glob("*doudizhu-r1-*.eml"))


@pytest.mark.parametrize("how", ["deleted", "blank"])
def test_R2011_D1_a_resent_sheet_with_a_tables_row_deleted_says_the_earlier_result_still_counts(tmp_path, how):
    """Handbook "较晚收到的一份为准" (RESULT_LEFT_BLANK): 斗地主 round 1 accepted one night; the
    next night the referee re-sends it with 第1桌 corrected and 第7桌's row deleted
    (ws.delete_rows) — or, as before, left blank.  第7桌 still counts from the earlier sheet,
    and either way the office is told so at the later sheet.  A deleted row had been kept
    without a word."""
    folder, r1 = _t2011_doudizhu_r1(tmp_path)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))

    def resent(wb):
        ws = wb["成绩"]
        hrow, col = _header(ws)
        a, b = ws.cell(hrow + 1, col["甲得分"]), ws.cell(hrow + 1, col["乙得分"])
        a.value, b.value = b.value, a.value         # 第1桌 corrected
        row = next(r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["桌号"]).value == 7)
        if how == "deleted":
            ws.delete_rows(row)
        else:
            for label in ("甲得分", "乙得分", "丙得分"):
                ws.cell(row, col[label]).value = None
    edit_attachment(r1, resent, folder / "inbox" / "resent-doudizhu-r1.eml", date="Tue, 17 May 2011 09:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        found = [i for i in csv.DictReader(f) if i["file"] == "doudizhu-r1-成绩表.xlsx"]
    (said,) = [i for i in found if i["code"] == "RESULT_LEFT_BLANK"]
    assert said["severity"] == "warning" and said["sheet"] == "成绩", said
    msg = said["message"]
    assert "第7桌" in msg and "5月17日 09:00 收到" in msg and "5月16日 17:55 收到" in msg, msg
    assert "仍按较早收到的《doudizhu-r1-成绩表.xlsx》" in msg and "甲得分 6、乙得分 -9、丙得分 33" in msg, msg
    if how == "deleted":
        assert "没有这一桌的一行（较早的一份在第 13 行；这一行被删除了" in msg and said["cell"] == "", said
    # (round 2 was drawn from 第1桌 as it was: DRAW_INPUT_CHANGED, at the correcting sheet)
    assert sorted(i["code"] for i in found if i["severity"] != "info") == ["DRAW_INPUT_CHANGED", "RESULT_LEFT_BLANK"], found
    assert report.needs_attention
    assert any("斗地主" in e and "第2轮" in e for e in report.events), report.events


def _only(groups: str, blank: tuple[int, ...] = ()):
    """The 成绩 rows of ``groups`` filled, the others' results cleared (a group referee's sheet),
    and the rows of the tables in ``blank`` cleared too."""
    def edit(wb) -> None:
        ws = wb["成绩"]
        hrow, col = _header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            if ws.cell(r, col["组别"]).value not in tuple(groups) or ws.cell(r, col["桌号"]).value in blank:
                ws.cell(r, col["结果"]).value = ws.cell(r, col["原因"]).value = None
    return edit


@pytest.mark.parametrize("later,said", [
    (_only("BCD"), []),                     # another group's referee: group A's blank rows are not his
    (_only("ABCD", blank=(1,)), ["F8"]),    # group A's part sent again, 第1桌 left blank
], ids=["other-group", "same-group"])
def test_a_later_sheet_leaving_a_table_blank_is_said_only_when_it_fills_that_group(tmp_path, later, said):
    """T2011: a referee per group may send the 成绩表 with only his group's rows filled: a later
    sheet's blank rows of another group say nothing; a later sheet that fills group A's other
    tables and leaves 第1桌 blank is a resend of group A's part, and is said (RESULT_LEFT_BLANK)."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    r1 = next((folder / "inbox").glob("*-xiangqi-r1-*.eml"))
    edit_attachment(r1, later, folder / "inbox" / "later-xiangqi-r1.eml", date="Mon, 16 May 2011 18:40:00 +0800")
    edit_attachment(r1, _only("A"))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        found = [i for i in csv.DictReader(f) if i["code"] == "RESULT_LEFT_BLANK"]
    assert [i["cell"] for i in found] == said, found
    assert all("A组 第1桌" in i["message"] and "结果 乙胜、原因 认输" in i["message"] for i in found), found
    assert report.needs_attention == bool(said)


def _copied(change: bool, moved: bool = False, cleared: bool = False):
    """成绩 copied as Excel does (“成绩 (2)”), the copy's 第2桌 typed 乙胜 when ``change``, its
    results cleared when ``cleared``; ``moved``: the copy renamed 成绩 and put first, the
    original renamed 成绩(旧)."""
    def edit(wb) -> None:
        ws = wb["成绩"]
        copy = wb.copy_worksheet(ws)
        copy.title = "成绩 (2)"
        hrow, col = _header(copy)
        if change:
            copy.cell(hrow + 2, col["结果"]).value = "乙胜"
        if cleared:
            for r in range(hrow + 1, copy.max_row + 1):
                copy.cell(r, col["结果"]).value = copy.cell(r, col["原因"]).value = None
        if moved:
            ws.title, copy.title = "成绩(旧)", "成绩"
            wb.move_sheet(copy, -wb.index(copy))
    return edit


@pytest.mark.parametrize("edit,sheet", [
    (_copied(change=True), "成绩 (2)"),                 # the copy has another result: not read
    (_copied(change=True, moved=True), "成绩(旧)"),     # the copy read as 成绩; the original not
    (_copied(change=False), None),                      # the same results: nothing to say
    (_copied(change=False, cleared=True), None),        # a blank copy: nothing to say
], ids=["copy-differs", "original-kept-as-old", "same", "blank-copy"])
def test_contract_result_sheet_another_sheet_with_other_results_is_said_not_read(tmp_path, edit, sheet):
    """Contract "Sheet 成绩": only 成绩 is read.  A workbook with a copy of the result table whose
    results differ from 成绩's (a table changed on the copy, or the old 成绩 kept beside a new
    one) was read from 成绩 without a word about the other sheet; now the sheet and its first
    differing cell are named (RESULT_ON_OTHER_SHEET, a warning), and it is still not read."""
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, edit)
    report = _run(folder, tmp_path)
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events
    said = [i for i in _issues(tmp_path) if i["code"] == "RESULT_ON_OTHER_SHEET"]
    if sheet is None:
        assert said == [] and not report.needs_attention
        return
    (said,) = said
    assert said["severity"] == "warning" and said["sheet"] == sheet and said["cell"] == "F8"
    assert "读取的是“成绩”工作表中的成绩" in said["message"] and f"另一张工作表“{sheet}”" in said["message"]
    assert "没有读取" in said["message"] and "删除多余的工作表" in said["message"]
    assert "抄进“成绩”工作表" in said["message"] and "重新发送" in said["message"]
    with open(tmp_path / "out" / "t2020-league" / "data" / "draw.csv", encoding="utf-8") as f:
        r2 = {r["team"] for r in csv.DictReader(f) if r["event"] == "xiangqi" and r["round"] == "2"}
    read_changed = sheet == "成绩(旧)"          # the sheet named 成绩 is the one read
    assert any("钟兰" in t for t in r2) == read_changed and any("郑超" in t for t in r2) != read_changed, r2


def test_result_conflict_a_correction_of_a_correction_says_which_counts(tmp_path):
    """Three sheets for one table: the sample's (甲胜), a correction (乙胜), and a second
    correction (和棋).  The first note said the middle sheet was taken (采用较晚收到的一份),
    though the last one is: it says a later sheet came and the latest counts."""
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, _first_row(结果="乙胜"), folder / "inbox" / "resent-xiangqi-r1.eml", date=LATER)
    edit_attachment(r1, _first_row(结果="和棋", 原因="议和"), folder / "inbox" / "again-xiangqi-r1.eml",
                    date="Sat, 21 Nov 2020 09:00:00 +0800")
    _run(folder, tmp_path)
    notes = [i["message"] for i in _issues(tmp_path) if i["code"] == "RESULT_CONFLICT"]
    (took,) = [m for m in notes if "采用较晚收到的一份" in m]
    assert "11月21日 09:00 收到" in took.split("采用较晚收到的一份")[1], notes
    (then,) = [m for m in notes if m is not took]
    assert "其后又收到" in then and "11月21日 09:00 收到" in then and "以最晚收到的一份为准" in then, then
    assert all(i["severity"] == "info" for i in _issues(tmp_path) if i["code"] == "RESULT_CONFLICT")


def test_result_conflict_a_second_correction_that_cannot_be_read_leaves_the_first(tmp_path):
    """The same chain with the last sheet unreadable (乙方缺席 in 结果): the first correction
    counts again, and its note says so as it did (采用较晚收到的一份, 11-20) — not that a
    later sheet counts."""
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, _first_row(结果="乙胜"), folder / "inbox" / "resent-xiangqi-r1.eml", date=LATER)
    edit_attachment(r1, _first_row(结果="乙方缺席"), folder / "inbox" / "again-xiangqi-r1.eml",
                    date="Sat, 21 Nov 2020 09:00:00 +0800")
    _run(folder, tmp_path)
    notes = [i["message"] for i in _issues(tmp_path) if i["code"] == "RESULT_CONFLICT"]
    assert len(notes) == 2 and not any("其后又收到" in m for m in notes), notes
    (took,) = [m for m in notes if "采用较晚收到的一份" in m]
    assert "11月20日 09:00 收到" in took.split("采用较晚收到的一份")[1], notes
    assert any("无法读取" in m and "仍按较早收到的" in m for m in notes), notes


def _sent_again(mail: Path, save_as: Path, date: str, sender: str | None = None) -> None:
    """``mail`` sent again on ``date`` (from ``sender``): its attachment byte for byte the same."""
    import email
    import email.policy

    msg = email.message_from_bytes(mail.read_bytes(), policy=email.policy.default)
    del msg["Date"]
    msg["Date"] = date
    if sender:
        del msg["From"]
        msg["From"] = sender
    save_as.write_bytes(bytes(msg))


def test_the_original_sheet_sent_again_after_its_correction_is_a_warning(tmp_path):
    """A referee sends round 1 (A, 11-10), a correction (B, 11-20), then A again unchanged
    (11-21) "to undo the correction": A's content counts once, at its first receipt, so B
    stays in force.  It was said as an info note only ("内容完全相同，按一份处理", exit 0) and
    the office believed the revert had taken effect.  Now a warning, as for a registration
    form sent A, B, A: it names B, still in force, and how to make A's version count."""
    folder, r1 = _league(tmp_path)
    _run(folder, tmp_path)
    edit_attachment(r1, _flip, folder / "inbox" / "1120-xiangqi-r1-更正.eml", date=LATER)
    corrected = _run(folder, tmp_path)
    assert not [i for i in corrected.issues if i.code == "DUPLICATE_FILE"]
    _sent_again(r1, folder / "inbox" / "1121-xiangqi-r1-原表.eml", "Sat, 21 Nov 2020 09:00:00 +0800")
    report = _run(folder, tmp_path)
    (dup,) = [i for i in report.issues if i.code == "DUPLICATE_FILE"]
    assert str(dup.severity) == "warning" and report.needs_attention, dup
    assert dup.file == "1121-xiangqi-r1-原表.eml"
    assert "内容完全相同" in dup.message and "11月10日 17:55" in dup.message           # A's first receipt
    assert "《1120-xiangqi-r1-更正.eml》" in dup.message and "11月20日 09:00" in dup.message   # B, in force
    assert "象棋第1轮" in dup.message and "任意修改" in dup.message and "重新发送" in dup.message
    # B still counts: the correction's RESULT_CONFLICT is unchanged
    assert [i.message for i in report.issues if i.code == "RESULT_CONFLICT"] == \
        [i.message for i in corrected.issues if i.code == "RESULT_CONFLICT"]


def test_the_sheet_in_force_sent_again_is_still_a_note(tmp_path):
    """B (the correction) sent again after B, or A sent again before B came: nothing to warn about."""
    folder, r1 = _league(tmp_path)
    _sent_again(r1, folder / "inbox" / "1111-xiangqi-r1-again.eml", "Wed, 11 Nov 2020 09:00:00 +0800")
    b = folder / "inbox" / "1120-xiangqi-r1-更正.eml"
    edit_attachment(r1, _flip, b, date=LATER)
    _sent_again(b, folder / "inbox" / "1121-xiangqi-r1-更正again.eml", "Sat, 21 Nov 2020 09:00:00 +0800")
    report = _run(folder, tmp_path)
    dups = [i for i in report.issues if i.code == "DUPLICATE_FILE"]
    assert len(dups) == 2 and {str(i.severity) for i in dups} == {"info"}, dups


def _only_tables(keep):
    """A referee's part of the round: the results of the other tables left blank."""
    def edit(wb) -> None:
        ws = wb["成绩"]
        hrow, col = _header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            if ws.cell(r, col["桌号"]).value is not None and ws.cell(r, col["桌号"]).value not in keep:
                for label in ("结果", "原因"):
                    ws.cell(r, col[label]).value = None
    return edit


def test_a_sheet_sent_again_after_another_referees_part_of_the_round_is_still_a_note(tmp_path):
    """Two referees each send their tables of round 1 (A: 第1桌, B: the others), then A again:
    B changed nothing A filled in — A counts as it did, and nothing is to be undone."""
    folder, r1 = _league(tmp_path)
    a = folder / "inbox" / "1110-xiangqi-r1-第1桌.eml"
    edit_attachment(r1, _only_tables({1}), a, date="Tue, 10 Nov 2020 17:50:00 +0800")
    edit_attachment(r1, _only_tables(set(range(2, 40))), r1)
    _sent_again(a, folder / "inbox" / "1111-xiangqi-r1-第1桌again.eml", "Wed, 11 Nov 2020 09:00:00 +0800")
    report = _run(folder, tmp_path)
    (dup,) = [i for i in report.issues if i.code == "DUPLICATE_FILE"]
    assert str(dup.severity) == "info", dup
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events


def test_R2011_D1_a_sheet_sent_again_after_another_referees_part_with_hands_is_still_a_note(tmp_path):
    """R2011-D1 斗地主 with its 牌局明细: two referees each send their tables of round 1 with
    the hands of their own tables only (A: 第1桌, B: the others), then A again.  Any
    difference on the detail sheet was taken for a correction of A (a DUPLICATE_FILE warning,
    exit 1, a receipt telling the referee his sheet does not count): B's hands are of tables
    A never filled."""
    folder, r1 = _t2011_doudizhu_r1(tmp_path)

    def part(keep: set[int]):
        def edit(wb) -> None:
            ws = wb["成绩"]
            hrow, col = _header(ws)
            for r in range(hrow + 1, ws.max_row + 1):
                if ws.cell(r, col["桌号"]).value not in keep | {None}:
                    for label in ("甲得分", "乙得分", "丙得分"):
                        ws.cell(r, col[label]).value = None
            ws = wb["牌局明细"]
            hrow, col = _header(ws)
            for r in range(hrow + 1, ws.max_row + 1):
                if ws.cell(r, col["桌号"]).value not in keep:
                    for c in range(1, ws.max_column + 1):
                        ws.cell(r, c).value = None
        return edit
    a = folder / "inbox" / "0516-doudizhu-r1-第1桌.eml"
    edit_attachment(r1, part({1}), a, date="Mon, 16 May 2011 17:50:00 +0800")
    edit_attachment(r1, part(set(range(2, 40))), r1)
    _sent_again(a, folder / "inbox" / "0517-doudizhu-r1-第1桌again.eml", "Tue, 17 May 2011 09:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    (dup,) = [i for i in report.issues if i.code == "DUPLICATE_FILE"]
    assert str(dup.severity) == "info", dup


def test_two_referees_who_split_a_rounds_tables_and_delete_each_others_rows_are_not_warned(tmp_path):
    """象棋 round 1 split between two referees: A sends tables 1–5 (the rows of 6 on deleted),
    B later sends tables 6 on (the rows of 1–5 deleted).  B's sheet was said to have deleted
    tables 1–5 (RESULT_LEFT_BLANK ×5, exit 1): a run of rows missing at the top or the bottom
    is another referee's part; a row missing between kept rows still is said (above)."""
    folder, r1 = _league(tmp_path)

    def keep(tables: set[int]):
        def edit(wb) -> None:
            ws = wb["成绩"]
            hrow, col = _header(ws)
            for r in range(ws.max_row, hrow, -1):
                t = ws.cell(r, col["桌号"]).value
                if t is not None and t not in tables:
                    ws.delete_rows(r)
        return edit
    edit_attachment(r1, keep(set(range(1, 6))), folder / "inbox" / "a-xiangqi-r1.eml", date="Tue, 10 Nov 2020 17:50:00 +0800")
    edit_attachment(r1, keep(set(range(6, 40))), r1)
    report = _run(folder, tmp_path)
    assert not [i for i in _issues(tmp_path) if i["code"] == "RESULT_LEFT_BLANK"], _issues(tmp_path)
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events


def _filled_only(tables: set[int], changed: int | None = None):
    """A referee's sheet on a fresh copy: the results of ``tables`` filled, the others' cleared
    (their rows kept); ``changed``: that table's result flipped (a correction)."""
    def edit(wb) -> None:
        ws = wb["成绩"]
        hrow, col = _header(ws)
        for r in range(hrow + 1, ws.max_row + 1):
            t = ws.cell(r, col["桌号"]).value
            if t is not None and t not in tables:
                ws.cell(r, col["结果"]).value = ws.cell(r, col["原因"]).value = None
            elif t == changed:
                cell = ws.cell(r, col["结果"])
                cell.value = "乙胜" if cell.value == "甲胜" else "甲胜"
    return edit


def test_two_referees_who_split_a_round_each_on_a_fresh_copy_are_not_warned(tmp_path):
    """象棋 round 1 (no groups) split between two referees: A fills tables 1–5 and sends; B
    fills 6 on on a fresh copy, leaving 1–5 blank.  B's blank tables are exactly A's, and B
    fills only tables A left blank: a split, not a resend — it was RESULT_LEFT_BLANK ×5
    (exit 1).  A then sends his half again with 第2桌 corrected: again a split against B's
    sheet (its blank tables are B's), the correction noted, nothing to act on."""
    folder, r1 = _league(tmp_path)
    sample = tmp_path / "sample-xiangqi-r1.eml"
    shutil.move(r1, sample)
    edit_attachment(sample, _filled_only(set(range(1, 6))), folder / "inbox" / "a-xiangqi-r1.eml",
                    date="Tue, 10 Nov 2020 17:50:00 +0800")
    edit_attachment(sample, _filled_only(set(range(6, 40))), r1)
    report = _run(folder, tmp_path)
    assert not [i for i in _issues(tmp_path) if i["code"] == "RESULT_LEFT_BLANK"], _issues(tmp_path)
    assert any("象棋" in e and "第2轮" in e for e in report.events), report.events
    assert not [i for i in _issues(tmp_path) if i["severity"] != "info"], _issues(tmp_path)
    edit_attachment(sample, _filled_only(set(range(1, 6)), changed=2), folder / "inbox" / "a2-xiangqi-r1.eml",
                    date=LATER)
    _run(folder, tmp_path)
    found = _issues(tmp_path)
    assert not [i for i in found if i["code"] == "RESULT_LEFT_BLANK"], found
    assert [i["code"] for i in found if i["code"] == "RESULT_CONFLICT"] == ["RESULT_CONFLICT"], found
    assert not [i for i in found if i["severity"] != "info" and i["code"] != "DRAW_INPUT_CHANGED"], found


def test_a_later_sheet_filling_a_table_the_earlier_one_filled_still_says_the_blank_ones(tmp_path):
    """The split above is not a resend: a later sheet that fills 第2桌 again (which the earlier
    one filled) and leaves 第1桌 blank is — 第1桌 is said (RESULT_LEFT_BLANK), as before."""
    folder, r1 = _league(tmp_path)
    edit_attachment(r1, _filled_only(set(range(1, 6))), folder / "inbox" / "a-xiangqi-r1.eml",
                    date="Tue, 10 Nov 2020 17:50:00 +0800")
    edit_attachment(r1, _filled_only(set(range(2, 40))))
    _run(folder, tmp_path)
    found = [i for i in _issues(tmp_path) if i["code"] == "RESULT_LEFT_BLANK"]
    assert [(i["severity"], i["cell"]) for i in found] == [("warning", "F7")], found


def test_a_corrected_result_after_the_next_draw_names_the_file_it_came_from(tmp_path):
    """DRAW_INPUT_CHANGED (the next round drawn from a result corrected since) had an empty
    file column in issues.csv, the RESULT_CONFLICT beside it naming the correcting sheet: it is
    at that sheet's cell of the corrected table now."""
    folder, r1 = _league(tmp_path)
    _run(folder, tmp_path)
    edit_attachment(r1, _flip, folder / "inbox" / "corrected-xiangqi-r1.eml", date=LATER)
    _run(folder, tmp_path)
    found = _issues(tmp_path)
    (conflict,) = [i for i in found if i["code"] == "RESULT_CONFLICT"]
    (changed,) = [i for i in found if i["code"] == "DRAW_INPUT_CHANGED"]
    assert "成绩在公布后有了更正" in changed["message"] and "第1桌" in changed["message"]
    assert (changed["file"], changed["sheet"], changed["cell"]) == (conflict["file"], "成绩", conflict["cell"]), changed


def test_a_corrected_knockout_result_after_groups_names_the_winner_left_out(tmp_path):
    """t2011 象棋 (groups, then a knockout): a semi-final result corrected after the final was
    drawn.  The final is drawn from the semi-finals' winners, as in a plain knockout, so the
    message names the winner the correction makes, who is not in the published final (he
    is in the 三四名决赛) — it listed the corrected table only."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    sf = next((folder / "inbox").glob("*-xiangqi-r6-*.eml"))
    edit_attachment(sf, _flip, folder / "inbox" / "corrected-xiangqi-r6.eml", date="Fri, 20 May 2011 17:00:00 +0800")
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        changed = [i for i in csv.DictReader(f) if i["code"] == "DRAW_INPUT_CHANGED"]
    assert changed and any("按现在的成绩，第6轮（半决赛）第1桌" in i["message"]
                           and "胜出，却在已公布的第7轮（决赛及三四名决赛）中排在三四名决赛" in i["message"]
                           for i in changed), changed


def _level_doudizhu_r1(tmp_path: Path, later: dict[str, object]) -> tuple[list[dict[str, str]], object]:
    """t2020-league with only round 1 of 斗地主 sent: its 第1桌 level at the top (2, 2, −4),
    加赛胜者 blank (PLAYOFF_REQUIRED); then the same sheet sent again on LATER with ``later``
    typed into that row.  (the 斗地主 sheet's issues, the report)"""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    for p in (folder / "inbox").glob("*-doudizhu-r*.eml"):
        if "-doudizhu-r1-" not in p.name:
            p.unlink()
    r1 = next((folder / "inbox").glob("*-doudizhu-r1-*.eml"))
    level = {"甲得分": 2, "乙得分": 2, "丙得分": -4, "加赛胜者": None, "弃权": None}
    edit_attachment(r1, _first_row(**level))
    edit_attachment(r1, _first_row(**{**level, **later}), folder / "inbox" / "resent-doudizhu-r1.eml", date=LATER)
    report = _run(folder, tmp_path)
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        return [i for i in csv.DictReader(f) if i["file"] == "doudizhu-r1-成绩表.xlsx"], report


def test_result_conflict_a_later_sheet_adding_only_the_playoff_winner_is_no_conflict(tmp_path):
    """Handbook RESULT_CONFLICT (成绩不一致 → 按更正处理): a referee told PLAYOFF_REQUIRED
    (选择加赛胜者) re-sends the sheet with only 加赛胜者 filled in — the scores as before.
    It was said as "填写的成绩不一致，按更正处理" at 甲得分, a cell that did not change.  A
    cell left blank before and filled now is no disagreement: nothing is said, the later row
    is taken and the 加赛 decides the table (R2020-D2 places)."""
    found, report = _level_doudizhu_r1(tmp_path, {"加赛胜者": "乙"})
    assert not [i for i in found if i["code"] in ("RESULT_CONFLICT", "PLAYOFF_REQUIRED", "RESULTS_REWRITTEN")], found
    res = next(r for k, r in report.state.events["doudizhu"].results.items()
               if r.match.round == 1 and r.match.table == 1)
    assert [s.place for s in res.sides][:2] == [2, 1], res


def test_result_conflict_a_later_optional_none_where_the_earlier_was_blank_is_no_conflict(tmp_path):
    """The dropdown's 无 (read as blank by every game) where the earlier sheet left 加赛胜者
    blank is no change either: no RESULT_CONFLICT, the table still waits for its 加赛."""
    found, _ = _level_doudizhu_r1(tmp_path, {"加赛胜者": "无"})
    assert not [i for i in found if i["code"] == "RESULT_CONFLICT"], found
    assert [i["cell"] for i in found if i["code"] == "PLAYOFF_REQUIRED"], found


def test_result_conflict_a_later_sheet_changing_a_score_is_still_a_correction(tmp_path):
    """The other side: the playoff winner added and a score changed is a real correction —
    RESULT_CONFLICT as before (按更正处理, info) at the first cell that changed (甲得分)."""
    found, _ = _level_doudizhu_r1(tmp_path, {"甲得分": 1, "乙得分": 1, "丙得分": -2, "加赛胜者": "乙"})
    (conflict,) = [i for i in found if i["code"] == "RESULT_CONFLICT"]
    assert conflict["severity"] == "info" and "填写的成绩不一致，按更正处理" in conflict["message"], conflict
    assert (conflict["sheet"], conflict["cell"]) == ("成绩", "G8"), conflict


def test_result_conflict_points_at_the_first_cell_that_changed(tmp_path):
    """A correction of 乙得分 and 丙得分 alone is said at 乙得分 (H8), not at 甲得分 (G8),
    which the referee did not touch."""
    found, _ = _level_doudizhu_r1(tmp_path, {"乙得分": 4, "丙得分": -6})
    (conflict,) = [i for i in found if i["code"] == "RESULT_CONFLICT"]
    assert (conflict["sheet"], conflict["cell"]) == ("成绩", "H8"), conflict


_SK_LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _shuangkou_r1_resent(tmp_path: Path, edit) -> tuple[list[dict[str, str]], object]:
    """t2015-tcm with only round 1 of 双扣 sent; then the same sheet sent again later with
    ``edit`` (ws, header row, columns) applied — a cell the first one left blank filled in.
    (the 双扣 round-1 sheet's issues, the report)"""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder)
    for p in (folder / "inbox").glob("*-shuangkou-r*.eml"):
        if "-shuangkou-r1-" not in p.name:
            p.unlink()
    r1 = next((folder / "inbox").glob("*-shuangkou-r1-*.eml"))

    def on_sheet(wb):
        edit(wb["成绩"], *_header(wb["成绩"]))
    edit_attachment(r1, on_sheet, folder / "inbox" / "resent-shuangkou-r1.eml", date="Sat, 21 Nov 2015 18:00:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    with open(tmp_path / "out" / "t2015-tcm" / "data" / "issues.csv", encoding="utf-8") as f:
        return [i for i in csv.DictReader(f) if i["file"] == "shuangkou-r1-成绩表.xlsx"], report


def _shuangkou_r1_table(report, table: int):
    return next(r for r in report.state.events["shuangkou"].results.values()
                if r.match.round == 1 and r.match.table == table)


def test_result_conflict_a_blank_filled_in_that_reverses_the_result_is_a_correction(tmp_path):
    """Handbook RESULT_CONFLICT: a later row that only fills cells the earlier one left blank
    was taken without a word — even when the cell filled reverses the result: 双扣 第1桌
    甲方级数 6 / 乙方级数 4 (甲 wins), sent again with 甲方警告 3 (3 次判负: 甲 loses).  It is
    a correction like any other: RESULT_CONFLICT 按更正处理 at the cell filled in."""
    def warned(ws, hrow, col):
        ws.cell(hrow + 1, col["甲方警告"]).value = 3
    found, report = _shuangkou_r1_resent(tmp_path, warned)
    (conflict,) = [i for i in found if i["code"] == "RESULT_CONFLICT"]
    assert conflict["severity"] == "info" and "填写的成绩不一致，按更正处理" in conflict["message"], conflict
    assert (conflict["sheet"], conflict["cell"]) == ("成绩", "J8"), conflict
    res = _shuangkou_r1_table(report, 1)
    assert res.winner() == res.match.sides[1], res


def test_result_conflict_a_blank_filled_in_that_keeps_the_result_is_no_conflict(tmp_path):
    """The other side: a blank filled in that the game reads to the same result (乙方警告 1 on
    a table 甲 wins) is no disagreement — taken without a word, as before."""
    def warned(ws, hrow, col):
        ws.cell(hrow + 1, col["乙方警告"]).value = 1
    found, report = _shuangkou_r1_resent(tmp_path, warned)
    assert not [i for i in found if i["code"] in ("RESULT_CONFLICT", "RESULTS_REWRITTEN")], found
    res = _shuangkou_r1_table(report, 1)
    assert res.winner() == res.match.sides[0], res


def test_results_rewritten_counts_blanks_filled_in_that_reverse_the_results(tmp_path):
    """RESULTS_REWRITTEN counts the tables a later sheet's rows change: a sheet sent again
    with 3 次警告 given to the winner of every table (blank before) reverses the round, and
    was not counted (each row only filled a blank)."""
    def warned(ws, hrow, col):
        for r in range(hrow + 1, ws.max_row + 1):
            a, b = (str(ws.cell(r, col[l]).value or "") for l in ("甲方级数", "乙方级数"))
            if a in _SK_LEVELS and b in _SK_LEVELS and a != b:
                ws.cell(r, col["甲方警告" if _SK_LEVELS.index(a) > _SK_LEVELS.index(b) else "乙方警告"]).value = 3
    found, _ = _shuangkou_r1_resent(tmp_path, warned)
    assert [i for i in found if i["code"] == "RESULTS_REWRITTEN"], found
