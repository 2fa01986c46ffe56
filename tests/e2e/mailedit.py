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


def t2015_forms(tmp_path: Path) -> Path:
    """The 2015 sample league with only its registration mails (no results), in ``tmp_path``."""
    import shutil

    src = Path(__file__).resolve().parents[2] / "sample_sheets" / "t2015-tcm"
    folder = tmp_path / "t2015-tcm"
    (folder / "inbox").mkdir(parents=True)
    shutil.copy(src / "tournament.yaml", folder)
    shutil.copy(src / "secret.key", folder)
    for p in sorted(src.glob("inbox/*-报名表.eml")):
        shutil.copy(p, folder / "inbox" / p.name)
    return folder


def table_header(ws, first: str = "桌号", within: int = 30) -> tuple[int, dict[str, int]]:
    """(header row, label → column) of a sheet's table, found by one of its labels."""
    hrow = next(r for r in range(1, within) if any(c.value == first for c in ws[r]))
    return hrow, {c.value: c.column for c in ws[hrow] if c.value}


#: b01's form in the 2020 sample, as its mail names it, and b01's registered address
B01_FORM = "行政第一分工会-报名表.xlsx"
B01_ADDRESS = "xzyfgh@union.example.edu.cn"


def league_2020(tmp_path: Path) -> tuple[Path, bytes]:
    """The 2020 sample league without results or mistakes, in ``tmp_path``, and b01's form
    as its sample mail (``1104-b01-报名表.eml``, which stays) carries it."""
    import shutil

    folder = tmp_path / "t2020-league"
    shutil.copytree(Path(__file__).resolve().parents[2] / "sample_sheets" / "t2020-league", folder)
    shutil.rmtree(folder / "inbox-mistakes")
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    msg = email.message_from_bytes((folder / "inbox" / "1104-b01-报名表.eml").read_bytes(), policy=email.policy.default)
    return folder, next(p for p in msg.iter_attachments() if p.get_filename() == B01_FORM).get_content()


def send_mail(folder: Path, name: str, attachments: list[tuple[str, bytes]], date: str,
              sender: str = B01_ADDRESS) -> None:
    """A mail from ``sender`` dated ``date`` with these attachments, put into the inbox as ``name``."""
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"] = sender
    msg["Subject"] = "报名表"
    msg["Date"] = date
    msg.set_content("见附件")
    for fname, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=fname)
    (folder / "inbox" / name).write_bytes(bytes(msg))


def change_a_phone(wb: openpyxl.Workbook, to: str = "13900000000") -> None:
    """A captain's resend that changes one thing: the first mobile number on the 报名表 sheet."""
    for row in wb["报名表"].iter_rows():
        for c in row:
            if isinstance(c.value, str) and c.value.isdigit() and len(c.value) == 11:
                c.value = to
                return
    raise AssertionError("no phone number on the form")
