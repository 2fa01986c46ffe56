"""Reruns: no new input → byte-identical outputs and the quick "unchanged" path (with and
without --now: the clock must not leak into outputs); a new workbook re-renders; a
published (frozen) round survives a change of its inputs, which becomes DRAW_INPUT_CHANGED."""
from __future__ import annotations

import csv
import datetime as dt
import email
import io
import os
import shutil
from email import policy
from pathlib import Path

import openpyxl
import pytest

from pipeline.run import RunOptions, run
from pipeline.spec import SpecError

from .common import copy_sample, diff_trees, league, run_args, tree_hashes

SAMPLE = "t2016-poker"
NOW = dt.datetime(2030, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=8)))


def _only(out: Path) -> Path:
    (tid,) = [p for p in out.iterdir()]
    return tid


@pytest.mark.parametrize("now", [NOW, None], ids=["with-now", "clock"])
def test_rerun_without_new_input_is_identical_and_quick(tmp_path, now):
    folder = copy_sample(SAMPLE, tmp_path)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=now, pdf=False))
    assert not first.unchanged and first.written > 0
    before = tree_hashes(first.out_dir)
    assert "data/draw.csv" in before and any(k.endswith(".html") for k in before)
    assert any(k.endswith(".xlsx") and k.startswith("results/") for k in before)
    second = run(RunOptions(folder=folder, out_parent=out, now=now, pdf=False))
    # quick: the fast path (its time is bench/'s, not a test's)
    assert second.unchanged, "a rerun with no new input did the whole batch again"
    assert second.summary().splitlines()[-1] == "没有新文件，输出未变。" or "输出未变" in second.summary()
    assert diff_trees(before, tree_hashes(second.out_dir)) == []


def test_clock_does_not_leak_into_outputs(tmp_path):
    """A full run on the real clock and one (fast path defeated by deleting .lastrun.json)
    at another moment after every deadline write the same bytes."""
    folder = copy_sample(SAMPLE, tmp_path)
    out = tmp_path / "out"
    league(*run_args(folder, out, now=None))
    d = _only(out)
    before = tree_hashes(d)
    (d / ".lastrun.json").unlink()
    # a different minute on the clock (outputs show times to the minute): same deadlines
    r = league(*run_args(folder, out, now="2031-06-01T09:17+08:00"))
    assert r.returncode in (0, 1), r.stderr
    assert diff_trees(before, tree_hashes(d)) == []


def _attachment(eml: Path) -> bytes:
    m = email.message_from_bytes(eml.read_bytes(), policy=policy.default)
    return next(a.get_payload(decode=True) for a in m.iter_attachments())


def _inbox_without_results(tmp_path: Path) -> Path:
    folder = copy_sample(SAMPLE, tmp_path)
    for p in (folder / "inbox").iterdir():
        if "成绩表" in p.name or "加赛" in p.name:
            p.unlink()
    return folder


def test_new_workbook_rerenders(tmp_path):
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    src = Path(__file__).resolve().parents[2] / "sample_sheets" / SAMPLE / "inbox"
    shutil.copy2(src / "11260941-guandan-r1-成绩表.eml", folder / "inbox")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not again.unchanged and again.received_new >= 1 and again.written > 0
    rounds = {row["round"] for row in csv.DictReader(io.StringIO(
        (again.out_dir / "data" / "draw.csv").read_text(encoding="utf-8")))}
    assert "2" in rounds, "round 1 results arrived but round 2 was not drawn"


def _corrected_form(folder: Path, mail: str, name: str, edit) -> int:
    """A unit's registration form from its sample ``mail``, each row after the header
    passed to ``edit`` (which says whether it changed it), saved into the inbox as ``name``
    dated 11-14 (before the deadline); the number of rows changed."""
    wb = openpyxl.load_workbook(io.BytesIO(_attachment(folder / "inbox" / mail)))
    changed = sum(1 for row in wb.worksheets[0].iter_rows(min_row=7) if edit(row))
    new = folder / "inbox" / name
    wb.save(new)
    stamp = dt.datetime(2016, 11, 14, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=8))).timestamp()
    os.utime(new, (stamp, stamp))
    return changed


def _g04_withdraws_team_3(folder: Path) -> None:
    """g04 sends a corrected registration (dated before the deadline) without its team 3."""
    def clear(row) -> bool:
        if row[2].value != 3:
            return False
        for c in row[1:]:
            c.value = None
        return True
    assert _corrected_form(folder, "1111-g04-报名表.eml", "1114-g04-报名表-更正.xlsx", clear) == 2


