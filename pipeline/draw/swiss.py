"""Swiss system (R2015-F1 default for 围棋 and 象棋).

Round 1 pairs by lot (entries of one branch kept apart where possible).  Later rounds
pair by the current standing (``state.rank``, the event's tiebreak chain): the best
unpaired entry meets the nearest entry below it that it has not met yet, so entries
of one score group meet each other first (Monrad-style adjacent pairing, usual in
Chinese xiangqi Swiss events); backtracking guarantees no rematch whenever a
rematch-free pairing exists in reach (a search budget keeps 500 entries fast; past it
the nearest not-yet-met partner is taken greedily).

Odd count: the bye goes to the lowest-ranked entry among those with the fewest byes
(at most one bye per entry while someone has none), preferring one whose removal
leaves a rematch-free pairing.  First move (先手/执黑 or 执红): the side that moved
first less often moves first, then the one that moved second last round, then by lot.

Option ``rounds``: default ⌈log2 n⌉ + 1, capped at n − 1 (at least 1).
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


class Swiss:
    """R2015-F1: Swiss pairing by standing, no rematches, one bye each, first-move balance."""

    name = "swiss"
    title = "瑞士制"
    seats = 2
    OPTIONS = ("rounds",)
    BYE_TRIES = 8

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None, or a message naming the bad option (``rounds`` 1..50)."""
        return first_problem(check_known(options, self.OPTIONS, self.name),
                             check_int(options, "rounds", 1, 50))

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
        total = done[0].plan["of"] if done else state.options.get("rounds") or default_rounds(len(ids))
        if len(done) >= total:
            return None
        k = len(done) + 1
        notes: list[str] = withdrawn_notes(state)
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
            bye, pairs = None, None
            if len(order) % 2:
                # a bye is a free win: not for an entry that did not turn up last round
                away = no_shows(state, done[-1])
                pool = [e for e in order if e not in away] or order
                fewest = min(byes[e] for e in pool)
                cands = [e for e in reversed(pool) if byes[e] == fewest]
                tries = cands if len(order) <= 64 else cands[:self.BYE_TRIES]
                for c in tries:
                    rest = [e for e in order if e != c]
                    trial = pair_avoiding(rest, met)
                    if all(b not in met.get(a, ()) for a, b in trial):
                        bye, pairs = c, trial
                        break
                if bye is None:
                    bye = cands[0]
                    pairs = pair_avoiding([e for e in order if e != bye], met)
                why = "排名最后且未轮空过" if fewest == 0 else "排名最后且轮空次数最少"
                skipped = [e for e in order if e in away and order.index(e) > order.index(bye)]
                notes.append(f"{entry_word(state)}数为奇数，{why}的{shown(state, bye)}本轮轮空"
                             + (f"（{shown_list(state, skipped)}上一轮弃权或缺席，不安排轮空）" if skipped else "") + "。")
            else:
                pairs = pair_avoiding(order, met)
            rest = [e for e in order if e != bye]
            pairs = self._colour_safe(rest, met, pairs, state)
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
    def _colour_safe(order: list[str], met: dict[str, set[str]], pairs: list[tuple[str, str]],
                     state: EventState) -> list[tuple[str, str]]:
        """Prefer a pairing where no two entries that both moved first (or both second) two
        more times than the other way meet, so first-move counts never differ by 3."""
        bal, _ = first_balance(state.rounds)
        high = {e for e in order if bal[e] >= 2}
        low = {e for e in order if bal[e] <= -2}

        def clash(a: str, b: str) -> bool:
            return (a in high and b in high) or (a in low and b in low)

        if not any(clash(a, b) for a, b in pairs):
            return pairs
        strict = {e: set(met.get(e, ())) | (high if e in high else low if e in low else set()) - {e}
                  for e in order}
        trial = pair_avoiding(order, strict, budget=5_000)
        if not any(b in strict[a] for a, b in trial):
            return trial
        return pairs

    def placements(self, state: EventState) -> list[Placement]:
        """Everyone by the event's ranking (points, then the tiebreak chain)."""
        return tier_placements(state, [(self.title, [e.id for e in state.entries])], state.rounds)


FORMATS.register("swiss", "瑞士制", "瑞士移位")(Swiss())
