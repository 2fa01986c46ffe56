"""Chinese script conversion (Simplified → Traditional) for tournaments printed in 繁體.

>>> convert("象棋比赛", "traditional")
'象棋比賽'
"""
from __future__ import annotations

from functools import lru_cache

import opencc


@lru_cache(maxsize=1)
def _s2t() -> "opencc.OpenCC":
    return opencc.OpenCC("s2t")


def convert(text: str, script: str) -> str:
    """Return ``text`` in the tournament's script: unchanged for ``simplified``, converted
    with OpenCC s2t for ``traditional``.  ``convert("分工会", "traditional") == "分工會"``."""
    if script != "traditional" or not text:
        return text
    return _s2t().convert(text)
