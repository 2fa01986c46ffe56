"""What a run logs to stderr for the office is Chinese: "received copy of 行政第一分工会-报名表.xlsx
damaged or lost" was printed in English (audit 38)."""
from __future__ import annotations

import datetime as dt
import logging
import re

from .common import copy_sample, league, run_args

_WORDS = re.compile(r"\b(received|copy|damaged|lost|missing|inbox|reading|vanished|again)\b")


def _english(line: str) -> bool:
    """English words in ``line`` outside its paths (``…/inbox/x.eml``, ``received/``)."""
    return bool(_WORDS.search(re.sub(r"\S*/\S*", "", line)))


def test_a_lost_received_copy_is_logged_in_chinese(tmp_path):
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode in (0, 1)
    kept = sorted((out / "t2016-poker" / "received").glob("*.xlsx"))
    assert kept
    for p in kept:
        p.unlink()
    r = league(*run_args(folder, out, now="2030-01-02T00:00+08:00"))
    assert r.returncode in (0, 1), r.stderr
    said = [line for line in r.stderr.splitlines() if "received/" in line or _english(line)]
    assert said, r.stderr
    assert not [line for line in said if _english(line)], said
    assert all(re.search("[\u4e00-\u9fff]{4}", line) for line in said), said


def test_a_copy_made_again_from_its_mail_or_not_at_all_is_logged_in_chinese(tmp_path, caplog):
    from pipeline.run import _kept_bytes
    from pipeline.store import Received

    at = dt.datetime.fromisoformat("2020-11-05T10:00+08:00")
    rec = Received("0" * 64, ".xlsx", "行政第一分工会-报名表.xlsx", at)
    (tmp_path / "received").mkdir()
    with caplog.at_level(logging.WARNING, logger="league"):
        assert _kept_bytes(tmp_path, rec) is None
    (line,) = [r.getMessage() for r in caplog.records]
    assert "行政第一分工会-报名表.xlsx" in line and "received/" in line and not _english(line), line
