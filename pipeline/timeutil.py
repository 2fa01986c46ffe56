"""Time helpers.  Tournaments run in China: naive times in specs and workbooks are
China Standard Time (UTC+8)."""
from __future__ import annotations

import datetime as dt

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


def cn_datetime(t: dt.datetime | None) -> str:
    """``cn_datetime(datetime(2020, 11, 9, 15, 0)) == "2020年11月9日 15:00"``."""
    if t is None:
        return ""
    return f"{cn_date(t.date())} {t:%H:%M}"


def cn_when(t: dt.datetime) -> str:
    """A time something was received, as a message says it: China time, month and day as the
    notices write them, without the year — ``11月4日 18:23`` (it was ``11-04 18:23``, beside
    pages reading 2020年11月4日).  The mails and sheets of one tournament come within weeks,
    and the pages give the year with its deadlines and sessions.

    >>> cn_when(dt.datetime(2020, 11, 4, 18, 23, tzinfo=TZ)), cn_when(dt.datetime(2016, 5, 7, 8, 5))
    ('11月4日 18:23', '5月7日 08:05')
    """
    t = aware(t).astimezone(TZ)
    return f"{t.month}月{t.day}日 {t:%H:%M}"
