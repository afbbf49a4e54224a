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
//! logarithm 0 made every gap 0, i.e. injection at full rate. The common short gaps are read
//! from a table of thresholds on the generator's draw instead of calling the logarithm
//! (`Geometric`), with the formula's results bit for bit.
//!
//! On/off injection (BookSim2's `injection_process = on_off`, injection.cpp,
//! OnOffInjectionProcess::test): every cycle each endpoint's state first moves, off -> on with
//! probability alpha and on -> off with beta, then an endpoint that is on creates a packet with
//! probability r1. Its mean rate is r1 alpha / (alpha + beta), so BookSim2 derives the one of
//! the three given as negative from the other two and the rate (r1 = rate (alpha + beta) /
//! alpha by default); each endpoint starts on or off with probability 1/2. The gaps are drawn
//! in runs rather than per cycle, as for Bernoulli: while on, the cycles until the endpoint
//! either turns off or creates are geometric with probability beta + (1 - beta) r1, and the
//! event is a creation with probability (1 - beta) r1 over that; while off, the cycles until it
//! turns on are geometric with probability alpha, and that cycle creates with probability r1.
//! An endpoint is on right after a creation, so the state needs no storage between packets.

use crate::config::{InjectionProcess, SimConfig};
use crate::error::{Result, SimError};
use crate::traffic::{Exchange, Traffic};
use crate::workload::BoundWorkload;
use rand::{Rng, RngCore};
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
        /// The gaps between creations.
        gaps: Geometric,
    },
    /// Bursts: BookSim2's on/off process (module comment).
    OnOff {
        traffic: Traffic,
        process: OnOff,
    },
    /// Request-reply traffic (BookSim2's `use_read_write`): `requests` (Bernoulli or on/off)
    /// creates the requests; each reply is created at the request's destination when its tail
    /// arrives (router/endpoint.rs).
    RequestReply {
        requests: Box<Source>,
        sizes: ReadWrite,
    },
    Exchange(Arc<Exchange>),
    /// Messages sent when their dependencies have arrived (`crate::workload`).
    Workload(Arc<BoundWorkload>),
}

/// Packet sizes of request-reply traffic, in flits, and the share of writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadWrite {
    pub write_fraction: f64,
    pub read_request: u32,
    pub read_reply: u32,
    pub write_request: u32,
    pub write_reply: u32,
}

/// The on/off process's probabilities per cycle, with everything derived from the rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OnOff {
    /// Packets per endpoint per cycle, on average.
    pub rate: f64,
    /// Off -> on.
    pub alpha: f64,
    /// On -> off.
    pub beta: f64,
    /// A packet per cycle while on.
    pub r1: f64,
}

