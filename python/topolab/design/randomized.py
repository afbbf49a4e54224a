"""Enumeration rules of the randomized and directed families: Jellyfish, DLN, Skywalk, Kautz,
de Bruijn, Imase-Itoh, random digraphs and MDDP, at the full radix (degree K - p) and, for the
undirected random graphs, as twins of the structured designs. docs/compare.md states each rule.
"""

from __future__ import annotations

import math
from typing import Iterator

from topolab.design.rules import SKYWALK_Z, Candidate, Window, channel_balance

# ---------------------------------------------------------------------------------------------
# random and directed families: full radix, plus twins of structured designs
# ---------------------------------------------------------------------------------------------


def _routers_for(w: Window, p: int, ok) -> int | None:
    """The router count nearest target/p (ties: fewer) that satisfies ok(R) and keeps p R in
    the window."""
    base = w.target / p
    candidates = sorted({math.floor(base) + d for d in range(-2, 3)}, key=lambda r: (abs(r - base), r))
    for r in candidates:
        if r >= 2 and w.lo <= p * r <= w.hi and ok(r):
            return r
    return None


def _full_radix(w: Window, family: str, directed: bool, make) -> Iterator[Candidate]:
    """For every p, degree K - p and the router count nearest N/p: the random family at the
    radix the structured designs get ("full radix"). ``make(p, degree, routers)`` returns the
    params and the router count check; load from ``channel_balance``."""
    for p in range(1, w.radix - 1):
        degree = w.radix - p
        built = make(p, degree)
        if built is None:
            continue
        params, routers, source = built
        balance = channel_balance(degree, routers, directed)
        yield Candidate(
            family,
            params,
            routers,
            p * routers,
            degree + p,
            degree,
            p,
            balance,
            p / balance,
            source,
            ["full radix"],
        )


def jellyfish(w: Window, twins: list) -> Iterator[Candidate]:
    """Random regular graphs (000 §III; 004 §III-A Random(N, d)): degree K - p at router count
    ~N/p ("full radix"), and a twin with the routers, degree and p of each balanced Slim Fly and
    a = 2h = 2p Dragonfly (equal equipment, as 000 Table IV's DLN beside its DF)."""

    def make(p, degree):
        r = _routers_for(w, p, lambda r: r > degree and (r * degree) % 2 == 0)
        if r is None:
            return None
        return (
            {"routers": r, "degree": degree, "p": p},
            r,
            "Besta & Hoefler, SC14, §III; Fujiwara et al., IPDPS 2014, §III-A",
        )

    yield from _full_radix(w, "jellyfish", False, make)
    for routers, degree, p, origin in twins:
        if routers > degree and (routers * degree) % 2 == 0:
            yield _twin(
                "jellyfish", {"routers": routers, "degree": degree, "p": p}, routers, degree, p, origin
            )


def dln(w: Window, twins: list) -> Iterator[Candidate]:
    """DLN-2-gamma (000 §III, Table IV): ring plus gamma = d - 2 shortcuts, same choices as
    jellyfish (full radix and twins; 000 Table IV's DLN has its DF's 1,386 routers and p = 7)."""

    def ok(r, gamma):
        return 0 <= gamma <= r - 3 and (r * gamma) % 2 == 0

    def make(p, degree):
        gamma = degree - 2
        r = _routers_for(w, p, lambda r: ok(r, gamma))
        if r is None or gamma < 0:
            return None
        return {"routers": r, "shortcuts": gamma, "p": p}, r, "Besta & Hoefler, SC14, §III, Table IV"

    yield from _full_radix(w, "dln", False, make)
    for routers, degree, p, origin in twins:
        if ok(routers, degree - 2):
            params = {"routers": routers, "shortcuts": degree - 2, "p": p}
            yield _twin("dln", params, routers, degree, p, origin)


def _twin(family: str, params: dict, routers: int, degree: int, p: int, origin: str) -> Candidate:
    balance = channel_balance(degree, routers)
    return Candidate(
        family,
        params,
        routers,
        p * routers,
        degree + p,
        degree,
        p,
        balance,
        p / balance,
        "Besta & Hoefler, SC14, §III, Table IV",
        [f"twin of {origin}"],
    )


