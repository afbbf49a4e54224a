//! Correlated failure sets taken from the network's structure and floor plan: the cables
//! between two router groups (a Dragonfly's global bundle: Kim, Dally, Scott & Abts, ISCA 2008,
//! §3, route the links between two groups together), one cabinet's cables or routers on the
//! floor the cost model places the network on (`physical::place`), the cables of one overhead
//! tray of that floor, one router with its links and endpoints.

use super::{CabinetPart, Failed, FailureKind, FailureSet, TrayLine};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::physical::{place, Floor, PlaceOptions};
use crate::spec::Params;
use crate::topology::{ParamDef, ParamKind};

pub const BUNDLE: FailureKind = FailureKind {
    name: "bundle",
    summary: "every cable between router groups a and b (a = b: inside group a), of one link class if class is given",
    params: &[
        ParamDef {
            name: "a",
            kind: ParamKind::Int,
            default: None,
            help: "one group (the value of label field `field`)",
        },
        ParamDef {
            name: "b",
            kind: ParamKind::Int,
            default: None,
            help: "the other group",
        },
        ParamDef {
            name: "field",
            kind: ParamKind::Text,
            default: Some("group"),
            help: "the label field that names a router's group (cluster for PolarFly, pod for fat trees)",
        },
        ParamDef {
            name: "class",
            kind: ParamKind::Text,
            default: Some("every class"),
            help: "only cables of this link class (topolab info lists them, e.g. global)",
        },
    ],
    parse: |p| {
        Ok(FailureSet::Bundle {
            a: required_int(p, "a", "one group")?,
            b: required_int(p, "b", "the other group")?,
            field: p.opt_text("field")?.unwrap_or_else(|| "group".into()),
            class: p.opt_text("class")?,
        })
    },
};

/// The floor plan the cabinet and tray kinds place the routers on (`physical::place`).
const FLOOR: ParamDef = ParamDef {
    name: "floor",
    kind: ParamKind::Text,
    default: Some(DEFAULT_FLOOR),
    help: "the floor the routers are placed on (as for topolab cost)",
};
const DEFAULT_FLOOR: &str = "skywalk";

pub const CABINET: FailureKind = FailureKind {
    name: "cabinet",
    summary: "one cabinet of the floor plan: the cables leaving it (what=cables) or its routers with their endpoints (what=routers)",
    params: &[
        ParamDef {
            name: "id",
            kind: ParamKind::Int,
            default: None,
            help: "the cabinet (topolab cost --json lists each router's)",
        },
        ParamDef {
            name: "what",
            kind: ParamKind::Text,
            default: Some("cables"),
            help: "cables (every cable with one end in the cabinet) or routers (the cabinet loses power)",
        },
        FLOOR,
    ],
    parse: |p| {
        let what = match p
            .opt_text("what")?
            .unwrap_or_else(|| "cables".into())
            .to_ascii_lowercase()
            .as_str()
        {
            "cables" => CabinetPart::Cables,
            "routers" => CabinetPart::Routers,
            other => return Err(p.invalid("what", other, "cables or routers")),
        };
        Ok(FailureSet::Cabinet {
            id: required_int(p, "id", "the cabinet")? as u32,
            floor: p.opt_text("floor")?.unwrap_or_else(|| DEFAULT_FLOOR.into()),
            what,
        })
    },
};

pub const TRAY: FailureKind = FailureKind {
    name: "tray",
    summary: "every cable laid in one overhead tray of the floor plan: along row `row` or along column `col` (cables run along the row of their lower-row end, then along the column of the other end)",
    params: &[
        ParamDef {
            name: "row",
            kind: ParamKind::Int,
            default: None,
            help: "the row whose tray fails (give row or col)",
        },
        ParamDef {
            name: "col",
            kind: ParamKind::Int,
            default: None,
            help: "the column whose tray fails (give row or col)",
        },
        FLOOR,
    ],
    parse: |p| {
        let row = p.opt_int("row", 0, u32::MAX as i64)?;
        let col = p.opt_int("col", 0, u32::MAX as i64)?;
        let line = match (row, col) {
            (Some(r), None) => TrayLine::Row(r as u32),
            (None, Some(c)) => TrayLine::Column(c as u32),
            _ => {
                let given = match (row, col) {
                    (Some(r), Some(c)) => format!("row={r} and col={c}"),
                    _ => "neither".to_string(),
                };
                return Err(p.invalid("row, col", given, "exactly one of row and col"));
            }
        };
        Ok(FailureSet::Tray {
            floor: p.opt_text("floor")?.unwrap_or_else(|| DEFAULT_FLOOR.into()),
            line,
        })
    },
};

pub const ROUTER: FailureKind = FailureKind {
    name: "router",
    summary: "one router with its links and endpoints",
    params: &[ParamDef {
        name: "id",
        kind: ParamKind::Int,
        default: None,
        help: "the router (0-based)",
    }],
    parse: |p| {
        Ok(FailureSet::Router {
            id: required_int(p, "id", "the router")? as u32,
        })
    },
};

fn required_int(p: &Params, name: &str, help: &str) -> Result<i64> {
    p.opt_int(name, 0, u32::MAX as i64)?
        .ok_or_else(|| TopolabError::MissingParameter {
            context: p.family().to_string(),
            param: name.to_string(),
            help: help.to_string(),
        })
}

