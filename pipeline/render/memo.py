"""What each page was rendered from last time, so an unchanged page is not rendered again.

A page's HTML depends only on its template (and the code and templates, :func:`code_hash`)
and its view-model, which is a tree of frozen dataclasses, tuples and strings.  The key of
a page is a hash of the pickled view-model; when it equals last run's key and the file is
there, the page is left as it is.  A view-model that cannot be pickled gets no key and is
always rendered: the memo only ever saves work, it never decides what a page says.

A page about one event (its site page, its draw sheets and table cards) can skip even
building its view-model: :meth:`PageMemo.fresh_inputs` keys it on what the view-model is
built from — the event state's ``memo_key`` (code, spec, entries, rounds, sheets; see
``run.run_event``).

A page's "data as of" line (数据更新时间, the newest received file's time) is not part of
its key: a page whose content is what it was keeps its file, and so the time its content
last changed.  A night with a captain's corrected phone number rewrote every branch page,
event page, draw sheet and standings (and their PDFs: 23 of them, 4.8 s, in the 2020
sample) to change that line alone.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Any


class PageMemo:
    """``memo.fresh(path, template, vm)`` → True when ``path`` can stay as it is.  Every
    call records the page's key in ``memo.now``; the caller stores ``now`` for the next run."""

    def __init__(self, previous: dict[str, str] | None = None, root: Path | None = None) -> None:
        from ..lastrun import code_hash

        self.previous = previous or {}
        self.root = Path(root) if root is not None else None   # pages are named relative to it
        self.now: dict[str, str] = {}
        self._code = code_hash().encode()

    def key(self, template: str, vm: Any, **extra: Any) -> str | None:
        """The page's key: its template and view-model, without its "data as of" line."""
        try:
            body = pickle.dumps((template, unstamped(vm), sorted(extra.items())), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:   # noqa: BLE001 - unpicklable: no key, always render
            return None
        return hashlib.sha256(self._code + body).hexdigest()

    def fresh(self, path: Path, template: str, vm: Any, *also: Path, **extra: Any) -> bool:
        """True when ``path`` (and every path in ``also``) exists and was made from this
        template and view-model."""
        return self._check(path, self.key(template, vm, **extra), also)

    def fresh_inputs(self, path: Path, template: str, inputs: tuple[str, ...], *also: Path) -> bool:
        """Like :meth:`fresh`, keyed on the view-model's inputs instead of the view-model
        (no input may be empty: an unknown input means no key)."""
        if not inputs or not all(inputs):
            return self._check(path, None, also)
        body = "\0".join(("inputs", template, *inputs)).encode()
        return self._check(path, hashlib.sha256(self._code + body).hexdigest(), also)

    def _check(self, path: Path, k: str | None, also: tuple) -> bool:
        name = self._name(path)
        if k is None:
            self.now.pop(name, None)
            return False
        self.now[name] = k
        return self.previous.get(name) == k and os.path.isfile(path) and all(os.path.isfile(p) for p in also)

    def _name(self, path: Path) -> str:
        """A page's name in the memo: its path relative to the root, with ``/`` (as
        ``Path.relative_to(root).as_posix()``, without making Paths: a night checks a page
        per unit and per document)."""
        text = os.fspath(path)
        if self.root is not None:
            root = os.fspath(self.root).rstrip(os.sep) + os.sep
            if text.startswith(root):
                text = text[len(root):]
        return text.replace(os.sep, "/")


def unstamped(vm: Any) -> Any:
    """``vm`` with its "data as of" text blank: a document's ``updated``
    (:class:`~pipeline.render.viewmodels.Doc`) or a site page's ``page.updated``
    (:class:`~pipeline.render.site_vm.Page`); any other value as it is."""
    import dataclasses

    if not dataclasses.is_dataclass(vm) or isinstance(vm, type):
        return vm
    if isinstance(getattr(vm, "updated", None), str):
        return dataclasses.replace(vm, updated="")
    page = getattr(vm, "page", None)
    if dataclasses.is_dataclass(page) and isinstance(getattr(page, "updated", None), str):
        return dataclasses.replace(vm, page=dataclasses.replace(page, updated=""))
    return vm
