"""What the entry columns of a unit's registration form check (dropdowns, input checks), as
plain data: made where openpyxl is not imported (``run.render_all`` hands it to the
returned copies' workers), written by :func:`pipeline.xlsx.registration.add_entry_validations`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..spec import TournamentSpec, UnitSpec


def branch_quota(event, unit) -> int | None:
    """:func:`pipeline.xlsx.registration.branch_quota` (the validator's rule)."""
    from ..validate import quota_for   # the validator owns the rule; imported late (stage order)

    return quota_for(event, unit)


def team_no_limit(spec: "TournamentSpec", unit: "UnitSpec") -> int | None:
    """The largest 队号 the form's data validation accepts: the most pairs/teams ``unit`` may
    enter in any one pair/team event (:func:`branch_quota`, the number the header block
    states; teams are numbered 1, 2, 3… within each event).  ``None`` (no upper bound) when
    such an event is open: the pipeline takes any number of teams and the captain may insert
    rows, so no fixed cap (20 before, or the rows offered) would be right.  At least 1 (a
    branch with no team quota still gets a usable check; its entries are QUOTA_EXCEEDED).
    Individual events do not count: their 队号 is not read.
    """
    limits = [branch_quota(e, unit) for e in spec.events if e.is_team]
    if any(n is None for n in limits):
        return None
    return max([1] + limits)  # type: ignore[operator]


@dataclass(frozen=True)
class EntryChecks:
    """What the dropdowns and input checks of a unit's form hold (small and picklable: the
    returned copy of a form that lost them puts them back, :func:`pipeline.xlsx.registration.restore_entry_validations`)."""

    events: tuple[str, ...]
    pickup_points: tuple[str, ...] = ()
    team_events: bool = False
    team_max: int | None = None
    unit_word: str = "单位"
    script: str = "simplified"


def entry_checks(spec: "TournamentSpec", unit: "UnitSpec") -> EntryChecks:
    """The checks of ``unit``'s form."""
    teams = any(e.is_team for e in spec.events)
    return EntryChecks(tuple(e.name for e in spec.events), tuple(spec.pickup_points), teams,
                       team_no_limit(spec, unit) if teams else None, spec.unit_word or "单位", spec.script)


