"""R2020-Q4 under ``late_policy: accept-with-warning``: a form that comes after an event's
round 1 was drawn is taken (LATE_SUBMISSION), but a published draw is never redrawn — the
entry it adds is in no round.  It was then ranked (a Swiss drew it from round 2 on, a player
who missed round 1; every format placed it last, 第12名 优秀奖 at a finished 斗地主 without
a game: PLACES_CHANGED).  Now such an entry takes no part in that event: no pairing, no
place, no award, no certificate, and DRAW_INPUT_CHANGED says so.  The same form counts as
any other for an event not drawn yet (its own deadline)."""
from __future__ import annotations

import csv
import datetime as dt
import os
import random
import shutil
import sys
from pathlib import Path

from mailedit import B01_FORM, edit_attachment, league_2020, send_mail, t2015_forms
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOT_DRAWN = "不参加编排，也不计名次"


def _rows(out: Path, name: str) -> list[dict[str, str]]:
    with open(out / "data" / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _accept_late(folder: Path) -> None:
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "late_policy: reject" in text
    spec.write_text(text.replace("late_policy: reject", "late_policy: accept-with-warning"), encoding="utf-8")


def _play_out(folder: Path, out_parent: Path, now: dt.datetime, done: set[str]):
    """Run and mail the referees' filled sheets (and the 加赛 answers) until nothing is asked."""
    sys.path.insert(0, str(ROOT / "tests" / "newleague"))
    from batch import samples
    from pipeline.spec import load_tournament

    ms, t = samples(), load_tournament(folder)
    rng, answered, seen = random.Random(1), set(), []
    for _ in range(12):
        report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=now))
        seen += report.issues
        if (not ms.mail_new_results(t, out_parent / t.spec.id / "results", folder / "inbox", done, "late")
                and not ms.playoff_mail(t, folder / "inbox", report.state, rng, answered)):
            return report, seen
    raise AssertionError("the league did not settle")


def test_R2020_Q4_an_entry_sent_after_round_1_of_a_swiss_is_never_paired_nor_ranked(tmp_path):
    """t2015: 图书馆 (t09) sends its form on 11-02, after round 1 of 围棋 (Swiss), 象棋 and
    桥牌 was drawn (deadline 10-30) and before 双扣's deadline (11-14).  Its 围棋 player is
    not paired in rounds 2-5 (a Swiss would pair one who missed round 1), nor in the
    standings, awards or certificates; its 双扣 pair is drawn in 双扣's round 1 as any."""
    folder = t2015_forms(tmp_path)
    _accept_late(folder)
    mail = folder / "inbox" / "1027-t09-报名表.eml"
    kept = tmp_path / "kept.eml"
    shutil.move(mail, kept)
    out_parent = tmp_path / "out"
    out = out_parent / "t2015-tcm"
    first = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=dt.datetime(2015, 11, 1, 12, tzinfo=TZ)))
    assert [len(first.state.events[e].rounds) for e in ("go", "xiangqi", "bridge", "shuangkou")] == [1, 1, 1, 0]
    edit_attachment(kept, lambda wb: None, save_as=folder / "inbox" / "1102-t09-报名表.eml",
                    date="Mon, 02 Nov 2015 10:00:00 +0800")
    report, seen = _play_out(folder, out_parent, dt.datetime(2030, 1, 1, tzinfo=TZ), set())
    events = report.state.events
    assert all(es.complete for es in events.values()), {k: es.waiting for k, es in events.items()}
    late = {k: [e.id for e in es.entries if e.branch == "t09"] for k, es in events.items()}
    assert all(late.values()), late         # the form was taken: every entry is kept
    standings, awards = _rows(out, "standings.csv"), _rows(out, "awards.csv")
    certificates = (out / "certificates.html").read_text(encoding="utf-8")
    for ev_id in ("go", "xiangqi", "bridge"):
        es = events[ev_id]
        played = {s for r in es.rounds for m in r.matches for s in m.sides}
        assert not played & set(late[ev_id]), ev_id
        assert not {r["entry_id"] for r in standings if r["event"] == ev_id} & set(late[ev_id]), ev_id
        assert not {p.entry for p in es.placements} & set(late[ev_id]), ev_id
        assert not [r for r in awards if r["event"] == ev_id and r["branch"] == "t09"], ev_id
        # every entry of round 1 is placed, the late one only is not
        assert {p.entry for p in es.placements} == {s for m in es.rounds[0].matches for s in m.sides}, ev_id
        said = [i.message for i in seen if i.code == "DRAW_INPUT_CHANGED" and es.spec.name in i.message]
        assert said and all(NOT_DRAWN in m for m in said), said
        # rounds 2.. were drawn without it, and their digest is checked from the same entries
        assert not [m for m in said if "第1轮" not in m], said
    for e in late["go"] + late["xiangqi"]:
        name = next(x for x in events["go"].entries + events["xiangqi"].entries if x.id == e).team
        assert name not in certificates, name
    # the unit's page says it (t2015 prints in traditional script)
    assert "未參賽（第1輪抽籤後才報名）" in (out / "branches" / "t09.html").read_text(encoding="utf-8")
    # 双扣 was not drawn when the form came (its deadline 11-14): it counts as any form
    assert late["shuangkou"][0] in {s for m in events["shuangkou"].rounds[0].matches for s in m.sides}
    assert late["shuangkou"][0] in {r["entry_id"] for r in standings if r["event"] == "shuangkou"}
    assert not [i for i in seen if i.code == "DRAW_INPUT_CHANGED" and "双扣" in i.message]
    names = [e.team for k in ("go", "xiangqi", "bridge") for e in events[k].entries if e.id in late[k]]
    assert not [i for i in seen if i.code == "PLACES_CHANGED" and any(n in i.message for n in names)]


