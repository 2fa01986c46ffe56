"""Generate a large synthetic league folder for benchmarks (issue "Benchmarks and speed").

N branches (default 200), 8 events over the games/formats the registries offer, one filled
registration workbook per branch in ``inbox/`` (file mtime three days before the deadline),
and optionally referees' result mails for the first K rounds (``--rounds K``): run the
pipeline, fill every new result workbook, mail it back, repeat — like
``scripts/make_samples.py``.  Quotas are fixed per branch so that 200 branches give about
5,000 entries.

    python bench/make_league.py /tmp/league200 --branches 200 [--rounds 2]
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from pipeline import layout as L  # noqa: E402
from pipeline.spec import load_tournament  # noqa: E402
from pipeline.timeutil import TZ  # noqa: E402
from pipeline.xlsx.registration import write_registration_template  # noqa: E402

import make_samples as MS  # noqa: E402  (People, header, mail, mail_new_results)

DEADLINE = dt.datetime(2024, 11, 1, 17, 0, tzinfo=TZ)
NOW = "2025-01-01T00:00:00+08:00"

#: (id, name, game, team_size, per_branch, format, tiebreaks, extra yaml)
EVENTS = [
    ("xiangqi", "象棋", "xiangqi", 1, 4, "{type: knockout, final_pool: 3}",
     "[direct, wins, sonneborn_berger, playoff]", "game_options: {best_of: 1}"),
    ("checkers", "跳棋", "checkers", 1, 3, "{type: knockout, final_pool: 3}",
     "[direct, wins, sonneborn_berger, playoff]", "game_options: {best_of: 3}"),
    ("go", "围棋", "go", 1, 4, "{type: swiss, rounds: 5}",
     "[buchholz, progressive, wins, black_wins, direct]", ""),
    ("guandan", "掼蛋", "guandan", 2, 3, "{type: groups_standings, groups: 4, rounds: 3, avoid_rematch: true}",
     "[game_points, direct, playoff]", ""),
    ("doudizhu", "斗地主", "doudizhu", 1, 6, "{type: tables_of_three, fill: revival}",
     "[game_points, playoff]", "game_options: {start_points: 0, scoring: R2020}"),
    ("shuangsheng", "双升", "shuangsheng", 2, 2, "{type: knockout, final_pool: 3}",
     "[direct, wins, sonneborn_berger, playoff]", ""),
    ("xqgroups", "象棋团体", "xiangqi", 1, 2, "{type: groups_knockout, groups: 8, advance: 1, third_place: true}",
     "[playoff]", "points: {win: 3, draw: 1, loss: 0, bye: 0, forfeit_win: 3, forfeit_loss: 0}"),
    ("bridge", "桥牌", "bridge", 2, 1, "{type: pairs_movement, boards_per_round: 3}",
     "[game_points, playoff]", ""),
]


def spec_yaml(n: int) -> str:
    """The tournament.yaml of a league with ``n`` branches."""
    lines = [
        f"id: bench{n}", "name: 教职工棋牌联赛（基准测试）", "host: 学校工会", "organizer: 工会办公室",
        "purpose: 为了丰富教职工业余文化生活", "notice_date: 2024-10-01", "script: simplified",
        "contact: 工会办公室", "unit_word: 分工会", "units:"]
    for i in range(1, n + 1):
        lines.append(f"  - {{id: u{i:04d}, name: 第{i}分工会, short: 分{i}, captain: 干事{i}, members: 80,"
                     f" emails: [u{i:04d}@union.example.edu.cn]}}")
    lines += ["venue: 教工之家", "sessions:"]
    for d in range(12):
        day = dt.date(2024, 11, 4) + dt.timedelta(days=d)
        lines.append(f'  - {{date: {day.isoformat()}, start: "14:00", end: "18:00"}}')
    lines.append("events:")
    for eid, name, game, size, q, fmt, tb, extra in EVENTS:
        lines += [f"  - id: {eid}", f"    name: {name}", f"    game: {game}", f"    team_size: {size}",
                  f"    quota: {{rule: fixed, per_branch: {q}, short_warning: false}}",
                  f"    deadline: {DEADLINE.isoformat()}", f"    format: {fmt}", f"    tiebreaks: {tb}"]
        if extra:
            lines.append(f"    {extra}")
        lines += ["    awards:", "      scheme: ranked", "      places:",
                  "        - {award: 一等奖, count: 1}", "        - {award: 二等奖, count: 2}",
                  "        - {award: 三等奖, count: 3}"]
    lines += [f"seed: bench{n}", "secret_file: secret.key", ""]
    return "\n".join(lines)


def registrations(folder: Path, rng: random.Random) -> int:
    """One filled registration workbook per branch in inbox/; returns the number of entries."""
    t = load_tournament(folder)
    people = MS.People(rng)
    inbox = folder / "inbox"
    n_entries = 0
    with tempfile.TemporaryDirectory() as tmp:
        for u in t.spec.units:
            path = inbox / f"{u.id}-报名表.xlsx"
            write_registration_template(t, u.id, path)
            wb = openpyxl.load_workbook(path)
            ws = wb[L.REG_SHEET]
            hrow, col = MS.header(ws)
            r = hrow + 1
            for ev in t.spec.events:
                q = ev.quota.per_branch if hasattr(ev.quota, "per_branch") else 1
                for team in range(1, q + 1):
                    n_entries += 1
                    for _ in range(ev.team_size):
                        name, sid, gender, phone = people.person()
                        ws.cell(r, col["项目"]).value = ev.name
                        if "队号" in col and ev.team_size > 1:
                            ws.cell(r, col["队号"]).value = team
                        ws.cell(r, col["姓名"]).value = name
                        ws.cell(r, col["工号"]).value = sid
                        ws.cell(r, col["性别"]).value = gender
                        ws.cell(r, col["联系电话"]).value = phone
                        r += 1
            wb.save(path)
            when = DEADLINE - dt.timedelta(days=3, minutes=rng.randrange(2000))
            os.utime(path, (when.timestamp(), when.timestamp()))
    return n_entries


def play_rounds(folder: Path, rounds: int) -> int:
    """Referees' result mails for the first ``rounds`` pipeline steps; returns mails written."""
    from pipeline.run import RunOptions, run
    t = load_tournament(folder)
    inbox = folder / "inbox"
    done: set[str] = set()
    written = 0
    with tempfile.TemporaryDirectory() as out:
        for _ in range(rounds):
            run(RunOptions(folder=folder, out_parent=Path(out), pdf=False,
                           now=dt.datetime.fromisoformat(NOW)))
            new = MS.mail_new_results(t, Path(out) / t.spec.id / "results", inbox, done, t.spec.id)
            if not new:
                break
            written += new
    return written


def make_league(folder: Path, branches: int = 200, rounds: int = 0, seed: int = 1) -> dict:
    """Write the league folder; returns counts."""
    folder = Path(folder)
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "inbox").mkdir(parents=True)
    (folder / "tournament.yaml").write_text(spec_yaml(branches), encoding="utf-8")
    (folder / "secret.key").write_text(f"bench-secret-{seed:032d}\n", encoding="utf-8")
    rng = random.Random(seed)
    entries = registrations(folder, rng)
    mails = play_rounds(folder, rounds) if rounds else 0
    return {"branches": branches, "entries": entries, "result_mails": mails}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--branches", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=0, help="simulate results for the first K rounds (slow)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(make_league(a.folder, a.branches, a.rounds, a.seed))


if __name__ == "__main__":
    main()
