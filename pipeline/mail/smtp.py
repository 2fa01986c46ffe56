"""Sending receipts over SMTP, exactly once each as far as the ledger can tell.

Every receipt is recorded in the ledger table ``receipts`` (one row per submission
sha256, or per sha256 of a mail that carried no workbook).  A receipt already ``sent`` is
never sent again; one that ``failed`` (connection refused, SMTP error) — or was
``sending`` when a run was killed — is sent again on the next run (a rare duplicate beats
a lost receipt; the Message-ID is stable, so mail clients fold duplicates).  The exact
message is kept under ``mail/outbox/<sha256>.eml`` so a failed one can be retried even on
a night whose run is otherwise unchanged (:func:`resend_pending`).

A recipient the receiving side refuses for good (5xx naming the address: ``550 5.1.1 user
unknown``, :func:`bad_address`) is a wrong registered address, not a passing failure.
When every address of a receipt is refused so, the receipt is ``refused``: the night says,
in Chinese, which unit's address and what to change in ``tournament.yaml`` (the server's
own words after it), and it is not sent again while its addresses stay the same — it was
retried every night, in vain, with a raw ``SMTPRecipientsRefused``.  A later night whose
receipt goes to other addresses (the unit's ``emails`` corrected) sends it as any other.
When only some addresses are refused, the receipt is ``sent`` to the rest and the refused
ones are said the same way (they were only in the ledger's error column).  A later night
whose receipt has addresses it was not sent to (the unit's ``emails`` corrected) sends it
to those only, once: the row's ``sent_before`` keeps the addresses it went to before,
never sent to again, whatever becomes of the resend (a failed one is retried, by
:func:`resend_pending` too, to the new addresses only).  Before, the receipt stayed
``sent`` and the corrected address never got it.  A receipt sent to every address is not
sent to one added later: a new captain is not sent the unit's old receipts.  A temporary
refusal (4xx), or a 5xx about anything but the address (``5.7.1`` relaying denied: the
sending server's setup), stays ``failed`` and is retried on the next run — of some addresses
only, the receipt is sent to the others and retried to those (``sent_before`` keeping the
others); it was recorded ``sent`` and never retried — so does a bare
``550`` / ``553`` without an enhanced code whose words are about relaying, login, spam or
the sender (``550 Relaying denied``: counted a wrong address, the office was told to
correct a unit's good address and the receipt was never retried).

TLS: ``smtps://`` (implicit TLS, port 465) or ``smtp://…?starttls=1`` (upgrade before
login).  The server's certificate and host name are always verified; a server whose
certificate comes from the office's own CA is trusted when ``$LEAGUE_MAIL_CAFILE`` (or
the ``cafile`` argument) names that CA's PEM file.  An unverifiable certificate fails the
pass like any connection problem: the receipts are recorded ``failed`` with a Chinese
error saying the certificate was refused, and retried on the next run.
"""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import os
import re
import smtplib
import ssl
from dataclasses import dataclass, field, replace
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, NamedTuple

from ..fsutil import atomic_write_bytes
from .common import MailError, MailURL, Tx, parse_mail_url, resolve_password, tls_context, tls_refusal

if TYPE_CHECKING:
    from ..store import Ledger
    from .receipts import Receipt

PASSWORD_ENV = "LEAGUE_SMTP_PASSWORD"
FROM_ENV = "LEAGUE_SMTP_FROM"
DEFAULT_PORTS = {"smtp": 25, "smtps": 465}
OUTBOX = Path("mail") / "outbox"

SCHEMA = """
CREATE TABLE IF NOT EXISTS receipts (
    sha256  TEXT PRIMARY KEY,
    to_addr TEXT NOT NULL,
    sent_at TEXT NOT NULL DEFAULT '',
    status  TEXT NOT NULL,
    error   TEXT NOT NULL DEFAULT '',
    sent_before TEXT NOT NULL DEFAULT ''
);
"""
#: ``to_addr`` is the addresses of the receipt's latest attempt (``status``);
#: ``sent_before`` those it went to on earlier sends, taken or refused for good — it is
#: never sent to them again (a resend to a corrected address: :func:`send_receipts`).
#: A ledger made before ``sent_before`` gets it (empty) when first opened here.


