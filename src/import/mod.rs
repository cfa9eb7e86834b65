//! Real kernels in: PTX (`nvcc -ptx`) and SASS (`cuobjdump -sass`, `nvdisasm`) read into
//! the instruction string of the model by [`import()`], through a unit map that is data
//! ([`UnitMap`], `maps/*.toml`), with block barriers as `|` and loops unrolled by trip
//! counts ([`Trip`], [`Request::with_trips`]; [`list_branches`] names every branch that
//! needs one). The result, [`Imported`], names where every number came from
//! ([`Provenance`]) and becomes an instance file every command reads ([`to_toml`]).

internal! {
    mod branches;
    mod entry;
    mod flow;
    mod listing;
    mod ptx;
    mod resources;
    mod sass;
    mod trips;
    mod units;
}

pub use branches::{Branch, Kind as BranchKind};
pub use resources::{over_usage, Resources};
pub use trips::Trip;
pub use units::{Class, UnitMap};

use crate::error::InputError;
use crate::model::sm::SmCounts;
use listing::Listing;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// The source format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// PTX.
    Ptx,
    /// SASS.
    Sass,
}

impl Format {
    /// `ptx`, `sass` or `auto` (by extension, then by content).
    pub fn pick(given: &str, path: &str, text: &str) -> Result<Format, InputError> {
        if text.trim().is_empty() {
            return Err(InputError::new(
                "file",
                path,
                "is empty: give the PTX (nvcc -ptx) or SASS (cuobjdump -sass, nvdisasm) of a kernel",
            ));
        }
        match given.to_ascii_lowercase().as_str() {
            "ptx" => Ok(Format::Ptx),
            "sass" => Ok(Format::Sass),
            "auto" => {
                let lower = path.to_ascii_lowercase();
                if lower.ends_with(".ptx") || text.contains(".entry") || text.contains(".version") {
                    Ok(Format::Ptx)
                } else if lower.ends_with(".sass") || text.contains("/*0000*/") || text.contains("Function :") {
                    Ok(Format::Sass)
                } else {
                    Err(InputError::option("format", "auto", "cannot tell PTX from SASS; name the format (ptx or sass)"))
                }
            }
            other => Err(InputError::option("format", other, "must be ptx, sass or auto")),
        }
    }
}

/// What `import` is asked to do (the library's view of its options).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Request {
    /// The kernel to take, when the file holds several.
    pub entry: Option<String>,
    /// The file is one executed path.
    pub trace: bool,
    /// Trip counts per label: one, or one per visit ([`trips::Trip`]).
    pub trips: HashMap<String, trips::Trip>,
    /// A user's unit map on top of the built-in one.
    pub units: Option<UnitMap>,
    /// The architecture, when the file does not say (`sm_62`).
    pub arch: Option<String>,
    /// Warps of the block.
    pub warps: i64,
    /// The SM's unit counts.
    pub sm: SmCounts,
    /// Threads per block, when given that way.
    pub block_threads: Option<i64>,
    /// The launch's dynamic shared memory per block in bytes (`extern __shared__`, the
    /// third `<<<>>>` parameter), recorded under the provenance's resources.
    pub dynamic_shared_memory: Option<u64>,
    /// Labels where the path gets a preemption point (`^`) each time it passes them
    /// (`makespan preempt`'s kernel files; the kernel string then holds `^`).
    pub points_at: Vec<String>,
}

with_setters!(Request {
    with_entry => entry: Option<String>,
    with_trace => trace: bool,
    with_trips => trips: HashMap<String, trips::Trip>,
    with_units => units: Option<UnitMap>,
    with_arch => arch: Option<String>,
    with_block_threads => block_threads: Option<i64>,
    with_dynamic_shared_memory => dynamic_shared_memory: Option<u64>,
    with_points_at => points_at: Vec<String>,
});

impl Request {
    /// A request for `warps` warps of one block on an SM with `sm`'s unit counts, with
    /// no trip counts, no entry, no unit map of the user's and the file's own
    /// architecture: fill in the other fields as needed.
    pub fn new(warps: i64, sm: SmCounts) -> Request {
        Request {
            entry: None,
            trace: false,
            trips: HashMap::new(),
            units: None,
            arch: None,
            warps,
            sm,
            block_threads: None,
            dynamic_shared_memory: None,
            points_at: Vec::new(),
        }
    }
}

