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


@lru_cache(maxsize=1)
def _t2s() -> "opencc.OpenCC":
    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional → Simplified (OpenCC t2s), for reading what people typed in either script:
    ``to_simplified("雙升") == "双升"``."""
    return _t2s().convert(text) if text and not text.isascii() else text


def convert(text: str, script: str) -> str:
    """Return ``text`` in the tournament's script: unchanged for ``simplified``, converted
    with OpenCC s2t for ``traditional``.  ``convert("分工会", "traditional") == "分工會"``."""
    if script != "traditional" or not text:
        return text
    return _s2t().convert(text)
