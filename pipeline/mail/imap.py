"""The office's mailbox as the inbox: fetch new messages over IMAP into ``inbox/mail/``.

Each new message is kept whole — in the ledger (``received/<sha256>.eml``) and as
``inbox/mail/<sha256>.eml`` so that the normal intake takes its attachments with the
mail's ``Date`` and sender.  Only after both copies exist and its UID is recorded in the
ledger table ``mail_fetched`` is the message flagged ``\\Seen`` on the server.  A run killed
at any point therefore loses nothing (an unflagged message is fetched again) and
duplicates nothing (its UID or its content hash is already known).

On first contact with a mailbox (no ``mail_cursor`` row) the candidates are every message
that arrived or is dated on or after the day before the league's notice date (every message
when none is configured), read or not: a captain's mail the office had already opened in
webmail was never fetched — only UNSEEN ones were, and the cursor then moved past it (from
an audit of mail intake: units silently missing at the deadline).  After that they are the
mailbox's UNSEEN messages plus every UID above the high-water mark from the previous fetch
(table ``mail_cursor``), so a message someone opened in a mail client before the night's run
is still fetched.  ``\\Seen`` never makes a message skipped; one whose ``\\Seen`` flag was
lost is recognised by its UID (or its content hash) and not processed twice, and a mail also
saved into ``inbox/`` by hand is one mail (intake: same Message-ID).

One message the server will not hand over (its FETCH answered NO or BAD) stops nothing:
it is skipped and said (:class:`FetchReport`: UID and subject when the server gives the
headers, "may need to be taken out of the mailbox by hand"), the rest are fetched, and
the cursor moves on as usual.  The skipped UID is kept in the ledger table
``mail_skipped`` and tried again on each of the next nights, :data:`FETCH_ATTEMPTS`
nights in all; the night it fails for the last time says that it will not be tried
again.  (A UNSEEN search alone would have brought it back every night forever.)  A
message fetched but not flagged ``\\Seen`` (a read-only or shared mailbox: STORE answers
``NO [NOPERM]``) is already in the ledger, so that stops nothing either: the night says
once that the mailbox could not be marked read, and tries no further STORE.  A failure
of the connection itself (login, a server gone mid-fetch) is still the night's
:class:`MailError`.

TLS: ``imaps://`` (implicit TLS, port 993) or ``imap://…?starttls=1`` (upgrade before
login).  The server's certificate and host name are always verified; a server whose
certificate comes from the office's own CA is trusted when ``$LEAGUE_MAIL_CAFILE`` (or
the ``cafile`` argument) names that CA's PEM file.  An unverifiable certificate is
refused with a :class:`MailError` that says so.
"""
from __future__ import annotations

import datetime as dt
import email.policy
import imaplib
import os
import re
import socket
import ssl
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import TYPE_CHECKING

from ..fsutil import atomic_write_bytes
from .common import MailError, Tx, parse_mail_url, resolve_password, tls_context, tls_refusal

if TYPE_CHECKING:
    from ..store import Ledger

