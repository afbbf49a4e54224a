"""The Network object and the ways to make one: build from a spec, load from a file, convert
from networkx."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from topolab import _core
from topolab._args import U32_MAX, bad, int_arg, quote

if TYPE_CHECKING:
    import networkx as nx


class Network:
    """Routers, router-to-router links and the endpoints attached to each router.

    Immutable. Router ids are 0..num_routers-1; endpoint ids are assigned contiguously router by
    router. Undirected links are listed once with src < dst; ``width`` counts parallel cables.
    """

    __slots__ = ("_net",)

    def __init__(self, core: _core.Network):
        self._net = core

    # --- identity -------------------------------------------------------------------------
    @property
    def family(self) -> str:
        return self._net.family

    @property
    def failures(self) -> str | None:
        """The failure spec this network survived (``topolab.apply_failures``); None when intact.
        Routings built from the family's structure refuse a degraded network."""
        return self._net.failures

    @property
    def spec(self) -> str:
        """The spec string the network was built from ('' for imported networks)."""
        return self._net.spec

    @property
    def directed(self) -> bool:
        return self._net.directed

    # --- sizes ----------------------------------------------------------------------------
    @property
    def num_routers(self) -> int:
        return self._net.num_routers

    @property
    def num_endpoints(self) -> int:
        return self._net.num_endpoints

    @property
    def num_links(self) -> int:
        """Router-to-router cables, counting width."""
        return self._net.num_links

    @property
    def network_radix(self) -> int:
        """Largest router-to-router degree (out-degree when directed)."""
        return self._net.network_radix

    @property
    def radix(self) -> int:
        """network_radix plus the largest number of endpoints on one router."""
        return self._net.radix

    # --- structure ------------------------------------------------------------------------
    @property
    def endpoints(self) -> list[int]:
        """Endpoints attached to each router."""
        return self._net.endpoints

    @property
    def label_fields(self) -> list[str]:
        return self._net.label_fields

    @property
    def labels(self) -> list[tuple[int, ...]]:
        """The family-specific label of each router, e.g. (t, x, y) for Slim Fly."""
        return self._net.labels

    @property
    def link_classes(self) -> list[str]:
        return self._net.link_classes

    @property
    def links(self) -> list[tuple[int, int, int, str]]:
        """Links as (src, dst, width, class name)."""
        classes = self._net.link_classes
        return [(u, v, w, classes[c]) for (u, v, w, c) in self._net.links]

    def degree(self, router: int) -> int:
        return self._net.degree(router)

    def neighbors(self, router: int) -> list[int]:
        return self._net.neighbors(router)

    def info(self) -> dict[str, Any]:
        """The summary that ``topolab info --json`` prints."""
        return {
            "family": self.family,
            "spec": self.spec,
            "routers": self.num_routers,
            "endpoints": self.num_endpoints,
            "links": self.num_links,
            "network_radix": self.network_radix,
            "radix": self.radix,
            "directed": self.directed,
            "label_fields": self.label_fields,
            "link_classes": dict(zip(self.link_classes, self._net.link_class_cables)),
            **({"failures": self.failures} if self.failures is not None else {}),
        }

    # --- files and conversion -------------------------------------------------------------
    def save(self, path: str | os.PathLike[str], format: str | None = None) -> None:
        """Writes the network; the format follows the extension unless given
        (json, edgelist, graphml, anynet, ibnet: an ibsim topology)."""
        from topolab._files import check_output_file

        path = check_output_file("save", "path", path)
        self._net.save(path, format)

    def dumps(self, format: str = "json") -> str:
        return self._net.dumps(format)

    # A Network is immutable: pickling (Dask, multiprocessing) and deep copies go through its
    # JSON form, which keeps family, spec, labels, link classes and widths.
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_from_json, (self._net.dumps("json"),))

    def __copy__(self) -> Network:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Network:
        return _from_json(self._net.dumps("json"))

    def to_networkx(self) -> nx.Graph | nx.DiGraph:
        """A networkx Graph (DiGraph when directed) with router attributes ``endpoints`` and
        the label fields, and link attributes ``width`` and ``link_class``."""
        import networkx as nx

        g = nx.DiGraph() if self.directed else nx.Graph()
        g.graph.update(family=self.family, spec=self.spec)
        fields = self.label_fields
        for r, (eps, label) in enumerate(zip(self.endpoints, self.labels)):
            g.add_node(r, endpoints=eps, **dict(zip(fields, label)))
        g.add_edges_from((u, v, {"width": w, "link_class": c}) for (u, v, w, c) in self.links)
        return g

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Network) and self._net == other._net

    def __hash__(self) -> int:
        return hash((self.spec, self.num_routers, self.num_links))

    def _repr_html_(self) -> str:
        from topolab.display import html_table

        info = self.info()
        classes = ", ".join(f"{k}: {v}" for k, v in info.pop("link_classes").items())
        info["label_fields"] = ", ".join(info["label_fields"])
        return html_table(f"Network {self.spec or self.family}", [*info.items(), ("link classes", classes)])

    def __repr__(self) -> str:
        name = self.spec or self.family
        return (
            f"Network({name!r}, routers={self.num_routers}, endpoints={self.num_endpoints}, "
            f"links={self.num_links}, radix={self.radix})"
        )


