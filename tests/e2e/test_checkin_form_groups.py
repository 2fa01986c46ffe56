"""R2016-F1/F2: the 签到表 the desk checks people in with.  Once the deadline has passed
the groups are fixed by the entry list alone (the branch chairs' lot, handbook 签到表), so
the form shows each player's 组别 — the group round 1 puts them in — with their unit and
team, rows by group, then unit, then team; before the deadline 组别 is left blank.  The
returned form is read by its header (extra columns ignored), as an earlier version's is."""
from __future__ import annotations

import csv
from pathlib import Path

from tests.hardening.common import league, run_args, t2016_before_the_day

AFTER_DEADLINE = "2016-11-17T09:00+08:00"


def _form(out: Path) -> Path:
    return out / "t2016-poker" / "forms" / "guandan-签到表.xlsx"


def _rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    import openpyxl

    ws = openpyxl.load_workbook(path)["签到"]
    head = [c.value for c in ws[4]]
    rows = [dict(zip(head, [c.value for c in r])) for r in ws.iter_rows(min_row=5) if r[0].value]
    return head, rows


def _before_the_day(tmp_path: Path, now: str = AFTER_DEADLINE) -> tuple[Path, Path]:
    return t2016_before_the_day(tmp_path, now)


def _issues(out: Path, code: str) -> list[dict[str, str]]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["code"] == code]


def test_R2016_F1_the_check_in_form_shows_group_unit_and_team_after_the_deadline(tmp_path: Path) -> None:
    folder, out = _before_the_day(tmp_path)
    head, rows = _rows(_form(out))
    assert head == ["项目", "组别", "分工会", "队名", "姓名", "工号", "到场"], head
    assert len(rows) == 68 and {r["组别"] for r in rows} == {"A", "B", "C", "D"}
    units = ["机关第一分工会", "机关第二分工会", "会计学院分工会", "经济学院分工会", "金融学院分工会", "工商管理学院分工会",
             "法学院分工会", "外国语学院分工会", "信息工程学院分工会", "图书馆分工会", "后勤服务分工会", "体育部分工会"]
    # by group, then unit (as tournament.yaml lists them), then team; a pair's two rows together
    keys = [(r["组别"], units.index(r["分工会"])) for r in rows]
    assert keys == sorted(keys)
    teams = [r["队名"] for r in rows]
    assert all(teams[i] == teams[i + 1] for i in range(0, len(teams), 2)), teams
    assert all(r["队名"].startswith(("机关一", "机关二", "会计", "经济", "金融", "工商", "法学", "外语", "信工",
                                    "图书馆", "后勤", "体育部")) for r in rows)
    # the groups are the ones round 1 puts the pairs in (nobody absent: no pair re-formed or moved)
    group_of = {r["队名"]: r["组别"] for r in rows}
    import openpyxl

    wb = openpyxl.load_workbook(_form(out))
    ws = wb["签到"]
    for row in ws.iter_rows(min_row=5):
        if row[0].value:
            row[6].value = "是"
    wb.save(folder / "inbox" / "签到表.xlsx")
    league(*run_args(folder, out, now="2016-11-26T08:31+08:00"))
    with open(out / "t2016-poker" / "data" / "draw.csv", encoding="utf-8") as f:
        drawn = {r["team"]: r["group"] for r in csv.DictReader(f) if r["round"] == "1"}
    assert drawn == group_of


def test_R2016_F1_before_the_deadline_the_check_in_form_leaves_the_group_blank(tmp_path: Path) -> None:
    _, out = _before_the_day(tmp_path, now="2016-11-14T09:00+08:00")
    if not _form(out).exists():
        return          # (no form before the deadline: nothing to leave blank)
    head, rows = _rows(_form(out))
    assert "组别" in head and rows and all(not r["组别"] for r in rows)


def test_R2016_F2_a_bad_mark_on_the_new_form_is_said_at_its_到场_cell(tmp_path: Path) -> None:
    import openpyxl

    folder, out = _before_the_day(tmp_path)
    wb = openpyxl.load_workbook(_form(out))
    ws = wb["签到"]
    for row in ws.iter_rows(min_row=5):
        if row[0].value:
            row[6].value = "是"
    ws["G7"] = "？"
    wb.save(folder / "inbox" / "签到表.xlsx")
    league(*run_args(folder, out, now="2016-11-26T08:31+08:00"))
    bad = [i for i in _issues(out, "BAD_VALUE") if i["file"].endswith("签到表.xlsx")]
    assert [(i["sheet"], i["cell"]) for i in bad] == [("签到", "G7")], bad
    assert "“到场”" in bad[0]["message"]


def _old_layout(path: Path, fill: dict[int, str]) -> None:
    """The form as the previous version wrote it: 项目, 组别 (blank), 姓名, 工号, 到场, rows by 工号,
    its _meta record the players in that order under one blank group."""
    import json

    import openpyxl

    wb = openpyxl.load_workbook(path)
    ws = wb["签到"]
    rows = sorted(([r[0].value, r[4].value, r[5].value] for r in ws.iter_rows(min_row=5) if r[0].value),
                  key=lambda r: r[2])
    ws.delete_cols(6, 2)
    ws.delete_cols(2, 3)
    for c, v in enumerate(["项目", "组别", "姓名", "工号", "到场"], start=1):
        ws.cell(4, c).value = v
    for i, (ev, name, sid) in enumerate(rows):
        for c, v in enumerate([ev, None, name, sid, fill.get(i)], start=1):
            ws.cell(5 + i, c).value = v
    meta = wb["_meta"]
    for r in range(1, meta.max_row + 1):
        if meta.cell(r, 1).value == "checkin_players":
            meta.cell(r, 2).value = json.dumps([["", [[n, s] for _, n, s in rows]]], ensure_ascii=False,
                                               separators=(",", ":"))
    wb.save(path)


def test_R2016_F2_a_blank_check_in_form_of_the_earlier_layout_is_made_again_with_the_groups(tmp_path: Path) -> None:
    folder, out = _before_the_day(tmp_path)
    _old_layout(_form(out), {})
    league(*run_args(folder, out, now="2016-11-18T09:00+08:00"))
    head, rows = _rows(_form(out))
    assert "分工会" in head and {r["组别"] for r in rows} == {"A", "B", "C", "D"}
    (said,) = _issues(out, "CHECKIN_FORM_UPDATED")
    assert said["severity"] == "info" and "名单没有变化" in said["message"], said


def test_R2016_F2_a_filled_check_in_form_of_the_earlier_layout_is_kept_and_read(tmp_path: Path) -> None:
    folder, out = _before_the_day(tmp_path)
    _old_layout(_form(out), {i: "是" for i in range(68)})
    kept = _form(out).read_bytes()
    league(*run_args(folder, out, now="2016-11-26T08:20+08:00"))
    assert _form(out).read_bytes() == kept and not _issues(out, "CHECKIN_FORM_UPDATED")
    (folder / "inbox" / "签到表.xlsx").write_bytes(kept)
    league(*run_args(folder, out, now="2016-11-26T08:31+08:00"))
    with open(out / "t2016-poker" / "data" / "draw.csv", encoding="utf-8") as f:
        assert any(r["round"] == "1" for r in csv.DictReader(f))
