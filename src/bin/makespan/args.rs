//! The command line as clap sees it: every subcommand, flag and default. Parsed once
//! here; `options.rs` turns it into library options.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use gpu_makespan::ConstraintForm;
use gpu_makespan::{Horizon, Method};
use std::path::PathBuf;

/// The version and the git revision the binary was built from.
pub(crate) const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (git ", env!("MAKESPAN_GIT_REVISION"), ")");

/// Most worker threads `--threads` accepts.
pub(crate) const MAX_THREADS: i64 = 256;

#[derive(Parser)]
#[command(name = "makespan", version = VERSION, about = "Worst-case makespan of GPU warps on one SM, proven bounds, and TX2 response-time analysis")]
pub(crate) struct Cli {
    /// No progress bars and no notes on standard error (errors are still printed).
    #[arg(long, short, global = true)]
    pub(crate) quiet: bool,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Print the paper's pessimistic bound (eq. 5), the proven safe horizon and a lower bound.
    Bound(BoundArgs),
    /// Compute the exact worst-case makespan T^(W) and a worst-case schedule.
    Solve(SolveArgs),
    /// A warp scheduler (gto, lrr, oldest-first) with instruction latencies: one exact
    /// run, re-checked; with `any` or latency ranges, the worst case as a proven interval.
    Simulate(SimulateArgs),
    /// The paper's estimate min_y ceil(W/y) T^(y) (eqs. 42-43), with a proven bound beside it.
    Approx(ApproxArgs),
    /// Convergence of T^(W,x) and T_approx(x) with x (paper Figs. 6-7), as CSV and SVG.
    Converge(ConvergeArgs),
    /// ILP solve time of the short vs long constraint forms as W grows (paper Fig. 5).
    CompareConstraints(CompareArgs),
    /// Kernel-level response-time analysis of the Jetson TX2 GPU scheduler for a task set
    /// (TOML) or a cuda_scheduling_examiner config (JSON).
    #[command(after_long_help = RTA_LEGEND)]
    Rta(RtaArgs),
    /// The preemption-point framework (UNAM thesis design): kernels stop at preemption
    /// points (`^` in instruction strings, or `segments`) when their quantum expires;
    /// proven responses under fixed priority ranks (given, rate- or deadline-monotonic,
    /// Audsley). The task set needs a `[framework]` table.
    Preempt(PreemptArgs),
    /// CPU-GPU system analysis of an AMALTHEA model (.amxmi) or its TOML form: response
    /// times per core (fixed priority), GPU tasks through the kernel-level RTA, and
    /// end-to-end latencies of cause-effect chains.
    System(SystemArgs),
    /// Run a grid of jobs (spec TOML) in parallel, sharded and resumable, one JSON line
    /// per job; `sweep merge` and `sweep report` combine and summarise results.
    Sweep(SweepCli),
    /// Read a CUDA kernel (PTX from `nvcc -ptx`, SASS from `cuobjdump -sass` or
    /// `nvdisasm`) into an instance file: its instruction string through a unit map,
    /// barriers as `|`, loops unrolled by trip counts, with its provenance.
    Import(ImportArgs),
    /// Write the benchmark suite (instance files) into a directory.
    BenchSuite(BenchSuiteArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// `makespan bound`.
#[derive(Args)]
pub(crate) struct BoundArgs {
    #[command(flatten)]
    pub(crate) instance: InstanceArgs,
    #[command(flatten)]
    pub(crate) json: JsonArg,
}

/// `makespan solve`.
#[derive(Args)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub(crate) instance: InstanceArgs,
    #[command(flatten)]
    pub(crate) solver: SolverArgs,
    /// Print the worst-case schedule (chart, or `schedule` array with --json).
    #[arg(long)]
    pub(crate) schedule: bool,
    #[command(flatten)]
    pub(crate) json: JsonArg,
}

/// `makespan simulate`.
#[derive(Args)]
pub(crate) struct SimulateArgs {
    #[command(flatten)]
    pub(crate) instance: InstanceArgs,
    /// Warp scheduler: gto (greedy-then-oldest), lrr (loose round robin), oldest-first,
    /// or any (the worst case over every work-conserving choice, as a proven interval)
    /// (overrides the file's `scheduler`; default gto).
    #[arg(long)]
    pub(crate) scheduler: Option<String>,
    /// Latency of L (load/store) instructions in cycles, `N` or a range `MIN..MAX`
    /// (overrides the file's `latency.L`; default 1).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) latency_l: Option<String>,
    /// Latency of C (CUDA-core) instructions in cycles, `N` or `MIN..MAX` (overrides the
    /// file's `latency.C`; default 1).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) latency_c: Option<String>,
    /// Print the cycle-by-warp chart (`-` while a warp waits for a result), or the
    /// `schedule` array with --json.
    #[arg(long)]
    pub(crate) schedule: bool,
    /// Write the schedule as SVG.
    #[arg(long)]
    pub(crate) svg: Option<PathBuf>,
    /// With `--scheduler any` (fixed latencies or ranges): stop the exact search after
    /// this many seconds with the proven interval (default 10; other schedulers do not
    /// search).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) time_limit: Option<f64>,
    /// With `--scheduler any` (fixed latencies or ranges): memory limit of the exact
    /// search's state table, in bytes (2G, 512M, ...; default 2G).
    #[arg(long)]
    pub(crate) max_memory: Option<String>,
    #[command(flatten)]
    pub(crate) json: JsonArg,
}

/// `makespan approx`.
#[derive(Args)]
pub(crate) struct ApproxArgs {
    #[command(flatten)]
    pub(crate) instance: InstanceArgs,
    /// Largest y (1 <= x <= W).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) x: i64,
    #[command(flatten)]
    pub(crate) solver: SolverArgs,
    #[command(flatten)]
    pub(crate) total: TotalArgs,
    #[command(flatten)]
    pub(crate) threads: ThreadsArg,
    #[command(flatten)]
    pub(crate) json: JsonArg,
}

/// `makespan converge`.
#[derive(Args)]
pub(crate) struct ConvergeArgs {
    #[command(flatten)]
    pub(crate) instance: InstanceArgs,
    /// Largest x (1 <= x_max <= W).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) x_max: i64,
    #[command(flatten)]
    pub(crate) solver: SolverArgs,
    #[command(flatten)]
    pub(crate) total: TotalArgs,
    #[command(flatten)]
    pub(crate) threads: ThreadsArg,
    #[command(flatten)]
    pub(crate) plot: PlotArgs,
}

/// `makespan compare-constraints`.
#[derive(Args)]
pub(crate) struct CompareArgs {
    #[command(flatten)]
    pub(crate) instance: InstanceArgs,
    /// Largest W.
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) warps_max: i64,
    /// Time limit per ILP solve in seconds.
    #[arg(long, default_value_t = gpu_makespan::Budget::DEFAULT_TIME_LIMIT_PER_ILP.as_secs_f64(), allow_hyphen_values = true)]
    pub(crate) time_limit: f64,
    #[command(flatten)]
    pub(crate) total: TotalArgs,
    #[command(flatten)]
    pub(crate) plot: PlotArgs,
}

