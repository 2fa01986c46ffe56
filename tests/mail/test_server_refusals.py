"""What a mail server refuses stops only what it refuses, and the office is told in Chinese.

Named after the contract's items (it has none about mail by name): *Exit status* — 1 when
the run needs attention; *Messages are in Chinese … say what to change*; *idempotent* — an
unchanged night does nothing again.

Before: one message the IMAP server would not hand over (FETCH answered NO) raised
``MailError: 读取邮件 UID 102 失败`` every night and UID 103 was never fetched; a read-only
mailbox (STORE answered ``NO [NOPERM]``) let one message in, then failed every night at
its \\Seen flag.  A receipt to a dead address (``550 5.1.1``) was retried every night with
a raw ``SMTPRecipientsRefused``, and one of two addresses refused was only written to the
ledger's error column.
"""
from __future__ import annotations

import dataclasses
import imaplib

import pytest

from pipeline.mail import deliver, fetch_into, resend_pending
from pipeline.mail.smtp import bad_address, receipt_status
from pipeline.spec import Tournament
from pipeline.store import Ledger

from .conftest import IMAP_PASSWORD, NOW, CapturingHandler, SmtpServer, captain_mail, sha


@pytest.fixture
def ledger(tmp_path):
    with Ledger(tmp_path / "out" / "t") as led:
        yield led


def _three_mails(imap_server) -> list[int]:
    return [imap_server.append(captain_mail("cap1@a.example.cn", f"行政一 报名 {i}", b"PK %d" % i,
                                            message_id=f"<{i}@a>")) for i in range(3)]


def _refuse(monkeypatch, command: str, uid: str | None, answer: bytes) -> list[tuple]:
    """Make the server answer NO to ``command`` (for ``uid`` only, when given); the calls seen."""
    real = imaplib.IMAP4.uid
    calls: list[tuple] = []

    def uid_command(self, cmd, *args):
        calls.append((cmd.upper(), *args))
        # the whole message is refused; its headers alone are not (the subject can be said)
        if cmd.upper() == command and (uid is None or args[0] == uid) and (
                command != "FETCH" or "BODY.PEEK[]" in args[1]):
            return "NO", [answer]
        return real(self, cmd, *args)
    monkeypatch.setattr(imaplib.IMAP4, "uid", uid_command)
    return calls


def test_exit_status_1_a_mail_the_server_will_not_hand_over_is_skipped_said_and_asked_again(
        imap_server, tmp_path, ledger, monkeypatch):
    inbox = tmp_path / "t" / "inbox"
    first, bad, last = _three_mails(imap_server)
    calls = _refuse(monkeypatch, "FETCH", str(bad), b"[UNAVAILABLE] message cannot be fetched")
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 2     # was: MailError
    from pipeline.mail import fetch_mail
    fetched = {u for (u,) in ledger.conn.execute("SELECT uid FROM mail_fetched")}
    assert fetched == {first, last}                        # the one after the refused one too
    night = fetch_mail(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD)        # night 2
    assert night.new == 0 and not night.unmarked
    [said] = night.skipped
    assert f"UID {bad}（主题“行政一 报名 1”）无法读取，本次跳过，其余邮件照常收取" in said
    assert "下次运行会再试（共试 3 次）" in said and "放进 inbox" in said
    assert said.index("无法读取") < said.index("[UNAVAILABLE] message cannot be fetched")   # server's words after
    [said] = fetch_mail(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD).skipped  # night 3: the last
    assert "已试 3 次，以后不再自动收取" in said
    calls.clear()
    night = fetch_mail(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD)        # night 4: given up
    assert night.lines() == [] and not any(c[0] == "FETCH" and c[1] == str(bad) for c in calls)
    assert {u for (u,) in ledger.conn.execute("SELECT uid FROM mail_fetched")} == {first, last}


