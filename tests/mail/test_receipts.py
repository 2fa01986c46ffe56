"""Receipts: who gets one, what it says, sent once each over a real SMTP server."""
from __future__ import annotations

import email
import email.policy

import pytest

from pipeline.mail import MailError, build_receipts, deliver, resend_pending, send_receipts
from pipeline.mail.receipts import unreachable
from pipeline.mail.smtp import load_outbox, receipt_status

from .conftest import NOW, SPEC, STRANGER, SmtpServer, free_port, sha


def _parse(raw: bytes) -> email.message.EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def _by_sha(receipts):
    return {r.sha256: r for r in receipts}


def test_receipts_go_only_to_registered_addresses(world):
    got = _by_sha(build_receipts(world.state, world.out))
    assert set(got) == {sha("a"), sha("b"), sha("d")}
    assert got[sha("a")].to == ("cap1@a.example.cn",)                       # the registered sender
    assert got[sha("b")].to == ("cap2@b.example.cn", "deputy2@b.example.cn")  # never the stranger
    assert got[sha("d")].to == ("deputy2@b.example.cn",)                    # unproven: sender only, registered
    for r in got.values():
        assert STRANGER not in r.to
    assert {s.sha256 for s in unreachable(world.state)} == {sha("c"), sha("e")}


def test_accepted_receipt_lists_entries_per_event_with_names(world):
    r = _by_sha(build_receipts(world.state, world.out))[sha("a")]
    assert r.kind == "accepted"
    assert r.subject == "【报名回执】行政第一分工会：已接受"
    assert "象棋（2 人）：张三、李四" in r.body
    assert "桥牌（1 对）" in r.body and "行政一1：张三、王五" in r.body
    assert "赵六" not in r.body and "钱七" not in r.body          # nobody else's entries
    assert r.attachment is None


def test_problem_receipt_lists_every_problem_and_attaches_returned_workbook(world):
    r = _by_sha(build_receipts(world.state, world.out))[sha("b")]
    assert r.kind == "needs_change"
    assert r.subject == "【报名回执】行政第二分工会：需修改（2 个问题）"
    assert "[QUOTA_EXCEEDED] 报名表!E12：象棋 “孙八” 超出名额" in r.body
    assert "[SENDER_UNKNOWN]" in r.body
    assert r.attachment == world.out / "returned" / "u2-二分会-bbbbbbbb-返回.xlsx"
    d = _by_sha(build_receipts(world.state, world.out))[sha("d")]
    assert d.subject == "【报名回执】行政第二分工会：文件无法读取，请重新发送"
    assert "[UNREADABLE_FILE] 整个文件：" in d.body and d.attachment is None


def test_end_to_end_send_and_no_double_send_on_rerun(world, smtp_server):
    report = deliver(world.state, world.out, world.ledger, smtp_server.url, NOW)
    assert not report.failed, report.failed
    assert sorted(report.sent) == sorted([sha("a"), sha("b"), sha("d")])
    msgs = smtp_server.handler.messages
    assert len(msgs) == 3
    everyone = {a for m in msgs for a in m.rcpt_tos}
    assert everyone == {"cap1@a.example.cn", "cap2@b.example.cn", "deputy2@b.example.cn"}
    assert all(m.mail_from == "office@union.example.cn" for m in msgs)
    parsed = {_parse(m.content)["Subject"]: _parse(m.content) for m in msgs}
    accepted = parsed["【报名回执】行政第一分工会：已接受"]
    assert accepted["In-Reply-To"] == "<reg-u1@a.example.cn>"
    assert "张三、李四" in accepted.get_body(("plain",)).get_content()
    problem = parsed["【报名回执】行政第二分工会：需修改（2 个问题）"]
    atts = list(problem.iter_attachments())
    assert [a.get_filename() for a in atts] == ["二分会-已标注问题.xlsx"]
    assert atts[0].get_content() == b"PK annotated workbook of u2"
    assert b"stranger data" not in b"".join(m.content for m in msgs)
    assert receipt_status(world.ledger, sha("a")) == "sent"
    # the rerun sends nothing
    again = deliver(world.state, world.out, world.ledger, smtp_server.url, NOW)
    assert again.sent == [] and again.already == 3
    assert len(smtp_server.handler.messages) == 3


