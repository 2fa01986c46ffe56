"""Award schemes (``AWARD_SCHEMES``), organisers' discretionary awards and the
union-wide table per branch.

A scheme turns an event's final :class:`~pipeline.draw.base.Placement` list into
awards.csv rows (:class:`pipeline.state.AwardRow`).  Every scheme has the same call::

    rows, issues = AWARD_SCHEMES.get(spec.awards.scheme).assign(spec.awards, placements, entries,
                                                               event=spec.name)

Prizes come from ``AwardSpec.prizes[award]`` (yuan; 0 when not listed).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .. import state as _state   # AwardRow; module import keeps the state ↔ score cycle safe
from ..issues import Issue, issue
from ..model import VACANT, CellRef, Entry, Person, Severity, Unit, staff_key
from . import AWARD_SCHEMES

if TYPE_CHECKING:
    from ..draw.base import Placement
    from ..spec import AwardSpec, TournamentSpec
    from ..state import AwardRow

_CN = "零一二三四五六七八九十"


def chinese_number(n: int) -> str:
    """1 → 一, 12 → 十二, 23 → 二十三 (up to 99).

    >>> chinese_number(12)
    '十二'
    """
    if n <= 10:
        return _CN[n]
    tens, ones = divmod(n, 10)
    return (_CN[tens] if tens > 1 else "") + "十" + (_CN[ones] if ones else "")


def _row(event: str, group: str, award: str, rank: int, entry_id: str,
         entries: Mapping[str, Entry], prizes: Mapping[str, int]) -> "AwardRow":
    e = entries.get(entry_id)
    # a pair of two units' players (R2015-Q2 跨分工会, R2016-F2 re-formed) is both units' award
    units = e.units if e is not None else ()
    return _state.AwardRow(event=event or (e.event if e else ""), group=group, award=award, rank=rank,
                           team=e.team if e else entry_id, branch=e.branch if e else "",
                           players=e.player_names if e else "", prize=int(prizes.get(award, 0)),
                           entry=entry_id, units=units if len(units) > 1 else ())


def _label(entry_id: str, entries: Mapping[str, Entry]) -> str:
    e = entries.get(entry_id)
    return e.team if e else entry_id


#: award names given to a unit (组织奖) or by the judges (风尚奖), never by an event's place:
#: listed among an event's place awards, 优秀组织奖 went to each event's 7th place
NOT_BY_PLACE = ("组织奖", "組織獎", "风尚奖", "風尚獎", "精神文明", "突出贡献", "突出貢獻")


def not_by_place(name: str) -> bool:
    """Whether an award's name says it is not given by place (:data:`NOT_BY_PLACE`).

    >>> not_by_place("优秀组织奖"), not_by_place("体育道德风尚奖"), not_by_place("三等奖")
    (True, True, False)
    >>> not_by_place("優秀組織獎"), not_by_place("體育道德風尚獎")     # (a Traditional league's)
    (True, True)
    """
    return any(w in name for w in NOT_BY_PLACE)


def _whole(v: Any) -> bool:
    """A count a clerk may write: 3, "3" (not 1名, 2.5 or true)."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return v >= 0
    return isinstance(v, str) and v.strip().isdigit()


class AwardScheme:
    """Base class of a registered award scheme."""

    name = ""
    title = ""

    def places(self, options: Mapping[str, Any]) -> list[tuple[str, int]]:
        """(award, count) in order, best first."""
        raise NotImplementedError

    #: the option keys the scheme reads (beside ``scheme`` and ``prizes``)
    option_keys: tuple[str, ...] = ()

    def check_options(self, options: Mapping[str, Any], prizes: Mapping[str, Any] | None = None) -> str | None:
        """None when the options are usable, else a Chinese message naming the bad key
        (``awards.prize`` for ``prizes`` gave every winner ¥0 without a word, ``cuont`` one
        award where three were meant) — and each of ``prizes`` must name an award given."""
        import difflib

        for key in options:
            if key not in self.option_keys:
                near = difflib.get_close_matches(str(key), [*self.option_keys, "prizes", "scheme"], n=1, cutoff=0.6)
                return (f"awards.{key} 不是评奖方式“{self.title}”（{self.name}）的选项"
                        + (f"，是不是 {near[0]}？" if near else "。") + f"可用的选项：{'、'.join([*self.option_keys, 'prizes'])}。")
        for i, p in enumerate(options.get("places") or [] if "places" in self.option_keys else []):
            bad = [k for k in (p if isinstance(p, Mapping) else {}) if k not in ("award", "count")]
            if not isinstance(p, Mapping) or "award" not in p or bad:
                return (f"awards.places 的第 {i + 1} 项应写成 {{award: 一等奖, count: 1}}"
                        + (f"（“{bad[0]}”不是它的键）" if bad else "") + "。")
        for i, p in enumerate(options.get("places") or [] if "places" in self.option_keys else []):
            if not _whole(p.get("count", 1)):
                return (f"awards.places 的第 {i + 1} 项的 count（人数）应为整数，如 count: 3"
                        f"（现为“{p.get('count')}”：不要写“名”“人”等字）。")
            if int(p.get("count", 1)) == 0:
                # R2020-A1: a place nobody wins (league new took 一等奖0 and warned of 一等奖0名), its prize unpaid
                return (f"awards.places 的第 {i + 1} 项（“{p.get('award')}”）的 count（人数）为 0：这个奖项没有人能获得"
                        "（它的奖金也发不出去）。请把 count 改为 1 或更多，或删去这一项。")
        if "count" in options and not _whole(options["count"]):
            return f"awards.count（人数）应为整数，如 count: 3（现为“{options['count']}”：不要写“名”“人”等字）。"
        try:
            places = self.places(options)
        except (TypeError, ValueError, KeyError) as e:
            return f"awards 的选项有误：{e}"
        given = {a for a, _ in places} | ({str(options["rest"])} if options.get("rest") else set())
        odd = next((a for a in sorted(given) if not_by_place(a)), None)
        if odd is not None:
            return (f"奖项“{odd}”不按名次颁发（它按单位颁发或由评委会评定），列在项目的名次奖项中就会发给"
                    "某一名次（如第 7 名）。请把它从本项目的 awards 中删去：按单位颁发的写在赛事的 branch_award，"
                    "评定的写在 discretionary_awards（在评奖表上填写获奖者）。")
        for name in prizes or {}:
            if name not in given:
                return (f"awards.prizes 中的“{name}”不是本项目颁发的奖项（本项目的奖项：{'、'.join(sorted(given))}），"
                        "这一笔奖金发不出去：请把它改成奖项的名称。")
        return None

    def counts(self, awards: "AwardSpec", groups: int = 1) -> dict[str, int]:
        """How many of each award the scheme gives (for budgets, R2011-B1)."""
        out: dict[str, int] = {}
        for award, n in self.places(awards.options):
            out[award] = out.get(award, 0) + n
        return out

    def assign(self, awards: "AwardSpec", placements: Sequence["Placement"], entries: Iterable[Entry],
               *, event: str = "") -> tuple[list["AwardRow"], list[Issue]]:
        raise NotImplementedError

    def undecided(self, awards: "AwardSpec", placements: Sequence["Placement"]
                  ) -> list[tuple[str, int, tuple[str, ...], tuple[str, ...]]]:
        """(group, rank, tied ids, awards spanned) of every tie across an award boundary
        (:func:`straddling`; per group for schemes awarding by group): the event waits
        for their 加赛 before any of its awards is given."""
        return [("", *t) for t in straddling(self.places(awards.options), placements,
                                             str(awards.options.get("rest") or ""))]


