"""Reading what arrives in the inbox: workbooks (safely, fast), .eml mails, registration and result sheets.

The names below are importable from here (``from pipeline.ingest import read_workbook``) but
their modules load only when first asked for (PEP 562): a run that reads workbooks and
receives no new mail never imports the ``email`` package behind :mod:`.eml`."""
from __future__ import annotations

from ..lazyexports import lazy_exports

_WHERE = {
    "eml": ("Attachment", "Mail", "parse_eml", "parse_eml_bytes"),
    "registration": ("Registration", "RegRow", "read_awards_rows", "read_checkin_rows", "read_playoff_rows",
                     "read_registration", "read_result_rows", "read_sheet_rows"),
    "workbook": ("Book", "CellError", "Sheet", "Table", "TableNotFound", "UnreadableFile", "a1", "cell_text",
                 "find_table", "read_workbook", "read_workbook_bytes", "strip_spaces"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [name for names in _WHERE.values() for name in names]


__getattr__, __dir__ = lazy_exports(__name__, _MODULE_OF)
