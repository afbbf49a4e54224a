"""Experiment files: reading (TOML, or YAML with PyYAML) and validation.

An experiment is a kind (what one point computes, see kinds.py), axes whose Cartesian product
gives the points, optional cases (parameter combinations that belong together, each crossed
with the axes) and fixed parameters shared by every point::

    name = "sizes"                 # optional; defaults to the file name
    description = "..."            # optional
    kind = "info"                  # a registered kind (kinds.py; plugins: entry points)
    results = "sizes.results"      # optional; relative to the file; default <file stem>.results

    [fixed]
    seed = 1

    [axes]
    network = ["slimfly:q=5", "dragonfly:a=4,h=2,p=2"]
    load = { start = 0.1, stop = 0.9, step = 0.2 }     # a range: step or num, stop included

    [[cases]]
    routing = "min"

Unknown keys are rejected with the valid ones listed; values are strings, numbers, booleans
or lists of them, nested at most MAX_VALUE_DEPTH deep. Messages quote at most 200 characters of
a value.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

from topolab._args import bad, path_arg, quote
from topolab._core import FileError, FormatError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.9/3.10 only
    import tomli as tomllib

TOP_LEVEL_KEYS = ("name", "description", "kind", "results", "fixed", "axes", "cases")
RANGE_KEYS = ("start", "stop", "step", "num")
# Expanding more points than this is a mistake in the file, not a sweep to start.
MAX_POINTS = 1_000_000
# Lists of lists of values deeper than this are a generated or broken file, not an experiment.
MAX_VALUE_DEPTH = 32
# Items in one value: YAML aliases can make a few lines stand for billions (a "billion laughs").
MAX_VALUE_ITEMS = 100_000

PathLike = Union[str, "os.PathLike[str]"]


@dataclass
class Experiment:
    """A validated experiment. ``axes`` maps each axis to its list of values (ranges expanded);
    ``results`` is the results directory (None: not given, the caller decides)."""

    name: str
    kind: str
    axes: dict[str, list[Any]] = field(default_factory=dict)
    cases: list[dict[str, Any]] = field(default_factory=list)
    fixed: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    results: pathlib.Path | None = None
    source: str = "<dict>"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.description:
            out["description"] = self.description
        if self.results is not None:
            out["results"] = str(self.results)
        if self.fixed:
            out["fixed"] = dict(self.fixed)
        if self.axes:
            out["axes"] = {k: list(v) for k, v in self.axes.items()}
        if self.cases:
            out["cases"] = [dict(c) for c in self.cases]
        return out


def _not_an_experiment(source: Any) -> str:
    raise bad("experiment", "experiment", source, "an experiment file path, a dict or an Experiment")


def load_experiment(source: PathLike | Mapping[str, Any] | Experiment) -> Experiment:
    """An Experiment from a file path (.toml, .yaml/.yml), a dict of the same shape, or an
    Experiment (returned as is). Raises FileError, FormatError or ParameterError naming the
    file and the offending key."""
    if isinstance(source, Experiment):
        return source
    if isinstance(source, Mapping):
        return parse_experiment(source, name="experiment", source="<dict>", base_dir=None)
    path = pathlib.Path(
        path_arg("experiment", "experiment", source)
        if isinstance(source, (str, os.PathLike))
        else _not_an_experiment(source)
    )
    if not path.is_file():
        raise FileError(f"{quote(str(path))}: no such experiment file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise FormatError(f"experiment {path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    suffix = path.suffix.lower()
    try:
        if suffix in (".yaml", ".yml"):
            data = _parse_yaml(text, path)
        elif suffix == ".toml":
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as err:
                raise FormatError(f"experiment {path}: not valid TOML: {err}") from err
        else:
            raise FormatError(
                f"experiment {path}: unknown extension {quote(suffix)} (allowed: .toml, .yaml, .yml)"
            )
    except RecursionError:
        # The parsers recurse once per nesting level.
        raise FormatError(
            f"experiment {path}: values nest too deeply to read "
            f"(at most {MAX_VALUE_DEPTH} levels are allowed)"
        ) from None
    if not isinstance(data, Mapping):
        raise FormatError(f"experiment {path}: the file must hold a table of keys, not {type(data).__name__}")
    exp = parse_experiment(data, name=path.stem, source=str(path), base_dir=path.parent)
    if exp.results is None:
        exp.results = path.parent / f"{path.stem}.results"
    return exp


def _parse_yaml(text: str, path: pathlib.Path) -> Any:
    try:
        import yaml
    except ImportError as err:
        raise FormatError(
            f"experiment {path}: reading YAML needs PyYAML (pip install 'topolab[yaml]'); TOML needs nothing"
        ) from err
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise FormatError(f"experiment {path}: not valid YAML: {err}") from err


def parse_experiment(
    data: Mapping[str, Any], *, name: str, source: str, base_dir: pathlib.Path | None
) -> Experiment:
    where = f"experiment {source}"
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise bad(
                where,
                "key",
                key,
                f"one of the keys {', '.join(TOP_LEVEL_KEYS)}",
                message=f"{where}: unknown key {quote(key)} (valid keys: {', '.join(TOP_LEVEL_KEYS)})",
            )
    kind = data.get("kind")
    if not isinstance(kind, str) or not kind:
        raise bad(
            where,
            "kind",
            kind,
            "the name of a point kind, e.g. 'info'",
            message=f"{where}: 'kind' = {quote(kind)} is not allowed: the name of a point kind, e.g. 'info'",
        )
    exp_name = _text(data, "name", where) or name
    description = _text(data, "description", where)
    results = None
    if "results" in data:
        text = _text(data, "results", where)
        if not text:
            raise bad(
                where,
                "results",
                text,
                "a directory path",
                message=f"{where}: 'results' must be a directory path",
            )
        results = pathlib.Path(text)
        if base_dir is not None and not results.is_absolute():
            results = base_dir / results

    fixed = _table(data, "fixed", where)
    for key, value in fixed.items():
        _check_value(value, f"{where}: fixed.{key}")
    axes = {
        key: axis_values(value, f"{where}: axes.{key}") for key, value in _table(data, "axes", where).items()
    }
    cases = _cases(data.get("cases"), where)

    owners: dict[str, str] = {}
    for section, keys in (("fixed", fixed), ("axes", axes), ("cases", {k for c in cases for k in c})):
        for key in keys:
            if key in owners:
                raise bad(
                    where,
                    key,
                    section,
                    "a parameter given in one place",
                    message=f"{where}: parameter '{key}' is given in both [{owners[key]}] and [{section}]; "
                    "give each parameter in one place",
                )
            owners[key] = section

    count = max(len(cases), 1) * math.prod(len(v) for v in axes.values())
    if count > MAX_POINTS:
        sizes = ", ".join(f"{k}: {len(v)}" for k, v in axes.items())
        raise bad(
            where,
            "axes",
            sizes,
            f"at most {MAX_POINTS} points",
            message=f"{where}: {count} points ({sizes}) is more than the {MAX_POINTS} allowed",
        )
    return Experiment(
        name=exp_name,
        kind=kind,
        axes=axes,
        cases=cases,
        fixed=dict(fixed),
        description=description,
        results=results,
        source=source,
    )


def axis_values(spec: Any, where: str) -> list[Any]:
    """The values of one axis: a non-empty list without repeats, or a range table."""
    if isinstance(spec, Mapping):
        values = _range_values(spec, where)
    elif isinstance(spec, (list, tuple)):
        values = list(spec)
    else:
        raise bad(
            where,
            where,
            spec,
            "a list of values, or a range {start, stop, step} / {start, stop, num}; a single value "
            "goes in [fixed]",
            message=f"{where} = {quote(spec)} is not allowed: a list of values, or a range "
            "{start, stop, step} / {start, stop, num}; a single value goes in [fixed]",
        )
    if not values:
        raise bad(
            where,
            where,
            values,
            "at least one value",
            message=f"{where} is empty: an axis needs at least one value",
        )
    seen = set()
    for value in values:
        _check_value(value, where)
        # Canonical text, not ==: 1 and 1.0 are different parameter values (see grid.point_id).
        key = canonical_json(value)
        if key in seen:
            raise bad(where, where, value, "each value once", message=f"{where} lists {quote(value)} twice")
        seen.add(key)
    return values


def canonical_json(value: Any) -> str:
    """One text per value: keys sorted, no spaces, floats in their shortest exact form, and
    int 1, float 1.0 and true kept apart."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _range_values(spec: Mapping[str, Any], where: str) -> list[Any]:
    for key in spec:
        if key not in RANGE_KEYS:
            raise bad(
                where,
                "range key",
                key,
                f"one of {', '.join(RANGE_KEYS)}",
                message=f"{where}: unknown range key {quote(key)} (valid: {', '.join(RANGE_KEYS)})",
            )
    for key in ("start", "stop"):
        if key not in spec:
            raise bad(where, key, None, "a number", message=f"{where}: a range needs '{key}'")
    if ("step" in spec) == ("num" in spec):
        raise bad(
            where,
            "step",
            spec.get("step"),
            "exactly one of 'step' and 'num'",
            message=f"{where}: a range needs exactly one of 'step' and 'num'",
        )
    for key, value in spec.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise bad(
                where,
                key,
                value,
                "a finite number",
                message=(f"{where}: range '{key}' = {quote(value)} is not allowed: a finite number"),
            )
    start, stop = spec["start"], spec["stop"]
    if "num" in spec:
        num = spec["num"]
        if not isinstance(num, int) or not 1 <= num <= MAX_POINTS:
            raise bad(
                where,
                "num",
                num,
                f"an integer from 1 to {MAX_POINTS}",
                message=(
                    f"{where}: range 'num' = {quote(num)} is not allowed: an integer from 1 to {MAX_POINTS}"
                ),
            )
        if num == 1:
            return [start]
        return [_tidy(start + (stop - start) * i / (num - 1)) for i in range(num)]
    step = spec["step"]
    if step == 0 or (stop - start) * step < 0:
        raise bad(
            where,
            "step",
            step,
            "nonzero and pointing from start to stop",
            message=(
                f"{where}: range 'step' = {step!r} is not allowed: nonzero and pointing from start to stop"
            ),
        )
    count = int(math.floor((stop - start) / step + 1e-9)) + 1
    if count > MAX_POINTS:
        raise bad(
            where,
            "step",
            step,
            f"a step giving at most {MAX_POINTS} values",
            message=(f"{where}: the range has {count} values, more than the {MAX_POINTS} allowed"),
        )
    if all(isinstance(spec[k], int) for k in ("start", "stop", "step")):
        return [start + i * step for i in range(count)]
    return [_tidy(start + i * step) for i in range(count)]