PASSWORD_ENV = "LEAGUE_IMAP_PASSWORD"
DEFAULT_PORTS = {"imap": 143, "imaps": 993}
INBOX_SUBDIR = "mail"
#: nights a message the server will not hand over is asked for, the first included
FETCH_ATTEMPTS = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS mail_fetched (
    mailbox     TEXT NOT NULL,
    uidvalidity INTEGER NOT NULL,
    uid         INTEGER NOT NULL,
    sha256      TEXT NOT NULL,
    fetched_at  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (mailbox, uidvalidity, uid)
);
CREATE INDEX IF NOT EXISTS mail_fetched_sha ON mail_fetched (sha256);
CREATE TABLE IF NOT EXISTS mail_skipped (
    mailbox     TEXT NOT NULL,
    uidvalidity INTEGER NOT NULL,
    uid         INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,
    subject     TEXT NOT NULL DEFAULT '',
    error       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (mailbox, uidvalidity, uid)
);
CREATE TABLE IF NOT EXISTS mail_cursor (
    mailbox     TEXT NOT NULL,
    uidvalidity INTEGER NOT NULL,
    last_uid    INTEGER NOT NULL,
    PRIMARY KEY (mailbox, uidvalidity)
);
"""


def ensure_schema(ledger: "Ledger") -> None:
    """Create the ``mail_fetched`` table in the ledger when it is missing."""
    ledger.conn.executescript(SCHEMA)


@dataclass
class FetchReport:
    """What one night's fetch did: how many messages were new, and what the office should
    hear about (each a Chinese sentence)."""

    new: int = 0
    #: messages the server would not hand over this night (skipped; the rest were fetched)
    skipped: list[str] = field(default_factory=list)
    #: the mailbox could not be marked read (said once a night; fetching went on)
    unmarked: str = ""

    def lines(self) -> list[str]:
        """The night's report lines, the skipped messages first.

        >>> FetchReport(1, unmarked="x").lines()
        ['x']
        """
        return [*self.skipped, *([self.unmarked] if self.unmarked else [])]


def fetch_into(url: str, inbox: Path, ledger: "Ledger", *, password: str | None = None,
               folder: str | None = None, timeout: float = 60.0, cafile: str | os.PathLike | None = None,
               since: dt.date | None = None) -> int:
    """Fetch every new message of the mailbox named by ``url`` into ``inbox/mail/``; how
    many were new.  :func:`fetch_mail` also tells what else the night should say.

    >>> fetch_into("imaps://office@mail.example.cn/INBOX", Path("t/inbox"), ledger)  # doctest: +SKIP
    2
    """
    return fetch_mail(url, inbox, ledger, password=password, folder=folder, timeout=timeout, cafile=cafile,
                      since=since).new


def fetch_mail(url: str, inbox: Path, ledger: "Ledger", *, password: str | None = None,
               folder: str | None = None, timeout: float = 60.0,
               cafile: str | os.PathLike | None = None, since: dt.date | None = None) -> FetchReport:
    """Fetch every new message of the mailbox named by ``url`` into ``inbox/mail/``.

    ``url`` is ``imap://user@host[:port]/FOLDER`` (plain) or ``imaps://…`` (TLS);
    ``?starttls=1`` upgrades a plain connection.  The password is ``password``, else
    ``$LEAGUE_IMAP_PASSWORD``, else the file named by ``$LEAGUE_IMAP_PASSWORD_FILE``.
    ``cafile`` (else ``$LEAGUE_MAIL_CAFILE``) adds a trusted CA for the server's certificate.
    ``folder`` overrides the URL's folder (default ``INBOX``).  ``since``: the league's
    notice date — on first contact with the mailbox every message from about then on is
    fetched, read or not (:func:`_first_contact`); all of them when None.  Returns a
    :class:`FetchReport`: how many messages were new (never seen by this ledger before),
    the messages skipped because the server would not hand them over, and whether the
    mailbox could not be marked read.  Raises :class:`MailError` when the server cannot
    be used at all (address, password, connection).

    >>> fetch_mail("imaps://office@mail.example.cn/INBOX", Path("t/inbox"), ledger).new  # doctest: +SKIP
    2
    """
    u = parse_mail_url(url, DEFAULT_PORTS)
    mailbox = folder or u.path or "INBOX"
    secret = resolve_password(password, PASSWORD_ENV)
    if not u.user:
        raise MailError(f"收件地址“{url}”缺少用户名，应写成 {u.scheme}://用户名@{u.host}/{mailbox}。")
    if secret is None:
        raise MailError(f"没有收件邮箱 {u.user}@{u.host} 的密码：请设置环境变量 {PASSWORD_ENV}，"
                        f"或把密码写入文件并用 {PASSWORD_ENV}_FILE 指向它。")
    ctx = tls_context(cafile) if (u.tls or u.starttls) else None
    ensure_schema(ledger)
    conn = _connect(u, timeout, ctx)
    try:
        try:
            conn.login(u.user, secret)
        except imaplib.IMAP4.error as e:
            raise MailError(f"登录收件邮箱 {u.user}@{u.host} 失败（{e}），请检查用户名和密码。") from e
        typ, _ = conn.select(_quote(mailbox))
        if typ != "OK":
            raise MailError(f"邮箱 {u.user}@{u.host} 中没有文件夹“{mailbox}”，请检查地址最后的文件夹名。")
        uidvalidity = _uidvalidity(conn, _quote(mailbox))
        uidnext = _response_int(conn, "UIDNEXT")
        return _fetch_new(conn, mailbox, uidvalidity, uidnext, Path(inbox), ledger, since)
    except (imaplib.IMAP4.error, OSError) as e:
        raise MailError(f"从 {u.host}:{u.port} 收取邮件时出错：{e}。已收下的邮件不受影响，下次运行会继续。") from e
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            pass


def _fetch_new(conn: imaplib.IMAP4, mailbox: str, uidvalidity: int, uidnext: int | None, inbox: Path,
               ledger: "Ledger", since: dt.date | None = None) -> FetchReport:
    db = ledger.conn
    report = FetchReport()
    known_uids = {r[0] for r in db.execute(
        "SELECT uid FROM mail_fetched WHERE mailbox=? AND uidvalidity=?", (mailbox, uidvalidity))}
    row = db.execute("SELECT last_uid FROM mail_cursor WHERE mailbox=? AND uidvalidity=?",
                     (mailbox, uidvalidity)).fetchone()
    candidates = set(_search(conn, "UNSEEN"))
    if row is None:                 # first contact: every message since the notice, read or not
        candidates |= _first_contact(conn, since)
    else:
        top = row[0]
        try:
            candidates |= {u for u in _search(conn, "UID", f"{top + 1}:*") if u > top}
        except imaplib.IMAP4.error:
            pass   # a server without UID-range search: UNSEEN alone
    skipped = {r[0]: r[1] for r in db.execute(
        "SELECT uid, attempts FROM mail_skipped WHERE mailbox=? AND uidvalidity=?", (mailbox, uidvalidity))}
    candidates |= {u for u, n in skipped.items() if n < FETCH_ATTEMPTS}     # behind the cursor: asked again
    candidates -= {u for u, n in skipped.items() if n >= FETCH_ATTEMPTS}    # given up (and said so)
    marking = True                  # until the first STORE refused: then no more this night

    def flag(uid: int) -> None:
        nonlocal marking
        if not marking:
            return
        try:
            mark_seen(conn, uid)
        except imaplib.IMAP4.abort:
            raise
        except _REFUSED as e:
            marking = False
            report.unmarked = (f"收件邮箱不允许把已收取的邮件标为已读（如只读或共享邮箱；首次是 UID {uid}："
                               f"{_answer(e)}）。邮件照常收取，已收过的不会重复处理；"
                               "只是这些邮件在邮箱中仍显示为未读。")
    for uid in sorted(candidates):
        if uid in known_uids:
            flag(uid)                   # stored by an earlier run that stopped before flagging it
            continue
        try:
            fetched = _fetch_raw(conn, uid)
        except _REFUSED as e:
            report.skipped.append(_skip(conn, db, mailbox, uidvalidity, uid, skipped.get(uid, 0) + 1, e))
            continue
        if uid in skipped:
            with Tx(db):
                db.execute("DELETE FROM mail_skipped WHERE mailbox=? AND uidvalidity=? AND uid=?",
                           (mailbox, uidvalidity, uid))
        if fetched is None:
            continue                    # expunged meanwhile
        raw, internal = fetched
        sha, _ = ledger.store_blob(raw, ".eml")
        seen_before = ledger.has(sha) or db.execute(
            "SELECT 1 FROM mail_fetched WHERE sha256=?", (sha,)).fetchone() is not None
        if not ledger.has(sha):
            target = inbox / INBOX_SUBDIR / f"{sha}.eml"
            if atomic_write_bytes(target, raw, durable=True) and internal is not None:
                # the mail's own Date header wins at intake; this only helps mails without one
                os.utime(target, (internal.timestamp(), internal.timestamp()))
        with Tx(db):
            db.execute("INSERT OR IGNORE INTO mail_fetched VALUES (?,?,?,?,?)",
                       (mailbox, uidvalidity, uid, sha, dt.datetime.now(dt.timezone.utc).isoformat()))
        flag(uid)
        known_uids.add(uid)
        report.new += not seen_before
    mark = max([row[0] if row else 0, (uidnext or 1) - 1, *candidates])
    with Tx(db):
        db.execute("INSERT INTO mail_cursor VALUES (?,?,?) ON CONFLICT(mailbox, uidvalidity) "
                   "DO UPDATE SET last_uid=max(last_uid, excluded.last_uid)", (mailbox, uidvalidity, mark))
    return report


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _first_contact(conn: imaplib.IMAP4, since: dt.date | None) -> set[int]:
    """The UIDs to fetch on first contact with a mailbox, whether ``\\Seen`` or not: every
    message that arrived (INTERNALDATE) or is dated (its Date header) on or after the day
    before ``since`` (the notice date; a day early: IMAP compares dates without their zones,
    and a mail at 00:30 Beijing time is the day before in UTC), every message when ``since``
    is None or the server refuses such a search.  Only UNSEEN ones were taken: a captain's
    mail the office had opened in webmail before the first ``--imap`` run was never fetched
    (the cursor moved past it), and the unit was missing at the deadline without a word."""
    if since is None:
        return set(_search(conn, "ALL"))
    d = since - dt.timedelta(days=1)
    day = f"{d.day}-{_MONTHS[d.month - 1]}-{d.year}"       # RFC 3501 date: 29-Oct-2020
    try:
        return set(_search(conn, "OR", "SINCE", day, "SENTSINCE", day))
    except _REFUSED:
        return set(_search(conn, "ALL"))


def _skip(conn: imaplib.IMAP4, db, mailbox: str, uidvalidity: int, uid: int, attempt: int,
          error: Exception) -> str:
    """Record that ``uid`` could not be fetched (its ``attempt``-th night) and say so."""
    if isinstance(error, imaplib.IMAP4.abort):
        raise error
    subject = _subject(conn, uid)
    with Tx(db):
        db.execute("INSERT INTO mail_skipped VALUES (?,?,?,?,?,?) ON CONFLICT(mailbox, uidvalidity, uid) "
                   "DO UPDATE SET attempts=excluded.attempts, subject=excluded.subject, error=excluded.error",
                   (mailbox, uidvalidity, uid, attempt, subject, _answer(error)[:500]))
    which = f"UID {uid}" + (f"（主题“{subject}”）" if subject else "（主题未知）")
    if attempt < FETCH_ATTEMPTS:
        later = f"下次运行会再试（共试 {FETCH_ATTEMPTS} 次）"
    else:
        later = f"已试 {FETCH_ATTEMPTS} 次，以后不再自动收取"
    return (f"收件邮箱中的邮件 {which}无法读取，本次跳过，其余邮件照常收取；{later}。"
            f"请在邮箱中查看这封邮件，必要时把它另存为 .eml 文件放进 inbox。（{_answer(error)}）")


def _subject(conn: imaplib.IMAP4, uid: int) -> str:
    """The Subject of ``uid`` when the server gives its headers alone; "" otherwise."""
    try:
        typ, data = conn.uid("FETCH", str(uid), "(BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
    except imaplib.IMAP4.abort:
        raise
    except imaplib.IMAP4.error:
        return ""
    if typ != "OK":
        return ""
    raw = b"".join(item[1] for item in data or [] if isinstance(item, tuple) and isinstance(item[1], bytes))
    try:
        value = BytesHeaderParser(policy=email.policy.default).parsebytes(raw).get("Subject")
    except (ValueError, TypeError, LookupError):
        return ""
    return " ".join(str(value or "").split())[:80]


def mark_seen(conn: imaplib.IMAP4, uid: int) -> None:
    """Flag one message ``\\Seen`` by UID."""
    _ok(conn.uid("STORE", str(uid), "+FLAGS", r"(\Seen)"), f"无法把邮件 UID {uid} 标为已读。")


def _connect(u, timeout: float, ctx: ssl.SSLContext | None) -> imaplib.IMAP4:
    conn: imaplib.IMAP4 | None = None
    try:
        if u.tls:
            return imaplib.IMAP4_SSL(u.host, u.port, ssl_context=ctx, timeout=timeout)
        conn = imaplib.IMAP4(u.host, u.port, timeout=timeout)
        if u.starttls:
            conn.starttls(ssl_context=ctx)
        return conn
    except (OSError, socket.timeout, imaplib.IMAP4.error) as e:
        if conn is not None:
            try:
                conn.shutdown()
            except OSError:
                pass
        refusal = tls_refusal(u.host, u.port, e)
        if refusal:
            raise MailError(refusal + "本次只处理 inbox 中已有的文件。") from e
        raise MailError(f"无法连接收件服务器 {u.host}:{u.port}（{e}）。请检查网络和地址；"
                        "本次只处理 inbox 中已有的文件。") from e


class _Refused(MailError):
    """The server answered one command NO (``answer``: its own words)."""

    def __init__(self, problem: str, answer: str) -> None:
        super().__init__(f"{problem}（服务器答复：{answer}）")
        self.answer = answer


def _ok(resp: tuple[str, list], problem: str) -> list:
    typ, data = resp
    if typ != "OK":
        raise _Refused(problem, _text(data))
    return data


#: a refusal of one command about one message (NO, or BAD: imaplib raises ``error``) — not
#: ``abort`` (the connection is gone, re-raised where caught) and not OSError: those end the
#: night's fetch
_REFUSED = (_Refused, imaplib.IMAP4.error)


def _answer(error: Exception) -> str:
    """The server's own words of a refusal, for the end of a Chinese sentence."""
    return f"服务器答复：{error.answer}" if isinstance(error, _Refused) else f"{type(error).__name__}: {error}"


