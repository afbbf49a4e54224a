//! HammingMesh (Hoefler, Bonato, De Sensi, Di Girolamo, Li, Heddes, Belk, Goel, Castro, Scott,
//! "HammingMesh: A Network Topology for Large-Scale Deep Learning", SC 2022): boards of
//! a x b accelerators wired as a 2D mesh on the board, boards in an x by y grid. Every
//! accelerator has four network ports (north, south, east, west). The ports left open on a
//! board's edges join the other boards: the west and east ports of one accelerator row, over
//! the x boards of a board row, all go into one fat tree (a "row tree"), and the north and south
//! ports of one accelerator column, over the y boards of a board column, into a "column tree".
//! Every dimension is thus fully connected between boards (a Hamming graph of meshes, hence the
//! name); the paper writes HaxbMesh for a x b boards (Hx2Mesh, Hx4Mesh).
//!
//! The reading implemented here (docs/families/hammingmesh.md says why):
//! - accelerators are routers with `p` endpoints (default 1) and four network ports; fat-tree
//!   switches carry no endpoints (as the `fattree` family's upper levels);
//! - a dimension tree joining n = 2x (or 2y) ports is one switch when n <= `radix`, otherwise a
//!   two-level fat tree of `radix`-port switches: leaves with d down- and u = radix/(taper+1)
//!   up-ports (d = taper·u), L = ceil(n/d) leaves, and as few spines S as take the L·u
//!   up-links with every leaf's u split evenly: the smallest divisor S of u with
//!   L·u/S <= radix, each leaf joined to each spine by a link of width u/S (a tree over 100
//!   ports of 48-port switches: 5 leaves, 3 spines, links of width 8); more than `radix`
//!   leaves would need a third level and is refused;
//! - a board's two edge ports of one line sit next to each other on the tree (port 2·board and
//!   2·board + 1), so with b = 1 (a = 1) one accelerator's east and west (north and south)
//!   ports are one link of width 2 to the same switch.
//!
//! Router index: accelerators first, board after board (board (bx, by) = by·x + bx, inside a
//! board row-major), then the row trees (global accelerator row 0..y·a, each tree's leaves then
//! spines), then the column trees (global column 0..x·b). Labels (kind, col, row, level, index)
//! (`HAMMINGMESH_LAYOUT`): accelerators (0, col, row, -1, -1) with col = bx·b + j and
//! row = by·a + i; row-tree switches (1, -1, row, level, index); column-tree switches
//! (2, col, -1, level, index); level 0 a leaf (or the single switch), 1 a spine.

use super::design::{candidate, round_even, Candidate, DesignSpace, Member, Value, Window};
use super::{
    ensure_size, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes, P_PARAM_MAX,
};
use crate::error::Result;
use crate::network::{Capability, Network, NetworkBuilder};
use crate::spec::Params;

/// HammingMesh accelerators and dimension-tree switches (kind, col, row, level, index):
/// accelerators (0, col, row, -1, -1), row-tree switches (1, -1, row, level, index),
/// column-tree switches (2, col, -1, level, index) (Hoefler et al., SC 2022).
pub const HAMMINGMESH_LAYOUT: Capability = Capability {
    what: "HammingMesh accelerator coordinates and dimension trees",
    fields: &["kind", "col", "row", "level", "index"],
};

