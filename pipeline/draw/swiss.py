"""Swiss system (R2015-F1 default for 围棋 and 象棋).

Round 1 pairs by lot (entries of one branch kept apart where possible).  Later rounds
pair by the current standing (``state.rank``, the event's tiebreak chain): the best
unpaired entry meets the nearest entry below it that it has not met yet, so entries
of one score group meet each other first (Monrad-style adjacent pairing, usual in
Chinese xiangqi Swiss events); backtracking guarantees no rematch whenever a
rematch-free pairing exists in reach (a search budget keeps 500 entries fast; past it
the nearest not-yet-met partner is taken greedily).

Lookahead (R2015-F1's 同一对手不重复相遇 over the whole event; FIDE C.04.1 b and d — no two
players meet twice, no second pairing-allocated bye — which the Dutch system makes absolute
criteria, C.04.3 C.1–C.2; here they are kept for the rest of the event, not only the round
being paired): with up to ``LOOKAHEAD_MAX`` entries a round takes, among its acceptable
pairings in the order above, the first after which the remaining rounds still have a
rematch-free, second-bye-free completion (exact search, a round robin's rounds being the
limit: ≤ n − 1 rounds for even n, ≤ n for odd n).  Pairing one round at a time painted
itself into a corner (5 players, 4 rounds: about half the events repeated a pairing).  When
no completion exists, or the bounded search (``LOOKAHEAD_STEPS``) does not settle it, and
for larger fields, the round is paired on its own as before.  Only the round being drawn is
affected: a published round is never redrawn.

Odd count: the bye goes to the lowest-ranked entry among those with the fewest byes
(at most one bye per entry while someone has none), preferring one whose removal
leaves a rematch-free pairing.  A win by forfeit, in any earlier round, puts its winner after
the others for the bye (FIDE C.04.1 d: a player who has had a point without playing does not
get the bye): among those with the fewest byes the candidates go by (forfeit wins, lowest
ranked first), so a forfeit winner gets the bye only when no one without a bye or a forfeit
win can take it without a rematch.  It is not a bye: R2015-F1's limits (at most one real bye
each, no rematch) stay absolute and the lookahead counts real byes only — counting forfeit
wins there left everyone "used" once all had one or the other, and the lowest got a second
real bye (5 players, forfeits in rounds 1–2).  The draw sheet names a forfeit winner passed
over, and says why one got the bye.  An entry that did not turn up last round (forfeit loss or absent) is
asked last of those with the fewest byes: the rule (上一轮弃权或缺席的不轮空) is a preference
that yields to R2015-F1's limits, so it gets the bye when no one else with the fewest byes
can take it without a rematch (now, or — the lookahead — later), and the draw sheet says so
(leaving it out once gave a second bye and an avoidable rematch, said to be unavoidable).

First move (先手: 执红 for Xiangqi, 执黑 for Go).  R2015-F1 promises balance only; the FIDE
Dutch system (C.04.3) fills in the rest.  Pairing (C.3, absolute colour criteria): two
entries with the same absolute preference (A.6: moved first — or second — two more times
than the other way, or twice running) do not meet, so nobody's counts differ by 3 and nobody
moves first (second) three times running — except that in the last round a topscorer (A.7:
more than half the most points possible so far) is paired by score, and it or its opponent
may then move a third time in a row, or 3 apart (E.2 gives the side to the wider difference).
Rematch avoidance comes first; when no pairing keeps the colour criteria, the pairing by
standing stands.  A pair by standing split for first moves is said on the draw sheet (说明), as
a rematch swap is, and so is every entry the round leaves 3 apart or a third time running,
with why (:meth:`Swiss._limit_notes`) — the notice promises the limits with these exceptions.  A game
with no first move to balance (a card game, a best-of-three match: ``EventState.first_move``,
as the notice says nothing of first moves for it) is paired by standing alone.
Allocation (E.1–E.5, :func:`~pipeline.draw.common.allocate_first`): both preferences, else
the stronger (absolute > strong > mild), else alternate from the last game the two had
different sides, else the higher ranked entry's preference, else by lot.

Option ``rounds``: default ⌈log2 n⌉ + 1, capped at n − 1 (at least 1).  A ``rounds`` larger
than the field allows without a rematch or a second bye (n − 1 rounds for even n, n for odd n;
n the entries of round 1) is capped there too (:func:`most_rounds`): R2015-F1 promises
both, and 9 players over 20 rounds met the same opponents five times.  The runner warns
(ROUNDS_CAPPED) until tournament.yaml says a number the field allows.
Plan: ``{"kind": "swiss", "round_no": k, "of": total}``.
"""
from __future__ import annotations

