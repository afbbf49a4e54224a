//! Traffic: who sends to whom. The simulator's engine asks a `Traffic` for the destination of
//! each new packet and runs an `Exchange` (fixed message lists) to completion; static analysis
//! reads the same patterns' rates (`traffic_demands`). One file per pattern:
//!
//! - `bits.rs`: bit permutations (bit complement, bit reverse, shuffle, rotation, transpose) on
//!   the largest power-of-two subset of endpoints (Besta & Hoefler, SC14, §V-B);
//! - `digits.rs`: digit permutations (tornado, neighbor);
//! - `randperm.rs`: a random permutation; `shift.rs`: the shift patterns (Besta & Hoefler, SC14,
//!   §V-B, Kathareios et al., SC15, §4.2);
//! - `hotspot.rs`: uniform traffic with a fraction sent to a few hot endpoints;
//! - `worst.rs`: `worst` and the `<family>_worst` patterns, whose constructions are in their
//!   families' files (`topology::<family>::worst_traffic`): Slim Fly (Besta & Hoefler, SC14, §V-C,
//!   Kathareios et al., SC15, §4.2), PolarFly (every router to a neighbour, Lakhotia et al., SC22),
//!   Dragonfly (group i to group i+1), fat tree (through the core), MLFM and OFT (shift patterns of
//!   Kathareios et al., SC15, §4.2);
//! - `exchange.rs`: the all-to-all and 3D nearest-neighbour exchanges of Kathareios et al., SC15,
//!   §4.4.
//!
//! Specs are written like topology specs, `name:key=value,...` (`shift:k=3`,
//! `hotspot:fraction=0.1,spots=4`); unknown names and parameters are rejected with the valid
//! ones listed. Everything a pattern needs is computed once in `parse`, so `destination` is O(1)
//! and allocation-free. Endpoint ids are the network's: contiguous router by router
//! (`Network::endpoint_router`). docs/traffic.md describes every pattern.

mod bits;
mod digits;
mod exchange;
mod hotspot;
mod randperm;
mod shift;
pub(crate) mod worst;

use std::fmt;
use std::sync::Arc;

use crate::rng::{stream, Stream};
use crate::routing::catalog;
use crate::routing::load::{needs_destinations, Demands};
use crate::topology::ParamDef;
use crate::{Network, Params, Result, TopolabError, TopologySpec};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub use exchange::{balanced_dims, Exchange, MessageOrder, EXCHANGES, MAX_LISTED_PACKETS};

/// Marks a source that sends nothing in a destination table.
pub(crate) const IDLE: u32 = u32::MAX;

/// A fixed destination per source endpoint (`IDLE` for sources that send nothing), shared
/// cheaply between clones. Debug prints a summary instead of every entry.
#[derive(Clone, PartialEq, Eq)]
pub struct DestTable(Arc<[u32]>);

impl DestTable {
    pub(crate) fn new(dest: Vec<u32>) -> Self {
        DestTable(dest.into())
    }

    #[inline]
    fn get(&self, src: u32) -> Option<u32> {
        match self.0.get(src as usize) {
            Some(&d) if d != IDLE => Some(d),
            _ => None,
        }
    }

    fn active(&self) -> usize {
        self.0.iter().filter(|&&d| d != IDLE).count()
    }
}

impl fmt::Debug for DestTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DestTable({} sources, {} active)",
            self.0.len(),
            self.active()
        )
    }
}

/// The bit permutations of Besta & Hoefler, SC14, §V-B and Dally & Towles (Table 9.1), on `b`-bit
/// addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitPattern {
    /// d_i = ¬s_i.
    Complement,
    /// d_i = s_{b-i-1}.
    Reverse,
    /// d_i = s_{(i-1) mod b}: rotate left by one.
    Shuffle,
    /// d_i = s_{(i+k) mod b}: rotate right by k.
    Rotation(u32),
    /// d_i = s_{(i+b/2) mod b} (b even): swap the address halves.
    Transpose,
}