def test_failed_send_when_server_down_is_retried_next_run(world):
    server = SmtpServer(port=free_port())          # nothing listens there yet
    first = deliver(world.state, world.out, world.ledger, server.url, NOW)
    assert first.sent == [] and len(first.failed) == 3
    assert "无法连接发件服务器" in first.failed[0][1]
    rows = world.ledger.conn.execute("SELECT status, error FROM receipts").fetchall()
    assert {r[0] for r in rows} == {"failed"} and all(r[1] for r in rows)
    server.start()
    try:
        second = deliver(world.state, world.out, world.ledger, server.url, NOW)
        assert len(second.sent) == 3 and not second.failed
        assert len(server.handler.messages) == 3
        rows = world.ledger.conn.execute("SELECT status, error, sent_at FROM receipts").fetchall()
        assert all(r == ("sent", "", NOW.isoformat()) for r in rows)
        third = deliver(world.state, world.out, world.ledger, server.url, NOW)
        assert third.sent == [] and len(server.handler.messages) == 3
    finally:
        server.stop()


def test_smtp_error_is_recorded_and_outbox_copy_is_resent_on_unchanged_night(world, smtp_server):
    smtp_server.handler.reject_data = True
    first = deliver(world.state, world.out, world.ledger, smtp_server.url, NOW)
    assert len(first.failed) == 3 and "451" in first.failed[0][1]
    assert receipt_status(world.ledger, sha("b")) == "failed"
    kept = load_outbox(world.ledger, sha("b"))
    assert kept["Subject"].startswith("【报名回执】行政第二分工会")
    smtp_server.handler.reject_data = False
    retry = resend_pending(smtp_server.url, world.ledger, now=NOW)      # no state needed
    assert len(retry.sent) == 3
    assert sorted(tuple(m.rcpt_tos) for m in smtp_server.handler.messages) == sorted(
        [("cap1@a.example.cn",), ("cap2@b.example.cn", "deputy2@b.example.cn"), ("deputy2@b.example.cn",)])
    assert resend_pending(smtp_server.url, world.ledger, now=NOW).sent == []
    assert deliver(world.state, world.out, world.ledger, smtp_server.url, NOW).sent == []


def test_from_address_from_env_and_no_url_means_no_mail(world, smtp_server, monkeypatch):
    assert deliver(world.state, world.out, world.ledger, None, NOW).sent == []
    url = f"smtp://127.0.0.1:{smtp_server.port}"
    with pytest.raises(MailError, match="LEAGUE_SMTP_FROM"):
        send_receipts(url, build_receipts(world.state, world.out), world.ledger, now=NOW)
    monkeypatch.setenv("LEAGUE_SMTP_FROM", "league@union.example.cn")
    send_receipts(url, build_receipts(world.state, world.out), world.ledger, now=NOW)
    assert {m.mail_from for m in smtp_server.handler.messages} == {"league@union.example.cn"}


def test_password_in_url_is_refused(world):
    with pytest.raises(MailError, match="含有密码"):
        deliver(world.state, world.out, world.ledger, "smtp://u:pw@127.0.0.1:25", NOW)


def test_unproven_branch_never_reaches_the_claimed_branch_even_if_marked_current(world):
    import dataclasses

    from pipeline.issues import issue
    from pipeline.model import CellRef

    forged = dataclasses.replace(world.state.submissions[2], status="current")   # WRONG_BRANCH, from the stranger
    world.state.submissions = [forged]
    assert build_receipts(world.state, world.out) == []
    # the same forged workbook mailed by u2's own captain goes back to that captain only
    own = dataclasses.replace(forged, sender="cap2@b.example.cn")
    world.state.submissions = [own]
    [r] = build_receipts(world.state, world.out)
    assert r.to == ("cap2@b.example.cn",) and r.kind == "needs_change" and "[WRONG_BRANCH]" in r.body
    assert "张三" not in r.body                                   # u1's registered entries are not shown
    world.state.issues.append(issue("SUPERSEDED", "x", at=CellRef("偷来的.xlsx"), branch="u1"))
    assert "[SUPERSEDED]" not in build_receipts(world.state, world.out)[0].body


def test_superseded_submission_gets_a_short_note(world):
    import dataclasses

    old = dataclasses.replace(world.state.submissions[0], sha256=sha("f"), file="旧表.xlsx", status="superseded")
    world.state.submissions.append(old)
    r = _by_sha(build_receipts(world.state, world.out))[sha("f")]
    assert r.subject == "【报名回执】行政第一分工会：已被新报名表取代" and r.to == ("cap1@a.example.cn",)
    assert "张三" not in r.body