pub const FAMILY: Family = Family {
    name: "hammingmesh",
    aliases: &["hxmesh"],
    summary: "HammingMesh: a x b 2D-mesh boards in an x by y grid, each accelerator row (column) of a board row (column) joined by a fat tree",
    source: "Hoefler et al., SC 2022 (HammingMesh; the reading implemented: docs/families/hammingmesh.md)",
    directed: false,
    params: &[
        ParamDef {
            name: "a",
            kind: ParamKind::Int,
            default: Some("2 (Hx2Mesh)"),
            help: "accelerator rows per board",
        },
        ParamDef {
            name: "b",
            kind: ParamKind::Int,
            default: Some("a (square boards)"),
            help: "accelerator columns per board",
        },
        ParamDef {
            name: "x",
            kind: ParamKind::Int,
            default: None,
            help: "boards per board row (the row trees join 2x ports)",
        },
        ParamDef {
            name: "y",
            kind: ParamKind::Int,
            default: Some("x (a square board grid)"),
            help: "boards per board column (the column trees join 2y ports)",
        },
        ParamDef {
            name: "radix",
            kind: ParamKind::Int,
            default: Some("64 (the 64-port switches of Hoefler et al., SC 2022)"),
            help: "ports of a fat-tree switch: a tree of up to radix ports is one switch, a larger one two levels",
        },
        ParamDef {
            name: "taper",
            kind: ParamKind::Int,
            default: Some("1 (nonblocking trees)"),
            help: "down:up port ratio of a two-level tree's leaves (radix must be divisible by taper + 1)",
        },
        ParamDef {
            name: "p",
            kind: ParamKind::Int,
            default: Some("1 (one endpoint per accelerator)"),
            help: "endpoints per accelerator (switches carry none)",
        },
    ],
    build,
    example: "hammingmesh:a=2,x=3",
    samples: &[
        "hammingmesh:a=2,x=3",
        "hammingmesh:a=4,b=2,x=2,y=3,p=2",
        "hammingmesh:a=2,x=6,y=2,radix=8",
        "hammingmesh:a=2,x=12,y=5,radix=8,taper=3",
        "hammingmesh:a=1,b=1,x=2,y=2",
        "hammingmesh:a=2,x=1,y=1",
        // odd leaf down-ports (radix 6, taper 1: 3 down, 3 up): a board's two edge ports on two
        // leaves
        "hammingmesh:a=2,b=2,x=3,y=4,radix=6,p=1",
        "hammingmesh:a=1,b=1,x=3,y=5,radix=6",
    ],
    display_name: "HammingMesh",
    sizes,
    routing: FamilyRouting {
        specific: &["hammingmesh_min"],
        simulation: Some(
            SimulationChoice::new("hammingmesh_min", "randperm", "ugal_l")
                .noted("no adversarial pattern is published for HammingMesh: a random permutation"),
        ),
    },
    placement: FamilyPlacement::Sequential {
        what: "index order: board after board (a·b accelerators each), then the row and column fat-tree switches (Hoefler et al., SC 2022)",
    },
    design: Some(DESIGN),
};

/// One dimension's fat tree over `ports` edge ports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tree {
    pub ports: u32,
    /// 1 for a single switch.
    pub leaves: u32,
    /// 0 for a single switch.
    pub spines: u32,
    /// Edge ports per leaf (all of them on a single switch).
    pub down: u32,
    /// Up-ports per leaf (0 on a single switch), `up / spines` parallel cables to each spine.
    pub up: u32,
}

impl Tree {
    fn new(ports: u32, radix: u32, taper: u32) -> Option<Tree> {
        if ports <= radix {
            return Some(Tree {
                ports,
                leaves: 1,
                spines: 0,
                down: ports,
                up: 0,
            });
        }
        let up = radix / (taper + 1);
        let down = up * taper;
        let leaves = ports.div_ceil(down);
        if leaves > radix {
            return None;
        }
        // S = up always fits (each spine then has one port per leaf)
        let spines = (1..=up)
            .find(|&s| up.is_multiple_of(s) && leaves * (up / s) <= radix)
            .unwrap_or(up);
        Some(Tree {
            ports,
            leaves,
            spines,
            down,
            up,
        })
    }
    /// Parallel cables between a leaf and a spine.
    pub fn spine_width(&self) -> u32 {
        self.up.checked_div(self.spines).unwrap_or(0)
    }
    pub fn switches(&self) -> u32 {
        self.leaves + self.spines
    }
    /// Leaf-to-spine cables, counting width.
    fn leaf_spine_links(&self) -> u64 {
        self.leaves as u64 * self.up as u64
    }
    /// Ports of the busiest switch.
    fn busiest(&self) -> u32 {
        if self.spines == 0 {
            self.ports
        } else {
            (self.down.min(self.ports) + self.up).max(self.leaves * self.spine_width())
        }
    }
    /// Links across the tree's best cut into two halves of its edge ports: half the ports on a
    /// single switch (or a nonblocking tree), the leaves' up-links halved on a tapered one.
    pub fn bisection(&self) -> f64 {
        let half = self.ports as f64 / 2.0;
        if self.spines == 0 {
            half
        } else {
            half.min(self.leaf_spine_links() as f64 / 2.0)
        }
    }
}

/// A HammingMesh after checking its parameters.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub a: u32,
    pub b: u32,
    pub x: u32,
    pub y: u32,
    pub p: u32,
    pub row_tree: Tree,
    pub col_tree: Tree,
}

