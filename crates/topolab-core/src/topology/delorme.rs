//! Delorme graphs: diameter 3, (v+1)^2 (v^2+1)^2 routers of network radix (v+1)^2 for a prime
//! power v (Delorme, "Grands graphes de degré et diamètre donnés", Europ. J. Combin. 6, 1985;
//! Besta & Hoefler, SC14, §II-C, reference [24]).
//!
//! Built from the generalized quadrangle W(v) (the symplectic quadrangle): its points are the
//! 1-dimensional subspaces of GF(v)^4, its lines the 2-dimensional subspaces on which the
//! alternating form x0 y2 + x1 y3 - x2 y0 - x3 y1 vanishes; (v+1)(v^2+1) of each, every point
//! on v+1 lines, every line through v+1 points. Routers are the pairs (point P, line l);
//!   (P, l) ~ (P', l')  iff  P lies on l' and P' lies on l.
//! A walk of length k from (P, l) to (X, Y) is a walk of length k from P and one from l in the
//! quadrangle's incidence graph, ending at (Y, X) for odd k and at (X, Y) for even k. Every point
//! is within 3 of every line there (a generalized quadrangle's incidence graph has diameter 4
//! and is bipartite), so every router is reached in 3 steps. A pair with P on l would be its own
//! neighbour; that loop is left out, so the (v+1)^2 (v^2+1) such routers have one link fewer.

use super::design::{candidate, sizes_of, Candidate, DesignSpace, Window};
use super::{
    ensure_size, p_param, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind, Sizes,
};
use crate::error::Result;
use crate::field::{check_order, Field};
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;
use std::collections::BTreeSet;

pub const FAMILY: Family = Family {
    name: "delorme",
    aliases: &["del"],
    summary: "Delorme graph: diameter 3, (v+1)^2 (v^2+1)^2 routers of network radix (v+1)^2",
    source: "Delorme, Europ. J. Combin. 6 (1985); Besta & Hoefler, SC14, §II-C",
    directed: false,
    params: &[
        ParamDef {
            name: "v",
            kind: ParamKind::Int,
            default: None,
            help: "prime power >= 2 (the order of the generalized quadrangle W(v))",
        },
        p_param(
            "the balanced p of Besta & Hoefler, SC14, §II-B2 (k' N_r / Σ distances), rounded up",
        ),
    ],
    build,
    example: "delorme:v=2",
    samples: &["delorme:v=2,p=3", "delorme:v=3"],
    display_name: "Delorme",
    sizes,
    // Besta & Hoefler, SC14, compare Delorme graphs by their size alone (§II-C, Fig. 5b) and
    // simulate none; no publication gives them a routing or a worst-case pattern.
    routing: FamilyRouting {
        specific: &[],
        simulation: None,
    },
    placement: FamilyPlacement::Grouped {
        field: "point",
        what:
            "delorme racks: the (v+1)(v^2+1) routers (P, *) of one quadrangle point P form a rack",
        structure: "delorme (racks by quadrangle point)",
    },
    design: Some(DESIGN),
};

/// The generalized quadrangle W(v): each line's points and each point's lines.
pub struct Quadrangle {
    pub point_lines: Vec<Vec<usize>>,
    pub line_points: Vec<Vec<usize>>,
}

