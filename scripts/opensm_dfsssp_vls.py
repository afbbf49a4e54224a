"""OpenSM's dfsssp engine against topolab's DFSSSP on the networks given (docs/infiniband.md,
"DFSSSP"): the VLs OpenSM says it needs, the VLs its tables use, the CDG verdict of its tables
and topolab's layer count. Needs opensm, ibsim-utils and infiniband-diags.

    python3 scripts/opensm_dfsssp_vls.py slimfly:q=5,p=1 slimfly:q=7,p=5 torus:dims=5x5
"""

from __future__ import annotations

import sys
import time

import topolab
from topolab import opensm, routing

for spec in sys.argv[1:]:
    net = topolab.build(spec)
    t0 = time.time()
    run = opensm.run_engine(net, "dfsssp", f"opensm-dfsssp/{spec.replace(':', '_').replace(',', '_')}")
    seconds = time.time() - t0
    rep = routing.check(net, f"infiniband:dir={run.directory}") if run.routed else None
    ours = routing.check(net, "dfsssp").vcs_used
    print(
        f"{spec}: switches {net.num_routers} hosts {net.num_endpoints}: "
        f"OpenSM dfsssp needed {run.vls_needed}, VLs in its tables {rep.vcs_used if rep else '-'}, "
        f"acyclic {rep.acyclic if rep else '-'}; topolab dfsssp {ours}; {seconds:.1f} s",
        flush=True,
    )
