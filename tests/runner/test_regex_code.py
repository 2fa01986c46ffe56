"""pipeline.regex_code: the matcher code of regular expressions kept between runs makes every
pattern exactly as Python makes it, and a bad table only means compiling again."""
from __future__ import annotations

import marshal
import re
import re._compiler as compiler

import pytest

import pipeline
from pipeline import regex_code
from pipeline.regex_code import PatternCache

PATTERNS = [
    (r"[\u3400-\u9fff]\s*(?:[,、;；]|\n)\s*[\u3400-\u9fff]", 0),
    (r"(?P<year>\d{4})-(?P<month>\d\d)(?:-(?P<day>\d\d))?", 0),
    (r"(?<=[·•])\s+(?=\w)", 0),
    (r"(a)?(?(1)b|c)", 0),
    (r"(?i)象棋|XiangQi", 0),
    (r"colou?r", re.IGNORECASE),
    (r"^\s*# (.*)$", re.MULTILINE | re.VERBOSE),
    (r"\w+", re.ASCII),
    (r"\N{BLACK SQUARE}+", 0),
    (r".*", re.DOTALL),
    (rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?c>)", re.S),
    (rb"<!\s*(DOCTYPE|ENTITY)", re.I),
    ("\udc80", 0),                       # a lone surrogate, as a file name may carry
    (r"x{2,5}?y*+z++", 0),               # lazy and possessive repeats
    (r"(?>ab|a)c", 0),                   # an atomic group
]


