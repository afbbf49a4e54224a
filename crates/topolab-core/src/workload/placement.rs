//! Where a job's ranks run: one rank per endpoint, jobs placed one after the other on the
//! endpoints the jobs before them left free.

use crate::traffic::pattern_rng;
use crate::{Network, Result, TopolabError};
use rand::seq::SliceRandom;

/// How a job's ranks are put on free endpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// Rank i on the i-th free endpoint (endpoint ids run router by router).
    Contiguous,
    /// A random choice of free endpoints in random order.
    Random { seed: u64 },
    /// Round robin over the routers with free endpoints: consecutive ranks on different
    /// routers.
    Router,
    /// A ring following the network: routers in depth-first order from router 0, so that
    /// consecutive ranks share a router or sit on routers close together (a topology-aware
    /// ring for ring collectives).
    Ring,
    /// Round robin over the network's groups (the `group` label field: Dragonfly, Dragonfly+,
    /// Slim Fly subgraphs), consecutive ranks in different groups.
    Group,
    /// Rank i on endpoint `ids[i]`.
    Explicit(Vec<u32>),
}

/// The placements' names and what they do, for help texts.
pub const PLACEMENTS: &[(&str, &str)] = &[
    ("contiguous", "rank i on the i-th free endpoint"),
    ("random", "free endpoints in a random order (seed)"),
    ("router", "round robin over routers"),
    ("group", "round robin over the network's groups"),
    (
        "ring",
        "routers in depth-first order: consecutive ranks on the same or nearby routers",
    ),
];

impl Placement {
    /// The placement named `name` (`seed` for random).
    pub fn parse(context: &str, name: &str, seed: u64) -> Result<Placement> {
        match name.trim().to_ascii_lowercase().as_str() {
            "contiguous" | "linear" => Ok(Placement::Contiguous),
            "random" => Ok(Placement::Random { seed }),
            "router" | "spread" => Ok(Placement::Router),
            "group" => Ok(Placement::Group),
            "ring" => Ok(Placement::Ring),
            other => Err(TopolabError::invalid(
                context,
                "placement",
                format!("'{other}'"),
                "contiguous, random, router, group or ring (or mapping=FILE)",
            )),
        }
    }

    /// Reads a mapping: endpoint ids separated by white space or commas, `#` comments.
    pub fn from_text(context: &str, text: &str) -> Result<Placement> {
        let mut ids = Vec::new();
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("");
            for word in line.split(|c: char| c.is_whitespace() || c == ',') {
                if word.is_empty() {
                    continue;
                }
                let id = word.parse::<u32>().map_err(|_| {
                    TopolabError::invalid(
                        context,
                        "mapping",
                        format!("'{word}'"),
                        "endpoint ids (non-negative integers), one per rank",
                    )
                })?;
                ids.push(id);
            }
        }
        Ok(Placement::Explicit(ids))
    }
}

/// The endpoints of each job, `jobs[j] = (context, ranks, placement)`, placed in order on the
/// endpoints left free by the jobs before.
pub fn place_jobs(net: &Network, jobs: &[(String, u32, Placement)]) -> Result<Vec<Vec<u32>>> {
    let total = u32::try_from(net.num_endpoints()).unwrap_or(u32::MAX);
    let mut used = vec![false; total as usize];
    let mut out = Vec::with_capacity(jobs.len());
    for (context, ranks, placement) in jobs {
        let free: Vec<u32> = (0..total).filter(|&e| !used[e as usize]).collect();
        if (*ranks as usize) > free.len() {
            return Err(TopolabError::invalid(
                context,
                "ranks",
                ranks,
                format!(
                    "at most the {} endpoints the jobs before left free (of {total})",
                    free.len()
                ),
            ));
        }
        let chosen: Vec<u32> = match placement {
            Placement::Contiguous => free[..*ranks as usize].to_vec(),
            Placement::Random { seed } => {
                let mut f = free;
                f.shuffle(&mut pattern_rng(*seed, 0x706c6163));
                f.truncate(*ranks as usize);
                f
            }
            Placement::Ring => {
                let order = depth_first_order(net);
                let mut f = free;
                f.sort_by_key(|&e| (order[net.endpoint_router(e as u64).unwrap_or(0)], e));
                f.truncate(*ranks as usize);
                f
            }
            Placement::Router => round_robin(&free, *ranks, |e| {
                net.endpoint_router(e as u64).unwrap_or(0) as i64
            }),
            Placement::Group => {
                let Some(field) = net.label_fields().iter().position(|f| f == "group") else {
                    return Err(TopolabError::invalid(
                        context,
                        "placement",
                        "'group'",
                        format!(
                            "a network whose routers have a group label ({} has none: use \
                             router, contiguous or random)",
                            net.family()
                        ),
                    ));
                };
                round_robin(&free, *ranks, |e| {
                    let r = net.endpoint_router(e as u64).unwrap_or(0);
                    net.label(r).get(field).copied().unwrap_or(0)
                })
            }
            Placement::Explicit(ids) => {
                if ids.len() != *ranks as usize {
                    return Err(TopolabError::invalid(
                        context,
                        "mapping",
                        format!("{} endpoint ids", ids.len()),
                        format!("one endpoint id per rank ({ranks})"),
                    ));
                }
                let mut seen = vec![false; total as usize];
                for &e in ids {
                    if e >= total || used[e as usize] || seen[e as usize] {
                        return Err(TopolabError::invalid(
                            context,
                            "mapping",
                            format!("endpoint {e}"),
                            format!(
                                "distinct endpoint ids below {total}, not used by an earlier job"
                            ),
                        ));
                    }
                    seen[e as usize] = true;
                }
                ids.clone()
            }
        };
        for &e in &chosen {
            used[e as usize] = true;
        }
        out.push(chosen);
    }
    Ok(out)
}

