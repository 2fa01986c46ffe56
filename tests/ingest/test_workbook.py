"""read_workbook: values as typed, and one test per unreadable-file kind."""
from __future__ import annotations

import datetime as dt
import zipfile

import openpyxl
import pytest

from pipeline.ingest import workbook as W
from pipeline.ingest.workbook import CellError, UnreadableFile, a1, find_table, read_workbook

CT = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
      'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships'
      '+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
      'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
      'PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
      'spreadsheetml.worksheet+xml"/></Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
        '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
WB = ('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
      '2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
      '<sheet name="报名表" sheetId="1" r:id="rId1"/></sheets></workbook>')
WBRELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
          '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
          '2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
HEAD = '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'


def raw_xlsx(path, sheet_xml, prolog='<?xml version="1.0" encoding="UTF-8"?>'):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", CT)
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WB)
        z.writestr("xl/_rels/workbook.xml.rels", WBRELS)
        if isinstance(sheet_xml, str):
            z.writestr("xl/worksheets/sheet1.xml", prolog + sheet_xml)
        else:
            with z.open("xl/worksheets/sheet1.xml", "w") as fh:
                for chunk in sheet_xml:
                    fh.write(chunk)
    return path


def good(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报名表"
    ws["A1"] = 19390926685
    ws["B1"] = "00123"
    ws["C1"] = dt.date(2020, 11, 9)
    ws["D1"] = 1.5
    ws["E1"] = "=SUM(D1:D2)"     # openpyxl saves no cached value
    ws["C3"] = "x"
    m = wb.create_sheet("_meta")
    m.sheet_state = "hidden"
    m["A1"], m["B1"] = "branch_id", "b1"
    m["A2"], m["B2"] = "round", 3
    p = tmp_path / "ok.xlsx"
    wb.save(p)
    return p


def test_values_as_typed(tmp_path):
    book = read_workbook(good(tmp_path))
    s = book.sheets["报名表"]
    assert s.rows[0][:4] == [19390926685, "00123", dt.date(2020, 11, 9), 1.5]
    assert W.cell_text(s.rows[0][0]) == "19390926685"
    assert s.rows[0][4] == CellError(W.NO_CACHED_VALUE)
    assert s.value(3, 3) == "x" and s.value(2, 1) is None
    assert book.sheets["_meta"].hidden and not s.hidden
    assert book.meta == {"branch_id": "b1", "round": "3"}


def test_error_cells_become_cell_errors(tmp_path):
    p = raw_xlsx(tmp_path / "e.xlsx", HEAD + '<sheetData><row r="2"><c r="B2" t="e"><f>1/0</f><v>#DIV/0!</v></c>'
                 '<c r="C2" t="e"><v>#REF!</v></c><c r="D2" t="inlineStr"><is><t>ok</t></is></c></row></sheetData></worksheet>')
    s = read_workbook(p).sheets["报名表"]
    assert s.rows[1] == [None, CellError("#DIV/0!"), CellError("#REF!"), "ok"]


def test_far_cell_does_not_crash(tmp_path):
    # calamine would allocate the dense range A1:XFD1048576 and abort the process
    p = raw_xlsx(tmp_path / "far.xlsx", HEAD + '<dimension ref="A1:XFD1048576"/><sheetData><row r="1"><c r="A1">'
                 '<v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row></sheetData></worksheet>')
    s = read_workbook(p).sheets["报名表"]
    # the stray value is not read (nor the million blank rows before it: that took 36 s and
    # 0.9 GB), and the sheet says where it is; the rows above it are all there
    assert s.rows == [[1]] and not s.truncated and s.far == "XFD1048576"


def test_a_stray_cell_far_below_a_registration_is_located_and_its_copy_is_made(tmp_path):
    """A captain's stray keystroke at XFD1048576: the form is read, a warning names the
    cell, and the returned copy is made (openpyxl's iter_rows made a cell for each of the
    17 billion addresses of that extent: the night's run grew without bound)."""
    from ingest.builders import person, tournament, write_registration
    from pipeline.ingest.registration import read_registration
    from pipeline.issues import Issue
    from pipeline.model import Severity
    from pipeline.xlsx.returned import write_returned_copy

    t = tournament()
    p = write_registration(tmp_path / "b1.xlsx", t, "b1", [person("象棋", "甲", "001")])
    wb = openpyxl.load_workbook(p)
    wb["报名表"]["XFD1048576"] = "x"
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "b1.xlsx", t)
    assert [r.name for r in reg.rows] == ["甲"]
    (far,) = [i for i in issues if i.cell == "XFD1048576"]
    assert far.severity == Severity.WARNING and "远离表格" in far.message
    out = write_returned_copy(p, [Issue("BAD_VALUE", Severity.WARNING, far.message, sheet="报名表",
                                        cell="XFD1048576")], tmp_path / "b1-返回.xlsx")
    assert out is not None
    back = openpyxl.load_workbook(out)
    assert back["报名表"]["XFD1048576"].value == "x" and back["报名表"]["XFD1048576"].comment is not None


