"""pipeline.parallel: workbooks written on a forked pool are the ones written in-process."""
from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path

import pytest

from pipeline import parallel
from pipeline.run import RunOptions, run

ROOT = Path(__file__).resolve().parents[2]


def _square(x: int) -> int:
    return x * x


def _fail() -> None:
    raise ValueError("bad job")


def test_jobs_run_on_a_pool_in_submission_order():
    with parallel.Jobs(min_parallel=2, max_workers=2) as jobs:
        hs = [jobs.add(functools.partial(_square, i)) for i in range(20)]
        jobs.start()
        assert jobs.parallel
        assert [h.result() for h in hs] == [i * i for i in range(20)]
    assert parallel._JOBS == []


def test_closures_reach_the_workers_without_pickling():
    seen = {"pid": os.getpid()}
    with parallel.Jobs(min_parallel=2, max_workers=2) as jobs:
        hs = [jobs.add(lambda: os.getpid()) for _ in range(4)]   # a lambda does not pickle
        jobs.start()
        assert all(h.result() != seen["pid"] for h in hs)


def test_a_failing_job_raises_at_its_result_and_the_others_finish():
    with parallel.Jobs(min_parallel=2, max_workers=2) as jobs:
        ok = jobs.add(functools.partial(_square, 3))
        bad = jobs.add(_fail)
        jobs.start()
        with pytest.raises(ValueError, match="bad job"):
            bad.result()
        assert ok.result() == 9


def test_small_batches_and_one_worker_run_in_process(monkeypatch):
    with parallel.Jobs(min_parallel=16) as jobs:
        h = jobs.add(lambda: os.getpid())
        jobs.start()
        assert not jobs.parallel and h.result() == os.getpid()
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    assert parallel.workers() == 1
    with parallel.Jobs(min_parallel=2) as jobs:
        hs = [jobs.add(lambda: os.getpid()) for _ in range(4)]
        jobs.start()
        assert not jobs.parallel and {h.result() for h in hs} == {os.getpid()}


def test_run_outputs_are_identical_on_the_pool(tmp_path, monkeypatch):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    run(RunOptions(folder=folder, out_parent=tmp_path / "seq", pdf=False))
    monkeypatch.setenv("LEAGUE_WORKERS", "2")
    monkeypatch.setattr(parallel.Jobs.__init__, "__defaults__", (2, None, False))   # pool even for a small league
    started = []
    real_start = parallel.Jobs.start
    monkeypatch.setattr(parallel.Jobs, "start", lambda self: (real_start(self), started.append((self.parallel, len(self._fns)))))
    from pipeline import run as run_mod
    monkeypatch.setattr(run_mod, "POOL_EVENTS_FROM", 0)                      # events on the pool too
    monkeypatch.setattr(run_mod, "EARLY_COPIES_BELOW", 0)                    # the copies with the sheets
    on_pool = []
    real_advance = run_mod.advance_on_pool
    monkeypatch.setattr(run_mod, "advance_on_pool", lambda *a: on_pool.append(real_advance(*a)) or on_pool[-1])
    run(RunOptions(folder=folder, out_parent=tmp_path / "par", pdf=False))
    # intake (which reads the new workbooks too), events, then workbooks; the reading
    # stage finds every reading made and has nothing left for a pool
    assert [par for par, n in started if n >= 2] == [True] * 3
    assert on_pool and on_pool[0] >= 2

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
                if p.is_file() and p.suffix in (".xlsx", ".html", ".csv")}
    seq, par = files(tmp_path / "seq"), files(tmp_path / "par")
    assert any(k.startswith("t2020-league/returned/") for k in par)
    assert any(k.startswith("t2020-league/results/") for k in par)
    assert seq == par
    # the inbox taken in on the pool is recorded as in one process: same files, same order
    from pipeline.store import Ledger
    with Ledger(tmp_path / "seq" / "t2020-league") as a, Ledger(tmp_path / "par" / "t2020-league") as b:
        assert a.received() == b.received() and any(r.kind == "mail" for r in a.received())


def _die_in_worker(parent: int) -> int:
    if os.getpid() != parent:
        os._exit(1)          # a worker killed mid-job (e.g. by the OOM killer)
    return 7