impl Shape {
    pub fn accelerators(&self) -> u64 {
        self.a as u64 * self.b as u64 * self.x as u64 * self.y as u64
    }
    /// Row trees: one per global accelerator row.
    pub fn row_lines(&self) -> u64 {
        self.y as u64 * self.a as u64
    }
    pub fn col_lines(&self) -> u64 {
        self.x as u64 * self.b as u64
    }
}

const MAX_PART: u32 = 1 << 12;

fn read_shape(p: &Params) -> Result<Shape> {
    let a = p.opt_u32("a", 1, MAX_PART)?.unwrap_or(2);
    let b = p.opt_u32("b", 1, MAX_PART)?.unwrap_or(a);
    let x = p.u32("x", 1, MAX_PART, "boards per board row")?;
    let y = p.opt_u32("y", 1, MAX_PART)?.unwrap_or(x);
    let radix = p.opt_u32("radix", 2, 1 << 16)?.unwrap_or(64);
    let taper = p.opt_u32("taper", 1, 1 << 16)?.unwrap_or(1);
    let conc = read_p(p, 1)?;
    debug_assert!(conc <= P_PARAM_MAX);
    let tree = |name: &str, ports: u32| -> Result<Tree> {
        let two_level = ports > radix;
        if two_level && !radix.is_multiple_of(taper + 1) {
            return Err(p.invalid(
                "taper",
                taper,
                &format!(
                    "a ratio t with radix divisible by t + 1 (radix = {radix}): a leaf has radix·t/(t+1) down- and radix/(t+1) up-ports"
                ),
            ));
        }
        Tree::new(ports, radix, taper).ok_or_else(|| {
            let up = radix / (taper + 1);
            p.invalid(
                name,
                ports / 2,
                &format!(
                    "at most {} boards along it: {ports} tree ports need more than radix = {radix} leaves of {} down-ports, a third tree level (not built)",
                    radix as u64 * (up * taper) as u64 / 2,
                    up * taper
                ),
            )
        })
    };
    let shape = Shape {
        a,
        b,
        x,
        y,
        p: conc,
        row_tree: tree("x", 2 * x)?,
        col_tree: tree("y", 2 * y)?,
    };
    let routers = shape.accelerators() as u128
        + shape.row_lines() as u128 * shape.row_tree.switches() as u128
        + shape.col_lines() as u128 * shape.col_tree.switches() as u128;
    ensure_size(p, "x", x, routers, links(&shape) as u128)?;
    Ok(shape)
}

/// Cables (counting width): the board meshes, every edge port to its tree, the trees' own.
pub fn links(s: &Shape) -> u64 {
    let (a, b) = (s.a as u64, s.b as u64);
    let boards = s.x as u64 * s.y as u64;
    let mesh = boards * (a * (b - 1) + b * (a - 1));
    let rows = s.row_lines() * (s.row_tree.ports as u64 + s.row_tree.leaf_spine_links());
    let cols = s.col_lines() * (s.col_tree.ports as u64 + s.col_tree.leaf_spine_links());
    mesh + rows + cols
}

/// Accelerators have four network ports, switches those of the busiest tree switch. Balance
/// (fat-tree convention, docs/compare.md §1: every endpoint can send across the bisection at
/// full rate): cutting the board grid in half along the rows crosses every row tree's bisection,
/// y·a trees of B_row links for the a·b·x·y accelerators, so p <= 2·y·a·B_row / (a·b·x·y), and
/// likewise along the columns. With nonblocking trees (B = x, resp. y) that is min(2/b, 2/a):
/// Hx2Mesh is balanced at one endpoint per accelerator, Hx4Mesh at half of one.
pub fn shape_sizes(s: &Shape) -> Sizes {
    let acc = s.accelerators() as f64;
    let along_rows = 2.0 * s.row_lines() as f64 * s.row_tree.bisection() / acc;
    let along_cols = 2.0 * s.col_lines() as f64 * s.col_tree.bisection() / acc;
    let balanced = along_rows.min(along_cols);
    let switch = s.row_tree.busiest().max(s.col_tree.busiest());
    Sizes {
        routers: s.accelerators()
            + s.row_lines() * s.row_tree.switches() as u64
            + s.col_lines() * s.col_tree.switches() as u64,
        endpoints: s.accelerators() * s.p as u64,
        radix: (4 + s.p).max(switch),
        network_radix: 4.max(switch),
        concentration: s.p,
        balanced_concentration: balanced,
        load: s.p as f64 / balanced,
        radix_is_bound: false,
    }
}

