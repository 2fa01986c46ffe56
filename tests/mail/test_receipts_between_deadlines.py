"""Receipts between two deadlines (from an audit of mail receipts).

T2015 closes 围棋/中国象棋/桥牌 on 10-30 and 双扣 on 11-14 (R2015-Q1, R2015-Q3; each event its
own deadline, R2020-Q4).  Between the two, every receipt that says the closed events are
closed must also name the events still open and until when — the receipt of a form does
(双扣的报名如需修改，请…在 2015-11-14 23:59 前重新发送); the receipt of a mail without a
workbook and of a form resent unchanged said only that 围棋… had closed, and the captain
believed every event had.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import sys
from pathlib import Path

from pipeline.mail.receipts import build_receipts
from pipeline.spec import Tournament
from pipeline.state import BareMail, ResentForm

from .conftest import NOW, sha

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from mailedit import edit_attachment, t2015_forms  # noqa: E402

CLOSED = NOW - dt.timedelta(days=2)     # 象棋's deadline: passed
AHEAD = NOW + dt.timedelta(days=3)      # 桥牌's: still ahead


def _two_deadlines(world, policy: str = "reject"):
    """The world's state with 象棋 closed and 桥牌 still open (u1 registered both)."""
    old = world.state.tournament
    spec = old.spec
    events = [dataclasses.replace(e, deadline=CLOSED if e.id == "xiangqi" else AHEAD) for e in spec.events]
    t = Tournament(old.folder, dataclasses.replace(spec, events=events, late_policy=policy), old.secret)
    return dataclasses.replace(world.state, tournament=t)


def _still_open_said(body: str) -> bool:
    return "桥牌的报名" in body and f"在 {AHEAD:%Y-%m-%d %H:%M} 前" in body


def test_a_mail_without_a_workbook_names_the_events_still_open_and_their_deadline(world):
    world.state.bare_mails = [BareMail(sha("m"), "m.eml", NOW - dt.timedelta(hours=1), "cap1@a.example.cn",
                                       "双扣报名", ())]
    for policy in ("reject", "accept-with-warning"):
        r = {x.sha256: x for x in build_receipts(_two_deadlines(world, policy), world.out)}[sha("m")]
        assert f"象棋的报名已于 {CLOSED:%Y-%m-%d %H:%M} 截止" in r.body, r.body
        assert _still_open_said(r.body), r.body
        # the very wording of the form's receipt (one helper)
        assert f"桥牌的报名请在 {AHEAD:%Y-%m-%d %H:%M} 前发送" in r.body, r.body


def test_a_form_resent_unchanged_names_the_events_still_open_and_their_deadline(world):
    world.state.resent_forms = [ResentForm(sha("r"), "r.eml", NOW - dt.timedelta(hours=1), "cap1@a.example.cn",
                                           "u1", "邮件《r.eml》的附件《一分会报名表.xlsx》与此前收到的……没有生效。")]
    r = {x.sha256: x for x in build_receipts(_two_deadlines(world), world.out)}[sha("r")]
    assert f"象棋的报名已于 {CLOSED:%Y-%m-%d %H:%M} 截止" in r.body, r.body
    assert _still_open_said(r.body), r.body
    assert f"桥牌的报名如需修改，请在这份报名表上修改后在 {AHEAD:%Y-%m-%d %H:%M} 前重新发送" in r.body, r.body


def test_the_form_receipt_says_it_in_the_same_words(world):
    """(what the two receipts above now share with an accepted form's receipt)"""
    r = {x.sha256: x for x in build_receipts(_two_deadlines(world), world.out)}[sha("a")]
    assert f"桥牌的报名如需修改，请在这份报名表上修改后在 {AHEAD:%Y-%m-%d %H:%M} 前重新发送，以最后收到的一份为准。" in r.body


