#!/usr/bin/env python3
"""Agreement of topolab's simulator with BookSim2 on every reference configuration.

Reads reference/booksim/results.csv (in the repository), runs each row's configuration (through
topolab.from_booksim, i.e. booksim_compat = true) at the same offered load and prints both sets of
figures with the criteria of issue 5:

- average packet latency within 5% for converged rows below 80% of saturation;
- accepted throughput within 3 percentage points on every row (saturated rows included: that
  is where the saturation throughput shows);
- saturation throughput (the highest accepted throughput of the configuration) within 3 points.

Saturation of a configuration, read from BookSim2's rows: the highest converged load whose
accepted throughput is within 1% of the offered load.

    python scripts/booksim_agreement.py [--only SUBSTRING] [--reference DIR] [--json]

Exit status 1 when a criterion fails. Runs single-threaded and takes a few minutes in all.
The reading of the reference (rows, saturation, setups) and the criteria are also used by
benches/simulator.py, which times BookSim2 itself beside topolab.
"""

from __future__ import annotations

import argparse
import csv
import json
import pathlib
import sys
import time

import topolab

LATENCY_TOLERANCE = 0.05
ACCEPTED_TOLERANCE = 0.03


REFERENCE = pathlib.Path(__file__).resolve().parents[1] / "reference" / "booksim"


def find_reference() -> pathlib.Path:
    """The BookSim2 reference data kept in the repository (reference/booksim/README.md says how
    it was measured)."""
    if not (REFERENCE / "results.csv").is_file():
        raise FileNotFoundError(f"BookSim2 reference data missing: {REFERENCE / 'results.csv'}")
    return REFERENCE


def read_wall_times(ref: pathlib.Path) -> dict[tuple[str, str], float]:
    """BookSim2's recorded wall seconds by (config, offered load as written in results.csv):
    measured on another day and machine, so a ratio against them is indicative only."""
    with open(ref / "wall_times.csv") as fh:
        return {(r["config"], r["offered_load"]): float(r["wall_s"]) for r in csv.DictReader(fh)}


def read_rows(ref: pathlib.Path, only: str = "") -> list[dict]:
    """Rows of results.csv whose config contains `only`."""
    with open(ref / "results.csv") as fh:
        return [r for r in csv.DictReader(fh) if only in r["config"]]


def saturation_loads(rows: list[dict]) -> dict[str, float]:
    """Per configuration, the highest converged load whose accepted throughput is within 1% of
    the offered load (BookSim2's rows)."""
    saturation: dict[str, float] = {}
    for r in rows:
        load, acc = float(r["offered_load"]), float(r["accepted_throughput"])
        if r["converged"] == "true" and acc >= 0.99 * load:
            saturation[r["config"]] = max(saturation.get(r["config"], 0.0), load)
    return saturation


def split_config(name: str) -> tuple[str, int | None]:
    """results.csv's config column: the file, and the num_vcs override of rows marked so."""
    cfg, _, vcs = name.partition(" num_vcs=")
    return cfg, int(vcs) if vcs else None


def setup_for(ref: pathlib.Path, name: str) -> topolab.BooksimSetup:
    cfg, vcs = split_config(name)
    setup = topolab.from_booksim(ref / cfg)
    if vcs is not None:
        setup.params["num_vcs"] = vcs
    return setup


