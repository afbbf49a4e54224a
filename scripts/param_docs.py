"""Writes the parameter lists of docs/routing.md and docs/traffic.md from the declarations in the
core (each routing's, traffic pattern's and exchange's `ParamDef`s), between the markers
``<!-- BEGIN params: NAME -->`` and ``<!-- END params: NAME -->``.

    python scripts/param_docs.py          # rewrite the sections
    python scripts/param_docs.py --check  # exit 1 when a section differs (tests/test_param_docs.py)
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import topolab
from topolab.families import params_markdown
from topolab.sim import exchange_patterns, traffic_patterns

DOCS = Path(__file__).resolve().parent.parent / "docs"


def sections() -> dict[tuple[str, str], str]:
    """(doc file, section name) -> the generated Markdown of that section."""
    routings = [(r.name, r.param_defs) for r in topolab.routings() if r.alias_of is None]
    return {
        ("routing.md", "routings"): params_markdown(routings),
        ("traffic.md", "patterns"): params_markdown((t.name, t.param_defs) for t in traffic_patterns()),
        ("traffic.md", "exchanges"): params_markdown((e.name, e.param_defs) for e in exchange_patterns()),
    }


def pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- BEGIN params: {re.escape(name)} -->\n)(.*?)(<!-- END params: {re.escape(name)} -->)", re.S
    )


def rewrite(text: str, name: str, body: str) -> str:
    found = pattern(name).search(text)
    if found is None:
        raise SystemExit(f"no section 'params: {name}' in the document")
    return text[: found.start(2)] + body + text[found.end(2) :]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="report differences instead of writing")
    args = parser.parse_args()
    stale = []
    for (doc, name), body in sections().items():
        path = DOCS / doc
        text = path.read_text()
        new = rewrite(text, name, body)
        if new != text:
            stale.append(f"{doc}: params: {name}")
            if not args.check:
                path.write_text(new)
    if args.check and stale:
        print("out of date (run python scripts/param_docs.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
