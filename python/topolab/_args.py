"""Argument conversion for the public functions: every bad value becomes a ParameterError that
names the function, the parameter, the value (at most QUOTE_MAX_CHARS characters of it) and what
is allowed, never a TypeError or OverflowError from deep inside the bindings.

The Rust core quotes values the same way (topolab_core::error::quote)."""

from __future__ import annotations

import argparse
import math
import numbers
import os
import warnings
from typing import Any, Callable, Iterable, Optional

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


def printable(text: str) -> str:
    """``text`` safe for a terminal: control characters other than newline and tab (escape
    sequences, carriage returns, bidirectional overrides) written as escapes such as
    ``\\x1b``, the rest unchanged. For anything from a file or a network (family, labels,
    paths) that is printed."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in " \n\t" else _escape(c) for c in text)


def _escape(c: str) -> str:
    code = ord(c)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def bad(context: str, name: str, value: Any, allowed: str, *, message: str | None = None) -> ParameterError:
    """The one way the Python code builds a ParameterError: it carries ``.parameter``,
    ``.value`` (quoted, as in the message) and ``.allowed`` like the core's errors. The message
    reads "CONTEXT: parameter 'NAME' = VALUE is not allowed: ALLOWED"; ``message`` replaces it
    where a sentence of its own says more (two settings in conflict, a file's content), the
    attributes being set either way."""
    if message is None:
        message = f"{context}: parameter '{name}' = {quote(value)} is not allowed: {allowed}"
    err = ParameterError(message)
    err.parameter, err.value, err.allowed = name, quote(value), allowed
    return err


def renamed_keyword(context: str, name: str, value: Any, former: str, former_value: Any) -> Any:
    """``value``, or the value given under the keyword's former name ``former`` (deprecated: it
    warns) when that was used (``former_value`` not None)."""
    if former_value is None:
        return value
    warnings.warn(
        f"{context}: keyword '{former}' is deprecated; it is now '{name}'", DeprecationWarning, stacklevel=3
    )
    return former_value


def in_context(context: str, err: ParameterError) -> ParameterError:
    """``err`` with ``context`` said first (the experiment, the point), its attributes kept."""
    wrapped = ParameterError(f"{context}: {err}")
    wrapped.parameter, wrapped.value, wrapped.allowed = err.parameter, err.value, err.allowed
    return wrapped


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
    above: bool = False,
) -> float:
    """A real number in [lo, hi] (NaN never; infinity only with ``allow_inf``; ``above``: lo
    itself excluded). Strings are refused: "nan" or "1e3" in a Python call is a mistake the
    caller should see."""
    if math.isfinite(lo) and math.isfinite(hi):
        allowed = f"a number {'above' if above else 'from'} {lo:g} {'and at most' if above else 'to'} {hi:g}"
    elif math.isfinite(lo):
        allowed = f"a number {'>' if above else '>='} {lo:g}" + (" (inf allowed)" if allow_inf else "")
    elif math.isfinite(hi):
        allowed = f"a number <= {hi:g}"
    else:
        allowed = "a finite number"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise bad(context, name, value, allowed)
    try:
        x = float(value)
    except (OverflowError, ValueError):  # an int past the doubles, a Decimal NaN
        raise bad(context, name, value, allowed) from None
    if math.isnan(x) or (math.isinf(x) and not allow_inf) or not lo <= x <= hi or (above and x == lo):
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


def text_arg(context: str, name: str, value: Any, allowed: str = "a name (a string)") -> str:
    """A name, spec or text: a string the core can take (UTF-8: no lone surrogates; no NUL)."""
    if not isinstance(value, str) or "\0" in value or not _encodable(value):
        raise bad(context, name, value, allowed)
    return value


def opt_text_arg(context: str, name: str, value: Any, allowed: str = "a name (a string)") -> Optional[str]:
    return None if value is None else text_arg(context, name, value, allowed)


def spec_arg(context: str, name: str, value: Any) -> str:
    """A spec string ("slimfly:q=19")."""
    return text_arg(context, name, value, "a spec string such as 'slimfly:q=19'")


def choice_arg(context: str, name: str, value: Any, choices: Iterable[str]) -> str:
    """One of ``choices``."""
    options = list(choices)
    allowed = "one of " + ", ".join(options)
    if not isinstance(value, str) or value not in options:
        raise bad(context, name, value, allowed)
    return value


def opt_choice_arg(context: str, name: str, value: Any, choices: Iterable[str]) -> Optional[str]:
    return None if value is None else choice_arg(context, name, value, choices)


def path_arg(context: str, name: str, value: Any) -> str:
    """A file path: a str or os.PathLike naming one (bytes paths are refused: the core reads
    UTF-8 names)."""
    allowed = "a file path (str or os.PathLike)"
    try:
        path = os.fspath(value)
    except TypeError:
        raise bad(context, name, value, allowed) from None
    if not isinstance(path, str) or not path or "\0" in path or not _encodable(path):
        raise bad(context, name, value, allowed)
    return path


def opt_path_arg(context: str, name: str, value: Any) -> Optional[str]:
    return None if value is None else path_arg(context, name, value)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# --- the command line: argparse types built on the same checks ---------------------------------


def cli_int(lo: int = 0, hi: int = U64_MAX) -> Callable[[str], int]:
    """An argparse ``type`` for an integer option in [lo, hi]: a bad or huge value is quoted
    (at most QUOTE_MAX_CHARS characters) with the range, never an OverflowError later."""
    allowed = f"an integer from {lo} to {hi}" if hi < U64_MAX else f"an integer >= {lo}"

    def parse(text: str) -> int:
        try:
            value = int(text) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{quote(text)} is not allowed: {allowed}")
        return value

    parse.__name__ = "integer"
    return parse


def cli_float(
    lo: float = -math.inf, hi: float = math.inf, *, allow_inf: bool = False, above: bool = False
) -> Callable[[str], float]:
    """An argparse ``type`` for a number option: float_arg's checks on the parsed text."""

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 400 else math.nan
        except ValueError:
            value = math.nan
        try:
            return float_arg("", "", value, lo, hi, allow_inf=allow_inf, above=above)
        except ParameterError as err:
            raise argparse.ArgumentTypeError(f"{quote(text)} is not allowed: {err.allowed}") from None

    parse.__name__ = "number"
    return parse


def bool_arg(context: str, name: str, value: Any) -> bool:
    """True or False only: a string "yes" (or "no", which is truthy) is refused."""
    if not isinstance(value, bool):
        raise bad(context, name, value, "True or False")
    return value


def opt_bool_arg(context: str, name: str, value: Any) -> Optional[bool]:
    return None if value is None else bool_arg(context, name, value)