def _runs(names: Sequence[Any]) -> list[tuple[str, int]]:
    """One place per name, a name repeated in a row counted once with its number
    (一等奖, 二等奖, 二等奖 → 一等奖 1, 二等奖 2: the notice said 二等奖一名 twice, and the
    budget counted one of them).

    >>> _runs(["一等奖", "二等奖", "二等奖", "第四名"])
    [('一等奖', 1), ('二等奖', 2), ('第四名', 1)]
    """
    out: list[tuple[str, int]] = []
    for n in map(str, names):
        if out and out[-1][0] == n:
            out[-1] = (n, out[-1][1] + 1)
        else:
            out.append((n, 1))
    return out


def straddling(places: list[tuple[str, int]], placements: Sequence["Placement"], rest: str = ""
               ) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    """Ties the awards cannot settle: (rank, tied entry ids, the awards their places span)
    for every group of placements still tied (``tied``) whose places fall into two award
    bands — 一等奖 and 二等奖, or an award and none (无奖项; with the awards option ``rest``,
    R2020-A1 决赛参与奖, the places below the awards bear that award: 二等奖/参与奖).  A tie
    inside one band is harmless (the two 二等奖 of R2020-A1) — unless it is a tie for one place (``settle``: two level
    2nd at one round-2 table of 斗地主 share its one 三等奖, R2020-D2), when any of those
    is placed within the awards: its award is that of the place played for (三等奖), every such
    tie alike, wherever its provisional places fall (they follow table order).  A tie for one
    place that says where its 加赛 may place it (``Placement.reach``) is played off only when
    those places bear more than one award (:func:`_settle_kinds`: two round-2 tables, three
    三等奖 — the non-finalist runners-up all get it whoever wins, 同属一个奖项可以不分先后).

    >>> from pipeline.draw.base import Placement as P
    >>> straddling([("一等奖", 1), ("二等奖", 2)], [P(1, "a", tied=True), P(1, "b", tied=True), P(3, "c")])
    [(1, ('a', 'b'), ('一等奖', '二等奖'))]
    >>> straddling([("一等奖", 1), ("二等奖", 2)], [P(1, "a"), P(2, "b", tied=True), P(2, "c", tied=True)])
    []
    >>> straddling([("一等奖", 1), ("二等奖", 2)], [P(1, "a"), P(2, "b", tied=True, settle=True), P(2, "c", tied=True, settle=True)])
    [(2, ('b', 'c'), ('二等奖',))]
    >>> straddling([("一等奖", 1), ("二等奖", 2)], [P(1, "a"), P(2, "b", tied=True, settle=True, reach=(2, 2, 3, 3)),
    ...                                          P(2, "c", tied=True, settle=True, reach=(2, 2, 3, 3))])
    []
    """
    ordered = sorted(placements, key=lambda p: (p.rank, p.entry))
    slots = [a for a, n in places for _ in range(n)]
    award_of = {p.entry: slots[i] for i, p in enumerate(ordered) if i < len(slots)}
    by_rank: dict[int, list["Placement"]] = {}
    for p in ordered:
        by_rank.setdefault(p.rank, []).append(p)
    # a tie for one place (Placement.settle) is played off when the first of them is placed
    # within the awards: its places would give the prize to all of them, or to the wrong one
    first = next((i for i, p in enumerate(ordered) if p.settle and not p.reach), None)
    settle = first is not None and first < len(slots)
    out = []
    for rank, tied in sorted(by_rank.items()):
        if len(tied) < 2 or not any(p.tied for p in tied):
            continue
        if any(p.settle and p.reach for p in tied):     # (where its 加赛 may place it: R2020-D2)
            at = _settle_kinds(tied, slots)
            if at is not None:
                out.append((rank, tuple(p.entry for p in tied), tuple(k or rest or "无奖项" for k in at)))
            continue
        kinds = {award_of.get(p.entry, "") for p in tied}
        if len(kinds) > 1 or (settle and any(p.settle for p in tied)):
            if settle and any(p.settle for p in tied):
                # the one place they play off for bears that award — whichever provisional
                # places (by table order) they stand on (R2020-D2: each table's 2nd, 三等奖)
                kinds = {slots[first]}
            spanned = [k for k in dict.fromkeys([*slots, ""]) if k in kinds]       # best award first
            out.append((rank, tuple(p.entry for p in tied), tuple(k or rest or "无奖项" for k in spanned)))
    return out


