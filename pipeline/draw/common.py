"""Building blocks shared by the formats: Berger tables, lots that keep branches apart,
bye bookkeeping, option checks and ranking helpers.

Everything here is pure and takes its randomness from the ``random.Random`` it is given.
Lists of entry ids are always sorted before a lot is drawn, so the draw depends only on
the seed and the set of entries, never on the order the runner passes them in.
"""
from __future__ import annotations

import heapq
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Collection, Iterable, Sequence

from ..model import Match, MatchResult, Outcome, Round
from .base import EventState, Placement, Waiting


class PlayoffWaiting(Waiting):
    """Waiting for a 加赛 between tied entries (R2011-F1, R2011-D2).  Besides the Chinese
    message it carries what the runner needs to ask for the playoff: ``ties`` is a list of
    (stage, group, tied entry ids)."""

    def __init__(self, message: str, ties: list[tuple[str, str, tuple[str, ...]]]) -> None:
        super().__init__(message)
        self.ties = ties


#: the 加赛 that rank a group's own table (both group formats' stage is "group"): its stage's,
#: or one whose 阶段 was typed as a name (any stage).  The final places' 加赛 orders a tier of
#: places across the groups, never a group: two tied 2nd of one group, ordered by it, became
#: 小组第3名 and 第4名, and the tier it had ordered changed under it.
GROUP_PLAYOFFS = ("group", "")


# --------------------------------------------------------------------------- options

def check_known(options: dict[str, Any], allowed: Iterable[str], fmt: str) -> str | None:
    """Message naming the first option key the format does not know, else None.

    >>> check_known({"x": 1}, ["rounds"], "swiss")
    "unknown option 'x' for format swiss (known: rounds) / 赛制 swiss 没有选项 “x”，请删除或改为：rounds"
    """
    allowed = sorted(allowed)
    for key in options:
        if key not in allowed:
            known = ", ".join(allowed) or "-"
            return (f"unknown option {key!r} for format {fmt} (known: {known}) / "
                    f"赛制 {fmt} 没有选项 “{key}”，" + (f"请删除或改为：{known}" if allowed else "这个赛制没有可设的选项，请删除"))
    return None


