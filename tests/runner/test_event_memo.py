"""run.run_event: an event's state is taken from the last run when nothing it depends on changed."""
from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest

from pipeline import run as run_mod
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def league(tmp_path):
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    held = tmp_path / "held"
    held.mkdir()
    last = sorted((folder / "inbox").glob("*guandan-r3-成绩表.eml"))[0]
    shutil.move(last, held / last.name)            # round 3's results arrive on a later night
    return folder, held / last.name, tmp_path / "out"


def _drop(folder: Path, name: str) -> None:
    """An unrelated file, received (mtime) long ago: the pages' "data as of" time stays."""
    p = folder / "inbox" / name
    p.write_text(f"not a workbook: {name}", encoding="utf-8")
    os.utime(p, (946684800, 946684800))


def _csvs(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "t2016-poker").glob("data/*.csv"))}


def test_unrelated_new_file_reuses_every_event_state(league, monkeypatch):
    folder, _, out = league
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False))   # publishes rounds 1-3
    before = _csvs(out)
    _drop(folder, "说明.txt")

    def boom(self):
        raise AssertionError("EventRunner.advance ran although nothing the event depends on changed")
    monkeypatch.setattr(run_mod.EventRunner, "advance", boom)
    second = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert not second.unchanged
    assert second.events == first.events
    after = _csvs(out)
    assert {"draw.csv", "standings.csv"} <= set(after)
    assert {k: v for k, v in after.items() if k != "issues.csv"} == {k: v for k, v in before.items() if k != "issues.csv"}
    assert any(i.code == "UNREADABLE_FILE" for i in second.issues)


def test_new_result_sheet_runs_the_event_again(league, monkeypatch):
    folder, held, out = league
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    standings = (out / "t2016-poker" / "standings.html").read_text(encoding="utf-8")
    shutil.move(held, folder / "inbox" / held.name)
    calls = []
    real = run_mod.EventRunner.advance
    monkeypatch.setattr(run_mod.EventRunner, "advance", lambda self: (calls.append(self.ev.id), real(self))[1])
    second = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert "guandan" in calls and second.events != first.events
    # the standings document, keyed on the event states, is made again from the new one
    from pipeline.render import docs, viewmodels

    again = (out / "t2016-poker" / "standings.html").read_text(encoding="utf-8")
    assert again != standings and again == docs.render_html(docs.Document(
        "standings", "docs/standings.html", lambda: viewmodels.standings_vm(second.state)))


