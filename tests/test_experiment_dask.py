"""Experiments on a Dask cluster started here: the same results as the local runner, and a
worker killed mid-point costs only that point, which the cluster runs again."""

import pandas as pd
import pytest
from experiment_kinds import LOG, MARKERS, ran

from topolab.cli import main
from topolab.experiment import TIMING_COLUMNS, load_results, register_kind, run_experiment

distributed = pytest.importorskip(
    "distributed",
    reason="Dask distributed is not installed (pip install 'topolab[cluster]'; the test extra has it)",
)


@pytest.fixture(autouse=True, scope="module")
def probe_kind():
    register_kind("probe", "experiment_kinds:probe")


@pytest.fixture
def log(tmp_path, monkeypatch):
    path = tmp_path / "ran.log"
    monkeypatch.setenv(LOG, str(path))
    markers = tmp_path / "markers"
    markers.mkdir()
    monkeypatch.setenv(MARKERS, str(markers))
    return path


def results_only(frame):
    return frame.drop(columns=list(TIMING_COLUMNS)).reset_index(drop=True)


EXPERIMENT = {
    "kind": "probe",
    "axes": {"x": list(range(10)), "seed": [1, 2]},
    "fixed": {"fail_at": 7},  # one failing point per seed: failures must match too
}
INFO = {"kind": "info", "axes": {"network": ["slimfly:q=5", "dragonfly:a=4,h=2,p=2", "hyperx:dims=4x4"]}}


def test_a_dask_cluster_gives_the_same_results_as_the_local_runner(tmp_path, log, capsys):
    local = run_experiment(EXPERIMENT, results=tmp_path / "local", workers=2, progress=False)
    local_info = run_experiment(INFO, results=tmp_path / "local-info", workers=2, progress=False)
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as client:
        on_dask = run_experiment(EXPERIMENT, results=tmp_path / "dask", scheduler=client, progress=False)
        # The command, given the scheduler's address, in this process (the cluster is in-process).
        path = tmp_path / "info.toml"
        path.write_text(
            'kind = "info"\n[axes]\nnetwork = ["slimfly:q=5", "dragonfly:a=4,h=2,p=2", "hyperx:dims=4x4"]\n'
        )
        code = main(["run", str(path), "--scheduler", cluster.scheduler_address, "-q"])
        assert code == 0, capsys.readouterr().err
    pd.testing.assert_frame_equal(results_only(local), results_only(on_dask))
    assert list(local["status"]).count("failed") == 2
    assert sorted(ran(log)) == sorted(list(range(10)) * 4)  # each point once per runner
    assert list(run_experiment(path, dry_run=True)["status"]) == ["done"] * 3
    from_cli = run_experiment(path, progress=False)  # nothing left to run: reads the store
    pd.testing.assert_frame_equal(results_only(local_info), results_only(from_cli))


def test_a_worker_killed_mid_point_costs_only_that_point(tmp_path, log):
    exp = {
        "kind": "probe",
        "axes": {"x": list(range(8))},
        # The process running x = 3 dies once, 0.5 s into the point: results finished earlier on
        # that worker have been collected and released by then, so only x = 3 is lost.
        "fixed": {"seed": 5, "crash_at": 3, "crash_times": 1, "crash_delay": 0.5},
    }
    # scheduler="local": a Dask cluster of 2 worker processes (each with a nanny that restarts
    # it) started on this machine for the run and closed after it.
    frame = run_experiment(exp, results=tmp_path / "store", scheduler="local", workers=2, progress=False)
    assert (frame["status"] == "ok").all(), frame["error"].tolist()
    reference = run_experiment(
        {**exp, "fixed": {**exp["fixed"], "crash_times": 0}},
        results=tmp_path / "ref",
        workers=1,
        progress=False,
    )
    assert list(frame["square"]) == list(reference["square"]) and list(frame["draw"]) == list(
        reference["draw"]
    )
    runs = ran(log)
    assert runs.count(3) == 2 + 1  # died once, ran again on the cluster; once in the reference
    assert sorted(runs) == sorted(list(range(8)) * 2 + [3])
    assert load_results(tmp_path / "store")["point_id"].is_unique


def test_a_scheduler_that_is_not_there_is_named(monkeypatch):
    import topolab
    from topolab.experiment import execute

    with pytest.raises(topolab.ParameterError, match="workers = 2 cannot be combined"):
        run_experiment(INFO, scheduler="tcp://127.0.0.1:9", workers=2, progress=False)
    monkeypatch.setattr(execute, "CONNECT_TIMEOUT_S", 0.5)
    with pytest.raises(
        topolab.ParameterError, match="'tcp://127.0.0.1:9': cannot connect to a Dask scheduler"
    ):
        run_experiment(INFO, scheduler="tcp://127.0.0.1:9", progress=False)


def test_a_worker_killed_from_outside_mid_run_loses_and_repeats_nothing(tmp_path, log, monkeypatch):
    # The campaign killed one of two local Dask workers (kill -9) 30 s into a 36-point run; the
    # run had to finish on the worker left and its restarted twin, each point stored once.
    import os
    import signal
    import threading
    import time

    from experiment_kinds import PIDS

    pids = tmp_path / "pids.log"
    monkeypatch.setenv(PIDS, str(pids))
    exp = {"kind": "probe", "axes": {"x": list(range(36))}, "fixed": {"seed": 3, "sleep": 0.2}}
    killed: list[int] = []

    def kill_one_worker():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if len(ran(log)) >= 6 and pids.exists():
                worker = int(pids.read_text().split()[-1])
                if worker != os.getpid():
                    os.kill(worker, signal.SIGKILL)
                    killed.append(worker)
                    return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one_worker, daemon=True)
    killer.start()
    frame = run_experiment(exp, results=tmp_path / "store", scheduler="local", workers=2, progress=False)
    killer.join(timeout=5)
    assert killed, "no worker was killed: the run ended before 6 points"
    assert (frame["status"] == "ok").all(), frame["error"].tolist()
    assert sorted(frame["x"]) == list(range(36))
    stored = load_results(tmp_path / "store")
    assert len(stored) == 36 and stored["point_id"].is_unique
    runs = ran(log)
    assert set(runs) == set(range(36)) and len(runs) <= 36 + 2  # at most the killed point(s) again
