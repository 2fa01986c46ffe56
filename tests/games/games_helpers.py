"""Test helpers for tests/games: builders for result rows: a Round of N tables and rows with A1 cells (column per label)."""
from __future__ import annotations

from typing import Any

from pipeline.games.base import ResultRow
from pipeline.model import CellRef, Match, Round


def make_match(table: int = 1, seats: int = 2, event: str = "ev", rnd: int = 1) -> Match:
    return Match(event=event, stage="s", round=rnd, group="A", table=table,
                 sides=tuple(f"e{table}{chr(97 + i)}" for i in range(seats)))


def make_row(match: Match, values: dict[str, Any], labels: list[str] | None = None) -> ResultRow:
    """A row on sheet 成绩, line table+1; columns D, E, F … in ``labels`` order."""
    labels = labels or list(values)
    cells = {l: CellRef("r.xlsx", "成绩", f"{chr(68 + i)}{match.table + 1}") for i, l in enumerate(labels)}
    return ResultRow(match=match, values=dict(values), cells=cells)


def make_round(matches: list[Match], **plan: Any) -> Round:
    return Round(event="ev", stage="s", stage_name="第一阶段", round=1, matches=tuple(matches), plan=plan)


class Sheet:
    """One game's sheet: ``sheet.parse(values, …)`` for one row, ``parse_rows`` for many."""

    def __init__(self, game: Any, options: dict[str, Any] | None = None) -> None:
        self.game = game
        self.options = options or {}
        self.labels = [c.label for c in game.columns(self.options)]

    def row(self, values: dict[str, Any], table: int = 1) -> ResultRow:
        return make_row(make_match(table, self.game.seats), values, self.labels)

    def parse_rows(self, rows: list[ResultRow], points: dict[str, int] | None = None, details=None,
                   rnd: Round | None = None):
        rnd = rnd or make_round([r.match for r in rows])
        return self.game.parse_round(rnd, rows, points or {}, self.options, details)

    def parse(self, values: dict[str, Any], points: dict[str, int] | None = None, details=None):
        row = self.row(values)
        if details is not None:
            details = {row.match.key: details}
        return self.parse_rows([row], points, details)

