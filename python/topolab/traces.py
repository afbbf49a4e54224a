"""Execution traces users already produce, read into the message-level workload
(topolab.workload): MLCommons Chakra execution traces (Sridharan et al., "Chakra: Advancing
Performance Benchmarking and Co-design using Standardized Execution Traces", arXiv:2305.14516,
2023), the format ASTRA-sim replays and PyTorch's execution-trace observer feeds through
Chakra's converter.

Why Chakra: it is what AI training clusters produce today (PyTorch), it records collectives as
collectives (type and size) with the compute between them and their dependencies, which is what
a network design is judged on; DUMPI and OTF2 record MPI calls of HPC codes, point-to-point
traces whose collectives are already expanded by one MPI library's algorithm.

A Chakra file (``<name>.<rank>.et``) is one rank's graph: a stream of protobuf messages, each
preceded by its length as a varint, a ``GlobalMetadata`` first, then ``Node``s with ``id``,
``type`` (compute, send, receive, collective, ...), ``data_deps`` (node ids),
``duration_micros`` and attributes (``comm_type``, ``comm_size``, ``comm_src``, ``comm_dst``).
Only the fields read here are declared (``_schema``, from Chakra's schema/protobuf/et_def.proto);
protobuf skips the others.

The graph becomes messages as ASTRA-sim runs it: a collective node becomes the collective's
messages (ring allreduce, allgather and reduce-scatter, pairwise all-to-all), a compute node a
delay of its duration (``cycle_ns`` per cycle), run one at a time per rank in the graph's order
(ASTRA-sim keeps one compute node in flight per accelerator), and the data dependencies are kept
(the ones ASTRA-sim's feeder follows; the control dependencies of PyTorch-converted traces are
not a graph to follow: in Chakra's test trace they include 383 self-loops and cycles between an
operator and its kernel). Each node is a zero-byte message from each rank to itself (a gate)
that waits for the gates of the nodes it depends on; a collective's first messages wait for its
gate. One file stands for every rank (data-parallel SPMD traces are the same on every rank);
several files, one per rank, give each rank its own graph (their collectives must then match in
order, as MPI's and NCCL's do).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterator, Sequence

from topolab import _core
from topolab._args import bad, float_arg, int_arg

__all__ = ["ChakraNode", "chakra_messages", "read_chakra"]

# Chakra's NodeType and CollectiveCommType (schema/protobuf/et_def.proto).
COMP_NODE, COMM_SEND_NODE, COMM_RECV_NODE, COMM_COLL_NODE = 4, 5, 6, 7
COLLECTIVES = {0: "allreduce", 2: "allgather", 6: "alltoall", 7: "reducescatter", 8: "reducescatter"}
COLLECTIVE_NAMES = {
    0: "ALL_REDUCE",
    1: "REDUCE",
    2: "ALL_GATHER",
    3: "GATHER",
    4: "SCATTER",
    5: "BROADCAST",
    6: "ALL_TO_ALL",
    7: "REDUCE_SCATTER",
    8: "REDUCE_SCATTER_BLOCK",
    9: "BARRIER",
}
# A varint of a length above this is not a Chakra record (a file of another kind).
MAX_RECORD_BYTES = 1 << 30


@dataclass(frozen=True)
class ChakraNode:
    """One node of a rank's graph, as topolab reads it."""

    id: int
    name: str
    type: int
    deps: tuple[int, ...]
    duration_micros: int
    comm_type: int | None = None
    comm_size: int | None = None
    comm_src: int | None = None
    comm_dst: int | None = None


