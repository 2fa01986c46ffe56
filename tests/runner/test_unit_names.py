"""The ledger remembers each unit's names (with_former_unit_names), as it does the events'."""
from __future__ import annotations

from pipeline.run import with_former_unit_names
from pipeline.spec import Tournament, TournamentSpec, validated
from pipeline.store import Ledger


def _t(tmp_path, b01):
    spec = validated(TournamentSpec, {"id": "t", "name": "赛", "units": [
        {"id": "b01", **b01}, {"id": "b02", "name": "行政第二分工会", "short": "行政二"}],
        "events": [{"id": "xiangqi", "name": "象棋", "game": "xiangqi", "format": {"type": "swiss"}}]})
    return Tournament(tmp_path, spec, b"0123456789abcdef0123")


def test_a_renamed_unit_keeps_its_former_names_and_the_rename_is_said_once(tmp_path):
    """行政一 → 行政壹 mid-league: the published tables take the new name (the office's
    correction) and say so once (UNIT_RENAMED, info); the sheets handed out before still
    name 行政一1队, so the former full and short names are kept (UnitSpec.former_names)."""
    with Ledger(tmp_path / "out") as ledger:
        t, notes = with_former_unit_names(_t(tmp_path, {"name": "行政第一分工会", "short": "行政一"}), ledger)
        assert notes == [] and t.spec.unit("b01").former_names == []
        renamed = _t(tmp_path, {"name": "行政一分工会", "short": "行政壹"})
        t, notes = with_former_unit_names(renamed, ledger)
        assert [(i.code, i.severity.value, i.branch) for i in notes] == [("UNIT_RENAMED", "info", "b01")]
        assert notes[0].message.startswith("单位简称由 行政一 改为 行政壹，已公布的表格按新名称显示")
        assert t.spec.unit("b01").former_names == ["行政第一分工会", "行政一"]
        assert t.spec.unit("b02").former_names == []
        t, notes = with_former_unit_names(renamed, ledger)      # the next night: not said again
        assert notes == [] and t.spec.unit("b01").former_names == ["行政第一分工会", "行政一"]


def test_a_name_another_unit_has_now_is_no_former_name(tmp_path):
    with Ledger(tmp_path / "out") as ledger:
        with_former_unit_names(_t(tmp_path, {"name": "行政第一分工会", "short": "行政一"}), ledger)
        spec = validated(TournamentSpec, {"id": "t", "name": "赛", "units": [
            {"id": "b01", "name": "行政第一分工会", "short": "行政二"}, {"id": "b02", "name": "行政第二分工会", "short": "行政一"}],
            "events": [{"id": "xiangqi", "name": "象棋", "game": "xiangqi", "format": {"type": "swiss"}}]})
        t, _ = with_former_unit_names(Tournament(tmp_path, spec, b"0123456789abcdef0123"), ledger)
        assert t.spec.unit("b01").former_names == [] and t.spec.unit("b02").former_names == []
