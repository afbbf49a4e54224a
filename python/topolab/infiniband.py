"""InfiniBand routing export (Daryin & Korzh, JSFI 2014, §3): per-switch linear forwarding
tables, SL2VL tables with the service-level dimension and the path SLs of a static routing,
written in the formats OpenSM writes and loads (docs/routing.md, "InfiniBand export"), read
back and checked: every (switch, host) pair follows the scheme's path, within the VL budget,
with an acyclic channel dependency graph over (link, VL)."""

from __future__ import annotations

import json
import os

from topolab import _core
from topolab._args import quote
from topolab._files import write_text
from topolab._results import InfinibandCheck
from topolab.network import Network, as_network
from topolab.progress import Progress

#: (LFT dump, SL2VL dump, path SLs): the file names written into the export directory.
FILES: tuple[str, str, str] = _core.INFINIBAND_FILES


def export(
    net: Network | str,
    routing: str,
    directory: str | os.PathLike[str],
    vl_budget: int = 8,
    *,
    progress: bool | None = None,
) -> InfinibandCheck:
    """Writes the tables of ``routing`` into ``directory`` (created if needed), reads them
    back and checks them (``check``). ``progress``: its three steps on stderr (default: when
    stderr is a terminal)."""
    net = as_network(net, context="infiniband export")
    with Progress("routing export", 3, unit="step", enabled=progress) as bar:
        bar.note("tables")
        texts = _core.infiniband_export(net._net, routing, vl_budget)
        bar.update()
        bar.note("writing")
        os.makedirs(directory, exist_ok=True)
        for name, text in zip(FILES, texts):
            write_text(os.path.join(directory, name), text)
        bar.update()
        bar.note("checking")
        checked = check(net, routing, directory)
        bar.update()
    return checked


def check(net: Network | str, routing: str, directory: str | os.PathLike[str]) -> InfinibandCheck:
    """Reads the three files of ``directory`` and follows every (switch, host) pair through
    them; raises ``topolab.NetworkError`` on a route that is not the scheme's, a missing
    entry, or ``topolab.FormatError`` on a malformed file."""
    net = as_network(net)
    texts = []
    for name in FILES:
        path = os.path.join(directory, name)
        try:
            with open(path) as f:
                texts.append(f.read())
        except OSError as e:
            raise _core.FileError(f"{quote(str(path))}: {e.strerror}") from None
    return InfinibandCheck._from_core(json.loads(_core.infiniband_check(net._net, routing, *texts)))
