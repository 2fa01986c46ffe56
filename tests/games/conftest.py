"""Fixtures for the game tests."""
import pytest

from games_helpers import Sheet


@pytest.fixture
def sheet():
    return Sheet
