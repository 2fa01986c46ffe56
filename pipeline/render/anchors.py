"""In-page anchors: the ``id`` of an event's, a group's, a stage's or a round's section on a
long page (standings.html, awards.html, events/<id>.html, index.html) and the 目录 links to
them.  At 200 units the standings held 6,000 rows of eight events and an event page 3.5 MB,
with nothing to jump to (audit 38).

An id is made from what the section is — the event id, the stage id, the group label — never
from its place on the page, so a link shared today (``standings.html#ev-xiangqi``) still
leads there tomorrow.  ASCII only: a character outside ``[A-Za-z0-9_-]`` (a group 甲, a
space) is written as ``_`` and its code point in hex, the same every time."""
from __future__ import annotations

import re
from dataclasses import dataclass

_SAFE = re.compile(r"[A-Za-z0-9_-]")


def _part(s: str) -> str:
    return "".join(c if _SAFE.fullmatch(c) else f"_{ord(c):x}" for c in str(s))


def anchor(*parts: object) -> str:
    """An ASCII id from ``parts`` (a prefix, then what the section is), joined by ``-``;
    empty parts are left out.

    >>> anchor("ev", "xiangqi"), anchor("g", "group", "A"), anchor("g", "group", "甲")
    ('ev-xiangqi', 'g-group-A', 'g-group-_7532')
    """
    return "-".join(p for p in (_part(str(x)) for x in parts) if p)


class Anchors:
    """Ids of one page: :func:`anchor`, with ``-2``, ``-3`` … for a repeat (a stage id
    that comes back later in an event), in the page's order — deterministic."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def take(self, *parts: object) -> str:
        base = anchor(*parts)
        out, k = base, 1
        while out in self._seen:
            k += 1
            out = f"{base}-{k}"
        self._seen.add(out)
        return out


@dataclass(frozen=True)
class TocItem:
    """One line of a page's 目录: a link to a section (``anchor``, ``label``) and, after it,
    links to its parts (an event's group tables, a stage's rounds), (anchor, label) each."""

    anchor: str
    label: str
    links: tuple[tuple[str, str], ...] = ()


def toc_worth(items: "list[TocItem] | tuple[TocItem, ...]") -> bool:
    """Whether a page's 目录 is worth printing: more than one place to go."""
    return len(items) + sum(len(i.links) for i in items) > 1
