"""A tiny name → object registry with aliases in both languages.

>>> r = Registry("format"); _ = r.register("round_robin", "循环赛")(object)
>>> r.get("循环赛") is r.get("round_robin")
True
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
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}
        self._aliases: dict[str, str] = {}

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
        try:
            return self._aliases[name]
        except KeyError:
            raise UnknownName(self.kind, name, self.names()) from None

    def get(self, name: str) -> T:
        return self._items[self.canonical(name)]

    def __contains__(self, name: object) -> bool:
        return name in self._aliases

    def names(self) -> list[str]:
        return sorted(self._items)

    def aliases(self, name: str) -> list[str]:
        return sorted(a for a, n in self._aliases.items() if n == name and a != name)

    def items(self) -> Iterator[tuple[str, T]]:
        return iter(sorted(self._items.items()))
