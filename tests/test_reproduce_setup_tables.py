"""Every reproduction with a setup table runs the setup it prints: the simulator keywords each
sweep and exchange receives (through the experiment runner, in this process) are read back from
the table `topolab reproduce ID` prints, at the quick scale, the default one and, where building
the paper's networks takes seconds, the full one. The simulations are recorded, not run (the
exchanges run one packet per message), so every scale costs seconds."""

from __future__ import annotations

import csv
import importlib
import re

import pandas as pd
import pytest

import topolab
import topolab.sim
from topolab import reproduce
from topolab.cli import main
from topolab.reproduce.cases import Execution

# Reproductions whose setup is a table (reproduce.SetupRow).
WITH_TABLES = [
    "slimfly-routing",
    "slimfly-buffers",
    "slimfly-oversubscribed",
    "diameter-two",
    "infiniband",
    "unidirectional-sim",
]
# The options of each scale (one process, so that the recording sees every run) and the
# reproductions whose full scale is checked: the others compute static bounds of the paper's
# networks before they run, minutes of channel loads.
SCALES = {"quick": ["--quick"], "default": ["--workers", "1"], "full": ["--full", "--workers", "1"]}
FULL_CHECKED = ["slimfly-routing", "slimfly-buffers", "slimfly-oversubscribed", "unidirectional-sim"]
CASES = [(rid, scale) for scale in ("quick", "default") for rid in WITH_TABLES] + [
    (rid, "full") for rid in FULL_CHECKED
]