def test_another_events_new_result_sheet_keeps_this_events_state(tmp_path, monkeypatch):
    """An event's state depends on its own result sheets (their _meta), not another event's:
    象棋's last sheet re-runs 象棋 alone (at 200 units every event re-read and re-scored all
    its rounds for any event's new sheet, and nights grew with the season)."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    held = tmp_path / "11181745-xiangqi-r6-成绩表.eml"
    shutil.move(folder / "inbox" / held.name, held)
    out = tmp_path / "out"
    now = dt.datetime(2020, 11, 19, 9, 0, tzinfo=TZ)
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    shutil.move(held, folder / "inbox" / held.name)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")     # every event advanced here, where it is counted
    calls = []
    real = run_mod.EventRunner.advance
    monkeypatch.setattr(run_mod.EventRunner, "advance", lambda self: (calls.append(self.ev.id), real(self))[1])
    second = run(RunOptions(folder=folder, out_parent=out, pdf=False, now=now))
    assert calls == ["xiangqi"]
    assert second.events != first.events
    assert [e for e in second.events if "象棋" not in e] == [e for e in first.events if "象棋" not in e]


def test_only_pages_whose_view_model_changed_are_rendered_again(league, monkeypatch):
    """render.memo.PageMemo: an unrelated new file re-renders the index and the report of
    unassigned files, but no event page, unit report or document."""
    from pipeline.render import docs, site

    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    rendered: list[str] = []
    real_page, real_html = site._page, docs.render_html
    monkeypatch.setattr(site, "_page", lambda template, vm, **kw: (rendered.append(template), real_page(template, vm, **kw))[1])
    monkeypatch.setattr(docs, "render_html", lambda doc: (rendered.append(doc.template), real_html(doc))[1])
    index = (out / "t2016-poker" / "index.html").read_text(encoding="utf-8")
    # pages about one event are keyed on the event's inputs: their view-models are not even built
    from pipeline.render import site_vm, viewmodels

    def unbuilt(*a, **k):
        raise AssertionError("a view-model was built for a page whose inputs did not change")
    for mod, name in ((site_vm, "event_vm"), (viewmodels, "draw_vm"), (viewmodels, "cards_vm"),
                      (viewmodels, "standings_vm"), (viewmodels, "notice_vm")):
        monkeypatch.setattr(mod, name, unbuilt)
    _drop(folder, "说明.txt")
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    monkeypatch.undo()
    monkeypatch.setattr(site, "_page", lambda template, vm, **kw: (rendered.append(template), real_page(template, vm, **kw))[1])
    monkeypatch.setattr(docs, "render_html", lambda doc: (rendered.append(doc.template), real_html(doc))[1])
    # the index (issue count) and the report of files from no known unit (lists the new file)
    assert sorted(rendered) == ["site/branch.html", "site/index.html"]
    assert (out / "t2016-poker" / "index.html").read_text(encoding="utf-8") != index
    # a page whose file is gone is rendered again even though its view-model is the same
    (out / "t2016-poker" / "events" / "guandan.html").unlink()
    _drop(folder, "说明2.txt")
    rendered.clear()
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert sorted(rendered) == ["site/branch.html", "site/event.html", "site/index.html"]
    assert (out / "t2016-poker" / "events" / "guandan.html").is_file()


def test_kept_states_give_the_outputs_a_fresh_computation_gives(league, tmp_path):
    """With and without the kept event states (a ledger whose cache was emptied), the
    next night writes byte-identical CSVs — issues included."""
    import sqlite3

    folder, _, _ = league
    outs = []
    for name, forget in (("kept", False), ("fresh", True)):
        out = tmp_path / name
        f = tmp_path / f"folder-{name}"
        shutil.copytree(folder, f)
        run(RunOptions(folder=f, out_parent=out, pdf=False))
        if forget:
            con = sqlite3.connect(out / "t2016-poker" / "ledger.sqlite")
            with con:
                assert con.execute("DELETE FROM cache WHERE key LIKE 'event:%'").rowcount > 0
            con.close()
        _drop(f, "说明.txt")
        run(RunOptions(folder=f, out_parent=out, pdf=False))
        outs.append(_csvs(out))
    assert outs[0] == outs[1]


def test_a_corrected_phone_number_keeps_every_event_and_shows_the_new_number(league, monkeypatch):
    """run._drawn_digest: contact details are not part of an event's key; the kept state shows
    this night's entries (the bus manifest and the entries carry the new number)."""
    import email
    import io
    from email.utils import parsedate_to_datetime

    import openpyxl

    from pipeline import layout as L

    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    eml = sorted((folder / "inbox").glob("*-报名表.eml"))[0]
    msg = email.message_from_bytes(eml.read_bytes())
    part = next(p for p in msg.walk() if p.get_filename())
    wb = openpyxl.load_workbook(io.BytesIO(part.get_payload(decode=True)))
    ws = wb[L.REG_SHEET]
    old = None
    for row in ws.iter_rows():
        for c in row:
            if old is None and isinstance(c.value, str) and len(c.value) == 11 and c.value.startswith("1") \
                    and c.value.isdigit():
                old, c.value = c.value, "13912345678"
    assert old is not None
    resend = folder / "inbox" / ("更正-" + part.get_filename())
    wb.save(resend)
    when = parsedate_to_datetime(msg["Date"]).timestamp() + 60      # a minute after the first send
    os.utime(resend, (when, when))

    def boom(self):
        raise AssertionError("EventRunner.advance ran for a phone number correction")
    monkeypatch.setattr(run_mod.EventRunner, "advance", boom)
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert not [i for i in report.issues if i.severity.value == "error"], [i.row() for i in report.issues]
    phones = {p.phone for e in report.state.entries for p in e.players}
    assert "13912345678" in phones and old not in phones
    shown = {p.phone for es in report.state.events.values() for e in es.entries for p in e.players}
    assert "13912345678" in shown and old not in shown