def ensure_schema(ledger: "Ledger") -> None:
    """Create the ``receipts`` table in the ledger when it is missing (and add its
    ``sent_before`` column to one made before it)."""
    ledger.conn.executescript(SCHEMA)
    if "sent_before" not in {row[1] for row in ledger.conn.execute("PRAGMA table_info(receipts)")}:
        ledger.conn.execute("ALTER TABLE receipts ADD COLUMN sent_before TEXT NOT NULL DEFAULT ''")


@dataclass
class SendReport:
    """What one sending pass did."""

    sent: list[str] = field(default_factory=list)                  # sha256 of receipts sent now
    failed: list[tuple[str, str]] = field(default_factory=list)    # (sha256, error)
    already: int = 0                                               # sent on an earlier run
    #: (sha256, what to change): not sent, every address refused for good — not retried
    #: until the receipt's addresses change
    refused: list[tuple[str, str]] = field(default_factory=list)
    #: (sha256, what to change): sent, but some of its addresses refused
    partial: list[tuple[str, str]] = field(default_factory=list)
    held: int = 0        # refused on an earlier night, addresses unchanged: not sent again
    #: sha256 of receipts sent now only to the addresses new since they were sent (some of
    #: their addresses refused then, the unit's ``emails`` corrected since)
    corrected: set[str] = field(default_factory=set)
    #: receipts owed from earlier nights (:func:`pipeline.mail.deliver`): the sha256 of those
    #: answering a file received on an earlier night and never attempted, and why they are late
    owed: set[str] = field(default_factory=set)
    owed_reason: str = ""

    @property
    def needs_attention(self) -> bool:
        """Something the office must act on this night (exit 1): a receipt that failed, or an
        address refused.  (One held from an earlier night was said that night.)"""
        return bool(self.failed or self.refused or self.partial)

    def lines(self) -> list[str]:
        """The summary, then one line per refused address (what to change).

        >>> SendReport(sent=["a"], partial=[("a", "单位“一分会”的登记邮箱 …")]).lines()[1]
        '单位“一分会”的登记邮箱 …'
        """
        return [self.summary(), *(why for _, why in self.refused), *(why for _, why in self.partial)]

    def summary(self) -> str:
        """One Chinese line for the run report; receipts owed from earlier nights are said
        as 补发, with the reason.

        >>> SendReport(sent=["a"], failed=[("b", "x")]).summary()
        '回执：发出 1 封，失败 1 封（x；下次运行自动重试）。'
        >>> SendReport(failed=[("b", "这次未能补发（下次运行自动重试）。")]).summary()
        '回执：发出 0 封，失败 1 封（这次未能补发（下次运行自动重试））。'
        >>> SendReport(sent=["a", "b"], owed={"a", "b"}, owed_reason="此前未用 --smtp 运行").summary()
        '回执：补发 2 封（此前未用 --smtp 运行）。'
        >>> SendReport(sent=["a", "b"], owed={"a"}, owed_reason="此前未用 --smtp 运行").summary()
        '回执：发出 2 封（其中补发 1 封：此前未用 --smtp 运行）。'
        >>> SendReport(sent=["a"], corrected={"a"}).summary()
        '回执：发出 1 封（其中 1 封补发给此前没有收到的登记邮箱：改正后的或上次暂时拒收的，已收到的地址不再重发）。'
        """
        late = sum(sha in self.owed for sha in self.sent)
        why = self.owed_reason or "此前收到的文件尚未发过回执"
        if late and late == len(self.sent):
            text = f"回执：补发 {late} 封（{why}）"
        elif late:
            text = f"回执：发出 {len(self.sent)} 封（其中补发 {late} 封：{why}）"
        else:
            text = f"回执：发出 {len(self.sent)} 封"
        corrected = sum(sha in self.corrected for sha in self.sent)
        if corrected:
            text += f"（其中 {corrected} 封补发给此前没有收到的登记邮箱：改正后的或上次暂时拒收的，已收到的地址不再重发）"
        if self.failed:
            why = self.failed[0][1].rstrip("。")
            again = "" if "下次运行自动重试" in why else "下次运行自动重试"     # (the refusal's words may say it)
            text += f"，失败 {len(self.failed)} 封（{'；'.join(x for x in (why, again) if x)}）"
        if self.refused:
            text += f"，{len(self.refused)} 封因登记邮箱被拒收未能送达（见下）"
        if self.held:
            text += (f"；另有 {self.held} 封此前因登记邮箱被拒收未能送达，"
                     "改正 tournament.yaml 中该单位的 emails 后自动重发")
        return text + "。"


