"""Writes python/topolab/_results.py, the Python classes of topolab's results, from their one
declaration in Rust (``topolab_core::result_type!``, read through ``topolab._core.result_types()``):
fields, types, doc comments and units.

    python scripts/result_types.py          # rewrite the module
    python scripts/result_types.py --check  # exit 1 when it differs (tests/test_result_types.py)
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "topolab"
TARGET = PACKAGE / "_results.py"


def load_core() -> Any:
    """The built extension, loaded by itself: importing the package would import the module
    this script writes, which may be missing or out of date."""
    # the source tree's (maturin develop, pip install -e) first, then an installed package's
    folders = [PACKAGE] + [Path(p) / "topolab" for p in sys.path if p]
    found = [f for d in folders for pattern in ("_core*.so", "_core*.pyd") for f in sorted(d.glob(pattern))]
    if not found:
        raise SystemExit(
            f"result_types.py: no built extension in {PACKAGE} or on sys.path (run make install)"
        )
    loader = importlib.machinery.ExtensionFileLoader("topolab._core", str(found[0]))
    spec = importlib.util.spec_from_loader("topolab._core", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


HEADER = '''"""topolab's result classes, written by scripts/result_types.py from their declarations in Rust
(``topolab_core::result_type!``): do not edit, run the script."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, TypeVar

from topolab.display import Summarized


def _float(value: Any) -> float:
    """NaN for a figure that could not be measured (the core sends None)."""
    return math.nan if value is None else float(value)


def _interval(value: Any) -> tuple[float, float] | None:
    """A 95% confidence interval (low, high), or None."""
    return None if value is None else (_float(value[0]), _float(value[1]))
'''

# Rust scalar types as Python annotations and the conversion of the core's JSON value.
SCALARS = {
    "f64": ("float", "_float({})"),
    "f32": ("float", "_float({})"),
    "u64": ("int", "int({})"),
    "u32": ("int", "int({})"),
    "u16": ("int", "int({})"),
    "u8": ("int", "int({})"),
    "usize": ("int", "int({})"),
    "i64": ("int", "int({})"),
    "i32": ("int", "int({})"),
    "bool": ("bool", "bool({})"),
    "String": ("str", "str({})"),
}


def annotation(rust_type: str, python_names: dict[str, str]) -> tuple[str, str]:
    """(Python annotation, conversion with ``{}`` for the value) of a Rust type."""
    t = rust_type.replace(" ", "")
    if t in SCALARS:
        return SCALARS[t]
    if t == "Option<[f64;2]>":
        return "tuple[float, float] | None", "_interval({})"
    if t.startswith("(") and t.endswith(")"):
        parts = [annotation(part, python_names) for part in t[1:-1].split(",")]
        items = ", ".join(conv.format(f"{{0}}[{i}]") for i, (_, conv) in enumerate(parts))
        return f"tuple[{', '.join(ann for ann, _ in parts)}]", f"({items})"
    inner = re.fullmatch(r"Option<(.+)>", t)
    if inner:
        ann, conv = annotation(inner.group(1), python_names)
        return f"{ann} | None", f"None if {{0}} is None else {conv.format('{0}')}"
    inner = re.fullmatch(r"Vec<(.+)>", t)
    if inner:
        ann, conv = annotation(inner.group(1), python_names)
        return f"tuple[{ann}, ...]", f"tuple({conv.format('x')} for x in {{}})"
    if t in python_names:
        name = python_names[t]
        return name, f"{name}._from_core({{}})"
    raise SystemExit(f"result_types.py: no Python type for the Rust type {rust_type!r}")


def doc_lines(doc: str) -> list[str]:
    """A Rust doc comment as plain lines (rustdoc's `code` as reST's ``code``)."""
    lines = [line[1:] if line.startswith(" ") else line for line in doc.rstrip("\n").split("\n")]
    return [re.sub(r"(?<!`)`([^`]+)`(?!`)", r"``\1``", line) for line in lines if doc]


def class_source(t: dict, python_names: dict[str, str]) -> str:
    name = python_names[t["name"]]
    # _from_core returns the class it is called on (a subclass adding methods gets its own)
    self_type = f"_{name}T"
    out = ["", "", f'{self_type} = TypeVar("{self_type}", bound="{name}")', ""]
    out += ["", "@dataclass(frozen=True, repr=False)", f"class {name}(Summarized):"]
    doc = doc_lines(t["doc"])
    if doc:
        body = "\n".join(doc)
        out.append(textwrap.indent(f'"""{body}"""', "    "))
        out.append("")
    units = {f["name"]: f["unit"] for f in t["fields"] if f["unit"]}
    if units:
        out.append("    UNITS: ClassVar[dict[str, str]] = {")
        out += [f"        {k!r}: {v!r}," for k, v in units.items()]
        out.append("    }")
        out.append("")
    conversions = []
    for f in t["fields"]:
        ann, conv = annotation(f["rust_type"], python_names)
        out += [f"    #: {line}".rstrip() for line in doc_lines(f["doc"])]
        out.append(f"    {f['name']}: {ann}")
        conversions.append((f["name"], conv.format(f'd["{f["name"]}"]')))
    out += [
        "",
        "    @classmethod",
        f"    def _from_core(cls: type[{self_type}], d: dict[str, Any]) -> {self_type}:",
        f'        """The {name} of the core\'s result (a dict of its JSON)."""',
        "        return cls(",
    ]
    out += [f"            {field}={conv}," for field, conv in conversions]
    out += [
        "        )",
        "",
        "    def to_dict(self) -> dict[str, Any]:",
        "        return asdict(self)",
    ]
    return "\n".join(out)


def source() -> str:
    """The module's text, formatted as ``ruff format`` (the project's formatter) writes it."""
    types = load_core().result_types()
    python_names = {t["name"]: t["python"] or t["name"] for t in types}
    names = ", ".join(repr(python_names[t["name"]]) for t in types)
    parts = [HEADER, f"\n__all__ = [{names}]"]
    parts += [class_source(t, python_names) for t in types]
    formatted = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(TARGET), "-"],
        input="\n".join(parts) + "\n",
        capture_output=True,
        text=True,
        cwd=TARGET.parent,
    )
    if formatted.returncode != 0:
        raise SystemExit(f"result_types.py: ruff format failed: {formatted.stderr}")
    return formatted.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the module is out of date")
    args = parser.parse_args()
    text = source()
    if args.check:
        if TARGET.read_text() != text:
            print(f"{TARGET} is out of date: run python scripts/result_types.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
