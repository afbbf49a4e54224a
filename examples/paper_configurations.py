"""Builds the network configurations quoted in the papers and sets topolab's sizes beside the
papers' numbers. An example of building networks from specs; the README's main job is
``topolab compare`` (make run).

Run: python examples/paper_configurations.py
"""

from __future__ import annotations

import time

import topolab

# (spec, where the paper quotes it, (endpoints, routers, radix) as printed there; None where the
# paper gives no figure, note)
CONFIGURATIONS = [
    ("slimfly:q=5,p=4", "BookSim2 reference; Hoffman-Singleton", (200, 50, 11), ""),
    ("slimfly:q=13,p=9", "Kathareios et al., SC15, §4.1", (3042, 338, 28), ""),
    ("slimfly:q=13,p=10", "Kathareios et al., SC15, §4.1", (3380, 338, 29), ""),
    (
        "slimfly:q=19",
        "Besta & Hoefler, SC14, Table IV",
        (10830, 722, 43),
        "paper prints k=43, but k'=29 and p=15 (N=10830/722) give 44",
    ),
    ("mlfm:h=15", "Kathareios et al., SC15, §4.1", (3600, 360, 30), ""),
    ("oft:k=12", "Kathareios et al., SC15, §4.1", (3192, 399, 24), ""),
    ("dragonfly:a=8,h=4,p=4", "BookSim2 reference dfly_p4", (1056, 264, 15), ""),
    ("dragonfly:a=14,h=7,p=7", "Besta & Hoefler, SC14, Table IV (DF, k=27)", (9702, 1386, 27), ""),
    ("dragonfly:a=22,h=11,p=11,g=45", "Besta & Hoefler, SC14, Table IV (DF, k=43)", (10890, 990, 43), ""),
    ("dragonfly:a=22,h=11,p=11", "Besta & Hoefler, SC14, Table IV (DF, N=58,806)", (58806, 5346, 43), ""),
    (
        "fattree:k=44,p=22,pods=22",
        "Besta & Hoefler, SC14, §V (FT-3 of the simulations)",
        (10648, 1452, 44),
        "",
    ),
    ("torus:dims=22x22x22", "Besta & Hoefler, SC14, Table IV (T3D)", (10648, 10648, 7), ""),
    ("torus:dims=6x6x6x6x8", "Besta & Hoefler, SC14, Table IV (T5D)", (10368, 10368, 11), ""),
    ("hypercube:n=13", "Besta & Hoefler, SC14, Table IV (HC)", (8192, 8192, 14), ""),
    (
        "dln:routers=1386,shortcuts=19,p=7",
        "Besta & Hoefler, SC14, Table IV (DLN, k=28)",
        (9702, 1386, 28),
        "",
    ),
    ("torus:dims=8x8x8", "BookSim2 reference torus_8x8x8", (512, 512, 7), ""),
    (
        "hyperx:dims=4x8x8x8,widths=2x1x1x1,p=8",
        "Daryin & Korzh, JSFI 2014, §1.2 (FlatFly)",
        (None, 2048, 35),
        "",
    ),
    (
        "product:a=(slimfly:q=4),b=(hyperx:dims=8x8),wa=2,p=8",
        "Daryin & Korzh, JSFI 2014, §1.5 (SF x FF-1)",
        (None, 2048, 34),
        "",
    ),
    (
        "product:a=(slimfly:q=8),b=(hyperx:dims=16),p=8",
        "Daryin & Korzh, JSFI 2014, §1.5 (SF x FF-2)",
        (None, 2048, 35),
        "",
    ),
    (
        "kautz:d=8,k=4",
        "Koibuchi et al., 2018, §IV-A (98% of the directed Moore bound)",
        (None, 4608, None),
        "",
    ),
    ("skywalk:z=8,c=256,di=7,do=4", "Fujiwara et al., IPDPS 2014, §III-B", (None, 2048, None), ""),
]


def matches(ours: tuple, paper: tuple) -> bool:
    return all(p is None or o == p for o, p in zip(ours, paper))


def show(value) -> str:
    return "-" if value is None else str(value)


def main() -> None:
    header = ["configuration", "source", "routers", "endpoints", "radix", "links", "paper N/Nr/k", "match"]
    rows = []
    notes = []
    start = time.perf_counter()
    for spec, source, (n, nr, k), note in CONFIGURATIONS:
        try:
            net = topolab.build(spec)
        except topolab.TopolabError as err:
            rows.append([spec, source, "-", "-", "-", "-", "/".join(map(show, (n, nr, k))), f"error: {err}"])
            continue
        ours = (net.num_endpoints, net.num_routers, net.radix)
        match = "yes" if matches(ours, (n, nr, k)) else "no*"
        if note:
            notes.append(f"* {spec}: {note}")
        rows.append(
            [
                spec,
                source,
                net.num_routers,
                net.num_endpoints,
                net.radix,
                net.num_links,
                "/".join(map(show, (n, nr, k))),
                match,
            ]
        )
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    for row in [header, *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    for line in notes:
        print(line)
    print(f"\nbuilt {len(rows)} networks in {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
