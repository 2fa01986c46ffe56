"""Generate the sample tournaments' inboxes: captains' registration mails, and referees'
result mails for every round, so that ``league run sample_sheets/<id>`` completes the
tournament on any machine and day.

It plays the office and the referees: fills our own registration templates the way a
captain does (by header label), runs the pipeline, fills each result workbook it writes
with simulated results (deterministic), mails them back into the inbox, and repeats
until every event is complete.  Every file is an ``.eml`` with a ``Date`` header, so
received times do not depend on file modification times.

    python scripts/make_samples.py            # all four
    python scripts/make_samples.py t2016-poker
    python scripts/make_samples.py --redate t2011-court   # only re-date the referees' mails

The referees' mails are dated last (:func:`redate`), once the tournament is complete: each
round's result mail within the session the pipeline places that round in (R2020-S1,
``pipeline.run.placed_sessions``: an event's own sessions after its deadline and draw time —
T2015's 双扣 closes on 11-14, after the 11-07 sessions of the others), the rounds sharing a
session one after another, and each 加赛 mail right after the round whose tie it answers, before
the next round (whose draw waits on it).  So the inbox replays night by night in Date order
(``tests/samples/test_sample_nights.py``).  ``--redate`` does only that to a committed inbox:
the mails whose Date changes are written again under their new name, their workbooks as they
were, so nothing drawn or scored changes.
"""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import hashlib
import io
import random
import re
import shutil
import sys
import tempfile
from email.message import EmailMessage
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline import layout as L  # noqa: E402
from pipeline.run import RunOptions, placed_sessions, run  # noqa: E402
from pipeline.spec import Tournament, load_tournament  # noqa: E402
from pipeline.timeutil import TZ, aware  # noqa: E402
from pipeline.validate.checks import quota_for  # noqa: E402
from pipeline.xlsx.registration import write_registration_template  # noqa: E402

XLSX = ("application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet")
OFFICE = "office@union.example.edu.cn"
REFEREE = "referee@union.example.edu.cn"
#: "now" of the generating runs: after every deadline, draw time and session
LATER = dt.datetime(2030, 1, 1, tzinfo=TZ)

SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
            "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建文辉力鹏宇浩凯健俊帆帅旭宁璐婷晨欣怡佳琪"


