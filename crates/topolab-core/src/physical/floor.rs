//! Floor models: the size of a cabinet (rack) on the machine-room floor, the cable-length rule
//! and the electric/optical threshold, as editable data (crates/topolab-core/data/floors.toml).
//!
//! Two floors come from the papers:
//! - `slimfly` (Besta & Hoefler, SC14, §VI-A, §VI-B): 1 × 1 × 2 m racks close to a square, routers
//!   on top, intra-rack cables 1 m on average, Manhattan distance + 2 m for a global cable,
//!   intra-rack links electric and inter-rack links optical;
//! - `skywalk` (Fujiwara et al., IPDPS 2014, §III-A): cabinets 0.6 m wide and 2.1 m deep including
//!   the aisle, intra-cabinet cables 2 m, inter-cabinet cables Manhattan distance + 4 m.
//!
//! Both stand their cabinets on the near-square grid of `CabinetGrid` (x = ⌈√c⌉ rows,
//! y = ⌈c/x⌉ columns); Besta & Hoefler, SC14, §VI-A's "remaining z racks at an arbitrary side" is
//! the partly filled last row.

use super::cables::CableRule;
use super::data::{self, check_number, Named};
use crate::error::{Result, TopolabError};
use crate::floor_grid::CabinetGrid;
use serde::{Deserialize, Serialize};

const BUILTIN_FLOORS: &str = include_str!("../../data/floors.toml");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Floor {
    #[serde(skip_deserializing)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source: String,
    /// Pitch between neighbouring cabinet columns (m).
    pub cabinet_width_m: f64,
    /// Pitch between neighbouring cabinet rows, aisle included (m).
    pub cabinet_depth_m: f64,
    /// Length of a cable inside one cabinet (m).
    pub intra_cabinet_cable_m: f64,
    /// Added to the floor distance of a cable between cabinets (m).
    pub inter_cabinet_overhead_m: f64,
    /// Length of a router-to-endpoint cable (m).
    pub endpoint_cable_m: f64,
    /// Cables up to this length are electric, longer ones optical; +inf: all electric.
    pub max_electric_m: f64,
    /// Cabinet size for networks placed sequentially or arbitrarily, when none is given.
    pub routers_per_cabinet: u32,
}

impl Named for Floor {
    const KIND: &'static str = "floor";
    const BUILTIN: &'static str = BUILTIN_FLOORS;

    fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn validate(&self) -> Result<()> {
        check_number(
            "cabinet_width_m",
            self.cabinet_width_m,
            f64::MIN_POSITIVE,
            false,
        )?;
        check_number(
            "cabinet_depth_m",
            self.cabinet_depth_m,
            f64::MIN_POSITIVE,
            false,
        )?;
        check_number(
            "intra_cabinet_cable_m",
            self.intra_cabinet_cable_m,
            0.0,
            false,
        )?;
        check_number(
            "inter_cabinet_overhead_m",
            self.inter_cabinet_overhead_m,
            0.0,
            false,
        )?;
        check_number("endpoint_cable_m", self.endpoint_cable_m, 0.0, false)?;
        check_number("max_electric_m", self.max_electric_m, 0.0, true)?;
        if self.routers_per_cabinet == 0 {
            return Err(TopolabError::invalid(
                "floor",
                "routers_per_cabinet",
                0,
                "an integer >= 1",
            ));
        }
        Ok(())
    }
}

impl Floor {
    /// A built-in floor ("slimfly", "skywalk").
    pub fn builtin(name: &str) -> Result<Floor> {
        data::builtin(name)
    }

    pub fn builtin_names() -> Vec<String> {
        data::builtin_names::<Floor>()
    }

    /// A built-in name, a TOML file with one floor, or `file.toml#name`.
    pub fn resolve(spec: &str) -> Result<Floor> {
        data::resolve(spec)
    }

    /// Every floor of a TOML text (`origin` names it in messages).
    pub fn parse_all(text: &str, origin: &str) -> Result<Vec<Floor>> {
        data::parse_all(text, origin)
    }

    /// A copy with a different electric/optical threshold (m, +inf: all electric).
    pub fn with_max_electric(mut self, max_electric_m: f64) -> Result<Floor> {
        check_number("max_electric_m", max_electric_m, 0.0, true)?;
        self.max_electric_m = max_electric_m;
        Ok(self)
    }

    /// The grid of `cabinets` cabinets of this floor's size.
    pub fn grid(&self, cabinets: usize) -> Result<CabinetGrid> {
        CabinetGrid::with_cabinet_size(cabinets, self.cabinet_width_m, self.cabinet_depth_m)
    }

    pub fn cable_rule(&self) -> CableRule {
        CableRule {
            intra_cabinet: self.intra_cabinet_cable_m,
            inter_cabinet_overhead: self.inter_cabinet_overhead_m,
        }
    }

    /// Whether a cable of `length_m` metres is electric under this floor's threshold.
    pub fn is_electric(&self, length_m: f64) -> bool {
        // A micrometre of slack so that a cable computed as 1.0000000000000002 m is still "1 m".
        length_m <= self.max_electric_m + 1e-6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_floors_carry_the_papers_numbers() {
        assert_eq!(Floor::builtin_names(), vec!["skywalk", "slimfly"]);
        let sky = Floor::builtin("skywalk").unwrap();
        assert_eq!(
            (sky.cabinet_width_m, sky.cabinet_depth_m),
            (0.6, 2.1),
            "Fujiwara et al., IPDPS 2014, §III-A"
        );
        assert_eq!(
            (sky.intra_cabinet_cable_m, sky.inter_cabinet_overhead_m),
            (2.0, 4.0)
        );
        let sf = Floor::builtin("SlimFly").unwrap();
        assert_eq!((sf.cabinet_width_m, sf.cabinet_depth_m), (1.0, 1.0));
        assert_eq!(
            (sf.intra_cabinet_cable_m, sf.inter_cabinet_overhead_m),
            (1.0, 2.0),
            "Besta & Hoefler, SC14, §VI-B"
        );
        assert!(sf.is_electric(1.0) && !sf.is_electric(3.0));
    }

    #[test]
    fn bad_floors_are_named() {
        let e = Floor::builtin("moon").unwrap_err().to_string();
        assert!(e.contains("moon") && e.contains("skywalk"), "{e}");
        let text = Floor::BUILTIN.replace("cabinet_width_m = 0.6", "cabinet_width_m = -1");
        let e = Floor::parse_all(&text, "test").unwrap_err().to_string();
        assert!(
            e.contains("cabinet_width_m") && e.contains("skywalk"),
            "{e}"
        );
        let text = Floor::BUILTIN.replace("routers_per_cabinet = 8", "routers_per_cab = 8");
        let e = Floor::parse_all(&text, "test").unwrap_err().to_string();
        assert!(e.contains("routers_per_cab"), "{e}");
        assert!(Floor::builtin("skywalk")
            .unwrap()
            .with_max_electric(f64::NAN)
            .is_err());
    }
}