def test_once_every_event_has_closed_no_event_is_said_open(world):
    world.state.bare_mails = [BareMail(sha("m"), "m.eml", NOW - dt.timedelta(hours=1), "cap1@a.example.cn", "报名", ())]
    old = world.state.tournament
    t = Tournament(old.folder, dataclasses.replace(
        old.spec, events=[dataclasses.replace(e, deadline=CLOSED) for e in old.spec.events]), old.secret)
    r = {x.sha256: x for x in build_receipts(dataclasses.replace(world.state, tournament=t), world.out)}[sha("m")]
    assert "截止" in r.body and "的报名请在" not in r.body and "前发送" not in r.body


# -- a form whose only problem is a late change to a closed event ---------------------------------

def _t2015_with_late_change(tmp_path, edit) -> tuple[object, object]:
    """T2015's registration mails, and 机关分工会 (t05) sending its form again on 11-12 (围棋 closed
    10-30, 双扣 open until 11-14) edited by ``edit(ws)``; the night of 11-13.  (report, that receipt)"""
    from pipeline.run import RunOptions, run
    from pipeline.timeutil import TZ

    folder = t2015_forms(tmp_path)
    edit_attachment(folder / "inbox" / "1027-t05-报名表.eml", lambda wb: edit(wb["报名表"]),
                    save_as=folder / "inbox" / "1112-t05-修改.eml", date="Thu, 12 Nov 2015 09:30:00 +0800")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2015, 11, 13, 1, 30, tzinfo=TZ)))
    new = max((s for s in report.state.submissions if s.branch == "t05"), key=lambda s: s.received)
    assert new.status in ("current", "accepted"), new
    (r,) = [r for r in build_receipts(report.state, report.out_dir) if r.sha256 == new.sha256]
    return report, r


def test_a_late_change_to_a_closed_event_is_not_a_problem_to_fix_by_editing(tmp_path):
    """R2020-Q4 per event (late_policy: reject): t05 changes its 围棋 player (closed) and a 双扣
    pair member (open).  The 双扣 change is taken; the 围棋 change cannot be, whatever the
    captain edits — the receipt said 需修改（1 个问题） … 可直接在上面修改后发回."""
    def change(ws):
        ws["D10"], ws["E10"] = "王小明", "002999"      # 围棋 (closed 10-30)
        ws["D20"], ws["E20"] = "张伟", "002998"        # 双扣 (open until 11-14)

    report, r = _t2015_with_late_change(tmp_path, change)
    late = [i for i in report.state.issues if i.code == "LATE_SUBMISSION" and i.branch == "t05"
            and str(i.severity) == "error"]
    assert late and report.needs_attention   # a change refused: exit 1 (contract.md)
    assert "需修改" not in r.subject and "個問題" not in r.subject, r.subject
    assert "已接受" in r.subject and "圍棋" in r.subject and "逾期" in r.subject, r.subject
    for said in ("修改後發回", "逐條修改後重新發送"):
        assert said not in r.body, (said, r.body)
    assert "表上怎麼改都不會生效" in r.body and "不處理也可以" in r.body, r.body
    assert "梁平" in r.body and "恢復為原來登記的內容（梁平）" in r.body, r.body     # the player registered in time
    assert "雙扣的報名如需修改，請在這份報名表上修改後在 2015-11-14 23:59 前重新發送" in r.body, r.body
    assert "报名表!B10：报名表!B10" not in r.body and "B10" in r.body                 # its cell said once (tab as named)
    # the unit's page says the same (it said 请修改下列 1 处错误后重新发送报名表)
    from pipeline.render import site_vm

    steps = " ".join(site_vm.branch_vm(report.state, "t05").next_steps)
    assert "请修改下列" not in steps and "修改报名表不能使其生效" in steps and "不处理也可以" in steps, steps
    # the 双扣 change was taken
    assert any(p.name in ("张伟", "張偉") for e in report.state.entries if e.branch == "t05" and e.event == "shuangkou"
               for p in e.players)
