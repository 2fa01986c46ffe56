"""Generate ``sample_sheets/<id>/inbox-mistakes/``: typical wrong submissions, as the
captains really send them, to show and test the validation reports.

Each mistake starts from a branch's real registration mail in ``inbox/`` (our template,
filled by header label), changes it the way captains do, and mails it again one day
before the deadline (so it supersedes the branch's good mail), except the late one.
Deterministic: no randomness, fixed dates.  Run ``make_samples.py`` first.

    python scripts/make_mistakes.py                # t2020-league, t2016-poker, t2015-tcm
    python scripts/make_mistakes.py t2020-league

Copy the files into ``inbox/`` (registration mails only, or start a fresh output folder)
to see the issues; ``tests/badinput/test_mistakes.py`` does exactly that.
"""
from __future__ import annotations

import datetime as dt
import io
import shutil
import sys
import tempfile
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Callable

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline import layout as L  # noqa: E402
from pipeline.ingest.eml import parse_eml  # noqa: E402
from pipeline.spec import Tournament, load_tournament  # noqa: E402
from pipeline.timeutil import aware  # noqa: E402
from pipeline.validate.checks import quota_for  # noqa: E402
from pipeline.xlsx.registration import write_registration_template  # noqa: E402

XLSX = ("application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet")
OFFICE = "office@union.example.edu.cn"
STRANGER = "captain.home@mail.example.com"

Rows = list[dict[str, object]]


def mail(path: Path, sender: str, subject: str, when: dt.datetime,
         attachments: list[tuple[str, bytes, tuple[str, str]]], body: str = "") -> None:
    """Write one .eml (fixed Message-ID from the file name, so reruns are byte-identical)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = OFFICE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<mistake-{path.stem.encode().hex()[:24]}@union.example.edu.cn>"
    msg.set_content(body or subject)
    for name, data, (maintype, subtype) in attachments:
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(msg))


def header(ws) -> tuple[int, dict[str, int]]:
    """(header row, label → column) of 报名表."""
    for r in range(1, 60):
        vals = {str(c.value).strip(): c.column for c in ws[r] if c.value is not None}
        if "姓名" in vals:
            return r, vals
    raise ValueError("no header")


def read_rows(wb) -> Rows:
    """The filled rows of 报名表 as label → value (序号 left out)."""
    ws = wb[L.REG_SHEET]
    hrow, col = header(ws)
    rows: Rows = []
    for r in range(hrow + 1, ws.max_row + 1):
        row = {lab: ws.cell(r, c).value for lab, c in col.items() if lab != "序号"}
        if all(v in (None, "") for v in row.values()):
            continue
        rows.append(row)
    return rows


def write_rows(wb, rows: Rows) -> None:
    """Clear the table and write ``rows`` from the first data row on."""
    ws = wb[L.REG_SHEET]
    hrow, col = header(ws)
    for r in range(hrow + 1, ws.max_row + 1):
        for lab, c in col.items():
            if lab != "序号":
                ws.cell(r, c).value = None
    for i, row in enumerate(rows):
        for lab, v in row.items():
            if lab in col:
                ws.cell(hrow + 1 + i, col[lab]).value = v


def to_bytes(wb) -> bytes:
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


class Good:
    """The branches' good registration workbooks from ``inbox/`` (unit id → bytes, file name)."""

    def __init__(self, t: Tournament) -> None:
        self.t = t
        self.books: dict[str, tuple[str, bytes]] = {}
        for p in sorted((t.folder / "inbox").glob("*-报名表.eml")):
            m = parse_eml(p)
            for a in m.attachments:
                unit = next((u for u in t.spec.units if a.filename.startswith(u.name + "-")), None)
                if unit:
                    self.books[unit.id] = (a.filename, a.data)

    def wb(self, unit_id: str):
        return openpyxl.load_workbook(io.BytesIO(self.books[unit_id][1]))

    def rows(self, unit_id: str) -> Rows:
        return read_rows(self.wb(unit_id))


