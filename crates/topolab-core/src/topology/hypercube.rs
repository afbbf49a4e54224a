//! Hypercube: the Cartesian product of n copies of K_2 (Daryin & Korzh, JSFI 2014, §1.3), 2^n
//! routers. Router r's label is its bits b0..b{n-1} (b_i = bit i of r, one field per bit, so a
//! label reads as the coordinates of a 2x2x...x2 torus with d_i = b_i); the dimension-i link flips
//! bit i and has class "dim<i>". Every link has the same width (Daryin & Korzh, JSFI 2014, §1.3
//! uses double links in each dimension).

use super::design::{candidate, tags, Candidate, DesignSpace, Member, Window, P1_TAG};
use super::{
    ensure_size, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "hypercube",
    aliases: &["hc"],
    summary: "hypercube: 2^n routers, router r joined to r XOR 2^i in each dimension i",
    source: "Daryin & Korzh, JSFI 2014, §1.3",
    directed: false,
    params: &[
        ParamDef {
            name: "n",
            kind: ParamKind::Int,
            default: None,
            help: "dimension; 2^n routers",
        },
        ParamDef {
            name: "width",
            kind: ParamKind::Int,
            default: Some("1"),
            help: "link width (parallel cables) in every dimension",
        },
        p_param("1 (Besta & Hoefler, SC14, §VI uses p = 1 for hypercubes)"),
    ],
    build,
    example: "hypercube:n=4",
    samples: &[
        "hypercube:n=4",
        "hypercube:n=1",
        "hypercube:n=5,width=2,p=3",
    ],
    display_name: "Hypercube",
    sizes,
    routing: FamilyRouting {
        specific: &["hypercube_nf", "hypercube_abo_nf", "hypercube_abo_pl"],
        simulation: Some(
            SimulationChoice::new("min", "bitcomp", "min")
                .noted("bit complement: all traffic crosses every cut"),
        ),
    },
    placement: FamilyPlacement::Sequential {
        what: "sequential in canonical order (Fujiwara et al., IPDPS 2014, §III-A)",
    },
    design: Some(DESIGN),
};

/// (n, width, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32)> {
    let n = p.u32("n", 1, 64, "dimension; 2^n routers")?;
    let routers = 1u128 << n;
    ensure_size(p, "n", n, routers, routers * n as u128 / 2)?;
    let width = p.opt_u32("width", 1, 1 << 16)?.unwrap_or(1);
    Ok((n, width, read_p(p, 1)?))
}

/// Balanced for p <= 2L (Daryin & Korzh, JSFI 2014, §1.3: beta = L / C, 25% for L = 2, C = 8).
fn sizes(p: &Params) -> Result<Sizes> {
    let (n, width, conc) = read_shape(p)?;
    Ok(Sizes::direct(
        1u128 << n,
        n * width,
        conc,
        2.0 * width as f64,
    ))
}

fn build(p: &Params) -> Result<Network> {
    let (n, width, conc) = read_shape(p)?;
    let routers = 1u128 << n;
    let (n, routers) = (n as usize, routers as usize);

    let mut b = NetworkBuilder::new("hypercube", routers, false);
    label_bits(&mut b, n);
    for i in 0..n {
        b.link_class(&format!("dim{i}"));
    }
    for r in 0..routers {
        for i in 0..n {
            let other = r ^ (1 << i);
            if r < other {
                b.add_link(r, other, width, i as u16);
            }
        }
    }
    b.uniform_endpoints(conc);
    b.build()
}

/// Labels each of the 2^n routers with its bits b0..b{n-1}, one field per bit: the numbering of
/// the families built on the hypercube's (`hypercube`, `longhop`).
pub fn label_bits(b: &mut NetworkBuilder, n: usize) {
    let fields: Vec<String> = (0..n).map(|i| format!("b{i}")).collect();
    let field_refs: Vec<&str> = fields.iter().map(|s| s.as_str()).collect();
    b.label_fields(&field_refs);
    let mut label = vec![0i64; n];
    for r in 0..1usize << n {
        for (i, bit) in label.iter_mut().enumerate() {
            *bit = ((r >> i) & 1) as i64;
        }
        b.set_label(r, &label);
    }
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// 2^n routers, width 1 to (K - p)/n in every dimension (Daryin & Korzh, JSFI 2014, §1.3 uses 2); p
/// = 1 as in Besta & Hoefler, SC14, §III, larger p subject to the limits. Balanced when p <= 2 L
/// (Daryin & Korzh, JSFI 2014, §1.3: beta = L / C, 25% for L = 2, C = 8).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut n = 1u32;
    while n < 63 && 1u64 << n <= w.hi && n < w.radix {
        for p in w.concentrations(1 << n, (w.radix - n) as i64) {
            for width in 1..=(w.radix - p) / n {
                let mut params = vec![("n", n.into())];
                if width > 1 {
                    params.push(("width", width.into()));
                }
                params.push(("p", p.into()));
                out.extend(candidate(
                    "hypercube",
                    params,
                    "Daryin & Korzh, JSFI 2014, §1.3; Besta & Hoefler, SC14, §III, Table IV",
                    if p == 1 { tags(&[P1_TAG]) } else { Vec::new() },
                    p == 1,
                ));
            }
        }
        n += 1;
    }
    out
}

