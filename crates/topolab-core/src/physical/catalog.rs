//! Cost catalogs: cable prices per medium as linear functions of length, router price as a
//! linear function of radix, and SerDes power per port, as editable data
//! (crates/topolab-core/data/catalogs.toml).
//!
//! `fdr10` is Besta & Hoefler's (SC14) model: Mellanox InfiniBand FDR10 40 Gb/s QSFP cables,
//! electric f(x) = 0.4079x + 0.5771 and optical f(x) = 0.0919x + 2.7452 [$/Gb/s] for a cable of x
//! metres (§VI-B1); routers f(k) = 350.4k − 892.3 [$] (§VI-B2); 4 lanes per port, one SerDes of
//! ≈ 0.7 W per lane (§VI-C). Besta & Hoefler (SC14) name other cables (QDR 56 Gb/s, Ethernet 10/40
//! Gb/s) whose regressions are only in its figures, so they are not built in.

use super::data::{self, check_number, Named};
use super::power::PowerModel;
use crate::error::Result;
use serde::{Deserialize, Serialize};

const BUILTIN_CATALOGS: &str = include_str!("../../data/catalogs.toml");

/// Price of one cable: `bandwidth × (per_gbps_per_m × length + per_gbps)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CablePrice {
    pub per_gbps_per_m: f64,
    pub per_gbps: f64,
}

/// Router price `per_port × k + fixed` and port power.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouterPrice {
    pub per_port: f64,
    pub fixed: f64,
    pub lanes_per_port: u32,
    pub watts_per_lane: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    #[serde(skip_deserializing)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub source: String,
    /// Data rate of one cable in Gb/s (cable prices are per Gb/s).
    pub bandwidth_gbps: f64,
    pub electric: CablePrice,
    pub optical: CablePrice,
    pub router: RouterPrice,
}

impl Named for Catalog {
    const KIND: &'static str = "catalog";
    const BUILTIN: &'static str = BUILTIN_CATALOGS;

    fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn validate(&self) -> Result<()> {
        check_number("bandwidth_gbps", self.bandwidth_gbps, 0.0, false)?;
        for (medium, price) in [("electric", self.electric), ("optical", self.optical)] {
            check_number(
                &format!("{medium}.per_gbps_per_m"),
                price.per_gbps_per_m,
                f64::MIN,
                false,
            )?;
            check_number(
                &format!("{medium}.per_gbps"),
                price.per_gbps,
                f64::MIN,
                false,
            )?;
        }
        check_number("router.per_port", self.router.per_port, f64::MIN, false)?;
        check_number("router.fixed", self.router.fixed, f64::MIN, false)?;
        check_number(
            "router.watts_per_lane",
            self.router.watts_per_lane,
            0.0,
            false,
        )?;
        Ok(())
    }
}

impl Catalog {
    /// A built-in catalog ("fdr10").
    pub fn builtin(name: &str) -> Result<Catalog> {
        data::builtin(name)
    }

    pub fn builtin_names() -> Vec<String> {
        data::builtin_names::<Catalog>()
    }

    /// A built-in name, a TOML file with one catalog, or `file.toml#name`.
    pub fn resolve(spec: &str) -> Result<Catalog> {
        data::resolve(spec)
    }

    pub fn parse_all(text: &str, origin: &str) -> Result<Vec<Catalog>> {
        data::parse_all(text, origin)
    }

    /// Price in $ of one cable of `length_m` metres.
    pub fn cable_price(&self, electric: bool, length_m: f64) -> f64 {
        let p = if electric {
            self.electric
        } else {
            self.optical
        };
        self.bandwidth_gbps * (p.per_gbps_per_m * length_m + p.per_gbps)
    }

    /// Price in $ of one router of radix `k`.
    pub fn router_price(&self, k: u32) -> f64 {
        self.router.per_port * k as f64 + self.router.fixed
    }

    pub fn power(&self) -> PowerModel {
        PowerModel {
            lanes_per_port: self.router.lanes_per_port,
            watts_per_lane: self.router.watts_per_lane,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fdr10_is_000s_regression() {
        let c = Catalog::builtin("fdr10").unwrap();
        // Besta & Hoefler, SC14, §VI-B1: 0.4079x + 0.5771 and 0.0919x + 2.7452 $/Gb/s at 40 Gb/s.
        assert!((c.cable_price(true, 1.0) - 40.0 * (0.4079 + 0.5771)).abs() < 1e-9);
        assert!((c.cable_price(false, 10.0) - 40.0 * (0.919 + 2.7452)).abs() < 1e-9);
        // Besta & Hoefler, SC14, §VI-B2: 350.4k - 892.3.
        assert!((c.router_price(43) - (350.4 * 43.0 - 892.3)).abs() < 1e-9);
        assert!((c.power().port_w() - 2.8).abs() < 1e-12);
    }

    #[test]
    fn bad_catalogs_are_named() {
        let text = Catalog::BUILTIN.replace("bandwidth_gbps = 40.0", "bandwidth_gbps = nan");
        let e = Catalog::parse_all(&text, "mine.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("bandwidth_gbps") && e.contains("fdr10"), "{e}");
        let text = Catalog::BUILTIN.replace("[fdr10.optical]", "[fdr10.fiber]");
        assert!(Catalog::parse_all(&text, "mine.toml").is_err());
        let e = Catalog::builtin("qdr").unwrap_err().to_string();
        assert!(e.contains("fdr10"), "{e}");
    }
}