@pytest.fixture(autouse=True)
def writes_bytecode(monkeypatch):
    """As on a user's machine (the test run may be under PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr("sys.dont_write_bytecode", False)


@pytest.mark.parametrize("pattern,flags", PATTERNS)
def test_a_pattern_from_the_kept_code_is_the_pattern_python_makes(tmp_path, pattern, flags):
    path = tmp_path / "__pycache__" / "regex-code.test.marshal"
    cold = PatternCache(path, compiler)
    made = cold.compile(pattern, flags)
    assert cold.added == 1 and cold.save()
    warm = PatternCache(path, compiler)
    warm.load()
    again = warm.compile(pattern, flags)
    assert warm.added == 0 and len(warm.used) == 1          # taken from the file, not compiled
    plain = compiler.compile(pattern, flags)
    # Pattern objects are equal exactly when their pattern, flags and matcher code are
    assert made == plain and again == plain
    assert again.groupindex == plain.groupindex and again.groups == plain.groups and again.flags == plain.flags


def test_the_kept_code_matches_as_python_does(tmp_path):
    path = tmp_path / "m.marshal"
    first = PatternCache(path, compiler)
    first.compile(r"(?P<name>[\u3400-\u9fff]{2,4})(?:\s*[,，]\s*(?P<other>[\u3400-\u9fff]+))?", 0)
    first.save()
    cache = PatternCache(path, compiler)
    cache.load()
    p = cache.compile(r"(?P<name>[\u3400-\u9fff]{2,4})(?:\s*[,，]\s*(?P<other>[\u3400-\u9fff]+))?", 0)
    assert cache.added == 0
    m = p.match("董涛强，方鹏旭")
    assert m is not None and m.group("name", "other") == ("董涛强", "方鹏旭")
    assert p.sub(r"\g<other>", "王军, 李四") == "李四" and p.match("abc") is None


@pytest.mark.parametrize("body", [b"", b"garbage", b"league-regex-code\n" + b"3.0\0" + marshal.dumps({}),
                                  b"league-regex-code\nbroken\xff\x00"])
def test_a_missing_damaged_or_foreign_table_only_means_compiling(tmp_path, body):
    path = tmp_path / "m.marshal"
    if body:
        path.write_bytes(body)
    cache = PatternCache(path, compiler)
    cache.load()
    assert cache.codes == {}
    assert cache.compile(r"\d+", 0).match("12") and cache.added == 1


def test_entries_not_of_this_version_only_mean_compiling(tmp_path):
    """A table that unmarshals but whose entries are not (flags, code, groups, groupindex,
    indexgroup) crashed every command; such an entry is compiled again."""
    path = tmp_path / "r.marshal"
    cold = PatternCache(path)
    cold.compile(r"(?P<y>\d{4})年", 0)
    path.write_bytes(cold.head() + marshal.dumps({k: b"junk" for k in cold.codes}))
    bad = PatternCache(path)
    bad.load()
    p = bad.compile(r"(?P<y>\d{4})年", 0)
    assert bad.added == 1 and p.match("2026年").group("y") == "2026"


def test_a_table_of_another_python_is_not_read(tmp_path, monkeypatch):
    path = tmp_path / "m.marshal"
    cache = PatternCache(path, compiler)
    cache.compile(r"\d+", 0)
    cache.save()
    monkeypatch.setattr("sys.version", "3.11.99 (elsewhere)")
    other = PatternCache(path, compiler)
    other.load()
    assert other.codes == {}


def test_debug_and_parsed_patterns_are_compiled_as_python_does(tmp_path, capsys):
    cache = PatternCache(tmp_path / "m.marshal", compiler)
    assert cache.compile(r"ab", re.DEBUG) == compiler.compile(r"ab", re.DEBUG)
    assert cache.added == 0 and "LITERAL" in capsys.readouterr().out
    parsed = compiler._parser.parse(r"a|b", 0)
    assert cache.compile(parsed, 0).match("b") and cache.added == 0


def test_install_once_per_process_with_the_path_beside_the_bytecode(monkeypatch):
    """``league`` installs it before a command's imports (pipeline.quick.main); here: what
    install does, and that re then compiles through it."""
    monkeypatch.setattr(regex_code, "_INSTALLED", [])
    monkeypatch.setattr(compiler, "compile", compiler.compile)    # restored after the test
    monkeypatch.setattr("atexit.register", lambda fn: None)
    cache = regex_code.install()
    assert cache is not None and compiler.compile == cache.compile
    assert regex_code.install() is cache                          # once per process
    assert cache.path == regex_code.cache_path()
    assert cache.path.parent.name == "__pycache__" and cache.path.parent.parent.samefile(pipeline.__path__[0])
    re.purge()
    before = len(cache.used)
    assert re.compile(r"(?P<unit>[\u4e00-\u9fff]+)分工会").match("行政分工会").group("unit") == "行政"
    assert len(cache.used) == before + 1


def test_a_compiler_built_otherwise_is_left_alone():
    class Other:
        @staticmethod
        def compile(p, flags=0):
            return p
    assert regex_code.applies(compiler) and not regex_code.applies(Other)


def test_a_pattern_built_from_data_is_not_kept(tmp_path):
    """A Traditional page's pattern of every player's name changes with the names and
    compiles to ~200,000 integers: kept, the table grew by megabytes a night and every
    command loaded it."""
    cache = PatternCache(tmp_path / "m.marshal", compiler)
    big = "(" + "|".join(f"王{chr(0x4E00 + i)}" for i in range(2000)) + ")"
    assert cache.compile(big, 0).match("王一") and cache.added == 0 and not cache.codes
    assert cache.compile(r"\d+", 0) and cache.added == 1


def test_a_table_grown_by_other_processes_keeps_what_this_one_used(tmp_path):
    """Every process of an installation shares the table: a checkout's test suite left the
    patterns of every test in it (840 KB, read by both processes of every night).  Past
    ``max_entries`` a process writes back only the patterns it used."""
    path = tmp_path / "m.marshal"
    cache = PatternCache(path, compiler)
    for i in range(PatternCache.max_entries + 1):       # other processes' patterns
        cache.compile(f"x{i}", 0)
    mine = PatternCache(path, compiler)
    mine.codes = dict(cache.codes)
    assert mine.compile(r"\d+年", 0).match("2020年") and mine.compile("x7", 0).match("x7")
    assert mine.save()
    again = PatternCache(path, compiler)
    again.load()
    assert len(again.codes) == 2 and again.compile("x7", 0) and again.added == 0
