//! The Moore bound: the most routers a network of a given degree and diameter can have.
//!
//! Undirected (Besta & Hoefler, SC14, §II-A, Koibuchi et al., 2018, §I): a router has at most d
//! neighbours, each of which has at most d − 1 further ones, so
//!
//! ```text
//! M(d, D) = 1 + d · Σ_{i=0}^{D-1} (d − 1)^i
//! ```
//!
//! Directed: a router reaches at most d^i routers at distance i, so M(d, D) = Σ_{i=0}^{D} d^i
//! = 1 + d + … + d^D. Koibuchi et al., 2018, §I prints "1 + Σ_{i=0}^{k} d^i", which counts the
//! router itself twice: the complete digraph on d + 1 routers (Kautz K(d, 1)) has diameter 1 and is
//! optimal, and only Σ_{i=0}^{D} d^i gives it 100 %; Koibuchi et al.'s (2018) own figures
//! (Kautz d = 8, k = 4: 4,608 routers, 98 %) agree with either. Exact integers; None when the
//! bound exceeds 2^128.

use crate::error::{Result, TopolabError};
use serde::Serialize;

/// The Moore bound, or None when it does not fit in 128 bits.
pub fn moore_bound(degree: u64, diameter: u32, directed: bool) -> Option<u128> {
    let d = degree as u128;
    let big_d = diameter as u128;
    if directed {
        // Σ_{i=0}^{D} d^i; with d ≥ 2 the loop overflows within 128 rounds.
        match d {
            0 => Some(1),
            1 => Some(1 + big_d),
            _ => {
                let (mut sum, mut power) = (1u128, 1u128);
                for _ in 0..diameter {
                    power = power.checked_mul(d)?;
                    sum = sum.checked_add(power)?;
                }
                Some(sum)
            }
        }
    } else {
        // 1 + d Σ_{i=0}^{D-1} (d-1)^i; with d ≥ 3 the loop overflows within 128 rounds.
        match d {
            _ if diameter == 0 => Some(1),
            0 => Some(1),
            1 => Some(2),
            2 => Some(1 + 2 * big_d),
            _ => {
                let (mut sum, mut power) = (0u128, 1u128);
                for i in 0..diameter {
                    if i > 0 {
                        power = power.checked_mul(d - 1)?;
                    }
                    sum = sum.checked_add(power)?;
                }
                sum.checked_mul(d)?.checked_add(1)
            }
        }
    }
}

/// The Moore bound or an error naming the parameters when it exceeds 128 bits.
pub fn moore_bound_checked(degree: u64, diameter: u32, directed: bool) -> Result<u128> {
    moore_bound(degree, diameter, directed).ok_or_else(|| {
        TopolabError::invalid(
            "Moore bound",
            "diameter",
            diameter,
            format!("a diameter whose bound for degree {degree} fits in 128 bits"),
        )
    })
}

/// The bound in floating point, for fractions when the exact bound overflows.
fn moore_bound_f64(degree: u64, diameter: u32, directed: bool) -> f64 {
    let d = degree as f64;
    let mut sum = 0.0;
    let mut power = 1.0;
    if directed {
        for _ in 0..=diameter {
            sum += power;
            power *= d;
        }
        sum
    } else {
        for _ in 0..diameter {
            sum += power;
            power *= d - 1.0;
        }
        1.0 + d * sum
    }
}

/// How close a network comes to the Moore bound at its network radix and diameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MooreFraction {
    /// Degree used: the network radix (router-to-router ports; out-ports when directed).
    pub degree: u32,
    pub diameter: u32,
    pub directed: bool,
    /// The bound, exact; None when it exceeds 2^128.
    pub bound: Option<u128>,
    /// routers / bound (1.0 for a Moore graph).
    pub fraction: f64,
}

pub fn moore_fraction(routers: usize, degree: u32, diameter: u32, directed: bool) -> MooreFraction {
    let bound = moore_bound(degree as u64, diameter, directed);
    let fraction = match bound {
        Some(b) => routers as f64 / b as f64,
        None => routers as f64 / moore_bound_f64(degree as u64, diameter, directed),
    };
    MooreFraction {
        degree,
        diameter,
        directed,
        bound,
        fraction,
    }
}