impl OnOff {
    /// BookSim2's rule (OnOffInjectionProcess's constructor): the one of `alpha`, `beta`, `r1`
    /// that is negative is derived so that the mean rate is `rate`. Derived values outside
    /// [0, 1] (a rate the bursts cannot reach, which BookSim2 would run at a lower rate
    /// without a word) are an error naming the parameter.
    pub fn new(rate: f64, alpha: f64, beta: f64, r1: f64) -> Result<OnOff> {
        let negatives = [alpha, beta, r1].iter().filter(|&&x| x < 0.0).count();
        if negatives != 1 {
            return Err(SimError::param(
                "burst_r1",
                r1,
                format!(
                    "exactly one of burst_alpha ({alpha}), burst_beta ({beta}) and burst_r1 \
                     negative (the one derived from the others and the load)"
                ),
            ));
        }
        let (name, value) = if alpha < 0.0 {
            ("burst_alpha", beta * rate / (r1 - rate))
        } else if beta < 0.0 {
            ("burst_beta", alpha * (r1 - rate) / rate)
        } else {
            ("burst_r1", rate * (alpha + beta) / alpha)
        };
        if rate > 0.0 && !(0.0..=1.0).contains(&value) {
            let reach = if alpha < 0.0 || beta < 0.0 {
                format!("burst_r1 = {r1} above the rate")
            } else {
                format!(
                    "a load of at most burst_alpha / (burst_alpha + burst_beta) = {:.4} packets \
                     per endpoint per cycle",
                    alpha / (alpha + beta)
                )
            };
            return Err(SimError::param(
                name,
                format!("{value} (derived from the rate {rate} packets per endpoint per cycle)"),
                format!("a probability from 0 to 1: on/off injection with these parameters needs {reach}"),
            ));
        }
        // The gaps are drawn one on or off period at a time; a packet probability this small
        // would take millions of periods per packet.
        let r1_final = if name == "burst_r1" { value } else { r1 };
        if rate > 0.0 && r1_final < MIN_R1 {
            return Err(SimError::param(
                "burst_r1",
                r1_final,
                format!("at least {MIN_R1} with on/off injection at a load above 0 (raise the load or burst_r1)"),
            ));
        }
        let mut p = OnOff {
            rate,
            alpha,
            beta,
            r1,
        };
        if rate <= 0.0 {
            // No packets: r1 = 0 whatever the burst parameters.
            p.r1 = 0.0;
            p.alpha = alpha.max(0.0);
            p.beta = beta.max(0.0);
        } else if alpha < 0.0 {
            p.alpha = value;
        } else if beta < 0.0 {
            p.beta = value;
        } else {
            p.r1 = value;
        }
        Ok(p)
    }

    /// Cycles without a creation before the next one, from the state at the end of the cycle
    /// before the first of them (`on`), or NEVER.
    pub fn gap(&self, mut on: bool, rng: &mut ChaCha8Rng) -> u64 {
        if self.r1 <= 0.0 {
            return NEVER;
        }
        let create_on = (1.0 - self.beta) * self.r1;
        let event_on = self.beta + create_on;
        let mut t: u64 = 0;
        loop {
            if t >= 1_000_000_000_000_000 {
                return NEVER;
            }
            if on {
                // Cycles until the endpoint turns off or creates.
                t = t.saturating_add(geometric(event_on, rng));
                if t == NEVER {
                    return NEVER;
                }
                if rng.random::<f64>() * event_on < create_on {
                    return t;
                }
                on = false;
            } else {
                t = t.saturating_add(geometric(self.alpha, rng));
                if t == NEVER {
                    return NEVER;
                }
                if rng.random::<f64>() < self.r1 {
                    return t;
                }
                on = true;
            }
            t += 1;
        }
    }
}

/// The least packet probability while on that on/off injection accepts (`OnOff::new`).
pub const MIN_R1: f64 = 1e-6;

/// Failures before the first success of a coin of probability `p` (NEVER for p = 0), by the
/// formula alone (`Geometric` for a probability used for many draws).
fn geometric(p: f64, rng: &mut ChaCha8Rng) -> u64 {
    if p >= 1.0 {
        0
    } else if p <= 0.0 {
        NEVER
    } else {
        gap_of_draw(draw53(rng), (-p).ln_1p())
    }
}

/// The generator's next 53 random bits, x: rand's uniform f64 in [0, 1) is x 2^-53 (rand's
/// `StandardUniform`, the multiply-based method; `draw_is_rands_f64` checks it).
#[inline]
fn draw53(rng: &mut ChaCha8Rng) -> u64 {
    rng.next_u64() >> 11
}

/// floor(ln U / ln_q) for U = 1 - x 2^-53 in (0, 1] (exact: an integer of at most 53 bits
/// times a power of two), NEVER from 10^15 on.
#[inline]
fn gap_of_draw(x: u64, ln_q: f64) -> u64 {
    let u = 1.0 - x as f64 * DRAW_SCALE;
    // g >= 0, so the conversion's truncation is the floor (without a call to libm's floor),
    // and g >= 1e15 exactly when its floor is.
    let g = u.ln() / ln_q;
    if g >= 1e15 {
        NEVER
    } else {
        g as u64
    }
}

