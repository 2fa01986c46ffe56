"""pipeline.dataclass_code: the compiled methods of dataclasses kept between runs make every
class exactly as Python makes it, and a bad cache only means compiling again."""
from __future__ import annotations

import builtins
import dataclasses
import marshal
from importlib.util import MAGIC_NUMBER

import pytest

import pipeline
from pipeline import dataclass_code
from pipeline.dataclass_code import MethodCache


def _make(exec_with):
    """A frozen dataclass made with ``exec_with`` as dataclasses' exec."""
    saved = getattr(dataclasses, "exec", None)
    dataclasses.exec = exec_with
    try:
        @dataclasses.dataclass(frozen=True)
        class Seat:
            table: int
            name: str = "甲"
            tags: tuple[str, ...] = ()
        return Seat
    finally:
        if saved is None:
            del dataclasses.exec
        else:
            dataclasses.exec = saved


def _same_methods(a, b) -> None:
    for name in ("__init__", "__repr__", "__eq__", "__setattr__", "__delattr__", "__hash__"):
        ca, cb = getattr(a, name).__code__, getattr(b, name).__code__
        assert (ca.co_code, ca.co_consts, ca.co_names, ca.co_varnames) == \
               (cb.co_code, cb.co_consts, cb.co_names, cb.co_varnames), name


@pytest.fixture(autouse=True)
def writes_bytecode(monkeypatch):
    """As on a user's machine (the test run may be under PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr("sys.dont_write_bytecode", False)


def test_a_class_from_the_kept_code_is_the_class_python_makes(tmp_path):
    path = tmp_path / "__pycache__" / "dataclass-methods.test.marshal"
    cold = MethodCache(path)
    cold_cls = _make(cold.exec)
    assert cold.added >= 6        # __init__, __repr__, __eq__, __setattr__, __delattr__, __hash__
    assert cold.save()
    assert path.is_file() and path.read_bytes().startswith(b"league-dataclass-methods\n" + MAGIC_NUMBER + b"\0")

    warm = MethodCache(path)
    warm.load()
    warm_cls = _make(warm.exec)
    assert warm.added == 0 and len(warm.used) >= 6       # nothing compiled: all taken from the file
    plain_cls = _make(builtins.exec)
    _same_methods(warm_cls, plain_cls)
    _same_methods(cold_cls, plain_cls)
    a, b = warm_cls(1, "乙", ("x",)), plain_cls(1, "乙", ("x",))
    assert repr(a) == repr(b).replace(plain_cls.__qualname__, warm_cls.__qualname__)
    assert a == warm_cls(1, "乙", ("x",)) and a != warm_cls(2) and hash(a) == hash(warm_cls(1, "乙", ("x",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.table = 3
    with pytest.raises(TypeError):
        warm_cls()


@pytest.mark.parametrize("body", [b"", b"garbage", b"league-dataclass-methods\n" + b"\0" * 4 + b"{}",
                                  b"league-dataclass-methods\n" + MAGIC_NUMBER + b"\0\xff\x00broken",
                                  b"league-dataclass-methods\n" + MAGIC_NUMBER + b"\2" + marshal.dumps({})])
def test_a_missing_damaged_or_foreign_cache_only_means_compiling(tmp_path, body):
    path = tmp_path / "m.marshal"
    if body:
        path.write_bytes(body)
    cache = MethodCache(path)
    cache.load()
    assert cache.codes == {}
    cls = _make(cache.exec)
    assert cache.added >= 6 and cls(1).name == "甲"


def test_entries_that_are_no_code_objects_only_mean_compiling(tmp_path):
    """A table whose entries are not code objects (another version's format, a damaged
    file that still unmarshals) crashed every command ("source code string cannot contain
    null bytes"); such an entry is compiled again and replaced."""
    path = tmp_path / "m.marshal"
    cold = MethodCache(path)
    _make(cold.exec)
    path.write_bytes(cold.head() + marshal.dumps({k: b"\0junk" for k in cold.codes}))
    bad = MethodCache(path)
    bad.load()
    cls = _make(bad.exec)
    assert bad.added >= 6 and cls(1).name == "甲"
    _same_methods(cls, _make(builtins.exec))


def test_nothing_is_written_without_need_or_where_python_writes_no_bytecode(tmp_path, monkeypatch):
    path = tmp_path / "m.marshal"
    cache = MethodCache(path)
    assert cache.save() is False and not path.exists()          # nothing compiled
    _make(cache.exec)
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    assert cache.save() is False and not path.exists()
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    blocked = MethodCache(tmp_path / "a-file" / "m.marshal")
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    _make(blocked.exec)
    assert blocked.save() is False                              # folder cannot be made: no error
    assert cache.save() is True and path.is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]   # no temporary file left


def test_a_cache_grown_past_its_bound_keeps_what_this_process_used(tmp_path, monkeypatch):
    path = tmp_path / "m.marshal"
    cache = MethodCache(path)
    cache.codes = {bytes([i]) * 16: compile("x = 1", "<string>", "exec") for i in range(5)}   # stale
    _make(cache.exec)
    monkeypatch.setattr(dataclass_code, "MAX_ENTRIES", 3)
    assert cache.save()
    again = MethodCache(path)
    again.load()
    assert set(again.codes) == cache.used


def test_install_once_per_process_with_the_path_beside_the_bytecode(monkeypatch):
    """``league`` installs it before a command's imports (tests/runner/test_quick.py checks
    that an unchanged night does not even import dataclasses); here: what install does."""
    monkeypatch.setattr(dataclass_code, "_INSTALLED", [])
    monkeypatch.setattr(dataclasses, "exec", builtins.exec, raising=False)
    monkeypatch.setattr("atexit.register", lambda fn: None)
    cache = dataclass_code.install()
    assert cache is not None and dataclasses.exec == cache.exec
    assert dataclass_code.install() is cache                      # once per process
    assert cache.path == dataclass_code.cache_path()
    assert cache.path.parent.name == "__pycache__" and cache.path.parent.parent.samefile(pipeline.__path__[0])