def test_exit_status_a_mail_refused_once_is_fetched_the_next_night(imap_server, tmp_path, ledger, monkeypatch):
    inbox = tmp_path / "t" / "inbox"
    first, bad, last = _three_mails(imap_server)
    _refuse(monkeypatch, "FETCH", str(bad), b"[UNAVAILABLE] try later")
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 2
    from pipeline.mail import fetch_mail
    imap_server.append(captain_mail("cap2@b.example.cn", "行政二 报名", b"PK new", message_id="<n@b>"))
    monkeypatch.undo()                                        # the server hands it over now
    night = fetch_mail(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD)
    assert night.new == 2 and night.lines() == []             # the refused one (behind the cursor) and the new
    assert len(list((inbox / "mail").glob("*.eml"))) == 4
    assert ledger.conn.execute("SELECT count(*) FROM mail_skipped").fetchone()[0] == 0
    assert all(r"\Seen" in f for f in imap_server.flags().values())


def test_idempotent_a_read_only_mailbox_gives_every_mail_once_and_says_so_once_a_night(
        imap_server, tmp_path, ledger, monkeypatch):
    inbox = tmp_path / "t" / "inbox"
    _three_mails(imap_server)
    calls = _refuse(monkeypatch, "STORE", None, b"[NOPERM] read-only")
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 3     # was: 1, then MailError
    from pipeline.mail import fetch_mail
    assert len(list((inbox / "mail").glob("*.eml"))) == 3
    for _ in range(2):                                        # later nights: nothing new, nothing twice
        calls.clear()
        night = fetch_mail(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD)
        assert night.new == 0 and night.skipped == []
        assert night.lines() == [night.unmarked] and "不允许把已收取的邮件标为已读" in night.unmarked
        assert "[NOPERM] read-only" in night.unmarked
        assert [c[0] for c in calls].count("STORE") == 1      # tried once, then not again that night
    assert len(list((inbox / "mail").glob("*.eml"))) == 3


