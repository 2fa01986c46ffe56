"""--imap on first contact with the office's mailbox fetches every message since the league's
notice, read (\\Seen) or not.

From an audit of mail intake: the first ``--imap`` run fetched only UNSEEN mail and then moved
its cursor past every UID, so the captains' mails the office had already opened in webmail
were never fetched — those units were silently missing at the deadline.
"""
from __future__ import annotations

import datetime as dt
import pytest

from pipeline.mail import fetch_into
from pipeline.run import RunOptions, run
from pipeline.store import Ledger
from pipeline.timeutil import TZ

from .conftest import IMAP_PASSWORD, captain_mail
from .test_receipt_no_workbook import _league


@pytest.fixture
def ledger(tmp_path):
    with Ledger(tmp_path / "out" / "t") as led:
        yield led


def _subjects(inbox):
    from pipeline.ingest.eml import parse_eml

    return sorted(parse_eml(p).subject for p in (inbox / "mail").glob("*.eml"))


def test_first_contact_fetches_read_mail_since_the_notice(imap_server, tmp_path, ledger):
    inbox = tmp_path / "t" / "inbox"
    old = dt.datetime(2019, 11, 2, 9, 30, tzinfo=dt.timezone.utc)
    imap_server.append(captain_mail("old@a.example.cn", "去年的旧邮件", b"PK old", date=old, message_id="<old@a>"),
                       flags=r"(\Seen)", arrived=old)
    imap_server.append(captain_mail("cap1@a.example.cn", "已读的报名表", b"PK x", message_id="<x@a>"), flags=r"(\Seen)",
                       arrived=dt.datetime(2020, 11, 2, 9, 31, tzinfo=dt.timezone.utc))
    # arrived (INTERNALDATE) long after its Date: a mail moved in from another folder — taken
    imap_server.append(captain_mail("cap2@b.example.cn", "已读，日期写错", b"PK y", date=old, message_id="<y@b>"),
                       flags=r"(\Seen)")
    imap_server.append(captain_mail("cap3@c.example.cn", "未读的报名表", b"PK z", message_id="<z@c>"))
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD, since=dt.date(2020, 10, 30)) == 3
    assert _subjects(inbox) == sorted(["已读的报名表", "已读，日期写错", "未读的报名表"])
    # later nights: a new mail opened before the run is taken; nothing is taken twice
    imap_server.append(captain_mail("cap1@a.example.cn", "又一封已读", b"PK w", message_id="<w@a>"), flags=r"(\Seen)")
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD, since=dt.date(2020, 10, 30)) == 1
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD, since=dt.date(2020, 10, 30)) == 0


def test_first_contact_without_a_notice_date_fetches_every_message(imap_server, tmp_path, ledger):
    inbox = tmp_path / "t" / "inbox"
    old = dt.datetime(2019, 11, 2, 9, 30, tzinfo=dt.timezone.utc)
    imap_server.append(captain_mail("old@a.example.cn", "去年的", b"PK old", date=old, message_id="<old@a>"),
                       flags=r"(\Seen)", arrived=old)
    imap_server.append(captain_mail("cap1@a.example.cn", "已读", b"PK x", message_id="<x@a>"), flags=r"(\Seen)")
    assert fetch_into(imap_server.url(), inbox, ledger, password=IMAP_PASSWORD) == 2


def test_first_imap_night_takes_every_units_mail_read_or_not_and_a_hand_saved_copy_once(
        imap_server, tmp_path, monkeypatch):
    """The 2020 league's eleven registration mails in the office's mailbox, eight of them opened
    in webmail already, one also saved into inbox/ by hand: every unit is in, none twice."""
    folder = _league(tmp_path)
    mails = sorted((folder / "inbox").glob("*报名表.eml"))
    assert len(mails) == 11
    for i, p in enumerate(mails):
        imap_server.append(p.read_bytes(), flags=r"(\Seen)" if i < 8 else None,
                           arrived=dt.datetime(2020, 11, 6, 12, 0, tzinfo=TZ))
    kept = mails[0]
    for p in mails[1:]:
        p.unlink()
    monkeypatch.setenv("LEAGUE_IMAP_PASSWORD", IMAP_PASSWORD)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, imap_url=imap_server.url(),
                            now=dt.datetime(2020, 11, 7, 20, 0, tzinfo=TZ)))
    assert len(list((folder / "inbox" / "mail").glob("*.eml"))) == 11
    accepted = [s.branch for s in report.state.submissions if s.status == "accepted"]
    assert sorted(accepted) == sorted(set(accepted)) and len(accepted) == 11, accepted
    # the hand-saved copy and its fetched twin are one mail: no second form superseding the first
    assert not [s for s in report.state.submissions if s.status == "superseded"], kept.name
