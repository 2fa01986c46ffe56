"""Import openpyxl without NumPy, and without Pillow until a workbook has pictures.

openpyxl imports NumPy when it is installed (``openpyxl.compat.numbers``), only so that a
cell accepts NumPy scalars as numbers.  The pipeline never gives openpyxl a NumPy value
(cells get ``str``, ``int``, ``float``, ``date`` and ``None``), yet the import costs every
process that writes a workbook 80–90 ms, more than the rest of openpyxl's import — a
fifth of a night with one new registration.  NumPy is installed beside the project
(pandas needs it), so each module that imports openpyxl imports this module first::

    from . import _no_numpy  # noqa: F401  (before openpyxl)

While openpyxl is imported, ``import numpy`` fails; afterwards NumPy imports as usual for
whoever needs it.  Where openpyxl or NumPy is already imported, nothing changes.

Pillow the same way (installed for WeasyPrint; ~15 ms of openpyxl's import, on the path of
a night's returned copies): openpyxl needs it only to keep the pictures of a workbook it
loads, so :func:`keep_pictures` gives it Pillow before a workbook with pictures is loaded
(:func:`pipeline.xlsx.returned.write_returned_copy`).  Without that, openpyxl would drop
them.

openpyxl's built-in named styles too (``openpyxl.styles.builtins``: 48 styles parsed from XML
at import, 8–14 ms of openpyxl's import, again on the path of a night's returned copies):
openpyxl looks them up only for a workbook that has no named style at all or when a cell's
style is set by name, so :class:`_BuiltinStyles` parses them on the first lookup.
"""
from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Mapping


#: what openpyxl is imported without (each unless it is imported already)
HIDDEN = ("numpy", "PIL")


#: the module of openpyxl's built-in named styles, put off until a style is looked up
BUILTINS = "openpyxl.styles.builtins"


class _BuiltinStyles(Mapping):
    """openpyxl's ``styles`` (name → built-in ``NamedStyle``), imported from
    ``openpyxl.styles.builtins`` on the first lookup.  The two openpyxl modules that use it
    (``stylesheet``, ``styleable``) bind the name at their import, so this object stands in
    for the dict there; everything else gets the real module once it is imported."""

    def __init__(self, stand_in: types.ModuleType):
        self._stand_in = stand_in
        self._styles: dict | None = None

    def _real(self) -> dict:
        if self._styles is None:
            if sys.modules.get(BUILTINS) is self._stand_in:
                del sys.modules[BUILTINS]
            self._styles = importlib.import_module(BUILTINS).styles
        return self._styles

    def __getitem__(self, name):
        return self._real()[name]

    def __contains__(self, name) -> bool:
        return name in self._real()

    def __iter__(self):
        return iter(self._real())

    def __len__(self) -> int:
        return len(self._real())


def _builtins_stand_in() -> types.ModuleType:
    """A module ``openpyxl.styles.builtins`` whose ``styles`` parses on first use."""
    stand_in = types.ModuleType(BUILTINS, "openpyxl's built-in named styles, parsed on first use")
    stand_in.styles = _BuiltinStyles(stand_in)  # type: ignore[attr-defined]
    return stand_in


def import_openpyxl() -> None:
    """Import openpyxl with NumPy and Pillow hidden (those not imported already), and its
    built-in named styles put off until first used, unless openpyxl is imported already."""
    if "openpyxl" in sys.modules:
        return
    hidden = [m for m in HIDDEN if m not in sys.modules]
    for m in hidden:
        sys.modules[m] = None  # type: ignore[assignment]  # "import numpy" raises ImportError
    stand_in = None
    if BUILTINS not in sys.modules:
        stand_in = sys.modules[BUILTINS] = _builtins_stand_in()
    try:
        import openpyxl  # noqa: F401
    except BaseException:
        if stand_in is not None and sys.modules.get(BUILTINS) is stand_in:
            del sys.modules[BUILTINS]
        raise
    finally:
        for m in hidden:
            if m in sys.modules and sys.modules[m] is None:
                del sys.modules[m]


def keep_pictures() -> bool:
    """Give openpyxl Pillow (imported now) if it was imported without it, so that a
    workbook loaded from here on keeps its pictures; False when Pillow is not installed
    (openpyxl then drops pictures, as it always does without Pillow)."""
    from openpyxl.drawing import image
    from openpyxl.reader import drawings

    if image.PILImage and drawings.PILImage:
        return True
    try:
        from PIL import Image
    except ImportError:
        return False
    image.PILImage = drawings.PILImage = Image
    return True


import_openpyxl()
