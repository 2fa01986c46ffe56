"""Fixtures for the Excel writers (tests/xlsx)."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pipeline.spec import Tournament
from xlsx_fixtures import SPEC, make_tournament


@pytest.fixture
def spec_dict() -> dict:
    return copy.deepcopy(SPEC)


@pytest.fixture
def tournament(tmp_path: Path) -> Tournament:
    return make_tournament(tmp_path)
