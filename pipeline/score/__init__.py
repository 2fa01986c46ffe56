"""Standings, tiebreaks and awards (``TIEBREAKS``, ``AWARD_SCHEMES``)."""
from ..registry import Registry

TIEBREAKS: Registry = Registry("tiebreak")
AWARD_SCHEMES: Registry = Registry("award scheme")

# importing a tiebreak / award module registers it
from . import tiebreaks  # noqa: E402,F401  (registers direct, wins, buchholz, …)
from . import awards  # noqa: E402,F401  (registers ranked, top_n, group_top)
from .tiebreaks import TIEBREAK_SCALE  # noqa: E402,F401
