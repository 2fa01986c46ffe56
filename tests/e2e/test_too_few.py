"""An event whose registration closed with fewer than two valid entries is not "finished":
it was never drawn.  The office is told (TOO_FEW_ENTRIES, a next step), and the site says
why (session-14 decision; the rules are silent)."""
from __future__ import annotations

import csv
from pathlib import Path

from tests.hardening.common import copy_sample, league, run_args


def _issues(out: Path) -> list[dict]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
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
