"""The printed documents: notice, draw sheets, table cards, standings, awards, certificates,
bus manifest and budget, each as a self-contained HTML file and a PDF.

``render_documents(state, out_dir)`` builds every view-model (``viewmodels``), renders
the templates (``templates/docs/``), writes the HTML atomically (unchanged files are not
touched) and hands the PDFs to :func:`pipeline.render.pdf.render_pdfs`, which skips those
whose HTML did not change since the last run.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..fsutil import atomic_write_text
from ..text import names_of
from . import viewmodels as vms
from .jinja import render

if TYPE_CHECKING:
    from ..state import LeagueState
    from .memo import PageMemo

DRAWS_DIR = "draws"


@dataclass(frozen=True)
class Document:
    """One document to write: ``stem`` relative to the output folder (no suffix).

    The view-model is built on first use (``make``), so a document whose ``inputs`` show
    it is current (:meth:`PageMemo.fresh_inputs`) is never built.  ``inputs`` are what the
    view-model depends on besides the code, the spec and its "data as of" line (empty: key
    on the view-model itself)."""

    stem: str
    template: str
    make: Callable[[], Any]
    html: bool = True     # also keep the .html next to the PDF
    pdf: bool = True
    inputs: tuple[str, ...] = ()

    @cached_property
    def vm(self) -> Any:
        return self.make()


def draw_stem(event_id: str, round_no: int) -> str:
    """``draws/<event>-r<round>`` (contract: a draw sheet per event and round)."""
    return f"{DRAWS_DIR}/{event_id}-r{round_no}"


def plan_documents(state: "LeagueState") -> list[Document]:
    """Every document this state calls for, in a stable order."""
    spec = state.tournament.spec
    # the notice is built from the spec and each event's format as drawn (its state's):
    # every event's memo_key holds the spec (tournament.yaml, code, the events' former
    # names) and its rounds, so a night that changes no event keys it on them — and does
    # not import the formats, games and award schemes to describe them again.  The "data
    # as of" line is no input (pipeline.render.memo): a document that would be the same
    # keeps its file, its PDF and the time its content last changed
    events = tuple(state.events.get(ev.id) for ev in spec.events)
    keys = tuple(es.memo_key if es is not None else "" for es in events)
    docs = [Document("notice", "docs/notice.html", partial(vms.notice_vm, state),
                     inputs=keys if keys and all(keys) else ())]
    for event_id, rnd in vms.published_rounds(state):
        stem = draw_stem(event_id, rnd.round)
        es = state.events[event_id]
        # (and every event's players, in a Traditional league: pipeline.text.kept_names_key)
        inputs = (es.memo_key, str(rnd.round), state.names_key) if es.memo_key else ()
        docs.append(Document(stem, "docs/draw.html", partial(vms.draw_vm, state, event_id, rnd), inputs=inputs))
        if any(not m.bye for m in rnd.matches):   # a round of byes only has no table cards
            docs.append(Document(f"{stem}-cards", "docs/cards.html", partial(vms.cards_vm, state, event_id, rnd),
                                 inputs=inputs))
    if any(es.standings for es in state.events.values()):
        # built from the event states only (and the spec, the code): a night that changes
        # no event's state (a captain's phone number) keys it on them
        keys = tuple(es.memo_key for es in state.events.values())
        # (and what each waits for, its status: a round's session begun or not, run.not_played_yet)
        waits = tuple("waiting:" + es.waiting for es in state.events.values())
        docs.append(Document("standings", "docs/standings.html", partial(vms.standings_vm, state),
                             inputs=(*keys, *waits) if all(keys) else ()))
    if state.awards or state.branch_awards:
        docs.append(Document("awards", "docs/awards.html", partial(vms.awards_vm, state)))
        docs.append(Document("certificates", "docs/certificates.html", partial(vms.certificates_vm, state)))
    if vms.has_pickups(state) and state.entries:
        docs.append(Document("bus", "docs/bus.html", partial(vms.bus_vm, state)))
    if spec.budget:
        docs.append(Document("budget", "docs/budget.html", partial(vms.budget_vm, state)))
    return docs


def root_of(stem: str) -> str:
    """The way from a document back to the output folder (where the site's index.html
    is), as the site's pages have it (``Page.root``): ``""`` for ``notice``, ``"../"`` for
    ``draws/go-r1``.

    >>> root_of("notice"), root_of("draws/go-r1")
    ('', '../')
    """
    return "../" * stem.count("/")


def render_html(doc: Document) -> str:
    """The self-contained HTML of one document (with a screen-only link to the site's
    index, ``root_of(doc.stem)``: print hides it)."""
    vm = doc.vm
    return render(doc.template, title=vm.title, updated=vm.updated, script=vm.script, vm=vm,
                  root=root_of(doc.stem))


def render_documents(state: "LeagueState", out_dir: str | Path, pdf: bool = True,
                     workers: int | None = None, memo: "PageMemo | None" = None,
                     missing: "dict[Path, str] | None" = None) -> list[Path]:
    """Write every document of ``state`` under ``out_dir``; returns the paths of all the
    documents (HTML and PDF), whether rewritten now or still current from a previous run.
    With a :class:`~pipeline.render.memo.PageMemo`, a document whose view-model is the one
    its files were made from is not rendered again (its PDF is checked against the HTML on
    disk, which is then current).  ``missing``: see :func:`~pipeline.render.pdf.render_pdfs`.

    >>> # render_documents(state, Path("output/t2020-league"))  → [notice.html, notice.pdf, …]
    """
    with names_of(state):       # 于力 stays 于力 in Traditional (pipeline.text)
        paths, jobs = _write_documents(state, Path(out_dir), pdf, memo)
    if jobs:
        from .pdf import CACHE_FILE, render_pdfs      # (with logging: not on a night without PDFs)
        render_pdfs(jobs, Path(out_dir) / CACHE_FILE, workers=workers, missing=missing)
    if missing:
        paths = [p for p in paths if p not in missing]
    return paths


def _write_documents(state: "LeagueState", out: Path, pdf: bool, memo: "PageMemo | None"
                     ) -> tuple[list[Path], list[tuple[str, Path]]]:
    """:func:`render_documents`' HTML: (every document's paths, the PDFs to render)."""
    paths: list[Path] = []
    jobs: list[tuple[str, Path]] = []
    for doc in plan_documents(state):
        html_path = out / f"{doc.stem}.html"
        pdf_path = out / f"{doc.stem}.pdf"
        want_pdf = pdf and doc.pdf
        also = [pdf_path] if want_pdf else []
        if doc.html and memo is not None and (
                memo.fresh_inputs(html_path, doc.template, doc.inputs, *also) if doc.inputs
                else memo.fresh(html_path, doc.template, doc.vm, *also)):
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
    return paths, jobs
