"""Mail in, mail out: the office's mailbox as the inbox (:mod:`.imap`) and a receipt for
every captain — per registration workbook, and per mail that carried none (:mod:`.receipts`
builds them, :mod:`.smtp` sends them once each).

The runner needs two lines::

    fetch_into(opts.imap_url, t.inbox, ledger)                 # before intake
    deliver(state, out, ledger, opts.smtp_url, now)            # after render_all
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Collection

from .common import MailError
from .imap import FetchReport, fetch_into, fetch_mail
from .receipts import Receipt, build_receipts, unit_names
from .smtp import SendReport, any_recorded, cancel_unbuilt, receipt_status, resend_pending, send_receipts

if TYPE_CHECKING:
    from ..state import LeagueState
    from ..store import Ledger

__all__ = ["FetchReport", "MailError", "Receipt", "SendReport", "build_receipts", "check_urls", "deliver",
           "fetch_into", "fetch_mail", "resend_pending", "send_receipts"]


def deliver(state: "LeagueState", out_dir: Path, ledger: "Ledger", smtp_url: str | None,
            now: dt.datetime, *, password: str | None = None, earlier: Collection[str] = ()) -> SendReport:
    """Build this run's receipts (the workbooks' and the mails' without a workbook:
    :func:`build_receipts`) and send those not sent before; an empty report when
    ``smtp_url`` is not set.  Call after the returned workbooks are written (they are the
    attachments).  Raises :class:`MailError` only for a bad URL or a missing From address.

    Receipts owed from earlier nights are sent like this night's (handbook 回执（--smtp）:
    每收到一份报名表，回一封 — a receipt per form received, each sent once): ``earlier`` is
    the sha256 of every file received before this night; a receipt answering one of them
    that the ledger never recorded (nights run without ``--smtp``) is counted as 补发 in
    the report, with its reason — "此前未用 --smtp 运行" when the ledger has no receipt at all.
    They are the very receipts a fresh output folder run with ``--smtp`` sends: each tells the
    captain the form's status and the unit's registration as they stand now, and the
    deadline lines say when a correction can no longer be sent by mail.

    >>> deliver(state, out, ledger, "smtp://office%40x.cn@mail.x.cn:25", now).summary()  # doctest: +SKIP
    '回执：发出 3 封。'
    """
    if not smtp_url:
        return SendReport()
    receipts = build_receipts(state, out_dir)
    first = not any_recorded(ledger)
    before = set(earlier)
    owed = {r.sha256 for r in receipts if r.sha256 in before and not receipt_status(ledger, r.sha256)}
    cancel_unbuilt(ledger, [r.sha256 for r in receipts])     # no longer due: never retried
    report = send_receipts(smtp_url, receipts, ledger, password=password, now=now,
                           units=unit_names(state.tournament))
    report.owed = owed
    report.owed_reason = "此前未用 --smtp 运行" if first else ""
    return report


def check_urls(imap_url: str | None, smtp_url: str | None) -> None:
    """``--imap`` and ``--smtp`` as written, checked before the night's run starts: each
    a URL of its protocol, the mailbox's with its user, the sender's with the From
    address of the receipts (else ``$LEAGUE_SMTP_FROM``).  Raises :class:`MailError`
    naming the option.  (A ``--smtp smtp://host:25`` was refused only after the whole run,
    and a malformed ``--imap`` was a note in the summary of a run that exited 0.)"""
    from .common import parse_mail_url
    from .imap import DEFAULT_PORTS as IMAP_PORTS
    from .smtp import DEFAULT_PORTS as SMTP_PORTS, from_address

    if imap_url is not None:
        try:
            u = parse_mail_url(imap_url, IMAP_PORTS)
            if not u.user:
                raise MailError(f"收件地址“{imap_url}”缺少用户名，应写成 "
                                f"{u.scheme}://用户名@{u.host}/{u.path or 'INBOX'}。")
        except MailError as e:
            raise MailError(f"--imap：{e}") from None
    if smtp_url is not None:
        try:
            from_address(parse_mail_url(smtp_url, SMTP_PORTS))
        except MailError as e:
            raise MailError(f"--smtp：{e}") from None
