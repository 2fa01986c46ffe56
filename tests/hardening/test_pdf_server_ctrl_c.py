"""Ctrl-C during the PDF stage reaches every process of the run's group: the PDF workers'
fork server (:func:`pipeline.render.pdf._start_fork_server`), started without SIGINT held
back, printed a 30-line KeyboardInterrupt traceback while it imported WeasyPrint, above
the run's 「已中断」 line (an audit).  It starts with SIGINT blocked, as the standard
library starts its resource tracker; the run itself still gets it at once."""
from __future__ import annotations

import subprocess
import sys

import pytest

from .common import ROOT

PROBE = """
import signal
from multiprocessing import forkserver
from pipeline.render import pdf
pdf._start_fork_server()
pid = forkserver._forkserver._forkserver_pid
status = dict(l.split(':\\t', 1) for l in open(f'/proc/{pid}/status').read().splitlines() if ':\\t' in l)
held = int(status['SigBlk'], 16) | int(status['SigIgn'], 16)
mine = signal.pthread_sigmask(signal.SIG_BLOCK, [])
print('server', bool(held & (1 << (signal.SIGINT - 1))), 'run', signal.SIGINT in mine)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="reads the PDF server's signal mask from /proc/<pid>/status, which only Linux has")
def test_the_pdf_fork_server_starts_deaf_to_ctrl_c_and_the_run_does_not() -> None:
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.stdout.split() == ["server", "True", "run", "False"], r.stdout + r.stderr
