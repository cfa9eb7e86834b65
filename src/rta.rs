//! Kernel-level response-time analysis of the Jetson TX2 GPU scheduler (the chapter in
//! `shared/seeds/tx2-gpu-rta-chapter.md`, as corrected by the domain notes, section 4).
//!
//! Model: kernels are dispatched FIFO in launch order; only the head kernel's blocks
//! dispatch (rule X1); every block has the same size `b`; the two SMs are pooled into
//! `g_max = b_max / b` block slots. A kernel released at `r_i` dispatches no block
//! before `r_i`. Each block occupies a slot for `C_i`. `f_i` is the finish of its last
//! block and `R_i = f_i - r_i`; the deadline is the period `T_i`. Each kernel is one job.
//!
//! Three computations of the same schedule, tested against each other:
//! [`list_schedule`] (the chapter's Algorithm 2 with the steps its text implies),
//! [`simulate_slots`] (a plain simulation of `g_max` slots, which also gives the
//! block-to-slot timeline), and [`closed_form_equal_c`] (the corrected special case).
//!
//! The core works on [`Task`]s and a [`Platform`] only; reading task-set files is
//! [`crate::taskset`], and computing `C` from instructions is [`crate::wcet`].

use crate::error::{Inconsistency, InputError};
use serde::Serialize;
use std::collections::BTreeMap;

/// One kernel as the analysis sees it (`C` already known).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Task {
    /// Name for reports.
    pub name: String,
    /// `T_i`: period, also the relative deadline.
    pub period: f64,
    /// `C_i`: execution time of one block.
    pub wcet: f64,
    /// `g_i`: number of blocks.
    pub blocks: u64,
    /// `b_i`: threads per block.
    pub threads_per_block: u64,
    /// `r_i`: release time.
    pub release: f64,
    /// Where `C_i` comes from and what it rests on.
    pub wcet_source: String,
}

impl Task {
    /// A task whose `C_i` is given directly.
    pub fn given(name: impl Into<String>, period: f64, wcet: f64, blocks: u64, threads_per_block: u64, release: f64) -> Task {
        Task { name: name.into(), period, wcet, blocks, threads_per_block, release, wcet_source: "given (wcet)".into() }
    }
}

/// The GPU as the pooled model sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Platform {
    /// `b_max`, threads of the pooled SMs.
    pub max_threads: u64,
    /// Resident threads per SM.
    pub sm_threads: u64,
    /// Resident blocks per SM (TX2, compute capability 6.2: 32).
    pub max_blocks_per_sm: u64,
}

impl Platform {
    /// The Jetson TX2: two SMs of 2048 resident threads and 32 resident blocks each.
    pub const TX2: Platform = Platform { max_threads: 4096, sm_threads: 2048, max_blocks_per_sm: 32 };

    /// Number of SMs, `b_max / sm_threads`.
    pub fn sms(&self) -> u64 {
        self.max_threads / self.sm_threads.max(1)
    }

    /// Block slots of one SM for blocks of `b` threads: `min(sm_threads / b,
    /// max_blocks_per_sm)` (threads and resident blocks both limit it).
    pub fn slots_per_sm(&self, b: u64) -> u64 {
        (self.sm_threads / b.max(1)).min(self.max_blocks_per_sm)
    }

