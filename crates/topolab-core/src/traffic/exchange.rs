//! Fixed workloads (Kathareios et al., SC15, §4.4): one all-to-all exchange and one 3D
//! nearest-neighbour exchange, one process per endpoint with the contiguous mapping (process rank =
//! endpoint id; the network's endpoint order is router by router, which for Slim Fly, MLFM and OFT
//! is the "intra-router, then intra-column / intra-layer, then subgraph / inter-layer" order
//! Kathareios et al., SC15, §4.4 describes).
//!
//! Message sizes follow Kathareios et al., SC15, §4.1: 256-byte packets, 7.5 KB (30 packets) per
//! all-to-all message and 512 KB per nearest-neighbour message (KB = 1024 bytes: 30 × 256 = 7,680 =
//! 7.5 KB).

use super::{endpoint_count, parse_spec, pattern_rng, Spec};
use crate::topology::{ParamDef, ParamKind};
use crate::{Network, Result, TopolabError};
use rand::seq::SliceRandom;

/// Packet size of Kathareios et al., SC15, §4.1.
pub const DEFAULT_PACKET_BYTES: u64 = 256;
/// All-to-all message size of Kathareios et al., SC15, §4.1 (7.5 KB = 30 packets of 256 bytes).
pub const ALLTOALL_MESSAGE_BYTES: u64 = 7_680;
/// Nearest-neighbour message size of Kathareios et al., SC15, §4.1 (512 KB).
pub const NN_MESSAGE_BYTES: u64 = 512 * 1024;
/// Largest number of messages an exchange may hold (8 bytes each: 1 GiB). An all-to-all over
/// N endpoints has N(N-1) messages, so this allows N up to about 11,585.
pub const MAX_MESSAGES: u64 = 1 << 27;

/// Packets of one listed exchange in all: at the simulator's tens of thousands of flits a second
/// per core an hour's work, and a bound on what a typo (10**9 for 10**3) can ask.
pub const MAX_LISTED_PACKETS: u64 = 100_000_000;

/// A fixed workload (Kathareios et al., SC15, §4.4): for each source endpoint, the messages it
/// sends, as (destination endpoint, packets), and how their packets follow each other. The
/// engine runs it to completion.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Exchange {
    /// The canonical spec with every parameter resolved, e.g.
    /// "nn3d:dims=13x13x20,packets=2048,interleave=true".
    pub name: String,
    pub per_source: Vec<Vec<(u32, u32)>>,
    pub order: MessageOrder,
}

/// How a source's packets follow its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MessageOrder {
    /// Each message whole, one after another, in the listed order (a blocking send per
    /// message).
    #[default]
    Sequential,
    /// One packet of each message in turn: packet k goes to message k mod m. What a halo
    /// exchange that posts all its sends at once (MPI_Isend to every neighbour, then one wait)
    /// puts on the wire. Every message of a source must have the same number of packets.
    Interleaved,
}

impl MessageOrder {
    /// The order of a spec's `interleave` flag (default true).
    fn of_spec(s: &Spec) -> Result<MessageOrder> {
        Ok(match s.params().opt_bool("interleave")? {
            Some(false) => MessageOrder::Sequential,
            _ => MessageOrder::Interleaved,
        })
    }

    /// The spec parameter that gives this order.
    fn spec_text(self) -> &'static str {
        match self {
            MessageOrder::Sequential => "interleave=false",
            MessageOrder::Interleaved => "interleave=true",
        }
    }

    /// Interleaved order needs every message of a source to be the same size: the first source
    /// where they differ, as (source, packets of its first message, the differing size).
    pub fn unequal_sizes(per_source: &[Vec<(u32, u32)>]) -> Option<(usize, u32, u32)> {
        per_source.iter().enumerate().find_map(|(src, msgs)| {
            let first = msgs.first()?.1;
            msgs.iter()
                .find(|&&(_, p)| p != first)
                .map(|&(_, p)| (src, first, p))
        })
    }
}

/// Every exchange's message order (`MessageOrder`).
const INTERLEAVE: ParamDef = ParamDef {
    name: "interleave",
    kind: ParamKind::Bool,
    default: Some("true"),
    help: "true: one packet of each message in turn (sends posted together); false: each \
           message whole, one after another",
};

