"""Groups by lot with a round robin in each, then a knockout (R2011-F1, R2011-F2).

Group stage: entries are drawn into groups (option ``groups``, or ``group_size``; by
default a power of two of groups of about 5, so the knockout needs no byes), each
branch spread over the groups; Berger round robin inside every group, all groups
playing their k-th Berger round in the same published round.  Tables are numbered
1..n across the groups of a round; bye "tables" come after the real ones.

Knockout: the top ``advance`` of each group.  Without the option, :func:`default_advance`:
the group winners, but the top 2 of each group when there are only 2 or 3 groups — R2011-F2
has the losers (of the semi-finals) play for third place, and 2 group winners would play
only a final (third place then went to the better runner-up on raw points, from groups of
unequal size).  The advance in force is recorded in the group rounds' plans when the
groups are drawn (a group stage published by older code, without it, keeps the old
default 1), so a new default never changes an event already under way.  With an explicit
``advance`` that sends only 2 (e.g. ``advance: 1`` and 2 groups) there is no semi-final
and no third-place match: the final's loser is 2nd and the other entries follow by group
place, the same places of different groups ordered by their group points and tiebreaks.

Final places below the knockout's (最终名次, :meth:`GroupsKnockout.placements`): a tier of
entries from groups of different sizes (the 小组第2名 of groups of 6 and of 5, or one
knockout round's losers) is ordered by the group round robin's 得分率 first — points ÷ the
games the group gives each player (its size − 1), exact fractions — then by the event's
tiebreak chain; a 6-player group's 2nd (7 points, 5 games) was placed above a 5-player
group's (6 points, 4 games and a 0-point rest) on raw points.  Groups of one size: by the
chain alone, as before.  The rules are silent; the handbook (最终名次) says so.

A tie for an advancing place waits for a 加赛 (raises :class:`PlayoffWaiting`); a
:class:`~pipeline.model.Playoff` for that group (stage ``"group"``) gives the order.
Qualifiers are drawn into two halves by lot whose sizes differ by at most one (so the
byes, when the count is not a power of two, are shared between the halves and drawn by
lot); one group's qualifiers alternate halves so they meet as late as possible, and the
group winners are shared between the halves.  With ``advance`` of 3 or more a half can
hold two qualifiers of one group: when the lot pairs them in the first knockout round and the
half allows otherwise, the half is rearranged (:func:`_apart`: the byes to the groups with
the most qualifiers left, each pair one qualifier of the largest group left with one of the
next), and the draw sheet says so — they meet as late as the half allows.  The two semifinal losers play for third
place (option ``third_place``, default true) in the same round as the final (that match
has group ``"三四名"``).

R2011-R1 (later than 15 minutes is a forfeit; the office's decision where the rules are
silent, handbook 缺席、弃权和退赛): a knockout match both sides forfeited sends nobody on —
the opponent in the next match goes through without playing (a walkover: a one-sided match
noted :data:`~pipeline.model.WALKOVER`, shown like a bye but no bye), up to the final; the
semi-finals' losers who are left play for third (a lone one by walkover), and the event
completes.  One who lost a knockout match by not coming has no place: the place is vacant
(:meth:`GroupsKnockout._ko_tiers`, ``Placement.vacant``).

Plans: group rounds ``{"kind": "group", "groups": {label: [Berger order]}, "group_round": k,
"of": total}``; knockout rounds ``{"kind": "ko", "bracket": [[a, b] | [a], …], "final": bool,
"third": [a, b] | None}`` — ``bracket`` lists the pairings in bracket order.
"""
from __future__ import annotations

import dataclasses
import math
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fractions import Fraction

from ..model import WALKOVER, Match, Round
from . import FORMATS
from .base import EventState, Placement
from .common import (GROUP_PLAYOFFS, PlayoffWaiting, berger_pairs, berger_round_count, byes_left, check_bool,
                     check_int, counted, check_known, deal_groups, first_balance, first_problem, group_label,
                     group_name, lost_by_absence, next_round_no, orient, ranked, rounds_of, settled_winner, shown,
                     shown_list, tier_placements, winner_of, winners_of, withdrawn_notes)

GROUP_STAGE = "group"       # (common.GROUP_PLAYOFFS: the 加赛 that rank a group)
#: the third-place match's group id (its result sheet's 组别 key; no group: :meth:`GroupsKnockout.match_title`)
THIRD_PLACE = "三四名"


def default_group_count(n: int) -> int:
    """A power of two g ≤ n/3 whose group size n/g is closest to 5 (1 for small counts).

    >>> [default_group_count(n) for n in (2, 8, 12, 22, 40, 500)]
    [1, 2, 2, 4, 8, 128]
    """
    best, g = 1, 1
    while g * 2 <= n / 3:
        g *= 2
        if abs(n / g - 5) < abs(n / best - 5):
            best = g
    return best


def default_advance(sizes: list[int]) -> int:
    """R2011-F1/F2: how many of each group advance, for groups of ``sizes``, when the spec
    does not say — the group winner (R2011-F1), unless that leaves fewer than 4 qualifiers:
    then the top 2 of each group, so the knockout has semi-finals whose losers play for
    third place (R2011-F2).  Not from a group of 2, which would send everyone on (its
    winner alone goes).  One group is a round robin that places everyone itself (its
    winner alone advances, and the event ends there).

    >>> [default_advance(s) for s in ([5], [4, 5], [3, 3, 4], [4, 4, 4, 4], [2, 2, 2])]
    [1, 2, 2, 1, 1]
    """
    return 2 if len(sizes) in (2, 3) and min(sizes) >= 3 else 1


def group_advance(group_plan: dict[str, Any], options: dict[str, Any]) -> int:
    """The advance in force for an event whose first group round has ``group_plan``: as
    recorded when the groups were drawn, else (a plan published by older code) the
    spec's option or the default of that time, 1.

    >>> group_advance({"advance": 2}, {}), group_advance({}, {}), group_advance({}, {"advance": 3})
    (2, 1, 3)
    """
    if "advance" in group_plan:
        return int(group_plan["advance"])
    return int(options.get("advance", 1))


