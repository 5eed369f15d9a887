"""A Session attribute read from one of its parts, typed."""

from __future__ import annotations

from typing import Generic, TypeVar, cast

T = TypeVar("T")


class Part(Generic[T]):
    """A Session attribute read from one of its parts (``history.data``, ...)."""

    def __init__(self, part: str, name: str, doc: str = "") -> None:
        self.part, self.name, self.__doc__ = part, name, doc or f"The {part}'s {name}."

    def __get__(self, session: object, owner: type | None = None) -> T:
        return cast(T, getattr(getattr(session, self.part), self.name))
