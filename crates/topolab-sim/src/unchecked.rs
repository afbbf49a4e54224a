//! Slice reads and writes without the bounds check, for the input-queued router's allocation
//! loops (router/iq_alloc.rs and the switch grant, `IqState::send_flit`), where every index
//! comes from the router's own records and work lists.
//!
//! Why: in those loops each flit-hop indexes the VC records, the output VCs, the switch
//! inputs and the flit slab a dozen times, and each index costs a compare and a branch. On
//! Slim Fly q = 13 at load 0.5 (`booksim_reference`, callgrind) bounds checks were 7.5% of the
//! instructions of `Engine::run_cycles_inner`, 56 of their 97 per flit-hop in these loops
//! (benches/results/simulator-speed.csv gives what removing them gave).
//!
//! The contract is the caller's: the index is below the slice's length. Each call site says
//! why in a SAFETY comment that names the invariant of `IqState` it rests on (router/iq.rs,
//! "Index invariants"); the one value that comes from outside the router, a routing's output
//! port, is checked once where it enters (`IqState::compute_route`). Builds with debug
//! assertions (every `cargo test`: sim_golden, the router settings of tests/sim, the random
//! workloads of sim_workload's property tests) check every index here before the access, so
//! a broken invariant is a panic there rather than undefined behaviour; `make miri` runs this
//! module's tests, small runs through every unchecked access, under Miri, which checks each
//! access whatever the assertions. The fuzz targets parse inputs and do not run the router.
//!
//! This module and read_ahead.rs hold the crate's unsafe operations.
#![allow(unsafe_code)]

/// Indexing a slice by an index the caller knows to be in range.
pub(crate) trait Unchecked<T> {
    /// The element at `i`.
    ///
    /// # Safety
    /// `i < self.len()`.
    unsafe fn at(&self, i: usize) -> &T;

    /// The element at `i`, to write.
    ///
    /// # Safety
    /// `i < self.len()`.
    unsafe fn at_mut(&mut self, i: usize) -> &mut T;
}

impl<T> Unchecked<T> for [T] {
    #[inline(always)]
    unsafe fn at(&self, i: usize) -> &T {
        debug_assert!(
            i < self.len(),
            "unchecked index {i} out of a slice of {}",
            self.len()
        );
        // SAFETY: the caller guarantees i < len (this function's contract).
        unsafe { self.get_unchecked(i) }
    }

    #[inline(always)]
    unsafe fn at_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(
            i < self.len(),
            "unchecked index {i} out of a slice of {}",
            self.len()
        );
        // SAFETY: the caller guarantees i < len (this function's contract).
        unsafe { self.get_unchecked_mut(i) }
    }
}

/// Small runs through every unchecked access of the allocation loops, for Miri (`make miri`),
/// which checks each access itself; under `cargo test` the debug assertions above check them.
#[cfg(test)]
mod tests {
    use crate::{simulate, SimConfig};
    use topolab_core::build_str;
    use topolab_core::progress::Silent;

    fn run(spec: &str, routing: &str, load: f64, pairs: &[(&str, &str)]) {
        let net = build_str(spec).unwrap();
        let mut cfg = SimConfig::default();
        for (k, v) in [
            ("seed", "1"),
            ("sample_period", "30"),
            ("warmup_periods", "1"),
            ("max_samples", "2"),
            ("debug_checks", "1"),
        ]
        .iter()
        .chain(pairs)
        {
            cfg.set(k, v).unwrap();
        }
        cfg.validate().unwrap();
        let r = simulate(&net, routing, "uniform", load, &cfg, &Silent).unwrap();
        assert!(r.measured_packets > 0, "{spec} {routing} {pairs:?}");
    }

    #[test]
    fn one_flit_packets_at_speedup_one_and_two() {
        run("torus:dims=4", "dor", 0.6, &[]);
        run("torus:dims=4", "dor", 0.6, &[("internal_speedup", "2")]);
    }

    #[test]
    fn multi_flit_packets_wormhole_and_cut_through() {
        run("torus:dims=4", "dor", 0.5, &[("packet_size", "3")]);
        run(
            "torus:dims=4",
            "dor",
            0.5,
            &[
                ("packet_size", "3"),
                ("flow_control", "vct"),
                ("vc_buf_size", "6"),
            ],
        );
    }

    #[test]
    fn booksim_order_and_longer_delays() {
        run(
            "torus:dims=4",
            "dor",
            0.5,
            &[
                ("booksim_compat", "1"),
                ("vc_alloc_delay", "2"),
                ("sw_alloc_delay", "2"),
            ],
        );
    }

    /// With debug assertions (what `cargo test` and the fuzz targets build) an index out of
    /// range is a panic, not undefined behaviour.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "unchecked index 3 out of a slice of 3")]
    #[allow(unsafe_code)]
    fn an_index_out_of_range_panics_with_debug_assertions() {
        use super::Unchecked;
        let items = [1u8, 2, 3];
        // SAFETY: none; the debug assertion stops the access before it happens.
        let _ = unsafe { items.at(3) };
    }
}
