"""Benchmarks for issue "Benchmarks and speed": prints a Markdown table and PASS/FAIL per target.

For each league size (branches) it measures, each pipeline run in its own child process
(wall time, peak RSS of the child via ``os.wait4``):

Every run is a child process with Python's bytecode cache on (as on a user's machine; the
package is compiled once first) — this sandbox sets PYTHONDONTWRITEBYTECODE, which would make
every run compile the package from source.

* floor        — read every received workbook once with python-calamine and write one returned
                 workbook per registration once with openpyxl (load + save), nothing else;
                 openpyxl is imported without NumPy, as the pipeline imports it
                 (``pipeline/xlsx/_no_numpy.py``: NumPy's import is no part of the work);
* cold         — ``league run`` into an empty output folder, without and with PDFs;
* unchanged    — the same run again with no new input (both modes);
* one changed  — one registration workbook edited (a phone number) and received a minute later,
                 as a captain's resend: the branch's current form; run again (both modes);

The floor and the cold no-PDF run are measured ``--repeat`` times (default 3), alternately,
and the one-changed no-PDF rerun as often, each from the same state; the medians are
reported (with every value) and the ratios are of medians — this shared machine's speed
drifts by up to 20 % within minutes, and one pair of runs can land on different stretches.
* WeasyPrint   — the HTML documents of the cold PDF run rendered sequentially by WeasyPrint
                 alone, vs. our PDF stage (``pipeline.render.pdf.render_pdfs``, pool + cache)
                 on the same HTML with an empty cache; ``--pdf-repeat`` times, each pair back
                 to back, medians reported with every pair's ratio.

Targets: cold no-PDF ≤ 2× floor; unchanged rerun ≤ 2 % of cold; one changed workbook ≤ 10 %
of cold; our PDF stage ≤ 0.6× WeasyPrint alone; peak memory ≤ 1 GB at 200 branches; cold
time linear in workbooks (largest/smallest time ratio ≤ 1.2 × workbook ratio) — and, beside it,
the same check against the bytes read, since one result workbook per event and round holds more
matches in a larger league.

    python bench/run_bench.py                      # 50 and 200 branches, every round played
    python bench/run_bench.py --sizes 50 200 800 --rounds 1 --work /tmp/bench1   # round 1 only, to 800
    python bench/run_bench.py --profile            # also cProfile the cold no-PDF run
"""
from __future__ import annotations

import argparse
import email
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

PY = sys.executable
NOW = "2025-01-01T00:00:00+08:00"

FLOOR_CODE = r'''
import sys, io, email, tempfile
from pathlib import Path
from python_calamine import CalamineWorkbook
sys.modules["numpy"] = None   # openpyxl without NumPy, as the pipeline imports it
import openpyxl
del sys.modules["numpy"]
inbox = Path(sys.argv[1])
blobs = []
for p in sorted(inbox.iterdir()):
    if p.suffix == ".xlsx":
        blobs.append((p.name, p.read_bytes()))
    elif p.suffix == ".eml":
        msg = email.message_from_bytes(p.read_bytes())
        for part in msg.walk():
            if part.get_filename():
                blobs.append((part.get_filename(), part.get_payload(decode=True)))
regs = []
for name, data in blobs:
    wb = CalamineWorkbook.from_filelike(io.BytesIO(data))
    for s in wb.sheet_names:
        wb.get_sheet_by_name(s).to_python()
    if "报名表" in name:
        regs.append(data)
with tempfile.TemporaryDirectory() as tmp:
    for i, data in enumerate(regs):
        wb = openpyxl.load_workbook(io.BytesIO(data))
        wb.save(Path(tmp) / f"{i}.xlsx")
print(len(blobs))
'''

WEASY_CODE = r'''
import sys, json
from pathlib import Path
from weasyprint import HTML
jobs = json.loads(Path(sys.argv[1]).read_text())
for html_path, pdf_path in jobs:
    HTML(string=Path(html_path).read_text(encoding="utf-8"), base_url=str(Path(html_path).parent)).write_pdf(pdf_path)
'''

