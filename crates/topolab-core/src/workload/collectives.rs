//! The built-in workloads, each from its published algorithm:
//!
//! - allreduce `ring`: reduce-scatter then allgather around a ring, 2(n-1) steps of S/n
//!   (Patarasuk & Yuan, JPDC 69(2), 2009, §3; NCCL's ring);
//! - allreduce `rabenseifner`: recursive-halving reduce-scatter, then recursive-doubling
//!   allgather (Rabenseifner, ICCS 2004; Thakur, Rabenseifner & Gropp, IJHPCA 19(1), 2005,
//!   §4.4), n a power of two;
//! - allreduce `tree`: binomial-tree reduce to rank 0, then binomial broadcast (Thakur,
//!   Rabenseifner & Gropp, IJHPCA 2005, §4.1 and §4.4, MPICH's short-message algorithm);
//! - allreduce `hierarchical`: ring reduce-scatter inside each group of `group_size` ranks,
//!   ring allreduce across groups among the ranks of the same local index, ring allgather inside
//!   each group: the multi-dimensional allreduce ASTRA-sim runs over a topology's dimensions
//!   (Rashidi et al., ISPASS 2020, §IV);
//! - alltoall `pairwise`: step k sends to r+k and receives from r-k, each step after the last
//!   (Thakur, Rabenseifner & Gropp, IJHPCA 2005, §3.5); `shift`: every message posted at once,
//!   in the order r+1, r+2, ...; `skew` > 0 makes the sizes those of a mixture-of-experts layer
//!   whose experts draw Zipf-distributed shares of the tokens (Lepikhin et al., GShard, ICLR
//!   2021, §2, measures such imbalance);
//! - allgather and reducescatter `ring`: n-1 steps of S/n (Patarasuk & Yuan, JPDC 2009);
//! - pipeline: GPipe's microbatches through the stages, forward and optionally backward
//!   (Huang et al., NeurIPS 2019, §2.2);
//! - halo3d: every rank sends a face to its six neighbours on a periodic 3D grid (SST Ember's
//!   Halo3D motif; Kathareios et al., SC15, §4.4's nearest-neighbour exchange).
//!
//! Iterations: a rank starts iteration i+1 once it has received all its messages of iteration
//! i, plus `compute` cycles. That wait is a zero-byte message from the rank to itself (a
//! "gate") which the iteration's first messages wait for, so dependencies stay linear in the
//! messages.

use super::{parse_bytes, Builder, Message, Placement, Workload, MAX_MESSAGES};
use crate::topology::{ParamDef, ParamKind};
use crate::traffic::{balanced_dims, parse_spec, pattern_rng, Spec};
use crate::{Network, Result};
use rand::seq::SliceRandom;

/// One built-in workload: name, aliases, its own parameters (beside `COMMON`), default size.
pub struct WorkloadDef {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub params: &'static [ParamDef],
    pub default_bytes: &'static str,
}

const fn param(
    name: &'static str,
    kind: ParamKind,
    default: Option<&'static str>,
    help: &'static str,
) -> ParamDef {
    ParamDef {
        name,
        kind,
        default,
        help,
    }
}

/// Parameters of every workload.
pub const COMMON: &[ParamDef] = &[
    param(
        "bytes",
        ParamKind::Text,
        Some("per workload"),
        "size: each rank's buffer (allreduce, allgather, reducescatter, alltoall), one \
         microbatch's activations (pipeline), one face (halo3d); 64KiB, 1MiB, 1G are powers of 1024",
    ),
    param(
        "ranks",
        ParamKind::Int,
        Some("every endpoint left free"),
        "ranks of the job, one per endpoint",
    ),
    param("iterations", ParamKind::Int, Some("1"), "times the job runs"),
    param(
        "compute",
        ParamKind::Int,
        Some("0"),
        "cycles a rank computes between receiving its last message of an iteration and \
         starting the next",
    ),
    param(
        "placement",
        ParamKind::Text,
        Some("contiguous"),
        "where ranks go: contiguous, random, router (round robin over routers), group (round \
         robin over groups), ring (routers in depth-first order)",
    ),
    param(
        "mapping",
        ParamKind::Text,
        None,
        "a file of endpoint ids, one per rank, instead of placement",
    ),
    param(
        "seed",
        ParamKind::Int,
        Some("0"),
        "seed of random placement and of skew",
    ),
];

const ALGORITHM_ALLREDUCE: ParamDef = param(
    "algorithm",
    ParamKind::Text,
    Some("ring"),
    "ring, rabenseifner (ranks a power of two), tree (binomial), hierarchical",
);