def _settle_kinds(tied: Sequence["Placement"], slots: Sequence[str]) -> tuple[str, ...] | None:
    """R2020-D2: None when a tie for one place (``Placement.settle`` with ``reach``) may stay
    level — every place its 加赛 may give either of them bears one award (or none) — else the
    awards at stake, best first: the one award of the place played for (``("三等奖",)``) when
    its winner gets it and its loser cannot, else every award those places bear.

    >>> from pipeline.draw.base import Placement as P
    >>> slots = ["一等奖", "二等奖", "二等奖", "三等奖", "三等奖", "三等奖"]
    >>> [_settle_kinds([P(5, "b", tied=True, settle=True, reach=r)], slots) for r in [(4, 5, 6, 6), (4, 6, 7, 9), (4, 6, 6, 7)]]
    [None, ('三等奖',), ('三等奖', '')]
    """
    def bear(lo: int, hi: int) -> set[str]:
        return {slots[i] if i < len(slots) else "" for i in range(lo - 1, hi)}

    won = set().union(*(bear(*p.reach[:2]) for p in tied if p.reach))
    lost = set().union(*(bear(*p.reach[2:4]) for p in tied if p.reach))
    if len(won | lost) <= 1:
        return None
    if len(won) == 1 and not won & lost:
        return tuple(won)
    return tuple(k for k in dict.fromkeys([*slots, ""]) if k in won | lost)


def tie_place(rank: int, ids: Sequence[str], kinds: Sequence[str], placements: Sequence["Placement"]
              ) -> tuple[str, str]:
    """How a tie the awards wait for (:func:`straddling`'s rank, tied ids and awards) is named
    to the office — (where, what is at stake): ``("第3名", "二等奖/三等奖")``; for one table's
    level runners-up (``Placement.settle``, R2020-D2: two level 2nd at one round-2 table of
    斗地主 play for its one 三等奖) by their table, not by provisional places that follow
    table order: ``("第2轮第1桌第2名", "三等奖只能由其中一人获得")`` — every such pair asked
    the same way, and under the same name until its own 加赛 settles it.

    >>> from pipeline.draw.base import Placement as P
    >>> tie_place(3, ("a", "b"), ("二等奖", "三等奖"), [P(3, "a", tied=True), P(3, "b", tied=True)])
    ('第3名', '二等奖/三等奖')
    >>> tie_place(6, ("a", "b"), ("三等奖",), [P(6, "a", tier="第2轮第2桌第2名", tied=True, settle=True),
    ...                                        P(6, "b", tier="第2轮第2桌第2名", tied=True, settle=True)])
    ('第2轮第2桌第2名', '三等奖只能由其中一人获得')
    >>> tie_place(6, ("a", "b"), ("三等奖", "决赛参与奖"), [P(6, e, tier="第2轮第2桌第2名", tied=True, settle=True) for e in "ab"])
    ('第2轮第2桌第2名', '三等奖/决赛参与奖')

    The one award only when the tie's 加赛 gives it to its winner and not to its loser
    (:func:`_settle_kinds`); where the loser may get it too, the awards at stake.
    """
    mine = [p for p in placements if p.entry in set(ids)]
    tiers = {p.tier for p in mine}
    if mine and all(p.settle for p in mine) and len(tiers) == 1 and next(iter(tiers)):
        return next(iter(tiers)), (f"{kinds[0]}只能由其中一人获得" if len(kinds) == 1 else "/".join(kinds))
    return f"第{rank}名", "/".join(kinds)


def placed_by(placements: Sequence["Placement"], keys: Mapping[str, Any]) -> list["Placement"]:
    """R2020-F4: ``placements`` with the entries of ``keys`` — level at one rank — placed by their
    keys (lower is better; equal keys stay level and share their place), as a 加赛 that
    orders them by those keys places them (``Placement.tied`` as :func:`tier_placements` sets it).

    >>> from pipeline.draw.base import Placement as P
    >>> [(p.rank, p.entry, p.tied) for p in placed_by([P(1, "a", tied=True), P(1, "b", tied=True), P(1, "c", tied=True)],
    ...                                               {"a": 2, "b": 1, "c": 2})]
    [(2, 'a', True), (1, 'b', False), (2, 'c', True)]
    """
    import dataclasses
    from bisect import bisect_left
    from collections import Counter

    ordered = sorted(keys.values())     # (counted once: prize_runs asks this of every tied entry)
    level = Counter(ordered)
    out = []
    for p in placements:
        if p.entry in keys:
            k = keys[p.entry]
            p = dataclasses.replace(p, rank=p.rank + bisect_left(ordered, k), tied=level[k] > 1)
        out.append(p)
    return out


