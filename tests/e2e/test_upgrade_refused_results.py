"""R2020-D3 (斗地主: the three changes of a hand are congruent mod 3) was added after leagues had
started: a league that finished 斗地主 on an older version, its places and awards published
from totals such as +1/−5/+4 that are impossible, then upgraded, found on the first night with
no new input 9 RESULT_INVALID (right: the totals are impossible), its published places and
awards withdrawn (PLACES_CHANGED "已公布的名次和奖项撤回") and DRAW_INPUT_CHANGED saying "它所依据
的成绩在公布后有了更正" — false: no sheet had changed, only the program's checking.

Now the same sheets refused by this version are told apart from a correction: a finished
event keeps the places and awards published from them (PLACES_KEPT, a warning naming the
tables to check: the handbook's "成绩、加赛和排名规则都没有变" case), a published draw drawn
from them is not said to rest on corrected results, and a corrected sheet places the event
again as any correction does.  The check itself stays: the tables are RESULT_INVALID every
night until the referee corrects them, and a league on this version never accepts them."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from mailedit import edit_attachment, table_header

from pipeline import run as run_mod
from pipeline.games import doudizhu
from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)
TID = "t2020-league"
LATER = "Sun, 20 Dec 2020 09:00:00 +0800"


def _set(table: int, a: int, b: int, c: int):
    """An edit of a 斗地主 成绩 sheet: 甲得分/乙得分/丙得分 of ``table``."""
    def edit(wb) -> None:
        ws = wb["成绩"]
        hrow, col = table_header(ws)
        row = next(r for r in range(hrow + 1, ws.max_row + 1) if ws.cell(r, col["桌号"]).value == table)
        for label, v in zip(("甲得分", "乙得分", "丙得分"), (a, b, c)):
            ws.cell(row, col[label]).value = v
    return edit


def _league(tmp_path: Path) -> Path:
    """t2020-league with its registrations and only 斗地主's round-1 sheet, whose 第1桌 holds
    zero-sum totals no hands give (1/−5/4 → 0/−5/5: the same order)."""
    folder = tmp_path / TID
    shutil.copytree(ROOT / "sample_sheets" / TID, folder)
    for p in (folder / "inbox").glob("*.eml"):
        if ("成绩表" in p.name or "加赛" in p.name) and "-doudizhu-r1-" not in p.name:
            p.unlink()
    edit_attachment(next((folder / "inbox").glob("*-doudizhu-r1-*.eml")), _set(1, 0, -5, 5))
    return folder


def _mail_round(folder: Path, tmp_path: Path, n: int) -> Path:
    """斗地主 round ``n``'s workbook, as the last run wrote it, filled by the referee (valid
    totals) and mailed into the inbox: the mail."""
    from tests.newleague.batch import samples
    from pipeline.spec import load_tournament

    name = f"doudizhu-r{n}-成绩表.xlsx"
    only = tmp_path / f"r{n}"
    only.mkdir()
    shutil.copy(tmp_path / "out" / TID / "results" / name, only / name)
    assert samples().mail_new_results(load_tournament(folder), only, folder / "inbox", set(), "refused") == 1
    return next((folder / "inbox").glob(f"*-doudizhu-r{n}-*.eml"))


def _run(folder: Path, tmp_path: Path):
    return run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))


def _older_version_plays(monkeypatch, folder: Path, tmp_path: Path, rounds: int = 3):
    """Nights of a version before R2020-D3's mod-3 check (the totals are accepted): round 1,
    then the referees' sheets of the rounds it draws up to ``rounds`` — the final's 第1桌
    (the only table) with impossible totals too (−3/14/−11).  The last night's report."""
    with monkeypatch.context() as old:
        old.setattr(doudizhu, "changes_possible", lambda totals, start_points=0: True)
        old.setattr(run_mod.lastrun, "code_hash", lambda: "an-older-version")
        report = _run(folder, tmp_path)
        for n in range(2, rounds + 1):
            mailed = _mail_round(folder, tmp_path, n)
            if n == 3:
                edit_attachment(mailed, _set(1, -3, 14, -11))
            report = _run(folder, tmp_path)
        return report


def _upgraded(monkeypatch, tmp_path: Path) -> None:
    """The next nights run this version: nothing of the last run is its own."""
    monkeypatch.setattr(run_mod.lastrun, "code_hash", lambda: "this-version")
    (tmp_path / "out" / TID / ".lastrun.json").unlink(missing_ok=True)


