"""Regenerate ONE event's referee mails in a committed sample inbox — its result mails and
its 加赛 mails — with ``make_samples.py``'s own simulation, leaving every other inbox file
byte-identical.

``make_samples.py <league>`` rewrites the whole inbox (registrations, every event's
results), which other tests rely on; after a fix to how one game's results are simulated,
use this instead:

    python scripts/regen_event.py t2020-league doudizhu

Round by round, as a referee would: in a temporary copy of the league whose inbox lacks
the event's result and 加赛 mails, the pipeline runs (after every deadline, as
``make_samples`` runs it), and the result workbook it writes for the next round is
filled by ``make_samples.fill_result_book`` (seeded as ``make_samples`` seeds it: the
tournament id and the workbook's name) and mailed back with the sender and subject
``make_samples`` gives it.  Each round's draw depends on the results before it, so the
rounds are made one after another.  A 加赛 mail (``make_samples.playoff_mail``) is written
only for a tie the pipeline asks one for (``PLAYOFF_REQUIRED``) — not for a shared place
that decides nothing.  Once the event is complete its mails are dated as ``make_samples``
dates them (``make_samples.redate``: each round's results within the session its round is
placed in, each 加赛 right after the round it follows) and named by that date; then the
event's old mails in the sample's inbox are replaced by the new ones.
"""
from __future__ import annotations

import csv
import random
import re
import shutil
import sys
import tempfile
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import make_samples as M  # noqa: E402
from pipeline.run import RunOptions, run  # noqa: E402
from pipeline.spec import load_tournament  # noqa: E402


def playoffs_asked(issues_csv: Path) -> list[str]:
    """The messages of the run's PLAYOFF_REQUIRED issues."""
    with issues_csv.open(encoding="utf-8", newline="") as f:
        return [row["message"] for row in csv.DictReader(f) if row["code"] == "PLAYOFF_REQUIRED"]


def regen(name: str, event: str) -> None:
    folder = ROOT / "sample_sheets" / name
    ev_id = re.escape(event)
    ours = re.compile(rf"^(\d{{8}}-{ev_id}-r\d+-成绩表|\d{{4}}-{ev_id}-加赛-\d+)\.eml$")
    old = sorted(p.name for p in (folder / "inbox").iterdir() if ours.match(p.name))
    print("old:", *old)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / name
        shutil.copytree(folder, work)
        inbox = work / "inbox"
        for n in old:
            (inbox / n).unlink()
        t = load_tournament(work)
        if event not in {e.id for e in t.spec.events}:
            raise SystemExit(f"{name}: no event {event}")
        done: set[str] = set()
        answered: set = set()
        rng = random.Random(f"{t.spec.id}/{event}/加赛")
        for step in range(60):
            out = Path(tmp) / f"out{step}"
            state = run(RunOptions(folder=work, out_parent=out, pdf=False, now=M.LATER)).state
            ev = state.events[event]
            print(f"step {step}: {len(ev.rounds)} rounds drawn, {'complete' if ev.complete else ev.waiting}")
            results = out / t.spec.id / "results"
            new = [p for p in sorted(results.glob(f"{event}-r*.xlsx")) if p.name not in done]
            for p in new:
                data, _ev, rnd, ev_name = M.fill_result_book(t, p, random.Random(f"{t.spec.id}/{p.name}"))
                when = M.provisional_time(t, len(list(inbox.glob("*.eml"))))     # M.redate dates it
                M.mail(inbox / M.result_mail_name(when, p.stem), M.REFEREE, f"{ev_name} 第{rnd}轮成绩", when,
                       [(p.name, data)])
                done.add(p.name)
            if new:
                continue
            asked = playoffs_asked(out / t.spec.id / "data" / "issues.csv")
            if not (ev.ties or asked):
                break
            print("加赛 asked:", *asked, sep="\n  ")
            if not M.playoff_mail(t, inbox, types.SimpleNamespace(events={event: ev}), rng, answered):
                raise SystemExit(f"{name}/{event}: a 加赛 is asked but no tie is left to answer")
        else:
            raise SystemExit(f"{name}/{event}: still not done after 60 runs")
        if not ev.complete:
            raise SystemExit(f"{name}/{event} not complete: {ev.waiting}")
        M.redate(work, event)
        made = sorted(p.name for p in inbox.iterdir() if ours.match(p.name))
        print("new:", *made)
        for n in old:
            (folder / "inbox" / n).unlink()
        for n in made:
            shutil.copy2(inbox / n, folder / "inbox" / n)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    regen(sys.argv[1], sys.argv[2])
