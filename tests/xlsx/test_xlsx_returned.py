"""Returned copy of a captain's workbook: highlighted, commented problem cells + 问题清单."""
from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from pipeline import layout
from pipeline.issues import issue
from pipeline.model import CellRef
from pipeline.xlsx import ISSUES_SHEET, read_meta, write_registration_template, write_returned_copy
from pipeline.xlsx.returned import COMMENT_AUTHOR, FILLS
from pipeline.model import Severity

REG = layout.REG_SHEET
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def filled(tournament, tmp_path):
    """A template filled in by a captain, including a hostile name."""
    path = write_registration_template(tournament, "admin1", tmp_path / "in.xlsx")
    wb = load_workbook(path)
    ws = wb[REG]
    hdr = read_meta(wb)["header_row"]
    rows = [("象棋", None, '=HYPERLINK("http://evil","x")', "1001", "男"),
            ("象棋", None, "李四", "1002", "女"),
            ("跳棋", None, "王五", "1003", "男")]
    for i, (ev, team, name, sid, sex) in enumerate(rows, start=1):
        ws.cell(hdr + i, 2, ev)
        ws.cell(hdr + i, 3, team)
        ws.cell(hdr + i, 4).value = name
        ws.cell(hdr + i, 4).data_type = "s"   # as Excel stores a text typed with a leading '
        ws.cell(hdr + i, 5, sid)
        ws.cell(hdr + i, 6, sex)
    wb.save(path)
    return path, hdr


def _issues(hdr):
    at = lambda cell: CellRef("in.xlsx", REG, cell)
    return [
        issue("UNKNOWN_EVENT", '项目 "跳棋" 不是本次比赛的项目：请从下拉列表选择', at=at(f"B{hdr + 3}")),
        issue("QUOTA_SHORT", "象棋 只报了 1 人，名额 2 人", at=at(f"B{hdr + 1}")),
        issue("BAD_VALUE", '姓名 "=HYPERLINK" 含有不允许的字符：请改正', at=at(f"D{hdr + 1}")),
        issue("DUPLICATE_PERSON", "工号 1002 重复：请删除一行", at=at(f"E{hdr + 2}")),
        issue("MISSING_VALUE", "缺少联系电话：请填写", at=at(f"E{hdr + 2}"), severity=Severity.WARNING),
        issue("LATE_SUBMISSION", "报名表在截止时间之后收到", at=CellRef("in.xlsx")),
    ]


def test_fills_and_comments(filled, tmp_path):
    src, hdr = filled
    out = write_returned_copy(src, _issues(hdr), tmp_path / "out" / "back.xlsx")
    assert out is not None
    wb = load_workbook(out)
    ws = wb[REG]
    red, yellow = FILLS[Severity.ERROR].fgColor.rgb, FILLS[Severity.WARNING].fgColor.rgb
    assert ws[f"B{hdr + 3}"].fill.fgColor.rgb == red
    assert ws[f"B{hdr + 1}"].fill.fgColor.rgb == yellow
    assert ws[f"E{hdr + 2}"].fill.fgColor.rgb == red          # error wins over warning in one cell
    c = ws[f"E{hdr + 2}"].comment
    assert c is not None and c.author == COMMENT_AUTHOR
    assert "DUPLICATE_PERSON" in c.text and "MISSING_VALUE" in c.text and "工号 1002 重复" in c.text
    assert "【错误】" in c.text and "【警告】" in c.text
    assert "UNKNOWN_EVENT" in ws[f"B{hdr + 3}"].comment.text
    assert ws[f"C{hdr + 3}"].comment is None                    # untouched cells stay untouched
    # everything else kept: values, _meta, validations, protection
    assert ws.cell(hdr + 2, 4).value == "李四"
    assert read_meta(wb)[layout.META_BRANCH] == "admin1"
    assert wb[layout.META_SHEET].sheet_state == "veryHidden"
    assert ws.data_validations.dataValidation
    assert ws.protection.sheet