/// The built-in workloads.
pub const WORKLOADS: &[WorkloadDef] = &[
    WorkloadDef {
        name: "allreduce",
        aliases: &["all_reduce"],
        params: &[
            ALGORITHM_ALLREDUCE,
            param(
                "group_size",
                ParamKind::Int,
                Some("the endpoints of router 0"),
                "ranks per group of the hierarchical algorithm (contiguous ranks)",
            ),
        ],
        default_bytes: "1MiB",
    },
    WorkloadDef {
        name: "alltoall",
        aliases: &["all_to_all", "a2a"],
        params: &[
            param(
                "algorithm",
                ParamKind::Text,
                Some("pairwise"),
                "pairwise (step by step) or shift (all posted at once)",
            ),
            param(
                "skew",
                ParamKind::Float,
                Some("0"),
                "Zipf exponent of the destinations' shares (0: uniform; mixture of experts: \
                 about 1)",
            ),
        ],
        default_bytes: "1MiB",
    },
    WorkloadDef {
        name: "allgather",
        aliases: &["all_gather"],
        params: &[param("algorithm", ParamKind::Text, Some("ring"), "ring")],
        default_bytes: "1MiB",
    },
    WorkloadDef {
        name: "reducescatter",
        aliases: &["reduce_scatter"],
        params: &[param("algorithm", ParamKind::Text, Some("ring"), "ring")],
        default_bytes: "1MiB",
    },
    WorkloadDef {
        name: "pipeline",
        aliases: &["gpipe"],
        params: &[
            param(
                "microbatches",
                ParamKind::Int,
                Some("8"),
                "microbatches per iteration",
            ),
            param(
                "backward",
                ParamKind::Bool,
                Some("false"),
                "also send the gradients back through the stages",
            ),
            param(
                "stage_compute",
                ParamKind::Int,
                Some("0"),
                "cycles a stage computes on a microbatch before passing it on",
            ),
        ],
        default_bytes: "256KiB",
    },
    WorkloadDef {
        name: "messages",
        aliases: &["trace"],
        params: &[param(
            "path",
            ParamKind::Text,
            None,
            "a message file (docs/workloads.md, \"Message files\"): one message a line",
        )],
        default_bytes: "from the file",
    },
    WorkloadDef {
        name: "halo3d",
        aliases: &["halo", "halo_3d"],
        params: &[param(
            "dims",
            ParamKind::Dims,
            Some("a balanced 3D grid of the ranks"),
            "process grid AxBxC (periodic)",
        )],
        default_bytes: "64KiB",
    },
];

