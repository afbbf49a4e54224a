"""Degradation curves: how a network's saturation throughput and latency fall as cables or
routers fail, beside the static channel-load bound of each degraded graph (docs/resilience.md).

Every (failed fraction, failure seed) is one saturation search (``topolab.design.saturation``,
the search ``topolab compare --simulate`` runs) of the experiment runner, so a curve runs on
every local core or on a Dask cluster and resumes from its results directory.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from topolab._args import U64_MAX, bad, float_arg, int_arg, renamed_keyword, text_arg
from topolab.defaults import DEFAULT_SEED

DEFAULT_FRACTIONS = (0.0, 0.01, 0.05, 0.1, 0.2)
FAILURE_KINDS = ("links", "routers")
# The columns of one search kept in the per-seed table.
RUN_COLUMNS = (
    "failed_fraction",
    "failure_seed",
    "failures",
    "failed_cables",
    "failed_routers",
    "surviving_endpoints",
    "excluded_pair_fraction",
    "num_vcs",
    "static_bound",
    "saturation_load",
    "latency_at_saturation",
    "runs",
    "status",
    "error",
)


def degradation(
    network: str,
    fractions: Sequence[float] = DEFAULT_FRACTIONS,
    seeds: int = 3,
    *,
    kind: str = "links",
    routing: str = "min",
    traffic: str = "uniform",
    seed: int = DEFAULT_SEED,
    first_seed: int = 1,
    load_resolution: float = 0.01,
    results: str | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    progress: bool | None = None,
    tolerance: float | None = None,
    **sim_params: Any,
) -> Any:
    """Saturation throughput and latency of ``network`` (a spec) with ``fractions`` of its cables
    (``kind="links"``) or routers (``kind="routers"``) failed, each fraction drawn with the
    ``seeds`` failure seeds ``first_seed``, ``first_seed + 1``, ... (``links:fraction=f,seed=s``;
    a fraction of 0 fails nothing whatever the seed, so it runs once, with ``first_seed``); the
    simulations use ``seed`` and the router
    of ``compare --simulate`` (``topolab.design.simulate.SIM_PARAMS``: internal speedup 2, so
    that the router's head-of-line blocking does not cap what the network carries), overridden
    by ``sim_params``.

    Returns a DataFrame with one row per search (``RUN_COLUMNS``): the static channel-load bound of the
    degraded graph under ``routing`` and ``traffic`` (flits per surviving endpoint per cycle), the simulated
    saturation load (highest offered load carried, to ``load_resolution``; ``tolerance`` is its former name,
    deprecated), the average latency of that run, the endpoints still connected, the VCs simulated
    (hop-indexed routings get one per hop of the degraded graph unless ``num_vcs`` is given).
    ``df.attrs["summary"]`` has one row per fraction: mean, lowest and highest over the seeds. Loads are per
    surviving endpoint: the traffic of cut-off endpoints is excluded (``excluded_pair_fraction``), not counted
    as delivered."""
    import pandas as pd

    from topolab.design.simulate import SIM_PARAMS
    from topolab.experiment import run_experiment

    network = text_arg("degradation", "network", network)
    if kind not in FAILURE_KINDS:
        raise bad("degradation", "kind", kind, "links or routers (a random fraction of them fails)")
    checked = [float_arg("degradation", "fractions", f, 0.0, 1.0) for f in fractions]
    if not checked:
        raise bad("degradation", "fractions", list(fractions), "at least one fraction from 0 to 1")
    seeds = int_arg("degradation", "seeds", seeds, 1, 1000)
    seed = int_arg("degradation", "seed", seed)
    first_seed = int_arg("degradation", "first_seed", first_seed, 0, U64_MAX - seeds)
    load_resolution = renamed_keyword(
        "degradation", "load_resolution", load_resolution, "tolerance", tolerance
    )
    load_resolution = float_arg("degradation", "load_resolution", load_resolution, 1e-6, 0.5)
    cases = [
        {
            "network": network,
            "routing": routing,
            "traffic": traffic,
            "seed": seed,
            "tolerance": load_resolution,
            "failures": f"{kind}:fraction={f},seed={s}",
            **SIM_PARAMS,
            **sim_params,
        }
        for f in dict.fromkeys(checked)
        for s in range(first_seed, first_seed + (seeds if f > 0 else 1))
    ]
    frame = run_experiment(
        {"name": f"degradation of {network}", "kind": "saturation", "cases": cases},
        results=results,
        workers=workers,
        scheduler=scheduler,
        progress=progress,
    )
    rows = []
    for case, record in zip(cases, frame.to_dict("records")):
        fraction = float(case["failures"].split("fraction=")[1].split(",")[0])
        failure_seed = int(case["failures"].rsplit("seed=", 1)[1])
        row: dict[str, Any] = {
            "failed_fraction": fraction,
            "failure_seed": failure_seed,
            "failures": case["failures"],
            "status": record["status"],
            "error": record.get("error"),
        }
        if record["status"] == "ok":
            for key in RUN_COLUMNS:
                if key in record and key not in row:
                    row[key] = record[key]
            row["latency_at_saturation"] = _latency_at(record)
        rows.append(row)
    df = pd.DataFrame(rows, columns=list(RUN_COLUMNS))
    df.attrs["summary"] = summarize(df)
    df.attrs["network"] = network
    df.attrs["routing"] = routing
    df.attrs["traffic"] = traffic
    return df


def _latency_at(record: dict[str, Any]) -> float | None:
    """The average latency of the run at the saturation load (the highest load carried)."""
    for load, latency in zip(record["offered_load"], record["avg_latency"]):
        if math.isclose(load, record["saturation_load"]) and latency is not None:
            return float(latency)
    return None


def summarize(df: Any) -> Any:
    """One row per failed fraction: seeds, and the mean, lowest and highest of the bound, the
    saturation load, its latency and the surviving endpoints over the seeds that ran."""
    import pandas as pd

    out = []
    for fraction, group in df[df["status"] == "ok"].groupby("failed_fraction", sort=True):
        row: dict[str, Any] = {"failed_fraction": fraction, "seeds": len(group)}
        for key in (
            "static_bound",
            "saturation_load",
            "latency_at_saturation",
            "surviving_endpoints",
            "num_vcs",
        ):
            values = pd.to_numeric(group[key], errors="coerce").dropna()
            row[f"{key}_mean"] = float(values.mean()) if len(values) else None
            row[f"{key}_min"] = float(values.min()) if len(values) else None
            row[f"{key}_max"] = float(values.max()) if len(values) else None
        out.append(row)
    return pd.DataFrame(out)
