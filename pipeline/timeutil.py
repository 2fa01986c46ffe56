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
