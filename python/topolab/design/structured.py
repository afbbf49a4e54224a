"""Enumeration rules of the structured families: Slim Fly, Dragonfly, Dragonfly+, fat trees,
HammingMesh, HyperX, tori, meshes, hypercubes, MLFM, OFT, SSPT and Slim Fly x HyperX.
docs/compare.md states each rule. The rules choose parameters; their sizes and balance are the
families' own (``rules.sizes``).
"""

from __future__ import annotations

import math
from typing import Any, Iterator

from topolab.design import rules
from topolab.design.rules import (
    HYPERX_MAX_ASPECT,
    HYPERX_MAX_DIMS,
    TORUS_DIMS,
    TORUS_MAX_SPREAD,
    Candidate,
    Window,
    candidate,
    max_min_widths,
    nearest_count,
    shapes,
    sizes,
)

# ---------------------------------------------------------------------------------------------
# direct, structured families
# ---------------------------------------------------------------------------------------------


def slimfly(w: Window) -> Iterator[Candidate]:
    """Every prime power q >= 3 (q = 4w + delta, delta in {-1, 0, 1}; 000 §II-B1) whose network
    radix k' = (3q - delta)/2 leaves a port for endpoints; every p putting N in the window.
    Balanced p = ceil(k'/2) (000 §II-B2), floor(k'/2) also full bandwidth (001 §2.1.2); larger p
    is oversubscribed (000 §V-E: p = 16..21 on q = 19)."""
    q = 3
    while q < w.radix:  # k' >= q, so no larger q leaves a port
        base = sizes(f"slimfly:q={q},p=1")
        q += 1
        if base is None:
            continue
        k_net = base["network_radix"]
        if k_net + 1 > w.radix:
            return
        p_ceil = base["balanced_concentration"]
        for p in w.concentrations(base["routers"], w.radix - k_net):
            tags = []
            if p == p_ceil:
                tags.append("ceil p (Besta & Hoefler, SC14, §II-B2)")
            if p == k_net // 2:
                tags.append("floor p (Kathareios et al., SC15, §2.1.2)")
            c = candidate(
                "slimfly",
                {"q": q - 1, "p": p},
                "Besta & Hoefler, SC14, §II-B, §V-E; Kathareios et al., SC15, §2.1.2",
                tags,
            )
            if c is not None:
                yield c


