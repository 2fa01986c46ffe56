"""R2020-Q3: a result sheet that shows a different pairing is PARTNER_CHANGED at the cell."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment, table_header
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_R2020_Q3_partner_changed(tmp_path):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    eml = next(p for p in (folder / "inbox").glob("*.eml") if "shuangsheng-r1" in p.name)
    cells = []

    def sign(wb):
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        cell = ws.cell(hrow + 1, col["甲方签名"])
        cell.value = "张三/李四"
        cells.append(cell.coordinate)
    edit_attachment(eml, sign)

    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["code"] == "PARTNER_CHANGED"]
    assert len(rows) == 1
    assert rows[0]["cell"] == cells[0] and rows[0]["sheet"] == "成绩"
    assert "张三" in rows[0]["message"] and "李四" in rows[0]["message"]
    assert report.needs_attention


def _partner_rows(tmp_path: Path, sample: str, mail: str, fill) -> list[dict[str, str]]:
    """The sample ``sample`` with its result mail ``mail``'s first sheet edited by
    ``fill(ws, header_row, columns)``, run once: the PARTNER_CHANGED rows of issues.csv."""
    folder = tmp_path / sample
    shutil.copytree(ROOT / "sample_sheets" / sample, folder)

    def edit(wb):
        ws = wb.worksheets[0]
        fill(ws, *table_header(ws))
    edit_attachment(folder / "inbox" / mail, edit)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=dt.datetime(2030, 1, 1, tzinfo=TZ)))
    with open(tmp_path / "out" / sample / "data" / "issues.csv", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["code"] == "PARTNER_CHANGED"]


def test_R2016_partner_changed_names_the_group_of_the_table(tmp_path):
    """Each of T2016's four groups has a 第1桌: the message named 第1轮第1桌 only (the cell
    was right); it names the group as RESULT_INVALID's messages do."""
    groups = []

    def sign(ws, hrow, col):
        ws.cell(hrow + 1, col["甲方签名"]).value = "张三/李四"
        groups.append((ws.cell(hrow + 1, col["组别"]).value, ws.cell(hrow + 1, col["桌号"]).value))
    (row,) = _partner_rows(tmp_path, "t2016-poker", "11260941-guandan-r1-成绩表.eml", sign)
    (group, table), = groups
    assert f"第1轮{group}组第{table}桌 甲方签名“张三/李四”" in row["message"], row["message"]


def test_R2015_a_traditional_signed_mark_is_no_stranger(tmp_path):
    """A referee of the Traditional T2015 league writes 已簽 in the signature cells: every
    signed cell was PARTNER_CHANGED (已簽 不是…的报名选手), thirty errors for one sheet."""
    signed = []

    def sign(ws, hrow, col):
        for r in range(hrow + 1, ws.max_row + 1):
            if ws.cell(r, col["桌号"]).value not in (None, ""):
                for label in ("甲方签名", "乙方签名"):
                    ws.cell(r, col[label]).value = "已簽"
                    signed.append(r)
    rows = _partner_rows(tmp_path, "t2015-tcm", "11211155-shuangkou-r1-成绩表.eml", sign)
    assert signed and rows == []


