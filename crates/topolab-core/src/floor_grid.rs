//! Cabinets on a machine-room floor grid (Fujiwara et al., IPDPS 2014, §III-A): the geometry the
//! layout-aware constructions (`topology::skywalk`, `topology::hyperx`'s HyperX(z, c, d)) build on
//! and the physical models (`physical::floor`, `physical::placement`) measure, below both.
//!
//! Layout (Fujiwara et al., IPDPS 2014, §III-A): `c` cabinets stand in an `x × y` grid with `x =
//! ⌈√c⌉` cabinet rows and `y = ⌈c/x⌉` cabinet columns. Cabinets of one row stand side by side, so
//! neighbouring columns are one cabinet *width* (0.6 m) apart; neighbouring rows are one cabinet
//! *depth including the aisle* (2.1 m) apart. Cabinet `i` sits at row `i / y`, column `i % y`
//! (row-major), so only the last row can be partly empty. Cables run rectilinearly ("Manhattan"
//! cabling, Fujiwara et al., IPDPS 2014, §II-D), so the floor distance between two cabinets is
//! `|Δrow|·depth + |Δcol|·width`.
//! How long a cable between two cabinets is: `physical::CableRule`.

use crate::error::{Result, TopolabError};

/// Cabinet width in metres: the pitch between neighbouring columns (Fujiwara et al., IPDPS 2014,
/// §III-A).
pub const DEFAULT_CABINET_WIDTH: f64 = 0.6;
/// Cabinet depth including the aisle in metres: the pitch between neighbouring rows (Fujiwara et
/// al., IPDPS 2014, §III-A).
pub const DEFAULT_CABINET_DEPTH: f64 = 2.1;

/// `c` cabinets on the near-square floor grid of Fujiwara et al., IPDPS 2014, §III-A.
#[derive(Debug, Clone, PartialEq)]
pub struct CabinetGrid {
    cabinets: usize,
    rows: usize,
    cols: usize,
    width: f64,
    depth: f64,
}

impl CabinetGrid {
    /// The grid for `cabinets` cabinets with the cabinet size of Fujiwara et al., IPDPS 2014 (0.6 m
    /// × 2.1 m).
    pub fn new(cabinets: usize) -> Result<Self> {
        Self::with_cabinet_size(cabinets, DEFAULT_CABINET_WIDTH, DEFAULT_CABINET_DEPTH)
    }

    /// The grid for `cabinets` cabinets of the given width and depth (metres, depth including
    /// the aisle); both must be finite and positive.
    pub fn with_cabinet_size(cabinets: usize, width: f64, depth: f64) -> Result<Self> {
        if cabinets == 0 {
            return Err(TopolabError::invalid(
                "cabinet grid",
                "cabinets",
                0,
                "at least 1 cabinet",
            ));
        }
        for (name, v) in [("width", width), ("depth", depth)] {
            if !v.is_finite() || v <= 0.0 {
                return Err(TopolabError::invalid(
                    "cabinet grid",
                    name,
                    v,
                    "a finite length > 0 in metres",
                ));
            }
        }
        let rows = ceil_sqrt(cabinets);
        let cols = cabinets.div_ceil(rows);
        Ok(CabinetGrid {
            cabinets,
            rows,
            cols,
            width,
            depth,
        })
    }

    pub fn num_cabinets(&self) -> usize {
        self.cabinets
    }

    /// `x = ⌈√c⌉`, the number of cabinet rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// `y = ⌈c/x⌉`, the number of cabinet columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Column pitch in metres.
    pub fn width(&self) -> f64 {
        self.width
    }

    /// Row pitch in metres (cabinet depth plus aisle).
    pub fn depth(&self) -> f64 {
        self.depth
    }

    /// (row, column) of cabinet `cabinet`.
    pub fn position(&self, cabinet: usize) -> (usize, usize) {
        debug_assert!(cabinet < self.cabinets);
        (cabinet / self.cols, cabinet % self.cols)
    }

    /// The cabinet at (row, column), or None for a cell of the last row left empty.
    pub fn cabinet_at(&self, row: usize, col: usize) -> Option<usize> {
        let i = row * self.cols + col;
        (row < self.rows && col < self.cols && i < self.cabinets).then_some(i)
    }