impl Quadrangle {
    pub fn symplectic(field: &Field) -> Quadrangle {
        let q = field.order();
        let inverse = |a: u32| (1..q).find(|&b| field.mul(a, b) == 1).expect("nonzero");
        // Points: vectors whose first nonzero coordinate is 1, indexed in base-q order.
        let encode = |x: &[u32; 4]| {
            x.iter()
                .fold(0usize, |acc, &c| acc * q as usize + c as usize)
        };
        let mut index = vec![usize::MAX; (q as usize).pow(4)];
        let mut points: Vec<[u32; 4]> = Vec::new();
        for (code, slot) in index.iter_mut().enumerate() {
            let mut x = [0u32; 4];
            let mut rest = code;
            for c in x.iter_mut().rev() {
                *c = (rest % q as usize) as u32;
                rest /= q as usize;
            }
            if x.iter().find(|&&c| c != 0) == Some(&1) {
                *slot = points.len();
                points.push(x);
            }
        }
        let normalized = |x: [u32; 4]| {
            let lead = *x.iter().find(|&&c| c != 0).expect("nonzero vector");
            let s = inverse(lead);
            index[encode(&x.map(|c| field.mul(s, c)))]
        };
        let form = |x: &[u32; 4], y: &[u32; 4]| {
            let plus = field.add(field.mul(x[0], y[2]), field.mul(x[1], y[3]));
            let minus = field.add(field.mul(x[2], y[0]), field.mul(x[3], y[1]));
            field.sub(plus, minus)
        };
        // Each totally isotropic line once, as the sorted set of its q + 1 points.
        let mut lines: BTreeSet<Vec<usize>> = BTreeSet::new();
        for (i, x) in points.iter().enumerate() {
            for y in &points[i + 1..] {
                if form(x, y) != 0 {
                    continue;
                }
                let mut on_line = vec![i];
                for a in 0..q {
                    // a x + y covers the line's other q points
                    let z: [u32; 4] = std::array::from_fn(|k| field.add(field.mul(a, x[k]), y[k]));
                    on_line.push(normalized(z));
                }
                on_line.sort_unstable();
                lines.insert(on_line);
            }
        }
        let line_points: Vec<Vec<usize>> = lines.into_iter().collect();
        let mut point_lines = vec![Vec::new(); points.len()];
        for (l, pts) in line_points.iter().enumerate() {
            for &pt in pts {
                point_lines[pt].push(l);
            }
        }
        Quadrangle {
            point_lines,
            line_points,
        }
    }

    /// Distances in the incidence graph from a point (`from_line` false) or a line: (to every
    /// point, to every line).
    fn incidence_distances(&self, start: usize, from_line: bool) -> (Vec<u8>, Vec<u8>) {
        let mut to_point = vec![u8::MAX; self.point_lines.len()];
        let mut to_line = vec![u8::MAX; self.line_points.len()];
        let mut frontier = vec![(start, from_line)];
        if from_line {
            to_line[start] = 0;
        } else {
            to_point[start] = 0;
        }
        let mut level = 0u8;
        while !frontier.is_empty() {
            level += 1;
            let mut next = Vec::new();
            for (node, is_line) in frontier {
                let (across, dist) = if is_line {
                    (&self.line_points[node], &mut to_point)
                } else {
                    (&self.point_lines[node], &mut to_line)
                };
                for &other in across {
                    if dist[other] == u8::MAX {
                        dist[other] = level;
                        next.push((other, !is_line));
                    }
                }
            }
            frontier = next;
        }
        (to_point, to_line)
    }

    /// Σ of the distances from router (point, line) to every router (module comment: the
    /// shorter of the odd and the even walk pair).
    fn distance_sum_from(&self, point: usize, line: usize) -> u64 {
        let (p_to_point, p_to_line) = self.incidence_distances(point, false);
        let (l_to_point, l_to_line) = self.incidence_distances(line, true);
        // Histograms over X of (d(P, X), d(l, X)) and over Y of (d(P, Y), d(l, Y)); distances are
        // at most 4.
        let mut xs = [[0u64; 5]; 5];
        for x in 0..p_to_point.len() {
            xs[p_to_point[x] as usize][l_to_point[x] as usize] += 1;
        }
        let mut ys = [[0u64; 5]; 5];
        for y in 0..p_to_line.len() {
            ys[p_to_line[y] as usize][l_to_line[y] as usize] += 1;
        }
        let mut total = 0u64;
        for (a, row) in xs.iter().enumerate() {
            for (b, &nx) in row.iter().enumerate() {
                for (c, yrow) in ys.iter().enumerate() {
                    for (e, &ny) in yrow.iter().enumerate() {
                        let odd = c.max(b);
                        let even = a.max(e);
                        total += nx * ny * odd.min(even) as u64;
                    }
                }
            }
        }
        total
    }
}

/// Σ over ordered router pairs of their distance. W(v)'s group is transitive on flags (P on l)
/// and on anti-flags (P off l), so one router of each kind stands for its kind.
pub fn distance_sum(quadrangle: &Quadrangle) -> u64 {
    let points = quadrangle.point_lines.len();
    let lines = quadrangle.line_points.len();
    let flag_line = quadrangle.point_lines[0][0];
    let antiflag_line = (0..lines)
        .find(|l| !quadrangle.line_points[*l].contains(&0))
        .expect("W(v) has lines off every point");
    let flags = quadrangle.point_lines.iter().map(Vec::len).sum::<usize>() as u64;
    let antiflags = (points * lines) as u64 - flags;
    flags * quadrangle.distance_sum_from(0, flag_line)
        + antiflags * quadrangle.distance_sum_from(0, antiflag_line)
}

