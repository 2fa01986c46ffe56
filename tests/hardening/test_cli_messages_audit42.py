"""Messages a clerk meets on the command line (an audit): click's several-suggestions form
was English, ``--wait abc`` said 「不是有效的float」, an emptied secret.key said only 「太短」
(inviting a new key, which makes every form already sent unrecognisable), and
``league questionnaire`` / ``league new`` on a read-only disk advised an option they do not
have (``--out``)."""
from __future__ import annotations

import errno
import os
import shutil

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.runcmd import os_reason
from pipeline.spec import SpecError, load_tournament

from .common import SAMPLES


def _said(*args: str) -> str:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 2, r.output
    return r.output


def test_several_suggestions_are_said_in_chinese(tmp_path):
    said = _said("run", str(tmp_path), "--nopdf")
    assert "Did you mean" not in said and "'--no-pdf'" in said and "是不是" in said, said


def test_a_number_that_is_not_one_is_said_in_chinese(tmp_path):
    said = _said("run", str(tmp_path), "--wait", "abc")
    assert "float" not in said and "'abc' 不是" in said and "数" in said, said


def test_an_empty_secret_key_says_restore_it_never_replace_it(tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(SAMPLES / "t2011-court", folder)
    (folder / "secret.key").write_bytes(b"")
    with pytest.raises(SpecError) as e:
        load_tournament(folder)
    said = str(e.value.lines() if hasattr(e.value, "lines") else e.value)
    assert "备份" in said and "恢复" in said and "不能另换" in said and "16" in said, said


@pytest.mark.parametrize("command", ["questionnaire", "new"])
def test_a_read_only_disk_is_said_without_an_option_the_command_lacks(command):
    e = OSError(errno.EROFS, os.strerror(errno.EROFS), "/ro/问卷.xlsx")
    said = os_reason(e, command)
    assert "--out" not in said and "只读" in said, said
    assert "--out" in os_reason(e)            # league run / league template have it
