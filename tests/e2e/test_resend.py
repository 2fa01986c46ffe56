"""A captain corrects the registration form and sends it again under the same file name.

Contract: "A newer submission from the same branch supersedes the older one for that sheet;
both are kept."  The older file's problems no longer stand once a newer file counts: they
leave issues.csv, the newer file's returned copy and receipt (which only the file name tied
them to before), and the branch's status; the older copy says only that it was superseded,
and names the file that came next, so a third version leaves it as it is.
"""
from __future__ import annotations

import csv
import re
import datetime as dt
import email
import email.policy
import os
import shutil
from pathlib import Path

import openpyxl

from pipeline.mail.receipts import build_receipts
from pipeline.render import site_vm
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NAME = "行政第一分工会-报名表.xlsx"          # b01's form, as its mail names it
NOW = dt.datetime(2020, 11, 5, 9, 0, tzinfo=TZ)   # before the deadline: no draw yet


def _form(folder: Path) -> bytes:
    """b01's registration form from its sample mail (the mail itself is removed)."""
    eml = folder / "inbox" / "1104-b01-报名表.eml"
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    data = next(p for p in msg.iter_attachments() if p.get_filename() == NAME).get_content()
    eml.unlink()
    return data


def _edit(src: Path, dst: Path, cell: str, value: str) -> None:
    wb = openpyxl.load_workbook(src)
    wb["报名表"][cell] = value
    wb.save(dst)


def _send(folder: Path, version: Path, day: int) -> None:
    """Put ``version`` in the inbox as b01's form, received on 2020-11-``day`` 10:00."""
    target = folder / "inbox" / NAME
    shutil.copy(version, target)
    t = dt.datetime(2020, 11, day, 10, 0, tzinfo=TZ).timestamp()
    os.utime(target, (t, t))


def _issues(out: Path) -> list[dict[str, str]]:
    with open(out / "data" / "issues.csv", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def _marked(copy: Path) -> list[tuple[str, str]]:
    """(code, message) of every problem a returned copy lists on its first sheet."""
    ws = openpyxl.load_workbook(copy)["问题清单"]
    rows = list(ws.iter_rows(values_only=True))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "序号")
    return [(r[1], r[5]) for r in rows[head + 1:] if r and r[1]]


def _copy_of(out: Path, sha: str) -> Path:
    return next((out / "returned").glob(f"b01-*-{sha[:8]}-返回.xlsx"))


