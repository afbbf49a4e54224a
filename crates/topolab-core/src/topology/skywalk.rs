//! Skywalk: a randomized topology that knows which cabinet each switch stands in (Fujiwara et al.,
//! IPDPS 2014, §II).
//!
//! `z` switches in each of `c` cabinets; the cabinets stand on the near-square floor grid of
//! Fujiwara et al., IPDPS 2014, §III-A (`floor_grid::CabinetGrid`, x = ⌈√c⌉ rows, y = ⌈c/x⌉ columns).
//! Three sub-topologies, each a "Uniform Random" topology built by the algorithm of Fujiwara et
//! al., IPDPS 2014, §II-C:
//!   intra    — among the switches of one cabinet, `di` links per switch;
//!   straight — between cabinets in the same row or column, `ds` links per switch;
//!   diagonal — between cabinets in different rows and columns, `dd` links per switch.
//! Straight-first (Fujiwara et al., IPDPS 2014, §II-D, §III-A): `ds = min(do, ds_max)`, `dd = do −
//! ds`, with `ds_max = ⌈(x+y−2)/z⌉` and `dd_max = ⌈(x−1)(y−1)/z⌉` (Fujiwara et al., IPDPS 2014,
//! §II-B).
//!
//! The inter-cabinet sub-topologies are built on cabinets: a cabinet link gets its switch at each
//! end from a per-cabinet cyclic counter shared by straight and diagonal links (Fujiwara et al.,
//! IPDPS 2014, §II-C). So that every switch gets `ds` (resp. `dd`) links, a cabinet takes part in
//! `z·ds` (resp. `z·dd`) matching rounds; this is the reading under which `ds_max = ⌈(x+y−2)/z⌉` is
//! the bound, since a cabinet has x+y−2 straight partners and links a partner at most once.
//! Fujiwara et al., IPDPS 2014, §III-G adds the length bound: a cabinet pair is eligible only if
//! its floor distance is at most `r·l_max`, `l_max` the Manhattan diagonal of the floor.
//!
//! Ten instances are built from construction streams 0..9 of the seed; the one kept is connected
//! and has the most links (Fujiwara et al., IPDPS 2014, §II-C), the first such on ties.
//!
//! A switch can end below `di + do` (Fujiwara et al. (IPDPS 2014) define the degree as the
//! maximum): a greedy round may find no unjoined partner, and the ceilings in `ds_max`/`dd_max`
//! give a cabinet more rounds than partners. docs/families/skywalk.md lists the cases.
//!
//! Switch `cabinet·z + slot`; labels (cabinet, slot, row, col); link classes intra, straight,
//! diagonal.

use super::design::{candidate, routers_for, sizes_of, tags, Candidate, DesignSpace, Window};
use super::{
    ensure_size, moore_balance, p_param, read_p, Family, FamilyPlacement, ParamDef, ParamKind,
    Sizes, NOT_SIMULATED, SEED_PARAM,
};
use crate::error::Result;
use crate::floor_grid::CabinetGrid;
use crate::network::{Network, NetworkBuilder};
use crate::rng::{stream, Stream};
use crate::spec::Params;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

pub const FAMILY: Family = Family {
    name: "skywalk",
    aliases: &[],
    summary: "Skywalk: cabinet-aware random topology, z switches in each of c cabinets, straight-first inter-cabinet links",
    source: "Fujiwara et al., IPDPS 2014, §II-B–D, §III-A, §III-G",
    directed: false,
    params: &[
        ParamDef {
            name: "z",
            kind: ParamKind::Int,
            default: None,
            help: "switches per cabinet, >= 1",
        },
        ParamDef {
            name: "c",
            kind: ParamKind::Int,
            default: None,
            help: "cabinets, >= 1, on an x-by-y grid with x = ceil(sqrt(c)), y = ceil(c/x)",
        },
        ParamDef {
            name: "di",
            kind: ParamKind::Int,
            default: None,
            help: "intra-cabinet links per switch, 0 to z - 1",
        },
        ParamDef {
            name: "do",
            kind: ParamKind::Int,
            default: None,
            help: "inter-cabinet links per switch, 0 to ds_max + dd_max = ceil((x+y-2)/z) + ceil((x-1)(y-1)/z)",
        },
        ParamDef {
            name: "r",
            kind: ParamKind::Float,
            default: Some("1.0"),
            help: "cable length bound factor in (0, 1]: inter-cabinet links join cabinets at most r*l_max apart (Fujiwara et al., IPDPS 2014, §III-G); 1 = no bound",
        },
        p_param("8 (Fujiwara et al., IPDPS 2014, §IV-A: 8 hosts per switch)"),
        SEED_PARAM,
    ],
    build,
    example: "skywalk:z=4,c=16,di=3,do=3",
    samples: &[
        "skywalk:z=4,c=6,di=3,do=2",
        "skywalk:z=2,c=9,di=1,do=3,p=2",
    ],
    display_name: "Skywalk",
    sizes,
    routing: NOT_SIMULATED,
    placement: FamilyPlacement::Grouped {
        field: "cabinet",
        what: "the cabinet Skywalk was built in (Fujiwara et al., IPDPS 2014, §II)",
        structure: "skywalk (built on the cabinet grid)",
    },
    design: Some(DESIGN),
};

