"""The office withdraws a player who stopped coming (tournament.yaml ``withdrawn``): from the
next draw on the player is not paired and gets no bye; the results so far stand and the
player keeps a place in the standings.  A name that fits no entry is said, not ignored."""
from __future__ import annotations

import csv
import datetime as dt
import re
import shutil
import sys
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.spec import load_tournament
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_sheets" / "t2015-tcm"
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _go_sheet(k: int) -> Path:
    return next(SAMPLE.glob(f"inbox/*-go-r{k}-成绩表.eml"))


def _league(tmp_path: Path, keep_rounds: int) -> Path:
    """t2015's 围棋 Swiss with its referees' sheets of rounds 1..keep_rounds only."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(SAMPLE, folder)
    for p in (folder / "inbox").glob("*-go-r*-成绩表.eml"):
        if int(p.name.split("-go-r")[1].split("-")[0]) > keep_rounds:
            p.unlink()
    return folder


def _withdraw(folder: Path, names: list[str]) -> None:
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "  - id: go\n    name: 围棋\n" in text
    text = text.replace("  - id: go\n    name: 围棋\n", "  - id: go\n    name: 围棋\n"
                        f"    withdrawn: [{', '.join(names)}]\n", 1)
    spec.write_text(text, encoding="utf-8")


def _rows(out: Path, name: str) -> list[dict[str, str]]:
    with open(out / "data" / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_a_withdrawn_player_is_not_paired_from_the_next_round(tmp_path):
    folder, out_parent = _league(tmp_path, keep_rounds=1), tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = first.state.events["go"]
    assert len(go.rounds) == 2                 # round 2 drawn from round 1's results
    # a player of round 2, who plays it and then stops coming: withdrawn before round 3
    gone = next(m for m in go.rounds[1].matches if not m.bye).sides[0]
    entry = next(e for e in go.entries if e.id == gone)
    _withdraw(folder, [entry.players[0].name, "查无此人"])
    shutil.copy(_go_sheet(2), folder / "inbox")
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = report.state.events["go"]
    assert len(go.rounds) == 3
    r3 = go.rounds[2]
    assert gone not in {s for m in r3.matches for s in m.sides}
    assert any("已退赛，不再编排" in n and entry.players[0].name in n for n in r3.notes), r3.notes
    out = out_parent / "t2015-tcm"
    # the results so far stand: still in the standings, with round 2's result
    assert any(r["event"] == "go" and r["entry_id"] == gone for r in _rows(out, "standings.csv"))
    assert next(m for m in go.rounds[1].matches if gone in m.sides).key in go.results
    html = (out / "standings.html").read_text(encoding="utf-8")
    assert "已退賽" in html          # (t2015 prints in traditional script)
    # … and so do the event page's standings (only a round's note said it)
    assert "已退賽" in _standings_tables((out / "events" / "go.html").read_text(encoding="utf-8"))
    unmatched = [i for i in _rows(out, "issues.csv") if i["code"] == "WITHDRAWAL_UNMATCHED"]
    assert len(unmatched) == 1 and "查无此人" in unmatched[0]["message"]
    assert report.needs_attention and any("withdrawn" in s for s in report.next_steps)
    # rounds 1 and 2 were drawn before the withdrawal: nothing to say about them
    assert not [i for i in _rows(out, "issues.csv") if i["code"] == "DRAW_INPUT_CHANGED"]


def test_withdrawn_before_the_first_draw_and_taken_back(tmp_path):
    """Withdrawn before round 1 (its staff number written without quotes, which YAML reads
    as an octal number): never drawn, and no place or award; taken off the list after
    round 1, the player is new to the draw, and that is said (DRAW_INPUT_CHANGED)."""
    folder, out_parent = _league(tmp_path, keep_rounds=0), tmp_path / "out"
    spec = (folder / "tournament.yaml").read_text(encoding="utf-8")
    probe = run(RunOptions(folder=folder, out_parent=tmp_path / "probe", pdf=False, now=NOW))
    person = next(p for e in probe.state.events["go"].entries for p in e.players
                  if p.staff_id.startswith("00") and set(p.staff_id) <= set("01234567"))
    _withdraw(folder, [person.staff_id])          # unquoted: YAML reads 001537 as 863
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    out = out_parent / "t2015-tcm"
    go = report.state.events["go"]
    gone = next(e.id for e in go.entries if person in e.players)
    assert gone not in {s for r in go.rounds for m in r.matches for s in m.sides}
    assert gone not in {r["entry_id"] for r in _rows(out, "standings.csv")}
    assert not [i for i in _rows(out, "issues.csv") if i["code"] == "WITHDRAWAL_UNMATCHED"]
    # taken back: new to the published round 1, and said
    (folder / "tournament.yaml").write_text(spec, encoding="utf-8")
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    changed = [i for i in _rows(out, "issues.csv") if i["code"] == "DRAW_INPUT_CHANGED" and "围棋" in i["message"]]
    assert changed and "新增" in changed[0]["message"], changed


def test_a_player_withdrawn_before_round_1_leaves_later_rounds_unflagged(tmp_path):
    """Rounds 2 and later are drawn, and their digest printed, without the entry withdrawn
    before round 1: the digest checked each night is made from the same entries (it was made
    from every entry, and every later round was DRAW_INPUT_CHANGED for nothing)."""
    sys.path.insert(0, str(ROOT / "tests" / "newleague"))
    from batch import samples

    folder, out_parent = _league(tmp_path, keep_rounds=0), tmp_path / "out"
    _withdraw(folder, ['"001537"'])             # quoted, as the handbook says
    ms, t, done, seen = samples(), load_tournament(folder), set(), []
    for _ in range(6):
        report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
        seen += report.issues
        if not ms.mail_new_results(t, out_parent / "t2015-tcm" / "results", folder / "inbox", done, "w"):
            break
    go = report.state.events["go"]
    assert len(go.rounds) >= 3
    assert not [i for i in seen if i.code == "WITHDRAWAL_UNMATCHED"]
    gone = next(e.id for e in go.entries if any(p.staff_id == "001537" for p in e.players))
    assert gone not in {s for r in go.rounds for m in r.matches for s in m.sides}
    assert not [i for i in seen if i.code == "DRAW_INPUT_CHANGED" and "围棋" in i.message]


def test_a_staff_number_quoted_without_its_zeros_or_in_full_width_quotes_withdraws(tmp_path):
    """``withdrawn: ["1537"]`` for 001537 (the leading zeros left out, as the handbook's
    quotes keep them) and ``＂001537＂`` (full-width quotes, the Chinese input method) were
    "不是本项目的参赛者" — while 1537 unquoted matched."""
    folder = _league(tmp_path, keep_rounds=0)
    spec = (folder / "tournament.yaml").read_text(encoding="utf-8")
    probe = run(RunOptions(folder=folder, out_parent=tmp_path / "probe", pdf=False, now=NOW))
    person = next(p for e in probe.state.events["go"].entries for p in e.players if p.staff_id.startswith("00"))
    for k, written in enumerate([f'"{person.staff_id.lstrip("0")}"', f"＂{person.staff_id}＂"]):
        (folder / "tournament.yaml").write_text(spec, encoding="utf-8")
        _withdraw(folder, [written])
        report = run(RunOptions(folder=folder, out_parent=tmp_path / f"out{k}", pdf=False, now=NOW))
        go = report.state.events["go"]
        gone = next(e.id for e in go.entries if person in e.players)
        assert gone not in {s for r in go.rounds for m in r.matches for s in m.sides}, written
        assert "WITHDRAWAL_UNMATCHED" not in {i.code for i in report.issues}, written


def test_the_standings_count_a_withdrawn_players_later_rounds_as_unplayed(tmp_path, monkeypatch):
    """FIDE C.07 Art. 14.3 (the tiebreak rules' "as in FIDE's"): the rounds after a player was
    withdrawn are the player's voluntary unplayed rounds, counted as draws in the opponents'
    Buchholz — the runner gives the standings and the formats' ranking the withdrawn entries
    (score.table.ScoreTable ``withdrawn``)."""
    from pipeline.score import standings as standings_mod

    seen: list[frozenset] = []
    real = standings_mod.ScoreTable

    class Recording(real):
        def __init__(self, *a, withdrawn=(), **k):
            seen.append(frozenset(withdrawn))
            super().__init__(*a, withdrawn=withdrawn, **k)

    monkeypatch.setattr(standings_mod, "ScoreTable", Recording)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")         # the events run here, where it is recorded
    folder, out_parent = _league(tmp_path, keep_rounds=1), tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = first.state.events["go"]
    gone = next(m for m in go.rounds[1].matches if not m.bye).sides[0]
    entry = next(e for e in go.entries if e.id == gone)
    _withdraw(folder, [entry.players[0].name])
    shutil.copy(_go_sheet(2), folder / "inbox")
    seen.clear()
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    assert frozenset({gone}) in seen


def test_the_standings_value_a_draw_as_the_event_does(tmp_path, monkeypatch):
    """A voluntary unplayed round counts as a draw in the opponents' tiebreaks — the event's
    draw, not one guessed from the results in: 双升's draw is 2, and the guess gave 1 once an
    equal-level 2:1 win was in the table and 2 before it (Sonneborn-Berger moved with it)."""
    from pipeline.score import standings as standings_mod

    seen: dict[str, set] = {}
    real = standings_mod.ScoreTable

    class Recording(real):
        def __init__(self, rounds, *a, draw_points=None, **k):
            for r in rounds:
                seen.setdefault(r.event, set()).add(draw_points)
            super().__init__(rounds, *a, draw_points=draw_points, **k)

    monkeypatch.setattr(standings_mod, "ScoreTable", Recording)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False))
    assert seen["shuangsheng"] == {2} and seen["xiangqi"] == {1}, seen


def _bridge_league(tmp_path: Path, keep_rounds: int) -> Path:
    """t2015's 桥牌 round robin (pairs movement) with its referees' sheets of rounds 1..keep_rounds only."""
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(SAMPLE, folder)
    for p in (folder / "inbox").glob("*-bridge-*"):
        if "-bridge-r" not in p.name or int(p.name.split("-bridge-r")[1].split("-")[0]) > keep_rounds:
            p.unlink()
    return folder


def _withdraw_pair(folder: Path, team: str) -> None:
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    line = "    format: {type: pairs_movement, boards_per_round: 3}\n"
    assert line in text
    spec.write_text(text.replace(line, f"{line}    withdrawn: [{team}]\n", 1), encoding="utf-8")


def _standings_tables(html: str) -> str:
    """The standings tables of an event page (not its rounds, whose notes may name a withdrawal)."""
    import re

    return "".join(re.findall(r'<table class="standings">.*?</table>', html, re.S))


def test_a_withdrawn_pairs_later_tables_tell_the_referee_to_enter_a_forfeit(tmp_path):
    """Handbook 缺席、弃权和退赛: a round robin's games are all scheduled, and a withdrawn entry's
    remaining games are entered by the referee as 弃权.  Its table on the draw sheet and on the
    result workbook says it withdrew and which 弃权 to choose (a blank table held the round for
    good); the event page's standings mark it 已退赛 as the 成绩册 does (traditional here:
    已退賽).  The marked workbook, filled and sent back, is read: its side names are the drawn ones."""
    import openpyxl

    from mailedit import send_mail, table_header

    folder, out_parent = _bridge_league(tmp_path, keep_rounds=1), tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    _withdraw_pair(folder, "药学院1队")
    for k in (2, 3):         # (round 3 is the pair's rest: round 4 has it at a table)
        shutil.copy(next(SAMPLE.glob(f"inbox/*-bridge-r{k}-成绩表.eml")), folder / "inbox")
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    bridge = report.state.events["bridge"]
    gone = next(e.id for e in bridge.entries if e.team == "药学院1队")
    assert bridge.withdrawn == {gone}
    rnd = bridge.rounds[-1]                      # drawn after the withdrawal: the pair still at a table
    assert rnd.round == 4
    m = next(m for m in rnd.matches if gone in m.sides and not m.bye)
    side = ("甲方", "乙方")[m.sides.index(gone)]
    out = out_parent / "t2015-tcm"

    sheet = (out / "draws" / f"bridge-r{rnd.round}.html").read_text(encoding="utf-8")
    sheet = re.sub(r'<span class="nm">([^<]*)</span>|<wbr[^>]*>', r"\1", sheet)     # (a name a span: the names filter)
    assert "藥學院1隊（已退賽）" in sheet and f"“{side}棄權”" in sheet
    # round 1, played before the withdrawal, is not marked
    assert "已退賽" not in (out / "draws" / "bridge-r1.html").read_text(encoding="utf-8")

    path = out / "results" / f"bridge-r{rnd.round}-成绩表.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["成绩"]
    hrow, col = table_header(ws)
    title = " ".join(str(ws.cell(r, 1).value or "") for r in range(1, hrow))
    assert "藥學院1隊" in title and "已退賽" in title and f"“{side}棄權”" in title
    rows = [r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["桌号"]).value == m.table]
    assert rows and all(ws.cell(r, col[side]).value == "藥學院1隊（已退賽）" for r in rows)

    page = (out / "events" / "bridge.html").read_text(encoding="utf-8")
    assert "已退賽" in _standings_tables(page)

    # the referee enters the forfeit and plays the other tables: the sheet is read back
    for r in range(hrow + 1, ws.max_row + 1):
        if ws.cell(r, col["牌号"]).value in (None, ""):
            continue
        if ws.cell(r, col["桌号"]).value == m.table:
            if r == rows[0]:
                ws.cell(r, col["弃权"]).value = f"{side}棄權"
        else:
            ws.cell(r, col["南北得分"]).value = 420 if r % 2 else -100
        for label in ("甲方签名", "乙方签名", "裁判签名"):
            ws.cell(r, col[label]).value = "已簽"
    import io
    buf = io.BytesIO()
    wb.save(buf)
    send_mail(folder, f"1121-bridge-r{rnd.round}-成绩表.eml", [(path.name, buf.getvalue())],
              "Sat, 21 Nov 2015 18:30:00 +0800", sender="referee@union.example.edu.cn")
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    issues = [i for i in _rows(out, "issues.csv") if i["file"] == path.name]
    assert not [i for i in issues if i["severity"] == "error"], issues
    bridge = report.state.events["bridge"]
    assert m.key in bridge.results and all(mm.bye or mm.key in bridge.results for mm in rnd.matches)


def test_a_published_rounds_result_sheet_is_written_again_with_the_withdrawal(tmp_path):
    """Handbook 缺席、弃权和退赛: a round's result workbook written before a withdrawal (round 2,
    drawn and sent out, not yet played) is written again the next night with the withdrawn
    player's table marked （已退赛） and the 弃权 to choose, as one written after it is.  A round
    whose results are in (round 1) is left as it was, and a night with nothing new writes
    neither again; the withdrawal taken back, the mark goes.  The copy the referee filled from
    the first sheet is still read."""
    import openpyxl

    from mailedit import table_header

    folder, out_parent = _league(tmp_path, keep_rounds=1), tmp_path / "out"
    first = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = first.state.events["go"]
    assert len(go.rounds) == 2
    out = out_parent / "t2015-tcm"
    r1, r2 = (out / "results" / f"go-r{k}-成绩表.xlsx" for k in (1, 2))

    def seen(p: Path) -> tuple[bytes, int]:
        return p.read_bytes(), p.stat().st_mtime_ns

    before = {p: seen(p) for p in (r1, r2)}
    assert "已退" not in str([c.value for row in openpyxl.load_workbook(r2)["成绩"].iter_rows() for c in row])
    m = next(m for m in go.rounds[1].matches if not m.bye)
    gone = m.sides[0]
    entry = next(e for e in go.entries if e.id == gone)
    _withdraw(folder, [entry.players[0].name])
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))

    ws = openpyxl.load_workbook(r2)["成绩"]
    hrow, col = table_header(ws)
    title = " ".join(str(ws.cell(r, 1).value or "") for r in range(1, hrow))
    assert "已退賽" in title and "“甲方棄權”" in title, title
    row = next(r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["桌号"]).value == m.table)
    assert str(ws.cell(row, col["甲方"]).value).endswith("（已退賽）")
    assert seen(r1) == before[r1]                   # round 1's results are in: left alone

    marked = seen(r2)
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    assert seen(r2) == marked and seen(r1) == before[r1]        # nothing new: neither written again

    # taken back before the round is played: written again without the mark, then with it
    spec = (folder / "tournament.yaml").read_text(encoding="utf-8")
    (folder / "tournament.yaml").write_text(spec.replace(f"    withdrawn: [{entry.players[0].name}]\n", "", 1),
                                            encoding="utf-8")
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    assert "已退" not in str([c.value for row in openpyxl.load_workbook(r2)["成绩"].iter_rows() for c in row])
    (folder / "tournament.yaml").write_text(spec, encoding="utf-8")
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    ws = openpyxl.load_workbook(r2)["成绩"]
    assert "已退賽" in " ".join(str(ws.cell(r, 1).value or "") for r in range(1, table_header(ws)[0]))
    marked = seen(r2)

    # the referee's copy of the sheet sent before the withdrawal is read as it always was
    shutil.copy(_go_sheet(2), folder / "inbox")
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = report.state.events["go"]
    assert len(go.rounds) == 3 and m.key in go.results
    assert not [i for i in _rows(out, "issues.csv") if i["severity"] == "error"]
    assert seen(r2) == marked            # its results are in now: kept as it was


def _bye_of_round_2(folder: Path, out_parent: Path):
    """The first night (rounds 1 and 2 drawn, round 1 played): round 2's bye and its holder's entry."""
    first = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = first.state.events["go"]
    assert len(go.rounds) == 2
    bye = next(m for m in go.rounds[1].matches if m.bye)
    return bye, next(e for e in go.entries if e.id == bye.sides[0])


def _points(out: Path, entry: str) -> tuple[int, int]:
    """(积分, 负) of ``entry`` in standings.csv's 围棋 table."""
    row = next(r for r in _rows(out, "standings.csv") if r["event"] == "go" and r["entry_id"] == entry and r["points"])
    return int(row["points"]), int(row["losses"])


