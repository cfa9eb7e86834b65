//! Kernels with block barriers (`__syncthreads()`): phases separated by `|` in the
//! instruction string, e.g. `LLC|CCL`. Each phase is an [`Instance`] with the kernel's `W`
//! and SM.
//!
//! **One block: `T^(W) = sum_k T_k^(W)`.** When the `W` warps are one thread block, no
//! warp issues an instruction of phase `k + 1` before every warp has issued all of phase
//! `k` (the barrier itself takes no cycle in this model). Let `M_k` be the cycle of the
//! last issue of phase `k` in some work-conserving schedule. At cycle `M_k + 1` every warp
//! is ready for the first instruction of phase `k + 1` and nothing else is pending, which
//! is the start state of phase `k + 1` alone; from there until `M_(k+1)` the schedule is
//! a work-conserving schedule of phase `k + 1` shifted by `M_k` (warps at the barrier
//! are not ready, so they never make a unit's idleness a violation). So every schedule
//! of the kernel is a concatenation of schedules of its phases and lasts at most
//! `sum_k T_k`; concatenating a worst schedule of each phase is a schedule of the kernel
//! (each piece is work-conserving and starts when the previous ends), so the sum is
//! attained. Lower and upper bounds of the phases therefore add up.
//!
//! **Several blocks** (`warps_per_block < W`): a barrier holds only the warps of its own
//! block, so warps of other blocks keep the units busy across it and the sum above is
//! neither a lower nor an upper bound in general. Such instances are refused.

use crate::error::InputError;
use crate::model::instance::{Instance, InstanceFile};

/// A kernel with barriers as phases of one thread block. Guaranteed: at least one phase;
/// every phase has the same `W` and sigmas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The phases, in order.
    pub phases: Vec<Instance>,
    /// The instruction string as given, with its barriers.
    pub source_kernel: String,
}

/// The phases of an instruction string: the text between barriers (`|`), without empty
/// ones (a barrier at the start, at the end or twice in a row waits for nothing).
pub fn phase_texts(kernel: &str) -> Vec<&str> {
    kernel.split('|').filter(|p| p.chars().any(|c| !c.is_whitespace() && c != '_')).collect()
}

impl Program {
    /// Builds the phases with `build` (the kernel's way of making an instance: its SM
    /// and `W`), one per barrier-free part of `kernel`.
    pub fn build(kernel: &str, build: impl Fn(&str) -> Result<Instance, InputError>) -> Result<Program, InputError> {
        let texts = phase_texts(kernel);
        if texts.is_empty() {
            return Err(InputError::new("kernel", format!("{kernel:?}"), "the instruction string is empty"));
        }
        let phases = texts.into_iter().map(build).collect::<Result<Vec<_>, _>>()?;
        Ok(Program { phases, source_kernel: kernel.trim().to_string() })
    }

    /// A program from an instance file: its phases, refused when its warps come from
    /// several blocks and the kernel has barriers.
    pub fn from_file_data(f: &InstanceFile) -> Result<Program, InputError> {
        let barriers = f.kernel.contains('|');
        crate::model::instance::check_warps(f.warps, "warps")?;
        if let Some(per_block) = f.warps_per_block {
            if per_block < 1 || per_block > f.warps {
                return Err(InputError::new("warps_per_block", per_block, format!("must be from 1 to warps = {}", f.warps)));
            }
            if barriers && per_block < f.warps {
                return Err(several_blocks(f.warps, per_block));
            }
        }
        Program::build(&f.kernel, |phase| Instance::from_file_data(&InstanceFile { kernel: phase.to_string(), ..f.clone() }))
    }

    /// Parses TOML text (the content of an instance file named `origin`) into a program,
    /// with the checks of [`Program::from_file_data`].
    pub fn from_toml(text: &str, origin: &str) -> Result<Program, InputError> {
        Program::from_file_data(&crate::files::parse_toml(text, origin)?)
    }