def agreement(
    load: float,
    latency: float,
    accepted: float,
    booksim_latency: float,
    booksim_accepted: float,
    booksim_converged: bool,
    saturation: float,
) -> dict:
    """The criteria of the module docstring for one row."""
    lat_checked = booksim_converged and load < 0.8 * saturation
    lat_err = abs(latency - booksim_latency) / booksim_latency
    acc_err = abs(accepted - booksim_accepted)
    ok = acc_err <= ACCEPTED_TOLERANCE and (not lat_checked or lat_err <= LATENCY_TOLERANCE)
    return {"latency_error": lat_err, "accepted_error": acc_err, "latency_checked": lat_checked, "ok": ok}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="only configurations containing this text")
    ap.add_argument("--reference", type=pathlib.Path, help="directory of results.csv")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args()
    ref = args.reference or find_reference()
    rows = read_rows(ref, args.only)
    recorded_wall = read_wall_times(ref)
    saturation = saturation_loads(rows)

    setups: dict[str, topolab.BooksimSetup] = {}
    out = []
    failures = 0
    for r in rows:
        name = r["config"]
        if name not in setups:
            setups[name] = setup_for(ref, name)
        load = float(r["offered_load"])
        t = time.time()
        ours = setups[name].simulate(load=load)
        wall = time.time() - t
        bs_lat, bs_acc = float(r["avg_packet_latency"]), float(r["accepted_throughput"])
        verdict = agreement(
            load,
            ours.avg_latency,
            ours.accepted_throughput,
            bs_lat,
            bs_acc,
            r["converged"] == "true",
            saturation.get(name, 0.0),
        )
        lat_err, lat_checked, ok = (verdict["latency_error"], verdict["latency_checked"], verdict["ok"])
        failures += not ok
        out.append(
            {
                "config": name,
                "load": load,
                "latency": round(ours.avg_latency, 2),
                "booksim_latency": bs_lat,
                "latency_error": round(lat_err, 4),
                "latency_checked": lat_checked,
                "accepted": round(ours.accepted_throughput, 4),
                "booksim_accepted": bs_acc,
                "converged": ours.converged,
                "booksim_converged": r["converged"] == "true",
                "cycles": ours.cycles,
                "booksim_cycles": int(r["cycles"]),
                "wall_s": round(wall, 2),
                "booksim_wall_s": recorded_wall[(name, r["offered_load"])],
                "ok": ok,
            }
        )
        if not args.json:
            o = out[-1]
            if len(out) == 1:
                print(
                    f"{'config':<28} {'load':>6} {'latency':>9} {'booksim':>9} {'err':>6} "
                    f"{'accepted':>8} {'booksim':>8} {'conv':>9} {'cycles':>13} "
                    f"{'wall_s':>7} {'bs_wall':>8}  ok"
                )
            conv = f"{'y' if o['converged'] else 'n'}/{'y' if o['booksim_converged'] else 'n'}"
            mark = " " if o["latency_checked"] else "*"
            print(
                f"{name:<28} {load:>6} {o['latency']:>9.2f} {bs_lat:>9.2f} "
                f"{100 * lat_err:>5.1f}%{mark}{o['accepted']:>8.4f} {bs_acc:>8.4f} {conv:>9} "
                f"{o['cycles']:>6}/{o['booksim_cycles']:<6} {wall:>7.2f} {o['booksim_wall_s']:>8.1f}  "
                f"{'ok' if ok else 'FAIL'}",
                flush=True,
            )
    # Saturation throughput per configuration: the highest accepted throughput.
    summary = []
    for name in dict.fromkeys(o["config"] for o in out):
        mine = max(o["accepted"] for o in out if o["config"] == name)
        theirs = max(o["booksim_accepted"] for o in out if o["config"] == name)
        ok = abs(mine - theirs) <= ACCEPTED_TOLERANCE
        failures += not ok
        summary.append({"config": name, "saturation_throughput": mine, "booksim": theirs, "ok": ok})
    if args.json:
        print(json.dumps({"rows": out, "saturation": summary}, indent=2))
    else:
        print("\nsaturation throughput (highest accepted):")
        for s in summary:
            print(
                f"  {s['config']:<28} {s['saturation_throughput']:.4f} vs {s['booksim']:.4f}  "
                f"{'ok' if s['ok'] else 'FAIL'}"
            )
        print(
            "\nlatency error checked for converged rows below 80% of saturation (others marked *); "
            f"{failures} failure(s)"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