def test_million_row_sheet_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(W, "MAX_ROWS", 5000)   # the cap itself is larger; the mechanism is the same
    n = 300_000
    def rows():
        yield (HEAD + '<dimension ref="A1:B1048576"/><sheetData>').encode()
        for start in range(1, n + 1, 10000):
            yield "".join(f'<row r="{i}"><c r="A{i}"><v>{i}</v></c><c r="B{i}" t="inlineStr"><is><t>王军</t></is></c></row>'
                          for i in range(start, min(n, start + 9999) + 1)).encode()
        yield b"</sheetData></worksheet>"
    p = tmp_path / "big.xlsx"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in (("[Content_Types].xml", CT), ("_rels/.rels", RELS), ("xl/workbook.xml", WB),
                           ("xl/_rels/workbook.xml.rels", WBRELS)):
            z.writestr(name, body)
        with z.open("xl/worksheets/sheet1.xml", "w") as fh:
            for chunk in rows():
                fh.write(chunk)
    # the stream stops at the cap (no timing: counted rows, as the guide wants)
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    seen = []
    rows = ReadOnlyWorksheet.iter_rows

    def counted(self, *a, **k):
        for row in rows(self, *a, **k):
            seen.append(1)
            yield row
    monkeypatch.setattr(ReadOnlyWorksheet, "iter_rows", counted)
    s = read_workbook(p).sheets["报名表"]
    assert 0 < len(seen) <= W.MAX_ROWS + 1, len(seen)
    assert s.truncated and len(s.rows) == W.MAX_ROWS and s.rows[-1] == [W.MAX_ROWS, "王军"]


def unreadable(path) -> UnreadableFile:
    with pytest.raises(UnreadableFile) as e:
        read_workbook(path)
    assert e.value.message_cn
    return e.value


def test_unreadable_empty(tmp_path):
    (tmp_path / "a.xlsx").write_bytes(b"")
    assert unreadable(tmp_path / "a.xlsx").kind == "empty"


def test_unreadable_corrupt_zip(tmp_path):
    data = bytearray(good(tmp_path).read_bytes())
    # damage the compressed data of the first member (CRC / inflate fails)
    for i in range(60, 400):
        data[i] ^= 0x5A
    (tmp_path / "c.xlsx").write_bytes(bytes(data))
    assert unreadable(tmp_path / "c.xlsx").kind in ("corrupt", "truncated")