def receipt_status(ledger: "Ledger", sha: str) -> str:
    """The recorded status of a submission's receipt ("" when never attempted)."""
    ensure_schema(ledger)
    return _recorded(ledger, sha).status


def send_receipts(url: str, receipts: Iterable["Receipt"], ledger: "Ledger", *, password: str | None = None,
                  now: dt.datetime, timeout: float = 60.0, cafile: str | os.PathLike | None = None,
                  units: Mapping[str, str] | None = None) -> SendReport:
    """Send every receipt not yet sent, recording each attempt in the ledger.

    ``url`` is ``smtp://[user@]host[:port][?starttls=1]`` or ``smtps://…``; the login
    password is ``password``, else ``$LEAGUE_SMTP_PASSWORD``, else the file named by
    ``$LEAGUE_SMTP_PASSWORD_FILE`` (no login without one).  The From address is the URL's
    user when it is an address, else ``$LEAGUE_SMTP_FROM``.  Connection problems become
    ``failed`` rows (retried next run), never exceptions; a bad URL or a missing From
    address raises :class:`MailError`, and so does an unreadable ``cafile`` (else
    ``$LEAGUE_MAIL_CAFILE``, the extra CA trusted for the server's certificate).
    ``units`` (registered address → unit name, :func:`.receipts.unit_names`) names the
    unit in what is said about a refused address.  A receipt ``refused`` before is sent
    again only when its addresses have changed.  One ``sent`` while some of its addresses
    were refused goes, once, to the addresses it has now that it was not sent to (the
    unit's ``emails`` corrected), and never again to those it was; one sent to every
    address goes to no address added later (a new captain is not sent the unit's old
    receipts).

    >>> send_receipts("smtp://office%40x.cn@127.0.0.1:2525", receipts, ledger, now=now)  # doctest: +SKIP
    SendReport(sent=['9f…'], failed=[], already=0)
    """
    u = parse_mail_url(url, DEFAULT_PORTS)
    sender = from_address(u)
    ctx = tls_context(cafile) if (u.tls or u.starttls) else None
    ensure_schema(ledger)
    report = SendReport()
    pending: list[tuple[str, tuple[str, ...], bytes, tuple[str, ...]]] = []
    for r in receipts:
        rec = _recorded(ledger, r.sha256)
        had = rec.had()                 # never sent to again
        to = tuple(a for a in r.to if a.strip().lower() not in had)
        if rec.status == "sent" and not (to and rec.error):
            # sent to every address (a resend or a retry that went through clears the error):
            # not to one added since — a new captain is not sent the unit's old receipts
            report.already += 1
            continue
        if rec.status == "refused" and rec.to_addr == ",".join(to):
            report.held += 1            # said the night it was refused; waits for a corrected address
            continue
        before = tuple(had)
        if not to:                      # a resend to a corrected address, that address since removed
            _record(ledger, r.sha256, (), "sent", now)
            report.already += 1
            continue
        if rec.status == "sent":        # some addresses refused when sent; new ones since: to those only
            _record_before(ledger, r.sha256, before)
        if before:                      # (or such a resend, failed or cut off: to the new ones still)
            report.corrected.add(r.sha256)
            r = replace(r, to=to)
        try:
            msg = r.message(sender, now, message_id=_message_id(r.sha256, sender),
                            in_reply_to=r.in_reply_to or original_message_id(ledger, r.sha256))
            raw = msg.as_bytes(policy=email.policy.SMTP)      # CRLF line ends, as SMTP needs
            atomic_write_bytes(ledger.root / OUTBOX / f"{r.sha256}.eml", raw, durable=True)
        except OSError as e:      # the returned workbook vanished, or the outbox is not writable
            error = f"无法生成回执邮件：{e}"
            _record(ledger, r.sha256, to, "failed", now, error)
            report.failed.append((r.sha256, error))
            continue
        pending.append((r.sha256, to, raw, before))
    _send_all(u, resolve_password(password, PASSWORD_ENV), sender, pending, ledger, now, report, timeout, ctx,
              units or {})
    return report


