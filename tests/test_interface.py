"""One interface across the command line and Python: flag spellings, --help, --json inputs and
units, completion, exception attributes, short reprs, shared defaults."""

import argparse
import json
import shlex
import subprocess
import sys

import pytest

import topolab
from topolab.cli import main, make_parser
from topolab.cli.common import EXAMPLES_HEADING
from topolab.defaults import DEFAULT_FLOOR, DEFAULT_SEED

SMALL = "slimfly:q=5"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def subcommands(parser=None, prefix=()):
    """(command words, parser) for every command and nested action."""
    parser = parser or make_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*prefix, name), child
                yield from subcommands(child, (*prefix, name))


def test_every_command_has_a_description_and_examples_that_parse():
    parser = make_parser()
    seen = 0
    for words, child in subcommands():
        assert child.description, f"{' '.join(words)} has no description"
        assert child.epilog and child.epilog.startswith(EXAMPLES_HEADING), f"{' '.join(words)}: no examples"
        examples = child.epilog.split("\n\n")[0].splitlines()[1:]
        assert examples, words
        for line in examples:
            argv = shlex.split(line.split("#")[0].split(">")[0].strip().removeprefix('eval "$(').rstrip(')"'))
            assert argv[0] == "topolab"
            parser.parse_args(argv[1:])  # exits (SystemExit) on a wrong example
            seen += 1
    assert seen >= 30


def test_sim_help_lists_every_simulator_routing_and_traffic_pattern_and_the_booksim_names(capsys):
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    out = capsys.readouterr().out
    for r in topolab.routings():
        if r.simulator:
            assert r.name in out
    for t in topolab.sim.traffic_patterns():
        assert t.name in out
    assert "min_static" in out and "BookSim2's anynet 'min'" in out


