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

/// Failures before the first success of a coin of probability `p` (NEVER for p = 0).
fn geometric(p: f64, rng: &mut ChaCha8Rng) -> u64 {
    if p >= 1.0 {
        0
    } else if p <= 0.0 {
        NEVER
    } else {
        let u: f64 = 1.0 - rng.random::<f64>();
        let g = u.ln() / (-p).ln_1p();
        if g >= 1e15 {
            NEVER
        } else {
            g as u64
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
            ln_q: (-rate).ln_1p(),
        }
    }

    /// Failed cycles before the next creation (0 at rate 1, NEVER at rate 0).
    #[inline]
    pub fn gap(&self, rng: &mut ChaCha8Rng) -> u64 {
        match self {
            Source::Bernoulli { rate, ln_q, .. } => geometric_gap(*rate, *ln_q, rng),
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
