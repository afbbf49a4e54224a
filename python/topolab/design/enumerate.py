"""Enumeration of every feasible configuration for a router radix K and about N endpoints.

``enumerate_designs(48, 10_000)`` lists, family by family, every configuration topolab builds
whose busiest router needs at most K ports and whose endpoint count is within ``endpoint_tolerance`` of
N, each with its closed-form sizes, the concentration that would balance it, how far it is
over- or undersubscribed, variant tags and the paper section of the rule. Each family declares
its rule in its Rust file (``DesignSpace`` in crates/topolab-core/src/topology/; docs/compare.md
§1 states them); one call of ``_core.enumerate_designs`` (topology::design::designs) checks the
question, enumerates every family, adds the twins of random graphs, keeps one design per
spec and describes each (``Design``, declared in Rust: its name, subscription tag and distance
from N); what is here is the shortlist and the table.
Nothing is built (sizes are formulas, so this is fast); ``check_design`` builds a design and
compares, which is what the tests do.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Iterable

from topolab import _core
from topolab._args import bad, renamed_keyword
from topolab._results import Design
from topolab.comparison.settings import SHOWN_OVERSUBSCRIPTION

if TYPE_CHECKING:
    import pandas as pd

    from topolab.network import Network

# Output order of the families (the registry's), and the name a report shows for each: both
# declared by the families themselves (crates/topolab-core/src/topology/).
FAMILY_NAMES = {f["name"]: f["display_name"] for f in _core.families()}
FAMILY_ORDER = tuple(FAMILY_NAMES)

DEFAULT_OVERSUBSCRIPTION = SHOWN_OVERSUBSCRIPTION
DEFAULT_UNDERSUBSCRIPTION = 0.25


def enumerate_designs(
    radix: int,
    endpoints: int,
    endpoint_tolerance: float = 0.15,
    families: Iterable[str] | str | None = None,
    oversubscription: float = DEFAULT_OVERSUBSCRIPTION,
    undersubscription: float = DEFAULT_UNDERSUBSCRIPTION,
    *,
    context: str = "enumerate_designs",
    tolerance: float | None = None,
) -> list[Design]:
    """Every configuration of the given families (default: all) with radix <= ``radix`` and
    ``|endpoints' - endpoints| <= endpoint_tolerance * endpoints`` (``tolerance``: its former name,
    deprecated).

    ``oversubscription`` bounds how far the concentration may exceed the family's balanced one
    (0.4: p up to 1.4x, as Besta & Hoefler, SC14, §V-E; 0 keeps only balanced designs; ``math.inf`` no limit);
    ``undersubscription`` how far below it (0.25: p >= 0.75x). The p = 1 tori, meshes and
    hypercubes of Besta & Hoefler, SC14, §III are kept whatever their balance. Deterministic order: families
    in ``FAMILY_ORDER``, then the order of each family's parameter loops. ``context`` names the
    caller in errors (``compare`` for topolab.compare).
    """
    endpoint_tolerance = renamed_keyword(
        context, "endpoint_tolerance", endpoint_tolerance, "tolerance", tolerance
    )
    found = _core.enumerate_designs(
        context, radix, endpoints, endpoint_tolerance, families, oversubscription, undersubscription
    )
    return [Design._from_core(c) for c in found]


def shortlist(designs: Iterable[Design], per_family: int = 4, keep: Iterable[str] = ()) -> list[Design]:
    """At most ``per_family`` designs of each family, for when measuring all is too slow.

    Within a family designs are preferred in this order: balanced before oversubscribed, load
    nearest 1 (the network neither idle nor overloaded), N nearest the target, larger radix
    (the ports paid for are used), enumeration order; and a first pass takes at most one design
    per network radix, so that different structures (Slim Fly q, Dragonfly (a, h), fat tree k)
    come before variants of one. Designs whose spec is in ``keep`` are always included. The
    result keeps the enumeration order.
    """
    if isinstance(per_family, bool) or not isinstance(per_family, numbers.Integral) or per_family < 1:
        raise bad("shortlist", "per_family", per_family, "an integer >= 1")
    designs = list(designs)
    keep = set(keep)
    position = {id(d): i for i, d in enumerate(designs)}
    chosen: set[int] = {position[id(d)] for d in designs if d.spec in keep}
    by_family: dict[str, list[Design]] = {}
    for d in designs:
        by_family.setdefault(d.family, []).append(d)
    for members in by_family.values():
        members.sort(
            key=lambda d: (
                not d.balanced,
                abs(d.load - 1),
                abs(d.deviation),
                -d.radix,
                position[id(d)],
            )
        )
        picked: list[Design] = []
        radices: set[int] = set()
        for d in members:  # first pass: one per network radix
            if len(picked) < per_family and d.network_radix not in radices:
                picked.append(d)
                radices.add(d.network_radix)
        for d in members:  # then fill up in preference order
            if len(picked) >= per_family:
                break
            if d not in picked:
                picked.append(d)
        chosen.update(position[id(d)] for d in picked)
    return [designs[i] for i in sorted(chosen)]


def designs_frame(designs: Iterable[Design]) -> pd.DataFrame:
    """The designs as a DataFrame, one row each, ready for metric columns to be added."""
    import pandas as pd

    columns = [
        "name",
        "family",
        "spec",
        "routers",
        "endpoints",
        "radix",
        "network_radix",
        "concentration",
        "balanced_concentration",
        "load",
        "oversubscription",
        "balanced",
        "deviation",
        "tags",
        "source",
        "radix_is_bound",
    ]
    rows = [{c: getattr(d, c) for c in columns} for d in designs]
    frame = pd.DataFrame(rows, columns=columns)
    frame["tags"] = frame["tags"].map(lambda t: ", ".join(t))
    return frame


def check_design(design: Design, network: Network | None = None) -> list[str]:
    """Builds ``design.spec`` (unless ``network`` is given) and returns every way it differs from
    what the design claims (routers, endpoints, radix; radix may be lower where
    ``radix_is_bound``). Empty when the design is what it says."""
    if network is None:
        from topolab.network import build

        network = build(design.spec)
    problems = []
    for what, claimed, built in (
        ("routers", design.routers, network.num_routers),
        ("endpoints", design.endpoints, network.num_endpoints),
    ):
        if claimed != built:
            problems.append(f"{design.spec}: {what} claimed {claimed}, built {built}")
    radix = network.radix
    if radix > design.radix or (radix != design.radix and not design.radix_is_bound):
        problems.append(f"{design.spec}: radix claimed {design.radix}, built {radix}")
    net_radix = network.network_radix
    if net_radix > design.network_radix or (net_radix != design.network_radix and not design.radix_is_bound):
        problems.append(f"{design.spec}: network radix claimed {design.network_radix}, built {net_radix}")
    return problems
