"""What a receipt tells a captain must be true and must work (audit of the sample mistakes).

- A file refused outright — not the unit's own issued form (WRONG_BRANCH, another
  tournament's form: TEMPLATE_MISMATCH), or late under ``late_policy: reject`` — is not
  answered with 请逐条修改后重新发送 / 可直接在上面修改后发回: editing that copy can never make
  it acceptable.  It says what works: the form the office issued to this unit, and, for a
  late file, that the deadline has passed and which entries stay registered.
- A WRONG_BRANCH form mailed from another unit's registered address is that unit's: its
  receipt greets the unit it is sent to, and the error is on the sender's page, not on the
  page of the unit the form claims (whose own form was accepted).
- A receipt gives the deadline of the events in the unit's form while it is ahead, and says
  when it has passed that corrections can no longer be accepted by mail.
- A Traditional league's (T2015) receipts are in Traditional, names and file names kept.

The sample mistakes are run as tests/badinput/test_mistakes.py runs them (the registration
mails of ``inbox/`` and every mail of ``inbox-mistakes/``), at a chosen night.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import sys
import re
from pathlib import Path

import pytest

from pipeline.mail.receipts import build_receipts
from pipeline.render import site_vm
from pipeline.run import RunOptions, run
from pipeline.spec import Tournament
from pipeline.timeutil import TZ

from .conftest import NOW, sha

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from mailedit import t2015_forms  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sheets"
#: edit invitations that cannot work for a file refused outright, or after the deadline
EDIT_AND_RESEND = ("逐条修改后重新发送", "修改后发回", "修改后重新发送")


def _night(tid: str, tmp: Path, now: dt.datetime):
    """The sample's night with every mistake mail; its receipts by the file they answer."""
    from badinput.test_mistakes import run_with_mistakes

    report, _ = run_with_mistakes(tid, tmp, now)
    receipts = build_receipts(report.state, report.out_dir)
    by_file = {}
    for s in report.state.submissions:
        r = next((r for r in receipts if r.sha256 == s.sha256), None)
        if r is not None:
            by_file[s.file] = r
    return report, by_file


def _one(by_file: dict, part: str):
    (r,) = [r for f, r in by_file.items() if part in f]
    return r


@pytest.fixture(scope="module")
def before_2020(tmp_path_factory):
    """T2020 on 11-08 20:00: the deadline (11-09 15:00) is ahead."""
    return _night("t2020-league", tmp_path_factory.mktemp("before"), dt.datetime(2020, 11, 8, 20, 0, tzinfo=TZ))


@pytest.fixture(scope="module")
def after_2020(tmp_path_factory):
    """T2020 on 11-10 20:00: the deadline has passed (late_policy: reject)."""
    return _night("t2020-league", tmp_path_factory.mktemp("after"), dt.datetime(2020, 11, 10, 20, 0, tzinfo=TZ))


# -- 1. a file refused outright ----------------------------------------------------------------

@pytest.mark.parametrize("part", ["wrong-branch", "other-template"])
def test_a_form_that_is_not_the_units_own_is_not_answered_with_edit_and_resend(before_2020, part):
    _, by_file = before_2020
    r = _one(by_file, part)
    assert r.kind == "needs_change"
    for said in EDIT_AND_RESEND:
        assert said not in r.body, (said, r.body)
    assert "组委会下发给" in r.body and "报名表" in r.body          # the unit's own issued form
    assert "索取" in r.body or "联系" in r.body                      # … or ask the office for it
    assert "工会办公室 成洁（钉钉）" in r.body                           # the office's contact
    assert "未被受理" in r.body or "不能受理" in r.body or "无法受理" in r.body


def test_a_late_file_says_the_deadline_passed_and_what_stays_registered(before_2020):
    _, by_file = before_2020
    r = _one(by_file, "（late）")
    assert r.kind == "needs_change"
    for said in EDIT_AND_RESEND:
        assert said not in r.body, (said, r.body)
    assert "2020-11-09 15:00" in r.body and "截止" in r.body
    assert "未被受理" in r.body or "不予受理" in r.body
    # b09's entries in force (its form sent in time), as an accepted receipt lists them
    assert "象棋（2 人）：袁浩、魏玉红" in r.body and "合计 8 项报名，10 人。" in r.body
    assert "工会办公室 成洁（钉钉）" in r.body
    assert r.to == ("zngcxyfgh@union.example.edu.cn",)
    assert r.attachment is None or "发回" not in r.body


# -- 2. a WRONG_BRANCH form belongs to the unit that sent it -------------------------------------

