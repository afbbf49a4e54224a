//! Separable input-first allocation with round-robin arbiters, as BookSim2's
//! `separable_input_first` with `round_robin` arbiters (SeparableInputFirstAllocator::Allocate,
//! RoundRobinArbiter): every input first picks one of its requests, then every output picks one
//! of the inputs that picked it; a winner moves both arbiters' pointers one past itself.
//!
//! A round-robin arbiter prefers the highest priority and, among equals, the request whose index
//! comes first counting from the pointer: the smallest (index - pointer) mod size
//! (RoundRobinArbiter::Supersedes). The outcome does not depend on the order requests are given
//! in, so callers may list them in any order. One pass (alloc_iters = 1), as BookSim2's.

/// Round-robin distance of `index` from `pointer` in an arbiter of `size` positions.
#[inline]
pub fn rr_distance(index: u32, pointer: u32, size: u32) -> u32 {
    if index >= pointer {
        index - pointer
    } else {
        index + size - pointer
    }
}

/// Division and remainder by the number of VCs, a run-time constant: a shift and a mask when
/// it is a power of two (the common 1, 2, 4, 8 VCs), else a multiplication (Lemire's method;
/// exact for every u32) instead of a hardware division in the hot loops.
#[derive(Debug, Clone, Copy)]
pub struct ByVcs {
    d: u32,
    m: u64,
    /// log2(d) when d is a power of two, else u32::MAX.
    shift: u32,
}

impl ByVcs {
    pub fn new(d: u32) -> ByVcs {
        ByVcs {
            d,
            m: (u64::MAX / d as u64).wrapping_add(1),
            shift: if d.is_power_of_two() {
                d.trailing_zeros()
            } else {
                u32::MAX
            },
        }
    }
    /// x / d
    #[inline]
    pub fn quot(self, x: u32) -> u32 {
        if self.shift != u32::MAX {
            return x >> self.shift;
        }
        ((self.m as u128 * x as u128) >> 64) as u32
    }
    /// x % d
    #[inline]
    pub fn modulo(self, x: u32) -> u32 {
        if self.shift != u32::MAX {
            return x & (self.d - 1);
        }
        let low = self.m.wrapping_mul(x as u64);
        ((low as u128 * self.d as u128) >> 64) as u32
    }
}

/// (x + 1) mod n for x < n.
#[inline]
pub fn next_mod(x: u32, n: u32) -> u32 {
    if x + 1 >= n {
        0
    } else {
        x + 1
    }
}

/// A set of output VCs (index port * V + vc), one bit each, with a zero word past the end so
/// that a range of up to 64 bits reads two words without a check.
#[derive(Debug, Clone)]
pub struct OvSet(Vec<u64>);

impl OvSet {
    /// Every one of `n` output VCs in the set.
    pub fn full(n: u32) -> OvSet {
        let mut w = vec![u64::MAX; n as usize / 64];
        if !n.is_multiple_of(64) {
            w.push(u64::MAX >> (64 - n % 64));
        }
        w.push(0);
        OvSet(w)
    }
    #[inline]
    pub fn insert(&mut self, ov: u32) {
        self.0[(ov >> 6) as usize] |= 1 << (ov & 63);
    }
    #[inline]
    pub fn contains(&self, ov: u32) -> bool {
        self.0[(ov >> 6) as usize] >> (ov & 63) & 1 != 0
    }
    #[inline]
    pub fn remove(&mut self, ov: u32) {
        self.0[(ov >> 6) as usize] &= !(1 << (ov & 63));
    }
    /// Bit k set when output VC `start + k` is in the set, k < `len` (1..=64).
    #[inline]
    pub fn range(&self, start: u32, len: u32) -> u64 {
        let (w, b) = ((start >> 6) as usize, start & 63);
        let low = self.0[w] >> b;
        let high = if b == 0 { 0 } else { self.0[w + 1] << (64 - b) };
        (low | high) & (u64::MAX >> (64 - len))
    }
}

/// The round-robin arbiter's choice among a run of consecutive output VCs, bit k of `free`
/// (non-empty) standing for the run's k-th, for a pointer `from` places after the run's start
/// (wrapped when the pointer lies before it): the first set bit at or after `from`, else the
/// first set bit. Over the whole range of output VCs this is the candidate with the smallest
/// `rr_distance` from the pointer, since the candidates are consecutive.
#[inline]
pub fn first_from(free: u64, from: u32) -> u32 {
    let later = if from < 64 {
        free & (u64::MAX << from)
    } else {
        0
    };
    if later != 0 {
        later.trailing_zeros()
    } else {
        free.trailing_zeros()
    }
}

/// An output's round-robin arbiter: its pointer over the inputs, and the best offer of the
/// current allocation (`best_in` NONE when none).
#[derive(Debug, Clone, Copy)]
struct OutputArbiter {
    ptr: u32,
    best_in: u32,
    best_dist: u32,
}

const NO_INPUT: u32 = u32::MAX;

