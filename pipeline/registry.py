"""A tiny name → object registry with aliases in both languages.

>>> r = Registry("format"); _ = r.register("round_robin", "循环赛")(object)
>>> r.get("循环赛") is r.get("round_robin")
True

A registry may be given ``load``, which imports the modules that register into it: it is
called the first time the registry is asked anything (a name, a lookup, the list), not
when the package is imported.  A night whose events are all kept from the last run asks
no format, game or tiebreak anything, and skips their two dozen modules (~10 ms).

>>> loaded = []
>>> r = Registry("game", load=lambda: loaded.append(r.register("go", "围棋")(object)))
>>> len(loaded)
0
>>> "围棋" in r, len(loaded)
(True, 1)
"""
from __future__ import annotations

from typing import Callable, Generic, Iterator, TypeVar

T = TypeVar("T")


class UnknownName(KeyError):
    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        self.kind, self.name, self.known = kind, name, known
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(known)}")

    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return self.args[0]


class Registry(Generic[T]):
    def __init__(self, kind: str, load: Callable[[], object] | None = None) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}
        self._aliases: dict[str, str] = {}
        self._load = load

    def _loaded(self) -> None:
        """Import the registering modules before the first question.  Forgotten only once
        it has returned: a thread asking meanwhile imports too, and Python's import locks
        have it wait for the modules; a load that raised is tried again when asked again."""
        load = self._load
        if load is not None:
            load()
            self._load = None

    def register(self, name: str, *aliases: str) -> Callable[[T], T]:
        def deco(obj: T) -> T:
            if name in self._items:
                raise ValueError(f"{self.kind} {name!r} registered twice")
            self._items[name] = obj
            for a in (name, *aliases):
                self._aliases[a] = name
            return obj
        return deco

    def canonical(self, name: str) -> str:
        """The registered name ``name`` stands for: itself, an alias, or an alias written in
        Traditional characters (a ``script: traditional`` league's 淘汰賽 is 淘汰赛)."""
        if self._load is not None:
            self._loaded()
        try:
            return self._aliases[name]
        except KeyError:
            found = self._simplified(name)
            if found is None:
                raise UnknownName(self.kind, name, self.names()) from None
            return found

    def _simplified(self, name: object) -> str | None:
        """The registered name of ``name`` read in Simplified characters, if that is an alias
        (OpenCC's converter is loaded only for a name not found as written)."""
        if not isinstance(name, str) or name.isascii():
            return None
        from .text import to_simplified

        return self._aliases.get(to_simplified(name))

    def get(self, name: str) -> T:
        return self._items[self.canonical(name)]

    def __contains__(self, name: object) -> bool:
        if self._load is not None:
            self._loaded()
        return name in self._aliases or self._simplified(name) is not None

    def names(self) -> list[str]:
        if self._load is not None:
            self._loaded()
        return sorted(self._items)

    def aliases(self, name: str) -> list[str]:
        if self._load is not None:
            self._loaded()
        return sorted(a for a, n in self._aliases.items() if n == name and a != name)

    def items(self) -> Iterator[tuple[str, T]]:
        if self._load is not None:
            self._loaded()
        return iter(sorted(self._items.items()))
