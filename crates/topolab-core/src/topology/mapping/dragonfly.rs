//! Mapping a Dragonfly (Daryin & Korzh, JSFI 2014, §2.2): the classes of the link relation ε
//! with more than one link are the local links of one group each; every other link is global.
//!
//! One departure from Daryin & Korzh (JSFI 2014), with the reason: they build ε with the rectangle
//! rule of §2.1 too. In a Dragonfly a 4-cycle can hold local and global links (two routers of group
//! A cabled to two routers of group B, or three global links and one local one through three
//! groups), and the rectangle rule then puts both groups' local links, or a global link, into one
//! class. Groups are complete graphs, so the triangle rule alone already joins a group's local
//! links (for groups of at least 3 routers); the rectangle rule is left out here.
//!
//! A second departure: global links can form triangles too (three routers of three groups
//! cabled pairwise, which the usual layouts produce once h >= 2), giving classes of three
//! links besides the groups' classes of a(a-1)/2. A router's group is therefore the largest
//! class among its links; a tie (a = 3 with global triangles) is reported as ambiguous.
//!
//! Checks, each naming the property that failed: every router on a triangle (a group has at
//! least 3 routers), no router in two classes of the same largest size, no group's class
//! reaching into another group, groups of equal size, every group complete and every two
//! groups joined, up to `max_missing` missing links (a cabling fault).
//!
//! Numbering (unique up to the Dragonfly's symmetries, permutations of groups and of routers
//! within a group): groups in order of their smallest router id, routers within a group by id.

use super::{check_missing, link_classes, not_of_family, Mapped, MappingReport};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};

const FAMILY: &str = "Dragonfly";
const SECTION: &str = "§2.2";

pub fn map(net: &Network, max_missing: u64) -> Result<Mapped> {
    let n = net.num_routers();
    let links = net.links();
    let (class, count) = link_classes(net, false);
    let mut size = vec![0u32; count];
    for &c in &class {
        size[c as usize] += 1;
    }
    // The group of every router: the largest class with more than one link among its links'
    // classes (global triangles form classes of three links, a group of a routers one of
    // a(a-1)/2).
    let mut group_class = vec![u32::MAX; n];
    for (r, slot) in group_class.iter_mut().enumerate() {
        let mut best = u32::MAX;
        let mut tie = false;
        for &l in net.neighbor_links(r) {
            let c = class[l as usize];
            if size[c as usize] < 2 || c == best {
                continue;
            }
            if best == u32::MAX || size[c as usize] > size[best as usize] {
                best = c;
                tie = false;
            } else if size[c as usize] == size[best as usize] {
                tie = true;
            }
        }
        if tie {
            return Err(not_of_family(
                FAMILY,
                SECTION,
                format!(
                    "router {r} lies in two triangle-connected link classes of {} links each, \
                     so its group is ambiguous (global links form triangles as large as a group)",
                    size[best as usize]
                ),
            ));
        }
        *slot = best;
    }
    if let Some(r) = group_class.iter().position(|&g| g == u32::MAX) {
        return Err(not_of_family(
            FAMILY,
            SECTION,
            format!(
                "router {r} is on no triangle of links, so it belongs to no group \
                 (a group is a complete graph of at least 3 routers)"
            ),
        ));
    }
    // Groups numbered by smallest router, indices by router id within the group.
    let mut group_of_class = vec![u32::MAX; count];
    let mut group = vec![0u32; n];
    let mut index = vec![0u32; n];
    let mut members: Vec<u32> = Vec::new();
    for r in 0..n {
        let c = group_class[r] as usize;
        if group_of_class[c] == u32::MAX {
            group_of_class[c] = members.len() as u32;
            members.push(0);
        }
        let g = group_of_class[c];
        group[r] = g;
        index[r] = members[g as usize];
        members[g as usize] += 1;
    }
    // A group's class must hold no router of another group (two groups joined by triangles).
    for (l, link) in links.iter().enumerate() {
        let c = class[l];
        let (gs, gd) = (
            group_class[link.src as usize],
            group_class[link.dst as usize],
        );
        if (gs == c) != (gd == c) {
            let r = if gs == c { link.dst } else { link.src };
            return Err(not_of_family(
                FAMILY,
                SECTION,
                format!(
                    "the local links of the group of router {} reach router {r}, which belongs to another group",
                    if gs == c { link.src } else { link.dst }
                ),
            ));
        }
    }
    let groups = members.len();
    let a = members[0];
    if let Some(g) = members.iter().position(|&m| m != a) {
        return Err(not_of_family(
            FAMILY,
            SECTION,
            format!(
                "groups differ in size: group 0 has {a} routers, group {g} has {}",
                members[g]
            ),
        ));
    }
    let mut by_group: Vec<Vec<u32>> = vec![Vec::new(); groups];
    for r in 0..n {
        by_group[group[r] as usize].push(r as u32);
    }
    let mut missing = Vec::new();
    for rs in &by_group {
        for (i, &u) in rs.iter().enumerate() {
            for &v in &rs[i + 1..] {
                if super::link_between(net, u, v).is_none() {
                    missing.push((u, v));
                }
            }
        }
    }
    let mut cables = vec![0u32; groups * groups];
    let mut local_width = 0;
    for link in links {
        let (gs, gd) = (
            group[link.src as usize] as usize,
            group[link.dst as usize] as usize,
        );
        if gs == gd {
            local_width = local_width.max(link.width);
        } else {
            cables[gs * groups + gd] += link.width;
            cables[gd * groups + gs] += link.width;
        }
    }
    for g in 0..groups {
        for h in g + 1..groups {
            if cables[g * groups + h] == 0 {
                // No router pair stands for a missing group-to-group link; name the groups
                // by their first routers.
                missing.push((by_group[g][0], by_group[h][0]));
            }
        }
    }
    check_missing(
        FAMILY,
        SECTION,
        &missing,
        0,
        max_missing,
        "every group must be a complete graph and every two groups joined by a global link",
    )?;
    let mut b = NetworkBuilder::new("dragonfly", n, false);
    b.label_fields(&["group", "index"]);
    let local = b.link_class("local");
    let global = b.link_class("global");
    for r in 0..n {
        b.set_label(r, &[group[r] as i64, index[r] as i64]);
        b.set_endpoints(r, net.endpoints()[r]);
    }
    for link in links {
        let c = if group[link.src as usize] == group[link.dst as usize] {
            local
        } else {
            global
        };
        b.add_link(link.src as usize, link.dst as usize, link.width, c);
    }
    Ok(Mapped {
        network: b.build()?,
        report: MappingReport {
            family: "dragonfly".into(),
            shape: vec![groups as u32, a],
            widths: vec![local_width, cables.iter().copied().max().unwrap_or(0)],
            missing_links: missing,
            missing_cables: 0,
        },
    })
}
