"""The union office changed tournament.yaml's ``id`` after the captains' templates were sent,
before the first ``league run`` (an audit: t2026 → t2026qp).  Every returned form was refused
as another tournament's (TEMPLATE_MISMATCH) and 工会办公室下一步 said to send the forms back to
the captains, who had done nothing wrong.  The forms are still not taken (a copied folder
shares its secret.key: last year's forms verify too), but the office is told it is its own
matter — put the id back — and no form goes back to a captain, nor a refusal by mail."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from pipeline.run import RunOptions, run
from pipeline.timeutil import TZ

ROOT = Path(__file__).resolve().parents[2]


def test_forms_issued_under_the_former_id_ask_the_office_to_put_the_id_back(tmp_path: Path) -> None:
    folder = tmp_path / "t2016-poker"
    # (the forms only: before the first run nothing else has been issued)
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder, ignore=shutil.ignore_patterns("inbox-mistakes", "1126*"))
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("id: t2016-poker\n", "id: t2016-new\n", 1), encoding="utf-8")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2016, 11, 15, 10, 0, tzinfo=TZ)))
    forms = [i for i in report.issues if i.code in ("TEMPLATE_MISMATCH", "TOURNAMENT_ID_MISMATCH")]
    assert forms and {i.code for i in forms} == {"TOURNAMENT_ID_MISMATCH"}, forms
    assert all("改回 t2016-poker" in i.message for i in forms), forms[0].message
    steps = " ".join(report.next_steps)
    assert "退回各单位" not in steps and "告知发来的人" not in steps, report.next_steps
    (step,) = [s for s in report.next_steps if "t2016-poker" in s]
    assert "改回 t2016-poker" in step and "无需退回" in step and f"{len(forms)} 份" in step, step

    from pipeline.mail.receipts import build_receipts

    held = {i.source for i in forms}
    assert not [r for r in build_receipts(report.state, tmp_path / "out" / "t2016-new") if r.sha256 in held]
    # the unit's page asks its captain for nothing either
    from pipeline.render.site_vm import branch_vm

    page = branch_vm(report.state, forms[0].branch)
    assert not any("请修改" in s or "后重新发送" in s for s in page.next_steps), page.next_steps
    assert any("无需修改" in s for s in page.next_steps), page.next_steps

    # the office puts the id back, as told: the same forms are taken (the run under the changed
    # id took nothing and drew nothing — no "请把 id 改回 t2016-new" for the id it was told to restore)
    spec.write_text(spec.read_text(encoding="utf-8").replace("id: t2016-new\n", "id: t2016-poker\n", 1), encoding="utf-8")
    again = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                           now=dt.datetime(2016, 11, 15, 10, 5, tzinfo=TZ)))
    assert again.out_dir.name == "t2016-poker" and len(again.accepted_branches) == len(forms)
    assert not [i for i in again.issues if i.code in ("TEMPLATE_MISMATCH", "TOURNAMENT_ID_MISMATCH")]


def test_no_returned_copy_of_a_form_issued_under_the_former_id(tmp_path: Path) -> None:
    """A form refused as TOURNAMENT_ID_MISMATCH is the office's matter: the captain has nothing
    to correct, so no annotated copy is written for the captain (returned/) nor linked from the
    unit's page — a copy marked with an error said the opposite of “无需修改”.  The form itself
    is kept (received/), and taken once the id is back."""
    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder, ignore=shutil.ignore_patterns("inbox-mistakes", "1126*"))
    spec = folder / "tournament.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("id: t2016-poker\n", "id: t2016-new\n", 1), encoding="utf-8")
    report = run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False,
                            now=dt.datetime(2016, 11, 15, 10, 0, tzinfo=TZ)))
    held = {i.source for i in report.issues if i.code == "TOURNAMENT_ID_MISMATCH"}
    assert held
    out = tmp_path / "out" / "t2016-new"
    assert not list((out / "returned").glob("*.xlsx"))
    mine = [s for s in report.state.submissions if s.sha256 in held]
    assert mine and not [s.returned_path for s in mine if s.returned_path]
    assert all(list((out / "received").glob(f"{s.sha256}.*")) for s in mine)
    from pipeline.render.site_vm import branch_vm

    page = branch_vm(report.state, mine[0].branch)
    assert not page.returned_href and not any(f.returned_href for f in page.submissions), page
