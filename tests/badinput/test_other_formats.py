"""The issued form sent in another program's format: what the captain is told to do must be
something that works — a .ods saved as .xlsx is read; a CSV saved back as .xlsx is not (its
hidden check sheet is gone), so a CSV is told to use the issued .xlsx form."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import openpyxl

from pipeline.mail.receipts import _skipped_hints
from pipeline.run import RunOptions, run
from pipeline.spec import load_tournament
from pipeline.timeutil import TZ
from pipeline.xlsx import write_registration_template

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2020, 11, 6, 12, 0, tzinfo=TZ)


def _form(t, unit: str, path: Path) -> Path:
    write_registration_template(t, unit, path)
    wb = openpyxl.load_workbook(path)
    ws = wb["报名表"]
    hdr = next(r for r in range(1, 40) if any(c.value == "姓名" for c in ws[r]))
    col = {c.value: c.column for c in ws[hdr] if c.value}
    ws.cell(hdr + 1, col["项目"], "象棋")
    ws.cell(hdr + 1, col["姓名"], "王军")
    wb.save(path)
    return path


def test_other_formats_are_told_what_works(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    (folder / "inbox").mkdir(parents=True)
    for f in ("tournament.yaml", "secret.key"):
        shutil.copy(ROOT / "sample_sheets" / "t2020-league" / f, folder)
    t = load_tournament(folder)
    # LibreOffice's .ods of the form (not read: its name says what it is)
    (folder / "inbox" / "b01-报名表.ods").write_bytes(b"PK\x03\x04 ods")
    # LibreOffice's CSV in its default code page: the Chinese lost as ?, a curly quote in cp1252
    (folder / "inbox" / "b02-报名表.csv").write_bytes(
        b"???? ???,,,,\n???:????,,,,\n\x93??\x94,1,2,,\n" + b"1,??,,??,\n" * 5)
    # the form's table in a new file without the hidden _meta (a CSV saved back as .xlsx)
    copied = _form(t, "b03", tmp_path / "b03.xlsx")
    wb = openpyxl.load_workbook(copied)
    del wb["_meta"]
    wb["报名表"].title = "b03-报名表"
    wb.save(folder / "inbox" / "b03-报名表.xlsx")
    # a form re-saved without its dropdowns, an event typed: its returned copy has them again
    plain = openpyxl.load_workbook(_form(t, "b04", tmp_path / "b04.xlsx"))
    plain["报名表"].data_validations.dataValidation = []
    plain.save(folder / "inbox" / "b04-报名表.xlsx")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    (back,) = (report.out_dir / "returned").glob("b04-*")
    kinds = sorted(dv.type for dv in openpyxl.load_workbook(back)["报名表"].data_validations.dataValidation)
    assert kinds == ["list", "list", "textLength", "textLength", "whole"]
    with open(report.out_dir / "data" / "issues.csv", encoding="utf-8-sig") as f:
        by_file = {r["file"]: r for r in csv.DictReader(f) if r["code"] in ("UNREADABLE_FILE", "TEMPLATE_MISMATCH")}
    ods, csv_, copy = by_file["b01-报名表.ods"], by_file["b02-报名表.csv"], by_file["b03-报名表.xlsx"]
    assert ods["code"] == "UNREADABLE_FILE" and "请在 LibreOffice/WPS 中另存为 Excel 工作簿（.xlsx）后重发" in ods["message"]
    assert "请用我们下发的报名表填写" not in ods["message"]
    assert csv_["code"] == "UNREADABLE_FILE" and "CSV 文件丢失了报名表中的校验信息，请在下发的 .xlsx 报名表中填写后发送" in csv_["message"]
    assert "另存为” Excel 工作簿" not in csv_["message"]
    assert copy["code"] == "TEMPLATE_MISMATCH" and "校验信息" in copy["message"] and "下发的 .xlsx 报名表" in copy["message"]


def test_the_mail_hint_names_ods_and_tells_a_csv_to_use_the_form() -> None:
    (ods,) = _skipped_hints(("报名表.ods",))
    assert ".ods" in ods and "LibreOffice" in ods and "另存为”Excel 工作簿" in ods
    (csv_,) = _skipped_hints(("报名表.csv",))
    assert "CSV 文件丢失了报名表中的校验信息" in csv_ and "另存为" not in csv_.replace("不要另存为 CSV", "")