    /// The distinct phases (equal ones once, in first-seen order) and, per phase, the
    /// index of its distinct phase: what depends on a phase alone is computed once.
    pub fn distinct(&self) -> (Vec<&Instance>, Vec<usize>) {
        let mut distinct: Vec<&Instance> = Vec::new();
        let index = self
            .phases
            .iter()
            .map(|inst| match distinct.iter().position(|d| *d == inst) {
                Some(i) => i,
                None => {
                    distinct.push(inst);
                    distinct.len() - 1
                }
            })
            .collect();
        (distinct, index)
    }

    /// The instruction index (all phases, after the transformation) at which each phase
    /// ends, in order: phase `k` is `ends[k - 1]..ends[k]` (from 0 for the first).
    pub fn phase_ends(&self) -> Vec<usize> {
        self.phases.iter().scan(0, |at, p| Some(*at + p.len()).inspect(|e| *at = *e)).collect()
    }

    /// `I_X`: instructions of unit `u` per warp, all phases.
    pub fn count(&self, u: crate::model::kernel::Unit) -> u64 {
        self.phases.iter().map(|p| p.kernel.count(u) as u64).sum()
    }

    /// Whether the kernel has barriers (more than one phase).
    pub fn has_barriers(&self) -> bool {
        self.phases.len() > 1
    }

    /// `(copies_L, copies_C)` of the sigma = 1/n transformation (the same in every phase).
    pub fn copies(&self) -> (u32, u32) {
        (self.phases[0].copies_l, self.phases[0].copies_c)
    }

    /// The unit of every instruction of a warp, all phases in order.
    pub(crate) fn units(&self) -> Vec<crate::model::kernel::Unit> {
        self.phases.iter().flat_map(|p| p.kernel.units().iter().copied()).collect()
    }

    /// `W`.
    pub fn warps(&self) -> u32 {
        self.phases[0].warps
    }

    /// The same program with `W` warps (one block).
    pub fn with_warps(&self, warps: u32) -> Program {
        Program { phases: self.phases.iter().map(|p| p.with_warps(warps)).collect(), source_kernel: self.source_kernel.clone() }
    }

    /// Instructions per warp after the transformation, all phases.
    pub fn len(&self) -> usize {
        self.phases.iter().map(Instance::len).sum()
    }

    /// Always false: a program has at least one non-empty phase.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The transformed kernel with its barriers (`LLC|CCL`).
    pub fn kernel(&self) -> String {
        self.phases.iter().map(|p| p.kernel.to_string()).collect::<Vec<_>>().join("|")
    }

    /// The only phase, or an input error on `kernel` (it has barriers: an
    /// [`Instance`] cannot hold it; [`crate::exact::phases::solve_phases`] takes the program).
    pub fn single(self) -> Result<Instance, InputError> {
        if self.has_barriers() {
            return Err(InputError::new(
                "kernel",
                format!("{:?}", crate::error::shorten(&self.source_kernel)),
                format!(
                    "has {} (|); {}",
                    crate::error::plural(self.phases.len() as u64 - 1, "barrier"),
                    crate::model::kernel::BARRIER_FREE
                ),
            ));
        }
        Ok(self.phases.into_iter().next().expect("at least one phase"))
    }
}

/// The refusal of barriers across several co-resident blocks.
pub fn several_blocks(warps: i64, per_block: i64) -> InputError {
    InputError::new(
        "warps_per_block",
        per_block,
        format!(
            "the {warps} warps come from several blocks, and a barrier holds only the warps of its own block: no proven bound for that case; analyse one block (warps = warps_per_block) or a barrier-free kernel"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_split_at_barriers() {
        assert_eq!(phase_texts("LLC|CCL"), vec!["LLC", "CCL"]);
        assert_eq!(phase_texts("|LLC||C|"), vec!["LLC", "C"]);
        let p = Program::build("LC|C", |k| Instance::new(k, 3, 1, 1)).unwrap();
        assert_eq!(p.phases.len(), 2);
        assert_eq!(p.kernel(), "LC|C");
        let refusal = p.clone().single().unwrap_err().reason;
        assert!(refusal.contains("barrier") && refusal.contains("Program") && !refusal.contains("command"), "{refusal}");
        assert!(Program::build("||", |k| Instance::new(k, 3, 1, 1)).is_err());
    }
}
