//! Router coordinates of the grid families (torus/mesh d0.., HyperX d0.., hypercube b0..), read
//! from the Network's labels, and the neighbour in a given dimension found from them: the
//! lookup the structured routings (`hyperx`, `torus`, `hypercube`) take at every hop. Nothing
//! assumes a router numbering: a neighbour is the router whose label differs in exactly one
//! coordinate.

use crate::error::{Result, TopolabError};
use crate::network::Network;

/// No neighbour with that coordinate.
pub const NONE: u32 = u32::MAX;

/// Coordinates of every router and, per router, dimension and coordinate value, the position
/// of that neighbour in `net.neighbors(router)`.
#[derive(Debug, Clone)]
pub struct GridCoords {
    /// K_n, the size of every dimension (largest label + 1).
    pub dims: Vec<u32>,
    /// coords[r * N + n].
    coords: Vec<u32>,
    /// Offset of dimension n in a router's row of `nb`.
    offsets: Vec<usize>,
    row: usize,
    /// nb[r * row + offsets[n] + c]: neighbour position, or NONE.
    nb: Vec<u32>,
    /// The network's family, for errors.
    family: String,
}

impl GridCoords {
    /// Reads the labels of a network whose label fields are the coordinates
    /// `<prefix>0, <prefix>1, ...` (any network that has them: tori, meshes and HyperX have
    /// d0.., hypercubes b0..); `routing` names the caller in errors.
    pub fn read(net: &Network, routing: &str, prefix: &str) -> Result<Self> {
        let fields = net.label_fields();
        let nd = fields.len();
        if nd == 0
            || fields
                .iter()
                .enumerate()
                .any(|(i, f)| *f != format!("{prefix}{i}"))
        {
            return Err(TopolabError::InvalidNetwork(format!(
                "routing {routing} needs grid coordinates (router labels {prefix}0, {prefix}1, ...); this network ('{}') has labels '{}'",
                net.family(),
                fields.join(", ")
            )));
        }
        let n = net.num_routers();
        let mut dims = vec![1u32; nd];
        let mut coords = vec![0u32; n * nd];
        for r in 0..n {
            let label = net.label(r);
            if label.len() != nd {
                return Err(TopolabError::InvalidNetwork(format!(
                    "routing {routing}: router {r} has no coordinates"
                )));
            }
            for (k, &c) in label.iter().enumerate() {
                if !(0..1 << 24).contains(&c) {
                    return Err(TopolabError::InvalidNetwork(format!(
                        "routing {routing}: router {r} has coordinate {prefix}{k} = {c}"
                    )));
                }
                dims[k] = dims[k].max(c as u32 + 1);
                coords[r * nd + k] = c as u32;
            }
        }
        let mut offsets = Vec::with_capacity(nd);
        let mut row = 0usize;
        for &k in &dims {
            offsets.push(row);
            row += k as usize;
        }
        let mut nb = vec![NONE; n * row];
        for r in 0..n {
            for (pos, &v) in net.neighbors(r).iter().enumerate() {
                let (a, b) = (
                    &coords[r * nd..r * nd + nd],
                    &coords[v as usize * nd..][..nd],
                );
                let mut diff = (0..nd).filter(|&k| a[k] != b[k]);
                let (Some(k), None) = (diff.next(), diff.next()) else {
                    return Err(TopolabError::InvalidNetwork(format!(
                        "routing {routing}: the link between routers {r} and {v} changes {} coordinates; a grid link changes one",
                        (0..nd).filter(|&k| a[k] != b[k]).count()
                    )));
                };
                nb[r * row + offsets[k] + b[k] as usize] = pos as u32;
            }
        }
        Ok(GridCoords {
            dims,
            coords,
            offsets,
            row,
            nb,
            family: net.family().to_string(),
        })
    }

    pub fn num_dims(&self) -> usize {
        self.dims.len()
    }

    #[inline]
    pub fn coord(&self, r: u32, n: usize) -> u32 {
        self.coords[r as usize * self.dims.len() + n]
    }

    /// Every coordinate of router r, dimension by dimension.
    #[inline]
    pub fn coords_of(&self, r: u32) -> &[u32] {
        let nd = self.dims.len();
        &self.coords[r as usize * nd..][..nd]
    }

    /// Position of r's neighbour that has coordinate c in dimension n (its other coordinates
    /// equal r's), or NONE.
    #[inline]
    pub fn neighbor(&self, r: u32, n: usize, c: u32) -> u32 {
        self.nb[r as usize * self.row + self.offsets[n] + c as usize]
    }

    /// Whether the grid has wrap-around links (a torus, not a mesh): some dimension of K >= 3
    /// routers links coordinate K−1 to coordinate 0. Read from the links, so any network with
    /// the coordinates has it or not, whatever its family; a dimension of 2 is the same link
    /// either way and tells nothing.
    pub fn wraps(&self) -> bool {
        let routers = (self.coords.len() / self.dims.len()) as u32;
        (0..routers).any(|r| {
            self.dims.iter().enumerate().any(|(n, &k)| {
                k >= 3 && self.coord(r, n) == k - 1 && self.neighbor(r, n, 0) != NONE
            })
        })
    }

    /// Every router must reach every other coordinate of each dimension in one hop (a
    /// complete HyperX); `routing` names the caller in the error.
    pub fn require_complete(&self, routing: &str) -> Result<()> {
        let routers = self.coords.len() / self.dims.len();
        for r in 0..routers as u32 {
            for (n, &k) in self.dims.iter().enumerate() {
                for c in 0..k {
                    if c != self.coord(r, n) && self.neighbor(r, n, c) == NONE {
                        return Err(TopolabError::InvalidNetwork(format!(
                            "routing {routing} needs a complete HyperX: router {r} of this '{}' network has no link to coordinate {c} of dimension {n}",
                            self.family
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}