/// Candidate instances built per network; the paper keeps the best of ten (Fujiwara et al., IPDPS
/// 2014, §II-C).
pub const INSTANCES: u64 = 10;

/// Endpoints per switch in Fujiwara et al.'s (IPDPS 2014) simulations (§IV-A).
pub const DEFAULT_P: u32 = 8;

/// Uniform draws tried before a partner search falls back to scanning every candidate.
const REJECTION_TRIES: usize = 32;

/// Candidates the fallback scans of all ten instances may look at together. Matching rounds on
/// a nearly complete cabinet graph (or under a tight `r`) scan at almost every pick; this turns
/// what would be hours of work into an error.
const SCAN_BUDGET: u64 = 1 << 32;

/// `ds_max = ⌈(x+y−2)/z⌉`, the most straight links a switch can get (Fujiwara et al., IPDPS 2014,
/// §II-B).
pub fn ds_max(grid: &CabinetGrid, z: u32) -> u32 {
    ((grid.rows() + grid.cols() - 2) as u64).div_ceil(z as u64) as u32
}

/// `dd_max = ⌈(x−1)(y−1)/z⌉`, the most diagonal links a switch can get (Fujiwara et al., IPDPS
/// 2014, §II-B).
pub fn dd_max(grid: &CabinetGrid, z: u32) -> u32 {
    (((grid.rows() - 1) * (grid.cols() - 1)) as u64).div_ceil(z as u64) as u32
}

/// Skywalk's parameters after checking them.
struct Shape {
    z: u32,
    c: u32,
    grid: CabinetGrid,
    di: u32,
    do_: u32,
    r: f64,
    conc: u32,
    seed: u64,
}

/// di + do links per switch at most: the random matching rounds can leave ports free, so the
/// radix is an upper bound; balanced by the Moore-bound estimate (`moore_balance`).
fn sizes(p: &Params) -> Result<Sizes> {
    let s = read_shape(p)?;
    let degree = s.di + s.do_;
    let routers = s.z as u64 * s.c as u64;
    Ok(Sizes {
        radix_is_bound: true,
        ..Sizes::direct(
            routers as u128,
            degree,
            s.conc,
            moore_balance(degree, routers, false),
        )
    })
}

fn read_shape(p: &Params) -> Result<Shape> {
    let z = p.u32("z", 1, u32::MAX, "switches per cabinet")?;
    let c = p.u32("c", 1, u32::MAX, "number of cabinets")?;
    ensure_size(p, "c", c, z as u128 * c as u128, 0)?;
    let grid = CabinetGrid::new(c as usize)?;
    let di = p.u32("di", 0, u32::MAX, "intra-cabinet links per switch")?;
    if di > z - 1 {
        return Err(p.invalid(
            "di",
            di,
            &format!(
                "at most d_imax = z - 1 = {} (Fujiwara et al., IPDPS 2014, §II-B)",
                z - 1
            ),
        ));
    }
    let do_ = p.u32("do", 0, u32::MAX, "inter-cabinet links per switch")?;
    let (s_max, d_max) = (ds_max(&grid, z), dd_max(&grid, z));
    if do_ as u64 > s_max as u64 + d_max as u64 {
        return Err(p.invalid(
            "do",
            do_,
            &format!(
                "at most ds_max + dd_max = {s_max} + {d_max} for z = {z} on the {}x{} cabinet grid (Fujiwara et al., IPDPS 2014, §II-B)",
                grid.rows(),
                grid.cols()
            ),
        ));
    }
    let n = z as u128 * c as u128;
    ensure_size(p, "do", do_, n, n * (di as u128 + do_ as u128) / 2)?;
    let r = p.opt_float("r", 0.0, 1.0)?.unwrap_or(1.0);
    if r <= 0.0 {
        return Err(p.invalid(
            "r",
            r,
            "a number > 0 and <= 1 (Fujiwara et al., IPDPS 2014, §III-G)",
        ));
    }
    let conc = read_p(p, DEFAULT_P)?;
    let seed = p.seed()?;
    Ok(Shape {
        z,
        c,
        grid,
        di,
        do_,
        r,
        conc,
        seed,
    })
}

