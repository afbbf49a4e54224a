"""Running experiments locally: results, determinism, failures, lost workers, interruption and
resume, the results store's crash safety, and the `topolab run` command."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pandas as pd
import pytest
from experiment_kinds import LOG, MARKERS, STOP, expected, ran

import topolab
from topolab.cli import main
from topolab.experiment import (
    TIMING_COLUMNS,
    ResultStore,
    load_results,
    point_id,
    register_kind,
    run_experiment,
)

TESTS = pathlib.Path(__file__).resolve().parent


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


def probe_experiment(xs, **fixed):
    return {"name": "probe", "kind": "probe", "axes": {"x": list(xs)}, "fixed": {"seed": 3, **fixed}}


def assert_probe_results(frame, xs, seed=3):
    """Every point once, in grid order, with the results of its own parameters."""
    assert list(frame["x"]) == list(xs)
    assert list(frame["point"]) == list(range(len(xs)))
    assert (frame["status"] == "ok").all(), frame[frame["status"] != "ok"]["error"].tolist()
    for _, row in frame.iterrows():
        want = expected(row["x"], seed)
        assert (row["square"], row["draw"], row["label"]) == (want["square"], want["draw"], want["label"])


def results_only(frame):
    return frame.drop(columns=list(TIMING_COLUMNS)).reset_index(drop=True)


def test_info_kind_gives_the_papers_sizes(tmp_path):
    # Closed forms: Slim Fly MMS has 2q^2 routers (Besta & Hoefler, SC14, §II-B); a balanced Dragonfly a(ah+1)
    # routers with p = h endpoints each (Kim et al. 2008, as in Besta & Hoefler, SC14, §VI-B4).
    nets = ["slimfly:q=5", "slimfly:q=7", "dragonfly:a=4,h=2,p=2", "dragonfly:a=6,h=3,p=3"]
    frame = run_experiment({"kind": "info", "axes": {"network": nets}}, workers=1, progress=False)
    assert list(frame["routers"]) == [2 * 5**2, 2 * 7**2, 4 * (4 * 2 + 1), 6 * (6 * 3 + 1)]
    assert list(frame["endpoints"]) == [50 * 4, 98 * 6, 36 * 2, 114 * 3]
    assert list(frame["family"]) == ["slimfly", "slimfly", "dragonfly", "dragonfly"]
    for _, row in frame.iterrows():
        info = topolab.build(row["network"]).info()
        assert (row["links"], row["radix"], row["network_radix"]) == (
            info["links"],
            info["radix"],
            info["network_radix"],
        )


def test_results_do_not_depend_on_the_number_of_workers(tmp_path, log):
    exp = probe_experiment(range(10))
    serial = run_experiment(exp, results=tmp_path / "one", workers=1, progress=False)
    parallel = run_experiment(exp, results=tmp_path / "two", workers=2, progress=False)
    assert_probe_results(serial, range(10))
    pd.testing.assert_frame_equal(results_only(serial), results_only(parallel))
    assert sorted(ran(log)) == sorted(list(range(10)) * 2)


def test_a_second_run_reuses_the_store_and_an_edit_runs_only_new_points(tmp_path, log):
    store = tmp_path / "store"
    first = run_experiment(probe_experiment([1, 2, 3]), results=store, workers=1, progress=False)
    again = run_experiment(probe_experiment([1, 2, 3]), results=store, workers=1, progress=False)
    pd.testing.assert_frame_equal(first, again)  # finished_at included: nothing ran again
    grown = run_experiment(probe_experiment([0, 1, 2, 3, 4]), results=store, workers=1, progress=False)
    assert_probe_results(grown, [0, 1, 2, 3, 4])
    assert ran(log) == [1, 2, 3, 0, 4]


def test_a_failing_point_is_recorded_once_and_retried_only_when_asked(tmp_path, log):
    store = tmp_path / "store"
    exp = probe_experiment(range(6), fail_at=4)
    frame = run_experiment(exp, results=store, workers=2, progress=False)
    failed = frame[frame["status"] == "failed"]
    assert list(failed["x"]) == [4]
    assert failed["error"].iloc[0].startswith("ValueError: x = 4 is unlucky (at experiment_kinds.py:")
    assert pd.isna(failed["square"].iloc[0])
    assert sorted(ran(log)) == [0, 1, 2, 3, 4, 5]
    run_experiment(exp, results=store, workers=2, progress=False)
    assert sorted(ran(log)) == [0, 1, 2, 3, 4, 5]
    run_experiment(exp, results=store, workers=2, progress=False, retry_failed=True)
    assert sorted(ran(log)) == [0, 1, 2, 3, 4, 4, 5]
    assert len(load_results(store)) == 6


def test_a_worker_that_dies_costs_its_point_which_runs_again(tmp_path, log):
    exp = probe_experiment(range(8), crash_at=5, crash_times=1)
    frame = run_experiment(exp, results=tmp_path / "store", workers=2, progress=False)
    assert_probe_results(frame, range(8))
    runs = ran(log)
    # x = 5 ran twice (its worker died the first time); the pool's other worker may have been
    # running one more point, which ran again; nothing else ran twice.
    assert runs.count(5) == 2
    assert sorted(set(runs)) == list(range(8))
    assert len(runs) - 8 <= 2


def test_a_point_that_always_kills_its_worker_fails_after_three_deaths(tmp_path, log):
    exp = probe_experiment(range(4), crash_at=2, crash_times=99)
    frame = run_experiment(exp, results=tmp_path / "store", workers=2, progress=False)
    assert list(frame["status"]) == ["ok", "ok", "failed", "ok"]
    assert "died 3 times" in frame["error"].iloc[2]
    assert ran(log).count(2) == 3


def test_keyboard_interrupt_keeps_finished_points_and_resume_runs_only_the_rest(tmp_path, log, monkeypatch):
    xs = list(range(12))
    reference = run_experiment(
        probe_experiment(xs), results=tmp_path / "reference", workers=1, progress=False
    )
    log.unlink()
    store = tmp_path / "store"
    monkeypatch.setenv(STOP, "5:interrupt")
    with pytest.raises(KeyboardInterrupt):
        run_experiment(probe_experiment(xs), results=store, workers=1, progress=False)
    stored = load_results(store)
    assert sorted(stored["x"]) == xs[:5]
    monkeypatch.delenv(STOP)
    log.unlink()
    resumed = run_experiment(probe_experiment(xs), results=store, workers=2, progress=False)
    assert sorted(ran(log)) == xs[5:]  # nothing redone
    pd.testing.assert_frame_equal(results_only(resumed), results_only(reference))
    assert load_results(store)["point_id"].is_unique


def _subprocess_env(log, stop=None):
    # tests/plugins declares the probe kind as a plugin would (entry point topolab.kinds).
    path = [str(TESTS), str(TESTS / "plugins"), os.environ.get("PYTHONPATH", "")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    env[LOG] = str(log)
    env.pop(STOP, None)
    if stop:
        env[STOP] = stop
    return env


def _write_probe_file(tmp_path, xs, sleep=0.0):
    path = tmp_path / "probe.toml"
    path.write_text(
        textwrap.dedent(
            f"""
            kind = "probe"
            [fixed]
            seed = 3
            sleep = {sleep}
            [axes]
            x = {list(xs)}
            """
        )
    )
    return path


def test_a_process_that_exits_mid_run_resumes_without_loss_or_duplicates(tmp_path, log):
    xs = list(range(10))
    path = _write_probe_file(tmp_path, xs)
    killed = subprocess.run(
        [sys.executable, "-m", "topolab", "run", str(path), "--workers", "1", "-q"],
        env=_subprocess_env(tmp_path / "killed.log", stop="4:exit"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode == 3, killed.stderr
    store = tmp_path / "probe.results"
    assert sorted(load_results(store)["x"]) == xs[:4]
    resumed = run_experiment(path, workers=1, progress=False)
    assert ran(log) == xs[4:]
    assert_probe_results(resumed, xs)
    assert load_results(store)["point_id"].is_unique


def test_a_killed_parallel_run_leaves_a_readable_store_and_resumes(tmp_path, log, capfd):
    xs = list(range(12))
    path = _write_probe_file(tmp_path, xs, sleep=0.15)
    store = tmp_path / "probe.results"
    proc = subprocess.Popen(
        [sys.executable, "-m", "topolab", "run", str(path), "--workers", "2", "-q"],
        env=_subprocess_env(tmp_path / "killed.log"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill takes its workers too
    )
    deadline = time.monotonic() + 90
    while len(list(store.glob("pt-*.parquet"))) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    stored = load_results(store)
    assert "unreadable" not in capfd.readouterr().err
    assert 3 <= len(stored) < len(xs), "the kill must land mid-run"
    resumed = run_experiment(path, workers=2, progress=False)
    assert sorted(ran(log)) == sorted(set(xs) - set(stored["x"]))
    assert_probe_results(resumed, xs)
    assert load_results(store)["point_id"].is_unique


def test_the_store_ignores_partial_and_foreign_files_and_keeps_the_best_record(tmp_path, capfd):
    import pyarrow as pa
    import pyarrow.parquet as pq

    store = ResultStore(tmp_path / "store")

    def record(x, status, finished_at, **results):
        return {
            "point_id": point_id("probe", {"x": x}),
            "kind": "probe",
            "params": {"x": x},
            "status": status,
            "error": "E" if status == "failed" else "",
            "elapsed_s": 0.1,
            "finished_at": finished_at,
            **results,
        }

    # x = 1 failed, then succeeded in a retry; the failure's timestamp is later on purpose.
    store.add([record(1, "failed", "2024-01-01T00:00:02")])
    store.add([record(1, "ok", "2024-01-01T00:00:01", y=1), record(2, "ok", "2024-01-01T00:00:03", y="two")])
    # What a writer killed mid-write leaves: a truncated temporary file, here an old one.
    partial = store.path / "pt-dead-1.parquet.tmp"
    partial.write_bytes(b"PAR1\x00\x01")
    os.utime(partial, (time.time() - 7200, time.time() - 7200))
    # A Parquet file that is not the store's.
    pq.write_table(pa.table({"a": [1]}), store.path / "foreign.parquet")
    records = store.records()
    assert "foreign.parquet: not a topolab results file" in capfd.readouterr().err
    assert set(records) == {point_id("probe", {"x": 1}), point_id("probe", {"x": 2})}
    one = records[point_id("probe", {"x": 1})]
    assert (one["status"], one["y"], one["params"]) == ("ok", 1, {"x": 1})
    # y is an int in one point and a string in the other: no common column type, so the files
    # stay as they are; the stale temporary file goes, the foreign file stays.
    assert store.compact() is False
    assert store.records() == records
    assert not partial.exists() and (store.path / "foreign.parquet").exists()


def test_compaction_merges_files_and_an_interrupted_one_leaves_no_duplicates(tmp_path, log):
    store = tmp_path / "store"
    frame = run_experiment(probe_experiment(range(5)), results=store, workers=1, progress=False)
    files = list(store.glob("*.parquet"))
    assert len(files) == 1 and files[0].name.startswith("part-")
    # A compaction killed after writing its merged file and before deleting the sources leaves
    # every record twice on disk; reading keeps each point once.
    (store / "part-copy.parquet").write_bytes(files[0].read_bytes())
    again = run_experiment(probe_experiment(range(5)), results=store, workers=1, progress=False)
    pd.testing.assert_frame_equal(frame, again)
    assert len(list(store.glob("*.parquet"))) == 1


def test_bad_arguments_are_named(tmp_path):
    with pytest.raises(topolab.ParameterError, match="'workers' = 0"):
        run_experiment(probe_experiment([1]), workers=0)
    register_kind("local_only", lambda params: {"y": 1})
    with pytest.raises(topolab.ParameterError, match="cannot be sent to worker processes"):
        run_experiment({"kind": "local_only", "axes": {"x": [1, 2]}}, workers=2, progress=False)
    frame = run_experiment({"kind": "local_only", "axes": {"x": [1, 2]}}, workers=1, progress=False)
    assert list(frame["y"]) == [1, 1]


def test_results_must_be_flat_and_must_not_shadow_parameters(tmp_path):
    register_kind("shadow", lambda params: {"x": 1})
    register_kind("deep", lambda params: {"y": {"a": 1}})
    shadow = run_experiment({"kind": "shadow", "fixed": {"x": 1}}, workers=1, progress=False)
    assert "'x' has the name of a parameter" in shadow["error"].iloc[0]
    deep = run_experiment({"kind": "deep"}, workers=1, progress=False)
    assert "results are flat" in deep["error"].iloc[0]
    register_kind("mixed", lambda params: {"mix": [1, "a"]} if params["x"] else {"mix": [1, 2]})
    mixed = run_experiment({"kind": "mixed", "axes": {"x": [0, 1]}}, workers=1, progress=False)
    assert list(mixed["status"]) == ["ok", "failed"] and mixed["mix"].iloc[0] == [1, 2]
    assert "mixes numbers and strings" in mixed["error"].iloc[1]


# --- the command ------------------------------------------------------------------------------


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_dry_run_lists_points_then_run_fills_them(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "sizes.toml"
    path.write_text('kind = "info"\n[axes]\nnetwork = ["slimfly:q=5", "torus:dims=4x4"]\n')
    code, out, err = run_cli(capsys, "run", path, "--dry-run")
    assert code == 0 and "2 points: 0 done, 0 failed, 2 to run" in err
    assert "slimfly:q=5" in out and out.count("pending") == 2
    code, out, err = run_cli(capsys, "run", path, "--workers", "1")
    assert code == 0 and "2 points, 2 ok, 0 failed" in err and "2/2 " in err
    assert "50" in out and "torus" in out
    code, out, _ = run_cli(capsys, "run", path, "--dry-run", "--json")
    assert [r["status"] for r in json.loads(out)] == ["done", "done"]
    code, out, _ = run_cli(capsys, "run", path, "--json", "-q")
    rows = json.loads(out)
    assert [(r["network"], r["routers"], r["endpoints"]) for r in rows] == [
        ("slimfly:q=5", 50, 200),
        ("torus:dims=4x4", 16, 16),
    ]
    assert (tmp_path / "sizes.results").is_dir()


def test_cli_reports_failed_points_and_bad_files(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('kind = "info"\n[axes]\nnetwork = ["slimfly:q=5", "slimfly:q=6"]\n')
    # A network that cannot be built is refused before any point runs (--dry-run says so too).
    code, out, err = run_cli(capsys, "run", path, "--workers", "1", "--results", tmp_path / "r")
    assert code == 2 and "point 1" in err and "prime power" in err
    assert not (tmp_path / "r").exists() or not list((tmp_path / "r").glob("*.parquet"))
    path.write_text('kind = "info"\n[axes]\nnetwork = "slimfly:q=5"\n')
    code, out, err = run_cli(capsys, "run", path)
    assert code == 2 and out == "" and err.startswith("topolab: error:") and "axes.network" in err
    with pytest.raises(SystemExit):
        run_cli(capsys, "run", path, "--workers", "0")


def test_cpu_seconds_are_the_points_cost_not_the_wall_clock(tmp_path, log):
    """cpu_s counts the CPU the point used: a point that sleeps 0.4 s takes 0.4 s of wall time
    but almost no CPU, so a run's CPU cost can be stated on a busy machine."""
    frame = run_experiment(
        probe_experiment([1], sleep=0.4), results=tmp_path / "r", workers=1, progress=False
    )
    row = frame.iloc[0]
    assert row["elapsed_s"] >= 0.4
    assert 0.0 <= row["cpu_s"] < 0.2


def test_a_store_written_before_cpu_seconds_were_recorded_still_reads(tmp_path):
    store = ResultStore(tmp_path / "old")
    store.add(
        [
            {
                "point_id": point_id("probe", {"x": 1}),
                "kind": "probe",
                "params": {"x": 1},
                "status": "ok",
                "error": "",
                "elapsed_s": 0.1,
                "finished_at": "2024-01-01T00:00:01",
                "y": 1,
            }
        ]
    )
    frame = load_results(tmp_path / "old")
    assert frame["y"].tolist() == [1] and frame["cpu_s"].isna().all()