/// Each router's position in a depth-first walk from router 0 (neighbours in the order the
/// network lists them; another component's routers after, from its lowest id).
fn depth_first_order(net: &Network) -> Vec<usize> {
    let n = net.num_routers();
    let mut position = vec![usize::MAX; n];
    let mut next = 0;
    let mut stack = Vec::new();
    for root in 0..n {
        if position[root] != usize::MAX {
            continue;
        }
        stack.push(root);
        while let Some(r) = stack.pop() {
            if position[r] != usize::MAX {
                continue;
            }
            position[r] = next;
            next += 1;
            // reversed, so that the first neighbour is visited first
            for &m in net.neighbors(r).iter().rev() {
                if position[m as usize] == usize::MAX {
                    stack.push(m as usize);
                }
            }
        }
    }
    position
}

/// `ranks` of `free` endpoints, taking one from each bin (`bin_of`) in turn, bins in order of
/// their first free endpoint.
fn round_robin(free: &[u32], ranks: u32, bin_of: impl Fn(u32) -> i64) -> Vec<u32> {
    let mut bins: Vec<(i64, std::collections::VecDeque<u32>)> = Vec::new();
    for &e in free {
        let b = bin_of(e);
        match bins.iter_mut().find(|(k, _)| *k == b) {
            Some((_, q)) => q.push_back(e),
            None => bins.push((b, std::collections::VecDeque::from([e]))),
        }
    }
    let mut out = Vec::with_capacity(ranks as usize);
    while out.len() < ranks as usize {
        for (_, q) in bins.iter_mut() {
            if let Some(e) = q.pop_front() {
                out.push(e);
                if out.len() == ranks as usize {
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build_str;

    #[test]
    fn jobs_share_no_endpoint() {
        let net = build_str("hyperx:dims=4,p=3").unwrap();
        let jobs = vec![
            ("job 0".to_string(), 5, Placement::Router),
            ("job 1".to_string(), 4, Placement::Random { seed: 2 }),
            ("job 2".to_string(), 3, Placement::Contiguous),
        ];
        let placed = place_jobs(&net, &jobs).unwrap();
        // Router round robin: 0, 3, 6, 9 (one per router), then 1.
        assert_eq!(placed[0], vec![0, 3, 6, 9, 1]);
        let mut all: Vec<u32> = placed.concat();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 12);
        let err = place_jobs(
            &net,
            &[
                ("a".into(), 10, Placement::Contiguous),
                ("b".into(), 3, Placement::Contiguous),
            ],
        )
        .unwrap_err();
        assert!(err.to_string().contains("left free"), "{err}");
    }

    #[test]
    fn mappings_are_checked() {
        let net = build_str("hyperx:dims=2,p=2").unwrap();
        let m = Placement::from_text("job", "3 1 # two ranks").unwrap();
        assert_eq!(
            place_jobs(&net, &[("job".into(), 2, m)]).unwrap(),
            vec![vec![3, 1]]
        );
        for text in ["3 3", "0 4", "x y", "1"] {
            let m = Placement::from_text("job", text);
            let r = m.and_then(|m| place_jobs(&net, &[("job".into(), 2, m)]));
            assert!(r.unwrap_err().to_string().contains("mapping"), "{text}");
        }
    }
}
