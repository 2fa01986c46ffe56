"""How the package is installed: an editable install (the README's ``pip install -e .``) is a
plain path in a ``.pth`` file, not setuptools' import hook, which every ``league`` command
paid for in Python's start-up (about 11 ms of an unchanged night's 30); a wheel
(``pip install .``) carries the templates."""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_project_folder_is_the_package_root():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    # with package-dir {"": "."} setuptools writes a static .pth for an editable install
    assert config["tool"]["setuptools"]["package-dir"] == {"": "."}


def test_no_editable_import_hook_was_loaded():
    hooks = [name for name in sys.modules if name.startswith("__editable__") and name.endswith("_finder")]
    assert hooks == [], f"an editable import hook slows every command's start: {hooks}"


def test_every_template_is_installed_with_a_wheel():
    """``pip install .`` (not editable) has no clone beside the package: pyproject's
    data-files put every file of ``templates/`` under ``<prefix>/share/league/templates``,
    where :func:`pipeline.templates_dir` looks (a forgotten folder would fail at rendering)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    installed: dict[str, str] = {}       # template file → the folder it is installed to
    for dest, patterns in config["tool"]["setuptools"]["data-files"].items():
        for pattern in patterns:
            for f in ROOT.glob(pattern):
                if f.is_file():
                    installed[f.relative_to(ROOT / "templates").as_posix()] = dest
    templates = {f.relative_to(ROOT / "templates").as_posix() for f in (ROOT / "templates").rglob("*") if f.is_file()}
    assert templates - set(installed) == set()
    for name, dest in installed.items():     # each in its own folder under share/league/templates
        assert dest == "/".join(["share/league/templates", *name.split("/")[:-1]])


def test_templates_are_found_beside_the_package_else_under_the_prefix(monkeypatch):
    import pipeline

    assert Path(pipeline.templates_dir()) == ROOT / "templates"
    monkeypatch.setattr(pipeline._os.path, "isdir", lambda p: False)
    assert Path(pipeline.templates_dir()) == Path(sys.prefix) / "share" / "league" / "templates"
