"""Experiment files and grid expansion: contents, counts, ids, and bad files rejected by name."""

import textwrap

import pytest

import topolab
from topolab.experiment import count_points, expand, load_experiment, point_id, register_kind


def write(tmp_path, text, name="exp.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture(autouse=True, scope="module")
def probe_kind():
    register_kind(
        "probe", "experiment_kinds:probe", params=["x", "seed", "load", "routing", "network", "dims"]
    )


def test_axes_cases_and_fixed_expand_in_documented_order(tmp_path):
    path = write(
        tmp_path,
        """
        name = "demo"
        kind = "probe"
        [fixed]
        seed = 7
        [axes]
        x = [1, 2, 3]
        load = [0.25, 0.5]
        [[cases]]
        network = "slimfly:q=5"
        routing = "min"
        [[cases]]
        network = "dragonfly:a=4,h=2,p=2"
        routing = "ugal"
        """,
    )
    exp = load_experiment(path)
    points = expand(exp)
    assert count_points(exp) == len(points) == 2 * 3 * 2
    # Cases outermost, then axes in file order with the last one fastest; fixed in every point.
    got = [(p.params["network"], p.params["routing"], p.params["x"], p.params["load"]) for p in points]
    want = [
        (net, routing, x, load)
        for net, routing in [("slimfly:q=5", "min"), ("dragonfly:a=4,h=2,p=2", "ugal")]
        for x in (1, 2, 3)
        for load in (0.25, 0.5)
    ]
    assert got == want
    assert all(p.params["seed"] == 7 for p in points)
    assert [p.index for p in points] == list(range(12))
    assert list(points[0].params) == ["network", "routing", "x", "load", "seed"]
    assert len({p.id for p in points}) == 12
    assert exp.name == "demo" and exp.results == tmp_path / "exp.results"


def test_no_axes_is_one_point_and_name_defaults_to_the_file(tmp_path):
    exp = load_experiment(write(tmp_path, 'kind = "probe"\n[fixed]\nx = 4\n', name="single.toml"))
    points = expand(exp)
    assert exp.name == "single" and [p.params for p in points] == [{"x": 4}]


@pytest.mark.parametrize(
    "axis, values",
    [
        ("{ start = 0.1, stop = 0.9, step = 0.2 }", [0.1, 0.3, 0.5, 0.7, 0.9]),
        ("{ start = 0.9, stop = 0.1, step = -0.4 }", [0.9, 0.5, 0.1]),
        ("{ start = 0.0, stop = 1.0, num = 5 }", [0.0, 0.25, 0.5, 0.75, 1.0]),
        ("{ start = 2, stop = 11, step = 3 }", [2, 5, 8, 11]),
        ("{ start = 2, stop = 10, step = 3 }", [2, 5, 8]),
        ("{ start = 0.3, stop = 0.3, num = 1 }", [0.3]),
    ],
)
def test_ranges_include_stop_and_equal_the_written_values(tmp_path, axis, values):
    exp = load_experiment(write(tmp_path, f'kind = "probe"\n[axes]\nx = {axis}\n'))
    got = [p.params["x"] for p in expand(exp)]
    assert got == values and [type(v) for v in got] == [type(v) for v in values]
    written = load_experiment(write(tmp_path, f'kind = "probe"\n[axes]\nx = {values!r}\n', name="w.toml"))
    assert [p.id for p in expand(exp)] == [p.id for p in expand(written)]


def test_point_ids_depend_on_kind_and_values_only():
    a = point_id("probe", {"x": 1, "load": 0.5})
    assert a == point_id("probe", {"load": 0.5, "x": 1})  # key order does not matter
    assert len(a) == 16 and int(a, 16) >= 0
    assert a != point_id("info", {"x": 1, "load": 0.5})
    assert a != point_id("probe", {"x": 1, "load": 0.25})
    assert point_id("probe", {"x": 1}) != point_id("probe", {"x": 1.0})  # int and float differ
    assert point_id("probe", {"x": 1}) != point_id("probe", {"x": True})
    # Pinned: ids must not change between topolab versions, or stored results would be orphaned.
    assert point_id("info", {"network": "slimfly:q=5"}) == "d8e8e47acbdd63d2"


def test_editing_an_experiment_keeps_the_ids_of_the_points_it_keeps(tmp_path):
    small = expand(load_experiment({"kind": "probe", "axes": {"x": [1, 2]}, "fixed": {"seed": 1}}))
    grown = expand(load_experiment({"kind": "probe", "axes": {"seed": [1, 2], "x": [2, 1, 3]}}))
    assert {p.id for p in small} < {p.id for p in grown}


def test_yaml_and_toml_give_the_same_points(tmp_path):
    pytest.importorskip("yaml", reason="PyYAML is in the test extra")
    toml = write(tmp_path, 'kind = "probe"\n[axes]\nx = [1, 2]\nload = [0.5]\n')
    yaml = write(tmp_path, "kind: probe\naxes:\n  x: [1, 2]\n  load: [0.5]\n", name="exp.yaml")
    assert [p.id for p in expand(load_experiment(toml))] == [p.id for p in expand(load_experiment(yaml))]


def test_the_example_files_parse():
    import pathlib

    examples = pathlib.Path(__file__).resolve().parents[1] / "examples" / "experiments"
    sizes = expand(load_experiment(examples / "network_sizes.toml"))
    assert len(sizes) == 8 and sizes[0].kind == "info"
    # The simulation sweep names a kind registered after the simulator lands; it must parse.
    sweep = load_experiment(examples / "slimfly_vs_dragonfly.toml")
    assert sweep.kind == "simulate" and count_points(sweep) >= 100


BAD_FILES = [
    ('kind = "probe"\naxis = { x = [1] }\n', ["unknown key 'axis'", "axes", "fixed", "cases"]),
    ("[axes]\nx = [1]\n", ["'kind'"]),
    ('kind = "nosuchkind"\n', ["kind 'nosuchkind' is not registered", "info"]),
    # A file is data: an import path names nothing to import (os:system would run a shell).
    ('kind = "os:system"\n', ["kind 'os:system' is not registered", "topolab.kinds"]),
    (
        'kind = "info"\n[axes]\nnetwork = ["slimfly:q=5"]\nq = [5]\n',
        ["does not take parameter 'q'", "network"],
    ),
    ('kind = "info"\n', ["needs parameter 'network'"]),
    ('kind = "probe"\n[fixed]\nx = 1\n[axes]\nx = [2]\n', ["'x'", "[fixed]", "[axes]"]),
    ('kind = "probe"\n[axes]\nx = 3\n', ["axes.x", "3", "a list of values", "[fixed]"]),
    ('kind = "probe"\n[axes]\nx = []\n', ["axes.x", "empty"]),
    ('kind = "probe"\n[axes]\nx = [1, 2, 1]\n', ["axes.x", "lists 1 twice"]),
    (
        'kind = "probe"\n[axes]\nx = { start = 0, stop = 1, stride = 1 }\n',
        ["'stride'", "start, stop, step, num"],
    ),
    ('kind = "probe"\n[axes]\nx = { start = 0, stop = 1 }\n', ["exactly one of 'step' and 'num'"]),
    ('kind = "probe"\n[axes]\nx = { start = 0, stop = 1, step = -1 }\n', ["'step'", "-1"]),
    ('kind = "probe"\n[fixed]\nx = { a = 1 }\n', ["fixed.x", "strings, numbers, booleans"]),
    ('kind = "probe"\n[fixed]\nx = 1979-05-27\n', ["fixed.x", "strings, numbers, booleans"]),
    ('kind = "probe"\n[[cases]]\nx = 1\n[[cases]]\nx = 1\n', ["points 0 and 1 are the same", "x=1"]),
    ('kind = "probe"\ncases = "x"\n', ["'cases'", "list of tables"]),
    (
        'kind = "probe"\n[axes]\nx = { start = 0, stop = 999, step = 1 }\n'
        "seed = { start = 0, stop = 9999, step = 1 }\n",
        ["10000000 points", "x: 1000", "seed: 10000"],
    ),
    ('kind = "probe"\n[axes\n', ["not valid TOML"]),
]


@pytest.mark.parametrize("text, words", BAD_FILES)
def test_bad_experiment_files_are_rejected_by_name(tmp_path, text, words):
    path = write(tmp_path, text)
    with pytest.raises(topolab.TopolabError) as err:
        expand(load_experiment(path))
    message = str(err.value)
    assert str(path) in message
    for word in words:
        assert word in message


def test_missing_and_unknown_files_are_named(tmp_path):
    with pytest.raises(topolab.FileError, match="no such experiment file"):
        load_experiment(tmp_path / "none.toml")
    other = write(tmp_path, "kind = 'probe'", name="exp.ini")
    with pytest.raises(topolab.FormatError, match=r"'\.ini'.*\.toml"):
        load_experiment(other)


def test_a_kinds_own_validation_runs_before_anything_runs():
    def check(params):
        if params["x"] < 0:
            raise topolab.ParameterError(f"parameter 'x' = {params['x']} is not allowed: x >= 0")

    register_kind("checked", "experiment_kinds:probe", validate=check)
    with pytest.raises(topolab.ParameterError, match=r"point 2 \(x=-1\): parameter 'x' = -1"):
        expand(load_experiment({"kind": "checked", "axes": {"x": [1, 0, -1]}}))


def test_an_experiment_round_trips_through_its_dict(tmp_path):
    path = write(
        tmp_path,
        """
        kind = "probe"
        [fixed]
        seed = 1
        [axes]
        x = { start = 1, stop = 3, step = 1 }
        [[cases]]
        routing = "min"
        [[cases]]
        routing = "ugal"
        """,
    )
    exp = load_experiment(path)
    again = load_experiment(exp.to_dict())
    assert [p.id for p in expand(again)] == [p.id for p in expand(exp)]
    assert exp.to_dict()["axes"] == {"x": [1, 2, 3]}