def _text(data: list) -> str:
    return " ".join(d.decode("utf-8", "replace") if isinstance(d, bytes) else str(d) for d in data or [])


def imap_utf7(name: str) -> str:
    """A folder name in IMAP's modified UTF-7 (RFC 3501 5.1.3), as servers expect it.

    >>> imap_utf7("报名"), imap_utf7("A&B")
    ('&YqVUDQ-', 'A&-B')
    """
    import base64

    out, run = [], []

    def flush() -> None:
        if run:
            b = base64.b64encode("".join(run).encode("utf-16-be")).decode().rstrip("=").replace("/", ",")
            out.append("&" + b + "-")
            run.clear()
    for ch in name:
        if 0x20 <= ord(ch) <= 0x7E:
            flush()
            out.append("&-" if ch == "&" else ch)
        else:
            run.append(ch)
    flush()
    return "".join(out)


def _quote(mailbox: str) -> str:
    if mailbox.startswith('"'):
        return mailbox
    mailbox = imap_utf7(mailbox)
    if re.search(r'[\s"(){%*\\\]]', mailbox):
        return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return mailbox


def _response_int(conn: imaplib.IMAP4, code: str) -> int | None:
    _, data = conn.response(code)
    try:
        return int(data[-1]) if data and data[-1] else None
    except (TypeError, ValueError):
        return None