def test_a_newer_file_rewrites_only_the_pages_whose_content_changed(league):
    """render.memo: a page's "data as of" line (数据更新时间, the newest received file's
    time) is not part of its key.  A unit's form received after every other file rewrote
    every unit report, event page, draw sheet and the standings (and, with PDFs, all of
    theirs: 23 PDFs, 4.8 s, in the 2020 sample) to change that line alone.  Now the pages
    whose content changed are written, with the new time; every other page keeps its file,
    and the time its content last changed."""
    import openpyxl

    from pipeline import layout as L

    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    d = out / "t2016-poker"
    before = {p.relative_to(d).as_posix(): p.read_bytes() for p in d.rglob("*.html")}
    assert {"index.html", "standings.html", "events/guandan.html"} <= set(before) and any(
        n.startswith("draws/") for n in before) and sum(n.startswith("branches/") for n in before) > 2
    (copy,) = [p for p in (d / "returned").glob("*-返回.xlsx") if "报名表" in p.name][:1]
    (stored,) = (d / "received").glob(copy.name.split("-")[-2] + "*.xlsx")
    wb = openpyxl.load_workbook(stored)
    cell = next(c for row in wb[L.REG_SHEET].iter_rows() for c in row
                if isinstance(c.value, str) and c.value.isdigit() and len(c.value) == 11)
    cell.value = "13912345678" if cell.value != "13912345678" else "13912345679"
    wb.save(folder / "inbox" / "更正-报名表.xlsx")     # received now: after every other file
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    unit = copy.name.split("-")[0]
    changed = {n for n, b in before.items() if (d / n).read_bytes() != b}
    assert changed == {"index.html", f"branches/{unit}.html"}, changed

    def as_of(name: str) -> str:
        return (d / name).read_text(encoding="utf-8").split("数据更新时间：")[1].split("<")[0]
    assert as_of("index.html") != before["index.html"].decode().split("数据更新时间：")[1].split("<")[0]
    assert as_of(f"branches/{unit}.html") == as_of("index.html")
    kept = [n for n in before if n not in changed and "数据更新时间" in before[n].decode()]
    assert {"standings.html", "events/guandan.html"} <= set(kept)
    assert {as_of(n) for n in kept} != {as_of("index.html")}
    assert not report.unchanged


def test_data_csv_lines_of_kept_events_come_from_the_cache_and_equal_fresh_ones(league, monkeypatch):
    """run.write_data: a kept event's draw/standings lines are taken from ``csv:<memo_key>``;
    a new result sheet makes that event's lines again, and the files equal those written
    with nothing cached."""
    from pipeline.store import Ledger

    folder, held, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    made: list[str] = []
    real = run_mod._event_csv_lines
    monkeypatch.setattr(run_mod, "_event_csv_lines", lambda ev, by_id: (made.append(ev.spec.id), real(ev, by_id))[1])
    _drop(folder, "说明.txt")
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert made == []                       # every event kept: every line from the cache
    shutil.move(held, folder / "inbox" / held.name)
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert made == ["guandan"]              # only the event with the new sheet
    cached = _csvs(out)
    with Ledger(out / "t2016-poker") as ledger:
        ledger.cache_prune("csv:", set())   # nothing kept: every line made again
        assert not [k for (k,) in ledger.conn.execute("SELECT key FROM cache WHERE key LIKE 'csv:%'")]
    (out / "t2016-poker" / "data" / "draw.csv").unlink()
    _drop(folder, "另一个说明.txt")
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert len(made) > 1
    fresh = _csvs(out)
    assert {k: v for k, v in fresh.items() if k != "issues.csv"} == {k: v for k, v in cached.items() if k != "issues.csv"}
    with Ledger(out / "t2016-poker") as ledger:   # one entry per event, the stale ones pruned
        keys = [k for (k,) in ledger.conn.execute("SELECT key FROM cache WHERE key LIKE 'csv:%'")]
    assert len(keys) == len(made) - 1


