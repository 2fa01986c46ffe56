"""Packages whose names load from their submodules on first use (PEP 562).

``pipeline.xlsx`` (openpyxl, XlsxWriter: a seventh of a second) and ``pipeline.ingest`` (the
mail parser behind ``.eml``) offer their names at package level without importing every
submodule: a night that needs none of them does not pay for their imports.
"""
from __future__ import annotations

import importlib
import sys
from typing import Any, Callable


def lazy_exports(package: str, module_of: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: name ``n`` is imported from submodule
    ``module_of[n]`` when first asked for and then kept in the package's namespace.

    >>> # in pipeline/xlsx/__init__.py:  __getattr__, __dir__ = lazy_exports(__name__, {"put": "common"})
    """
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(module_of))

    return __getattr__, __dir__