/// `makespan rta`.
#[derive(Args)]
pub(crate) struct RtaArgs {
    /// Task-set file (TOML; see instances/rta-*.toml) or examiner config (.json); `-` reads
    /// standard input.
    pub(crate) file: PathBuf,
    /// Relative deadline in seconds for every kernel of an examiner config (which has
    /// none); read exactly as written.
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) deadline: Option<String>,
    /// Analyse periodic jobs: every job released before TIME (in the task set's unit),
    /// or `hyperperiod` (the largest release plus the least common multiple of the
    /// periods). Default: one job per kernel.
    #[arg(long, value_name = "TIME|hyperperiod", allow_hyphen_values = true)]
    pub(crate) window: Option<String>,
    /// Kernels released at the same time launch in the order the file lists them (an
    /// order you know; kernels that must not overlap share a `stream` field). Default:
    /// any order, the worst reported.
    #[arg(long)]
    pub(crate) file_order: bool,
    /// GPU profile file (a `[gpu]` table; see instances/gpu-tx2.toml). Default: the TX2.
    #[arg(long)]
    pub(crate) gpu: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) json: JsonArg,
    /// Write the block-slot timeline as SVG.
    #[arg(long)]
    pub(crate) svg: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) wcet: WcetArgs,
    /// Overall limit in seconds of the WCET solves: each ends by it with its proven
    /// upper bound (C stays safe, possibly larger). Default: none.
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) total_time_limit: Option<f64>,
    /// Search limit (stored states) when C is computed from instructions.
    #[arg(long, default_value_t = gpu_makespan::SolveOptions::DEFAULT_MAX_STATES)]
    pub(crate) max_states: usize,
    /// Search memory limit in bytes when C is computed from instructions (2G, 512M,
    /// ...; default 2G).
    #[arg(long)]
    pub(crate) max_memory: Option<String>,
}