OURS_CODE = r'''
import sys, json
from pathlib import Path
from pipeline.render.pdf import render_pdfs
jobs = json.loads(Path(sys.argv[1]).read_text())
render_pdfs([(Path(h).read_text(encoding="utf-8"), Path(p)) for h, p in jobs], Path(sys.argv[2]))
'''


#: CPU seconds (user + system, incl. its children) of the last :func:`child` — robust to a
#: busy shared machine, where wall time also counts waiting for a core
LAST_CPU: list[float] = [0.0]


#: the children run as on a union office's machine, where Python keeps its bytecode cache
#: (``__pycache__``): an environment that sets PYTHONDONTWRITEBYTECODE (this sandbox does)
#: would have every run compile the package from source again
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def warm_bytecode() -> None:
    """Compile the package's bytecode once, as the first night's run would have, and start
    from an installed package's caches of compiled dataclass methods and regular expressions
    (``pipeline/__pycache__/*.marshal``, :mod:`pipeline.dataclass_code`,
    :mod:`pipeline.regex_code`): none, filled by the bench's own first runs.  In a checkout
    the test suite fills them too — the regular expressions of every test, 840 KB instead of
    100 — and every run read them all (17 M more instructions in each process of a
    one-changed night at 50 units)."""
    import compileall
    for cache in (ROOT / "pipeline" / "__pycache__").glob("*.marshal"):
        cache.unlink()
    compileall.compile_dir(str(ROOT / "pipeline"), quiet=1)


def _subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux ``PR_SET_CHILD_SUBREAPER``):
    a run does not wait for its prestarted worker to exit (``pipeline.parallel.reap``), so the
    worker, orphaned, would be reaped by init and its CPU seconds lost to the measurement."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


SUBREAPER = [False]


def child(args: list[str], cwd: Path = ROOT, ok: tuple[int, ...] = (0,)) -> tuple[float, int]:
    """Run a child process; returns (wall seconds at its exit, peak RSS in MB of it and its
    children).  ``LAST_CPU``: the CPU seconds of it and every descendant (a worker it left to
    exit on its own is waited for after the wall time is taken)."""
    if not SUBREAPER[0]:
        SUBREAPER[0] = _subreaper()
    # the harness's own writes (the copies of output folders it restores, the floor's
    # workbooks) on the disk first: a run syncs its file system once at its end
    # (pipeline.fsutil.sync_all), and would otherwise be timed flushing them
    os.sync()
    t0 = time.perf_counter()
    p = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHILD_ENV)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    cpu, rss = ru.ru_utime + ru.ru_stime, ru.ru_maxrss
    while SUBREAPER[0]:                   # the orphans of this run (this process has no other children)
        try:
            _, _, more = os.wait4(-1, 0)
        except ChildProcessError:
            break
        cpu += more.ru_utime + more.ru_stime
        rss = max(rss, more.ru_maxrss)
    ru_maxrss = rss
    LAST_CPU[0] = cpu
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    if p.returncode not in ok:
        raise SystemExit(f"failed ({p.returncode}): {' '.join(args)}\n{err[-2000:]}")
    return wall, ru_maxrss // 1024


#: how many times the floor, the cold no-PDF run and the one-changed rerun are measured
#: (``--repeat``); the median is reported (with every value), and the ratios use the medians
REPEAT = [3]
#: how many times the PDF comparison (WeasyPrint alone, then our stage) is made (``--pdf-repeat``)
PDF_REPEAT = [1]