/// 2^-53, rand's scale of a 53-bit draw to [0, 1).
const DRAW_SCALE: f64 = 1.0 / (1u64 << 53) as f64;

/// Draws below 2^53.
const DRAWS: u64 = 1 << 53;

/// The geometric distribution of the cycles without a creation before the next one, for a
/// creation probability `p` per cycle: floor(ln U / ln(1 - p)) (module comment).
///
/// Most gaps are short, and `sample` reads them from `thresholds` instead of calling the
/// logarithm (about 50 instructions a packet). U = 1 - x 2^-53 falls as the draw x rises, so
/// the gap is a non-decreasing function of x: it is k or more exactly when x is at least
/// `thresholds[k - 1]`. `new` finds each threshold with the formula itself (a bisection over
/// x) and checks the formula against the table on the `WINDOW` draws either side of it, where
/// a logarithm rounded differently could cross the integer; farther away the quotient lies
/// further from the integer than the rounding of the logarithm (within one unit in the last
/// place) and of the division can move it (see `new`). If a check fails the table is dropped
/// and every draw takes the formula. Either way `sample` returns the formula's value for every
/// draw, bit for bit; draws past the last threshold take the formula.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometric {
    p: f64,
    /// ln(1 - p) as ln_1p(-p) (exact for tiny p, module comment).
    ln_q: f64,
    thresholds: Vec<u64>,
}

impl Geometric {
    /// Draws either side of each threshold checked against the formula.
    const WINDOW: u64 = 32;
    /// At most this many thresholds (the gaps 1..=64 from the table).
    const MAX_THRESHOLDS: usize = 64;

    pub fn new(p: f64) -> Geometric {
        let ln_q = (-p).ln_1p();
        let mut g = Geometric {
            p,
            ln_q,
            thresholds: Vec::new(),
        };
        if !(p > 0.0 && p < 1.0) {
            return g;
        }
        // Thresholds until a gap has probability (1 - p)^k below 1/64 (the rest take the
        // formula), at most MAX_THRESHOLDS.
        let wanted = ((1.0f64 / 64.0).ln() / ln_q).ceil();
        let wanted = if wanted.is_finite() {
            (wanted as usize).clamp(1, Self::MAX_THRESHOLDS)
        } else {
            Self::MAX_THRESHOLDS
        };
        let gap = |x: u64| gap_of_draw(x, ln_q);
        // The longest gap a draw gives: no threshold beyond it.
        let longest = gap(DRAWS - 1);
        let mut lo = 0u64;
        for k in 1..=(wanted as u64).min(longest) {
            // The least draw from `lo` on whose gap is at least k.
            let mut hi = DRAWS - 1;
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if gap(mid) >= k {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            g.thresholds.push(lo);
        }
        // Away from the thresholds: the quotient ln U / ln(1 - p) rises by 2^-53 / (U |ln(1 -
        // p)|) per draw, and near the integer k, U is near (1 - p)^k; a unit in the last place
        // of k is about k 2^-52, and k (1 - p)^k |ln(1 - p)| <= 1 / e, so each draw moves the
        // quotient by at least e / 2 of those units and WINDOW draws by over 40, against the
        // 2 or so the rounding of the logarithm and the division can move it.
        let agrees = g.thresholds.iter().all(|&t| {
            let from = t.saturating_sub(Self::WINDOW);
            let to = (t + Self::WINDOW).min(DRAWS - 1);
            (from..=to).all(|x| g.tabled_gap(x).is_none_or(|k| k == gap(x)))
        });
        if !agrees {
            g.thresholds.clear();
        }
        g
    }

    /// The gap of draw `x` from the table, None past its last threshold.
    #[inline]
    fn tabled_gap(&self, x: u64) -> Option<u64> {
        let last = *self.thresholds.last()?;
        if x >= last {
            return None;
        }
        // Short gaps are the common ones: a scan from the first threshold.
        Some(self.thresholds.iter().take_while(|&&t| t <= x).count() as u64)
    }

    /// The next gap: 0 for p >= 1, NEVER for p <= 0 (neither draws).
    #[inline]
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> u64 {
        if self.p >= 1.0 {
            0
        } else if self.p <= 0.0 {
            NEVER
        } else {
            let x = draw53(rng);
            match self.tabled_gap(x) {
                Some(k) => k,
                None => gap_of_draw(x, self.ln_q),
            }
        }
    }
}

impl Source {
    /// The source of a run of `traffic` at `rate` packets per endpoint per cycle, with the
    /// injection process `cfg` names.
    pub fn for_pattern(traffic: Traffic, rate: f64, cfg: &SimConfig) -> Result<Source> {
        let source = match cfg.injection_process {
            InjectionProcess::Bernoulli => Source::bernoulli(traffic, rate),
            InjectionProcess::OnOff => Source::OnOff {
                traffic,
                process: OnOff::new(rate, cfg.burst_alpha, cfg.burst_beta, cfg.burst_r1)?,
            },
        };
        Ok(if cfg.use_read_write {
            Source::RequestReply {
                requests: Box::new(source),
                sizes: ReadWrite {
                    write_fraction: cfg.write_fraction,
                    read_request: cfg.read_request_size,
                    read_reply: cfg.read_reply_size,
                    write_request: cfg.write_request_size,
                    write_reply: cfg.write_reply_size,
                },
            }
        } else {
            source
        })
    }