class _Row(NamedTuple):
    """A receipt's row in the ledger (all "" when never attempted)."""

    status: str
    to_addr: str
    sent_before: str
    error: str

    def had(self) -> list[str]:
        """Every address (lower case) the receipt went to and is never sent to again:
        ``sent_before``, and the latest attempt's when it was sent.  (A row made before
        ``sent_before`` names in ``to_addr`` the refused addresses too: not sent again
        while they stay registered.)"""
        out: list[str] = []
        for a in (self.sent_before + "," + (self.to_addr if self.status == "sent" else "")).split(","):
            a = a.strip().lower()
            if a and a not in out:
                out.append(a)
        return out


def _recorded(ledger: "Ledger", sha: str) -> _Row:
    """A submission's receipt as recorded; all "" when never attempted."""
    row = ledger.conn.execute("SELECT status, to_addr, sent_before, error FROM receipts WHERE sha256=?",
                              (sha,)).fetchone()
    return _Row(*row) if row else _Row("", "", "", "")


def any_recorded(ledger: "Ledger") -> bool:
    """Whether the ledger records any receipt at all (sent, failed or cancelled): False
    until a run first builds receipts with ``--smtp``."""
    ensure_schema(ledger)
    return ledger.conn.execute("SELECT 1 FROM receipts LIMIT 1").fetchone() is not None


def cancel_unbuilt(ledger: "Ledger", built: Iterable[str]) -> int:
    """Mark ``cancelled`` every receipt not sent whose submission or mail this night's run no
    longer builds one for (``built``: the sha256 of those it built) — a mail without a
    workbook answered since by the unit's form: its receipt, failed on the night it was
    due, was retried by :func:`resend_pending` and told a captain whose form was accepted
    to send it again.  A cancelled receipt built again later is sent as any other.
    Returns how many were cancelled."""
    ensure_schema(ledger)
    keep = set(built)
    stale = [sha for (sha,) in ledger.conn.execute(
        "SELECT sha256 FROM receipts WHERE status NOT IN ('sent', 'cancelled')").fetchall() if sha not in keep]
    if stale:
        with ledger._tx():
            ledger.conn.executemany("UPDATE receipts SET status='cancelled' WHERE sha256=?", [(s,) for s in stale])
    return len(stale)


