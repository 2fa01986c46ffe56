"""R2020-Q4: an OWN_MAIL note (a receipt's marked copy come back: a captain forwarding the
receipt to ask a question) asks for no resend once its unit's events have closed (from an
audit of mail intake: after every deadline, ``late_policy: reject``, b03's page still said
如需改正报名表，请在这份副本上修改、保存后重新作为附件发送 — and that resend was refused as late;
handbook 回执: nobody is asked to correct and resend after the deadline)."""
from __future__ import annotations

import datetime as dt
from types import SimpleNamespace as NS

from pipeline.issues import IssueLog
from pipeline.model import CellRef
from pipeline.run import own_copy_issue, own_mail_after_deadline
from pipeline.spec import Tournament, TournamentSpec, validated
from pipeline.store import OwnCopy

TZ = dt.timezone(dt.timedelta(hours=8))
XQ_CLOSES = dt.datetime(2020, 11, 9, 15, 0, tzinfo=TZ)
BR_CLOSES = dt.datetime(2020, 11, 14, 15, 0, tzinfo=TZ)
ASK = "如需改正报名表，请在这份副本上修改、保存后重新作为附件发送。"


def _t(policy: str = "reject") -> Tournament:
    spec = validated(TournamentSpec, {
        "id": "t", "name": "测试棋牌赛", "contact": "工会办公室 成洁", "late_policy": policy,
        "units": [{"id": "u1", "name": "行政第一分工会", "emails": ["cap1@a.example.cn"]}],
        "events": [{"id": "xiangqi", "name": "象棋", "game": "xiangqi", "format": {"type": "round_robin"},
                    "deadline": XQ_CLOSES.isoformat()},
                   {"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2,
                    "format": {"type": "round_robin"}, "deadline": BR_CLOSES.isoformat()}]})
    return Tournament(None, spec, b"0123456789abcdef0123")


def _note(t: Tournament, now: dt.datetime, events: tuple[str, ...] = ("xiangqi", "bridge")) -> str:
    log = IssueLog()
    ours = OwnCopy("f" * 64, "u1-报名表-ffffffff-返回.xlsx", "u1", dt.datetime(2020, 11, 6, 23, 0, tzinfo=TZ))
    own_copy_issue(log, "文件《报名表-已标注问题.xlsx》", ours, CellRef("报名表-已标注问题.xlsx"), "u1", "f" * 64)
    newest = [(NS(sha256="a" * 64), NS(branch="u1", rows=[NS(event=e) for e in events]))]
    own_mail_after_deadline(t, log, now, newest)
    (i,) = list(log)
    assert i.code == "OWN_MAIL"
    return i.message


def test_own_mail_before_the_deadline_still_says_how_to_correct():
    assert _note(_t(), XQ_CLOSES - dt.timedelta(days=1)).endswith(ASK)


def test_own_mail_after_every_deadline_asks_for_no_resend():
    msg = _note(_t(), BR_CLOSES + dt.timedelta(days=1))
    assert "重新作为附件发送" not in msg, msg
    assert "已不能再通过邮件更正" in msg and "请联系工会办公室 成洁" in msg, msg
    assert "无需处理" in msg        # the copy itself is still set aside, nothing to do about it


def test_own_mail_after_the_deadline_of_the_units_only_event():
    """u1 registered only 象棋: its deadline is the one that counts for its page."""
    msg = _note(_t(), XQ_CLOSES + dt.timedelta(days=1), ("xiangqi",))
    assert "重新作为附件发送" not in msg and "已不能再通过邮件更正" in msg, msg


def test_own_mail_between_two_deadlines_names_the_events_still_open():
    msg = _note(_t(), XQ_CLOSES + dt.timedelta(days=1))
    assert "象棋的报名已于 2020-11-09 15:00 截止" in msg, msg
    assert "桥牌的报名如需修改，请在这份副本上修改、保存后在 2020-11-14 15:00 前重新作为附件发送。" in msg, msg


def test_own_mail_after_the_deadline_accepting_late_forms_says_they_are_marked_late():
    msg = _note(_t("accept-with-warning"), BR_CLOSES + dt.timedelta(days=1))
    assert "逾期报名" in msg and msg.endswith(ASK), msg


def test_own_mail_of_a_forwarded_receipt_asks_for_no_resend_after_the_deadline():
    from pipeline.issues import issue
    from pipeline.run import OWN_RECEIPT_ASK

    log = IssueLog([issue("OWN_MAIL", "邮件《转发》转来的是本系统发出的回执，其中的《x》是本系统的标注副本，没有作为报名表收取；"
                          + OWN_RECEIPT_ASK, at=CellRef("m.eml"), branch="u1")])
    assert own_mail_after_deadline(_t(), log, BR_CLOSES + dt.timedelta(hours=1), []) == 1
    (i,) = list(log)
    assert "作为附件发送" not in i.message and "已不能再通过邮件更正" in i.message, i.message
