"""Registration validation: registered checks over every branch's current submission.

>>> from pipeline.validate import CHECKS
>>> [name for name, _ in CHECKS][:2]
['deadline', 'cross_branch']
"""
from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from ..issues import Issue
from ..model import Entry
from .checks import CHECKS, Ctx, build_entries, check, person_key, quota_for

if TYPE_CHECKING:
    from typing import Callable

    from ..ingest.registration import Registration, RegRow
    from ..spec import Tournament

__all__ = ["CHECKS", "check", "quota_for", "person_key", "validate_registrations"]


def validate_registrations(tournament: "Tournament", regs: "list[Registration]",
                           now: dt.datetime | None = None,
                           events_of: "dict[tuple[str, str], frozenset[str]] | None" = None,
                           first_seen: "dict[tuple[str, str], dt.datetime] | None" = None,
                           drawn: "Callable[[Registration, RegRow], str] | None" = None
                           ) -> tuple[list[Entry], list[Issue]]:
    """Run every registered check (lazily: all problems are collected) and build the
    accepted entries.  ``regs`` is the current submission of each branch (with its
    received time).  Issues from reading the workbooks are not repeated here; rows the
    reader marked bad (``RegRow.ok`` False) enter no entry.  See
    :mod:`pipeline.validate.checks` for exactly what is accepted.

    Where a branch's entries come from two of its workbooks (events closed before its
    newest form arrived keep the rows of the form sent in time:
    :func:`pipeline.run.current_registrations`), ``regs`` holds each with only its rows
    and ``events_of`` says which events each answers for (by
    :func:`pipeline.validate.checks.owner_key`), so a quota is judged once per branch.
    ``first_seen``: when each branch first sent each person (:attr:`Ctx.first_seen`).
    ``drawn``: the published round a row's person is in (:attr:`Ctx.drawn`) — a
    DUPLICATE_PERSON on such a row is a warning, and the row stays entered as drawn.
    """
    now = now or dt.datetime.now(dt.timezone.utc)
    ctx = Ctx(tournament=tournament, regs=list(regs), now=now, events_of=dict(events_of or {}),
              first_seen=dict(first_seen or {}), drawn=drawn)
    for _name, fn in CHECKS:
        fn(ctx)
    return build_entries(ctx), list(ctx.log)
