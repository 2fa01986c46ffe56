"""Reading what arrives in the inbox: workbooks (safely, fast), .eml mails, registration and result sheets."""
from .eml import Attachment, Mail, parse_eml, parse_eml_bytes
from .registration import (Registration, RegRow, read_awards_rows, read_checkin_rows, read_playoff_rows,
                           read_registration, read_result_rows, read_sheet_rows)
from .workbook import (Book, CellError, Sheet, Table, TableNotFound, UnreadableFile, a1, cell_text, find_table,
                       read_workbook, read_workbook_bytes, strip_spaces)

__all__ = ["Attachment", "Mail", "parse_eml", "parse_eml_bytes", "Registration", "RegRow", "read_awards_rows",
           "read_checkin_rows", "read_playoff_rows", "read_registration", "read_result_rows", "read_sheet_rows",
           "Book", "CellError", "Sheet", "Table", "TableNotFound", "UnreadableFile", "a1", "cell_text",
           "find_table", "read_workbook", "read_workbook_bytes", "strip_spaces"]