/// Where an imported kernel comes from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Provenance {
    /// The source file.
    pub source: String,
    /// The kernel taken.
    pub entry: String,
    /// `ptx` or `sass`.
    pub format: Format,
    /// The architecture (`sm_62`), as the file or `--arch` states it.
    pub arch: String,
    /// The unit map(s) used.
    pub map: String,
    /// Whether the file was read as an executed path.
    pub trace: bool,
    /// Trip counts used (`LABEL=N`, or `LABEL=N1,N2,...` one per visit).
    pub trips: Vec<String>,
    /// Threads per block, when given.
    pub block_threads: Option<i64>,
    /// Barriers on the path.
    pub barriers: u64,
    /// Instructions on the path per class (`L`, `C`, `none`, `barrier`, `branch`, `exit`).
    pub classes: BTreeMap<String, u64>,
    /// Instructions on the path per map key (the opcode class that classified them).
    pub opcodes: BTreeMap<String, u64>,
    /// What the file states about a block's resources (absent: not stated).
    pub resources: resources::Resources,
}

/// An instance file written by `import`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Imported {
    /// One line for people.
    pub description: String,
    /// The instruction string, `|` at barriers.
    pub kernel: String,
    /// `W`.
    pub warps: i64,
    /// The warps are one block.
    pub warps_per_block: i64,
    /// The SM.
    pub sm: SmCounts,
    /// Where it came from.
    pub provenance: Provenance,
}

/// The kernel a request picks from a file, the unit map it is read with, the
/// architecture and the trip counts keyed as the walk keys them.
struct Prepared<'a> {
    f: &'a listing::Function,
    map: UnitMap,
    arch: Option<String>,
    trips: HashMap<String, trips::Trip>,
}

fn prepare<'a>(listing: &'a Listing, origin: &str, format: Format, req: &Request) -> Result<Prepared<'a>, InputError> {
    let f = entry::pick(listing, req.entry.as_deref(), origin)?;
    if let Some(given) = &req.arch {
        if !arch_number(given).is_some_and(|n| (10..=199).contains(&n)) {
            return Err(InputError::option("arch", given, "not an architecture: write sm_NN, e.g. sm_62 (the TX2) or sm_75"));
        }
        if let Some(stated) = listing.arch.as_ref().filter(|s| *s != given) {
            return Err(InputError::option(
                "arch",
                given,
                format!("{origin} states {stated}: give that architecture, or none (the file's own is used)"),
            ));
        }
    }
    let arch = req.arch.clone().or(listing.arch.clone());
    let map = built_in_map(format, arch.as_deref())?;
    let map = match &req.units {
        Some(user) => map.overridden_by(user.clone()),
        None => map,
    };
    let trips = branches::canonical_trips(f, &req.trips)?;
    Ok(Prepared { f, map, arch, trips })
}

fn read(text: &str, format: Format) -> Listing {
    match format {
        Format::Ptx => ptx::read(text),
        Format::Sass => sass::read(text),
    }
}

/// The kernel's name and every branch on its path that needs a trip count and has none
/// in `req`, each with a proposed count (`branches`).
pub fn list_branches(text: &str, origin: &str, format: Format, req: &Request) -> Result<(String, Vec<branches::Branch>), InputError> {
    let listing = read(text, format);
    let p = prepare(&listing, origin, format, req)?;
    Ok((p.f.name.clone(), branches::unresolved(p.f, &p.map, &p.trips, origin)?))
}

/// After [`import`] refused `err`: when it is the refusal of a branch with no trip count,
/// every branch that needs one ([`list_branches`]), for the refusal to list them all;
/// else `None`.
pub fn branches_after(err: &InputError, text: &str, origin: &str, format: Format, req: &Request) -> Option<Vec<branches::Branch>> {
    flow::is_undecided(err).then(|| list_branches(text, origin, format, req).ok().map(|(_, all)| all)).flatten()
}