def _median(runs: list[tuple[float, float, int]]) -> tuple[float, float, int]:
    """The run with the median wall time (its CPU seconds with it), and the largest RSS."""
    runs = sorted(runs)
    w, cpu, _ = runs[len(runs) // 2]
    return w, cpu, max(x[2] for x in runs)


def league_run(folder: Path, out: Path, pdf: bool) -> tuple[float, int]:
    return child([PY, "-m", "pipeline", "run", str(folder), "--out", str(out),
                  "--pdf" if pdf else "--no-pdf", "--now", NOW], ok=(0, 1))   # 1 = issues need attention


def count_workbooks(inbox: Path) -> int:
    n = 0
    for p in inbox.iterdir():
        if p.suffix == ".xlsx":
            n += 1
        elif p.suffix == ".eml":
            n += sum(1 for part in email.message_from_bytes(p.read_bytes()).walk() if part.get_filename())
    return n


def change_one(folder: Path) -> None:
    """Edit one registration workbook (a phone number): a captain's resend, received a minute
    after the file it replaces (still before the deadline), so it is the branch's current form."""
    import openpyxl
    from pipeline import layout as L
    path = sorted((folder / "inbox").glob("*-报名表.xlsx"))[0]
    st = path.stat()
    wb = openpyxl.load_workbook(path)
    ws = wb[L.REG_SHEET]
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, str) and c.value.isdigit() and len(c.value) == 11 and c.value.startswith("1"):
                c.value = "13900000000" if c.value != "13900000000" else "13900000001"
                wb.save(path)
                os.utime(path, (st.st_atime, st.st_mtime + 60))
                return
    raise SystemExit("no phone number found to change")


def bench_size(n: int, work: Path, rounds: int, profile: bool, pdf: bool = True) -> dict:
    src = work / f"league{n}"
    marker = work / f"league{n}.rounds"     # how many steps the kept league was generated with
    if not (src / "tournament.yaml").exists() or f"id: bench{n}\n" not in (src / "tournament.yaml").read_text("utf-8") \
            or not marker.exists() or marker.read_text().strip() != str(rounds):
        print(f"[{n}] generating league …", file=sys.stderr)
        # in a child process: generating grows a process to a gigabyte, and every run this
        # process starts afterwards reported it as its own peak RSS (Linux keeps a forked
        # child's high-water mark, taken from the parent's pages, across exec)
        subprocess.run([sys.executable, str(Path(__file__).with_name("make_league.py")), str(src),
                        "--branches", str(n), "--rounds", str(rounds)], check=True, stdout=subprocess.DEVNULL)
        marker.write_text(f"{rounds}\n")
    folder = work / f"run{n}"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(src, folder)
    out_np, out_pdf = work / f"out{n}-nopdf", work / f"out{n}-pdf"
    for d in (out_np, out_pdf):
        shutil.rmtree(d, ignore_errors=True)
    r: dict = {"branches": n, "workbooks": count_workbooks(folder / "inbox")}
    r["inbox_bytes"] = sum(p.stat().st_size for p in (folder / "inbox").iterdir())
    # the floor and the cold run, alternately REPEAT times: this shared machine's speed drifts
    # by up to 20 % within minutes, so one pair can land on a fast and a slow stretch
    floors, colds = [], []
    for i in range(REPEAT[0]):
        print(f"[{n}] floor and cold run, {i + 1} of {REPEAT[0]} …", file=sys.stderr)
        w, rss = child([PY, "-c", FLOOR_CODE, str(folder / "inbox")])
        floors.append((w, LAST_CPU[0], rss))
        shutil.rmtree(out_np, ignore_errors=True)
        w, rss = league_run(folder, out_np, pdf=False)
        colds.append((w, LAST_CPU[0], rss))
    r["floor"], r["cpu_floor"], r["rss_floor"] = _median(floors)
    r["cold"], r["cpu_cold"], r["rss_cold"] = _median(colds)
    r["floor_all"], r["cold_all"] = [f[0] for f in floors], [c[0] for c in colds]
    print(f"[{n}] unchanged rerun …", file=sys.stderr)
    r["same"], _ = league_run(folder, out_np, pdf=False)
    r["cpu_same"] = LAST_CPU[0]
    if pdf:
        print(f"[{n}] cold with PDF …", file=sys.stderr)
        r["cold_pdf"], r["rss_cold_pdf"] = league_run(folder, out_pdf, pdf=True)
        r["same_pdf"], _ = league_run(folder, out_pdf, pdf=True)
    change_one(folder)
    before = work / f"out{n}-before-change"
    shutil.rmtree(before, ignore_errors=True)
    shutil.copytree(out_np, before)
    ones = []
    for i in range(REPEAT[0]):      # each from the same state: the output as it was before the change
        print(f"[{n}] one changed workbook, {i + 1} of {REPEAT[0]} …", file=sys.stderr)
        if i:
            shutil.rmtree(out_np)
            shutil.copytree(before, out_np)
        w, rss = league_run(folder, out_np, pdf=False)
        ones.append((w, LAST_CPU[0], rss))
    shutil.rmtree(before, ignore_errors=True)
    r["one"], r["cpu_one"], _ = _median(ones)
    r["one_all"] = [o[0] for o in ones]
    if pdf:
        r["one_pdf"], r["rss_one_pdf"] = league_run(folder, out_pdf, pdf=True)
    else:
        r["peak_mb"] = max(v for k, v in r.items() if k.startswith("rss_"))
        return _profile(r, n, work, folder) if profile else r
    # PDF rendering of the same HTML: WeasyPrint alone vs our stage
    import json
    tid = f"bench{n}"
    htmls = [h for h in sorted((out_pdf / tid).rglob("*.html")) if h.with_suffix(".pdf").exists()]
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "a").mkdir()
        (t / "b").mkdir()
        ja = [(str(h), str(t / "a" / f"{i}.pdf")) for i, h in enumerate(htmls)]
        jb = [(str(h), str(t / "b" / f"{i}.pdf")) for i, h in enumerate(htmls)]
        (t / "a.json").write_text(json.dumps(ja))
        (t / "b.json").write_text(json.dumps(jb))
        # alternately PDF_REPEAT times, each pair back to back: a pair's two runs see the same
        # stretch of this shared machine (the second core's speed drifts by ±15 % within minutes)
        weasy, ours = [], []
        for i in range(PDF_REPEAT[0]):
            print(f"[{n}] PDFs ({len(htmls)}), {i + 1} of {PDF_REPEAT[0]} …", file=sys.stderr)
            for d in (t / "a", t / "b"):
                shutil.rmtree(d)
                d.mkdir()
            w, rss = child([PY, "-c", WEASY_CODE, str(t / "a.json")])
            weasy.append((w, LAST_CPU[0], rss))
            w, rss = child([PY, "-c", OURS_CODE, str(t / "b.json"), str(t / "b" / "cache.json")])
            ours.append((w, LAST_CPU[0], rss))
        r["weasy"], r["cpu_weasy"], r["rss_weasy"] = _median(weasy)
        r["ours_pdf"], r["cpu_ours_pdf"], r["rss_ours_pdf"] = _median(ours)
        r["weasy_all"], r["ours_pdf_all"] = [x[0] for x in weasy], [x[0] for x in ours]
        r["pdf_pair_ratios"] = sorted(o[0] / w[0] for w, o in zip(weasy, ours))
    r["pdfs"] = len(htmls)
    r["peak_mb"] = max(v for k, v in r.items() if k.startswith("rss_"))
    return _profile(r, n, work, folder) if profile else r


