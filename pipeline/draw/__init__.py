"""Competition formats, one module each, behind one registry (``FORMATS``)."""
import importlib
from typing import Any

from ..registry import Registry


def _register_all() -> None:
    """Import every format module (importing one registers it), when ``FORMATS`` is first
    asked: a night whose events are all kept from the last run needs none of them."""
    for name in ("knockout", "round_robin", "pairs_movement", "groups_knockout", "tables_of_three",
                 "groups_standings", "swiss"):
        importlib.import_module(f".{name}", __name__)


FORMATS: Registry = Registry("format", load=_register_all)


def byes_scored(format_name: str) -> bool:
    """Whether the format's byes count the event's bye points in its ranking (``BYES_SCORED``):
    a Swiss bye (R2015-F1) and a group's bye of R2016-F3 (累计积分) — what the notice's rules of
    play say a bye scores (a game's ``notice_bye``).  A round robin's rest scores nothing
    (:func:`bye_scores`) and a knockout's 晋级签 only advances: no points are said for them —
    the 掼蛋 notice of a round robin promised 52 that the standings never gave."""
    fmt = FORMATS.get(format_name) if format_name in FORMATS else None
    return bool(getattr(fmt, "BYES_SCORED", False))


def bye_scores(format_name: str, rnd: Any) -> bool:
    """Whether a bye of round ``rnd`` scores the event's bye points.  In a round robin
    (Berger tables: a round robin format, R2020-F4's final pool, R2011-F1's groups) an odd
    count's round off is a rest — no match, so no match points (FIDE: the player paired
    with "bye" in a round robin scores nothing); it once scored a win's points, and the
    standings part-way through put an entry who had lost its only match above one who had
    won.  Elsewhere (Swiss, knockout byes, tables of three, R2016 groups) a bye is drawn
    in place of a game and scores as the rules say.  A format lists its rest rounds by
    their plan's kind (``REST_BYES``).

    A knockout's bye (晋级签, R2020-F1) keeps its points in its result: no points table has a
    knockout round in it (the final round robin counts its own rounds, R2020-F4), and where
    a knockout round's losers are ordered by the tiebreak chain over the whole event
    (R2020-A1's third prizes) the 晋级签 counts as the round won, as a walkover does — not
    below a round won at the board.  The pages do not call it scored: it is 轮空（直接晋级）
    (:func:`pipeline.render.viewmodels.bye_advances`)."""
    fmt = FORMATS.get(format_name) if format_name in FORMATS else None
    return (rnd.plan or {}).get("kind") not in getattr(fmt, "REST_BYES", ())


def bye_unscored(m: Any, result: Any) -> bool:
    """Whether match ``m`` is a bye that does not score, ``result`` its result (or None): its
    entry withdrew before the round's results were all in (handbook 缺席、弃权和退赛,
    :meth:`pipeline.run.EventRunner.unscored_byes`), and its result is an absence — a round
    not played, not won; a 晋级签 so held takes its entry no further.

    >>> from pipeline.model import Match, MatchResult, Outcome, SideResult
    >>> m = Match("x", "swiss", 3, "", 6, ("a",), bye=True)
    >>> bye_unscored(m, MatchResult(m, (SideResult(Outcome.ABSENT),))), bye_unscored(m, None)
    (True, False)
    """
    from ..model import Outcome

    return bool(m.bye and result is not None and result.sides and result.sides[0].outcome == Outcome.ABSENT)