def _printed_table(out: str) -> dict[str, str]:
    """parameter -> topolab column of the printed setup table."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("setup (the paper's beside topolab's)"))
    header = lines[start + 1]
    cols = [m.start() for m in re.finditer(r"\S+(?: \S+)*", header)]
    table: dict[str, str] = {}
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        if not set(line) - {"-", " "}:  # the rule under the header
            continue
        cells = [line[a:b].strip() for a, b in zip(cols, cols[1:] + [len(line)])]
        table[cells[0]] = cells[2]
    return table


@pytest.mark.parametrize("rid,scale", CASES)
def test_the_setup_run_is_the_table_printed(rid, scale, monkeypatch, capsys):
    calls: list[tuple[topolab.Network, dict]] = []  # (network, keywords) of every sweep
    raw: list[tuple[topolab.Network, dict]] = []  # the same, not consumed by the checks

    def recording_sweep(net, routing, traffic, loads=None, seed=1, *, load_resolution=0.01, **params):
        calls.append(
            (
                topolab.build(net) if isinstance(net, str) else net,
                {**params, "load_resolution": load_resolution},
            )
        )
        raw.append((calls[-1][0], dict(params)))
        df = pd.DataFrame(
            [
                {
                    "offered_load": 0.1,
                    "accepted_throughput": 0.1,
                    "avg_latency": 10.0,
                    "p99_latency": 12.0,
                    "avg_hops": 2.0,
                    "deflection_rate": 0.0,
                    "saturated": False,
                    "saturation_reason": "",
                    "accepted_throughput_ci95": (0.09, 0.11),
                    "avg_latency_ci95": None,
                }
            ]
        )
        df.attrs.update(saturation_load=0.1, saturated_load=None, saturation_throughput=0.1)
        return df

    real_exchange = topolab.sim.run_exchange

    def recording_exchange(net, exchange, routing="min", seed=1, *, progress=None, **params):
        calls.append(
            (topolab.build(net) if isinstance(net, str) else net, {**params, "load_resolution": None})
        )
        raw.append((calls[-1][0], dict(params)))
        # One packet per neighbour: the keywords are what is checked, not the exchange's figures.
        return real_exchange(net, "nn3d:packets=1", routing, seed, **params)

    # Cases run through the experiment runner (topolab.sim), the others call topolab directly.
    for module in (topolab.sim, topolab):
        monkeypatch.setattr(module, "sweep_load", recording_sweep)
        monkeypatch.setattr(module, "run_exchange", recording_exchange)
    assert main(["reproduce", rid, *SCALES[scale]]) == 0
    printed = _printed_table(capsys.readouterr().out)
    execution = None if scale == "quick" else Execution(workers=1)
    table = reproduce.run(rid, quick=scale == "quick", full=scale == "full", execution=execution).setup_table
    assert calls
    for net, params in calls:
        for row in table:
            assert row.parameter in printed, row.parameter
            assert printed[row.parameter] == str(row.topolab), row.parameter
            if row.sim_param and isinstance(row.topolab, tuple):
                # Varied between the curves (e.g. buffer sizes): the run's value is one of those
                # printed, or the row lists None for runs that do not set it.
                assert params.pop(row.sim_param, None) in row.topolab, row.parameter
            elif row.sim_param:
                # The value the simulator received, as printed.
                assert printed[row.parameter] == str(params.pop(row.sim_param)), row.parameter
        # The papers' networks are intact: no failure set reached the simulator.
        assert params.pop("failures", None) is None
        # Nothing reached the simulator that the table does not show.
        assert set(params) == {"load_resolution"}
        if params["load_resolution"] is not None:
            assert printed["saturation search resolution"] == str(params["load_resolution"])
        if "network" in printed:
            network = printed["network"]
            assert f"{net.num_routers} routers" in network and f"{net.num_endpoints} endpoints" in network
    # Every value of a varied row ran in some curve.
    for row in table:
        if row.sim_param and isinstance(row.topolab, tuple):
            assert {p.get(row.sim_param) for _, p in raw} == set(row.topolab), row.parameter


# Reproductions that measure without simulating, whose settings are a setup table too.
STATIC_WITH_TABLES = ["resilience", "skywalk-cables", "unidirectional"]


@pytest.mark.parametrize("rid", STATIC_WITH_TABLES)
def test_static_runs_take_their_settings_from_the_table_printed(rid, monkeypatch, capsys):
    module = importlib.import_module(reproduce.REGISTRY[rid])
    real = module.run_points
    calls: list[tuple[str, dict, list[dict]]] = []  # (kind, fixed, cases) of every run_points

    def recording(name, kind, fixed, cases, *rest):
        calls.append((kind, dict(fixed), [dict(c) for c in cases]))
        return real(name, kind, fixed, cases, *rest)

    real_run, reproductions = reproduce.run, []

    def keeping(*args, **kwargs):
        reproductions.append(real_run(*args, **kwargs))
        return reproductions[-1]

    monkeypatch.setattr(module, "run_points", recording)
    monkeypatch.setattr(reproduce, "run", keeping)
    assert main(["reproduce", rid, "--quick"]) == 0
    printed = _printed_table(capsys.readouterr().out)
    table = reproductions[0].setup_table
    assert [row.parameter for row in table] == list(printed)
    by_keyword = {row.sim_param: row for row in table if row.sim_param}
    reached = set()
    for kind, fixed, cases in calls:
        for key, value in fixed.items():
            # Every setting of the run is a row of the table printed, with the value run.
            assert key in by_keyword, (kind, key)
            assert printed[by_keyword[key].parameter] == str(value), (kind, key)
        for case in cases:
            for key, value in case.items():
                if key == "network":
                    continue
                row = by_keyword[key]
                if isinstance(row.topolab, tuple):  # varied between the points
                    assert value in row.topolab, (kind, key, value)
                else:
                    assert printed[row.parameter] == str(value), (kind, key)
        reached |= set(fixed) | {key for case in cases for key in case}
    # Every row with a keyword reached some run.
    assert set(by_keyword) <= reached


@pytest.mark.parametrize("rid", ["table4", "moore"])
def test_reading_tables_are_printed_and_written(rid, tmp_path, capsys):
    # table4 and moore run no settings a keyword could carry: their tables say how the paper is read.
    assert main(["reproduce", rid, "-o", str(tmp_path)]) == 0
    printed = _printed_table(capsys.readouterr().out)
    with open(tmp_path / f"{rid}_setup.csv") as f:
        written = {row["parameter"]: row["topolab"] for row in csv.DictReader(f)}
    assert printed and printed == written


def test_every_reproduction_has_a_setup_table_test():
    tested = set(WITH_TABLES) | set(STATIC_WITH_TABLES) | {"table4", "moore"}
    assert tested == set(reproduce.available())