# ------------------------------------------------------------------------------ the mistakes
# Each builder returns (attachments, sender override or None) for one branch; None = not applicable.

def _edit(good: Good, unit_id: str, fn: Callable[[Rows], Rows | None]) -> bytes | None:
    wb = good.wb(unit_id)
    rows = fn(read_rows(wb))
    if rows is None:
        return None
    write_rows(wb, rows)
    return to_bytes(wb)


def over_quota(good: Good, u: str) -> bytes | None:
    """R2020-Q1: one individual entry more than the quota (3 象棋 players where 2 are allowed)."""
    t = good.t
    unit = t.spec.unit(u).unit()

    def fn(rows: Rows) -> Rows | None:
        for ev in t.spec.events:
            q = quota_for(ev, unit)
            mine = [r for r in rows if r.get("项目") == ev.name]
            if ev.team_size == 1 and q and len(mine) == q:
                extra = dict(mine[-1], 姓名="郑多余", 工号="990001", 联系电话="13900000001")
                rows.insert(rows.index(mine[-1]) + 1, extra)
                return rows
        return None
    return _edit(good, u, fn)


def multi_event(good: Good, u: str) -> bytes | None:
    """R2020-Q2: the first player of one event also entered in another event."""
    def fn(rows: Rows) -> Rows | None:
        first = rows[0]
        for r in rows:
            if r.get("项目") != first.get("项目") and not r.get("队号"):
                r.update(姓名=first["姓名"], 工号=first["工号"], 性别=first.get("性别"))
                return rows
        return None
    return _edit(good, u, fn)


def staff_in_two_branches(good: Good, u: str, other: str) -> bytes | None:
    """DUPLICATE_PERSON: this branch's first row carries another branch's staff number."""
    sid = good.rows(other)[0]["工号"]

    def fn(rows: Rows) -> Rows:
        rows[0]["工号"] = sid
        return rows
    return _edit(good, u, fn)


def pair_one_member(good: Good, u: str) -> bytes | None:
    """TEAM_INCOMPLETE: the second member of the last pair deleted."""
    t = good.t

    def fn(rows: Rows) -> Rows | None:
        for r in reversed(rows):
            ev = t.spec.event(str(r.get("项目") or ""))
            if ev is not None and ev.team_size == 2 and r.get("队号"):
                rows.remove(r)
                return rows
        return None
    return _edit(good, u, fn)


def unknown_event(good: Good, u: str) -> bytes | None:
    """UNKNOWN_EVENT: "象棋2" (first event's name with a stray 2) in the first row."""
    def fn(rows: Rows) -> Rows:
        rows[0]["项目"] = f"{rows[0]['项目']}2"
        return rows
    return _edit(good, u, fn)


def missing_name(good: Good, u: str) -> bytes | None:
    """MISSING_VALUE: the last row's 姓名 left blank."""
    def fn(rows: Rows) -> Rows:
        rows[-1]["姓名"] = None
        return rows
    return _edit(good, u, fn)


def bad_phone(good: Good, u: str) -> bytes | None:
    """BAD_VALUE: a phone number with letters."""
    def fn(rows: Rows) -> Rows:
        rows[0]["联系电话"] = "138-abc-0000"
        return rows
    return _edit(good, u, fn)


def resend(good: Good, u: str) -> bytes | None:
    """A small correction (one phone number) — used for the late and the stranger's mails."""
    def fn(rows: Rows) -> Rows:
        rows[0]["联系电话"] = "13911112222"
        return rows
    return _edit(good, u, fn)


def claim_other_branch(good: Good, u: str, other: str) -> bytes:
    """WRONG_BRANCH: _meta branch_id edited to another branch (token unchanged)."""
    wb = good.wb(u)
    for row in wb[L.META_SHEET].iter_rows(min_col=1, max_col=2):
        if row[0].value == L.META_BRANCH:
            row[1].value = other
    return to_bytes(wb)