fn build(p: &Params) -> Result<Network> {
    let Shape {
        z,
        c,
        grid,
        di,
        do_,
        r,
        conc,
        seed,
    } = read_shape(p)?;
    let (s_max, _) = (ds_max(&grid, z), dd_max(&grid, z));

    // Straight-first (Fujiwara et al., IPDPS 2014, §II-D, §III-A).
    let ds = do_.min(s_max);
    let plan = Plan {
        z: z as usize,
        di,
        ds,
        dd: do_ - ds,
        // A nanometre of slack so that a pair exactly at r·l_max is not lost to rounding.
        limit: r * grid.diagonal() + 1e-9,
        grid,
    };

    let mut work = Work { left: SCAN_BUDGET };
    let mut best: Option<Vec<SwLink>> = None;
    for index in 0..INSTANCES {
        let mut rng = stream(seed, Stream::Construction, index);
        let links = plan.instance(&mut rng, &mut work).map_err(|phase| {
            let (param, value) = match phase {
                Kind::Intra => ("di", di),
                _ => ("do", do_),
            };
            p.invalid(
                param,
                value,
                "a value for which the random matching rounds of Fujiwara et al., IPDPS 2014, §II-C, finish in reasonable time \
                 (too dense a sub-topology for the number of switches or cabinets, or too small r)",
            )
        })?;
        let more = match &best {
            Some(b) => links.len() > b.len(),
            None => true,
        };
        if more && connected(plan.z * c as usize, &links) {
            best = Some(links);
        }
    }
    let Some(links) = best else {
        let (param, value, allowed) = if c == 1 {
            ("di", di.to_string(), "a value that connects the cabinet")
        } else if r < 1.0 {
            (
                "r",
                r.to_string(),
                "a larger bound: none of the 10 instances is connected",
            )
        } else {
            (
                "do",
                do_.to_string(),
                "a larger value (or a larger di): none of the 10 instances is connected",
            )
        };
        return Err(p.invalid(param, value, allowed));
    };

    let mut b = NetworkBuilder::new("skywalk", plan.z * c as usize, false);
    b.label_fields(&["cabinet", "slot", "row", "col"]);
    let intra = b.link_class("intra");
    let straight = b.link_class("straight");
    let diagonal = b.link_class("diagonal");
    for cab in 0..c as usize {
        let (row, col) = plan.grid.position(cab);
        for slot in 0..plan.z {
            b.set_label(
                cab * plan.z + slot,
                &[cab as i64, slot as i64, row as i64, col as i64],
            );
        }
    }
    for (u, v, kind) in links {
        let class = match kind {
            Kind::Intra => intra,
            Kind::Straight => straight,
            Kind::Diagonal => diagonal,
        };
        b.add_link(u as usize, v as usize, 1, class);
    }
    b.uniform_endpoints(conc);
    b.build()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Intra,
    Straight,
    Diagonal,
}

type SwLink = (u32, u32, Kind);

/// What one instance needs: the floor, the per-switch degrees of the three sub-topologies and
/// the largest floor distance an inter-cabinet link may span.
struct Plan {
    grid: CabinetGrid,
    z: usize,
    di: u32,
    ds: u32,
    dd: u32,
    limit: f64,
}

/// Remaining fallback-scan budget, shared by all instances.
struct Work {
    left: u64,
}

