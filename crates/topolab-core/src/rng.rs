//! Seeded random streams. Every random choice in topolab comes from one user seed split into
//! independent streams by purpose, so that e.g. changing the traffic does not change the
//! network built from the same seed. ChaCha8 is used because its output is fixed by its
//! specification, not by a library version.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Stream {
    Construction = 1,
    Traffic = 2,
    Injection = 3,
    Routing = 4,
    Failures = 5,
    Partition = 6,
}

/// The generator for `purpose`, seeded by `seed`; `index` separates repeated uses of the same
/// purpose (instance number, sample number, thread-independent work item).
pub fn stream(seed: u64, purpose: Stream, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream((purpose as u64) << 48 | (index & 0xFFFF_FFFF_FFFF));
    rng
}
