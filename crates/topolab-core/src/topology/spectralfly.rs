//! SpectralFly: the Lubotzky–Phillips–Sarnak Ramanujan graphs X^{p,q} as a network (Young,
//! Aksoy, Firoz et al., "SpectralFly: Ramanujan Graphs as Flexible and Efficient Interconnection
//! Networks", IPDPS 2022, §II).
//!
//! For distinct odd primes p and q, the integer quaternions a0 + a1 i + a2 j + a3 k of norm p,
//! normalised (p ≡ 1 mod 4: a0 > 0 odd; p ≡ 3 mod 4: a0 even and the first nonzero coordinate
//! positive), are p + 1 by Jacobi's four-square theorem. With x, y in F_q, x² + y² + 1 = 0, each
//! maps to the matrix
//!   [ a0 + a1 x + a3 y    -a1 y + a2 + a3 x ]
//!   [ -a1 y - a2 + a3 x    a0 - a1 x - a3 y ]
//! of determinant p in PGL(2, q), and X^{p,q} is the Cayley graph of that generator set S
//! (Lubotzky, Phillips & Sarnak, Combinatorica 8 (1988), for p, q ≡ 1 mod 4 with x = √-1,
//! y = 0; Davidoff, Sarnak & Valette, "Elementary Number Theory, Group Theory and Ramanujan
//! Graphs", 2003, Ch. 4, for all odd primes, which the SpectralFly paper's LPS(p, q) follows):
//! on PSL(2, q) when the Legendre symbol (p/q) = 1 (q(q²-1)/2 routers, not bipartite), on
//! PGL(2, q) when (p/q) = -1 (q(q²-1) routers, bipartite: S lies in the non-square coset).
//! Conjugate quaternions give inverse matrices, so S = S⁻¹ and v ~ v·s is an undirected
//! (p+1)-regular graph whose non-trivial eigenvalues are at most 2√p in magnitude.
//!
//! Routers are the group elements in normal form (the first nonzero entry of the first column
//! scaled to 1), numbered in closed form (`Group::index`) so no lookup table is needed.

use super::design::{
    balanced_of, candidate, scaled_p, sizes_of, Candidate, DesignSpace, Member, Window,
};
use super::{
    ensure_size, jellyfish, moore_balance, p_param, read_p, Family, FamilyPlacement, FamilyRouting,
    ParamDef, ParamKind, SimulationChoice, Sizes,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "spectralfly",
    aliases: &["lps"],
    summary: "SpectralFly: LPS Ramanujan graph X^{p,q}, a Cayley graph of PSL(2,q) or PGL(2,q) of network radix p+1",
    source: "Young et al., IPDPS 2022, §II; Lubotzky, Phillips & Sarnak, Combinatorica 8 (1988); Davidoff, Sarnak & Valette, 2003, Ch. 4",
    directed: false,
    params: &[
        ParamDef {
            name: "lps_p",
            kind: ParamKind::Int,
            default: None,
            help: "odd prime p (LPS's p) from 3 to 4093: the network radix is p + 1",
        },
        ParamDef {
            name: "lps_q",
            kind: ParamKind::Int,
            default: None,
            help: "odd prime q != p (LPS's q): q(q^2-1)/2 routers when p is a square mod q, else q(q^2-1); q > 2 sqrt(p) always builds a simple graph",
        },
        p_param("floor(sqrt(k)) for the router radix k = lps_p + 1 + p (Besta & Hoefler, SC14, §III, random topologies)"),
    ],
    build,
    example: "spectralfly:lps_p=3,lps_q=5",
    samples: &[
        "spectralfly:lps_p=3,lps_q=5",
        "spectralfly:lps_p=5,lps_q=11,p=2",
        "spectralfly:lps_p=13,lps_q=5",
        "spectralfly:lps_p=7,lps_q=3,p=1",
    ],
    display_name: "SpectralFly",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        // Young et al. (IPDPS 2022, §V) simulate minimal routing (and Valiant/UGAL) on uniform
        // and application traffic and publish no adversarial pattern for LPS graphs.
        simulation: Some(SimulationChoice::new("min", "tornado", "ugal_l").noted(
            "no published worst case: tornado (half-way ring shift) sends the p endpoints of a router to at most two routers, so p flows share every minimal path",
        )),
    },
    placement: FamilyPlacement::Sequential {
        what: "index order: routers by their PSL/PGL normal form (Young et al., IPDPS 2022, §VI lay SpectralFly out by optimisation, not by structure)",
    },
    design: Some(DESIGN),
};