class People:
    """Deterministic, unique fake staff."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.used, self.next_id = rng, set(), 1000

    def person(self) -> tuple[str, str, str, str]:
        while True:
            n = self.rng.choice(SURNAMES) + self.rng.choice(GIVEN) + (self.rng.choice(GIVEN) if self.rng.random() < .6 else "")
            if n not in self.used:
                self.used.add(n)
                break
        self.next_id += self.rng.randrange(1, 40)
        phone = "1" + self.rng.choice("3589") + "".join(self.rng.choice("0123456789") for _ in range(9))
        return n, f"{self.next_id:06d}", self.rng.choice("男女"), phone


def mail(path: Path, sender: str, subject: str, when: dt.datetime, attachments: list[tuple[str, bytes]],
         body: str = "") -> None:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = OFFICE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<{hashlib.sha1(path.name.encode()).hexdigest()[:16]}@union.example.edu.cn>"
    msg.set_content(body or subject)
    for name, data in attachments:
        msg.add_attachment(data, maintype=XLSX[0], subtype=XLSX[1], filename=name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(msg))


def header(ws, label: str = "姓名") -> tuple[int, dict[str, int]]:
    for r in range(1, 60):
        vals = {str(c.value).strip(): c.column for c in ws[r] if c.value is not None}
        if label in vals:
            return r, vals
    raise ValueError(f"no header with {label}")


# ------------------------------------------------------------------------------ registrations

def planned_entries(t: Tournament, rng: random.Random) -> dict[str, list[tuple[str, int]]]:
    """unit id → [(event name, number of entries)] following each quota rule."""
    plan: dict[str, list[tuple[str, int]]] = {u.id: [] for u in t.spec.units}
    for ev in t.spec.events:
        for u in t.spec.units:
            q = quota_for(ev, u.unit())
            if q is None:      # open entry: a realistic spread
                n = rng.choice((0, 1, 1, 2, 2)) if ev.team_size == 1 else rng.choice((0, 1, 1))
            else:
                n = q
            if n:
                plan[u.id].append((ev.name, n))
    return plan


def registration_mails(t: Tournament, inbox: Path, rng: random.Random, people: People) -> None:
    spec = t.spec
    plan = planned_entries(t, rng)
    with tempfile.TemporaryDirectory() as tmp:
        for k, u in enumerate(spec.units):
            path = Path(tmp) / f"{u.id}.xlsx"
            write_registration_template(t, u.id, path)
            wb = openpyxl.load_workbook(path)
            ws = wb[L.REG_SHEET]
            hrow, col = header(ws)
            r = hrow + 1
            for ev_name, n in plan[u.id]:
                ev = spec.event(ev_name)
                for team in range(1, n + 1):
                    for member in range(ev.team_size):
                        name, sid, gender, phone = people.person()
                        ws.cell(r, col["项目"]).value = ev.name
                        if "队号" in col and ev.team_size > 1:
                            ws.cell(r, col["队号"]).value = team
                        ws.cell(r, col["姓名"]).value = name
                        ws.cell(r, col["工号"]).value = sid
                        ws.cell(r, col["性别"]).value = gender
                        ws.cell(r, col["联系电话"]).value = phone
                        if "乘车地点" in col and spec.pickup_points:
                            ws.cell(r, col["乘车地点"]).value = rng.choice(spec.pickup_points)
                        r += 1
            wb.save(path)
            deadline = min(aware(e.deadline) for e in spec.events if e.deadline)
            when = deadline - dt.timedelta(days=3, hours=rng.randrange(1, 48), minutes=rng.randrange(60))
            sender = u.emails[0] if u.emails else f"{u.id}@union.example.edu.cn"
            mail(inbox / f"{when:%m%d}-{u.id}-报名表.eml", sender, f"{u.name} 报名表", when,
                 [(f"{u.name}-报名表.xlsx", path.read_bytes())], f"{u.captain or u.name}：附件为{u.name}报名表。")


# ------------------------------------------------------------------------------ results

LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
WIN_REASON = {"xiangqi": ["将死", "认输", "超时", "困毙"], "go": ["中盘胜", "数子胜", "认输"]}
BRIDGE = [-620, -500, -420, -200, -110, -100, -50, 50, 90, 110, 120, 140, 170, 400, 420, 450, 620]


def fill_row(game: str, stage: str, rng: random.Random, options: dict) -> dict[str, object]:
    knockout = stage in ("ko", "third", "final")   # no drawn games where a winner must go through
    if game in ("xiangqi", "go"):
        res = rng.choice(["甲胜", "乙胜"] + ([] if knockout else ["和棋"]))
        draw_reason = "议和" if game == "xiangqi" else "和棋"
        return {"结果": res, "原因": draw_reason if res == "和棋" else rng.choice(WIN_REASON[game])}
    if game == "checkers":
        a, b = 2, rng.choice((0, 1))
        return {"甲方胜局": a, "乙方胜局": b} if rng.random() < .5 else {"甲方胜局": b, "乙方胜局": a}
    if game in ("shuangsheng", "shuangkou", "guandan"):
        a, b = rng.sample(range(len(LEVELS)), 2) if game != "guandan" or rng.random() < .8 else [rng.randrange(13)] * 2
        row = {"甲方级数": LEVELS[a], "乙方级数": LEVELS[b]}
        if game == "shuangsheng":
            row["庄家"] = rng.choice("甲乙")
        if game == "shuangkou":
            row["先过A方"] = "无"
        if game == "guandan":
            row["过A方"] = "无"
            row["台上方"] = rng.choice("甲乙")
        return row
    if game == "doudizhu":
        start = int(options.get("start_points", 0))
        total = 3 * start
        while True:
            a, b = rng.randrange(-12, 25), rng.randrange(-12, 25)
            # R2020-D3, R2011-D1: every hand moves the landlord twice what each farmer moves,
            # so the three totals are congruent mod 3 (b ≡ a makes c = 3·start − a − b ≡ a too)
            b -= (b - a) % 3
            c = total - a - b
            if len({a, b, c}) == 3 and max(a, b, c) > 0:
                return {"甲得分": a, "乙得分": b, "丙得分": c}
    raise ValueError(game)


def fill_result_book(t: Tournament, src: Path, rng: random.Random) -> tuple[bytes, str, int, str]:
    wb = openpyxl.load_workbook(src)
    meta = {str(r[0].value): r[1].value for r in wb[L.META_SHEET].iter_rows(min_col=1, max_col=2) if r[0].value}
    ev = t.spec.event(str(meta[L.META_EVENT]))
    stage, rnd = str(meta[L.META_STAGE]), int(meta[L.META_ROUND])
    ws = wb[L.RESULT_SHEET]
    hrow, col = header(ws, "桌号")
    side_labels = [l for l in (L.SIDES_3 if ev.game == "doudizhu" else L.SIDES_2) if l in col]
    for r in range(hrow + 1, ws.max_row + 1):
        if ws.cell(r, col["桌号"]).value in (None, ""):
            continue
        sides = [ws.cell(r, col[s]).value for s in side_labels]
        if any(v in (None, "") for v in sides) or any("轮空" in str(v) or "輪空" in str(v) for v in sides):
            continue
        if ev.game == "bridge":
            if ws.cell(r, col["牌号"]).value in (None, ""):
                continue
            row = {"南北得分": rng.choice(BRIDGE)}
        else:
            row = fill_row(ev.game, stage, rng, ev.game_options)
        for label, value in row.items():
            ws.cell(r, col[label]).value = value
        for s in side_labels:
            if f"{s}签名" in col:
                ws.cell(r, col[f"{s}签名"]).value = "已签"
        if "裁判签名" in col:
            ws.cell(r, col["裁判签名"]).value = "已签"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / src.name
        wb.save(out)
        return out.read_bytes(), ev.id, rnd, ev.name


def provisional_time(t: Tournament, seq: int) -> dt.datetime:
    """A referee mail's Date while the tournament is being generated (:func:`make`): after
    every deadline and draw time, one minute per mail in the order they are written (the
    order the pipeline reads them in).  :func:`redate` gives each its true time at the end."""
    opens = [aware(w) for e in t.spec.events for w in (e.deadline, e.draw_at) if w]
    return max(opens, default=dt.datetime(2000, 1, 1, tzinfo=TZ)) + dt.timedelta(minutes=seq)


def result_mail_name(when: dt.datetime, stem: str) -> str:
    return f"{when:%m%d%H%M}-{stem}.eml"


def playoff_mail_name(when: dt.datetime, event_id: str, n: int) -> str:
    return f"{when:%m%d}-{event_id}-加赛-{n}.eml"


def pending_ties(ev) -> list[tuple[str, str, tuple[str, ...]]]:
    """The ties the pipeline asks a 加赛 for (``PLAYOFF_REQUIRED``, its 加赛 form): those the
    format waits on while the event runs, and once it is complete the ties of the final
    order that an award boundary splits (阶段 最终名次).  R2011-F1: a 加赛 settles only the
    tie it was played for — every other shared place was once answered too, labelled with
    the last round's stage and the placement's group (阶段 group, 组别 blank in the t2011
    sample): a label naming no tie, which ordered shared places nobody had asked about."""
    return list(ev.ties)


def playoff_mail(t: Tournament, inbox: Path, state, rng: random.Random, answered: set) -> bool:
    """Answer the pending 加赛 of each event with one organisers' playoff sheet: every tied
    set in order by lot (one sheet holds all sets; a later sheet supersedes an earlier)."""
    wrote = False
    for ev in state.events.values():
        ties = [x for x in pending_ties(ev) if (ev.spec.id, *x) not in answered]
        if not ties:
            continue
        answered.update((ev.spec.id, *x) for x in ties)
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = L.PLAYOFF_SHEET
        ws.append(L.PLAYOFF_COLUMNS)
        label = {e.id: e.team for e in ev.entries}
        for stage, group, ids in ties:
            order = sorted(ids)
            rng.shuffle(order)
            for k, eid in enumerate(order, 1):
                ws.append([ev.spec.name, stage, group, k, label[eid]])
        meta = wb.create_sheet(L.META_SHEET)
        meta.append([L.META_KIND, L.KIND_PLAYOFF])
        meta.append([L.META_TOURNAMENT, t.spec.id])
        meta.append([L.META_TIES, ",".join(str(len(ids)) for _, _, ids in ties)])   # as the issued form says
        meta.append([L.META_TIE_ENTRIES, "|".join(" ".join(ids) for _, _, ids in ties)])
        meta.sheet_state = "hidden"
        n = sum(1 for a in answered if a[0] == ev.spec.id)
        with tempfile.TemporaryDirectory() as tmp:
            p = Path(tmp) / "加赛.xlsx"
            wb.save(p)
            when = provisional_time(t, len(list(inbox.glob("*.eml"))))    # redate() dates it
            mail(inbox / playoff_mail_name(when, ev.spec.id, n), REFEREE,
                 f"{ev.spec.name} 加赛结果", when, [(f"{ev.spec.name}-加赛.xlsx", p.read_bytes())])
        wrote = True
    return wrote


def mail_new_results(t: Tournament, results_dir: Path, inbox: Path, done: set[str], seed: str) -> int:
    """Fill every result workbook in ``results_dir`` not yet in ``done`` as the referees
    would (random scores seeded by ``seed`` and the file name) and drop each into ``inbox``
    as the referee's mail, dated provisionally (:func:`redate` dates it at its round's
    session once the tournament is complete).  Returns how many were mailed."""
    new = [p for p in sorted(results_dir.glob("*.xlsx")) if p.name not in done]
    for p in new:
        data, _ev_id, rnd, ev_name = fill_result_book(t, p, random.Random(f"{seed}/{p.name}"))
        when = provisional_time(t, len(list(inbox.glob("*.eml"))))
        mail(inbox / result_mail_name(when, p.stem), REFEREE, f"{ev_name} 第{rnd}轮成绩", when, [(p.name, data)])
        done.add(p.name)
    return len(new)


# ------------------------------------------------------------------------------ when referees mail

#: the 加赛 mails after a round follow its result mail this far apart, the last one this far
#: before the round's share of its session ends
MAIL_GAP = dt.timedelta(minutes=5)
RESULT_MAIL = re.compile(r"^(?P<ev>[a-z0-9_]+)-r(?P<rnd>\d+)-成绩表\.xlsx$")
PLAYOFF_MAIL = re.compile(r"^\d{4}-(?P<ev>[a-z0-9_]+)-加赛-(?P<n>\d+)\.eml$")


def referee_times(t: Tournament, state, after: dict[str, list[int]]) -> tuple[dict, dict]:
    """R2020-S1: when the referees mail each round's results and each 加赛, in a complete
    tournament's ``state``; ``after``: event id → the round each of its 加赛 mails follows, in
    the order they were sent.

    A round's results are mailed within the session the pipeline places the round in
    (``pipeline.run.placed_sessions``: an event's k-th round in its k-th session after its
    deadline and draw time, the rounds beyond the last session sharing it).  The rounds of an
    event sharing a session share it equally, one after another, each mailed near the end of
    its share; the 加赛 mails after a round follow it, :data:`MAIL_GAP` apart, inside the same
    share — so each 加赛 arrives before the next round is drawn, and each round's results after
    its draw.  Returns ((event id, round) → time, (event id, i-th 加赛) → time)."""
    rounds_at: dict[tuple[str, int], dt.datetime] = {}
    playoffs_at: dict[tuple[str, int], dt.datetime] = {}
    for es in state.events.values():
        ev_id = es.spec.id
        follows = [max(1, min(a, len(es.rounds))) for a in after.get(ev_id, [])]
        shares: dict[tuple, list[int]] = {}          # session → its rounds of this event
        for r, s in zip(es.rounds, placed_sessions(t, es.spec, es.rounds)):
            shares.setdefault((s.date, s.start, s.end) if s else (None, r.round, None), []).append(r.round)
        for (day, start, end), rnds in shares.items():
            if day is None:          # no sessions in the spec: a day per round
                begin = dt.datetime(2000, 1, 1, 12, tzinfo=TZ) + dt.timedelta(days=rnds[0])
                length = dt.timedelta(hours=2)
            else:
                begin = dt.datetime.combine(day, start, TZ)
                length = dt.datetime.combine(day, end, TZ) - begin
            minutes = int(length.total_seconds() // 60)
            for j, k in enumerate(rnds, 1):
                share_begin = begin + dt.timedelta(minutes=minutes * (j - 1) // len(rnds))
                share_end = begin + dt.timedelta(minutes=minutes * j // len(rnds))
                mine = [i for i, a in enumerate(follows) if a == k]
                at = share_end - MAIL_GAP * (len(mine) + 1)
                if at <= share_begin:
                    raise SystemExit(f"{t.spec.id}/{ev_id}: round {k} and its {len(mine)} 加赛 do not fit "
                                     f"in {share_begin:%m-%d %H:%M}–{share_end:%H:%M}")
                rounds_at[(ev_id, k)] = at
                for n, i in enumerate(mine, 1):
                    playoffs_at[(ev_id, i)] = at + MAIL_GAP * n
    return rounds_at, playoffs_at


def playoff_follows(es, book: openpyxl.Workbook) -> int:
    """The round a 加赛 sheet follows: a tie the format waits on (a group's qualifier, R2011-F1)
    is played after the last round of its stage; a tie of final places after the event's last
    round."""
    last = {r.stage: r.round for r in es.rounds}
    ws = book[L.PLAYOFF_SHEET]
    col = L.PLAYOFF_COLUMNS.index("阶段")
    stages = {str(row[col]).strip() for row in ws.iter_rows(min_row=2, values_only=True)
              if len(row) > col and row[col] not in (None, "")}
    final = es.rounds[-1].round if es.rounds else 1
    return min((last.get(st, final) for st in stages), default=final)


def _parsed(path: Path):
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def redate(folder: Path, event: str | None = None) -> list[tuple[str, str]]:
    """Date the referees' mails in ``folder``'s inbox as :func:`referee_times` says (only
    ``event``'s, when given): a mail whose Date changes is written again — sender, subject,
    text and workbook as they were — under the name its new Date gives it (result mails
    ``MMDDhhmm-<event>-r<k>-成绩表.eml``, 加赛 ``MMDD-<event>-加赛-<n>.eml``); the others are
    left byte for byte.  Returns (old name, new name) of each mail written again."""
    t = load_tournament(folder)
    inbox = folder / "inbox"
    with tempfile.TemporaryDirectory() as out:
        state = run(RunOptions(folder=folder, out_parent=Path(out), pdf=False, now=LATER)).state
    if state is None or not all(es.complete for es in state.events.values()):
        raise SystemExit(f"{t.spec.id}: not every event is complete; nothing re-dated")
    results: dict[tuple[str, int], Path] = {}
    playoffs: dict[str, list[tuple[dt.datetime, int, Path, int]]] = {}
    for p in sorted(inbox.glob("*.eml")):
        msg = _parsed(p)
        names = [a.get_filename() or "" for a in msg.iter_attachments()]
        m = next((RESULT_MAIL.match(n) for n in names if RESULT_MAIL.match(n)), None)
        if m and m["ev"] in state.events:
            results[(m["ev"], int(m["rnd"]))] = p
            continue
        m = PLAYOFF_MAIL.match(p.name)
        if m and m["ev"] in state.events:
            book = next(openpyxl.load_workbook(io.BytesIO(a.get_content())) for a in msg.iter_attachments())
            when = parsedate_to_datetime(str(msg["Date"]))
            playoffs.setdefault(m["ev"], []).append((when, int(m["n"]), p, playoff_follows(state.events[m["ev"]], book)))
    for v in playoffs.values():
        v.sort(key=lambda x: (x[0], x[1]))
    rounds_at, playoffs_at = referee_times(t, state, {e: [x[3] for x in v] for e, v in playoffs.items()})
    todo = [(e, p, rounds_at[(e, k)], result_mail_name(rounds_at[(e, k)], f"{e}-r{k}-成绩表"))
            for (e, k), p in results.items()]
    todo += [(e, p, playoffs_at[(e, i)], playoff_mail_name(playoffs_at[(e, i)], e, n))
             for e, v in playoffs.items() for i, (_, n, p, _) in enumerate(v)]
    changed = []
    for e, p, when, name in sorted(todo, key=lambda x: x[2]):
        if event is not None and e != event:
            continue
        msg = _parsed(p)
        if parsedate_to_datetime(str(msg["Date"])) == when and p.name == name:
            continue
        body = msg.get_body(preferencelist=("plain",))
        files = [(a.get_filename(), a.get_content()) for a in msg.iter_attachments()]
        p.unlink()
        mail(inbox / name, str(msg["From"]), str(msg["Subject"]), when, files,
             body.get_content().rstrip("\n") if body is not None else "")
        changed.append((p.name, name))
    return changed


def make(folder: Path) -> None:
    t = load_tournament(folder)
    inbox = folder / "inbox"
    shutil.rmtree(inbox, ignore_errors=True)
    inbox.mkdir()
    rng = random.Random(t.spec.id)
    people = People(rng)
    registration_mails(t, inbox, rng, people)
    extra_inputs(t, inbox, rng)
    done: set[str] = set()
    answered: set = set()
    with tempfile.TemporaryDirectory() as out:
        for step in range(60):
            report = run(RunOptions(folder=folder, out_parent=Path(out), pdf=False, now=LATER))
            state = report.state
            new = mail_new_results(t, Path(out) / t.spec.id / "results", inbox, done, t.spec.id)
            if not new and not playoff_mail(t, inbox, state, rng, answered):
                break
        status = {e.spec.id: (e.complete, e.waiting) for e in state.events.values()}
        print(t.spec.id, status)
        if not all(c for c, _ in status.values()):
            raise SystemExit(f"{t.spec.id}: not every event completed: {status}")
    redate(folder)


def extra_inputs(t: Tournament, inbox: Path, rng: random.Random) -> None:
    """Tournament-specific organisers' sheets: T2016 check-in (R2016-F2) and T2015
    discretionary awards (R2015-A1) — written after registrations exist."""
    hook = EXTRA.get(t.spec.id)
    if hook:
        hook(t, inbox, rng)


def _entries(t: Tournament):
    with tempfile.TemporaryDirectory() as out:
        return run(RunOptions(folder=t.folder, out_parent=Path(out), pdf=False,
                              now=dt.datetime(2000, 1, 1, tzinfo=TZ))).state.entries


def _fill_table(path: Path, rows: list[dict[str, object]], key: str) -> bytes:
    wb = openpyxl.load_workbook(path)
    ws = wb.worksheets[0]
    hrow, col = header(ws, key)
    for i, row in enumerate(rows):
        for label, value in row.items():
            ws.cell(hrow + 1 + i, col[label]).value = value
    wb.save(path)
    return path.read_bytes()


def checkin_t2016(t: Tournament, inbox: Path, rng: random.Random) -> None:
    """R2016-F2: the morning check-in; two players of two different pairs are absent, so
    the two left alone are re-formed into a new pair."""
    from pipeline.xlsx.forms import write_checkin_form
    ev = t.spec.events[0]
    entries = [e for e in _entries(t) if e.event == ev.id]
    absent_pairs = rng.sample(entries, 2)
    absent = {e.players[rng.randrange(2)].key for e in absent_pairs}
    players = [(p.shown, p.staff_id) for e in entries for p in e.players]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "签到表.xlsx"
        write_checkin_form(t, ev, {"": players}, path)
        keys = [p.key for e in entries for p in e.players]
        data = _fill_table(path, [{"到场": "否" if k in absent else "是"} for k in keys], "到场")
    s = t.spec.sessions[0]
    when = dt.datetime.combine(s.date, s.start, TZ) - dt.timedelta(minutes=20)
    mail(inbox / f"{when:%m%d%H%M}-签到表.eml", "referee@union.example.edu.cn", f"{ev.name} 签到表", when,
         [("签到表.xlsx", data)])


def awards_t2015(t: Tournament, inbox: Path, rng: random.Random) -> None:
    """R2015-A1: the organisers' discretionary awards and the 组织奖 for two branches."""
    from pipeline.xlsx.forms import write_awards_form
    entries = _entries(t)
    rows = []
    for award in t.spec.discretionary_awards:
        e = rng.choice(entries)
        p = rng.choice(e.players)
        rows.append({"奖项": award, "项目": t.spec.event(e.event).name, "姓名": p.shown, "工号": p.staff_id})
    for u in rng.sample(t.spec.units, 2):
        rows.append({"奖项": t.spec.branch_award or "组织奖", "单位": u.name})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "评奖.xlsx"
        write_awards_form(t, path)
        data = _fill_table(path, rows, "奖项")
    s = t.spec.sessions[-1]
    when = dt.datetime.combine(s.date, s.end, TZ) + dt.timedelta(hours=2)
    mail(inbox / f"{when:%m%d%H%M}-评奖.eml", OFFICE, "评奖结果", when, [("评奖.xlsx", data)])


EXTRA: dict = {"t2016-poker": checkin_t2016, "t2015-tcm": awards_t2015}



if __name__ == "__main__":
    args = sys.argv[1:]
    only_dates = "--redate" in args
    names = [a for a in args if a != "--redate"] or ["t2020-league", "t2015-tcm", "t2011-court", "t2016-poker"]
    for n in names:
        if only_dates:
            for old, new in redate(ROOT / "sample_sheets" / n):
                print(f"{n}: {old} -> {new}")
        else:
            make(ROOT / "sample_sheets" / n)