impl Plan {
    /// One instance; Err names the sub-topology that ran out of scan budget.
    fn instance(
        &self,
        rng: &mut ChaCha8Rng,
        work: &mut Work,
    ) -> std::result::Result<Vec<SwLink>, Kind> {
        let (z, c) = (self.z, self.grid.num_cabinets());
        let mut links = Vec::new();

        // Intra: the uniform random algorithm on each cabinet's switches. Running it cabinet by
        // cabinet gives the same distribution as one run over all switches with the constraint
        // "same cabinet": there v1 is uniform within its cabinet too, and cabinets never interact.
        let mut joined: HashSet<(u32, u32)> = HashSet::new();
        let mut pool = Pool::new(z);
        for cab in 0..c {
            joined.clear();
            let base = (cab * z) as u32;
            uniform_random(rng, &mut pool, self.di, work, |rng, v1, pool, work| {
                let a = base + v1 as u32;
                let v2 = pick(
                    rng,
                    pool.len(),
                    |i| Some(pool.items[i] as usize),
                    |v| !joined.contains(&(a.min(base + v as u32), a.max(base + v as u32))),
                    work,
                )
                .map_err(|()| Kind::Intra)?;
                if let Some(v) = v2 {
                    let b = base + v as u32;
                    joined.insert((a.min(b), a.max(b)));
                    links.push((a.min(b), a.max(b), Kind::Intra));
                }
                Ok(v2)
            })?;
        }

        // Inter-cabinet: the same algorithm on cabinets, straight rounds first, then diagonal.
        let grid = &self.grid;
        let mut cab_joined: HashSet<(u32, u32)> = HashSet::new();
        let mut next_slot = vec![0usize; c];
        let mut pool = Pool::new(c);
        let (rows, cols) = (grid.rows(), grid.cols());
        // Rows and columns a link can span within the length bound.
        let reach_rows = (self.limit / grid.depth()) as usize;
        let reach_cols = (self.limit / grid.width()) as usize;
        for (kind, per_switch) in [(Kind::Straight, self.ds), (Kind::Diagonal, self.dd)] {
            let rounds = (z as u64 * per_switch as u64) as u32;
            uniform_random(rng, &mut pool, rounds, work, |rng, v1, pool, work| {
                let eligible = |v: usize| {
                    let key = (v1.min(v) as u32, v1.max(v) as u32);
                    grid.distance(v1, v) <= self.limit && !cab_joined.contains(&key)
                };
                let v2 = match kind {
                    // Draw among v1's row and column cells (empty cells of the last row and
                    // cabinets already out of W are rejected), not among all of W.
                    Kind::Straight => {
                        let (row, col) = grid.position(v1);
                        pick(
                            rng,
                            rows + cols - 2,
                            |k| {
                                if k < cols - 1 {
                                    grid.cabinet_at(row, if k < col { k } else { k + 1 })
                                } else {
                                    let k = k - (cols - 1);
                                    grid.cabinet_at(if k < row { k } else { k + 1 }, col)
                                }
                            },
                            |v| pool.contains(v) && eligible(v),
                            work,
                        )
                    }
                    _ => {
                        // Under a tight r the cells within reach of v1 are fewer than W: draw
                        // among those instead, so that most draws can succeed.
                        let (row, col) = grid.position(v1);
                        let (r0, r1) = (
                            row.saturating_sub(reach_rows),
                            (row + reach_rows).min(rows - 1),
                        );
                        let (c0, c1) = (
                            col.saturating_sub(reach_cols),
                            (col + reach_cols).min(cols - 1),
                        );
                        let box_cols = c1 - c0 + 1;
                        let box_cells = (r1 - r0 + 1) * box_cols;
                        if box_cells < pool.len() {
                            pick(
                                rng,
                                box_cells,
                                |k| grid.cabinet_at(r0 + k / box_cols, c0 + k % box_cols),
                                |v| pool.contains(v) && !grid.aligned(v1, v) && eligible(v),
                                work,
                            )
                        } else {
                            pick(
                                rng,
                                pool.len(),
                                |i| Some(pool.items[i] as usize),
                                |v| !grid.aligned(v1, v) && eligible(v),
                                work,
                            )
                        }
                    }
                }
                .map_err(|()| kind)?;
                if let Some(v2) = v2 {
                    cab_joined.insert((v1.min(v2) as u32, v1.max(v2) as u32));
                    // Cyclic choice of the switch at each end (Fujiwara et al., IPDPS 2014, §II-C).
                    let a = (v1 * z + next_slot[v1]) as u32;
                    let b = (v2 * z + next_slot[v2]) as u32;
                    next_slot[v1] = (next_slot[v1] + 1) % z;
                    next_slot[v2] = (next_slot[v2] + 1) % z;
                    links.push((a.min(b), a.max(b), kind));
                }
                Ok(v2)
            })?;
        }
        Ok(links)
    }
}

