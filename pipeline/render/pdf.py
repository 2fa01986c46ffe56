"""HTML → PDF with WeasyPrint: CJK font check, missing glyphs as errors, parallel and cached.

Contract: "PDFs embed a CJK font; rendering without one is an error, never boxes."
:func:`check_cjk_font` asks fontconfig for a font holding Chinese glyphs and then renders a
probe through WeasyPrint itself; WeasyPrint only *logs* a ``.notdef`` warning for a glyph
no font has, so every render attaches a logging handler that turns such a warning into
:class:`MissingGlyphError`.

:func:`render_pdfs` renders many documents on a process pool (2 cores) and skips a PDF
whose HTML is unchanged since the last run (sidecar ``.pdfcache.json``: PDF path →
sha256 of its HTML), so the nightly rerun with no new data renders nothing.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import sys
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from ..fsutil import atomic_write_bytes, atomic_write_text

CACHE_FILE = ".pdfcache.json"
INSTALL_HINT = "请安装中文字体：apt-get install -y fonts-noto-cjk libharfbuzz-subset0（Debian/Ubuntu 软件包 fonts-noto-cjk）"
#: text whose glyphs the probe needs: Simplified and Traditional forms, full-width punctuation
PROBE_TEXT = "中文字体检查：象棋比赛获奖证书，體育賽事獲獎證書。第一页共二页"
PROBE_CHARS = "中文象棋赛證書页頁"


class MissingFontError(RuntimeError):
    """No usable CJK font: PDFs would show boxes.  The message says what to install."""


class MissingGlyphError(MissingFontError):
    """A character of a document has no glyph in any installed font."""


class _GlyphGuard(logging.Handler):
    """Collects WeasyPrint's '.notdef glyph rendered' warnings while attached."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.missing: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        msg = record.getMessage()
        if "notdef" in msg or "glyph" in msg.lower():
            self.missing.append(msg)

    def __enter__(self) -> "_GlyphGuard":
        logger = logging.getLogger("weasyprint")
        self._level = logger.level
        if logger.getEffectiveLevel() > logging.WARNING:
            logger.setLevel(logging.WARNING)
        logger.addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logger = logging.getLogger("weasyprint")
        logger.removeHandler(self)
        logger.setLevel(self._level)


def _no_fetch(url: str, *args: object, **kwargs: object) -> dict:
    """URL fetcher that refuses everything: documents are self-contained and offline."""
    raise ValueError(f"external resource refused (documents must be self-contained): {url[:80]}")


