//! PLACEHOLDER: replaced by the family's construction.
use super::Family;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::Params;

pub const TORUS: Family = Family {
    name: "torus",
    aliases: &[],
    summary: "not implemented yet",
    source: "",
    directed: false,
    params: &[],
    build: build_torus,
    example: "torus",
};

fn build_torus(_p: &Params) -> Result<Network> {
    Err(TopolabError::InvalidNetwork(
        "torus: not implemented yet".into(),
    ))
}

pub const MESH: Family = Family {
    name: "mesh",
    aliases: &[],
    summary: "not implemented yet",
    source: "",
    directed: false,
    params: &[],
    build: build_mesh,
    example: "mesh",
};

fn build_mesh(_p: &Params) -> Result<Network> {
    Err(TopolabError::InvalidNetwork(
        "mesh: not implemented yet".into(),
    ))
}
