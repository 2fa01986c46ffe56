"""Edit the workbook a sample mail carries, as a captain or referee would before sending it
(again): the tests of tests/e2e build their bad or corrected inputs with it."""
from __future__ import annotations

import email
import email.policy
import io
from pathlib import Path
from typing import Callable

import openpyxl


def edit_attachment(eml: Path, edit: Callable[[openpyxl.Workbook], None], save_as: Path | None = None,
                    date: str | None = None) -> None:
    """Apply ``edit`` to the .xlsx attached to ``eml`` and write the mail to ``save_as`` (the
    same file when None), with the ``Date`` header ``date`` when given (a later mail)."""
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    part = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx"))
    wb = openpyxl.load_workbook(io.BytesIO(part.get_content()))
    edit(wb)
    buf = io.BytesIO()
    wb.save(buf)
    part.set_content(buf.getvalue(), maintype="application",
                     subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename=part.get_filename())
    if date:
        del msg["Date"]
        msg["Date"] = date
    (save_as or eml).write_bytes(bytes(msg))


def table_header(ws, first: str = "桌号", within: int = 30) -> tuple[int, dict[str, int]]:
    """(header row, label → column) of a sheet's table, found by one of its labels."""
    hrow = next(r for r in range(1, within) if any(c.value == first for c in ws[r]))
    return hrow, {c.value: c.column for c in ws[hrow] if c.value}