def _league(tmp_path: Path) -> tuple[Path, Path]:
    """The 2020 league without results or mistakes, and b01's form taken out of its mail
    (returned as a file to send): (tournament folder, form)."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    shutil.rmtree(folder / "inbox-mistakes")
    for p in (folder / "inbox").glob("*成绩表*"):
        p.unlink()
    good = tmp_path / "v2.xlsx"
    good.write_bytes(_form(folder))
    return folder, good


def test_a_corrected_form_of_the_same_name_replaces_the_older_ones_problems(tmp_path):
    folder, good = _league(tmp_path)
    bad, third = tmp_path / "v1.xlsx", tmp_path / "v3.xlsx"
    _edit(good, bad, "B10", "象旗")                 # not an event: UNKNOWN_EVENT at B10
    _edit(good, third, "A20", "")                  # a harmless edit: a new file, no problem
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)

    _send(folder, bad, 3)
    report = run(opts)
    out = report.out_dir
    assert {(r["code"], r["cell"]) for r in _issues(out) if r["branch"] == "b01"} == {
        ("UNKNOWN_EVENT", "B10"), ("QUOTA_SHORT", "B11")}       # read, and found by validation

    _send(folder, good, 4)
    report = run(opts)
    subs = {s.received.day: s for s in report.state.submissions if s.branch == "b01"}
    assert {d: s.status for d, s in subs.items()} == {3: "superseded", 4: "accepted"}
    rows = [r for r in _issues(out) if r["branch"] == "b01"]
    assert [r["code"] for r in rows] == ["SUPERSEDED"]          # the fixed error is gone
    assert not report.needs_attention
    assert _marked(_copy_of(out, subs[4].sha256)) == []
    old = _marked(_copy_of(out, subs[3].sha256))
    assert [c for c, _ in old] == ["SUPERSEDED"] and "11月4日 10:00" in old[0][1]
    receipts = {r.sha256: r for r in build_receipts(report.state, out)}
    assert receipts[subs[4].sha256].kind == "accepted" and "需修改" not in receipts[subs[4].sha256].subject
    assert receipts[subs[3].sha256].kind == "superseded"
    assert site_vm.branch_vm(report.state, "b01").summary.state_class == "ok"
    first_copy = _copy_of(out, subs[3].sha256).read_bytes()

    _send(folder, third, 5)
    report = run(opts)
    subs = {s.received.day: s for s in report.state.submissions if s.branch == "b01"}
    assert {d: s.status for d, s in subs.items()} == {3: "superseded", 4: "superseded", 5: "accepted"}
    notes = [r["message"] for r in _issues(out) if r["branch"] == "b01"]
    assert len(notes) == 2 and all("SUPERSEDED" not in n for n in notes)
    assert _copy_of(out, subs[3].sha256).read_bytes() == first_copy   # still names the file that came next
    second = _marked(_copy_of(out, subs[4].sha256))
    assert [c for c, _ in second] == ["SUPERSEDED"] and "11月5日 10:00" in second[0][1]
    assert _marked(_copy_of(out, subs[5].sha256)) == []


def test_a_returned_copy_that_cannot_be_made_is_not_linked(tmp_path, monkeypatch):
    """The index and branch pages are rendered while the returned copies are made, linking
    every copy; a copy that cannot be made (write_returned_copy returns None: a workbook
    openpyxl opens but cannot write back) has its pages rendered again without the link —
    also on a later night when the page without the link is exactly last night's."""
    from pipeline.xlsx import returned

    folder, good = _league(tmp_path)
    _send(folder, good, 3)
    real = returned.write_returned_copy
    monkeypatch.setattr(returned, "write_returned_copy",      # the pools are forked from here: they have it
                        lambda src, issues, target, **kw: None if target.name.startswith("b01-")
                        else real(src, issues, target, **kw))
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)

    def links(out: Path) -> dict[str, list[str]]:
        pages = {"index": out / "index.html", "b01": out / "branches" / "b01.html", "b02": out / "branches" / "b02.html"}
        return {k: sorted(set(re.findall(r"returned/(b0[12])-", p.read_text(encoding="utf-8")))) for k, p in pages.items()}

    report = run(opts)
    out = report.out_dir
    assert not list((out / "returned").glob("b01-*")) and list((out / "returned").glob("b02-*"))
    assert [s.returned_path for s in report.state.submissions if s.branch == "b01"] == [""]
    assert links(out) == {"index": ["b02"], "b01": [], "b02": ["b02"]}
    b01_page = (out / "branches" / "b01.html").read_bytes()

    # another night: b02 sends its form again (the run goes on), b01's copy fails again
    b02 = next(p for p in (folder / "inbox").glob("*b02-报名表.eml"))
    msg = email.message_from_bytes(b02.read_bytes(), policy=email.policy.default)
    att = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx"))
    (tmp_path / "b02.xlsx").write_bytes(att.get_content())
    _edit(tmp_path / "b02.xlsx", folder / "inbox" / att.get_filename(), "A20", "")
    t = dt.datetime(2020, 11, 4, 12, 0, tzinfo=TZ).timestamp()
    os.utime(folder / "inbox" / att.get_filename(), (t, t))
    report = run(opts)
    assert not report.unchanged
    assert links(out) == {"index": ["b02"], "b01": [], "b02": ["b02"]}
    assert (out / "branches" / "b01.html").read_bytes() == b01_page


def _saved_at(src: Path, dst: Path, when: str, cell: str, value: str) -> None:
    """``src`` edited at ``cell`` and recorded as last saved at ``when`` (docProps/core.xml)."""
    import io
    import zipfile
    _edit(src, dst, cell, value)
    buf = io.BytesIO()
    with zipfile.ZipFile(dst) as zin, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + when.encode(), data)
            zout.writestr(info, data)
    dst.write_bytes(buf.getvalue())


