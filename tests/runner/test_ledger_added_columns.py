"""A ledger made by an older program (its withdrawn_byes without ``completed_at``) is opened
and carried on: the column is added, and a bye recorded unscored before a later round of its
event was published counts as seen with its round complete (handbook 缺席、弃权和退赛:
"收齐之后再删去的，不计分照旧" — that later round was drawn from its round's results)."""
from __future__ import annotations

import datetime as dt
import sqlite3

from pipeline.store import Ledger
from pipeline.timeutil import TZ

OLD = """
CREATE TABLE withdrawn_byes (event TEXT NOT NULL, round INTEGER NOT NULL, entry TEXT NOT NULL,
    recorded_at TEXT NOT NULL, PRIMARY KEY (event, round, entry));
CREATE TABLE rounds (event TEXT NOT NULL, round INTEGER NOT NULL, stage TEXT NOT NULL, stage_name TEXT NOT NULL,
    seed TEXT NOT NULL, input_hash TEXT NOT NULL, published_at TEXT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (event, round));
"""


def test_an_older_ledgers_withdrawn_byes_get_completed_at(tmp_path):
    conn = sqlite3.connect(tmp_path / "ledger.sqlite")
    conn.executescript(OLD)
    for r, at in ((1, "2011-05-06T17:01:00+08:00"), (2, "2011-05-16T17:56:00+08:00"),
                  (3, "2011-05-17T17:56:00+08:00"), (4, "2011-05-18T17:56:00+08:00")):
        conn.execute("INSERT INTO rounds VALUES ('ddz',?,'s','s','x','h',?,'{}')", (r, at))
    conn.execute("INSERT INTO rounds VALUES ('go',1,'s','s','x','h','2011-05-06T17:01:00+08:00','{}')")
    conn.execute("INSERT INTO withdrawn_byes VALUES ('ddz',3,'ddz:a','2011-05-17T20:00:00+08:00')")
    conn.execute("INSERT INTO withdrawn_byes VALUES ('go',1,'go:b','2011-05-06T20:00:00+08:00')")
    conn.commit()
    conn.close()
    with Ledger(tmp_path) as led:
        assert led.withdrawn_byes("ddz") == {(3, "ddz:a")} and led.withdrawn_byes("go") == {(1, "go:b")}
        assert led.completed_withdrawn_byes("ddz") == {(3, "ddz:a")}     # round 4 drawn from round 3
        assert led.completed_withdrawn_byes("go") == set()               # its last round: the next run says
    with Ledger(tmp_path) as led:                                        # (opened again: as it was)
        assert led.completed_withdrawn_byes("ddz") == {(3, "ddz:a")}
        led.record_withdrawn_byes("go", (), (), dt.datetime(2011, 5, 7, tzinfo=TZ), [(1, "go:b")])
        assert led.completed_withdrawn_byes("go") == {(1, "go:b")}


def test_an_older_ledgers_own_copies_get_guessed(tmp_path):
    """own_copies without ``guessed``: the column is added (its rows the runs' own records), and
    a guessed copy is replaced by a run's record of the same content."""
    from pipeline.store import OwnCopy

    conn = sqlite3.connect(tmp_path / "ledger.sqlite")
    conn.executescript("CREATE TABLE own_copies (sha256 TEXT PRIMARY KEY, name TEXT NOT NULL, "
                       "branch TEXT NOT NULL DEFAULT '', written_at TEXT NOT NULL);")
    conn.execute("INSERT INTO own_copies VALUES ('a','d01-x.xlsx','d01','2011-05-06T17:01:00+08:00')")
    conn.commit()
    conn.close()
    at = dt.datetime(2011, 5, 7, tzinfo=TZ)
    with Ledger(tmp_path) as led:
        led.record_own_copies([OwnCopy("b", "d02-y.xlsx", "", at)], at, guessed=True)
        led.record_own_copies([OwnCopy("a", "d01-x.xlsx", "d01", at), OwnCopy("b", "d02-y.xlsx", "d02", at)], at)
        own = led.own_copies()
    assert own["a"].written_at.day == 6 and own["b"].branch == "d02"
