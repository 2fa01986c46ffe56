"""The office's mailbox as the inbox: fetch new messages over IMAP into ``inbox/mail/``.

Each new message is kept whole — in the ledger (``received/<sha256>.eml``) and as
``inbox/mail/<sha256>.eml`` so that the normal intake takes its attachments with the
mail's ``Date`` and sender.  Only after both copies exist and its UID is recorded in the
ledger table ``mail_fetched`` is the message flagged ``\\Seen`` on the server.  A run killed
at any point therefore loses nothing (an unflagged message is fetched again) and
duplicates nothing (its UID or its content hash is already known).

Candidates are the mailbox's UNSEEN messages plus every UID above the mailbox's
high-water mark from the previous fetch (table ``mail_cursor``), so a message someone
opened in a mail client before the night's run is still fetched, while years of old,
read mail in the office mailbox are not taken on the first run.  One whose ``\\Seen``
flag was lost is recognised by its UID (or its content hash) and not processed twice.

TLS: ``imaps://`` (implicit TLS, port 993) or ``imap://…?starttls=1`` (upgrade before
login).  The server's certificate and host name are always verified; a server whose
certificate comes from the office's own CA is trusted when ``$LEAGUE_MAIL_CAFILE`` (or
the ``cafile`` argument) names that CA's PEM file.  An unverifiable certificate is
refused with a :class:`MailError` that says so.
"""
from __future__ import annotations

import datetime as dt
import imaplib
import os
import re
import socket
import ssl
from pathlib import Path
from typing import TYPE_CHECKING

from ..fsutil import atomic_write_bytes
from .common import MailError, Tx, parse_mail_url, resolve_password, tls_context, tls_refusal

if TYPE_CHECKING:
    from ..store import Ledger

PASSWORD_ENV = "LEAGUE_IMAP_PASSWORD"
DEFAULT_PORTS = {"imap": 143, "imaps": 993}
INBOX_SUBDIR = "mail"

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


def fetch_into(url: str, inbox: Path, ledger: "Ledger", *, password: str | None = None,
               folder: str | None = None, timeout: float = 60.0, cafile: str | os.PathLike | None = None) -> int:
    """Fetch every new message of the mailbox named by ``url`` into ``inbox/mail/``.

    ``url`` is ``imap://user@host[:port]/FOLDER`` (plain) or ``imaps://…`` (TLS);
    ``?starttls=1`` upgrades a plain connection.  The password is ``password``, else
    ``$LEAGUE_IMAP_PASSWORD``, else the file named by ``$LEAGUE_IMAP_PASSWORD_FILE``.
    ``cafile`` (else ``$LEAGUE_MAIL_CAFILE``) adds a trusted CA for the server's certificate.
    ``folder`` overrides the URL's folder (default ``INBOX``).  Returns how many
    messages were new (never seen by this ledger before).  Raises :class:`MailError`.

    >>> fetch_into("imaps://office@mail.example.cn/INBOX", Path("t/inbox"), ledger)  # doctest: +SKIP
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
        return _fetch_new(conn, mailbox, uidvalidity, uidnext, Path(inbox), ledger)
    except (imaplib.IMAP4.error, OSError) as e:
        raise MailError(f"从 {u.host}:{u.port} 收取邮件时出错：{e}。已收下的邮件不受影响，下次运行会继续。") from e
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            pass


def _fetch_new(conn: imaplib.IMAP4, mailbox: str, uidvalidity: int, uidnext: int | None, inbox: Path,
               ledger: "Ledger") -> int:
    db = ledger.conn
    known_uids = {r[0] for r in db.execute(
        "SELECT uid FROM mail_fetched WHERE mailbox=? AND uidvalidity=?", (mailbox, uidvalidity))}
    row = db.execute("SELECT last_uid FROM mail_cursor WHERE mailbox=? AND uidvalidity=?",
                     (mailbox, uidvalidity)).fetchone()
    candidates = set(_search(conn, "UNSEEN"))
    if row is not None:             # (on first contact with a mailbox: UNSEEN only, not its old read mail)
        top = row[0]
        try:
            candidates |= {u for u in _search(conn, "UID", f"{top + 1}:*") if u > top}
        except imaplib.IMAP4.error:
            pass   # a server without UID-range search: UNSEEN alone
    new = 0
    for uid in sorted(candidates):
        if uid in known_uids:
            mark_seen(conn, uid)        # stored by an earlier run that stopped before flagging it
            continue
        fetched = _fetch_raw(conn, uid)
        if fetched is None:
            continue                    # expunged meanwhile
        raw, internal = fetched
        sha, _ = ledger.store_blob(raw, ".eml")
        seen_before = ledger.has(sha) or db.execute(
            "SELECT 1 FROM mail_fetched WHERE sha256=?", (sha,)).fetchone() is not None
        if not ledger.has(sha):
            target = inbox / INBOX_SUBDIR / f"{sha}.eml"
            if atomic_write_bytes(target, raw) and internal is not None:
                # the mail's own Date header wins at intake; this only helps mails without one
                os.utime(target, (internal.timestamp(), internal.timestamp()))
        with Tx(db):
            db.execute("INSERT OR IGNORE INTO mail_fetched VALUES (?,?,?,?,?)",
                       (mailbox, uidvalidity, uid, sha, dt.datetime.now(dt.timezone.utc).isoformat()))
        mark_seen(conn, uid)
        known_uids.add(uid)
        new += not seen_before
    mark = max([row[0] if row else 0, (uidnext or 1) - 1, *candidates])
    with Tx(db):
        db.execute("INSERT INTO mail_cursor VALUES (?,?,?) ON CONFLICT(mailbox, uidvalidity) "
                   "DO UPDATE SET last_uid=max(last_uid, excluded.last_uid)", (mailbox, uidvalidity, mark))
    return new


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


def _ok(resp: tuple[str, list], problem: str) -> list:
    typ, data = resp
    if typ != "OK":
        raise MailError(f"{problem}（服务器答复：{_text(data)}）")
    return data


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
