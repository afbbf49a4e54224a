"""Graph analysis: exact distances, the Moore bound, shortest-path diversity and resilience to
random cable failures, computed by the Rust core (docs/analysis.md gives every definition).

    import topolab
    a = topolab.analyze(topolab.build("slimfly:q=19"), paths=True)
    a.diameter, a.aspl, a.endpoint_aspl, a.moore_fraction, a.paths.mean
    a.to_dict()          # the flat form that ``topolab analyze --json`` prints
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from topolab import _core
from topolab.defaults import DEFAULT_SEED
from topolab.display import Summarized
from topolab.network import Network, as_network
from topolab.progress import Progress, legacy_keyword


@dataclass(frozen=True, repr=False)
class PathDiversity(Summarized):
    """Shortest-path counts over ordered pairs of distinct routers at distance >= 2 (Kathareios et al., SC15,
    §2.3.3)."""

    pairs: int
    mean: float | None
    max: int | None
    multipath_pairs: int
    saturated: bool

    def flat(self) -> dict[str, Any]:
        return {
            "path_diversity_mean": self.mean,
            "path_diversity_max": self.max,
            "path_diversity_pairs": self.pairs,
            "path_diversity_multipath_pairs": self.multipath_pairs,
        }


@dataclass(frozen=True, repr=False)
class Threshold(Summarized):
    """Mean over samples of the largest fraction of removed cables at which a criterion holds,
    with its 95 % confidence interval; ``survival[k]`` is the share of samples meeting it with
    ``k * step`` of the cables removed."""

    mean: float
    ci_low: float
    ci_high: float
    std_dev: float
    survival: list[float]

    @property
    def interval(self) -> tuple[float, float]:
        return (self.ci_low, self.ci_high)


@dataclass(frozen=True, repr=False)
class Resilience(Summarized):
    """Resilience to random cable failures (Besta & Hoefler, SC14, §III-D)."""

    seed: int
    cables: int
    step: float
    samples: int
    converged: bool
    base_diameter: int
    base_aspl: float
    disconnect: Threshold
    diameter_plus2: Threshold
    aspl_plus1: Threshold

    @classmethod
    def from_core(cls, d: dict[str, Any]) -> Resilience:
        criteria = {k: Threshold(**d[k]) for k in ("disconnect", "diameter_plus2", "aspl_plus1")}
        return cls(**{**d, **criteria})

    def flat(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, t in (
            ("disconnect_fraction", self.disconnect),
            ("diameter_plus2_fraction", self.diameter_plus2),
            ("aspl_plus1_fraction", self.aspl_plus1),
        ):
            out[key] = t.mean
            out[f"{key}_interval"] = [t.ci_low, t.ci_high]
        out["resilience_samples"] = self.samples
        out["resilience_converged"] = self.converged
        out["resilience_seed"] = self.seed
        return out


@dataclass(frozen=True, repr=False)
class Bisection(Summarized):
    """The endpoint-balanced bisection METIS finds, best of ``runs`` seeded runs (Besta &
    Hoefler, SC14, §III-C; docs/bisection.md): ``links_cut`` is an upper bound on the minimum
    bisection (minimum bisection is NP-hard). ``lower_bound``: the spectral lower bound on the
    minimum where it holds (undirected, regular, the same endpoints on every router), else None;
    the minimum lies between the two. ``side[r]`` is router r's side."""

    links_cut: int
    links_0_to_1: int
    links_1_to_0: int
    per_endpoint: float
    endpoints: list[int]
    routers: list[int]
    side: list[int]
    directed: bool
    runs: int
    seed: int
    best_run: int
    lower_bound: int | None = None

    def flat(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "bisection_links": self.links_cut,
            "bisection_links_lower_bound": self.lower_bound,
            "bisection_per_endpoint": self.per_endpoint,
        }
        if self.directed:
            out["bisection_links_0_to_1"] = self.links_0_to_1
            out["bisection_links_1_to_0"] = self.links_1_to_0
        return out


@dataclass(frozen=True, repr=False)
class Spectrum(Summarized):
    """Adjacency eigenvalues for expander comparisons (docs/bisection.md): λ1, λ2 (second
    largest counting multiplicity), λmin and the gaps."""

    lambda1: float
    lambda2: float
    lambda_min: float
    gap: float
    lambda_abs: float
    two_sided_gap: float
    regular_degree: int | None
    ramanujan_bound: float | None
    components: int
    error_bound: float
    lanczos_steps: int

    def flat(self) -> dict[str, Any]:
        return {
            "lambda1": self.lambda1,
            "lambda2": self.lambda2,
            "lambda_min": self.lambda_min,
            "spectral_gap": self.gap,
            "two_sided_spectral_gap": self.two_sided_gap,
            "ramanujan_bound": self.ramanujan_bound,
        }