/// (v + 1)(v^2 + 1): the points (and the lines) of W(v).
fn quadrangle_size(v: u32) -> u128 {
    (v as u128 + 1) * (v as u128 * v as u128 + 1)
}

/// (v, p) after checking them; the default p needs the quadrangle, so it is built only then.
fn read_shape(p: &Params) -> Result<(u32, Option<u32>)> {
    let v = p.u32("v", 2, 64, "prime power >= 2")?;
    check_order(v, "delorme", "v")?;
    let routers = quadrangle_size(v).pow(2);
    let k_net = (v as u128 + 1).pow(2);
    ensure_size(p, "v", v, routers, routers * k_net / 2)?;
    let conc = p.opt_u32("p", 0, super::P_PARAM_MAX)?;
    Ok((v, conc))
}

/// Balanced p of SC14 §II-B2 for a graph whose routers differ in degree: the links' capacity
/// 2|E| over the uniform traffic's channel use per endpoint, N_r times the average distance.
fn balanced_p(v: u32, quadrangle: &Quadrangle) -> f64 {
    let routers = quadrangle_size(v).pow(2) as f64;
    let flags = quadrangle_size(v) as f64 * (v + 1) as f64;
    let link_ends = routers * ((v + 1) * (v + 1)) as f64 - flags;
    link_ends * routers / distance_sum(quadrangle) as f64
}

fn quadrangle(v: u32) -> Result<Quadrangle> {
    Ok(Quadrangle::symplectic(&Field::new(v, "delorme", "v")?))
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (v, conc) = read_shape(p)?;
    let balanced = balanced_p(v, &quadrangle(v)?);
    let conc = conc.unwrap_or(balanced.ceil() as u32);
    Ok(Sizes::direct(
        quadrangle_size(v).pow(2),
        (v + 1) * (v + 1),
        conc,
        balanced,
    ))
}

fn build(p: &Params) -> Result<Network> {
    let (v, conc) = read_shape(p)?;
    let gq = quadrangle(v)?;
    let conc = match conc {
        Some(c) => c,
        None => balanced_p(v, &gq).ceil() as u32,
    };
    let lines = gq.line_points.len();
    let routers = gq.point_lines.len() * lines;
    let mut b = NetworkBuilder::new("delorme", routers, false);
    b.label_fields(&["point", "line"]);
    let class = b.link_class("delorme");
    for (point, point_lines) in gq.point_lines.iter().enumerate() {
        for line in 0..lines {
            let r = point * lines + line;
            b.set_label(r, &[point as i64, line as i64]);
            for &other_line in point_lines {
                for &other_point in &gq.line_points[line] {
                    let s = other_point * lines + other_line;
                    if r < s {
                        b.add_link(r, s, 1, class);
                    }
                }
            }
        }
    }
    b.uniform_endpoints(conc);
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: None,
    twin: None,
    twin_origin: None,
};

/// Every prime power v with k' = (v+1)^2 leaving a port, every p putting N in the window.
/// Balanced p: Besta & Hoefler, SC14, §II-B2's 2|E| N_r / sum of distances, exact
/// (docs/families/delorme.md).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut v = 2u32;
    while (v + 1) * (v + 1) < w.radix {
        if let Some(base) = sizes_of("delorme", &[("v", v.into()), ("p", 1u32.into())]) {
            for p in w.concentrations(base.routers, w.radix as i64 - base.network_radix as i64) {
                out.extend(candidate(
                    "delorme",
                    vec![("v", v.into()), ("p", p.into())],
                    "Delorme, 1985; Besta & Hoefler, SC14, §II-C",
                    Vec::new(),
                    false,
                ));
            }
        }
        v += 1;
    }
    out
}

#[cfg(test)]
mod construction {
    //! Delorme graphs against Besta & Hoefler, SC14, §II-C: (v+1)^2 (v^2+1)^2 routers of network
    //! radix (v+1)^2 and diameter 3; the generalized quadrangle W(v) they come from against its
    //! axioms; the balanced p against the distances of the built network.

