"""The compiled form of regular expressions, kept between runs beside the package's bytecode.

:mod:`re` compiles a pattern in Python (parse, optimise, emit the matcher's code) the first
time a process uses it, and keeps it for that process only.  A ``league run`` compiles about
sixty — ours, Jinja's lexer, the standard library's — and a class of Chinese characters such
as ``[\\u3400-\\u9fff]`` alone takes milliseconds (the optimiser maps its 27,000 characters
one by one): measured 25–30 ms of a one-changed night's main process, and 10–20 ms of its
worker's.  This keeps what the compiler hands to the matcher (``_sre.compile``'s arguments: the
code, a list of integers; the flags; the groups and their names) in
``__pycache__/regex-code.<tag>.marshal``, keyed by the pattern and its flags, as
:mod:`pipeline.dataclass_code` keeps the compiled methods of dataclasses: :func:`install`
gives :mod:`re` a compiler that takes a pattern's code from the table and compiles (and adds)
only what is not there.  The same arguments make the same pattern object — ``Pattern``
objects compare equal exactly when their pattern, flags and code are equal, which is what
the tests check against the standard compiler.

The file is stamped with the exact Python version and the matcher's ``MAGIC`` (the code's
format), so another Python never reads it.  Nothing else changes: a Python whose
:mod:`re` is not built this way (checked by the names its compiler uses), ``re.DEBUG``, a
pattern already parsed, a damaged or foreign file, or a folder that cannot be written (nor
under ``PYTHONDONTWRITEBYTECODE``, as for modules) only means compiling as Python does.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any, Callable

from .dataclass_code import MethodCache

_HEAD = b"league-regex-code\n"
#: patterns longer than this (in bytes) are compiled as Python does and not kept: the
#: program's own are a few hundred; longer ones are built from a league's data
MAX_PATTERN = 2000


class PatternCache(MethodCache):
    """``_sre.compile``'s arguments (all but the pattern) by the digest of pattern and flags."""

    #: a run uses about 160 patterns (the program's, Jinja's, the standard library's); past
    #: this many the table is written back with this process's only.  Every process of an
    #: installation shares the file: the test suite of a checkout added the patterns of every
    #: test (840 KB against 100), and each night's two processes read it all (17 M
    #: instructions each, 3 % of a one-changed night at 50 units)
    max_entries = 1024

    def __init__(self, path: Path, compiler: Any = None) -> None:
        super().__init__(path)
        if compiler is None:
            import re._compiler as compiler     # type: ignore[no-redef]
        self._compiler = compiler
        self._original: Callable[..., Any] = compiler.compile

    def head(self) -> bytes:
        import _sre

        return _HEAD + f"{sys.version}\0{_sre.MAGIC}\0{_sre.CODESIZE}\n".encode()

    def compile(self, p: Any, flags: Any = 0) -> Any:
        """``re._compiler.compile`` with the code taken from the table when it is there."""
        if isinstance(p, str):
            text = b"s" + p.encode("utf-8", "surrogatepass")
        elif isinstance(p, bytes):
            text = b"b" + p
        else:                       # a parsed pattern (sre internals): as Python does
            return self._original(p, flags)
        flags = int(flags)
        c = self._compiler
        if flags & c.SRE_FLAG_DEBUG or len(text) > MAX_PATTERN:
            # a pattern built from data (a page's 10,000 names: text.names_kept) is neither
            # the same next night nor small: kept, it grew the file by megabytes a night
            return self._original(p, flags)
        key = hashlib.blake2b(flags.to_bytes(4, "little") + text, digest_size=16).digest()
        entry = self.codes.get(key)
        if not _well_formed(entry):     # missing — or not what this version writes (a damaged or foreign table)
            parsed = c._parser.parse(p, flags)
            groupindex = dict(parsed.state.groupdict)
            indexgroup = [None] * parsed.state.groups
            for k, i in groupindex.items():
                indexgroup[i] = k
            entry = self.codes[key] = (int(flags | parsed.state.flags), [int(x) for x in c._code(parsed, flags)],
                                       int(parsed.state.groups) - 1, groupindex, tuple(indexgroup))
            self.added += 1
        self.used.add(key)
        final_flags, code, groups, groupindex, indexgroup = entry
        return c._sre.compile(p, final_flags, code, groups, groupindex, indexgroup)


def _well_formed(entry: Any) -> bool:
    """Whether a table entry is what :meth:`PatternCache.compile` writes: (flags, code, groups,
    groupindex, indexgroup) — anything else (a damaged or foreign table) is compiled again."""
    return (type(entry) is tuple and len(entry) == 5 and type(entry[0]) is int and type(entry[1]) is list
            and type(entry[2]) is int and type(entry[3]) is dict and type(entry[4]) is tuple)


_INSTALLED: list[PatternCache] = []


def cache_path() -> Path:
    """Where the package keeps the table, beside its modules' bytecode."""
    return Path(__file__).resolve().parent / "__pycache__" / f"regex-code.{sys.implementation.cache_tag}.marshal"


def applies(compiler: Any) -> bool:
    """Whether ``compiler`` (``re._compiler``) is the one this imitates: its ``compile``
    parses with ``_parser.parse``, emits with ``_code`` and builds with ``_sre.compile``."""
    fn = getattr(compiler, "compile", None)
    names = getattr(getattr(fn, "__code__", None), "co_names", ())
    return ({"_parser", "parse", "_code", "_sre", "compile"} <= set(names)
            and all(hasattr(compiler, n) for n in ("_parser", "_code", "_sre", "SRE_FLAG_DEBUG")))


def install() -> PatternCache | None:
    """Give :mod:`re` the caching compiler (once per process); None where it does not apply."""
    if _INSTALLED:
        return _INSTALLED[0]
    try:
        import re._compiler as compiler
    except ImportError:             # a Python before 3.11 (sre_compile): as Python does
        return None
    if sys.implementation.cache_tag is None or not applies(compiler):
        return None
    cache = PatternCache(cache_path(), compiler)
    cache.load()
    compiler.compile = cache.compile    # what re._compile calls on a miss of its own cache
    _INSTALLED.append(cache)
    import atexit

    atexit.register(cache.save)
    return cache


def save_installed() -> None:
    """Save the installed table now (for a process that ends with ``os._exit``); never raises."""
    for cache in _INSTALLED:
        try:
            cache.save()
        except Exception:   # noqa: BLE001 - a table not kept only means compiling next time
            pass