def prize_runs(scheme: "AwardScheme", awards: "AwardSpec", placements: Sequence["Placement"],
               tied: Sequence[str]) -> list[int]:
    """R2020-F4: the places of a tie (``tied``, level at one rank), best first, in runs that
    may stay level — each run's places lie within one prize, as the PLAYOFF_REQUIRED check
    (:meth:`AwardScheme.undecided`) judges a tie: the number of places of each run.  Three level
    at 1st for 一等奖 1, 二等奖 2 → [1, 2] (2nd and 3rd may share 二等奖).

    >>> from pipeline.draw.base import Placement as P
    >>> from pipeline.spec import AwardSpec
    >>> aw = AwardSpec(scheme="ranked", extra={"places": [{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2}]})
    >>> prize_runs(Ranked(), aw, [P(1, e, tied=True) for e in "abc"] + [P(4, "d")], "abc")
    [1, 2]
    """
    want = set(tied)
    scope = list(placements)
    if getattr(scheme, "by_group", False):      # (awarding by group: a tie is judged in its group)
        groups = {p.group for p in scope if p.entry in want}
        scope = [p for p in scope if p.group in groups]
    # as straddling places them: the tie's places in order, each bearing its slot's award —
    # two neighbours on different awards (or a tie for one place, Placement.settle, within
    # the awards) may not stay level.  (Placed again pair by pair through undecided, the
    # runs of a tie of k cost k³: 3 s for 300 level on every night its 加赛表 waited.)
    ordered = sorted(scope, key=lambda p: (p.rank, p.entry))
    slots = [a for a, n in scheme.places(awards.options) for _ in range(n)]
    reached = [p for p in ordered if p.entry in want and p.settle and p.reach]
    if reached:     # a table's level 2nd (R2020-D2): level or played off as a whole (straddling)
        n = sum(p.entry in want for p in ordered)
        return [n] if _settle_kinds(reached, slots) is None else [1] * n
    first = next((i for i, p in enumerate(ordered) if p.settle and not p.reach), None)
    settle = first is not None and first < len(slots)
    mine = [(slots[i] if i < len(slots) else "", p.settle) for i, p in enumerate(ordered) if p.entry in want]
    runs = [1]
    for (a, s_a), (b, s_b) in zip(mine, mine[1:]):
        if a != b or (settle and (s_a or s_b)):
            runs.append(1)
        else:
            runs[-1] += 1
    return runs


def _assign_ranked(places: list[tuple[str, int]], placements: Sequence["Placement"],
                   by_id: Mapping[str, Entry], prizes: Mapping[str, int], event: str,
                   group: str, rest: str = "") -> tuple[list["AwardRow"], list[Issue], set[str]]:
    """Walk placements best first, filling (award, count) slots in order (``rest``: the
    award of everyone else, named where a tie spans it: :func:`straddling`)."""
    ordered = sorted(placements, key=lambda p: (p.rank, p.entry))
    slots = [a for a, n in places for _ in range(n)]
    rows, issues, given = [], [], set()
    award_of: dict[str, str] = {}
    for i, p in enumerate(ordered):
        if i >= len(slots):
            break
        award_of[p.entry] = slots[i]
        if p.vacant:        # R2011-R1: the place is vacant — its award too, and nobody moves up
            rows.append(_state.AwardRow(event=event or (by_id[p.entry].event if p.entry in by_id else ""), group=group,
                                        award=slots[i], rank=p.rank, team=VACANT, branch="", players="", vacant=True))
        else:
            rows.append(_row(event, group, slots[i], p.rank, p.entry, by_id, prizes))
        given.add(p.entry)
    tier_of = {p.entry: p.tier for p in placements if p.settle}
    for rank, tied, kinds in straddling(places, placements, rest):
        who = "、".join(f"“{_label(e, by_id)}”" for e in tied)
        where = f"{event}{f' {group}组' if group else ''}"
        if all(e in tier_of for e in tied) and len(kinds) == 1:     # one table's level runners-up (R2020-D2)
            said = f"{tier_of[tied[0]]}并列：{who} 是同一桌的并列第2名，只有一人能得{kinds[0]}"
        else:
            said = f"第{rank}名并列：{who} 跨越奖项分界（{'/'.join(kinds)}）"
        issues.append(issue("PLAYOFF_REQUIRED", f"{where} {said}，名单为暂定；请组织加赛，并在“加赛”表中按名次填写结果"))
    return rows, issues, given


class Ranked(AwardScheme):
    """R2020-A1 / R2011-A1 / R2015-A1: awards by final place.

    Options: ``places: [{award: 一等奖, count: 1}, {award: 二等奖, count: 2}, …]`` and
    optional ``rest: 决赛参与奖`` (every other entry of the event).  Tied placements
    (``tied=True``) that straddle an award boundary are still listed, in entry-id
    order, with a ``PLAYOFF_REQUIRED`` issue — the runner does not give an event's awards
    while such a tie is open (:meth:`AwardScheme.undecided`).

    >>> Ranked().places({"places": [{"award": "一等奖", "count": 1}]})
    [('一等奖', 1)]
    """

    name = "ranked"
    title = "按名次设奖"
    option_keys = ("places", "rest")

    def places(self, options: Mapping[str, Any]) -> list[tuple[str, int]]:
        raw = options.get("places")
        if not isinstance(raw, list) or not raw:
            raise ValueError("按名次设奖（ranked）须写 places: [{award: 一等奖, count: 1}, …]")
        out = []
        for p in raw:
            award, count = str(p["award"]), int(p.get("count", 1))
            if count < 0:
                raise ValueError(f"“{award}”的名额 count 不能小于 0")
            out.append((award, count))
        return out

    def assign(self, awards: "AwardSpec", placements: Sequence["Placement"], entries: Iterable[Entry],
               *, event: str = "") -> tuple[list["AwardRow"], list[Issue]]:
        """Awards by place, then ``rest`` for everyone else."""
        opts = awards.options
        by_id = {e.id: e for e in entries}
        rest = opts.get("rest")
        rows, issues, given = _assign_ranked(self.places(opts), placements, by_id, awards.prizes, event, "",
                                             str(rest or ""))
        if rest:
            placed = {p.entry: p.rank for p in placements}
            # (R2011-R1: one who lost a place-deciding match by not coming has no award at all)
            gone = {p.entry for p in placements if p.vacant}
            others = sorted((set(by_id) | set(placed)) - given - gone, key=lambda e: (placed.get(e, 10**9), e))
            rows += [_row(event, "", str(rest), placed.get(e, 0), e, by_id, awards.prizes) for e in others]
        return rows, issues


