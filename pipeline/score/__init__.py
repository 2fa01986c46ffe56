"""Standings, tiebreaks and awards (``TIEBREAKS``, ``AWARD_SCHEMES``).

Their modules register themselves when imported, and are imported when a registry is first
asked (:class:`~pipeline.registry.Registry`'s ``load``), as is ``TIEBREAK_SCALE``: a night
whose events are all kept from the last run scores nothing and imports none of them."""
import importlib
from typing import Any

from ..registry import Registry


def _tiebreaks() -> None:
    importlib.import_module(".tiebreaks", __name__)     # registers direct, wins, buchholz, …


def _award_schemes() -> None:
    importlib.import_module(".awards", __name__)        # registers ranked, top_n, group_top


TIEBREAKS: Registry = Registry("tiebreak", load=_tiebreaks)
AWARD_SCHEMES: Registry = Registry("award scheme", load=_award_schemes)


def __getattr__(name: str) -> Any:
    """``TIEBREAK_SCALE`` (tiebreak name → display divisor), from :mod:`.tiebreaks` when asked for (PEP 562)."""
    if name == "TIEBREAK_SCALE":
        from .tiebreaks import TIEBREAK_SCALE
        globals()[name] = TIEBREAK_SCALE
        return TIEBREAK_SCALE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
