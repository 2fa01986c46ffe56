"""The sheet scan (extent, rows with data, error cells, uncached formulas) that guards
calamine against huge or dense sheets: the one-expression scan of plain sheets gives
exactly the cell-by-cell scan."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.ingest.workbook import _scan_cells, _scan_plain, _scan_sheet

_cols = st.sampled_from(["A", "B", "Z", "AA", "XFD"])
_rows = st.integers(1, 1_048_576)


@st.composite
def cell(draw) -> bytes:
    prefix = draw(st.sampled_from([b"", b"x:"]))
    attrs = []
    if draw(st.integers(0, 9)):                  # now and then a cell without an address
        attrs.append(b'r="%s%d"' % (draw(_cols).encode(), draw(_rows)))
    attrs += draw(st.lists(st.sampled_from([b's="3"', b't="s"', b't="n"', b't="inlineStr"', b't="e"']),
                           max_size=2))
    attrs = draw(st.permutations(attrs))
    head = b"<" + prefix + b"c" + b"".join(b" " + a for a in attrs)
    gap = draw(st.sampled_from([b"", b"\n  "]))
    body = draw(st.sampled_from([
        None, b"", b"<v>1</v>", b"<v></v>", b"<v>#N/A</v>", b"<is><t>x</t></is>", b"<is></is>",
        b"<f>A1+1</f>", b"<f>A1+1</f><v>2</v>", b'<f t="shared" si="0"/>', b"<extLst/><v>3</v>",
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