/// A synthetic traffic pattern, resolved for one network. Enum dispatch: the engine calls
/// `destination` once per generated packet.
#[derive(Debug, Clone, PartialEq)]
pub enum Traffic {
    /// Destination uniform over all endpoints, the source itself included (BookSim2 `uniform`).
    Uniform { endpoints: u32 },
    /// A bit permutation on endpoints `0 .. 2^bits`; the others are idle (Besta & Hoefler, SC14,
    /// §V-B).
    Bits { pattern: BitPattern, bits: u32 },
    /// A fixed destination per source, precomputed (digit patterns, random permutation, shift
    /// by k, adversarial permutations). `name` is the canonical pattern name.
    Table { name: &'static str, dest: DestTable },
    /// Besta & Hoefler, SC14, §V-B shift: among the first 2·half endpoints, source s sends to `s
    /// mod half` or `s mod half + half` with probability 1/2 each.
    HalfShift { half: u32 },
    /// With probability `fraction` a hot spot (uniform among `spots`), else uniform over all
    /// `endpoints`.
    Hotspot {
        endpoints: u32,
        fraction: f64,
        spots: Arc<[u32]>,
    },
    /// A random member of a set chosen by the source (Dragonfly worst case: any endpoint of the
    /// next group). Set `set_of_source[s]` (IDLE: s sends nothing) holds
    /// `members[offsets[set] .. offsets[set + 1]]`.
    RandomInSet {
        name: &'static str,
        set_of_source: DestTable,
        offsets: Arc<[u32]>,
        members: Arc<[u32]>,
    },
}

/// One traffic pattern: canonical name, aliases, declared parameters and how it is built for a
/// network (from the parsed spec, the network and its endpoint count). Each pattern's file
/// declares its own; `PATTERNS` lists them.
#[derive(Clone, Copy)]
pub struct PatternDef {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub params: &'static [ParamDef],
    pub(crate) build: fn(&Spec, &Network, u32) -> Result<Traffic>,
}

/// Uniform random traffic (BookSim2 `uniform`).
pub const UNIFORM: PatternDef = PatternDef {
    name: "uniform",
    aliases: &["random", "uniform_random"],
    params: &[],
    build: |_, _, endpoints| Ok(Traffic::Uniform { endpoints }),
};

/// Every traffic pattern `Traffic::parse` accepts.
pub const PATTERNS: &[PatternDef] = &[
    UNIFORM,
    bits::BITCOMP,
    bits::BITREV,
    bits::SHUFFLE,
    bits::ROTATION,
    bits::TRANSPOSE,
    digits::TORNADO,
    digits::NEIGHBOR,
    randperm::RANDPERM,
    shift::SHIFT,
    hotspot::HOTSPOT,
    worst::WORST,
    crate::topology::slimfly::WORST_TRAFFIC,
    crate::topology::polarfly::WORST_TRAFFIC,
    crate::topology::dragonfly::WORST_TRAFFIC,
    crate::topology::fattree::WORST_TRAFFIC,
    crate::topology::mlfm::WORST_TRAFFIC,
    crate::topology::oft::WORST_TRAFFIC,
];

/// A parsed pattern or exchange spec: its canonical name and typed access to its parameters.
pub(crate) struct Spec {
    /// Canonical pattern name.
    pub name: &'static str,
    /// "traffic NAME" / "exchange NAME": the context of error messages.
    pub context: String,
    /// The spec as parsed (its `family` is the name as written).
    pub parsed: TopologySpec,
}

impl Spec {
    /// Typed access to the parameters (errors name this pattern).
    pub fn params(&self) -> Params<'_> {
        Params::new(&self.context, &self.parsed.params)
    }

    /// A parameter as the user wrote it, lower-cased, for word-valued parameters.
    pub fn text(&self, name: &str) -> Option<String> {
        self.parsed
            .params
            .get(name)
            .map(|v| v.to_string().trim().to_ascii_lowercase())
    }

    /// An error for parameter `name` with value `value`, naming what is allowed.
    pub fn invalid(&self, name: &str, value: impl ToString, allowed: &str) -> TopolabError {
        TopolabError::invalid(&self.context, name, value, allowed)
    }
}

