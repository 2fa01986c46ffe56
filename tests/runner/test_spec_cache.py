"""The validated spec kept in the output folder (pipeline.spec.load_tournament's ``cache``):
used only for the very bytes of tournament.yaml and this code, never hiding a broken spec."""
from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from pathlib import Path

import pytest

from pipeline import lastrun
from pipeline import spec as spec_mod
from pipeline.run import RunOptions, run
from pipeline.spec import SPEC_CACHE, SpecError, keep_spec, load_tournament

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime.fromisoformat("2020-11-30T12:00:00+08:00")


@pytest.fixture
def folder(tmp_path) -> Path:
    f = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", f)
    return f


def _load_and_keep(folder: Path, out_parent: Path):
    t = load_tournament(folder, cache_parent=out_parent)
    out = out_parent / t.spec.id
    out.mkdir(parents=True, exist_ok=True)
    keep_spec(t, out)
    return t


def _cache(folder: Path, out_parent: Path) -> Path:
    return out_parent / load_tournament(folder).spec.id / SPEC_CACHE


def test_a_kept_spec_is_the_parsed_spec(folder, tmp_path):
    out_parent = tmp_path / "out"
    cache = _cache(folder, out_parent)
    first = _load_and_keep(folder, out_parent)
    assert not first.spec_cached and cache.is_file()
    again = load_tournament(folder, cache_parent=out_parent)
    assert again.spec_cached
    assert again.spec == first.spec == load_tournament(folder).spec
    assert dataclasses.asdict(again.spec) == dataclasses.asdict(first.spec)
    assert again.spec.events[0].format.options == first.spec.events[0].format.options
    assert again.secret == first.secret and again.folder == first.folder
    assert [e.id for e in again.spec.events] == [e.id for e in first.spec.events]
    assert again.spec.unit(first.spec.units[0].id) == first.spec.units[0]


def test_an_edited_spec_is_parsed_again(folder, tmp_path):
    out_parent = tmp_path / "out"
    _load_and_keep(folder, out_parent)
    yaml_path = folder / "tournament.yaml"
    text = yaml_path.read_text(encoding="utf-8")
    old_name = load_tournament(folder).spec.name
    assert f"\nname: {old_name}\n" in text
    yaml_path.write_text(text.replace(f"\nname: {old_name}\n", f"\nname: {old_name}（修订）\n", 1), encoding="utf-8")
    t = load_tournament(folder, cache_parent=out_parent)
    assert not t.spec_cached and t.spec.name == old_name + "（修订）"


def test_a_broken_spec_is_never_hidden_by_the_cache(folder, tmp_path):
    out_parent = tmp_path / "out"
    _load_and_keep(folder, out_parent)
    spec_id = load_tournament(folder).spec.id      # the id line stays: the kept spec is looked up
    (folder / "tournament.yaml").write_text(f"id: {spec_id}\nname: [unclosed\n", encoding="utf-8")
    with pytest.raises(SpecError):
        load_tournament(folder, cache_parent=out_parent)


def test_the_secret_is_checked_with_a_kept_spec(folder, tmp_path):
    out_parent = tmp_path / "out"
    t = _load_and_keep(folder, out_parent)
    (folder / t.spec.secret_file).unlink()
    with pytest.raises(SpecError) as e:
        load_tournament(folder, cache_parent=out_parent)
    assert e.value.key == "secret_file"


def test_other_code_means_no_cache(folder, tmp_path, monkeypatch):
    out_parent = tmp_path / "out"
    _load_and_keep(folder, out_parent)
    monkeypatch.setattr(lastrun, "code_hash", lambda: "another version of the code")
    assert not load_tournament(folder, cache_parent=out_parent).spec_cached


@pytest.mark.parametrize("body", [b"", b"not a key\n", b"garbage", None])
def test_a_damaged_cache_is_parsed_again(folder, tmp_path, body):
    out_parent = tmp_path / "out"
    cache = _cache(folder, out_parent)
    t = _load_and_keep(folder, out_parent)
    if body is None:        # the right key, then a truncated pickle (a run killed while writing)
        data = cache.read_bytes()
        cache.write_bytes(data[: len(t.spec_key) + 1 + 20])
    else:
        cache.write_bytes(body)
    again = load_tournament(folder, cache_parent=out_parent)
    assert not again.spec_cached and again.spec == t.spec


def test_league_run_keeps_the_spec_and_a_rerun_does_not_parse_it(folder, tmp_path, monkeypatch):
    out_parent = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    t = load_tournament(folder)
    cache = out_parent / t.spec.id / SPEC_CACHE
    assert cache.is_file() and cache.read_bytes().split(b"\n", 1)[0] == spec_mod.spec_key(
        (folder / "tournament.yaml").read_bytes()).encode()
    parsed = []
    real = spec_mod.parse_spec
    monkeypatch.setattr(spec_mod, "parse_spec", lambda *a, **k: (parsed.append(1), real(*a, **k))[1])
    # a new file in the inbox: not an unchanged night, so the run loads the spec
    extra = folder / "inbox" / "readme.txt"
    extra.write_text("不是工作簿", encoding="utf-8")
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    assert parsed == [] and report.received_new == 1