@pytest.mark.parametrize("flag", ["--num-vcs", "--num_vcs"])
def test_sim_flags_in_both_spellings(capsys, flag):
    code, out, _ = run(capsys, "sim", SMALL, "--load", "0.2", flag, "2", "--vc-buf-size", "8", "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["inputs"]["router"]["num_vcs"] == 2 and doc["inputs"]["router"]["vc_buf_size"] == 8


def test_snake_case_of_an_unknown_flag_is_still_an_error(capsys):
    with pytest.raises(SystemExit):
        main(["sim", SMALL, "--no_such_flag", "1"])
    assert "--no_such_flag" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--spectrum", "--spectral"])
def test_analyze_spectrum_in_the_python_name_and_the_former_one(capsys, flag):
    code, out, _ = run(capsys, "analyze", SMALL, flag, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["inputs"]["spectrum"] is True
    # Slim Fly q=5 is 7-regular: the largest adjacency eigenvalue is the degree.
    assert doc["lambda1"] == pytest.approx(7.0)


def test_sim_json_carries_spec_seed_router_settings_and_units(capsys):
    code, out, _ = run(capsys, "sim", SMALL, "--load", "0.3", "--traffic", "bitcomp", "--json")
    doc = json.loads(out)
    inputs = doc["inputs"]
    assert inputs["spec"] == SMALL and inputs["seed"] == DEFAULT_SEED and inputs["traffic"] == "bitcomp"
    assert inputs["load"] == 0.3 and inputs["router"]["num_vcs"] is not None
    assert doc["units"]["avg_latency"] == "cycles"
    assert doc["offered_load"] == pytest.approx(0.3)


@pytest.mark.parametrize(
    "argv, inputs",
    [
        (["analyze", SMALL, "--bisection"], {"bisection": True, "seed": DEFAULT_SEED}),
        (["cost", SMALL], {"floor": DEFAULT_FLOOR, "catalog": "fdr10"}),
        (["latency", SMALL, "--switch-delay", "100"], {"floor": DEFAULT_FLOOR, "switch_delay_ns": 100.0}),
        (["place", SMALL], {"floor": DEFAULT_FLOOR}),
        (["info", SMALL], {"network": SMALL}),
        (["routing", "check", SMALL, "--routing", "min"], {"routing": "min"}),
        (["routing", "load", SMALL, "--routing", "min"], {"routing": "min", "traffic": "uniform"}),
    ],
)
def test_every_json_output_names_its_inputs_and_units(capsys, argv, inputs):
    code, out, _ = run(capsys, *argv, "--json")
    doc = json.loads(out)
    command = " ".join(argv[:2]) if argv[0] == "routing" else argv[0]
    assert code == 0 and doc["command"] == command
    assert inputs.items() <= doc["inputs"].items()
    assert isinstance(doc["units"], dict)


def test_reproduce_list_json_is_json(capsys):
    code, out, _ = run(capsys, "reproduce", "--list", "--json")
    listed = json.loads(out)["reproductions"]
    assert code == 0 and [r["id"] for r in listed] == topolab.reproduce.available()


def test_one_default_seed_and_floor_across_commands_and_python():
    import inspect

    from topolab.design.compare import CompareSettings

    assert inspect.signature(topolab.simulate).parameters["seed"].default == DEFAULT_SEED
    assert inspect.signature(topolab.analyze).parameters["seed"].default == DEFAULT_SEED
    assert CompareSettings().seed == DEFAULT_SEED and CompareSettings().floor == DEFAULT_FLOOR
    for fn in (topolab.place, topolab.cost, topolab.latency):
        assert inspect.signature(fn).parameters["floor"].default == DEFAULT_FLOOR
    # Python's default is the stream of seed 0, whatever the Rust crate's own default.
    default = topolab.simulate(SMALL, load=0.3, progress=False)
    zero = topolab.simulate(SMALL, load=0.3, seed=0, progress=False)
    timing = ("wall_seconds",)
    same = {k: v for k, v in default.to_dict().items() if k not in timing}
    assert same == {k: v for k, v in zero.to_dict().items() if k not in timing}
    one = topolab.simulate(SMALL, load=0.3, seed=1, progress=False)
    assert one.avg_latency != default.avg_latency


def test_latency_default_floor_is_the_cost_floor():
    # One floor for cost, place, latency and compare: the latency a user gets without --floor
    # is the one compare ranks with.
    net = topolab.build("slimfly:q=7")
    assert topolab.latency(net, progress=False) == topolab.latency(net, floor="slimfly", progress=False)
    assert topolab.latency(net, progress=False) != topolab.latency(net, floor="skywalk", progress=False)


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_script_knows_commands_and_flags(capsys, shell):
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    for word in ("topolab", "compare", "reproduce", "--num-vcs", "--progress"):
        assert word in out, word


def test_bash_completion_script_is_valid_bash(tmp_path, capsys):
    _, out, _ = run(capsys, "completion", "bash")
    script = tmp_path / "topolab.bash"
    script.write_text(out)
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0


def test_parameter_errors_carry_parameter_value_and_allowed():
    with pytest.raises(topolab.ParameterError) as info:
        topolab.build("slimfly:q=6")
    err = info.value
    assert (err.parameter, err.value) == ("q", "6") and "prime power" in err.allowed
    with pytest.raises(topolab.ParameterError) as info:
        topolab.build("nosuchfamily:n=3")
    assert info.value.parameter == "family" and info.value.value == "nosuchfamily"
    assert "slimfly" in info.value.allowed
    with pytest.raises(topolab.ParameterError) as info:
        topolab.simulate(SMALL, load=0.2, num_vcs=0)
    assert info.value.parameter == "num_vcs" and info.value.value.strip("'") == "0"
    # Errors that are not about one parameter have the attributes too, as None.
    assert topolab.FormatError("x").parameter is None


def test_reprs_are_short_and_html_is_a_table():
    net = topolab.build("slimfly:q=19")
    a = topolab.analyze(net, progress=False)
    assert len(a.eccentricities) == 722
    assert len(repr(a)) <= 260 and "eccentricities=" not in repr(a)[:200]
    for obj in (net, a, topolab.cost(net), topolab.routing.channel_load(topolab.build(SMALL), "min")):
        assert len(repr(obj)) <= 260, type(obj)
        assert obj._repr_html_().startswith("<table>"), type(obj)
    assert "722" in net._repr_html_()


def test_python_m_topolab_snake_case_in_a_subprocess():
    out = subprocess.run(
        [sys.executable, "-m", "topolab", "sim", SMALL, "--load", "0.2", "--num_vcs", "2", "--no-progress"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stderr == "" and "accepted_throughput" in out.stdout


@pytest.mark.parametrize(
    "argv, progress",
    [
        (["compare", "-q"], False),
        (["run", "x.toml", "--quiet"], False),
        (["sim", SMALL, "--no-progress"], False),
        (["latency", SMALL], True),
        (["reproduce", "moore", "--progress"], True),
    ],
)
def test_one_progress_switch_with_the_former_quiet_as_alias(argv, progress):
    assert make_parser().parse_args(argv).progress is progress


def bash_complete(script, line, words):
    """COMPREPLY of the completion ``script`` for ``line`` with the cursor at its end, given the
    words bash splits it into (at blanks and at its COMP_WORDBREAKS, ':' and '=' among them)."""
    quoted = " ".join(shlex.quote(w) for w in words)
    program = (
        f"source {shlex.quote(str(script))}\n"
        f"COMP_LINE={shlex.quote(line)}; COMP_POINT={len(line)}\n"
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}\n"
        "_topolab_complete_line\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return sorted(line for line in done.stdout.splitlines() if line)


def family_params(name):
    (family,) = [f for f in topolab.families() if f.name == name]
    return [p.name for p in family.params]


def test_bash_completes_family_names_then_their_parameter_keys(tmp_path, capsys):
    _, out, _ = run(capsys, "completion", "bash")
    script = tmp_path / "topolab.bash"
    script.write_text(out)
    assert bash_complete(script, "topolab info slimf", ["topolab", "info", "slimf"]) == ["slimfly:"]
    # after the colon (a word of its own for bash), the family's keys
    keys = bash_complete(script, "topolab info slimfly:", ["topolab", "info", "slimfly", ":"])
    assert keys == sorted(f":{name}=" for name in family_params("slimfly"))
    # after a comma, the keys not given yet; bash replaces only the piece after the last '='
    line = "topolab info dragonfly:a=4,"
    rest = bash_complete(script, line, ["topolab", "info", "dragonfly", ":", "a", "=", "4,"])
    given = {"a"}
    assert rest == sorted(f"4,{name}=" for name in family_params("dragonfly") if name not in given)
    # a flag's names after a network with ':' and '=' in it: the parser walk sees it as one word
    line = "topolab sim slimfly:q=5 --routing ugal_"
    words = ["topolab", "sim", "slimfly", ":", "q", "=", "5", "--routing", "ugal_"]
    assert bash_complete(script, line, words) == sorted(
        r.name for r in topolab.routings() if r.name.startswith("ugal_")
    )