/// Name, aliases and all parameters of every workload (for `parse_spec`).
fn definitions() -> Vec<(&'static str, &'static [&'static str], &'static [ParamDef])> {
    // Each workload's parameters followed by the common ones, built once.
    static ALL: std::sync::OnceLock<Vec<Vec<ParamDef>>> = std::sync::OnceLock::new();
    let all = ALL.get_or_init(|| {
        WORKLOADS
            .iter()
            .map(|w| w.params.iter().chain(COMMON).copied().collect())
            .collect()
    });
    WORKLOADS
        .iter()
        .zip(all)
        .map(|(w, p)| (w.name, w.aliases, p.as_slice()))
        .collect()
}

/// Bytes of piece `c` of `total` split into `parts` nearly equal pieces.
fn piece(total: u64, parts: u32, c: u32) -> u64 {
    let parts = parts as u64;
    total / parts + u64::from((c as u64) < total % parts)
}

/// The workload of `text` and where its ranks go (its `placement`, `mapping` and `seed`).
pub(super) fn parse(
    text: &str,
    net: Option<&Network>,
    default_ranks: u32,
) -> Result<(Workload, Placement)> {
    let defs = definitions();
    let s = parse_spec(text, "workload", "name", &defs)?;
    let p = s.params();
    let def = WORKLOADS.iter().find(|w| w.name == s.name).expect("known");
    if s.name == "messages" {
        let w = super::messages::read(&s, default_ranks)?;
        return Ok((w, placement(&s, &mut String::new(), p.seed()?)?));
    }
    let bytes_text = s
        .parsed
        .params
        .get("bytes")
        .map(|v| v.to_string())
        .unwrap_or_else(|| def.default_bytes.to_string());
    let bytes = parse_bytes(&bytes_text)
        .filter(|b| (1..=1 << 40).contains(b))
        .ok_or_else(|| {
            s.invalid(
                "bytes",
                format!("'{bytes_text}'"),
                "a size from 1 byte to 1TiB: 4096, 64KiB, 1MiB, 2G",
            )
        })?;
    let ranks = match p.opt_u32("ranks", 1, u32::MAX - 1)? {
        Some(r) if r > default_ranks => {
            return Err(s.invalid(
                "ranks",
                r,
                &format!("at most the {default_ranks} endpoints free for this job"),
            ))
        }
        Some(r) => r,
        None => default_ranks,
    };
    if ranks < 2 {
        return Err(s.invalid("ranks", ranks, "at least 2 (a workload needs two ranks)"));
    }
    let iterations = p.opt_u32("iterations", 1, 1_000_000)?.unwrap_or(1);
    let compute = p.opt_u32("compute", 0, u32::MAX / 2)?.unwrap_or(0);
    let seed = p.seed()?;
    let algorithm = s.text("algorithm");
    let mut name = format!("{}:bytes={bytes_text},ranks={ranks}", s.name);
    // Refused before anything is built: a ring over 10,000 ranks alone is 2 x 10^8 messages.
    let n = ranks as u64;
    let quadratic = match (s.name, algorithm.as_deref()) {
        ("allreduce", None | Some("ring")) => 2 * n * (n - 1),
        ("alltoall", _) | ("allgather", _) | ("reducescatter", _) => n * (n - 1),
        _ => 0,
    };
    if quadratic.saturating_mul(iterations as u64) > MAX_MESSAGES {
        return Err(s.invalid(
            "ranks",
            ranks,
            &format!(
                "a workload of at most {MAX_MESSAGES} messages ({} here for {} iteration(s)): fewer \
                 ranks or iterations, or algorithm=rabenseifner or tree for an allreduce",
                quadratic.saturating_mul(iterations as u64),
                iterations
            ),
        ));
    }
    let one = match s.name {
        "allreduce" => {
            let algo = algorithm.as_deref().unwrap_or("ring");
            name.push_str(&format!(",algorithm={algo}"));
            match algo {
                "ring" => ring_allreduce(ranks, bytes),
                "rabenseifner" | "halving-doubling" => rabenseifner(&s, ranks, bytes)?,
                "tree" | "binomial" => binomial_allreduce(ranks, bytes),
                "hierarchical" | "2d" => {
                    let m = group_size(&s, net, ranks)?;
                    let messages = 2 * (m as u64 - 1) * n + 2 * (n / m as u64 - 1) * n;
                    if messages.saturating_mul(iterations as u64) > MAX_MESSAGES {
                        return Err(s.invalid(
                            "group_size",
                            m,
                            &format!(
                                "a workload of at most {MAX_MESSAGES} messages ({messages} per \
                                 iteration here): groups nearer the square root of the ranks"
                            ),
                        ));
                    }
                    name.push_str(&format!(",group_size={m}"));
                    hierarchical(ranks, m, bytes)
                }
                other => {
                    return Err(s.invalid(
                        "algorithm",
                        format!("'{other}'"),
                        "ring, rabenseifner, tree or hierarchical",
                    ))
                }
            }
        }
        "alltoall" => {
            let algo = algorithm.as_deref().unwrap_or("pairwise");
            let skew = p.opt_float("skew", 0.0, 8.0)?.unwrap_or(0.0);
            name.push_str(&format!(",algorithm={algo},skew={skew},seed={seed}"));
            let pairwise = match algo {
                "pairwise" => true,
                "shift" | "linear" => false,
                other => {
                    return Err(s.invalid("algorithm", format!("'{other}'"), "pairwise or shift"))
                }
            };
            all_to_all(ranks, bytes, skew, seed, pairwise)?
        }
        "allgather" | "reducescatter" => {
            match algorithm.as_deref() {
                None | Some("ring") => {}
                Some(other) => return Err(s.invalid("algorithm", format!("'{other}'"), "ring")),
            }
            let members: Vec<u32> = (0..ranks).collect();
            let phase = s.name.to_string();
            let mut b = Builder::new(ranks, vec![phase]);
            let mut last = vec![None; ranks as usize];
            ring(&mut b, &members, bytes, 0, ranks - 1, 0, &mut last);
            let op = if s.name == "allgather" {
                "allgather"
            } else {
                "reducescatter"
            };
            let factor = (ranks - 1) as f64 / ranks as f64;
            b.finish("", op, "ring", bytes, factor, 1)
        }
        "pipeline" => {
            let micro = p.opt_u32("microbatches", 1, 1 << 20)?.unwrap_or(8);
            let backward = p.opt_bool("backward")?.unwrap_or(false);
            let stage = p.opt_u32("stage_compute", 0, u32::MAX / 2)?.unwrap_or(0);
            name.push_str(&format!(
                ",microbatches={micro},backward={backward},stage_compute={stage}"
            ));
            pipeline(ranks, bytes, micro, backward, stage)
        }
        _ => {
            let dims = match p.opt_list("dims", 1, ranks as i64)? {
                None => balanced_dims(ranks),
                Some(d) if d.len() == 3 && d.iter().product::<i64>() == ranks as i64 => {
                    [d[0] as u32, d[1] as u32, d[2] as u32]
                }
                Some(_) => {
                    return Err(s.invalid(
                        "dims",
                        s.text("dims").unwrap_or_default(),
                        &format!("three sizes AxBxC whose product is the {ranks} ranks"),
                    ))
                }
            };
            name.push_str(&format!(",dims={}x{}x{}", dims[0], dims[1], dims[2]));
            halo3d(dims, bytes)
        }
    };
    if iterations > 1 || compute > 0 {
        name.push_str(&format!(",iterations={iterations},compute={compute}"));
    }
    let messages = one.messages.len() as u64 * iterations as u64;
    if messages > MAX_MESSAGES {
        return Err(s.invalid(
            "iterations",
            iterations,
            &format!(
                "at most {MAX_MESSAGES} messages in all ({} per iteration here)",
                one.messages.len()
            ),
        ));
    }
    let placement = placement(&s, &mut name, seed)?;
    let mut w = repeat(one, iterations, compute);
    w.name = name;
    Ok((w, placement))
}

/// Where the job's ranks go: `mapping` (a file) or `placement` (`seed` for random); a
/// placement other than contiguous is added to `name`.
fn placement(s: &Spec, name: &mut String, seed: u64) -> Result<Placement> {
    Ok(
        match (s.params().opt_text("mapping")?, s.text("placement")) {
            (Some(_), Some(_)) => {
                return Err(s.invalid(
                    "mapping",
                    s.text("mapping").unwrap_or_default(),
                    "not together with placement (a mapping file places every rank itself)",
                ))
            }
            (Some(path), None) => {
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    s.invalid(
                        "mapping",
                        format!("'{path}'"),
                        &format!("a readable file ({e})"),
                    )
                })?;
                name.push_str(&format!(",mapping={path}"));
                Placement::from_text(&s.context, &text)?
            }
            (None, placement) => {
                let placement = placement.unwrap_or_else(|| "contiguous".into());
                let parsed = Placement::parse(&s.context, &placement, seed)?;
                if parsed != Placement::Contiguous {
                    name.push_str(&format!(",placement={placement}"));
                }
                parsed
            }
        },
    )
}