    /// `g_max = #SMs * min(sm_threads / b, max_blocks_per_sm)`: with one block size the
    /// SMs' slots are interchangeable, so pooling them is exact. Checks every task and
    /// the pooled model's assumptions (the one place they are checked) and names the
    /// first field that is wrong.
    pub fn g_max(&self, tasks: &[Task]) -> Result<u64, InputError> {
        let b = tasks.first().map(|k| k.threads_per_block).ok_or_else(|| InputError::new("kernels", "[]", "the task set has no kernels"))?;
        for (i, k) in tasks.iter().enumerate() {
            let field = |f: &str| format!("kernels[{i}].{f}");
            if k.threads_per_block != b {
                return Err(InputError::new(
                    field("threads_per_block"),
                    k.threads_per_block,
                    format!("differs from the first kernel's {b}: the pooled-SM model needs one block size for all kernels"),
                ));
            }
            if !(k.period > 0.0 && k.period.is_finite()) {
                return Err(InputError::new(field("period"), k.period, "must be positive"));
            }
            if !(k.wcet > 0.0 && k.wcet.is_finite()) {
                return Err(InputError::new(field("wcet"), k.wcet, "must be positive"));
            }
            if k.blocks == 0 {
                return Err(InputError::new(field("blocks"), 0, "a kernel has at least one block"));
            }
            if !(k.release >= 0.0 && k.release.is_finite()) {
                return Err(InputError::new(field("release"), k.release, "must be zero or positive"));
            }
        }
        if b == 0 || b > 1024 {
            return Err(InputError::new("kernels[0].threads_per_block", b, "must be from 1 to 1024 threads"));
        }
        let sm = self.sm_threads;
        if !sm.is_multiple_of(b) {
            return Err(InputError::new("kernels[0].threads_per_block", b, format!("does not divide the {sm} threads of one SM")));
        }
        if self.max_threads == 0 || !self.max_threads.is_multiple_of(sm) {
            return Err(InputError::new("gpu.max_threads", self.max_threads, format!("must be a positive multiple of gpu.sm_threads = {sm}")));
        }
        if self.max_blocks_per_sm == 0 {
            return Err(InputError::new("gpu.max_blocks_per_sm", 0, "must be positive"));
        }
        Ok(self.sms() * self.slots_per_sm(b))
    }
}

/// One block in the slot timeline.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BlockRun {
    /// Index of the kernel in launch order.
    pub kernel: usize,
    /// Slot (0-based, `< g_max`).
    pub slot: usize,
    /// Dispatch time.
    pub start: f64,
    /// `start + C`.
    pub end: f64,
}

/// The chapter's Algorithm 2, with the steps its text and example rely on: the pair
/// taken by `min(h)` is removed from `h`, pairs at equal times merge, no `(t, 0)`
/// pairs, and (added) a kernel does not dispatch before its release.
/// `h` maps a time to the number of slots that become free then.
/// Returns `f_i`, the finish of each task's last block, in launch order.
pub fn list_schedule(tasks: &[Task], g_max: u64) -> Vec<f64> {
    let mut h: BTreeMap<OrdF64, u64> = BTreeMap::new();
    let (mut t_a, mut g_f) = (0.0f64, g_max);
    let mut out = Vec::with_capacity(tasks.len());
    for k in tasks {
        if k.release > t_a {
            t_a = k.release;
            // Slots freed up to the release are free at t_a.
            while let Some((&t, &n)) = h.iter().next() {
                if t.0 > t_a {
                    break;
                }
                h.remove(&t);
                g_f += n;
            }
        }
        let mut left = k.blocks;
        loop {
            if g_f == 0 {
                let (t, n) = h.pop_first().expect("occupied slots are tracked in h");
                t_a = t_a.max(t.0);
                g_f = n;
            }
            let now = left.min(g_f);
            *h.entry(OrdF64(t_a + k.wcet)).or_default() += now;
            g_f -= now;
            left -= now;
            if left == 0 {
                out.push(t_a + k.wcet);
                break;
            }
        }
    }
    out
}

/// A plain simulation of `g_max` slots: each block, in FIFO order, takes the slot that
/// frees earliest, not before its kernel's release nor before the previous block's
/// dispatch. Returns `f_i` per task and the block timeline.
pub fn simulate_slots(tasks: &[Task], g_max: u64) -> (Vec<f64>, Vec<BlockRun>) {
    let mut free = vec![0.0f64; g_max as usize];
    let mut runs = Vec::new();
    let mut out = Vec::with_capacity(tasks.len());
    let mut last_dispatch = 0.0f64;
    for (ki, k) in tasks.iter().enumerate() {
        let mut finish = 0.0f64;
        for _ in 0..k.blocks {
            let (slot, &t_free) = free.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).expect("g_max >= 1");
            let start = t_free.max(k.release).max(last_dispatch);
            let end = start + k.wcet;
            free[slot] = end;
            last_dispatch = start;
            finish = finish.max(end);
            runs.push(BlockRun { kernel: ki, slot, start, end });
        }
        out.push(finish);
    }
    (out, runs)
}

