"""Bridge pairs tournament as a round robin of pairs (R2015-F1, 桥牌双人赛).

Every pair meets every other pair once (Berger tables, Howell-style: a pair's
direction changes from round to round).  Each round all tables play the same set of
``boards_per_round`` boards (default 3, barometer style), so results can be compared
across the room: round k plays boards (k−1)·b+1 … k·b, recorded in ``plan["boards"]``.
``sides`` = (南北 pair, 东西 pair).  An odd number of pairs gives one sit-out per round.
"""
from __future__ import annotations

from typing import Any

from . import FORMATS
from .base import EventState
from .common import check_int, check_known, first_problem
from .round_robin import RoundRobin


class PairsMovement(RoundRobin):
    """R2015-F1: pairs round robin with the same boards at every table of a round."""

    name = "pairs_movement"
    title = "桥牌双人赛"
    seats = 2
    stage = "pairs"
    OPTIONS = ("boards_per_round",)
    #: the options as the spec reference documents them (pipeline.specdoc)
    OPTION_DOCS = {
        "boards_per_round": "每轮打几副牌（默认 3，1 至 36）；各桌每轮打同样的牌，以便比较成绩",
    }

    def check_options(self, options: dict[str, Any]) -> str | None:
        """None, or a message naming the bad option (``boards_per_round`` 1..36)."""
        return first_problem(check_known(options, self.OPTIONS, self.name),
                             check_int(options, "boards_per_round", 1, 36))

    def describe(self, options: dict[str, Any], game: Any = None) -> str:
        """Chinese paragraph for the notice."""
        b = options.get("boards_per_round", 3)
        return (f"采用双人赛：各对抽签确定序号后按循环编排，每轮与一对新的对手比赛，"
                f"每轮 {b} 副牌，全场同一轮打相同的牌（便于比较成绩），每对的南北、东西方向逐轮轮换；"
                f"对数为奇数时每轮有一对轮空。按累计得分排名。")

    def stage_name(self, k: int, total: int) -> str:
        return f"双人赛第{k}轮"

    def plan(self, state: EventState, order: list[str], k: int, total: int) -> dict[str, Any]:
        """Berger memory plus the board numbers of round ``k`` (same at every table)."""
        b = state.options.get("boards_per_round", 3)
        return {"kind": "rr", "order": order, "rr_round": k, "of": total,
                "boards": list(range((k - 1) * b + 1, k * b + 1)), "sides": ["南北", "东西"]}


FORMATS.register("pairs_movement", "桥牌双人赛", "双人赛", "howell")(PairsMovement())