/// Largest generator prime: the network radix p + 1 stays a plausible router radix and the
/// quaternion search (O(p^1.5)) stays instant.
pub const MAX_LPS_P: u32 = 4093;

/// Whether n is prime (trial division; n < 2^32).
pub fn is_prime(n: u32) -> bool {
    if n < 2 {
        return false;
    }
    let n = n as u64;
    let mut d = 2u64;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

fn pow_mod(mut base: u64, mut exp: u64, m: u64) -> u64 {
    let mut acc = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * base % m;
        }
        base = base * base % m;
        exp >>= 1;
    }
    acc
}

/// The Legendre symbol (a/q) for an odd prime q not dividing a: 1 or -1 (Euler's criterion).
pub fn legendre(a: u32, q: u32) -> i32 {
    if pow_mod(a as u64, (q as u64 - 1) / 2, q as u64) == 1 {
        1
    } else {
        -1
    }
}

/// The p + 1 normalised integer quaternions (a0, a1, a2, a3) of norm p, p an odd prime.
pub fn quaternions(p: u32) -> Vec<[i64; 4]> {
    let p = p as i64;
    let r = (p as f64).sqrt() as i64 + 1;
    let admissible = |a: [i64; 4]| {
        if p % 4 == 1 {
            a[0] > 0 && a[0] % 2 == 1
        } else {
            a[0] % 2 == 0 && a.iter().find(|&&x| x != 0).is_some_and(|&x| x > 0)
        }
    };
    let mut out = Vec::new();
    for a0 in 0..=r {
        for a1 in -r..=r {
            for a2 in -r..=r {
                let rest = p - a0 * a0 - a1 * a1 - a2 * a2;
                if rest < 0 {
                    continue;
                }
                let a3 = (rest as f64).sqrt().round() as i64;
                if a3 * a3 != rest {
                    continue;
                }
                let signs: &[i64] = if a3 == 0 { &[1] } else { &[1, -1] };
                for &s in signs {
                    let a = [a0, a1, a2, s * a3];
                    if admissible(a) {
                        out.push(a);
                    }
                }
            }
        }
    }
    out
}

/// PSL(2, q) or PGL(2, q) with elements as normal-form matrices [a, b, c, d] (row major) and a
/// closed-form numbering 0..order.
pub struct Group {
    q: u64,
    /// PSL(2, q): the matrices of square determinant only.
    special: bool,
    inverse: Vec<u64>,
    /// Rank of each nonzero square among the squares (u32::MAX for non-squares).
    square_rank: Vec<u32>,
    squares: Vec<u64>,
}

impl Group {
    pub fn new(q: u32, special: bool) -> Group {
        let q = q as u64;
        let inverse = (0..q)
            .map(|a| if a == 0 { 0 } else { pow_mod(a, q - 2, q) })
            .collect();
        let mut is_square = vec![false; q as usize];
        for x in 1..q {
            is_square[(x * x % q) as usize] = true;
        }
        let squares: Vec<u64> = (1..q).filter(|&s| is_square[s as usize]).collect();
        let mut square_rank = vec![u32::MAX; q as usize];
        for (i, &s) in squares.iter().enumerate() {
            square_rank[s as usize] = i as u32;
        }
        Group {
            q,
            special,
            inverse,
            square_rank,
            squares,
        }
    }

    pub fn order(&self) -> u64 {
        let q = self.q;
        let pgl = q * (q * q - 1);
        if self.special {
            pgl / 2
        } else {
            pgl
        }
    }

    /// Determinant choices per first column: all of F_q* (PGL) or the squares (PSL).
    fn det_choices(&self) -> u64 {
        if self.special {
            (self.q - 1) / 2
        } else {
            self.q - 1
        }
    }

