"""R2020-Q4: an event without a ``deadline`` in tournament.yaml (the office deleted the line by
hand; ``league new`` always writes one) stays open for registration — never drawn, nothing
frozen — until the office sets one, and every night says so (DEADLINE_MISSING, at its line of
tournament.yaml).  It was counted closed from the first run (run.deadline_passed returned True
for None): drawn and published the night two forms arrived, a third unit's form a week before
the other events' deadlines refused as "第1轮抽签后才报名" (DRAW_INPUT_CHANGED), while the form
said 报名截止：见通知 and the notice's 报名办法 left the event out."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from pipeline.run import RunOptions, deadline_passed, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = "    deadline: 2020-11-09T15:00:00+08:00\n"
OPEN = dt.datetime(2020, 11, 5, 12, 0, tzinfo=TZ)          # some forms in, before every deadline
CLOSED = dt.datetime(2020, 11, 9, 16, 0, tzinfo=TZ)        # after the other events' deadline


def _forms_only(tmp_path: Path) -> Path:
    """t2020 with only its registration mails, 象棋's ``deadline`` line deleted."""
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    for p in (folder / "inbox").iterdir():
        if "报名表" not in p.name:
            p.unlink()
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    first = text.index(DEADLINE)            # 象棋 is the first event
    spec.write_text(text[:first] + text[first + len(DEADLINE):], encoding="utf-8")
    return folder


def _run(folder: Path, out: Path, now: dt.datetime):
    return run(RunOptions(folder=folder, out_parent=out, now=now, pdf=False))


def test_R2020_Q4_deadline_passed_is_false_without_a_deadline() -> None:
    from pipeline.spec import EventSpec

    ev = EventSpec(id="go", name="围棋", game="go", format=None)
    assert not deadline_passed(ev, CLOSED)


def test_R2020_Q4_an_event_without_a_deadline_is_not_drawn_and_the_office_is_told(tmp_path: Path) -> None:
    folder, out = _forms_only(tmp_path), tmp_path / "out"
    report = _run(folder, out, CLOSED)
    xq = report.state.events["xiangqi"]
    assert not xq.rounds, "drawn without a deadline"
    assert report.state.events["checkers"].rounds          # the others close and draw as before
    assert "TOO_FEW_ENTRIES" not in [i.code for i in report.issues]
    (warn,) = [i for i in report.issues if i.code == "DEADLINE_MISSING"]
    assert warn.severity.value == "warning" and report.needs_attention
    assert warn.file == "tournament.yaml"
    line = folder.joinpath("tournament.yaml").read_text(encoding="utf-8").splitlines().index("  - id: xiangqi") + 1
    assert "项目“象棋”没有报名截止时间，暂不抽签" in warn.message, warn.message
    assert f"第 {line} 行" in warn.message and "deadline" in warn.message, warn.message
    status = next(s for s in report.events if s.startswith("象棋："))
    assert "截止时间" in status and "暂不抽签" in status, status
    assert any(s.startswith("象棋：") and "deadline" in s for s in report.next_steps), report.next_steps
    notice = (out / "t2020-league" / "notice.html").read_text(encoding="utf-8")
    assert "象棋：报名截止时间另行通知" in notice, notice[notice.find("报名办法"):][:600]
    # said again the next night (a state that stays until the office acts)
    again = _run(folder, out, CLOSED + dt.timedelta(days=1))
    assert [i.severity.value for i in again.issues if i.code == "DEADLINE_MISSING"] == ["warning"]
    assert not again.state.events["xiangqi"].rounds


def test_R2020_Q4_a_form_before_the_deadline_is_set_is_drawn_with_the_others(tmp_path: Path) -> None:
    """Two nights with forms, no draw; the office then writes the deadline back (passed): round 1
    is drawn from every form, none refused as sent after a draw."""
    folder, out = _forms_only(tmp_path), tmp_path / "out"
    later = sorted(p for p in (folder / "inbox").iterdir() if p.name.startswith("1106"))
    held = tmp_path / "held"
    held.mkdir()
    for p in later:
        shutil.move(p, held / p.name)
    first = _run(folder, out, OPEN)
    assert not first.state.events["xiangqi"].rounds
    for p in held.iterdir():
        shutil.move(p, folder / "inbox" / p.name)
    second = _run(folder, out, CLOSED)
    assert not second.state.events["xiangqi"].rounds
    assert "DRAW_INPUT_CHANGED" not in [i.code for i in second.issues]
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("    format: {type: knockout, final_pool: 3}\n",
                                 DEADLINE + "    format: {type: knockout, final_pool: 3}\n", 1), encoding="utf-8")
    third = _run(folder, out, CLOSED + dt.timedelta(hours=2))
    codes = [i.code for i in third.issues]
    assert "DEADLINE_MISSING" not in codes and "DRAW_INPUT_CHANGED" not in codes, codes
    xq = third.state.events["xiangqi"]
    assert xq.rounds
    drawn = {s for m in xq.rounds[0].matches for s in m.sides}
    assert len(drawn) == len(xq.entries) == 22, (len(drawn), len(xq.entries))
