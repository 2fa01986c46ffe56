"""The sheet scan (extent, rows with data, error cells, uncached formulas) that guards
calamine against huge or dense sheets: the one-expression scan of plain sheets gives
exactly the cell-by-cell scan."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.ingest.workbook import _scan_cells, _scan_plain, _scan_sheet

_cols = st.sampled_from(["A", "B", "Z", "AA", "XFD"])
_rows = st.integers(1, 3) | st.integers(1, 1_048_576)     # often the same row twice


@st.composite
def cell(draw) -> bytes:
    prefix = draw(st.sampled_from([b"", b"x:"]))
    attrs = []
    if draw(st.integers(0, 9)):                  # now and then a cell without an address
        attrs.append(b'r="%s%d"' % (draw(_cols).encode(), draw(_rows)))
    attrs += draw(st.lists(st.sampled_from([b's="3"', b't="s"', b't="n"', b't="inlineStr"', b't="e"']),
                           max_size=2))
    attrs = draw(st.permutations(attrs))
    space = draw(st.sampled_from([b" ", b" ", b" ", b"\n", b"\t"]))      # what follows <c: mostly a space
    head = b"<" + prefix + b"c" + b"".join(space + a for a in attrs)
    gap = draw(st.sampled_from([b"", b"\n  "]))
    body = draw(st.sampled_from([
        None, b"", b"<v>1</v>", b"<v></v>", b"<v>#N/A</v>", b"<is><t>x</t></is>", b"<is></is>",
        b"<f>A1+1</f>", b"<f>A1+1</f><v>2</v>", b'<f t="shared" si="0"/>', b"<extLst/><v>3</v>",
        b'<is><r><rPr><family val="2"/></rPr><t>y</t></r></is>',
    ]))
    if body is None:
        return head + b"/>"
    body = body.replace(b"<v>", b"<" + prefix + b"v>").replace(b"</v>", b"</" + prefix + b"v>")
    return head + b">" + gap + body + b"</" + prefix + b"c>"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(cell(), max_size=4), max_size=5), st.booleans())
def test_plain_scan_equals_cell_scan(rows, validation):
    xml = b"<worksheet><sheetData>" + b"".join(
        b'<row r="%d">' % (i + 1) + b"".join(r) + b"</row>" for i, r in enumerate(rows)) + b"</sheetData>"
    if validation:      # a dropdown's <formula1> is not a cell formula
        xml += b'<dataValidations><dataValidation type="list"><formula1>"a,b"</formula1></dataValidation></dataValidations>'
    xml += b"</worksheet>"
    full = _scan_cells(xml)
    assert _scan_sheet(xml) == full
    if b"<f" not in xml.replace(b"<formula1>", b"") and b"x:f" not in xml and b't="e"' not in xml:
        plain = _scan_plain(xml)
        assert (plain.max_row, plain.max_col, plain.data_rows, plain.problems) == \
            (full.max_row, full.max_col, full.data_rows, full.problems) or b"<c>" in xml or b"<x:c>" in xml



@st.composite
def written_cell(draw) -> bytes:
    """A cell as Excel and our writers write it (address first), now and then not."""
    if not draw(st.integers(0, 15)):
        return draw(cell())
    attrs = b'r="%s%d"' % (draw(_cols).encode(), draw(_rows))
    attrs += b"".join(b" " + a for a in draw(st.lists(st.sampled_from([b's="3"', b't="s"', b't="inlineStr"']),
                                                     max_size=2)))
    body = draw(st.sampled_from([None, b"", b"<v>1</v>", b"<v></v>", b"<is><t>x</t></is>", b"<is></is>"]))
    return b"<c " + attrs + (b"/>" if body is None else b">" + body + b"</c>")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(written_cell(), max_size=6), max_size=6))
def test_quick_scan_of_written_sheets_equals_cell_scan(rows):
    xml = b"<worksheet><sheetData>" + b"".join(
        b'<row r="%d">' % (i + 1) + b"".join(r) + b"</row>" for i, r in enumerate(rows)) + b"</sheetData></worksheet>"
    assert _scan_sheet(xml) == _scan_cells(xml)


def test_sheets_as_our_writers_and_excel_write_them_take_the_quick_scan():
    """Excel, WPS, openpyxl and XlsxWriter write every cell as ``<c r="A1" …>``: such a sheet
    is scanned by literal counts and one expression (``_scan_canonical``), with the same
    result as the cell-by-cell scan; anything else is left to the other scans."""
    import io
    import zipfile

    from openpyxl import Workbook

    from pipeline.ingest.workbook import _scan_canonical
    from pipeline.xlsx.fast import Book

    book = Book()
    sheet = book.sheet("成绩")
    for r in range(1, 40):
        sheet.put(r, 1, r)
        sheet.put(r, 3, f"第{r}桌" if r % 3 else None)
    sheet.put(45, 2, "=A1")            # guarded text, not a formula
    xw = zipfile.ZipFile(io.BytesIO(book.to_bytes())).read("xl/worksheets/sheet1.xml")
    wb = Workbook()
    wb.active["B2"], wb.active["D7"] = "姓名", 3.5
    buf = io.BytesIO()
    wb.save(buf)
    op = zipfile.ZipFile(buf).read("xl/worksheets/sheet1.xml")
    for xml in (xw, op):
        quick = _scan_canonical(xml)
        assert quick is not None and quick == _scan_cells(xml) == _scan_sheet(xml)
    assert (_scan_canonical(xw).max_row, _scan_canonical(xw).max_col, _scan_canonical(op).max_row) == (45, 3, 7)
    # a formula, an address not first, a prefixed cell: not for the quick scan
    for odd in (xw.replace(b"<v>1</v>", b"<f>A2</f><v>1</v>", 1), xw.replace(b'<c r="A1"', b'<c s="0" r="A1"', 1),
                b'<worksheet><sheetData><row r="1"><x:c r="A1"><x:v>1</x:v></x:c></row></sheetData></worksheet>'):
        assert _scan_canonical(odd) is None
        assert _scan_sheet(odd) == _scan_cells(odd)