def foreign_template(t: Tournament) -> bytes:
    """TEMPLATE_MISMATCH: another tournament's template, filled with one row."""
    other_id = "t2011-court" if t.spec.id != "t2011-court" else "t2020-league"
    other = load_tournament(ROOT / "sample_sheets" / other_id)
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "x.xlsx"
        write_registration_template(other, other.spec.units[0].id, p)
        wb = openpyxl.load_workbook(p)
    write_rows(wb, [{"项目": other.spec.events[0].name, "姓名": "钱错表", "工号": "990002", "性别": "男",
                     "联系电话": "13900000002"}])
    return to_bytes(wb)


def csv_bytes(good: Good, u: str) -> bytes:
    """A CSV export of the rows, renamed .xlsx."""
    rows = good.rows(u)
    labels = list(rows[0])
    lines = [",".join(labels)] + [",".join("" if r.get(l) is None else str(r.get(l)) for l in labels) for r in rows]
    return ("\n".join(lines) + "\n").encode("utf-8-sig")


XLS_BYTES = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504   # an OLE2 (Excel 97-2003) header


def addr(unit) -> str:
    return unit.emails[0] if unit.emails else f"{unit.id}@union.example.edu.cn"


def make(folder: Path) -> list[Path]:
    t = load_tournament(folder)
    out = folder / "inbox-mistakes"
    shutil.rmtree(out, ignore_errors=True)
    good = Good(t)
    units = [u for u in t.spec.units if u.id in good.books]
    deadline = max(aware(e.deadline) for e in t.spec.events if e.deadline)
    first_deadline = min(aware(e.deadline) for e in t.spec.events if e.deadline)
    before = first_deadline - dt.timedelta(days=1)
    late = deadline + dt.timedelta(days=1, hours=2)
    X = XLSX
    written: list[Path] = []

    def send(slug: str, unit, data: bytes | None, *, when: dt.datetime = before, sender: str | None = None,
             fname: str | None = None, ctype: tuple[str, str] = X) -> None:
        if data is None:
            return
        name = fname or f"{unit.name}-报名表（{slug}）.xlsx"
        p = out / f"{slug}-{unit.id}.eml"
        mail(p, sender or addr(unit), f"{unit.name} 报名表（修改）", when, [(name, data, ctype)],
             f"{unit.captain or unit.name}：附件为修改后的报名表。")
        written.append(p)

    full = t.spec.id == "t2020-league"
    u = iter(units)
    if full:
        send("over-quota", next(u), over_quota(good, units[0].id))
        send("multi-event", next(u), multi_event(good, units[1].id))
        send("staff-two-branches", next(u), staff_in_two_branches(good, units[2].id, units[3].id))
        next(u)   # units[3]: the other side of the shared staff number, unchanged
    team_unit = next(u)
    send("pair-one-member", team_unit, pair_one_member(good, team_unit.id))
    for slug, fn in (("unknown-event", unknown_event), ("missing-name", missing_name), ("bad-phone", bad_phone)):
        unit = next(u)
        send(slug, unit, fn(good, unit.id))
    unit = next(u)
    send("late", unit, resend(good, unit.id), when=late)
    if full:
        a, b = next(u), next(u)
        send("wrong-branch", a, claim_other_branch(good, a.id, b.id))
        send("unregistered-sender", b, resend(good, b.id), sender=STRANGER)
    spare = units[-1]
    send("other-template", spare, foreign_template(t))
    send("csv-renamed", spare, csv_bytes(good, spare.id))
    send("legacy-xls", spare, XLS_BYTES, fname=f"{spare.name}-报名表.xls", ctype=("application", "vnd.ms-excel"))
    p = out / f"no-attachment-{spare.id}.eml"
    mail(p, addr(spare), f"{spare.name} 报名表", before, [], "报名表见附件。（忘了添加附件）")
    written.append(p)
    return written


if __name__ == "__main__":
    names = sys.argv[1:] or ["t2020-league", "t2016-poker", "t2015-tcm"]
    for n in names:
        files = make(ROOT / "sample_sheets" / n)
        print(n, len(files), "mistake mails")