/// The chapter's special case (all kernels released at 0 with the same `C`), corrected:
/// `g_i <= g_f`: `f_i = t_a + C`; otherwise `f_i = t_a + C (1 + ceil((g_i - g_f)/g_max))`.
/// Returns `f_i` for each kernel's block count in `blocks`.
pub fn closed_form_equal_c(blocks: &[u64], g_max: u64, c: f64) -> Vec<f64> {
    let (mut t_a, mut g_f) = (0.0f64, g_max);
    let mut out = Vec::with_capacity(blocks.len());
    for &g in blocks {
        if g <= g_f {
            out.push(t_a + c);
            g_f -= g;
        } else {
            let waves = (g - g_f).div_ceil(g_max);
            out.push(t_a + c * (1 + waves) as f64);
            t_a += c * waves as f64;
            g_f = waves * g_max - (g - g_f);
        }
        if g_f == 0 {
            t_a += c;
            g_f = g_max;
        }
    }
    out
}

/// Total utilisation as a fraction of the GPU's thread capacity:
/// `sum_i C_i g_i b_i / (T_i b_max)` (the chapter's `u_i` divided by `b_max`).
pub fn utilization(tasks: &[Task], max_threads: u64) -> f64 {
    tasks.iter().map(|k| k.wcet * (k.blocks * k.threads_per_block) as f64 / (k.period * max_threads as f64)).sum()
}

/// One row of the RTA report (`--json`: `kernels[]`): the task and its result.
#[derive(Debug, Clone, Serialize)]
pub struct KernelRow {
    /// Name.
    pub name: String,
    /// `f_i`.
    pub finish: f64,
    /// `R_i = f_i - r_i`.
    pub response: f64,
    /// `T_i`.
    pub deadline: f64,
    /// `R_i <= T_i`.
    pub schedulable: bool,
    /// `r_i`.
    pub release: f64,
    /// `C_i` used.
    pub wcet: f64,
    /// Where `C_i` comes from and what it assumes.
    pub wcet_source: String,
    /// `g_i`.
    pub blocks: u64,
    /// `b_i`.
    pub threads_per_block: u64,
}

impl KernelRow {
    /// The row of `task` finishing at `finish`.
    pub fn new(task: &Task, finish: f64) -> KernelRow {
        let response = finish - task.release;
        KernelRow {
            name: task.name.clone(),
            finish,
            response,
            deadline: task.period,
            schedulable: response <= task.period,
            release: task.release,
            wcet: task.wcet,
            wcet_source: task.wcet_source.clone(),
            blocks: task.blocks,
            threads_per_block: task.threads_per_block,
        }
    }
}

/// The whole RTA result (`makespan rta --json`).
#[derive(Debug, Clone, Serialize)]
pub struct RtaReport {
    /// Per kernel, in launch order.
    pub kernels: Vec<KernelRow>,
    /// Every kernel meets its deadline.
    pub schedulable: bool,
    /// Block slots of the pooled SMs.
    pub g_max: u64,
    /// `sum C_i g_i b_i / (T_i b_max)`.
    pub utilization: f64,
    /// What the analysis assumes.
    pub assumptions: Vec<String>,
    /// The block timeline (not serialised).
    #[serde(skip)]
    pub runs: Vec<BlockRun>,
}

/// The indices of `tasks` in launch order: on the GPU a kernel released earlier
/// launches first, whatever order a file lists them in (stable on equal release times).
pub fn launch_order(tasks: &[Task]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by(|&a, &b| tasks[a].release.total_cmp(&tasks[b].release));
    order
}

/// Runs the analysis of `tasks` on `platform`, in launch order ([`launch_order`]:
/// by release time; a note says so when the given order differs). The list schedule
/// and the slot simulation must agree (they are independent computations of the same
/// schedule), else [`Inconsistency::Disagreement`].
pub fn analyse(given: &[Task], platform: &Platform) -> Result<RtaReport, crate::error::Error> {
    let g = platform.g_max(given)?;
    let order = launch_order(given);
    let tasks: &[Task] = &order.iter().map(|&i| given[i].clone()).collect::<Vec<_>>();
    let finishes = list_schedule(tasks, g);
    let (simulated, runs) = simulate_slots(tasks, g);
    if simulated != finishes {
        return Err(Inconsistency::Disagreement("Algorithm 2 and the slot simulation differ".into()).into());
    }
    let kernels: Vec<KernelRow> = tasks.iter().zip(finishes).map(|(t, f)| KernelRow::new(t, f)).collect();
    Ok(RtaReport {
        schedulable: kernels.iter().all(|k| k.schedulable),
        kernels,
        g_max: g,
        utilization: utilization(tasks, platform.max_threads),
        assumptions: assumptions(&order, tasks, platform, g),
        runs,
    })
}

