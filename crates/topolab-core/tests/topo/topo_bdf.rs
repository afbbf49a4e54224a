//! Bermond–Delorme–Farhi graphs against the closed forms of Besta & Hoefler, SC14, §II-C and the
//! star product they are made with.

use topolab_core::metrics::distance::diameter;
use topolab_core::topology::bdf::supernode;
use topolab_core::topology::polarstar::inductive_quad;
use topolab_core::topology::star::{add_star_product, Structure, Supernode};
use topolab_core::{build_str, sizes_str, NetworkBuilder};

/// SC14 §II-C's N_r = 8/27 k'^3 - 4/9 k'^2 + 2/3 k' with k' = 3(u+1)/2, evaluated exactly.
fn paper_router_count(u: u64) -> u64 {
    let k = 3 * (u + 1) / 2;
    let times_27 = 8 * k * k * k - 12 * k * k + 18 * k;
    assert_eq!(times_27 % 27, 0, "k' = {k}");
    times_27 / 27
}

#[test]
fn router_count_radix_and_diameter_three() {
    for u in [3u32, 5, 7, 9, 11] {
        let net = build_str(&format!("bdf:u={u}")).unwrap();
        assert_eq!(
            net.num_routers() as u64,
            paper_router_count(u as u64),
            "u={u}"
        );
        assert_eq!(net.network_radix(), 3 * (u + 1) / 2, "k' for u={u}");
        assert_eq!(diameter(&net), Some(3), "u={u}");
        let s = sizes_str(&format!("bdf:u={u}")).unwrap();
        assert_eq!(s.routers as usize, net.num_routers());
    }
    // a larger one from the closed form alone
    assert_eq!(
        sizes_str("bdf:u=31").unwrap().routers,
        paper_router_count(31)
    );
}

/// The adjacency matrix of a supernode, rejecting self-loops and duplicate links.
fn adjacency(g: &Supernode, what: &str) -> Vec<Vec<bool>> {
    let n = g.vertices;
    let mut adj = vec![vec![false; n]; n];
    for &(x, y) in &g.edges {
        assert_ne!(x, y, "{what}");
        assert!(!adj[x as usize][y as usize], "{what}: duplicate {x}-{y}");
        adj[x as usize][y as usize] = true;
        adj[y as usize][x as usize] = true;
    }
    adj
}

/// Bermond–Delorme–Farhi's property P* without its diameter condition (SC14 §II-C1c): the map
/// is an involution and V = {v} ∪ {f(v)} ∪ f(Γ(v)) ∪ Γ(f(v)) for every v; by brute force.
fn assert_p_star(g: &Supernode, what: &str) {
    let n = g.vertices;
    let adj = adjacency(g, what);
    let f = |v: usize| g.map[v] as usize;
    for v in 0..n {
        assert_eq!(f(f(v)), v, "{what}: involution");
        let mut covered = vec![false; n];
        covered[v] = true;
        covered[f(v)] = true;
        for w in 0..n {
            if adj[v][w] {
                covered[f(w)] = true;
            }
            if adj[f(v)][w] {
                covered[w] = true;
            }
        }
        assert!(covered.iter().all(|&c| c), "{what}: P* fails at {v}");
    }
}

fn assert_diameter_two(g: &Supernode, what: &str) {
    let adj = adjacency(g, what);
    let n = g.vertices;
    for v in 0..n {
        for w in 0..n {
            assert!(
                w == v || adj[v][w] || (0..n).any(|m| adj[v][m] && adj[m][w]),
                "{what}: {v},{w} further than 2"
            );
        }
    }
}

fn degrees(g: &Supernode) -> Vec<usize> {
    adjacency(g, "degrees")
        .iter()
        .map(|row| row.iter().filter(|&&e| e).count())
        .collect()
}

/// G_{k'/3}: 2d vertices, degree at most d (reached), diameter 2 and property P*.
#[test]
fn supernode_has_property_p_star() {
    for d in 2u32..=25 {
        let g = supernode(d);
        assert_eq!(g.vertices, 2 * d as usize);
        assert_eq!(degrees(&g).into_iter().max(), Some(d as usize), "d={d}");
        assert_p_star(&g, &format!("G_{d}"));
        assert_diameter_two(&g, &format!("G_{d}"));
    }
}

