"""Helpers shared by the command modules."""

from __future__ import annotations

import os
from typing import Any

import topolab
from topolab.network import Network

FILE_EXTENSIONS = (".json", ".edgelist", ".edges", ".txt", ".graphml", ".anynet")


def network_from_argument(text: str, fmt: str | None = None) -> Network:
    """A network from a file path or, when no such file exists, a spec string."""
    if os.path.isfile(text):
        return topolab.load(text, fmt)
    if text.lower().endswith(FILE_EXTENSIONS) and ":" not in text:
        raise topolab.FileError(f"{text}: no such file (and not a topology spec)")
    return topolab.build(text)


def print_table(rows: list[list[str]], header: list[str]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    for row in [header, *rows]:
        print("  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip())


def fmt_value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)
