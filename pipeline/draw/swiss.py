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
leaves a rematch-free pairing.  First move (先手/执黑 or 执红): the side that moved
first less often moves first, then the one that moved second last round, then by lot.

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
from .common import (bye_counts, check_int, check_known, first_balance, first_problem,
                     entry_word, next_round_no, no_shows, opponents, orient, pair_avoiding, ranked,
                     rematch_notes, rounds_of, shown, shown_list, spread_tables, tier_placements,
                     withdrawn_notes)

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

    def choose(self, order: list[str], cands: list[str], met: dict[str, set[str]], state: EventState,
               fmt: "Swiss") -> tuple[str | None, list[tuple[str, str]]] | None:
        """(bye, pairs) as :meth:`Swiss._pair_alone` would choose, but only among choices
        that leave a completion: the bye candidates in order, then the pairings of the rest
        in standing order, preferring one that is also first-move safe.  None when no
        completion exists even now, or the search ran out of steps."""
        try:
            if not self._matchings(self.adj, self.future + 1, -1):
                return None
            for c in cands or [None]:
                rest = [e for e in order if e != c]
                pairs = self._first(rest, met, c)
                if pairs is None:
                    continue
                strict = fmt._strict(rest, met, state)
                if strict is not None and any(b in strict[a] and b not in met.get(a, ()) for a, b in pairs):
                    try:
                        pairs = self._first(rest, strict, c) or pairs
                    except _OutOfSteps:
                        pass
                return c, pairs
        except (_OutOfSteps, RecursionError):
            return None
        return None