def test_R2020_Q4_a_form_after_the_events_finished_changes_no_place_or_award(tmp_path):
    """t2020 (knockouts with byes in round 1, 斗地主 at tables of three): b01 sends its form
    after every event finished.  Its entries are kept but placed nowhere; the standings and
    awards are as they were (it was 第N名 with an award, and PLACES_CHANGED)."""
    folder, form = league_2020(tmp_path)
    _accept_late(folder)
    (folder / "inbox" / "1104-b01-报名表.eml").unlink()
    for p in (folder / "inbox").glob("*-加赛-*.eml"):      # (the sample's, for its own draw)
        p.unlink()
    out_parent = tmp_path / "out"
    out = out_parent / "t2020-league"
    now = dt.datetime(2030, 1, 1, tzinfo=TZ)
    report, _ = _play_out(folder, out_parent, now, set())
    events = report.state.events
    assert all(es.complete for es in events.values()), {k: es.waiting for k, es in events.items()}
    # the referees' mails dated within their rounds' sessions, as in the samples (they were
    # written provisionally, right after the deadlines: the certificates' date, the last
    # session begun by the newest mail, was 11月9日 before the late form and 11月18日 after it)
    sys.path.insert(0, str(ROOT / "tests" / "newleague"))
    from batch import samples
    samples().redate(folder)
    shutil.rmtree(out_parent)
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=now))
    assert all(es.complete for es in report.state.events.values()) and not report.needs_attention
    events = report.state.events
    assert any(m.bye for es in events.values() for m in es.rounds[0].matches)      # a knockout's byes
    before = {name: (out / "data" / name).read_bytes() for name in ("standings.csv", "awards.csv")}
    certificates = (out / "certificates.html").read_text(encoding="utf-8")

    # (after the draws by this ledger's clock: it was made again on 2030-01-01, and a form
    # received before that is one whose entry became valid after the draw, as said otherwise)
    send_mail(folder, "1201-b01-报名表.eml", [(B01_FORM, form)], "Tue, 01 Jan 2030 10:00:00 +0800")
    at = dt.datetime(2030, 1, 1, 10, 5, tzinfo=TZ).timestamp()      # (saved then: its Date is no clock error)
    os.utime(folder / "inbox" / "1201-b01-报名表.eml", (at, at))
    late = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=now + dt.timedelta(days=1)))
    events = late.state.events
    added = {k: [e for e in es.entries if e.branch == "b01"] for k, es in events.items()}
    assert any(added.values()), added       # the form was taken
    assert {name: (out / "data" / name).read_bytes() for name in before} == before
    assert (out / "certificates.html").read_text(encoding="utf-8") == certificates
    assert not [i for i in late.issues if i.code == "PLACES_CHANGED"], \
        [i.message for i in late.issues if i.code == "PLACES_CHANGED"]
    for k, es in events.items():
        if not added[k]:
            continue
        assert not {p.entry for p in es.placements} & {e.id for e in added[k]}, k
        (said,) = [i.message for i in late.issues if i.code == "DRAW_INPUT_CHANGED" and es.spec.name in i.message]
        assert NOT_DRAWN in said and added[k][0].team in said, said
    assert "未参赛（第1轮抽签后才报名）" in (out / "branches" / "b01.html").read_text(encoding="utf-8")


