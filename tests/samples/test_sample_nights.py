"""The sample leagues replayed night by night, as the office runs them (R2020-S1, R2020-Q4).

``tests/e2e/test_samples.py`` runs each sample inbox all at once, in 2030; here every sample
league is fed to ``league run`` mail by mail in the mails' ``Date`` order — a run just after
each mail arrives (a day's registration forms together), and one just after each deadline and
draw time — so the sample timelines must be possible ones:

* registration forms are dated before their deadlines (R2020-Q4; the late ones are in
  ``inbox-mistakes/``, not here);
* a result sheet is dated after its round was drawn — the round is in ``draw.csv`` of the run
  before the one that reads it: after the previous round's results, after any 加赛 the draw
  waits on, after the deadline or draw time — and no night says ROUND_NOT_DRAWN;
* a result sheet is dated within the session its round is placed in (R2020-S1: the round's
  session as the draw sheet prints it, :func:`pipeline.run.placed_sessions`);
* a 加赛 sheet is dated after the results of its event's last round drawn before it, within
  that round's session (played right after it; a draw waiting on it is made after it);
* a 签到表 is dated before its event's draw time (R2016-F2);
* no night finds an error or a late form, and the last one ends with every event complete and
  the same entries, draw, standings and awards as the all-at-once run.
"""
from __future__ import annotations

import csv
import datetime as dt
import email
import email.policy
import re
import shutil
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest

from pipeline.model import Severity
from pipeline.run import RunOptions, placed_sessions, run
from pipeline.spec import load_tournament
from pipeline.timeutil import TZ, aware

ROOT = Path(__file__).resolve().parents[2]
LEAGUES = ["t2020-league", "t2011-court", "t2015-tcm", "t2016-poker"]
AFTER = dt.timedelta(minutes=1)            # a run this long after the mail it reads
LATER = dt.datetime(2030, 1, 1, tzinfo=TZ)
RESULT = re.compile(r"^(?P<ev>[a-z0-9_]+)-r(?P<rnd>\d+)-成绩表\.xlsx$")
PLAYOFF = re.compile(r"-(?P<ev>[a-z0-9_]+)-加赛-\d+\.eml$")


@dataclass(frozen=True)
class Mail:
    path: Path
    when: dt.datetime
    kind: str                    # 报名表 / 成绩表 / 加赛 / 签到表 / 评奖 / other
    event: str = ""
    round: int = 0


def _mail(path: Path) -> Mail:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    when = parsedate_to_datetime(str(msg["Date"])).astimezone(TZ)
    names = [a.get_filename() or "" for a in msg.iter_attachments()]
    for n in names:
        m = RESULT.match(n)
        if m:
            return Mail(path, when, "成绩表", m["ev"], int(m["rnd"]))
    m = PLAYOFF.search(path.name)
    if m:
        return Mail(path, when, "加赛", m["ev"])
    kind = next((k for k in ("报名表", "签到表", "评奖") if any(k in n for n in names)), "other")
    return Mail(path, when, kind)


def _nights(t, mails: list[Mail]) -> list[tuple[dt.datetime, list[Mail]]]:
    """Run times and the mails each reads: a day's registration forms in one run at the end
    of that day's last one, every other mail in a run just after it, and a run just after
    each deadline and draw time (round 1 drawn there)."""
    times = {m.when + AFTER for m in mails if m.kind != "报名表"}
    days: dict[dt.date, dt.datetime] = {}
    for m in mails:
        if m.kind == "报名表":
            days[m.when.date()] = max(days.get(m.when.date(), m.when), m.when)
    times |= {w + AFTER for w in days.values()}
    times |= {aware(w) + AFTER for e in t.spec.events for w in (e.deadline, e.draw_at) if w}
    left = sorted(mails, key=lambda m: (m.when, m.path.name))
    out = []
    for now in sorted(times):
        fed = [m for m in left if m.when <= now]
        left = [m for m in left if m.when > now]
        out.append((now, fed))
    assert not left
    return out


