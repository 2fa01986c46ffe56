"""Tiebreaks, one module each, registered in :data:`pipeline.score.TIEBREAKS` with an
English name and a Chinese alias.  Values are integers (see ``Tiebreak.scale``).

Unplayed games follow FIDE's Tie-Break Regulations (Handbook C.07, effective 2023;
definitions unchanged in the 2024 edition):

- Art. 14.3: unplayed rounds are classified; a forfeit loss, an absence, and every round
  played after the participant withdrew (``withdrawn`` in tournament.yaml) is a
  *voluntary* unplayed round (VUR); a pairing-allocated bye or a forfeit win is not.
- Art. 16 (unplayed rounds, "dummy opponent"): for the participant's *own* Buchholz an
  unplayed round counts as a game against a dummy opponent holding the participant's
  own score — a draw against oneself — so it contributes the participant's own final
  points.
- Art. 16 (adjusted score): when a participant's score enters an *opponent's*
  Buchholz, each of the participant's VURs is counted as a draw.
- Art. 14.6: Buchholz cut-1 removes a VUR contribution first.

Sources: https://handbook.fide.com/chapter/TieBreakRegulations2023 and
https://handbook.fide.com/chapter/TieBreakRegulations082024 (Art. 14, 16); the
"game against oneself" reading is also described at
https://www.chesspub.com/cgi-bin/chess/YaBB.pl?num=1671648811 and the cut-first rule at
https://chesspairings.org/en/tiebreaks.html.
"""
from .base import Tiebreak, TiebreakContext
from . import (direct, wins, buchholz, buchholz_cut1, sonneborn_berger,  # noqa: F401  (register)
               progressive, black_wins, game_points, playoff)
from .. import TIEBREAKS

#: tiebreak name → display divisor relative to the event's points
TIEBREAK_SCALE: dict[str, int] = {name: tb.scale for name, tb in TIEBREAKS.items()}

__all__ = ["Tiebreak", "TiebreakContext", "TIEBREAK_SCALE"]
