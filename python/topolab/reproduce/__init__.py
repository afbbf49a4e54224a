"""Reproductions of the papers' tables and figures: topolab's numbers beside the paper's.

Each reproduction is a module of this package with ``ID``, ``TITLE``, ``SOURCE`` and
``run() -> Reproduction``; ``REGISTRY`` maps the id to the module, imported only when run.
To add one, write ``topolab/reproduce/<name>.py`` and add a line to ``REGISTRY``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Optional

# id -> module path; keep in the order ``topolab reproduce --list`` shows them.
REGISTRY: dict[str, str] = {
    "table4": "topolab.reproduce.table4",
}


@dataclass(frozen=True)
class Comparison:
    """One quantity of one configuration: the paper's value and topolab's."""

    column: str
    quantity: str
    paper: Optional[float]
    topolab: Optional[float]
    note: str = ""

    @property
    def rel_diff(self) -> Optional[float]:
        """(topolab - paper) / paper, None when either is missing or the paper's is 0."""
        if self.paper is None or self.topolab is None or self.paper == 0:
            return None
        return (self.topolab - self.paper) / abs(self.paper)

    def to_dict(self) -> dict[str, Any]:
        return {
            "column": self.column,
            "quantity": self.quantity,
            "paper": self.paper,
            "topolab": self.topolab,
            "rel_diff": self.rel_diff,
            "note": self.note,
        }


@dataclass(frozen=True)
class Setup:
    """How topolab builds and places one configuration of the paper."""

    column: str
    spec: Optional[str]
    details: str
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"column": self.column, "spec": self.spec, "details": self.details, "notes": list(self.notes)}


@dataclass(frozen=True)
class Reproduction:
    id: str
    title: str
    source: str
    rows: tuple[Comparison, ...]
    setups: tuple[Setup, ...]
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "rows": [r.to_dict() for r in self.rows],
            "setups": [s.to_dict() for s in self.setups],
            "notes": list(self.notes),
        }


def available() -> list[str]:
    return list(REGISTRY)


def title(rid: str) -> str:
    return _module(rid).TITLE


def run(rid: str) -> Reproduction:
    """Runs reproduction ``rid`` (see ``available()``)."""
    return _module(rid).run()


def _module(rid: str) -> Any:
    from topolab import _core

    if rid not in REGISTRY:
        raise _core.ParameterError(
            f"reproduce: parameter 'id' = '{rid}' is not allowed: one of {', '.join(REGISTRY)}"
        )
    return importlib.import_module(REGISTRY[rid])
