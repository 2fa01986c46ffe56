"""An adversarial corpus of registration inputs, generated here (no binaries committed).

One run of the T2020 sample takes every branch's good registration mail plus ~45 bad
mails (each dated before the good ones, so the good forms stay current); then each case
asserts on its own file: the run did not crash, the expected issue code is located
(file, and sheet/cell where it applies), and every branch is still accepted.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
import zipfile
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import openpyxl
import pytest

from pipeline.run import RunOptions, run
from pipeline.spec import load_tournament
from pipeline.timeutil import TZ
from pipeline.xlsx.registration import write_registration_template

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "sample_sheets" / "t2020-league"
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
WHEN = dt.datetime(2020, 11, 1, 9, 0, tzinfo=TZ)      # before every good mail and the deadline
LATER = dt.datetime(2020, 11, 8, 9, 0, tzinfo=TZ)     # after every good mail, before the deadline
XLSX = ("application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet")
SENDER = "xzyfgh@union.example.edu.cn"                # b01's registered address
INJECTIONS = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "<script>alert(1)</script>"]


def eml(attachments: list[tuple[str, bytes]], *, subject: str = "报名表", raw_headers: bytes = b"",
        when: dt.datetime = WHEN, sender: str = SENDER) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "office@union.example.edu.cn"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when)
    msg.set_content("附件为报名表。")
    for name, data in attachments:
        msg.add_attachment(data, maintype=XLSX[0], subtype=XLSX[1], filename=name)
    return raw_headers + bytes(msg)


class Template:
    """b01's real template, filled with one valid row; ``cell(label)`` is that row's A1 cell."""

    def __init__(self, tmp: Path, unit: str = "b01", folder: Path = SRC) -> None:
        self.t = load_tournament(folder)
        p = tmp / f"tpl-{self.t.spec.id}-{unit}.xlsx"
        if not p.exists():
            write_registration_template(self.t, unit, p)
        self.wb = openpyxl.load_workbook(p)
        self.ws = self.wb["报名表"]
        for r in range(1, 60):
            vals = {str(c.value).strip(): c.column for c in self.ws[r] if c.value is not None}
            if "姓名" in vals:
                self.hrow, self.col = r, vals
                break
        self.row = self.hrow + 1
        self.set(项目="象棋", 姓名="测试甲", 工号="880001", 性别="男", 联系电话="13800000000",
                 乘车地点=self.t.spec.pickup_points[0] if self.t.spec.pickup_points else None)

    def set(self, row: int | None = None, **values) -> "Template":
        for lab, v in values.items():
            if lab in self.col:
                self.ws.cell(row or self.row, self.col[lab]).value = v
        return self

    def cell(self, label: str, row: int | None = None) -> str:
        from openpyxl.utils import get_column_letter
        return f"{get_column_letter(self.col[label])}{row or self.row}"

    def meta(self, key: str, value: str) -> "Template":
        for r in self.wb["_meta"].iter_rows(min_col=1, max_col=2):
            if r[0].value == key:
                r[1].value = value
        return self

    def bytes(self) -> bytes:
        buf = io.BytesIO()
        self.wb.save(buf)
        return buf.getvalue()


def rezip(data: bytes, change) -> bytes:
    """Rewrite an xlsx's zip parts through ``change(name, bytes) -> bytes | None`` (None drops)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            new = change(info.filename, src.read(info.filename))
            if new is not None:
                z.writestr(info.filename, new)
        extra = change("__add__", b"")
        if extra:
            for n, b in extra:
                z.writestr(n, b)
    return buf.getvalue()


def sheet_part(data: bytes) -> str:
    z = zipfile.ZipFile(io.BytesIO(data))
    return sorted(n for n in z.namelist() if n.startswith("xl/worksheets/sheet"))[0]


# ---------------------------------------------------------------------------- the cases
# Each builder: tmp -> (attachment name, bytes) and expectations:
#   code: expected issue code for that file (None: none of error severity expected on it)
#   cell: label of the located cell ("" = file-level / not checked)

def c_formula(tmp):
    t = Template(tmp).set(姓名="=A1")
    return t.bytes(), "BAD_VALUE", t.cell("姓名")


def c_error_value(tmp):
    t = Template(tmp).set(姓名="#REF!")
    return t.bytes(), "BAD_VALUE", t.cell("姓名")


def c_date_in_name(tmp):
    t = Template(tmp).set(姓名=dt.date(2020, 1, 2))
    return t.bytes(), "BAD_VALUE", t.cell("姓名")


def c_number_in_name(tmp):
    t = Template(tmp).set(姓名=12345)
    return t.bytes(), "BAD_VALUE", t.cell("姓名")


def c_long_name(tmp):
    t = Template(tmp).set(姓名="王" * 500)
    return t.bytes(), "BAD_VALUE", t.cell("姓名")