fn assumptions(order: &[usize], tasks: &[Task], platform: &Platform, g: u64) -> Vec<String> {
    let b = tasks[0].threads_per_block;
    let mut out = vec![
        format!(
            "FIFO dispatch in launch order, only the head kernel's blocks (rule X1); {g} block slots = {} SMs x min({} threads / {b} threads per block, {} resident blocks), the SMs pooled",
            platform.sms(),
            platform.sm_threads,
            platform.max_blocks_per_sm
        ),
        "each kernel is one job released at its release time; deadline = period".into(),
        "C_i is the time one block occupies its slot; see wcet_source for what it rests on".into(),
    ];
    if order.iter().enumerate().any(|(k, &i)| k != i) {
        let order: Vec<&str> = tasks.iter().map(|t| t.name.as_str()).collect();
        out.push(format!("kernels analysed in release order (launch order on the GPU), not in the order given: {}", order.join(", ")));
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
struct OrdF64(f64);
impl Eq for OrdF64 {}
#[allow(clippy::derive_ord_xor_partial_ord)]
impl Ord for OrdF64 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn chapter_example() -> Vec<Task> {
        [(4.0, 2), (6.0, 7), (6.0, 2), (5.0, 5)].iter().enumerate().map(|(i, &(c, g))| Task::given(format!("K{}", i + 1), 15.0, c, g, 512, 0.0)).collect()
    }

    #[test]
    fn chapter_worked_example() {
        let ks = chapter_example();
        let rep = analyse(&ks, &Platform::TX2).unwrap();
        assert_eq!(rep.g_max, 8);
        let f: Vec<f64> = rep.kernels.iter().map(|r| r.finish).collect();
        assert_eq!(f, vec![4.0, 10.0, 12.0, 11.0]);
        assert!(rep.schedulable);
    }

    #[test]
    fn closed_form_edge_cases_of_the_chapter() {
        // g_i = g_f (the chapter's sgn(0) gives alpha = 1/2) and g_i - g_f = g_max.
        assert_eq!(closed_form_equal_c(&[8, 8], 8, 3.0), vec![3.0, 6.0]);
        assert_eq!(closed_form_equal_c(&[2, 14, 1], 8, 3.0), vec![3.0, 6.0, 9.0]);
        assert_eq!(closed_form_equal_c(&[2, 22, 1], 8, 1.0), vec![1.0, 3.0, 4.0]);
    }

    #[test]
    fn release_delays_dispatch() {
        let mut ks = chapter_example();
        ks[1].release = 20.0;
        let rep = analyse(&ks, &Platform::TX2).unwrap();
        let k2 = rep.kernels.iter().find(|k| k.name == "K2").unwrap();
        assert_eq!(k2.finish, 26.0);
        assert_eq!(k2.response, 6.0);
    }

    #[test]
    fn resident_block_limit_caps_the_slots() {
        // 100 blocks of 32 threads: 2 SMs x min(2048/32, 32) = 64 slots, so two waves.
        let ks = vec![Task::given("K", 10.0, 1.0, 100, 32, 0.0)];
        let rep = analyse(&ks, &Platform::TX2).unwrap();
        assert_eq!(rep.g_max, 64);
        assert_eq!(rep.kernels[0].finish, 2.0);
    }

    #[test]
    fn kernels_launch_in_release_order() {
        // A (2 blocks, released at 0.5) listed before B (8 blocks, released at 0): B
        // launches first and fills the 8 slots until 1, so A finishes at 2.
        let ks = vec![Task::given("A", 10.0, 1.0, 2, 512, 0.5), Task::given("B", 10.0, 1.0, 8, 512, 0.0)];
        let rep = analyse(&ks, &Platform::TX2).unwrap();
        let a = rep.kernels.iter().find(|k| k.name == "A").unwrap();
        assert_eq!(a.response, 1.5);
        assert_eq!(rep.kernels[0].name, "B");
        assert!(rep.assumptions.iter().any(|n| n.contains("release order")));
    }

    #[test]
    fn refuses_mixed_block_sizes() {
        let mut ks = chapter_example();
        ks[2].threads_per_block = 256;
        let e = Platform::TX2.g_max(&ks).unwrap_err();
        assert_eq!(e.field, "kernels[2].threads_per_block");
    }
}
