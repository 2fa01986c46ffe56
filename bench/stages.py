"""Where one ``league run`` spends its wall time, stage by stage (not part of the tests).

Runs ``league run FOLDER --out OUT --no-pdf`` in this process, as the cron line does
(:func:`pipeline.quick.main`), with the run's stage functions wrapped in a timer, and prints
each stage's total wall milliseconds when the run ends.  Stages nest (``render_all`` holds
``write_data``, ``render_site`` and ``render_documents``), so the lines do not add up to the
total.  The first line is the import of the stages' modules, done here before the run.

    python bench/stages.py /tmp/bench/run200 /tmp/bench/out200-nopdf --change-one --now 2025-01-01T00:00:00+08:00

``--change-one`` first edits one registration workbook as the bench does (``run_bench.change_one``,
in a child process, so this one has not imported openpyxl): the run is then a one-changed night.

The prestarted worker of :func:`pipeline.parallel.prestart` is a fork of this process: it
prints nothing (only the process that started the run reports).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: (module, function) pairs timed; methods as "Class.method"
STAGES = [
    ("pipeline.lastrun", "quick_unchanged"), ("pipeline.spec", "load_tournament"),
    ("pipeline.run", "intake"), ("pipeline.run", "read_inputs"), ("pipeline.run", "current_registrations"),
    ("pipeline.validate", "validate_registrations"), ("pipeline.run", "start_returned_copies"),
    ("pipeline.run", "advance_on_pool"), ("pipeline.run", "run_event"), ("pipeline.run", "render_all"),
    ("pipeline.run", "write_data"), ("pipeline.render.docs", "render_documents"),
    ("pipeline.render.site", "render_site"), ("pipeline.render.site_vm", "branch_vm"),
    ("pipeline.render.site_vm", "index_vm"), ("pipeline.render.memo", "PageMemo.fresh"),
    ("pipeline.lastrun", "save"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--pdf", action="store_true", help="with PDFs (default: --no-pdf)")
    ap.add_argument("--now", default="", help="the run's --now (ISO date-time)")
    ap.add_argument("--change-one", action="store_true", help="edit one registration workbook first, as the bench does")
    a = ap.parse_args()
    if a.change_one:
        import subprocess
        code = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
                "from run_bench import change_one; change_one(Path(sys.argv[2]))")
        subprocess.run([sys.executable, "-c", code, str(ROOT / "bench"), str(a.folder)], check=True)

    import importlib

    t0 = time.perf_counter()
    spent: dict[str, float] = {}
    for module, _ in STAGES:
        importlib.import_module(module)
    spent["(imports of the stages)"] = time.perf_counter() - t0
    for module, name in STAGES:
        owner = sys.modules[module]
        attr = name
        if "." in name:
            cls, attr = name.split(".")
            owner = getattr(owner, cls)
        _wrap(owner, attr, name, spent)

    me = os.getpid()
    real_exit = os._exit

    def report_and_exit(code: int) -> None:       # quick.hard_exit ends the run with os._exit
        if os.getpid() == me:
            total = time.perf_counter() - t0
            for name, s in sorted(spent.items(), key=lambda kv: -kv[1]):
                print(f"{s * 1000:9.1f} ms  {name}", file=sys.stderr)
            print(f"{total * 1000:9.1f} ms  total in this process (after Python's own start)", file=sys.stderr)
        real_exit(code)

    os._exit = report_and_exit
    sys.argv = ["league", "run", str(a.folder), "--out", str(a.out), "--pdf" if a.pdf else "--no-pdf"]
    if a.now:
        sys.argv += ["--now", a.now]
    from pipeline.quick import main as league_main
    league_main()


def _wrap(owner: object, attr: str, label: str, spent: dict[str, float]) -> None:
    fn = getattr(owner, attr)

    def timed(*args, **kwargs):
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.perf_counter() - t

    setattr(owner, attr, timed)


if __name__ == "__main__":
    main()