/// Ranks per group of the hierarchical allreduce: `group_size`, or the endpoints of router 0.
fn group_size(s: &Spec, net: Option<&Network>, ranks: u32) -> Result<u32> {
    let m = match (s.params().opt_u32("group_size", 1, ranks)?, net) {
        (Some(m), _) => m,
        (None, Some(net)) => net.endpoints().first().copied().unwrap_or(1).max(1),
        (None, None) => {
            return Err(s.invalid(
                "group_size",
                "none",
                "ranks per group (no network gives a default here)",
            ))
        }
    };
    if !ranks.is_multiple_of(m) {
        return Err(s.invalid(
            "group_size",
            m,
            &format!("a divisor of the {ranks} ranks (give group_size)"),
        ));
    }
    Ok(m)
}

/// Steps `first .. first + steps` of a ring over `members` (position p sends to p+1) on
/// `segment` bytes split into len(members) pieces: step s sends piece (p - s) mod len (a
/// reduce-scatter's steps 0 .. len-1 leave position p with piece p+1, which the allgather's
/// steps len-1 .. 2 len - 2 then send first). Each send waits for
/// the sender's last receive (`last`, per rank), which the step then updates.
fn ring(
    b: &mut Builder,
    members: &[u32],
    segment: u64,
    first: u32,
    steps: u32,
    phase: u16,
    last: &mut [Option<u32>],
) {
    let n = members.len() as u32;
    let mut received = Vec::with_capacity(members.len());
    for s in first..first + steps {
        received.clear();
        for p in 0..n {
            let src = members[p as usize];
            let dst = members[((p + 1) % n) as usize];
            let chunk = (p + n - s % n) % n;
            let m = Message {
                src,
                dst,
                bytes: piece(segment, n, chunk).max(1),
                delay: 0,
                phase,
                iteration: 0,
            };
            let deps: Vec<u32> = last[src as usize].into_iter().collect();
            received.push((dst, b.push(m, &deps)));
        }
        for &(dst, id) in &received {
            last[dst as usize] = Some(id);
        }
    }
}