/// Fails every link between groups `a` and `b` (of link class `class` when given).
pub fn bundle(
    net: &Network,
    a: i64,
    b: i64,
    field: &str,
    class: Option<&str>,
    failed: &mut Failed,
) -> Result<()> {
    let context = "failures 'bundle'";
    let Some(column) = net.label_fields().iter().position(|f| f == field) else {
        return Err(TopolabError::invalid(
            context,
            "field",
            field,
            format!(
                "one of this network's label fields ({})",
                net.label_fields().join(", ")
            ),
        ));
    };
    let class_index = match class {
        None => None,
        Some(c) => Some(
            net.link_classes()
                .iter()
                .position(|x| x == c)
                .ok_or_else(|| {
                    TopolabError::invalid(
                        context,
                        "class",
                        c,
                        format!(
                            "one of this network's link classes ({})",
                            net.link_classes().join(", ")
                        ),
                    )
                })? as u16,
        ),
    };
    let group = |r: u32| net.label(r as usize)[column];
    let mut found = 0usize;
    for (l, link) in net.links().iter().enumerate() {
        let (gs, gd) = (group(link.src), group(link.dst));
        let joins = (gs == a && gd == b) || (gs == b && gd == a);
        if joins && class_index.is_none_or(|c| c == link.class) {
            failed.link(net, l);
            found += 1;
        }
    }
    if found == 0 {
        return Err(TopolabError::invalid(
            context,
            "a, b",
            format!("{a}, {b}"),
            format!(
                "two {field} values joined by at least one link{}",
                class.map(|c| format!(" of class {c}")).unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

/// Fails cabinet `id`'s outgoing cables or its routers, placed on `floor` by the family's rule.
pub fn cabinet(
    net: &Network,
    id: u32,
    floor: &str,
    what: CabinetPart,
    failed: &mut Failed,
) -> Result<()> {
    let floor = Floor::resolve(floor)?;
    let placement = place(net, &floor, &PlaceOptions::default())?;
    if id as usize >= placement.cabinets {
        return Err(TopolabError::invalid(
            "failures 'cabinet'",
            "id",
            id,
            format!(
                "a cabinet from 0 to {} ({} placement)",
                placement.cabinets.saturating_sub(1),
                placement.method
            ),
        ));
    }
    let inside = |r: u32| placement.cabinet(r as usize) == id as usize;
    match what {
        CabinetPart::Routers => {
            for r in 0..net.num_routers() {
                if inside(r as u32) {
                    failed.routers[r] = true;
                }
            }
        }
        CabinetPart::Cables => {
            for (l, link) in net.links().iter().enumerate() {
                if inside(link.src) != inside(link.dst) {
                    failed.link(net, l);
                }
            }
        }
    }
    Ok(())
}

/// Fails every cable laid in the overhead tray `line` of `floor`, the routers placed by the
/// family's rule. A cable between cabinets (r1, c1) and (r2, c2), r1 <= r2, runs along row r1's
/// tray from column c1 to c2, then along column c2's tray from row r1 to r2: the Manhattan
/// route the cable-length model measures (`physical::CableRule::length`). Cables within one
/// cabinet use no tray.
pub fn tray(net: &Network, floor: &str, line: TrayLine, failed: &mut Failed) -> Result<()> {
    let floor = Floor::resolve(floor)?;
    let placement = place(net, &floor, &PlaceOptions::default())?;
    let grid = placement.grid();
    let (rows, cols) = (grid.rows(), grid.cols());
    let (param, index, count) = match line {
        TrayLine::Row(r) => ("row", r as usize, rows),
        TrayLine::Column(c) => ("col", c as usize, cols),
    };
    if index >= count {
        return Err(TopolabError::invalid(
            "failures 'tray'",
            param,
            index,
            format!(
                "a {param} from 0 to {} (the floor holds {rows} rows of {cols} cabinets)",
                count - 1
            ),
        ));
    }
    let mut found = 0usize;
    for (l, link) in net.links().iter().enumerate() {
        let (a, b) = (
            placement.cabinet(link.src as usize),
            placement.cabinet(link.dst as usize),
        );
        if a == b {
            continue;
        }
        let ((r1, c1), (r2, c2)) = {
            let (pa, pb) = (grid.position(a), grid.position(b));
            if pa.0 <= pb.0 {
                (pa, pb)
            } else {
                (pb, pa)
            }
        };
        let laid = match line {
            TrayLine::Row(r) => r1 == r as usize && c1 != c2,
            TrayLine::Column(c) => c2 == c as usize && r1 != r2,
        };
        if laid {
            failed.link(net, l);
            found += 1;
        }
    }
    if found == 0 {
        return Err(TopolabError::invalid(
            "failures 'tray'",
            param,
            index,
            format!("a {param} whose tray carries at least one cable of this network"),
        ));
    }
    Ok(())
}

/// Fails router `id`.
pub fn router(net: &Network, id: u32, failed: &mut Failed) -> Result<()> {
    let n = net.num_routers();
    if id as usize >= n {
        return Err(TopolabError::invalid(
            "failures 'router'",
            "id",
            id,
            format!("a router from 0 to {}", n.saturating_sub(1)),
        ));
    }
    failed.routers[id as usize] = true;
    Ok(())
}
