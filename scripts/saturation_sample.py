"""compare --simulate's fast saturation search against an exhaustive load bisection of plain
runs (``topolab.design.saturation.exhaustive_saturation``: every load from 0.05 in steps of 0.05
up to the first saturated one, then bisection down to 0.005, each run the simulator's own
measurement from an empty network) on the same network, routing, traffic and setup; prints both
figures, their difference, the runs and the CPU time of each (docs/compare.md §5, "The fast
search against an exhaustive bisection").

    python scripts/saturation_sample.py slimfly:q=19,p=15 min uniform [--num-vcs 4]
"""

from __future__ import annotations

import argparse
import json
import time

from topolab.design.saturation import exhaustive_saturation, saturation_point
from topolab.design.simulate import SIM_PARAMS


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("network")
    parser.add_argument("routing")
    parser.add_argument("traffic")
    parser.add_argument("--num-vcs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--warm", action="store_true", help="warm starts in the fast search (docs/simulator.md, Warm starts)"
    )
    args = parser.parse_args()
    setup = {"num_vcs": args.num_vcs, **SIM_PARAMS}

    start = time.process_time()
    point = {"network": args.network, "routing": args.routing, "traffic": args.traffic, "seed": args.seed}
    fast = saturation_point({**point, **setup, "warm_start": args.warm})
    fast_cpu = time.process_time() - start

    start = time.process_time()
    reference = exhaustive_saturation(args.network, args.routing, args.traffic, seed=args.seed, **setup)
    plain_cpu = time.process_time() - start
    exhaustive = reference["saturation_load"]
    print(
        json.dumps(
            {
                "network": args.network,
                "routing": args.routing,
                "traffic": args.traffic,
                "fast": fast["saturation_load"],
                "fast_runs": fast["runs"],
                "fast_loads": fast["offered_load"],
                "static_bound": fast["static_bound"],
                "fast_cycles": fast["sim_cycles"],
                "fast_cpu_s": round(fast_cpu, 1),
                "exhaustive": exhaustive,
                "exhaustive_saturated_load": reference["saturated_load"],
                "exhaustive_runs": reference["runs"],
                "exhaustive_cpu_s": round(plain_cpu, 1),
                "difference": round(fast["saturation_load"] - exhaustive, 4),
            }
        )
    )


if __name__ == "__main__":
    main()