    fn det_rank(&self, det: u64) -> Option<u64> {
        if self.special {
            let r = self.square_rank[det as usize];
            (r != u32::MAX).then_some(r as u64)
        } else {
            (det != 0).then_some(det - 1)
        }
    }

    fn det_of_rank(&self, rank: u64) -> u64 {
        if self.special {
            self.squares[rank as usize]
        } else {
            rank + 1
        }
    }

    /// The normal form of an invertible matrix: scaled so that the first nonzero entry of the
    /// first column is 1.
    pub fn normalise(&self, m: [u64; 4]) -> [u64; 4] {
        let lead = if !m[0].is_multiple_of(self.q) {
            m[0]
        } else {
            m[2]
        };
        let s = self.inverse[(lead % self.q) as usize];
        m.map(|x| x % self.q * s % self.q)
    }

    pub fn multiply(&self, x: [u64; 4], y: [u64; 4]) -> [u64; 4] {
        let q = self.q;
        self.normalise([
            (x[0] * y[0] + x[1] * y[2]) % q,
            (x[0] * y[1] + x[1] * y[3]) % q,
            (x[2] * y[0] + x[3] * y[2]) % q,
            (x[2] * y[1] + x[3] * y[3]) % q,
        ])
    }

    /// The number of a normal-form element: [1, b, c, d] by (b, c, det), then [0, b, 1, d] by
    /// (det, d). None for a matrix outside the group (singular, or non-square det in PSL).
    pub fn index(&self, m: [u64; 4]) -> Option<u64> {
        let q = self.q;
        let k = self.det_choices();
        if m[0] == 1 {
            let det = (m[3] + q * q - m[1] * m[2] % q) % q;
            Some((m[1] * q + m[2]) * k + self.det_rank(det)?)
        } else if m[0] == 0 && m[2] == 1 {
            let det = (q - m[1]) % q; // det [0 b; 1 d] = -b
            Some(q * q * k + self.det_rank(det)? * q + m[3])
        } else {
            None
        }
    }

    /// The element numbered `i` (the inverse of `index`).
    pub fn element(&self, i: u64) -> [u64; 4] {
        let q = self.q;
        let k = self.det_choices();
        if i < q * q * k {
            let det = self.det_of_rank(i % k);
            let (b, c) = (i / k / q, i / k % q);
            [1, b, c, (det + b * c) % q]
        } else {
            let r = i - q * q * k;
            let det = self.det_of_rank(r / q);
            [0, (q - det) % q, 1, r % q]
        }
    }

    /// Whether the element is in the square-determinant coset (PSL(2, q) inside PGL(2, q)).
    pub fn in_psl(&self, m: [u64; 4]) -> bool {
        let q = self.q;
        let det = (m[0] * m[3] % q + q * q - m[1] * m[2] % q) % q;
        self.square_rank[det as usize] != u32::MAX
    }
}

/// x, y in F_q with x² + y² + 1 = 0 (x = √-1, y = 0 when q ≡ 1 mod 4, as in LPS): the
/// smallest x, then the smallest y.
fn minus_one_as_two_squares(q: u64) -> (u64, u64) {
    for x in 0..q {
        for y in 0..q {
            if (x * x + y * y + 1) % q == 0 {
                return (x, y);
            }
        }
    }
    unreachable!("every odd prime field writes -1 as a sum of two squares")
}

/// The LPS generators of X^{p,q} as normal-form matrices, in quaternion order.
pub fn generators(p: u32, group: &Group) -> Vec<[u64; 4]> {
    let q = group.q as i64;
    let (x, y) = minus_one_as_two_squares(group.q);
    let (x, y) = (x as i64, y as i64);
    let m = |v: i64| v.rem_euclid(q) as u64;
    quaternions(p)
        .into_iter()
        .map(|[a0, a1, a2, a3]| {
            group.normalise([
                m(a0 + a1 * x + a3 * y),
                m(-a1 * y + a2 + a3 * x),
                m(-a1 * y - a2 + a3 * x),
                m(a0 - a1 * x - a3 * y),
            ])
        })
        .collect()
}

struct Shape {
    p: u32,
    q: u32,
    /// (p/q) = 1: PSL(2, q), not bipartite.
    special: bool,
    routers: u64,
    conc: u32,
}

