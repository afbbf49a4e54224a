//! Placement of routers into cabinets (racks) on a floor grid, per family as the papers do it:
//!
//! | family | cabinets | source |
//! |---|---|---|
//! | slimfly | rack x holds subgroups (0, x, ·) and (1, x, ·): q racks of 2q routers | Besta &
//! Hoefler, SC14, §VI-A |
//! | dragonfly | one group per cabinet (also Dragonfly(z, c, d)) | Besta & Hoefler, SC14, §VI-B3e,
//! Fujiwara et al., IPDPS 2014, §III-A |
//! | skywalk | the cabinet the construction put the switch in | Fujiwara et al., IPDPS 2014, §II |
//! | fattree | a pod (leaves + aggregation routers) per cabinet, the core in the central row |
//! Besta & Hoefler, SC14, §VI-B3c |
//! | hyperx | sequential, one d0 clique per cabinet: FBF-3 groups, HyperX(z, c, d) | Besta &
//! Hoefler, SC14, §VI-B3d, Fujiwara et al., IPDPS 2014, §III-A |
//! | torus, mesh | sequential, one d0 ring per cabinet unless `per_cabinet` | Fujiwara et al.,
//! IPDPS 2014, §III-A |
//! | hypercube | sequential, `per_cabinet` (floor default) per cabinet | Fujiwara et al., IPDPS
//! 2014, §III-A |
//! | anything else | arbitrary: index order, `per_cabinet` per cabinet | Fujiwara et al., IPDPS
//! 2014, §III-A (Random) |
//!
//! "Sequential" is Fujiwara et al.'s (IPDPS 2014) "assign switches to cabinets sequentially
//! considering switches in the topological order": router r goes to cabinet ⌊r / Z⌋. For random
//! networks any assignment is as arbitrary as another, so index order is used too (deterministic,
//! and for a random graph equal in distribution to a random assignment).
//!
//! Cabinet i stands at grid cell i (row-major) of the floor's near-square grid. The fat tree
//! rule is the one that chooses cells: its core cabinets take the cells of the central row,
//! middle first. Users may instead give the cabinet of every router (`PlacementRule::Given`,
//! e.g. from a file read by `read_placement`).

use super::floor::Floor;
use crate::error::{Result, TopolabError};
use crate::floor_grid::CabinetGrid;
use crate::network::Network;
use crate::topology::{FamilyPlacement, ARBITRARY_PLACEMENT};

/// Largest cabinet index a given placement may use: beyond this the grid is surely a typo.
const MAX_CABINETS: u64 = 1 << 24;

#[derive(Debug, Clone, PartialEq, Default)]
pub enum PlacementRule {
    /// The family's own rule (table above).
    #[default]
    Family,
    /// Router r in cabinet ⌊r / Z⌋ for any network.
    Sequential,
    /// The cabinet of every router, in router order.
    Given(Vec<u32>),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlaceOptions {
    pub rule: PlacementRule,
    /// Z, routers per cabinet, for sequential and arbitrary placements; the cabinet count
    /// follows. Families placed by their structure reject it.
    pub per_cabinet: Option<u32>,
}

crate::result_type! {
    /// Where every router stands: the cabinet of every router and the floor grid (rows × cols,
    /// cabinet i at cell i).
    pub struct Placement {
        /// The floor's name.
        pub floor: String,
        /// How the cabinets were chosen, with the paper section.
        pub method: String,
        /// Z when the placement is sequential or arbitrary.
        pub per_cabinet: Option<u32>,
        pub cabinets: usize,
        pub rows: usize,
        pub cols: usize,
        /// Cabinet of each router.
        pub cabinet_of: Vec<u32>,
        #[serde(skip)]
        grid: CabinetGrid,
    }
}

impl Placement {
    pub fn grid(&self) -> &CabinetGrid {
        &self.grid
    }

    pub fn cabinet(&self, router: usize) -> usize {
        self.cabinet_of[router] as usize
    }