def c_fullwidth_staff(tmp):
    t = Template(tmp).set(工号="８８０００２")
    return t.bytes(), None, ""


def c_zero_width_name(tmp):
    t = Template(tmp).set(姓名="王\u200b伟\u200d")
    return t.bytes(), None, ""


def c_nbsp_name(tmp):
    t = Template(tmp).set(姓名="\u00a0李\u00a0强\u3000")
    return t.bytes(), None, ""


def c_traditional_event(tmp):
    t = Template(tmp).set(项目="雙升", 队号=1).set(row=Template(tmp).row + 1, 项目="双升", 队号=1, 姓名="测试乙",
                                                 工号="880009", 性别="女", 联系电话="13800000009")
    return t.bytes(), None, ""


def c_checkers_trad(tmp):
    t = Template(tmp).set(项目="跳棋")
    return t.bytes(), None, ""


def c_emoji_name(tmp):
    t = Template(tmp).set(姓名="张三😀")
    return t.bytes(), None, ""


def c_unknown_event(tmp):
    t = Template(tmp).set(项目="象棋2")
    return t.bytes(), "UNKNOWN_EVENT", t.cell("项目")


def c_header_renamed(tmp):
    t = Template(tmp)
    t.ws.cell(t.hrow, t.col["姓名"]).value = "名字"
    return t.bytes(), "TEMPLATE_MISMATCH", ""


def c_header_deleted(tmp):
    t = Template(tmp)
    t.ws.cell(t.hrow, t.col["项目"]).value = None
    return t.bytes(), "TEMPLATE_MISMATCH", ""


def c_header_moved(tmp):
    t = Template(tmp)
    a, b = t.col["姓名"], t.col["工号"]
    for r in (t.hrow, t.row):
        x, y = t.ws.cell(r, a).value, t.ws.cell(r, b).value
        t.ws.cell(r, a).value, t.ws.cell(r, b).value = y, x
    return t.bytes(), None, ""


def c_duplicate_header(tmp):
    t = Template(tmp)
    t.ws.cell(t.hrow, t.col["备注"]).value = "姓名"
    return t.bytes(), None, ""


def c_extra_sheets(tmp):
    t = Template(tmp)
    t.wb.create_sheet("草稿").append(["姓名", "随便"])
    t.wb.create_sheet("Sheet3")
    return t.bytes(), None, ""


def c_hidden_rows(tmp):
    t = Template(tmp)
    t.ws.row_dimensions[t.row].hidden = True
    return t.bytes(), None, ""


def c_merged_cells(tmp):
    t = Template(tmp).set(row=Template(tmp).row + 1, 项目="象棋", 姓名=None, 工号="880003")
    t.ws.merge_cells(f"{t.cell('姓名')}:{t.cell('姓名', t.row + 1)}")
    return t.bytes(), "MISSING_VALUE", t.cell("姓名", t.row + 1)


def c_tampered_token(tmp):
    t = Template(tmp).meta("token", "0" * 32)
    return t.bytes(), "WRONG_BRANCH", ""


def c_other_branch_token(tmp):
    t = Template(tmp)
    t.meta("token", t.t.token("b02"))
    return t.bytes(), "WRONG_BRANCH", ""


def c_other_tournament(tmp):
    t = Template(tmp, "u01" if False else load_tournament(ROOT / "sample_sheets" / "t2011-court").spec.units[0].id,
                 ROOT / "sample_sheets" / "t2011-court")
    return t.bytes(), "TEMPLATE_MISMATCH", ""


def c_bad_phone(tmp):
    t = Template(tmp).set(联系电话="电话号码")
    return t.bytes(), "BAD_VALUE", t.cell("联系电话")


def c_bad_gender(tmp):
    t = Template(tmp).set(性别="X")
    return t.bytes(), "BAD_VALUE", t.cell("性别")


def c_million_rows(tmp):
    t = Template(tmp)
    for i in range(5100):
        t.set(row=t.row + i, 项目="象棋", 姓名=f"测试{chr(0x4e00 + i)}", 工号=f"7{i:05d}")
    data = t.bytes()
    part = sheet_part(data)

    def change(name, b):
        if name == part:
            import re
            return re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:I1048576"/>', b)
        return None if name == "__add__" else b
    return rezip(data, change), "BAD_VALUE", ""


def c_xlsm_vba(tmp):
    data = Template(tmp).bytes()
    return rezip(data, lambda n, b: [("xl/vbaProject.bin", b"\xd0\xcf\x11\xe0" + b"\0" * 60)] if n == "__add__" else b), \
        "ANY", ""


def c_truncated_zip(tmp):
    return Template(tmp).bytes()[:2000], "UNREADABLE_FILE", ""


