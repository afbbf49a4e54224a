//! PLACEHOLDER: replaced by the family's construction.
use super::Family;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "oft",
    aliases: &[],
    summary: "not implemented yet",
    source: "",
    directed: false,
    params: &[],
    build: build_family,
    example: "oft",
};

fn build_family(_p: &Params) -> Result<Network> {
    Err(TopolabError::InvalidNetwork(
        "oft: not implemented yet".into(),
    ))
}
