"""PEOPLE_DROPPED in a Traditional league (R2015) names the people left out of a resent form
as names (handbook: 人名按人名转换): they are no entries any more, so no page knew them as
names, and the receipt, the unit page and the returned copy's 問題清單 said 於麗 for the
registered 于丽."""
from __future__ import annotations

from types import SimpleNamespace

import pipeline.run as run
from pipeline.ingest.registration import RegRow, Registration
from pipeline.issues import IssueLog
from pipeline.text import convert, plain


def _form(name, people):
    rows = tuple(RegRow(row=10 + i, columns={}, event="go", name=p, display_name=p) for i, p in enumerate(people))
    return SimpleNamespace(file_name=name, sha256=name), Registration(file=name, branch="t01", rows=rows)


def _said(monkeypatch, script):
    monkeypatch.setattr(run, "_registered_rows", lambda t, rec, reg: None)     # (every row registered)
    t = SimpleNamespace(spec=SimpleNamespace(unit_word="分工会", script=script))
    log = IssueLog()
    run._people_dropped(t, "t01", [_form("f1.xlsx", ["于丽", "余华", "王军"]), _form("f2.xlsx", ["王军"])], {}, log)
    (message,) = [i.message for i in log if i.code == "PEOPLE_DROPPED"]
    return message


def test_R2015_people_dropped_are_named_as_names(monkeypatch):
    message = _said(monkeypatch, "traditional")
    shown = convert(message, "traditional")
    assert "于麗、余華（2 人）" in shown and "於" not in shown and "餘" not in shown
    assert "于丽、余华（2 人）" in plain(message)       # (issues.csv: as registered)


def test_people_dropped_in_a_simplified_league_carry_no_marks(monkeypatch):
    message = _said(monkeypatch, "simplified")
    assert "于丽、余华（2 人）" in message and message.isprintable()
