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
from typing import TYPE_CHECKING

from .common import MailError
from .imap import fetch_into
from .receipts import Receipt, build_receipts
from .smtp import SendReport, cancel_unbuilt, resend_pending, send_receipts

if TYPE_CHECKING:
    from ..state import LeagueState
    from ..store import Ledger

__all__ = ["MailError", "Receipt", "SendReport", "build_receipts", "deliver", "fetch_into",
           "resend_pending", "send_receipts"]


def deliver(state: "LeagueState", out_dir: Path, ledger: "Ledger", smtp_url: str | None,
            now: dt.datetime, *, password: str | None = None) -> SendReport:
    """Build this run's receipts (the workbooks' and the mails' without a workbook:
    :func:`build_receipts`) and send those not sent before; an empty report when
    ``smtp_url`` is not set.  Call after the returned workbooks are written (they are the
    attachments).  Raises :class:`MailError` only for a bad URL or a missing From address.

    >>> deliver(state, out, ledger, "smtp://office%40x.cn@mail.x.cn:25", now).summary()  # doctest: +SKIP
    '回执：发出 3 封。'
    """
    if not smtp_url:
        return SendReport()
    receipts = build_receipts(state, out_dir)
    cancel_unbuilt(ledger, [r.sha256 for r in receipts])     # no longer due: never retried
    return send_receipts(smtp_url, receipts, ledger, password=password, now=now)
