"""Standings: points, then the event's tiebreak chain (R2020-F4, R2011-F1, R2016-F3).

Pure: takes entry ids, published rounds and their results; returns
:class:`~pipeline.score.base.StandingRow` objects, best first.  The result never
depends on the order of the inputs (entries still tied after the whole chain share a
rank and are listed by entry id).
"""
from __future__ import annotations

from collections import Counter

from typing import Callable, Iterable, Mapping, Sequence

from ..issues import Issue, issue
from ..model import MatchResult, Outcome, Playoff, Round
from . import TIEBREAKS
from .base import StandingRow
from .table import ScoreTable
from .tiebreaks import Tiebreak, TiebreakContext


def _split(group: list[str], values: Mapping[str, int]) -> list[list[str]]:
    """Group entries by value, best (highest) first; members sorted by id."""
    out: dict[int, list[str]] = {}
    for e in group:
        out.setdefault(values[e], []).append(e)
    return [sorted(out[v]) for v in sorted(out, reverse=True)]


class _Ranker:
    def __init__(self, table: ScoreTable, chain: Sequence[Tiebreak], ctx: TiebreakContext) -> None:
        self.table, self.chain, self.ctx = table, chain, ctx
        self.shown: dict[str, dict[str, int]] = {}
        self.unresolved_playoff: list[list[str]] = []

    def refine(self, group: list[str], i: int, same: int = 0) -> list[list[str]]:
        """Order a tied group by chain[i:], returning classes still tied.

        R2020-F4 (Tiebreaks; decision, the spec is silent): whenever a criterion splits a
        tied group, each part of 2+ entries still tied is ranked by the chain again from its
        start — a group-dependent criterion (直胜, 加赛) is computed within the smaller
        group; one that is not gives the part the values it already shares.  A three-way
        cycle split by 胜局数 left the two above tied although one had beaten the other.
        ``same``: the criteria before it are known to tie ``group`` (a part restarting
        skips those that do not depend on the group)."""
        while i < same and i < len(self.chain) and not self.chain[i].group_dependent:
            i += 1
        if len(group) < 2 or i >= len(self.chain):
            return [group]
        tb = self.chain[i]
        vals = tb.values(self.table, group, self.ctx)
        if vals is None:            # a playoff that has not been played
            if tb.is_playoff:
                self.unresolved_playoff.append(group)
            return self.refine(group, i + 1, same)
        if tb.group_dependent:
            for e, v in vals.items():
                self.shown[e][tb.name] = v
        parts = _split(group, vals)
        if len(parts) == 1:
            return self.refine(group, i + 1, same)
        out: list[list[str]] = []
        for part in parts:
            out.extend(self.refine(part, 0, i + 1))     # a smaller tied group: the chain again
        return out


def played_where(results: Mapping[tuple, MatchResult]) -> dict[tuple[str, str], frozenset[str]]:
    """(stage, group) → the entries with a result there (a bye counts): where each
    entry played, for :meth:`pipeline.model.Playoff.home`."""
    out: dict[tuple[str, str], set[str]] = {}
    for res in results.values():
        out.setdefault((res.match.stage, res.match.group), set()).update(res.match.sides)
    return {k: frozenset(v) for k, v in out.items()}


def ranking_where(entry_ids: Iterable[str], rounds: Sequence[Round]) -> tuple[str, str, int] | None:
    """The (stage, group, last round) of a ranking of ``entry_ids`` over ``rounds`` when
    every match of theirs there is of one stage and group (a group's table, a final
    table, a one-stage event), else None (places across stages or groups).

    >>> from pipeline.model import Match, Round
    >>> r = [Round("e", "group", "", k, (Match("e", "group", k, "A", 1, ("a", "b")),)) for k in (1, 2)]
    >>> ranking_where("ab", r), ranking_where("ab", r + [Round("e", "ko", "", 3, (Match("e", "ko", 3, "", 1, ("a", "b")),))])
    (('group', 'A', 2), None)
    """
    want = set(entry_ids)
    where = {(m.stage, m.group) for r in rounds for m in r.matches if want.intersection(m.sides)}
    if len(where) != 1:
        return None
    stage, group = where.pop()
    return stage, group, max(r.round for r in rounds)


