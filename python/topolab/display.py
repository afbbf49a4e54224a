"""How result objects show themselves: a short ``repr`` (one line, bounded: a 722-router
analysis must not print 722 eccentricities) and ``_repr_html_``, a table that Jupyter shows.

A result class derives from ``Summarized`` and is declared ``@dataclass(repr=False)`` so that
the dataclass does not replace ``__repr__``. Scalars are shown as they are; a list, tuple or dict
as its length; a nested result as its own one-line summary.
"""

from __future__ import annotations

import dataclasses
import html
import math
from typing import Any

REPR_LIMIT = 240


def _short(value: Any, quote: bool = True) -> str:
    if isinstance(value, str) and not quote:
        return value
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return f"<{len(value)} values>"
    if isinstance(value, dict):
        return f"<{len(value)} entries>"
    if isinstance(value, Summarized):
        return type(value).__name__ + "(...)"
    if hasattr(value, "shape"):  # a DataFrame or an array
        return f"<{type(value).__name__} {'x'.join(map(str, value.shape))}>"
    return repr(value)


class Summarized:
    """Mixin: short ``__repr__`` and ``_repr_html_`` from the dataclass fields."""

    def _shown_fields(self) -> list[tuple[str, Any]]:
        if not dataclasses.is_dataclass(self):
            return []
        return [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self) if f.repr]

    def __repr__(self) -> str:
        name = type(self).__name__
        text = ", ".join(f"{k}={_short(v)}" for k, v in self._shown_fields())
        if len(text) > REPR_LIMIT:
            text = text[: REPR_LIMIT - 3].rsplit(", ", 1)[0] + ", ..."
        return f"{name}({text})"

    def _repr_html_(self) -> str:
        return html_table(type(self).__name__, self._shown_fields())


def html_table(title: str, items: list[tuple[str, Any]]) -> str:
    """A two-column HTML table of ``items`` (a nested result as its own table)."""
    rows = []
    for key, value in items:
        if isinstance(value, Summarized):
            cell = value._repr_html_()
        else:
            cell = html.escape(_short(value, quote=False))
        rows.append(f"<tr><th style='text-align:left'>{html.escape(key)}</th><td>{cell}</td></tr>")
    return (
        f"<table><caption style='text-align:left'><b>{html.escape(title)}</b></caption>"
        f"{''.join(rows)}</table>"
    )