def test_an_events_key_leaves_out_contact_details_only():
    """run._drawn_digest: a phone number, pick-up point, note or sheet row does not change the
    key; any other field of an entry or a player does (a new field too, by default)."""
    import dataclasses

    from pipeline.model import Entry, Person

    p = Person(name="张三", branch="b1", staff_id="001", gender="男", phone="13900000000", pickup="东门",
               note="", display_name="张 三", row=5)
    e = Entry(id="xq:b1:001", event="xq", branch="b1", team="甲队", players=(p,), team_no="1")
    base = run_mod._drawn_digest([e])
    for change in (dict(phone="13900000001"), dict(pickup="西门"), dict(note="素食"), dict(row=9)):
        q = dataclasses.replace(p, **change)
        assert run_mod._drawn_digest([dataclasses.replace(e, players=(q,))]) == base, change
    for change in (dict(name="李四"), dict(display_name="张三"), dict(staff_id="002"), dict(gender="女"),
                   dict(branch="b2")):
        q = dataclasses.replace(p, **change)
        assert run_mod._drawn_digest([dataclasses.replace(e, players=(q,))]) != base, change
    for change in (dict(team="乙队"), dict(team_no="2"), dict(branch="b2"), dict(id="xq:b1:002")):
        assert run_mod._drawn_digest([dataclasses.replace(e, **change)]) != base, change
    assert set(run_mod._PERSON_DRAWN) | run_mod._NOT_DRAWN == {f.name for f in dataclasses.fields(Person)}


def test_an_events_key_depends_on_values_not_on_which_objects_hold_them():
    """run._drawn_digest marshals without references: equal texts held by different string
    objects (as readings unpickled on another night hold them) give the same key; a field
    marshal cannot write still gives a key, and a different one."""
    from pipeline.model import Entry, Person

    def entry(name: str) -> Entry:
        p = Person(name=name, branch="b1", staff_id="001", display_name=name)
        return Entry(id="xq:b1:001", event="xq", branch="b1", team=name, players=(p, p))

    shared = "张三"
    a = run_mod._drawn_digest([entry(shared)])
    b = run_mod._drawn_digest([entry("".join(["张", "三"]))])
    assert a == b

    class Odd(str):
        pass
    odd = run_mod._drawn_digest([entry(Odd("张三"))])
    assert isinstance(odd, str) and len(odd) == 64
    assert run_mod._drawn_digest([entry("李四")]) != a


def test_kept_results_are_read_only_when_an_events_pages_are_made_again(league):
    """state.KeptResults: a night that changes nothing about an event does not unpickle its
    results; a page made again (deleted by hand) reads them, and comes out the same."""
    import pickle

    from pipeline.state import KeptResults

    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    site = out / "t2016-poker"
    pages = {p: p.read_bytes() for p in site.rglob("*.html")}
    _drop(folder, "说明.txt")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    kept = {k: es.results for k, es in report.state.events.items()}
    assert kept and all(isinstance(r, KeptResults) and not r.loaded for r in kept.values())
    event_page = site / "events" / "guandan.html"
    event_page.unlink()
    _drop(folder, "另一个说明.txt")
    report = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert report.state.events["guandan"].results.loaded
    assert event_page.read_bytes() == pages[event_page]
    r = report.state.events["guandan"].results
    assert len(r) > 0 and pickle.loads(pickle.dumps(r)) == dict(r.items()) == r


def test_kept_results_behave_as_the_dict_they_stand_for():
    import pickle

    from pipeline.state import KeptResults

    d = {("r1", 1): "a", ("r1", 2): "b"}
    k = KeptResults(pickle.dumps(d), list(d))
    assert ("r1", 1) in k and ("x",) not in k and len(k) == 2 and list(k) == list(d)
    assert not k.loaded                     # which matches have a result: from the keys
    assert k[("r1", 2)] == "b" and k.get(("x",)) is None
    assert k.loaded and list(k) == list(d) and k == d and dict(k) == d
    assert type(pickle.loads(pickle.dumps(k))) is dict
    k = KeptResults(pickle.dumps(d))        # without its keys: read on first question
    assert len(k) == 2 and k.loaded


