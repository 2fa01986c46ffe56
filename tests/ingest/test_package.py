"""pipeline.ingest's package namespace: every reader is importable from it, and a run that
reads workbooks without new mail does not import the mail parser (``.eml`` → ``email``)."""
from __future__ import annotations

import subprocess
import sys

import pytest

import pipeline.ingest as ingest

_PROBE = r'''
import sys
import pipeline.run, pipeline.ingest.workbook, pipeline.ingest.registration
from pipeline.ingest import read_workbook, Registration
print("pipeline.ingest.eml" in sys.modules)
from pipeline.ingest import parse_eml
print("pipeline.ingest.eml" in sys.modules, parse_eml.__module__)
'''


def test_reading_workbooks_does_not_import_the_mail_parser():
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "pipeline.ingest.eml"]


@pytest.mark.parametrize("name", ingest.__all__)
def test_every_listed_name_imports_from_the_package(name):
    assert getattr(ingest, name) is not None
    assert name in dir(ingest)


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError):
        ingest.no_such_reader  # noqa: B018
    with pytest.raises(ImportError):
        exec("from pipeline.ingest import no_such_reader", {})
