"""Helpers shared by the command modules."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any, Sequence

import topolab
from topolab._args import U64_MAX, cli_float, cli_int, printable
from topolab.defaults import DEFAULT_FLOOR, DEFAULT_SEED
from topolab.network import Network
from topolab.network import network_from_argument as network_at


def network_from_argument(text: str, fmt: str | None = None, failures: str | None = None) -> Network:
    """The network a command names (``topolab.network.network_from_argument``: a file path or a
    spec string); with ``failures`` (``--failures``) the network that survives them, what was
    lost said on stderr."""
    return network_surviving(network_at(text, fmt), failures)


def network_surviving(net: Network, failures: str | None) -> Network:
    """``net``, or with ``failures`` (``--failures``) the network that survives them, what was
    lost said on stderr."""
    if failures is None:
        return net
    lost = topolab.apply_failures(net, failures)
    print(failure_summary(lost), file=sys.stderr)
    return lost.network


def failure_summary(lost: Any) -> str:
    """One line: what a failure set (topolab.Failures) cost."""
    cut = lost.cut_off_endpoints
    shown = ", ".join(map(str, cut[:10])) + (", ..." if len(cut) > 10 else "")
    head = (
        f"failures {lost.failures}: {lost.failed_cables} of {lost.cables_before} cables and "
        f"{len(lost.failed_routers)} routers failed; "
    )
    if not cut:
        return head + f"all {lost.endpoints_before} endpoints still connected"
    return head + (
        f"{len(cut)} of {lost.endpoints_before} endpoints cut off ({shown}), their traffic excluded "
        f"({lost.excluded_pair_fraction:.2%} of endpoint pairs)"
    )


def add_failures_flag(p: argparse.ArgumentParser) -> None:
    """``--failures SPEC``: work on the network that survives a failure set."""
    p.add_argument(
        "--failures",
        metavar="SPEC",
        help="work on the network that survives these failures, e.g. links:fraction=0.05,seed=1, "
        "router:id=3, bundle:a=0,b=1,class=global, cabinet:id=2, file:path=dead.txt; sets joined "
        "with + fail together (docs/resilience.md)",
    )


def terminal_width() -> int | None:
    """The width tables wrap to: $COLUMNS when set, else the terminal's when stdout is one;
    None (no wrapping) for a pipe or a file, whose reader may want whole lines."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else None
    except (AttributeError, OSError, ValueError):
        return None


# Columns are not wrapped narrower than this, even if the table then overflows the terminal.
MIN_COLUMN_WIDTH = 12
# Wrapping stops taking columns once those wrapped have this much room each.
MIN_TEXT_WIDTH = 24
# A column is kept as wide as its longest word up to this; a longer word is cut.
LONG_WORD = 20
COLUMN_GAP = 2  # tabulate's "simple" format


def print_table(rows: list[list[str]], header: list[str], width: int | None = None) -> None:
    """Aligned columns (tabulate), the widest wrapped so that the table fits the terminal
    (``width``, default ``terminal_width()``); a row shorter than the others is padded, so no
    column is dropped."""
    from tabulate import tabulate  # here: `import topolab.cli` stays quick

    columns = max([len(header), *(len(row) for row in rows)])
    padded = [[printable(str(x)) for x in [*row, *[""] * (columns - len(row))]] for row in [header, *rows]]
    # tabulate pads a header with two spaces ("simple" format) where it is the widest cell.
    natural = [
        max(len(col[0]) + 2, *(max(map(len, x.splitlines() or [""])) for x in col[1:]))
        for col in zip(*padded)
    ]
    words = [max(max(map(len, x.split() or [""])) for x in col) for col in zip(*padded)]
    limits = _column_limits(natural, width if width is not None else terminal_width(), words)
    print(
        tabulate(
            padded[1:],
            headers=padded[0],
            tablefmt="simple",
            disable_numparse=True,
            maxcolwidths=limits,  # None: that column unwrapped
            maxheadercolwidths=limits,  # type: ignore[arg-type]
        )
    )


def print_wrapped(text: str, indent: str = "") -> None:
    """A paragraph wrapped to the terminal (``terminal_width()``; whole when there is none)."""
    import textwrap

    width = terminal_width()
    if width is None:
        print(indent + text)
    else:
        print(textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent + "  "))