def c_corrupt_zip(tmp):
    data = bytearray(Template(tmp).bytes())
    for i in range(200, len(data) - 200, 37):
        data[i] ^= 0x5A
    return bytes(data), "UNREADABLE_FILE", ""


def c_csv(tmp):
    return "项目,姓名,工号\n象棋,王伟,001\n".encode("utf-8-sig"), "UNREADABLE_FILE", ""


def c_html(tmp):
    return b"<html><body><table><tr><td>\xe5\xa7\x93\xe5\x90\x8d</td></tr></table></body></html>", \
        "UNREADABLE_FILE", ""


def c_ole2_xls(tmp):
    return b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 1024, "UNREADABLE_FILE", ""


def c_encrypted_ole2(tmp):
    body = "EncryptedPackage".encode("utf-16-le") + "EncryptionInfo".encode("utf-16-le")
    return b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512 + body + b"\0" * 512, "UNREADABLE_FILE", ""


def c_entity_bomb(tmp):
    bomb = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">'
            b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;">]>')
    data = Template(tmp).bytes()
    part = sheet_part(data)

    def change(name, b):
        if name == "__add__":
            return None
        if name == part:
            body = b.split(b"?>", 1)[1] if b.startswith(b"<?xml") else b
            return bomb + body.replace(b"<sheetData>", b"<sheetData>&lol3;", 1)
        return b
    return rezip(data, change), "UNREADABLE_FILE", ""


def c_zip_bomb(tmp):
    data = Template(tmp).bytes()
    return rezip(data, lambda n, b: [("xl/media/bomb.bin", b"\0" * (60 * 1024 * 1024))] if n == "__add__" else b), \
        "UNREADABLE_FILE", ""


def c_empty(tmp):
    return b"", "UNREADABLE_FILE", ""


CASES = {f.__name__[2:]: f for f in [
    c_formula, c_error_value, c_date_in_name, c_number_in_name, c_long_name, c_fullwidth_staff,
    c_zero_width_name, c_nbsp_name, c_traditional_event, c_checkers_trad, c_emoji_name, c_unknown_event,
    c_header_renamed, c_header_deleted, c_header_moved, c_duplicate_header, c_extra_sheets, c_hidden_rows,
    c_merged_cells, c_tampered_token, c_other_branch_token, c_other_tournament, c_bad_phone, c_bad_gender,
    c_million_rows, c_xlsm_vba, c_truncated_zip, c_corrupt_zip, c_csv, c_html, c_ole2_xls, c_encrypted_ole2,
    c_entity_bomb, c_zip_bomb, c_empty]}
