"""Registration workbook (contract "Registration workbook"; R2020-Q1, R2015-Q3, R2016-Q1)."""
from __future__ import annotations

import zipfile

import pytest
from openpyxl import load_workbook

from pipeline import layout
from pipeline.spec import TEMPLATE_VERSION, EventSpec, UnitSpec, validated
from pipeline.xlsx import branch_quota, read_meta, write_all_templates, write_registration_template
from pipeline.xlsx.registration import reg_columns

from xlsx_fixtures import make_tournament


def _header(ws, row: int) -> list:
    return [c.value for c in ws[row] if c.value is not None]


def _validations(ws) -> dict[str, object]:
    """sqref of the first column → DataValidation."""
    out = {}
    for dv in ws.data_validations.dataValidation:
        out[str(dv.sqref).split(":")[0].rstrip("0123456789")] = dv
    return out


@pytest.fixture
def book(tournament, tmp_path):
    path = write_registration_template(tournament, "admin1", tmp_path / "admin1.xlsx")
    return load_workbook(path)


def test_sheets_and_meta(book, tournament):
    assert book.sheetnames == [layout.REG_SHEET, layout.INSTRUCTIONS_SHEET, layout.META_SHEET]
    meta_ws = book[layout.META_SHEET]
    assert meta_ws.sheet_state == "veryHidden"
    assert meta_ws.protection.sheet
    meta = read_meta(book)
    assert meta[layout.META_KIND] == layout.KIND_REGISTRATION
    assert meta[layout.META_TOURNAMENT] == "t-test"
    assert meta[layout.META_BRANCH] == "admin1"
    assert meta[layout.META_VERSION] == TEMPLATE_VERSION
    assert meta[layout.META_TOKEN] == tournament.token("admin1")
    assert tournament.token_ok("admin1", meta[layout.META_TOKEN])
    assert not tournament.token_ok("sci", meta[layout.META_TOKEN])


def test_header_row_labels_and_freeze(book):
    ws = book[layout.REG_SHEET]
    hdr = read_meta(book)["header_row"]
    assert _header(ws, hdr) == layout.REG_COLUMNS
    assert ws.freeze_panes == f"A{hdr + 1}"
    # 序号 pre-filled 1..n, locked; data cells unlocked
    assert ws.cell(hdr + 1, 1).value == 1
    assert ws.cell(hdr + 60, 1).value == 60
    assert ws.cell(hdr + 1, 1).protection.locked
    for c in range(2, len(layout.REG_COLUMNS) + 1):
        assert not ws.cell(hdr + 1, c).protection.locked
        assert not ws.cell(hdr + 60, c).protection.locked


def test_header_block_protected_and_prefilled(book, tournament):
    ws = book[layout.REG_SHEET]
    assert ws.protection.sheet
    assert book.security.lockStructure
    hdr = read_meta(book)["header_row"]
    block = [ws.cell(r, 1).value for r in range(1, hdr)]
    text = "\n".join(str(v) for v in block if v)
    assert tournament.spec.name in text
    assert "行政第一分工会" in text and "王军" in text
    # quotas per event for this branch (120 members) and deadlines
    assert "象棋：限报 2 人" in text
    assert "双升：限报 2 队（每队 2 人，共 4 人）" in text
    assert "双扣：限报 3 队" in text                 # bands: 100 ≤ 120 < 150 → 3
    assert "掼蛋：限报 9 队" in text                 # ratio: floor(0.15 × 120) = 18 players → 9 pairs
    assert "围棋：不限" in text
    assert "2020年11月9日 15:00" in text
    assert "福建路、花园路" in text
    for r in range(1, hdr):
        assert ws.cell(r, 1).protection.locked


def test_validations(book):
    ws = book[layout.REG_SHEET]
    hdr = read_meta(book)["header_row"]
    dvs = _validations(ws)
    col = {label: chr(ord("A") + i) for i, label in enumerate(layout.REG_COLUMNS)}
    assert dvs[col["项目"]].type == "list"
    assert dvs[col["项目"]].formula1 == '"象棋,双升,双扣,掼蛋,围棋"'
    assert dvs[col["性别"]].formula1 == '"男,女"'
    assert dvs[col["乘车地点"]].formula1 == '"福建路、花园路,镇江,桥头,自行到达"'
    team = dvs[col["队号"]]
    # the most pairs admin1 (120 members) may enter in one event: 掼蛋 9 (not 双升 2, 双扣 3)
    assert (team.type, team.operator, team.formula1, team.formula2) == ("whole", "between", "1", "9")
    assert "1 到 9 之间" in team.error
    assert dvs[col["工号"]].type == "textLength"
    assert dvs[col["联系电话"]].type == "textLength"
    assert str(dvs[col["项目"]].sqref) == f"B{hdr + 1}:B{hdr + 60}"


