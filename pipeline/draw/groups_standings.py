"""Groups by lot, check-in re-forming, then pairing by group standing (R2016-F1/F2/F3).

R2016-F1: pairs are split into ``groups`` (default 4) groups by lot, each branch spread
over the groups; the lot also gives each group's draw order.

R2016-F2 (applied when round 1 is drawn, from ``state.absent``): entries whose players
are all absent are removed; players left without their partner are re-formed into new
pairs within their group, by lot.  Single players left over in several groups are
paired across groups by lot, and the new pair joins the group with the fewest tables;
a player left alone at the end cannot play (noted).

Then the odd pair ("if that leaves one odd pair in a group, it is drawn into the group
with the fewest tables"; the seed: 如重新组合后产生单对选手，则现场抽签进入桌数少的小组).
The rule is about what the check-in *leaves*, so a group counts as odd when

* the check-in left it odd: drawn even, odd now; or
* the check-in left it a single pair, however it was drawn (a group drawn with 3 pairs
  and left with 1): one pair cannot play — it would sit out every round with a bye and
  then take the group's first place without a game.

Such a group sends one of its own pairs, drawn by lot, into the group with the fewest
tables (pairs // 2) among the other groups; on equal tables a group with an odd number
of pairs is chosen first, so both become even and nobody sits out, then one by lot.  The
single pairs move first (their groups in an order drawn by lot), then the groups left
odd (in an order drawn by lot), so a single pair evens out an odd group rather than an
odd group's pair landing beside it as a group of two; a group evened out by a pair
moving in sends none.  The pair joins at the end of its new group's draw order; a group
left odd by a pair moving in plays with a bye each round.  A group drawn odd and left odd
with 3 pairs or more (13 pairs in 4 groups, nobody absent) keeps its bye and sends no
pair: evening it out too once left a group of two pairs, who then met in every round.
Only when the whole event is down to one pair has that pair nowhere to go.

Re-formed pairs are recorded in ``plan["merged"]`` as
``{"id": "<entry a>+<entry b>", "from": [entry a, entry b], "players": [Person.key, …],
"group": label}`` — the runner creates the Entry objects (id exactly as given; players
in that order).  ``plan["removed"]`` lists removed entry ids, ``plan["dropped"]`` the
Person.key of players left alone, ``plan["moved"]`` ``{"id", "from", "to"}``.

R2016-F3: round 1 pairs by draw order (1 v 2, 3 v 4); rounds 2..``rounds`` (default 3)
pair by current group standing: 1 v 2 on table 1, 3 v 4 on table 2 …, avoiding
rematches where possible (option ``avoid_rematch``, default true; each avoided rematch
is noted).  Odd count: the bye goes to the lowest-ranked entry without a bye (at most one
each), one that did not turn up last round only when no other can take it without a rematch
(:meth:`GroupsStandings._bye`).  Table
numbers restart at 1 in each group (the group label tells them apart); a bye takes
the number after the group's last table.

Plan of every round: ``{"kind": "group", "groups": {label: [entry ids]}, "round_no": k,
"of": rounds}`` (round 1 also holds the check-in lists above).
"""
from __future__ import annotations

import random
from typing import Any

from ..model import Match, Round
from . import FORMATS
from .base import EventState, Placement
from .common import (GROUP_PLAYOFFS, bye_candidates, bye_counts, check_bool, check_int, check_known, deal_groups, first_problem,
                     group_label, group_name, next_round_no, no_shows, opponents, pair_avoiding,
                     ranked, rematch_notes, rounds_of, shown, shown_list, tier_placements, withdrawn_notes)

STAGE = "group"       # (common.GROUP_PLAYOFFS: the 加赛 that rank a group)


