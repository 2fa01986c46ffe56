"""A returned copy of a form whose rows were formatted down to the sheet's end, made from
the form without those empty rows (:func:`pipeline.ingest.workbook.without_empty_rows`):
openpyxl makes an object of every row, and such a form's copy took 80 seconds and a
gigabyte of memory.  Imports nothing heavy: a prestarted worker calls it by name."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any


def large_sheet(stored: str | Path) -> bool:
    """Whether the workbook at ``stored`` has a worksheet part larger than
    :data:`~pipeline.ingest.workbook.SLIM_SHEET_BYTES` (its zip directory only is read)."""
    import zipfile

    from ..ingest.workbook import SLIM_SHEET_BYTES, _is_sheet_part

    try:
        with zipfile.ZipFile(stored) as zf:
            return any(_is_sheet_part(i.filename) and i.file_size > SLIM_SHEET_BYTES for i in zf.infolist())
    except Exception:  # noqa: BLE001 - not a zip: the copy says so
        return False


def copy_source(stored: str | Path, tmp: str) -> Path:
    """``stored``, or a copy of it without its empty formatted rows written in ``tmp``."""
    from ..ingest.workbook import without_empty_rows

    stored = Path(stored)
    if not large_sheet(stored):
        return stored
    try:
        slim = without_empty_rows(stored.read_bytes())
    except OSError:
        return stored
    if slim is None:
        return stored
    path = Path(tmp) / stored.name
    path.write_bytes(slim)
    return path


def returned_copy_job(stored: str | Path, issues: Any, target: str | Path, script: str = "simplified",
                      checks: Any = None, names: Any = ()) -> Path | None:
    """:func:`pipeline.xlsx.returned.returned_copy_job` from :func:`copy_source` (a form
    without such rows, the commonest by far, as it is: no temporary folder)."""
    from .returned import returned_copy_job as job

    if not large_sheet(stored):
        return job(stored, issues, target, script, checks, names)
    with tempfile.TemporaryDirectory() as tmp:
        return job(copy_source(stored, tmp), issues, target, script, checks, names)


def write_returned_copy(stored: str | Path, issues: Any, target: str | Path, *, script: str = "simplified",
                        checks: Any = None, names: Any = ()) -> Path | None:
    """:func:`pipeline.xlsx.returned.write_returned_copy` from :func:`copy_source`."""
    from .returned import write_returned_copy as write

    if not large_sheet(stored):
        return write(stored, issues, target, script=script, checks=checks, names=names)
    with tempfile.TemporaryDirectory() as tmp:
        return write(copy_source(stored, tmp), issues, target, script=script, checks=checks, names=names)
