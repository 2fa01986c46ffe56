"""R2020-Q4, R2020-Q1, R2016-Q1 once registration has closed: the terms the entries were
accepted under (deadline, quota, the units' member counts) are kept from the first run that
sees the deadline passed, not only from the draw.  (The audit's case, t2016 whose check-in
draw leaves a 10-day gap after the deadline: the deadline moved 11-16 → 11-12 on 11-21
refused six forms accepted in time — LATE_SUBMISSION "已过全部项目的报名截止时间" and
"尚未收到报名表" about them —, and g11's members 100 → 40 refused all its pairs with
QUOTA_EXCEEDED "请删去多余的报名", which no captain could do any more.)  Now such an edit is
TERMS_CHANGED and the accepted entries keep the earlier terms; a deadline moved later (the
office reopening registration) takes effect; a run before the deadline applies every edit."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ
from test_terms_members import _edit

ROOT = Path(__file__).resolve().parents[2]
CLOSED = dt.datetime(2016, 11, 20, 12, 0, tzinfo=TZ)      # after the 11-16 17:00 deadline, before draw_at
LATER = dt.datetime(2016, 11, 21, 12, 0, tzinfo=TZ)
DEADLINE = "deadline: 2016-11-16T17:00:00+08:00"


def _forms_only(tmp_path: Path) -> Path:
    """t2016 with only its registration mails (111*) in the inbox."""
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    for p in (folder / "inbox").iterdir():
        if not p.name.startswith("111"):
            p.unlink()
    return folder


def _run(folder: Path, out: Path, now: dt.datetime):
    return run(RunOptions(folder=folder, out_parent=out, now=now, pdf=False))


def test_R2020_Q4_a_deadline_moved_earlier_after_it_passed_refuses_no_accepted_form(tmp_path):
    folder, out = _forms_only(tmp_path), tmp_path / "out"
    first = _run(folder, out, CLOSED)
    assert first.entries == 34 and not first.needs_attention
    _edit(folder, DEADLINE, "deadline: 2016-11-12T17:00:00+08:00")
    again = _run(folder, out, LATER)
    codes = [i.code for i in again.issues]
    assert "LATE_SUBMISSION" not in codes, [i.message for i in again.issues if i.code == "LATE_SUBMISSION"]
    assert again.entries == first.entries
    assert not any(s.startswith("尚未收到报名表") for s in again.next_steps), again.next_steps
    (note,) = [i for i in again.issues if i.code == "TERMS_CHANGED"]
    assert note.severity.value == "warning" and again.needs_attention
    assert "报名截止时间（deadline）2016-11-16 17:00 → 2016-11-12 17:00" in note.message, note.message
    assert "已受理的报名" in note.message and "仍按" in note.message, note.message
    # said once: the next night it is a note
    third = _run(folder, out, LATER + dt.timedelta(days=1))
    assert [i.severity.value for i in third.issues if i.code == "TERMS_CHANGED"] == ["info"]
    assert third.entries == first.entries and not third.needs_attention


def _tightened_after_the_deadline(tmp_path, old: str, new: str):
    """The forms accepted at the deadline, then tournament.yaml's ``old`` edited to ``new``
    and run again: (folder, out, first run, second run, its one TERMS_CHANGED) — the edit not
    applied (no QUOTA_EXCEEDED, the same entries)."""
    folder, out = _forms_only(tmp_path), tmp_path / "out"
    first = _run(folder, out, CLOSED)
    _edit(folder, old, new)
    again = _run(folder, out, LATER)
    assert "QUOTA_EXCEEDED" not in [i.code for i in again.issues]
    assert again.entries == first.entries
    (note,) = [i for i in again.issues if i.code == "TERMS_CHANGED"]
    return folder, out, first, again, note


def test_R2016_Q1_members_lowered_after_the_deadline_keep_the_accepted_pairs_through_the_draw(tmp_path):
    folder, out, first, again, note = _tightened_after_the_deadline(
        tmp_path, "captain: 褚志强, members: 100", "captain: 褚志强, members: 40")
    assert len([e for e in first.state.entries if e.branch == "g11"]) > 2
    assert "后勤服务分工会（g11）的会员人数（members）100 → 40" in note.message, note.message
    # the check-in, the draw and the results: the pairs drawn are the accepted ones, and
    # the draw keeps the counts they were accepted under (no QUOTA_EXCEEDED after it either)
    for p in (ROOT / "sample_sheets" / "t2016-poker" / "inbox").iterdir():
        shutil.copy2(p, folder / "inbox" / p.name)
    done = _run(folder, out, dt.datetime(2030, 1, 1, tzinfo=TZ))
    assert "QUOTA_EXCEEDED" not in [i.code for i in done.issues]
    assert {e.id for e in done.state.entries} == {e.id for e in first.state.entries}
    assert (done.out_dir / "data" / "awards.csv").read_text(encoding="utf-8").count("\n") == 9     # 8 awards
    # the night after: round 1 holds the terms it was drawn under — the closed ones
    after = _run(folder, out, dt.datetime(2030, 1, 2, tzinfo=TZ))
    assert not {"QUOTA_EXCEEDED", "DRAW_INPUT_CHANGED", "PLACES_CHANGED"} & {i.code for i in after.issues}
    assert {e.id for e in after.state.entries} == {e.id for e in first.state.entries}


def test_R2016_Q1_a_quota_lowered_after_the_deadline_is_not_applied(tmp_path):
    *_, note = _tightened_after_the_deadline(tmp_path, "ratio: 0.15,", "ratio: 0.05,")
    assert "名额（quota）" in note.message, note.message


def test_R2020_Q4_a_deadline_moved_later_reopens_registration(tmp_path):
    """The office moving the deadline later after it passed means to take a late form: it
    takes effect (no TERMS_CHANGED), the late form is in time, the others stay accepted."""
    folder, out = _forms_only(tmp_path), tmp_path / "out"
    late = folder / "inbox" / "1118-g12-报名表.eml"
    (folder / "inbox" / "1112-g12-报名表.eml").rename(late)
    edit_attachment(late, lambda wb: None, date="Fri, 18 Nov 2016 09:00:00 +0800")
    first = _run(folder, out, CLOSED)
    assert {i.branch for i in first.issues if i.code == "LATE_SUBMISSION"} == {"g12"}
    _edit(folder, DEADLINE, "deadline: 2016-11-18T17:00:00+08:00")
    again = _run(folder, out, LATER)
    codes = [i.code for i in again.issues]
    assert "LATE_SUBMISSION" not in codes and "TERMS_CHANGED" not in codes, \
        [i.message for i in again.issues if i.severity.value != "info"]
    assert {e.branch for e in again.state.entries} == {e.branch for e in first.state.entries} | {"g12"}
    assert {e.id for e in first.state.entries} <= {e.id for e in again.state.entries}
    # moved later and still ahead: registration is open again, and every edit applies
    _edit(folder, "deadline: 2016-11-18T17:00:00+08:00", "deadline: 2016-11-25T17:00:00+08:00")
    _edit(folder, "captain: 褚志强, members: 100", "captain: 褚志强, members: 40")
    reopened = _run(folder, out, LATER + dt.timedelta(days=1))
    codes = [i.code for i in reopened.issues]
    assert "QUOTA_EXCEEDED" in codes and "TERMS_CHANGED" not in codes


def test_R2020_Q4_the_office_is_not_told_to_chase_a_form_that_could_no_longer_count(tmp_path):
    """体育部 sent nothing.  Before the deadline the office's next steps say 尚未收到报名表：体育部分工会;
    after it, under ``late_policy: reject``, a form would be refused as late: the step went on
    every night (an audit's league: every event finished, the only next step).  Under
    ``accept-with-warning`` a late form is taken (marked late) while an event is not drawn:
    the step stays until then (the unit's page asks for the form as long, site_vm.next_steps)."""
    folder, out = _forms_only(tmp_path), tmp_path / "out"
    (folder / "inbox" / "1112-g12-报名表.eml").unlink()
    missing = "尚未收到报名表：体育部分工会"
    before = _run(folder, out, dt.datetime(2016, 11, 14, 12, 0, tzinfo=TZ))
    assert missing in before.next_steps, before.next_steps
    closed = _run(folder, out, CLOSED)
    assert not any(s.startswith("尚未收到报名表") for s in closed.next_steps), closed.next_steps
    _edit(folder, "late_policy: reject", "late_policy: accept-with-warning")
    taken_late = _run(folder, out, LATER)
    assert missing in taken_late.next_steps, taken_late.next_steps


def test_R2020_Q4_an_event_without_a_deadline_closes_with_its_draw(tmp_path):
    """An event without ``deadline`` is open and not drawn (DEADLINE_MISSING: not even at its
    ``draw_at`` with the check-in in); once drawn (its deadline deleted after the draw) it is
    closed: a form sent after its round 1 enters no round.  The office's next steps and the
    unit's page asked for 体育部's missing form every night after the draw (forms_still_count
    and site_vm.registration_closed counted such an event open for good, from a review)."""
    from pipeline.render import site_vm

    folder, out = _forms_only(tmp_path), tmp_path / "out"
    (folder / "inbox" / "1112-g12-报名表.eml").unlink()
    _edit(folder, DEADLINE + "\n", "")
    missing = "尚未收到报名表：体育部分工会"
    before = _run(folder, out, dt.datetime(2016, 11, 14, 12, 0, tzinfo=TZ))        # not drawn: open
    assert missing in before.next_steps, before.next_steps
    assert not site_vm.registration_closed(before.state.tournament.spec, before.state.now, before.state.events)
    shutil.copy2(ROOT / "sample_sheets" / "t2016-poker" / "inbox" / "11260820-签到表.eml", folder / "inbox")
    waits = _run(folder, out, dt.datetime(2016, 11, 26, 8, 40, tzinfo=TZ))          # no deadline: no draw
    assert not waits.state.events["guandan"].rounds
    assert [i.code for i in waits.issues if i.code == "DEADLINE_MISSING"] == ["DEADLINE_MISSING"]
    assert missing in waits.next_steps, waits.next_steps
    _edit(folder, "    draw_at:", f"    {DEADLINE}\n    draw_at:")
    drawn = _run(folder, out, dt.datetime(2016, 11, 26, 8, 45, tzinfo=TZ))          # round 1 drawn at the check-in
    assert drawn.state.events["guandan"].rounds
    _edit(folder, f"    {DEADLINE}\n", "")                                         # deleted after the draw
    after = _run(folder, out, dt.datetime(2016, 11, 26, 9, 0, tzinfo=TZ))
    assert after.state.events["guandan"].rounds
    assert "DEADLINE_MISSING" not in [i.code for i in after.issues]
    assert not any(s.startswith("尚未收到报名表") for s in after.next_steps), after.next_steps
    assert site_vm.registration_closed(after.state.tournament.spec, after.state.now, after.state.events)
    page = (out / "t2016-poker" / "branches" / "g12.html").read_text(encoding="utf-8")
    assert "尚未收到本分工会的报名表" not in page and "报名已截止" in page


def test_R2020_Q4_after_the_draw_of_an_event_without_a_deadline_a_resend_is_not_said_refused(tmp_path):
    """An event without ``deadline`` takes a resent form on time even after its draw (run.py's
    lateness goes by deadlines).  Once such an event counted closed with its draw, a unit with
    an error read 重新发送的报名表不再受理 on its page while the office was told to return the
    marked form, and the resend was taken (from a review): the page follows the intake.
    (Drawn under its deadline, deleted after the draw: an event without one is not drawn,
    DEADLINE_MISSING.)"""
    folder, out = _forms_only(tmp_path), tmp_path / "out"

    def nameless_row(wb):
        ws = wb["报名表"]
        hdr = next(r for r in range(1, 30) if any(c.value == "姓名" for c in ws[r]))
        cols = {c.value: c.column for c in ws[hdr] if c.value}
        last = max(r for r in range(hdr + 1, hdr + 40) if ws.cell(r, cols["姓名"]).value)
        ws.cell(last + 1, cols["项目"]).value = ws.cell(last, cols["项目"]).value
        ws.cell(last + 1, cols["工号"]).value = "009999"
    edit_attachment(folder / "inbox" / "1112-g01-报名表.eml", nameless_row)
    _run(folder, out, dt.datetime(2016, 11, 14, 12, 0, tzinfo=TZ))
    shutil.copy2(ROOT / "sample_sheets" / "t2016-poker" / "inbox" / "11260820-签到表.eml", folder / "inbox")
    assert _run(folder, out, dt.datetime(2016, 11, 26, 8, 40, tzinfo=TZ)).state.events["guandan"].rounds
    _edit(folder, DEADLINE + "\n", "")
    drawn = _run(folder, out, dt.datetime(2016, 11, 26, 9, 0, tzinfo=TZ))
    assert drawn.state.events["guandan"].rounds
    assert [i.code for i in drawn.issues if i.branch == "g01" and i.severity.value == "error"]
    page = (out / "t2016-poker" / "branches" / "g01.html").read_text(encoding="utf-8")
    assert "不再受理" not in page and "待改" in page
