"""Fetching the office's mailbox over IMAP (a real pymap server on loopback)."""
from __future__ import annotations

import datetime as dt

import pytest

from pipeline.ingest.eml import parse_eml
from pipeline.mail import MailError, fetch_into
from pipeline.mail import imap as imap_mod
from pipeline.mail.imap import imap_utf7
from pipeline.store import Ledger, sha256

from .conftest import IMAP_PASSWORD, captain_mail


@pytest.fixture
def ledger(tmp_path):
    with Ledger(tmp_path / "out" / "t") as led:
        yield led


@pytest.fixture
def inbox(tmp_path):
    return tmp_path / "t" / "inbox"


def _two_mails(imap_server) -> list[bytes]:
    raws = [captain_mail("cap1@a.example.cn", "行政一 报名", b"PK workbook one", message_id="<1@a>"),
            captain_mail("cap2@b.example.cn", "行政二 报名", b"PK workbook two", name="二分会.xlsx",
                         date=dt.datetime(2020, 11, 3, 1, 0, tzinfo=dt.timezone.utc), message_id="<2@b>")]
    for raw in raws:
        imap_server.append(raw)
    return raws


def _fetched_rows(ledger):
    return ledger.conn.execute("SELECT uid, sha256 FROM mail_fetched ORDER BY uid").fetchall()


def test_messages_fetched_once_stored_whole_and_seen_after(imap_server, inbox, ledger):
    raws = _two_mails(imap_server)
    n = fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD)
    assert n == 2
    files = sorted((inbox / "mail").glob("*.eml"))
    got = {p.read_bytes() for p in files}
    assert got == {r.replace(b"\n", b"\r\n") for r in raws}          # imaplib appends with CRLF line ends
    for p in files:
        data = p.read_bytes()
        assert p.name == f"{sha256(data)}.eml"                         # named by content hash
        assert (ledger.root / "received" / p.name).read_bytes() == data  # and kept whole in the ledger
    mails = sorted((parse_eml(p) for p in files), key=lambda m: m.sender)
    assert [m.sender for m in mails] == ["cap1@a.example.cn", "cap2@b.example.cn"]
    assert mails[1].date == dt.datetime(2020, 11, 3, 1, 0, tzinfo=dt.timezone.utc)
    assert [a.filename for a in mails[1].attachments] == ["二分会.xlsx"]
    assert mails[1].attachments[0].data == b"PK workbook two"
    assert all(r"\Seen" in f for f in imap_server.flags().values())
    assert len(_fetched_rows(ledger)) == 2
    # a second fetch finds nothing new and writes nothing
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 0
    assert sorted((inbox / "mail").glob("*.eml")) == files
    assert len(_fetched_rows(ledger)) == 2


def test_lost_seen_flag_does_not_duplicate(imap_server, inbox, ledger):
    _two_mails(imap_server)
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 2
    imap_server.unflag_seen()
    assert all(r"\Seen" not in f for f in imap_server.flags().values())
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 0
    assert len(list((inbox / "mail").glob("*.eml"))) == 2 and len(_fetched_rows(ledger)) == 2
    assert all(r"\Seen" in f for f in imap_server.flags().values())


def test_message_opened_in_a_mail_client_first_is_still_fetched(imap_server, inbox, ledger):
    old = dt.datetime(2019, 11, 2, 9, 30, tzinfo=dt.timezone.utc)
    imap_server.append(captain_mail("old@a.example.cn", "去年的旧邮件，已读", b"PK old", date=old, message_id="<old@a>"),
                       flags=r"(\Seen)", arrived=old)
    imap_server.append(captain_mail("cap1@a.example.cn", "未读", b"PK u", message_id="<u@a>"))
    # (on first contact: every message since the notice, read or not — the old one stays)
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD, since=dt.date(2020, 10, 30)) == 1
    imap_server.append(captain_mail("cap1@a.example.cn", "先被人打开过", b"PK x"), flags=r"(\Seen)")
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 1
    imap_server.append(captain_mail("cap1@a.example.cn", "也被打开过", b"PK y", message_id="<y@a>"), flags=r"(\Seen)")
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 1
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 0
    senders = sorted(parse_eml(p).subject for p in (inbox / "mail").glob("*.eml"))
    assert senders == sorted(["未读", "先被人打开过", "也被打开过"])