def check_int(options: dict[str, Any], key: str, lo: int, hi: int | None = None) -> str | None:
    """Message when ``options[key]`` is present but not an integer in [lo, hi], else None.

    >>> check_int({"rounds": 0}, "rounds", 1) is not None
    True
    """
    if key not in options or options[key] is None:
        return None
    v = options[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        return (f"option {key} must be an integer {rng}, got {v!r} / "
                f"选项 {key} 应为整数（{rng}），现为 “{v}”，请修改")
    return None


def check_bool(options: dict[str, Any], key: str) -> str | None:
    """Message when ``options[key]`` is present but not true/false, else None."""
    if key in options and not isinstance(options[key], bool):
        return (f"option {key} must be true or false, got {options[key]!r} / "
                f"选项 {key} 应为 true 或 false，现为 “{options[key]}”，请修改")
    return None


def check_choice(options: dict[str, Any], key: str, choices: Sequence[str]) -> str | None:
    """Message when ``options[key]`` is present but not one of ``choices``, else None."""
    if key in options and options[key] not in choices:
        return (f"option {key} must be one of {', '.join(choices)}, got {options[key]!r} / "
                f"选项 {key} 应为 {'、'.join(choices)} 之一，现为 “{options[key]}”，请修改")
    return None


def first_problem(*problems: str | None) -> str | None:
    """The first non-None message."""
    return next((p for p in problems if p), None)


# --------------------------------------------------------------------------- names

def group_label(i: int) -> str:
    """Label of the i-th group (0-based): A, B, … Z, then 27, 28 …

    >>> group_label(0), group_label(26)
    ('A', '27')
    """
    return chr(ord("A") + i) if i < 26 else str(i + 1)


def group_name(g: str) -> str:
    """A group as the notes name it: ``A组`` (not 第A组), ``第27组`` for a numbered one.

    >>> group_name("A"), group_name("27")
    ('A组', '第27组')
    """
    return f"第{g}组" if str(g).isdigit() else f"{g}组"


def shown(state: EventState, entry_id: str, extra: dict[str, str] | None = None) -> str:
    """The entry's label for Chinese notes (``extra`` first, then the team label, else the id)."""
    if extra and entry_id in extra:
        return extra[entry_id]
    e = next((e for e in state.entries if e.id == entry_id), None)
    return e.team if e is not None and e.team else entry_id


def counted(state: EventState, n: int) -> str:
    """``7 人`` — or ``7 对`` (pairs), ``7 队`` (teams) by the event's entries, for notes
    (“参赛者共 7 名” read wrong for seven bridge pairs)."""
    return f"{n} {entry_word(state)}"


def entry_word(state: EventState) -> str:
    """What an entry of the event is called in notes (:func:`pipeline.layout.entry_word`)."""
    from ..layout import entry_word as by_players

    return by_players(state.entries)


def shown_list(state: EventState, ids: Iterable[str], extra: dict[str, str] | None = None) -> str:
    """Labels joined with 、 for notes."""
    return "、".join(shown(state, i, extra) for i in ids)


# --------------------------------------------------------------------------- Berger

def berger_pairs(n: int, rnd: int) -> list[tuple[int | None, int | None]]:
    """Pairs of 0-based positions of Berger round ``rnd`` (1-based) for ``n`` players.

    The first of each pair moves first (FIDE Berger tables).  For odd ``n`` a dummy is
    added; a pair holding ``None`` is a bye.  Table 1 is the pair of the last position.

    >>> berger_pairs(4, 1)
    [(0, 3), (1, 2)]
    >>> berger_pairs(3, 1)
    [(0, None), (1, 2)]
    """
    m = n + (n % 2)
    if m < 2:
        return []
    half = m // 2
    k = m - 1                                   # positions 1..k rotate, m is fixed

    def wrap(x: int) -> int:
        return (x - 1) % k + 1

    a = wrap(1 + (rnd - 1) * half)
    last: int = m
    pairs: list[tuple[int, int]] = [(a, last) if rnd % 2 == 1 else (last, a)]
    for j in range(1, half):
        pairs.append((wrap(a + j), wrap(a - j)))

    def pos(p: int) -> int | None:
        return None if p > n else p - 1

    out = []
    for x, y in pairs:
        px, py = pos(x), pos(y)
        if px is None:
            px, py = py, None
        out.append((px, py))
    return out


def berger_round_count(n: int) -> int:
    """Rounds of a single round robin of ``n`` entries.

    >>> berger_round_count(4), berger_round_count(5)
    (3, 5)
    """
    return n - 1 if n % 2 == 0 else n


# --------------------------------------------------------------------------- lots

def spread_tables(ids: Sequence[str], size: int, rng: random.Random,
                  branch_of) -> list[list[str]]:
    """Draw ``ids`` by lot into tables of ``size`` so that entries of one branch meet as
    little as possible (R2020-F1/D1, R2011-D1 draw by lot; handbook 对阵表: 同一单位尽量不同桌):
    the fewest same-branch pairs at tables, which is each branch spread as evenly as it can
    be over the tables (q or q+1 of it at each) — :func:`_even_out`.

    The lot fills one table at a time, each seat going to the largest remaining branch not
    yet at it (ties by lot).  At tables of two that is already the fewest; at tables of three
    or more it can use the small branches up early (4 of A, B, C: [A B C] then [A A A]), and
    then two seats of different tables are swapped until every branch is spread evenly
    ([A A C] [A A B]) — a lot that was already even is kept as drawn.

    ``len(ids)`` must be a multiple of ``size``.  The table order is shuffled too.

    >>> t = spread_tables(["a1", "a2", "b1", "b2"], 2, random.Random(1), lambda x: x[0])
    >>> sorted(sorted(x[0] for x in p) for p in t)
    [['a', 'b'], ['a', 'b']]
    """
    by_branch: dict[str, list[str]] = defaultdict(list)
    for e in sorted(ids):
        by_branch[branch_of(e)].append(e)
    for lst in by_branch.values():
        rng.shuffle(lst)
    tie = {b: rng.random() for b in sorted(by_branch)}
    # Each seat goes to the branch with the most entries left (ties: its lot ``tie[b]``,
    # then branch order) among those not yet at this table — or among all when every
    # branch left is.  A heap keyed (-left, lot, order) finds it without scanning every
    # branch per seat (a province's league has hundreds); each branch has one current key,
    # in the heap or, while it sits at the table being filled, aside.
    order = {b: i for i, b in enumerate(by_branch)}
    heap = [(-len(lst), tie[b], order[b], b) for b, lst in by_branch.items() if lst]
    heapq.heapify(heap)
    tables: list[list[str]] = []
    remaining = len(ids)
    while remaining:
        table: list[str] = []
        aside: list[tuple[int, float, int, str]] = []    # branches already at this table
        for _ in range(size):
            if heap:
                _, _, _, b = heapq.heappop(heap)
            else:                                          # every branch left is at this table
                aside.sort()
                _, _, _, b = aside.pop(0)
            table.append(by_branch[b].pop())
            tie[b] = rng.random()
            if by_branch[b]:
                aside.append((-len(by_branch[b]), tie[b], order[b], b))
        for item in aside:
            heapq.heappush(heap, item)
        remaining -= size
        rng.shuffle(table)
        tables.append(table)
    rng.shuffle(tables)
    _even_out(tables, rng, branch_of)
    return tables


def _even_out(tables: list[list[str]], rng: random.Random, branch_of) -> None:
    """Swap seats between tables, in place, until no branch has two more entries at one
    table than at another — the fewest same-branch pairs (sum over tables of C(n, 2)):
    each branch's count is convex, so spread evenly it is at its least, and evenly spread
    branches fill the tables exactly (deal them one after another round the tables).

    While branch ``u`` has n_ut ≥ n_us + 2 at tables t and s, table t has at least two fewer
    seats of the other branches than s, so some branch ``w`` has more at s than at t;
    swapping a ``u`` of t with a ``w`` of s removes at least one pair.  Each swap takes the
    most uneven branch (ties by branch order), a table where it is most and one where it is
    least, the other branch that gains most, and the entries by lot; seats keep their
    places.  Nothing is drawn when the tables are already even (a lot at tables of two
    always is), so such a lot stays as it was."""
    counts = [Counter(branch_of(e) for e in t) for t in tables]
    while True:
        spread: dict[str, tuple[int, int]] = {}
        for c in counts:
            for b, n in c.items():
                hi, lo = spread.get(b, (0, n))
                spread[b] = (max(hi, n), min(lo, n))
        full = {b for b in spread if all(b in c for c in counts)}
        uneven = [(hi - (lo if b in full else 0), b) for b, (hi, lo) in spread.items()]
        worst = max((d for d, _ in uneven), default=0)
        if worst < 2:
            return
        u = min(b for d, b in uneven if d == worst)
        most = max(c[u] for c in counts)
        least = min(c[u] for c in counts)
        t = rng.choice([i for i, c in enumerate(counts) if c[u] == most])
        s = rng.choice([i for i, c in enumerate(counts) if c[u] == least])
        gain = {w: n - counts[t][w] for w, n in counts[s].items() if w != u}
        best = max(gain.values())
        w = rng.choice(sorted(w for w, g in gain.items() if g == best))
        i = rng.choice([k for k, e in enumerate(tables[t]) if branch_of(e) == u])
        j = rng.choice([k for k, e in enumerate(tables[s]) if branch_of(e) == w])
        tables[t][i], tables[s][j] = tables[s][j], tables[t][i]
        counts[t][u] -= 1
        counts[t][w] += 1
        counts[s][w] -= 1
        counts[s][u] += 1
        for c in (counts[t], counts[s]):
            for b in [b for b, n in c.items() if n == 0]:
                del c[b]


def deal_groups(ids: Sequence[str], groups: int, rng: random.Random, branch_of) -> list[list[str]]:
    """Split ``ids`` by lot into ``groups`` groups whose sizes differ by at most one,
    spreading each branch over the groups (branch by branch, dealt round the groups).
    Order inside a group is the draw order (itself a lot).

    >>> g = deal_groups([f"{b}{i}" for b in "ab" for i in range(4)], 4, random.Random(0), lambda x: x[0])
    >>> sorted(sorted(x[0] for x in grp) for grp in g)
    [['a', 'b'], ['a', 'b'], ['a', 'b'], ['a', 'b']]
    """
    by_branch: dict[str, list[str]] = defaultdict(list)
    for e in sorted(ids):
        by_branch[branch_of(e)].append(e)
    branches = sorted(by_branch)
    rng.shuffle(branches)
    branches.sort(key=lambda b: -len(by_branch[b]))      # stable: ties stay in lot order
    out: list[list[str]] = [[] for _ in range(groups)]
    order = list(range(groups))
    rng.shuffle(order)
    k = 0
    for b in branches:
        members = by_branch[b]
        rng.shuffle(members)
        for e in members:
            out[order[k % groups]].append(e)
            k += 1
    for grp in out:
        rng.shuffle(grp)
    return out


# --------------------------------------------------------------------------- history

def is_walkover(m: Match) -> bool:
    """Whether ``m`` is a walkover (:data:`pipeline.model.WALKOVER`), not a bye drawn by lot or a rest."""
    return m.walkover


def bye_counts(rounds: Iterable[Round]) -> Counter:
    """Entry id → number of byes received in ``rounds`` (a walkover is none: R2011-R1)."""
    c: Counter = Counter()
    for r in rounds:
        for m in r.matches:
            if m.bye and not is_walkover(m):
                c[m.sides[0]] += 1
    return c


def forfeit_wins(state: EventState, rounds: Iterable[Round]) -> Counter:
    """Entry id → wins by forfeit (the opponent did not come) in ``rounds``, by their results
    as they are now.  FIDE C.04.1 (d): a forfeit win is a point without playing, as a bye is —
    a player who has had one does not get the bye (R2015-F1's 每人至多轮空一次)."""
    c: Counter = Counter()
    for r in rounds:
        for m in r.matches:
            res = state.results.get(m.key)
            if m.bye or res is None:
                continue
            for s, side in zip(m.sides, res.sides):
                if side.outcome == Outcome.FORFEIT_WIN:
                    c[s] += 1
    return c


def opponents(rounds: Iterable[Round]) -> dict[str, set[str]]:
    """Entry id → ids met at a table in ``rounds``."""
    met: dict[str, set[str]] = defaultdict(set)
    for r in rounds:
        for m in r.matches:
            if m.bye:
                continue
            for a in m.sides:
                met[a].update(s for s in m.sides if s != a)
    return met


def first_balance(rounds: Iterable[Round]) -> tuple[Counter, dict[str, int]]:
    """(entry → firsts minus seconds, entry → side index in its last played match)."""
    bal: Counter = Counter()
    last: dict[str, int] = {}
    for r in rounds:
        for m in r.matches:
            if m.bye or len(m.sides) != 2:
                continue
            for i, s in enumerate(m.sides):
                bal[s] += 1 if i == m.first else -1
                last[s] = 0 if i == m.first else 1
    return bal, last


def orient(a: str, b: str, bal: Counter, last: dict[str, int], rng: random.Random | None = None
           ) -> tuple[str, str]:
    """(first, second): the side that moved first less often moves first; then the one
    that moved second last time; then by lot (or ``a`` first without a rng)."""
    if bal[a] != bal[b]:
        return (a, b) if bal[a] < bal[b] else (b, a)
    la, lb = last.get(a), last.get(b)
    if la is not None and lb is not None and la != lb:
        return (a, b) if la == 1 else (b, a)
    if rng is not None and rng.random() < 0.5:
        return (b, a)
    return (a, b)


# --------------------------------------------------------------------------- first move (Swiss)
# R2015-F1 says only that first moves are balanced (the notice: 先后手按各人已执先次数均衡分配);
# where it is silent the FIDE Dutch system (C.04.3) decides: A.6 colour preferences, C.3 the
# absolute colour criteria, E.1–E.5 the allocation.  Side 0 moves first (执红 / 执黑), 1 second.

#: FIDE C.04.3 A.6 strengths of a colour preference
NO_PREFERENCE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


def colour_histories(rounds: Iterable[Round]) -> dict[str, list[int]]:
    """Entry → the side it had in each game it played, in order (0 first, 1 second).  A bye
    is no game (FIDE C.04.3 A.6 counts played games; C.04.2 D.5 skips unplayed rounds).

    >>> r = Round("e", "swiss", "", 1, (Match("e", "swiss", 1, "", 1, ("a", "b"), first=1),
    ...                                 Match("e", "swiss", 1, "", 2, ("c",), bye=True)))
    >>> dict(colour_histories([r]))
    {'a': [1], 'b': [0]}
    """
    hist: dict[str, list[int]] = defaultdict(list)
    for r in rounds:
        for m in r.matches:
            if m.bye or len(m.sides) != 2:
                continue
            for i, s in enumerate(m.sides):
                hist[s].append(0 if i == m.first else 1)
    return hist


def colour_preference(hist: Sequence[int]) -> tuple[int | None, int, int]:
    """(side preferred, strength, colour difference) — FIDE C.04.3 A.6.  The difference is
    firsts minus seconds.  Absolute: a difference beyond ±1 (for the side that evens it), else
    the same side in the last two games (for the other side); strong: a difference of ±1;
    mild: level, for the side not had last time; none before a first game.

    >>> [colour_preference(h) for h in ([1, 1], [0, 0, 1, 1], [1, 1, 0], [0, 1], [])]
    [(0, 3, -2), (0, 3, 0), (0, 2, -1), (0, 1, 0), (None, 0, 0)]
    """
    diff = sum(1 if s == 0 else -1 for s in hist)
    if diff > 1 or diff < -1:
        return (1 if diff > 0 else 0), ABSOLUTE, diff
    if len(hist) >= 2 and hist[-1] == hist[-2]:
        return 1 - hist[-1], ABSOLUTE, diff
    if diff:
        return (1 if diff > 0 else 0), STRONG, diff
    if hist:
        return 1 - hist[-1], MILD, diff
    return None, NO_PREFERENCE, diff


def allocate_first(a: str, b: str, hist: dict[str, Sequence[int]], rng: random.Random | None = None
                   ) -> tuple[str, str]:
    """(first, second) for ``a`` (ranked higher) and ``b`` — FIDE C.04.3 E.1–E.5: (1) grant
    both preferences; (2) grant the stronger (absolute > strong > mild; both absolute: the
    wider colour difference); (3) alternate from the latest game in which the two had
    different sides (each history counted back from its last game); (4) grant the higher
    ranked ``a``'s preference; (5) by lot (``a`` first without a rng).

    >>> allocate_first("a", "b", {"a": [0, 0, 1, 1], "b": [1, 1, 0]})   # E.2: absolute beats strong
    ('a', 'b')
    """
    ha, hb = hist.get(a, ()), hist.get(b, ())
    (sa, pa, da), (sb, pb, db) = colour_preference(ha), colour_preference(hb)

    def give(x: str, side: int) -> tuple[str, str]:
        y = b if x == a else a
        return (x, y) if side == 0 else (y, x)

    if sa != sb:                                             # E.1 (one may have none)
        return give(a, sa) if sa is not None else give(b, sb)
    if sa is not None:
        if pa != pb:                                         # E.2
            return give(a, sa) if pa > pb else give(b, sb)
        if pa == ABSOLUTE and abs(da) != abs(db):
            return give(a, sa) if abs(da) > abs(db) else give(b, sb)
    for xa, xb in zip(reversed(ha), reversed(hb)):           # E.3
        if xa != xb:
            return give(a, 1 - xa)
    if sa is not None:                                       # E.4
        return give(a, sa)
    if rng is not None and rng.random() < 0.5:              # E.5: by lot
        return (b, a)
    return (a, b)


def winner_of(state: EventState, m: Match) -> str | None:
    """Who advances from match ``m``: the bye holder, the result's winner, or the first of
    a matching 加赛 (Playoff) order.  None when both sides lost (double forfeit/absent), and
    for a bye not scored (:func:`pipeline.draw.bye_unscored`: its holder withdrawn before the
    round was played, handbook 缺席、弃权和退赛).

    Raises Waiting when the result is missing or undecided without a playoff.
    """
    if m.bye:       # (not a 晋级签 its holder withdrew from before the round was played)
        from . import bye_unscored

        return None if bye_unscored(m, state.results.get(m.key)) else m.sides[0]
    res: MatchResult | None = state.results.get(m.key)
    if res is None:
        raise Waiting(f"第{m.round}轮第{m.table}桌尚无成绩，请录入后再抽下一轮。")
    w = res.winner()
    if w is not None:
        return w
    # a 加赛 sheet may list several drawn tables of one round in one order: the side of
    # this match that comes first in the latest order holding both sides advances
    for p in reversed(_playoffs_of(state, m)):
        listed = _playoff_at(p, m)
        if p.settles(listed):
            return listed[0]
        break           # the latest sheet gives them the same 名次: still to be played off
    if res.sides and all(s.outcome.is_loss for s in res.sides):
        return None
    raise PlayoffWaiting(f"第{m.round}轮第{m.table}桌（{shown_list(state, m.sides)}）未分胜负，"
                         f"必须决出胜者：请录入加赛结果后再抽下一轮。",
                         [(m.stage, m.group, tuple(m.sides))])


def _playoff_at(p: Any, m: Match) -> list[str]:
    """The sides of ``m`` that 加赛 ``p`` orders when it is a playoff of ``m``'s table (its
    stage, or a stage typed as a name; its group, or 组别 blank; the round its form was
    issued at, when it says), else [].  R2011-F1: a row naming another group (a knockout
    has none) is no playoff of this table (:meth:`pipeline.model.Playoff.addresses`)."""
    if (p.stage not in (m.stage, "") or p.group not in (m.group, "")
            or (p.round is not None and p.round != m.round)):
        return []
    listed = [e for e in p.order if e in m.sides]
    return listed if listed and (len(listed) == len(m.sides) or set(p.order) <= set(m.sides)) else []


def _playoffs_of(state: EventState, m: Match) -> list[Any]:
    """The 加赛 sheets (oldest first) of table ``m``'s tie — R2011-D2, R2011-F1: a playoff
    settles the tie it was played for only.  A form says its round (_meta); a sheet that
    does not is given to the undecided tables of the stage it fits in order of play: the
    first sheet to the first round's tables, the next to the next, the latest round's
    tables taking the rest (a correction).  Two level at the top in round 1, the loser revived and level with the
    same player again in round 2: round 1's 加赛 settled round 2's table, where none was
    played."""
    mine = [p for p in state.playoffs if p.round is not None and _playoff_at(p, m)]
    loose = [p for p in state.playoffs if p.round is None and _playoff_at(p, m)]
    if loose:
        tied = sorted({mm.round for r in state.rounds for mm in r.matches
                       if mm.stage == m.stage and not mm.bye and mm.key in state.results
                       and state.results[mm.key].winner() is None and any(_playoff_at(p, mm) for p in loose)})
        i = tied.index(m.round) if m.round in tied else len(tied) - 1
        loose = loose[i:i + 1] if i < len(tied) - 1 else loose[i:]
    return sorted(mine + loose, key=state.playoffs.index)


def winners_of(state: EventState, matches: Iterable[Match]) -> list[str | None]:
    """:func:`winner_of` of each match — every drawn table of the round asked for at once:
    a knockout with two drawn tables asked for one table's 加赛, and the other's only after
    it was answered (one night each, and the form of the first kept in forms/).  One
    PlayoffWaiting holds every tie; a missing result (Waiting) comes first."""
    out: list[str | None] = []
    pending: list[PlayoffWaiting] = []
    for m in matches:
        try:
            out.append(winner_of(state, m))
        except PlayoffWaiting as w:
            pending.append(w)
            out.append(None)
    if len(pending) == 1:
        raise pending[0]
    if pending:
        tail = "请录入加赛结果后再抽下一轮。"
        said = "；".join(str(w).removesuffix(tail).rstrip("，,。：:") for w in pending)
        raise PlayoffWaiting(f"{said}。{tail}", [t for w in pending for t in w.ties])
    return out


def settled_winner(state: EventState, m: Match) -> str | None:
    """Like :func:`winner_of` but None instead of waiting (for placements of an event in
    progress)."""
    try:
        return winner_of(state, m)
    except Waiting:
        return None


# --------------------------------------------------------------------------- ranking

@dataclass(frozen=True)
class _Row:
    """One entry's place in a group table while it is being ranked."""

    entry: str
    rank: int
    points: int
    playoff_required: bool = False
    tiebreaks: dict[str, int] = field(default_factory=dict)


def simple_rank(state: EventState, ids: Sequence[str], rounds: Sequence[Round]) -> list[_Row]:
    """Fallback ranking when the runner injected no rank function: match points only."""
    pts: Counter = Counter()
    want = set(ids)
    for r in rounds:
        for m in r.matches:
            res = state.results.get(m.key)
            if res is None:
                continue
            for s, sr in zip(m.sides, res.sides):
                if s in want:
                    pts[s] += sr.points
    order = sorted(want, key=lambda e: (-pts[e], e))
    rows, prev, rank = [], None, 0
    for i, e in enumerate(order):
        if pts[e] != prev:
            rank, prev = i + 1, pts[e]
        rows.append(_Row(e, rank, pts[e]))
    return rows


def ranked(state: EventState, ids: Iterable[str], rounds: Sequence[Round],
           stages: tuple[str, ...] | None = None) -> list[Any]:
    """Standing rows of ``ids`` over ``rounds``, best first (the event's tiebreak chain via
    ``state.rank``; match points only when no rank function is injected).  ``stages``:
    only the 加赛 (Playoff) of these stages count (None: every one)."""
    ids = sorted(set(ids))
    if not ids:
        return []
    if state.rank is None:
        return simple_rank(state, ids, rounds)
    rows = list(state.rank(ids, list(rounds)) if stages is None else state.rank(ids, list(rounds), stages=stages))
    seen = {r.entry for r in rows}
    missing = [e for e in ids if e not in seen]          # defensive: never drop an entry
    worst = max((r.rank for r in rows), default=0)
    rows.extend(_Row(e, worst + 1, 0) for e in missing)
    return rows


def tier_placements(state: EventState, tiers: Iterable[tuple[str, Sequence[str]] | tuple[str, Sequence[str], Sequence[Round]]],
                    rounds: Sequence[Round], group: str = "", vacant: Collection[str] = ()) -> list[Placement]:
    """Placements from tiers (best tier first); inside a tier entries are ordered by the
    rank function over ``rounds`` (or the tier's own rounds, a third item: the final
    table's places are its own); entries still tied share a rank.  ``vacant``: entries that
    lost a place-deciding match or table by their own absence (R2011-R1), each standing on a
    vacant place of its own (``Placement.vacant``: never tied, no 加赛 between absentees) —
    the format puts them in tiers of their own where the places are."""
    out: list[Placement] = []
    placed: set[str] = set()
    for tier, ids, *own in tiers:
        ids = [i for i in ids if i not in placed]
        if not ids:
            continue
        offset = len(out)
        rows = ranked(state, ids, own[0] if own else rounds) if len(ids) > 1 else [_Row(ids[0], 1, 0)]
        counts = Counter(r.rank for r in rows)
        for i, r in enumerate(rows):
            if r.entry in vacant:
                out.append(Placement(rank=offset + i + 1, entry=r.entry, tier=tier, group=group, vacant=True))
            else:
                out.append(Placement(rank=offset + r.rank, entry=r.entry, tier=tier, group=group,
                                     tied=counts[r.rank] > 1))
            placed.add(r.entry)
    return out


def byes_left(state: EventState, rnd: Round, later: Iterable[str], *, unscored: bool) -> list[str]:
    """The holders of ``rnd``'s byes (晋级签, or a walkover: R2011-R1) in no round after it
    (``later``: the entries of those rounds) — withdrawn by the office — whose bye does
    (``unscored=False``) or does not (``True``) count: withdrawn before the round was played,
    its bye is not scored (handbook 缺席、弃权和退赛, :func:`pipeline.draw.bye_unscored`) and the
    entry is placed with the round's losers; withdrawn after, it is placed with the round's
    winners (it went through), as a winner withdrawn after its table is.  A withdrawal is the
    office's decision, not an absence: the entry has a place either way, never a vacant one
    (:func:`lost_by_absence` is empty for a bye)."""
    from . import bye_unscored

    later = set(later)
    return [s for m in rnd.matches if m.bye and bye_unscored(m, state.results.get(m.key)) is unscored
            for s in m.sides if s not in later]


def lost_by_absence(state: EventState, m: Match) -> list[str]:
    """The sides of ``m`` that lost it by their own absence (R2011-R1: later than 15 minutes is
    a forfeit) — the absent side of 甲方/乙方弃权, both of 双方弃权, a 斗地主 table's absent
    seats — by its result as it is now ([] for a bye or a table without a result)."""
    res = state.results.get(m.key)
    if m.bye or res is None:
        return []
    return [s for s, side in zip(m.sides, res.sides) if side.outcome in (Outcome.FORFEIT_LOSS, Outcome.ABSENT)]


def rounds_of(state: EventState, *kinds: str) -> list[Round]:
    """Published rounds whose plan kind is one of ``kinds``."""
    return [r for r in state.rounds if r.plan.get("kind") in kinds]


def rounds_to_come(rounds: Sequence[Round], group: str = "") -> int:
    """How many of its stage's planned rounds ``group`` has still to play after ``rounds``
    (the stage's rounds drawn so far in which the group has a match or a bye), by the latest
    round's plan: ``of`` rounds in all (R2016-F3: 3 rounds; a Swiss's rounds, a round robin's
    Berger rounds) — a group of a groups round robin (R2011-F1: ``group_round``) plays only
    its own Berger rounds (a group of 4 ends after 3 of a stage of 5).  0 where the plan
    says nothing.  A tie is for a 加赛 only once none are to come: D组's two teams level at
    68 were 需加赛 after round 1 of 3.

    >>> from pipeline.model import Round
    >>> rounds_to_come([Round("x", "group", "分组赛第1轮", 1, (), plan={"kind": "group", "round_no": 1, "of": 3})])
    2
    >>> plan = {"kind": "group", "group_round": 3, "of": 5, "groups": {"A": list("abcd"), "B": list("abcde")}}
    >>> rounds_to_come([Round("x", "group", "", k, (), plan=plan) for k in (1, 2, 3)], "A")
    0
    """
    if not rounds or not isinstance(rounds[-1].plan, dict):
        return 0
    plan = rounds[-1].plan
    total = plan.get("of")
    if not isinstance(total, int):
        return 0
    members = (plan.get("groups") or {}).get(group) if isinstance(plan.get("groups"), dict) else None
    if "group_round" in plan and members:
        total = min(total, berger_round_count(len(members)))
    return max(0, total - len(rounds))


def next_round_no(state: EventState) -> int:
    """1-based number of the round about to be drawn."""
    return len(state.rounds) + 1


# --------------------------------------------------------------------------- pairing

class _Budget(Exception):
    pass


def pair_avoiding(order: Sequence[str], met: dict[str, set[str]], avoid: bool = True,
                  budget: int = 50_000, apart: Sequence[set[str]] = ()) -> list[tuple[str, str]]:
    """Pair ``order`` (best first, even length) top-down: each entry takes the nearest
    entry below it that it has not met; backtracks when the rest cannot be paired.
    Without ``avoid``, or when no rematch-free pairing is found within ``budget`` steps,
    pairs greedily (nearest not-yet-met, else nearest).

    ``apart``: groups of entries no two of which may meet (``met`` must say so too: the
    entries with the same absolute first-move preference, FIDE C.04.3 C.3).  They only
    prune the search — a rest of which more than half is one group cannot be paired — so the
    pairing found is the same, found within the budget where the search by standing alone
    ran out (100 entries: 500 000 steps, 52 with the groups).

    >>> pair_avoiding(["a", "b", "c", "d"], {"a": {"b"}, "b": {"a"}})
    [('a', 'c'), ('b', 'd')]
    >>> pair_avoiding(["a", "b", "c", "d"], {"a": {"b"}, "b": {"a"}}, apart=[{"a", "b"}])
    [('a', 'c'), ('b', 'd')]
    """
    order = list(order)
    if avoid:
        steps = [0]
        group_of = {e: i for i, g in enumerate(apart) for e in g}

        def rec(rest: list[str], left: list[int]) -> list[tuple[str, str]] | None:
            if not rest:
                return []
            steps[0] += 1
            if steps[0] > budget:
                raise _Budget
            if left and any(2 * c > len(rest) for c in left):
                return None         # each of a group needs a partner from outside it
            a = rest[0]
            seen = met.get(a, set())
            for j in range(1, len(rest)):
                b = rest[j]
                if b in seen:
                    continue
                now = left
                if a in group_of or b in group_of:
                    now = list(left)
                    for x in (a, b):
                        if x in group_of:
                            now[group_of[x]] -= 1
                sub = rec(rest[1:j] + rest[j + 1:], now)
                if sub is not None:
                    return [(a, b)] + sub
            return None

        left = [0] * len(apart)
        for e in order:
            if e in group_of:
                left[group_of[e]] += 1
        try:
            found = rec(order, left)
        except _Budget:
            found = None
        except RecursionError:     # pragma: no cover - only for absurd sizes
            found = None
        if found is not None:
            return found
    out, rest = [], order
    while rest:
        a = rest[0]
        seen = met.get(a, set()) if avoid else set()
        j = next((j for j in range(1, len(rest)) if rest[j] not in seen), 1)
        out.append((a, rest[j]))
        rest = rest[1:j] + rest[j + 1:]
    return out


def rematch_notes(state: EventState, order: Sequence[str], pairs: Sequence[tuple[str, str]],
                  rounds: Sequence[Round], prefix: str = "") -> list[str]:
    """Chinese notes for every standing-order pairing (1v2, 3v4 …) that was changed to
    avoid a rematch, naming the round of the earlier meeting."""
    when: dict[frozenset, int] = {}
    for r in rounds:
        for m in r.matches:
            if not m.bye:
                for a in m.sides:
                    for b in m.sides:
                        if a != b:
                            when[frozenset((a, b))] = r.round
    chosen = {frozenset(p) for p in pairs}
    partner = {a: b for x, y in pairs for a, b in ((x, y), (y, x))}
    notes = []
    for i in range(0, len(order) - 1, 2):
        a, b = order[i], order[i + 1]
        key = frozenset((a, b))
        if key in when and key not in chosen:
            notes.append(f"{prefix}{shown(state, a)}与{shown(state, b)}已在第{when[key]}轮相遇，"
                         f"为避免重复对阵，改为{shown(state, a)}对{shown(state, partner[a])}、"
                         f"{shown(state, b)}对{shown(state, partner[b])}。")
    return notes


def bye_candidates(order_best_first: Sequence[str], byes: Counter, away: Iterable[str] = (),
                   after: Any = None) -> list[str]:
    """R2015-F1 / R2016-F3: who may take the bye, in the order they are asked — the entries
    with the fewest byes of all (每人至多轮空一次: nobody gets a second bye while someone has
    none), lowest ranked first, those that turned up last round before the ``away`` ones
    (:func:`no_shows`: 上一轮弃权或缺席的不安排轮空).  That rule is a preference: it yields to
    the limits (one bye each, no rematch), so a no-show is asked after the others, not left
    out — the caller takes the first whose removal leaves a rematch-free pairing.  ``after``
    (entry → a number; a Swiss's forfeit wins) orders each part further, stably."""
    away = set(away)
    fewest = min(byes[e] for e in order_best_first)
    low = [e for e in reversed(order_best_first) if byes[e] == fewest]
    key = (lambda e: after[e]) if after is not None else (lambda e: 0)
    return (sorted((e for e in low if e not in away), key=key)
            + sorted((e for e in low if e in away), key=key))


def withdrawn_notes(state: EventState, among: Iterable[str] | None = None) -> list[str]:
    """The draw sheet's note naming the entries the office withdrew (tournament.yaml's
    ``withdrawn``) that would have been drawn — ``among`` (a knockout's winners), else any
    that has played in the event: not drawn from this round on."""
    played = set(among) if among is not None else {s for r in state.rounds for m in r.matches for s in m.sides}
    gone = sorted(e for e in state.withdrawn if e in played)
    return [f"{shown_list(state, gone)}已退赛，不再编排（此前的成绩保留）。"] if gone else []


def no_shows(state: EventState, rnd: Round | None) -> set[str]:
    """The entries that did not turn up in round ``rnd`` (a forfeit loss, or absent), by its
    results as they are now.  A bye is a free win: it goes to an entry that is still coming,
    not to one that stopped coming after round 2 (it took the round-5 bye in a Swiss and
    finished above a player who played every round)."""
    out: set[str] = set()
    for m in (rnd.matches if rnd is not None else ()):
        res = state.results.get(m.key)
        if m.bye or res is None:
            continue
        out.update(s for s, side in zip(m.sides, res.sides) if side.outcome in (Outcome.FORFEIT_LOSS, Outcome.ABSENT))
    return out


def follows_a_schedule(rnd: Round) -> bool:
    """Whether a round was drawn by a fixed schedule from the round before it — a later round
    of a round robin (``rr_round`` > 1: round_robin, pairs_movement, knockout's final pool)
    or of groups_knockout's group round robin (``group_round`` > 1) — so no result of an
    earlier round moved it (a correction there does not touch it)."""
    plan = rnd.plan if isinstance(rnd.plan, dict) else {}
    return plan.get("rr_round", 1) > 1 or plan.get("group_round", 1) > 1