fn sizes(p: &Params) -> Result<Sizes> {
    Ok(shape_sizes(&read_shape(p)?))
}

/// Builds the switches of one tree (labels `line_label` + level + index) and links its 2·boards
/// edge ports: port 2·k + side of board k is the accelerator `edge(k, side)`.
fn build_tree(
    b: &mut NetworkBuilder,
    first: usize,
    tree: &Tree,
    label: impl Fn(i64, i64) -> [i64; 5],
    edge: impl Fn(u32, u32) -> usize,
    classes: (u16, u16),
) {
    for i in 0..tree.switches() {
        let (level, index) = if i < tree.leaves {
            (0, i)
        } else {
            (1, i - tree.leaves)
        };
        b.set_label(first + i as usize, &label(level, index as i64));
    }
    // Edge port q is on leaf q / down, so that no leaf has more than `down` edge ports: with an
    // odd `down` a board's two edge ports can fall on two leaves.
    let mut port = 0;
    while port < tree.ports {
        let k = port / 2;
        let (west, east) = (edge(k, 0), edge(k, 1));
        let leaf = |q: u32| first + (q / tree.down) as usize;
        if west == east && leaf(port) == leaf(port + 1) {
            // a one-wide board: both edge ports of the accelerator on this leaf
            b.add_link(west, leaf(port), 2, classes.0);
        } else {
            b.add_link(west, leaf(port), 1, classes.0);
            b.add_link(east, leaf(port + 1), 1, classes.0);
        }
        port += 2;
    }
    for leaf in 0..tree.leaves as usize {
        for spine in 0..tree.spines as usize {
            b.add_link(
                first + leaf,
                first + tree.leaves as usize + spine,
                tree.spine_width(),
                classes.1,
            );
        }
    }
}

fn build(p: &Params) -> Result<Network> {
    let s = read_shape(p)?;
    let (a, bw, x, y) = (s.a as usize, s.b as usize, s.x as usize, s.y as usize);
    let total = shape_sizes(&s).routers as usize;
    let mut b = NetworkBuilder::new("hammingmesh", total, false);
    b.label_fields(HAMMINGMESH_LAYOUT.fields);
    let mesh = b.link_class("board");
    let edge = b.link_class("tree-edge");
    let inner = b.link_class("tree");
    // accelerator at global (col, row)
    let acc = |col: usize, row: usize| {
        let (bx, j, by, i) = (col / bw, col % bw, row / a, row % a);
        ((by * x + bx) * a + i) * bw + j
    };
    for row in 0..y * a {
        for col in 0..x * bw {
            let r = acc(col, row);
            b.set_label(r, &[0, col as i64, row as i64, -1, -1]);
            b.set_endpoints(r, s.p);
            if col % bw + 1 < bw {
                b.add_link(r, acc(col + 1, row), 1, mesh);
            }
            if row % a + 1 < a {
                b.add_link(r, acc(col, row + 1), 1, mesh);
            }
        }
    }
    let mut next = s.accelerators() as usize;
    for row in 0..y * a {
        let side = |k: u32, east: u32| acc(k as usize * bw + east as usize * (bw - 1), row);
        let label = |level, index| [1, -1, row as i64, level, index];
        build_tree(&mut b, next, &s.row_tree, label, side, (edge, inner));
        next += s.row_tree.switches() as usize;
    }
    for col in 0..x * bw {
        let side = |k: u32, south: u32| acc(col, k as usize * a + south as usize * (a - 1));
        let label = |level, index| [2, col as i64, -1, level, index];
        build_tree(&mut b, next, &s.col_tree, label, side, (edge, inner));
        next += s.col_tree.switches() as usize;
    }
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// The paper's square boards, 2 x 2 (Hx2Mesh) and 4 x 4 (Hx4Mesh), with the question's radix
/// for the row and column fat trees (nonblocking; one switch up to K ports, two levels above).
/// Per board size and p (an accelerator has 4 + p ports) the square board grid x = y whose N
/// is nearest the target, and x by x + 1 beside it. Balanced at p = 2/b
/// (docs/families/hammingmesh.md): Hx2Mesh at one endpoint per accelerator, Hx4Mesh
/// oversubscribed 2:1 there.
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for side in [2u32, 4] {
        for p in 1..=w.radix.saturating_sub(4) {
            let per_board = (side * side * p) as i64;
            let x = round_even((w.target as f64 / per_board as f64).sqrt()).max(1);
            for (gx, gy) in [(x, x), (x, x + 1), (x - 1, x), (x + 1, x + 1)] {
                let n = gx * gy * per_board;
                if gx < 1 || n < w.lo as i64 || n > w.hi as i64 {
                    continue;
                }
                let params = vec![
                    ("a", side.into()),
                    ("b", side.into()),
                    ("x", Value::Int(gx)),
                    ("y", Value::Int(gy)),
                    ("radix", w.radix.into()),
                    ("p", p.into()),
                ];
                let mut tags = vec![format!("Hx{side}Mesh")];
                if gx == gy {
                    tags.push("square grid".to_string());
                }
                out.extend(
                    candidate(
                        "hammingmesh",
                        params,
                        "Hoefler et al., SC 2022",
                        tags,
                        false,
                    )
                    .filter(|c| c.sizes.radix <= w.radix && w.admits(c.sizes.load)),
                );
            }
        }
    }
    out
}