/// The exchanges: name, aliases, declared parameters.
pub const EXCHANGES: &[(&str, &[&str], &[ParamDef])] = &[
    (
        "alltoall",
        &["a2a", "all_to_all"],
        &[
            ParamDef {
                name: "packets",
                kind: ParamKind::Int,
                default: Some("30"),
                help: "packets per message (7.5 KB of 256-byte packets)",
            },
            ParamDef {
                name: "bytes",
                kind: ParamKind::Int,
                default: Some("7680"),
                help: "message size in bytes (instead of packets)",
            },
            ParamDef {
                name: "packet_bytes",
                kind: ParamKind::Int,
                default: Some("256"),
                help: "bytes per packet, with bytes",
            },
            ParamDef {
                name: "order",
                kind: ParamKind::Text,
                default: Some("random"),
                help: "random or shift: the order of each source's destinations",
            },
            ParamDef {
                name: "seed",
                kind: ParamKind::Int,
                default: Some("0"),
                help: "seed of the random order",
            },
            INTERLEAVE,
        ],
    ),
    (
        "nn3d",
        &["nn", "nearest_neighbor", "nearest_neighbour"],
        &[
            ParamDef {
                name: "dims",
                kind: ParamKind::Dims,
                default: Some("a balanced 3D grid of the endpoints"),
                help: "process grid AxBxC",
            },
            ParamDef {
                name: "packets",
                kind: ParamKind::Int,
                default: Some("2048"),
                help: "packets per message (512 KB of 256-byte packets)",
            },
            ParamDef {
                name: "bytes",
                kind: ParamKind::Int,
                default: Some("524288"),
                help: "message size in bytes (instead of packets)",
            },
            ParamDef {
                name: "packet_bytes",
                kind: ParamKind::Int,
                default: Some("256"),
                help: "bytes per packet, with bytes",
            },
            INTERLEAVE,
        ],
    ),
];

impl Exchange {
    /// Every exchange name `parse` accepts.
    pub const NAMES: &'static [&'static str] = &["alltoall", "nn3d"];

    /// The exchange named by `spec` for `net`: `alltoall[:packets=30,order=random,seed=0]` or
    /// `nn3d[:dims=AxBxC,packets=2048]`, each with `interleave` (true); sizes may also be given
    /// as `bytes` (message) and `packet_bytes` (default 256), packets = ceil(bytes /
    /// packet_bytes).
    pub fn parse(spec: &str, net: &Network) -> Result<Exchange> {
        let spec = parse_spec(spec, "exchange", "name", EXCHANGES)?;
        let endpoints = endpoint_count(net)?;
        match spec.name {
            "alltoall" => all_to_all(&spec, endpoints),
            _ => nearest_neighbor(&spec, endpoints),
        }
    }

    /// An exchange a caller lists (`per_source[s]`: the (destination endpoint, packets)
    /// messages endpoint `s` sends, in order) on a network of `endpoints` endpoints: at most
    /// one list per endpoint, destinations among the endpoints, at most MAX_LISTED_PACKETS
    /// packets in all.
    pub fn listed(
        name: &str,
        per_source: Vec<Vec<(u32, u32)>>,
        endpoints: u64,
    ) -> Result<Exchange> {
        let context = "run_exchange";
        if per_source.len() as u64 > endpoints {
            return Err(TopolabError::invalid(
                context,
                "per_source",
                format!("{} sources", per_source.len()),
                format!("at most one list per endpoint ({endpoints})"),
            ));
        }
        let mut total = 0u64;
        for &(destination, packets) in per_source.iter().flatten() {
            if destination as u64 >= endpoints {
                let allowed = match endpoints {
                    0 => "an endpoint of the network (it has none)".to_string(),
                    n => format!("an endpoint of the network, from 0 to {}", n - 1),
                };
                return Err(TopolabError::invalid(
                    context,
                    "destination",
                    destination,
                    allowed,
                ));
            }
            total += packets as u64;
            if total > MAX_LISTED_PACKETS {
                return Err(TopolabError::invalid(
                    context,
                    "packets",
                    format!("{total} in all"),
                    format!("at most {MAX_LISTED_PACKETS} packets in all"),
                ));
            }
        }
        Ok(Exchange {
            name: name.to_string(),
            per_source,
            order: MessageOrder::Sequential,
        })
    }

    /// Messages over all sources.
    pub fn num_messages(&self) -> u64 {
        self.per_source.iter().map(|m| m.len() as u64).sum()
    }

    /// Packets over all messages.
    pub fn total_packets(&self) -> u64 {
        self.per_source
            .iter()
            .flatten()
            .map(|&(_, p)| p as u64)
            .sum()
    }
}

/// Packets per message from `packets`, or `bytes` (default `default_bytes`) and `packet_bytes`.
fn message_packets(s: &Spec, default_bytes: u64) -> Result<u32> {
    let p = s.params();
    if let Some(packets) = p.opt_u32("packets", 1, u32::MAX)? {
        for other in ["bytes", "packet_bytes"] {
            if p.has(other) {
                return Err(s.invalid(
                    other,
                    s.text(other).unwrap_or_default(),
                    "not together with 'packets' (give the size in packets, or in bytes)",
                ));
            }
        }
        return Ok(packets);
    }
    let bytes = p
        .opt_int("bytes", 1, 1 << 40)?
        .map_or(default_bytes, |b| b as u64);
    let packet_bytes = p
        .opt_int("packet_bytes", 1, 1 << 30)?
        .map_or(DEFAULT_PACKET_BYTES, |b| b as u64);
    let packets = bytes.div_ceil(packet_bytes);
    u32::try_from(packets).map_err(|_| {
        s.invalid(
            "bytes",
            bytes,
            &format!(
                "at most {} bytes per message at {packet_bytes} bytes per packet",
                u32::MAX as u64 * packet_bytes
            ),
        )
    })
}