def test_unreadable_truncated(tmp_path):
    data = good(tmp_path).read_bytes()
    (tmp_path / "t.xlsx").write_bytes(data[: len(data) // 2])
    assert unreadable(tmp_path / "t.xlsx").kind == "truncated"


def test_unreadable_csv_renamed(tmp_path):
    (tmp_path / "c.xlsx").write_text("项目,姓名\n象棋,王军\n", encoding="utf-8")
    assert unreadable(tmp_path / "c.xlsx").kind == "csv"
    # a .csv as such (另存为 CSV) is not told it was renamed
    (tmp_path / "c.csv").write_bytes((tmp_path / "c.xlsx").read_bytes())
    e = unreadable(tmp_path / "c.csv")
    assert e.kind == "csv" and "另存为 CSV 或改了扩展名" in e.message_cn


def test_unreadable_html_renamed(tmp_path):
    (tmp_path / "h.xlsx").write_text("<html><body><table><tr><td>象棋</td></tr></table></body></html>")
    assert unreadable(tmp_path / "h.xlsx").kind == "html"


OLE_HEAD = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504


def test_unreadable_xls(tmp_path):
    (tmp_path / "x.xlsx").write_bytes(OLE_HEAD + "Workbook".encode("utf-16-le") + b"\x00" * 1000)
    e = unreadable(tmp_path / "x.xlsx")
    assert e.kind == "xls" and ".xlsx" in e.message_cn


def test_unreadable_encrypted(tmp_path):
    (tmp_path / "p.xlsx").write_bytes(OLE_HEAD + "EncryptionInfo".encode("utf-16-le") + b"\x00" * 64
                                      + "EncryptedPackage".encode("utf-16-le") + b"\x00" * 1000)
    e = unreadable(tmp_path / "p.xlsx")
    assert e.kind == "encrypted" and "密码" in e.message_cn


def test_unreadable_zip_bomb(tmp_path, monkeypatch):
    p = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", CT)
        with z.open("xl/media/pad.bin", "w") as fh:
            block = b"\x00" * (1 << 20)
            for _ in range(60):
                fh.write(block)
    # refused before unpacking: nothing of the archive is decompressed
    monkeypatch.setattr(zipfile.ZipExtFile, "read", lambda *a, **k: pytest.fail("unpacked"))
    assert unreadable(p).kind == "zip_bomb"


def test_unreadable_zip_bomb_by_ratio(tmp_path):
    p = tmp_path / "bomb2.xlsx"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/media/pad.bin", b"\x00" * (20 << 20))
    assert unreadable(p).kind == "zip_bomb"


def test_unreadable_xml_entity_bomb(tmp_path):
    dtd = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">'
           '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;">]>')
    p = raw_xlsx(tmp_path / "ent.xlsx", HEAD + '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol3;</t>'
                 '</is></c></row></sheetData></worksheet>', prolog=dtd)
    assert unreadable(p).kind == "xml_entity"


def test_xlsm_values_are_read(tmp_path):
    p = good(tmp_path)
    with zipfile.ZipFile(p, "a") as z:
        z.writestr("xl/vbaProject.bin", b"\x00" * 100)
    book = read_workbook(p)
    assert book.macros and book.sheets["报名表"].rows[0][1] == "00123"


def test_find_table_by_labels_and_a1():
    rows = [["第四届 报名表"], ["单位：行政一"], [], ["序号", "姓 名", "备注", "项目 *", "额外"],
            [1, "王军", None, "象棋"], [], [2, "李四", None, "跳棋"]] + [[]] * 25 + [[9, "远处", None, "象棋"]]
    t = find_table(rows, ["项目", "姓名"], ["序号"])
    assert t.header_row == 4 and t.columns["项目"] == 4 and t.columns["额外"] == 5
    assert [r for r, _ in t.rows] == [5, 7]          # stops at the blank run
    assert t.cell(7, "项目") == "D7" and a1(12, 5) == "E12"


def test_find_table_names_missing_label():
    with pytest.raises(W.TableNotFound) as e:
        find_table([["序号", "名字", "项目"]], ["项目", "姓名"], ["序号"])
    assert e.value.missing == ["姓名"]


def _one_player_form(tmp_path):
    """A registration form with one player (甲, 象棋), opened: (tournament, path, workbook,
    its 报名表 sheet, the header row, the columns by label)."""
    from ingest.builders import person, tournament, write_registration

    t = tournament()
    p = write_registration(tmp_path / "b1.xlsx", t, "b1", [person("象棋", "甲", "001")])
    wb = openpyxl.load_workbook(p)
    ws = wb["报名表"]
    hdr = next(r for r in range(1, 60) if any(c.value == "姓名" for c in ws[r]))
    return t, p, wb, ws, hdr, {c.value: c.column for c in ws[hdr] if c.value}


def test_people_typed_below_a_gap_of_blank_rows_are_named_not_dropped(tmp_path):
    """A captain clears a block of rows and types two players further down: the table ends
    at the gap, and the rows below it were dropped without a word (only a QUOTA_SHORT with
    no cell).  Now an error names the first row not read and how many names it holds; a
    note alone below the gap is a warning."""
    from pipeline.ingest.registration import read_registration
    from pipeline.ingest.workbook import BLANK_RUN
    from pipeline.model import Severity

    t, p, wb, ws, hdr, col = _one_player_form(tmp_path)
    below = hdr + 1 + BLANK_RUN + 5
    for i, name in enumerate(("乙", "丙")):
        ws.cell(below + i, col["项目"], "象棋")
        ws.cell(below + i, col["姓名"], name)
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "b1.xlsx", t)
    assert [r.name for r in reg.rows] == ["甲"]
    (gap,) = [i for i in issues if i.cell == f"A{below}"]
    assert gap.severity == Severity.ERROR and f"第 {below} 行" in gap.message and "2 个名字" in gap.message
    for i in range(2):
        ws.cell(below + i, col["项目"]).value = None
        ws.cell(below + i, col["姓名"]).value = None
    ws.cell(below, 1, "填表人：王老师")
    wb.save(p)
    _, issues = read_registration(read_workbook(p), "b1.xlsx", t)
    (gap,) = [i for i in issues if i.cell == f"A{below}"]
    assert gap.severity == Severity.WARNING and "名字" not in gap.message, gap.message


