"""What the IMAP and SMTP edges share: mail-server URLs, passwords, typed errors, and
short ledger transactions.

A server is named by a URL such as ``imaps://office@mail.example.edu.cn/报名`` or
``smtp://relay.example.edu.cn:587?starttls=1``.  The password never comes from the URL
or the tournament spec: it is passed in, or read from an environment variable, or from
a file named by ``<VAR>_FILE`` (so cron jobs can keep it in a 0600 file).
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit


class MailError(Exception):
    """A mail server could not be used (bad URL, no password, refused, login failed).

    ``str()`` is a Chinese sentence for the union office saying what to check."""


@dataclass(frozen=True)
class MailURL:
    """A parsed ``scheme://[user@]host[:port][/path][?query]`` mail-server URL."""

    scheme: str
    host: str
    port: int
    user: str = ""
    path: str = ""
    query: dict[str, str] = field(default_factory=dict)

    @property
    def tls(self) -> bool:
        """True for the implicit-TLS schemes (imaps, smtps)."""
        return self.scheme.endswith("s")

    @property
    def starttls(self) -> bool:
        return self.query.get("starttls", "").lower() in ("1", "yes", "true", "on")


def parse_mail_url(url: str, default_ports: dict[str, int]) -> MailURL:
    """Parse a mail-server URL whose scheme is one of ``default_ports``.

    >>> parse_mail_url("imaps://cap%40x.cn@mail.x.cn/INBOX", {"imap": 143, "imaps": 993})
    MailURL(scheme='imaps', host='mail.x.cn', port=993, user='cap@x.cn', path='INBOX', query={})
    """
    parts = urlsplit((url or "").strip())
    scheme = parts.scheme.lower()
    if scheme not in default_ports:
        raise MailError(f"邮件服务器地址“{url}”的协议应为 {' 或 '.join(s + '://' for s in default_ports)}，"
                        "例如 imaps://用户名@主机/INBOX。")
    if parts.password is not None:
        raise MailError(f"邮件服务器地址“{_redact(url)}”里含有密码。请把密码从地址中删去，"
                        "改用环境变量（LEAGUE_IMAP_PASSWORD / LEAGUE_SMTP_PASSWORD）或其 _FILE 文件提供。")
    if not parts.hostname:
        raise MailError(f"邮件服务器地址“{url}”缺少主机名，例如 {scheme}://user@mail.example.cn。")
    try:
        port = parts.port or default_ports[scheme]
    except ValueError:
        raise MailError(f"邮件服务器地址“{url}”的端口号无效。") from None
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    return MailURL(scheme=scheme, host=parts.hostname, port=port, user=unquote(parts.username or ""),
                   path=unquote(parts.path.lstrip("/")), query=query)


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(":" + parts.password + "@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def resolve_password(given: str | None, env_var: str) -> str | None:
    """The password: ``given``, else ``$ENV_VAR``, else the first line of the file named by
    ``$ENV_VAR_FILE``; None when none is set.

    >>> resolve_password("pw", "NO_SUCH_VARIABLE_X")
    'pw'
    """
    if given is not None:
        return given
    value = os.environ.get(env_var)
    if value:
        return value
    file_name = os.environ.get(env_var + "_FILE")
    if file_name:
        try:
            text = Path(file_name).read_text(encoding="utf-8")
        except OSError as e:
            raise MailError(f"无法读取密码文件 {file_name}（环境变量 {env_var}_FILE）：{e.strerror or e}") from None
        return text.splitlines()[0] if text.strip() else None
    return None


class Tx:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