class TopN(Ranked):
    """R2015-A1 top three (the spec's default scheme): one award per place,
    ``count`` places (default 3), named by option ``awards`` or 第一名, 第二名 …"""

    name = "top_n"
    title = "前N名"
    option_keys = ("count", "awards", "rest")

    def places(self, options: Mapping[str, Any]) -> list[tuple[str, int]]:
        names = options.get("awards")
        count = int(options.get("count", len(names) if names else 3))
        names = list(names or [f"第{chinese_number(i)}名" for i in range(1, count + 1)])
        if len(names) < count:
            raise ValueError(f"前N名（top_n）的 count 为 {count}，awards 却只列了 {len(names)} 个奖项名称")
        return _runs(names[:count])


class GroupTop(AwardScheme):
    """R2016-A1: the top ``count`` (default 2) of each group (``Placement.group``),
    named by option ``awards`` or 小组第一名, 小组第二名 … Only for the format that ranks each
    group apart, groups_standings (分组积分编排赛): league new refuses it for any other.

    (:func:`pipeline.newleague.scheme_problem`: given to a knockout or Swiss event, its notice
    said 每组一等奖一名 while the awards went by the event's places; a tournament.yaml edited by
    hand may still give it so — the event is then one group, and the notice says no 每组.)"""

    name = "group_top"
    title = "各组前N名"
    option_keys = ("count", "awards")
    by_group = True         # the places it reads are each group's (EventState.places_by_group)

    def places(self, options: Mapping[str, Any]) -> list[tuple[str, int]]:
        names = options.get("awards")
        count = int(options.get("count", len(names) if names else 2))
        names = list(names or [f"小组第{chinese_number(i)}名" for i in range(1, count + 1)])
        if len(names) < count:
            raise ValueError(f"各组前N名（group_top）的 count 为 {count}，awards 却只列了 {len(names)} 个奖项名称")
        return _runs(names[:count])

    def counts(self, awards: "AwardSpec", groups: int = 1) -> dict[str, int]:
        return {a: n * groups for a, n in super().counts(awards).items()}

    def undecided(self, awards: "AwardSpec", placements: Sequence["Placement"]
                  ) -> list[tuple[str, int, tuple[str, ...], tuple[str, ...]]]:
        places = self.places(awards.options)
        return [(g, *t) for g in sorted({p.group for p in placements})
                for t in straddling(places, [p for p in placements if p.group == g])]

    def assign(self, awards: "AwardSpec", placements: Sequence["Placement"], entries: Iterable[Entry],
               *, event: str = "") -> tuple[list["AwardRow"], list[Issue]]:
        """Per group, awards by place within the group."""
        by_id = {e.id: e for e in entries}
        places = self.places(awards.options)
        rows, issues = [], []
        for group in sorted({p.group for p in placements}):
            r, i, _ = _assign_ranked(places, [p for p in placements if p.group == group], by_id,
                                     awards.prizes, event, group)
            rows += r
            issues += i
        return rows, issues


AWARD_SCHEMES.register("ranked", "名次奖", "按名次")(Ranked())
AWARD_SCHEMES.register("top_n", "前N名", "前三名")(TopN())
AWARD_SCHEMES.register("group_top", "小组前N名", "各组前N名")(GroupTop())


# -- discretionary awards (R2015-A1) ----------------------------------------------------------

def _as_simplified(text: str) -> str:
    """An award's name compared in Simplified (a Traditional sheet writes 風尚獎)."""
    from ..text import to_simplified

    return to_simplified(text)


def normalise_name(name: str) -> str:
    """NFKC and no spaces of any kind (the seeds write "王  军"), a name's dots as ``·``
    (:func:`pipeline.ingest.workbook.strip_spaces`, as the registration reads names)."""
    from ..ingest.workbook import strip_spaces

    return strip_spaces(name or "")


@dataclass(frozen=True)
class DiscretionaryRow:
    """One line of the organisers' 评奖 sheet: award, event, name, staff id, branch."""

    award: str
    event: str = ""
    name: str = ""
    staff_id: str = ""
    branch: str = ""          # unit id or name; required for the branch award (组织奖)
    at: CellRef | None = None
    #: the row's cells by column label (奖项, 项目, 姓名, 工号, 单位): a problem is named at the
    #: cell of the column it is about (单位 at E6, not the row's 奖项 at A6); ``at`` when absent
    cells: Mapping[str, CellRef] | None = field(default=None, compare=False, hash=False)

    def cell(self, label: str) -> CellRef | None:
        """The cell of column ``label`` (its 单位, 姓名 …), or ``at`` when the sheet has no such column.

        >>> r = DiscretionaryRow("组织奖", at=CellRef("评奖.xlsx", "评奖", "A6"))
        >>> r.cell("单位").cell
        'A6'
        """
        ref = (self.cells or {}).get(label)
        return ref if ref is not None and ref.cell else self.at


