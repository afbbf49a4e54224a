"""``topolab compare``'s computation: enumerate the designs for a radix and an endpoint count,
measure each, rank them and recommend one (docs/compare.md §4).

The design space, the Pareto ranking and the words come from this package (``enumerate_designs``,
``shortlist``, ``rank_designs``, ``recommend``); the measurements from ``design.measurements``,
the ranking with the allowed oversubscription from ``design.ranking``; the question and the
answer types from ``topolab.comparison``. This module runs them in order. It writes no report:
``topolab.compare`` (``topolab.workflows``) and the command line do that with ``topolab.report``.

    from topolab.design.compare import CompareSettings, run_comparison
    result = run_comparison(CompareSettings(radix=12, endpoints=100, families=("slimfly",)))
    result.frame          # measured designs, best first
    result.recommendation # sentences
"""

from __future__ import annotations

import math
import time
from typing import Any, Iterable, TextIO

from topolab._args import bad
from topolab.comparison import (
    DEFAULT_ALLOWED_OVERSUBSCRIPTION,
    DEFAULT_ENDPOINTS,
    DEFAULT_PER_FAMILY,
    DEFAULT_RADIX,
    DEFAULT_SIM_ENDPOINTS,
    DEFAULT_SIM_PER_FAMILY,
    SHOWN_OVERSUBSCRIPTION,
    CompareSettings,
    Comparison,
    Measurement,
)
from topolab.design.enumerate import FAMILY_NAMES, designs_frame, enumerate_designs, shortlist
from topolab.design.measurements import MEASUREMENTS, measure_design, objectives_for
from topolab.design.ranking import rank_and_recommend
from topolab.progress import Progress

__all__ = [
    "DEFAULT_ALLOWED_OVERSUBSCRIPTION",
    "DEFAULT_ENDPOINTS",
    "DEFAULT_PER_FAMILY",
    "DEFAULT_RADIX",
    "DEFAULT_SIM_ENDPOINTS",
    "DEFAULT_SIM_PER_FAMILY",
    "MEASUREMENTS",
    "SHOWN_OVERSUBSCRIPTION",
    "CompareSettings",
    "Comparison",
    "Measurement",
    "objectives_for",
    "rank_and_recommend",
    "run_comparison",
]


