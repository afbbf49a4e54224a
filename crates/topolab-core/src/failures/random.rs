//! Random failure sets: a fraction of the cables or of the routers, each subset of that size
//! equally likely (a partial Fisher-Yates shuffle of `rng::stream(seed, Stream::Failures, k)`,
//! k = 0 for cables, 1 for routers), so the same seed fails the same cables on any machine.

use super::{fraction, Failed, FailureKind, FailureSet, FRACTION, SEED};
use crate::network::Network;
use crate::rng::{stream, Stream};
use rand::Rng;

pub const LINKS: FailureKind = FailureKind {
    name: "links",
    summary:
        "a random fraction of the cables (a link of width w is w cables; it is gone when all fail)",
    params: &[FRACTION, SEED],
    parse: |p| {
        Ok(FailureSet::RandomLinks {
            fraction: fraction(p)?,
            seed: p.seed()?,
        })
    },
};

pub const ROUTERS: FailureKind = FailureKind {
    name: "routers",
    summary: "a random fraction of the routers, with their links and endpoints",
    params: &[FRACTION, SEED],
    parse: |p| {
        Ok(FailureSet::RandomRouters {
            fraction: fraction(p)?,
            seed: p.seed()?,
        })
    },
};

/// `round(fraction * len)` distinct indices of 0..len, uniformly.
fn choose(len: usize, fraction: f64, seed: u64, index: u64) -> Vec<usize> {
    let k = ((fraction * len as f64).round() as usize).min(len);
    let mut rng = stream(seed, Stream::Failures, index);
    let mut items: Vec<usize> = (0..len).collect();
    for i in 0..k {
        let j = rng.random_range(i..len);
        items.swap(i, j);
    }
    items.truncate(k);
    items
}

/// Fails `round(fraction * cables)` cables; a link loses as many of its parallel cables as
/// were drawn.
pub fn links(net: &Network, fraction: f64, seed: u64, failed: &mut Failed) {
    let owner: Vec<usize> = net
        .links()
        .iter()
        .enumerate()
        .flat_map(|(l, link)| std::iter::repeat_n(l, link.width as usize))
        .collect();
    for c in choose(owner.len(), fraction, seed, 0) {
        let l = owner[c];
        failed.cables[l] = (failed.cables[l] + 1).min(net.links()[l].width);
    }
}

/// Fails `round(fraction * routers)` routers.
pub fn routers(net: &Network, fraction: f64, seed: u64, failed: &mut Failed) {
    for r in choose(net.num_routers(), fraction, seed, 1) {
        failed.routers[r] = true;
    }
}
