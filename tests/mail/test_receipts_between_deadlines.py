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

from pipeline.mail.receipts import build_receipts
from pipeline.spec import Tournament
from pipeline.state import BareMail, ResentForm

from .conftest import NOW, sha

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
