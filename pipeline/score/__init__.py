"""Standings, tiebreaks and awards (``TIEBREAKS``, ``AWARD_SCHEMES``)."""
from ..registry import Registry

TIEBREAKS: Registry = Registry("tiebreak")
AWARD_SCHEMES: Registry = Registry("award scheme")

# importing a tiebreak / award module registers it
