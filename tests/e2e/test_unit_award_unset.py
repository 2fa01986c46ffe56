"""R2015-A1: the awards by unit are the ones configured.  With no unit award (no
``branch_award`` in tournament.yaml), the 评奖表 still said "按单位颁发的奖项（组织奖）只填
“单位”" and a row 组织奖 | <unit> was taken and printed on a certificate; now the form says
nothing of an award by unit and such a row is refused like any award not configured, at its
奖项 cell (handbook: 评奖表 — only configured award names are accepted)."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2030, 1, 1, tzinfo=TZ)


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_R2015_A1_no_unit_award_configured_refuses_a_unit_award(tmp_path: Path) -> None:
    folder = tmp_path / "t2015-tcm"
    shutil.copytree(ROOT / "sample_sheets" / "t2015-tcm", folder, ignore=shutil.ignore_patterns("inbox-mistakes"))
    spec = folder / "tournament.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "\nbranch_award: 组织奖\n" in text
    spec.write_text(text.replace("\nbranch_award: 组织奖\n", "\n"), encoding="utf-8")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False, now=NOW))
    out = tmp_path / "out" / "t2015-tcm"
    assert not [a for a in _rows(out / "data" / "awards.csv") if a["award"] == "组织奖"]
    assert not [a for a in report.state.branch_awards if a.award == "组织奖"]
    refused = [i for i in _rows(out / "data" / "issues.csv") if "组织奖" in i["message"]]
    assert refused and all(i["code"] == "BAD_VALUE" and i["severity"] == "error" and i["cell"].startswith("A")
                           for i in refused), refused
    assert "不是本次比赛设定的奖项" in refused[0]["message"] and "branch_award" in refused[0]["message"]
    from python_calamine import CalamineWorkbook
    form = CalamineWorkbook.from_path(str(out / "forms" / "评奖表.xlsx")).get_sheet_by_name("评奖").to_python()
    said = " ".join(str(v) for row in form[:4] for v in row if v)       # (a Traditional-script league)
    assert "每行一個獲獎者" in said and not any(w in said for w in ("组织奖", "組織獎", "按單位頒發", "按单位颁发"))