def test_a_dead_worker_is_replaced_by_doing_the_job_here():
    parent = os.getpid()
    with parallel.Jobs(min_parallel=2, max_workers=2) as jobs:
        hs = [jobs.add(functools.partial(_die_in_worker, parent)) for _ in range(3)]
        jobs.start()
        assert jobs.parallel
        assert [h.result() for h in hs] == [7, 7, 7]


def test_no_process_pool_means_in_process(monkeypatch):
    class Refused:
        def __init__(self, *a, **k):
            raise OSError(38, "Function not implemented")
    import concurrent.futures
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Refused)   # imported where a pool is made
    with parallel.Jobs(min_parallel=2, max_workers=2) as jobs:
        hs = [jobs.add(lambda: os.getpid()) for _ in range(4)]
        jobs.start()
        assert not jobs.parallel and {h.result() for h in hs} == {os.getpid()}


KILLED_PARENT = r'''
import sys, time, pathlib
from pipeline import parallel
from pipeline.store import RunLock
root = pathlib.Path(sys.argv[1])
def job(i):
    (root / f"started-{i}").write_text(str(__import__("os").getpid()))
    time.sleep(60)
with RunLock(root):
    with parallel.Jobs(min_parallel=2, max_workers=2) as jobs:
        hs = [jobs.add(lambda i=i: job(i)) for i in range(4)]
        jobs.start()
        hs[0].result()
'''


