"""Regression tests of issue 15: every failure a fuzzing campaign found (docs/reliability.md).
Each input here once crashed, hung, answered wrongly or raised the wrong kind of error."""

import math
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

import topolab
from topolab.cli import main
from topolab.experiment import run_experiment
from topolab.experiment.spec import MAX_POINTS, load_experiment

# The longest error message any single bad value may produce: the 200 quoted characters of the
# value plus the context, the parameter name and what is allowed.
SHORT_MESSAGE = 2000


def run_python(code: str, *, address_space: int | None = None, env: dict | None = None, timeout: float = 300):
    """Runs ``code`` in a fresh interpreter (a crash there fails the test instead of killing
    pytest), optionally under an address-space limit (``ulimit -v``)."""
    prelude = ""
    if address_space is not None:
        prelude = (
            f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({address_space}, {address_space}))\n"
        )
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


# --- crashes -------------------------------------------------------------------------------------


def nested_product(depth: int, leaf: str = "torus:dims=2", other: str = "torus:dims=1") -> str:
    spec = leaf
    for _ in range(depth):
        spec = f"product:a=({spec}),b=({other})"
    return spec


@pytest.mark.parametrize("depth", [17, 700, 5000])
def test_deeply_nested_specs_are_refused_with_a_short_message(depth):
    # 700 levels ended in SIGSEGV (a stack overflow), 600 in a 5 MB message.
    result = run_python(
        "import topolab\nspec = 'torus:dims=2'\n"
        f"for _ in range({depth}):\n    spec = f'product:a=({{spec}}),b=(torus:dims=1)'\n"
        "try:\n    topolab.build(spec)\nexcept topolab.ParameterError as e:\n    print(e)\n"
    )
    assert result.returncode == 0, result.stderr[-2000:]
    message = result.stdout.strip()
    assert f"nest {depth} levels deep" in message and "at most 16" in message
    assert len(message) < SHORT_MESSAGE


def test_sixteen_levels_of_products_still_build():
    net = topolab.build(nested_product(16))
    assert net.num_routers == 2  # the product with 1-router factors is the 2-router leaf


def test_a_long_value_is_quoted_by_its_first_200_characters():
    value = "7" * 100_000
    with pytest.raises(topolab.ParameterError) as err:
        topolab.build(f"slimfly:q={value}")
    message = str(err.value)
    # The quote is of the value as the message shows it, quotes included.
    assert "'" + "7" * 199 in message and "7" * 200 not in message
    assert "100002 characters in all" in message and len(message) < SHORT_MESSAGE