/// The output stage alone, for callers that made the input picks themselves in one pass (at
/// most one offer per input): per output, round robin over the inputs that picked it. It keeps
/// the outputs' pointers; a winner moves its output's pointer one past itself, the caller moves
/// the input's.
#[derive(Debug, Clone, Default)]
pub struct OutputStage {
    outputs: Vec<OutputArbiter>,
    inputs: u32,
    touched: Vec<u32>,
}

impl OutputStage {
    /// `outputs` arbiters over `inputs` inputs, pointers at 0.
    pub fn new(outputs: usize, inputs: u32) -> Self {
        OutputStage {
            outputs: vec![
                OutputArbiter {
                    ptr: 0,
                    best_in: NO_INPUT,
                    best_dist: 0,
                };
                outputs
            ],
            inputs,
            touched: Vec::new(),
        }
    }

    /// Output `output`'s pointer: the input after its last winner.
    pub fn pointer(&self, output: u32) -> u32 {
        self.outputs[output as usize].ptr
    }

    /// Brings the stage's arbiters into the cache ahead of its router's turn (see
    /// `crate::read_ahead`).
    pub fn read_ahead(&self) {
        crate::read_ahead::slice(&self.outputs);
    }

    /// Brings output `output`'s arbiter into the cache ahead of its router's turn (see
    /// `crate::read_ahead`).
    #[inline]
    pub fn read_ahead_output(&self, output: u32) {
        crate::read_ahead::value(&self.outputs[output as usize]);
    }

    /// `input` picked `output` (every offer of an output alike: round robin decides).
    #[inline(always)]
    pub fn offer(&mut self, input: u32, output: u32) {
        self.offer_with_priority(input, output, u8::MAX);
    }

    /// `input` picked `output` with priority `priority`: among the offers for one output the
    /// highest priority wins, the first in round-robin order among equals (`offer` is the
    /// highest priority).
    #[inline(always)]
    pub fn offer_with_priority(&mut self, input: u32, output: u32, priority: u8) {
        let a = &mut self.outputs[output as usize];
        // Inputs (ports x VCs) number below 2^24, so the rank fits above the distance.
        let dist = (u8::MAX - priority) as u32 * (1 << 24) + rr_distance(input, a.ptr, self.inputs);
        if a.best_in == NO_INPUT {
            self.touched.push(output);
            a.best_in = input;
            a.best_dist = dist;
        } else if dist < a.best_dist {
            a.best_in = input;
            a.best_dist = dist;
        }
    }

    /// After the offers: per output, the input offered first in round-robin order from the
    /// output's pointer is granted and the pointer moves one past it; grants are appended to
    /// `grants` in the order the outputs were first offered.
    pub fn finish(&mut self, grants: &mut Vec<(u32, u32)>) {
        for &o in &self.touched {
            let a = &mut self.outputs[o as usize];
            grants.push((a.best_in, o));
            a.ptr = next_mod(a.best_in, self.inputs);
            a.best_in = NO_INPUT;
        }
        self.touched.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The general separable allocator, which the router's fused allocation
    // (router/iq_alloc.rs) specialises: checked here against a literal dense one, it checks
    // `OutputStage`'s arbitration and pointers.
    /// A request: input `input` asks for output `output` with priority `pri`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Request {
        input: u32,
        output: u32,
        pri: u8,
    }

    /// Scratch space reused across allocations (no allocation per flit), and the output arbiters.
    #[derive(Debug, Clone, Default)]
    struct Separable {
        out: OutputStage,
        picks: Vec<Request>,
    }

    impl Separable {
        fn new(inputs: u32, outputs: usize) -> Self {
            Separable {
                out: OutputStage::new(outputs, inputs),
                picks: Vec::new(),
            }
        }

        /// Output `output`'s arbiter pointer.
        fn out_pointer(&self, output: u32) -> u32 {
            self.out.pointer(output)
        }

        /// Runs one allocation over `requests`, which must be grouped by input (all requests of an
        /// input consecutive). `in_ptr[i]` are the input arbiters' pointers over the outputs (size
        /// `outputs`); winners update them and their outputs' pointers. Grants (input, output) are
        /// appended to `grants`.
        fn allocate(
            &mut self,
            requests: &[Request],
            outputs: u32,
            in_ptr: &mut [u32],
            grants: &mut Vec<(u32, u32)>,
        ) {
            self.picks.clear();
            // Input stage: per input, highest priority, then round-robin over outputs.
            let mut i = 0;
            while i < requests.len() {
                let input = requests[i].input;
                let ptr = in_ptr[input as usize];
                let mut best = requests[i];
                let mut best_d = rr_distance(best.output, ptr, outputs);
                let mut j = i + 1;
                while j < requests.len() && requests[j].input == input {
                    let r = requests[j];
                    let d = rr_distance(r.output, ptr, outputs);
                    if r.pri > best.pri || (r.pri == best.pri && d < best_d) {
                        best = r;
                        best_d = d;
                    }
                    j += 1;
                }
                self.picks.push(best);
                i = j;
            }
            // Output stage: per output, round-robin over the inputs that picked it (packet
            // priorities are all equal: BookSim2 priority = none).
            let start = grants.len();
            for p in &self.picks {
                self.out.offer(p.input, p.output);
            }
            self.out.finish(grants);
            for &(i, o) in &grants[start..] {
                in_ptr[i as usize] = (o + 1) % outputs;
            }
        }
    }