/// Reads `text` (the file `origin`) as `format` into an instance.
///
/// A loop needs a trip count ([`Request::with_trips`]); a trace needs none
/// ([`Request::with_trace`]). The result names where every number came from
/// ([`Imported::provenance`]) and becomes an instance file with [`to_toml`].
///
/// ```
/// use gpu_makespan::import::{import, to_toml, Format, Request};
/// use gpu_makespan::{Program, SmCounts};
///
/// let ptx = ".version 6.0\n.target sm_60\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\
///            ld.param.u64 %rd1, [p];\nld.global.f32 %f1, [%rd1];\nbar.sync 0;\nst.global.f32 [%rd1], %f1;\nret;\n}";
/// let imported = import(ptx, "k.ptx", Format::Ptx, &Request::new(4, SmCounts::TX2))?;
/// assert_eq!(imported.kernel.matches('|').count(), 1); // the barrier is kept
/// let program = Program::from_toml(&to_toml(&imported), "k.toml")?;
/// assert_eq!((program.phases.len(), program.warps()), (2, 4));
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn import(text: &str, origin: &str, format: Format, req: &Request) -> Result<Imported, InputError> {
    let listing = read(text, format);
    let Prepared { f, map, arch, trips } = prepare(&listing, origin, format, req)?;
    if let Some(b) = req.block_threads {
        let r = f.resources;
        if let Some(t) = r.required_threads.filter(|&t| t as i64 != b) {
            return Err(InputError::option("block_threads", b, format!("{} requires blocks of {t} threads (.reqntid)", f.name)));
        }
        if let Some(t) = r.max_threads.filter(|&t| (t as i64) < b) {
            return Err(InputError::option("block_threads", b, format!("{} allows at most {t} threads per block (.maxntid)", f.name)));
        }
    }
    let path = flow::walk_pointed(f, &map, (req.trace, &req.points_at), &trips, origin)?;
    if !path.kernel.contains(['L', 'C']) {
        return Err(InputError::new("entry", &f.name, "no instruction of the model on its path"));
    }
    let mut trips: Vec<String> = trips.iter().map(|(k, v)| format!("{k}={v}")).collect();
    trips.sort();
    let arch = arch.unwrap_or_else(|| "unknown".into());
    Ok(Imported {
        description: format!(
            "{} from {origin} ({}, {arch}), imported by makespan import",
            f.name,
            if format == Format::Ptx { "PTX" } else { "SASS" }
        ),
        kernel: path.kernel.clone(),
        warps: req.warps,
        warps_per_block: req.warps,
        sm: req.sm,
        provenance: Provenance {
            source: origin.to_string(),
            entry: f.name.clone(),
            format,
            arch,
            map: map.name.clone(),
            trace: req.trace,
            trips,
            block_threads: req.block_threads,
            barriers: path.classes.get("barrier").copied().unwrap_or(0),
            classes: path.classes,
            opcodes: path.opcodes,
            resources: f.resources.with_launch(req.dynamic_shared_memory),
        },
    })
}

/// `62` of `sm_62` (`sm_90a`: 90).
fn arch_number(arch: &str) -> Option<u32> {
    arch.strip_prefix("sm_").and_then(|d| d.trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse().ok())
}

/// The built-in map of a format and architecture: PTX, SASS of sm_5x/sm_6x, or of sm_7x
/// and later.
fn built_in_map(format: Format, arch: Option<&str>) -> Result<UnitMap, InputError> {
    if format == Format::Ptx {
        return Ok(UnitMap::built_in("ptx"));
    }
    match arch.and_then(arch_number) {
        Some(50..=69) => Ok(UnitMap::built_in("sass-sm6x")),
        Some(70..=99) => Ok(UnitMap::built_in("sass-sm7x")),
        _ => Err(InputError::option(
            "arch",
            arch.unwrap_or(""),
            "SASS maps are shipped for sm_50 to sm_69 and sm_70 to sm_99; name the architecture (sm_NN), and give a unit map for others",
        )),
    }
}

/// The instance file text of `imp` (TOML, with its provenance).
pub fn to_toml(imp: &Imported) -> String {
    toml::to_string(imp).expect("an imported instance serialises")
}
