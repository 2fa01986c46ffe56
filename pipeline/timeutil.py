"""Time helpers.  Tournaments run in China: naive times in specs and workbooks are
China Standard Time (UTC+8)."""
from __future__ import annotations

import datetime as dt
from typing import Iterable

TZ = dt.timezone(dt.timedelta(hours=8), "CST")


def aware(t: dt.datetime) -> dt.datetime:
    """Attach UTC+8 to a naive datetime; leave an aware one as it is.

    >>> aware(dt.datetime(2020, 11, 9, 15)).isoformat()
    '2020-11-09T15:00:00+08:00'
    """
    return t if t.tzinfo else t.replace(tzinfo=TZ)


def from_timestamp(ts: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(int(ts), TZ)


def cn_date(d: dt.date | None) -> str:
    """``cn_date(date(2020, 10, 30)) == "2020年10月30日"`` (unpadded, as notices print dates);
    empty for ``None``."""
    if d is None:
        return ""
    return f"{d.year}年{d.month}月{d.day}日"


def clock(t: dt.datetime, deadlines: Iterable[dt.datetime | None] = (),
          starts: Iterable[dt.datetime] = ()) -> str:
    """``t``'s time of day, ``15:00`` — with its seconds, ``15:00:30``, when it falls in the
    minute of one of ``deadlines`` without being that deadline (R2020-Q4): a form received at
    15:00:30 is late for a 15:00 deadline, and “15:00 收到” beside “15:00 截止” could not say
    why.  Naive times are China time (``deadlines`` may hold None: an event without one).

    >>> dl = dt.datetime(2020, 11, 9, 15, 0, tzinfo=TZ)
    >>> [clock(dl.replace(second=s), [None, dl]) for s in (0, 30, 59)], clock(dl.replace(second=30))
    (['15:00', '15:00:30', '15:00:59'], '15:00')
    >>> clock(dt.datetime(2020, 11, 9, 14, 59, 59), [dl]), clock(dt.datetime(2020, 11, 9, 15, 1, 5), [dl])
    ('14:59', '15:01')

    ``starts`` (sessions' starts, R2020-S1) are no deadlines: a time exactly at one is already
    late for it (``now < start``), so any time in a start's minute is said with its seconds —
    results in at 16:00:00 were said “16:00 才收齐” beside a session of 16:00 said to have begun
    (a review).

    >>> clock(dl, starts=[dl]), clock(dl.replace(second=30), starts=[dl])
    ('15:00:00', '15:00:30')
    """
    t = aware(t).astimezone(TZ)
    minute = t.replace(second=0, microsecond=0)
    if any(minute == aware(d).astimezone(TZ).replace(second=0, microsecond=0) for d in starts):
        return f"{t:%H:%M:%S}"
    for d in deadlines:
        if d is not None and t != aware(d) and minute == aware(d).astimezone(TZ).replace(second=0, microsecond=0):
            return f"{t:%H:%M:%S}"
    return f"{t:%H:%M}"


def stamp(t: dt.datetime, deadlines: Iterable[dt.datetime | None] = ()) -> str:
    """A received time as the issue messages print it, ``2020-11-09 15:00`` in China time —
    ``2020-11-09 15:00:30`` in a deadline's minute (:func:`clock`)."""
    local = aware(t).astimezone(TZ)
    return f"{local:%Y-%m-%d} {clock(local, deadlines)}"


def cn_datetime(t: dt.datetime | None, deadlines: Iterable[dt.datetime | None] = ()) -> str:
    """``cn_datetime(datetime(2020, 11, 9, 15, 0)) == "2020年11月9日 15:00"`` (with its seconds
    in the minute of one of ``deadlines``: :func:`clock`)."""
    if t is None:
        return ""
    return f"{cn_date(t.date())} {clock(t, deadlines) if deadlines else f'{t:%H:%M}'}"


def cn_when(t: dt.datetime, deadlines: Iterable[dt.datetime | None] = (),
            starts: Iterable[dt.datetime] = ()) -> str:
    """A time something was received, as a message says it: China time, month and day as the
    notices write them, without the year — ``11月4日 18:23`` (it was ``11-04 18:23``, beside
    pages reading 2020年11月4日).  The mails and sheets of one tournament come within weeks,
    and the pages give the year with its deadlines and sessions.  In the minute of one of
    ``deadlines``, with its seconds except at the deadline itself; in the minute of one of
    ``starts`` (a session's start the results came after: R2020-S1), with its seconds even at
    the start itself (:func:`clock`).

    >>> cn_when(dt.datetime(2020, 11, 4, 18, 23, tzinfo=TZ)), cn_when(dt.datetime(2016, 5, 7, 8, 5))
    ('11月4日 18:23', '5月7日 08:05')
    >>> cn_when(dt.datetime(2020, 11, 11, 16, 0, 30), [dt.datetime(2020, 11, 11, 16, 0)])
    '11月11日 16:00:30'
    """
    t = aware(t).astimezone(TZ)
    return f"{t.month}月{t.day}日 {clock(t, deadlines, starts)}"