def _profile(r: dict, n: int, work: Path, folder: Path) -> dict:
    """cProfile the cold no-PDF run; keeps the top 15 cumulative lines in ``r["profile"]``."""
    prof = work / f"cold{n}.prof"
    shutil.rmtree(work / "outprof", ignore_errors=True)
    child([PY, "-m", "cProfile", "-o", str(prof), "-m", "pipeline", "run", str(folder), "--out",
           str(work / "outprof"), "--no-pdf", "--now", NOW], ok=(0, 1))
    import io
    import pstats
    s = io.StringIO()
    # leave out the interpreter / click wrapper frames so the 15 lines are the pipeline's own
    pstats.Stats(str(prof), stream=s).sort_stats("cumulative").print_stats(
        r"^(?!.*(click/|runpy|<string>|__main__\.py|builtins\.exec|cli\.py))", 15)
    r["profile"] = s.getvalue()
    return r


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def _safe(fn, r: dict) -> str:
    try:
        return fn(r)
    except KeyError:
        return "not measured"


def _all(r: dict, key: str) -> str:
    """" (median of a, b, c)" when the value is the median of repeated runs."""
    vals = r.get(key) or []
    return f" (median of {', '.join(f'{v:.2f}' for v in vals)})" if len(vals) > 1 else ""