    fn new(
        method: String,
        per_cabinet: Option<u32>,
        cabinet_of: Vec<u32>,
        cabinets: usize,
        floor: &Floor,
    ) -> Result<Placement> {
        let grid = floor.grid(cabinets)?;
        Ok(Placement {
            floor: floor.name.clone(),
            method,
            per_cabinet,
            cabinets,
            rows: grid.rows(),
            cols: grid.cols(),
            cabinet_of,
            grid,
        })
    }
}

/// Places the routers of `net` into cabinets on `floor`.
pub fn place(net: &Network, floor: &Floor, options: &PlaceOptions) -> Result<Placement> {
    let n = net.num_routers();
    if n == 0 {
        return Err(TopolabError::InvalidNetwork(
            "a network without routers cannot be placed".to_string(),
        ));
    }
    if options.per_cabinet == Some(0) {
        return Err(TopolabError::invalid(
            "placement",
            "per_cabinet",
            0,
            "an integer >= 1",
        ));
    }
    match &options.rule {
        PlacementRule::Given(cabinets) => {
            if options.per_cabinet.is_some() {
                return Err(per_cabinet_refused("a placement given router by router"));
            }
            given(net, floor, cabinets.clone())
        }
        PlacementRule::Sequential => sequential(
            n,
            floor,
            options.per_cabinet.unwrap_or(floor.routers_per_cabinet),
            "sequential",
        ),
        PlacementRule::Family => by_family(net, floor, options.per_cabinet),
    }
}

fn per_cabinet_refused(what: &str) -> TopolabError {
    TopolabError::invalid(
        "placement",
        "per_cabinet",
        format!("given for {what}"),
        "only sequential or arbitrary placements (torus, mesh, hypercube, hyperx, random and \
         unstructured networks); use the sequential placement to place any network Z per cabinet",
    )
}

fn by_family(net: &Network, floor: &Floor, per_cabinet: Option<u32>) -> Result<Placement> {
    let n = net.num_routers();
    let structured = |what: &str| match per_cabinet {
        Some(_) => Err(per_cabinet_refused(what)),
        None => Ok(()),
    };
    let declared = crate::topology::find_family(net.family())
        .map(|f| f.placement)
        .unwrap_or(ARBITRARY_PLACEMENT);
    match declared {
        FamilyPlacement::Grouped {
            field,
            what,
            structure,
        } => {
            structured(structure)?;
            let f = label_field(net, field)?;
            grouped(net, floor, |r| net.label(r)[f], what)
        }
        FamilyPlacement::FatTree => fat_tree(net, floor, per_cabinet),
        FamilyPlacement::FirstDimension { what } => {
            let z = match per_cabinet {
                Some(z) => z,
                None => {
                    let d0 = label_field(net, "d0")?;
                    (0..n).map(|r| net.label(r)[d0]).max().unwrap_or(0) as u32 + 1
                }
            };
            sequential(n, floor, z, what)
        }
        FamilyPlacement::Sequential { what } => sequential(
            n,
            floor,
            per_cabinet.unwrap_or(floor.routers_per_cabinet),
            what,
        ),
    }
}

fn label_field(net: &Network, name: &str) -> Result<usize> {
    net.label_fields()
        .iter()
        .position(|f| f == name)
        .ok_or_else(|| {
            TopolabError::invalid(
                "placement",
                "placement",
                format!("the {} rule", net.family()),
                format!(
                    "a network with label field '{name}' (this one has {}); place it sequentially \
                     or from a file instead",
                    net.label_fields().join(", ")
                ),
            )
        })
}

fn sequential(n: usize, floor: &Floor, z: u32, method: &str) -> Result<Placement> {
    let cabinets = n.div_ceil(z as usize);
    let cabinet_of = (0..n).map(|r| (r / z as usize) as u32).collect();
    Placement::new(
        format!("{method}; {z} per cabinet"),
        Some(z),
        cabinet_of,
        cabinets,
        floor,
    )
}

/// Cabinet = a non-negative label value, cabinets 0..=max.
fn grouped(
    net: &Network,
    floor: &Floor,
    cabinet: impl Fn(usize) -> i64,
    method: &str,
) -> Result<Placement> {
    let mut cabinet_of = Vec::with_capacity(net.num_routers());
    for r in 0..net.num_routers() {
        let c = cabinet(r);
        if c < 0 || c as u64 >= MAX_CABINETS {
            return Err(TopolabError::InvalidNetwork(format!(
                "router {r} has cabinet label {c}, outside 0..{MAX_CABINETS}"
            )));
        }
        cabinet_of.push(c as u32);
    }
    let cabinets = *cabinet_of.iter().max().expect("routers exist") as usize + 1;
    Placement::new(method.to_string(), None, cabinet_of, cabinets, floor)
}

fn given(net: &Network, floor: &Floor, cabinet_of: Vec<u32>) -> Result<Placement> {
    if cabinet_of.len() != net.num_routers() {
        return Err(TopolabError::invalid(
            "placement",
            "placement",
            format!("{} cabinets", cabinet_of.len()),
            format!("one cabinet per router ({} routers)", net.num_routers()),
        ));
    }
    let max = *cabinet_of.iter().max().expect("routers exist") as u64;
    if max >= MAX_CABINETS {
        return Err(TopolabError::invalid(
            "placement",
            "placement",
            format!("cabinet {max}"),
            format!("cabinet indices below {MAX_CABINETS}"),
        ));
    }
    Placement::new(
        "given router by router".to_string(),
        None,
        cabinet_of,
        max as usize + 1,
        floor,
    )
}

/// Besta & Hoefler, SC14, §VI-B3c: a pod's leaves and aggregation routers share a cabinet with the
/// pod's endpoints; the routers above the pods (core, or the spines of a two-level tree) stand in
/// cabinets of the same size in the central row. A two-level tree has a single pod, so its
/// leaves go Z to a cabinet.
fn fat_tree(net: &Network, floor: &Floor, per_cabinet: Option<u32>) -> Result<Placement> {
    let n = net.num_routers();
    let (level, pod) = (label_field(net, "level")?, label_field(net, "pod")?);
    let three_levels = (0..n).any(|r| net.label(r)[level] == 2);
    if three_levels && per_cabinet.is_some() {
        return Err(per_cabinet_refused(
            "a 3-level fat tree (one pod per cabinet)",
        ));
    }
    let z = per_cabinet.unwrap_or(floor.routers_per_cabinet) as usize;
    // Lower group of every router below the top (pods, or chunks of leaves); None above it.
    let mut lower: Vec<Option<usize>> = vec![None; n];
    let mut upper: Vec<usize> = Vec::new();
    let mut leaves = 0usize;
    for (r, slot) in lower.iter_mut().enumerate() {
        let label = net.label(r);
        if label[pod] >= 0 && (three_levels || label[level] == 0) {
            *slot = Some(if three_levels {
                label[pod] as usize
            } else {
                leaves += 1;
                (leaves - 1) / z
            });
        } else {
            upper.push(r);
        }
    }
    let groups = lower.iter().flatten().max().map_or(0, |&g| g + 1);
    let mut group_size = vec![0usize; groups];
    for g in lower.iter().flatten() {
        group_size[*g] += 1;
    }
    let per_upper = group_size.iter().copied().max().unwrap_or(z).max(1);
    let upper_cabinets = upper.len().div_ceil(per_upper);
    let cabinets = groups + upper_cabinets;
    let grid = floor.grid(cabinets)?;
    // Cells of the central row first (middle column outwards), then the rows around it.
    let mid_row = (grid.rows() - 1) / 2;
    let mut cells: Vec<usize> = (0..cabinets).collect();
    cells.sort_by_key(|&i| {
        let (row, col) = grid.position(i);
        (
            row.abs_diff(mid_row),
            row,
            (2 * col).abs_diff(grid.cols() - 1),
            col,
        )
    });
    let (core_cells, pod_cells) = cells.split_at(upper_cabinets);
    let mut pod_cells = pod_cells.to_vec();
    pod_cells.sort_unstable();
    let mut cabinet_of = vec![0u32; n];
    for (r, g) in lower.iter().enumerate() {
        if let Some(g) = g {
            cabinet_of[r] = pod_cells[*g] as u32;
        }
    }
    for (i, &r) in upper.iter().enumerate() {
        cabinet_of[r] = core_cells[i / per_upper] as u32;
    }
    let method = if three_levels {
        "one pod per cabinet, core routers in the central row (Besta & Hoefler, SC14, §VI-B3c)"
            .to_string()
    } else {
        format!(
            "{z} leaves per cabinet, spines in the central row (Besta & Hoefler, SC14, §VI-B3c)"
        )
    };
    Placement::new(
        method,
        (!three_levels).then_some(z as u32),
        cabinet_of,
        cabinets,
        floor,
    )
}

/// Reads a placement file: one `router cabinet` pair per line (whitespace or comma separated,
/// `#` starts a comment), every router of the network exactly once; or a JSON array of cabinet
/// indices in router order. Returns the cabinet of each of `routers` routers.
pub fn read_placement(text: &str, routers: usize, origin: &str) -> Result<Vec<u32>> {
    let fmt_err = |line: usize, reason: String| {
        TopolabError::format("placement", format!("{origin}, line {line}"), reason)
    };
    if text.trim_start().starts_with('[') {
        let list: Vec<u32> = serde_json::from_str(text)
            .map_err(|e| TopolabError::format("placement", origin, e.to_string()))?;
        if list.len() != routers {
            return Err(TopolabError::format(
                "placement",
                origin,
                format!("{} cabinets listed for {routers} routers", list.len()),
            ));
        }
        return Ok(list);
    }
    let mut cabinet_of: Vec<Option<u32>> = vec![None; routers];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let parts: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .collect();
        let [router, cabinet] = parts[..] else {
            return Err(fmt_err(i + 1, format!("'{line}' is not 'router cabinet'")));
        };
        let router: usize = router
            .parse()
            .map_err(|_| fmt_err(i + 1, format!("router '{router}' is not an integer")))?;
        let cabinet: u32 = cabinet
            .parse()
            .map_err(|_| fmt_err(i + 1, format!("cabinet '{cabinet}' is not an integer >= 0")))?;
        let slot = cabinet_of.get_mut(router).ok_or_else(|| {
            fmt_err(
                i + 1,
                format!("router {router} does not exist (0..{routers})"),
            )
        })?;
        if slot.replace(cabinet).is_some() {
            return Err(fmt_err(i + 1, format!("router {router} is placed twice")));
        }
    }
    cabinet_of
        .iter()
        .enumerate()
        .map(|(r, c)| {
            c.ok_or_else(|| {
                TopolabError::format("placement", origin, format!("router {r} has no cabinet"))
            })
        })
        .collect()
}

/// `read_placement` of a file.
pub fn load_placement(path: &std::path::Path, routers: usize) -> Result<Vec<u32>> {
    let text = crate::io::read_input(path)?;
    read_placement(&text, routers, &path.display().to_string())
}