def resend_pending(url: str, ledger: "Ledger", *, password: str | None = None, now: dt.datetime,
                   timeout: float = 60.0, cafile: str | os.PathLike | None = None,
                   units: Mapping[str, str] | None = None) -> SendReport:
    """Retry every receipt recorded as failed (or interrupted) from its kept outbox copy —
    for nights whose run is otherwise unchanged and builds no receipts.  One ``refused``
    (its addresses refused for good) is not retried: its addresses cannot have changed on
    such a night; it is counted in ``held``."""
    u = parse_mail_url(url, DEFAULT_PORTS)
    sender = from_address(u)
    ctx = tls_context(cafile) if (u.tls or u.starttls) else None
    ensure_schema(ledger)
    report = SendReport()
    pending = []
    for sha, to_addr, before in ledger.conn.execute(
            "SELECT sha256, to_addr, sent_before FROM receipts WHERE status NOT IN ('sent', 'cancelled', 'refused') "
            "ORDER BY sha256").fetchall():
        path = ledger.root / OUTBOX / f"{sha}.eml"
        had = {a.strip().lower() for a in before.split(",") if a.strip()}
        # never to an address that had it (a run killed after a partial send, before its
        # record, left those in to_addr beside the ones still owed)
        to = tuple(a for a in to_addr.split(",") if a and a.strip().lower() not in had)
        if not to:
            _record(ledger, sha, (), "sent", now)
            continue
        if path.is_file():
            pending.append((sha, to, path.read_bytes(), tuple(a for a in before.split(",") if a)))
            if before:
                report.corrected.add(sha)
    report.held = ledger.conn.execute("SELECT count(*) FROM receipts WHERE status='refused'").fetchone()[0]
    _send_all(u, resolve_password(password, PASSWORD_ENV), sender, pending, ledger, now, report, timeout, ctx,
              units or {})
    return report


def from_address(u: MailURL) -> str:
    """The From address: the URL's user when it is an address, else ``$LEAGUE_SMTP_FROM``."""
    if "@" in u.user:
        return u.user
    env = os.environ.get(FROM_ENV, "").strip()
    if env:
        return env
    raise MailError(f"不知道回执的发件地址：请在发件地址中写上邮箱（smtp://用户名%40域名@{u.host}），"
                    f"或设置环境变量 {FROM_ENV}。")


def original_message_id(ledger: "Ledger", sha: str) -> str:
    """Message-ID of the mail a workbook came in, or of the mail ``sha`` itself (one that
    carried no workbook) — "" when unknown or not mailed."""
    row = ledger.conn.execute("SELECT parent, kind FROM received WHERE sha256=?", (sha,)).fetchone()
    mail = (row[0] or (sha if row[1] == "mail" else "")) if row else ""
    if not mail:
        return ""
    path = ledger.root / "received" / f"{mail}.eml"
    try:
        with path.open("rb") as f:
            headers = BytesHeaderParser(policy=email.policy.default).parse(f)
        value = str(headers.get("Message-ID") or "").strip()
    except (OSError, ValueError, TypeError):
        return ""
    return value if value.startswith("<") and value.endswith(">") and "\n" not in value else ""


def _message_id(sha: str, sender: str) -> str:
    domain = sender.rsplit("@", 1)[-1] if "@" in sender else "league.invalid"
    return f"<receipt.{sha[:32]}@{domain}>"


def _record_before(ledger: "Ledger", sha: str, before: Iterable[str]) -> None:
    """Record the addresses a receipt went to before (``sent_before``), ahead of sending it to
    new ones: whatever becomes of that send, it never goes to them again."""
    with Tx(ledger.conn) as db:
        db.execute("UPDATE receipts SET sent_before=? WHERE sha256=?", (",".join(before), sha))


def _record(ledger: "Ledger", sha: str, to: tuple[str, ...], status: str, now: dt.datetime, error: str = "",
            before: tuple[str, ...] | None = None) -> None:
    """Record a receipt's latest attempt: its addresses ``to``, ``status`` and ``error``
    (``sent_before`` stays as it is, or becomes ``before`` in the same transaction)."""
    with Tx(ledger.conn) as db:
        db.execute("INSERT INTO receipts (sha256, to_addr, sent_at, status, error) VALUES (?,?,?,?,?) "
                   "ON CONFLICT(sha256) DO UPDATE SET to_addr=excluded.to_addr, sent_at=excluded.sent_at, "
                   "status=excluded.status, error=excluded.error",
                   (sha, ",".join(to), now.isoformat() if status == "sent" else "", status, error[:500]))
        if before is not None:
            db.execute("UPDATE receipts SET sent_before=? WHERE sha256=?", (",".join(before), sha))