def _fc_ctypes_cjk() -> list[str] | None:
    """Families whose charset covers the probe characters, asked of libfontconfig itself
    (the glyph coverage, not a font's name or language tag); ``None`` without the library."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("fontconfig")
    if not name:
        return None
    try:
        fc = ctypes.CDLL(name)
    except OSError:
        return None

    class FontSet(ctypes.Structure):
        _fields_ = [("nfont", ctypes.c_int), ("sfont", ctypes.c_int), ("fonts", ctypes.POINTER(ctypes.c_void_p))]

    vp = ctypes.c_void_p
    fc.FcInitLoadConfigAndFonts.restype = vp
    fc.FcPatternCreate.restype = vp
    fc.FcCharSetCreate.restype = vp
    fc.FcCharSetAddChar.argtypes = [vp, ctypes.c_uint32]
    fc.FcPatternAddCharSet.argtypes = [vp, ctypes.c_char_p, vp]
    fc.FcObjectSetCreate.restype = vp
    fc.FcObjectSetAdd.argtypes = [vp, ctypes.c_char_p]
    fc.FcFontList.restype = ctypes.POINTER(FontSet)
    fc.FcFontList.argtypes = [vp, vp, vp]
    fc.FcPatternGetString.argtypes = [vp, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    fc.FcFontSetDestroy.argtypes = [ctypes.POINTER(FontSet)]
    config = fc.FcInitLoadConfigAndFonts()
    pattern = fc.FcPatternCreate()
    charset = fc.FcCharSetCreate()
    for ch in PROBE_CHARS:
        fc.FcCharSetAddChar(charset, ord(ch))
    fc.FcPatternAddCharSet(pattern, b"charset", charset)
    objects = fc.FcObjectSetCreate()
    fc.FcObjectSetAdd(objects, b"family")
    fonts = fc.FcFontList(config, pattern, objects)
    families: set[str] = set()
    if fonts:
        for i in range(fonts.contents.nfont):
            s = ctypes.c_char_p()
            if fc.FcPatternGetString(fonts.contents.fonts[i], b"family", 0, ctypes.byref(s)) == 0 and s.value:
                families.add(s.value.decode("utf-8", "replace"))
        fc.FcFontSetDestroy(fonts)
    return sorted(families)


def _fc_list_cjk() -> list[str] | None:
    """The same question through ``fc-list`` (fallback); ``None`` when it is absent."""
    exe = shutil.which("fc-list")
    if not exe:
        return None
    charset = " ".join(f"{ord(c):x}" for c in PROBE_CHARS)
    import subprocess

    out = subprocess.run([exe, f":charset={charset}", "family"], capture_output=True, text=True,
                         timeout=60, check=False).stdout
    return sorted({line.split(",")[0].strip() for line in out.splitlines() if line.strip()})


def _write_pdf_bytes(html: str) -> bytes:
    import weasyprint

    with _GlyphGuard() as guard:
        data = weasyprint.HTML(string=html, url_fetcher=_no_fetch).write_pdf()
    if guard.missing:
        raise MissingGlyphError(f"PDF 中有字符没有字形（会显示为方框）：{guard.missing[0]}。{INSTALL_HINT}")
    return data


@lru_cache(maxsize=4)
def _check(fontconfig_file: str) -> tuple[str, ...]:
    families = _fc_ctypes_cjk()
    if families is None:
        families = _fc_list_cjk()
    # with no font at all Pango crashes the process, so the probe render comes second
    if families is not None and not families:
        raise MissingFontError(f"没有找到中文（CJK）字体，无法生成 PDF。{INSTALL_HINT}")
    probe = ('<html lang="zh-CN"><body style="font-family: \'Noto Sans CJK SC\', \'Noto Serif CJK SC\', '
             f'sans-serif"><p>{PROBE_TEXT}</p><p style="font-family: serif">{PROBE_TEXT}</p></body></html>')
    try:
        _write_pdf_bytes(probe)
    except MissingGlyphError as e:
        raise MissingFontError(f"中文字体不可用，无法生成 PDF（{e}）") from None
    return tuple(families or ())


def check_cjk_font() -> tuple[str, ...]:
    """Raise :class:`MissingFontError` unless a CJK font renders Chinese glyphs in WeasyPrint.

    Returns the CJK font families fontconfig lists (cached per ``FONTCONFIG_FILE``).
    """
    return _check(os.environ.get("FONTCONFIG_FILE", ""))


def html_to_pdf(html: str, pdf_path: str | Path) -> Path:
    """Render one self-contained HTML string to ``pdf_path`` (atomic write).

    Raises :class:`MissingFontError` without a CJK font and :class:`MissingGlyphError`
    when a character cannot be drawn.
    """
    check_cjk_font()
    atomic_write_bytes(Path(pdf_path), _write_pdf_bytes(html))
    return Path(pdf_path)


@lru_cache(maxsize=1)
def _weasyprint_version() -> str:
    """The installed WeasyPrint's version, from its package metadata: importing WeasyPrint
    itself takes ~0.6 s, which a night whose PDFs are all current need not pay, and which a
    night with PDFs to render pays in its fork server, beside the font check (:func:`render_pdfs`)."""
    from importlib import metadata

    try:
        return metadata.version("weasyprint")
    except metadata.PackageNotFoundError:     # not installed as a distribution: ask the module
        import weasyprint

        return weasyprint.__version__


def html_hash(html: str) -> str:
    """sha256 of the HTML (plus the WeasyPrint version, so an upgrade re-renders)."""
    return hashlib.sha256(f"weasyprint {_weasyprint_version()}\n{html}".encode("utf-8")).hexdigest()


def _load_cache(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _cache_key(pdf: Path, cache_path: Path) -> str:
    try:
        return pdf.resolve().relative_to(cache_path.parent.resolve()).as_posix()
    except ValueError:
        return str(pdf.resolve())


#: the character in WeasyPrint's warning about a glyph no font has ("…fonts: "𡒄" (U+21484)")
_NO_GLYPH = re.compile(r'"(.+?)" \((U\+[0-9A-F]+)\)')


def render_pdfs(jobs: Sequence[tuple[str, Path]], cache_path: Path | None = None,
                workers: int | None = None, missing: dict[Path, str] | None = None) -> list[Path]:
    """Render ``(html, pdf_path)`` jobs; returns the PDFs actually (re)rendered.

    A job is skipped when its PDF exists and ``cache_path`` records the same HTML hash.
    Changed jobs render on a process pool of ``workers`` (default: CPU count, at most 2)
    processes.  The cache is updated for every PDF that was written, even when another
    job fails; the first failure is then raised — except, given ``missing``, a document
    with a character no font can draw (a rare 生僻字 in one player's name): it gets no
    PDF (an older one, now stale, is removed), ``missing[pdf]`` names the character
    (“𡒄”（U+21484）, or "" when WeasyPrint did not say), and the others
    are rendered.  Without any CJK font nothing is rendered (:class:`MissingFontError`).

    >>> render_pdfs([])
    []
    """
    if not jobs:
        return []
    cache = _load_cache(cache_path) if cache_path else {}
    todo: list[tuple[str, Path, str, str]] = []
    for html, pdf in jobs:
        pdf = Path(pdf)
        digest = html_hash(html)
        key = _cache_key(pdf, cache_path) if cache_path else str(pdf)
        if cache_path and cache.get(key) == digest and pdf.is_file():
            continue
        todo.append((html, pdf, digest, key))
    if not todo:
        return []
    workers = max(1, min(workers or os.cpu_count() or 1, 2, len(todo)))
    if workers > 1:
        _start_fork_server()        # it imports WeasyPrint while this process checks the font
    check_cjk_font()
    done: list[Path] = []
    error: BaseException | None = None

    def fail(i: int, e: BaseException) -> BaseException | None:
        """The error to raise for job ``i``, or None when it is only a missing glyph."""
        if missing is None or not isinstance(e, MissingGlyphError):
            return e
        _, pdf, _, key = todo[i]
        found = _NO_GLYPH.search(str(e))
        missing[pdf] = f"“{found[1]}”（{found[2]}）" if found else ""
        cache.pop(key, None)
        pdf.unlink(missing_ok=True)       # stale: its document has changed
        return None

    if workers == 1:
        for i, (html, pdf, digest, key) in enumerate(todo):
            try:
                atomic_write_bytes(pdf, _write_pdf_bytes(html))
            except Exception as e:  # noqa: BLE001 - finish the others, raise afterwards
                error = error or fail(i, e)
                continue
            cache[key] = digest
            done.append(pdf)
    else:
        rendered, failed = _render_in_lanes(todo, workers)
        for i in sorted(failed):                 # the first failure in job order
            error = error or fail(i, failed[i])
        for i in sorted(rendered):
            html, pdf, digest, key = todo[i]
            cache[key] = digest
            done.append(pdf)
    if cache_path:
        atomic_write_text(cache_path, json.dumps(dict(sorted(cache.items())), ensure_ascii=False, indent=1))
    if error is not None:
        raise error
    return done


#: documents a PDF worker renders before it is replaced by a fresh one
TASKS_PER_WORKER = 4


def _render_in_lanes(todo: Sequence[tuple[str, Path, str, str]], lanes: int
                     ) -> tuple[set[int], dict[int, BaseException]]:
    """Render ``todo`` on ``lanes`` worker processes at once; returns the indexes rendered
    and the failures by index.

    Each lane is a thread that takes the next document (longest first) from a shared queue
    and hands it to its own worker; after :data:`TASKS_PER_WORKER` documents, or a failure,
    the lane starts a fresh worker (:func:`_fresh_workers`).  The lanes never wait for each
    other, so both cores stay busy until the queue is empty (pools renewed in lock-step
    left one core idle at the end of every batch)."""
    import threading
    from collections import deque

    from ..parallel import worker_init

    queue = deque(sorted(range(len(todo)), key=lambda i: -len(todo[i][0])))
    lock = threading.Lock()
    rendered: set[int] = set()
    failed: dict[int, BaseException] = {}

    from concurrent.futures import ProcessPoolExecutor   # here: a run without PDFs never loads it

    def take() -> int | None:
        with lock:
            return queue.popleft() if queue else None

    def lane() -> None:
        i = take()
        while i is not None:
            with ProcessPoolExecutor(max_workers=1, initializer=worker_init, **_fresh_workers()) as pool:
                for n in range(TASKS_PER_WORKER):
                    try:
                        pool.submit(_render_job, todo[i][0], str(todo[i][1])).result()
                    except BaseException as e:  # noqa: BLE001 - recorded; a fresh worker goes on
                        with lock:
                            failed[i] = e
                        i = take()
                        break
                    with lock:
                        rendered.add(i)
                    i = take()
                    if i is None:
                        break

    threads = [threading.Thread(target=lane, name=f"pdf-lane-{k}") for k in range(lanes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return rendered, failed


def _start_fork_server() -> None:
    """Start the PDF workers' fork server now (:func:`_fresh_workers`), without waiting for
    it: its import of WeasyPrint (~0.6 s) then runs on the other core while this process
    imports WeasyPrint and renders the font probe (~0.9 s), instead of after them with one
    core idle.  Without a fork server (not POSIX): nothing."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return
    from multiprocessing import forkserver

    # the resource tracker the server starts (with this process's -W options) warned in
    # English of "leaked semaphore objects" after a run cut short by Ctrl-C: the pools'
    # own, which it cleans up — nothing for the office to do
    quiet = "ignore:resource_tracker:UserWarning"
    if quiet not in sys.warnoptions:
        sys.warnoptions.append(quiet)
    _fresh_workers()                                  # sets what the server preloads
    _ensure_server(forkserver)


def _ensure_server(forkserver) -> None:
    """Start the fork server (when not running) with SIGINT blocked, as the standard library
    starts its resource tracker: Ctrl-C at the terminal reaches every process of the run's
    group, and the server got it while it imported WeasyPrint (before it ignores SIGINT
    itself) — a 30-line KeyboardInterrupt traceback above the run's 「已中断」 line (an
    audit).  The server and the workers it forks keep it blocked (a worker ignores it anyway:
    :func:`pipeline.parallel.worker_init`); this thread's mask is restored at once, and a
    Ctrl-C meanwhile reaches the run just after."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        forkserver.ensure_running()
        return
    # the server's start starts the resource tracker first, which unblocks SIGINT after
    # starting it (whatever the mask was): started before, it is only looked at then
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _fresh_workers() -> dict:
    """Pool options: workers forked from a small fork server that has imported WeasyPrint.
    WeasyPrint's caches make a long-lived worker grow (800 MB after a hundred documents of
    a 50-unit league), and a worker forked from the run itself would start with the run's
    memory; :func:`render_pdfs` therefore uses a new pool of fresh workers for every
    :data:`TASKS_PER_WORKER` documents per worker (Python 3.11's ``max_tasks_per_child``
    deadlocks once a worker is replaced).  Without a fork server (not POSIX): the
    platform's default workers."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return {"initargs": (None, os.getpid())}
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["weasyprint", __name__])
    from multiprocessing import forkserver
    _ensure_server(forkserver)      # (else the pool's first worker starts it, hearing Ctrl-C)
    return {"mp_context": ctx, "initargs": (None, os.getpid())}


def _render_job(html: str, pdf_path: str) -> str:
    """Worker-process entry point (top level so it pickles)."""
    atomic_write_bytes(Path(pdf_path), _write_pdf_bytes(html))
    return pdf_path