def test_tiebreaks_fide_a_bye_withdrawn_from_before_its_round_is_played_is_not_scored(tmp_path):
    """Handbook 缺席、弃权和退赛 with the tiebreak rules' "byes and forfeits count as in FIDE's":
    the office withdraws round 2's bye holder before round 2 is played (its results not in) —
    the bye is not scored (a win's points before): the player sits out a round it no longer
    plays, as one seated at a table of that round is entered as 弃权.  It counts as an absence
    (负, no points; a voluntary unplayed round, FIDE C.07 Art. 14.3: a draw in the opponents'
    Buchholz), and stays so once round 2's results are in; the draw sheet and the event page
    say 轮空（已退赛，不计分）, and the standings do not count it among the byes (含轮空)."""
    from pipeline.model import Outcome
    from pipeline.score.table import ScoreTable

    folder, out_parent = _league(tmp_path, keep_rounds=1), tmp_path / "out"
    out = out_parent / "t2015-tcm"
    bye, entry = _bye_of_round_2(folder, out_parent)
    gone = entry.id
    after_round_1 = _points(out, gone)
    _withdraw(folder, [entry.players[0].name])
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    shutil.copy(_go_sheet(2), folder / "inbox")          # round 2 played: round 3 drawn
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = report.state.events["go"]
    assert len(go.rounds) == 3 and gone not in go.rounds[2].entries()
    res = go.results[bye.key]
    assert res.sides[0].outcome == Outcome.ABSENT and res.sides[0].points == 0
    assert _points(out, gone) == (after_round_1[0], after_round_1[1] + 1)
    table = ScoreTable(go.rounds, go.results, bye_points=2, draw_points=1, withdrawn=go.withdrawn)
    game = next(g for g in table.of(gone) if g.round == 2)
    assert game.voluntary_unplayed and table.adjusted[gone] == table.points[gone] + 1
    unscored = "輪空（已退賽，不計分）"            # (t2015 prints in traditional script)
    assert unscored in (out / "draws" / "go-r2.html").read_text(encoding="utf-8")
    page = (out / "events" / "go.html").read_text(encoding="utf-8")
    assert unscored in page
    assert "已退賽" not in (out / "draws" / "go-r1.html").read_text(encoding="utf-8")
    assert not [i for i in _rows(out, "issues.csv") if i["severity"] == "error"]
    # taken back once round 2 is played (round 3 drawn from it): the bye stays unscored, as
    # a 弃权 entered at a table stays — round 3's draw stands on what it was drawn from
    spec = (folder / "tournament.yaml").read_text(encoding="utf-8")
    (folder / "tournament.yaml").write_text(spec.replace(f"    withdrawn: [{entry.players[0].name}]\n", "", 1),
                                            encoding="utf-8")
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = report.state.events["go"]
    assert not go.withdrawn and go.results[bye.key].sides[0].outcome == Outcome.ABSENT
    assert _points(out, gone) == (after_round_1[0], after_round_1[1] + 1)
    assert not [i for i in _rows(out, "issues.csv") if i["code"] == "DRAW_INPUT_CHANGED"]