def test_the_captains_own_comment_is_kept_and_given_back(filled, tmp_path):
    """A captain's note on a cell we mark (待本人确认性别) was replaced by our comment, and
    lost for good when the copy came back (our comments are removed then).  It is kept
    under ours, and given back — text and author — when the copy is read again."""
    from openpyxl.comments import Comment

    src, hdr = filled
    wb = load_workbook(src)
    wb[REG][f"E{hdr + 2}"].comment = Comment("待本人确认工号，周五前补", "李老师")
    wb[REG][f"C{hdr + 3}"].comment = Comment("此人是分工会主席", "李老师")
    wb.save(src)
    back = write_returned_copy(src, _issues(hdr), tmp_path / "back.xlsx")
    ws = load_workbook(back)[REG]
    ours = ws[f"E{hdr + 2}"].comment
    assert ours.author == COMMENT_AUTHOR and "DUPLICATE_PERSON" in ours.text
    assert ours.text.endswith("\n—— 原批注（李老师）——\n待本人确认工号，周五前补")
    assert ws[f"C{hdr + 3}"].comment.text == "此人是分工会主席"          # an unmarked cell: untouched
    again = write_returned_copy(back, [], tmp_path / "again.xlsx")      # the copy sent back, all fixed
    ws = load_workbook(again)[REG]
    given = ws[f"E{hdr + 2}"].comment
    assert (given.text, given.author) == ("待本人确认工号，周五前补", "李老师")


def test_issue_list_sheet(filled, tmp_path):
    src, hdr = filled
    wb = load_workbook(write_returned_copy(src, _issues(hdr), tmp_path / "back.xlsx"))
    assert wb.sheetnames[0] == ISSUES_SHEET
    assert wb.active.title == ISSUES_SHEET
    ws = wb[ISSUES_SHEET]
    header = [c.value for c in ws[4]]
    assert header == ["序号", "代码", "严重程度", "工作表", "单元格", "问题说明"]
    rows = [r for r in ws.iter_rows(min_row=5, values_only=True) if r[0] is not None]
    assert len(rows) == 6
    assert [r[2] for r in rows] == ["错误"] * 4 + ["警告"] * 2   # errors first
    late = next(r for r in rows if r[1] == "LATE_SUBMISSION")
    assert late[4] == "（整个文件）"
    link_row = next(i for i, r in enumerate(rows, start=5) if r[1] == "UNKNOWN_EVENT")
    cell = ws.cell(link_row, 5)
    assert cell.value == f"B{hdr + 3}"
    assert cell.hyperlink is not None and cell.hyperlink.location == f"'{REG}'!B{hdr + 3}"
    assert "错误 4 项" in ws["A1"].value


def test_formula_text_stays_text(filled, tmp_path):
    src, hdr = filled
    wb = load_workbook(write_returned_copy(src, _issues(hdr), tmp_path / "back.xlsx"))
    cell = wb[REG].cell(hdr + 1, 4)
    assert cell.value == '=HYPERLINK("http://evil","x")'
    assert cell.data_type == "s"
    assert cell.quotePrefix
    # the message quoting it in 问题清单 is text too
    for row in wb[ISSUES_SHEET].iter_rows(min_row=5):
        for c in row:
            assert c.data_type != "f"


def test_resubmitted_returned_copy_is_cleaned(filled, tmp_path):
    src, hdr = filled
    first = write_returned_copy(src, _issues(hdr), tmp_path / "back1.xlsx")
    # the captain fixes B(hdr+3) and sends the returned copy back; now only one problem is left
    again = write_returned_copy(first, _issues(hdr)[1:2], tmp_path / "back2.xlsx")
    wb = load_workbook(again)
    assert wb.sheetnames.count(ISSUES_SHEET) == 1
    ws = wb[REG]
    assert ws[f"B{hdr + 3}"].comment is None
    assert ws[f"B{hdr + 3}"].fill.fgColor.rgb != FILLS[Severity.ERROR].fgColor.rgb
    assert "QUOTA_SHORT" in ws[f"B{hdr + 1}"].comment.text