def _column_limits(
    natural: list[int], width: int | None, words: list[int] | None = None
) -> list[int | None] | None:
    """Caps for the columns to wrap so that the table fits ``width``: the widest columns (the
    prose) give way first, as few as leave each at least MIN_TEXT_WIDTH; they share what the
    others leave in proportion to their widths, none below MIN_COLUMN_WIDTH or its longest
    word (``words``: a word is not cut). The first column, the row's name (an id to copy), is
    never wrapped. None: nothing to wrap."""
    if width is None or not natural:
        return None
    budget = width - COLUMN_GAP * (len(natural) - 1)
    if sum(natural) <= budget:
        return None
    longest = words or [0] * len(natural)
    least = [min(w, max(MIN_COLUMN_WIDTH, min(longest[i], LONG_WORD))) for i, w in enumerate(natural)]
    flexible: list[int] = []
    for i in sorted(range(1, len(natural)), key=lambda i: -natural[i]):
        flexible.append(i)
        others = sum(w for j, w in enumerate(natural) if j not in flexible)
        if budget - others >= MIN_TEXT_WIDTH * len(flexible):
            break
    caps: dict[int, int] = {}
    while flexible:
        left = budget - sum(caps.get(j, w) for j, w in enumerate(natural) if j not in flexible)
        total = sum(natural[i] for i in flexible)
        share = {i: left * natural[i] // total for i in flexible}
        narrow = [i for i in flexible if share[i] < least[i]]
        if not narrow or len(narrow) == len(flexible):
            caps.update({i: max(least[i], share[i]) for i in flexible})
            break
        for i in narrow:
            caps[i] = least[i]
            flexible.remove(i)
    return [caps[i] if caps.get(i, w) < w else None for i, w in enumerate(natural)]


def fmt_value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


# --- one way of declaring commands and their shared options -----------------------------------

EXAMPLES_HEADING = "examples:"


def add_command(
    sub: argparse._SubParsersAction,
    name: str,
    *,
    help: str,
    description: str,
    examples: Sequence[str],
    notes: str = "",
) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` has a description and examples (and optional notes after
    them, e.g. the catalogs a flag takes)."""
    epilog = EXAMPLES_HEADING + "\n" + "\n".join(f"  {e}" for e in examples)
    if notes:
        epilog += "\n\n" + notes
    return sub.add_parser(
        name,
        help=help,
        description=description,
        epilog=epilog,
        formatter_class=_Formatter,
    )


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions wrapped to the terminal, examples and notes kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(EXAMPLES_HEADING):
            return super()._fill_text(text, width, indent)
        return argparse.HelpFormatter._fill_text(self, text, width, indent)


# --- flags of one meaning everywhere (docs/cli.md lists every flag; tests/test_cli_flags.py) ------


def add_input_format_flag(p: argparse.ArgumentParser) -> None:
    """``--format``: always the format of a network file read, never of one written."""
    p.add_argument(
        "--format",
        metavar="FORMAT",
        help="format of the network file read when its extension does not say it "
        "(json, edgelist, graphml, anynet, ibnet)",
    )


def add_output_format_flag(p: argparse.ArgumentParser) -> argparse.Action:
    """``--output-format``: the format of the network file written."""
    return p.add_argument(
        "--output-format",
        metavar="FORMAT",
        help="format of the network file written when the extension of --output does not say it",
    )


def add_output_file_flag(p: argparse.ArgumentParser, help: str, *, required: bool = False) -> None:
    """``-o/--output FILE``: where a command writes its one output file."""
    p.add_argument("-o", "--output", metavar="FILE", required=required, help=help)


def add_output_dir_flag(
    p: argparse.ArgumentParser, help: str, *, required: bool = False, default: str | None = None
) -> None:
    """``-o/--output-dir DIR``: the directory a command writes its files into. ``-o`` is the
    short form of a command's one output, the long name saying whether it is a file or a
    directory; ``--output`` on these commands is the former spelling (a warning says so)."""
    action = p.add_argument(
        "-o", "--output-dir", dest="output", metavar="DIR", required=required, default=default, help=help
    )
    add_deprecated_alias(p, "--output", action)


def add_deprecated_alias(p: argparse.ArgumentParser, old: str, action: argparse.Action) -> None:
    """``old`` keeps working for ``action``'s flag, with a warning naming the new spelling; it
    is hidden from --help and from the flag table (docs/cli.md)."""
    new = max(action.option_strings, key=len)

    class _Alias(argparse.Action):
        def __call__(
            self,
            parser: argparse.ArgumentParser,
            namespace: argparse.Namespace,
            values: Any,
            option_string: str | None = None,
        ) -> None:
            print(f"topolab: warning: {old} is deprecated here; use {new}", file=sys.stderr)
            action(parser, namespace, values, new)

    settings: dict[str, Any] = {"nargs": action.nargs, "metavar": action.metavar}
    if action.type is not None:
        settings["type"] = action.type
    alias = p.add_argument(
        old, dest=action.dest, default=argparse.SUPPRESS, action=_Alias, help=argparse.SUPPRESS, **settings
    )
    alias.deprecated_for = new  # type: ignore[attr-defined]


def add_load_resolution_flag(p: argparse.ArgumentParser, default: float, when: str) -> argparse.Action:
    """``--load-resolution``: how narrow a saturation search's bracket gets."""
    return p.add_argument(
        "--load-resolution",
        dest="load_resolution",
        type=cli_float(0.0, 1.0),
        default=default,
        metavar="L",
        help=f"the saturation search ({when}) stops when the highest stable and the lowest "
        f"saturated load are at most L apart (default {default})",
    )


def add_progress_flag(p: argparse.ArgumentParser) -> None:
    """``--progress/--no-progress``: the one progress switch of every long command. On by
    default: a live bar on a terminal; in a log a line a minute while the work moves
    and one final line (count, time, rate)."""
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="progress on stderr (default on): a bar with rate and ETA on a terminal, one final "
        "line with the count, time and rate elsewhere",
    )
    # Former spelling of --no-progress on compare and run.
    p.add_argument(
        "-q", "--quiet", dest="progress", action="store_const", const=False, help=argparse.SUPPRESS
    )


def add_runner_flags(p: argparse.ArgumentParser, what: str) -> None:
    """``--scheduler`` and ``--workers``: where the experiment runner (topolab.experiment) runs
    ``what``, for every command that runs independent jobs through it."""
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=f"run {what} on a Dask cluster: its scheduler's address (tcp://host:8786), "
        "or 'local' for a Dask cluster on this machine",
    )
    p.add_argument(
        "--workers",
        type=positive_workers,
        metavar="N",
        help=f"local worker processes for {what} (default: every core; 1: in this process)",
    )


def positive_workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"--workers {text!r} is not allowed: an integer >= 1")
    return value


def add_seed_flag(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--seed",
        type=cli_int(0, U64_MAX),
        default=DEFAULT_SEED,
        help=f"seed of {what} (default {DEFAULT_SEED}, the same for every command)",
    )


def add_floor_flag(p: argparse.ArgumentParser, what: str = "floor model") -> None:
    p.add_argument(
        "--floor",
        default=DEFAULT_FLOOR,
        help=f"{what}: slimfly, skywalk or a TOML file (default {DEFAULT_FLOOR}: the floor of "
        "Besta & Hoefler, SC14, §VI-A, the same for cost, place, latency and compare)",
    )


def add_json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--json", action="store_true", help="machine-readable output: the results with their inputs and units"
    )


def json_document(
    command: str, inputs: dict[str, Any], units: dict[str, str], results: Any
) -> dict[str, Any]:
    """The shape of every ``--json`` output: what was asked (``inputs``), the units of the
    numbers, then the results (a dict's keys are merged in; anything else is under "results")."""
    doc: dict[str, Any] = {"command": command, "inputs": inputs, "units": units}
    if isinstance(results, dict):
        doc.update(results)
    else:
        doc["results"] = results
    return doc


def print_json(doc: Any) -> None:
    """Standard JSON: NaN and infinities (a quantity that could not be measured) become null."""
    print(json.dumps(_finite(doc), indent=2, default=_json_default))


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if isinstance(value, (set, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def snake_case_aliases(argv: Sequence[str], parser: argparse.ArgumentParser) -> list[str]:
    """``argv`` with snake_case long options (``--num_vcs``, BookSim2's spelling) written as the
    kebab-case flags they stand for (``--num-vcs``), when the parser knows that flag."""
    known = _long_options(parser)
    out = []
    for token in argv:
        if token.startswith("--") and "_" in token.split("=", 1)[0]:
            name, eq, value = token.partition("=")
            kebab = name.replace("_", "-")
            if kebab in known:
                token = kebab + eq + value
        out.append(token)
    return out


def _long_options(parser: argparse.ArgumentParser) -> set[str]:
    found: set[str] = set()
    for action in parser._actions:
        found.update(s for s in action.option_strings if s.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found |= _long_options(child)
    return found