def report(rs: list[dict]) -> str:
    cols = [f"{r['branches']} branches" for r in rs]
    L = ["| measure | " + " | ".join(cols) + " |", "|---|" + "---|" * len(rs)]

    def row(label: str, fn) -> None:
        L.append(f"| {label} | " + " | ".join(_safe(fn, r) for r in rs) + " |")

    row("workbooks read (registrations + result sheets)", lambda r: str(r["workbooks"]))
    row("floor: calamine read + openpyxl write (s)", lambda r: f"{r['floor']:.2f}" + _all(r, "floor_all"))
    row("floor, CPU seconds", lambda r: f"{r['cpu_floor']:.2f}")
    row("cold run, no PDF (s)", lambda r: f"{r['cold']:.2f}" + _all(r, "cold_all"))
    row("cold run, no PDF, CPU seconds", lambda r: f"{r['cpu_cold']:.2f}")
    row("cold run, with PDF (s)", lambda r: f"{r['cold_pdf']:.2f}")
    row("rerun, no new input, no PDF (s)", lambda r: f"{r['same']:.2f}")
    row("rerun, no new input, PDF (s)", lambda r: f"{r['same_pdf']:.2f}")
    row("rerun, one changed workbook, no PDF (s)", lambda r: f"{r['one']:.2f}" + _all(r, "one_all"))
    row("rerun, one changed workbook, PDF (s)", lambda r: f"{r['one_pdf']:.2f}")
    row("reruns no PDF, CPU seconds: unchanged / one changed", lambda r: f"{r['cpu_same']:.2f} / {r['cpu_one']:.2f}")
    row("PDF documents", lambda r: str(r["pdfs"]))
    row("WeasyPrint alone, sequential (s)", lambda r: f"{r['weasy']:.2f}" + _all(r, "weasy_all"))
    row("our PDF stage, empty cache (s)", lambda r: f"{r['ours_pdf']:.2f}" + _all(r, "ours_pdf_all"))
    row("PDFs, CPU seconds: WeasyPrint alone / our stage", lambda r: f"{r['cpu_weasy']:.2f} / {r['cpu_ours_pdf']:.2f}")
    row("PDFs, our stage / WeasyPrint alone in each pair", lambda r: ", ".join(f"{x:.2f}" for x in r["pdf_pair_ratios"]))
    row("peak RSS of any run (MB)", lambda r: str(r["peak_mb"]))
    L += ["", "| target | " + " | ".join(cols) + " |", "|---|" + "---|" * len(rs)]

    def target(label: str, fn) -> None:
        cells = []
        for r in rs:
            try:
                val, ok = fn(r)
            except KeyError:
                val, ok = "not measured", None
            cells.append(f"{val} {verdict(ok)}" if ok is not None else val)
        L.append(f"| {label} | " + " | ".join(cells) + " |")

    target("cold no-PDF ≤ 2× floor", lambda r: (f"{r['cold'] / r['floor']:.2f}×", r["cold"] <= 2 * r["floor"]))
    target("cold no-PDF ≤ 2× floor (CPU time)",
           lambda r: (f"{r['cpu_cold'] / r['cpu_floor']:.2f}×", r["cpu_cold"] <= 2 * r["cpu_floor"]))
    target("unchanged rerun ≤ 2% of cold (PDF mode)",
           lambda r: (f"{100 * r['same_pdf'] / r['cold_pdf']:.1f}%", r["same_pdf"] <= .02 * r["cold_pdf"]))
    target("unchanged rerun ≤ 2% of cold (no-PDF mode)",
           lambda r: (f"{100 * r['same'] / r['cold']:.1f}%", r["same"] <= .02 * r["cold"]))
    target("unchanged rerun ≤ 2% of cold (no-PDF mode, CPU time)",
           lambda r: (f"{100 * r['cpu_same'] / r['cpu_cold']:.1f}%", r["cpu_same"] <= .02 * r["cpu_cold"]))
    target("one changed workbook ≤ 10% of cold (PDF mode)",
           lambda r: (f"{100 * r['one_pdf'] / r['cold_pdf']:.1f}%", r["one_pdf"] <= .10 * r["cold_pdf"]))
    target("one changed workbook ≤ 10% of cold (no-PDF mode)",
           lambda r: (f"{100 * r['one'] / r['cold']:.1f}%", r["one"] <= .10 * r["cold"]))
    target("one changed workbook ≤ 10% of cold (no-PDF mode, CPU time)",
           lambda r: (f"{100 * r['cpu_one'] / r['cpu_cold']:.1f}%", r["cpu_one"] <= .10 * r["cpu_cold"]))
    target("our PDF stage ≤ 0.6× WeasyPrint alone",
           lambda r: (f"{r['ours_pdf'] / r['weasy']:.2f}×", r["ours_pdf"] <= .6 * r["weasy"]))
    target("peak memory ≤ 1 GB (judged at 200 branches)",
           lambda r: (f"{r['peak_mb']} MB", r["peak_mb"] <= 1024 if r["branches"] == 200 else None))
    if len(rs) > 1:
        a, b = rs[0], rs[-1]
        wr, tr = b["workbooks"] / a["workbooks"], b["cold"] / a["cold"]
        br = b["inbox_bytes"] / a["inbox_bytes"]
        L += ["", f"Growth {a['branches']}→{b['branches']} branches: workbooks ×{wr:.2f}, cold no-PDF time ×{tr:.2f}"
              f" (target: ≤ 1.2 × workbook ratio = {1.2 * wr:.2f}) → {verdict(tr <= 1.2 * wr)}",
              "", f"By the bytes read (a larger league's result workbooks hold more matches each): bytes"
              f" ×{br:.2f}, cold no-PDF time ×{tr:.2f} (≤ 1.2 × bytes ratio = {1.2 * br:.2f}) → {verdict(tr <= 1.2 * br)};"
              f" the floor grows ×{b['floor'] / a['floor']:.2f}."]
    return "\n".join(L)


