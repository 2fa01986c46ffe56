"""R2016-F1/F2: once a 签到表 after the deadline has shown the groups (the branch chairs'
lot), a pair withdrawn afterwards (``withdrawn`` in tournament.yaml) drops out of its group:
no other pair changes group, on the new form or in round 1."""
from __future__ import annotations

import csv
from pathlib import Path

from tests.hardening.common import copy_sample, league, run_args


def _groups(form: Path) -> dict[str, str]:
    import openpyxl

    ws = openpyxl.load_workbook(form)["签到"]
    head = [c.value for c in ws[4]]
    return {r[head.index("队名")]: r[head.index("组别")] for r in ws.iter_rows(min_row=5, values_only=True) if r[0]}


def test_R2016_F1_a_withdrawal_after_the_groups_were_shown_moves_no_other_pair(tmp_path: Path) -> None:
    import openpyxl

    folder = copy_sample("t2016-poker", tmp_path)
    for p in (folder / "inbox").iterdir():
        if p.name.startswith("1126"):
            p.unlink()
    out = tmp_path / "out"
    form = out / "t2016-poker" / "forms" / "guandan-签到表.xlsx"
    assert league(*run_args(folder, out, now="2016-11-17T09:00+08:00")).returncode in (0, 1)
    before = _groups(form)
    victim = sorted(before)[0]
    y = folder / "tournament.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("    game: guandan\n", f"    game: guandan\n    withdrawn: [{victim}]\n"),
                 encoding="utf-8")
    assert league(*run_args(folder, out, now="2016-11-18T09:00+08:00")).returncode in (0, 1)
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