def run_comparison(
    settings: CompareSettings | None = None,
    *,
    measurements: Iterable[Measurement] | None = None,
    progress: bool | TextIO | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    sim_results: str | None = None,
) -> Comparison:
    """Enumerates the designs of ``settings``, measures the shortlist (or all), ranks them and
    recommends one. ``measurements`` defaults to the enabled ones of ``MEASUREMENTS``.
    ``progress``: True (stderr), a stream, False, or None (stderr when it is a terminal).
    The batch measurements (the simulations) run through the experiment runner: ``workers``
    local processes (default every core) or the Dask ``scheduler`` (an address, 'local', a
    client), keeping each finished search in ``sim_results`` (a directory; None: a temporary
    one), from which an interrupted comparison resumes (docs/compare.md §5).

    Raises ``ParameterError`` for a bad setting, an unknown floor or catalog, or when no design
    fits (the message says which limits to relax)."""
    from topolab.physical import load_catalog, load_floor

    settings = CompareSettings() if settings is None else settings
    load_floor(settings.floor)  # a bad floor or catalog fails now, not in every design
    load_catalog(settings.catalog)
    if measurements is None:
        measurements = [m for m in MEASUREMENTS if m.enabled(settings)]
    measurements = list(measurements)
    batch = [m for m in measurements if m.batch]
    per_design = [m for m in measurements if not m.batch]
    _check_execution(workers, scheduler, bool(batch))

    start = time.perf_counter()
    designs = enumerate_designs(
        settings.radix,
        settings.endpoints,
        settings.endpoint_tolerance,
        settings.families,
        oversubscription=settings.shown_oversubscription,
        context="compare",
    )
    enumerate_s = time.perf_counter() - start
    if not designs:
        raise bad(
            "compare",
            "endpoints",
            settings.endpoints,
            f"a count some design of radix <= {settings.radix} reaches within "
            f"±{settings.endpoint_tolerance:.0%}",
            message=f"compare: no design has radix <= {settings.radix} and "
            f"{settings.endpoints:,} endpoints ±{settings.endpoint_tolerance:.0%}"
            + ("" if settings.families is None else f" among families {', '.join(settings.families)}")
            + ": raise 'radix' or 'endpoint_tolerance', or change 'endpoints' or 'families'",
        )
    chosen = designs if settings.per_family is None else shortlist(designs, settings.per_family)
    stream: TextIO | None = None
    enabled: bool | None = None
    if isinstance(progress, bool) or progress is None:
        enabled = progress
    else:
        stream, enabled = progress, True
    report = Progress(
        f"compare: measuring {len(chosen):,} of {len(designs):,} designs",
        len(chosen),
        unit="design",
        enabled=enabled,
        stream=stream,
    )

    rows = []
    start = time.perf_counter()
    with report:
        for design in chosen:
            head = f"{design.name} ({design.routers:,} routers, {design.endpoints:,} endpoints)"
            report.note(head)

            def status(text: str, head: str = head) -> None:
                report.note(f"{head}: {text}")

            rows.append(measure_design(design, settings, per_design, status))
            report.update()
    for m in batch:
        start_batch = time.perf_counter()
        columns = m.function(
            chosen,
            rows,
            settings,
            workers=workers,
            scheduler=scheduler,
            results=sim_results,
            progress=enabled,
        )
        # its time shared out, so that measure_s still adds up to the comparison's
        share = (time.perf_counter() - start_batch) / max(1, len(chosen))
        for row, values in zip(rows, columns):
            row.update({c: (math.nan if values.get(c) is None else values[c]) for c in m.columns})
            row["measure_s"] += share
    measure_s = time.perf_counter() - start

    import pandas as pd

    measured = pd.concat([designs_frame(chosen), pd.DataFrame(rows, index=range(len(chosen)))], axis=1)
    measured["family_name"] = measured["family"].map(FAMILY_NAMES)
    objectives = objectives_for(settings)
    ranked, lines = rank_and_recommend(measured, objectives, settings.oversubscription)

    curves = None
    if settings.failures is not None:
        from topolab.design.simulate import degradation_curves

        # after the ranking: the curves are of the front's designs
        curves = degradation_curves(
            ranked, settings, workers=workers, scheduler=scheduler, results=sim_results, progress=enabled
        )

    all_designs = designs_frame(designs)
    chosen_specs = {d.spec for d in chosen}
    all_designs["family_name"] = all_designs["family"].map(FAMILY_NAMES)
    all_designs["measured"] = all_designs["spec"].isin(chosen_specs)
    return Comparison(
        settings=settings,
        frame=ranked,
        designs=all_designs,
        recommendation=lines,
        measurements=measurements,
        objectives=objectives,
        enumerate_s=enumerate_s,
        measure_s=measure_s,
        degradation=curves,
    )


def _check_execution(workers: Any, scheduler: Any, simulating: bool) -> None:
    """The runner's options, checked before anything is measured or shown."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise bad("compare", "workers", workers, "an integer >= 1 (processes running the simulations)")
    if (workers is not None or scheduler is not None) and not simulating:
        which = "scheduler" if scheduler is not None else "workers"
        raise bad(
            "compare",
            which,
            scheduler if scheduler is not None else workers,
            "None without simulate: only the simulations run as jobs (the other measurements use "
            "every core already)",
        )
    if isinstance(scheduler, str) and scheduler != "local" and ":" not in scheduler:
        raise bad(
            "compare",
            "scheduler",
            scheduler,
            "a Dask scheduler's address such as 'tcp://host:8786', or 'local'",
        )
    if scheduler is not None:
        try:
            import distributed  # noqa: F401
        except ImportError as err:
            raise bad(
                "compare",
                "scheduler",
                scheduler,
                "an address once Dask is installed (pip install 'topolab[cluster]')",
                message=f"compare: parameter 'scheduler' = {scheduler!r} needs Dask: pip install "
                f"'topolab[cluster]' ({err})",
            ) from err
