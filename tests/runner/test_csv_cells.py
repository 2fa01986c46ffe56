"""The data CSVs: csv_bytes's shortcut per cell gives exactly the bytes of neutralising
every cell (pipeline.fsutil.neutralise), for any mix of texts, numbers and blanks."""
from __future__ import annotations

import csv
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.fsutil import csv_bytes, neutralise

COLUMNS = ["a", "b", "c"]
cells = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["=SUM(A1)", "+1", "-20", "-cmd", "@x", "\tx", "-", "-1e5", "-inf", "--1", "", "张三"]),
)


def _by_definition(rows: list[dict]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in rows:
        w.writerow([neutralise(r.get(c, "")) for c in COLUMNS])
    return buf.getvalue().encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(COLUMNS), cells), max_size=6))
def test_csv_bytes_equals_neutralising_every_cell(rows):
    assert csv_bytes(COLUMNS, rows) == _by_definition(rows)


def test_formula_texts_are_still_guarded():
    text = csv_bytes(["x"], [{"x": "=HYPERLINK(\"http://x\")"}, {"x": "-cmd"}, {"x": -20}, {"x": "-20"}]).decode()
    assert text.splitlines()[1:] == ['"\'=HYPERLINK(""http://x"")"', "'-cmd", "-20", "-20"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(cells, min_size=3, max_size=3), max_size=6))
def test_csv_tuples_equals_neutralising_every_cell(rows):
    """csv_tuples (entries.csv: a line per player) writes the same bytes as csv_bytes would
    for the same rows as mappings."""
    from pipeline.fsutil import csv_header, csv_tuples

    assert csv_header(COLUMNS) + csv_tuples(rows) == _by_definition([dict(zip(COLUMNS, r)) for r in rows])
