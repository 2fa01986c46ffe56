"""A tournament folder without its secret.key: the office is told to restore it from the
backup — a new key makes every workbook already sent out unrecognisable (WRONG_BRANCH),
and ``league new`` refuses a folder with a tournament.yaml.  The message said
（用 league new 生成，或写入一段至少 16 个字符的随机文字）."""
from __future__ import annotations

from tests.hardening.common import copy_sample, league, run_args


def test_missing_secret_says_restore_it_from_the_backup(tmp_path):
    folder = copy_sample("t2011-court", tmp_path)
    (folder / "secret.key").unlink()
    r = league(*run_args(folder, tmp_path / "out"))
    assert r.returncode == 2, r.stdout + r.stderr
    said = r.stderr
    assert "secret.key" in said and "备份" in said and "恢复" in said, said
    assert "league new 生成" not in said
    assert "尚未发出" in said and "league template" in said and "--all" in said, said     # only then a new key, and how
    assert "token_hex" in said