def compute_standings(entry_ids: Iterable[str], rounds: Sequence[Round],
                      results: Mapping[tuple, MatchResult] | Iterable[MatchResult],
                      chain: Sequence[str] = (), playoffs: Sequence[Playoff] = (),
                      playoff_places: int | None = None, *, bye_points: int = 0,
                      draw_points: int | None = None, table: ScoreTable | None = None,
                      withdrawn: Iterable[str] = (),
                      played: Mapping[tuple[str, str], frozenset[str]] | None = None,
                      where: tuple[str, str, int] | None | str = "rounds") -> list[StandingRow]:
    """Rank entries by points over ``rounds``, then by the tiebreak ``chain`` (names or
    Chinese aliases from ``TIEBREAKS``).

    - Points are Σ ``SideResult.points`` of the rounds' results; a bye
      (``Match(bye=True)`` without a result) scores ``bye_points``.
    - Ranks are shared by entries still tied after the whole chain (1, 2, 2, 4).
    - An entry absent from every game it has (forfeit losses, absences) ranks below every
      entry that played, whatever the points (a zero-sum 斗地主 table: absent 0 > played −12).
    - ``playoff`` in the chain (R2011-F1, R2011-D2): a tie reaching it is settled by a
      matching :class:`~pipeline.model.Playoff` (its order); without one the tied rows
      get ``playoff_required=True`` — only when the tie touches the first
      ``playoff_places`` places, if that is given.
    - ``draw_points`` is the value of a draw for Buchholz's adjusted scores (default:
      inferred from the results).
    - ``table``: the :class:`ScoreTable` of exactly these ``rounds``, ``results`` and
      points, when the caller already has it (:func:`rank_fn` keeps them).
    - ``withdrawn``: entries the office withdrew — the rounds after it count as their
      voluntary unplayed rounds in their opponents' tiebreaks (:class:`ScoreTable`).
    - ``played`` (:func:`played_where` of the event's results): a playoff settles only the
      tie it was played for (R2011-F1, R2011-D2: :meth:`Playoff.settles_in` in this ranking's
      ``where``, by default :func:`ranking_where` of the entries over ``rounds``); without it
      every playoff listing the tied counts.

    >>> compute_standings(["a", "b"], [], {})[0].rank
    1
    """
    ids = sorted(set(entry_ids))
    if table is None:
        table = ScoreTable(rounds, results, bye_points=bye_points, draw_points=draw_points, withdrawn=withdrawn)
    tbs: list[Tiebreak] = [TIEBREAKS.get(n) for n in chain]
    if played is None:
        where = None
    elif where == "rounds":
        where = ranking_where(ids, rounds)
    ctx = TiebreakContext(playoffs=tuple(playoffs), played=played, where=where)  # type: ignore[arg-type]
    ranker = _Ranker(table, tbs, ctx)
    for e in ids:
        ranker.shown[e] = {tb.name: (0 if tb.group_dependent else tb.value(table, e)) for tb in tbs}

    # an entry that did not turn up to any of its games ranks below every entry that played:
    # by points alone an absent 斗地主 finalist (0) stood above one who played and lost (−12)
    gone = {e for e in ids if table.of(e) and all(
        g.result is not None and g.outcome in (Outcome.FORFEIT_LOSS, Outcome.ABSENT) for g in table.of(e))}
    classes: list[list[str]] = []
    for part in ([e for e in ids if e not in gone], [e for e in ids if e in gone]):
        for group in _split(part, {e: table.points.get(e, 0) for e in part}):
            classes.extend(ranker.refine(group, 0))

    flagged: set[str] = set()
    position = 1
    rank_of: dict[str, int] = {}
    for cls in classes:
        for e in cls:
            rank_of[e] = position
        position += len(cls)
    for group in ranker.unresolved_playoff:
        best = min(rank_of[e] for e in group)
        at = Counter(rank_of[f] for f in group)
        still_tied = [e for e in group if at[rank_of[e]] > 1]
        if still_tied and (playoff_places is None or best <= playoff_places):
            flagged.update(still_tied)

    rows: list[StandingRow] = []
    for cls in classes:
        for e in cls:
            games = table.of(e)
            wins = sum(1 for g in games if g.result and g.outcome in (Outcome.WIN, Outcome.FORFEIT_WIN))
            draws = sum(1 for g in games if g.result and g.outcome == Outcome.DRAW)
            losses = sum(1 for g in games if g.result and g.outcome in (Outcome.LOSS, Outcome.FORFEIT_LOSS, Outcome.ABSENT))
            rows.append(StandingRow(
                entry=e, rank=rank_of[e], points=table.points.get(e, 0),
                score=sum(g.score for g in games),
                # 场次 counts the games its 胜/平/负 count, a forfeit's among them: counting
                # only the games played over the board, a table read 场次 2, 胜 3, 负 0
                played=wins + draws + losses,
                wins=wins, draws=draws, losses=losses,
                tiebreaks=dict(ranker.shown[e]),
                playoff_required=e in flagged,
            ))
    return rows