def skywalk(w: Window) -> Iterator[Candidate]:
    """Skywalk (004 §II-B, §III-A): z switches per cabinet (z in SKYWALK_Z; 004 uses 8) with a
    full intra-cabinet mesh di = z - 1 and do = K - p - di inter-cabinet links (full radix; 004
    §III compares Skywalk at the degree of the other networks), c ~ N / (z p) cabinets, and
    do <= ds_max + dd_max (004 §II-B). The greedy construction can leave a switch below
    di + do, so the radix is an upper bound."""

    def do_max(c, z):
        x = math.isqrt(c - 1) + 1 if c > 1 else 1
        y = -(-c // x)
        return -(-(x + y - 2) // z) + -(-((x - 1) * (y - 1)) // z)

    for z in SKYWALK_Z:
        di = z - 1
        for p in range(1, w.radix - di):
            do = w.radix - p - di
            c = _routers_for(w, p * z, lambda c, do=do, z=z: c >= 2 and do <= do_max(c, z))
            if c is None:
                continue
            routers = z * c
            balance = channel_balance(di + do, routers)
            yield Candidate(
                "skywalk",
                {"z": z, "c": c, "di": di, "do": do, "p": p},
                routers,
                p * routers,
                di + do + p,
                di + do,
                p,
                balance,
                p / balance,
                "Fujiwara et al., IPDPS 2014, §II-B, §III-A",
                ["full radix"],
            )


def kautz(w: Window) -> Iterator[Candidate]:
    """Kautz digraphs K(d, k) (002 §IV-A): (d+1) d^(k-1) routers, in/out-degree d, radix d + p;
    every d, k, p that fits. Balance from the directed Moore bound (002 §I)."""
    yield from _string_digraph(w, "kautz", lambda d, k: (d + 1) * d ** (k - 1))


def debruijn(w: Window) -> Iterator[Candidate]:
    """de Bruijn digraphs B(d, k) (002 §IV-A): d^k routers, out-degree d (d - 1 on the d constant
    strings), radix d + p."""
    yield from _string_digraph(w, "debruijn", lambda d, k: d**k)


def _string_digraph(w: Window, family: str, size) -> Iterator[Candidate]:
    for d in range(2, w.radix):
        k = 1
        while size(d, k) <= w.hi:
            routers = size(d, k)
            for p in w.concentrations(routers, w.radix - d):
                balance = channel_balance(d, routers, directed=True)
                yield Candidate(
                    family,
                    {"d": d, "k": k, "p": p},
                    routers,
                    p * routers,
                    d + p,
                    d,
                    p,
                    balance,
                    p / balance,
                    "Koibuchi et al., 2018, §IV-A",
                    [],
                )
            k += 1


def _free_digraph(w: Window, family: str, source: str) -> Iterator[Candidate]:
    def make(p, degree):
        r = _routers_for(w, p, lambda r: r > degree and r >= 3)
        if r is None or degree < 2:
            return None
        return {"n": r, "d": degree, "p": p}, r, source

    yield from _full_radix(w, family, True, make)


def imase(w: Window) -> Iterator[Candidate]:
    """Imase-Itoh digraphs (002 §III-A, a = b = 1) at full radix: d = K - p, n ~ N/p."""
    return _free_digraph(w, "imase", "Koibuchi et al., 2018, §III-A")


def random_directed(w: Window) -> Iterator[Candidate]:
    """Random regular digraphs (002 §III-A) at full radix: d = K - p, n ~ N/p."""
    return _free_digraph(w, "random_directed", "Koibuchi et al., 2018, §III-A")


def mddp(w: Window) -> Iterator[Candidate]:
    """MDDP digraphs (002 §III-A, §IV-A) at full radix: d = K - p, n ~ N/p."""
    return _free_digraph(w, "mddp", "Koibuchi et al., 2018, §III-A, §IV-A")