def test_two_forms_received_together_the_one_saved_later_counts(tmp_path):
    """One mail (or one minute) brings b01's old form and its correction: which counted went
    by the files' hashes, and the note said the old one came "later".  The one saved later
    counts, in either order, and SAME_TIME says so and how to make the other count."""
    folder, good = _league(tmp_path)
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)
    old, new = tmp_path / "旧.xlsx", tmp_path / "新.xlsx"
    _saved_at(good, old, "2020-11-03T01:00:00Z", "D10", "王旧版")
    _saved_at(good, new, "2020-11-03T02:30:00Z", "D10", "王新版")
    when = dt.datetime(2020, 11, 4, 10, 0, tzinfo=TZ).timestamp()
    for name, src in (("报名表-旧.xlsx", old), ("报名表-最终版.xlsx", new)):
        shutil.copy(src, folder / "inbox" / name)
        os.utime(folder / "inbox" / name, (when, when))
    report = run(opts)
    names = [e.team for e in report.state.entries if e.branch == "b01"]
    assert "王新版" in names and "王旧版" not in names
    rows = [r for r in _issues(report.out_dir) if r["branch"] == "b01"]
    (same,) = [r for r in rows if r["code"] == "SAME_TIME"]
    assert "以《报名表-最终版.xlsx》为准" in same["message"] and same["file"] == "报名表-最终版.xlsx"
    (sup,) = [r for r in rows if r["code"] == "SUPERSEDED"]
    assert "同时收到" in sup["message"] and "其后收到" not in sup["message"]


def test_a_blank_form_after_a_good_one_is_refused_and_replaces_nothing(tmp_path):
    """The blank template attached by mistake after b01's good form: it replaced it, and every
    entry of b01 was dropped with four QUOTA_SHORT warnings.  It is EMPTY_FORM, the good form
    stands; a unit whose only form is empty simply enters nobody (no error)."""
    folder, good = _league(tmp_path)
    blank = tmp_path / "blank.xlsx"
    wb = openpyxl.load_workbook(good)
    ws = wb["报名表"]
    hdr = next(r for r in range(1, 40) if any(c.value == "姓名" for c in ws[r]))
    for row in ws.iter_rows(min_row=hdr + 1, max_row=ws.max_row):
        for c in row[1:]:
            if c.value is not None and not isinstance(c, openpyxl.cell.cell.MergedCell):
                c.value = None
    wb.save(blank)
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)
    _send(folder, good, 3)
    before = sorted(e.id for e in run(opts).state.entries if e.branch == "b01")
    assert before
    (folder / "inbox" / "空白.xlsx").write_bytes(blank.read_bytes())
    t = dt.datetime(2020, 11, 4, 10, 0, tzinfo=TZ).timestamp()
    os.utime(folder / "inbox" / "空白.xlsx", (t, t))
    report = run(opts)
    assert sorted(e.id for e in report.state.entries if e.branch == "b01") == before
    rows = [r for r in _issues(report.out_dir) if r["branch"] == "b01"]
    (empty,) = [r for r in rows if r["code"] == "EMPTY_FORM"]
    assert empty["file"] == "空白.xlsx" and f"《{NAME}》继续有效" in empty["message"]
    assert not [r for r in rows if r["code"] in ("QUOTA_SHORT", "SUPERSEDED")]


def test_two_forms_together_without_saved_times_say_so_alike():
    """SAME_TIME said the saved times could not tell two forms apart, and SUPERSEDED said the
    later was taken by its saved time (from the diff review)."""
    from pipeline.ingest.registration import Registration
    from pipeline.issues import IssueLog
    from pipeline.run import Inputs, current_registrations
    from pipeline.store import Received

    when = dt.datetime(2020, 11, 4, 10, 0, tzinfo=TZ)
    recs = [(Received("a" * 64, ".xlsx", "甲.xlsx", when), Registration("甲.xlsx", "b01", saved="")),
            (Received("b" * 64, ".xlsx", "乙.xlsx", when), Registration("乙.xlsx", "b01", saved=""))]
    log = IssueLog()
    current_registrations(Inputs(registrations=recs), log)
    said = {i.code: i.message for i in log}
    assert "暂以" in said["SAME_TIME"] and "暂以后者为准" in said["SUPERSEDED"] and "按表格保存时间" not in said["SUPERSEDED"]


