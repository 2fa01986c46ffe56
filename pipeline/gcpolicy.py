"""The run's policy for Python's cyclic garbage collector.

A run builds a few hundred thousand long-lived objects (readings, entries, rounds, results,
standings) and makes almost no cyclic garbage in its main process.  CPython's collector,
started every 700 net allocations, walks the young objects each time and the whole heap
every so often: at 200 units it took about 1 s of a cold run's main process and about 2 s
more of CPU in the pool workers (whose heap is the forked run's), and a fifth of a rerun
after one changed workbook.  So a run pauses the collector (:func:`paused`); reference
counting still frees almost everything the moment it is dropped.

The exception is a job that builds a web of cycles and drops it — an openpyxl workbook
(worksheet ↔ workbook, every cell → its worksheet).  A pool worker therefore collects the
young generation after each job (:func:`after_job`): that walks only what the job allocated
and left alive, and bounds a worker's memory by one job's garbage instead of a whole run's.
"""
from __future__ import annotations

import contextlib
import gc
from typing import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Pause automatic collections for the block (restored as they were after it)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def after_job() -> None:
    """Free the cycles a finished job left behind, when the collector is paused (a worker
    forked from a paused run); with the collector running, it does this by itself."""
    if not gc.isenabled():
        gc.collect(0)


def after_imports() -> None:
    """Set aside, for good, what a worker's imports made (:func:`gc.freeze`), when the
    collector is paused: modules, classes and their tables live to the worker's end, and
    the young-generation collection :func:`after_job` would do here walks all of them —
    20 ms after openpyxl's import, on the path of a night's returned copies — to free
    nothing.  Later collections then walk only what each job allocates."""
    if not gc.isenabled():
        gc.freeze()