def test_registered_addresses_are_read_as_the_office_types_them():
    """tournament.yaml's ``emails`` as typed with a Chinese input method or copied from
    Outlook become bare addresses; a text that is no address is an error naming it (a
    full-width ； kept in an address crashed every night's receipts)."""
    import copy

    from pipeline.spec import SpecError, parse_spec

    spec = copy.deepcopy(SPEC)
    spec["events"] = spec["events"][:1]      # (the fixture's bridge is no round robin)
    spec["units"][0]["emails"] = ["cap1@a.example.cn；deputy1＠a.example.cn"]
    spec["units"][1]["emails"] = "庞雪平 <Cap2@B.example.cn>, \"Li, Wei\" <li@b.example.cn>"
    parsed = parse_spec(spec)
    assert parsed.units[0].emails == ["cap1@a.example.cn", "deputy1@a.example.cn"]
    assert parsed.unit("u2").emails == ["Cap2@B.example.cn", "li@b.example.cn"]
    for bad in ("张三@qq.com", "cap1@a.example.cn 备用", "庞雪平", "cap1@localhost"):
        spec["units"][0]["emails"] = [bad]
        with pytest.raises(SpecError) as e:
            parse_spec(spec)
        assert "units" in e.value.key and bad in e.value.problem and "不是有效的邮箱地址" in e.value.problem


def test_an_address_the_server_cannot_take_fails_that_receipt_only(world, smtp_server):
    """A receipt to an address smtplib cannot send (not ASCII: a spec validated before the
    addresses were checked, a kept outbox) is recorded failed; the others still go."""
    import dataclasses

    from pipeline.spec import Tournament

    spec = world.state.tournament.spec
    units = [dataclasses.replace(u, emails=["cap1@a.example.cn；pangxp@qq.com"]) if u.id == "u1" else u
             for u in spec.units]
    old = world.state.tournament
    t = Tournament(old.folder, dataclasses.replace(spec, units=units), old.secret)
    state = dataclasses.replace(world.state, tournament=t)
    for s in list(state.submissions):
        if s.sha256 == sha("a"):
            state.submissions[state.submissions.index(s)] = dataclasses.replace(s, sender="")
    report = deliver(state, world.out, world.ledger, smtp_server.url, NOW)
    assert [f[0] for f in report.failed] == [sha("a")] and "UnicodeEncodeError" in report.failed[0][1]
    assert sorted(report.sent) == sorted([sha("b"), sha("d")])
    assert receipt_status(world.ledger, sha("a")) == "failed"


def test_a_mail_without_workbook_is_answered_only_to_a_registered_sender(world):
    """A mail that carried no workbook (NO_ATTACHMENT) proves no branch: its receipt goes to
    its sender only, and only to a registered one — not to a stranger, not to an automatic
    reply, not when a form of the sender's unit came at the same time or later."""
    import datetime as dt

    from pipeline.state import BareMail

    day = dt.timedelta(days=1)
    world.state.bare_mails = [
        BareMail(sha("m"), "m.eml", NOW - day, "cap1@a.example.cn", "报名表", ("报名表.pdf",)),
        BareMail(sha("n"), "n.eml", NOW - day, STRANGER, "报名表"),
        BareMail(sha("o"), "o.eml", NOW - day, "cap1@a.example.cn", "自动回复：报名回执", automatic=True),
        BareMail(sha("p"), "p.eml", NOW - 4 * day, "cap1@a.example.cn", "报名"),    # u1's form came after it
        BareMail(sha("q"), "q.eml", NOW - day, "deputy2@b.example.cn", ""),
    ]
    got = _by_sha(build_receipts(world.state, world.out))
    assert set(got) == {sha("a"), sha("b"), sha("d"), sha("m"), sha("q")}
    m, q = got[sha("m")], got[sha("q")]
    assert m.to == ("cap1@a.example.cn",) and q.to == ("deputy2@b.example.cn",)
    assert m.kind == q.kind == "needs_change" and m.branch == q.branch == "" and m.attachment is None
    assert m.subject == "【报名回执】行政第一分工会：邮件中没有 Excel 表格，请重新发送"
    assert "2020-11-08 20:00 收到贵分工会的邮件（主题“报名表”）" in m.body and "《报名表.pdf》" in m.body
    assert "（没有主题）" in q.body and "邮件没有附件" in q.body
    # the unit's proven form is named as standing; no other unit's data
    assert "《一分会报名表.xlsx》" in m.body and "二分会" not in m.body and "张三" not in m.body
    assert "《二分会.xlsx》" in q.body


def test_a_problem_line_gives_its_cell_once(world):
    """A receipt's line is [CODE] 位置：message, and a registration check's message starts
    with its place itself: the captain read ``[QUOTA_EXCEEDED] 报名表!B15：报名表!B15 …``."""
    import dataclasses

    first = world.state.issues[0]
    world.state.issues[0] = dataclasses.replace(first, message=f"报名表!E12 {first.message}")
    r = _by_sha(build_receipts(world.state, world.out))[sha("b")]
    assert "[QUOTA_EXCEEDED] 报名表!E12：象棋 “孙八” 超出名额" in r.body
    assert r.body.count("报名表!E12") == 1, r.body