def test_print_setup(book):
    ws = book[layout.REG_SHEET]
    hdr = read_meta(book)["header_row"]
    assert int(ws.page_setup.paperSize) == 9   # A4
    assert ws.page_setup.orientation in ("landscape", "portrait")
    assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0
    # the page-number footer fits between the footer margin and the body (LibreOffice cut it)
    assert ws.page_margins.bottom - ws.page_margins.footer >= 0.4
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_title_rows == f"${hdr}:${hdr}"


def test_instructions_sheet(book):
    text = "\n".join(str(r[0]) for r in book[layout.INSTRUCTIONS_SHEET].iter_rows(values_only=True) if r[0])
    for needle in ("一名选手", "队号", "限报 2 人", "2020年11月9日 15:00", "工会办公室 成老师", "不予受理"):
        assert needle in text, needle
    # sent on 钉钉: no word of the registered mailbox (test_the_form_asks_for_the_registered_mailbox…)
    assert "a1@example.edu" not in text


def test_R2016_Q2_the_form_asks_everyone_for_a_pick_up_point(book):
    """The form says 乘车地点 is to be filled by everyone and what a blank one does (the row
    is taken, the manifest lists the person as to be confirmed): it said neither, and a blank
    one refused the player."""
    ws = book[layout.REG_SHEET]
    hdr = read_meta(book)["header_row"]
    (line,) = [ws.cell(r, 1).value for r in range(1, hdr) if str(ws.cell(r, 1).value).startswith("乘车地点：")]
    assert "请每人填写" in line
    text = "\n".join(str(r[0]) for r in book[layout.INSTRUCTIONS_SHEET].iter_rows(values_only=True) if r[0])
    (step,) = [x for x in text.splitlines() if "“乘车地点”请每人填写" in x]
    assert "照常受理" in step and "待确认" in step


def test_the_contract_header_even_without_pickup_or_team_events(tmp_path, spec_dict):
    """contract.md: the header row carries all nine labels, whatever the tournament."""
    events = [e for e in spec_dict["events"] if e.get("team_size", 1) == 1]
    t = make_tournament(tmp_path, pickup_points=[], events=events)
    assert reg_columns(t.spec) == ["序号", "项目", "队号", "姓名", "工号", "性别", "联系电话", "乘车地点", "备注"]
    wb = load_workbook(write_registration_template(t, "sci", tmp_path / "x.xlsx"))
    hdr = read_meta(wb)["header_row"]
    assert _header(wb[layout.REG_SHEET], hdr) == reg_columns(t.spec)
    assert all(dv.type != "whole" for dv in wb[layout.REG_SHEET].data_validations.dataValidation)
    block = " ".join(str(wb[layout.REG_SHEET].cell(r, 1).value) for r in range(1, hdr))
    assert "队号" not in block and "乘车地点" not in block


def test_R2016_Q2_a_form_issued_before_the_bus_stops_keeps_its_entries(tmp_path, spec_dict):
    """The form records the 乘车地点 choices it was issued with (_meta): filled on a form
    issued without any, it is read with one warning once tournament.yaml has bus stops —
    not a MISSING_VALUE error on every row (a running league's entries were all dropped)."""
    from pipeline.ingest.registration import read_registration
    from pipeline.ingest.workbook import read_workbook

    before = make_tournament(tmp_path, pickup_points=[])
    path = write_registration_template(before, "sci", tmp_path / "x.xlsx")
    wb = load_workbook(path)
    assert read_meta(wb)[layout.META_PICKUP] in ("", None)
    ws, hdr = wb[layout.REG_SHEET], read_meta(wb)["header_row"]
    cols = {c.value: c.column for c in ws[hdr]}
    ws.cell(hdr + 1, cols["项目"], before.spec.events[0].name)
    ws.cell(hdr + 1, cols["姓名"], "王军")
    ws.cell(hdr + 1, cols["性别"], "男")
    wb.save(path)
    after = make_tournament(tmp_path, pickup_points=["东门", "西门"])
    reg, issues = read_registration(read_workbook(path), "x.xlsx", after)
    assert [r.name for r in reg.rows if r.ok] == ["王军"]
    assert [(i.code, i.severity.value) for i in issues if i.code != "MISSING_VALUE" or "乘车" in i.message] == [
        ("HEADER_CHANGED", "warning")]