class RefusingHandler(CapturingHandler):
    """Refuses at RCPT every address that starts with ``bounce`` (550 5.1.1), ``busy`` (450),
    ``relay`` (a bare ``550 Relaying denied``, no enhanced code: the sending server's setup)
    or ``gone`` (a bare ``550 User unknown``)."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("bounce"):
            return "550 5.1.1 user unknown"
        if address.startswith("relay") and not getattr(self, "relay_fixed", False):
            return "550 Relaying denied"
        if address.startswith("gone"):
            return "550 User unknown"
        if address.startswith("busy") and not getattr(self, "busy_over", False):
            return "450 4.2.1 mailbox busy, try later"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@pytest.fixture
def refusing_smtp():
    server = SmtpServer()
    server.handler = RefusingHandler()
    server.start()
    yield server
    server.stop()


def _with_emails(world, **emails):
    """The world's state with units' ``emails`` replaced, and workbook a sent by nobody
    registered (so its receipt goes to every registered address of u1)."""
    spec = world.state.tournament.spec
    units = [dataclasses.replace(u, emails=emails[u.id]) if u.id in emails else u for u in spec.units]
    old = world.state.tournament
    state = dataclasses.replace(world.state, tournament=Tournament(old.folder, dataclasses.replace(spec, units=units),
                                                                   old.secret))
    state.submissions = [dataclasses.replace(s, sender="") if s.sha256 == sha("a") else s
                         for s in state.submissions]
    return state


def test_messages_in_chinese_say_what_to_change_for_a_registered_address_refused_for_good(world, refusing_smtp):
    state = _with_emails(world, u1=["bounce-1@a.example.cn"], u2=["cap2@b.example.cn", "bounce-2@b.example.cn"])
    night = deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    assert receipt_status(world.ledger, sha("a")) == "refused"          # was: failed, retried every night
    assert receipt_status(world.ledger, sha("b")) == "sent"
    assert [s for s, _ in night.refused] == [sha("a")] and not night.failed
    assert [s for s, _ in night.partial] == [sha("b")] and sha("b") in night.sent
    assert night.needs_attention                                        # exit 1 on this night
    summary, *said = night.lines()
    assert summary == "回执：发出 1 封，1 封因登记邮箱被拒收未能送达（见下）。"
    whole, part = said
    assert whole.startswith("单位“行政第一分工会”的登记邮箱 bounce-1@a.example.cn 被对方邮件服务器拒收"
                            "（550 5.1.1 user unknown），请核对 tournament.yaml 中该单位的 emails 后再运行")
    assert "地址改正后的下一次运行会重发" in whole
    assert part.startswith("单位“行政第二分工会”的登记邮箱 bounce-2@b.example.cn 被对方邮件服务器拒收（550 5.1.1")
    assert "已发到 cap2@b.example.cn" in part                           # was: only in the ledger
    assert "SMTPRecipientsRefused" not in " ".join(night.lines()) and "b'" not in " ".join(night.lines())
    assert [m.rcpt_tos for m in refusing_smtp.handler.messages] == [["cap2@b.example.cn"]]
    # unchanged nights: not sent again, not said again, no exit 1 for it
    for again in (deliver(state, world.out, world.ledger, refusing_smtp.url, NOW),
                  resend_pending(refusing_smtp.url, world.ledger, now=NOW)):
        assert again.sent == [] and again.failed == [] and again.refused == [] and again.held == 1
        assert not again.needs_attention and "改正 tournament.yaml 中该单位的 emails 后自动重发" in again.summary()
    assert len(refusing_smtp.handler.messages) == 1
    # the address corrected in tournament.yaml: the receipt goes out
    fixed = _with_emails(world, u1=["cap1-new@a.example.cn"], u2=["cap2@b.example.cn", "bounce-2@b.example.cn"])
    night = deliver(fixed, world.out, world.ledger, refusing_smtp.url, NOW)
    assert night.sent == [sha("a")] and night.held == 0 and not night.needs_attention
    assert refusing_smtp.handler.messages[-1].rcpt_tos == ["cap1-new@a.example.cn"]
    assert receipt_status(world.ledger, sha("a")) == "sent"


def test_exit_status_a_temporary_refusal_is_said_in_chinese_and_retried(world, refusing_smtp):
    state = _with_emails(world, u1=["busy-1@a.example.cn"])
    night = deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    assert receipt_status(world.ledger, sha("a")) == "failed"
    why = night.failed[0][1]                    # was: SMTPRecipientsRefused: {'busy-1@…': (450, b'…')}
    assert why.startswith("单位“行政第一分工会”的登记邮箱 busy-1@a.example.cn 被对方邮件服务器暂时拒收"
                          "（450 4.2.1 mailbox busy, try later）")
    assert [s for s, _ in night.failed] == [sha("a")] and night.refused == [] and night.needs_attention
    assert "下次运行自动重试" in night.summary()
    refusing_smtp.handler.busy_over = True
    assert resend_pending(refusing_smtp.url, world.ledger, now=NOW).sent == [sha("a")]
    assert receipt_status(world.ledger, sha("a")) == "sent"


def test_exit_status_a_bare_550_is_a_wrong_address_only_when_its_words_say_so():
    # was: every 550 / 551 / 553 without an enhanced code counted as a wrong address
    for code, words in [(550, "Relaying denied"), (550, "relay not permitted"), (550, "Unable to relay"),
                        (550, "Authentication required"), (553, "authentication is required"),
                        (550, "Message rejected as spam"), (554, "DT:SPM 发送的邮件内容包含了未被许可的信息"),
                        (553, "sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)"),
                        (550, "Sender address rejected: not logged in"), (550, "MI:SPF mail from denied"),
                        (550, "Your IP is listed in a blacklist"), (550, "Mail blocked by policy"),
                        (550, "Error: content rejected"), (552, "Quota exceeded"), (550, "Mailbox full"),
                        (550, "Administrative prohibition"), (550, "Access denied"),
                        (550, "邮件被识别为垃圾邮件，拒绝投递"), (550, "不允许转发（中继）"), (553, "请先登录（需要身份认证）"),
                        (550, "发件人地址不在白名单中，已被拦截")]:
        assert not bad_address(code, words.encode()), (code, words)
    for code, words in [(550, "User unknown"), (550, "No such user here"), (550, "no such user: x@y.cn"),
                        (550, "Requested action not taken: mailbox unavailable"), (550, "Mailbox not found"),
                        (550, "Mailbox not found or access denied"), (550, "User not found: 12345@163.com"),
                        (550, "Invalid User"), (550, "Invalid recipient"), (550, "The email account does not exist"),
                        (551, "User not local; please try <x@y.cn>"), (550, "abcd:user not exist"),
                        (550, "unavailable mail user"), (550, "用户不存在"), (550, "该用户不存在"),
                        (550, "收件人地址不存在"), (550, "帐号已停用"),
                        (550, "Requested action not taken"), (553, "mailbox name not allowed")]:
        assert bad_address(code, words.encode()), (code, words)          # words unknown: as before
    assert not bad_address(450, b"User unknown") and bad_address(550, b"5.1.1 relaying denied")


def test_exit_status_a_bare_550_relaying_denied_stays_failed_says_the_sending_server_and_is_retried(
        world, refusing_smtp):
    state = _with_emails(world, u1=["relay-1@a.example.cn"])
    night = deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    assert receipt_status(world.ledger, sha("a")) == "failed"          # was: refused, never retried
    assert [s for s, _ in night.failed] == [sha("a")] and night.refused == [] and night.needs_attention
    why = night.failed[0][1]
    assert why.startswith("发件服务器拒绝投递到单位“行政第一分工会”的登记邮箱 relay-1@a.example.cn"
                          "（550 Relaying denied）") and "请联系邮件管理员" in why
    assert "请核对 tournament.yaml" not in why                         # was: told to fix a good address
    refusing_smtp.handler.relay_fixed = True                            # the mail administrator fixed it
    assert resend_pending(refusing_smtp.url, world.ledger, now=NOW).sent == [sha("a")]
    assert refusing_smtp.handler.messages[-1].rcpt_tos == ["relay-1@a.example.cn"]


def test_idempotent_a_receipt_partly_refused_goes_once_to_the_corrected_address_only(world, refusing_smtp):
    state = _with_emails(world, u2=["cap2@b.example.cn", "gone-2@b.example.cn"])
    night = deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    [(_, said)] = night.partial
    assert [m.rcpt_tos for m in refusing_smtp.handler.messages if sha("b")[:32] in m.content.decode()] \
        == [["cap2@b.example.cn"]]
    # the office corrects u2's address in tournament.yaml: the receipt goes to it, and only to it
    fixed = _with_emails(world, u2=["cap2@b.example.cn", "deputy-new@b.example.cn"])
    night = deliver(fixed, world.out, world.ledger, refusing_smtp.url, NOW)
    assert night.sent == [sha("b")] and not night.needs_attention      # was: already sent, never to the new one
    assert "补发给此前没有收到的登记邮箱" in night.summary()
    assert refusing_smtp.handler.messages[-1].rcpt_tos == ["deputy-new@b.example.cn"]
    assert receipt_status(world.ledger, sha("b")) == "sent"
    # later nights, changed or not: nobody gets it twice
    count = len(refusing_smtp.handler.messages)
    for again in (deliver(fixed, world.out, world.ledger, refusing_smtp.url, NOW),
                  resend_pending(refusing_smtp.url, world.ledger, now=NOW),
                  deliver(fixed, world.out, world.ledger, refusing_smtp.url, NOW)):
        assert again.sent == [] and not again.needs_attention
    assert len(refusing_smtp.handler.messages) == count
    # a receipt sent to every address is not sent to one added later (no old receipts to a new captain)
    added = _with_emails(world, u1=["cap1@a.example.cn", "another@a.example.cn"],
                         u2=["cap2@b.example.cn", "deputy-new@b.example.cn"])
    assert deliver(added, world.out, world.ledger, refusing_smtp.url, NOW).sent == []
    # what the office was told the night of the refusal says what the correction does
    assert "已发到 cap2@b.example.cn" in said and "只补发给改正后的地址" in said


def test_exit_status_a_receipt_one_of_whose_addresses_is_refused_for_now_is_retried_to_it_only(world, refusing_smtp):
    """Two addresses, one refused for now (450): the receipt goes to the other, the office is
    told the refused one is retried, and the next run — even one with nothing new — sends it
    to that address only, once.  Before, the receipt was recorded sent and never retried."""
    state = _with_emails(world, u2=["cap2@b.example.cn", "busy-2@b.example.cn"])
    night = deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    [(_, said)] = night.partial
    assert "busy-2@b.example.cn 被对方邮件服务器暂时拒收" in said and "已发到 cap2@b.example.cn" in said
    assert "下次运行自动重试" in said and "改正" not in said.split("：")[-1]
    assert receipt_status(world.ledger, sha("b")) == "failed"
    mine = [m.rcpt_tos for m in refusing_smtp.handler.messages if sha("b")[:32] in m.content.decode()]
    assert mine == [["cap2@b.example.cn"]]
    refusing_smtp.handler.busy_over = True
    count = len(refusing_smtp.handler.messages)
    again = resend_pending(refusing_smtp.url, world.ledger, now=NOW)                  # a night with nothing new
    assert again.sent == [sha("b")] and not again.needs_attention
    assert [m.rcpt_tos for m in refusing_smtp.handler.messages[count:]] == [["busy-2@b.example.cn"]]
    assert receipt_status(world.ledger, sha("b")) == "sent"
    for later in (deliver(state, world.out, world.ledger, refusing_smtp.url, NOW),
                  resend_pending(refusing_smtp.url, world.ledger, now=NOW)):
        assert later.sent == []
    assert len(refusing_smtp.handler.messages) == count + 1


def test_a_receipt_refused_for_now_on_one_address_is_retried_by_a_night_that_builds_receipts(world, refusing_smtp):
    """The same retry from a night that builds its receipts again (deliver), not from the
    kept copy: only the address refused for now gets it."""
    state = _with_emails(world, u2=["cap2@b.example.cn", "busy-2@b.example.cn"])
    deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    refusing_smtp.handler.busy_over = True
    count = len(refusing_smtp.handler.messages)
    night = deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    assert night.sent == [sha("b")]
    assert [m.rcpt_tos for m in refusing_smtp.handler.messages[count:]] == [["busy-2@b.example.cn"]]
    assert deliver(state, world.out, world.ledger, refusing_smtp.url, NOW).sent == []


def test_idempotent_a_receipt_retried_after_a_450_is_not_sent_to_a_captain_added_later(world, refusing_smtp):
    """Refused for now (450) on one address, then delivered there: the receipt has gone to
    every address, and a captain added to the unit later is not sent this old receipt (it
    stayed open to every address added, as a receipt with sent_before)."""
    state = _with_emails(world, u2=["cap2@b.example.cn", "busy-2@b.example.cn"])
    deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    refusing_smtp.handler.busy_over = True
    assert resend_pending(refusing_smtp.url, world.ledger, now=NOW).sent == [sha("b")]
    added = _with_emails(world, u2=["cap2@b.example.cn", "busy-2@b.example.cn", "new-captain@b.example.cn"])
    assert sha("b") not in deliver(added, world.out, world.ledger, refusing_smtp.url, NOW).sent
    assert [m.rcpt_tos for m in refusing_smtp.handler.messages if sha("b")[:32] in m.content.decode()] == [
        ["cap2@b.example.cn"], ["busy-2@b.example.cn"]]


def test_idempotent_a_retry_from_the_kept_copy_skips_addresses_that_had_it(world, refusing_smtp):
    """A row owed to some addresses whose to_addr still names one that had it (sent_before):
    the unchanged night's retry goes to the others only; with none left it is recorded sent."""
    from pipeline.mail import smtp as smtp_mod

    state = _with_emails(world, u2=["cap2@b.example.cn", "busy-2@b.example.cn"])
    deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)          # cap2 took it, busy-2 450
    world.ledger.conn.execute("UPDATE receipts SET to_addr=? WHERE sha256=?",
                              ("cap2@b.example.cn,busy-2@b.example.cn", sha("b")))
    world.ledger.conn.commit()
    refusing_smtp.handler.busy_over = True
    count = len(refusing_smtp.handler.messages)
    assert resend_pending(refusing_smtp.url, world.ledger, now=NOW).sent == [sha("b")]
    assert [m.rcpt_tos for m in refusing_smtp.handler.messages[count:]] == [["busy-2@b.example.cn"]]
    with smtp_mod.Tx(world.ledger.conn) as db:      # owed to nobody left: recorded sent, nothing sent
        db.execute("UPDATE receipts SET status='failed', to_addr=?, sent_before=? WHERE sha256=?",
                   ("cap2@b.example.cn", "cap2@b.example.cn,busy-2@b.example.cn", sha("b")))
    assert resend_pending(refusing_smtp.url, world.ledger, now=NOW).sent == []
    assert len(refusing_smtp.handler.messages) == count + 1 and receipt_status(world.ledger, sha("b")) == "sent"


