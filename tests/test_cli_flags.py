"""One meaning per flag (docs/cli.md): every flag of every subcommand's parser is a row of the
doc's tables, listed for that command; a flag used by a command its row does not name (a second
meaning, or a row to extend) fails here, and so does a row naming a command without the flag.
Within a row every command stores the flag in the same place and takes a value alike.
Former spellings (hidden aliases) are listed in their own table and warn when used."""

from __future__ import annotations

import argparse
import pathlib
import re

import pytest

from topolab.cli import main, make_parser

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(command, parser) for the top level and every subcommand."""
    yield " ".join(path) or "topolab", parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from parsers(child, (*path, name))


def flags():
    """(command, action) of every option but --help."""
    for command, parser in parsers(make_parser()):
        for action in parser._actions:
            if action.option_strings and "--help" not in action.option_strings:
                yield command, action


def table_rows(heading: str) -> list[list[str]]:
    """The rows of the tables under ``heading`` (a '## ' section) of docs/cli.md, cells stripped."""
    text = DOC.read_text()
    sections = re.split(r"^## ", text, flags=re.M)
    rows = []
    for section in sections:
        if not section.startswith(heading):
            continue
        for line in section.splitlines():
            if line.startswith("| `"):
                rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def option_key(cell: str) -> frozenset[str]:
    """The options of a cell such as "`-o, --output`" or "`-q`, `--quiet`"."""
    return frozenset(o.strip() for span in re.findall(r"`([^`]+)`", cell) for o in span.split(","))


def documented() -> dict[frozenset[str], set[str]]:
    rows = table_rows("Flags of several commands") + table_rows("Flags of `sim` and `workload`")
    table: dict[frozenset[str], set[str]] = {}
    for row in rows:
        key = option_key(row[0])
        assert key not in table, f"{sorted(key)} has two rows in docs/cli.md"
        table[key] = {c.strip() for c in row[-1].split(",")}
    return table


def former_spellings() -> dict[tuple[str, str], str]:
    """(command, former flag) -> the flag it stands for now."""
    out = {}
    for row in table_rows("Former spellings"):
        old_flags, new, commands = option_key(row[0]), row[1].strip("`"), row[2]
        for command in commands.split(","):
            for old in old_flags:
                out[(command.strip(), old)] = new
    return out


def visible(action: argparse.Action) -> bool:
    return action.help != argparse.SUPPRESS


def test_every_flag_of_every_command_is_in_the_table_for_that_command():
    table = documented()
    missing = []
    for command, action in flags():
        if not visible(action):
            continue
        key = frozenset(action.option_strings)
        if key not in table:
            missing.append(f"{command} {'/'.join(sorted(key))}: no row")
        elif command not in table[key]:
            missing.append(
                f"{command} {'/'.join(sorted(key))}: not among the row's commands {sorted(table[key])}"
            )
    assert not missing, "\n".join(missing)


def test_every_row_names_only_commands_that_have_the_flag():
    used: dict[frozenset[str], set[str]] = {}
    for command, action in flags():
        if visible(action):
            used.setdefault(frozenset(action.option_strings), set()).add(command)
    stale = {
        "/".join(sorted(k)): sorted(v - used.get(k, set()))
        for k, v in documented().items()
        if v - used.get(k, set())
    }
    assert not stale, stale


def test_a_flag_is_stored_and_read_alike_wherever_it_appears():
    """A flag of one meaning lands in one attribute and takes a value (or not) everywhere;
    a flag reused for something else usually differs in one of these."""
    seen: dict[str, set[tuple[str, bool]]] = {}
    for _command, action in flags():
        if visible(action):
            for option in action.option_strings:
                seen.setdefault(option, set()).add((action.dest, action.nargs == 0))
    differing = {option: shapes for option, shapes in seen.items() if len(shapes) > 1}
    assert not differing, differing


def test_the_rules_of_the_names_hold():
    """--format reads, --output-format writes; -o is --output (a file) or --output-dir (a directory)."""
    for command, action in flags():
        if not visible(action):
            continue
        if "-o" in action.option_strings:
            assert set(action.option_strings) in ({"-o", "--output"}, {"-o", "--output-dir"}), command
            assert action.metavar == ("FILE" if "--output" in action.option_strings else "DIR"), command
        if "--format" in action.option_strings:
            assert "read" in (action.help or ""), command
        if "--output-format" in action.option_strings:
            assert "written" in (action.help or ""), command
        assert "--tolerance" not in action.option_strings, f"{command}: --tolerance has no one meaning"


def test_every_former_spelling_is_listed_and_warns(capsys):
    listed = former_spellings()
    hidden = [
        (command, option, action.deprecated_for)
        for command, action in flags()
        if hasattr(action, "deprecated_for")
        for option in action.option_strings
    ]
    assert len(hidden) >= 8, hidden
    for command, option, new in hidden:
        assert listed.get((command, option)) == new, f"{command} {option} -> {new} is not in docs/cli.md"


def test_a_former_spelling_still_works_with_a_warning(tmp_path, capsys):
    out = tmp_path / "net.json"
    assert main(["build", "torus:dims=2x2", "-o", str(tmp_path / "x"), "--format", "json"]) == 0
    assert "--format is deprecated here; use --output-format" in capsys.readouterr().err
    assert (tmp_path / "x").read_text().lstrip().startswith("{")
    args = make_parser().parse_args(["compare", "--tolerance", "0.2", "--output", str(out)])
    assert (args.endpoint_tolerance, args.output) == (0.2, str(out))
    assert "--tolerance is deprecated here; use --endpoint-tolerance" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["routing", "export", "torus:dims=3x3", "--routing", "min", "-o", "{tmp}/ib", "--no-progress"],
        [
            "routing",
            "export",
            "torus:dims=3x3",
            "--routing",
            "min",
            "--output-dir",
            "{tmp}/ib2",
            "--no-progress",
        ],
    ],
)
def test_routing_export_takes_no_progress_and_output_dir(argv, tmp_path, capsys):
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 0
    assert "warning" not in capsys.readouterr().err


def test_names_read_alike_in_either_spelling(capsys):
    """Routing, traffic and family names: snake_case, the kebab-case spelling an alias."""
    for argv in (
        ["sim", "slimfly:q=5", "--routing", "slimfly-mms", "--traffic", "slimfly-worst", "--load", "0.1"],
        ["sim", "slimfly:q=5", "--routing", "slimfly_mms", "--traffic", "slimfly_worst", "--load", "0.1"],
        ["info", "multi-layer-full-mesh:h=3"],
    ):
        assert main([*argv, "--json", "--no-progress"] if argv[0] == "sim" else argv) == 0, argv
    capsys.readouterr()
