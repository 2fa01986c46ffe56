"""Knockout rounds with byes by lot, then a final round robin (R2020-F1).

22 entries → 11 matches → 11 winners: 1 bye + 5 matches → 6 → 3 matches → 3 → round
robin.  Generalised: while more than ``final_pool`` (default 3) entries remain, play a
knockout round; an odd count gives one bye, drawn by lot among the entries with the
fewest byes so far (nobody gets a second bye while someone has none).  The last
``final_pool`` or fewer play a round robin, published one Berger round per call (3
entries → 3 rounds of one match and one bye), so nobody plays twice in one round.

R2011-R1 (the office's decision, handbook 缺席、弃权和退赛): a knockout round's loser by absence
(弃权, 双方弃权) has no place — it stands on a vacant place, the last of its round's
(``Placement.vacant``); the final round robin's forfeits are lost games only.

Plans: knockout rounds ``{"kind": "ko", "alive": [...]}``; round-robin rounds
``{"kind": "rr", "pool": [Berger order], "rr_round": k, "of": total}``.
"""
from __future__ import annotations

import random
from typing import Any

from ..model import Match, Round
from . import FORMATS
from .base import EventState, Placement, Waiting
from .common import (berger_pairs, berger_round_count, bye_counts, byes_left, check_int, check_known, counted,
                     first_balance, first_problem, lost_by_absence, next_round_no, orient, rounds_of, shown,
                     settled_winner, shown_list, spread_tables, tier_placements, winner_of, winners_of, withdrawn_notes)


