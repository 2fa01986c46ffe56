"""The committed ``inbox-mistakes/`` of the sample tournaments, run together with the
branches' good registration mails: every mistake becomes the right issue at the right
place, the other branches are still accepted, and the returned workbook marks the cell.

Only the registration mails of ``inbox/`` are used: the mistakes change the entries, so
the committed result sheets (drawn from the good entries) would no longer match.
"""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import openpyxl
import pytest

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_sheets"
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)

# (mail file, code, branch, A1 cell or "" for a file-level issue, text the message quotes)
T2020 = [
    ("over-quota-b01", "QUOTA_EXCEEDED", "b01", "B12", "“象棋”超出名额"),
    ("multi-event-b02", "MULTI_EVENT", "b02", "B10", "象棋、跳棋"),
    ("multi-event-b02", "MULTI_EVENT", "b02", "B12", "象棋、跳棋"),
    ("staff-two-branches-b03", "DUPLICATE_PERSON", "b03", "E10", "\"001715\""),
    ("pair-one-member-b05", "TEAM_INCOMPLETE", "b05", "C16", "“双升”第 2 队有 1 人"),
    ("unknown-event-b06", "UNKNOWN_EVENT", "b06", "B10", "\"象棋2\""),
    ("missing-name-b07", "MISSING_VALUE", "b07", "D19", "姓名未填写"),
    ("bad-phone-b08", "BAD_VALUE", "b08", "G10", "\"138-abc-0000\""),
    ("late-b09", "LATE_SUBMISSION", "b09", "", "2020-11-10 17:00 收到"),
    # b10's captain filled in b11's form and mailed it from b10's registered address: b10's
    # refused file (its page, its receipt), not an error of b11, whose own form was accepted
    ("wrong-branch-b10", "WRONG_BRANCH", "b10", "", "校验码"),
    ("unregistered-sender-b11", "SENDER_UNKNOWN", "b11", "", "captain.home@mail.example.com"),
    # a file that names no unit itself, sent from b11's registered address: on b11's page
    ("other-template-b11", "TEMPLATE_MISMATCH", "b11", "", "“XX单位棋牌比赛”（编号 t2011-court）"),
    ("csv-renamed-b11", "UNREADABLE_FILE", "b11", "", "CSV"),
    ("legacy-xls-b11", "UNREADABLE_FILE", "b11", "", ".xls"),
    ("no-attachment-b11", "NO_ATTACHMENT", "b11", "", "没有 .xlsx 附件"),   # its sender is b11's
]


def attachment_name(eml: Path) -> str:
    from pipeline.ingest.eml import parse_eml
    m = parse_eml(eml)
    return m.attachments[0].filename if m.attachments else eml.name