class Swiss:
    """R2015-F1: Swiss pairing by standing, no rematches, one bye each, first-move balance."""

    name = "swiss"
    title = "瑞士制"
    seats = 2
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
        Go); a card game or a best-of-three match has no first move to balance."""
        r = options.get("rounds")
        rounds = f"共 {r} 轮" if r else "轮数按参赛人数确定（约为 log₂人数 + 1 轮）"
        first = getattr(game, "first_note", None) if game is not None else ""
        balance = ("" if first is None else
                   "先后手按各人已执先次数均衡分配" + (f"（{first}）" if first else "") + "。")
        teams = getattr(game, "side_size", 1) > 1
        odd = ("队数为奇数时由排名最后且未轮空过的一队轮空，每队至多轮空一次，上一轮弃权或缺席的队不轮空。" if teams else
               "人数为奇数时由排名最后且未轮空过的选手轮空，每人至多轮空一次，上一轮弃权或缺席者不轮空。")
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
        met = opponents(done)
        if not done:
            bye = rng.choice(ids) if len(ids) % 2 else None
            rest = [e for e in ids if e != bye]
            pairs = [tuple(p) for p in spread_tables(rest, 2, rng, state.branch_of)]
            if bye:
                notes.append(f"{entry_word(state)}数为奇数，{shown(state, bye)}抽签轮空。")
        else:
            order = [r.entry for r in ranked(state, ids, done)]
            cands: list[str] = []
            away: set[str] = set()
            fewest = 0
            if len(order) % 2:
                # a bye is a free win: not for an entry that did not turn up last round
                away = no_shows(state, done[-1])
                pool = [e for e in order if e not in away] or order
                fewest = min(byes[e] for e in pool)
                cands = [e for e in reversed(pool) if byes[e] == fewest]
            bye, pairs = self._pair_alone(order, cands, met, state)
            look = (_Lookahead(order, met, byes, total - k, self.LOOKAHEAD_STEPS)
                    if 0 < total - k and len(order) <= self.LOOKAHEAD_MAX else None)
            chosen = look.choose(order, cands, met, state, self) if look is not None else None
            ahead: list[str] = []
            moved = chosen is not None and chosen[0] != bye
            if moved:
                ahead.append(f"为使以后各轮仍能避免重复对阵，由{shown(state, chosen[0])}代替"
                             f"{shown(state, bye)}本轮轮空。")
            if chosen is not None and {frozenset(p) for p in chosen[1]} != {frozenset(p) for p in pairs}:
                ahead.append("为使以后各轮仍能避免重复对阵，本轮未完全按名次就近配对。")
            if chosen is not None:
                bye, pairs = chosen
            if bye:
                why = ("" if moved else "排名最后且") + ("未轮空过" if fewest == 0 else "轮空次数最少")
                skipped = [e for e in order if e in away and order.index(e) > order.index(bye)]
                notes.append(f"{entry_word(state)}数为奇数，{why}的{shown(state, bye)}本轮轮空"
                             + (f"（{shown_list(state, skipped)}上一轮弃权或缺席，不安排轮空）" if skipped else "") + "。")
            notes += ahead
            rest = [e for e in order if e != bye]
            notes += rematch_notes(state, rest, pairs, done)
            for a, b in pairs:
                if b in met.get(a, ()):
                    notes.append(f"{shown(state, a)}与{shown(state, b)}再次相遇：已无法避免重复对阵。")
        bal, last = first_balance(state.rounds)
        no = next_round_no(state)
        matches = [Match(state.event_id, STAGE, no, "", t, orient(a, b, bal, last, rng))
                   for t, (a, b) in enumerate(pairs, start=1)]
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

    def _pair_alone(self, order: list[str], cands: list[str], met: dict[str, set[str]],
                    state: EventState) -> tuple[str | None, list[tuple[str, str]]]:
        """(bye, pairs) for this round on its own: the first bye candidate (``cands``, lowest
        ranked first; empty for an even count) whose removal leaves a rematch-free pairing, the
        pairing top-down by standing, then first-move safety (:meth:`_colour_safe`)."""
        bye = None
        if cands:
            tries = cands if len(order) <= 64 else cands[:self.BYE_TRIES]
            for c in tries:
                trial = pair_avoiding([e for e in order if e != c], met)
                if all(b not in met.get(a, ()) for a, b in trial):
                    bye, pairs = c, trial
                    break
            else:
                bye = cands[0]
                pairs = pair_avoiding([e for e in order if e != bye], met)
        else:
            pairs = pair_avoiding(order, met)
        rest = [e for e in order if e != bye]
        return bye, self._colour_safe(rest, met, pairs, state)

    @staticmethod
    def _strict(order: list[str], met: dict[str, set[str]], state: EventState) -> dict[str, set[str]] | None:
        """None when no two entries of ``order`` may not meet for first-move balance; else the
        partners each must not take: those met, and, for an entry that moved first (second)
        two more times than the other way, every other such entry — so first-move counts
        never differ by 3."""
        bal, _ = first_balance(state.rounds)
        high = {e for e in order if bal[e] >= 2}
        low = {e for e in order if bal[e] <= -2}
        if len(high) < 2 and len(low) < 2:
            return None
        return {e: set(met.get(e, ())) | (high if e in high else low if e in low else set()) - {e}
                for e in order}

    @classmethod
    def _colour_safe(cls, order: list[str], met: dict[str, set[str]], pairs: list[tuple[str, str]],
                     state: EventState) -> list[tuple[str, str]]:
        """Prefer a pairing where no two entries that both moved first (or both second) two
        more times than the other way meet, so first-move counts never differ by 3."""
        strict = cls._strict(order, met, state)
        if strict is None or not any(b in strict[a] and b not in met.get(a, ()) for a, b in pairs):
            return pairs
        trial = pair_avoiding(order, strict, budget=5_000)
        if not any(b in strict[a] for a, b in trial):
            return trial
        return pairs

    def placements(self, state: EventState) -> list[Placement]:
        """Everyone by the event's ranking (points, then the tiebreak chain)."""
        return tier_placements(state, [(self.title, [e.id for e in state.entries])], state.rounds)


FORMATS.register("swiss", "瑞士制", "瑞士移位")(Swiss())
