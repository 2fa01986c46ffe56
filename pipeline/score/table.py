"""The score table: every entry's games over a set of rounds, the raw material of
standings and tiebreaks.

Built once per standings computation from published rounds and their results; pure,
no I/O.  Points are the event's integer match points (``SideResult.points``).

Byes (R2020-F1, R2020-D1): a bye is a ``Match(bye=True)`` with one side and normally
no :class:`~pipeline.model.MatchResult`; it scores ``bye_points`` (the event's
``points["bye"]``) once every other match of its group's part of its round has its result
(:func:`pending_byes`) — standings shown while a round is
played count the results in, not a bye nobody has played beside yet.  When a result
object *is* stored for a bye match, that result is used instead (never both), so a sheet
can override the bye score.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from ..model import Match, MatchResult, Outcome, Round, SideResult

#: outcomes of a *voluntary* unplayed round (FIDE C.07 (2023) Art. 14.3: the participant
#: chose not to play: forfeit loss, absence).  A pairing-allocated bye and a forfeit win
#: are unplayed but not voluntary.
VOLUNTARY_UNPLAYED = frozenset({Outcome.FORFEIT_LOSS, Outcome.ABSENT})


@dataclass(frozen=True)
class Game:
    """One entry's part in one match (or bye)."""

    round: int
    match: Match
    side: int                        # index of the entry in match.sides
    result: SideResult | None        # None only for a bye without a stored result
    opponents: tuple[str, ...]       # the other sides (empty for a bye)
    opponent_results: tuple[SideResult | None, ...] = ()
    points: int = 0

    @property
    def outcome(self) -> Outcome:
        return self.result.outcome if self.result else Outcome.BYE

    @property
    def played(self) -> bool:
        """Played over the board (win/draw/loss against a real opponent)."""
        return bool(self.opponents) and self.outcome.played

    @property
    def voluntary_unplayed(self) -> bool:
        return self.outcome in VOLUNTARY_UNPLAYED

    @property
    def score(self) -> int:
        return self.result.score if self.result else 0

    @property
    def moved_first(self) -> bool:
        return self.side == self.match.first


def _results_by_key(results: Mapping[tuple, MatchResult] | Iterable[MatchResult]) -> dict[tuple, MatchResult]:
    if isinstance(results, Mapping):
        return {r.match.key: r for r in results.values()}
    return {r.match.key: r for r in results}


def pending_byes(rounds: Sequence[Round],
                 results: Mapping[tuple, MatchResult] | Iterable[MatchResult]) -> set[tuple]:
    """Keys of the byes of ``rounds`` that do not score yet: a bye scores once its round
    has been played *in its group*, not at the draw — while a table of its group's part of
    the round waits for its result, the entry sitting out is not put ahead (R2016-F3,
    R2016-S1).  Another group's sheet still out does not hold it back: the event's
    placements (over whole rounds) and the group's own table (its part of each round)
    scored C组's bye apart while B组's sheet was out, and the standings printed the bye's
    entry 3rd in its group and last in the 当前名次 below it.  The latest round of the group
    with a result in counts its earlier rounds played (a table of one without its result — a
    sheet corrected to an invalid value — keeps its bye).

    A group whose part of the round is only a bye (down to one pair: the others withdrew) has
    no table of its own to wait for: its bye scores once the whole round is in (or a later
    round has a result), as every bye did before byes went by group — not the moment the round
    is drawn (handbook: 刚抽签、尚未比赛的一轮的轮空不计分).

    >>> from pipeline.model import Match, Round
    >>> b = Match("x", "group", 1, "C", 2, ("c3",), bye=True)
    >>> c = Match("x", "group", 1, "C", 1, ("c1", "c2"))
    >>> r = Round("x", "group", "分组赛第1轮", 1, (Match("x", "group", 1, "B", 1, ("b1", "b2")), c, b))
    >>> pending_byes([r], {}) == {b.key}
    True
    >>> lone = Round("x", "group", "分组赛第1轮", 1, (Match("x", "group", 1, "B", 1, ("b1", "b2")), b))
    >>> pending_byes([lone], {}) == {b.key}
    True
    """
    by_key = _results_by_key(results)
    played: dict[str, int] = {}
    for r in rounds:
        for m in r.matches:
            if not m.bye and m.key in by_key:
                played[m.group] = max(played.get(m.group, 0), r.round)
    latest = max(played.values(), default=0)
    out: set[tuple] = set()
    for r in rounds:
        open_groups = {m.group for m in r.matches if not m.bye and m.key not in by_key}
        if not open_groups:
            continue
        tabled = {m.group for m in r.matches if not m.bye}
        out |= {m.key for m in r.matches if m.bye and (
            (m.group in open_groups and r.round >= played.get(m.group, 0))
            or (m.group not in tabled and r.round >= latest))}
    return out