def test_R2020_Q4_the_same_people_resent_with_their_staff_numbers_are_no_late_entry(tmp_path):
    """t2011 (``accept-with-warning``): d01's form had no 工号, so its players were drawn in
    round 1 as ``xiangqi:d01:<name>``; after the draw d01 resends the same people with their
    工号 filled in (new ids ``xiangqi:d01:<工号>``).  They are the drawn entries, not late
    ones: they play on in every later round with their round-1 results, are placed, and no
    DRAW_INPUT_CHANGED says 新增…不参加编排 or 已不在报名中 (the whole unit was excluded)."""
    folder = tmp_path / "t2011-court"
    shutil.copytree(ROOT / "sample_sheets" / "t2011-court", folder)
    _accept_late(folder)
    for p in (folder / "inbox").iterdir():
        if not p.name.endswith("报名表.eml"):
            p.unlink()
    src = folder / "inbox" / "0502-d01-报名表.eml"
    resend = tmp_path / "0508-d01-补工号.eml"
    edit_attachment(src, lambda wb: None, save_as=resend, date="Sun, 08 May 2011 12:00:00 +0800")

    def blank(wb):
        ws = wb["报名表"]
        for r in range(8, 20):
            if ws.cell(r, 3).value:
                ws.cell(r, 4).value = None
    edit_attachment(src, blank)
    out_parent = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=dt.datetime(2011, 5, 7, 12, tzinfo=TZ)))
    drawn = {k: {s for m in es.rounds[0].matches for s in m.sides if ":d01:" in s}
             for k, es in first.state.events.items() if es.rounds}
    assert drawn and any(drawn.values()), drawn
    assert all(not any(ch.isdigit() for ch in s.split(":")[-1]) for ids in drawn.values() for s in ids), drawn
    shutil.copy(resend, folder / "inbox" / resend.name)
    report, seen = _play_out(folder, out_parent, dt.datetime(2030, 1, 1, tzinfo=TZ), set())
    events = report.state.events
    assert not [i.message for i in seen if i.code == "DRAW_INPUT_CHANGED"
                and (NOT_DRAWN in i.message or "已不在报名中" in i.message)]
    assert all(es.complete for es in events.values()), {k: es.waiting for k, es in events.items()}
    for k, ids in drawn.items():
        es = events[k]
        assert not es.late, (k, es.late)
        assert ids <= {p.entry for p in es.placements}, k       # placed, under the drawn ids
        if len(es.rounds) > 1:
            later = {s for r in es.rounds[1:] for m in r.matches for s in m.sides}
            scored = {s for m in es.rounds[0].matches for s in m.sides if s in ids and m.key in es.results}
            assert scored == ids, k      # the round-1 results stay attached
            # (in a knockout only the winners go on: the drawn ids, never the 工号 ones)
            assert not {s for s in later if ":d01:" in s and s not in ids}, k
    said = [i.message for i in seen if i.code == "DRAW_INPUT_CHANGED"]
    assert said and all("补填工号" in m and "同一参赛者" in m for m in said), said
    # the unit's page lists its entries under their 工号 ids: each shows its drawn entry's place
    from pipeline.render.site_vm import final_places
    places = final_places(report.state)
    for k, ids in drawn.items():
        same = events[k].same_as
        assert set(same.values()) == ids and all(i.split(":")[-1].isdigit() for i in same), same
        assert all(places[i].startswith(("第", "A组", "B组", "C组", "D组")) and places[i] == places[same[i]]
                   for i in same), places
    page = (out_parent / "t2011-court" / "branches" / "d01.html").read_text(encoding="utf-8")
    assert "第1轮抽签后才报名" not in page and places[next(iter(events["xiangqi"].same_as))] in page


def test_R2020_Q4_an_on_time_row_valid_only_after_the_draw_is_not_said_sent_after_it(tmp_path):
    """An audit: t2015 with ``one_event_per_person`` on; 基础医学院 (t01) enters 姚佳洋 in 围棋
    and 双扣 on its form of 10-27 (MULTI_EVENT on both rows: neither entered).  围棋 is drawn
    on 11-01; the office then cancels 双扣 (handbook, TOO_FEW_ENTRIES: delete the event), and
    姚佳洋's 围棋 row is valid.  The published draw stands and he does not play — but he was
    said "第1轮抽签后才报名" (DRAW_INPUT_CHANGED, the unit's page) though his form came three
    days before the deadline: it says his entry became valid after the draw, and that his
    form came before it."""
    from pipeline.render.site_vm import final_places

    folder = t2015_forms(tmp_path)
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "one_event_per_person: false" in text
    spec.write_text(text.replace("one_event_per_person: false", "one_event_per_person: true"), encoding="utf-8")

    def twice(wb):
        ws = wb["报名表"]
        assert (ws["B10"].value, ws["D10"].value, ws["B16"].value) == ("围棋", "姚佳洋", "双扣")
        ws["D16"].value, ws["E16"].value = "姚佳洋", "001036"
    edit_attachment(folder / "inbox" / "1027-t01-报名表.eml", twice)
    out_parent = tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=dt.datetime(2015, 11, 1, 12, tzinfo=TZ)))
    assert sorted(i.cell for i in first.issues if i.code == "MULTI_EVENT") == ["B10", "B16"]
    drawn = first.state.events["go"].rounds
    assert len(drawn) == 1
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text[:text.index("  - id: shuangkou")], encoding="utf-8")    # 双扣 cancelled
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False,
                            now=dt.datetime(2015, 11, 1, 13, tzinfo=TZ)))
    es = report.state.events["go"]
    (yao,) = [e for e in es.entries if e.players[0].name == "姚佳洋"]
    assert es.rounds == drawn and yao.id in es.late      # never redrawn, he does not play
    (said,) = [i.message for i in report.issues if i.code == "DRAW_INPUT_CHANGED" and "围棋" in i.message]
    assert "姚佳洋" in said and NOT_DRAWN in said, said
    assert "抽签后才报名" not in said and "第1轮抽签后才成为有效报名" in said, said
    assert "报名表在抽签前已收到" in said, said
    assert final_places(report.state)[yao.id] == "未参赛（第1轮抽签后才成为有效报名）"