import math
import random
from typing import Any

from ..model import Match, Round
from . import FORMATS
from .base import EventState, Placement
from .common import (ABSOLUTE, allocate_first, bye_candidates, bye_counts, check_int, check_known, colour_histories,
                     colour_preference, first_problem, entry_word, forfeit_wins, next_round_no, no_shows, opponents,
                     pair_avoiding, ranked, rematch_notes, rounds_of, shown, shown_list, spread_tables,
                     tier_placements, withdrawn_notes)

STAGE = "swiss"


def default_rounds(n: int) -> int:
    """⌈log2 n⌉ + 1, capped at n − 1, at least 1.

    >>> [default_rounds(n) for n in (2, 3, 8, 22, 500)]
    [1, 2, 4, 6, 10]
    """
    if n < 2:
        return 0
    return max(1, min(math.ceil(math.log2(n)) + 1, n - 1))


def most_rounds(n: int) -> int:
    """R2015-F1: the most Swiss rounds ``n`` entries can play with no rematch and at most one bye
    each — a round robin's: n − 1 for even n, n for odd n (each sits out once).

    >>> [most_rounds(n) for n in (2, 8, 9)]
    [1, 7, 9]
    """
    return n if n % 2 else n - 1


class _OutOfSteps(Exception):
    """The lookahead's search budget ran out: it cannot tell, so the round pairs on its own."""


