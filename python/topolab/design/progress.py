"""The progress of ``topolab compare`` on stderr."""

from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    """Progress on stderr: a line per design, rewritten in place on a terminal."""

    def __init__(self, progress: bool | TextIO | None):
        if progress is None:
            progress = sys.stderr.isatty()
        self.stream = sys.stderr if progress is True else (progress or None)
        self.tty = bool(self.stream) and getattr(self.stream, "isatty", lambda: False)()
        self.pending = False

    def status(self, text: str) -> None:
        if not self.stream:
            return
        if self.tty:
            width = 119
            self.stream.write("\r" + text[:width].ljust(width))
            self.pending = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def line(self, text: str) -> None:
        if not self.stream:
            return
        if self.pending:
            self.stream.write("\r" + " " * 119 + "\r")
            self.pending = False
        self.stream.write(text + "\n")
        self.stream.flush()