def test_a_player_swapped_after_the_draw_is_named(tmp_path):
    """g08 sends a form (dated before the deadline, read after round 1 was published) with
    杜桂 replaced by 李新: the warning said only that 签到或队员有变化 with two digests, while
    the standings and the award went to the new pair.  Now it names the team and both
    pairs, and says the results now show the new players."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    def swap(row) -> bool:
        if row[3].value != "杜桂":
            return False
        row[3].value, row[4].value = "李新", "001999"
        return True
    assert _corrected_form(folder, "1111-g08-报名表.eml", "1114-g08-报名表-换人.xlsx", swap) == 1
    report = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (said,) = [i for i in report.issues if i.code == "DRAW_INPUT_CHANGED"]
    assert "公布后队员有变化：外语1队 覃旭/杜桂 → 覃旭/李新" in said.message, said.message
    assert "按新的队员显示" in said.message and "输入摘要" not in said.message


def _draw_rows(d: Path, drop: tuple[str, ...] = ()) -> list[dict[str, str]]:
    rows = csv.DictReader(io.StringIO((d / "data" / "draw.csv").read_text(encoding="utf-8")))
    return [{k: v for k, v in r.items() if k not in drop} for r in rows]


def test_frozen_round_survives_changed_registration(tmp_path):
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    d = first.out_dir
    structure = _draw_rows(d, drop=("team", "branch"))
    sheets_before = {p.name: p.read_bytes() for p in (d / "results").glob("*.xlsx")}
    assert structure and sheets_before
    assert not any(i.code == "DRAW_INPUT_CHANGED" for i in first.issues)
    (waiting,) = [i for i in first.issues if i.code == "RESULT_MISSING"]         # a note, tables named
    assert waiting.severity.value == "info" and "A组第1桌" in waiting.message and "guandan-r1-成绩表.xlsx" in waiting.message
    _g04_withdraws_team_3(folder)
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not again.unchanged
    codes = [i.code for i in again.issues]
    assert "DRAW_INPUT_CHANGED" in codes, codes
    (changed,) = [i for i in again.issues if i.code == "DRAW_INPUT_CHANGED"]
    assert "已不在报名中 经济3队" in changed.message and "guandan-" not in changed.message   # named, not an id
    assert _draw_rows(d, drop=("team", "branch")) == structure, "the published round 1 was redrawn"
    assert {p.name: p.read_bytes() for p in (d / "results").glob("*.xlsx")} == sheets_before


def test_draw_input_changed_is_a_warning_once_then_a_note(tmp_path):
    """DRAW_INPUT_CHANGED (SAID_ONCE): a warning the night it is first said; a later night
    that finds the same thing — a full run for other news, or an unchanged night — lists it
    as a note (the office has been told and may leave the published draw as it is: exit 0
    under cron, not 1 for the rest of the season); a further change says it again."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    _g04_withdraws_team_3(folder)
    told = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (first,) = [i for i in told.issues if i.code == "DRAW_INPUT_CHANGED"]
    assert first.severity.value == "warning" and told.needs_attention
    assert any("DRAW_INPUT_CHANGED" in s for s in told.next_steps)
    # other news: round 1's results of the event come in (a full run)
    _play_round_1(folder)
    later = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not later.unchanged
    (again,) = [i for i in later.issues if i.code == "DRAW_INPUT_CHANGED"]
    assert (again.message, again.severity.value) == (first.message, "info")
    assert not any("DRAW_INPUT_CHANGED" in s for s in later.next_steps)
    rows = list(csv.DictReader(io.StringIO((later.out_dir / "data" / "issues.csv").read_text(encoding="utf-8"))))
    assert [r["severity"] for r in rows if r["code"] == "DRAW_INPUT_CHANGED"] == ["info"]
    assert not later.needs_attention, [(i.code, i.severity) for i in later.issues if i.severity.value != "info"]
    # an unchanged night replays it as a note
    quiet = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert quiet.unchanged and not quiet.needs_attention
    assert [i.severity.value for i in quiet.issues if i.code == "DRAW_INPUT_CHANGED"] == ["info"]
    # a run that did not finish told the office nothing: what the last finished night said
    # still stands (it was said as a warning again, exit 1, after any run cut short)
    (later.out_dir / ".run-unfinished").touch()
    anew = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not anew.unchanged       # (its outputs are not trusted: made again)
    assert [i.severity.value for i in anew.issues if i.code == "DRAW_INPUT_CHANGED"] == ["info"]
    assert not anew.needs_attention


def test_frozen_round_keeps_withdrawn_team_label(tmp_path):
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    d = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False)).out_dir
    before = (d / "data" / "draw.csv").read_bytes()
    _g04_withdraws_team_3(folder)
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert (d / "data" / "draw.csv").read_bytes() == before


def test_an_event_renamed_after_its_draws_were_published_is_said(tmp_path):
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("  - id: guandan\n", "  - id: guandan2\n"), encoding="utf-8")
    ledger = out / "t2016-poker" / "ledger.sqlite"
    before = ledger.read_bytes()
    # the id changed, the name kept: refused before anything is drawn under the new id (it
    # published a second, different round 1 for good, the played sheets another event's)
    with pytest.raises(SpecError) as e:
        run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert "events[" in str(e.value) and "改回 id: guandan" in str(e.value), str(e.value)
    assert ledger.read_bytes() == before
    # its id and name changed together (no event of its name left, a new id of its game the
    # night it went): refused too — it was drawn afresh, every captain's form UNKNOWN_EVENT
    spec.write_text(text.replace("  - id: guandan\n", "  - id: guandan2\n").replace("    name: 扑克牌\n", "    name: 掼蛋\n"),
                    encoding="utf-8")
    with pytest.raises(SpecError) as e:
        run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert "改回 id: guandan" in str(e.value) and "分两次修改" in str(e.value), str(e.value)
    assert ledger.read_bytes() == before


@pytest.mark.parametrize("older_ledger", [False, True], ids=["ledger", "older-ledger"])
def test_a_drawn_event_taken_out_then_another_of_its_game_added_is_new(tmp_path, older_ledger):
    """The way out the refusal above gives: a drawn event taken out (a night without it: a
    note, the night runs), and on a later night a new event of the same game — drawn as new.
    Also when an older version took it out (its ledger has no record of the events gone: the
    new event was refused every night, the record never written)."""
    folder = copy_sample("t2020-league", tmp_path)
    for p in (folder / "inbox").iterdir():
        if "成绩表" in p.name or "加赛" in p.name or "评奖" in p.name:
            p.unlink()
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    start, end = text.index("  - id: doudizhu\n"), text.index("\n# ", text.index("  - id: doudizhu\n"))
    block = text[start:end + 1]
    spec.write_text(text.replace(block, ""), encoding="utf-8")
    both = block.replace("  - id: doudizhu\n", "  - id: ddz\n").replace("    name: 斗地主\n", "    name: 斗地主决赛\n")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    gone = [i for i in again.issues if i.code == "DRAW_INPUT_CHANGED" and "“doudizhu”" in i.message]
    assert len(gone) == 1 and "改回原来的编号" in gone[0].message
    if older_ledger:
        import sqlite3

        con = sqlite3.connect(out / "t2020-league" / "ledger.sqlite")
        with con:
            assert con.execute("DELETE FROM cache WHERE key = 'gone:events'").rowcount == 1
        con.close()
    spec.write_text(text.replace(block, both), encoding="utf-8")
    third = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert any(e.startswith("斗地主决赛：") for e in third.events), third.events