def _connect(u: MailURL, password: str | None, timeout: float, ctx: ssl.SSLContext | None) -> smtplib.SMTP:
    if u.tls:
        conn: smtplib.SMTP = smtplib.SMTP_SSL(u.host, u.port, timeout=timeout, context=ctx)
    else:
        conn = smtplib.SMTP(u.host, u.port, timeout=timeout)
    try:
        if u.starttls:
            conn.starttls(context=ctx)
        if u.user and password:
            conn.login(u.user, password)
    except BaseException:
        _close(conn)
        raise
    return conn


def _send_all(u: MailURL, password: str | None, sender: str,
              pending: list[tuple[str, tuple[str, ...], bytes, tuple[str, ...]]],
              ledger: "Ledger", now: dt.datetime, report: SendReport, timeout: float,
              ctx: ssl.SSLContext | None = None, units: Mapping[str, str] | None = None) -> None:
    conn: smtplib.SMTP | None = None
    down = ""      # once the server cannot be reached, the rest wait for the next run
    try:
        for sha, to, raw, before in pending:      # before: its addresses sent to earlier
            if not down and conn is None:
                try:
                    conn = _connect(u, password, timeout, ctx)
                except (smtplib.SMTPException, OSError) as e:
                    down = (tls_refusal(u.host, u.port, e)
                            or f"无法连接发件服务器 {u.host}:{u.port}：{type(e).__name__}: {e}")
                    _close(conn)
                    conn = None
            if down or conn is None:
                _record(ledger, sha, to, "failed", now, down)
                report.failed.append((sha, down))
                continue
            _record(ledger, sha, to, "sending", now)
            try:
                refused = conn.sendmail(sender, list(to), raw)
            except smtplib.SMTPRecipientsRefused as e:      # every address refused
                said = refusal_text(e.recipients, units or {}, sent_to=(), resend=bool(before))
                if all(bad_address(c, m) for c, m in e.recipients.values()) and before:
                    # a resend to corrected addresses, refused again: still sent to the others
                    _record(ledger, sha, to, "sent", now, said)
                    report.partial.append((sha, said))
                elif all(bad_address(c, m) for c, m in e.recipients.values()):
                    _record(ledger, sha, to, "refused", now, said)
                    report.refused.append((sha, said))
                else:
                    _record(ledger, sha, to, "failed", now, said)
                    report.failed.append((sha, said))
                continue
            except (smtplib.SMTPException, OSError, ValueError) as e:
                # ValueError: an address smtplib cannot send to (not ASCII) — this receipt
                # fails, the others still go (it stopped the night's receipts, for good)
                error = f"{type(e).__name__}: {e}"
                _record(ledger, sha, to, "failed", now, error)
                report.failed.append((sha, error))
                if isinstance(e, (OSError, smtplib.SMTPServerDisconnected, ValueError)):
                    _close(conn)        # (a ValueError leaves the server mid-transaction)
                    conn = None
                continue
            error = ""
            if refused:                 # some addresses only: sent to the rest, the refused said
                error = refusal_text(refused, units or {}, sent_to=[a for a in to if a not in refused])
                report.partial.append((sha, error))
            retry = tuple(a for a in to if a in refused and not bad_address(*refused[a]))
            if retry:
                # some addresses refused for now (4xx, or the sending side's 5.7.x): the
                # receipt is ``failed`` to those only and retried to them on the next run;
                # the addresses that took it (and any refused for good) are never sent to again
                # (one transaction: a run killed between the two left them in to_addr)
                _record(ledger, sha, retry, "failed", now, error,
                        before=tuple(dict.fromkeys((*before, *(a for a in to if a not in retry)))))
            else:
                _record(ledger, sha, to, "sent", now, error)
            report.sent.append(sha)
    finally:
        _close(conn)


