//! The `bound` command's report: the closed forms of [`crate::model::bounds`] beside the
//! per-state bounds at the start state.

use super::StateBound;
use crate::model::bounds::{lower_bound, pessimistic, pessimistic_unproven, safe_horizon};
use crate::model::instance::Instance;
use crate::model::interval::Interval;

/// The `bound --json` object: `pessimistic` (eq. 5), `safe_horizon`, and more.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct BoundsReport {
    /// Instruction string after the transformation.
    pub kernel: String,
    /// `W`.
    pub warps: u32,
    /// sigma_L after the transformation.
    pub sigma_l: u32,
    /// sigma_C after the transformation.
    pub sigma_c: u32,
    /// The paper's eq. 5.
    pub pessimistic: u64,
    /// Whether eq. 5 is proven to be an upper bound for this instance.
    pub pessimistic_is_proven: bool,
    /// The proven safe horizon.
    pub safe_horizon: u64,
    /// A proven lower bound.
    pub lower_bound: u64,
    /// The exact search's per-state bounds (per-warp, queue, tail, stretch, period, clipped, last-warp; see
    /// `crate::state_bounds`) at the start state, capped by the safe horizon: a proven
    /// upper bound, often well below the safe horizon.
    /// (0 when read back from a record written before this field existed.)
    #[serde(default)]
    pub start_state_bound: u64,
    /// `[lower_bound, start_state_bound]` as one object (`lower`, `upper`, `exact`): the
    /// proven interval on `T^(W)` without a search; absent in records written before it
    /// existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
}

/// The minimum of the safe horizon and the search's standard per-state bound at the
/// start state. Proven: each of the two is (proofs in [`safe_horizon`] and in the files
/// of `crate::state_bounds`).
///
/// ```
/// use gpu_makespan::{bounds::start_state_bound, safe_horizon, Instance};
///
/// let inst = Instance::new("LCLCCL", 8, 1, 1)?;
/// assert!(start_state_bound(&inst) <= safe_horizon(&inst));
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn start_state_bound(inst: &Instance) -> u64 {
    start_state_bound_until(inst, &crate::budget::Budget::default())
}

/// [`start_state_bound`] with the per-state bounds built within `budget`
/// ([`super::standard_until`]): the same value unless `budget` ran out while they were
/// built (then a weaker one, still proven).
pub fn start_state_bound_until(inst: &Instance, budget: &crate::budget::Budget) -> u64 {
    let start = crate::state::Counts::start(inst.warps);
    super::standard_until(inst, budget).upper(&start).min(safe_horizon(inst))
}

impl BoundsReport {
    /// All closed-form bounds of `inst`. Panics only if two proven bounds contradict
    /// each other (the closed-form lower bound above the start-state bound), a bug.
    ///
    /// ```
    /// let inst = gpu_makespan::Instance::new("LLC", 4, 1, 1)?;
    /// let report = gpu_makespan::BoundsReport::of(&inst);
    /// assert!(report.lower_bound <= 9 && 9 <= report.start_state_bound);
    /// let json = serde_json::to_value(&report).unwrap(); // every report serialises
    /// assert_eq!(json["safe_horizon"], 12);
    /// # Ok::<(), gpu_makespan::Error>(())
    /// ```
    pub fn of(inst: &Instance) -> BoundsReport {
        let (lower, upper) = (lower_bound(inst), start_state_bound(inst));
        let interval = Interval::new(lower, upper)
            .unwrap_or_else(|| panic!("proven bounds contradict: lower bound {lower} above the start-state bound {upper}"));
        BoundsReport {
            kernel: inst.kernel.to_string(),
            warps: inst.warps,
            sigma_l: inst.sigma_l,
            sigma_c: inst.sigma_c,
            pessimistic: pessimistic(inst),
            pessimistic_is_proven: !pessimistic_unproven(inst),
            safe_horizon: safe_horizon(inst),
            lower_bound: lower,
            start_state_bound: upper,
            interval: Some(interval),
        }
    }
}

/// `bound --json` of a kernel with barriers: each phase's report and the sums (proven for
/// one thread block, see `crate::model::program`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct PhasedBounds {
    /// The kernel as given, with its barriers.
    pub source_kernel: String,
    /// Barriers.
    pub barriers: usize,
    /// Sum of the phases' safe horizons: a proven upper bound.
    pub safe_horizon: u64,
    /// Sum of the phases' start-state bounds: a proven upper bound.
    pub start_state_bound: u64,
    /// Sum of the phases' lower bounds: a proven lower bound.
    pub lower_bound: u64,
    /// `[lower_bound, start_state_bound]` as one object (`lower`, `upper`, `exact`)
    /// (left out only if the phases' reports contradict each other).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// Per phase.
    pub phases: Vec<BoundsReport>,
}

impl PhasedBounds {
    /// The sums of `phases`.
    pub fn of(source_kernel: &str, phases: Vec<BoundsReport>) -> PhasedBounds {
        PhasedBounds {
            source_kernel: source_kernel.to_string(),
            barriers: phases.len().saturating_sub(1),
            safe_horizon: phases.iter().map(|r| r.safe_horizon).sum(),
            start_state_bound: phases.iter().map(|r| r.start_state_bound).sum(),
            lower_bound: phases.iter().map(|r| r.lower_bound).sum(),
            interval: Interval::new(phases.iter().map(|r| r.lower_bound).sum(), phases.iter().map(|r| r.start_state_bound).sum()),
            phases,
        }
    }
    /// The bounds of a kernel with barriers: each phase's [`BoundsReport`] and the sums
    /// (proven for one thread block: the phases' worst cases add up).
    ///
    /// ```
    /// use gpu_makespan::{bounds::PhasedBounds, Instance, Program};
    ///
    /// let p = Program::build("LL|C", |phase| Instance::new(phase, 2, 1, 1))?;
    /// let b = PhasedBounds::of_program(&p);
    /// assert_eq!((b.barriers, b.lower_bound), (1, 6)); // 4 loads, then 2 computations
    /// assert!(b.start_state_bound >= 6);
    /// # Ok::<(), gpu_makespan::Error>(())
    /// ```
    pub fn of_program(p: &crate::model::program::Program) -> PhasedBounds {
        PhasedBounds::of(&p.source_kernel, p.phases.iter().map(BoundsReport::of).collect())
    }
}