/// The same boards, tree radix and p on a smaller board grid (x' < x, y' in proportion): the
/// load of nonblocking trees does not depend on the grid (docs/families/hammingmesh.md).
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let (a, b, x, y, radix, p) = (
        m.int("a")?,
        m.int("b")?,
        m.int("x")?,
        m.int("y")?,
        m.int("radix")?,
        m.int("p")?,
    );
    Ok((1..x)
        .map(|x2| {
            let y2 = round_even((y * x2) as f64 / x as f64).max(1);
            format!("hammingmesh:a={a},b={b},x={x2},y={y2},radix={radix},p={p}")
        })
        .collect())
}

#[cfg(test)]
mod construction {
    //! HammingMesh (Hoefler et al., SC 2022): router, endpoint and link counts counted by hand
    //! from the construction (boards, row and column trees), every accelerator with four network
    //! ports, switch radix and tree levels, and parameters that make the construction impossible.

    use crate::{build_str, sizes_str, Network};

    fn degree(net: &Network, r: usize) -> u32 {
        net.neighbor_links(r)
            .iter()
            .map(|&l| net.links()[l as usize].width)
            .sum()
    }

    /// (spec, routers, endpoints, links, network radix), counted from the construction:
    /// accelerators a·b·x·y; y·a row trees over 2x ports and x·b column trees over 2y ports, each
    /// one switch when it has at most `radix` ports, else L = ceil(2x/d) leaves and S spines (the
    /// fewest, S dividing u, with L·u/S spine ports); links = board meshes + one per tree port +
    /// L·u leaf-spine cables per two-level tree.
    const CASES: &[(&str, u64, u64, u64, u32)] = &[
        // Hx2Mesh of 3 x 3 boards: 36 accelerators, 6 + 6 single 6-port switches; 9 boards of 4 mesh
        // links, 6 row trees of 6 ports, 6 column trees of 6 ports.
        ("hammingmesh:a=2,x=3", 36 + 12, 36, 9 * 4 + 36 + 36, 6),
        // 4 x 4 boards, 2 x 1 grid: 32 accelerators; 4 row trees of 4 ports, 8 column trees of 2
        // ports (the ring of one board column); 2 boards of 24 mesh links.
        (
            "hammingmesh:a=4,x=2,y=1",
            32 + 4 + 8,
            32,
            2 * 24 + 16 + 16,
            4,
        ),
        // 2 x 3 boards, 5 x 2 grid, p = 2: 60 accelerators; 4 row trees of 10 ports, 15 column
        // trees of 4 ports; 10 boards of 2·2 + 3·1 = 7 mesh links.
        (
            "hammingmesh:a=2,b=3,x=5,y=2,p=2",
            60 + 4 + 15,
            120,
            70 + 40 + 60,
            10,
        ),
        // radix 8 forces two levels on the 12-port row trees: leaves of 4 down and 4 up ports,
        // 3 leaves, 12 up-links on 2 spines of 6 ports (links of width 2): 5 switches, 12 + 12
        // cables each; column trees of 4 ports stay single.
        (
            "hammingmesh:a=2,x=6,y=2,radix=8",
            48 + 4 * 5 + 12,
            48,
            12 * 4 + 4 * 24 + 12 * 4,
            8,
        ),
        // taper 3 on radix 8: leaves of 6 down and 2 up ports; 12 ports need 2 leaves, whose 4
        // up-links one spine takes (links of width 2).
        (
            "hammingmesh:a=2,x=6,y=2,radix=8,taper=3",
            48 + 4 * 3 + 12,
            48,
            12 * 4 + 4 * (12 + 4) + 12 * 4,
            8,
        ),
        // one-wide boards (b = 1): the accelerator's east and west ports are one width-2 link.
        (
            "hammingmesh:a=2,b=1,x=3,y=2",
            12 + 4 + 3,
            12,
            6 + 4 * 6 + 3 * 4,
            6,
        ),
    ];