/// `makespan preempt`.
#[derive(Args)]
pub(crate) struct PreemptArgs {
    /// Task-set file (TOML with a `[framework]` table; see instances/preempt-*.toml); `-`
    /// reads standard input.
    pub(crate) file: PathBuf,
    /// GPU profile file (a `[gpu]` table; see instances/gpu-tx2.toml). Default: the TX2.
    #[arg(long)]
    pub(crate) gpu: Option<PathBuf>,
    /// Place preemption points in every kernel given by instructions or a kernel file:
    /// the fewest such that each segment's bound plus the framework's save is at most
    /// BUDGET (in the task set's unit: what a launch may add to a higher rank's wait
    /// beyond the quantum). Replaces the kernel's own points.
    #[arg(long, value_name = "BUDGET", allow_hyphen_values = true)]
    pub(crate) points_budget: Option<String>,
    /// Also analyse the task set as the TX2 shares the GPU without the framework (FIFO,
    /// stream priorities, time slicing; `makespan rta`) and print the responses side by
    /// side.
    #[arg(long)]
    pub(crate) compare: bool,
    #[command(flatten)]
    pub(crate) json: JsonArg,
    #[command(flatten)]
    pub(crate) wcet: WcetArgs,
}

/// `makespan system`.
#[derive(Args)]
pub(crate) struct SystemArgs {
    /// The model (`.amxmi` XML, or TOML; see instances/system/); `-` reads standard input.
    pub(crate) model: PathBuf,
    /// Kernels of the GPU tasks: an `rta` task set (TOML, unit s/ms/us/ns) whose kernels
    /// are named after the GPU tasks (`SFM`, or `SFM/...` for several).
    #[arg(long)]
    pub(crate) kernels: Option<PathBuf>,
    /// Cause-effect chains (TOML: `[[chains]]` with `name`, `tasks`, `requirement`).
    #[arg(long)]
    pub(crate) chains: Option<PathBuf>,
    /// Map TASK to UNIT instead of the model's allocation (repeatable).
    #[arg(long = "map", value_name = "TASK=UNIT")]
    pub(crate) map: Vec<String>,
    /// Map every task by unit number, in the model's task order (APP4RTA's integer
    /// array): units are numbered CPUs first, then GPUs (see `--unit-order`).
    #[arg(long, value_name = "N,N,...")]
    pub(crate) mapping: Option<String>,
    /// How `--mapping` numbers the units: `model` (CPUs, then GPUs, in the model's order)
    /// or `app4rta` (CPUs, then GPUs, by name: APP4RTA's numbering of the WATERS model,
    /// Denver Core0-1 as 0-1, A57 Core2-5 as 2-5, the GPU 6).
    #[arg(long, default_value = "model", value_parser = ["model", "app4rta"], requires = "mapping")]
    pub(crate) unit_order: String,
    /// Label communication: `implicit` (copy-in/copy-out, default), `direct`, or `let`
    /// (implicit copies; chain verdicts from LET latencies).
    #[arg(long, default_value = "implicit", value_parser = ["implicit", "direct", "let"])]
    pub(crate) communication: String,
    /// How offloading tasks wait: as the `model` says, or every one `sync` (active) or
    /// `async` (passive).
    #[arg(long, default_value = "model", value_parser = ["model", "sync", "async"])]
    pub(crate) offload: String,
    /// How GPU tasks share the GPU: `time-slices` (each its own context, round robin by
    /// its time slice), `fifo` (one context), or `auto` (time slices when every GPU task
    /// has one).
    #[arg(long, default_value = "auto", value_parser = ["auto", "time-slices", "fifo"])]
    pub(crate) gpu_sharing: String,
    /// The longest switch between two GPU contexts, e.g. `100us` (default: the kernels
    /// file's gpu.context_switch, else 0 and the verdict optimistic).
    #[arg(long, value_name = "TIME")]
    pub(crate) context_switch: Option<String>,
    /// Memory contention: `model` (round robin on the model's interconnect, when it gives
    /// one; a grant holds it for one burst when the model gives the burst size, the
    /// interconnect's clock and the port widths), `latency` (as `model`, a grant holding
    /// it for the unit's whole access latency: more cautious) or `off`.
    #[arg(long, default_value = "model", value_parser = ["model", "latency", "off"])]
    pub(crate) contention: String,
    /// `app4rta`: follow the GSoC document (APP4RTA) where this tool departs from it, to
    /// compare digit for digit; its numbers are not proven bounds.
    #[arg(long, value_parser = ["app4rta"])]
    pub(crate) reference: Option<String>,
    #[command(flatten)]
    pub(crate) json: JsonArg,
    /// Write each chain's worst-case reaction as an SVG timeline.
    #[arg(long)]
    pub(crate) svg: Option<PathBuf>,
    /// Wall-clock limit in seconds of the CPU analysis: the tasks not analysed by then get
    /// no R+ ("not analysed"), the bounds shown stay proven, and the status is
    /// `time_limit`. Default: none.
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) total_time_limit: Option<f64>,
    #[command(flatten)]
    pub(crate) wcet: WcetArgs,
}