def test_a_night_with_one_new_workbook_writes_it_without_importing_openpyxl_or_the_receipts_here(league, tmp_path):
    """run.render_all: a couple of returned copies go to a worker, which imports the
    workbook writers; the run's own process renders pages and never imports openpyxl (a
    seventh of a second of such a night)."""
    import subprocess
    import sys

    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    _resend_with_new_bytes(folder)
    code = ("import sys; from pathlib import Path; from pipeline.run import RunOptions, run; "
            f"r = run(RunOptions(folder=Path({str(folder)!r}), out_parent=Path({str(out)!r}), pdf=False)); "
            "print(r.written, 'openpyxl' in sys.modules, 'pipeline.mail.receipts' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    written, imported, receipts = done.stdout.split()
    assert int(written) > 0 and imported == "False", done.stdout
    # nor the receipts' module (and ssl with it) on a night that sends none and has no
    # OWN_MAIL to word: run.own_mail_after_deadline imported it every night, ~90 M
    # instructions, a seventh of a one-changed night's run process
    assert receipts == "False", done.stdout
    copies = sorted((out / "t2016-poker" / "returned").glob("*再次发送-*-返回.xlsx"))
    assert copies and copies[0].stat().st_size > 0


def _resend_with_new_bytes(folder: Path) -> Path:
    """The first registration mail's workbook again, as a file a minute later (other bytes)."""
    import email
    import io
    from email.utils import parsedate_to_datetime

    import openpyxl

    reg = sorted((folder / "inbox").glob("*-报名表.eml"))[0]
    msg = email.message_from_bytes(reg.read_bytes())
    part = next(p for p in msg.walk() if p.get_filename())
    wb = openpyxl.load_workbook(io.BytesIO(part.get_payload(decode=True)))
    wb.properties.keywords = "再次发送"
    target = folder / "inbox" / ("再次发送-" + part.get_filename())
    wb.save(target)
    when = parsedate_to_datetime(msg["Date"]).timestamp() + 60
    os.utime(target, (when, when))
    return target


def _copies_equal_those_made_with_the_rest(folder: Path, out: Path, twin: Path, monkeypatch) -> None:
    """The returned copies in ``out`` equal those a run into ``twin`` (a copy of the output
    before the night) makes with its other outputs, none of them early."""
    monkeypatch.setattr(run_mod, "EARLY_COPIES_BELOW", 0)
    run(RunOptions(folder=folder, out_parent=twin, pdf=False))
    a = {p.name: p.read_bytes() for p in (out / "t2016-poker" / "returned").iterdir()}
    b = {p.name: p.read_bytes() for p in (twin / "t2016-poker" / "returned").iterdir()}
    assert a == b


def test_a_few_new_copies_start_before_the_events_and_are_made_once(league, tmp_path, monkeypatch):
    """run.start_returned_copies: a night with a new registration starts its returned
    copies right after validation; render_all takes them, so each is made once, and the
    copies equal those of a run that makes them with the other outputs."""
    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    log = tmp_path / "copies.log"
    real = run_mod._write_returned_copy

    def logged(stored, issues, target, **kw):     # runs in a forked worker: log to a file
        with open(log, "a", encoding="utf-8") as f:
            f.write(target.name + "\n")
        return real(stored, issues, target, **kw)
    monkeypatch.setattr(run_mod, "_write_returned_copy", logged)
    twin = tmp_path / "twin"
    shutil.copytree(out, twin)
    _resend_with_new_bytes(folder)
    early_calls = []
    real_start = run_mod.start_returned_copies
    monkeypatch.setattr(run_mod, "start_returned_copies",
                        lambda *a: (lambda r: (early_calls.append(sorted(r[1])), r)[1])(real_start(*a)))
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    made = log.read_text(encoding="utf-8").split()
    assert early_calls and early_calls[0] and sorted(made) == early_calls[0]    # all early, each once
    assert len(made) == len(set(made)) == 2          # the new workbook's and the superseded one's
    _copies_equal_those_made_with_the_rest(folder, out, twin, monkeypatch)


def test_an_early_copy_whose_issues_changed_is_made_again(league, tmp_path, monkeypatch):
    """render_all makes a copy itself when its key is no longer the one planned early
    (here: the early plan sees a made-up warning on every file, which the run never has)."""
    from pipeline.issues import Issue
    from pipeline.model import Severity

    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    twin = tmp_path / "twin"
    shutil.copytree(out, twin)
    new = _resend_with_new_bytes(folder)
    real_start = run_mod.start_returned_copies
    planned = []

    def wrong(out_, subs, issues, ledger, *rest):
        made_up = [Issue("SUPERSEDED", Severity.WARNING, "并无此事", branch=s.branch, file=s.file) for s in subs]
        r = real_start(out_, subs, issues + made_up, ledger, *rest)
        planned.extend(r[1])
        return r
    monkeypatch.setattr(run_mod, "start_returned_copies", wrong)
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert any(new.stem in name for name in planned)
    monkeypatch.setattr(run_mod, "start_returned_copies", real_start)
    _copies_equal_those_made_with_the_rest(folder, out, twin, monkeypatch)


def test_a_prestarted_worker_makes_the_early_copies(league, tmp_path, monkeypatch):
    """quick.main forks a worker before the run (parallel.prestart); a night with a new
    registration has it make the returned copies (by name: the run's process never imports
    the writer), two side by side (parallel.fork_map) when a core is left beside the run's
    and the worker's, and they equal the copies made with the other outputs."""
    from pipeline import parallel
    from pipeline.xlsx import returned

    monkeypatch.setenv("LEAGUE_WORKERS", "3")
    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    twin = tmp_path / "twin"
    shutil.copytree(out, twin)
    log = tmp_path / "copies.log"
    real = returned.write_returned_copy

    def logged(stored, issues, target, **kw):     # the worker is forked from this process: it has this
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {target.name}\n")
        return real(stored, issues, target, **kw)
    monkeypatch.setattr(returned, "write_returned_copy", logged)
    _resend_with_new_bytes(folder)
    assert parallel.prestart("pipeline.xlsx.returned")
    worker = {parallel._PRESTARTED[0].pid}
    try:
        run(RunOptions(folder=folder, out_parent=out, pdf=False))
        assert parallel.take_prestarted() is None        # the run took it
    finally:
        parallel.discard_prestarted()
    made = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    pids = {int(pid) for pid, _ in made}
    # side by side: one on the worker, one on a fork of it; none in the run's process
    assert len(made) == 2 and worker < pids and len(pids) == 2 and os.getpid() not in pids
    monkeypatch.setattr(returned, "write_returned_copy", real)
    _copies_equal_those_made_with_the_rest(folder, out, twin, monkeypatch)


def test_a_page_is_named_in_the_memo_relative_to_its_root(tmp_path):
    """PageMemo keys a page by its path under the output folder (with /), as the memo of
    earlier runs recorded it with Path.relative_to; a path elsewhere keeps its whole name."""
    from pipeline.render.memo import PageMemo

    memo = PageMemo(root=tmp_path)
    page = tmp_path / "branches" / "b1.html"
    assert memo._name(page) == page.relative_to(tmp_path).as_posix() == "branches/b1.html"
    assert memo._name(str(tmp_path / "index.html")) == "index.html"
    assert PageMemo(root=str(tmp_path) + "/")._name(page) == "branches/b1.html"
    assert memo._name(Path("/elsewhere/x.html")) == "/elsewhere/x.html"
    page.parent.mkdir()
    page.write_text("x", encoding="utf-8")
    assert not memo.fresh_inputs(page, "site/branch.html", ("a",))          # no earlier key
    again = PageMemo(dict(memo.now), root=tmp_path)
    assert again.fresh_inputs(page, "site/branch.html", ("a",)) and not again.fresh_inputs(page, "site/branch.html", ("b",))


def test_an_edited_tournament_yaml_makes_the_notice_again(league):
    """The notice is keyed on the events' memo keys (which hold tournament.yaml's digest): an
    edit of the spec — the tournament's name here — is printed."""
    folder, _, out = league
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    notice = out / "t2016-poker" / "notice.html"
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    name = next(line for line in text.splitlines() if line.startswith("name:"))
    spec.write_text(text.replace(name, "name: 二〇一六年教职工掼蛋比赛（改）", 1), encoding="utf-8")
    assert "（改）" not in notice.read_text(encoding="utf-8")
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    assert "二〇一六年教职工掼蛋比赛（改）" in notice.read_text(encoding="utf-8")
