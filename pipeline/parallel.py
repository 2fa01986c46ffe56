"""Independent output jobs on every core: a forked process pool with a sequential fallback.

Writing a workbook with openpyxl is pure Python and takes tens of milliseconds; a league of
200 units writes hundreds (returned copies, referees' result sheets).  The jobs are
independent — each writes its own file atomically — so :class:`Jobs` runs them on a pool of
forked workers while the main process renders HTML, and the caller collects the results
afterwards in submission order.

Jobs are plain callables (closures over specs, rounds, issues …).  Nothing is pickled on the
way in: the pool is forked after the jobs are registered, so every worker already holds
them and receives only an index; results (paths) and exceptions travel back by pickle.

Small batches (fewer than ``min_parallel`` jobs), a machine with one core, a platform without
``fork``, a system that refuses a process pool or ``LEAGUE_WORKERS=1`` run sequentially in the
calling process, with identical results: the output bytes never depend on where a job ran.
A job whose worker died is done again in the calling process (jobs write atomically, so a
half-done job leaves nothing behind).

``league run`` also forks one worker at its very start (:func:`prestart`), before the run
has imported or built anything: it imports openpyxl meanwhile, and a night with a few new
registrations hands it their returned copies — by module and function name, with
picklable arguments, since it was forked before they existed (:class:`Prestarted`).

Every pool of the pipeline (this one and the PDF renderer's) starts its workers with
:func:`worker_init`: a worker closes its copy of the run lock (a worker left behind by a
killed run must not keep the next night's run out) and exits when its parent is gone.
"""
from __future__ import annotations

import functools
import importlib
import os
import sys
import signal
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

from .gcpolicy import after_imports, after_job

#: the jobs of the pool being started; a forked worker reads them from its copy of memory
_JOBS: list[Callable[[], Any]] = []


def workers() -> int:
    """How many worker processes to use: ``LEAGUE_WORKERS`` when set, else the CPU count
    (at most 4: beyond that the main process's own work dominates)."""
    env = os.environ.get("LEAGUE_WORKERS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 4))


#: descriptors a forked worker closes at once (the run lock's, see :class:`pipeline.store.RunLock`)
_CLOSE_IN_WORKERS: set[int] = set()


def close_in_workers(fd: int, keep: bool = True) -> None:
    """Register (``keep=True``) or forget a descriptor that workers must not hold."""
    if keep:
        _CLOSE_IN_WORKERS.add(fd)
    else:
        _CLOSE_IN_WORKERS.discard(fd)


def worker_init(parent: int | None = None, run: int | None = None) -> None:
    """Run first in every forked worker: close the run lock's descriptor (the lock stays
    the parent's) and watch the parent (``None``: the process that started this worker,
    e.g. a fork server) and ``run``, the run the worker works for when that is not its
    parent (a fork server's worker) — if either is gone, the worker exits within a second
    instead of waiting for work forever.  (A run killed while a fork server's PDF workers
    rendered left them, 140–260 MB each, and the server running for good, holding the
    run's output pipes: a cron job reading its output never saw the end.)"""
    if parent is None:
        parent = os.getppid()
    _close_parents_descriptors()
    # Ctrl-C at the terminal reaches every process of the run's group: the run says it was
    # interrupted (exit 2), and a worker exits once the run is gone — a worker's own
    # KeyboardInterrupt printed a traceback over the run's message
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent, run), daemon=True, name="watch-parent").start()


def _close_parents_descriptors() -> None:
    """In a forked worker: close the descriptors registered by :func:`close_in_workers`."""
    for fd in sorted(_CLOSE_IN_WORKERS):
        try:
            os.close(fd)
        except OSError:
            pass
    _CLOSE_IN_WORKERS.clear()


