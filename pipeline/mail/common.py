"""What the IMAP and SMTP edges share: mail-server URLs, passwords, typed errors, and
short ledger transactions.

A server is named by a URL such as ``imaps://office@mail.example.edu.cn/报名`` or
``smtp://relay.example.edu.cn:587?starttls=1``.  The password never comes from the URL
or the tournament spec: it is passed in, or read from an environment variable, or from
a file named by ``<VAR>_FILE`` (so cron jobs can keep it in a 0600 file).

TLS (``imaps://``, ``smtps://``, or ``?starttls=1``) always verifies the server's
certificate and host name.  A server whose certificate was issued by the office's own
CA is trusted when ``$LEAGUE_MAIL_CAFILE`` names that CA's PEM file (or the ``cafile``
argument of :func:`.imap.fetch_into` / :func:`.smtp.send_receipts` does); the system's
CAs stay trusted as well.  Verification is never switched off.
"""
from __future__ import annotations

import os
import sqlite3
import ssl
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


#: a working address of each kind, as the messages about a bad one give it
_EXAMPLE = {"imaps": "imaps://用户名@主机/INBOX",
            "smtps": "smtps://用户名%40域名@发件服务器（用户名%40域名 即发件邮箱，@ 写成 %40）"}


def parse_mail_url(url: str, default_ports: dict[str, int]) -> MailURL:
    """Parse a mail-server URL whose scheme is one of ``default_ports``.

    >>> parse_mail_url("imaps://cap%40x.cn@mail.x.cn/INBOX", {"imap": 143, "imaps": 993})
    MailURL(scheme='imaps', host='mail.x.cn', port=993, user='cap@x.cn', path='INBOX', query={})
    """
    example = _EXAMPLE["imaps" if "imaps" in default_ports else "smtps"]
    try:
        parts = urlsplit((url or "").strip())
        parts.hostname, parts.username, parts.password     # noqa: B018 - each may raise ValueError
    except ValueError as e:     # imaps://[x: "Invalid IPv6 URL" was a traceback
        raise MailError(f"邮件服务器地址“{url}”无法识别（{e}）：请检查方括号、@ 和冒号，例如 {example}。") from None
    scheme = parts.scheme.lower()
    if scheme not in default_ports:
        raise MailError(f"邮件服务器地址“{url}”的协议应为 {' 或 '.join(s + '://' for s in default_ports)}，"
                        f"例如 {example}。")
    if parts.password is not None:
        raise MailError(f"邮件服务器地址“{_redact(url)}”里含有密码。请把密码从地址中删去，"
                        "改用环境变量（LEAGUE_IMAP_PASSWORD / LEAGUE_SMTP_PASSWORD）或其 _FILE 文件提供。")
    if not parts.hostname:
        raise MailError(f"邮件服务器地址“{url}”缺少主机名，例如 {example}。")
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


CAFILE_ENV = "LEAGUE_MAIL_CAFILE"


def tls_context(cafile: str | os.PathLike | None = None) -> ssl.SSLContext:
    """A client TLS context that verifies certificates and host names: the system's CAs plus
    the PEM file ``cafile``, else ``$LEAGUE_MAIL_CAFILE`` when set.  Raises :class:`MailError`
    when that file is missing or holds no certificate.

    >>> tls_context().verify_mode == ssl.CERT_REQUIRED
    True
    """
    ctx = ssl.create_default_context()
    path = os.fspath(cafile) if cafile else os.environ.get(CAFILE_ENV, "").strip()
    if path:
        where = "" if cafile else f"（环境变量 {CAFILE_ENV}）"
        try:
            ctx.load_verify_locations(cafile=path)
        except FileNotFoundError:
            raise MailError(f"找不到 CA 证书文件“{path}”{where}：请改为邮件服务器 CA 证书（PEM 格式）的正确路径。") from None
        except (ssl.SSLError, OSError, ValueError) as e:
            raise MailError(f"无法读取 CA 证书文件“{path}”{where}（{e}）：请确认它是 PEM 格式的 CA 证书。") from None
    return ctx


def tls_refusal(host: str, port: int, error: BaseException) -> str | None:
    """The Chinese sentence for a server whose certificate could not be verified; None for any
    other error.

    >>> tls_refusal("mail.x.cn", 993, OSError("timed out")) is None
    True
    """
    if not isinstance(error, ssl.SSLCertVerificationError):
        return None
    reason = getattr(error, "verify_message", "") or str(error)
    return (f"邮件服务器 {host}:{port} 的证书无法验证（{reason}），已拒绝连接。"
            f"请确认地址中的主机名与服务器证书一致；若服务器使用本单位自签发的证书，"
            f"请把签发它的 CA 证书（PEM 文件）路径写入环境变量 {CAFILE_ENV}。")


class Tx:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