def test_exit_status_a_resend_to_the_corrected_address_that_fails_is_retried_to_it_only(world, refusing_smtp):
    state = _with_emails(world, u2=["cap2@b.example.cn", "gone-2@b.example.cn"])
    deliver(state, world.out, world.ledger, refusing_smtp.url, NOW)
    fixed = _with_emails(world, u2=["cap2@b.example.cn", "busy-new@b.example.cn"])
    night = deliver(fixed, world.out, world.ledger, refusing_smtp.url, NOW)
    assert [s for s, _ in night.failed] == [sha("b")] and night.needs_attention   # was: nothing sent, nothing said
    assert "busy-new@b.example.cn 被对方邮件服务器暂时拒收" in night.failed[0][1]
    refusing_smtp.handler.busy_over = True
    count = len(refusing_smtp.handler.messages)
    assert resend_pending(refusing_smtp.url, world.ledger, now=NOW).sent == [sha("b")]   # an unchanged night
    assert [m.rcpt_tos for m in refusing_smtp.handler.messages[count:]] == [["busy-new@b.example.cn"]]
    assert deliver(fixed, world.out, world.ledger, refusing_smtp.url, NOW).sent == []
    assert resend_pending(refusing_smtp.url, world.ledger, now=NOW).sent == []
    assert len(refusing_smtp.handler.messages) == count + 1