def _event(quota: dict, team_size: int = 1) -> EventSpec:
    return validated(EventSpec, {"id": "e", "name": "项目", "game": "g", "team_size": team_size,
                                     "format": {"type": "x"}, "quota": quota})


def _unit(members: int) -> UnitSpec:
    return UnitSpec(id="u", name="单位", members=members)


def test_R2020_Q1_fixed_quota():
    assert branch_quota(_event({"rule": "fixed", "per_branch": 2}), _unit(500)) == 2


@pytest.mark.parametrize("members, expected", [(0, 1), (49, 1), (50, 2), (99, 2), (100, 3), (149, 3),
                                               (150, 4), (199, 4), (200, 5)])
def test_R2015_Q3_band_quota(members, expected):
    ev = _event({"rule": "bands", "extra_every": 50, "bands": [
        {"min_members": 0, "entries": 1}, {"min_members": 50, "entries": 2}, {"min_members": 100, "entries": 3}]}, 2)
    assert branch_quota(ev, _unit(members)) == expected


@pytest.mark.parametrize("members, expected", [(100, 7), (120, 9), (20, 1), (6, 1), (0, 1), (140, 10)])
def test_R2016_Q1_ratio_quota(members, expected):
    # max_players = floor(0.15 N), pairs = max(1, players // 2)
    assert branch_quota(_event({"rule": "ratio", "ratio": 0.15}, 2), _unit(members)) == expected


def test_ratio_quota_uses_exact_decimals():
    # 0.29 × 100 is 28.999… in binary floating point; the rule means 29 players
    assert branch_quota(_event({"rule": "ratio", "ratio": 0.29}), _unit(100)) == 29


def test_open_quota_is_unlimited():
    assert branch_quota(_event({"rule": "open"}), _unit(10)) is None


def test_rows_grow_with_quota(tmp_path, spec_dict):
    spec_dict["events"][0]["quota"] = {"rule": "fixed", "per_branch": 80}
    events = [spec_dict["events"][0]]
    t = make_tournament(tmp_path, events=events)
    wb = load_workbook(write_registration_template(t, "admin1", tmp_path / "x.xlsx", rows=10))
    hdr = read_meta(wb)["header_row"]
    assert wb[layout.REG_SHEET].cell(hdr + 90, 1).value == 90


def test_write_all_templates(tournament, tmp_path):
    paths = write_all_templates(tournament, tmp_path / "out")
    assert [p.name for p in paths] == ["t-test-admin1-行政第一分工会-报名表.xlsx",
                                       "t-test-sci-理学院_化学分工会-报名表.xlsx"]
    metas = [read_meta(load_workbook(p)) for p in paths]
    assert [m[layout.META_BRANCH] for m in metas] == ["admin1", "sci"]
    assert [m[layout.META_TOKEN] for m in metas] == [tournament.token("admin1"), tournament.token("sci")]
    assert not list((tmp_path / "out").glob(".*"))   # no temporary files left behind


def test_traditional_conversion_keeps_matched_labels(tmp_path):
    t = make_tournament(tmp_path, script="traditional")
    wb = load_workbook(write_registration_template(t, "admin1", tmp_path / "x.xlsx"))
    assert wb.sheetnames[:2] == [layout.REG_SHEET, layout.INSTRUCTIONS_SHEET]
    ws = wb[layout.REG_SHEET]
    hdr = read_meta(wb)["header_row"]
    assert _header(ws, hdr) == layout.REG_COLUMNS          # readers match these: unconverted
    assert ws["A1"].value == "第四屆教職工棋牌聯賽 報名表"
    assert "分工會：行政第一分工會" in ws["A2"].value
    assert "限報 2 人" in ws["A3"].value
    assert ws["A3"].value.startswith("象棋")                 # event names as in the spec (= dropdown)
    instructions = "\n".join(str(r[0]) for r in wb[layout.INSTRUCTIONS_SHEET].iter_rows(values_only=True) if r[0])
    assert "填表說明" in instructions and "“报名表”工作表" in instructions
    assert _validations(ws)["B"].formula1 == '"象棋,双升,双扣,掼蛋,围棋"'


