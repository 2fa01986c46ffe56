"""tournament.yaml is read with libyaml's safe loader when PyYAML has it: same data as
PyYAML's pure-Python safe loader, and a syntax error is still a located SpecError."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from pipeline.spec import SpecError, load_tournament

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p for p in (ROOT / "sample_sheets").iterdir() if (p / "tournament.yaml").is_file())


@pytest.mark.parametrize("folder", SAMPLES, ids=lambda p: p.name)
def test_both_loaders_read_every_sample_alike(folder):
    text = (folder / "tournament.yaml").read_text(encoding="utf-8")
    fast = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert fast == yaml.safe_load(text)
    assert load_tournament(folder).spec.id


def test_a_yaml_syntax_error_is_located(tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(SAMPLES[0], folder)
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "\nbroken: [unclosed\n", encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_tournament(folder)
    assert "tournament.yaml" in str(e.value) and "line" in str(e.value)


def test_yaml_tags_that_build_objects_are_refused(tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(SAMPLES[0], folder)
    spec = folder / "tournament.yaml"
    spec.write_text("!!python/object/apply:os.system ['echo hi']\n", encoding="utf-8")
    with pytest.raises(SpecError):
        load_tournament(folder)


@pytest.mark.parametrize("folder", SAMPLES, ids=lambda p: p.name)
def test_event_lookup_remembers_the_same_answers(folder):
    """TournamentSpec.event: by id or name, spaces ignored, either script — asked twice,
    answered alike (the second time from its memo)."""
    from pipeline.text import convert

    spec = load_tournament(folder).spec
    for ev in spec.events:
        keys = [ev.id, ev.name, " ".join(ev.name), convert(ev.name, "traditional")]
        for k in keys:
            assert spec.event(k) is ev and spec.event(k) is ev, k
    assert spec.event("没有这个项目") is None and spec.event("没有这个项目") is None