fn ring_allreduce(n: u32, bytes: u64) -> Workload {
    let members: Vec<u32> = (0..n).collect();
    let mut b = Builder::new(n, vec!["reduce-scatter".into(), "allgather".into()]);
    let mut last = vec![None; n as usize];
    ring(&mut b, &members, bytes, 0, n - 1, 0, &mut last);
    ring(&mut b, &members, bytes, n - 1, n - 1, 1, &mut last);
    allreduce(b, "ring", n, bytes)
}

fn allreduce(b: Builder, algorithm: &'static str, n: u32, bytes: u64) -> Workload {
    let factor = 2.0 * (n - 1) as f64 / n as f64;
    b.finish("", "allreduce", algorithm, bytes, factor, 1)
}

fn rabenseifner(s: &Spec, n: u32, bytes: u64) -> Result<Workload> {
    if !n.is_power_of_two() {
        return Err(s.invalid(
            "ranks",
            n,
            "a power of two for algorithm=rabenseifner (ring, tree and hierarchical take any count)",
        ));
    }
    let log = n.trailing_zeros();
    let mut b = Builder::new(n, vec!["reduce-scatter".into(), "allgather".into()]);
    let mut last: Vec<Option<u32>> = vec![None; n as usize];
    // Each rank's segment of the buffer, [lo, lo + len).
    let mut seg: Vec<(u64, u64)> = vec![(0, bytes); n as usize];
    let mut step = |b: &mut Builder, d: u32, phase: u16, halving: bool, seg: &mut [(u64, u64)]| {
        let mut received = Vec::with_capacity(n as usize);
        let before = seg.to_vec();
        for r in 0..n {
            let partner = r ^ d;
            let (lo, len) = before[r as usize];
            let sent = if halving {
                // The lower rank of a pair keeps the lower half and sends the upper one.
                let half = len / 2;
                if r & d == 0 {
                    seg[r as usize] = (lo, half);
                    len - half
                } else {
                    seg[r as usize] = (lo + half, len - half);
                    half
                }
            } else {
                let (plo, plen) = before[partner as usize];
                seg[r as usize] = (lo.min(plo), len + plen);
                len
            };
            let m = Message {
                src: r,
                dst: partner,
                bytes: sent.max(1),
                delay: 0,
                phase,
                iteration: 0,
            };
            let deps: Vec<u32> = last[r as usize].into_iter().collect();
            received.push((partner, b.push(m, &deps)));
        }
        for &(dst, id) in &received {
            last[dst as usize] = Some(id);
        }
    };
    for k in 0..log {
        step(&mut b, n >> (k + 1), 0, true, &mut seg);
    }
    for k in 0..log {
        step(&mut b, 1 << k, 1, false, &mut seg);
    }
    Ok(allreduce(b, "rabenseifner", n, bytes))
}

/// Binomial tree on ranks 0..n rooted at 0: the children of r are r + 2^j for 2^j below r's
/// lowest set bit (every 2^j < n for the root), largest first.
fn children(r: u32, n: u32) -> Vec<u32> {
    let limit = if r == 0 {
        n.next_power_of_two()
    } else {
        1 << r.trailing_zeros()
    };
    let mut c: Vec<u32> = (0..32)
        .map(|j| 1u64 << j)
        .take_while(|&d| d < limit as u64)
        .filter(|&d| r as u64 + d < (n as u64))
        .map(|d| r + d as u32)
        .collect();
    c.reverse();
    c
}

fn binomial_allreduce(n: u32, bytes: u64) -> Workload {
    let mut b = Builder::new(n, vec!["reduce".into(), "broadcast".into()]);
    // Reduce: a rank sends to its parent once it has every child's contribution. Leaves
    // first: ranks in decreasing order of their lowest set bit's level are not needed, as
    // dependencies only point to messages pushed before: push children before parents by
    // processing ranks from the highest id down.
    let mut up: Vec<Option<u32>> = vec![None; n as usize];
    let mut order: Vec<u32> = (1..n).collect();
    order.sort_by_key(|&r| (r.trailing_zeros(), std::cmp::Reverse(r)));
    for &r in &order {
        let deps: Vec<u32> = children(r, n)
            .iter()
            .map(|&c| up[c as usize].expect("child pushed first"))
            .collect();
        let parent = r - (1 << r.trailing_zeros());
        let m = Message {
            src: r,
            dst: parent,
            bytes,
            delay: 0,
            phase: 0,
            iteration: 0,
        };
        up[r as usize] = Some(b.push(m, &deps));
    }
    // Broadcast: the root after every child's contribution, each other rank after its
    // parent's message; children largest subtree first.
    let mut down: Vec<Option<u32>> = vec![None; n as usize];
    let mut queue = std::collections::VecDeque::from([0u32]);
    while let Some(r) = queue.pop_front() {
        let deps: Vec<u32> = if r == 0 {
            children(0, n)
                .iter()
                .map(|&c| up[c as usize].expect("reduce pushed"))
                .collect()
        } else {
            vec![down[r as usize].expect("parent sent first")]
        };
        for c in children(r, n) {
            let m = Message {
                src: r,
                dst: c,
                bytes,
                delay: 0,
                phase: 1,
                iteration: 0,
            };
            down[c as usize] = Some(b.push(m, &deps));
            queue.push_back(c);
        }
    }
    allreduce(b, "tree", n, bytes)
}

