"""Budget table (R2011-B1, R2015-B1): the spec's items (quantity × unit price) plus
prize money computed from each event's awards, with totals per funding source.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from . import AWARD_SCHEMES

if TYPE_CHECKING:
    from ..spec import EventSpec, TournamentSpec


@dataclass(frozen=True)
class BudgetRow:
    """One budget line; ``kind`` is ``item`` (from the spec) or ``prize`` (computed)."""

    name: str
    quantity: int
    unit: str
    unit_price: int
    total: int
    source: str = ""
    kind: str = "item"
    event: str = ""


@dataclass(frozen=True)
class BudgetTable:
    rows: tuple[BudgetRow, ...]
    by_source: dict[str, int] = field(default_factory=dict)   # source ("" = unspecified) → yuan
    total: int = 0


def _group_count(ev: "EventSpec") -> int:
    """Number of groups of a grouped format, from its options (``groups`` or
    ``group_count``); 1 otherwise."""
    opts = ev.format.options
    for key in ("groups", "group_count"):
        v = opts.get(key)
        if isinstance(v, int) and v > 0:
            return v
        if isinstance(v, list) and v:
            return len(v)
    return 1


def award_counts(ev: "EventSpec") -> dict[str, int]:
    """How many of each award an event gives, from its award scheme (``rest`` awards
    are not counted: their number depends on the entries)."""
    if ev.awards.scheme not in AWARD_SCHEMES:
        return {}
    return AWARD_SCHEMES.get(ev.awards.scheme).counts(ev.awards, _group_count(ev))


def budget_table(spec: "TournamentSpec", award_count_override: Mapping[tuple[str, str], int] | None = None
                 ) -> BudgetTable:
    """R2011-B1: items ``quantity × unit_price`` from ``spec.budget``, then one prize row
    per event and priced award (``AwardSpec.prizes[award]`` × number of such awards),
    funded from ``spec.prize_budget_source``; totals per source (R2015-B1: 分工会活动费
    vs 文体活动费).  ``award_count_override[(event id, award)]`` replaces a count (e.g.
    participation awards once the entries are known).

    For T2011: 20×10 + 5×40 + 2×(300+200+100) = 1600.
    """
    override = dict(award_count_override or {})
    rows: list[BudgetRow] = [BudgetRow(b.name, b.quantity, b.unit, b.unit_price, b.total, b.source)
                             for b in spec.budget]
    for ev in spec.events:
        counts = award_counts(ev)
        for award, price in ev.awards.prizes.items():
            n = override.get((ev.id, award), counts.get(award, 0))
            if n and price:
                rows.append(BudgetRow(f"{ev.name} {award}奖金", n, "名", price, n * price,
                                      spec.prize_budget_source, "prize", ev.id))
    by_source: dict[str, int] = {}
    for r in rows:
        by_source[r.source] = by_source.get(r.source, 0) + r.total
    return BudgetTable(tuple(rows), by_source, sum(r.total for r in rows))