def run_with_mistakes(tid: str, tmp: Path, now: dt.datetime = NOW):
    """A night of sample ``tid`` with its registration mails and every mail of its
    ``inbox-mistakes/``: (the report, issues.csv's rows)."""
    src = SAMPLES / tid
    folder = tmp / tid
    (folder / "inbox").mkdir(parents=True)
    shutil.copy(src / "tournament.yaml", folder)
    shutil.copy(src / "secret.key", folder)
    for p in sorted(src.glob("inbox/*-报名表.eml")) + sorted(src.glob("inbox-mistakes/*.eml")):
        shutil.copy(p, folder / "inbox" / p.name)
    report = run(RunOptions(folder=folder, out_parent=tmp / "out", pdf=False, now=now))
    with open(report.out_dir / "data" / "issues.csv", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    return report, rows


@pytest.fixture(scope="module")
def t2020(tmp_path_factory):
    return run_with_mistakes("t2020-league", tmp_path_factory.mktemp("m2020"))


@pytest.mark.parametrize("mail,code,branch,cell,quoted", T2020, ids=[f"{m}-{c}-{b}{x}" for m, c, b, x, _ in T2020])
def test_mistake_issue_located(t2020, mail, code, branch, cell, quoted):
    report, rows = t2020
    eml = SAMPLES / "t2020-league" / "inbox-mistakes" / f"{mail}.eml"
    fname = attachment_name(eml)
    hits = [r for r in rows if r["code"] == code and r["file"] == fname and r["branch"] == branch
            and r["cell"] == cell]
    assert hits, f"{code} for {fname} {cell} not in issues.csv: {[(r['code'], r['file'], r['cell']) for r in rows]}"
    assert any(quoted in r["message"] for r in hits), [r["message"] for r in hits]
    for r in hits:
        assert r["sheet"] == ("报名表" if cell else "")
        assert any("\u4e00" <= ch <= "\u9fff" for ch in r["message"])


def test_a_captains_rejected_files_are_on_the_units_page_not_unassigned(t2020):
    """The .xls, the CSV renamed .xlsx and another tournament's form came from b11's
    registered address: b11's report page lists them (issues and submissions) — the
    captain reads that page, not 未归属单位的文件 — and b11's good form still counts."""
    from pipeline.render import site_vm

    report, _ = t2020
    names = {attachment_name(SAMPLES / "t2020-league" / "inbox-mistakes" / f"{m}.eml"): code
             for m, code in (("other-template-b11", "TEMPLATE_MISMATCH"), ("csv-renamed-b11", "UNREADABLE_FILE"),
                             ("legacy-xls-b11", "UNREADABLE_FILE"))}
    page = site_vm.branch_vm(report.state, "b11")
    assert {(i.code, i.file) for i in page.issues} >= {(c, f) for f, c in names.items()}
    assert set(names) <= {s.file for s in page.submissions}
    if site_vm.UNASSIGNED in site_vm.branch_ids(report.state):
        stray = site_vm.branch_vm(report.state, site_vm.UNASSIGNED)
        assert not set(names) & ({i.file for i in stray.issues} | {s.file for s in stray.submissions})
    assert "b11" in report.accepted_branches


def test_a_later_sheet_cannot_take_an_accepted_person_away(t2020):
    """b03's mistaken sheet (received after b04's) gives b04's member's staff number: b03's
    row is the error, b04's accepted row stays as it was (it was flagged too, and dropped)."""
    report, rows = t2020
    dup = [r for r in rows if r["code"] == "DUPLICATE_PERSON" and "001715" in r["message"]]
    assert {r["branch"] for r in dup} == {"b03"}
    assert "已在" in dup[0]["message"] and "收到" in dup[0]["message"]
    assert any(e.branch == "b04" and any(p.staff_id == "001715" for p in e.players) for e in report.state.entries)


def test_every_mistake_mail_is_reported(t2020):
    _, rows = t2020
    files = {r["file"] for r in rows}
    for eml in sorted((SAMPLES / "t2020-league" / "inbox-mistakes").glob("*.eml")):
        assert attachment_name(eml) in files, eml.name


def test_exit_semantics_and_other_branches_accepted(t2020):
    report, rows = t2020
    assert report.needs_attention                       # CLI exits non-zero
    assert report.accepted_branches == [f"b{i:02d}" for i in range(1, 12)]
    # b10's tampered workbook claimed b11: rejected, so b10 keeps its good mail and b11 is not
    # replaced by it; the refusal is b10's (sent from its address, after its accepted form: the
    # latest attempt failed), and b11 has no error of a file it never sent
    assert any("wrong-branch" in f for f in report.rejected_files)
    wrong = [r for r in rows if "wrong-branch" in r["file"]]
    assert wrong and {r["branch"] for r in wrong} == {"b10"}
    assert [r["code"] for r in rows if r["branch"] == "b10" and r["severity"] == "error"] == ["WRONG_BRANCH"]
    assert "公共体育部分工会登记的邮箱" in wrong[0]["message"] and "艺术设计与教育分工会" in wrong[0]["message"]
    entries = list(csv.DictReader(open(report.out_dir / "data" / "entries.csv", encoding="utf-8-sig")))
    by_branch = {e["branch"] for e in entries}
    assert {"b01", "b02", "b03", "b04", "b05", "b06", "b07", "b08", "b10", "b11"} <= by_branch
    # R2020-Q4: b09's late resend is rejected and cannot replace the form it sent in time
    assert "b09" in by_branch
    assert any("late" in f for f in report.rejected_files)


@pytest.mark.parametrize("mail,code,cell", [("over-quota-b01", "QUOTA_EXCEEDED", "B12"),
                                             ("bad-phone-b08", "BAD_VALUE", "G10"),
                                             ("missing-name-b07", "MISSING_VALUE", "D19")])
def test_returned_workbook_comment(t2020, mail, code, cell):
    report, _ = t2020
    fname = attachment_name(SAMPLES / "t2020-league" / "inbox-mistakes" / f"{mail}.eml")
    stem = Path(fname).stem
    returned = [p for p in (report.out_dir / "returned").glob("*.xlsx") if stem in p.name]
    assert returned, list((report.out_dir / "returned").glob("*"))
    wb = openpyxl.load_workbook(returned[0])
    comment = wb["报名表"][cell].comment
    assert comment is not None and code in comment.text


@pytest.mark.parametrize("tid,expected", [
    ("t2016-poker", {"TEAM_INCOMPLETE", "UNKNOWN_EVENT", "MISSING_VALUE", "BAD_VALUE", "LATE_SUBMISSION",
                     "TEMPLATE_MISMATCH", "UNREADABLE_FILE", "NO_ATTACHMENT"}),
    ("t2015-tcm", {"TEAM_INCOMPLETE", "UNKNOWN_EVENT", "MISSING_VALUE", "BAD_VALUE", "LATE_SUBMISSION",
                   "TEMPLATE_MISMATCH", "UNREADABLE_FILE", "NO_ATTACHMENT"}),
])
def test_other_tournaments(tmp_path, tid, expected):
    report, rows = run_with_mistakes(tid, tmp_path)
    assert expected <= {r["code"] for r in rows}
    assert report.needs_attention
    n_units = len({p.name.split("-")[1] for p in (SAMPLES / tid / "inbox").glob("*-报名表.eml")})
    assert len(report.accepted_branches) == n_units
    for eml in sorted((SAMPLES / tid / "inbox-mistakes").glob("*.eml")):
        assert attachment_name(eml) in {r["file"] for r in rows}, eml.name
    # another tournament's form: refused with that one reason, no header complaint after it
    # (test_template_mismatch_another_tournaments_form_gets_no_header_complaint)
    other = [r for r in rows if "other-template" in r["file"]]
    assert [r["code"] for r in other] == ["TEMPLATE_MISMATCH"] and "t2011-court" in other[0]["message"], other