def _watch_parent(parent: int, run: int | None = None) -> None:
    while os.getppid() == parent and (run is None or _alive(run)):
        time.sleep(0.5)
    os._exit(1)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs: it exists (signal 0 asks without sending one) and, where
    /proc tells, has not ended — a run that ended stays a zombie until its parent reaps it,
    and cron (or a script) reads the run's output to its end before reaping: workers that
    took the zombie for the run held that output open, and both waited for good."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:           # another user's process: it exists
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rpartition(b")")[2].split()[0]
    except (OSError, IndexError):
        return True           # no /proc: as signal 0 says
    return state not in (b"Z", b"X")


def _call(index: int) -> Any:
    """Worker entry point (top level so it pickles)."""
    try:
        return _JOBS[index]()
    finally:
        after_job()


class Jobs:
    """``with Jobs() as jobs: h = jobs.add(fn); jobs.start(); …; h.result()``.

    ``add`` registers a job before ``start``; ``start`` forks the pool (or decides to run
    sequentially); ``result()`` of a handle returns the job's value or raises its exception.
    Leaving the block waits for every job, so no worker outlives the run's lock."""

    def __init__(self, min_parallel: int = 16, max_workers: int | None = None, busy_caller: bool = False) -> None:
        """``busy_caller``: the calling process does its own work while the jobs run, so a
        small batch gets a worker for every two jobs (at most one per core), which leaves
        the caller a core (two workbooks on one worker while the caller renders the pages
        beat two workers and the caller sharing two cores)."""
        self._fns: list[Callable[[], Any]] = []
        self._handles: list[_Handle] = []
        self._costs: list[float] = []
        self._pool: ProcessPoolExecutor | None = None
        self._min = min_parallel
        self._workers = max_workers or workers()
        self._busy_caller = busy_caller
        self.parallel = False

    def add(self, fn: Callable[[], Any], cost: float = 0) -> "_Handle":
        """Register a job.  ``cost`` (any unit, e.g. rows to write) orders the pool's queue:
        the costliest jobs start first, so the pool does not end on one large job while
        the other workers idle.  Jobs of equal cost start in the order added."""
        if self._pool is not None:
            raise RuntimeError("Jobs.add after start")
        h = _Handle(fn, len(self._fns))
        self._fns.append(fn)
        self._handles.append(h)
        self._costs.append(cost)
        return h

    def __len__(self) -> int:
        return len(self._fns)

    def start(self) -> None:
        global _JOBS
        n = len(self._fns)
        # two workers, or one beside the caller when there are two cores
        if n >= max(self._min, 1) and (self._workers > 1 or workers() > 1) and _can_fork_pool():
            _JOBS = self._fns
            try:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                ctx = multiprocessing.get_context("fork")
                size = min(self._workers, n if not self._busy_caller else max(1, n // 2))
                self._pool = ProcessPoolExecutor(max_workers=size, mp_context=ctx,
                                                 initializer=worker_init, initargs=(os.getpid(),))
                # the costliest first (a stable sort: equal costs keep their order)
                for h in sorted(self._handles, key=lambda h: -self._costs[h.index]):
                    h.future = self._pool.submit(_call, h.index)   # the first submit forks the workers
            except (OSError, ImportError, NotImplementedError, RuntimeError):
                # no process pool here (a container without /dev/shm, a process limit): every
                # job runs in this process instead, with the same results
                if self._pool is not None:
                    self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None
                for h in self._handles:
                    h.future = None
                return
            finally:
                _JOBS = []       # the parent no longer needs them; the workers hold their copies
            self.parallel = True

    def __enter__(self) -> "Jobs":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is None:
            return
        if exc[0] is not None and issubclass(exc[0], KeyboardInterrupt):   # type: ignore[arg-type]
            # Ctrl-C: the workers leave it to the run (worker_init) — stop them rather than
            # wait for their jobs (a large event's computation delayed 已中断 by its length)
            for p in list(getattr(self._pool, "_processes", {}).values()):
                try:
                    p.terminate()
                except (OSError, AttributeError):
                    pass
            self._pool.shutdown(wait=False, cancel_futures=True)
            return
        self._pool.shutdown(wait=True, cancel_futures=exc[0] is not None)


def _can_fork_pool() -> bool:
    """Whether this platform forks process pools (multiprocessing is imported only here,
    when a pool is wanted: a night with little to do never loads it)."""
    import multiprocessing
    return "fork" in multiprocessing.get_all_start_methods()


class WorkerDied(Exception):
    """The prestarted worker is gone (killed, crashed, or its pipe closed): the job runs here."""


def _worker_died() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "the worker died, do the job here": evaluated only when a
    job raised, and without importing a process pool that was never used."""
    pool = sys.modules.get("concurrent.futures.process")
    return (WorkerDied, pool.BrokenProcessPool) if pool is not None else (WorkerDied,)


class _Handle:
    """A job's result: from its future (a worker), else from running ``fn`` here — a
    sequential run, or a job whose worker died."""

    def __init__(self, fn: Callable[[], Any], index: int = -1) -> None:
        self.fn, self.index = fn, index
        self.future: Future | _Reply | None = None
        self.done = False
        self.value: Any = None
        self.error: BaseException | None = None

    def result(self) -> Any:
        if self.future is not None:
            try:
                return self.future.result()
            except _worker_died():
                # a worker died (killed for memory, a crash in a library): do the job here
                self.future = None
        if not self.done:
            try:
                self.value = self.fn()
            except BaseException as e:  # noqa: BLE001 - re-raised below
                self.error = e
            self.done = True
        if self.error is not None:
            raise self.error
        return self.value


# =====================================================================================
# a worker forked at the very start of a run
# =====================================================================================

#: the worker :func:`prestart` forked, until a run takes it (:func:`take_prestarted`)
_PRESTARTED: list["Prestarted"] = []

def prestart(*modules: str) -> bool:
    """Fork one worker now, while this process is small, and have it import ``modules``
    (``"module:function"`` also calls that function with no arguments, e.g. to warm up).

    ``league run`` calls this first of all when the night needs a run
    (:func:`pipeline.quick.main`), before it has imported its stages.  The worker imports
    openpyxl (a sixth of a second, most of a rerun's own work) on the second core while
    this process imports its stages and reads the inbox; a night with a few new
    registrations then hands it their returned copies (:func:`take_prestarted`).  Forked
    before the run has built anything, it shares almost no memory with the run, so nothing
    the run writes later is copied for it.

    It is a plain ``os.fork`` with two pipes, not a process pool: importing
    ``multiprocessing`` and ``concurrent.futures`` took 30 ms of a one-changed night before
    the fork could even start, on the path of both processes.  Jobs go to it by module and
    function name with picklable arguments, in order, and their answers come back in
    order (:class:`Prestarted`).  False (and no worker) on one core, without ``fork``, or
    when the system refuses a process or a pipe."""
    reap()
    if _PRESTARTED or workers() < 2 or not hasattr(os, "fork"):
        return False
    fds: list[int] = []
    try:
        req_r, req_w = os.pipe()
        fds += (req_r, req_w)
        _widen(req_w)
        rep_r, rep_w = os.pipe()
        fds += (rep_r, rep_w)
        pid = os.fork()
    except OSError:
        for fd in fds:
            os.close(fd)
        return False
    if pid == 0:                                   # the worker: never returns
        os.close(req_w)
        os.close(rep_r)
        _serve(modules, req_r, rep_w)
    os.close(req_r)
    os.close(rep_w)
    _PRESTARTED.append(Prestarted(pid, req_w, rep_r))
    return True


def _widen(fd: int) -> None:
    """Let a pipe hold a night's requests (64 KiB by default; 1 MiB where Linux allows),
    so that the run does not wait on a write while the worker is still importing."""
    try:
        import fcntl
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):   # not Linux, or a lower limit: the default
        pass


def _serve(modules: tuple[str, ...], requests: int, replies: int) -> None:
    """The prestarted worker's life: imports, then ``(module, name, args)`` requests
    answered in order with ``(ok, value or exception)`` until the run closes its end
    (or dies: the pipe then reads as closed too), then ``os._exit``."""
    import gc
    import pickle

    gc.disable()     # as a run's (pipeline.gcpolicy): after_job collects what each job leaves
    code = 0
    try:
        _close_parents_descriptors()    # a lock taken before the fork stays the parent's
        # at the run's own priority: the night ends when its copies are made, and a worker
        # niced to spare the run (it was, by 10) got no CPU on a machine with other work —
        # with two busy processes beside it a one-changed night took 3.4 s instead of 0.85
        try:
            _import(modules)
        except Exception:  # noqa: BLE001 - a job that needs the module fails in its turn and is done by the run
            pass
        with os.fdopen(requests, "rb") as inbox, os.fdopen(replies, "wb") as outbox:
            while True:
                request = _read_message(inbox)
                if request is None:                # the run is done with it
                    break
                module, name, args = pickle.loads(request)
                try:
                    answer: tuple[bool, Any] = (True, _run_named(module, name, args))
                except Exception as e:  # noqa: BLE001 - handed to the run
                    answer = (False, e)
                finally:
                    after_job()
                _write_message(outbox, pickle.dumps(_picklable(*answer)))
    except BaseException:  # noqa: BLE001 - a broken pipe, Ctrl-C: the run does the rest itself
        code = 1
    finally:
        os._exit(code)


def _picklable(ok: bool, value: Any) -> tuple[bool, Any]:
    """``(ok, value)`` as it can travel by pickle: a value or exception that does not
    pickle becomes a ``RuntimeError`` naming it."""
    import pickle

    try:
        pickle.dumps(value)
    except Exception:  # noqa: BLE001 - an unpicklable value or exception
        return False, RuntimeError(f"{type(value).__name__}: {value}")
    return ok, value


def _write_message(f: Any, data: bytes) -> None:
    """One length-prefixed message to a pipe (:func:`_read_message` reads it)."""
    f.write(len(data).to_bytes(8, "little") + data)
    f.flush()


def _read_message(f: Any) -> bytes | None:
    """One length-prefixed message from a pipe; None at its end (or a message cut short)."""
    head = f.read(8)
    if len(head) < 8:
        return None
    size = int.from_bytes(head, "little")
    data = f.read(size)
    return data if len(data) == size else None


def prestarted() -> "Prestarted | None":
    """The prestarted worker, left in place for :func:`take_prestarted` (None when there is
    none): a job given to it now is done before the ones its taker gives it."""
    return _PRESTARTED[-1] if _PRESTARTED else None


def take_prestarted() -> "Prestarted | None":
    """The prestarted worker, now the caller's to use and leave (None when there is none)."""
    return _PRESTARTED.pop() if _PRESTARTED else None


#: workers let go before they had exited: reaped (without waiting) by :func:`reap`
_UNREAPED: list[int] = []


def reap() -> None:
    """Collect the exit of every let-go worker that has exited (none is waited for)."""
    for pid in list(_UNREAPED):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:       # not ours to reap (reaped already)
            done = pid
        if done:
            _UNREAPED.remove(pid)


def discard_prestarted() -> None:
    """Let go of a prestarted worker nobody took (it exits once its imports are done)."""
    pre = take_prestarted()
    if pre is not None:
        pre.shutdown(wait=False)


def _import(modules: tuple[str, ...]) -> None:
    try:
        for m in modules:
            name, _, fn = m.partition(":")
            module = importlib.import_module(name)
            if fn:
                getattr(module, fn)()
    finally:
        after_imports()


def _run_named(module: str, name: str, args: tuple[Any, ...]) -> Any:
    """``module.name(*args)`` — named, so that the caller need not import the module (and
    its libraries) to hand the job over."""
    return getattr(importlib.import_module(module), name)(*args)


def fork_map(fn: Callable[[Any], Any], items: list[Any], fork: bool = True, spare: int = 0) -> list[tuple[bool, Any]]:
    """``[(True, fn(item)) or (False, the exception it raised), …]`` in the items' order, the
    items shared out between this process and forked copies of it, one per core.

    For the prestarted worker (:func:`prestart`): openpyxl imported and warm, it forks
    in a millisecond, and a night's few returned copies are then made side by side
    instead of one after the other.  Values and exceptions come back by pickle through a
    pipe (an exception that does not pickle comes back as a ``RuntimeError`` naming it);
    the items of a child that died, or that could not be forked, are done here.  ``spare``
    cores are left to other processes (the run's own: :func:`_map_named`).  One core to use,
    one item, ``fork=False`` or no ``os.fork``: all here, in order."""
    def one(item: Any) -> tuple[bool, Any]:
        try:
            return True, fn(item)
        except Exception as e:  # noqa: BLE001 - handed to the caller
            return False, e

    n = min(len(items), workers() - spare) if fork else 1
    if n < 2 or not hasattr(os, "fork"):
        return [one(item) for item in items]
    import pickle

    shares = [list(range(k, len(items), n)) for k in range(n)]
    children: list[tuple[int, int, list[int]]] = []
    for share in shares[1:]:
        try:
            r, w = os.pipe()
            pid = os.fork()
        except OSError:
            shares[0] += share        # no process to spare: done here
            continue
        if pid == 0:                  # the child: its share, its answers, and out
            code = 0
            try:
                os.close(r)
                answers = []
                for i in share:
                    answers.append((i, *_picklable(*one(items[i]))))
                with os.fdopen(w, "wb") as f:
                    f.write(pickle.dumps(answers))
            except BaseException:     # noqa: BLE001 - the parent does the share itself
                code = 1
            finally:
                os._exit(code)
        os.close(w)
        children.append((pid, r, share))
    done: dict[int, tuple[bool, Any]] = {i: one(items[i]) for i in shares[0]}
    for pid, r, share in children:
        with os.fdopen(r, "rb") as f:
            data = f.read()
        os.waitpid(pid, 0)
        try:
            for i, ok, value in pickle.loads(data):
                done[i] = (ok, value)
        except Exception:  # noqa: BLE001 - a child that died: its share is done here
            pass
        for i in share:
            if i not in done:
                done[i] = one(items[i])
    return [done[i] for i in range(len(items))]


class Prestarted:
    """``with take_prestarted() as pre: h = pre.submit("pkg.mod", "fn", a, b); h.result()``.

    Jobs travel by pickle through a pipe (the worker was forked before they existed): a
    function named by module and name, and picklable arguments; the worker answers them
    in order.  A job whose worker died (or that could not be sent) runs in the calling
    process instead.  Leaving the block waits for the worker to finish and exit."""

    def __init__(self, pid: int, requests: int, replies: int) -> None:
        self.pid = pid
        self._out = os.fdopen(requests, "wb")
        self._in = os.fdopen(replies, "rb")
        self._sent = 0                         # requests written
        self._answers: list[tuple[bool, Any] | None] = []    # read so far, in order (None: none came)
        self._gone = False
        self._let_go = False                   # shut down (its pid handed to reap)

    def _send(self, module: str, name: str, args: tuple[Any, ...]) -> int | None:
        """Write a request; its number, or None when the worker cannot take it."""
        if self._gone:
            return None
        import pickle

        try:
            data = pickle.dumps((module, name, args))
        except Exception:  # noqa: BLE001 - arguments that do not pickle: done here
            return None
        try:
            _write_message(self._out, data)
        except (OSError, ValueError):
            self._gone = True
            return None
        self._sent += 1
        return self._sent - 1

    def _answer(self, number: int) -> tuple[bool, Any]:
        """The answer to request ``number``, reading the ones before it first; raises
        :class:`WorkerDied` when the worker ended before answering it."""
        import pickle

        while len(self._answers) <= number:
            data = None if self._gone else _read_message(self._in)
            if data is None:
                self._gone = True
                self._answers += [None] * (number + 1 - len(self._answers))
                break
            try:
                self._answers.append(pickle.loads(data))
            except Exception:  # noqa: BLE001 - an answer that does not unpickle here: done here
                self._answers.append(None)
        answer = self._answers[number]
        if answer is None:
            raise WorkerDied(f"prestarted worker {self.pid}")
        return answer

    def submit(self, module: str, name: str, *args: Any) -> _Handle:
        h = _Handle(functools.partial(_run_named, module, name, args))
        number = self._send(module, name, args)
        if number is not None:
            h.future = _Reply(self, number)
        return h

    def submit_map(self, module: str, name: str, items: list[tuple[Any, ...]]) -> list["_Part"]:
        """One handle per argument tuple for ``module.name(*args)``, the calls made side by
        side (:func:`fork_map` in the worker); a handle's ``result()`` is its call's value
        or raises its exception."""
        batch = _Handle(functools.partial(_map_named, module, name, items, False))   # here: one by one
        number = self._send(__name__, "_map_named", (module, name, items))
        if number is not None:
            batch.future = _Reply(self, number)
        return [_Part(batch, i) for i in range(len(items))]

    def shutdown(self, wait: bool = True) -> None:
        """Close the requests' pipe: the worker exits after the jobs it has.  ``wait``: and
        wait for those jobs (their answers are read and kept), so that nothing it writes
        outlives the run's lock; else it is left to finish its imports and exit on its own.
        Either way its exit is not waited for (it is reaped when it has exited: :func:`reap`)."""
        try:
            self._out.close()
        except OSError:
            pass
        if wait and not self._gone and self._sent:
            try:
                self._answer(self._sent - 1)     # reads every answer
            except WorkerDied:
                pass
        self._gone = True
        self._in.close()
        # every job has answered, and a worker writes nothing after its answers: it is not
        # waited for while it exits (its memory freed: ~3 ms at the end of a one-changed night),
        # only reaped without waiting, now or by a later prestart or shutdown
        if not self._let_go:
            self._let_go = True
            _UNREAPED.append(self.pid)
        reap()

    def __enter__(self) -> "Prestarted":
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown(wait=True)


class _Reply:
    """The future of one request to the prestarted worker."""

    def __init__(self, worker: Prestarted, number: int) -> None:
        self.worker, self.number = worker, number

    def result(self) -> Any:
        ok, value = self.worker._answer(self.number)
        if not ok:
            raise value
        return value


def _map_named(module: str, name: str, items: list[tuple[Any, ...]], fork: bool = True) -> list[tuple[bool, Any]]:
    """:meth:`Prestarted.submit_map`'s job: ``module.name(*args)`` for each argument tuple by
    :func:`fork_map` (``fork=False`` where the worker died: the calling process, which has
    threads, does not fork).  One core is left to the run, which works on meanwhile: on two
    cores the worker makes a night's copies one after the other — forking a second copier
    beside the run made three busy processes on two cores (one-changed nights at 50 units,
    two copies: 243 → 226 ms and 270 → 265 ms, medians of 15 alternating runs)."""
    fn = getattr(importlib.import_module(module), name)
    return fork_map(lambda args: fn(*args), items, fork, spare=1)


class _Part:
    """The handle of one item of a :meth:`Prestarted.submit_map` batch."""

    def __init__(self, batch: _Handle, index: int) -> None:
        self.batch, self.index = batch, index

    def result(self) -> Any:
        ok, value = self.batch.result()[self.index]
        if not ok:
            raise value
        return value
