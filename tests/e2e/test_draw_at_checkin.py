"""R2016-F2 in nightly use: registration closes on 11-16, the check-in is on the day (11-26).
Round 1 waits for the event's draw_at, so the 签到表 dropped in that morning takes absent
players out and re-forms pairs in round 1 itself (before, round 1 was drawn on the night of
11-16 and the check-in could only raise DRAW_INPUT_CHANGED)."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

from tests.hardening.common import copy_sample, league, run_args


def _codes(out: Path) -> list[str]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return [r["code"] for r in csv.DictReader(f)]


def test_R2016_F2_round_1_is_drawn_after_the_check_in(tmp_path: Path) -> None:
    folder, checkin, out, r = _to_the_check_in(tmp_path)                  # nights after the deadline
    # (the date as the office's other lines say it: 2016年11月26日, not 2016-11-26)
    assert "第1轮于 2016年11月26日 08:30 后抽签" in r.stdout and "签到表" in r.stdout
    assert not (out / "t2016-poker" / "draws").exists() or not list((out / "t2016-poker" / "draws").iterdir())
    assert (out / "t2016-poker" / "forms" / "guandan-签到表.xlsx").is_file()
    shutil.move(checkin, folder / "inbox")                                    # the morning's check-in
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert "分组赛第1轮已抽签，定于 2016年11月26日 08:40—12:00 进行" in r.stdout, r.stdout   # (drawn before its session)
    assert "DRAW_INPUT_CHANGED" not in _codes(out)
    draw = (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
    assert "（重组）" in draw                                                     # re-formed at check-in


def _to_the_check_in(tmp_path: Path, yaml_edit=None):
    """t2016 with registrations only, run once before the day (its result too); the sample's
    check-in held back: (folder, the check-in mail, out, that night's result).  ``yaml_edit``:
    tournament.yaml's text → as edited before that run."""
    folder = copy_sample("t2016-poker", tmp_path)
    if yaml_edit is not None:
        y = folder / "tournament.yaml"
        y.write_text(yaml_edit(y.read_text(encoding="utf-8")), encoding="utf-8")
    held = tmp_path / "held"
    held.mkdir()
    for p in (folder / "inbox").iterdir():
        if "报名表" not in p.name:
            shutil.move(p, held / p.name)
    out = tmp_path / "out"
    r = league(*run_args(folder, out, now="2016-11-20T09:00+08:00"))
    return folder, held / "11260820-签到表.eml", out, r


def _checkin(src: Path, dst: Path, edit, date: str) -> None:
    from mailedit import edit_attachment

    edit_attachment(src, lambda wb: edit(wb["签到"]), dst, date=date)


def _drawn(out: Path) -> bool:
    draw = out / "t2016-poker" / "data" / "draw.csv"
    return draw.is_file() and "guandan," in draw.read_text(encoding="utf-8")


def test_R2016_F2_round_1_waits_for_the_check_in(tmp_path: Path) -> None:
    """At the draw time with no 签到表 in: round 1 waits for it (it was drawn with everyone,
    and the check-in that came later could only raise DRAW_INPUT_CHANGED)."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert "等待签到表" in r.stdout and not _drawn(out)
    shutil.copy(checkin, folder / "inbox")
    r = league(*run_args(folder, out, now="2016-11-26T08:40+08:00"))
    assert _drawn(out) and "DRAW_INPUT_CHANGED" not in _codes(out)


def test_R2016_F2_a_check_in_with_an_unreadable_row_holds_round_1_until_corrected(tmp_path: Path) -> None:
    """贺芳 marked “？” (× is absent, √ present: R2016-F2's usual marks): she may be absent, so
    round 1 is not drawn on a guess; the corrected
    sheet sent again draws it, and the first sheet's problem is a settled note."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)

    def cross(ws):
        assert ws["C12"].value == "贺芳"
        ws["E12"] = "？"
    _checkin(checkin, folder / "inbox" / "first.eml", cross, "Sat, 26 Nov 2016 08:10:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert "签到表有问题未改正" in r.stdout and not _drawn(out) and r.returncode == 1
    shutil.copy(checkin, folder / "inbox")                       # 08:20, 贺芳 否
    r = league(*run_args(folder, out, now="2016-11-26T08:40+08:00"))
    assert _drawn(out)
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        (bad,) = [i for i in csv.DictReader(f) if i["code"] == "BAD_VALUE"]
    assert bad["severity"] == "info" and "无需再处理" in bad["message"]
    draw = (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
    assert "贺芳" not in draw


def test_R2016_F2_a_cross_is_cleared_only_by_a_sheet_marking_that_player(tmp_path: Path) -> None:
    """贺芳 “？” on the first desk's sheet, then a second sheet without her row: round 1 still
    waits — the later clean sheet settled the “？” though it said nothing of her, and she was
    drawn as present (a review)."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)

    def cross(ws):
        assert ws["C12"].value == "贺芳"
        ws["E12"] = "？"

    def without_her(ws):
        for col in "ABCDEFG":
            ws[f"{col}12"] = None
    _checkin(checkin, folder / "inbox" / "first.eml", cross, "Sat, 26 Nov 2016 08:10:00 +0800")
    _checkin(checkin, folder / "inbox" / "second.eml", without_her, "Sat, 26 Nov 2016 08:15:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert not _drawn(out) and r.returncode == 1, r.stdout
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        bad = [i for i in csv.DictReader(f) if i["code"] == "BAD_VALUE"]
    assert [(i["severity"], i["cell"]) for i in bad] == [("error", "E12")] and "“?”" in bad[0]["message"], bad


def test_R2016_F2_a_check_in_sent_again_corrects_the_one_before(tmp_path: Path) -> None:
    """08:10: 董涛强 and 方鹏旭 否; 08:20 (the sample): both 是.  The later sheet counts: their
    pair plays (the marks of every sheet were added up, and the pair was withdrawn)."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)

    def both_away(ws):
        assert (ws["C5"].value, ws["C6"].value) == ("董涛强", "方鹏旭")
        ws["E5"], ws["E6"] = "否", "否"
    _checkin(checkin, folder / "inbox" / "first.eml", both_away, "Sat, 26 Nov 2016 08:10:00 +0800")
    shutil.copy(checkin, folder / "inbox")
    league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    draw = (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
    assert _drawn(out) and "机关一1队" in draw


def test_R2016_F2_a_check_in_corrected_after_the_draw_is_said(tmp_path: Path) -> None:
    """贺芳 came after all (a sheet at 08:40, after round 1 was drawn at 08:35): the draw stands
    and DRAW_INPUT_CHANGED says its check-in changed (she stayed absent without a word)."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)
    shutil.copy(checkin, folder / "inbox")
    league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    before = (out / "t2016-poker" / "data" / "draw.csv").read_bytes()

    def came(ws):
        ws["E12"] = "是"
    _checkin(checkin, folder / "inbox" / "late.eml", came, "Sat, 26 Nov 2016 08:40:00 +0800")
    league(*run_args(folder, out, now="2016-11-26T08:45+08:00"))
    assert "DRAW_INPUT_CHANGED" in _codes(out)
    assert (out / "t2016-poker" / "data" / "draw.csv").read_bytes() == before
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        (changed,) = [i for i in csv.DictReader(f) if i["code"] == "DRAW_INPUT_CHANGED"]
    assert "签到表改为到场的有 贺芳" in changed["message"]          # who, not only two digests


def test_a_check_in_whose_meta_sheet_was_deleted_is_known_by_its_sheet(tmp_path: Path) -> None:
    """_meta deleted: the 签到 sheet still says what the file is (it was "不是本次比赛下发的报名表
    或成绩表", and the office was told to send registration forms back)."""
    from mailedit import edit_attachment

    folder, checkin, out, _ = _to_the_check_in(tmp_path)

    def no_meta(wb):
        del wb["_meta"]
    edit_attachment(checkin, no_meta, folder / "inbox" / "checkin.eml", date="Sat, 26 Nov 2016 08:20:00 +0800")
    league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert _drawn(out) and "TEMPLATE_MISMATCH" not in _codes(out)
    assert "贺芳" not in (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")


def _issues(out: Path) -> list[dict[str, str]]:
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_R2016_F2_a_check_in_with_blank_rows_holds_round_1_until_they_are_marked(tmp_path: Path) -> None:
    """The audit: rows 45–72 left blank (28 people), 贺芳 否.  It said 错误 0 条 and drew round 1
    with the 28 as present — a draw that cannot be redone.  Now one error at E45 names them
    and round 1 waits; the sheet sent again filled draws it, the first sheet's problem gone."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)

    def half(ws):
        assert ws["C45"].value == "任鹏文" and ws["C72"].value == "贺宁萍" and ws["C73"].value is None
        for r in range(45, 73):
            ws[f"E{r}"] = None
    _checkin(checkin, folder / "inbox" / "first.eml", half, "Sat, 26 Nov 2016 08:10:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert "签到表有问题未改正" in r.stdout and "错误 1 条" in r.stdout and not _drawn(out) and r.returncode == 1
    (bad,) = [i for i in _issues(out) if i["code"] == "BAD_VALUE"]
    assert (bad["severity"], bad["sheet"], bad["cell"]) == ("error", "签到", "E45")
    assert "有 28 行的“到场”未填写（第45行 任鹏文、第46行 田勇" in bad["message"] and "第72行 贺宁萍）" in bad["message"]
    assert "请在这些行选“是”或“否”后重发签到表" in bad["message"]
    shutil.copy(checkin, folder / "inbox")                       # 08:20, every row marked
    r = league(*run_args(folder, out, now="2016-11-26T08:40+08:00"))
    assert _drawn(out) and not [i for i in _issues(out) if i["code"] == "BAD_VALUE"]


def test_R2016_F2_a_substitute_on_the_check_in_is_said_and_not_entered(tmp_path: Path) -> None:
    """董小替 (not registered) written in at the foot of the sheet, 是: it was passed over
    without a word.  A warning at his row says he was not entered and what to do; round 1
    is drawn (no one registered is left unread), without him; once it is, a note (exit 0)."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)

    def substitute(ws):
        assert ws["C73"].value is None
        ws["A73"], ws["C73"], ws["D73"], ws["E73"] = "扑克牌", "董小替", "001099", "是"
    _checkin(checkin, folder / "inbox" / "c.eml", substitute, "Sat, 26 Nov 2016 08:25:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert _drawn(out), r.stdout
    (sub,) = [i for i in _issues(out) if i["code"] == "BAD_VALUE"]
    assert (sub["severity"], sub["sheet"], sub["cell"]) == ("warning", "签到", "C73")
    assert sub["message"].startswith("签到表第73行“董小替”（工号 001099）不在扑克牌的参赛名单中，这一行没有录入")
    assert "董小替" not in (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
    # round 1 published: the row changes no draw any more — a note, not exit 1 every night after
    r = league(*run_args(folder, out, now="2016-11-26T08:45+08:00"))
    (sub,) = [i for i in _issues(out) if i["code"] == "BAD_VALUE"]
    assert sub["severity"] == "info" and "第1轮已抽签" in sub["message"] and r.returncode == 0, r.stdout


def test_R2016_F2_a_withdrawn_pair_needs_no_mark_on_the_check_in(tmp_path: Path) -> None:
    """董涛强 and 方鹏旭's pair withdrawn in tournament.yaml, their rows left blank on the
    check-in: they held round 1 with an error (“填好之前第1轮不抽签”) though they do not play."""
    folder, checkin, out, _ = _to_the_check_in(
        tmp_path, lambda s: s.replace("    draw_at: 2016", "    withdrawn: [董涛强, 方鹏旭]\n    draw_at: 2016", 1))

    def blank(ws):
        assert (ws["C5"].value, ws["C6"].value) == ("董涛强", "方鹏旭")
        ws["E5"], ws["E6"] = None, None
    _checkin(checkin, folder / "inbox" / "c.eml", blank, "Sat, 26 Nov 2016 08:20:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert _drawn(out) and r.returncode == 0, r.stdout
    assert not [i for i in _issues(out) if i["code"] == "BAD_VALUE"]


def test_R2016_F2_a_blank_row_read_after_round_1_is_drawn_is_a_note(tmp_path: Path) -> None:
    """No draw_at: round 1 drawn at the deadline; the day's check-in has a blank row.  It
    said “填好之前第1轮不抽签” as an error every night (exit 1) though round 1 was published;
    now a note (taken as present), and only DRAW_INPUT_CHANGED is said, once."""
    folder, checkin, out, first = _to_the_check_in(
        tmp_path, lambda s: s.replace("    draw_at: 2016-11-26T08:30:00+08:00\n", "", 1))
    assert _drawn(out), first.stdout

    def blank(ws):
        ws["E5"] = None
    _checkin(checkin, folder / "inbox" / "c.eml", blank, "Sat, 26 Nov 2016 08:20:00 +0800")
    league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert [i["code"] for i in _issues(out) if i["severity"] in ("error", "warning")] == ["DRAW_INPUT_CHANGED"]
    (note,) = [i for i in _issues(out) if i["code"] == "BAD_VALUE"]
    assert note["severity"] == "info" and "按到场处理" in note["message"] and "填好之前" not in note["message"]
    r = league(*run_args(folder, out, now="2016-11-27T08:35+08:00"))
    assert r.returncode == 0 and not [i for i in _issues(out) if i["severity"] == "error"], r.stdout


def test_R2016_F2_a_player_left_alone_at_the_check_in_is_no_change_of_registration(tmp_path: Path) -> None:
    """Only 贺芳 否 (曹明强 came): her partner is left alone with no one to re-form with and does
    not play (plan["dropped"]).  The nights after, DRAW_INPUT_CHANGED said “公布后报名有变化（新增
    …）” of that pair, though no registration changed — the check-in took it out, as it takes
    out a pair both of whose players are absent."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)

    def only_her(ws):
        assert (ws["C12"].value, ws["E12"].value, ws["C16"].value) == ("贺芳", "否", "曹明强")
        ws["E16"] = "是"
    _checkin(checkin, folder / "inbox" / "c.eml", only_her, "Sat, 26 Nov 2016 08:20:00 +0800")
    league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert _drawn(out)
    assert "搭档未到且无人可组合，本次不能参赛" in (out / "t2016-poker" / "draws" / "guandan-r1.html").read_text(encoding="utf-8")
    # the desk sends the same sheet again (the night's kept state is not replayed then)
    _checkin(checkin, folder / "inbox" / "again.eml", only_her, "Sat, 26 Nov 2016 08:40:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:45+08:00"))
    assert "DRAW_INPUT_CHANGED" not in _codes(out) and r.returncode == 0, r.stdout


def test_R2016_F2_a_player_whose_row_was_deleted_from_the_check_in_holds_round_1(tmp_path: Path) -> None:
    """The audit: the office deleted the rows of the two absent players (贺芳, 曹明强) instead of
    choosing 否.  Round 1 was drawn with 34 pairs instead of 33, the two drawn as present, without
    a word — and a published draw is never redrawn.  A player on no 签到表 row is as a row left
    blank: one error naming them and the sheet, round 1 waits; the sheet sent again with their
    rows draws it."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path)

    def deleted(ws):
        assert (ws["C12"].value, ws["E12"].value, ws["C16"].value, ws["E16"].value) == ("贺芳", "否", "曹明强", "否")
        ws.delete_rows(16)
        ws.delete_rows(12)
    _checkin(checkin, folder / "inbox" / "first.eml", deleted, "Sat, 26 Nov 2016 08:10:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert "签到表有问题未改正" in r.stdout and not _drawn(out) and r.returncode == 1, r.stdout
    (bad,) = [i for i in _issues(out) if i["severity"] == "error"]
    assert (bad["code"], bad["sheet"]) == ("BAD_VALUE", "签到") and bad["file"].endswith(".xlsx") and bad["cell"]
    assert bad["message"].startswith("签到表中没有扑克牌的 贺芳（机关第二分工会）、曹明强（会计学院分工会）"), bad["message"]
    assert "（2 人）" in bad["message"] and "请在签到表中补回这些人的行并在“到场”填“是”或“否”" in bad["message"]
    shutil.copy(checkin, folder / "inbox")                       # 08:20, every row there
    r = league(*run_args(folder, out, now="2016-11-26T08:40+08:00"))
    assert _drawn(out) and not [i for i in _issues(out) if i["code"] == "BAD_VALUE"], r.stdout
    draw = (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
    assert "贺芳" not in draw and "曹明强" not in draw


def test_R2016_F2_check_in_sheets_of_parts_of_the_field_add_up(tmp_path: Path) -> None:
    """Two desks, each sending the rows of its half of the players: together they list every
    player, and round 1 is drawn from them as from the one whole sheet."""
    folder, checkin, out, _ = _to_the_check_in(tmp_path / "halves")
    whole, whole_checkin, whole_out, _ = _to_the_check_in(tmp_path / "whole")
    shutil.copy(whole_checkin, whole / "inbox")
    league(*run_args(whole, whole_out, now="2016-11-26T08:40+08:00"))

    def rows_from(first, last):
        def keep(ws):
            for r in range(ws.max_row, 4, -1):
                if ws[f"C{r}"].value and not first <= r <= last:
                    ws.delete_rows(r)
        return keep
    _checkin(checkin, folder / "inbox" / "a.eml", rows_from(5, 40), "Sat, 26 Nov 2016 08:10:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:35+08:00"))
    assert not _drawn(out) and "签到表中没有扑克牌的 " in r.stdout + "".join(i["message"] for i in _issues(out))
    _checkin(checkin, folder / "inbox" / "b.eml", rows_from(41, 200), "Sat, 26 Nov 2016 08:15:00 +0800")
    r = league(*run_args(folder, out, now="2016-11-26T08:40+08:00"))
    assert _drawn(out) and r.returncode == 0, r.stdout
    draw = (out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
    assert draw == (whole_out / "t2016-poker" / "data" / "draw.csv").read_text(encoding="utf-8")