#: words of a bare 5xx (no enhanced status code) about the sending server, the message or
#: the sender, never the address: relaying or login refused (qmail's ``553 … allowed
#: rcpthosts`` is its relay refusal), spam and content filters, block lists, SPF/DMARC,
#: rate limits, a full mailbox (NetEase's ``DT:SPM``, ``MI:SPF``; Chinese servers' own words)
_NOT_THE_ADDRESS = re.compile(
    r"relay|rcpthosts|\bauth|\blog ?in\b|\bsender\b|spam|junk|black ?list|block|deny ?list|\bban|"
    r"\bspf\b|dkim|dmarc|\brbl\b|dnsbl|reputation|virus|quota|mailbox (?:is )?full|storage|"
    r"too many|rate limit|greylist|\bpolicy\b|prohibit|permission|content|"
    r"垃圾|中继|转发|认证|验证|登录|登陆|发件人|发信人|黑名单|白名单|拦截|屏蔽|病毒|频率|频繁|过多|超限|策略|内容|空间不足|已满",
    re.IGNORECASE)
#: words of a bare 5xx saying the mailbox or user is not there (or disabled)
_NO_SUCH_MAILBOX = re.compile(
    r"\bunknown (?:user|recipient|mailbox|address|local)|user (?:is )?unknown|no such (?:user|mailbox|recipient|"
    r"address|account|domain)|(?:user|mailbox|recipient|account|address)[^.;:,]{0,12}?not (?:found|exist|known)|"
    r"(?:does not|doesn't|don't|not) exists?|(?:mailbox|user|recipient)[^.;:,]{0,20}?unavailable|"
    r"unavailable (?:mail )?user|mailbox name|address syntax|invalid (?:user|recipient|mailbox|address)|not a valid (?:mailbox|address|user)|"
    r"(?:user|account|mailbox) (?:is )?(?:disabled|suspended|inactive)|unrouteable address|user not local|"
    r"不存在|无此用户|没有(?:这个|此|该)用户|查无此人|无效的?(?:收件人|地址|邮箱|用户)|(?:地址|邮箱|用户)无效|"
    r"已停用|已注销|已被?禁用|已冻结",
    re.IGNORECASE)
#: words of a bare 5xx about anything but the address, weaker than a mailbox's (QQ's
#: ``550 Mailbox not found or access denied`` is a mailbox not found)
_REFUSED_FOR_POLICY = re.compile(r"denied|not (?:allowed|permitted)|refused|拒绝", re.IGNORECASE)


def bad_address(code: int, message: bytes | str) -> bool:
    """Whether a recipient's refusal says the address itself is wrong, for good: a 5xx whose
    enhanced status is 5.1.x (bad destination mailbox or domain) or 5.2.1 (mailbox
    disabled).  Not 4xx (try again), not 5.7.x (the sending server's setup or policy:
    relaying denied, not logged in).

    Without an enhanced code the server's words decide: a 550 / 551 / 553 about relaying,
    login, spam, a block list, the sender or the content (``550 Relaying denied``, qmail's
    ``553 sorry, that domain isn't in my list of allowed rcpthosts``, ``550 垃圾邮件``) is not
    the address (it stays ``failed`` and is retried); one saying the mailbox is not there
    (``550 User unknown``, ``550 Mailbox not found``, ``550 用户不存在``) is.  Words that say
    neither, or only "denied" / "not allowed" with a mailbox named (QQ's ``550 Mailbox not
    found or access denied``), keep what the code says: 550 / 551 / 553 are a wrong
    address (RFC 5321: mailbox unavailable, user not local, mailbox name not allowed) — a
    real wrong address retried every night, in vain, is what the office was never told.

    >>> bad_address(550, b"5.1.1 user unknown"), bad_address(550, b"5.7.1 relaying denied")
    (True, False)
    >>> bad_address(550, b"Relaying denied"), bad_address(553, b"sorry, that domain isn't in my list of allowed rcpthosts")
    (False, False)
    >>> bad_address(550, b"Message rejected as spam"), bad_address(550, "发件人被拦截".encode())
    (False, False)
    >>> bad_address(550, b"No such user here"), bad_address(550, "用户不存在".encode()), bad_address(550, b"Access denied")
    (True, True, False)
    >>> bad_address(550, b"Requested action not taken"), bad_address(554, b"User unknown")
    (True, False)
    """
    if not 500 <= code < 600:
        return False
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    m = re.match(r"\s*5\.(\d{1,3})\.(\d{1,3})\b", text)
    if m:
        return m.group(1) == "1" or (m.group(1), m.group(2)) == ("2", "1")
    if code not in (550, 551, 553) or _NOT_THE_ADDRESS.search(text):
        return False
    return bool(_NO_SUCH_MAILBOX.search(text)) or not _REFUSED_FOR_POLICY.search(text)