def ko_stage_name(slots: int) -> str:
    """决赛 / 半决赛 / 四分之一决赛 / 淘汰赛（16进8）."""
    return {2: "决赛", 4: "半决赛", 8: "四分之一决赛"}.get(slots, f"淘汰赛（{slots}进{slots // 2}）")


class GroupsKnockout:
    """R2011-F1/F2: group round robins, group winners to a two-half knockout."""

    name = "groups_knockout"
    title = "分组循环赛加淘汰赛"
    seats = 2
    OPTIONS = ("groups", "group_size", "advance", "third_place")
    #: the options as the spec reference documents them (pipeline.specdoc)
    #: the options the first draw fixes (the groups, and how many of each advance: recorded
    #: in its plan, :func:`group_advance`): an edit after it does not apply
    SET_AT_FIRST_DRAW = ("groups", "group_size", "advance")
    OPTION_DOCS = {
        "groups": "小组数（与 group_size 二选一）。不填时组数取 1、2、4、8……中使每组人数最接近 5 人者"
                  "（每组一般 3 至 7 人；不足 7 人时为一个组）",
        "group_size": "每组人数（约数，与 groups 二选一）",
        "advance": "每组出线人数。不填时每组第一名出线，但只有 2 或 3 个小组（每组至少 3 人）时每组前两名出线，"
                   "使淘汰赛有半决赛和三四名决赛（两组时 A1 对 B2、B1 对 A2）；只有一个小组时即为单循环赛。"
                   "填写后照填写的执行：出线者只有两人时直接决赛，不设三四名决赛",
        "third_place": "半决赛负者进行三四名决赛（默认 true）",
    }
    #: an odd group's round off in its round robin is a rest, worth nothing (:func:`pipeline.draw.bye_scores`)
    REST_BYES = frozenset({"group"})

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None, or a message naming the bad option."""
        p = first_problem(check_known(options, self.OPTIONS, self.name),
                          check_int(options, "groups", 1, 256),
                          check_int(options, "group_size", 2, 64),
                          check_int(options, "advance", 1, 16),
                          check_bool(options, "third_place"))
        if p:
            return p
        if options.get("groups") and options.get("group_size"):
            return ("options groups and group_size exclude each other / "
                    "选项 groups（组数）与 group_size（每组人数）只能填写一个，请删除其中一个")
        return None

    def stage_kind(self, rounds: list[Round]) -> tuple[str, str]:
        """(kind, label) of a stage of this format's rounds on the event page
        (:func:`pipeline.render.site_vm.stage_kind`): the format says what it drew, the
        page does not guess it from the stage's name (R2011-F1/F2): the groups' round robins, then the knockout."""
        plan = rounds[0].plan if isinstance(rounds[0].plan, dict) else {}
        if plan.get("kind") == "group":
            return "groups", "小组循环赛"
        return "knockout", "淘汰赛"

    def match_title(self, rnd: Round, m: Match) -> str:
        """R2011-F2: which match of a knockout round ``m`` is — 决赛, 半决赛 …, or the
        third-place match (group id ``三四名``, the key its result sheet reads, no group):
        its draw sheet, cards and event page say it; "" in a group round."""
        plan = rnd.plan if isinstance(rnd.plan, dict) else {}
        if plan.get("kind") != "ko" or m.bye:
            return ""
        if m.group == THIRD_PLACE:
            return "三四名决赛"
        return ko_stage_name(2 * len(plan.get("bracket") or [[]]))

    def describe(self, options: dict[str, Any], game: Any = None) -> str:
        """Chinese paragraph for the notice: what is drawn for these options (R2011-F1/F2)."""
        if options.get("groups"):
            how = f"抽签分为 {options['groups']} 个小组"
        elif options.get("group_size"):
            how = f"抽签分组，每组约 {options['group_size']} 人"
        else:
            # default_group_count: a power of two of groups, each as near 5 as it can be
            how = "按报名人数抽签分组（每组一般 3 至 7 人；不足 7 人时为一个组）"
        third_on = options.get("third_place", True)
        third = "，半决赛负者进行三四名决赛" if third_on else ""
        adv = options.get("advance")
        if adv is None:
            who = ("每组第一名出线；只分两个或三个小组时每组前两名出线，使淘汰赛有半决赛"
                   "（两个小组时 A 组第一名对 B 组第二名、B 组第一名对 A 组第二名）")
            single = "只有一个小组时即为单循环赛，按小组名次排定名次。"
        else:
            who = "每组第一名出线" if adv == 1 else f"每组前 {adv} 名出线"
            single = ""
            if not (options.get("groups") and options["groups"] * adv >= 3):
                # an explicit advance is kept even when it sends only two (R2011-F2 then has
                # no semi-final): say what third place is
                single = ("出线者只有两人时直接进行决赛，不设三四名决赛，决赛负者为第二名，"
                          "其余名次按小组名次排列，不同小组的同一名次按小组积分及破同分规则排列。")
        return (f"第一阶段{how}，组内单循环（贝格尔编排）；"
                f"{who}，出线名次积分相同时加赛一局决定。"
                f"第二阶段淘汰赛：出线者抽签分入上、下两个半区（同组出线者分入不同半区），"
                f"逐轮淘汰，两个半区的胜者进行决赛{third}。{single}")

    # ------------------------------------------------------------------ drawing

    def next_round(self, state: EventState, rng: random.Random) -> Round | None:
        """R2011-F1/F2: next group round, or the next knockout round, or None when done."""
        grp = rounds_of(state, "group")
        if not grp:
            if len(state.entries) < 2:
                return None
            return self._first_group_round(state, rng)
        plan = grp[0].plan
        groups = {g: list(m) for g, m in plan["groups"].items()}
        if len(grp) < plan["of"]:
            return self._group_round(state, groups, len(grp) + 1, plan["of"], plan.get("advance"))
        ko = rounds_of(state, "ko")
        if not ko:
            qual = self.qualifiers(state)
            if sum(len(a) for _, a in qual) < 2:     # one group may send two (option advance)
                return None
            return self._first_ko_round(state, qual, rng)
        last = ko[-1].plan
        if last.get("final"):
            winners_of(state, ko[-1].matches)       # a drawn final (or 三四名) waits for its 加赛
            return None
        rnd = ko[-1]
        winners_of(state, [m for m in rnd.matches if not m.bye])    # every drawn table's 加赛 at once
        winners = [self._winner_of_slot(state, rnd, slot) for slot in last["bracket"]]
        if all(w is None for w in winners):
            return None         # every match of the round forfeited by both sides: nobody is left
        # R2011-F2: each slot's winner stays in its place, so the halves meet only in the
        # final.  R2011-R1: a slot whose match both sides forfeited has no winner: the opponent
        # in the next match goes through without playing (a walkover) — up to the final, and
        # the semi-finals' losers left still play for third (the event ended after a semi-final
        # forfeited by both, without a final, and third place went to an absent player)
        bracket = _collapse(_next_slots(winners))
        gone: list[str] = []
        if len(bracket) > 1:
            # a winner the office withdrew leaves its slot empty (its neighbour walks over) — but
            # not from the final: the two finalists are known, and one who does not come
            # forfeits it, while the losers still play for third
            gone = [w for w in winners if w in state.withdrawn]
            kept = [None if w in state.withdrawn else w for w in winners]
            if sum(w is not None for w in kept) < 2:
                gone, kept = [], winners
            bracket = _collapse(_next_slots(kept))
        third = None
        if len(bracket) == 1 and state.options.get("third_place", True):
            third = self._third_place(state, rnd, ko[0] is rnd)
        why = self._walkover_notes(state, rnd, bracket, kept if gone else winners)
        if third and len(third) == 1:
            why[THIRD_PLACE] = self._third_place_note(state, rnd, third[0])
        r = self._ko_round(state, bracket, third, rng, why)
        # with a 晋级签 holder withdrawn before its round was played (the bye unscored: no winner)
        named = gone + [m.sides[0] for m in rnd.matches if m.bye and m.sides and m.sides[0] in state.withdrawn
                        and m.sides[0] not in gone and winner_of(state, m) is None]
        return dataclasses.replace(r, notes=tuple(withdrawn_notes(state, named)) + r.notes) if named else r

    @staticmethod
    def _third_place(state: EventState, rnd: Round, first: bool) -> list[str] | None:
        """R2011-F2: who plays for third after the semi-final round ``rnd`` (the losers play for
        third place) — R2011-R1: the losers left, i.e. not one who lost by not coming (取消资格),
        nor one the office withdrew: two play the match, a lone one takes it by walkover.  None
        when the round is no semi-final (its level was skipped: every match feeding it forfeited,
        so places 3 and 4 are vacant), or a first knockout round of three qualifiers (a bye
        drawn by lot: the one semi-final's loser is third, as the option ``advance`` says)."""
        bracket = rnd.plan.get("bracket") or []
        if len(bracket) != 2 or (first and any(len(slot) < 2 for slot in bracket)):
            return None
        losers = [s for m in rnd.matches if not m.bye for w in [winner_of(state, m)]
                  for s in m.sides if s != w and s not in lost_by_absence(state, m)]
        left = [x for x in losers if x not in state.withdrawn]
        return left or None

    def _walkover_notes(self, state: EventState, rnd: Round, bracket: list[list[str]],
                        winners: list[str | None]) -> dict[str, str]:
        """Each walkover of the round after ``rnd`` (a slot of one entry, R2011-R1): why its
        opponent is missing — the neighbouring match both sides forfeited (named), the office's
        withdrawal of its winner, or (levels merged) every match of the other side forfeited."""
        slots = rnd.plan.get("bracket") or []
        out: dict[str, str] = {}
        for new in bracket:
            if len(new) != 1:
                continue
            x = new[0]
            j = next((i for i, slot in enumerate(slots) if x in slot), None)
            k = j ^ 1 if j is not None else len(slots)
            m = next((m for m in rnd.matches if not m.bye and k < len(slots) and set(m.sides) == set(slots[k])), None)
            if m is not None and len(lost_by_absence(state, m)) == len(m.sides):
                out[x] = f"{self.match_title(rnd, m) or rnd.stage_name}（{' 对 '.join(shown(state, e) for e in m.sides)}）双方均弃权或缺席"
            elif k < len(winners) and winners[k] in state.withdrawn:
                out[x] = f"{shown(state, winners[k])}已退赛"
            elif k < len(slots) and len(slots[k]) == 1 and slots[k][0] in state.withdrawn:
                # its 晋级签 (or walkover) not scored: the office withdrew it before the round was
                # complete (handbook 缺席、弃权和退赛, pipeline.draw.bye_unscored)
                out[x] = f"{shown(state, slots[k][0])}已退赛"
            else:
                out[x] = "另一边的比赛均双方弃权或缺席"
        return out

    def _third_place_note(self, state: EventState, rnd: Round, left: str) -> str:
        """Why the third-place match has only ``left`` (R2011-R1): what became of the other
        semi-final's loser."""
        for m in rnd.matches:
            if left in m.sides:
                continue
            if m.bye and m.sides and m.sides[0] in state.withdrawn:     # (its walkover not scored)
                return f"另一场半决赛是{shown(state, m.sides[0])}的不战而胜，{shown(state, m.sides[0])}已退赛"
            if m.bye:
                return "另一场半决赛是不战而胜，没有负者"
            gone = lost_by_absence(state, m)
            if len(gone) == len(m.sides):
                return f"另一场半决赛（{' 对 '.join(shown(state, e) for e in m.sides)}）双方均弃权或缺席"
            if gone:
                return f"另一场半决赛的负者{shown(state, gone[0])}弃权，取消资格"
            lost = [s for s in m.sides if s != settled_winner(state, m)]
            if lost and lost[0] in state.withdrawn:
                return f"另一场半决赛的负者{shown(state, lost[0])}已退赛"
        return "另一场半决赛没有到场的负者"

    def _first_group_round(self, state: EventState, rng: random.Random) -> Round:
        ids = sorted(e.id for e in state.entries)
        opts = state.options
        n = len(ids)
        if opts.get("groups"):
            g = opts["groups"]
        elif opts.get("group_size"):
            g = max(1, round(n / opts["group_size"]))
        else:
            g = default_group_count(n)
        g = max(1, min(g, n // 2))           # every group needs 2 entries to play
        dealt = deal_groups(ids, g, rng, state.branch_of)
        groups = {group_label(i): members for i, members in enumerate(dealt)}
        total = max(berger_round_count(len(m)) for m in groups.values())
        advance = opts.get("advance") or default_advance([len(m) for m in groups.values()])
        return self._group_round(state, groups, 1, total, advance)

    def advance(self, state: EventState) -> int:
        """How many of each group advance (R2011-F1): as recorded at the group draw."""
        grp = rounds_of(state, "group")
        return group_advance(grp[0].plan if grp else {}, state.options)

    def _group_round(self, state: EventState, groups: dict[str, list[str]], k: int, total: int,
                     advance: int | None) -> Round:
        no = next_round_no(state)
        matches: list[Match] = []
        byes: list[Match] = []
        notes: list[str] = []
        odd: list[tuple[str, int, str]] = []        # (group, its size, who rests)
        for g, members in groups.items():
            if k > berger_round_count(len(members)):
                continue
            for x, y in berger_pairs(len(members), k):
                if y is None:
                    byes.append(Match(state.event_id, GROUP_STAGE, no, g, 0, (members[x],), bye=True))
                    odd.append((g, len(members), members[x]))
                else:
                    matches.append(Match(state.event_id, GROUP_STAGE, no, g, len(matches) + 1,
                                         (members[x], members[y])))
        for b in byes:
            matches.append(Match(b.event, b.stage, b.round, b.group, len(matches) + 1, b.sides, bye=True))
        if k == 1:
            notes += sorted(f"{group_name(g)}抽签序号：{shown_list(state, members)}。" for g, members in groups.items())
        notes += self._rest_notes(state, odd)
        plan = {"kind": "group", "groups": groups, "group_round": k, "of": total}
        if advance is not None:         # (a group stage published without it keeps the old default)
            plan["advance"] = advance
        return Round(state.event_id, GROUP_STAGE, f"小组循环赛第{k}轮", no, tuple(matches),
                     notes=tuple(notes), plan=plan)

    @staticmethod
    def _rest_notes(state: EventState, odd: list[tuple[str, int, str]]) -> list[str]:
        """Why the round's rests: a group of an odd size, its Berger round.  One group names
        who rests; several are said in one note — the round's 轮空 list names them (the
        bench's eight groups of 7 gave four notes repeating it, and a draw sheet a second
        page of two notes and its seed line).

        ``odd``: (group, its size, the entry resting) of each group with a rest."""
        if len(odd) == 1:
            ((g, n, e),) = odd
            return [f"{group_name(g)}共 {counted(state, n)}（奇数），按贝格尔编排{shown(state, e)}本轮轮空。"]
        if not odd:
            return []
        sizes = {n for _, n, _ in odd}
        which = (f"{'、'.join(group_name(g) for g, _, _ in odd)}各 {counted(state, sizes.pop())}（奇数）"
                 if len(sizes) == 1 else f"{'、'.join(f'{group_name(g)} {counted(state, n)}' for g, n, _ in odd)}（均为奇数）")
        return [f"{which}，按贝格尔编排每组 {counted(state, 1)}本轮轮空。"]

    def qualifiers(self, state: EventState) -> list[tuple[str, list[str]]]:
        """R2011-F1: per group (label, advancing entries best first); raises PlayoffWaiting
        naming every tie for an advancing place that no Playoff settles yet."""
        grp = rounds_of(state, "group")
        groups = grp[0].plan["groups"]
        advance = self.advance(state)
        out, ties = [], []
        for g, members in groups.items():
            # an entry the office withdrew does not go on: the next in its group does (a tie
            # for the place it leaves is played off among those still in)
            present = [e for e in members if e not in state.withdrawn]
            order, tie = self.group_order(state, g, present, grp, advance) if present else ([], None)
            if tie:
                ties.append((g, tie[0], tie[1]))
            out.append((g, order[:min(advance, len(order))]))
        if ties:
            msg = "；".join(f"{group_name(g)}第{edge}名{shown_list(state, t)}积分及破同分均相同"
                           for g, t, edge in ties)
            raise PlayoffWaiting(f"{msg}，出线名额须加赛一局决定：请录入加赛结果后再抽淘汰赛。",
                                 [(GROUP_STAGE, g, tuple(t)) for g, t, _ in ties])
        return out

    def group_order(self, state: EventState, group: str, members: list[str], grp: list[Round],
                    advance: int) -> tuple[list[str], tuple[list[str], int] | None]:
        """(group order best first with any 加赛 applied, unsettled (tied ids, rank) or None).
        Only a tie across the last advancing place needs a playoff."""
        rows = ranked(state, members, grp, stages=GROUP_PLAYOFFS)
        order = [r.entry for r in rows]
        adv = min(advance, len(rows))
        if adv < len(rows):
            edge = rows[adv - 1].rank
            tied = [r.entry for r in rows if r.rank == edge]
            if rows[adv].rank == edge and len(tied) > 1:
                po = self._playoff(state, group, tied, grp[-1].round)
                if po is None:
                    return order, (tied, edge)
                slots = sorted(order.index(t) for t in tied)
                for i, e in zip(slots, po):
                    order[i] = e
        return order, None

    def group_positions(self, state: EventState, group: str, members: list[str], grp: list[Round],
                        advance: int) -> list[tuple[str, int]]:
        """(entry, 0-based place in its group), best first: the tie across the last advancing
        place in its 加赛's order, any other tie sharing its place (R2011-F1 plays off only
        the places that advance) — two level 4th places were printed 小组第4名 and 小组第5名."""
        rows = ranked(state, members, grp, stages=GROUP_PLAYOFFS)
        order, pending = self.group_order(state, group, members, grp, advance)
        rank_of = {r.entry: r.rank for r in rows}
        adv = min(advance, len(rows))
        edge = rows[adv - 1].rank if adv < len(rows) and rows[adv].rank == rows[adv - 1].rank else None
        played_off = edge is not None and pending is None
        return [(e, i if played_off and rank_of[e] == edge else rank_of[e] - 1) for i, e in enumerate(order)]

    @staticmethod
    def _playoff(state: EventState, group: str, tied: list[str], last: int) -> list[str] | None:
        """R2011-F1: the order of the group's 加赛 for its advancing place (a form issued at a
        later round is another tie's)."""
        for p in reversed(state.playoffs):
            if (p.group == group and p.stage in (GROUP_STAGE, "") and set(tied) <= set(p.order)
                    and p.round in (None, last)):
                return [e for e in p.order if e in tied] if p.settles(tied) else None
        return None

    def _first_ko_round(self, state: EventState, qual: list[tuple[str, list[str]]],
                        rng: random.Random) -> Round:
        q = sum(len(a) for _, a in qual)
        size = 1 << math.ceil(math.log2(q))
        order = list(range(len(qual)))
        rng.shuffle(order)
        halves: list[list[str]] = [[], []]
        heads = [0, 0]          # group winners dealt to each half
        # R2011-F2 (出线者抽签分入上、下两个半区): each group's qualifiers alternate between the
        # halves, so with two a group its winner and runner-up are in different halves.  The
        # half a group starts on keeps the halves within one of each other (a group sending
        # an odd number starts on the smaller half: started on alternate halves, groups 3/2/3
        # with advance 3 dealt 5 and 3 of 8, and the draw needed −1 byes), then shares the
        # winners between the halves (dealt in one run, every group started on the same half:
        # all the winners in one half, all the runners-up in the other), then alternates from
        # a half drawn by lot.
        start = rng.randrange(2)
        extra: list[str] = []
        for j, gi in enumerate(order):
            picks = qual[gi][1]
            if not picks:
                continue
            first = _start_half(halves, heads, len(picks), (start + j) % 2)
            for k, e in enumerate(picks):
                halves[(first + k) % 2].append(e)
            heads[first] += 1
        if q == 2:
            pair = halves[0] + halves[1]
            rng.shuffle(pair)
            bracket = [pair]
        else:
            bracket = []
            group_of = {e: g for g, picks in qual for e in picks}
            for h, half in enumerate(halves):
                rng.shuffle(half)
                n_pairs = size // 4
                n_byes = size // 2 - len(half)
                bye_pairs = set(rng.sample(range(n_pairs), n_byes))
                it = iter(half)
                slots = [[next(it)] if p in bye_pairs else [next(it), next(it)] for p in range(n_pairs)]
                kept = _apart(half, n_byes, group_of)
                if _same(slots, group_of) > _same(kept[0] + kept[1], group_of):
                    byes_, pairs = iter(kept[0]), iter(kept[1])
                    slots = [next(byes_) if p in bye_pairs else next(pairs) for p in range(n_pairs)]
                    extra.append(f"{'上' if h == 0 else '下'}半区按抽签顺序会有同组出线者首轮相遇；为使同组出线者"
                                 "尽量晚相遇，本半区的对阵和轮空签按抽签顺序另行排定，"
                                 + ("同组出线者首轮不相遇。" if not _same(slots, group_of)
                                    else "同组出线者首轮相遇已减到最少。"))
                bracket += slots
        r = self._ko_round(state, bracket, None, rng)
        top = "、".join(shown(state, e) for slot in bracket[:len(bracket) // 2] for e in slot)
        bottom = "、".join(shown(state, e) for slot in bracket[len(bracket) // 2:] for e in slot)
        notes = [f"出线者抽签分区：上半区为{top}；下半区为{bottom}。"] if len(bracket) > 1 else []
        return dataclasses.replace(r, notes=tuple(notes + extra + withdrawn_notes(state)) + r.notes)

    def _ko_round(self, state: EventState, bracket: list[list[str]], third: list[str] | None,
                  rng: random.Random, walkovers: dict[str, str] | None = None) -> Round:
        no = next_round_no(state)
        final = len(bracket) == 1
        stage = "final" if final else "ko"
        bal, last = first_balance(state.rounds)
        matches: list[Match] = []
        byes: list[Match] = []
        notes: list[str] = []
        first = not rounds_of(state, "ko")
        for slot in bracket:
            if not slot:                 # both sides of every match feeding it forfeited
                continue
            if len(slot) == 1:
                if first:
                    byes.append(Match(state.event_id, stage, no, "", 0, (slot[0],), bye=True))
                    notes.append(f"出线人数不是 2 的幂，{shown(state, slot[0])}抽得轮空签，直接进入下一轮。")
                    continue
                # R2011-R1: a walkover, not a bye (bye_counts): its opponent's match was forfeited
                why = (walkovers or {}).get(slot[0], "另一边的比赛均双方弃权或缺席")
                what = "决赛" if final else ko_stage_name(2 * len(bracket))
                x = shown(state, slot[0])
                byes.append(Match(state.event_id, stage, no, "", 0, (slot[0],), bye=True,
                                  note=f"{WALKOVER}（{what}对手空缺）"))
                notes.append(f"{why}：{x}的{what}对手空缺，{x}{WALKOVER}，"
                             + ("为决赛胜者。" if final else "直接进入下一轮。"))
                continue
            a, b = orient(slot[0], slot[1], bal, last, rng)
            matches.append(Match(state.event_id, stage, no, "", len(matches) + 1, (a, b)))
        if third and len(third) == 2:
            a, b = orient(third[0], third[1], bal, last, rng)
            matches.append(Match(state.event_id, stage, no, THIRD_PLACE, len(matches) + 1, (a, b),
                                 note="三四名决赛"))
            notes.append(f"半决赛负者{shown_list(state, third)}进行三四名决赛。")
        elif third:
            # R2011-R1: the other semi-final has no loser left to play (both sides, or its loser,
            # did not come): the one left takes the third-place match without playing
            byes.append(Match(state.event_id, stage, no, THIRD_PLACE, 0, (third[0],), bye=True,
                              note=f"{WALKOVER}（三四名决赛对手空缺）"))
            why = (walkovers or {}).get(THIRD_PLACE, "另一场半决赛没有到场的负者")
            notes.append(f"{why}：三四名决赛只有半决赛负者{shown(state, third[0])}一方，"
                         f"{shown(state, third[0])}{WALKOVER}，为三四名决赛胜者。")
        for b in byes:
            matches.append(dataclasses.replace(b, table=len(matches) + 1))
        name = ko_stage_name(2 * len(bracket)) + ("及三四名决赛" if third else "")
        return Round(state.event_id, stage, name, no, tuple(matches), notes=tuple(notes),
                     plan={"kind": "ko", "bracket": bracket, "final": final, "third": third})

    @staticmethod
    def _winner_of_slot(state: EventState, rnd: Round, slot: list[str]) -> str | None:
        if len(slot) <= 1:      # a bye (winner_of: none when its holder withdrew before the round)
            bye = next((m for m in rnd.matches if m.bye and list(m.sides) == slot), None) if slot else None
            return winner_of(state, bye) if bye is not None else slot[0] if slot else None
        m = next(m for m in rnd.matches if set(m.sides) == set(slot) and m.group != THIRD_PLACE)
        return winner_of(state, m)

    # ------------------------------------------------------------------ results

    def placements(self, state: EventState) -> list[Placement]:
        """Final, third-place match, then knockout losers by round (latest first), then
        the entries that did not advance, by group position (ordered by the ranking).
        R2011-R1: one who lost a knockout match by not coming stands on a vacant place
        (``Placement.vacant``, :meth:`_ko_tiers`)."""
        grp = rounds_of(state, "group")
        ko = rounds_of(state, "ko")
        tiers: list[tuple[str, list[str]]] = []
        placed: set[str] = set()

        def add(tier: str, ids: list[str]) -> None:
            ids = [i for i in ids if i not in placed]
            if ids:
                tiers.append((tier, ids))
                placed.update(ids)

        vacant: set[str] = set()
        if ko:
            ko_tiers, vacant = self._ko_tiers(state, ko)
            for tier, ids in ko_tiers:
                add(tier, ids)
        if grp:
            groups = grp[0].plan["groups"]
            by_pos: dict[int, list[str]] = {}
            advance = self.advance(state)
            for g, members in groups.items():
                for e, i in self.group_positions(state, g, members, grp, advance):
                    by_pos.setdefault(i, []).append(e)
            for i in sorted(by_pos):
                add(f"小组第{i + 1}名", by_pos[i])
        add("", sorted(e.id for e in state.entries))
        if grp:
            tiers = by_score_rate(state, grp, tiers)
        return tier_placements(state, tiers, state.rounds, vacant=vacant)

    def _ko_tiers(self, state: EventState, ko: list[Round]) -> tuple[list[tuple[str, list[str]]], set[str]]:
        """The knockout's tiers, best first, and the entries standing on vacant places.

        The places of a knockout of N qualifiers come in ranges, one per level of the bracket:
        1–2 the final's winner and loser, 3–4 the third-place match's (R2011-F2; without it,
        the semi-finals' losers), 5–8 the quarter-finals' losers, and so on (the first round's
        range ends at N: its byes).  R2011-R1 (the office's decision, handbook 缺席、弃权和退赛):
        one who lost a knockout match by not coming — the absent side of 甲方/乙方弃权, both of
        双方弃权 — has no place.  A range's places not reached by anyone who came are vacant:
        the absentees stand on them (best places first, those absent in a later round first),
        and nobody below moves up.  So a final entered 甲方弃权 leaves 2nd vacant; a semi-final
        both sides forfeited, 2nd and 4th (the other semi's winner walked over the final, its
        loser over the third-place match).

        A winner in no later round (withdrawn, or a corrected result after the next round was
        drawn) is placed as far as it got, in the range above its round's losers; the last
        round's winners lead while no later round is drawn; a match without a result yet
        places both its sides together."""
        n = len({s for m in ko[0].matches for s in m.sides})
        absent: dict[str, tuple[int, str]] = {}     # entry → (its round's level, what the place says)
        for rnd in ko:
            for m in rnd.matches:
                gone = lost_by_absence(state, m)
                title = self.match_title(rnd, m) or rnd.stage_name
                for e in gone:
                    absent.setdefault(e, (len(rnd.plan.get("bracket") or [[]]),
                                          f"{title}{'双方弃权' if len(gone) > 1 else '弃权'}（取消资格，名次空缺）"))
        ranges: list[tuple[int, list[tuple[str, list[str]]]]] = []      # (its places, its tiers)

        def match_range(label: str, m: Match | None) -> list[tuple[str, list[str]]]:
            """The tiers of one place-deciding match (final, 三四名): winner, then loser."""
            if m is None:
                return []
            if m.bye:
                return [(f"{label}胜者（{WALKOVER}）", list(m.sides))]
            w = settled_winner(state, m)
            if m.key not in state.results or (w is None and not lost_by_absence(state, m)):
                return [(label, list(m.sides))]          # to be played (or its 加赛)
            return [(f"{label}胜者", [w] if w else []), (f"{label}负者", [s for s in m.sides if s != w and s not in absent])]

        def later_than(rnd: Round) -> set[str]:
            return {s for rr in state.rounds if rr.round > rnd.round for mm in rr.matches for s in mm.sides}

        def losers_of(rnd: Round) -> list[str]:
            """The round's losers — and the holders of its byes (晋级签, walkovers) the office
            withdrew before it was complete: not scored, they went no further (handbook
            缺席、弃权和退赛: a place among the losers, not a vacant one — no absence)."""
            return ([s for m in rnd.matches if not m.bye for w in [settled_winner(state, m)] if w
                     for s in m.sides if s != w and s not in absent]
                    + byes_left(state, rnd, later_than(rnd), unscored=True))

        def beyond(rnd: Round) -> list[str]:
            """The round's winners in no later round (withdrawn, a corrected result), and the
            holders of its byes that scored, withdrawn after the round was complete."""
            later = later_than(rnd)
            return ([w for m in rnd.matches if not m.bye for w in [settled_winner(state, m)] if w and w not in later]
                    + byes_left(state, rnd, later, unscored=False))

        def undecided(rnd: Round) -> list[str]:
            return [s for m in rnd.matches if not m.bye and m.key not in state.results for s in m.sides]

        by_level = {len(r.plan.get("bracket") or [[]]): r for r in ko}

        def reached(level: int) -> list[tuple[str, list[str]]]:
            """The winners of the round before ``level`` in no later round: they reached it."""
            inner = by_level.get(2 * level)
            return [(f"{inner.stage_name}胜者", beyond(inner))] if inner is not None else []

        last = ko[-1]
        if last.plan.get("final"):
            final = next((m for m in last.matches if m.group != THIRD_PLACE), None)
            third = next((m for m in last.matches if m.group == THIRD_PLACE), None)
            ranges.append((min(2, n), match_range("决赛", final) + reached(1)))
            level = 2
            if third is not None:
                semi = by_level.get(2)
                # a semi-final's loser in no third-place match (the office withdrew it)
                left = [s for s in losers_of(semi) if s not in third.sides] if semi is not None else []
                ranges.append((min(4, n) - 2, match_range("三四名决赛", third) + [("半决赛负者", left)] + reached(2)))
                level = 4
        else:
            # the last round's winners lead while no later round is drawn — also where none
            # will be (every other match forfeited); one withdrawn since goes below
            level = len(last.plan.get("bracket") or [[]])
            # (settled_winner: a bye's holder, unless withdrawn before the round was complete)
            ahead = [w for w in (settled_winner(state, m) for m in last.matches if m.sides)
                     if w and w not in state.withdrawn]
            ranges.append((level, [(f"{last.stage_name}胜者", ahead), (last.stage_name, undecided(last))]))
        while level < 2 * max(by_level):
            rnd = by_level.get(level)
            # R2011-F2: the losers of one knockout round are one tier, ordered by the ranking
            # (a tie crossing an award waits for the final places' 加赛) — they were a tier a
            # table, so without a 三四名 match table 1's semi-final loser was 3rd, table 2's 4th.
            # A level every match feeding it forfeited has no round: its places are vacant
            got = [(f"{rnd.stage_name}负者", losers_of(rnd))] if rnd is not None else []
            ranges.append((min(2 * level, n) - level, got + reached(level)))
            level *= 2
        # the absentees, those of the latest rounds first, on the vacant places best first
        order = {r.entry: i for i, r in enumerate(ranked(state, list(absent), state.rounds))}
        waiting = sorted(absent, key=lambda e: (absent[e][0], order.get(e, 0), e))
        out: list[tuple[str, list[str]]] = []
        placed: set[str] = set()
        for size, got in ranges:
            came = [(t, [e for e in ids if e not in placed and e not in absent]) for t, ids in got]
            for t, ids in came:
                if ids:
                    out.append((t, ids))
                    placed.update(ids)
            for _ in range(max(0, size - sum(len(ids) for _, ids in came))):
                if waiting:
                    e = waiting.pop(0)
                    out.append((absent[e][1], [e]))
                    placed.add(e)
        out += [(absent[e][1], [e]) for e in waiting]
        return out, set(absent)

    @staticmethod
    def placement_notes(rounds: list[Round], placements: list[Placement], points: dict[str, int]) -> list[str]:
        """The 说明 under the standings' 最终名次 (R2011-F2): how a tier of entries from groups of
        different sizes is ordered (:func:`by_score_rate`) — said when some tier mixes sizes
        and the places shown follow it (places an earlier version published and the runner
        kept, PLACES_KEPT, may not).  ``points``: each entry's group-stage points."""
        grp = [r for r in rounds if r.plan.get("kind") == GROUP_STAGE]
        groups = (grp[0].plan.get("groups") or {}) if grp else {}
        sizes = {g: len(m) for g, m in groups.items()}
        if len(set(sizes.values())) < 2:
            return []
        size = {e: len(m) for m in groups.values() for e in m}
        tiers: dict[str, list[Placement]] = {}
        for p in sorted(placements, key=lambda p: p.rank):
            if p.entry in size and p.entry in points:
                tiers.setdefault(p.tier, []).append(p)
        mixed = False
        from fractions import Fraction      # (here, not at the top: with decimal, ~3 ms of every night's imports)

        for ps in tiers.values():
            if len({size[p.entry] for p in ps}) < 2:
                continue
            mixed = True
            rates = [Fraction(int(points[p.entry]), max(1, size[p.entry] - 1)) for p in ps]
            if any(a < b for a, b in zip(rates, rates[1:])):
                return []
        if not mixed:
            return []
        by_games: dict[int, list[str]] = {}
        for g in sorted(sizes):
            by_games.setdefault(max(1, sizes[g] - 1), []).append(group_name(g))
        games = "，".join(f"{'、'.join(gs)}每人 {n} 局" for n, gs in sorted(by_games.items(), reverse=True))
        return ["各组人数不同：名次依据相同（如同为“小组第2名”）的选手，先比小组赛得分率（小组赛积分 ÷ 小组循环赛"
                f"每人的局数：{games}；轮休不计分），得分率高者在前；得分率相同，再按破同分规则排列。"]


def group_rates(state: EventState, grp: list[Round]) -> dict[str, Fraction] | None:
    """Entry → its group round robin's 得分率 (points ÷ the games the group gives each
    player: its size − 1), exact — or None when every group has one size (nothing to
    compare by it: points order the same)."""
    groups = grp[0].plan.get("groups") or {}
    if len({len(m) for m in groups.values()}) < 2:
        return None
    from fractions import Fraction      # (here: only an event of groups of unequal size needs it)

    out: dict[str, Fraction] = {}
    for g, members in groups.items():
        games = max(1, len(members) - 1)
        for r in ranked(state, members, grp, stages=GROUP_PLAYOFFS):
            out[r.entry] = Fraction(int(r.points), games)
    return out


def by_score_rate(state: EventState, grp: list[Round], tiers: list[tuple[str, list[str]]]
                  ) -> list[tuple[str, list[str]]]:
    """R2011-F2 最终名次 (the office's decision where the rules are silent: handbook): each
    tier holding entries of groups of different sizes, split by :func:`group_rates` (best
    first; one label), so the 得分率 comes before the event's tiebreak chain, which orders
    each part (:func:`~pipeline.draw.common.tier_placements`).  Groups of one size, or a
    tier of one group's size: unchanged."""
    rates = group_rates(state, grp)
    if rates is None:
        return tiers
    size = {e: len(m) for m in grp[0].plan["groups"].values() for e in m}
    out: list[tuple[str, list[str]]] = []
    for tier, ids in tiers:
        if len({size.get(e) for e in ids}) < 2 or any(e not in rates for e in ids):
            out.append((tier, ids))
            continue
        for rate in sorted({rates[e] for e in ids}, reverse=True):
            out.append((tier, [e for e in ids if rates[e] == rate]))
    return out


FORMATS.register("groups_knockout", "分组循环赛加淘汰赛", "分组淘汰", "分组循环+淘汰")(GroupsKnockout())


def _start_half(halves: list[list[str]], heads: list[int], count: int, lot: int) -> int:
    """The half (0 or 1) where a group sending ``count`` qualifiers starts (R2011-F2): the
    smaller half when the count is odd (its extra one evens them), else the half with fewer
    group winners, else ``lot``.

    >>> _start_half([["a", "b"], ["c"]], [1, 1], 3, 0), _start_half([["a"], ["b"]], [1, 0], 2, 0)
    (1, 1)
    """
    if count % 2 and len(halves[0]) != len(halves[1]):
        return 0 if len(halves[0]) < len(halves[1]) else 1
    if heads[0] != heads[1]:
        return 0 if heads[0] < heads[1] else 1
    return lot


def _collapse(bracket: list[list[str]]) -> list[list[str]]:
    """A bracket with no round of walkovers only: while every slot has at most one entry
    (nobody would play) the entries meet at the next level at once.  A level with a match to
    play is kept, even when it is the only one (R2011-R1: two double forfeits in one half
    leave [[], [a, b]] — a semi-final, whose winner then walks over the final and whose
    loser takes the third-place match by walkover; it was played as the final, and the
    quarter-finals' losers played for third, places the forfeits had left vacant)."""
    while len(bracket) > 1 and all(len(slot) <= 1 for slot in bracket):
        bracket = _next_slots([slot[0] if slot else None for slot in bracket])
    return bracket


def _next_slots(winners: list[str | None]) -> list[list[str]]:
    """The next knockout round's slots: the winners of two neighbouring slots meet (None: a
    slot with no winner, so the other has a bye; both None: an empty slot)."""
    return [[w for w in winners[i:i + 2] if w is not None] for i in range(0, len(winners), 2)]


def _same(slots: list[list[str]], group_of: dict[str, str]) -> int:
    """How many of ``slots`` pair two qualifiers of one group."""
    return sum(1 for sl in slots if len(sl) == 2 and group_of.get(sl[0]) == group_of.get(sl[1]))


def _apart(half: list[str], n_byes: int, group_of: dict[str, str]) -> tuple[list[list[str]], list[list[str]]]:
    """R2011-F2 (同组出线者尽量晚相遇): (byes, pairs) of ``half`` (in its drawn order) with as few
    first-round pairs of one group as can be — the byes to the groups with the most qualifiers
    left in the half, then each pair a qualifier of the largest group left with one of the next
    largest (never leaving one group more than half of those left, when that can be kept);
    ties go by the drawn order.

    >>> _apart(["a1", "a2", "b1"], 1, {"a1": "A", "a2": "A", "b1": "B"})
    ([['a1']], [['a2', 'b1']])
    """
    left = list(half)

    def largest(skip: str | None = None) -> str:
        count: dict[str, int] = {}
        for e in left:
            count[group_of.get(e, e)] = count.get(group_of.get(e, e), 0) + 1
        firsts = {}
        for i, e in enumerate(left):
            firsts.setdefault(group_of.get(e, e), i)
        groups = [g for g in count if g != skip] or list(count)
        return max(groups, key=lambda g: (count[g], -firsts[g]))

    def take(g: str) -> str:
        e = next(x for x in left if group_of.get(x, x) == g)
        left.remove(e)
        return e

    byes = [[take(largest())] for _ in range(n_byes)]
    pairs = []
    while left:
        a = take(largest())
        pairs.append([a, take(largest(group_of.get(a, a)))])
    return byes, pairs