def test_deeply_nested_graphml_is_refused(tmp_path):
    # 1 MB nested 150,000 elements deep ended in SIGSEGV (the tree was dropped recursively).
    path = tmp_path / "deep.graphml"
    depth = 150_000
    path.write_text("<graphml>" + "<a>" * depth + "</a>" * depth + "</graphml>")
    result = run_python(
        "import topolab\n"
        f"try:\n    topolab.load({str(path)!r})\nexcept topolab.FormatError as e:\n    print(e)\n"
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "more than 64 levels deep" in result.stdout


# --- wrong answers -------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["torus:dims=1", "fattree:k=2", "mlfm:h=1", "dragonfly:a=1,h=1"])
def test_router_price_below_the_regressions_range_is_refused(spec):
    # Besta & Hoefler, SC14, §VI-B2: f(k) = 350.4k - 892.3 is negative for k <= 2 (torus:dims=1 cost -$542).
    net = topolab.build(spec)
    assert 350.4 * net.radix - 892.3 <= 0
    with pytest.raises(topolab.ParameterError, match="router_radix.*at least 3"):
        topolab.cost(net)
    # Buying real routers prices them by the regression, positive.
    report = topolab.cost(net, router_radix=48)
    assert report.router_cost == pytest.approx(net.num_routers * (350.4 * 48 - 892.3))


def test_an_oversized_torus_reports_its_router_count_not_zero_links(capsys):
    assert main(["info", "torus:dims=4096x4097"]) == 2
    err = capsys.readouterr().err
    assert f"{4096 * 4097} routers" in err and "0 links" not in err


def test_info_counts_the_cables_of_each_class_like_networkx():
    net = topolab.build("hyperx:dims=3x4,widths=2x1")
    g = net.to_networkx()
    by_class: dict = {}
    for _, _, data in g.edges(data=True):
        by_class[data["link_class"]] = by_class.get(data["link_class"], 0) + data["width"]
    assert net.info()["link_classes"] == by_class


def _booksim_torus(tmp_path, **extra) -> pathlib.Path:
    lines = ["topology = torus;", "k = 4;", "n = 2;", "routing_function = dim_order;"]
    lines += [f"{k} = {v};" for k, v in extra.items()]
    path = tmp_path / "torus.cfg"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_booksim_injection_rate_uses_flits_must_be_0_or_1(tmp_path):
    assert topolab.from_booksim(_booksim_torus(tmp_path, injection_rate_uses_flits=1)).load == 0.1
    with pytest.raises(topolab.ParameterError, match="injection_rate_uses_flits.*'64'.*0 .* or 1"):
        topolab.from_booksim(_booksim_torus(tmp_path, injection_rate_uses_flits=64))


def test_a_booksim_network_file_error_does_not_echo_that_files_content(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:SECRET-LINE:0:0\n")
    config = tmp_path / "net.cfg"
    config.write_text(f"topology = anynet;\nnetwork_file = {secret};\nrouting_function = min;\n")
    with pytest.raises(topolab.FormatError) as err:
        topolab.from_booksim(config)
    assert "SECRET" not in str(err.value)
    assert str(secret) in str(err.value) and "line 1" in str(err.value)


# --- the wrong kind of error ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, words",
    [
        (["cost", "slimfly:q=5", "--router-radix", "-1"], ["--router-radix", "'-1'"]),
        (["sim", "torus:dims=4x4", "--seed", "-1"], ["--seed", "'-1'"]),
        (["sim", "torus:dims=4x4", "--sweep", "--loads", "abc"], ["--loads", "abc"]),
        (["--memory-limit", "lots", "info", "torus:dims=4x4"], ["--memory-limit", "lots"]),
    ],
)
def test_cli_conversion_errors_are_parameter_errors(argv, words, capsys):
    try:
        code = main(argv)
    except SystemExit as stop:  # a number refused by its option's type: argparse's usage error
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err
    for word in words:
        assert word in err


def test_api_conversion_errors_are_parameter_errors(tmp_path):
    path = tmp_path / "ring.edgelist"
    path.write_text("0 1\n1 2\n2 0\n")
    net = topolab.build("torus:dims=4x4")
    calls = {
        "endpoints_per_router": lambda: topolab.load(path, endpoints_per_router=-1),
        "directed": lambda: topolab.load(path, directed="yes"),
        "bisection": lambda: topolab.analyze(net, bisection="yes"),
        "max_electric_m": lambda: topolab.cost(net, max_electric_m="nan"),
        "seed": lambda: topolab.simulate(net, seed=2**64),
        "load": lambda: topolab.simulate(net, load=math.nan),
    }
    for name, call in calls.items():
        with pytest.raises(topolab.ParameterError, match=f"parameter '{name}'"):
            call()


def test_an_experiment_value_nested_5000_deep_is_a_clean_error(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text('kind = "info"\n[fixed]\nx = ' + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(topolab.FormatError, match="nest too deeply"):
        load_experiment(path)
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(topolab.ParameterError, match="more than 32 levels"):
        load_experiment({"kind": "info", "fixed": {"x": deep}, "axes": {"network": ["torus:dims=2"]}})


# --- late validation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "point, words",
    [
        ({"colour": "red"}, ["'colour'", "num_vcs"]),
        ({"load": 1.5}, ["'load'", "1.5", "0 to 1"]),
        ({"num_vcs": "four"}, ["num_vcs", "four"]),
        ({"network": "slimfly:q=6"}, ["'network'", "q", "6"]),
    ],
)
def test_simulate_points_are_checked_before_anything_runs(tmp_path, point, words):
    fixed = {"network": "torus:dims=4x4", "load": 0.2, **point}
    loads = {"load": [fixed.pop("load")]}
    exp = {"name": "late", "kind": "simulate", "fixed": fixed, "axes": loads, "results": str(tmp_path / "r")}
    with pytest.raises(topolab.ParameterError) as err:
        run_experiment(exp, dry_run=True, progress=False)
    for word in words:
        assert word in str(err.value)
    assert not (tmp_path / "r").exists()


def test_an_axis_of_a_billion_values_is_refused_before_it_is_built():
    exp = {"kind": "info", "axes": {"x": {"start": 0, "stop": 1, "num": 1_000_000_000}}}
    with pytest.raises(topolab.ParameterError, match=f"'num' = 1000000000 .* from 1 to {MAX_POINTS}"):
        load_experiment(exp)


def test_nested_products_are_sized_before_their_factors_are_built():
    # 2 x 3^16 routers: the chain's size follows from its factors' closed-form sizes alone, and the
    # innermost product already too large (2 x 3^15 routers) is the one named.
    with pytest.raises(topolab.ParameterError, match=f"gives {2 * 3**15} routers"):
        topolab.build(nested_product(16, other="torus:dims=3"))


# --- kinds come from the registry, not from the file ---------------------------------------------


def test_an_import_path_kind_in_a_file_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    path = tmp_path / "evil.toml"
    path.write_text(f'kind = "os:system"\n[axes]\ncmd = ["touch {marker}"]\n')
    with pytest.raises(topolab.ParameterError, match="not registered"):
        run_experiment(path, dry_run=True, progress=False)
    with pytest.raises(topolab.ParameterError, match="not registered"):
        run_experiment(path, workers=1, progress=False)
    assert not marker.exists()


def test_a_plugin_kind_comes_from_an_entry_point(tmp_path, monkeypatch):
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    (plugin / "double_kind.py").write_text("def run_point(params):\n    return {'twice': 2 * params['x']}\n")
    dist = plugin / "double_kind-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: double-kind\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[topolab.kinds]\ndouble = double_kind:run_point\n")
    monkeypatch.syspath_prepend(str(plugin))
    frame = run_experiment({"kind": "double", "axes": {"x": [1, 2, 3]}}, workers=1, progress=False)
    assert list(frame["twice"]) == [2, 4, 6]


# --- the resource guard --------------------------------------------------------------------------


def test_a_simulation_too_big_for_the_address_space_is_refused_not_aborted():
    # Under `ulimit -v 4194304` the simulator aborted on a failed allocation; now it estimates
    # first. 3 GiB of address space: the 2^20-router torus builds, its simulation cannot fit.
    result = run_python(
        "import sys\nfrom topolab.cli import main\nsys.exit(main(['sim', 'torus:dims=1024x1024']))",
        address_space=3 << 30,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert "address-space limit (ulimit -v)" in result.stderr
    assert "simulation state" in result.stderr and "GiB" in result.stderr


def test_the_memory_limit_option_and_variable_refuse_a_big_build(capsys):
    assert main(["--memory-limit", "1M", "info", "torus:dims=512x512"]) == 2
    err = capsys.readouterr().err
    assert "parameter 'dims' = 512x512" in err and "1.0 MiB" in err
    result = run_python(
        "import topolab\ntopolab.build('torus:dims=512x512')", env={"TOPOLAB_MEMORY_LIMIT": "1M"}
    )
    assert result.returncode == 1 and "ParameterError" in result.stderr and "dims" in result.stderr
    assert main(["--memory-limit", "64G", "info", "torus:dims=4x4"]) == 0


# --- faults --------------------------------------------------------------------------------------


def test_workers_exit_when_their_driver_is_killed(tmp_path):
    tests = pathlib.Path(__file__).resolve().parent
    path = tmp_path / "slow.toml"
    path.write_text(
        textwrap.dedent(
            """
            kind = "probe"
            [fixed]
            sleep = 60.0
            [axes]
            x = [1, 2, 3, 4]
            """
        )
    )
    driver = subprocess.Popen(
        [sys.executable, "-m", "topolab", "run", str(path), "--workers", "2", "-q"],
        # tests/plugins declares the probe kind (tests/experiment_kinds.py) as an entry point.
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), str(tests / "plugins")])},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        workers = _wait_for_children(driver.pid, 2)
        assert len(workers) == 2
    finally:
        driver.kill()
        driver.wait(timeout=30)
    # Bounded wait: the workers were sleeping 60 s in their point; they must go long before.
    _wait_until_gone(workers, limit=30.0)


