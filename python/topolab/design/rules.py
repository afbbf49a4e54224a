"""What every enumeration rule shares: the search window, the candidate record, and the
small number theory, balance estimates and shape searches the families use.

The rules themselves are in ``structured.py`` (Slim Fly, Dragonfly, fat trees, HyperX, tori,
meshes, hypercubes, MLFM, OFT, Slim Fly x HyperX) and ``randomized.py`` (random and directed
families, Skywalk). Each generator yields ``Candidate`` records with closed-form sizes (the
formulas of docs/families/*.md) and the paper section of its rule; ``enumerate.py`` turns them
into ``Design``s. The tests build the specs with ``topolab.build`` and compare.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

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

    @property
    def spec(self) -> str:
        return self.family + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in self.params.items())


def _fmt(value) -> str:
    if isinstance(value, (tuple, list)):
        return "x".join(str(v) for v in value)
    return str(value)


# ---------------------------------------------------------------------------------------------
# small number theory and the Moore-bound balance estimate
# ---------------------------------------------------------------------------------------------


def is_prime_power(n: int) -> bool:
    if n < 2:
        return False
    for d in range(2, math.isqrt(n) + 1):
        if n % d == 0:
            while n % d == 0:
                n //= d
            return n == 1
    return True


def moore_distance_sum(degree: int, routers: int, directed: bool = False) -> float:
    """Sum of the distances from one router to all routers if every BFS layer were full (the
    Moore bound: layers d, d(d-1), ... undirected; d, d^2, ... directed). A lower bound on the true
    sum, exact for diameter-2 graphs such as Slim Fly."""
    remaining, total, layer, dist = routers - 1, 0, degree, 1
    while remaining > 0:
        if layer <= 0:
            return math.inf
        n = min(layer, remaining)
        total += dist * n
        remaining -= n
        dist += 1
        layer *= degree if directed else degree - 1
    return float(total)


def channel_balance(degree: int, routers: int, directed: bool = False) -> float:
    """Balanced concentration of 000 §II-B2: p = k' N_r / (sum of distances from a router to all
    N_r routers), i.e. p endpoints' uniform traffic exactly fills the k' channels of a router.
    For Slim Fly this is 000's k' N_r / (2 N_r - k' - 2) ~ k'/2. For random graphs the distances
    are estimated by the Moore bound (``moore_distance_sum``), an optimistic estimate."""
    total = moore_distance_sum(degree, routers, directed)
    return degree * routers / total if total > 0 else math.inf


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
