"""docs/spec-reference.md is generated from the code and must not drift from it."""
from __future__ import annotations

import pytest

from pipeline import specdoc
from pipeline.draw import FORMATS
from pipeline.games import GAMES
from pipeline.spec import parse_spec


def test_committed_reference_matches_code():
    committed = specdoc.DOC_PATH.read_text(encoding="utf-8")
    assert committed == specdoc.generate(), "docs/spec-reference.md is stale: run python -m pipeline.specdoc"


def test_reference_names_every_registered_name():
    text = specdoc.generate()
    for reg in (GAMES, FORMATS):
        for name in reg.names():
            assert f"`{name}`" in text


@pytest.mark.parametrize("fmt", FORMATS.names())
def test_format_example_is_a_valid_event(fmt):
    spec = parse_spec({"id": "x", "name": "例", "units": [{"id": "b01", "name": "甲"}],
                       "events": [specdoc.example_event(fmt)]})
    assert FORMATS.canonical(spec.events[0].format.type) == fmt
