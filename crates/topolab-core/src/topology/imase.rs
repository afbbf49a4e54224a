//! PLACEHOLDER: replaced by the family's construction.
use super::Family;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "imase",
    aliases: &[],
    summary: "not implemented yet",
    source: "",
    directed: false,
    params: &[],
    build: build_family,
    example: "imase",
};

fn build_family(_p: &Params) -> Result<Network> {
    Err(TopolabError::InvalidNetwork(
        "imase: not implemented yet".into(),
    ))
}
