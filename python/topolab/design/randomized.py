"""Enumeration rules of the randomized and directed families: Jellyfish, DLN, Skywalk, Kautz,
de Bruijn, Imase-Itoh, random digraphs and MDDP, at the full radix (degree K - p) and, for the
undirected random graphs, as twins of the structured designs. docs/compare.md states each rule.
Which parameters a family builds, its sizes and its balance (the Moore-bound estimate of 000
§II-B2) are the family's own (``rules.sizes``).
"""

from __future__ import annotations

import math
from typing import Iterator

from topolab.design.rules import SKYWALK_Z, Candidate, Window, candidate, sizes, spec_of

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


def _builds(family: str, params: dict) -> bool:
    return sizes(spec_of(family, params)) is not None


def _full_radix(w: Window, family: str, make) -> Iterator[Candidate]:
    """For every p, degree K - p and the router count nearest N/p: the random family at the
    radix the structured designs get ("full radix"). ``make(p, degree)`` returns the params
    and the paper section, or None."""
    for p in range(1, w.radix - 1):
        built = make(p, w.radix - p)
        if built is None:
            continue
        params, source = built
        c = candidate(family, params, source, ["full radix"])
        if c is not None:
            yield c


def jellyfish(w: Window, twins: list) -> Iterator[Candidate]:
    """Random regular graphs (000 §III; 004 §III-A Random(N, d)): degree K - p at router count
    ~N/p ("full radix"), and a twin with the routers, degree and p of each balanced Slim Fly and
    a = 2h = 2p Dragonfly (equal equipment, as 000 Table IV's DLN beside its DF)."""

    def params(r, degree, p):
        return {"routers": r, "degree": degree, "p": p}

    def make(p, degree):
        r = _routers_for(w, p, lambda r: _builds("jellyfish", params(r, degree, p)))
        if r is None:
            return None
        return params(r, degree, p), "Besta & Hoefler, SC14, §III; Fujiwara et al., IPDPS 2014, §III-A"

    yield from _full_radix(w, "jellyfish", make)
    for routers, degree, p, origin in twins:
        c = _twin("jellyfish", params(routers, degree, p), origin)
        if c is not None:
            yield c


def dln(w: Window, twins: list) -> Iterator[Candidate]:
    """DLN-2-gamma (000 §III, Table IV): ring plus gamma = d - 2 shortcuts, same choices as
    jellyfish (full radix and twins; 000 Table IV's DLN has its DF's 1,386 routers and p = 7)."""

    def params(r, degree, p):
        return {"routers": r, "shortcuts": degree - 2, "p": p}

    def make(p, degree):
        r = _routers_for(w, p, lambda r: _builds("dln", params(r, degree, p)))
        if r is None:
            return None
        return params(r, degree, p), "Besta & Hoefler, SC14, §III, Table IV"

    yield from _full_radix(w, "dln", make)
    for routers, degree, p, origin in twins:
        c = _twin("dln", params(routers, degree, p), origin)
        if c is not None:
            yield c


def _twin(family: str, params: dict, origin: str) -> Candidate | None:
    return candidate(family, params, "Besta & Hoefler, SC14, §III, Table IV", [f"twin of {origin}"])


def skywalk(w: Window) -> Iterator[Candidate]:
    """Skywalk (004 §II-B, §III-A): z switches per cabinet (z in SKYWALK_Z; 004 uses 8) with a
    full intra-cabinet mesh di = z - 1 and do = K - p - di inter-cabinet links (full radix; 004
    §III compares Skywalk at the degree of the other networks), c ~ N / (z p) cabinets, and
    do <= ds_max + dd_max (004 §II-B, checked by the family). The greedy construction can leave
    a switch below di + do, so the radix is an upper bound."""
    for z in SKYWALK_Z:
        di = z - 1
        for p in range(1, w.radix - di):
            do = w.radix - p - di

            def params(c, z=z, di=di, do=do, p=p):
                return {"z": z, "c": c, "di": di, "do": do, "p": p}

            c = _routers_for(w, p * z, lambda c, params=params: c >= 2 and _builds("skywalk", params(c)))
            if c is None:
                continue
            sky = candidate(
                "skywalk", params(c), "Fujiwara et al., IPDPS 2014, §II-B, §III-A", ["full radix"]
            )
            if sky is not None:
                yield sky


def kautz(w: Window) -> Iterator[Candidate]:
    """Kautz digraphs K(d, k) (002 §IV-A): (d+1) d^(k-1) routers, in/out-degree d, radix d + p;
    every d, k, p that fits. Balance from the directed Moore bound (002 §I)."""
    yield from _string_digraph(w, "kautz")


def debruijn(w: Window) -> Iterator[Candidate]:
    """de Bruijn digraphs B(d, k) (002 §IV-A): d^k routers, out-degree d (d - 1 on the d constant
    strings), radix d + p."""
    yield from _string_digraph(w, "debruijn")


def _string_digraph(w: Window, family: str) -> Iterator[Candidate]:
    for d in range(2, w.radix):
        k = 1
        while True:
            base = sizes(f"{family}:d={d},k={k},p=1")
            if base is None or base["routers"] > w.hi:
                break
            for p in w.concentrations(base["routers"], w.radix - d):
                c = candidate(family, {"d": d, "k": k, "p": p}, "Koibuchi et al., 2018, §IV-A")
                if c is not None:
                    yield c
            k += 1


def _free_digraph(w: Window, family: str, source: str) -> Iterator[Candidate]:
    def make(p, degree):
        r = _routers_for(w, p, lambda r: _builds(family, {"n": r, "d": degree, "p": p}))
        if r is None:
            return None
        return {"n": r, "d": degree, "p": p}, source

    yield from _full_radix(w, family, make)


def imase(w: Window) -> Iterator[Candidate]:
    """Imase-Itoh digraphs (002 §III-A, a = b = 1) at full radix: d = K - p, n ~ N/p."""
    return _free_digraph(w, "imase", "Koibuchi et al., 2018, §III-A")


def random_directed(w: Window) -> Iterator[Candidate]:
    """Random regular digraphs (002 §III-A) at full radix: d = K - p, n ~ N/p."""
    return _free_digraph(w, "random_directed", "Koibuchi et al., 2018, §III-A")


def mddp(w: Window) -> Iterator[Candidate]:
    """MDDP digraphs (002 §III-A, §IV-A) at full radix: d = K - p, n ~ N/p."""
    return _free_digraph(w, "mddp", "Koibuchi et al., 2018, §III-A, §IV-A")


def xpander(w: Window) -> Iterator[Candidate]:
    """Xpander (Valadarsky et al., CoNEXT 2016): random l-lifts of K_{d+1} at full radix, as the
    other random families: for every p, degree d = K - p and the lift size l whose (d + 1) l
    routers are nearest N/p."""

    def make(p, degree):
        def builds(lifts):
            return _builds("xpander", {"d": degree, "l": lifts, "p": p})

        lifts = _routers_for(w, p * (degree + 1), builds)
        if lifts is None:
            return None
        return {"d": degree, "l": lifts, "p": p}, "Valadarsky et al., CoNEXT 2016"

    yield from _full_radix(w, "xpander", make)