/// Parses `name:key=value,...`, resolves `name` among `defs` (`canonical_name`) and
/// rejects parameters the pattern does not have. `kind` ("traffic", "exchange") and
/// `name_param` ("pattern", "exchange") name the setting in errors.
pub(crate) fn parse_spec(
    text: &str,
    kind: &str,
    name_param: &str,
    defs: &[(&'static str, &'static [&'static str], &'static [ParamDef])],
) -> Result<Spec> {
    let mut spec = TopologySpec::parse(text)?;
    spec.family = crate::spec::canonical_name(&spec.family);
    let Some(&(name, _, params)) = defs
        .iter()
        .find(|(n, aliases, _)| *n == spec.family || aliases.contains(&spec.family.as_str()))
    else {
        let valid: Vec<&str> = defs.iter().map(|d| d.0).collect();
        return Err(TopolabError::invalid(
            kind,
            name_param,
            format!("'{}'", spec.family),
            format!("one of: {}", valid.join(", ")),
        ));
    };
    let context = format!("{kind} {name}");
    let allowed: Vec<&str> = params.iter().map(|p| p.name).collect();
    for key in spec.params.keys() {
        if !allowed.contains(&key.as_str()) {
            return Err(TopolabError::UnknownParameter {
                context,
                param: key.clone(),
                valid: if allowed.is_empty() {
                    "(none)".to_string()
                } else {
                    allowed.join(", ")
                },
            });
        }
    }
    Ok(Spec {
        name,
        context,
        parsed: spec,
    })
}

/// Number of endpoints as u32, or an error for networks the simulator cannot address.
pub(crate) fn endpoint_count(net: &Network) -> Result<u32> {
    let n = net.num_endpoints();
    if n == 0 {
        return Err(TopolabError::InvalidNetwork(
            "the network has no endpoints, so there is no traffic to generate".into(),
        ));
    }
    u32::try_from(n).ok().filter(|&n| n != IDLE).ok_or_else(|| {
        TopolabError::InvalidNetwork(format!(
            "{n} endpoints: at most {} can be simulated",
            IDLE - 1
        ))
    })
}

/// First endpoint id of every router, plus the total at the end (ids are contiguous router by
/// router).
pub(crate) fn endpoint_offsets(net: &Network) -> Vec<u32> {
    let mut offsets = Vec::with_capacity(net.num_routers() + 1);
    let mut sum = 0u32;
    offsets.push(0);
    for &e in net.endpoints() {
        sum += e;
        offsets.push(sum);
    }
    offsets
}

/// The random stream from which pattern `salt` draws its construction (random permutation,
/// message order). Index bit 47 keeps these streams apart from the per-endpoint traffic streams
/// an engine derives from the simulation seed with small indices.
pub(crate) fn pattern_rng(seed: u64, salt: u64) -> ChaCha8Rng {
    stream(seed, Stream::Traffic, (1 << 47) | salt)
}

/// Every traffic pattern `Traffic::parse` accepts, with its declared parameters, for help texts,
/// documentation and completion.
pub fn catalog() -> &'static [PatternDef] {
    PATTERNS
}

/// The router-level traffic matrix of a traffic spec (`uniform`, `shift:k=3`,
/// `worst`, ...) for static channel loads of `routing` (a catalog spec): the expected rates of
/// `Traffic::destination`, by destination endpoint too where the routing takes a bundle's port
/// by it. With `max_pairs`, a pattern of more router pairs is an error
/// (`Demands::from_endpoint_rates`).
pub fn traffic_demands(
    net: &Network,
    traffic: &str,
    routing: &str,
    max_pairs: Option<usize>,
) -> Result<Demands> {
    let t = Traffic::parse(traffic, net)?;
    let by_destination = needs_destinations(net, catalog::reading_ports(routing)?);
    let mut tmp = Vec::new();
    Demands::from_endpoint_rates(net, max_pairs, by_destination, |i, out| {
        tmp.clear();
        t.rates(i as u32, &mut tmp);
        out.extend(tmp.iter().map(|&(d, w)| (d as u64, w)));
    })
}

impl Traffic {
    /// The pattern named by `spec` (e.g. "uniform", "shift:k=3", "hotspot:fraction=0.1") for
    /// `net`. All randomness of the pattern itself (random permutation) comes from the spec's
    /// own `seed`, never from the simulation seed, so the same spec always gives the same
    /// pattern.
    pub fn parse(spec: &str, net: &Network) -> Result<Traffic> {
        let defs: Vec<_> = PATTERNS
            .iter()
            .map(|d| (d.name, d.aliases, d.params))
            .collect();
        let spec = parse_spec(spec, "traffic", "pattern", &defs)?;
        let endpoints = endpoint_count(net)?;
        let def = PATTERNS
            .iter()
            .find(|d| d.name == spec.name)
            .expect("parse_spec returns a catalog name");
        (def.build)(&spec, net, endpoints)
    }

