"""Knockout at tables of three with byes and revival by lot (R2020-D1/D2, R2011-D1/D2/D3).

Round 1: floor(n/3) tables drawn by lot (branches spread over the tables); the
remaining 0–2 entries draw byes into round 2.  Each table's winner (place 1) advances.
When the advancing count is not a multiple of 3, option ``fill`` decides:
``"revival"`` (default, R2020-D1): losers of the previous round are revived by lot to
fill whole tables; ``"bye"``: the surplus 1–2 entries get byes by lot (fewest byes
first, so nobody has a second bye while someone has none).  When 3 or fewer advance
they play the final table (revived up to 3 from the previous round's losers if needed).
22 → 7 tables + 1 bye → 7 winners + 1 bye + 1 revived = 9 → 3 tables → final table.

A table whose result has no place 1 (a tie for the top, R2011-D2) waits for a 加赛: a
:class:`~pipeline.model.Playoff` whose order covers the tied entries of that table
settles it.  Tables are numbered 1..n; bye "tables" follow them.

Plan: ``{"kind": "tables" | "final", "byes": [...], "revived": [...], "lot_pool": [...]}``
— ``lot_pool`` is the list of losers that drew for revival.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..model import Match, Outcome, Round
from . import FORMATS
from .base import EventState, Placement, Waiting
from .common import (bye_counts, byes_left, check_choice, check_known, first_problem, lost_by_absence, next_round_no,
                     ranked, settled_winner, shown_list, spread_tables, tier_placements, winner_of, winners_of,
                     withdrawn_notes)


class TablesOfThree:
    """R2020-D1/D2, R2011-D1/D2/D3: tables of three, winners advance, byes and revivals by lot."""

    name = "tables_of_three"
    title = "三人桌淘汰赛"
    seats = 3
    min_entries = 3     # round 1 needs one table (the runner's TOO_FEW_ENTRIES below that)
    OPTIONS = ("fill",)
    #: the options as the spec reference documents them (pipeline.specdoc)
    OPTION_DOCS = {
        "fill": "晋级人数不是 3 的倍数时：`revival`（默认）从上一轮各桌负者中抽签复活补足整桌；"
                "`bye`：多出的 1 至 2 人抽签轮空进入下一轮（轮空次数少者优先）",
    }

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None, or a message naming the bad option (``fill``: revival | bye)."""
        return first_problem(check_known(options, self.OPTIONS, self.name),
                             check_choice(options, "fill", ("revival", "bye")))

    def stage_kind(self, rounds: list[Round]) -> tuple[str, str]:
        """(kind, label) of a stage of this format's rounds on the event page
        (:func:`pipeline.render.site_vm.stage_kind`): the format says what it drew, the
        page does not guess it from the stage's name (R2020-D1, R2011-D1: its rounds and its final table)."""
        return "tables", "分桌赛"

    def describe(self, options: dict[str, Any], game: Any = None) -> str:
        """Chinese paragraph for the notice."""
        fill = ("由上一轮的负者抽签复活补足" if options.get("fill", "revival") == "revival"
                else "多出的选手抽签轮空直接晋级")
        return ("采用三人一桌淘汰制：第一轮抽签三人一桌，人数不足一桌的余数抽签轮空直接进入第二轮；"
                f"每桌积分第一名晋级（第一名积分相同时加赛决定）。晋级人数不是 3 的倍数时，{fill}；"
                "剩余 3 人（不足 3 人时由负者抽签复活补足）进行决赛桌，按积分排出第一至第三名，"
                "前一轮各桌第二名列其后。")

    # ------------------------------------------------------------------ drawing

    def next_round(self, state: EventState, rng: random.Random) -> Round | None:
        """R2020-D1: the next round of tables (or the final table), None when done."""
        if not state.rounds:
            ids = sorted(e.id for e in state.entries)
            if len(ids) < 3:
                raise Waiting(f"三人桌比赛至少需要 3 名参赛者，现只有 {len(ids)} 名：请补报名或改用其他赛制。")
            if len(ids) == 3:
                return self._round(state, ids, [], [], [], rng, final=True)
            byes = sorted(rng.sample(ids, len(ids) % 3))
            return self._round(state, [e for e in ids if e not in byes], byes, [], [], rng)
        last = state.rounds[-1]
        winners = winners_of(state, last.matches)      # every tied table's 加赛 asked at once
        if last.plan.get("kind") == "final":
            return None
        # (an entry the office withdrew goes no further, nor into the revival lot)
        adv = sorted(w for w in winners if w is not None and w not in state.withdrawn)
        # the revival lot is drawn among the losers who played: one absent (弃权, forfeited)
        # would be revived only to be absent again, and take a present loser's place
        losers = sorted(s for m in last.matches if not m.bye for i, s in enumerate(m.sides)
                        if s not in adv and _played(state, m, i) and s not in state.withdrawn and s not in winners)
        fill = state.options.get("fill", "revival")
        if len(adv) <= 3:
            need = 3 - len(adv)
            pool = losers
            if len(losers) < need:
                # seats left empty (弃权, absent) leave too few losers of the last round to
                # fill the final table: every one of them, then a lot among the present
                # losers of the rounds before (a short table cannot be played, nor drawn)
                away = {s for r in state.rounds for m in r.matches if not m.bye
                        for i, s in enumerate(m.sides) if not _played(state, m, i)}
                earlier = sorted({s for r in state.rounds[:-1] for m in r.matches if not m.bye
                                  for s in m.sides if s not in away and s not in adv and s not in losers
                                  and s not in state.withdrawn and s != winner_of(state, m)})
                pool = losers + earlier
                revived = sorted(losers + rng.sample(earlier, min(need - len(losers), len(earlier))))
            else:
                revived = sorted(rng.sample(losers, need))
            if len(adv) + len(revived) < 3:
                raise Waiting(self._too_few(state, adv + revived))
            return self._round(state, adv + revived, [], revived, pool, rng, final=True)
        surplus = len(adv) % 3
        if surplus == 0:
            return self._round(state, adv, [], [], [], rng)
        if fill == "revival":
            need = 3 - surplus
            revived = sorted(rng.sample(losers, min(need, len(losers))))
            if len(revived) == need:
                return self._round(state, adv + revived, [], revived, losers, rng)
        held = bye_counts(state.rounds)
        fewest = sorted(adv, key=lambda e: held[e])
        floor = held[fewest[surplus - 1]]
        sure = [e for e in adv if held[e] < floor]
        maybe = [e for e in adv if held[e] == floor]
        byes = sorted(sure + rng.sample(maybe, surplus - len(sure)))
        return self._round(state, [e for e in adv if e not in byes], byes, [], [], rng)

    @staticmethod
    def _too_few(state: EventState, left: list[str]) -> str:
        """Why no final table can be drawn: fewer than three players left who played."""
        if not left:
            return ("上一轮各桌都没有产生晋级选手（均为弃权或缺席），无法抽决赛桌：请核对成绩表中的"
                    "“弃权”“缺席”是否填写正确。")
        return (f"只剩 {shown_list(state, left)} {len(left)} 名选手（其余均弃权、缺席或退赛），凑不满三人的决赛桌："
                "请核对成绩表中的“弃权”“缺席”是否填写正确；如确实如此，请组委会决定名次（如另行加赛），"
                "并在成绩表上据实填写。")

    def _round(self, state: EventState, players: list[str], byes: list[str], revived: list[str],
               lot_pool: list[str], rng: random.Random, final: bool = False) -> Round:
        no = next_round_no(state)
        stage = "final" if final else "tables"
        k = sum(1 for r in state.rounds if r.plan.get("kind") == "tables") + 1
        last = state.rounds[-1] if state.rounds else None
        # a 晋级签 holder withdrawn before its round was played (the bye unscored: winner_of is
        # None) is named as withdrawn too
        notes: list[str] = withdrawn_notes(state, [(m.sides or [None])[0] if m.bye else winner_of(state, m)
                                                   for m in last.matches]) if last else []
        matches: list[Match] = []
        for t, table in enumerate(spread_tables(players, 3, rng, state.branch_of), start=1):
            matches.append(Match(state.event_id, stage, no, "", t, tuple(table)))
        for b in byes:
            matches.append(Match(state.event_id, stage, no, "", len(matches) + 1, (b,), bye=True,
                                 note="轮空晋级"))
        if byes:
            why = ("人数不是 3 的倍数" if not state.rounds
                   else "晋级人数不是 3 的倍数（按“轮空”办法）")
            notes.append(f"{why}，{shown_list(state, byes)}抽签轮空，直接进入下一轮。")
        if revived:
            last_round = {s for m in last.matches for s in m.sides} if last else set()
            whose = "上一轮负者" if set(lot_pool) <= last_round else "此前各轮到场的负者"
            notes.append(f"{whose} {len(lot_pool)} 人抽签复活 {len(revived)} 人："
                         f"{shown_list(state, revived)}，补足整桌。")
        name = "决赛桌" if final else f"第{k}轮"
        return Round(state.event_id, stage, name, no, tuple(matches), notes=tuple(notes),
                     plan={"kind": "final" if final else "tables", "byes": byes,
                           "revived": revived, "lot_pool": lot_pool})

    # ------------------------------------------------------------------ results

    def placements(self, state: EventState) -> list[Placement]:
        """R2020-D2: final table by place, then the runners-up of the round before the final
        (by the ranking), then everyone else by how far they got and their place there.

        R2011-R1 (the office's decision, handbook 缺席、弃权和退赛): a seat that lost its table
        by not coming (弃权) has no place.  It stands on a vacant place (``Placement.vacant``)
        — a table's last places, as its result ranks an absent seat: the final table's 3rd
        with 丙 弃权, a round-2 table's runner-up when two of its seats were absent (its 三等奖,
        R2020-D2, stays vacant: nobody below moves up).

        Two level 2nd at a table of the round before the final are one place to play off
        (``Placement.settle``) with the places their 加赛 may give them (``Placement.reach``):
        the awards ask for it only when those places bear more than one award (R2020-D2 with
        two round-2 tables and three 三等奖: all three non-finalist runners-up get it, whoever
        wins the 加赛)."""
        tiers, vacant, ties, _ = self._tiers(state, {})
        out = tier_placements(state, tiers, state.rounds, vacant=vacant)
        reach = self._reach(state, ties)
        return [replace(p, settle=True, reach=reach.get(p.entry, ())) if p.tied and p.entry in reach else p
                for p in out]

    def _reach(self, state: EventState, ties: list[tuple[int, list[str]]]) -> dict[str, tuple[int, ...]]:
        """R2020-D2: for each member of a table's open tie for 2nd (``ties``), the places its
        加赛 may give — (best, worst) of the winner, (best, worst) of the loser — over every
        outcome of every open tie (at most one per table of the round before the final: three
        tables, 8 outcomes; only that round's tiers are placed for each).  A place shared by a
        tie of the tiebreak chain counts to its last."""
        from collections import Counter
        from itertools import product

        out: dict[str, tuple[int, ...]] = {}
        if not ties:
            return out
        won: dict[int, list[int]] = {t: [] for t, _ in ties}
        lost: dict[int, list[int]] = {t: [] for t, _ in ties}
        for picks in product(*(members for _, members in ties)):
            pick = {t: w for (t, _), w in zip(ties, picks)}
            tiers, vacant, _, cut = self._tiers(state, pick)
            pl = tier_placements(state, tiers[:cut], state.rounds, vacant=vacant)
            level = Counter(p.rank for p in pl)
            at = {p.entry: (p.rank, p.rank + level[p.rank] - 1) for p in pl}
            for t, members in ties:
                for m in members:
                    (won if m == pick[t] else lost)[t].extend(at.get(m, ()))
        for t, members in ties:
            span = (min(won[t]), max(won[t]), min(lost[t]), max(lost[t])) if won[t] and lost[t] else ()
            out.update({m: span for m in members if span})
        return out

    def _tiers(self, state: EventState, pick: dict[int, str]
               ) -> tuple[list[tuple], set[str], list[tuple[int, list[str]]], int]:
        """:meth:`placements`' tiers, best first — with ``pick`` (table → the winner of its
        open tie for 2nd, a supposed 加赛 for :meth:`_reach`) — the vacant places, the ties
        still open (table, members) and how many tiers reach to the end of the round before
        the final (the tiers an open tie may move)."""
        tiers: list[tuple] = []
        cut = 0
        vacant: set[str] = set()
        rounds = state.rounds
        if rounds and rounds[-1].plan.get("kind") == "final" and rounds[-1].matches:
            m = rounds[-1].matches[0]
            res = state.results.get(m.key)
            if res is not None:
                gone = set(lost_by_absence(state, m))
                places = sorted(zip(m.sides, res.sides),
                                key=lambda x: (x[1].place or 9, -x[1].score, -x[1].points))
                w = settled_winner(state, m)
                if w:
                    tiers.append(("决赛桌第1名", [w]))
                # the others by their place at the final table; two on equal points share a
                # place there, ranked by the final table alone (its points, then a 加赛):
                # a seat must not decide between 2nd and 3rd prize (R2011-D2, R2011-A1)
                by_place: dict[int, list[str]] = {}
                for s, sr in places:
                    if s != w and s not in gone:
                        by_place.setdefault(sr.place or 9, []).append(s)
                for place, ids in by_place.items():
                    # two sharing a place are ranked apart (points, a 加赛): "决赛桌第2名" beside
                    # rank 3 read as a mistake — the places they share are named
                    label = (f"决赛桌第{place}名" if len(ids) == 1 or place == 9
                             else f"决赛桌第{place}–{place + len(ids) - 1}名（同分）")
                    tiers.append((label if place != 9 else "决赛桌", ids, [rounds[-1]]))
                for s, _ in places:         # (the absent seats, as the result ranks them)
                    if s in gone:
                        tiers.append(("决赛桌弃权（取消资格，名次空缺）", [s]))
                        vacant.add(s)
            else:
                tiers.append(("决赛桌", list(m.sides)))
        elif rounds:
            tiers.append(("尚在比赛", sorted(rounds[-1].entries())))
        open_ties: list[tuple[int, list[str]]] = []
        for i in range(len(rounds) - 1, -1, -1):
            r = rounds[i]
            if r.plan.get("kind") == "final":
                continue
            # a table's winner who is in no later round: the table's result was corrected
            # after the next round was published (DRAW_INPUT_CHANGED; a published draw is
            # never redrawn) — placed as far as the results say they got, not below everyone
            later = {s for rr in rounds[i + 1:] for m in rr.matches for s in m.sides}
            before_final = i + 1 < len(rounds) and rounds[i + 1].plan.get("kind") == "final"
            runners, ties, below, _ = self._runners_up(state, r, later, pick) if before_final else (None, [], [], [])
            on_place, extra = _absent_places(state, r)
            for place in (1, 2, 3):
                if place == 2 and runners is not None:
                    tiers.append((f"{r.stage_name}第2名", runners))
                    for table, tie in ties:     # one table's level 2nd: one place, played off
                        # (named by its table: its 加赛 is that table's alone, R2020-D2)
                        tiers.append((f"{r.stage_name}第{table}桌第2名", tie, [r]))
                        open_ties.append((table, tie))
                else:
                    ids = []
                    for m in r.matches:
                        res = state.results.get(m.key)
                        if m.bye or res is None:
                            continue
                        ids += [s for s, sr in zip(m.sides, res.sides) if sr.place == place and (place > 1 or s not in later)
                                and s not in vacant and not _absent(state, m, s)]
                    if place == 1:       # a bye holder in no later round (withdrawn), its bye scored
                        ids += byes_left(state, r, later, unscored=False)
                    if place == 3:
                        ids = below + ids
                    if ids or place > 1:
                        tiers.append((f"{r.stage_name}第{place}名", ids))
                if place == 3:
                    # … and one withdrawn before the round was played (handbook 缺席、弃权和退赛): its
                    # bye not scored, below every seat of the round that came — on a place of its
                    # own, before the vacant places of those who did not come: the office withdrew
                    # it, it lost no table by not coming
                    left = byes_left(state, r, later, unscored=True)
                    if left:
                        tiers.append((f"{r.stage_name}晋级签（已退赛，不晋级）", left))
                for s in on_place.get(place, []):      # its vacant places, after those who came
                    tiers.append((f"{r.stage_name}弃权（取消资格，名次空缺）", [s]))
                    vacant.add(s)
            for s in extra:         # (a table none of whose seats came: its winner's place went on)
                tiers.append((f"{r.stage_name}弃权（取消资格，名次空缺）", [s]))
                vacant.add(s)
            if before_final:
                cut = len(tiers)
        tiers.append(("", sorted(e.id for e in state.entries)))
        return tiers, vacant, open_ties, cut

    def _runners_up(self, state: EventState, r: Round, later: set[str] = frozenset(), pick: dict[int, str] | None = None
                    ) -> tuple[list[str], list[tuple[int, list[str]]], list[str], list[str]]:
        """R2020-D2: the runner-up of each table of ``r`` (the round before the final), whose
        three receive the 三等奖 — one per table, never two of one table and none of another.
        Two level 2nd at one table (equal points there) are ranked by that table alone: its
        points, then their 加赛; still level, they are one place to play off (a tie the
        awards wait for, ``Placement.settle``).  A seat that did not play (弃权) is no
        table's runner-up, and is placed below every seat of the round that was played: a
        table whose two others were absent has no runner-up, and the next in order takes
        the place.  One of two level 2nd revived into the final table (``later``: the entries
        of the rounds after ``r``) is placed there: the other is the table's runner-up alone,
        no tie.  ``pick`` (table → entry): a supposed 加赛 of a table's open tie
        (:meth:`_reach`).  Returns (the runners-up, the ties still open with their table
        numbers, those a table's ranking put below its runner-up, the seats not played)."""
        runners: list[str] = []
        ties: list[tuple[int, list[str]]] = []
        below: list[str] = []
        absent: list[str] = []
        for m in r.matches:
            res = state.results.get(m.key)
            if m.bye or res is None:
                continue
            # (two absentees share place 2: the awards waited for a 加赛 between two who never came)
            absent += [s for i, s in enumerate(m.sides) if not _played(state, m, i) and i < len(res.sides)
                       and res.sides[i].place != 1]
            twos = [s for s, sr in zip(m.sides, res.sides) if sr.place == 2 and s not in absent and s not in later]
            if len(twos) < 2:
                runners += twos
                continue
            rows = ranked(state, twos, [replace(r, matches=(m,))])
            best = [row.entry for row in rows if row.rank == rows[0].rank]
            if pick and pick.get(m.table) in best and len(best) > 1:
                best = [pick[m.table]]
            if len(best) == 1:
                runners += best
                below += [row.entry for row in rows if row.entry not in best]
            else:
                ties.append((m.table, twos))
        return runners, ties, below, absent