def dragonfly(w: Window) -> Iterator[Candidate]:
    """000 §VI-B4's exhaustive search: every (a, h, p) with a >= 2h and p >= h (full use of the
    global channels, Kim et al. §3.1), and every group count g from 2 to a*h + 1 putting N in the
    window (000's k = 43 DF uses g = 45 < a*h + 1). Radix p + h + a - 1 (003 §1.4).

    Balance (003 §1.4: beta = min(K/4C, G/2C) >= 1/2 with K = a, C = p): p <= min(a/2, G), G the
    global links a router really uses. With g < a*h + 1 groups each pair of groups gets
    q = floor(a*h/(g-1)) links and a*h - q(g-1) ports per group stay empty (docs/families/
    dragonfly.md), so G = q(g-1)/a <= h: 000's g = 45 DF uses 220 of its 242 global ports per
    group and p = 11 is 10% above G = 10."""
    for h in range(1, w.radix):
        if 4 * h - 1 > w.radix:  # smallest radix with this h: a = 2h, p = h
            return
        for a in range(2 * h, w.radix - 2 * h + 2):
            for p in range(h, w.radix - (a - 1 + h) + 1):
                g_lo = max(2, -(-w.lo // (p * a)))
                g_hi = min(a * h + 1, w.hi // (p * a))
                for g, tags in _group_counts(a, h, p, g_lo, g_hi, w):
                    if a == 2 * h and p == h:
                        tags.insert(0, "a=2h=2p (Besta & Hoefler, SC14, §VI-B3e)")
                    c = candidate(
                        "dragonfly",
                        {"a": a, "h": h, "p": p, "g": g},
                        "Besta & Hoefler, SC14, §VI-B4; Daryin & Korzh, JSFI 2014, §1.4",
                        tags,
                    )
                    if c is not None:
                        yield c


def _group_counts(a, h, p, g_lo, g_hi, w: Window) -> list[tuple[int, list[str]]]:
    """The group counts kept for one (a, h, p), among those within the subscription limits:
    the g whose N is nearest the target (how 000 §VI-B4 picked its k = 43 DF), g = a*h + 1
    (one global link per pair of groups, 000 §VI-B3e), and the g nearest the target among those
    whose pairs use every global port ((g - 1) divides a*h). Other g only shift N by a group.
    Searched outward from the target, so the cost does not grow with the window."""
    # The balanced p is at most h (the global links a router has), so the load is >= p/h.
    if g_lo > g_hi or not w.admits(p / h) and p / h > 1:
        return []

    def allowed(g):
        s = sizes(f"dragonfly:a={a},h={h},p={p},g={g}")
        return s is not None and w.admits(s["load"])

    def distance(g):
        return (abs(g * p * a - w.target), g)

    def nearest(options):
        return next((g for g in sorted(options, key=distance) if allowed(g)), None)

    chosen: dict[int, list[str]] = {}
    first = next((g for g in _outward(w.target / (p * a), g_lo, g_hi) if allowed(g)), None)
    if first is None:
        return []
    chosen.setdefault(first, []).append("g nearest N (Besta & Hoefler, SC14, §VI-B4)")
    if g_hi == a * h + 1 and allowed(g_hi):
        chosen.setdefault(g_hi, []).append("full groups (g = ah+1)")
    divisors = [d + 1 for d in _divisors(a * h) if g_lo <= d + 1 <= g_hi]
    exact = nearest(divisors)
    if exact is not None:
        chosen.setdefault(exact, []).append("all global ports used")
    out = []
    for g in sorted(chosen):
        tags = chosen[g]
        if g < a * h + 1:
            tags.insert(0, "fewer groups")
        out.append((g, tags))
    return out


def _outward(x: float, lo: int, hi: int) -> Iterator[int]:
    """The integers of [lo, hi] by distance from x (ties: the smaller first), lazily."""
    left = min(max(math.floor(x), lo - 1), hi)
    right = left + 1
    while left >= lo or right <= hi:
        if right > hi or (left >= lo and (x - left, left) <= (right - x, right)):
            yield left
            left -= 1
        else:
            yield right
            right += 1


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def dragonflyplus(w: Window) -> Iterator[Candidate]:
    """Dragonfly+ / Megafly (Shpiner et al., HiPINEB 2017; Flajslik et al., ISC 2018): every
    (s, h) with leaf radix 2s and spine radix 2h within K, l = h leaves (a spine's l down-links
    match its h global links) and p from s (a leaf's endpoints match its up-links, the papers'
    full bisection) up to the leaf's radix; per (s, h, p) the group count nearest N and
    g = s*h + 1 when in the window. Balanced at p = min(s, q(g-1)/l) (docs/families/
    dragonflyplus.md)."""
    for s in range(1, w.radix // 2 + 1):
        for h in range(1, w.radix // 2 + 1):
            leaves = h
            for p in range(s, w.radix - s + 1):
                per_group = leaves * p
                g_lo = max(2, -(-w.lo // per_group))
                g_hi = min(s * h + 1, w.hi // per_group)
                kept: dict[int, list[str]] = {}
                nearest = nearest_count(g_lo, g_hi, per_group, w.target)
                if nearest is not None:
                    kept.setdefault(nearest, []).append("g nearest N")
                if g_lo <= s * h + 1 <= g_hi:
                    kept.setdefault(s * h + 1, []).append("full groups (g = sh+1)")
                for g, tags in sorted(kept.items()):
                    if p == s == h:
                        tags.insert(0, "p=l=s=h (Shpiner et al., HiPINEB 2017)")
                    c = candidate(
                        "dragonflyplus",
                        {"h": h, "s": s, "l": leaves, "g": g, "p": p},
                        "Shpiner et al., HiPINEB 2017; Flajslik, Borch & Parker, ISC 2018",
                        tags,
                    )
                    if c is not None and w.admits(c.load):
                        yield c


def hammingmesh(w: Window) -> Iterator[Candidate]:
    """HammingMesh (Hoefler et al., SC 2022): the paper's square boards, 2 x 2 (Hx2Mesh)
    and 4 x 4 (Hx4Mesh), with the question's radix for the row and column fat trees
    (nonblocking; one switch up to K ports, two levels above). Per board size and p (an
    accelerator has 4 + p ports) the square board grid x = y whose N is nearest the target, and
    x by x + 1 beside it. Balanced at p = 2/b (docs/families/hammingmesh.md): Hx2Mesh at one
    endpoint per accelerator, Hx4Mesh oversubscribed 2:1 there."""
    for side in (2, 4):
        for p in range(1, w.radix - 4 + 1):
            per_board = side * side * p
            x = max(1, round(math.sqrt(w.target / per_board)))
            for gx, gy in ((x, x), (x, x + 1), (x - 1, x), (x + 1, x + 1)):
                if gx < 1 or not w.lo <= gx * gy * per_board <= w.hi:
                    continue
                params = {"a": side, "b": side, "x": gx, "y": gy, "radix": w.radix, "p": p}
                tags = [f"Hx{side}Mesh"] + (["square grid"] if gx == gy else [])
                c = candidate("hammingmesh", params, "Hoefler et al., SC 2022", tags)
                if c is not None and c.radix <= w.radix and w.admits(c.load):
                    yield c


def fattree(w: Window) -> Iterator[Candidate]:
    """Fat trees of even radix k <= K: two levels (001 §2.2.1, N = k p) and three levels (000
    §VI-B3c, N = pods (k/2) p with 1 <= pods <= k; 000 §V uses k = 44 with 22 pods): per (k, p)
    the pod count nearest N and all k pods when in the window. A leaf keeps
    min(k/2, k - p) up ports; balanced for p <= k/2, oversubscribed p : (k - p) above."""
    for k in range(4, w.radix + 1, 2):
        for p in range(1, k):
            two = candidate("fattree", {"k": k, "levels": 2, "p": p}, "Kathareios et al., SC15, §2.2.1")
            if two is None:
                continue
            tags = ["full bisection"] if p == two.balanced_concentration else []
            if w.lo <= two.endpoints <= w.hi:
                two.tags = ["2 levels", *tags]
                yield two
            one_pod = sizes(f"fattree:k={k},levels=3,p={p},pods=1")
            per_pod = one_pod["endpoints"] if one_pod else w.hi + 1
            pods_lo = max(1, -(-w.lo // per_pod))
            pods_hi = min(k, w.hi // per_pod)
            nearest = nearest_count(pods_lo, pods_hi, per_pod, w.target)
            kept = {nearest} if nearest is not None else set()
            if pods_hi == k:
                kept.add(k)
            for pods in sorted(kept):
                c = candidate(
                    "fattree",
                    {"k": k, "levels": 3, "p": p, "pods": pods},
                    "Besta & Hoefler, SC14, §VI-B3c, §V",
                    ["3 levels", *tags, "all pods" if pods == k else "fewer pods"],
                )
                if c is not None:
                    yield c


def hyperx(w: Window) -> Iterator[Candidate]:
    """HyperX / FlatFly (001 §2.1.1, 003 §1.2): 1 to 4 dimensions, nondecreasing sizes >= 2 with
    largest <= 2 x smallest and at most two distinct sizes (like every shape in the papers:
    003's 4x8x8x8, 004's 8x16x16, 001's square 2D); for each p, unit widths and the widths that
    maximize the bisection min K_n L_n within the K - p ports left (003 §1.2's combinatorial
    search). Radix
    p + sum L_n (K_n - 1); balanced when p <= min K_n L_n (003: beta = min K_n L_n / 2C >= 1/2;
    001's balanced 2D HyperX has p = K - 1)."""
    for n in range(1, HYPERX_MAX_DIMS + 1):

        def fits(shape):
            return (
                sum(s - 1 for s in shape) + 1 <= w.radix
                and shape[-1] <= HYPERX_MAX_ASPECT * shape[0]
                and len(set(shape)) <= 2
            )

        for shape in shapes(n, 2, w.hi, fits):
            if len(shape) < n:
                continue
            routers = math.prod(shape)
            unit = sum(s - 1 for s in shape)
            for p in w.concentrations(routers, w.radix - unit):
                best = max_min_widths(shape, lambda s: s - 1, w.radix - p, lambda s: s)
                options = [((1,) * n, ["unit widths"])]
                if best is not None and best != (1,) * n:
                    options.append((best, ["bisection widths (Daryin & Korzh, JSFI 2014, §1.2)"]))
                for widths, tags in options:
                    params: dict[str, Any] = {"dims": shape}
                    if any(x != 1 for x in widths):
                        params["widths"] = widths
                    params["p"] = p
                    c = candidate(
                        "hyperx",
                        params,
                        "Kathareios et al., SC15, §2.1.1; Daryin & Korzh, JSFI 2014, §1.2",
                        [f"{n}D", *tags],
                    )
                    if c is not None:
                        yield c


def _torus_like(w: Window, family: str) -> Iterator[Candidate]:
    """Tori (003 §1.1; 000 Table IV T3D, T5D) and meshes: 2 to 5 dimensions, near-cubic shapes
    (sizes >= 3 within 2 of each other); per dimension count, p and width rule the shape with
    N nearest the target and the most cubic shape nearest it. p = 1 as 000 §III does for
    low-radix networks (unit widths, and widths that use the rest of the radix), and
    concentrated variants p >= 2 as in
    003 §1.1 with the bisection-maximizing widths. Balanced when p <= 8 min L_n / K_n for a torus
    (003 §1.1: beta = min 4 L_n / (C K_n) >= 1/2), 4 min L_n / K_n for a mesh (half the cut)."""
    for n in TORUS_DIMS:

        def fits(shape):
            return 2 * len(shape) + 1 <= w.radix and shape[-1] - shape[0] <= TORUS_MAX_SPREAD

        groups: dict[tuple, list[Candidate]] = {}
        for shape in shapes(n, 3, w.hi, fits):
            if len(shape) < n:
                continue
            routers = math.prod(shape)
            for p in w.concentrations(routers, w.radix - 2 * n):
                best = max_min_widths(shape, lambda s: 2, w.radix - p, lambda s: 1 / s)
                options = [] if p > 1 else [((1,) * n, ["p=1 (Besta & Hoefler, SC14, §III)", "unit widths"])]
                if best is not None and (p > 1 or best != (1,) * n):
                    tag = (
                        "p=1 (Besta & Hoefler, SC14, §III)"
                        if p == 1
                        else "concentrated (Daryin & Korzh, JSFI 2014, §1.1)"
                    )
                    options.append((best, [tag, "bisection widths (Daryin & Korzh, JSFI 2014, §1.1)"]))
                for widths, tags in options:
                    params: dict[str, Any] = {"dims": shape}
                    if any(x != 1 for x in widths):
                        params["widths"] = widths
                    params["p"] = p
                    c = candidate(
                        family,
                        params,
                        "Daryin & Korzh, JSFI 2014, §1.1; Besta & Hoefler, SC14, §III, Table IV",
                        [f"{n}D", *tags],
                        exempt=p == 1,
                    )
                    if c is None or p > 1 and not w.admits(c.load):
                        continue
                    groups.setdefault((p, tags[-1]), []).append(c)
        for key in sorted(groups):
            yield from _nearest_and_cubes(groups[key], w.target)


def _nearest_and_cubes(cands: list[Candidate], target: int) -> list[Candidate]:
    """Of candidates differing only in shape: the one with N nearest the target, and the one
    nearest the target among the most cubic shapes (smallest spread of sizes); ties: fewer
    endpoints. The others only shift N by a slice (docs/compare.md)."""

    def distance(c):
        return (abs(c.endpoints - target), c.endpoints)

    def spread(c):
        return max(c.params["dims"]) - min(c.params["dims"])

    nearest = min(cands, key=distance)
    least = min(spread(c) for c in cands)
    cubic = min((c for c in cands if spread(c) == least), key=distance)
    if cubic is not nearest:
        cubic.tags.append("most cubic")
        return sorted([nearest, cubic], key=lambda c: cands.index(c))
    return [nearest]


def torus(w: Window) -> Iterator[Candidate]:
    return _torus_like(w, "torus")


def mesh(w: Window) -> Iterator[Candidate]:
    return _torus_like(w, "mesh")


def hypercube(w: Window) -> Iterator[Candidate]:
    """Hypercubes (003 §1.3; 000 Table IV HC): 2^n routers, width 1 to (K - p)/n in every
    dimension (003 uses 2); p = 1 as in 000 §III, larger p subject to the limits. Balanced when
    p <= 2 L (003 §1.3: beta = L / C, 25% for L = 2, C = 8)."""
    n = 1
    while 2**n <= w.hi and n + 1 <= w.radix:
        routers = 2**n
        for p in w.concentrations(routers, w.radix - n):
            for width in range(1, (w.radix - p) // n + 1):
                params = {"n": n}
                if width > 1:
                    params["width"] = width
                params["p"] = p
                c = candidate(
                    "hypercube",
                    params,
                    "Daryin & Korzh, JSFI 2014, §1.3; Besta & Hoefler, SC14, §III, Table IV",
                    ["p=1 (Besta & Hoefler, SC14, §III)"] if p == 1 else [],
                    exempt=p == 1,
                )
                if c is not None:
                    yield c
        n += 1


def longhop(w: Window) -> Iterator[Candidate]:
    """Long Hop hypercubes (Tomic, arXiv 2013, §E-S-3; Besta & Hoefler, SC14, §III, Table IV):
    2^n routers, every number of long hops L the family builds with n + L + p <= K, every p;
    p = 1 as in 000 §III (exempt like the hypercube's), larger p subject to the limits.
    Balanced p: 000 §II-B2's k' N_r / sum of distances, exact for the Cayley graph."""
    n = 2
    while 2**n <= w.hi and n + 2 <= w.radix:
        for hops in range(1, w.radix - n):
            for p in w.concentrations(2**n, w.radix - n - hops):
                c = candidate(
                    "longhop",
                    {"n": n, "hops": hops, "p": p},
                    "Tomic, arXiv 2013, §E-S-3; Besta & Hoefler, SC14, §III, Table IV",
                    ["p=1 (Besta & Hoefler, SC14, §III)"] if p == 1 else [],
                    exempt=p == 1,
                )
                if c is None:
                    break  # this L is not built for n: no p makes it so
                yield c
        n += 1


def delorme(w: Window) -> Iterator[Candidate]:
    """Delorme graphs (Besta & Hoefler, SC14, §II-C): every prime power v with k' = (v+1)^2
    leaving a port, every p putting N in the window. Balanced p: 000 §II-B2's 2|E| N_r / sum of
    distances, exact (docs/families/delorme.md)."""
    v = 2
    while (v + 1) ** 2 + 1 <= w.radix:
        base = sizes(f"delorme:v={v},p=1")
        if base is not None:
            for p in w.concentrations(base["routers"], w.radix - base["network_radix"]):
                c = candidate("delorme", {"v": v, "p": p}, "Delorme, 1985; Besta & Hoefler, SC14, §II-C")
                if c is not None:
                    yield c
        v += 1


# ---------------------------------------------------------------------------------------------
# indirect families
# ---------------------------------------------------------------------------------------------


def mlfm(w: Window) -> Iterator[Candidate]:
    """(h, l, p)-MLFM (001 §2.2.3): local routers of radix h + p, global routers of radix 2l,
    N = l (h + 1) p; per (h, p) the layer count nearest N and l = h when in the window.
    Balanced for p <= h (001's h-MLFM has h = l = p)."""
    for h in range(1, w.radix):
        for p in range(1, w.radix - h + 1):
            one_layer = sizes(f"mlfm:h={h},l=1,p={p}")
            if one_layer is None:
                continue
            per_layer = one_layer["endpoints"]
            l_lo = max(1, -(-w.lo // per_layer))
            l_hi = min(w.radix // 2, w.hi // per_layer)
            nearest = nearest_count(l_lo, l_hi, per_layer, w.target)
            for layers in sorted({x for x in (nearest, h) if x is not None and l_lo <= x <= l_hi}):
                tags = ["h=l=p (Kathareios et al., SC15, §2.2.3)"] if h == layers == p else []
                c = candidate("mlfm", {"h": h, "l": layers, "p": p}, "Kathareios et al., SC15, §2.2.3", tags)
                if c is not None:
                    yield c


def oft(w: Window) -> Iterator[Candidate]:
    """Two-level OFT (001 §2.2.4): k - 1 a prime power, 2k <= K (L1 routers), L0/L2 radix k + p,
    N = 2 p (1 + k(k-1)). Balanced for p <= k."""
    for k in range(3, w.radix // 2 + 1):
        base = sizes(f"oft:k={k},p=1")
        if base is None:
            continue
        for p in w.concentrations(base["endpoints"], w.radix - k):
            c = candidate(
                "oft",
                {"k": k, "p": p},
                "Kathareios et al., SC15, §2.2.4",
                ["p=k (Kathareios et al., SC15, §2.2.4)"] if p == k else [],
            )
            if c is not None:
                yield c


def sspt(w: Window) -> Iterator[Candidate]:
    """Stacked Single-Path Trees (001 §2.2.2) other than the MLFM (r2 = 2) and the two-stack
    OFT, which their own rules list: the projective plane (r2 = r1, r1 - 1 a prime power) with
    s != 2 stacks and the affine plane (r2 = r1 - 1 a prime power), s from 1 while the upper
    radix s*r2 fits. Lower radix r1 + p; balanced for p <= r1."""
    for r1 in range(3, w.radix):
        for r2 in (r1, r1 - 1):
            for stacks in range(1, w.radix // r2 + 1):
                if r2 == 2 or (r2 == r1 and stacks == 2):
                    continue
                base = sizes(f"sspt:r1={r1},r2={r2},s={stacks},p=1")
                if base is None:
                    break
                for p in w.concentrations(base["endpoints"], w.radix - r1):
                    plane = "projective" if r2 == r1 else "affine"
                    c = candidate(
                        "sspt",
                        {"r1": r1, "r2": r2, "s": stacks, "p": p},
                        "Kathareios et al., SC15, §2.2.2",
                        [f"{plane} plane", *(["p=r1"] if p == r1 else [])],
                    )
                    if c is not None:
                        yield c


# ---------------------------------------------------------------------------------------------
# products
# ---------------------------------------------------------------------------------------------


def product(w: Window) -> Iterator[Candidate]:
    """Slim Fly x FlatFly (003 §1.5): an MMS graph (q, link width wa in {1, 2}) times a 1D or
    square 2D HyperX of size m with unit widths; radix p + wa k'_q + n (m - 1); per (q, wa, n, p)
    the m with N nearest the target. Balanced for p <= min(wa ceil(k'/2), m) (000 §II-B2 for the
    Slim Fly factor, 003 §1.2 for the FlatFly factor)."""
    q = 3
    while q < w.radix:  # the Slim Fly factor alone has k' >= q ports
        sf = sizes(f"slimfly:q={q}")
        q += 1
        if sf is None:
            continue
        if sf["network_radix"] + 2 > w.radix:
            return
        for wa in (1, 2):
            for n in (1, 2):
                groups: dict[int, list[Candidate]] = {}
                m = 2
                while True:
                    params: dict[str, Any] = {
                        "a": f"(slimfly:q={q - 1})",
                        "b": f"(hyperx:dims={'x'.join([str(m)] * n)})",
                    }
                    if wa > 1:
                        params["wa"] = wa
                    base = sizes(rules.spec_of("product", {**params, "p": 1}))
                    if base is None or base["radix"] > w.radix or base["routers"] > w.hi:
                        break
                    for p in w.concentrations(base["routers"], w.radix - base["network_radix"]):
                        c = candidate(
                            "product",
                            {**params, "p": p},
                            "Daryin & Korzh, JSFI 2014, §1.5",
                            [f"SF x FF {n}D"],
                        )
                        if c is not None and w.admits(c.load):
                            groups.setdefault(p, []).append(c)
                    m += 1
                for p in sorted(groups):
                    yield min(groups[p], key=lambda c: (abs(c.endpoints - w.target), c.endpoints))


# ---------------------------------------------------------------------------------------------
# Ramanujan graphs
# ---------------------------------------------------------------------------------------------


def _odd_primes(below: int) -> list[int]:
    return [n for n in range(3, below, 2) if all(n % d for d in range(3, math.isqrt(n) + 1, 2))]


def spectralfly(w: Window) -> Iterator[Candidate]:
    """SpectralFly (Young et al., IPDPS 2022, §II): every pair of distinct odd primes (p, q) of
    the LPS graph X^{p,q} whose network radix p + 1 leaves a port for endpoints, q while the
    smaller group PSL(2, q) (q(q^2 - 1)/2 routers) still fits the window's top; every
    concentration putting N in the window. Which pairs build (the generators must stay distinct
    mod q), the router count (PSL or PGL by the Legendre symbol) and the balance are the
    family's own (``sizes``)."""
    for gen in _odd_primes(w.radix - 1):  # radix p + 1 + at least one endpoint port
        q = 3
        while q * (q * q - 1) // 2 <= w.hi:
            base = sizes(f"spectralfly:lps_p={gen},lps_q={q},p=1")
            if base is not None:
                group = "PSL (non-bipartite)" if base["routers"] * 2 == q * (q * q - 1) else "PGL (bipartite)"
                for p in w.concentrations(base["routers"], w.radix - base["network_radix"]):
                    c = candidate(
                        "spectralfly",
                        {"lps_p": gen, "lps_q": q, "p": p},
                        "Young et al., IPDPS 2022, §II; Lubotzky, Phillips & Sarnak, Combinatorica 1988",
                        [group],
                    )
                    if c is not None:
                        yield c
            q += 2
# polarity graphs and star products (after the papers)
# ---------------------------------------------------------------------------------------------


def polarfly(w: Window) -> Iterator[Candidate]:
    """PolarFly (Lakhotia et al., SC22): every prime power q >= 2 whose network radix q + 1
    leaves a port for endpoints; every p putting N in the window. Balanced p from SC14 §II-B2's
    channel load with ER_q's exact distances, a little above (q + 1)/2 (SC22's radix-48 design:
    q = 31, 32 network ports, 16 endpoints)."""
    for q in range(2, w.radix - 1):
        base = sizes(f"polarfly:q={q},p=1")
        if base is None:
            continue
        for p in w.concentrations(base["routers"], w.radix - base["network_radix"]):
            tags = ["p=floor((q+1)/2) (Lakhotia et al., SC22)"] if p == (q + 1) // 2 else []
            c = candidate("polarfly", {"q": q, "p": p}, "Lakhotia et al., SC22", tags)
            if c is not None:
                yield c


def bdf(w: Window) -> Iterator[Candidate]:
    """Bermond-Delorme-Farhi graphs (SC14 §II-C): every odd prime power u with network radix
    3(u + 1)/2 leaving a port; every p putting N in the window. Balanced p from SC14 §II-B2's
    channel load with the star product's distance bounds (star::star_balance)."""
    for u in range(3, w.radix, 2):
        if 3 * (u + 1) // 2 + 1 > w.radix:
            return
        base = sizes(f"bdf:u={u},p=1")
        if base is None:
            continue
        for p in w.concentrations(base["routers"], w.radix - base["network_radix"]):
            c = candidate("bdf", {"u": u, "p": p}, "Besta & Hoefler, SC14, §II-C", [])
            if c is not None:
                yield c


def bundlefly(w: Window) -> Iterator[Candidate]:
    """Bundlefly (Lei et al., ICS 2020): MMS graph of every prime power q >= 3 star a Paley graph
    of every order a = 1 (mod 4), a prime power, with (3q - delta)/2 + (a - 1)/2 leaving a port;
    every p putting N in the window. Balanced p as for BDF (star::star_balance)."""
    for q in range(3, w.radix):
        mms = sizes(f"slimfly:q={q},p=1")
        if mms is None:
            continue
        if mms["network_radix"] + 3 > w.radix:  # the smallest Paley graph has degree 2
            return
        for a in range(5, 2 * (w.radix - mms["network_radix"]), 4):
            base = sizes(f"bundlefly:q={q},a={a},p=1")
            if base is None:
                continue
            if base["network_radix"] + 1 > w.radix or base["routers"] > w.hi:
                break
            for p in w.concentrations(base["routers"], w.radix - base["network_radix"]):
                c = candidate("bundlefly", {"q": q, "a": a, "p": p}, "Lei et al., ICS 2020", [])
                if c is not None:
                    yield c


def polarstar(w: Window) -> Iterator[Candidate]:
    """PolarStar (Lakhotia et al., SPAA 2024): ER_q for every prime power q >= 2 star every
    Inductive-Quad supernode (degree d = 0 or 3 mod 4) and every Paley supernode (order a, a
    prime power = 1 mod 4) with q + 1 + degree leaving a port; every p putting N in the window.
    Balanced p as for BDF (star::star_balance)."""
    for q in range(2, w.radix - 3):
        er = sizes(f"polarfly:q={q},p=1")
        if er is None:
            continue
        room = w.radix - 1 - (q + 1)  # supernode ports left with one endpoint port
        supernodes = [{"d": d} for d in range(3, room + 1) if d % 4 in (0, 3)]
        supernodes += [{"a": a} for a in range(5, 2 * room + 2, 4)]
        for supernode in supernodes:
            base = sizes(rules.spec_of("polarstar", {"q": q, **supernode, "p": 1}))
            if base is None or base["routers"] > w.hi:
                continue
            kind = "Inductive-Quad" if "d" in supernode else "Paley"
            for p in w.concentrations(base["routers"], w.radix - base["network_radix"]):
                c = candidate(
                    "polarstar",
                    {"q": q, **supernode, "p": p},
                    "Lakhotia et al., SPAA 2024 (PolarStar)",
                    [f"{kind} supernode"],
                )
                if c is not None:
                    yield c