def _play_round_1(folder: Path) -> None:
    src = Path(__file__).resolve().parents[2] / "sample_sheets" / SAMPLE / "inbox"
    shutil.copy2(src / "11260941-guandan-r1-成绩表.eml", folder / "inbox")


def _as_an_older_sheet(eml: Path) -> None:
    """The sheet as an earlier version wrote it: its _meta without the pairings (the sample's
    mails, made again when a fix changed the draw, record them)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
    from mailedit import edit_attachment

    from pipeline import layout

    def strip(wb):
        ws = wb[layout.META_SHEET]
        for row in range(ws.max_row, 0, -1):
            if ws.cell(row, 1).value == layout.META_PAIRINGS:
                ws.delete_rows(row)
    edit_attachment(eml, strip)


def test_a_format_changed_after_its_draws_were_published_is_not_applied_and_is_said(tmp_path):
    """A published draw is never redrawn: tournament.yaml's format changed after round 1
    (groups paired by standing → Swiss) leaves the event in the format it was drawn in —
    round 2 is drawn exactly as without the change — and FORMAT_CHANGED says so each night."""
    plain = _inbox_without_results(tmp_path / "plain")
    run(RunOptions(folder=plain, out_parent=tmp_path / "plain-out", now=NOW, pdf=False))
    _play_round_1(plain)
    expected = run(RunOptions(folder=plain, out_parent=tmp_path / "plain-out", now=NOW, pdf=False))
    expected_draw = (expected.out_dir / "data" / "draw.csv").read_bytes()
    assert b",2," in expected_draw or "第2轮" in expected_draw.decode("utf-8")

    folder = _inbox_without_results(tmp_path / "changed")
    out = tmp_path / "changed-out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    round_1 = (first.out_dir / "data" / "draw.csv").read_bytes()
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    old = "format: {type: groups_standings, groups: 4, rounds: 3, avoid_rematch: true}"
    assert old in text
    spec.write_text(text.replace(old, "format: {type: swiss, rounds: 3}"), encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    said = [i for i in again.issues if i.code == "FORMAT_CHANGED"]
    assert len(said) == 1 and said[0].severity.value == "error", [i.code for i in again.issues]
    assert "swiss" in said[0].message and "type: groups_standings" in said[0].message
    assert (again.out_dir / "data" / "draw.csv").read_bytes() == round_1
    # the notice describes the format the rounds are drawn in, not the edited one
    notice = (again.out_dir / "notice.html").read_text(encoding="utf-8")
    assert "瑞士制" not in notice and "分为4个小组" in notice
    _play_round_1(folder)
    played = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert (played.out_dir / "data" / "draw.csv").read_bytes() == expected_draw
    assert [i.code for i in played.issues].count("FORMAT_CHANGED") == 1
    assert "FORMAT_CHANGED" in (played.out_dir / "data" / "issues.csv").read_text(encoding="utf-8-sig")
    # a night with nothing new (the event's state from the ledger's cache) still says it
    (played.out_dir / ".lastrun.json").unlink()
    kept = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert [i.code for i in kept.issues].count("FORMAT_CHANGED") == 1
    assert (kept.out_dir / "data" / "draw.csv").read_bytes() == expected_draw


def test_the_same_format_under_its_chinese_name_is_no_change(tmp_path):
    """``type: 分组积分赛`` is groups_standings under its Chinese name: no FORMAT_CHANGED."""
    from pipeline.draw import FORMATS

    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    alias = next(a for a in FORMATS.aliases("groups_standings") if not a.isascii())
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("type: groups_standings", f"type: {alias}"),
                    encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert "FORMAT_CHANGED" not in [i.code for i in again.issues]


def test_format_options_changed_after_the_draws_were_published_are_said(tmp_path):
    """The same format with another option (avoid_rematch) after round 1: published rounds
    stand, later draws take the new option, and the office is told (info) what changed."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("avoid_rematch: true", "avoid_rematch: false"),
                    encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (said,) = [i for i in again.issues if i.code == "FORMAT_CHANGED"]
    assert said.severity.value == "info" and "avoid_rematch true → false" in said.message
    assert not again.needs_attention


def test_R2016_F1_groups_edited_after_round_1_are_said_not_to_apply(tmp_path):
    """R2016-F1: the four groups are drawn with round 1.  ``groups: 4`` edited to 3 after it
    was said (info) to apply to later draws — round 2 was drawn in groups A–D all the
    same.  It is a warning that the edit does not apply, and round 2 keeps the groups."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("groups: 4,", "groups: 3,"), encoding="utf-8")
    src = Path(__file__).resolve().parents[2] / "sample_sheets" / SAMPLE / "inbox"
    shutil.copy2(src / "11260941-guandan-r1-成绩表.eml", folder / "inbox")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (said,) = [i for i in again.issues if i.code == "FORMAT_CHANGED"]
    assert said.severity.value == "warning" and "groups 4 → 3" in said.message, said
    assert "这一修改不起作用" in said.message and "之后的抽签按现在的选项进行" not in said.message
    assert again.needs_attention
    with open(out / SAMPLE / "data" / "draw.csv", encoding="utf-8") as f:
        groups = {d["group"] for d in csv.DictReader(f) if d["event"] == "guandan" and d["round"] == "2"}
    assert groups == {"A", "B", "C", "D"}, groups


def test_R2016_F3_a_group_stages_rounds_edited_after_round_1_are_said_not_to_apply(tmp_path):
    """R2016-F3: a group stage's rounds are fixed with round 1 (its plan's ``of``).  ``rounds: 3``
    edited to 1 after it was said to end the event at round 2 — and round 3 was drawn."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("rounds: 3,", "rounds: 1,"), encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (said,) = [i for i in again.issues if i.code == "FORMAT_CHANGED"]
    assert said.severity.value == "warning" and "rounds 3 → 1" in said.message and "这一修改不起作用" in said.message
    assert "结束" not in said.message, said.message