def test_idempotent_a_ledger_from_before_sends_a_partly_refused_receipt_to_the_corrected_address_only(
        world, refusing_smtp):
    # a ledger written by the code before: no sent_before column, the refused address in to_addr
    world.ledger.conn.executescript("""
        CREATE TABLE receipts (sha256 TEXT PRIMARY KEY, to_addr TEXT NOT NULL, sent_at TEXT NOT NULL DEFAULT '',
                               status TEXT NOT NULL, error TEXT NOT NULL DEFAULT '');""")
    world.ledger.conn.execute("INSERT INTO receipts VALUES (?, ?, ?, 'sent', ?)",
                              (sha("b"), "cap2@b.example.cn,gone-2@b.example.cn", NOW.isoformat(),
                               "单位“行政第二分工会”的登记邮箱 gone-2@b.example.cn 被对方邮件服务器拒收（550 User unknown）"))
    fixed = _with_emails(world, u1=["cap1@a.example.cn"], u2=["cap2@b.example.cn", "deputy-new@b.example.cn"])
    night = deliver(fixed, world.out, world.ledger, refusing_smtp.url, NOW)
    assert sha("b") in night.sent                                       # was: already sent
    [to_b] = [m.rcpt_tos for m in refusing_smtp.handler.messages if sha("b")[:32] in m.content.decode()]
    assert to_b == ["deputy-new@b.example.cn"]
    assert sha("b") not in deliver(fixed, world.out, world.ledger, refusing_smtp.url, NOW).sent
