"""Single round robin in one group, Berger tables, one round per call (R2015-F1 option).

The Berger numbers are drawn by lot when round 1 is drawn (entries of one branch are
given adjacent-free numbers where possible, so they do not meet in round 1) and
stored in every round's ``plan["order"]``; later rounds read them from round 1.
Plan: ``{"kind": "rr", "order": [entry ids by Berger number], "rr_round": k, "of": total}``.
An odd count adds a dummy: whoever meets it has a bye (a Match with one side).
"""
from __future__ import annotations

import random
from typing import Any

from ..model import Match, Round
from . import FORMATS
from .base import EventState, Placement
from .common import (berger_pairs, berger_round_count, check_known, counted, first_problem,
                     next_round_no, rounds_of, shown, shown_list, spread_tables, tier_placements)


def berger_order(state: EventState, rng: random.Random) -> list[str]:
    """Berger numbers by lot such that round-1 opponents come from different branches
    where possible: draw round-1 pairs apart by branch, then seat them on Berger numbers."""
    ids = sorted(e.id for e in state.entries)
    n = len(ids)
    pairs = berger_pairs(n, 1)
    bye_slots = [x for x, y in pairs if y is None]
    real = [(x, y) for x, y in pairs if y is not None]
    order: list[str | None] = [None] * n
    pool = list(ids)
    if bye_slots:
        b = rng.choice(pool)
        pool.remove(b)
        order[bye_slots[0]] = b
    for (x, y), (a, b) in zip(real, spread_tables(pool, 2, rng, state.branch_of)):
        order[x], order[y] = a, b
    return [e for e in order if e is not None]


class RoundRobin:
    """Single round robin (Berger tables), one round per call."""

    name = "round_robin"
    title = "循环赛"
    seats = 2
    stage = "rr"
    OPTIONS: tuple[str, ...] = ()
    #: an odd count's round off is a rest, worth nothing: everyone has one (:func:`pipeline.draw.bye_scores`)
    REST_BYES = frozenset({"rr"})

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None, or a message naming the bad option (this format has none)."""
        return first_problem(check_known(options, self.OPTIONS, self.name))

    def describe(self, options: dict[str, Any], game: Any = None) -> str:
        """Chinese paragraph for the notice (pairs for a partnership game: 每队, not 每名参赛者)."""
        if getattr(game, "side_size", 1) > 1:
            return ("采用单循环赛：抽签确定序号后按贝格尔编排表逐轮对阵，每队与其他所有参赛队各赛一次；"
                    "队数为奇数时每轮有一队轮空。按积分排名，积分相同按破同分规则。")
        return ("采用单循环赛：抽签确定序号后按贝格尔编排表逐轮对阵，每名参赛者与其他所有参赛者各赛一次；"
                "人数为奇数时每轮有一人轮空。按积分排名，积分相同按破同分规则。")

    def stage_name(self, k: int, total: int) -> str:
        return f"循环赛第{k}轮"

    def stage_kind(self, rounds: list[Round]) -> tuple[str, str]:
        """(kind, label) of a stage of this format's rounds on the event page
        (:func:`pipeline.render.site_vm.stage_kind`): the format says what it drew, the
        page does not guess it from the stage's name (R2015-F1: a 双人赛 is a round robin too)."""
        return "round_robin", "循环赛"

    def next_round(self, state: EventState, rng: random.Random) -> Round | None:
        """The next Berger round, or None after the last."""
        done = rounds_of(state, "rr")
        if done:
            order, total = list(done[0].plan["order"]), done[0].plan["of"]
        else:
            if len(state.entries) < 2:
                return None
            order = berger_order(state, rng)
            total = berger_round_count(len(order))
        k = len(done) + 1
        if k > total:
            return None
        return self._round(state, order, k, total)

    def _round(self, state: EventState, order: list[str], k: int, total: int) -> Round:
        no = next_round_no(state)
        matches: list[Match] = []
        notes: list[str] = []
        byes: list[str] = []
        for x, y in berger_pairs(len(order), k):
            if y is None:
                byes.append(order[x])
            else:
                matches.append(Match(state.event_id, self.stage, no, "", len(matches) + 1,
                                     (order[x], order[y])))
        for b in byes:
            matches.append(Match(state.event_id, self.stage, no, "", len(matches) + 1, (b,), bye=True))
            notes.append(f"参赛者共 {counted(state, len(order))}（奇数），按贝格尔编排{shown(state, b)}本轮轮空。")
        if k == 1:
            notes.insert(0, f"抽签序号：{shown_list(state, order)}（依次为 1 号至 {len(order)} 号）。")
        return Round(state.event_id, self.stage, self.stage_name(k, total), no, tuple(matches),
                     notes=tuple(notes), plan=self.plan(state, order, k, total))

    def plan(self, state: EventState, order: list[str], k: int, total: int) -> dict[str, Any]:
        """The round's frozen memory."""
        return {"kind": "rr", "order": order, "rr_round": k, "of": total}

    def placements(self, state: EventState) -> list[Placement]:
        """Everyone by the event's ranking over all rounds."""
        return tier_placements(state, [(self.title, [e.id for e in state.entries])], state.rounds)


#: every way a clerk writes a single round robin (单循环 was taken and 单循环赛 refused); a
#: 双循环 (each pair twice) is no format here: league new refuses it saying so
FORMATS.register("round_robin", "循环赛", "单循环", "单循环赛", "循环制", "单循环制")(RoundRobin())