def test_R2015_F1_swiss_rounds_edited_below_the_rounds_published_is_a_warning(tmp_path):
    """R2015-F1: a Swiss ``rounds: 5`` edited to 3 after five rounds were drawn ended the
    event at round 5 with only a note that later draws take the new option.  The rounds
    published stand and the event ends with them — said as a warning naming both ways out."""
    folder = copy_sample("t2015-tcm", tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    old = "    format: {type: swiss, rounds: 5}\n"
    assert old in spec.read_text(encoding="utf-8")
    spec.write_text(spec.read_text(encoding="utf-8").replace(old, old.replace("5", "3"), 1), encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (said,) = [i for i in again.issues if i.code == "FORMAT_CHANGED"]
    assert said.severity.value == "warning", said
    assert "改为 3 轮" in said.message and "已公布了 5 轮" in said.message and "rounds: 5" in said.message, said
    assert again.needs_attention


def test_the_published_format_is_read_from_the_first_round_that_records_it():
    """Round 1 published by older code (no record), round 2 by this code: the event is
    still protected (only looking at round 1 switched the check off for good)."""
    from pipeline.model import Round
    from pipeline.run import FORMAT_KEY, published_format

    old = Round("e", "group", "分组赛第1轮", 1, ())
    new = Round("e", "group", "分组赛第2轮", 2, (), plan={FORMAT_KEY: {"type": "groups_standings",
                                                                      "options": {"groups": 4}}})
    got = published_format([old, new])
    assert got is not None and got.type == "groups_standings" and got.options == {"groups": 4}
    assert published_format([old]) is None and published_format([]) is None


@pytest.mark.parametrize("old,new,said", [
    ("deadline: 2016-11-16T17:00:00+08:00", "deadline: 2031-11-16T17:00:00+08:00", "2016-11-16 17:00 → 2031-11-16 17:00"),
    ("deadline: 2016-11-16T17:00:00+08:00", "deadline: 2016-11-01T17:00:00+08:00", "2016-11-16 17:00 → 2016-11-01 17:00"),
    ("ratio: 0.15,", "ratio: 0.05,", "比例 15% → 比例 5%"),
    ("short_warning: false}", "short_warning: true}", None),
], ids=["deadline-later", "deadline-earlier", "quota-lowered", "short-warning-only"])
def test_R2020_Q4_registration_terms_edited_after_the_draw_apply_to_no_drawn_event(tmp_path, old, new, said):
    """R2020-Q4, R2020-Q1: a drawn event keeps the deadline and quota it was drawn under.
    A deadline moved later left round 2 waiting for it without a word; one moved earlier,
    or a quota lowered, refused players already playing (LATE_SUBMISSION, QUOTA_EXCEEDED
    on forms the captains can no longer change).  Now the edit is TERMS_CHANGED (warning),
    and round 2 is drawn exactly as without it."""
    plain = _inbox_without_results(tmp_path / "plain")
    run(RunOptions(folder=plain, out_parent=tmp_path / "plain-out", now=NOW, pdf=False))
    _play_round_1(plain)
    expected = run(RunOptions(folder=plain, out_parent=tmp_path / "plain-out", now=NOW, pdf=False))

    folder = _inbox_without_results(tmp_path / "changed")
    out = tmp_path / "changed-out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count(old) == 1
    spec.write_text(text.replace(old, new), encoding="utf-8")
    _play_round_1(folder)
    played = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    notes = [i for i in played.issues if i.code == "TERMS_CHANGED"]
    if said is None:        # whether QUOTA_SHORT is warned decides no entry: no TERMS_CHANGED
        assert not notes, [i.message for i in notes]
    else:
        # (a deadline moved later would also move the published round 1's session: said apart,
        # as a second TERMS_CHANGED naming the round and its kept time — R2020-S1)
        (note,) = [i for i in notes if "比赛时间、地点" not in i.message]
        assert said in note.message and note.severity.value == "warning", note.message
    assert not {"LATE_SUBMISSION", "QUOTA_EXCEEDED"} & {i.code for i in played.issues}
    assert played.entries == expected.entries
    assert (played.out_dir / "data" / "draw.csv").read_bytes() == (expected.out_dir / "data" / "draw.csv").read_bytes()
    if said is not None:
        # said once (SAID_ONCE): the edit stays, and every later night of the season read
        # exit 1 for it; a night with other news (the same mail sent twice) lists it as a note
        shutil.copy(folder / "inbox" / "11260941-guandan-r1-成绩表.eml", folder / "inbox" / "again.eml")
        later = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
        assert not later.unchanged
        assert {i.severity.value for i in later.issues if i.code == "TERMS_CHANGED"} == {"info"}


def _published(tmp_path: Path) -> tuple[Path, Path, Path, str]:
    """t2016 with registrations only, run once (round 1 published): (folder, output parent,
    its tournament.yaml, the spec's text)."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    return folder, out, spec, spec.read_text(encoding="utf-8")


def test_a_unit_short_name_renamed_after_the_draw_keeps_the_referees_sheets(tmp_path):
    """The office renamed 会计 → 会计学院 after round 1 was drawn: the sheets print 会计2队 as
    published, and the referees wrote exactly that — every row of the unit was refused
    (RESULT_INVALID, 不是本桌选手) and the event stopped.  The round's recorded labels count."""
    folder, out, spec, text = _published(tmp_path)
    assert "short: 会计," in text
    spec.write_text(text.replace("short: 会计,", "short: 会计学院,"), encoding="utf-8")
    _play_round_1(folder)
    played = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not [i.message for i in played.issues if i.code == "RESULT_INVALID"]
    assert {r["round"] for r in _draw_rows(played.out_dir)} == {"1", "2"}


def test_an_event_renamed_after_the_draw_keeps_its_entries(tmp_path):
    """扑克牌 → 掼蛋扑克 after round 1: the forms say 扑克牌, so every entry was UNKNOWN_EVENT
    (each captain told to pick from the list) and the drawn event stopped (尚无有效报名).
    The ledger remembers the event's names (EventSpec.former_names)."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count("    name: 扑克牌\n") == 1
    spec.write_text(text.replace("    name: 扑克牌\n", "    name: 掼蛋扑克\n"), encoding="utf-8")
    _play_round_1(folder)
    played = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not {"UNKNOWN_EVENT", "BAD_VALUE", "DRAW_INPUT_CHANGED"} & {i.code for i in played.issues}, \
        [i.message for i in played.issues if i.severity.value != "info"]     # the 签到表 says 扑克牌 too
    assert played.entries == first.entries
    assert {r["round"] for r in _draw_rows(played.out_dir)} == {"1", "2"}


def test_former_names_find_the_event():
    from pipeline.newleague import build_spec
    from pipeline.spec import parse_spec

    from tests.newleague.helpers import small_answers

    raw = build_spec(small_answers(2))
    raw["events"][0]["former_names"] = ["中國象棋比賽"]
    spec = parse_spec(raw)
    assert spec.event("中国象棋比赛") is spec.events[0] and spec.event("围棋比赛") is None


def test_a_deleted_output_folder_does_not_redraw_a_round_whose_sheets_were_played(tmp_path):
    """The office deleted output/ (the ledger in it) after round 1 was played, and one unit's
    form is no longer in the inbox: a new ledger drew round 1 again from other entries,
    silently (only TEMPLATE_MISMATCH on the played sheets, as if the referees were wrong).
    Now round 1 is not drawn while the inbox holds sheets of another draw of it; with the
    same inputs the same draw is made and the sheets count."""
    folder = _inbox_without_results(tmp_path)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    _play_round_1(folder)
    # the same inputs, a new output folder: the same round 1, its sheet counts
    same = run(RunOptions(folder=folder, out_parent=tmp_path / "new-out", now=NOW, pdf=False))
    assert not {"TEMPLATE_MISMATCH", "DRAWN_ELSEWHERE"} & {i.code for i in same.issues}
    assert {r["round"] for r in _draw_rows(same.out_dir)} == {"1", "2"}
    # other inputs (a form gone), a new output folder: round 1 is not drawn again
    form = next(p for p in (folder / "inbox").iterdir() if "报名" in p.name)
    form.unlink()
    other = run(RunOptions(folder=folder, out_parent=tmp_path / "other-out", now=NOW, pdf=False))
    # its own code (the office's output folder, not the referees' sheets: TEMPLATE_MISMATCH
    # told them "不要增删列")
    assert "TEMPLATE_MISMATCH" not in {i.code for i in other.issues}
    (said,) = [i for i in other.issues if i.code == "DRAWN_ELSEWHERE"]
    assert any("DRAWN_ELSEWHERE" in s for s in other.next_steps), other.next_steps
    assert "还没有公布过" in said.message and "ledger.sqlite" in said.message and "voided_draws: [\"" in said.message
    assert not [r for r in _draw_rows(other.out_dir) if r["event"] == "guandan"]
    assert any("第1轮暂不抽签" in line for line in other.events)


def test_R2020_Q4_a_deadline_recorded_with_another_offset_is_the_same_deadline(tmp_path):
    """Round 1 records the deadline it was drawn under; a version before the spec gave every
    deadline in Beijing time recorded one written in UTC as such (…09:00:00+00:00).  The
    same moment, now given as 17:00+08:00, is no edit: no TERMS_CHANGED (the ISO texts were
    compared)."""
    import json
    import sqlite3

    from pipeline.run import TERMS_KEY

    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    ledger = first.out_dir / "ledger.sqlite"
    with sqlite3.connect(ledger) as db:
        (event, body), = db.execute("SELECT event, body FROM rounds WHERE round=1").fetchall()[:1]
        rnd = json.loads(body)
        recorded = rnd["plan"][TERMS_KEY]["deadline"]
        moment = dt.datetime.fromisoformat(recorded)
        rnd["plan"][TERMS_KEY]["deadline"] = moment.astimezone(dt.timezone.utc).isoformat()
        db.execute("UPDATE rounds SET body=? WHERE event=? AND round=1", (json.dumps(rnd, ensure_ascii=False), event))
    _play_round_1(folder)
    played = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not [i.message for i in played.issues if i.code == "TERMS_CHANGED"]


def test_a_team_withdrawn_by_its_label_before_its_unit_was_renamed_stays_withdrawn(tmp_path):
    """The office copied 会计2队 from the published round-1 draw sheet into guandan's
    ``withdrawn`` and renamed 会计 → 会计学院 the same night: the team is 会计学院2队 now, and the
    former label was WITHDRAWAL_UNMATCHED (an error) — the withdrawn team was drawn in round 2.
    Its unit's former names (UnitSpec.former_names) make the label name it, as on a 加赛 sheet."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (gone,) = [e.id for e in first.state.events["guandan"].entries if e.team == "会计2队"]
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "short: 会计," in text and "    name: 扑克牌\n" in text
    spec.write_text(text.replace("short: 会计,", "short: 会计学院,")
                    .replace("    name: 扑克牌\n", "    name: 扑克牌\n    withdrawn: [会计2队]\n"), encoding="utf-8")
    _play_round_1(folder)
    played = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not [i.message for i in played.issues if i.code == "WITHDRAWAL_UNMATCHED"]
    guandan = played.state.events["guandan"]
    assert len(guandan.rounds) == 2
    assert gone not in {s for m in guandan.rounds[1].matches for s in m.sides}
    assert any("会计学院2队" in n and "已退赛" in n for n in guandan.rounds[1].notes), guandan.rounds[1].notes


def test_R2015_A1_an_awards_sheet_naming_a_unit_by_its_former_name_keeps_the_award(tmp_path):
    """t2015's 评奖 sheet gives 组织奖 to 护理学院分工会; the office then renamed the unit
    护理学院工会 (short 护理): the row was UNKNOWN_BRANCH (an error, 评奖!A10) and the award
    dropped from the union's table.  The unit's former names find it (run.unit_names)."""
    folder = copy_sample("t2015-tcm", tmp_path)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert ("组织奖", "t07") in {(a.award, a.branch) for a in first.state.branch_awards}
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "name: 护理学院分工会, short: 护理学院," in text
    spec.write_text(text.replace("name: 护理学院分工会, short: 护理学院,", "name: 护理学院工会, short: 护理,"),
                    encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not [i.message for i in again.issues if i.code == "UNKNOWN_BRANCH"]
    assert [(a.branch, a.team) for a in again.state.branch_awards if a.award == "组织奖"] == [
        ("t01", "基础医学院分工会"), ("t07", "护理学院工会")]
    (said,) = [i for i in again.issues if i.code == "UNIT_RENAMED"]
    assert "评奖表" in said.message


def test_a_tournament_id_changed_during_the_season_is_refused(tmp_path):
    """tournament.yaml's ``id`` edited after the first night: the run made an empty ledger
    under the new id, took every form as another tournament's (TEMPLATE_MISMATCH, a refusal
    to each captain) and drew everything again.  Now: exit 2, change it back — or, for a
    new season in the same folder, move the old output folder away first."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("id: t2016-poker\n", "id: t2016-poker2\n", 1),
                    encoding="utf-8")
    with pytest.raises(SpecError) as e:
        run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert e.value.key == "id" and "改回 t2016-poker" in str(e.value), str(e.value)
    assert sorted(p.name for p in out.iterdir()) == ["t2016-poker"]
    # a new season in this folder: the old output folder moved away first
    (out / "t2016-poker").rename(tmp_path / "last-season")
    fresh = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert fresh.out_dir.name == "t2016-poker2"


def test_a_spec_saved_during_a_run_reaches_the_next_nights_outputs(tmp_path, monkeypatch):
    """tournament.yaml saved by the office while a run is going: the run's record hashed the
    file as saved (read again after intake), not the bytes its outputs were made from — every
    later night answered 输出未变 and the edit never reached the notice until new mail came."""
    import pipeline.run as prun

    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    real = prun.intake

    def saved_meanwhile(*a, **k):
        n = real(*a, **k)
        spec.write_text(text.replace("contact: 校工会办公室", "contact: 王老师"), encoding="utf-8")
        return n
    monkeypatch.setattr(prun, "intake", saved_meanwhile)
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert "王老师" not in (first.out_dir / "notice.html").read_text(encoding="utf-8")
    monkeypatch.setattr(prun, "intake", real)
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not again.unchanged
    assert "王老师" in (again.out_dir / "notice.html").read_text(encoding="utf-8")


def test_a_drawn_units_id_changed_or_the_unit_taken_out_is_refused(tmp_path):
    """A unit's id changed after its players were drawn: its played results were refused as
    the referees' mistake (RESULT_INVALID "不是本桌选手") and its players fell down the
    standings; the unit taken out of units: its players stood nameless.  Both stop the run
    (exit 2), the ledger as it was."""
    folder, out, spec, text = _published(tmp_path)
    ledger = out / "t2016-poker" / "ledger.sqlite"
    before = ledger.read_bytes()
    spec.write_text(text.replace("{id: g04, name: 经济学院分工会", "{id: g14, name: 经济学院分工会"), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert e.value.key.startswith("units[") and "改回 id: g04" in str(e.value), str(e.value)
    lines = text.splitlines(keepends=True)
    at = next(i for i, x in enumerate(lines) if "{id: g04," in x)
    end = next(i for i in range(at + 1, len(lines)) if lines[i].lstrip().startswith("- {id:"))
    spec.write_text("".join(lines[:at] + lines[end:]), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert e.value.key == "units" and "g04（经济）" in str(e.value) and "withdrawn" in str(e.value), str(e.value)
    assert ledger.read_bytes() == before
    spec.write_text(text, encoding="utf-8")      # put back: the night runs as before
    assert run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False)).out_dir.name == "t2016-poker"


def test_a_new_league_with_an_old_ones_id_does_not_run_into_its_output(tmp_path):
    """Last year's questionnaire copied for a new league (the same id, a new secret) and run
    with the same --out: it took in the old league's ledger — every received form refused,
    the old site overwritten, refusals mailed.  Now exit 2 before anything changes."""
    old = copy_sample(SAMPLE, tmp_path / "a")
    new = copy_sample(SAMPLE, tmp_path / "b")
    (new / "secret.key").write_text("0123456789abcdef0123456789abcdef\n", encoding="utf-8")
    out = tmp_path / "out"
    first = run(RunOptions(folder=old, out_parent=out, now=NOW, pdf=False))
    before = tree_hashes(first.out_dir)
    with pytest.raises(SpecError) as e:
        run(RunOptions(folder=new, out_parent=out, now=NOW, pdf=False))
    assert "属于另一项赛事" in str(e.value) and "换一个编号" in str(e.value), str(e.value)
    assert diff_trees(before, tree_hashes(first.out_dir)) == []
    # its own league runs on as before
    assert run(RunOptions(folder=old, out_parent=out, now=NOW, pdf=False)).unchanged


def test_a_drawn_events_game_changed_is_refused(tmp_path):
    """tournament.yaml's ``game`` of an event changed after its draw (跳棋 → 象棋): the played
    sheets were refused as not the form and the unchanged ones said to be corrections.  Now
    exit 2, change it back; the ledger as it was."""
    folder, out, spec, text = _published(tmp_path)
    assert "    game: guandan\n" in text
    spec.write_text(text.replace("    game: guandan\n", "    game: shuangsheng\n"), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert e.value.key == "events[0].game" and "改回 game: guandan" in str(e.value), str(e.value)
    spec.write_text(text, encoding="utf-8")
    assert run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False)).out_dir.name == "t2016-poker"


def test_another_league_in_the_same_folder_path_is_not_an_id_change(tmp_path):
    """Last season's folder path reused for another league (its own secret) beside last
    season's output under one --out: it runs (it was refused as "id 改成了 …, 请改回")."""
    folder = tmp_path / "league"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2020-league", folder,
                    ignore=shutil.ignore_patterns("inbox-mistakes"))
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    shutil.rmtree(folder)
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_sheets" / SAMPLE, folder)
    assert run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False)).out_dir.name == "t2016-poker"


