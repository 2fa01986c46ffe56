"""``league`` under a locale whose encoding cannot write Chinese (``LANG=en_US.ISO-8859-1``;
ASCII with ``LC_ALL=C PYTHONUTF8=0 PYTHONCOERCECLOCALE=0``): the command starts again in
Python's UTF-8 mode (:func:`pipeline.quick.main`), so Chinese file names are written and
every message is Chinese — not a traceback on the first output file name, nor messages as
``\\u9519\\u8bef`` escapes (an audit)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .common import ROOT, copy_sample, run_args

ASCII = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


def _league(*args: str | Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONIOENCODING", "LEAGUE_KILL_AFTER", "LANGUAGE") and not k.startswith("LC_")}
    env.update(ASCII, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pipeline", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, timeout=120)


def test_messages_under_an_ascii_locale_are_chinese() -> None:
    r = _league("run", "/nonexistent-league-folder")
    err = r.stderr.decode("utf-8")
    assert r.returncode != 0 and "错误" in err and "\\u" not in err, err


def test_a_run_under_an_ascii_locale_writes_its_chinese_files(tmp_path: Path) -> None:
    folder = copy_sample("t2011-court", tmp_path)
    out = tmp_path / "out"
    r = _league(*run_args(folder, out, now="2011-05-06T17:01+08:00"))
    err = r.stderr.decode("utf-8")
    assert r.returncode in (0, 1) and "Traceback" not in err, err[-2000:]
    assert "输出目录" in r.stdout.decode("utf-8")
    assert list((out / "t2011-court" / "returned").glob("*返回.xlsx"))
