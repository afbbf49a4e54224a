#!/usr/bin/env bash
# The fuzzing campaign (docs/reliability.md). Builds the fuzz targets with libFuzzer's coverage
# instrumentation on the stable compiler (the flags cargo-fuzz passes, minus the nightly-only
# AddressSanitizer: the code these targets run is safe Rust) and runs them one after the other.
#
#   fuzz/run.sh                    every target for 60 s each
#   fuzz/run.sh 3600 spec graphml  spec and graphml for an hour each
#
# New inputs that add coverage go to fuzz/work/<target>/ (not committed; the next run starts from
# them); fuzz/corpus/<target>/ holds the committed seeds, which CI replays
# (crates/topolab-sim/tests/fuzz_corpus.rs): copy an input there when it once failed. A crash
# leaves fuzz/artifacts/<target>/
# crash-* to replay with `fuzz/target/<host triple>/release/<target> FILE`. With cargo-fuzz installed,
# `RUSTC_BOOTSTRAP=1 cargo fuzz run <target> fuzz/work/<target> fuzz/corpus/<target>` (from fuzz/'s
# parent) does the same with ASan; without the two directories it writes into the seeds.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(spec json edgelist graphml anynet booksim)
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks"
# An explicit --target keeps these flags off build scripts and proc macros (as cargo-fuzz does).
triple="$(rustc -vV | sed -n 's/^host: //p')"
cargo build --release --bins --target "$triple"
for t in "${targets[@]}"; do
    mkdir -p "work/$t" "artifacts/$t"
    echo "== $t: ${seconds} s"
    # -rss_limit_mb: a run that needs more than the guard allows is a finding, not a slowdown.
    "target/$triple/release/$t" "work/$t" "corpus/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
        -max_len=65536 -artifact_prefix="artifacts/$t/" -print_final_stats=1 2>&1 | tail -n 25
done