def test_a_wrong_branch_form_is_the_senders_units_receipt_issue_and_page(before_2020):
    report, by_file = before_2020
    r = _one(by_file, "wrong-branch")
    assert r.to == ("ggtybfgh@union.example.edu.cn",)              # b10's registered address
    assert r.body.startswith("公共体育部分工会：") and "【报名回执】公共体育部分工会：" in r.subject
    wrong = [i for i in report.state.issues if i.code == "WRONG_BRANCH"]
    assert [i.branch for i in wrong] == ["b10"]
    sub = next(s for s in report.state.submissions if "wrong-branch" in s.file)
    assert sub.branch == "b10" and sub.status == "rejected"
    b10 = site_vm.branch_vm(report.state, "b10")
    assert sub.file in {s.file for s in b10.submissions}
    assert ("WRONG_BRANCH", sub.file) in {(i.code, i.file) for i in b10.issues}
    b11 = site_vm.branch_vm(report.state, "b11")
    assert sub.file not in {s.file for s in b11.submissions}
    assert not [i for i in b11.issues if i.file == sub.file and i.severity_class != "info"]
    # b10's and b11's own forms still count
    assert {"b10", "b11"} <= set(report.accepted_branches)


def test_a_receipt_of_an_unproven_form_greets_the_unit_it_is_sent_to(world):
    """Defence in depth: a rejected form whose submission still names the claimed unit, mailed
    by another unit's registered address, is answered to that address — in that unit's name."""
    forged = dataclasses.replace(world.state.submissions[2], sender="cap2@b.example.cn")   # claims u1
    world.state.submissions = [forged]
    [r] = build_receipts(world.state, world.out)
    assert r.to == ("cap2@b.example.cn",)
    assert r.body.startswith("行政第二分工会：") and "行政第一分工会：" not in r.subject


# -- 3. the deadline -----------------------------------------------------------------------------

def test_a_needs_change_receipt_gives_the_deadline_ahead(before_2020):
    _, by_file = before_2020
    r = _one(by_file, "missing-name")
    assert "请在 2020-11-09 15:00 前" in r.body, r.body
    ok = _one(by_file, "机电工程学院分工会-报名表.xlsx")
    assert ok.kind == "accepted" and "2020-11-09 15:00 前" in ok.body


def test_after_the_deadline_no_receipt_invites_a_resend_that_would_be_refused(after_2020):
    _, by_file = after_2020
    r = _one(by_file, "missing-name")
    assert r.kind == "needs_change"
    for said in EDIT_AND_RESEND:
        assert said not in r.body, (said, r.body)
    assert "2020-11-09 15:00" in r.body and "截止" in r.body
    assert "不能再通过邮件" in r.body and "工会办公室 成洁（钉钉）" in r.body
    ok = _one(by_file, "机电工程学院分工会-报名表.xlsx")
    assert ok.kind == "accepted"
    assert "如需修改，请在这份报名表上修改后重新发送" not in ok.body and "截止" in ok.body


def test_accept_with_warning_says_a_resend_will_be_marked_late(world):
    passed = NOW - dt.timedelta(days=1)
    state = _with_deadline(world, passed, "accept-with-warning")
    r = {x.sha256: x for x in build_receipts(state, world.out)}[sha("b")]
    assert "逾期" in r.body and f"{passed:%Y-%m-%d %H:%M}" in r.body
    assert "请逐条修改后重新发送" not in r.body


def test_events_deadlines_are_the_forms_own(tmp_path):
    """T2015: 围棋/中国象棋/桥牌 close 10-30, 双扣 11-14.  On 11-01 a form with rows of both
    says the closed events can no longer be changed and gives 双扣's deadline ahead."""
    _, by_file = _night("t2015-tcm", tmp_path, dt.datetime(2015, 11, 1, 20, 0, tzinfo=TZ))
    r = _one(by_file, "bad-phone")
    assert "2015-11-14 23:59 前" in r.body, r.body
    assert "2015-10-30 23:59" in r.body and "截止" in r.body


def _with_deadline(world, when: dt.datetime, policy: str = "reject"):
    spec = world.state.tournament.spec
    old = world.state.tournament
    t = Tournament(old.folder, dataclasses.replace(spec, events=[dataclasses.replace(e, deadline=when) for e in spec.events],
                                                   late_policy=policy), old.secret)
    return dataclasses.replace(world.state, tournament=t)


def test_a_mail_without_a_workbook_after_the_deadline_does_not_ask_for_a_form_in_vain(world):
    from pipeline.state import BareMail

    mail = BareMail(sha("m"), "m.eml", NOW - dt.timedelta(hours=1), "cap1@a.example.cn", "报名", ("报名表.et",))
    world.state.bare_mails = [mail]
    ahead = {r.sha256: r for r in build_receipts(_with_deadline(world, NOW + dt.timedelta(days=1)), world.out)}
    assert f"报名表请在 {NOW + dt.timedelta(days=1):%Y-%m-%d %H:%M} 前发送" in ahead[sha("m")].body
    passed = {r.sha256: r for r in build_receipts(_with_deadline(world, NOW - dt.timedelta(days=1)), world.out)}
    body = passed[sha("m")].body
    assert "截止" in body and "不予受理" in body and "成绩表不受" in body
    # and the accepted receipt of u1's form no longer invites an edit that would be refused
    assert "如需修改，请在这份报名表上修改后重新发送" not in passed[sha("a")].body


