"""Another unit's people typed on a unit's issued form and put straight into the inbox
(not mailed, where the sender's address tells: OTHER_UNITS_FORM).  The form was taken as
the unit's: its accepted registration SUPERSEDED, its entries gone, ten DUPLICATE_PERSON
against it.  Now it is WRONG_BRANCH, refused, and the unit's accepted form stands — when
the form's header line names the other unit, or when every person in it is in that other
unit's form and none in the unit's own.  A resend of the unit's own people, and a form
with a few people who moved between units, are read as before (R2020 rules: a unit's
newer form replaces the older; one person is one unit's)."""
from __future__ import annotations

import csv
import datetime as dt
import email
import email.policy
import os
import shutil
from pathlib import Path

import openpyxl

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2020, 11, 8, 9, 0, tzinfo=TZ)   # before the deadline: no draw yet


def _attachment(folder: Path, mail: str) -> bytes:
    msg = email.message_from_bytes((folder / "inbox" / mail).read_bytes(), policy=email.policy.default)
    return next(p for p in msg.iter_attachments() if (p.get_filename() or "").endswith(".xlsx")).get_content()


def _league(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The 2020 league's registrations only: (folder, b01's form, b02's form) as files."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    shutil.rmtree(folder / "inbox-mistakes")
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    b01, b02 = tmp_path / "b01.xlsx", tmp_path / "b02.xlsx"
    b01.write_bytes(_attachment(folder, "1104-b01-报名表.eml"))
    b02.write_bytes(_attachment(folder, "1106-b02-报名表.eml"))
    return folder, b01, b02


def _table(ws) -> int:
    return next(r for r in range(1, 40) if any(c.value == "姓名" for c in ws[r]))


def _people_on(src: Path, form: Path, dst: Path, rows: slice | None = None, header: str | None = None) -> None:
    """``form`` with the table's rows from ``src`` (``rows`` of them, the rest kept), its header line ``header``."""
    theirs = openpyxl.load_workbook(src)["报名表"]
    wb = openpyxl.load_workbook(form)
    ws = wb["报名表"]
    h, th = _table(ws), _table(theirs)
    for k in range(60)[rows or slice(None)]:
        for c in range(1, ws.max_column + 1):
            cell = ws.cell(h + 1 + k, c)
            if not isinstance(cell, openpyxl.cell.cell.MergedCell):
                cell.value = theirs.cell(th + 1 + k, c).value
    if header is not None:
        ws["A2"] = header
    wb.save(dst)


def _drop(folder: Path, src: Path, name: str, hour: int = 10) -> None:
    target = folder / "inbox" / name
    shutil.copy(src, target)
    t = dt.datetime(2020, 11, 7, hour, 0, tzinfo=TZ).timestamp()
    os.utime(target, (t, t))


def _mail_form(folder: Path, form: Path, sender: str, name: str) -> None:
    """``form`` mailed by ``sender`` on 11-07 as 报名表.xlsx, put in the inbox as ``name``."""
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "union@union.example.edu.cn", "报名表"
    msg["Date"] = "Sat, 07 Nov 2020 10:00:00 +0800"
    msg.set_content("报名表见附件")
    msg.add_attachment(form.read_bytes(), maintype="application",
                       subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename="报名表.xlsx")
    (folder / "inbox" / name).write_bytes(bytes(msg))


def _issues(out: Path) -> list[dict[str, str]]:
    with open(out / "data" / "issues.csv", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def _entries(report, branch):
    return sorted(e.id for e in report.state.entries if e.branch == branch)


def test_another_units_people_on_a_units_form_are_refused_and_replace_nothing(tmp_path):
    folder, b01, b02 = _league(tmp_path)
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)
    first = run(opts)
    b01_before, b02_before = _entries(first, "b01"), _entries(first, "b02")
    assert b01_before and b02_before
    for n, header in enumerate((None, "分工会：行政第一分工会    队长：庞雪平")):
        copy = tmp_path / f"copy{n}.xlsx"
        _people_on(b01, b02, copy, header=header)
        for p in (folder / "inbox").glob("名单*.xlsx"):
            p.unlink()
        _drop(folder, copy, f"名单{n}.xlsx")
        report = run(opts)
        assert _entries(report, "b02") == b02_before and _entries(report, "b01") == b01_before
        rows = _issues(report.out_dir)
        assert not [r for r in rows if r["code"] in ("SUPERSEDED", "DUPLICATE_PERSON")], rows
        (wrong,) = [r for r in rows if r["file"] == f"名单{n}.xlsx"]
        assert wrong["code"] == "WRONG_BRANCH" and wrong["severity"] == "error" and wrong["branch"] == "b02"
        assert "行政第一分工会" in wrong["message"] and "未受理" in wrong["message"], wrong["message"]
        if header:
            assert (wrong["sheet"], wrong["cell"]) == ("报名表", "A2")
        else:
            assert "继续有效" in wrong["message"]


def test_a_units_own_resend_and_a_few_people_who_moved_are_read_as_before(tmp_path):
    folder, b01, b02 = _league(tmp_path)
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)
    b02_before = _entries(run(opts), "b02")
    # b02 sends its own form again, one person's phone changed: it replaces the one before
    own = tmp_path / "own.xlsx"
    wb = openpyxl.load_workbook(b02)
    ws = wb["报名表"]
    ws.cell(_table(ws) + 1, 7).value = "13900000000"
    wb.save(own)
    _drop(folder, own, "行政第二分工会-报名表-改.xlsx")
    report = run(opts)
    assert _entries(report, "b02") == b02_before
    rows = _issues(report.out_dir)
    assert [r["code"] for r in rows if r["branch"] == "b02" and r["severity"] == "error"] == []
    assert any(r["code"] == "SUPERSEDED" and r["branch"] == "b02" for r in rows)
    # b02's form with two of b01's people in place of its first two: DUPLICATE_PERSON, as before
    moved = tmp_path / "moved.xlsx"
    _people_on(b01, b02, moved, rows=slice(0, 2))
    (folder / "inbox" / "行政第二分工会-报名表-改.xlsx").unlink()
    # (an hour later: the ledger keeps the resend above, and two forms received at once are
    # ordered by their saved time, the same second when both were saved in it)
    _drop(folder, moved, "行政第二分工会-报名表-改2.xlsx", hour=11)
    rows = _issues(run(opts).out_dir)
    assert not [r for r in rows if r["code"] == "WRONG_BRANCH"]
    assert any(r["code"] == "DUPLICATE_PERSON" and r["branch"] == "b02" for r in rows)


