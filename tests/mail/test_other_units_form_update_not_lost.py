"""OTHER_UNITS_FORM: an update sent on another unit's form is not answered 无需重新发送 (a review).

b04's own form (张三) was accepted on 11-04; on 11-05 b04's captain sent a corrected form
adding 李四 — on b06's form by mistake.  The note on b04's page and the receipt said b04's own
form was taken, 无需重新发送: 李四 was never registered and nobody knew.  Only a file all of
whose people are on the sender's own form asks for nothing; any other still asks the sender
to send its own form (如果是…误用了…请改用…重新发送).  And the receipt says what the note
says: b04's own form received later the same night left the note asking, while the receipt
said 此后收到的…已受理，无需重新发送 under the subject 本分工会的报名表已受理.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
from types import SimpleNamespace as NS

from pipeline.issues import IssueLog, issue
from pipeline.mail.receipts import build_receipts
from pipeline.model import CellRef, Severity
from pipeline.run import _other_units_form, settle_rejected_before
from pipeline.state import Submission
from pipeline.store import Received

from .conftest import make_tournament, sha

CAP1 = "cap1@a.example.cn"
ASK = "请改用组委会下发给本分工会的报名表填写后重新发送"
TZ8 = dt.timezone(dt.timedelta(hours=8))


def _note(tmp_path, people: set[str], own_hour: int = 9, own_day: int = 4):
    """u1's note of u2's form u1 sent on 11-05 18:00 holding ``people``; u1's own form (张三)
    taken on ``own_day`` at ``own_hour``, in another mail."""
    t = make_tournament(tmp_path)
    own = Received(sha("m"), ".xlsx", "mine.xlsx", dt.datetime(2020, 11, own_day, own_hour, tzinfo=TZ8), CAP1,
                   parent="mail1")
    stray = Received(sha("o"), ".xlsx", "other.xlsx", dt.datetime(2020, 11, 5, 18, tzinfo=TZ8), CAP1,
                     parent="mail2")
    log = IssueLog([_other_units_form(t, stray, "u2", "u1")])
    settle_rejected_before([own, stray], [(own, NS(branch="u1", rows=[NS(name="张三")]))], log, {},
                           {stray.sha256: ("u2", frozenset((p, "", "") for p in people))}, t)
    (i,) = list(log)
    return i


def test_other_units_form_with_a_person_not_on_the_senders_own_form_still_asks(tmp_path):
    i = _note(tmp_path, {"张三", "李四"})
    assert i.severity == Severity.ERROR
    assert ASK in i.message and "无需重新发送" not in i.message, i.message


def test_other_units_form_with_only_the_senders_own_people_asks_for_nothing(tmp_path):
    i = _note(tmp_path, {"张三"})
    assert ASK not in i.message and "《mine.xlsx》（11月4日 09:00 收到）已受理，行政第一分工会无需重新发送" in i.message, i.message


def _receipt(world, message: str, at: dt.datetime, severity: Severity = Severity.ERROR):
    state = dataclasses.replace(
        world.state,
        submissions=[*world.state.submissions,
                     Submission(sha("o"), "二分会的表.xlsx", "u1", at, CAP1, "rejected", refused="form")],
        issues=[*world.state.issues, dataclasses.replace(
            issue("OTHER_UNITS_FORM", message, at=CellRef("二分会的表.xlsx"), branch="u1", source=sha("o")),
            severity=severity)])
    (r,) = [r for r in build_receipts(state, world.out) if r.sha256 == sha("o")]
    return r


def _own(world):
    a = next(s for s in world.state.submissions if s.sha256 == sha("a"))
    return a, Received(a.sha256, ".xlsx", a.file, a.received, CAP1)


def test_receipt_of_an_update_on_other_units_form_asks_for_the_senders_own_form(world):
    """The note still asks (a person not on u1's own form): so does the receipt."""
    a, _ = _own(world)
    at = a.received + dt.timedelta(days=1)
    t = world.state.tournament
    r = _receipt(world, _other_units_form(t, Received(sha("o"), ".xlsx", "二分会的表.xlsx", at, CAP1),
                                          "u2", "u1").message, at)
    assert "无需重新发送" not in r.body and "已受理" not in r.subject, (r.subject, r.body)
    assert "请使用组委会下发给本分工会的报名表" in r.body, r.body


def test_receipt_of_other_units_form_before_the_senders_own_form_agrees_with_its_note(world):
    """u1's own form came 2 hours later (another mail), the note unsettled: it asks, and the
    receipt does not say 此后收到的…无需重新发送 below it."""
    a, _ = _own(world)
    at = a.received - dt.timedelta(hours=2)
    t = world.state.tournament
    message = _other_units_form(t, Received(sha("o"), ".xlsx", "二分会的表.xlsx", at, CAP1), "u2", "u1").message
    r = _receipt(world, message, at)
    assert "此后收到的" not in r.body and "本分工会的报名表已受理" not in r.subject, (r.subject, r.body)
    assert ASK in r.body, r.body
    # settled by it (all its people on u1's own form, u2's form in force): the note and the receipt say so
    settled = f"{message}（行政第二分工会已有自己的报名表《x.xlsx》，行政第一分工会其后发来的自己的报名表《一分会报名表.xlsx》也已受理，这份文件无需再处理。）"
    r = _receipt(world, settled, at, Severity.INFO)
    assert "此后收到的贵分工会自己的报名表《一分会报名表.xlsx》" in r.body, r.body