@dataclass(frozen=True, repr=False)
class Analysis(Summarized):
    """Everything ``analyze`` computed. Optional sections (``paths``, ``resilience``,
    ``bisection``, ``spectrum``) are None unless requested; each section contributes its
    ``flat()`` keys to ``to_dict()``. ``diameter``, ``radius``, ``aspl`` and ``eccentricities`` are
    None only when the network is not connected (``connected``); the endpoint-level ones also
    when it has fewer than two endpoints; ``moore_fraction`` with the diameter, and
    ``moore_bound`` also when the bound exceeds 2**128."""

    UNITS: ClassVar[dict[str, str]] = {
        "diameter": "router-to-router hops",
        "radius": "hops",
        "aspl": "hops",
        "endpoint_aspl": "hops",
        "endpoint_diameter": "hops",
        "bisection_links": "cables (METIS's best cut: an upper bound on the minimum bisection)",
        "bisection_links_lower_bound": "cables (spectral lower bound on the minimum bisection)",
        "bisection_per_endpoint": "cables/endpoint",
        "disconnect_fraction": "fraction of cables removed",
        "diameter_plus2_fraction": "fraction of cables removed",
        "aspl_plus1_fraction": "fraction of cables removed",
    }

    SECTIONS: ClassVar[dict[str, Any]] = {
        "paths": PathDiversity,
        "resilience": Resilience,
        "bisection": Bisection,
        "spectrum": Spectrum,
    }

    family: str
    spec: str
    routers: int
    endpoints: int
    links: int
    network_radix: int
    radix: int
    directed: bool
    connected: bool
    components: int
    strong_components: int | None
    diameter: int | None
    radius: int | None
    aspl: float | None
    endpoint_aspl: float | None
    endpoint_diameter: int | None
    histogram: list[int]
    unreachable_pairs: int
    eccentricities: list[int] | None
    moore_bound: int | None
    moore_fraction: float | None
    paths: PathDiversity | None = None
    resilience: Resilience | None = None
    bisection: Bisection | None = None
    spectrum: Spectrum | None = None

    @classmethod
    def from_core(cls, d: dict[str, Any]) -> Analysis:
        moore = d["moore"] or {}
        sections = {}
        for name, section in cls.SECTIONS.items():
            raw = d.get(name)
            if raw is not None:
                build = getattr(section, "from_core", None)
                sections[name] = build(raw) if build else section(**raw)
        if "bisection" in sections:
            sections["bisection"] = replace(sections["bisection"], lower_bound=d.get("bisection_lower_bound"))
        return cls(
            **{k: d[k] for k in ("family", "spec", "routers", "endpoints", "links")},
            **{k: d[k] for k in ("network_radix", "radix", "directed")},
            **d["distances"],
            moore_bound=moore.get("bound"),
            moore_fraction=moore.get("fraction"),
            **sections,
        )

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON-ready dict: the scalar fields, then the keys of each computed section."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.SECTIONS:
                if value is not None:
                    out.update(value.flat())
            else:
                out[f.name] = value
        return out


def analyze(
    net: Network | str,
    *,
    paths: bool = False,
    resilience: bool = False,
    bisection: bool = False,
    bisection_runs: int = 5,
    spectrum: bool = False,
    seed: int = DEFAULT_SEED,
    progress: bool | None = None,
) -> Analysis:
    """Exact distance metrics and the Moore fraction of ``net`` (a Network or a spec string);
    with ``paths`` the shortest-path diversity, with ``resilience`` the random-failure
    thresholds, with ``bisection`` the METIS bisection (best of ``bisection_runs``), with
    ``spectrum`` the adjacency eigenvalues (undirected only). ``seed`` seeds the failure
    samples and the METIS runs.

    Runs in the Rust core with the GIL released; Ctrl-C raises KeyboardInterrupt. ``progress``
    prints progress on stderr (default: when stderr is a terminal)."""
    net = as_network(net, context="analyze")
    progress = legacy_keyword(progress, None, "analyze")
    with Progress("analyze", unit="step", enabled=progress) as bar:
        raw = _core.analyze(
            net._net,
            paths=paths,
            resilience=resilience,
            bisection=bisection,
            bisection_runs=bisection_runs,
            spectrum=spectrum,
            seed=seed,
            progress=bar.callback,
        )
    return Analysis.from_core(json.loads(raw))


def moore_bound(degree: int, diameter: int, directed: bool = False) -> int:
    """The Moore bound: undirected 1 + d·Σ_{i<D}(d−1)^i (Besta & Hoefler, SC14, §II-A), directed Σ_{i≤D} d^i
    (Koibuchi et al., 2018, §I); exact. Raises ParameterError when it exceeds 2**128."""
    return _core.moore_bound(degree, diameter, directed)