/// `makespan import`.
#[derive(Args)]
pub(crate) struct ImportArgs {
    /// The PTX or SASS file (`-`: standard input).
    pub(crate) file: PathBuf,
    /// `ptx`, `sass` or `auto` (by extension, then by content).
    #[arg(long, default_value = "auto")]
    pub(crate) format: String,
    /// The kernel to import, when the file holds several (they are listed otherwise).
    #[arg(long)]
    pub(crate) entry: Option<String>,
    /// The file is one executed path: every instruction in file order, branches
    /// counted and not followed.
    #[arg(long, conflicts_with_all = ["trips", "list_branches"])]
    pub(crate) trace: bool,
    /// List every branch on the kernel's path that needs a trip count (all at once, with
    /// its line, loop or forward, the instructions it governs and a proposed count) and
    /// the `--trip` options to paste; imports nothing.
    #[arg(long)]
    pub(crate) list_branches: bool,
    /// A unit map (TOML, as maps/*.toml) whose entries replace the built-in map's.
    #[arg(long, value_name = "MAP.toml")]
    pub(crate) units: Option<PathBuf>,
    /// Trip count of the branch to LABEL (a label, or a cuobjdump address such as 0x260):
    /// a loop body runs N >= 1 times; a forward branch with 0 is never taken, otherwise
    /// always (repeatable; EXIT for a predicated exit; --list-branches proposes them all).
    /// LABEL=N1,N2,...: one count per visit (the i-th time the loop is entered).
    #[arg(long = "trip", value_name = "LABEL=N")]
    pub(crate) trips: Vec<String>,
    /// Threads per block: the warps of one block are the instance's W.
    #[arg(long, conflicts_with = "warps")]
    pub(crate) block_threads: Option<i64>,
    /// Warps of the block (instead of --block-threads).
    #[arg(long)]
    pub(crate) warps: Option<i64>,
    /// The SM: `tx2` (32 load/store units, 128 CUDA cores, warps of 32) or
    /// `L,C,S` unit counts.
    #[arg(long, default_value = "tx2")]
    pub(crate) sm: String,
    /// The architecture (`sm_62`) when the file does not state it (chooses the SASS map).
    #[arg(long)]
    pub(crate) arch: Option<String>,
    /// `ptxas -v` or `cuobjdump -res-usage` output for the file: its registers and shared
    /// memory per block go into `provenance.resources` (over what the file states).
    #[arg(long, value_name = "FILE")]
    pub(crate) resource_usage: Option<PathBuf>,
    /// The launch's dynamic shared memory per block in bytes (`extern __shared__`, the
    /// third `<<<>>>` parameter): recorded in `provenance.resources` with the block's
    /// whole shared memory (static plus dynamic).
    #[arg(long, value_name = "BYTES")]
    pub(crate) dynamic_smem: Option<u64>,
    /// Write the instance file here instead of standard output.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Print the instance and its provenance as JSON instead of TOML.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `makespan bench-suite`.
#[derive(Args)]
pub(crate) struct BenchSuiteArgs {
    /// Directory to write into.
    #[arg(long, default_value = "instances/bench")]
    pub(crate) out: PathBuf,
    /// Seed of the random kernels.
    #[arg(long, default_value_t = 2026)]
    pub(crate) seed: u64,
}

/// `--json`, shared by the commands that print a table.
#[derive(Args, Clone, Copy)]
pub(crate) struct JsonArg {
    /// Print JSON instead of the table(s).
    #[arg(long)]
    pub(crate) json: bool,
}

/// `--threads`, shared by the commands that solve in parallel.
#[derive(Args, Clone, Copy)]
pub(crate) struct ThreadsArg {
    /// Worker threads (default: all cores; at most 256).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) threads: Option<i64>,
}

/// `--csv`, `--svg` and `--log-time`, shared by the commands that plot rows.
#[derive(Args, Clone)]
pub(crate) struct PlotArgs {
    /// Write the rows as CSV.
    #[arg(long)]
    pub(crate) csv: Option<PathBuf>,
    /// Write the plot as SVG.
    #[arg(long)]
    pub(crate) svg: Option<PathBuf>,
    /// Plot the times on a logarithmic axis.
    #[arg(long)]
    pub(crate) log_time: bool,
}

/// `--time-limit` of the commands that compute per-block WCETs from instructions.
#[derive(Args, Clone, Copy)]
pub(crate) struct WcetArgs {
    /// Time limit per distinct kernel when C is computed from instructions (one deadline
    /// for all its barrier phases).
    #[arg(long, default_value_t = gpu_makespan::Budget::DEFAULT_TIME_LIMIT_PER_SOLVE.as_secs_f64(), allow_hyphen_values = true)]
    pub(crate) time_limit: f64,
}

/// `makespan sweep SPEC --out FILE [--shard I/N] [--resume] [--threads N]`, or a
/// `merge`/`report` subcommand.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct SweepCli {
    #[command(subcommand)]
    pub(crate) action: Option<SweepAction>,
    /// Sweep spec (TOML; see instances/sweeps/).
    #[arg(required = true)]
    pub(crate) spec: Option<PathBuf>,
    /// Results file (JSON Lines), appended as each job ends.
    #[arg(long, required = true)]
    pub(crate) out: Option<PathBuf>,
    /// Run only shard I of N (1 <= I <= N): a fixed, balanced subset of the jobs.
    #[arg(long)]
    pub(crate) shard: Option<String>,
    /// Skip the jobs whose id is already in --out (and continue the file).
    #[arg(long)]
    pub(crate) resume: bool,
    /// Jobs run at once (default: all cores; at most 256).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) threads: Option<i64>,
    /// List the jobs (id and parameters, one JSON line each) without running them.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

#[derive(Subcommand)]
pub(crate) enum SweepAction {
    /// Merge results files into one (one record per id, sorted by id); refuses two
    /// records of one id whose results differ (timings aside).
    Merge {
        /// Results files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Merged results file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Summarise results: a table on stdout, optionally CSV and an SVG of values and times.
    Report {
        /// Results files (more than one are merged first).
        files: Vec<PathBuf>,
        /// Write the rows as CSV (default path: the first file with .csv).
        #[arg(long, num_args = 0..=1)]
        csv: Option<Option<PathBuf>>,
        /// Write the plots as SVG (default path: the first file with .svg).
        #[arg(long, num_args = 0..=1)]
        svg: Option<Option<PathBuf>>,
    },
}

/// An instance: a file, or --kernel/--warps/--sigma-l/--sigma-c.
#[derive(Args, Clone)]
pub(crate) struct InstanceArgs {
    /// Instance file (TOML; see instances/); `-` reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// Instruction string instead of a file (L = load/store, C = CUDA core).
    #[arg(long)]
    pub(crate) kernel: Option<String>,
    /// Number of warps W (with a file: overrides the file's `warps`).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) warps: Option<i64>,
    /// sigma_L, integer >= 1 (default 1; not with a file).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) sigma_l: Option<i64>,
    /// sigma_C, integer >= 1 (default 1; not with a file).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) sigma_c: Option<i64>,
    /// Warps per thread block (solve and bound): the W warps are W / this blocks, each
    /// with its own barriers (overrides the file's `warps_per_block`).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) warps_per_block: Option<i64>,
}

#[derive(Args, Clone)]
pub(crate) struct SolverArgs {
    /// Exact method: `search` (combinatorial, default), `ilp` (paper's ILP with HiGHS),
    /// `both` (cross-check), `heuristic` (lower bound only; `solve` only: approx and
    /// converge need exact values).
    #[arg(long, default_value = "search", value_parser = PossibleValuesParser::new(Method::NAMES).try_map(|s| s.parse::<Method>()))]
    pub(crate) method: Method,
    /// ILP work-conserving constraints: short (eqs. 34/37, the default) or long (33/36);
    /// with --method ilp or both only.
    #[arg(long, value_parser = PossibleValuesParser::new(ConstraintForm::NAMES).map(|s| s.parse::<ConstraintForm>().expect("listed")))]
    pub(crate) constraints: Option<ConstraintForm>,
    /// ILP horizon: `safe` (proven, default), `paper` (eq. 5; may truncate), or a number of cycles.
    #[arg(long, default_value = "safe", allow_hyphen_values = true)]
    pub(crate) horizon: Horizon,
    /// Stop after this many seconds (wall clock, the whole command) with the best proven
    /// bounds and status `time_limit`; `none`: run to the end. Default: 60 for `solve`,
    /// 10 per solve for `approx` and `converge`.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_time_limit)]
    pub(crate) time_limit: Option<TimeLimit>,
    /// Limit of the search's branch and bound in stored states (the dense table is
    /// bounded by --max-memory).
    #[arg(long, default_value_t = gpu_makespan::SolveOptions::DEFAULT_MAX_STATES)]
    pub(crate) max_states: usize,
    /// Memory limit of the search's state table, in bytes (2G, 512M, ...; default 2G);
    /// the dense table of all C(I+W, W) states is used only if it fits in half of it.
    /// approx and converge share it among the T^(y) solves that run at once.
    #[arg(long)]
    pub(crate) max_memory: Option<String>,
    /// Leave out the ILP's symmetry-breaking rows (pure Fig. 3 model); with --method ilp
    /// or both only.
    #[arg(long)]
    pub(crate) no_symmetry_breaking: bool,
    /// Never use the search's dense table of all C(I+W, W) states (branch and bound only).
    #[arg(long)]
    pub(crate) no_dense: bool,
}

/// The overall limit of the commands that run many solves.
#[derive(Args, Clone)]
pub(crate) struct TotalArgs {
    /// Overall limit in seconds: no solve starts after it and running ones end by it;
    /// the rows finished are printed with status `total_time_limit`. Default: none (each
    /// solve has its --time-limit).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) total_time_limit: Option<f64>,
}

/// `--time-limit`: seconds, or `none` (no limit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TimeLimit {
    /// This many seconds (checked when the budget is built).
    Seconds(f64),
    /// Run to the end.
    Unlimited,
}

fn parse_time_limit(text: &str) -> Result<TimeLimit, String> {
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(TimeLimit::Unlimited);
    }
    text.trim().parse::<f64>().map(TimeLimit::Seconds).map_err(|_| format!("{text}: give a number of seconds, or none"))
}

