"""The registry of topology families, as plain data."""

from __future__ import annotations

from dataclasses import dataclass

from topolab import _core


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    default: str | None
    help: str

    @property
    def required(self) -> bool:
        return self.default is None


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
