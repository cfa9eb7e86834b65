//! Where an instance comes from, as a user gives it ([`InstanceSource`]): a file, or an
//! instruction string with a warp count and sigmas; loaded as one [`Instance`] or, for
//! kernels with barriers, as a [`Program`] of phases.

use crate::error::InputError;
use crate::files::{origin, parse_toml, read_text};
use crate::model::blocks::Blocks;
use crate::model::instance::{check_warps, Instance, InstanceFile};
use crate::model::latency::Latencies;
use crate::model::program::Program;
use crate::model::scheduler::Scheduler;

/// Where an instance comes from, as a user gives it: a file (with an optional warp
/// count overriding the file's), or an instruction string with `W` and integral sigmas.
#[derive(Debug, Clone, Default)]
pub struct InstanceSource {
    /// Instance file.
    pub file: Option<std::path::PathBuf>,
    /// Instruction string (instead of a file).
    pub kernel: Option<String>,
    /// `W` (required with `kernel`; overrides the file's).
    pub warps: Option<i64>,
    /// sigma_L (only with `kernel`; default 1).
    pub sigma_l: Option<i64>,
    /// sigma_C (only with `kernel`; default 1).
    pub sigma_c: Option<i64>,
    /// Warps per block `W` when the warps are several blocks (overrides the file's
    /// `warps_per_block`; only [`InstanceSource::load_blocks`] takes it).
    pub warps_per_block: Option<i64>,
}

impl InstanceSource {
    /// Builds the instance, naming the command-line field that is wrong. A warp count
    /// given with a file keeps the file's kernel as given (its provenance).
    pub fn load(&self) -> Result<Instance, InputError> {
        self.no_blocks()?;
        match (&self.file, &self.kernel) {
            (Some(_), Some(k)) => Err(InputError::option("kernel", k, "give either an instance file or a kernel string, not both")),
            (Some(path), None) => {
                // The file first: a missing one (an instruction string given without
                // `kernel`, say) is the error to report, not the sigma beside it.
                let inst = Instance::from_path(path)?;
                let given = [("sigma_l", self.sigma_l), ("sigma_c", self.sigma_c)].into_iter().find_map(|(f, v)| v.map(|v| (f, v)));
                if let Some((field, v)) = given {
                    return Err(InputError::option(field, v, "the SM comes from the file; edit the file instead"));
                }
                match self.warps {
                    Some(w) => inst.with_warp_count(w, "warps").map_err(InputError::as_option),
                    None => Ok(inst),
                }
            }
            (None, Some(k)) => {
                let w = self.warps.ok_or_else(|| InputError::option("warps", "", "a kernel string needs a warp count"))?;
                Instance::new(k, w, self.sigma_l.unwrap_or(1), self.sigma_c.unwrap_or(1))
            }
            (None, None) => Err(InputError::new("FILE", "", "give an instance file, or a kernel string and a warp count")),
        }
    }

    /// [`InstanceSource::load`] for kernels that may have barriers (`|`): the phases
    /// ([`Program`]). A warp count given with a file makes the warps one block.
    pub fn load_program(&self) -> Result<Program, InputError> {
        self.no_blocks()?;
        match (&self.file, &self.kernel) {
            (Some(path), None) if self.sigma_l.or(self.sigma_c).is_none() => Program::from_file_data(&self.file_data(path)?),
            (None, Some(k)) if self.warps.is_some() => {
                let w = self.warps.unwrap_or(1);
                one_block_fits(w, k)?;
                Program::build(k, |phase| Instance::new(phase, w, self.sigma_l.unwrap_or(1), self.sigma_c.unwrap_or(1)))
            }
            _ => self.load().map(Program::from),
        }
    }

    /// The file's data, with the warp count given beside it: the warps of one block stay
    /// one block; the warps of a file of several blocks stay blocks of its size.
    fn file_data(&self, path: &std::path::Path) -> Result<InstanceFile, InputError> {
        let mut f: InstanceFile = parse_toml(&read_text(path)?, &origin(path))?;
        if let Some(w) = self.warps {
            check_warps(w, "warps").map_err(InputError::as_option)?;
            let several = f.warps_per_block.is_some_and(|b| b < f.warps);
            if !several && self.warps_per_block.is_none() {
                one_block_fits(w, &f.kernel)?;
            }
            (f.warps, f.warps_per_block) = (w, f.warps_per_block.filter(|_| several));
        }
        Ok(f)
    }