/// The working copy W of Fujiwara et al., IPDPS 2014, §II-C: members in a vector for uniform draws,
/// positions for O(1) membership tests and removal.
struct Pool {
    items: Vec<u32>,
    pos: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl Pool {
    fn new(n: usize) -> Self {
        Pool {
            items: Vec::with_capacity(n),
            pos: vec![ABSENT; n],
        }
    }

    fn refill(&mut self) {
        self.items.clear();
        self.items.extend(0..self.pos.len() as u32);
        for (i, p) in self.pos.iter_mut().enumerate() {
            *p = i as u32;
        }
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn contains(&self, v: usize) -> bool {
        self.pos[v] != ABSENT
    }

    fn remove(&mut self, v: usize) {
        let i = self.pos[v] as usize;
        self.items.swap_remove(i);
        if i < self.items.len() {
            self.pos[self.items[i] as usize] = i as u32;
        }
        self.pos[v] = ABSENT;
    }
}

/// Fujiwara et al., IPDPS 2014, §II-C, steps 1–7: `rounds` times, copy V into W and until W is
/// empty draw v1 uniformly from W, let `partner` find (and record) v2 among W, and remove both from
/// W.
fn uniform_random<F>(
    rng: &mut ChaCha8Rng,
    pool: &mut Pool,
    rounds: u32,
    work: &mut Work,
    mut partner: F,
) -> std::result::Result<(), Kind>
where
    F: FnMut(&mut ChaCha8Rng, usize, &Pool, &mut Work) -> std::result::Result<Option<usize>, Kind>,
{
    for _ in 0..rounds {
        pool.refill();
        while pool.len() > 0 {
            let v1 = pool.items[rng.random_range(0..pool.len())] as usize;
            pool.remove(v1);
            if let Some(v2) = partner(rng, v1, pool, work)? {
                pool.remove(v2);
            }
        }
    }
    Ok(())
}

/// A vertex drawn uniformly among those of `slots` (slot → vertex, None for an empty slot) that
/// satisfy `ok`, or Ok(None) when there is none. A few uniform draws come first (accepting the
/// first that satisfies `ok` is uniform over the eligible set); if they all fail, the eligible
/// set is listed and drawn from, which keeps the overall choice uniform. Err when the scans have
/// used up the budget.
fn pick(
    rng: &mut ChaCha8Rng,
    slots: usize,
    slot: impl Fn(usize) -> Option<usize>,
    ok: impl Fn(usize) -> bool,
    work: &mut Work,
) -> std::result::Result<Option<usize>, ()> {
    if slots == 0 {
        return Ok(None);
    }
    if slots > REJECTION_TRIES {
        for _ in 0..REJECTION_TRIES {
            if let Some(v) = slot(rng.random_range(0..slots)) {
                if ok(v) {
                    return Ok(Some(v));
                }
            }
        }
    }
    work.left = work.left.checked_sub(slots as u64).ok_or(())?;
    let eligible: Vec<usize> = (0..slots).filter_map(&slot).filter(|&v| ok(v)).collect();
    Ok((!eligible.is_empty()).then(|| eligible[rng.random_range(0..eligible.len())]))
}

/// Whether the links join all `n` switches (union–find).
fn connected(n: usize, links: &[SwLink]) -> bool {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            parent[v as usize] = parent[parent[v as usize] as usize];
            v = parent[v as usize];
        }
        v
    }
    let mut parts = n;
    for &(u, v, _) in links {
        let (a, b) = (root(&mut parent, u), root(&mut parent, v));
        if a != b {
            parent[a as usize] = b;
            parts -= 1;
        }
    }
    parts <= 1
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: None,
    twin: None,
    twin_origin: None,
};

/// Switches per cabinet tried; Fujiwara et al., IPDPS 2014, §III-A uses 8 (di = z - 1: full
/// intra-cabinet mesh).
const CABINET_SWITCHES: [u32; 4] = [2, 4, 8, 16];

/// z switches per cabinet with a full intra-cabinet mesh di = z - 1 and do = K - p - di
/// inter-cabinet links (full radix; Fujiwara et al., IPDPS 2014, §III compares Skywalk at the
/// degree of the other networks), c ~ N / (z p) cabinets, and do <= ds_max + dd_max (Fujiwara et
/// al., IPDPS 2014, §II-B, checked by `sizes`). The greedy construction can leave a switch below di
/// + do, so the radix is a bound.
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for z in CABINET_SWITCHES {
        let di = z - 1;
        for p in 1..w.radix.saturating_sub(di) {
            let out_links = w.radix - p - di;
            let params = |c: u64| {
                vec![
                    ("z", z.into()),
                    ("c", c.into()),
                    ("di", di.into()),
                    ("do", out_links.into()),
                    ("p", p.into()),
                ]
            };
            let builds = |c: u64| c >= 2 && sizes_of("skywalk", &params(c)).is_some();
            let Some(c) = routers_for(w, (p * z) as u64, &builds) else {
                continue;
            };
            out.extend(candidate(
                "skywalk",
                params(c),
                "Fujiwara et al., IPDPS 2014, §II-B, §III-A",
                tags(&["full radix"]),
                false,
            ));
        }
    }
    out
}

// The construction against the paper, in a file of its own: with it this one would pass 800
// lines.
#[cfg(test)]
mod construction;
