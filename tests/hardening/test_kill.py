"""A run killed at any point (SIGKILL-like ``os._exit`` at a write, via the
``LEAGUE_KILL_AFTER`` test hook in ``pipeline.fsutil.kill_point``, plus a few real
SIGKILLs after a delay) leaves a consistent ledger, and the next run finishes with
outputs byte-identical to an uninterrupted run's."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .common import ROOT, copy_sample, diff_trees, ledger_problems, league, run_args, tree_hashes

SAMPLE = "t2016-poker"
# A full t2016-poker run has ~70 kill points in its own process (its returned copies and
# result sheets are written by a pool worker, whose death is tested in test_parallel):
# (every 9th point since session 40, 6th before: the chain's runs took 100 s of a CI run held to 10 minutes; the single
# kills below still stop at the first few points one by one)
CHAIN_STEP = 9           # ~8 kills in a chain
CHAIN_KILLS = 5          # fewer would mean kill points went missing from the batch
INDEPENDENT = (1, 3, 30, 66)   # single kills, each resumed on its own


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """An uninterrupted run: (tournament folder, output hashes)."""
    base = tmp_path_factory.mktemp("kill")
    folder = copy_sample(SAMPLE, base)
    out = base / "out"
    r = league(*run_args(folder, out))
    assert r.returncode in (0, 1), r.stderr
    (tid,) = [p.name for p in out.iterdir()]
    return folder, tree_hashes(out / tid)


def _out_dir(out: Path) -> Path:
    (tid,) = [p.name for p in out.iterdir()]
    return out / tid


def test_killed_again_and_again_until_done(baseline, tmp_path):
    """Each run dies after CHAIN_STEP writes/commits of its own, the next carries on from
    there; the kills walk through the whole batch (intake, publish, every output)."""
    folder, want = baseline
    out = tmp_path / "out"
    kills = 0
    for _ in range(200):
        r = league(*run_args(folder, out), env={"LEAGUE_KILL_AFTER": str(CHAIN_STEP)})
        if r.returncode != 137:
            break
        kills += 1
        problems = ledger_problems(_out_dir(out))
        assert not problems, f"ledger after kill {kills}: {problems}"
    else:
        pytest.fail("the chain of killed runs makes no progress")
    assert r.returncode in (0, 1), r.stderr
    assert kills >= CHAIN_KILLS, f"only {kills} kills before the run completed"
    diff = diff_trees(want, tree_hashes(_out_dir(out)))
    assert not diff, f"outputs differ from an uninterrupted run: {diff[:10]}"


def _killed_then_resumed(folder: Path, work: Path, kill_after: int):
    out = work / "out"
    first = league(*run_args(folder, out), env={"LEAGUE_KILL_AFTER": str(kill_after)})
    after_kill = ledger_problems(_out_dir(out))
    second = league(*run_args(folder, out))
    return first.returncode, after_kill, second, _out_dir(out)


def test_single_kill_then_resume(baseline, tmp_path):
    folder, want = baseline

    def one(n: int):
        work = tmp_path / f"k{n}"
        work.mkdir()
        return n, _killed_then_resumed(folder, work, n)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(one, INDEPENDENT))
    for n, (rc, after_kill, second, out) in results:
        assert rc == 137, f"run with LEAGUE_KILL_AFTER={n} was not killed (exit {rc})"
        assert not after_kill, f"ledger after kill at write {n}: {after_kill}"
        assert second.returncode in (0, 1), f"resume after kill at {n}: {second.stderr}"
        assert not ledger_problems(out)
        diff = diff_trees(want, tree_hashes(out))
        assert not diff, f"kill at write {n}: outputs differ from an uninterrupted run: {diff[:10]}"


def test_real_sigkill_after_delays(baseline, tmp_path):
    """Real SIGKILLs at increasing delays, then a resume."""
    folder, want = baseline
    for i, delay in enumerate((0.4, 1.0)):
        out = tmp_path / f"s{i}"
        env = {k: v for k, v in os.environ.items() if k != "LEAGUE_KILL_AFTER"}
        env["PYTHONPATH"] = str(ROOT)
        p = subprocess.Popen([sys.executable, "-m", "pipeline", *run_args(folder, out)], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait()
        r = league(*run_args(folder, out))
        assert r.returncode in (0, 1), r.stderr
        (tid,) = [q.name for q in out.iterdir()]
        assert not ledger_problems(out / tid)
        diff = diff_trees(want, tree_hashes(out / tid))
        assert not diff, f"SIGKILL after {delay}s: {diff[:10]}"


def test_a_run_killed_after_taking_in_a_form_is_not_answered_by_the_night_before(tmp_path):
    """Night 2 takes in g04's form and is killed before its outputs; the office then takes the
    mail out of the inbox.  Night 3's inbox and spec are night 1's, so the quick check
    answered "没有新文件，输出未变" — while the ledger held g04's form (received files are kept)
    that no output showed, night after night.  A run that did not finish leaves a mark, and
    the next night runs in full."""
    folder = copy_sample(SAMPLE, tmp_path)
    out = tmp_path / "out"
    mail = folder / "inbox" / "1111-g04-报名表.eml"
    aside = tmp_path / mail.name
    mail.rename(aside)
    r = league(*run_args(folder, out))
    assert r.returncode in (0, 1), r.stderr
    entries = _out_dir(out) / "data" / "entries.csv"
    assert ",g04," not in entries.read_text("utf-8")
    aside.rename(mail)
    r = league(*run_args(folder, out), env={"LEAGUE_KILL_AFTER": "6"})      # g04's mail and form recorded
    assert r.returncode == 137
    with sqlite3.connect(_out_dir(out) / "ledger.sqlite") as con:
        assert con.execute("select count(*) from received where file_name like '%g04%'").fetchone()[0] >= 1
    mail.rename(aside)
    r = league(*run_args(folder, out))
    assert r.returncode in (0, 1), r.stderr
    assert "输出未变" not in r.stdout
    assert ",g04," in entries.read_text("utf-8")
    assert not (_out_dir(out) / ".run-unfinished").exists()
    r = league(*run_args(folder, out))          # and then an unchanged night is one again
    assert "输出未变" in r.stdout, r.stdout


def test_a_fork_servers_worker_goes_when_the_run_it_works_for_is_killed():
    """The PDF workers are a fork server's children: watching their parent alone, they (140–260 MB
    each) and the server outlived a killed run for good, holding its output pipes open.  A
    worker watching the run (``worker_init(None, run)``) exits within a second or so of it."""
    from pipeline import parallel

    run = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    pid = os.fork()
    if pid == 0:                                      # the worker: its parent lives on
        try:
            parallel._watch_parent(os.getppid(), run.pid)
        finally:
            os._exit(0)                               # (never here: _watch_parent exits 1)
    try:
        time.sleep(0.8)
        assert os.waitpid(pid, os.WNOHANG) == (0, 0)  # the run alive: the worker waits
        run.kill()
        run.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                assert os.waitstatus_to_exitcode(status) == 1
                break
            time.sleep(0.1)
        else:
            pytest.fail("the worker outlived the run it works for")
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        run.kill()


def test_a_worker_leaves_ctrl_c_to_the_run():
    """Ctrl-C reaches the whole process group: a PDF worker's KeyboardInterrupt printed a
    traceback over the run's 已中断 message.  A worker ignores it (and goes when the run does)."""
    from pipeline import parallel

    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            parallel.worker_init(os.getppid())
            os.write(w, b"1" if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else b"0")
        finally:
            os._exit(0)
    os.close(w)
    try:
        assert os.read(r, 1) == b"1"
    finally:
        os.close(r)
        os.waitpid(pid, 0)


