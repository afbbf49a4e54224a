"""The ``topolab`` command. Each topic's commands live in their own module with a
``register(subparsers)`` function; COMMAND_MODULES lists them in the order ``--help`` shows."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from typing import Callable, Iterator, NoReturn, Sequence, TextIO

import topolab
from topolab._args import QUOTE_MAX_CHARS, printable, quote
from topolab.cli import (
    analysis,
    apps,
    compare,
    completion,
    experiment,
    mapping,
    network,
    physical,
    reproduce,
    routing,
    sim,
    workload,
)
from topolab.cli.common import snake_case_aliases

MEMORY_LIMIT_ENV = "TOPOLAB_MEMORY_LIMIT"  # topolab_core::resources::LIMIT_ENV

COMMAND_MODULES = [
    network,
    mapping,
    analysis,
    physical,
    routing,
    sim,
    workload,
    apps,
    compare,
    experiment,
    reproduce,
    completion,
]


class _Parser(argparse.ArgumentParser):
    """argparse quotes what it did not understand whole ("unrecognized arguments: ..."): a
    131,000-digit argument would fill the terminal. Long words are cut as quote() cuts values,
    control characters escaped. Subcommand parsers are of the same class."""

    def error(self, message: str) -> NoReturn:
        # A value quote() already cut is at most QUOTE_MAX_CHARS plus its "... (N characters in
        # all)" and quotes; only longer words are argparse's own, uncut.
        words = [w if len(w) <= 2 * QUOTE_MAX_CHARS else quote(w) for w in message.split(" ")]
        super().error(printable(" ".join(words)))


def make_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="topolab",
        description="Design, analyze, cost and simulate interconnection networks. "
        "Wherever a network is asked for, give a spec (slimfly:q=19,p=15) or a file. "
        "'topolab COMMAND --help' describes each command with examples.",
    )
    parser.add_argument("--version", action="version", version=f"topolab {topolab.__version__}")
    parser.add_argument(
        "--memory-limit",
        metavar="SIZE",
        help="memory a request may use, e.g. 4G (default: the machine's available memory and the "
        "address-space limit); larger builds, analyses and simulations are refused before they start",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


@contextlib.contextmanager
def _memory_limit(size: str | None) -> Iterator[None]:
    """The environment carries the limit to the core and to worker processes alike; it is put
    back afterwards, for callers of main() in a longer-lived process."""
    if size is None:
        yield
        return
    previous = os.environ.get(MEMORY_LIMIT_ENV)
    os.environ[MEMORY_LIMIT_ENV] = size
    try:
        topolab._core.memory_limit()  # a bad size is reported now, naming the option
        yield
    finally:
        if previous is None:
            os.environ.pop(MEMORY_LIMIT_ENV, None)
        else:
            os.environ[MEMORY_LIMIT_ENV] = previous


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning as the command's own line on stderr, without Python's file and line."""
    print(f"topolab: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(snake_case_aliases(sys.argv[1:] if argv is None else list(argv), parser))
    handler: Callable[[argparse.Namespace], int] = args.func
    try:
        with _memory_limit(args.memory_limit), warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return handler(args)
    except topolab.TopolabError as err:
        print(f"topolab: error: {printable(str(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("topolab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (topolab ... | head): not an error of ours. Point stdout at
        # nothing so that the interpreter's final flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as err:
        # A full disk, a file size limit, a directory made read-only meanwhile: the system's
        # words, not a traceback.
        where = f": {quote(err.filename)}" if err.filename is not None else ""
        print(f"topolab: error: {printable(err.strerror or str(err))}{printable(where)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
