"""Argument conversion for the public functions: every bad value becomes a ParameterError that
names the function, the parameter, the value (at most QUOTE_MAX_CHARS characters of it) and what
is allowed, never a TypeError or OverflowError from deep inside the bindings.

The Rust core quotes values the same way (topolab_core::error::quote)."""

from __future__ import annotations

import math
import numbers
from typing import Any, Optional

from topolab._core import ParameterError

QUOTE_MAX_CHARS = 200
U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1


def quote(value: Any) -> str:
    """``repr(value)``, cut to its first QUOTE_MAX_CHARS characters when longer."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is still reported
        text = f"<{type(value).__name__}>"
    if len(text) <= QUOTE_MAX_CHARS:
        return text
    return f"{text[:QUOTE_MAX_CHARS]}... ({len(text)} characters in all)"


def bad(context: str, name: str, value: Any, allowed: str) -> ParameterError:
    """The error for a bad argument, carrying ``.parameter``, ``.value`` (quoted, as in the
    message) and ``.allowed`` like the core's errors."""
    err = ParameterError(f"{context}: parameter '{name}' = {quote(value)} is not allowed: {allowed}")
    err.parameter, err.value, err.allowed = name, quote(value), allowed
    return err


def int_arg(context: str, name: str, value: Any, lo: int = 0, hi: int = U64_MAX) -> int:
    """An integer in [lo, hi]; bools and non-integral numbers are refused."""
    allowed = f"an integer from {lo} to {hi}" if hi < U64_MAX else f"an integer >= {lo}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise bad(context, name, value, allowed)
    value = int(value)
    if not lo <= value <= hi:
        raise bad(context, name, value, allowed)
    return value


def opt_int_arg(context: str, name: str, value: Any, lo: int = 0, hi: int = U64_MAX) -> Optional[int]:
    return None if value is None else int_arg(context, name, value, lo, hi)


def float_arg(
    context: str,
    name: str,
    value: Any,
    lo: float = -math.inf,
    hi: float = math.inf,
    *,
    allow_inf: bool = False,
) -> float:
    """A real number in [lo, hi] (NaN never; infinity only with ``allow_inf``). Strings are
    refused: "nan" or "1e3" in a Python call is a mistake the caller should see."""
    if math.isfinite(lo) and math.isfinite(hi):
        allowed = f"a number from {lo:g} to {hi:g}"
    elif math.isfinite(lo):
        allowed = f"a number >= {lo:g}" + (" (inf allowed)" if allow_inf else "")
    elif math.isfinite(hi):
        allowed = f"a number <= {hi:g}"
    else:
        allowed = "a finite number"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise bad(context, name, value, allowed)
    x = float(value)
    if math.isnan(x) or (math.isinf(x) and not allow_inf) or not lo <= x <= hi:
        raise bad(context, name, value, allowed)
    return x


def opt_float_arg(
    context: str,
    name: str,
    value: Any,
    lo: float = -math.inf,
    hi: float = math.inf,
    *,
    allow_inf: bool = False,
) -> Optional[float]:
    return None if value is None else float_arg(context, name, value, lo, hi, allow_inf=allow_inf)


def text_arg(context: str, name: str, value: Any) -> str:
    """A name (routing, traffic pattern): a string."""
    if not isinstance(value, str):
        raise bad(context, name, value, "a name (a string)")
    return value


def bool_arg(context: str, name: str, value: Any) -> bool:
    """True or False only: a string "yes" (or "no", which is truthy) is refused."""
    if not isinstance(value, bool):
        raise bad(context, name, value, "True or False")
    return value


def opt_bool_arg(context: str, name: str, value: Any) -> Optional[bool]:
    return None if value is None else bool_arg(context, name, value)