def test_a_worker_goes_when_the_run_has_ended_but_is_not_reaped_yet():
    """A run that ended is a zombie until its parent reaps it, and cron reads the run's output
    to its end before reaping: workers that took the zombie for a live run held the output
    open, and cron and the workers waited for each other for good (after a Ctrl-C)."""
    from pipeline import parallel

    run = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:          # ended, not reaped: a zombie
        with open(f"/proc/{run.pid}/stat", "rb") as f:
            if f.read().rpartition(b")")[2].split()[0] == b"Z":
                break
        time.sleep(0.05)
    try:
        assert not parallel._alive(run.pid)
        assert parallel._alive(os.getpid())
    finally:
        run.wait()


def test_ctrl_c_does_not_wait_for_the_jobs_of_a_pool():
    """Workers leave Ctrl-C to the run; the run's pool then stops them instead of waiting for
    their jobs (two 8-second jobs delayed 已中断 by 8 seconds, from a review)."""
    code = (f"import sys, time, functools\nsys.path.insert(0, {str(ROOT)!r})\n"
            "from pipeline.parallel import Jobs\n"
            "def slow(n):\n    time.sleep(8)\n    return n\n"
            "t = time.time()\n"
            "try:\n"
            "    with Jobs(min_parallel=1, max_workers=2) as jobs:\n"
            "        hs = [jobs.add(functools.partial(slow, i)) for i in range(2)]\n"
            "        jobs.start()\n"
            "        print('started', flush=True)\n"
            "        for h in hs:\n            h.result()\n"
            "except KeyboardInterrupt:\n"
            "    print(f'interrupted after {time.time() - t:.1f}', flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", code], start_new_session=True, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.0)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=30)
    took = float(out.split("interrupted after ")[1])
    assert took < 5, out
    assert "Traceback" not in err, err