class GroupsStandings:
    """R2016-F1/F2/F3: groups by lot, check-in re-forming, standings pairing."""

    name = "groups_standings"
    title = "分组积分编排赛"
    seats = 2
    #: R2016-F3: a group's bye counts its points in the group's standings (累计积分): the notice
    #: says what it scores (:func:`pipeline.draw.byes_scored`)
    BYES_SCORED = True
    #: each group ranked apart when the awards are per group (各组前N名, EventState.places_by_group):
    #: the only format an award scheme by group (AwardScheme.by_group) may be given to
    ranks_each_group = True
    OPTIONS = ("groups", "rounds", "avoid_rematch")
    #: the options as the spec reference documents them (pipeline.specdoc)
    #: the options the first draw fixes (the groups, and the rounds its plan records as
    #: ``of``: :meth:`next_round`): an edit after it does not apply
    SET_AT_FIRST_DRAW = ("groups", "rounds")
    OPTION_DOCS = {
        "groups": "小组数（默认 4），抽签分组，同一单位尽量分在不同组",
        "rounds": "每组比赛轮数（默认 3）：第 1 轮按抽签顺序配对，以后各轮按组内名次就近配对；轮数在第 1 轮抽签时确定",
        "avoid_rematch": "按名次配对时尽量避免重复对阵（默认 true；改为 false 则只按名次配对）",
    }

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None, or a message naming the bad option."""
        return first_problem(check_known(options, self.OPTIONS, self.name),
                             check_int(options, "groups", 1, 64),
                             check_int(options, "rounds", 1, 30),
                             check_bool(options, "avoid_rematch"))

    def stage_kind(self, rounds: list[Round]) -> tuple[str, str]:
        """(kind, label) of a stage of this format's rounds on the event page
        (:func:`pipeline.render.site_vm.stage_kind`): the format says what it drew, the
        page does not guess it from the stage's name (R2016-F1: groups paired by standing)."""
        return "groups", "积分编排赛"

    def describe(self, options: dict[str, Any], game: Any = None) -> str:
        """Chinese paragraph for the notice."""
        g, r = options.get("groups", 4), options.get("rounds", 3)
        avoid = "，尽量避免重复对阵" if options.get("avoid_rematch", True) else ""
        return (f"根据报名情况，各队抽签分为 {g} 个小组进行比赛。比赛当天因选手未到而产生的单人，"
                f"在本组内重新组合；重新组合后产生单对选手的，抽签进入桌数少的小组。"
                f"首轮按抽签顺序配对（1、2 号一桌，3、4 号一桌……），之后各轮按本组积分排名配对，"
                f"第 1、2 名在一号桌，第 3、4 名在二号桌，以此类推{avoid}；"
                f"小组队数为奇数时，排名最后且未轮空过的一队轮空。共赛 {r} 轮，累计积分排名。")

    # ------------------------------------------------------------------ drawing

    def next_round(self, state: EventState, rng: random.Random) -> Round | None:
        """R2016-F3: round 1 by draw order (after check-in), later rounds by standing."""
        done = rounds_of(state, "group")
        total = state.options.get("rounds", 3)
        if not done:
            if len(state.entries) < 2:
                return None
            return self._first_round(state, rng, total)
        total = done[0].plan["of"]
        if len(done) >= total:
            return None
        groups = {g: list(m) for g, m in done[0].plan["groups"].items()}
        return self._standing_round(state, groups, len(done) + 1, total)

    def check_in(self, state: EventState, rng: random.Random
                 ) -> tuple[dict[str, list[str]], dict[str, Any], list[str], dict[str, str]]:
        """R2016-F1/F2: groups by lot, then check-in.  Returns (groups, plan extras, notes,
        new pair id → player names)."""
        groups = self.lot_groups(state, rng)
        # each group's pairs as drawn — as the 签到表 shows them: a pair withdrawn after the lot
        # was shown is out of its group there (a group so left odd keeps its bye, R2016-F3)
        lot = {label: len(m) for label, m in groups.items()}
        notes: list[str] = []
        removed: list[str] = []
        merged: list[dict[str, Any]] = []
        moved: list[dict[str, str]] = []
        dropped: list[str] = []
        entries = {e.id: e for e in state.entries}
        leftovers: list[tuple[str, str, str]] = []        # (group, entry id, person key)
        labels: dict[str, str] = {}                        # new pair id → player names

        def new_pair(parts: list[tuple[str, str]], group: str) -> str:
            froms = [e for e, _ in parts]
            new_id = "+".join(froms)
            merged.append({"id": new_id, "from": froms, "players": [p for _, p in parts], "group": group})
            names = [self._person(entries, e, p) for e, p in parts]
            labels[new_id] = "/".join(names)
            notes.append(f"{group_name(group)}：{'、'.join(names)}的搭档未到，重新组合为一对（{labels[new_id]}）。")
            return new_id

        for label, members in groups.items():
            keep, singles = [], []
            for e in members:
                entry = entries[e]
                present = [p.key for p in entry.players if p.key not in state.absent]
                if not present:
                    removed.append(e)
                    notes.append(f"{group_name(label)}{shown(state, e)}全部未到，取消比赛资格。")
                elif len(present) < len(entry.players):
                    singles.extend((e, p) for p in present)
                else:
                    keep.append(e)
            rng.shuffle(singles)
            size = max((len(entries[e].players) for e in members), default=2)
            while len(singles) >= size:
                keep.append(new_pair(singles[:size], label))
                singles = singles[size:]
            leftovers.extend((label, e, p) for e, p in singles)
            groups[label] = keep
        rng.shuffle(leftovers)
        size = max((len(e.players) for e in state.entries), default=2)
        while len(leftovers) >= size:
            chunk, leftovers = leftovers[:size], leftovers[size:]
            fewest = min(len(m) // 2 for m in groups.values())
            target = rng.choice(sorted(g for g, m in groups.items() if len(m) // 2 == fewest))
            groups[target].append(new_pair([(e, p) for _, e, p in chunk], target))
            notes.append(f"{labels[groups[target][-1]]} 来自不同小组，抽签进入桌数最少的{group_name(target)}。")
        for _, e, p in leftovers:
            dropped.append(p)
            notes.append(f"{self._person(entries, e, p)}（{shown(state, e)}）搭档未到且无人可组合，本次不能参赛。")
        # R2016-F2 (“如重新组合后产生单对选手，则现场抽签进入桌数少的小组”): a group the check-in
        # left odd (drawn even, odd now) or left a single pair (drawn any way: one pair cannot
        # play) sends one of its own pairs, by lot, into the group with the fewest tables
        # (pairs // 2) among the other groups.  Equal tables: a group with an odd pair first
        # (both groups then play without a bye), then by lot.  Single pairs move first, then
        # the groups left odd, each in an order drawn by lot; one evened out by a pair moving
        # in sends none.  A group drawn odd and left with 3 pairs or more keeps its bye
        # (R2016-F3): moving its pair only for evenness left a group of two pairs to meet
        # each other every round.
        lone = [g for g in sorted(groups) if len(groups[g]) == 1]
        left = [g for g in sorted(groups) if len(groups[g]) % 2 and lot[g] % 2 == 0 and g not in lone]
        rng.shuffle(lone)       # (no single pair: no lot drawn, the draw is as it was)
        rng.shuffle(left)
        for src in lone + left:
            others = sorted(g for g, m in groups.items() if m and g != src)
            if not len(groups[src]) % 2 or not others:
                continue
            fewest = min(len(groups[g]) // 2 for g in others)
            ties = [g for g in others if len(groups[g]) // 2 == fewest]
            dst = rng.choice([g for g in ties if len(groups[g]) % 2] or ties)
            single = len(groups[src]) == 1
            e = rng.choice(sorted(groups[src]))
            groups[src].remove(e)
            groups[dst].append(e)
            moved.append({"id": e, "from": src, "to": dst})
            notes.append(f"{group_name(src)}只剩{shown(state, e, labels)}一对，无法比赛，抽签进入其余小组中桌数最少的{group_name(dst)}。"
                         if single else
                         f"{group_name(src)}队数为单数，抽签由{shown(state, e, labels)}进入其余小组中桌数最少的{group_name(dst)}。")
        groups = {g: m for g, m in groups.items() if m}
        if notes and state.lot_seed:
            # reproducibility: the groups were dealt with the lot's seed, not the round's
            notes.insert(0, f"分组按报名名单抽签，与签到无关（分组种子 {state.lot_seed}，"
                            + ("即签到表公布分组时报名名单的种子；之后退赛的队从所在小组中去掉）"
                               if state.lot_fixed else "即无人缺席时第1轮的种子）")
                            + "；签到后的重新组合等抽签用本轮种子。")
        extras = {"merged": merged, "removed": removed, "moved": moved, "dropped": dropped}
        return groups, extras, notes, labels

    @staticmethod
    def dealt_groups(state: EventState, rng: random.Random | None = None) -> dict[str, list[str]]:
        """R2016-F1: the groups as the branch chairs' lot dealt them — label → entry ids in
        draw order.  ``state.lot_fixed`` when the runner kept the lot a 签到表 showed (pairs
        withdrawn since still in it); else drawn from the entries alone (``state.lot_seed``,
        the seed of round 1 with no one absent); without either the round's ``rng`` deals."""
        if state.lot_fixed:
            return {label: list(m) for label, m in state.lot_fixed.items()}
        ids = sorted(e.id for e in state.entries)
        g = max(1, min(state.options.get("groups", 4), len(ids) // 2))
        lot_rng = random.Random(int(state.lot_seed, 16)) if state.lot_seed else rng
        assert lot_rng is not None, "the groups' lot needs a seed or a random generator"
        return {group_label(i): m for i, m in enumerate(deal_groups(ids, g, lot_rng, state.branch_of))}

    @classmethod
    def lot_groups(cls, state: EventState, rng: random.Random | None = None) -> dict[str, list[str]]:
        """R2016-F1: the groups by the branch chairs' lot — label → entry ids in draw order —
        drawn before the event from the entries alone: who turns up changes no group, so the
        签到表 made after the deadline shows them (:func:`pipeline.run._checkin_form`).  Once
        shown they stay (``state.lot_fixed``, :meth:`dealt_groups`): a pair no longer entered
        (withdrawn) drops out of its group, and an entry the lot did not deal (a corrected
        form's new pair) joins the group with the fewest pairs (ties: the first by label) at
        the end of its draw order.  The check-in's own lots (re-forming, moving) use the
        round's rng (:meth:`check_in`)."""
        dealt = cls.dealt_groups(state, rng)
        if not state.lot_fixed:
            return {label: list(m) for label, m in dealt.items()}
        now = [e.id for e in state.entries]
        known = {e for m in dealt.values() for e in m}
        here = set(now)
        groups = {label: [e for e in m if e in here] for label, m in dealt.items()}
        for e in sorted(i for i in now if i not in known):
            target = min(sorted(groups), key=lambda g: len(groups[g]))
            groups[target].append(e)
        return groups

    @staticmethod
    def _person(entries: dict, entry_id: str, key: str) -> str:
        e = entries.get(entry_id)
        p = next((p for p in e.players if p.key == key), None) if e else None
        return p.shown if p else key

    def _first_round(self, state: EventState, rng: random.Random, total: int) -> Round:
        groups, extras, notes, labels = self.check_in(state, rng)
        for g, members in groups.items():
            notes.append(f"{group_name(g)}抽签顺序：{shown_list(state, members, labels)}。")
        matches = []
        for g, members in groups.items():
            order = list(members)
            bye = order.pop() if len(order) % 2 else None
            pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
            matches += self._matches(state, g, pairs, bye, 1)
            if bye:
                notes.append(f"{group_name(g)}队数为奇数，抽签顺序最后的{shown(state, bye, labels)}首轮轮空。")
        no = next_round_no(state)
        return Round(state.event_id, STAGE, "分组赛第1轮", no, tuple(matches), notes=tuple(notes),
                     plan={"kind": "group", "groups": groups, "round_no": 1, "of": total, **extras})

    def _standing_round(self, state: EventState, groups: dict[str, list[str]], k: int, total: int) -> Round:
        done = rounds_of(state, "group")
        met = opponents(done)
        byes = bye_counts(done)
        avoid = state.options.get("avoid_rematch", True)
        matches, notes = [], withdrawn_notes(state)
        for g, members in groups.items():
            order = [r.entry for r in ranked(state, members, done) if r.entry not in state.withdrawn]
            bye = None
            if len(order) % 2:
                bye, said = self._bye(state, order, byes, met, done, avoid)
                order.remove(bye)
                notes.append(f"{group_name(g)}队数为奇数，{said}。")
            pairs = pair_avoiding(order, met, avoid)
            notes += rematch_notes(state, order, pairs, done, prefix=f"{group_name(g)}：")
            matches += self._matches(state, g, pairs, bye, k)
        return Round(state.event_id, STAGE, f"分组赛第{k}轮", next_round_no(state), tuple(matches),
                     notes=tuple(notes), plan={"kind": "group", "groups": groups, "round_no": k, "of": total})

    @staticmethod
    def _bye(state: EventState, order: list[str], byes: Any, met: dict[str, set[str]], done: list[Round],
             avoid: bool) -> tuple[str, str]:
        """(the bye, the draw sheet's words for it) for a group with an odd count (R2016-F3):
        the lowest-ranked pair with the fewest byes (each at most one), one that did not turn up
        last round (上一轮弃权或缺席) only when no other with the fewest byes can take it without a
        rematch (``avoid``: R2016-F3 尽量不重复相遇) — the no-show rule yields to the limits
        (:func:`~pipeline.draw.common.bye_candidates`)."""
        away = no_shows(state, done[-1] if done else None)
        cands = bye_candidates(order, byes, away)
        bye = cands[0]
        if avoid:
            bye = next((c for c in cands
                        if all(b not in met.get(a, ()) for a, b in pair_avoiding([e for e in order if e != c], met))),
                       cands[0])
        group = "未轮空过" if byes[bye] == 0 else "轮空次数最少"
        if bye not in away:
            lower = [e for e in order[order.index(bye) + 1:] if byes[e] == byes[bye]]
            skipped = [e for e in lower if e in away]
            tried = [e for e in lower if e not in away]
            why = ([f"{shown_list(state, skipped)}上一轮弃权或缺席，不安排轮空"] if skipped else []) + (
                [f"{shown_list(state, tried)}轮空则无法避免重复对阵"] if tried else [])
            return bye, (f"{'' if tried else '排名最后且'}{group}的{shown(state, bye)}本轮轮空"
                         + (f"（{'；'.join(why)}）" if why else ""))
        first = cands[:cands.index(bye)]
        cause = ([f"{group}的队上一轮都弃权或缺席"] if not any(e not in away for e in cands) else []) + (
            [f"{shown_list(state, first)}轮空则无法避免重复对阵"] if first else [])
        return bye, (f"{group}的{shown(state, bye)}本轮轮空（{shown(state, bye)}虽上一轮弃权或缺席，但"
                     + "，".join(cause) + "）")

    def _matches(self, state: EventState, group: str, pairs, bye, k: int) -> list[Match]:
        no = next_round_no(state)
        out = [Match(state.event_id, STAGE, no, group, t, (a, b))
               for t, (a, b) in enumerate(pairs, start=1)]
        if bye:
            out.append(Match(state.event_id, STAGE, no, group, len(out) + 1, (bye,), bye=True))
        return out

    # ------------------------------------------------------------------ results

    def placements(self, state: EventState) -> list[Placement]:
        """R2016-F3/A1: each group ranked by cumulative score (Placement.group set) when the
        awards are per group (各组前N名).  Awards over the whole event (名次奖, 前N名) place
        the groups' 1st first, then their 2nd …, each tier ranked across the groups by the
        ranking (and the final places' 加赛): the group winners were ordered by entry id,
        and a 加赛 was asked of entries of other groups who were tied with no one."""
        done = rounds_of(state, "group")
        if not done:
            return []
        groups = done[0].plan["groups"]
        if state.places_by_group:
            out: list[Placement] = []
            for g, members in groups.items():
                out += tier_placements(state, [(group_name(g), members)], done, group=g)
            return out
        by_place: dict[int, list[str]] = {}
        for members in groups.values():
            # each group's own table (the final places' 加赛 orders a tier, not a group)
            for r in ranked(state, members, done, stages=GROUP_PLAYOFFS):
                by_place.setdefault(r.rank, []).append(r.entry)
        return tier_placements(state, [(f"各组第{k}名", ids) for k, ids in sorted(by_place.items())], done)


FORMATS.register("groups_standings", "分组积分编排赛", "分组积分赛", "分组积分编排")(GroupsStandings())
