"""OTHER_UNITS_FORM: a correction typed on another unit's form is no 无需重新发送 (a review).

b04's own form was accepted on 11-04; on 11-06 b04's captain mailed a correction — 高宇琪 out
of 斗地主, 宋洋娟 and 江刚华 swapping 象棋 and 跳棋 — on b06's form by mistake.  Every name on it
was on b04's own form, so the note and the receipt said b04's own form was taken, 无需重新发送,
and the correction was lost.  The file asks for nothing only when it holds the sender's
registration exactly as it stands — the same lines (name, event, team): a person moved to
another event, or left out, is a change, and the note still asks the sender to send it on its
own form.  The same test settles such a file by the sender's own later form (its lines must
be on it as they are), and by the other unit's registration (a file that would change it is
an update sent on its behalf).
"""
from __future__ import annotations

import datetime as dt
from types import SimpleNamespace as NS

from pipeline.issues import IssueLog, issue
from pipeline.model import CellRef, Severity
from pipeline.run import _other_units_form, reg_lines, settle_rejected_before
from pipeline.store import Received

from .conftest import make_tournament, sha

CAP1 = "cap1@a.example.cn"
ASK = "请改用组委会下发给本分工会的报名表填写后重新发送"
TZ8 = dt.timezone(dt.timedelta(hours=8))
OWN = (("宋洋娟", "xiangqi", ""), ("江刚华", "tiaoqi", ""), ("高宇琪", "doudizhu", ""), ("韦明", "shuangsheng", "1"))


def _rows(lines):
    return [NS(name=n, event=e, team_no=k) for n, e, k in lines]


def _note(tmp_path, lines, own_day: int = 4, own=OWN):
    """u1's note of u2's form u1 sent on 11-05 18:00 holding ``lines``; u1's own form (``own``)
    taken on ``own_day``, in another mail."""
    t = make_tournament(tmp_path)
    mine = Received(sha("m"), ".xlsx", "mine.xlsx", dt.datetime(2020, 11, own_day, 9, tzinfo=TZ8), CAP1,
                    parent="mail1")
    stray = Received(sha("o"), ".xlsx", "other.xlsx", dt.datetime(2020, 11, 5, 18, tzinfo=TZ8), CAP1,
                     parent="mail2")
    log = IssueLog([_other_units_form(t, stray, "u2", "u1")])
    settle_rejected_before([mine, stray], [(mine, NS(branch="u1", rows=_rows(own))),
                                           (Received(sha("t"), ".xlsx", "theirs.xlsx",
                                                     dt.datetime(2020, 11, 3, 9, tzinfo=TZ8), "x@b.example.cn"),
                                            NS(branch="u2", rows=_rows([("张三", "xiangqi", "")])))],
                           log, {}, {stray.sha256: ("u2", reg_lines(_rows(lines)))}, t)
    (i,) = list(log)
    return i


def test_a_swap_of_events_on_another_units_form_still_asks(tmp_path):
    swapped = (("宋洋娟", "tiaoqi", ""), ("江刚华", "xiangqi", ""), ("高宇琪", "doudizhu", ""), ("韦明", "shuangsheng", "1"))
    i = _note(tmp_path, swapped)
    assert i.severity == Severity.ERROR and ASK in i.message and "无需重新发送" not in i.message, i.message


def test_a_person_withdrawn_on_another_units_form_still_asks(tmp_path):
    i = _note(tmp_path, OWN[:3])
    assert ASK in i.message and "无需重新发送" not in i.message, i.message


def test_a_team_changed_on_another_units_form_still_asks(tmp_path):
    i = _note(tmp_path, (*OWN[:3], ("韦明", "shuangsheng", "2")))
    assert ASK in i.message and "无需重新发送" not in i.message, i.message


def test_the_senders_registration_as_it_stands_asks_for_nothing(tmp_path):
    i = _note(tmp_path, tuple(reversed(OWN)))
    assert ASK not in i.message and "无需重新发送" in i.message, i.message


def test_the_senders_later_own_form_settles_the_file_only_when_it_holds_its_lines(tmp_path):
    """u1's own form taken on 11-06, after the file: the file is settled (无需再处理) when the
    later form holds its lines as they are; an older list sent again leaves the correction
    on the file unsaid — it stays an error."""
    swapped = (("宋洋娟", "tiaoqi", ""), ("江刚华", "xiangqi", ""), ("高宇琪", "doudizhu", ""), ("韦明", "shuangsheng", "1"))
    i = _note(tmp_path, swapped, own_day=6)
    assert i.severity == Severity.ERROR and "无需再处理" not in i.message, i.message
    i = _note(tmp_path, swapped, own_day=6, own=swapped)
    assert i.severity == Severity.INFO and "无需再处理" in i.message, i.message


def test_the_senders_later_own_form_with_more_people_settles_the_file(tmp_path):
    """u1 does as asked: its own form, sent after the file, holds the file's lines and one
    person more (李四) — the file is settled (无需再处理); equal lines only kept the error, and
    its resend advice, for good (a review)."""
    i = _note(tmp_path, OWN, own_day=6, own=(*OWN, ("李四", "xiangqi", "")))
    assert i.severity == Severity.INFO and "无需再处理" in i.message, i.message
