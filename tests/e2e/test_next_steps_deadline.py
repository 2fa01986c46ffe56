"""The office's next step for registration forms with errors (工会办公室下一步) follows the
deadline: "把 returned/ 中标注了问题的报名表退回各单位修改" only while the captains can still
correct their forms.  After the deadline it said so too, while the receipts told the captains
they could no longer correct by mail and the rows marked as errors were silently left out of
the draw (R2020-Q4; handbook: TERMS_CHANGED, 回执)."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment
from pipeline.run import RunOptions, run
from pipeline.spec import load_tournament
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def _t2016_with_a_nameless_row(tmp_path: Path) -> Path:
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))

    def nameless(wb):
        ws = wb["报名表"]
        assert ws["D8"].value == "陶健军"
        ws["D8"].value = None           # 姓名未填写: an error, the row not entered
    edit_attachment(folder / "inbox" / "1111-g04-报名表.eml", nameless)
    return folder


def _form_steps(report) -> list[str]:
    return [s for s in report.next_steps if "returned/" in s]


def test_before_the_deadline_the_marked_forms_go_back_to_be_corrected(tmp_path: Path) -> None:
    folder = _t2016_with_a_nameless_row(tmp_path)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2016, 11, 15, 10, 0, tzinfo=TZ)))
    assert _form_steps(report) == ["把 returned/ 中标注了问题的报名表退回各单位修改（或发送回执）。"]


def test_R2020_Q4_after_the_deadline_the_step_says_the_marked_rows_were_not_entered(tmp_path: Path) -> None:
    folder = _t2016_with_a_nameless_row(tmp_path)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2016, 11, 17, 10, 0, tzinfo=TZ)))     # closed 11-16 17:00, not drawn
    (step,) = _form_steps(report)
    assert "退回各单位修改" not in step, step
    assert "报名已全部截止" in step and "没有录入" in step
    assert "尚未抽签的项目（扑克牌）" in step and "deadline" in step


def test_with_one_event_still_open_the_step_names_it(tmp_path: Path) -> None:
    """T2015: 围棋, 中国象棋 and 桥牌 close on 10-30, 双扣 on 11-14."""
    from pipeline.run import returned_forms_step

    t = load_tournament(ROOT / "sample_sheets" / "t2015-tcm", cache_parent=tmp_path)
    step = returned_forms_step(t.spec.events, {}, dt.datetime(2015, 11, 2, 9, 0, tzinfo=TZ))
    assert step.startswith("把 returned/ 中标注了问题的报名表退回各单位修改")
    assert "还能修改的项目只有双扣（报名截止 2015年11月14日 23:59）" in step
    assert "围棋、中国象棋、桥牌的报名已截止" in step and "没有录入" in step
    late = returned_forms_step(t.spec.events, {}, dt.datetime(2015, 11, 20, 9, 0, tzinfo=TZ))
    assert late.startswith("报名已全部截止") and "退回各单位修改" not in late


def test_an_event_without_a_deadline_is_open_as_the_receipts_say(tmp_path: Path) -> None:
    """``deadline`` is optional: such an event is open (the receipts tell the captain to correct
    and resend, and the corrected form is taken) — the step said 报名已全部截止 (a review)."""
    import dataclasses

    from pipeline.run import returned_forms_step

    t = load_tournament(ROOT / "sample_sheets" / "t2015-tcm", cache_parent=tmp_path)
    events = [dataclasses.replace(ev, deadline=None) if ev.id == "shuangkou" else ev for ev in t.spec.events]
    late = returned_forms_step(events, {}, dt.datetime(2015, 11, 20, 9, 0, tzinfo=TZ))
    assert "退回各单位修改" in late and "还能修改的项目只有双扣。" in late, late
    assert returned_forms_step([dataclasses.replace(ev, deadline=None) for ev in events], {},
                               dt.datetime(2015, 11, 20, 9, 0, tzinfo=TZ)) == \
        "把 returned/ 中标注了问题的报名表退回各单位修改（或发送回执）。"


def test_R2020_Q4_after_the_deadline_the_units_status_does_not_say_to_be_fixed(tmp_path: Path) -> None:
    """The status of a unit whose form has errors said 有 1 处错误待改 on the index and the
    unit's page after the deadline too, right beside 报名已于…截止，重新发送的报名表不再受理
    (an audit of the site): once every event's registration has closed (late_policy: reject)
    it says what it is — the rows marked as errors were not entered."""
    from pipeline.render import site_vm

    folder = _t2016_with_a_nameless_row(tmp_path)
    before = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2016, 11, 15, 10, 0, tzinfo=TZ)))
    assert site_vm.branch_vm(before.state, "g04").summary.state == "有 1 处错误待改"
    after = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                           now=dt.datetime(2016, 11, 17, 10, 0, tzinfo=TZ)))     # closed 11-16 17:00
    page = site_vm.branch_vm(after.state, "g04")
    assert page.summary.state == "有 1 处错误，报名已截止，未录入", page.summary
    assert page.summary.state_class == "bad" and any("不再受理" in s for s in page.next_steps)
    (row,) = [r for r in site_vm.index_vm(after.state).branches if r.id == "g04"]
    assert row.state == page.summary.state
    html = (after.out_dir / "index.html").read_text(encoding="utf-8")
    assert "待改" not in html and "有 1 处错误，报名已截止，未录入" in html


def test_while_one_event_is_open_the_errors_are_still_to_be_fixed(tmp_path: Path) -> None:
    """T2015: 围棋, 中国象棋 and 桥牌 close on 10-30, 双扣 on 11-14 — the form can still be
    corrected for 双扣 (R2020-Q4 per event), so the status says 待改 until 11-14."""
    from pipeline.issues import Issue
    from pipeline.model import Severity
    from pipeline.render import site_vm
    from pipeline.state import Submission

    t = load_tournament(ROOT / "sample_sheets" / "t2015-tcm", cache_parent=tmp_path)
    err = Issue(code="MISSING_VALUE", severity=Severity.ERROR, branch="b01", file="f.xlsx", sheet="报名表",
                cell="D8", message="姓名未填写")
    for now, closed in ((dt.datetime(2015, 11, 2, 9, 0, tzinfo=TZ), False),
                        (dt.datetime(2015, 11, 20, 9, 0, tzinfo=TZ), True)):
        assert site_vm.registration_closed(t.spec, now) is closed
        sub = Submission(sha256="ab" * 32, file="f.xlsx", branch="b01", received=now, status="accepted")
        said = site_vm._branch_row("b01", "", [sub], [err], 0, "", closed=closed).state
        assert said == ("有 1 处错误，报名已截止，未录入" if closed else "有 1 处错误待改"), said


def _accept_late(folder: Path) -> None:
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "late_policy: reject" in text
    spec.write_text(text.replace("late_policy: reject", "late_policy: accept-with-warning"), encoding="utf-8")


def test_R2020_Q4_accept_with_warning_the_step_says_resent_forms_still_count_for_undrawn_events(tmp_path: Path) -> None:
    """Under ``late_policy: accept-with-warning`` a corrected form resent after the last
    deadline is taken for an event not drawn yet (LATE_SUBMISSION, a warning), as the
    receipts tell the captains (重新发送的报名表将被标为逾期报名) — the step said 不再退回修改、
    回执已告知各单位不能再通过邮件更正, and told the office to move the deadline (an audit)."""
    folder = _t2016_with_a_nameless_row(tmp_path)
    _accept_late(folder)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2016, 11, 17, 10, 0, tzinfo=TZ)))     # closed 11-16 17:00, not drawn
    (step,) = _form_steps(report)
    assert "不再退回修改" not in step and "不能再通过邮件更正" not in step and "deadline" not in step, step
    assert step.startswith("把 returned/ 中标注了问题的报名表退回各单位修改"), step
    assert "扑克牌" in step and "逾期" in step and "LATE_SUBMISSION" in step, step


def test_R2020_Q4_accept_with_warning_the_step_per_event(tmp_path: Path) -> None:
    """T2015 (围棋, 中国象棋, 桥牌 close on 10-30, 双扣 on 11-14) under accept-with-warning:
    a closed event not drawn yet still takes a corrected form (marked late), a drawn one does
    not; with every event drawn nothing is taken, and the receipts' 不能再通过邮件更正 (said
    only under reject) is not claimed.  The default policy's words are unchanged."""
    from types import SimpleNamespace

    from pipeline.run import returned_forms_step

    t = load_tournament(ROOT / "sample_sheets" / "t2015-tcm", cache_parent=tmp_path)
    evs = t.spec.events
    drawn = {"go": SimpleNamespace(rounds=[object()]), "xiangqi": SimpleNamespace(rounds=[object()])}
    nov2, nov20 = dt.datetime(2015, 11, 2, 9, 0, tzinfo=TZ), dt.datetime(2015, 11, 20, 9, 0, tzinfo=TZ)
    step = returned_forms_step(evs, drawn, nov2, "accept-with-warning")
    assert step.startswith("把 returned/ 中标注了问题的报名表退回各单位修改"), step
    assert "双扣（报名截止 2015年11月14日 23:59）" in step and "桥牌" in step and "逾期" in step, step
    assert "已抽签的项目（围棋、中国象棋）" in step and "不能再通过重发报名表更正" in step, step
    late = returned_forms_step(evs, drawn, nov20, "accept-with-warning")
    assert late.startswith("把 returned/ 中标注了问题的报名表退回各单位修改") and "deadline" not in late, late
    assert "尚未抽签的项目（桥牌、双扣）" in late and "LATE_SUBMISSION" in late and "已抽签的项目（围棋、中国象棋）" in late, late
    every = {ev.id: SimpleNamespace(rounds=[object()]) for ev in evs}
    done = returned_forms_step(evs, every, nov20, "accept-with-warning")
    assert "各项目均已抽签" in done and "退回各单位修改" not in done and "不能再通过邮件更正" not in done, done
    # the default policy: as before
    assert returned_forms_step(evs, drawn, nov20) == returned_forms_step(evs, drawn, nov20, "reject")
    assert "回执已告知各单位不能再通过邮件更正" in returned_forms_step(evs, drawn, nov20)
    assert "不能再通过重发报名表更正" in returned_forms_step(evs, drawn, nov2)