    /// A literal separable input-first allocation over a dense request matrix, for comparison.
    fn reference(req: &[Vec<bool>], in_ptr: &mut [u32], out_ptr: &mut [u32]) -> Vec<(u32, u32)> {
        let (ni, no) = (req.len() as u32, req[0].len() as u32);
        let mut pick = vec![None; ni as usize];
        for i in 0..ni {
            for k in 0..no {
                let o = (in_ptr[i as usize] + k) % no;
                if req[i as usize][o as usize] {
                    pick[i as usize] = Some(o);
                    break;
                }
            }
        }
        let mut grants = Vec::new();
        for o in 0..no {
            for k in 0..ni {
                let i = (out_ptr[o as usize] + k) % ni;
                if pick[i as usize] == Some(o) {
                    grants.push((i, o));
                    in_ptr[i as usize] = (o + 1) % no;
                    out_ptr[o as usize] = (i + 1) % ni;
                    break;
                }
            }
        }
        grants
    }

    #[test]
    fn matches_dense_reference_over_many_rounds() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (ni, no) = (6u32, 5u32);
        let mut ip = vec![0; ni as usize];
        let (mut ip2, mut op2) = (ip.clone(), vec![0; no as usize]);
        let mut alloc = Separable::new(ni, no as usize);
        for _ in 0..500 {
            let req: Vec<Vec<bool>> = (0..ni)
                .map(|_| (0..no).map(|_| rng.random_bool(0.3)).collect())
                .collect();
            let mut list = Vec::new();
            for i in 0..ni {
                for o in (0..no).rev() {
                    if req[i as usize][o as usize] {
                        list.push(Request {
                            input: i,
                            output: o,
                            pri: 0,
                        });
                    }
                }
            }
            let mut got = Vec::new();
            alloc.allocate(&list, no, &mut ip, &mut got);
            got.sort_unstable_by_key(|g| g.1);
            let want = reference(&req, &mut ip2, &mut op2);
            assert_eq!(got, want);
            assert_eq!(ip, ip2);
            let op: Vec<u32> = (0..no).map(|o| alloc.out_pointer(o)).collect();
            assert_eq!(op, op2);
        }
    }

    /// The set's choice equals the round-robin arbiter's over every output VC of the router
    /// (the free VC of the range with the smallest `rr_distance` from the pointer, by brute
    /// force), for every pointer, range and free set of a small router, and at 3 and 64 VCs
    /// where ranges straddle words.
    #[test]
    fn free_set_choice_is_the_round_robin_choice() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for (ports, v) in [(3u32, 5u32), (45, 3), (3, 64)] {
            let size = ports * v;
            for _ in 0..300 {
                let mut set = OvSet::full(size);
                let free: Vec<bool> = (0..size).map(|_| rng.random_bool(0.4)).collect();
                for ov in 0..size {
                    if !free[ov as usize] {
                        set.remove(ov);
                    }
                }
                let port = rng.random_range(0..ports);
                let lo = rng.random_range(0..v);
                let hi = rng.random_range(lo..v);
                let ptr = rng.random_range(0..size);
                let start = port * v + lo;
                let brute = (start..=port * v + hi)
                    .filter(|&ov| free[ov as usize])
                    .min_by_key(|&ov| rr_distance(ov, ptr, size));
                assert_eq!(set.contains(start), free[start as usize]);
                let bits = set.range(start, hi - lo + 1);
                let got = (bits != 0).then(|| start + first_from(bits, ptr.wrapping_sub(start)));
                assert_eq!(
                    got, brute,
                    "{ports}x{v} port {port} vcs {lo}..={hi} ptr {ptr}"
                );
            }
        }
    }

    #[test]
    fn division_by_vcs_is_exact() {
        for d in 1..=64u32 {
            let b = ByVcs::new(d);
            for x in (0..5000u32).chain([u32::MAX, u32::MAX - 1, 1 << 31, 123_456_789]) {
                assert_eq!(b.quot(x), x / d, "{x} / {d}");
                assert_eq!(b.modulo(x), x % d, "{x} % {d}");
            }
        }
    }

    #[test]
    fn priority_beats_round_robin_at_the_input() {
        let mut alloc = Separable::new(1, 3);
        let mut ip = vec![0u32; 1];
        let reqs = [
            Request {
                input: 0,
                output: 0,
                pri: 0,
            },
            Request {
                input: 0,
                output: 2,
                pri: 1,
            },
        ];
        let mut g = Vec::new();
        alloc.allocate(&reqs, 3, &mut ip, &mut g);
        assert_eq!(g, vec![(0, 2)]);
        assert_eq!(ip[0], 0); // (2 + 1) % 3
    }
}