def _all_rows(tmp_path: Path, sample: str, mail: str, fill) -> list[dict[str, str]]:
    """As :func:`_partner_rows`, every row of issues.csv."""
    _partner_rows(tmp_path, sample, mail, fill)
    with open(tmp_path / "out" / sample / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_R2016_ordinary_signatures_are_no_partner_change(tmp_path):
    """Signatures as players write them on T2016's round 1 sheet (an audit): both registered
    names run together (贺欣伟彭鹏), signing for the partner (卢帅（代）) — accepted without a
    word; a surname only (汤, of 汤娟/汤浩超) — a warning about the signature at its cell, not
    PARTNER_CHANGED (an error that held the exit status at 1 though the table was scored, and
    told the captain to restore a partner never changed).  A player of another pair in the
    cell (卢帅 at 后勤4队's) is still PARTNER_CHANGED."""
    cells = {}

    def sign(ws, hrow, col):
        tables = {(ws.cell(r, col["组别"]).value, ws.cell(r, col["桌号"]).value): r
                  for r in range(hrow + 1, ws.max_row + 1)}
        plan = [(("A", 1), "甲方签名", "汤", "工商1队"), (("A", 1), "乙方签名", "卢帅", "后勤4队"),
                (("A", 3), "甲方签名", "贺欣伟彭鹏", "会计4队"), (("A", 4), "甲方签名", "卢帅（代）", "体育部1队")]
        for table, label, name, team in plan:
            r = tables[table]
            assert ws.cell(r, col["甲方" if label == "甲方签名" else "乙方"]).value == team
            ws.cell(r, col[label]).value = name
            cells[name] = ws.cell(r, col[label]).coordinate
    rows = _all_rows(tmp_path, "t2016-poker", "11260941-guandan-r1-成绩表.eml", sign)
    changed = [r for r in rows if r["code"] == "PARTNER_CHANGED"]
    assert [(r["cell"], r["severity"]) for r in changed] == [(cells["卢帅"], "error")], changed
    unclear = [r for r in rows if r["cell"] in cells.values() and r["code"] != "PARTNER_CHANGED"]
    assert [(r["code"], r["severity"], r["sheet"], r["cell"]) for r in unclear] == \
        [("SIGNATURE_UNCLEAR", "warning", "成绩", cells["汤"])], unclear
    assert "签名" in unclear[0]["message"] and "“汤”" in unclear[0]["message"] and "汤娟" in unclear[0]["message"]
    assert "第1轮A组第1桌 甲方签名" in unclear[0]["message"] and "搭档固定" not in unclear[0]["message"]
    assert [r for r in rows if r["severity"] == "error"] == changed


def test_R2020_Q3_signature_forms_of_the_registered_pair():
    """How a pair's signature cell is read (R2020-Q3): the registered names, run together or
    with a note of signing for the partner, accepted; a part of one of them (a surname, a
    given name) or a name one character off a registered one doubtful; anyone else — a player
    of another pair, a name not registered, pieces of both names (贺彭) — a partner change."""
    def said(cell: str) -> list[str]:
        return _said(("贺欣伟", "彭鹏"), cell)

    for ok in ("贺欣伟彭鹏", "彭鹏贺欣伟", "贺欣伟（代）", "贺欣伟(代)", "彭鹏代签", "贺欣伟 彭鹏（代签）",
               "贺欣伟、彭鹏(代)", "已签", "（代）"):
        assert said(ok) == [], ok
    for doubtful in ("贺", "欣伟", "贺欣为", "贺欣伟/彭", "贺欣伟彭"):
        assert said(doubtful) == ["SIGNATURE_UNCLEAR"], doubtful
    for changed in ("卢帅", "贺欣伟/卢帅", "贺欣伟卢帅", "卢帅（代）", "张三/李四", "贺欣伟/张三", "贺彭"):
        assert said(changed) == ["PARTNER_CHANGED"], changed


def _said(pair_names: tuple[str, ...], cell: str, other_names: tuple[str, ...] = ("卢帅", "贺宁萍")) -> list[str]:
    """The codes :meth:`EventRunner.check_partners` says for ``cell``, the 甲方签名 of the pair
    ``pair_names`` playing ``other_names``."""
    from types import SimpleNamespace

    from pipeline.issues import IssueLog
    from pipeline.model import CellRef, Entry, Match, Person
    from pipeline.run import EventRunner

    pair = Entry("g:1", "guandan", "b1", "会计4队", tuple(Person(n, "b1") for n in pair_names))
    other = Entry("g:2", "guandan", "b2", "后勤1队", tuple(Person(n, "b2") for n in other_names))
    entries = {e.id: e for e in (pair, other)}
    m = Match("guandan", "group", 1, "A", 3, ("g:1", "g:2"))
    log = IssueLog()
    runner = SimpleNamespace(ev=SimpleNamespace(name="扑克牌", team_size=2),
                             t=SimpleNamespace(spec=SimpleNamespace(script="simplified")), issues=log)
    row = SimpleNamespace(values={"甲方签名": cell}, cells={"甲方签名": CellRef("r1.xlsx", "成绩", "K10")})
    EventRunner.check_partners(runner, m, row, ["甲方签名"], SimpleNamespace(round=1), entries)
    return [i.code for i in log]


def test_R2020_Q3_a_stranger_beside_or_built_of_the_pairs_names_is_a_partner_change():
    """A review of the signature leniency: an unregistered substitute run together with an own
    name (贺欣伟张三), or a name built of pieces of both partners' names (李丽 for 王丽/李娜,
    张强 for 张伟/李强), or a two-character own name with a character more (王丽华) was only
    SIGNATURE_UNCLEAR, a warning — a real partner change silenced.  Doubtful is only a piece of
    one own name (a surname, a given name), a 3+-character own name one character off, or one
    with one character of the pair's names more (贺欣伟彭); the rest is PARTNER_CHANGED."""
    cases = [(("贺欣伟", "彭鹏"), "贺欣伟/张三", "PARTNER_CHANGED"),
             (("贺欣伟", "彭鹏"), "贺欣伟张三", "PARTNER_CHANGED"),
             (("贺欣伟", "彭鹏"), "张三贺欣伟", "PARTNER_CHANGED"),
             (("贺欣伟", "彭鹏"), "贺彭", "PARTNER_CHANGED"),
             (("贺欣伟", "彭鹏"), "彭鹏贺欣", "PARTNER_CHANGED"),
             (("贺欣伟", "彭鹏"), "贺欣伟华", "PARTNER_CHANGED"),
             (("王丽", "李娜"), "李丽", "PARTNER_CHANGED"),
             (("王丽", "李娜"), "王丽华", "PARTNER_CHANGED"),
             (("王丽", "李娜"), "王丽娜", "PARTNER_CHANGED"),
             (("张伟", "李强"), "张强", "PARTNER_CHANGED"),
             (("张伟", "李强"), "张伟强", "PARTNER_CHANGED"),
             (("王丽", "李娜"), "王丽李娜", None),
             (("王丽", "李娜"), "王丽（代）", None),
             (("王丽", "李娜"), "王", "SIGNATURE_UNCLEAR"),
             (("王丽", "李娜"), "娜", "SIGNATURE_UNCLEAR"),
             (("汤娟", "汤浩超"), "汤", "SIGNATURE_UNCLEAR"),
             (("汤娟", "汤浩超"), "浩超", "SIGNATURE_UNCLEAR"),
             (("汤娟", "汤浩超"), "汤浩朝", "SIGNATURE_UNCLEAR"),
             (("贺欣伟", "彭鹏"), "贺欣伟彭", "SIGNATURE_UNCLEAR")]
    got = [(pair, cell, (_said(pair, cell) or [None])[0]) for pair, cell, _ in cases]
    assert got == cases
