//! Reading and writing networks: topolab JSON, edge lists, GraphML, BookSim2 anynet, InfiniBand
//! fabrics (ibnetdiscover / ibsim).
//!
//! Every reader builds its result through `NetworkBuilder`, so a loaded network is validated
//! exactly like a generated one. The formats are described in docs/file-formats.md.
//!
//! `LoadOptions` supply what a file does not state (edge lists and GraphML from other tools say
//! nothing about endpoints, anynet nothing about direction). When a file does state a value and
//! the caller asks for a different one, loading fails instead of silently picking one of them.

pub mod anynet;
pub mod edgelist;
pub mod graphml;
pub mod ibnet;
pub mod json;

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};

/// Family recorded for networks read from files that do not name one.
pub const IMPORTED_FAMILY: &str = "imported";

/// Link class given to links read from files that carry no class.
pub const DEFAULT_LINK_CLASS: &str = "link";

/// The file formats topolab reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Json,
    EdgeList,
    GraphMl,
    Anynet,
    Ibnet,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Json,
        Format::EdgeList,
        Format::GraphMl,
        Format::Anynet,
        Format::Ibnet,
    ];

    /// Short name used on command lines: json, edgelist, graphml, anynet, ibnet.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::EdgeList => "edgelist",
            Format::GraphMl => "graphml",
            Format::Anynet => "anynet",
            Format::Ibnet => "ibnet",
        }
    }

    /// Human-readable name used in error messages.
    pub fn title(self) -> &'static str {
        match self {
            Format::Json => "topolab JSON",
            Format::EdgeList => "edge list",
            Format::GraphMl => "GraphML",
            Format::Anynet => "BookSim2 anynet",
            Format::Ibnet => "ibnetdiscover/ibsim topology",
        }
    }

    /// File extensions (lower case, without the dot) that select this format.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Json => &["json"],
            Format::EdgeList => &["edgelist", "edges", "txt"],
            Format::GraphMl => &["graphml"],
            Format::Anynet => &["anynet"],
            Format::Ibnet => &["ibnet", "ibnd"],
        }
    }

    /// The format a file name's extension selects (case-insensitive).
    pub fn from_path(path: impl AsRef<Path>) -> Result<Format> {
        let path = path.as_ref();
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase());
        if let Some(ext) = &ext {
            if let Some(f) = Format::ALL
                .into_iter()
                .find(|f| f.extensions().contains(&ext.as_str()))
            {
                return Ok(f);
            }
        }
        let found = match ext {
            Some(e) => format!("extension '.{e}'"),
            None => "no extension".to_string(),
        };
        Err(TopolabError::Io {
            path: path.display().to_string(),
            reason: format!(
                "cannot tell the file format from {found}; known extensions: {}",
                known_extensions()
            ),
        })
    }

    /// The format called `name` (a `name()` or one of its extensions, case-insensitive).
    pub fn from_name(name: &str) -> Result<Format> {
        let lower = name.trim_start_matches('.').to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|f| f.name() == lower || f.extensions().contains(&lower.as_str()))
            .ok_or_else(|| {
                TopolabError::invalid(
                    "io",
                    "format",
                    name,
                    format!("one of {}", Format::ALL.map(|f| f.name()).join(", ")),
                )
            })
    }
}

fn known_extensions() -> String {
    Format::ALL
        .iter()
        .map(|f| {
            let exts: Vec<String> = f.extensions().iter().map(|e| format!(".{e}")).collect();
            format!("{} ({})", exts.join("/"), f.title())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the caller knows about a file that the file itself may not say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Whether links are one-way. Used when the file does not say; an error if it says otherwise.
    pub directed: Option<bool>,
    /// Endpoints on every router. Used where the file does not say; an error where it says
    /// otherwise.
    pub endpoints_per_router: Option<u32>,
}

/// The network in `format` as text.
pub fn to_string(net: &Network, format: Format) -> Result<String> {
    match format {
        Format::Json => Ok(json::to_string(net)),
        Format::EdgeList => Ok(edgelist::to_string(net)),
        Format::GraphMl => graphml::to_string(net),
        Format::Anynet => anynet::to_string(net),
        Format::Ibnet => ibnet::to_string(net),
    }
}

/// Reads a network from text in `format`.
pub fn from_str(text: &str, format: Format, options: &LoadOptions) -> Result<Network> {
    match format {
        Format::Json => json::from_str(text, options),
        Format::EdgeList => edgelist::from_str(text, options),
        Format::GraphMl => graphml::from_str(text, options),
        Format::Anynet => anynet::from_str(text, options),
        Format::Ibnet => ibnet::from_str(text, options),
    }
}

/// Writes the network to `path` in `format` (see `Format::from_path`).
pub fn save(net: &Network, path: impl AsRef<Path>, format: Format) -> Result<()> {
    let path = path.as_ref();
    let text = to_string(net, format)?;
    write_atomically(path, text.as_bytes())
}

/// Writes `data` to a temporary file beside `path`, syncs it, then renames it over `path`:
/// an interruption leaves the old file or the whole new one, never half of one, and a
/// symbolic link at `path` is replaced rather than written through (python/topolab/_files.py
/// does the same for the files Python writes).
pub fn write_atomically(path: &Path, data: &[u8]) -> Result<()> {
    use std::io::Write;
    let io_err = |e| TopolabError::io(path, e);
    let name = path
        .file_name()
        .ok_or_else(|| TopolabError::Io {
            path: path.display().to_string(),
            reason: "not a file name".to_string(),
        })?
        .to_string_lossy();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(io_err)
}

/// Reads a network from `path` in `format`.
pub fn load(path: impl AsRef<Path>, format: Format, options: &LoadOptions) -> Result<Network> {
    let text = read_input(path.as_ref())?;
    from_str(&text, format, options)
}

/// The text of an input file (network, configuration, catalog, floor, placement). Only a
/// regular file is opened: opening a FIFO waits for a writer forever and a device never ends.
pub fn read_input(path: &Path) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| TopolabError::io(path, e))?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, FIFO or socket)"
        };
        return Err(TopolabError::Io {
            path: path.display().to_string(),
            reason: format!("{kind}; an input must be a regular file"),
        });
    }
    std::fs::read_to_string(path).map_err(|e| TopolabError::io(path, e))
}

