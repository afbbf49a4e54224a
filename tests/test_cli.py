"""The topolab command: list, build, info."""

import json
import shutil
import subprocess
import sys

import pytest

import topolab
from topolab.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_info_json_has_the_required_keys(capsys):
    code, out, _ = run(capsys, "info", "slimfly:q=5", "--json")
    assert code == 0
    info = json.loads(out)
    assert info["family"] == "slimfly"
    assert (info["routers"], info["endpoints"], info["links"]) == (50, 200, 175)
    assert (info["network_radix"], info["radix"], info["directed"]) == (7, 11, False)


def test_list_shows_every_family_with_defaults(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    for fam in topolab.families():
        assert fam.name in out
    code, out, _ = run(capsys, "list", "sf")  # one family, by an alias: its parameters
    assert code == 0 and "ceil(k'/2)" in out and "prime power >= 3" in out
    code, out, _ = run(capsys, "list", "--json")
    listed = json.loads(out)["families"]
    assert {f["name"] for f in listed} == {f.name for f in topolab.families()}
    sf = next(f for f in listed if f["name"] == "slimfly")
    assert [p["name"] for p in sf["params"]] == ["q", "p"]


@pytest.mark.parametrize("ext", ["json", "graphml", "edgelist", "anynet"])
def test_build_writes_a_file_that_info_reads_back(capsys, tmp_path, ext):
    path = tmp_path / f"net.{ext}"
    code, _, err = run(capsys, "build", "slimfly:q=5,p=4", "-o", str(path))
    assert code == 0 and "50 routers" in err
    code, out, _ = run(capsys, "info", str(path), "--json")
    assert code == 0
    info = json.loads(out)
    assert (info["routers"], info["endpoints"], info["links"], info["radix"]) == (50, 200, 175, 11)


def test_errors_are_one_line_with_status_2(capsys, tmp_path):
    code, out, err = run(capsys, "info", "slimfly:q=6")
    assert code == 2 and out == ""
    assert err.startswith("topolab: error:") and "'q'" in err and "prime power" in err
    code, _, err = run(capsys, "info", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "build", "slimfly:q=5", "-o", str(tmp_path / "x.unknown"))
    assert code == 2 and ".json" in err


def test_installed_command_runs():
    exe = shutil.which("topolab")
    cmd = [exe] if exe else [sys.executable, "-m", "topolab"]
    result = subprocess.run(cmd + ["info", "torus:dims=4x4", "--json"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["routers"] == 16


def test_a_table_keeps_every_column_when_a_row_is_short(capsys):
    from topolab.cli.common import print_table

    print_table([["a", "1", "note"], ["bb", "2"]], ["name", "value", "note"])
    # tabulate rules the header off with dashes
    lines = [line for line in capsys.readouterr().out.splitlines() if set(line) - {"-", " "}]
    assert lines[0].split() == ["name", "value", "note"]
    assert lines[1].split() == ["a", "1", "note"] and lines[2].split() == ["bb", "2"]
    # the columns stay aligned: every row's second field starts where the header's does
    assert all(line.index(field) == lines[0].index("value") for line, field in zip(lines[1:], "12"))
    # a row longer than the header keeps its extra field too
    print_table([["a", "1", "x"]], ["name", "value"])
    assert capsys.readouterr().out.splitlines()[2].split() == ["a", "1", "x"]
