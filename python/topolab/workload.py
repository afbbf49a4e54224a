"""Message-level workloads in the flit simulator: collectives (allreduce by ring, Rabenseifner,
binomial tree or hierarchical; all-to-all, uniform or skewed as a mixture-of-experts layer;
allgather, reduce-scatter), GPipe pipelines and 3D halos, one job or several at once, each
placed on the network's endpoints. docs/workloads.md describes each workload and its source.

A job is a spec: ``"allreduce:bytes=1MiB,ranks=64,algorithm=ring,placement=random"``. Jobs are
placed in order, each on the endpoints the jobs before it left free (``ranks`` defaults to all
of them). ``run_workload`` runs them until every message has arrived and reports, per job, its
completion time, NCCL's algorithm and bus bandwidth (nccl-tests, doc/PERFORMANCE.md), the time of
each phase and iteration and the slowest rank; ``slowdown=True`` also runs every job alone on the
same endpoints and reports how much the others slowed it down.
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
from dataclasses import replace
from typing import Any, Iterator, Sequence

from topolab import _core, _results
from topolab._args import bad, bool_arg, text_arg
from topolab._results import JobResult, PhaseTime
from topolab.defaults import DEFAULT_SEED
from topolab.network import Network, as_network
from topolab.progress import Progress, legacy_keyword
from topolab.routing import warn_if_not_deadlock_free
from topolab.sim import TrafficPattern, _patterns

__all__ = [
    "WORKLOAD_POINT_KEYS",
    "JobResult",
    "PhaseTime",
    "WorkloadResult",
    "check_workload_point",
    "run_workload",
    "workload_messages",
    "workload_patterns",
    "workload_point",
]


class WorkloadResult(_results.WorkloadResult):
    """A workload run to completion (its fields: ``topolab._results.WorkloadResult``, declared
    in Rust), with its jobs as a table."""

    def to_dataframe(self) -> Any:
        """One row per job (phases and iterations left out)."""
        import pandas as pd

        rows = []
        for j in self.jobs:
            row = {k: v for k, v in j.to_dict().items() if k not in ("phases", "iteration_cycles")}
            rows.append(row)
        return pd.DataFrame(rows)


def _jobs(where: str, jobs: str | Sequence[str]) -> list[str]:
    if isinstance(jobs, str):
        jobs = [jobs]
    if not isinstance(jobs, Sequence) or not jobs:
        allowed = "a workload spec or a non-empty list of them, e.g. 'allreduce:bytes=1MiB'"
        raise bad(where, "jobs", jobs, allowed)
    return [text_arg(where, f"jobs[{i}]", j) for i, j in enumerate(jobs)]


# Nanoseconds per cycle by default when a trace's compute times become delays: a 256-byte flit
# on a 100 Gb/s link.
DEFAULT_CYCLE_NS = 20.48


@contextlib.contextmanager
def _resolved(where: str, specs: list[str]) -> Iterator[list[str]]:
    """The jobs with every ``chakra:path=TRACE,ranks=N[,cycle_ns=X,...]`` job read into a
    message file (topolab.traces) for the simulator, kept until the block ends; the job's other
    parameters (placement, mapping, seed) are passed on."""
    from topolab.traces import chakra_messages

    with tempfile.TemporaryDirectory(prefix="topolab-chakra-") as tmp:
        out = []
        for k, spec in enumerate(specs):
            name, _, rest = spec.partition(":")
            if name.strip().lower() != "chakra":
                out.append(spec)
                continue
            params = dict(p.partition("=")[::2] for p in rest.split(",") if p)
            path = params.pop("path", None)
            if not path or "ranks" not in params:
                allowed = "chakra:path=TRACE,ranks=N: a Chakra execution trace and the ranks it runs on"
                raise bad(where, f"jobs[{k}]", spec, allowed)
            text = params.pop("ranks")
            ranks: Any = int(text) if text.isdigit() else text  # chakra_messages checks it
            text = params.pop("cycle_ns", str(DEFAULT_CYCLE_NS))
            try:
                cycle_ns = float(text)
            except ValueError:
                raise bad(where, "cycle_ns", text, "nanoseconds per cycle, a number > 0") from None
            file = os.path.join(tmp, f"job{k}.messages")
            with open(file, "w") as f:
                f.write(chakra_messages(path, ranks, cycle_ns=cycle_ns))
            out.append(",".join([f"messages:path={file}", *(f"{k2}={v}" for k2, v in params.items())]))
        yield out


def run_workload(
    net: Network | str,
    jobs: str | Sequence[str],
    routing: str = "min",
    seed: int = DEFAULT_SEED,
    *,
    packet_bytes: int = 256,
    slowdown: bool = False,
    background: str | None = None,
    background_load: float = 0.0,
    progress: bool | None = None,
    **router_params: Any,
) -> WorkloadResult:
    """Runs the jobs (workload specs, placed in order on the free endpoints) on ``net`` until
    every message has arrived. ``packet_bytes``: bytes per packet (each message is cut into
    packets of ``packet_size`` flits). ``slowdown=True`` runs each job alone on the same
    endpoints too (one more run per job) and sets ``alone_cycles`` and ``slowdown``.
    ``background`` (a traffic pattern, docs/traffic.md): the endpoints no job uses send it at
    ``background_load`` flits per endpoint per cycle, also in the runs alone. Router
    parameters are the simulator's (``num_vcs=4``, ...; ``topolab.sim_params()``)."""
    net = as_network(net)
    specs = _jobs("run_workload", jobs)
    # a Python feature: the runs alone are this function's loop
    slowdown = bool_arg("run_workload", "slowdown", slowdown)
    progress = legacy_keyword(progress, None, "run_workload")
    warn_if_not_deadlock_free(routing)

    def one(alone: int | None, stage: str) -> WorkloadResult:
        with (
            _resolved("run_workload", specs) as resolved,
            Progress(stage, unit="flit", enabled=progress, unit_stages=("workload",)) as bar,
        ):
            d = _core.run_workload(
                net._net,
                routing,
                resolved,
                packet_bytes=packet_bytes,
                alone=alone,
                background=background,
                background_load=background_load,
                seed=seed,
                params=router_params,
                progress=bar.callback,
            )
        return WorkloadResult._from_core(d)

    result = one(None, "workload")
    if not slowdown:
        return result
    jobs_out = []
    for j, job in enumerate(result.jobs):
        alone = one(j, f"job {j} alone").jobs[0].completion_cycles
        ratio = job.completion_cycles / alone if alone else math.nan
        jobs_out.append(replace(job, alone_cycles=alone, slowdown=ratio))
    return replace(result, jobs=tuple(jobs_out))


