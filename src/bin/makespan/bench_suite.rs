//! The benchmark suite (`instances/bench/`): the paper's kernels, the TX2 block, seeded
//! random kernels of realistic shape on the TX2 and Fermi profiles, and kernels written
//! from the usual shape of compiled CUDA code. `makespan bench-suite` writes it.
//!
//! Random kernels alternate runs of L's (1 to 4, uniform) and runs of C's (1 to 12,
//! uniform), starting with either, cut to the length asked for: about 3 L in 10, as in
//! memory-bound GPU code. The generator is a xorshift64* stream from the seed, so a seed
//! always gives the same suite.

use std::fmt::Write;

/// One instance of the suite: a file name and the text of an instance file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchInstance {
    /// File name, e.g. `tx2-0064.toml`.
    pub name: String,
    /// Instance-file text (TOML).
    pub text: String,
}

/// The TX2 SM profile: sigma_L = 1, sigma_C = 4.
const TX2_SM: &str = "[sm]\nload_store_units = 32\ncuda_cores = 128\nwarp_size = 32\n";
/// Fermi (compute capability 2.0): sigma_L = 1/2, sigma_C = 1.
const FERMI_SM: &str = "[sm]\nload_store_units = 16\ncuda_cores = 32\nwarp_size = 32\n";

/// Lengths of the random kernels.
pub const LENGTHS: [usize; 8] = [16, 24, 32, 64, 128, 256, 512, 1024];

/// Kernels written from the usual shape of nvcc output for compute capability 6.x. Each
/// SASS instruction is one letter: memory instructions (LDG, STG, LDS, STS, LD, ST,
/// ATOM, RED) are `L`, everything else (integer and floating-point arithmetic, S2R,
/// comparisons, branches, BAR, EXIT) is `C`. They were written by hand, not taken from
/// a compiler run.
pub const HAND_WRITTEN: [(&str, &str, &str); 3] = [
    (
        "saxpy",
        "y[i] = a * x[i] + y[i]: S2R x2, IMAD, ISETP, @P0 EXIT, SHL, SHR, 4 x IADD (addresses), LDG x, LDG y, FFMA, STG y, EXIT",
        "CCCCC CCCCCC LL C L C",
    ),
    (
        "reduce-shared",
        "block sum in shared memory (256 threads): index set-up, LDG, STS, BAR; then 8 halving steps of SHR, ISETP, @P BRA, LDS, LDS, FADD, STS, BAR; then ISETP, @P BRA, the first thread's STG, EXIT",
        "CCCC L L C CCC LLCLC CCC LLCLC CCC LLCLC CCC LLCLC CCC LLCLC CCC LLCLC CCC LLCLC CCC LLCLC CC L C",
    ),
    (
        "gemm-tile",
        "inner loop of a 16 x 16 shared-memory tiled SGEMM, 4 x 4 results per thread, unrolled over 4 k: per k, LDS.128 of A and of B, 16 FFMA; loop bookkeeping",
        "LL CCCCCCCCCCCCCCCC LL CCCCCCCCCCCCCCCC LL CCCCCCCCCCCCCCCC LL CCCCCCCCCCCCCCCC CCC",
    ),
];

/// A xorshift64* stream.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
}

/// A random kernel of `len` instructions (see the module docs).
pub fn random_kernel(len: usize, stream_seed: u64) -> String {
    let mut s = Stream(stream_seed.max(1));
    let mut out = String::with_capacity(len);
    let mut l_run = s.next().is_multiple_of(2);
    while out.len() < len {
        let (letter, n) = if l_run { ('L', s.range(1, 4)) } else { ('C', s.range(1, 12)) };
        out.extend(std::iter::repeat_n(letter, n.min(len - out.len())));
        l_run = !l_run;
    }
    out
}

fn file(description: &str, kernel: &str, warps: u32, sm: &str) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "description = {description:?}");
    let _ = writeln!(text, "kernel = {kernel:?}");
    let _ = writeln!(text, "warps = {warps}");
    text.push_str(sm);
    text
}

/// The whole suite for `seed`.
pub fn suite(seed: u64) -> Vec<BenchInstance> {
    let mut out = Vec::new();
    let mut add = |name: String, text: String| out.push(BenchInstance { name, text });
    for (name, kernel, warps, sigma) in
        [("paper-llc", "LLC", 4, 1), ("paper-lcl", "LCL", 4, 1), ("paper-llcll", "LLCLL", 64, 1), ("paper-lclcl", "LCLCL", 64, 1)]
    {
        add(format!("{name}.toml"), format!("description = \"the paper's kernel {kernel}\"\nkernel = \"{kernel}\"\nwarps = {warps}\nsigma_l = {sigma}\nsigma_c = {sigma}\n"));
    }
    add("tx2-block.toml".into(), file("the TX2 block kernel of instances/tx2-block.toml at a full SM", "LLCCCCLCLCCL", 64, TX2_SM));
    for (i, &len) in LENGTHS.iter().enumerate() {
        let kernel = random_kernel(len, seed.wrapping_mul(1000).wrapping_add(i as u64 + 1));
        let what = format!("random kernel, seed {seed}, {len} instructions (L runs 1-4, C runs 1-12)");
        add(format!("tx2-{len:04}.toml"), file(&format!("{what}; TX2 SM, full SM (64 warps)"), &kernel, 64, TX2_SM));
        add(format!("fermi-{len:04}.toml"), file(&format!("{what}; Fermi SM (sigma_L = 1/2), 48 warps (its most)"), &kernel, 48, FERMI_SM));
    }
    for (name, what, kernel) in HAND_WRITTEN {
        add(format!("cuda-{name}.toml"), file(&format!("{what}; TX2 SM, full SM"), kernel, 64, TX2_SM));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_makespan::Instance;

    #[test]
    fn suite_is_seeded_valid_and_realistic() {
        let a = suite(2026);
        assert_eq!(a, suite(2026));
        assert_ne!(a, suite(7));
        for b in &a {
            Instance::from_toml(&b.text, &b.name).unwrap_or_else(|e| panic!("{}: {e}", b.name));
        }
        let k = random_kernel(1024, 5);
        assert_eq!(k.len(), 1024);
        let l = k.chars().filter(|&c| c == 'L').count() as f64 / 1024.0;
        assert!((0.2..0.4).contains(&l), "L share {l}");
    }
}