def test_the_kept_spec_is_byte_identical_from_process_to_process(folder, tmp_path):
    """An unchanged night leaves the output folder byte-identical (tests/hardening): the kept
    spec too, whatever each process's hash seed, and without the lookups a run remembers."""
    import os
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; from pipeline.spec import load_tournament, keep_spec; "
            "p = Path(sys.argv[2]); t = load_tournament(Path(sys.argv[1]), cache_parent=p); "
            "t.spec.event(sys.argv[3]); t.spec.unit(t.spec.units[0].id); "
            "(p / t.spec.id).mkdir(parents=True); keep_spec(t, p / t.spec.id)")
    kept = []
    spec = load_tournament(folder).spec
    for seed, asked in (("1", spec.events[0].name), ("2", spec.events[-1].id), ("3", "没有这个项目")):
        subprocess.run([sys.executable, "-c", code, str(folder), str(tmp_path / seed), asked], check=True,
                       env=dict(os.environ, PYTHONHASHSEED=seed))
        kept.append(_cache(folder, tmp_path / seed).read_bytes())
    assert kept[0] == kept[1] == kept[2]
    t = load_tournament(folder, cache_parent=tmp_path / "1")
    assert t.spec_cached and "_events_found" not in t.spec.__dict__ and t.spec == spec
    assert t.spec.event(spec.events[0].name) == spec.events[0]


def test_a_rerun_with_its_kept_spec_does_not_import_pydantic(folder, tmp_path):
    """The spec's classes need pydantic only to validate: a rerun that takes the kept spec
    (every night without an edited tournament.yaml) is spared its import (~120 ms with the
    schema building, the largest part of a one-changed night's start)."""
    import subprocess
    import sys

    out_parent = tmp_path / "out"
    _load_and_keep(folder, out_parent)
    code = ("import sys; from pathlib import Path; from pipeline.spec import load_tournament; "
            "t = load_tournament(Path(sys.argv[1]), cache_parent=Path(sys.argv[2])); "
            "assert t.spec_cached and t.spec.events[0].format.type; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core', 'yaml')))")
    done = subprocess.run([sys.executable, "-c", code, str(folder), str(out_parent)], check=True,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "[]"


def test_a_spec_that_cannot_be_kept_does_not_stop_the_run(folder, tmp_path):
    out_parent = tmp_path / "out"
    blocker = out_parent / load_tournament(folder).spec.id     # a file where the output folder goes
    out_parent.mkdir()
    blocker.write_text("x", encoding="utf-8")
    t = load_tournament(folder, cache_parent=out_parent)
    keep_spec(t, blocker)         # nothing raised, nothing written
    assert blocker.read_text(encoding="utf-8") == "x" and not load_tournament(folder, cache_parent=out_parent).spec_cached


def test_a_whole_night_with_its_kept_spec_does_not_import_pydantic(folder, tmp_path):
    """Not only the spec's loading: the whole batch of a night with drawn rounds (the quick
    path defeated) imports no pydantic — terms_at_draw imported it for nothing, ~45 ms of
    a one-changed night at 50 units."""
    first = run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    assert first.state.events and any(es.rounds for es in first.state.events.values())
    assert _a_nights_imports(folder, tmp_path / "out", ("pydantic", "pydantic_core")) == []


def _a_nights_imports(folder: Path, out_parent: Path, packages: tuple[str, ...]) -> list[str]:
    """The modules of ``packages`` (and their submodules) a night imports: a run (past the
    quick check) in a fresh process, after a first run in this one."""
    import subprocess
    import sys

    (out_parent / load_tournament(folder).spec.id / lastrun.LAST_RUN).unlink()
    code = ("import sys, datetime as dt; from pathlib import Path; from pipeline.run import RunOptions, run; "
            "r = run(RunOptions(folder=Path(sys.argv[1]), out_parent=Path(sys.argv[2]), pdf=False, "
            "now=dt.datetime.fromisoformat(sys.argv[3]))); assert not r.unchanged and r.entries; "
            f"print(sorted(m for m in sys.modules if any(m == p or m.startswith(p + '.') for p in {packages!r})))")
    done = subprocess.run([sys.executable, "-c", code, str(folder), str(out_parent), NOW.isoformat()], check=True,
                          capture_output=True, text=True, cwd=ROOT)
    import ast

    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


def test_a_simplified_leagues_night_does_not_load_the_script_converter(folder, tmp_path):
    """OpenCC (its module and a converter: ~15 ms) is loaded when a text is first converted:
    a Simplified league's night with drawn rounds converts nothing and loads neither — the
    unit word 分工会 of the cross-unit note was converted, for every night.  Nor does a league
    of fixed quotas import fractions (with decimal and numbers, ~6 ms; a ratio quota's)."""
    first = run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    assert first.state.tournament.spec.script == "simplified" and first.state.entries
    assert _a_nights_imports(folder, tmp_path / "out", ("opencc", "fractions")) == []


def test_a_night_that_changes_no_event_imports_no_format_game_or_tiebreak(folder, tmp_path):
    """The registries import their modules when first asked (``Registry(load=...)``): a night
    whose events are all kept from the last run (their states from the ledger's cache) and
    whose documents are keyed on them — the notice too, which described every format and
    game — asks no format, game or tiebreak anything, and imports none of them (~10 ms of a
    one-changed night at 50 units); nor the PDF module (a night without PDFs) or html (the
    SVG escapes with markupsafe)."""
    first = run(RunOptions(folder=folder, out_parent=tmp_path / "out", now=NOW, pdf=False))
    assert first.state.events and any(es.rounds for es in first.state.events.values())
    modules = ("pipeline.draw.knockout", "pipeline.draw.swiss", "pipeline.draw.round_robin", "pipeline.games.xiangqi",
               "pipeline.games.go", "pipeline.score.tiebreaks", "pipeline.render.pdf", "html")
    assert _a_nights_imports(folder, tmp_path / "out", modules) == []