def _tidy(x: float) -> float:
    """Drops the binary noise of repeated float steps (0.1 * 3 = 0.30000000000000004), so that
    a range and the same values written out give the same points."""
    return float(f"{x:.12g}")


def _check_value(value: Any, where: str) -> None:
    # Iterative: a value nested thousands deep must give this error, not a RecursionError.
    stack = [(value, 0)]
    items = 0
    while stack:
        item, depth = stack.pop()
        items += 1
        if items > MAX_VALUE_ITEMS:
            raise bad(
                where,
                where,
                value,
                f"at most {MAX_VALUE_ITEMS} items",
                message=(f"{where}: a value of more than {MAX_VALUE_ITEMS} items is not allowed"),
            )
        if isinstance(item, (list, tuple)):
            if depth >= MAX_VALUE_DEPTH:
                raise bad(
                    where,
                    where,
                    value,
                    f"lists nested at most {MAX_VALUE_DEPTH} levels deep",
                    message=f"{where}: lists nest more than {MAX_VALUE_DEPTH} levels deep: values are "
                    "strings, numbers, booleans or (not too deeply) nested lists of them",
                )
            stack.extend((x, depth + 1) for x in item)
        elif not (item is None or isinstance(item, (bool, int, float, str))):
            raise bad(
                where,
                where,
                value,
                "parameter values are strings, numbers, booleans or lists of them",
                message=f"{where} = {quote(value)} is not allowed: "
                "parameter values are strings, numbers, booleans or lists of them",
            )


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise bad(
            where,
            key,
            value,
            "a string",
            message=f"{where}: '{key}' = {quote(value)} is not allowed: a string",
        )
    return value