/// Fewer dimensions with the same width and p: the balanced concentration 2L does not depend
/// on n.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let (width, p) = (m.int_or("width", 1), m.p());
    Ok((2..m.int("n")?)
        .map(|n| format!("hypercube:n={n},width={width},p={p}"))
        .collect())
}

#[cfg(test)]
mod construction {
    //! Hypercube against its closed forms (2^n routers, degree n, n 2^(n-1) links, diameter n) and
    //! the configurations of Daryin & Korzh, JSFI 2014, §1.3, Besta & Hoefler, SC14, Table IV and
    //! Fujiwara et al., IPDPS 2014, §III-A.

    use crate::build_str;
    use crate::metrics::distance::diameter;

    #[test]
    fn closed_forms_for_small_dimensions() {
        for n in 1u32..=10 {
            for width in [1u32, 3] {
                let net = build_str(&format!("hypercube:n={n},width={width}")).unwrap();
                let routers = 1usize << n;
                assert_eq!(net.num_routers(), routers);
                for r in 0..routers {
                    assert_eq!(net.degree(r), n * width, "n={n}");
                }
                assert_eq!(net.links().len(), n as usize * routers / 2, "n={n}");
                assert_eq!(net.num_links(), (n * width) as u64 * routers as u64 / 2);
                assert_eq!(net.num_endpoints(), routers as u64, "p defaults to 1");
                assert_eq!(diameter(&net), Some(n), "n={n}");
            }
        }
    }

    #[test]
    fn labels_are_bits_and_links_flip_one_bit() {
        let net = build_str("hypercube:n=5").unwrap();
        assert_eq!(net.label_fields(), ["b0", "b1", "b2", "b3", "b4"]);
        assert_eq!(net.link_classes(), ["dim0", "dim1", "dim2", "dim3", "dim4"]);
        for r in 0..net.num_routers() {
            let bits: usize = net
                .label(r)
                .iter()
                .enumerate()
                .map(|(i, &b)| (b as usize) << i)
                .sum();
            assert_eq!(bits, r);
        }
        for l in net.links() {
            let diff = l.src ^ l.dst;
            assert!(diff.is_power_of_two());
            assert_eq!(diff.trailing_zeros(), l.class as u32);
        }
    }

    #[test]
    fn configurations_of_the_papers() {
        // Daryin & Korzh, JSFI 2014, §1.3: 11D hypercube with double links, C = 8: diameter 11, radix
        // 30.
        let net = build_str("hypercube:n=11,width=2,p=8").unwrap();
        assert_eq!((net.num_routers(), net.num_endpoints()), (2048, 16384));
        assert_eq!(net.radix(), 30);
        assert_eq!(diameter(&net), Some(11));
        // Besta & Hoefler, SC14, Table IV HC: N = N_r = 8,192, k = 14 (p = 1).
        let net = build_str("hypercube:n=13").unwrap();
        assert_eq!((net.num_endpoints(), net.radix()), (8192, 14));
        // Fujiwara et al., IPDPS 2014, §III-A: Hypercube(2048, 11) has degree 11.
        let net = build_str("hypercube:n=11").unwrap();
        assert_eq!(net.network_radix(), 11);
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, needle) in [
            ("hypercube", "missing parameter 'n'"),
            ("hypercube:n=0", "'n'"),
            ("hypercube:n=25", "'n'"),
            ("hypercube:n=65", "'n'"),
            ("hypercube:n=3,width=0", "'width'"),
            ("hypercube:n=3,p=-2", "'p'"),
            ("hypercube:n=3,dims=2", "unknown parameter 'dims'"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
        }
    }
}