def _csv(out: Path, name: str) -> list[dict[str, str]]:
    with (out / "data" / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _drawn(out: Path) -> set[tuple[str, int]]:
    if not (out / "data" / "draw.csv").is_file():
        return set()
    return {(r["event"], int(r["round"])) for r in _csv(out, "draw.csv")}


def _at(d: dt.date, t: dt.time) -> dt.datetime:
    return dt.datetime.combine(d, t, TZ)


@pytest.mark.parametrize("name", LEAGUES)
def test_sample_replays_night_by_night(name, tmp_path):
    src = ROOT / "sample_sheets" / name
    league = tmp_path / name
    league.mkdir()
    for f in ("tournament.yaml", "secret.key"):
        shutil.copy2(src / f, league / f)
    (league / "inbox").mkdir()
    t = load_tournament(league)
    mails = [_mail(p) for p in sorted((src / "inbox").glob("*.eml"))]
    wrong: list[str] = []
    deadline = {e.id: aware(e.deadline) for e in t.spec.events if e.deadline}
    draw_at = {e.id: aware(e.draw_at) for e in t.spec.events if e.draw_at}
    for m in mails:
        if m.kind == "报名表" and deadline and m.when >= min(deadline.values()):
            wrong.append(f"{m.path.name}: 报名表 dated {m.when:%m-%d %H:%M}, after the deadline")
        if m.kind == "签到表" and draw_at and m.when > min(draw_at.values()):
            wrong.append(f"{m.path.name}: 签到表 dated {m.when:%m-%d %H:%M}, after the draw time")
    out_parent = tmp_path / "out"
    out = out_parent / t.spec.id
    drawn: set[tuple[str, int]] = set()     # (event, round) in draw.csv after the last run
    scored: set[tuple[str, int]] = set()    # (event, round) whose result sheet the last runs read
    played_in: list[tuple[Mail, int]] = []  # (a mail, the round whose session it is dated in)
    report = state = None
    for now, fed in _nights(t, mails):
        for m in fed:
            shutil.copy2(m.path, league / "inbox" / m.path.name)
            if m.kind == "成绩表":
                played_in.append((m, m.round))
                if (m.event, m.round) not in drawn:
                    wrong.append(f"{m.path.name} (dated {m.when:%m-%d %H:%M}): {m.event} round {m.round} "
                                 "was not drawn by the run before it")
            if m.kind == "加赛":
                last = max((k for e, k in drawn if e == m.event), default=0)
                played_in.append((m, last))
                if (m.event, last) not in scored:
                    wrong.append(f"{m.path.name} (dated {m.when:%m-%d %H:%M}): before the results of {m.event} "
                                 f"round {last}, the last one drawn")
        report = run(RunOptions(folder=league, out_parent=out_parent, pdf=False, now=now))
        said = [i for i in report.issues if i.code == "ROUND_NOT_DRAWN"]
        wrong += [f"run at {now:%m-%d %H:%M}: ROUND_NOT_DRAWN {i.message}" for i in said]
        wrong += [f"run at {now:%m-%d %H:%M}: {i.code} {i.message}" for i in report.issues
                  if i.severity == Severity.ERROR or i.code == "LATE_SUBMISSION"]
        state = report.state or state
        drawn = _drawn(out)
        scored |= {(m.event, m.round) for m in fed if m.kind == "成绩表"}
    # each result sheet within the session its round is placed in, each 加赛 within the one of
    # the round it follows (R2020-S1)
    assert state is not None
    for m, k in played_in:
        es = state.events[m.event]
        s = placed_sessions(t, es.spec, es.rounds)[k - 1] if k else None
        if s is not None and not (_at(s.date, s.start) <= m.when <= _at(s.date, s.end)):
            wrong.append(f"{m.path.name}: dated {m.when:%m-%d %H:%M}, outside the session of {m.event} "
                         f"round {k}, {s.label()}")
    assert not wrong, "\n".join(wrong)
    # the last night: every event complete, as in the all-at-once run
    assert report is not None and all("已完成" in e for e in report.events), report.events
    once = tmp_path / "once"
    run(RunOptions(folder=src, out_parent=once, pdf=False, now=LATER))
    for csv_name in ("entries.csv", "draw.csv", "standings.csv", "awards.csv"):
        assert _csv(out, csv_name) == _csv(once / t.spec.id, csv_name), csv_name