def _table(data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise bad(
            where,
            key,
            value,
            "a table of parameters",
            message=(f"{where}: '{key}' must be a table of parameters, not {quote(value)}"),
        )
    for name in value:
        if not isinstance(name, str) or not name:
            raise bad(
                where,
                key,
                name,
                "parameter names that are non-empty strings",
                message=(f"{where}: {key} has a parameter name {quote(name)}: names are non-empty strings"),
            )
    return dict(value)


def _cases(value: Any, where: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not value:
        raise bad(
            where,
            "cases",
            value,
            "a non-empty list of tables ([[cases]] in TOML)",
            message=(f"{where}: 'cases' must be a non-empty list of tables ([[cases]] in TOML)"),
        )
    cases = []
    for i, case in enumerate(value):
        if not isinstance(case, Mapping) or not case:
            raise bad(
                where,
                f"cases[{i}]",
                case,
                "a non-empty table of parameters",
                message=(f"{where}: cases[{i}] must be a non-empty table of parameters, not {quote(case)}"),
            )
        for key, item in case.items():
            if not isinstance(key, str) or not key:
                raise bad(
                    where,
                    f"cases[{i}]",
                    key,
                    "parameter names that are non-empty strings",
                    message=(f"{where}: cases[{i}] has a parameter name {quote(key)}"),
                )
            _check_value(item, f"{where}: cases[{i}].{key}")
        cases.append(dict(case))
    return cases
