"""Graph analysis: exact distances, the Moore bound, shortest-path diversity and resilience to
random cable failures, computed by the Rust core (docs/analysis.md gives every definition).

    import topolab
    a = topolab.analyze(topolab.build("slimfly:q=19"), paths=True)
    a.diameter, a.aspl, a.endpoint_aspl, a.moore_fraction, a.paths.mean
    a.to_dict()          # the flat form that ``topolab analyze --json`` prints
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any, ClassVar

from topolab import _core, _results
from topolab._results import Bisection, PathDiversity, Resilience, Spectrum, Threshold
from topolab.defaults import DEFAULT_SEED
from topolab.network import Network, as_network
from topolab.progress import Progress, legacy_keyword

__all__ = [
    "Analysis",
    "Bisection",
    "PathDiversity",
    "Resilience",
    "Spectrum",
    "Threshold",
    "analyze",
    "moore_bound",
]


class Analysis(_results.Analysis):
    """Everything ``analyze`` computed (its fields: ``topolab._results.Analysis``, declared in
    Rust). Each computed section contributes its ``flat()`` keys to ``to_dict()``."""

    UNITS: ClassVar[dict[str, str]] = {
        **_results.Analysis.UNITS,
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

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON-ready dict: the scalar fields (tuples as lists), then the keys of each
        computed section."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.SECTIONS:
                if value is not None:
                    out.update(value.flat())
            else:
                out[f.name] = list(value) if isinstance(value, tuple) else value
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
    return Analysis._from_core(json.loads(raw))


def moore_bound(degree: int, diameter: int, directed: bool = False) -> int:
    """The Moore bound: undirected 1 + d·Σ_{i<D}(d−1)^i (Besta & Hoefler, SC14, §II-A), directed Σ_{i≤D} d^i
    (Koibuchi et al., 2018, §I); exact. Raises ParameterError when it exceeds 2**128."""
    return _core.moore_bound(degree, diameter, directed)
