//! Stacked Single-Path Trees (Kathareios et al., SC15, §2.2.2): the paper's counts
//! R1 = 1 + r1(r2 - 1), R2 = R1 r1 / r2, N = (r1²(r2 - 1) + r1)·2r1/r2 at p = r1 and s = 2r1/r2;
//! the single-path property (one common upper router for two lower routers of one SPT, r1 for
//! a router and its counterpart in another SPT); and the two special cases the paper names,
//! which must be today's MLFM (§2.2.3) and OFT (§2.2.4) link for link.

use std::collections::BTreeSet;
use topolab_core::{build_str, sizes_str, Network};

fn edges(net: &Network, relabel: impl Fn(u32) -> u32) -> BTreeSet<(u32, u32)> {
    net.links()
        .iter()
        .map(|l| {
            let (a, b) = (relabel(l.src), relabel(l.dst));
            (a.min(b), a.max(b))
        })
        .collect()
}

/// (lower routers per SPT, upper routers, stacks) read from the labels.
fn counts(net: &Network) -> (usize, usize, usize) {
    let lower = (0..net.num_routers()).filter(|&r| net.label(r)[0] == 0);
    let stacks = lower.clone().map(|r| net.label(r)[1]).max().unwrap() as usize + 1;
    let per = lower.count() / stacks;
    (per, net.num_routers() - per * stacks, stacks)
}

#[test]
fn default_stacks_follow_the_papers_counts() {
    for (r1, r2) in [(3u64, 2u64), (6, 2), (3, 3), (4, 4), (6, 6), (2, 2), (1, 2)] {
        let spec = format!("sspt:r1={r1},r2={r2}");
        let Ok(net) = build_str(&spec) else {
            panic!("{spec} refused")
        };
        let r_one = 1 + r1 * (r2 - 1);
        let (per, upper, stacks) = counts(&net);
        assert_eq!(per as u64, r_one, "{spec}");
        assert_eq!(upper as u64, r_one * r1 / r2, "{spec}");
        assert_eq!(stacks as u64, 2 * r1 / r2, "{spec}");
        let n = (r1 * r1 * (r2 - 1) + r1) * 2 * r1 / r2;
        assert_eq!(net.num_endpoints(), n, "{spec}");
        // identical routers of radix 2 r1; 2 links per endpoint counting its own link (§2.2.2)
        for r in 0..net.num_routers() {
            assert_eq!(
                net.degree(r) as u64 + net.endpoints()[r] as u64,
                2 * r1,
                "{spec}"
            );
        }
        assert_eq!(net.num_links() + n, 2 * n, "{spec}");
    }
}

#[test]
fn one_upper_router_joins_two_lower_routers_of_an_spt() {
    for spec in [
        "sspt:r1=3,r2=2,s=2",
        "sspt:r1=4,r2=4",
        "sspt:r1=5,r2=5,s=3",
        "sspt:r1=4,r2=3,s=2",
        "sspt:r1=5,r2=4,s=2",
        "sspt:r1=6,r2=5,s=2",
        "sspt:r1=1,r2=4,s=2",
    ] {
        let net = build_str(spec).unwrap();
        let (per, _, stacks) = counts(&net);
        let r1 = net.neighbors(0).len();
        let up = |r: usize| -> BTreeSet<u32> { net.neighbors(r).iter().copied().collect() };
        for a in 0..per * stacks {
            for b in a + 1..per * stacks {
                let common = up(a).intersection(&up(b)).count();
                let expected = if a % per == b % per { r1 } else { 1 };
                assert_eq!(common, expected, "{spec}: routers {a}, {b}");
            }
        }
    }
}

#[test]
fn r2_two_is_the_mlfm_link_for_link() {
    for (h, l, p) in [(1u32, 1u32, 1u32), (3, 3, 3), (4, 2, 5), (5, 7, 1)] {
        let mlfm = build_str(&format!("mlfm:h={h},l={l},p={p}")).unwrap();
        let spec = format!("sspt:r1={h},r2=2,s={l},p={p}");
        let sspt = build_str(&spec).unwrap();
        assert_eq!(sspt.num_routers(), mlfm.num_routers(), "{spec}");
        assert_eq!(sspt.endpoints(), mlfm.endpoints(), "{spec}");
        assert_eq!(edges(&sspt, |r| r), edges(&mlfm, |r| r), "{spec}");
        let (a, b) = (
            sizes_str(&spec).unwrap(),
            sizes_str(&format!("mlfm:h={h},l={l},p={p}")).unwrap(),
        );
        assert_eq!(a, b, "{spec}");
    }
}

#[test]
fn r2_equal_r1_with_two_stacks_is_the_oft_link_for_link() {
    for (k, p) in [(3u32, 3u32), (4, 4), (5, 2), (6, 6), (8, 1)] {
        let oft = build_str(&format!("oft:k={k},p={p}")).unwrap();
        let spec = format!("sspt:r1={k},r2={k},p={p}");
        let sspt = build_str(&spec).unwrap();
        let rl = 1 + k * (k - 1);
        // SSPT: stack 0, stack 1, upper; OFT: L0, L1 (upper), L2
        let to_oft = |r: u32| match r / rl {
            0 => r,
            1 => 2 * rl + r % rl,
            _ => rl + r % rl,
        };
        assert_eq!(sspt.num_routers(), oft.num_routers(), "{spec}");
        assert_eq!(edges(&sspt, to_oft), edges(&oft, |r| r), "{spec}");
        for r in 0..sspt.num_routers() as u32 {
            assert_eq!(
                sspt.endpoints()[r as usize],
                oft.endpoints()[to_oft(r) as usize]
            );
        }
        let (a, b) = (
            sizes_str(&spec).unwrap(),
            sizes_str(&format!("oft:k={k},p={p}")).unwrap(),
        );
        assert_eq!(a, b, "{spec}");
    }
}

#[test]
fn designs_without_a_construction_are_refused_by_name() {
    for (spec, needle) in [
        ("sspt:r1=5,r2=3", "'r2'"), // no 2-(11, 3, 1) design built here
        ("sspt:r1=7,r2=7", "'r2'"), // 6 is not a prime power
        ("sspt:r1=7,r2=6", "'r2'"), // nor is 6
        ("sspt:r1=4,r2=3", "'s'"),  // 3 does not divide 8: s must be given
        ("sspt:r1=3,r2=1", "'r2'"),
        ("sspt:r1=0,r2=2", "'r1'"),
        ("sspt:r1=3,r2=2,s=0", "'s'"),
        ("sspt:r2=2", "r1"),
    ] {
        let e = build_str(spec)
            .err()
            .unwrap_or_else(|| panic!("{spec} accepted"));
        assert!(e.to_string().contains(needle), "{spec}: {e}");
        assert_eq!(
            sizes_str(spec).err().map(|e| e.to_string()),
            Some(e.to_string())
        );
    }
}