def test_a_killed_run_leaves_no_worker_holding_the_lock(tmp_path):
    """SIGKILL of a run whose workers are busy: the next run gets the lock at once, and the
    orphaned workers exit by themselves (they closed the lock and watch their parent)."""
    import signal
    import subprocess
    import sys
    import time

    from pipeline.store import RunLock

    p = subprocess.Popen([sys.executable, "-c", KILLED_PARENT, str(tmp_path)], cwd=ROOT)
    deadline = time.monotonic() + 30
    while len(list(tmp_path.glob("started-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    pids = [int(f.read_text()) for f in tmp_path.glob("started-*")]
    assert len(pids) == 2
    p.send_signal(signal.SIGKILL)
    p.wait()
    with RunLock(tmp_path, wait=0):      # Busy here would mean a worker kept the lock
        pass

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in pids)


def test_the_costliest_jobs_start_first_and_results_keep_their_order(monkeypatch):
    """Jobs.add(cost=…): the pool's queue starts with the costliest job (a large result
    sheet must not be the one job left running at the end); handles still give each job's
    own result."""
    monkeypatch.setenv("LEAGUE_WORKERS", "2")
    submitted = []
    from concurrent.futures import ProcessPoolExecutor
    real_submit = ProcessPoolExecutor.submit
    monkeypatch.setattr(ProcessPoolExecutor, "submit",
                        lambda self, fn, *a: (submitted.append(a[0]), real_submit(self, fn, *a))[1])
    with parallel.Jobs(min_parallel=2) as jobs:
        hs = [jobs.add(functools.partial(_square, i), cost=c) for i, c in enumerate([1, 5, 0, 5, 9])]
        jobs.start()
        assert jobs.parallel
        assert [h.result() for h in hs] == [0, 1, 4, 9, 16]
    assert submitted == [4, 1, 3, 0, 2]


def test_a_busy_caller_keeps_a_core_for_itself_on_small_batches():
    """Jobs(busy_caller=True): a worker for every two jobs, at most one per core."""
    for n, busy, size in ((2, True, 1), (3, True, 1), (4, True, 2), (40, True, 2), (2, False, 2)):
        with parallel.Jobs(min_parallel=2, max_workers=2, busy_caller=busy) as jobs:
            hs = [jobs.add(functools.partial(_square, i)) for i in range(n)]
            jobs.start()
            assert jobs.parallel and jobs._pool._max_workers == size, (n, busy)
            assert [h.result() for h in hs] == [i * i for i in range(n)]


# ---- the worker forked at the start of a run (parallel.prestart) -------------------------

def _pid_and_loaded(module: str) -> tuple[int, bool]:
    import sys
    return os.getpid(), module in sys.modules


_WARMED: list[int] = []


def _warm() -> None:
    _WARMED.append(os.getpid())


def _warmed() -> list[int]:
    return list(_WARMED)


def _die_unless(parent: int) -> int:
    if os.getpid() != parent:
        os._exit(1)
    return 7


@pytest.fixture
def no_prestarted(monkeypatch):
    monkeypatch.setenv("LEAGUE_WORKERS", "2")
    yield
    parallel.discard_prestarted()


def test_prestart_forks_one_worker_that_imports_the_modules_and_runs_named_jobs(no_prestarted):
    import sys
    probe = "xml.dom.minidom"
    assert probe not in sys.modules          # the worker imports it, not this process
    assert parallel.prestart(probe)
    assert not parallel.prestart(probe)      # one at a time
    with parallel.take_prestarted() as pre:
        pid, loaded = pre.submit(__name__, "_pid_and_loaded", probe).result()
        assert pid != os.getpid() and loaded
        assert pre.submit(__name__, "_square", 12).result() == 144
        assert pre.submit("gc", "isenabled").result() is False      # as a run's: after_job collects
        # what its imports made is set aside for good (gc.freeze), not walked by a collection
        # that frees nothing (20 ms after openpyxl's, on the path of the night's copies)
        assert pre.submit("gc", "get_freeze_count").result() > 1000
        with pytest.raises(ValueError, match="bad job"):
            pre.submit(__name__, "_fail").result()
    assert parallel.take_prestarted() is None and probe not in sys.modules


def test_prestart_calls_a_warm_up_function_named_after_a_colon(no_prestarted):
    assert parallel.prestart(f"{__name__}:_warm")
    with parallel.take_prestarted() as pre:
        pid, _ = pre.submit(__name__, "_pid_and_loaded", "json").result()
        assert pre.submit(__name__, "_warmed").result() == [pid]
    assert _WARMED == []          # not here


def test_prestart_needs_two_cores(monkeypatch):
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    assert not parallel.prestart("json") and parallel.take_prestarted() is None


def test_a_dead_prestarted_worker_means_the_job_runs_here(no_prestarted):
    assert parallel.prestart()
    with parallel.take_prestarted() as pre:
        assert pre.submit(__name__, "_die_unless", os.getpid()).result() == 7
        assert pre.submit(__name__, "_square", 5).result() == 25     # the pool is broken: here too


def test_a_refused_prestart_is_no_worker(no_prestarted, monkeypatch):
    def refused():
        raise OSError(11, "Resource temporarily unavailable")
    before = set(os.listdir("/proc/self/fd"))
    monkeypatch.setattr(os, "fork", refused)
    assert not parallel.prestart("json") and parallel.take_prestarted() is None
    assert set(os.listdir("/proc/self/fd")) == before        # its pipes are closed again


def test_the_prestarted_worker_is_forked_without_a_process_pool(no_prestarted):
    """prestart forks with os.fork and pipes: a night with little to do never imports
    multiprocessing or concurrent.futures (30 ms before the fork could start)."""
    import subprocess
    import sys
    code = ("import sys, os; os.environ['LEAGUE_WORKERS'] = '2'\n"
            "from pipeline import parallel\n"
            "assert parallel.prestart('json')\n"
            "with parallel.take_prestarted() as pre:\n"
            "    assert pre.submit('os', 'getpid').result() != os.getpid()\n"
            "print(sorted(m for m in ('multiprocessing', 'concurrent.futures') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_prestarted_worker_answers_in_order_and_its_answers_are_kept_for_later(no_prestarted):
    assert parallel.prestart()
    with parallel.take_prestarted() as pre:
        hs = [pre.submit(__name__, "_square", i) for i in range(5)]
        assert hs[3].result() == 9                 # reads 0..3; 0..2 kept
        assert [h.result() for h in hs] == [0, 1, 4, 9, 16]
        big = pre.submit(__name__, "_echo", "字" * 300_000)   # more than a pipe holds, both ways
        assert big.result() == "字" * 300_000


def test_leaving_the_block_waits_for_jobs_nobody_asked_for(no_prestarted, tmp_path):
    assert parallel.prestart()
    with parallel.take_prestarted() as pre:
        pid = pre.pid
        pre.submit(__name__, "_write_later", str(tmp_path / "late.txt"))
    assert (tmp_path / "late.txt").read_text() == "done"     # written before the block was left
    assert pid in parallel._UNREAPED or _reaped(pid)        # its exit not waited for: reaped later
    _gone_soon(pid)
    parallel.reap()
    assert pid not in parallel._UNREAPED


def _reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def _echo(x):
    return x


def _write_later(path: str) -> None:
    import time
    time.sleep(0.3)
    Path(path).write_text("done")


def test_a_run_that_needs_no_early_copies_lets_the_prestarted_worker_go(tmp_path, no_prestarted):
    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    assert parallel.prestart()
    worker = parallel._PRESTARTED[0].pid
    run(RunOptions(folder=folder, out_parent=tmp_path / "out", pdf=False))   # a cold run: its copies go with the pool
    assert parallel.take_prestarted() is None
    _gone_soon(worker)       # it exits by itself, having nothing to do


def _gone_soon(pid: int) -> None:
    """Wait (30 s at most) for child ``pid`` to exit, reaping it."""
    import time
    deadline = time.monotonic() + 30
    while True:
        try:
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                return
        except ChildProcessError:       # reaped already
            return
        assert time.monotonic() < deadline, f"worker {pid} still running"
        time.sleep(0.05)


# ---- a night's few returned copies side by side (parallel.fork_map, Prestarted.submit_map) ----

def _pid_of(x: int) -> tuple[int, int]:
    if x == 13:
        raise ValueError("unlucky 13")
    return x * x, os.getpid()


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("no")


def _raise_unpicklable(x: int) -> int:
    raise _Unpicklable(f"item {x}")


def _die_in_child(parent: int, x: int) -> int:
    if os.getpid() != parent:
        os._exit(3)
    return -x


def test_fork_map_shares_the_items_between_this_process_and_a_fork(monkeypatch):
    monkeypatch.setenv("LEAGUE_WORKERS", "2")
    got = parallel.fork_map(_pid_of, [1, 2, 3, 13, 5])
    assert [v[0] for ok, v in got if ok] == [1, 4, 9, 25]
    assert not got[3][0] and isinstance(got[3][1], ValueError) and "unlucky" in str(got[3][1])
    pids = {v[1] for ok, v in got if ok}
    assert len(pids) == 2 and os.getpid() in pids                 # here and in one fork
    # one core, or fork=False: all here, in order
    assert {v[1] for ok, v in parallel.fork_map(_pid_of, [1, 2, 3], fork=False)} == {os.getpid()}
    monkeypatch.setenv("LEAGUE_WORKERS", "1")
    assert {v[1] for ok, v in parallel.fork_map(_pid_of, [1, 2, 3])} == {os.getpid()}


def test_fork_map_redoes_a_dead_childs_items_and_names_what_does_not_pickle(monkeypatch):
    monkeypatch.setenv("LEAGUE_WORKERS", "2")
    import functools
    assert parallel.fork_map(functools.partial(_die_in_child, os.getpid()), [1, 2, 3, 4]) == \
        [(True, -1), (True, -2), (True, -3), (True, -4)]
    got = parallel.fork_map(_raise_unpicklable, [1, 2])
    assert isinstance(got[0][1], _Unpicklable)                     # made here: the exception itself
    assert isinstance(got[1][1], RuntimeError) and "_Unpicklable: item 2" in str(got[1][1])   # from the fork


def test_the_prestarted_worker_makes_a_batch_side_by_side_leaving_a_core_to_the_run(no_prestarted, monkeypatch):
    monkeypatch.setenv("LEAGUE_WORKERS", "3")        # the run's process, the worker and one fork
    assert parallel.prestart()
    with parallel.take_prestarted() as pre:
        worker = pre.submit(__name__, "_pid_and_loaded", "json").result()[0]
        parts = pre.submit_map(__name__, "_pid_of", [(2,), (3,), (13,)])     # items 0 and 2 on the worker, 1 on its fork
        assert parts[0].result() == (4, worker)
        assert parts[1].result()[0] == 9 and parts[1].result()[1] not in (worker, os.getpid())
        with pytest.raises(ValueError, match="unlucky"):
            parts[2].result()
    # two cores: the run works on one, the worker makes the batch one by one on the other
    monkeypatch.setenv("LEAGUE_WORKERS", "2")
    assert parallel.prestart()
    with parallel.take_prestarted() as pre:
        worker = pre.submit(__name__, "_pid_and_loaded", "json").result()[0]
        parts = pre.submit_map(__name__, "_pid_of", [(2,), (3,)])
        assert [p.result() for p in parts] == [(4, worker), (9, worker)]


def test_a_batch_whose_worker_died_is_made_here_one_by_one(no_prestarted):
    assert parallel.prestart()
    with parallel.take_prestarted() as pre:
        with pytest.raises(Exception):
            pre.submit(__name__, "_die_unless", -1).future.result()  # the worker dies
        parts = pre.submit_map(__name__, "_pid_of", [(3,), (5,)])
        assert [p.result() for p in parts] == [(9, os.getpid()), (25, os.getpid())]


def test_a_resent_form_and_its_units_earlier_form_are_opened_ahead_on_the_prestarted_worker(
        tmp_path, no_prestarted, monkeypatch):
    """run.open_copies_ahead: on a night with a captain's resent form, the prestarted worker
    opens it and the form it supersedes before validation (their copies are made from
    them: no second load), and the copies are the ones made without it; not a form
    superseded on an earlier night, whose copy stays as it is."""
    from openpyxl import load_workbook

    from pipeline import layout
    from pipeline.store import Ledger

    folder = tmp_path / "t2020-league"
    shutil.copytree(ROOT / "sample_sheets" / "t2020-league", folder)
    out = tmp_path / "out"
    run(RunOptions(folder=folder, out_parent=out, pdf=False))
    league = out / "t2020-league"
    (copied,) = (league / "returned").glob("b01-*-返回.xlsx")      # unit b01's form, from its mail
    with Ledger(league) as ledger:
        earlier = next(r for r in ledger.received() if r.sha256.startswith(copied.name.split("-")[-2]))
    stored = league / "received" / f"{earlier.sha256}.xlsx"
    wb = load_workbook(stored)
    ws = wb[layout.REG_SHEET]
    phone = next(c for row in ws.iter_rows() for c in row if isinstance(c.value, str) and c.value.startswith("1")
                 and c.value.isdigit() and len(c.value) == 11)
    sent: list[tuple[str, str, tuple]] = []
    real = parallel.Prestarted.submit
    monkeypatch.setattr(parallel.Prestarted, "submit",
                        lambda self, module, name, *args: (sent.append((module, name, args)), real(self, module, name, *args))[1])

    def resend(number: str, name: str, at: float):
        """b01's form with another phone number, received at ``at``; a night with a prestarted
        worker; (the forms it opened ahead, the new form's record)."""
        phone.value = number
        path = folder / "inbox" / name
        wb.save(path)
        os.utime(path, (at, at))
        sent.clear()
        assert parallel.prestart("pipeline.xlsx.returned")
        run(RunOptions(folder=folder, out_parent=out, pdf=False))
        (opened,) = [args[0] for module, name_, args in sent if name_ == "open_ahead"]
        with Ledger(league) as ledger:
            return opened, next(r for r in ledger.received() if r.file_name == name)

    at = earlier.received_at.timestamp() + 60
    opened, new = resend("13900000000" if phone.value != "13900000000" else "13900000001", "b01-报名表-更正.xlsx", at)
    assert sorted(opened) == sorted(str(league / "received" / f"{r.sha256}.xlsx") for r in (earlier, new))
    copy = next((league / "returned").glob(f"b01-*-{new.sha256[:8]}-返回.xlsx"))
    cells = [c.value for row in load_workbook(copy)[layout.REG_SHEET].iter_rows() for c in row]
    assert phone.value in cells
    # a third form: the first one's copy stays as it is (its note names the second), and it
    # is not opened — the worker would open it before making the new form's copy
    opened, last = resend("13900000002", "b01-报名表-再次更正.xlsx", at + 60)
    assert sorted(opened) == sorted(str(league / "received" / f"{r.sha256}.xlsx") for r in (new, last))

def test_the_prestarted_worker_runs_at_the_runs_priority(no_prestarted):
    """The night ends when the worker's copies are made: niced (it was, by 10, to spare the
    run its imports), it got no CPU on a machine with other work, and a one-changed night
    with two busy processes beside it took 3.4 s instead of 0.85 s."""
    assert parallel.prestart()
    pre = parallel.take_prestarted()
    try:
        assert pre.submit("os", "getpid").result() == pre.pid
        assert os.getpriority(os.PRIO_PROCESS, pre.pid) == os.getpriority(os.PRIO_PROCESS, 0)
    finally:
        pre.shutdown()
