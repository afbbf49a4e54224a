"""The ``topolab`` command. Each topic's commands live in their own module with a
``register(subparsers)`` function; COMMAND_MODULES lists them in the order ``--help`` shows."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Sequence

import topolab
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
)
from topolab.cli.common import snake_case_aliases

COMMAND_MODULES = [
    network,
    mapping,
    analysis,
    physical,
    routing,
    sim,
    apps,
    compare,
    experiment,
    reproduce,
    completion,
]


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="topolab",
        description="Design, analyze, cost and simulate interconnection networks. "
        "Wherever a network is asked for, give a spec (slimfly:q=19,p=15) or a file. "
        "'topolab COMMAND --help' describes each command with examples.",
    )
    parser.add_argument("--version", action="version", version=f"topolab {topolab.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(snake_case_aliases(sys.argv[1:] if argv is None else list(argv), parser))
    handler: Callable[[argparse.Namespace], int] = args.func
    try:
        return handler(args)
    except topolab.TopolabError as err:
        print(f"topolab: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("topolab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (topolab ... | head): not an error of ours. Point stdout at
        # nothing so that the interpreter's final flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