class Knockout:
    """R2020-F1: knockout rounds with byes by lot, then a round robin of the last few."""

    name = "knockout"
    title = "淘汰赛"
    seats = 2
    OPTIONS = ("final_pool",)
    #: the options as the spec reference documents them (pipeline.specdoc)
    OPTION_DOCS = {
        "final_pool": "剩下几人（队）时改为决赛单循环（默认 3），决赛循环赛排出这几名的名次。淘汰赛不设"
                      "三四名决赛：同一轮被淘汰者名次并列；奖项名额落在并列者之间时（例如决赛圈 3 人、"
                      "却设 6 个获奖名额），须填加赛表决定名次。设奖时宜使获奖名额与决赛圈人数或淘汰轮次相合",
    }
    #: R2020-F4: the final round robin ranks by the match points of its matches; whoever sits a
    #: round out (odd pool) rests and scores nothing (:func:`pipeline.draw.bye_scores`)
    REST_BYES = frozenset({"rr"})

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None, or a message naming the bad option (``final_pool`` ≥ 1)."""
        return first_problem(check_known(options, self.OPTIONS, self.name),
                             check_int(options, "final_pool", 1, 64))

    def stage_kind(self, rounds: list[Round]) -> tuple[str, str]:
        """(kind, label) of a stage of this format's rounds on the event page
        (:func:`pipeline.render.site_vm.stage_kind`): the format says what it drew, the
        page does not guess it from the stage's name (R2020-F1): the knockout rounds, then the final round robin — a pool of two, one
        round of one match (决赛), is the knockout's last column."""
        plan = rounds[0].plan if isinstance(rounds[0].plan, dict) else {}
        if plan.get("kind") == "rr" and plan.get("of") != 1:
            return "round_robin", "循环赛"
        return "knockout", "淘汰赛"

    def describe(self, options: dict[str, Any], game: Any = None) -> str:
        """Chinese paragraph for the notice (pairs for a partnership game: 参赛队, not 参赛者)."""
        pool = options.get("final_pool", 3)
        if getattr(game, "side_size", 1) > 1:
            return (f"采用淘汰赛：全部参赛队抽签两两对阵，胜者晋级下一轮；某轮队数为奇数时，"
                    f"抽签产生一队轮空（晋级签）直接晋级，已轮空过的队在其他队都轮空过之前不再轮空。"
                    f"剩余不超过{pool}队时进行单循环赛（贝格尔编排）决出名次；"
                    f"最后一轮淘汰赛的负者按破同分规则排列其后。")
        return (f"采用淘汰赛：全部参赛者抽签两两对阵，胜者晋级下一轮；某轮人数为奇数时，"
                f"抽签产生一名轮空（晋级签）直接晋级，已轮空过的选手在其他人都轮空过之前不再轮空。"
                f"剩余不超过{pool}名时进行单循环赛（贝格尔编排）决出名次；"
                f"最后一轮淘汰赛的负者按破同分规则排列其后。")

    # ------------------------------------------------------------------ drawing

    def next_round(self, state: EventState, rng: random.Random) -> Round | None:
        """R2020-F1: the next knockout round, or the next round of the final round robin."""
        pool_max = state.options.get("final_pool", 3)
        rr = rounds_of(state, "rr")
        if rr:
            plan = rr[0].plan
            if len(rr) >= plan["of"]:
                return None
            return self._rr_round(state, list(plan["pool"]), len(rr) + 1, plan["of"])
        alive = self._alive(state)
        if len(alive) <= 1:
            return None
        if len(alive) <= pool_max:
            pool = sorted(alive)
            rng.shuffle(pool)
            return self._rr_round(state, pool, 1, berger_round_count(len(pool)))
        return self._ko_round(state, alive, rng)

    def _alive(self, state: EventState) -> list[str]:
        ko = rounds_of(state, "ko")
        if not ko:
            return sorted(e.id for e in state.entries)
        out = []
        for w in winners_of(state, ko[-1].matches):     # every drawn table's 加赛 asked at once
            if w is not None and w not in state.withdrawn:     # withdrawn by the office: not drawn on
                out.append(w)
        return sorted(out)

    def _ko_round(self, state: EventState, alive: list[str], rng: random.Random) -> Round:
        no = next_round_no(state)
        ko_no = len(rounds_of(state, "ko")) + 1
        done = rounds_of(state, "ko")
        # a 晋级签 holder withdrawn before its round was played (the bye unscored: winner_of is
        # None) is named as withdrawn too
        notes: list[str] = withdrawn_notes(state, [(m.sides or [None])[0] if m.bye else winner_of(state, m)
                                                   for m in done[-1].matches]) if done else []
        byes = bye_counts(rounds_of(state, "ko"))
        bye: str | None = None
        if len(alive) % 2:
            fewest = min(byes[e] for e in alive)
            cands = [e for e in alive if byes[e] == fewest]
            bye = rng.choice(cands)
            why = "" if fewest == 0 else f"（所有人都已轮空过 {fewest} 次）"
            notes.append(f"本轮 {counted(state, len(alive))}为奇数，{shown(state, bye)}抽得晋级签（轮空），"
                         f"直接进入下一轮{why}。")
        players = [e for e in alive if e != bye]
        bal, last = first_balance(state.rounds)
        matches: list[Match] = []
        for t, (a, b) in enumerate(spread_tables(players, 2, rng, state.branch_of), start=1):
            x, y = orient(a, b, bal, last, rng)
            if state.branch_of(x) and state.branch_of(x) == state.branch_of(y):
                notes.append(f"第{t}桌{shown_list(state, (x, y))}同属一个单位（该单位人数过多，无法全部分开）。")
            matches.append(Match(state.event_id, "ko", no, "", t, (x, y)))
        if bye is not None:
            matches.append(Match(state.event_id, "ko", no, "", len(matches) + 1, (bye,), bye=True,
                                 note="晋级签"))
        remain = len(players) // 2 + (bye is not None)
        return Round(state.event_id, "ko", f"第{ko_no}轮淘汰赛（{len(alive)}进{remain}）", no,
                     tuple(matches), notes=tuple(notes),
                     plan={"kind": "ko", "alive": alive, "bye": bye})

    def _rr_round(self, state: EventState, pool: list[str], k: int, total: int) -> Round:
        no = next_round_no(state)
        matches: list[Match] = []
        notes: list[str] = []
        byes: list[str] = []
        for x, y in berger_pairs(len(pool), k):
            if y is None:
                byes.append(pool[x])
                continue
            matches.append(Match(state.event_id, "final", no, "", len(matches) + 1, (pool[x], pool[y])))
        for b in byes:
            matches.append(Match(state.event_id, "final", no, "", len(matches) + 1, (b,), bye=True,
                                 note="循环赛轮空"))
            notes.append(f"决赛循环赛共 {counted(state, len(pool))}，按贝格尔编排{shown(state, b)}本轮轮空。")
        if k == 1:
            notes.insert(0, f"决赛循环赛抽签顺序：{shown_list(state, pool)}。")
        name = "决赛" if total == 1 else f"决赛循环赛第{k}轮"
        return Round(state.event_id, "final", name, no, tuple(matches), notes=tuple(notes),
                     plan={"kind": "rr", "pool": pool, "rr_round": k, "of": total})

    # ------------------------------------------------------------------ results

    def placements(self, state: EventState) -> list[Placement]:
        """R2020-A1: round-robin order, then losers of the last knockout round (ordered by the
        tiebreak chain over the whole event), then losers of earlier rounds.  R2011-R1: a
        round's losers by absence last of it, on vacant places (``Placement.vacant``)."""
        ko = rounds_of(state, "ko")
        rr = rounds_of(state, "rr")
        tiers: list[tuple[str, list[str]]] = []
        if rr:
            tiers.append(("决赛循环赛", list(rr[0].plan["pool"])))
            top = tier_placements(state, tiers, rr)
            tiers = []
        else:
            try:
                alive = self._alive(state)
            except Waiting:       # results still missing: everyone of the last round is alive
                alive = sorted(ko[-1].entries()) if ko else sorted(e.id for e in state.entries)
            top = tier_placements(state, [("尚在比赛", alive)], state.rounds)
        placed = {p.entry for p in top}
        vacant: set[str] = set()
        for k in range(len(ko) - 1, -1, -1):
            r = ko[k]
            later = {s for rr in state.rounds if rr.round > r.round for m in rr.matches for s in m.sides}
            # a 晋级签 holder in no later round (withdrawn): as far as it got (byes_left) — with
            # the round's losers when its bye was not scored, but on a place of its own: the
            # office withdrew it, it lost no match by not coming (not vacant)
            winners = [s for s in byes_left(state, r, later, unscored=False) if s not in placed]
            losers = [s for s in byes_left(state, r, later, unscored=True) if s not in placed]
            gone: list[str] = []
            for m in r.matches:
                if m.bye:
                    continue
                if m.key not in state.results:
                    continue
                w = settled_winner(state, m)
                # R2011-R1 (the office's decision, handbook 缺席、弃权和退赛): one who lost the
                # match by not coming has no place — it stands on a vacant place, the last of its
                # round's (R2020-A1: a 三等奖 of the 6→3 round stays vacant, nobody moves up)
                absent = lost_by_absence(state, m)
                gone.extend(s for s in absent if s not in placed)
                losers.extend(s for s in m.sides if s != w and s not in placed and s not in absent)
                # a result corrected after the next round was drawn (DRAW_INPUT_CHANGED; a
                # published draw is never redrawn) leaves its new winner in no later round:
                # placed as far as the results say they got, before that round's losers
                if w and w not in later and w not in placed:
                    winners.append(w)
            if winners:
                tiers.append((f"{r.stage_name}胜者", winners))
                placed.update(winners)
            if losers:
                tiers.append((f"{r.stage_name}负者", losers))
                placed.update(losers)
            if gone:
                tiers.append((f"{r.stage_name}弃权（取消资格，名次空缺）", gone))
                placed.update(gone)
                vacant.update(gone)
        # everyone else, last (never dropped)
        tiers.append(("", sorted(e.id for e in state.entries if e.id not in placed)))
        rest = tier_placements(state, tiers, state.rounds, vacant=vacant)
        out = list(top)
        for p in rest:
            out.append(Placement(p.rank + len(top), p.entry, p.tier, p.group, p.tied, vacant=p.vacant))
        return out


FORMATS.register("knockout", "淘汰赛", "淘汰制")(Knockout())