def _unit_lookup(units: Iterable[Unit], names: Mapping[str, Sequence[str]] | None = None) -> dict[str, Unit]:
    """A unit by its id, full or short name — or by another of its names in ``names`` (unit
    id → its names, former ones too: :func:`pipeline.run.unit_names`), as a 评奖 sheet printed
    before the office renamed it lists it, when that is no unit's name now and one unit's only.

    >>> units = [Unit("b01", "行政壹分工会", short="行政壹"), Unit("b02", "行政二分工会", short="行政二")]
    >>> look = _unit_lookup(units, {"b01": ("行政壹分工会", "行政一分工会", "行政二"), "b02": ("行政二分工会", "行政一分工会")})
    >>> look["行政壹"].id, look["行政二"].id, "行政一分工会" in look
    ('b01', 'b02', False)
    """
    out: dict[str, Unit] = {}
    units = list(units)
    for u in units:
        for k in (u.id, u.name, u.short):
            if k:
                out[normalise_name(k)] = u
    by_id = {u.id: u for u in units}
    former: dict[str, set[str]] = {}
    for uid, ns in (names or {}).items():
        for n in ns:
            if uid in by_id and normalise_name(n) and normalise_name(n) not in out:
                former.setdefault(normalise_name(n), set()).add(uid)
    out.update({k: by_id[next(iter(ids))] for k, ids in former.items() if len(ids) == 1})
    # a Traditional-script league's sheet writes 後勤服務分工會: each name in Simplified too
    out.update({_as_simplified(k): u for k, u in list(out.items()) if _as_simplified(k) not in out})
    return out


def _row_number(r: DiscretionaryRow) -> str:
    """The sheet row of a 评奖 row ("9" for A9), "" when not known.

    >>> _row_number(DiscretionaryRow("组织奖", at=CellRef("评奖.xlsx", "评奖", "A9")))
    '9'
    """
    import re

    m = re.fullmatch(r"\$?[A-Z]+\$?(\d+)", r.at.cell if r.at is not None else "")
    return m.group(1) if m else ""