fn hierarchical(n: u32, m: u32, bytes: u64) -> Workload {
    let g = n / m;
    let mut b = Builder::new(
        n,
        vec![
            "intra reduce-scatter".into(),
            "inter allreduce".into(),
            "intra allgather".into(),
        ],
    );
    let mut last = vec![None; n as usize];
    let groups: Vec<Vec<u32>> = (0..g).map(|a| (a * m..(a + 1) * m).collect()).collect();
    if m > 1 {
        for members in &groups {
            ring(&mut b, members, bytes, 0, m - 1, 0, &mut last);
        }
    }
    if g > 1 {
        // Rank a*m + i holds piece (i + 1) mod m of the reduce-scatter (piece p - (m-1) of
        // position p): the ranks of one local index allreduce that piece.
        for i in 0..m {
            let members: Vec<u32> = (0..g).map(|a| a * m + i).collect();
            let held = piece(bytes, m, (i + 1) % m);
            ring(&mut b, &members, held, 0, g - 1, 1, &mut last);
            ring(&mut b, &members, held, g - 1, g - 1, 1, &mut last);
        }
    }
    if m > 1 {
        for members in &groups {
            ring(&mut b, members, bytes, m - 1, m - 1, 2, &mut last);
        }
    }
    allreduce(b, "hierarchical", n, bytes)
}

fn all_to_all(n: u32, bytes: u64, skew: f64, seed: u64, pairwise: bool) -> Result<Workload> {
    // Destination shares: Zipf over a random popularity order (uniform at skew 0).
    let mut order: Vec<u32> = (0..n).collect();
    order.shuffle(&mut pattern_rng(seed, 0x6d6f65));
    let mut share = vec![0f64; n as usize];
    for (popularity, &d) in order.iter().enumerate() {
        share[d as usize] = ((popularity + 1) as f64).powf(-skew);
    }
    let total: f64 = share.iter().sum();
    let size = |d: u32| ((bytes as f64 * share[d as usize] / total).round() as u64).max(1);
    let mut b = Builder::new(n, vec!["alltoall".into()]);
    let mut last: Vec<Option<u32>> = vec![None; n as usize];
    for k in 1..n {
        let mut received = Vec::with_capacity(n as usize);
        for r in 0..n {
            let dst = (r + k) % n;
            let m = Message {
                src: r,
                dst,
                bytes: size(dst),
                delay: 0,
                phase: 0,
                iteration: 0,
            };
            let deps: Vec<u32> = if pairwise {
                last[r as usize].into_iter().collect()
            } else {
                Vec::new()
            };
            received.push((dst, b.push(m, &deps)));
        }
        for &(dst, id) in &received {
            last[dst as usize] = Some(id);
        }
    }
    let algo = if pairwise { "pairwise" } else { "shift" };
    let factor = (n - 1) as f64 / n as f64;
    Ok(b.finish("", "alltoall", algo, bytes, factor, 1))
}

fn pipeline(n: u32, bytes: u64, micro: u32, backward: bool, stage: u32) -> Workload {
    let mut phases = vec!["forward".to_string()];
    if backward {
        phases.push("backward".into());
    }
    let mut b = Builder::new(n, phases);
    // fwd[s][j]: the message carrying microbatch j into stage s.
    let mut fwd: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    for s in 0..n - 1 {
        for j in 0..micro {
            let deps: Vec<u32> = if s == 0 {
                Vec::new()
            } else {
                vec![fwd[s as usize][j as usize]]
            };
            let m = Message {
                src: s,
                dst: s + 1,
                bytes,
                delay: if s == 0 { 0 } else { stage },
                phase: 0,
                iteration: 0,
            };
            let id = b.push(m, &deps);
            fwd[s as usize + 1].push(id);
        }
    }
    if backward {
        let mut bwd: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
        for s in (1..n).rev() {
            for j in 0..micro {
                let dep = if s == n - 1 {
                    fwd[s as usize][j as usize]
                } else {
                    bwd[s as usize][j as usize]
                };
                let m = Message {
                    src: s,
                    dst: s - 1,
                    bytes,
                    delay: stage,
                    phase: 1,
                    iteration: 0,
                };
                let id = b.push(m, &[dep]);
                bwd[s as usize - 1].push(id);
            }
        }
    }
    b.finish("", "pipeline", "gpipe", bytes, 1.0, 1)
}