def _absent(state: EventState, m: Match, entry: str) -> bool:
    """Whether ``entry`` lost table ``m`` by not coming (R2011-R1)."""
    return entry in lost_by_absence(state, m)


def _absent_places(state: EventState, r: Round) -> tuple[dict[int, list[str]], list[str]]:
    """R2011-R1: where the absent seats of round ``r`` stand — (table place → the absentees
    standing on that place of their tables, the absentees of a table none of whose seats
    came beyond its 2nd and 3rd).  A table's absent seats take its last places, in the order
    its result ranks them (one absent: 3rd; two: 2nd and 3rd); its 1st place is the winner's
    who went on (a table none came to: the player revived in its stead)."""
    on: dict[int, list[str]] = {}
    extra: list[str] = []
    for m in r.matches:
        res = state.results.get(m.key)
        gone = lost_by_absence(state, m)
        if m.bye or res is None or not gone:
            continue
        seats = sorted((i for i, s in enumerate(m.sides) if s in gone and i < len(res.sides)),
                       key=lambda i: (res.sides[i].place or 9, i))
        free = [p for p in range(len(m.sides) - len(seats) + 1, len(m.sides) + 1) if p > 1]
        for k, i in enumerate(seats):
            if k < len(seats) - len(free):
                extra.append(m.sides[i])
            else:
                on.setdefault(free[k - (len(seats) - len(free))], []).append(m.sides[i])
    return on, extra


def _played(state: EventState, m: Match, seat: int) -> bool:
    """Whether seat ``seat`` of ``m`` played (not absent, not a forfeit loss)."""
    res = state.results.get(m.key)
    if res is None or seat >= len(res.sides):
        return True
    return res.sides[seat].outcome not in (Outcome.ABSENT, Outcome.FORFEIT_LOSS)


FORMATS.register("tables_of_three", "三人桌淘汰赛", "三人桌", "斗地主淘汰赛")(TablesOfThree())