def _children(pid: int) -> list[int]:
    out = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _wait_for_children(pid: int, count: int) -> list[int]:
    import time

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        # The pool's workers (the spawn helper, a resource tracker, may be a child too).
        found = [c for c in _children(pid) if "spawn_main" in _cmdline(c)]
        if len(found) >= count:
            return found
        time.sleep(0.1)
    return []


def _cmdline(pid: int) -> str:
    try:
        return pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def _wait_until_gone(pids: list[int], limit: float) -> None:
    import time

    deadline = time.monotonic() + limit
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if _running(p)]
        time.sleep(0.1)
    for p in alive:  # do not leave them behind, whatever the outcome
        os.kill(p, 9)
    assert not alive, f"workers {alive} outlived their driver by {limit} s"


def _running(pid: int) -> bool:
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_damaged_results_file_is_moved_aside_and_its_points_run_again(tmp_path, capfd):
    exp = {"kind": "info", "axes": {"network": ["torus:dims=2x2", "torus:dims=3x3"]}}
    store = tmp_path / "store"
    first = run_experiment(exp, results=store, workers=1, progress=False)
    (part,) = list(store.glob("*.parquet"))
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])  # a copy cut short
    capfd.readouterr()
    again = run_experiment(exp, results=store, workers=1, progress=False)
    err = capfd.readouterr().err
    aside = part.with_name(part.name + ".damaged")
    assert aside.exists() and f"moved it aside to {aside}" in err
    assert list(again["routers"]) == list(first["routers"]) == [4, 9]
    # Repaired: the next run reads a healthy store and says nothing.
    run_experiment(exp, results=store, workers=1, progress=False)
    assert "unreadable" not in capfd.readouterr().err


def test_output_replaces_a_symbolic_link_instead_of_writing_through_it(tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me\n")
    link = tmp_path / "out.json"
    link.symlink_to(elsewhere)
    assert main(["build", "torus:dims=3x3", "-o", str(link)]) == 0
    assert elsewhere.read_text() == "keep me\n"
    assert not link.is_symlink() and topolab.load(link).num_routers == 9
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))
