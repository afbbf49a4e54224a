"""One look per family across every plot of the report, PNG and interactive alike: a colour
and a marker each, so that 18 and more families stay apart in colour and in shape (and in
print, or for a reader who does not tell colours apart)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

# Kelly's colours of maximum contrast (K. L. Kelly, "Twenty-two colors of maximum contrast",
# Color Engineering 3(6), 1965) without white, strongest first.
PALETTE = (
    "#0067A5",  # blue
    "#BE0032",  # red
    "#008856",  # green
    "#F38400",  # orange
    "#875692",  # purple
    "#222222",  # black
    "#A1CAF1",  # light blue
    "#F3C300",  # yellow
    "#848482",  # grey
    "#E68FAC",  # purplish pink
    "#604E97",  # violet
    # From here on a family shares its marker with the one len(MARKERS) = 11 before it. The order
    # below maximises the smallest RGB distance between such two (0.69 of at most 1.73): each
    # colour is far from the one 11 places above it.
    "#E25822",  # reddish orange (marker of the blue)
    "#8DB600",  # yellow green (of the red)
    "#F99379",  # yellowish pink (of the green)
    "#2B3D26",  # olive green (of the orange)
    "#DCD300",  # greenish yellow (of the purple)
    "#C2B280",  # buff (of the black)
    "#882D17",  # reddish brown (of the light blue)
    "#B3446C",  # purplish red (of the yellow)
    "#F6A600",  # orange yellow (of the grey)
    "#654522",  # yellowish brown (of the purplish pink)
)
# (matplotlib marker, plotly symbol) pairs of the same, clearly different shapes. The star is kept
# for the recommended design.
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
    symbol: str  # plotly


def family_styles(families: Iterable[str]) -> dict[str, Style]:
    """A style per family in the order given (the first family gets the first colour and
    marker). Up to len(PALETTE) families have different colours; the (colour, marker) pair is
    different for up to lcm(len(PALETTE), len(MARKERS)) families."""
    out = {}
    for i, family in enumerate(dict.fromkeys(families)):
        marker, symbol = MARKERS[i % len(MARKERS)]
        out[family] = Style(PALETTE[i % len(PALETTE)], marker, symbol)
    return out