def refusal_text(refused: Mapping[str, tuple[int, bytes | str]], units: Mapping[str, str],
                 sent_to: Iterable[str], resend: bool = False) -> str:
    """What the office is told about refused addresses of one receipt: per address, in
    Chinese, which unit's address, why, and what to change; the server's own words follow
    in brackets.  ``sent_to``: the addresses that did take it; ``resend``: this was the
    receipt sent to addresses corrected since it went to the others.

    >>> refusal_text({"b@x.cn": (550, b"5.1.1 user unknown")}, {"b@x.cn": "二分会"}, sent_to=[])
    '单位“二分会”的登记邮箱 b@x.cn 被对方邮件服务器拒收（550 5.1.1 user unknown），请核对 tournament.yaml 中该单位的 emails 后再运行：这封回执未能送达，地址改正后的下一次运行会重发。'
    """
    parts = []
    for addr, (code, message) in refused.items():
        said = f"{code} {message.decode('utf-8', 'replace') if isinstance(message, bytes) else message}".strip()
        name = units.get(addr.strip().lower(), "")
        whose = f"单位“{name}”的登记邮箱 {addr}" if name else f"登记邮箱 {addr}"
        if bad_address(code, message):
            parts.append(f"{whose} 被对方邮件服务器拒收（{said}），请核对 tournament.yaml 中"
                         f"{'该单位' if name else '各单位'}的 emails 后再运行")
        elif code >= 500:
            parts.append(f"发件服务器拒绝投递到{whose}（{said}）：多半是发件服务器的设置"
                         "（是否需要登录、是否允许转发到外部邮箱），请联系邮件管理员")
        else:
            parts.append(f"{whose} 被对方邮件服务器暂时拒收（{said}）")
    sent_to = list(sent_to)
    bad = any(bad_address(c, m) for c, m in refused.values())
    again = "地址改正后的下一次运行只补发给改正后的地址" if bad else ""
    if sent_to:
        later = "未能投递的其他地址下次运行自动重试" if not all(bad_address(c, m) for c, m in refused.values()) else ""
        notes = "；".join(x for x in (again, later) if x)
        tail = f"这封回执已发到 {'、'.join(sent_to)}，被拒收的地址没有收到" + (f"；{notes}。" if notes else "。")
    elif resend:
        tail = "这封回执此前已发到该单位的其他地址，这次未能补发" + (f"；{again}。" if again else "（下次运行自动重试）。")
    elif all(bad_address(c, m) for c, m in refused.values()):
        tail = "这封回执未能送达，地址改正后的下一次运行会重发。"
    else:
        tail = "这封回执未能送达"
    return "；".join(parts) + "：" + tail


def _close(conn: smtplib.SMTP | None) -> None:
    if conn is None:
        return
    try:
        conn.quit()
    except (smtplib.SMTPException, OSError):
        conn.close()


def load_outbox(ledger: "Ledger", sha: str) -> email.message.EmailMessage | None:
    """The kept copy of a receipt as sent (or as it will be retried)."""
    path = ledger.root / OUTBOX / f"{sha}.eml"
    if not path.is_file():
        return None
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)  # type: ignore[return-value]