fn all_to_all(s: &Spec, endpoints: u32) -> Result<Exchange> {
    let packets = message_packets(s, ALLTOALL_MESSAGE_BYTES)?;
    let seed = s.params().seed()?;
    let random = match s.text("order").as_deref() {
        None | Some("random") => true,
        Some("shift") => false,
        Some(other) => return Err(s.invalid("order", format!("'{other}'"), "random or shift")),
    };
    let n = endpoints as u64;
    if n * (n - 1) > MAX_MESSAGES {
        return Err(s.invalid(
            "network",
            format!("{n} endpoints"),
            &format!(
                "at most {MAX_MESSAGES} messages (N(N-1) = {} here; about 11,585 endpoints)",
                n * (n - 1)
            ),
        ));
    }
    let per_source = (0..endpoints)
        .map(|src| {
            // Shift order: src+1, src+2, ... (every step a permutation). Random order: the
            // same destinations shuffled per source; Kathareios et al., SC15, §4.4 only says it
            // follows Kumar et al., whose Blue Gene/L all-to-all topolab reads as randomized
            // (docs/traffic.md).
            let mut msgs: Vec<(u32, u32)> = (1..endpoints)
                .map(|k| (((src as u64 + k as u64) % n) as u32, packets))
                .collect();
            if random {
                msgs.shuffle(&mut pattern_rng(seed, 1 + src as u64));
            }
            msgs
        })
        .collect();
    let destinations = if random {
        format!("random,seed={seed}")
    } else {
        "shift".to_string()
    };
    let order = MessageOrder::of_spec(s)?;
    Ok(Exchange {
        name: format!(
            "alltoall:packets={packets},order={destinations},{}",
            order.spec_text()
        ),
        per_source,
        order,
    })
}

/// The three sizes a·b·c = n with the largest one smallest (ties: the smallest one largest),
/// ascending. Kathareios et al., SC15, §4.4's tori are exactly these for its four networks
/// (12×14×19 for N = 3192, 13×13×18 for 3042, 13×13×20 for 3380; 15×15×16 for 3600, which the paper
/// orders 15×16×15).
pub fn balanced_dims(n: u32) -> [u32; 3] {
    let mut best = [1, 1, n];
    for a in (1..=n).take_while(|&a| (a as u64).pow(3) <= n as u64) {
        if !n.is_multiple_of(a) {
            continue;
        }
        let m = n / a;
        for b in (a..=m).take_while(|&b| (b as u64) * (b as u64) <= m as u64) {
            if !m.is_multiple_of(b) {
                continue;
            }
            let c = m / b;
            if (c, std::cmp::Reverse(a)) < (best[2], std::cmp::Reverse(best[0])) {
                best = [a, b, c];
            }
        }
    }
    best
}

fn nearest_neighbor(s: &Spec, endpoints: u32) -> Result<Exchange> {
    let packets = message_packets(s, NN_MESSAGE_BYTES)?;
    let dims: [u32; 3] = match s.params().opt_list("dims", 1, endpoints as i64)? {
        None => balanced_dims(endpoints),
        Some(d) => {
            let text = s.text("dims").unwrap_or_default();
            let product: u64 = d.iter().map(|&x| x as u64).product();
            if d.len() != 3 || product > endpoints as u64 {
                return Err(s.invalid(
                    "dims",
                    text,
                    &format!(
                        "three sizes AxBxC whose product is at most the {endpoints} endpoints \
                         (one process per endpoint)"
                    ),
                ));
            }
            [d[0] as u32, d[1] as u32, d[2] as u32]
        }
    };
    let order = MessageOrder::of_spec(s)?;
    let [a, b, c] = dims;
    let processes = a * b * c;
    let mut per_source = vec![Vec::new(); endpoints as usize];
    for (rank, msgs) in per_source.iter_mut().enumerate().take(processes as usize) {
        let rank = rank as u32;
        let coord = [rank % a, rank / a % b, rank / (a * b)];
        let stride = [1, a, a * b];
        for dim in 0..3 {
            let k = dims[dim];
            for step in [1, k - 1] {
                let moved = (coord[dim] + step) % k;
                if moved != coord[dim] {
                    msgs.push((
                        rank + moved * stride[dim] - coord[dim] * stride[dim],
                        packets,
                    ));
                }
            }
        }
    }
    Ok(Exchange {
        name: format!(
            "nn3d:dims={a}x{b}x{c},packets={packets},{}",
            order.spec_text()
        ),
        per_source,
        order,
    })
}