class ScoreTable:
    """Games and points of every entry met in ``rounds``.

    >>> from pipeline.model import Match, Round
    >>> r = Round("x", "rr", "循环赛", 1, (Match("x", "rr", 1, "", 1, ("a",), bye=True),))
    >>> ScoreTable([r], {}, bye_points=2).points["a"]
    2
    """

    def __init__(self, rounds: Sequence[Round],
                 results: Mapping[tuple, MatchResult] | Iterable[MatchResult],
                 bye_points: int = 0, draw_points: int | None = None, withdrawn: Iterable[str] = ()) -> None:
        by_key = _results_by_key(results)
        self.rounds: list[int] = sorted({r.round for r in rounds})
        self.games: dict[str, list[Game]] = defaultdict(list)
        waiting = pending_byes(rounds, by_key)
        played = max((r.round for r in rounds for m in r.matches if not m.bye and m.key in by_key), default=0)
        for rnd in rounds:
            for m in rnd.matches:
                res = by_key.get(m.key)
                if (res is None and not m.bye) or (m.bye and m.key in waiting):
                    continue            # not yet played: contributes nothing
                for i, sid in enumerate(m.sides):
                    side_res = res.sides[i] if res is not None and i < len(res.sides) else None
                    if res is None:     # bye without a stored result
                        pts = bye_points
                    else:
                        pts = side_res.points if side_res else 0
                    others = tuple(s for j, s in enumerate(m.sides) if j != i)
                    other_res = tuple(res.sides[j] if res is not None and j < len(res.sides) else None
                                      for j in range(len(m.sides)) if j != i)
                    self.games[sid].append(Game(m.round, m, i, side_res, others, other_res, pts))
        for gs in self.games.values():
            gs.sort(key=lambda g: (g.round, g.match.stage, g.match.group, g.match.table))
        #: the rounds with a game in (a round drawn and not played yet has none)
        self.played_rounds: list[int] = sorted({g.round for gs in self.games.values() for g in gs})
        self.points: dict[str, int] = defaultdict(int)
        for sid, gs in self.games.items():
            self.points[sid] = sum(g.points for g in gs)
        self.draw_points = draw_points if draw_points is not None else self._infer_draw_points()
        self.adjusted: dict[str, int] = defaultdict(int)
        for sid, gs in self.games.items():
            self.adjusted[sid] = self.points[sid] + sum(
                self.draw_points - g.points for g in gs if g.voluntary_unplayed)
        # Art. 14.3: the rounds played after a participant withdrew (``withdrawn`` in
        # tournament.yaml: no longer paired) are its voluntary unplayed rounds too — a draw
        # each in the score its opponents' Buchholz and Sonneborn–Berger count (it counted
        # nothing, and an opponent of a withdrawn player fell behind one whose opponent
        # stayed and forfeited every later round)
        #: entry → its rounds after it withdrew (up to the latest played): each is, for its
        #: own Buchholz, an unplayed round against the "dummy opponent" (Art. 16: its own points)
        self.withdrawn_rounds: dict[str, int] = {}
        for sid in set(withdrawn) & self.games.keys():
            last = max(g.round for g in self.games[sid])
            n = sum(1 for r in self.rounds if last < r <= played)
            self.adjusted[sid] += self.draw_points * n
            if n:
                self.withdrawn_rounds[sid] = n

    def _infer_draw_points(self) -> int:
        """The point value of a draw: seen in a drawn game, else midway between a win
        and a loss (integer division), else 1."""
        wins, losses = [], []
        for gs in self.games.values():
            for g in gs:
                if g.outcome == Outcome.DRAW:
                    return g.points
                if g.outcome == Outcome.WIN:
                    wins.append(g.points)
                elif g.outcome == Outcome.LOSS:
                    losses.append(g.points)
        if wins and losses:
            return (min(wins) + min(losses)) // 2
        return 1

    def of(self, entry: str) -> list[Game]:
        return self.games.get(entry, [])


def result_weight(outcome: Outcome) -> int:
    """A game's result on a 2/1/0 scale (win 2, draw 1, loss 0) whatever the point system:
    the factor of Sonneborn–Berger (FIDE: 1, ½, 0 — scaled by 2 to stay integer)."""
    if outcome.is_win:
        return 2
    if outcome == Outcome.DRAW:
        return 1
    return 0


def pairwise_weight(mine: SideResult | None, theirs: SideResult | None) -> int:
    """2/1/0 for one side against another at a multi-player table: better place wins,
    else more points, else more score; equal → 1."""
    if mine is None or theirs is None:
        return 1
    if mine.place is not None and theirs.place is not None and mine.place != theirs.place:
        return 2 if mine.place < theirs.place else 0
    for a, b in ((mine.points, theirs.points), (mine.score, theirs.score)):
        if a != b:
            return 2 if a > b else 0
    return 1
