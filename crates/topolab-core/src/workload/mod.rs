//! Message-level workloads: what a job's ranks send each other and in which order, as the
//! collectives of MPI and NCCL run them. A workload is a list of messages (source rank,
//! destination rank, bytes) in which each message waits for messages its sender has received
//! (its dependencies), plus an optional delay after them (compute). The simulator
//! (`topolab_sim::workload`) runs it flit by flit on a network once its ranks are placed on
//! endpoints (`placement`).
//!
//! Dependencies are local to a rank, as in an MPI program or a Chakra execution trace: a
//! message sent by rank r may wait only for messages r receives. A rank sends its ready
//! messages one after the other, in the order they became ready (ties: list order), so a
//! rank's own sends never need a dependency on each other. Dependencies point backwards in the
//! list, so every workload is acyclic and runs to completion.
//!
//! `collectives.rs` builds the collectives from their published algorithms; `placement.rs` puts
//! ranks on endpoints, one job or several. docs/workloads.md describes them.

mod collectives;
mod messages;
mod placement;

pub use collectives::{WorkloadDef, COMMON, WORKLOADS};
pub use placement::{place_jobs, Placement, PLACEMENTS};

use crate::{Network, Result, TopolabError};

/// Most messages a workload may hold (about 40 bytes each with its dependencies: 2.5 GiB).
pub const MAX_MESSAGES: u64 = 1 << 26;

/// One message of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message {
    pub src: u32,
    pub dst: u32,
    pub bytes: u64,
    /// Cycles the sender waits after the last of its dependencies arrived (compute).
    pub delay: u32,
    /// Index into `Workload::phases`.
    pub phase: u16,
    pub iteration: u32,
}

/// The jobs of `specs` on `net`, each with the endpoint of every rank: placed in order, each on
/// the endpoints the jobs before left free, `ranks` defaulting to all of them.
pub fn parse_jobs(net: &Network, specs: &[&str]) -> Result<Vec<(Workload, Vec<u32>)>> {
    let total = crate::traffic::endpoint_count(net)?;
    let mut free = total;
    let mut parsed = Vec::with_capacity(specs.len());
    for (j, spec) in specs.iter().enumerate() {
        if free < 2 {
            return Err(TopolabError::invalid(
                "workload",
                "jobs",
                format!("{} jobs", specs.len()),
                format!("jobs that fit on the {total} endpoints: job {j} has {free} left"),
            ));
        }
        let (w, placement) = collectives::parse(spec, Some(net), free)?;
        free -= w.ranks;
        parsed.push((w, placement));
    }
    let requests: Vec<(String, u32, Placement)> = parsed
        .iter()
        .map(|(w, p)| (format!("workload {}", w.name), w.ranks, p.clone()))
        .collect();
    let endpoints = place_jobs(net, &requests)?;
    Ok(parsed.into_iter().map(|(w, _)| w).zip(endpoints).collect())
}

/// A job's messages over its ranks `0 .. ranks` (see the module comment).
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// The canonical spec, every parameter resolved.
    pub name: String,
    /// The operation ("allreduce", "alltoall", ...).
    pub operation: &'static str,
    /// The algorithm that decides who sends what when ("ring", "rabenseifner", ...).
    pub algorithm: &'static str,
    pub ranks: u32,
    /// The operation's size as NCCL's tests report it: the bytes of each rank's buffer.
    pub bytes: u64,
    /// NCCL's bus-bandwidth factor of the operation over `ranks` (busbw = algbw x factor):
    /// 2(n-1)/n for allreduce, (n-1)/n for allgather, reduce-scatter and all-to-all, 1 for
    /// point-to-point patterns (NVIDIA nccl-tests, doc/PERFORMANCE.md).
    pub bus_factor: f64,
    pub iterations: u32,
    /// Names of the phases messages belong to ("reduce-scatter", "allgather", ...).
    pub phases: Vec<String>,
    pub messages: Vec<Message>,
    dep_offsets: Vec<u32>,
    deps: Vec<u32>,
}

impl Workload {
    /// Messages `i` waits for.
    #[inline]
    pub fn deps(&self, i: usize) -> &[u32] {
        &self.deps[self.dep_offsets[i] as usize..self.dep_offsets[i + 1] as usize]
    }

    pub fn total_bytes(&self) -> u64 {
        self.messages.iter().map(|m| m.bytes).sum()
    }

    /// The workload `spec` (`allreduce:algorithm=ring,bytes=1MiB`, ...) on `net`: `ranks`
    /// defaults to `default_ranks` (the endpoints a job may use).
    pub fn parse(spec: &str, net: &Network, default_ranks: u32) -> Result<Workload> {
        Ok(collectives::parse(spec, Some(net), default_ranks)?.0)
    }

    /// The workload `spec` over `ranks` ranks without a network (the hierarchical allreduce then
    /// needs its `group_size`).
    pub fn parse_for_ranks(spec: &str, ranks: u32) -> Result<Workload> {
        Ok(collectives::parse(spec, None, ranks)?.0)
    }

    /// A workload from explicit messages and dependencies (`deps[i]`: the messages message
    /// `i` waits for), checked: ranks in range, dependencies earlier in the list and received
    /// by the message's sender.
    #[allow(clippy::too_many_arguments)]
    pub fn from_messages(
        name: &str,
        ranks: u32,
        bytes: u64,
        bus_factor: f64,
        phases: Vec<String>,
        messages: Vec<Message>,
        deps: &[Vec<u32>],
    ) -> Result<Workload> {
        if deps.len() != messages.len() {
            return Err(TopolabError::invalid(
                "workload",
                "deps",
                format!("{} lists", deps.len()),
                format!("one list per message ({})", messages.len()),
            ));
        }
        let mut b = Builder::new(ranks, phases);
        for (m, d) in messages.iter().zip(deps) {
            b.push(*m, d);
        }
        let w = b.finish(name, "custom", "explicit", bytes, bus_factor, 1);
        w.check()?;
        Ok(w)
    }

