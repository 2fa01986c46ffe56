"""pipeline.quick: the entry point answers an unchanged night with the standard library only."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import quick
from pipeline.run import RunOptions, run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _collector_as_it_was():
    """quick.main pauses the cyclic collector for the rest of its process: not for the
    tests run after these in the same process."""
    import gc

    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


PROBE = r"""
import sys
sys.argv = ["league", *sys.argv[1:]]
from pipeline import quick
def raise_exit(code):            # instead of os._exit, so the probe can report
    raise SystemExit(code)
quick.hard_exit = raise_exit
try:
    quick.main()
except SystemExit as e:
    dc = sys.modules.get("dataclasses")
    print("EXIT", e.code, "click" in sys.modules, "pipeline.spec" in sys.modules, "pipeline.run" in sys.modules,
          dc is not None, getattr(dc, "exec", None) is not None)   # pipeline.dataclass_code installed
"""


def test_parse_run_accepts_only_the_plain_run_command(tmp_path):
    d = str(tmp_path)
    assert quick._parse_run(["run", d]) == (d, "output", "", True, 0.0)
    assert quick._parse_run(["run", "--out=o", d, "--no-pdf", "--now", "2025-01-01T00:00"]) == \
        (d, "o", "2025-01-01T00:00", False, 0.0)
    assert quick._parse_run(["run", d, "--wait", "5", "--pdf"]) == (d, "output", "", True, 5.0)
    for argv in (["run", d, "--imap", "imaps://x"], ["run", d, "--smtp=smtp://x"], ["run", d, "-h"],
                 ["run"], ["run", d, d], ["template", d], [], ["run", str(tmp_path / "missing")],
                 ["run", d, "--out"], ["run", d, "--wait=soon"]):
        assert quick._parse_run(argv) is None, argv


def test_unchanged_night_imports_nothing_but_the_standard_library(tmp_path):
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    first = run(RunOptions(folder=folder, out_parent=out, pdf=False))
    args = [sys.executable, "-c", PROBE, "run", str(folder), "--out", str(out), "--no-pdf"]
    p = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=120)
    code = 1 if first.needs_attention else 0
    assert p.stdout.strip().endswith(f"EXIT {code} False False False False False"), p.stdout + p.stderr
    assert "没有新文件，输出未变。" in p.stdout
    # a new inbox file: the quick check declines and the run goes on (pipeline.runcmd),
    # still without the command-line toolkit for the plain cron line
    (folder / "inbox" / "说明.txt").write_text("x", encoding="utf-8")
    p = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=300)
    # the compiled dataclass methods kept from earlier runs are used from the start of the run
    assert "EXIT 1 False True True True True" in p.stdout, p.stdout + p.stderr
    assert "本次新收 1 个" in p.stdout and "写出文件" in p.stderr


def test_the_cron_line_and_the_command_line_run_alike(tmp_path):
    """quick.main runs a plain ``league run`` through pipeline.runcmd without click; a
    line it does not take (here --now that is no date) goes to click, which says why."""
    from click.testing import CliRunner

    from pipeline.cli import main as cli_main

    folder = tmp_path / "t2016-poker"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    now = "2016-11-27T09:00"          # the day after the check-in (draw_at) and the three rounds
    plain = subprocess.run([sys.executable, "-c", PROBE, "run", str(folder), "--out", str(tmp_path / "a"),
                            "--no-pdf", "--now", now], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert "EXIT 0 False True True" in plain.stdout, plain.stdout + plain.stderr
    r = CliRunner().invoke(cli_main, ["run", str(folder), "--out", str(tmp_path / "b"), "--no-pdf", "--now", now])
    assert r.exit_code == 0 and "已完成" in r.stdout
    assert plain.stdout.replace(str(tmp_path / "a"), "OUT").rsplit("EXIT", 1)[0].strip() == \
        r.stdout.replace(str(tmp_path / "b"), "OUT").strip()
    bad = subprocess.run([sys.executable, "-c", PROBE, "run", str(folder), "--out", str(tmp_path / "c"),
                          "--now", "yesterday"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "EXIT 2 True" in bad.stdout and "--now 的时间格式不对" in bad.stderr, bad.stdout + bad.stderr


def test_a_naive_now_is_read_as_china_time_and_another_now_is_another_night(tmp_path):
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    import datetime as dt
    early = dt.datetime(2016, 11, 1, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    run(RunOptions(folder=folder, out_parent=out, pdf=False, now=early))
    argv = ["run", str(folder), "--out", str(out), "--no-pdf", "--now", "2016-11-01T09:00"]
    assert quick.quick_run(argv) is not None          # naive --now is read as +08:00, like the CLI
    assert quick.quick_run(argv[:-1] + ["2016-11-01T10:00"]) is None   # another --now: another night


def test_the_command_ends_without_teardown_and_keeps_its_exit_code_and_output(tmp_path):
    """quick.hard_exit: ``league run`` ends with os._exit after flushing — same exit code,
    same summary on stdout, everything on disk; ``sys.exit``'s meaning of its argument."""
    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    p = subprocess.run([sys.executable, "-m", "pipeline", "run", str(folder), "--out", str(out), "--no-pdf"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    again = run(RunOptions(folder=folder, out_parent=out, pdf=False))     # nothing new
    assert p.returncode == (1 if again.needs_attention else 0), p.stderr
    assert "本次新收" in p.stdout and (out / "t2016-poker" / ".lastrun.json").is_file()
    assert again.unchanged
    p = subprocess.run([sys.executable, "-m", "pipeline", "run", str(tmp_path / "nowhere"), "--out", str(out)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 2 and p.stderr.strip()
    for code, status, err in (("None", 0, ""), ("3", 3, ""), ("'坏了'", 1, "坏了")):
        p = subprocess.run([sys.executable, "-c", f"from pipeline.quick import hard_exit; print('输出', end=''); "
                            f"hard_exit({code}); print('not reached')"],
                           capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert (p.returncode, p.stdout, p.stderr.strip()) == (status, "输出", err)


def test_only_a_tournament_that_ran_before_gets_a_prestarted_worker(tmp_path, monkeypatch):
    """quick.main forks the prestarted worker (pipeline.parallel.prestart) only when the
    output folder has an earlier run's record: a first run's copies all go to its pool."""
    from pipeline import parallel

    folder, out = tmp_path / "t2016-poker", tmp_path / "out"
    shutil.copytree(ROOT / "sample_sheets" / "t2016-poker", folder)
    argv = ["run", str(folder), "--out", str(out), "--no-pdf"]
    assert not quick.ran_before(argv)
    calls = []
    monkeypatch.setattr(parallel, "prestart", lambda *m: calls.append(m) or False)

    def exit_(code):
        raise SystemExit(code)
    monkeypatch.setattr(quick, "hard_exit", exit_)
    monkeypatch.setattr(sys, "argv", ["league", *argv])
    for night in (1, 2):
        if night == 2:
            (folder / "inbox" / "说明.txt").write_text("x", encoding="utf-8")
        try:
            quick.main()
        except SystemExit:
            pass
        assert len(calls) == night - 1
    assert quick.ran_before(argv) and calls == [("pipeline.xlsx.returned",)]
    assert quick.ran_before(["run", str(folder), "--imap", "imaps://x"])      # unsure: as if it had


def test_a_fault_of_ours_exits_2_not_1(tmp_path, monkeypatch, capsys):
    """An exception the run did not expect is "could not run" (exit 2, with the traceback
    and a Chinese line for the office), not exit 1, which means "inputs need attention"
    and which a cron job cannot tell from an ordinary night."""
    import pipeline.run as R
    from pipeline.runcmd import EXIT_FAILED, run_command

    def broken(opts):
        raise RuntimeError("a bug")

    monkeypatch.setattr(R, "run", broken)
    assert run_command(tmp_path, tmp_path / "out", None, pdf=False) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "RuntimeError: a bug" in err and "内部出错" in err


def test_a_command_imports_its_modules_with_the_cyclic_collector_paused(monkeypatch):
    """quick.main pauses the collector before a command's imports (the methods' cache, the
    shared modules, the worker's fork): a collection every 700 new objects while modules
    are made finds no garbage.  The worker forked there inherits it paused."""
    import gc

    from pipeline import dataclass_code

    seen = []

    def install():
        seen.append(gc.isenabled())
        raise SystemExit(0)

    monkeypatch.setattr(dataclass_code, "install", install)
    monkeypatch.setattr(quick, "quick_run", lambda argv: None)
    monkeypatch.setattr(sys, "argv", ["league", "run", "nowhere"])
    gc.enable()
    try:
        quick.main()
    except SystemExit:
        pass
    finally:
        enabled_after = gc.isenabled()
    assert seen == [False] and not enabled_after