/// Direction from the file (`stated`) or else from the options, default undirected.
pub(crate) fn resolve_directed(
    format: Format,
    stated: Option<bool>,
    options: &LoadOptions,
) -> Result<bool> {
    match (stated, options.directed) {
        (Some(s), Some(o)) if s != o => Err(TopolabError::format(
            format.title(),
            "",
            format!(
                "the file says directed={s} but LoadOptions.directed is {o}; leave the option unset for this file"
            ),
        )),
        (Some(s), _) => Ok(s),
        (None, o) => Ok(o.unwrap_or(false)),
    }
}

/// Fails if the file gives `router` `stated` endpoints and the options ask for another number.
pub(crate) fn check_endpoints_option(
    format: Format,
    location: impl Into<String>,
    stated: u32,
    options: &LoadOptions,
) -> Result<()> {
    match options.endpoints_per_router {
        Some(o) if o != stated => Err(TopolabError::format(
            format.title(),
            location,
            format!(
                "the file gives {stated} endpoints but LoadOptions.endpoints_per_router is {o}; leave the option unset for this file"
            ),
        )),
        _ => Ok(()),
    }
}

/// Freezes a builder, reporting a structural problem as a format error of the input.
pub(crate) fn finish(
    builder: NetworkBuilder,
    format: Format,
    family: &str,
    spec: &str,
) -> Result<Network> {
    builder
        .build()
        .map(|n| n.with_spec(family, spec))
        .map_err(|e| match e {
            TopolabError::InvalidNetwork(reason) => {
                TopolabError::format(format.title(), "", reason)
            }
            other => other,
        })
}

/// Links keyed by router pair (`src < dst` when undirected); repeated pairs add up to width.
pub(crate) struct LinkSet {
    directed: bool,
    links: BTreeMap<(u32, u32), (u32, u16)>,
}

impl LinkSet {
    pub(crate) fn new(directed: bool) -> Self {
        LinkSet {
            directed,
            links: BTreeMap::new(),
        }
    }

    /// Adds `width` cables between `a` and `b`. Errors are plain reasons; the caller adds where.
    pub(crate) fn add(
        &mut self,
        a: u32,
        b: u32,
        width: u32,
        class: u16,
        class_name: impl Fn(u16) -> String,
    ) -> std::result::Result<(), String> {
        if a == b {
            return Err(format!(
                "self-loop at router {a} (a network has no router-to-itself links)"
            ));
        }
        let key = if self.directed || a < b {
            (a, b)
        } else {
            (b, a)
        };
        match self.links.get_mut(&key) {
            None => {
                self.links.insert(key, (width, class));
            }
            Some((w, c)) => {
                if *c != class {
                    return Err(format!(
                        "parallel links {}-{} have classes '{}' and '{}'; a link has one class",
                        key.0,
                        key.1,
                        class_name(*c),
                        class_name(class)
                    ));
                }
                *w = w.checked_add(width).ok_or_else(|| {
                    format!(
                        "total width of link {}-{} exceeds {}",
                        key.0,
                        key.1,
                        u32::MAX
                    )
                })?;
            }
        }
        Ok(())
    }

    pub(crate) fn add_to(&self, builder: &mut NetworkBuilder) {
        for (&(a, b), &(w, c)) in &self.links {
            builder.add_link(a as usize, b as usize, w, c);
        }
    }
}

/// Parses an unsigned decimal integer with a message naming `what` on failure.
pub(crate) fn parse_u32(text: &str, what: &str) -> std::result::Result<u32, String> {
    text.parse::<u32>()
        .map_err(|_| format!("{what} '{text}' is not an integer in 0..={}", u32::MAX))
}
