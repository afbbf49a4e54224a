"""The README as a newcomer reads it on a clone: every page under docs/ is linked from it (the
family pages, ``docs/families/<family>.md``, through the families' README it links and the
families' names, so that a new family's page needs no line here), every relative link points at a
file of the repository (none outside it), and every flag it shows is a flag of the command line
(tests/test_cli_flags.py checks the flags' meanings)."""

from __future__ import annotations

import argparse
import pathlib
import re

import topolab
from topolab.cli import make_parser

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
LINKS = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)


def _titled_families(page: pathlib.Path) -> set[str]:
    """The families a page's title names: ``# torus, mesh``, ``# kautz, debruijn — ...``,
    ``# hammingmesh (alias hxmesh) — ...``."""
    title = page.read_text().splitlines()[0].removeprefix("# ").split(" — ")[0]
    title = re.sub(r"\(alias [^)]*\)", "", title)
    return {name.strip().lower() for name in title.split(",")}


def test_every_doc_is_linked_from_the_readme():
    linked = {(ROOT / link).resolve() for link in LINKS if not link.startswith(("http://", "https://"))}
    assert (ROOT / "docs" / "families" / "README.md").resolve() in linked
    names = {f.name for f in topolab.families()}
    pages = {
        p: _titled_families(p) for p in (ROOT / "docs" / "families").glob("*.md") if p.name != "README.md"
    }
    family_pages = {p.resolve() for p, titled in pages.items() if titled & names}
    docs = sorted(ROOT.glob("docs/**/*.md"))
    assert len(docs) >= 20
    missing = [str(d.relative_to(ROOT)) for d in docs if d.resolve() not in linked | family_pages]
    assert not missing, f"not linked from README.md, nor a family's page: {missing}"
    documented = set().union(*pages.values())
    assert names <= documented, (
        f"families no docs/families page names in its title: {sorted(names - documented)}"
    )


def test_every_relative_link_is_a_file_of_the_repository():
    for link in LINKS:
        if link.startswith(("http://", "https://")):
            continue
        target = (ROOT / link).resolve()
        assert target.is_relative_to(ROOT), f"{link} is outside the repository"
        assert target.exists(), f"{link} does not exist"


def test_every_flag_the_readme_shows_exists_in_its_current_spelling():
    known: set[str] = set()

    def collect(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if not hasattr(action, "deprecated_for"):  # a former spelling is not to be shown
                known.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                for child in action.choices.values():
                    collect(child)

    collect(make_parser())
    # BookSim2's snake_case spelling (--num_vcs) stands for the kebab-case flag.
    shown = {f.replace("_", "-") for f in re.findall(r"(?<![\w-])(--[a-z][a-z0-9_-]*)", README)}
    unknown = sorted(shown - known)
    assert not unknown, unknown