def test_tiebreaks_fide_a_bye_withdrawn_from_after_its_round_is_played_stays_scored(tmp_path):
    """Handbook 缺席、弃权和退赛 (已赛成绩保留): round 2's bye holder withdrawn once round 2's
    results are all in keeps the bye's points; withdrawn before and taken back before the round
    is played, the bye scores as drawn (the result sheet's mark goes likewise)."""
    from pipeline.model import Outcome

    folder, out_parent = _league(tmp_path, keep_rounds=1), tmp_path / "out"
    out = out_parent / "t2015-tcm"
    bye, entry = _bye_of_round_2(folder, out_parent)
    spec = (folder / "tournament.yaml").read_text(encoding="utf-8")
    _withdraw(folder, [entry.players[0].name])
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    (folder / "tournament.yaml").write_text(spec, encoding="utf-8")        # taken back
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    shutil.copy(_go_sheet(2), folder / "inbox")
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = report.state.events["go"]
    assert go.results[bye.key].sides[0].outcome == Outcome.BYE and entry.id in go.rounds[2].entries()

    folder, out_parent = _league(tmp_path / "after", keep_rounds=2), tmp_path / "after" / "out"
    out = out_parent / "t2015-tcm"
    first = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    assert len(first.state.events["go"].rounds) == 3
    before = _points(out, entry.id)
    _withdraw(folder, [entry.players[0].name])
    report = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    go = report.state.events["go"]
    res = go.results[bye.key]
    assert res.sides[0].outcome == Outcome.BYE and res.sides[0].points > 0 and entry.id in go.withdrawn
    assert _points(out, entry.id) == before
    assert before[0] == sum(r.sides[r.match.sides.index(entry.id)].points for r in go.results.values()
                            if entry.id in r.match.sides)           # (round 3 not played: rounds 1 and 2)
    assert "不計分" not in (out / "draws" / "go-r2.html").read_text(encoding="utf-8")


