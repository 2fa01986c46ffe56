"""The registries (formats, games, tiebreaks, award schemes) import their modules when first
asked, not when their package is imported (:class:`pipeline.registry.Registry`'s ``load``)."""
from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import pipeline.registries
import pipeline.registry
from pipeline.registry import Registry, UnknownName

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", [pipeline.registry, pipeline.registries], ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def _counting() -> tuple[Registry, list[int]]:
    calls: list[int] = []

    def load():
        calls.append(1)
        r.register("swiss", "瑞士制")("S")

    r = Registry("format", load=load)
    return r, calls


@pytest.mark.parametrize("ask", [lambda r: r.get("瑞士制"), lambda r: "swiss" in r, lambda r: r.names(),
                                 lambda r: r.aliases("swiss"), lambda r: list(r.items()),
                                 lambda r: r.canonical("swiss")])
def test_every_question_loads_first_and_loads_once(ask):
    r, calls = _counting()
    assert calls == []
    ask(r)
    assert calls == [1]
    assert r.get("swiss") == "S" and r.names() == ["swiss"] and r.aliases("swiss") == ["瑞士制"] and calls == [1]


def test_an_unknown_name_is_said_after_loading():
    r, _ = _counting()
    with pytest.raises(UnknownName) as e:
        r.get("knockout")
    assert e.value.known == ["swiss"]


def test_a_load_that_raised_is_tried_again():
    tries = []

    def load():
        tries.append(1)
        if len(tries) == 1:
            raise ImportError("a module that failed to import")
        r.register("go")("G")

    r = Registry("game", load=load)
    with pytest.raises(ImportError):
        r.names()
    assert r.names() == ["go"] and len(tries) == 2


def test_packages_import_their_modules_when_their_registry_is_asked():
    code = ("import sys\n"
            "import pipeline.draw, pipeline.games, pipeline.score, pipeline.score.base, pipeline.draw.base\n"
            "mods = lambda: sorted(m for m in ('pipeline.draw.swiss', 'pipeline.games.go', 'pipeline.score.tiebreaks',\n"
            "                                  'pipeline.score.awards') if m in sys.modules)\n"
            "print(mods())\n"
            "from pipeline.draw import FORMATS; from pipeline.games import GAMES\n"
            "from pipeline.score import AWARD_SCHEMES, TIEBREAKS\n"
            "print('瑞士制' in FORMATS, GAMES.get('围棋').seats, TIEBREAKS.canonical('索伯分'), 'top_n' in AWARD_SCHEMES)\n"
            "from pipeline.score import TIEBREAK_SCALE\n"
            "print(mods(), TIEBREAK_SCALE['sonneborn_berger'])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    before, answers, after = done.stdout.strip().splitlines()
    assert before == "[]"
    assert answers == "True 2 sonneborn_berger True"
    assert after.startswith("['pipeline.draw.swiss', 'pipeline.games.go', 'pipeline.score.awards', "
                            "'pipeline.score.tiebreaks']")


def test_a_name_written_in_traditional_characters_is_its_simplified_alias():
    """A ``script: traditional`` league's clerk writes 淘汰賽 (and 分組積分編排賽): 没有赛制
    “淘汰賽” although game names in Traditional (中國象棋) were accepted."""
    from pipeline.draw import FORMATS

    assert FORMATS.canonical("淘汰賽") == FORMATS.canonical("淘汰赛") == "knockout"
    assert FORMATS.canonical("分組積分編排賽") == "groups_standings"
    assert "淘汰賽" in FORMATS and "淘汰战" not in FORMATS
    with pytest.raises(UnknownName):
        FORMATS.canonical("淘汰戰")