def test_the_form_with_its_header_changed_mailed_from_the_other_units_address_is_other_units_form(tmp_path):
    """Mailed from b01's registered address, b02's form with b01's people and header line is
    OTHER_UNITS_FORM on b01's page, as before — not a token mismatch."""
    folder, b01, b02 = _league(tmp_path)
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)
    copy = tmp_path / "copy.xlsx"
    _people_on(b01, b02, copy, header="分工会：行政第一分工会    队长：庞雪平")
    _mail_form(folder, copy, "xzyfgh@union.example.edu.cn", "1107-b01-again.eml")
    report = run(opts)
    rows = [r for r in _issues(report.out_dir) if r["file"] == "报名表.xlsx"]
    assert [(r["code"], r["branch"]) for r in rows] == [("OTHER_UNITS_FORM", "b01")], rows
    assert _entries(report, "b01") and _entries(report, "b02")


def test_a_units_form_mailed_from_its_address_is_never_taken_for_another_units_list(tmp_path):
    """The heuristic is for forms put straight into the inbox: a unit's own form mailed from
    its registered address (1106-b02) is not WRONG_BRANCH because an earlier form in the
    inbox — b02's list typed on b01's issued form — holds the same people (a review: b02's
    genuine form was refused and b02 told it had filled in b01's list)."""
    folder, b01, b02 = _league(tmp_path)
    mistake = tmp_path / "mistake.xlsx"
    _people_on(b02, b01, mistake)
    target = folder / "inbox" / "行政第一分工会-报名表.xlsx"
    shutil.copy(mistake, target)
    t = dt.datetime(2020, 11, 5, 10, 0, tzinfo=TZ).timestamp()
    os.utime(target, (t, t))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    assert not [r for r in _issues(report.out_dir) if r["code"] == "WRONG_BRANCH" and r["branch"] == "b02"]


def test_R2015_Q2_cross_unit_members_on_another_units_form_are_no_copy_of_it(tmp_path):
    """R2015-Q2: a bridge pair may span units — 药学院 (t03) lists three members of
    马克思主义学院 (t08) with 跨分工会：马克思主义学院分工会, and t08's own form lists the
    same three in other events, as the rules allow.  t08's form is read (it was refused as
    WRONG_BRANCH: every person in it was on t03's form)."""
    import io

    folder = tmp_path / "t2015"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    for p in (folder / "inbox").iterdir():
        if any(w in p.name for w in ("成绩", "评奖", "签到", "加赛")):
            p.unlink()

    def take(name: str) -> bytes:
        data = _attachment(folder, name)
        (folder / "inbox" / name).unlink()
        return data
    t03, t08 = take("1026-t03-报名表.eml"), take("1026-t08-报名表.eml")
    wb = openpyxl.load_workbook(io.BytesIO(t03))
    ws = wb["报名表"]
    h = next(r for r in range(1, 40) if ws.cell(r, 4).value == "姓名")
    r = max(r for r in range(h + 1, h + 60) if ws.cell(r, 4).value) + 1
    for team, own, guest, gid in [(2, "药甲", "闫璐", "002526"), (3, "药乙", "周宁", "002558"),
                                  (4, "药丙", "蔡俊帅", "002597")]:
        for name, sid, note in ((own, f"0099{team}", None), (guest, gid, "跨分工会：马克思主义学院分工会")):
            for c, v in enumerate((r - h, "桥牌", team, name, sid, "男", "13800000000", note), 1):
                ws.cell(r, c).value = v
            r += 1
    buf = io.BytesIO()
    wb.save(buf)
    for name, data, day in (("药学院分工会-报名表.xlsx", buf.getvalue(), 25), ("马克思主义学院分工会-报名表.xlsx", t08, 27)):
        p = folder / "inbox" / name
        p.write_bytes(data)
        t = dt.datetime(2015, 10, day, 10, 0, tzinfo=TZ).timestamp()
        os.utime(p, (t, t))
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2015, 10, 28, 9, 0, tzinfo=TZ)))
    assert not [i for i in report.state.issues if i.code == "WRONG_BRANCH"]
    assert _entries(report, "t08")


def test_a_copy_mailed_from_an_address_of_no_unit_is_still_wrong_branch(tmp_path):
    """Only the unit's own registered address tells the form is its own: b01's list typed on
    b02's form and mailed from a colleague's personal mailbox is WRONG_BRANCH, and b02's form
    stands (a review: any sender at all let it replace b02's registration again)."""
    folder, b01, b02 = _league(tmp_path)
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)
    before = _entries(run(opts), "b02")
    copy = tmp_path / "copy.xlsx"
    _people_on(b01, b02, copy)
    _mail_form(folder, copy, "zhang.personal@mail.example.com", "1107-unregistered.eml")
    report = run(opts)
    assert [r["code"] for r in _issues(report.out_dir) if r["branch"] == "b02" and r["code"] == "WRONG_BRANCH"]
    assert before and _entries(report, "b02") == before
