"""Public entry points that span the computation and its report: ``compare`` runs
``topolab.design.compare`` and, asked for a directory, writes ``topolab.report`` there. They sit
above both, so neither imports the other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from topolab._args import opt_int_arg, quote, renamed_keyword
from topolab._core import FileError
from topolab._files import check_output_dir, keep_elsewhere
from topolab.comparison import DEFAULT_FAILURE_SEEDS
from topolab.comparison.settings import family_names
from topolab.defaults import DEFAULT_CATALOG, DEFAULT_FLOOR, DEFAULT_SEED
from topolab.design.compare import (
    DEFAULT_ALLOWED_OVERSUBSCRIPTION,
    DEFAULT_ENDPOINTS,
    DEFAULT_PER_FAMILY,
    DEFAULT_RADIX,
    DEFAULT_SIM_ENDPOINTS,
    DEFAULT_SIM_PER_FAMILY,
    CompareSettings,
    run_comparison,
)
from topolab.experiment.run import MAX_WORKERS
from topolab.progress import legacy_keyword
from topolab.report import write_report

if TYPE_CHECKING:
    import pandas as pd


def compare(
    radix: int = DEFAULT_RADIX,
    endpoints: int = DEFAULT_ENDPOINTS,
    *,
    families: Iterable[str] | str | None = None,
    endpoint_tolerance: float = 0.15,
    oversubscription: float = DEFAULT_ALLOWED_OVERSUBSCRIPTION,
    floor: str = DEFAULT_FLOOR,
    catalog: str = DEFAULT_CATALOG,
    resilience: bool = False,
    per_family: int | None = DEFAULT_PER_FAMILY,
    seed: int = DEFAULT_SEED,
    simulate: bool = False,
    simulate_scaled: bool = False,
    sim_per_family: int = DEFAULT_SIM_PER_FAMILY,
    sim_endpoints: int = DEFAULT_SIM_ENDPOINTS,
    failures: float | None = None,
    failure_fractions: Iterable[float] | None = None,
    failure_seeds: int = DEFAULT_FAILURE_SEEDS,
    workload: str | None = None,
    output: str | None = None,
    progress: bool | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    sim_results: str | None = None,
    tolerance: float | None = None,
) -> pd.DataFrame:
    """Which network for ``endpoints`` endpoints with routers of ``radix`` ports?

    Enumerates every feasible design (``enumerate_designs``), measures at most ``per_family`` per family
    (``shortlist``; None measures all), ranks them by Pareto layer over cost per endpoint, bisection per
    endpoint and average latency, and recommends one. Returns the measured designs best first (``rank`` 1 is
    the recommendation, ``on_front`` marks the Pareto front); ``endpoint_tolerance`` admits endpoint counts
    within that fraction of ``endpoints`` (``tolerance``, its former name, still works with a warning);
    ``df.attrs["recommendation"]`` holds the reasons in words and ``df.attrs["settings"]`` what was asked.
    Only balanced designs are recommended unless ``oversubscription`` allows more (the others are ranked after
    them, ``recommendable`` False). ``simulate=True`` adds the simulated saturation load (uniform and worst
    case) of each family's best ``sim_per_family`` designs at their size (``simulate_scaled``: on members of
    at most ``sim_endpoints`` endpoints) and ranks by it instead of the bisection; the searches run on
    ``workers`` processes or the Dask ``scheduler`` and resume from ``sim_results`` (default:
    ``output``/simulations). ``failures`` (with ``simulate``): also the saturation load under uniform traffic
    with that fraction of the cables failed, a column and an objective, and the degradation curves of the
    front's simulated designs at ``failure_fractions`` (default 0, F/2, F, 2F) with ``failure_seeds`` failure
    sets each (``df.attrs["degradation"]``, one row per search; docs/resilience.md); ``workload`` (with
    ``simulate``): also each simulated design's completion time of that job (a workload spec,
    docs/workloads.md), a column and an objective. With ``output`` a directory, writes the HTML report, the
    plots and the data there (``topolab.report.write_report``). Same arguments, same result (except
    ``measure_s``, the time each design took).
    """
    if output is not None:
        output = check_output_dir("compare", "output", output)
    if sim_results is not None:
        sim_results = check_output_dir("compare", "sim_results", sim_results)
    opt_int_arg("compare", "workers", workers, 1, MAX_WORKERS)
    progress = legacy_keyword(progress, None, "compare")
    settings = CompareSettings(
        radix=radix,
        endpoints=endpoints,
        endpoint_tolerance=renamed_keyword(
            "compare", "endpoint_tolerance", endpoint_tolerance, "tolerance", tolerance
        ),
        oversubscription=oversubscription,
        families=family_names(families),
        floor=floor,
        catalog=catalog,
        resilience=resilience,
        per_family=per_family,
        seed=seed,
        simulate=simulate or simulate_scaled,
        simulate_scaled=simulate_scaled,
        sim_per_family=sim_per_family,
        failures=failures,
        failure_fractions=failure_fractions,
        failure_seeds=failure_seeds,
        workload=workload,
        sim_endpoints=sim_endpoints,
    )
    if sim_results is None and output is not None and settings.simulate:
        sim_results = str(Path(output) / "simulations")
    result = run_comparison(
        settings, progress=progress, workers=workers, scheduler=scheduler, sim_results=sim_results
    )
    if output is not None:
        try:
            write_report(result, output)
        except OSError as err:
            kept = keep_elsewhere(json.dumps(result.to_dict(), default=str), "topolab-compare")
            raise FileError(
                f"{quote(output)}: the report could not be written ({err.strerror or err}); "
                f"the comparison's results are kept in {kept}"
            ) from None
    frame = result.frame.copy()
    frame.attrs["recommendation"] = list(result.recommendation)
    frame.attrs["settings"] = settings.to_dict()
    frame.attrs["considered"] = len(result.designs)
    if result.degradation is not None:
        frame.attrs["degradation"] = result.degradation
    return frame
