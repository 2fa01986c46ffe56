"""The interface every game implements: the referee's result columns, and turning one
round's filled rows into :class:`~pipeline.model.MatchResult` objects.

Games are pure: rows come in as plain dicts (column label → cell value, already read
from the workbook by ``ingest``), with the A1 reference of each cell for messages.
Bad values give ``RESULT_INVALID`` issues at the cell; a row left empty is simply
"not yet played" (no result, no issue).
"""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, Sequence

from ..issues import Issue
from ..model import CellRef, Match, MatchResult, Round

#: True while the runner reads sheets again aside as the versions before a check refusing
#: results were added read them (:meth:`pipeline.run.EventRunner.accepted_before`): a game
#: then skips the checks it lists here — 斗地主's mod-3 rule of a table's totals (R2020-D3,
#: R2011-D1; :func:`pipeline.games.doudizhu.changes_possible`).  Never set for a reading that
#: counts: the runner only compares what it reads so with what an earlier version published
#: (a finished event's places, a published draw's inputs), and new results are refused.
AS_ACCEPTED_BEFORE: ContextVar[bool] = ContextVar("as_accepted_before", default=False)


@dataclass(frozen=True)
class ResultColumn:
    """One result column of the 成绩 sheet.  ``kind`` drives the Excel data validation."""

    label: str
    kind: Literal["choice", "int", "text"] = "int"
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    help: str = ""
    required: bool = True
    #: for an ``int`` column counting points: the unit a referee may write after the number
    #: (:data:`pipeline.games.common.POINTS_UNIT`, 分: 斗地主 “-3分”), read as the number
    unit: str = ""


@dataclass(frozen=True)
class ResultRow:
    """One filled row of a result sheet: the match it belongs to and its values."""

    match: Match
    values: dict[str, Any]                 # column label → value (None when blank)
    cells: dict[str, CellRef] = field(default_factory=dict)   # column label → location

    def at(self, label: str) -> CellRef:
        return self.cells.get(label, CellRef())

    def blank(self, labels: Sequence[str]) -> bool:
        return all(self.values.get(l) in (None, "") for l in labels)


@dataclass(frozen=True)
class DetailSheet:
    """An optional hand-by-hand sheet (card games): its name and columns."""

    name: str
    columns: tuple[ResultColumn, ...]


@dataclass(frozen=True)
class NoticeTable:
    """A table the notice prints under an event's rules of play (比赛办法), as the client's
    document has it: T2016's 级差计分表 (R2016-S1).  A game may give them with
    ``notice_tables(options, points) -> list[NoticeTable]`` (optional: most games have none);
    the cells are plain strings (``\\n`` breaks a line in a cell), the first column the rows'
    labels."""

    caption: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


class Game(Protocol):
    id: str
    title: str                      # Chinese name
    seats: int                      # 2 or 3 sides per table
    #: players on each side (2 for a partnership game: 掼蛋, 桥牌, 双升, 双扣); a game
    #: without the attribute has 1 (:func:`pipeline.registries.side_size`)
    side_size: int
    default_points: dict[str, int]  # win/draw/loss/bye/forfeit_win/forfeit_loss
    default_tiebreaks: tuple[str, ...]

    def columns(self, options: dict[str, Any]) -> list[ResultColumn]:
        """The result columns a referee fills (after 轮次/组别/桌号/sides)."""

    def detail(self, options: dict[str, Any]) -> DetailSheet | None:
        """The optional detail sheet, if the game has one."""

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any],
                    details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """Results for the rows that are filled, and every problem found.
        ``details`` maps Match.key → detail-sheet rows for that table, if any."""
