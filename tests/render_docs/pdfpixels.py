"""Two HTML texts printed alike: their PDFs (WeasyPrint) rendered by poppler's ``pdftoppm``
are the same pixel for pixel — for screen-only parts (a document's bar, a page's 目录) that
must leave the printout as it was."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

#: skip where poppler-utils is not installed (the README's test command installs it)
needs_poppler = pytest.mark.skipif(
    not shutil.which("pdftoppm") or not shutil.which("pdftotext"),
    reason="poppler-utils (pdftoppm, pdftotext) is not installed: the README's test command installs it; "
           "without it a PDF's pages and text cannot be read back to check them")


def assert_printed_alike(html: str, bare: str, tmp_path: Path) -> None:
    """``html`` and ``bare`` give PDFs with the same pages, pixel for pixel (at 40 dpi)."""
    from pipeline.render.pdf import html_to_pdf

    assert bare != html
    pngs = []
    for k, text in enumerate((html, bare)):
        pdf = html_to_pdf(text, tmp_path / f"{k}.pdf")
        subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(tmp_path / f"p{k}")], check=True)
        pngs.append(sorted(tmp_path.glob(f"p{k}-*.png")))
    assert len(pngs[0]) == len(pngs[1]) >= 1
    for a, b in zip(*pngs):
        assert a.read_bytes() == b.read_bytes(), (a, b)
