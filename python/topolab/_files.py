"""Writing output files so that an interruption never leaves half of one: the one helper every
writer uses (the Rust core's `io::save` does the same for network files).

The content goes to a temporary file beside the target, is flushed to disk, then renamed over
the target: an atomic step on POSIX and Windows, so the target holds the old content or the
whole new one. A target that is a symbolic link is replaced by a regular file rather than
written through: `-o out.json` never changes a file somewhere else that the link points to."""

from __future__ import annotations

import contextlib
import os
import pathlib
import tempfile
from typing import IO, Any, Iterator, Union

PathLike = Union[str, "os.PathLike[str]"]
TMP_SUFFIX = ".tmp"


@contextlib.contextmanager
def atomic_write(
    path: PathLike, mode: str = "w", *, encoding: str | None = "utf-8", **kwargs: Any
) -> Iterator[IO]:
    """``with atomic_write("out.csv") as f: ...``: ``f`` is a temporary file in the target's
    directory, renamed to ``path`` when the block ends normally and deleted when it raises."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write: mode {mode!r} is not 'w' or 'wb'")
    target = pathlib.Path(os.fspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else encoding, **kwargs) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        _keep_mode(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path: PathLike, text: str) -> None:
    with atomic_write(path) as f:
        f.write(text)


def write_bytes(path: PathLike, data: bytes) -> None:
    with atomic_write(path, "wb") as f:
        f.write(data)


def save_figure(fig: Any, path: PathLike, **kwargs: Any) -> None:
    """``fig.savefig`` through atomic_write (the format follows the extension, as savefig's)."""
    fmt = kwargs.pop("format", None) or pathlib.Path(os.fspath(path)).suffix.lstrip(".") or "png"
    with atomic_write(path, "wb") as f:
        fig.savefig(f, format=fmt, **kwargs)


def _keep_mode(tmp: str) -> None:
    """mkstemp makes the file private (0600); give it the mode a plain open() would have."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
