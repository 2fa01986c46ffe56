"""R2016-F1/F2: once a 签到表 after the deadline has shown the groups (the branch chairs'
lot), a pair withdrawn afterwards (``withdrawn`` in tournament.yaml) drops out of its group:
no other pair changes group, on the new form or in round 1."""
from __future__ import annotations

import csv
from pathlib import Path

from tests.hardening.common import league, run_args, t2016_before_the_day


def _groups(form: Path) -> dict[str, str]:
    import openpyxl

    ws = openpyxl.load_workbook(form)["签到"]
    head = [c.value for c in ws[4]]
    return {r[head.index("队名")]: r[head.index("组别")] for r in ws.iter_rows(min_row=5, values_only=True) if r[0]}


def test_R2016_F1_a_withdrawal_after_the_groups_were_shown_moves_no_other_pair(tmp_path: Path) -> None:
    import openpyxl

    folder, out, form, before, victim = _shown_then_withdrawn(tmp_path)
    after = _groups(form)
    assert victim not in after
    assert after == {t: g for t, g in before.items() if t != victim}
    # round 1 (everyone present) deals the pairs into the groups printed
    wb = openpyxl.load_workbook(form)
    ws = wb["签到"]
    head = [c.value for c in ws[4]]
    for row in ws.iter_rows(min_row=5):
        if row[0].value:
            row[head.index("到场")].value = "是"
    wb.save(folder / "inbox" / "签到表.xlsx")
    assert league(*run_args(folder, out, now="2016-11-26T08:31+08:00")).returncode in (0, 1)
    with open(out / "t2016-poker" / "data" / "draw.csv", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["round"] == "1"]
    teams = {r["team"]: r["group"] for r in rows}
    assert victim not in teams
    # the group the withdrawal left odd keeps its bye (as a group drawn odd): no pair moves
    assert teams == after, {t: (after[t], teams.get(t)) for t in after if teams.get(t) != after[t]}


def _shown_then_withdrawn(tmp_path: Path) -> tuple[Path, Path, Path, dict[str, str], str]:
    """t2016 without the 11-26 mails: the 11-17 night shows the groups, then a pair withdraws
    and the 11-18 night runs — (folder, out, the 签到表, the groups shown, the pair withdrawn)."""
    folder, out, form, before = _shown(tmp_path)
    victim = sorted(before)[0]
    y = folder / "tournament.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("    game: guandan\n", f"    game: guandan\n    withdrawn: [{victim}]\n"),
                 encoding="utf-8")
    assert league(*run_args(folder, out, now="2016-11-18T09:00+08:00")).returncode in (0, 1)
    return folder, out, form, before, victim


def _shown(tmp_path: Path) -> tuple[Path, Path, Path, dict[str, str]]:
    """t2016 without the 11-26 mails, run on 11-17 (after the deadline), its 签到表 showing
    the groups — (folder, out, the 签到表, the groups shown)."""
    folder, out = t2016_before_the_day(tmp_path, "2016-11-17T09:00+08:00")
    form = out / "t2016-poker" / "forms" / "guandan-签到表.xlsx"
    before = _groups(form)
    return folder, out, form, before


def test_R2016_F1_a_rerun_of_a_night_before_the_deadline_keeps_the_groups_shown(tmp_path: Path) -> None:
    """The office re-runs the 11-15 night (handbook: 补跑、重跑以前的晚上), before the deadline:
    that night shows no groups, and the groups the 签到表 showed are kept — the next night
    deals no pair into another group (25 of 33 moved, without a word)."""
    folder, out, form, before, victim = _shown_then_withdrawn(tmp_path)
    assert league(*run_args(folder, out, now="2016-11-15T21:00+08:00")).returncode in (0, 1)
    assert league(*run_args(folder, out, now="2016-11-19T09:00+08:00")).returncode in (0, 1)
    after = _groups(form)
    assert after == {t: g for t, g in before.items() if t != victim}, \
        {t: (before[t], g) for t, g in after.items() if before[t] != g}


def test_R2016_F1_a_deadline_moved_later_deals_the_groups_again(tmp_path: Path) -> None:
    """The office moves the deadline later (registration reopened, a night runs while it is
    open): the lot shown is dropped, and the first 签到表 after the new deadline deals the
    groups again from the entries then (the same as a league that never showed them)."""
    folder, out, form, before, victim = _shown_then_withdrawn(tmp_path)
    y = folder / "tournament.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("deadline: 2016-11-16T17:00:00+08:00",
                                                       "deadline: 2016-11-19T17:00:00+08:00"), encoding="utf-8")
    assert league(*run_args(folder, out, now="2016-11-19T09:00+08:00")).returncode in (0, 1)
    assert league(*run_args(folder, out, now="2016-11-20T09:00+08:00")).returncode in (0, 1)
    after = _groups(form)
    fresh = tmp_path / "fresh"
    assert league(*run_args(folder, fresh, now="2016-11-20T09:00+08:00")).returncode in (0, 1)
    assert after == _groups(fresh / "t2016-poker" / "forms" / "guandan-签到表.xlsx")
    assert after != {t: g for t, g in before.items() if t != victim}


def test_R2016_F1_a_deadline_corrected_to_a_later_time_already_past_keeps_the_groups(tmp_path: Path) -> None:
    """The office corrects the deadline to a later time that has passed already (17:00 →
    17:30 the same day; no registration reopened): the groups shown stand — 25 of 33 pairs
    were dealt into other groups, without a word (a review)."""
    folder, out, form, before, victim = _shown_then_withdrawn(tmp_path)
    y = folder / "tournament.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("deadline: 2016-11-16T17:00:00+08:00",
                                                       "deadline: 2016-11-16T17:30:00+08:00"), encoding="utf-8")
    assert league(*run_args(folder, out, now="2016-11-19T09:00+08:00")).returncode in (0, 1)
    assert _groups(form) == {t: g for t, g in before.items() if t != victim}
    # … and a night run again before the corrected deadline keeps them as well
    assert league(*run_args(folder, out, now="2016-11-16T17:10+08:00")).returncode in (0, 1)
    assert league(*run_args(folder, out, now="2016-11-20T09:00+08:00")).returncode in (0, 1)
    assert _groups(form) == {t: g for t, g in before.items() if t != victim}


def test_R2016_F1_a_seed_changed_after_the_groups_were_shown_is_said_and_put_back_restores_them(tmp_path: Path) -> None:
    """tournament.yaml's ``seed`` changed after a 签到表 showed the groups: they are dealt
    again with it and the office is told (TERMS_CHANGED, with the way back); the seed put
    back gives the groups first shown."""
    folder, out, form, before = _shown(tmp_path)
    y = folder / "tournament.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("seed: t2016-poker\n", "seed: t2016-poker-b\n"), encoding="utf-8")
    assert league(*run_args(folder, out, now="2016-11-18T09:00+08:00")).returncode in (0, 1)
    with open(out / "t2016-poker" / "data" / "issues.csv", encoding="utf-8") as f:
        said = [r for r in csv.DictReader(f) if r["code"] == "TERMS_CHANGED"]
    assert said and said[0]["severity"] == "warning" and "“t2016-poker”" in said[0]["message"] \
        and "改回" in said[0]["message"], said
    assert _groups(form) != before
    y.write_text(y.read_text(encoding="utf-8").replace("seed: t2016-poker-b\n", "seed: t2016-poker\n"), encoding="utf-8")
    assert league(*run_args(folder, out, now="2016-11-19T09:00+08:00")).returncode in (0, 1)
    assert _groups(form) == before
