"""The registry of topology families, as plain data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from topolab import _core
from topolab._results import FamilySizes


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    default: str | None
    help: str

    @property
    def required(self) -> bool:
        return self.default is None


def params_markdown(entries: Iterable[tuple[str, Sequence[Param]]]) -> str:
    """A Markdown list of every entry's declared parameters (name, kind, default, meaning), as
    docs/routing.md and docs/traffic.md show them (scripts/param_docs.py writes them there)."""
    lines = []
    for name, params in entries:
        if not params:
            lines.append(f"- `{name}`: no parameters")
            continue
        described = "; ".join(
            f"`{p.name}` ({p.kind}, "
            + ("required" if p.default is None else f"default {p.default}")
            + f"): {p.help}"
            for p in params
        )
        lines.append(f"- `{name}`: {described}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Family:
    name: str
    aliases: tuple[str, ...]
    summary: str
    source: str
    directed: bool
    example: str
    params: tuple[Param, ...]


def families() -> list[Family]:
    """Every topology family topolab builds, with its parameters and defaults."""
    return [
        Family(
            name=f["name"],
            aliases=tuple(f["aliases"]),
            summary=f["summary"],
            source=f["source"],
            directed=f["directed"],
            example=f["example"],
            params=tuple(Param(**p) for p in f["params"]),
        )
        for f in _core.families()
    ]


def family_sizes(spec: str) -> FamilySizes:
    """Routers, endpoints, radix and balance of the network ``spec`` describes, from its
    family's closed-form rule: nothing is built (``slimfly:q=101`` answers at once), and bad
    parameters raise ``topolab.ParameterError`` as ``build`` does."""
    return FamilySizes._from_core(_core.family_sizes(spec))
