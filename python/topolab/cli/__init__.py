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
    compare,
    experiment,
    network,
    physical,
    reproduce,
    routing,
    sim,
)

MEMORY_LIMIT_ENV = "TOPOLAB_MEMORY_LIMIT"  # topolab_core::resources::LIMIT_ENV

COMMAND_MODULES = [network, analysis, physical, routing, sim, compare, experiment, reproduce]


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="topolab",
        description="Design, analyze, cost and simulate interconnection networks. "
        "Wherever a network is asked for, give a spec (slimfly:q=19,p=15) or a file.",
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.func
    try:
        if args.memory_limit is not None:
            # The environment carries it to the core and to worker processes alike.
            os.environ[MEMORY_LIMIT_ENV] = args.memory_limit
            topolab._core.memory_limit()  # a bad size is reported now, naming the option
        return handler(args)
    except topolab.TopolabError as err:
        print(f"topolab: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("topolab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
