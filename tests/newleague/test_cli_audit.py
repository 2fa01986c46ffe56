"""Audit of the `league new` / `questionnaire` / `template` commands: no overwrite, no
traceback, the contract's exit codes."""
from __future__ import annotations

import openpyxl
from click.testing import CliRunner

from pipeline import newleague
from pipeline.cli import main


def test_questionnaire_refuses_to_overwrite_a_filled_one(tmp_path):
    q = tmp_path / "问卷.xlsx"
    r = CliRunner().invoke(main, ["questionnaire", str(q)])
    assert r.exit_code == 0, r.output
    wb = openpyxl.load_workbook(q)
    wb[newleague.QUESTIONNAIRE_SHEET]["B3"] = "2026年教职工棋牌赛"
    wb.save(q)
    r = CliRunner().invoke(main, ["questionnaire", str(q)])
    assert r.exit_code == 2 and "已存在" in r.output and "--force" in r.output
    assert openpyxl.load_workbook(q)[newleague.QUESTIONNAIRE_SHEET]["B3"].value == "2026年教职工棋牌赛"
    r = CliRunner().invoke(main, ["questionnaire", str(q), "--force"])
    assert r.exit_code == 0, r.output
    assert openpyxl.load_workbook(q)[newleague.QUESTIONNAIRE_SHEET]["B3"].value is None


# -- 4. a file that cannot be read or written: a Chinese message, exit 2, nothing half-made --
def _filled_questionnaire(tmp_path):
    from .helpers import small_answers
    from .test_newleague import _questionnaire

    q, _ = _questionnaire(tmp_path, small_answers(2))
    return q


def test_new_that_cannot_write_says_so_and_leaves_nothing_behind(tmp_path, monkeypatch):
    import errno

    from pipeline.xlsx import registration

    q = _filled_questionnaire(tmp_path)
    folder = tmp_path / "t2026"

    def fail(*a, **k):
        raise OSError(errno.EROFS, "Read-only file system", str(folder / "templates" / "x.xlsx"))

    monkeypatch.setattr(registration, "write_all_templates", fail)
    r = CliRunner().invoke(main, ["new", str(folder), "--from-workbook", str(q)])
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert "Traceback" not in r.output and "x.xlsx" in r.output and "只读" in r.output, r.output
    assert not (folder / "tournament.yaml").exists() and not (folder / "secret.key").exists()
    monkeypatch.undo()
    r = CliRunner().invoke(main, ["new", str(folder), "--from-workbook", str(q)])      # the retry works
    assert r.exit_code == 0, r.output
    assert (folder / "tournament.yaml").is_file()


def test_new_keeps_what_was_in_the_folder_before(tmp_path, monkeypatch):
    from pipeline.xlsx import registration

    q = _filled_questionnaire(tmp_path)
    folder = tmp_path / "t2026"
    (folder / "inbox").mkdir(parents=True)
    (folder / "inbox" / "keep.txt").write_text("x", encoding="utf-8")
    monkeypatch.setattr(registration, "write_all_templates",
                        lambda *a, **k: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    r = CliRunner().invoke(main, ["new", str(folder), "--from-workbook", str(q)])
    assert r.exit_code == 2 and "磁盘已满" in r.output, r.output
    assert (folder / "inbox" / "keep.txt").is_file() and sorted(p.name for p in folder.iterdir()) == ["inbox"]


def test_template_with_an_unreadable_secret_says_so(tmp_path, monkeypatch):
    import errno
    from pathlib import Path

    from .helpers import small_answers

    folder = tmp_path / "t2026"
    newleague.create(folder, answers=small_answers(2))
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "secret.key":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    r = CliRunner().invoke(main, ["template", str(folder), "--all", "--out", str(tmp_path / "out")])
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert "secret.key" in r.output and "没有权限" in r.output and "Traceback" not in r.output


def test_new_at_end_of_input_says_so_in_chinese_exit_2(tmp_path):
    r = CliRunner().invoke(main, ["new", str(tmp_path / "t2026")], input="")
    assert r.exit_code == 2 and "Aborted" not in r.output and "已取消" in r.output, (r.exit_code, r.output)
    assert not (tmp_path / "t2026").exists()
