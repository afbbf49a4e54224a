"""One look per family across every plot of the report, PNG and interactive alike: a colour
and a marker each, no two families alike in colour (up to len(PALETTE) families) nor in the
pair of colour and marker."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

# Glasbey's colours for categorical data (C. Glasbey, G. van der Heijden, V. Toh and A. Gray,
# "Colour displays for categorical images", Color Research & Application 32(4), 2007): each next
# colour the farthest in CIELAB from those before it. Here the first 33 of colorcet's
# ``glasbey_dark`` (the variant kept dark enough to read on white; colorcet 3.2.1, CC-BY 4.0), so
# that every family of the catalogue (29) has a colour of its own; the marker tells them apart a
# second time (in print, or for a reader who does not tell colours apart). From the 12th on they
# are reordered so that two families sharing a marker (len(MARKERS) = 11 apart) have colours at
# least 0.67 apart in RGB (of at most 1.73).
PALETTE = (
    "#d60000",
    "#8c3bff",
    "#018700",
    "#00acc6",
    "#e6a500",
    "#ff7ed1",
    "#6b004f",
    "#573b00",
    "#005659",
    "#15e18c",
    "#0000dd",
    "#729a7c",
    "#546744",
    "#a17569",
    "#a57bb8",
    "#645472",
    "#a03a52",
    "#a1c8c8",
    "#e2afaf",
    "#9e4b00",
    "#ff7752",
    "#5e7b87",
    "#bf03b8",
    "#f2007b",
    "#0774d8",
    "#8e7b01",
    "#bcb6ff",
    "#004b00",
    "#8eba00",
    "#5901a3",
    "#bac389",
    "#60383b",
    "#790000",
)
# (matplotlib marker, symbol of the report's chart) pairs of the same, clearly different shapes.
# The star is kept for the recommended design.
MARKERS = (
    ("o", "circle"),
    ("s", "square"),
    ("^", "triangle-up"),
    ("v", "triangle-down"),
    ("D", "diamond"),
    ("P", "cross"),
    ("X", "x"),
    ("<", "triangle-left"),
    (">", "triangle-right"),
    ("p", "pentagon"),
    ("h", "hexagon"),
)


@dataclass(frozen=True)
class Style:
    color: str
    marker: str  # matplotlib
    symbol: str  # the interactive chart's (report/templates/chart.js)


def family_styles(families: Iterable[str]) -> dict[str, Style]:
    """A style per family in the order given (the first family gets the first colour and
    marker). Up to len(PALETTE) families have different colours; the (colour, marker) pair is
    different for up to lcm(len(PALETTE), len(MARKERS)) families."""
    out = {}
    for i, family in enumerate(dict.fromkeys(families)):
        marker, symbol = MARKERS[i % len(MARKERS)]
        out[family] = Style(PALETTE[i % len(PALETTE)], marker, symbol)
    return out