    use crate::field::Field;
    use crate::metrics::distance::{diameter, distances};
    use crate::progress::Silent;
    use crate::topology::delorme::Quadrangle;
    use crate::{build_str, sizes_str};
    use std::collections::BTreeSet;

    #[test]
    fn routers_degrees_and_diameter_follow_sc14() {
        for v in [2u64, 3] {
            let net = build_str(&format!("delorme:v={v}")).unwrap();
            let gq = (v + 1) * (v * v + 1);
            assert_eq!(net.num_routers() as u64, gq * gq);
            assert_eq!(net.network_radix() as u64, (v + 1) * (v + 1));
            // Routers (P, l) with P on l lose their loop: (v + 1) gq of them have one link fewer.
            let short = (0..net.num_routers())
                .filter(|&r| net.degree(r) as u64 == (v + 1) * (v + 1) - 1)
                .count() as u64;
            let full = (0..net.num_routers())
                .filter(|&r| net.degree(r) as u64 == (v + 1) * (v + 1))
                .count() as u64;
            assert_eq!(
                (short, full),
                ((v + 1) * gq, gq * gq - (v + 1) * gq),
                "v={v}"
            );
            assert_eq!(diameter(&net), Some(3), "v={v}");
        }
    }

    #[test]
    fn w_q_is_a_generalized_quadrangle() {
        for v in [2u32, 3, 4, 5] {
            let gq = Quadrangle::symplectic(&Field::new(v, "t", "v").unwrap());
            let size = ((v + 1) * (v * v + 1)) as usize;
            assert_eq!(gq.point_lines.len(), size);
            assert_eq!(gq.line_points.len(), size);
            assert!(gq.point_lines.iter().all(|ls| ls.len() == v as usize + 1));
            assert!(gq.line_points.iter().all(|ps| ps.len() == v as usize + 1));
            let lines_of: Vec<BTreeSet<usize>> = gq
                .point_lines
                .iter()
                .map(|ls| ls.iter().copied().collect())
                .collect();
            // Two points share at most one line; a point off a line is collinear with exactly one
            // of its points (the GQ axiom).
            for (p, lines) in lines_of.iter().enumerate() {
                for other in &lines_of[p + 1..] {
                    assert!(lines.intersection(other).count() <= 1);
                }
                for (l, points) in gq.line_points.iter().enumerate() {
                    if lines.contains(&l) {
                        continue;
                    }
                    let collinear = points
                        .iter()
                        .filter(|&&x| !lines.is_disjoint(&lines_of[x]))
                        .count();
                    assert_eq!(collinear, 1, "v={v} point {p} line {l}");
                }
            }
        }
    }

    #[test]
    fn balanced_concentration_is_sc14_rule_on_the_exact_distances() {
        for spec in ["delorme:v=2", "delorme:v=3"] {
            let net = build_str(spec).unwrap();
            let all = distances(&net, &Silent).unwrap();
            let link_ends = 2.0 * net.num_links() as f64;
            let expected = link_ends * net.num_routers() as f64 / all.distance_sum() as f64;
            let s = sizes_str(spec).unwrap();
            assert!(
                (s.balanced_concentration - expected).abs() < 1e-9,
                "{spec}: {} vs {expected}",
                s.balanced_concentration
            );
            assert_eq!(s.concentration, expected.ceil() as u32, "{spec}: default p");
        }
    }

    #[test]
    fn sc14_sizes_without_building() {
        // SC14 §II-C: v = 9 gives k' = 100 and N_r = 100 * 82^2, 68% of the Moore bound.
        let s = sizes_str("delorme:v=9,p=1").unwrap();
        assert_eq!((s.routers, s.network_radix), (672_400, 100));
        let moore = 1 + 100 + 100 * 99 + 100 * 99 * 99;
        assert_eq!((100.0 * s.routers as f64 / moore as f64).round(), 68.0);
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, needle) in [
            ("delorme", "missing parameter 'v'"),
            ("delorme:v=6", "prime power"),
            ("delorme:v=1", "'v'"),
            ("delorme:v=11", "'v'"),
            ("delorme:v=2,p=-1", "'p'"),
            ("delorme:v=2,q=3", "unknown parameter 'q'"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
            assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg, "{spec}");
        }
    }
}