def test_kill_between_store_and_mark_seen_loses_nothing_duplicates_nothing(imap_server, inbox, ledger, monkeypatch):
    _two_mails(imap_server)
    real = imap_mod.mark_seen

    def killed(conn, uid):
        raise KeyboardInterrupt("killed before flagging")
    monkeypatch.setattr(imap_mod, "mark_seen", killed)
    with pytest.raises(KeyboardInterrupt):
        fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD)
    # the first message is stored and recorded, but not flagged on the server
    assert len(list((inbox / "mail").glob("*.eml"))) == 1 and len(_fetched_rows(ledger)) == 1
    assert all(r"\Seen" not in f for f in imap_server.flags().values())
    monkeypatch.setattr(imap_mod, "mark_seen", real)
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 1   # only the second is new
    assert len(list((inbox / "mail").glob("*.eml"))) == 2 and len(_fetched_rows(ledger)) == 2
    assert all(r"\Seen" in f for f in imap_server.flags().values())


def test_kill_before_recording_refetches_the_message(imap_server, inbox, ledger, monkeypatch):
    _two_mails(imap_server)

    def killed(path, data, durable=None):
        raise KeyboardInterrupt("killed while writing the inbox copy")
    monkeypatch.setattr(imap_mod, "atomic_write_bytes", killed)
    with pytest.raises(KeyboardInterrupt):
        fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD)
    assert _fetched_rows(ledger) == [] and not list(inbox.rglob("*.eml"))
    monkeypatch.undo()
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 2
    assert len(list((inbox / "mail").glob("*.eml"))) == 2


def test_same_mail_under_a_new_uid_is_not_new(imap_server, inbox, ledger):
    raw = captain_mail("cap1@a.example.cn", "报名", b"PK same")
    imap_server.append(raw)
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 1
    imap_server.append(raw)                      # e.g. copied back by a mail client
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 0
    assert len(list((inbox / "mail").glob("*.eml"))) == 1


def test_password_from_env_and_file_and_never_from_url(imap_server, inbox, ledger, monkeypatch, tmp_path):
    _two_mails(imap_server)
    monkeypatch.delenv("LEAGUE_IMAP_PASSWORD", raising=False)
    monkeypatch.delenv("LEAGUE_IMAP_PASSWORD_FILE", raising=False)
    with pytest.raises(MailError, match="LEAGUE_IMAP_PASSWORD"):
        fetch_into(imap_server.url(), inbox, ledger)
    pw = tmp_path / "imap.pw"
    pw.write_text(IMAP_PASSWORD + "\n")
    monkeypatch.setenv("LEAGUE_IMAP_PASSWORD_FILE", str(pw))
    assert fetch_into(imap_server.url(), inbox, ledger) == 2
    monkeypatch.setenv("LEAGUE_IMAP_PASSWORD", "wrong")
    with pytest.raises(MailError, match="登录"):
        fetch_into(imap_server.url(), inbox, ledger)
    with pytest.raises(MailError, match="含有密码"):
        fetch_into(f"imap://office:{IMAP_PASSWORD}@127.0.0.1:{imap_server.port}/INBOX", inbox, ledger)


def test_chinese_folder_and_missing_folder(imap_server, inbox, ledger):
    c = imap_server.client()
    assert c.create(imap_utf7("报名"))[0] == "OK"
    c.logout()
    imap_server.append(captain_mail("cap1@a.example.cn", "报名", b"PK z"), folder=imap_utf7("报名"))
    assert fetch_into(imap_server.url("报名"), inbox, ledger, password=IMAP_PASSWORD) == 1
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 0     # INBOX is empty
    with pytest.raises(MailError, match="没有文件夹“不存在”"):
        fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD, folder="不存在")


def test_server_down_is_a_mail_error(inbox, ledger):
    from .conftest import free_port
    with pytest.raises(MailError, match="无法连接收件服务器"):
        fetch_into(f"imap://office@127.0.0.1:{free_port()}/INBOX", inbox, ledger, password="x", timeout=5)


def test_fetched_mail_goes_through_intake_with_its_date_sender_and_message_id(imap_server, tmp_path, ledger):
    from pipeline.issues import IssueLog
    from pipeline.mail.smtp import original_message_id
    from pipeline.run import intake

    from .conftest import make_tournament

    t = make_tournament(tmp_path)
    _two_mails(imap_server)
    assert fetch_into(imap_server.url(), t.inbox, ledger, password=IMAP_PASSWORD) == 2
    assert intake(t, ledger, IssueLog()) == 4                      # two mails, two attachments
    books = {r.file_name: r for r in ledger.received() if r.ext == ".xlsx"}
    two = books["二分会.xlsx"]
    assert two.sender == "cap2@b.example.cn"
    assert two.received_at == dt.datetime(2020, 11, 3, 1, 0, tzinfo=dt.timezone.utc)
    assert original_message_id(ledger, two.sha256) == "<2@b>"
    # nothing new on the next night
    assert fetch_into(imap_server.url(), t.inbox, ledger, password=IMAP_PASSWORD) == 0
    assert intake(t, ledger, IssueLog()) == 0
