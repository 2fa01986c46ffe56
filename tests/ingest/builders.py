"""Fixture builders: an in-memory Tournament and contract-shaped registration workbooks."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Iterable

import openpyxl

from pipeline import layout as L
from pipeline.spec import SpecError, Tournament, TournamentSpec, parse_spec, validated

SECRET = b"test-secret-0123456789abcdef"


def spec_dict(**over: Any) -> dict:
    """A T2020-like spec: four events (象棋 2, 跳棋 2, 双升 2 pairs, 斗地主 2), three branches."""
    d: dict[str, Any] = {
        "id": "t2020-test",
        "name": "第四届教职工棋牌联赛",
        "units": [
            {"id": "b1", "name": "行政第一分工会", "short": "行政一", "members": 60},
            {"id": "b2", "name": "机关第二分工会", "short": "机关二", "members": 120},
            {"id": "b3", "name": "后勤分工会", "short": "后勤", "members": 30},
        ],
        "events": [
            {"id": "xiangqi", "name": "象棋", "game": "xiangqi", "format": {"type": "knockout"},
             "quota": {"rule": "fixed", "per_branch": 2}},
            {"id": "checkers", "name": "跳棋", "game": "checkers", "format": {"type": "knockout"},
             "quota": {"rule": "fixed", "per_branch": 2}},
            {"id": "shuangsheng", "name": "双升", "game": "shengji", "team_size": 2,
             "format": {"type": "knockout"}, "quota": {"rule": "fixed", "per_branch": 2}},
            {"id": "doudizhu", "name": "斗地主", "game": "doudizhu", "format": {"type": "tables_of_three"},
             "quota": {"rule": "fixed", "per_branch": 2}},
        ],
        "one_event_per_person": True,
    }
    d.update(over)
    return d


def tournament(folder: Path | None = None, **over: Any) -> Tournament:
    """A Tournament built in memory.  Uses parse_spec; while the game/format registries are
    still empty (other packages not loaded) the registry check is skipped."""
    raw = spec_dict(**over)
    try:
        spec = parse_spec(raw)
    except SpecError as e:
        if "unknown" not in str(e):
            raise
        spec = validated(TournamentSpec, raw)
    return Tournament(folder or Path("."), spec, SECRET)


HEADER_BLOCK = 3   # rows above the table's header row


def write_registration(path: Path, t: Tournament, branch: str, rows: Iterable[dict[str, Any]],
                       columns: list[str] | None = None, meta: dict[str, Any] | None = None,
                       token: str | None = None, hidden_rows: Iterable[int] = ()) -> Path:
    """Write a registration workbook: header block, table (header row 4), hidden ``_meta``.

    ``rows`` are label → value dicts; ``columns`` overrides the header labels/order.
    """
    columns = columns or list(L.REG_COLUMNS)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = L.REG_SHEET
    unit = t.spec.unit(branch)
    ws["A1"] = t.spec.name + " 报名表"
    ws["A2"] = f"单位：{unit.name if unit else branch}"
    ws["A3"] = "请从第 5 行起填写，每人一行"
    for j, lab in enumerate(columns, 1):
        ws.cell(HEADER_BLOCK + 1, j, lab)
    for i, row in enumerate(rows, 1):
        r = HEADER_BLOCK + 1 + i
        for j, lab in enumerate(columns, 1):
            if lab == "序号":
                ws.cell(r, j, i)
            elif lab in row:
                ws.cell(r, j, row[lab])
    for r in hidden_rows:
        ws.row_dimensions[r].hidden = True
    m = wb.create_sheet(L.META_SHEET)
    m.sheet_state = "hidden"
    md = {L.META_KIND: L.KIND_REGISTRATION, L.META_TOURNAMENT: t.spec.id, L.META_BRANCH: branch,
          L.META_VERSION: 1, L.META_TOKEN: t.token(branch) if token is None else token}
    md.update(meta or {})
    for i, (k, v) in enumerate(md.items(), 1):
        if v is None:
            continue
        m.cell(i, 1, k)
        m.cell(i, 2, v)
    wb.save(path)
    return path


def person(event: str, name: str, staff: Any = None, team: Any = None, **kw: Any) -> dict[str, Any]:
    """One table row as label → value."""
    d: dict[str, Any] = {"项目": event, "姓名": name}
    if staff is not None:
        d["工号"] = staff
    if team is not None:
        d["队号"] = team
    d.update(kw)
    return d


T0 = dt.datetime(2020, 11, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
