"""How messages name a received mail.

A mail fetched by ``--imap`` is stored as ``inbox/mail/<sha256>.eml``
(:mod:`pipeline.mail.imap`): that name means nothing to the captain who sent it.  Receipts,
issues.csv messages and unit pages said 收到贵分工会的邮件《5f3a5a1a9e47…4536b.eml》.  Such a
mail is named the way its sender knows it — by its subject and the time it was received:
《藥學院 雙扣報名》（11月4日 10:00 收到）.  A mail the office saved into the inbox by hand keeps
the name it was given (``1106-b02-报名表.eml`` is the office's own label), unless that name
is such a hash too: a hash name is never shown.  Machine-readable columns (issues.csv
``file``) keep the stored name (contract.md).
"""
from __future__ import annotations

import datetime as dt
import re

from .timeutil import cn_when

#: the stored name of a mail: its SHA-256 (64 hex digits) and .eml, in any folder
_HASH_NAME = re.compile(r"(?:^|[/\\])[0-9A-Fa-f]{64}\.eml$")

#: at most this many characters of a subject are shown
SUBJECT_SHOWN = 40


def hash_named(name: str) -> bool:
    """Whether ``name`` (a file name or an inbox path) is a stored mail's hash name.

    >>> hash_named("mail/" + "5f" * 32 + ".eml"), hash_named("1106-b02-报名表.eml")
    (True, False)
    """
    return bool(name) and bool(_HASH_NAME.search(name))


def shown_subject(subject: str) -> str:
    """A mail's subject on one line, cut at :data:`SUBJECT_SHOWN` characters.

    >>> shown_subject("  回复：  报名表\\n（改） ")
    '回复： 报名表 （改）'
    """
    s = " ".join((subject or "").split())
    return s[:SUBJECT_SHOWN] + ("…" if len(s) > SUBJECT_SHOWN else "")


def mail_named(name: str, subject: str, received: dt.datetime | None, *, when: bool = True,
               subject_too: bool = False, script: str = "simplified") -> str:
    """How a message names a mail (after 邮件): ``《name》`` for a mail saved by hand under a
    name of its own — with ``subject_too``, followed by （主题“…”） when the name does not hold
    it —; for a mail stored under its hash (:func:`hash_named`), ``《subject》`` followed, with
    ``when``, by its time of receipt (（11月4日 10:00 收到）) — a mail without a subject is
    （无主题，11月4日 10:00 收到）.  ``when=False`` where the sentence gives the time itself.
    The name and the subject are quoted as received (:func:`pipeline.text.verbatim`, for a
    league in ``script``).

    >>> from pipeline.timeutil import TZ
    >>> at = dt.datetime(2015, 11, 4, 10, 0, tzinfo=TZ)
    >>> mail_named("ab" * 32 + ".eml", "藥學院 雙扣報名", at)
    '《藥學院 雙扣報名》（11月4日 10:00 收到）'
    >>> mail_named("ab" * 32 + ".eml", "", at), mail_named("ab" * 32 + ".eml", "", at, when=False)
    ('（无主题，11月4日 10:00 收到）', '（无主题）')
    >>> mail_named("x.eml", "报名表", at), mail_named("x.eml", "报名表", at, subject_too=True)
    ('《x.eml》', '《x.eml》（主题“报名表”）')
    """
    from .text import verbatim

    subject = shown_subject(subject)
    if not hash_named(name):
        said = f"《{verbatim(name, script)}》"
        if subject_too and subject and subject not in name:
            said += f"（主题“{verbatim(subject, script)}”）"
        return said
    at = f"{cn_when(received)} 收到" if when and received is not None else ""
    if subject:
        return f"《{verbatim(subject, script)}》" + (f"（{at}）" if at else "")
    return f"（无主题，{at}）" if at else "（无主题）"