def test_no_issues(filled, tmp_path):
    src, _ = filled
    wb = load_workbook(write_returned_copy(src, [], tmp_path / "back.xlsx"))
    assert wb[ISSUES_SHEET]["A5"].value == "没有发现问题。"


def test_issue_on_missing_sheet_or_bad_cell_is_listed(filled, tmp_path):
    src, _ = filled
    items = [issue("TEMPLATE_MISMATCH", "找不到工作表“成绩”", at=CellRef("in.xlsx", "成绩", "A1")),
             issue("BAD_VALUE", "区域有误", at=CellRef("in.xlsx", REG, "A1:B2"))]
    wb = load_workbook(write_returned_copy(src, items, tmp_path / "back.xlsx"))
    rows = [r for r in wb[ISSUES_SHEET].iter_rows(min_row=5, values_only=True) if r[0] is not None]
    assert len(rows) == 2
    assert wb[ISSUES_SHEET].cell(5, 5).hyperlink is None


def test_unreadable_source_returns_none(tmp_path):
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"not a zip file")
    assert write_returned_copy(bad, [], tmp_path / "out.xlsx") is None
    assert write_returned_copy(tmp_path / "missing.xlsx", [], tmp_path / "out.xlsx") is None
    assert not (tmp_path / "out.xlsx").exists()


def test_traditional_words(filled, tmp_path):
    """A Traditional league's copy says its own words, the tab's name too (it was 问题清单),
    and a copy sent back and marked again keeps one list."""
    src, hdr = filled
    first = write_returned_copy(src, _issues(hdr), tmp_path / "back.xlsx", script="traditional")
    wb = load_workbook(first)
    assert wb.sheetnames[0] == "問題清單" and ISSUES_SHEET not in wb.sheetnames
    ws = wb["問題清單"]
    assert "錯誤 4 項" in ws["A1"].value
    assert ws.cell(5, 3).value == "錯誤"
    again = load_workbook(write_returned_copy(first, _issues(hdr)[1:2], tmp_path / "back2.xlsx", script="traditional"))
    assert again.sheetnames.count("問題清單") == 1 and again.sheetnames[0] == "問題清單"
    from pipeline.text import convert
    from pipeline.xlsx.returned import ISSUES_SHEET_TRADITIONAL
    assert ISSUES_SHEET_TRADITIONAL == convert(ISSUES_SHEET, "traditional")
    assert "共 1 項" in again["問題清單"]["A1"].value


_PICTURE_PROBE = r'''
import sys, zipfile
from pathlib import Path
from pipeline.issues import Issue
from pipeline.model import Severity
from pipeline.xlsx.returned import write_returned_copy
assert "PIL" not in sys.modules                   # openpyxl was imported without Pillow
src, plain, out, plain_out = map(Path, sys.argv[1:])
write_returned_copy(plain, [], plain_out)          # a workbook without pictures: Pillow not needed
print("PIL" in sys.modules)
write_returned_copy(src, [Issue("BAD_VALUE", Severity.ERROR, "x", sheet="报名表", cell="C5")], out)
print(sorted(n for n in zipfile.ZipFile(out).namelist() if n.startswith("xl/media/")))
'''


