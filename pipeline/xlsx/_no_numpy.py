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
"""
from __future__ import annotations

import sys


#: what openpyxl is imported without (each unless it is imported already)
HIDDEN = ("numpy", "PIL")


def import_openpyxl() -> None:
    """Import openpyxl with NumPy and Pillow hidden (those not imported already), unless
    openpyxl is imported already."""
    if "openpyxl" in sys.modules:
        return
    hidden = [m for m in HIDDEN if m not in sys.modules]
    for m in hidden:
        sys.modules[m] = None  # type: ignore[assignment]  # "import numpy" raises ImportError
    try:
        import openpyxl  # noqa: F401
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
