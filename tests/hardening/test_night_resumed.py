"""A run cut short (killed, the power gone) leaves the next run to finish the *same* night: the
night's id is kept in the unfinished mark (pipeline.lastrun.begin), and what that run changed
in the ledger together with its news (pipeline.store.Ledger.night_news) is still the night's
news.  Before, a run killed after publishing changed places left the next run finding the
places as published and saying nothing (exit 0): the office never learned that a prize changed
hands; the files it had taken in were "old", so a form's MAIL_DATE warning became a note; and
a said-once warning the last finished night had told was a warning again."""
from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

import pytest

from .common import copy_sample, league, run_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from mailedit import change_a_phone, edit_attachment  # noqa: E402


def _issues(out: Path) -> list[dict]:
    with open(out / "t2020-league" / "data" / "issues.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _flip_r5_table1(wb) -> None:
    ws = wb["成绩"]
    ws["F8"], ws["G8"] = 2, 0       # 龚俊杰 1 : 于建明 2 → 2 : 0 (test_places_changed)


@pytest.fixture(scope="module")
def night_one(tmp_path_factory):
    """t2020-league after its first night: (folder, out)."""
    base = tmp_path_factory.mktemp("night1")
    folder = copy_sample("t2020-league", base)
    out = base / "out"
    r = league(*run_args(folder, out))
    assert r.returncode == 0, r.stdout + r.stderr
    return folder, out


def _night_two(night_one, tmp_path: Path, add) -> tuple[Path, Path]:
    folder, out = night_one
    f, o = tmp_path / "t2020-league", tmp_path / "out"
    shutil.copytree(folder, f)
    shutil.copytree(out, o)
    add(f / "inbox")
    return f, o


def _correction(inbox: Path) -> None:
    edit_attachment(inbox / "11181655-checkers-r5-成绩表.eml", _flip_r5_table1,
                    save_as=inbox / "1120-checkers-r5-更正.eml", date="Fri, 20 Nov 2020 09:00:00 +0800")


@pytest.mark.parametrize("kill", [10, 20, 30])
def test_changed_places_are_said_by_the_run_that_finishes_the_night(night_one, tmp_path, kill):
    folder, out = _night_two(night_one, tmp_path, _correction)
    cut = league(*run_args(folder, out), env={"LEAGUE_KILL_AFTER": str(kill)})
    assert cut.returncode == 137, "not cut short: pick an earlier kill point"
    done = league(*run_args(folder, out))
    assert done.returncode == 1, done.stdout + done.stderr
    (changed,) = [i for i in _issues(out) if i["code"] == "PLACES_CHANGED"]
    assert changed["severity"] == "warning" and "一等奖 于建明 → 龚俊杰" in changed["message"]
    assert "跳棋已公布的名次和奖项有变" in done.stdout
    # the next night is another night: said once
    later = league(*run_args(folder, out))
    assert later.returncode == 0 and "警告 0 条" in later.stdout and "名次和奖项有变" not in later.stdout


def _resent_with_a_later_date(inbox: Path) -> None:
    edit_attachment(inbox / "1104-b01-报名表.eml", change_a_phone, save_as=inbox / "1106-b01-报名表.eml",
                    date="Mon, 1 Nov 2027 09:00:00 +0800")      # a Date after the file's own time


@pytest.mark.parametrize("kill", [8, 14])
def test_files_a_cut_run_took_in_are_still_new_to_the_night(night_one, tmp_path, kill):
    ref_folder, ref_out = _night_two(night_one, tmp_path / "ref", _resent_with_a_later_date)
    ref = league(*run_args(ref_folder, ref_out))
    (want,) = [i for i in _issues(ref_out) if i["code"] == "MAIL_DATE"]
    assert want["severity"] == "warning" and ref.returncode == 1

    folder, out = _night_two(night_one, tmp_path / "cut", _resent_with_a_later_date)
    cut = league(*run_args(folder, out), env={"LEAGUE_KILL_AFTER": str(kill)})
    assert cut.returncode == 137
    done = league(*run_args(folder, out))
    (got,) = [i for i in _issues(out) if i["code"] == "MAIL_DATE"]
    assert (got["severity"], done.returncode) == ("warning", 1), done.stdout
    def received(r):
        return next(line for line in r.stdout.splitlines() if line.startswith("收到文件"))
    assert received(done) == received(ref) and "本次新收 2 个" in received(ref)   # the mail and its form


@pytest.mark.parametrize("kill", [4, 12])
def test_a_unit_renamed_is_said_by_the_run_that_finishes_the_night(night_one, tmp_path, kill):
    def rename(inbox: Path) -> None:
        spec = inbox.parent / "tournament.yaml"
        text = spec.read_text(encoding="utf-8")
        assert "short: 行政一," in text
        spec.write_text(text.replace("short: 行政一,", "short: 行政壹,"), encoding="utf-8")

    folder, out = _night_two(night_one, tmp_path, rename)
    cut = league(*run_args(folder, out), env={"LEAGUE_KILL_AFTER": str(kill)})
    assert cut.returncode == 137
    league(*run_args(folder, out))
    (note,) = [i for i in _issues(out) if i["code"] == "UNIT_RENAMED"]
    assert "由 行政一 改为 行政壹" in note["message"] and note["branch"] == "b01"


def test_a_unit_renamed_by_the_cut_run_is_said_beside_one_renamed_since(night_one, tmp_path):
    def rename(old: str, new: str):
        def edit(inbox: Path) -> None:
            spec = inbox.parent / "tournament.yaml"
            spec.write_text(spec.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        return edit

    folder, out = _night_two(night_one, tmp_path, rename("short: 行政一,", "short: 行政壹,"))
    assert league(*run_args(folder, out), env={"LEAGUE_KILL_AFTER": "12"}).returncode == 137
    rename("short: 行政二,", "short: 行政贰,")(folder / "inbox")
    league(*run_args(folder, out))
    notes = sorted(i["branch"] for i in _issues(out) if i["code"] == "UNIT_RENAMED")
    assert notes == ["b01", "b02"], notes
