"""The registry of point kinds: what one point of an experiment computes.

A kind is a function ``run_point(params: dict) -> dict`` that takes the parameters of one point
(plain values: str, int, float, bool, lists of them) and returns flat results (a dict of such
values). It must be deterministic: the same parameters give the same results wherever and
however often it runs (randomness comes from a ``seed`` parameter), because the runner may run
a point in any process, on any machine, and again after a lost worker.

The function is given either as a callable or as an import path ``"module:function"``, which is
resolved when first used; an experiment file may also name such a path as its ``kind``, so that
user code runs without registering anything.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Union

from topolab._core import ParameterError

RunPoint = Callable[[dict], dict]
Validate = Callable[[dict], None]


@dataclass(frozen=True)
class Kind:
    """One registered kind. ``params``: the parameter names it takes (None: not checked by the
    runner); ``required``: those every point must give; ``validate``: an optional check of one
    point's parameters that raises ``topolab.ParameterError``, run for every point before any
    point runs (so that a typo fails at once rather than in every point)."""

    name: str
    target: Union[RunPoint, str]
    params: tuple[str, ...] | None = None
    required: tuple[str, ...] = ()
    validate: Union[Validate, str, None] = None
    summary: str = ""
    _resolved: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def function(self) -> RunPoint:
        if "run_point" not in self._resolved:
            self._resolved["run_point"] = resolve(self.target, f"kind '{self.name}'")
        return self._resolved["run_point"]

    def check(self, params: Mapping[str, Any]) -> None:
        """Raises ParameterError for a parameter the kind does not take or a missing one."""
        if self.params is not None:
            for key in params:
                if key not in self.params:
                    raise ParameterError(
                        f"kind '{self.name}' does not take parameter '{key}' "
                        f"(valid parameters: {', '.join(self.params)})"
                    )
        for key in self.required:
            if key not in params:
                raise ParameterError(f"kind '{self.name}' needs parameter '{key}'")
        if self.validate is not None:
            if "validate" not in self._resolved:
                self._resolved["validate"] = resolve(self.validate, f"kind '{self.name}' validate")
            self._resolved["validate"](dict(params))


KINDS: dict[str, Kind] = {}


def register_kind(
    name: str,
    run_point: RunPoint | str,
    *,
    params: Iterable[str] | None = None,
    required: Iterable[str] = (),
    validate: Validate | str | None = None,
    summary: str = "",
) -> Kind:
    """Registers (or replaces) a kind under ``name``; see the module docstring."""
    if not name or ":" in name:
        raise ParameterError(f"register_kind: name {name!r} is not allowed: a non-empty name without ':'")
    required = tuple(required)
    params = None if params is None else tuple(params)
    if params is not None:
        missing = [r for r in required if r not in params]
        if missing:
            raise ParameterError(f"register_kind '{name}': required {missing} are not in params")
    kind = Kind(name, run_point, params, required, validate, summary)
    KINDS[name] = kind
    return kind


def kinds() -> list[Kind]:
    """Every registered kind, by name."""
    return [KINDS[name] for name in sorted(KINDS)]


def get_kind(name: str) -> Kind:
    """A registered kind, or an unregistered ``module:function`` path taken as a kind that
    checks no parameters."""
    if name in KINDS:
        return KINDS[name]
    if ":" in name:
        kind = Kind(name, name)
        kind.function()  # fail now, with the path in the message, not in every point
        return kind
    raise ParameterError(
        f"kind '{name}' is not registered (registered kinds: {', '.join(sorted(KINDS)) or 'none'}; "
        "or give an import path 'module:function')"
    )


def resolve(target: Callable | str, what: str) -> Callable:
    if callable(target):
        return target
    module_name, _, attr = str(target).partition(":")
    if not module_name or not attr:
        raise ParameterError(f"{what}: {target!r} is not an import path 'module:function'")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as err:
        raise ParameterError(f"{what}: cannot import {target!r}: {err}") from err
    if not callable(obj):
        raise ParameterError(f"{what}: {target!r} is not callable")
    return obj


# --- the kinds topolab ships --------------------------------------------------------------------


def info_point(params: dict) -> dict:
    """Sizes of one network: ``network`` is a spec string or a network file."""
    from topolab.cli.common import network_from_argument

    info = network_from_argument(str(params["network"])).info()
    return {
        "family": info["family"],
        "routers": info["routers"],
        "endpoints": info["endpoints"],
        "links": info["links"],
        "network_radix": info["network_radix"],
        "radix": info["radix"],
        "directed": info["directed"],
    }


register_kind(
    "info",
    info_point,
    params=["network"],
    required=["network"],
    summary="network sizes: routers, endpoints, links, radix, as topolab info gives them",
)
register_kind(
    "simulate",
    "topolab.sim:run_point",
    required=["network", "load"],
    summary="one cycle-accurate simulation: network, routing, traffic, load, seed and BookSim2-named "
    "router parameters; the columns of topolab.simulate's result",
)
