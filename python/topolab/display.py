"""How result objects show themselves: a short ``repr`` (one line, bounded: a 722-router
analysis must not print 722 eccentricities) and ``_repr_html_``, a table that Jupyter shows.

A result class derives from ``Summarized`` and is declared ``@dataclass(repr=False)`` so that
the dataclass does not replace ``__repr__``. Scalars are shown as they are (numbers with
thousands separators, never in e-notation; dollars as $1,414,310); a list, tuple or dict as its
length; a nested result as its own one-line summary. ``UNITS`` maps a field to its unit, shown
beside it in the HTML table and given with ``--json``.
"""

from __future__ import annotations

import dataclasses
import html
import math
from typing import Any, ClassVar

REPR_LIMIT = 240


def number(value: float | int, unit: str = "") -> str:
    """A number as people read it: 1,414,310 and 0.0417, never 1.41431e+06; dollars (a unit
    in USD) as $1,414,310."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if unit.startswith("USD"):
        return f"${value:,.0f}" if abs(value) >= 100 else f"${value:,.2f}"
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 1e-3:
        return f"{value:,.4g}"
    return f"{value:.3g}"


def _short(value: Any, quote: bool = True, unit: str | None = None) -> str:
    """``value`` in a word; ``unit`` (a table cell, not a repr): numbers as ``number`` writes them."""
    if isinstance(value, str) and not quote:
        return value
    if unit is not None and isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(float(value), unit) if isinstance(value, float) else number(value, unit)
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

    # The unit of each numeric field (USD, W, m, ns, ...); fields without one are counts or words.
    UNITS: ClassVar[dict[str, str]] = {}

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
        return html_table(type(self).__name__, self._shown_fields(), self.UNITS)


def html_table(title: str, items: list[tuple[str, Any]], units: dict[str, str] | None = None) -> str:
    """An HTML table of ``items``: name, value (numbers right-aligned), unit (a nested result as
    its own table)."""
    units = units or {}
    rows = []
    for key, value in items:
        unit = units.get(key, "")
        if isinstance(value, Summarized):
            cell = f"<td colspan='2'>{value._repr_html_()}</td>"
        else:
            align = "right" if isinstance(value, (int, float)) and not isinstance(value, bool) else "left"
            cell = (
                f"<td style='text-align:{align}'>{html.escape(_short(value, quote=False, unit=unit))}</td>"
                f"<td style='text-align:left'>{html.escape(unit)}</td>"
            )
        rows.append(f"<tr><th style='text-align:left'>{html.escape(key)}</th>{cell}</tr>")
    return (
        f"<table><caption style='text-align:left'><b>{html.escape(title)}</b></caption>"
        f"{''.join(rows)}</table>"
    )
