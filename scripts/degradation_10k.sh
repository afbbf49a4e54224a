#!/bin/sh
# Degraded saturation throughput of Slim Fly, Dragonfly, fat tree and PolarFly at about 10,000
# endpoints with 0, 1, 5 and 10% of the cables failed at random (docs/resilience.md, "At about
# 10,000 endpoints"): one `topolab analyze --resilience --simulate` per network, every search a
# point of the experiment runner kept in OUT/<family>/ (a second run resumes where the first
# stopped; a larger SEEDS runs only the new failure sets). The networks are those of Besta &
# Hoefler, SC14, Table III's row N ~ 8192 as docs/reproduce.md builds them (SF q = 17, DF h = 7,
# FT-3 k = 32) and the balanced PolarFly nearest that size (q = 25, not in Table III).
# Each network gets its family's uniform routing where it is computed from the surviving graph
# (UGAL-L for the Dragonfly), minimal routing otherwise (topolab.design.simulate.degraded_routing).
#
#   scripts/degradation_10k.sh [OUT] [SEEDS]     # OUT default degradation-10k, SEEDS default 2
#
# Writes OUT/<family>.txt (the table), OUT/<family>.json (every search) and OUT/<family>.time
# (/usr/bin/time -v of the command, with the load average before and after), and OUT/bounds.txt:
# the minimal routing's static bound of the degraded Dragonfly and fat-tree graphs, which the
# searches do not compute (ugal_l has no static load; the fat tree has too many minimal paths).
set -eu
OUT=${1:-degradation-10k}
SEEDS=${2:-2}
FRACTIONS=0,0.01,0.05,0.1
# each search brackets the saturation load to 0.02: about one run fewer than 0.01 per search
TOLERANCE=0.02
mkdir -p "$OUT"
run() {
    name=$1 spec=$2 routing=$3
    {
        echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
        nice -n 10 /usr/bin/time -v python3 -m topolab analyze "$spec" --resilience --simulate \
            --failure-fractions "$FRACTIONS" --failure-seeds "$SEEDS" --routing "$routing" \
            --load-resolution "$TOLERANCE" --workers 1 --results "$OUT/$name" >"$OUT/$name.txt" 2>"$OUT/$name.stderr" || true
        tail -n 23 "$OUT/$name.stderr"
        echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    } >"$OUT/$name.time"
    # the same searches, found in the store: every search as JSON
    python3 -m topolab analyze "$spec" --resilience --simulate --failure-fractions "$FRACTIONS" \
        --failure-seeds "$SEEDS" --routing "$routing" --load-resolution "$TOLERANCE" --workers 1 \
        --results "$OUT/$name" --json >"$OUT/$name.json"
}
run slimfly slimfly:q=17,p=13 min
run dragonfly dragonfly:a=14,h=7,p=7 ugal_l
run fattree fattree:k=32 min
run polarfly polarfly:q=25,p=13 min
SEEDS=$SEEDS python3 - >"$OUT/bounds.txt" <<'EOF'
import os
import time

import topolab
from topolab.routing import channel_load

seeds = int(os.environ["SEEDS"])
for spec in ("dragonfly:a=14,h=7,p=7", "fattree:k=32"):
    for fraction in (0.0, 0.01, 0.05, 0.1):
        for seed in range(1, 2 if fraction == 0 else seeds + 1):
            start = time.process_time()
            net = topolab.apply_failures(spec, f"links:fraction={fraction},seed={seed}").network
            bound = channel_load(net, "min", traffic="uniform", progress=False).throughput_bound
            cpu = time.process_time() - start
            print(spec, fraction, seed, f"{bound:.4f}", f"{cpu:.1f} CPU-s", flush=True)
EOF
