"""The README as a newcomer reads it on a clone: every page under docs/ is linked from it, every
relative link points at a file of the repository (none outside it), and every flag it shows is a
flag of the command line (tests/test_cli_flags.py checks the flags' meanings)."""

from __future__ import annotations

import argparse
import pathlib
import re

from topolab.cli import make_parser

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
LINKS = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)


def test_every_doc_is_linked_from_the_readme():
    linked = {(ROOT / link).resolve() for link in LINKS if not link.startswith(("http://", "https://"))}
    docs = sorted(ROOT.glob("docs/**/*.md"))
    assert len(docs) >= 20
    missing = [str(d.relative_to(ROOT)) for d in docs if d.resolve() not in linked]
    assert not missing, f"not linked from README.md: {missing}"


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