def _schema() -> tuple[Any, Any]:
    """The message classes of the fields read (GlobalMetadata, Node), built from a descriptor
    declared here with Chakra's field numbers and types."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError:
        raise _core.TopolabError(
            "reading Chakra traces needs protobuf: pip install 'topolab[traces]' (or protobuf)"
        ) from None

    f = descriptor_pb2.FileDescriptorProto(
        name="topolab_chakra.proto", package="ChakraProtoMsg", syntax="proto3"
    )
    T = descriptor_pb2.FieldDescriptorProto
    attr = f.message_type.add(name="AttributeProto")
    attr.field.add(name="name", number=1, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    # Chakra's values are a oneof, which gives them presence (WhichOneof).
    attr.oneof_decl.add(name="value")
    for name, number, kind in [
        ("int32_val", 7, T.TYPE_INT32),
        ("int64_val", 9, T.TYPE_INT64),
        ("uint32_val", 11, T.TYPE_UINT32),
        ("uint64_val", 13, T.TYPE_UINT64),
        ("sint32_val", 15, T.TYPE_SINT32),
        ("sint64_val", 17, T.TYPE_SINT64),
        ("bool_val", 27, T.TYPE_BOOL),
        ("string_val", 29, T.TYPE_STRING),
    ]:
        attr.field.add(name=name, number=number, type=kind, label=T.LABEL_OPTIONAL, oneof_index=0)
    meta = f.message_type.add(name="GlobalMetadata")
    meta.field.add(name="version", number=1, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    meta.field.add(
        name="attr",
        number=2,
        type=T.TYPE_MESSAGE,
        type_name=".ChakraProtoMsg.AttributeProto",
        label=T.LABEL_REPEATED,
    )
    node = f.message_type.add(name="Node")
    for name, number, kind, label in [
        ("id", 1, T.TYPE_UINT64, T.LABEL_OPTIONAL),
        ("name", 2, T.TYPE_STRING, T.LABEL_OPTIONAL),
        ("type", 3, T.TYPE_INT32, T.LABEL_OPTIONAL),
        ("ctrl_deps", 4, T.TYPE_UINT64, T.LABEL_REPEATED),
        ("data_deps", 5, T.TYPE_UINT64, T.LABEL_REPEATED),
        ("duration_micros", 7, T.TYPE_UINT64, T.LABEL_OPTIONAL),
    ]:
        node.field.add(name=name, number=number, type=kind, label=label)
    node.field.add(
        name="attr",
        number=10,
        type=T.TYPE_MESSAGE,
        type_name=".ChakraProtoMsg.AttributeProto",
        label=T.LABEL_REPEATED,
    )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    classes = message_factory.GetMessages([f], pool=pool)
    return classes["ChakraProtoMsg.GlobalMetadata"], classes["ChakraProtoMsg.Node"]


def _varint(stream: BinaryIO, path: str) -> int | None:
    shift = result = 0
    while True:
        byte = stream.read(1)
        if not byte:
            if shift:
                raise _core.FormatError(f"chakra input {path}: the file ends inside a record's length")
            return None
        result |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            return result
        shift += 7
        if shift > 63:
            raise _core.FormatError(f"chakra input {path}: a record length is not a varint")


def _records(stream: BinaryIO, path: str) -> Iterator[bytes]:
    while (length := _varint(stream, path)) is not None:
        if length > MAX_RECORD_BYTES:
            raise _core.FormatError(
                f"chakra input {path}: a record of {length} bytes (at most {MAX_RECORD_BYTES}): "
                "not a Chakra trace"
            )
        data = stream.read(length)
        if len(data) != length:
            raise _core.FormatError(
                f"chakra input {path}: the file ends inside a record ({len(data)} of {length} bytes)"
            )
        yield data


def read_chakra(source: str | os.PathLike[str] | BinaryIO) -> tuple[str, list[ChakraNode]]:
    """The schema version and the nodes of one Chakra execution trace (a path or an open binary
    file)."""
    from google.protobuf.message import DecodeError

    metadata_class, node_class = _schema()
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        try:
            stream: BinaryIO = open(path, "rb")
        except OSError as err:
            raise _core.FileError(f"chakra input {path}: cannot be read ({err.strerror or err})") from None
    else:
        stream, path = source, getattr(source, "name", "<stream>")
    nodes = []
    with stream:
        records = _records(stream, path)
        first = next(records, None)
        if first is None:
            raise _core.FormatError(f"chakra input {path}: empty, no GlobalMetadata record")
        try:
            metadata = metadata_class.FromString(first)
            # the schema version: a field of its own, or (as PyTorch's converter writes it) the
            # attribute "schema"
            schemas = [a.string_val for a in metadata.attr if a.name == "schema"]
            version = metadata.version or (schemas[0] if schemas else "")
            for data in records:
                n = node_class.FromString(data)
                attrs = {a.name: a for a in n.attr}

                def value(name: str, attrs: dict[str, Any] = attrs) -> int | None:
                    a = attrs.get(name)
                    which = None if a is None else a.WhichOneof("value")
                    if which is None or which in ("string_val", "bool_val"):
                        return None
                    return int(getattr(a, which))

                nodes.append(
                    ChakraNode(
                        id=int(n.id),
                        name=n.name,
                        type=int(n.type),
                        deps=tuple(sorted(set(map(int, n.data_deps)))),
                        duration_micros=int(n.duration_micros),
                        comm_type=value("comm_type"),
                        comm_size=value("comm_size"),
                        comm_src=value("comm_src"),
                        comm_dst=value("comm_dst"),
                    )
                )
        except DecodeError as err:
            raise _core.FormatError(
                f"chakra input {path}: record {len(nodes) + 1} is not a Chakra node ({err})"
            ) from None
    return version, nodes


def chakra_messages(
    traces: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    ranks: int,
    *,
    cycle_ns: float = 1.0,
) -> str:
    """The message file (docs/workloads.md, "Message files") of Chakra traces (module
    documentation) over ``ranks`` ranks: one trace for every rank, or one per rank.
    ``cycle_ns``: nanoseconds per simulator cycle, which turns the compute nodes' durations
    into delays. Run it with the job ``messages:path=FILE``, or give ``run_workload`` the job
    ``chakra:path=TRACE,ranks=N[,cycle_ns=X]``."""
    ranks = int_arg("chakra_messages", "ranks", ranks, 2, 1 << 20)
    cycle_ns = float_arg("chakra_messages", "cycle_ns", cycle_ns, 0.0, 1e9, above=True)
    paths = [traces] if isinstance(traces, (str, os.PathLike)) else list(traces)
    if len(paths) not in (1, ranks):
        raise bad("chakra_messages", "traces", f"{len(paths)} files", f"one trace for every rank, or {ranks}")
    graphs = [_topological(read_chakra(p)[1]) for p in paths]
    orders = [graphs[r if len(graphs) > 1 else 0] for r in range(ranks)]
    out = _Messages(ranks)
    position = [0] * ranks
    gate: dict[tuple[int, int], int] = {}  # (rank, node id) -> its gate, or its collective's end
    last_compute: list[int | None] = [None] * ranks
    calls = 0
    while True:
        # Each rank up to its next collective: a gate per node, waiting for its dependencies'.
        for r in range(ranks):
            nodes = orders[r]
            while position[r] < len(nodes) and not _collective(nodes[position[r]]):
                n = nodes[position[r]]
                delay = round(n.duration_micros * 1000 / cycle_ns) if n.type == COMP_NODE else 0
                if r == 0 and n.type != COMP_NODE:  # what is not replayed, counted once
                    if n.type != COMM_COLL_NODE:
                        kind = "other nodes (memory, point-to-point)"
                    elif n.comm_type is None or not n.comm_size:
                        kind = "collectives without a kind or size"
                    else:
                        kind = COLLECTIVE_NAMES.get(n.comm_type, str(n.comm_type))
                    out.unsupported[kind] = out.unsupported.get(kind, 0) + 1
                deps = [gate[r, d] for d in n.deps if (r, d) in gate]
                if n.type == COMP_NODE:
                    # one compute stream per rank, in the graph's order (ASTRA-sim's hardware
                    # resource: one compute node in flight per accelerator)
                    previous = last_compute[r]
                    if previous is not None:
                        deps.append(previous)
                    gate[r, n.id] = out.add(r, r, 0, delay, 0, deps)
                    last_compute[r] = gate[r, n.id]
                else:
                    gate[r, n.id] = out.add(r, r, 0, delay, 0, deps)
                position[r] += 1
        at = [orders[r][position[r]] if position[r] < len(orders[r]) else None for r in range(ranks)]
        if all(n is None for n in at):
            break
        kinds = {None if n is None else (n.comm_type, n.comm_size) for n in at}
        if len(kinds) != 1:
            raise _core.FormatError(
                f"chakra input: collective {calls} differs between ranks ({sorted(map(str, kinds))}): "
                "ranks must call the same collectives in the same order"
            )
        # one kind, and not None: every rank is at this collective
        here = [n for n in at if n is not None]
        first = here[0]
        op = COLLECTIVES[first.comm_type or 0]
        starts = [
            out.add(r, r, 0, 0, 0, [gate[r, d] for d in n.deps if (r, d) in gate]) for r, n in enumerate(here)
        ]
        _name, _op, _ranks, _endpoints, messages, _phases = _core.collective_messages(
            f"{op}:bytes={first.comm_size}", ranks
        )
        base = len(out.lines)
        awaited = set()
        for src, dst, size, delay, _phase, _iteration, deps in messages:
            awaited.update(deps)
            out.add(src, dst, size, delay, out.phase(op), [base + d for d in deps] if deps else [starts[src]])
        finals: dict[int, list[int]] = {r: [] for r in range(ranks)}
        for i, m in enumerate(messages):
            if i not in awaited:
                finals[m[1]].append(base + i)
        for r in range(ranks):
            gate[r, here[r].id] = out.add(r, r, 0, 0, 0, finals[r] or [starts[r]])
            position[r] += 1
        out.size = max(out.size, first.comm_size or 0)
        calls += 1
    return out.text(calls)


def _collective(n: ChakraNode) -> bool:
    """A collective node topolab replays (of a kind it has, moving bytes)."""
    return n.type == COMM_COLL_NODE and n.comm_type in COLLECTIVES and (n.comm_size or 0) > 0


class _Messages:
    """The message file being written (``chakra_messages``)."""

    def __init__(self, ranks: int) -> None:
        self.ranks = ranks
        self.phases = ["compute"]
        self.lines: list[str] = []
        self.unsupported: dict[str, int] = {}
        self.size = 0

    def phase(self, name: str) -> int:
        if name not in self.phases:
            self.phases.append(name)
        return self.phases.index(name)

    def add(self, src: int, dst: int, size: int, delay: int, phase: int, deps: list[int]) -> int:
        self.lines.append(" ".join(map(str, (src, dst, size, min(delay, 2**31 - 1), phase, *deps))))
        return len(self.lines) - 1

    def text(self, calls: int) -> str:
        head = [
            "# topolab message file from a Chakra execution trace",
            f"# {calls} collectives replayed; not replayed (per rank): "
            + (", ".join(f"{k} x{v}" for k, v in sorted(self.unsupported.items())) or "none"),
            f"# ranks {self.ranks}",
            f"# phases {','.join(self.phases)}",
            f"# bytes {self.size}",
        ]
        return "\n".join(head + self.lines) + "\n"


def _topological(nodes: list[ChakraNode]) -> list[ChakraNode]:
    """The nodes in an order where each follows its dependencies (ids as tie-break)."""
    by_id = {n.id: n for n in nodes}
    indegree = {n.id: 0 for n in nodes}
    children: dict[int, list[int]] = {n.id: [] for n in nodes}
    for n in nodes:
        for d in n.deps:
            if d in by_id:
                indegree[n.id] += 1
                children[d].append(n.id)
    import heapq

    ready = [i for i, d in indegree.items() if d == 0]
    heapq.heapify(ready)
    out = []
    while ready:
        i = heapq.heappop(ready)
        out.append(by_id[i])
        for c in children[i]:
            indegree[c] -= 1
            if indegree[c] == 0:
                heapq.heappush(ready, c)
    if len(out) != len(nodes):
        raise _core.FormatError("chakra input: the dependencies have a cycle")
    return out