def _uidvalidity(conn: imaplib.IMAP4, mailbox: str) -> int:
    value = _response_int(conn, "UIDVALIDITY")
    if value is not None:
        return value
    _, data = conn.status(mailbox, "(UIDVALIDITY)")
    m = re.search(rb"UIDVALIDITY (\d+)", b" ".join(d for d in data if isinstance(d, bytes)))
    return int(m.group(1)) if m else 0


def _search(conn: imaplib.IMAP4, *criteria: str) -> list[int]:
    data = _ok(conn.uid("SEARCH", None, *criteria), "搜索新邮件失败。")
    return [int(x) for d in data if d for x in d.split()]


def _fetch_raw(conn: imaplib.IMAP4, uid: int) -> tuple[bytes, dt.datetime | None] | None:
    """The message's raw RFC 822 bytes (``BODY.PEEK[]``: fetching does not flag it seen) and
    its INTERNALDATE; None when the server has no such UID."""
    data = _ok(conn.uid("FETCH", str(uid), "(INTERNALDATE BODY.PEEK[])"), f"读取邮件 UID {uid} 失败。")
    raw: bytes | None = None
    meta = b""
    for item in data:
        if isinstance(item, tuple):
            meta += item[0]
            if raw is None and re.search(rb"BODY\[\]", item[0]):
                raw = item[1]
        elif isinstance(item, bytes):
            meta += item
    if raw is None:
        return None
    internal = None
    m = re.search(rb'INTERNALDATE "[^"]+"', meta)
    if m:
        t = imaplib.Internaldate2tuple(m.group(0))
        if t is not None:
            import time
            internal = dt.datetime.fromtimestamp(time.mktime(t), dt.timezone.utc)
    return raw, internal