def test_names_with_formula_triggers_are_text(tmp_path, spec_dict):
    spec_dict["units"][0]["name"] = '=HYPERLINK("http://evil","点我")'
    spec_dict["units"][0]["captain"] = "+cmd|' /C calc'!A0"
    t = make_tournament(tmp_path, units=spec_dict["units"])
    path = write_registration_template(t, "admin1", tmp_path / "x.xlsx")
    wb = load_workbook(path)
    assert read_meta(wb)["branch_name"] == '=HYPERLINK("http://evil","点我")'
    assert wb[layout.META_SHEET]["B7"].data_type == "s"
    with zipfile.ZipFile(path) as z:
        assert not any("<f>" in z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/"))


def test_unknown_unit_raises(tournament, tmp_path):
    with pytest.raises(KeyError):
        write_registration_template(tournament, "nope", tmp_path / "x.xlsx")


def test_reader_finds_the_table(tournament, tmp_path):
    """The ingest reader (another module) finds our header row and _meta."""
    wbmod = pytest.importorskip("pipeline.ingest.workbook")
    path = write_registration_template(tournament, "admin1", tmp_path / "x.xlsx")
    book = wbmod.read_workbook(path)
    assert book.meta[layout.META_TOKEN] == tournament.token("admin1")
    sheet = book.sheet(layout.REG_SHEET)
    rows = [[sheet.value(r, c) for c in range(1, 10)] for r in range(1, 40)]
    table = wbmod.find_table(rows, layout.REG_REQUIRED)
    assert table.header_row == read_meta(load_workbook(path))["header_row"]


@pytest.mark.parametrize("changes,by_mail", [({"contact": "工会办公室 成洁（钉钉）"}, False),
                                             ({"contact": "工会办公室 成洁（钉钉）", "submit_to": "ghb@x.edu.cn"}, True),
                                             ({"contact": "ghb@x.edu.cn"}, True)])
def test_the_form_asks_for_the_registered_mailbox_only_when_it_is_sent_by_mail(tmp_path, changes, by_mail):
    """Sent on 钉钉 to the contact, "请用登记的邮箱发送" contradicted where it went."""
    t = make_tournament(tmp_path, **changes)
    unit = next(u for u in t.spec.units if u.emails)
    wb = load_workbook(write_registration_template(t, unit.id, tmp_path / "form.xlsx"))
    text = " ".join(str(c.value) for ws in wb for row in ws.iter_rows() for c in row if c.value)
    assert ("请用登记的邮箱" in text) == by_mail
    assert ("发送至：ghb@x.edu.cn" in text) == ("submit_to" in changes or "@" in changes["contact"])


def test_R2015_Q2_the_form_says_how_to_mark_a_cross_unit_member():
    """The form said only 可跨分工会组队: the note the checks read was written nowhere."""
    from pipeline.spec import EventSpec, UnitSpec, validated
    from pipeline.xlsx.registration import quota_text

    ev = validated(EventSpec, {"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2,
                               "cross_branch": True, "format": {"type": "pairs_movement"}})
    text = quota_text(ev, validated(UnitSpec, {"id": "b1", "name": "药学院"}), "分工会")
    assert "可跨分工会组队" in text and "备注写“跨分工会：" in text


def test_rows_can_be_inserted_and_every_inserted_row_is_read(tmp_path, spec_dict):
    """An open event's form has 60 rows and a locked sheet: a unit with more entrants could
    only send a second form, which replaces the first.  Whole rows may be inserted now (the
    instructions say how), and the rows typed into them are read."""
    from pipeline.ingest.registration import read_registration
    from pipeline.ingest.workbook import read_workbook

    spec_dict["events"][0]["quota"] = {"rule": "open"}
    t = make_tournament(tmp_path, events=[spec_dict["events"][0]])
    path = write_registration_template(t, "admin1", tmp_path / "x.xlsx")
    wb = load_workbook(path)
    ws = wb[layout.REG_SHEET]
    assert ws.protection.sheet and not ws.protection.insertRows       # False: allowed
    assert ws.protection.deleteColumns and ws.protection.insertColumns   # columns stay fixed
    text = " ".join(str(c.value) for row in wb[layout.INSTRUCTIONS_SHEET].iter_rows() for c in row if c.value)
    assert "插入" in text and "取代" in text
    hdr = read_meta(wb)["header_row"]
    cols = {c.value: c.column for c in ws[hdr] if c.value}
    ws.insert_rows(hdr + 30, 10)           # as Excel does: within the table
    ev = spec_dict["events"][0]["name"]
    names = [a + b for a in "王李张刘陈杨赵" for b in "一二三四五六七八九十"]       # 70 names
    for i, name in enumerate(names):
        r = hdr + 1 + i
        ws.cell(r, cols["项目"], ev)
        ws.cell(r, cols["姓名"], name)
        ws.cell(r, cols["工号"], f"{1000 + i}")
        ws.cell(r, cols["性别"], "男")
        if "乘车地点" in cols:
            ws.cell(r, cols["乘车地点"], t.spec.pickup_points[0])
    wb.save(path)
    reg, issues = read_registration(read_workbook(path), "x.xlsx", t)
    assert [r.name for r in reg.rows if r.ok] == names, issues


def _team_dv(wb):
    return next(dv for dv in wb[layout.REG_SHEET].data_validations.dataValidation if dv.type == "whole")


@pytest.mark.parametrize("members, bound", [(400, "30"), (45, "3"), (5, "2")])
def test_R2016_Q1_team_no_check_takes_every_team_the_quota_allows(tmp_path, spec_dict, members, bound):
    """队号 accepted up to the most pairs the unit may enter in one event, the number the header
    states — it was 1..20 whatever the quota, so Excel refused 队号 21–30 of a 30-pair quota."""
    units = [dict(spec_dict["units"][0], members=members)]
    t = make_tournament(tmp_path, units=units)
    wb = load_workbook(write_registration_template(t, "admin1", tmp_path / "a.xlsx"))
    dv = _team_dv(wb)
    assert (dv.operator, dv.formula1, dv.formula2) == ("between", "1", bound)
    assert f"1 到 {bound} 之间的整数" in dv.error and f"最多报 {bound} 队" in dv.error
    block = " ".join(str(c.value) for c in wb[layout.REG_SHEET]["A"][:12] if c.value)
    assert f"限报 {bound} 队" in block


def test_team_no_check_has_no_upper_bound_when_a_pair_event_is_open(tmp_path, spec_dict):
    """An open pair event: any number of pairs (rows may be inserted) → 队号 ≥ 1, no cap."""
    events = [dict(e, quota={"rule": "open"}) if e["id"] == "shuangkou" else e for e in spec_dict["events"]]
    t = make_tournament(tmp_path, events=events)
    dv = _team_dv(load_workbook(write_registration_template(t, "admin1", tmp_path / "a.xlsx")))
    assert (dv.operator, dv.formula1, dv.formula2) == ("greaterThanOrEqual", "1", None)
    assert "正整数" in dv.error and "到" not in dv.error


def test_team_no_bound_ignores_individual_events_and_is_at_least_one(tmp_path, spec_dict):
    """围棋 (open, individual) does not lift the bound; a unit with no pair quota still gets 1."""
    from pipeline.xlsx.registration import team_no_limit
    t = make_tournament(tmp_path)
    assert team_no_limit(t.spec, t.spec.unit("admin1")) == 9
    events = [dict(e, quota={"rule": "fixed", "per_branch": 0}) if e.get("team_size", 1) > 1 else e
              for e in spec_dict["events"]]
    t = make_tournament(tmp_path, events=events)
    assert team_no_limit(t.spec, t.spec.unit("admin1")) == 1
    assert _team_dv(load_workbook(write_registration_template(t, "admin1", tmp_path / "a.xlsx"))).formula2 == "1"


def test_a_traditional_form_names_its_captain_as_the_receipts_do(tmp_path, spec_dict):
    """T2015's form said 隊長：刘建川 (the name left Simplified in a converted header) while
    every receipt and page said 劉建川: the captain is converted as a name (于力 keeps 于)."""
    spec_dict["units"][0]["captain"] = "刘建川"
    spec_dict["units"][1]["captain"] = "于力"
    t = make_tournament(tmp_path, script="traditional", units=spec_dict["units"])
    first = load_workbook(write_registration_template(t, "admin1", tmp_path / "a.xlsx"))[layout.REG_SHEET]["A2"].value
    second = load_workbook(write_registration_template(t, "sci", tmp_path / "b.xlsx"))[layout.REG_SHEET]["A2"].value
    assert first.endswith("隊長：劉建川"), first
    assert second.endswith("隊長：于力"), second