    /// Ranks in range, phases known, every dependency an earlier message received by the
    /// dependent message's sender.
    pub fn check(&self) -> Result<()> {
        let bad = |param: &str, value: String, allowed: String| {
            Err(TopolabError::invalid(
                format!("workload {}", self.name),
                param,
                value,
                &allowed,
            ))
        };
        if self.messages.len() as u64 > MAX_MESSAGES {
            return bad(
                "messages",
                self.messages.len().to_string(),
                format!("at most {MAX_MESSAGES}"),
            );
        }
        for (i, m) in self.messages.iter().enumerate() {
            if m.src >= self.ranks || m.dst >= self.ranks {
                return bad(
                    "rank",
                    format!("message {i} from {} to {}", m.src, m.dst),
                    format!("ranks below {}", self.ranks),
                );
            }
            if m.phase as usize >= self.phases.len().max(1) {
                return bad(
                    "phase",
                    format!("message {i} in phase {}", m.phase),
                    format!("a phase below {}", self.phases.len()),
                );
            }
            for &d in self.deps(i) {
                if d as usize >= i {
                    return bad(
                        "deps",
                        format!("message {i} waits for message {d}"),
                        "a message earlier in the list".to_string(),
                    );
                }
                if self.messages[d as usize].dst != m.src {
                    return bad(
                        "deps",
                        format!(
                            "message {i} (sent by rank {}) waits for message {d}, received by rank {}",
                            m.src, self.messages[d as usize].dst
                        ),
                        "messages received by the waiting message's sender (a rank waits only \
                         for what it receives)"
                            .to_string(),
                    );
                }
            }
        }
        Ok(())
    }
}

/// Accumulates messages and their dependencies.
pub(crate) struct Builder {
    ranks: u32,
    phases: Vec<String>,
    messages: Vec<Message>,
    dep_offsets: Vec<u32>,
    deps: Vec<u32>,
}

impl Builder {
    pub(crate) fn new(ranks: u32, phases: Vec<String>) -> Builder {
        Builder {
            ranks,
            phases,
            messages: Vec::new(),
            dep_offsets: vec![0],
            deps: Vec::new(),
        }
    }

    /// Appends `m` waiting for `deps`; returns its index.
    pub(crate) fn push(&mut self, m: Message, deps: &[u32]) -> u32 {
        self.messages.push(m);
        self.deps.extend_from_slice(deps);
        self.dep_offsets.push(self.deps.len() as u32);
        (self.messages.len() - 1) as u32
    }

    pub(crate) fn len(&self) -> usize {
        self.messages.len()
    }

    pub(crate) fn finish(
        self,
        name: &str,
        operation: &'static str,
        algorithm: &'static str,
        bytes: u64,
        bus_factor: f64,
        iterations: u32,
    ) -> Workload {
        Workload {
            name: name.to_string(),
            operation,
            algorithm,
            ranks: self.ranks,
            bytes,
            bus_factor,
            iterations,
            phases: self.phases,
            messages: self.messages,
            dep_offsets: self.dep_offsets,
            deps: self.deps,
        }
    }
}

/// A byte count written `1048576`, `64KiB`, `1MiB`, `2GiB` or with K, M, G (also powers of
/// 1024, as message sizes are quoted in the field: NCCL's tests print 1M for 1,048,576).
pub fn parse_bytes(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits.parse().ok()?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes_read_as_powers_of_1024() {
        assert_eq!(parse_bytes("4096"), Some(4096));
        assert_eq!(parse_bytes("64KiB"), Some(65536));
        assert_eq!(parse_bytes("1M"), Some(1 << 20));
        assert_eq!(parse_bytes("2gib"), Some(2 << 30));
        assert_eq!(parse_bytes("1.5M"), None);
        assert_eq!(parse_bytes("12Q"), None);
        assert_eq!(parse_bytes(""), None);
    }

    #[test]
    fn explicit_messages_are_checked() {
        let m = |src, dst| Message {
            src,
            dst,
            bytes: 8,
            delay: 0,
            phase: 0,
            iteration: 0,
        };
        let ok = Workload::from_messages(
            "pingpong",
            2,
            8,
            1.0,
            vec!["p2p".into()],
            vec![m(0, 1), m(1, 0)],
            &[vec![], vec![0]],
        );
        assert!(ok.is_ok());
        // Rank 0 cannot wait for a message rank 1 receives.
        let err = Workload::from_messages(
            "bad",
            2,
            8,
            1.0,
            vec!["p2p".into()],
            vec![m(0, 1), m(0, 1)],
            &[vec![], vec![0]],
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("received by rank 1"), "{err}");
        let err = Workload::from_messages(
            "fwd",
            2,
            8,
            1.0,
            vec!["p2p".into()],
            vec![m(0, 1), m(1, 0)],
            &[vec![1], vec![]],
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("earlier in the list"), "{err}");
        let err = Workload::from_messages(
            "range",
            2,
            8,
            1.0,
            vec!["p2p".into()],
            vec![m(0, 2)],
            &[vec![]],
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("ranks below 2"), "{err}");
    }
}
