"""Excel writers: every workbook the pipeline issues (registration templates, returned
copies for captains, result sheets for referees, organisers' forms).

Readers live in ``pipeline.ingest``; both sides take sheet names, labels and _meta keys
from ``pipeline.layout``.  All writes are atomic (:func:`common.atomic_save`) and every
text cell is guarded against formula injection (:func:`common.put`).
"""
from .common import atomic_save, put, read_meta, zh
from .forms import PlayoffTie, write_awards_form, write_checkin_form, write_playoff_form
from .registration import (branch_quota, build_registration_workbook, template_filename, template_name,
                           write_all_templates, write_registration_template)
from .results import build_result_workbook, write_result_sheet
from .returned import ISSUES_SHEET, write_returned_copy

__all__ = [
    "atomic_save", "put", "read_meta", "zh",
    "PlayoffTie", "write_awards_form", "write_checkin_form", "write_playoff_form",
    "branch_quota", "build_registration_workbook", "template_filename", "template_name", "write_all_templates",
    "write_registration_template",
    "build_result_workbook", "write_result_sheet",
    "ISSUES_SHEET", "write_returned_copy",
]
