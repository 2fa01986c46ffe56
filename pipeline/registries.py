"""The one place that knows every registry: checks a spec's names against them.

Each package owns its registry (``draw.FORMATS``, ``games.GAMES``,
``score.TIEBREAKS``, ``score.AWARD_SCHEMES``); importing the package registers its
modules.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .registry import UnknownName

if TYPE_CHECKING:
    from .spec import EventSpec, TournamentSpec


def check_event(ev: "EventSpec", spec: "TournamentSpec") -> tuple[str, str] | None:
    """(key, message) for the first unusable name in an event, else None."""
    from .draw import FORMATS
    from .games import GAMES
    from .score import AWARD_SCHEMES, TIEBREAKS

    try:
        game = GAMES.get(ev.game)
    except UnknownName as e:
        return "game", str(e)
    try:
        fmt = FORMATS.get(ev.format.type)
    except UnknownName as e:
        return "format.type", str(e)
    problem = fmt.check_options(ev.format.options)
    if problem:
        return "format", problem
    if fmt.seats != game.seats:
        return "format.type", (f"format {ev.format.type!r} seats {fmt.seats} per table but game "
                               f"{ev.game!r} needs {game.seats}")
    for i, tb in enumerate(ev.tiebreaks or ()):
        if tb not in TIEBREAKS:
            return f"tiebreaks[{i}]", str(UnknownName("tiebreak", tb, TIEBREAKS.names()))
    if ev.awards.scheme not in AWARD_SCHEMES:
        return "awards.scheme", str(UnknownName("award scheme", ev.awards.scheme, AWARD_SCHEMES.names()))
    return None