def test_a_captains_pictures_stay_in_the_returned_copy(filled, tmp_path):
    """openpyxl is imported without Pillow (pipeline.xlsx._no_numpy), which it needs to keep a
    workbook's pictures: a workbook with one (a unit's logo pasted in) gets Pillow first, and
    its returned copy keeps the picture."""
    pytest.importorskip("PIL")
    import io
    import subprocess
    import sys

    from openpyxl.drawing.image import Image as XlImage
    from PIL import Image

    filled, _ = filled
    src = tmp_path / "with-logo.xlsx"
    wb = load_workbook(filled)
    png = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 0, 0)).save(png, "PNG")
    wb[layout.REG_SHEET].add_image(XlImage(io.BytesIO(png.getvalue())), "H2")
    wb.save(src)
    out = subprocess.run([sys.executable, "-c", _PICTURE_PROBE, str(src), str(filled), str(tmp_path / "a.xlsx"),
                          str(tmp_path / "b.xlsx")], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["False", "['xl/media/image1.png']"]


def test_a_simplified_leagues_copy_does_not_load_the_script_converter(filled, tmp_path):
    """OpenCC's converter takes a sixth of a second to load: a simplified league's copy
    (a night's worker makes one or two) must not wait for it.  Checking for a copy sent back
    from a Traditional league loaded it for every copy, and the night's worker took 0.16 s more."""
    from pipeline import text

    src, hdr = filled
    text._s2t.cache_clear()
    write_returned_copy(src, _issues(hdr), tmp_path / "back.xlsx")
    assert text._s2t.cache_info().currsize == 0


def test_a_workbook_opened_ahead_is_used_once_and_only_while_the_file_is_unchanged(filled, tmp_path, monkeypatch):
    """returned.open_ahead: the prestarted worker opens the night's forms while the run
    validates them; a copy takes its form's opened workbook (no second load), once, and only
    when the file still holds the bytes it was opened from — a file replaced meanwhile is
    loaded again, so the copy is of what the file holds."""
    from pipeline.xlsx import returned

    src, hdr = filled
    loads: list[bytes] = []
    real = returned._load
    monkeypatch.setattr(returned, "_load", lambda raw: (loads.append(raw), real(raw))[1])
    monkeypatch.setattr(returned, "_OPENED", {})
    assert returned.open_ahead([src, tmp_path / "missing.xlsx"]) == 1 and len(loads) == 1
    first = write_returned_copy(src, _issues(hdr), tmp_path / "a.xlsx")
    assert len(loads) == 1 and returned._OPENED == {}          # taken, not loaded again
    direct = tmp_path / "direct.xlsx"
    monkeypatch.setattr(returned, "_load", real)
    write_returned_copy(src, _issues(hdr), direct)
    assert [[c.value for c in row] for row in load_workbook(first)[REG].iter_rows()] == \
        [[c.value for c in row] for row in load_workbook(direct)[REG].iter_rows()]
    assert load_workbook(first)[REG][f"B{hdr + 3}"].fill.fgColor.rgb == FILLS[Severity.ERROR].fgColor.rgb
    # opened ahead, then replaced by the captain's next version: the copy is of the new one
    monkeypatch.setattr(returned, "_load", lambda raw: (loads.append(raw), real(raw))[1])
    returned.open_ahead([src])
    wb = load_workbook(src)
    wb[REG].cell(hdr + 2, 4).value = "赵六"
    wb.save(src)
    second = write_returned_copy(src, [], tmp_path / "b.xlsx")
    assert len(loads) == 3 and load_workbook(second)[REG].cell(hdr + 2, 4).value == "赵六"


def test_a_copy_the_disk_refuses_stops_the_run_rather_than_being_dropped(filled, tmp_path, monkeypatch):
    """A full disk or a folder that cannot be written is the machine's problem, not the
    workbook's: it was taken as "openpyxl cannot write this workbook back" (no copy, no word,
    exit 0, never made again).  It is raised, so the run stops and says so (exit 2) and the
    next night makes the copy; a workbook openpyxl cannot write stays "no copy"."""
    import errno

    import pipeline.xlsx.returned as returned

    path, _ = filled

    def full(wb, out):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(returned, "atomic_save", full)
    with pytest.raises(OSError):
        write_returned_copy(path, [], tmp_path / "back.xlsx")

    def exotic(wb, out):
        raise ValueError("a part openpyxl cannot write")
    monkeypatch.setattr(returned, "atomic_save", exotic)
    assert write_returned_copy(path, [], tmp_path / "back.xlsx") is None


def _validations(ws) -> dict[int, tuple[str, str, int]]:
    """Column → (type, first formula, first row) of each data validation on the sheet."""
    return {rng.min_col: (dv.type, dv.formula1, rng.min_row)
            for dv in ws.data_validations.dataValidation for rng in dv.sqref.ranges}


def test_a_form_that_lost_its_dropdowns_gets_them_back_in_its_returned_copy(tournament, filled, tmp_path):
    """A form re-saved without data validation: the copy said “请从下拉列表中选择” at B of a
    row, and the copy had no list to choose from.  Put back on the entry columns (the
    template's own), the captain's values as they were; a column keeping its own is left."""
    from pipeline.xlsx.entrychecks import entry_checks

    path, hdr = filled
    template = _validations(load_workbook(path)[REG])
    wb = load_workbook(path)
    ws = wb[REG]
    ws.data_validations.dataValidation = []
    ws.cell(hdr + 1, 2, "中国象棋")
    wb.save(path)
    checks = entry_checks(tournament.spec, tournament.spec.unit("admin1"))
    bad = issue("UNKNOWN_EVENT", "请从下拉列表中选择", at=CellRef("in.xlsx", REG, f"B{hdr + 1}"))
    out = load_workbook(write_returned_copy(path, [bad], tmp_path / "out.xlsx", checks=checks))[REG]
    assert _validations(out) == template and template
    rows = [[c.value for c in r] for r in out.iter_rows(min_row=hdr + 1, max_row=hdr + 3, max_col=6)]
    assert [r[1] for r in rows] == ["中国象棋", "象棋", "跳棋"] and rows[1][4] == "1002"
    # a form with its dropdowns: nothing added
    again = load_workbook(write_returned_copy(write_registration_template(tournament, "admin1", tmp_path / "b.xlsx"),
                                              [], tmp_path / "b-out.xlsx", checks=checks))[REG]
    assert len(again.data_validations.dataValidation) == len(load_workbook(tmp_path / "b.xlsx")[REG].data_validations.dataValidation)


def _resaved_elsewhere(path, out, *, author=" ", alpha="FF", meta_state="hidden"):
    """``path`` as LibreOffice (or Excel) writes it back: every comment's author blanked
    (LibreOffice writes "" or " "), every colour with an alpha byte (``FFFFC7CE``), the
    veryHidden ``_meta`` only hidden."""
    from openpyxl.comments import Comment
    from openpyxl.styles import PatternFill

    wb = load_workbook(path)
    for ws in wb.worksheets:
        for cell in list(ws._cells.values()):
            if cell.comment is not None:
                cell.comment = Comment(cell.comment.text, author)
            rgb = cell.fill.fgColor.rgb if cell.fill is not None and cell.fill.fill_type == "solid" else None
            if isinstance(rgb, str):
                cell.fill = PatternFill("solid", fgColor=alpha + rgb[-6:])
    if layout.META_SHEET in wb.sheetnames:
        wb[layout.META_SHEET].sheet_state = meta_state
    wb.save(out)
    return out


@pytest.mark.parametrize("author", [" ", "", COMMENT_AUTHOR])
def test_a_copy_resaved_by_libreoffice_or_excel_loses_our_old_marks(filled, tmp_path, author):
    """A returned copy the captain fixed and re-saved in LibreOffice (comment authors written
    " " or empty, colours ``FFFFC7CE``) or Excel (authors kept, colours with alpha ``FF``) came
    back: its next copy said 错误 0 项 and still showed the old red/yellow cells and 【错误】
    comments.  Our comments are known by their text (【错误】CODE：…), our fills by their RGB."""
    src, hdr = filled
    first = write_returned_copy(src, _issues(hdr), tmp_path / "back1.xlsx")
    resaved = _resaved_elsewhere(first, tmp_path / "resaved.xlsx", author=author)
    again = write_returned_copy(resaved, [], tmp_path / "back2.xlsx")
    wb = load_workbook(again)
    ws = wb[REG]
    marked = [c.coordinate for c in ws._cells.values() if c.comment is not None]
    assert marked == []
    ours = {f.fgColor.rgb[-6:] for f in FILLS.values()}
    filled_ours = [c.coordinate for c in ws._cells.values()
                   if c.fill is not None and c.fill.fill_type == "solid"
                   and isinstance(c.fill.fgColor.rgb, str) and c.fill.fgColor.rgb[-6:] in ours]
    assert filled_ours == []
    assert wb[layout.META_SHEET].sheet_state == "veryHidden"       # LibreOffice made it "hidden"


def test_a_captains_note_survives_a_libreoffice_resave_and_is_not_kept_twice(filled, tmp_path):
    """After a LibreOffice re-save every author is blank: the captain's own note (not ours by
    its text) stays, and our stale comment keeping one is not carried on as "—— 原批注（ ）——"."""
    from openpyxl.comments import Comment

    src, hdr = filled
    wb = load_workbook(src)
    wb[REG][f"E{hdr + 2}"].comment = Comment("待本人确认工号，周五前补", "李老师")
    wb[REG][f"C{hdr + 3}"].comment = Comment("【错误】已改，此人是分工会主席", "李老师")
    wb.save(src)
    first = write_returned_copy(src, _issues(hdr), tmp_path / "back1.xlsx")
    resaved = _resaved_elsewhere(first, tmp_path / "resaved.xlsx", author=" ")
    issues = [i for i in _issues(hdr) if i.code == "DUPLICATE_PERSON"]       # still wrong
    ws = load_workbook(write_returned_copy(resaved, issues, tmp_path / "back2.xlsx"))[REG]
    c = ws[f"E{hdr + 2}"].comment
    assert c.author == COMMENT_AUTHOR
    assert c.text.count("DUPLICATE_PERSON") == 1 and c.text.count("原批注") == 1
    assert c.text.endswith("\n—— 原批注（李老师）——\n待本人确认工号，周五前补")
    assert ws[f"C{hdr + 3}"].comment.text == "【错误】已改，此人是分工会主席"     # the captain's own
    assert ws[f"B{hdr + 3}"].comment is None


def test_a_copy_really_resaved_by_libreoffice_loses_our_old_marks(filled, tmp_path):
    """As above with LibreOffice itself (skipped where it is not installed)."""
    import shutil
    import subprocess

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed (optional for the project; the simulated re-save above checks the same marks)")
    src, hdr = filled
    first = write_returned_copy(src, _issues(hdr), tmp_path / "back1.xlsx")
    (tmp_path / "lo").mkdir()
    try:
        subprocess.run([soffice, "--headless", "--norestore", f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
                        "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(tmp_path / "lo"), str(first)],
                       check=True, capture_output=True, timeout=120)
    except (subprocess.SubprocessError, OSError) as e:
        pytest.skip(f"LibreOffice is installed but could not convert here (no profile or display): {e}")
    resaved = tmp_path / "lo" / first.name
    assert load_workbook(resaved)[REG][f"B{hdr + 3}"].comment.author != COMMENT_AUTHOR   # what it does
    wb = load_workbook(write_returned_copy(resaved, [], tmp_path / "back2.xlsx"))
    ws = wb[REG]
    assert [c.coordinate for c in ws._cells.values() if c.comment is not None] == []
    ours = {f.fgColor.rgb[-6:] for f in FILLS.values()}
    assert [c.coordinate for c in ws._cells.values() if c.fill is not None and c.fill.fill_type == "solid"
            and isinstance(c.fill.fgColor.rgb, str) and c.fill.fgColor.rgb[-6:] in ours] == []
    assert wb[layout.META_SHEET].sheet_state == "veryHidden"


def test_R2015_a_traditional_copy_says_its_problems_in_traditional(filled, tmp_path):
    """A Traditional league prints in Traditional: its copy's 問題清單 gave every 問題說明 and
    every cell's comment in Simplified (“双扣”超出名额) under Traditional headings, where the
    receipt and the unit's page said “雙扣”超出名額.  Converted as receipts are: what was typed
    as typed (a marked value, the sheet of a cell reference, a file's name), people's names as
    names (于丽 is no 於麗); and the list's 問題說明 no longer repeats the 工作表 and 單元格
    beside it."""
    from pipeline.issues import Issue
    from pipeline.text import keep

    src, hdr = filled
    cell = f"B{hdr + 1}"
    said = [Issue("QUOTA_EXCEEDED", Severity.ERROR, f"{REG}!{cell} “双扣”超出名额：本分工会已报 5 队，限 4 队。请删去多余的报名。",
                  file="in.xlsx", sheet=REG, cell=cell),
            Issue("DUPLICATE_PERSON", Severity.ERROR, f"{REG}!D{hdr + 2} \"{keep('李四')}\" 已在 行政第二分工会 的报名表中"
                  "登记为 于丽，请核对工号。", file="in.xlsx", sheet=REG, cell=f"D{hdr + 2}"),
            Issue("PEOPLE_DROPPED", Severity.WARNING, "《in.xlsx》整份取代了此前的《报名表.xlsx》", file="in.xlsx")]
    wb = load_workbook(write_returned_copy(src, said, tmp_path / "back.xlsx", script="traditional",
                                           names=("于丽",)))
    ws = wb["問題清單"]
    rows = {ws.cell(r, 2).value: [c.value for c in ws[r]] for r in range(5, 8)}
    assert rows["QUOTA_EXCEEDED"][3:] == [REG, cell, "“雙扣”超出名額：本分工會已報 5 隊，限 4 隊。請刪去多餘的報名。"]
    assert rows["DUPLICATE_PERSON"][5] == "\"李四\" 已在 行政第二分工會 的報名表中登記為 于麗，請核對工號。"
    assert rows["PEOPLE_DROPPED"][5] == "《in.xlsx》整份取代了此前的《报名表.xlsx》"
    comment = wb[REG][cell].comment
    assert comment.text == f"【錯誤】QUOTA_EXCEEDED：{REG}!{cell} “雙扣”超出名額：本分工會已報 5 隊，限 4 隊。請刪去多餘的報名。"
    assert "\"李四\" 已在 行政第二分工會" in wb[REG][f"D{hdr + 2}"].comment.text
    texts = [str(c.value) for w in wb.worksheets for row in w.iter_rows() for c in row if isinstance(c.value, str)]
    assert not any("\ue000" in t or "\ue001" in t for t in texts)


def test_a_simplified_copys_list_does_not_repeat_the_cell(filled, tmp_path):
    """The 问题清单 gives the 工作表 and 单元格 in their own columns: a message that starts with
    them (as every registration check's does: 报名表!B15 “双扣”超出名额…) is shown without."""
    from pipeline.issues import Issue

    src, hdr = filled
    cell = f"B{hdr + 1}"
    said = [Issue("QUOTA_EXCEEDED", Severity.ERROR, f"{REG}!{cell} “象棋”超出名额：请删去多余的报名。",
                  file="in.xlsx", sheet=REG, cell=cell)]
    wb = load_workbook(write_returned_copy(src, said, tmp_path / "back.xlsx"))
    assert [c.value for c in wb[ISSUES_SHEET][5]][3:] == [REG, cell, "“象棋”超出名额：请删去多余的报名。"]
    assert wb[REG][cell].comment.text == f"【错误】QUOTA_EXCEEDED：{REG}!{cell} “象棋”超出名额：请删去多余的报名。"