/// PolarStar's Inductive-Quad supernode IQ_d (Lakhotia et al., SPAA 2024): 2d + 2 vertices,
/// d-regular, a fixed-point-free involution and P*'s covering condition (its diameter is not
/// always 2: IQ_4 has diameter 3); the products' diameter 3 is checked in topo_polarstar.rs.
#[test]
fn inductive_quad_is_regular_with_property_p_star() {
    for d in [3u32, 4, 7, 8, 11, 12, 15, 16] {
        let g = inductive_quad(d);
        assert_eq!(g.vertices, 2 * d as usize + 2);
        assert!(
            degrees(&g).iter().all(|&k| k == d as usize),
            "IQ_{d}: regular"
        );
        assert!(
            (0..g.vertices).all(|v| g.map[v] as usize != v),
            "IQ_{d}: fixed point"
        );
        assert_p_star(&g, &format!("IQ_{d}"));
    }
}

/// The star product by hand: K2 (one arc 0 -> 1, loop at 0) star a path 0-1-2 with the
/// involution swapping 0 and 2 gives these links and no others.
#[test]
fn star_product_of_a_small_case_by_hand() {
    let supernode = Supernode {
        vertices: 3,
        edges: vec![(0, 1), (1, 2)],
        map: vec![2, 1, 0],
    };
    let structure = Structure {
        vertices: 2,
        arcs: &[(0, 1)],
        loops: &[0],
    };
    let mut b = NetworkBuilder::new("star", 6, false);
    add_star_product(&mut b, &structure, &supernode).unwrap();
    let net = b.build().unwrap();
    let mut links: Vec<(u32, u32)> = net.links().iter().map(|l| (l.src, l.dst)).collect();
    links.sort_unstable();
    // supernodes {0,1,2} and {3,4,5}: paths 0-1-2 and 3-4-5; arc 0->1: (0,x)~(1,f(x)), i.e.
    // 0-5, 1-4, 2-3; loop at 0: (0,0)~(0,2) (vertex 1 is fixed by f)
    assert_eq!(
        links,
        vec![
            (0, 1),
            (0, 2),
            (0, 5),
            (1, 2),
            (1, 4),
            (2, 3),
            (3, 4),
            (4, 5)
        ]
    );
    assert_eq!(net.label(4), &[1, 1]);
}

#[test]
fn impossible_u_is_an_error_naming_u() {
    for (spec, needle) in [
        ("bdf:u=4", "odd prime power"),
        ("bdf:u=8", "odd prime power"),
        ("bdf:u=15", "prime power"),
        ("bdf:u=1", "from 3"),
        ("bdf", "missing parameter 'u'"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle) && msg.contains('u'), "{spec}: {msg}");
        assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg);
    }
}

/// The star products' balanced p (`star::star_balance`) against Besta & Hoefler's channel-load
/// balance with the distances measured on the built network: never below it (the estimate
/// bounds the routers within two hops from above) and close, including for lopsided products
/// where the Moore estimate is 30% off.
#[test]
fn star_balance_is_close_to_the_measured_channel_load() {
    use topolab_core::metrics::distance::distances_from;
    for spec in [
        "bdf:u=3",
        "bdf:u=5",
        "bdf:u=7",
        "bundlefly:q=3,a=5",
        "bundlefly:q=3,a=29",
        "bundlefly:q=5,a=5",
        "polarstar:q=3,d=4",
        "polarstar:q=3,a=53",
        "polarstar:q=5,d=3",
    ] {
        let net = build_str(spec).unwrap();
        let n = net.num_routers();
        let total: u64 = (0..n)
            .map(|r| {
                distances_from(&net, r)
                    .iter()
                    .map(|&d| d as u64)
                    .sum::<u64>()
            })
            .sum();
        let measured = 2.0 * net.num_links() as f64 * n as f64 / total as f64;
        let estimate = sizes_str(spec).unwrap().balanced_concentration;
        assert!(
            estimate >= measured * 0.999 && estimate <= measured * 1.08,
            "{spec}: estimate {estimate}, measured {measured}"
        );
    }
}