    pub fn bernoulli(traffic: Traffic, rate: f64) -> Source {
        Source::Bernoulli {
            traffic,
            rate,
            gaps: Geometric::new(rate),
        }
    }

    /// Failed cycles before the next creation (0 at rate 1, NEVER at rate 0).
    #[inline]
    pub fn gap(&self, rng: &mut ChaCha8Rng) -> u64 {
        match self {
            Source::Bernoulli { gaps, .. } => gaps.sample(rng),
            // Right after a creation the endpoint is on.
            Source::OnOff { process, .. } => process.gap(true, rng),
            Source::RequestReply { requests, .. } => requests.gap(rng),
            Source::Exchange(_) | Source::Workload(_) => 0,
        }
    }

    /// The traffic pattern of the requests of request-reply traffic.
    pub fn request_pattern(&self) -> Option<&Traffic> {
        match self {
            Source::RequestReply { requests, .. } => match &**requests {
                Source::Bernoulli { traffic, .. } | Source::OnOff { traffic, .. } => Some(traffic),
                _ => None,
            },
            _ => None,
        }
    }

    /// Failed cycles before an endpoint's first creation: for on/off, from a state drawn on or
    /// off with probability 1/2 (BookSim2's initial state, drawn again when a run restarts).
    pub fn first_gap(&self, rng: &mut ChaCha8Rng) -> u64 {
        match self {
            Source::OnOff { process, .. } => {
                let on = rng.random::<bool>();
                process.gap(on, rng)
            }
            Source::RequestReply { requests, .. } => requests.first_gap(rng),
            _ => self.gap(rng),
        }
    }
}

/// Synthetic traffic beside a workload (`crate::workload`): a Bernoulli process at `rate`
/// packets per cycle on every endpoint no job uses.
#[derive(Debug, Clone)]
pub struct Background {
    pub traffic: Traffic,
    pub rate: f64,
    gaps: Geometric,
}

impl Background {
    pub fn new(traffic: Traffic, rate: f64) -> Background {
        Background {
            traffic,
            rate,
            gaps: Geometric::new(rate),
        }
    }

