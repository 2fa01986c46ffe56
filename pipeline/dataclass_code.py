"""The compiled methods of dataclasses, kept between runs beside the package's bytecode.

Python 3.11 writes each method of a dataclass (``__init__``, ``__repr__``, ``__eq__``, and a
frozen class's ``__setattr__``, ``__delattr__`` and ``__hash__``) as source text and compiles
it with ``exec`` when the class is made: ~0.5 ms a class, and a ``league run`` imports about a
hundred — measured 55 ms of a one-changed night's ~120 ms of imports.  Python keeps the
bytecode of modules in ``__pycache__``; this keeps the bytecode of those generated methods
the same way: :func:`install` gives :mod:`dataclasses` an ``exec`` that compiles a text once,
then takes its code object from ``__pycache__/dataclass-methods.<tag>.marshal`` (keyed by a
digest of the exact text; stamped with Python's bytecode magic number and ``-O`` level).
The same text gives the same code object, so every class is made exactly as before, only
without compiling: measured 55 → 13 ms.  ``league`` installs it when a command has work to
do (:func:`pipeline.quick.main`), and saves new entries as it exits.

Nothing else changes: ``exec`` of anything but a text, a Python whose :mod:`dataclasses`
does not compile with ``exec``, a missing, damaged or foreign cache file, or a package
folder that cannot be written (a new cache is then not kept; nor under
``PYTHONDONTWRITEBYTECODE``, as for modules) only means compiling as Python does.
"""
from __future__ import annotations

import builtins
import hashlib
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

#: bytes of a cache file before its marshalled table
_HEAD = b"league-dataclass-methods\n"
#: a cache holding more entries than this is rewritten with only the ones this process used
MAX_ENTRIES = 4096


def _head(magic: bytes) -> bytes:
    """A cache file's first bytes: what its code objects were compiled by (Python's bytecode
    magic number, and the ``-O`` level, which ``compile`` applies)."""
    return _HEAD + magic + bytes([sys.flags.optimize])


class MethodCache:
    """Code objects by the digest of the source text they were compiled from."""

    #: a table holding more entries than this is written back with only the ones this
    #: process used (None: :data:`MAX_ENTRIES`)
    max_entries: int | None = None

    def head(self) -> bytes:
        """The file's first bytes, naming what its entries were made by: a file with other
        ones is not read (and is overwritten when this process adds entries)."""
        from importlib.util import MAGIC_NUMBER

        return _head(MAGIC_NUMBER)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.codes: dict[bytes, Any] = {}
        self.used: set[bytes] = set()
        self.added = 0
        self.pid = os.getpid()

    def load(self) -> None:
        """Read the cache file; any problem leaves the table empty."""
        try:
            data = self.path.read_bytes()
        except OSError:
            return
        head = self.head()
        if not data.startswith(head):
            return
        try:
            codes = marshal.loads(data[len(head):])
        except (EOFError, ValueError, TypeError):
            return
        if isinstance(codes, dict):
            self.codes = codes

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """``exec`` with the compiled code of a text taken from the table (compiled and added
        when missing) — what :mod:`dataclasses` calls to make a class's methods."""
        if type(source) is str:
            key = hashlib.blake2b(source.encode(), digest_size=16).digest()
            code = self.codes.get(key)
            if type(code) is not CodeType:     # missing — or not a code object (a damaged or foreign table)
                code = self.codes[key] = compile(source, "<string>", "exec")
                self.added += 1
            self.used.add(key)
            source = code
        builtins.exec(source, globals, locals)

    def save(self) -> bool:
        """Write the table when this process added to it (atomically; False when not written)."""
        if not self.added or os.getpid() != self.pid or sys.dont_write_bytecode:
            return False
        codes = self.codes
        if len(codes) > (MAX_ENTRIES if self.max_entries is None else self.max_entries):
            # stale texts of classes that have changed since
            codes = {k: c for k, c in codes.items() if k in self.used}
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # as importlib writes bytecode: created with the umask's mode (readable by every user of
            # the install), then renamed over — not fsutil.atomic_write_bytes, which fsyncs and
            # whose writes are the hardening tests' kill points (outputs only)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(self.head() + marshal.dumps(codes))
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            return False
        self.added = 0
        return True


_INSTALLED: list[MethodCache] = []


def cache_path() -> Path:
    """Where the package keeps the table, beside its modules' bytecode."""
    return Path(__file__).resolve().parent / "__pycache__" / f"dataclass-methods.{sys.implementation.cache_tag}.marshal"


def install() -> MethodCache | None:
    """Give :mod:`dataclasses` the caching ``exec`` (once per process) and write the table
    at exit if this process compiled anything new.  None where it does not apply: a Python
    without a cache tag, or whose :mod:`dataclasses` does not compile with ``exec``."""
    import dataclasses

    if _INSTALLED:
        return _INSTALLED[0]
    if sys.implementation.cache_tag is None or not _compiles_with_exec(dataclasses):
        return None
    cache = MethodCache(cache_path())
    cache.load()
    dataclasses.exec = cache.exec      # a module global shadows the builtin for dataclasses only
    _INSTALLED.append(cache)
    import atexit

    atexit.register(cache.save)
    return cache


def save_installed() -> None:
    """Save the installed cache now (for a process that ends with ``os._exit``, which runs no
    exit handlers: :func:`pipeline.quick.hard_exit`); never raises."""
    for cache in _INSTALLED:
        try:
            cache.save()
        except Exception:   # noqa: BLE001 - a cache not kept only means compiling next time
            pass


def _compiles_with_exec(module: Any) -> bool:
    """Whether ``module`` makes methods with ``exec`` (the names its function uses: no source
    needed): ``_create_fn`` up to Python 3.12, ``_FuncBuilder`` from 3.13."""
    fn = getattr(module, "_create_fn", None) or getattr(getattr(module, "_FuncBuilder", None), "add_fns_to_class", None)
    return fn is not None and "exec" in getattr(getattr(fn, "__code__", None), "co_names", ())
