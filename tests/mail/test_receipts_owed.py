"""Receipts owed from nights run without ``--smtp`` (handbook 回执（--smtp）: 每收到一份报名表，
回一封 — one receipt per form received, each sent once; contract: a run with no new input
changes nothing and is fast).

The office tries ``league run`` by hand, then adds ``--smtp`` to the cron line.  That first
``--smtp`` night found the last run's outputs current (the fingerprint leaves ``--smtp``
out), only retried failed receipts and sent none: 回执：发出 0 封, the ledger's receipts table
empty, while a fresh output folder sent 11.  The receipts went out only on a later night
that brought a new file.  Likewise a form taken in by a run without ``--smtp`` between two
cron nights got no receipt on the next.  Now such a night sends every receipt owed (the
set a fresh ``--smtp`` run sends), says them as 补发, re-sends none already sent and
rewrites no output; an unchanged night whose receipts were built stays cheap.
"""
from __future__ import annotations

import io
import sqlite3

import pytest

from pipeline import layout
from pipeline.run import RunOptions, run

from .conftest import SmtpServer, free_port
from .test_receipt_no_workbook import B01, NOW, _form_of, _league, _mail, _parse


def _receipts(out) -> dict[str, int]:
    db = next(out.glob("*/ledger.sqlite"))
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT status, count(*) FROM receipts GROUP BY status").fetchall())


def _outputs(out) -> dict[str, tuple[int, int]]:
    """Every output file but the run's own records (ledger, .lastrun.json) and the outbox."""
    return {str(p.relative_to(out)): (p.stat().st_mtime_ns, p.stat().st_size) for p in out.rglob("*")
            if p.is_file() and not p.name.startswith(("ledger.sqlite", ".")) and "outbox" not in p.parts}


@pytest.fixture
def server():
    s = SmtpServer(port=free_port()).start()
    yield s
    s.stop()


def test_receipt_per_form_on_the_first_smtp_night_after_runs_without_it(tmp_path, server):
    folder, out = _league(tmp_path), tmp_path / "out"
    by_hand = RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW)
    run(by_hand)
    run(by_hand)                                   # the quick check records the night too
    before = _outputs(out)
    cron = RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW, smtp_url=server.url)
    first = run(cron)
    assert first.mail == ["回执：补发 11 封（此前未用 --smtp 运行）。"], first.mail
    assert first.unchanged and "没有新文件，输出未变。" in first.summary()
    assert len(server.handler.messages) == 11 and _receipts(out) == {"sent": 11}
    assert len({_parse(m)["In-Reply-To"] for m in server.handler.messages}) == 11   # one per form
    assert _outputs(out) == before                 # nothing rebuilt: same files, same times
    again = run(cron)
    assert again.mail == ["回执：发出 0 封。"] and len(server.handler.messages) == 11


def test_receipt_per_form_taken_in_by_a_run_without_smtp_between_cron_nights(tmp_path, server):
    import openpyxl

    folder, out = _league(tmp_path), tmp_path / "out"
    cron = RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW, smtp_url=server.url)
    assert run(cron).mail == ["回执：发出 11 封。"]
    name, data = _form_of(folder, "1104-b01-报名表.eml")           # b01 corrects a phone number
    wb = openpyxl.load_workbook(io.BytesIO(data))
    cell = next(c for row in wb[layout.REG_SHEET].iter_rows() for c in row
                if isinstance(c.value, str) and c.value.isdigit() and len(c.value) == 11)
    cell.value = "13900000000"
    buf = io.BytesIO()
    wb.save(buf)
    _mail(folder, "1106-b01-补发.eml", B01, "报名表（更正）", "Fri, 06 Nov 2020 21:00:00 +0800",
          [(name, buf.getvalue())], message_id="<b01-fix@union.example.edu.cn>")
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))   # by hand, without --smtp
    night = run(cron)
    assert night.mail == ["回执：补发 1 封（此前收到的文件尚未发过回执）。"], night.mail
    assert len(server.handler.messages) == 12 and _receipts(out) == {"sent": 12}
    last = _parse(server.handler.messages[-1])
    assert last["In-Reply-To"] == "<b01-fix@union.example.edu.cn>" and last["To"] == B01
    assert run(cron).mail == ["回执：发出 0 封。"] and len(server.handler.messages) == 12


def test_unchanged_smtp_night_with_receipts_built_reads_no_workbook(tmp_path, server, monkeypatch):
    """The contract's fast unchanged night: once a run built the receipts, an unchanged
    ``--smtp`` night answers from the last run (one cache row tells it), retrying only
    failed receipts."""
    import pipeline.run as run_module

    folder, out = _league(tmp_path), tmp_path / "out"
    cron = RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW, smtp_url=server.url)
    run(cron)

    def no_full_run(*args, **kwargs):
        raise AssertionError("an unchanged night read the workbooks again")

    monkeypatch.setattr(run_module, "read_inputs", no_full_run)
    night = run(cron)
    assert night.unchanged and night.mail == ["回执：发出 0 封。"] and len(server.handler.messages) == 11