    #[inline]
    pub fn gap(&self, rng: &mut ChaCha8Rng) -> u64 {
        self.gaps.sample(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The gap as it was drawn before the table: rand's f64, its logarithm and the division.
    fn by_logarithm(p: f64, rng: &mut ChaCha8Rng) -> u64 {
        let u: f64 = 1.0 - rng.random::<f64>();
        let g = u.ln() / (-p).ln_1p();
        if g >= 1e15 {
            NEVER
        } else {
            g as u64
        }
    }

    const RATES: [f64; 14] = [
        1e-12,
        1e-6,
        1e-3,
        0.01,
        0.05,
        0.1,
        0.25,
        0.3,
        0.5,
        0.7,
        0.9,
        0.99,
        0.999999,
        0.9999999999,
    ];

    #[test]
    fn draw_is_rands_f64() {
        let mut a = ChaCha8Rng::seed_from_u64(11);
        let mut b = a.clone();
        for _ in 0..10_000 {
            let f: f64 = a.random();
            assert_eq!(f, draw53(&mut b) as f64 * DRAW_SCALE);
        }
    }

    /// Seeded streams give the same gaps as the logarithm, draw for draw, and leave the
    /// generator in the same state.
    #[test]
    fn gaps_are_the_logarithms() {
        for (i, &p) in RATES.iter().enumerate() {
            let g = Geometric::new(p);
            let mut a = ChaCha8Rng::seed_from_u64(i as u64);
            let mut b = a.clone();
            for _ in 0..50_000 {
                assert_eq!(g.sample(&mut a), by_logarithm(p, &mut b), "p = {p}");
            }
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    /// Around every threshold, where a rounding could tell, the table gives the logarithm's
    /// gap for each draw (a wider band than the one `new` checks).
    #[test]
    fn thresholds_are_exact() {
        for &p in &RATES {
            let g = Geometric::new(p);
            for &t in &g.thresholds {
                for x in t.saturating_sub(500)..(t + 500).min(DRAWS) {
                    let u = 1.0 - (x as f64) * (1.0 / (1u64 << 53) as f64);
                    let want = (u.ln() / (-p).ln_1p()) as u64;
                    let got = g.tabled_gap(x).unwrap_or_else(|| gap_of_draw(x, g.ln_q));
                    assert_eq!(got, want, "p = {p}, draw {x}, threshold {t}");
                }
            }
        }
    }

    /// The table serves the common rates (else the formula runs for every packet, correct but
    /// without the saving), and holds gaps up to a 1/64 tail or 64 entries.
    #[test]
    fn common_rates_have_a_table() {
        for p in [0.01, 0.1, 0.5, 0.9, 0.99] {
            let g = Geometric::new(p);
            let want = (((1.0f64 / 64.0).ln() / (-p).ln_1p()).ceil() as usize).clamp(1, 64);
            assert_eq!(g.thresholds.len(), want, "p = {p}");
            assert!(g.thresholds.windows(2).all(|w| w[0] < w[1]));
        }
        assert!(Geometric::new(0.0).thresholds.is_empty());
        assert!(Geometric::new(1.0).thresholds.is_empty());
    }

    /// The gaps have the geometric distribution's mean (1 - p) / p and P(gap = 0) = p.
    #[test]
    fn gaps_are_geometric() {
        for p in [0.05, 0.3, 0.8] {
            let g = Geometric::new(p);
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            let n = 200_000;
            let (mut sum, mut zeros) = (0u64, 0u64);
            for _ in 0..n {
                let k = g.sample(&mut rng);
                sum += k;
                zeros += (k == 0) as u64;
            }
            let mean = sum as f64 / n as f64;
            let want = (1.0 - p) / p;
            // Five standard errors: the variance is (1 - p) / p^2.
            let tol = 5.0 * ((1.0 - p) / (p * p) / n as f64).sqrt();
            assert!(
                (mean - want).abs() < tol,
                "p = {p}: mean {mean}, want {want}"
            );
            let share = zeros as f64 / n as f64;
            assert!((share - p).abs() < 5.0 * (p * (1.0 - p) / n as f64).sqrt());
        }
        assert_eq!(
            Geometric::new(0.0).sample(&mut ChaCha8Rng::seed_from_u64(1)),
            NEVER
        );
        assert_eq!(
            Geometric::new(1.0).sample(&mut ChaCha8Rng::seed_from_u64(1)),
            0
        );
    }
}