    fn no_blocks(&self) -> Result<(), InputError> {
        match self.warps_per_block {
            Some(w) => Err(InputError::option("warps_per_block", w, "only solve and bound analyse several blocks")),
            None => Ok(()),
        }
    }

    /// [`InstanceSource::load_program`] for warps that may be several blocks with
    /// barriers ([`Blocks`]): `warps` = `B W` and `warps_per_block` = `W`, from the file
    /// or the command line (a warp count given with a file and no `warps_per_block`
    /// makes the warps one block, as in `load_program`).
    pub fn load_blocks(&self) -> Result<Blocks, InputError> {
        self.load_blocks_with(|_| Ok(()))
    }

    /// [`InstanceSource::load_blocks`] with the file's latencies (latency 1 for a kernel
    /// string or a file without them) and the scheduler it names (`None`: none named),
    /// for a simulation.
    pub fn load_simulation(&self) -> Result<(Blocks, Latencies, Option<Scheduler>), InputError> {
        let mut model = (Latencies::ONE, None);
        let blocks = self.load_blocks_with(|f| {
            let (latency, scheduler) = f.warp_model()?;
            model = (latency, f.scheduler.is_some().then_some(scheduler));
            (f.latency, f.scheduler) = (None, None);
            Ok(())
        })?;
        Ok((blocks, model.0, model.1))
    }

    /// [`InstanceSource::load_blocks`], with `file` applied to the file's data first.
    fn load_blocks_with(&self, mut file: impl FnMut(&mut InstanceFile) -> Result<(), InputError>) -> Result<Blocks, InputError> {
        let plain = InstanceSource { warps_per_block: None, ..self.clone() };
        match (&self.file, &self.kernel) {
            (Some(path), None) if self.sigma_l.or(self.sigma_c).is_none() => {
                let mut f = self.file_data(path)?;
                file(&mut f)?;
                if let Some(w) = self.warps_per_block {
                    f.warps_per_block = Some(w);
                }
                Blocks::from_file_data(&f).map_err(|e| if self.warps_per_block.is_some() { e.as_option() } else { e })
            }
            (None, Some(k)) if self.warps.is_some() && self.warps_per_block.is_some() => {
                let w = self.warps.unwrap_or(1);
                check_warps(w, "warps").map_err(InputError::as_option)?;
                let f = InstanceFile {
                    kernel: k.clone(),
                    warps: w,
                    sm: None,
                    sigma_l: Some(self.sigma_l.unwrap_or(1)),
                    sigma_c: Some(self.sigma_c.unwrap_or(1)),
                    description: None,
                    warps_per_block: self.warps_per_block,
                    provenance: None,
                    latency: None,
                    scheduler: None,
                };
                Blocks::from_file_data(&f).map_err(|e| if e.field.starts_with("warps") { e.as_option() } else { e })
            }
            _ => plain.load_program().map(|p| Blocks::new(p, 1)),
        }
    }
}

/// The most warps one thread block has: 1024 threads (CUDA's limit on every compute
/// capability) of 32.
pub const MAX_WARPS_PER_BLOCK: i64 = 32;

/// Refuses `--warps w` making one block with barriers of more warps than a block can
/// have: a barrier holds only its own block's warps, so the warps must be split into
/// blocks, and only the user knows how (`--warps-per-block`). Without barriers the
/// blocks do not matter (`T^(w)` counts every warp alike) and any count is taken.
fn one_block_fits(w: i64, kernel: &str) -> Result<(), InputError> {
    if w > MAX_WARPS_PER_BLOCK && kernel.contains('|') {
        return Err(InputError::option(
            "warps",
            w,
            format!(
                "a block has at most {MAX_WARPS_PER_BLOCK} warps (1024 threads) and this kernel has barriers, which hold one block's warps: say how many warps a block has (warps_per_block)"
            ),
        ));
    }
    Ok(())
}