def test_a_top_up_form_with_only_the_new_person_names_the_people_it_drops(tmp_path):
    """A captain adds a player by sending a form with only that player (补报): the new form
    replaces the whole of the old one, so the unit's other nine people left the entries and
    nothing named them (only QUOTA_SHORT spoke, inviting 重新提交).  PEOPLE_DROPPED names
    them on the new form, as a warning the first night and a note after (SAID_ONCE); a
    person kept by 工号 under a corrected name is not dropped."""
    folder, good = _league(tmp_path)
    top_up = tmp_path / "top-up.xlsx"
    wb = openpyxl.load_workbook(good)
    ws = wb["报名表"]
    for row in range(11, 20):
        for col in "ABCDEFGHI":
            ws[f"{col}{row}"] = None
    ws["D10"] = "吕宁贵"              # 001033's name corrected: the same person (by 工号)
    ws["A11"], ws["B11"], ws["D11"], ws["E11"], ws["F11"] = 2, "斗地主", "新来的", "009999", "女"
    wb.save(top_up)
    opts = RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW)
    _send(folder, good, 3)
    run(opts)
    _send(folder, top_up, 4)
    report = run(opts)
    dropped = [r for r in _issues(report.out_dir) if r["code"] == "PEOPLE_DROPPED"]
    assert len(dropped) == 1 and dropped[0]["severity"] == "warning" and dropped[0]["branch"] == "b01"
    message = dropped[0]["message"]
    assert "严艳英、夏英、吴伟军、孙宁刚、曾华、叶红刚、田兰娟、段强、邱洋桂（9 人）" in message
    assert "吕宁桂" not in message and "整份取代" in message
    assert report.needs_attention
    sub = next(s for s in report.state.submissions if s.branch == "b01" and s.status == "accepted")
    assert ("PEOPLE_DROPPED", message) in _marked(_copy_of(report.out_dir, sub.sha256))
    # the top-up corrected (a third form, as short): still named against the full form
    again = folder / "inbox" / "补报-更正.xlsx"
    _edit(top_up, again, "F11", "男")
    t5 = dt.datetime(2020, 11, 5, 8, 0, tzinfo=TZ).timestamp()
    os.utime(again, (t5, t5))
    report = run(opts)
    dropped = [r for r in _issues(report.out_dir) if r["code"] == "PEOPLE_DROPPED"]
    assert len(dropped) == 1 and "（9 人）" in dropped[0]["message"] and "《补报-更正.xlsx》" in dropped[0]["message"]
    # a later night (another unit's form arrives): said before, now a note
    eml = folder / "inbox" / "1104-b04-报名表.eml"
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    part = next(p for p in msg.iter_attachments() if p.get_filename().endswith(".xlsx"))
    b04 = tmp_path / "b04.xlsx"
    b04.write_bytes(part.get_content())
    target = folder / "inbox" / part.get_filename()
    _edit(b04, target, "A20", "")
    t = dt.datetime(2020, 11, 4, 12, 0, tzinfo=TZ).timestamp()
    os.utime(target, (t, t))
    report = run(opts)
    assert any(s.branch == "b04" and s.status == "superseded" for s in report.state.submissions)
    again = [r for r in _issues(report.out_dir) if r["code"] == "PEOPLE_DROPPED"]
    assert [r["severity"] for r in again] == ["info"]


#: a received time written 11-04 18:23 (month-day with a hyphen), not part of a full date
_HYPHENED = re.compile(r"(?<![\d-])[01]\d-[0-3]\d \d\d:\d\d")


def test_received_times_in_messages_are_written_the_chinese_way(tmp_path):
    """The mistakes inbox after the deadline (an audit of the site): the unit pages said
    《…》（11-04 18:23 收到）已被其后收到的… and 发件人 ysjjyfgh@…，11-08 15:00 收到 while
    everything else on them reads 2020年11月4日 18:23.  Every message, in issues.csv and
    on the pages, now writes a received time 11月4日 18:23."""
    folder = tmp_path / "t2020-mist"
    sample = ROOT / "sample_sheets" / "t2020-league"
    (folder / "inbox").mkdir(parents=True)
    for name in ("tournament.yaml", "secret.key"):
        shutil.copy(sample / name, folder / name)
    for p in [*(sample / "inbox").glob("*报名表.eml"), *(sample / "inbox-mistakes").iterdir()]:
        shutil.copy2(p, folder / "inbox" / p.name)
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2020, 11, 9, 16, 0, tzinfo=TZ)))
    out = report.out_dir
    rows = _issues(out)
    assert not [r["message"] for r in rows if _HYPHENED.search(r["message"])]
    said = {r["code"] for r in rows if re.search(r"\d{1,2}月\d{1,2}日 \d\d:\d\d 收到", r["message"])}
    assert {"SUPERSEDED", "UNREADABLE_FILE"} <= said, said
    for page in (out / "branches").glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not _HYPHENED.search(text), (page.name, _HYPHENED.findall(text))
    b01 = (out / "branches" / "b01.html").read_text(encoding="utf-8")
    assert "（11月4日 18:23 收到）已被其后收到的" in b01
