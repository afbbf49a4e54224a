"""What every enumeration rule shares: the search window, the candidate record, the sizes
each family declares, and the shape searches the families use.

The rules themselves are in ``structured.py`` (Slim Fly, Dragonfly, fat trees, HyperX, tori,
meshes, hypercubes, MLFM, OFT, Slim Fly x HyperX) and ``randomized.py`` (random and directed
families, Skywalk): they choose which parameters to try. What those parameters give (routers,
endpoints, radix, balanced concentration, load) and whether the family builds them at all is
the family's own closed-form rule in the Rust family table, read through ``sizes`` (one
place for each formula; docs/families/*.md). ``enumerate.py`` turns the candidates into
``Design``s. The tests build the specs with ``topolab.build`` and compare.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Iterator

from topolab import _core

# Shapes of tori, meshes and HyperX: how far apart the sizes of one shape may be.
TORUS_MAX_SPREAD = 2  # near-cubic: largest size - smallest size <= 2 (000 T3D 22^3, T5D 6^4x8)
HYPERX_MAX_ASPECT = 2  # equal-ish: largest size <= 2 x smallest (003 §1.2: 4x8x8x8)
HYPERX_MAX_DIMS = 4  # 003 §1.2's optimum at 2,048 switches is 4D; more dimensions cost radix
TORUS_DIMS = (2, 3, 4, 5)  # 000 Table IV: T3D, T5D; 003 §1.1: 3D, 4D
SKYWALK_Z = (2, 4, 8, 16)  # switches per cabinet; 004 §III-A uses 8 (di = z - 1: full intra mesh)


@dataclass
class Window:
    """What the enumeration must meet: radix, endpoint range and subscription limits."""

    radix: int
    lo: int
    hi: int
    target: int
    oversubscription: float
    undersubscription: float

    def admits(self, load: float) -> bool:
        """Whether a design with this load (injection / sustainable bandwidth) is within the
        over- and undersubscription limits."""
        return 1 - self.undersubscription - 1e-9 <= load <= 1 + self.oversubscription + 1e-9

    def concentrations(self, endpoint_routers: int, max_p: int) -> range:
        """Every p >= 1 with lo <= p * endpoint_routers <= hi and p <= max_p."""
        first = max(1, -(-self.lo // endpoint_routers))
        last = min(max_p, self.hi // endpoint_routers)
        return range(first, last + 1)


@dataclass
class Candidate:
    family: str
    params: dict  # ordered: the spec is family:k=v,... in this order
    routers: int
    endpoints: int
    radix: int  # ports of the busiest router, links (counting width) plus endpoints
    network_radix: int
    concentration: int
    balanced_concentration: float  # p at which injection equals what the network carries
    load: float  # injection / sustainable bandwidth under uniform traffic (> 1: oversubscribed)
    source: str
    tags: list = field(default_factory=list)
    exempt: bool = False  # p = 1 of a low-radix family (000 §III): no subscription limits
    radix_is_bound: bool = False  # the construction may use fewer ports (Skywalk)

    @property
    def spec(self) -> str:
        return spec_of(self.family, self.params)


def _fmt(value) -> str:
    if isinstance(value, (tuple, list)):
        return "x".join(str(v) for v in value)
    return str(value)


# ---------------------------------------------------------------------------------------------
# what a family declares about its parameters
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=65536)
def sizes(spec: str) -> dict[str, Any] | None:
    """Routers, endpoints, radix, network_radix, concentration, balanced_concentration, load
    and radix_is_bound of ``spec`` by its family's closed-form rule (``_core.family_sizes``;
    nothing is built), or None when the family does not build those parameters (a Slim Fly
    q that is not a prime power, a Jellyfish with an odd number of link ends, ...). The dict
    is shared by the cache: read it, do not change it."""
    try:
        return _core.family_sizes(spec)
    except _core.ParameterError:
        return None


def spec_of(family: str, params: dict) -> str:
    return family + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in params.items())


def candidate(
    family: str, params: dict, source: str, tags: list | None = None, exempt: bool = False
) -> Candidate | None:
    """The candidate ``family:params`` with the sizes its family declares (``sizes``), or None
    when the family does not build it."""
    s = sizes(spec_of(family, params))
    if s is None:
        return None
    return Candidate(
        family,
        params,
        s["routers"],
        s["endpoints"],
        s["radix"],
        s["network_radix"],
        s["concentration"],
        s["balanced_concentration"],
        s["load"],
        source,
        list(tags or []),
        exempt,
        s["radix_is_bound"],
    )


# ---------------------------------------------------------------------------------------------
# searches over counts, shapes and widths
# ---------------------------------------------------------------------------------------------


def nearest_count(lo: int, hi: int, per_unit: int, target: int) -> int | None:
    """The count x in [lo, hi] whose x * per_unit is nearest target (ties: the smaller)."""
    if lo > hi:
        return None
    x = min(max(round(target / per_unit), lo), hi)
    options = [v for v in (x - 1, x, x + 1) if lo <= v <= hi]
    return min(options, key=lambda v: (abs(v * per_unit - target), v))


def shapes(n: int, smallest: int, max_product: int, fits) -> Iterator[tuple[int, ...]]:
    """Nondecreasing size tuples of length n, sizes >= smallest, product <= max_product, for
    which fits(shape) holds; ``fits`` must be monotone in every size (so the search prunes)."""

    def extend(prefix: tuple[int, ...], product: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == n:
            yield prefix
            return
        s = prefix[-1] if prefix else smallest
        while product * s ** (n - len(prefix)) <= max_product:
            shape = prefix + (s,)
            if not fits(shape):
                break
            yield from extend(shape, product * s)
            s += 1

    yield from extend((), 1)


def max_min_widths(sizes: tuple[int, ...], ports_per_width, budget: int, weight) -> tuple | None:
    """The widths maximizing min_n weight(K_n) * L_n (the bisection bottleneck of 003 §1.1, §1.2)
    within ``budget`` ports, each width as small as that maximum allows (003's 4x8x8x8: 2,1,1,1
    FlatFly; 2,4,4,4 torus). None if even unit widths do not fit."""

    def widths_for(t: float) -> tuple[int, ...]:
        return tuple(max(1, math.ceil(t / weight(s) - 1e-9)) for s in sizes)

    def cost(ws) -> int:
        return sum(ports_per_width(s) * x for s, x in zip(sizes, ws))

    if cost((1,) * len(sizes)) > budget:
        return None
    # The bottleneck takes one of the values weight(K_n) * x; the cost is monotone in it, so
    # the largest affordable one is found by bisection.
    levels = sorted({weight(s) * x for s in sizes for x in range(1, budget + 1)})
    lo, hi = 0, len(levels) - 1  # levels[0] (unit widths' level or below) is affordable
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if cost(widths_for(levels[mid])) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return widths_for(levels[lo])
