"""Import openpyxl without NumPy.

openpyxl imports NumPy when it is installed (``openpyxl.compat.numbers``), only so that a
cell accepts NumPy scalars as numbers.  The pipeline never gives openpyxl a NumPy value
(cells get ``str``, ``int``, ``float``, ``date`` and ``None``), yet the import costs every
process that writes a workbook 80–90 ms, more than the rest of openpyxl's import — a
fifth of a night with one new registration.  NumPy is installed beside the project
(pandas needs it), so each module that imports openpyxl imports this module first::

    from . import _no_numpy  # noqa: F401  (before openpyxl)

While openpyxl is imported, ``import numpy`` fails; afterwards NumPy imports as usual for
whoever needs it.  Where openpyxl or NumPy is already imported, nothing changes.
"""
from __future__ import annotations

import sys


def import_openpyxl() -> None:
    """Import openpyxl with NumPy hidden, unless either is already imported."""
    if "openpyxl" in sys.modules or "numpy" in sys.modules:
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # "import numpy" raises ImportError
    try:
        import openpyxl  # noqa: F401
    finally:
        if "numpy" in sys.modules and sys.modules["numpy"] is None:
            del sys.modules["numpy"]


import_openpyxl()