def main() -> None:
    ap = argparse.ArgumentParser(description="league benchmarks")
    ap.add_argument("--sizes", type=int, nargs="+", default=[50, 200], help="branch counts (add 800 for the slow point)")
    ap.add_argument("--rounds", type=int, default=99,
                    help="pipeline steps whose result workbooks are simulated when generating a league "
                         "(default 99: every round; 1 = round 1 only, quicker to generate at 800 branches)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "bench",
                    help="work folder; generated leagues are reused from here")
    ap.add_argument("--pdf-max", type=int, default=10**9,
                    help="measure PDFs only for sizes up to this many branches (PDFs are slow)")
    ap.add_argument("--profile", action="store_true", help="cProfile the cold no-PDF run (top 15 cumulative)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="measure the floor, the cold no-PDF run and the one-changed rerun this many times, "
                         "alternately, and report the medians (default 3)")
    ap.add_argument("--pdf-repeat", type=int, default=1,
                    help="make the PDF comparison this many times, each pair back to back, and report the "
                         "medians and every pair's ratio (default 1; 50 units take ~1.5 min a pair)")
    a = ap.parse_args()
    REPEAT[0] = max(1, a.repeat)
    PDF_REPEAT[0] = max(1, a.pdf_repeat)
    a.work.mkdir(parents=True, exist_ok=True)
    warm_bytecode()
    print(f"Machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; bytecode cached as on a user's "
          "machine (PYTHONDONTWRITEBYTECODE removed for the runs)\n", flush=True)
    rs = []
    for n in a.sizes:   # print each size as soon as it is measured: partial results survive
        rs.append(bench_size(n, a.work, a.rounds, a.profile, pdf=n <= a.pdf_max))
        print(f"## {n} branches (load average {os.getloadavg()[0]:.1f})\n", flush=True)
        print(report([rs[-1]]) + "\n", flush=True)
    print("## All sizes\n")
    print(report(rs))
    for r in rs:
        if "profile" in r:
            print(f"\n### cProfile, cold no-PDF run, {r['branches']} branches (top 15 cumulative)\n```")
            print(r["profile"].strip())
            print("```")


if __name__ == "__main__":
    main()