def test_zero_padding_formats_as_excel_and_wps_write_them():
    """Excel writes a cell's style before or after its address and no type for a number;
    WPS's custom 000000_ (a trailing space); the cellStyleXfs' xf elements are not counted
    as cell styles.  Only whole numbers shorter than the format are shown padded."""
    styles = (b'<styleSheet><numFmts count="3"><numFmt formatCode="000000_ " numFmtId="176"/>'
              b'<numFmt numFmtId="177" formatCode="0.00"/><numFmt numFmtId="178" formatCode="0000;@"/></numFmts>'
              b'<cellStyleXfs count="2"><xf numFmtId="176"/><xf numFmtId="0"/></cellStyleXfs>'
              b'<cellXfs count="4"><xf numFmtId="0" xfId="0"/><xf numFmtId="176" xfId="0" applyNumberFormat="1">'
              b'<alignment vertical="center"/></xf><xf numFmtId="177"/><xf numFmtId="178"/></cellXfs></styleSheet>')
    padding = W._zero_styles(styles)
    assert padding == {b"1": 6, b"3": 4}
    sheet = (b'<sheetData><row r="5"><c r="E5" s="1"><v>1234</v></c><c s="1" r="F5"><v>7</v></c>'
             b'<c r="G5" s="1" t="s"><v>0</v></c><c r="H5" s="1"><v>12.5</v></c><c r="I5" s="1"><v>1234567</v></c>'
             b'<c r="J5" s="2"><v>12</v></c><c r="K5" s="3" t="n"><f>A1</f><v>12</v></c></row></sheetData>')
    assert W._zero_padded(sheet, padding) == {(5, 5): "001234", (5, 6): "000007", (5, 11): "0012"}
    assert W._zero_styles(b'<styleSheet><cellXfs count="1"><xf numFmtId="0"/></cellXfs></styleSheet>') == {}
    assert W._zero_padded(b'<c r="A1" s="2"><v>1</v></c>', padding) == {}


def test_a_note_typed_under_the_table_is_one_warning_not_two_errors(tmp_path):
    """以上名单已经分工会主席审核 typed in 备注 right under the last player: the row was
    read as an entry and said 项目未填写 and 姓名未填写 (two errors: the unit 需修改).  Now
    a row with only 备注 is no entry, with one warning at the 备注 cell."""
    from pipeline.ingest.registration import read_registration
    from pipeline.model import Severity

    t, p, wb, ws, hdr, col = _one_player_form(tmp_path)
    ws.cell(hdr + 2, col["备注"], "以上名单已经分工会主席审核")
    wb.save(p)
    reg, issues = read_registration(read_workbook(p), "b1.xlsx", t)
    assert [r.name for r in reg.rows] == ["甲"]
    cell = f"{openpyxl.utils.get_column_letter(col['备注'])}{hdr + 2}"
    assert [(i.code, i.severity, i.cell) for i in issues] == [("BAD_VALUE", Severity.WARNING, cell)]
    assert "只填了备注“以上名单已经分工会主席审核”" in issues[0].message


def test_a_csv_in_any_code_page_is_told_it_lost_the_forms_check_sheet(tmp_path):
    """LibreOffice's CSV (its default code page: the Chinese lost as ?, a cp1252 curly quote)
    decoded as UTF-16 garbage and was told to save it as .xlsx — which lost the _meta and was
    refused again; a UTF-8 CSV cut inside a character at 4,096 bytes the same."""
    (tmp_path / "a.csv").write_bytes(b"???? ???,,,,\n\x93??\x94,1,2,,\n" + b"1,??,,??,\n" * 5)
    (tmp_path / "b.csv").write_bytes(("序号,项目,姓名\n" + "1,象棋,王军\n" * 400).encode("utf-8")[:4097] + b"\xe7\x8e")
    for name in ("a.csv", "b.csv"):
        e = unreadable(tmp_path / name)
        assert e.kind == "csv" and "CSV 文件丢失了报名表中的校验信息，请在下发的 .xlsx 报名表中填写后发送" in e.message_cn
