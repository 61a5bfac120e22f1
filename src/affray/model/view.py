"""What the fight's views of pydantic models share (``Order`` of a declaration, ``Arms`` of a weapon): one view per
model, kept in the model's ``__dict__`` as a cached property would (the models are frozen), and never copied: a
copied or pickled view becomes nothing, and the copy of its model makes its own on first use (a compiled object
cannot be rebuilt by pickle)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from pydantic import BaseModel

__all__ = ["View", "view_of"]

M = TypeVar("M", bound=BaseModel)
V = TypeVar("V", bound="View")


def _dropped() -> None:
    """What a copied or pickled view becomes."""
    return None


class View:
    """A view of one model: copied or pickled, nothing."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _dropped, ()

    def __copy__(self) -> None:
        return None

    def __deepcopy__(self, memo: dict[int, Any]) -> None:
        return None


def view_of(model: M, key: str, make: Callable[[M], V]) -> V:
    """``model``'s view kept under ``key``, made by ``make`` on first use: one per model, even when two threads make
    it at once (``setdefault``), and made again for a copy (whose view was dropped in the copying)."""
    kept = model.__dict__.get(key)
    if kept is None:
        fresh = make(model)
        kept = model.__dict__.setdefault(key, fresh)
        if kept is None:
            kept = model.__dict__[key] = fresh
    return cast(V, kept)
