"""Methods of the result classes that python/topolab/_results.py declares from Rust: presentation
and figures derived from the fields, never a field. scripts/result_types.py makes ``<Name>Methods``
a base of the generated class ``<Name>``, so a result nested in another (a ``Threshold`` in a
``Resilience``) has its methods too. A method reads the fields through ``cast`` to the generated
class (the mixin itself declares none)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from topolab._results import (
        Bisection,
        ClassCables,
        CostReport,
        Design,
        Failures,
        MappedNetwork,
        PathDiversity,
        Placement,
        Resilience,
        Spectrum,
        Threshold,
    )


class PathDiversityMethods:
    def flat(self) -> dict[str, Any]:
        """The keys ``Analysis.to_dict()`` gives this section."""
        r = cast("PathDiversity", self)
        return {
            "path_diversity_mean": r.mean,
            "path_diversity_max": r.max,
            "path_diversity_pairs": r.pairs,
            "path_diversity_multipath_pairs": r.multipath_pairs,
        }


class ThresholdMethods:
    @property
    def interval(self) -> tuple[float, float]:
        """The mean's 95 % confidence interval (ci_low, ci_high)."""
        r = cast("Threshold", self)
        return (r.ci_low, r.ci_high)


class ResilienceMethods:
    def flat(self) -> dict[str, Any]:
        """The keys ``Analysis.to_dict()`` gives this section."""
        r = cast("Resilience", self)
        out: dict[str, Any] = {}
        for key, t in (
            ("disconnect_fraction", r.disconnect),
            ("diameter_plus2_fraction", r.diameter_plus2),
            ("aspl_plus1_fraction", r.aspl_plus1),
        ):
            out[key] = t.mean
            out[f"{key}_interval"] = [t.ci_low, t.ci_high]
        out["resilience_samples"] = r.samples
        out["resilience_converged"] = r.converged
        out["resilience_seed"] = r.seed
        return out


class BisectionMethods:
    def flat(self) -> dict[str, Any]:
        """The keys ``Analysis.to_dict()`` gives this section."""
        r = cast("Bisection", self)
        out: dict[str, Any] = {
            "bisection_links": r.links_cut,
            "bisection_links_lower_bound": r.lower_bound,
            "bisection_per_endpoint": r.per_endpoint,
        }
        if r.directed:
            out["bisection_links_0_to_1"] = r.links_0_to_1
            out["bisection_links_1_to_0"] = r.links_1_to_0
        return out


class SpectrumMethods:
    def flat(self) -> dict[str, Any]:
        """The keys ``Analysis.to_dict()`` gives this section."""
        r = cast("Spectrum", self)
        return {
            "lambda1": r.lambda1,
            "lambda2": r.lambda2,
            "lambda_min": r.lambda_min,
            "spectral_gap": r.gap,
            "two_sided_spectral_gap": r.two_sided_gap,
            "ramanujan_bound": r.ramanujan_bound,
        }


class PlacementMethods:
    def position(self, cabinet: int) -> tuple[int, int]:
        """(row, column) of a cabinet on the grid."""
        return divmod(cabinet, cast("Placement", self).cols)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(cast("Placement", self))
        d["cabinet_of"] = list(d["cabinet_of"])
        return d


class CostReportMethods:
    def cables_of(self, link_class: str) -> ClassCables:
        """The cables of ``link_class`` (``endpoint``: the endpoints' cables)."""
        for c in cast("CostReport", self).by_class:
            if c.link_class == link_class:
                return c
        raise KeyError(link_class)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(cast("CostReport", self))
        d["by_class"] = list(d["by_class"])
        return d


class FailuresMethods:
    @property
    def surviving_endpoints(self) -> int:
        r = cast("Failures", self)
        return r.endpoints_before - len(r.cut_off_endpoints)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the network and the router id map, for JSON and tables."""
        r = cast("Failures", self)
        return {
            "failures": r.failures,
            "failed_cables": r.failed_cables,
            "cables_before": r.cables_before,
            "failed_routers": list(r.failed_routers),
            "isolated_routers": list(r.isolated_routers),
            "endpoints_before": r.endpoints_before,
            "surviving_endpoints": self.surviving_endpoints,
            "cut_off_endpoints": list(r.cut_off_endpoints),
            "excluded_pair_fraction": r.excluded_pair_fraction,
        }


class MappedNetworkMethods:
    def to_dict(self) -> dict[str, Any]:
        """What the mapping found, without the network, for JSON."""
        r = cast("MappedNetwork", self)
        return {
            "family": r.family,
            "shape": list(r.shape),
            "widths": list(r.widths),
            "missing_links": [list(pair) for pair in r.missing_links],
            "missing_cables": r.missing_cables,
        }


class DesignMethods:
    def to_dict(self) -> dict[str, Any]:
        d = asdict(cast("Design", self))
        d["tags"] = list(d["tags"])
        d["params"] = {k: list(v) if isinstance(v, tuple) else v for k, v in d["params"].items()}
        return d