def test_tiebreaks_fide_an_unscored_withdrawn_bye_is_no_result_correction_when_the_points_change(tmp_path):
    """Handbook 缺席、弃权和退赛 with SCORING_CHANGED: round 2's bye holder withdrawn before
    round 2 is played (the bye unscored), round 3 drawn from it; the office then changes the
    event's points.  Round 3 was drawn from these very sheets under the old points, the bye
    unscored as it still is — SCORING_CHANGED alone, no DRAW_INPUT_CHANGED (the bye scored
    again when the rounds were read aside under the old points, a correction no one made)."""
    from pipeline.model import Outcome

    folder, out_parent = _league(tmp_path, keep_rounds=1), tmp_path / "out"
    out = out_parent / "t2015-tcm"
    bye, entry = _bye_of_round_2(folder, out_parent)
    _withdraw(folder, [entry.players[0].name])
    run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW))
    shutil.copy(_go_sheet(2), folder / "inbox")
    go = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW)).state.events["go"]
    assert len(go.rounds) == 3 and go.results[bye.key].sides[0].outcome == Outcome.ABSENT
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("    game: go\n", "    game: go\n    points: {win: 3, draw: 1, loss: 0, bye: 3}\n", 1),
                    encoding="utf-8")
    go = run(RunOptions(folder=folder, out_parent=out_parent, pdf=False, now=NOW)).state.events["go"]
    assert go.results[bye.key].sides[0].outcome == Outcome.ABSENT
    codes = [i["code"] for i in _rows(out, "issues.csv")]
    assert "SCORING_CHANGED" in codes and "DRAW_INPUT_CHANGED" not in codes
    assert not [i for i in _rows(out, "issues.csv") if i["severity"] == "error"]