def _data(tmp_path: Path, name: str) -> list[dict[str, str]]:
    with open(tmp_path / "out" / TID / "data" / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _ddz_awards(tmp_path: Path) -> list[dict[str, str]]:
    return [r for r in _data(tmp_path, "awards.csv") if r["event"] == "doudizhu"]


def _winner(tmp_path: Path) -> str:
    return {r["rank"]: r["team"] for r in _ddz_awards(tmp_path)}["1"]


def test_R2020_D3_an_upgrade_keeps_places_published_from_results_it_now_refuses(tmp_path, monkeypatch):
    folder = _league(tmp_path)
    before = _older_version_plays(monkeypatch, folder, tmp_path)
    assert before.state.events["doudizhu"].complete
    assert not [i for i in before.issues if i.code == "RESULT_INVALID"]
    awards = _ddz_awards(tmp_path)
    assert awards and _winner(tmp_path)

    _upgraded(monkeypatch, tmp_path)
    for night in (1, 2):            # the first night on this version, and the next
        report = _run(folder, tmp_path)
        refused = [i for i in report.issues if i.code == "RESULT_INVALID" and i.file.startswith("doudizhu-")]
        assert sorted((i.file, i.severity) for i in refused) == [("doudizhu-r1-成绩表.xlsx", "error"),
                                                                  ("doudizhu-r3-成绩表.xlsx", "error")], night
        assert _ddz_awards(tmp_path) == awards, night
        assert night == 2 or report.state.events["doudizhu"].complete      # (the next: the last run's outputs)
        ddz = [i for i in report.issues if "斗地主" in i.message and i.code in
               ("PLACES_CHANGED", "PLACES_KEPT", "DRAW_INPUT_CHANGED")]
        (kept,) = ddz
        assert kept.code == "PLACES_KEPT" and kept.severity == "warning", ddz
        msg = kept.message
        assert "已公布的名次和奖项保持不变" in msg and "本版程序对成绩的检查更严" in msg, msg
        assert "第1轮 第1桌（邱洋桂 对 石平俊 对 徐怡）" in msg and "第3轮（决赛桌） 第1桌" in msg, msg
        assert "有了更正" not in msg and "没有改动（不是更正）" in msg, msg       # no correction is claimed
        assert report.needs_attention

    # the referee corrects both tables, the final's order with it: the event is placed again
    was = _winner(tmp_path)
    inbox = folder / "inbox"
    edit_attachment(next(inbox.glob("*-doudizhu-r1-*.eml")), _set(1, 1, -5, 4),
                    save_as=inbox / "z-doudizhu-r1-corrected.eml", date=LATER)
    edit_attachment(next(inbox.glob("*-doudizhu-r3-*.eml")), _set(1, 14, -4, -10),
                    save_as=inbox / "z-doudizhu-r3-corrected.eml", date=LATER)
    report = _run(folder, tmp_path)
    codes = [i.code for i in report.issues if "斗地主" in i.message or i.file.startswith("doudizhu-")]
    assert "PLACES_KEPT" not in codes and "RESULT_INVALID" not in codes, codes
    (changed,) = [i for i in report.issues if i.code == "PLACES_CHANGED" and i.message.startswith("斗地主")]
    assert "更正后名次有变" in changed.message and f"第1名 {was} → " in changed.message, changed.message
    assert _winner(tmp_path) != was
    (draw,) = [i for i in report.issues if i.code == "DRAW_INPUT_CHANGED" and i.message.startswith("斗地主")]
    assert "成绩在公布后有了更正：第1轮 第1桌" in draw.message, draw.message       # a correction, truly


def test_R2020_D3_a_draw_from_results_now_refused_is_no_correction(tmp_path, monkeypatch):
    """斗地主 round 2 and the final drawn by the older version from round 1's results; round 1's
    第1桌 is refused now: DRAW_INPUT_CHANGED says the sheet did not change and this version's
    check refuses it (not "成绩在公布后有了更正")."""
    folder = _league(tmp_path)
    _older_version_plays(monkeypatch, folder, tmp_path, rounds=2)
    _upgraded(monkeypatch, tmp_path)
    report = _run(folder, tmp_path)
    said = [i for i in report.issues if i.code == "DRAW_INPUT_CHANGED" and i.message.startswith("斗地主")]
    assert len(said) == 1, [(i.code, i.message) for i in report.issues]
    msg = said[0].message
    assert "有了更正" not in msg and "本版程序对成绩的检查更严" in msg and "不是更正" in msg, msg
    assert "第1轮 第1桌（邱洋桂 对 石平俊 对 徐怡）" in msg and "第2轮已经抽签公布，不会重新抽签" in msg, msg
    steps = " ".join(report.next_steps)
    assert "在公布后有变" not in steps and "改正后把成绩表重新放进 inbox" in steps, steps


def test_R2020_D3_this_version_never_publishes_places_from_refused_totals(tmp_path, monkeypatch):
    """The check is not weakened: a league on this version alone refuses the totals — round 2
    is not drawn from them, and 斗地主 has no places or awards."""
    folder = _league(tmp_path)
    _upgraded(monkeypatch, tmp_path)
    report = _run(folder, tmp_path)
    ev = report.state.events["doudizhu"]
    assert not ev.complete and len(ev.rounds) == 1
    assert [i.cell for i in report.issues if i.code == "RESULT_INVALID"] == ["G8"]
    assert not _ddz_awards(tmp_path)
    assert not [i for i in report.issues if i.code in ("PLACES_KEPT", "DRAW_INPUT_CHANGED")]


def test_R2020_D3_a_resent_sheet_still_refused_withdraws_the_places_it_changed(tmp_path, monkeypatch):
    """The places kept from results refused now stand only while the sheets are those they were
    published from: the final's referee sends the table again, other totals still impossible
    (−6/14/−8) — a correction, refused like any new result: the places and awards are
    withdrawn (PLACES_CHANGED), the message naming the sheet and the results refused now."""
    folder = _league(tmp_path)
    _older_version_plays(monkeypatch, folder, tmp_path)
    _upgraded(monkeypatch, tmp_path)
    _run(folder, tmp_path)
    r3 = next((folder / "inbox").glob("*-doudizhu-r3-*.eml"))
    edit_attachment(r3, _set(1, -6, 14, -8), save_as=r3.with_name("z-doudizhu-r3-resent.eml"), date=LATER)
    report = _run(folder, tmp_path)
    assert not report.state.events["doudizhu"].complete and not _ddz_awards(tmp_path)
    (gone,) = [i for i in report.issues if i.code == "PLACES_CHANGED" and i.message.startswith("斗地主")]
    msg = gone.message
    assert "已公布的名次和奖项撤回" in msg and "本次收到的《doudizhu-r3-成绩表.xlsx》" in msg, msg
    assert "现在不符合规则" in msg and "第1轮 第1桌（邱洋桂 对 石平俊 对 徐怡）" in msg, msg
    assert "PLACES_KEPT" not in [i.code for i in report.issues]