fn read_prime(p: &Params, name: &str, other: Option<(&str, u32)>, max: u32) -> Result<u32> {
    let allowed = match other {
        Some((other_name, v)) => format!("an odd prime other than {other_name} = {v}"),
        None => format!("an odd prime from 3 to {max}"),
    };
    let v = p.u32(name, 3, max, &allowed)?;
    if !is_prime(v) || other.is_some_and(|(_, o)| o == v) {
        return Err(p.invalid(name, v, &allowed));
    }
    Ok(v)
}

fn read_shape(p: &Params) -> Result<Shape> {
    let gen_p = read_prime(p, "lps_p", None, MAX_LPS_P)?;
    let q = read_prime(p, "lps_q", Some(("lps_p", gen_p)), u32::MAX - 1)?;
    let special = legendre(gen_p, q) == 1;
    let pgl = q as u128 * (q as u128 * q as u128 - 1);
    let routers = if special { pgl / 2 } else { pgl };
    ensure_size(p, "lps_q", q, routers, routers * (gen_p as u128 + 1) / 2)?;
    // LPS (1988) show the generators stay distinct mod q for q > 2 sqrt(p); below that some
    // (p, q) still give p + 1 distinct elements and a simple graph, others a multigraph.
    let group = Group::new(q, special);
    let mut gens = generators(gen_p, &group);
    if gens.len() != gen_p as usize + 1 {
        return Err(TopolabError::InvalidNetwork(format!(
            "spectralfly: {} quaternions of norm {gen_p}, Jacobi's theorem gives {}",
            gens.len(),
            gen_p + 1
        )));
    }
    let identity = group.normalise([1, 0, 0, 1]);
    gens.sort_unstable();
    gens.dedup();
    if gens.len() != gen_p as usize + 1 || gens.contains(&identity) {
        return Err(p.invalid(
            "lps_q",
            q,
            &format!(
                "an odd prime for which the {} generators of lps_p = {gen_p} stay distinct \
                 non-identity elements of PGL(2, q) (always when q > 2 sqrt(p) = {:.2}; this q \
                 gives a multigraph)",
                gen_p + 1,
                2.0 * (gen_p as f64).sqrt()
            ),
        ));
    }
    let conc = read_p(p, jellyfish::balanced_p(gen_p + 1))?;
    Ok(Shape {
        p: gen_p,
        q,
        special,
        routers: routers as u64,
        conc,
    })
}

/// (p+1)-regular; balanced by the Moore-bound estimate (`moore_balance`) like the random
/// families: the LPS graphs' distance distribution is that of a near-Moore expander.
fn sizes(p: &Params) -> Result<Sizes> {
    let s = read_shape(p)?;
    Ok(Sizes::direct(
        s.routers as u128,
        s.p + 1,
        s.conc,
        moore_balance(s.p + 1, s.routers, false),
    ))
}

