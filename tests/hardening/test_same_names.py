"""Two inbox files of one name in two sub-folders (inbox/a/报名表.xlsx, inbox/b/报名表.xlsx):
issues, receipts and the units' pages named both 《报名表.xlsx》, and the office could not
tell which was meant.  Where a name is ambiguous, a file is named by its path in the inbox;
a name no other received file has stays as it was."""
from __future__ import annotations

import csv
import datetime as dt
import os
from pathlib import Path

from pipeline.run import RunOptions, run

from .common import copy_sample

LATE = dt.datetime.fromisoformat("2016-11-17T09:00+08:00").timestamp()     # deadline 11-16 17:00


def _form(folder: Path, mail: str) -> bytes:
    from pipeline.ingest.eml import parse_eml_bytes

    p = folder / "inbox" / mail
    (att,) = parse_eml_bytes(p.read_bytes(), p.name).attachments
    p.unlink()
    return att.data


def test_same_named_files_in_two_folders_are_named_by_their_paths(tmp_path: Path) -> None:
    from pipeline.mail.receipts import build_receipts

    folder = copy_sample("t2016-poker", tmp_path)
    for sub, mail in (("a", "1111-g04-报名表.eml"), ("b", "1111-g08-报名表.eml"), ("c", "1113-g05-报名表.eml")):
        data = _form(folder, mail)
        name = "唯一的名字.xlsx" if sub == "c" else "报名表.xlsx"
        p = folder / "inbox" / sub / name
        p.parent.mkdir()
        p.write_bytes(data)
        os.utime(p, (LATE, LATE))
    out = tmp_path / "out"
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False,
                            now=dt.datetime.fromisoformat("2016-11-18T12:00+08:00")))
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        late = {r["branch"]: r for r in csv.DictReader(f) if r["code"] == "LATE_SUBMISSION"}
    assert late["g04"]["file"] == "a/报名表.xlsx" and late["g08"]["file"] == "b/报名表.xlsx", late
    assert late["g05"]["file"] == "唯一的名字.xlsx"              # not ambiguous: its name, as before
    subs = {s.branch: s.file for s in report.state.submissions}
    assert subs["g04"] == "a/报名表.xlsx" and subs["g08"] == "b/报名表.xlsx" and subs["g05"] == "唯一的名字.xlsx"
    page = (out / "t2016-poker" / "branches" / "g04.html").read_text(encoding="utf-8")
    assert "a/报名表.xlsx" in page and "b/报名表.xlsx" not in page
    receipts = {r.branch: r for r in build_receipts(report.state, out / "t2016-poker")}
    assert "《a/报名表.xlsx》" in receipts["g04"].body and "《b/报名表.xlsx》" in receipts["g08"].body
