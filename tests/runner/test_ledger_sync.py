"""The ledger's commits: a received file is synced to disk before the run goes on; the
cache (readings, what each output was made from) is committed without waiting for the
disk, and never leaves the connection in that mode."""
from __future__ import annotations

import datetime as dt

import pytest

from pipeline.store import Ledger, Received

AT = dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc)


def _commits(ledger: Ledger, action) -> list[int]:
    """The ``synchronous`` level each COMMIT of ``action`` ran under (2 = FULL, 1 = NORMAL)."""
    seen: list[int] = []
    statements: list[str] = []
    ledger.conn.set_trace_callback(statements.append)
    try:
        action()
    finally:
        ledger.conn.set_trace_callback(None)
    level = ledger.conn.execute("PRAGMA synchronous").fetchone()[0]
    assert level == 2, "the connection is left in FULL mode"
    current = 2
    for st in statements:
        s = st.strip().upper()
        if s.startswith("PRAGMA SYNCHRONOUS="):
            current = {"FULL": 2, "NORMAL": 1, "OFF": 0}[s.split("=", 1)[1]]
        elif s == "COMMIT":
            seen.append(current)
    return seen


def test_cache_commits_do_not_wait_for_the_disk_and_received_files_do(tmp_path):
    with Ledger(tmp_path) as ledger:
        assert _commits(ledger, lambda: ledger.cache_put({"read:a": b"1", "read:b": b"2"})) == [1]
        assert _commits(ledger, lambda: ledger.cache_prune("read:", {"read:a"})) == [1]
        rec = Received("ab" * 32, ".xlsx", "x.xlsx", AT)
        assert _commits(ledger, lambda: ledger.record(rec)) == [2]
        assert ledger.cache_get(["read:a", "read:b"]) == {"read:a": b"1"}
        # what a night said once (pipeline.lastrun.SAID_KEY) is not lost with a power cut
        assert _commits(ledger, lambda: ledger.cache_put({"said-once": b"[]"}, durable=True)) == [2]
        assert ledger.cache_get(["said-once"]) == {"said-once": b"[]"}


def test_a_failed_cache_write_rolls_back_and_restores_full_sync(tmp_path):
    with Ledger(tmp_path) as ledger:
        ledger.cache_put({"k": b"old"})
        with pytest.raises(Exception):
            ledger.cache_put({"k": b"new", "bad": object()})   # not bindable: the write fails
        assert ledger.conn.execute("PRAGMA synchronous").fetchone()[0] == 2
        assert not ledger.conn.in_transaction
        assert ledger.cache_get(["k", "bad"]) == {"k": b"old"}