fn halo3d(dims: [u32; 3], bytes: u64) -> Workload {
    let [a, bb, c] = dims;
    let n = a * bb * c;
    let mut b = Builder::new(n, vec!["halo".into()]);
    for r in 0..n {
        let (x, y, z) = (r % a, (r / a) % bb, r / (a * bb));
        let at = |x: u32, y: u32, z: u32| x + a * (y + bb * z);
        let neighbours = [
            at((x + 1) % a, y, z),
            at((x + a - 1) % a, y, z),
            at(x, (y + 1) % bb, z),
            at(x, (y + bb - 1) % bb, z),
            at(x, y, (z + 1) % c),
            at(x, y, (z + c - 1) % c),
        ];
        for d in neighbours {
            if d != r {
                let m = Message {
                    src: r,
                    dst: d,
                    bytes,
                    delay: 0,
                    phase: 0,
                    iteration: 0,
                };
                b.push(m, &[]);
            }
        }
    }
    b.finish("", "halo3d", "halo3d", bytes * 6, 1.0, 1)
}

/// `one` repeated `iterations` times (see the module comment: each rank's gate waits for its
/// last receives of the iteration before, plus `compute` cycles).
fn repeat(one: Workload, iterations: u32, compute: u32) -> Workload {
    if iterations <= 1 {
        return one;
    }
    let n = one.ranks as usize;
    let len = one.messages.len();
    // Per rank, the messages it receives that none of its own sends waits for.
    let mut awaited = vec![false; len];
    for i in 0..len {
        for &d in one.deps(i) {
            awaited[d as usize] = true;
        }
    }
    let mut finals: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, m) in one.messages.iter().enumerate() {
        if !awaited[i] {
            finals[m.dst as usize].push(i as u32);
        }
    }
    let mut b = Builder::new(one.ranks, one.phases.clone());
    let mut base = 0u32;
    for it in 0..iterations {
        let mut gate = vec![None; n];
        if it > 0 {
            for (r, f) in finals.iter().enumerate() {
                if f.is_empty() {
                    continue;
                }
                let deps: Vec<u32> = f.iter().map(|&i| base + i).collect();
                let m = Message {
                    src: r as u32,
                    dst: r as u32,
                    bytes: 0,
                    delay: compute,
                    phase: 0,
                    iteration: it,
                };
                gate[r] = Some(b.push(m, &deps));
            }
        }
        let start = b.len() as u32;
        for (i, m) in one.messages.iter().enumerate() {
            let deps: Vec<u32> = if one.deps(i).is_empty() {
                gate[m.src as usize].into_iter().collect()
            } else {
                one.deps(i).iter().map(|&d| start + d).collect()
            };
            b.push(
                Message {
                    iteration: it,
                    ..*m
                },
                &deps,
            );
        }
        base = start;
    }
    b.finish(
        "",
        one.operation,
        one.algorithm,
        one.bytes,
        one.bus_factor,
        iterations,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build_str;

    fn net(endpoints: u32) -> Network {
        build_str(&format!("hyperx:dims={endpoints},p=1")).unwrap()
    }

    /// Bytes each rank sends and receives.
    fn traffic(w: &Workload) -> (Vec<u64>, Vec<u64>) {
        let mut sent = vec![0; w.ranks as usize];
        let mut recv = vec![0; w.ranks as usize];
        for m in &w.messages {
            if m.src != m.dst {
                sent[m.src as usize] += m.bytes;
                recv[m.dst as usize] += m.bytes;
            }
        }
        (sent, recv)
    }

    #[test]
    fn ring_allreduce_sends_the_bandwidth_optimal_volume() {
        // Patarasuk & Yuan, JPDC 2009, §3: every rank sends 2(n-1)/n of the buffer.
        let n = 6;
        let w = Workload::parse("allreduce:bytes=6000", &net(n), n).unwrap();
        w.check().unwrap();
        assert_eq!(w.messages.len() as u32, 2 * (n - 1) * n);
        let (sent, recv) = traffic(&w);
        assert!(sent.iter().all(|&s| s == 2 * 5 * 1000));
        assert_eq!(sent, recv);
    }

    #[test]
    fn rabenseifner_halves_then_doubles() {
        // Thakur et al., IJHPCA 2005, §4.4: each rank sends (n-1)/n of the buffer in each half.
        let w = Workload::parse("allreduce:bytes=8192,algorithm=rabenseifner", &net(8), 8).unwrap();
        w.check().unwrap();
        assert_eq!(w.messages.len(), 8 * 3 * 2);
        let (sent, _) = traffic(&w);
        assert!(sent.iter().all(|&s| s == 2 * 7 * 1024), "{sent:?}");
        let err = Workload::parse("allreduce:algorithm=rabenseifner", &net(6), 6).unwrap_err();
        assert!(err.to_string().contains("power of two"), "{err}");
    }

    #[test]
    fn binomial_tree_has_two_messages_per_nonroot_rank() {
        for n in [2u32, 5, 8, 13] {
            let w = Workload::parse("allreduce:bytes=100,algorithm=tree", &net(n), n).unwrap();
            w.check().unwrap();
            assert_eq!(w.messages.len() as u32, 2 * (n - 1), "n = {n}");
            // The root hears from ceil(log2 n) children; every other rank receives once down.
            let (_, recv) = traffic(&w);
            let levels = (n as f64).log2().ceil() as u64;
            assert_eq!(recv[0], 100 * levels, "n = {n}");
            for r in 1..n as usize {
                let down = w
                    .messages
                    .iter()
                    .filter(|m| m.phase == 1 && m.dst as usize == r)
                    .count();
                assert_eq!(down, 1, "rank {r} of {n}");
            }
        }
    }

    #[test]
    fn hierarchical_moves_the_two_level_volume() {
        // m = 4 ranks per group, g = 3 groups, S = 1200: intra RS + AG send 2(m-1)/m S per
        // rank, inter allreduce 2(g-1)/g of S/m.
        let w = Workload::parse(
            "allreduce:bytes=1200,algorithm=hierarchical,group_size=4",
            &net(12),
            12,
        )
        .unwrap();
        w.check().unwrap();
        let (sent, recv) = traffic(&w);
        let expect = 2 * 3 * 300 + 2 * 2 * 100;
        assert!(sent.iter().all(|&s| s == expect), "{sent:?}");
        assert_eq!(sent, recv);
    }

    #[test]
    fn skewed_all_to_all_keeps_the_total() {
        let n = 16;
        let w = Workload::parse("alltoall:bytes=160000,skew=1.2,seed=3", &net(n), n).unwrap();
        w.check().unwrap();
        let sizes: Vec<u64> = w.messages.iter().map(|m| m.bytes).collect();
        assert!(sizes.iter().max() > sizes.iter().min());
        let per_dest: Vec<u64> = (0..n)
            .map(|d| {
                w.messages
                    .iter()
                    .filter(|m| m.dst == d)
                    .map(|m| m.bytes)
                    .sum()
            })
            .collect();
        // The most popular expert receives far more than the least.
        assert!(per_dest.iter().max().unwrap() > &(4 * per_dest.iter().min().unwrap()));
    }

    #[test]
    fn iterations_wait_for_every_receive() {
        let w = Workload::parse("halo3d:bytes=10,iterations=3,compute=7", &net(8), 8).unwrap();
        w.check().unwrap();
        let gates: Vec<usize> = (0..w.messages.len())
            .filter(|&i| w.messages[i].src == w.messages[i].dst)
            .collect();
        assert_eq!(gates.len(), 2 * 8);
        for &g in &gates {
            assert_eq!(w.messages[g].delay, 7);
            // Every gate waits for all of its rank's receives of the iteration before.
            let r = w.messages[g].src;
            let it = w.messages[g].iteration;
            let expected = w
                .messages
                .iter()
                .filter(|m| m.dst == r && m.src != r && m.iteration == it - 1)
                .count();
            assert_eq!(w.deps(g).len(), expected);
        }
    }

    #[test]
    fn bad_parameters_are_named() {
        let n = net(4);
        for (spec, needle) in [
            ("allreduce:bytes=12Q", "bytes"),
            ("allreduce:ranks=9", "ranks"),
            ("allreduce:algorithm=magic", "algorithm"),
            ("allreduce:ranks=1", "ranks"),
            ("halo3d:dims=2x2x2", "dims"),
            ("broadcast", "name"),
            ("allreduce:colour=red", "colour"),
        ] {
            let err = Workload::parse(spec, &n, 4).unwrap_err().to_string();
            assert!(err.contains(needle), "{spec}: {err}");
        }
        // refused before it is built: 8,064 messages an iteration, 10^5 iterations
        let err = Workload::parse("allreduce:iterations=100000", &net(64), 64)
            .unwrap_err()
            .to_string();
        assert!(err.contains("at most 67108864 messages"), "{err}");
    }
}