fn build(p: &Params) -> Result<Network> {
    let s = read_shape(p)?;
    let group = Group::new(s.q, s.special);
    let gens = generators(s.p, &group);
    let n = s.routers as usize;
    let mut b = NetworkBuilder::new("spectralfly", n, false);
    b.label_fields(&["a", "b", "c", "d", "coset"]);
    let class = b.link_class("lps");
    for v in 0..n {
        let m = group.element(v as u64);
        let coset = if group.in_psl(m) { 0 } else { 1 };
        b.set_label(
            v,
            &[m[0] as i64, m[1] as i64, m[2] as i64, m[3] as i64, coset],
        );
        for &g in &gens {
            let w = group.index(group.multiply(m, g)).ok_or_else(|| {
                TopolabError::InvalidNetwork(format!(
                    "spectralfly: a product left the group (p = {}, q = {})",
                    s.p, s.q
                ))
            })? as usize;
            // S = S^-1: the link v-w is found from both ends; keep it once.
            if v < w {
                b.add_link(v, w, 1, class);
            }
        }
    }
    b.uniform_endpoints(s.conc);
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

fn odd_primes(below: u32) -> impl Iterator<Item = u32> {
    (3..below).step_by(2).filter(|&n| is_prime(n))
}

/// Every pair of distinct odd primes (p, q) of the LPS graph X^{p,q} whose network radix p + 1
/// leaves a port for endpoints, q while the smaller group PSL(2, q) (q(q^2 - 1)/2 routers)
/// still fits the window's top; every concentration putting N in the window. Which pairs
/// build, the router count (PSL or PGL by the Legendre symbol) and the balance are `sizes`'.
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    // radix p + 1 + at least one endpoint port
    for gen in odd_primes(w.radix.saturating_sub(1)) {
        let mut q = 3u64;
        while q * (q * q - 1) / 2 <= w.hi {
            let params = |p: u32| vec![("lps_p", gen.into()), ("lps_q", q.into()), ("p", p.into())];
            if let Some(base) = sizes_of("spectralfly", &params(1)) {
                let group = if base.routers * 2 == q * (q * q - 1) {
                    "PSL (non-bipartite)"
                } else {
                    "PGL (bipartite)"
                };
                for p in w.concentrations(base.routers, w.radix as i64 - base.network_radix as i64)
                {
                    out.extend(candidate(
                        "spectralfly",
                        params(p),
                        "Young et al., IPDPS 2022, §II; Lubotzky, Phillips & Sarnak, Combinatorica 1988",
                        vec![group.to_string()],
                        false,
                    ));
                }
            }
            q += 2;
        }
    }
    out
}