def discretionary_awards(rows: Iterable[DiscretionaryRow], entries: Iterable[Entry], units: Iterable[Unit] = (),
                         *, branch_award: str = "组织奖", prizes: Mapping[str, int] | None = None,
                         event_names: Mapping[str, str] | None = None,
                         known: Sequence[str] | None = None,
                         names: Mapping[str, Sequence[str]] | None = None,
                         script: str = "simplified") -> tuple[list["AwardRow"], list[Issue]]:
    """R2015-A1: organisers' awards (风尚奖, 潜力选手奖 …) for named players, and the
    branch award (组织奖, ``team`` = branch name, no entry).

    A player is found by staff id, else by normalised name (within the row's event and
    branch when given).  ``event_names`` maps event id → name so either may be typed.
    Returns the rows and issues for names that are blank, unknown or ambiguous.  With
    ``known`` (the spec's ``discretionary_awards``), an award of another name is refused: a
    typo (风尚将) would be printed on a certificate; an empty ``known`` (a league with no
    discretionary awards) accepts only ``branch_award``, and an empty ``branch_award`` (none
    configured) means no award by unit — 组织奖 is then refused like any unknown award (it
    was printed on a certificate, the form offering it).  ``known`` None (not said) takes any
    award name.  ``names`` (unit id → its names, former
    ones too) finds a unit the sheet names as it was called before the office renamed it
    (:func:`_unit_lookup`): its 单位 list was printed then.

    One award to one unit or player counts once: a later row giving it again (the unit typed
    in Traditional or by its short name, the player with 项目 and without) is a warning at
    its cell naming the row it repeats.  A unit award has no event: a 项目 on its row is not
    taken (a note at the cell) — 全部项目 was copied into awards.csv as its event.
    """
    from ..text import verbatim

    prizes = prizes or {}
    event_names = dict(event_names or {})
    entries = list(entries)
    units_by = _unit_lookup(units, names)
    out: list["AwardRow"] = []
    issues: list[Issue] = []
    #: the award names configured (R2015-A1): the discretionary ones, then the award by unit
    allowed = list(dict.fromkeys([*(known or ()), *([branch_award] if branch_award else [])]))

    def event_id(text: str) -> str | None:
        k = normalise_name(text)
        if not k:
            return None
        for eid, nm in event_names.items():
            # (in Simplified: a Traditional sheet writes 圍棋 for the spec's 围棋)
            if _as_simplified(k) in (normalise_name(eid), _as_simplified(normalise_name(nm))):
                return eid
        return k

    #: each award taken, by what it is given to (R2015-A1: one award, one certificate): the row that gave it
    given: dict[tuple[Any, ...], DiscretionaryRow] = {}

    def repeated(key: tuple[Any, ...], r: DiscretionaryRow, what: str, at: CellRef | None, other: str) -> bool:
        """Whether ``key`` was given on an earlier row: the same award entered twice (the unit
        typed once in Traditional, once by its short name; the player with 项目 and without)
        was two certificates, the unit's count 2.  Said at the later row, counted once."""
        first = given.setdefault(key, r)
        if first is r:
            return False
        line = _row_number(first)
        issues.append(issue("BAD_VALUE", f"这一行与{f'第{line}行' if line else '前面的一行'}重复：{what}已经填过，"
                                         f"只计一次（一张证书），这一行未采用。请删去这一行；{other}。",
                            at=at, severity=Severity.WARNING))
        return True

    for r in rows:
        award = normalise_name(r.award)
        if not award:
            issues.append(issue("MISSING_VALUE", "奖项为空：请填写奖项名称（如 风尚奖）", at=r.cell("奖项")))
            continue
        if known is not None and _as_simplified(award) not in {_as_simplified(normalise_name(k)) for k in allowed}:
            # each valid name quoted on its own: joined bare with 、, a refused “甲奖、乙奖” (one
            # name of the spec, 、 and all) read as if it were in the list
            listed = (f"（设定的奖项：{'、'.join(f'“{k}”' for k in allowed)}）" if allowed
                      else "（本次比赛没有设定评定奖项或单位奖项）")
            by_unit = ("按单位颁发的奖项须先在 tournament.yaml 的 branch_award 中设定；"
                       if r.branch.strip() and not branch_award else "")
            issues.append(issue("BAD_VALUE", f"奖项“{r.award}”不是本次比赛设定的奖项{listed}，"
                                f"这一行未采用：{by_unit}请核对奖项名称。", at=r.cell("奖项")))
            continue
        # the award as tournament.yaml names it (风尚奖 typed 風尚獎: its prize, and one name in awards.csv)
        configured = next((k for k in allowed if _as_simplified(normalise_name(k)) == _as_simplified(award)),
                          r.award.strip())
        unit = (units_by.get(normalise_name(r.branch)) or units_by.get(_as_simplified(normalise_name(r.branch)))
                if r.branch else None)
        if r.branch and unit is None:
            issues.append(issue("UNKNOWN_BRANCH", f"单位“{r.branch}”不在本次比赛的单位名单中：请改为名单中的单位全称或简称",
                                at=r.cell("单位")))
            continue
        if branch_award and _as_simplified(award) == _as_simplified(normalise_name(branch_award)):
            if unit is None:
                issues.append(issue("MISSING_VALUE", f"“{r.award}”按单位颁发：请在“单位”栏填写获奖单位", at=r.cell("单位")))
                continue
            if repeated(("unit", configured, unit.id), r, f"{configured}（{unit.name}）", r.cell("单位"),
                        "如是要颁给另一单位，请改正“单位”"):
                continue
            if r.event.strip():
                # a unit award has no event (README: a 组织奖 row's event is empty; the form
                # says 只填“单位”): 全部项目 was copied into awards.csv as if it were an event
                issues.append(issue("BAD_VALUE", f"“{r.award}”按单位颁发，不分项目：“项目”一栏的“{r.event.strip()}”未采用"
                                                 "（获奖名单和证书上不写项目），这一行照常采用；“项目”一栏空着即可。",
                                    at=r.cell("项目"), severity=Severity.INFO))
            out.append(_state.AwardRow(event="", group="", award=configured, rank=0, team=unit.name,
                                       branch=unit.id, players="", prize=int(prizes.get(configured, 0))))
            continue
        name, sid = normalise_name(r.name), normalise_name(r.staff_id)
        if not name and not sid:
            issues.append(issue("MISSING_VALUE", f"“{r.award}”未填写获奖人：请填写姓名（最好同时填写工号）", at=r.cell("姓名")))
            continue
        eid = event_id(r.event)
        # the players the row may name: of its event, and of its unit when it names one — the
        # player's own, or the pair's (R2015-Q2: a cross-unit pair's member is their home
        # unit's, on another unit's form)
        candidates: list[tuple[Entry, Person]] = [
            (e, p) for e in entries if not eid or e.event == eid
            for p in e.players if not unit or unit.id in (e.branch, p.branch)]
        found = [(e, p) for e, p in candidates
                 if (sid and staff_key(p.staff_id) == staff_key(sid)) or (not sid and name and p.name == name)]
        if not found and name and not sid and script == "traditional":
            # in a Traditional league the office types 閆璐 as every document prints her (the
            # form said 闫璐): the same name in Simplified, when no name matches as typed —
            # said, as the conversion joins names (於/于) a Simplified league keeps apart
            plain = _as_simplified(name)
            found = [(e, p) for e, p in candidates if _as_simplified(p.name) == plain]
            if len({e.id for e, _ in found}) == 1:
                # each name as typed (text.verbatim): the page converting the message made
                # 闫璐 閆璐 too (the two names alike), and the office's 謝軍杰 謝軍傑
                issues.append(issue("NAME_CONVERTED", f"获奖人“{verbatim(r.name.strip(), script)}”按报名表中的"
                                                      f"“{verbatim(found[0][1].shown, script)}”"
                                                      "（同一姓名的简体写法）核对，已采用；如不是此人，请改正。", at=r.cell("姓名")))
        shown = r.name.strip() or r.staff_id.strip()
        who = r.cell("姓名" if r.name.strip() else "工号")      # the cell that names the player
        if not found and eid and eid not in event_names and all(e.event != eid for e in entries):
            issues.append(issue("BAD_VALUE", f"项目“{r.event}”不是本次比赛的项目"
                                             f"{('（' + '、'.join(event_names.values()) + '）') if event_names else ''}"
                                             "，这一行未采用：请改为其中之一（或空着）。", at=r.cell("项目")))
            continue
        if not found:
            issues.append(issue("BAD_VALUE", f"获奖人“{verbatim(shown, script)}”在{('“' + r.event + '”') if r.event else '各项目'}"
                                             f"的参赛名单中找不到：请核对姓名、工号和项目", at=who))
            continue
        if len({e.id for e, _ in found}) > 1:
            issues.append(issue("BAD_VALUE", f"获奖人“{verbatim(shown, script)}”对应多名参赛者：请填写工号或单位以区分", at=who))
            continue
        e, player = found[0]
        if repeated(("player", configured, player.key),
                    r, f"{configured}（{verbatim(player.shown, script)}）", who, "如是另一位获奖人，请改正姓名和工号"):
            continue
        # the event's id, as every other awards.csv row has it (typed as 桥牌 or bridge); the
        # player's own unit (R2015-Q2: a cross-unit pair's member is not the pair's unit's)
        out.append(_state.AwardRow(event=e.event, group="",
                                   award=configured, rank=0, team=e.team, branch=player.branch or e.branch,
                                   players=player.shown, prize=int(prizes.get(configured, 0)), entry=e.id))
    return out, issues


