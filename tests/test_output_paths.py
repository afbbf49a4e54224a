"""The output-path suite (docs/reliability.md): every command option that names an output, given
each kind of bad path, fails before any work with a short error naming the option, and never
replaces what is there; a good path is written whole. Commands run in this process through
``topolab.cli.main`` (they fail before doing anything, so each case is quick)."""

from __future__ import annotations

import os
import stat

import pytest

from topolab.cli import main

TORUS = "torus:dims=3x3"

# (command before the path, option, what the option expects: "file" or "dir")
OUTPUTS = [
    (["build", TORUS], "-o", "file"),
    (["place", TORUS], "-o", "file"),
    (["map", "hyperx:dims=3x3", "--as", "hyperx"], "-o", "file"),
    (["routing", "tables", TORUS, "--routing", "min"], "-o", "file"),
    (["sim", TORUS, "--sweep", "--loads", "0.1"], "--plot", "file"),
    (["routing", "export", TORUS, "--routing", "dor"], "-o", "dir"),
    (["compare", "--radix", "6", "--endpoints", "8", "--families", "torus"], "-o", "dir"),
    (["reproduce", "moore"], "-o", "dir"),
]
IDS = [f"{' '.join(cmd[:2])} {opt}" for cmd, opt, _ in OUTPUTS]


def bad_paths(tmp_path, expects):
    """(name, path, words the error must contain, what must stay) for ``expects``."""
    existing_file = tmp_path / "taken.png"
    existing_file.write_text("keep")
    directory = tmp_path / "somedir"
    directory.mkdir()
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    cases = [
        ("fifo", fifo, "FIFO" if expects == "file" else "a file of that name"),
        ("missing parent", tmp_path / "no" / "such" / "parent" / "x.png", "existing directory"),
        ("nul byte", str(tmp_path / "a\x00b.png"), "file path"),
        ("long name", str(tmp_path / ("n" * 5000)), "characters in all"),
    ]
    if expects == "file":
        cases.append(("a directory", directory, "a directory"))
    else:
        cases.append(("a file", existing_file, "a file of that name"))
    if expects == "dir":
        # A directory's nearest existing ancestor must be a directory too.
        cases.remove(cases[1])
        cases.append(("under a file", existing_file / "sub", "not one"))
    return cases, existing_file, fifo


@pytest.mark.parametrize("command, option, expects", OUTPUTS, ids=IDS)
def test_bad_output_paths_fail_before_the_work(command, option, expects, tmp_path, capsys):
    cases, existing_file, fifo = bad_paths(tmp_path, expects)
    for name, path, words in cases:
        code = main(
            [*command, option, str(path), "--no-progress"]
            if _has_progress(command)
            else [*command, option, str(path)]
        )
        err = capsys.readouterr().err
        assert code == 2, (name, err)
        assert words in err and option.lstrip("-")[:1] in err, (name, err[:500])
        assert len(err.strip().splitlines()[-1]) < 2000, name
        assert "\x00" not in err
    assert existing_file.read_text() == "keep"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def _has_progress(command):
    return command[0] in ("sim", "compare", "reproduce")


@pytest.mark.parametrize("command, option, expects", OUTPUTS[:4], ids=IDS[:4])
def test_a_symbolic_link_is_replaced_not_written_through(command, option, expects, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not yours")
    link = tmp_path / ("out.json" if command[0] in ("build", "map") else "out.txt")
    link.symlink_to(elsewhere)
    assert main([*command, option, str(link)]) == 0, capsys.readouterr().err
    assert elsewhere.read_text() == "not yours"
    assert not link.is_symlink() and link.stat().st_size > 0


def test_an_unknown_plot_extension_lists_the_known_ones(tmp_path, capsys):
    assert main(["sim", TORUS, "--sweep", "--plot", str(tmp_path / "curve.xyz"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert ".png" in err and ".svg" in err
