//! The physical side of a network: where switches stand on the machine-room floor and how long
//! the cables between them are. Layout-aware constructions (Skywalk) place switches on this
//! floor while they build; the cable-length and cost metrics read the same model afterwards.

pub mod grid;

pub use grid::{CabinetGrid, CableRule};
