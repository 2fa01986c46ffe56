"""How the package is installed: an editable install (the README's ``pip install -e .``) is a
plain path in a ``.pth`` file, not setuptools' import hook, which every ``league`` command
paid for in Python's start-up (about 11 ms of an unchanged night's 30)."""
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