/// The same generator prime (network radix p + 1, the structure) over a smaller field q' < q,
/// p' for the same load. For lps_p >= 11 the smallest member (lps_q = 5 or 7: 60 to 336
/// routers) can exceed --sim-endpoints; it is then simulated as is.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let (gen, q) = (m.int("lps_p")?, m.int("lps_q")?);
    Ok((3..q)
        .step_by(2)
        .filter_map(|q2| {
            let pb = balanced_of(&format!("spectralfly:lps_p={gen},lps_q={q2}"))?;
            let p2 = scaled_p(m.p(), m.balanced(), pb);
            Some(format!("spectralfly:lps_p={gen},lps_q={q2},p={p2}"))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_is_a_bijection_onto_the_group() {
        for (q, special) in [(3u32, false), (5, true), (5, false), (7, true), (13, false)] {
            let g = Group::new(q, special);
            for i in 0..g.order() {
                let m = g.element(i);
                assert_eq!(g.normalise(m), m, "q={q}: element {i} not normal");
                assert_eq!(g.index(m), Some(i), "q={q} special={special}");
                assert!(!special || g.in_psl(m));
            }
        }
    }

    #[test]
    fn jacobi_count_of_normalised_quaternions() {
        // r4(p) = 8(p + 1) solutions for an odd prime; the normalisation keeps one in 8.
        for p in [
            3u32, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 101, 103,
        ] {
            let qs = quaternions(p);
            assert_eq!(qs.len(), p as usize + 1, "p = {p}");
            assert!(qs
                .iter()
                .all(|a| a.iter().map(|x| x * x).sum::<i64>() == p as i64));
        }
    }
}

#[cfg(test)]
mod construction {
    //! SpectralFly (LPS Ramanujan graphs X^{p,q}): group orders, degree, connectivity, the
    //! bipartite/non-bipartite split by the Legendre symbol, the Ramanujan bound with the spectrum
    //! analysis, and LPS's girth bounds (Lubotzky, Phillips & Sarnak, Combinatorica 1988, girth theorem).

    use crate::metrics::distance::{distances_from, UNREACHABLE};
    use crate::metrics::spectral::spectrum;
    use crate::progress::Silent;
    use crate::{build_str, Network, TopolabError};

    /// (p/q) by brute force over the squares of F_q, independent of the crate's Euler criterion.
    fn is_square_mod(p: u64, q: u64) -> bool {
        (1..q).any(|x| x * x % q == p % q)
    }

    fn expected_routers(p: u64, q: u64) -> u64 {
        let pgl = q * (q * q - 1);
        if is_square_mod(p, q) {
            pgl / 2
        } else {
            pgl
        }
    }

    /// The sides of a bipartite connected network (the parity of the distance from router 0), or
    /// None when a link joins two routers of equal parity.
    fn bipartition(net: &Network) -> Option<Vec<u8>> {
        let side: Vec<u8> = distances_from(net, 0)
            .iter()
            .map(|&d| (d % 2) as u8)
            .collect();
        let odd_cycle = net
            .links()
            .iter()
            .any(|l| side[l.src as usize] == side[l.dst as usize]);
        (!odd_cycle).then_some(side)
    }

    /// The shortest cycle through router 0: the smallest d(u) + d(w) + 1 over links u-w whose ends
    /// hang off different neighbours of 0 in a BFS tree. A Cayley graph is vertex-transitive, so
    /// this is the girth.
    fn girth_through_zero(net: &Network) -> u32 {
        let n = net.num_routers();
        let (mut dist, mut branch) = (vec![u32::MAX; n], vec![usize::MAX; n]);
        dist[0] = 0;
        let mut queue = vec![0usize];
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            for &v in net.neighbors(u) {
                let v = v as usize;
                if dist[v] == u32::MAX {
                    dist[v] = dist[u] + 1;
                    branch[v] = if u == 0 { v } else { branch[u] };
                    queue.push(v);
                }
            }
        }
        let mut best = u32::MAX;
        for l in net.links() {
            let (u, w) = (l.src as usize, l.dst as usize);
            if u != 0 && w != 0 && branch[u] != branch[w] {
                best = best.min(dist[u] + dist[w] + 1);
            }
        }
        best
    }

    const CASES: &[(u64, u64)] = &[
        (3, 5),
        (3, 7),
        (3, 11),
        (5, 11),
        (5, 13),
        (7, 11),
        (13, 11),
        (13, 5),
        (17, 13),
        (29, 13),
        (23, 7),
    ];

    #[test]
    fn routers_degree_connectivity_and_bipartiteness_follow_the_legendre_symbol() {
        for &(p, q) in CASES {
            let spec = format!("spectralfly:lps_p={p},lps_q={q}");
            let net = build_str(&spec).unwrap();
            let n = expected_routers(p, q);
            assert_eq!(net.num_routers() as u64, n, "{spec}: routers");
            assert_eq!(net.num_links(), n * (p + 1) / 2, "{spec}: links");
            for r in 0..net.num_routers() {
                assert_eq!(net.neighbors(r).len() as u64, p + 1, "{spec}: router {r}");
            }
            assert!(
                distances_from(&net, 0).iter().all(|&d| d != UNREACHABLE),
                "{spec}: disconnected"
            );
            let sides = bipartition(&net);
            assert_eq!(
                sides.is_some(),
                !is_square_mod(p, q),
                "{spec}: bipartite exactly when (p/q) = -1"
            );
            // The coset label is the PSL / non-PSL split, i.e. the bipartition when there is one.
            let coset = net
                .label_fields()
                .iter()
                .position(|f| f == "coset")
                .unwrap();
            if let Some(sides) = sides {
                let flips = (0..net.num_routers())
                    .filter(|&r| net.label(r)[coset] as u8 != sides[r] ^ sides[0])
                    .count();
                assert_eq!(flips, 0, "{spec}: coset label is not the bipartition");
            } else {
                assert!((0..net.num_routers()).all(|r| net.label(r)[coset] == 0));
            }
        }
    }

    #[test]
    fn every_non_trivial_eigenvalue_is_within_the_ramanujan_bound() {
        for &(p, q) in CASES {
            let spec = format!("spectralfly:lps_p={p},lps_q={q}");
            let net = build_str(&spec).unwrap();
            let s = spectrum(&net, &Silent).unwrap();
            let d = (p + 1) as f64;
            let bound = 2.0 * (p as f64).sqrt();
            assert_eq!(s.ramanujan_bound, Some(bound), "{spec}: 2 sqrt(d - 1)");
            let slack = s.error_bound + 1e-9;
            assert!(
                (s.lambda1 - d).abs() <= slack,
                "{spec}: lambda1 {}",
                s.lambda1
            );
            assert!(
                s.lambda2 <= bound + slack,
                "{spec}: lambda2 {} > {bound}",
                s.lambda2
            );
            if is_square_mod(p, q) {
                assert!(
                    -s.lambda_min <= bound + slack,
                    "{spec}: lambda_min {}",
                    s.lambda_min
                );
            } else {
                // Bipartite: the spectrum is symmetric, -d is the trivial eigenvalue and the others
                // mirror lambda2.
                assert!(
                    (s.lambda_min + d).abs() <= slack,
                    "{spec}: lambda_min {}",
                    s.lambda_min
                );
            }
        }
    }

    #[test]
    fn girth_meets_the_lps_lower_bounds() {
        // LPS 1988 (girth): g >= 2 log_p q when (p/q) = 1, g >= 4 log_p q - log_p 4 otherwise.
        for &(p, q) in CASES {
            let net = build_str(&format!("spectralfly:lps_p={p},lps_q={q}")).unwrap();
            let g = girth_through_zero(&net) as f64;
            let log = |x: f64| x.ln() / (p as f64).ln();
            let bound = if is_square_mod(p, q) {
                2.0 * log(q as f64)
            } else {
                4.0 * log(q as f64) - log(4.0)
            };
            assert!(g >= bound, "X^({p},{q}): girth {g} < {bound:.2}");
            if !is_square_mod(p, q) {
                assert_eq!(g as u32 % 2, 0, "X^({p},{q}) is bipartite: even girth");
            }
        }
    }

    #[test]
    fn concentration_defaults_to_the_random_topology_rule() {
        // p + 1 = 4 network ports: floor(sqrt(4 + 2)) = 2 endpoints (Besta & Hoefler, SC14, §III).
        let net = build_str("spectralfly:lps_p=3,lps_q=5").unwrap();
        assert!(net.endpoints().iter().all(|&e| e == 2));
        let net = build_str("spectralfly:lps_p=3,lps_q=5,p=7").unwrap();
        assert_eq!(net.num_endpoints(), 120 * 7);
    }

    fn rejected(spec: &str) -> String {
        match build_str(spec) {
            Err(e @ TopolabError::InvalidParameter { .. }) => e.to_string(),
            other => panic!("{spec}: expected a parameter error, got {other:?}"),
        }
    }

    #[test]
    fn impossible_parameters_name_the_parameter_and_what_is_allowed() {
        let e = rejected("spectralfly:lps_p=9,lps_q=5");
        assert!(
            e.contains("lps_p") && e.contains('9') && e.contains("odd prime"),
            "{e}"
        );
        let e = rejected("spectralfly:lps_p=2,lps_q=5");
        assert!(e.contains("lps_p") && e.contains("from 3"), "{e}");
        let e = rejected("spectralfly:lps_p=5,lps_q=5");
        assert!(
            e.contains("lps_q") && e.contains("other than lps_p = 5"),
            "{e}"
        );
        let e = rejected("spectralfly:lps_p=3,lps_q=15");
        assert!(e.contains("lps_q") && e.contains("15"), "{e}");
        let e = rejected("spectralfly:lps_p=4099,lps_q=5");
        assert!(e.contains("lps_p") && e.contains("4093"), "{e}");
        // q = 3 < 2 sqrt(11): two of the 12 generators coincide mod 3 (a multigraph, not X^{11,3}).
        let e = rejected("spectralfly:lps_p=11,lps_q=3");
        assert!(e.contains("lps_q") && e.contains("2 sqrt(p)"), "{e}");
        // Bounded before anything is allocated: q = 65521 would give 1.4e14 routers.
        let e = rejected("spectralfly:lps_p=3,lps_q=65521");
        assert!(e.contains("lps_q") && e.contains("routers"), "{e}");
    }

    #[test]
    fn small_q_below_two_sqrt_p_builds_when_the_generators_stay_distinct() {
        // 2 sqrt(23) = 9.6 > 7, yet the 24 generators are distinct in PSL(2, 7): X^{23,7} is a
        // simple 24-regular graph on 168 routers (the LPS(23, q) family of the SpectralFly code).
        let net = build_str("spectralfly:lps_p=23,lps_q=7").unwrap();
        assert_eq!(net.num_routers(), 168);
        assert_eq!(net.network_radix(), 24);
    }
}