/// What every column and line of the `rta` table means (`rta --help`).
const RTA_LEGEND: &str = "The table, column by column (times in the task set's unit):
  kernel    the kernel's name
  release   r: the release of the job whose response is shown
  C         the per-block execution time used (the line `C of NAME` says what it rests on)
  blocks    g: blocks per job
  b         threads per block
  finish    f: the reported (safe) finish of that job
  response  R = f - r (`worst R` with --window: the worst over the kernel's jobs)
  deadline  the relative deadline (- if none)
  launch    how its launch among kernels released together was handled: alone (none
            released with it), worst order (every order tried), given order
            (launch_order or --file-order), bound (ties) (a bound over every order)
  verdict   [proven] the response is a proven upper bound; [OPTIMISTIC] this kernel's C
            is known not to bound its block's time; [not proven] another kernel's C is
            optimistic; then meets deadline, MISSES DEADLINE, or - (no deadline)
Times are rounded up to 6 significant digits (whole numbers in full): a shown response is
never below the exact one; --json has the exact values (`*_exact`).
The lines below: task set (the verdict), unit, responses (which guarantee holds, in
words), times, launch (how tied releases launch), worst order (the order that gives a
kernel's response), g_max (the GPU's block slots), utilization (of the GPU's
thread-time; 1.0 is the whole GPU), C of NAME (wcet_source), assumes (every assumption
the verdict rests on).";