def playoff_issues(rows: Sequence[StandingRow], *, event: str = "", stage: str = "", group: str = "",
                   names: Mapping[str, str] | None = None) -> list[Issue]:
    """One ``PLAYOFF_REQUIRED`` issue per tied rank flagged in ``rows`` (R2011-F1).

    ``names`` maps entry id → label shown to people (team / player names).
    """
    names = names or {}
    by_rank: dict[int, list[str]] = {}
    for r in rows:
        if r.playoff_required:
            by_rank.setdefault(r.rank, []).append(names.get(r.entry, r.entry))
    where = "".join(p for p in (event, f" {stage}" if stage else "", f" {group}组" if group else ""))
    out = []
    for rank, who in sorted(by_rank.items()):
        out.append(issue("PLAYOFF_REQUIRED",
                         f"{where} 第{rank}名并列：{'、'.join(f'“{w}”' for w in who)} 积分及全部破同分规则均相同，"
                         f"请组织加赛，并在“加赛”表中按名次填写加赛结果"))
    return out


RankFn = Callable[[Sequence[str], Sequence[Round]], list[StandingRow]]


def rank_fn(chain: Sequence[str], results: Mapping[tuple, MatchResult] | Iterable[MatchResult],
            playoffs: Sequence[Playoff] = (), bye_points: int = 0,
            playoff_places: int | None = None, draw_points: int | None = None,
            withdrawn: Iterable[str] = ()) -> RankFn:
    """A :data:`pipeline.draw.base.RankFn` for formats: ``rank(entry_ids, rounds)``, or
    ``rank(entry_ids, rounds, stages=(…))`` to settle ties by the 加赛 of those stages only.

    ``results`` and ``playoffs`` are read when the function is called, so a runner may
    keep adding to the same dict / list.  Only the results of the given rounds count.

    >>> rank_fn(["wins"], {})(["a"], [])[0].entry
    'a'
    """
    # Formats rank many subsets of entries over the same rounds (tiers, groups): the score
    # table of those rounds is built once per (rounds, number of results).  The cache holds
    # the rounds themselves, so their ids are not reused while it lives.
    tables: dict[tuple, tuple[list[Round], ScoreTable]] = {}
    where: list = [None, None]       # (number of results, played_where of them)

    def rank(entry_ids: Sequence[str], rounds: Sequence[Round],
             stages: tuple[str, ...] | None = None) -> list[StandingRow]:
        rounds = list(rounds)
        table = None
        played = None
        if isinstance(results, Mapping):
            key = (tuple(id(r) for r in rounds), len(results))
            hit = tables.get(key)
            if hit is None:
                hit = tables[key] = (rounds, ScoreTable(rounds, results, bye_points=bye_points,
                                                       draw_points=draw_points, withdrawn=withdrawn))
            table = hit[1]
            if playoffs:        # (results are only ever added while a runner draws)
                if where[0] != len(results):
                    where[:] = [len(results), played_where(results)]
                played = where[1]
        use = playoffs if stages is None else [p for p in playoffs if p.stage in stages]
        return compute_standings(entry_ids, rounds, results, chain, use, playoff_places,
                                 bye_points=bye_points, draw_points=draw_points, table=table,
                                 withdrawn=withdrawn, played=played)
    return rank
