"""The leadership site: ``index.html``, ``events/<id>.html`` and ``branches/<id>.html``.

Contract: "index.html: the tournament's site for leadership: events, progress, standings,
brackets (drawn as pictures, not only tables), awards, per-branch status" and "Per branch:
a validation report (HTML)".  Pages are static, offline (CSS and SVG inline, no script,
no remote URL) and readable on a phone.  View-models come from :mod:`.site_vm`; this
module only renders and writes, atomically, and leaves an unchanged file untouched.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from ..fsutil import atomic_write_text
from ..text import names_of
from . import site_vm
from .jinja import render

if TYPE_CHECKING:
    from ..state import LeagueState
    from .memo import PageMemo


def _page(template: str, vm: Any, **extra: Any) -> str:
    return render(template, vm=vm, title=vm.page.title, updated=vm.page.updated,
                  script=vm.page.script, **extra)


def render_index(state: "LeagueState", memo: "PageMemo | None" = None, path: Path | None = None) -> str | None:
    """HTML of ``index.html`` (None when ``memo`` shows ``path`` is current)."""
    vm = site_vm.index_vm(state)
    if memo is not None and path is not None and memo.fresh(path, "site/index.html", vm):
        return None
    vm = _mark(vm, "chart")
    return _page("site/index.html", vm)


def render_event(state: "LeagueState", event_id: str, memo: "PageMemo | None" = None,
                 path: Path | None = None) -> str | None:
    """HTML of ``events/<event_id>.html`` (None when ``memo`` shows ``path`` is current).
    The page is built from the event's state and the spec only (and the "data as of" line,
    no part of a key: :mod:`.memo`), so a state with a ``memo_key`` keys the page without
    building its view-model."""
    es = state.events[event_id]
    keyed = memo is not None and path is not None and bool(es.memo_key)
    # the page links each round's PDFs when the run writes them (state.pdf)
    # (besides its state: whether its round's PDFs are linked — not those a glyph kept from
    # being made — and, in a Traditional league, every event's players: pipeline.text.names_of)
    inputs = (es.memo_key, str(state.pdf), "pdf:" + ",".join(sorted(state.no_pdf)), state.names_key,
              "waiting:" + es.waiting)      # (a round's session begun or not: run.not_played_yet)
    if keyed and memo.fresh_inputs(path, "site/event.html", inputs):
        return None
    vm = site_vm.event_vm(state, event_id)
    if not keyed and memo is not None and path is not None and memo.fresh(path, "site/event.html", vm):
        return None
    vm = _replace(vm, brackets=tuple(Markup(b) for b in vm.brackets))
    return _page("site/event.html", vm)


def render_branch(state: "LeagueState", unit_id: str, memo: "PageMemo | None" = None,
                  path: Path | None = None) -> str | None:
    """HTML of ``branches/<unit_id>.html`` (the branch's validation report; None when
    ``memo`` shows ``path`` is current)."""
    vm = site_vm.branch_vm(state, unit_id)
    if memo is not None and path is not None and memo.fresh(path, "site/branch.html", vm):
        return None
    return _page("site/branch.html", vm)


#: the site's parts: the index, a page per event, a page per branch
SITE_PARTS = ("index", "events", "branches")


def render_site(state: "LeagueState", out_dir: str | Path, memo: "PageMemo | None" = None,
                parts: tuple[str, ...] = SITE_PARTS) -> list[Path]:
    """Write the site under ``out_dir`` (the tournament's output folder) and return the
    paths of every page, written or already up to date.  Deterministic: the same state
    gives byte-identical files (no wall clock; times come from ``state``) — but for a page
    kept from an earlier night: with a :class:`~pipeline.render.memo.PageMemo`, a page whose
    view-model is the one it was last rendered from is not rendered again, nor when only
    its "data as of" line would change (it keeps the time its content last changed).
    ``parts`` (of :data:`SITE_PARTS`) writes some of the pages: a run writes the event pages, which link no returned copy, first,
    then the index and branch pages (again, should a returned copy fail to be made).

    >>> # render_site(state, Path("output/t2020-league"))  →  [.../index.html, .../events/xiangqi.html, …]
    """
    unknown = set(parts) - set(SITE_PARTS)
    if unknown:
        raise ValueError(f"unknown site parts: {sorted(unknown)}")
    out = Path(out_dir)
    with names_of(state):       # 于力 stays 于力 in Traditional (pipeline.text)
        pages = _render_pages(state, out, memo, parts)
    for path, html in pages:
        if html is not None:
            atomic_write_text(path, html)
    return [p for p, _ in pages]


def _render_pages(state: "LeagueState", out: Path, memo: "PageMemo | None", parts: tuple[str, ...]
                  ) -> list[tuple[Path, str | None]]:
    """:func:`render_site`'s pages: (path, HTML, or None when the page is up to date)."""
    pages: list[tuple[Path, str | None]] = []
    if "index" in parts:
        p = out / "index.html"
        pages.append((p, render_index(state, memo, p)))
    for ev in state.tournament.spec.events if "events" in parts else ():
        if ev.id in state.events:
            p = out / "events" / f"{ev.id}.html"
            pages.append((p, render_event(state, ev.id, memo, p)))
    for uid in site_vm.branch_ids(state) if "branches" in parts else ():
        p = out / "branches" / f"{uid}.html"
        pages.append((p, render_branch(state, uid, memo, p)))
    return pages


# -- helpers: mark the Python-built SVG as safe (it is escaped where it is built) ----------

def _replace(vm: Any, **changes: Any) -> Any:
    from dataclasses import replace
    return replace(vm, **changes)


def _mark(vm: Any, field: str) -> Any:
    return _replace(vm, **{field: Markup(getattr(vm, field))})
