"""Writing output files so that an interruption never leaves half of one: the one helper every
writer uses (the Rust core's `io::save` does the same for network files).

The content goes to a temporary file beside the target, is flushed to disk, then renamed over
the target: an atomic step on POSIX and Windows, so the target holds the old content or the
whole new one. A target that is a symbolic link is replaced by a regular file rather than
written through: `-o out.json` never changes a file somewhere else that the link points to. A
device, FIFO or socket at the target is refused, never replaced (as root, `-o /dev/null` would
otherwise replace the system's /dev/null).

`check_output_file` and `check_output_dir` check a path before the work that fills it starts
(kind, parent directory, permission, extension), so that a mistake in `-o` costs nothing."""

from __future__ import annotations

import contextlib
import os
import pathlib
import secrets
import stat
import sys
from typing import IO, Any, Iterable, Iterator, Optional, Union

from topolab._args import bad, path_arg

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
    _refuse_special(target)
    fd, tmp = _create_beside(target)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else encoding, **kwargs) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _create_beside(target: pathlib.Path) -> tuple[int, str]:
    """A new file beside ``target``, created with mode 0666 so that the kernel applies the
    umask as for a plain open(): unlike mkstemp's 0600 it needs no chmod, and reading the
    umask (which only os.umask can, by setting it) would change it for every thread."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = str(target.parent / f".{target.name}.{secrets.token_hex(4)}{TMP_SUFFIX}")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"{target.parent}: no free temporary name for {target.name}")


def _refuse_special(target: pathlib.Path) -> None:
    try:
        mode = target.lstat().st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise bad("output", "path", str(target), _KIND_ALLOWED + f" ({_kind(mode)} found)")


_KIND_ALLOWED = "a regular file or a new name (a device, FIFO, socket or directory is never replaced)"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def check_output_file(context: str, name: str, path: Any, extensions: Optional[Iterable[str]] = None) -> str:
    """``path`` as a str once it is fit to receive a file: a regular file or a new name (never a
    directory or special file), in an existing directory that can be written, with one of
    ``extensions`` (lower case, with the dot) when given. Raises ParameterError otherwise."""
    text = path_arg(context, name, path)
    target = pathlib.Path(text)
    mode = _mode(context, name, text, target)
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise bad(context, name, text, _KIND_ALLOWED + f" ({_kind(mode)} found)")
    if extensions is not None:
        allowed_ext = sorted(extensions)
        if target.suffix.lower() not in allowed_ext:
            raise bad(context, name, text, "a file name ending in " + ", ".join(allowed_ext))
    _check_writable_dir(context, name, text, target.parent)
    return text


def _mode(context: str, name: str, text: str, target: pathlib.Path) -> Optional[int]:
    """The file mode at ``target`` (not following a link), None when nothing is there."""
    try:
        return target.lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:  # a name too long, a loop of links, no permission to look
        raise bad(context, name, text, f"a path that can be written ({err.strerror})") from None


def check_output_dir(context: str, name: str, path: Any) -> str:
    """``path`` as a str once it can hold output files: an existing directory that can be
    written, or a new name whose nearest existing ancestor is one."""
    text = path_arg(context, name, path)
    target = pathlib.Path(text)
    if _mode(context, name, text, target) is not None:
        if not target.is_dir():
            raise bad(context, name, text, "a directory or a new name (a file of that name exists)")
        _check_writable_dir(context, name, text, target)
        return text
    ancestor = target.parent
    while _mode(context, name, text, ancestor) is None and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    _check_writable_dir(context, name, text, ancestor)
    return text


def _check_writable_dir(context: str, name: str, text: str, directory: pathlib.Path) -> None:
    where = directory if str(directory) else pathlib.Path(".")
    if not where.is_dir():
        raise bad(context, name, text, f"a path in an existing directory ({where} is not one)")
    if not os.access(where, os.W_OK | os.X_OK):
        raise bad(context, name, text, f"a path in a directory this user can write ({where} is not)")


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


def keep_elsewhere(text: str, stem: str, suffix: str = ".json") -> str:
    """Writes ``text`` to a new file in the system's temporary directory and returns its path:
    where results go when the output they were meant for could not be written, so that an
    error after the work never discards the work."""
    import tempfile

    fd, path = tempfile.mkstemp(prefix=f"{stem}-", suffix=suffix)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path


# matplotlib's built-in backends (matplotlib.rcsetup); "module://..." names a third-party one.
MATPLOTLIB_BACKENDS = (
    "gtk3agg gtk3cairo gtk4agg gtk4cairo macosx nbagg notebook qtagg qtcairo qt5agg qt5cairo "
    "tkagg tkcairo webagg wx wxagg wxcairo agg cairo pdf pgf ps svg template inline"
).split()


def import_matplotlib() -> Any:
    """matplotlib, imported after an unknown ``MPLBACKEND`` (which makes ``import matplotlib``
    itself raise) is dropped with a warning: topolab draws into files, with the Agg canvas."""
    if "matplotlib" not in sys.modules:
        backend = os.environ.get("MPLBACKEND")
        if backend is not None and not (
            backend.lower() in MATPLOTLIB_BACKENDS or backend.startswith("module://")
        ):
            from topolab._args import printable, quote

            print(
                f"topolab: warning: MPLBACKEND = {printable(quote(backend))} is not a matplotlib "
                "backend; ignored (files are drawn with Agg)",
                file=sys.stderr,
            )
            del os.environ["MPLBACKEND"]
    import matplotlib

    return matplotlib


def figure_extensions() -> list[str]:
    """The file extensions matplotlib can write (".png", ".pdf", ".svg", ...)."""
    import_matplotlib()
    from matplotlib.backend_bases import FigureCanvasBase

    return sorted("." + ext for ext in FigureCanvasBase.get_supported_filetypes())


def has_module(name: str) -> bool:
    """Whether an optional dependency is importable (without importing it)."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent package missing; a module entry set to None
        return False