def test_a_new_secret_before_anything_came_in_is_taken(tmp_path):
    """secret.key lost before any form came in: the refusal says a new one may be made
    (nothing issued under the old one counts); the run then takes it (it was refused for
    good as "another league's output folder")."""
    folder = copy_sample(SAMPLE, tmp_path)
    for p in (folder / "inbox").iterdir():
        p.unlink()
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (folder / "secret.key").write_text("fedcba9876543210fedcba9876543210\n", encoding="utf-8")
    assert run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False)).out_dir.name == "t2016-poker"


def test_a_tournament_yaml_edit_is_said_that_night_with_what_changed(tmp_path):
    """A quota or a unit's members edited in tournament.yaml: every form over the new quota
    was refused (QUOTA_EXCEEDED, to each captain) and nothing linked the refusals to the
    edit (an audit).  SPEC_EDITED says what changed, that night only; not on a first run."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert "SPEC_EDITED" not in [i.code for i in first.issues]
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "members: 100" in text
    spec.write_text(text.replace("members: 100", "members: 40", 1) + "\n# 改了人数\n", encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (said,) = [i for i in again.issues if i.code == "SPEC_EDITED"]
    assert said.severity.value == "info" and said.file == "tournament.yaml", said
    assert "members 100 → 40" in said.message and "units[" in said.message, said.message
    (folder / "inbox" / "说明.txt").write_text("not a workbook", encoding="utf-8")     # a full run, nothing edited
    later = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert not later.unchanged and "SPEC_EDITED" not in [i.code for i in later.issues]
    spec.write_text(text + "\n# 只改了注释\n", encoding="utf-8")                      # a comment: no setting changed
    back = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    assert [i.message for i in back.issues if i.code == "SPEC_EDITED"] == [
        m.replace("members 100 → 40", "members 40 → 100") for m in [said.message]], back.issues


def test_a_list_in_tournament_yaml_edited_is_said_by_the_items_taken_out_and_added(tmp_path):
    """Two sessions taken out of tournament.yaml were said as ``sessions [{"date": "2020-11-10",
    "end": "18:00:00 → [{"date": "2020-11-10", "end": "18:00:00``: each side cut at 40
    characters, the two read the same (from an audit)."""
    folder = _inbox_without_results(tmp_path)
    out = tmp_path / "out"
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    one = '  - {date: 2016-11-26, start: "08:40", end: "12:00", venue: 仙林校区教工食堂}\n'
    assert one in text
    three = one + one.replace("11-26", "11-27") + one.replace("11-26", "11-28").replace('"08:40"', '"09:30"')
    spec.write_text(text.replace(one, three), encoding="utf-8")
    run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    spec.write_text(text, encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=out, now=NOW, pdf=False))
    (said,) = [i.message for i in again.issues if i.code == "SPEC_EDITED"]
    assert "sessions：删除了 2 项（" in said and "新增了 0 项" in said, said
    assert "2016-11-27" in said and "2016-11-28" in said and "start=09:30" in said, said
    assert "2016-11-26" not in said, said        # the session kept is not named


def _reseeded(folder: Path, seed: str) -> None:
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count(f"\nseed: {SAMPLE}\n") == 1 or text.count(f"\nseed: {SAMPLE}-v2\n") == 1
    spec.write_text(text.replace(f"\nseed: {SAMPLE}-v2\n", f"\nseed: {SAMPLE}\n")
                    .replace(f"\nseed: {SAMPLE}\n", f"\nseed: {seed}\n"), encoding="utf-8")


def test_a_deleted_output_folder_and_a_changed_seed_do_not_redraw_a_played_round(tmp_path):
    """R-draw, DRAWN_ELSEWHERE: the output folder was lost and tournament.yaml's seed edited;
    the inbox holds round 1's played sheet (written by an earlier version: its _meta has the
    inputs hash only).  The same inputs gave the same hash, so round 1 was drawn again with
    other tables, silently, every row of the referees' sheet refused (RESULT_INVALID 不是本桌
    选手), and the wrong draw frozen in the new ledger (putting the seed back did nothing).
    Now the sheet's rows are held against the new draw: the round waits, nothing is
    published, and the office is told to restore the folder or put the seed back — which
    then draws the original round, the sheet counting."""
    folder = _inbox_without_results(tmp_path)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    _play_round_1(folder)
    _as_an_older_sheet(folder / "inbox" / "11260941-guandan-r1-成绩表.eml")
    _reseeded(folder, f"{SAMPLE}-v2")
    other = run(RunOptions(folder=folder, out_parent=tmp_path / "new-out", now=NOW, pdf=False))
    assert not {"RESULT_INVALID", "TEMPLATE_MISMATCH"} & {i.code for i in other.issues}, \
        [i.message for i in other.issues if i.code == "RESULT_INVALID"][:2]
    (said,) = [i for i in other.issues if i.code == "DRAWN_ELSEWHERE"]
    assert said.file == "guandan-r1-成绩表.xlsx" and said.sheet == "成绩", said
    assert "seed" in said.message and f"“{SAMPLE}-v2”" in said.message and "桌" in said.message \
        and "恢复原来的输出文件夹" in said.message and "voided_draws" not in said.message, said.message
    assert any("seed" in s and "DRAWN_ELSEWHERE" in s for s in other.next_steps), other.next_steps
    assert not [r for r in _draw_rows(other.out_dir) if r["event"] == "guandan"]
    assert any("第1轮暂不抽签" in line for line in other.events)
    # the seed put back, the same (new) output folder: the round as the referees played it
    _reseeded(folder, SAMPLE)
    back = run(RunOptions(folder=folder, out_parent=tmp_path / "new-out", now=NOW, pdf=False))
    assert not {"RESULT_INVALID", "TEMPLATE_MISMATCH", "DRAWN_ELSEWHERE"} & {i.code for i in back.issues}
    first = [r for r in _draw_rows(_only(tmp_path / "out")) if r["round"] == "1"]
    assert [r for r in _draw_rows(back.out_dir) if r["round"] == "1"] == first
    assert {r["round"] for r in _draw_rows(back.out_dir)} == {"1", "2"}


def test_a_result_sheet_records_its_pairings_and_a_redraw_unlike_them_waits(tmp_path):
    """DRAWN_ELSEWHERE from the pairings a result sheet records in its _meta (pairings): the
    round 1 sheet as issued is in the inbox, the output folder lost.  With the seed as it
    was the same draw is made and nothing is said of it; with another seed the round waits."""
    from pipeline import layout

    folder = _inbox_without_results(tmp_path)
    first = run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    sheet = first.out_dir / "results" / "guandan-r1-成绩表.xlsx"
    shutil.copy2(sheet, folder / "inbox" / "guandan-r1-成绩表.xlsx")
    same = run(RunOptions(folder=folder, out_parent=tmp_path / "same-out", now=NOW, pdf=False))
    assert "DRAWN_ELSEWHERE" not in {i.code for i in same.issues}
    assert _draw_rows(same.out_dir) == _draw_rows(first.out_dir)
    _reseeded(folder, f"{SAMPLE}-v2")
    other = run(RunOptions(folder=folder, out_parent=tmp_path / "other-out", now=NOW, pdf=False))
    (said,) = [i for i in other.issues if i.code == "DRAWN_ELSEWHERE"]
    assert "seed" in said.message and "成绩表为" not in said.message, said.message     # (its _meta said it)
    assert not [r for r in _draw_rows(other.out_dir) if r["event"] == "guandan"]
    meta = {r[0]: r[1] for r in openpyxl.load_workbook(sheet)[layout.META_SHEET].iter_rows(values_only=True)}
    assert meta.get("pairings") and len(str(meta["pairings"])) == 16, meta


def test_a_referees_swap_on_an_older_sheet_is_no_other_draw(tmp_path: Path) -> None:
    """Two teams swapped between two tables on a round-1 sheet written before sheets recorded
    their pairings, read into a new output folder (same seed, same program): the two rows are
    refused (RESULT_INVALID) and the referee's corrected sheet finishes the event — it was
    taken for another draw (DRAWN_ELSEWHERE, blaming the seed) and held the round for good,
    the corrected sheet unable to clear it (a review)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
    from mailedit import edit_attachment, table_header

    folder = copy_sample(SAMPLE, tmp_path)
    eml = folder / "inbox" / "11260941-guandan-r1-成绩表.eml"
    _as_an_older_sheet(eml)
    orig = eml.read_bytes()

    def swap(wb):
        ws = wb["成绩"]
        h, col = table_header(ws)
        c = col["乙方"]
        ws.cell(h + 1, c).value, ws.cell(h + 2, c).value = ws.cell(h + 2, c).value, ws.cell(h + 1, c).value
    edit_attachment(eml, swap)
    out = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    codes = [(i.code, i.cell) for i in first.issues if i.severity.value != "info"]
    assert not [c for c in codes if c[0] == "DRAWN_ELSEWHERE"], codes
    assert [c for c in codes if c[0] == "RESULT_INVALID"] == [("RESULT_INVALID", "E8"), ("RESULT_INVALID", "E9")], codes
    (folder / "inbox" / "11271000-guandan-r1-成绩表-改.eml").write_bytes(
        orig.replace(b"Date: ", b"Date: Sun, 27 Nov 2016 10:00:00 +0800\nX-Old-Date: ", 1))
    second = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))
    assert not second.needs_attention and any("已完成" in line for line in second.events), second.events