def workload_messages(net: Network | str, jobs: str | Sequence[str]) -> list[dict[str, Any]]:
    """The messages of each job as the simulator runs them: per job a dict with its canonical
    ``name``, ``operation``, ``ranks``, the ``endpoints`` of its ranks, its ``phases`` and its
    ``messages`` as (src rank, dst rank, bytes, delay, phase, iteration, dependencies)."""
    net = as_network(net)
    specs = _jobs("workload_messages", jobs)
    out = []
    with _resolved("workload_messages", specs) as resolved:
        parsed = _core.workload_messages(net._net, resolved)
    for name, operation, ranks, endpoints, messages, phases in parsed:
        out.append(
            {
                "name": name,
                "operation": operation,
                "ranks": ranks,
                "endpoints": list(endpoints),
                "phases": list(phases),
                "messages": [tuple(m[:6]) + (list(m[6]),) for m in messages],
            }
        )
    return out


def workload_patterns() -> list[TrafficPattern]:
    """Every built-in workload with its aliases and declared parameters."""
    return _patterns(_core.workload_patterns())


WORKLOAD_POINT_KEYS = (
    "network",
    "jobs",
    "routing",
    "seed",
    "packet_bytes",
    "slowdown",
    "background",
    "background_load",
)


def workload_point(params: dict[str, Any]) -> dict[str, Any]:
    """One experiment point of kind "workload": ``network``, ``jobs`` (a workload spec or a list
    of them), ``routing`` (min), ``seed``, ``packet_bytes`` (256), ``slowdown`` (false); every
    other key is a router parameter (``sim_params()``). Results: the run's totals and, as lists
    with one entry per job, each job's name, completion time, bus bandwidth over a link's and
    (with ``slowdown``) slowdown."""
    router_params = {k: v for k, v in params.items() if k not in WORKLOAD_POINT_KEYS}
    jobs = params["jobs"]
    r = run_workload(
        str(params["network"]),
        jobs if isinstance(jobs, str) else list(jobs),
        str(params.get("routing", "min")),
        seed=int(params.get("seed", DEFAULT_SEED)),
        packet_bytes=int(params.get("packet_bytes", 256)),
        slowdown=bool(params.get("slowdown", False)),
        background=params.get("background"),
        background_load=float(params.get("background_load", 0.0)),
        progress=False,
        **router_params,
    )
    return {
        "completion_cycles": r.completion_cycles,
        "packets": r.packets,
        "delivered_packets": r.delivered_packets,
        "avg_latency": r.avg_latency,
        "job_names": [j.name for j in r.jobs],
        "job_cycles": [j.completion_cycles for j in r.jobs],
        "busbw_link_fraction": [j.busbw_link_fraction for j in r.jobs],
        "slowdown": [j.slowdown for j in r.jobs],
        "wall_seconds": r.wall_seconds,
    }


def check_workload_point(params: dict[str, Any]) -> None:
    """Before any point runs: ``jobs`` a spec or a list of specs, text ``routing``, integer
    ``seed`` and ``packet_bytes``, a boolean ``slowdown``, router parameters the simulator takes
    and a network that builds (the jobs are read against the network when the point runs)."""
    from topolab.sim import check_network

    _jobs("workload", params["jobs"])
    if "routing" in params:
        text_arg("workload", "routing", params["routing"], "a name, e.g. 'min'")
    if not isinstance(params.get("slowdown", False), bool):
        raise bad("workload", "slowdown", params["slowdown"], "true or false")
    _core.check_sim_params(
        {k: v for k, v in params.items() if k not in WORKLOAD_POINT_KEYS},
        seed=params.get("seed", DEFAULT_SEED),
        packet_bytes=params.get("packet_bytes", 256),
    )
    check_network("workload", params["network"])
