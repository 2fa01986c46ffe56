"""An event whose registration closed with fewer than two valid entries is not "finished":
it was never drawn.  The office is told (TOO_FEW_ENTRIES, a next step), and the site says
why (session-14 decision; the rules are silent)."""
from __future__ import annotations

import csv
from pathlib import Path

from tests.hardening.common import copy_sample, league, run_args


def _issues(out: Path, tid: str = "t2016-poker") -> list[dict]:
    with open(out / tid / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_one_entry_is_not_a_finished_event(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    for p in (folder / "inbox").iterdir():
        if p.name != "1111-g08-报名表.eml":      # one branch, one team
            p.unlink()
    out = tmp_path / "out"
    r = league(*run_args(folder, out))
    assert r.returncode == 1, r.stderr          # ran, needs attention
    assert "扑克牌：已完成" not in r.stdout
    assert "有效报名仅 1 个" in r.stdout.split("工会办公室下一步：")[1]
    (few,) = [i for i in _issues(out) if i["code"] == "TOO_FEW_ENTRIES"]
    assert few["severity"] == "warning" and "deadline" in few["message"]
    site = (out / "t2016-poker" / "index.html").read_text(encoding="utf-8")
    assert "有效报名仅 1 个" in site and "已结束" not in site
    awards = out / "t2016-poker" / "data" / "awards.csv"
    assert len(awards.read_text(encoding="utf-8").splitlines()) == 1          # the header only


def test_before_the_deadline_one_entry_just_waits(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    for p in (folder / "inbox").iterdir():
        if p.name != "1111-g08-报名表.eml":
            p.unlink()
    out = tmp_path / "out"
    r = league(*run_args(folder, out, now="2016-11-12T00:00+08:00"))
    assert r.returncode == 0, r.stderr
    assert not [i for i in _issues(out) if i["code"] == "TOO_FEW_ENTRIES"]
    assert "报名截止" in r.stdout


def test_a_table_of_three_needs_three(tmp_path: Path) -> None:
    """斗地主 (tables of three) with two valid entries can never be drawn: TOO_FEW_ENTRIES
    says so (the run ended with 0 errors, 0 warnings and exit 0 before)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from mailedit import edit_attachment

    folder = copy_sample("t2011-court", tmp_path)
    for p in (folder / "inbox").iterdir():
        if p.name != "0501-d05-报名表.eml":
            p.unlink()

    def two_players(wb):
        for col in "BCDEFG":
            wb["报名表"][f"{col}12"] = None

    edit_attachment(folder / "inbox" / "0501-d05-报名表.eml", two_players)
    out = tmp_path / "out"
    r = league(*run_args(folder, out, now="2011-05-10T00:00+08:00"))
    assert r.returncode == 1, r.stdout
    with open(out / "t2011-court" / "data" / "issues.csv", encoding="utf-8") as f:
        (few,) = [i for i in csv.DictReader(f) if i["code"] == "TOO_FEW_ENTRIES"]
    assert "斗地主" in few["message"] and "仅 2 个" in few["message"] and "至少 3 个" in few["message"]


def _drop_event(folder: Path, ev_id: str) -> None:
    """The office deletes an event's item from tournament.yaml's events (as it is written in
    the samples: each item starts with ``  - id:``, the next one ends it)."""
    import re

    path = folder / "tournament.yaml"
    parts = re.split(r"(?m)^(?=  - id: )", path.read_text(encoding="utf-8"))
    path.write_text("".join(p for p in parts if not p.startswith(f"  - id: {ev_id}\n")), encoding="utf-8")


def test_cancelling_an_event_as_advised_leaves_its_lines_notes_not_errors(tmp_path: Path) -> None:
    """TOO_FEW_ENTRIES advises 取消本项目, and says how (delete it from tournament.yaml) and
    what follows.  The office does so: the one unit's on-time 桥牌 pair, on a form that can
    no longer be changed (the deadline passed), is a note at each line (EVENT_CANCELLED), not
    two UNKNOWN_EVENT errors (请从下拉列表中选择) no captain could fix, said in the returned
    form and held against the run's exit status every night after (from an audit)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from mailedit import t2015_forms

    folder = t2015_forms(tmp_path)
    for p in (folder / "inbox").iterdir():      # t03 alone enters a 桥牌 pair
        if not p.name.startswith(("1026-t03-", "1026-t08-", "1026-t10-")):
            p.unlink()
    out = tmp_path / "out"
    r = league(*run_args(folder, out, now="2015-10-31T12:00+08:00"))
    assert r.returncode == 1, r.stderr
    (few,) = [i for i in _issues(out, "t2015-tcm") if i["code"] == "TOO_FEW_ENTRIES"]
    assert few["message"].startswith("桥牌：") and "删去" in few["message"] and "不再录入" in few["message"]

    _drop_event(folder, "bridge")
    r = league(*run_args(folder, out, now="2015-10-31T20:00+08:00"))
    assert r.returncode in (0, 1), r.stderr
    issues = _issues(out, "t2015-tcm")
    assert not [i for i in issues if i["code"] in ("UNKNOWN_EVENT", "TOO_FEW_ENTRIES")]
    notes = [i for i in issues if i["code"] == "EVENT_CANCELLED"]
    assert [(i["severity"], i["branch"], i["sheet"]) for i in notes] == [("info", "t03", "报名表")] * 2
    assert all("“桥牌”项目已取消" in i["message"] and "不再录入" in i["message"] for i in notes)
    assert not [i for i in issues if i["branch"] == "t03" and i["severity"] != "info"]
    assert "没有录入" not in r.stdout.split("工会办公室下一步：")[-1]
    # a night after, nothing new: nothing to attend to
    r = league(*run_args(folder, out, now="2015-11-01T20:00+08:00"))
    assert [i for i in _issues(out, "t2015-tcm") if i["code"] == "EVENT_CANCELLED"] == notes
