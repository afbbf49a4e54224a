//! Mapping a FlatFly / HyperX (Daryin & Korzh, JSFI 2014, §2.1). Each class D_i of the link
//! relation ε (triangles and rectangles) is a dimension. Coordinates follow from N more
//! relations ε_i on routers: a link of D_j joins its ends in every ε_i with i != j, so the
//! classes of ε_i are the values of coordinate i.
//!
//! Checks, each naming the property that failed: the coordinates must be distinct on every
//! router (the product of the K_i equals the number of routers), and every dimension must be a
//! complete graph K_{K_i} at every position, up to `max_missing` missing links or cables
//! (a cabling fault). Links of a dimension may be wider (Daryin & Korzh, JSFI 2014, §1.2's link
//! widths L_i); the widest link of a dimension sets L_i and a narrower link counts its missing
//! cables.
//!
//! Numbering (the result is unique up to the HyperX's symmetries, permutations of the values
//! of a coordinate and of dimensions of equal size): dimensions by (K_i, their first link),
//! values of a coordinate in order of their smallest router id.

use super::{check_missing, link_classes, not_of_family, Mapped, MappingReport, UnionFind};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};

const FAMILY: &str = "HyperX";
const SECTION: &str = "§2.1";

pub fn map(net: &Network, max_missing: u64) -> Result<Mapped> {
    let n = net.num_routers();
    let links = net.links();
    if links.is_empty() {
        return Err(not_of_family(
            FAMILY,
            SECTION,
            format!("the network has {n} routers and no links"),
        ));
    }
    let (class, nd) = link_classes(net, true);
    // ε_i for every dimension i: router classes = values of coordinate i.
    let mut values: Vec<Vec<u32>> = Vec::with_capacity(nd);
    let mut sizes: Vec<u32> = Vec::with_capacity(nd);
    for i in 0..nd as u32 {
        let mut uf = UnionFind::new(n);
        for (l, link) in links.iter().enumerate() {
            if class[l] != i {
                uf.union(link.src, link.dst);
            }
        }
        let (v, k) = uf.classes();
        values.push(v);
        sizes.push(k as u32);
    }
    // Dimension order: by size, then by first link (class numbers follow the first link).
    let mut order: Vec<usize> = (0..nd).collect();
    order.sort_by_key(|&i| (sizes[i], i));
    let dims: Vec<u32> = order.iter().map(|&i| sizes[i]).collect();
    let product = dims
        .iter()
        .try_fold(1u64, |p, &k| p.checked_mul(k as u64))
        .unwrap_or(u64::MAX);
    if product != n as u64 {
        return Err(not_of_family(
            FAMILY,
            SECTION,
            format!(
                "the {nd} link classes (dimensions) have sizes {} whose product {product} is not the {n} routers: \
                 the routers are not the points of a Cartesian product of complete graphs",
                join(&dims)
            ),
        ));
    }
    let coords: Vec<Vec<u32>> = (0..n)
        .map(|r| order.iter().map(|&i| values[i][r]).collect())
        .collect();
    let mut seen: Vec<(&[u32], usize)> = coords.iter().map(|c| c.as_slice()).zip(0..n).collect();
    seen.sort_unstable();
    if let Some(w) = seen.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(not_of_family(
            FAMILY,
            SECTION,
            format!(
                "routers {} and {} get the same coordinates ({}): the link classes do not separate them",
                w[0].1,
                w[1].1,
                join(w[0].0)
            ),
        ));
    }
    let dim_of_class: Vec<usize> = {
        let mut d = vec![0; nd];
        for (pos, &i) in order.iter().enumerate() {
            d[i] = pos;
        }
        d
    };
    let mut widths = vec![0u32; nd];
    for (l, link) in links.iter().enumerate() {
        let d = dim_of_class[class[l] as usize];
        widths[d] = widths[d].max(link.width);
    }
    let mut missing_cables = 0u64;
    for (l, link) in links.iter().enumerate() {
        missing_cables += (widths[dim_of_class[class[l] as usize]] - link.width) as u64;
    }
    // Index routers by coordinates to list the links a complete HyperX has and this lacks.
    let mut strides = vec![1u64; nd];
    for d in 1..nd {
        strides[d] = strides[d - 1] * dims[d - 1] as u64;
    }
    let mut at = vec![u32::MAX; n];
    for (r, c) in coords.iter().enumerate() {
        let idx: u64 = c.iter().zip(&strides).map(|(&x, &s)| x as u64 * s).sum();
        at[idx as usize] = r as u32;
    }
    let mut missing = Vec::new();
    for (r, c) in coords.iter().enumerate() {
        let idx: u64 = c.iter().zip(&strides).map(|(&x, &s)| x as u64 * s).sum();
        for d in 0..nd {
            for v in c[d] + 1..dims[d] {
                let other = at[(idx + (v - c[d]) as u64 * strides[d]) as usize];
                if super::link_between(net, r as u32, other).is_none() {
                    missing.push(((r as u32).min(other), (r as u32).max(other)));
                }
            }
        }
    }
    missing.sort_unstable();
    check_missing(
        FAMILY,
        SECTION,
        &missing,
        missing_cables,
        max_missing,
        "every dimension must be a complete graph at every position",
    )?;
    let mut b = NetworkBuilder::new("hyperx", n, false);
    let fields: Vec<String> = (0..nd).map(|d| format!("d{d}")).collect();
    b.label_fields(&fields.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    let classes: Vec<u16> = (0..nd).map(|d| b.link_class(&format!("dim{d}"))).collect();
    for (r, c) in coords.iter().enumerate() {
        b.set_label(r, &c.iter().map(|&x| x as i64).collect::<Vec<_>>());
        b.set_endpoints(r, net.endpoints()[r]);
    }
    for (l, link) in links.iter().enumerate() {
        let d = dim_of_class[class[l] as usize];
        b.add_link(link.src as usize, link.dst as usize, link.width, classes[d]);
    }
    Ok(Mapped {
        network: b.build()?,
        report: MappingReport {
            family: "hyperx".into(),
            shape: dims,
            widths,
            missing_links: missing,
            missing_cables,
        },
    })
}

fn join(v: &[u32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("x")
}
