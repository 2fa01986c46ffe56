"""The printed documents: notice, draw sheets, table cards, standings, awards, certificates,
bus manifest and budget, each as a self-contained HTML file and a PDF.

``render_documents(state, out_dir)`` builds every view-model (``viewmodels``), renders
the templates (``templates/docs/``), writes the HTML atomically (unchanged files are not
touched) and hands the PDFs to :func:`pipeline.render.pdf.render_pdfs`, which skips those
whose HTML did not change since the last run.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..fsutil import atomic_write_text
from . import viewmodels as vms
from .jinja import render
from .pdf import CACHE_FILE, render_pdfs

if TYPE_CHECKING:
    from ..state import LeagueState
    from .memo import PageMemo

DRAWS_DIR = "draws"


@dataclass(frozen=True)
class Document:
    """One document to write: ``stem`` relative to the output folder (no suffix)."""

    stem: str
    template: str
    vm: Any
    html: bool = True     # also keep the .html next to the PDF
    pdf: bool = True


def draw_stem(event_id: str, round_no: int) -> str:
    """``draws/<event>-r<round>`` (contract: a draw sheet per event and round)."""
    return f"{DRAWS_DIR}/{event_id}-r{round_no}"


def plan_documents(state: "LeagueState") -> list[Document]:
    """Every document this state calls for, in a stable order."""
    spec = state.tournament.spec
    docs = [Document("notice", "docs/notice.html", vms.notice_vm(state))]
    for event_id, rnd in vms.published_rounds(state):
        stem = draw_stem(event_id, rnd.round)
        docs.append(Document(stem, "docs/draw.html", vms.draw_vm(state, event_id, rnd)))
        cards = vms.cards_vm(state, event_id, rnd)
        if cards.cards:
            docs.append(Document(f"{stem}-cards", "docs/cards.html", cards))
    if any(es.standings for es in state.events.values()):
        docs.append(Document("standings", "docs/standings.html", vms.standings_vm(state)))
    if state.awards or state.branch_awards:
        docs.append(Document("awards", "docs/awards.html", vms.awards_vm(state)))
        docs.append(Document("certificates", "docs/certificates.html", vms.certificates_vm(state)))
    if vms.has_pickups(state) and state.entries:
        docs.append(Document("bus", "docs/bus.html", vms.bus_vm(state)))
    if spec.budget:
        docs.append(Document("budget", "docs/budget.html", vms.budget_vm(state)))
    return docs


def render_html(doc: Document) -> str:
    """The self-contained HTML of one document."""
    vm = doc.vm
    return render(doc.template, title=vm.title, updated=vm.updated, script=vm.script, vm=vm)


def render_documents(state: "LeagueState", out_dir: str | Path, pdf: bool = True,
                     workers: int | None = None, memo: "PageMemo | None" = None) -> list[Path]:
    """Write every document of ``state`` under ``out_dir``; returns the paths of all the
    documents (HTML and PDF), whether rewritten now or still current from a previous run.
    With a :class:`~pipeline.render.memo.PageMemo`, a document whose view-model is the one
    its files were made from is not rendered again (its PDF is checked against the HTML on
    disk, which is then current).

    >>> # render_documents(state, Path("output/t2020-league"))  → [notice.html, notice.pdf, …]
    """
    out = Path(out_dir)
    paths: list[Path] = []
    jobs: list[tuple[str, Path]] = []
    for doc in plan_documents(state):
        html_path = out / f"{doc.stem}.html"
        pdf_path = out / f"{doc.stem}.pdf"
        want_pdf = pdf and doc.pdf
        if doc.html and memo is not None and memo.fresh(html_path, doc.template, doc.vm,
                                                        *([pdf_path] if want_pdf else [])):
            html = html_path.read_text(encoding="utf-8") if want_pdf else ""
        else:
            html = render_html(doc)
            if doc.html:
                atomic_write_text(html_path, html)
        if doc.html:
            paths.append(html_path)
        if want_pdf:
            jobs.append((html, pdf_path))
            paths.append(pdf_path)
    if jobs:
        render_pdfs(jobs, out / CACHE_FILE, workers=workers)
    return paths