class _Lookahead:
    """R2015-F1 / FIDE C.04.1 b, d: a round's pairing must leave the rest of the event a
    rematch-free completion.  The entries are the vertices of the graph of pairs not yet
    met; for an odd count a phantom vertex stands for the bye (meeting it is the bye, so a
    second bye is a rematch with it, and each round is a perfect matching).  ``future``
    more rounds need that many edge-disjoint perfect matchings of what this round leaves.
    Exact search on bit masks (a small field only), bounded by ``steps``.

    Four entries, a and b met in round 1: after a–c, b–d one more round (a–d, b–c) is left.

    >>> met = {"a": {"b"}, "b": {"a"}}
    >>> [_Lookahead(["a", "b", "c", "d"], met, {}, future, 1_000).completes_after([("a", "c"), ("b", "d")])
    ...  for future in (1, 2)]
    [True, False]
    """

    def __init__(self, order: list[str], met: dict[str, set[str]], byes: Any, future: int, steps: int) -> None:
        self.index = {e: i for i, e in enumerate(order)}
        self.phantom = len(order) if len(order) % 2 else None
        size = len(order) + len(order) % 2
        self.full = (1 << size) - 1
        adj = [self.full & ~(1 << i) for i in range(size)]
        for e, i in self.index.items():
            for o in met.get(e, ()):
                j = self.index.get(o)
                if j is not None:
                    adj[i] &= ~(1 << j)
            if self.phantom is not None and byes.get(e, 0):
                adj[i] &= ~(1 << self.phantom)
                adj[self.phantom] &= ~(1 << i)
        self.adj = tuple(adj)
        self.future = future
        self.steps = steps
        self.hopeless: set[tuple] = set()

    def _tick(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise _OutOfSteps

    def completes_after(self, pairs: list[tuple[str, str]], bye: str | None = None) -> bool:
        """Whether, after this round's ``pairs`` (and ``bye``), ``future`` more rounds can be
        paired with no rematch and no second bye (raises :class:`_OutOfSteps`)."""
        adj = list(self.adj)
        edges = [(self.index[a], self.index[b]) for a, b in pairs]
        if bye is not None:
            edges.append((self.index[bye], self.phantom))
        for i, j in edges:
            adj[i] &= ~(1 << j)
            adj[j] &= ~(1 << i)
        return self._matchings(tuple(adj), self.future, -1)

    def _matchings(self, adj: tuple[int, ...], k: int, lo: int) -> bool:
        """Whether ``adj`` holds ``k`` edge-disjoint perfect matchings, vertex 0's partner
        above ``lo`` in each (the matchings are taken in the order of that partner)."""
        if k == 0:
            return True
        key = (adj, k, lo)
        if key in self.hopeless or any(bin(a).count("1") < k for a in adj):
            return False
        for m in self._perfect(adj, self.full, lo):
            rest = list(adj)
            for i, j in m:
                rest[i] &= ~(1 << j)
                rest[j] &= ~(1 << i)
            if self._matchings(tuple(rest), k - 1, m[0][1]):
                return True
        self.hopeless.add(key)
        return False

    def _perfect(self, adj: tuple[int, ...], free: int, lo: int):
        """The perfect matchings of the vertices in ``free`` (lowest vertex first)."""
        if not free:
            yield ()
            return
        low = free & -free
        v = low.bit_length() - 1
        cand = adj[v] & free
        if v == 0 and lo >= 0:
            cand &= ~((2 << lo) - 1)
        while cand:
            bit = cand & -cand
            cand ^= bit
            self._tick()
            rest = free & ~(low | bit)
            left, stuck = rest, False
            while left and not stuck:
                w = left & -left
                left ^= w
                stuck = not adj[w.bit_length() - 1] & rest
            if stuck:
                continue
            for sub in self._perfect(adj, rest, lo):
                yield ((v, bit.bit_length() - 1),) + sub

    def _pairings(self, order: list[str], avoid: dict[str, set[str]]):
        """The pairings of ``order`` that avoid ``avoid``, in :func:`pair_avoiding`'s order
        (each entry, best first, takes the nearest allowed entry below it)."""
        if not order:
            yield []
            return
        self._tick()
        a, seen = order[0], avoid.get(order[0], set())
        for j in range(1, len(order)):
            if order[j] not in seen:
                for sub in self._pairings(order[1:j] + order[j + 1:], avoid):
                    yield [(a, order[j])] + sub

    def _first(self, order: list[str], avoid: dict[str, set[str]], bye: str | None) -> list[tuple[str, str]] | None:
        for pairs in self._pairings(order, avoid):
            if self.completes_after(pairs, bye):
                return pairs
        return None

    def choose(self, order: list[str], cands: list[str], met: dict[str, set[str]],
               tiers: list[dict[str, set[str]]]
               ) -> tuple[str | None, list[tuple[str, str]], list[tuple[str, str]], dict[str, set[str]]] | None:
        """(bye, pairs by standing, pairs, the clashes kept) as :meth:`Swiss._pair_alone` and
        :meth:`Swiss._colour_safe` would choose, but only among choices that leave a
        completion: the bye candidates in order, then the pairings of the rest in standing
        order, preferring one that also keeps the first-move criteria (the first of ``tiers``
        that can be kept, FIDE C.3).  None when no completion exists even now, or the search
        ran out of steps."""
        try:
            if not self._matchings(self.adj, self.future + 1, -1):
                return None
            for c in cands or [None]:
                rest = [e for e in order if e != c]
                plain = self._first(rest, met, c)
                if plain is None:
                    continue
                for clash in tiers:
                    strict = Swiss._strict(rest, met, clash)
                    if strict is None or not any(b in strict[a] and b not in met.get(a, ()) for a, b in plain):
                        return c, plain, plain, clash
                    try:
                        pairs = self._first(rest, strict, c)
                    except _OutOfSteps:
                        pairs = None
                    if pairs is not None:
                        return c, plain, pairs, clash
                return c, plain, plain, {}
        except (_OutOfSteps, RecursionError):
            return None
        return None


class Swiss:
    """R2015-F1: Swiss pairing by standing, no rematches, one bye each, first-move balance
    (FIDE C.04.3 C.3, E.1–E.5)."""

    name = "swiss"
    title = "瑞士制"
    seats = 2
    #: a bye is drawn in place of a game and its points count in the standings: the notice
    #: says what it scores (:func:`pipeline.draw.byes_scored`)
    BYES_SCORED = True
    OPTIONS = ("rounds",)
    #: the options as the spec reference documents them (pipeline.specdoc)
    OPTION_DOCS = {
        "rounds": "比赛轮数（整数，如 `rounds: 5`）。不填时按参赛人数确定（约为 log₂人数 + 1 轮）。"
                  "不能超过参赛人数所能进行的轮数：不重复相遇、每人至多轮空一次，最多为人数减 1 轮"
                  "（人数为偶数）或人数轮（奇数）；超过时按最多轮数进行并提示（ROUNDS_CAPPED）",
    }
    BYE_TRIES = 8
    LOOKAHEAD_MAX = 16          # entries; a larger field pairs each round on its own
    LOOKAHEAD_STEPS = 200_000   # search steps a round's lookahead may take before giving up

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None, or a message naming the bad option (``rounds`` 1..50)."""
        return first_problem(check_known(options, self.OPTIONS, self.name),
                             check_int(options, "rounds", 1, 50))

    def stage_kind(self, rounds: list[Round]) -> tuple[str, str]:
        """(kind, label) of a stage of this format's rounds on the event page
        (:func:`pipeline.render.site_vm.stage_kind`): the format says what it drew, the
        page does not guess it from the stage's name (R2015-F1)."""
        return "swiss", "积分编排赛"

    def describe(self, options: dict[str, Any], game: Any = None) -> str:
        """Chinese paragraph for the notice.  Who moves first is said only for a one-game
        board game, in its own colours (``first_note``: 执红先行 for Xiangqi, 执黑先行 for
        Go), with the limits that may move a pairing off the standing (FIDE C.04.3 C.3) and
        their exceptions as the draw keeps them — a last-round topscorer paired by score (A.7:
        it or its opponent), and rematch avoidance first — each said on the draw sheet
        (:meth:`_limit_notes`); a card game or a best-of-three match has no first move to
        balance."""
        r = options.get("rounds")
        rounds = f"共 {r} 轮" if r else "轮数按参赛人数确定（约为 log₂人数 + 1 轮）"
        first = getattr(game, "first_note", None) if game is not None else ""
        balance = ("" if first is None else
                   "先后手按各人已执先次数均衡分配" + (f"（{first}）" if first else "") +
                   "，同一人先手与后手次数相差不超过 2 次，也不连续三轮先手或后手；为此个别对阵不按名次就近配对时，"
                   "在抽签表的说明中写明。最后一轮积分领先（超过已赛轮次满分一半）的选手为按积分配对可能例外"
                   "（本人或其对手先后手相差 3 次或连续三轮先手或后手）；与避免重复对阵不能兼顾时，也以不重复相遇为先；"
                   "出现例外时，抽签表的说明写明是谁、为何。")
        teams = getattr(game, "side_size", 1) > 1
        odd = ("队数为奇数时由排名最后且未轮空过的一队轮空，每队至多轮空一次；已得弃权胜的队排在其他未轮空过的队之后轮空，"
               "上一轮弃权或缺席的队不轮空，除非不如此就有队第二次轮空或重复相遇（抽签表的说明写明）。" if teams else
               "人数为奇数时由排名最后且未轮空过的选手轮空，每人至多轮空一次；已得弃权胜者排在其他未轮空过的选手之后轮空，"
               "上一轮弃权或缺席者不轮空，除非不如此就有人第二次轮空或重复相遇（抽签表的说明写明）。")
        return (f"采用瑞士制，{rounds}。第一轮抽签配对（同一单位尽量不相遇），"
                f"以后各轮按当前积分和名次由高到低就近配对，积分相同者优先相遇，同一对手不重复相遇；{odd}"
                f"{balance}按积分及破同分规则排名。")

    def next_round(self, state: EventState, rng: random.Random) -> Round | None:
        """R2015-F1: the next Swiss round, or None after the last."""
        done = rounds_of(state, "swiss")
        # an entry the office withdrew is not paired from now on (its results stand)
        ids = sorted(e.id for e in state.entries if e.id not in state.withdrawn)
        if len(ids) < 2:
            return None
        # the rounds tournament.yaml sets now (an option changed after the draw is for the
        # draws to come, as FORMAT_CHANGED tells the office), else those round 1 was drawn for
        total = state.options.get("rounds") or (done[0].plan["of"] if done else default_rounds(len(ids)))
        capped = self.rounds_capped(state)
        if capped is not None:          # (a count the field allows, or the default, stands)
            total = capped[1]
        if len(done) >= total:
            return None
        k = len(done) + 1
        notes: list[str] = withdrawn_notes(state)
        if capped is not None and not done:
            w = entry_word(state)
            notes.append(f"设定 {capped[0]} 轮，但 {self.field_size(state)} {w}在不重复相遇、每{w}至多轮空一次的前提下"
                         f"最多赛 {capped[1]} 轮，本项目共赛 {capped[1]} 轮。")
        byes = bye_counts(done)
        # FIDE C.04.1 (d): a forfeit win is a point without playing: its winner comes after the
        # others for the bye, but it is no bye (R2015-F1's one bye each counts real byes only)
        won_free = forfeit_wins(state, done)
        met = opponents(done)
        hist = colour_histories(state.rounds)
        rank_of: dict[str, int] = {}
        top: set[str] = set()
        if not done:
            bye = rng.choice(ids) if len(ids) % 2 else None
            rest = [e for e in ids if e != bye]
            pairs = [tuple(p) for p in spread_tables(rest, 2, rng, state.branch_of)]
            if bye:
                notes.append(f"{entry_word(state)}数为奇数，{shown(state, bye)}抽签轮空。")
        else:
            rows = ranked(state, ids, done)
            order = [r.entry for r in rows]
            rank_of = {e: i for i, e in enumerate(order)}
            # no first-move criteria for a game with no first move to balance (a card game)
            tiers = self._clash_tiers(order, hist, set()) if state.first_move else []
            # FIDE C.04.3 A.7: the last round lets a topscorer off when keeping it costs a pairing by score
            last = k == total and state.first_move
            top = self._topscorers(state, rows, done) if last else set()
            relaxed = self._clash_tiers(order, hist, top) if last else None
            points = {r.entry: r.points for r in rows}
            cands: list[str] = []
            away: set[str] = set()
            fewest = 0
            if len(order) % 2:
                # a bye is a free win: not for an entry that did not turn up last round — unless
                # no one else with the fewest byes can take it without a rematch (the limits first)
                away = no_shows(state, done[-1])
                fewest = min(byes[e] for e in order)
                # lowest ranked first, a forfeit winner after those without one, a no-show last
                cands = bye_candidates(order, byes, away, won_free)
            bye, plain = self._pair_alone(order, cands, met)
            pairs, kept = self._colour_safe([e for e in order if e != bye], met, plain, tiers, relaxed, points)
            look = (_Lookahead(order, met, byes, total - k, self.LOOKAHEAD_STEPS)
                    if 0 < total - k and len(order) <= self.LOOKAHEAD_MAX else None)
            chosen = look.choose(order, cands, met, tiers) if look is not None else None
            ahead: list[str] = []
            moved = chosen is not None and chosen[0] != bye
            if moved:
                ahead.append(f"为使以后各轮仍能避免重复对阵，由{shown(state, chosen[0])}代替"
                             f"{shown(state, bye)}本轮轮空。")
            if chosen is not None and {frozenset(p) for p in chosen[1]} != {frozenset(p) for p in plain}:
                ahead.append("为使以后各轮仍能避免重复对阵，本轮未完全按名次就近配对。")
            if chosen is not None:
                bye, plain, pairs, kept = chosen
            if bye:
                group = "未轮空过" if fewest == 0 else "轮空次数最少"
                why = ("" if moved or bye in away else "排名最后且") + group
                below = order[order.index(bye) + 1:]
                skipped = [e for e in below if e in away and byes[e] == fewest] if bye not in away else []
                won = ([e for e in below if e not in away and byes[e] == fewest and won_free[e] > won_free[bye]]
                       if bye not in away else [])
                why_not = "；".join(
                    ([f"{shown_list(state, skipped)}上一轮弃权或缺席"] if skipped else [])
                    + ([f"{shown_list(state, won)}已得弃权胜"] if won else []))
                also = ""
                if bye in away:
                    # the no-show rule yields to the limits: everyone asked before it could
                    # not take the bye without a rematch (now, or in a later round)
                    first = cands[:cands.index(bye)]
                    cause = ([f"{group}的{entry_word(state)}上一轮都弃权或缺席"]
                             if not any(e not in away for e in cands) else [])
                    if first:
                        cause.append(f"{shown_list(state, first)}轮空则{'本轮或以后各轮' if moved else ''}"
                                     "无法避免重复对阵")
                    also = f"{shown(state, bye)}虽上一轮弃权或缺席，但" + "，".join(cause)
                elif won_free[bye]:
                    # FIDE C.04.1 (d): a forfeit winner gets the bye only when no one else can
                    clean = [e for e in cands if won_free[e] < won_free[bye] and e not in away]
                    if any(byes[e] == fewest and won_free[e] < won_free[bye] for e in away):
                        group += "且上一轮未弃权或缺席"
                    also = (f"{shown(state, bye)}虽已得弃权胜，但"
                            + (f"{shown_list(state, clean)}轮空则{'本轮或以后各轮' if moved else ''}无法避免重复对阵"
                               if clean else f"{group}的{entry_word(state)}都已得弃权胜"))
                said = "；".join(([f"{why_not}，不安排轮空"] if why_not else []) + ([also] if also else []))
                notes.append(f"{entry_word(state)}数为奇数，{why}的{shown(state, bye)}本轮轮空"
                             + (f"（{said}）" if said else "") + "。")
            notes += ahead
            rest = [e for e in order if e != bye]
            notes += rematch_notes(state, rest, pairs, done)
            notes += self._colour_notes(state, plain, pairs, kept, hist)
            for a, b in pairs:
                if b in met.get(a, ()):
                    notes.append(f"{shown(state, a)}与{shown(state, b)}再次相遇：已无法避免重复对阵。")
        no = next_round_no(state)
        # FIDE C.04.3 E.4: the higher ranked of the two is passed first (round 1: none is)
        matches = [Match(state.event_id, STAGE, no, "", t,
                         allocate_first(*sorted((a, b), key=lambda e: rank_of.get(e, 0)), hist, rng))
                   for t, (a, b) in enumerate(pairs, start=1)]
        if done and state.first_move:
            notes += self._limit_notes(state, matches, hist, top)
        if bye:
            matches.append(Match(state.event_id, STAGE, no, "", len(matches) + 1, (bye,), bye=True))
        return Round(state.event_id, STAGE, f"瑞士制第{k}轮", no, tuple(matches), notes=tuple(notes),
                     plan={"kind": "swiss", "round_no": k, "of": total})

    @staticmethod
    def field_size(state: EventState) -> int:
        """The entries of the event's field: those paired (or given the bye) in round 1, or
        before it those that would be."""
        done = rounds_of(state, "swiss")
        if done:
            return len(done[0].entries())
        return sum(1 for e in state.entries if e.id not in state.withdrawn)

    def rounds_capped(self, state: EventState) -> tuple[int, int] | None:
        """R2015-F1: (rounds asked for, the most the field allows) when ``rounds`` (in
        tournament.yaml now, or in the plan round 1 was drawn with) asks for more rounds than
        :func:`most_rounds` of the field; else None."""
        done = rounds_of(state, "swiss")
        asked = state.options.get("rounds") or (done[0].plan.get("of") if done else None)
        n = self.field_size(state)
        if not asked or n < 2 or asked <= most_rounds(n):
            return None
        return asked, most_rounds(n)

    def _pair_alone(self, order: list[str], cands: list[str], met: dict[str, set[str]]
                    ) -> tuple[str | None, list[tuple[str, str]]]:
        """(bye, pairs) for this round on its own: the first bye candidate (``cands``, lowest
        ranked first; empty for an even count) whose removal leaves a rematch-free pairing, and
        the pairing top-down by standing (first moves aside: :meth:`_colour_safe`)."""
        if cands:
            tries = cands if len(order) <= 64 else cands[:self.BYE_TRIES]
            for c in tries:
                trial = pair_avoiding([e for e in order if e != c], met)
                if all(b not in met.get(a, ()) for a, b in trial):
                    return c, trial
            return cands[0], pair_avoiding([e for e in order if e != cands[0]], met)
        return None, pair_avoiding(order, met)

    @staticmethod
    def _topscorers(state: EventState, rows: list[Any], done: list[Round]) -> set[str]:
        """FIDE C.04.3 A.7: the entries with more than half the most points possible so far
        (the notice: 超过已赛轮次满分一半) — the rounds played times the best one result of
        the event (a win's points, or a bye's, whichever is more): a round in which every game
        was drawn still had a win's points to play for."""
        best = max((sr.points for r in done for m in r.matches if m.key in state.results
                    for sr in state.results[m.key].sides), default=0)
        return {r.entry for r in rows if 2 * r.points > best * len(done)}

    @staticmethod
    def _clash_tiers(order: list[str], hist: dict[str, list[int]], top: set[str]) -> list[dict[str, set[str]]]:
        """FIDE C.04.3 C.3: entry → the entries it must not meet for first moves — those with
        the same absolute preference (A.6), neither of them a topscorer ``top`` (A.7: given in
        the last round only) — and, as a fallback when that cannot be kept, the same for a
        preference from the difference alone (firsts and seconds never 3 apart, but three
        times running allowed)."""
        tiers = []
        for doubles in (True, False):
            by_side: dict[int, set[str]] = {0: set(), 1: set()}
            for e in order:
                side, strength, diff = colour_preference(hist.get(e, ()))
                if strength == ABSOLUTE and e not in top and (doubles or abs(diff) > 1):
                    by_side[side].add(e)
            tiers.append({e: g - {e} for g in by_side.values() if len(g) > 1 for e in g})
        return tiers

    @staticmethod
    def _strict(order: list[str], met: dict[str, set[str]], clash: dict[str, set[str]]
                ) -> dict[str, set[str]] | None:
        """None when no two entries of ``order`` may not meet for first moves (``clash``); else
        the partners each must not take: those met, and those it clashes with."""
        if not any(clash.get(e) for e in order):
            return None
        return {e: set(met.get(e, ())) | clash.get(e, set()) for e in order}

    @classmethod
    def _colour_safe(cls, order: list[str], met: dict[str, set[str]], pairs: list[tuple[str, str]],
                     tiers: list[dict[str, set[str]]], relaxed: list[dict[str, set[str]]] | None = None,
                     points: dict[str, int] | None = None) -> tuple[list[tuple[str, str]], dict[str, set[str]]]:
        """(pairs, the clashes kept): prefer a pairing where no two entries with the same
        absolute first-move preference meet (FIDE C.04.3 C.3: the first of ``tiers`` that can
        be kept) — nobody's firsts and seconds differ by 3, nobody moves first (second) three
        times running; the pairing by standing ``pairs`` (and no clashes) when none is found.
        ``relaxed`` (the last round: ``tiers`` without the topscorers, A.7): the pairing kept
        to ``relaxed``, unless one kept to ``tiers`` too pairs by score no worse (C.04.3 puts
        pairing by score, C.6–C.9, above a topscorer's colours, C.10–C.11)."""
        def first_kept(ts: list[dict[str, set[str]]]) -> tuple[list[tuple[str, str]], dict[str, set[str]]] | None:
            for t in ts:
                found = cls._kept(order, met, pairs, t)
                if found is not None:
                    return found, t
            return None

        best = first_kept(tiers)
        if relaxed is None:
            return best or (pairs, {})
        base = first_kept(relaxed) or (pairs, {})
        if best is not None and best[1] is tiers[0] and cls._score_gaps(best[0], points) <= cls._score_gaps(base[0], points):
            return best
        return base

    @classmethod
    def _kept(cls, order: list[str], met: dict[str, set[str]], pairs: list[tuple[str, str]],
              clash: dict[str, set[str]]) -> list[tuple[str, str]] | None:
        """``pairs`` when no two of a pair clash, else the first pairing by standing where none
        does and none meets again (a bounded search, pruned by the groups that may not meet:
        without them 100 entries ran out of steps and a third first move in a row was drawn
        where a pairing keeping the criteria was there to find), else None."""
        strict = cls._strict(order, met, clash)
        if strict is None or not any(b in strict[a] and b not in met.get(a, ()) for a, b in pairs):
            return pairs
        inside = set(order)
        groups = {frozenset(({e} | clash[e]) & inside) for e in order if clash.get(e)}
        trial = pair_avoiding(order, strict, budget=5_000, apart=[set(g) for g in groups if len(g) > 1])
        return None if any(b in strict[a] for a, b in trial) else trial

    @staticmethod
    def _score_gaps(pairs: list[tuple[str, str]], points: dict[str, int] | None) -> list[int]:
        """The pairs' score differences, largest first (FIDE C.04.3 C.9 compares them so)."""
        pts = points or {}
        return sorted((abs(pts.get(a, 0) - pts.get(b, 0)) for a, b in pairs), reverse=True)

    @staticmethod
    def _colour_notes(state: EventState, plain: list[tuple[str, str]], pairs: list[tuple[str, str]],
                      clash: dict[str, set[str]], hist: dict[str, list[int]]) -> list[str]:
        """The draw sheet's 说明 for each pair by standing (``plain``) not drawn because both
        must move first (or second) — FIDE C.04.3 C.3 — naming why and the pairs instead."""
        chosen = {frozenset(p) for p in pairs}
        partner = {a: b for x, y in pairs for a, b in ((x, y), (y, x))}

        def why(e: str) -> tuple[bool, str]:
            return _need(hist.get(e, ()))

        notes = []
        for a, b in plain:
            if b not in clash.get(a, ()) or frozenset((a, b)) in chosen:
                continue
            side, _, _ = colour_preference(hist.get(a, ()))
            want, other = ("先手", "后手") if side == 0 else ("后手", "先手")
            (da, wa), (db, wb) = why(a), why(b)
            aims = (["先后手次数相差不超过2"] if da or db else []) + ([f"不连续三轮{other}"] if not (da and db) else [])
            notes.append(f"{shown(state, a)}与{shown(state, b)}按名次应相遇，但两人本轮都须{want}"
                         f"（{shown(state, a)}{wa}，{shown(state, b)}{wb}）；为使{'、'.join(aims)}，"
                         f"改为{shown(state, a)}对{shown(state, partner[a])}、{shown(state, b)}对{shown(state, partner[b])}。")
        return notes

    @staticmethod
    def _limit_notes(state: EventState, matches: list[Match], hist: dict[str, list[int]],
                     top: set[str]) -> list[str]:
        """The draw sheet's 说明 for each entry this round's first moves leave 3 apart or on
        one side a third time running (R2015-F1 as the notice words it): who, what, and why —
        a last-round game of a topscorer (``top``; FIDE C.04.3 A.7: paired by score, C.3 waived)
        or, past that, no pairing found that kept the criteria without a rematch — and why the
        other of the two, who needed the same side (E.1–E.2), was given it (E.2–E.4)."""
        notes = []
        for m in matches:
            if m.bye or len(m.sides) != 2:
                continue
            for i, x in enumerate(m.sides):
                side, before = (0 if i == m.first else 1), hist.get(x, [])
                want, strength, dx = colour_preference(before)
                if strength != ABSOLUTE or side == want:
                    continue
                y = m.sides[1 - i]
                after = [*before, side]
                diff = sum(1 if s == 0 else -1 for s in after)
                run = next((j for j in range(len(after)) if after[-1 - j] != side), len(after))
                word, need = ("先手", "后手") if side == 0 else ("后手", "先手")
                what = ([f"{'先手比后手' if diff > 0 else '后手比先手'}多{abs(diff)}次"] if abs(diff) > 2 else []) + \
                       ([f"连续{_COUNT.get(run, str(run))}轮{word}"] if run >= 3 else [])
                hy = hist.get(y, [])
                dy = colour_preference(hy)[2]
                if abs(dy) != abs(dx):
                    given = f"{shown(state, y)}先后手次数相差 {abs(dy)} 次，多于{shown(state, x)}的 {abs(dx)} 次，"
                elif any(a != b for a, b in zip(reversed(before), reversed(hy))):
                    given = "按两人最近一次先后手不同的那一轮轮换，"
                else:
                    given = f"{shown(state, y)}名次较高，"
                leaders = [e for e in m.sides if e in top]
                cause = (f"最后一轮按积分配对，积分领先（超过已赛轮次满分一半）的{shown_list(state, leaders)}不受先后手限制"
                         if leaders else "本轮未能在避免重复对阵的同时兼顾先后手")
                notes.append(f"{shown(state, x)}本轮{word}，{'、'.join(what)}：{cause}；"
                             f"{shown(state, x)}与{shown(state, y)}本轮都须{need}（{shown(state, x)}{_need(before)[1]}，"
                             f"{shown(state, y)}{_need(hy)[1]}），{given}由{shown(state, y)}{need}。")
        return notes

    def placements(self, state: EventState) -> list[Placement]:
        """Everyone by the event's ranking (points, then the tiebreak chain)."""
        return tier_placements(state, [(self.title, [e.id for e in state.entries])], state.rounds)


#: a run of one side in words (连续三轮后手)
_COUNT = {3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九"}


def _need(hist: list[int] | tuple[int, ...]) -> tuple[bool, str]:
    """(by the difference, why) an entry with an absolute first-move preference (FIDE C.04.3
    A.6) needs its side, in words: 后手比先手多2次, else 已连续两轮后手."""
    side, _, diff = colour_preference(hist)
    if abs(diff) > 1:
        return True, f"{'后手比先手' if diff < 0 else '先手比后手'}多{abs(diff)}次"
    return False, f"已连续两轮{'后手' if side == 0 else '先手'}"


FORMATS.register("swiss", "瑞士制", "瑞士移位")(Swiss())