# -- 4. a Traditional league's receipts ----------------------------------------------------------

def test_a_traditional_leagues_receipts_are_in_traditional(tmp_path):
    _, by_file = _night("t2015-tcm", tmp_path, dt.datetime(2015, 10, 29, 20, 0, tzinfo=TZ))
    for f, r in by_file.items():
        assert r.subject.startswith("【報名回執】"), r.subject
        # but in file names, and the tab of a cell (报名表!C20: the workbook's own tab name)
        assert "报名" not in re.sub(r"《[^》]*》|“[^”]*\.xlsx”|报名表![A-Z]+[0-9]+", "", r.body), (f, r.body)
        assert "報名表!" not in r.body
        assert f"《{f}》" in r.body                                   # file names as received
        assert "組委會" in r.body
    r = _one(by_file, "unknown-event")
    assert "葉娟杰" in r.body and "葉娟傑" not in r.body                # a name kept as a name
    assert r.attachment_name == "临床医学院分工会-报名表（unknown-event）-已標註問題.xlsx"
    assert f"《{r.attachment_name}》" in r.body
    # a message quoting a file name “…”: the name as received (the rest converted)
    other = _one(by_file, "other-template")
    assert "“后勤服务分工会-报名表（other-template）.xlsx”是比賽" in other.body, other.body


# -- 5. nothing else false -------------------------------------------------------------------------

def test_a_form_superseded_only_for_the_events_still_open_says_it_still_counts_for_the_others(tmp_path):
    """T2015: 图书馆 (t09) sent its form on 10-27 and a changed one on 11-10, after 围棋/中国象棋/
    桥牌 closed (10-30) and before 双扣 (11-14).  The 10-27 form still counts for the closed events
    (R2020-Q4 under reject): its receipt said only 以最后收到的一份为准."""
    import email
    import email.policy
    import io

    import openpyxl

    folder = t2015_forms(tmp_path)
    msg = email.message_from_bytes((folder / "inbox" / "1027-t09-报名表.eml").read_bytes(), policy=email.policy.default)
    part = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx"))
    wb = openpyxl.load_workbook(io.BytesIO(part.get_content()))
    ws = wb["报名表"]
    phone = next(c for row in ws.iter_rows() for c in row if isinstance(c.value, str) and c.value.isdigit()
                 and len(c.value) == 11)
    phone.value = "13900000000"
    buf = io.BytesIO()
    wb.save(buf)
    part.set_content(buf.getvalue(), maintype="application",
                     subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename="图书馆-报名表-改.xlsx")
    del msg["Date"]
    msg["Date"] = "Tue, 10 Nov 2015 09:00:00 +0800"
    (folder / "inbox" / "1110-t09-改.eml").write_bytes(bytes(msg))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2015, 11, 10, 20, 0, tzinfo=TZ)))
    receipts = {r.sha256: r for r in build_receipts(report.state, report.out_dir)}
    old = next(s for s in report.state.submissions if s.branch == "t09" and s.status == "superseded")
    r = receipts[old.sha256]
    assert "仍以這份報名表為準" in r.body, r.body
    assert "圍棋、中國象棋、橋牌的報名已於 2015-10-30 23:59 截止" in r.body and "其餘項目以最後收到的一份為準" in r.body



def test_R2020_Q4_a_receipt_gives_the_seconds_of_a_form_received_in_the_deadline_minute(world):
    """A form received at 15:00:30 for a 15:00 deadline: its receipt said “（… 15:00 收到）”
    beside “已于 … 15:00 截止” — the seconds are said, as on the unit page and in the issue."""
    deadline = (NOW - dt.timedelta(days=1)).replace(second=0, microsecond=0)
    got = deadline + dt.timedelta(seconds=30)
    world.state.submissions = [dataclasses.replace(s, received=got) if s.sha256 == sha("a") else s
                               for s in world.state.submissions]
    state = _with_deadline(world, deadline, "accept-with-warning")
    r = {x.sha256: x for x in build_receipts(state, world.out)}[sha("a")]
    local = got.astimezone(TZ)
    assert f"（{local:%Y-%m-%d %H:%M:%S} 收到）" in r.body, r.body
    assert f"{deadline.astimezone(TZ):%Y-%m-%d %H:%M} 截止" in r.body
