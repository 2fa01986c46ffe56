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
from . import site_vm
from .jinja import render

if TYPE_CHECKING:
    from ..state import LeagueState


def _page(template: str, vm: Any, **extra: Any) -> str:
    return render(template, vm=vm, title=vm.page.title, updated=vm.page.updated,
                  script=vm.page.script, **extra)


def render_index(state: "LeagueState") -> str:
    """HTML of ``index.html``."""
    vm = site_vm.index_vm(state)
    vm = _mark(vm, "chart")
    return _page("site/index.html", vm)


def render_event(state: "LeagueState", event_id: str) -> str:
    """HTML of ``events/<event_id>.html``."""
    vm = site_vm.event_vm(state, event_id)
    vm = _replace(vm, brackets=tuple(Markup(b) for b in vm.brackets))
    return _page("site/event.html", vm)


def render_branch(state: "LeagueState", unit_id: str) -> str:
    """HTML of ``branches/<unit_id>.html`` (the branch's validation report)."""
    return _page("site/branch.html", site_vm.branch_vm(state, unit_id))


def render_site(state: "LeagueState", out_dir: str | Path) -> list[Path]:
    """Write the site under ``out_dir`` (the tournament's output folder) and return the
    paths of every page, written or already up to date.  Deterministic: the same state
    gives byte-identical files (no wall clock; times come from ``state``).

    >>> # render_site(state, Path("output/t2020-league"))  →  [.../index.html, .../events/xiangqi.html, …]
    """
    out = Path(out_dir)
    pages: list[tuple[Path, str]] = [(out / "index.html", render_index(state))]
    for ev in state.tournament.spec.events:
        if ev.id in state.events:
            pages.append((out / "events" / f"{ev.id}.html", render_event(state, ev.id)))
    for uid in site_vm.branch_ids(state):
        pages.append((out / "branches" / f"{uid}.html", render_branch(state, uid)))
    for path, html in pages:
        atomic_write_text(path, html)
    return [p for p, _ in pages]


# -- helpers: mark the Python-built SVG as safe (it is escaped where it is built) ----------

def _replace(vm: Any, **changes: Any) -> Any:
    from dataclasses import replace
    return replace(vm, **changes)


def _mark(vm: Any, field: str) -> Any:
    return _replace(vm, **{field: Markup(getattr(vm, field))})