INJECT_IDS = ["formula_hyperlink", "dde_cmd", "script_tag"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("corpus")
    folder = tmp / "t2020-league"
    inbox = folder / "inbox"
    inbox.mkdir(parents=True)
    shutil.copy(SRC / "tournament.yaml", folder)
    shutil.copy(SRC / "secret.key", folder)
    for p in sorted(SRC.glob("inbox/*-报名表.eml")):
        shutil.copy(p, inbox / p.name)
    expect = {}
    for cid, fn in CASES.items():
        data, code, cell = fn(tmp)
        name = f"case-{cid}.xlsm" if cid == "xlsm_vba" else f"case-{cid}.xlsx"
        (inbox / f"{cid}.eml").write_bytes(eml([(name, data)]))
        expect[cid] = (name, code, cell)
    for k, (iid, text) in enumerate(zip(INJECT_IDS, INJECTIONS)):
        # sent by b02-b04 after their good forms (before the deadline): these are their current
        # forms, so the injected names reach issues.csv and the pages
        unit = f"b{k + 2:02d}"
        t = Template(tmp, unit=unit).set(姓名=text)
        name = f"case-inject-{iid}.xlsx"
        (inbox / f"inject-{iid}.eml").write_bytes(eml([(name, t.bytes())], when=LATER,
                                                      sender=t.t.spec.unit(unit).emails[0]))
        expect[f"inject_{iid}"] = (name, "BAD_VALUE", t.cell("姓名"))
    # mails
    (inbox / "m-no-attachment.eml").write_bytes(eml([]))
    two_a, two_b = Template(tmp).set(项目="象棋2"), Template(tmp).set(联系电话="abc")
    (inbox / "m-two.eml").write_bytes(eml([("case-two-a.xlsx", two_a.bytes()), ("case-two-b.xlsx", two_b.bytes())]))
    expect["mail_two_attachments_a"] = ("case-two-a.xlsx", "UNKNOWN_EVENT", two_a.cell("项目"))
    expect["mail_two_attachments_b"] = ("case-two-b.xlsx", "BAD_VALUE", two_b.cell("联系电话"))
    trav = Template(tmp).set(项目="象棋3")
    (inbox / "m-traversal.eml").write_bytes(eml([("../../case-traversal.xlsx", trav.bytes())]))
    expect["mail_path_traversal"] = ("case-traversal.xlsx", "UNKNOWN_EVENT", trav.cell("项目"))
    gbk = eml([("case-gbk.xlsx", Template(tmp).set(项目="象棋4").bytes())])
    gbk = gbk.replace(b"Subject: =?utf-8?b?5oql5ZCN6KGo?=", b"Subject: " + "报名表（GBK）".encode("gbk"))
    gbk = gbk.replace(b"Subject: \xe6\x8a\xa5\xe5\x90\x8d\xe8\xa1\xa8", b"Subject: " + "报名表（GBK）".encode("gbk"))
    assert "报名表（GBK）".encode("gbk") in gbk
    (inbox / "m-gbk.eml").write_bytes(gbk)
    expect["mail_gbk_headers"] = ("case-gbk.xlsx", "UNKNOWN_EVENT", "")
    from pipeline.ingest import workbook as W
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(W, "MAX_ROWS", 5000)   # the "million rows" case has 5,100 (the real cap is larger)
        report = run(RunOptions(folder=folder, out_parent=tmp / "out", pdf=False, now=NOW))
    with open(report.out_dir / "data" / "issues.csv", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    return report, rows, expect


ALL_IDS = list(CASES) + [f"inject_{i}" for i in INJECT_IDS] + [
    "mail_two_attachments_a", "mail_two_attachments_b", "mail_path_traversal", "mail_gbk_headers"]


@pytest.fixture(scope="module")
def own_rows(corpus):
    """issues.csv's rows plus every received file's own reading problems, superseded files'
    included (the run lists a file's problems only while it counts: each case below is b01's
    and superseded by b01's good form), read back from the run's ledger as the run read them."""
    from pipeline.issues import IssueLog
    from pipeline.run import read_inputs
    from pipeline.store import Ledger

    report, rows, _ = corpus
    log = IssueLog()
    with Ledger(report.out_dir) as ledger:
        inputs = read_inputs(load_tournament(report.out_dir.parent.parent / "t2020-league"), ledger, log)
    return rows + [i.row() for i in log] + [i.row() for found in inputs.reg_issues.values() for i in found]


@pytest.mark.parametrize("cid", ALL_IDS)
def test_case_located(corpus, own_rows, cid):
    _, _, expect = corpus
    name, code, cell = expect[cid]
    mine = [r for r in own_rows if r["file"] == name]
    if code is None:
        assert not [r for r in mine if r["severity"] == "error"], mine
        return
    if code == "ANY":
        return
    hits = [r for r in mine if r["code"] == code]
    assert hits, (name, [(r["code"], r["cell"], r["message"][:60]) for r in mine])
    if cell:
        assert any(r["cell"] == cell and r["sheet"] == "报名表" for r in hits), [(r["cell"], r["sheet"]) for r in hits]


def test_good_branches_still_accepted(corpus):
    report, rows, _ = corpus
    assert report.accepted_branches == [f"b{i:02d}" for i in range(1, 12)]
    assert report.needs_attention
    assert len(ALL_IDS) >= 40


def test_no_attachment_mail(corpus):
    _, rows, _ = corpus
    assert any(r["code"] == "NO_ATTACHMENT" and r["file"] == "m-no-attachment.eml" for r in rows)


def test_no_file_escapes_the_output(corpus):
    report, _, _ = corpus
    assert not (report.out_dir.parent.parent / "case-traversal.xlsx").exists()
    assert not any(p.name == "case-traversal.xlsx" for p in report.out_dir.parent.parent.parent.glob("*"))


def test_superseded_forms_leave_only_their_note(corpus):
    """A form b01 replaced by a later one: its problems no longer stand (the later form's do),
    so the run lists only that it was superseded."""
    report, rows, expect = corpus
    superseded = {s.file for s in report.state.submissions if s.status == "superseded"}
    cases = [name for name, code, _ in expect.values() if name in superseded and code not in (None, "ANY")]
    assert len(cases) >= 10
    for name in cases:
        assert {r["code"] for r in rows if r["file"] == name} == {"SUPERSEDED"}, name


def test_injection_is_plain_text(corpus):
    report, rows, _ = corpus
    for text in INJECTIONS[1:]:    # the injected names reach the outputs, quoted in the issues (the
        assert any(text in r["message"] for r in rows), text   # first is a formula: never quoted)
    for path in report.out_dir.rglob("*.csv"):
        for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))):
            for v in row:
                assert not v.startswith(("=", "+", "@")) or v.startswith("'"), (path, v)
    for path in report.out_dir.rglob("*.html"):
        assert "<script>alert(1)</script>" not in path.read_text(encoding="utf-8"), path