    #[test]
    fn counts_match_the_construction() {
        for &(spec, routers, endpoints, links, net_radix) in CASES {
            let net = build_str(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(net.num_routers() as u64, routers, "{spec}: routers");
            assert_eq!(net.num_endpoints(), endpoints, "{spec}: endpoints");
            assert_eq!(net.num_links(), links, "{spec}: links");
            assert_eq!(net.network_radix(), net_radix, "{spec}: network radix");
            let s = sizes_str(spec).unwrap();
            assert_eq!(
                (s.routers, s.endpoints, s.network_radix),
                (routers, endpoints, net_radix),
                "{spec}: closed form"
            );
            // every accelerator (the routers with endpoints) has exactly four network ports
            for r in 0..net.num_routers() {
                if net.endpoints()[r] > 0 {
                    assert_eq!(degree(&net, r), 4, "{spec}: accelerator {r}");
                } else {
                    assert!(degree(&net, r) <= net_radix, "{spec}: switch {r}");
                }
            }
        }
    }

    #[test]
    fn balance_is_one_endpoint_per_accelerator_on_hx2mesh_and_half_on_hx4mesh() {
        // nonblocking trees: every accelerator of a board row of b has 2/b of a tree port per
        // direction; Hx2Mesh balanced at p = 1, Hx4Mesh oversubscribed 2:1 at p = 1
        let hx2 = sizes_str("hammingmesh:a=2,x=8").unwrap();
        assert_eq!((hx2.balanced_concentration, hx2.load), (1.0, 1.0));
        let hx4 = sizes_str("hammingmesh:a=4,x=8").unwrap();
        assert_eq!((hx4.balanced_concentration, hx4.load), (0.5, 2.0));
        // a 3:1 tapered two-level row tree carries a third of that across its middle
        let tapered = sizes_str("hammingmesh:a=2,x=32,y=2,radix=16,taper=3").unwrap();
        let untapered = sizes_str("hammingmesh:a=2,x=32,y=2,radix=16").unwrap();
        assert!(tapered.balanced_concentration < untapered.balanced_concentration);
    }

    #[test]
    fn a_hundred_port_tree_of_48_port_switches_has_five_leaves_and_three_spines() {
        // 50 boards per row: 100 ports, leaves of 24 down and 24 up, 120 up-links on 3 spines of
        // 40 ports (width 8); the column trees over 2 boards are one 4-port switch
        let net = build_str("hammingmesh:a=2,x=50,y=2,radix=48").unwrap();
        let switches = net.num_routers() - 2 * 2 * 50 * 2;
        assert_eq!(switches, 4 * (5 + 3) + 100);
        let widths: Vec<u32> = net.links().iter().map(|l| l.width).collect();
        assert_eq!(widths.iter().filter(|&&w| w == 8).count(), 4 * 5 * 3);
        assert_eq!(net.network_radix(), 48);
    }

    #[test]
    fn impossible_parameters_are_refused_naming_them() {
        for (spec, param) in [
            ("hammingmesh:a=0,x=2", "a"),
            ("hammingmesh:x=0", "x"),
            ("hammingmesh:a=2", "x"),
            // radix 8 taper 2: 8 is not divisible by 3
            ("hammingmesh:x=6,radix=8,taper=2", "taper"),
            // radix 4: two-level trees reach 4 leaves of 2 ports, 8 ports = 4 boards
            ("hammingmesh:x=5,y=2,radix=4", "x"),
            ("hammingmesh:x=2,y=9,radix=4", "y"),
            ("hammingmesh:x=2,p=-1", "p"),
        ] {
            let err = build_str(spec).expect_err(spec).to_string();
            assert!(err.contains(param), "{spec}: {err}");
            assert_eq!(sizes_str(spec).err().map(|e| e.to_string()), Some(err));
        }
    }
}