#: File name endings ``network_from_argument`` takes for a network file.
FILE_EXTENSIONS = (".json", ".edgelist", ".edges", ".txt", ".graphml", ".anynet", ".ibnet", ".ibnd")


def _from_json(text: str) -> Network:
    return Network(_core.loads(text, "json", None, None))


def network_from_argument(text: str, fmt: str | None = None) -> Network:
    """A network from a file path or, when no such file exists, a spec string."""
    if os.path.isfile(text):
        return load(text, fmt)
    if text.lower().endswith(FILE_EXTENSIONS) and ":" not in text:
        raise _core.FileError(f"{quote(text)}: no such file (and not a topology spec)")
    return build(text)


def build(spec: str, *, failures: str | None = None, **params: Any) -> Network:
    """Builds a topology from a family name or spec string plus keyword parameters.

    ``build("slimfly", q=19)`` and ``build("slimfly:q=19,p=15")`` are the same kind of call;
    ``topolab.families()`` lists every family with its parameters. Raises
    ``topolab.ParameterError`` naming the parameter, the value and what is allowed.
    ``failures`` (e.g. ``"links:fraction=0.05,seed=1"``, ``topolab.failure_kinds()``): the
    network that survives them (``topolab.apply_failures`` also reports what was lost).
    """
    net = Network(_core.build(spec, params))
    return net if failures is None else _degrade(net, failures)


def as_network(net: Network | str, failures: str | None = None, *, context: str = "network") -> Network:
    """``net`` itself, or the network a spec string builds: the one coercion every public
    function taking a network uses (``context``: its name, for errors); with ``failures``, what
    survives them."""
    if isinstance(net, Network):
        return net if failures is None else _degrade(net, failures)
    if isinstance(net, str):
        return build(net, failures=failures)
    raise bad(context, "net", net, "a topolab.Network or a spec string")


def _degrade(net: Network, failures: str) -> Network:
    from topolab.failures import apply_failures

    return apply_failures(net, failures).network


def load(
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    directed: bool | None = None,
    endpoints_per_router: int | None = None,
) -> Network:
    """Reads a network file (JSON, edge list, GraphML, BookSim2 anynet or an InfiniBand fabric as
    ibnetdiscover prints it (.ibnet, .ibnd); by extension unless
    ``format`` is given). ``directed`` and ``endpoints_per_router`` apply to formats that do not
    carry them (plain edge lists, foreign GraphML)."""
    return Network(_core.load(path, format, directed, endpoints_per_router))


def loads(
    text: str,
    format: str = "json",
    *,
    directed: bool | None = None,
    endpoints_per_router: int | None = None,
) -> Network:
    """Reads a network from text in ``format``."""
    return Network(_core.loads(text, format, directed, endpoints_per_router))


def from_networkx(
    graph: nx.Graph | nx.DiGraph,
    endpoints: int | str | dict[Any, int] = "endpoints",
    *,
    family: str = "imported",
) -> Network:
    """Converts a networkx graph into a Network.

    Nodes are numbered in ``graph.nodes`` order. ``endpoints`` is either a number of endpoints
    for every router, the name of a node attribute (missing means 0), or a dict node -> count.
    Edge attribute ``width`` (default 1) gives parallel links; ``link_class`` (default "link")
    the class. Multigraph parallel edges add up to the width.
    """
    import networkx as nx

    if not isinstance(graph, nx.Graph):
        raise bad("from_networkx", "graph", graph, "a networkx Graph, DiGraph, MultiGraph or MultiDiGraph")
    nodes = list(graph.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    if isinstance(endpoints, bool) or not isinstance(endpoints, (int, str, dict)):
        raise bad(
            "from_networkx", "endpoints", endpoints, "an int, a node attribute name or a dict node -> int"
        )
    if isinstance(endpoints, int):
        given = [endpoints] * len(nodes)
    elif isinstance(endpoints, str):
        given = [graph.nodes[n].get(endpoints, 0) for n in nodes]
    else:
        given = [endpoints.get(n, 0) for n in nodes]
    counts = [int_arg("from_networkx", "endpoints", _whole(c), 0, U32_MAX) for c in given]

    classes: list[str] = []
    widths: dict[tuple[int, int, int], int] = {}
    for u, v, data in graph.edges(data=True):
        a, b = index[u], index[v]
        if not graph.is_directed() and b < a:
            a, b = b, a
        name = str(data.get("link_class", "link"))
        if name not in classes:
            classes.append(name)
        key = (a, b, classes.index(name))
        width = int_arg("from_networkx", "width", _whole(data.get("width", 1)), 1, U32_MAX)
        widths[key] = widths.get(key, 0) + width
        if widths[key] > U32_MAX:
            raise bad("from_networkx", "width", widths[key], f"parallel links of at most {U32_MAX} cables")
    links = [(a, b, w, c) for (a, b, c), w in widths.items()]
    return Network(
        _core.from_parts(len(nodes), links, graph.is_directed(), counts, [], [], classes, family=family)
    )


def _whole(value: Any) -> Any:
    """A float holding a whole number (2.0, as GraphML readers give) as that int; anything else
    unchanged, for int_arg to accept or refuse (2.5 is not rounded)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
