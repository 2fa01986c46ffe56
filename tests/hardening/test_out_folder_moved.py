"""The output folder copied to a new ``--out`` (as the handbook advises when moving it): a
night with nothing new printed the old location — the summary kept in ``.lastrun.json``
named the folder it was written in (audit 38).  The unchanged night prints the folder it
was given."""
from __future__ import annotations

import shutil

from .common import copy_sample, league, run_args


def test_an_unchanged_night_prints_the_output_folder_it_was_given(tmp_path):
    folder = copy_sample("t2016-poker", tmp_path)
    old = tmp_path / "old-out"
    first = league(*run_args(folder, old))
    assert first.returncode in (0, 1), first.stderr
    assert first.stdout.splitlines()[0] == f"输出目录 {old / 't2016-poker'}"
    new = tmp_path / "new-out"
    shutil.copytree(old, new, symlinks=True)
    again = league(*run_args(folder, new))
    assert again.returncode == first.returncode, again.stderr
    assert "输出未变" in again.stdout, again.stdout        # the quick path answered
    assert again.stdout.splitlines()[0] == f"输出目录 {new / 't2016-poker'}", again.stdout
    assert str(old) not in again.stdout
    # given as the run gives it (pathlib's spelling): ./new-out/ → new-out/t2016-poker
    rel = league("run", folder, "--out", "./new-out/", "--no-pdf", "--now", "2030-01-01T00:00+08:00", cwd=tmp_path)
    assert rel.stdout.splitlines()[0] == "输出目录 new-out/t2016-poker", rel.stdout
