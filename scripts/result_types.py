"""Writes python/topolab/_results.py, the Python classes of topolab's results, from their one
declaration in Rust (``topolab_core::result_type!``, read through ``topolab._core.result_types()``):
fields, types, doc comments and units. A class ``<Name>Methods`` in python/topolab/_result_methods.py
(methods only, no fields: presentation and figures derived from the fields) becomes a base of the
generated class ``<Name>``, so a nested result has its methods too.

    python scripts/result_types.py          # rewrite the module
    python scripts/result_types.py --check  # exit 1 when it differs (tests/test_result_types.py)
"""

from __future__ import annotations

import argparse
import ast
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
METHODS = PACKAGE / "_result_methods.py"


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

# mixins
from topolab.display import Summarized


def _float(value: Any) -> float:
    """NaN for a figure that could not be measured (the core sends None)."""
    return math.nan if value is None else float(value)


def _interval(value: Any) -> tuple[float, float] | None:
    """A 95% confidence interval (low, high), or None."""
    return None if value is None else (_float(value[0]), _float(value[1]))


def _params(pairs: Any) -> dict[str, int | tuple[int, ...] | str]:
    """A spec's parameters in its order (the core sends [name, value] pairs, sizes as lists)."""
    return {str(k): tuple(v) if isinstance(v, list) else v for k, v in pairs}
'''

# Rust scalar types as Python annotations and the conversion of the core's JSON value.
SCALARS = {
    "f64": ("float", "_float({})"),
    "f32": ("float", "_float({})"),
    "u128": ("int", "int({})"),
    "u64": ("int", "int({})"),
    "u32": ("int", "int({})"),
    "u16": ("int", "int({})"),
    "u8": ("int", "int({})"),
    "usize": ("int", "int({})"),
    "i64": ("int", "int({})"),
    "i32": ("int", "int({})"),
    "bool": ("bool", "bool({})"),
    "String": ("str", "str({})"),
    # enums that serde writes as a word (rename_all = "lowercase")
    "Routing": ("str", "str({})"),
    # a design's parameters (topology::design::DesignParams)
    "DesignParams": ("dict[str, int | tuple[int, ...] | str]", "_params({})"),
    # the network of a result that holds one, a topolab._core.Network
    "Network": ("Network", "Network({})"),
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
    inner = re.fullmatch(r"\[(.+);(\d+)\]", t)
    if inner:
        return annotation(f"({','.join([inner.group(1)] * int(inner.group(2)))})", python_names)
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


def methods() -> dict[str, set[str]]:
    """The mixins of python/topolab/_result_methods.py: class name -> the methods it defines."""
    tree = ast.parse(METHODS.read_text())
    return {
        node.name: {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name.endswith("Methods")
    }


def fields(t: dict, by_rust_name: dict[str, dict]) -> list[dict]:
    """The fields of ``t`` as Python holds them: a flattened field's type's fields in its place
    (serde writes them into the same JSON object), a skipped one left out."""
    out = []
    for f in t["fields"]:
        if f["serde"] == "flatten":
            inner = by_rust_name.get(f["rust_type"].replace(" ", ""))
            if inner is None:
                raise SystemExit(f"result_types.py: {t['name']}.{f['name']}: flattens no result type")
            out += fields(inner, by_rust_name)
        elif f["serde"] == "skip" and f["rust_type"] == "Network":
            # serde cannot write a network: the binding hands it over as an object under the
            # field's name (topolab-py's convert::to_py_with_network)
            out.append(f)
        elif f["serde"] == "skip":
            continue
        elif f["serde"]:
            raise SystemExit(f"result_types.py: {t['name']}.{f['name']}: serde({f['serde']}) is not read")
        else:
            out.append(f)
    return out


def class_source(
    t: dict, python_names: dict[str, str], by_rust_name: dict[str, dict], mixins: dict[str, set[str]]
) -> str:
    name = python_names[t["name"]]
    mixin = f"{name}Methods"
    own = mixins.get(mixin, set())
    bases = f"{mixin}, Summarized" if mixin in mixins else "Summarized"
    # _from_core returns the class it is called on (a subclass adding methods gets its own)
    self_type = f"_{name}T"
    out = ["", "", f'{self_type} = TypeVar("{self_type}", bound="{name}")', ""]
    out += ["", "@dataclass(frozen=True, repr=False)", f"class {name}({bases}):"]
    doc = doc_lines(t["doc"])
    if doc:
        body = "\n".join(doc)
        out.append(textwrap.indent(f'"""{body}"""', "    "))
        out.append("")
    held = fields(t, by_rust_name)
    units = {f["name"]: f["unit"] for f in held if f["unit"]}
    if units:
        out.append("    UNITS: ClassVar[dict[str, str]] = {")
        out += [f"        {k!r}: {v!r}," for k, v in units.items()]
        out.append("    }")
        out.append("")
    conversions = []
    for f in held:
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
    out.append("        )")
    if "to_dict" not in own:
        out += [
            "",
            "    def to_dict(self) -> dict[str, Any]:",
            "        return asdict(self)",
        ]
    return "\n".join(out)


def source() -> str:
    """The module's text, formatted as ``ruff format`` (the project's formatter) writes it."""
    types = load_core().result_types()
    python_names = {t["name"]: t["python"] or t["name"] for t in types}
    by_rust_name = {t["name"]: t for t in types}
    mixins = methods()
    used = [f"{python_names[t['name']]}Methods" for t in types]
    unused = sorted(set(mixins) - set(used))
    if unused:
        raise SystemExit(f"result_types.py: {', '.join(unused)} in {METHODS.name} name no result type")
    used = [m for m in used if m in mixins]
    names = ", ".join(repr(python_names[t["name"]]) for t in types)
    imported = f"from topolab._result_methods import {', '.join(sorted(used))}\n" if used else ""
    header = HEADER.replace("# mixins\n", imported)
    if any(f["rust_type"] == "Network" for t in types for f in t["fields"]):
        summarized = "from topolab.display import Summarized\n"
        header = header.replace(summarized, summarized + "from topolab.network import Network\n")
    parts = [header, f"\n__all__ = [{names}]"]
    parts += [class_source(t, python_names, by_rust_name, mixins) for t in types]
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
