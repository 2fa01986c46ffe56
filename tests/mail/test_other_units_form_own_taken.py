"""OTHER_UNITS_FORM beside the sender's own form taken (from an audit of mail receipts).

b04 mailed its own form and b06's form in one mail: its own got 已接受, b06's 未受理 — which
ended 请使用组委会下发给本分工会的报名表（文件名为《t2020-league-b04-…》）填写后…发送, though
the form it asked for had just been accepted.  Now the receipt and the note say b04's own
form was taken and that b06's counts for nobody: b06 must send it itself.  And once b03's
own form settles the b03 form b11 sent, b11's page names b03 (它 read 该单位, on b11's page).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
from types import SimpleNamespace as NS

from pipeline.issues import IssueLog, issue
from pipeline.mail.receipts import build_receipts
from pipeline.model import CellRef
from pipeline.run import _other_units_form, settle_rejected_before
from pipeline.state import Submission
from pipeline.store import Received

from .conftest import NOW, make_tournament, sha

CAP1 = "cap1@a.example.cn"


def _with_other_units_form(world, received: dt.datetime):
    """u1 (its own form a taken, 3 days before NOW) sent u2's genuine form at ``received``,
    holding only u1's own people: its note as settle_rejected_before words it."""
    t = world.state.tournament
    rec = Received(sha("o"), ".xlsx", "二分会的表.xlsx", received, CAP1)
    assert "请改用组委会下发给本分工会的报名表" in _other_units_form(t, rec, "u2", "u1").message   # (as read_inputs words it)
    a = next(s for s in world.state.submissions if s.sha256 == sha("a"))
    own = Received(a.sha256, ".xlsx", a.file, a.received, CAP1)
    message = _other_units_form(t, rec, "u2", "u1", own, together=received == a.received).message
    state = dataclasses.replace(
        world.state,
        submissions=[*world.state.submissions,
                     Submission(sha("o"), "二分会的表.xlsx", "u1", received, CAP1, "rejected", refused="form")],
        issues=[*world.state.issues, issue("OTHER_UNITS_FORM", message, at=CellRef("二分会的表.xlsx"), branch="u1",
                                           source=sha("o"))])
    (r,) = [r for r in build_receipts(state, world.out) if r.sha256 == sha("o")]
    return r


def test_other_units_form_in_the_mail_of_the_senders_accepted_form_does_not_ask_for_it(world):
    a = next(s for s in world.state.submissions if s.sha256 == sha("a"))
    r = _with_other_units_form(world, a.received)       # the same mail as u1's own form
    assert r.to == (CAP1,)
    assert "请使用组委会下发给本分工会的报名表" not in r.body, r.body
    assert "本分工会的报名表已受理" in r.subject, r.subject
    assert "同一封邮件所附的贵分工会自己的报名表《一分会报名表.xlsx》已受理" in r.body, r.body
    assert "《二分会的表.xlsx》是行政第二分工会的报名表，不计入任何分工会的报名" in r.body, r.body
    assert "行政第二分工会从其登记的邮箱自行发送" in r.body, r.body


def test_other_units_form_after_the_senders_accepted_form_does_not_ask_for_it(world):
    a = next(s for s in world.state.submissions if s.sha256 == sha("a"))
    r = _with_other_units_form(world, a.received + dt.timedelta(days=1))
    assert "请使用组委会下发给本分工会的报名表" not in r.body, r.body
    assert "贵分工会自己的报名表《一分会报名表.xlsx》" in r.body and "已受理" in r.body, r.body


def test_other_units_form_of_a_unit_without_its_own_form_still_asks_for_it(world):
    """(u3 has no registered address: u2's deputy, whose unit u2 has a form only from a stranger)"""
    t = world.state.tournament
    at = NOW - dt.timedelta(days=1)
    rec = Received(sha("p"), ".xlsx", "一分会的表.xlsx", at, "deputy2@b.example.cn")
    message = _other_units_form(t, rec, "u1", "u2").message
    state = dataclasses.replace(
        world.state,
        submissions=[s for s in world.state.submissions if s.branch != "u2"]
        + [Submission(sha("p"), "一分会的表.xlsx", "u2", at, "deputy2@b.example.cn", "rejected", refused="form")],
        issues=[*world.state.issues, issue("OTHER_UNITS_FORM", message, at=CellRef("一分会的表.xlsx"), branch="u2",
                                           source=sha("p"))])
    (r,) = [r for r in build_receipts(state, world.out) if r.sha256 == sha("p")]
    assert "请使用组委会下发给本分工会的报名表" in r.body, r.body


def _settled(tmp_path, own_day: int, same_mail: bool = False, theirs_day: int | None = None,
             people: frozenset[tuple[str, str, str]] = frozenset({("张三", "", "")})):
    """The note on u1's page of u2's form u1 sent on 11-05 holding ``people`` (its lines: name, event, team), u1's own form
    (张三) taken on ``own_day``."""
    tz = dt.timezone(dt.timedelta(hours=8))
    t = make_tournament(tmp_path)

    def rec(name, day, parent=""):
        return Received(sha(name[0]), ".xlsx", f"{name}.xlsx", dt.datetime(2020, 11, day, 9, tzinfo=tz), CAP1,
                        parent=parent)
    stray = rec("other", 5, "mail1")
    own = rec("mine", own_day, "mail1" if same_mail else "mail2")
    newest = [(own, NS(branch="u1", rows=[NS(name="张三")]))]
    received = [stray, own]
    if theirs_day is not None:
        theirs = dataclasses.replace(rec("theirs", theirs_day), sender="cap2@b.example.cn")
        newest.append((theirs, NS(branch="u2", rows=[NS(name="赵六")])))
        received.append(theirs)
    log = IssueLog([_other_units_form(t, stray, "u2", "u1")])
    settle_rejected_before(received, newest, log, {}, {stray.sha256: ("u2", people)}, t)
    (i,) = list(log)
    return i


def test_the_note_of_other_units_form_beside_the_senders_own_form_says_it_was_taken(tmp_path):
    i = _settled(tmp_path, 5, same_mail=True)
    assert i.severity.value == "error"       # u2 still has no registration: nothing took it
    assert "请改用组委会下发给本分工会的报名表" not in i.message, i.message
    assert "同一封邮件所附的《mine.xlsx》已受理，行政第一分工会无需重新发送" in i.message, i.message
    assert "行政第二分工会的报名须由行政第二分工会从其登记的邮箱自行发送" in i.message, i.message
    i = _settled(tmp_path, 4)
    assert "请改用" not in i.message and "《mine.xlsx》（11月4日 09:00 收到）已受理" in i.message, i.message
    i = _settled(tmp_path, 6)           # u1's own came after it: the message asked for it (unchanged)
    assert "请改用组委会下发给本分工会的报名表" in i.message, i.message


def test_the_note_settled_by_the_other_units_own_form_names_that_unit(tmp_path):
    """b11 sent b03's form; b03's own came later: b11's page said 该单位自己的报名表…, read as b11."""
    i = _settled(tmp_path, 6, theirs_day=7, people=frozenset({("赵六", "", "")}))
    assert i.severity.value == "info", i
    assert "行政第二分工会自己的报名表《theirs.xlsx》" in i.message and "该单位" not in i.message, i.message