# -- union-wide table ----------------------------------------------------------------------------

def award_columns(spec: "TournamentSpec", awards: Iterable["AwardRow"]) -> list[str]:
    """The award names of ``awards``, once each, in the order the spec configures them — the
    one order of every 获奖统计 (the award list's, the front page's and its weights note):
    the places by their position in an event's list (第一名, 第二名, 第三名; an event's
    first award before another's second), then the events' ``rest`` (决赛参与奖), then
    ``discretionary_awards`` as listed, then ``branch_award`` (组织奖).  A name the spec
    does not configure (a kept row of an older spec) comes last, by its best place, then as
    it first appears.  Not the order of first appearance: a vacant place (R2011-R1, left out
    of the counts) or an award one event lacks put 第二名 after 第三名 (an audit).

    >>> from pipeline.spec import TournamentSpec, validated
    >>> from pipeline.state import AwardRow
    >>> spec = validated(TournamentSpec, {"id": "t", "name": "t", "units": [{"id": "u", "name": "u"}],
    ...     "events": [{"id": "x", "name": "x", "game": "xiangqi", "format": {"type": "knockout"},
    ...                 "awards": {"scheme": "ranked", "places": [{"award": "第一名"}, {"award": "第二名"},
    ...                                                          {"award": "第三名"}]}}]})
    >>> award_columns(spec, [AwardRow("x", "", a, r, "t", "u", "p") for r, a in ((1, "第一名"), (3, "第三名"), (2, "第二名"))])
    ['第一名', '第二名', '第三名']
    """
    configured: dict[str, tuple[int, int, int]] = {}

    def put(name: str, key: tuple[int, int, int]) -> None:
        if name and (name not in configured or key < configured[name]):
            configured[name] = key

    for i, ev in enumerate(spec.events):
        try:
            places = AWARD_SCHEMES.get(ev.awards.scheme).places(ev.awards.options)
        except (KeyError, TypeError, ValueError):     # (a spec the runner already refused)
            places = []
        for pos, (name, _) in enumerate(places):
            put(name, (0, pos, i))
        put(str(ev.awards.options.get("rest") or ""), (1, i, 0))
    for pos, name in enumerate(spec.discretionary_awards):
        put(name, (2, pos, 0))
    put(spec.branch_award, (3, 0, 0))
    seen: dict[str, tuple[int, int, int]] = {}
    for n, a in enumerate(awards):
        if a.award in configured:
            seen.setdefault(a.award, configured[a.award])
        else:       # unknown: after the configured, by its best place (none: after those), then first seen
            key = (4, a.rank if a.rank > 0 else 10**9, n)
            seen[a.award] = min(seen.get(a.award, key), key)
    return sorted(seen, key=seen.__getitem__)


#: default points per award for the branch table; other awards count 0 points
DEFAULT_AWARD_WEIGHTS: dict[str, int] = {"一等奖": 7, "二等奖": 5, "三等奖": 3,
                                         "第一名": 7, "第二名": 5, "第三名": 3,
                                         "小组第一名": 5, "小组第二名": 3}


@dataclass(frozen=True)
class BranchTotal:
    """One branch's line of the union-wide awards table."""

    branch: str
    name: str
    counts: dict[str, int] = field(default_factory=dict)   # award → number
    prize: int = 0
    points: int = 0
    rank: int = 0


def branch_totals(awards: Iterable["AwardRow"], units: Iterable[Unit],
                  weights: Mapping[str, int] | None = None) -> list[BranchTotal]:
    """Per branch: count of each award, prize money total and a points total
    (Σ ``weights[award]``; default 一等奖 7, 二等奖 5, 三等奖 3, other awards 0).
    Every unit is listed (zeros too); best first by points, then prize; shared ranks.
    The award of a pair from two units (R2015-Q2 cross-unit pairs, R2016-F2 pairs re-formed
    at check-in: ``AwardRow.unit_ids``) counts and weighs for each of them; its prize money
    is shared between them (``AwardRow.prize_share``), so the money still adds up.

    >>> from pipeline.model import Unit
    >>> branch_totals([], [Unit("u1", "一分工会")])[0].points
    0
    """
    weights = DEFAULT_AWARD_WEIGHTS if weights is None else weights
    units = list(units)
    counts: dict[str, dict[str, int]] = {u.id: {} for u in units}
    prize = {u.id: 0 for u in units}
    points = {u.id: 0 for u in units}
    names = {u.id: u.name for u in units}
    for a in awards:
        for b in a.unit_ids:      # a cross-unit pair's award counts for each of its units
            if b not in counts:
                counts[b], prize[b], points[b] = {}, 0, 0
                names[b] = b
            counts[b][a.award] = counts[b].get(a.award, 0) + 1
            prize[b] += a.prize_share(b)
            points[b] += int(weights.get(a.award, 0))
    order = sorted(counts, key=lambda b: (-points[b], -prize[b], b))
    out: list[BranchTotal] = []
    for i, b in enumerate(order):
        rank = out[-1].rank if out and (points[b], prize[b]) == (out[-1].points, out[-1].prize) else i + 1
        out.append(BranchTotal(b, names[b], dict(counts[b]), prize[b], points[b], rank))
    return out