    /// Destination endpoint of a new packet from `src`, or None when `src` sends nothing under
    /// this pattern (e.g. outside the power-of-two subset of a bit permutation, or `src` out of
    /// range).
    // Always inlined: the simulator's packet creation calls it once per packet, and the
    // compiler's own choice leaves it out of line once a second caller exists (1% more
    // instructions per flit-hop, callgrind).
    #[inline(always)]
    pub fn destination(&self, src: u32, rng: &mut ChaCha8Rng) -> Option<u32> {
        match self {
            Traffic::Uniform { endpoints } => {
                (src < *endpoints).then(|| rng.random_range(0..*endpoints))
            }
            Traffic::Bits { pattern, bits } => bits::bit_destination(*pattern, *bits, src),
            Traffic::Table { dest, .. } => dest.get(src),
            Traffic::HalfShift { half } => {
                if src >= 2 * half {
                    return None;
                }
                let base = src % half;
                Some(if rng.random::<bool>() {
                    base + half
                } else {
                    base
                })
            }
            Traffic::Hotspot {
                endpoints,
                fraction,
                spots,
            } if src < *endpoints => Some(if rng.random::<f64>() < *fraction {
                spots[rng.random_range(0..spots.len())]
            } else {
                rng.random_range(0..*endpoints)
            }),
            Traffic::Hotspot { .. } => None,
            Traffic::RandomInSet {
                set_of_source,
                offsets,
                members,
                ..
            } => {
                let set = set_of_source.get(src)? as usize;
                let (lo, hi) = (offsets[set], offsets[set + 1]);
                Some(members[rng.random_range(lo..hi) as usize])
            }
        }
    }

    /// The destinations of `src` with their probabilities (the distribution `destination`
    /// draws from), appended to `out`; nothing when `src` is idle. For static channel loads.
    pub fn rates(&self, src: u32, out: &mut Vec<(u32, f64)>) {
        match self {
            Traffic::Uniform { endpoints } if src < *endpoints => {
                let w = 1.0 / *endpoints as f64;
                out.extend((0..*endpoints).map(|d| (d, w)));
            }
            Traffic::Uniform { .. } => {}
            Traffic::Bits { pattern, bits } => {
                out.extend(bits::bit_destination(*pattern, *bits, src).map(|d| (d, 1.0)))
            }
            Traffic::Table { dest, .. } => out.extend(dest.get(src).map(|d| (d, 1.0))),
            Traffic::HalfShift { half } if src < 2 * half => {
                out.push((src % half, 0.5));
                out.push((src % half + half, 0.5));
            }
            Traffic::HalfShift { .. } => {}
            Traffic::Hotspot {
                endpoints,
                fraction,
                spots,
            } if src < *endpoints => {
                let w = (1.0 - fraction) / *endpoints as f64;
                out.extend((0..*endpoints).map(|d| (d, w)));
                let h = fraction / spots.len() as f64;
                out.extend(spots.iter().map(|&d| (d, h)));
            }
            Traffic::Hotspot { .. } => {}
            Traffic::RandomInSet {
                set_of_source,
                offsets,
                members,
                ..
            } => {
                if let Some(set) = set_of_source.get(src) {
                    let (lo, hi) = (offsets[set as usize], offsets[set as usize + 1]);
                    let w = 1.0 / (hi - lo) as f64;
                    out.extend(members[lo as usize..hi as usize].iter().map(|&d| (d, w)));
                }
            }
        }
    }

    /// Canonical name of the pattern ("uniform", "bitcomp", "slimfly_worst", ...).
    pub fn name(&self) -> &'static str {
        match self {
            Traffic::Uniform { .. } => "uniform",
            Traffic::Bits { pattern, .. } => match pattern {
                BitPattern::Complement => "bitcomp",
                BitPattern::Reverse => "bitrev",
                BitPattern::Shuffle => "shuffle",
                BitPattern::Rotation(_) => "rotation",
                BitPattern::Transpose => "transpose",
            },
            Traffic::Table { name, .. } | Traffic::RandomInSet { name, .. } => name,
            Traffic::HalfShift { .. } => "shift",
            Traffic::Hotspot { .. } => "hotspot",
        }
    }

    /// Whether `src` generates packets under this pattern (false for idle endpoints). Does
    /// not draw random numbers; engines may use it to skip idle sources.
    pub fn is_source(&self, src: u32) -> bool {
        match self {
            Traffic::Uniform { endpoints } | Traffic::Hotspot { endpoints, .. } => src < *endpoints,
            Traffic::Bits { pattern, bits } => {
                bits::bit_destination(*pattern, *bits, src).is_some()
            }
            Traffic::Table { dest, .. } => dest.get(src).is_some(),
            Traffic::HalfShift { half } => src < 2 * half,
            Traffic::RandomInSet { set_of_source, .. } => set_of_source.get(src).is_some(),
        }
    }
}