    /// Two distinct cabinets in the same row or the same column (a "straight" pair, Fujiwara et
    /// al., IPDPS 2014, §II-B).
    pub fn aligned(&self, a: usize, b: usize) -> bool {
        let (ra, ca) = self.position(a);
        let (rb, cb) = self.position(b);
        a != b && (ra == rb || ca == cb)
    }

    /// Rectilinear floor distance in metres between two cabinets (0 for the same cabinet).
    pub fn distance(&self, a: usize, b: usize) -> f64 {
        let (ra, ca) = self.position(a);
        let (rb, cb) = self.position(b);
        ra.abs_diff(rb) as f64 * self.depth + ca.abs_diff(cb) as f64 * self.width
    }

    /// The Manhattan diagonal of the floor, `(x−1)·depth + (y−1)·width`: the distance between
    /// opposite corner positions, which no cabinet pair exceeds (Fujiwara et al., IPDPS 2014,
    /// §III-G calls it `l_max`).
    pub fn diagonal(&self) -> f64 {
        (self.rows - 1) as f64 * self.depth + (self.cols - 1) as f64 * self.width
    }
}

/// Smallest `x` with `x² >= n`, in integers so that perfect squares are exact.
fn ceil_sqrt(n: usize) -> usize {
    let mut x = (n as f64).sqrt() as usize;
    while x * x < n {
        x += 1;
    }
    while x > 1 && (x - 1) * (x - 1) >= n {
        x -= 1;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_shape_follows_the_ceil_sqrt_rule() {
        // (c, x, y) with x = ⌈√c⌉, y = ⌈c/x⌉ worked by hand.
        for (c, x, y) in [
            (1, 1, 1),
            (2, 2, 1),
            (3, 2, 2),
            (5, 3, 2),
            (10, 4, 3),
            (16, 4, 4),
            (17, 5, 4),
            (64, 8, 8),
            (256, 16, 16),
            (1000, 32, 32),
            (1024, 32, 32),
        ] {
            let g = CabinetGrid::new(c).unwrap();
            assert_eq!((g.rows(), g.cols()), (x, y), "c={c}");
            for i in 0..c {
                let (r, k) = g.position(i);
                assert_eq!(g.cabinet_at(r, k), Some(i));
            }
        }
        let g = CabinetGrid::new(10).unwrap();
        assert_eq!(g.position(9), (3, 0));
        assert_eq!(g.cabinet_at(3, 1), None);
    }

    #[test]
    fn distances_in_metres() {
        let g = CabinetGrid::new(256).unwrap();
        let at = |r, k| g.cabinet_at(r, k).unwrap();
        assert!((g.distance(at(0, 0), at(0, 1)) - 0.6).abs() < 1e-12);
        assert!((g.distance(at(0, 0), at(1, 0)) - 2.1).abs() < 1e-12);
        assert!((g.distance(at(2, 3), at(5, 1)) - (3.0 * 2.1 + 2.0 * 0.6)).abs() < 1e-12);
        assert!((g.diagonal() - (15.0 * 2.1 + 15.0 * 0.6)).abs() < 1e-12);
        assert!((g.distance(at(0, 0), at(15, 15)) - g.diagonal()).abs() < 1e-12);
        assert!(g.aligned(at(4, 2), at(4, 9)) && g.aligned(at(4, 2), at(0, 2)));
        assert!(!g.aligned(at(4, 2), at(5, 3)) && !g.aligned(7, 7));
        let wide = CabinetGrid::with_cabinet_size(4, 1.0, 3.0).unwrap();
        assert_eq!(wide.distance(0, 3), 4.0);
    }

    #[test]
    fn bad_grids_are_rejected_by_name() {
        let e = CabinetGrid::new(0).unwrap_err().to_string();
        assert!(e.contains("'cabinets'"), "{e}");
        let e = CabinetGrid::with_cabinet_size(4, 0.0, 2.1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'width'"), "{e}");
        let e = CabinetGrid::with_cabinet_size(4, 0.6, f64::NAN)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'depth'"), "{e}");
    }
}
