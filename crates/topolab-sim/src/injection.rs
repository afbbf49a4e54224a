//! Where packets come from: a Bernoulli process per endpoint with a traffic pattern, a fixed
//! exchange (Kathareios et al., SC15, §4.4) sent back to back, or a message-level workload
//! (`crate::workload`).
//!
//! Bernoulli injection at rate p packets per endpoint per cycle: every cycle a packet is created
//! with probability p. The source queue is unbounded; as in BookSim2 it is kept lazily: an
//! endpoint holds at most the packet it is injecting, and creates the next one when that is
//! sent, stamped with the cycle the process produced it (BookSim2 `include_queuing`, qtime). So
//! memory stays constant past saturation and packet latency includes source queueing. Instead of
//! one coin per cycle, the gap to the next creation is drawn from the geometric distribution,
//! floor(ln U / ln(1 - p)) failed cycles: the same process, and idle endpoints cost nothing.
//! ln(1 - p) is computed as ln_1p(-p): below p of about 1e-16, 1 - p rounds to 1, whose
//! logarithm 0 made every gap 0, i.e. injection at full rate.

use crate::traffic::{Exchange, Traffic};
use crate::workload::BoundWorkload;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Cycle value meaning "never".
pub const NEVER: u64 = u64::MAX;

#[derive(Debug, Clone)]
pub enum Source {
    Bernoulli {
        traffic: Traffic,
        /// Packets per endpoint per cycle.
        rate: f64,
        /// ln(1 - rate), precomputed (exact for tiny rates, see the module comment).
        ln_q: f64,
    },
    Exchange(Arc<Exchange>),
    /// Messages sent when their dependencies have arrived (`crate::workload`).
    Workload(Arc<BoundWorkload>),
}

impl Source {
    pub fn bernoulli(traffic: Traffic, rate: f64) -> Source {
        Source::Bernoulli {
            traffic,
            rate,
            ln_q: (-rate).ln_1p(),
        }
    }

    /// Failed cycles before the next creation (0 at rate 1, NEVER at rate 0).
    #[inline]
    pub fn gap(&self, rng: &mut ChaCha8Rng) -> u64 {
        match self {
            Source::Bernoulli { rate, ln_q, .. } => geometric_gap(*rate, *ln_q, rng),
            Source::Exchange(_) | Source::Workload(_) => 0,
        }
    }
}

/// Failed cycles before the next creation of a Bernoulli process at `rate` (`ln_q` = ln(1 -
/// rate)): 0 at rate 1, NEVER at rate 0.
#[inline]
pub fn geometric_gap(rate: f64, ln_q: f64, rng: &mut ChaCha8Rng) -> u64 {
    if rate >= 1.0 {
        0
    } else if rate <= 0.0 {
        NEVER
    } else {
        let u: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
                                                // g >= 0, so the conversion's truncation is the floor (without a call to libm's
                                                // floor), and g >= 1e15 exactly when its floor is.
        let g = u.ln() / ln_q;
        if g >= 1e15 {
            NEVER
        } else {
            g as u64
        }
    }
}

/// Synthetic traffic beside a workload (`crate::workload`): a Bernoulli process at `rate`
/// packets per cycle on every endpoint no job uses.
#[derive(Debug, Clone)]
pub struct Background {
    pub traffic: Traffic,
    pub rate: f64,
    ln_q: f64,
}

impl Background {
    pub fn new(traffic: Traffic, rate: f64) -> Background {
        Background {
            traffic,
            rate,
            ln_q: (-rate).ln_1p(),
        }
    }

    #[inline]
    pub fn gap(&self, rng: &mut ChaCha8Rng) -> u64 {
        geometric_gap(self.rate, self.ln_q, rng)
    }
}
