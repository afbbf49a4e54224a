"""Besta & Hoefler, SC14, Table IV: cost and power per node of a Slim Fly (N = 10,830) and the networks it is
compared with, under the FDR10 cost model (§VI-B) and the SerDes power model (§VI-C).

Every column topolab can build is built, placed on the ``slimfly`` floor (1 m racks, 1 m
intra-rack cables, Manhattan distance + 2 m between racks, electric inside a rack, optical
between racks) and priced with the ``fdr10`` catalog, endpoint cables included. The notes say
where the paper's numbers disagree with its own formulas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import topolab
from topolab.reproduce import Comparison, Reproduction, Setup, SetupRow

ID = "table4"
TITLE = (
    "Besta & Hoefler, SC14, Table IV: cost and power per node (FDR10 cables and routers, 4 x 0.7 W per port)"
)
SOURCE = "Besta & Hoefler, SC14, §VI-B, §VI-C, Table IV"

# Not declared as cases: seven networks costed at the paper's sizes in about a second, the same at
# every scale, so there is nothing to scale, distribute or resume (``reproduce.run`` says so).
NO_CASES = "it costs Besta & Hoefler's (SC14) seven networks at the paper's sizes in about a second"

QUANTITIES = (
    "endpoints",
    "routers",
    "radix",
    "electric_cables",
    "fiber_cables",
    "cost_per_node",
    "power_per_node",
)


@dataclass(frozen=True)
class Column:
    name: str
    spec: Optional[str]
    # endpoints, routers, radix, electric, fiber, cost per node, power per node as printed
    paper: tuple[int, int, int, int, int, int, float]
    per_cabinet: Optional[int] = None
    max_electric_m: Optional[float] = None
    cables_with_endpoints: bool = False
    notes: tuple[str, ...] = ()


FT3_NOTES = (
    "Besta & Hoefler's (SC14) FT-3 cost cannot be recomputed from §VI-B3c: radix-43 routers ($1,648 per "
    "node) plus "
    "two 1 m optical and one electric cable per node ($266) come to about $1,910, not $2,346",
    "Besta & Hoefler (SC14) counts FT-3's endpoint cables into its cables (electric + fiber = 3N, §VI-B3c) "
    "but not "
    "the other columns'; topolab's FT-3 counts include them here too",
    "Besta & Hoefler (SC14) makes every FT-3 router-router cable optical and 1 m long (§VI-B3c); topolab "
    "places a pod "
    "per rack with the core in the central row and splits cables by the floor rule",
)
TORUS_COST_NOTE = (
    "Besta & Hoefler's (SC14) torus costs leave $121.5 (T3D) and $213.9 (T5D) per node beyond the routers: 3 "
    "and 5 "
    "electric cables of about 1.07 m and 1.21 m and no endpoint cable, i.e. every link priced as "
    "a short folded-torus cable; topolab prices the placed lengths (wrap-around and inter-rack "
    "links are longer) and one endpoint cable per node"
)
DLN_NOTE = (
    "Besta & Hoefler (SC14) places DLN routers in racks of the same-radix DF's group size a with random "
    "cables; "
    "its electric/fiber split (about half electric) cannot come from such racks: a random "
    "shortcut lands in its own rack with probability about a/N_r"
)

COLUMNS = (
    Column(
        "T3D",
        "torus:dims=22x22x22",
        (10648, 10648, 7, 31900, 0, 1682, 19.6),
        per_cabinet=22,
        max_electric_m=math.inf,
        notes=(
            "a 22x22x22 torus has 3 x 10,648 = 31,944 cables; the paper prints 31,900",
            "Besta & Hoefler (SC14) assumes folded tori without optical cables (§VI-B3a) but gives no rack "
            "size or "
            "cable lengths; topolab puts one 22-router ring per rack and prices every cable as "
            "electric at its placed length",
            TORUS_COST_NOTE,
        ),
    ),
    Column(
        "T5D",
        "torus:dims=6x6x6x6x8",
        (10368, 10368, 11, 50688, 0, 3176, 30.8),
        max_electric_m=math.inf,
        notes=(
            "five rings of >= 3 routers give 5 x 10,368 = 51,840 cables; the paper prints 50,688",
            "one 6-router ring per rack gives 1,728 racks; their 4-D torus does not fold onto the "
            "2-D floor, so inter-rack cables are long",
            TORUS_COST_NOTE,
        ),
    ),
    Column(
        "HC",
        "hypercube:n=13",
        (8192, 8192, 14, 32768, 12288, 4631, 39.2),
        per_cabinet=256,
        notes=(
            "n = 13 (k = 14) has 13 x 8,192 / 2 = 53,248 cables, which the paper prints as LH-HC's "
            "electric count; HC's 32,768 + 12,288 = 45,056 = 11 x 8,192 / 2 is an 11-dimensional count",
            "256 routers per rack (8 dimensions inside a rack) reproduce the paper's 32,768 "
            "electric cables; Besta & Hoefler (SC14) gives no rack size",
        ),
    ),
    Column(
        "LH-HC",
        "longhop:n=13,hops=5",
        (8192, 8192, 19, 53248, 12288, 6481, 53.2),
        per_cabinet=256,
        notes=(
            "radix 19 = 13 hypercube ports + L = 5 long hops + 1 endpoint (Tomic, arXiv 2013, "
            "§E-S-3: the long hops are the parity columns of an [18, 13, 3] code, bisection 3N/2)",
            "13 + 5 = 18 links per router make 18 x 8,192 / 2 = 73,728 cables; the paper's "
            "53,248 + 12,288 = 65,536 = 16 x 8,192 / 2 counts 16 links per router (L = 3), which "
            "its radix 19 contradicts",
            "256 routers per rack, as for HC: the 8 low dimensions inside a rack (32,768 electric "
            "cables, HC's count), the other 5 and every long hop between racks (each long hop flips "
            "bits above b7); the paper's split (53,248 electric = all 13 dimensions) implies other racks",
        ),
    ),
    Column(
        "FT-3 (k=43)",
        "fattree:k=42",
        (19876, 2311, 43, 19414, 40215, 2346, 14.0),
        cables_with_endpoints=True,
        notes=(
            "N = 19,876 = floor(43^3/4) and N_r = 2,311 = floor(5 x 43^2/4) exist for no k-ary fat "
            "tree (k odd); topolab builds k = 42, the largest tree of radix-43 routers",
            *FT3_NOTES,
        ),
    ),
    Column(
        "DLN (k=43)",
        "dln:routers=4020,shortcuts=31,p=10",
        (40200, 4020, 43, 32488, 33842, 1743, 12.04),
        per_cabinet=22,
        notes=(DLN_NOTE,),
    ),
    Column(
        "FBF-3 (k=43)",
        "hyperx:dims=12x12x12,p=12",
        (20736, 1728, 43, 9504, 20736, 1570, 10.8),
        notes=(
            "12^3 routers with p = 12 need radix p + 3(p - 1) = 45; the paper prints 43",
            "p fiber cables between every two racks of a row or column (§VI-B3d) are "
            "p^3(p - 1) = 19,008; the paper prints p^4 = 20,736",
        ),
    ),
    Column(
        "DF (k=43)",
        "dragonfly:h=11",
        (58806, 5346, 43, 56133, 29524, 1438, 10.9),
        notes=(
            "g = 243 groups form a clique of g(g - 1)/2 = 29,403 fiber cables (§VI-B3e); "
            "the paper prints g^2/2",
        ),
    ),
    Column(
        "FT-3 (N~10K)",
        "fattree:k=34",
        (10718, 1531, 35, 7350, 24806, 2315, 14.0),
        cables_with_endpoints=True,
        notes=(
            "N = 10,718 = floor(35^3/4), N_r = 1,531 = floor(5 x 35^2/4) need odd k = 35; topolab "
            "builds k = 34 (N = 9,826)",
            *FT3_NOTES,
        ),
    ),
    Column(
        "DLN (N~10K)",
        "dln:routers=1386,shortcuts=19,p=7",
        (9702, 1386, 28, 6837, 7716, 1566, 11.2),
        per_cabinet=14,
        notes=(DLN_NOTE,),
    ),
    Column(
        "FBF-3 (N~10K)",
        "hyperx:dims=10x10x10,p=10",
        (10000, 1000, 33, 4500, 10000, 1535, 10.8),
        notes=(
            "10^3 routers with p = 10 need radix p + 3(p - 1) = 37; the paper prints 33",
            "fiber: p^3(p - 1) = 9,000 by §VI-B3d; the paper prints p^4 = 10,000",
        ),
    ),
    Column(
        "DF (N~10K)",
        "dragonfly:a=14,h=7,p=7",
        (9702, 1386, 27, 9009, 4900, 1342, 10.8),
        notes=("g = 99: g(g - 1)/2 = 4,851 fiber cables; the paper prints g^2/2 = 4,900",),
    ),
    Column(
        "DF (k=43, N~10K)",
        "dragonfly:a=22,h=11,p=11,g=45",
        (10890, 990, 43, 6885, 1012, 1365, 10.9),
        notes=(
            "45 groups of a = 22 have 45 x 231 = 10,395 electric cables; the paper prints "
            "6,885 = 45 x C(18, 2)",
            "fiber: g(g - 1)/2 = 990 for one cable per pair of groups; the paper prints g^2/2 = 1,012",
            "topolab's dragonfly with g < a*h + 1 joins every pair of groups floor(a*h/(g - 1)) = 5 "
            "times so that all 11 global ports of a router are used (docs/families/dragonfly.md); "
            "Besta & Hoefler (SC14) prices one cable per pair",
        ),
    ),
    Column(
        "SF",
        "slimfly:q=19",
        (10830, 722, 43, 6669, 6869, 1033, 8.02),
        notes=(
            "the paper prints k = 43, but N = 10,830 on 722 routers means p = 15 and "
            "k = k' + p = 29 + 15 = 44 (§VI-A says so); its power 8.02 W is 722 x 43 x 2.8 / 10,830",
            "q = 19 has 722 x 29 / 2 = 10,469 cables: 19 racks hold 19 x (38 x 10/2 + 19) = 3,971 "
            "and 2q = 38 join each of the 171 rack pairs (6,498, §VI-A); the paper prints "
            "6,669 + 6,869 = 13,538",
        ),
    ),
)

GENERAL_NOTES = (
    "cost per node includes one 1 m electric endpoint cable per node (fdr10: $39.40); Besta & Hoefler (SC14) "
    "does "
    "not say whether its costs do",
    "power per node = routers x radix x 4 lanes x 0.7 W / endpoints over all router ports (§VI-C); "
    "it does not depend on the layout",
    "Besta & Hoefler (SC14) gives no rack size for tori, hypercubes and DLN; the setups say what topolab "
    "assumes",
)


CATALOG = "fdr10"
FLOOR = "slimfly"
# The cost and power models of §VI beside topolab's (the settings of every ``topolab.cost`` call).
SETUP_TABLE: tuple[SetupRow, ...] = (
    SetupRow(
        "prices",
        "Mellanox IB FDR10 routers (linear in the radix) and cables (linear in the length) (§VI-B)",
        CATALOG,
        "",
    ),
    SetupRow(
        "layout",
        "racks of 1 x 1 x 2 m on a near-square grid; intra-rack links electric, 1 m on average, "
        "inter-rack links optical (§VI-A, §VI-B)",
        FLOOR,
        "inter-rack cables: Manhattan distance + 2 m (docs/physical.md); rack sizes the paper does "
        "not give are topolab's (each column's setup)",
    ),
    SetupRow(
        "endpoint cables",
        "counted into FT-3's cables only (§VI-B3c); priced: not stated",
        "one 1 m electric cable per node, priced for every column",
        "counted into the cable counts for FT-3 only, as the paper",
    ),
    SetupRow("power", "4 SerDes lanes x 0.7 W per router port (§VI-C)", "4 x 0.7 W per router port", ""),
)


def _setup_text(col: Column, rep: topolab.CostReport) -> str:
    parts = [f"{rep.cabinets:,} racks ({rep.grid_rows}x{rep.grid_cols}): {rep.placement}"]
    if col.max_electric_m is not None:
        parts.append(
            "all cables electric"
            if math.isinf(col.max_electric_m)
            else f"electric up to {col.max_electric_m} m"
        )
    return "; ".join(parts)


def run(quick: bool = False) -> Reproduction:
    """Every column; ``quick`` changes nothing (the whole table takes about a second)."""
    rows: list[Comparison] = []
    setups: list[Setup] = []
    for col in COLUMNS:
        paper = dict(zip(QUANTITIES, col.paper))
        if col.spec is None:
            setups.append(Setup(col.name, None, "not built", col.notes))
            rows.extend(Comparison(col.name, q, float(v), None) for q, v in paper.items())
            continue
        net = topolab.build(col.spec)
        rep = topolab.cost(
            net,
            CATALOG,
            FLOOR,
            per_cabinet=col.per_cabinet,
            max_electric_m=col.max_electric_m,
        )
        electric, fiber = rep.electric_cables, rep.optical_cables
        if col.cables_with_endpoints:
            ep = rep.cables_of("endpoint")
            electric, fiber = electric + ep.electric, fiber + ep.optical
        ours = {
            "endpoints": rep.endpoints,
            "routers": rep.routers,
            "radix": rep.router_radix,
            "electric_cables": electric,
            "fiber_cables": fiber,
            "cost_per_node": rep.cost_per_endpoint,
            "power_per_node": rep.power_per_endpoint_w,
        }
        for q in QUANTITIES:
            value = ours[q]  # None: per endpoint of a network without endpoints
            rows.append(Comparison(col.name, q, float(paper[q]), None if value is None else float(value)))
        setups.append(Setup(col.name, col.spec, _setup_text(col, rep), col.notes))
    return Reproduction(ID, TITLE, SOURCE, tuple(rows), tuple(setups), GENERAL_NOTES, setup_table=SETUP_TABLE)
