"""A ledger opened by this program stays usable by the previous one (ca7e204): the data added
since (a guessed returned copy, a withdrawn bye seen complete) is kept in tables of its own, not
as new columns of the old tables — the old program's ``INSERT … VALUES (?,?,?,?)`` into
own_copies / withdrawn_byes failed ("table own_copies has 5 columns but 4 values were
supplied") and it blamed a full disk.  A ledger that got the columns (a development build) has
them moved out when opened."""
from __future__ import annotations

import datetime as dt
import sqlite3

from pipeline.store import Ledger, OwnCopy

AT = dt.datetime(2026, 1, 1, 20, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))


def _old_program_writes(path) -> None:
    with sqlite3.connect(path) as con:      # the statements of ca7e204's store.py
        con.execute("INSERT OR IGNORE INTO own_copies VALUES (?,?,?,?)", ("c" * 64, "x-返回.xlsx", "u1", AT.isoformat()))
        con.execute("INSERT OR REPLACE INTO withdrawn_byes VALUES (?,?,?,?)", ("ev", 2, "e9", AT.isoformat()))


def test_the_previous_program_can_still_write_a_ledger_this_one_opened(tmp_path):
    with Ledger(tmp_path) as ledger:
        ledger.record_own_copies([OwnCopy("a" * 64, "a-返回.xlsx", "", AT)], AT, guessed=True)
        ledger.record_withdrawn_byes("ev", [(1, "e1")], [], AT, completed=[(1, "e1")])
        assert ledger.completed_withdrawn_byes("ev") == {(1, "e1")}
    _old_program_writes(tmp_path / "ledger.sqlite")
    with Ledger(tmp_path) as ledger:
        assert set(ledger.own_copies()) == {"a" * 64, "c" * 64}
        assert ledger.withdrawn_byes("ev") == {(1, "e1"), (2, "e9")}
        assert ledger.completed_withdrawn_byes("ev") == {(1, "e1")}
        # a run's own record of the guessed copy takes its place; a guessed one never replaces
        ledger.record_own_copies([OwnCopy("a" * 64, "a2-返回.xlsx", "u2", AT)], AT)
        ledger.record_own_copies([OwnCopy("a" * 64, "a3-返回.xlsx", "", AT)], AT, guessed=True)
        ledger.record_own_copies([OwnCopy("a" * 64, "a4-返回.xlsx", "u4", AT)], AT)
        assert ledger.own_copies()["a" * 64].branch == "u2"


def test_a_ledger_with_the_added_columns_has_them_moved_out(tmp_path):
    with Ledger(tmp_path):
        pass
    with sqlite3.connect(tmp_path / "ledger.sqlite") as con:     # as a development build left it
        con.execute("ALTER TABLE own_copies ADD COLUMN guessed INTEGER NOT NULL DEFAULT 0")
        con.execute("ALTER TABLE withdrawn_byes ADD COLUMN completed_at TEXT NOT NULL DEFAULT ''")
        con.execute("INSERT INTO own_copies VALUES (?,?,?,?,?)", ("b" * 64, "b-返回.xlsx", "", AT.isoformat(), 1))
        con.execute("INSERT INTO withdrawn_byes VALUES (?,?,?,?,?)", ("ev", 1, "e1", AT.isoformat(), AT.isoformat()))
    with Ledger(tmp_path) as ledger:
        assert ledger.completed_withdrawn_byes("ev") == {(1, "e1")}
        ledger.record_own_copies([OwnCopy("b" * 64, "b2-返回.xlsx", "u2", AT)], AT)     # was guessed: replaced
        assert ledger.own_copies()["b" * 64].branch == "u2"
    _old_program_writes(tmp_path / "ledger.sqlite")
