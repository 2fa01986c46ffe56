"""Excel writers: every workbook the pipeline issues (registration templates, returned
copies for captains, result sheets for referees, organisers' forms).

Readers live in ``pipeline.ingest``; both sides take sheet names, labels and _meta keys
from ``pipeline.layout``.  All writes are atomic (:func:`common.atomic_save`) and every
text cell is guarded against formula injection (:func:`common.put`).

The names below are imported from their modules on first use (PEP 562): openpyxl and
XlsxWriter take a seventh of a second to import, which a night that writes no workbook
in its own process (see ``run.render_all``) does not pay.
"""
from __future__ import annotations

from ..lazyexports import lazy_exports

_WHERE = {
    "atomic_save": "common", "put": "common", "read_meta": "common", "zh": "common",
    "PlayoffTie": "forms", "write_awards_form": "forms", "write_checkin_form": "forms",
    "write_playoff_form": "forms",
    "branch_quota": "registration", "build_registration_workbook": "registration",
    "template_filename": "registration", "template_name": "registration",
    "write_all_templates": "registration", "write_registration_template": "registration",
    "build_result_workbook": "results", "write_result_sheet": "results",
    "ISSUES_SHEET": "returned", "write_returned_copy": "returned",
}

__all__ = list(_WHERE)


__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
