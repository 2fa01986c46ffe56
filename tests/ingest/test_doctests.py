"""The examples in the readers' docstrings are run (they state what a cell reads as)."""
from __future__ import annotations

import doctest

import pytest

import pipeline.draw.swiss
import pipeline.games.common
import pipeline.games.headtohead
import pipeline.ingest.eml
import pipeline.ingest.registration
import pipeline.ingest.sheets
import pipeline.ingest.workbook
import pipeline.lastrun
import pipeline.layout
import pipeline.mail.receipts
import pipeline.mail.smtp
import pipeline.model
import pipeline.newleague
import pipeline.registries
import pipeline.score.awards
import pipeline.score.tiebreaks.playoff
import pipeline.spec
import pipeline.render.viewmodels
import pipeline.text
import pipeline.validate.checks


@pytest.mark.parametrize("module", [pipeline.ingest.registration, pipeline.ingest.workbook,
                                    pipeline.games.common, pipeline.games.headtohead, pipeline.text, pipeline.model,
                                    pipeline.validate.checks, pipeline.mail.smtp, pipeline.registries,
                                    pipeline.render.viewmodels, pipeline.draw.swiss, pipeline.newleague, pipeline.ingest.eml,
                                    pipeline.mail.receipts, pipeline.score.awards, pipeline.layout,
                                    pipeline.lastrun, pipeline.ingest.sheets, pipeline.spec,
                                    pipeline.score.tiebreaks.playoff], ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