def test_a_referees_one_row_resend_beside_the_full_sheet_does_not_clear_another_draw(tmp_path: Path) -> None:
    """The seed changed and the output folder lost, the round's full older sheet in the inbox
    beside a referee's resend of his one table: the older sheets are judged together, and the
    round waits (DRAWN_ELSEWHERE) — a one-row sheet seating its table as drawn took the round
    for fitting, and the new draw was published over 16 refused rows (a review)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
    from mailedit import edit_attachment, table_header

    folder = _inbox_without_results(tmp_path)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    _play_round_1(folder)
    eml = folder / "inbox" / "11260941-guandan-r1-成绩表.eml"

    def one_row(wb):
        ws = wb["成绩"]
        h, _ = table_header(ws)
        ws.delete_rows(h + 2, ws.max_row - h - 1)       # the first table's row only
    edit_attachment(eml, one_row, folder / "inbox" / "11261300-guandan-r1-第1桌-改.eml",
                    date="Sat, 26 Nov 2016 13:00:00 +0800")
    _reseeded(folder, f"{SAMPLE}-v2")
    other = run(RunOptions(folder=folder, out_parent=tmp_path / "new-out", now=NOW, pdf=False))
    codes = [i.code for i in other.issues]
    assert "DRAWN_ELSEWHERE" in codes and "RESULT_INVALID" not in codes, codes
    assert not [r for r in _draw_rows(other.out_dir) if r["event"] == "guandan"]
